/** The Miro connector against a local Miro REST API: board items by type and page, rich text, frames, size hints, refusals. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { miro, plainText } from '../../server/integrations/connectors/miro.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { miroFixture, startMiroMock, type MiroMock } from '../helpers/connector-mocks/miro.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const context = (mock: MiroMock, overrides: { secrets?: Record<string, unknown>; settings?: Record<string, unknown> } = {}) =>
  connectorContext(miro, { api_url: mock.url, board_ids: [mock.boardId, mock.secondId], ...overrides.settings }, overrides.secrets ?? { access_token: mock.token });

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;

describe('Miro connector', () => {
  let mock: MiroMock;
  beforeAll(async () => {
    mock = await startMiroMock({ secondBoard: true });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('lists text items, sticky notes and shapes of every board, one unit per board keyed by item id, with board and frame as context', async () => {
    const listing = await miro.list(context(mock, { settings: { board_ids: [mock.boardId] } }));
    expect(listing.units.map((u) => u.path)).toEqual([mock.boardId]);
    const store = unitAt(listing.units, mock.boardId);
    // Read type by type (text, sticky_note, shape): the sticky notes come after the text item.
    expect(store.strings.map((s) => [s.key, s.source])).toEqual([
      [mock.seedItem('cart').id, SEED[1]!.source],
      [mock.seedItem('welcome').id, SEED[0]!.source],
      [mock.seedItem('farewell').id, SEED[3]!.source],
      [mock.seedItem('checkout').id, SEED[2]!.source],
    ]);
    const byKey = (id: string) => store.strings.find((s) => s.key === mock.seedItem(id).id)!;
    expect(byKey('welcome').context).toBe('Board "Store launch" › frame "Checkout flow" › sticky note');
    expect(byKey('cart').context).toBe('Board "Store launch" › frame "Checkout flow" › text');
    expect(byKey('farewell').context).toBe('Board "Store launch" › sticky note');
    // Import only: no translations, no references to write with, no max length.
    expect(store.strings.every((s) => s.translations === undefined && s.ref === undefined && s.maxLength === undefined)).toBe(true);
    // The board id travels percent-encoded ('=' as %3D), as in Miro's own examples.
    const board = `/v2/boards/${encodeURIComponent(mock.boardId)}`;
    expect(mock.requests.map((r) => [r.path, r.query.type ?? null])).toEqual([
      [board, null],
      [`${board}/items`, 'frame'],
      [`${board}/items`, 'text'],
      [`${board}/items`, 'sticky_note'],
      [`${board}/items`, 'shape'],
    ]);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}` && r.status === 200)).toBe(true);
    expect(mock.requests.slice(1).every((r) => r.query.limit === '50')).toBe(true);
    expect(listing.note).toBe(`Miro, import only: 'Store launch' (${mock.boardId}): 4 items in 1 frames, 2 empty items skipped.`);
  });

  it('skips empty items, and never reads images or cards', async () => {
    const keys = unitAt((await miro.list(context(mock))).units, mock.boardId).strings.map((s) => s.key);
    expect(mock.item(mock.boardId, '3458764612000000201')!.data.content).toBe('<p></p>');
    expect(keys).not.toContain('3458764612000000201');
    expect(keys).not.toContain('3458764612000000202');
    expect(keys).not.toContain('3458764612000000203');
    expect(keys).not.toContain('3458764612000000204');
    const listed = mock.requests.filter((r) => r.path.endsWith('/items')).map((r) => r.query.type);
    expect(new Set(listed)).toEqual(new Set(['frame', 'text', 'sticky_note', 'shape']));
  });

  it('follows the cursor through every page of a board', async () => {
    const listing = await miro.list(context(mock, { settings: { board_ids: [mock.secondId], item_types: ['sticky_note'] } }));
    const retro = unitAt(listing.units, mock.secondId);
    expect(retro.strings).toHaveLength(55);
    expect(retro.strings.at(-1)).toMatchObject({ source: 'Idea 55', context: 'Board "Retro" › sticky note' });
    const pages = mock.requests.filter((r) => r.query.type === 'sticky_note');
    expect(pages).toHaveLength(2);
    expect(pages[0]!.query.cursor).toBeUndefined();
    expect(pages[1]!.query.cursor).toEqual(expect.any(String));
  });

  it("turns Miro's rich text into plain text with line breaks, decoding entities", async () => {
    const retro = unitAt((await miro.list(context(mock, { settings: { board_ids: [mock.secondId], item_types: ['text'] } }))).units, mock.secondId);
    expect(retro.strings.map((s) => s.source)).toEqual(["Line one\nLine two\nTom & Jerry's <b> tag", '• First\n• Second']);
    expect(plainText('<p><strong>Bold</strong> and <a href="https://x.test">a link</a></p><p></p><p></p><p>After&nbsp;gap &#x1F600; &bogus;</p>')).toBe('Bold and a link\n\nAfter\u00a0gap 😀 &bogus;');
  });

  it("notes an item's width (and estimate) as a length hint, by type", async () => {
    const store = unitAt((await miro.list(context(mock, { settings: { board_ids: [mock.boardId] } }))).units, mock.boardId);
    const notes = (id: string) => store.strings.find((s) => s.key === mock.seedItem(id).id)!.notes;
    expect(notes('welcome')).toBe('Sticky note 199 × 228 px: Miro shrinks the text to fit the note, so a much longer translation turns small.');
    expect(notes('cart')).toBe('Text 240 px wide (about 33 characters a line): a longer translation wraps onto more lines.');
    expect(notes('checkout')).toBe('Shape (round_rectangle) 180 × 60 px (about 25 characters a line): the text wraps inside the shape; a much longer translation may not fit.');
    const wider = unitAt((await miro.list(context(mock, { settings: { board_ids: [mock.boardId], chars_per_px: 0.2 } }))).units, mock.boardId);
    expect(wider.strings.find((s) => s.key === mock.seedItem('cart').id)!.notes).toContain('about 48 characters a line');
  });

  it("sees someone's edit on the board", async () => {
    mock.setContent(mock.boardId, mock.seedItem('farewell').id, '<p>See you <em>very</em> soon</p>');
    try {
      const store = unitAt((await miro.list(context(mock, { settings: { board_ids: [mock.boardId] } }))).units, mock.boardId);
      expect(store.strings.find((s) => s.key === mock.seedItem('farewell').id)!.source).toBe('See you very soon');
    } finally {
      mock.setContent(mock.boardId, mock.seedItem('farewell').id, `<p>${SEED[3]!.source}</p>`);
    }
  });

  it('validates its settings and secrets', () => {
    expect(miro.secrets.safeParse({}).success).toBe(false);
    expect(miro.settings.safeParse({ board_ids: [] }).success).toBe(false);
    expect(miro.settings.safeParse({ board_ids: ['https://miro.com/app/board/uXjVOD6LSME=/'] }).success).toBe(false);
    expect(miro.settings.safeParse({ board_ids: ['uXjVOD6LSME='], item_types: ['image'] }).success).toBe(false);
    expect(miro.settings.parse({ board_ids: ['uXjVOD6LSME='] })).toMatchObject({ item_types: ['text', 'sticky_note', 'shape'], api_url: 'https://api.miro.com' });
  });

  it('waits out a 429 until X-RateLimit-Reset and carries on', async () => {
    mock.rateLimitNext(1);
    const listing = await miro.list(context(mock, { settings: { board_ids: [mock.boardId] } }));
    expect(mock.requests.map((r) => r.status)).toEqual([429, 200, 200, 200, 200, 200]);
    expect(unitAt(listing.units, mock.boardId).strings).toHaveLength(SEED.length);
  });

  it("refused token: ConnectorError auth quoting Miro's message and naming access_token", async () => {
    const error = await rejection(miro.list(context(mock, { secrets: { access_token: 'revoked' } })));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(`Reading Miro board '${mock.boardId}' (setting board_ids): Miro refused the credentials (HTTP 401: Token not found). Check the connection's access_token (an OAuth token with boards:read, of a user who can open the board), then PATCH it.`);
  });

  it('a board Miro does not have: ConnectorError config naming the id and the setting', async () => {
    const error = await rejection(miro.list(context(mock, { settings: { board_ids: ['uXjVNoSuch0='] } })));
    expect(error.kind).toBe('config');
    expect(error.message).toBe("Reading Miro board 'uXjVNoSuch0=' (setting board_ids): Miro answered HTTP 404: Board not found. Check the setting board_ids.");
  });

  it('Miro down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(miro.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await miro.list(context(mock))).units).toHaveLength(2);
  });

  it('has no write and no webhooks: Miro is read with boards:read, and its board subscriptions are not signed with a secret', () => {
    expect(miro.direction).toBe('import_only');
    expect(miro.write).toBeUndefined();
    expect(miro.verifyWebhook).toBeUndefined();
    expect(miro.webhooks).toBeUndefined();
  });
});

connectorAcceptance('Miro acceptance', miroFixture, { direction: 'import_only' });
