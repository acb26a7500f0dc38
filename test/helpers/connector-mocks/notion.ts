/**
 * A local Notion API (version 2022-06-28) holding pages, blocks and databases in memory: GET /v1/pages/:id,
 * GET /v1/blocks/:id/children (start_cursor, page_size), GET /v1/databases/:id and POST /v1/databases/:id/query
 * (`{start_cursor, page_size}`), each paginated as `{object: "list", results, next_cursor, has_more, type, …}`.
 *
 * Shapes taken from: developers.notion.com/reference (block object with `has_children`, `archived`, `in_trash` and
 * the type-named content `{rich_text, color}`; `table_row.cells`; `child_page.title`; page object `properties` with
 * `title` and `rich_text`; rich text objects `{type, text: {content, link}, annotations, plain_text, href}` and
 * mentions; the database object's `title`); /reference/get-block-children and /reference/intro#pagination (100 at
 * most, fewer possible, `next_cursor`/`has_more`); /reference/status-codes (error body `{object: "error", status, code,
 * message}`: 401 unauthorized, 400 missing_version, 404 object_not_found, 429 rate_limited with Retry-After);
 * /reference/webhooks and /reference/webhooks-events-delivery (event fields `id, timestamp, workspace_id,
 * subscription_id, integration_id, type, authors, attempt_number, entity {id, type}, data {parent, updated_blocks}`,
 * the unsigned `{verification_token}` handshake, `X-Notion-Signature: sha256=<hex>` HMAC-SHA256 of the body keyed with
 * the verification token, as also in hookdeck/webhook-skills and the notionrs_webhooks crate).
 *
 * Guesses: the exact wording of `message` for 401 and 404 (taken from what clients quote: "API token is invalid.",
 * "Could not find block with ID: … Make sure the relevant pages and databases are shared with your integration."), the
 * cursor values (Notion's are opaque; these are the next block's id), the `api_version` field of events, and that
 * `data.parent` of a page.content_updated names the page's own parent.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface NotionRequest extends MockRequest {
  authorization: string | undefined;
  version: string | undefined;
}

export interface Annotations {
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  underline?: boolean;
  code?: boolean;
}

/** A run as a test writes it: text, its annotations, a link; or a page mention. */
export type Run = string | { text: string; link?: string; mention?: 'page' | 'user' } & Annotations;

export interface MockBlock {
  id: string;
  type: string;
  /** The type's content: `{rich_text}`, `{cells}` (table_row), `{title}` (child_page), … */
  content: Record<string, unknown>;
  children: string[];
  archived?: boolean;
}

interface MockPage {
  id: string;
  parent: { type: 'page_id'; page_id: string } | { type: 'database_id'; database_id: string } | { type: 'workspace'; workspace: true };
  /** Property name → its type and runs (`title`, `rich_text`) or a value of another type; `id` is Notion's property id, kept through a rename. */
  properties: Record<string, ({ type: 'title' | 'rich_text'; runs: Run[] } | { type: 'select' | 'number'; value: unknown }) & { id?: string }>;
  /** The page's blocks, in order. */
  children: string[];
  shared: boolean;
}

interface MockDatabase {
  id: string;
  title: Run[];
  rows: string[];
  shared: boolean;
}

export interface NotionMock extends RecordingServer<NotionRequest> {
  token: string;
  /** The page holding the SEED strings (title, callout, paragraphs). */
  seedPageId: string;
  /** The handbook page: headings, nested toggles and lists, a table, formatting, child pages two levels deep. */
  handbookId: string;
  onboardingId: string;
  archiveId: string;
  glossaryId: string;
  /** A page that exists but is not shared with the integration (Notion answers 404 as for a missing one). */
  privateId: string;
  /** Lists answer at most this many results (Notion may answer fewer than page_size); default 100. */
  setMaxPageSize(size: number): void;
  rateLimitNext(count?: number): void;
  block(id: string): MockBlock | undefined;
  /** A person edits a block's text (one plain run, or the runs given). */
  setBlockText(id: string, runs: Run[]): void;
  setPageTitle(id: string, runs: Run[]): void;
  /** Someone renames a database's column: every row's property keeps its id and place under the new name. */
  renameProperty(databaseId: string, from: string, to: string): void;
  /** The block holding a SEED string's text, or `<page id>/title` for the seed page's title. */
  seedKey(id: string): string;
  /** Strings the seed page holds by the connector's rules (non-empty title and text blocks). */
  seedCount(): number;
  /** A signed event as Notion posts it. */
  event(secret: string, type: string, entity: { id: string; type: 'page' | 'block' | 'database' }, parent?: { id: string; type: string }): { headers: Record<string, string>; body: string };
  /** The unsigned first post of a new subscription. */
  handshake(token: string): { headers: Record<string, string>; body: string };
}

const TOKEN = 'ntn_4718293055aQ2bW8cE5dR1fT7gY3hU9jI0kO6lP2zX';
const VERSION = '2022-06-28';
const WORKSPACE = 'f2c9a3e1-5b7d-4c8e-9a1f-3d5e7b9c1a2f';
const uuid = (n: number, prefix = '0000') => `${prefix.padStart(8, '0')}-1111-4222-8333-${String(n).padStart(12, '0')}`;

const SEED_PAGE = uuid(1, 'a1');
const HANDBOOK = uuid(2, 'b2');
const ONBOARDING = uuid(3, 'b3');
const ARCHIVE = uuid(4, 'b4');
const GLOSSARY = uuid(5, 'c5');
const PRIVATE = uuid(6, 'd6');
const INLINE_DB = uuid(7, 'e7');
const EDITED = '2026-11-02T09:00:00.000Z';

function richText(run: Run): Record<string, unknown> {
  const r = typeof run === 'string' ? { text: run } : run;
  const annotations = { bold: r.bold === true, italic: r.italic === true, strikethrough: r.strikethrough === true, underline: r.underline === true, code: r.code === true, color: 'default' };
  if (r.mention === 'page') return { type: 'mention', mention: { type: 'page', page: { id: ONBOARDING } }, annotations, plain_text: r.text, href: `https://www.notion.so/${ONBOARDING.replaceAll('-', '')}` };
  if (r.mention === 'user') return { type: 'mention', mention: { type: 'user', user: { object: 'user', id: uuid(99, 'ee') } }, annotations, plain_text: r.text, href: null };
  return { type: 'text', text: { content: r.text, link: r.link ? { url: r.link } : null }, annotations, plain_text: r.text, href: r.link ?? null };
}

const plainOf = (runs: Run[]) => runs.map((run) => (typeof run === 'string' ? run : run.text)).join('');

export async function startNotionMock(): Promise<NotionMock> {
  const blocks = new Map<string, MockBlock>();
  const pages = new Map<string, MockPage>();
  const databases = new Map<string, MockDatabase>();
  const parents = new Map<string, string>();
  let blockCounter = 100;
  let maxPageSize = 100;
  const rateLimited = new Armed<true>();

  /** Adds a block under `parent` and returns its id; `kids` become its children. */
  function add(parent: string, type: string, content: Record<string, unknown>, kids: ((id: string) => void) | undefined = undefined, extra: Partial<MockBlock> = {}): string {
    const id = extra.id ?? uuid(blockCounter++, 'bb');
    blocks.set(id, { id, type, content, children: [], ...extra });
    parents.set(id, parent);
    (blocks.get(parent)?.children ?? pages.get(parent)!.children).push(id);
    kids?.(id);
    return id;
  }
  const text = (parent: string, type: string, runs: Run[], kids?: (id: string) => void, extra: Record<string, unknown> = {}) =>
    add(parent, type, { rich_text: runs.map(richText), color: 'default', ...extra }, kids);
  function page(id: string, parent: MockPage['parent'], title: Run[], shared = true): void {
    pages.set(id, { id, parent, properties: { title: { type: 'title', runs: title } }, children: [], shared });
  }
  function childPage(parent: string, id: string, title: string): void {
    page(id, { type: 'page_id', page_id: parent }, [title]);
    add(parent, 'child_page', { title }, undefined, { id });
  }

  // The seed page: the four SEED strings, and blocks that are no strings.
  const [welcome, cart, checkout, farewell] = SEED.map((s) => s.source) as [string, string, string, string];
  page(SEED_PAGE, { type: 'workspace', workspace: true }, [welcome]);
  const seedBlocks: Record<string, string> = { welcome: `${SEED_PAGE}/title` };
  seedBlocks.cart = text(SEED_PAGE, 'callout', [cart], undefined, { icon: { type: 'emoji', emoji: '🛒' } });
  text(SEED_PAGE, 'paragraph', []);
  add(SEED_PAGE, 'divider', {});
  seedBlocks.checkout = text(SEED_PAGE, 'paragraph', [checkout]);
  add(SEED_PAGE, 'image', { type: 'external', external: { url: 'https://images.example.com/cart.png' }, caption: [] });
  seedBlocks.farewell = text(SEED_PAGE, 'quote', [farewell]);

  // The handbook: two levels of child pages, nesting, formatting, a table, and what is not read.
  page(HANDBOOK, { type: 'workspace', workspace: true }, [{ text: 'Team', bold: true }, ' handbook']);
  text(HANDBOOK, 'paragraph', ['Read this ', { text: 'first', bold: true }, ', then ', { text: 'ask', italic: true }, ' in ', { text: '#help', code: true }, '. See ', { text: 'the guide', link: 'https://example.com/guide?a=1&b=2' }, '.']);
  text(HANDBOOK, 'heading_1', ['Getting started']);
  text(HANDBOOK, 'bulleted_list_item', ['Set up ', { text: 'your', bold: true }, { text: ' laptop', bold: true }], (item) => {
    text(item, 'numbered_list_item', ['Install the VPN'], (step) => {
      text(step, 'paragraph', ['Ask IT for the key']);
    });
  });
  text(HANDBOOK, 'to_do', ['Sign the <b>contract</b> & the NDA &amp; more'], undefined, { checked: false });
  text(HANDBOOK, 'heading_2', ['FAQ'], undefined, { is_toggleable: true });
  text(HANDBOOK, 'toggle', ['Who do I ask?'], (toggle) => {
    text(toggle, 'paragraph', ['Your ', { text: 'buddy', mention: 'user' }, ', or read ', { text: 'Onboarding', mention: 'page' }]);
  });
  add(HANDBOOK, 'table', { table_width: 2, has_column_header: true, has_row_header: false }, (table) => {
    add(table, 'table_row', { cells: [['Tool'].map(richText), ['Purpose'].map(richText)] });
    add(table, 'table_row', { cells: [['Slack'].map(richText), [{ text: 'Chat', italic: true }].map(richText)] });
    add(table, 'table_row', { cells: [[], []] });
  });
  blocks.get(text(HANDBOOK, 'paragraph', ['An old paragraph']))!.archived = true;
  add(HANDBOOK, 'child_database', { title: 'Inline tasks' }, undefined, { id: INLINE_DB });
  childPage(HANDBOOK, ONBOARDING, 'Onboarding');
  text(ONBOARDING, 'heading_2', ['Week one']);
  text(ONBOARDING, 'paragraph', ['Meet the team']);
  // A synced block and a copy of it: Notion answers the original's children for either.
  const original = add(ONBOARDING, 'synced_block', { synced_from: null }, (synced) => text(synced, 'paragraph', ['Shared footer']));
  const copy = add(ONBOARDING, 'synced_block', { synced_from: { type: 'block_id', block_id: original } });
  blocks.get(copy)!.children = blocks.get(original)!.children;
  childPage(ONBOARDING, ARCHIVE, 'Archive');
  text(ARCHIVE, 'paragraph', ['Old onboarding notes']);

  // The glossary database: title and rich_text properties are strings; select and number are not.
  databases.set(GLOSSARY, { id: GLOSSARY, title: ['Glossary'], rows: [], shared: true });
  const row = (n: number, term: string, definition: Run[], status: string) => {
    const id = uuid(n, 'c6');
    pages.set(id, {
      id,
      parent: { type: 'database_id', database_id: GLOSSARY },
      properties: {
        Term: { id: 'title', type: 'title', runs: [term] },
        Definition: { id: '%3AUPp', type: 'rich_text', runs: definition },
        Status: { id: 'xZ%5Bs', type: 'select', value: { id: 'st1', name: status, color: 'green' } },
        Uses: { id: 'n%3Ek1', type: 'number', value: n },
      },
      children: [],
      shared: true,
    });
    databases.get(GLOSSARY)!.rows.push(id);
  };
  row(1, 'Cart', ['The list of items a customer ', { text: 'intends', italic: true }, ' to buy'], 'Approved');
  row(2, 'Checkout', ['Where the order is paid'], 'Draft');
  row(3, 'SKU', [], 'Approved');

  page(PRIVATE, { type: 'workspace', workspace: true }, ['Salaries'], false);
  text(PRIVATE, 'paragraph', ['Confidential']);

  /** A shared page's id, or undefined (Notion answers the same 404 for missing and unshared). */
  const visiblePage = (id: string) => {
    let cursor: string | undefined = id;
    while (cursor && !pages.has(cursor)) cursor = parents.get(cursor);
    return cursor && pages.get(cursor)!.shared ? cursor : undefined;
  };
  const normalized = (raw: string) => {
    const hex = raw.replaceAll('-', '').toLowerCase();
    return /^[0-9a-f]{32}$/.test(hex) ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : undefined;
  };

  function blockJson(block: MockBlock): Record<string, unknown> {
    const parentId = parents.get(block.id)!;
    return {
      object: 'block',
      id: block.id,
      parent: pages.has(parentId) ? { type: 'page_id', page_id: parentId } : { type: 'block_id', block_id: parentId },
      created_time: EDITED,
      last_edited_time: EDITED,
      created_by: { object: 'user', id: uuid(99, 'ee') },
      last_edited_by: { object: 'user', id: uuid(99, 'ee') },
      has_children: block.children.some((child) => !blocks.get(child)?.archived) || block.type === 'child_page',
      archived: block.archived === true,
      in_trash: block.archived === true,
      type: block.type,
      [block.type]: block.content,
    };
  }

  function pageJson(p: MockPage): Record<string, unknown> {
    const properties = Object.fromEntries(
      Object.entries(p.properties).map(([name, value], index) => [
        name,
        'runs' in value ? { id: value.id ?? (value.type === 'title' ? 'title' : `p${index}`), type: value.type, [value.type]: value.runs.map(richText) } : { id: value.id ?? `p${index}`, type: value.type, [value.type]: value.value },
      ]),
    );
    return { object: 'page', id: p.id, created_time: EDITED, last_edited_time: EDITED, archived: false, in_trash: false, icon: null, cover: null, parent: p.parent, properties, url: `https://www.notion.so/${p.id.replaceAll('-', '')}`, public_url: null };
  }

  function paginate<T>(items: T[], idOf: (item: T) => string, cursor: string | undefined, pageSize: number): { results: T[]; next_cursor: string | null; has_more: boolean } | undefined {
    const start = cursor ? items.findIndex((item) => idOf(item) === cursor) : 0;
    if (start < 0) return undefined;
    const size = Math.min(pageSize, maxPageSize);
    const results = items.slice(start, start + size);
    const next = items[start + size];
    return { results, next_cursor: next ? idOf(next) : null, has_more: next !== undefined };
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => sendJson(res, status, value, { 'x-request-id': randomUUID(), ...headers });
    const error = (status: number, code: string, message: string, headers: Record<string, string> = {}) => send(status, { object: 'error', status, code, message, request_id: randomUUID() }, headers);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return error(401, 'unauthorized', 'API token is invalid.');
    if (req.headers['notion-version'] === undefined) return error(400, 'missing_version', 'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.');
    if (rateLimited.take()) return error(429, 'rate_limited', 'You have been rate limited. Please try again in a few minutes.', { 'retry-after': '1' });
    const pageSize = Number(url.searchParams.get('page_size') ?? (body as { page_size?: number } | undefined)?.page_size ?? 100);
    if (!(pageSize >= 1 && pageSize <= 100)) return error(400, 'validation_error', `body failed validation: page_size should be ≤ 100 and ≥ 1, instead was \`${pageSize}\`.`);
    let m = /^\/v1\/blocks\/([^/]+)\/children$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const id = normalized(m[1]!);
      const holder = id ? (blocks.get(id) ?? pages.get(id)) : undefined;
      if (!id || !holder || !visiblePage(id)) return error(404, 'object_not_found', `Could not find block with ID: ${m[1]}. Make sure the relevant pages and databases are shared with your integration.`);
      const list = paginate(holder.children.map((child) => blocks.get(child)!), (b) => b.id, url.searchParams.get('start_cursor') ?? undefined, pageSize);
      if (!list) return error(400, 'validation_error', 'body failed validation: start_cursor should be a valid cursor.');
      return send(200, { object: 'list', results: list.results.map(blockJson), next_cursor: list.next_cursor, has_more: list.has_more, type: 'block', block: {}, request_id: randomUUID() });
    }
    m = /^\/v1\/pages\/([^/]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const id = normalized(m[1]!);
      const found = id ? pages.get(id) : undefined;
      if (!found || !found.shared) return error(404, 'object_not_found', `Could not find page with ID: ${m[1]}. Make sure the relevant pages and databases are shared with your integration.`);
      return send(200, { ...pageJson(found), request_id: randomUUID() });
    }
    m = /^\/v1\/databases\/([^/]+)(\/query)?$/.exec(url.pathname);
    if (m && (m[2] ? req.method === 'POST' : req.method === 'GET')) {
      const id = normalized(m[1]!);
      const found = id ? databases.get(id) : undefined;
      if (!found || !found.shared) return error(404, 'object_not_found', `Could not find database with ID: ${m[1]}. Make sure the relevant pages and databases are shared with your integration.`);
      if (!m[2]) return send(200, { object: 'database', id: found.id, title: found.title.map(richText), description: [], is_inline: false, properties: {}, parent: { type: 'workspace', workspace: true }, url: `https://www.notion.so/${found.id.replaceAll('-', '')}`, archived: false, in_trash: false });
      const list = paginate(found.rows.map((row) => pages.get(row)!), (p) => p.id, (body as { start_cursor?: string } | undefined)?.start_cursor, pageSize);
      if (!list) return error(400, 'validation_error', 'body failed validation: body.start_cursor should be a valid cursor.');
      return send(200, { object: 'list', results: list.results.map(pageJson), next_cursor: list.next_cursor, has_more: list.has_more, type: 'page_or_database', page_or_database: {}, request_id: randomUUID() });
    }
    return error(400, 'invalid_request_url', 'Invalid request URL.');
  }

  const server = await serveRecording(handle, { extra: (req) => ({ authorization: req.headers.authorization, version: req.headers['notion-version'] as string | undefined }) });
  const blockOf = (id: string) => {
    const found = blocks.get(id);
    if (!found) throw new Error(`Notion mock: no block ${id}`);
    return found;
  };
  const countStrings = (holder: { children: string[] }): number =>
    holder.children.reduce((n, id) => {
      const b = blocks.get(id)!;
      const runs = (b.content.rich_text as { plain_text: string }[] | undefined) ?? [];
      return n + (b.archived ? 0 : (runs.map((r) => r.plain_text).join('').trim() === '' ? 0 : 1) + countStrings(b));
    }, 0);

  return {
    ...server,
    token: TOKEN,
    seedPageId: SEED_PAGE,
    handbookId: HANDBOOK,
    onboardingId: ONBOARDING,
    archiveId: ARCHIVE,
    glossaryId: GLOSSARY,
    privateId: PRIVATE,
    setMaxPageSize(size) {
      maxPageSize = size;
    },
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    block: (id) => blocks.get(id),
    setBlockText(id, runs) {
      const block = blockOf(id);
      block.content = { ...block.content, rich_text: runs.map(richText) };
    },
    setPageTitle(id, runs) {
      const found = pages.get(id);
      if (!found) throw new Error(`Notion mock: no page ${id}`);
      found.properties.title = { type: 'title', runs };
      const asBlock = blocks.get(id);
      if (asBlock) asBlock.content = { title: plainOf(runs) };
    },
    renameProperty(databaseId, from, to) {
      const database = databases.get(databaseId);
      if (!database) throw new Error(`Notion mock: no database ${databaseId}`);
      for (const rowId of database.rows) {
        const found = pages.get(rowId)!;
        found.properties = Object.fromEntries(Object.entries(found.properties).map(([name, value]) => [name === from ? to : name, value]));
      }
    },
    seedKey(id) {
      const key = seedBlocks[id];
      if (!key) throw new Error(`Notion mock: no seed string '${id}'`);
      return key;
    },
    seedCount() {
      const seed = pages.get(SEED_PAGE)!;
      const title = seed.properties.title;
      return (title && 'runs' in title && plainOf(title.runs).trim() !== '' ? 1 : 0) + countStrings(seed);
    },
    event(secret, type, entity, parent) {
      const body = JSON.stringify({
        id: randomUUID(),
        timestamp: new Date().toISOString(),
        workspace_id: WORKSPACE,
        workspace_name: 'Acme',
        subscription_id: uuid(11, 'ab'),
        integration_id: uuid(12, 'ab'),
        authors: [{ id: uuid(99, 'ee'), type: 'person' }],
        attempt_number: 1,
        api_version: VERSION,
        type,
        entity,
        data: { ...(parent ? { parent } : {}), ...(type === 'page.content_updated' ? { updated_blocks: [{ id: uuid(500, 'bb'), type: 'block' }] } : {}) },
      });
      const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      return { headers: { 'content-type': 'application/json', 'x-notion-signature': signature }, body };
    },
    handshake: (token) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ verification_token: token }) }),
  };
}

/** The acceptance scenario's view of the mock: the seed page's four strings. Notion holds no translations here: import only. */
export async function notionFixture(): Promise<RemoteFixture> {
  const mock = await startNotionMock();
  return cmsFixture({
    connector: 'notion',
    settings: { api_url: mock.url, pages: [mock.seedPageId] },
    secrets: { token: mock.token },
    badSecrets: { token: 'ntn_revoked00000000000000000000000000000000000' },
    edit(id, _locale, value) {
      const key = mock.seedKey(id);
      if (key.endsWith('/title')) mock.setPageTitle(mock.seedPageId, [value]);
      else mock.setBlockText(key, [value]);
    },
    sourceCount: () => mock.seedCount(),
    webhook: (id, secret) => {
      const key = mock.seedKey(id);
      return key.endsWith('/title') ? mock.event(secret, 'page.properties_updated', { id: mock.seedPageId, type: 'page' }, { id: WORKSPACE, type: 'workspace' }) : mock.event(secret, 'page.content_updated', { id: mock.seedPageId, type: 'page' }, { id: WORKSPACE, type: 'workspace' });
    },
    server: mock,
  });
}
