/** The Google Docs connector against a local Docs API: paragraphs of every tab, heading-anchored keys, refusals, Drive channel notifications. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { googleDocs, stringsOfDocument } from '../../server/integrations/connectors/google-docs.js';
import { forgetGoogleTokens } from '../../server/integrations/google-auth.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { docsFixture, GUIDE_DOC, para, startDocsMock, STORE_DOC, type DocsMock } from '../helpers/connector-mocks/google-docs.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const context = (mock: DocsMock, overrides: { secrets?: Record<string, unknown>; settings?: Record<string, unknown> } = {}) =>
  connectorContext(googleDocs, { api_url: mock.url, document_ids: [STORE_DOC, GUIDE_DOC], ...overrides.settings }, overrides.secrets ?? { service_account: mock.account });

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;
const guide = async (mock: DocsMock) => unitAt((await googleDocs.list(context(mock, { settings: { document_ids: [GUIDE_DOC] } }))).units, GUIDE_DOC).strings;

describe('Google Docs connector', () => {
  let mock: DocsMock;
  beforeAll(async () => {
    mock = await startDocsMock();
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('lists the non-empty paragraphs of every document, one unit per document, read with tabs and without suggestions', async () => {
    const listing = await googleDocs.list(context(mock));
    expect(listing.units.map((u) => u.path)).toEqual([STORE_DOC, GUIDE_DOC]);
    const store = unitAt(listing.units, STORE_DOC);
    // Bold runs are joined into plain text; the empty paragraph is skipped; the table cell's paragraph is a string.
    expect(store.strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
    expect(store.strings.map((s) => s.key)).toEqual(['t.0/h.7wq2k3n9d1xa', 't.0/h.7wq2k3n9d1xa/1', 't.0/h.7wq2k3n9d1xa/2', 't.0/h.7wq2k3n9d1xa/3']);
    expect(store.strings[0]).toMatchObject({ context: 'Document "Store copy"', notes: 'Heading 1.' });
    expect(store.strings[1]).toMatchObject({ context: 'Document "Store copy" › "Welcome to our store"' });
    expect(store.strings[1]!.notes).toBeUndefined();
    expect(store.strings[2]!.notes).toBe('List item. Links: "Proceed to checkout" → https://store.example/checkout.');
    expect(store.strings[3]!.notes).toBe('Table cell: row 1, column 1.');
    // Import only: no translations, no references, no length limits (Docs states none).
    expect(store.strings.every((s) => s.translations === undefined && s.ref === undefined && s.maxLength === undefined)).toBe(true);
    expect(mock.requests.map((r) => [r.path, r.query.get('includeTabsContent'), r.query.get('suggestionsViewMode'), r.status])).toEqual([
      [`/v1/documents/${STORE_DOC}`, 'true', 'PREVIEW_WITHOUT_SUGGESTIONS', 200],
      [`/v1/documents/${GUIDE_DOC}`, 'true', 'PREVIEW_WITHOUT_SUGGESTIONS', 200],
    ]);
    expect(listing.note).toBe(`Google Docs, import only (read with https://www.googleapis.com/auth/documents.readonly): 'Store copy' (${STORE_DOC}, revision ALm37BVt1xQ): 4 paragraphs in 1 tab; 'Travel guide' (${GUIDE_DOC}, revision ALm37BVt1xQ): 17 paragraphs in 3 tabs.`);
  });

  it('reads every tab and child tab, headings as strings and as the context of what is under them', async () => {
    const strings = await guide(mock);
    expect(strings.map((s) => [s.key, s.source])).toEqual([
      ['t.0/1', 'Travel guide'],
      ['t.0/2', 'Spring edition'],
      ['t.0/3', 'Plan ahead.'],
      ['t.0/h.a1b2c3d4e5f6', 'Getting there'],
      ['t.0/h.a1b2c3d4e5f6/1', 'By train\nor by car.'],
      ['t.0/h.g7h8i9j0k1l2', 'By train'],
      ['t.0/h.g7h8i9j0k1l2/1', 'Trains leave hourly from the central station.'],
      ['t.0/h.g7h8i9j0k1l2/2', 'Ask Ana Lima for tickets.'],
      ['t.0/h.g7h8i9j0k1l2/3', 'Day'],
      ['t.0/h.g7h8i9j0k1l2/4', 'Price'],
      ['t.0/h.g7h8i9j0k1l2/5', 'Monday'],
      ['t.0/h.g7h8i9j0k1l2/6', '12 €'],
      ['t.0/h.m3n4o5p6q7r8', 'Staying'],
      ['t.0/h.m3n4o5p6q7r8/1', 'Hotels fill up in May.'],
      ['t.k2c8x1p0aq3z/h.s9t0u1v2w3x4', 'Questions'],
      ['t.k2c8x1p0aq3z/h.s9t0u1v2w3x4/1', 'Is breakfast included?'],
      ['t.9d3fm2hs7e1b/1', 'All prices include VAT.'],
    ]);
    const at = (key: string) => strings.find((s) => s.key === key)!;
    expect(at('t.0/1')).toMatchObject({ context: 'Document "Travel guide" › tab "Guide"', notes: 'Title.' });
    expect(at('t.0/2')).toMatchObject({ context: 'Document "Travel guide" › tab "Guide" › "Travel guide"', notes: 'Subtitle.' });
    expect(at('t.0/h.g7h8i9j0k1l2/1')).toMatchObject({
      context: 'Document "Travel guide" › tab "Guide" › "Travel guide" › "Getting there" › "By train"',
      notes: 'Links: "the central station" → https://rail.example/central.',
    });
    // A heading style inside a table cell is no section: the cell stays under "By train".
    expect(at('t.0/h.g7h8i9j0k1l2/3')).toMatchObject({ context: 'Document "Travel guide" › tab "Guide" › "Travel guide" › "Getting there" › "By train"', notes: 'Heading 3. Table cell: row 1, column 1.' });
    expect(at('t.0/h.g7h8i9j0k1l2/6').notes).toBe('Table cell: row 2, column 2.');
    // A second H1 closes the first one's section.
    expect(at('t.0/h.m3n4o5p6q7r8/1')).toMatchObject({ context: 'Document "Travel guide" › tab "Guide" › "Travel guide" › "Staying"', notes: 'List item.' });
    expect(at('t.k2c8x1p0aq3z/h.s9t0u1v2w3x4/1').context).toBe('Document "Travel guide" › tab "FAQ" › "Questions"');
    expect(at('t.9d3fm2hs7e1b/1').context).toBe('Document "Travel guide" › tab "Legal"');
    // The suggested " Book early." is not source text; the table of contents repeats headings and is skipped.
    expect(strings.filter((s) => s.source === 'By train')).toHaveLength(1);
  });

  it('a paragraph inserted above keeps the keys of other sections; an edit keeps its key; a removal shifts its section only', async () => {
    const before = new Map((await guide(mock)).map((s) => [s.source, s.key]));
    mock.insertParagraph(GUIDE_DOC, 'trains', para('Buy tickets online.', { id: 'online' }));
    mock.insertParagraph(GUIDE_DOC, 'plan', para('Read this first.', { id: 'first' }));
    mock.setText(GUIDE_DOC, 'hotels', 'Hotels fill up in April.');
    try {
      const after = await guide(mock);
      const keyOf = (source: string) => after.find((s) => s.source === source)?.key;
      // Another section's paragraphs, and headings, keep their keys.
      for (const source of ['Getting there', 'By train\nor by car.', 'By train', 'Staying', 'Is breakfast included?', 'All prices include VAT.']) expect(keyOf(source), source).toBe(before.get(source));
      // Inside the section the insertion is in, the paragraphs after it move down one.
      expect(keyOf('Buy tickets online.')).toBe('t.0/h.g7h8i9j0k1l2/1');
      expect(keyOf('Trains leave hourly from the central station.')).toBe('t.0/h.g7h8i9j0k1l2/2');
      expect(keyOf('Read this first.')).toBe('t.0/3');
      expect(keyOf('Plan ahead.')).toBe('t.0/4');
      // An edit is a change of the same key, not a new key.
      expect(keyOf('Hotels fill up in April.')).toBe(before.get('Hotels fill up in May.'));
    } finally {
      mock.removeParagraph(GUIDE_DOC, 'online');
      mock.removeParagraph(GUIDE_DOC, 'first');
      mock.setText(GUIDE_DOC, 'hotels', 'Hotels fill up in May.');
    }
    expect(new Map((await guide(mock)).map((s) => [s.source, s.key]))).toEqual(before);
  });

  it('reads a document given without tabs (its body) as the first tab', () => {
    const body = { content: [{ paragraph: { elements: [{ textRun: { content: 'Intro\n' } }], paragraphStyle: { namedStyleType: 'HEADING_1', headingId: 'h.intro0000001' } } }, { paragraph: { elements: [{ textRun: { content: 'Hello\n' } }] } }] };
    const { strings, tabs } = stringsOfDocument({ documentId: STORE_DOC, title: 'Old', body }, 10);
    expect(tabs).toBe(1);
    expect(strings.map((s) => [s.key, s.source, s.context])).toEqual([
      ['t.0/h.intro0000001', 'Intro', 'Document "Old"'],
      ['t.0/h.intro0000001/1', 'Hello', 'Document "Old" › "Intro"'],
    ]);
  });

  it('a document longer than max_paragraphs: ConnectorError config naming the setting', async () => {
    const error = await rejection(googleDocs.list(context(mock, { settings: { document_ids: [GUIDE_DOC], max_paragraphs: 5 } })));
    expect(error.kind).toBe('config');
    expect(error.message).toBe(`Google Docs document 'Travel guide' (${GUIDE_DOC}) holds more than 5 non-empty paragraphs (setting max_paragraphs). Raise max_paragraphs (up to 50000), or split the document.`);
  });

  it('authenticates with an access token as given', async () => {
    forgetGoogleTokens();
    const listing = await googleDocs.list(context(mock, { secrets: { access_token: mock.accessToken }, settings: { document_ids: [STORE_DOC] } }));
    expect(unitAt(listing.units, STORE_DOC).strings).toHaveLength(SEED.length);
    expect(mock.requests.map((r) => r.path)).toEqual([`/v1/documents/${STORE_DOC}`]);
  });

  it('validates settings and secrets', () => {
    expect(googleDocs.settings.safeParse({ document_ids: [] }).success).toBe(false);
    expect(googleDocs.settings.safeParse({ document_ids: ['https://docs.google.com/document/d/abc/edit'] }).success).toBe(false);
    expect(googleDocs.settings.safeParse({ document_ids: [STORE_DOC, STORE_DOC] }).success).toBe(false);
    expect(googleDocs.secrets.safeParse({}).success).toBe(false);
    expect(googleDocs.secrets.safeParse({ service_account: mock.account, access_token: 'x' }).success).toBe(false);
  });

  it('a key Google does not know: ConnectorError auth quoting invalid_grant', async () => {
    const error = await rejection(googleDocs.list(context(mock, { secrets: { service_account: mock.stranger } })));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('invalid_grant: Invalid JWT Signature.');
    expect(error.message).toContain('service_account');
  });

  it("a document not shared with the account: ConnectorError auth quoting Google and naming the account to share it with", async () => {
    mock.documents.get(GUIDE_DOC)!.sharedWith.clear();
    try {
      const error = await rejection(googleDocs.list(context(mock)));
      expect(error.kind).toBe('auth');
      expect(error.message).toContain(`Reading Google Docs document '${GUIDE_DOC}' (setting document_ids): Google Docs refused the credentials (HTTP 403: The caller does not have permission)`);
      expect(error.message).toContain(`shared with ${mock.account.client_email}`);
    } finally {
      mock.documents.get(GUIDE_DOC)!.sharedWith.add(mock.account.client_email);
    }
  });

  it('a document that does not exist: ConnectorError config naming the id and the setting', async () => {
    const missing = '1NoSuchDocument000000000000000000000000000';
    const error = await rejection(googleDocs.list(context(mock, { settings: { document_ids: [missing] } })));
    expect(error.kind).toBe('config');
    expect(error.message).toBe(`Reading Google Docs document '${missing}' (setting document_ids): Google Docs answered HTTP 404 (Requested entity was not found): there is no document '${missing}'. Check document_ids (the part of the URL after /document/d/).`);
  });

  it('Google down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(googleDocs.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await googleDocs.list(context(mock))).units).toHaveLength(2);
  });

  it('has no write: the scope is read-only', () => {
    expect(googleDocs.direction).toBe('import_only');
    expect(googleDocs.write).toBeUndefined();
  });

  describe('Drive channel notifications', () => {
    const secret = 'docs-channel-token-0123456789abcdef';
    const settings = () => googleDocs.settings.parse({ api_url: mock.url, document_ids: [STORE_DOC] });
    const verify = (n: { headers: Record<string, string>; body: string }, key = secret) => googleDocs.verifyWebhook!({ headers: new Headers(n.headers), body: new TextEncoder().encode(n.body) }, key, settings());

    it('a content update of a document of the connection, with the token, asks for a sync', () => {
      expect(verify(mock.notification(secret, STORE_DOC))).toEqual({ verified: true, sync: true });
      expect(verify(mock.notification(secret, STORE_DOC, 'update', ''))).toEqual({ verified: true, sync: true });
      expect(verify(mock.notification(secret, STORE_DOC, 'trash'))).toEqual({ verified: true, sync: true });
    });

    it('refuses a wrong or missing token', () => {
      expect(verify(mock.notification('not-the-token', STORE_DOC))).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/does not match/) });
      const { 'x-goog-channel-token': _dropped, ...headers } = mock.notification(secret, STORE_DOC).headers;
      expect(verify({ headers, body: '' })).toMatchObject({ verified: false, reason: expect.stringMatching(/no X-Goog-Channel-Token/) });
    });

    it('acknowledges the channel\'s sync message, permission changes and other documents without a sync', () => {
      expect(verify(mock.notification(secret, STORE_DOC, 'sync'))).toMatchObject({ verified: true, sync: false });
      expect(verify(mock.notification(secret, STORE_DOC, 'update', 'permissions'))).toMatchObject({ verified: true, sync: false, reason: 'only permissions changed, not the content' });
      expect(verify(mock.notification(secret, GUIDE_DOC))).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/not one of the connection's documents/) });
    });
  });
});

connectorAcceptance('Google Docs acceptance', docsFixture, { direction: 'import_only' });
