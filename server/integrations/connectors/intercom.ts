/**
 * Intercom Articles (the REST API's `/articles`, `Intercom-Version: 2.11`) as a two-way content connector: the title,
 * the description and the HTML body of every help center article in its default language are the source strings (key
 * `<id>.title` / `<id>.description` / `<id>.body`, one path `articles`). An article's `translated_content` holds one
 * `article_content` object per Intercom locale (`de`, `fr`, `pt-BR`, `zh-CN`, …); what it holds in each target locale
 * is what the help center has now. Translations are written back with `PUT /articles/{id}` sending
 * `translated_content.{locale}` (a locale content the article does not have yet is created as a draft unless
 * `publish` is true), after reading the article again so that a value a person changed since the listing is left as
 * it is (the next sync imports it as a human translation).
 *
 * Bodies are HTML: they go across whole, markup included (the service's placeholder and markup gates keep the tags
 * intact). The Articles API does not expose the help center's enabled languages, so the connection names them in
 * `help_center_locales` (default: every locale Intercom's Articles API knows); a project locale outside them is
 * skipped and named in the sync's note, and a write Intercom refuses (a language not enabled in the help center) is
 * named in the write's note rather than failing the sync. An article whose `default_locale` is not the project's
 * source language is left out (named in the note). The list is read with `page`/`per_page` paging (`pages.next`,
 * followed only on the configured host), at most MAX_ITEMS articles.
 *
 * Rate limits: Intercom answers 429 with `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch
 * seconds); the HTTP client waits until the reset.
 *
 * Webhooks: Intercom signs a notification with `X-Hub-Signature: sha1=<hex HMAC-SHA1 of the raw body with the app's
 * client secret>`; the connection's webhook secret is that client secret (set it at connect). The signature has no
 * timestamp of its own, so the signed body's `created_at` (epoch seconds) more than WEBHOOK_TOLERANCE_MS off is refused
 * as a replay. Topics `article.*` start a sync; `ping` and other topics do not.
 *
 * References: https://developers.intercom.com/docs/references/rest-api/api.intercom.io/articles (list, retrieve,
 * update; `translated_content`, `default_locale`, article_content fields), …/models/article_translated_content (the
 * locale codes), …/models/pages_link (`page`, `per_page`, `next`, `total_pages`), https://developers.intercom.com/
 * docs/build-an-integration/learn-more/rest-apis/rate-limiting/ (429 and X-RateLimit-*), …/errors/ (the `error.list`
 * envelope), …/webhooks/setting-up-webhooks/ and …/webhooks/webhook-models/ (X-Hub-Signature, `notification_event`),
 * and the intercom-node SDK's `UpdateArticleRequest` / `ArticleContent` types.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, Listing, RemoteString, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, getValidated, vendorMessage, type FailureWording } from '../connector-http.js';
import { fieldsToWrite, groupWrites, listed, outcomeNotes, settleWrite, type Outcome, type PlacedWrite } from '../help-center.js';
import { matchLocales, sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** The locales of Intercom's `article_translated_content` (the API reference's model). */
export const INTERCOM_LOCALES = [
  'ar', 'bg', 'bs', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fi', 'fr', 'he', 'hr', 'hu', 'id', 'it', 'ja', 'ko', 'lt', 'lv', 'mn', 'nb', 'nl', 'pl', 'pt', 'ro', 'ru', 'sl', 'sr', 'sv', 'tr', 'vi', 'pt-BR', 'zh-CN', 'zh-TW',
] as const;

const API_VERSION = '2.11';
/** Articles per list page (Intercom's default is 15). */
const PAGE_SIZE = 50;
/** The most articles a sync reads (beyond it the sync fails, saying so, rather than dropping some). */
const MAX_ITEMS = 10_000;
/** Intercom retries a failed delivery for a while; a notification older than this is refused as a replay. */
const WEBHOOK_TOLERANCE_MS = 15 * 60_000;

const FIELDS = ['title', 'description', 'body'] as const;
type Field = (typeof FIELDS)[number];
const NOTES: Record<Field, string> = {
  title: 'Help center article title',
  description: 'Help center article description (the summary shown under the title in lists and search)',
  body: 'Help center article body (HTML: keep every tag and attribute as it is)',
};

const localeCode = z.string().refine((code) => INTERCOM_LOCALES.some((known) => known === code), { message: `Expected an Intercom locale code: ${INTERCOM_LOCALES.join(', ')}.` });

const settings = z
  .object({
    api_url: z
      .string()
      .url()
      .default('https://api.intercom.io')
      .openapi({ description: "Intercom's API server for the workspace's region: `https://api.intercom.io` (US, the default), `https://api.eu.intercom.io` or `https://api.au.intercom.io`." }),
    help_center_locales: z
      .array(localeCode)
      .min(1)
      .optional()
      .openapi({ description: "The languages enabled in the help center (Settings › Help Center › Languages), as Intercom locale codes (`de`, `pt-BR`); every locale Intercom's Articles API knows when absent. The API does not list them." }),
    publish: z.boolean().default(false).openapi({ description: "Publish new language versions at once; false (the default) creates them as drafts for a person to publish in Intercom. Existing versions keep their state." }),
    locales: z
      .record(z.string(), z.string().min(1))
      .default({})
      .openapi({ description: 'Parlance locale → Intercom locale where they differ beyond case and `_`/`-` (`{"nb-NO": "nb"}`).' }),
  })
  .strict();

const secrets = z
  .object({
    access_token: z.string().min(1).openapi({ description: "The access token of an Intercom app (Developer Hub › your app › Authentication), or an OAuth token, with the read and write articles permissions." }),
  })
  .strict();

export type IntercomSettings = z.infer<typeof settings>;
export type IntercomSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<IntercomSettings, IntercomSecrets>;

const contentSchema = z
  .object({
    title: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    body: z.string().nullable().optional(),
    author_id: z.union([z.number(), z.string()]).nullable().optional(),
    state: z.string().nullable().optional(),
  })
  .loose();
type Content = z.infer<typeof contentSchema>;
const articleSchema = z
  .object({
    id: z.union([z.number(), z.string()]),
    title: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    body: z.string().nullable().optional(),
    author_id: z.union([z.number(), z.string()]).nullable().optional(),
    default_locale: z.string().nullable().optional(),
    translated_content: z.record(z.string(), z.union([contentSchema, z.string(), z.null()])).nullable().optional(),
  })
  .loose();
type Article = z.infer<typeof articleSchema>;
const listSchema = z.object({
  data: z.array(articleSchema),
  pages: z.object({ next: z.union([z.string(), z.number()]).nullable().optional(), page: z.number().optional(), total_pages: z.number().optional() }).loose().nullable().optional(),
});

/** What `write` needs of a listed string: its article, its field, and each target locale's Intercom code and value then. */
const refSchema = z.object({
  id: z.string(),
  field: z.enum(FIELDS),
  remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })),
});
type Ref = z.infer<typeof refSchema>;

const base = (ctx: Ctx) => ctx.settings.api_url.replace(/\/+$/, '');
const headers = (ctx: Ctx, json = false): Record<string, string> => ({
  authorization: `Bearer ${ctx.secrets.access_token}`,
  'intercom-version': API_VERSION,
  accept: 'application/json',
  ...(json ? { 'content-type': 'application/json' } : {}),
});

/** Intercom's error envelope `{ type: 'error.list', errors: [{ code, message, field? }] }` as one sentence. */
function intercomMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { code?: unknown; message?: unknown; field?: unknown }[] };
    const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
    if (first) {
      const parts = [typeof first.code === 'string' ? first.code : '', typeof first.message === 'string' ? first.message : ''].filter(Boolean);
      if (typeof first.field === 'string') parts.push(`(field ${first.field})`);
      if (parts.length > 0) return parts.join(': ').slice(0, 300);
    }
  } catch {
    // Not JSON: the usual reading below.
  }
  return vendorMessage(text);
}

const wording: FailureWording = { vendor: 'Intercom', read: intercomMessage, credentials: "the connection's access_token and that its app may read and write articles", settings: "the connection's api_url and settings" };

/** A GET's JSON checked against `schema`; null for a 404 when `orGone`. */
async function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string, orGone = false): Promise<z.infer<T> | null> {
  const read = await getValidated(ctx.http, url, { schema, what, wording, answer: 'an Intercom Articles API answer', check: "the connection's api_url", orGone, headers: headers(ctx) });
  return read && read.body;
}

/** Every article, page by page (`pages.next`, on the configured host only). */
async function readArticles(ctx: Ctx): Promise<{ articles: Article[]; pages: number }> {
  const articles: Article[] = [];
  const first = new URL(`${base(ctx)}/articles`);
  first.searchParams.set('page', '1');
  first.searchParams.set('per_page', String(PAGE_SIZE));
  let next: string | undefined = first.toString();
  let pages = 0;
  while (next) {
    pages++;
    const body = (await getJson(ctx, next, listSchema, `Listing the help center's articles (page ${pages})`))!;
    articles.push(...body.data);
    if (articles.length > MAX_ITEMS) throw new ConnectorError('config', `Listing the help center's articles: more than ${MAX_ITEMS} articles; Parlance reads at most that many per connection.`);
    const link = body.pages?.next;
    if (link === null || link === undefined || link === '' || body.data.length === 0) break;
    const url: URL = typeof link === 'number' ? new URL(first) : new URL(link, first);
    if (typeof link === 'number') url.searchParams.set('page', String(link));
    if (url.origin !== first.origin) throw new ConnectorError('config', `Listing the help center's articles: Intercom's next page link points at another host (${url.host}); Parlance does not send the token there.`);
    next = url.toString();
  }
  return { articles, pages };
}

const textOf = (value: string | null | undefined) => value ?? '';
const language = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase();

/** The article's content in an Intercom locale (a key compared case-insensitively), or undefined. */
function contentIn(article: Article, code: string): Content | undefined {
  for (const [key, value] of Object.entries(article.translated_content ?? {})) {
    if (key !== 'type' && key.toLowerCase() === code.toLowerCase() && value !== null && typeof value === 'object') return value;
  }
  return undefined;
}

function articleStrings(article: Article, targets: Map<string, string>): RemoteString[] {
  const id = String(article.id);
  const title = textOf(article.title);
  const context = `Article ${id}${title ? `: ${title.slice(0, 120)}` : ''}`;
  const strings: RemoteString[] = [];
  for (const field of FIELDS) {
    const text = textOf(article[field]);
    if (text.trim() === '') continue;
    const remote: Ref['remote'] = {};
    const held: Record<string, string> = {};
    for (const [tag, code] of targets) {
      const seen = textOf(contentIn(article, code)?.[field]);
      remote[tag] = { code, seen };
      if (seen !== '') held[tag] = seen;
    }
    strings.push({ key: `${id}.${field}`, source: text, context, notes: NOTES[field], ref: { id, field, remote } satisfies Ref as JsonValue, translations: held });
  }
  return strings;
}

async function list(ctx: Ctx): Promise<Listing> {
  const known = ctx.settings.help_center_locales ?? [...INTERCOM_LOCALES];
  const source = ctx.settings.locales[ctx.sourceLocale] ?? ctx.sourceLocale;
  const { codes, missing } = matchLocales(ctx.targetLocales, known.filter((code) => !sameLocale(code, source)), ctx.settings.locales);
  const { articles, pages } = await readArticles(ctx);
  const strings: RemoteString[] = [];
  const otherSource: string[] = [];
  for (const article of articles) {
    const own = article.default_locale;
    if (own && !sameLocale(own, source) && language(own) !== language(source)) {
      otherSource.push(`article ${String(article.id)} (${own})`);
      continue;
    }
    strings.push(...articleStrings(article, codes));
  }
  const notes = [`Read ${articles.length} article(s) in ${pages} page(s).`];
  if (missing.length > 0) notes.push(`Skipped target locale(s) ${missing.join(', ')}: not among the help center's languages (${ctx.settings.help_center_locales ? 'the help_center_locales setting' : "Intercom's article locales"}); enable the language in Intercom (Settings › Help Center › Languages) and add it to help_center_locales, or map it with the locales setting.`);
  if (otherSource.length > 0) notes.push(`Left out, written in another default language than ${source}: ${otherSource.slice(0, 10).join(', ')}${otherSource.length > 10 ? ` and ${otherSource.length - 10} more` : ''}.`);
  return { units: [{ kind: 'strings', path: 'articles', strings, locales: [...codes.keys()] }], note: notes.join(' ') };
}

/** A write-back's outcome, the language versions that wait for their title, and the writes Intercom refused. */
interface IntercomOutcome extends Outcome {
  untitled: string[];
  refused: string[];
}

/** Writes one article's content in one locale (its changed fields together), never over a person's change. */
async function writeLocale(ctx: Ctx, id: string, code: string, writes: PlacedWrite<Ref>[], outcome: IntercomOutcome): Promise<void> {
  const url = `${base(ctx)}/articles/${encodeURIComponent(id)}`;
  const article = await getJson(ctx, url, articleSchema, `Reading article ${id}`, true);
  if (!article) {
    outcome.gone.push(`article ${id}`);
    return;
  }
  const now = contentIn(article, code);
  const fields = fieldsToWrite(writes, (field) => textOf(now?.[field]), (field) => `article ${id}.${field} (${code})`, outcome);
  const changed = Object.keys(fields).length;
  if (changed === 0) return;
  const title = fields.title ?? textOf(now?.title);
  if (title === '') {
    // Intercom needs a title for a language version; a description or body alone waits for the title's translation.
    outcome.untitled.push(`article ${id} (${code})`);
    return;
  }
  const author = now?.author_id ?? article.author_id;
  // The whole locale content goes across (unchanged fields as Intercom holds them), so nothing is blanked.
  const content = {
    type: 'article_content',
    title,
    description: fields.description ?? textOf(now?.description),
    body: fields.body ?? textOf(now?.body),
    ...(author !== null && author !== undefined ? { author_id: Number(author) } : {}),
    state: now?.state ?? (ctx.settings.publish ? 'published' : 'draft'),
  };
  const response = await ctx.http.request(url, { method: 'PUT', headers: headers(ctx, true), body: JSON.stringify({ translated_content: { type: 'article_translated_content', [code]: content } }) });
  if (response.status === 400 || response.status === 422) {
    outcome.refused.push(`article ${id} (${code}): ${intercomMessage(await response.text().catch(() => ''))}`);
    return;
  }
  await settleWrite(response, changed, `article ${id}`, outcome, (failed) => failure(failed, `Writing the ${code} version of article ${id}`, wording));
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const { groups, unplaced } = groupWrites(writeBack.strings, refSchema, (ref) => ref.id);
  const outcome: IntercomOutcome = { written: 0, kept: [], gone: [], untitled: [], refused: [] };
  for (const { ref, code, writes } of groups) await writeLocale(ctx, ref.id, code, writes, outcome);
  const notes = [
    ...outcomeNotes('Intercom', outcome),
    outcome.untitled.length > 0 ? `Not created, Intercom needs a title for a new language version and none was translated yet: ${listed(outcome.untitled)}.` : '',
    outcome.refused.length > 0 ? `Refused by Intercom (is the language enabled in the help center?): ${listed(outcome.refused)}.` : '',
    unplaced.length > 0 ? `No article or help center locale for: ${listed(unplaced)}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

/** Intercom's signature: `sha1=` and the hex HMAC-SHA1 of the raw body with the app's client secret. */
export function intercomSignature(secret: string, body: Uint8Array | string): string {
  return `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
}

function verifyWebhook(request: WebhookRequest, webhookSecret: string): WebhookVerdict {
  const signature = request.headers.get('x-hub-signature')?.trim();
  if (!signature) return { verified: false, sync: false, reason: 'X-Hub-Signature header missing.' };
  if (!sameSecret(signature.toLowerCase(), intercomSignature(webhookSecret, request.body))) {
    return { verified: false, sync: false, reason: "X-Hub-Signature does not match the body signed with the connection's webhook secret (the Intercom app's client secret)." };
  }
  let event: { topic?: string; created_at?: number } = {};
  try {
    const parsed = z.object({ topic: z.string().optional(), created_at: z.number().optional() }).loose().safeParse(JSON.parse(new TextDecoder().decode(request.body)));
    if (parsed.success) event = parsed.data;
  } catch {
    return { verified: true, sync: true };
  }
  if (event.created_at !== undefined) {
    const age = Date.now() - event.created_at * 1000;
    if (Math.abs(age) > WEBHOOK_TOLERANCE_MS) return { verified: false, sync: false, reason: `The notification's created_at is ${Math.round(age / 1000)} s off the current time; notifications more than 15 minutes off are refused as replays.` };
  }
  if (event.topic && !event.topic.startsWith('article.')) return { verified: true, sync: false, reason: `Topic '${event.topic}' does not change article text.` };
  return { verified: true, sync: true };
}

export const intercom: Connector<IntercomSettings, IntercomSecrets> = {
  id: 'intercom',
  name: 'Intercom Articles',
  category: 'content',
  direction: 'two_way',
  summary: "Intercom help center articles (title, description and HTML body), translations written back into each article's translated_content (new language versions as drafts) through the Articles API.",
  settings,
  secrets,
  webhooks: "Intercom's X-Hub-Signature (sha1= hex HMAC-SHA1 of the body with the app's client secret as the connection's webhook secret), refused when the body's created_at is more than 15 minutes off; article topics start a sync",
  list,
  write,
  verifyWebhook,
};
