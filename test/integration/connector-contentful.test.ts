/** The Contentful connector against a local Content Management API (test/helpers/connector-mocks/contentful.ts). */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { contentful, type ContentfulSettings } from '../../server/integrations/connectors/contentful.js';
import { connectorAcceptance, KIT_ENV, SEED, waitForSync, type ConnectionBody, type SyncBody } from '../helpers/connector-kit.js';
import { contentfulFixture, startContentfulMock, type ContentfulMock, type ContentfulMockOptions } from '../helpers/connector-mocks/contentful.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { startService, type TestService } from '../helpers/service.js';

const context = (mock: ContentfulMock, overrides: { settings?: Partial<ContentfulSettings>; token?: string } = {}) =>
  connectorContext(contentful, { api_url: mock.url, space_id: mock.spaceId, ...overrides.settings }, { management_token: overrides.token ?? mock.token }, { maxRetries: 1 });

/** A write per listed string and locale, with a recognisable text. */
const writesFor = (unit: StringUnit, locales: string[]) => unit.strings.flatMap((s) => locales.map((locale) => ({ key: s.key, locale, text: `${s.key} in ${locale}` })));

describe('Contentful connector', () => {
  let mock: ContentfulMock;
  const start = async (options?: ContentfulMockOptions) => {
    mock = await startContentfulMock(options);
  };
  beforeEach(() => start({ maxLimit: 1 }));
  afterEach(() => mock.close());

  it('lists each localized text field of each entry, page by page, and skips locales the space does not have', async () => {
    const listing = await contentful.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as StringUnit;
    expect(unit).toMatchObject({ kind: 'strings', path: 'article', locales: ['de', 'fr'] });
    // Only `title`: `slug` is not localized and `featured` is not text.
    expect(unit.strings.map((s) => s.key).sort()).toEqual(SEED.map((s) => `${s.id}.title`).sort());
    const welcome = unit.strings.find((s) => s.key === 'welcome.title')!;
    expect(welcome).toMatchObject({ source: 'Welcome to our store', notes: 'Headline', maxLength: 120, context: 'Article: Welcome to our store', translations: {} });
    expect(listing.note).toMatch(/ja not in the space, skipped/);
    // One entry a page (the server's cap), so four pages of entries, each asked with the next `skip`.
    const entryPages = mock.requests.filter((r) => r.path.endsWith('/entries'));
    expect(entryPages.map((r) => r.query.skip)).toEqual(['0', '1', '2', '3']);
    expect(entryPages.every((r) => r.query.content_type === 'article')).toBe(true);
  });

  it("reports what each locale holds now, and maps a Parlance locale to the space's code with the locales setting", async () => {
    await mock.close();
    await start({ locales: ['en-US', 'de-DE', 'fr-FR'] });
    mock.edit('cart', 'de-DE', 'Ihr Warenkorb ist leer');
    const listing = await contentful.list(context(mock, { settings: { locales: { de: 'de-DE' } } }));
    const cart = (listing.units[0] as StringUnit).strings.find((s) => s.key === 'cart.title')!;
    expect(cart.translations).toEqual({ de: 'Ihr Warenkorb ist leer' });
    // fr-FR is not fr (and not mapped), so fr is skipped with ja.
    expect(listing.note).toMatch(/source locale en-US; fr, ja not in the space/);
  });

  it('waits out a 429 and carries on', async () => {
    mock.rateLimitNext(1);
    const listing = await contentful.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    const [limited, next] = mock.requests;
    expect(limited!.status).toBe(429);
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(900);
  });

  it('waits as long as X-Contentful-RateLimit-Reset says', async () => {
    mock.rateLimitNext(3);
    await contentful.list(context(mock));
    const [limited, next] = mock.requests;
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(2900);
  });

  it("refused credentials are an 'auth' error quoting Contentful", async () => {
    const error = await rejection(contentful.list(context(mock, { token: 'CFPAT-revoked' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401: The access token you sent could not be found or is invalid/);
  });

  it("a space or environment the token does not reach is a 'config' error naming it", async () => {
    const space = await rejection(contentful.list(context(mock, { settings: { space_id: 'nosuchspace' } })));
    expect(space.kind).toBe('config');
    expect(space.message).toMatch(/space 'nosuchspace'.*HTTP 404: The resource could not be found/);
    const environment = await rejection(contentful.list(context(mock, { settings: { environment_id: 'staging' } })));
    expect(environment.message).toMatch(/environment 'staging'/);
    const type = await rejection(contentful.list(context(mock, { settings: { content_types: ['article', 'blogPost'] } })));
    expect(type.kind).toBe('config');
    expect(type.message).toMatch(/'blogPost'.*it has 'article'/);
  });

  it("the API down is 'unavailable' (retried by the framework)", async () => {
    await mock.stop();
    const error = await rejection(contentful.list(context(mock)));
    expect(error.kind).toBe('unavailable');
  });

  it('writes translations into the entries, keeping every other field, and writing again changes nothing', async () => {
    const ctx = context(mock);
    const unit = (await contentful.list(ctx)).units[0] as StringUnit;
    const writes = writesFor(unit, ['de', 'fr']);
    const result = await contentful.write!(ctx, stringsWriteBack(unit, writes));
    expect(result.written).toBe(SEED.length * 2);
    expect(result.note).toBeUndefined();
    const welcome = mock.entries.get('welcome')!;
    expect(welcome.fields.title).toEqual({ en: 'Welcome to our store', de: 'welcome.title in de', fr: 'welcome.title in fr' });
    expect(welcome.fields.slug).toEqual({ en: 'welcome' });
    // One read and one PUT per entry, with the version just read and Contentful's media type.
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(SEED.length);
    expect(puts.every((r) => r.headers['x-contentful-version'] === '1' && r.headers['content-type'] === 'application/vnd.contentful.management.v1+json')).toBe(true);
    expect(welcome.version).toBe(2);

    mock.requests.length = 0;
    const again = await contentful.write!(ctx, stringsWriteBack(unit, writes));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(welcome.version).toBe(2);
    const relisted = (await contentful.list(ctx)).units[0] as StringUnit;
    expect(relisted.strings.find((s) => s.key === 'welcome.title')!.translations).toEqual({ de: 'welcome.title in de', fr: 'welcome.title in fr' });
  });

  it('a translation a person changed between the listing and the write is not overwritten', async () => {
    const ctx = context(mock);
    const unit = (await contentful.list(ctx)).units[0] as StringUnit;
    mock.edit('cart', 'de', 'Der Warenkorb ist leer (von Hand)');
    const result = await contentful.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result.written).toBe(SEED.length * 2 - 1);
    expect(result.note).toMatch(/Not overwritten, changed in Contentful since the listing: cart\.title \(de\)/);
    expect(mock.entries.get('cart')!.fields.title).toMatchObject({ de: 'Der Warenkorb ist leer (von Hand)', fr: 'cart.title in fr' });
  });

  it('a 409 VersionMismatch: the entry is read again, a value changed meanwhile is kept, the rest is written', async () => {
    const ctx = context(mock);
    const unit = (await contentful.list(ctx)).units[0] as StringUnit;
    const welcomeOnly = writesFor(unit, ['de', 'fr']).filter((w) => w.key === 'welcome.title');
    mock.beforeNextPut(() => mock.edit('welcome', 'de', 'Willkommen (von Hand)'));
    const result = await contentful.write!(ctx, stringsWriteBack(unit, welcomeOnly));
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([409, 200]);
    expect(puts[1]!.headers['x-contentful-version']).toBe('2');
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/welcome\.title \(de\)/);
    expect(mock.entries.get('welcome')!.fields.title).toMatchObject({ de: 'Willkommen (von Hand)', fr: 'welcome.title in fr' });
  });

  describe('webhooks', () => {
    const secret = 'whsec_parlance_contentful_0123456789';
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });

    it('a notification with the secret header starts a sync', () => {
      expect(contentful.verifyWebhook!(request(mock.webhook('cart', secret)), secret, context(mock).settings)).toEqual({ verified: true, sync: true });
    });

    it('a wrong or missing secret header is refused', () => {
      const forged = contentful.verifyWebhook!(request(mock.webhook('cart', 'not-the-secret')), secret, context(mock).settings);
      expect(forged).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/does not match/) });
      const hook = mock.webhook('cart', secret);
      delete hook.headers['x-parlance-webhook-secret'];
      expect(contentful.verifyWebhook!(request(hook), secret, context(mock).settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/nor an X-Parlance-Webhook-Secret header/) });
    });

    it("Contentful's request verification: a signed notification starts a sync; another secret, a changed body, another path or an old one does not", () => {
      const signingSecret = 'a'.repeat(64);
      const path = '/hooks/integrations/con_test?source=contentful';
      const signed = (hook: { headers: Record<string, string>; body: string }, at = path) => ({ ...request(hook), method: 'POST', path: at });
      const settings = context(mock).settings;
      expect(contentful.verifyWebhook!(signed(mock.signedWebhook('cart', signingSecret, path)), signingSecret, settings)).toEqual({ verified: true, sync: true });
      expect(contentful.verifyWebhook!(signed(mock.signedWebhook('cart', 'b'.repeat(64), path)), signingSecret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
      const tampered = mock.signedWebhook('cart', signingSecret, path);
      tampered.body = tampered.body.replace('cart', 'carts');
      expect(contentful.verifyWebhook!(signed(tampered), signingSecret, settings).verified).toBe(false);
      expect(contentful.verifyWebhook!(signed(mock.signedWebhook('cart', signingSecret, path), '/hooks/integrations/con_other'), signingSecret, settings).verified).toBe(false);
      const old = contentful.verifyWebhook!(signed(mock.signedWebhook('cart', signingSecret, path, Date.now() - 5 * 60_000)), signingSecret, settings);
      expect(old).toMatchObject({ verified: false, reason: expect.stringMatching(/s old/) });
    });

    it('topics and spaces that change nothing here do not start a sync', () => {
      const settings = context(mock).settings;
      expect(contentful.verifyWebhook!(request(mock.webhook('cart', secret, 'ContentManagement.Asset.publish')), secret, settings)).toMatchObject({ verified: true, sync: false });
      expect(contentful.verifyWebhook!(request(mock.webhook('cart', secret)), secret, { ...settings, space_id: 'otherspace' })).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/yadj1kx9rmg0/) });
      expect(contentful.verifyWebhook!(request(mock.webhook('cart', secret)), secret, { ...settings, content_types: ['page'] })).toMatchObject({ verified: true, sync: false });
    });
  });
});

describe("Contentful's request verification through the service's notification address", () => {
  // The space's signing secret (Settings → Webhooks → Request verification), given as the connection's webhook secret.
  const signingSecret = 'Qm9vc3RlZC1zaWduaW5nLXNlY3JldC0wMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OQ';
  let service: TestService;
  let mock: ContentfulMock;
  let connection: ConnectionBody;
  beforeAll(async () => {
    [service, mock] = await Promise.all([startService({ env: KIT_ENV }), startContentfulMock()]);
    const res = await service.api('/v1/integrations/contentful', { method: 'POST', json: { settings: { api_url: mock.url, space_id: mock.spaceId }, secrets: { management_token: mock.token }, webhook_secret: signingSecret, sync: false } });
    connection = (await res.json()) as ConnectionBody;
    expect(res.status, JSON.stringify(connection)).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await service?.stop();
  });

  /** POSTs a notification to `url` as Contentful sends it. */
  const send = (url: string, hook: { headers: Record<string, string>; body: string }) => fetch(url, { method: 'POST', headers: hook.headers, body: hook.body });

  it('a notification signed for this address starts a sync that imports the strings; forged, altered, misdirected or old ones are refused', async () => {
    // Contentful signs the path with its query, as it requests it.
    const url = `${connection.webhook_url}?from=contentful`;
    const { pathname, search } = new URL(url);
    const path = `${pathname}${search}`;
    const refused = async (hook: { headers: Record<string, string>; body: string }, at = url) => {
      const res = await send(at, hook);
      return { status: res.status, body: (await res.json()) as { code: string; detail: string } };
    };
    expect(await refused(mock.signedWebhook('cart', 'another-signing-secret-0123456789', path))).toMatchObject({ status: 401, body: { code: 'signature_invalid', detail: expect.stringMatching(/x-contentful-signature does not match/) } });
    const altered = mock.signedWebhook('cart', signingSecret, path);
    altered.body = altered.body.replace('Your cart is empty', 'Your cart is full');
    expect((await refused(altered)).status).toBe(401);
    // Signed for another address of this service (without the query): not this request.
    expect((await refused(mock.signedWebhook('cart', signingSecret, pathname))).status).toBe(401);
    expect(await refused(mock.signedWebhook('cart', signingSecret, path, Date.now() - 5 * 60_000))).toMatchObject({ status: 401, body: { detail: expect.stringMatching(/s old/) } });
    const none = await service.api(`/v1/integrations/contentful/${connection.id}/syncs`);
    expect(((await none.json()) as { items: SyncBody[] }).items).toEqual([]);

    const accepted = await send(url, mock.signedWebhook('cart', signingSecret, path));
    const hook = (await accepted.json()) as { sync: SyncBody | null };
    expect(accepted.status, JSON.stringify(hook)).toBe(202);
    expect(hook.sync).toMatchObject({ trigger: 'webhook' });
    const sync = await waitForSync(service, 'contentful', connection.id, hook.sync!.id);
    expect(sync.status, JSON.stringify(sync)).toBe('succeeded');
    expect(sync.counts.added).toBe(SEED.length);
  }, 120_000);
});

connectorAcceptance('Contentful through the service', contentfulFixture, { direction: 'two_way' });
