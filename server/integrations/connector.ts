/**
 * The contract of a connector: one module per remote system (a code host, a content system, a design tool, an
 * automation tool). A connector describes itself, lists the source strings the remote system holds (with the
 * translations it already has), writes translations back (two-way connectors), and tells a genuine change
 * notification from a forged one. It never touches the database: the framework (sync-engine.ts) turns a listing
 * into a push and a completed batch into a write-back, so delta, allowance, gates, memory and events behave exactly
 * as for a file push.
 */
import type { z } from '@hono/zod-openapi';
import type { FormatId, PluralForms } from '../../src/core/formats/codec.js';
import type { ConnectorHttp } from './connector-http.js';

export const CONNECTOR_CATEGORIES = ['code_host', 'content', 'design', 'automation'] as const;
export type ConnectorCategory = (typeof CONNECTOR_CATEGORIES)[number];
export type ConnectorDirection = 'two_way' | 'import_only';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One source string as the remote system holds it, with the translations it holds already. */
export interface RemoteString {
  /** The key Parlance stores it under, stable across syncs (an entry id and field name, a layer id, …). */
  key: string;
  /** The source text; for a plural key its `other` form. */
  source: string;
  plurals?: PluralForms;
  notes?: string;
  context?: string;
  /**
   * A length limit the remote system states (a field's maximum). Figma's text boxes are no such limit: they go into
   * the note as a hint.
   */
  maxLength?: number;
  /** Whatever the connector needs to write this string back (a document id and its version, a field path). */
  ref?: JsonValue;
  /** What the remote system holds now in each target locale (canonical BCP-47 tag); absent or '' means nothing. */
  translations?: Record<string, string>;
}

/** Strings of one place in the remote system (a content type, a collection, a Figma file): one path in Parlance. */
export interface StringUnit {
  kind: 'strings';
  /** The path the strings are pushed under, prefixed by the framework with the connection's id. */
  path: string;
  strings: RemoteString[];
  /**
   * The project's target locales this place can hold (the remote system's languages, mapped to the project's tags);
   * translations are written back only in these. Default: every target locale of the project.
   */
  locales?: string[];
}

/** A source file in a repository and its translation files as they are now (code hosts). */
export interface FileUnit {
  kind: 'file';
  /** The source file's repository path, which is also its path in Parlance. */
  path: string;
  format: FormatId;
  content: Uint8Array;
  /**
   * Each target locale's file: its path and its bytes now (on Parlance's branch once there is one), or null when there
   * is none yet. `base`: the file on the base branch now and where Parlance's branch left the base, when they differ;
   * the values changed between them are people's edits made on the base (after a merge, that is where they edit).
   */
  targets: { locale: string; path: string; content: Uint8Array | null; base?: { content: Uint8Array | null; before: Uint8Array | null } }[];
  /** Key patterns (`onboarding.*`) that go through the careful pass: the `careful` of the file's rule in parlance.yml. */
  careful?: string[];
  /** How json files read i18next plural suffixes: the `plurals` of the file's rule in parlance.yml. */
  plurals?: 'i18next' | 'none';
}

export type SourceUnit = StringUnit | FileUnit;

export interface Listing {
  units: SourceUnit[];
  /** A note for the sync's log (the commit read, the number of pages, …). */
  note?: string;
  /**
   * What the connector keeps until its next listing (a vendor's cursor into its change feed): stored on the connection
   * once the listing has been pushed, and given back as `ctx.state`. Undefined leaves what is stored as it is.
   */
  state?: JsonValue;
}

/** A translation to write back into a string unit. */
export interface StringWrite {
  path: string;
  key: string;
  locale: string;
  text: string;
  plurals?: PluralForms;
  ref?: JsonValue;
}

/** A translation file to write back (code hosts): the whole file as Parlance renders it. */
export interface FileWrite {
  /** The source file's path. */
  source: string;
  locale: string;
  path: string;
  content: Uint8Array;
}

/** A refused or flagged row of the batch, for code hosts that annotate source lines. */
export interface ReportRow {
  path: string;
  key: string;
  locale: string;
  line: number | null;
  outcome: 'refused' | 'flagged';
  reason: string;
}

/** What one batch of the sync came to. */
export interface BatchSummary {
  id: string;
  /** The batch's address in Parlance's API, for a reviewer to follow. */
  url: string | undefined;
  /** The paths of the keys it translated (a code host's source files). */
  paths: string[];
  translated: number;
  refused: number;
  flagged: number;
}

export interface WriteBack {
  strings: StringWrite[];
  files: FileWrite[];
  /** The sync's batches whose translations these are (one per pushed unit with rows; none when nothing needed translating). */
  batches: BatchSummary[];
  /** The refused and flagged rows of all of them. */
  problems: ReportRow[];
}

export interface WriteResult {
  written: number;
  /**
   * Translations of the write-back left unwritten (a value someone changed since the listing, a row that moved, a
   * version no longer editable): they are not recorded as written, so the next listing's value there is compared with
   * what was there before, and a value Parlance did not write is never taken for one it did.
   */
  skipped?: { path: string; key: string; locale: string }[];
  /** Where a person sees the result (a merge request, an entry), for the connection's status. */
  url?: string;
  note?: string;
}

/** An inbound change notification, as received. */
export interface WebhookRequest {
  headers: Headers;
  body: Uint8Array;
  /** The request's method and its path with the query, as received (some vendors sign them too). */
  method?: string;
  path?: string;
}

export interface WebhookVerdict {
  /** False: the signature (or token) does not match; the framework answers 401 and does nothing. */
  verified: boolean;
  /** True when the notification is about source strings, so a sync is due. */
  sync: boolean;
  /** Why it was not verified or not acted on, for the log and the 401 body. */
  reason?: string;
  /**
   * A value the vendor sends once, unsigned, when a subscription is made, for a person to confirm in the vendor's app
   * and set as the webhook secret (Notion's verification token). The framework answers 200, keeps it sealed on the
   * connection and shows it to the connection's managers (`webhook_handshake`), never in a log or an answer.
   */
  handshake?: string;
}

/** A file a person uploaded to a connection (PUT /v1/integrations/{connector}/{id}/file): a design tool's export. */
export interface UploadedFile {
  /** The file name given with the upload. */
  name: string;
  content: Uint8Array;
  /** Hex SHA-256 of the content, for the sync's log. */
  sha256: string;
  uploadedAt: Date;
}

/** What a connector that reads an uploaded file takes: the framework refuses anything else before storing it. */
export interface UploadSpec {
  /** What the file is, for errors and the API description: 'a Sketch document (.sketch)'. */
  description: string;
  /** The file name endings taken, with the dot: ['.sketch']. */
  extensions: string[];
}

/** What a connector works with during one sync. */
export interface ConnectorContext<Settings, Secrets> {
  settings: Settings;
  secrets: Secrets;
  /** HTTP with timeouts, 429 waits and retries; errors mapped to ConnectorError by `expectOk`. */
  http: ConnectorHttp;
  sourceLocale: string;
  /** The project's target locales, canonical BCP-47. */
  targetLocales: string[];
  signal: AbortSignal;
  /** The connection's id, for branch names, markers and messages. */
  connectionId: string;
  /** Connectors with `upload`: the file last uploaded to the connection, or null when none has been. */
  upload?: UploadedFile | null;
  /** What the connector's last pushed listing kept (`Listing.state`); null before the first. */
  state?: JsonValue | null;
}

export interface Connector<Settings = unknown, Secrets = unknown> {
  id: string;
  name: string;
  category: ConnectorCategory;
  direction: ConnectorDirection;
  /** One sentence for the catalog. */
  summary: string;
  /** Non-secret settings, validated at connect and on PATCH; returned by GET. */
  settings: z.ZodType<Settings>;
  /** Credentials, validated the same way; encrypted at rest and never returned. */
  secrets: z.ZodType<Secrets>;
  /** How change notifications are verified, for the catalog and the README ('HMAC-SHA256 of the body in X-…'). */
  webhooks?: string;
  /** Lists every source string (and what the remote holds in each target locale). */
  list(ctx: ConnectorContext<Settings, Secrets>): Promise<Listing>;
  /** Two-way connectors: writes translations back. Must be idempotent: writing the same value twice is harmless. */
  write?(ctx: ConnectorContext<Settings, Secrets>, writeBack: WriteBack): Promise<WriteResult>;
  /**
   * Connectors that read a file people upload (a design tool's export): what they take. The connection then has
   * PUT …/file, which stores the file (within MAX_UPLOAD_BYTES) and starts a sync; `list` finds it in `ctx.upload`.
   */
  upload?: UploadSpec;
  /**
   * How a verified notification is answered: by default 202 with the sync queued (JSON); `empty`: 204 with no body, for
   * vendors that count any other answer as a failed delivery (Airtable).
   */
  acknowledge?: 'empty';
  /** Verifies a change notification against the connection's webhook secret and says whether a sync is due. */
  verifyWebhook?(request: WebhookRequest, webhookSecret: string, settings: Settings): WebhookVerdict;
}

/** Anything a connector uses where a connector is expected, whatever its settings' types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyConnector = Connector<any, any>;
