/**
 * A local Zendesk Guide (Help Center API) holding one help center in memory: its locales (`en-us` the default, `de`,
 * `fr`), categories, sections and articles, and every item's translations (the source locale's included, as Zendesk
 * keeps them). The kit's SEED strings are the en-us titles of the "Store messages" articles.
 *
 * Shapes from: developer.zendesk.com/api-reference/help_center/help-center-api/translations/ (translation properties
 * id, url, html_url, source_id, source_type, locale, title, body, outdated, draft, created_at, updated_at,
 * updated_by_id, created_by_id; list/show/create/update routes; "updated_at is not updated if the request body
 * matches the existing translation"), …/help-center-api/articles/ and …/sections/, …/categories/ (item properties,
 * `source_locale`, `GET /api/v2/help_center/sections/{id}/articles`), …/help-center-api/locales/ (`{ locales,
 * default_locale }`), …/help-center-api/introduction/ (ids as JSON numbers, locales like `en-us`),
 * developer.zendesk.com/api-reference/introduction/pagination/ (cursor pagination: `page[size]` ≤ 100, `page[after]`,
 * `meta: { has_more, after_cursor, before_cursor }`, `links: { first, last, next, prev }`),
 * …/introduction/security-and-auth/ (`{email}/token:{api_token}` Basic auth and Bearer tokens; 401 body
 * `{"error":"Couldn't authenticate you"}`), …/introduction/rate-limits/ (429 with Retry-After in seconds),
 * developer.zendesk.com/documentation/webhooks/verifying/ (X-Zendesk-Webhook-Signature = base64 HMAC-SHA256 of
 * X-Zendesk-Webhook-Signature-Timestamp + body) and …/webhooks/event-types/article-events/ (the
 * `zen:event-type:article.published` payload: account_id, detail { brand_id, id }, event { author_id, category_id,
 * locale, section_id, title }, id, subject `zen:article:<id>`, time, type, zendesk_event_version).
 *
 * Guessed (not in the pages read): the 404 body `{"error":"RecordNotFound","description":"Not found"}` (Zendesk's
 * usual one); the 429 body (`{"error":"TooManyRequests","description":…}`); the 400 bodies of a refused create
 * (`RecordInvalid` with `details.<field>[{ description, error }]`, as the Support API answers) for a duplicate or
 * disabled locale and a blank title; the cursor values (here the offset, base64); the exact ISO form of the signature
 * timestamp (the docs' example is `2021-07-25T10:00:00Z`); the X-Zendesk-Webhook-Id header. Retry-After is 1 s here
 * so that the test waits it out quickly.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface ZendeskRequest extends MockRequest {
  authorization: string | undefined;
}

type Kind = 'articles' | 'sections' | 'categories';
const SOURCE_TYPE: Record<Kind, string> = { articles: 'Article', sections: 'Section', categories: 'Category' };

export interface ZendeskTranslation {
  id: number;
  url: string;
  html_url: string;
  source_id: number;
  source_type: string;
  locale: string;
  title: string;
  body: string | null;
  outdated: boolean;
  draft: boolean;
  hidden: boolean;
  created_at: string;
  updated_at: string;
  updated_by_id: number;
  created_by_id: number;
}

interface Item {
  id: number;
  kind: Kind;
  source_locale: string;
  section_id?: number;
  category_id?: number;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface ZendeskMockOptions {
  /** More articles in a second section, "Guides", each with an HTML body (for the pagination tests). */
  extraArticles?: number;
}

export interface ZendeskGuideMock extends RecordingServer<ZendeskRequest> {
  email: string;
  apiToken: string;
  oauthToken: string;
  locales: string[];
  categoryId: number;
  sectionId: number;
  guidesSectionId: number;
  /** The article id holding a SEED string. */
  seedArticle(id: string): number;
  translation(kind: Kind, id: number, locale: string): ZendeskTranslation | undefined;
  /** A person edits (or adds) a translation in Guide. */
  edit(kind: Kind, id: number, locale: string, fields: { title?: string; body?: string }): void;
  /** The item is deleted in Guide, with its translations. */
  remove(kind: Kind, id: number): void;
  /** The next `count` requests answer 429 with Retry-After: 1. */
  rateLimitNext(count?: number): void;
  /** The article event Zendesk sends to a webhook subscribed to it, signed with `secret`. */
  notification(secret: string, articleId: number, options?: { type?: string; at?: Date }): { headers: Record<string, string>; body: string };
}

const EMAIL = 'guide.manager@example.com';
const ACCOUNT_ID = 10168721;
const BRAND_ID = 224348602;
const AGENT_ID = 225859532;
const PERSON_ID = 225859999;
const MAX_PAGE = 100;

export async function startZendeskGuideMock(options: ZendeskMockOptions = {}): Promise<ZendeskGuideMock> {
  const apiToken = `zd-${Math.random().toString(36).slice(2, 14)}${Math.random().toString(36).slice(2, 14)}`;
  const oauthToken = `oauth-${Math.random().toString(36).slice(2, 18)}`;
  const locales = ['en-us', 'de', 'fr'];
  const items = new Map<string, Item>();
  const translations = new Map<string, ZendeskTranslation>();
  let clock = Date.parse('2026-01-05T09:00:00Z');
  const tick = () => new Date((clock += 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  let nextTranslation = 5_000_001;
  const seedArticles = new Map<string, number>();
  const key = (kind: Kind, id: number, locale: string) => `${kind}/${id}/${locale}`;
  let base = '';

  const put = (kind: Kind, id: number, locale: string, fields: { title?: string; body?: string | null; draft?: boolean }, by = AGENT_ID) => {
    const now = tick();
    const existing = translations.get(key(kind, id, locale));
    if (existing) {
      const changed = (fields.title !== undefined && fields.title !== existing.title) || (fields.body !== undefined && fields.body !== existing.body) || (fields.draft !== undefined && fields.draft !== existing.draft);
      Object.assign(existing, fields.title !== undefined ? { title: fields.title } : {}, fields.body !== undefined ? { body: fields.body } : {}, fields.draft !== undefined ? { draft: fields.draft } : {});
      // Zendesk leaves updated_at as it is when the body matches what it holds.
      if (changed) Object.assign(existing, { updated_at: now, updated_by_id: by });
      return existing;
    }
    const translationId = nextTranslation++;
    const created: ZendeskTranslation = {
      id: translationId,
      url: `${base}/api/v2/help_center/${kind}/${id}/translations/${translationId}.json`,
      html_url: `${base}/hc/${locale}/${kind}/${id}`,
      source_id: id,
      source_type: SOURCE_TYPE[kind],
      locale,
      title: fields.title ?? '',
      body: fields.body ?? null,
      outdated: false,
      draft: fields.draft ?? false,
      hidden: false,
      created_at: now,
      updated_at: now,
      updated_by_id: by,
      created_by_id: by,
    };
    translations.set(key(kind, id, locale), created);
    return created;
  };
  const add = (kind: Kind, id: number, fields: { title: string; body?: string }, parent: { section_id?: number; category_id?: number } = {}) => {
    const now = tick();
    items.set(`${kind}/${id}`, { id, kind, source_locale: 'en-us', position: items.size, created_at: now, updated_at: now, ...parent });
    put(kind, id, 'en-us', fields);
  };

  const categoryId = 360001000001;
  const sectionId = 360002000001;
  const guidesSectionId = 360002000002;
  add('categories', categoryId, { title: 'Shop', body: 'Everything about shopping with us' });
  add('sections', sectionId, { title: 'Store messages', body: '' }, { category_id: categoryId });
  SEED.forEach(({ id, source }, i) => {
    const articleId = 360003000001 + i;
    seedArticles.set(id, articleId);
    add('articles', articleId, { title: source, body: '' }, { section_id: sectionId });
  });
  if (options.extraArticles) {
    add('sections', guidesSectionId, { title: 'Guides', body: '<p>How-to guides</p>' }, { category_id: categoryId });
    for (let n = 1; n <= options.extraArticles; n++) {
      add('articles', 360004000000 + n, { title: `Guide ${n}`, body: `<p>Step <strong>${n}</strong>: open <a href="https://example.com/${n}">the page</a>.</p>` }, { section_id: guidesSectionId });
    }
  }

  const rateLimited = new Armed<true>();
  const error = (res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => sendJson(res, status, body, headers);
  const notFound = (res: ServerResponse) => error(res, 404, { error: 'RecordNotFound', description: 'Not found' });
  const invalid = (res: ServerResponse, field: string, description: string, code: string) => error(res, 400, { error: 'RecordInvalid', description: 'Record validation errors', details: { [field]: [{ description, error: code }] } });

  function view(item: Item) {
    const source = translations.get(key(item.kind, item.id, item.source_locale))!;
    const common = { id: item.id, url: `${base}/api/v2/help_center/${item.kind}/${item.id}.json`, html_url: `${base}/hc/en-us/${item.kind}/${item.id}`, position: item.position, created_at: item.created_at, updated_at: item.updated_at, locale: item.source_locale, source_locale: item.source_locale, outdated: false };
    if (item.kind === 'articles') {
      return { ...common, author_id: AGENT_ID, comments_disabled: false, draft: source.draft, promoted: false, vote_sum: 0, vote_count: 0, section_id: item.section_id, edited_at: source.updated_at, user_segment_id: null, permission_group_id: 1, content_tag_ids: [], label_names: [], outdated_locales: [], title: source.title, name: source.title, body: source.body };
    }
    if (item.kind === 'sections') return { ...common, category_id: item.category_id, parent_section_id: null, sorting: 'manual', theme_template: 'section_page', name: source.title, description: source.body ?? '' };
    return { ...common, name: source.title, description: source.body ?? '' };
  }

  /** Zendesk's cursor page of `all` under `field`, with meta and links. */
  function page<T>(res: ServerResponse, url: URL, field: string, all: T[]): void {
    const size = Number(url.searchParams.get('page[size]') ?? '30');
    if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) return error(res, 400, { error: 'InvalidPaginationParameter', description: `page[size] must be between 1 and ${MAX_PAGE}` });
    const after = url.searchParams.get('page[after]');
    const offset = after ? Number(Buffer.from(after, 'base64').toString('utf8')) : 0;
    const slice = all.slice(offset, offset + size);
    const hasMore = offset + size < all.length;
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64');
    const link = (param: string, value: string) => {
      const next = new URL(url.pathname, base);
      next.searchParams.set('page[size]', String(size));
      next.searchParams.set(param, value);
      return next.toString();
    };
    return sendJson(res, 200, {
      [field]: slice,
      meta: { has_more: hasMore, after_cursor: hasMore ? cursor(offset + size) : null, before_cursor: offset > 0 ? cursor(offset) : null },
      links: { first: link('page[after]', ''), last: null, next: hasMore ? link('page[after]', cursor(offset + size)) : null, prev: offset > 0 ? link('page[before]', cursor(offset)) : null },
    });
  }

  function authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    if (header === `Bearer ${oauthToken}`) return true;
    if (!header.startsWith('Basic ')) return false;
    return Buffer.from(header.slice(6), 'base64').toString('utf8') === `${EMAIL}/token:${apiToken}`;
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    if (rateLimited.take()) return error(res, 429, { error: 'TooManyRequests', description: 'You have exceeded the rate limit for this account. Retry after the time in Retry-After.' }, { 'retry-after': '1' });
    if (!authorized(req)) return error(res, 401, { error: "Couldn't authenticate you" });
    const parts = url.pathname.replace(/\.json$/, '').split('/').filter(Boolean);
    if (parts[0] !== 'api' || parts[1] !== 'v2' || parts[2] !== 'help_center') return notFound(res);
    const [kind, rawId, sub, locale] = parts.slice(3) as [string | undefined, string | undefined, string | undefined, string | undefined];
    const method = req.method ?? 'GET';
    if (kind === 'locales' && !rawId && method === 'GET') return sendJson(res, 200, { locales, default_locale: 'en-us' });
    if (kind !== 'articles' && kind !== 'sections' && kind !== 'categories') return notFound(res);
    const all = (k: Kind) => [...items.values()].filter((item) => item.kind === k).sort((a, b) => a.position - b.position);
    if (!rawId && method === 'GET') return page(res, url, kind, all(kind).map(view));
    const item = items.get(`${kind}/${Number(rawId)}`);
    if (!item) return notFound(res);
    if (kind === 'sections' && sub === 'articles' && method === 'GET') return page(res, url, 'articles', all('articles').filter((a) => a.section_id === item.id).map(view));
    if (sub !== 'translations') return notFound(res);
    const own = () => locales.map((l) => translations.get(key(kind, item.id, l))).filter((t): t is ZendeskTranslation => t !== undefined);
    if (!locale && method === 'GET') return page(res, url, 'translations', own());
    if (!locale && method === 'POST') {
      const given = (body as { translation?: { locale?: unknown; title?: unknown; body?: unknown; draft?: unknown } } | undefined)?.translation;
      if (!given || typeof given.locale !== 'string') return invalid(res, 'locale', 'Locale: cannot be blank', 'BlankValue');
      if (!locales.includes(given.locale)) return invalid(res, 'locale', `Locale: ${given.locale} is not enabled for this help center`, 'InvalidValue');
      if (translations.has(key(kind, item.id, given.locale))) return invalid(res, 'locale', 'Locale: has already been taken', 'DuplicateValue');
      if (typeof given.title !== 'string' || given.title.trim() === '') return invalid(res, 'title', 'Title: cannot be blank', 'BlankValue');
      const created = put(kind, item.id, given.locale, { title: given.title, body: typeof given.body === 'string' ? given.body : null, draft: given.draft === true });
      return sendJson(res, 201, { translation: created });
    }
    if (!locale) return notFound(res);
    const existing = translations.get(key(kind, item.id, locale));
    if (!existing) return notFound(res);
    if (method === 'GET') return sendJson(res, 200, { translation: existing });
    if (method === 'PUT') {
      const given = (body as { translation?: { title?: unknown; body?: unknown; draft?: unknown } } | undefined)?.translation ?? {};
      if (given.title !== undefined && (typeof given.title !== 'string' || given.title.trim() === '')) return invalid(res, 'title', 'Title: cannot be blank', 'BlankValue');
      const updated = put(kind, item.id, locale, { ...(typeof given.title === 'string' ? { title: given.title } : {}), ...(typeof given.body === 'string' ? { body: given.body } : {}), ...(typeof given.draft === 'boolean' ? { draft: given.draft } : {}) });
      return sendJson(res, 200, { translation: updated });
    }
    return notFound(res);
  }

  const server = await serveRecording<{ authorization: string | undefined }>(handle, {
    extra: (req) => ({ authorization: req.headers.authorization }),
    internalError: (res, caught) => error(res, 500, { error: 'InternalError', description: String(caught) }),
  });
  base = server.url;

  return {
    ...server,
    email: EMAIL,
    apiToken,
    oauthToken,
    locales,
    categoryId,
    sectionId,
    guidesSectionId,
    seedArticle(id) {
      const found = seedArticles.get(id);
      if (found === undefined) throw new Error(`Zendesk mock: no article for seed '${id}'`);
      return found;
    },
    translation: (kind, id, locale) => translations.get(key(kind, id, locale)),
    edit(kind, id, locale, fields) {
      if (!items.has(`${kind}/${id}`)) throw new Error(`Zendesk mock: no ${kind} ${id}`);
      put(kind, id, locale, fields, PERSON_ID);
    },
    remove(kind, id) {
      items.delete(`${kind}/${id}`);
      for (const l of locales) translations.delete(key(kind, id, l));
    },
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    notification(secret, articleId, opts = {}) {
      const source = translations.get(key('articles', articleId, 'en-us'));
      const article = items.get(`articles/${articleId}`);
      const body = JSON.stringify({
        account_id: ACCOUNT_ID,
        detail: { brand_id: String(BRAND_ID), id: String(articleId) },
        event: { author_id: String(AGENT_ID), category_id: String(categoryId), locale: 'en-us', section_id: String(article?.section_id ?? sectionId), title: source?.title ?? '' },
        id: `01GX4P86AC7T0AFF86QGA${String(articleId).slice(-5)}`,
        subject: `zen:article:${articleId}`,
        time: new Date().toISOString(),
        type: opts.type ?? 'zen:event-type:article.published',
        zendesk_event_version: '2022-11-06',
      });
      const timestamp = (opts.at ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const signature = createHmac('sha256', secret).update(timestamp + body).digest('base64');
      return { headers: { 'content-type': 'application/json', 'x-zendesk-webhook-id': '01GX4P7ZQ2F9W3E6R8T0Y1U2I3', 'x-zendesk-webhook-signature': signature, 'x-zendesk-webhook-signature-timestamp': timestamp }, body };
    },
  };
}

/** The acceptance scenario's view of the mock: SEED strings are the en-us titles of the "Store messages" articles. */
export async function zendeskGuideFixture(): Promise<RemoteFixture> {
  const mock = await startZendeskGuideMock();
  const code = (locale: string) => (locale === 'en' ? 'en-us' : locale);
  return cmsFixture({
    connector: 'zendesk_guide',
    settings: { url: mock.url },
    secrets: { email: mock.email, api_token: mock.apiToken },
    badSecrets: { email: mock.email, api_token: 'revoked-token-0000000000' },
    edit: (id, locale, text) => mock.edit('articles', mock.seedArticle(id), code(locale), { title: text }),
    held: (id, locale) => mock.translation('articles', mock.seedArticle(id), code(locale))?.title,
    sourceCount: () => SEED.filter((s) => mock.translation('articles', mock.seedArticle(s.id), 'en-us') !== undefined).length,
    webhook: (id, secret) => mock.notification(secret, mock.seedArticle(id)),
    server: mock,
  });
}
