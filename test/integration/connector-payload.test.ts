/** The Payload connector against a local Payload 3 REST API: listing over pages, write-back, refusals, the down server, the signed hook. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { payload } from '../../server/integrations/connectors/payload.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { payloadFixture, payloadWebhook, PAYLOAD_COLLECTION, PAYLOAD_GLOBAL, PAYLOAD_LOCALES, startPayloadMock, type PayloadMock } from '../helpers/connector-mocks/payload.js';

interface Overrides {
  secrets?: Record<string, string>;
  collections?: Record<string, string[]>;
  globals?: Record<string, string[]>;
}

function context(mock: PayloadMock, overrides: Overrides = {}) {
  const settings = {
    api_url: mock.url,
    collections: overrides.collections ?? { [PAYLOAD_COLLECTION]: ['title', 'meta.description'] },
    globals: overrides.globals ?? { [PAYLOAD_GLOBAL]: ['tagline'] },
    payload_locales: [...PAYLOAD_LOCALES],
    max_lengths: { [`${PAYLOAD_COLLECTION}.title`]: 120 },
  };
  return connectorContext(payload, settings, overrides.secrets ?? { api_key: mock.apiKey });
}

const units = async (mock: PayloadMock, overrides: Overrides = {}) => (await payload.list(context(mock, overrides))).units as StringUnit[];

describe('Payload connector', () => {
  let mock: PayloadMock;
  beforeAll(async () => {
    mock = await startPayloadMock({ extraPosts: 226 });
  });
  afterAll(async () => {
    await mock.close();
  });
  const key = (seed: string, field = 'title') => `${mock.posts.get(seed)!}.${field}`;

  it('lists every post over several pages with locale=all, the global, the stated limit, and skips ja', async () => {
    mock.requests.length = 0;
    const listing = await payload.list(context(mock));
    const [posts, header] = listing.units as StringUnit[];
    expect(posts!.path).toBe(PAYLOAD_COLLECTION);
    expect(posts!.locales).toEqual(['de', 'fr']);
    expect(posts!.strings).toHaveLength(2 * (SEED.length + 226));
    expect(posts!.strings.find((s) => s.key === key('welcome'))).toMatchObject({ source: 'Welcome to our store', maxLength: 120, context: 'posts (title)', translations: {} });
    expect(posts!.strings.find((s) => s.key === key('welcome', 'meta.description'))).toMatchObject({ source: 'About: Welcome to our store', context: 'posts: Welcome to our store (meta.description)' });
    expect(header).toMatchObject({ path: `globals/${PAYLOAD_GLOBAL}`, strings: [{ key: 'tagline', source: 'Fresh goods every day' }] });
    const pages = mock.requests.filter((r) => r.path === `/api/${PAYLOAD_COLLECTION}`);
    expect(pages.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(pages.every((r) => r.query.get('locale') === 'all' && r.query.get('depth') === '0' && r.query.get('limit') === '100')).toBe(true);
    expect(mock.requests.every((r) => r.authorization === `users API-Key ${mock.apiKey}`)).toBe(true);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja/);
  });

  it('writes one PATCH per document and locale (a group field merged), the global by POST, and writing again changes nothing', async () => {
    const id = mock.posts.get('welcome')!;
    const [posts, header] = await units(mock);
    mock.requests.length = 0;
    const rows = [
      { key: key('welcome'), locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: key('welcome', 'meta.description'), locale: 'de', text: 'Über: Willkommen' },
      { key: key('welcome'), locale: 'fr', text: 'Bienvenue dans notre boutique' },
    ];
    const first = await payload.write!(context(mock), stringsWriteBack(posts!, rows));
    expect(first.written).toBe(3);
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => [r.path, r.query.get('locale'), r.body])).toEqual([
      [`/api/${PAYLOAD_COLLECTION}/${id}`, 'de', { title: 'Willkommen in unserem Laden', meta: { description: 'Über: Willkommen' } }],
      [`/api/${PAYLOAD_COLLECTION}/${id}`, 'fr', { title: 'Bienvenue dans notre boutique' }],
    ]);
    expect(mock.value(id, 'title', 'de')).toBe('Willkommen in unserem Laden');
    expect(mock.value(id, 'meta.description', 'fr')).toBeUndefined();
    expect(mock.value(id, 'title', 'en')).toBe('Welcome to our store');
    await payload.write!(context(mock), stringsWriteBack(header!, [{ key: 'tagline', locale: 'fr', text: 'Des produits frais chaque jour' }]));
    expect(mock.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.query.get('locale')])).toEqual([[`/api/globals/${PAYLOAD_GLOBAL}`, 'fr']]);
    expect(mock.tagline('fr')).toBe('Des produits frais chaque jour');
    mock.requests.length = 0;
    const again = await payload.write!(context(mock), stringsWriteBack(posts!, rows));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
    const listed = (await units(mock))[0]!.strings.find((s) => s.key === key('welcome'))!;
    expect(listed.translations).toEqual({ de: 'Willkommen in unserem Laden', fr: 'Bienvenue dans notre boutique' });
  });

  it('never overwrites a translation a person changed in Payload between the listing and the write', async () => {
    const id = mock.posts.get('cart')!;
    const [posts] = await units(mock);
    mock.set(id, 'title', 'de', 'Warenkorb: leer (von Hand)');
    const result = await payload.write!(context(mock), stringsWriteBack(posts!, [{ key: key('cart'), locale: 'de', text: 'Ihr Warenkorb ist leer' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`posts/${id}\\.title \\(de\\)`));
    expect(mock.value(id, 'title', 'de')).toBe('Warenkorb: leer (von Hand)');
  });

  it('a document deleted since the listing is reported, not written, and the rest is', async () => {
    const [posts] = await units(mock);
    const gone = mock.posts.get('farewell')! + 100;
    const extra = posts!.strings.find((s) => s.key === `${gone}.title`)!;
    mock.deletePost(gone);
    const result = await payload.write!(context(mock), stringsWriteBack(posts!, [
      { key: extra.key, locale: 'de', text: 'Beitrag' },
      { key: key('checkout'), locale: 'fr', text: 'Passer à la caisse' },
    ]));
    expect(result.written).toBe(1);
    expect(result.note).toMatch(new RegExp(`posts document ${gone} was deleted in Payload since the listing \\(HTTP 404\\)`));
    expect(mock.value(mock.posts.get('checkout')!, 'title', 'fr')).toBe('Passer à la caisse');
  });

  it("a field that is not localized, or not text, is a 'config' error naming it", async () => {
    const slug = await rejection(payload.list(context(mock, { collections: { [PAYLOAD_COLLECTION]: ['slug'] } })));
    expect(slug.kind).toBe('config');
    expect(slug.message).toMatch(/field 'slug' is not localized/);
    const group = await rejection(payload.list(context(mock, { collections: { [PAYLOAD_COLLECTION]: ['meta'] } })));
    expect(group.message).toMatch(/field 'meta' is not a localized text field/);
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(1, 1);
    const started = Date.now();
    const [posts] = await units(mock);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(posts!.strings).toHaveLength(2 * (SEED.length + 225));
    expect(mock.requests[0]!.path).toBe(mock.requests[1]!.path);
  });

  it("an unknown API key is an 'auth' error even where reads are public, and a JWT works", async () => {
    const open = await startPayloadMock({ publicRead: true });
    try {
      const error = await rejection(payload.list(context(open, { secrets: { api_key: 'wrong' } })));
      expect(error.kind).toBe('auth');
      expect(error.message).toMatch(/did not accept the API key \(as `users API-Key …`\)/);
      const jwt = await units(open, { secrets: { token: open.jwt } });
      expect(jwt[0]!.strings.length).toBeGreaterThan(0);
      expect(open.requests.at(-1)!.authorization).toBe(`JWT ${open.jwt}`);
    } finally {
      await open.close();
    }
    expect(() => payload.secrets.parse({ api_key: 'a', token: 'b' })).toThrow(/exactly one of api_key/);
    expect(() => payload.settings.parse({ api_url: mock.url, payload_locales: ['en'] })).toThrow(/at least one collection/);
  });

  it("a collection Payload does not have is a 'config' error naming it", async () => {
    const error = await rejection(payload.list(context(mock, { collections: { artikles: ['title'] } })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/'artikles'.*HTTP 404: Route not found/);
  });

  it("a server that does not answer is 'unavailable'", async () => {
    await mock.stop();
    try {
      const error = await rejection(payload.list(context(mock)));
      expect(error.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect(await units(mock)).toHaveLength(2);
  });

  it("accepts the hook's signed request and refuses a forged, unsigned or stale one", () => {
    const settings = context(mock).settings;
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    expect(payload.verifyWebhook!(request(payloadWebhook('s3cret', { id: 1 })), 's3cret', settings)).toEqual({ verified: true, sync: true });
    expect(payload.verifyWebhook!(request(payloadWebhook('guess', { id: 1 })), 's3cret', settings).verified).toBe(false);
    const stale = payload.verifyWebhook!(request(payloadWebhook('s3cret', { id: 1 }, Math.floor(Date.now() / 1000) - 3600)), 's3cret', settings);
    expect(stale).toMatchObject({ verified: false, reason: expect.stringMatching(/more than 300 s from now/) });
    const bare = payloadWebhook('s3cret', { id: 1 });
    delete bare.headers['x-parlance-signature'];
    expect(payload.verifyWebhook!(request(bare), 's3cret', settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/X-Parlance-Signature/) });
    expect(payload.verifyWebhook!(request(payloadWebhook('s3cret', { id: 1, collection: 'media' })), 's3cret', settings)).toMatchObject({ verified: true, sync: false });
  });
});

connectorAcceptance('Payload acceptance', payloadFixture, { direction: 'two_way' });
