/** Row types of the database, as Kysely sees them; mirrors server/db/migrations. */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { PluralForms } from '../../src/core/formats/codec.js';
import type { GateName } from '../../src/core/gates/types.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb plural forms: written as JSON text, read back parsed. */
type PluralColumn = ColumnType<PluralForms | null, string | null | undefined, string | null>;

/** A plan's name: free, starter, unlimited or one of PARLANCE_PLANS's (server/services/plans.ts). */
export type Plan = string;
export type BatchStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type RowStatus = 'queued' | 'done' | 'failed' | 'cancelled';
export type PassName = 'fast' | 'careful';
export type TranslationState = 'accepted' | 'flagged' | 'approved' | 'human';
export type RowGateOutcome = 'passed' | 'corrected' | 'flagged' | 'refused';
export type MemoryOrigin = 'fast' | 'careful' | 'human' | 'tmx';
/** A gate failure as stored: which gate, why, and on which attempt (1 = first translation, 2 = the corrective retry). */
export interface StoredFailure {
  gate: GateName;
  reason: string;
  attempt?: number;
}
/** jsonb list of gate failures: written as JSON text, read back parsed. */
type FailuresColumn = ColumnType<StoredFailure[] | null, string | null | undefined, string | null>;

export interface OrganisationsTable {
  id: string;
  name: string;
  plan: Plan;
  words_remaining: number;
  period_start: Timestamp;
  period_end: Timestamp;
  created_at: Generated<Date>;
}

export interface ProjectsTable {
  id: string;
  organisation_id: string;
  name: string;
  source_locale: string;
  length_budget_percent: number | null;
  /** GET/PATCH /v1/project/translation (services/translation-settings.ts); null: the operator's defaults. */
  translation_settings: unknown;
  /** The project's own provider API keys, sealed (services/translation-settings.ts `readTranslationSetup`); null: none. */
  provider_keys: string | null;
  /** The public CDN route's secret path segment; minted at the first release, replaced on rotation. */
  bundle_id: string | null;
  /** Publish a release after every completed batch. */
  release_on_batch: Generated<boolean>;
  bundle_shape: Generated<BundleShape>;
  /** Releases also carry every source file's translations in its own format. */
  bundle_files: Generated<boolean>;
  created_at: Generated<Date>;
}

export type BundleShape = 'flat' | 'nested';

export interface ProjectLanguagesTable {
  project_id: string;
  tag: string;
  created_at: Generated<Date>;
}

export interface TokensTable {
  id: string;
  project_id: string;
  kind: 'api' | 'session';
  name: string;
  display_prefix: string;
  secret_hash: string;
  abilities: string[];
  created_at: Generated<Date>;
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  browser_session_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SourceFilesTable {
  project_id: string;
  path: string;
  format: string;
  content: Uint8Array;
  content_sha256: string;
  updated_at: Generated<Date>;
}

export interface KeysTable {
  id: string;
  project_id: string;
  path: string;
  key: string;
  source: string;
  notes: string | null;
  context: string | null;
  max_length: number | null;
  pass: PassName;
  source_hash: string;
  source_plurals: PluralColumn;
  translatable: Generated<boolean>;
  position: number;
  line: number | null;
  state: 'active' | 'removed';
  /** Tags a project brought from another platform (imports); null otherwise. */
  tags: ColumnType<string[] | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  removed_at: NullableTimestamp;
}

export interface TranslationsTable {
  key_id: string;
  locale: string;
  text: string;
  plurals: PluralColumn;
  source_hash: string;
  origin: string;
  batch_id: string | null;
  state: Generated<TranslationState>;
  failures: FailuresColumn;
  stale: Generated<boolean>;
  reviewed_at: NullableTimestamp;
  updated_at: Generated<Date>;
}

export interface HeldTranslationsTable {
  key_id: string;
  locale: string;
  text: string;
  plurals: PluralColumn;
  source_hash: string;
  failures: ColumnType<StoredFailure[], string, string>;
  origin: string;
  batch_id: string | null;
  state: 'held' | 'rejected';
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface GlossaryTermsTable {
  id: string;
  project_id: string;
  term: string;
  case_sensitive: boolean;
  forbidden: boolean;
  notes: string | null;
  translations: ColumnType<Record<string, string>, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface MemoryEntriesTable {
  organisation_id: string;
  source_locale: string;
  locale: string;
  source_sha: string;
  source: string;
  source_plurals: PluralColumn;
  text: string;
  plurals: PluralColumn;
  origin: MemoryOrigin;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface QaRunsTable {
  id: string;
  project_id: string;
  scope: ColumnType<unknown, string, string>;
  checked: number;
  passed: number;
  flagged: number;
  refused: number;
  created_at: Generated<Date>;
}

export interface BatchesTable {
  id: string;
  project_id: string;
  status: BatchStatus;
  path: string | null;
  format: string | null;
  keys_added: Generated<number>;
  keys_changed: Generated<number>;
  keys_unchanged: Generated<number>;
  keys_removed: Generated<number>;
  words_reserved: Generated<number>;
  words_refunded: Generated<number>;
  error: string | null;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  enqueued_at: NullableTimestamp;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface BatchRowsTable {
  id: Generated<string>;
  batch_id: string;
  key_id: string;
  locale: string;
  source_hash: string;
  pass: PassName;
  words: number;
  status: Generated<RowStatus>;
  outcome: string | null;
  reason: string | null;
  provider: string | null;
  attempts: Generated<number>;
  gate_outcome: RowGateOutcome | null;
  failures: FailuresColumn;
  retries: Generated<number>;
  repaired_drift: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface WebhooksTable {
  id: string;
  project_id: string;
  url: string;
  description: string | null;
  events: ColumnType<string[], string[] | undefined, string[]>;
  enabled: Generated<boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: NullableTimestamp;
  disabled_reason: string | null;
  disabled_at: NullableTimestamp;
  failing_since: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface EventsTable {
  id: string;
  project_id: string;
  type: string;
  payload: string;
  created_at: Generated<Date>;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  last_status: number | null;
  last_error: string | null;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempt: number;
  started_at: Generated<Date>;
  status: number | null;
  latency_ms: number;
  response: string | null;
  error: string | null;
}

export interface IdempotencyRecordsTable {
  project_id: string;
  key: string;
  route: string;
  request_sha256: string;
  status: number | null;
  body: string | null;
  created_at: Generated<Date>;
}

export interface GithubLinksTable {
  id: string;
  project_id: string;
  /** bigint: PGlite reads it as a number, node-postgres as text; read it through Number(). */
  installation_id: ColumnType<number | string, number, number>;
  repository: string;
  base_branch: string;
  config_path: Generated<string>;
  token_id: string;
  token_ciphertext: string;
  webhook_id: string | null;
  webhook_secret_ciphertext: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A delivery the GitHub App accepted; see migrations/0011_github_app_deliveries.sql. */
export interface GithubAppDeliveriesTable {
  id: string;
  event: string;
  status: 'running' | 'done' | 'failed';
  runs: Generated<number>;
  last_error: string | null;
  /** JSON the App rebuilds the job from after a crash; null when the delivery was too large to keep. */
  payload: string | null;
  /** The App process running (or last running) the job. */
  instance: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type RoleColumn = 'owner' | 'admin' | 'developer' | 'translator';

export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  password_hash: string;
  created_at: Generated<Date>;
  password_changed_at: Generated<Date>;
}

export interface BrowserSessionsTable {
  id: string;
  user_id: string;
  secret_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface OrganisationMembersTable {
  organisation_id: string;
  user_id: string;
  role: RoleColumn;
  created_at: Generated<Date>;
}

export interface ProjectRolesTable {
  project_id: string;
  user_id: string;
  role: RoleColumn;
  updated_at: Generated<Date>;
}

export interface InvitationsTable {
  id: string;
  organisation_id: string;
  project_id: string | null;
  email: string;
  role: RoleColumn;
  token_hash: string;
  url_ciphertext: string | null;
  invited_by: string | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_by: string | null;
  revoked_at: NullableTimestamp;
  mailed: Generated<boolean>;
}

export interface SignInAttemptsTable {
  id: Generated<string>;
  email: string;
  ip: string;
  succeeded: boolean;
  at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  browser_sessions: BrowserSessionsTable;
  organisation_members: OrganisationMembersTable;
  project_roles: ProjectRolesTable;
  invitations: InvitationsTable;
  sign_in_attempts: SignInAttemptsTable;
  organisations: OrganisationsTable;
  projects: ProjectsTable;
  project_languages: ProjectLanguagesTable;
  tokens: TokensTable;
  source_files: SourceFilesTable;
  keys: KeysTable;
  translations: TranslationsTable;
  batches: BatchesTable;
  batch_rows: BatchRowsTable;
  idempotency_records: IdempotencyRecordsTable;
  held_translations: HeldTranslationsTable;
  glossary_terms: GlossaryTermsTable;
  memory_entries: MemoryEntriesTable;
  qa_runs: QaRunsTable;
  webhooks: WebhooksTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  github_links: GithubLinksTable;
  github_app_deliveries: GithubAppDeliveriesTable;
  release_blobs: ReleaseBlobsTable;
  releases: ReleasesTable;
  release_objects: ReleaseObjectsTable;
  storage_targets: StorageTargetsTable;
  storage_syncs: StorageSyncsTable;
  imports: ImportsTable;
  integration_connections: IntegrationConnectionsTable;
  integration_syncs: IntegrationSyncsTable;
  integration_values: IntegrationValuesTable;
  integration_uploads: IntegrationUploadsTable;
}

export type ConnectionStatus = 'never_synced' | 'syncing' | 'ok' | 'retrying' | 'error';
export type IntegrationSyncStatus = 'queued' | 'running' | 'waiting_batch' | 'succeeded' | 'failed' | 'cancelled';
export type IntegrationSyncTrigger = 'api' | 'connect' | 'schedule' | 'webhook' | 'upload';

/** The file last uploaded to a connection whose connector reads one (a Sketch document, a Penpot export). */
export interface IntegrationUploadsTable {
  connection_id: string;
  name: string;
  size: number;
  sha256: string;
  content: Buffer;
  uploaded_at: Generated<Date>;
}

export interface IntegrationConnectionsTable {
  id: string;
  project_id: string;
  connector: string;
  name: string;
  enabled: Generated<boolean>;
  settings: ColumnType<Record<string, unknown>, string, string>;
  secrets_ciphertext: string;
  webhook_secret_ciphertext: string;
  webhook_handshake_ciphertext: ColumnType<string | null, string | null | undefined, string | null>;
  webhook_handshake_at: NullableTimestamp;
  /** jsonb: what the connector's last pushed listing kept (a vendor's cursor); written as JSON text. */
  connector_state: ColumnType<unknown, string | null | undefined, string | null>;
  schedule_minutes: number | null;
  next_scheduled_at: NullableTimestamp;
  status: ColumnType<ConnectionStatus, ConnectionStatus | undefined, ConnectionStatus>;
  last_error: string | null;
  last_sync_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** What a sync did, as GET …/syncs shows it. */
export interface IntegrationSyncCounts {
  units?: number;
  strings?: number;
  added?: number;
  changed?: number;
  removed?: number;
  unchanged?: number;
  human_edits?: number;
  refused_edits?: number;
  written?: number;
  kept_remote?: number;
}

export interface IntegrationSyncLogLine {
  at: string;
  message: string;
}

export interface IntegrationSyncsTable {
  id: string;
  connection_id: string;
  project_id: string;
  trigger: IntegrationSyncTrigger;
  status: ColumnType<IntegrationSyncStatus, IntegrationSyncStatus | undefined, IntegrationSyncStatus>;
  phase: ColumnType<'read' | 'write', 'read' | 'write' | undefined, 'read' | 'write'>;
  batch_id: string | null;
  batch_ids: ColumnType<string[], string | undefined, string>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  counts: ColumnType<IntegrationSyncCounts, string | undefined, string>;
  error: string | null;
  log: ColumnType<IntegrationSyncLogLine[], string | undefined, string>;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface IntegrationValuesTable {
  connection_id: string;
  path: string;
  key: string;
  locale: string;
  value_hash: string;
}

export type ImportStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface ImportsTable {
  id: string;
  project_id: string;
  platform: string;
  source: 'api' | 'archive';
  status: ImportStatus;
  options: ColumnType<Record<string, unknown>, string, string>;
  credentials_ciphertext: string | null;
  /** Written with decode(), read with encode() (see pull-service.ts). */
  archive: Buffer | null;
  archive_name: string | null;
  checkpoint: ColumnType<unknown, string | null, string | null>;
  progress: ColumnType<Record<string, unknown>, string | undefined, string>;
  report: ColumnType<Record<string, unknown>, string | undefined, string>;
  error: string | null;
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** Bodies travel as base64 text (see pull-service.ts): written with decode(), read with encode(). */
export interface ReleaseBlobsTable {
  sha256: string;
  content: Buffer;
  gzip: Buffer;
  br: Buffer;
  bytes: number;
  created_at: Generated<Date>;
}

export interface ReleasesTable {
  id: string;
  project_id: string;
  number: number;
  content_hash: string;
  locales: ColumnType<string[], string, string>;
  shape: BundleShape;
  files: boolean;
  trigger: 'api' | 'batch';
  batch_id: string | null;
  created_at: Generated<Date>;
}

export type ReleaseObjectKind = 'bundle' | 'file' | 'manifest';

export interface ReleaseObjectsTable {
  release_id: string;
  name: string;
  kind: ReleaseObjectKind;
  locale: string | null;
  source_path: string | null;
  format: string | null;
  keys: number;
  content_type: string;
  sha256: string;
  bytes: number;
}

export type StorageTargetKind = 's3' | 'azure_blob';
export type StorageTargetStatus = 'idle' | 'pending' | 'syncing' | 'ok' | 'failed';

export interface StorageTargetsTable {
  id: string;
  project_id: string;
  name: string;
  kind: StorageTargetKind;
  enabled: Generated<boolean>;
  settings: ColumnType<Record<string, unknown>, string, string>;
  credentials_ciphertext: string;
  credentials_hint: string;
  prefix: Generated<string>;
  path_template: string;
  files_template: string | null;
  cache_control: string | null;
  status: Generated<StorageTargetStatus>;
  last_error: string | null;
  last_release_number: number | null;
  last_synced_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type StorageSyncStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'superseded';

export interface StorageSyncLogLine {
  at: string;
  message: string;
}

export interface StorageSyncsTable {
  id: string;
  target_id: string;
  release_id: string;
  trigger: 'release' | 'api';
  status: StorageSyncStatus;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  uploaded: Generated<number>;
  unchanged: Generated<number>;
  error: string | null;
  log: ColumnType<StorageSyncLogLine[], string | undefined, string>;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export type Organisation = Selectable<OrganisationsTable>;
export type Project = Selectable<ProjectsTable>;
export type TokenRecord = Selectable<TokensTable>;
export type KeyRecord = Selectable<KeysTable>;
export type BatchRecord = Selectable<BatchesTable>;
export type GithubLinkRow = Selectable<GithubLinksTable>;
