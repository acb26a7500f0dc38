/**
 * Google Docs as an import-only content connector, through the Docs API v1 (`https://docs.googleapis.com/v1`): every
 * non-empty paragraph of the configured documents (body text, headings, list items, table cells, in every tab and
 * child tab) is a source string, one unit per document, with the document title, the tab and the heading path as its
 * context. The scope is read-only (`documents.readonly`): nothing is written back; translations stay in Parlance.
 *
 * Each document is read with one `GET /v1/documents/{id}?includeTabsContent=true&suggestionsViewMode=PREVIEW_WITHOUT_SUGGESTIONS`
 * (suggested insertions a person has not accepted are not source text; suggested deletions still are), at most
 * MAX_ANSWER_BYTES of it, at most `max_paragraphs` strings and tables nested at most MAX_TABLE_DEPTH deep.
 *
 * Keys. The Docs API gives paragraphs no ids, but it gives every heading one (`paragraphStyle.headingId`, `h.…`, kept
 * while the heading exists, whatever its text becomes). A heading is keyed `<tab id>/<heading id>`; a paragraph under
 * it `<tab id>/<heading id>/<n>`, its position among the non-empty paragraphs of that section (`<tab id>/<n>` before the
 * first heading). So an edited paragraph stays the same key (a change, re-translated, its history kept), and a paragraph
 * inserted or removed shifts the keys of the paragraphs after it in its own section only, which are then translated
 * again. A content hash would keep every unchanged paragraph's key on an insertion, but would make each edit a new key
 * with the old one removed, its translation and review history left behind; sections are short, edits are the common
 * case, so the heading anchors win. A heading the API gives no id (Google omits it for some, e.g. TITLE: a guess) is
 * counted as a paragraph of the section it is in.
 *
 * Text. A paragraph is its `textRun.content`s joined (smart chips: a person's name, a rich link's title), the closing
 * newline dropped, a soft line break (U+000B) made `\n`. Bold, italic and other text styles are dropped: nothing is
 * written back into the document, so markup would only be syntax for translators and providers to carry; a link's
 * target is named in the notes instead. A generated table of contents is skipped (it repeats the headings).
 *
 * Webhooks. Docs has none of its own; Drive's push channels (`files.watch`, with a Drive scope, created by a person and
 * living at most a day) send no body, and carry the `token` given at creation in `X-Goog-Channel-Token`: it must equal
 * the connection's webhook secret.
 *
 * References: developers.google.com/docs/api/reference/rest/v1/documents (Document {documentId, title, revisionId,
 * tabs, body}, Tab {tabProperties {tabId, title, index, parentTabId}, childTabs, documentTab {body}}, StructuralElement
 * {startIndex, endIndex, paragraph | table | sectionBreak | tableOfContents}, Paragraph {elements, paragraphStyle
 * {namedStyleType, headingId}, bullet}, ParagraphElement {textRun {content, textStyle {link {url | headingId |
 * bookmarkId | tabId}}} | person {personProperties {name, email}} | richLink {richLinkProperties {title, uri}} | …},
 * Table {tableRows [{tableCells [{content}]}]}), …/documents/get (includeTabsContent, suggestionsViewMode),
 * developers.google.com/docs/api/how-tos/tabs (the `body` of a document read without tabs is its first tab's), and
 * developers.google.com/workspace/drive/api/guides/push (X-Goog-Channel-Token, X-Goog-Resource-State sync | update |
 * trash | remove …, X-Goog-Changed, X-Goog-Resource-URI; files channels expire within 86400 seconds).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson, type FailureWording } from '../connector-http.js';
import { googleAuthorization, googleSecrets, type GoogleSecrets } from '../google-auth.js';
import { sameSecret } from '../same-secret.js';

export const DOCS_SCOPE = 'https://www.googleapis.com/auth/documents.readonly';
/** Tables inside table cells, deeper than anyone lays out text; deeper ones are a config error rather than a deep recursion. */
const MAX_TABLE_DEPTH = 8;
/** The default of `max_paragraphs`. */
const MAX_PARAGRAPHS = 5000;
const DOCUMENT_ID = /^[A-Za-z0-9_-]{20,100}$/;

const settings = z
  .object({
    api_url: z.string().url().default('https://docs.googleapis.com').openapi({ description: 'The Docs API. Default `https://docs.googleapis.com`.' }),
    document_ids: z
      .array(z.string().regex(DOCUMENT_ID, "Expected a document id such as '1Xk3vLp9TnW2kZr8hYc4mBdQ7sJf0aGe5uPi6oRt2yNw' (the part of the document's URL after /document/d/) in `document_ids`."))
      .min(1)
      .max(100)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'Each document id once in `document_ids`.' })
      .openapi({ description: "The documents to translate, by id: the part of the URL between `/document/d/` and `/edit`. Each is one path in Parlance; at most 100." }),
    max_paragraphs: z
      .number()
      .int()
      .min(1)
      .max(50_000)
      .default(MAX_PARAGRAPHS)
      .openapi({ description: `The most non-empty paragraphs one document may hold; a longer one fails the sync, naming this setting. Default ${MAX_PARAGRAPHS}.` }),
  })
  .strict();

export type DocsSettings = z.infer<typeof settings>;
type Ctx = ConnectorContext<DocsSettings, GoogleSecrets>;

interface TextStyle {
  link?: { url?: string; headingId?: string; bookmarkId?: string; tabId?: string };
}
interface ParagraphElement {
  textRun?: { content?: string; textStyle?: TextStyle };
  person?: { personProperties?: { name?: string; email?: string } };
  richLink?: { richLinkProperties?: { title?: string; uri?: string } };
}
interface Paragraph {
  elements?: ParagraphElement[];
  paragraphStyle?: { namedStyleType?: string; headingId?: string };
  bullet?: unknown;
}
interface StructuralElement {
  paragraph?: Paragraph;
  table?: { tableRows?: { tableCells?: { content?: StructuralElement[] }[] }[] };
  tableOfContents?: unknown;
}
interface Body {
  content?: StructuralElement[];
}
interface Tab {
  tabProperties?: { tabId?: string; title?: string };
  childTabs?: Tab[];
  documentTab?: { body?: Body };
}
interface Document {
  documentId?: string;
  title?: string;
  revisionId?: string;
  tabs?: Tab[];
  body?: Body;
}

/**
 * Section levels: the path keeps the headings above a paragraph, each deeper than the one before it. A subtitle is a
 * string (noted as one) but opens no section: it belongs to the title above it.
 */
const HEADING_LEVELS: Record<string, number> = { TITLE: 0, HEADING_1: 1, HEADING_2: 2, HEADING_3: 3, HEADING_4: 4, HEADING_5: 5, HEADING_6: 6 };
const HEADING_NAMES: Record<string, string> = { TITLE: 'Title', SUBTITLE: 'Subtitle', HEADING_1: 'Heading 1', HEADING_2: 'Heading 2', HEADING_3: 'Heading 3', HEADING_4: 'Heading 4', HEADING_5: 'Heading 5', HEADING_6: 'Heading 6' };

/** A tab with content: its id and title, and its body. Documents read without tabs have their first tab's body, `t.0`. */
interface TabBody {
  id: string;
  title: string;
  body: Body;
}

/** Every tab of the document, child tabs after their parent, as the tab list shows them. */
function tabsOf(document: Document): TabBody[] {
  if (!document.tabs) return [{ id: 't.0', title: 'Tab 1', body: document.body ?? {} }];
  const found: TabBody[] = [];
  const visit = (tabs: Tab[], depth: number) => {
    if (depth > MAX_TABLE_DEPTH) throw new ConnectorError('config', `Google Docs document '${document.title ?? document.documentId}' nests child tabs more than ${MAX_TABLE_DEPTH} deep; Parlance reads no deeper.`);
    for (const tab of tabs) {
      const id = tab.tabProperties?.tabId ?? `t.${found.length}`;
      found.push({ id, title: tab.tabProperties?.title ?? id, body: tab.documentTab?.body ?? {} });
      visit(tab.childTabs ?? [], depth + 1);
    }
  };
  visit(document.tabs, 0);
  return found;
}

/** What a paragraph says: its runs and chips joined, the closing newline dropped, soft line breaks as `\n`. */
export function paragraphText(paragraph: Paragraph): string {
  const parts = (paragraph.elements ?? []).map((element) => {
    if (element.textRun) return element.textRun.content ?? '';
    if (element.person) return element.person.personProperties?.name ?? element.person.personProperties?.email ?? '';
    if (element.richLink) return element.richLink.richLinkProperties?.title ?? element.richLink.richLinkProperties?.uri ?? '';
    return '';
  });
  return parts.join('').replace(/\n$/, '').replaceAll('\u000b', '\n');
}

/** The web links of a paragraph, for the notes: `"text" → url` (links to headings or bookmarks inside the document say nothing). */
function linksOf(paragraph: Paragraph): string[] {
  const links: string[] = [];
  for (const element of paragraph.elements ?? []) {
    const url = element.textRun?.textStyle?.link?.url;
    const text = (element.textRun?.content ?? '').replace(/\n$/, '').trim();
    if (url && text) links.push(`"${text}" → ${url}`);
  }
  return links;
}

interface Walk {
  tab: TabBody;
  /** The context's head: the document title and, when the document has several tabs, the tab's. */
  head: string;
  /** The headings above the current paragraph, outermost first. */
  path: { level: number; text: string }[];
  /** The current section's anchor: the last heading's id, or '' before the first one. */
  anchor: string;
  /** Non-empty paragraphs counted in the current section. */
  counted: number;
  strings: RemoteString[];
  max: number;
  document: string;
}

function visitParagraph(walk: Walk, paragraph: Paragraph, cell: string | undefined): void {
  const text = paragraphText(paragraph);
  if (text.trim() === '') return;
  if (walk.strings.length >= walk.max) {
    throw new ConnectorError('config', `Google Docs document ${walk.document} holds more than ${walk.max} non-empty paragraphs (setting max_paragraphs). Raise max_paragraphs (up to 50000), or split the document.`);
  }
  const style = paragraph.paragraphStyle?.namedStyleType ?? 'NORMAL_TEXT';
  const level = HEADING_LEVELS[style];
  // A heading inside a table cell is styled text, not a section of the document.
  const section = level !== undefined && cell === undefined;
  const headingId = section ? paragraph.paragraphStyle?.headingId : undefined;
  if (section) while (walk.path.length > 0 && walk.path.at(-1)!.level >= level) walk.path.pop();
  const context = [walk.head, ...walk.path.map((h) => `"${h.text}"`)].join(' › ');
  let key: string;
  if (headingId) {
    walk.anchor = headingId;
    walk.counted = 0;
    key = `${walk.tab.id}/${headingId}`;
  } else {
    walk.counted++;
    key = [walk.tab.id, walk.anchor, String(walk.counted)].filter(Boolean).join('/');
  }
  if (section) walk.path.push({ level, text: text.replaceAll('\n', ' ') });
  const links = linksOf(paragraph);
  const notes = [
    HEADING_NAMES[style] !== undefined ? `${HEADING_NAMES[style]}.` : undefined,
    paragraph.bullet !== undefined ? 'List item.' : undefined,
    cell,
    links.length > 0 ? `Links: ${links.join('; ')}.` : undefined,
  ].filter((note) => note !== undefined);
  walk.strings.push({ key, source: text, context, ...(notes.length > 0 ? { notes: notes.join(' ') } : {}) });
}

function visitContent(walk: Walk, content: StructuralElement[], cell: string | undefined, depth: number): void {
  for (const element of content) {
    if (element.paragraph) visitParagraph(walk, element.paragraph, cell);
    else if (element.table) {
      if (depth >= MAX_TABLE_DEPTH) throw new ConnectorError('config', `Google Docs document ${walk.document} nests tables more than ${MAX_TABLE_DEPTH} deep; Parlance reads no deeper. Flatten the inner tables.`);
      (element.table.tableRows ?? []).forEach((row, r) =>
        (row.tableCells ?? []).forEach((tableCell, c) => visitContent(walk, tableCell.content ?? [], `Table cell: row ${r + 1}, column ${c + 1}.`, depth + 1)),
      );
    }
    // sectionBreak carries no text; tableOfContents repeats the headings, which are strings where they stand.
  }
}

/** The strings of one document, tab by tab. */
export function stringsOfDocument(document: Document, max: number): { strings: RemoteString[]; tabs: number } {
  const tabs = tabsOf(document);
  const title = document.title ?? document.documentId ?? 'Untitled document';
  const strings: RemoteString[] = [];
  for (const tab of tabs) {
    // Each tab starts afresh: its own heading path and sections; the strings and their bound are the document's.
    const head = `Document "${title}"${tabs.length > 1 ? ` › tab "${tab.title}"` : ''}`;
    visitContent({ tab, head, path: [], anchor: '', counted: 0, strings, max, document: `'${title}' (${document.documentId ?? '?'})` }, tab.body.content ?? [], undefined, 0);
  }
  return { strings, tabs: tabs.length };
}

const wording = (ctx: Ctx, id: string): FailureWording => ({
  vendor: 'Google Docs',
  credentials: ctx.secrets.service_account
    ? `the secret service_account (a current key of an enabled account) and that document ${id} is shared with ${ctx.secrets.service_account.client_email} (Viewer is enough)`
    : `the secret access_token (it expires within the hour and needs the scope ${DOCS_SCOPE}) and that its account can open document ${id}`,
  settings: `the document id '${id}' in document_ids`,
});

async function readDocument(ctx: Ctx, id: string): Promise<Document> {
  const what = `Reading Google Docs document '${id}' (setting document_ids)`;
  const url = new URL(`${ctx.settings.api_url.replace(/\/+$/, '')}/v1/documents/${encodeURIComponent(id)}`);
  url.searchParams.set('includeTabsContent', 'true');
  url.searchParams.set('suggestionsViewMode', 'PREVIEW_WITHOUT_SUGGESTIONS');
  const authorization = await googleAuthorization(ctx.http, ctx.secrets, [DOCS_SCOPE]);
  const response = await ctx.http.request(url.toString(), { headers: { authorization, accept: 'application/json' } });
  if (response.status === 404) {
    await response.body?.cancel();
    throw new ConnectorError('config', `${what}: Google Docs answered HTTP 404 (Requested entity was not found): there is no document '${id}'. Check document_ids (the part of the URL after /document/d/).`);
  }
  if (!response.ok) throw await failure(response, what, wording(ctx, id));
  // Within connector-http's MAX_ANSWER_BYTES (32 MiB): the JSON of a long document with its styles runs to megabytes.
  const document = await readJson<Document>(response, what, { tooLarge: 'split the document (move tabs into documents of their own)', required: true });
  return document;
}

async function list(ctx: Ctx): Promise<Listing> {
  const units: StringUnit[] = [];
  const notes: string[] = [];
  for (const id of ctx.settings.document_ids) {
    const document = await readDocument(ctx, id);
    const { strings, tabs } = stringsOfDocument({ ...document, documentId: document.documentId ?? id }, ctx.settings.max_paragraphs);
    units.push({ kind: 'strings', path: id, strings });
    notes.push(`'${document.title ?? id}' (${id}, revision ${document.revisionId ?? '?'}): ${strings.length} paragraphs in ${tabs} ${tabs === 1 ? 'tab' : 'tabs'}`);
  }
  return { units, note: `Google Docs, import only (read with ${DOCS_SCOPE}): ${notes.join('; ')}.` };
}

/** Resource states after which a document's text may differ; `sync` only says the channel was created. */
const SOURCE_STATES = new Set(['update', 'untrash', 'trash', 'remove']);

/**
 * A Drive push notification (files.watch on a document). Drive signs nothing: the channel's `token`, chosen when the
 * channel was created, comes back in X-Goog-Channel-Token and is compared in constant time with the webhook secret.
 * The document is the one in X-Goog-Resource-URI (`…/files/{id}?…`): another document's is acknowledged without a
 * sync, as is an `update` that changed only the file's permissions or properties (X-Goog-Changed).
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, current: DocsSettings): WebhookVerdict {
  const token = request.headers.get('x-goog-channel-token');
  if (token === null) return { verified: false, sync: false, reason: 'no X-Goog-Channel-Token header (create the Drive channel with the webhook secret as its token)' };
  if (!sameSecret(token, webhookSecret)) return { verified: false, sync: false, reason: 'X-Goog-Channel-Token does not match the webhook secret' };
  const state = request.headers.get('x-goog-resource-state') ?? '';
  if (!SOURCE_STATES.has(state)) return { verified: true, sync: false, reason: `resource state '${state}' does not change a document's text` };
  const changed = (request.headers.get('x-goog-changed') ?? '').split(',').map((c) => c.trim()).filter(Boolean);
  if (state === 'update' && changed.length > 0 && !changed.includes('content')) return { verified: true, sync: false, reason: `only ${changed.join(', ')} changed, not the content` };
  const resource = request.headers.get('x-goog-resource-uri') ?? '';
  const id = /\/files\/([A-Za-z0-9_-]+)/.exec(resource)?.[1];
  if (id === undefined || !current.document_ids.includes(id)) return { verified: true, sync: false, reason: `notification for '${resource}', not one of the connection's documents` };
  return { verified: true, sync: true };
}

export const googleDocs: Connector<DocsSettings, GoogleSecrets> = {
  id: 'google_docs',
  name: 'Google Docs',
  category: 'content',
  direction: 'import_only',
  summary: "Google Docs documents: every non-empty paragraph, heading and table cell of every tab is imported for translation, with the document, tab and heading path as context; read-only, nothing is written back.",
  settings,
  secrets: googleSecrets,
  webhooks: "Google Drive push notifications (files.watch on each document): X-Goog-Channel-Token must equal the connection's webhook secret",
  list,
  verifyWebhook,
};
