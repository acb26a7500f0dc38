/** The WordPress (Polylang) connector against a local WordPress: listing over pages, drafts and updates, refusals, the down server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { wordpress } from '../../server/integrations/connectors/wordpress.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { startWordPressMock, wordpressFixture, type WordPressMock } from '../helpers/connector-mocks/wordpress.js';

function context(mock: WordPressMock, overrides: { password?: string; postTypes?: string[]; includeContent?: boolean } = {}) {
  const settings = { api_url: mock.url, ...(overrides.postTypes ? { post_types: overrides.postTypes } : {}), ...(overrides.includeContent ? { include_content: true } : {}) };
  return connectorContext(wordpress, settings, { username: mock.username, application_password: overrides.password ?? mock.password });
}

describe('WordPress (Polylang) connector', () => {
  let mock: WordPressMock;
  beforeAll(async () => {
    mock = await startWordPressMock({ extraPosts: 210 });
  });
  afterAll(async () => {
    await mock.close();
  });
  const posts = async (options: { includeContent?: boolean } = {}) => (await wordpress.list(context(mock, options))).units.find((u) => u.path === 'posts') as StringUnit;

  it('lists titles and excerpts of every post type over several pages, with Basic auth, skipping ja', async () => {
    mock.requests.length = 0;
    const listing = await wordpress.list(context(mock));
    expect(listing.units.map((u) => u.path)).toEqual(['posts', 'pages']);
    const unit = listing.units[0] as StringUnit;
    expect(unit.locales).toEqual(['de', 'fr']);
    // The seeds have titles only; the extra posts have titles and excerpts.
    expect(unit.strings).toHaveLength(SEED.length + 2 * 210);
    const welcome = mock.posts.get('welcome')!;
    expect(unit.strings.find((s) => s.key === `${welcome}.title`)).toMatchObject({ source: 'Welcome to our store', context: 'posts', translations: {} });
    expect(unit.strings.find((s) => s.key === '110.excerpt')).toMatchObject({ source: 'Excerpt 7', context: 'posts: Post 7' });
    expect((listing.units[1] as StringUnit).strings.map((s) => s.source)).toEqual(['About us']);
    const pages = mock.requests.filter((r) => r.path === '/wp-json/wp/v2/posts' && r.query.get('lang') === 'en');
    expect(pages.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(pages.every((r) => r.query.get('context') === 'edit' && r.query.get('per_page') === '100')).toBe(true);
    const basic = `Basic ${Buffer.from(`${mock.username}:${mock.password}`).toString('base64')}`;
    expect(mock.requests.every((r) => r.authorization === basic)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('the whole content is one more string when include_content is on', async () => {
    const unit = await posts({ includeContent: true });
    const welcome = mock.posts.get('welcome')!;
    expect(unit.strings.find((s) => s.key === `${welcome}.content`)?.source).toBe('<!-- wp:paragraph --><p>Welcome to our store</p><!-- /wp:paragraph -->');
  });

  it('creates a missing translation as a linked draft, updates it next time, and writing again changes nothing', async () => {
    const welcome = mock.posts.get('welcome')!;
    let unit = await posts();
    mock.requests.length = 0;
    const first = await wordpress.write!(context(mock), stringsWriteBack(unit, [{ key: `${welcome}.title`, locale: 'de', text: 'Willkommen in unserem Laden' }]));
    expect(first.written).toBe(1);
    const created = mock.requests.find((r) => r.method === 'POST' && r.path === '/wp-json/wp/v2/posts');
    expect(created?.body).toMatchObject({ title: 'Willkommen in unserem Laden', status: 'draft', lang: 'de', translations: { en: welcome }, content: expect.stringContaining('Welcome to our store') });
    expect(mock.translation(welcome, 'de')).toMatchObject({ title: 'Willkommen in unserem Laden', status: 'draft' });
    // The draft is listed as the post's German translation.
    unit = await posts();
    expect(unit.strings.find((s) => s.key === `${welcome}.title`)?.translations).toEqual({ de: 'Willkommen in unserem Laden' });
    mock.requests.length = 0;
    const second = await wordpress.write!(context(mock), stringsWriteBack(unit, [{ key: `${welcome}.title`, locale: 'de', text: 'Willkommen im Laden' }]));
    expect(second.written).toBe(1);
    const germanId = mock.translation(welcome, 'de')!.id;
    expect(mock.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/wp-json/wp/v2/posts/${germanId}`]);
    expect(mock.translation(welcome, 'de')!.title).toBe('Willkommen im Laden');
    // The same write again: the translation already says so; nothing is posted, nothing duplicated.
    mock.requests.length = 0;
    const again = await wordpress.write!(context(mock), stringsWriteBack(unit, [{ key: `${welcome}.title`, locale: 'de', text: 'Willkommen im Laden' }]));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(mock.count('de')).toBe(1);
  });

  it('a write repeated with the listing from before the first one does not create a second translation', async () => {
    const cart = mock.posts.get('cart')!;
    const unit = await posts();
    const rows = [{ key: `${cart}.title`, locale: 'fr', text: 'Votre panier est vide' }];
    expect((await wordpress.write!(context(mock), stringsWriteBack(unit, rows))).written).toBe(1);
    expect((await wordpress.write!(context(mock), stringsWriteBack(unit, rows))).written).toBe(0);
    expect(mock.count('fr')).toBe(1);
  });

  it('never overwrites a translation a person changed in WordPress between the listing and the write', async () => {
    const cart = mock.posts.get('cart')!;
    const unit = await posts();
    mock.setTitle(cart, 'fr', 'Panier vide (corrigé à la main)');
    const result = await wordpress.write!(context(mock), stringsWriteBack(unit, [{ key: `${cart}.title`, locale: 'fr', text: 'Le panier est vide' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`posts ${cart} title \\(fr\\)`));
    expect(mock.translation(cart, 'fr')!.title).toBe('Panier vide (corrigé à la main)');
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1, 1);
    const started = Date.now();
    const unit = await posts();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(unit.strings).toHaveLength(SEED.length + 2 * 210);
    expect(mock.requests[0]!.path).toBe(mock.requests[1]!.path);
  });

  it("a refused Application Password is an 'auth' error quoting WordPress", async () => {
    const error = await rejection(wordpress.list(context(mock, { password: 'nope nope nope' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401: The provided password is an invalid application password\./);
  });

  it("a post type the site does not have is a 'config' error naming it", async () => {
    const error = await rejection(wordpress.list(context(mock, { postTypes: ['posts', 'recipes'] })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/WordPress recipes.*HTTP 404: No route was found/);
  });

  it("a server that does not answer is 'unavailable'", async () => {
    await mock.stop();
    try {
      const error = await rejection(wordpress.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await wordpress.list(context(mock))).units).toHaveLength(2);
  });

  it('has no webhook verification: WordPress sends no change notifications', () => {
    expect(wordpress.verifyWebhook).toBeUndefined();
    expect(wordpress.webhooks).toBeUndefined();
  });
});

connectorAcceptance('WordPress (Polylang) acceptance', wordpressFixture, { direction: 'two_way' });
