/** The Figma connector against a local Figma REST API: text layers of several files, limits from boxes, refusals, webhooks. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { figma, type FigmaSecrets } from '../../server/integrations/connectors/figma.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { figmaFixture, startFigmaMock, type FigmaMock } from '../helpers/connector-mocks/figma.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

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
    expect(store.strings[0]).toMatchObject({ context: 'Page "Checkout" › frame "Cart screen" › layer "Title"', notes: 'Layer "Title"' });
    // A layer still named after its text says nothing more: no notes.
    expect(store.strings[1]!.notes).toBeUndefined();
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

  it('turns a fixed-width box into a length limit: width × chars_per_px per line, lines from the height', async () => {
    const strings = unitAt((await figma.list(context(mock))).units, mock.fileKey).strings;
    const limit = (key: string) => strings.find((s) => s.key === key)!.maxLength;
    expect(limit('1:3')).toBe(28); // NONE, 200 px × 0.14, one line of 20 px
    expect(limit('1:4')).toBe(60); // HEIGHT, 220 px → 30 a line, 40 px high = two lines
    expect(limit('1:5')).toBeUndefined(); // WIDTH_AND_HEIGHT: the box follows the text
    expect(limit('1:6')).toBe(14); // no textAutoResize: Figma's fixed default, 100 px
    const wider = unitAt((await figma.list(context(mock, { settings: { chars_per_px: 0.2 } }))).units, mock.fileKey).strings;
    expect(wider.find((s) => s.key === '1:3')!.maxLength).toBe(40);
  });

  it('never sets a limit below the source, which fits its box by construction', async () => {
    mock.setText(mock.fileKey, '1:6', 'See you very soon, friend');
    try {
      const footer = unitAt((await figma.list(context(mock))).units, mock.fileKey).strings.find((s) => s.key === '1:6')!;
      expect(footer).toMatchObject({ source: 'See you very soon, friend', maxLength: 25 });
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

connectorAcceptance('Figma acceptance', figmaFixture, { direction: 'import_only' });
