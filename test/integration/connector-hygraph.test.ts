/** The Hygraph connector against a local Content API (GraphQL): listing over pages, write-back, refusals, the down server, webhooks. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { hygraph, verifyHygraphWebhook, type HygraphSettings } from '../../server/integrations/connectors/hygraph.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { hygraphFixture, startHygraphMock, type HygraphMock, type HygraphMockOptions } from '../helpers/connector-mocks/hygraph.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: HygraphMock, overrides: { settings?: Partial<HygraphSettings>; token?: string } = {}) =>
  connectorContext(hygraph, { endpoint: mock.endpoint, models: [{ model: 'Article' }], ...overrides.settings }, { token: overrides.token ?? mock.token }, { maxRetries: 1 });

/** A write per listed string and locale, with a recognisable text. */
const writesFor = (unit: StringUnit, locales: string[]) => unit.strings.flatMap((s) => locales.map((locale) => ({ key: s.key, locale, text: `${s.key} in ${locale}` })));

/** The GraphQL operations the mock received, by operation name. */
const operations = (mock: HygraphMock, name: string) => mock.requests.filter((r) => typeof (r.body as { query?: string })?.query === 'string' && (r.body as { query: string }).query.includes(name));

describe('Hygraph connector', () => {
  let mock: HygraphMock;
  const start = async (options?: HygraphMockOptions) => {
    mock = await startHygraphMock(options);
  };
  beforeEach(() => start({ pageCap: 100 }));
  afterEach(() => mock.close());
  const key = (seedId: string) => `${mock.ids.get(seedId)!}.title`;

  it('lists the localized String fields of each entry with their descriptions, leaving out rich text and locales the environment lacks', async () => {
    const listing = await hygraph.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as StringUnit;
    expect(unit).toMatchObject({ kind: 'strings', path: 'Article', locales: ['de', 'fr'] });
    // `title` only: `subtitle` is empty in every entry, `body` is rich text, `slug` is not localized.
    expect(unit.strings.map((s) => s.key).sort()).toEqual(SEED.map((s) => key(s.id)).sort());
    expect(unit.strings.find((s) => s.key === key('welcome'))).toMatchObject({ source: 'Welcome to our store', notes: 'The headline shown on the article page', translations: {} });
    expect(listing.note).toMatch(/ja not among the environment's locales \(en, de, fr\), skipped/);
    const list = operations(mock, 'ParlanceList');
    expect(list).toHaveLength(1);
    expect((list[0]!.body as { variables: unknown }).variables).toEqual({ first: 100, skip: 0, locales: ['en'], targets: ['de', 'fr'] });
    expect(mock.requests.every((r) => r.method === 'POST' && r.headers.authorization === `Bearer ${mock.token}` && r.headers['content-type'] === 'application/json')).toBe(true);
  });

  it("reports what each locale holds now, and maps a Parlance locale to Hygraph's locale API ID with the locales setting", async () => {
    await mock.close();
    await start({ locales: ['en', 'de_CH', 'fr_FR'] });
    mock.edit('cart', 'de_CH', 'Ihr Warenkorb ist leer');
    const listing = await hygraph.list(context(mock, { settings: { locales: { de: 'de_CH' } } }));
    const cart = (listing.units[0] as StringUnit).strings.find((s) => s.key === key('cart'))!;
    expect(cart.translations).toEqual({ de: 'Ihr Warenkorb ist leer' });
    expect(listing.note).toMatch(/source locale en; fr, ja not among the environment's locales/);
  });

  it('reads page by page with first/skip until a short page', async () => {
    await mock.close();
    await start({ pageCap: 100 });
    // 205 entries: three pages of 100, 100, 5.
    for (let i = 0; i < 201; i++) mock.entries.set(`extra${i}`, { id: `extra${i}`, slug: `x${i}`, createdAt: '2026-11-20T09:12:44Z', updatedAt: '2026-11-20T09:12:44Z', values: new Map([['en', { title: `Extra ${i}`, subtitle: null, body: null }]]) });
    const listing = await hygraph.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(205);
    expect(operations(mock, 'ParlanceList').map((r) => (r.body as { variables: { skip: number } }).variables.skip)).toEqual([0, 100, 200]);
  });

  it("waits as long as Retry-After says on a 429, and retries a complexity refusal as 'unavailable'", async () => {
    mock.rateLimitNext(1);
    const listing = await hygraph.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    const [limited, next] = mock.requests;
    expect(limited!.status).toBe(429);
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(900);
    mock.complexityNext();
    const throttled = await rejection(hygraph.list(context(mock)));
    expect(throttled.kind).toBe('unavailable');
    expect(throttled.message).toMatch(/throttled.*complexity/);
  });

  it("a refused token is an 'auth' error quoting Hygraph; a model or field it does not have is a 'config' error naming it", async () => {
    const error = await rejection(hygraph.list(context(mock, { token: 'revoked' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/Permanent Auth Token \(HTTP 401: the provided token is invalid\)/);
    const model = await rejection(hygraph.list(context(mock, { settings: { models: [{ model: 'BlogPost' }] } })));
    expect(model.kind).toBe('config');
    expect(model.message).toMatch(/'BlogPost'.*BlogPostCreateLocalizationDataInput/);
    const field = await rejection(hygraph.list(context(mock, { settings: { models: [{ model: 'Article', fields: ['title', 'body'] }] } })));
    expect(field.kind).toBe('config');
    expect(field.message).toMatch(/field\(s\) 'body' of model 'Article'.*'title', 'subtitle'/);
    expect(() => hygraph.settings.parse({ endpoint: mock.endpoint, models: [{ model: 'Blog Post' }] })).toThrow(/model API ID/);
    expect(() => hygraph.settings.parse({ endpoint: 'not a url', models: [{ model: 'Article' }] })).toThrow(/endpoint/);
  });

  it("the API down is 'unavailable' (retried by the framework)", async () => {
    await mock.stop();
    const error = await rejection(hygraph.list(context(mock)));
    expect(error.kind).toBe('unavailable');
  });

  it('writes each entry once with a localizations upsert per locale; writing again changes nothing', async () => {
    const ctx = context(mock);
    const unit = (await hygraph.list(ctx)).units[0] as StringUnit;
    const writes = writesFor(unit, ['de', 'fr']);
    expect(await hygraph.write!(ctx, stringsWriteBack(unit, writes))).toEqual({ written: SEED.length * 2 });
    expect(mock.title('welcome', 'de')).toBe(`${key('welcome')} in de`);
    expect(mock.title('welcome', 'fr')).toBe(`${key('welcome')} in fr`);
    const mutations = operations(mock, 'ParlanceWrite');
    expect(mutations).toHaveLength(SEED.length);
    const welcome = mutations.find((r) => (r.body as { variables: { id: string } }).variables.id === mock.ids.get('welcome'))!;
    expect((welcome.body as { query: string }).query).toMatch(/\$data: ArticleUpdateInput!.*updateArticle\(where: \{ id: \$id \}, data: \$data\)/s);
    expect((welcome.body as { variables: unknown }).variables).toEqual({
      id: mock.ids.get('welcome'),
      data: { localizations: { upsert: ['de', 'fr'].map((locale) => ({ locale, create: { title: `${key('welcome')} in ${locale}` }, update: { title: `${key('welcome')} in ${locale}` } })) } },
    });
    mock.requests.length = 0;
    expect((await hygraph.write!(ctx, stringsWriteBack(unit, writes))).written).toBe(0);
    expect(operations(mock, 'ParlanceWrite')).toHaveLength(0);
    const relisted = (await hygraph.list(ctx)).units[0] as StringUnit;
    expect(relisted.strings.find((s) => s.key === key('welcome'))!.translations).toEqual({ de: `${key('welcome')} in de`, fr: `${key('welcome')} in fr` });
  });

  it('a translation a person changed between the listing and the write is not overwritten; a deleted entry is skipped with a note', async () => {
    const ctx = context(mock);
    const unit = (await hygraph.list(ctx)).units[0] as StringUnit;
    mock.edit('cart', 'de', 'Der Warenkorb ist leer (von Hand)');
    const farewell = mock.ids.get('farewell')!;
    mock.remove('farewell');
    const result = await hygraph.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result.written).toBe((SEED.length - 1) * 2 - 1);
    expect(result.note).toContain(`Not overwritten, changed in Hygraph since the listing: ${key('cart')} (de).`);
    expect(result.note).toContain(`Entries deleted in Hygraph since the listing, not written: ${farewell}.`);
    expect(mock.title('cart', 'de')).toBe('Der Warenkorb ist leer (von Hand)');
    expect(mock.title('cart', 'fr')).toBe(`${key('cart')} in fr`);
  });

  it("an entry deleted between the read and the mutation is reported, not an error; a field Hygraph does not have is a 'config' error naming the entry", async () => {
    const ctx = context(mock);
    const unit = (await hygraph.list(ctx)).units[0] as StringUnit;
    const welcome = mock.ids.get('welcome')!;
    mock.beforeNextMutation(() => mock.remove('welcome'));
    const result = await hygraph.write!(ctx, stringsWriteBack(unit, [{ key: key('welcome'), locale: 'de', text: 'Willkommen' }]));
    expect(result).toEqual({ written: 0, note: `Entries deleted in Hygraph since the listing, not written: ${welcome}.` });
    const refused = await rejection(hygraph.write!(ctx, { ...stringsWriteBack(unit, [{ key: key('cart'), locale: 'de', text: 'x' }]), strings: [{ path: 'Article', key: key('cart'), locale: 'de', text: 'x', ref: { ...(unit.strings.find((s) => s.key === key('cart'))!.ref as object), field: 'nope' } }] }));
    expect(refused.kind).toBe('config');
    expect(refused.message).toMatch(new RegExp(`Article entry '${mock.ids.get('cart')!}'.*Cannot query field "nope"`));
  });

  describe('webhooks', () => {
    const secret = 'whsec_parlance_hygraph_0123456789';
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    const settings = () => context(mock).settings;

    it('a call signed with the secret key starts a sync', () => {
      expect(hygraph.verifyWebhook!(request(mock.webhook('cart', secret)), secret, settings())).toEqual({ verified: true, sync: true });
    });

    it('a forged, unsigned or stale signature is refused', () => {
      expect(hygraph.verifyWebhook!(request(mock.webhook('cart', 'not-the-secret')), secret, settings())).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/does not match/) });
      const bare = mock.webhook('cart', secret);
      delete bare.headers['gcms-signature'];
      expect(hygraph.verifyWebhook!(request(bare), secret, settings())).toMatchObject({ verified: false, reason: expect.stringMatching(/no gcms-signature/) });
      const stale = mock.webhook('cart', secret, { at: Date.now() - 10 * 60_000 });
      expect(hygraph.verifyWebhook!(request(stale), secret, settings())).toMatchObject({ verified: false, reason: expect.stringMatching(/600 s old/) });
      // The same call, a body changed after signing.
      const tampered = mock.webhook('cart', secret);
      expect(hygraph.verifyWebhook!(request({ ...tampered, body: tampered.body.replace('update', 'delete') }), secret, settings())).toMatchObject({ verified: false });
      expect(verifyHygraphWebhook(request(mock.webhook('cart', secret, { at: 1_000 })), secret, settings(), 1_000 + 60_000)).toEqual({ verified: true, sync: true });
    });

    it('a signed body with & < > verifies as hygraph-utils signs it', () => {
      mock.edit('cart', 'en', 'Cart & <checkout>');
      expect(hygraph.verifyWebhook!(request(mock.webhook('cart', secret)), secret, settings())).toEqual({ verified: true, sync: true });
    });

    it('calls about another model do not start a sync', () => {
      expect(hygraph.verifyWebhook!(request(mock.webhook('cart', secret, { typename: 'Author' })), secret, settings())).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/'Author'/) });
    });
  });
});

connectorAcceptance('Hygraph through the service', hygraphFixture, { direction: 'two_way' });
