/**
 * A local Strapi 5 (REST content API with the i18n feature) holding one collection, `articles`, whose localized
 * `title` field holds the kit's SEED strings in the default locale en, with locales de and fr beside it.
 *
 * Shapes from the Strapi 5 documentation: https://docs.strapi.io/cms/api/rest (flat attributes, `documentId`,
 * `{ data, meta: { pagination: { page, pageSize, pageCount, total } } }`), https://docs.strapi.io/cms/api/rest/locale
 * (`?locale=`, `PUT /api/:pluralApiId/:documentId?locale=` creates or updates a locale version, 404 for a locale
 * version that does not exist), https://docs.strapi.io/cms/error-handling (`{ data: null, error: { status, name,
 * message, details } }`; UnauthorizedError "Missing or invalid credentials", NotFoundError "Not Found", RateLimitError),
 * https://docs.strapi.io/cms/backend-customization/webhooks (payload `{ event, createdAt, model, uid, entry }`, the
 * configured headers, `X-Strapi-Event`), and strapi/strapi content-type-builder `routes/content-api.ts` with
 * `controllers/content-types.ts` (`GET /api/content-type-builder/content-types` → `{ data: [{ uid, apiID, schema }] }`).
 */
import type { ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock, type RestCmsRequest } from './rest-cms-mock.js';

export const STRAPI_COLLECTION = 'articles';
const LOCALES = [
  { id: 1, documentId: 'loc0en00000000000000000', name: 'English (en)', code: 'en', isDefault: true },
  { id: 2, documentId: 'loc0de00000000000000000', name: 'German (de)', code: 'de', isDefault: false },
  { id: 3, documentId: 'loc0fr00000000000000000', name: 'French (fr)', code: 'fr', isDefault: false },
];
const TITLE_MAX = 120;

export interface StrapiMockOptions {
  /** Entries beyond the seed (`Article n`), to make the listing run over several pages. */
  extraEntries?: number;
}

export type StrapiRequest = RestCmsRequest;

type Entry = { id: number; documentId: string; title: string; locale: string; createdAt: string; updatedAt: string; publishedAt: string };

export interface StrapiMock extends RestCmsMock {
  token: string;
  /** The documentId of each seed id's entry. */
  documents: Map<string, string>;
  /** The title a document holds in a locale now, or undefined when it has no such locale version. */
  title(documentId: string, locale: string): string | undefined;
  setTitle(documentId: string, locale: string, title: string): void;
  count(locale: string): number;
}

const documentIdFor = (n: number) => `d${String(n).padStart(4, '0')}${'x'.repeat(19)}`.slice(0, 24);
const stamp = () => new Date().toISOString();

const strapiError = (res: ServerResponse, status: number, name: string, message: string, headers: Record<string, string> = {}) => sendJson(res, status, { data: null, error: { status, name, message, details: {} } }, headers);

export async function startStrapiMock(options: StrapiMockOptions = {}): Promise<StrapiMock> {
  const token = `strapi-token-${Math.random().toString(36).slice(2, 12)}`;
  const documents = new Map<string, string>();
  /** documentId → locale → entry. */
  const store = new Map<string, Map<string, Entry>>();
  let nextId = 1;

  const put = (documentId: string, locale: string, title: string) => {
    const versions = store.get(documentId) ?? new Map<string, Entry>();
    store.set(documentId, versions);
    const existing = versions.get(locale);
    if (existing) Object.assign(existing, { title, updatedAt: stamp() });
    else versions.set(locale, { id: nextId++, documentId, title, locale, createdAt: stamp(), updatedAt: stamp(), publishedAt: stamp() });
    return versions.get(locale)!;
  };
  SEED.forEach(({ id, source }, i) => {
    documents.set(id, documentIdFor(i + 1));
    put(documentIdFor(i + 1), 'en', source);
  });
  for (let n = 0; n < (options.extraEntries ?? 0); n++) put(documentIdFor(SEED.length + n + 1), 'en', `Article ${n + 1}`);

  const contentType = {
    uid: 'api::article.article',
    apiID: 'article',
    schema: {
      draftAndPublish: true,
      displayName: 'Article',
      singularName: 'article',
      pluralName: STRAPI_COLLECTION,
      description: '',
      pluginOptions: { i18n: { localized: true } },
      kind: 'collectionType',
      collectionName: 'articles',
      attributes: {
        title: { type: 'string', maxLength: TITLE_MAX, pluginOptions: { i18n: { localized: true } } },
        slug: { type: 'uid', targetField: 'title', pluginOptions: { i18n: { localized: false } } },
      },
      visible: true,
      restrictRelationsTo: null,
    },
  };

  function handle({ method, url, text, authorization }: RestCmsCall, res: ServerResponse): void {
    if (authorization !== `Bearer ${token}`) return strapiError(res, 401, 'UnauthorizedError', 'Missing or invalid credentials');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'api') return strapiError(res, 404, 'NotFoundError', 'Not Found');
    if (method === 'GET' && url.pathname === '/api/i18n/locales') return sendJson(res, 200, LOCALES.map((l) => ({ ...l, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: '2026-01-01T00:00:00.000Z' })));
    if (method === 'GET' && url.pathname === '/api/content-type-builder/content-types') return sendJson(res, 200, { data: [contentType] });
    if (parts[1] !== STRAPI_COLLECTION) return strapiError(res, 404, 'NotFoundError', 'Not Found');
    const status = url.searchParams.get('status');
    if (status !== null && status !== 'draft' && status !== 'published') return strapiError(res, 400, 'ValidationError', `Invalid status '${status}'`);
    const locale = url.searchParams.get('locale') ?? 'en';
    if (!LOCALES.some((l) => l.code === locale)) return strapiError(res, 400, 'ValidationError', `This locale doesn't exist`);
    if (parts.length === 2 && method === 'GET') {
      const page = Math.max(1, Number(url.searchParams.get('pagination[page]') ?? 1));
      const pageSize = Math.min(100, Math.max(1, Number(url.searchParams.get('pagination[pageSize]') ?? 25)));
      const all = [...store.values()].flatMap((versions) => (versions.has(locale) ? [versions.get(locale)!] : [])).sort((a, b) => a.id - b.id);
      const pageCount = Math.ceil(all.length / pageSize);
      return sendJson(res, 200, { data: all.slice((page - 1) * pageSize, page * pageSize), meta: { pagination: { page, pageSize, pageCount, total: all.length } } });
    }
    if (parts.length === 3) {
      const versions = store.get(parts[2]!);
      if (!versions) return strapiError(res, 404, 'NotFoundError', 'Not Found');
      if (method === 'GET') {
        const entry = versions.get(locale);
        return entry ? sendJson(res, 200, { data: entry, meta: {} }) : strapiError(res, 404, 'NotFoundError', 'Not Found');
      }
      if (method === 'PUT') {
        const data = (JSON.parse(text || '{}') as { data?: Record<string, unknown> }).data;
        if (!data || typeof data !== 'object') return strapiError(res, 400, 'ValidationError', 'Missing "data" payload in the request body');
        const unknown = Object.keys(data).filter((k) => k !== 'title');
        if (unknown.length) return strapiError(res, 400, 'ValidationError', `Invalid key ${unknown[0]}`);
        const title = data.title ?? versions.get(locale)?.title;
        if (typeof title !== 'string') return strapiError(res, 400, 'ValidationError', 'title must be a `string` type');
        if (title.length > TITLE_MAX) return strapiError(res, 400, 'ValidationError', `title must be at most ${TITLE_MAX} characters`);
        return sendJson(res, 200, { data: put(parts[2]!, locale, title), meta: {} });
      }
    }
    return strapiError(res, 405, 'MethodNotAllowedError', 'Method Not Allowed');
  }

  const server = await serveRestCms({
    tooManyRequests: (res, headers) => strapiError(res, 429, 'RateLimitError', 'Too many requests, please try again later.', headers),
    internalError: (res, error) => strapiError(res, 500, 'InternalServerError', String(error)),
    handle,
  });
  return {
    ...server,
    token,
    documents,
    title: (documentId, locale) => store.get(documentId)?.get(locale)?.title,
    setTitle: (documentId, locale, title) => void put(documentId, locale, title),
    count: (locale) => [...store.values()].filter((versions) => versions.has(locale)).length,
  };
}

/** The webhook Strapi sends for an updated entry, with the header configured on it carrying `secret`. */
export function strapiWebhook(secret: string, entry: { documentId: string; title: string }): { headers: Record<string, string>; body: string } {
  const body = { event: 'entry.update', createdAt: stamp(), model: 'article', uid: 'api::article.article', entry: { id: 1, documentId: entry.documentId, title: entry.title, locale: 'en', createdAt: stamp(), updatedAt: stamp(), publishedAt: stamp() } };
  return { headers: { 'content-type': 'application/json', 'x-strapi-event': 'entry.update', authorization: `Bearer ${secret}` }, body: JSON.stringify(body) };
}

export async function strapiFixture(): Promise<RemoteFixture> {
  const mock = await startStrapiMock();
  const doc = (id: string) => {
    const documentId = mock.documents.get(id);
    if (!documentId) throw new Error(`No Strapi entry for seed '${id}'`);
    return documentId;
  };
  let lastChanged = SEED[0]!.id;
  return {
    connector: 'strapi',
    settings: { api_url: mock.url, collections: [STRAPI_COLLECTION], fields: { [STRAPI_COLLECTION]: ['title'] } },
    secrets: { api_token: mock.token },
    badSecrets: { api_token: 'not-a-strapi-token' },
    async setSource(id, text) {
      lastChanged = id;
      mock.setTitle(doc(id), 'en', text);
    },
    translation: async (id, locale) => mock.title(doc(id), locale) || undefined,
    async editTranslation(id, locale, text) {
      mock.setTitle(doc(id), locale, text);
    },
    sourceCount: async () => mock.count('en'),
    webhook: (secret) => strapiWebhook(secret, { documentId: doc(lastChanged), title: mock.title(doc(lastChanged), 'en')! }),
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
