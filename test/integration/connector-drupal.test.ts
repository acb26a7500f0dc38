/** The Drupal connector against a local Drupal (JSON:API, Content Translation): listing per language, write-back, refusals, webhooks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { drupal } from '../../server/integrations/connectors/drupal.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { drupalFixture, startDrupalMock, type DrupalMock } from '../helpers/connector-mocks/drupal.js';

const EXTRA = 56;
const RESOURCE = { entity_type: 'node', bundle: 'article', fields: ['title', 'body'] };

function context(mock: DrupalMock, overrides: { secrets?: Record<string, string>; settings?: Record<string, unknown> } = {}) {
  return connectorContext(drupal, { site_url: mock.url, resources: [RESOURCE], ...overrides.settings }, overrides.secrets ?? { username: mock.username, password: mock.password });
}

describe('Drupal connector', () => {
  let mock: DrupalMock;
  beforeAll(async () => {
    mock = await startDrupalMock({ extraNodes: EXTRA });
    mock.setBody(mock.nodes.get('welcome')!, 'en', { value: '<p>Everything for your home.</p>', format: 'basic_html', summary: 'Home goods' });
  });
  afterAll(async () => {
    await mock.close();
  });
  const uuid = (id: string) => mock.nodes.get(id)!;

  it('lists every article over pages of 50 in each language, with the body, its summary, notes and the title limit', async () => {
    mock.setTitle(uuid('farewell'), 'fr', 'À bientôt');
    mock.requests.length = 0;
    const listing = await drupal.list(context(mock));
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe('node/article');
    expect(unit.locales).toEqual(['de', 'fr']);
    expect(unit.strings.filter((s) => s.key.endsWith('.title'))).toHaveLength(SEED.length + EXTRA);
    expect(unit.strings.find((s) => s.key === `${uuid('welcome')}.title`)).toMatchObject({ source: 'Welcome to our store', maxLength: 255, translations: {} });
    expect(unit.strings.find((s) => s.key === `${uuid('welcome')}.body`)).toMatchObject({ source: '<p>Everything for your home.</p>', notes: 'The article text, shown under the title.', context: 'node/article "Welcome to our store": Body' });
    expect(unit.strings.find((s) => s.key === `${uuid('welcome')}.body.summary`)).toMatchObject({ source: 'Home goods' });
    // The fr read falls back to English for every node but one: only that one is a translation.
    expect(unit.strings.find((s) => s.key === `${uuid('farewell')}.title`)!.translations).toEqual({ fr: 'À bientôt' });
    const pages = mock.requests.filter((r) => /^(\/(de|fr))?\/jsonapi\/node\/article$/.test(r.path));
    expect(pages.map((r) => `${r.path} ${r.query['page[offset]'] ?? 0}`)).toEqual(['/jsonapi/node/article 0', '/jsonapi/node/article 50', '/de/jsonapi/node/article 0', '/de/jsonapi/node/article 50', '/fr/jsonapi/node/article 0', '/fr/jsonapi/node/article 50']);
    expect(pages.every((r) => r.query['page[limit]'] === '50' && r.query['fields[node--article]']?.includes('changed'))).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `Basic ${Buffer.from(`${mock.username}:${mock.password}`).toString('base64')}`)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it("without 'administer languages', checks each target language under its prefix; without field config, lists without notes", async () => {
    const limited = await startDrupalMock({ administer: false });
    try {
      const ctx = connectorContext(drupal, { site_url: limited.url, resources: [RESOURCE] }, { username: limited.username, password: limited.password });
      const listing = await drupal.list(ctx);
      const unit = listing.units[0] as StringUnit;
      expect(unit.locales).toEqual(['de', 'fr']);
      expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
      expect(listing.note).toMatch(/checked under its path prefix: found de, fr/);
      expect(listing.note).toMatch(/no field descriptions/);
      expect(unit.strings.find((s) => s.key === `${limited.nodes.get('welcome')!}.title`)).toMatchObject({ maxLength: 255 });
    } finally {
      await limited.close();
    }
  });

  it('PATCHes an existing translation under its prefix, reports the ones core JSON:API cannot create, and writing again changes nothing', async () => {
    const unit = (await drupal.list(context(mock))).units[0] as StringUnit;
    mock.requests.length = 0;
    const rows = [
      { key: `${uuid('farewell')}.title`, locale: 'fr', text: 'À très bientôt' },
      { key: `${uuid('farewell')}.title`, locale: 'de', text: 'Bis bald' },
    ];
    const first = await drupal.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(1);
    expect(first.note).toMatch(/1 translation\(s\) do not exist in Drupal yet and core JSON:API cannot create them/);
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.path)).toEqual([`/fr/jsonapi/node/article/${uuid('farewell')}`]);
    expect(patches[0]!.contentType).toBe('application/vnd.api+json');
    expect(patches[0]!.body).toEqual({ data: { type: 'node--article', id: uuid('farewell'), attributes: { title: 'À très bientôt' } } });
    expect(mock.title(uuid('farewell'), 'fr')).toBe('À très bientôt');
    expect(mock.title(uuid('farewell'), 'de')).toBeUndefined();
    mock.requests.length = 0;
    const again = await drupal.write!(context(mock), stringsWriteBack((await drupal.list(context(mock))).units[0] as StringUnit, rows.slice(0, 1)));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  });

  it('creates translations through JSON:API Multilingual, the body with its format and summary, with OAuth client credentials', async () => {
    const settings = { create_translations: 'jsonapi_multilingual' };
    const multi = await startDrupalMock({ multilingual: true });
    try {
      const welcome = multi.nodes.get('welcome')!;
      multi.setBody(welcome, 'en', { value: '<p>Everything for your home.</p>', format: 'basic_html', summary: 'Home goods' });
      const ctx = connectorContext(drupal, { site_url: multi.url, resources: [RESOURCE], ...settings }, { client_id: multi.clientId, client_secret: multi.clientSecret });
      const unit = (await drupal.list(ctx)).units[0] as StringUnit;
      expect(multi.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(1);
      multi.requests.length = 0;
      const result = await drupal.write!(ctx, stringsWriteBack(unit, [
        { key: `${welcome}.title`, locale: 'de', text: 'Willkommen in unserem Laden' },
        { key: `${welcome}.body`, locale: 'de', text: '<p>Alles für Ihr Zuhause.</p>' },
        { key: `${welcome}.body.summary`, locale: 'de', text: 'Wohnen' },
      ]));
      expect(result.written).toBe(3);
      const posts = multi.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/jsonapi'));
      expect(posts).toHaveLength(1);
      expect(posts[0]!.query.langCode).toBe('de');
      expect(multi.title(welcome, 'de')).toBe('Willkommen in unserem Laden');
      expect(multi.body(welcome, 'de')).toEqual({ value: '<p>Alles für Ihr Zuhause.</p>', format: 'basic_html', summary: 'Wohnen' });
      // The token fetched for the listing is still good: the write-back uses it.
      expect(multi.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(0);
      expect(multi.requests.filter((r) => r.path.includes('jsonapi')).every((r) => r.authorization?.startsWith('Bearer tok-'))).toBe(true);
    } finally {
      await multi.close();
    }
  });

  it('never overwrites a translation a person changed in Drupal between the listing and the write', async () => {
    const unit = (await drupal.list(context(mock))).units[0] as StringUnit;
    mock.setTitle(uuid('farewell'), 'fr', 'Salut (à la main)');
    const result = await drupal.write!(context(mock), stringsWriteBack(unit, [{ key: `${uuid('farewell')}.title`, locale: 'fr', text: 'À plus' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`${uuid('farewell')}\\.title \\(fr\\)`));
    expect(mock.title(uuid('farewell'), 'fr')).toBe('Salut (à la main)');
  });

  it('a node deleted after the listing is skipped with a note, not an error', async () => {
    const extra = await startDrupalMock({ multilingual: true });
    try {
      const ctx = connectorContext(drupal, { site_url: extra.url, resources: [RESOURCE], create_translations: 'jsonapi_multilingual' }, { username: extra.username, password: extra.password });
      const unit = (await drupal.list(ctx)).units[0] as StringUnit;
      extra.remove(extra.nodes.get('cart')!);
      const result = await drupal.write!(ctx, stringsWriteBack(unit, [{ key: `${extra.nodes.get('cart')!}.title`, locale: 'de', text: 'Ihr Warenkorb ist leer' }]));
      expect(result.written).toBe(0);
      expect(result.note).toMatch(/no longer exist in Drupal/);
    } finally {
      await extra.close();
    }
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1, 1);
    const started = Date.now();
    const listing = await drupal.list(context(mock));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((listing.units[0] as StringUnit).strings.filter((s) => s.key.endsWith('.title'))).toHaveLength(SEED.length + EXTRA);
    expect(mock.requests[0]!.status).toBe(429);
    expect(mock.requests[0]!.path).toBe(mock.requests[1]!.path);
  });

  it("refused credentials are an 'auth' error: a wrong Basic password (Drupal serves it as anonymous), a bad token, a bad client", async () => {
    const basic = await rejection(drupal.list(context(mock, { secrets: { username: mock.username, password: 'wrong' } })));
    expect(basic.kind).toBe('auth');
    expect(basic.message).toMatch(/as anonymous.*credentials/);
    const token = await rejection(drupal.list(context(mock, { secrets: { access_token: 'expired' } })));
    expect(token.kind).toBe('auth');
    expect(token.message).toMatch(/HTTP 401: The resource owner or authorization server denied the request\./);
    const client = await rejection(drupal.list(context(mock, { secrets: { client_id: 'x', client_secret: 'y' } })));
    expect(client.kind).toBe('auth');
    expect(client.message).toMatch(/Client authentication failed/);
  });

  it("a bundle the site does not have is a 'config' error naming it; bad settings are refused by name", async () => {
    const error = await rejection(drupal.list(context(mock, { settings: { resources: [{ entity_type: 'node', bundle: 'artikle', fields: ['title'] }] } })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/node\/artikle.*HTTP 404/);
    const field = await rejection(drupal.list(context(mock, { settings: { resources: [{ entity_type: 'node', bundle: 'article', fields: ['field_subtitle'] }] } })));
    expect(field.message).toMatch(/has no field 'field_subtitle'/);
    const parsed = drupal.settings.safeParse({ site_url: 'not a url', resources: [] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path[0])).toEqual(expect.arrayContaining(['site_url', 'resources']));
    expect(drupal.secrets.safeParse({ username: 'only' }).success).toBe(false);
  });

  it("a server that does not answer is 'unavailable', and so is its 5xx", async () => {
    mock.failNext(503);
    const down = await rejection(drupal.list(context(mock)));
    expect(down.kind).toBe('unavailable');
    expect(down.message).toMatch(/HTTP 503: The website is under maintenance/);
    await mock.stop();
    try {
      const error = await rejection(drupal.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await drupal.list(context(mock))).units).toHaveLength(1);
  });

  it('accepts a signed or secret-carrying notification and refuses a forged, stale or bare one', () => {
    const settings = context(mock).settings;
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    const verify = (hook: { headers: Record<string, string>; body: string }) => drupal.verifyWebhook!(request(hook), 's3cret', settings);
    expect(verify(mock.notification('s3cret', uuid('cart')))).toEqual({ verified: true, sync: true });
    expect(verify(mock.notification('s3cret', uuid('cart'), { signed: false }))).toEqual({ verified: true, sync: true });
    expect(verify(mock.notification('guess', uuid('cart'))).verified).toBe(false);
    expect(verify(mock.notification('guess', uuid('cart'), { signed: false })).verified).toBe(false);
    expect(verify(mock.notification('s3cret', uuid('cart'), { at: Date.now() - 6 * 60_000 }))).toMatchObject({ verified: false, reason: expect.stringMatching(/300 s/) });
    expect(verify({ headers: { 'content-type': 'application/json' }, body: '{}' })).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Parlance-Signature/) });
    const other = { headers: { 'x-parlance-webhook-secret': 's3cret' }, body: JSON.stringify({ event: 'entity:taxonomy_term:update', entity_type: 'taxonomy_term', bundle: 'tags' }) };
    expect(verify(other)).toMatchObject({ verified: true, sync: false });
  });
});

connectorAcceptance('Drupal acceptance', drupalFixture, { direction: 'two_way' });
