/**
 * A local Ghost Admin API holding posts, pages and tags in memory, with the multilingual convention of the Ghost
 * connector: source posts tagged `#lang-en`, translations tagged `#lang-de`/`#lang-fr` and `#translation-of-<id>`.
 * The kit's SEED strings are the titles of four English posts (each with an HTML body).
 *
 * Shapes from https://docs.ghost.org/admin-api (base `/ghost/api/admin/`; `Authorization: Ghost <jwt>`, the JWT HS256
 * with `kid` the key id, `aud: '/admin/'`, `exp` at most 5 minutes after `iat`, signed with the hex-decoded secret;
 * `Accept-Version`; the `{ posts: [...], meta: { pagination: { page, limit, pages, total, next, prev } } }` envelope;
 * `filter` in NQL (`tag:<slug>`, `+` for and), `formats`, `include`, `limit`, `page`, `order`; `PUT /posts/{id}/`
 * with `updated_at`, `?source=html` to write HTML; `POST /posts/` → 201; tags by name created on the fly, a `#` name
 * an internal tag with slug `hash-…`), https://docs.ghost.org/webhooks (the `{ post: { current, previous } }` payload),
 * TryGhost/Ghost core/server/data/schema/schema.js (title ≤ 255, custom_excerpt ≤ 300, meta_title ≤ 300,
 * meta_description ≤ 500), Ghost's API-key auth middleware (401 `UnauthorizedError` with codes INVALID_AUTH_HEADER,
 * UNKNOWN_ADMIN_API_KEY, INVALID_JWT and "Invalid token: …" messages), its collision check (409 `UpdateCollisionError`,
 * code UPDATE_COLLISION, "Saving failed! Someone else is editing this post.") and its webhook trigger (`X-Ghost-Signature:
 * sha256=<hex HMAC-SHA256 of body + timestamp>, t=<epoch ms>`), and the `{ errors: [{ message, context, type, details,
 * property, help, code, id, ghostErrorCode }] }` error body of @tryghost/errors.
 *
 * Guessed: the 429 (Ghost core rate-limits only some endpoints, and Ghost(Pro)'s limits in front of the Admin API are
 * not documented): a `TooManyRequestsError` body with Retry-After, 1 s here so the test waits it out quickly. The
 * exact 422 `context` wording of a length validation, and that a post without `updated_at` is refused with 422 (Ghost
 * documents `updated_at` as required for updates). Only the NQL this connector sends is understood (`tag:` terms
 * joined with `+`, `visibility:internal`); anything else is Ghost's 400 "Error parsing filter".
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface GhostRequest extends MockRequest {
  authorization: string | undefined;
  acceptVersion: string | undefined;
}

type Kind = 'posts' | 'pages';
interface Tag {
  id: string;
  name: string;
  slug: string;
  visibility: 'public' | 'internal';
}
interface Post {
  id: string;
  uuid: string;
  type: Kind;
  title: string;
  custom_excerpt: string | null;
  meta_title: string | null;
  meta_description: string | null;
  html: string | null;
  status: 'draft' | 'published';
  created_at: string;
  updated_at: string;
  tags: string[];
}

export interface GhostMockOptions {
  /** Extra English posts (title, excerpt, meta title and description, body), for pagination. */
  extraPosts?: number;
}

export interface GhostMock extends RecordingServer<GhostRequest> {
  /** The custom integration's Admin API key, `<id>:<secret>`. */
  apiKey: string;
  /** The source post id of each SEED id. */
  posts: Map<string, string>;
  /** The next `count` requests answer 429. */
  rateLimitNext(count?: number): void;
  /** The next request's token is refused as expired (as after a rate-limit wait longer than its 5 minutes). */
  expireNextToken(): void;
  /** Runs `action` (a person saving in Ghost) just before the next PUT is handled. */
  beforeNextPut(action: () => void): void;
  /** A source post's translation in a language (`de`), or undefined. */
  translation(sourceId: string, lang: string): Post | undefined;
  /** A person edits a field in Ghost: of the source post (lang 'en') or of its translation, made (published) if missing. */
  edit(sourceId: string, lang: string, field: 'title' | 'custom_excerpt' | 'meta_title' | 'meta_description' | 'html', text: string): void;
  /** A post by id. */
  post(id: string): Post | undefined;
  /** Deletes a post, as a person in Ghost would. */
  remove(id: string): void;
  /** How many posts carry a language tag (translations included) in `lang`. */
  count(lang: string): number;
  /** The `post.edited` notification Ghost sends about a post, signed with `secret` at `at` (epoch ms). */
  notification(secret: string, postId: string, options?: { at?: number; event?: 'post' | 'page' | 'tag' }): { headers: Record<string, string>; body: string };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const LIMITS = { title: 255, custom_excerpt: 300, meta_title: 300, meta_description: 500 } as const;

/** Ghost's error body (@tryghost/errors serialised by the API's error handler). */
function ghostError(res: ServerResponse, status: number, type: string, message: string, extra: { context?: string | null; code?: string | null; property?: string | null } = {}, headers: Record<string, string> = {}) {
  sendJson(res, status, { errors: [{ message, context: extra.context ?? null, type, details: null, property: extra.property ?? null, help: null, code: extra.code ?? null, id: hex(16).replace(/(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'), ghostErrorCode: null }] }, headers);
}

const slugOf = (name: string) => name.replace(/^#/, 'hash-').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/-$/, '');

export async function startGhostMock(options: GhostMockOptions = {}): Promise<GhostMock> {
  const keyId = hex(12);
  const keySecret = hex(32);
  const tags = new Map<string, Tag>();
  const store = new Map<string, Post>();
  const seeded = new Map<string, string>();
  const rateLimit = new Armed<true>();
  const expired = new Armed<true>();
  const beforePut = new Armed<() => void>();
  let clock = Date.parse('2026-11-01T00:00:00Z');
  const tick = () => new Date((clock += 1000)).toISOString();

  function tagNamed(name: string): Tag {
    const found = [...tags.values()].find((t) => t.name.toLowerCase() === name.toLowerCase() || t.slug === slugOf(name));
    if (found) return found;
    const tag: Tag = { id: hex(12), name, slug: slugOf(name), visibility: name.startsWith('#') ? 'internal' : 'public' };
    tags.set(tag.id, tag);
    return tag;
  }
  ['#lang-en', '#lang-de', '#lang-fr', 'News'].forEach(tagNamed);

  function add(fields: Partial<Post> & { type: Kind; title: string; tagNames: string[] }): Post {
    const at = tick();
    const { tagNames, ...rest } = fields;
    const post: Post = { id: hex(12), uuid: randomUUID(), custom_excerpt: null, meta_title: null, meta_description: null, html: null, status: 'published', created_at: at, updated_at: at, ...rest, tags: tagNames.map((n) => tagNamed(n).id) };
    store.set(post.id, post);
    return post;
  }
  SEED.forEach(({ id, source }) => seeded.set(id, add({ type: 'posts', title: source, html: `<p>The ${id} message.</p>`, tagNames: ['#lang-en', 'News'] }).id));
  for (let n = 1; n <= (options.extraPosts ?? 0); n++) {
    add({ type: 'posts', title: `Post ${n}`, custom_excerpt: `Excerpt ${n}`, meta_title: `Meta title ${n}`, meta_description: `Meta description ${n}`, html: `<p>Body of <strong>post ${n}</strong></p>`, tagNames: ['#lang-en'] });
  }
  add({ type: 'pages', title: 'About us', html: '<p>About</p>', tagNames: ['#lang-en'] });
  // Neither language tag: never listed.
  add({ type: 'posts', title: 'Untagged draft', status: 'draft', html: '<p>Draft</p>', tagNames: [] });

  const tagView = (id: string) => {
    const tag = tags.get(id)!;
    return { id: tag.id, name: tag.name, slug: tag.slug, description: null, feature_image: null, visibility: tag.visibility, url: `http://ghost.test/404/` };
  };
  const view = (post: Post, formats: string[]) => ({
    id: post.id,
    uuid: post.uuid,
    title: post.title,
    slug: slugOf(post.title) || post.id,
    ...(formats.includes('lexical') ? { lexical: JSON.stringify({ root: { children: [], type: 'root', version: 1 } }) } : {}),
    ...(formats.includes('html') ? { html: post.html } : {}),
    comment_id: post.id,
    feature_image: null,
    featured: false,
    status: post.status,
    visibility: 'public',
    created_at: post.created_at,
    updated_at: post.updated_at,
    published_at: post.status === 'published' ? post.created_at : null,
    custom_excerpt: post.custom_excerpt,
    tags: post.tags.map(tagView),
    primary_tag: post.tags[0] ? tagView(post.tags[0]) : null,
    meta_title: post.meta_title,
    meta_description: post.meta_description,
    url: `http://ghost.test/p/${post.uuid}/`,
  });

  /** Ghost's admin API key check of `Authorization: Ghost <jwt>` (auth/api-key/admin.js). */
  function authProblem(header: string | undefined): [string, string, string] | undefined {
    if (!header) return ['NoPermissionError', 'Authorization failed', 'Unable to determine the authenticated user or integration. Check that cookies are being passed through if using session authentication.'];
    const [scheme, token] = header.split(' ');
    if (!/^Ghost$/i.test(scheme ?? '') || !token) return ['UnauthorizedError', 'Authorization header format is "Authorization: Ghost [token]"', 'INVALID_AUTH_HEADER'];
    const [head, payload, signature] = token.split('.');
    let decoded: { kid?: string; alg?: string } = {};
    let claims: { iat?: number; exp?: number; aud?: string } = {};
    try {
      decoded = JSON.parse(Buffer.from(head!, 'base64url').toString('utf8')) as typeof decoded;
      claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return ['BadRequestError', 'Invalid JWT', 'INVALID_JWT'];
    }
    if (decoded.kid !== keyId) return ['UnauthorizedError', 'Unknown Admin API Key', 'UNKNOWN_ADMIN_API_KEY'];
    const expected = createHmac('sha256', Buffer.from(keySecret, 'hex')).update(`${head}.${payload}`).digest('base64url');
    if (decoded.alg !== 'HS256' || signature !== expected) return ['UnauthorizedError', 'Invalid token: invalid signature', 'INVALID_JWT'];
    if (claims.aud !== '/admin/') return ['UnauthorizedError', 'Invalid token: jwt audience invalid. expected: /admin/', 'INVALID_JWT'];
    const now = Math.floor(Date.now() / 1000);
    if (!claims.exp || claims.exp < now) return ['UnauthorizedError', 'Invalid token: jwt expired', 'INVALID_JWT'];
    if (!claims.iat || claims.exp - claims.iat > 300) return ['UnauthorizedError', 'Invalid token: maxAge exceeded', 'INVALID_JWT'];
    return undefined;
  }

  /** The NQL this connector sends: `tag:<slug>` terms joined by `+`, or `visibility:internal`. */
  function matcher(filter: string | null): ((post: Post) => boolean) | undefined {
    if (!filter) return () => true;
    const terms = filter.split('+');
    if (!terms.every((t) => /^tag:[a-z0-9-]+$/.test(t))) return undefined;
    const slugs = terms.map((t) => t.slice(4));
    return (post) => slugs.every((slug) => post.tags.some((id) => tags.get(id)!.slug === slug));
  }

  function page<T>(res: ServerResponse, resource: string, all: T[], url: URL, render: (item: T) => unknown) {
    const limitParam = url.searchParams.get('limit') ?? '15';
    const limit = limitParam === 'all' ? Math.max(all.length, 1) : Number(limitParam);
    if (!Number.isInteger(limit) || limit < 1) return ghostError(res, 422, 'ValidationError', 'Validation error, cannot read ' + resource + '.', { context: 'Validation (isInt) failed for limit', property: 'limit' });
    const pages = Math.max(Math.ceil(all.length / limit), 1);
    const current = Number(url.searchParams.get('page') ?? '1');
    return sendJson(res, 200, {
      [resource]: all.slice((current - 1) * limit, current * limit).map(render),
      meta: { pagination: { page: current, limit, pages, total: all.length, next: current < pages ? current + 1 : null, prev: current > 1 ? current - 1 : null } },
    });
  }

  function validate(res: ServerResponse, kind: Kind, body: Record<string, unknown>, action: string): boolean {
    for (const [field, max] of Object.entries(LIMITS)) {
      const value = body[field];
      if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > max)) {
        ghostError(res, 422, 'ValidationError', `Validation error, cannot ${action} ${kind === 'posts' ? 'post' : 'page'}.`, { context: `Value in [${kind}.${field}] exceeds maximum length of ${max} characters.`, property: field });
        return false;
      }
    }
    return true;
  }

  function apply(post: Post, body: Record<string, unknown>, html: boolean): void {
    for (const field of ['title', 'custom_excerpt', 'meta_title', 'meta_description'] as const) {
      if (body[field] !== undefined) (post as unknown as Record<string, unknown>)[field] = body[field];
    }
    // Without ?source=html Ghost ignores `html` (it stores Lexical); with it, the HTML is converted.
    if (html && typeof body.html === 'string') post.html = body.html;
    if (body.status === 'draft' || body.status === 'published') post.status = body.status;
    if (Array.isArray(body.tags)) post.tags = (body.tags as { name?: string; slug?: string }[]).map((t) => tagNamed(t.name ?? t.slug ?? '').id);
    post.updated_at = tick();
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, parsed: unknown): void {
    if (rateLimit.take()) return ghostError(res, 429, 'TooManyRequestsError', 'Too many requests. Please wait before trying again.', {}, { 'retry-after': '1' });
    const route = /^\/ghost\/api\/admin\/(posts|pages|tags)\/(?:([0-9a-f]{24})\/)?$/.exec(url.pathname);
    if (!route) return ghostError(res, 404, 'NotFoundError', 'Resource not found');
    if (expired.take()) return ghostError(res, 401, 'UnauthorizedError', 'Invalid token: jwt expired', { code: 'INVALID_JWT' });
    const problem = authProblem(req.headers.authorization);
    if (problem) return ghostError(res, problem[0] === 'NoPermissionError' ? 403 : 401, problem[0], problem[1], { code: problem[0] === 'NoPermissionError' ? null : problem[2], context: problem[0] === 'NoPermissionError' ? problem[2] : null });
    const resource = route[1] as Kind | 'tags';
    const id = route[2];
    const method = req.method ?? 'GET';
    const formats = (url.searchParams.get('formats') ?? 'lexical').split(',');
    if (resource === 'tags') {
      if (method !== 'GET' || id) return ghostError(res, 404, 'NotFoundError', 'Resource not found');
      const filter = url.searchParams.get('filter');
      if (filter && filter !== 'visibility:internal') return ghostError(res, 400, 'BadRequestError', 'Error parsing filter', { context: `The mock understands only visibility:internal, not ${filter}` });
      const all = [...tags.values()].filter((t) => !filter || t.visibility === 'internal');
      return page(res, 'tags', all, url, (t) => tagView(t.id));
    }
    const kind = resource;
    const noun = kind === 'posts' ? 'Post' : 'Page';
    if (!id && method === 'GET') {
      const match = matcher(url.searchParams.get('filter'));
      if (!match) return ghostError(res, 400, 'BadRequestError', 'Error parsing filter', { context: `Query Error: unexpected character in filter at char 1` });
      const all = [...store.values()].filter((p) => p.type === kind && match(p)).sort((a, b) => a.created_at.localeCompare(b.created_at));
      return page(res, kind, all, url, (p) => view(p, formats));
    }
    const body = ((parsed as Record<string, unknown[]> | undefined)?.[kind]?.[0] ?? {}) as Record<string, unknown>;
    const html = url.searchParams.get('source') === 'html';
    if (!id && method === 'POST') {
      if (!validate(res, kind, body, 'add')) return;
      const post = add({ type: kind, title: '', status: 'draft', tagNames: [] });
      apply(post, { title: '(Untitled)', ...body }, html);
      return sendJson(res, 201, { [kind]: [view(post, formats)] });
    }
    const post = id ? store.get(id) : undefined;
    if (!post || post.type !== kind) return ghostError(res, 404, 'NotFoundError', `${noun} not found.`);
    if (method === 'GET') return sendJson(res, 200, { [kind]: [view(post, formats)] });
    if (method === 'PUT') {
      beforePut.take()?.();
      if (typeof body.updated_at !== 'string') return ghostError(res, 422, 'ValidationError', `Validation error, cannot edit ${noun.toLowerCase()}.`, { context: `Value in [${kind}.updated_at] cannot be blank.`, property: 'updated_at' });
      if (body.updated_at !== post.updated_at) return ghostError(res, 409, 'UpdateCollisionError', 'Saving failed! Someone else is editing this post.', { code: 'UPDATE_COLLISION' });
      if (!validate(res, kind, body, 'edit')) return;
      apply(post, body, html);
      return sendJson(res, 200, { [kind]: [view(post, formats)] });
    }
    return ghostError(res, 404, 'NotFoundError', 'Resource not found');
  }

  const server = await serveRecording<{ authorization: string | undefined; acceptVersion: string | undefined }>(handle, {
    extra: (req) => ({ authorization: req.headers.authorization, acceptVersion: req.headers['accept-version'] as string | undefined }),
    internalError: (res, error) => ghostError(res, 500, 'InternalServerError', 'An unexpected error occurred, please try again.', { context: String(error) }),
  });

  const langTag = (lang: string) => tagNamed(`#lang-${lang}`).id;
  const translationOf = (sourceId: string, lang: string) =>
    [...store.values()]
      .filter((p) => p.tags.includes(langTag(lang)) && p.tags.includes(tagNamed(`#translation-of-${sourceId}`).id))
      .sort((a, b) => a.created_at.localeCompare(b.created_at))[0];

  return {
    ...server,
    apiKey: `${keyId}:${keySecret}`,
    posts: seeded,
    rateLimitNext: (count = 1) => rateLimit.arm(true, count),
    expireNextToken: () => expired.arm(true),
    beforeNextPut: (action) => beforePut.arm(action),
    translation: translationOf,
    edit(sourceId, lang, field, text) {
      const source = store.get(sourceId)!;
      if (lang === 'en') return apply(source, { [field]: text }, true);
      const existing = translationOf(sourceId, lang);
      if (existing) return apply(existing, { [field]: text }, true);
      add({ type: source.type, title: source.title, [field]: text, tagNames: [`#lang-${lang}`, `#translation-of-${sourceId}`] });
    },
    post: (id) => store.get(id),
    remove: (id) => void store.delete(id),
    count: (lang) => [...store.values()].filter((p) => p.type === 'posts' && p.tags.includes(langTag(lang))).length,
    notification(secret, postId, notice = {}) {
      const post = store.get(postId)!;
      const current = view(post, ['html']);
      const event = notice.event ?? 'post';
      const payload = event === 'tag' ? { tag: { current: tagView(post.tags[0]!), previous: {} } } : { [event]: { current, previous: { title: post.title, updated_at: post.updated_at } } };
      const body = JSON.stringify(payload);
      const at = String(notice.at ?? Date.now());
      return { headers: { 'content-type': 'application/json', 'user-agent': 'Ghost/5.0 (https://github.com/TryGhost/Ghost)', 'x-ghost-signature': `sha256=${createHmac('sha256', secret).update(`${body}${at}`).digest('hex')}, t=${at}` }, body };
    },
  };
}

export async function ghostFixture(): Promise<RemoteFixture> {
  const mock = await startGhostMock();
  const post = (id: string) => {
    const postId = mock.posts.get(id);
    if (postId === undefined) throw new Error(`No Ghost post for seed '${id}'`);
    return postId;
  };
  return cmsFixture({
    connector: 'ghost',
    settings: { api_url: mock.url },
    secrets: { admin_api_key: mock.apiKey },
    badSecrets: { admin_api_key: `${mock.apiKey.split(':')[0]}:${'0'.repeat(64)}` },
    edit: (id, locale, text) => mock.edit(post(id), locale, 'title', text),
    held: (id, locale) => mock.translation(post(id), locale)?.title,
    sourceCount: () => mock.count('en'),
    webhook: (id, secret) => mock.notification(secret, post(id)),
    server: mock,
  });
}
