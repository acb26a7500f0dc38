/** The Ghost connector against a local Ghost Admin API: tag-linked translation posts, JWT auth, pages, drafts and updates, refusals, webhooks. */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { ghost } from '../../server/integrations/connectors/ghost.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { ghostFixture, startGhostMock, type GhostMock } from '../helpers/connector-mocks/ghost.js';

const context = (mock: GhostMock, overrides: { key?: string; settings?: Record<string, unknown>; targetLocales?: string[] } = {}) =>
  connectorContext(ghost, { api_url: mock.url, ...overrides.settings }, { admin_api_key: overrides.key ?? mock.apiKey }, overrides.targetLocales ? { targetLocales: overrides.targetLocales } : {});

/** Ghost's signature, computed here as Ghost's webhook trigger does: hex HMAC-SHA256 of the body then the timestamp. */
const hmac = (secret: string, body: string, at: string) => createHmac('sha256', secret).update(`${body}${at}`).digest('hex');

const unitAt = (units: unknown[], path: string) => (units as StringUnit[]).find((u) => u.path === path)!;

describe('Ghost connector', () => {
  let mock: GhostMock;
  beforeAll(async () => {
    // 4 seed posts and 120 more: three pages of 50 in English.
    mock = await startGhostMock({ extraPosts: 120 });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });
  const posts = async (settings: Record<string, unknown> = {}) => unitAt((await ghost.list(context(mock, { settings }))).units, 'posts');
  const welcome = () => mock.posts.get('welcome')!;

  it('lists every #lang-en post page by page with a fresh Admin API JWT, with Ghost limits and notes, skipping ja', async () => {
    const listing = await ghost.list(context(mock));
    const unit = unitAt(listing.units, 'posts');
    expect(listing.units.map((u) => u.path)).toEqual(['posts']);
    expect(unit.locales).toEqual(['de', 'fr']);
    // Seeds: title and body; extra posts: title, excerpt, meta title and description, body. The untagged draft is out.
    expect(unit.strings).toHaveLength(SEED.length * 2 + 120 * 5);
    expect(unit.strings.find((s) => s.key === `${welcome()}.title`)).toMatchObject({ source: 'Welcome to our store', context: `posts › ${welcome()} › title`, maxLength: 255, translations: {} });
    expect(unit.strings.find((s) => s.key === `${welcome()}.html`)).toMatchObject({ source: '<p>The welcome message.</p>', context: `posts › ${welcome()} › html`, notes: expect.stringMatching(/HTML/) });
    expect(unit.strings.find((s) => s.source === 'Excerpt 7')).toMatchObject({ maxLength: 300 });
    expect(unit.strings.find((s) => s.source === 'Meta title 7')).toMatchObject({ maxLength: 300, notes: expect.stringMatching(/SEO title/) });
    expect(unit.strings.find((s) => s.source === 'Meta description 7')).toMatchObject({ maxLength: 500 });
    expect(unit.strings.some((s) => s.source === 'Untagged draft')).toBe(false);
    const english = mock.requests.filter((r) => r.path === '/ghost/api/admin/posts/' && r.query.filter === 'tag:hash-lang-en');
    expect(english.map((r) => r.query.page)).toEqual(['1', '2', '3']);
    expect(english.every((r) => r.query.limit === '50' && r.query.formats === 'html')).toBe(true);
    expect(mock.requests.some((r) => r.path === '/ghost/api/admin/tags/' && r.query.filter === 'visibility:internal')).toBe(true);
    expect(mock.requests.every((r) => /^Ghost [\w-]+\.[\w-]+\.[\w-]+$/.test(r.authorization ?? '') && r.acceptVersion === 'v5.0' && r.status === 200)).toBe(true);
    const [head, claims] = mock.requests[0]!.authorization!.slice(6).split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(head).toEqual({ alg: 'HS256', typ: 'JWT', kid: mock.apiKey.split(':')[0] });
    expect(claims).toMatchObject({ aud: '/admin/' });
    expect((claims!.exp as number) - (claims!.iat as number)).toBe(300);
    expect(listing.note).toMatch(/de → #lang-de, fr → #lang-fr/);
    expect(listing.note).toMatch(/Skipped target locale\(s\) ja: the site has no #lang-… tag/);
  });

  it('pages are a second path; without include_body the HTML body is not a string', async () => {
    const listing = await ghost.list(context(mock, { settings: { content_types: ['posts', 'pages'], include_body: false } }));
    expect(listing.units.map((u) => u.path)).toEqual(['posts', 'pages']);
    expect(unitAt(listing.units, 'pages').strings.map((s) => s.source)).toEqual(['About us']);
    expect(unitAt(listing.units, 'posts').strings.some((s) => s.key.endsWith('.html'))).toBe(false);
  });

  it('creates a missing translation as a tagged draft, updates it with updated_at next time, and writing again changes nothing', async () => {
    let unit = await posts();
    mock.requests.length = 0;
    const rows = [
      { key: `${welcome()}.title`, locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: `${welcome()}.html`, locale: 'de', text: '<p>Die Willkommensnachricht.</p>' },
    ];
    const first = await ghost.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(2);
    expect(first.note).toMatch(/Created 1 translation post/);
    const created = mock.requests.find((r) => r.method === 'POST')!;
    expect(created).toMatchObject({ path: '/ghost/api/admin/posts/', query: { source: 'html' }, status: 201 });
    expect(created.body).toEqual({ posts: [{ title: 'Willkommen in unserem Laden', html: '<p>Die Willkommensnachricht.</p>', status: 'draft', tags: [{ name: '#lang-de' }, { name: `#translation-of-${welcome()}` }] }] });
    expect(mock.translation(welcome(), 'de')).toMatchObject({ title: 'Willkommen in unserem Laden', status: 'draft', html: '<p>Die Willkommensnachricht.</p>' });
    // The draft is listed as the post's German translation, and is no source of its own.
    unit = await posts();
    expect(unit.strings.find((s) => s.key === `${welcome()}.title`)?.translations).toEqual({ de: 'Willkommen in unserem Laden' });
    expect(unit.strings.some((s) => s.source === 'Willkommen in unserem Laden')).toBe(false);
    mock.requests.length = 0;
    const german = { ...mock.translation(welcome(), 'de')! };
    const second = await ghost.write!(context(mock), stringsWriteBack(unit, [{ key: `${welcome()}.title`, locale: 'de', text: 'Willkommen im Laden' }]));
    expect(second.written).toBe(1);
    const put = mock.requests.find((r) => r.method === 'PUT')!;
    expect(put).toMatchObject({ path: `/ghost/api/admin/posts/${german.id}/`, status: 200 });
    expect(put.query.source).toBeUndefined();
    expect(put.body).toEqual({ posts: [{ title: 'Willkommen im Laden', updated_at: german.updated_at }] });
    expect(mock.translation(welcome(), 'de')!.title).toBe('Willkommen im Laden');
    // The same write again, even with the listing from before: nothing is sent, nothing duplicated.
    mock.requests.length = 0;
    const again = await ghost.write!(context(mock), stringsWriteBack(unit, [{ key: `${welcome()}.title`, locale: 'de', text: 'Willkommen im Laden' }]));
    expect(again.written).toBe(0);
    expect(mock.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
    expect(mock.count('de')).toBe(1);
  });

  it('never overwrites a translation a person changed in Ghost between the listing and the write', async () => {
    const cart = mock.posts.get('cart')!;
    mock.edit(cart, 'fr', 'title', 'Votre panier est vide');
    const unit = await posts();
    mock.edit(cart, 'fr', 'title', 'Panier vide (corrigé à la main)');
    const result = await ghost.write!(context(mock), stringsWriteBack(unit, [{ key: `${cart}.title`, locale: 'fr', text: 'Le panier est vide' }]));
    expect(result.written).toBe(0);
    expect(result.note).toMatch(new RegExp(`posts ${cart} title \\(fr\\)`));
    expect(mock.translation(cart, 'fr')!.title).toBe('Panier vide (corrigé à la main)');
  });

  it('a save in Ghost between the re-read and the PUT (409 UpdateCollisionError): read again, a person\'s field kept, another field written', async () => {
    const unit = await posts();
    const key = `${welcome()}.title`;
    // A person changes the title itself: after the 409 the re-read shows it, so it is theirs.
    mock.beforeNextPut(() => mock.edit(welcome(), 'de', 'title', 'Willkommen (von Hand)'));
    mock.requests.length = 0;
    const kept = await ghost.write!(context(mock), stringsWriteBack(unit, [{ key, locale: 'de', text: 'Herzlich willkommen' }]));
    expect(mock.requests.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([409]);
    expect(kept.written).toBe(0);
    expect(kept.note).toMatch(/a person changed in Ghost/);
    expect(mock.translation(welcome(), 'de')!.title).toBe('Willkommen (von Hand)');
    // A person changes another field: after the 409 the title is written with the new updated_at.
    const fresh = await posts();
    mock.beforeNextPut(() => mock.edit(welcome(), 'de', 'meta_title', 'SEO von Hand'));
    mock.requests.length = 0;
    const written = await ghost.write!(context(mock), stringsWriteBack(fresh, [{ key, locale: 'de', text: 'Herzlich willkommen' }]));
    expect(mock.requests.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([409, 200]);
    expect(written.written).toBe(1);
    expect(mock.translation(welcome(), 'de')).toMatchObject({ title: 'Herzlich willkommen', meta_title: 'SEO von Hand' });
  });

  it('a token refused as expired is sent again, once, with a new one', async () => {
    mock.expireNextToken();
    const unit = await posts({ include_body: false });
    expect(mock.requests.slice(0, 2).map((r) => [r.path, r.status])).toEqual([['/ghost/api/admin/tags/', 401], ['/ghost/api/admin/tags/', 200]]);
    expect(unit.strings.length).toBeGreaterThan(SEED.length);
  });

  it("leaves out a translation longer than Ghost's limit, and a post deleted since the listing, saying so", async () => {
    const unit = await posts();
    const meta = unit.strings.find((s) => s.source === 'Meta description 3')!;
    const checkout = mock.posts.get('checkout')!;
    const doomed = unit.strings.find((s) => s.source === 'Post 9')!;
    mock.remove(doomed.key.split('.')[0]!);
    mock.requests.length = 0;
    const result = await ghost.write!(context(mock), stringsWriteBack(unit, [
      { key: meta.key, locale: 'de', text: 'x'.repeat(501) },
      { key: doomed.key, locale: 'de', text: 'Beitrag 9' },
      { key: `${checkout}.title`, locale: 'de', text: 'Zur Kasse' },
    ]));
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/longer than Ghost allows: .*meta_description \(de, 501 > 500\)/);
    expect(result.note).toMatch(/deleted in Ghost since the listing/);
    expect(mock.requests.every((r) => r.status < 400 || r.status === 404)).toBe(true);
    expect(mock.translation(checkout, 'de')!.title).toBe('Zur Kasse');
  });

  it('with create_languages, a project locale the site has no tag for gets one with its first translation', async () => {
    const ctx = context(mock, { settings: { create_languages: true } });
    const listing = await ghost.list(ctx);
    const unit = unitAt(listing.units, 'posts');
    expect(unit.locales).toEqual(['de', 'fr', 'ja']);
    expect(listing.note).toMatch(/ja → #lang-ja \(created with the first translation\)/);
    const result = await ghost.write!(ctx, stringsWriteBack(unit, [{ key: `${welcome()}.title`, locale: 'ja', text: '私たちの店へようこそ' }]));
    expect(result.written).toBe(1);
    expect(mock.translation(welcome(), 'ja')?.title).toBe('私たちの店へようこそ');
    expect((await ghost.list(ctx)).note).toMatch(/ja → #lang-ja[,.]/);
  });

  it('waits out a 429 by its Retry-After and lists everything', async () => {
    mock.rateLimitNext(1);
    const started = Date.now();
    const unit = await posts({ include_body: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests[0]).toMatchObject({ path: '/ghost/api/admin/tags/', status: 429 });
    expect(mock.requests[1]).toMatchObject({ path: '/ghost/api/admin/tags/', status: 200 });
    expect(unit.strings.length).toBeGreaterThan(SEED.length);
  });

  it("a refused key is an 'auth' error quoting Ghost; a malformed one is refused by the settings schema", async () => {
    const [id] = mock.apiKey.split(':');
    const wrongSecret = await rejection(ghost.list(context(mock, { key: `${id}:${'0'.repeat(64)}` })));
    expect(wrongSecret.kind).toBe('auth');
    expect(wrongSecret.message).toMatch(/HTTP 401: Invalid token: invalid signature/);
    const unknown = await rejection(ghost.list(context(mock, { key: `${'a'.repeat(24)}:${'0'.repeat(64)}` })));
    expect(unknown.message).toMatch(/HTTP 401: Unknown Admin API Key/);
    const parsed = ghost.secrets.safeParse({ admin_api_key: 'not-a-key' });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/admin_api_key.*Admin API key/);
  });

  it("a site without the source language tag, or a wrong api_url, is a 'config' error naming it", async () => {
    const source = await rejection(ghost.list({ ...context(mock), sourceLocale: 'es' }));
    expect(source.kind).toBe('config');
    expect(source.message).toMatch(/no language tag for the project's source locale 'es' \(expected the internal tag '#lang-es'; the site has #lang-en, #lang-de, #lang-fr/);
    const wrong = await rejection(ghost.list(context(mock, { settings: { api_url: `${mock.url}/blog` } })));
    expect(wrong.kind).toBe('config');
    expect(wrong.message).toMatch(/HTTP 404.*api_url/);
    expect(ghost.settings.safeParse({ api_url: mock.url, language_tag_prefix: 'lang-' }).success).toBe(false);
  });

  it("Ghost down is 'unavailable', and fine once it is back", async () => {
    await mock.stop();
    try {
      expect((await rejection(ghost.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await ghost.list(context(mock))).units).toHaveLength(1);
  });

  describe('webhooks', () => {
    const secret = 'whsec-ghost-0123456789abcdef';
    const settings = (extra: Record<string, unknown> = {}) => ghost.settings.parse({ api_url: mock.url, ...extra });
    const verify = (n: { headers: Record<string, string>; body: string }, key = secret, current = settings()) =>
      ghost.verifyWebhook!({ headers: new Headers(n.headers), body: new TextEncoder().encode(n.body) }, key, current);

    it('accepts a signed, fresh post event and asks for a sync', () => {
      expect(verify(mock.notification(secret, welcome()))).toEqual({ verified: true, sync: true });
    });

    it('refuses a forged signature, a changed body and a missing header', () => {
      expect(verify(mock.notification('not-the-secret', welcome()))).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/does not match/) });
      const genuine = mock.notification(secret, welcome());
      expect(verify({ ...genuine, body: genuine.body.replace('Welcome', 'Farewell') }).verified).toBe(false);
      expect(verify({ headers: { 'content-type': 'application/json' }, body: genuine.body })).toMatchObject({ verified: false, reason: expect.stringMatching(/No X-Ghost-Signature/) });
    });

    it('refuses a notification more than five minutes old, even correctly signed', () => {
      expect(verify(mock.notification(secret, welcome(), { at: Date.now() - 6 * 60_000 }))).toMatchObject({ verified: false, sync: false, reason: expect.stringMatching(/5 minutes/) });
      expect(verify(mock.notification(secret, welcome(), { at: Date.now() - 4 * 60_000 })).verified).toBe(true);
    });

    it('verifies but does not sync for tag events, pages not translated, and posts without language tags', () => {
      expect(verify(mock.notification(secret, welcome(), { event: 'tag' }))).toMatchObject({ verified: true, sync: false });
      // Verifying asks Ghost nothing.
      const before = mock.requests.length;
      const page = mock.notification(secret, welcome(), { event: 'page' });
      expect(verify(page)).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/pages/) });
      expect(verify(page, secret, settings({ content_types: ['pages'] }))).toEqual({ verified: true, sync: true });
      const body = JSON.stringify({ post: { current: { id: 'x', title: 'Untagged', tags: [{ name: 'News' }] }, previous: { title: 'Old' } } });
      const at = String(Date.now());
      expect(verify({ headers: { 'x-ghost-signature': `sha256=${hmac(secret, body, at)}, t=${at}` }, body })).toMatchObject({ verified: true, sync: false, reason: expect.stringMatching(/no #lang-… or #translation-of-… tag/) });
      expect(mock.requests.length).toBe(before);
    });
  });
});

connectorAcceptance('Ghost acceptance', ghostFixture, { direction: 'two_way' });
