/** The one typed /v1 client (fetch-based, no dependencies): retries what is safe to retry, and turns problem+json answers into ApiError. */
import packageJson from '../../package.json' with { type: 'json' };
import type {
  Batch,
  TranslationSettings,
  TranslationSettingsPatch,
  BatchRow,
  BatchWithRows,
  GlossaryTerm,
  Invitation,
  KeyPage,
  KeyState,
  AddedLanguage,
  Language,
  Member,
  Page,
  Progress,
  Role,
  Seats,
  Webhook,
  WebhookDelivery,
  Project,
  ProjectSettings,
  PulledFile,
  PulledArchive,
  ArchiveFile,
  QaRun,
  ReviewState,
  SourceFile,
  Token,
  TranslationRow,
  TranslationsUpload,
  ImportJob,
  ImportOptionsInput,
  ImportPlatform,
  Release,
  StorageSync,
  StorageTarget,
  StorageTargetInput,
  StorageTargetPatch,
  CatalogConnector,
  ConnectInput,
  ConnectionPatch,
  IntegrationConnection,
  IntegrationSync,
} from './types.js';

/** A repository linked to the project for the GitHub App (GET /v1/integrations/github); the App's token and secret are never returned. */
export interface GithubLink {
  id: string;
  installation_id: number;
  repository: string;
  base_branch: string;
  config_path: string;
  token_id: string;
  webhook_id: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The answer to PUT /v1/translations/:key/:locale: the saved row and what the gates said (a refusal is a 422 instead). */
export interface TranslationPut {
  translation: TranslationRow;
  gate_outcome: 'passed' | 'flagged';
  gate_failures: { gate: string; reason: string; attempt?: number }[];
}

export interface ClientOptions {
  /** e.g. 'http://127.0.0.1:8787' (no /v1). */
  baseUrl: string;
  /** A project token, or a function returning the current one (the console's short-lived project credential). */
  token: string | (() => string);
  fetch?: typeof fetch;
  /** Default 4: for 429 (waits Retry-After, capped by maxWaitMs), 502/503/504 and network errors (exponential backoff). */
  maxRetries?: number;
  /** Default 60_000: a Retry-After longer than this is not waited; the 429 is thrown. */
  maxWaitMs?: number;
  onRetry?: (info: { reason: 'rate_limited' | 'unavailable' | 'network'; waitMs: number; attempt: number; detail: string }) => void;
  /** Default 'parlance-cli/<version>'. */
  userAgent?: string;
  /** Default 120_000: one request taking longer counts as a network error. */
  requestTimeoutMs?: number;
  /**
   * Reads a zip's entries for pullArchive, within limits (the CLI passes src/core/read-zip.ts's readZip with the archive
   * limits; Node's zlib keeps it out of the browser's client). Without it, pullArchive throws ArchiveUnsupportedError.
   */
  readZip?: (bytes: Uint8Array) => Record<string, Uint8Array>;
}

/** An answer of the service other than 2xx; `code` and `detail` come from its problem+json body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: unknown,
    /** `GET /v1/batches/b_1`: which request got the answer. */
    readonly request: string,
    /** Seconds the service asked to wait (429, 503), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${request}: ${status} ${code}: ${detail}`);
  }
}

/** Could not reach the service after retries. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/** A batch did not reach a final status within the wait the caller allowed. */
export class BatchWaitTimeoutError extends Error {
  override readonly name = 'BatchWaitTimeoutError';

  constructor(
    readonly batch: Batch,
    readonly timeoutMs: number,
  ) {
    super(`Batch ${batch.id} is still ${batch.status} after ${Math.round(timeoutMs / 1000)} s (${batch.rows.done} of ${batch.rows.total} rows done).`);
  }
}

export const EXIT = { ok: 0, usage: 1, auth: 2, service: 3, refused: 4, allowance: 5 } as const;

/** 0 ok, 1 usage/config/validation (other 4xx), 2 auth or ability (401, 403), 3 service or network (5xx, network, 429 after retries), 5 allowance exhausted (402). 4 is decided by callers (refused rows). */
export function exitCodeFor(error: unknown): 1 | 2 | 3 | 5 {
  if (error instanceof NetworkError || error instanceof BatchWaitTimeoutError) return EXIT.service;
  if (!(error instanceof ApiError)) return EXIT.usage;
  if (error.status === 401 || error.status === 403) return EXIT.auth;
  if (error.status === 402) return EXIT.allowance;
  if (error.status === 429 || error.status >= 500 || error.status < 400) return EXIT.service;
  return EXIT.usage;
}

export interface ParlanceClient {
  project(): Promise<Project>;
  languages(): Promise<Language[]>;
  /** POST /v1/languages: also queues the translation of every existing key into it (`batch`). */
  addLanguage(tag: string): Promise<AddedLanguage>;
  /** GET /v1/project/translation */
  translationSettings(): Promise<TranslationSettings>;
  /** PATCH /v1/project/translation (needs 'manage') */
  updateTranslationSettings(patch: TranslationSettingsPatch): Promise<TranslationSettings>;
  removeLanguage(tag: string): Promise<Language>;
  /** GET /v1/files */
  files(): Promise<SourceFile[]>;
  /** `plurals`: how json files read i18next plural suffixes (default: a family with `_other` is one plural key). */
  pushFile(input: { path: string; content: Uint8Array; format?: string; locales?: string[]; careful?: string[]; plurals?: 'i18next' | 'none'; idempotencyKey?: string }): Promise<Batch>;
  /** The batch with the first page of rows (limit 500). */
  batch(id: string): Promise<BatchWithRows>;
  /** Every page of the batch's rows. */
  batchRows(id: string, options?: { outcome?: string }): Promise<BatchRow[]>;
  batches(options?: { limit?: number; status?: string }): Promise<Batch[]>;
  waitForBatch(id: string, options?: { intervalMs?: number; timeoutMs?: number; onProgress?: (batch: Batch) => void }): Promise<Batch>;
  pull(input: { path: string; locale: string; format?: string; missing?: 'omit' | 'source' }): Promise<PulledFile>;
  /**
   * GET /v1/pull?archive=true: every target file of every pushed source file in one request, read within the archive
   * limits. `not_modified` when `ifNoneMatch` (an earlier answer's etag) still names it. ArchiveUnsupportedError when
   * the service answers something else than the archive (an older service).
   */
  pullArchive(input?: { locales?: string[]; missing?: 'omit' | 'source'; ifNoneMatch?: string }): Promise<PulledArchive>;
  /** `rows[].text`/`plurals`: check a proposed translation instead of the stored one. */
  qaRun(body: { locales?: string[]; keys?: string[]; path?: string; rows?: { key: string; locale: string; path?: string; text?: string; plurals?: Record<string, string> }[]; include_passed?: boolean }): Promise<QaRun>;
  /** Every page. */
  glossary(): Promise<GlossaryTerm[]>;
  addGlossaryTerm(input: { term: string; translations?: Record<string, string>; forbidden?: boolean; case_sensitive?: boolean; notes?: string }): Promise<GlossaryTerm>;
  removeGlossaryTerm(id: string): Promise<GlossaryTerm>;
  /** Pages until `limit` rows (default: every row). */
  translations(options: { state?: ReviewState; locale?: string; path?: string; limit?: number }): Promise<TranslationRow[]>;
  review(input: { key: string; locale: string; decision: 'approve' | 'reject'; path?: string }): Promise<{ decision: string; translation: TranslationRow }>;
  /** PUT /v1/translations/:key/:locale: a human translation, which later machine passes do not overwrite. */
  /** `drift: true` marks an imported hand edit of a managed translation file (the service then sends source_drift.repaired). */
  putTranslation(input: { key: string; locale: string; path?: string; text?: string; plurals?: Record<string, string>; drift?: boolean }): Promise<TranslationPut>;
  /** POST /v1/translations/upload: an existing target file of the source file at `path`, its new or different values written as human translations. */
  uploadTranslations(input: { path: string; locale: string; content: Uint8Array; format?: string; dryRun?: boolean; plurals?: 'i18next' | 'none' }): Promise<TranslationsUpload>;
  tokens(): Promise<Token[]>;
  createToken(input: { name: string; abilities?: string[]; expires_in_days?: number }): Promise<Token & { secret: string }>;
  revokeToken(id: string): Promise<Token>;
  /** GET /v1/integrations/github */
  githubLinks(): Promise<GithubLink[]>;
  linkGithub(input: { installation_id: number; repository: string; base_branch?: string; config_path?: string }): Promise<GithubLink>;
  unlinkGithub(id: string): Promise<GithubLink>;
  /** POST /v1/translate-missing: one batch for every key without a current translation in `locales` (default all). */
  translateMissing(input?: { locales?: string[]; paths?: string[]; retranslate_machine?: boolean }): Promise<Batch>;
  /** GET /v1/translations?key=&locale=&path=: the key's written translation rows (at most one per locale and path). */
  getTranslation(input: { key: string; locale?: string; path?: string; state?: ReviewState }): Promise<TranslationRow[]>;
  /** One page of GET /v1/translations (the review queue when `state` is held or flagged), for callers that page themselves. */
  translationPage(options: { state?: ReviewState; locale?: string; path?: string; key?: string; cursor?: string; limit?: number }): Promise<Page<TranslationRow>>;
  cancelBatch(id: string): Promise<Batch>;
  retryBatch(id: string): Promise<Batch>;
  /** PATCH /v1/glossary/:id */
  updateGlossaryTerm(id: string, input: { term?: string; translations?: Record<string, string>; forbidden?: boolean; case_sensitive?: boolean; notes?: string | null }): Promise<GlossaryTerm>;
  /** GET /v1/keys: one page of keys with their translation in `locale`, filtered by state, text and source file. */
  keys(input: { locale: string; state?: KeyState; q?: string; path?: string; cursor?: string; limit?: number }): Promise<KeyPage>;
  /** GET /v1/progress: per target locale, how many keys are translated, held, flagged and missing. */
  progress(): Promise<Progress>;
  /** One page of batches, newest first. */
  batchPage(options?: { limit?: number; cursor?: string; status?: string }): Promise<Page<Batch>>;
  /** One page of a batch's rows. */
  batchWithRows(id: string, options?: { limit?: number; cursor?: string; outcome?: string }): Promise<BatchWithRows>;
  /** PATCH /v1/project */
  /** PATCH /v1/project: answers with the project's settings, not the whole project. */
  updateProject(input: { length_budget_percent?: number | null; release_on_batch?: boolean; bundle_shape?: 'flat' | 'nested'; bundle_files?: boolean }): Promise<ProjectSettings>;
  /** GET /v1/members: the organisation's members with their role on this project, and the seats. */
  members(): Promise<{ items: Member[]; seats: Seats }>;
  /** PATCH /v1/members/:user_id: the member's role on this project. */
  setMemberRole(userId: string, role: Role): Promise<Member>;
  /** DELETE /v1/members/:user_id: removes the person from the organisation (frees a seat). */
  removeMember(userId: string): Promise<Member>;
  invitations(): Promise<Invitation[]>;
  /** POST /v1/invitations: 402 seats_exhausted when members plus pending invitations fill the plan's seats. */
  invite(input: { email: string; role: Role }): Promise<Invitation>;
  revokeInvitation(id: string): Promise<Invitation>;
  webhooks(): Promise<Webhook[]>;
  createWebhook(input: { url: string; events?: string[]; description?: string | null }): Promise<Webhook & { secret: string }>;
  updateWebhook(id: string, input: { url?: string; events?: string[]; description?: string | null; enabled?: boolean }): Promise<Webhook>;
  deleteWebhook(id: string): Promise<Webhook>;
  testWebhook(id: string): Promise<unknown>;
  webhookDeliveries(id: string, options?: { limit?: number; cursor?: string }): Promise<Page<WebhookDelivery>>;
  redeliver(webhookId: string, deliveryId: string): Promise<WebhookDelivery>;
  /** GET /v1/webhooks/events: the 12 event kinds. */
  webhookEvents(): Promise<{ type: string; description: string }[]>;
  /** POST /v1/releases: `created` false when nothing changed since the latest release (which is returned). */
  publishRelease(input?: { locales?: string[] }): Promise<{ created: boolean; release: Release }>;
  /** GET /v1/releases: one page, newest first, with the project's bundle id. */
  releases(options?: { limit?: number; cursor?: string }): Promise<{ bundle_id: string; items: Release[]; next_cursor: string | null }>;
  /** GET /v1/releases/:id, where id is `rel_…`, a number or `latest`. */
  release(id: string): Promise<Release>;
  rotateBundleId(): Promise<{ bundle_id: string }>;
  storageTargets(): Promise<StorageTarget[]>;
  createStorageTarget(input: StorageTargetInput): Promise<StorageTarget>;
  updateStorageTarget(id: string, input: StorageTargetPatch): Promise<StorageTarget>;
  deleteStorageTarget(id: string): Promise<void>;
  /** POST /v1/storage-targets/:id/sync: queues a sync of the latest release (or `release`). */
  syncStorageTarget(id: string, input?: { release?: number }): Promise<StorageSync>;
  storageSyncs(id: string, options?: { limit?: number; cursor?: string }): Promise<Page<StorageSync>>;
  /** POST /v1/imports from the platform's API: the token is used for this import only. */
  importFromApi(input: { platform: ImportPlatform; api: { token: string; project: string; base_url?: string }; options?: ImportOptionsInput }): Promise<ImportJob>;
  /** POST /v1/imports with the platform's export file. */
  importFromArchive(input: { platform: ImportPlatform; content: Uint8Array; name: string; options?: ImportOptionsInput }): Promise<ImportJob>;
  importJob(id: string): Promise<ImportJob>;
  imports(options?: { limit?: number; cursor?: string }): Promise<Page<ImportJob>>;
  cancelImport(id: string): Promise<ImportJob>;
  /** GET /v1/integrations/catalog */
  integrationsCatalog(): Promise<CatalogConnector[]>;
  /** GET /v1/integrations/{connector}: the project's connections of one connector. */
  connections(connector: string): Promise<IntegrationConnection[]>;
  connection(connector: string, id: string): Promise<IntegrationConnection>;
  /** POST /v1/integrations/{connector}: the answer carries `webhook_secret`, this once. */
  connect(connector: string, input: ConnectInput): Promise<IntegrationConnection>;
  updateConnection(connector: string, id: string, input: ConnectionPatch): Promise<IntegrationConnection>;
  /** DELETE /v1/integrations/{connector}/:id: the connection as it was. */
  disconnect(connector: string, id: string): Promise<IntegrationConnection>;
  /** POST /v1/integrations/{connector}/:id/sync */
  syncConnection(connector: string, id: string): Promise<IntegrationSync>;
  /** PUT /v1/integrations/{connector}/:id/file: the file a design connector reads (Sketch, Penpot); queues a sync. */
  uploadConnectionFile(connector: string, id: string, input: { name: string; content: Uint8Array }): Promise<{ file: { name: string; size: number; sha256: string; uploaded_at: string }; sync: IntegrationSync }>;
  connectionSyncs(connector: string, id: string, options?: { limit?: number; cursor?: string }): Promise<Page<IntegrationSync>>;
  connectionSync(connector: string, id: string, syncId: string): Promise<IntegrationSync>;
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
/** The service's largest page. */
const PAGE_LIMIT = 500;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

type Query = Record<string, string | number | boolean | undefined>;

interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  json?: unknown;
  form?: FormData;
  /** A raw body (a file), sent as application/octet-stream. */
  bytes?: Uint8Array;
  headers?: Record<string, string>;
}

export function createClient(options: ClientOptions): ParlanceClient {
  const send = createTransport(options);
  const json = async <T>(spec: RequestSpec): Promise<T> => readJson<T>(await send(spec), describe(spec));

  /** Follows `next_cursor` until the last page, or until `limit` items. */
  async function allPages<T>(path: string, query: Query, limit = Number.POSITIVE_INFINITY): Promise<T[]> {
    const items: T[] = [];
    if (limit <= 0) return items;
    let cursor: string | undefined;
    do {
      const page = await json<Page<T>>({ method: 'GET', path, query: { ...query, limit: Math.min(PAGE_LIMIT, limit - items.length), cursor } });
      items.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined && items.length < limit);
    return items.slice(0, limit);
  }

  const client: ParlanceClient = {
    project: () => json<Project>({ method: 'GET', path: '/v1/project' }),
    languages: async () => (await json<{ items: Language[] }>({ method: 'GET', path: '/v1/languages' })).items,
    addLanguage: (tag) => json<AddedLanguage>({ method: 'POST', path: '/v1/languages', json: { tag } }),
    translationSettings: () => json<TranslationSettings>({ method: 'GET', path: '/v1/project/translation' }),
    updateTranslationSettings: (patch) => json<TranslationSettings>({ method: 'PATCH', path: '/v1/project/translation', json: patch }),
    removeLanguage: (tag) => json<Language>({ method: 'DELETE', path: `/v1/languages/${encodeURIComponent(tag)}` }),
    files: async () => (await json<{ items: SourceFile[] }>({ method: 'GET', path: '/v1/files' })).items,

    pushFile(input) {
      const form = new FormData();
      const name = input.path.split('/').pop() || input.path;
      form.set('file', new Blob([input.content as Uint8Array<ArrayBuffer>]), name);
      form.set('path', input.path);
      if (input.format) form.set('format', input.format);
      if (input.locales?.length) form.set('locales', input.locales.join(','));
      if (input.careful?.length) form.set('careful', input.careful.join(','));
      if (input.plurals) form.set('plurals', input.plurals);
      // A key makes the push safe to send again after a lost answer: the service replays the first batch instead of queuing twice.
      const idempotencyKey = input.idempotencyKey ?? randomKey();
      return json<Batch>({ method: 'POST', path: '/v1/push', form, headers: { 'idempotency-key': idempotencyKey } });
    },

    batch: (id) => json<BatchWithRows>({ method: 'GET', path: `/v1/batches/${encodeURIComponent(id)}`, query: { limit: PAGE_LIMIT } }),
    batchRows: async (id, o = {}) => {
      const rows: BatchRow[] = [];
      let cursor: string | undefined;
      do {
        const batch = await json<BatchWithRows>({ method: 'GET', path: `/v1/batches/${encodeURIComponent(id)}`, query: { limit: PAGE_LIMIT, cursor, outcome: o.outcome } });
        rows.push(...batch.row_outcomes.items);
        cursor = batch.row_outcomes.next_cursor ?? undefined;
      } while (cursor !== undefined);
      return rows;
    },
    batches: async (o = {}) => (await json<Page<Batch>>({ method: 'GET', path: '/v1/batches', query: { limit: o.limit, status: o.status } })).items,

    async waitForBatch(id, o = {}) {
      const intervalMs = o.intervalMs ?? 1_000;
      const timeoutMs = o.timeoutMs ?? 30 * 60_000;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        // One row is the smallest page; only the batch's status and counts are wanted here. The service holds the
        // answer for up to `wait` seconds and gives it as soon as the batch ends, so the interval adds no delay.
        const wait = Math.max(0, Math.min(60, Math.floor(Math.min(intervalMs, deadline - Date.now()) / 1000)));
        const started = Date.now();
        const { row_outcomes: _rows, ...batch } = await json<BatchWithRows>({ method: 'GET', path: `/v1/batches/${encodeURIComponent(id)}`, query: { limit: 1, wait: wait || undefined } });
        o.onProgress?.(batch);
        if (FINAL_STATUSES.has(batch.status)) return batch;
        if (Date.now() + intervalMs > deadline) throw new BatchWaitTimeoutError(batch, timeoutMs);
        // A service that does not hold answers (an older one) is polled at the interval.
        const held = Date.now() - started;
        if (held < intervalMs) await sleep(intervalMs - held);
      }
    },

    async pull(input) {
      const spec: RequestSpec = { method: 'GET', path: '/v1/pull', query: { path: input.path, locale: input.locale, format: input.format, missing: input.missing } };
      const res = await send(spec);
      const body = new Uint8Array(await res.arrayBuffer());
      return { body, format: res.headers.get('x-parlance-format') ?? input.format ?? '', refused: refusedFrom(res.headers) };
    },

    async pullArchive(input = {}) {
      const headers: Record<string, string> = { accept: 'application/zip' };
      if (input.ifNoneMatch) headers['if-none-match'] = input.ifNoneMatch;
      const spec: RequestSpec = { method: 'GET', path: '/v1/pull', query: { archive: 'true', locale: input.locales?.join(','), missing: input.missing }, headers };
      let res: Response;
      try {
        res = await send(spec);
      } catch (error) {
        if (error instanceof ApiError && error.status === 304) return { status: 'not_modified', etag: input.ifNoneMatch ?? '' };
        throw error;
      }
      return readArchive(res, describe(spec), options.readZip);
    },

    qaRun: (body) => json<QaRun>({ method: 'POST', path: '/v1/qa/run', json: body }),
    glossary: () => allPages<GlossaryTerm>('/v1/glossary', {}),
    addGlossaryTerm: (input) => json<GlossaryTerm>({ method: 'POST', path: '/v1/glossary', json: input }),
    removeGlossaryTerm: (id) => json<GlossaryTerm>({ method: 'DELETE', path: `/v1/glossary/${encodeURIComponent(id)}` }),
    translations: (o) => allPages<TranslationRow>('/v1/translations', { state: o.state, locale: o.locale, path: o.path }, o.limit),
    review: (input) =>
      json<{ decision: string; translation: TranslationRow }>({
        method: 'POST',
        // Keys may hold '/', which the route expects as %2F.
        path: `/v1/translations/${encodeURIComponent(input.key)}/${encodeURIComponent(input.locale)}/review`,
        query: { path: input.path },
        json: { decision: input.decision },
      }),
    putTranslation: (input) =>
      json<TranslationPut>({
        method: 'PUT',
        path: `/v1/translations/${encodeURIComponent(input.key)}/${encodeURIComponent(input.locale)}`,
        query: { path: input.path },
        json: { ...(input.plurals ? { plurals: input.plurals } : { text: input.text }), ...(input.drift ? { drift: true } : {}) },
      }),
    uploadTranslations(input) {
      const form = new FormData();
      form.set('file', new Blob([input.content as Uint8Array<ArrayBuffer>]), `${input.locale}-${input.path.split('/').pop() || input.path}`);
      form.set('path', input.path);
      form.set('locale', input.locale);
      if (input.format) form.set('format', input.format);
      if (input.dryRun) form.set('dry_run', 'true');
      if (input.plurals) form.set('plurals', input.plurals);
      return json<TranslationsUpload>({ method: 'POST', path: '/v1/translations/upload', form });
    },
    tokens: async () => (await json<{ items: Token[] }>({ method: 'GET', path: '/v1/tokens' })).items,
    createToken: (input) => json<Token & { secret: string }>({ method: 'POST', path: '/v1/tokens', json: input }),
    revokeToken: (id) => json<Token>({ method: 'DELETE', path: `/v1/tokens/${encodeURIComponent(id)}` }),
    githubLinks: async () => (await json<{ items: GithubLink[] }>({ method: 'GET', path: '/v1/integrations/github' })).items,
    linkGithub: (input) => json<GithubLink>({ method: 'POST', path: '/v1/integrations/github', json: input }),
    unlinkGithub: (id) => json<GithubLink>({ method: 'DELETE', path: `/v1/integrations/github/${encodeURIComponent(id)}` }),
    translateMissing: (input = {}) => json<Batch>({ method: 'POST', path: '/v1/translate-missing', json: input }),
    getTranslation: (input) => allPages<TranslationRow>('/v1/translations', { key: input.key, locale: input.locale, path: input.path, state: input.state }),
    translationPage: (o) => json<Page<TranslationRow>>({ method: 'GET', path: '/v1/translations', query: { ...o } }),
    cancelBatch: (id) => json<Batch>({ method: 'POST', path: `/v1/batches/${encodeURIComponent(id)}/cancel` }),
    retryBatch: (id) => json<Batch>({ method: 'POST', path: `/v1/batches/${encodeURIComponent(id)}/retry` }),
    updateGlossaryTerm: (id, input) => json<GlossaryTerm>({ method: 'PATCH', path: `/v1/glossary/${encodeURIComponent(id)}`, json: input }),
    keys: (input) => json<KeyPage>({ method: 'GET', path: '/v1/keys', query: { ...input } }),
    progress: () => json<Progress>({ method: 'GET', path: '/v1/progress' }),
    batchPage: (o = {}) => json<Page<Batch>>({ method: 'GET', path: '/v1/batches', query: { ...o } }),
    batchWithRows: (id, o = {}) => json<BatchWithRows>({ method: 'GET', path: `/v1/batches/${encodeURIComponent(id)}`, query: { ...o } }),
    updateProject: (input) => json<ProjectSettings>({ method: 'PATCH', path: '/v1/project', json: input }),
    members: () => json<{ items: Member[]; seats: Seats }>({ method: 'GET', path: '/v1/members' }),
    setMemberRole: (userId, role) => json<Member>({ method: 'PATCH', path: `/v1/members/${encodeURIComponent(userId)}`, json: { role } }),
    removeMember: (userId) => json<Member>({ method: 'DELETE', path: `/v1/members/${encodeURIComponent(userId)}` }),
    invitations: async () => (await json<{ items: Invitation[] }>({ method: 'GET', path: '/v1/invitations' })).items,
    invite: (input) => json<Invitation>({ method: 'POST', path: '/v1/invitations', json: input }),
    revokeInvitation: (id) => json<Invitation>({ method: 'DELETE', path: `/v1/invitations/${encodeURIComponent(id)}` }),
    webhooks: async () => (await json<{ items: Webhook[] }>({ method: 'GET', path: '/v1/webhooks' })).items,
    createWebhook: (input) => json<Webhook & { secret: string }>({ method: 'POST', path: '/v1/webhooks', json: input }),
    updateWebhook: (id, input) => json<Webhook>({ method: 'PATCH', path: `/v1/webhooks/${encodeURIComponent(id)}`, json: input }),
    deleteWebhook: (id) => json<Webhook>({ method: 'DELETE', path: `/v1/webhooks/${encodeURIComponent(id)}` }),
    testWebhook: (id) => json<unknown>({ method: 'POST', path: `/v1/webhooks/${encodeURIComponent(id)}/test` }),
    webhookDeliveries: (id, o = {}) => json<Page<WebhookDelivery>>({ method: 'GET', path: `/v1/webhooks/${encodeURIComponent(id)}/deliveries`, query: { ...o } }),
    redeliver: (webhookId, deliveryId) =>
      json<WebhookDelivery>({ method: 'POST', path: `/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver` }),
    webhookEvents: async () => (await json<{ items: { type: string; description: string }[] }>({ method: 'GET', path: '/v1/webhooks/events' })).items,
    publishRelease: (input = {}) => json<{ created: boolean; release: Release }>({ method: 'POST', path: '/v1/releases', json: input }),
    releases: (o = {}) => json<{ bundle_id: string; items: Release[]; next_cursor: string | null }>({ method: 'GET', path: '/v1/releases', query: { ...o } }),
    release: (id) => json<Release>({ method: 'GET', path: `/v1/releases/${encodeURIComponent(id)}` }),
    rotateBundleId: () => json<{ bundle_id: string }>({ method: 'POST', path: '/v1/releases/rotate-bundle-id' }),
    storageTargets: async () => (await json<{ items: StorageTarget[] }>({ method: 'GET', path: '/v1/storage-targets' })).items,
    createStorageTarget: (input) => json<StorageTarget>({ method: 'POST', path: '/v1/storage-targets', json: input }),
    updateStorageTarget: (id, input) => json<StorageTarget>({ method: 'PATCH', path: `/v1/storage-targets/${encodeURIComponent(id)}`, json: input }),
    deleteStorageTarget: async (id) => void (await send({ method: 'DELETE', path: `/v1/storage-targets/${encodeURIComponent(id)}` })),
    syncStorageTarget: (id, input = {}) => json<StorageSync>({ method: 'POST', path: `/v1/storage-targets/${encodeURIComponent(id)}/sync`, json: input }),
    importFromApi: (input) => json<ImportJob>({ method: 'POST', path: '/v1/imports', json: input }),
    importFromArchive(input) {
      const form = new FormData();
      form.set('platform', input.platform);
      form.set('file', new Blob([input.content as Uint8Array<ArrayBuffer>]), input.name);
      if (input.options) form.set('options', JSON.stringify(input.options));
      return json<ImportJob>({ method: 'POST', path: '/v1/imports', form });
    },
    importJob: (id) => json<ImportJob>({ method: 'GET', path: `/v1/imports/${encodeURIComponent(id)}` }),
    imports: (o = {}) => json<Page<ImportJob>>({ method: 'GET', path: '/v1/imports', query: { ...o } }),
    cancelImport: (id) => json<ImportJob>({ method: 'POST', path: `/v1/imports/${encodeURIComponent(id)}/cancel` }),
    integrationsCatalog: async () => (await json<{ items: CatalogConnector[] }>({ method: 'GET', path: '/v1/integrations/catalog' })).items,
    connections: async (connector) => (await json<{ items: IntegrationConnection[] }>({ method: 'GET', path: `/v1/integrations/${encodeURIComponent(connector)}` })).items,
    connection: (connector, id) => json<IntegrationConnection>({ method: 'GET', path: `/v1/integrations/${encodeURIComponent(connector)}/${encodeURIComponent(id)}` }),
    connect: (connector, input) => json<IntegrationConnection>({ method: 'POST', path: `/v1/integrations/${encodeURIComponent(connector)}`, json: input }),
    updateConnection: (connector, id, input) => json<IntegrationConnection>({ method: 'PATCH', path: `/v1/integrations/${encodeURIComponent(connector)}/${encodeURIComponent(id)}`, json: input }),
    disconnect: (connector, id) => json<IntegrationConnection>({ method: 'DELETE', path: `/v1/integrations/${encodeURIComponent(connector)}/${encodeURIComponent(id)}` }),
    syncConnection: (connector, id) => json<IntegrationSync>({ method: 'POST', path: `/v1/integrations/${encodeURIComponent(connector)}/${encodeURIComponent(id)}/sync` }),
    uploadConnectionFile: (connector, id, input) =>
      json({ method: 'PUT', path: `/v1/integrations/${encodeURIComponent(connector)}/${encodeURIComponent(id)}/file`, query: { name: input.name }, bytes: input.content }),
    connectionSyncs: (connector, id, o = {}) =>
      json<Page<IntegrationSync>>({ method: 'GET', path: `/v1/integrations/${encodeURIComponent(connector)}/${encodeURIComponent(id)}/syncs`, query: { ...o } }),
    connectionSync: (connector, id, syncId) =>
      json<IntegrationSync>({ method: 'GET', path: `/v1/integrations/${encodeURIComponent(connector)}/${encodeURIComponent(id)}/syncs/${encodeURIComponent(syncId)}` }),
    storageSyncs: (id, o = {}) => json<Page<StorageSync>>({ method: 'GET', path: `/v1/storage-targets/${encodeURIComponent(id)}/syncs`, query: { ...o } }),
  };
  return client;
}

/** Sends one request with retries; resolves with a 2xx response, throws ApiError or NetworkError otherwise. */
function createTransport(options: ClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const maxRetries = options.maxRetries ?? 4;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const timeoutMs = options.requestTimeoutMs ?? 120_000;
  const userAgent = options.userAgent ?? `parlance-cli/${packageJson.version}`;
  const currentToken = typeof options.token === 'function' ? options.token : () => options.token as string;
  // The token must never leave through an error or a log line, even if a server or a proxy echoes it back.
  const redact = (text: string) => {
    const token = currentToken();
    return token ? text.replaceAll(token, '[token]') : text;
  };

  return async function send(spec: RequestSpec): Promise<Response> {
    const url = `${baseUrl}${spec.path}${queryString(spec.query)}`;
    const request = describe(spec);
    const headers: Record<string, string> = { authorization: `Bearer ${currentToken()}`, 'user-agent': userAgent, accept: 'application/json', ...spec.headers };
    if (spec.json !== undefined) headers['content-type'] = 'application/json';
    if (spec.bytes !== undefined) headers['content-type'] = 'application/octet-stream';
    const body = spec.form ?? (spec.json !== undefined ? JSON.stringify(spec.json) : (spec.bytes as Uint8Array<ArrayBuffer> | undefined));
    const replaySafe = spec.method === 'GET' || headers['idempotency-key'] !== undefined;

    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= maxRetries;
      let res: Response;
      try {
        res = await doFetch(url, { method: spec.method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        const detail = redact(networkDetail(error, timeoutMs));
        // A refused or unresolved connection never reached the service, so even a non-idempotent request may go again.
        if (retriesLeft && (replaySafe || neverSent(error))) {
          const waitMs = backoff(attempt);
          options.onRetry?.({ reason: 'network', waitMs, attempt, detail });
          await sleep(waitMs);
          continue;
        }
        throw new NetworkError(`${request}: could not reach ${baseUrl} after ${attempt} attempt${attempt > 1 ? 's' : ''}: ${detail}`, { cause: error });
      }
      if (res.ok) return res;

      const failure = await apiErrorFrom(res, request, redact);
      if (res.status === 429 && retriesLeft) {
        // A 429 changes nothing on the service, so any request may be sent again once the window allows it.
        const waitMs = (failure.retryAfterSeconds ?? 1) * 1000;
        if (waitMs <= maxWaitMs) {
          options.onRetry?.({ reason: 'rate_limited', waitMs, attempt, detail: failure.detail });
          await sleep(waitMs);
          continue;
        }
      }
      if ((res.status === 502 || res.status === 503 || res.status === 504) && retriesLeft && replaySafe) {
        const waitMs = Math.min(maxWaitMs, failure.retryAfterSeconds !== undefined ? failure.retryAfterSeconds * 1000 : backoff(attempt));
        options.onRetry?.({ reason: 'unavailable', waitMs, attempt, detail: `${res.status} ${failure.detail}` });
        await sleep(waitMs);
        continue;
      }
      throw failure;
    }
  };
}

/** `GET /v1/pull?locale=de`: names the request in errors (never with headers, so never with the token). */
function describe(spec: RequestSpec): string {
  return `${spec.method} ${spec.path}${queryString(spec.query)}`;
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export async function readJson<T>(res: Response, request: string): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.status, 'unreadable_response', `the answer is not JSON: ${snippet(text)}`, text, request);
  }
}

export async function apiErrorFrom(res: Response, request: string, redact: (text: string) => string): Promise<ApiError> {
  const text = redact(await res.text().catch(() => ''));
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not problem+json (a proxy's HTML page, say): the status and the start of the text are all there is.
  }
  const problem = typeof body === 'object' && body !== null ? (body as { code?: unknown; detail?: unknown }) : {};
  const code = typeof problem.code === 'string' ? problem.code : `http_${res.status}`;
  const detail = typeof problem.detail === 'string' ? problem.detail : snippet(text) || res.statusText || 'no details';
  return new ApiError(res.status, code, detail, body, request, retryAfterSeconds(res.headers.get('retry-after')));
}

/** Retry-After in seconds: a number of seconds or an HTTP date (RFC 9110). */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The answer was not GET /v1/pull's archive (an older service answers one file): the caller pulls file by file. */
export class ArchiveUnsupportedError extends Error {
  override readonly name = 'ArchiveUnsupportedError';
}

const MANIFEST = 'manifest.json';

async function readArchive(res: Response, request: string, readZip: ClientOptions['readZip']): Promise<PulledArchive> {
  const type = res.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!type.startsWith('application/zip')) throw new ArchiveUnsupportedError(`${request}: the service answered ${type || 'no content type'}, not the archive`);
  if (!readZip) throw new ArchiveUnsupportedError(`${request}: this client was made without a zip reader`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = readZip(bytes);
  } catch (error) {
    throw new ApiError(res.status, 'unreadable_response', `the archive cannot be read: ${(error as Error).message}`, null, request);
  }
  const manifestBytes = entries[MANIFEST];
  if (!manifestBytes) throw new ArchiveUnsupportedError(`${request}: the archive has no ${MANIFEST}`);
  const manifest = JSON.parse(new TextDecoder().decode(manifestBytes)) as {
    source_locale?: string;
    files?: { entry: string; path: string; locale: string; format: string; keys?: number; missing?: string[]; flagged?: string[]; refused?: { key: string; reason: string }[] }[];
  };
  const files: ArchiveFile[] = [];
  for (const file of manifest.files ?? []) {
    const body = entries[file.entry];
    if (!body) throw new ApiError(res.status, 'unreadable_response', `the archive's manifest names '${file.entry}', which it does not hold`, null, request);
    files.push({ path: file.path, locale: file.locale, format: file.format, body, keys: file.keys ?? 0, missing: file.missing ?? [], flagged: file.flagged ?? [], refused: file.refused ?? [] });
  }
  return { status: 'ok', etag: res.headers.get('etag'), source_locale: manifest.source_locale ?? '', files };
}

function refusedFrom(headers: Headers): PulledFile['refused'] {
  const list = (name: string) =>
    (headers.get(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const keys = list('x-parlance-refused-keys').map((key) => {
    try {
      return decodeURIComponent(key);
    } catch {
      return key;
    }
  });
  const count = Number(headers.get('x-parlance-refused-count') ?? keys.length);
  return { count: Number.isFinite(count) ? count : keys.length, keys, reasons: list('x-parlance-refused-reason') };
}

const CONNECT_FAILURES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function errorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function neverSent(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && CONNECT_FAILURES.has(code);
}

function networkDetail(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  const code = errorCode(error);
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

/** 0.5 s, 1 s, 2 s, 4 s, 8 s. */
function backoff(attempt: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** A random idempotency key; browsers offer `randomUUID` only in secure contexts, `getRandomValues` everywhere. */
function randomKey(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
