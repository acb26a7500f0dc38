/** The Freshdesk Solutions connector against a local Freshdesk API v2: listing over Link-header pages, write-back, refusals, webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { freshdesk } from '../../server/integrations/connectors/freshdesk.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { freshdeskFixture, startFreshdeskMock, type FreshdeskMock } from '../helpers/connector-mocks/freshdesk.js';

const EXTRA = 105;

describe('Freshdesk Solutions connector', () => {
  let mock: FreshdeskMock;
  const context = (overrides: { settings?: Record<string, unknown>; secrets?: Record<string, unknown> } = {}) => connectorContext(freshdesk, { url: mock.url, ...overrides.settings }, overrides.secrets ?? { api_key: mock.apiKey });
  const unitOf = async (path: string, ctx = context()) => (await freshdesk.list(ctx)).units.find((u) => u.path === path) as StringUnit;

  beforeAll(async () => {
    mock = await startFreshdeskMock({ extraArticles: EXTRA });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('lists articles (subfolders included), folders and categories over Link-header pages with Basic auth, keeping HTML whole and skipping ja', async () => {
    mock.requests.length = 0;
    const listing = await freshdesk.list(context());
    expect(listing.units.map((u) => u.path)).toEqual(['articles', 'folders', 'categories']);
    const [articles, folders, categories] = listing.units as StringUnit[];
    expect(articles!.locales).toEqual(['de', 'fr']);
    // Every article has a title and an HTML description; one more article sits in the subfolder.
    expect(articles!.strings).toHaveLength(2 * (SEED.length + EXTRA + 1));
    const welcome = mock.seedArticle('welcome');
    expect(articles!.strings.find((s) => s.key === `${welcome}.title`)).toMatchObject({ source: 'Welcome to our store', context: `Solution article ${welcome}`, notes: 'Solution article title', translations: {} });
    expect(articles!.strings.find((s) => s.key === '44000400007.description')?.source).toBe('<p>Step <strong>7</strong>: open <a href="https://example.com/7">the page</a>.</p>');
    expect(articles!.strings.some((s) => s.key === '44000500001.title')).toBe(true);
    expect(folders!.strings.map((s) => s.key).sort()).toEqual([`${mock.folderId}.name`, `${mock.guidesFolderId}.name`, `${mock.guidesFolderId}.description`, `${mock.subfolderId}.name`].sort());
    expect(categories!.strings.map((s) => s.source)).toEqual(['Shop', 'Everything about shopping with us']);
    const pages = mock.requests.filter((r) => r.path === `/api/v2/solutions/folders/${mock.guidesFolderId}/articles`);
    expect(pages.map((r) => r.query)).toEqual([{ per_page: '100', page: '1' }, { per_page: '100', page: '2' }]);
    // Article translations come from each folder's list in each language, not from one read per article.
    expect(mock.requests.some((r) => r.path.startsWith('/api/v2/solutions/articles/'))).toBe(false);
    expect(mock.requests.filter((r) => r.path === `/api/v2/solutions/folders/${mock.guidesFolderId}/articles/de`)).toHaveLength(1);
    const basic = `Basic ${Buffer.from(`${mock.apiKey}:X`).toString('base64')}`;
    expect(mock.requests.every((r) => r.authorization === basic)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('reads only the chosen categories and kinds', async () => {
    const listing = await freshdesk.list(context({ settings: { category_ids: [String(mock.categoryId)], content: ['categories'] } }));
    expect(listing.units.map((u) => u.path)).toEqual(['categories']);
    const wrong = await rejection(freshdesk.list(context({ settings: { category_ids: ['999'] } })));
    expect(wrong).toMatchObject({ kind: 'config', message: expect.stringMatching(/category_ids setting names '999'/) });
  });

  it('creates a missing translation (title and description together, as a draft), updates an existing one, and writing again changes nothing', async () => {
    const guide = 44000400003;
    mock.edit('articles', guide, 'fr', { title: 'Guide 3 (fr)', description: '<p>Ancien</p>' });
    const articles = await unitOf('articles');
    mock.requests.length = 0;
    const rows = [
      { key: `${guide}.title`, locale: 'de', text: 'Anleitung 3' },
      { key: `${guide}.description`, locale: 'de', text: '<p>Schritt <strong>3</strong>: öffnen Sie <a href="https://example.com/3">die Seite</a>.</p>' },
      { key: `${guide}.description`, locale: 'fr', text: '<p>Étape <strong>3</strong></p>' },
    ];
    const first = await freshdesk.write!(context(), stringsWriteBack(articles, rows));
    expect(first.written).toBe(3);
    const posts = mock.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ path: `/api/v2/solutions/articles/${guide}/de`, status: 201, body: { title: 'Anleitung 3', description: rows[1]!.text, status: 1 } });
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ path: `/api/v2/solutions/articles/${guide}/fr`, status: 200, body: { description: '<p>Étape <strong>3</strong></p>' } });
    expect(mock.translation('articles', guide, 'fr')).toMatchObject({ title: 'Guide 3 (fr)', description: '<p>Étape <strong>3</strong></p>' });
    expect(mock.translation('articles', guide, 'de')).toMatchObject({ status: 1, title: 'Anleitung 3' });
    mock.requests.length = 0;
    const again = await freshdesk.write!(context(), stringsWriteBack(await unitOf('articles'), rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('writes a folder name; never overwrites a person\'s change made after the listing; skips a deleted article', async () => {
    const cart = mock.seedArticle('cart');
    const guide = 44000400010;
    const [articles, folders] = (await freshdesk.list(context({ settings: { content: ['articles', 'folders'] } }))).units as StringUnit[];
    mock.edit('articles', cart, 'de', { title: 'Warenkorb leer (von Hand)', description: '<p>x</p>' });
    mock.remove('articles', guide);
    const result = await freshdesk.write!(context(), stringsWriteBack(articles!, [
      { key: `${cart}.title`, locale: 'de', text: 'Ihr Warenkorb ist leer' },
      { key: `${guide}.title`, locale: 'de', text: 'Anleitung 10' },
      { key: `${guide}.description`, locale: 'de', text: '<p>Zehn</p>' },
    ]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`article ${cart}\\.title \\(de\\)`));
    expect(result.note).toMatch(new RegExp(`Deleted in Freshdesk since the listing, not written: article ${guide}`));
    expect(mock.translation('articles', cart, 'de')?.title).toBe('Warenkorb leer (von Hand)');
    const folder = await freshdesk.write!(context(), stringsWriteBack(folders!, [{ key: `${mock.folderId}.name`, locale: 'fr', text: 'Messages du magasin' }]));
    expect(folder.written).toBe(1);
    expect(mock.translation('folders', mock.folderId, 'fr')?.title).toBe('Messages du magasin');
  });

  it('waits out a 429 by its Retry-After', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1);
    const started = Date.now();
    const listing = await freshdesk.list(context({ settings: { content: ['categories'] } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests[0]).toMatchObject({ path: '/api/v2/settings/helpdesk', status: 429 });
    expect(mock.requests[1]).toMatchObject({ path: '/api/v2/settings/helpdesk', status: 200 });
    expect((listing.units[0] as StringUnit).strings).toHaveLength(2);
  });

  it("refused credentials are an 'auth' error quoting Freshdesk; a wrong address a 'config' one; a server away 'unavailable'", async () => {
    const refused = await rejection(freshdesk.list(context({ secrets: { api_key: 'wrong' } })));
    expect(refused.kind).toBe('auth');
    expect(refused.message).toMatch(/HTTP 401: You have to be logged in/);
    const elsewhere = await rejection(freshdesk.list(context({ settings: { url: `${mock.url}/nothing-here` } })));
    expect(elsewhere.kind).toBe('config');
    expect(elsewhere.message).toMatch(/HTTP 404/);
    await mock.stop();
    try {
      expect((await rejection(freshdesk.list(context()))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
  });

  it('settings and secrets are validated naming the field', () => {
    const settings = freshdesk.settings.safeParse({ url: 'acme', content: ['tickets'], status: 'live' });
    expect(settings.success).toBe(false);
    expect(settings.error!.issues.map((i) => i.path[0])).toEqual(expect.arrayContaining(['url', 'content', 'status']));
    const secrets = freshdesk.secrets.safeParse({ token: 'x' });
    expect(secrets.success).toBe(false);
    expect(secrets.error!.issues.map((i) => i.path[0])).toContain('api_key');
  });

  it('accepts the automation webhook with the shared secret header and refuses a forged or missing one', () => {
    const verify = (hook: { headers: Record<string, string>; body: string }) => freshdesk.verifyWebhook!({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) }, 's3cret', context().settings);
    const article = mock.seedArticle('cart');
    expect(verify(mock.notification('s3cret', article))).toEqual({ verified: true, sync: true });
    expect(verify(mock.notification('guess', article))).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
    const missing = mock.notification('s3cret', article);
    delete missing.headers['x-parlance-webhook-secret'];
    expect(verify(missing)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Parlance-Webhook-Secret/) });
  });
});

connectorAcceptance('Freshdesk Solutions acceptance', freshdeskFixture, { direction: 'two_way' });
