/**
 * Directus as a two-way content connector, through its REST API and its standard translations pattern: a collection
 * (`articles`) with a translations alias field (O2M to the junction `articles_translations`, one row per language with
 * the translated fields). Each configured field of each item is one string (key `<id>.<field>`), its source being the
 * junction row in the source language; translations are written back with one nested `PATCH /items/{collection}/{id}`
 * per item (`{ translations: { create, update, delete: [] } }`), after reading the item again so that a row a person
 * changed since the listing is left as it is.
 *
 * Limits, said rather than faked: the collection's primary key must be `id` (Directus's default); Directus sends no
 * signed notifications of its own, so change notifications come from a Flow whose "Webhook / Request URL" operation
 * sends the connection's secret in `X-Parlance-Webhook-Secret`, compared in constant time.
 *
 * References: https://directus.io/docs/guides/connect/errors (codes and statuses; `{ errors: [{ message, extensions:
 * { code } }] }`), https://directus.io/docs/guides/connect/relations (nested O2M create/update/delete),
 * https://docs.directus.io/reference/items (`GET /items/{collection}`, `meta=total_count`), https://docs.directus.io/reference/system/fields
 * (`schema.max_length`), https://directus.io/docs/guides/automate/triggers (Flows), and directus/directus
 * api/src/middleware/rate-limiter-ip.ts (429 with Retry-After) and the permissions' ForbiddenError reason.
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, vendorMessage } from '../connector-http.js';
import { matchLocales, sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const PAGE_SIZE = 100;
const name = (what: string) => z.string().regex(NAME, `Expected a Directus ${what} name such as 'articles'.`);

const DirectusSettings = z
  .object({
    api_url: z.string().url().openapi({ description: 'The Directus project, e.g. `https://cms.example.com`.' }),
    collection: name('collection').openapi({ description: 'The collection whose items are translated (`articles`): one path in Parlance.' }),
    translations_field: name('field').default('translations').openapi({ description: "The collection's translations field (the O2M alias). Default `translations`." }),
    language_field: name('field').default('languages_code').openapi({ description: 'The field of the translations junction that names the language. Default `languages_code`.' }),
    fields: z.array(name('field')).min(1).openapi({ description: 'The translated fields of the junction to translate: `["title", "summary"]`.' }),
    translations_collection: name('collection')
      .optional()
      .openapi({ description: 'The junction collection, read only for field lengths. Default `<collection>_translations`.' }),
    languages_collection: name('collection').default('languages').openapi({ description: 'The collection of languages (primary key `code`). Default `languages`.' }),
    locales: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ description: 'Parlance locale → Directus language code where they differ (`{"de": "de-DE"}`); others match case-insensitively, `_` read as `-`.' }),
  })
  .strict();

const DirectusSecrets = z
  .object({
    token: z.string().min(1).openapi({ description: "A Directus user's static token (User Directory → the user → Token), whose role may read and update the collection and its translations and read the languages." }),
  })
  .strict();

export type DirectusSettings = z.infer<typeof DirectusSettings>;
export type DirectusSecrets = z.infer<typeof DirectusSecrets>;
type Ctx = ConnectorContext<DirectusSettings, DirectusSecrets>;

type Row = { id: number | string } & Record<string, unknown>;
type Item = { id: number | string } & Record<string, unknown>;
/** What `write` needs: the item, the field, and what each locale held when it was listed. */
type DirectusRef = { id: number | string; field: string; seen: Record<string, string> };

const base = (ctx: Ctx) => ctx.settings.api_url.replace(/\/+$/, '');
const auth = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.secrets.token}` });
const junction = (ctx: Ctx) => ctx.settings.translations_collection ?? `${ctx.settings.collection}_translations`;

interface LocalePlan {
  source: string;
  /** Parlance tag → Directus language code, for the target locales Directus has. */
  targets: Map<string, string>;
  skipped: string[];
}

/** Each Parlance locale's Directus language code: the `locales` setting first, else the same code up to case and `_`/`-`. */
async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const collection = ctx.settings.languages_collection;
  const body = await readItems<{ code: string }>(ctx, `${base(ctx)}/items/${collection}?fields=code&limit=-1`, `Listing the Directus languages ('${collection}')`);
  const codes = body.data.map((l) => String(l.code));
  const source = matchLocales([ctx.sourceLocale], codes, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!source) throw new ConnectorError('config', `Directus has no language for the project's source locale '${ctx.sourceLocale}' in '${collection}' (it has ${codes.join(', ') || 'none'}). Add it, or map it in the \`locales\` setting.`);
  const targets = new Map([...matchLocales(ctx.targetLocales, codes, ctx.settings.locales).codes].filter(([, code]) => code !== source));
  return { source, targets, skipped: ctx.targetLocales.filter((tag) => !targets.has(tag)) };
}

/** The `extensions.code` of Directus's first error, if the body is Directus's error envelope. */
function errorCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code;
  } catch {
    return undefined;
  }
}

/**
 * An items read. Directus answers 403 FORBIDDEN both for a collection the role may not read and for one that does not
 * exist (so as not to reveal which), so a 403 here names the setting; a refused token is 401 INVALID_CREDENTIALS.
 */
async function readItems<T>(ctx: Ctx, url: string, what: string): Promise<{ data: T[]; meta?: { total_count?: number } }> {
  const response = await ctx.http.request(url, { headers: auth(ctx) });
  if (response.status === 403) {
    const text = await response.text();
    // A JWT-shaped token Directus cannot verify is also a 403, INVALID_TOKEN: that one is the credentials.
    if (errorCode(text) === 'INVALID_TOKEN') throw new ConnectorError('auth', `${what}: Directus refused the token (HTTP 403 INVALID_TOKEN: ${vendorMessage(text)}). PATCH the connection with a valid static token.`);
    throw new ConnectorError('config', `${what}: Directus answered HTTP 403 (${vendorMessage(text)}). Check the collection and field settings, and that the token's role may read them.`);
  }
  if (!response.ok) throw await failure(response, what);
  const body = (await response.json()) as { data?: T[]; meta?: { total_count?: number } };
  if (!Array.isArray(body.data)) throw new ConnectorError('config', `${what}: the answer has no data list; is api_url a Directus project?`);
  return body as { data: T[]; meta?: { total_count?: number } };
}

/** The junction's string lengths (`schema.max_length`); a role that may not read the fields lists without limits. */
async function readMaxLengths(ctx: Ctx): Promise<Map<string, number> | null> {
  const response = await ctx.http.request(`${base(ctx)}/fields/${junction(ctx)}`, { headers: auth(ctx) });
  if (response.status === 403 || response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, `Reading the fields of the Directus collection '${junction(ctx)}'`);
  const body = (await response.json()) as { data: { field: string; schema: { max_length?: number | null } | null }[] };
  return new Map(body.data.flatMap((f) => (f.schema?.max_length ? [[f.field, f.schema.max_length] as const] : [])));
}

const itemFields = (ctx: Ctx) => `id,${ctx.settings.translations_field}.*`;

async function readAllItems(ctx: Ctx): Promise<{ items: Item[]; pages: number }> {
  const { collection } = ctx.settings;
  const items: Item[] = [];
  for (let offset = 0, page = 1; ; offset += PAGE_SIZE, page++) {
    const url = `${base(ctx)}/items/${collection}?fields=${encodeURIComponent(itemFields(ctx))}&sort=id&limit=${PAGE_SIZE}&offset=${offset}&meta=total_count`;
    const body = await readItems<Item>(ctx, url, `Listing the Directus collection '${collection}' (page ${page})`);
    items.push(...body.data);
    const total = body.meta?.total_count;
    if (body.data.length < PAGE_SIZE || (total !== undefined && offset + PAGE_SIZE >= total)) return { items, pages: page };
  }
}

/** An item's translation rows; a translations field that is not a list of rows is a setting naming the wrong field. */
function rowsOf(ctx: Ctx, item: Item): Row[] {
  const rows = item[ctx.settings.translations_field];
  if (rows === undefined || rows === null) return [];
  if (!Array.isArray(rows) || rows.some((r) => typeof r !== 'object' || r === null)) {
    throw new ConnectorError('config', `Directus item ${item.id} of '${ctx.settings.collection}': field '${ctx.settings.translations_field}' is not a translations field (its value is not a list of rows). Check \`translations_field\`.`);
  }
  return rows as Row[];
}

function rowFor(ctx: Ctx, rows: Row[], code: string): Row | undefined {
  return rows.find((row) => {
    const language = row[ctx.settings.language_field];
    const value = typeof language === 'object' && language !== null ? (language as { code?: unknown }).code : language;
    return typeof value === 'string' && sameLocale(value, code);
  });
}

function fieldText(ctx: Ctx, item: Item, row: Row | undefined, field: string): string {
  if (!row) return '';
  const value = row[field];
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') throw new ConnectorError('config', `Directus item ${item.id} of '${ctx.settings.collection}': translated field '${field}' is not text (it holds ${typeof value}). Name only string/text fields in \`fields\`.`);
  return value;
}

async function list(ctx: Ctx) {
  const plan = await planLocales(ctx);
  const limits = await readMaxLengths(ctx);
  const { items, pages } = await readAllItems(ctx);
  const strings: RemoteString[] = [];
  let withoutSource = 0;
  for (const item of items) {
    const rows = rowsOf(ctx, item);
    const sourceRow = rowFor(ctx, rows, plan.source);
    if (!sourceRow) {
      withoutSource++;
      continue;
    }
    for (const field of ctx.settings.fields) {
      if (!(field in sourceRow)) throw new ConnectorError('config', `Directus collection '${junction(ctx)}' has no field '${field}' (item ${item.id}'s row has ${Object.keys(sourceRow).join(', ')}). Check the \`fields\` setting.`);
      const text = fieldText(ctx, item, sourceRow, field);
      if (!text) continue;
      const seen: Record<string, string> = {};
      for (const [tag, code] of plan.targets) seen[tag] = fieldText(ctx, item, rowFor(ctx, rows, code), field);
      const maxLength = limits?.get(field);
      const ref: DirectusRef = { id: item.id, field, seen };
      strings.push({
        key: `${item.id}.${field}`,
        source: text,
        context: ctx.settings.collection,
        ...(maxLength ? { maxLength } : {}),
        ref,
        translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
      });
    }
  }
  const unit: StringUnit = { kind: 'strings', path: ctx.settings.collection, strings, locales: [...plan.targets.keys()] };
  const notes = [`Read ${items.length} item(s) of '${ctx.settings.collection}' in ${pages} page(s), source language ${plan.source}.`];
  if (withoutSource) notes.push(`${withoutSource} item(s) have no ${plan.source} translation row and were left out.`);
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: Directus has no such language.`);
  if (!limits) notes.push(`The token may not read the fields of '${junction(ctx)}', so no maximum lengths were read.`);
  return { units: [unit], note: notes.join(' ') };
}

function readRef(write: StringWrite): DirectusRef {
  const ref = write.ref as DirectusRef | undefined;
  if (!ref || (typeof ref.id !== 'number' && typeof ref.id !== 'string') || typeof ref.field !== 'string') {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Directus: the string carries no Directus reference; sync again so it is listed anew.`);
  }
  return ref;
}

/** Writes one item's translations in one request, leaving any field a person changed since the listing as it is. */
async function writeItem(ctx: Ctx, plan: LocalePlan, id: number | string, writes: { write: StringWrite; ref: DirectusRef }[]): Promise<{ written: number; kept: string[] }> {
  const { collection, translations_field, language_field } = ctx.settings;
  const url = `${base(ctx)}/items/${collection}/${encodeURIComponent(String(id))}`;
  const now = await ctx.http.json<{ data: Item }>(`${url}?fields=${encodeURIComponent(itemFields(ctx))}`, { what: `Reading Directus item ${id} of '${collection}'`, headers: auth(ctx) });
  const rows = rowsOf(ctx, now.data);
  const update = new Map<number | string, Record<string, unknown>>();
  const create = new Map<string, Record<string, unknown>>();
  const kept: string[] = [];
  let written = 0;
  for (const { write, ref } of writes) {
    const code = plan.targets.get(write.locale)!;
    const row = rowFor(ctx, rows, code);
    const current = fieldText(ctx, now.data, row, ref.field);
    if (current === write.text) continue;
    if (current !== (ref.seen[write.locale] ?? '')) {
      kept.push(`${id}.${ref.field} (${write.locale})`);
      continue;
    }
    if (row) update.set(row.id, { ...(update.get(row.id) ?? { id: row.id }), [ref.field]: write.text });
    else create.set(code, { ...(create.get(code) ?? { [language_field]: code }), [ref.field]: write.text });
    written++;
  }
  if (written === 0) return { written, kept };
  await ctx.http.json(url, {
    what: `Writing the translations of Directus item ${id} of '${collection}'`,
    method: 'PATCH',
    headers: { ...auth(ctx), 'content-type': 'application/json' },
    body: JSON.stringify({ [translations_field]: { create: [...create.values()], update: [...update.values()], delete: [] } }),
  });
  return { written, kept };
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = await planLocales(ctx);
  const byItem = new Map<string, { id: number | string; writes: { write: StringWrite; ref: DirectusRef }[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    // A project locale Directus has no language for (the listing said so) has nowhere to go.
    if (!plan.targets.has(one.locale)) {
      absent.add(one.locale);
      continue;
    }
    const group = byItem.get(String(ref.id)) ?? { id: ref.id, writes: [] };
    group.writes.push({ write: one, ref });
    byItem.set(String(ref.id), group);
  }
  let written = 0;
  const kept: string[] = [];
  for (const { id, writes } of byItem.values()) {
    const result = await writeItem(ctx, plan, id, writes);
    written += result.written;
    kept.push(...result.kept);
  }
  const notes: string[] = [];
  if (kept.length) notes.push(`Left ${kept.length} field(s) a person changed in Directus since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (absent.size) notes.push(`Not written: Directus has no language for ${[...absent].join(', ')}.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/**
 * A Flow's request carries the secret in X-Parlance-Webhook-Secret. Its body is what the Flow sends (the set-up guide
 * suggests `{{$trigger}}`); one that names another collection is verified but starts no sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: DirectusSettings): WebhookVerdict {
  const given = request.headers.get('x-parlance-webhook-secret');
  if (!given) return { verified: false, sync: false, reason: "No X-Parlance-Webhook-Secret header on the Directus Flow's request; add it to the Flow's Webhook / Request URL operation." };
  if (!sameSecret(given, webhookSecret)) return { verified: false, sync: false, reason: "The Directus Flow's X-Parlance-Webhook-Secret does not match the connection's webhook secret." };
  let collection: unknown;
  try {
    collection = (JSON.parse(new TextDecoder().decode(request.body)) as { collection?: unknown }).collection;
  } catch {
    return { verified: true, sync: true };
  }
  const ours = [settings.collection, settings.translations_collection ?? `${settings.collection}_translations`];
  if (typeof collection === 'string' && !ours.includes(collection)) return { verified: true, sync: false, reason: `The Directus event is about '${collection}', not '${settings.collection}'.` };
  return { verified: true, sync: true };
}

export const directus: Connector<DirectusSettings, DirectusSecrets> = {
  id: 'directus',
  name: 'Directus',
  category: 'content',
  direction: 'two_way',
  summary: "A Directus collection's translations (the standard translations field and its junction collection): chosen fields are translated and written back as rows per language.",
  settings: DirectusSettings,
  secrets: DirectusSecrets,
  webhooks: 'A Directus Flow (Event Hook on the collection and its translations) whose Request URL operation sends the webhook secret in X-Parlance-Webhook-Secret, compared in constant time; Directus does not sign requests.',
  list,
  write,
  verifyWebhook,
};
