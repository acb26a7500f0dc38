/** The Zendesk Guide connector against a local Help Center API: listing over cursor pages, write-back, refusals, webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { zendeskGuide } from '../../server/integrations/connectors/zendesk-guide.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { startZendeskGuideMock, zendeskGuideFixture, type ZendeskGuideMock } from '../helpers/connector-mocks/zendesk-guide.js';

const EXTRA = 105;

describe('Zendesk Guide connector', () => {
  let mock: ZendeskGuideMock;
  const context = (overrides: { settings?: Record<string, unknown>; secrets?: Record<string, unknown> } = {}) =>
    connectorContext(zendeskGuide, { url: mock.url, ...overrides.settings }, overrides.secrets ?? { email: mock.email, api_token: mock.apiToken });
  const unitOf = async (path: string, ctx = context()) => (await zendeskGuide.list(ctx)).units.find((u) => u.path === path) as StringUnit;

  beforeAll(async () => {
    mock = await startZendeskGuideMock({ extraArticles: EXTRA });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('lists articles, sections and categories over cursor pages with Basic auth, keeping HTML bodies whole and skipping ja', async () => {
    mock.requests.length = 0;
    const listing = await zendeskGuide.list(context());
    expect(listing.units.map((u) => u.path)).toEqual(['articles', 'sections', 'categories']);
    const [articles, sections, categories] = listing.units as StringUnit[];
    expect(articles!.locales).toEqual(['de', 'fr']);
    // SEED articles have a title only; the guides have a title and an HTML body.
    expect(articles!.strings).toHaveLength(SEED.length + 2 * EXTRA);
    const welcome = mock.seedArticle('welcome');
    expect(articles!.strings.find((s) => s.key === `${welcome}.title`)).toMatchObject({ source: 'Welcome to our store', context: `Article ${welcome}: Welcome to our store`, notes: 'Article title', translations: {} });
    expect(articles!.strings.find((s) => s.key === '360004000007.body')?.source).toBe('<p>Step <strong>7</strong>: open <a href="https://example.com/7">the page</a>.</p>');
    expect(sections!.strings.map((s) => s.key).sort()).toEqual([`${mock.guidesSectionId}.body`, `${mock.guidesSectionId}.title`, `${mock.sectionId}.title`].sort());
    expect(categories!.strings.map((s) => s.source)).toEqual(['Shop', 'Everything about shopping with us']);
    const pages = mock.requests.filter((r) => r.path === '/api/v2/help_center/articles');
    expect(pages).toHaveLength(2);
    expect(pages.every((r) => r.query['page[size]'] === '100')).toBe(true);
    expect(pages[1]!.query['page[after]']).toBeTruthy();
    const basic = `Basic ${Buffer.from(`${mock.email}/token:${mock.apiToken}`).toString('base64')}`;
    expect(mock.requests.every((r) => r.authorization === basic)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('reads with an OAuth token, and only the chosen sections with section_ids', async () => {
    mock.requests.length = 0;
    const listing = await zendeskGuide.list(context({ settings: { section_ids: [String(mock.sectionId)], content: ['articles', 'sections'] }, secrets: { oauth_token: mock.oauthToken } }));
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.oauthToken}`)).toBe(true);
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    expect((listing.units[1] as StringUnit).strings.map((s) => s.source)).toEqual(['Store messages']);
    expect(mock.requests.some((r) => r.path === `/api/v2/help_center/sections/${mock.sectionId}/articles`)).toBe(true);
  });

  it('creates a missing translation (title and body together, as a draft), updates an existing one, and writing again changes nothing', async () => {
    const guide = 360004000003;
    mock.edit('articles', guide, 'fr', { title: 'Guide 3 (fr)', body: '<p>Ancien</p>' });
    const articles = await unitOf('articles');
    mock.requests.length = 0;
    const rows = [
      { key: `${guide}.title`, locale: 'de', text: 'Anleitung 3' },
      { key: `${guide}.body`, locale: 'de', text: '<p>Schritt <strong>3</strong>: öffnen Sie <a href="https://example.com/3">die Seite</a>.</p>' },
      { key: `${guide}.body`, locale: 'fr', text: '<p>Étape <strong>3</strong></p>' },
    ];
    const first = await zendeskGuide.write!(context(), stringsWriteBack(articles, rows));
    expect(first.written).toBe(3);
    const posts = mock.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ path: `/api/v2/help_center/articles/${guide}/translations`, body: { translation: { locale: 'de', title: 'Anleitung 3', body: rows[1]!.text, draft: true } } });
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ path: `/api/v2/help_center/articles/${guide}/translations/fr`, body: { translation: { body: '<p>Étape <strong>3</strong></p>' } } });
    expect(mock.translation('articles', guide, 'fr')).toMatchObject({ title: 'Guide 3 (fr)', body: '<p>Étape <strong>3</strong></p>' });
    expect(mock.translation('articles', guide, 'de')).toMatchObject({ draft: true, title: 'Anleitung 3' });
    mock.requests.length = 0;
    const again = await zendeskGuide.write!(context(), stringsWriteBack(await unitOf('articles'), rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('never overwrites a translation a person changed in Guide between the listing and the write, and skips a deleted article', async () => {
    const cart = mock.seedArticle('cart');
    const guide = 360004000010;
    const articles = await unitOf('articles');
    mock.edit('articles', cart, 'de', { title: 'Warenkorb leer (von Hand)' });
    mock.remove('articles', guide);
    const result = await zendeskGuide.write!(context(), stringsWriteBack(articles, [
      { key: `${cart}.title`, locale: 'de', text: 'Ihr Warenkorb ist leer' },
      { key: `${guide}.title`, locale: 'de', text: 'Anleitung 10' },
    ]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`article ${cart}\\.title \\(de\\)`));
    expect(result.note).toMatch(new RegExp(`Deleted in Zendesk since the listing, not written: article ${guide}`));
    expect(mock.translation('articles', cart, 'de')?.title).toBe('Warenkorb leer (von Hand)');
  });

  it('waits out a 429 by its Retry-After', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1);
    const started = Date.now();
    const listing = await zendeskGuide.list(context({ settings: { content: ['categories'] } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests[0]).toMatchObject({ path: '/api/v2/help_center/locales', status: 429 });
    expect(mock.requests[1]).toMatchObject({ path: '/api/v2/help_center/locales', status: 200 });
    expect((listing.units[0] as StringUnit).strings).toHaveLength(2);
  });

  it("refused credentials are an 'auth' error quoting Zendesk; a wrong address or section a 'config' one; a server away 'unavailable'", async () => {
    const refused = await rejection(zendeskGuide.list(context({ secrets: { email: mock.email, api_token: 'wrong' } })));
    expect(refused.kind).toBe('auth');
    expect(refused.message).toMatch(/HTTP 401: Couldn't authenticate you/);
    const elsewhere = await rejection(zendeskGuide.list(context({ settings: { url: `${mock.url}/nothing-here` } })));
    expect(elsewhere.kind).toBe('config');
    expect(elsewhere.message).toMatch(/HTTP 404: RecordNotFound: Not found/);
    const section = await rejection(zendeskGuide.list(context({ settings: { section_ids: ['999'] } })));
    expect(section).toMatchObject({ kind: 'config', message: expect.stringMatching(/section_ids setting names '999'/) });
    await mock.stop();
    try {
      expect((await rejection(zendeskGuide.list(context()))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
  });

  it('settings and secrets are validated naming the field', () => {
    const settings = zendeskGuide.settings.safeParse({ url: 'acme', content: ['tickets'] });
    expect(settings.success).toBe(false);
    expect(settings.error!.issues.map((i) => i.path[0])).toEqual(expect.arrayContaining(['url', 'content']));
    expect(zendeskGuide.secrets.safeParse({ email: 'someone@example.com' }).success).toBe(false);
    expect(zendeskGuide.secrets.safeParse({ oauth_token: 'x' }).success).toBe(true);
  });

  it("accepts Zendesk's signed article event and refuses a forged, stale or unsigned one; votes start no sync", () => {
    const verify = (hook: { headers: Record<string, string>; body: string }) => zendeskGuide.verifyWebhook!({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) }, 's3cret', context().settings);
    const article = mock.seedArticle('cart');
    expect(verify(mock.notification('s3cret', article))).toEqual({ verified: true, sync: true });
    expect(verify(mock.notification('guess', article))).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
    expect(verify(mock.notification('s3cret', article, { at: new Date(Date.now() - 10 * 60_000) }))).toMatchObject({ verified: false, reason: expect.stringMatching(/5 minutes/) });
    const tampered = mock.notification('s3cret', article);
    expect(verify({ ...tampered, body: tampered.body.replace('en-us', 'de') }).verified).toBe(false);
    const unsigned = mock.notification('s3cret', article);
    delete unsigned.headers['x-zendesk-webhook-signature'];
    expect(verify(unsigned)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Zendesk-Webhook-Signature/) });
    expect(verify(mock.notification('s3cret', article, { type: 'zen:event-type:article.vote_created' }))).toMatchObject({ verified: true, sync: false });
  });
});

connectorAcceptance('Zendesk Guide acceptance', zendeskGuideFixture, { direction: 'two_way' });
