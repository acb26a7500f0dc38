/** The Notion connector against a local Notion API: pages with child pages and nested blocks, databases, formatting as tags, refusals, webhooks. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { notion, richTextToString } from '../../server/integrations/connectors/notion.js';
import { connectorAcceptance } from '../helpers/connector-kit.js';
import { notionFixture, startNotionMock, type NotionMock } from '../helpers/connector-mocks/notion.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const context = (mock: NotionMock, settings: Record<string, unknown> = {}, token = mock.token) => connectorContext(notion, { api_url: mock.url, pages: [mock.handbookId], ...settings }, { token });

const only = async (mock: NotionMock, settings: Record<string, unknown> = {}) => (await notion.list(context(mock, settings))).units[0] as StringUnit;

describe('Notion connector', () => {
  let mock: NotionMock;
  beforeAll(async () => {
    mock = await startNotionMock();
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
    mock.setMaxPageSize(100);
  });

  it('lists a page and its child pages: one unit, keyed by block id, formatting as tags, page path and heading as context', async () => {
    const unit = await only(mock);
    expect(unit.path).toBe(`pages/${mock.handbookId}`);
    const rows = unit.strings.map((s) => [s.key.replace(/^.*-0*(\d+)/, '#$1'), s.source, s.context]);
    const page = 'Page "Team handbook"';
    const started = `${page} › under heading "Getting started"`;
    const faq = `${page} › under heading "FAQ"`;
    expect(rows).toEqual([
      ['#2/title', '<b>Team</b> handbook', page],
      ['#106', 'Read this <b>first</b>, then <i>ask</i> in <code>#help</code>. See <a href="https://example.com/guide?a=1&amp;b=2">the guide</a>.', page],
      ['#107', 'Getting started', page],
      ['#108', 'Set up <b>your laptop</b>', started],
      ['#109', 'Install the VPN', started],
      ['#110', 'Ask IT for the key', started],
      ['#111', 'Sign the &lt;b>contract&lt;/b> & the NDA &amp;amp; more', started],
      ['#112', 'FAQ', page],
      ['#113', 'Who do I ask?', faq],
      ['#114', 'Your buddy, or read Onboarding', faq],
      ['#116/1', 'Tool', faq],
      ['#116/2', 'Purpose', faq],
      ['#117/1', 'Slack', faq],
      ['#117/2', '<i>Chat</i>', faq],
      ['#3/title', 'Onboarding', 'Page "Team handbook › Onboarding"'],
      ['#120', 'Week one', 'Page "Team handbook › Onboarding"'],
      ['#121', 'Meet the team', 'Page "Team handbook › Onboarding" › under heading "Week one"'],
      // The synced block's text once, from the original; its copy is not read again.
      ['#123', 'Shared footer', 'Page "Team handbook › Onboarding" › under heading "Week one"'],
    ]);
    expect(unit.strings.map((s) => s.notes)).toContain('A to-do item.');
    expect(unit.strings.find((s) => s.key.endsWith('/2') && s.source === 'Purpose')!.notes).toBe('A table cell (column 2).');
    // Import only: no translations, no references, no lengths Notion does not state.
    expect(unit.strings.every((s) => s.translations === undefined && s.ref === undefined && s.maxLength === undefined)).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}` && r.version === '2022-06-28' && r.status === 200)).toBe(true);
    // The archived paragraph, the child database and the grandchild page are not read.
    expect(unit.strings.map((s) => s.source)).not.toContain('An old paragraph');
    expect(mock.requests.map((r) => r.path)).not.toContain(`/v1/blocks/${mock.archiveId}/children`);
  });

  it('reads child pages to child_page_depth and nested blocks to block_depth', async () => {
    const flat = await only(mock, { child_page_depth: 0, block_depth: 1 });
    expect(flat.strings.map((s) => s.source)).not.toContain('Onboarding');
    expect(flat.strings.map((s) => s.source)).not.toContain('Install the VPN');
    expect(flat.strings.map((s) => s.source)).not.toContain('Tool');
    const deep = await only(mock, { child_page_depth: 2 });
    const archive = deep.strings.filter((s) => s.context?.startsWith('Page "Team handbook › Onboarding › Archive"'));
    expect(archive.map((s) => s.source)).toEqual(['Archive', 'Old onboarding notes']);
  });

  it('follows next_cursor when Notion answers fewer blocks than asked for, with the same result', async () => {
    const whole = await only(mock);
    mock.requests.length = 0;
    mock.setMaxPageSize(2);
    const paged = await only(mock);
    expect(paged.strings).toEqual(whole.strings);
    const cursors = mock.requests.filter((r) => r.query.start_cursor !== undefined);
    expect(cursors.length).toBeGreaterThan(3);
    expect(mock.requests.every((r) => r.query.page_size === undefined || r.query.page_size === '100')).toBe(true);
  });

  it('stops at max_blocks with an error naming the setting', async () => {
    const error = await rejection(notion.list(context(mock, { max_blocks: 10 })));
    expect(error.kind).toBe('config');
    expect(error.message).toBe(`Notion page ${mock.handbookId} (setting pages) has more than 10 blocks with its child pages (setting max_blocks). Raise max_blocks, lower child_page_depth or block_depth, or list smaller pages.`);
  });

  it("lists a database's rows: title and rich_text properties, keyed by row id and property id", async () => {
    mock.setMaxPageSize(2);
    const listing = await notion.list(context(mock, { pages: [], databases: [mock.glossaryId] }));
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe(`databases/${mock.glossaryId}`);
    expect(unit.strings.map((s) => [s.key.replace(/^.*-0*(\d+)/, '#$1'), s.source])).toEqual([
      ['#1/title', 'Cart'],
      ['#1/%3AUPp', 'The list of items a customer <i>intends</i> to buy'],
      ['#2/title', 'Checkout'],
      ['#2/%3AUPp', 'Where the order is paid'],
      ['#3/title', 'SKU'],
    ]);
    expect(unit.strings[1]).toMatchObject({ context: 'Database "Glossary" › row "Cart" › property "Definition"', notes: 'The row\'s "Definition" text.' });
    const queries = mock.requests.filter((r) => r.path.endsWith('/query'));
    expect(queries.map((r) => r.body)).toEqual([{ page_size: 100 }, { page_size: 100, start_cursor: expect.any(String) }]);
    expect(listing.note).toContain(`database 'Glossary' (${mock.glossaryId}): 5 strings from 3 rows`);
    const error = await rejection(notion.list(context(mock, { pages: [], databases: [mock.glossaryId], max_database_rows: 2 })));
    expect(error.kind).toBe('config');
    expect(error.message).toContain('has more than 2 rows (setting max_database_rows)');
  });

  it('keeps the keys of a database column that is renamed (Notion keeps its property id); the new name is context', async () => {
    const read = async () => ((await notion.list(context(mock, { pages: [], databases: [mock.glossaryId] }))).units[0] as StringUnit).strings;
    const before = await read();
    mock.renameProperty(mock.glossaryId, 'Definition', 'Meaning');
    try {
      const after = await read();
      expect(after.map((s) => [s.key, s.source])).toEqual(before.map((s) => [s.key, s.source]));
      expect(after[1]).toMatchObject({ context: 'Database "Glossary" › row "Cart" › property "Meaning"', notes: 'The row\'s "Meaning" text.' });
    } finally {
      mock.renameProperty(mock.glossaryId, 'Meaning', 'Definition');
    }
  });

  it('takes ids with or without dashes, or links; refuses anything else and an empty selection', () => {
    const hex = mock.handbookId.replaceAll('-', '');
    const parsed = notion.settings.parse({ pages: [hex.toUpperCase(), `https://www.notion.so/acme/Team-handbook-${hex}?pvs=4`] });
    expect(parsed.pages).toEqual([mock.handbookId, mock.handbookId]);
    const bad = notion.settings.safeParse({ pages: ['Team handbook'] });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain("Invalid Notion id 'Team handbook'");
    expect(notion.settings.safeParse({}).success).toBe(false);
    expect(notion.secrets.safeParse({}).success).toBe(false);
  });

  it('keeps formatting as tags the placeholder gate protects, and escapes what would look like markup', () => {
    const run = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'text' as const, plain_text: text, href: null, text: { content: text, link: null }, annotations: {}, ...extra });
    expect(richTextToString([run('a', { annotations: { bold: true, italic: true, code: true } }), run(' b')])).toBe('<code><b><i>a</i></b></code> b');
    expect(richTextToString([run('x', { annotations: { strikethrough: true, underline: true } })])).toBe('<s><u>x</u></s>');
    expect(richTextToString([run('1 < 2 && a<b &copy; &#169;')])).toBe('1 < 2 && a&lt;b &amp;copy; &amp;#169;');
    expect(richTextToString([run('go', { text: { content: 'go', link: { url: 'https://x.test/?q="1"' } } })])).toBe('<a href="https://x.test/?q=&quot;1&quot;">go</a>');
  });

  it("refused token: ConnectorError auth quoting Notion's message", async () => {
    const error = await rejection(notion.list(context(mock, {}, 'ntn_revoked')));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain(`Reading Notion page ${mock.handbookId} (setting pages): Notion refused the credentials (HTTP 401: API token is invalid.)`);
    expect(error.message).toContain('"Read content" capability');
  });

  it('a page not shared with the integration: ConnectorError config saying how to share it', async () => {
    const error = await rejection(notion.list(context(mock, { pages: [mock.privateId] })));
    expect(error.kind).toBe('config');
    expect(error.message).toContain(`Reading Notion page ${mock.privateId} (setting pages): Notion answered HTTP 404: Could not find page with ID`);
    expect(error.message).toContain('⋯ › Connections');
  });

  it('waits out a 429 (Retry-After) and carries on', async () => {
    mock.rateLimitNext(1);
    const started = Date.now();
    const unit = await only(mock, { child_page_depth: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests.slice(0, 2).map((r) => r.status)).toEqual([429, 200]);
    expect(unit.strings.length).toBeGreaterThan(10);
  });

  it('Notion down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(notion.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await notion.list(context(mock))).units).toHaveLength(1);
  });

  it('sees a change made in Notion', async () => {
    const id = mock.seedKey('cart');
    mock.setBlockText(id, ['Your basket is ', { text: 'empty', bold: true }]);
    const unit = await only(mock, { pages: [mock.seedPageId] });
    expect(unit.strings.find((s) => s.key === id)!.source).toBe('Your basket is <b>empty</b>');
    expect(unit.strings).toHaveLength(mock.seedCount());
  });

  it('has no write: import only', () => {
    expect(notion.direction).toBe('import_only');
    expect(notion.write).toBeUndefined();
  });

  describe('webhooks', () => {
    const secret = 'secret_notion_verification_0123456789abcdef';
    const settings = () => notion.settings.parse({ api_url: mock.url, pages: [mock.handbookId], databases: [mock.glossaryId] });
    const verify = (n: { headers: Record<string, string>; body: string }, key = secret) => notion.verifyWebhook!({ headers: new Headers(n.headers), body: new TextEncoder().encode(n.body) }, key, settings());
    const workspace = { id: 'f2c9a3e1-5b7d-4c8e-9a1f-3d5e7b9c1a2f', type: 'workspace' };

    it('a signed content event for a configured page or database, or a page below one, asks for a sync', () => {
      expect(verify(mock.event(secret, 'page.content_updated', { id: mock.handbookId, type: 'page' }, workspace))).toEqual({ verified: true, sync: true });
      expect(verify(mock.event(secret, 'page.created', { id: mock.onboardingId, type: 'page' }, { id: mock.handbookId, type: 'page' }))).toEqual({ verified: true, sync: true });
      // Two levels down: the event names only the immediate parent, which is no configured page; synced all the same.
      expect(verify(mock.event(secret, 'page.content_updated', { id: mock.archiveId, type: 'page' }, { id: mock.onboardingId, type: 'page' }))).toEqual({ verified: true, sync: true });
      expect(verify(mock.event(secret, 'page.properties_updated', { id: '0000c6-row', type: 'page' }, { id: mock.glossaryId, type: 'database' }))).toEqual({ verified: true, sync: true });
      expect(verify(mock.event(secret, 'database.content_updated', { id: mock.glossaryId, type: 'database' }, workspace))).toEqual({ verified: true, sync: true });
    });

    it('acknowledges without a sync: other events, and rows of databases the connection does not read', () => {
      expect(verify(mock.event(secret, 'comment.created', { id: mock.handbookId, type: 'page' }, workspace))).toMatchObject({ verified: true, sync: false, reason: "event 'comment.created' changes no text" });
      expect(verify(mock.event(secret, 'page.locked', { id: mock.handbookId, type: 'page' }, workspace))).toMatchObject({ verified: true, sync: false });
      expect(verify(mock.event(secret, 'page.properties_updated', { id: 'row-elsewhere', type: 'page' }, { id: 'e7000000-1111-4222-8333-000000000007', type: 'database' }))).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/in no database of the connection/) });
      expect(verify(mock.event(secret, 'database.schema_updated', { id: mock.glossaryId, type: 'database' }, workspace))).toMatchObject({ verified: true, sync: false });
    });

    it('refuses a wrong signature, a changed body, a missing signature and a body that is not JSON', () => {
      const event = mock.event('not-the-token', 'page.content_updated', { id: mock.handbookId, type: 'page' }, workspace);
      expect(verify(event)).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/X-Notion-Signature does not match/) });
      const signed = mock.event(secret, 'page.content_updated', { id: mock.handbookId, type: 'page' }, workspace);
      expect(verify({ headers: signed.headers, body: signed.body.replace('page.content_updated', 'page.created') }).verified).toBe(false);
      expect(verify({ headers: { 'content-type': 'application/json' }, body: signed.body })).toMatchObject({ verified: false, reason: 'no X-Notion-Signature header' });
      expect(verify({ headers: signed.headers, body: 'type=page.created' }).verified).toBe(false);
    });

    it("hands the subscription handshake's token to the framework (never into the reason, which is logged), and acknowledges it once it is the secret", () => {
      const token = 'secret_tMrlL1qK5vuQAh1b6cZGhFChZTSYJlce98V0pYn7yBl';
      const first = verify(mock.handshake(token));
      expect(first).toEqual({ verified: false, sync: false, handshake: token, reason: "Notion's subscription handshake" });
      expect(verify(mock.handshake(token), token)).toMatchObject({ verified: true, sync: false });
    });
  });
});

connectorAcceptance('Notion acceptance', notionFixture, { direction: 'import_only' });
