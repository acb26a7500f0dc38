/**
 * A local Contentstack stack behind its Content Management API (`/v3`), holding one content type, `blog_post`, whose
 * schema has a plain single-line `title` (the kit's SEED strings, in the master locale en-us), a multi-line `summary`
 * with a description, and fields that are not translated: a rich text `body`, a multiple text `keywords`, a
 * non-localizable `sku` and the `url`. The stack's locales are en-us (master), de-de and fr-fr.
 *
 * Shapes from https://www.contentstack.com/docs/developers/apis/content-management-api: the `api_key` and
 * `authorization` (management token) headers, optional `branch` header; `GET /v3/locales` → `{ locales: [{ code,
 * name, fallback_locale, uid }] }`, `POST /v3/locales` `{ locale: { code, fallback_locale } }` → 201 `{ notice, locale }`;
 * `GET /v3/content_types/{uid}` → `{ content_type: { uid, title, schema: [{ uid, data_type, display_name, mandatory,
 * multiple, non_localizable, field_metadata }] } }`; `GET /v3/content_types/{uid}/entries?locale&include_count&skip&limit`
 * → `{ entries, count }` (limit at most 100); `GET|PUT /v3/content_types/{uid}/entries/{entry_uid}?locale=` with the
 * body `{ entry: {...} }` (a PUT in a locale the entry is not localized in localizes it) → `{ notice, entry }`;
 * entries carry `uid, locale, _version, created_at, updated_at, ACL, _in_progress, publish_details`. Errors are
 * `{ error_message, error_code, errors: { field: [message] } }`: 412 error_code 109 for an unknown api_key
 * (also https://deliverystack.net/2021/04/01/possible-causes-for-contentstack-http-errors/), 401 for a bad token,
 * 422 for a missing content type (118) or entry (141). Rate limit: 429 with X-RateLimit-Limit / X-RateLimit-Remaining
 * (10 requests per second per organization). Webhooks (https://www.contentstack.com/docs/developers/set-up-webhooks):
 * custom headers and basic auth allowed; payload `{ module, api_key, event, triggered_at, data: { entry, content_type } }`;
 * signed in X-Contentstack-Request-Signature (https://www.contentstack.com/docs/developer-hub/securing-your-app; the
 * algorithm, RSA-PSS SHA-256 over the JSON payload, from hanoak/contentstack-webhook-verify).
 *
 * Guessed (not in the pages read): the exact error_message texts and codes other than 109; the Retry-After header on
 * the 429 (the docs name only X-RateLimit-*; the mock sends both); that a read in a locale the entry is not localized
 * in answers the master version with `locale` set to the master code (without include_fallback); the `max` key of a
 * text field's character limit; that a PUT replaces the localized version with the body's fields; the 422 for a locale
 * code outside Contentstack's list (error_code 247); the signature header's `v1=` prefix.
 */
import { constants, sign, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SEED } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export const CONTENTSTACK_TYPE = 'blog_post';
export const CONTENTSTACK_LOCALES = { en: 'en-us', de: 'de-de', fr: 'fr-fr', ja: 'ja-jp' } as const;
const MASTER = 'en-us';
/** The codes this stack may add (a few of Contentstack's language list). */
const SUPPORTED = ['en-us', 'de-de', 'fr-fr', 'ja-jp', 'es-es', 'it-it'];
const TITLE_MAX = 100;

const SCHEMA = [
  { uid: 'title', data_type: 'text', display_name: 'Title', mandatory: true, unique: true, multiple: false, non_localizable: false, max: TITLE_MAX, field_metadata: { _default: true, version: 3 } },
  { uid: 'url', data_type: 'text', display_name: 'URL', mandatory: false, unique: false, multiple: false, non_localizable: false, field_metadata: { _default: true, version: 3 } },
  { uid: 'summary', data_type: 'text', display_name: 'Summary', mandatory: false, multiple: false, non_localizable: false, field_metadata: { description: 'Shown under the title in lists', multiline: true, version: 3 } },
  { uid: 'body', data_type: 'text', display_name: 'Body', mandatory: false, multiple: false, non_localizable: false, field_metadata: { allow_rich_text: true, rich_text_type: 'advanced', version: 3 } },
  { uid: 'keywords', data_type: 'text', display_name: 'Keywords', mandatory: false, multiple: true, non_localizable: false, field_metadata: { version: 3 } },
  { uid: 'sku', data_type: 'text', display_name: 'SKU', mandatory: false, multiple: false, non_localizable: true, field_metadata: { version: 3 } },
];
const FIELDS = new Set(SCHEMA.map((f) => f.uid));

type Fields = Record<string, unknown>;
interface Version {
  fields: Fields;
  version: number;
  created_at: string;
  updated_at: string;
}
interface StoredEntry {
  uid: string;
  /** Each locale's version; the master's always. */
  versions: Map<string, Version>;
}

export type ContentstackRequest = MockRequest & { apiKey: string | undefined; authorization: string | undefined; branch: string | undefined };

export interface ContentstackMock extends RecordingServer<ContentstackRequest> {
  apiKey: string;
  token: string;
  /** The entry uid of each seed id. */
  entries: Map<string, string>;
  locales: string[];
  /** A field of an entry's version in a locale; undefined when the entry is not localized there. */
  field(entryUid: string, code: string, field: string): unknown;
  /** A person's edit in the entry editor (localizing the entry first, as a copy of the master, when it is not). */
  setField(entryUid: string, code: string, field: string, value: string): void;
  /** Deletes an entry, as a person would. */
  remove(entryUid: string): void;
  /** The next `times` requests answer 429. */
  throttle: Armed<number>;
  count(): number;
}

const error = (res: ServerResponse, status: number, code: number, message: string, errors: Record<string, string[]> = {}, headers: Record<string, string> = {}) =>
  sendJson(res, status, { error_message: message, error_code: code, errors }, headers);

export async function startContentstackMock(options: { extraEntries?: number } = {}): Promise<ContentstackMock> {
  const apiKey = `blt${Math.random().toString(16).slice(2, 18)}`;
  const token = `cs${Math.random().toString(16).slice(2, 34)}`;
  const locales = [MASTER, 'de-de', 'fr-fr'];
  const store = new Map<string, StoredEntry>();
  const order: string[] = [];
  const seeds = new Map<string, string>();
  const throttle = new Armed<number>();
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = () => new Date((clock += 1000)).toISOString();

  const add = (uid: string, title: string, extra: Fields = {}) => {
    const at = now();
    store.set(uid, { uid, versions: new Map([[MASTER, { fields: { title, url: `/blog/${uid}`, body: '<p>Body</p>', keywords: ['shop'], sku: `SKU-${uid}`, ...extra }, version: 1, created_at: at, updated_at: at }]]) });
    order.push(uid);
  };
  SEED.forEach(({ id, source }, i) => {
    const uid = `blt${String(i + 1).padStart(16, '0')}`;
    seeds.set(id, uid);
    add(uid, source);
  });
  for (let n = 0; n < (options.extraEntries ?? 0); n++) add(`bltx${String(n).padStart(15, '0')}`, `Post ${n + 1}`, { summary: `Summary of post ${n + 1}` });

  /** The entry as the CMA answers it in `code`: its localized version, else the master's. */
  const view = (entry: StoredEntry, code: string) => {
    const locale = entry.versions.has(code) ? code : MASTER;
    const v = entry.versions.get(locale)!;
    return { uid: entry.uid, ...v.fields, locale, _version: v.version, created_at: v.created_at, updated_at: v.updated_at, created_by: 'blt_user', updated_by: 'blt_user', tags: [], ACL: {}, _in_progress: false, publish_details: [] };
  };

  const setField = (entryUid: string, code: string, field: string, value: string) => {
    const entry = store.get(entryUid)!;
    const master = entry.versions.get(MASTER)!;
    const v = entry.versions.get(code) ?? { fields: { ...master.fields }, version: 0, created_at: now(), updated_at: '' };
    v.fields[field] = value;
    v.version++;
    v.updated_at = now();
    entry.versions.set(code, v);
  };

  function handle(req: import('node:http').IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    const wait = throttle.take();
    if (wait !== undefined) return error(res, 429, 429, 'Too many requests. Please try again after some time.', {}, { 'retry-after': String(wait), 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
    if (req.headers.api_key !== apiKey) return error(res, 412, 109, "We can't find that Stack. Please try again.", { api_key: ['is not valid.'] });
    if (req.headers.authorization !== token) return error(res, 401, 105, "You're not allowed in here unless you're logged in.", { authorization: ['is not valid.'] });
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v3') return error(res, 404, 404, 'The page you are looking for does not exist.');
    const method = req.method ?? 'GET';
    if (parts[1] === 'locales' && parts.length === 2) {
      if (method === 'GET') return sendJson(res, 200, { locales: locales.map((code) => ({ code, name: code, uid: `blt_${code}`, fallback_locale: code === MASTER ? null : MASTER })) });
      if (method === 'POST') {
        const code = (body as { locale?: { code?: string } } | undefined)?.locale?.code;
        if (!code || !SUPPORTED.includes(code)) return error(res, 422, 247, 'Language was not created. Please try again.', { code: ['is not valid.'] });
        if (locales.includes(code)) return error(res, 422, 247, 'Language was not created. Please try again.', { code: ['is already in use.'] });
        locales.push(code);
        return sendJson(res, 201, { notice: 'Language added successfully.', locale: { code, name: code, uid: `blt_${code}`, fallback_locale: MASTER } });
      }
    }
    if (parts[1] !== 'content_types') return error(res, 404, 404, 'The page you are looking for does not exist.');
    const type = parts[2];
    if (type !== CONTENTSTACK_TYPE) return error(res, 422, 118, `The Content Type '${type}' was not found. Please try again.`, { uid: ['is not valid.'] });
    if (parts.length === 3 && method === 'GET') return sendJson(res, 200, { content_type: { uid: CONTENTSTACK_TYPE, title: 'Blog post', description: '', schema: SCHEMA, options: { is_page: true, singleton: false } } });
    if (parts[3] !== 'entries') return error(res, 404, 404, 'The page you are looking for does not exist.');
    const code = url.searchParams.get('locale') ?? MASTER;
    if (!locales.includes(code)) return error(res, 422, 141, 'Language was not found. Please try again.', { locale: ['is not valid.'] });
    if (parts.length === 4 && method === 'GET') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), 100);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const page = order.slice(skip, skip + limit).map((uid) => view(store.get(uid)!, code));
      return sendJson(res, 200, { entries: page, ...(url.searchParams.get('include_count') === 'true' ? { count: order.length } : {}) });
    }
    const entry = store.get(parts[4] ?? '');
    if (!entry) return error(res, 422, 141, "The requested object doesn't exist.", { uid: ['is not valid.'] });
    if (method === 'GET') return sendJson(res, 200, { entry: view(entry, code) });
    if (method === 'PUT') {
      const fields = (body as { entry?: Fields } | undefined)?.entry;
      if (!fields || typeof fields !== 'object') return error(res, 422, 119, 'Entry update failed. Please enter valid data.', { entry: ['is required.'] });
      for (const key of Object.keys(fields)) if (!FIELDS.has(key)) return error(res, 422, 119, 'Entry update failed. Please enter valid data.', { [key]: ['is not a field of this content type.'] });
      if (typeof fields.title !== 'string' || fields.title === '') return error(res, 422, 119, 'Entry update failed. Please enter valid data.', { title: ['is required.'] });
      if (fields.title.length > TITLE_MAX) return error(res, 422, 119, 'Entry update failed. Please enter valid data.', { title: [`exceeds the maximum length of ${TITLE_MAX}.`] });
      const previous = entry.versions.get(code);
      const master = entry.versions.get(MASTER)!;
      // A non-localizable field keeps the master's value in every locale.
      entry.versions.set(code, { fields: { ...fields, sku: code === MASTER ? fields.sku : master.fields.sku }, version: (previous?.version ?? 0) + 1, created_at: previous?.created_at ?? now(), updated_at: now() });
      return sendJson(res, 200, { notice: previous || code === MASTER ? 'Entry updated successfully.' : 'Entry localized successfully.', entry: view(entry, code) });
    }
    return error(res, 405, 405, `Method ${method} is not allowed.`);
  }

  const server = await serveRecording(handle, {
    extra: (req) => ({ apiKey: req.headers.api_key as string | undefined, authorization: req.headers.authorization, branch: req.headers.branch as string | undefined }),
    internalError: (res, e) => error(res, 500, 500, `Something went wrong: ${String(e)}`),
  });
  return {
    ...server,
    apiKey,
    token,
    entries: seeds,
    locales,
    field: (entryUid, code, field) => store.get(entryUid)?.versions.get(code)?.fields[field],
    setField,
    remove: (entryUid) => {
      store.delete(entryUid);
      order.splice(order.indexOf(entryUid), 1);
    },
    throttle,
    count: () => order.length,
  };
}

const webhookPayload = (apiKey: string, entry: { uid: string; title: string }, contentType: string, triggeredAt: Date) => ({
  module: 'entry',
  api_key: apiKey,
  event: 'update',
  triggered_at: triggeredAt.toISOString(),
  data: { entry: { uid: entry.uid, title: entry.title, locale: MASTER, _version: 2 }, content_type: { uid: contentType, title: 'Blog post' }, branch: { uid: 'main', source: '', alias: [] } },
});

/** The webhook Contentstack sends for an entry update, with the custom header the set-up guide adds. */
export function contentstackWebhook(secret: string, apiKey: string, entry: { uid: string; title: string }, contentType = CONTENTSTACK_TYPE): { headers: Record<string, string>; body: string } {
  return { headers: { 'content-type': 'application/json', 'x-parlance-webhook-secret': secret }, body: JSON.stringify(webhookPayload(apiKey, entry, contentType, new Date())) };
}

/**
 * The same webhook signed as Contentstack signs it (no custom header): RSA-PSS SHA-256 over the JSON payload, base64
 * in X-Contentstack-Request-Signature. The algorithm is read from hanoak/contentstack-webhook-verify, not from
 * Contentstack's own pages; the header's exact form is a guess.
 */
export function contentstackSignedWebhook(privateKey: KeyObject, apiKey: string, entry: { uid: string; title: string }, triggeredAt = new Date()): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify(webhookPayload(apiKey, entry, CONTENTSTACK_TYPE, triggeredAt));
  const signature = sign('sha256', Buffer.from(body), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING }).toString('base64');
  return { headers: { 'content-type': 'application/json', 'user-agent': 'Contentstack', 'x-contentstack-request-signature': `v1=${signature}` }, body };
}

export async function contentstackFixture() {
  const mock = await startContentstackMock();
  const uid = (id: string) => {
    const found = mock.entries.get(id);
    if (!found) throw new Error(`No Contentstack entry for seed '${id}'`);
    return found;
  };
  const code = (locale: string) => CONTENTSTACK_LOCALES[locale as keyof typeof CONTENTSTACK_LOCALES] ?? locale;
  return cmsFixture({
    connector: 'contentstack',
    settings: { api_url: mock.url, api_key: mock.apiKey, content_types: [CONTENTSTACK_TYPE], locales: CONTENTSTACK_LOCALES },
    secrets: { management_token: mock.token },
    badSecrets: { management_token: 'cs-not-a-management-token' },
    edit: (id, locale, text) => mock.setField(uid(id), code(locale), 'title', text),
    held: (id, locale) => mock.field(uid(id), code(locale), 'title'),
    sourceCount: () => mock.count(),
    webhook: (id, secret) => contentstackWebhook(secret, mock.apiKey, { uid: uid(id), title: String(mock.field(uid(id), MASTER, 'title')) }),
    server: mock,
  });
}
