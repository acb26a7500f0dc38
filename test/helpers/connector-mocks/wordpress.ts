/**
 * A local WordPress site with Polylang Pro's REST fields: posts (the kit's SEED strings as English post titles) and
 * pages, languages en (default), de and fr, Application Passwords over Basic auth.
 *
 * Shapes from https://developer.wordpress.org/rest-api/reference/posts/ (`context=edit` → `title.raw`, `excerpt.raw`,
 * `content.raw`, `modified_gmt`; `per_page` ≤ 100, `X-WP-Total`/`X-WP-TotalPages`; 400 rest_post_invalid_page_number;
 * 404 rest_post_invalid_id; create with `POST /wp/v2/posts` → 201, update with `POST /wp/v2/posts/{id}`),
 * https://developer.wordpress.org/rest-api/using-the-rest-api/global-parameters/ (the `{ code, message, data: {
 * status } }` error body; 404 rest_no_route), WordPress core's wp_authenticate_application_password (401
 * incorrect_password "The provided password is an invalid application password.", invalid_username),
 * https://polylang.pro/doc/rest-api/ (`?lang=` filter, `lang` and `translations` fields, which always include the post
 * itself; both assignable on POST) and polylang/polylang's REST Languages controller (`GET /pll/v1/languages`).
 * WordPress core has no rate limit; hosts and WAFs in front of it answer 429 with Retry-After, as here.
 */
import type { ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock, type RestCmsRequest } from './rest-cms-mock.js';

const LANGUAGES = [
  { term_id: 2, name: 'English', slug: 'en', locale: 'en_US', w3c: 'en-US', is_rtl: false, term_group: 0, is_default: true, active: true },
  { term_id: 5, name: 'Deutsch', slug: 'de', locale: 'de_DE', w3c: 'de-DE', is_rtl: false, term_group: 1, is_default: false, active: true },
  { term_id: 8, name: 'Français', slug: 'fr', locale: 'fr_FR', w3c: 'fr-FR', is_rtl: false, term_group: 2, is_default: false, active: true },
];
const TYPES = { posts: 'post', pages: 'page' } as const;
type RestBase = keyof typeof TYPES;

export interface WordPressMockOptions {
  extraPosts?: number;
}

export type WordPressRequest = RestCmsRequest;

interface Post {
  id: number;
  type: RestBase;
  status: string;
  title: string;
  excerpt: string;
  content: string;
  lang: string;
  group: number;
  modified: number;
}

export interface WordPressMock extends RestCmsMock {
  /** The REST root, `…/wp-json`. */
  url: string;
  username: string;
  password: string;
  /** The post id of each seed id. */
  posts: Map<string, number>;
  /** A source post's translation in a language, or undefined. */
  translation(sourceId: number, lang: string): { id: number; title: string; excerpt: string; content: string; status: string } | undefined;
  setTitle(sourceId: number, lang: string, title: string): void;
  count(lang: string): number;
}

/** WordPress spells its JSON charset in capitals. */
const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, { 'content-type': 'application/json; charset=UTF-8', ...headers });
const wpError = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) => send(res, status, { code, message, data: { status } }, headers);
const gmt = (ms: number) => new Date(ms).toISOString().slice(0, 19);

export async function startWordPressMock(options: WordPressMockOptions = {}): Promise<WordPressMock> {
  const username = 'parlance-bot';
  const password = `abcd EFGH ${Math.random().toString(36).slice(2, 6)} ijkl MNOP qrst`;
  const seeded = new Map<string, number>();
  const store = new Map<number, Post>();
  let nextId = 100;
  let clock = Date.parse('2026-11-01T00:00:00Z');

  const add = (fields: Omit<Post, 'id' | 'group' | 'modified'> & { group?: number }) => {
    const id = nextId++;
    store.set(id, { ...fields, id, group: fields.group ?? id, modified: (clock += 1000) });
    return store.get(id)!;
  };
  SEED.forEach(({ id, source }) => seeded.set(id, add({ type: 'posts', status: 'publish', title: source, excerpt: '', content: `<!-- wp:paragraph --><p>${source}</p><!-- /wp:paragraph -->`, lang: 'en' }).id));
  for (let n = 0; n < (options.extraPosts ?? 0); n++) add({ type: 'posts', status: 'publish', title: `Post ${n + 1}`, excerpt: `Excerpt ${n + 1}`, content: '', lang: 'en' });
  add({ type: 'pages', status: 'publish', title: 'About us', excerpt: '', content: '<p>About</p>', lang: 'en' });

  const translationsOf = (post: Post) => Object.fromEntries([...store.values()].filter((p) => p.group === post.group).map((p) => [p.lang, p.id]));
  const view = (post: Post, edit: boolean) => {
    const text = (value: string) => (edit ? { raw: value, rendered: value } : { rendered: value });
    return {
      id: post.id,
      date: gmt(post.modified),
      date_gmt: gmt(post.modified),
      modified: gmt(post.modified),
      modified_gmt: gmt(post.modified),
      slug: `post-${post.id}`,
      status: post.status,
      type: TYPES[post.type],
      link: `http://example.test/?p=${post.id}`,
      title: text(post.title),
      content: { ...text(post.content), protected: false, block_version: 1 },
      ...(post.type === 'posts' ? { excerpt: { ...text(post.excerpt), protected: false } } : {}),
      lang: post.lang,
      translations: translationsOf(post),
    };
  };

  /** WordPress's check of an Application Password sent over Basic auth. */
  function authProblem(header: string | undefined): [string, string] | undefined {
    const [user, pass] = Buffer.from((header ?? '').replace(/^Basic /, ''), 'base64').toString('utf8').split(/:(.*)/s);
    if (!header?.startsWith('Basic ')) return ['rest_not_logged_in', 'You are not currently logged in.'];
    if (user !== username) return ['invalid_username', 'Unknown username. Check again or try your email address.'];
    if (pass?.replaceAll(' ', '') !== password.replaceAll(' ', '')) return ['incorrect_password', 'The provided password is an invalid application password.'];
    return undefined;
  }

  function update(post: Post, body: Record<string, unknown>): string | undefined {
    for (const field of ['title', 'excerpt', 'content', 'status'] as const) {
      if (body[field] === undefined) continue;
      if (typeof body[field] !== 'string') return `${field} is not of type string.`;
      post[field] = body[field];
    }
    post.modified = clock += 1000;
    return undefined;
  }

  function handle({ method, url, text, authorization }: RestCmsCall, res: ServerResponse): void {
    const problem = authProblem(authorization);
    if (problem) return wpError(res, 401, ...problem);
    const route = url.pathname.replace(/^\/wp-json/, '');
    if (route === '/pll/v1/languages' && method === 'GET') return send(res, 200, LANGUAGES);
    const match = /^\/wp\/v2\/([a-z0-9_-]+)(?:\/(\d+))?$/.exec(route);
    if (!match || !(match[1]! in TYPES)) return wpError(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const type = match[1] as RestBase;
    const edit = url.searchParams.get('context') === 'edit';
    if (!match[2] && method === 'GET') {
      const lang = url.searchParams.get('lang');
      const statuses = url.searchParams.get('status') === 'any' ? null : (url.searchParams.get('status') ?? 'publish').split(',');
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      if (perPage > 100) return wpError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): per_page');
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = [...store.values()].filter((p) => p.type === type && (!lang || p.lang === lang) && (!statuses || statuses.includes(p.status))).sort((a, b) => a.id - b.id);
      const totalPages = Math.ceil(all.length / perPage);
      if (page > Math.max(totalPages, 1)) return wpError(res, 400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.');
      return send(res, 200, all.slice((page - 1) * perPage, page * perPage).map((p) => view(p, edit)), { 'x-wp-total': String(all.length), 'x-wp-totalpages': String(totalPages) });
    }
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!match[2] && method === 'POST') {
      const lang = typeof body.lang === 'string' ? body.lang : 'en';
      if (!LANGUAGES.some((l) => l.slug === lang)) return wpError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): lang');
      const linked = (body.translations ?? {}) as Record<string, number>;
      const group = Object.values(linked).map((id) => store.get(id)?.group).find((g) => g !== undefined);
      if (group !== undefined && [...store.values()].some((p) => p.group === group && p.lang === lang)) return wpError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): translations');
      const post = add({ type, status: 'draft', title: '', excerpt: '', content: '', lang, ...(group !== undefined ? { group } : {}) });
      const invalid = update(post, body);
      if (invalid) return wpError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${invalid}`);
      return send(res, 201, view(post, true));
    }
    const post = store.get(Number(match[2]));
    if (!post || post.type !== type) return wpError(res, 404, 'rest_post_invalid_id', 'Invalid post ID.');
    if (method === 'GET') return send(res, 200, view(post, edit));
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      const invalid = update(post, body);
      if (invalid) return wpError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${invalid}`);
      return send(res, 200, view(post, true));
    }
    return wpError(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  const server = await serveRestCms({
    tooManyRequests: (res, headers) => wpError(res, 429, 'too_many_requests', 'Too many requests. Please slow down.', headers),
    internalError: (res, error) => wpError(res, 500, 'internal_server_error', String(error)),
    handle,
  });

  const translationPost = (sourceId: number, lang: string) => {
    const source = store.get(sourceId)!;
    return [...store.values()].find((p) => p.group === source.group && p.lang === lang);
  };
  return {
    ...server,
    url: `${server.url}/wp-json`,
    username,
    password,
    posts: seeded,
    translation(sourceId, lang) {
      const post = translationPost(sourceId, lang);
      return post && { id: post.id, title: post.title, excerpt: post.excerpt, content: post.content, status: post.status };
    },
    setTitle(sourceId, lang, title) {
      const post = translationPost(sourceId, lang);
      if (post) update(post, { title });
      else add({ type: store.get(sourceId)!.type, status: 'publish', title, excerpt: '', content: '', lang, group: store.get(sourceId)!.group });
    },
    count: (lang) => [...store.values()].filter((p) => p.type === 'posts' && p.lang === lang).length,
  };
}

/** WordPress sends no change notifications, so the fixture has no `webhook`. */
export async function wordpressFixture(): Promise<RemoteFixture> {
  const mock = await startWordPressMock();
  const post = (id: string) => {
    const postId = mock.posts.get(id);
    if (postId === undefined) throw new Error(`No WordPress post for seed '${id}'`);
    return postId;
  };
  return {
    connector: 'wordpress',
    settings: { api_url: mock.url, post_types: ['posts'] },
    secrets: { username: mock.username, application_password: mock.password },
    badSecrets: { username: mock.username, application_password: 'wxyz wxyz wxyz wxyz wxyz wxyz' },
    async setSource(id, text) {
      mock.setTitle(post(id), 'en', text);
    },
    translation: async (id, locale) => mock.translation(post(id), locale)?.title || undefined,
    async editTranslation(id, locale, text) {
      mock.setTitle(post(id), locale, text);
    },
    sourceCount: async () => mock.count('en'),
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
