/** The Strapi connector against a local Strapi 5: listing over pages, write-back, refusals, the down server, webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { strapi } from '../../server/integrations/connectors/strapi.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { startStrapiMock, strapiFixture, strapiWebhook, STRAPI_COLLECTION, type StrapiMock } from '../helpers/connector-mocks/strapi.js';

function context(mock: StrapiMock, overrides: { token?: string; collection?: string; fields?: string[]; status?: string } = {}) {
  const collection = overrides.collection ?? STRAPI_COLLECTION;
  const settings = { api_url: mock.url, collections: [collection], fields: { [collection]: overrides.fields ?? ['title'] }, ...(overrides.status ? { status: overrides.status } : {}) };
  return connectorContext(strapi, settings, { api_token: overrides.token ?? mock.token });
}

describe('Strapi connector', () => {
  let mock: StrapiMock;
  beforeAll(async () => {
    mock = await startStrapiMock({ extraEntries: 226 });
  });
  afterAll(async () => {
    await mock.close();
  });
  const welcome = () => `${mock.documents.get('welcome')!}.title`;

  it('lists every entry over several pages, with the schema limit, and skips the locale Strapi lacks', async () => {
    mock.requests.length = 0;
    const listing = await strapi.list(context(mock));
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe(STRAPI_COLLECTION);
    expect(unit.strings).toHaveLength(SEED.length + 226);
    const first = unit.strings.find((s) => s.key === welcome())!;
    expect(first).toMatchObject({ source: 'Welcome to our store', maxLength: 120, context: STRAPI_COLLECTION, translations: {} });
    expect(new Set(unit.strings.map((s) => s.key)).size).toBe(unit.strings.length);
    const pages = mock.requests.filter((r) => r.path === `/api/${STRAPI_COLLECTION}` && r.query.get('locale') === 'en');
    expect(pages.map((r) => r.query.get('pagination[page]'))).toEqual(['1', '2', '3']);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}`)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('writes translations as locale versions, and writing them again changes nothing', async () => {
    const unit = (await strapi.list(context(mock))).units[0] as StringUnit;
    const rows = [
      { key: welcome(), locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: welcome(), locale: 'fr', text: 'Bienvenue dans notre boutique' },
    ];
    const first = await strapi.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(2);
    expect(mock.title(mock.documents.get('welcome')!, 'de')).toBe('Willkommen in unserem Laden');
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts.at(-1)).toMatchObject({ body: { data: { title: 'Bienvenue dans notre boutique' } } });
    expect(puts.at(-1)!.query.get('locale')).toBe('fr');
    mock.requests.length = 0;
    const again = await strapi.write!(context(mock), stringsWriteBack(unit, rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    const listed = ((await strapi.list(context(mock))).units[0] as StringUnit).strings.find((s) => s.key === welcome())!;
    expect(listed.translations).toEqual({ de: 'Willkommen in unserem Laden', fr: 'Bienvenue dans notre boutique' });
  });

  it("never overwrites a translation a person changed in Strapi between the listing and the write", async () => {
    const documentId = mock.documents.get('cart')!;
    mock.setTitle(documentId, 'de', 'Warenkorb leer');
    const unit = (await strapi.list(context(mock))).units[0] as StringUnit;
    mock.setTitle(documentId, 'de', 'Ihr Warenkorb ist leer (redigiert)');
    const result = await strapi.write!(context(mock), stringsWriteBack(unit, [{ key: `${documentId}.title`, locale: 'de', text: 'Der Warenkorb ist leer' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`${documentId}\\.title \\(de\\)`));
    expect(mock.title(documentId, 'de')).toBe('Ihr Warenkorb ist leer (redigiert)');
  });

  it('with status draft, reads the drafts and writes translations as drafts', async () => {
    const unit = (await strapi.list(context(mock, { status: 'draft' }))).units[0] as StringUnit;
    const farewell = `${mock.documents.get('farewell')!}.title`;
    mock.requests.length = 0;
    await strapi.write!(context(mock, { status: 'draft' }), stringsWriteBack(unit, [{ key: farewell, locale: 'de', text: 'Bis bald' }]));
    expect(mock.requests.map((r) => `${r.method} ${r.query.get('status')}`)).toEqual(['GET null', 'GET draft', 'PUT draft']);
    mock.requests.length = 0;
    await strapi.list(context(mock));
    expect(new Set(mock.requests.filter((r) => r.path.startsWith(`/api/${STRAPI_COLLECTION}`)).map((r) => r.query.get('status')))).toEqual(new Set(['published']));
  });

  it("a field that is not localized is refused: writing it would overwrite the source", async () => {
    const error = await rejection(strapi.list(context(mock, { fields: ['title', 'slug'] })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/field 'slug' is not localized/);
    const missing = await rejection(strapi.list(context(mock, { fields: ['headline'] })));
    expect(missing.message).toMatch(/no attribute 'headline' \(it has title, slug\)/);
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1, 1);
    const started = Date.now();
    const listing = await strapi.list(context(mock));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length + 226);
    expect(mock.requests[0]!.path).toBe(mock.requests[1]!.path);
  });

  it("refused credentials are an 'auth' error quoting Strapi's message", async () => {
    const error = await rejection(strapi.list(context(mock, { token: 'wrong' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401: Missing or invalid credentials/);
  });

  it("a collection Strapi does not have is a 'config' error naming it", async () => {
    const error = await rejection(strapi.list(context(mock, { collection: 'artikles' })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/'artikles'.*HTTP 404: Not Found/);
  });

  it("a server that does not answer is 'unavailable'", async () => {
    await mock.stop();
    try {
      const error = await rejection(strapi.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await strapi.list(context(mock))).units).toHaveLength(1);
  });

  it('accepts the webhook carrying the secret and refuses a forged or bare one', () => {
    const settings = context(mock).settings;
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    const good = strapi.verifyWebhook!(request(strapiWebhook('s3cret', { documentId: 'd1', title: 'x' })), 's3cret', settings);
    expect(good).toEqual({ verified: true, sync: true });
    const forged = strapi.verifyWebhook!(request(strapiWebhook('guess', { documentId: 'd1', title: 'x' })), 's3cret', settings);
    expect(forged.verified).toBe(false);
    const bare = strapiWebhook('s3cret', { documentId: 'd1', title: 'x' });
    delete bare.headers.authorization;
    expect(strapi.verifyWebhook!(request(bare), 's3cret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/Authorization/) });
    const media = { headers: { authorization: 'Bearer s3cret' }, body: JSON.stringify({ event: 'media.create', media: {} }) };
    expect(strapi.verifyWebhook!(request(media), 's3cret', settings)).toMatchObject({ verified: true, sync: false });
  });
});

connectorAcceptance('Strapi acceptance', strapiFixture, { direction: 'two_way' });
