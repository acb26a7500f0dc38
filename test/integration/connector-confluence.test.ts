/** The Confluence connector against a local Confluence Cloud REST API v2: storage-format segments, page trees, labels, paging, refusals. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { confluence, segmentStorage, type ConfluenceSecrets } from '../../server/integrations/connectors/confluence.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { confluenceFixture, startConfluenceMock, type ConfluenceMock } from '../helpers/connector-mocks/confluence.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const context = (mock: ConfluenceMock, overrides: { secrets?: ConfluenceSecrets; settings?: Record<string, unknown> } = {}) =>
  connectorContext(confluence, { site_url: mock.url, space_key: mock.spaceKey, ...overrides.settings }, overrides.secrets ?? { email: mock.email, api_token: mock.apiToken });

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;

describe('Confluence storage format segmentation', () => {
  it('splits headings, paragraphs, list items and table cells, keeping inline markup as tags', () => {
    const segments = segmentStorage(
      '<h1>Title</h1><p>Click <b>Save</b>,&nbsp;then <a href="https://x.example/?a=1&amp;b=2" title="t">docs</a> <i>now</i>.</p>' +
        '<ul><li>One<ul><li>Nested <code>x</code></li></ul></li></ul><table><tbody><tr><th><p>Head</p></th><td>Cell</td></tr></tbody></table>',
    );
    expect(segments.map((s) => [s.block, s.text])).toEqual([
      ['h1', 'Title'],
      ['p', 'Click <strong>Save</strong>,\u00a0then <a href="https://x.example/?a=1&amp;b=2">docs</a> <em>now</em>.'],
      ['li', 'One'],
      ['li', 'Nested <code>x</code>'],
      ['th', 'Head'],
      ['td', 'Cell'],
    ]);
    expect(segments.slice(1).every((s) => s.heading === 'Title')).toBe(true);
  });

  it('leaves macros and their parameters out, except rich-text bodies; an inline macro or link keeps its place as a tag', () => {
    const segments = segmentStorage(
      '<ac:structured-macro ac:name="info"><ac:parameter ac:name="title">Param</ac:parameter><ac:rich-text-body><p>Inside</p></ac:rich-text-body></ac:structured-macro>' +
        '<ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[if (a < b) &nbsp;]]></ac:plain-text-body></ac:structured-macro>' +
        '<p>Is <ac:structured-macro ac:name="status"><ac:parameter ac:name="title">DONE</ac:parameter></ac:structured-macro> see <ac:link><ri:page ri:content-title="X"/><ac:plain-text-link-body><![CDATA[page X]]></ac:plain-text-link-body></ac:link><ac:link><ri:user ri:account-id="1"/></ac:link></p>' +
        '<p>a &lt; b &amp; c &eacute;</p><p> <br/> </p><pre>raw</pre>',
    );
    expect(segments.map((s) => s.text)).toEqual(['Inside', 'Is <ac:structured-macro ac:name="status"/> see <ac:link>page X</ac:link><ac:link/>', 'a < b & c é']);
  });

  it('refuses storage that is not well-formed, and escapes a literal < that would read as a tag', () => {
    expect(() => segmentStorage('<p>open')).toThrow(/Expected '<\/p>'/);
    expect(segmentStorage('<p>x &lt;b&gt; y</p>')[0]!.text).toBe('x &lt;b> y');
  });
});

describe('Confluence connector', () => {
  let mock: ConfluenceMock;
  beforeAll(async () => {
    mock = await startConfluenceMock({ pageSize: 2 });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('lists every current page of the space, one unit per page keyed by page id and segment index, following the cursor', async () => {
    const listing = await confluence.list(context(mock));
    expect(listing.units.map((u) => u.path)).toEqual([mock.homePageId, mock.storePageId, mock.shippingPageId, mock.internalPageId]);
    const store = unitAt(listing.units, mock.storePageId);
    expect(store.strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
    expect(store.strings.map((s) => s.key)).toEqual([0, 1, 2, 3].map((i) => `${mock.storePageId}#${i}`));
    expect(store.strings[0]).toMatchObject({ context: 'Space "Customer docs" (DOCS) › "Customer docs Home" › page "Store help"', notes: 'Confluence heading 2.' });
    expect(store.strings[3]).toMatchObject({ context: 'Space "Customer docs" (DOCS) › "Customer docs Home" › page "Store help" › section "Welcome to our store"', notes: 'Confluence table cell.' });
    expect(store.strings.every((s) => s.translations === undefined && s.ref === undefined)).toBe(true);
    expect(mock.requests.map((r) => [r.path, r.query.cursor === undefined ? 'first' : 'cursor'])).toEqual([
      ['/wiki/api/v2/spaces', 'first'],
      [`/wiki/api/v2/spaces/${mock.spaceId}/pages`, 'first'],
      [`/wiki/api/v2/spaces/${mock.spaceId}/pages`, 'cursor'],
    ]);
    expect(mock.requests[1]!.query).toMatchObject({ 'body-format': 'storage', status: 'current' });
    expect(mock.requests.every((r) => r.authorization === `Basic ${Buffer.from(`${mock.email}:${mock.apiToken}`).toString('base64')}`)).toBe(true);
    expect(listing.note).toBe("Confluence, import only: space 'DOCS', 4 of 4 pages, 17 segments.");
  });

  it('segments a real page: inline markup as tags, macros out, rich-text bodies in, entities decoded, the nearest heading as context', async () => {
    const shipping = unitAt((await confluence.list(context(mock))).units, mock.shippingPageId);
    expect(shipping.strings.map((s) => s.source)).toEqual([
      'Shipping',
      'Orders ship within <strong>two\u00a0days</strong>. Read the <a href="https://shop.example/terms?a=1&amp;b=2">terms</a> or the <ac:link>returns policy</ac:link>.',
      'Holidays add a day — sorry!',
      'Costs',
      'Status: <ac:structured-macro ac:name="status"/> over 50\u00a0€ <ac:emoticon/>',
      'Standard',
      'Use <code>SHIP10</code> at checkout',
      'Zone',
      'Days',
      'EU',
      '2',
    ]);
    expect(shipping.strings[1]!.notes).toBe('Confluence paragraph (keep every tag: it is the formatting, a link or a macro).');
    expect(shipping.strings[4]!.context).toBe('Space "Customer docs" (DOCS) › "Customer docs Home" › "Store help" › page "Shipping" › section "Costs"');
  });

  it('an edited paragraph keeps its key; a paragraph inserted above shifts the keys below it', async () => {
    const before = mock.page(mock.storePageId).storage;
    try {
      mock.setSeed('cart', 'Your basket is empty');
      const edited = unitAt((await confluence.list(context(mock))).units, mock.storePageId).strings;
      expect(edited[1]).toMatchObject({ key: `${mock.storePageId}#1`, source: 'Your basket is empty' });
      mock.setStorage(mock.storePageId, `<p>New intro</p>${mock.page(mock.storePageId).storage}`);
      const inserted = unitAt((await confluence.list(context(mock))).units, mock.storePageId).strings;
      expect(inserted.map((s) => s.key).slice(0, 2)).toEqual([`${mock.storePageId}#0`, `${mock.storePageId}#1`]);
      expect(inserted[1]!.source).toBe(SEED[0]!.source);
    } finally {
      mock.setSeed('cart', SEED[1]!.source);
      mock.setStorage(mock.storePageId, before);
    }
  });

  it('root_page_id: only that page and its descendants', async () => {
    const listing = await confluence.list(context(mock, { settings: { root_page_id: mock.storePageId } }));
    expect(listing.units.map((u) => u.path)).toEqual([mock.storePageId, mock.shippingPageId]);
    expect(listing.note).toContain("(page tree 65601), 2 of 4 pages");
    const error = await rejection(confluence.list(context(mock, { settings: { root_page_id: '99999' } })));
    expect(error.kind).toBe('config');
    expect(error.message).toBe("Confluence space 'DOCS' has no current page 99999 that the account can view (setting root_page_id).");
  });

  it('label: only the pages carrying it, read from each page of the tree', async () => {
    const listing = await confluence.list(context(mock, { settings: { label: 'faq' } }));
    expect(listing.units.map((u) => u.path)).toEqual([mock.shippingPageId]);
    expect(mock.requests.filter((r) => r.path.endsWith('/labels'))).toHaveLength(4);
    mock.requests.length = 0;
    const inTree = await confluence.list(context(mock, { settings: { label: 'translate', root_page_id: mock.storePageId } }));
    expect(inTree.units.map((u) => u.path)).toEqual([mock.storePageId, mock.shippingPageId]);
    expect(mock.requests.filter((r) => r.path.endsWith('/labels'))).toHaveLength(2);
  });

  it('stops at max_pages with an error naming the setting, rather than leaving pages out', async () => {
    const error = await rejection(confluence.list(context(mock, { settings: { max_pages: 3 } })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/^Confluence space 'DOCS' holds more than 3 pages \(setting max_pages\)\. Raise max_pages/);
  });

  it('never follows a next link off the configured site (the credentials would go with it)', async () => {
    const elsewhere = await startConfluenceMock({ pageSize: 2, nextOrigin: 'https://collector.example' });
    try {
      const error = await rejection(confluence.list(context(elsewhere)));
      expect(error.kind).toBe('config');
      expect(error.message).toMatch(/^Confluence gave a next link to https:\/\/collector\.example, not the site http:\/\/127\.0\.0\.1:\d+ \(setting site_url\); it was not followed\./);
      expect(elsewhere.requests).toHaveLength(2);
    } finally {
      await elsewhere.close();
    }
  });

  it('an unknown space: a config error naming space_key', async () => {
    const error = await rejection(confluence.list(context(mock, { settings: { space_key: 'NOPE' } })));
    expect(error.kind).toBe('config');
    expect(error.message).toContain("Confluence has no space 'NOPE' that the account localization@acme.example can view (setting space_key)");
  });

  it('a page whose storage is not well-formed: a config error naming the page', async () => {
    mock.addPage({ id: '65800', title: 'Broken', parentId: mock.homePageId, storage: '<p>Unclosed' });
    try {
      const error = await rejection(confluence.list(context(mock)));
      expect(error.kind).toBe('config');
      expect(error.message).toMatch(/^Confluence page 65800 \('Broken'\): its storage format could not be read \(Expected '<\/p>'/);
    } finally {
      mock.page('65800').status = 'trashed';
    }
  });

  it("refused credentials: ConnectorError auth quoting Confluence's error and naming email and api_token", async () => {
    const error = await rejection(confluence.list(context(mock, { secrets: { email: mock.email, api_token: 'wrong' } })));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      "Looking up Confluence space 'DOCS' (setting space_key): Confluence refused the credentials (HTTP 401: UNAUTHORIZED: Unauthorized). Check the connection's email and api_token (an API token of an account that can view the space), then PATCH it.",
    );
  });

  it('waits out a 429 (Retry-After) and carries on', async () => {
    mock.rateLimitNext(1);
    const listing = await confluence.list(connectorContext(confluence, { site_url: mock.url, space_key: mock.spaceKey }, { email: mock.email, api_token: mock.apiToken }, { maxRetries: 1 }));
    expect(mock.requests.map((r) => r.status).slice(0, 2)).toEqual([429, 200]);
    expect(listing.units).toHaveLength(4);
  });

  it('Confluence down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(confluence.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await confluence.list(context(mock))).units).toHaveLength(4);
  });

  it('validates its settings, and has no write and no webhooks', () => {
    expect(confluence.settings.safeParse({ site_url: 'https://acme.atlassian.net/wiki', space_key: 'DOCS' }).success).toBe(false);
    expect(confluence.settings.safeParse({ site_url: 'https://acme.atlassian.net', space_key: 'has space' }).success).toBe(false);
    expect(confluence.settings.safeParse({ site_url: 'https://acme.atlassian.net', space_key: '~5b10ac8d82e05b22cc7d4ef5' }).success).toBe(true);
    expect(confluence.secrets.safeParse({ email: 'not-an-email', api_token: 'x' }).success).toBe(false);
    expect(confluence.direction).toBe('import_only');
    expect(confluence.write).toBeUndefined();
    expect(confluence.verifyWebhook).toBeUndefined();
  });
});

connectorAcceptance('Confluence acceptance', confluenceFixture, { direction: 'import_only' });
