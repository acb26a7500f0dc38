/**
 * A local Drupal 10/11 site with core JSON:API, Content Translation and HTTP Basic Authentication, Simple OAuth
 * (client credentials) and, when asked, the contributed JSON:API Multilingual module. It holds one bundle, `node/article`
 * (`title`, a string of at most 255, and `body`, text_with_summary), in languages en (the default, no path prefix), de
 * and fr (prefixes `de`, `fr`). The kit's SEED strings are the English titles.
 *
 * Shapes from: https://www.drupal.org/docs/core-modules-and-themes/core-modules/jsonapi-module/translations
 * (prefixed reads fall back to another translation; PATCH updates a translation; POST cannot add one; DELETE of a
 * translation refused), …/jsonapi-module/pagination (`page[offset]`, `page[limit]`, follow `links.next`),
 * https://www.drupal.org/project/jsonapi_page_limit (at most 50 per page), drupal/drupal
 * core/modules/jsonapi/tests/src/Functional/JsonApiFunctionalMultilingualTest.php (the PATCH document `{ data: { type:
 * 'node--article', id, attributes } }` with `Content-Type: application/vnd.api+json`, `errors[0].detail`, the 405
 * "The requested translation of the resource object does not exist, instead modify one of the translations that do
 * exist: …", the 403 on `langcode`, the 405 on deleting a translation), core/modules/jsonapi/src/Controller/EntryPoint.php
 * (`meta.links.me` only for an authenticated user), core/modules/basic_auth/src/Authentication/Provider/BasicAuth.php
 * (wrong credentials → anonymous; a denied anonymous request → 401 "No authentication credentials provided." with
 * `WWW-Authenticate: Basic realm=…`), https://www.drupal.org/project/jsonapi_multilingual (`POST
 * /jsonapi/node/article/{uuid}?langCode=fr` creates a translation, 409 when it exists, only translatable fields).
 *
 * Guessed (marked so): the exact 422, 404 and 409 detail texts; the 201 body of JSON:API Multilingual (taken to be
 * the translation's resource object); the 429 — Drupal core has no rate limit, so it is a host's or a proxy's
 * (`Retry-After` in seconds, a JSON:API error body) — and the 503 maintenance text; the config entities' attributes
 * (configurable_language `drupal_internal__id`/`locked`, field_config `description`/`translatable`,
 * field_storage_config `settings.max_length`) and that a user without access gets an empty collection with
 * `meta.omitted` (from memory of JSON:API's behaviour, not re-read); `sort=id` being accepted; Simple OAuth's
 * `POST /oauth/token` (grant_type=client_credentials → `{ token_type, expires_in, access_token }`) and its
 * league/oauth2-server errors `invalid_client` / `access_denied` (from memory, not re-read); and the notification body `{ event, entity_type, bundle, uuid }`, which is whatever the
 * site's ECA model or module sends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { signParlance } from '../../../server/integrations/connectors/http.js';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson } from './loopback.js';
import { Armed, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';

export const DRUPAL_LANGUAGES = ['en', 'de', 'fr'] as const;
const TITLE_MAX = 255;
const PAGE_MAX = 50;
const TYPE = 'node--article';

export interface DrupalMockOptions {
  extraNodes?: number;
  /** The contributed JSON:API Multilingual module is installed (translations can be created). */
  multilingual?: boolean;
  /** The API user may read config entities (languages, field config). Default true. */
  administer?: boolean;
}

export type DrupalRequest = MockRequest & { authorization: string | undefined; contentType: string | undefined };

type Body = { value: string; format: string; summary: string };
interface Translation {
  title: string;
  body: Body | null;
  changed: number;
}
interface NodeState {
  uuid: string;
  nid: number;
  vid: number;
  status: boolean;
  translations: Map<string, Translation>;
}

export interface DrupalMock extends RecordingServer<DrupalRequest> {
  /** The next `count` requests answer 429 with `Retry-After: seconds` (a host's or proxy's limit). */
  rateLimitNext(count?: number, seconds?: number): void;
  /** The next request answers `status` (a 5xx of the site or its host). */
  failNext(status: number): void;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  /** The uuid of each seed id. */
  nodes: Map<string, string>;
  title(uuid: string, langcode: string): string | undefined;
  body(uuid: string, langcode: string): Body | null | undefined;
  /** A person edits a translation (creating it) in Drupal's UI. */
  setTitle(uuid: string, langcode: string, title: string): void;
  setBody(uuid: string, langcode: string, body: Body): void;
  /** Deletes a node, as a person would. */
  remove(uuid: string): void;
  count(langcode: string): number;
  /** A notification as the site's ECA model sends it, with the secret or signed. */
  notification(secret: string, uuid: string, options?: { signed?: boolean; at?: number }): { headers: Record<string, string>; body: string };
}

const jsonapi = { version: '1.0', meta: { links: { self: { href: 'http://jsonapi.org/format/1.0/' } } } };
const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, { 'content-type': 'application/vnd.api+json', ...headers });
const TITLES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error' };
const error = (res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  send(res, status, { jsonapi, errors: [{ title: TITLES[status] ?? 'Error', status: String(status), detail, ...extra }] }, headers);

export async function startDrupalMock(options: DrupalMockOptions = {}): Promise<DrupalMock> {
  const username = 'parlance_api';
  const password = `pw-${Math.random().toString(36).slice(2, 12)}`;
  const clientId = randomUUID();
  const clientSecret = `cs-${Math.random().toString(36).slice(2, 14)}`;
  const issued = new Set<string>();
  const nodes = new Map<string, NodeState>();
  const bySeed = new Map<string, string>();
  let clock = Math.floor(Date.UTC(2026, 0, 1) / 1000);
  let nextNid = 1;
  const userUuid = randomUUID();

  const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const addNode = (title: string, body: Body | null = null) => {
    const node: NodeState = { uuid: randomUUID(), nid: nextNid, vid: nextNid, status: true, translations: new Map([['en', { title, body, changed: ++clock }]]) };
    nextNid++;
    nodes.set(node.uuid, node);
    return node.uuid;
  };
  for (const { id, source } of SEED) bySeed.set(id, addNode(source));
  for (let n = 0; n < (options.extraNodes ?? 0); n++) addNode(`Article ${n + 1}`);
  const sorted = () => [...nodes.values()].sort((a, b) => (a.uuid < b.uuid ? -1 : 1));

  function edit(uuid: string, langcode: string, change: Partial<Translation>) {
    const node = nodes.get(uuid);
    if (!node) throw new Error(`no node ${uuid}`);
    const now = node.translations.get(langcode) ?? { title: node.translations.get('en')!.title, body: null, changed: 0 };
    node.translations.set(langcode, { ...now, ...change, changed: ++clock });
    node.vid = ++nextNid + 1000;
  }

  /** The node in the negotiated language, or Drupal's fallback to its default translation. */
  function resource(node: NodeState, langcode: string, fields: string[] | null, base: string) {
    const lang = node.translations.has(langcode) ? langcode : 'en';
    const t = node.translations.get(lang)!;
    const attributes: Record<string, unknown> = {
      drupal_internal__nid: node.nid,
      drupal_internal__vid: node.vid,
      langcode: lang,
      revision_timestamp: iso(t.changed),
      status: node.status,
      title: t.title,
      created: iso(Math.floor(Date.UTC(2026, 0, 1) / 1000)),
      changed: iso(t.changed),
      default_langcode: lang === 'en',
      revision_translation_affected: true,
      path: { alias: null, pid: null, langcode: lang },
      body: t.body ? { ...t.body, processed: `<p>${t.body.value}</p>` } : null,
    };
    const shown = fields ? Object.fromEntries(Object.entries(attributes).filter(([k]) => fields.includes(k))) : attributes;
    return { type: TYPE, id: node.uuid, links: { self: { href: `${base}/jsonapi/node/article/${node.uuid}` } }, attributes: shown };
  }

  function authenticate(authorization: string | undefined): 'user' | 'anonymous' | 'bad_token' {
    if (authorization?.startsWith('Basic ')) {
      const [user, pass] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
      // A failed Basic login is not refused: the request goes on as anonymous.
      return user === username && pass === password ? 'user' : 'anonymous';
    }
    if (authorization?.startsWith('Bearer ')) return issued.has(authorization.slice(7)) ? 'user' : 'bad_token';
    return 'anonymous';
  }

  const rateLimit = new Armed<number>();
  const failing = new Armed<number>();

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) return error(res, 429, 'Too many requests; try again later.', { 'retry-after': String(seconds) });
    const status = failing.take();
    if (status !== undefined) return error(res, status, status === 503 ? 'The website is under maintenance. We should be back shortly.' : 'The website encountered an unexpected error. Try again later.');
    const base = server.url;
    const method = req.method ?? 'GET';
    const authorization = req.headers.authorization;
    const query = url.searchParams;
    const text = typeof sent === 'string' ? sent : sent === undefined ? '' : JSON.stringify(sent);
    if (url.pathname === '/oauth/token' && method === 'POST') {
      const form = new URLSearchParams(text);
      if (form.get('grant_type') !== 'client_credentials') return void sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.', message: 'The authorization grant type is not supported by the authorization server.' });
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return void sendJson(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed', message: 'Client authentication failed' });
      const token = `tok-${randomUUID()}`;
      issued.add(token);
      return void sendJson(res, 200, { token_type: 'Bearer', expires_in: 300, access_token: token });
    }
    const who = authenticate(authorization);
    if (who === 'bad_token') {
      return void sendJson(res, 401, { error: 'access_denied', error_description: 'The resource owner or authorization server denied the request.', hint: 'The access token is invalid.', message: 'The resource owner or authorization server denied the request.' });
    }
    const denied = () =>
      who === 'anonymous'
        ? error(res, 401, 'No authentication credentials provided.', { 'www-authenticate': 'Basic realm="Drupal"' })
        : error(res, 403, "The current user is not permitted to update this resource.");
    const segments = url.pathname.split('/').filter(Boolean);
    const langcode = segments[0] === 'de' || segments[0] === 'fr' ? segments.shift()! : 'en';
    if (segments[0] !== 'jsonapi') return error(res, 404, `No route found for "${method} ${base}${url.pathname}"`);
    const [, entityType, bundle, uuid] = segments;
    if (!entityType) {
      if (method !== 'GET') return error(res, 405, `No route found for "${method} ${base}${url.pathname}": Method Not Allowed (Allow: GET)`);
      const links = { self: { href: `${base}/jsonapi` }, 'node--article': { href: `${base}/jsonapi/node/article` }, configurable_language__configurable_language: { href: `${base}/jsonapi/configurable_language/configurable_language` } };
      const meta = who === 'user' ? { meta: { links: { me: { meta: { id: userUuid }, href: `${base}/jsonapi/user/user/${userUuid}` } } } } : {};
      return send(res, 200, { jsonapi, data: [], links, ...meta });
    }
    if (entityType === 'configurable_language' || entityType === 'field_config' || entityType === 'field_storage_config') {
      if (method !== 'GET') return error(res, 405, 'Config entities are read-only in JSON:API.');
      if (who !== 'user' || options.administer === false) return send(res, 200, { jsonapi, data: [], meta: { omitted: { detail: 'Some resources have been omitted because of insufficient authorization.', links: {} } }, links: { self: { href: `${base}${url.pathname}` } } });
      const config = (attributes: Record<string, unknown>) => ({ type: `${entityType}--${entityType}`, id: randomUUID(), attributes });
      const data =
        entityType === 'configurable_language'
          ? [
              config({ drupal_internal__id: 'en', label: 'English', direction: 'ltr', weight: 0, locked: false }),
              config({ drupal_internal__id: 'de', label: 'German', direction: 'ltr', weight: 1, locked: false }),
              config({ drupal_internal__id: 'fr', label: 'French', direction: 'ltr', weight: 2, locked: false }),
              config({ drupal_internal__id: 'und', label: 'Not specified', direction: 'ltr', weight: 3, locked: true }),
              config({ drupal_internal__id: 'zxx', label: 'Not applicable', direction: 'ltr', weight: 4, locked: true }),
            ]
          : entityType === 'field_config'
            ? [config({ drupal_internal__id: 'node.article.body', field_name: 'body', entity_type: 'node', bundle: 'article', label: 'Body', description: 'The article text, shown under the title.', translatable: true, field_type: 'text_with_summary' })]
            : [config({ drupal_internal__id: 'node.body', field_name: 'body', entity_type: 'node', type: 'text_with_summary', settings: { display_summary: true }, translatable: true })];
      return send(res, 200, { jsonapi, data, links: { self: { href: `${base}${url.pathname}` } } });
    }
    if (entityType !== 'node' || bundle !== 'article') return error(res, 404, `No route found for "${method} ${base}${url.pathname}"`);
    const fieldsParam = query.get(`fields[${TYPE}]`);
    const fields = fieldsParam ? fieldsParam.split(',') : null;
    if (!uuid) {
      if (method !== 'GET') return error(res, 405, 'Creating articles is not part of this mock.');
      const limit = Math.min(Number(query.get('page[limit]') ?? PAGE_MAX), PAGE_MAX);
      const offset = Number(query.get('page[offset]') ?? 0);
      // Anonymous users see published content only (none is unpublished here).
      const all = sorted().filter((n) => n.status || who === 'user');
      const page = all.slice(offset, offset + limit);
      const next = new URL(url.href.replace('http://127.0.0.1', base));
      next.searchParams.set('page[offset]', String(offset + limit));
      next.searchParams.set('page[limit]', String(limit));
      const links = { self: { href: `${base}${url.pathname}${url.search}` }, ...(offset + limit < all.length ? { next: { href: next.toString() } } : {}) };
      return send(res, 200, { jsonapi, data: page.map((n) => resource(n, langcode, fields, base)), links });
    }
    const node = nodes.get(uuid);
    if (!node) return error(res, 404, `The "node" entity with ID "${uuid}" does not exist.`);
    if (method === 'GET') return send(res, 200, { jsonapi, data: resource(node, langcode, fields, base), links: { self: { href: `${base}${url.pathname}` } } });
    if (method === 'DELETE' && langcode !== 'en') return error(res, 405, 'Deleting a resource object translation is not yet supported. See https://www.drupal.org/docs/8/modules/jsonapi/translations.');
    if (method !== 'PATCH' && !(method === 'POST' && options.multilingual && query.has('langCode'))) return error(res, 405, `No route found for "${method} ${base}${url.pathname}": Method Not Allowed (Allow: GET, PATCH, DELETE)`);
    if (who !== 'user') return denied();
    const contentType = req.headers['content-type'];
    if (!contentType?.startsWith('application/vnd.api+json')) return error(res, 415, `No route found that matches "Content-Type: ${contentType ?? ''}"`);
    const doc = JSON.parse(text || '{}') as { data?: { type?: string; id?: string; attributes?: Record<string, unknown> } };
    if (doc.data?.type !== TYPE) return error(res, 409, `The type "${doc.data?.type}" does not match the resource type "${TYPE}".`);
    if (doc.data.id !== uuid) return error(res, 409, 'The provided ID does not match the ID of the resource object.');
    const attributes = doc.data.attributes ?? {};
    if ('langcode' in attributes) return error(res, 403, 'The current user is not allowed to PATCH the selected field (langcode).');
    for (const [name, value] of Object.entries(attributes)) {
      if (name !== 'title' && name !== 'body') return error(res, 422, `The attribute ${name} does not exist on the ${TYPE} resource type.`);
      if (name === 'title' && (typeof value !== 'string' || value.length > TITLE_MAX)) return error(res, 422, `title: Title: may not be longer than ${TITLE_MAX} characters.`, {}, { source: { pointer: '/data/attributes/title' } });
      if (name === 'body' && value !== null && (typeof value !== 'object' || typeof (value as Body).value !== 'string')) return error(res, 422, 'body.0.value: This value should be of the correct primitive type.', {}, { source: { pointer: '/data/attributes/body' } });
    }
    const change = (current: Translation | undefined): Partial<Translation> => ({
      ...(typeof attributes.title === 'string' ? { title: attributes.title } : {}),
      ...('body' in attributes ? { body: attributes.body === null ? null : ({ format: 'basic_html', summary: '', ...(current?.body ?? {}), ...(attributes.body as Partial<Body>) } as Body) } : {}),
    });
    if (method === 'POST') {
      const target = query.get('langCode')!;
      if (!DRUPAL_LANGUAGES.includes(target as (typeof DRUPAL_LANGUAGES)[number])) return error(res, 422, `The language "${target}" does not exist.`);
      if (node.translations.has(target)) return error(res, 409, `The "${target}" translation of the resource object already exists.`);
      edit(uuid, target, { title: node.translations.get('en')!.title, body: null, ...change(undefined) });
      return send(res, 201, { jsonapi, data: resource(node, target, null, base) });
    }
    if (!node.translations.has(langcode)) {
      return error(res, 405, `The requested translation of the resource object does not exist, instead modify one of the translations that do exist: ${[...node.translations.keys()].sort().join(', ')}.`);
    }
    edit(uuid, langcode, change(node.translations.get(langcode)));
    return send(res, 200, { jsonapi, data: resource(node, langcode, null, base), links: { self: { href: `${base}${url.pathname}` } } });
  }

  const server = await serveRecording(handle, {
    extra: (req) => ({ authorization: req.headers.authorization, contentType: req.headers['content-type'] }),
    internalError: (res, caught) => error(res, 500, `The website encountered an unexpected error. ${String(caught)}`),
  });
  const mock: DrupalMock = {
    ...server,
    rateLimitNext: (count = 1, seconds = 1) => rateLimit.arm(seconds, count),
    failNext: (status) => failing.arm(status),
    username,
    password,
    clientId,
    clientSecret,
    nodes: bySeed,
    title: (uuid, langcode) => nodes.get(uuid)?.translations.get(langcode)?.title,
    body: (uuid, langcode) => nodes.get(uuid)?.translations.get(langcode)?.body,
    setTitle: (uuid, langcode, title) => edit(uuid, langcode, { title }),
    setBody: (uuid, langcode, body) => edit(uuid, langcode, { body }),
    remove: (uuid) => void nodes.delete(uuid),
    count: (langcode) => [...nodes.values()].filter((n) => n.translations.has(langcode)).length,
    notification(secret, uuid, { signed = true, at = Date.now() } = {}) {
      const body = JSON.stringify({ event: 'entity:node:update', entity_type: 'node', bundle: 'article', uuid });
      const header: Record<string, string> = signed ? { 'x-parlance-signature': signParlance(secret, body, Math.floor(at / 1000)) } : { 'x-parlance-webhook-secret': secret };
      return { headers: { 'content-type': 'application/json', ...header }, body };
    },
  };
  return mock;
}

/** The acceptance kit's fixture: Basic auth, titles only, JSON:API Multilingual installed so translations can be created. */
export async function drupalFixture(): Promise<RemoteFixture> {
  const mock = await startDrupalMock({ multilingual: true });
  const node = (id: string) => {
    const uuid = mock.nodes.get(id);
    if (!uuid) throw new Error(`No Drupal node for seed '${id}'`);
    return uuid;
  };
  let lastChanged = SEED[0]!.id;
  return {
    connector: 'drupal',
    settings: { site_url: mock.url, resources: [{ entity_type: 'node', bundle: 'article', fields: ['title'] }], create_translations: 'jsonapi_multilingual' },
    secrets: { username: mock.username, password: mock.password },
    badSecrets: { username: mock.username, password: 'not-the-password' },
    async setSource(id, text) {
      lastChanged = id;
      mock.setTitle(node(id), 'en', text);
    },
    translation: async (id, locale) => mock.title(node(id), locale) || undefined,
    async editTranslation(id, locale, text) {
      mock.setTitle(node(id), locale, text);
    },
    sourceCount: async () => mock.count('en'),
    webhook: (secret) => mock.notification(secret, node(lastChanged)),
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
