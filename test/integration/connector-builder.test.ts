/** The Builder.io connector against a local Builder: listing over pages, write-back, refusals, the down server, webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { builder } from '../../server/integrations/connectors/builder.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { BUILDER_LOCALES, BUILDER_MODEL, builderFixture, builderWebhook, startBuilderMock, type BuilderMock } from '../helpers/connector-mocks/builder.js';

const context = (mock: BuilderMock, overrides: { publicKey?: string; privateKey?: string; fields?: string[] } = {}) =>
  connectorContext(
    builder,
    { model: BUILDER_MODEL, fields: overrides.fields ?? ['title'], locales: BUILDER_LOCALES, content_api_url: mock.url, write_api_url: mock.url },
    { public_api_key: overrides.publicKey ?? mock.publicKey, private_key: overrides.privateKey ?? mock.privateKey },
  );

describe('Builder.io connector', () => {
  let mock: BuilderMock;
  beforeAll(async () => {
    mock = await startBuilderMock({ extraEntries: 246 });
  });
  afterAll(async () => {
    await mock.close();
  });
  const key = (id: string) => `${mock.entries.get(id)!}.title`;

  it('lists every entry (drafts too) over pages of 100, mapping de-DE/fr-FR and skipping ja', async () => {
    mock.requests.length = 0;
    const listing = await builder.list(context(mock));
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe(BUILDER_MODEL);
    expect(unit.locales).toEqual(['de', 'fr']);
    expect(unit.strings).toHaveLength(SEED.length + 246);
    expect(unit.strings.find((s) => s.key === key('farewell'))).toMatchObject({ source: 'See you soon', context: `${BUILDER_MODEL}: farewell (title)`, translations: {} });
    const pages = mock.requests.filter((r) => r.path === `/api/v3/content/${BUILDER_MODEL}`);
    expect(pages.map((r) => r.query.get('offset'))).toEqual(['0', '100', '200']);
    expect(pages.every((r) => r.query.get('limit') === '100' && r.query.get('includeUnpublished') === 'true' && r.query.get('sort.createdDate') === '1' && r.query.get('apiKey') === mock.publicKey)).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.privateKey}`)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('writes both locales of an entry in one PATCH of the whole localized value, and writing again changes nothing', async () => {
    const id = mock.entries.get('welcome')!;
    mock.setTitle(id, 'fr-FR', 'Bienvenue');
    const unit = (await builder.list(context(mock))).units[0] as StringUnit;
    expect(unit.strings.find((s) => s.key === key('welcome'))!.translations).toEqual({ fr: 'Bienvenue' });
    mock.requests.length = 0;
    const rows = [
      { key: key('welcome'), locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: key('welcome'), locale: 'fr', text: 'Bienvenue dans notre boutique' },
    ];
    const first = await builder.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(2);
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.path).toBe(`/api/v1/write/${BUILDER_MODEL}/${id}`);
    expect(patches[0]!.body).toEqual({ data: { title: { '@type': '@builder.io/core:LocalizedValue', Default: 'Welcome to our store', 'de-DE': 'Willkommen in unserem Laden', 'fr-FR': 'Bienvenue dans notre boutique' } } });
    expect(mock.entry(id)!.data.slug).toBe('welcome');
    mock.requests.length = 0;
    const again = await builder.write!(context(mock), stringsWriteBack(unit, rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  });

  it('never overwrites a slot a person changed after the listing, nor writes a field whose Default changed, and says so', async () => {
    const cart = mock.entries.get('cart')!;
    const checkout = mock.entries.get('checkout')!;
    const unit = (await builder.list(context(mock))).units[0] as StringUnit;
    mock.setTitle(cart, 'de-DE', 'Warenkorb: leer (von Hand)');
    mock.setTitle(checkout, 'Default', 'Go to checkout');
    const result = await builder.write!(
      context(mock),
      stringsWriteBack(unit, [
        { key: key('cart'), locale: 'de', text: 'Ihr Warenkorb ist leer' },
        { key: key('cart'), locale: 'fr', text: 'Votre panier est vide' },
        { key: key('checkout'), locale: 'de', text: 'Zur Kasse gehen' },
      ]),
    );
    expect(result.written).toBe(1);
    expect(result.note).toMatch(new RegExp(`${cart}\\.title \\(de\\)`));
    expect(result.note).toMatch(new RegExp(`Default text changed.*${checkout}\\.title`));
    expect(mock.title(cart, 'de-DE')).toBe('Warenkorb: leer (von Hand)');
    expect(mock.title(cart, 'fr-FR')).toBe('Votre panier est vide');
    expect(mock.title(checkout, 'de-DE')).toBeUndefined();
    mock.setTitle(checkout, 'Default', 'Proceed to checkout');
  });

  it('an entry deleted after the listing is reported, not written, and the others still are', async () => {
    const extra = (await builder.list(context(mock))).units[0] as StringUnit;
    const gone = extra.strings.find((s) => s.source === 'Extra article 7')!;
    const kept = extra.strings.find((s) => s.source === 'Extra article 8')!;
    mock.remove(gone.key.split('.')[0]!);
    const result = await builder.write!(context(mock), stringsWriteBack(extra, [
      { key: gone.key, locale: 'de', text: 'Zusatzartikel 7' },
      { key: kept.key, locale: 'de', text: 'Zusatzartikel 8' },
    ]));
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/no longer exists/);
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1, 1);
    const started = Date.now();
    const listing = await builder.list(context(mock));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((listing.units[0] as StringUnit).strings.length).toBeGreaterThan(SEED.length);
    expect(mock.requests[0]!.path).toBe(mock.requests[1]!.path);
  });

  it("a refused private key or public key is an 'auth' error quoting Builder", async () => {
    const priv = await rejection(builder.list(context(mock, { privateKey: 'wrong' })));
    expect(priv.kind).toBe('auth');
    expect(priv.message).toMatch(/locales.*HTTP 401: Unauthorized: invalid private key/);
    const pub = await rejection(builder.list(context(mock, { publicKey: 'wrong' })));
    expect(pub.kind).toBe('auth');
    expect(pub.message).toMatch(/'blog-article'.*HTTP 401: Invalid apiKey/);
  });

  it("a configured field that is not localized is a 'config' error naming it; bad settings are refused by the schema", async () => {
    const error = await rejection(builder.list(context(mock, { fields: ['slug'] })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/field 'slug' is not a localized value \(it holds plain text\)/);
    expect(builder.settings.safeParse({ model: 'blog article', fields: ['title'] }).success).toBe(false);
    expect(builder.settings.safeParse({ model: BUILDER_MODEL, fields: [] }).success).toBe(false);
  });

  it("a server that does not answer is 'unavailable', and fine once it is back", async () => {
    await mock.stop();
    try {
      const error = await rejection(builder.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await builder.list(context(mock))).units).toHaveLength(1);
  });

  it('accepts the webhook carrying the secret header and refuses a forged or bare one; another model starts no sync', () => {
    const settings = context(mock).settings;
    const entry = mock.entry(mock.entries.get('cart')!);
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    expect(builder.verifyWebhook!(request(builderWebhook('s3cret', entry)), 's3cret', settings)).toEqual({ verified: true, sync: true });
    expect(builder.verifyWebhook!(request(builderWebhook('guess', entry)), 's3cret', settings).verified).toBe(false);
    expect(builder.verifyWebhook!(request(builderWebhook(undefined, entry)), 's3cret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Parlance-Webhook-Secret/) });
    expect(builder.verifyWebhook!(request(builderWebhook('s3cret', entry, 'page')), 's3cret', settings)).toMatchObject({ verified: true, sync: false });
  });
});

connectorAcceptance('Builder.io acceptance', builderFixture, { direction: 'two_way' });
