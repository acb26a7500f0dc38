/**
 * Kontent.ai as a two-way content connector, through the Management API v2
 * (`https://manage.kontent.ai/v2/projects/{environment_id}/…`, a Management API key as a Bearer token): every `text`
 * and `rich_text` element of every content item's variant in the environment's default language is one string (key
 * `<item id>.<element codename>`), one path per content type. Item lists follow the `x-continuation` header; each
 * item's variants come from `GET /items/{id}/variants`, each content type's elements (name, guidelines as the note,
 * `maximum_length` in characters as the length limit) from `GET /types/{id}`. Translations go into the variant of the
 * target language with `PUT /items/{id}/variants/codename/{language}` (only the changed elements, by element id),
 * after a fresh read of the item's variants so that a value a person changed since the listing is left alone; a
 * published variant first gets a new version (`PUT …/new-version`), as Kontent.ai refuses to change a published one.
 * Parlance never publishes.
 *
 * Left out, said rather than faked: non-localizable elements (one value for every language), rich text that holds
 * components or linked items (`<object>` tags; writing it back needs the components themselves), and languages the
 * environment does not have (reported in the sync's note; languages are created in Kontent.ai by a person, as they
 * count towards the subscription).
 *
 * Webhooks: Kontent.ai signs each notification with `X-Kontent-ai-Signature`, the base64 HMAC-SHA256 of the body with
 * the webhook's secret. The signature carries no time, so a replayed notification cannot be told from a fresh one; a
 * replay only starts one more sync, which finds nothing to do.
 *
 * References: kontent.ai/learn/docs/apis/management-api-v2 (language variants, content items, content types,
 * languages, errors, API limitations: 10 requests/s, 429 with Retry-After and `{request_id, error_code, message}`),
 * kontent.ai/learn/docs/webhooks, and kontent-ai/webhook-helper-js (the signature and the notification's shape).
 */
import { z } from '@hono/zod-openapi';
import { createHmac } from 'node:crypto';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, vendorMessage } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const settings = z
  .object({
    api_url: z.string().url().default('https://manage.kontent.ai/v2').openapi({ description: 'The Management API v2 base URL. Default `https://manage.kontent.ai/v2`.' }),
    environment_id: z
      .string()
      .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'Expected the Kontent.ai environment ID, a UUID (Environment settings → General → Environment ID).')
      .openapi({ description: 'The environment whose content is translated (Environment settings → General → Environment ID).' }),
    content_types: z.array(z.string().min(1)).min(1).optional().openapi({ description: 'Content type codenames to translate (`["article"]`); every type with text or rich text elements when absent.' }),
    rich_text: z.boolean().default(true).openapi({ description: 'Whether rich text elements are translated too (as their HTML). Default true.' }),
    locales: z.record(z.string(), z.string().min(1)).optional().openapi({ description: 'A Parlance locale → Kontent.ai language codename, where they differ beyond case and `_`/`-` (`{"de": "german"}`).' }),
  })
  .strict();

const secrets = z
  .object({
    api_key: z.string().min(1).openapi({ description: 'A Management API key (Project settings → API keys → Management API) with permission to read and manage content in the environment.' }),
  })
  .strict();

export type KontentSettings = z.infer<typeof settings>;
export type KontentSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<KontentSettings, KontentSecrets>;

/** The most content items one sync reads (the listing stops there and says so). */
const MAX_ITEMS = 5000;
/** The most pages of one list (items, languages) followed, whatever the continuation says. */
const MAX_PAGES = 200;
/**
 * The Published workflow step: the same id in every Kontent.ai workflow. A variant in it must get a new version
 * before it can be changed; an upsert refused for being published is handled the same way, should the id differ.
 */
const PUBLISHED_STEP = 'c199950d-99f0-4983-b711-6c4c91624b22';

const reference = z.object({ id: z.string() });
const pagination = z.object({ continuation_token: z.string().nullish(), next_page: z.string().nullish() }).nullish();
const languageSchema = z.object({ id: z.string(), codename: z.string(), name: z.string().optional(), is_active: z.boolean().optional(), is_default: z.boolean().optional(), external_id: z.string().nullish() });
const itemSchema = z.object({ id: z.string(), name: z.string().optional(), codename: z.string(), type: reference });
const limitSchema = z.object({ value: z.number(), applies_to: z.string().optional() }).nullish();
const elementSchema = z
  .object({
    id: z.string(),
    codename: z.string().optional(),
    name: z.string().optional(),
    type: z.string(),
    guidelines: z.string().nullish(),
    is_non_localizable: z.boolean().optional(),
    maximum_length: limitSchema,
    maximum_text_length: limitSchema,
  })
  .loose();
const typeSchema = z.object({ id: z.string(), codename: z.string(), name: z.string().optional(), elements: z.array(elementSchema) });
const variantSchema = z.object({
  content_item: reference,
  language: reference,
  elements: z.array(z.object({ element: reference, value: z.unknown() }).loose()),
  workflow: z.object({ step_identifier: reference.optional() }).loose().optional(),
  workflow_step: reference.optional(),
});
type Language = z.infer<typeof languageSchema>;
type ContentType = z.infer<typeof typeSchema>;
type Element = z.infer<typeof elementSchema>;
type Variant = z.infer<typeof variantSchema>;

/** What `write` needs of a listed string: its item and element, and each target language's codename and value at the listing. */
const refSchema = z.object({ item: z.string(), element: z.string(), remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })) });
type Ref = z.infer<typeof refSchema>;

const environmentUrl = (s: KontentSettings) => `${s.api_url.replace(/\/+$/, '')}/projects/${encodeURIComponent(s.environment_id)}`;
const authHeaders = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.secrets.api_key}` });
const where = (s: KontentSettings) => `Kontent.ai environment '${s.environment_id}'`;

async function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string, headers: Record<string, string> = {}): Promise<z.infer<T>> {
  const body = await ctx.http.json<unknown>(url, { what, headers: { ...authHeaders(ctx), ...headers } });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer from ${new URL(url).host} is not a Management API v2 answer (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}). Check the connection's api_url.`);
  return parsed.data;
}

/** Every object of a paged list (`{ <field>: [...], pagination: { continuation_token } }`), the token sent back in `x-continuation`. */
async function readAll<T extends z.ZodType>(ctx: Ctx, url: string, field: string, item: T, what: string, max = Infinity): Promise<{ items: z.infer<T>[]; pages: number; capped: boolean }> {
  const page = z.object({ [field]: z.array(item), pagination });
  const items: z.infer<T>[] = [];
  let token: string | undefined;
  for (let pages = 1; ; pages++) {
    const body = (await getJson(ctx, url, page, `${what}${pages > 1 ? ` (page ${pages})` : ''}`, token ? { 'x-continuation': token } : {})) as { pagination?: { continuation_token?: string | null } | null } & Record<string, z.infer<T>[]>;
    items.push(...body[field]!);
    token = body.pagination?.continuation_token ?? undefined;
    if (items.length >= max) return { items: items.slice(0, max), pages, capped: true };
    if (!token) return { items, pages, capped: false };
    if (pages >= MAX_PAGES) return { items, pages, capped: true };
  }
}

interface LocalePlan {
  source: Language;
  /** Parlance locale → the Kontent.ai language. */
  targets: Map<string, Language>;
  missing: string[];
}

async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const { items } = await readAll(ctx, `${environmentUrl(ctx.settings)}/languages`, 'languages', languageSchema, `Reading the languages of ${where(ctx.settings)}`);
  const active = items.filter((l) => l.is_active !== false);
  const source = active.find((l) => l.is_default);
  if (!source) throw new ConnectorError('config', `${where(ctx.settings)} has no active default language; Parlance reads the source text from it.`);
  const others = active.filter((l) => l.id !== source.id);
  const { codes, missing } = matchLocales(ctx.targetLocales, others.map((l) => l.codename), ctx.settings.locales);
  const targets = new Map([...codes].map(([tag, code]) => [tag, others.find((l) => l.codename === code)!] as const));
  return { source, targets, missing };
}

const isPublished = (variant: Variant) => (variant.workflow?.step_identifier ?? variant.workflow_step)?.id === PUBLISHED_STEP;

/** The element's text in a variant: '' where it has none. */
function valueOf(variant: Variant | undefined, elementId: string): string {
  const value = variant?.elements.find((e) => e.element.id === elementId)?.value;
  return typeof value === 'string' ? value : '';
}

/** Kontent.ai's empty rich text is one empty paragraph. */
const EMPTY_RICH_TEXT = /^\s*(<p>\s*(<br\s*\/?>)?\s*<\/p>)?\s*$/;

/** The elements of a type Parlance translates, and why others were left out. */
function translatable(ctx: Ctx, type: ContentType): Element[] {
  return type.elements.filter((e) => !e.is_non_localizable && (e.type === 'text' || (e.type === 'rich_text' && ctx.settings.rich_text)));
}

/** A length limit in characters is the string's maxLength; one in words goes into its note. */
function limits(element: Element): { maxLength?: number; hint?: string } {
  const limit = element.type === 'rich_text' ? element.maximum_text_length : element.maximum_length;
  if (!limit) return {};
  if ((limit.applies_to ?? 'characters') === 'characters') return { maxLength: limit.value };
  return { hint: `At most ${limit.value} ${limit.applies_to}.` };
}

async function list(ctx: Ctx) {
  const plan = await planLocales(ctx);
  const read = await readAll(ctx, `${environmentUrl(ctx.settings)}/items`, 'items', itemSchema, `Listing the content items of ${where(ctx.settings)}`, MAX_ITEMS);
  const types = new Map<string, ContentType>();
  const units = new Map<string, StringUnit>();
  const wanted = ctx.settings.content_types;
  let withoutSource = 0;
  let withComponents = 0;
  let itemsRead = 0;
  for (const item of read.items) {
    let type = types.get(item.type.id);
    if (!type) {
      type = await getJson(ctx, `${environmentUrl(ctx.settings)}/types/${encodeURIComponent(item.type.id)}`, typeSchema, `Reading content type '${item.type.id}' of ${where(ctx.settings)}`);
      types.set(item.type.id, type);
    }
    if (wanted && !wanted.includes(type.codename)) continue;
    const elements = translatable(ctx, type);
    if (elements.length === 0) continue;
    itemsRead++;
    const variants = await readVariants(ctx, item.id, item.codename);
    if (variants === 'gone') continue;
    const source = variants.find((v) => v.language.id === plan.source.id);
    if (!source) {
      withoutSource++;
      continue;
    }
    const unit = units.get(type.codename) ?? { kind: 'strings', path: type.codename, strings: [], locales: [...plan.targets.keys()] };
    units.set(type.codename, unit);
    for (const element of elements) {
      const text = valueOf(source, element.id);
      if (text === '' || (element.type === 'rich_text' && EMPTY_RICH_TEXT.test(text))) continue;
      if (element.type === 'rich_text' && /<object\b/i.test(text)) {
        withComponents++;
        continue;
      }
      const remote: Ref['remote'] = {};
      const translations: Record<string, string> = {};
      for (const [tag, language] of plan.targets) {
        const seen = valueOf(variants.find((v) => v.language.id === language.id), element.id);
        remote[tag] = { code: language.codename, seen };
        if (seen !== '' && !(element.type === 'rich_text' && EMPTY_RICH_TEXT.test(seen))) translations[tag] = seen;
      }
      const { maxLength, hint } = limits(element);
      const notes = [element.name, element.guidelines?.trim(), hint].filter(Boolean).join(' — ');
      const string: RemoteString = {
        key: `${item.id}.${element.codename ?? element.id}`,
        source: text,
        context: `${type.name ?? type.codename}: ${item.name ?? item.codename}`,
        ...(notes ? { notes } : {}),
        ...(maxLength !== undefined ? { maxLength } : {}),
        ref: { item: item.id, element: element.id, remote } satisfies Ref as JsonValue,
        translations,
      };
      unit.strings.push(string);
    }
  }
  const notes = [`Read ${itemsRead} content item(s) of ${units.size} content type(s) (${read.pages} page(s) of items); source language '${plan.source.codename}'.`];
  if (read.capped) notes.push(`Stopped at ${read.items.length} items; narrow the content_types setting to translate the rest.`);
  if (wanted) {
    const unknown = wanted.filter((codename) => ![...types.values()].some((t) => t.codename === codename));
    if (unknown.length) notes.push(`No content item is of the content type(s) ${unknown.map((c) => `'${c}'`).join(', ')} named in content_types.`);
  }
  if (withoutSource) notes.push(`${withoutSource} item(s) have no variant in '${plan.source.codename}' and were left out.`);
  if (withComponents) notes.push(`${withComponents} rich text element(s) hold components or linked items and were left out.`);
  if (plan.missing.length) notes.push(`${plan.missing.join(', ')} not in the environment's active languages, skipped (add the language in Kontent.ai or map it with the locales setting).`);
  return { units: [...units.values()], note: notes.join(' ') };
}

/** An item's variants; 'gone' when the item was deleted after it was listed. */
async function readVariants(ctx: Ctx, itemId: string, label: string): Promise<Variant[] | 'gone'> {
  const url = `${environmentUrl(ctx.settings)}/items/${encodeURIComponent(itemId)}/variants`;
  const what = `Reading the language variants of content item '${label}' in ${where(ctx.settings)}`;
  const response = await ctx.http.request(url, { headers: authHeaders(ctx) });
  if (response.status === 404) {
    await response.body?.cancel();
    return 'gone';
  }
  if (!response.ok) throw await failure(response, what);
  const parsed = z.array(variantSchema).safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer is not a list of language variants. Check the connection's api_url.`);
  return parsed.data;
}

interface Outcome {
  written: number;
  kept: string[];
  gone: string[];
  versioned: number;
}

async function put(ctx: Ctx, url: string, body: unknown): Promise<Response> {
  return ctx.http.request(url, { method: 'PUT', headers: { ...authHeaders(ctx), 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** Upserts one variant's changed elements, creating a new version first where the variant is published. */
async function upsertVariant(ctx: Ctx, itemId: string, code: string, published: boolean, elements: { element: { id: string }; value: string }[], outcome: Outcome): Promise<void> {
  const url = `${environmentUrl(ctx.settings)}/items/${encodeURIComponent(itemId)}/variants/codename/${encodeURIComponent(code)}`;
  const what = `Writing the '${code}' variant of content item '${itemId}' in ${where(ctx.settings)}`;
  const newVersion = async () => {
    const response = await put(ctx, `${url}/new-version`, undefined);
    if (!response.ok) throw await failure(response, `Creating a new version of the published '${code}' variant of content item '${itemId}' in ${where(ctx.settings)}`);
    await response.body?.cancel();
    outcome.versioned++;
  };
  if (published) await newVersion();
  let response = await put(ctx, url, { elements });
  if (response.status === 400 && !published) {
    // Published (or scheduled) under a step id we did not know: a new version, then once more.
    const said = vendorMessage(await response.text());
    if (!/publish|new version/i.test(said)) throw new ConnectorError('config', `${what}: Kontent.ai answered HTTP 400: ${said}`);
    await newVersion();
    response = await put(ctx, url, { elements });
  }
  if (!response.ok) throw await failure(response, what);
  await response.body?.cancel();
}

async function writeItem(ctx: Ctx, itemId: string, writes: { write: StringWrite; ref: Ref }[], plan: LocalePlan, outcome: Outcome): Promise<void> {
  const variants = await readVariants(ctx, itemId, itemId);
  if (variants === 'gone') {
    outcome.gone.push(itemId);
    return;
  }
  const byLanguage = new Map<string, { elements: { element: { id: string }; value: string }[]; published: boolean }>();
  for (const { write, ref } of writes) {
    const code = ref.remote[write.locale]!.code;
    const language = [...plan.targets.values()].find((l) => l.codename === code);
    if (!language) continue;
    const variant = variants.find((v) => v.language.id === language.id);
    const now = valueOf(variant, ref.element);
    if (now === write.text) continue;
    // Someone wrote this value after the listing: it is theirs, and the next sync imports it.
    if (now !== ref.remote[write.locale]!.seen) {
      outcome.kept.push(`${write.key} (${code})`);
      continue;
    }
    const entry = byLanguage.get(code) ?? { elements: [], published: variant ? isPublished(variant) : false };
    entry.elements.push({ element: { id: ref.element }, value: write.text });
    byLanguage.set(code, entry);
  }
  for (const [code, { elements, published }] of byLanguage) {
    await upsertVariant(ctx, itemId, code, published, elements, outcome);
    outcome.written += elements.length;
  }
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = await planLocales(ctx);
  const byItem = new Map<string, { write: StringWrite; ref: Ref }[]>();
  const unplaced: string[] = [];
  for (const w of writeBack.strings) {
    const ref = refSchema.safeParse(w.ref);
    if (!ref.success || !ref.data.remote[w.locale] || !plan.targets.has(w.locale)) {
      unplaced.push(`${w.key} (${w.locale})`);
      continue;
    }
    byItem.set(ref.data.item, [...(byItem.get(ref.data.item) ?? []), { write: w, ref: ref.data }]);
  }
  const outcome: Outcome = { written: 0, kept: [], gone: [], versioned: 0 };
  for (const [itemId, writes] of byItem) await writeItem(ctx, itemId, writes, plan, outcome);
  const notes = [
    outcome.versioned > 0 ? `Created a new version of ${outcome.versioned} published variant(s) to write into (not published).` : '',
    outcome.kept.length > 0 ? `Not overwritten, changed in Kontent.ai since the listing: ${outcome.kept.slice(0, 10).join(', ')}${outcome.kept.length > 10 ? ', …' : ''}.` : '',
    outcome.gone.length > 0 ? `Content item(s) deleted in Kontent.ai since the listing, not written: ${outcome.gone.join(', ')}.` : '',
    unplaced.length > 0 ? `No Kontent.ai language or element for: ${unplaced.slice(0, 10).join(', ')}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

/** The base64 HMAC-SHA256 of the body with the webhook's secret, as Kontent.ai puts in X-Kontent-ai-Signature. */
export function kontentSignature(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

const notificationSchema = z.object({
  data: z.object({ system: z.object({ type: z.string().optional() }).loose().optional() }).loose().optional(),
  message: z.object({ environment_id: z.string().optional(), project_id: z.string().optional(), object_type: z.string().optional(), type: z.string().optional() }).loose().optional(),
});
/** Object types whose changes can change what Parlance lists (items, their variants, types, languages). */
const SYNC_OBJECTS = new Set(['content_item', 'content_item_variant', 'content_type', 'language', 'language_settings']);

function verifyWebhook(request: WebhookRequest, secret: string, s: KontentSettings): WebhookVerdict {
  const given = request.headers.get('x-kontent-ai-signature');
  if (given === null) return { verified: false, sync: false, reason: 'No X-Kontent-ai-Signature header: the request is not a signed Kontent.ai webhook notification.' };
  if (!sameSecret(given.trim(), kontentSignature(secret, request.body))) return { verified: false, sync: false, reason: "X-Kontent-ai-Signature does not match the body signed with the connection's webhook secret (the Kontent.ai webhook's secret)." };
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(request.body));
  } catch {
    return { verified: true, sync: true };
  }
  // The current format holds `notifications`; the legacy one is a single `{ data, message }`.
  const raw = (body as { notifications?: unknown[] } | null)?.notifications ?? [body];
  const notifications = (Array.isArray(raw) ? raw : []).flatMap((n) => {
    const parsed = notificationSchema.safeParse(n);
    return parsed.success ? [parsed.data] : [];
  });
  if (notifications.length === 0) return { verified: true, sync: true };
  const ours = notifications.filter((n) => (n.message?.environment_id ?? n.message?.project_id ?? s.environment_id).toLowerCase() === s.environment_id.toLowerCase());
  if (ours.length === 0) return { verified: true, sync: false, reason: `The notification is about another environment, not '${s.environment_id}'.` };
  const relevant = ours.filter((n) => SYNC_OBJECTS.has(n.message?.object_type ?? n.message?.type ?? 'content_item'));
  if (relevant.length === 0) return { verified: true, sync: false, reason: `Object type '${ours[0]!.message?.object_type ?? ours[0]!.message?.type}' does not change content items' text.` };
  return { verified: true, sync: true };
}

export const kontent: Connector<KontentSettings, KontentSecrets> = {
  id: 'kontent',
  name: 'Kontent.ai',
  category: 'content',
  direction: 'two_way',
  summary: "Kontent.ai content items' text and rich text elements, one path per content type, translations written into each item's language variants (a new version where published, never published) through the Management API v2.",
  settings,
  secrets,
  webhooks: "Kontent.ai's X-Kontent-ai-Signature (base64 HMAC-SHA256 of the body with the webhook's secret as the connection's webhook secret); content item, content type and language notifications start a sync",
  list,
  write,
  verifyWebhook,
};
