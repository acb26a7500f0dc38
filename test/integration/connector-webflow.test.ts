/** The Webflow connector against a local Webflow Data API v2: localized listing over pages, write-back, refusals, webhooks. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { webflow } from '../../server/integrations/connectors/webflow.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { startWebflowMock, webflowFixture, type WebflowMock } from '../helpers/connector-mocks/webflow.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: WebflowMock, overrides: { token?: string; settings?: Record<string, unknown> } = {}) =>
  connectorContext(webflow, { api_url: mock.url, site_id: mock.siteId, locales: { fr: 'fr-FR' }, ...overrides.settings }, { token: overrides.token ?? mock.token });

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;

describe('Webflow connector', () => {
  let mock: WebflowMock;
  beforeAll(async () => {
    // 250 blog posts on pages of 100: three pages per locale.
    mock = await startWebflowMock({ blogPosts: 250 });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });
  const storeKey = (id: string) => `${mock.seedItem(id)}.name`;

  it('lists every collection page by page in the primary and each secondary locale, with field limits and notes', async () => {
    const listing = await webflow.list(context(mock));
    const store = unitAt(listing.units, 'store-messages');
    expect(store.strings.map((s) => s.source)).toEqual(SEED.map((s) => s.source));
    expect(store.locales).toEqual(['de', 'fr']);
    expect(store.strings.find((s) => s.key === storeKey('welcome'))).toMatchObject({ maxLength: 256, context: 'Store messages › Welcome to our store', translations: {} });
    const blog = unitAt(listing.units, 'blog-posts');
    // 249 live posts (one is archived): every name and body, and the 224 non-empty summaries; never the slug or the Switch.
    expect(blog.strings).toHaveLength(249 + 249 + 224);
    expect(new Set(blog.strings.map((s) => s.key)).size).toBe(blog.strings.length);
    expect(blog.strings.some((s) => /\.(slug|featured)$/.test(s.key))).toBe(false);
    const summary = blog.strings.find((s) => s.source === 'Summary of post 7')!;
    expect(summary).toMatchObject({ maxLength: 140, notes: 'Field "Summary". Shown on cards' });
    const body = blog.strings.find((s) => s.source === '<p>Body of <strong>post 7</strong></p>')!;
    expect(body.notes).toMatch(/RichText.*HTML/);
    expect(body.maxLength).toBeUndefined();
    const blogPages = mock.requests.filter((r) => r.path === `/v2/collections/${mock.blogId}/items`);
    for (const cms of [mock.locales.primary, mock.locales.de, mock.locales.fr]) {
      expect(blogPages.filter((r) => r.query.cmsLocaleId === cms).map((r) => r.query.offset)).toEqual(['0', '100', '200']);
    }
    expect(blogPages.every((r) => r.query.limit === '100')).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}` && r.status === 200)).toBe(true);
    expect(listing.note).toMatch(/locales de → de, fr → fr-FR/);
    expect(listing.note).toMatch(/skipped ja: the site has no such secondary locale/);
  });

  it('reads translations from the secondary locales, and names a locale it cannot map', async () => {
    mock.edit(mock.storeId, mock.seedItem('cart'), 'de', 'name', 'Dein Warenkorb ist leer');
    const listing = await webflow.list(context(mock, { settings: { collections: [mock.storeId], locales: {} } }));
    expect(listing.units).toHaveLength(1);
    const cart = unitAt(listing.units, 'store-messages').strings.find((s) => s.key === storeKey('cart'))!;
    // fr-FR is not fr without the `locales` setting: skipped, and the note says which tags the site has.
    expect(cart.translations).toEqual({ de: 'Dein Warenkorb ist leer' });
    expect(unitAt(listing.units, 'store-messages').locales).toEqual(['de']);
    expect(listing.note).toMatch(/skipped fr, ja: the site has no such secondary locale \(it has de, fr-FR\)/);
  });

  it('waits out a 429 (Retry-After, X-RateLimit-Remaining 0) and carries on', async () => {
    mock.rateLimitNext(1);
    const started = Date.now();
    const listing = await webflow.list(context(mock, { settings: { collections: [mock.storeId] } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests[0]).toMatchObject({ path: `/v2/sites/${mock.siteId}`, status: 429 });
    expect(mock.requests[1]).toMatchObject({ path: `/v2/sites/${mock.siteId}`, status: 200 });
    expect(unitAt(listing.units, 'store-messages').strings).toHaveLength(SEED.length);
  });

  it('refused token: ConnectorError auth quoting Webflow', async () => {
    const error = await rejection(webflow.list(context(mock, { token: 'revoked' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain(`Reading Webflow site '${mock.siteId}'`);
    expect(error.message).toContain('HTTP 401: Request not authorized');
    expect(error.message).toMatch(/token/);
  });

  it('a site or collection Webflow does not have: ConnectorError config naming the setting', async () => {
    const site = await rejection(webflow.list(context(mock, { settings: { site_id: '000000000000000000000000' } })));
    expect(site.kind).toBe('config');
    expect(site.message).toContain("Reading Webflow site '000000000000000000000000' (setting site_id)");
    expect(site.message).toContain('The site cannot be found');
    const collection = await rejection(webflow.list(context(mock, { settings: { collections: ['111111111111111111111111'] } })));
    expect(collection.kind).toBe('config');
    expect(collection.message).toContain("has no collection '111111111111111111111111' (setting collections)");
    expect(collection.message).toContain(`${mock.storeId} (Store messages)`);
  });

  it('a site whose primary locale is another language than the source: ConnectorError config naming both', async () => {
    const ctx = { ...context(mock), sourceLocale: 'de' };
    const error = await rejection(webflow.list(ctx));
    expect(error.kind).toBe('config');
    expect(error.message).toContain("has the primary locale 'en', but the project's source locale is 'de'");
    // A region of the same language is the same source: en-US for en.
    expect((await webflow.list({ ...context(mock, { settings: { collections: [mock.storeId] } }), sourceLocale: 'en-US' })).units).toHaveLength(1);
  });

  it('Webflow down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(webflow.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await webflow.list(context(mock, { settings: { collections: [mock.storeId] } }))).units).toHaveLength(1);
  });

  it('writes translations with the bulk update, and writing them again changes nothing', async () => {
    const ctx = context(mock, { settings: { collections: [mock.storeId] } });
    const unit = unitAt((await webflow.list(ctx)).units, 'store-messages');
    const rows = SEED.flatMap((s) => [
      { key: storeKey(s.id), locale: 'de', text: `DE ${s.source}` },
      { key: storeKey(s.id), locale: 'fr', text: `FR ${s.source}` },
    ]);
    mock.requests.length = 0;
    const result = await webflow.write!(ctx, stringsWriteBack(unit, rows));
    // cart/de held a person's text at listing time and still does: it is written over only because nothing changed since.
    expect(result.written).toBe(rows.length);
    for (const s of SEED) {
      expect(mock.value(mock.storeId, mock.seedItem(s.id), 'de', 'name')).toBe(`DE ${s.source}`);
      expect(mock.value(mock.storeId, mock.seedItem(s.id), 'fr', 'name')).toBe(`FR ${s.source}`);
      expect(mock.value(mock.storeId, mock.seedItem(s.id), 'en', 'name')).toBe(s.source);
      // Only the field written changed: the slug and the option stay.
      expect(mock.value(mock.storeId, mock.seedItem(s.id), 'de', 'slug')).toBe(s.id);
    }
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(2);
    expect(patches.map((r) => (r.body as { items: { cmsLocaleId: string }[] }).items[0]!.cmsLocaleId).sort()).toEqual([mock.locales.de, mock.locales.fr].sort());
    expect((patches[0]!.body as { items: { fieldData: Record<string, string> }[] }).items[0]!.fieldData).toEqual({ name: expect.stringMatching(/^(DE|FR) Welcome to our store$/) });

    // The same write again: the re-read shows every value in place, so nothing is sent.
    const fresh = unitAt((await webflow.list(ctx)).units, 'store-messages');
    mock.requests.length = 0;
    const again = await webflow.write!(ctx, stringsWriteBack(fresh, rows));
    expect(again.written).toBe(0);
    expect(again.note).toMatch(/8 already held the translation/);
    expect(mock.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  });

  it('never overwrites a value a person changed in Webflow between the listing and the write', async () => {
    const ctx = context(mock, { settings: { collections: [mock.storeId] } });
    const unit = unitAt((await webflow.list(ctx)).units, 'store-messages');
    mock.edit(mock.storeId, mock.seedItem('checkout'), 'de', 'name', 'Zur Kasse, bitte');
    const result = await webflow.write!(ctx, stringsWriteBack(unit, [
      { key: storeKey('checkout'), locale: 'de', text: 'Weiter zur Kasse' },
      { key: storeKey('farewell'), locale: 'de', text: 'Bis bald!' },
    ]));
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/1 left as they are: changed in Webflow since the listing/);
    expect(mock.value(mock.storeId, mock.seedItem('checkout'), 'de', 'name')).toBe('Zur Kasse, bitte');
    expect(mock.value(mock.storeId, mock.seedItem('farewell'), 'de', 'name')).toBe('Bis bald!');
  });

  it('splits a large write into bulk updates of at most 100 items', async () => {
    const ctx = context(mock, { settings: { collections: [mock.blogId] } });
    const unit = unitAt((await webflow.list(ctx)).units, 'blog-posts');
    const names = unit.strings.filter((s) => s.key.endsWith('.name'));
    mock.requests.length = 0;
    const result = await webflow.write!(ctx, stringsWriteBack(unit, names.map((s) => ({ key: s.key, locale: 'de', text: `${s.source} (de)` }))));
    expect(result.written).toBe(249);
    const sizes = mock.requests.filter((r) => r.method === 'PATCH').map((r) => (r.body as { items: unknown[] }).items.length);
    expect(sizes).toEqual([100, 100, 49]);
  });

  describe('webhooks', () => {
    const secret = 'whsec-webflow-0123456789abcdef';
    const settings = () => webflow.settings.parse({ api_url: mock.url, site_id: mock.siteId });
    const verify = (n: { headers: Record<string, string>; body: string }, key = secret, current = settings()) =>
      webflow.verifyWebhook!({ headers: new Headers(n.headers), body: new TextEncoder().encode(n.body) }, key, current);

    it('accepts a signed, fresh collection_item_changed and asks for a sync', () => {
      expect(verify(mock.notification(secret, mock.seedItem('cart')))).toEqual({ verified: true, sync: true });
      expect(verify(mock.notification(secret, mock.seedItem('cart'), { triggerType: 'collection_item_created' }))).toEqual({ verified: true, sync: true });
    });

    it('refuses a forged signature, a changed body and a missing header', () => {
      const forged = verify(mock.notification('not-the-secret', mock.seedItem('cart')));
      expect(forged).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/does not match/) });
      const genuine = mock.notification(secret, mock.seedItem('cart'));
      expect(verify({ ...genuine, body: genuine.body.replace('Your cart', 'Our cart') }).verified).toBe(false);
      const { 'x-webflow-signature': _dropped, ...unsigned } = genuine.headers;
      expect(verify({ headers: unsigned, body: genuine.body })).toMatchObject({ verified: false, reason: expect.stringMatching(/missing/) });
    });

    it('refuses a notification older than five minutes, even correctly signed', () => {
      const stale = verify(mock.notification(secret, mock.seedItem('cart'), { at: Date.now() - 6 * 60_000 }));
      expect(stale).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/5 minutes/) });
      expect(verify(mock.notification(secret, mock.seedItem('cart'), { at: Date.now() - 4 * 60_000 })).verified).toBe(true);
    });

    it('verifies but does not sync for other events, sites and collections', () => {
      expect(verify(mock.notification(secret, mock.seedItem('cart'), { triggerType: 'site_publish' }))).toMatchObject({ verified: true, sync: false });
      const other = webflow.settings.parse({ api_url: mock.url, site_id: '5f0c8c9e1c9d440000e8d8c3' });
      expect(verify(mock.notification(secret, mock.seedItem('cart')), secret, other)).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/site/) });
      const onlyBlog = webflow.settings.parse({ api_url: mock.url, site_id: mock.siteId, collections: [mock.blogId] });
      expect(verify(mock.notification(secret, mock.seedItem('cart')), secret, onlyBlog)).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/collection/) });
    });
  });
});

connectorAcceptance('Webflow acceptance', webflowFixture, { direction: 'two_way' });
