/**
 * Strapi 5 as a two-way content connector, through its REST content API with the Internationalization feature: each
 * configured string/text field of each entry of each configured collection is one string (key `<documentId>.<field>`),
 * read in the default locale, its locale versions read with `?locale=`, and translations written back with
 * `PUT /api/{collection}/{documentId}?locale=` (which creates the locale version when there is none yet).
 *
 * Limits, said rather than faked: rich-text "blocks", components and dynamic zones are not strings and are refused by
 * name; a Strapi webhook carries no signature, only the headers configured on it, so the webhook secret travels as
 * `Authorization: Bearer <secret>` (or in `X-Parlance-Webhook-Secret`) and is compared in constant time.
 *
 * References: https://docs.strapi.io/cms/api/rest (flat v5 response, `documentId`, `meta.pagination`),
 * https://docs.strapi.io/cms/api/rest/locale, https://docs.strapi.io/cms/error-handling,
 * https://docs.strapi.io/cms/backend-customization/webhooks, and strapi/strapi
 * packages/core/content-type-builder/server/src/routes/content-api.ts (the schema, for maximum lengths).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const API_ID = /^[a-z][a-z0-9-]*$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Strapi's default (and usual maximum) page size of the REST API (`api.rest.maxLimit`). */
const PAGE_SIZE = 100;
const SYNC_EVENTS = new Set(['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish']);

const StrapiSettings = z
  .object({
    api_url: z.string().url().openapi({ description: 'The Strapi server, e.g. `https://cms.example.com` (the REST API is under `/api`).' }),
    collections: z
      .array(z.string().regex(API_ID, "Expected a collection's plural API id such as 'articles'."))
      .min(1)
      .openapi({ description: 'The collection types to translate, by plural API id (`articles`). Each is one path in Parlance.' }),
    fields: z
      .record(z.string(), z.array(z.string().regex(FIELD, 'Expected an attribute name such as `title`.')).min(1))
      .openapi({ description: 'Per collection, the localized string/text attributes to translate: `{"articles": ["title", "summary"]}`.' }),
    locales: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ description: 'Parlance locale → Strapi locale code where they differ (`{"pt-BR": "pt"}`); others match case-insensitively, `_` read as `-`.' }),
    status: z
      .enum(['published', 'draft'])
      .default('published')
      .openapi({ description: 'With Draft & Publish: `published` (default) reads published versions and publishes translations at once; `draft` reads drafts and writes translations as drafts for editors to publish.' }),
  })
  .strict()
  .superRefine((value, ctx) => {
    for (const collection of value.collections) {
      if (!value.fields[collection]) ctx.addIssue({ code: 'custom', path: ['fields'], message: `No fields named for collection '${collection}'. Expected e.g. {"${collection}": ["title"]}.` });
    }
  });

const StrapiSecrets = z
  .object({
    api_token: z.string().min(1).openapi({ description: 'A Strapi API token (Settings → API Tokens): full access, or custom with find/findOne/update on the collections and find on i18n locales.' }),
  })
  .strict();

export type StrapiSettings = z.infer<typeof StrapiSettings>;
export type StrapiSecrets = z.infer<typeof StrapiSecrets>;
type Ctx = ConnectorContext<StrapiSettings, StrapiSecrets>;

interface StrapiLocale {
  code: string;
  name: string;
  isDefault: boolean;
}
type StrapiEntry = { id: number; documentId: string; locale?: string } & Record<string, unknown>;
interface StrapiPage {
  data: StrapiEntry[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}
interface StrapiAttribute {
  type: string;
  maxLength?: number;
  pluginOptions?: { i18n?: { localized?: boolean } };
}
interface StrapiContentType {
  uid: string;
  schema: { pluralName: string; singularName: string; attributes: Record<string, StrapiAttribute> };
}

/** What `write` needs: where the string lives and what each locale held when it was listed. */
type StrapiRef = {
  collection: string;
  documentId: string;
  field: string;
  /** Remote text per Parlance target locale at listing time ('' for none): a different value now is a person's edit. */
  seen: Record<string, string>;
};

const base = (ctx: Ctx) => `${ctx.settings.api_url.replace(/\/+$/, '')}/api`;
const auth = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.secrets.api_token}` });

async function readLocales(ctx: Ctx): Promise<StrapiLocale[]> {
  const locales = await ctx.http.json<StrapiLocale[]>(`${base(ctx)}/i18n/locales`, { what: 'Listing the Strapi locales', headers: auth(ctx) });
  if (!Array.isArray(locales)) throw new ConnectorError('config', `Listing the Strapi locales: ${base(ctx)}/i18n/locales did not answer a list; is api_url a Strapi 5 server?`);
  return locales;
}

interface LocalePlan {
  source: string;
  /** Parlance tag → Strapi code, for the target locales Strapi has. */
  targets: Map<string, string>;
  skipped: string[];
}

/** Each Parlance locale's Strapi code: the `locales` setting first, else the same code up to case and `_`/`-`. */
function planLocales(ctx: Ctx, locales: StrapiLocale[]): LocalePlan {
  const codes = locales.map((l) => l.code);
  const source = matchLocales([ctx.sourceLocale], codes, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!source) throw new ConnectorError('config', `Strapi has no locale for the project's source locale '${ctx.sourceLocale}' (it has ${codes.join(', ')}). Add it in Settings → Internationalization, or map it in the \`locales\` setting.`);
  const targets = new Map([...matchLocales(ctx.targetLocales, codes, ctx.settings.locales).codes].filter(([, code]) => code !== source));
  return { source, targets, skipped: ctx.targetLocales.filter((tag) => !targets.has(tag)) };
}

/**
 * The content types' schemas by plural API id, for maximum lengths and the localized flag; the content-type-builder's
 * content API needs its own permission, so a token without it lists the strings without limits rather than failing.
 */
async function readSchemas(ctx: Ctx): Promise<Map<string, StrapiContentType> | null> {
  const response = await ctx.http.request(`${base(ctx)}/content-type-builder/content-types`, { headers: auth(ctx) });
  if (response.status === 401 || response.status === 403 || response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, 'Reading the Strapi content-type schemas');
  const body = (await response.json()) as { data?: StrapiContentType[] };
  return new Map((body.data ?? []).filter((t) => t.schema?.pluralName).map((t) => [t.schema.pluralName, t]));
}

/** Every entry of a collection in one locale, page by page. */
async function readCollection(ctx: Ctx, collection: string, locale: string): Promise<{ entries: StrapiEntry[]; pages: number }> {
  const entries: StrapiEntry[] = [];
  for (let page = 1; ; page++) {
    const url = `${base(ctx)}/${collection}?locale=${encodeURIComponent(locale)}&status=${ctx.settings.status}&sort[0]=id:asc&pagination[page]=${page}&pagination[pageSize]=${PAGE_SIZE}`;
    const body = await ctx.http.json<StrapiPage>(url, { what: `Listing the Strapi collection '${collection}' (locale ${locale}, page ${page})`, headers: auth(ctx) });
    if (!Array.isArray(body?.data)) throw new ConnectorError('config', `Listing the Strapi collection '${collection}': the answer has no data list; is '${collection}' a collection type's plural API id?`);
    entries.push(...body.data);
    if (page >= (body.meta?.pagination?.pageCount ?? 1) || body.data.length === 0) return { entries, pages: page };
  }
}

/** The text of a field, or undefined when the entry has none; a value that is not text is a setting naming the wrong field. */
function fieldText(entry: StrapiEntry, collection: string, field: string): string | undefined {
  const value = entry[field];
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') throw new ConnectorError('config', `Strapi collection '${collection}', entry ${entry.documentId}: field '${field}' is not a string or text field (it holds ${Array.isArray(value) ? 'a list, e.g. rich-text blocks' : typeof value}). Name only string/text fields in \`fields\`.`);
  return value;
}

function checkSchema(collection: string, fields: string[], type: StrapiContentType | undefined): void {
  if (!type) return;
  for (const field of fields) {
    const attribute = type.schema.attributes[field];
    if (!attribute) throw new ConnectorError('config', `Strapi collection '${collection}' has no attribute '${field}' (it has ${Object.keys(type.schema.attributes).join(', ')}). Check the \`fields\` setting.`);
    // Writing a field that is not localized would change it in every locale, the source included.
    if (attribute.pluginOptions?.i18n?.localized === false) throw new ConnectorError('config', `Strapi collection '${collection}': field '${field}' is not localized, so a translation would overwrite the source. Enable localization for it in the Content-Type Builder or remove it from \`fields\`.`);
  }
}

async function listCollection(ctx: Ctx, collection: string, plan: LocalePlan, type: StrapiContentType | undefined): Promise<{ unit: StringUnit; pages: number }> {
  const fields = ctx.settings.fields[collection]!;
  checkSchema(collection, fields, type);
  const source = await readCollection(ctx, collection, plan.source);
  let pages = source.pages;
  const versions = new Map<string, Map<string, StrapiEntry>>();
  for (const [tag, code] of plan.targets) {
    const read = await readCollection(ctx, collection, code);
    pages += read.pages;
    versions.set(tag, new Map(read.entries.map((e) => [e.documentId, e])));
  }
  const strings: RemoteString[] = [];
  for (const entry of source.entries) {
    const title = typeof entry.title === 'string' ? entry.title : typeof entry.name === 'string' ? entry.name : undefined;
    for (const field of fields) {
      const text = fieldText(entry, collection, field);
      if (!text) continue;
      const seen: Record<string, string> = {};
      for (const [tag, byDocument] of versions) {
        const version = byDocument.get(entry.documentId);
        seen[tag] = version ? (fieldText(version, collection, field) ?? '') : '';
      }
      const maxLength = type?.schema.attributes[field]?.maxLength;
      const ref: StrapiRef = { collection, documentId: entry.documentId, field, seen };
      strings.push({
        key: `${entry.documentId}.${field}`,
        source: text,
        context: title && field !== 'title' && field !== 'name' ? `${collection}: ${title}` : collection,
        ...(maxLength ? { maxLength } : {}),
        ref,
        translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
      });
    }
  }
  return { unit: { kind: 'strings', path: collection, strings, locales: [...plan.targets.keys()] }, pages };
}

async function list(ctx: Ctx) {
  const plan = planLocales(ctx, await readLocales(ctx));
  const schemas = await readSchemas(ctx);
  const units: StringUnit[] = [];
  let pages = 0;
  for (const collection of ctx.settings.collections) {
    const listed = await listCollection(ctx, collection, plan, schemas?.get(collection));
    units.push(listed.unit);
    pages += listed.pages;
  }
  const notes = [`Read ${pages} page(s) from ${ctx.settings.collections.length} collection(s), source locale ${plan.source}.`];
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: Strapi has no such locale.`);
  if (!schemas) notes.push('The token may not read the content-type schemas, so no maximum lengths were read.');
  return { units, note: notes.join(' ') };
}

function readRef(write: StringWrite): StrapiRef {
  const ref = write.ref as StrapiRef | undefined;
  if (!ref || typeof ref.documentId !== 'string' || typeof ref.collection !== 'string' || typeof ref.field !== 'string') {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Strapi: the string carries no Strapi reference; sync again so it is listed anew.`);
  }
  return ref;
}

/** A document's version in a locale now, or null when that locale version does not exist yet (404). */
async function readVersion(ctx: Ctx, collection: string, documentId: string, code: string): Promise<StrapiEntry | null> {
  const what = `Reading Strapi ${collection} entry ${documentId} (locale ${code})`;
  const response = await ctx.http.request(`${base(ctx)}/${collection}/${encodeURIComponent(documentId)}?locale=${encodeURIComponent(code)}&status=${ctx.settings.status}`, { headers: auth(ctx) });
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, what);
  return ((await response.json()) as { data: StrapiEntry }).data;
}

/** Writes one document's fields in one locale, leaving any field a person changed since the listing as it is. */
async function writeVersion(ctx: Ctx, code: string, writes: { write: StringWrite; ref: StrapiRef }[]): Promise<{ written: number; kept: string[] }> {
  const { collection, documentId } = writes[0]!.ref;
  const now = await readVersion(ctx, collection, documentId, code);
  const data: Record<string, string> = {};
  const kept: string[] = [];
  for (const { write, ref } of writes) {
    const current = now ? (fieldText(now, collection, ref.field) ?? '') : '';
    if (current === write.text) continue;
    if (current !== (ref.seen[write.locale] ?? '')) {
      kept.push(`${documentId}.${ref.field} (${write.locale})`);
      continue;
    }
    data[ref.field] = write.text;
  }
  if (Object.keys(data).length === 0) return { written: 0, kept };
  // Without `status=draft`, Strapi 5 publishes what PUT writes (on a content type with Draft & Publish).
  await ctx.http.json(`${base(ctx)}/${collection}/${encodeURIComponent(documentId)}?locale=${encodeURIComponent(code)}&status=${ctx.settings.status}`, {
    what: `Writing Strapi ${collection} entry ${documentId} (locale ${code}, fields ${Object.keys(data).join(', ')})`,
    method: 'PUT',
    headers: { ...auth(ctx), 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });
  return { written: Object.keys(data).length, kept };
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = planLocales(ctx, await readLocales(ctx));
  const groups = new Map<string, { code: string; writes: { write: StringWrite; ref: StrapiRef }[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    const code = plan.targets.get(one.locale);
    // A project locale Strapi does not have (the listing said so) has nowhere to go.
    if (!code) {
      absent.add(one.locale);
      continue;
    }
    const id = `${ref.collection}\u0000${ref.documentId}\u0000${code}`;
    const group = groups.get(id) ?? { code, writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  let written = 0;
  const kept: string[] = [];
  for (const group of groups.values()) {
    const result = await writeVersion(ctx, group.code, group.writes);
    written += result.written;
    kept.push(...result.kept);
  }
  const notes: string[] = [];
  if (kept.length) notes.push(`Left ${kept.length} field(s) a person changed in Strapi since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (absent.size) notes.push(`Not written: Strapi has no locale for ${[...absent].join(', ')}.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/** Strapi sends the headers configured on the webhook: the secret as a bearer token, or in X-Parlance-Webhook-Secret. */
function verifyWebhook(request: WebhookRequest, webhookSecret: string): WebhookVerdict {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim();
  const given = bearer ?? request.headers.get('x-parlance-webhook-secret') ?? '';
  if (!given) return { verified: false, sync: false, reason: 'No Authorization: Bearer header (nor X-Parlance-Webhook-Secret) on the Strapi webhook; add the header with the webhook secret in Settings → Webhooks.' };
  if (!sameSecret(given, webhookSecret)) return { verified: false, sync: false, reason: "The Strapi webhook's secret header does not match the connection's webhook secret." };
  let event: unknown;
  try {
    event = (JSON.parse(new TextDecoder().decode(request.body)) as { event?: unknown }).event;
  } catch {
    return { verified: true, sync: false, reason: 'The Strapi webhook body is not JSON.' };
  }
  if (typeof event === 'string' && SYNC_EVENTS.has(event)) return { verified: true, sync: true };
  return { verified: true, sync: false, reason: `Strapi event '${String(event)}' does not change entries.` };
}

export const strapi: Connector<StrapiSettings, StrapiSecrets> = {
  id: 'strapi',
  name: 'Strapi',
  category: 'content',
  direction: 'two_way',
  summary: "Strapi 5 collections through the REST API and the i18n feature: chosen string/text fields are translated and written back as each entry's locale versions.",
  settings: StrapiSettings,
  secrets: StrapiSecrets,
  webhooks: "The webhook secret sent by Strapi as a header configured on the webhook: `Authorization: Bearer <secret>` (or `X-Parlance-Webhook-Secret: <secret>`), compared in constant time; Strapi does not sign bodies.",
  list,
  write,
  verifyWebhook,
};
