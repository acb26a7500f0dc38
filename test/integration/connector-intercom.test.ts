/** The Intercom Articles connector against a local Intercom REST API: listing over pages, write-back, refusals, webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { intercom } from '../../server/integrations/connectors/intercom.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { intercomFixture, startIntercomMock, type IntercomMock } from '../helpers/connector-mocks/intercom.js';

const EXTRA = 60;

describe('Intercom Articles connector', () => {
  let mock: IntercomMock;
  const context = (overrides: { settings?: Record<string, unknown>; secrets?: Record<string, unknown> } = {}) =>
    connectorContext(intercom, { api_url: mock.url, help_center_locales: ['de', 'fr'], ...overrides.settings }, overrides.secrets ?? { access_token: mock.token });
  const articlesUnit = async (ctx = context()) => (await intercom.list(ctx)).units[0] as StringUnit;
  const guide = (n: number) => String(9_000_000 + SEED.length + n);

  beforeAll(async () => {
    mock = await startIntercomMock({ extraArticles: EXTRA });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('lists every article over pages with the bearer token and Intercom-Version, keeping HTML bodies whole and skipping ja', async () => {
    mock.requests.length = 0;
    const listing = await intercom.list(context());
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe('articles');
    expect(unit.locales).toEqual(['de', 'fr']);
    // SEED articles have a title only; the guides have a title, a description and an HTML body.
    expect(unit.strings).toHaveLength(SEED.length + 3 * EXTRA);
    const welcome = mock.seedArticle('welcome');
    expect(unit.strings.find((s) => s.key === `${welcome}.title`)).toMatchObject({ source: 'Welcome to our store', context: `Article ${welcome}: Welcome to our store`, notes: 'Help center article title', translations: {} });
    expect(unit.strings.find((s) => s.key === `${guide(7)}.body`)?.source).toBe('<p>Step <b>7</b>: open <a href="https://example.com/7">the page</a>.</p>');
    expect(unit.strings.find((s) => s.key === `${guide(7)}.description`)?.source).toBe('How to do step 7');
    const pages = mock.requests.filter((r) => r.path === '/articles');
    expect(pages.map((r) => r.query.page)).toEqual(['1', '2']);
    expect(pages.every((r) => r.query.per_page === '50')).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}` && r.version === '2.11')).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('without help_center_locales, targets match any Intercom article locale (pt-BR included)', async () => {
    const unit = await articlesUnit(connectorContext(intercom, { api_url: mock.url }, { access_token: mock.token }, { targetLocales: ['de', 'pt-BR', 'tlh'] }));
    expect(unit.locales).toEqual(['de', 'pt-BR']);
  });

  it('creates a missing language version as a draft, updates an existing one, keeps its other fields, and writing again changes nothing', async () => {
    const id = guide(3);
    mock.edit(id, 'fr', { title: 'Guide 3 (fr)', description: 'Étape 3', body: '<p>Ancien</p>' });
    const unit = await articlesUnit();
    mock.requests.length = 0;
    const rows = [
      { key: `${id}.title`, locale: 'de', text: 'Anleitung 3' },
      { key: `${id}.body`, locale: 'de', text: '<p>Schritt <b>3</b>: öffnen Sie <a href="https://example.com/3">die Seite</a>.</p>' },
      { key: `${id}.body`, locale: 'fr', text: '<p>Étape <b>3</b></p>' },
    ];
    const first = await intercom.write!(context(), stringsWriteBack(unit, rows));
    expect(first.written).toBe(3);
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect(puts[0]).toMatchObject({ path: `/articles/${id}`, body: { translated_content: { de: { title: 'Anleitung 3', description: '', body: rows[1]!.text, state: 'draft' } } } });
    expect(puts[1]).toMatchObject({ path: `/articles/${id}`, body: { translated_content: { fr: { title: 'Guide 3 (fr)', description: 'Étape 3', body: '<p>Étape <b>3</b></p>' } } } });
    expect(mock.content(id, 'fr')).toMatchObject({ title: 'Guide 3 (fr)', description: 'Étape 3', body: '<p>Étape <b>3</b></p>' });
    expect(mock.content(id, 'de')).toMatchObject({ title: 'Anleitung 3', state: 'draft' });
    mock.requests.length = 0;
    const again = await intercom.write!(context(), stringsWriteBack(await articlesUnit(), rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('never overwrites a version a person changed between the listing and the write, skips a deleted article, and waits for a title', async () => {
    const cart = mock.seedArticle('cart');
    const gone = guide(10);
    const untitled = guide(11);
    mock.edit(cart, 'de', { title: 'Warenkorb (alt)' });
    const unit = await articlesUnit();
    mock.edit(cart, 'de', { title: 'Warenkorb leer (von Hand)' });
    mock.remove(gone);
    const result = await intercom.write!(context(), stringsWriteBack(unit, [
      { key: `${cart}.title`, locale: 'de', text: 'Ihr Warenkorb ist leer' },
      { key: `${gone}.title`, locale: 'de', text: 'Anleitung 10' },
      { key: `${untitled}.body`, locale: 'de', text: '<p>Nur der Text</p>' },
    ]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`article ${cart}\\.title \\(de\\)`));
    expect(result.note).toMatch(new RegExp(`Deleted in Intercom since the listing, not written: article ${gone}`));
    expect(result.note).toMatch(new RegExp(`needs a title .*article ${untitled} \\(de\\)`));
    expect(mock.content(cart, 'de')?.title).toBe('Warenkorb leer (von Hand)');
  });

  it('a language the help center has not enabled is refused by Intercom and named in the note, not fatal', async () => {
    const unit = await articlesUnit(context({ settings: { help_center_locales: ['de', 'fr', 'ja'] } }));
    expect(unit.locales).toEqual(['de', 'fr', 'ja']);
    const welcome = mock.seedArticle('welcome');
    const result = await intercom.write!(context(), stringsWriteBack(unit, [{ key: `${welcome}.title`, locale: 'ja', text: 'ようこそ' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(/Refused by Intercom .*parameter_invalid: Locale ja is not enabled/);
  });

  it('waits out a 429 until X-RateLimit-Reset', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1);
    const started = Date.now();
    const unit = await articlesUnit();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests[0]).toMatchObject({ path: '/articles', status: 429 });
    expect(mock.requests[1]).toMatchObject({ path: '/articles', status: 200 });
    expect(unit.strings.length).toBeGreaterThan(SEED.length);
  });

  it("refused credentials are an 'auth' error quoting Intercom; a wrong address a 'config' one; a server away 'unavailable'", async () => {
    const refused = await rejection(intercom.list(context({ secrets: { access_token: 'wrong' } })));
    expect(refused.kind).toBe('auth');
    expect(refused.message).toMatch(/HTTP 401: unauthorized: Access Token Invalid/);
    const elsewhere = await rejection(intercom.list(context({ settings: { api_url: `${mock.url}/nothing/here` } })));
    expect(elsewhere.kind).toBe('config');
    expect(elsewhere.message).toMatch(/HTTP 404: not_found: Resource Not Found/);
    await mock.stop();
    try {
      expect((await rejection(intercom.list(context()))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
  });

  it('settings and secrets are validated naming the field', () => {
    const settings = intercom.settings.safeParse({ api_url: 'intercom', help_center_locales: ['de', 'klingon'] });
    expect(settings.success).toBe(false);
    expect(settings.error!.issues.map((i) => i.path[0])).toEqual(expect.arrayContaining(['api_url', 'help_center_locales']));
    expect(intercom.settings.parse({})).toMatchObject({ api_url: 'https://api.intercom.io', publish: false });
    expect(intercom.secrets.safeParse({}).success).toBe(false);
    expect(intercom.secrets.safeParse({ access_token: 'x' }).success).toBe(true);
  });

  it("accepts Intercom's signed article notification and refuses a forged, stale or unsigned one; other topics start no sync", () => {
    const verify = (hook: { headers: Record<string, string>; body: string }) => intercom.verifyWebhook!({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) }, 'client-s3cret', context().settings);
    const article = mock.seedArticle('cart');
    expect(verify(mock.notification('client-s3cret', article))).toEqual({ verified: true, sync: true });
    expect(verify(mock.notification('guess', article))).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
    expect(verify(mock.notification('client-s3cret', article, { at: new Date(Date.now() - 60 * 60_000) }))).toMatchObject({ verified: false, reason: expect.stringMatching(/15 minutes/) });
    const tampered = mock.notification('client-s3cret', article);
    expect(verify({ ...tampered, body: tampered.body.replace('article.updated', 'article.created') }).verified).toBe(false);
    const unsigned = mock.notification('client-s3cret', article);
    delete unsigned.headers['x-hub-signature'];
    expect(verify(unsigned)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Hub-Signature/) });
    expect(verify(mock.notification('client-s3cret', article, { topic: 'ping' }))).toMatchObject({ verified: true, sync: false });
  });
});

connectorAcceptance('Intercom Articles acceptance', intercomFixture, { direction: 'two_way' });
