/**
 * A local Contentful Content Management API holding one space in memory, in Contentful's own shapes.
 *
 * Shapes taken from: contentful.com/developers/docs/references/content-management-api (collections `{sys:{type:
 * 'Array'}, total, skip, limit, items}`, entries `{sys:{id, type:'Entry', version, space, environment, contentType},
 * fields:{<field>:{<locale>:value}}}`, "Updating content": the whole entry with `X-Contentful-Version`, content type
 * fields `{id, name, type, localized, validations:[{size:{max}}]}`, locales `{code, name, default}`), /references/errors
 * (`{"sys":{"type":"Error","id":"AccessTokenInvalid"},"message","requestId"}`, 404 NotFound, 409 VersionMismatch,
 * 429 RateLimitExceeded) and the rate-limit section (`X-Contentful-RateLimit-Reset`, seconds, on a 429, with no
 * Retry-After); webhook topics `ContentManagement.Entry.save` in `X-Contentful-Topic` and the entry as the body,
 * from the "Webhooks" concept page. Custom headers on a webhook are Contentful's "Headers" option of a webhook.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';
import { createHmac } from 'node:crypto';

export interface ContentfulRequest extends MockRequest {
  headers: Record<string, string | undefined>;
}

interface MockEntry {
  id: string;
  version: number;
  fields: Record<string, Record<string, unknown>>;
  createdAt: string;
  updatedAt: string;
}

export interface ContentfulMockOptions {
  /** The most entries a page holds, whatever `limit` asks (Contentful's own maximum is 1000). */
  maxLimit?: number;
  /** The space's locale codes; the first is the default. */
  locales?: string[];
}

export interface ContentfulMock extends RecordingServer<ContentfulRequest> {
  token: string;
  spaceId: string;
  environmentId: string;
  contentTypeId: string;
  entries: Map<string, MockEntry>;
  /** The next request answers 429 with `X-Contentful-RateLimit-Reset: <seconds>`. */
  rateLimitNext(seconds: number): void;
  /** Runs `change` once, just before the next entry PUT is handled (a person saving between our read and our write). */
  beforeNextPut(change: () => void): void;
  /** A person edits a field in a locale in the web app: the value changes and the version goes up. */
  edit(id: string, locale: string, text: string): void;
  /** The webhook Contentful sends after an entry is saved, with the secret header the user configured. */
  webhook(id: string, secret: string, topic?: string): { headers: Record<string, string>; body: string };
  /**
   * The same notification signed by Contentful's request verification with the space's signing secret, for a request
   * to `path`, signed at `timestamp` (ms): hex HMAC-SHA256 over method, encoded path, the signed headers sorted as
   * `name:value` joined by ';', and the body, one per line (as Contentful's node-apps-toolkit signRequest builds it).
   */
  signedWebhook(id: string, signingSecret: string, path: string, timestamp?: number): { headers: Record<string, string>; body: string };
}

const TOKEN = 'CFPAT-3hQ9xkN1cW0aB5rT7yUe2mZpL4sV8dGfJ6nK';
const SPACE = 'yadj1kx9rmg0';
const ENVIRONMENT = 'master';
const CONTENT_TYPE = 'article';
const STAMP = '2026-11-20T09:12:44.000Z';
const MEDIA_TYPE = 'application/vnd.contentful.management.v1+json';

const cfError = (id: string, message: string, details?: unknown) => ({ sys: { type: 'Error', id }, message, ...(details ? { details } : {}), requestId: randomUUID() });

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, { 'content-type': MEDIA_TYPE, ...headers });

const link = (linkType: string, id: string) => ({ sys: { type: 'Link', linkType, id } });

export async function startContentfulMock(options: ContentfulMockOptions = {}): Promise<ContentfulMock> {
  const maxLimit = options.maxLimit ?? 1000;
  const localeCodes = options.locales ?? ['en', 'de', 'fr'];
  const source = localeCodes[0]!;
  const entries = new Map<string, MockEntry>();
  for (const { id, source: text } of SEED) entries.set(id, { id, version: 1, fields: { title: { [source]: text }, slug: { [source]: id } }, createdAt: STAMP, updatedAt: STAMP });
  const rateLimit = new Armed<number>();
  const beforePut = new Armed<() => void>();

  const entryJson = (e: MockEntry) => ({
    sys: { space: link('Space', SPACE), id: e.id, type: 'Entry', createdAt: e.createdAt, updatedAt: e.updatedAt, environment: link('Environment', ENVIRONMENT), version: e.version, contentType: link('ContentType', CONTENT_TYPE) },
    fields: e.fields,
  });
  const arrayOf = (items: unknown[], skip: number, limit: number, total: number) => ({ sys: { type: 'Array' }, total, skip, limit, items });
  const contentType = {
    sys: { space: link('Space', SPACE), id: CONTENT_TYPE, type: 'ContentType', version: 3, environment: link('Environment', ENVIRONMENT) },
    displayField: 'title',
    name: 'Article',
    description: 'A page of the store',
    fields: [
      { id: 'title', name: 'Headline', type: 'Symbol', localized: true, required: true, validations: [{ size: { max: 120 } }], disabled: false, omitted: false },
      { id: 'slug', name: 'Slug', type: 'Symbol', localized: false, required: true, validations: [{ unique: true }], disabled: false, omitted: false },
      { id: 'featured', name: 'Featured', type: 'Boolean', localized: true, required: false, validations: [], disabled: false, omitted: false },
    ],
  };

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) {
      return send(res, 429, cfError('RateLimitExceeded', 'You have exceeded the rate limit of the Organization this Space belongs to by making too many API requests within a short timespan. Please wait a moment before trying the request again.'), { 'x-contentful-ratelimit-reset': String(seconds), 'x-contentful-ratelimit-second-limit': '10', 'x-contentful-ratelimit-second-remaining': '0' });
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, cfError('AccessTokenInvalid', 'The access token you sent could not be found or is invalid.'));
    const match = /^\/spaces\/([^/]+)\/environments\/([^/]+)\/(locales|content_types|entries)(?:\/([^/]+))?$/.exec(url.pathname);
    if (!match) return send(res, 404, cfError('NotFound', 'The resource could not be found.'));
    const [, space, environment, resource, id] = match;
    if (space !== SPACE) return send(res, 404, cfError('NotFound', 'The resource could not be found.', { type: 'Space', id: space }));
    if (environment !== ENVIRONMENT) return send(res, 404, cfError('NotFound', 'The resource could not be found.', { type: 'Environment', id: environment, space }));
    const skip = Number(url.searchParams.get('skip') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), maxLimit);
    if (resource === 'locales') {
      const items = localeCodes.map((code, i) => ({ name: code, code, fallbackCode: i === 0 ? null : source, default: i === 0, contentManagementApi: true, contentDeliveryApi: true, optional: i !== 0, sys: { id: `loc${i}`, type: 'Locale', version: 1 } }));
      return send(res, 200, arrayOf(items.slice(skip, skip + limit), skip, limit, items.length));
    }
    if (resource === 'content_types') return send(res, 200, arrayOf([contentType].slice(skip, skip + limit), skip, limit, 1));
    if (id === undefined) {
      const type = url.searchParams.get('content_type');
      const all = type === null || type === CONTENT_TYPE ? [...entries.values()] : [];
      return send(res, 200, arrayOf(all.slice(skip, skip + limit).map(entryJson), skip, limit, all.length));
    }
    const entry = entries.get(id);
    if (!entry) return send(res, 404, cfError('NotFound', 'The resource could not be found.', { type: 'Entry', id }));
    if (req.method === 'GET') return send(res, 200, entryJson(entry));
    if (req.method !== 'PUT') return send(res, 405, cfError('BadRequest', `Method ${req.method} not allowed`));
    if (req.headers['content-type'] !== MEDIA_TYPE) return send(res, 415, cfError('UnsupportedMediaType', 'Unsupported media type'));
    const body = sent as { fields?: MockEntry['fields'] };
    beforePut.take()?.();
    if (Number(req.headers['x-contentful-version']) !== entry.version) return send(res, 409, cfError('VersionMismatch', 'Version mismatch'));
    if (!body.fields) return send(res, 422, cfError('ValidationFailed', 'Validation error', { errors: [{ name: 'required', path: ['fields'] }] }));
    entry.fields = body.fields;
    entry.version++;
    entry.updatedAt = new Date().toISOString();
    return send(res, 200, entryJson(entry));
  }

  const server = await serveRecording(handle, {
    extra: (req) => ({ headers: { 'x-contentful-version': req.headers['x-contentful-version'] as string | undefined, 'content-type': req.headers['content-type'] } }),
    internalError: (res, error) => send(res, 500, cfError('ServerError', String(error))),
  });

  return {
    ...server,
    token: TOKEN,
    spaceId: SPACE,
    environmentId: ENVIRONMENT,
    contentTypeId: CONTENT_TYPE,
    entries,
    rateLimitNext: (seconds) => rateLimit.arm(seconds),
    beforeNextPut: (change) => beforePut.arm(change),
    edit(id, locale, text) {
      const entry = entries.get(id);
      if (!entry) throw new Error(`no entry ${id}`);
      entry.fields.title = { ...entry.fields.title, [locale]: text };
      entry.version++;
      entry.updatedAt = new Date().toISOString();
    },
    signedWebhook(id, signingSecret, path, timestamp = Date.now()) {
      const entry = entries.get(id);
      if (!entry) throw new Error(`no entry ${id}`);
      const body = JSON.stringify(entryJson(entry));
      const signedHeaders: Record<string, string> = { 'content-type': MEDIA_TYPE, 'x-contentful-topic': 'ContentManagement.Entry.save', 'x-contentful-timestamp': String(timestamp) };
      const names = [...Object.keys(signedHeaders), 'x-contentful-signed-headers'].sort();
      signedHeaders['x-contentful-signed-headers'] = names.join(',');
      const [pathname, search] = path.split('?');
      const canonicalPath = encodeURI(search ? `${pathname}?${encodeURIComponent(search)}` : pathname!);
      const headerLine = names.map((name) => `${name}:${signedHeaders[name]}`).join(';');
      const signature = createHmac('sha256', signingSecret).update(['POST', canonicalPath, headerLine, body].join('\n')).digest('hex');
      return { headers: { ...signedHeaders, 'x-contentful-webhook-name': 'Parlance', 'x-contentful-signature': signature }, body };
    },
    webhook(id, secret, topic = 'ContentManagement.Entry.save') {
      const entry = entries.get(id);
      if (!entry) throw new Error(`no entry ${id}`);
      return {
        headers: { 'content-type': MEDIA_TYPE, 'x-contentful-topic': topic, 'x-contentful-webhook-name': 'Parlance', 'x-parlance-webhook-secret': secret },
        body: JSON.stringify(entryJson(entry)),
      };
    },
  };
}

/** The acceptance kit's fixture: the SEED strings as `article` entries whose localized `title` holds them in `en`. */
export async function contentfulFixture(): Promise<RemoteFixture> {
  const mock = await startContentfulMock();
  return cmsFixture({
    connector: 'contentful',
    settings: { api_url: mock.url, space_id: mock.spaceId, environment_id: mock.environmentId },
    secrets: { management_token: mock.token },
    badSecrets: { management_token: 'CFPAT-revoked0000000000000000000000000000' },
    edit: (id, locale, text) => mock.edit(id, locale, text),
    held: (id, locale) => mock.entries.get(id)?.fields.title?.[locale],
    sourceCount: () => [...mock.entries.values()].filter((e) => typeof e.fields.title?.en === 'string').length,
    webhook: (id, secret) => mock.webhook(id, secret),
    server: mock,
  });
}
