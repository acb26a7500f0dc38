/**
 * DatoCMS as a two-way content connector, through its Content Management API (`https://site-api.datocms.com`,
 * JSON:API bodies, `X-Api-Version: 3`, a Bearer API token). Every localized `string` or `text` field of every record
 * of the chosen models (block models are left out) is one string, key `<record id>.<field api_key>`, one path per
 * model (its `api_key`); the source text is the value in the site locale matching the project's source locale.
 * Translations are written with one `PUT /items/{id}` per record carrying every locale of each localized field it
 * changes (DatoCMS drops a locale a localized field's object leaves out) and `meta.current_version`, after a fresh read
 * so that a value a person changed since the listing is left alone; a `422 STALE_ITEM_VERSION` (a save between our
 * read and our write) is read and checked once more. A record that gains a locale gains it in every localized field
 * (DatoCMS keeps one set of locales per record), as `null` where Parlance has nothing to write.
 *
 * Limits, said rather than faked: text inside modular content, structured text and single-block fields, and SEO
 * fields, is not read. A project locale the site lacks is reported in the sync's log and skipped, unless the
 * `create_locales` setting allows the connector to add it to the site's locales (`PUT /site`, a background job whose
 * result is polled): off by default, as adding a locale revalidates every record and is an administrator's call.
 *
 * Webhooks: DatoCMS does not sign its calls; a webhook can carry HTTP basic authentication and custom headers, so
 * the connection's secret comes either as the basic-auth password or in `X-Parlance-Webhook-Secret`, compared in
 * constant time. Neither carries a time, so a replay cannot be told from a fresh call; it only starts one more sync.
 *
 * References: https://www.datocms.com/docs/content-management-api (overview, headers), …/resources/site (locales,
 * first one the main locale), …/resources/item-type and …/resources/field (`localized`, `field_type`, `validators.
 * length`, `hint`), …/resources/item/instances (`filter[type]`, `page[offset]`, `page[limit]` up to 500,
 * `meta.total_count`), …/resources/item/update (`meta.current_version`, 422 STALE_ITEM_VERSION), …/resources/site/update
 * (`attributes.locales`; a job, per datocms/js-rest-api-clients Site.ts and pollJobResult.ts), …/technical-limits
 * (429 with `X-RateLimit-Reset` in seconds), …/resources/webhook (basic auth, custom headers, payload), and
 * datocms/js-rest-api-clients packages/rest-client-utils (error body `{ data: [{ type: 'api_error', attributes:
 * { code, details } }] }`, the 429 wait).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { abortableSleep } from '../../imports/platform-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** Records per page asked for (DatoCMS allows up to 500). */
const PAGE = 100;
/** The most records one listing reads; a site beyond it is narrowed with the `models` setting. */
const MAX_ITEMS = 20_000;
/** The field types that hold plain translatable text. */
const TEXT_TYPES = new Set(['string', 'text']);
const JSON_API = 'application/vnd.api+json';

const API_KEY = /^[a-z][a-z0-9_]*$/;

const settings = z
  .object({
    api_url: z.string().url().default('https://site-api.datocms.com').openapi({ description: "The Content Management API's base URL. Default `https://site-api.datocms.com`." }),
    environment: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, "Expected a DatoCMS environment id such as 'main' or 'staging'.")
      .optional()
      .openapi({ description: "The environment to read and write (sent as `X-Environment`); the project's primary environment when absent." }),
    models: z
      .array(z.string().regex(API_KEY, "Expected a DatoCMS model api_key such as 'blog_post'."))
      .min(1)
      .optional()
      .openapi({ description: 'Model `api_key`s to translate (`["blog_post", "page"]`); every model with localized text fields when absent.' }),
    locales: z.record(z.string(), z.string().min(1)).optional().openapi({ description: 'A Parlance locale → DatoCMS locale code, where the codes differ beyond case and `_`/`-` (`{"pt": "pt-BR"}`).' }),
    create_locales: z
      .boolean()
      .default(false)
      .openapi({ description: "Add a project target locale the site lacks to the site's locales (`PUT /site`; the token's role must be allowed to change the project's settings). Default false: such a locale is skipped and reported." }),
  })
  .strict();

const secrets = z
  .object({
    api_token: z.string().min(1).openapi({ description: 'A DatoCMS API token with access to the Content Management API (Settings → API tokens), whose role may read and update the chosen models.' }),
  })
  .strict();

export type DatocmsSettings = z.infer<typeof settings>;
export type DatocmsSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<DatocmsSettings, DatocmsSecrets>;

const siteSchema = z.object({ data: z.object({ id: z.string(), attributes: z.object({ name: z.string().optional(), locales: z.array(z.string()) }).loose() }) });
const itemTypeSchema = z.object({
  id: z.string(),
  attributes: z.object({ name: z.string(), api_key: z.string(), modular_block: z.boolean().optional(), title_field: z.unknown().optional() }).loose(),
  relationships: z.object({ title_field: z.object({ data: z.object({ id: z.string() }).nullable() }).optional() }).loose().optional(),
});
const fieldSchema = z.object({
  id: z.string(),
  attributes: z
    .object({
      label: z.string(),
      api_key: z.string(),
      field_type: z.string(),
      localized: z.boolean(),
      hint: z.string().nullish(),
      validators: z.object({ length: z.object({ max: z.number().optional(), eq: z.number().optional() }).loose().optional() }).loose().optional(),
    })
    .loose(),
});
const itemSchema = z.object({
  id: z.string(),
  attributes: z.record(z.string(), z.unknown()).default({}),
  meta: z.object({ current_version: z.string() }).loose(),
});
const listSchema = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: z.object({ total_count: z.number() }).loose().optional() });
type ItemType = z.infer<typeof itemTypeSchema>;
type Field = z.infer<typeof fieldSchema>;
type Item = z.infer<typeof itemSchema>;

/** What `write` needs of a listed string: its record and field, the model's localized fields, each locale's code and value at the listing. */
const refSchema = z.object({
  item: z.string(),
  field: z.string(),
  localized: z.array(z.string()),
  remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })),
});
type Ref = z.infer<typeof refSchema>;

const base = (s: DatocmsSettings) => s.api_url.replace(/\/+$/, '');
const where = (s: DatocmsSettings) => (s.environment ? `DatoCMS environment '${s.environment}'` : 'the DatoCMS project');

function headers(ctx: Ctx, write = false): Record<string, string> {
  return {
    authorization: `Bearer ${ctx.secrets.api_token}`,
    accept: 'application/json',
    'x-api-version': '3',
    ...(ctx.settings.environment ? { 'x-environment': ctx.settings.environment } : {}),
    ...(write ? { 'content-type': JSON_API } : {}),
  };
}

/** How often, and how many times, the result of DatoCMS's background job (a site update) is asked for. */
const JOB_POLL_MS = 500;
const JOB_POLLS = 20;

/** Error codes that pass by themselves: a person editing the record, validations re-run after a schema change, maintenance. */
const TRANSIENT = new Set(['ITEM_LOCKED', 'BATCH_DATA_VALIDATION_IN_PROGRESS', 'MAINTENANCE_MODE']);

/** DatoCMS's error entities (`{ data: [{ type: 'api_error', attributes: { code, details } }] }`), if the body is one. */
function apiErrors(text: string): { code: string; details: Record<string, unknown> }[] {
  try {
    const body = JSON.parse(text) as { data?: { type?: string; attributes?: { code?: unknown; details?: unknown } }[] };
    if (!Array.isArray(body.data)) return [];
    return body.data.flatMap((e) => (e?.type === 'api_error' && typeof e.attributes?.code === 'string' ? [{ code: e.attributes.code, details: (e.attributes.details ?? {}) as Record<string, unknown> }] : []));
  } catch {
    return [];
  }
}

/** DatoCMS's words for a failed answer: its error codes with the details that name a field or a limit. */
function datoMessage(text: string): string {
  const errors = apiErrors(text);
  if (errors.length === 0) return text.trim().replace(/\s+/g, ' ').slice(0, 200);
  return errors
    .slice(0, 3)
    .map(({ code, details }) => {
      const said = ['field', 'code', 'message', 'limit', 'environment'].flatMap((k) => (typeof details[k] === 'string' || typeof details[k] === 'number' ? [`${k} ${String(details[k])}`] : []));
      return said.length ? `${code} (${said.join(', ')})` : code;
    })
    .join('; ');
}

/** The ConnectorError for a failed DatoCMS answer to `what`. */
async function datoFailure(response: Response, what: string): Promise<ConnectorError> {
  const text = await response.text().catch(() => '');
  const codes = apiErrors(text).map((e) => e.code);
  const said = datoMessage(text);
  const quoted = said ? `: ${said}` : '';
  if (response.status === 401) return new ConnectorError('auth', `${what}: DatoCMS refused the API token (HTTP 401${quoted}). Create a token with Content Management API access in Settings → API tokens, then PATCH the connection.`);
  if (response.status === 403) return new ConnectorError('auth', `${what}: the API token's role may not do this (HTTP 403${quoted}). Give its role read and update rights on the models, or use another token.`);
  if (response.status === 429 || response.status >= 500) return new ConnectorError('unavailable', `${what}: DatoCMS answered HTTP ${response.status}${quoted}.`);
  if (codes.some((c) => TRANSIENT.has(c))) return new ConnectorError('unavailable', `${what}: DatoCMS answered HTTP ${response.status}${quoted}; retrying later.`);
  return new ConnectorError('config', `${what}: DatoCMS answered HTTP ${response.status}${quoted}. Check the connection's settings.`);
}

async function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string): Promise<z.infer<T>> {
  const response = await ctx.http.request(url, { headers: headers(ctx) });
  if (!response.ok) throw await datoFailure(response, what);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConnectorError('unavailable', `${what}: DatoCMS answered HTTP ${response.status} with a body that is not JSON.`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer from ${new URL(url).host} is not a DatoCMS Content Management API answer (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}). Check the connection's api_url.`);
  return parsed.data;
}

interface LocalePlan {
  source: string;
  /** Parlance tag → DatoCMS locale code, for the target locales the site has. */
  codes: Map<string, string>;
  missing: string[];
  all: string[];
  /** The DatoCMS codes this listing added to the site (`create_locales`). */
  created: string[];
}

/**
 * Adds `added` to the site's locales. DatoCMS answers a site update with a background job (202 `{ data: { type: 'job',
 * id } }`) whose result `GET /job-results/{id}` gives once it is done (404 until then).
 */
async function addSiteLocales(ctx: Ctx, siteId: string, existing: string[], added: string[]): Promise<void> {
  const locales = [...existing, ...added];
  const what = `Adding the locale(s) ${added.join(', ')} to ${where(ctx.settings)} (create_locales)`;
  const response = await ctx.http.request(`${base(ctx.settings)}/site`, { method: 'PUT', headers: headers(ctx, true), body: JSON.stringify({ data: { type: 'site', id: siteId, attributes: { locales } } }) });
  if (response.status === 403) throw new ConnectorError('auth', `${what}: DatoCMS refused it (HTTP 403: ${datoMessage(await response.text())}). The token's role may not change the project's settings: give it that right, or turn create_locales off.`);
  if (!response.ok) throw await datoFailure(response, what);
  if (response.status !== 202) return void (await response.body?.cancel());
  const job = z.object({ data: z.object({ type: z.literal('job'), id: z.string() }) }).safeParse(await response.json().catch(() => undefined));
  if (!job.success) throw new ConnectorError('unavailable', `${what}: DatoCMS answered 202 without a job.`);
  for (let poll = 0; poll < JOB_POLLS; poll++) {
    await abortableSleep(JOB_POLL_MS, ctx.signal);
    const result = await ctx.http.request(`${base(ctx.settings)}/job-results/${encodeURIComponent(job.data.data.id)}`, { headers: headers(ctx) });
    if (result.status === 404) {
      await result.body?.cancel();
      continue;
    }
    if (!result.ok) throw await datoFailure(result, `${what}, reading job ${job.data.data.id}`);
    const body = z.object({ data: z.object({ attributes: z.object({ status: z.number(), payload: z.unknown() }) }) }).safeParse(await result.json().catch(() => undefined));
    if (!body.success) throw new ConnectorError('unavailable', `${what}: job ${job.data.data.id}'s result is not a DatoCMS job result.`);
    const { status, payload } = body.data.data.attributes;
    if (status >= 200 && status < 300) return;
    throw await datoFailure(new Response(JSON.stringify(payload), { status }), what);
  }
  throw new ConnectorError('unavailable', `${what}: job ${job.data.data.id} was still running after ${(JOB_POLL_MS * JOB_POLLS) / 1000} s.`);
}

async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const site = await getJson(ctx, `${base(ctx.settings)}/site`, siteSchema, `Reading the locales of ${where(ctx.settings)}`);
  const all = site.data.attributes.locales;
  const source = matchLocales([ctx.sourceLocale], all, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!source) throw new ConnectorError('config', `${where(ctx.settings)} has no locale for the project's source locale '${ctx.sourceLocale}' (it has ${all.join(', ') || 'none'}). Add it in Settings → Locales, or map it with the \`locales\` setting.`);
  const { codes, missing } = matchLocales(ctx.targetLocales, all.filter((c) => c !== source), ctx.settings.locales);
  if (!ctx.settings.create_locales || missing.length === 0) return { source, codes, missing, all, created: [] };
  const created = missing.map((tag) => ctx.settings.locales?.[tag] ?? tag);
  await addSiteLocales(ctx, site.data.id, all, created);
  missing.forEach((tag, i) => codes.set(tag, created[i]!));
  return { source, codes, missing: [], all: [...all, ...created], created };
}

async function models(ctx: Ctx): Promise<ItemType[]> {
  const body = await getJson(ctx, `${base(ctx.settings)}/item-types`, listSchema(itemTypeSchema), `Reading the models of ${where(ctx.settings)}`);
  const all = body.data.filter((t) => !t.attributes.modular_block);
  const wanted = ctx.settings.models;
  if (!wanted) return all;
  const unknown = wanted.filter((key) => !all.some((t) => t.attributes.api_key === key));
  if (unknown.length) throw new ConnectorError('config', `The models setting names ${unknown.map((k) => `'${k}'`).join(', ')}, which ${where(ctx.settings)} does not have as a model (it has ${all.map((t) => `'${t.attributes.api_key}'`).join(', ') || 'none'}).`);
  return all.filter((t) => wanted.includes(t.attributes.api_key));
}

/** Every record of a model, page by page (the offset moves by what came back, so a smaller server cap still works). */
async function readItems(ctx: Ctx, type: ItemType, budget: number): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let pages = 0;
  for (;;) {
    const url = new URL(`${base(ctx.settings)}/items`);
    url.searchParams.set('filter[type]', type.id);
    url.searchParams.set('page[offset]', String(items.length));
    url.searchParams.set('page[limit]', String(PAGE));
    const body = await getJson(ctx, url.toString(), listSchema(itemSchema), `Listing the '${type.attributes.api_key}' records of ${where(ctx.settings)} (page ${pages + 1})`);
    pages++;
    items.push(...body.data);
    if (items.length > budget) throw new ConnectorError('config', `${where(ctx.settings)} holds more than ${MAX_ITEMS} records in the chosen models; name fewer in the \`models\` setting.`);
    const total = body.meta?.total_count ?? items.length;
    if (body.data.length === 0 || items.length >= total) return { items, pages };
  }
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const localizedValue = (item: Item, field: string): Record<string, unknown> => {
  const value = item.attributes[field];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
};

function maxLength(field: Field): number | undefined {
  const length = field.attributes.validators?.length;
  return length?.max ?? length?.eq;
}

function itemStrings(type: ItemType, fields: Field[], localized: string[], item: Item, plan: LocalePlan): RemoteString[] {
  const titleId = type.relationships?.title_field?.data?.id;
  const titleField = titleId ? fields.find((f) => f.id === titleId) : undefined;
  const title = titleField ? textOf(localizedValue(item, titleField.attributes.api_key)[plan.source]) : '';
  const context = title ? `${type.attributes.name}: ${title}` : type.attributes.name;
  const strings: RemoteString[] = [];
  for (const field of fields) {
    const key = field.attributes.api_key;
    const values = localizedValue(item, key);
    const source = textOf(values[plan.source]);
    if (source.trim() === '') continue;
    const remote: Ref['remote'] = {};
    const translations: Record<string, string> = {};
    for (const [tag, code] of plan.codes) {
      const seen = textOf(values[code]);
      remote[tag] = { code, seen };
      if (seen !== '') translations[tag] = seen;
    }
    const limit = maxLength(field);
    const notes = [field.attributes.label, field.attributes.hint].filter((s): s is string => !!s && s.trim() !== '').join(' — ');
    strings.push({
      key: `${item.id}.${key}`,
      source,
      context,
      ...(notes ? { notes } : {}),
      ...(limit !== undefined ? { maxLength: limit } : {}),
      ref: { item: item.id, field: key, localized, remote } satisfies Ref as JsonValue,
      translations,
    });
  }
  return strings;
}

async function list(ctx: Ctx) {
  const plan = await planLocales(ctx);
  const units: StringUnit[] = [];
  let records = 0;
  let pages = 0;
  for (const type of await models(ctx)) {
    const fields = (await getJson(ctx, `${base(ctx.settings)}/item-types/${encodeURIComponent(type.id)}/fields`, listSchema(fieldSchema), `Reading the fields of model '${type.attributes.api_key}' of ${where(ctx.settings)}`)).data;
    const localized = fields.filter((f) => f.attributes.localized).map((f) => f.attributes.api_key);
    const text = fields.filter((f) => f.attributes.localized && TEXT_TYPES.has(f.attributes.field_type));
    if (text.length === 0) continue;
    const read = await readItems(ctx, type, MAX_ITEMS - records);
    records += read.items.length;
    pages += read.pages;
    units.push({ kind: 'strings', path: type.attributes.api_key, locales: [...plan.codes.keys()], strings: read.items.flatMap((item) => itemStrings(type, fields.filter((f) => text.includes(f)), localized, item, plan)) });
  }
  const created = plan.created.length ? `; added locale(s) ${plan.created.join(', ')} to the site` : '';
  const skipped = plan.missing.length ? `; ${plan.missing.join(', ')} not among the site's locales (${plan.all.join(', ')}), skipped: add them in DatoCMS Settings → Locales or map them with the locales setting` : '';
  return { units, note: `${records} records of ${units.length} models in ${pages} pages; source locale ${plan.source}${created}${skipped}.` };
}

interface Outcome {
  written: number;
  kept: string[];
  gone: string[];
}

/** Merges one record's translations into a fresh read and PUTs it; 'conflict' when DatoCMS met a newer version. */
async function writeItem(ctx: Ctx, id: string, writes: { write: StringWrite; ref: Ref }[], outcome: Outcome): Promise<'done' | 'conflict'> {
  const url = `${base(ctx.settings)}/items/${encodeURIComponent(id)}`;
  const read = await ctx.http.request(url, { headers: headers(ctx) });
  if (read.status === 404) {
    await read.body?.cancel();
    outcome.gone.push(id);
    return 'done';
  }
  if (!read.ok) throw await datoFailure(read, `Reading record '${id}' of ${where(ctx.settings)}`);
  const parsed = z.object({ data: itemSchema }).safeParse(await read.json().catch(() => undefined));
  if (!parsed.success) throw new ConnectorError('unavailable', `Reading record '${id}' of ${where(ctx.settings)}: the answer is not a DatoCMS record.`);
  const item = parsed.data.data;
  const attributes: Record<string, Record<string, unknown>> = {};
  const kept: string[] = [];
  let changed = 0;
  for (const { write, ref } of writes) {
    const code = ref.remote[write.locale]!.code;
    const now = textOf(localizedValue(item, ref.field)[code]);
    if (now === write.text) continue;
    // Someone wrote this value after the listing: it is theirs, and the next sync imports it.
    if (now !== ref.remote[write.locale]!.seen) {
      kept.push(`${id}.${ref.field} (${code})`);
      continue;
    }
    attributes[ref.field] = { ...(attributes[ref.field] ?? localizedValue(item, ref.field)), [code]: write.text };
    changed++;
  }
  if (changed > 0) {
    const translated = Object.keys(attributes);
    // DatoCMS keeps one set of locales per record: a locale new to it goes into every localized field.
    const localized = writes[0]!.ref.localized;
    const present = new Set(localized.flatMap((f) => Object.keys(localizedValue(item, f))));
    const added = [...new Set(Object.values(attributes).flatMap((v) => Object.keys(v)))].filter((code) => !present.has(code));
    if (added.length > 0) {
      for (const field of localized) {
        const value = attributes[field] ?? { ...localizedValue(item, field) };
        for (const code of added) if (!(code in value)) value[code] = null;
        attributes[field] = value;
      }
    }
    const response = await ctx.http.request(url, {
      method: 'PUT',
      headers: headers(ctx, true),
      body: JSON.stringify({ data: { type: 'item', id, attributes, meta: { current_version: item.meta.current_version } } }),
    });
    if (response.status === 422 || response.status === 404) {
      const text = await response.text();
      const codes = apiErrors(text).map((e) => e.code);
      if (codes.includes('STALE_ITEM_VERSION')) return 'conflict';
      if (response.status === 404) {
        outcome.gone.push(id);
        return 'done';
      }
      const what = `Writing translations into record '${id}' (${translated.join(', ')}) of ${where(ctx.settings)}`;
      if (codes.some((c) => TRANSIENT.has(c))) throw await datoFailure(new Response(text, { status: response.status }), what);
      throw new ConnectorError('config', `${what}: DatoCMS refused them (HTTP 422: ${datoMessage(text)}). A validation of the field (a length, a format, a required locale) rejects the translation; change the translation in Parlance or the field's validations in DatoCMS.`);
    }
    if (!response.ok) throw await datoFailure(response, `Writing translations into record '${id}' of ${where(ctx.settings)}`);
    await response.body?.cancel();
  }
  outcome.written += changed;
  outcome.kept.push(...kept);
  return 'done';
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const byItem = new Map<string, { write: StringWrite; ref: Ref }[]>();
  const unplaced: string[] = [];
  for (const w of writeBack.strings) {
    const ref = refSchema.safeParse(w.ref);
    if (!ref.success || !ref.data.remote[w.locale]) {
      unplaced.push(`${w.key} (${w.locale})`);
      continue;
    }
    byItem.set(ref.data.item, [...(byItem.get(ref.data.item) ?? []), { write: w, ref: ref.data }]);
  }
  const outcome: Outcome = { written: 0, kept: [], gone: [] };
  const raced: string[] = [];
  for (const [id, writes] of byItem) {
    // A STALE_ITEM_VERSION means a save between our read and our PUT: read once more and check the values again.
    if ((await writeItem(ctx, id, writes, outcome)) === 'conflict' && (await writeItem(ctx, id, writes, outcome)) === 'conflict') raced.push(id);
  }
  const notes = [
    outcome.kept.length ? `Not overwritten, changed in DatoCMS since the listing: ${outcome.kept.join(', ')}.` : '',
    outcome.gone.length ? `Records deleted in DatoCMS since the listing, not written: ${outcome.gone.join(', ')}.` : '',
    raced.length ? `Records still changing under the write (422 STALE_ITEM_VERSION twice), left for the next sync: ${raced.join(', ')}.` : '',
    unplaced.length ? `No DatoCMS locale or record for: ${unplaced.join(', ')}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/** Entity types whose events change what Parlance lists: records, and models (a field made localized or not). */
const SYNC_ENTITIES = new Set(['item', 'item_type']);
const webhookBody = z.object({ environment: z.string().optional(), entity_type: z.string().optional(), event_type: z.string().optional() }).loose();

/** The secret a DatoCMS webhook call carries: its HTTP basic password, or the X-Parlance-Webhook-Secret custom header. */
function givenSecret(request: WebhookRequest): { secret: string; via: string } | undefined {
  const header = request.headers.get('x-parlance-webhook-secret');
  if (header !== null) return { secret: header.trim(), via: 'X-Parlance-Webhook-Secret' };
  const authorization = request.headers.get('authorization');
  const basic = authorization && /^Basic\s+(\S+)$/i.exec(authorization.trim());
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) return { secret: decoded.slice(colon + 1), via: 'HTTP basic authentication' };
  }
  return undefined;
}

function verifyWebhook(request: WebhookRequest, secret: string, s: DatocmsSettings): WebhookVerdict {
  const given = givenSecret(request);
  if (!given) return { verified: false, sync: false, reason: "The DatoCMS webhook call carries neither HTTP basic authentication nor an X-Parlance-Webhook-Secret header: set the webhook's basic-auth password (or that custom header) to the connection's webhook secret." };
  if (!sameSecret(given.secret, secret)) return { verified: false, sync: false, reason: `The DatoCMS webhook's ${given.via} does not match the connection's webhook secret.` };
  let body: z.infer<typeof webhookBody> | undefined;
  try {
    const parsed = webhookBody.safeParse(JSON.parse(new TextDecoder().decode(request.body)));
    if (parsed.success) body = parsed.data;
  } catch {
    // A custom payload that is not JSON still came with the secret: sync, and let the listing tell.
  }
  if (body?.entity_type && !SYNC_ENTITIES.has(body.entity_type)) return { verified: true, sync: false, reason: `A '${body.entity_type}' event does not change records' text.` };
  if (body?.environment && s.environment && body.environment !== s.environment) return { verified: true, sync: false, reason: `The event is about environment '${body.environment}', not '${s.environment}'.` };
  return { verified: true, sync: true };
}

export const datocms: Connector<DatocmsSettings, DatocmsSecrets> = {
  id: 'datocms',
  name: 'DatoCMS',
  category: 'content',
  direction: 'two_way',
  summary: "DatoCMS records' localized string and text fields, one path per model, translations written back into each record's locales through the Content Management API.",
  settings,
  secrets,
  webhooks: "A DatoCMS webhook (record and model events) whose HTTP basic-auth password, or X-Parlance-Webhook-Secret custom header, is the connection's webhook secret, compared in constant time; DatoCMS does not sign its calls",
  list,
  write,
  verifyWebhook,
};
