/**
 * A local Freshdesk (API v2, Solutions) holding one knowledge base in memory: the helpdesk's primary language `en` and
 * supported languages `de` and `fr`, one category "Shop" with a folder "Store messages" holding the kit's SEED strings
 * as article titles (each with a short HTML description), optionally a second folder "Guides" with more articles and a
 * subfolder, and every item's translations by language code.
 *
 * Shapes from: developers.freshdesk.com/api/#solutions (category: id, name, description, visible_in_portals,
 * created_at, updated_at; folder: id, name, description, visibility, parent_folder_id, hierarchy, articles_count,
 * sub_folders_count; article: id, type, category_id, folder_id, hierarchy, title, description, description_text,
 * status 1 draft / 2 published, agent_id, seo_data, tags, thumbs_up, thumbs_down, hits, created_at, updated_at; routes
 * `/solutions/categories`, `/categories/{id}/folders`, `/folders/{id}/subfolders`, `/folders/{id}/articles`, the
 * translated variants `GET|POST|PUT /solutions/{kind}/{id}/{language_code}` and the folder's articles in a language
 * `GET /solutions/folders/{id}/articles/{language_code}`), …/api/#authentication (Basic auth with
 * the API key as user name and `X` as password; 401 `{"code":"invalid_credentials","message":"You have to be logged in
 * to perform this action."}`), …/api/#pagination (`page`, `per_page` ≤ 100, default 30; `link: <…>; rel="next"` while
 * there is a next page), …/api/#ratelimit (429 with Retry-After, X-Ratelimit-Total, X-Ratelimit-Remaining,
 * X-Ratelimit-Used-CurrentRequest), …/api/#error (400 `{"description":"Validation failed","errors":[{field, message,
 * code}]}`), …/api/#helpdesk-settings (`primary_language`, `supported_languages`, `portal_languages`); the askasoft/pango
 * Freshdesk SDK (sdk/fdk/freshdesk/solutions.go, article.go, folder.go; sdk/fdk/errors.go) for the same routes and
 * the error envelope.
 *
 * Guessed (not in the pages read): the 404 body (`{"code":"not_found","message":"…"}`; Freshdesk may answer an empty
 * body); the 409/400 answers to creating a translation that exists (here 409 `duplicate_value`) or in an unsupported
 * language (here 400 `invalid_value` on `language_code`); the 429 body's wording; the 500 body; the ids' sizes; that a folder's article list in a language holds only the articles translated into
 * it (an empty list, not a 404, when none are); that
 * `updated_at` is left as it is when a PUT changes nothing. Freshdesk's automations send whatever body the rule
 * composes with no signature: the webhook here is a JSON body with the custom header X-Parlance-Webhook-Secret, as the
 * set-up guide tells the admin to configure it. Retry-After is 1 s so that the test waits it out quickly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface FreshdeskRequest extends MockRequest {
  authorization: string | undefined;
}

export type FreshdeskKind = 'articles' | 'folders' | 'categories';

interface Item {
  kind: FreshdeskKind;
  id: number;
  parent?: number;
  category_id?: number;
  position: number;
  created_at: string;
}

/** One item's text in one language, as Freshdesk keeps it (articles: title and description; others: name and description). */
export interface FreshdeskText {
  title: string;
  description: string;
  status: number;
  updated_at: string;
}

export interface FreshdeskMockOptions {
  /** More articles in a second folder "Guides" (and one in its subfolder "Advanced"), each with an HTML description. */
  extraArticles?: number;
}

export interface FreshdeskMock extends RecordingServer<FreshdeskRequest> {
  apiKey: string;
  languages: string[];
  categoryId: number;
  folderId: number;
  guidesFolderId: number;
  subfolderId: number;
  seedArticle(id: string): number;
  translation(kind: FreshdeskKind, id: number, language: string): FreshdeskText | undefined;
  /** A person edits (or adds) an item's text in a language in Freshdesk. */
  edit(kind: FreshdeskKind, id: number, language: string, fields: { title?: string; description?: string }): void;
  /** The item is deleted in Freshdesk, with its translations. */
  remove(kind: FreshdeskKind, id: number): void;
  /** The next `count` requests answer 429 with Retry-After: 1. */
  rateLimitNext(count?: number): void;
  /** What an automation rule's Trigger webhook action sends, with `secret` in the custom header. */
  notification(secret: string, articleId: number): { headers: Record<string, string>; body: string };
}

const PRIMARY = 'en';
const MAX_PAGE = 100;
const RATE_TOTAL = 400;

export async function startFreshdeskMock(options: FreshdeskMockOptions = {}): Promise<FreshdeskMock> {
  const apiKey = `fd${Math.random().toString(36).slice(2, 12)}${Math.random().toString(36).slice(2, 12)}`;
  const languages = ['de', 'fr'];
  const items = new Map<string, Item>();
  const texts = new Map<string, FreshdeskText>();
  let clock = Date.parse('2026-01-05T09:00:00Z');
  const tick = () => new Date((clock += 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const seedArticles = new Map<string, number>();
  const key = (kind: FreshdeskKind, id: number, language: string) => `${kind}/${id}/${language}`;
  let used = 0;

  const put = (kind: FreshdeskKind, id: number, language: string, fields: { title?: string; description?: string; status?: number }) => {
    const existing = texts.get(key(kind, id, language));
    if (existing) {
      const changed = (fields.title !== undefined && fields.title !== existing.title) || (fields.description !== undefined && fields.description !== existing.description) || (fields.status !== undefined && fields.status !== existing.status);
      Object.assign(existing, fields.title !== undefined ? { title: fields.title } : {}, fields.description !== undefined ? { description: fields.description } : {}, fields.status !== undefined ? { status: fields.status } : {});
      if (changed) existing.updated_at = tick();
      return existing;
    }
    const created: FreshdeskText = { title: fields.title ?? '', description: fields.description ?? '', status: fields.status ?? 2, updated_at: tick() };
    texts.set(key(kind, id, language), created);
    return created;
  };
  const add = (kind: FreshdeskKind, id: number, fields: { title: string; description: string }, parent: { parent?: number; category_id?: number } = {}) => {
    items.set(`${kind}/${id}`, { kind, id, position: items.size, created_at: tick(), ...parent });
    put(kind, id, PRIMARY, { ...fields, status: 2 });
  };

  const categoryId = 44000100001;
  const folderId = 44000200001;
  const guidesFolderId = 44000200002;
  const subfolderId = 44000200003;
  add('categories', categoryId, { title: 'Shop', description: 'Everything about shopping with us' });
  add('folders', folderId, { title: 'Store messages', description: '' }, { category_id: categoryId });
  SEED.forEach(({ id, source }, i) => {
    const articleId = 44000300001 + i;
    seedArticles.set(id, articleId);
    add('articles', articleId, { title: source, description: `<p>${source}.</p>` }, { parent: folderId, category_id: categoryId });
  });
  if (options.extraArticles) {
    add('folders', guidesFolderId, { title: 'Guides', description: '<p>How-to guides</p>' }, { category_id: categoryId });
    add('folders', subfolderId, { title: 'Advanced', description: '' }, { category_id: categoryId, parent: guidesFolderId });
    for (let n = 1; n <= options.extraArticles; n++) {
      add('articles', 44000400000 + n, { title: `Guide ${n}`, description: `<p>Step <strong>${n}</strong>: open <a href="https://example.com/${n}">the page</a>.</p>` }, { parent: guidesFolderId, category_id: categoryId });
    }
    add('articles', 44000500001, { title: 'Advanced setup', description: '<p>Advanced</p>' }, { parent: subfolderId, category_id: categoryId });
  }

  const rateLimited = new Armed<true>();
  const limits = () => ({ 'x-ratelimit-total': String(RATE_TOTAL), 'x-ratelimit-remaining': String(Math.max(0, RATE_TOTAL - used)), 'x-ratelimit-used-currentrequest': '1' });
  const error = (res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => sendJson(res, status, body, { ...limits(), ...headers });
  const notFound = (res: ServerResponse) => error(res, 404, { code: 'not_found', message: 'The requested resource could not be found.' });
  const invalid = (res: ServerResponse, field: string, message: string, code: string) => error(res, 400, { description: 'Validation failed', errors: [{ field, message, code }] });

  function view(item: Item, language: string) {
    const text = texts.get(key(item.kind, item.id, language))!;
    const common = { id: item.id, description: text.description, created_at: item.created_at, updated_at: text.updated_at };
    if (item.kind === 'categories') return { ...common, name: text.title, visible_in_portals: [1] };
    if (item.kind === 'folders') {
      const subs = [...items.values()].filter((i) => i.kind === 'folders' && i.parent === item.id).length;
      const articles = [...items.values()].filter((i) => i.kind === 'articles' && i.parent === item.id).length;
      return { ...common, name: text.title, visibility: 1, ...(item.parent ? { parent_folder_id: item.parent } : {}), articles_count: articles, sub_folders_count: subs, hierarchy: [{ level: 0, type: 'category', data: { id: item.category_id, name: 'Shop', language } }] };
    }
    return {
      ...common,
      type: 1,
      category_id: item.category_id,
      folder_id: item.parent,
      hierarchy: [{ level: 0, type: 'category', data: { id: item.category_id, name: 'Shop', language } }, { level: 1, type: 'folder', data: { id: item.parent, name: 'Folder', language } }],
      title: text.title,
      description_text: text.description.replace(/<[^>]*>/g, ''),
      status: text.status,
      agent_id: 44000000042,
      seo_data: {},
      tags: [],
      thumbs_up: 0,
      thumbs_down: 0,
      hits: 0,
    };
  }

  /** Freshdesk's page of `all` (a bare JSON array) with a Link header naming the next page while there is one. */
  function page(res: ServerResponse, url: URL, all: unknown[]): void {
    const perPage = Number(url.searchParams.get('per_page') ?? '30');
    const n = Number(url.searchParams.get('page') ?? '1');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PAGE) return invalid(res, 'per_page', `It should be a Positive Integer less than or equal to ${MAX_PAGE}`, 'invalid_value');
    if (!Number.isInteger(n) || n < 1) return invalid(res, 'page', 'It should be a Positive Integer', 'invalid_value');
    const slice = all.slice((n - 1) * perPage, n * perPage);
    const headers: Record<string, string> = { ...limits() };
    if (n * perPage < all.length) {
      const next = new URL(url.pathname, server.url);
      next.searchParams.set('per_page', String(perPage));
      next.searchParams.set('page', String(n + 1));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    return sendJson(res, 200, slice, headers);
  }

  const authorized = (req: IncomingMessage) => (req.headers.authorization ?? '') === `Basic ${Buffer.from(`${apiKey}:X`).toString('base64')}`;
  const ordered = (kind: FreshdeskKind, match: (item: Item) => boolean) => [...items.values()].filter((i) => i.kind === kind && match(i)).sort((a, b) => a.position - b.position);

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    used++;
    if (rateLimited.take()) return error(res, 429, { message: 'You have exceeded the limit of requests per minute' }, { 'retry-after': '1', 'x-ratelimit-remaining': '0' });
    if (!authorized(req)) return error(res, 401, { code: 'invalid_credentials', message: 'You have to be logged in to perform this action.' });
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'api' || parts[1] !== 'v2') return notFound(res);
    const method = req.method ?? 'GET';
    const rest = parts.slice(2);
    if (rest[0] === 'settings' && rest[1] === 'helpdesk' && rest.length === 2 && method === 'GET') {
      return sendJson(res, 200, { primary_language: PRIMARY, supported_languages: languages, portal_languages: languages }, limits());
    }
    if (rest[0] !== 'solutions') return notFound(res);
    const [kind, rawId, sub] = rest.slice(1) as [string | undefined, string | undefined, string | undefined];
    if (kind === 'categories' && !rawId && method === 'GET') return page(res, url, ordered('categories', () => true).map((i) => view(i, PRIMARY)));
    if (kind !== 'articles' && kind !== 'folders' && kind !== 'categories') return notFound(res);
    const item = items.get(`${kind}/${Number(rawId)}`);
    if (!item) return notFound(res);
    if (kind === 'categories' && sub === 'folders' && rest.length === 4 && method === 'GET') return page(res, url, ordered('folders', (f) => f.category_id === item.id && !f.parent).map((i) => view(i, PRIMARY)));
    if (kind === 'folders' && sub === 'subfolders' && rest.length === 4 && method === 'GET') return page(res, url, ordered('folders', (f) => f.parent === item.id).map((i) => view(i, PRIMARY)));
    if (kind === 'folders' && sub === 'articles' && rest.length === 4 && method === 'GET') return page(res, url, ordered('articles', (a) => a.parent === item.id).map((i) => view(i, PRIMARY)));
    if (kind === 'folders' && sub === 'articles' && rest.length === 5 && method === 'GET') {
      const language = rest[4]!;
      return page(res, url, ordered('articles', (a) => a.parent === item.id && texts.has(key('articles', a.id, language))).map((i) => view(i, language)));
    }
    if (!sub || rest.length !== 4) return notFound(res);
    const language = sub;
    const existing = texts.get(key(kind, item.id, language));
    const titleField = kind === 'articles' ? 'title' : 'name';
    if (method === 'GET') return existing ? sendJson(res, 200, view(item, language), limits()) : notFound(res);
    const given = (body ?? {}) as Record<string, unknown>;
    for (const field of [titleField, 'description']) {
      if (given[field] !== undefined && typeof given[field] !== 'string') return invalid(res, field, 'Value set is of type Integer.It should be a/an String', 'datatype_mismatch');
    }
    if (method === 'POST') {
      if (language !== PRIMARY && !languages.includes(language)) return invalid(res, 'language_code', `It should be one of these values: '${languages.join(',')}'`, 'invalid_value');
      if (existing || language === PRIMARY) return error(res, 409, { description: 'Validation failed', errors: [{ field: 'language_code', message: 'It should be a unique value', code: 'duplicate_value' }] });
      if (typeof given[titleField] !== 'string' || (given[titleField] as string).trim() === '') return invalid(res, titleField, 'It should be a/an String', 'missing_field');
      if (kind === 'articles' && typeof given.description !== 'string') return invalid(res, 'description', 'It should be a/an String', 'missing_field');
      if (kind === 'articles' && given.status !== 1 && given.status !== 2) return invalid(res, 'status', 'It should be one of these values: 1,2', 'missing_field');
      put(kind, item.id, language, { title: given[titleField] as string, description: (given.description as string | undefined) ?? '', ...(kind === 'articles' ? { status: given.status as number } : {}) });
      return sendJson(res, 201, view(item, language), limits());
    }
    if (method === 'PUT') {
      if (!existing) return notFound(res);
      if (given[titleField] !== undefined && (given[titleField] as string).trim() === '') return invalid(res, titleField, 'It should not be blank as this is a mandatory field', 'invalid_value');
      put(kind, item.id, language, { ...(typeof given[titleField] === 'string' ? { title: given[titleField] as string } : {}), ...(typeof given.description === 'string' ? { description: given.description } : {}), ...(typeof given.status === 'number' ? { status: given.status } : {}) });
      return sendJson(res, 200, view(item, language), limits());
    }
    return notFound(res);
  }

  const server = await serveRecording<{ authorization: string | undefined }>(handle, {
    extra: (req) => ({ authorization: req.headers.authorization }),
    internalError: (res, caught) => error(res, 500, { code: 'internal_error', message: String(caught) }),
  });

  return {
    ...server,
    apiKey,
    languages,
    categoryId,
    folderId,
    guidesFolderId,
    subfolderId,
    seedArticle(id) {
      const found = seedArticles.get(id);
      if (found === undefined) throw new Error(`Freshdesk mock: no article for seed '${id}'`);
      return found;
    },
    translation: (kind, id, language) => texts.get(key(kind, id, language)),
    edit(kind, id, language, fields) {
      if (!items.has(`${kind}/${id}`)) throw new Error(`Freshdesk mock: no ${kind} ${id}`);
      const existing = texts.get(key(kind, id, language));
      put(kind, id, language, existing ? fields : { title: fields.title ?? '', description: fields.description ?? '', status: 1 });
    },
    remove(kind, id) {
      items.delete(`${kind}/${id}`);
      for (const l of [PRIMARY, ...languages]) texts.delete(key(kind, id, l));
    },
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    notification(secret, articleId) {
      const body = JSON.stringify({ freshdesk_webhook: { triggered_event: 'solution_article_updated', article_id: articleId } });
      return { headers: { 'content-type': 'application/json', 'x-parlance-webhook-secret': secret }, body };
    },
  };
}

/** The acceptance scenario's view of the mock: SEED strings are the en titles of the "Store messages" articles. */
export async function freshdeskFixture(): Promise<RemoteFixture> {
  const mock = await startFreshdeskMock();
  return cmsFixture({
    connector: 'freshdesk',
    settings: { url: mock.url },
    secrets: { api_key: mock.apiKey },
    badSecrets: { api_key: 'revoked-key-000000000000' },
    edit: (id, locale, text) => mock.edit('articles', mock.seedArticle(id), locale, { title: text }),
    held: (id, locale) => mock.translation('articles', mock.seedArticle(id), locale)?.title,
    sourceCount: () => SEED.filter((s) => mock.translation('articles', mock.seedArticle(s.id), 'en') !== undefined).length,
    webhook: (id, secret) => mock.notification(secret, mock.seedArticle(id)),
    server: mock,
  });
}
