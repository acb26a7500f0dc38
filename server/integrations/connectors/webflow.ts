/**
 * Webflow CMS as a two-way content connector (Data API v2 with Localization): the PlainText and RichText fields of
 * each collection item in the site's primary locale are the source strings, one unit per collection; the same items
 * read with a secondary locale's `cmsLocaleId` are the translations, and translations go back with the bulk item
 * update, field by field, never over a value a person changed since the listing.
 *
 * What does not come across: the `slug` field (a URL part with its own rules, left to people), fields of other types
 * (links, images, options, references), archived items, and page or component text (the Data API's page DOM is
 * outside this connector). A secondary-locale item Webflow has not localized yet holds the primary's text: that
 * value counts as "nothing translated". Written translations are staged: they go live with the site's next publish.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, Listing, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { matchLocales, sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const settings = z
  .object({
    api_url: z.string().url().default('https://api.webflow.com/v2').openapi({ description: 'Webflow Data API v2 base URL. Default `https://api.webflow.com/v2`.' }),
    site_id: z.string().min(1).openapi({ description: "The site's id (Site settings › General › Site ID, or `GET /v2/sites`)." }),
    collections: z.array(z.string().min(1)).default([]).openapi({ description: 'Collection ids to translate; empty (the default) means every collection of the site.' }),
    locales: z
      .record(z.string(), z.string().min(1))
      .default({})
      .openapi({ description: 'Parlance locale → Webflow locale tag, where they differ: `{"de": "de-DE"}`. Others match case-insensitively, `_` read as `-`.' }),
  })
  .strict();

const secrets = z
  .object({
    token: z.string().min(1).openapi({ description: 'A site API token (Site settings › Apps & integrations › API access) with the scopes cms:read, cms:write and sites:read.' }),
  })
  .strict();

export type WebflowSettings = z.infer<typeof settings>;
export type WebflowSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<WebflowSettings, WebflowSecrets>;

/** Webflow's own page-size ceiling for item listings. */
const PAGE_SIZE = 100;
/** Webflow's bulk update takes at most 100 item variants per request. */
const BULK_SIZE = 100;
/** Webflow recommends refusing notifications whose timestamp is older than five minutes (replays). */
const WEBHOOK_TOLERANCE_MS = 5 * 60_000;
const SOURCE_EVENTS = new Set(['collection_item_created', 'collection_item_changed', 'collection_item_deleted']);

interface WebflowLocale {
  id?: string;
  cmsLocaleId?: string;
  tag?: string;
  displayName?: string;
  enabled?: boolean;
}
interface WebflowSite {
  id: string;
  displayName?: string;
  locales?: { primary?: WebflowLocale; secondary?: WebflowLocale[] };
}
interface WebflowField {
  id: string;
  slug?: string;
  type: string;
  displayName: string;
  helpText?: string;
  isEditable?: boolean;
  validations?: { maxLength?: number } | null;
}
interface WebflowCollection {
  id: string;
  displayName?: string;
  slug?: string;
  fields?: WebflowField[];
}
interface WebflowItem {
  id: string;
  cmsLocaleId?: string;
  lastUpdated?: string;
  isArchived?: boolean;
  fieldData: Record<string, unknown>;
}
interface ItemPage {
  items?: WebflowItem[];
  pagination?: { limit?: number; offset?: number; total?: number };
}

/** What `write` needs to find a string again and to tell a person's later edit from the value it saw. */
interface WebflowRef {
  collection: string;
  item: string;
  field: string;
  /** Each mapped locale: its cmsLocaleId and the raw value the listing saw there. */
  locales: Record<string, { cms: string; seen: string }>;
}

function authHeaders(ctx: Ctx): Record<string, string> {
  return { authorization: `Bearer ${ctx.secrets.token}`, accept: 'application/json' };
}

function apiUrl(ctx: Ctx, path: string, query: Record<string, string | number | undefined> = {}): string {
  const url = new URL(ctx.settings.api_url.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  return url.toString();
}

async function readSite(ctx: Ctx): Promise<WebflowSite> {
  return ctx.http.json<WebflowSite>(apiUrl(ctx, `/sites/${encodeURIComponent(ctx.settings.site_id)}`), {
    what: `Reading Webflow site '${ctx.settings.site_id}' (setting site_id)`,
    headers: authHeaders(ctx),
  });
}

interface LocaleMatch {
  /** The Parlance target locale. */
  locale: string;
  cmsLocaleId: string;
  tag: string;
}

/** The project's target locales the site has as secondary locales, and the ones it has not (skipped, named in the note). */
function secondaryLocales(ctx: Ctx, site: WebflowSite): { matched: LocaleMatch[]; skipped: string[] } {
  const secondary = (site.locales?.secondary ?? []).filter((s): s is WebflowLocale & { tag: string; cmsLocaleId: string } => s.tag !== undefined && s.cmsLocaleId !== undefined);
  const { codes, missing } = matchLocales(ctx.targetLocales, secondary.map((s) => s.tag), ctx.settings.locales);
  const matched = [...codes].map(([locale, tag]) => ({ locale, tag, cmsLocaleId: secondary.find((s) => s.tag === tag)!.cmsLocaleId }));
  return { matched, skipped: missing };
}

async function readCollections(ctx: Ctx): Promise<WebflowCollection[]> {
  const body = await ctx.http.json<{ collections?: WebflowCollection[] }>(apiUrl(ctx, `/sites/${encodeURIComponent(ctx.settings.site_id)}/collections`), {
    what: `Listing the collections of Webflow site '${ctx.settings.site_id}'`,
    headers: authHeaders(ctx),
  });
  const all = body.collections ?? [];
  if (ctx.settings.collections.length === 0) return all;
  return ctx.settings.collections.map((id) => {
    const found = all.find((c) => c.id === id);
    if (!found) throw new ConnectorError('config', `Webflow site '${ctx.settings.site_id}' has no collection '${id}' (setting collections). Its collections: ${all.map((c) => `${c.id} (${c.displayName ?? c.slug})`).join(', ') || 'none'}.`);
    return found;
  });
}

async function readFields(ctx: Ctx, collectionId: string): Promise<WebflowCollection> {
  return ctx.http.json<WebflowCollection>(apiUrl(ctx, `/collections/${encodeURIComponent(collectionId)}`), {
    what: `Reading the fields of Webflow collection '${collectionId}'`,
    headers: authHeaders(ctx),
  });
}

/** Every item of a collection in one locale, page by page (offset/limit, Webflow's `pagination.total` says when to stop). */
async function readItems(ctx: Ctx, collectionId: string, cmsLocaleId: string | undefined, pages: { count: number }): Promise<WebflowItem[]> {
  const items: WebflowItem[] = [];
  for (let offset = 0; ; ) {
    const page = await ctx.http.json<ItemPage>(apiUrl(ctx, `/collections/${encodeURIComponent(collectionId)}/items`, { cmsLocaleId, offset, limit: PAGE_SIZE }), {
      what: `Listing the items of Webflow collection '${collectionId}'${cmsLocaleId ? ` in CMS locale '${cmsLocaleId}'` : ''} from offset ${offset}`,
      headers: authHeaders(ctx),
    });
    pages.count++;
    const got = page.items ?? [];
    items.push(...got);
    offset += got.length;
    const total = page.pagination?.total ?? offset;
    if (got.length === 0 || offset >= total) return items;
  }
}

/** The fields whose values are text people read: PlainText (less the URL slug) and RichText (HTML, as one string). */
function textFields(collection: WebflowCollection): WebflowField[] {
  return (collection.fields ?? []).filter((f) => f.slug && f.slug !== 'slug' && f.isEditable !== false && (f.type === 'PlainText' || f.type === 'RichText'));
}

function fieldNotes(field: WebflowField): string {
  const kind = field.type === 'RichText' ? `RichText field "${field.displayName}": HTML, keep the tags` : `Field "${field.displayName}"`;
  return field.helpText ? `${kind}. ${field.helpText}` : kind;
}

function unitFor(collection: WebflowCollection, primary: WebflowItem[], localized: Map<string, Map<string, WebflowItem>>, matched: LocaleMatch[]): StringUnit {
  const fields = textFields(collection);
  const strings: RemoteString[] = [];
  for (const item of primary) {
    if (item.isArchived) continue;
    for (const field of fields) {
      const source = item.fieldData[field.slug!];
      if (typeof source !== 'string' || source.trim() === '') continue;
      const translations: Record<string, string> = {};
      const locales: WebflowRef['locales'] = {};
      for (const m of matched) {
        const raw = localized.get(m.locale)?.get(item.id)?.fieldData[field.slug!];
        const value = typeof raw === 'string' ? raw : '';
        locales[m.locale] = { cms: m.cmsLocaleId, seen: value };
        // An item not yet localized holds the primary's text: that is no translation.
        if (value !== '' && value !== source) translations[m.locale] = value;
      }
      const ref: WebflowRef = { collection: collection.id, item: item.id, field: field.slug!, locales };
      const name = typeof item.fieldData.name === 'string' ? item.fieldData.name : item.id;
      const maxLength = field.validations?.maxLength;
      strings.push({
        key: `${item.id}.${field.slug}`,
        source,
        notes: fieldNotes(field),
        context: `${collection.displayName ?? collection.slug ?? collection.id} › ${name}`,
        ...(typeof maxLength === 'number' && maxLength > 0 ? { maxLength } : {}),
        ref: ref as unknown as JsonValue,
        translations,
      });
    }
  }
  return { kind: 'strings', path: collection.slug || collection.id, strings, locales: matched.map((m) => m.locale) };
}

/**
 * The primary locale holds the source text: a site whose primary language is not the project's source language would
 * push, say, German as English. Regions may differ (`en-US` for `en`); the language may not.
 */
function checkPrimary(ctx: Ctx, site: WebflowSite): void {
  const tag = site.locales?.primary?.tag;
  if (!tag) return;
  const wanted = ctx.settings.locales[ctx.sourceLocale] ?? ctx.sourceLocale;
  const language = (code: string) => code.replace(/_/g, '-').split('-')[0]!.toLowerCase();
  if (!sameLocale(tag, wanted) && language(tag) !== language(wanted)) {
    throw new ConnectorError('config', `Webflow site '${ctx.settings.site_id}' has the primary locale '${tag}', but the project's source locale is '${ctx.sourceLocale}': the primary locale holds the source text. Map it with the setting locales ({"${ctx.sourceLocale}": "${tag}"}) only if it is the same language.`);
  }
}

async function list(ctx: Ctx): Promise<Listing> {
  const site = await readSite(ctx);
  checkPrimary(ctx, site);
  const primary = site.locales?.primary?.cmsLocaleId;
  const { matched, skipped } = secondaryLocales(ctx, site);
  const collections = await readCollections(ctx);
  const pages = { count: 0 };
  const units: StringUnit[] = [];
  for (const summary of collections) {
    const collection = await readFields(ctx, summary.id);
    if (textFields(collection).length === 0) continue;
    const items = await readItems(ctx, collection.id, primary, pages);
    const localized = new Map<string, Map<string, WebflowItem>>();
    for (const m of matched) {
      const variants = await readItems(ctx, collection.id, m.cmsLocaleId, pages);
      localized.set(m.locale, new Map(variants.map((v) => [v.id, v])));
    }
    units.push(unitFor({ ...summary, ...collection }, items, localized, matched));
  }
  return { units, note: listingNote(site, units, pages.count, matched, skipped) };
}

function listingNote(site: WebflowSite, units: StringUnit[], pages: number, matched: LocaleMatch[], skipped: string[]): string {
  const strings = units.reduce((n, u) => n + u.strings.length, 0);
  const parts = [`Webflow site '${site.displayName ?? site.id}': ${strings} strings in ${units.length} collections, ${pages} item pages read`];
  if (matched.length > 0) parts.push(`locales ${matched.map((m) => `${m.locale} → ${m.tag}`).join(', ')}`);
  if (skipped.length > 0) {
    const has = (site.locales?.secondary ?? []).map((s) => s.tag).filter(Boolean);
    parts.push(`skipped ${skipped.join(', ')}: the site has no such secondary locale (it has ${has.join(', ') || 'none'})`);
  }
  return parts.join('; ') + '.';
}

function parseRef(write: StringWrite): WebflowRef {
  const ref = write.ref as Partial<WebflowRef> | undefined;
  if (!ref || typeof ref.collection !== 'string' || typeof ref.item !== 'string' || typeof ref.field !== 'string' || typeof ref.locales !== 'object') {
    throw new ConnectorError('config', `Webflow write of '${write.path}' key '${write.key}' (${write.locale}): the listing's reference (collection, item, field) is missing; sync again.`);
  }
  return ref as WebflowRef;
}

interface PendingField {
  write: StringWrite;
  ref: WebflowRef;
  cms: string;
}

/**
 * Writes translations: per collection and locale, the items are read again and each field is written only when it
 * still holds what the listing saw. A value compare rather than the item's `lastUpdated`, because `lastUpdated`
 * moves with any field of the item (our own write of its other fields included), while the value tells exactly
 * whether a person changed this one; a changed value is left for the next sync to import as that person's.
 */
async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const groups = new Map<string, PendingField[]>();
  let unmapped = 0;
  for (const w of writeBack.strings) {
    const ref = parseRef(w);
    const cms = ref.locales[w.locale]?.cms;
    if (!cms) {
      unmapped++;
      continue;
    }
    const group = `${ref.collection}\n${cms}`;
    groups.set(group, [...(groups.get(group) ?? []), { write: w, ref, cms }]);
  }
  let written = 0;
  let kept = 0;
  let already = 0;
  let gone = 0;
  for (const [group, pending] of groups) {
    const [collection, cms] = group.split('\n') as [string, string];
    const current = new Map((await readItems(ctx, collection, cms, { count: 0 })).map((item) => [item.id, item]));
    const patch = new Map<string, Record<string, string>>();
    for (const { write: w, ref } of pending) {
      const item = current.get(ref.item);
      if (!item) {
        gone++;
        continue;
      }
      const now = typeof item.fieldData[ref.field] === 'string' ? (item.fieldData[ref.field] as string) : '';
      if (now === w.text) {
        already++;
        continue;
      }
      const seen = ref.locales[w.locale]?.seen;
      if (seen !== undefined && now !== seen) {
        kept++;
        continue;
      }
      patch.set(ref.item, { ...(patch.get(ref.item) ?? {}), [ref.field]: w.text });
    }
    written += await patchItems(ctx, collection, cms, patch);
  }
  return { written, note: writeNote(written, already, kept, gone, unmapped) };
}

/** The bulk update, at most BULK_SIZE item variants a request; returns the number of field values written. */
async function patchItems(ctx: Ctx, collection: string, cms: string, patch: Map<string, Record<string, string>>): Promise<number> {
  const items = [...patch].map(([id, fieldData]) => ({ id, cmsLocaleId: cms, fieldData }));
  for (let start = 0; start < items.length; start += BULK_SIZE) {
    const chunk = items.slice(start, start + BULK_SIZE);
    await ctx.http.json(apiUrl(ctx, `/collections/${encodeURIComponent(collection)}/items`), {
      what: `Writing ${chunk.length} items of Webflow collection '${collection}' in CMS locale '${cms}'`,
      method: 'PATCH',
      headers: { ...authHeaders(ctx), 'content-type': 'application/json' },
      body: JSON.stringify({ items: chunk }),
    });
  }
  return items.reduce((n, item) => n + Object.keys(item.fieldData).length, 0);
}

function writeNote(written: number, already: number, kept: number, gone: number, unmapped: number): string {
  const parts = [`${written} field values written to Webflow (staged until the site is published)`];
  if (already > 0) parts.push(`${already} already held the translation`);
  if (kept > 0) parts.push(`${kept} left as they are: changed in Webflow since the listing, imported on the next sync`);
  if (gone > 0) parts.push(`${gone} skipped: their item no longer exists in that locale`);
  if (unmapped > 0) parts.push(`${unmapped} skipped: their locale is not one of the site's`);
  return parts.join('; ') + '.';
}

/**
 * A Webflow notification is genuine when `x-webflow-signature` is the hex HMAC-SHA256, keyed with the webhook's
 * secret, of `<x-webflow-timestamp>:<raw body>`, and the timestamp (epoch milliseconds) is under five minutes old.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, current: WebflowSettings): WebhookVerdict {
  const signature = request.headers.get('x-webflow-signature')?.trim().toLowerCase();
  const timestamp = request.headers.get('x-webflow-timestamp')?.trim();
  if (!signature || !timestamp) return { verified: false, sync: false, reason: 'x-webflow-signature or x-webflow-timestamp header missing' };
  if (!/^\d{1,16}$/.test(timestamp)) return { verified: false, sync: false, reason: `x-webflow-timestamp '${timestamp.slice(0, 40)}' is not epoch milliseconds` };
  const age = Date.now() - Number(timestamp);
  if (Math.abs(age) > WEBHOOK_TOLERANCE_MS) return { verified: false, sync: false, reason: `x-webflow-timestamp is ${Math.round(age / 1000)} s off the current time; notifications over 5 minutes old are refused as replays` };
  const expected = createHmac('sha256', webhookSecret).update(`${timestamp}:`).update(request.body).digest('hex');
  if (!sameSecret(signature, expected)) return { verified: false, sync: false, reason: 'x-webflow-signature does not match the webhook secret' };
  return { verified: true, ...syncVerdict(request.body, current) };
}

function syncVerdict(body: Uint8Array, current: WebflowSettings): { sync: boolean; reason?: string } {
  let event: { triggerType?: unknown; payload?: { siteId?: unknown; collectionId?: unknown } };
  try {
    event = JSON.parse(Buffer.from(body).toString('utf8')) as typeof event;
  } catch {
    return { sync: false, reason: 'the body is not JSON' };
  }
  const trigger = String(event.triggerType);
  if (!SOURCE_EVENTS.has(trigger)) return { sync: false, reason: `event '${trigger}' does not change collection items` };
  const { siteId, collectionId } = event.payload ?? {};
  if (typeof siteId === 'string' && siteId !== current.site_id) return { sync: false, reason: `event for site '${siteId}', not this connection's '${current.site_id}'` };
  if (current.collections.length > 0 && typeof collectionId === 'string' && !current.collections.includes(collectionId)) {
    return { sync: false, reason: `event for collection '${collectionId}', not one of the connection's collections` };
  }
  return { sync: true };
}

export const webflow: Connector<WebflowSettings, WebflowSecrets> = {
  id: 'webflow',
  name: 'Webflow',
  category: 'content',
  direction: 'two_way',
  summary: "Webflow CMS collections: PlainText and RichText fields of every item in the primary locale are translated and written to the site's secondary locales.",
  settings,
  secrets,
  webhooks: "Webflow's x-webflow-signature (hex HMAC-SHA256 of '<x-webflow-timestamp>:<body>' with the webhook's secret), refused after 5 minutes",
  list,
  write,
  verifyWebhook,
};
