/** The Kontent.ai connector against a local Management API v2 (test/helpers/connector-mocks/kontent.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { kontent, type KontentSettings } from '../../server/integrations/connectors/kontent.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { kontentFixture, PUBLISHED_STEP, startKontentMock, type KontentMock, type KontentMockOptions } from '../helpers/connector-mocks/kontent.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: KontentMock, overrides: { settings?: Partial<KontentSettings>; apiKey?: string } = {}) =>
  connectorContext(kontent, { api_url: `${mock.url}/v2`, environment_id: mock.environmentId, ...overrides.settings }, { api_key: overrides.apiKey ?? mock.apiKey }, { maxRetries: 1 });

/** A write per listed string and locale, with a recognisable text. */
const writesFor = (unit: StringUnit, locales: string[]) => unit.strings.flatMap((s) => locales.map((locale) => ({ key: s.key, locale, text: `${s.key} in ${locale}` })));
const keyOf = (mock: KontentMock, codename: string, element = 'title') => `${mock.ids.get(codename)}.${element}`;

describe('Kontent.ai connector', () => {
  let mock: KontentMock;
  const start = async (options?: KontentMockOptions) => {
    mock = await startKontentMock(options);
  };
  beforeEach(() => start({ pageSize: 3 }));
  afterEach(() => mock.close());

  it('lists the text elements of each item in the default language, following x-continuation, and skips what cannot be translated', async () => {
    mock.edit('welcome', 'default', '<p>Fresh <strong>coffee</strong> every day.</p>', 'body');
    mock.edit('cart', 'default', '<p>See <object type="application/kenticocloud" data-type="item" data-codename="promo"></object></p>', 'body');
    const listing = await kontent.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as StringUnit;
    expect(unit).toMatchObject({ kind: 'strings', path: 'article', locales: ['de', 'fr'] });
    // Titles, plus the one body without components; not the URL slug, not the non-localizable SKU, not empty bodies.
    expect(unit.strings.map((s) => s.key).sort()).toEqual([...SEED.map((s) => keyOf(mock, s.id)), keyOf(mock, 'welcome', 'body')].sort());
    const welcome = unit.strings.find((s) => s.key === keyOf(mock, 'welcome'))!;
    expect(welcome).toMatchObject({ source: 'Welcome to our store', maxLength: 120, context: 'Article: Welcome to our store', notes: 'Title — The headline, shown above the article.', translations: {} });
    expect(unit.strings.find((s) => s.key === keyOf(mock, 'welcome', 'body'))).toMatchObject({ notes: 'Body — At most 500 words.' });
    expect(listing.note).toMatch(/source language 'default'/);
    expect(listing.note).toMatch(/1 rich text element\(s\) hold components/);
    expect(listing.note).toMatch(/ja not in the environment's active languages/);
    // Four items, three a page: the second page asked with the first page's continuation token, in x-continuation.
    const pages = mock.requests.filter((r) => r.path.endsWith('/items'));
    expect(pages).toHaveLength(2);
    expect(pages[0]!.continuation).toBeUndefined();
    expect(pages[1]!.continuation).toBeTruthy();
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.apiKey}`)).toBe(true);
    // The content type is read once, not once per item.
    expect(mock.requests.filter((r) => r.path.includes('/types/'))).toHaveLength(1);
  });

  it("maps a Parlance locale to a language codename with the locales setting, and reports what each language holds", async () => {
    await mock.close();
    await start({ languages: ['german', 'fr-FR'] });
    mock.edit('cart', 'german', 'Ihr Warenkorb ist leer');
    const listing = await kontent.list(context(mock, { settings: { locales: { de: 'german' } } }));
    const unit = listing.units[0] as StringUnit;
    expect(unit.locales).toEqual(['de']);
    expect(unit.strings.find((s) => s.key === keyOf(mock, 'cart'))!.translations).toEqual({ de: 'Ihr Warenkorb ist leer' });
    // fr-FR is not fr (and not mapped), so fr is skipped with ja.
    expect(listing.note).toMatch(/fr, ja not in the environment's active languages/);
  });

  it('waits as long as Retry-After says on a 429, and carries on', async () => {
    mock.rateLimitNext(1);
    const listing = await kontent.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    const [limited, next] = mock.requests;
    expect(limited!.status).toBe(429);
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(900);
  });

  it("a refused API key is an 'auth' error quoting Kontent.ai; an unknown environment a 'config' error; the API down 'unavailable'", async () => {
    const auth = await rejection(kontent.list(context(mock, { apiKey: 'revoked' })));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toMatch(/HTTP 401: Unauthorized/);
    const environment = await rejection(kontent.list(context(mock, { settings: { environment_id: '11111111-2222-3333-4444-555555555555' } })));
    expect(environment.kind).toBe('config');
    expect(environment.message).toMatch(/environment '11111111-2222-3333-4444-555555555555'.*HTTP 404/);
    expect(() => kontent.settings.parse({ environment_id: 'my-project' })).toThrow(/Environment ID/);
    await mock.stop();
    expect((await rejection(kontent.list(context(mock)))).kind).toBe('unavailable');
  });

  it('writes translations into the language variants by codename, only the changed elements, and writing again changes nothing', async () => {
    const ctx = context(mock);
    const unit = (await kontent.list(ctx)).units[0] as StringUnit;
    const writes = writesFor(unit, ['de', 'fr']);
    const result = await kontent.write!(ctx, stringsWriteBack(unit, writes));
    expect(result).toEqual({ written: SEED.length * 2 });
    expect(mock.held('welcome', 'de')).toBe(`${keyOf(mock, 'welcome')} in de`);
    expect(mock.held('welcome', 'fr')).toBe(`${keyOf(mock, 'welcome')} in fr`);
    expect(mock.held('welcome', 'default')).toBe('Welcome to our store');
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(SEED.length * 2);
    expect(puts[0]!.path).toMatch(/\/items\/[0-9a-f-]+\/variants\/codename\/(de|fr)$/);
    expect(puts[0]!.body).toEqual({ elements: [{ element: { id: mock.elementIds.title }, value: expect.stringMatching(/ in (de|fr)$/) }] });

    mock.requests.length = 0;
    expect((await kontent.write!(ctx, stringsWriteBack(unit, writes))).written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    const relisted = (await kontent.list(ctx)).units[0] as StringUnit;
    expect(relisted.strings.find((s) => s.key === keyOf(mock, 'welcome'))!.translations).toEqual({ de: `${keyOf(mock, 'welcome')} in de`, fr: `${keyOf(mock, 'welcome')} in fr` });
  });

  it('a published variant gets a new version before the upsert, and is not published again', async () => {
    mock.edit('cart', 'de', 'Warenkorb leer');
    mock.publish('cart', 'de');
    const ctx = context(mock);
    const unit = (await kontent.list(ctx)).units[0] as StringUnit;
    const result = await kontent.write!(ctx, stringsWriteBack(unit, [{ key: keyOf(mock, 'cart'), locale: 'de', text: 'Ihr Warenkorb ist leer' }]));
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/new version of 1 published variant/);
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.path.split('/').slice(-2).join('/'), r.status])).toEqual([
      ['de/new-version', 204],
      ['codename/de', 200],
    ]);
    expect(mock.held('cart', 'de')).toBe('Ihr Warenkorb ist leer');
    const variant = mock.items.get(mock.ids.get('cart')!)!.variants.get(mock.languageIds.get('de')!)!;
    expect(variant.step).not.toBe(PUBLISHED_STEP);
  });

  it('a translation a person changed between the listing and the write is not overwritten; a deleted item is reported', async () => {
    const ctx = context(mock);
    const unit = (await kontent.list(ctx)).units[0] as StringUnit;
    mock.edit('cart', 'de', 'Der Warenkorb ist leer (von Hand)');
    mock.remove('farewell');
    const result = await kontent.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result.written).toBe((SEED.length - 1) * 2 - 1);
    expect(result.note).toMatch(/Not overwritten, changed in Kontent\.ai since the listing: .*\.title \(de\)/);
    expect(result.note).toMatch(/deleted in Kontent\.ai since the listing/);
    expect(mock.held('cart', 'de')).toBe('Der Warenkorb ist leer (von Hand)');
    expect(mock.held('cart', 'fr')).toBe(`${keyOf(mock, 'cart')} in fr`);
  });

  describe('webhooks', () => {
    const secret = 'kontent-webhook-secret-0123456789';
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });

    it('a signed notification starts a sync; a forged, altered or unsigned one is refused', () => {
      const settings = context(mock).settings;
      expect(kontent.verifyWebhook!(request(mock.webhook('cart', secret)), secret, settings)).toEqual({ verified: true, sync: true });
      expect(kontent.verifyWebhook!(request(mock.webhook('cart', 'not-the-secret')), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
      const altered = mock.webhook('cart', secret);
      altered.body = altered.body.replace('Your cart is empty', 'Your cart is full');
      expect(kontent.verifyWebhook!(request(altered), secret, settings).verified).toBe(false);
      const unsigned = mock.webhook('cart', secret);
      delete unsigned.headers['x-kontent-ai-signature'];
      expect(kontent.verifyWebhook!(request(unsigned), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/No X-Kontent-ai-Signature/) });
    });

    it("a replayed notification verifies (Kontent.ai's signature carries no time) but another environment's or an asset's starts no sync", () => {
      const settings = context(mock).settings;
      const old = mock.webhook('cart', secret);
      expect(kontent.verifyWebhook!(request(old), secret, settings)).toEqual({ verified: true, sync: true });
      expect(kontent.verifyWebhook!(request(mock.webhook('cart', secret, { environmentId: '11111111-2222-3333-4444-555555555555' })), secret, settings)).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/another environment/) });
      expect(kontent.verifyWebhook!(request(mock.webhook('cart', secret, { objectType: 'asset' })), secret, settings)).toMatchObject({ verified: true, sync: false });
    });
  });
});

connectorAcceptance('Kontent.ai through the service', kontentFixture, { direction: 'two_way' });
