/**
 * A wire-level Builder.io on 127.0.0.1, holding one space with the locales en-US, de-DE and fr-FR (the enum of its
 * `locale` custom targeting attribute) and one model, `blog-article`, whose entries have a localized `title`
 * (`{ "@type": "@builder.io/core:LocalizedValue", "Default": …, "de-DE": … }`) and a plain `slug`.
 *
 * Routes, as Builder has them:
 * - `GET /api/v3/content/{model}?apiKey=&includeUnpublished=&limit=&offset=&query.id=&sort.createdDate=&cachebust=` → `{ results: [...] }`
 *   (entries `{ id, name, modelId, published, lastUpdated, createdDate, data }`); an unknown model is an empty list.
 * - `PATCH /api/v1/write/{model}/{id}` with `Authorization: Bearer <private key>` and a partial `{ data }` (top-level
 *   data fields replaced), answering the entry; `lastUpdated` moves on every write and every edit in the app.
 * - `POST /api/v2/admin` (GraphQL) `{ settings }` → the space settings with `customTargetingAttributes.locale.enum`.
 * - Model webhooks: `POST` of `{ newValue, previousValue, modelName, operation }` with the custom headers the model's
 *   webhook names (here X-Parlance-Webhook-Secret); Builder does not sign them.
 *
 * Sources: https://www.builder.io/c/docs/content-api and /query-api (parameters, `results`), /write-api (PATCH with a
 * partial data, Bearer private key), /webhooks and /global-webhooks (payload, custom headers, operations),
 * /custom-targeting-attributes and /localization (the `locale` attribute, LocalizedValue with `Default`), and
 * BuilderIO/builder examples (a localized input arrives as `{ Default, en-CA, … }`).
 *
 * Guessed (not in the docs read): the error bodies and statuses (401 `{ message }` for a wrong public key or private
 * key, 404 `{ message }` for a missing entry on PATCH, 400 `{ message }` for a locale the space lacks, 429 with
 * Retry-After and `{ message }`, 500 `{ message }`); the Content API capping `limit` at 100 (answered 400 here so a
 * connector asking for more is caught); the Admin API's `settings` JSON carrying `customTargetingAttributes.locale.enum`;
 * the Write API refusing a LocalizedValue slot for a locale the space does not have.
 */
import type { ServerResponse } from 'node:http';
import { LOCALIZED_TYPE } from '../../../server/integrations/connectors/builder.js';
import { SEED } from '../connector-kit.js';
import { cmsFixture } from './cms-mock.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock } from './rest-cms-mock.js';

export const BUILDER_MODEL = 'blog-article';
export const BUILDER_SPACE_LOCALES = ['en-US', 'de-DE', 'fr-FR'];
/** Parlance locale → Builder locale for the acceptance project (ja is not in the space). */
export const BUILDER_LOCALES = { de: 'de-DE', fr: 'fr-FR' };
const MAX_LIMIT = 100;

interface Entry {
  id: string;
  name: string;
  modelId: string;
  published: 'published' | 'draft';
  createdDate: number;
  lastUpdated: number;
  data: Record<string, unknown>;
}

export interface BuilderMock extends RestCmsMock {
  publicKey: string;
  privateKey: string;
  /** SEED id → entry id. */
  entries: Map<string, string>;
  /** An entry's title slot ('Default', 'de-DE', …); undefined when empty. */
  title(entryId: string, slot: string): string | undefined;
  /** A person edits a title slot in Builder's app (lastUpdated moves). */
  setTitle(entryId: string, slot: string, text: string): void;
  /** A person deletes an entry. */
  remove(entryId: string): void;
  entry(entryId: string): Entry | undefined;
  count(): number;
}

const hex = (n: number) => n.toString(16).padStart(32, '0');

export async function startBuilderMock(options: { extraEntries?: number } = {}): Promise<BuilderMock> {
  const publicKey = 'bpk-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
  const privateKey = 'bpk-private-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
  const entries = new Map<string, Entry>();
  const bySeed = new Map<string, string>();
  let clock = Date.UTC(2026, 0, 1);
  const tick = () => (clock = Math.max(clock + 1, Date.now()));
  const add = (name: string, title: string, draft = false) => {
    const id = hex(entries.size + 0xb1d3);
    const at = tick();
    entries.set(id, { id, name, modelId: 'f00dmodel', published: draft ? 'draft' : 'published', createdDate: at, lastUpdated: at, data: { title: { '@type': LOCALIZED_TYPE, Default: title }, slug: name.toLowerCase() } });
    return id;
  };
  for (const [index, s] of SEED.entries()) bySeed.set(s.id, add(s.id, s.source, index === 3));
  for (let i = 0; i < (options.extraEntries ?? 0); i++) add(`extra-${i}`, `Extra article ${i}`);

  const fail = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => sendJson(res, status, { message }, headers);
  const bearerOk = (call: RestCmsCall) => call.authorization === `Bearer ${privateKey}`;
  const titleOf = (entry: Entry) => entry.data.title as Record<string, unknown> | undefined;

  function handle(call: RestCmsCall, res: ServerResponse): unknown {
    const parts = call.url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (call.method === 'POST' && call.url.pathname === '/api/v2/admin') {
      if (!bearerOk(call)) return fail(res, 401, 'Unauthorized: invalid private key');
      const query = (call.body as { query?: string } | undefined)?.query ?? '';
      if (!/\bsettings\b/.test(query)) return sendJson(res, 200, { errors: [{ message: `Cannot query: ${query}` }] });
      return sendJson(res, 200, { data: { settings: { customTargetingAttributes: { locale: { type: 'string', enum: BUILDER_SPACE_LOCALES } }, defaultLocale: 'en-US' } } });
    }
    if (call.method === 'GET' && parts[0] === 'api' && parts[1] === 'v3' && parts[2] === 'content' && parts.length === 4) {
      if (call.query.get('apiKey') !== publicKey) return fail(res, 401, 'Invalid apiKey');
      if (call.authorization !== undefined && !bearerOk(call)) return fail(res, 401, 'Unauthorized: invalid private key');
      const limit = Number(call.query.get('limit') ?? 1);
      const offset = Number(call.query.get('offset') ?? 0);
      if (!(limit >= 0 && limit <= MAX_LIMIT)) return fail(res, 400, `limit must be at most ${MAX_LIMIT}`);
      if (parts[3] !== BUILDER_MODEL) return sendJson(res, 200, { results: [] });
      const drafts = call.query.get('includeUnpublished') === 'true' && bearerOk(call);
      const id = call.query.get('query.id');
      const all = [...entries.values()].filter((e) => (drafts || e.published === 'published') && (id === null || e.id === id)).sort((a, b) => (a.createdDate - b.createdDate) * (call.query.get('sort.createdDate') === '-1' ? -1 : 1));
      return sendJson(res, 200, { results: all.slice(offset, offset + limit).map((e) => structuredClone(e)) });
    }
    if (call.method === 'PATCH' && parts[0] === 'api' && parts[1] === 'v1' && parts[2] === 'write' && parts.length === 5) {
      if (!bearerOk(call)) return fail(res, 401, 'Unauthorized: invalid private key');
      const entry = parts[3] === BUILDER_MODEL ? entries.get(parts[4]!) : undefined;
      if (!entry) return fail(res, 404, `Content ${parts[4]} not found`);
      const data = (call.body as { data?: unknown } | undefined)?.data;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail(res, 400, 'data must be an object');
      for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
        if (typeof value === 'object' && value !== null && (value as Record<string, unknown>)['@type'] === LOCALIZED_TYPE) {
          const unknown = Object.keys(value).filter((k) => k !== '@type' && k !== 'Default' && !BUILDER_SPACE_LOCALES.includes(k));
          if (unknown.length) return fail(res, 400, `Field ${field}: locale ${unknown.join(', ')} is not a locale of this space`);
        }
      }
      entry.data = { ...entry.data, ...(data as Record<string, unknown>) };
      entry.lastUpdated = tick();
      return sendJson(res, 200, structuredClone(entry));
    }
    return fail(res, 404, `Cannot ${call.method} ${call.url.pathname}`);
  }

  const server = await serveRestCms({
    tooManyRequests: (res, headers, seconds) => fail(res, 429, `Too many requests, retry in ${seconds} seconds`, headers),
    internalError: (res, error) => fail(res, 500, `Internal error: ${String(error)}`),
    handle,
  });
  return {
    ...server,
    publicKey,
    privateKey,
    entries: bySeed,
    title(entryId, slot) {
      const value = entries.get(entryId) && titleOf(entries.get(entryId)!)?.[slot];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
    setTitle(entryId, slot, text) {
      const entry = entries.get(entryId)!;
      entry.data = { ...entry.data, title: { ...titleOf(entry), [slot]: text } };
      entry.lastUpdated = tick();
    },
    remove(entryId) {
      entries.delete(entryId);
    },
    entry: (entryId) => entries.get(entryId),
    count: () => entries.size,
  };
}

/** The model webhook Builder sends after a change to an entry, with the custom header the set-up guide adds. */
export function builderWebhook(secret: string | undefined, entry: Entry | undefined, modelName = BUILDER_MODEL): { headers: Record<string, string>; body: string } {
  const body = { newValue: entry ?? null, previousValue: entry ?? null, modelName, operation: 'publish' };
  return { headers: { 'content-type': 'application/json', ...(secret === undefined ? {} : { 'x-parlance-webhook-secret': secret }) }, body: JSON.stringify(body) };
}

export async function builderFixture() {
  const mock = await startBuilderMock();
  const slot = (locale: string) => (locale === 'en' ? 'Default' : (BUILDER_LOCALES[locale as keyof typeof BUILDER_LOCALES] ?? locale));
  const id = (seed: string) => mock.entries.get(seed)!;
  return cmsFixture({
    connector: 'builder',
    settings: { model: BUILDER_MODEL, fields: ['title'], locales: BUILDER_LOCALES, content_api_url: mock.url, write_api_url: mock.url },
    secrets: { public_api_key: mock.publicKey, private_key: mock.privateKey },
    badSecrets: { public_api_key: mock.publicKey, private_key: 'bpk-not-a-private-key' },
    edit: (seed, locale, text) => mock.setTitle(id(seed), slot(locale), text),
    held: (seed, locale) => mock.title(id(seed), slot(locale)),
    sourceCount: () => mock.count(),
    webhook: (seed, secret) => builderWebhook(secret, mock.entry(id(seed))),
    server: mock,
  });
}
