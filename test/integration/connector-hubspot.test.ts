/** The HubSpot CMS connector against a local CMS v3 API: cursor paging, variations' drafts, refusals, 429, v3 signatures. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { hubspot } from '../../server/integrations/connectors/hubspot.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { hubspotFixture, hubspotWebhook, HUBSPOT_PORTAL, startHubSpotMock, type HubSpotMock } from '../helpers/connector-mocks/hubspot.js';

const context = (mock: HubSpotMock, overrides: { token?: string; settings?: Record<string, unknown> } = {}) =>
  connectorContext(hubspot, { api_url: mock.url, languages: ['de', 'fr'], ...overrides.settings }, { access_token: overrides.token ?? mock.token });

describe('HubSpot CMS connector', () => {
  let mock: HubSpotMock;
  beforeAll(async () => {
    mock = await startHubSpotMock({ extraPages: 230 });
  });
  afterAll(async () => {
    await mock.close();
  });
  const key = (id: string) => `${mock.posts.get(id)!}.name`;
  const posts = (listing: { units: unknown[] }) => (listing.units as StringUnit[]).find((u) => u.path === 'blog-posts')!;

  it('lists pages over several cursor pages and posts, skipping ja and primaries in another language', async () => {
    const german = mock.add('posts', 'de', { name: 'Nur auf Deutsch' });
    mock.requests.length = 0;
    const listing = await hubspot.list(context(mock));
    const [pages, blog] = listing.units as StringUnit[];
    expect(pages!.path).toBe('site-pages');
    expect(pages!.locales).toEqual(['de', 'fr']);
    // name and htmlTitle of each page; empty metaDescriptions are no strings.
    expect(pages!.strings).toHaveLength(230 * 2);
    expect(blog!.strings.map((s) => s.key)).toEqual(SEED.map(({ id }) => key(id)));
    expect(blog!.strings[0]).toMatchObject({ source: 'Welcome to our store', translations: {}, context: expect.stringMatching(/blog post .*field name/) });
    const pageReads = mock.requests.filter((r) => r.path === '/cms/v3/pages/site-pages');
    expect(pageReads).toHaveLength(3);
    expect(pageReads[0]!.query.get('after')).toBeNull();
    expect(pageReads.slice(1).every((r) => r.query.get('after'))).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Bearer ${mock.token}`)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
    expect(listing.note).toMatch(/1 primary blog post\(s\) are not in en/);
    mock.remove(german);
  });

  it('creates a missing variation, writes only its draft, and writing again changes nothing', async () => {
    const settings = { settings: { content: ['blog_posts'] } };
    const unit = posts(await hubspot.list(context(mock, settings)));
    mock.requests.length = 0;
    const rows = [
      { key: key('welcome'), locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: key('welcome'), locale: 'fr', text: 'Bienvenue dans notre boutique' },
    ];
    const first = await hubspot.write!(context(mock, settings), stringsWriteBack(unit, rows));
    expect(first.written).toBe(2);
    const creates = mock.requests.filter((r) => r.path.endsWith('/multi-language/create-language-variation'));
    expect(creates.map((r) => r.body)).toEqual([
      { id: mock.posts.get('welcome'), language: 'de' },
      { id: mock.posts.get('welcome'), language: 'fr' },
    ]);
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches.every((r) => r.path.endsWith('/draft'))).toBe(true);
    expect(patches.map((r) => r.body)).toEqual([{ name: 'Willkommen in unserem Laden' }, { name: 'Bienvenue dans notre boutique' }]);
    expect(mock.draft(mock.posts.get('welcome')!, 'de')).toBe('Willkommen in unserem Laden');
    // Never published: the variation's live name is still the copied source.
    expect(mock.variation(mock.posts.get('welcome')!, 'de')!.live.name).toBe('Welcome to our store');
    const again = posts(await hubspot.list(context(mock, settings)));
    expect(again.strings.find((s) => s.key === key('welcome'))!.translations).toEqual({ de: 'Willkommen in unserem Laden', fr: 'Bienvenue dans notre boutique' });
    mock.requests.length = 0;
    const second = await hubspot.write!(context(mock, settings), stringsWriteBack(again, rows));
    expect(second.written).toBe(0);
    expect(mock.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('never overwrites a translation a person changed in HubSpot between the listing and the write', async () => {
    const settings = { settings: { content: ['blog_posts'] } };
    const unit = posts(await hubspot.list(context(mock, settings)));
    mock.edit(mock.variation(mock.posts.get('welcome')!, 'de')!.id, 'name', 'Herzlich willkommen (von Hand)');
    const result = await hubspot.write!(context(mock, settings), stringsWriteBack(unit, [{ key: key('welcome'), locale: 'de', text: 'Willkommen!' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`${mock.posts.get('welcome')!}\\.name \\(de\\)`));
    expect(mock.draft(mock.posts.get('welcome')!, 'de')).toBe('Herzlich willkommen (von Hand)');
  });

  it('a post deleted since the listing is reported, not an error', async () => {
    const settings = { settings: { content: ['blog_posts'] } };
    const doomed = mock.add('posts', 'en', { name: 'Short-lived' });
    const unit = posts(await hubspot.list(context(mock, settings)));
    mock.remove(doomed);
    const result = await hubspot.write!(context(mock, settings), stringsWriteBack(unit, [{ key: `${doomed}.name`, locale: 'de', text: 'Kurzlebig' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`blog post ${doomed}: deleted since the listing`));
  });

  it("waits out HubSpot's 429 by its Retry-After and lists everything", async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1, 1);
    const started = Date.now();
    const listing = await hubspot.list(context(mock, { settings: { content: ['blog_posts'] } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(posts(listing).strings).toHaveLength(SEED.length);
    expect(mock.requests[0]!.path).toBe(mock.requests[1]!.path);
  });

  it("a refused token is an 'auth' error quoting HubSpot; settings are checked by field", async () => {
    const error = await rejection(hubspot.list(context(mock, { token: 'pat-na1-wrong' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/HTTP 401: Authentication credentials not found/);
    expect(hubspot.settings.safeParse({ languages: ['de_DE'] }).error?.issues[0]).toMatchObject({ path: ['languages', 0], message: expect.stringMatching(/HubSpot language codes/) });
    expect(hubspot.settings.safeParse({ content: ['landing_pages'] }).success).toBe(false);
  });

  it("a server that does not answer is 'unavailable'", async () => {
    await mock.stop();
    try {
      const error = await rejection(hubspot.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await hubspot.list(context(mock, { settings: { content: ['blog_posts'] } }))).units).toHaveLength(1);
  });

  it('accepts a v3-signed notification and refuses a forged, stale or unsigned one', () => {
    const settings = hubspot.settings.parse({ portal_id: String(HUBSPOT_PORTAL) });
    const uri = 'https://parlance.example.com/hooks/integrations/con_1';
    const request = (hook: ReturnType<typeof hubspotWebhook>) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body), method: hook.method, path: hook.path });
    expect(hubspot.verifyWebhook!(request(hubspotWebhook('client-secret', uri, { objectId: '1' })), 'client-secret', settings)).toEqual({ verified: true, sync: true });
    expect(hubspot.verifyWebhook!(request(hubspotWebhook('guess', uri, { objectId: '1' })), 'client-secret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-HubSpot-Signature-v3 does not match/) });
    const stale = hubspot.verifyWebhook!(request(hubspotWebhook('client-secret', uri, { objectId: '1' }, Date.now() - 6 * 60_000)), 'client-secret', settings);
    expect(stale).toMatchObject({ verified: false, reason: expect.stringMatching(/over 5 minutes old/) });
    // Signed for another URL (a replay to another connection) does not verify.
    const elsewhere = hubspotWebhook('client-secret', 'https://parlance.example.com/hooks/integrations/con_2', { objectId: '1' });
    expect(hubspot.verifyWebhook!({ ...request(elsewhere), path: '/hooks/integrations/con_1' }, 'client-secret', settings).verified).toBe(false);
    const bare = hubspotWebhook('client-secret', uri, { objectId: '1' });
    delete bare.headers['x-hubspot-signature-v3'];
    expect(hubspot.verifyWebhook!(request(bare), 'client-secret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/No X-HubSpot-Signature-v3/) });
    expect(hubspot.verifyWebhook!(request(hubspotWebhook('client-secret', uri, { objectId: '1', portalId: 999 })), 'client-secret', settings)).toMatchObject({ verified: true, sync: false });
    // Behind a proxy that changes the host, the configured target URL is what is checked.
    const hook = hubspotWebhook('client-secret', uri, { objectId: '1' });
    const proxied = { ...request(hook), headers: new Headers({ ...hook.headers, host: 'internal:8080' }) };
    expect(hubspot.verifyWebhook!(proxied, 'client-secret', settings).verified).toBe(false);
    expect(hubspot.verifyWebhook!(proxied, 'client-secret', { ...settings, webhook_url: uri }).verified).toBe(true);
  });
});

connectorAcceptance('HubSpot CMS acceptance', hubspotFixture, { direction: 'two_way' });
