/** The Contentstack connector against a local stack: listing over pages, localizing entries, refusals, locales, webhooks. */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { contentstack } from '../../server/integrations/connectors/contentstack.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { contentstackFixture, contentstackSignedWebhook, contentstackWebhook, CONTENTSTACK_LOCALES, CONTENTSTACK_TYPE, startContentstackMock, type ContentstackMock } from '../helpers/connector-mocks/contentstack.js';

const EXTRA = 150;
const context = (mock: ContentstackMock, overrides: { token?: string; apiKey?: string; types?: string[]; create?: boolean } = {}) =>
  connectorContext(
    contentstack,
    { api_url: mock.url, api_key: overrides.apiKey ?? mock.apiKey, content_types: overrides.types ?? [CONTENTSTACK_TYPE], locales: CONTENTSTACK_LOCALES, ...(overrides.create ? { create_locales: true } : {}) },
    { management_token: overrides.token ?? mock.token },
  );

describe('Contentstack connector', () => {
  let mock: ContentstackMock;
  beforeAll(async () => {
    mock = await startContentstackMock({ extraEntries: EXTRA });
  });
  afterAll(async () => {
    await mock.close();
  });
  const key = (id: string) => `${mock.entries.get(id)!}.title`;

  it('lists plain text fields of every entry over pages, with limits and notes, mapping en-us/de-de/fr-fr and skipping ja', async () => {
    mock.requests.length = 0;
    const listing = await contentstack.list(context(mock));
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe(CONTENTSTACK_TYPE);
    expect(unit.locales).toEqual(['de', 'fr']);
    // Titles of all entries, summaries of the extra ones; never the rich text body, the multiple keywords, the sku or the url.
    expect(unit.strings).toHaveLength(SEED.length + 2 * EXTRA);
    expect(new Set(unit.strings.map((s) => s.key.split('.')[1]))).toEqual(new Set(['title', 'summary']));
    expect(unit.strings.find((s) => s.key === key('welcome'))).toMatchObject({ source: 'Welcome to our store', maxLength: 100, translations: {}, context: 'Blog post › Welcome to our store › Title' });
    expect(unit.strings.find((s) => s.key.endsWith('.summary'))!.notes).toBe('Shown under the title in lists');
    const pages = mock.requests.filter((r) => r.path === `/v3/content_types/${CONTENTSTACK_TYPE}/entries` && r.query.locale === 'en-us');
    expect(pages.map((r) => r.query.skip)).toEqual(['0', '100']);
    expect(pages.every((r) => r.query.limit === '100' && r.query.include_count === 'true')).toBe(true);
    expect(mock.requests.every((r) => r.apiKey === mock.apiKey && r.authorization === mock.token)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('localizes an entry with one PUT per locale, keeps its other fields, and writing again changes nothing', async () => {
    const uid = mock.entries.get('welcome')!;
    const unit = (await contentstack.list(context(mock))).units[0] as StringUnit;
    mock.requests.length = 0;
    const rows = [
      { key: key('welcome'), locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: key('welcome'), locale: 'fr', text: 'Bienvenue dans notre boutique' },
    ];
    const first = await contentstack.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(2);
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.query.locale)).toEqual(['de-de', 'fr-fr']);
    expect((puts[0]!.body as { entry: Record<string, unknown> }).entry).toMatchObject({ title: 'Willkommen in unserem Laden', url: `/blog/${uid}`, body: '<p>Body</p>' });
    expect(mock.field(uid, 'de-de', 'title')).toBe('Willkommen in unserem Laden');
    expect(mock.field(uid, 'fr-fr', 'title')).toBe('Bienvenue dans notre boutique');
    expect(mock.field(uid, 'en-us', 'title')).toBe('Welcome to our store');
    mock.requests.length = 0;
    const again = await contentstack.write!(context(mock), stringsWriteBack(unit, rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    // The next listing reads the localized versions back as translations.
    const listed = ((await contentstack.list(context(mock))).units[0] as StringUnit).strings.find((s) => s.key === key('welcome'));
    expect(listed!.translations).toEqual({ de: 'Willkommen in unserem Laden', fr: 'Bienvenue dans notre boutique' });
  });

  it('never overwrites a translation a person changed in Contentstack between the listing and the write, and skips a deleted entry', async () => {
    const unit = (await contentstack.list(context(mock))).units[0] as StringUnit;
    const cart = mock.entries.get('cart')!;
    mock.setField(cart, 'de-de', 'title', 'Warenkorb: leer (von Hand)');
    mock.remove(mock.entries.get('farewell')!);
    const result = await contentstack.write!(
      context(mock),
      stringsWriteBack(unit, [
        { key: key('cart'), locale: 'de', text: 'Ihr Warenkorb ist leer' },
        { key: key('farewell'), locale: 'de', text: 'Bis bald' },
      ]),
    );
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`${cart}\\.title \\(de\\)`));
    expect(result.note).toMatch(/gone from Contentstack/);
    expect(mock.field(cart, 'de-de', 'title')).toBe('Warenkorb: leer (von Hand)');
  });

  it('adds a missing locale with create_locales, falling back to the source locale', async () => {
    mock.requests.length = 0;
    const unit = (await contentstack.list(context(mock, { create: true }))).units[0] as StringUnit;
    expect(unit.locales).toEqual(['de', 'fr', 'ja']);
    const post = mock.requests.find((r) => r.method === 'POST' && r.path === '/v3/locales');
    expect(post?.body).toEqual({ locale: { code: 'ja-jp', fallback_locale: 'en-us' } });
    expect(mock.locales).toContain('ja-jp');
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.requests.length = 0;
    mock.throttle.arm(1, 1);
    const started = Date.now();
    const listing = await contentstack.list(context(mock));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests[0]!.status).toBe(429);
    expect(mock.requests[1]!.path).toBe(mock.requests[0]!.path);
    expect((listing.units[0] as StringUnit).strings.length).toBeGreaterThan(EXTRA);
  });

  it("a refused token is an 'auth' error quoting Contentstack; an unknown stack names api_key", async () => {
    const error = await rejection(contentstack.list(context(mock, { token: 'wrong' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401 error_code 105: You're not allowed in here/);
    const stack = await rejection(contentstack.list(context(mock, { apiKey: 'blt_nope' })));
    expect(stack.kind).toBe('auth');
    expect(stack.message).toMatch(/`api_key`.*|api_key is not valid/);
  });

  it("a content type the stack does not have is a 'config' error naming it", async () => {
    const error = await rejection(contentstack.list(context(mock, { types: ['blog_pots'] })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/'blog_pots'.*HTTP 422 error_code 118/);
  });

  it("a server that does not answer is 'unavailable'", async () => {
    await mock.stop();
    try {
      const error = await rejection(contentstack.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await contentstack.list(context(mock))).units).toHaveLength(1);
  });

  it('accepts the webhook carrying the secret (header or basic auth) and refuses a forged or bare one', () => {
    const settings = context(mock).settings;
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    const entry = { uid: 'blt1', title: 'x' };
    expect(contentstack.verifyWebhook!(request(contentstackWebhook('s3cret', mock.apiKey, entry)), 's3cret', settings)).toEqual({ verified: true, sync: true });
    expect(contentstack.verifyWebhook!(request(contentstackWebhook('guess', mock.apiKey, entry)), 's3cret', settings).verified).toBe(false);
    const bare = contentstackWebhook('s3cret', mock.apiKey, entry);
    delete bare.headers['x-parlance-webhook-secret'];
    expect(contentstack.verifyWebhook!(request(bare), 's3cret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Parlance-Webhook-Secret/) });
    const basic = { ...bare, headers: { ...bare.headers, authorization: `Basic ${Buffer.from('parlance:s3cret').toString('base64')}` } };
    expect(contentstack.verifyWebhook!(request(basic), 's3cret', settings)).toEqual({ verified: true, sync: true });
    expect(contentstack.verifyWebhook!(request(contentstackWebhook('s3cret', mock.apiKey, entry, 'author')), 's3cret', settings)).toMatchObject({ verified: true, sync: false });
  });

  it("with webhook_public_key, accepts Contentstack's own signature and refuses a forged or stale one", () => {
    const keys = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
    const contentstackKeys = keys();
    const pem = contentstackKeys.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const settings = contentstack.settings.parse({ ...context(mock).settings, webhook_public_key: pem });
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    const entry = { uid: 'blt1', title: 'x' };
    expect(contentstack.verifyWebhook!(request(contentstackSignedWebhook(contentstackKeys.privateKey, mock.apiKey, entry)), 's3cret', settings)).toEqual({ verified: true, sync: true });
    expect(contentstack.verifyWebhook!(request(contentstackSignedWebhook(keys().privateKey, mock.apiKey, entry)), 's3cret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/does not verify/) });
    const stale = contentstackSignedWebhook(contentstackKeys.privateKey, mock.apiKey, entry, new Date(Date.now() - 10 * 60_000));
    expect(contentstack.verifyWebhook!(request(stale), 's3cret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/stale/) });
    // Without the key configured, a signature alone is not enough.
    expect(contentstack.verifyWebhook!(request(contentstackSignedWebhook(contentstackKeys.privateKey, mock.apiKey, entry)), 's3cret', context(mock).settings).verified).toBe(false);
  });
});

connectorAcceptance('Contentstack acceptance', contentstackFixture, { direction: 'two_way' });
