/**
 * Confluence Cloud (REST API v2) as an import-only content connector: the pages of one space, optionally only a page
 * tree (a root page and its descendants) or the pages carrying a label, are split into translatable segments
 * (paragraphs, headings, list items, table cells), one unit per page (path: the page id, which survives renames and
 * moves). Confluence holds one language per page, and Parlance writes nothing back: translations stay in Parlance.
 *
 * The body is read in storage format (XHTML with `ac:`/`ri:` elements) and parsed with the project's XML scanner
 * (src/core/formats/xml-scan.ts), never with regular expressions over markup. Inline `<strong>`, `<em>`, `<a href>`,
 * `<code>` (and `<u>`, `<s>`, `<sub>`, `<sup>`, `<br/>`) stay in the segment as tags, which the placeholder gate keeps
 * consistent in translations; a link to another page or an inline macro stays as one empty tag (where it sits in the
 * sentence matters); block macros and their parameters are left out, except the rich-text bodies of macros such as
 * info panels and expands, which are segmented like the page.
 *
 * Keys are `<page id>#<segment index>`. A content hash would keep an unchanged paragraph's key when one is inserted
 * above it, but an edited paragraph would then become a new key (its translation and history left behind on a removed
 * one); with indexes, an edit is a change of that key only, and an insertion shifts the keys below it, whose
 * unchanged text the translation memory then serves again at no provider cost.
 *
 * Reads: `GET /wiki/api/v2/spaces?keys=` (the space's id), `GET /wiki/api/v2/spaces/{id}/pages?body-format=storage`
 * (cursor pagination by `_links.next`, followed only on the configured site, at most `max_pages` pages), and with
 * `label`, `GET /wiki/api/v2/pages/{id}/labels` for each page of the space. Ancestors come from the pages' `parentId`s,
 * so no request per page is needed for them. Errors: v2's `{"errors":[{status, code, title, detail}]}` and v1's
 * `{statusCode, message}` are both quoted.
 *
 * Webhooks: Confluence Cloud has no webhook a plain connection can verify (Connect apps' webhooks carry a JWT signed
 * with the app's installation secret, Forge triggers reach only Forge functions, and the admin webhooks signed with
 * X-Hub-Signature exist in Confluence Data Center only), so there is none: syncs run on the schedule.
 */
import { z } from '@hono/zod-openapi';
import { HTML_ENTITIES } from '../../../src/core/formats/html-entities.js';
import { FileUnparsableError } from '../../../src/core/formats/file-unparsable-error.js';
import { attribute, scanXml, type XmlElement, type XmlNode } from '../../../src/core/formats/xml-scan.js';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson, vendorMessage } from '../connector-http.js';

/** Pages per list request: storage bodies make each answer large, so fewer than the API's maximum of 250. */
const PAGE_SIZE = 50;
/** The largest answer read (a list page of PAGE_SIZE bodies, or a label list). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** The largest storage body segmented; Confluence's own editor limit is far below it. */
const MAX_BODY_CHARS = 5 * 1024 * 1024;
/** Segments of one page beyond which the page is refused rather than half-listed (its body's size bounds the work before). */
const MAX_SEGMENTS = 20_000;
/** Labels read for one page (a page carrying more is not usual). */
const LABEL_LIMIT = 250;

const settings = z
  .object({
    site_url: z
      .string()
      .url()
      .regex(/^https?:\/\/[^/]+\/?$/, 'the site address only, such as https://acme.atlassian.net (no /wiki or other path)')
      .openapi({ description: 'The Confluence Cloud site, such as `https://acme.atlassian.net` (without `/wiki`).' }),
    space_key: z
      .string()
      .regex(/^~?[A-Za-z0-9_-]{1,255}$/, 'a space key such as DOCS (Space settings › Space details), or ~accountId for a personal space')
      .openapi({ description: 'The key of the space whose pages are translated, such as `DOCS`.' }),
    root_page_id: z
      .string()
      .regex(/^\d{1,20}$/, "a page id: the number in the page's URL (…/pages/<id>/…)")
      .optional()
      .openapi({ description: 'Only this page and its descendants (a page tree). Default: every page of the space.' }),
    label: z
      .string()
      .regex(/^[^\s,]{1,255}$/, 'one Confluence label (labels hold no spaces or commas)')
      .optional()
      .openapi({ description: 'Only the pages carrying this label (within the page tree, when `root_page_id` is set too).' }),
    max_pages: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(2_000)
      .openapi({ description: 'The most pages a sync reads from the space; beyond it the sync fails, saying so, rather than leaving pages out. Default 2000.' }),
  })
  .strict();

const secrets = z
  .object({
    email: z.string().email().openapi({ description: 'The email address of the Atlassian account the API token belongs to.' }),
    api_token: z.string().min(1).openapi({ description: 'An Atlassian API token (id.atlassian.com › Security › API tokens) of an account that can view the space.' }),
  })
  .strict();

export type ConfluenceSettings = z.infer<typeof settings>;
export type ConfluenceSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<ConfluenceSettings, ConfluenceSecrets>;

interface Space {
  id: string;
  key: string;
  name: string;
}
interface Page {
  id: string;
  title: string;
  status?: string;
  parentId?: string | null;
  version?: { number?: number };
  body?: { storage?: { value?: string } };
}
interface Results<T> {
  results?: T[];
  _links?: { next?: string };
}

/** The vendor's words from both of Confluence's error envelopes: v2's `errors[]` (code, title, detail) and v1's `message`. */
export function confluenceMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { code?: unknown; title?: unknown; detail?: unknown }[]; message?: unknown };
    const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
    if (first) return [first.code, first.title, first.detail].filter((part) => typeof part === 'string' && part !== '').join(': ').slice(0, 300);
    if (typeof body.message === 'string') return body.message.slice(0, 300);
  } catch {
    // Not JSON (a proxy's page): the generic reading below.
  }
  return vendorMessage(text);
}

const WORDING = {
  vendor: 'Confluence',
  read: confluenceMessage,
  credentials: "the connection's email and api_token (an API token of an account that can view the space)",
  settings: "the connection's site_url, space_key and root_page_id",
};

function authorization(ctx: Ctx): string {
  return `Basic ${Buffer.from(`${ctx.secrets.email}:${ctx.secrets.api_token}`).toString('base64')}`;
}

/** A URL on the configured site; a `next` link pointing anywhere else is refused, so the credentials never leave it. */
function siteUrl(ctx: Ctx, pathOrLink: string, query: Record<string, string> = {}): string {
  const site = new URL(ctx.settings.site_url);
  const url = new URL(pathOrLink, site);
  if (url.origin !== site.origin) throw new ConnectorError('config', `Confluence gave a next link to ${url.origin}, not the site ${site.origin} (setting site_url); it was not followed. Set site_url to the address Confluence answers on.`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** A 2xx JSON answer, read only up to MAX_RESPONSE_BYTES (streamed, so a longer one is cut off, not held). */
async function getJson<T>(ctx: Ctx, url: string, what: string): Promise<T> {
  const response = await ctx.http.request(url, { headers: { authorization: authorization(ctx), accept: 'application/json' } });
  if (!response.ok) throw await failure(response, what, WORDING);
  // Every read here expects a document; an empty answer is not an empty list.
  const body = await readJson<T>(response, what, { maxBytes: MAX_RESPONSE_BYTES, tooLarge: 'narrow the pages with root_page_id or label', required: true });
  return body;
}

/** Every item of a cursor-paginated list, following `_links.next` until it ends or `max` items are read. */
async function readAll<T>(ctx: Ctx, first: string, what: string, max: number, tooMany: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined = first;
  while (next) {
    const page: Results<T> = await getJson<Results<T>>(ctx, next, what);
    items.push(...(page.results ?? []));
    if (items.length > max) throw new ConnectorError('config', tooMany);
    next = page._links?.next ? siteUrl(ctx, page._links.next) : undefined;
  }
  return items;
}

async function findSpace(ctx: Ctx): Promise<Space> {
  const key = ctx.settings.space_key;
  const found = await getJson<Results<Space>>(ctx, siteUrl(ctx, '/wiki/api/v2/spaces', { keys: key }), `Looking up Confluence space '${key}' (setting space_key)`);
  const space = found.results?.find((s) => s.key === key);
  if (!space) throw new ConnectorError('config', `Confluence has no space '${key}' that the account ${ctx.secrets.email} can view (setting space_key). Check the key (Space settings › Space details) and the account's space permissions.`);
  return space;
}

async function labelsOf(ctx: Ctx, page: Page): Promise<string[]> {
  const url = siteUrl(ctx, `/wiki/api/v2/pages/${encodeURIComponent(page.id)}/labels`, { limit: String(LABEL_LIMIT) });
  const labels = await readAll<{ name: string }>(ctx, url, `Reading the labels of Confluence page ${page.id} ('${page.title}')`, 10 * LABEL_LIMIT, `Confluence page ${page.id} ('${page.title}') carries more than ${10 * LABEL_LIMIT} labels.`);
  return labels.map((l) => l.name);
}

// ---------------------------------------------------------------------------------------------------------------
// Storage format → segments

/** One translatable piece of a page: its text with inline tags, the block it came from, and the heading above it. */
export interface Segment {
  text: string;
  block: string;
  heading: string | undefined;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements whose inline content is one segment each; what they nest (a list in a list item) is segmented apart. */
const BLOCKS = new Set([...HEADINGS, 'p', 'li', 'td', 'th', 'caption', 'dt', 'dd', 'blockquote', 'figcaption']);
/** Containers walked through for the blocks they hold. */
const CONTAINERS = new Set(['ul', 'ol', 'dl', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'colgroup', 'div', 'section', 'ac:layout', 'ac:layout-section', 'ac:layout-cell', 'ac:rich-text-body', 'ac:task-list', 'ac:task', 'ac:task-body']);
/** Inline formatting kept as tags (b and i under the names the editor writes). */
const KEPT_TAGS: Readonly<Record<string, string>> = { strong: 'strong', b: 'strong', em: 'em', i: 'em', code: 'code', u: 'u', s: 's', del: 's', sub: 'sub', sup: 'sup' };
/** Never text to translate: code, and the parts of a task that are not its body. */
const SKIPPED = new Set(['pre', 'ac:plain-text-body', 'ac:parameter', 'ac:task-id', 'ac:task-status', 'ac:task-uuid', 'ac:placeholder', 'ri:attachment', 'ri:page', 'ri:user', 'ri:url']);

const XML_PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

/**
 * The body as an XML document the scanner takes: HTML's named references (`&nbsp;`, `&eacute;`) as numeric ones
 * (outside CDATA, where they are literal text), and one root declaring every namespace prefix the body uses
 * (storage format leaves `ac:`, `ri:` and `at:` undeclared).
 */
function asXml(storage: string): string {
  const body = storage
    .split(/(<!\[CDATA\[[^]*?\]\]>)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(/&([A-Za-z][A-Za-z0-9]*);/g, (whole, name: string) => {
            if (XML_PREDEFINED.has(name) || !Object.hasOwn(HTML_ENTITIES, name)) return whole;
            return [...HTML_ENTITIES[name]!].map((c) => `&#${c.codePointAt(0)};`).join('');
          }),
    )
    .join('');
  const prefixes = new Set<string>();
  for (const m of body.matchAll(/<\/?([A-Za-z_][\w.-]*):[A-Za-z_]|\s([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*\s*=/g)) {
    const prefix = m[1] ?? m[2]!;
    if (prefix !== 'xml' && prefix !== 'xmlns') prefixes.add(prefix);
  }
  const declarations = [...prefixes].map((p) => ` xmlns:${p}="urn:confluence:${p}"`).join('');
  return `<confluence-storage${declarations}>${body}</confluence-storage>`;
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
// A literal '<' before a letter or '/' would read as a tag to the placeholder gate: it is escaped; other text stays plain.
const escapeText = (value: string) => value.replace(/<(?=[A-Za-z/!])/g, '&lt;');

/** Segments the storage-format body of a page; throws FileUnparsableError when it is not well-formed. */
export function segmentStorage(storage: string): Segment[] {
  const doc = scanXml(asXml(storage));
  const segments: Segment[] = [];
  let heading: string | undefined;
  let run = '';
  let runBlock = 'p';

  const flush = () => {
    const text = run.replace(/[ \t\r\n]+/g, ' ').trim();
    run = '';
    if (text.replace(/<[^>]*>/g, '').trim() === '') return;
    segments.push({ text, block: runBlock, heading });
    if (HEADINGS.has(runBlock)) heading = text.replace(/<[^>]*>/g, '');
  };

  /** Inline content of a block, appended to the run; a nested block ends the run and is segmented on its own. */
  const inline = (node: XmlNode, block: string): void => {
    if (node.kind === 'text' || node.kind === 'cdata') {
      run += escapeText(node.value);
      return;
    }
    if (node.kind !== 'element') return;
    const name = node.name;
    if (BLOCKS.has(name) || CONTAINERS.has(name)) {
      flush();
      walk(node, block);
      runBlock = block;
      return;
    }
    if (SKIPPED.has(name)) return;
    const kept = KEPT_TAGS[name];
    if (kept) {
      run += `<${kept}>`;
      for (const child of node.children) inline(child, block);
      run += `</${kept}>`;
    } else if (name === 'a') {
      const href = attribute(node, 'href')?.value;
      run += href ? `<a href="${escapeAttr(href)}">` : '<a>';
      for (const child of node.children) inline(child, block);
      run += '</a>';
    } else if (name === 'br') run += '<br/>';
    else if (name === 'ac:link') {
      // A link to a page, an attachment or a person: its own text (if any) is translated, its target stays a tag.
      const body = node.children.find((c): c is XmlElement => c.kind === 'element' && (c.name === 'ac:link-body' || c.name === 'ac:plain-text-link-body'));
      if (!body) run += '<ac:link/>';
      else {
        run += '<ac:link>';
        for (const child of body.children) inline(child, block);
        run += '</ac:link>';
      }
    } else if (name === 'ac:structured-macro' || name === 'ac:macro') {
      // A macro in a sentence (a status lozenge, a Jira issue) holds its place as one tag; a rich-text body is prose.
      const rich = node.children.find((c): c is XmlElement => c.kind === 'element' && c.name === 'ac:rich-text-body');
      if (rich) {
        flush();
        walk(rich, block);
        runBlock = block;
      } else run += `<ac:structured-macro ac:name="${escapeAttr(attribute(node, 'ac:name')?.value ?? '')}"/>`;
    } else if (name.includes(':')) run += `<${name}/>`; // an emoticon, an image, a date: a placeholder
    else for (const child of node.children) inline(child, block); // span, font and the like: their text only
  };

  /**
   * A block's or container's children. `outer` is the block it sits in: a paragraph in a table cell or a list item
   * (as the editor writes them) is that cell or item.
   */
  function walk(el: XmlElement, outer: string | undefined): void {
    if (SKIPPED.has(el.name)) return;
    const block = !BLOCKS.has(el.name) ? (outer ?? 'p') : el.name === 'p' && outer !== undefined && !HEADINGS.has(outer) ? outer : el.name;
    runBlock = block;
    for (const child of el.children) inline(child, block);
    flush();
  }

  walk(doc.root, undefined);
  return segments;
}

// ---------------------------------------------------------------------------------------------------------------
// Listing

const BLOCK_NAMES: Readonly<Record<string, string>> = { p: 'paragraph', li: 'list item', td: 'table cell', th: 'table header cell', caption: 'table caption', dt: 'term', dd: 'definition', blockquote: 'quotation', figcaption: 'caption' };
const blockName = (block: string) => (HEADINGS.has(block) ? `heading ${block.slice(1)}` : (BLOCK_NAMES[block] ?? block));

/** The page's ancestors that are in the listing, outermost first. */
function ancestors(page: Page, byId: Map<string, Page>): Page[] {
  const chain: Page[] = [];
  const seen = new Set([page.id]);
  let parent = page.parentId ? byId.get(page.parentId) : undefined;
  while (parent && !seen.has(parent.id)) {
    chain.unshift(parent);
    seen.add(parent.id);
    parent = parent.parentId ? byId.get(parent.parentId) : undefined;
  }
  return chain;
}

function unitOf(space: Space, page: Page, byId: Map<string, Page>): StringUnit {
  const storage = page.body?.storage?.value ?? '';
  if (storage.length > MAX_BODY_CHARS) {
    throw new ConnectorError('config', `Confluence page ${page.id} ('${page.title}') has a body of ${storage.length} characters, more than the ${MAX_BODY_CHARS} segmented. Leave it out with root_page_id or label.`);
  }
  let segments: Segment[];
  try {
    segments = segmentStorage(storage);
  } catch (error) {
    if (!(error instanceof FileUnparsableError)) throw error;
    throw new ConnectorError('config', `Confluence page ${page.id} ('${page.title}'): its storage format could not be read (${error.message}). Open and save it in Confluence's editor, or leave it out with root_page_id or label.`);
  }
  if (segments.length > MAX_SEGMENTS) {
    throw new ConnectorError('config', `Confluence page ${page.id} ('${page.title}') has ${segments.length} segments, more than the ${MAX_SEGMENTS} a page may have. Split the page, or leave it out with root_page_id or label.`);
  }
  const trail = [`Space "${space.name}" (${space.key})`, ...ancestors(page, byId).map((a) => `"${a.title}"`), `page "${page.title}"`].join(' › ');
  const strings: RemoteString[] = segments.map((segment, index) => ({
    key: `${page.id}#${index}`,
    source: segment.text,
    context: `${trail}${segment.heading !== undefined && !HEADINGS.has(segment.block) ? ` › section "${segment.heading}"` : ''}`,
    notes: `Confluence ${blockName(segment.block)}${segment.text.includes('<') ? ' (keep every tag: it is the formatting, a link or a macro)' : ''}.`,
  }));
  return { kind: 'strings', path: page.id, strings };
}

async function list(ctx: Ctx): Promise<Listing> {
  const { space_key: key, root_page_id: root, label, max_pages: max } = ctx.settings;
  const space = await findSpace(ctx);
  const first = siteUrl(ctx, `/wiki/api/v2/spaces/${encodeURIComponent(space.id)}/pages`, { 'body-format': 'storage', status: 'current', limit: String(PAGE_SIZE) });
  const pages = await readAll<Page>(ctx, first, `Reading the pages of Confluence space '${key}' (setting space_key)`, max, `Confluence space '${key}' holds more than ${max} pages (setting max_pages). Raise max_pages (up to 10000), or narrow the pages with root_page_id or label.`);
  const byId = new Map(pages.map((p) => [p.id, p]));
  let chosen = pages;
  if (root !== undefined) {
    if (!byId.has(root)) throw new ConnectorError('config', `Confluence space '${key}' has no current page ${root} that the account can view (setting root_page_id).`);
    chosen = pages.filter((p) => p.id === root || ancestors(p, byId).some((a) => a.id === root));
  }
  if (label !== undefined) {
    const labelled: Page[] = [];
    for (const page of chosen) if ((await labelsOf(ctx, page)).includes(label)) labelled.push(page);
    chosen = labelled;
  }
  const units = chosen.map((page) => unitOf(space, page, byId));
  const segments = units.reduce((n, u) => n + u.strings.length, 0);
  const scope = [root !== undefined ? `page tree ${root}` : undefined, label !== undefined ? `label '${label}'` : undefined].filter(Boolean).join(', ');
  return { units, note: `Confluence, import only: space '${key}'${scope ? ` (${scope})` : ''}, ${units.length} of ${pages.length} pages, ${segments} segments.` };
}

export const confluence: Connector<ConfluenceSettings, ConfluenceSecrets> = {
  id: 'confluence',
  name: 'Confluence',
  category: 'content',
  direction: 'import_only',
  summary: "Confluence Cloud pages of a space (or a page tree, or a label): paragraphs, headings, list items and table cells are imported for translation with their formatting kept as tags, and the space, ancestors, page and heading as context; import only, nothing is written back.",
  settings,
  secrets,
  list,
};
