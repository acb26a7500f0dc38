/** The Directus connector against a local Directus: listing over pages, write-back, refusals, the down server, Flow webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { directus } from '../../server/integrations/connectors/directus.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { directusFixture, directusWebhook, DIRECTUS_COLLECTION, DIRECTUS_LOCALES, startDirectusMock, type DirectusMock } from '../helpers/connector-mocks/directus.js';

const context = (mock: DirectusMock, overrides: { token?: string; collection?: string } = {}) =>
  connectorContext(directus, { api_url: mock.url, collection: overrides.collection ?? DIRECTUS_COLLECTION, fields: ['title'], locales: DIRECTUS_LOCALES }, { token: overrides.token ?? mock.token });

describe('Directus connector', () => {
  let mock: DirectusMock;
  beforeAll(async () => {
    mock = await startDirectusMock({ extraItems: 246 });
  });
  afterAll(async () => {
    await mock.close();
  });
  const key = (id: string) => `${mock.items.get(id)!}.title`;

  it('lists every item over several pages with the junction field limit, mapping en-US/de-DE/fr-FR and skipping ja', async () => {
    mock.requests.length = 0;
    const listing = await directus.list(context(mock));
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe(DIRECTUS_COLLECTION);
    expect(unit.locales).toEqual(['de', 'fr']);
    expect(unit.strings).toHaveLength(SEED.length + 246);
    expect(unit.strings.find((s) => s.key === key('welcome'))).toMatchObject({ source: 'Welcome to our store', maxLength: 255, translations: {} });
    const pages = mock.requests.filter((r) => r.path === `/items/${DIRECTUS_COLLECTION}`);
    expect(pages.map((r) => r.query.get('offset'))).toEqual(['0', '100', '200']);
    expect(pages.every((r) => r.query.get('fields') === 'id,translations.*' && r.query.get('meta') === 'total_count')).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}`)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('creates and updates translation rows in one nested PATCH, and writing again changes nothing', async () => {
    const itemId = mock.items.get('welcome')!;
    mock.setTitle(itemId, 'fr-FR', 'Bienvenue');
    const unit = (await directus.list(context(mock))).units[0] as StringUnit;
    mock.requests.length = 0;
    const rows = [
      { key: key('welcome'), locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: key('welcome'), locale: 'fr', text: 'Bienvenue dans notre boutique' },
    ];
    const first = await directus.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(2);
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
    const body = patches[0]!.body as { translations: { create: unknown[]; update: { id: number; title: string }[]; delete: unknown[] } };
    expect(body.translations.create).toEqual([{ languages_code: 'de-DE', title: 'Willkommen in unserem Laden' }]);
    expect(body.translations.update).toEqual([{ id: expect.any(Number), title: 'Bienvenue dans notre boutique' }]);
    expect(mock.title(itemId, 'de-DE')).toBe('Willkommen in unserem Laden');
    expect(mock.title(itemId, 'fr-FR')).toBe('Bienvenue dans notre boutique');
    mock.requests.length = 0;
    const again = await directus.write!(context(mock), stringsWriteBack(unit, rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  });

  it('never overwrites a translation a person changed in Directus between the listing and the write', async () => {
    const itemId = mock.items.get('cart')!;
    const unit = (await directus.list(context(mock))).units[0] as StringUnit;
    mock.setTitle(itemId, 'de-DE', 'Warenkorb: leer (von Hand)');
    const result = await directus.write!(context(mock), stringsWriteBack(unit, [{ key: key('cart'), locale: 'de', text: 'Ihr Warenkorb ist leer' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`${itemId}\\.title \\(de\\)`));
    expect(mock.title(itemId, 'de-DE')).toBe('Warenkorb: leer (von Hand)');
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1, 1);
    const started = Date.now();
    const listing = await directus.list(context(mock));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length + 246);
    expect(mock.requests[0]!.path).toBe(mock.requests[1]!.path);
  });

  it("a refused token is an 'auth' error quoting Directus", async () => {
    const error = await rejection(directus.list(context(mock, { token: 'wrong' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401: Invalid user credentials\./);
    const jwt = await rejection(directus.list(context(mock, { token: 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IngifQ.c2lnbmF0dXJl' })));
    expect(jwt.kind).toBe('auth');
    expect(jwt.message).toMatch(/INVALID_TOKEN: Invalid token\./);
  });

  it("a collection Directus does not have (its 403 FORBIDDEN) is a 'config' error naming it", async () => {
    const error = await rejection(directus.list(context(mock, { collection: 'artikles' })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/'artikles'.*HTTP 403.*"artikles" or it does not exist/);
  });

  it("a server that does not answer is 'unavailable'", async () => {
    await mock.stop();
    try {
      const error = await rejection(directus.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await directus.list(context(mock))).units).toHaveLength(1);
  });

  it("accepts the Flow's request carrying the secret and refuses a forged or bare one", () => {
    const settings = context(mock).settings;
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    expect(directus.verifyWebhook!(request(directusWebhook('s3cret', { itemId: 1, title: 'x' })), 's3cret', settings)).toEqual({ verified: true, sync: true });
    expect(directus.verifyWebhook!(request(directusWebhook('guess', { itemId: 1, title: 'x' })), 's3cret', settings).verified).toBe(false);
    const bare = directusWebhook('s3cret', { itemId: 1, title: 'x' });
    delete bare.headers['x-parlance-webhook-secret'];
    expect(directus.verifyWebhook!(request(bare), 's3cret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Parlance-Webhook-Secret/) });
    const other = { headers: { 'x-parlance-webhook-secret': 's3cret' }, body: JSON.stringify({ event: 'authors.items.update', keys: ['1'], collection: 'authors' }) };
    expect(directus.verifyWebhook!(request(other), 's3cret', settings)).toMatchObject({ verified: true, sync: false });
  });
});

connectorAcceptance('Directus acceptance', directusFixture, { direction: 'two_way' });
