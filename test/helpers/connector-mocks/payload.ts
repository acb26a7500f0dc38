/**
 * A local Payload CMS 3 REST API with localization (`locales: ['en', 'de', 'fr']`, `defaultLocale: 'en'`,
 * `fallback: true`): the collection `posts` (`title`: text, localized, `maxLength: 120`; `meta`: a group with
 * `description`: textarea, localized; `slug`: text, not localized), the global `header` (`tagline`: text, localized),
 * and the auth collection `users` with `useAPIKey`. The kit's SEED strings are the posts' `title` in en.
 *
 * Shapes from the Payload documentation: https://payloadcms.com/docs/rest-api/overview (`GET /api/{collection}`,
 * `GET|PATCH /api/{collection}/{id}`, `GET|POST /api/globals/{slug}`, `depth`, `locale`, `fallback-locale`; PATCH
 * answers `{ doc, message: 'Updated successfully.' }`), https://payloadcms.com/docs/queries/pagination (`{ docs,
 * totalDocs, limit, totalPages, page, pagingCounter, hasPrevPage, hasNextPage, prevPage, nextPage }`),
 * https://payloadcms.com/docs/configuration/localization (`locale=all` or `*` gives each localized field as
 * `{ <code>: value }`; `fallback-locale=none`), https://payloadcms.com/docs/authentication/api-keys (`Authorization:
 * users API-Key <key>`), https://payloadcms.com/docs/authentication/jwt (`JWT <token>`), and payloadcms/payload
 * `sanitizeLocales` (an unknown `locale` is read and written as the default locale when fallback is on),
 * `auth/strategies/apiKey.ts` (an unknown key is no user, not a refusal), the Forbidden error (403, "You are not
 * allowed to perform this action."), NotFound (404, "Not Found") and ValidationError (400, "The following field is
 * invalid: …" with `data.errors[{ message, path }]`), all in `{ errors: [{ message, … }] }`.
 *
 * Guessed, marked so: the exact body of `GET /api/users/me` for no user (`{ user: null, message: 'Account' }`); the
 * body of `POST /api/globals/{slug}` (`{ message, result }`); the 404 of an unknown collection route
 * (`{ message: 'Route not found "…"' }`); the 429 (Payload 3 has no rate limiter of its own: a proxy's, with
 * Retry-After and Payload's error envelope); the 500's message ("Something went wrong."); that a partial group in a
 * PATCH is merged with what the document holds (as Payload's beforeValidate merges the original document's siblings).
 * Payload has no webhooks: the notification is the set-up guide's afterChange hook, signed with X-Parlance-Signature.
 */
import type { ServerResponse } from 'node:http';
import { signParlance } from '../../../server/integrations/connectors/http.js';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { cmsFixture } from './cms-mock.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock } from './rest-cms-mock.js';

export const PAYLOAD_COLLECTION = 'posts';
export const PAYLOAD_GLOBAL = 'header';
export const PAYLOAD_LOCALES = ['en', 'de', 'fr'] as const;
const DEFAULT_LOCALE = 'en';
const TITLE_MAX = 120;

/** A localized value as Payload stores it: one entry per locale that has one. */
type Localized = Record<string, string | null>;
interface Post {
  id: number;
  title: Localized;
  meta: { description: Localized };
  slug: string;
  createdAt: string;
  updatedAt: string;
}
interface Header {
  id: number;
  globalType: string;
  tagline: Localized;
  createdAt: string;
  updatedAt: string;
}

export interface PayloadMockOptions {
  /** Posts beyond the seed (`Post n`), to make the listing run over several pages. */
  extraPosts?: number;
  /** `access.read: () => true` on posts: anyone reads, so only `me` and writes show an unknown key. */
  publicRead?: boolean;
}

export interface PayloadMock extends RestCmsMock {
  apiKey: string;
  jwt: string;
  /** The post id of each seed id. */
  posts: Map<string, number>;
  /** A post's field (`title`, `meta.description`) in a locale as stored (no fallback); undefined for none. */
  value(id: number, field: 'title' | 'meta.description', locale: string): string | undefined;
  set(id: number, field: 'title' | 'meta.description', locale: string, text: string): void;
  deletePost(id: number): void;
  tagline(locale: string): string | undefined;
  setTagline(locale: string, text: string): void;
  updatedAt(id: number): string;
  count(locale: string): number;
}

const payloadError = (res: ServerResponse, status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => sendJson(res, status, { errors: [{ message, ...extra }] }, headers);

/** Payload's `sanitizeLocales`: `*` is all, an unknown locale is the default one (fallback on). */
function sanitizeLocale(locale: string | null): string {
  if (locale === '*' || locale === 'all') return 'all';
  return locale && (PAYLOAD_LOCALES as readonly string[]).includes(locale) ? locale : DEFAULT_LOCALE;
}

let clock = Date.parse('2026-01-01T00:00:00.000Z');
/** Strictly increasing timestamps, as updatedAt moves with every save. */
const stamp = () => new Date((clock = Math.max(clock + 1, Date.now()))).toISOString();

export async function startPayloadMock(options: PayloadMockOptions = {}): Promise<PayloadMock> {
  const apiKey = `pk_${Math.random().toString(36).slice(2, 14)}${Math.random().toString(36).slice(2, 14)}`;
  const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ id: 1, collection: 'users', email: 'parlance@example.com' })).toString('base64url')}.c2ln`;
  const user = { id: 1, email: 'parlance@example.com', apiKey: null, enableAPIKey: true, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
  const posts = new Map<string, number>();
  const store = new Map<number, Post>();
  const header: Header = { id: 1, globalType: PAYLOAD_GLOBAL, tagline: { en: 'Fresh goods every day' }, createdAt: stamp(), updatedAt: stamp() };
  let nextId = 1;
  const add = (title: string) => {
    const now = stamp();
    const id = nextId++;
    store.set(id, { id, title: { en: title }, meta: { description: { en: `About: ${title}` } }, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), createdAt: now, updatedAt: now });
    return id;
  };
  for (const { id, source } of SEED) posts.set(id, add(source));
  for (let n = 0; n < (options.extraPosts ?? 0); n++) add(`Post ${n + 1}`);

  const localizedOf = (post: Post, field: 'title' | 'meta.description') => (field === 'title' ? post.title : post.meta.description);
  const pick = (value: Localized, locale: string, fallback: boolean) => value[locale] ?? (fallback ? (value[DEFAULT_LOCALE] ?? null) : null);
  const view = (post: Post, locale: string, fallback: boolean) =>
    locale === 'all'
      ? { id: post.id, title: { ...post.title }, meta: { description: { ...post.meta.description } }, slug: post.slug, createdAt: post.createdAt, updatedAt: post.updatedAt }
      : { id: post.id, title: pick(post.title, locale, fallback), meta: { description: pick(post.meta.description, locale, fallback) }, slug: post.slug, createdAt: post.createdAt, updatedAt: post.updatedAt };
  const headerView = (locale: string, fallback: boolean) => ({ id: header.id, globalType: header.globalType, tagline: locale === 'all' ? { ...header.tagline } : pick(header.tagline, locale, fallback), createdAt: header.createdAt, updatedAt: header.updatedAt });

  function authenticated(authorization: string | undefined): boolean {
    return authorization === `users API-Key ${apiKey}` || authorization === `JWT ${jwt}` || authorization === `Bearer ${jwt}`;
  }

  /** Payload's ValidationError for a text over its maxLength, else undefined. */
  function invalid(res: ServerResponse, field: string, text: unknown, max?: number): boolean {
    if (text !== null && typeof text !== 'string') {
      payloadError(res, 400, `The following field is invalid: ${field}`, { name: 'ValidationError', data: { collection: PAYLOAD_COLLECTION, errors: [{ label: field, message: 'This field is not a valid text.', path: field }] } });
      return true;
    }
    if (max && typeof text === 'string' && text.length > max) {
      payloadError(res, 400, `The following field is invalid: ${field}`, { name: 'ValidationError', data: { collection: PAYLOAD_COLLECTION, errors: [{ label: field, message: `This value must be shorter than the max length of ${max} characters.`, path: field }] } });
      return true;
    }
    return false;
  }

  function handle({ method, url, text, authorization }: RestCmsCall, res: ServerResponse): void {
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'api') return sendJson(res, 404, { message: `Route not found "${url.pathname}"` });
    const locale = sanitizeLocale(url.searchParams.get('locale'));
    const fallback = !['none', 'null', 'false'].includes(url.searchParams.get('fallback-locale') ?? '');
    const known = authenticated(authorization);
    if (parts[1] === 'users' && parts[2] === 'me' && method === 'GET') {
      return sendJson(res, 200, known ? { user: { ...user, collection: 'users', _strategy: authorization?.startsWith('JWT') ? 'local-jwt' : 'api-key' }, collection: 'users', strategy: authorization?.startsWith('JWT') ? 'local-jwt' : 'api-key', message: 'Account' } : { user: null, message: 'Account' });
    }
    if (parts[1] === 'globals' && parts[2] === PAYLOAD_GLOBAL && parts.length === 3) {
      if (!known) return payloadError(res, 403, 'You are not allowed to perform this action.');
      if (method === 'GET') return sendJson(res, 200, headerView(locale, fallback));
      if (method === 'POST') {
        if (locale === 'all') return payloadError(res, 400, 'Cannot update with locale all.');
        const data = JSON.parse(text || '{}') as Record<string, unknown>;
        if ('tagline' in data) {
          if (invalid(res, 'tagline', data.tagline)) return;
          header.tagline[locale] = data.tagline as string | null;
          header.updatedAt = stamp();
        }
        return sendJson(res, 200, { message: 'Updated successfully.', result: headerView(locale, fallback) });
      }
      return payloadError(res, 405, 'Method Not Allowed');
    }
    if (parts[1] !== PAYLOAD_COLLECTION) return sendJson(res, 404, { message: `Route not found "${url.pathname}"` });
    if (parts.length === 2 && method === 'GET') {
      if (!known && !options.publicRead) return payloadError(res, 403, 'You are not allowed to perform this action.');
      const limit = Math.max(1, Number(url.searchParams.get('limit') ?? 10));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const all = [...store.values()].sort((a, b) => (url.searchParams.get('sort') === 'id' ? a.id - b.id : b.createdAt.localeCompare(a.createdAt)));
      const totalPages = Math.max(1, Math.ceil(all.length / limit));
      return sendJson(res, 200, {
        docs: all.slice((page - 1) * limit, page * limit).map((post) => view(post, locale, fallback)),
        totalDocs: all.length,
        limit,
        totalPages,
        page,
        pagingCounter: (page - 1) * limit + 1,
        hasPrevPage: page > 1,
        hasNextPage: page < totalPages,
        prevPage: page > 1 ? page - 1 : null,
        nextPage: page < totalPages ? page + 1 : null,
      });
    }
    if (parts.length === 3) {
      const post = store.get(Number(parts[2]));
      if (method === 'GET') {
        if (!known && !options.publicRead) return payloadError(res, 403, 'You are not allowed to perform this action.');
        return post ? sendJson(res, 200, view(post, locale, fallback)) : payloadError(res, 404, 'Not Found');
      }
      if (method === 'PATCH') {
        if (!known) return payloadError(res, 403, 'You are not allowed to perform this action.');
        if (!post) return payloadError(res, 404, 'Not Found');
        if (locale === 'all') return payloadError(res, 400, 'Cannot update with locale all.');
        const data = JSON.parse(text || '{}') as { title?: unknown; meta?: { description?: unknown }; slug?: unknown };
        if ('title' in data && invalid(res, 'title', data.title, TITLE_MAX)) return;
        const description = data.meta && typeof data.meta === 'object' ? data.meta.description : undefined;
        if (description !== undefined && invalid(res, 'meta.description', description)) return;
        // Unknown fields are dropped, as Payload does; a group's missing siblings keep what the document holds.
        if (typeof data.title === 'string' || data.title === null) post.title[locale] = data.title;
        if (description !== undefined) post.meta.description[locale] = description as string | null;
        if (typeof data.slug === 'string') post.slug = data.slug;
        post.updatedAt = stamp();
        return sendJson(res, 200, { doc: view(post, locale, fallback), message: 'Updated successfully.' });
      }
    }
    return payloadError(res, 405, 'Method Not Allowed');
  }

  const server = await serveRestCms({
    tooManyRequests: (res, headers) => payloadError(res, 429, 'Too many requests, please try again later.', {}, headers),
    internalError: (res) => payloadError(res, 500, 'Something went wrong.'),
    handle,
  });
  const post = (id: number) => {
    const found = store.get(id);
    if (!found) throw new Error(`No Payload post ${id}`);
    return found;
  };
  return {
    ...server,
    apiKey,
    jwt,
    posts,
    value: (id, field, locale) => localizedOf(post(id), field)[locale] ?? undefined,
    set(id, field, locale, value) {
      const found = post(id);
      localizedOf(found, field)[locale] = value;
      found.updatedAt = stamp();
    },
    deletePost: (id) => void store.delete(id),
    tagline: (locale) => header.tagline[locale] ?? undefined,
    setTagline(locale, value) {
      header.tagline[locale] = value;
      header.updatedAt = stamp();
    },
    updatedAt: (id) => post(id).updatedAt,
    count: (locale) => [...store.values()].filter((p) => Boolean(p.title[locale])).length,
  };
}

/** What the set-up guide's afterChange hook POSTs for a changed post, signed with `secret` at `now` (unix seconds). */
export function payloadWebhook(secret: string, change: { id: number; collection?: string; updatedAt?: string }, now = Math.floor(Date.now() / 1000)): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ collection: change.collection ?? PAYLOAD_COLLECTION, id: change.id, operation: 'update', updatedAt: change.updatedAt ?? new Date().toISOString() });
  return { headers: { 'content-type': 'application/json', 'x-parlance-signature': signParlance(secret, body, now) }, body };
}

export async function payloadFixture(): Promise<RemoteFixture> {
  const mock = await startPayloadMock();
  const id = (seed: string) => {
    const found = mock.posts.get(seed);
    if (found === undefined) throw new Error(`No Payload post for seed '${seed}'`);
    return found;
  };
  return cmsFixture({
    connector: 'payload',
    settings: { api_url: mock.url, collections: { [PAYLOAD_COLLECTION]: ['title'] }, payload_locales: [...PAYLOAD_LOCALES] },
    secrets: { api_key: mock.apiKey },
    badSecrets: { api_key: 'not-a-payload-api-key' },
    edit: (seed, locale, text) => mock.set(id(seed), 'title', locale, text),
    held: (seed, locale) => mock.value(id(seed), 'title', locale),
    sourceCount: () => mock.count('en'),
    webhook: (seed, secret) => payloadWebhook(secret, { id: id(seed), updatedAt: mock.updatedAt(id(seed)) }),
    server: mock,
  });
}
