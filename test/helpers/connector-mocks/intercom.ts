/**
 * A local Intercom REST API (`/articles`) holding one workspace's help center in memory: its languages (`en` the
 * default, `de`, `fr`), and its articles, each with its default-language content at the top level and one
 * `article_content` per language in `translated_content`. The kit's SEED strings are the titles of the "Store
 * messages" articles.
 *
 * Shapes from: developers.intercom.com/docs/references/rest-api/api.intercom.io/articles (GET /articles with `page`
 * and `per_page` — default 15 — answering `{ type: 'list', pages: { type: 'pages', page, next, per_page, total_pages },
 * total_count, data }`, newest `updated_at` first; GET /articles/{id}; PUT /articles/{id} with `title`, `description`,
 * `body`, `author_id`, `state`, `translated_content`; the article object: type, id (a string), workspace_id, title,
 * description, body, author_id, state, created_at, updated_at (epoch seconds), url, parent_id, parent_type,
 * default_locale, translated_content, statistics), …/models/article_translated_content and …/models/article_content
 * (`{ type: 'article_translated_content', <locale>: { type: 'article_content', title, description, body, author_id,
 * state, created_at, updated_at, url } }`, locale keys `de`, `pt-BR`, `zh-CN`…), the docs' update example (a PUT
 * sending `translated_content.fr` adds the French version), developers.intercom.com/docs/build-an-integration/
 * learn-more/rest-apis/errors (`{ type: 'error.list', request_id, errors: [{ code, message }] }`, `unauthorized` /
 * "Access Token Invalid", `not_found` / "Resource Not Found"), …/rest-apis/rate-limiting (429 with X-RateLimit-Limit,
 * X-RateLimit-Remaining and X-RateLimit-Reset in epoch seconds), and …/webhooks/setting-up-webhooks and
 * …/webhooks/webhook-models (X-Hub-Signature `sha1=` hex HMAC-SHA1 of the body with the app's client secret; the
 * `notification_event` envelope: type, app_id, data { type: 'notification_event_data', item }, links, id, topic,
 * delivery_status, delivery_attempts, delivered_at, first_sent_at, created_at, self).
 *
 * Guessed (not in the pages read): the `article.updated` topic name (Intercom's topic list names article topics only
 * loosely); that `translated_content` lists the default language too; a PUT's language content merging field by field
 * into what the article holds; the 400 `parameter_invalid` answers for a language the help center has not enabled and
 * for a new language version without a title; `per_page` above 150 refused; `updated_at` left alone when a PUT
 * changes nothing; the 429 body's wording; the request_id values. X-RateLimit-Reset is 2 s ahead so that the test
 * waits it out quickly.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface IntercomRequest extends MockRequest {
  authorization: string | undefined;
  version: string | undefined;
}

export interface IntercomContent {
  type: 'article_content';
  title: string;
  description: string;
  body: string;
  author_id: number;
  state: 'published' | 'draft';
  created_at: number;
  updated_at: number;
  url: string;
}

interface Article {
  id: string;
  parent_id: number;
  default_locale: string;
  created_at: number;
  updated_at: number;
  /** Every language version, the default one's included. */
  content: Map<string, IntercomContent>;
}

export interface IntercomMockOptions {
  /** More articles in a "Guides" collection, each with a description and an HTML body (for the paging tests). */
  extraArticles?: number;
}

export interface IntercomMock extends RecordingServer<IntercomRequest> {
  token: string;
  locales: string[];
  /** The article id holding a SEED string. */
  seedArticle(id: string): string;
  content(id: string, locale: string): IntercomContent | undefined;
  /** A person edits (or adds) a language version in Intercom's editor. */
  edit(id: string, locale: string, fields: Partial<Pick<IntercomContent, 'title' | 'description' | 'body'>>): void;
  /** The article is deleted in Intercom. */
  remove(id: string): void;
  /** The next `count` requests answer 429 with X-RateLimit-Reset two seconds ahead. */
  rateLimitNext(count?: number): void;
  /** The notification Intercom sends to the app's webhook for a change to an article, signed with `secret`. */
  notification(secret: string, id: string, options?: { topic?: string; at?: Date }): { headers: Record<string, string>; body: string };
}

const WORKSPACE = 'ecahpwf5';
const AUTHOR = 991267407;
const PERSON = 991267499;
const MAX_PAGE = 150;

export async function startIntercomMock(options: IntercomMockOptions = {}): Promise<IntercomMock> {
  const token = `dG9rOj${randomBytes(18).toString('base64url')}`;
  const locales = ['en', 'de', 'fr'];
  const articles = new Map<string, Article>();
  let clock = Date.parse('2026-01-05T09:00:00Z') / 1000;
  const tick = () => ++clock;
  const seedArticles = new Map<string, string>();
  let base = '';
  let nextId = 9_000_001;
  const link = (article: Article, locale: string, title: string) => `http://intercom.help/acme/${locale}/articles/${article.id}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

  /** Sets a language version's fields; updated_at moves only when something changed. */
  const put = (article: Article, locale: string, fields: Partial<Pick<IntercomContent, 'title' | 'description' | 'body' | 'state' | 'author_id'>>) => {
    const existing = article.content.get(locale);
    const now = tick();
    if (existing) {
      const changed = (Object.keys(fields) as (keyof typeof fields)[]).some((k) => fields[k] !== undefined && fields[k] !== existing[k]);
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) (existing as unknown as Record<string, unknown>)[k] = v;
      if (changed) existing.updated_at = article.updated_at = now;
      return;
    }
    const title = fields.title ?? '';
    article.content.set(locale, { type: 'article_content', title, description: fields.description ?? '', body: fields.body ?? '', author_id: fields.author_id ?? AUTHOR, state: fields.state ?? 'draft', created_at: now, updated_at: now, url: link(article, locale, title) });
    article.updated_at = now;
  };
  const add = (parent: number, fields: { title: string; description?: string; body?: string }) => {
    const id = String(nextId++);
    const now = tick();
    const article: Article = { id, parent_id: parent, default_locale: 'en', created_at: now, updated_at: now, content: new Map() };
    articles.set(id, article);
    put(article, 'en', { ...fields, state: 'published' });
    return id;
  };

  const storeCollection = 145;
  const guidesCollection = 146;
  for (const { id, source } of SEED) seedArticles.set(id, add(storeCollection, { title: source }));
  for (let n = 1; n <= (options.extraArticles ?? 0); n++) {
    add(guidesCollection, { title: `Guide ${n}`, description: `How to do step ${n}`, body: `<p>Step <b>${n}</b>: open <a href="https://example.com/${n}">the page</a>.</p>` });
  }

  function view(article: Article) {
    const own = article.content.get(article.default_locale)!;
    const translated: Record<string, unknown> = { type: 'article_translated_content' };
    for (const [locale, content] of article.content) translated[locale] = { ...content };
    return {
      type: 'article',
      id: article.id,
      workspace_id: WORKSPACE,
      title: own.title,
      description: own.description,
      body: own.body,
      author_id: own.author_id,
      state: own.state,
      created_at: article.created_at,
      updated_at: article.updated_at,
      url: own.url,
      parent_id: article.parent_id,
      parent_ids: [article.parent_id],
      parent_type: 'collection',
      default_locale: article.default_locale,
      translated_content: translated,
      statistics: { type: 'article_statistics', views: 0, conversions: 0, reactions: 0, happy_reaction_percentage: 0, neutral_reaction_percentage: 0, sad_reaction_percentage: 0 },
    };
  }

  const rateLimited = new Armed<true>();
  const requestId = () => `000${randomBytes(6).toString('hex')}`;
  const error = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) => sendJson(res, status, { type: 'error.list', request_id: requestId(), errors: [{ code, message }] }, headers);

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    if (rateLimited.take()) {
      const reset = Math.floor(Date.now() / 1000) + 2;
      return error(res, 429, 'rate_limit_exceeded', 'Exceeded rate limit of 10000 in 1_minute', { 'x-ratelimit-limit': '10000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
    }
    if (req.headers.authorization !== `Bearer ${token}`) return error(res, 401, 'unauthorized', 'Access Token Invalid');
    const parts = url.pathname.split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    if (parts[0] !== 'articles' || parts.length > 2) return error(res, 404, 'not_found', 'Resource Not Found');
    if (parts.length === 1 && method === 'GET') {
      const page = Number(url.searchParams.get('page') ?? '1');
      const perPage = Number(url.searchParams.get('per_page') ?? '15');
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PAGE) return error(res, 400, 'parameter_invalid', `per_page must be between 1 and ${MAX_PAGE}`);
      if (!Number.isInteger(page) || page < 1) return error(res, 400, 'parameter_invalid', 'page must be a positive integer');
      const all = [...articles.values()].sort((a, b) => b.updated_at - a.updated_at || Number(a.id) - Number(b.id));
      const totalPages = Math.max(1, Math.ceil(all.length / perPage));
      const pages: Record<string, unknown> = { type: 'pages', page, per_page: perPage, total_pages: totalPages };
      if (page < totalPages) pages.next = `${base}/articles?page=${page + 1}&per_page=${perPage}`;
      return sendJson(res, 200, { type: 'list', pages, total_count: all.length, data: all.slice((page - 1) * perPage, page * perPage).map(view) });
    }
    const article = parts[1] ? articles.get(parts[1]) : undefined;
    if (!article) return error(res, 404, 'not_found', 'Resource Not Found');
    if (method === 'GET') return sendJson(res, 200, view(article));
    if (method !== 'PUT') return error(res, 404, 'not_found', 'Resource Not Found');
    const given = (body ?? {}) as { title?: unknown; description?: unknown; body?: unknown; translated_content?: Record<string, unknown> };
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    // Check every language version first: Intercom refuses the whole request.
    const versions = Object.entries(given.translated_content ?? {}).filter(([locale]) => locale !== 'type');
    for (const [locale, value] of versions) {
      if (!locales.includes(locale)) return error(res, 400, 'parameter_invalid', `Locale ${locale} is not enabled for this help center`);
      const fields = (value ?? {}) as Record<string, unknown>;
      if (!article.content.has(locale) && !str(fields.title)) return error(res, 400, 'parameter_invalid', `title is required for the ${locale} content`);
    }
    put(article, article.default_locale, { title: str(given.title), description: str(given.description), body: str(given.body) });
    for (const [locale, value] of versions) {
      const fields = value as Record<string, unknown>;
      const state = fields.state === 'published' || fields.state === 'draft' ? fields.state : undefined;
      put(article, locale, { title: str(fields.title), description: str(fields.description), body: str(fields.body), state, ...(typeof fields.author_id === 'number' ? { author_id: fields.author_id } : {}) });
    }
    return sendJson(res, 200, view(article));
  }

  const server = await serveRecording<{ authorization: string | undefined; version: string | undefined }>(handle, {
    extra: (req) => ({ authorization: req.headers.authorization, version: req.headers['intercom-version'] as string | undefined }),
    internalError: (res, caught) => error(res, 500, 'server_error', String(caught)),
  });
  base = server.url;

  return {
    ...server,
    token,
    locales,
    seedArticle(id) {
      const found = seedArticles.get(id);
      if (found === undefined) throw new Error(`Intercom mock: no article for seed '${id}'`);
      return found;
    },
    content: (id, locale) => articles.get(id)?.content.get(locale),
    edit(id, locale, fields) {
      const article = articles.get(id);
      if (!article) throw new Error(`Intercom mock: no article ${id}`);
      put(article, locale, { ...fields, ...(article.content.has(locale) ? {} : { author_id: PERSON }) });
    },
    remove(id) {
      articles.delete(id);
    },
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    notification(secret, id, opts = {}) {
      const article = articles.get(id);
      const at = Math.floor((opts.at ?? new Date()).getTime() / 1000);
      const body = JSON.stringify({
        type: 'notification_event',
        app_id: WORKSPACE,
        data: { type: 'notification_event_data', item: article ? view(article) : { type: 'article', id } },
        links: {},
        id: `notif_${randomBytes(8).toString('hex')}`,
        topic: opts.topic ?? 'article.updated',
        delivery_status: 'pending',
        delivery_attempts: 1,
        delivered_at: 0,
        first_sent_at: at,
        created_at: at,
        self: null,
      });
      const signature = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
      return { headers: { 'content-type': 'application/json', 'user-agent': 'intercom-parrot-service-worker', 'x-hub-signature': signature }, body };
    },
  };
}

/** The acceptance scenario's view of the mock: SEED strings are the titles of the "Store messages" articles. */
export async function intercomFixture(): Promise<RemoteFixture> {
  const mock = await startIntercomMock();
  return cmsFixture({
    connector: 'intercom',
    settings: { api_url: mock.url, help_center_locales: ['de', 'fr'] },
    secrets: { access_token: mock.token },
    badSecrets: { access_token: 'dG9rOjrevoked0000000000000000' },
    edit: (id, locale, text) => mock.edit(mock.seedArticle(id), locale, { title: text }),
    held: (id, locale) => mock.content(mock.seedArticle(id), locale)?.title,
    sourceCount: () => SEED.filter((s) => mock.content(mock.seedArticle(s.id), 'en') !== undefined).length,
    webhook: (id, secret) => mock.notification(secret, mock.seedArticle(id)),
    server: mock,
  });
}
