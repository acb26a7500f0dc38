/** The Figma connector against a local Figma REST API: text layers of several files, length hints from boxes, refusals, webhooks. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { figma, type FigmaSecrets } from '../../server/integrations/connectors/figma.js';
import { connectorAcceptance, KIT_ENV, SEED, waitForSync, type ConnectionBody } from '../helpers/connector-kit.js';
import { figmaFixture, startFigmaMock, type FigmaMock } from '../helpers/connector-mocks/figma.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

const context = (mock: FigmaMock, overrides: { secrets?: FigmaSecrets; settings?: Record<string, unknown> } = {}) =>
  connectorContext(figma, { api_url: mock.url, file_keys: [mock.fileKey, mock.secondKey], ...overrides.settings }, overrides.secrets ?? { token: mock.token });

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;

describe('Figma connector', () => {
  let mock: FigmaMock;
  beforeAll(async () => {
    mock = await startFigmaMock({ secondFile: true });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('lists the visible text layers of every file, one unit per file keyed by node id, with frame and layer names', async () => {
    const listing = await figma.list(context(mock));
    expect(listing.units.map((u) => u.path)).toEqual([mock.fileKey, mock.secondKey]);
    const store = unitAt(listing.units, mock.fileKey);
    expect(store.strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
    expect(store.strings.map((s) => s.key)).toEqual(['1:3', '1:4', '1:5', '1:6']);
    expect(store.strings[0]).toMatchObject({ context: 'Page "Checkout" › frame "Cart screen" › layer "Title"', notes: expect.stringMatching(/^Layer "Title"\. Fixed text box/) });
    // A layer still named after its text says nothing more: only its box's hint.
    expect(store.strings[1]!.notes).toMatch(/^Text box 220 px wide/);
    // Import only: no translations, no references to write with.
    expect(store.strings.every((s) => s.translations === undefined && s.ref === undefined)).toBe(true);
    const onboarding = unitAt(listing.units, mock.secondKey);
    expect(onboarding.strings.map((s) => [s.key, s.source])).toEqual([
      ['2:3', 'Create your account'],
      ['2:6', 'Skip for now'],
      ['3:2', 'Welcome aboard'],
    ]);
    expect(onboarding.strings[0]!.context).toBe('Page "Onboarding" › frame "Step 1" › layer "Heading"');
    expect(onboarding.strings[1]!.context).toBe('Page "Onboarding" › layer "Loose text"');
    expect(mock.requests.map((r) => r.path)).toEqual([`/v1/files/${mock.fileKey}`, `/v1/files/${mock.secondKey}`]);
    expect(mock.requests.every((r) => r.token === mock.token && r.status === 200)).toBe(true);
    expect(listing.note).toMatch(/import only/);
    expect(listing.note).toContain(`'Onboarding flow' (${mock.secondKey}, version 5821330001): 3 text layers on 2 pages, 1 hidden frames skipped`);
  });

  it('skips hidden layers, layers inside hidden groups and empty text', async () => {
    const keys = unitAt((await figma.list(context(mock))).units, mock.fileKey).strings.map((s) => s.key);
    expect(mock.node(mock.fileKey, '1:7')).toMatchObject({ visible: false, characters: 'Remove before launch' });
    expect(keys).not.toContain('1:7');
    expect(keys).not.toContain('1:10');
    expect(keys).not.toContain('1:8');
  });

  it("notes a fixed-width box's size as a length hint, never as a max length (a pixel is not a character)", async () => {
    const strings = unitAt((await figma.list(context(mock))).units, mock.fileKey).strings;
    const notes = (key: string) => strings.find((s) => s.key === key)!.notes;
    expect(notes('1:3')).toBe('Layer "Title". Fixed text box 200 × 20 px (about 28 characters a line, 1 line): a longer translation overflows the box.');
    // HEIGHT: fixed width, grows downwards; named after its text, so only the hint.
    expect(notes('1:4')).toBe('Text box 220 px wide, growing downwards (about 30 characters a line): a longer translation wraps onto more lines.');
    expect(notes('1:5')).toBe('Layer "Button label".'); // WIDTH_AND_HEIGHT: the box follows the text, no hint
    expect(notes('1:6')).toBe('Layer "Footer". Fixed text box 100 × 20 px (about 14 characters a line, 1 line): a longer translation overflows the box.'); // no textAutoResize: Figma's fixed default
    expect(strings.every((s) => s.maxLength === undefined)).toBe(true);
    const wider = unitAt((await figma.list(context(mock, { settings: { chars_per_px: 0.2 } }))).units, mock.fileKey).strings;
    expect(wider.find((s) => s.key === '1:3')!.notes).toContain('about 40 characters a line');
  });

  it('a source longer than the estimate still gets the hint, and no limit that would flag its translations', async () => {
    mock.setText(mock.fileKey, '1:6', 'See you very soon, dear friend');
    try {
      const footer = unitAt((await figma.list(context(mock))).units, mock.fileKey).strings.find((s) => s.key === '1:6')!;
      expect(footer).toMatchObject({ source: 'See you very soon, dear friend', notes: expect.stringContaining('about 14 characters a line') });
      expect(footer.maxLength).toBeUndefined();
    } finally {
      mock.setText(mock.fileKey, '1:6', SEED[3]!.source);
    }
  });

  it('reads only the named pages through /nodes, and names a page the file lacks', async () => {
    const listing = await figma.list(context(mock, { settings: { file_keys: [mock.secondKey], pages: ['Archive'] } }));
    expect(unitAt(listing.units, mock.secondKey).strings.map((s) => s.key)).toEqual(['3:2']);
    expect(mock.requests.map((r) => [r.path, r.query])).toEqual([
      [`/v1/files/${mock.secondKey}`, { depth: '1' }],
      [`/v1/files/${mock.secondKey}/nodes`, { ids: '0:2' }],
    ]);
    const error = await rejection(figma.list(context(mock, { settings: { file_keys: [mock.secondKey], pages: ['Settings'] } })));
    expect(error.kind).toBe('config');
    expect(error.message).toBe(`Figma file '${mock.secondKey}' (Onboarding flow) has no page 'Settings' (setting pages). Its pages: 'Onboarding', 'Archive'.`);
  });

  it('sees a designer\'s change: new text, new version', async () => {
    const before = mock.file(mock.fileKey).version;
    mock.setText(mock.fileKey, '1:4', 'Your basket is empty');
    try {
      const listing = await figma.list(context(mock, { settings: { file_keys: [mock.fileKey] } }));
      expect(unitAt(listing.units, mock.fileKey).strings.find((s) => s.key === '1:4')!.source).toBe('Your basket is empty');
      expect(listing.note).toContain(`version ${Number(before) + 1}`);
    } finally {
      mock.setText(mock.fileKey, '1:4', SEED[1]!.source);
    }
  });

  it('authenticates with an OAuth token as Bearer', async () => {
    const listing = await figma.list(context(mock, { secrets: { oauth_token: mock.oauthToken }, settings: { file_keys: [mock.fileKey] } }));
    expect(unitAt(listing.units, mock.fileKey).strings).toHaveLength(SEED.length);
    expect(mock.requests[0]).toMatchObject({ token: undefined, authorization: `Bearer ${mock.oauthToken}`, status: 200 });
  });

  it('needs a token or an OAuth token', () => {
    expect(figma.secrets.safeParse({}).success).toBe(false);
    expect(figma.secrets.safeParse({ token: 'x' }).success).toBe(true);
    expect(figma.settings.safeParse({ file_keys: [] }).success).toBe(false);
    expect(figma.settings.safeParse({ file_keys: ['https://www.figma.com/design/abc'] }).success).toBe(false);
  });

  it('waits out a 429 (Retry-After) and carries on', async () => {
    mock.rateLimitNext(1);
    const started = Date.now();
    const listing = await figma.list(context(mock, { settings: { file_keys: [mock.fileKey] } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(unitAt(listing.units, mock.fileKey).strings).toHaveLength(SEED.length);
  });

  it("refused token: ConnectorError auth quoting Figma's 'Invalid token'", async () => {
    const error = await rejection(figma.list(context(mock, { secrets: { token: 'figd_revoked' } })));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain(`Reading Figma file '${mock.fileKey}' (setting file_keys)`);
    expect(error.message).toContain('HTTP 403: Invalid token');
    expect(error.message).toMatch(/token/);
  });

  it('a file Figma does not have: ConnectorError config naming the key', async () => {
    const error = await rejection(figma.list(context(mock, { settings: { file_keys: ['NoSuchFile000000000000'] } })));
    expect(error.kind).toBe('config');
    expect(error.message).toContain("Reading Figma file 'NoSuchFile000000000000' (setting file_keys)");
    expect(error.message).toContain('HTTP 404: Not found');
  });

  it('Figma down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(figma.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await figma.list(context(mock))).units).toHaveLength(2);
  });

  it('has no write: Figma cannot change text layers', () => {
    expect(figma.direction).toBe('import_only');
    expect(figma.write).toBeUndefined();
  });

  describe('webhooks', () => {
    const secret = 'figma-passcode-0123456789abcdef';
    const settings = () => figma.settings.parse({ api_url: mock.url, file_keys: [mock.fileKey] });
    const verify = (n: { headers: Record<string, string>; body: string }, key = secret) =>
      figma.verifyWebhook!({ headers: new Headers(n.headers), body: new TextEncoder().encode(n.body) }, key, settings());

    it('a FILE_UPDATE or FILE_VERSION_UPDATE with the passcode, for a file of the connection, asks for a sync', () => {
      expect(verify(mock.notification(secret, mock.fileKey))).toEqual({ verified: true, sync: true });
      expect(verify(mock.notification(secret, mock.fileKey, 'FILE_VERSION_UPDATE'))).toEqual({ verified: true, sync: true });
    });

    it('refuses a wrong passcode, a missing one and a body that is not JSON', () => {
      expect(verify(mock.notification('not-the-passcode', mock.fileKey))).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/passcode does not match/) });
      expect(verify({ headers: {}, body: JSON.stringify({ event_type: 'FILE_UPDATE', file_key: mock.fileKey }) })).toMatchObject({ verified: false, reason: expect.stringMatching(/no passcode/) });
      expect(verify({ headers: {}, body: 'passcode=' + secret }).verified).toBe(false);
    });

    it('accepts an old event with the passcode: its unsigned timestamp proves nothing, and Figma redelivers late', () => {
      expect(verify(mock.notification(secret, mock.fileKey, 'FILE_UPDATE', new Date(Date.now() - 3 * 3600_000)))).toEqual({ verified: true, sync: true });
      expect(verify(mock.notification('not-the-passcode', mock.fileKey, 'FILE_UPDATE', new Date())).verified).toBe(false);
    });

    it('acknowledges other files and other events without a sync', () => {
      expect(verify(mock.notification(secret, mock.secondKey))).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/not one of the connection's files/) });
      expect(verify(mock.notification(secret, mock.fileKey, 'PING'))).toMatchObject({ verified: true, sync: false });
      expect(verify(mock.notification(secret, mock.fileKey, 'FILE_COMMENT'))).toMatchObject({ verified: true, sync: false });
    });
  });
});

describe("Figma's length hints through the service", () => {
  let service: TestService;
  let mock: FigmaMock;
  beforeAll(async () => {
    [service, mock] = await Promise.all([startService({ env: KIT_ENV }), startFigmaMock()]);
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await service?.stop();
  });

  it("a layer's box reaches the key as a note, with no max length (the project's length budget applies as to any key)", async () => {
    const res = await service.api('/v1/integrations/figma', { method: 'POST', json: { settings: { api_url: mock.url, file_keys: [mock.fileKey] }, secrets: { token: mock.token } } });
    const connection = (await res.json()) as ConnectionBody;
    expect(res.status, JSON.stringify(connection)).toBe(201);
    const sync = await waitForSync(service, 'figma', connection.id, connection.last_sync!.id);
    expect(sync.status, JSON.stringify(sync)).toBe('succeeded');
    await waitForBatch(service, sync.batch_id!);
    const keys = (await (await service.api('/v1/keys?locale=de&limit=500')).json()) as { items: { key: string; notes: string | null; max_length: number | null }[] };
    const title = keys.items.find((k) => k.key === '1:3');
    expect(title).toMatchObject({ notes: 'Layer "Title". Fixed text box 200 × 20 px (about 28 characters a line, 1 line): a longer translation overflows the box.', max_length: null });
    expect(keys.items.filter((k) => k.key.includes(':')).every((k) => k.max_length === null)).toBe(true);
  }, 120_000);
});

connectorAcceptance('Figma acceptance', figmaFixture, { direction: 'import_only' });
