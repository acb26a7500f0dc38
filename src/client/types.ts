/** Response shapes of the /v1 API as clients read them (the server's zod schemas are the source of truth). */

export type BatchStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type GateName = 'placeholders' | 'plurals' | 'glossary' | 'length';

export interface GateFailure {
  gate: GateName;
  reason: string;
  attempt?: number;
}

export interface Batch {
  id: string;
  status: BatchStatus;
  path: string | null;
  format: string | null;
  keys: { added: number; changed: number; unchanged: number; removed: number };
  rows: { total: number; queued: number; done: number; failed: number; cancelled: number; outcomes: Record<string, number> };
  words: { reserved: number; spent: number; refunded: number };
  /** Rows settled a minute since the batch started, and the seconds left at that pace; null before the first row settles. Absent from older services. */
  rate?: { rows_per_minute: number | null; eta_seconds: number | null };
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface BatchRow {
  key: string;
  path: string;
  /** Line of the key in the pushed source file, when the format has lines. */
  line: number | null;
  locale: string;
  status: 'queued' | 'done' | 'failed' | 'cancelled';
  outcome: string;
  reason: string | null;
  words: number;
  pass: 'fast' | 'careful';
  attempts: number;
  gate_outcome: 'passed' | 'corrected' | 'flagged' | 'refused' | null;
  gate_failures: GateFailure[];
  corrective_retries: number;
  provider: string | null;
}

export interface BatchWithRows extends Batch {
  row_outcomes: { items: BatchRow[]; next_cursor: string | null };
}

export interface Project {
  id: string;
  name: string;
  source_locale: string;
  target_locales: string[];
  length_budget_percent: number | null;
  /** Release settings (see /v1/releases). */
  delivery: { release_on_batch: boolean; bundle_shape: 'flat' | 'nested'; bundle_files: boolean };
  /** `plan`: free, starter, unlimited, or a plan the operator configured. */
  organisation: { id: string; name: string; plan: string };
  /** `unlimited` (servers since configurable plans): no word limit; the numbers are then only bookkeeping. */
  allowance: { words_remaining: number; words_per_month: number; unlimited?: boolean; period_start: string; period_end: string };
  created_at: string;
}

/** What PATCH /v1/project answers with. */
export interface ProjectSettings {
  length_budget_percent: number | null;
  release_on_batch: boolean;
  bundle_shape: 'flat' | 'nested';
  bundle_files: boolean;
}

export interface Language {
  tag: string;
  name: string | null;
  role: 'source' | 'target';
  known: boolean;
  added_at: string | null;
}

/**
 * What POST /v1/languages answers: the language, and the batch translating every existing key into it (null when the
 * project has no keys yet, or when the batch could not be queued: `batch_problem` says why, e.g. the allowance).
 */
export interface AddedLanguage extends Language {
  batch: Batch | null;
  batch_problem: { code: string; detail: string } | null;
}

/** What POST /v1/translations/upload answers: per key of the source file, what became of the file's value. */
export interface TranslationsUpload {
  path: string;
  locale: string;
  dry_run: boolean;
  /** Keys written as human translations (new or different values). */
  uploaded: string[];
  /** Values equal to what the service holds. */
  unchanged: number;
  /** Values a gate refused (written as human translations carrying their failures), or of the wrong plural shape (not written). */
  refused: { key: string; reason: string }[];
  /** Keys of the file the source file does not have: not written. */
  unknown_keys: string[];
}

/** A source file the service holds, with the SHA-256 of the bytes last pushed. */
export interface SourceFile {
  path: string;
  format: string;
  sha256: string;
  keys: number;
  updated_at: string;
  /** Null for a good path; for a path stored before the repository path rule, why pull refuses it. */
  path_invalid: string | null;
}

export interface PulledFile {
  body: Uint8Array;
  format: string;
  /** Keys left out of the file: a plural the format cannot express, or a translation held for review. */
  refused: { count: number; keys: string[]; reasons: string[] };
}

/** One target file of GET /v1/pull's archive, as its manifest describes it. */
export interface ArchiveFile {
  /** The source file's path as it was pushed. */
  path: string;
  locale: string;
  format: string;
  body: Uint8Array;
  /** Active keys of the source file. */
  keys: number;
  /** Translatable keys with no translation in this locale yet. */
  missing: string[];
  /** Keys whose translation the gates flagged. */
  flagged: string[];
  /** Keys left out of the file, and why (held for review, a plural the format cannot express). */
  refused: { key: string; reason: string }[];
}

/** GET /v1/pull's archive of every pushed file, or `not_modified` when the ETag sent still names it. */
export type PulledArchive = { status: 'not_modified'; etag: string } | { status: 'ok'; etag: string | null; source_locale: string; files: ArchiveFile[] };

export interface GlossaryTerm {
  id: string;
  term: string;
  translations: Record<string, string>;
  case_sensitive: boolean;
  forbidden: boolean;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export type ReviewState = 'held' | 'rejected' | 'flagged' | 'accepted' | 'approved' | 'human';

export interface TranslationRow {
  key: string;
  path: string;
  locale: string;
  state: ReviewState;
  source: string;
  source_plurals: Record<string, string> | null;
  text: string;
  plurals: Record<string, string> | null;
  origin: string;
  failures: GateFailure[];
  stale: boolean;
  batch_id: string | null;
  reviewed_at: string | null;
  updated_at: string;
}

export interface QaRun {
  id: string;
  checked: number;
  passed: number;
  flagged: number;
  refused: number;
  not_checked: { key: string; path: string | null; locale: string; reason: string }[];
  items: { key: string; path: string; locale: string; checked: 'stored' | 'given'; outcome: 'passed' | 'flagged' | 'refused'; failures: GateFailure[] }[];
  created_at: string;
}

export interface Token {
  id: string;
  name: string;
  kind: 'api' | 'session';
  /** The first characters of the secret, to recognise it. */
  prefix: string;
  abilities: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** The four organisation roles; a member has one per project (the organisation role unless a project sets another). */
export type Role = 'owner' | 'admin' | 'developer' | 'translator';

/** A member of the project's organisation, with their role on this project (GET /v1/members). */
export interface Member {
  user_id: string;
  email: string;
  name: string | null;
  /** The role on this project. */
  role: Role;
  /** The organisation-wide role, used on projects that set none of their own. */
  organisation_role: Role;
  /** True when this project sets the role (it differs from, or overrides, the organisation role). */
  project_override: boolean;
  abilities: string[];
  joined_at: string;
}

export interface Seats {
  plan: string;
  /** null: the plan has no seat limit. */
  limit: number | null;
  /** Members plus pending invitations. */
  used: number;
  members: number;
  pending_invitations: number;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  /** The single-use link to accept it. Always in the answer that creates it; in lists only while pending, and only when the server keeps links encrypted (PARLANCE_SECRET_KEY). */
  url: string | null;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** True when SMTP is configured and the mail was accepted by the server. */
  mailed: boolean;
}

/** One key of the grid (GET /v1/keys) with its translation in the chosen locale. */
export type KeyState = 'missing' | 'held' | 'flagged' | 'human' | 'machine';

export interface KeyRow {
  key: string;
  path: string;
  line: number | null;
  source: string;
  source_plurals: Record<string, string> | null;
  notes: string | null;
  context: string | null;
  max_length: number | null;
  pass: 'fast' | 'careful';
  /** Tags the key brought from another platform (imports). */
  tags?: string[];
  locale: string;
  /** The key's state in this locale: missing (no translation), held (refused, waiting for review), flagged, human (human or approved), machine. */
  state: KeyState;
  translation: {
    text: string;
    plurals: Record<string, string> | null;
    state: ReviewState;
    origin: string;
    failures: GateFailure[];
    updated_at: string;
  } | null;
  /** A refused candidate waiting for review, when the key is held. */
  held: { text: string; plurals: Record<string, string> | null; failures: GateFailure[]; created_at: string } | null;
}

export interface KeyPage extends Page<KeyRow> {
  /** How many keys match the filters (all pages). */
  total: number;
}

export interface LocaleProgress {
  locale: string;
  keys: number;
  translated: number;
  /** Of `translated`: by a provider or the translation memory. */
  machine: number;
  /** Of `translated`: by a person (human or approved). */
  human: number;
  held: number;
  flagged: number;
  missing: number;
}

export interface Progress {
  keys: number;
  locales: LocaleProgress[];
}

export interface Webhook {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  failing_since: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { attempt: number; started_at: string; status: number | null; latency_ms: number; response: string | null; error: string | null }[];
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The signed-in person (GET /v1/auth/session). */
export interface AccountUser {
  id: string;
  email: string;
  name: string | null;
  created_at: string;
}

export interface AccountSession {
  user: AccountUser;
  session: { id: string; created_at: string; expires_at: string };
  organisations: { id: string; name: string; plan: string; role: Role; seats: Seats; can_mint_tokens: boolean }[];
  projects: { id: string; name: string; organisation_id: string; source_locale: string; role: Role; abilities: string[] }[];
}

/** A browser session of the signed-in user (GET /v1/auth/sessions). */
export interface BrowserSession {
  id: string;
  current: boolean;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A short-lived credential bound to one project, with the abilities of the user's role there (POST /v1/auth/credentials). */
export interface ProjectCredential {
  token: string;
  expires_at: string;
  project_id: string;
  role: Role;
  abilities: string[];
}

export interface InvitationPreview {
  organisation: { id: string; name: string };
  project: { id: string; name: string } | null;
  email: string;
  role: Role;
  expires_at: string;
}

export interface Release {
  id: string;
  number: number;
  content_hash: string;
  shape: 'flat' | 'nested';
  includes_files: boolean;
  trigger: 'api' | 'batch';
  batch_id: string | null;
  created_at: string;
  /** Each locale's JSON bundle; `path` is its CDN path (`/cdn/{bundle_id}/{number}/{locale}.json`). */
  locales: { locale: string; keys: number; bytes: number; sha256: string; path: string }[];
  files: { path: string; source_path: string | null; locale: string; format: string; keys: number; bytes: number; sha256: string; url: string }[];
  manifest: { path: string; bytes: number; sha256: string } | null;
}

export interface StorageTarget {
  id: string;
  name: string;
  kind: 's3' | 'azure_blob';
  enabled: boolean;
  s3: { endpoint: string | null; region: string; bucket: string; force_path_style: boolean } | null;
  azure_blob: { container: string; account_url: string | null } | null;
  credentials: { hint: string };
  prefix: string;
  path_template: string;
  files_template: string | null;
  cache_control: string | null;
  status: 'idle' | 'pending' | 'syncing' | 'ok' | 'failed';
  last_error: string | null;
  last_release_number: number | null;
  last_synced_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The body of POST /v1/storage-targets (credentials are written, never read back). */
export type StorageTargetInput = {
  name: string;
  enabled?: boolean;
  prefix?: string;
  path_template?: string;
  files_template?: string | null;
  cache_control?: string | null;
} & (
  | { kind: 's3'; s3: { endpoint?: string; region?: string; bucket: string; force_path_style?: boolean }; credentials: { access_key_id: string; secret_access_key: string; session_token?: string } }
  | { kind: 'azure_blob'; azure_blob: { container: string; account_url?: string }; credentials: { connection_string: string } | { sas_url: string } }
);

/** The body of PATCH /v1/storage-targets/:id: only the fields given change, also inside `s3` and `azure_blob`; null removes an optional setting. */
export interface StorageTargetPatch {
  name?: string;
  enabled?: boolean;
  prefix?: string;
  path_template?: string;
  files_template?: string | null;
  cache_control?: string | null;
  s3?: { endpoint?: string | null; region?: string; bucket?: string; force_path_style?: boolean };
  azure_blob?: { container?: string; account_url?: string | null };
  credentials?: { access_key_id: string; secret_access_key: string; session_token?: string } | { connection_string: string } | { sas_url: string };
}

export interface StorageSync {
  id: string;
  target_id: string;
  release: number;
  trigger: 'release' | 'api';
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'superseded';
  attempts: number;
  uploaded: number;
  unchanged: number;
  error: string | null;
  next_attempt_at: string | null;
  log: { at: string; message: string }[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export type ImportPlatform = 'crowdin' | 'lokalise' | 'phrase' | 'transifex' | 'tolgee' | 'poeditor';

export interface ImportOptionsInput {
  conflict?: 'keep_human' | 'overwrite';
  unreviewed?: 'accept' | 'hold';
  dry_run?: boolean;
}

export interface ImportLocaleTally {
  /** Active keys with a translation in this locale once the import completed. */
  keys: number;
  /** Translations imported: human + machine + held + flagged. */
  translations: number;
  human: number;
  machine: number;
  held: number;
  flagged: number;
  kept: number;
  memory: number;
  /** Glossary terms imported with a translation into this locale. */
  glossary: number;
}

export interface ImportJob {
  id: string;
  platform: ImportPlatform;
  source: 'api' | 'archive';
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  options: { conflict: string; unreviewed: string; dry_run: boolean };
  archive_name: string | null;
  progress: { message?: string; done?: number; total?: number };
  report: {
    keys: { added: number; updated: number; unchanged: number };
    locales: Record<string, ImportLocaleTally>;
    locale_mappings: Record<string, string>;
    languages_added: string[];
    /** Platform locales whose translations were left out (no room on the plan, or not a language of the project). */
    locales_refused?: string[];
    memory_units: number;
    glossary_terms: { added: number; updated: number };
    /** `state`: how the failing translation was imported (`human`: reviewed on the platform, protected). */
    gate_failures: { key: string; path: string; locale: string; gate: string; reason: string; state?: 'human' | 'flagged' | 'held' }[];
    gate_failures_count: number;
    warnings: { message: string; ref?: string }[];
    warnings_count: number;
    /** Files skipped because their path breaks the repository path rule (`../x.json`); absent from an older server's report. */
    refused_paths?: { path: string; problem: string; message: string }[];
    refused_paths_count?: number;
  };
  error: string | null;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export type ConnectorCategory = 'code_host' | 'content' | 'design' | 'automation';

/** GET /v1/integrations/catalog: one connector. */
export interface CatalogConnector {
  id: string;
  name: string;
  category: ConnectorCategory;
  direction: 'two_way' | 'import_only';
  summary: string;
  /** How change notifications are verified; null when the remote system sends none. */
  webhooks: string | null;
  endpoint: string;
  /** The file the connector reads, uploaded with `parlance integrations upload` (Sketch, Penpot); null when it reads none. */
  upload: { description: string; extensions: string[] } | null;
  /** JSON Schemas of `settings` and `secrets` at connect; null for the GitHub App. */
  settings_schema: Record<string, unknown> | null;
  secrets_schema: Record<string, unknown> | null;
}

export interface IntegrationSyncCounts {
  units: number;
  strings: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  human_edits: number;
  refused_edits: number;
  written: number;
  kept_remote: number;
}

export interface IntegrationSync {
  id: string;
  connection_id: string;
  trigger: 'api' | 'connect' | 'schedule' | 'webhook' | 'upload';
  status: 'queued' | 'retrying' | 'running' | 'waiting_batch' | 'succeeded' | 'failed' | 'cancelled';
  phase: 'read' | 'write';
  batch_id: string | null;
  attempts: number;
  next_attempt_at: string | null;
  counts: IntegrationSyncCounts;
  error: string | null;
  log: { at: string; message: string }[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface IntegrationConnection {
  id: string;
  connector: string;
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  schedule_minutes: number | null;
  next_scheduled_at: string | null;
  status: 'never_synced' | 'syncing' | 'ok' | 'retrying' | 'error' | 'disabled';
  last_error: string | null;
  last_sync: IntegrationSync | null;
  webhook_url: string;
  /** Only in the answer to connect. */
  webhook_secret?: string;
  /** What the remote system sent once when its webhook subscription was made (Notion's verification token), to confirm there and set as webhook_secret. */
  webhook_handshake: { value: string; received_at: string } | null;
  /** Connectors that read an uploaded file (Sketch, Penpot): the file the next sync reads, or null; absent for the others. */
  upload?: { name: string; size: number; sha256: string; uploaded_at: string } | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectInput {
  name?: string;
  settings: Record<string, unknown>;
  secrets: Record<string, unknown>;
  webhook_secret?: string;
  schedule_minutes?: number | null;
  enabled?: boolean;
  /** Start the first sync at once (default true). */
  sync?: boolean;
}

export interface ConnectionPatch {
  name?: string;
  settings?: Record<string, unknown>;
  secrets?: Record<string, unknown>;
  webhook_secret?: string;
  schedule_minutes?: number | null;
  enabled?: boolean;
}

export type ProviderKind = 'pseudo' | 'openai' | 'anthropic' | 'deepl' | 'libretranslate';

/** GET/PATCH /v1/project/translation. */
export interface TranslationSettings {
  fast: { provider: ProviderKind | null; model: string | null };
  careful: { provider: ProviderKind | null; model: string | null };
  style_guide: { product: string | null; audience: string | null; tone: string | null; formality: Record<string, 'formal' | 'informal'>; keep: string[] };
  available: ProviderKind[];
  defaults: { fast: { provider: ProviderKind; model: string | null }; careful: { provider: ProviderKind; model: string | null } };
  /** The project's own API keys, by provider, as their last four characters ('…7Qx9'). */
  own_keys: Partial<Record<OwnKeyKind, string>>;
  /** Why stored own keys are not used (they do not open with the service's PARLANCE_SECRET_KEY), or null. */
  own_keys_problem: string | null;
}

/** The providers a project may bring its own API key for. */
export type OwnKeyKind = 'openai' | 'anthropic' | 'deepl';

/** What PATCH /v1/project/translation takes: fields left out keep their value. */
export interface TranslationSettingsPatch {
  fast?: { provider?: ProviderKind | null; model?: string | null };
  careful?: { provider?: ProviderKind | null; model?: string | null };
  style_guide?: Partial<TranslationSettings['style_guide']>;
  /** A key sets the project's own key for that provider (write-only); null removes it. */
  own_keys?: Partial<Record<OwnKeyKind, string | null>>;
}
