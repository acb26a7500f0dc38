/**
 * A local Shopify Admin GraphQL API (`POST /admin/api/{version}/graphql.json`) holding one shop's locales and
 * translatable resources (products, collections, pages, the online store theme) with their translations in memory.
 *
 * Shapes taken from shopify.dev/docs/api/admin-graphql: queries/translatableResources (cursor connection, `first` ≤
 * 250, `resourceType`), queries/translatableResourcesByIds, objects/TranslatableResource, objects/TranslatableContent
 * (`key`, `value`, `digest`, `locale`, `type`), objects/Translation (`key`, `value`, `locale`, `outdated`,
 * `updatedAt`), enums/TranslatableResourceType (PRODUCT: title, body_html, handle, product_type, meta_title,
 * meta_description; COLLECTION and PAGE alike), enums/LocalizableContentType, mutations/translationsRegister (its
 * example: `translatableContentDigest` beside `locale`, `key`, `value`), objects/TranslationUserError and
 * enums/TranslationErrorCode (RESOURCE_NOT_FOUND, INVALID_KEY_FOR_MODEL, INVALID_LOCALE_FOR_SHOP,
 * INVALID_TRANSLATABLE_CONTENT, BLANK), queries/shopLocales and objects/ShopLocale (`locale`, `name`, `primary`,
 * `published`), mutations/shopLocaleEnable (new locales unpublished, `write_locales` scope); shopify.dev/docs/api/usage/
 * limits and the community thread "GraphQL Admin API example throttled requests response" (HTTP 200, `errors:
 * [{message: "Throttled", extensions: {code: "THROTTLED"}}]`, `extensions.cost.{requestedQueryCost, actualQueryCost,
 * throttleStatus: {maximumAvailable, currentlyAvailable, restoreRate}}` on every answer); shopify.dev/docs/apps/build/
 * webhooks/verify-deliveries (X-Shopify-Hmac-SHA256, base64 HMAC-SHA256 of the raw body with the app's client secret;
 * X-Shopify-Topic, X-Shopify-Shop-Domain, X-Shopify-Webhook-Id, X-Shopify-Triggered-At headers).
 *
 * Guessed, not documented: the digest is the hex SHA-256 of the value (Shopify calls it only a "hash digest"); the query
 * cost is simplified to 2 + `first` for a page (Shopify's rule for a connection), 1 for shopLocales and 10 for a mutation, and the bucket (2000 points,
 * 100 restored a second) is Shopify's standard plan; the 401 body `{"errors": "[API] Invalid API key or access token
 * (unrecognized login or wrong password)"}` is the one Shopify is widely seen to send; ACCESS_DENIED's message and
 * `requiredAccess` extension; translationsRegister refusing the whole call when any translation has a user error, each
 * error's `field` being ["translations", "<index>", "<field>"]; the wording of user error messages; the cursor format
 * (opaque to clients anyway); the products/update webhook body beyond `id`, `title`, `body_html`, `handle`,
 * `updated_at`.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface ShopifyRequest extends MockRequest {
  token: string | undefined;
}

interface Field {
  value: string;
  type: string;
}
interface StoredTranslation {
  value: string;
  /** The digest of the source when it was registered: another one now means `outdated`. */
  digest: string;
  updatedAt: string;
}
interface Resource {
  gid: string;
  type: string;
  fields: Map<string, Field>;
  /** Shop locale → field key → translation. */
  translations: Map<string, Map<string, StoredTranslation>>;
}
interface Locale {
  locale: string;
  name: string;
  primary: boolean;
  published: boolean;
}

export interface ShopifyMockOptions {
  /** Adds this many extra products (title, body_html, meta_title, handle) after the SEED ones. */
  extraProducts?: number;
  /** Adds a collection, a page and the theme with a few strings. */
  moreContent?: boolean;
  /** The access scopes the token has (default: everything but write_locales). */
  scopes?: string[];
  /** The shop's secondary locales (default de, fr). */
  locales?: string[];
  /** The cost bucket (default 2000 points, 100 a second). */
  bucket?: { maximum: number; restoreRate: number };
}

export interface ShopifyMock extends RecordingServer<ShopifyRequest> {
  /** The shop_url setting. */
  url: string;
  token: string;
  apiVersion: string;
  shopDomain: string;
  /** The gid of the product holding a SEED string as its title. */
  seedProduct(id: string): string;
  /** A resource's source field value. */
  value(gid: string, key: string): string | undefined;
  /** A resource's translation in a shop locale (undefined when none), and whether it is outdated. */
  translation(gid: string, locale: string, key: string): { value: string; outdated: boolean } | undefined;
  /** A person edits a source field (locale = primary) or a translation, in Shopify's admin. */
  edit(gid: string, locale: string, key: string, text: string): void;
  /** A resource is deleted in Shopify. */
  remove(gid: string): void;
  /** The shop's locale codes (primary first). */
  shopLocales(): string[];
  /** The bucket is drained before the next `count` queries (so they are answered THROTTLED until it refills). */
  throttleNext(count?: number): void;
  /** How many answers were THROTTLED (HTTP 200 with the THROTTLED error). */
  throttledAnswers: number;
  /** The products/update notification Shopify sends, signed with `secret`. */
  notification(secret: string, gid: string, options?: { topic?: string; updatedAt?: string; shopDomain?: string }): { headers: Record<string, string>; body: string };
}

const TOKEN = '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';
const API_VERSION = '2025-07';
const SHOP_DOMAIN = 'parlance-test.myshopify.com';
const ALL_SCOPES = ['read_translations', 'write_translations', 'read_locales', 'read_products', 'read_content', 'read_online_store_pages', 'read_themes'];
const LOCALE_NAMES: Record<string, string> = { en: 'English', de: 'German', fr: 'French', ja: 'Japanese', es: 'Spanish', 'pt-BR': 'Portuguese (Brazil)', it: 'Italian' };
const digestOf = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const UNAUTHORIZED = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };

function product(gid: string, title: string, extra: Record<string, Field> = {}): Resource {
  const handle = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const fields = new Map<string, Field>([
    ['title', { value: title, type: 'STRING' }],
    ['body_html', { value: '', type: 'HTML' }],
    ['handle', { value: handle, type: 'URI' }],
    ['product_type', { value: '', type: 'STRING' }],
    ['meta_title', { value: '', type: 'STRING' }],
    ['meta_description', { value: '', type: 'STRING' }],
  ]);
  for (const [key, field] of Object.entries(extra)) fields.set(key, field);
  return { gid, type: 'PRODUCT', fields, translations: new Map() };
}

function seedResources(options: ShopifyMockOptions): Resource[] {
  const resources = SEED.map((s, i) => product(`gid://shopify/Product/${8_100_000_001 + i}`, s.source));
  for (let i = 1; i <= (options.extraProducts ?? 0); i++) {
    resources.push(
      product(`gid://shopify/Product/${8_200_000_000 + i}`, `Extra product ${i}`, {
        body_html: { value: `<p>About <strong>product ${i}</strong></p>`, type: 'HTML' },
        meta_title: { value: `Buy product ${i}`, type: 'STRING' },
      }),
    );
  }
  if (options.moreContent) {
    resources.push({
      gid: 'gid://shopify/Collection/4100000001',
      type: 'COLLECTION',
      fields: new Map([
        ['title', { value: 'Summer sale', type: 'STRING' }],
        ['body_html', { value: '<p>Everything for the beach</p>', type: 'HTML' }],
        ['handle', { value: 'summer-sale', type: 'URI' }],
        ['meta_description', { value: 'Beachwear and more, up to 50% off.', type: 'STRING' }],
      ]),
      translations: new Map(),
    });
    resources.push({
      gid: 'gid://shopify/Page/9100000001',
      type: 'PAGE',
      fields: new Map([
        ['title', { value: 'About us', type: 'STRING' }],
        ['body_html', { value: '<p>We sell shoes.</p>', type: 'HTML' }],
        ['handle', { value: 'about-us', type: 'URI' }],
      ]),
      translations: new Map(),
    });
    resources.push({
      gid: 'gid://shopify/OnlineStoreTheme/130000000001',
      type: 'ONLINE_STORE_THEME',
      fields: new Map([
        ['general.cart.empty', { value: 'Your cart is currently empty.', type: 'STRING' }],
        ['section.header.announcement', { value: 'Free shipping over $50', type: 'STRING' }],
        ['section.footer.newsletter_link', { value: 'https://example.com/newsletter', type: 'URL' }],
      ]),
      translations: new Map(),
    });
  }
  return resources;
}

/** The aliases of `translations(locale: "…")` in a query: alias → locale. */
function translationAliases(query: string): [string, string][] {
  return [...query.matchAll(/(\w+)\s*:\s*translations\(\s*locale:\s*"([^"]*)"\s*\)/g)].map((m) => [m[1]!, m[2]!]);
}

export async function startShopifyMock(options: ShopifyMockOptions = {}): Promise<ShopifyMock> {
  const resources = seedResources(options);
  const byGid = new Map(resources.map((r) => [r.gid, r]));
  const scopes = new Set(options.scopes ?? ALL_SCOPES);
  const locales: Locale[] = [{ locale: 'en', name: 'English', primary: true, published: true }, ...(options.locales ?? ['de', 'fr']).map((l) => ({ locale: l, name: LOCALE_NAMES[l] ?? l, primary: false, published: true }))];
  const bucket = { maximum: options.bucket?.maximum ?? 2000, restoreRate: options.bucket?.restoreRate ?? 100, available: options.bucket?.maximum ?? 2000, at: Date.now() };
  const throttled = new Armed<true>();
  let clock = Date.parse('2026-11-02T09:00:00Z');
  const tick = () => new Date((clock += 1000)).toISOString();

  function refill(): void {
    const now = Date.now();
    bucket.available = Math.min(bucket.maximum, bucket.available + ((now - bucket.at) / 1000) * bucket.restoreRate);
    bucket.at = now;
  }
  const throttleStatus = () => ({ maximumAvailable: bucket.maximum, currentlyAvailable: Math.floor(bucket.available), restoreRate: bucket.restoreRate });

  function contentOf(resource: Resource) {
    return [...resource.fields].map(([key, f]) => ({ key, value: f.value === '' ? null : f.value, digest: f.value === '' ? null : digestOf(f.value), locale: 'en', type: f.type }));
  }
  function translationsOf(resource: Resource, locale: string) {
    return [...(resource.translations.get(locale) ?? new Map<string, StoredTranslation>())].map(([key, t]) => ({ key, value: t.value, locale, outdated: t.digest !== digestOf(resource.fields.get(key)?.value ?? ''), updatedAt: t.updatedAt }));
  }
  function node(resource: Resource, aliases: [string, string][]) {
    return { resourceId: resource.gid, translatableContent: contentOf(resource), ...Object.fromEntries(aliases.map(([alias, locale]) => [alias, translationsOf(resource, locale)])) };
  }
  const cursorOf = (index: number) => Buffer.from(JSON.stringify({ last_id: index })).toString('base64');
  const indexOf = (cursor: string) => (JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { last_id: number }).last_id;

  function accessDenied(field: string, scope: string) {
    return { message: `Access denied for ${field} field. Required access: \`${scope}\` access scope.`, locations: [{ line: 1, column: 1 }], path: [field], extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: `\`${scope}\` access scope.` } };
  }

  /** Answers one GraphQL operation: `[data, errors, cost]`. */
  function operate(query: string, variables: Record<string, unknown>): [Record<string, unknown> | null, unknown[] | undefined, number] {
    const aliases = translationAliases(query);
    if (/\bshopLocaleEnable\s*\(/.test(query)) {
      if (!scopes.has('write_locales')) return [{ shopLocaleEnable: null }, [accessDenied('shopLocaleEnable', 'write_locales')], 10];
      const code = String(variables.locale ?? '');
      if (!LOCALE_NAMES[code]) return [{ shopLocaleEnable: { shopLocale: null, userErrors: [{ field: ['locale'], message: 'Locale is invalid' }] } }, undefined, 10];
      let found = locales.find((l) => l.locale === code);
      if (!found) locales.push((found = { locale: code, name: LOCALE_NAMES[code]!, primary: false, published: false }));
      return [{ shopLocaleEnable: { shopLocale: found, userErrors: [] } }, undefined, 10];
    }
    if (/\bshopLocales\b/.test(query)) {
      if (!scopes.has('read_locales')) return [null, [accessDenied('shopLocales', 'read_locales')], 1];
      return [{ shopLocales: locales }, undefined, 1];
    }
    if (/\btranslationsRegister\s*\(/.test(query)) {
      if (!scopes.has('write_translations')) return [{ translationsRegister: null }, [accessDenied('translationsRegister', 'write_translations')], 10];
      return [{ translationsRegister: registerTranslations(String(variables.resourceId ?? ''), (variables.translations ?? []) as Record<string, unknown>[]) }, undefined, 10];
    }
    if (!scopes.has('read_translations')) return [null, [accessDenied('translatableResources', 'read_translations')], 1];
    const first = Number(variables.first);
    if (!Number.isInteger(first) || first < 1 || first > 250) {
      return [null, [{ message: 'The first argument must be between 1 and 250.', extensions: { code: 'BAD_REQUEST' } }], 1];
    }
    const cost = 2 + first;
    if (/\btranslatableResourcesByIds\s*\(/.test(query)) {
      const ids = (variables.resourceIds ?? []) as string[];
      const nodes = ids.flatMap((id) => (byGid.has(id) ? [node(byGid.get(id)!, aliases)] : [])).slice(0, first);
      return [{ translatableResourcesByIds: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } }, undefined, cost];
    }
    if (/\btranslatableResources\s*\(/.test(query)) {
      const type = String(variables.resourceType ?? '');
      const all = resources.filter((r) => r.type === type);
      const start = typeof variables.after === 'string' ? indexOf(variables.after) + 1 : 0;
      const page = all.slice(start, start + first);
      const hasNextPage = start + first < all.length;
      return [{ translatableResources: { edges: page.map((r, i) => ({ cursor: cursorOf(start + i), node: node(r, aliases) })), pageInfo: { hasNextPage, endCursor: page.length ? cursorOf(start + page.length - 1) : null } } }, undefined, cost];
    }
    return [null, [{ message: "Field 'unknown' doesn't exist on type 'QueryRoot'", extensions: { code: 'undefinedField' } }], 0];
  }

  function registerTranslations(gid: string, inputs: Record<string, unknown>[]) {
    const resource = byGid.get(gid);
    if (!resource) return { translations: null, userErrors: [{ field: ['resourceId'], message: `Resource ${gid} does not exist`, code: 'RESOURCE_NOT_FOUND' }] };
    const userErrors: { field: string[]; message: string; code: string }[] = [];
    inputs.forEach((input, i) => {
      const at = (field: string) => ['translations', String(i), field];
      const locale = locales.find((l) => l.locale === input.locale);
      const field = resource.fields.get(String(input.key));
      if (!locale || locale.primary) userErrors.push({ field: at('locale'), message: `Locale ${String(input.locale)} is not enabled for this shop`, code: 'INVALID_LOCALE_FOR_SHOP' });
      else if (!field) userErrors.push({ field: at('key'), message: `Key ${String(input.key)} is not a valid translatable field`, code: 'INVALID_KEY_FOR_MODEL' });
      else if (typeof input.value !== 'string' || input.value === '') userErrors.push({ field: at('value'), message: "Value can't be blank", code: 'BLANK' });
      else if (input.translatableContentDigest !== digestOf(field.value)) userErrors.push({ field: at('translatableContentDigest'), message: 'Translatable content hash is invalid', code: 'INVALID_TRANSLATABLE_CONTENT' });
    });
    if (userErrors.length > 0) return { translations: null, userErrors };
    const saved = inputs.map((input) => {
      const locale = String(input.locale);
      const key = String(input.key);
      const map = resource.translations.get(locale) ?? new Map<string, StoredTranslation>();
      resource.translations.set(locale, map);
      map.set(key, { value: String(input.value), digest: String(input.translatableContentDigest), updatedAt: tick() });
      return { key, locale, value: String(input.value) };
    });
    return { translations: saved, userErrors: [] };
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    const send = (status: number, payload: unknown) => sendJson(res, status, payload, { 'x-request-id': randomUUID() });
    if (url.pathname !== `/admin/api/${API_VERSION}/graphql.json`) return send(404, { errors: 'Not Found' });
    if (req.headers['x-shopify-access-token'] !== TOKEN) return send(401, UNAUTHORIZED);
    if (req.method !== 'POST') return send(405, { errors: 'Method Not Allowed' });
    const request = body as { query?: unknown; variables?: Record<string, unknown> } | undefined;
    if (!request || typeof request.query !== 'string' || request.query.trim() === '') return send(400, { errors: { query: 'Required parameter missing or invalid' } });
    refill();
    const [data, errors, cost] = operate(request.query, request.variables ?? {});
    // An armed throttle drains the bucket (as another client of the same app would), so the answer is Shopify's own.
    if (throttled.take()) bucket.available = 0;
    if (cost > bucket.available) {
      mock.throttledAnswers++;
      return send(200, { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/limits#rate-limits' } }], extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: throttleStatus() } } });
    }
    bucket.available -= cost;
    send(200, { ...(data !== null ? { data } : { data: null }), ...(errors ? { errors } : {}), extensions: { cost: { requestedQueryCost: cost, actualQueryCost: cost, throttleStatus: throttleStatus() } } });
  }

  const server = await serveRecording(handle, { extra: (req) => ({ token: req.headers['x-shopify-access-token'] as string | undefined }) });
  const find = (gid: string) => {
    const r = byGid.get(gid);
    if (!r) throw new Error(`Shopify mock: no resource ${gid}`);
    return r;
  };

  const mock: ShopifyMock = {
    ...server,
    throttledAnswers: 0,
    token: TOKEN,
    apiVersion: API_VERSION,
    shopDomain: SHOP_DOMAIN,
    seedProduct(id) {
      const index = SEED.findIndex((s) => s.id === id);
      if (index < 0) throw new Error(`Shopify mock: no seed string '${id}'`);
      return `gid://shopify/Product/${8_100_000_001 + index}`;
    },
    value: (gid, key) => byGid.get(gid)?.fields.get(key)?.value,
    translation(gid, locale, key) {
      const r = byGid.get(gid);
      const t = r?.translations.get(locale)?.get(key);
      return r && t ? { value: t.value, outdated: t.digest !== digestOf(r.fields.get(key)?.value ?? '') } : undefined;
    },
    edit(gid, locale, key, text) {
      const r = find(gid);
      if (locale === 'en') {
        r.fields.set(key, { ...(r.fields.get(key) ?? { type: 'STRING' }), value: text });
        return;
      }
      const field = r.fields.get(key);
      if (!field) throw new Error(`Shopify mock: ${gid} has no field ${key}`);
      const map = r.translations.get(locale) ?? new Map<string, StoredTranslation>();
      r.translations.set(locale, map);
      // Shopify's admin (Translate & Adapt) registers against the source as it is now.
      map.set(key, { value: text, digest: digestOf(field.value), updatedAt: tick() });
    },
    remove(gid) {
      find(gid);
      byGid.delete(gid);
      resources.splice(resources.findIndex((r) => r.gid === gid), 1);
    },
    shopLocales: () => locales.map((l) => l.locale),
    throttleNext: (count = 1) => throttled.arm(true, count),
    notification(secret, gid, opts = {}) {
      const r = byGid.get(gid);
      const id = Number(gid.slice(gid.lastIndexOf('/') + 1));
      const updatedAt = opts.updatedAt ?? new Date().toISOString();
      const payload = opts.topic === 'products/delete' ? { id } : { admin_graphql_api_id: gid, id, title: r?.fields.get('title')?.value ?? '', body_html: r?.fields.get('body_html')?.value ?? '', handle: r?.fields.get('handle')?.value ?? '', vendor: 'Parlance Test', product_type: '', status: 'active', created_at: '2026-10-01T10:00:00-04:00', updated_at: updatedAt, variants: [], options: [], images: [] };
      const body = JSON.stringify(payload);
      return {
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': opts.topic ?? 'products/update',
          'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body, 'utf8').digest('base64'),
          'x-shopify-shop-domain': opts.shopDomain ?? SHOP_DOMAIN,
          'x-shopify-api-version': API_VERSION,
          'x-shopify-webhook-id': randomUUID(),
          'x-shopify-event-id': randomUUID(),
          'x-shopify-triggered-at': updatedAt,
        },
        body,
      };
    },
  };
  return mock;
}

/** The acceptance scenario's view of the mock: SEED strings are the titles of four products; the shop has de and fr. */
export async function shopifyFixture(): Promise<RemoteFixture> {
  const mock = await startShopifyMock();
  return cmsFixture({
    connector: 'shopify',
    settings: { shop_url: mock.url, api_version: mock.apiVersion },
    secrets: { access_token: mock.token },
    badSecrets: { access_token: 'shpat_00000000000000000000000000000000' },
    edit: (id, locale, text) => mock.edit(mock.seedProduct(id), locale, 'title', text),
    // An outdated translation is Shopify's "needs updating", not a current translation.
    held: (id, locale) => {
      const t = mock.translation(mock.seedProduct(id), locale, 'title');
      return t && !t.outdated ? t.value : undefined;
    },
    sourceCount: () => SEED.filter((s) => mock.value(mock.seedProduct(s.id), 'title') !== undefined).length,
    webhook: (id, secret) => mock.notification(secret, mock.seedProduct(id)),
    server: mock,
  });
}
