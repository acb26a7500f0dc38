/**
 * A local Webflow Data API v2 (with Localization) holding one site, its locales, collections and items in memory.
 *
 * Shapes taken from: the official SDK webflow/js-webflow-api (src/api/types/{Site,Locales,Locale,Collection,
 * CollectionList,Field,FieldType,CollectionItem,CollectionItemList,Pagination,CollectionItemWithIdInput,ErrorCode}.ts,
 * src/api/resources/collections/resources/items/client/requests/ItemsUpdateItemsRequest.ts and
 * src/wrapper/WebhooksClient.ts for the signature); developers.webflow.com/data/reference/cms/collection-items/
 * staged-items/list-items (`cmsLocaleId`, `offset`, `limit` ≤ 100), /data/v2.0.0/reference/error-handling (error body
 * `{message, code, externalReference, details}`, 404 "Requested resource not found: The site cannot be found"),
 * /data/reference/rate-limits (429 with Retry-After, X-RateLimit-Limit and X-RateLimit-Remaining on every answer,
 * body "Too Many Requests"/too_many_requests), /data/reference/webhooks/events/collection-item-changed (`triggerType`,
 * `payload` with id, siteId, workspaceId, collectionId, cmsLocaleId, fieldData…) and /data/docs/working-with-webhooks
 * (x-webflow-timestamp in epoch milliseconds, x-webflow-signature = hex HMAC-SHA256 of "<timestamp>:<body>").
 * The 401 body's message text is not in Webflow's reference; its code `not_authorized` is.
 * Retry-After is 1 s here (Webflow's is typically 60) so that the test waits it out quickly.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface WebflowRequest extends MockRequest {
  authorization: string | undefined;
}

interface Field {
  id: string;
  isRequired: boolean;
  isEditable: boolean;
  type: string;
  slug: string;
  displayName: string;
  helpText?: string;
  validations?: Record<string, unknown> | null;
}
interface Collection {
  id: string;
  displayName: string;
  singularName: string;
  slug: string;
  fields: Field[];
  /** Item id → cmsLocaleId → the variant. */
  items: Map<string, Map<string, Item>>;
}
interface Item {
  id: string;
  cmsLocaleId: string;
  lastPublished: string | null;
  lastUpdated: string;
  createdOn: string;
  isArchived: boolean;
  isDraft: boolean;
  fieldData: Record<string, unknown>;
}

export interface WebflowMockOptions {
  /** The most items one page gives, whatever `limit` asks (Webflow's ceiling is 100). */
  itemsPerPage?: number;
  /** Adds a "Blog posts" collection of this many items (PlainText name and summary, RichText body, Switch featured). */
  blogPosts?: number;
}

export interface WebflowMock extends RecordingServer<WebflowRequest> {
  token: string;
  siteId: string;
  /** The seed collection ("Store messages") and the blog collection, when there is one. */
  storeId: string;
  blogId: string;
  workspaceId: string;
  locales: { primary: string; de: string; fr: string };
  /** The next `count` requests answer 429 as Webflow's rate limit does. */
  rateLimitNext(count?: number): void;
  /** A field value of an item in a locale ('en', 'de', 'fr'). */
  value(collectionId: string, itemId: string, locale: 'en' | 'de' | 'fr', field: string): unknown;
  /** A person edits a field in Webflow (any locale). */
  edit(collectionId: string, itemId: string, locale: 'en' | 'de' | 'fr', field: string, text: string): void;
  /** The item id holding a SEED string. */
  seedItem(id: string): string;
  /** The notification Webflow sends after an item change, signed with `secret`, timestamped `at` (epoch ms). */
  notification(secret: string, itemId: string, options?: { at?: number; triggerType?: string; collectionId?: string }): { headers: Record<string, string>; body: string };
}

const TOKEN = 'a6f39e1c0b7d4e2f98c5d1a3b7e6f0c2d4a8b9e1f3c5d7a9b0c2e4f6a8d0b2c4';
/** Webflow ids are 24 hex digits (Mongo object ids). */
const hexId = (prefix: string, n: number) => prefix + n.toString(16).padStart(24 - prefix.length, '0');
const SITE_ID = '6258612d1ee792848f805dcf';
const WORKSPACE_ID = '63499d0dd2f3b4e46108efa3';
const CMS = { en: '66f6e966c9e1dc700a857ca3', de: '66f6e966c9e1dc700a857ca4', fr: '66f6e966c9e1dc700a857ca5' } as const;
const LOCALE_BY_CMS = new Map<string, 'en' | 'de' | 'fr'>(Object.entries(CMS).map(([tag, cms]) => [cms, tag as 'en' | 'de' | 'fr']));

function error(message: string, code: string) {
  return { message, code, externalReference: null, details: [] };
}

function nameAndSlugFields(prefix: string): Field[] {
  return [
    { id: hexId(prefix, 1), isRequired: true, isEditable: true, type: 'PlainText', slug: 'name', displayName: 'Name', validations: { maxLength: 256 } },
    { id: hexId(prefix, 2), isRequired: true, isEditable: true, type: 'PlainText', slug: 'slug', displayName: 'Slug', validations: { maxLength: 256, pattern: '^[a-z0-9-]+$' } },
  ];
}

/** One item in every locale: Webflow gives a secondary locale the primary's content until someone localizes it. */
function localizedItem(id: string, fieldData: Record<string, unknown>, stamp: string): Map<string, Item> {
  const variants = new Map<string, Item>();
  for (const cms of Object.values(CMS)) variants.set(cms, { id, cmsLocaleId: cms, lastPublished: null, lastUpdated: stamp, createdOn: stamp, isArchived: false, isDraft: false, fieldData: structuredClone(fieldData) });
  return variants;
}

function seedCollections(options: WebflowMockOptions, stamp: string): Collection[] {
  const store: Collection = {
    id: '6390c49774a71f0e3c1a3a01',
    displayName: 'Store messages',
    singularName: 'Store message',
    slug: 'store-messages',
    fields: [...nameAndSlugFields('6390c49774a71f0e3c1b'), { id: '6390c49774a71f0e3c1b0003', isRequired: false, isEditable: true, type: 'Option', slug: 'tone', displayName: 'Tone', validations: { options: [{ name: 'Friendly', id: 'f1' }] } }],
    items: new Map(),
  };
  SEED.forEach((s, i) => store.items.set(hexId('6390c4a1', i + 1), localizedItem(hexId('6390c4a1', i + 1), { name: s.source, slug: s.id, tone: 'f1' }, stamp)));
  const collections = [store];
  if (options.blogPosts) {
    const blog: Collection = {
      id: '6390c49774a71f0e3c1a3a02',
      displayName: 'Blog posts',
      singularName: 'Blog post',
      slug: 'blog-posts',
      fields: [
        ...nameAndSlugFields('6390c49774a71f0e3c1c'),
        { id: '6390c49774a71f0e3c1c0003', isRequired: false, isEditable: true, type: 'PlainText', slug: 'summary', displayName: 'Summary', helpText: 'Shown on cards', validations: { maxLength: 140, singleLine: true } },
        { id: '6390c49774a71f0e3c1c0004', isRequired: false, isEditable: true, type: 'RichText', slug: 'post-body', displayName: 'Post body', validations: null },
        { id: '6390c49774a71f0e3c1c0005', isRequired: false, isEditable: true, type: 'Switch', slug: 'featured', displayName: 'Featured', validations: null },
      ],
      items: new Map(),
    };
    for (let i = 1; i <= options.blogPosts; i++) {
      const id = hexId('6390c4b2', i);
      blog.items.set(id, localizedItem(id, { name: `Post ${i}`, slug: `post-${i}`, summary: i % 10 === 0 ? '' : `Summary of post ${i}`, 'post-body': `<p>Body of <strong>post ${i}</strong></p>`, featured: i % 2 === 0 }, stamp));
    }
    // One archived post: not on the site, so not translated.
    const archived = blog.items.get(hexId('6390c4b2', 1));
    if (archived) for (const v of archived.values()) v.isArchived = true;
    collections.push(blog);
  }
  return collections;
}

export async function startWebflowMock(options: WebflowMockOptions = {}): Promise<WebflowMock> {
  const perPage = Math.min(options.itemsPerPage ?? 100, 100);
  let clock = Date.parse('2026-11-02T09:00:00.000Z');
  const tick = () => new Date((clock += 1000)).toISOString();
  const collections = seedCollections(options, tick());
  const rateLimited = new Armed<true>();

  const site = {
    id: SITE_ID,
    workspaceId: WORKSPACE_ID,
    createdOn: '2024-02-21T10:00:00.000Z',
    displayName: 'Parlance Store',
    shortName: 'parlance-store',
    lastPublished: '2026-10-30T12:00:00.000Z',
    lastUpdated: '2026-10-30T12:00:00.000Z',
    previewUrl: 'https://screenshots.webflow.com/sites/6258612d1ee792848f805dcf/20231219211811_d5990556c743f33b7071300a03bf67e6.png',
    timeZone: 'Europe/Berlin',
    parentFolderId: null,
    customDomains: [],
    locales: {
      primary: { id: '653fd9af6a07fc9cfd7a5e57', cmsLocaleId: CMS.en, enabled: true, displayName: 'English', displayImageId: null, redirect: false, subdirectory: '', tag: 'en' },
      secondary: [
        { id: '653fd9af6a07fc9cfd7a5e58', cmsLocaleId: CMS.de, enabled: true, displayName: 'German', displayImageId: null, redirect: true, subdirectory: 'de', tag: 'de' },
        { id: '653fd9af6a07fc9cfd7a5e59', cmsLocaleId: CMS.fr, enabled: true, displayName: 'French (France)', displayImageId: null, redirect: true, subdirectory: 'fr', tag: 'fr-FR' },
      ],
    },
    dataCollectionEnabled: false,
  };

  const collectionSummary = (c: Collection) => ({ id: c.id, displayName: c.displayName, singularName: c.singularName, slug: c.slug, createdOn: '2024-02-21T10:00:00.000Z', lastUpdated: '2026-10-30T12:00:00.000Z' });

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => sendJson(res, status, payload, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': status === 429 ? '0' : '59', ...headers });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, error('Request not authorized', 'not_authorized'));
    if (rateLimited.take()) {
      return send(429, error('Too Many Requests', 'too_many_requests'), { 'retry-after': '1' });
    }
    const path = url.pathname.replace(/^\/v2/, '');
    const siteMatch = path.match(/^\/sites\/([^/]+)(\/collections)?$/);
    if (siteMatch && req.method === 'GET') {
      if (siteMatch[1] !== SITE_ID) return send(404, error('Requested resource not found: The site cannot be found', 'resource_not_found'));
      return siteMatch[2] ? send(200, { collections: collections.map(collectionSummary) }) : send(200, site);
    }
    const collectionMatch = path.match(/^\/collections\/([^/]+)/);
    const collection = collectionMatch ? collections.find((c) => c.id === collectionMatch[1]) : undefined;
    if (collectionMatch && !collection) return send(404, error('Requested resource not found: Collection not found', 'collection_not_found'));
    if (collection && path === `/collections/${collection.id}` && req.method === 'GET') return send(200, { ...collectionSummary(collection), fields: collection.fields });
    if (collection && path === `/collections/${collection.id}/items` && req.method === 'GET') return listItems(collection, url, send);
    if (collection && path === `/collections/${collection.id}/items` && req.method === 'PATCH') return updateItems(collection, body, send);
    return send(404, error(`Requested resource not found: ${req.method} ${url.pathname}`, 'resource_not_found'));
  }

  function listItems(collection: Collection, url: URL, send: (status: number, payload: unknown) => void): void {
    const cms = url.searchParams.get('cmsLocaleId') ?? CMS.en;
    if (!LOCALE_BY_CMS.has(cms)) return send(400, error(`Validation Error: cmsLocaleId '${cms}' is not a locale of this site`, 'validation_error'));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), perPage);
    const all = [...collection.items.values()].map((variants) => variants.get(cms)!);
    send(200, { items: all.slice(offset, offset + limit), pagination: { limit, offset, total: all.length } });
  }

  function updateItems(collection: Collection, body: unknown, send: (status: number, payload: unknown) => void): void {
    const items = (body as { items?: { id: string; cmsLocaleId?: string; fieldData?: Record<string, unknown> }[] })?.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > 100) return send(400, error('Validation Error: items must hold 1 to 100 items', 'validation_error'));
    const updated: Item[] = [];
    for (const change of items) {
      const variant = collection.items.get(change.id)?.get(change.cmsLocaleId ?? CMS.en);
      if (!variant) return send(404, error(`Requested resource not found: Item ${change.id} not found`, 'item_not_found'));
      for (const [slug, value] of Object.entries(change.fieldData ?? {})) {
        const field = collection.fields.find((f) => f.slug === slug);
        if (!field) return send(400, error(`Validation Error: field '${slug}' is not in the collection`, 'validation_error'));
        const max = field.validations?.maxLength;
        if (typeof max === 'number' && typeof value === 'string' && value.length > max) return send(400, error(`Validation Error: '${slug}' is longer than ${max} characters`, 'validation_error'));
      }
      Object.assign(variant.fieldData, change.fieldData);
      variant.lastUpdated = tick();
      updated.push(variant);
    }
    send(200, { items: updated });
  }

  const server = await serveRecording(handle, { extra: (req) => ({ authorization: req.headers.authorization }) });
  const store = collections[0]!;
  const variant = (collectionId: string, itemId: string, locale: 'en' | 'de' | 'fr') => {
    const found = collections.find((c) => c.id === collectionId)?.items.get(itemId)?.get(CMS[locale]);
    if (!found) throw new Error(`Webflow mock: no item ${itemId} in ${collectionId} (${locale})`);
    return found;
  };

  return {
    ...server,
    url: `${server.url}/v2`,
    token: TOKEN,
    siteId: SITE_ID,
    storeId: store.id,
    blogId: collections[1]?.id ?? '',
    workspaceId: WORKSPACE_ID,
    locales: { primary: CMS.en, de: CMS.de, fr: CMS.fr },
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    value: (collectionId, itemId, locale, field) => variant(collectionId, itemId, locale).fieldData[field],
    edit(collectionId, itemId, locale, field, text) {
      const v = variant(collectionId, itemId, locale);
      v.fieldData[field] = text;
      v.lastUpdated = tick();
    },
    seedItem(id) {
      const index = SEED.findIndex((s) => s.id === id);
      if (index < 0) throw new Error(`Webflow mock: no seed string '${id}'`);
      return hexId('6390c4a1', index + 1);
    },
    notification(secret, itemId, opts = {}) {
      const collectionId = opts.collectionId ?? store.id;
      const found = collections.find((c) => c.id === collectionId)?.items.get(itemId)?.get(CMS.en);
      const payload = { triggerType: opts.triggerType ?? 'collection_item_changed', payload: { id: itemId, siteId: SITE_ID, workspaceId: WORKSPACE_ID, collectionId, cmsLocaleId: CMS.en, lastPublished: found?.lastPublished ?? null, lastUpdated: found?.lastUpdated ?? tick(), createdOn: found?.createdOn ?? tick(), isArchived: false, isDraft: false, fieldData: found?.fieldData ?? {} } };
      const body = JSON.stringify(payload);
      const timestamp = String(opts.at ?? Date.now());
      const signature = createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('hex');
      return { headers: { 'content-type': 'application/json', 'x-webflow-timestamp': timestamp, 'x-webflow-signature': signature }, body };
    },
  };
}

/** Webflow's locale of a Parlance locale in the seed site: en (primary), de and fr (fr-FR, by the `locales` setting). */
function siteLocale(locale: string): 'en' | 'de' | 'fr' {
  if (locale !== 'en' && locale !== 'de' && locale !== 'fr') throw new Error(`Webflow mock: the site has no locale '${locale}'`);
  return locale;
}

/** The acceptance scenario's view of the mock: SEED strings are the `name` field of the "Store messages" items. */
export async function webflowFixture(): Promise<RemoteFixture> {
  const mock = await startWebflowMock();
  const name = (id: string, locale: 'en' | 'de' | 'fr') => mock.value(mock.storeId, mock.seedItem(id), locale, 'name');
  return cmsFixture({
    connector: 'webflow',
    settings: { api_url: mock.url, site_id: mock.siteId, locales: { fr: 'fr-FR' } },
    secrets: { token: mock.token },
    badSecrets: { token: 'revoked-0000000000000000000000000000000000000000000000000000000000' },
    edit: (id, locale, text) => mock.edit(mock.storeId, mock.seedItem(id), siteLocale(locale), 'name', text),
    // Not localized yet: the variant still holds the primary's text.
    held: (id, locale) => (locale === 'de' || locale === 'fr') && name(id, locale) !== name(id, 'en') ? name(id, locale) : undefined,
    sourceCount: () => SEED.filter((s) => typeof name(s.id, 'en') === 'string').length,
    webhook: (id, secret) => mock.notification(secret, mock.seedItem(id)),
    server: mock,
  });
}
