/**
 * Contentful as a two-way content connector, through the Content Management API (CMA): every localized `Symbol` or
 * `Text` field of every entry is one string (key `<entry id>.<field id>`), one unit per content type; translations
 * are written into the entry's draft (Parlance never publishes), after a fresh read so that a value a person changed
 * since the listing is left alone.
 *
 * Webhooks: Contentful's request verification (`x-contentful-signature`, an HMAC-SHA256 with the space's signing
 * secret over the method, the path with its query, the signed headers and the body; the framework hands a connector
 * the method and path as received) with `x-contentful-timestamp` at most a minute old, so a replay is refused. Where
 * the space has no signing secret, a secret header the user adds to the webhook (`X-Parlance-Webhook-Secret`, compared
 * in constant time) is accepted instead; it carries no time, so a replayed notification cannot be told from a fresh
 * one, and a replay only starts one more sync, which finds nothing to do.
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';
import querystring from 'node:querystring';
import { createHmac } from 'node:crypto';

const settings = z
  .object({
    api_url: z.string().url().default('https://api.contentful.com').openapi({ description: "The Content Management API's base URL. Default `https://api.contentful.com` (`https://api.eu.contentful.com` for EU data residency)." }),
    space_id: z.string().min(1).openapi({ description: "The space's id (Settings → General settings in the Contentful web app)." }),
    environment_id: z.string().min(1).default('master').openapi({ description: 'The environment whose entries are translated. Default `master`.' }),
    content_types: z.array(z.string().min(1)).min(1).optional().openapi({ description: 'Content type ids to translate; all content types with localized text fields when absent.' }),
    locales: z.record(z.string(), z.string().min(1)).optional().openapi({ description: 'A Parlance locale → Contentful locale code, where the codes differ beyond case and `_`/`-` (`{"de": "de-DE"}`).' }),
  })
  .strict();

const secrets = z
  .object({
    management_token: z.string().min(1).openapi({ description: 'A Content Management API personal access token (CFPAT-…) of a user who may edit entries in the space.' }),
  })
  .strict();

export type ContentfulSettings = z.infer<typeof settings>;
export type ContentfulSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<ContentfulSettings, ContentfulSecrets>;

/** Contentful's media type for CMA bodies; plain application/json is refused on writes. */
const CMA_JSON = 'application/vnd.contentful.management.v1+json';
/** Contentful's largest page of a collection. */
const PAGE = 1000;
/** Contentful caps a Symbol field at 256 characters whatever its validations say. */
const SYMBOL_MAX = 256;
const TEXT_TYPES = new Set(['Symbol', 'Text']);

const collection = <T extends z.ZodType>(item: T) => z.object({ total: z.number(), skip: z.number(), limit: z.number(), items: z.array(item) });
const localeSchema = z.object({ code: z.string(), name: z.string().optional(), default: z.boolean().optional() });
const fieldSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  type: z.string(),
  localized: z.boolean().optional(),
  omitted: z.boolean().optional(),
  validations: z.array(z.object({ size: z.object({ max: z.number().optional() }).optional() }).loose()).optional(),
});
const contentTypeSchema = z.object({ sys: z.object({ id: z.string() }), name: z.string().optional(), displayField: z.string().nullish(), fields: z.array(fieldSchema) });
const entrySchema = z.object({
  sys: z.object({ id: z.string(), version: z.number() }),
  fields: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});
type ContentType = z.infer<typeof contentTypeSchema>;
type Entry = z.infer<typeof entrySchema>;

/** What `write` needs of a listed string: its place, and each target locale's code and value at the listing. */
const refSchema = z.object({ entry: z.string(), field: z.string(), remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })) });
type Ref = z.infer<typeof refSchema>;

const environmentUrl = (s: ContentfulSettings) => `${s.api_url.replace(/\/+$/, '')}/spaces/${encodeURIComponent(s.space_id)}/environments/${encodeURIComponent(s.environment_id)}`;
const authHeaders = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.secrets.management_token}` });
const where = (s: ContentfulSettings) => `Contentful space '${s.space_id}' (environment '${s.environment_id}')`;

async function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string): Promise<z.infer<T>> {
  const body = await ctx.http.json<unknown>(url, { what, headers: authHeaders(ctx) });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer from ${new URL(url).host} is not a Content Management API answer (${parsed.error.issues[0]?.message}). Check the connection's api_url.`);
  return parsed.data;
}

/** Every item of a CMA collection, page by page (`skip` moves by what came back, so a smaller server cap still works). */
async function readAll<T extends z.ZodType>(ctx: Ctx, url: string, item: T, what: string, pageSize = PAGE): Promise<{ items: z.infer<T>[]; pages: number }> {
  const items: z.infer<T>[] = [];
  let pages = 0;
  for (;;) {
    const page = new URL(url);
    page.searchParams.set('skip', String(items.length));
    page.searchParams.set('limit', String(pageSize));
    const body = await getJson(ctx, page.toString(), collection(item), what);
    pages++;
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return { items, pages };
  }
}

function maxLength(field: z.infer<typeof fieldSchema>): number | undefined {
  const stated = field.validations?.map((v) => v.size?.max).find((max) => typeof max === 'number');
  if (field.type === 'Symbol') return Math.min(stated ?? SYMBOL_MAX, SYMBOL_MAX);
  return stated;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** One entry's strings: a localized text field with a source value is one string. */
function entryStrings(type: ContentType, fields: z.infer<typeof fieldSchema>[], entry: Entry, source: string, codes: Map<string, string>): RemoteString[] {
  const title = type.displayField ? textOf(entry.fields[type.displayField]?.[source]) : '';
  const context = title ? `${type.name ?? type.sys.id}: ${title}` : (type.name ?? type.sys.id);
  const strings: RemoteString[] = [];
  for (const field of fields) {
    const values = entry.fields[field.id] ?? {};
    const text = textOf(values[source]);
    if (text === '') continue;
    const translations: Record<string, string> = {};
    const remote: Ref['remote'] = {};
    for (const [locale, code] of codes) {
      const seen = textOf(values[code]);
      remote[locale] = { code, seen };
      if (seen !== '') translations[locale] = seen;
    }
    const limit = maxLength(field);
    strings.push({
      key: `${entry.sys.id}.${field.id}`,
      source: text,
      context,
      ...(field.name ? { notes: field.name } : {}),
      ...(limit !== undefined ? { maxLength: limit } : {}),
      ref: { entry: entry.sys.id, field: field.id, remote } satisfies Ref as JsonValue,
      translations,
    });
  }
  return strings;
}

async function contentTypes(ctx: Ctx): Promise<ContentType[]> {
  const { items } = await readAll(ctx, `${environmentUrl(ctx.settings)}/content_types`, contentTypeSchema, `Reading the content types of ${where(ctx.settings)}`);
  const wanted = ctx.settings.content_types;
  if (!wanted) return items;
  const unknown = wanted.filter((id) => !items.some((type) => type.sys.id === id));
  if (unknown.length > 0) throw new ConnectorError('config', `The content_types setting names ${unknown.map((id) => `'${id}'`).join(', ')}, which ${where(ctx.settings)} does not have (it has ${items.map((t) => `'${t.sys.id}'`).join(', ') || 'none'}).`);
  return items.filter((type) => wanted.includes(type.sys.id));
}

async function list(ctx: Ctx) {
  const locales = await readAll(ctx, `${environmentUrl(ctx.settings)}/locales`, localeSchema, `Reading the locales of ${where(ctx.settings)}`);
  const source = locales.items.find((locale) => locale.default)?.code;
  if (!source) throw new ConnectorError('config', `${where(ctx.settings)} has no default locale; Parlance reads the source text from it.`);
  const { codes, missing } = matchLocales(ctx.targetLocales, locales.items.map((l) => l.code).filter((c) => c !== source), ctx.settings.locales);
  const units: StringUnit[] = [];
  let entries = 0;
  let pages = 0;
  for (const type of await contentTypes(ctx)) {
    const fields = type.fields.filter((field) => field.localized && TEXT_TYPES.has(field.type) && !field.omitted);
    if (fields.length === 0) continue;
    const url = `${environmentUrl(ctx.settings)}/entries?content_type=${encodeURIComponent(type.sys.id)}&order=sys.createdAt`;
    const read = await readAll(ctx, url, entrySchema, `Listing the '${type.sys.id}' entries of ${where(ctx.settings)}`, 100);
    entries += read.items.length;
    pages += read.pages;
    units.push({ kind: 'strings', path: type.sys.id, locales: [...codes.keys()], strings: read.items.flatMap((entry) => entryStrings(type, fields, entry, source, codes)) });
  }
  const skipped = missing.length > 0 ? `; ${missing.join(', ')} not in the space, skipped (add the locale in Contentful or map it with the locales setting)` : '';
  return { units, note: `${entries} entries of ${units.length} content types in ${pages} pages; source locale ${source}${skipped}.` };
}

interface Outcome {
  written: number;
  kept: string[];
}

/** Merges one entry's translations into a fresh read and PUTs it; true when the PUT met a newer version (409). */
async function writeEntry(ctx: Ctx, id: string, writes: { write: StringWrite; ref: Ref }[], outcome: Outcome): Promise<'done' | 'conflict'> {
  const url = `${environmentUrl(ctx.settings)}/entries/${encodeURIComponent(id)}`;
  const entry = await getJson(ctx, url, entrySchema, `Reading entry '${id}' of ${where(ctx.settings)}`);
  let changed = 0;
  const kept: string[] = [];
  for (const { write, ref } of writes) {
    const code = ref.remote[write.locale]!.code;
    const now = textOf(entry.fields[ref.field]?.[code]);
    if (now === write.text) continue;
    // Someone wrote this value after the listing: it is theirs, and the next sync imports it.
    if (now !== ref.remote[write.locale]!.seen) {
      kept.push(`${id}.${ref.field} (${code})`);
      continue;
    }
    entry.fields[ref.field] = { ...entry.fields[ref.field], [code]: write.text };
    changed++;
  }
  if (changed > 0) {
    const response = await ctx.http.request(url, {
      method: 'PUT',
      headers: { ...authHeaders(ctx), 'content-type': CMA_JSON, 'x-contentful-version': String(entry.sys.version) },
      body: JSON.stringify({ fields: entry.fields }),
    });
    if (response.status === 409) {
      await response.body?.cancel();
      return 'conflict';
    }
    if (!response.ok) throw await failure(response, `Writing translations into entry '${id}' of ${where(ctx.settings)}`);
    await response.body?.cancel();
  }
  outcome.written += changed;
  outcome.kept.push(...kept);
  return 'done';
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const byEntry = new Map<string, { write: StringWrite; ref: Ref }[]>();
  const unplaced: string[] = [];
  for (const w of writeBack.strings) {
    const ref = refSchema.safeParse(w.ref);
    if (!ref.success || !ref.data.remote[w.locale]) {
      unplaced.push(`${w.key} (${w.locale})`);
      continue;
    }
    byEntry.set(ref.data.entry, [...(byEntry.get(ref.data.entry) ?? []), { write: w, ref: ref.data }]);
  }
  const outcome: Outcome = { written: 0, kept: [] };
  const raced: string[] = [];
  for (const [id, writes] of byEntry) {
    // A 409 means the entry changed between our read and our PUT: read it once more and check the values again.
    if ((await writeEntry(ctx, id, writes, outcome)) === 'conflict' && (await writeEntry(ctx, id, writes, outcome)) === 'conflict') raced.push(id);
  }
  const notes = [
    outcome.kept.length > 0 ? `Not overwritten, changed in Contentful since the listing: ${outcome.kept.join(', ')}.` : '',
    raced.length > 0 ? `Entries still changing under the write (HTTP 409 twice), left for the next sync: ${raced.join(', ')}.` : '',
    unplaced.length > 0 ? `No Contentful locale or entry for: ${unplaced.join(', ')}.` : '',
  ].filter(Boolean);
  return {
    written: outcome.written,
    url: `https://app.contentful.com/spaces/${encodeURIComponent(ctx.settings.space_id)}/environments/${encodeURIComponent(ctx.settings.environment_id)}/entries`,
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

/** Topics that change what Parlance lists: entries and content types (a field made localized or not). */
const SYNC_TOPIC = /^ContentManagement\.(Entry\.(create|save|auto_save|publish|unpublish|archive|unarchive|delete)|ContentType\.(publish|unpublish|delete))$/;
const webhookBody = z.object({ sys: z.object({ space: z.object({ sys: z.object({ id: z.string() }) }).optional(), contentType: z.object({ sys: z.object({ id: z.string() }) }).optional() }).loose() }).loose();

/** How old a signed notification may be (Contentful's own toolkit allows 30 s by default; a minute allows for clock skew). */
const SIGNATURE_TTL_MS = 60_000;

/**
 * Contentful's request verification: `x-contentful-signature` is the hex HMAC-SHA256, with the space's signing
 * secret, of the method, the path (query escaped, then URI-encoded), the signed headers (`name:value` sorted by name,
 * joined by `;`, always with `x-contentful-signed-headers` and `x-contentful-timestamp`) and the body, one per line.
 */
export function contentfulSignature(secret: string, request: { method: string; path: string; headers: Headers; body: string }): string | undefined {
  const signedNames = (request.headers.get('x-contentful-signed-headers') ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (signedNames.length === 0) return undefined;
  const headers = new Map(signedNames.map((name) => [name, (request.headers.get(name) ?? '').trim()]));
  const signed = [...new Set([...signedNames, 'x-contentful-signed-headers', 'x-contentful-timestamp'])].sort();
  const [pathname, search] = request.path.split('?');
  const path = encodeURI(search ? `${pathname}?${querystring.escape(search)}` : pathname!);
  const canonical = [request.method, path, signed.map((name) => `${name}:${headers.get(name) ?? (request.headers.get(name) ?? '').trim()}`).join(';'), request.body].join('\n');
  return createHmac('sha256', secret).update(canonical).digest('hex');
}

function checkSignature(request: WebhookRequest, secret: string, now = Date.now()): WebhookVerdict | undefined {
  const signature = request.headers.get('x-contentful-signature');
  if (signature === null) return undefined;
  const timestamp = Number(request.headers.get('x-contentful-timestamp'));
  if (!Number.isFinite(timestamp)) return { verified: false, sync: false, reason: 'x-contentful-signature without an x-contentful-timestamp.' };
  if (Math.abs(now - timestamp) > SIGNATURE_TTL_MS) return { verified: false, sync: false, reason: `The signed notification is ${Math.round((now - timestamp) / 1000)} s old; Contentful's signature is good for ${SIGNATURE_TTL_MS / 1000} s.` };
  const expected = contentfulSignature(secret, { method: request.method ?? 'POST', path: request.path ?? '/', headers: request.headers, body: new TextDecoder().decode(request.body) });
  if (!expected || !sameSecret(signature.trim(), expected)) return { verified: false, sync: false, reason: "x-contentful-signature does not match the request signed with the connection's webhook secret (the space's signing secret)." };
  return { verified: true, sync: true };
}

function verifyWebhook(request: WebhookRequest, secret: string, s: ContentfulSettings): WebhookVerdict {
  // Contentful's own request signing (with the space's signing secret as the webhook secret), else a secret header.
  const signed = checkSignature(request, secret);
  if (signed && !signed.verified) return signed;
  if (!signed) {
    const given = request.headers.get('x-parlance-webhook-secret');
    if (given === null) return { verified: false, sync: false, reason: "Neither x-contentful-signature (Contentful's request verification) nor an X-Parlance-Webhook-Secret header: set up one of them with the connection's webhook_secret." };
    if (!sameSecret(given.trim(), secret)) return { verified: false, sync: false, reason: 'The X-Parlance-Webhook-Secret header does not match the connection\'s webhook secret.' };
  }
  const topic = request.headers.get('x-contentful-topic') ?? '';
  if (!SYNC_TOPIC.test(topic)) return { verified: true, sync: false, reason: `Topic '${topic || '(none)'}' does not change entries' text.` };
  let body: z.infer<typeof webhookBody> | undefined;
  try {
    const parsed = webhookBody.safeParse(JSON.parse(new TextDecoder().decode(request.body)));
    if (parsed.success) body = parsed.data;
  } catch {
    // A body that is not JSON still came with the right secret: sync, and let the listing tell.
  }
  const space = body?.sys.space?.sys.id;
  if (space && space !== s.space_id) return { verified: true, sync: false, reason: `The notification is about space '${space}', not '${s.space_id}'.` };
  const type = body?.sys.contentType?.sys.id;
  if (type && s.content_types && !s.content_types.includes(type)) return { verified: true, sync: false, reason: `Content type '${type}' is not in the content_types setting.` };
  return { verified: true, sync: true };
}

export const contentful: Connector<ContentfulSettings, ContentfulSecrets> = {
  id: 'contentful',
  name: 'Contentful',
  category: 'content',
  direction: 'two_way',
  summary: "Contentful entries' localized Symbol and Text fields, one path per content type, translations written back into each entry's draft locales through the Content Management API.",
  settings,
  secrets,
  webhooks: "Contentful's request verification (x-contentful-signature, HMAC-SHA256 with the space's signing secret as the connection's webhook secret, at most a minute old), or a header X-Parlance-Webhook-Secret equal to the connection's webhook secret; Entry and ContentType topics start a sync",
  list,
  write,
  verifyWebhook,
};
