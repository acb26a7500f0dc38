/** The Storyblok connector against a local Management API (test/helpers/connector-mocks/storyblok.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { storyblok, type StoryblokSettings } from '../../server/integrations/connectors/storyblok.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { startStoryblokMock, storyblokFixture, type StoryblokMock, type StoryblokMockOptions } from '../helpers/connector-mocks/storyblok.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';

const context = (mock: StoryblokMock, overrides: { settings?: Partial<StoryblokSettings>; token?: string } = {}) =>
  connectorContext(storyblok, { api_url: mock.url, space_id: String(mock.spaceId), ...overrides.settings }, { management_token: overrides.token ?? mock.token }, { maxRetries: 1 });

/** A write per listed string and locale, with a recognisable text. */
const writesFor = (unit: StringUnit, locales: string[]) => unit.strings.flatMap((s) => locales.map((locale) => ({ key: s.key, locale, text: `${s.key} in ${locale}` })));

describe('Storyblok connector', () => {
  let mock: StoryblokMock;
  const start = async (options: StoryblokMockOptions = { maxPerPage: 3 }) => {
    mock = await startStoryblokMock(options);
  };
  beforeEach(() => start());
  afterEach(() => mock.close());

  it('lists the translatable text fields of every story, page by page, and skips languages the space does not have', async () => {
    const listing = await storyblok.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as StringUnit;
    expect(unit).toMatchObject({ kind: 'strings', path: 'article', locales: ['de', 'fr'] });
    // `title` only: `internal_note` is not translatable, `hero` is rich text.
    expect(unit.strings.map((s) => s.key).sort()).toEqual(SEED.map((s) => `${mock.storyId(s.id)}.title`).sort());
    expect(unit.strings.find((s) => s.key === `${mock.storyId('welcome')}.title`)).toMatchObject({ source: 'Welcome to our store', notes: 'The headline at the top of the page', maxLength: 120, context: 'Welcome to our store', translations: {} });
    expect(listing.note).toMatch(/4 stories in 2 pages; ja not among the space's languages, skipped/);
    const pages = mock.requests.filter((r) => r.path.endsWith('/stories'));
    expect(pages.map((r) => [r.query.page, r.query.story_only])).toEqual([
      ['1', '1'],
      ['2', '1'],
    ]);
    expect(mock.requests.filter((r) => /\/stories\/\d+$/.test(r.path))).toHaveLength(SEED.length);
  });

  it('reads nested bloks too, and what each language holds now', async () => {
    await mock.close();
    await start({ nested: true });
    mock.edit('cart', 'de', 'Ihr Warenkorb ist leer');
    const unit = (await storyblok.list(context(mock))).units[0] as StringUnit;
    const teaser = unit.strings.find((s) => s.key === `${mock.storyId('welcome')}.f9e8d7c6-1111-4111-8111-111111111111.headline`);
    expect(teaser).toMatchObject({ source: 'New arrivals every week', context: 'Welcome to our store' });
    expect(unit.strings.find((s) => s.key === `${mock.storyId('cart')}.title`)!.translations).toEqual({ de: 'Ihr Warenkorb ist leer' });
  });

  it('waits out a 429 by its Retry-After and carries on', async () => {
    mock.rateLimitNext(2);
    const listing = await storyblok.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    const [limited, next] = mock.requests;
    expect(limited!.status).toBe(429);
    // Two seconds, not the one-second backoff used when a 429 names no wait.
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(1900);
  });

  it("refused credentials are an 'auth' error", async () => {
    const error = await rejection(storyblok.list(context(mock, { token: 'revoked' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/Storyblok space 285013.*HTTP 401: Unauthorized/);
  });

  it("a space the token does not reach is a 'config' error naming it", async () => {
    const error = await rejection(storyblok.list(context(mock, { settings: { space_id: '999' } })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/Storyblok space 999.*HTTP 404/);
    expect(storyblok.settings.safeParse({ space_id: 'my-space' }).success).toBe(false);
  });

  it("the API down is 'unavailable' (retried by the framework)", async () => {
    await mock.stop();
    const error = await rejection(storyblok.list(context(mock)));
    expect(error.kind).toBe('unavailable');
  });

  it('writes translations into the story content, keeping every other field, and writing again changes nothing', async () => {
    await mock.close();
    await start({ nested: true });
    const ctx = context(mock);
    const unit = (await storyblok.list(ctx)).units[0] as StringUnit;
    const result = await storyblok.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result).toEqual({ written: (SEED.length + 1) * 2 });
    const welcome = mock.stories.get(mock.storyId('welcome'))!.content;
    const id = mock.storyId('welcome');
    expect(welcome).toMatchObject({ title: 'Welcome to our store', title__i18n__de: `${id}.title in de`, title__i18n__fr: `${id}.title in fr`, internal_note: 'seeded welcome', hero: { type: 'doc', content: [] } });
    expect((welcome.body as Record<string, unknown>[])[0]).toMatchObject({ headline: 'New arrivals every week', headline__i18n__de: `${id}.f9e8d7c6-1111-4111-8111-111111111111.headline in de` });
    const puts = mock.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(SEED.length);
    expect(Object.keys(puts[0]!.body as object)).toEqual(['story']);

    mock.requests.length = 0;
    expect(await storyblok.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])))).toEqual({ written: 0 });
    expect(mock.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('a translation a person changed between the listing and the write is not overwritten', async () => {
    const ctx = context(mock);
    const unit = (await storyblok.list(ctx)).units[0] as StringUnit;
    mock.edit('cart', 'de', 'Der Warenkorb ist leer (von Hand)');
    const result = await storyblok.write!(ctx, stringsWriteBack(unit, writesFor(unit, ['de', 'fr'])));
    expect(result.written).toBe(SEED.length * 2 - 1);
    expect(result.note).toMatch(new RegExp(`Not overwritten, changed in Storyblok since the listing: ${mock.storyId('cart')}\\.title \\(de\\)`));
    expect(mock.stories.get(mock.storyId('cart'))!.content).toMatchObject({ title__i18n__de: 'Der Warenkorb ist leer (von Hand)', title__i18n__fr: `${mock.storyId('cart')}.title in fr` });
  });

  describe('webhooks', () => {
    const secret = 'whsec_parlance_storyblok_0123456789';
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });

    it('a signed story.published notification starts a sync', () => {
      expect(storyblok.verifyWebhook!(request(mock.webhook('cart', secret)), secret, context(mock).settings)).toEqual({ verified: true, sync: true });
    });

    it('a wrong secret, a changed body or a missing signature is refused', () => {
      const settings = context(mock).settings;
      expect(storyblok.verifyWebhook!(request(mock.webhook('cart', 'not-the-secret')), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/does not match/) });
      const tampered = mock.webhook('cart', secret);
      tampered.body = tampered.body.replace('"published"', '"deleted"');
      expect(storyblok.verifyWebhook!(request(tampered), secret, settings)).toMatchObject({ verified: false });
      const unsigned = mock.webhook('cart', secret);
      delete unsigned.headers['webhook-signature'];
      expect(storyblok.verifyWebhook!(request(unsigned), secret, settings)).toMatchObject({ verified: false, reason: expect.stringMatching(/No webhook-signature/) });
    });

    it('other actions and other spaces do not start a sync', () => {
      const settings = context(mock).settings;
      expect(storyblok.verifyWebhook!(request(mock.webhook('cart', secret, 'entries_updated')), secret, settings)).toMatchObject({ verified: true, sync: false });
      expect(storyblok.verifyWebhook!(request(mock.webhook('cart', secret)), secret, { ...settings, space_id: '1' })).toMatchObject({ verified: true, sync: false });
    });
  });
});

connectorAcceptance('Storyblok through the service', storyblokFixture, { direction: 'two_way' });
