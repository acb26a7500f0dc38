/**
 * Zendesk Guide (the Help Center API) as a two-way content connector: the title and the HTML body of every article,
 * and the name and description of every section and category, in the help center's default locale are the source
 * strings (key `<id>.title` / `<id>.body`, one path per kind: `articles`, `sections`, `categories`). Each item's
 * translations come from `GET /api/v2/help_center/{kind}/{id}/translations`; translations are written back with
 * `PUT …/translations/{locale}` where the item has one in that locale, else created with `POST …/translations` (as a
 * draft unless `draft` is false), after reading that translation again so that a value a person changed since the
 * listing is left as it is (the next sync imports it as a human translation).
 *
 * Article bodies are HTML: they go across whole, markup included (the service's placeholder and markup gates keep the
 * tags intact). Zendesk offers no API to enable a help center language, so a project locale the help center does not
 * have is skipped and named in the sync's note. An item whose source locale is not the help center's default locale is
 * left out (named in the note). Lists are read with cursor pagination (`page[size]=100`, `links.next` while
 * `meta.has_more`), following only next links on the configured host, and at most MAX_ITEMS items of each kind.
 *
 * Webhooks: Zendesk signs with `X-Zendesk-Webhook-Signature`, base64 HMAC-SHA256 with the webhook's signing secret of
 * `X-Zendesk-Webhook-Signature-Timestamp` followed by the raw body; the connection's webhook secret is that signing
 * secret, and a timestamp more than five minutes off is refused as a replay. Article events (published, unpublished,
 * author changed) start a sync; votes, comments and subscriptions do not.
 *
 * References: https://developer.zendesk.com/api-reference/help_center/help-center-api/translations/ (translation
 * fields, list/show/create/update, `draft`, `outdated`), …/help-center-api/articles/, …/sections/, …/categories/,
 * …/help-center-api/locales/ (`{ locales, default_locale }`), …/help-center-api/introduction/ (ids as strings, locales
 * like `en-us`, brand subdomains), https://developer.zendesk.com/api-reference/introduction/pagination/ (cursor
 * pagination), …/introduction/rate-limits/ (429 with Retry-After), …/introduction/security-and-auth/ (`{email}/token:
 * {api_token}` Basic auth, OAuth bearer tokens), https://developer.zendesk.com/documentation/webhooks/verifying/ and
 * https://developer.zendesk.com/api-reference/webhooks/event-types/article-events/.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, Listing, RemoteString, StringUnit, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, getValidated, vendorMessage, type FailureWording } from '../connector-http.js';
import { fieldsToWrite, groupWrites, listed, outcomeNotes, settleWrite, type Outcome, type PlacedWrite } from '../help-center.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const KINDS = ['articles', 'sections', 'categories'] as const;
type Kind = (typeof KINDS)[number];
/** Zendesk's largest cursor page on the Help Center lists. */
const PAGE_SIZE = 100;
/** The most items of one kind a sync reads (beyond it the sync fails, saying so, rather than dropping some). */
const MAX_ITEMS = 10_000;
/** Zendesk states no window for its signature timestamp; five minutes allows for clock skew and refuses replays. */
const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

const settings = z
  .object({
    url: z.string().url().openapi({ description: "The help center's Zendesk address, `https://acme.zendesk.com` (with several brands, the brand's own subdomain)." }),
    content: z
      .array(z.enum(KINDS))
      .min(1)
      .default([...KINDS])
      .openapi({ description: 'What to translate: `articles` (title and HTML body), `sections` and `categories` (name and description). Default all three.' }),
    section_ids: z
      .array(z.string().regex(/^\d+$/, "Expected a Zendesk section id such as '360004785313'."))
      .min(1)
      .optional()
      .openapi({ description: 'Only these sections, their articles and their categories; every section when absent.' }),
    draft: z.boolean().default(true).openapi({ description: 'Create new translations as drafts (the default), for a person to publish in Guide; false publishes them at once. Existing translations keep their draft status.' }),
    locales: z
      .record(z.string(), z.string().min(1))
      .default({})
      .openapi({ description: 'Parlance locale → Zendesk help center locale where they differ beyond case and `_`/`-` (`{"de": "de-de"}`).' }),
  })
  .strict();

const secrets = z
  .union([
    z
      .object({
        email: z.string().email().openapi({ description: "The email address of the Zendesk agent whose API token this is (a Guide manager, or an agent who may edit the articles' translations)." }),
        api_token: z.string().min(1).openapi({ description: 'An API token (Admin Center › Apps and integrations › APIs › Zendesk API › API token).' }),
      })
      .strict(),
    z
      .object({
        oauth_token: z.string().min(1).openapi({ description: 'An OAuth access token with the `hc:read` and `hc:write` scopes (or `read write`).' }),
      })
      .strict(),
  ])
  .openapi({ description: 'Either `email` and `api_token` (Basic auth as `{email}/token:{api_token}`) or an `oauth_token` (Bearer).' });

export type ZendeskGuideSettings = z.infer<typeof settings>;
export type ZendeskGuideSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<ZendeskGuideSettings, ZendeskGuideSecrets>;

const translationSchema = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  locale: z.string(),
  title: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  draft: z.boolean().optional(),
  outdated: z.boolean().optional(),
  updated_at: z.string().optional(),
});
type Translation = z.infer<typeof translationSchema>;
const itemSchema = z.object({
  id: z.union([z.number(), z.string()]),
  source_locale: z.string().optional(),
  section_id: z.union([z.number(), z.string()]).nullable().optional(),
  category_id: z.union([z.number(), z.string()]).nullable().optional(),
});
type Item = z.infer<typeof itemSchema>;
const pageSchema = z.object({ meta: z.object({ has_more: z.boolean().optional() }).optional(), links: z.object({ next: z.string().nullable().optional() }).optional() }).loose();
const localesSchema = z.object({ locales: z.array(z.string()), default_locale: z.string() });

/** What `write` needs of a listed string: its item, its field, and each target locale's Zendesk code and value then. */
const refSchema = z.object({
  kind: z.enum(KINDS),
  id: z.string(),
  field: z.enum(['title', 'body']),
  remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })),
});
type Ref = z.infer<typeof refSchema>;

const SINGULAR: Record<Kind, string> = { articles: 'article', sections: 'section', categories: 'category' };
/** How Guide names each field of each kind, for the notes. */
const FIELD_NAMES: Record<Kind, Record<'title' | 'body', string>> = {
  articles: { title: 'Article title', body: 'Article body (HTML: keep every tag and attribute as it is)' },
  sections: { title: 'Section name', body: 'Section description' },
  categories: { title: 'Category name', body: 'Category description' },
};

const base = (ctx: Ctx) => ctx.settings.url.replace(/\/+$/, '');
const hc = (ctx: Ctx) => `${base(ctx)}/api/v2/help_center`;

function authHeaders(ctx: Ctx): Record<string, string> {
  const s = ctx.secrets;
  if ('oauth_token' in s) return { authorization: `Bearer ${s.oauth_token}` };
  return { authorization: `Basic ${Buffer.from(`${s.email}/token:${s.api_token}`).toString('base64')}` };
}

/** Zendesk's error envelope `{ error, description }` (or `{ error: { title, message } }`) as one sentence. */
function zendeskMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; description?: unknown; details?: unknown };
    const parts = [typeof body.error === 'string' ? body.error : '', typeof body.description === 'string' ? body.description : ''].filter(Boolean);
    if (body.details && typeof body.details === 'object') parts.push(vendorMessage(JSON.stringify(body.details)));
    if (parts.length > 0) return parts.join(': ').slice(0, 300);
  } catch {
    // Not JSON: the usual reading below.
  }
  return vendorMessage(text);
}

const wording: FailureWording = { vendor: 'Zendesk', read: zendeskMessage, credentials: "the connection's email and API token (or OAuth token) and that the agent may manage Guide content", settings: "the connection's url and settings" };

/** A GET's JSON, checked against `schema`; null for a 404 when `orGone`. */
async function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string, orGone = false): Promise<z.infer<T> | null> {
  const read = await getValidated(ctx.http, url, { schema, what, wording, answer: 'a Help Center API answer', check: "the connection's url", orGone, headers: { ...authHeaders(ctx), accept: 'application/json' } });
  return read && read.body;
}

/** Every item of a Help Center list, by cursor pages; next links must stay on the configured host. */
async function readAll<T extends z.ZodType>(ctx: Ctx, url: string, field: string, item: T, what: string): Promise<{ items: z.infer<T>[]; pages: number }> {
  const read = await readAllOrGone(ctx, url, field, item, what, false);
  return read!;
}

/** `readAll`, or null when `gone` and the first page answers 404 (the item whose list it is was deleted). */
async function readAllOrGone<T extends z.ZodType>(ctx: Ctx, url: string, field: string, item: T, what: string, gone: boolean): Promise<{ items: z.infer<T>[]; pages: number } | null> {
  const schema = pageSchema.extend({ [field]: z.array(item) });
  const items: z.infer<T>[] = [];
  const first = new URL(url);
  first.searchParams.set('page[size]', String(PAGE_SIZE));
  let next: string | null | undefined = first.toString();
  let pages = 0;
  while (next) {
    pages++;
    const body = (await getJson(ctx, next, schema, `${what} (page ${pages})`, gone && pages === 1)) as (z.infer<typeof pageSchema> & Record<string, z.infer<T>[]>) | null;
    if (body === null) return null;
    items.push(...body[field]!);
    if (items.length > MAX_ITEMS) throw new ConnectorError('config', `${what}: more than ${MAX_ITEMS} items; narrow the connection with \`section_ids\` or \`content\`.`);
    next = body.meta?.has_more ? body.links?.next : undefined;
    if (next && new URL(next, url).origin !== new URL(url).origin) throw new ConnectorError('config', `${what}: Zendesk's next page link points at another host (${new URL(next, url).host}); Parlance does not send the credentials there.`);
    if (next) next = new URL(next, url).toString();
  }
  return { items, pages };
}

interface LocalePlan {
  /** The help center's default locale: the source text of every item whose source locale it is. */
  source: string;
  targets: Map<string, string>;
  missing: string[];
}

const language = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase();

async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const body = (await getJson(ctx, `${hc(ctx)}/locales`, localesSchema, "Reading the help center's locales"))!;
  const source = body.default_locale;
  const mapped = ctx.settings.locales[ctx.sourceLocale];
  if (mapped ? mapped.toLowerCase() !== source.toLowerCase() : language(source) !== language(ctx.sourceLocale)) {
    throw new ConnectorError('config', `The help center's default locale is '${source}', which is not the project's source locale '${ctx.sourceLocale}'. Parlance reads the source text in the default locale; connect a project whose source is ${source}, or map it in the \`locales\` setting.`);
  }
  const { codes, missing } = matchLocales(ctx.targetLocales, body.locales.filter((code) => code !== source), ctx.settings.locales);
  return { source, targets: codes, missing };
}

const textOf = (value: string | null | undefined) => value ?? '';

/** The sections `section_ids` names, failing on an id the help center does not have. */
async function chosenSections(ctx: Ctx, ids: string[]): Promise<{ items: Item[]; pages: number }> {
  const all = await readAll(ctx, `${hc(ctx)}/sections`, 'sections', itemSchema, "Listing the help center's sections");
  const unknown = ids.filter((id) => !all.items.some((s) => String(s.id) === id));
  if (unknown.length > 0) throw new ConnectorError('config', `The section_ids setting names ${unknown.map((id) => `'${id}'`).join(', ')}, which the help center does not have (or the agent may not see).`);
  return { items: all.items.filter((s) => ids.includes(String(s.id))), pages: all.pages };
}

/** One kind's items; with `section_ids` (`sections` read and checked first), only those sections, their articles and their categories. */
async function listItems(ctx: Ctx, kind: Kind, sections: { items: Item[]; pages: number } | undefined): Promise<{ items: Item[]; pages: number }> {
  const ids = ctx.settings.section_ids;
  if (!ids || !sections) return readAll(ctx, `${hc(ctx)}/${kind}`, kind, itemSchema, `Listing the help center's ${kind}`);
  if (kind === 'sections') return sections;
  if (kind === 'categories') {
    const all = await readAll(ctx, `${hc(ctx)}/categories`, 'categories', itemSchema, "Listing the help center's categories");
    const wanted = new Set(sections.items.map((s) => String(s.category_id)));
    return { items: all.items.filter((c) => wanted.has(String(c.id))), pages: all.pages };
  }
  const items: Item[] = [];
  let pages = 0;
  for (const id of ids) {
    const read = await readAll(ctx, `${hc(ctx)}/sections/${id}/articles`, 'articles', itemSchema, `Listing the articles of section ${id}`);
    items.push(...read.items);
    pages += read.pages;
  }
  return { items, pages };
}

/** An item's translations by locale code, or null when the item is gone (deleted between the two reads). */
async function readTranslations(ctx: Ctx, kind: Kind, id: string): Promise<Map<string, Translation> | null> {
  const url = `${hc(ctx)}/${kind}/${encodeURIComponent(id)}/translations`;
  const read = await readAllOrGone(ctx, url, 'translations', translationSchema, `Reading the translations of ${SINGULAR[kind]} ${id}`, true);
  return read && new Map(read.items.map((t) => [t.locale.toLowerCase(), t]));
}

function itemStrings(kind: Kind, id: string, translations: Map<string, Translation>, plan: LocalePlan): RemoteString[] {
  const source = translations.get(plan.source.toLowerCase());
  if (!source) return [];
  const title = textOf(source.title);
  const context = `${SINGULAR[kind][0]!.toUpperCase()}${SINGULAR[kind].slice(1)} ${id}${title ? `: ${title.slice(0, 120)}` : ''}`;
  const strings: RemoteString[] = [];
  for (const field of ['title', 'body'] as const) {
    const text = textOf(source[field]);
    if (text.trim() === '') continue;
    const remote: Ref['remote'] = {};
    const held: Record<string, string> = {};
    for (const [tag, code] of plan.targets) {
      const seen = textOf(translations.get(code.toLowerCase())?.[field]);
      remote[tag] = { code, seen };
      if (seen !== '') held[tag] = seen;
    }
    strings.push({
      key: `${id}.${field}`,
      source: text,
      context,
      notes: FIELD_NAMES[kind][field],
      ref: { kind, id, field, remote } satisfies Ref as JsonValue,
      translations: held,
    });
  }
  return strings;
}

async function list(ctx: Ctx): Promise<Listing> {
  const plan = await planLocales(ctx);
  const units: StringUnit[] = [];
  const counts: string[] = [];
  const otherSource: string[] = [];
  const gone: string[] = [];
  const sections = ctx.settings.section_ids ? await chosenSections(ctx, ctx.settings.section_ids) : undefined;
  let pages = sections?.pages ?? 0;
  for (const kind of KINDS.filter((k) => ctx.settings.content.includes(k))) {
    const read = await listItems(ctx, kind, sections);
    // With section_ids the sections were read (and counted) above.
    if (read !== sections) pages += read.pages;
    const strings: RemoteString[] = [];
    for (const item of read.items) {
      const id = String(item.id);
      if (item.source_locale && item.source_locale.toLowerCase() !== plan.source.toLowerCase()) {
        otherSource.push(`${SINGULAR[kind]} ${id} (${item.source_locale})`);
        continue;
      }
      const translations = await readTranslations(ctx, kind, id);
      if (!translations) {
        gone.push(`${SINGULAR[kind]} ${id}`);
        continue;
      }
      strings.push(...itemStrings(kind, id, translations, plan));
    }
    counts.push(`${read.items.length} ${kind}`);
    units.push({ kind: 'strings', path: kind, strings, locales: [...plan.targets.keys()] });
  }
  const notes = [`Read ${counts.join(', ')} in ${pages} list page(s); source locale ${plan.source}.`];
  if (plan.missing.length > 0) notes.push(`Skipped target locale(s) ${plan.missing.join(', ')}: the help center has no such language, and Zendesk has no API to add one; enable it in Guide (Settings › Language settings) or map it with the locales setting.`);
  if (otherSource.length > 0) notes.push(`Left out, written in another source locale than ${plan.source}: ${otherSource.slice(0, 10).join(', ')}${otherSource.length > 10 ? ` and ${otherSource.length - 10} more` : ''}.`);
  if (gone.length > 0) notes.push(`Deleted while listing: ${gone.join(', ')}.`);
  return { units, note: notes.join(' ') };
}

/** A write-back's outcome, and the new translations that wait for their title. */
interface ZendeskOutcome extends Outcome {
  untitled: string[];
}

/** The translation of an item in a locale now; null when it has none (or the item is gone: the write then finds out). */
async function readOne(ctx: Ctx, kind: Kind, id: string, code: string): Promise<Translation | null> {
  const url = `${hc(ctx)}/${kind}/${encodeURIComponent(id)}/translations/${encodeURIComponent(code)}`;
  const read = await getJson(ctx, url, z.object({ translation: translationSchema }), `Reading the ${code} translation of ${SINGULAR[kind]} ${id}`, true);
  return read?.translation ?? null;
}

/** Writes one item's translation in one locale (its title and body together), never over a person's change. */
async function writeTranslation(ctx: Ctx, kind: Kind, id: string, code: string, writes: PlacedWrite<Ref>[], outcome: ZendeskOutcome): Promise<void> {
  const now = await readOne(ctx, kind, id, code);
  const fields = fieldsToWrite(writes, (field) => textOf(now?.[field]), (field) => `${SINGULAR[kind]} ${id}.${field} (${code})`, outcome);
  const changed = Object.keys(fields).length;
  if (changed === 0) return;
  const headers = { ...authHeaders(ctx), 'content-type': 'application/json', accept: 'application/json' };
  const translations = `${hc(ctx)}/${kind}/${encodeURIComponent(id)}/translations`;
  let response: Response;
  if (now) {
    response = await ctx.http.request(`${translations}/${encodeURIComponent(code)}`, { method: 'PUT', headers, body: JSON.stringify({ translation: fields }) });
  } else {
    // Zendesk requires a title to create a translation; a body alone waits for its title's translation.
    if (fields.title === undefined) {
      outcome.untitled.push(`${SINGULAR[kind]} ${id} (${code})`);
      return;
    }
    response = await ctx.http.request(translations, { method: 'POST', headers, body: JSON.stringify({ translation: { locale: code, ...fields, draft: ctx.settings.draft } }) });
  }
  await settleWrite(response, changed, `${SINGULAR[kind]} ${id}`, outcome, (failed) => failure(failed, `Writing the ${code} translation of ${SINGULAR[kind]} ${id}`, wording));
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const { groups, unplaced } = groupWrites(writeBack.strings, refSchema, (ref) => `${ref.kind}/${ref.id}`);
  const outcome: ZendeskOutcome = { written: 0, kept: [], gone: [], untitled: [] };
  for (const { ref, code, writes } of groups) await writeTranslation(ctx, ref.kind, ref.id, code, writes, outcome);
  const notes = [
    ...outcomeNotes('Zendesk', outcome),
    outcome.untitled.length > 0 ? `Not created, Zendesk needs a title for a new translation and none was translated yet: ${listed(outcome.untitled)}.` : '',
    unplaced.length > 0 ? `No help center locale or item for: ${listed(unplaced)}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, url: `${base(ctx)}/knowledge`, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

/** Zendesk's signature: base64 HMAC-SHA256, with the webhook's signing secret, of the timestamp header then the body. */
export function zendeskSignature(secret: string, timestamp: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(timestamp).update(body).digest('base64');
}

/** Article events that can change what Parlance lists; votes, comments and subscriptions cannot. */
const SYNC_EVENT = /^zen:event-type:article\.(published|unpublished|author_changed)$/;

function verifyWebhook(request: WebhookRequest, webhookSecret: string): WebhookVerdict {
  const signature = request.headers.get('x-zendesk-webhook-signature')?.trim();
  const timestamp = request.headers.get('x-zendesk-webhook-signature-timestamp')?.trim();
  if (!signature || !timestamp) return { verified: false, sync: false, reason: 'X-Zendesk-Webhook-Signature or X-Zendesk-Webhook-Signature-Timestamp header missing.' };
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return { verified: false, sync: false, reason: `X-Zendesk-Webhook-Signature-Timestamp '${timestamp.slice(0, 40)}' is not an ISO 8601 time.` };
  const age = Date.now() - at;
  if (Math.abs(age) > WEBHOOK_TOLERANCE_MS) return { verified: false, sync: false, reason: `X-Zendesk-Webhook-Signature-Timestamp is ${Math.round(age / 1000)} s off the current time; notifications more than 5 minutes off are refused as replays.` };
  if (!sameSecret(signature, zendeskSignature(webhookSecret, timestamp, request.body))) {
    return { verified: false, sync: false, reason: "X-Zendesk-Webhook-Signature does not match the body signed with the connection's webhook secret (the Zendesk webhook's signing secret)." };
  }
  let type = '';
  try {
    const parsed = z.object({ type: z.string() }).loose().safeParse(JSON.parse(new TextDecoder().decode(request.body)));
    if (parsed.success) type = parsed.data.type;
  } catch {
    // Signed but not JSON (a webhook with another request format): sync, and let the listing tell.
    return { verified: true, sync: true };
  }
  if (type && !SYNC_EVENT.test(type)) return { verified: true, sync: false, reason: `Event '${type}' does not change help center text.` };
  return { verified: true, sync: true };
}

export const zendeskGuide: Connector<ZendeskGuideSettings, ZendeskGuideSecrets> = {
  id: 'zendesk_guide',
  name: 'Zendesk Guide',
  category: 'content',
  direction: 'two_way',
  summary: "Zendesk Guide help center articles (title and HTML body), sections and categories, translations written back into each item's help center translations (new ones as drafts) through the Help Center API.",
  settings,
  secrets,
  webhooks: "Zendesk's X-Zendesk-Webhook-Signature (base64 HMAC-SHA256 of X-Zendesk-Webhook-Signature-Timestamp followed by the body, with the webhook's signing secret as the connection's webhook secret), refused when more than 5 minutes off; article events start a sync",
  list,
  write,
  verifyWebhook,
};
