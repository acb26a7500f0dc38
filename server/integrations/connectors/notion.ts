/**
 * Notion as an import-only content connector (Notion API, version 2022-06-28): the text of the configured pages (and
 * their child pages, to `child_page_depth`) and the title and rich-text properties of the rows of the configured
 * databases are source strings, one unit per configured page or database. A page's blocks are read with
 * `GET /v1/blocks/{id}/children` (paginated, recursing into blocks that have children to `block_depth`); each text
 * block's `rich_text` becomes one string keyed by the block id (a table row's cells: `<block id>/<column>`), a page's
 * title `<page id>/title` and a database row's property `<row id>/<property id>` (Notion's id, kept through a rename). The context is the page's path
 * (Parent › Child) and the nearest heading above the block. Nothing is written back: the connector only needs Notion's
 * "Read content" capability, and translations stay in Parlance.
 *
 * Inline formatting is kept as HTML-style tags, not Markdown: `<b>`, `<i>`, `<s>`, `<u>`, `<code>` and
 * `<a href="…">`. Parlance's placeholder gate and machine-translation masking protect tags (and check a translation
 * keeps them, with the same href), while `**` or `[text](url)` would be prose that a provider may drop or rewrite
 * unnoticed. So that the gate never mistakes Notion's own text for markup, a `<` that would open a tag and a `&` that
 * would start an entity are written as `&lt;` and `&amp;`.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson } from '../connector-http.js';
import { sameSecret } from '../same-secret.js';

const NOTION_VERSION = '2022-06-28';
const PAGE_SIZE = 100;
/** Notion's list answers hold 100 objects at most; an answer far larger than that is no Notion answer. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** A Notion id as the settings take it: the id itself (with or without dashes) or a link ending in it. */
const notionId = z
  .string()
  .transform((value, check) => {
    const hex = /([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})(?:[?#].*)?$/i.exec(value.trim());
    if (!hex) {
      check.addIssue({ code: 'custom', message: `Invalid Notion id '${value}'. Expected the 32 hex digits at the end of the page's link, e.g. '1c2f6a9e8b7d4e3fa1b2c3d4e5f60718'.` });
      return z.NEVER;
    }
    return hex.slice(1, 6).join('-').toLowerCase();
  })
  .openapi({ type: 'string' });

const settings = z
  .object({
    api_url: z.string().url().default('https://api.notion.com').openapi({ description: 'Notion API base URL. Default `https://api.notion.com`.' }),
    pages: z.array(notionId).max(50).default([]).openapi({ description: "Pages to translate, by id or link (`https://www.notion.so/Handbook-1c2f…`); each, with its child pages, is one path. The integration must be added to each page (⋯ › Connections)." }),
    databases: z.array(notionId).max(20).default([]).openapi({ description: "Databases whose rows' title and text properties are translated, by id or link; each is one path." }),
    child_page_depth: z.number().int().min(0).max(5).default(1).openapi({ description: 'How many levels of child pages below a configured page are read with it: 0 the page alone. Default 1.' }),
    block_depth: z.number().int().min(1).max(8).default(3).openapi({ description: 'How deep nested blocks (toggles, list items, callouts, table rows) are read. Default 3.' }),
    max_blocks: z.number().int().min(10).max(50_000).default(5000).openapi({ description: 'The most blocks read for one configured page, child pages included; more fails the sync naming this setting. Default 5000.' }),
    max_database_rows: z.number().int().min(1).max(10_000).default(1000).openapi({ description: 'The most rows read from one database; more fails the sync naming this setting. Default 1000.' }),
  })
  .strict()
  .refine((s) => s.pages.length + s.databases.length > 0, { message: 'Give at least one id in `pages` or `databases`.' });

const secrets = z
  .object({
    token: z.string().min(1).openapi({ description: 'The internal integration secret (`ntn_…`, or `secret_…` for older integrations) with the "Read content" capability, sent as a Bearer token.' }),
  })
  .strict();

export type NotionSettings = z.infer<typeof settings>;
export type NotionSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<NotionSettings, NotionSecrets>;

interface RichText {
  type: 'text' | 'mention' | 'equation';
  plain_text: string;
  href: string | null;
  text?: { content: string; link: { url: string } | null };
  annotations?: { bold?: boolean; italic?: boolean; strikethrough?: boolean; underline?: boolean; code?: boolean };
}
interface Block {
  id: string;
  type: string;
  has_children: boolean;
  archived?: boolean;
  in_trash?: boolean;
  [content: string]: unknown;
}
interface List<T> {
  results: T[];
  next_cursor: string | null;
  has_more: boolean;
}
interface Property {
  id: string;
  type: string;
  title?: RichText[];
  rich_text?: RichText[];
}
interface Page {
  id: string;
  properties: Record<string, Property>;
}
interface Database {
  id: string;
  title: RichText[];
}

/** The block types whose `rich_text` is text a reader sees, with how a translator should think of it. */
const TEXT_BLOCKS: Record<string, string> = {
  paragraph: 'A paragraph.',
  heading_1: 'A heading (level 1).',
  heading_2: 'A heading (level 2).',
  heading_3: 'A heading (level 3).',
  bulleted_list_item: 'A bulleted list item.',
  numbered_list_item: 'A numbered list item.',
  to_do: 'A to-do item.',
  toggle: 'A toggle.',
  quote: 'A quote.',
  callout: 'A callout.',
};
const HEADINGS = new Set(['heading_1', 'heading_2', 'heading_3']);

const TAGS = [
  ['code', 'code'],
  ['bold', 'b'],
  ['italic', 'i'],
  ['strikethrough', 's'],
  ['underline', 'u'],
] as const;

/** Notion's text with a `<` that would open a tag and a `&` that would start an entity escaped, so it stays prose. */
function escapeText(text: string): string {
  return text.replace(/&(?=[A-Za-z][A-Za-z0-9]{1,31};|#\d{1,7};|#[xX][0-9A-Fa-f]{1,6};)/g, '&amp;').replace(/<(?=[A-Za-z/!])/g, '&lt;');
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * One string of a rich-text array: each run's text inside the tags of its annotations and its link. Runs that carry
 * the same formatting are joined first, so a bold phrase Notion split in two (a mention inside it) is one `<b>`.
 * Mentions and equations come across as their plain text; colours are not markup a translation needs.
 */
export function richTextToString(runs: readonly RichText[]): string {
  const spans: { text: string; tags: string[]; link: string | undefined }[] = [];
  for (const run of runs) {
    const tags = TAGS.filter(([annotation]) => run.annotations?.[annotation] === true).map(([, tag]) => tag);
    const link = run.type === 'text' ? (run.text?.link?.url ?? undefined) : undefined;
    const last = spans[spans.length - 1];
    if (last && last.link === link && last.tags.join() === tags.join()) last.text += run.plain_text;
    else spans.push({ text: run.plain_text, tags, link });
  }
  return spans
    .map(({ text, tags, link }) => {
      if (text === '') return '';
      let out = escapeText(text);
      for (const tag of [...tags].reverse()) out = `<${tag}>${out}</${tag}>`;
      return link ? `<a href="${escapeAttribute(link)}">${out}</a>` : out;
    })
    .join('');
}

const plain = (runs: readonly RichText[] | undefined) => (runs ?? []).map((run) => run.plain_text).join('');

function apiUrl(ctx: Ctx, path: string, query: Record<string, string> = {}): string {
  const url = new URL(ctx.settings.api_url.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** One call to Notion: its refusals worded with what to check in Notion, and an answer's size bounded before it is read. */
async function call<T>(ctx: Ctx, path: string, what: string, init: { method?: string; query?: Record<string, string>; body?: unknown } = {}): Promise<T> {
  const response = await ctx.http.request(apiUrl(ctx, path, init.query), {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${ctx.secrets.token}`,
      'notion-version': NOTION_VERSION,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!response.ok) {
    throw await failure(response, what, {
      vendor: 'Notion',
      credentials: "the connection's token (the integration's secret) and that the integration has the \"Read content\" capability",
      settings: 'that the id is right and that the page or database is shared with the integration (in Notion: ⋯ › Connections › add the integration)',
    });
  }
  const answer = await readJson<T>(response, what, { maxBytes: MAX_RESPONSE_BYTES, required: true });
  return answer;
}

/** What reading one configured page has used up so far, against `max_blocks`. */
interface Budget {
  blocks: number;
  root: string;
}

/** Every child block of `parent`, page after page, counted against the unit's block budget. */
async function children(ctx: Ctx, parent: string, budget: Budget): Promise<Block[]> {
  const all: Block[] = [];
  let cursor: string | undefined;
  do {
    const query: Record<string, string> = { page_size: String(PAGE_SIZE), ...(cursor ? { start_cursor: cursor } : {}) };
    const page = await call<List<Block>>(ctx, `/v1/blocks/${parent}/children`, `Reading the blocks of ${parent} (under page ${budget.root}, setting pages)`, { query });
    budget.blocks += page.results.length;
    if (budget.blocks > ctx.settings.max_blocks) {
      throw new ConnectorError('config', `Notion page ${budget.root} (setting pages) has more than ${ctx.settings.max_blocks} blocks with its child pages (setting max_blocks). Raise max_blocks, lower child_page_depth or block_depth, or list smaller pages.`);
    }
    all.push(...page.results.filter((block) => block.archived !== true && block.in_trash !== true));
    cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
  } while (cursor);
  return all;
}

interface PageWalk {
  /** The titles from the configured page down to this one. */
  path: string[];
  /** Child-page levels below the configured page. */
  level: number;
  strings: RemoteString[];
  budget: Budget;
}

const pathContext = (path: readonly string[]) => `Page "${path.join(' › ')}"`;

/** The strings of `blocks` (and of their nested blocks to `block_depth`, and their child pages to `child_page_depth`). */
async function readBlocks(ctx: Ctx, blocks: readonly Block[], walk: PageWalk, depth: number, heading: { text: string | undefined }): Promise<void> {
  for (const block of blocks) {
    const where = () => `${pathContext(walk.path)}${heading.text ? ` › under heading "${heading.text}"` : ''}`;
    if (block.type === 'child_page') {
      const title = (block.child_page as { title?: string } | undefined)?.title ?? '';
      // The child_page block carries its title as plain text, without the formatting of the page's own title property.
      if (walk.level < ctx.settings.child_page_depth) await readPage(ctx, block.id, escapeText(title), { ...walk, path: [...walk.path, title || 'Untitled'], level: walk.level + 1 });
      continue;
    }
    const content = block[block.type] as { rich_text?: RichText[]; cells?: RichText[][] } | undefined;
    const note = TEXT_BLOCKS[block.type];
    if (note && content?.rich_text) {
      const source = richTextToString(content.rich_text);
      if (HEADINGS.has(block.type)) heading.text = plain(content.rich_text).trim() || heading.text;
      if (source.trim() !== '') walk.strings.push({ key: block.id, source, context: HEADINGS.has(block.type) ? pathContext(walk.path) : where(), notes: note });
    } else if (block.type === 'table_row' && content?.cells) {
      // Notion gives a table's columns no id, only their place in `cells`: inserting or moving a column re-keys the
      // cells to its right (a documented limit, docs/integrations/notion.md).
      content.cells.forEach((cell, column) => {
        const source = richTextToString(cell);
        if (source.trim() !== '') walk.strings.push({ key: `${block.id}/${column + 1}`, source, context: where(), notes: `A table cell (column ${column + 1}).` });
      });
    }
    // A child database is read only when it is configured itself; a synced block's copy (`synced_from` set) is read
    // where the original is, so its text is one string rather than one per copy.
    const copy = block.type === 'synced_block' && (block.synced_block as { synced_from?: unknown } | undefined)?.synced_from != null;
    if (block.has_children && depth < ctx.settings.block_depth && block.type !== 'child_database' && !copy) {
      // A nested block's nearest heading is the one above its parent, or one inside it (a toggle heading's children).
      await readBlocks(ctx, await children(ctx, block.id, walk.budget), walk, depth + 1, { text: heading.text });
    }
  }
}

/** A page's title (as `<id>/title`, already rendered) and its blocks; child pages recurse through `readBlocks`. */
async function readPage(ctx: Ctx, id: string, title: string, walk: PageWalk): Promise<void> {
  if (title.trim() !== '') walk.strings.push({ key: `${id}/title`, source: title, context: pathContext(walk.path), notes: walk.level === 0 ? "The page's title." : "A child page's title." });
  await readBlocks(ctx, await children(ctx, id, walk.budget), walk, 1, { text: undefined });
}

const titleOf = (page: Page) => Object.values(page.properties).find((property) => property.type === 'title');

async function pageUnit(ctx: Ctx, id: string): Promise<{ unit: StringUnit; note: string }> {
  const page = await call<Page>(ctx, `/v1/pages/${id}`, `Reading Notion page ${id} (setting pages)`);
  const titleRuns = titleOf(page)?.title ?? [];
  const name = plain(titleRuns).trim() || 'Untitled';
  const walk: PageWalk = { path: [name], level: 0, strings: [], budget: { blocks: 0, root: id } };
  await readPage(ctx, id, richTextToString(titleRuns), walk);
  return { unit: { kind: 'strings', path: `pages/${id}`, strings: walk.strings }, note: `page '${name}' (${id}): ${walk.strings.length} strings from ${walk.budget.blocks} blocks` };
}

async function databaseUnit(ctx: Ctx, id: string): Promise<{ unit: StringUnit; note: string }> {
  const database = await call<Database>(ctx, `/v1/databases/${id}`, `Reading Notion database ${id} (setting databases)`);
  const name = plain(database.title).trim() || 'Untitled';
  const strings: RemoteString[] = [];
  let rows = 0;
  let cursor: string | undefined;
  do {
    const body = { page_size: PAGE_SIZE, ...(cursor ? { start_cursor: cursor } : {}) };
    const page = await call<List<Page>>(ctx, `/v1/databases/${id}/query`, `Querying Notion database ${id} (setting databases)`, { method: 'POST', body });
    rows += page.results.length;
    if (rows > ctx.settings.max_database_rows) {
      throw new ConnectorError('config', `Notion database '${name}' (${id}, setting databases) has more than ${ctx.settings.max_database_rows} rows (setting max_database_rows). Raise max_database_rows or translate a smaller database.`);
    }
    for (const row of page.results) {
      const rowName = plain(titleOf(row)?.title).trim() || 'Untitled';
      for (const [property, value] of Object.entries(row.properties)) {
        const runs = value.type === 'title' ? value.title : value.type === 'rich_text' ? value.rich_text : undefined;
        const source = runs ? richTextToString(runs) : '';
        if (source.trim() === '') continue;
        // Keyed by the property's id, which Notion keeps when the column is renamed (its name would re-key every row);
        // the name is only context.
        strings.push({ key: `${row.id}/${value.id}`, source, context: `Database "${name}" › row "${rowName}" › property "${property}"`, notes: value.type === 'title' ? "The row's title." : `The row's "${property}" text.` });
      }
    }
    cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
  } while (cursor);
  return { unit: { kind: 'strings', path: `databases/${id}`, strings }, note: `database '${name}' (${id}): ${strings.length} strings from ${rows} rows` };
}

async function list(ctx: Ctx): Promise<Listing> {
  const units: StringUnit[] = [];
  const notes: string[] = [];
  for (const id of ctx.settings.pages) {
    const { unit, note } = await pageUnit(ctx, id);
    units.push(unit);
    notes.push(note);
  }
  for (const id of ctx.settings.databases) {
    const { unit, note } = await databaseUnit(ctx, id);
    units.push(unit);
    notes.push(note);
  }
  return { units, note: `Notion, import only: ${notes.join('; ')}.` };
}

/** Events after which a page's or a database's text may differ. Comments, locks and permissions change no text. */
const CONTENT_EVENTS = new Set([
  'page.created',
  'page.content_updated',
  'page.properties_updated',
  'page.moved',
  'page.deleted',
  'page.undeleted',
  'database.content_updated',
  'database.deleted',
  'database.undeleted',
  'data_source.content_updated',
  'data_source.deleted',
  'data_source.undeleted',
]);

interface NotionEvent {
  type?: unknown;
  entity?: { id?: unknown; type?: unknown };
  data?: { parent?: { id?: unknown; type?: unknown } };
  verification_token?: unknown;
}

/**
 * Notion signs each event with `X-Notion-Signature: sha256=<hex>`, the HMAC-SHA256 of the body keyed with the
 * subscription's verification token, which must therefore be the connection's webhook secret.
 *
 * Notion chooses that token, not Parlance: creating a subscription makes Notion post it once, unsigned, as
 * `{"verification_token": "…"}`. That post proves nothing and starts nothing: it is the verdict's `handshake`, which the
 * framework keeps sealed and shows to the connection's managers (`webhook_handshake` on GET), who paste it into
 * Notion's Verify dialog and set it as the connection's `webhook_secret`. Notion's dialog accepts only the token Notion
 * sent, so a forged handshake cannot become the secret unnoticed; one repeating the secret already set is acknowledged.
 *
 * A verified content event syncs when its page or database is configured, or its parent is; a page deeper below a
 * configured page says only its immediate parent, and this check sees only the settings, so such an event syncs too
 * (a sync that finds nothing changed costs a few reads). A page whose parent is a database that is not configured is
 * never read (child databases are not), so it is acknowledged without a sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, current: NotionSettings): WebhookVerdict {
  let event: NotionEvent;
  try {
    event = JSON.parse(Buffer.from(request.body).toString('utf8')) as NotionEvent;
  } catch {
    return { verified: false, sync: false, reason: 'the body is not JSON' };
  }
  if (typeof event !== 'object' || event === null) return { verified: false, sync: false, reason: 'the body is not a Notion event' };
  const signature = request.headers.get('x-notion-signature');
  if (!signature) {
    if (typeof event.verification_token !== 'string') return { verified: false, sync: false, reason: 'no X-Notion-Signature header' };
    if (sameSecret(event.verification_token, webhookSecret)) return { verified: true, sync: false, reason: "Notion's subscription handshake, with the token already set as the webhook secret" };
    return { verified: false, sync: false, handshake: event.verification_token, reason: "Notion's subscription handshake" };
  }
  const expected = `sha256=${createHmac('sha256', webhookSecret).update(request.body).digest('hex')}`;
  if (!sameSecret(signature.trim(), expected)) return { verified: false, sync: false, reason: 'X-Notion-Signature does not match the HMAC-SHA256 of the body with the webhook secret' };
  const type = String(event.type);
  if (!CONTENT_EVENTS.has(type)) return { verified: true, sync: false, reason: `event '${type}' changes no text` };
  const configured = new Set([...current.pages, ...current.databases]);
  const entity = typeof event.entity?.id === 'string' ? event.entity.id.toLowerCase() : undefined;
  const parent = typeof event.data?.parent?.id === 'string' ? event.data.parent.id.toLowerCase() : undefined;
  if ((entity && configured.has(entity)) || (parent && configured.has(parent))) return { verified: true, sync: true };
  const parentType = String(event.data?.parent?.type);
  if (type.startsWith('database.') || type.startsWith('data_source.') || parentType === 'database' || parentType === 'data_source') {
    return { verified: true, sync: false, reason: `event '${type}' for ${String(event.entity?.id)}, in no database of the connection` };
  }
  return { verified: true, sync: true };
}

export const notion: Connector<NotionSettings, NotionSecrets> = {
  id: 'notion',
  name: 'Notion',
  category: 'content',
  direction: 'import_only',
  summary: "Notion pages (with their child pages) and databases: every text block, table cell, page title and database row's text property is imported for translation, formatting kept as tags, with the page path and heading as context; import only.",
  settings,
  secrets,
  webhooks: "Notion webhook subscriptions (page.content_updated, page.properties_updated, …): X-Notion-Signature is sha256= and the HMAC-SHA256 of the body keyed with the subscription's verification token, set as the connection's webhook secret",
  list,
  verifyWebhook,
};
