/** The Zeplin connector against a local Zeplin API: text layers of every screen, pagination, box hints, refusals, signed webhooks. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { zeplin, type ZeplinSecrets } from '../../server/integrations/connectors/zeplin.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { startZeplinMock, zeplinFixture, type ZeplinMock } from '../helpers/connector-mocks/zeplin.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const context = (mock: ZeplinMock, overrides: { secrets?: ZeplinSecrets; settings?: Record<string, unknown> } = {}) =>
  connectorContext(zeplin, { api_url: mock.url, project_ids: [mock.projectId], ...overrides.settings }, overrides.secrets ?? { token: mock.token });

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;

describe('Zeplin connector', () => {
  let mock: ZeplinMock;
  beforeAll(async () => {
    mock = await startZeplinMock({ secondProject: true });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('lists the text layers of every screen, one unit per project, keyed by screen and design-tool layer id', async () => {
    const listing = await zeplin.list(context(mock));
    const store = unitAt(listing.units, mock.projectId);
    expect(store.strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
    expect(store.strings.map((s) => s.key)).toEqual(['1:3', '1:4', '1:5', '1:6'].map((id) => `${mock.cartScreen}/${id}`));
    expect(store.strings[0]).toMatchObject({ context: 'Section "Checkout" › screen "Cart" › group "Header" › layer "Title"', notes: expect.stringMatching(/^Layer "Title"\. Text box 200 × 20 px/) });
    expect(store.strings[2]!.context).toBe('Section "Checkout" › screen "Cart" › layer "Button label"');
    // Import only: no translations, no references to write with.
    expect(store.strings.every((s) => s.translations === undefined && s.ref === undefined)).toBe(true);
    // The screen without a version is not asked for; the one with only a shape gives nothing.
    expect(mock.requests.map((r) => r.path)).toEqual([
      `/v1/projects/${mock.projectId}`,
      `/v1/projects/${mock.projectId}/screen_sections`,
      `/v1/projects/${mock.projectId}/screens`,
      `/v1/projects/${mock.projectId}/screens/${mock.cartScreen}/versions/latest`,
      `/v1/projects/${mock.projectId}/screens/5dbad85a76ea51c1f35b7001/versions/latest`,
    ]);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}` && r.status === 200)).toBe(true);
    expect(listing.note).toBe("Zeplin, import only (the API cannot change a layer's text): 'Store checkout' (5db81e73e1e36ee19f138c1a): 4 text layers on 3 screens.");
  });

  it('reads every page of screens (100 at a time) and names a variant in the context', async () => {
    const listing = await zeplin.list(context(mock, { settings: { project_ids: [mock.secondId] } }));
    const onboarding = unitAt(listing.units, mock.secondId);
    expect(onboarding.strings).toHaveLength(105);
    expect(new Set(onboarding.strings.map((s) => s.key)).size).toBe(105);
    expect(onboarding.strings[0]!.context).toBe('screen "Login dark" (variant "Dark" of "Login") › layer "Heading"');
    const pages = mock.requests.filter((r) => r.path.endsWith('/screens')).map((r) => r.query);
    expect(pages).toEqual([
      { limit: '100', offset: '0' },
      { limit: '100', offset: '100' },
    ]);
  });

  it("notes the layer's box as a length hint, never as a max length (a pixel is not a character)", async () => {
    const strings = unitAt((await zeplin.list(context(mock))).units, mock.projectId).strings;
    const notes = (id: string) => strings.find((s) => s.key === `${mock.cartScreen}/${id}`)!.notes;
    expect(notes('1:3')).toBe('Layer "Title". Text box 200 × 20 px in the design (about 28 characters a line, 1 line): a much longer translation may not fit.');
    // Named after its text: only the hint.
    expect(notes('1:4')).toBe('Text box 220 × 40 px in the design (about 30 characters a line, 2 lines): a much longer translation may not fit.');
    expect(strings.every((s) => s.maxLength === undefined)).toBe(true);
    const wider = unitAt((await zeplin.list(context(mock, { settings: { chars_per_px: 0.2 } }))).units, mock.projectId).strings;
    expect(wider[0]!.notes).toContain('about 40 characters a line');
  });

  it('keeps keys across a re-export (new Zeplin layer ids, same design-tool ids) and sees the new text', async () => {
    const before = unitAt((await zeplin.list(context(mock))).units, mock.projectId).strings.map((s) => s.key);
    mock.setText(mock.cartScreen, '1:4', 'Your basket is empty');
    try {
      const after = unitAt((await zeplin.list(context(mock))).units, mock.projectId).strings;
      expect(after.map((s) => s.key)).toEqual(before);
      expect(after[1]!.source).toBe('Your basket is empty');
    } finally {
      mock.setText(mock.cartScreen, '1:4', SEED[1]!.source);
    }
  });

  it('keys the repeated text layers of a symbol by occurrence on the screen, not by Zeplin layer id, so a new version keeps them', async () => {
    const probe = await startZeplinMock({ symbolScreen: true });
    try {
      const read = async () => unitAt((await zeplin.list(connectorContext(zeplin, { api_url: probe.url, project_ids: [probe.projectId] }, { token: probe.token }))).units, probe.projectId).strings.filter((s) => s.key.startsWith(`${probe.symbolScreen}/`));
      const before = await read();
      expect(before.map((s) => [s.key.slice(probe.symbolScreen.length + 1), s.source])).toEqual([
        ['3:1', 'Popular products'],
        ['7:1', 'Blue mug'],
        ['7:2', '12 €'],
        ['7:1#2', 'Red mug'],
        ['7:2#2', '14 €'],
      ]);
      probe.reexportScreen(probe.symbolScreen);
      const after = await read();
      expect(after.map((s) => [s.key, s.source])).toEqual(before.map((s) => [s.key, s.source]));
    } finally {
      await probe.close();
    }
  });

  it('a screen deleted while the sync reads is skipped, not an error', async () => {
    const probe = await startZeplinMock();
    try {
      probe.deleteAfterList(probe.cartScreen);
      const listing = await zeplin.list(connectorContext(zeplin, { api_url: probe.url, project_ids: [probe.projectId] }, { token: probe.token }));
      expect(unitAt(listing.units, probe.projectId).strings).toEqual([]);
      expect(listing.note).toContain('1 deleted while reading');
    } finally {
      await probe.close();
    }
  });

  it('waits out a 429, and waits for the rate-limit window when Zeplin says it is used up', async () => {
    mock.rateLimitNext(1);
    let started = Date.now();
    await zeplin.list(context(mock));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests.map((r) => r.status).slice(0, 2)).toEqual([429, 200]);
    mock.requests.length = 0;
    mock.exhaustWindow(400);
    started = Date.now();
    await zeplin.list(context(mock));
    expect(mock.requests[1]!.at - mock.requests[0]!.at).toBeGreaterThanOrEqual(350);
    expect(mock.requests.every((r) => r.status === 200)).toBe(true);
  });

  it("refused token: ConnectorError auth quoting Zeplin's message", async () => {
    const error = await rejection(zeplin.list(context(mock, { secrets: { token: 'revoked' } })));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(`Reading Zeplin project '${mock.projectId}' (setting project_ids): Zeplin refused the credentials (HTTP 401: Invalid access token). Check the connection's token (a personal access token of a member of the projects), then PATCH it.`);
  });

  it('a project Zeplin does not have: ConnectorError config naming the id, with message and detail', async () => {
    const missing = '5db81e73e1e36ee19f13ffff';
    const error = await rejection(zeplin.list(context(mock, { settings: { project_ids: [missing] } })));
    expect(error.kind).toBe('config');
    expect(error.message).toContain(`Reading Zeplin project '${missing}' (setting project_ids): Zeplin answered HTTP 404: Project not found (No project with id ${missing} that you can access.)`);
  });

  it('checks the settings and the secret', () => {
    expect(zeplin.secrets.safeParse({}).success).toBe(false);
    expect(zeplin.settings.safeParse({ project_ids: [] }).success).toBe(false);
    expect(zeplin.settings.safeParse({ project_ids: ['https://app.zeplin.io/project/5db81e73e1e36ee19f138c1a'] }).success).toBe(false);
  });

  it('Zeplin down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(zeplin.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await zeplin.list(context(mock))).units).toHaveLength(1);
  });

  it('has no write: Zeplin cannot change text layers', () => {
    expect(zeplin.direction).toBe('import_only');
    expect(zeplin.write).toBeUndefined();
  });

  describe('webhooks', () => {
    const secret = 'zeplin-webhook-secret-0123456789';
    const settings = () => zeplin.settings.parse({ api_url: mock.url, project_ids: [mock.projectId] });
    const verify = (n: { headers: Record<string, string>; body: string }, key = secret) =>
      zeplin.verifyWebhook!({ headers: new Headers(n.headers), body: new TextEncoder().encode(n.body) }, key, settings());
    const created = () => mock.screenVersionEvent(mock.projectId, mock.cartScreen);

    it('a signed project.screen.version created for a project of the connection asks for a sync', () => {
      expect(verify(mock.delivery(secret, created()))).toEqual({ verified: true, sync: true });
    });

    it('refuses a wrong secret, a changed body, a missing signature, and a delivery older than five minutes', () => {
      expect(verify(mock.delivery('not-the-secret', created()))).toMatchObject({ verified: false, reason: expect.stringMatching(/signature does not match/) });
      const genuine = mock.delivery(secret, created());
      expect(verify({ ...genuine, body: genuine.body.replace(mock.projectId, mock.secondId) }).verified).toBe(false);
      const { 'zeplin-signature': _dropped, ...unsigned } = genuine.headers;
      expect(verify({ ...genuine, headers: unsigned })).toMatchObject({ verified: false, reason: expect.stringMatching(/no Zeplin-Signature/) });
      expect(verify(mock.delivery(secret, created(), Date.now() - 6 * 60_000))).toMatchObject({ verified: false, reason: expect.stringMatching(/five minutes/) });
      expect(verify({ headers: genuine.headers, body: 'not json' }).verified).toBe(false);
    });

    it('acknowledges pings (signed or not), other events and other projects without a sync', () => {
      expect(verify(mock.delivery(secret, { event: 'ping', action: 'ping', timestamp: 1572347818 }))).toMatchObject({ verified: true, sync: false });
      expect(verify({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'ping' }) })).toMatchObject({ verified: true, sync: false });
      expect(verify(mock.delivery(secret, { ...created(), action: 'deleted' }))).toMatchObject({ verified: true, sync: false });
      expect(verify(mock.delivery(secret, { ...created(), event: 'project.note' }))).toMatchObject({ verified: true, sync: false });
      expect(verify(mock.delivery(secret, mock.screenVersionEvent(mock.secondId, '6e0000000000000000000000')))).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/not one of the connection's projects/) });
    });
  });
});

connectorAcceptance('Zeplin acceptance', zeplinFixture, { direction: 'import_only' });
