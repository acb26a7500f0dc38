/**
 * A local Directus holding one collection, `articles`, with Directus's standard translations pattern: the alias field
 * `translations` (O2M) to the junction `articles_translations` (`{ id, articles_id, languages_code, title }`) and the
 * `languages` collection (`{ code, name, direction }`, codes en-US, de-DE, fr-FR). The kit's SEED strings are the
 * en-US rows' `title`.
 *
 * Shapes from https://docs.directus.io/reference/items (`{ data }`, `meta=total_count` → `meta.total_count`, `limit`,
 * `offset`, `fields=id,translations.*`), https://directus.io/docs/guides/connect/relations (nested O2M `{ create,
 * update, delete }`), https://docs.directus.io/reference/system/fields (`schema.max_length`),
 * https://directus.io/docs/guides/connect/errors (`{ errors: [{ message, extensions: { code } }] }`, 401
 * INVALID_CREDENTIALS "Invalid user credentials.", 403 FORBIDDEN for a missing collection or item, 429
 * REQUESTS_EXCEEDED), directus/directus api/src/middleware/rate-limiter-ip.ts (Retry-After in seconds) and
 * createCollectionForbiddenError ("You don't have permission to access collection … or it does not exist. Queried in
 * root."). A Flow's Request URL operation sends the headers and body it is given: here `{{$trigger}}` of an Event Hook
 * (`{ event, payload, keys, collection }`) with X-Parlance-Webhook-Secret.
 */
import type { ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock, type RestCmsRequest } from './rest-cms-mock.js';

export const DIRECTUS_COLLECTION = 'articles';
const JUNCTION = 'articles_translations';
const LANGUAGES = [
  { code: 'en-US', name: 'English', direction: 'ltr' },
  { code: 'de-DE', name: 'German', direction: 'ltr' },
  { code: 'fr-FR', name: 'French', direction: 'ltr' },
];
/** The fixture's mapping of the kit's locales to the languages' codes. */
export const DIRECTUS_LOCALES = { en: 'en-US', de: 'de-DE', fr: 'fr-FR' } as const;
const TITLE_MAX = 255;

export interface DirectusMockOptions {
  extraItems?: number;
}

export type DirectusRequest = RestCmsRequest;

type TranslationRow = { id: number; articles_id: number; languages_code: string; title: string | null };

export interface DirectusMock extends RestCmsMock {
  token: string;
  /** The item id of each seed id. */
  items: Map<string, number>;
  title(itemId: number, code: string): string | undefined;
  setTitle(itemId: number, code: string, title: string): void;
  count(code: string): number;
}

const directusError = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) => sendJson(res, status, { errors: [{ message, extensions: { code } }] }, headers);
const forbiddenCollection = (res: ServerResponse, collection: string) => directusError(res, 403, 'FORBIDDEN', `You don't have permission to access collection "${collection}" or it does not exist. Queried in root.`);

export async function startDirectusMock(options: DirectusMockOptions = {}): Promise<DirectusMock> {
  const token = `directus-static-${Math.random().toString(36).slice(2, 14)}`;
  const items = new Map<string, number>();
  const articles = new Map<number, { id: number; status: string }>();
  const rows = new Map<number, TranslationRow>();
  let nextRow = 1;

  const rowsOf = (itemId: number) => [...rows.values()].filter((r) => r.articles_id === itemId).sort((a, b) => a.id - b.id);
  const setTitle = (itemId: number, code: string, title: string) => {
    const row = rowsOf(itemId).find((r) => r.languages_code === code);
    if (row) row.title = title;
    else rows.set(nextRow, { id: nextRow++, articles_id: itemId, languages_code: code, title });
  };
  const addItem = (id: number, title: string) => {
    articles.set(id, { id, status: 'published' });
    setTitle(id, 'en-US', title);
  };
  SEED.forEach(({ id, source }, i) => {
    items.set(id, i + 1);
    addItem(i + 1, source);
  });
  for (let n = 0; n < (options.extraItems ?? 0); n++) addItem(SEED.length + n + 1, `Article ${n + 1}`);

  const itemView = (id: number, fields: string | null) => {
    const expanded = (fields ?? '').split(',').includes('translations.*');
    const article = articles.get(id)!;
    return { id, ...(fields ? {} : { status: article.status }), translations: expanded ? rowsOf(id) : rowsOf(id).map((r) => r.id) };
  };

  /** Applies a nested O2M change as Directus does: create rows, update rows of this item, delete rows. */
  function applyTranslations(itemId: number, change: unknown): string | undefined {
    if (typeof change !== 'object' || change === null || Array.isArray(change)) return 'Invalid payload. "translations" must be an object with create, update and delete.';
    const { create = [], update = [], delete: remove = [] } = change as { create?: Record<string, unknown>[]; update?: Record<string, unknown>[]; delete?: number[] };
    for (const row of [...create, ...update]) {
      for (const key of Object.keys(row)) if (!['id', 'languages_code', 'title', 'articles_id'].includes(key)) return `Invalid payload. Field "${key}" doesn't exist in collection "${JUNCTION}".`;
      if (typeof row.title === 'string' && row.title.length > TITLE_MAX) return `Value for field "title" in collection "${JUNCTION}" is too long.`;
    }
    for (const row of create) {
      if (!LANGUAGES.some((l) => l.code === row.languages_code)) return `Invalid foreign key for field "languages_code" in collection "${JUNCTION}".`;
      if (rowsOf(itemId).some((r) => r.languages_code === row.languages_code)) return `Value for field "languages_code" in collection "${JUNCTION}" has to be unique.`;
      rows.set(nextRow, { id: nextRow++, articles_id: itemId, languages_code: row.languages_code as string, title: (row.title as string | undefined) ?? null });
    }
    for (const row of update) {
      const existing = rows.get(Number(row.id));
      if (!existing || existing.articles_id !== itemId) return `You don't have permission to access this.`;
      if (typeof row.title === 'string') existing.title = row.title;
    }
    for (const id of remove) rows.delete(id);
    return undefined;
  }

  function handle({ method, url, text, authorization }: RestCmsCall, res: ServerResponse): void {
    const bearer = authorization?.replace(/^Bearer /, '');
    // Directus verifies a JWT-shaped token as a session token (403 INVALID_TOKEN), any other as a static token (401).
    if (bearer !== token && bearer?.split('.').length === 3) return directusError(res, 403, 'INVALID_TOKEN', 'Invalid token.');
    if (bearer !== token) return directusError(res, 401, 'INVALID_CREDENTIALS', 'Invalid user credentials.');
    const [kind, collection, id] = url.pathname.split('/').filter(Boolean);
    if (kind === 'fields' && method === 'GET') {
      if (collection !== JUNCTION) return forbiddenCollection(res, collection ?? '');
      const field = (name: string, type: string, schema: unknown) => ({ collection: JUNCTION, field: name, type, schema, meta: { collection: JUNCTION, field: name, interface: null, special: null } });
      return sendJson(res, 200, {
        data: [
          field('id', 'integer', { name: 'id', table: JUNCTION, data_type: 'integer', max_length: null, is_primary_key: true }),
          field('articles_id', 'integer', { name: 'articles_id', table: JUNCTION, data_type: 'integer', max_length: null, is_primary_key: false }),
          field('languages_code', 'string', { name: 'languages_code', table: JUNCTION, data_type: 'character varying', max_length: 255, is_primary_key: false }),
          field('title', 'string', { name: 'title', table: JUNCTION, data_type: 'character varying', max_length: TITLE_MAX, is_primary_key: false }),
        ],
      });
    }
    if (kind !== 'items') return directusError(res, 404, 'ROUTE_NOT_FOUND', `Route ${url.pathname} doesn't exist.`);
    if (collection === 'languages' && method === 'GET' && !id) return sendJson(res, 200, { data: LANGUAGES });
    if (collection !== DIRECTUS_COLLECTION) return forbiddenCollection(res, collection ?? '');
    const fields = url.searchParams.get('fields');
    if (!id && method === 'GET') {
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const ids = [...articles.keys()].sort((a, b) => a - b);
      const page = limit === -1 ? ids : ids.slice(offset, offset + limit);
      const meta = url.searchParams.get('meta') === 'total_count' ? { meta: { total_count: ids.length } } : {};
      return sendJson(res, 200, { data: page.map((n) => itemView(n, fields)), ...meta });
    }
    const itemId = Number(id);
    if (!articles.has(itemId)) return directusError(res, 403, 'FORBIDDEN', "You don't have permission to access this.");
    if (method === 'GET') return sendJson(res, 200, { data: itemView(itemId, fields) });
    if (method === 'PATCH') {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      const problem = 'translations' in body ? applyTranslations(itemId, body.translations) : undefined;
      if (problem) return directusError(res, 400, 'INVALID_PAYLOAD', problem);
      return sendJson(res, 200, { data: itemView(itemId, fields) });
    }
    return directusError(res, 405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed.`);
  }

  const server = await serveRestCms({
    tooManyRequests: (res, headers, seconds) => directusError(res, 429, 'REQUESTS_EXCEEDED', `Too many requests, retry after ${seconds}s.`, headers),
    internalError: (res, error) => directusError(res, 500, 'INTERNAL_SERVER_ERROR', String(error)),
    handle,
  });
  return {
    ...server,
    token,
    items,
    title: (itemId, code) => rowsOf(itemId).find((r) => r.languages_code === code)?.title ?? undefined,
    setTitle,
    count: (code) => [...articles.keys()].filter((itemId) => rowsOf(itemId).some((r) => r.languages_code === code)).length,
  };
}

/** The request a Flow (Event Hook on articles, action items.update) sends with `{{$trigger}}` as its body. */
export function directusWebhook(secret: string, change: { itemId: number; title: string }): { headers: Record<string, string>; body: string } {
  const body = { event: `${DIRECTUS_COLLECTION}.items.update`, payload: { translations: { update: [{ title: change.title }] } }, keys: [String(change.itemId)], collection: DIRECTUS_COLLECTION };
  return { headers: { 'content-type': 'application/json', 'x-parlance-webhook-secret': secret }, body: JSON.stringify(body) };
}

export async function directusFixture(): Promise<RemoteFixture> {
  const mock = await startDirectusMock();
  const item = (id: string) => {
    const itemId = mock.items.get(id);
    if (itemId === undefined) throw new Error(`No Directus item for seed '${id}'`);
    return itemId;
  };
  const code = (locale: string) => DIRECTUS_LOCALES[locale as keyof typeof DIRECTUS_LOCALES] ?? locale;
  let lastChanged = SEED[0]!.id;
  return {
    connector: 'directus',
    settings: { api_url: mock.url, collection: DIRECTUS_COLLECTION, fields: ['title'], locales: DIRECTUS_LOCALES },
    secrets: { token: mock.token },
    badSecrets: { token: 'not-a-directus-token' },
    async setSource(id, text) {
      lastChanged = id;
      mock.setTitle(item(id), 'en-US', text);
    },
    translation: async (id, locale) => mock.title(item(id), code(locale)) || undefined,
    async editTranslation(id, locale, text) {
      mock.setTitle(item(id), code(locale), text);
    },
    sourceCount: async () => mock.count('en-US'),
    webhook: (secret) => directusWebhook(secret, { itemId: item(lastChanged), title: mock.title(item(lastChanged), 'en-US')! }),
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
