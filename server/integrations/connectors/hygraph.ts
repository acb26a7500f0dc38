/**
 * Hygraph (formerly GraphCMS) as a two-way content connector, through a project environment's Content API (GraphQL,
 * `POST https://<region>.cdn.hygraph.com/content/<project>/<environment>` or the older `…/v2/<project>/<environment>`,
 * a Permanent Auth Token as `Authorization: Bearer`). The project's locales are the values of its `Locale` enum; the
 * source is the locale matching the project's source locale. For every model named in the `models` setting, each
 * localized `String` field (the `String` input fields of `<Model>CreateLocalizationDataInput`, or the ones the setting
 * names) of every entry's DRAFT stage is one string, key `<entry id>.<field>`, path the model's API ID, notes the field's
 * description in the schema. Entries are read `first`/`skip` page by page with their `localizations(locales: [...],
 * includeCurrent: false)`; translations are written with one `update<Model>(where: { id }, data: { localizations: {
 * upsert: [{ locale, create, update }] } })` per entry, after a fresh read so that a value a person changed since the
 * listing is left alone (and imported by the next sync as theirs). Nothing is published: translations land in DRAFT.
 *
 * Limits, said rather than faked: rich text, JSON, components and relations are not read; a field's character limit
 * lives in the Management API's validations, which this connector does not read, so no length hint is given. A
 * project locale the environment lacks is reported in the sync's log and skipped: locales are added in the project's
 * settings (the Content API cannot create them).
 *
 * Rate limits: Hygraph answers 429 (`Retry-After` where sent, waited out by the HTTP client); a GraphQL error about
 * the rate, complexity or concurrency of the request is treated as the same signal (retried later).
 *
 * Webhooks: Hygraph signs a webhook's calls when it has a secret key: `gcms-signature: sign=<base64 HMAC-SHA256>,
 * env=<environment>, t=<ms>`, the HMAC taken over `{"Body":<raw body>,"EnvironmentName":<env>,"TimeStamp":<t>}` (as
 * hygraph/hygraph-utils `verifyWebhookSignature` builds it). The connection's webhook secret is that secret key; a
 * signature older than five minutes is refused as a replay.
 *
 * References: https://hygraph.com/docs/api-reference/content-api/localization (localized fields, `locales`,
 * `localizations(locales, includeCurrent)`, `upsert` of localizations), …/content-api/queries (`first`, `skip`, `stage`,
 * the `<plural>` query), …/content-api/mutations (`update<Model>`), …/basics/api-limits (429, 413 request size),
 * …/basics/webhooks and hygraph/hygraph-utils index.js (the signature).
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { failure, vendorMessage } from '../connector-http.js';
import { ConnectorError } from '../connector-error.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** Entries per page (Hygraph's default maximum for `first` is 100). */
const PAGE = 100;
/** The most entries one listing reads; a project beyond it is narrowed with the `models` setting. */
const MAX_ITEMS = 20_000;
/** How old a signed webhook call may be. */
const SIGNATURE_TTL_MS = 5 * 60_000;

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

const modelSetting = z
  .object({
    model: z.string().regex(NAME, "Expected a Hygraph model API ID such as 'Article'.").openapi({ description: "The model's API ID (`Article`)." }),
    plural: z.string().regex(NAME, "Expected a Hygraph plural API ID such as 'articles'.").optional().openapi({ description: "The model's plural API ID, the name of its list query (`articles`); default: the API ID with a lower-case first letter and an `s`." }),
    fields: z.array(z.string().regex(NAME, "Expected a field API ID such as 'title'.")).min(1).optional().openapi({ description: "The localized String fields to translate; every localized String field when absent." }),
  })
  .strict();

const settings = z
  .object({
    endpoint: z.string().url().openapi({ description: "The environment's Content API endpoint (Project settings → Endpoints → Content API), e.g. `https://eu-central-1.cdn.hygraph.com/content/<project id>/master`." }),
    models: z.array(modelSetting).min(1).openapi({ description: 'The models to translate (`[{"model": "Article"}]`).' }),
    locales: z.record(z.string(), z.string().min(1)).optional().openapi({ description: 'A Parlance locale → Hygraph locale API ID, where they differ beyond case and `_`/`-` (`{"pt": "pt_BR"}`).' }),
  })
  .strict();

const secrets = z
  .object({
    token: z.string().min(1).openapi({ description: "A Permanent Auth Token (Project settings → Access → Permanent Auth Tokens) whose Content API permissions allow reading and updating the models in every locale, on the DRAFT stage." }),
  })
  .strict();

export type HygraphSettings = z.infer<typeof settings>;
export type HygraphSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<HygraphSettings, HygraphSecrets>;
type ModelSetting = z.infer<typeof modelSetting>;

const gqlError = z.object({ message: z.string(), extensions: z.record(z.string(), z.unknown()).optional() }).loose();
const gqlAnswer = z.object({ data: z.record(z.string(), z.unknown()).nullish(), errors: z.array(gqlError).optional() });

const typeRef: z.ZodType<{ kind: string; name?: string | null; ofType?: { kind: string; name?: string | null } | null }> = z.object({ kind: z.string(), name: z.string().nullish(), ofType: z.object({ kind: z.string(), name: z.string().nullish() }).nullish() });
const introspectedType = z.object({ enumValues: z.array(z.object({ name: z.string() })).nullish(), inputFields: z.array(z.object({ name: z.string(), description: z.string().nullish(), type: typeRef })).nullish() }).nullable();

const entrySchema = z.object({ id: z.string(), localizations: z.array(z.record(z.string(), z.unknown())).default([]) }).catchall(z.unknown());

/** What `write` needs of a listed string: its model and entry, the field, each locale's API ID and the value listed. */
const refSchema = z.object({ model: z.string(), entry: z.string(), field: z.string(), remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })) });
type Ref = z.infer<typeof refSchema>;

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const pluralOf = (m: ModelSetting) => m.plural ?? `${lowerFirst(m.model)}s`;
const host = (ctx: Ctx) => new URL(ctx.settings.endpoint).host;

/** A GraphQL error that says the request was throttled: Hygraph's rate, concurrency and complexity limits. */
const THROTTLED = /too many requests|rate limit|concurren|complexity|throttl/i;
const DENIED = /not allowed|permission|unauthori[sz]ed|token|forbidden/i;

/** Posts one GraphQL operation; HTTP failures and GraphQL errors become ConnectorErrors naming `what`. */
async function graphql(ctx: Ctx, query: string, variables: Record<string, unknown>, what: string, tolerate?: RegExp): Promise<Record<string, unknown>> {
  const response = await ctx.http.request(ctx.settings.endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.secrets.token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  if (response.status === 401 || response.status === 403) {
    const said = vendorMessage(await response.text().catch(() => ''));
    throw new ConnectorError('auth', `${what}: Hygraph refused the Permanent Auth Token (HTTP ${response.status}${said ? `: ${said}` : ''}). Check the token and its Content API permissions (Project settings → Access), then PATCH the connection.`);
  }
  if (response.status === 413) throw new ConnectorError('config', `${what}: Hygraph refused the request as too large (HTTP 413). Name fewer fields in the models setting.`);
  if (!response.ok) throw await failure(response, what);
  let parsed: z.infer<typeof gqlAnswer>;
  try {
    parsed = gqlAnswer.parse(await response.json());
  } catch {
    throw new ConnectorError('config', `${what}: the answer from ${host(ctx)} is not a GraphQL answer. Check the connection's endpoint (the Content API endpoint of the environment).`);
  }
  const errors = parsed.errors ?? [];
  // Errors the caller handles from the data (an entry deleted meanwhile answers null with an error).
  if (tolerate && parsed.data && errors.length > 0 && errors.every((e) => tolerate.test(e.message))) return parsed.data;
  if (errors.length > 0) {
    const said = errors.slice(0, 3).map((e) => e.message).join('; ');
    if (errors.some((e) => THROTTLED.test(e.message) || e.extensions?.code === 'TOO_MANY_REQUESTS')) throw new ConnectorError('unavailable', `${what}: Hygraph throttled the request (${said}).`);
    if (errors.some((e) => DENIED.test(e.message))) throw new ConnectorError('auth', `${what}: Hygraph refused the Permanent Auth Token's permissions (${said}). Allow it to read and update the models in every locale, then PATCH the connection.`);
    throw new ConnectorError('config', `${what}: Hygraph answered: ${said}. Check the models setting.`);
  }
  if (!parsed.data) throw new ConnectorError('unavailable', `${what}: Hygraph answered without data.`);
  return parsed.data;
}

interface ModelPlan {
  setting: ModelSetting;
  fields: { name: string; description?: string }[];
}

interface Plan {
  source: string;
  codes: Map<string, string>;
  missing: string[];
  all: string[];
  models: ModelPlan[];
}

const isString = (t: z.infer<typeof typeRef>) => (t.kind === 'SCALAR' ? t.name === 'String' : t.kind === 'NON_NULL' && t.ofType?.kind === 'SCALAR' && t.ofType.name === 'String');

/** The environment's locales and each model's localized String fields, in one introspection query. */
async function plan(ctx: Ctx): Promise<Plan> {
  const aliases = ctx.settings.models.map((m, i) => `m${i}: __type(name: "${m.model}CreateLocalizationDataInput") { inputFields { name description type { kind name ofType { kind name } } } }`).join('\n  ');
  const query = `query ParlanceSchema {\n  locales: __type(name: "Locale") { enumValues { name } }\n  ${aliases}\n}`;
  const data = await graphql(ctx, query, {}, `Reading the locales and models of ${host(ctx)}`);
  const locales = introspectedType.parse(data.locales ?? null);
  const all = locales?.enumValues?.map((v) => v.name) ?? [];
  if (all.length === 0) throw new ConnectorError('config', `The Hygraph environment at ${ctx.settings.endpoint} has no Locale enum: none of its models is localized. Mark the fields to translate as localized in the schema editor.`);
  const source = matchLocales([ctx.sourceLocale], all, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!source) throw new ConnectorError('config', `The Hygraph environment has no locale for the project's source locale '${ctx.sourceLocale}' (it has ${all.join(', ')}). Add it in Project settings → Locales, or map it with the \`locales\` setting.`);
  const { codes, missing } = matchLocales(ctx.targetLocales, all.filter((c) => c !== source), ctx.settings.locales);
  const models = ctx.settings.models.map((setting, i): ModelPlan => {
    const input = introspectedType.parse(data[`m${i}`] ?? null);
    if (!input?.inputFields) throw new ConnectorError('config', `The models setting names '${setting.model}', which has no localized fields in this Hygraph environment (no ${setting.model}CreateLocalizationDataInput type). Check the model's API ID and that some of its fields are localized.`);
    const strings = input.inputFields.filter((f) => isString(f.type));
    const wanted = setting.fields ?? strings.map((f) => f.name);
    const unknown = wanted.filter((name) => !strings.some((f) => f.name === name));
    if (unknown.length) throw new ConnectorError('config', `The models setting names field(s) ${unknown.map((f) => `'${f}'`).join(', ')} of model '${setting.model}', which are not localized String fields (its localized String fields: ${strings.map((f) => `'${f.name}'`).join(', ') || 'none'}).`);
    return { setting, fields: strings.filter((f) => wanted.includes(f.name)).map((f) => ({ name: f.name, ...(f.description ? { description: f.description } : {}) })) };
  });
  return { source, codes, missing, all, models };
}

async function readEntries(ctx: Ctx, model: ModelPlan, p: Plan, budget: number): Promise<{ entries: z.infer<typeof entrySchema>[]; pages: number }> {
  const fields = model.fields.map((f) => f.name).join(' ');
  const plural = pluralOf(model.setting);
  const query = `query ParlanceList($first: Int, $skip: Int, $locales: [Locale!]!, $targets: [Locale!]!) {\n  entries: ${plural}(first: $first, skip: $skip, stage: DRAFT, locales: $locales, orderBy: createdAt_ASC) {\n    id ${fields}\n    localizations(locales: $targets, includeCurrent: false) { locale ${fields} }\n  }\n}`;
  const entries: z.infer<typeof entrySchema>[] = [];
  let pages = 0;
  for (;;) {
    const data = await graphql(ctx, query, { first: PAGE, skip: entries.length, locales: [p.source], targets: [...p.codes.values()] }, `Listing the '${model.setting.model}' entries of ${host(ctx)} (page ${pages + 1}, query ${plural})`);
    const page = z.array(entrySchema).safeParse(data.entries);
    if (!page.success) throw new ConnectorError('config', `Listing the '${model.setting.model}' entries: the answer to query '${plural}' is not a list of entries. Check the model's plural API ID in the models setting.`);
    pages++;
    entries.push(...page.data);
    if (entries.length > budget) throw new ConnectorError('config', `The Hygraph environment holds more than ${MAX_ITEMS} entries in the chosen models; name fewer in the \`models\` setting.`);
    if (page.data.length < PAGE) return { entries, pages };
  }
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

function entryStrings(model: ModelPlan, entry: z.infer<typeof entrySchema>, p: Plan): RemoteString[] {
  const strings: RemoteString[] = [];
  const byLocale = new Map(entry.localizations.map((l) => [textOf(l.locale), l]));
  for (const field of model.fields) {
    const source = textOf(entry[field.name]);
    if (source.trim() === '') continue;
    const remote: Ref['remote'] = {};
    const translations: Record<string, string> = {};
    for (const [tag, code] of p.codes) {
      const seen = textOf(byLocale.get(code)?.[field.name]);
      remote[tag] = { code, seen };
      if (seen !== '') translations[tag] = seen;
    }
    strings.push({
      key: `${entry.id}.${field.name}`,
      source,
      context: `${model.setting.model} ${entry.id}, field ${field.name}`,
      ...(field.description ? { notes: field.description } : {}),
      ref: { model: model.setting.model, entry: entry.id, field: field.name, remote } satisfies Ref as JsonValue,
      translations,
    });
  }
  return strings;
}

async function list(ctx: Ctx) {
  const p = await plan(ctx);
  const units: StringUnit[] = [];
  let count = 0;
  let pages = 0;
  for (const model of p.models) {
    const read = await readEntries(ctx, model, p, MAX_ITEMS - count);
    count += read.entries.length;
    pages += read.pages;
    units.push({ kind: 'strings', path: model.setting.model, locales: [...p.codes.keys()], strings: read.entries.flatMap((e) => entryStrings(model, e, p)) });
  }
  const skipped = p.missing.length ? `; ${p.missing.join(', ')} not among the environment's locales (${p.all.join(', ')}), skipped: add them in Hygraph's Project settings → Locales or map them with the locales setting` : '';
  return { units, note: `${count} entries of ${units.length} models in ${pages} pages (DRAFT stage); source locale ${p.source}${skipped}.` };
}

interface Outcome {
  written: number;
  kept: string[];
  gone: string[];
}

/** Re-reads one entry's localizations and upserts the translations still safe to write. */
async function writeEntry(ctx: Ctx, model: string, id: string, writes: { write: StringWrite; ref: Ref }[], outcome: Outcome): Promise<void> {
  const fields = [...new Set(writes.map((w) => w.ref.field))];
  const codes = [...new Set(writes.map((w) => w.ref.remote[w.write.locale]!.code))];
  const single = lowerFirst(model);
  const read = `query ParlanceEntry($id: ID!, $targets: [Locale!]!) {\n  entry: ${single}(where: { id: $id }, stage: DRAFT) { id localizations(locales: $targets, includeCurrent: false) { locale ${fields.join(' ')} } }\n}`;
  const data = await graphql(ctx, read, { id, targets: codes }, `Reading ${model} entry '${id}' of ${host(ctx)}`);
  if (data.entry === null || data.entry === undefined) {
    outcome.gone.push(id);
    return;
  }
  const entry = entrySchema.parse(data.entry);
  const now = new Map(entry.localizations.map((l) => [textOf(l.locale), l]));
  const upserts = new Map<string, Record<string, string>>();
  let changed = 0;
  for (const { write, ref } of writes) {
    const code = ref.remote[write.locale]!.code;
    const current = textOf(now.get(code)?.[ref.field]);
    if (current === write.text) continue;
    // Someone wrote this value after the listing: it is theirs, and the next sync imports it.
    if (current !== ref.remote[write.locale]!.seen) {
      outcome.kept.push(`${id}.${ref.field} (${code})`);
      continue;
    }
    upserts.set(code, { ...upserts.get(code), [ref.field]: write.text });
    changed++;
  }
  if (changed === 0) return;
  const mutation = `mutation ParlanceWrite($id: ID!, $data: ${model}UpdateInput!) {\n  entry: update${model}(where: { id: $id }, data: $data) { id }\n}`;
  const upsert = [...upserts].map(([locale, values]) => ({ locale, create: values, update: values }));
  const what = `Writing translations into ${model} entry '${id}' (${[...upserts.keys()].join(', ')}) of ${host(ctx)}`;
  const written = await graphql(ctx, mutation, { id, data: { localizations: { upsert } } }, what, /could not find|not found/i);
  if (written.entry === null || written.entry === undefined) {
    outcome.gone.push(id);
    return;
  }
  outcome.written += changed;
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const byEntry = new Map<string, { model: string; writes: { write: StringWrite; ref: Ref }[] }>();
  const unplaced: string[] = [];
  for (const w of writeBack.strings) {
    const ref = refSchema.safeParse(w.ref);
    if (!ref.success || !ref.data.remote[w.locale] || !NAME.test(ref.data.model)) {
      unplaced.push(`${w.key} (${w.locale})`);
      continue;
    }
    const group = byEntry.get(ref.data.entry) ?? { model: ref.data.model, writes: [] };
    group.writes.push({ write: w, ref: ref.data });
    byEntry.set(ref.data.entry, group);
  }
  const outcome: Outcome = { written: 0, kept: [], gone: [] };
  for (const [id, group] of byEntry) await writeEntry(ctx, group.model, id, group.writes, outcome);
  const notes = [
    outcome.kept.length ? `Not overwritten, changed in Hygraph since the listing: ${outcome.kept.join(', ')}.` : '',
    outcome.gone.length ? `Entries deleted in Hygraph since the listing, not written: ${outcome.gone.join(', ')}.` : '',
    unplaced.length ? `No Hygraph locale or entry for: ${unplaced.join(', ')}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/** Hygraph's signature of a webhook call: base64 HMAC-SHA256 of `{"Body","EnvironmentName","TimeStamp"}` (hygraph/hygraph-utils). */
export function hygraphSignature(secret: string, rawBody: string, environment: string, timestamp: number): string {
  const payload = JSON.stringify({ Body: rawBody, EnvironmentName: environment, TimeStamp: timestamp }).replace(/[&<>]/g, (c) => `\\\\u00${c.charCodeAt(0).toString(16)}`);
  return createHmac('sha256', secret).update(payload).digest('base64');
}

const webhookBody = z.object({ operation: z.string().optional(), data: z.object({ __typename: z.string().optional() }).loose().optional() }).loose();
const SYNC_OPERATIONS = new Set(['create', 'update', 'delete', 'publish', 'unpublish']);

function verifyWebhook(request: WebhookRequest, secret: string, s: HygraphSettings, now = Date.now()): WebhookVerdict {
  const header = request.headers.get('gcms-signature');
  if (header === null) return { verified: false, sync: false, reason: "The call has no gcms-signature header: give the Hygraph webhook a secret key, the connection's webhook secret." };
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim()).map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]));
  const timestamp = Number(parts.t);
  if (!parts.sign || parts.env === undefined || !Number.isFinite(timestamp)) return { verified: false, sync: false, reason: 'The gcms-signature header is not `sign=…, env=…, t=…`.' };
  if (Math.abs(now - timestamp) > SIGNATURE_TTL_MS) return { verified: false, sync: false, reason: `The signed call is ${Math.round((now - timestamp) / 1000)} s old; a signature is good for ${SIGNATURE_TTL_MS / 1000} s.` };
  const expected = hygraphSignature(secret, new TextDecoder().decode(request.body), parts.env, timestamp);
  if (!sameSecret(parts.sign, expected)) return { verified: false, sync: false, reason: "gcms-signature does not match the call signed with the connection's webhook secret (the webhook's secret key)." };
  let body: z.infer<typeof webhookBody> | undefined;
  try {
    const parsed = webhookBody.safeParse(JSON.parse(new TextDecoder().decode(request.body)));
    if (parsed.success) body = parsed.data;
  } catch {
    // A signed body that is not JSON: sync, and let the listing tell.
  }
  if (body?.operation && !SYNC_OPERATIONS.has(body.operation)) return { verified: true, sync: false, reason: `A '${body.operation}' operation does not change entries' text.` };
  const type = body?.data?.__typename;
  if (type && !s.models.some((m) => m.model === type)) return { verified: true, sync: false, reason: `Model '${type}' is not in the models setting.` };
  return { verified: true, sync: true };
}

export const hygraph: Connector<HygraphSettings, HygraphSecrets> = {
  id: 'hygraph',
  name: 'Hygraph',
  category: 'content',
  direction: 'two_way',
  summary: "Hygraph entries' localized String fields, one path per model, translations written back into each entry's DRAFT localizations through the Content API (GraphQL).",
  settings,
  secrets,
  webhooks: "Hygraph's signed webhooks (gcms-signature: base64 HMAC-SHA256 with the webhook's secret key, the connection's webhook secret, over the body, environment and time; at most five minutes old); entry operations on the chosen models start a sync",
  list,
  write,
  verifyWebhook: (request, secret, s) => verifyWebhook(request, secret, s),
};
export { verifyWebhook as verifyHygraphWebhook };
