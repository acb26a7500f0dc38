/**
 * A local DatoCMS Content Management API holding one project in memory, in DatoCMS's own JSON:API shapes: site
 * locales `en`, `de`, `fr` (the first the main locale), a model `article` (localized `title` string with a length
 * validator and a hint, localized `featured` boolean, non-localized `slug`), a block model `cta_block` (left out by the
 * connector), and one `article` record per SEED string whose `title.en` holds it.
 *
 * Sources: https://www.datocms.com/docs/content-management-api (requests carry `Authorization: Bearer`, `Accept:
 * application/json`, `X-Api-Version: 3`, and `Content-Type: application/vnd.api+json` with a body; `X-Environment`
 * picks a sandbox), …/resources/site (`attributes.locales`), …/resources/item-type (`api_key`, `modular_block`,
 * `relationships.title_field`), …/resources/field (`field_type`, `localized`, `hint`, `validators.length`),
 * …/resources/item/instances (`filter[type]`, `page[offset]`, `page[limit]` default 30 and at most 500, `meta.
 * total_count`), …/resources/item/update ("pass just the fields you want to change"; optimistic locking with
 * `meta.current_version`, refused with 422 STALE_ITEM_VERSION), …/technical-limits (429 with `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining`, `X-RateLimit-Reset` = seconds to wait), …/resources/webhook (HTTP basic user/password and
 * custom headers on the call; payload `{ environment, entity_type, event_type, entity }`), …/resources/site/update
 * (`attributes.locales`) with datocms/js-rest-api-clients Site.ts and pollJobResult.ts (a site update is a job: 202
 * `{ data: { type: 'job', id } }`, then `GET /job-results/{id}`, 404 until done), general-concepts/
 * localization and content-modelling/data-migration (per-record locales), and datocms/js-rest-api-clients
 * packages/rest-client-utils errors.ts/request.ts (error body `{ data: [{ id, type: 'api_error', attributes: { code,
 * details } }] }`, codes INVALID_AUTHORIZATION_HEADER, STALE_ITEM_VERSION, ITEM_LOCKED, the 429 wait).
 *
 * Guessed (not stated in the pages read): the `details` of each error; that a PUT without `X-Api-Version: 3` or with
 * another content type is refused (here 422 INVALID_FORMAT / 415); that a localized field's object replaces the old
 * one whole (a locale it leaves out is dropped) and that every localized field of a record must carry the same set of
 * locales (here 422 INVALID_FIELD with `code: 'VALIDATION_INVALID_LOCALES'`); the 404 NOT_FOUND for an unknown
 * environment; a webhook's `User-Agent`; a job result's shape (`{ data: { type: 'job_result', attributes: { status,
 * payload } } }`) and 403 INSUFFICIENT_PERMISSIONS for a role that may not change the site; the error for `page[limit]` above 500 (here 422 INVALID_FORMAT). DatoCMS does
 * not sign webhook calls, so there is no signature or timestamp to model.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface DatocmsRequest extends MockRequest {
  headers: Record<string, string | undefined>;
}

export interface DatocmsRecord {
  id: string;
  version: string;
  attributes: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface DatocmsMockOptions {
  /** The most records a page holds, whatever `page[limit]` asks (DatoCMS's own maximum is 500). */
  maxLimit?: number;
  /** The site's locales; the first is the main locale. */
  locales?: string[];
  /** Whether the token's role may change the site's settings (its locales). Default true. */
  canManageSite?: boolean;
}

export interface DatocmsMock extends RecordingServer<DatocmsRequest> {
  token: string;
  modelId: string;
  /** Records by id; `ids` maps each SEED id to its record id. */
  records: Map<string, DatocmsRecord>;
  ids: Map<string, string>;
  /** The site's locales now. */
  locales: string[];
  /** The next request answers 429 with `X-RateLimit-Reset: <seconds>`. */
  rateLimitNext(seconds: number): void;
  /** Runs `change` once, just before the next record PUT is handled (a person saving between our read and our write). */
  beforeNextPut(change: () => void): void;
  /** A person edits a SEED record's title in a locale in the web app (adding the locale to the record if new). */
  edit(seedId: string, locale: string, text: string): void;
  title(seedId: string, locale: string): unknown;
  /** A person deletes a SEED record. */
  remove(seedId: string): void;
  /** The call a DatoCMS webhook (record events) makes after `seedId` is updated, with HTTP basic auth `parlance:<secret>`. */
  webhook(seedId: string, secret: string, options?: { entityType?: string; environment?: string; header?: boolean }): { headers: Record<string, string>; body: string };
}

const TOKEN = 'f3e1c2b4a5d6e7f8091a2b3c4d5e6f';
const MODEL_ID = 'UZyfjdBES8y2W2ruMEHSoA';
const BLOCK_ID = 'Qm4kTzkRSgeDcrXn3a8yTw';
const TITLE_FIELD = 'E7Q1aT5rQ0yV3nN5sD2oYw';
const STAMP = '2026-11-20T09:12:44.000+00:00';
const TITLE_MAX = 120;
const LOCALIZED = ['title', 'featured'];

const apiError = (code: string, details: Record<string, unknown> = {}) => ({ data: [{ id: randomUUID().slice(0, 6), type: 'api_error', attributes: { code, details } }] });
const rateHeaders = (remaining: number) => ({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining) });
const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, { ...rateHeaders(59), ...headers });

let versions = 41_000;
const nextVersion = () => String(++versions);

export async function startDatocmsMock(options: DatocmsMockOptions = {}): Promise<DatocmsMock> {
  const maxLimit = options.maxLimit ?? 500;
  const locales = [...(options.locales ?? ['en', 'de', 'fr'])];
  /** Finished background jobs by id, and how many more polls each answers 404 before its result is ready. */
  const jobs = new Map<string, { pending: number; status: number; payload: unknown }>();
  const main = locales[0]!;
  const records = new Map<string, DatocmsRecord>();
  const ids = new Map<string, string>();
  for (const { id, source } of SEED) {
    const recordId = randomUUID().replaceAll('-', '').slice(0, 22);
    ids.set(id, recordId);
    records.set(recordId, { id: recordId, version: nextVersion(), attributes: { title: { [main]: source }, featured: { [main]: false }, slug: id }, createdAt: STAMP, updatedAt: STAMP });
  }
  const rateLimit = new Armed<number>();
  const beforePut = new Armed<() => void>();

  const recordJson = (r: DatocmsRecord) => ({
    id: r.id,
    type: 'item',
    attributes: r.attributes,
    relationships: { item_type: { data: { id: MODEL_ID, type: 'item_type' } }, creator: { data: { id: '627975', type: 'organization' } } },
    meta: { created_at: r.createdAt, updated_at: r.updatedAt, published_at: null, first_published_at: null, publication_scheduled_at: null, unpublishing_scheduled_at: null, status: 'draft', is_current_version_valid: true, is_published_version_valid: null, is_valid: true, current_version: r.version, stage: null },
  });
  const itemType = (id: string, name: string, apiKey: string, block: boolean, fields: string[], titleField: string | null) => ({
    id,
    type: 'item_type',
    attributes: { name, api_key: apiKey, singleton: false, sortable: false, tree: false, modular_block: block, draft_mode_active: true, all_locales_required: false, collection_appearance: 'table', hint: null },
    relationships: { fields: { data: fields.map((f) => ({ id: f, type: 'field' })) }, title_field: { data: titleField ? { id: titleField, type: 'field' } : null } },
  });
  const field = (id: string, label: string, apiKey: string, fieldType: string, localized: boolean, validators: Record<string, unknown>, hint: string | null) => ({
    id,
    type: 'field',
    attributes: { label, api_key: apiKey, field_type: fieldType, localized, hint, validators, position: 1, default_value: null, appearance: { editor: 'single_line', parameters: {}, addons: [] } },
    relationships: { item_type: { data: { id: MODEL_ID, type: 'item_type' } } },
  });
  const fields = [
    field(TITLE_FIELD, 'Headline', 'title', 'string', true, { required: {}, length: { max: TITLE_MAX } }, 'Shown as the page heading'),
    field('c1LdRr6tQg2m9tKzUq7v0A', 'Featured', 'featured', 'boolean', true, {}, null),
    field('kX0pN3Qe', 'Slug', 'slug', 'slug', false, { unique: {} }, null),
  ];

  /** The answer to a PUT's attributes, or an error body; applies DatoCMS's rules for localized fields. */
  function update(record: DatocmsRecord, attributes: Record<string, unknown>): { status: number; body: unknown } | undefined {
    const next = { ...record.attributes };
    for (const [key, value] of Object.entries(attributes)) {
      const known = fields.find((f) => f.attributes.api_key === key);
      if (!known) return { status: 422, body: apiError('INVALID_FIELD', { field: key, code: 'INVALID_FIELD', message: `Unknown field '${key}'` }) };
      if (known.attributes.localized) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return { status: 422, body: apiError('INVALID_FIELD', { field: key, field_id: known.id, code: 'VALIDATION_INVALID_FORMAT' }) };
        for (const [code, text] of Object.entries(value)) {
          if (!locales.includes(code)) return { status: 422, body: apiError('INVALID_FIELD', { field: key, field_id: known.id, code: 'VALIDATION_INVALID_LOCALE', locale: code }) };
          if (key === 'title' && typeof text === 'string' && text.length > TITLE_MAX) return { status: 422, body: apiError('INVALID_FIELD', { field: key, field_id: known.id, code: 'VALIDATION_LENGTH', locale: code, max: TITLE_MAX }) };
        }
      }
      next[key] = value;
    }
    const sets = LOCALIZED.map((f) => Object.keys((next[f] ?? {}) as object).sort().join(','));
    if (new Set(sets).size > 1) return { status: 422, body: apiError('INVALID_FIELD', { field: 'featured', code: 'VALIDATION_INVALID_LOCALES', message: 'All localized fields must have the same locales' }) };
    record.attributes = next;
    record.version = nextVersion();
    record.updatedAt = new Date().toISOString();
    return undefined;
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) return send(res, 429, apiError('RATE_LIMIT_EXCEEDED'), { ...rateHeaders(0), 'x-ratelimit-reset': String(seconds) });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, apiError('INVALID_AUTHORIZATION_HEADER'));
    if (req.headers['x-api-version'] !== '3') return send(res, 422, apiError('INVALID_FORMAT', { message: 'X-Api-Version header must be 3' }));
    const environment = req.headers['x-environment'];
    if (environment !== undefined && environment !== 'main') return send(res, 404, apiError('NOT_FOUND', { environment }));
    const path = url.pathname;
    const site = () => ({ data: { id: '4242', type: 'site', attributes: { name: 'Store', internal_domain: 'store.admin.datocms.com', locales, timezone: 'Europe/Rome', theme: {} } } });
    if (req.method === 'GET' && path === '/site') return send(res, 200, site());
    if (req.method === 'PUT' && path === '/site') {
      if (options.canManageSite === false) return send(res, 403, apiError('INSUFFICIENT_PERMISSIONS'));
      if (req.headers['content-type'] !== 'application/vnd.api+json') return send(res, 415, apiError('INVALID_FORMAT', { message: 'Content-Type must be application/vnd.api+json' }));
      const asked = (sent as { data?: { type?: string; attributes?: { locales?: unknown } } })?.data;
      const next = asked?.attributes?.locales;
      if (asked?.type !== 'site' || !Array.isArray(next) || next.length === 0 || !next.every((l) => typeof l === 'string' && /^[a-z]{2,3}(-[A-Za-z0-9]+)*$/.test(l))) return send(res, 422, apiError('INVALID_FIELD', { field: 'locales', code: 'VALIDATION_FORMAT' }));
      locales.splice(0, locales.length, ...(next as string[]));
      const id = String(jobs.size + 1);
      jobs.set(id, { pending: 1, status: 200, payload: site() });
      return send(res, 202, { data: { type: 'job', id } });
    }
    const jobMatch = /^\/job-results\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && jobMatch) {
      const job = jobs.get(jobMatch[1]!);
      if (!job || job.pending-- > 0) return send(res, 404, apiError('NOT_FOUND', {}));
      return send(res, 200, { data: { type: 'job_result', id: jobMatch[1], attributes: { status: job.status, payload: job.payload } } });
    }
    if (req.method === 'GET' && path === '/item-types') {
      return send(res, 200, { data: [itemType(MODEL_ID, 'Article', 'article', false, fields.map((f) => f.id), TITLE_FIELD), itemType(BLOCK_ID, 'Call to action', 'cta_block', true, [], null)] });
    }
    const fieldsMatch = /^\/item-types\/([^/]+)\/fields$/.exec(path);
    if (req.method === 'GET' && fieldsMatch) {
      if (fieldsMatch[1] === MODEL_ID) return send(res, 200, { data: fields });
      if (fieldsMatch[1] === BLOCK_ID) return send(res, 200, { data: [] });
      return send(res, 404, apiError('NOT_FOUND', {}));
    }
    if (req.method === 'GET' && path === '/items') {
      const type = url.searchParams.get('filter[type]');
      const offset = Number(url.searchParams.get('page[offset]') ?? 0);
      const asked = Number(url.searchParams.get('page[limit]') ?? 30);
      if (asked > 500) return send(res, 422, apiError('INVALID_FORMAT', { message: 'page[limit] must be less than or equal to 500' }));
      const limit = Math.min(asked, maxLimit);
      const all = type === null || type === MODEL_ID || type === 'article' ? [...records.values()] : [];
      return send(res, 200, { data: all.slice(offset, offset + limit).map(recordJson), meta: { total_count: all.length } });
    }
    const itemMatch = /^\/items\/([^/]+)$/.exec(path);
    if (!itemMatch) return send(res, 404, apiError('NOT_FOUND', {}));
    const record = records.get(itemMatch[1]!);
    if (!record) return send(res, 404, apiError('NOT_FOUND', {}));
    if (req.method === 'GET') return send(res, 200, { data: recordJson(record) });
    if (req.method !== 'PUT') return send(res, 404, apiError('NOT_FOUND', {}));
    if (req.headers['content-type'] !== 'application/vnd.api+json') return send(res, 415, apiError('INVALID_FORMAT', { message: 'Content-Type must be application/vnd.api+json' }));
    beforePut.take()?.();
    const body = sent as { data?: { type?: string; id?: string; attributes?: Record<string, unknown>; meta?: { current_version?: string } } };
    if (body?.data?.type !== 'item' || body.data.id !== record.id) return send(res, 422, apiError('INVALID_FORMAT', { message: 'data.type must be item and data.id the record id' }));
    if (body.data.meta?.current_version !== undefined && body.data.meta.current_version !== record.version) return send(res, 422, apiError('STALE_ITEM_VERSION', { item_id: record.id, current_version: record.version }));
    const refused = update(record, body.data.attributes ?? {});
    if (refused) return send(res, refused.status, refused.body);
    return send(res, 200, { data: recordJson(record) });
  }

  const server = await serveRecording(handle, {
    extra: (req) => ({ headers: { 'x-api-version': req.headers['x-api-version'] as string | undefined, 'content-type': req.headers['content-type'], 'x-environment': req.headers['x-environment'] as string | undefined, authorization: req.headers.authorization } }),
    internalError: (res, error) => send(res, 500, apiError('INTERNAL_SERVER_ERROR', { message: String(error) })),
  });

  const recordOf = (seedId: string) => {
    const record = records.get(ids.get(seedId) ?? '');
    if (!record) throw new Error(`no DatoCMS record for ${seedId}`);
    return record;
  };

  return {
    ...server,
    token: TOKEN,
    modelId: MODEL_ID,
    records,
    ids,
    locales,
    rateLimitNext: (seconds) => rateLimit.arm(seconds),
    beforeNextPut: (change) => beforePut.arm(change),
    edit(seedId, locale, text) {
      const record = recordOf(seedId);
      const title = { ...(record.attributes.title as Record<string, unknown>), [locale]: text };
      // The web app adds a locale tab to the whole record: every localized field gets the locale.
      const featured = { ...(record.attributes.featured as Record<string, unknown>) };
      if (!(locale in featured)) featured[locale] = null;
      record.attributes = { ...record.attributes, title, featured };
      record.version = nextVersion();
      record.updatedAt = new Date().toISOString();
    },
    title: (seedId, locale) => (recordOf(seedId).attributes.title as Record<string, unknown>)[locale],
    remove(seedId) {
      records.delete(recordOf(seedId).id);
    },
    webhook(seedId, secret, hook = {}) {
      const record = recordOf(seedId);
      const body = { webhook_call_id: '9001', environment: hook.environment ?? 'main', entity_type: hook.entityType ?? 'item', event_type: 'update', entity: recordJson(record), related_entities: [] };
      const auth: Record<string, string> = hook.header ? { 'x-parlance-webhook-secret': secret } : { authorization: `Basic ${Buffer.from(`parlance:${secret}`).toString('base64')}` };
      return { headers: { 'content-type': 'application/json', 'user-agent': 'DatoCMS (datocms.com)', ...auth }, body: JSON.stringify(body) };
    },
  };
}

/** The acceptance kit's fixture: the SEED strings as `article` records whose localized `title` holds them in `en`. */
export async function datocmsFixture(): Promise<RemoteFixture> {
  const mock = await startDatocmsMock();
  return cmsFixture({
    connector: 'datocms',
    settings: { api_url: mock.url },
    secrets: { api_token: mock.token },
    badSecrets: { api_token: 'revoked0000000000000000000000' },
    edit: (id, locale, text) => mock.edit(id, locale, text),
    held: (id, locale) => mock.title(id, locale),
    sourceCount: () => [...mock.records.values()].filter((r) => typeof (r.attributes.title as Record<string, unknown>).en === 'string').length,
    webhook: (id, secret) => mock.webhook(id, secret),
    server: mock,
  });
}
