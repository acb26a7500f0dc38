/**
 * A local HubSpot CMS v3 API holding blog posts (`/cms/v3/blogs/posts`) and website pages
 * (`/cms/v3/pages/site-pages`) in multi-language groups: a primary in `en` (no `translatedFromId`) and its
 * variations (`translatedFromId` = the primary's id, `language` such as `de`, `fr`). Every object has its live fields
 * and a draft (`GET/PATCH /{id}/draft`); a PATCH changes the draft only, nothing is published. The kit's SEED strings
 * are the `name` of `en` blog posts.
 *
 * Shapes from https://developers.hubspot.com/docs/api-reference/cms-pages-v3 (Page fields `id`, `name`,
 * `htmlTitle`, `metaDescription`, `language`, `translatedFromId`, `slug`, `url`, `state`, `updated`;
 * `POST …/multi-language/create-language-variation` with `{ id, language }` answering the new Page;
 * `PATCH /{objectId}/draft`), the blog posts v3 reference (the same under `/cms/v3/blogs/posts`, plus `postBody`),
 * the HubSpot/hubspot-api-ruby generated models (collection `{ total, results, paging: { next: { after, link } } }`,
 * query `limit`, `after`, `archived`), https://developers.hubspot.com/docs/api/usage-details (429 with
 * `{ status: 'error', message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT', correlationId,
 * policyName }` and `X-HubSpot-RateLimit-*` headers), HubSpot's error envelope `{ status: 'error', message,
 * correlationId, category }` (401 INVALID_AUTHENTICATION, 404 OBJECT_NOT_FOUND), and
 * https://developers.hubspot.com/changelog/introducing-version-3-of-webhook-signatures (X-HubSpot-Signature-v3 over
 * method + URI + body + X-HubSpot-Request-Timestamp, in milliseconds).
 *
 * Guessed: the `after` cursor's content (opaque here: the next offset in base64); that a new variation copies the
 * primary's text into both its live fields and its draft; the 400 VALIDATION_ERROR message for a second variation in
 * the same language; the Retry-After value on HubSpot's 429 (HubSpot documents the rate-limit headers, the seconds
 * here are the test's); the webhook body (HubSpot's app webhooks are CRM-event arrays `[{ eventId, subscriptionId,
 * portalId, occurredAt, subscriptionType, objectId, … }]`; no CMS event type is documented, so `subscriptionType` here
 * is a guess).
 */
import type { ServerResponse } from 'node:http';
import { hubspotSignature } from '../../../server/integrations/connectors/hubspot.js';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock } from './rest-cms-mock.js';

export const HUBSPOT_PORTAL = 4_815_162;
const FIELDS = ['name', 'htmlTitle', 'metaDescription', 'postBody'] as const;
type Field = (typeof FIELDS)[number];
type Texts = Partial<Record<Field, string>>;
type Kind = 'posts' | 'pages';

interface StoredObject {
  id: string;
  kind: Kind;
  language: string;
  translatedFromId: string | null;
  slug: string;
  live: Texts;
  draft: Texts;
  updated: string;
  archived: boolean;
}

export interface HubSpotMockOptions {
  /** Website pages besides the posts (`en`, name/htmlTitle/metaDescription), to page through. */
  extraPages?: number;
}

export interface HubSpotMock extends RestCmsMock {
  token: string;
  /** The blog post id of each seed id. */
  posts: Map<string, string>;
  /** A primary object's variation in `language`, if any. */
  variation(primaryId: string, language: string): StoredObject | undefined;
  /** The draft text of `primaryId`'s variation in `language` (what Parlance wrote, unpublished). */
  draft(primaryId: string, language: string, field?: Field): string | undefined;
  /** A person edits a variation's draft (or a primary's live text and draft) in HubSpot's editor. */
  edit(id: string, field: Field, text: string): void;
  /** Adds a primary object; gives its id. */
  add(kind: Kind, language: string, texts: Texts, translatedFromId?: string): string;
  remove(id: string): void;
  count(kind: Kind, language: string): number;
}

const correlationId = () => crypto.randomUUID();
const hubspotError = (res: ServerResponse, status: number, category: string, message: string, headers: Record<string, string> = {}) => sendJson(res, status, { status: 'error', message, correlationId: correlationId(), category }, headers);
const PATHS: Record<string, Kind> = { '/cms/v3/blogs/posts': 'posts', '/cms/v3/pages/site-pages': 'pages' };

export async function startHubSpotMock(options: HubSpotMockOptions = {}): Promise<HubSpotMock> {
  const token = `pat-na1-${crypto.randomUUID()}`;
  const objects = new Map<string, StoredObject>();
  const posts = new Map<string, string>();
  let nextId = 90_000_000_001;

  const now = () => new Date().toISOString();
  const add = (kind: Kind, language: string, texts: Texts, translatedFromId?: string) => {
    const id = String(nextId++);
    const fields = kind === 'posts' ? texts : { name: texts.name, htmlTitle: texts.htmlTitle, metaDescription: texts.metaDescription };
    objects.set(id, { id, kind, language, translatedFromId: translatedFromId ?? null, slug: `${kind === 'posts' ? 'blog/' : ''}item-${id}`, live: { ...fields }, draft: { ...fields }, updated: now(), archived: false });
    return id;
  };
  const view = (o: StoredObject, texts: Texts) => ({
    id: o.id,
    name: texts.name ?? '',
    htmlTitle: texts.htmlTitle ?? '',
    metaDescription: texts.metaDescription ?? '',
    ...(o.kind === 'posts' ? { postBody: texts.postBody ?? '', contentGroupId: '1234567' } : { widgets: {}, widgetContainers: {}, layoutSections: {} }),
    language: o.language,
    translatedFromId: o.translatedFromId,
    slug: o.slug,
    url: `https://www.example.com/${o.language === 'en' ? '' : `${o.language}/`}${o.slug}`,
    state: o.translatedFromId ? 'DRAFT' : 'PUBLISHED',
    currentState: o.translatedFromId ? 'DRAFT' : 'PUBLISHED',
    created: o.updated,
    updated: o.updated,
    archivedAt: '1970-01-01T00:00:00Z',
    translations: {},
  });

  SEED.forEach(({ id, source }) => posts.set(id, add('posts', 'en', { name: source, htmlTitle: '', metaDescription: '', postBody: '' })));
  for (let n = 0; n < (options.extraPages ?? 0); n++) add('pages', 'en', { name: `Page ${n + 1}`, htmlTitle: `Page ${n + 1} | Example`, metaDescription: '' });

  const variation = (primaryId: string, language: string) => [...objects.values()].find((o) => o.translatedFromId === primaryId && o.language === language && !o.archived);

  function handle({ method, url, text, authorization }: RestCmsCall, res: ServerResponse): void {
    if (authorization !== `Bearer ${token}`) {
      return hubspotError(res, 401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview');
    }
    const prefix = Object.keys(PATHS).find((p) => url.pathname === p || url.pathname.startsWith(`${p}/`));
    if (!prefix) return hubspotError(res, 404, 'OBJECT_NOT_FOUND', `No route for ${method} ${url.pathname}`);
    const kind = PATHS[prefix]!;
    const rest = url.pathname.slice(prefix.length).split('/').filter(Boolean);
    if (rest.length === 0 && method === 'GET') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 100);
      const after = url.searchParams.get('after');
      const offset = after ? Number(Buffer.from(after, 'base64').toString('utf8')) : 0;
      const all = [...objects.values()].filter((o) => o.kind === kind && !o.archived).sort((a, b) => Number(a.id) - Number(b.id));
      const page = all.slice(offset, offset + limit);
      const next = offset + limit < all.length ? Buffer.from(String(offset + limit)).toString('base64') : undefined;
      return sendJson(res, 200, {
        total: all.length,
        results: page.map((o) => view(o, o.live)),
        ...(next ? { paging: { next: { after: next, link: `${url.origin}${url.pathname}?after=${next}` } } } : {}),
      });
    }
    if (rest[0] === 'multi-language' && rest[1] === 'create-language-variation' && method === 'POST') {
      const body = JSON.parse(text || '{}') as { id?: string; language?: string };
      const primary = body.id ? objects.get(String(body.id)) : undefined;
      if (!primary || primary.kind !== kind || primary.archived) return hubspotError(res, 404, 'OBJECT_NOT_FOUND', `Object ${body.id} not found.`);
      if (!body.language) return hubspotError(res, 400, 'VALIDATION_ERROR', 'language is required.');
      if (primary.translatedFromId) return hubspotError(res, 400, 'VALIDATION_ERROR', `Object ${primary.id} is not the primary of its language group.`);
      if (variation(primary.id, body.language) || primary.language === body.language) return hubspotError(res, 400, 'VALIDATION_ERROR', `Object ${primary.id} already has a variation in language ${body.language}.`);
      const id = add(kind, body.language, { ...primary.live }, primary.id);
      return sendJson(res, 200, view(objects.get(id)!, objects.get(id)!.draft));
    }
    const object = objects.get(rest[0] ?? '');
    if (!object || object.kind !== kind || object.archived) return hubspotError(res, 404, 'OBJECT_NOT_FOUND', `Object ${rest[0]} not found.`);
    if (rest.length === 1 && method === 'GET') return sendJson(res, 200, view(object, object.live));
    if (rest.length === 2 && rest[1] === 'draft' && method === 'GET') return sendJson(res, 200, view(object, object.draft));
    if (rest.length === 2 && rest[1] === 'draft' && method === 'PATCH') {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      for (const [key, value] of Object.entries(body)) {
        if (!(FIELDS as readonly string[]).includes(key) || (key === 'postBody' && kind === 'pages')) return hubspotError(res, 400, 'VALIDATION_ERROR', `Unknown property '${key}'.`);
        if (typeof value !== 'string') return hubspotError(res, 400, 'VALIDATION_ERROR', `Property '${key}' must be a string.`);
      }
      Object.assign(object.draft, body);
      object.updated = now();
      return sendJson(res, 200, view(object, object.draft));
    }
    return hubspotError(res, 405, 'VALIDATION_ERROR', `Method ${method} is not allowed here.`);
  }

  const server = await serveRestCms({
    tooManyRequests: (res, headers, seconds) =>
      sendJson(
        res,
        429,
        { status: 'error', message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT', correlationId: correlationId(), policyName: 'SECONDLY', groupName: 'publicapi:private-app' },
        { ...headers, 'x-hubspot-ratelimit-max': '100', 'x-hubspot-ratelimit-remaining': '0', 'x-hubspot-ratelimit-interval-milliseconds': String(seconds * 1000), 'x-hubspot-ratelimit-secondly': '10', 'x-hubspot-ratelimit-secondly-remaining': '0' },
      ),
    internalError: (res, error) => hubspotError(res, 500, 'INTERNAL_ERROR', `internal error: ${String(error)}`),
    handle,
  });
  return {
    ...server,
    token,
    posts,
    variation,
    draft: (primaryId, language, field = 'name') => variation(primaryId, language)?.draft[field],
    edit(id, field, text) {
      const object = objects.get(id)!;
      object.draft[field] = text;
      if (!object.translatedFromId) object.live[field] = text;
      object.updated = now();
    },
    add,
    remove(id) {
      objects.get(id)!.archived = true;
    },
    count: (kind, language) => [...objects.values()].filter((o) => o.kind === kind && o.language === language && !o.translatedFromId && !o.archived).length,
  };
}

/** A notification as HubSpot sends it to the app's target URL `uri`, signed with the app's client secret. */
export function hubspotWebhook(secret: string, uri: string, event: { objectId: string; portalId?: number }, timestamp = Date.now()): { headers: Record<string, string>; body: string; method: string; path: string } {
  const body = JSON.stringify([{ eventId: 1_000_001, subscriptionId: 2_001, portalId: event.portalId ?? HUBSPOT_PORTAL, appId: 3_001, occurredAt: timestamp - 500, subscriptionType: 'blogPost.propertyChange', attemptNumber: 0, objectId: Number(event.objectId), changeSource: 'CMS', propertyName: 'name' }]);
  const parsed = new URL(uri);
  return {
    method: 'POST',
    path: `${parsed.pathname}${parsed.search}`,
    headers: { 'content-type': 'application/json', host: parsed.host, 'x-hubspot-request-timestamp': String(timestamp), 'x-hubspot-signature-v3': hubspotSignature(secret, { method: 'POST', uri, body, timestamp: String(timestamp) }) },
    body,
  };
}

export async function hubspotFixture(): Promise<RemoteFixture> {
  const mock = await startHubSpotMock();
  const post = (id: string) => {
    const postId = mock.posts.get(id);
    if (postId === undefined) throw new Error(`No HubSpot post for seed '${id}'`);
    return postId;
  };
  let lastChanged = SEED[0]!.id;
  return {
    connector: 'hubspot',
    settings: { api_url: mock.url, content: ['blog_posts'], languages: ['de', 'fr'], portal_id: String(HUBSPOT_PORTAL) },
    secrets: { access_token: mock.token },
    badSecrets: { access_token: 'pat-na1-00000000-0000-0000-0000-000000000000' },
    async setSource(id, text) {
      mock.edit(post(id), 'name', text);
      lastChanged = id;
    },
    translation: async (id, locale) => mock.draft(post(id), locale) || undefined,
    async editTranslation(id, locale, text) {
      mock.edit(mock.variation(post(id), locale)!.id, 'name', text);
    },
    sourceCount: async () => mock.count('posts', 'en'),
    // HubSpot signs the full target URL; fetch sets the Host header itself.
    webhook(secret, url) {
      const { headers, body } = hubspotWebhook(secret, url, { objectId: post(lastChanged) });
      const { host: _host, ...rest } = headers;
      return { headers: rest, body };
    },
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
