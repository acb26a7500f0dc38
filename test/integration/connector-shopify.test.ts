/** The Shopify connector against a local Admin GraphQL API: translatable resources over pages, locales, cost throttling, digest-checked write-back, refusals, webhooks. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { shopify } from '../../server/integrations/connectors/shopify.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { shopifyFixture, startShopifyMock, type ShopifyMock, type ShopifyMockOptions } from '../helpers/connector-mocks/shopify.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: ShopifyMock, overrides: { token?: string; settings?: Record<string, unknown> } = {}) =>
  connectorContext(shopify, { shop_url: mock.url, api_version: mock.apiVersion, ...overrides.settings }, { access_token: overrides.token ?? mock.token });

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;
const id = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1);
const queries = (mock: ShopifyMock) => mock.requests.map((r) => (r.body as { query: string; variables: Record<string, unknown> }));

describe('Shopify connector', () => {
  let mock: ShopifyMock;
  const mocks: ShopifyMock[] = [];
  const another = async (options: ShopifyMockOptions) => {
    const m = await startShopifyMock(options);
    mocks.push(m);
    return m;
  };
  beforeAll(async () => {
    // 4 seed products and 120 more: three pages of 50; a collection, a page and the theme.
    mock = await startShopifyMock({ extraProducts: 120, moreContent: true });
  });
  afterAll(async () => {
    await mock.close();
    for (const m of mocks) await m.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });
  const titleKey = (seed: string) => `${id(mock.seedProduct(seed))}.title`;

  it('lists each resource type page by page with the translations of each shop locale, notes and SEO lengths', async () => {
    const listing = await shopify.list(context(mock));
    const products = unitAt(listing.units, 'products');
    // 4 seed titles; 120 × (title, body_html, meta_title); never the handle (URI) or empty fields.
    expect(products.strings).toHaveLength(4 + 360);
    expect(products.strings.slice(0, 4).map((s) => s.source)).toEqual(SEED.map((s) => s.source));
    expect(products.strings.some((s) => s.key.endsWith('.handle'))).toBe(false);
    expect(products.locales).toEqual(['de', 'fr']);
    const meta = products.strings.find((s) => s.source === 'Buy product 7')!;
    expect(meta).toMatchObject({ key: '8200000007.meta_title', maxLength: 70, notes: expect.stringMatching(/SEO title/), context: 'product 8200000007 "Extra product 7" › meta_title' });
    expect(products.strings.find((s) => s.key === '8200000007.body_html')!.notes).toMatch(/HTML: keep the tags/);
    expect(unitAt(listing.units, 'collections').strings.find((s) => s.key.endsWith('.meta_description'))).toMatchObject({ maxLength: 320 });
    expect(unitAt(listing.units, 'pages').strings.map((s) => s.source)).toEqual(['About us', '<p>We sell shoes.</p>']);
    // Theme strings, but not the URL setting.
    expect(unitAt(listing.units, 'theme').strings.map((s) => s.key)).toEqual(['130000000001.general.cart.empty', '130000000001.section.header.announcement']);
    const pages = queries(mock).filter((q) => q.query.includes('translatableResources(') && q.variables.resourceType === 'PRODUCT');
    expect(pages.map((q) => q.variables.after ?? null)).toEqual([null, expect.any(String), expect.any(String)]);
    expect(pages.every((q) => q.variables.first === 50 && /t0: translations\(locale: "de"\)/.test(q.query) && /t1: translations\(locale: "fr"\)/.test(q.query))).toBe(true);
    expect(mock.requests.every((r) => r.token === mock.token && r.method === 'POST' && r.status === 200)).toBe(true);
    expect(listing.note).toMatch(/locales de → de, fr → fr/);
    // The shop lacks ja, and the token may not enable it: said once, clearly.
    expect(listing.note).toMatch(/could not enable ja in the shop \(the token may not: `write_locales` access scope\. is needed\); it is skipped/);
  });

  it('reads the translations Shopify holds; an outdated one counts as none', async () => {
    mock.edit(mock.seedProduct('cart'), 'de', 'title', 'Dein Warenkorb ist leer');
    mock.edit(mock.seedProduct('farewell'), 'fr', 'title', 'À bientôt');
    mock.edit(mock.seedProduct('farewell'), 'en', 'title', 'See you later');
    const listing = await shopify.list(context(mock, { settings: { resource_types: ['PRODUCT'] } }));
    const products = unitAt(listing.units, 'products');
    expect(products.strings.find((s) => s.key === titleKey('cart'))!.translations).toEqual({ de: 'Dein Warenkorb ist leer' });
    const farewell = products.strings.find((s) => s.key === titleKey('farewell'))!;
    expect(farewell.source).toBe('See you later');
    expect(farewell.translations).toEqual({});
    expect(mock.translation(mock.seedProduct('farewell'), 'fr', 'title')).toEqual({ value: 'À bientôt', outdated: true });
    mock.edit(mock.seedProduct('farewell'), 'en', 'title', 'See you soon');
  });

  it('enables a target locale the shop lacks when the token may, and skips it when create_locales is off', async () => {
    const full = await another({ scopes: ['read_translations', 'write_translations', 'read_locales', 'write_locales'] });
    const off = await shopify.list(context(full, { settings: { create_locales: false, resource_types: ['PRODUCT'] } }));
    expect(off.note).toMatch(/skipped ja: the shop has no such locale \(it has de, fr\) and create_locales is off/);
    expect(full.shopLocales()).toEqual(['en', 'de', 'fr']);
    const listing = await shopify.list(context(full, { settings: { resource_types: ['PRODUCT'] } }));
    expect(full.shopLocales()).toEqual(['en', 'de', 'fr', 'ja']);
    expect(listing.note).toMatch(/enabled locale\(s\) ja in the shop \(unpublished/);
    expect(unitAt(listing.units, 'products').locales).toEqual(['de', 'fr', 'ja']);
    const enable = queries(full).find((q) => q.query.includes('shopLocaleEnable('))!;
    expect(enable.variables).toEqual({ locale: 'ja' });
  });

  it('waits out a THROTTLED answer by its throttleStatus, and paces queries the bucket cannot pay for', async () => {
    const drained = await another({ moreContent: true });
    drained.throttleNext(1);
    const started = Date.now();
    const listing = await shopify.list(context(drained, { settings: { resource_types: ['PAGE'] } }));
    // The drained bucket refills at 100 points a second; the page query costs 52: about half a second in all.
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(unitAt(listing.units, 'pages').strings).toHaveLength(2);
    expect(drained.throttledAnswers).toBeGreaterThanOrEqual(1);

    // A small bucket (120 points, 100 a second) and five pages of 52 points: the connector waits instead of being throttled.
    const small = await another({ extraProducts: 200, bucket: { maximum: 120, restoreRate: 100 } });
    const paced = Date.now();
    const products = unitAt((await shopify.list(context(small, { settings: { resource_types: ['PRODUCT'] } }))).units, 'products');
    expect(products.strings).toHaveLength(4 + 600);
    expect(Date.now() - paced).toBeGreaterThanOrEqual(1000);
    expect(small.throttledAnswers).toBe(0);
  });

  it('refused token, missing scope, wrong address: ConnectorErrors naming the credentials or the setting', async () => {
    const refused = await rejection(shopify.list(context(mock, { token: 'shpat_revoked' })));
    expect(refused.kind).toBe('auth');
    expect(refused.message).toContain("Reading the shop's locales (shopLocales)");
    expect(refused.message).toContain('HTTP 401: [API] Invalid API key or access token');
    const noScope = await another({ scopes: ['read_locales'] });
    const scope = await rejection(shopify.list(context(noScope)));
    expect(scope.kind).toBe('auth');
    expect(scope.message).toMatch(/refused the access token's permissions: Access denied for translatableResources field\. Required access: `read_translations`/);
    const version = await rejection(shopify.list(context(mock, { settings: { api_version: '2024-01' } })));
    expect(version.kind).toBe('config');
    expect(version.message).toMatch(/HTTP 404\)\. Check the settings shop_url .* and api_version/);
    expect(() => shopify.settings.parse({ shop_url: 'my-store' })).toThrow(/url/i);
    expect(() => shopify.settings.parse({ shop_url: mock.url, resource_types: ['ORDER'] })).toThrow(/resource_types/);
  });

  it('a primary locale in another language than the source: ConnectorError config naming both', async () => {
    const error = await rejection(shopify.list({ ...context(mock), sourceLocale: 'de' }));
    expect(error.kind).toBe('config');
    expect(error.message).toContain("The shop's primary locale is 'en', but the project's source locale is 'de'");
  });

  it('Shopify down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(shopify.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await shopify.list(context(mock, { settings: { resource_types: ['PAGE'] } }))).units).toHaveLength(1);
  });

  it('registers translations with the source digest, and writing them again sends nothing', async () => {
    const ctx = context(mock, { settings: { resource_types: ['PRODUCT'] } });
    const unit = unitAt((await shopify.list(ctx)).units, 'products');
    const rows = SEED.flatMap((s) => [
      { key: titleKey(s.id), locale: 'de', text: `DE ${s.source}` },
      { key: titleKey(s.id), locale: 'fr', text: `FR ${s.source}` },
    ]);
    mock.requests.length = 0;
    const result = await shopify.write!(ctx, stringsWriteBack(unit, rows));
    expect(result.written).toBe(rows.length);
    for (const s of SEED) {
      expect(mock.translation(mock.seedProduct(s.id), 'de', 'title')).toEqual({ value: `DE ${s.source}`, outdated: false });
      expect(mock.translation(mock.seedProduct(s.id), 'fr', 'title')).toEqual({ value: `FR ${s.source}`, outdated: false });
      expect(mock.value(mock.seedProduct(s.id), 'title')).toBe(s.source);
    }
    const registers = queries(mock).filter((q) => q.query.includes('translationsRegister('));
    expect(registers).toHaveLength(SEED.length);
    const translations = registers[0]!.variables.translations as { locale: string; key: string; value: string; translatableContentDigest: string }[];
    expect(translations).toEqual([
      { locale: 'de', key: 'title', value: 'DE Welcome to our store', translatableContentDigest: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { locale: 'fr', key: 'title', value: 'FR Welcome to our store', translatableContentDigest: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);

    const fresh = unitAt((await shopify.list(ctx)).units, 'products');
    mock.requests.length = 0;
    const again = await shopify.write!(ctx, stringsWriteBack(fresh, rows));
    expect(again.written).toBe(0);
    expect(again.note).toMatch(/8 already held the translation/);
    expect(queries(mock).filter((q) => q.query.includes('translationsRegister('))).toHaveLength(0);
  });

  it("never overwrites a person's edit made after the listing; a moved source or a deleted resource is not written", async () => {
    const local = await another({ extraProducts: 2 });
    const ctx = context(local, { settings: { resource_types: ['PRODUCT'] } });
    const unit = unitAt((await shopify.list(ctx)).units, 'products');
    const key = (seed: string) => `${id(local.seedProduct(seed))}.title`;
    local.edit(local.seedProduct('checkout'), 'de', 'title', 'Zur Kasse, bitte');
    local.edit(local.seedProduct('cart'), 'en', 'title', 'Your basket is empty');
    local.remove('gid://shopify/Product/8200000001');
    const result = await shopify.write!(ctx, stringsWriteBack(unit, [
      { key: key('checkout'), locale: 'de', text: 'Weiter zur Kasse' },
      { key: key('cart'), locale: 'de', text: 'Ihr Warenkorb ist leer' },
      { key: '8200000001.title', locale: 'de', text: 'Extra-Produkt 1' },
      { key: key('farewell'), locale: 'de', text: 'Bis bald!' },
    ]));
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/1 left as they are: changed in Shopify since the listing/);
    expect(result.note).toMatch(/1 not written: their source changed in Shopify since the listing/);
    expect(result.note).toMatch(/1 skipped: their resource or field no longer exists/);
    expect(local.translation(local.seedProduct('checkout'), 'de', 'title')?.value).toBe('Zur Kasse, bitte');
    expect(local.translation(local.seedProduct('cart'), 'de', 'title')).toBeUndefined();
    expect(local.translation(local.seedProduct('farewell'), 'de', 'title')?.value).toBe('Bis bald!');
  });

  describe('webhooks', () => {
    const secret = 'shpss_0123456789abcdef0123456789abcdef';
    const settings = () => shopify.settings.parse({ shop_url: mock.url });
    const verify = (n: { headers: Record<string, string>; body: string }, key = secret, current = settings()) =>
      shopify.verifyWebhook!({ headers: new Headers(n.headers), body: new TextEncoder().encode(n.body) }, key, current);

    it('accepts a signed products/update and asks for a sync', () => {
      expect(verify(mock.notification(secret, mock.seedProduct('cart')))).toEqual({ verified: true, sync: true });
      expect(verify(mock.notification(secret, mock.seedProduct('cart'), { topic: 'products/delete' }))).toEqual({ verified: true, sync: true });
    });

    it('refuses a forged signature, a changed body and a missing header', () => {
      expect(verify(mock.notification('not-the-secret', mock.seedProduct('cart')))).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/does not match/) });
      const genuine = mock.notification(secret, mock.seedProduct('cart'));
      expect(verify({ ...genuine, body: genuine.body.replace('Your cart', 'Our cart') }).verified).toBe(false);
      const { 'x-shopify-hmac-sha256': _dropped, ...unsigned } = genuine.headers;
      expect(verify({ headers: unsigned, body: genuine.body })).toMatchObject({ verified: false, reason: expect.stringMatching(/missing/) });
    });

    it('refuses a correctly signed notification whose updated_at is over six hours old', () => {
      const stale = verify(mock.notification(secret, mock.seedProduct('cart'), { updatedAt: new Date(Date.now() - 7 * 3_600_000).toISOString() }));
      expect(stale).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/6 hours/) });
      expect(verify(mock.notification(secret, mock.seedProduct('cart'), { updatedAt: new Date(Date.now() - 3_600_000).toISOString() })).verified).toBe(true);
    });

    it('verifies but does not sync for other topics and other shops', () => {
      expect(verify(mock.notification(secret, mock.seedProduct('cart'), { topic: 'orders/create' }))).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/topic/) });
      const named = shopify.settings.parse({ shop_url: 'https://other-store.myshopify.com' });
      expect(verify(mock.notification(secret, mock.seedProduct('cart')), secret, named)).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/shop/) });
    });
  });
});

connectorAcceptance('Shopify acceptance', shopifyFixture, { direction: 'two_way' });
