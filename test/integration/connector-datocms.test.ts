/** The DatoCMS connector against a local Content Management API: listing over pages, write-back, refusals, the down server, webhooks. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { datocms, type DatocmsSettings } from '../../server/integrations/connectors/datocms.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { datocmsFixture, startDatocmsMock, type DatocmsMock, type DatocmsMockOptions } from '../helpers/connector-mocks/datocms.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: DatocmsMock, overrides: { settings?: Partial<DatocmsSettings>; token?: string } = {}) =>
  connectorContext(datocms, { api_url: mock.url, ...overrides.settings }, { api_token: overrides.token ?? mock.token }, { maxRetries: 1 });

/** A write per listed string and locale, with a recognisable text. */
const writesFor = (unit: StringUnit, locales: string[]) => unit.strings.flatMap((s) => locales.map((locale) => ({ key: s.key, locale, text: `${s.key} in ${locale}` })));

describe('DatoCMS connector', () => {
  let mock: DatocmsMock;
  const start = async (options?: DatocmsMockOptions) => {
    mock = await startDatocmsMock(options);
  };
  beforeEach(() => start({ maxLimit: 1 }));
  afterEach(() => mock.close());
  const key = (seedId: string) => `${mock.ids.get(seedId)!}.title`;

  it('lists the localized text fields of each record page by page, leaving out block models, other fields and locales the site lacks', async () => {
    const listing = await datocms.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as StringUnit;
    expect(unit).toMatchObject({ kind: 'strings', path: 'article', locales: ['de', 'fr'] });
    // Only `title`: `featured` is a boolean, `slug` is not localized; the block model is not read.
    expect(unit.strings.map((s) => s.key).sort()).toEqual(SEED.map((s) => key(s.id)).sort());
    expect(unit.strings.find((s) => s.key === key('welcome'))).toMatchObject({ source: 'Welcome to our store', notes: 'Headline — Shown as the page heading', maxLength: 120, context: 'Article: Welcome to our store', translations: {} });
    expect(listing.note).toMatch(/ja not among the site's locales \(en, de, fr\), skipped/);
    // One record a page (the server's cap), so four pages, each asked with the next offset.
    const pages = mock.requests.filter((r) => r.path === '/items');
    expect(pages.map((r) => r.query['page[offset]'])).toEqual(['0', '1', '2', '3']);
    expect(pages.every((r) => r.query['filter[type]'] === mock.modelId && r.query['page[limit]'] === '100')).toBe(true);
    expect(mock.requests.some((r) => r.path.includes('Qm4kTzkRSgeDcrXn3a8yTw'))).toBe(false);
    expect(mock.requests.every((r) => r.headers.authorization === `Bearer ${mock.token}` && r.headers['x-api-version'] === '3')).toBe(true);
  });

  it("reports what each locale holds now, and maps a Parlance locale to the site's code with the locales setting", async () => {
    await mock.close();
    await start({ locales: ['en', 'de-CH', 'fr-FR'] });
    mock.edit('cart', 'de-CH', 'Ihr Warenkorb ist leer');
    const listing = await datocms.list(context(mock, { settings: { locales: { de: 'de-CH' } } }));
    const cart = (listing.units[0] as StringUnit).strings.find((s) => s.key === key('cart'))!;
    expect(cart.translations).toEqual({ de: 'Ihr Warenkorb ist leer' });
    expect(listing.note).toMatch(/source locale en; fr, ja not among the site's locales/);
  });

  it('with create_locales, adds a locale the site lacks (a site update job) and writes into it; a role that may not is an auth error', async () => {
    const ctx = context(mock, { settings: { create_locales: true } });
    const listing = await datocms.list(ctx);
    const unit = listing.units[0] as StringUnit;
    expect(unit.locales).toEqual(['de', 'fr', 'ja']);
    expect(listing.note).toMatch(/added locale\(s\) ja to the site/);
    expect(mock.locales).toEqual(['en', 'de', 'fr', 'ja']);
    const put = mock.requests.find((r) => r.method === 'PUT' && r.path === '/site')!;
    expect(put.body).toEqual({ data: { type: 'site', id: '4242', attributes: { locales: ['en', 'de', 'fr', 'ja'] } } });
    // The job's result is polled until ready (404 first).
    expect(mock.requests.filter((r) => r.path.startsWith('/job-results/')).map((r) => r.status)).toEqual([404, 200]);
    const result = await datocms.write!(ctx, stringsWriteBack(unit, [{ key: key('welcome'), locale: 'ja', text: '私たちの店へようこそ' }]));
    expect(result.written).toBe(1);
    expect(mock.records.get(mock.ids.get('welcome')!)!.attributes.featured).toEqual({ en: false, ja: null });
    // Listed again: nothing left to add.
    mock.requests.length = 0;
    expect((await datocms.list(ctx)).note).not.toMatch(/added/);
    expect(mock.requests.some((r) => r.method === 'PUT')).toBe(false);

    await mock.close();
    await start({ canManageSite: false });
    const refused = await rejection(datocms.list(context(mock, { settings: { create_locales: true } })));
    expect(refused.kind).toBe('auth');
    expect(refused.message).toMatch(/HTTP 403: INSUFFICIENT_PERMISSIONS.*turn create_locales off/);
  });

  it('waits as long as X-RateLimit-Reset says, then carries on', async () => {
    mock.rateLimitNext(2);
    const listing = await datocms.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    const [limited, next] = mock.requests;
    expect(limited!.status).toBe(429);
    expect(next!.path).toBe(limited!.path);
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(1900);
  });

  it("a refused token is an 'auth' error quoting DatoCMS's code", async () => {
    const error = await rejection(datocms.list(context(mock, { token: 'revoked' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401: INVALID_AUTHORIZATION_HEADER/);
  });

  it("a model or environment the project does not have is a 'config' error naming it", async () => {
    const model = await rejection(datocms.list(context(mock, { settings: { models: ['article', 'blog_post'] } })));
    expect(model.kind).toBe('config');
    expect(model.message).toMatch(/'blog_post'.*it has 'article'/);
    const environment = await rejection(datocms.list(context(mock, { settings: { environment: 'staging' } })));
    expect(environment.kind).toBe('config');
    expect(environment.message).toMatch(/environment 'staging'.*HTTP 404: NOT_FOUND/);
    expect(() => datocms.settings.parse({ models: ['Blog Post'] })).toThrow(/model api_key/);
  });

  it("the API down is 'unavailable' (retried by the framework)", async () => {
    await mock.stop();
    const error = await rejection(datocms.list(context(mock)));
    expect(error.kind).toBe('unavailable');
  });

  it("writes every record's locales in one PUT with its current_version, adding new locales to every localized field; writing again changes nothing", async () => {
    const ctx = context(mock);
    const unit = (await datocms.list(ctx)).units[0] as StringUnit;
    const writes = writesFor(unit, ['de', 'fr']);
    const result = await datocms.write!(ctx, stringsWriteBack(unit, writes));
    expect(result).toEqual({ written: SEED.length * 2 });
    const welcome = mock.records.get(mock.ids.get('welcome')!)!;
    expect(welcome.attributes).toEqual({ title: { en: 'Welcome to our store', de: `${key('welcome')} in de`, fr: `${key('welcome')} in fr` }, featured: { en: false, de: null, fr: null }, slug: 'welcome' });
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(SEED.length);
    expect(puts.every((r) => r.status === 200 && r.headers['content-type'] === 'application/vnd.api+json')).toBe(true);
    const body = puts.find((r) => r.path.endsWith(welcome.id))!.body as { data: { type: string; id: string; attributes: Record<string, unknown>; meta: { current_version: string } } };
    expect(body.data).toMatchObject({ type: 'item', id: welcome.id, meta: { current_version: expect.any(String) } });
    expect(Object.keys(body.data.attributes).sort()).toEqual(['featured', 'title']);

    mock.requests.length = 0;
    const again = await datocms.write!(ctx, stringsWriteBack(unit, writes));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    const relisted = (await datocms.list(ctx)).units[0] as StringUnit;
    expect(relisted.strings.find((s) => s.key === key('welcome'))!.translations).toEqual({ de: `${key('welcome')} in de`, fr: `${key('welcome')} in fr` });
  });

  it('a translation a person changed between the listing and the write is not overwritten', async () => {
    const ctx = context(mock);
    const unit = (await datocms.list(ctx)).units[0] as StringUnit;
    mock.edit('cart', 'de', 'Der Warenkorb ist leer (von Hand)');
    const result = await datocms.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result.written).toBe(SEED.length * 2 - 1);
    expect(result.note).toMatch(new RegExp(`Not overwritten, changed in DatoCMS since the listing: ${key('cart').replace('.', '\\.')} \\(de\\)`));
    expect(mock.title('cart', 'de')).toBe('Der Warenkorb ist leer (von Hand)');
    expect(mock.title('cart', 'fr')).toBe(`${key('cart')} in fr`);
  });

  it('a 422 STALE_ITEM_VERSION: the record is read again, a value changed meanwhile is kept, the rest is written', async () => {
    const ctx = context(mock);
    const unit = (await datocms.list(ctx)).units[0] as StringUnit;
    const welcomeOnly = writesFor(unit, ['de', 'fr']).filter((w) => w.key === key('welcome'));
    mock.beforeNextPut(() => mock.edit('welcome', 'de', 'Willkommen (von Hand)'));
    const result = await datocms.write!(ctx, stringsWriteBack(unit, welcomeOnly));
    expect(mock.requests.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([422, 200]);
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/\(de\)/);
    expect(mock.title('welcome', 'de')).toBe('Willkommen (von Hand)');
    expect(mock.title('welcome', 'fr')).toBe(`${key('welcome')} in fr`);
  });

  it('a record deleted since the listing is skipped with a note; a translation DatoCMS refuses is a config error naming the record and field', async () => {
    const ctx = context(mock);
    const unit = (await datocms.list(ctx)).units[0] as StringUnit;
    const farewellId = mock.ids.get('farewell')!;
    mock.remove('farewell');
    const result = await datocms.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de'])));
    expect(result.written).toBe(SEED.length - 1);
    expect(result.note).toMatch(new RegExp(`Records deleted in DatoCMS since the listing, not written: ${farewellId}`));
    const tooLong = await rejection(datocms.write!(ctx, stringsWriteBack(unit, [{ key: key('cart'), locale: 'fr', text: 'x'.repeat(121) }])));
    expect(tooLong.kind).toBe('config');
    expect(tooLong.message).toMatch(new RegExp(`record '${mock.ids.get('cart')!}' \\(title\\).*refused them \\(HTTP 422: INVALID_FIELD \\(field title, code VALIDATION_LENGTH\\)`));
  });

  describe('webhooks', () => {
    const secret = 'whsec_parlance_datocms_0123456789';
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });

    it('a call with the secret as its basic-auth password, or in the custom header, starts a sync', () => {
      const settings = context(mock).settings;
      expect(datocms.verifyWebhook!(request(mock.webhook('cart', secret)), secret, settings)).toEqual({ verified: true, sync: true });
      expect(datocms.verifyWebhook!(request(mock.webhook('cart', secret, { header: true })), secret, settings)).toEqual({ verified: true, sync: true });
    });

    it('a wrong or missing secret is refused', () => {
      const settings = context(mock).settings;
      expect(datocms.verifyWebhook!(request(mock.webhook('cart', 'not-the-secret')), secret, settings)).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/basic authentication does not match/) });
      expect(datocms.verifyWebhook!(request(mock.webhook('cart', 'not-the-secret', { header: true })), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Parlance-Webhook-Secret does not match/) });
      const bare = mock.webhook('cart', secret);
      delete bare.headers.authorization;
      expect(datocms.verifyWebhook!(request(bare), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/neither HTTP basic authentication nor/) });
    });

    it('events about other entities or another environment do not start a sync', () => {
      const settings = context(mock).settings;
      expect(datocms.verifyWebhook!(request(mock.webhook('cart', secret, { entityType: 'upload' })), secret, settings)).toMatchObject({ verified: true, sync: false });
      expect(datocms.verifyWebhook!(request(mock.webhook('cart', secret, { environment: 'staging' })), secret, { ...settings, environment: 'main' })).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/'staging'/) });
    });
  });
});

connectorAcceptance('DatoCMS through the service', datocmsFixture, { direction: 'two_way' });
