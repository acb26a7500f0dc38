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
