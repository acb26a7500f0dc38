/** The Sanity connector against a local Sanity HTTP API (test/helpers/connector-mocks/sanity.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { sanity, type SanitySettings } from '../../server/integrations/connectors/sanity.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { sanityFixture, startSanityMock, type SanityMock } from '../helpers/connector-mocks/sanity.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: SanityMock, overrides: { settings?: Partial<SanitySettings>; token?: string } = {}) =>
  connectorContext(sanity, { project_id: mock.projectId, api_host: mock.url, document_types: ['article'], fields: ['title'], languages: ['en', 'de', 'fr'], ...overrides.settings }, { token: overrides.token ?? mock.token }, { maxRetries: 1 });

/** A write per listed string and locale, with a recognisable text. */
const writesFor = (unit: StringUnit, locales: string[]) => unit.strings.flatMap((s) => locales.map((locale) => ({ key: s.key, locale, text: `${s.key} in ${locale}` })));

const title = (mock: SanityMock, id: string) => mock.documents.get(id)!.title as Record<string, unknown>;

describe('Sanity connector', () => {
  let mock: SanityMock;
  beforeEach(async () => {
    mock = await startSanityMock({ maxResults: 2 });
  });
  afterEach(() => mock.close());

  it('lists the locale objects of published documents of the types, page by page after the last _id', async () => {
    const listing = await sanity.list(context(mock));
    expect(listing.units).toEqual([{ kind: 'strings', path: 'article', locales: ['de', 'fr'], strings: expect.any(Array) }]);
    const unit = listing.units[0] as StringUnit;
    // Not the draft of `welcome`, not the `siteSettings` document.
    expect(unit.strings.map((s) => s.key).sort()).toEqual(SEED.map((s) => `${s.id}.title`).sort());
    expect(unit.strings.find((s) => s.key === 'welcome.title')).toMatchObject({ source: 'Welcome to our store', context: 'article: Welcome to our store', translations: {} });
    expect(listing.note).toMatch(/ja not among the languages setting, skipped/);
    // Two documents a page: two full pages and the empty one that ends the listing, each after the last _id read.
    const queries = mock.requests.filter((r) => r.path.endsWith('/data/query/production'));
    expect(queries.map((r) => [r.status, r.query.$after])).toEqual([
      [200, '""'],
      [200, '"checkout"'],
      [200, '"welcome"'],
    ]);
    expect(queries[0]!.query.$types).toBe('["article"]');
    expect(queries[0]!.path.startsWith('/v2024-06-01/')).toBe(true);
  });

  it('reports what each language holds now, mapping Parlance locales to language ids', async () => {
    mock.edit('cart', 'de_CH', 'Ihr Warenkorb ist leer');
    mock.edit('cart', 'fr', 'Votre panier est vide');
    const listing = await sanity.list(context(mock, { settings: { languages: ['en', 'de_CH', 'fr'], locales: { de: 'de_CH' } } }));
    const cart = (listing.units[0] as StringUnit).strings.find((s) => s.key === 'cart.title')!;
    expect(cart.translations).toEqual({ de: 'Ihr Warenkorb ist leer', fr: 'Votre panier est vide' });
  });

  it('waits out a 429 and carries on', async () => {
    mock.rateLimitNext(1);
    const listing = await sanity.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    const [limited, next] = mock.requests;
    expect(limited!.status).toBe(429);
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(900);
  });

  it("refused credentials are an 'auth' error quoting Sanity", async () => {
    const error = await rejection(sanity.list(context(mock, { token: 'skRevoked' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401: Session not found/);
  });

  it("a dataset the project does not have is a 'config' error naming it", async () => {
    const error = await rejection(sanity.list(context(mock, { settings: { dataset: 'staging' } })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/dataset 'staging'.*HTTP 404.*Dataset \\"staging\\" not found/);
  });

  it('settings are checked at connect: a field path, a language id and an API version of the wrong form are refused', () => {
    const base = { project_id: 'q3v8x2mp', document_types: ['article'], fields: ['title'], languages: ['en', 'de'] };
    expect(sanity.settings.safeParse(base).success).toBe(true);
    expect(sanity.settings.safeParse({ ...base, fields: ['title.de-DE'] }).success).toBe(false);
    expect(sanity.settings.safeParse({ ...base, languages: ['pt-BR'] }).success).toBe(false);
    expect(sanity.settings.safeParse({ ...base, api_version: '2024-06-01' }).success).toBe(false);
  });

  it("the API down is 'unavailable' (retried by the framework)", async () => {
    await mock.stop();
    const error = await rejection(sanity.list(context(mock)));
    expect(error.kind).toBe('unavailable');
  });

  it('patches translations with the revision just read, and writing again changes nothing', async () => {
    const ctx = context(mock);
    const unit = (await sanity.list(ctx)).units[0] as StringUnit;
    const writes = writesFor(unit, ['de', 'fr']);
    const revBefore = mock.documents.get('welcome')!._rev;
    const result = await sanity.write!(ctx, stringsWriteBack(unit, writes));
    expect(result).toEqual({ written: SEED.length * 2 });
    expect(title(mock, 'welcome')).toEqual({ _type: 'localeString', en: 'Welcome to our store', de: 'welcome.title in de', fr: 'welcome.title in fr' });
    const mutations = mock.requests.filter((r) => r.path.endsWith('/data/mutate/production'));
    expect(mutations).toHaveLength(SEED.length);
    const welcome = mutations.map((r) => r.body as { mutations: { patch: { id: string } }[] }).find((b) => b.mutations[0]!.patch.id === 'welcome');
    expect(welcome).toEqual({ mutations: [{ patch: { id: 'welcome', ifRevisionID: revBefore, set: { 'title.de': 'welcome.title in de', 'title.fr': 'welcome.title in fr' } } }] });

    mock.requests.length = 0;
    expect(await sanity.write!(ctx, stringsWriteBack(unit, writes))).toEqual({ written: 0 });
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('a translation a person changed between the listing and the write is not overwritten', async () => {
    const ctx = context(mock);
    const unit = (await sanity.list(ctx)).units[0] as StringUnit;
    mock.edit('cart', 'de', 'Der Warenkorb ist leer (von Hand)');
    const result = await sanity.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result.written).toBe(SEED.length * 2 - 1);
    expect(result.note).toMatch(/Not overwritten, changed in Sanity since the listing: cart\.title \(de\)/);
    expect(title(mock, 'cart')).toMatchObject({ de: 'Der Warenkorb ist leer (von Hand)', fr: 'cart.title in fr' });
  });

  it('a 409 revision mismatch: the document is read again, a value changed meanwhile is kept, the rest is written', async () => {
    const ctx = context(mock);
    const unit = (await sanity.list(ctx)).units[0] as StringUnit;
    const welcomeOnly = writesFor(unit, ['de', 'fr']).filter((w) => w.key === 'welcome.title');
    mock.beforeNextMutation(() => mock.edit('welcome', 'de', 'Willkommen (von Hand)'));
    const result = await sanity.write!(ctx, stringsWriteBack(unit, welcomeOnly));
    const mutations = mock.requests.filter((r) => r.method === 'POST');
    expect(mutations.map((r) => r.status)).toEqual([409, 200]);
    expect((mutations[1]!.body as { mutations: { patch: { set: object } }[] }).mutations[0]!.patch.set).toEqual({ 'title.fr': 'welcome.title in fr' });
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/welcome\.title \(de\)/);
    expect(title(mock, 'welcome')).toMatchObject({ de: 'Willkommen (von Hand)', fr: 'welcome.title in fr' });
  });

  describe('webhooks', () => {
    const secret = 'whsec_parlance_sanity_0123456789';
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });

    it('a notification signed with the secret starts a sync', () => {
      expect(sanity.verifyWebhook!(request(mock.webhook('cart', secret)), secret, context(mock).settings)).toEqual({ verified: true, sync: true });
    });

    it('a wrong secret, a changed body or a missing signature is refused', () => {
      const settings = context(mock).settings;
      expect(sanity.verifyWebhook!(request(mock.webhook('cart', 'not-the-secret')), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
      const tampered = mock.webhook('cart', secret);
      tampered.body = tampered.body.replace('Your cart is empty', 'Pwned');
      expect(sanity.verifyWebhook!(request(tampered), secret, settings)).toMatchObject({ verified: false });
      const unsigned = mock.webhook('cart', secret);
      delete unsigned.headers['sanity-webhook-signature'];
      expect(sanity.verifyWebhook!(request(unsigned), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/No sanity-webhook-signature/) });
    });

    it('a correctly signed notification older than 5 minutes is refused as a replay', () => {
      const stale = mock.webhook('cart', secret, Date.now() - 6 * 60_000);
      expect(sanity.verifyWebhook!(request(stale), secret, context(mock).settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/replay/) });
      const recent = mock.webhook('cart', secret, Date.now() - 4 * 60_000);
      expect(sanity.verifyWebhook!(request(recent), secret, context(mock).settings)).toMatchObject({ verified: true, sync: true });
    });

    it('drafts, other types and other datasets do not start a sync', () => {
      const settings = context(mock).settings;
      expect(sanity.verifyWebhook!(request(mock.webhook('drafts.welcome', secret)), secret, settings)).toMatchObject({ verified: true, sync: false });
      expect(sanity.verifyWebhook!(request(mock.webhook('settings', secret)), secret, settings)).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/siteSettings/) });
      expect(sanity.verifyWebhook!(request(mock.webhook('cart', secret)), secret, { ...settings, dataset: 'staging' })).toMatchObject({ verified: true, sync: false });
    });
  });
});

connectorAcceptance('Sanity through the service', sanityFixture, { direction: 'two_way' });
