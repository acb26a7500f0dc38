/**
 * Freshdesk Solutions (the knowledge base, API v2) as a two-way content connector: the title and the HTML description
 * of every solution article, and the name and description of every solution folder and category, in the helpdesk's
 * primary language are the source strings (key `<id>.title` / `<id>.description` for articles, `<id>.name` /
 * `<id>.description` for folders and categories; one path per kind: `articles`, `folders`, `categories`).
 *
 * The tree is read from `GET /api/v2/solutions/categories`, `…/categories/{id}/folders`, `…/folders/{id}/subfolders`
 * and `…/folders/{id}/articles` (page/per_page paging, following the `Link: <…>; rel="next"` header on the configured
 * host only, at most MAX_ITEMS items of each kind). Article translations come from each folder's article list in that
 * language, `…/folders/{id}/articles/{language_code}`; a folder's or category's from
 * `GET /api/v2/solutions/{folders|categories}/{id}/{language_code}` (404: none yet). Translations are written
 * back with `PUT …/{id}/{language_code}` where the item has one in that language, else created with `POST` (articles as
 * drafts, `status: 1`, unless the `status` setting says `published`), after reading that translation again so that a
 * value a person changed since the listing is left as it is (the next sync imports it as a human translation).
 *
 * Locales: the helpdesk's `primary_language` and `supported_languages` from `GET /api/v2/settings/helpdesk`, in
 * Freshdesk's codes (`de`, `fr`, `pt-BR`, `zh-CN`), matched to the project's tags by remote-locales.ts. Freshdesk has no
 * API to add a supported language, so a project locale the helpdesk does not have is skipped and named in the note.
 *
 * Article descriptions are HTML: they go across whole, markup included (the service's placeholder and markup gates keep
 * the tags intact). Rate limits: Freshdesk answers 429 with Retry-After (and counts down in X-Ratelimit-Remaining);
 * connector-http waits the Retry-After out.
 *
 * Webhooks: Freshdesk does not sign webhook requests; an automation rule's "Trigger webhook" action can send custom
 * headers, so the connection's webhook secret goes in `X-Parlance-Webhook-Secret`, compared in constant time.
 *
 * References: https://developers.freshdesk.com/api/#solutions (category, folder and article attributes and routes,
 * the translated variants `/{language_code}`), …/api/#authentication (`{api_key}:X` Basic auth), …/api/#pagination
 * (`page`, `per_page` ≤ 100, `link` header), …/api/#ratelimit (429, Retry-After, X-Ratelimit-Total/Remaining),
 * …/api/#error (`{ description, errors: [{ field, message, code }] }`), …/api/#helpdesk-settings, and the askasoft/pango
 * Freshdesk SDK (sdk/fdk/freshdesk/solutions.go, article.go, folder.go, errors.go) for the same routes and shapes.
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, Listing, RemoteString, StringUnit, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, getValidated, vendorMessage, type FailureWording, type Validated } from '../connector-http.js';
import { fieldsToWrite, groupWrites, listed, outcomeNotes, settleWrite, type Outcome, type PlacedWrite } from '../help-center.js';
import { matchLocales, sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const KINDS = ['articles', 'folders', 'categories'] as const;
type Kind = (typeof KINDS)[number];
type Field = 'title' | 'name' | 'description';
/** Freshdesk's largest page (`per_page` is 1–100). */
const PAGE_SIZE = 100;
/** The most items of one kind a sync reads (beyond it the sync fails, saying so, rather than dropping some). */
const MAX_ITEMS = 10_000;
/** Freshdesk nests subfolders a few levels deep; deeper than this is read as a loop. */
const MAX_DEPTH = 8;
const ARTICLE_DRAFT = 1;
const ARTICLE_PUBLISHED = 2;

const settings = z
  .object({
    url: z.string().url().openapi({ description: "The helpdesk's address, `https://acme.freshdesk.com` (a custom domain of the helpdesk works too)." }),
    content: z
      .array(z.enum(KINDS))
      .min(1)
      .default([...KINDS])
      .openapi({ description: 'What to translate: `articles` (title and HTML description), `folders` and `categories` (name and description). Default all three.' }),
    category_ids: z
      .array(z.string().regex(/^\d+$/, "Expected a Freshdesk solution category id such as '44000123456'."))
      .min(1)
      .optional()
      .openapi({ description: 'Only these solution categories, their folders and their articles; every category when absent.' }),
    status: z.enum(['draft', 'published']).default('draft').openapi({ description: 'Status of article translations Parlance creates: `draft` (the default, for a person to publish) or `published`. Existing translations keep their status.' }),
    locales: z
      .record(z.string(), z.string().min(1))
      .default({})
      .openapi({ description: 'Parlance locale → Freshdesk language code where they differ beyond case and `_`/`-` (`{"zh-Hans": "zh-CN"}`).' }),
  })
  .strict();

const secrets = z
  .object({
    api_key: z.string().min(1).openapi({ description: "The API key of a Freshdesk agent who may manage solutions (Profile settings › View API key); sent as Basic auth `{api_key}:X`." }),
  })
  .strict();

export type FreshdeskSettings = z.infer<typeof settings>;
export type FreshdeskSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<FreshdeskSettings, FreshdeskSecrets>;

const id = z.union([z.number(), z.string()]);
const itemSchema = z.object({ id, title: z.string().nullable().optional(), name: z.string().nullable().optional(), description: z.string().nullable().optional() }).loose();
type Item = z.infer<typeof itemSchema>;
const helpdeskSchema = z.object({ primary_language: z.string(), supported_languages: z.array(z.string()).nullable().optional() }).loose();

/** What `write` needs of a listed string: its item, its field, and each target locale's Freshdesk code and value then. */
const refSchema = z.object({
  kind: z.enum(KINDS),
  id: z.string(),
  field: z.enum(['title', 'name', 'description']),
  remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })),
});
type Ref = z.infer<typeof refSchema>;

const SINGULAR: Record<Kind, string> = { articles: 'article', folders: 'folder', categories: 'category' };
/** The field holding an item's title: articles have a title, folders and categories a name. */
const TITLE: Record<Kind, 'title' | 'name'> = { articles: 'title', folders: 'name', categories: 'name' };
const NOTES: Record<Kind, Partial<Record<Field, string>>> = {
  articles: { title: 'Solution article title', description: 'Solution article body (HTML: keep every tag and attribute as it is)' },
  folders: { name: 'Solution folder name', description: 'Solution folder description' },
  categories: { name: 'Solution category name', description: 'Solution category description' },
};

const base = (ctx: Ctx) => ctx.settings.url.replace(/\/+$/, '');
const api = (ctx: Ctx) => `${base(ctx)}/api/v2`;
const authHeaders = (ctx: Ctx) => ({ authorization: `Basic ${Buffer.from(`${ctx.secrets.api_key}:X`).toString('base64')}`, accept: 'application/json' });

/** Freshdesk's error envelope `{ description, errors: [{ field, message, code }] }` (or `{ code, message }`) as one sentence. */
function freshdeskMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { description?: unknown; message?: unknown; code?: unknown; errors?: unknown };
    const parts = [body.description, body.message].filter((p): p is string => typeof p === 'string' && p !== '');
    if (Array.isArray(body.errors)) {
      for (const e of body.errors.slice(0, 3) as { field?: unknown; message?: unknown; code?: unknown }[]) {
        parts.push([e.field, e.message, e.code ? `(${String(e.code)})` : ''].filter((p) => typeof p === 'string' && p !== '').join(' '));
      }
    }
    if (parts.length === 0 && typeof body.code === 'string') parts.push(body.code);
    if (parts.length > 0) return parts.join(': ').slice(0, 300);
  } catch {
    // Not JSON: the usual reading below.
  }
  return vendorMessage(text);
}

const wording: FailureWording = { vendor: 'Freshdesk', read: freshdeskMessage, credentials: "the connection's api_key and that its agent may manage solutions", settings: "the connection's url and settings" };

/** A GET's JSON checked against `schema`, with its response (for the Link header); null for a 404 when `orGone`. */
function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string, orGone = false): Promise<Validated<T> | null> {
  return getValidated(ctx.http, url, { schema, what, wording, answer: 'a Freshdesk API answer', check: "the connection's url", orGone, headers: authHeaders(ctx) });
}

/** The `rel="next"` target of a Link header, if any. */
function nextLink(header: string | null): string | undefined {
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

/** Every item of a Solutions list, page by page while the Link header names a next page on the same host. */
async function readAll(ctx: Ctx, url: string, what: string, counter: { pages: number; items: Record<Kind, number> }, kind: Kind, orGone = false): Promise<Item[] | null> {
  const items: Item[] = [];
  const first = new URL(url);
  first.searchParams.set('per_page', String(PAGE_SIZE));
  first.searchParams.set('page', '1');
  let next: string | undefined = first.toString();
  let page = 0;
  while (next) {
    page++;
    counter.pages++;
    const read: { body: Item[]; response: Response } | null = await getJson(ctx, next, z.array(itemSchema), `${what} (page ${page})`, orGone && page === 1);
    if (read === null) return null;
    items.push(...read.body);
    counter.items[kind] += read.body.length;
    if (counter.items[kind] > MAX_ITEMS) throw new ConnectorError('config', `${what}: more than ${MAX_ITEMS} ${kind}; narrow the connection with \`category_ids\` or \`content\`.`);
    const link: string | undefined = read.body.length > 0 ? nextLink(read.response.headers.get('link')) : undefined;
    if (link && new URL(link, url).origin !== new URL(url).origin) throw new ConnectorError('config', `${what}: Freshdesk's next page link points at another host (${new URL(link, url).host}); Parlance does not send the credentials there.`);
    next = link ? new URL(link, url).toString() : undefined;
  }
  return items;
}

interface LocalePlan {
  source: string;
  targets: Map<string, string>;
  missing: string[];
}

async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const { body } = (await getJson(ctx, `${api(ctx)}/settings/helpdesk`, helpdeskSchema, "Reading the helpdesk's languages"))!;
  const source = body.primary_language;
  const mapped = ctx.settings.locales[ctx.sourceLocale];
  const language = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase();
  if (mapped ? !sameLocale(mapped, source) : language(source) !== language(ctx.sourceLocale)) {
    throw new ConnectorError('config', `The helpdesk's primary language is '${source}', which is not the project's source locale '${ctx.sourceLocale}'. Parlance reads the source text in the primary language; connect a project whose source is ${source}, or map it in the \`locales\` setting.`);
  }
  const supported = (body.supported_languages ?? []).filter((code) => code !== source);
  const { codes, missing } = matchLocales(ctx.targetLocales, supported, ctx.settings.locales);
  return { source, targets: codes, missing };
}

const textOf = (value: string | null | undefined) => value ?? '';
const fieldsOf = (kind: Kind): Field[] => [TITLE[kind], 'description'];
const itemUrl = (ctx: Ctx, kind: Kind, itemId: string, code: string) => `${api(ctx)}/solutions/${kind}/${encodeURIComponent(itemId)}/${encodeURIComponent(code)}`;

/** An item's translation in a language now; null when it has none (or the item is gone). */
async function readOne(ctx: Ctx, kind: Kind, itemId: string, code: string): Promise<Item | null> {
  const read = await getJson(ctx, itemUrl(ctx, kind, itemId, code), itemSchema, `Reading the ${code} translation of ${SINGULAR[kind]} ${itemId}`, true);
  return read?.body ?? null;
}

/**
 * Each language's article translations by article id, from each folder's article list in that language (one list per
 * folder and language rather than one read per article and language: a large knowledge base stays within the rate limit).
 */
async function articleTranslations(ctx: Ctx, folders: Item[], plan: LocalePlan): Promise<{ byCode: Map<string, Map<string, Item>>; pages: number }> {
  const byCode = new Map<string, Map<string, Item>>();
  let pages = 0;
  for (const [, code] of plan.targets) {
    const counter = { pages: 0, items: { articles: 0, folders: 0, categories: 0 } };
    const held = new Map<string, Item>();
    for (const folder of folders) {
      const fid = String(folder.id);
      const read = await readAll(ctx, `${api(ctx)}/solutions/folders/${fid}/articles/${encodeURIComponent(code)}`, `Listing the ${code} articles of folder ${fid}`, counter, 'articles', true);
      for (const article of read ?? []) held.set(String(article.id), article);
    }
    byCode.set(code, held);
    pages += counter.pages;
  }
  return { byCode, pages };
}

async function itemStrings(ctx: Ctx, kind: Kind, item: Item, plan: LocalePlan, articles: Map<string, Map<string, Item>> | undefined): Promise<RemoteString[]> {
  const itemId = String(item.id);
  const held = new Map<string, Item | null>();
  for (const [, code] of plan.targets) held.set(code, articles ? (articles.get(code)?.get(itemId) ?? null) : await readOne(ctx, kind, itemId, code));
  // The item alone, not its title: a changed title must not make its description look changed too.
  const context = `Solution ${SINGULAR[kind]} ${itemId}`;
  const strings: RemoteString[] = [];
  for (const field of fieldsOf(kind)) {
    const text = textOf(item[field]);
    if (text.trim() === '') continue;
    const remote: Ref['remote'] = {};
    const translations: Record<string, string> = {};
    for (const [tag, code] of plan.targets) {
      const seen = textOf(held.get(code)?.[field]);
      remote[tag] = { code, seen };
      if (seen !== '') translations[tag] = seen;
    }
    strings.push({ key: `${itemId}.${field}`, source: text, context, notes: NOTES[kind][field]!, ref: { kind, id: itemId, field, remote } satisfies Ref as JsonValue, translations });
  }
  return strings;
}

/** The categories, folders (subfolders included) and articles of the knowledge base in its primary language. */
async function readTree(ctx: Ctx): Promise<{ items: Record<Kind, Item[]>; pages: number; gone: string[] }> {
  const counter = { pages: 0, items: { articles: 0, folders: 0, categories: 0 } };
  const items: Record<Kind, Item[]> = { articles: [], folders: [], categories: [] };
  const gone: string[] = [];
  let categories = (await readAll(ctx, `${api(ctx)}/solutions/categories`, "Listing the knowledge base's categories", counter, 'categories'))!;
  const wanted = ctx.settings.category_ids;
  if (wanted) {
    const unknown = wanted.filter((c) => !categories.some((cat) => String(cat.id) === c));
    if (unknown.length > 0) throw new ConnectorError('config', `The category_ids setting names ${unknown.map((c) => `'${c}'`).join(', ')}, which the knowledge base does not have (or the agent may not see).`);
    categories = categories.filter((cat) => wanted.includes(String(cat.id)));
  }
  items.categories = categories;
  const needFolders = ctx.settings.content.some((k) => k !== 'categories');
  if (!needFolders) return { items, pages: counter.pages, gone };
  const visit = async (folder: Item, depth: number): Promise<void> => {
    items.folders.push(folder);
    const fid = String(folder.id);
    if (depth >= MAX_DEPTH) throw new ConnectorError('config', `Folder ${fid} is nested more than ${MAX_DEPTH} levels deep; Parlance reads no deeper.`);
    if (ctx.settings.content.includes('articles')) {
      const articles = await readAll(ctx, `${api(ctx)}/solutions/folders/${fid}/articles`, `Listing the articles of folder ${fid}`, counter, 'articles', true);
      if (articles === null) {
        gone.push(`folder ${fid}`);
        return;
      }
      items.articles.push(...articles);
    }
    const subfolders = await readAll(ctx, `${api(ctx)}/solutions/folders/${fid}/subfolders`, `Listing the subfolders of folder ${fid}`, counter, 'folders', true);
    for (const sub of subfolders ?? []) await visit(sub, depth + 1);
  };
  for (const category of categories) {
    const cid = String(category.id);
    const folders = await readAll(ctx, `${api(ctx)}/solutions/categories/${cid}/folders`, `Listing the folders of category ${cid}`, counter, 'folders', true);
    if (folders === null) {
      gone.push(`category ${cid}`);
      continue;
    }
    for (const folder of folders) await visit(folder, 1);
  }
  return { items, pages: counter.pages, gone };
}

async function list(ctx: Ctx): Promise<Listing> {
  const plan = await planLocales(ctx);
  const tree = await readTree(ctx);
  const units: StringUnit[] = [];
  const counts: string[] = [];
  let pages = tree.pages;
  for (const kind of KINDS.filter((k) => ctx.settings.content.includes(k))) {
    let articles: Map<string, Map<string, Item>> | undefined;
    if (kind === 'articles') {
      const read = await articleTranslations(ctx, tree.items.folders, plan);
      articles = read.byCode;
      pages += read.pages;
    }
    const strings: RemoteString[] = [];
    for (const item of tree.items[kind]) strings.push(...(await itemStrings(ctx, kind, item, plan, articles)));
    counts.push(`${tree.items[kind].length} ${kind}`);
    units.push({ kind: 'strings', path: kind, strings, locales: [...plan.targets.keys()] });
  }
  const notes = [`Read ${counts.join(', ')} in ${pages} list page(s); primary language ${plan.source}.`];
  if (plan.missing.length > 0) notes.push(`Skipped target locale(s) ${plan.missing.join(', ')}: the helpdesk does not support that language, and Freshdesk has no API to add one; add it in Admin › Helpdesk settings › Languages or map it with the locales setting.`);
  if (tree.gone.length > 0) notes.push(`Deleted while listing: ${tree.gone.join(', ')}.`);
  return { units, note: notes.join(' ') };
}

/** A write-back's outcome, and the new translations that wait for their title (and an article's description). */
interface FreshdeskOutcome extends Outcome {
  waiting: string[];
}

/** Writes one item's translation in one language (its fields together), never over a person's change. */
async function writeTranslation(ctx: Ctx, kind: Kind, itemId: string, code: string, writes: PlacedWrite<Ref>[], outcome: FreshdeskOutcome): Promise<void> {
  const now = await readOne(ctx, kind, itemId, code);
  const fields = fieldsToWrite(writes, (field) => textOf(now?.[field]), (field) => `${SINGULAR[kind]} ${itemId}.${field} (${code})`, outcome);
  const changed = Object.keys(fields).length;
  if (changed === 0) return;
  const headers = { ...authHeaders(ctx), 'content-type': 'application/json' };
  let body: Record<string, unknown> = fields;
  if (!now) {
    // Freshdesk needs a title (name) to create a translation, and an article's description too.
    const title = TITLE[kind];
    if (fields[title] === undefined || (kind === 'articles' && fields.description === undefined)) {
      outcome.waiting.push(`${SINGULAR[kind]} ${itemId} (${code})`);
      return;
    }
    if (kind === 'articles') body = { ...fields, status: ctx.settings.status === 'published' ? ARTICLE_PUBLISHED : ARTICLE_DRAFT };
  }
  const response = await ctx.http.request(itemUrl(ctx, kind, itemId, code), { method: now ? 'PUT' : 'POST', headers, body: JSON.stringify(body) });
  await settleWrite(response, changed, `${SINGULAR[kind]} ${itemId}`, outcome, (failed) => failure(failed, `Writing the ${code} translation of ${SINGULAR[kind]} ${itemId}`, wording));
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const { groups, unplaced } = groupWrites(writeBack.strings, refSchema, (ref) => `${ref.kind}/${ref.id}`);
  const outcome: FreshdeskOutcome = { written: 0, kept: [], gone: [], waiting: [] };
  for (const { ref, code, writes } of groups) await writeTranslation(ctx, ref.kind, ref.id, code, writes, outcome);
  const notes = [
    ...outcomeNotes('Freshdesk', outcome),
    outcome.waiting.length > 0 ? `Not created yet, Freshdesk needs the title (name) and, for an article, the description of a new translation together: ${listed(outcome.waiting)}.` : '',
    unplaced.length > 0 ? `No helpdesk language or item for: ${listed(unplaced)}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, url: `${base(ctx)}/a/solutions`, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

/**
 * An automation rule's "Trigger webhook" action carries the secret in X-Parlance-Webhook-Secret (Freshdesk signs
 * nothing). Its body is whatever the rule sends; any verified request starts a sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string): WebhookVerdict {
  const given = request.headers.get('x-parlance-webhook-secret');
  if (!given) return { verified: false, sync: false, reason: "No X-Parlance-Webhook-Secret header on the request; add it as a custom header of the Freshdesk automation's Trigger webhook action." };
  if (!sameSecret(given.trim(), webhookSecret)) return { verified: false, sync: false, reason: "The X-Parlance-Webhook-Secret header does not match the connection's webhook secret." };
  return { verified: true, sync: true };
}

export const freshdesk: Connector<FreshdeskSettings, FreshdeskSecrets> = {
  id: 'freshdesk',
  name: 'Freshdesk Solutions',
  category: 'content',
  direction: 'two_way',
  summary: "Freshdesk knowledge base articles (title and HTML description), folders and categories (name and description), translations written back as each item's translation in the helpdesk's supported languages (new article translations as drafts).",
  settings,
  secrets,
  webhooks: "Freshdesk does not sign webhooks: an automation rule's Trigger webhook action sends the connection's webhook secret in the custom header X-Parlance-Webhook-Secret, compared in constant time",
  list,
  write,
  verifyWebhook,
};
