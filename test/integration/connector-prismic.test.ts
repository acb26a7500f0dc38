/** The Prismic connector against a local Content API and Migration API (test/helpers/connector-mocks/prismic.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { prismic, type PrismicSettings } from '../../server/integrations/connectors/prismic.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { prismicFixture, startPrismicMock, textOf, type PrismicMock, type PrismicMockOptions } from '../helpers/connector-mocks/prismic.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: PrismicMock, overrides: { settings?: Partial<PrismicSettings>; secrets?: Record<string, string> } = {}) =>
  connectorContext(
    prismic,
    { repository: mock.repository, api_url: `${mock.url}/api/v2`, migration_url: `${mock.url}/migration`, fields: ['title', 'summary'], write_interval_ms: 0, ...overrides.settings },
    { access_token: mock.accessToken, write_token: mock.writeToken, migration_api_key: mock.apiKey, ...overrides.secrets },
    { maxRetries: 1 },
  );

const writesFor = (unit: StringUnit, locales: string[]) => unit.strings.flatMap((s) => locales.map((locale) => ({ key: s.key, locale, text: `${s.key} in ${locale}` })));
const migrationWrites = (mock: PrismicMock) => mock.requests.filter((r) => r.path.startsWith('/migration/'));

describe('Prismic connector', () => {
  let mock: PrismicMock;
  const start = async (options?: PrismicMockOptions) => {
    mock = await startPrismicMock(options);
    // A Key Text field and a formatted rich text block on one page.
    mock.documents.get('welcome')!.published!.summary = 'Fresh produce every day';
    mock.documents.get('cart')!.published!.title = [{ type: 'heading1', text: 'Your cart is empty', spans: [] }, { type: 'paragraph', text: 'Add something nice', spans: [{ start: 4, end: 13, type: 'strong' }] }];
  };
  beforeEach(() => start({ maxPageSize: 2 }));
  afterEach(() => mock.close());

  it('lists Title blocks and Key Text fields of the master-language documents, page by page, mapping de → de-de and skipping ja', async () => {
    const listing = await prismic.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as StringUnit;
    expect(unit).toMatchObject({ kind: 'strings', path: 'page', locales: ['de', 'fr'] });
    expect(unit.strings.map((s) => s.key).sort()).toEqual([...SEED.map((s) => `${s.id}.title.0`), 'welcome.summary'].sort());
    expect(unit.strings.find((s) => s.key === 'welcome.summary')).toMatchObject({ source: 'Fresh produce every day', context: 'page: welcome', notes: "Prismic Key Text field 'summary'", translations: {} });
    expect(listing.note).toMatch(/4 en-us documents .* read through release 'Migration release'; ja not a language of the repository.*; 1 rich text blocks with formatting \(spans\) left out\./);
    const pages = mock.requests.filter((r) => r.path.endsWith('/documents/search'));
    expect(pages.map((r) => r.query.page)).toEqual(['1', '2']);
    expect(pages.every((r) => r.query.lang === '*' && r.query.access_token === mock.accessToken)).toBe(true);
  });

  it('reports what each language holds now; types narrows the query; an unknown release is a config error naming it', async () => {
    mock.edit('cart', 'de-de', 'Ihr Warenkorb ist leer');
    const listing = await prismic.list(context(mock, { settings: { types: ['page'] } }));
    const cart = (listing.units[0] as StringUnit).strings.find((s) => s.key === 'cart.title.0')!;
    expect(cart.translations).toEqual({ de: 'Ihr Warenkorb ist leer' });
    expect(mock.requests.at(-1)!.query.q).toBe('[[any(document.type,["page"])]]');
    const missing = await rejection(prismic.list(context(mock, { settings: { release: 'Spring sale' } })));
    expect(missing.kind).toBe('config');
    expect(missing.message).toMatch(/release setting names 'Spring sale'.*'Migration release'/);
  });

  it('waits out a 429 by its Retry-After', async () => {
    mock.rateLimitNext(1);
    await prismic.list(context(mock));
    const [limited, next] = mock.requests;
    expect(limited!.status).toBe(429);
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(900);
  });

  it("refused credentials are 'auth' errors quoting Prismic; the API down is 'unavailable'", async () => {
    const read = await rejection(prismic.list(context(mock, { secrets: { access_token: 'revoked' } })));
    expect(read.kind).toBe('auth');
    expect(read.message).toMatch(/HTTP 401: Invalid access token/);
    const ctx = context(mock, { secrets: { write_token: 'revoked' } });
    const unit = (await prismic.list(ctx)).units[0] as StringUnit;
    const written = await rejection(prismic.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de']).slice(0, 1))));
    expect(written.kind).toBe('auth');
    expect(written.message).toMatch(/Migration API.*HTTP 401: Unauthorized/);
    await mock.stop();
    expect((await rejection(prismic.list(context(mock)))).kind).toBe('unavailable');
  });

  it('creates each translation once with lang and alternate_language_id, updates it with PUT, and writing again changes nothing', async () => {
    const ctx = context(mock);
    const unit = (await prismic.list(ctx)).units[0] as StringUnit;
    const result = await prismic.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result.written).toBe((SEED.length + 1) * 2);
    const posts = migrationWrites(mock);
    expect(posts).toHaveLength(SEED.length * 2);
    expect(posts.every((r) => r.method === 'POST' && r.headers.authorization === `Bearer ${mock.writeToken}` && r.headers['x-api-key'] === mock.apiKey && r.headers.repository === mock.repository)).toBe(true);
    expect(posts[0]!.body).toMatchObject({ type: 'page', lang: 'de-de', alternate_language_id: 'welcome', uid: 'welcome', data: { title: [{ type: 'heading1', text: 'welcome.title.0 in de', spans: [] }], summary: 'welcome.summary in de', code: 'welcome' } });
    // The formatted block is copied blank, the plain one translated.
    expect(mock.held('cart', 'de-de')).toEqual([{ type: 'heading1', text: 'cart.title.0 in de', spans: [] }, { type: 'paragraph', text: '', spans: [] }]);

    mock.requests.length = 0;
    const again = await prismic.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(again.written).toBe(0);
    expect(migrationWrites(mock)).toHaveLength(0);

    const relisted = (await prismic.list(ctx)).units[0] as StringUnit;
    const welcome = relisted.strings.find((s) => s.key === 'welcome.title.0')!;
    expect(welcome.translations).toEqual({ de: 'welcome.title.0 in de', fr: 'welcome.title.0 in fr' });
    mock.requests.length = 0;
    await prismic.write!(ctx, stringsWriteBack(relisted, [{ key: 'welcome.title.0', locale: 'de', text: 'Willkommen' }]));
    const [put] = migrationWrites(mock);
    expect(put).toMatchObject({ method: 'PUT', path: `/migration/documents/${mock.translationOf('welcome', 'de-de')!.id}` });
    expect(textOf(mock.held('welcome', 'de-de'))).toBe('Willkommen');
    expect(mock.held('welcome', 'de-de', 'summary')).toBe('welcome.summary in de');
    expect([...mock.documents.values()].filter((d) => d.lang === 'de-de')).toHaveLength(SEED.length);
  });

  it('paces Migration API writes to one a second (the vendor refuses faster ones)', async () => {
    await mock.close();
    await start({ minWriteIntervalMs: 900 });
    const ctx = context(mock, { settings: { write_interval_ms: 1000 } });
    const unit = (await prismic.list(ctx)).units[0] as StringUnit;
    const rows = writesFor(unit, ['de']).filter((w) => w.key.startsWith('welcome') || w.key.startsWith('farewell'));
    await prismic.write!(ctx, stringsWriteBack(unit, rows));
    const writes = migrationWrites(mock);
    expect(writes.map((r) => r.status)).toEqual([201, 201]);
    expect(writes[1]!.at - writes[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('a translation a person changed since the listing is kept; a deleted document is reported', async () => {
    const ctx = context(mock);
    const unit = (await prismic.list(ctx)).units[0] as StringUnit;
    mock.edit('checkout', 'de-de', 'Zur Kasse (von Hand)');
    mock.documents.delete('farewell');
    const result = await prismic.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de']).filter((w) => w.key.endsWith('title.0'))));
    expect(result.written).toBe(2);
    expect(result.note).toMatch(/Not overwritten, changed in Prismic since the listing: checkout\.title\.0 \(de-de\)/);
    expect(result.note).toMatch(/no longer in Prismic repository 'parlance-shop', skipped: farewell/);
    expect(textOf(mock.held('checkout', 'de-de'))).toBe('Zur Kasse (von Hand)');
  });

  describe('webhooks', () => {
    const secret = 'prismic-webhook-secret-0123456789';
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });

    it('the secret in the body starts a sync; a forged or missing one is refused; a test trigger or another repository does nothing', () => {
      const settings = context(mock).settings;
      expect(prismic.verifyWebhook!(request(mock.webhook(secret)), secret, settings)).toEqual({ verified: true, sync: true });
      expect(prismic.verifyWebhook!(request(mock.webhook('forged')), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
      const bare = JSON.parse(mock.webhook(secret).body) as Record<string, unknown>;
      delete bare.secret;
      expect(prismic.verifyWebhook!(request({ headers: {}, body: JSON.stringify(bare) }), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/no secret/) });
      expect(prismic.verifyWebhook!(request({ headers: {}, body: 'not json' }), secret, settings).verified).toBe(false);
      expect(prismic.verifyWebhook!(request(mock.webhook(secret, 'test-trigger')), secret, settings)).toMatchObject({ verified: true, sync: false });
      expect(prismic.verifyWebhook!(request(mock.webhook(secret)), secret, { ...settings, repository: 'another-repo' })).toMatchObject({ verified: true, sync: false });
    });
  });
});

connectorAcceptance('Prismic through the service', prismicFixture, { direction: 'two_way' });
