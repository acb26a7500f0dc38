/**
 * Shopify as a two-way content connector, through the Admin GraphQL API's translation surface: `translatableResources`
 * lists, per resource type (products, collections, pages, the online store theme's strings by default), each
 * resource's `translatableContent` (a field key, its value in the shop's primary locale, its `digest` and its content
 * type) together with the `translations` already held in each mapped shop locale; translations go back with
 * `translationsRegister`, one call per resource, each value carrying the `translatableContentDigest` of the source it
 * translates (Shopify refuses a digest that is not the current one). Locales are the shop's `shopLocales`; a target
 * locale the shop has not enabled is enabled with `shopLocaleEnable` (unpublished: buyers do not see it until someone
 * publishes it) when the token may, and is otherwise named once in the sync's log.
 *
 * A string's key is `<resource's numeric id>.<field key>` (`8123456789.title`, `1234.general.cart.empty` for the
 * theme); one unit per resource type (`products`, `collections`, `pages`, `theme`, …). The `handle` (a URL part with
 * its own rules) and values that are not text people read (URLs, JSON, file references, lists) do not come across. A
 * translation Shopify flags `outdated` (its source changed since it was written) counts as no translation, so it is
 * neither imported nor kept: it is replaced with the new source's translation. Before a write, the resources are read
 * again: a value a person changed in Shopify since the listing is left as it is (the next sync imports it as theirs),
 * and a field whose source digest moved since the listing is left for the next sync.
 *
 * Rate limits are Shopify's calculated query costs: every answer carries `extensions.cost.throttleStatus`
 * (`currentlyAvailable`, `restoreRate`); the connector waits for the bucket to refill before a query it cannot afford,
 * and a query answered with the `THROTTLED` error is tried again once enough cost has been restored. HTTP 429 (with
 * Retry-After) and 5xx are connector-http's.
 *
 * References: shopify.dev/docs/api/admin-graphql/latest/queries/translatableResources,
 * …/queries/translatableResourcesByIds, …/objects/TranslatableResource, …/objects/TranslatableContent,
 * …/objects/Translation (`outdated`, `updatedAt`), …/enums/TranslatableResourceType (each type's translatable field
 * keys), …/enums/LocalizableContentType, …/mutations/translationsRegister, …/enums/TranslationErrorCode,
 * …/queries/shopLocales, …/mutations/shopLocaleEnable, shopify.dev/docs/api/usage/limits (cost, throttleStatus,
 * THROTTLED), shopify.dev/docs/apps/build/webhooks/verify-deliveries (X-Shopify-Hmac-SHA256: base64 HMAC-SHA256 of
 * the raw body keyed with the app's client secret).
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, Listing, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, vendorMessage } from '../connector-http.js';
import { matchLocales, sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** The resource types a connection may translate: Shopify's TranslatableResourceType values whose fields are text. */
const RESOURCE_TYPES = ['PRODUCT', 'COLLECTION', 'PAGE', 'ONLINE_STORE_THEME', 'ARTICLE', 'BLOG', 'SHOP', 'SHOP_POLICY', 'MENU', 'LINK', 'FILTER', 'METAFIELD', 'METAOBJECT', 'DELIVERY_METHOD_DEFINITION'] as const;
type ResourceType = (typeof RESOURCE_TYPES)[number];

/** The unit (Parlance path) of each resource type. */
const UNIT_PATH: Record<ResourceType, string> = {
  PRODUCT: 'products',
  COLLECTION: 'collections',
  PAGE: 'pages',
  ONLINE_STORE_THEME: 'theme',
  ARTICLE: 'articles',
  BLOG: 'blogs',
  SHOP: 'shop',
  SHOP_POLICY: 'policies',
  MENU: 'menus',
  LINK: 'links',
  FILTER: 'filters',
  METAFIELD: 'metafields',
  METAOBJECT: 'metaobjects',
  DELIVERY_METHOD_DEFINITION: 'delivery-methods',
};

/** LocalizableContentType values that are text people read; the others (URL, URI, JSON, file references, lists) are left out. */
const TEXT_TYPES = new Set(['STRING', 'HTML', 'SINGLE_LINE_TEXT_FIELD', 'MULTI_LINE_TEXT_FIELD', 'INLINE_RICH_TEXT']);

/** The lengths Shopify's admin states for the SEO fields (its counters stop at 70 and 320 characters). */
const MAX_LENGTH: Record<string, number> = { meta_title: 70, meta_description: 320 };

const FIELD_NOTES: Record<string, string> = {
  title: 'Title',
  body_html: 'Description (HTML: keep the tags)',
  summary_html: 'Summary (HTML: keep the tags)',
  meta_title: 'SEO title, shown in search results and browser tabs',
  meta_description: 'SEO description, shown in search results',
  product_type: 'Product type',
};

/** Items a page of `translatableResources` asks for; Shopify's ceiling is 250, and a smaller page keeps each query's cost low. */
const PAGE_SIZE = 50;
/** Resources re-read per `translatableResourcesByIds` before a write. */
const REREAD_SIZE = 50;
/** Translations sent per `translationsRegister` call. */
const REGISTER_SIZE = 100;
/** How often a THROTTLED query is tried again before the sync gives up for now (retried later, as `unavailable`). */
const THROTTLE_RETRIES = 5;
/** The longest wait for the cost bucket to refill. */
const MAX_THROTTLE_WAIT_MS = 60_000;
/**
 * Shopify retries a failed delivery 8 times over 4 hours; a notification whose signed `updated_at` (or, for bodies
 * without one, X-Shopify-Triggered-At) is older than this is refused as a replay.
 */
const WEBHOOK_MAX_AGE_MS = 6 * 60 * 60_000;
const SOURCE_TOPICS = /^(products|collections|themes|locales|pages|articles|blogs)\//;
const LOCALE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const settings = z
  .object({
    shop_url: z.string().url().openapi({ description: 'The shop\'s admin address: `https://<store>.myshopify.com` (the myshopify.com domain, not a custom domain).' }),
    api_version: z
      .string()
      .regex(/^(\d{4}-(01|04|07|10)|unstable)$/, 'Expected a Shopify API version such as 2025-07.')
      .default('2025-07')
      .openapi({ description: 'Admin API version (`YYYY-MM`). Default `2025-07`.' }),
    resource_types: z
      .array(z.enum(RESOURCE_TYPES))
      .min(1)
      .default(['PRODUCT', 'COLLECTION', 'PAGE', 'ONLINE_STORE_THEME'])
      .openapi({ description: 'The TranslatableResourceType values to translate, one path each. Default products, collections, pages and the online store theme.' }),
    skip_keys: z.array(z.string().min(1)).default(['handle']).openapi({ description: 'Field keys never translated. Default `["handle"]` (URL handles).' }),
    create_locales: z.boolean().default(true).openapi({ description: "Enable a project target locale the shop lacks with shopLocaleEnable (unpublished; needs the write_locales scope). Default true; when false or refused, it is skipped and the log says so." }),
    max_resources: z.number().int().min(1).max(100_000).default(10_000).openapi({ description: 'The most resources read of one type; a shop with more fails the sync with a clear error rather than list part of it. Default 10000.' }),
    locales: z
      .record(z.string(), z.string().regex(LOCALE_CODE, 'Expected a Shopify locale code such as pt-BR.'))
      .default({})
      .openapi({ description: 'Parlance locale → Shopify locale code, where they differ (`{"nb": "no"}`). Others match case-insensitively, `_` read as `-`.' }),
  })
  .strict();

const secrets = z
  .object({
    access_token: z.string().min(1).openapi({ description: "The Admin API access token of the store's custom app (`shpat_…`), with the scopes read_translations, write_translations, read_locales (write_locales to enable locales), read_products, read_content, read_online_store_pages and read_themes." }),
  })
  .strict();

export type ShopifySettings = z.infer<typeof settings>;
export type ShopifySecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<ShopifySettings, ShopifySecrets>;

interface ThrottleStatus {
  maximumAvailable?: number;
  currentlyAvailable?: number;
  restoreRate?: number;
}
interface GraphqlError {
  message?: string;
  path?: (string | number)[];
  extensions?: { code?: string; requiredAccess?: string };
}
interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: GraphqlError[] | string;
  extensions?: { cost?: { requestedQueryCost?: number; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus } };
}
interface ShopLocale {
  locale: string;
  name?: string;
  primary: boolean;
  published?: boolean;
}
interface Content {
  key: string;
  value: string | null;
  digest: string | null;
  locale?: string;
  type: string;
}
interface Translation {
  key: string;
  value: string | null;
  locale?: string;
  outdated?: boolean;
  updatedAt?: string | null;
}
/** A node as queried: the aliases `t0`, `t1`, … hold the translations of each queried locale. */
type ResourceNode = { resourceId: string; translatableContent: Content[] } & Record<string, unknown>;
interface ResourcePage {
  edges?: { node: ResourceNode }[];
  nodes?: ResourceNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

/** What `write` needs: the resource, the field, the source digest the listing saw, and each locale's code and value. */
interface ShopifyRef {
  resource: string;
  field: string;
  digest: string;
  locales: Record<string, { code: string; seen: string }>;
}

/** The cost bucket as the last answer left it, per sync: a query the bucket cannot pay for waits first. */
const buckets = new WeakMap<Ctx, { available: number; restoreRate: number; lastCost: number; at: number }>();

const endpoint = (ctx: Ctx) => `${ctx.settings.shop_url.replace(/\/+$/, '')}/admin/api/${ctx.settings.api_version}/graphql.json`;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** How long until the bucket holds `cost`, at `restoreRate` points a second. */
function refillMs(cost: number, available: number, restoreRate: number): number {
  if (available >= cost || restoreRate <= 0) return 0;
  return Math.min(MAX_THROTTLE_WAIT_MS, Math.ceil(((cost - available) / restoreRate) * 1000));
}

function errorList(errors: GraphqlAnswer<unknown>['errors']): GraphqlError[] {
  if (!errors) return [];
  return typeof errors === 'string' ? [{ message: errors }] : errors;
}

/**
 * One GraphQL request. Waits for the cost bucket when the last answer said it could not pay for a query like the last
 * one, tries a THROTTLED query again once the bucket holds its cost, and maps errors: 401/403 and ACCESS_DENIED are
 * the credentials or their scopes; `allow` names error codes the caller handles itself (they come back in `errors`).
 */
async function graphql<T>(ctx: Ctx, what: string, query: string, variables: Record<string, unknown> = {}, allow: string[] = []): Promise<{ data: T; errors: GraphqlError[] }> {
  for (let attempt = 0; ; attempt++) {
    const bucket = buckets.get(ctx);
    if (bucket) {
      const restored = bucket.available + ((Date.now() - bucket.at) / 1000) * bucket.restoreRate;
      const wait = refillMs(bucket.lastCost, restored, bucket.restoreRate);
      if (wait > 0) await sleep(wait, ctx.signal);
    }
    const response = await ctx.http.request(endpoint(ctx), {
      method: 'POST',
      headers: { 'x-shopify-access-token': ctx.secrets.access_token, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    if (response.status === 404) {
      await response.body?.cancel();
      throw new ConnectorError('config', `${what}: ${new URL(endpoint(ctx)).host} has no Admin API at /admin/api/${ctx.settings.api_version}/graphql.json (HTTP 404). Check the settings shop_url (the shop's myshopify.com address) and api_version.`);
    }
    if (!response.ok) throw await failure(response, what);
    const text = await response.text();
    let answer: GraphqlAnswer<T>;
    try {
      answer = JSON.parse(text) as GraphqlAnswer<T>;
    } catch {
      throw new ConnectorError('unavailable', `${what}: Shopify answered HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 120)}`);
    }
    const cost = answer.extensions?.cost;
    const status = cost?.throttleStatus;
    if (status && typeof status.currentlyAvailable === 'number' && typeof status.restoreRate === 'number') {
      buckets.set(ctx, { available: status.currentlyAvailable, restoreRate: status.restoreRate, lastCost: cost?.requestedQueryCost ?? 0, at: Date.now() });
    }
    const errors = errorList(answer.errors);
    if (errors.some((e) => e.extensions?.code === 'THROTTLED' || e.message === 'Throttled')) {
      if (attempt >= THROTTLE_RETRIES) throw new ConnectorError('unavailable', `${what}: Shopify throttled the query ${attempt + 1} times (query cost ${cost?.requestedQueryCost ?? '?'}, ${status?.currentlyAvailable ?? '?'} of ${status?.maximumAvailable ?? '?'} points available).`);
      const wait = refillMs(cost?.requestedQueryCost ?? 0, status?.currentlyAvailable ?? 0, status?.restoreRate ?? 0) || 1000;
      buckets.delete(ctx);
      await sleep(wait, ctx.signal);
      continue;
    }
    const denied = errors.find((e) => e.extensions?.code === 'ACCESS_DENIED');
    if (denied && !allow.includes('ACCESS_DENIED')) {
      throw new ConnectorError('auth', `${what}: Shopify refused the access token's permissions: ${denied.message ?? 'access denied'}. Give the app the access scope it names, then PATCH the connection with the new token.`);
    }
    const other = errors.filter((e) => !allow.includes(e.extensions?.code ?? ''));
    if (other.length > 0) {
      const code = other[0]!.extensions?.code;
      const message = other.map((e) => e.message).join('; ').slice(0, 300);
      if (code === 'INTERNAL_SERVER_ERROR' || code === 'SERVICE_UNAVAILABLE') throw new ConnectorError('unavailable', `${what}: Shopify answered ${code}: ${message}`);
      throw new ConnectorError('config', `${what}: Shopify answered ${code ?? 'an error'}: ${message}. Check the connection's settings (api_version, resource_types).`);
    }
    if (!answer.data) throw new ConnectorError('unavailable', `${what}: Shopify's answer has no data (${vendorMessage(text) || 'empty'}).`);
    return { data: answer.data, errors };
  }
}

interface LocalePlan {
  primary: string;
  /** Parlance target tag → Shopify locale code. */
  codes: Map<string, string>;
  /** What the log says about locales: enabled, refused, skipped. */
  notes: string[];
}

/**
 * The primary locale holds the source text, so it must be the source's language (a region may differ: `en` for
 * `en-US`); each target locale is the shop's locale of the same code (through the `locales` setting first), enabled
 * with shopLocaleEnable when the shop lacks it and the connection may.
 */
async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const { data } = await graphql<{ shopLocales: ShopLocale[] }>(ctx, 'Reading the shop\'s locales (shopLocales)', 'query ParlanceShopLocales { shopLocales { locale name primary published } }');
  const shopLocales = data.shopLocales ?? [];
  const primary = shopLocales.find((l) => l.primary)?.locale;
  if (!primary) throw new ConnectorError('config', 'Reading the shop\'s locales (shopLocales): Shopify names no primary locale.');
  const wanted = ctx.settings.locales[ctx.sourceLocale] ?? ctx.sourceLocale;
  const language = (code: string) => code.replace(/_/g, '-').split('-')[0]!.toLowerCase();
  if (!sameLocale(primary, wanted) && language(primary) !== language(wanted)) {
    throw new ConnectorError('config', `The shop's primary locale is '${primary}', but the project's source locale is '${ctx.sourceLocale}': the primary locale holds the source text. Map it with the setting locales ({"${ctx.sourceLocale}": "${primary}"}) only if it is the same language.`);
  }
  const others = shopLocales.filter((l) => !l.primary).map((l) => l.locale);
  const targets = ctx.targetLocales.filter((t) => t !== ctx.sourceLocale);
  const { codes, missing } = matchLocales(targets, others, ctx.settings.locales);
  const notes: string[] = [];
  const enabled: string[] = [];
  const skipped: string[] = [];
  for (const tag of missing) {
    const code = ctx.settings.locales[tag] ?? tag;
    if (!ctx.settings.create_locales || !LOCALE_CODE.test(code)) {
      skipped.push(tag);
      continue;
    }
    const outcome = await enableLocale(ctx, code);
    if (outcome === true) {
      codes.set(tag, code);
      enabled.push(code);
    } else {
      notes.push(`could not enable ${tag} in the shop (${outcome}); it is skipped`);
    }
  }
  if (enabled.length > 0) notes.push(`enabled locale(s) ${enabled.join(', ')} in the shop (unpublished until someone publishes them)`);
  if (skipped.length > 0) notes.push(`skipped ${skipped.join(', ')}: the shop has no such locale (it has ${others.join(', ') || 'none besides the primary'})${ctx.settings.create_locales ? '' : ' and create_locales is off'}`);
  return { primary, codes, notes };
}

/** shopLocaleEnable: true, or why not (the token lacks write_locales, Shopify refused the code). */
async function enableLocale(ctx: Ctx, code: string): Promise<true | string> {
  const { data, errors } = await graphql<{ shopLocaleEnable: { shopLocale: ShopLocale | null; userErrors: UserError[] } | null }>(
    ctx,
    `Enabling the locale '${code}' (shopLocaleEnable)`,
    'mutation ParlanceEnableLocale($locale: String!) { shopLocaleEnable(locale: $locale) { shopLocale { locale name primary published } userErrors { field message } } }',
    { locale: code },
    ['ACCESS_DENIED'],
  );
  const denied = errors.find((e) => e.extensions?.code === 'ACCESS_DENIED');
  if (denied) return `the token may not: ${denied.extensions?.requiredAccess ?? 'write_locales'} is needed`;
  const payload = data.shopLocaleEnable;
  if (!payload) return 'Shopify answered nothing';
  if (payload.userErrors.length > 0) return `Shopify refused it: ${payload.userErrors.map((e) => e.message).join('; ')}`;
  return payload.shopLocale ? true : 'Shopify answered no locale';
}

/** The translations selection, one alias per shop locale code (codes are checked against LOCALE_CODE, so inlining is safe). */
function translationFields(codes: readonly string[]): string {
  return codes
    .map((code, i) => {
      if (!LOCALE_CODE.test(code)) throw new ConnectorError('config', `The Shopify locale code '${code}' is not a locale code (setting locales).`);
      return `t${i}: translations(locale: "${code}") { key value locale outdated updatedAt }`;
    })
    .join(' ');
}

const nodeFields = (codes: readonly string[]) => `resourceId translatableContent { key value digest locale type } ${translationFields(codes)}`;

/** Every resource of one type, page by page (cursor pagination), with the translations of `codes`. */
async function readResources(ctx: Ctx, type: ResourceType, codes: readonly string[], pages: { count: number }): Promise<ResourceNode[]> {
  const query = `query ParlanceTranslatableResources($resourceType: TranslatableResourceType!, $first: Int!, $after: String) { translatableResources(resourceType: $resourceType, first: $first, after: $after) { edges { node { ${nodeFields(codes)} } } pageInfo { hasNextPage endCursor } } }`;
  const nodes: ResourceNode[] = [];
  for (let after: string | null = null; ; ) {
    const answer: { data: { translatableResources: ResourcePage } } = await graphql<{ translatableResources: ResourcePage }>(ctx, `Listing the shop's ${type} resources (translatableResources, page ${pages.count + 1})`, query, { resourceType: type, first: PAGE_SIZE, after });
    pages.count++;
    const page: ResourcePage = answer.data.translatableResources;
    nodes.push(...(page.edges ?? []).map((e: { node: ResourceNode }) => e.node));
    if (nodes.length > ctx.settings.max_resources) {
      throw new ConnectorError('config', `The shop has more than ${ctx.settings.max_resources} ${type} resources (setting max_resources). Raise max_resources, or drop ${type} from resource_types.`);
    }
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return nodes;
    after = page.pageInfo.endCursor;
  }
}

const numericId = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1) || gid;
const translationsOf = (node: ResourceNode, index: number) => (Array.isArray(node[`t${index}`]) ? (node[`t${index}`] as Translation[]) : []);

function notesFor(type: ResourceType, content: Content): string {
  const field = FIELD_NOTES[content.key] ?? (type === 'ONLINE_STORE_THEME' ? `Theme string "${content.key}"` : `Field "${content.key}"`);
  return content.type === 'HTML' && !field.includes('HTML') ? `${field} (HTML: keep the tags)` : field;
}

function unitFor(ctx: Ctx, type: ResourceType, nodes: ResourceNode[], plan: LocalePlan): StringUnit {
  const targets = [...plan.codes];
  const skip = new Set(ctx.settings.skip_keys);
  const strings: RemoteString[] = [];
  for (const node of nodes) {
    const id = numericId(node.resourceId);
    const title = node.translatableContent.find((c) => c.key === 'title')?.value;
    const label = `${type.toLowerCase().replace(/_/g, ' ')} ${id}${title ? ` "${title.slice(0, 60)}"` : ''}`;
    for (const content of node.translatableContent) {
      if (skip.has(content.key) || !TEXT_TYPES.has(content.type) || typeof content.value !== 'string' || content.value.trim() === '' || !content.digest) continue;
      const translations: Record<string, string> = {};
      const locales: ShopifyRef['locales'] = {};
      targets.forEach(([tag, code], index) => {
        const found = translationsOf(node, index).find((t) => t.key === content.key);
        const value = typeof found?.value === 'string' ? found.value : '';
        locales[tag] = { code, seen: value };
        // An outdated translation is of a source that is no longer there: no one's translation of this one.
        if (value !== '' && !found?.outdated) translations[tag] = value;
      });
      const ref: ShopifyRef = { resource: node.resourceId, field: content.key, digest: content.digest, locales };
      const maxLength = MAX_LENGTH[content.key];
      strings.push({
        key: `${id}.${content.key}`,
        source: content.value,
        notes: notesFor(type, content),
        context: `${label} › ${content.key}`,
        ...(maxLength ? { maxLength } : {}),
        ref: ref as unknown as JsonValue,
        translations,
      });
    }
  }
  return { kind: 'strings', path: UNIT_PATH[type], strings, locales: targets.map(([tag]) => tag) };
}

async function list(ctx: Ctx): Promise<Listing> {
  const plan = await planLocales(ctx);
  const codes = [...plan.codes.values()];
  const pages = { count: 0 };
  const units: StringUnit[] = [];
  const counts: string[] = [];
  for (const type of ctx.settings.resource_types) {
    const nodes = await readResources(ctx, type, codes, pages);
    const unit = unitFor(ctx, type, nodes, plan);
    counts.push(`${unit.strings.length} from ${nodes.length} ${UNIT_PATH[type]}`);
    units.push(unit);
  }
  const parts = [`Shopify (primary locale ${plan.primary}): ${counts.join(', ')}; ${pages.count} page(s) read`];
  if (plan.codes.size > 0) parts.push(`locales ${[...plan.codes].map(([tag, code]) => `${tag} → ${code}`).join(', ')}`);
  parts.push(...plan.notes);
  return { units, note: parts.join('; ') + '.' };
}

function parseRef(write: StringWrite): ShopifyRef {
  const ref = write.ref as Partial<ShopifyRef> | undefined;
  if (!ref || typeof ref.resource !== 'string' || typeof ref.field !== 'string' || typeof ref.digest !== 'string' || typeof ref.locales !== 'object' || ref.locales === null) {
    throw new ConnectorError('config', `Shopify write of '${write.path}' key '${write.key}' (${write.locale}): the listing's reference (resource, field, digest) is missing; sync again.`);
  }
  return ref as ShopifyRef;
}

/** The resources as they are now, with the translations of `codes`; a resource that no longer exists is absent. */
async function rereadResources(ctx: Ctx, ids: string[], codes: string[]): Promise<Map<string, ResourceNode>> {
  const query = `query ParlanceResourcesByIds($resourceIds: [ID!]!, $first: Int!) { translatableResourcesByIds(resourceIds: $resourceIds, first: $first) { nodes { ${nodeFields(codes)} } pageInfo { hasNextPage endCursor } } }`;
  const found = new Map<string, ResourceNode>();
  for (let start = 0; start < ids.length; start += REREAD_SIZE) {
    const chunk = ids.slice(start, start + REREAD_SIZE);
    const { data } = await graphql<{ translatableResourcesByIds: ResourcePage }>(ctx, `Reading ${chunk.length} Shopify resource(s) again before writing (translatableResourcesByIds)`, query, { resourceIds: chunk, first: chunk.length });
    const page = data.translatableResourcesByIds;
    for (const node of page.nodes ?? (page.edges ?? []).map((e) => e.node)) found.set(node.resourceId, node);
  }
  return found;
}

interface Pending {
  locale: string;
  key: string;
  value: string;
  translatableContentDigest: string;
}

/** translationsRegister for one resource, in chunks; a refused translation is named, the rest of its chunk sent again. */
async function register(ctx: Ctx, resource: string, pending: Pending[]): Promise<{ written: number; refused: string[]; gone: boolean }> {
  const mutation = 'mutation ParlanceRegister($resourceId: ID!, $translations: [TranslationInput!]!) { translationsRegister(resourceId: $resourceId, translations: $translations) { translations { key locale value } userErrors { field message code } } }';
  let written = 0;
  const refused: string[] = [];
  for (let start = 0; start < pending.length; start += REGISTER_SIZE) {
    let chunk = pending.slice(start, start + REGISTER_SIZE);
    for (let round = 0; round < 2 && chunk.length > 0; round++) {
      const { data } = await graphql<{ translationsRegister: { translations: unknown[] | null; userErrors: UserError[] } | null }>(ctx, `Writing ${chunk.length} translation(s) of Shopify resource ${resource} (translationsRegister)`, mutation, { resourceId: resource, translations: chunk });
      const errors = data.translationsRegister?.userErrors ?? [];
      if (errors.length === 0) {
        written += chunk.length;
        break;
      }
      if (errors.some((e) => e.code === 'RESOURCE_NOT_FOUND')) return { written, refused, gone: true };
      // `field` is ["translations", "<index>", …] for a translation Shopify refuses; the others are sent again once.
      const bad = new Set(errors.map((e) => Number(e.field?.[1])).filter((i) => Number.isInteger(i)));
      if (bad.size === 0 || round === 1) {
        throw new ConnectorError('config', `Writing the translations of Shopify resource ${resource} (translationsRegister): Shopify refused them: ${errors.map((e) => `${e.code ?? ''} ${e.message}`.trim()).join('; ').slice(0, 300)}`);
      }
      for (const e of errors) {
        const index = Number(e.field?.[1]);
        if (Number.isInteger(index) && chunk[index]) refused.push(`${numericId(resource)}.${chunk[index]!.key} (${chunk[index]!.locale}): ${e.code ?? ''} ${e.message}`.trim());
      }
      chunk = chunk.filter((_, i) => !bad.has(i));
    }
  }
  return { written, refused, gone: false };
}

/**
 * Writes translations resource by resource, after reading the resources again: a value that changed in Shopify since
 * the listing (a person's) is left as it is, a field whose source digest moved is left for the next sync, a value
 * already in place is not sent again.
 */
async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const byResource = new Map<string, { write: StringWrite; ref: ShopifyRef; code: string }[]>();
  let unmapped = 0;
  for (const w of writeBack.strings) {
    const ref = parseRef(w);
    const code = ref.locales[w.locale]?.code;
    if (!code) {
      unmapped++;
      continue;
    }
    byResource.set(ref.resource, [...(byResource.get(ref.resource) ?? []), { write: w, ref, code }]);
  }
  if (byResource.size === 0) return { written: 0, ...(unmapped ? { note: writeNote(0, 0, 0, 0, 0, unmapped, []) } : {}) };
  const codes = [...new Set([...byResource.values()].flatMap((group) => group.map((g) => g.code)))];
  const now = await rereadResources(ctx, [...byResource.keys()], codes);
  let written = 0;
  let already = 0;
  let kept = 0;
  let moved = 0;
  let gone = 0;
  const refused: string[] = [];
  for (const [resource, group] of byResource) {
    const node = now.get(resource);
    if (!node) {
      gone += group.length;
      continue;
    }
    const pending: Pending[] = [];
    for (const { write: w, ref, code } of group) {
      const content = node.translatableContent.find((c) => c.key === ref.field);
      if (!content || !content.digest) {
        gone++;
        continue;
      }
      if (content.digest !== ref.digest) {
        moved++;
        continue;
      }
      const current = translationsOf(node, codes.indexOf(code)).find((t) => t.key === ref.field);
      const value = typeof current?.value === 'string' ? current.value : '';
      if (value === w.text && !current?.outdated) {
        already++;
        continue;
      }
      if (value !== (ref.locales[w.locale]?.seen ?? '')) {
        kept++;
        continue;
      }
      pending.push({ locale: code, key: ref.field, value: w.text, translatableContentDigest: content.digest });
    }
    if (pending.length === 0) continue;
    const result = await register(ctx, resource, pending);
    written += result.written;
    refused.push(...result.refused);
    if (result.gone) gone += pending.length - result.written;
  }
  return { written, note: writeNote(written, already, kept, moved, gone, unmapped, refused) };
}

function writeNote(written: number, already: number, kept: number, moved: number, gone: number, unmapped: number, refused: string[]): string {
  const parts = [`${written} translation(s) registered in Shopify`];
  if (already > 0) parts.push(`${already} already held the translation`);
  if (kept > 0) parts.push(`${kept} left as they are: changed in Shopify since the listing, imported on the next sync`);
  if (moved > 0) parts.push(`${moved} not written: their source changed in Shopify since the listing; the next sync translates them`);
  if (gone > 0) parts.push(`${gone} skipped: their resource or field no longer exists in Shopify`);
  if (unmapped > 0) parts.push(`${unmapped} skipped: their locale is not one of the shop's`);
  if (refused.length > 0) parts.push(`${refused.length} refused by Shopify: ${refused.slice(0, 5).join('; ')}`);
  return parts.join('; ') + '.';
}

/**
 * A Shopify notification is genuine when X-Shopify-Hmac-Sha256 is the base64 HMAC-SHA256 of the raw body keyed with
 * the app's client secret (the connection's webhook secret). Shopify signs no timestamp; the body's own `updated_at`
 * is signed, and a notification whose `updated_at` (else, for bodies without one such as deletions, the unsigned
 * X-Shopify-Triggered-At) is over six hours old is refused as a replay.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, current: ShopifySettings): WebhookVerdict {
  const signature = request.headers.get('x-shopify-hmac-sha256')?.trim();
  if (!signature) return { verified: false, sync: false, reason: 'X-Shopify-Hmac-Sha256 header missing' };
  const expected = createHmac('sha256', webhookSecret).update(request.body).digest('base64');
  if (!sameSecret(signature, expected)) return { verified: false, sync: false, reason: "X-Shopify-Hmac-Sha256 does not match the connection's webhook secret (the app's client secret)" };
  let body: { updated_at?: unknown } = {};
  try {
    body = JSON.parse(Buffer.from(request.body).toString('utf8')) as typeof body;
  } catch {
    return { verified: false, sync: false, reason: 'the body is not JSON' };
  }
  const stamp = typeof body.updated_at === 'string' ? body.updated_at : request.headers.get('x-shopify-triggered-at');
  if (stamp) {
    const at = Date.parse(stamp);
    if (Number.isNaN(at)) return { verified: false, sync: false, reason: `the notification's time '${stamp.slice(0, 40)}' is not a date` };
    const age = Date.now() - at;
    if (age > WEBHOOK_MAX_AGE_MS) return { verified: false, sync: false, reason: `the notification is ${Math.round(age / 60_000)} minutes old; notifications over 6 hours old are refused as replays` };
  }
  const topic = request.headers.get('x-shopify-topic') ?? '';
  if (!SOURCE_TOPICS.test(topic)) return { verified: true, sync: false, reason: `topic '${topic}' does not change translatable content` };
  const shop = request.headers.get('x-shopify-shop-domain');
  const host = new URL(current.shop_url).host;
  if (shop && host.endsWith('.myshopify.com') && shop.toLowerCase() !== host.toLowerCase()) return { verified: true, sync: false, reason: `notification for shop '${shop}', not this connection's '${host}'` };
  return { verified: true, sync: true };
}

export const shopify: Connector<ShopifySettings, ShopifySecrets> = {
  id: 'shopify',
  name: 'Shopify',
  category: 'content',
  direction: 'two_way',
  summary: "A Shopify store's translatable content (products, collections, pages and theme strings by default) through the Admin GraphQL API: primary-locale text is translated and registered in the shop's other locales, with the digest Shopify requires.",
  settings,
  secrets,
  webhooks: "Shopify's X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the raw body with the app's client secret, given as the connection's webhook_secret), refused when the signed updated_at is over 6 hours old",
  list,
  write,
  verifyWebhook,
};
