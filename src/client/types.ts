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
  organisation: { id: string; name: string; plan: 'free' | 'starter' };
  allowance: { words_remaining: number; words_per_month: number; period_start: string; period_end: string };
  created_at: string;
}

export interface Language {
  tag: string;
  name: string | null;
  role: 'source' | 'target';
  known: boolean;
  added_at: string | null;
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
  plan: 'free' | 'starter';
  limit: number;
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
  organisations: { id: string; name: string; plan: 'free' | 'starter'; role: Role; seats: Seats; can_mint_tokens: boolean }[];
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
