/**
 * A local Confluence Cloud REST API v2 holding one space's pages in memory: GET /wiki/api/v2/spaces?keys=,
 * GET /wiki/api/v2/spaces/{id}/pages (body-format=storage, status, limit, opaque cursor, `_links.next` and the
 * `Link: <…>; rel="next"` header) and GET /wiki/api/v2/pages/{id}/labels, behind Basic authentication (email:API token).
 *
 * Shapes taken from: the v2 reference at developer.atlassian.com/cloud/confluence/rest/v2 (Space, PageBulk with
 * `parentId`, `version.number`, `body.storage.{representation,value}`, MultiEntityResult `{results, _links.next}`,
 * Label `{id, name, prefix}`, the `depth`, `status`, `body-format`, `cursor` and `limit` parameters, 25 by default and
 * 250 at most), as generated into the TypeScript client of voidrot/md-flux (packages/confluence-client: PageApi.md,
 * getPagesInSpace, getLabelPages); the storage format's elements (`ac:structured-macro`, `ac:parameter`,
 * `ac:rich-text-body`, `ac:plain-text-body`, `ac:link` with `ri:page`, `ac:emoticon`) from Confluence's storage format
 * documentation. Guesses: the exact error bodies (v2's `{"errors":[{status, code, title, detail}]}` envelope is
 * documented, the titles used here are not confirmed: "Unauthorized" for a refused token, the 400's wording for a bad
 * cursor), the cursor's encoding (opaque in Confluence; base64 of an offset here), a `limit` above 250 being lowered to
 * 250 rather than refused, and the Retry-After header on 429 (Atlassian documents Retry-After for rate limits).
 * Confluence can answer fewer results than `limit`; `pageSize` makes this mock do so to exercise the cursor.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface ConfluenceRequest extends MockRequest {
  authorization: string | undefined;
}

export interface ConfluencePage {
  id: string;
  title: string;
  parentId: string | null;
  status: 'current' | 'archived' | 'trashed';
  version: number;
  labels: string[];
  storage: string;
}

export interface ConfluenceMockOptions {
  /** The most results one list answer holds, whatever `limit` asks (default 250, the API's maximum). */
  pageSize?: number;
  /** An origin the `next` links are made absolute on (a misbehaving proxy): the connector must not follow them. */
  nextOrigin?: string;
}

export interface ConfluenceMock extends RecordingServer<ConfluenceRequest> {
  email: string;
  apiToken: string;
  spaceKey: string;
  spaceId: string;
  /** The page holding the SEED strings (heading, paragraph, list item, table cell) and its child page. */
  storePageId: string;
  shippingPageId: string;
  internalPageId: string;
  homePageId: string;
  page(id: string): ConfluencePage;
  /** A person edits a page in Confluence: its storage body, and its version goes up. */
  setStorage(id: string, storage: string): void;
  addPage(page: Omit<ConfluencePage, 'version' | 'status' | 'labels'> & Partial<ConfluencePage>): void;
  /** A person changes a SEED string's text on the store page. */
  setSeed(id: string, text: string): void;
  seedText(id: string): string;
  /** The next `count` requests answer 429 as Atlassian's rate limiting does. */
  rateLimitNext(count?: number): void;
}

const EMAIL = 'localization@acme.example';
const API_TOKEN = 'ATATT3xFfGF0q7Lm2vXc9RkT4pW8sNb1YdJ6hQz0';
const SPACE = { id: '98306', key: 'DOCS', name: 'Customer docs' };
const SITE = 'https://acme.atlassian.net/wiki';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The store page as the editor writes it: each SEED string in a different kind of block, with macros around them. */
function storeStorage(texts: Map<string, string>): string {
  const [welcome, cart, checkout, farewell] = SEED.map((s) => escape(texts.get(s.id)!));
  return [
    '<ac:structured-macro ac:name="toc" ac:schema-version="1" data-layout="default" ac:macro-id="2c1f7f4e"><ac:parameter ac:name="maxLevel">2</ac:parameter></ac:structured-macro>',
    `<h2>${welcome}</h2>`,
    `<p>${cart}</p>`,
    `<ul><li><p>${checkout}</p></li></ul>`,
    `<table data-table-width="760" data-layout="default"><tbody><tr><td><p>${farewell}</p></td></tr></tbody></table>`,
    '<ac:structured-macro ac:name="code" ac:schema-version="1"><ac:parameter ac:name="language">bash</ac:parameter><ac:plain-text-body><![CDATA[curl -s https://shop.example/cart &amp;&nbsp;exit]]></ac:plain-text-body></ac:structured-macro>',
  ].join('');
}

const SHIPPING = [
  '<h1>Shipping</h1>',
  '<p>Orders ship within <strong>two&nbsp;days</strong>. Read the <a href="https://shop.example/terms?a=1&amp;b=2">terms</a> or the <ac:link><ri:page ri:content-title="Returns" /><ac:plain-text-link-body><![CDATA[returns policy]]></ac:plain-text-link-body></ac:link>.</p>',
  '<ac:structured-macro ac:name="info" ac:schema-version="1"><ac:parameter ac:name="title">Heads up</ac:parameter><ac:rich-text-body><p>Holidays add a day &mdash; sorry!</p></ac:rich-text-body></ac:structured-macro>',
  '<h2>Costs</h2>',
  '<p>Status: <ac:structured-macro ac:name="status" ac:schema-version="1"><ac:parameter ac:name="colour">Green</ac:parameter><ac:parameter ac:name="title">Free</ac:parameter></ac:structured-macro> over 50&nbsp;&euro; <ac:emoticon ac:name="smile" ac:emoji-shortname=":slight_smile:" /></p>',
  '<ol><li>Standard<ul><li>Use <code>SHIP10</code> at checkout</li></ul></li></ol>',
  '<table><tbody><tr><th><p>Zone</p></th><th><p>Days</p></th></tr><tr><td><p>EU</p></td><td><p>2</p></td></tr></tbody></table>',
  '<p>   </p><p><br /></p>',
].join('');

/** Credentials as the mock checks them. */
const credentials = (req: IncomingMessage) => ({ authorization: req.headers.authorization });

export async function startConfluenceMock(options: ConfluenceMockOptions = {}): Promise<ConfluenceMock> {
  const texts = new Map(SEED.map((s) => [s.id, s.source]));
  const pages = new Map<string, ConfluencePage>();
  const add = (page: Omit<ConfluencePage, 'version' | 'status' | 'labels'> & Partial<ConfluencePage>) => pages.set(page.id, { version: 1, status: 'current', labels: [], ...page });
  add({ id: '65537', title: 'Customer docs Home', parentId: null, storage: '<p>Start here.</p>', version: 4 });
  add({ id: '65601', title: 'Store help', parentId: '65537', storage: storeStorage(texts), version: 7, labels: ['translate'] });
  add({ id: '65602', title: 'Shipping', parentId: '65601', storage: SHIPPING, version: 3, labels: ['translate', 'faq'] });
  add({ id: '65700', title: 'Internal notes', parentId: '65537', storage: '<p>Do not translate this.</p>' });
  add({ id: '65701', title: 'Old pricing', parentId: '65537', storage: '<p>Archived prices.</p>', status: 'archived' });
  const rateLimited = new Armed<true>();
  const good = `Basic ${Buffer.from(`${EMAIL}:${API_TOKEN}`).toString('base64')}`;
  const maxPerAnswer = Math.min(250, options.pageSize ?? 250);

  const errors = (status: number, code: string, title: string) => ({ errors: [{ status, code, title, detail: null }] });

  function handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, headers);
    if (req.headers.authorization !== good) return send(401, errors(401, 'UNAUTHORIZED', 'Unauthorized'));
    if (rateLimited.take()) return send(429, errors(429, 'TOO_MANY_REQUESTS', 'Rate limit exceeded'), { 'retry-after': '1' });
    if (req.method !== 'GET') return send(405, errors(405, 'METHOD_NOT_ALLOWED', 'Method Not Allowed'));
    const q = url.searchParams;
    const limit = Math.min(Number(q.get('limit') ?? '25') || 25, maxPerAnswer);
    const path = url.pathname;
    if (path === '/wiki/api/v2/spaces') {
      const keys = (q.get('keys') ?? '').split(',').filter(Boolean);
      const results = keys.includes(SPACE.key)
        ? [{ id: SPACE.id, key: SPACE.key, name: SPACE.name, type: 'global', status: 'current', authorId: '5b10ac8d82e05b22cc7d4ef5', createdAt: '2024-03-11T09:12:40.112Z', homepageId: '65537', spaceOwnerId: '5b10ac8d82e05b22cc7d4ef5', description: null, icon: null, _links: { webui: `/spaces/${SPACE.key}` } }]
        : [];
      return send(200, { results, _links: { base: SITE } });
    }
    const inSpace = path.match(/^\/wiki\/api\/v2\/spaces\/(\d+)\/pages$/);
    if (inSpace) {
      if (inSpace[1] !== SPACE.id) return send(404, errors(404, 'NOT_FOUND', 'Not Found'));
      const cursor = q.get('cursor');
      const offset = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^offset:/, ''));
      if (!Number.isInteger(offset) || offset < 0) return send(400, errors(400, 'INVALID_REQUEST_PARAMETER', `Provided value {${cursor}} for 'cursor' is not the correct type.`));
      const statuses = (q.get('status') ?? 'current,archived').split(',');
      const all = [...pages.values()].filter((p) => statuses.includes(p.status));
      const slice = all.slice(offset, offset + limit);
      const withBody = q.get('body-format') === 'storage';
      const results = slice.map((p, i) => ({
        id: p.id,
        status: p.status,
        title: p.title,
        spaceId: SPACE.id,
        parentId: p.parentId,
        parentType: p.parentId ? 'page' : null,
        position: offset + i,
        authorId: '5b10ac8d82e05b22cc7d4ef5',
        ownerId: '5b10ac8d82e05b22cc7d4ef5',
        lastOwnerId: null,
        createdAt: '2024-03-11T09:12:40.112Z',
        version: { createdAt: '2026-11-20T14:02:11.000Z', message: '', number: p.version, minorEdit: false, authorId: '5b10ac8d82e05b22cc7d4ef5' },
        body: withBody ? { storage: { representation: 'storage', value: p.storage } } : {},
        _links: { webui: `/spaces/${SPACE.key}/pages/${p.id}/${encodeURIComponent(p.title.replace(/ /g, '+'))}`, editui: `/pages/resumedraft.action?draftId=${p.id}`, tinyui: `/x/${p.id}` },
      }));
      const more = offset + limit < all.length;
      const next = more ? `${options.nextOrigin ?? ''}/wiki/api/v2/spaces/${SPACE.id}/pages?${new URLSearchParams({ ...Object.fromEntries(q), cursor: Buffer.from(`offset:${offset + limit}`).toString('base64url') }).toString()}` : undefined;
      return send(200, { results, _links: { ...(next ? { next } : {}), base: SITE } }, next ? { link: `<${next}>; rel="next", <${SITE}>; rel="base"` } : {});
    }
    const labels = path.match(/^\/wiki\/api\/v2\/pages\/(\d+)\/labels$/);
    if (labels) {
      const page = pages.get(labels[1]!);
      if (!page) return send(404, errors(404, 'NOT_FOUND', 'Not Found'));
      return send(200, { results: page.labels.map((name, i) => ({ id: String(4_000_000 + i), name, prefix: 'global' })), _links: { base: SITE } });
    }
    send(404, errors(404, 'NOT_FOUND', 'Not Found'));
  }

  const server = await serveRecording(handle, { extra: credentials });
  const pageOf = (id: string) => {
    const found = pages.get(id);
    if (!found) throw new Error(`Confluence mock: no page ${id}`);
    return found;
  };
  const setStorage = (id: string, storage: string) => {
    const page = pageOf(id);
    page.storage = storage;
    page.version++;
  };

  return {
    ...server,
    email: EMAIL,
    apiToken: API_TOKEN,
    spaceKey: SPACE.key,
    spaceId: SPACE.id,
    storePageId: '65601',
    shippingPageId: '65602',
    internalPageId: '65700',
    homePageId: '65537',
    page: pageOf,
    setStorage,
    addPage: add,
    setSeed(id, text) {
      if (!texts.has(id)) throw new Error(`Confluence mock: no seed string '${id}'`);
      texts.set(id, text);
      setStorage('65601', storeStorage(texts));
    },
    seedText: (id) => texts.get(id)!,
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
  };
}

/** The acceptance scenario's view of the mock: the store page's tree without its child page. Import only. */
export async function confluenceFixture(): Promise<RemoteFixture> {
  const mock = await startConfluenceMock({ pageSize: 2 });
  // The child page is not the scenario's: its strings would count as sources the fixture does not seed.
  mock.page(mock.shippingPageId).parentId = mock.homePageId;
  return cmsFixture({
    connector: 'confluence',
    settings: { site_url: mock.url, space_key: mock.spaceKey, root_page_id: mock.storePageId },
    secrets: { email: mock.email, api_token: mock.apiToken },
    badSecrets: { email: mock.email, api_token: 'ATATT3xFfGF0revoked000000000000000000' },
    edit: (id, _locale, text) => mock.setSeed(id, text),
    sourceCount: () => SEED.filter((s) => mock.seedText(s.id).trim() !== '').length,
    server: mock,
  });
}
