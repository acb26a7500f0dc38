/**
 * A local Google Docs API v1 holding documents in memory, behind Google's OAuth token endpoint (google-oauth.ts):
 * `GET /v1/documents/{id}` with `includeTabsContent` (true: `tabs[]` with `documentTab.body` and child tabs, no
 * `body`; false: the first tab's `body`, no `tabs`) and `suggestionsViewMode` (PREVIEW_WITHOUT_SUGGESTIONS leaves
 * suggested insertions out; any other mode keeps them, marked with `suggestedInsertionIds`). Every request needs a
 * token with the documents.readonly scope (or the full documents scope), and a document answers only accounts it is
 * shared with. People's edits (`setText`, `insertParagraph`) change the document and its `revisionId`.
 *
 * Shapes from developers.google.com/docs/api/reference/rest/v1/documents (Document {documentId, title, revisionId,
 * tabs, body, suggestionsViewMode}; Tab {tabProperties {tabId, title, index, parentTabId, nestingLevel}, childTabs,
 * documentTab {body}}; StructuralElement {startIndex, endIndex, sectionBreak | paragraph | table | tableOfContents};
 * Paragraph {elements, paragraphStyle {namedStyleType, headingId, direction}, bullet {listId}}; ParagraphElement
 * {startIndex, endIndex, textRun {content, textStyle {bold, italic, link {url}}, suggestedInsertionIds} | person
 * {personId, personProperties {name, email}}}; Table {rows, columns, tableRows [{startIndex, endIndex, tableCells
 * [{startIndex, endIndex, content}]}]}), …/documents/get (includeTabsContent, suggestionsViewMode),
 * developers.google.com/docs/api/how-tos/tabs (the first tab's id `t.0`), heading ids `h.` + 12 characters as
 * published examples show them, and Google's error envelope `{ error: { code, message, status } }`: 404 NOT_FOUND
 * "Requested entity was not found.", 403 PERMISSION_DENIED "The caller does not have permission".
 *
 * Guessed: the index arithmetic of tables (one index each for the table, a row and a cell before the cell's first
 * paragraph) and of chips (one index each); that TITLE and SUBTITLE paragraphs carry no headingId (the connector copes
 * either way); the ids of tabs other than the first; the exact message of a 403 for a document not shared with the
 * caller; that a person chip's text is its name.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { googleTokenEndpoint, makeServiceAccount, type ServiceAccountFile } from './google-oauth.js';
import { sendJson, serveOnLoopback } from './loopback.js';

const SCOPES = ['https://www.googleapis.com/auth/documents.readonly', 'https://www.googleapis.com/auth/documents'];
export const STORE_DOC = '1StrCpyDocsMockDocument000000000000000000000';
export const GUIDE_DOC = '1TrvlGuideDocsMockDocument0000000000000000000';

/** A run of a paragraph: text (with styles), or a smart chip. */
export type MockRun =
  | { text: string; bold?: boolean; italic?: boolean; url?: string; suggested?: boolean }
  | { person: { name: string; email: string } };

export interface MockParagraph {
  kind: 'paragraph';
  /** The test's handle on the paragraph (never sent). */
  id?: string;
  style?: string;
  headingId?: string;
  bullet?: boolean;
  runs: MockRun[];
}
export type MockElement = MockParagraph | { kind: 'table'; rows: MockParagraph[][][] } | { kind: 'toc'; of: string[] };

export interface MockTab {
  tabId: string;
  title: string;
  content: MockElement[];
  childTabs: MockTab[];
}

export interface MockDocument {
  title: string;
  revision: number;
  tabs: MockTab[];
  /** The accounts (client_email) the document is shared with. */
  sharedWith: Set<string>;
}

export interface DocsRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  email: string | undefined;
  status: number;
}

export interface DocsMock {
  url: string;
  account: ServiceAccountFile;
  /** A key file of an account Google does not know. */
  stranger: ServiceAccountFile;
  /** An access token (as `access_token`) of the account, good for an hour. */
  accessToken: string;
  requests: DocsRequest[];
  documents: Map<string, MockDocument>;
  /** The paragraph a test calls `id`. */
  paragraph(doc: string, id: string): MockParagraph;
  /** A person retypes a paragraph (its runs become one plain run). */
  setText(doc: string, id: string, text: string): void;
  /** A person inserts a paragraph before the one called `before`. */
  insertParagraph(doc: string, before: string, paragraph: MockParagraph): void;
  /** A person removes a paragraph. */
  removeParagraph(doc: string, id: string): void;
  /** The notification Drive posts on a files.watch channel created with `token`. */
  notification(token: string, doc: string, state?: string, changed?: string): { headers: Record<string, string>; body: string };
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const googleError = (res: ServerResponse, code: number, status: string, message: string) => sendJson(res, code, { error: { code, message, status } });

export const para = (runs: MockRun[] | string, options: Omit<MockParagraph, 'kind' | 'runs'> = {}): MockParagraph => ({ kind: 'paragraph', runs: typeof runs === 'string' ? [{ text: runs }] : runs, ...options });
export const heading = (style: string, text: string, headingId: string | undefined, id?: string): MockParagraph => para(text, { style, ...(headingId ? { headingId } : {}), ...(id ? { id } : {}) });

/** The document the acceptance scenario uses: a heading, a styled paragraph, a list item with a link, a table cell. */
function storeDocument(email: string): MockDocument {
  const [welcome, cart, checkout, farewell] = SEED;
  return {
    title: 'Store copy',
    revision: 1,
    sharedWith: new Set([email]),
    tabs: [
      {
        tabId: 't.0',
        title: 'Tab 1',
        childTabs: [],
        content: [
          heading('HEADING_1', welcome!.source, 'h.7wq2k3n9d1xa', welcome!.id),
          para([{ text: 'Your cart', bold: true }, { text: cart!.source.slice('Your cart'.length) }], { id: cart!.id }),
          para(''),
          para([{ text: checkout!.source, url: 'https://store.example/checkout' }], { id: checkout!.id, bullet: true }),
          { kind: 'table', rows: [[[para(farewell!.source, { id: farewell!.id })]]] },
        ],
      },
    ],
  };
}

/** A document with tabs, a child tab, a title, a table of contents, a suggestion, chips, links and a table. */
function guideDocument(email: string): MockDocument {
  return {
    title: 'Travel guide',
    revision: 1,
    sharedWith: new Set([email]),
    tabs: [
      {
        tabId: 't.0',
        title: 'Guide',
        content: [
          heading('TITLE', 'Travel guide', undefined, 'title'),
          heading('SUBTITLE', 'Spring edition', undefined, 'subtitle'),
          { kind: 'toc', of: ['Getting there', 'By train', 'Staying'] },
          para([{ text: 'Plan ahead.' }, { text: ' Book early.', suggested: true }], { id: 'plan' }),
          heading('HEADING_1', 'Getting there', 'h.a1b2c3d4e5f6', 'getting'),
          para('By train\u000bor by car.', { id: 'modes' }),
          para('   '),
          heading('HEADING_2', 'By train', 'h.g7h8i9j0k1l2', 'train'),
          para([{ text: 'Trains leave hourly from ' }, { text: 'the central station', url: 'https://rail.example/central' }, { text: '.', italic: true }], { id: 'trains' }),
          para([{ text: 'Ask ' }, { person: { name: 'Ana Lima', email: 'ana@travel.example' } }, { text: ' for tickets.' }], { id: 'ask' }),
          {
            kind: 'table',
            rows: [
              [[heading('HEADING_3', 'Day', 'h.tablecell001', 'day')], [para('Price')]],
              [[para('Monday')], [para('12 €'), para('')]],
            ],
          },
          heading('HEADING_1', 'Staying', 'h.m3n4o5p6q7r8', 'staying'),
          para('Hotels fill up in May.', { id: 'hotels', bullet: true }),
        ],
        childTabs: [{ tabId: 't.k2c8x1p0aq3z', title: 'FAQ', childTabs: [], content: [heading('HEADING_1', 'Questions', 'h.s9t0u1v2w3x4'), para('Is breakfast included?', { id: 'breakfast' })] }],
      },
      { tabId: 't.9d3fm2hs7e1b', title: 'Legal', childTabs: [], content: [para('All prices include VAT.', { id: 'vat' })] },
    ],
  };
}

/** The JSON of a tab's body, with the indexes Docs gives (a section break first, UTF-16 lengths). */
function renderBody(content: MockElement[], withSuggestions: boolean): { content: unknown[] } {
  let index = 1;
  const paragraph = (p: MockParagraph) => {
    const start = index;
    const runs = p.runs.filter((run) => withSuggestions || !('text' in run && run.suggested));
    const elements = runs.map((run, i) => {
      const from = index;
      const last = i === runs.length - 1;
      if ('person' in run) {
        index += 1;
        return { startIndex: from, endIndex: index, person: { personId: `kix.${run.person.email.length}p`, personProperties: run.person } };
      }
      const text = run.text + (last ? '\n' : '');
      index += text.length;
      const textStyle = { ...(run.bold ? { bold: true } : {}), ...(run.italic ? { italic: true } : {}), ...(run.url ? { link: { url: run.url }, underline: true } : {}) };
      return { startIndex: from, endIndex: index, textRun: { content: text, textStyle, ...(run.suggested ? { suggestedInsertionIds: ['suggest.x1y2z3'] } : {}) } };
    });
    if (runs.length === 0 || 'person' in runs.at(-1)!) {
      elements.push({ startIndex: index, endIndex: index + 1, textRun: { content: '\n', textStyle: {} } });
      index += 1;
    }
    const style = { namedStyleType: p.style ?? 'NORMAL_TEXT', direction: 'LEFT_TO_RIGHT', ...(p.headingId ? { headingId: p.headingId } : {}) };
    return { startIndex: start, endIndex: index, paragraph: { elements, paragraphStyle: style, ...(p.bullet ? { bullet: { listId: 'kix.list001', textStyle: {} } } : {}) } };
  };
  const element = (e: MockElement): unknown => {
    if (e.kind === 'paragraph') return paragraph(e);
    const start = index++;
    if (e.kind === 'toc') {
      const inner = e.of.map((text) => paragraph(para(text)));
      return { startIndex: start, endIndex: index, tableOfContents: { content: inner } };
    }
    const tableRows = e.rows.map((row) => {
      const rowStart = index++;
      const tableCells = row.map((cell) => {
        const cellStart = index++;
        return { startIndex: cellStart, content: cell.map(paragraph), endIndex: index };
      });
      return { startIndex: rowStart, endIndex: index, tableCells };
    });
    return { startIndex: start, endIndex: index, table: { rows: e.rows.length, columns: e.rows[0]?.length ?? 0, tableRows } };
  };
  return { content: [{ endIndex: 1, sectionBreak: { sectionStyle: { columnSeparatorStyle: 'NONE', contentDirection: 'LEFT_TO_RIGHT' } } }, ...content.map(element)] };
}

function renderTab(tab: MockTab, index: number, withSuggestions: boolean, parent?: MockTab, level = 0): unknown {
  return {
    tabProperties: { tabId: tab.tabId, title: tab.title, index, ...(parent ? { parentTabId: parent.tabId, nestingLevel: level } : {}) },
    childTabs: tab.childTabs.map((child, i) => renderTab(child, i, withSuggestions, tab, level + 1)),
    documentTab: { body: renderBody(tab.content, withSuggestions) },
  };
}

/** Every paragraph of a list of elements, table cells included, with the list holding it. */
function* paragraphsIn(content: MockElement[]): Generator<{ paragraph: MockParagraph; list: MockElement[] }> {
  for (const element of content) {
    if (element.kind === 'paragraph') yield { paragraph: element, list: content };
    else if (element.kind === 'table') for (const row of element.rows) for (const cell of row) yield* paragraphsIn(cell);
  }
}
function* tabsIn(tabs: MockTab[]): Generator<MockTab> {
  for (const tab of tabs) {
    yield tab;
    yield* tabsIn(tab.childTabs);
  }
}

export async function startDocsMock(): Promise<DocsMock> {
  const requests: DocsRequest[] = [];
  const documents = new Map<string, MockDocument>();

  function handle(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (endpoint.handle(req, res, url, body.toString('utf8'))) return;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const email = token ? endpoint.issued.get(token)?.email : undefined;
    const record: DocsRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, email, status: 0 };
    requests.push(record);
    res.on('finish', () => (record.status = res.statusCode));
    const scope = token ? SCOPES.find((s) => endpoint.issued.get(token)?.scopes.includes(s)) : undefined;
    if (endpoint.refuse(req, res, scope ?? SCOPES[0]!)) return;
    const match = /^\/v1\/documents\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const id = decodeURIComponent(match[1]!);
    const doc = documents.get(id);
    if (!doc) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    if (!email || !doc.sharedWith.has(email)) return googleError(res, 403, 'PERMISSION_DENIED', 'The caller does not have permission');
    const mode = url.searchParams.get('suggestionsViewMode') ?? 'DEFAULT_FOR_CURRENT_ACCESS';
    const withSuggestions = mode !== 'PREVIEW_WITHOUT_SUGGESTIONS';
    const head = { title: doc.title, revisionId: `ALm37BVt${doc.revision}xQ`, suggestionsViewMode: mode, documentId: id };
    if (url.searchParams.get('includeTabsContent') === 'true') return sendJson(res, 200, { ...head, tabs: doc.tabs.map((tab, i) => renderTab(tab, i, withSuggestions)) });
    return sendJson(res, 200, { ...head, body: renderBody(doc.tabs[0]!.content, withSuggestions) });
  }

  const server = await serveOnLoopback(handle);
  const tokenUri = `${server.url}/token`;
  const account = makeServiceAccount(tokenUri);
  const endpoint = googleTokenEndpoint(tokenUri, [account]);
  const stranger = makeServiceAccount(tokenUri, 'stranger').file;
  const accessToken = 'ya29.a0AfB_byStaticDocsMockToken';
  endpoint.issued.set(accessToken, { email: account.file.client_email, scopes: [SCOPES[0]!], expiresAt: Date.now() + 3600_000 });
  documents.set(STORE_DOC, storeDocument(account.file.client_email));
  documents.set(GUIDE_DOC, guideDocument(account.file.client_email));

  const find = (doc: string, id: string) => {
    const document = documents.get(doc);
    for (const tab of tabsIn(document?.tabs ?? [])) for (const found of paragraphsIn(tab.content)) if (found.paragraph.id === id) return { ...found, document: document! };
    throw new Error(`No paragraph '${id}' in the mock's document ${doc}`);
  };
  return {
    url: server.url,
    account: account.file,
    stranger,
    accessToken,
    requests,
    documents,
    paragraph: (doc, id) => find(doc, id).paragraph,
    setText(doc, id, text) {
      const { paragraph, document } = find(doc, id);
      paragraph.runs = [{ text }];
      document.revision++;
    },
    insertParagraph(doc, before, inserted) {
      const { paragraph, list, document } = find(doc, before);
      list.splice(list.indexOf(paragraph), 0, inserted);
      document.revision++;
    },
    removeParagraph(doc, id) {
      const { paragraph, list, document } = find(doc, id);
      list.splice(list.indexOf(paragraph), 1);
      document.revision++;
    },
    notification(token, doc, state = 'update', changed = 'content') {
      return {
        headers: {
          'x-goog-channel-id': '4ba78bf0-6a47-11e2-bcfd-0800200c9a66',
          'x-goog-channel-token': token,
          'x-goog-channel-expiration': new Date(Date.now() + 86_400_000).toUTCString(),
          'x-goog-resource-id': 'ret08u3rv24htgh289g',
          'x-goog-resource-uri': `https://www.googleapis.com/drive/v3/files/${doc}?acknowledgeAbuse=false&supportsAllDrives=false&alt=json`,
          'x-goog-resource-state': state,
          'x-goog-message-number': '10',
          ...(state === 'update' && changed ? { 'x-goog-changed': changed } : {}),
        },
        body: '',
      };
    },
    stop: server.stop,
    start: server.start,
    close: server.close,
  };
}

/** The acceptance scenario's view of the mock: the store document, read-only (Docs holds no translations). */
export async function docsFixture(): Promise<RemoteFixture> {
  const mock = await startDocsMock();
  return {
    connector: 'google_docs',
    settings: { api_url: mock.url, document_ids: [STORE_DOC] },
    secrets: { service_account: mock.account },
    badSecrets: { service_account: mock.stranger },
    async setSource(id, text) {
      mock.setText(STORE_DOC, id, text);
    },
    translation: async () => undefined,
    async sourceCount() {
      let count = 0;
      for (const tab of tabsIn(mock.documents.get(STORE_DOC)!.tabs)) for (const { paragraph } of paragraphsIn(tab.content)) if (paragraph.runs.some((run) => 'person' in run || run.text.trim() !== '')) count++;
      return count;
    },
    webhook: (secret) => mock.notification(secret, STORE_DOC),
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
