/** The Google Play connector against a local Android Publisher API: edits opened and closed, re-read before patch, one commit, nothing left half-written. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { googlePlay, playCodeFor } from '../../server/integrations/connectors/google-play.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { PLAY_PACKAGE, PLAY_TRACK, playFixture, startPlayMock, type PlayMock } from '../helpers/connector-mocks/google-play.js';

const context = (mock: PlayMock, overrides: { secrets?: object; settings?: Record<string, unknown>; sourceLocale?: string } = {}) =>
  connectorContext(googlePlay, { package_name: PLAY_PACKAGE, release_notes_track: PLAY_TRACK, api_url: mock.url, ...overrides.settings }, overrides.secrets ?? { service_account: mock.account }, overrides.sourceLocale ? { sourceLocale: overrides.sourceLocale } : {});

const unitOf = async (mock: PlayMock, settings?: Record<string, unknown>) => (await googlePlay.list(context(mock, settings ? { settings } : {}))).units[0] as StringUnit;
const writes = (mock: PlayMock) => mock.requests.filter((r) => r.method === 'PATCH' || r.method === 'PUT' || r.path.endsWith(':commit'));

describe('Google Play connector', () => {
  let mock: PlayMock;
  beforeAll(async () => {
    mock = await startPlayMock();
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('lists the default language’s listing and the latest release’s notes, with limits, and deletes its edit', async () => {
    const listing = await googlePlay.list(context(mock));
    const unit = listing.units[0] as StringUnit;
    expect(unit.path).toBe('store-listing');
    expect(unit.strings.map((s) => [s.key, s.source, s.maxLength])).toEqual([
      ['title', 'Welcome to our store', 30],
      ['shortDescription', 'Your cart is empty', 80],
      ['fullDescription', 'Proceed to checkout', 4000],
      ['releaseNotes', 'See you soon', 500],
    ]);
    // de → de-DE, fr → fr-FR; the app has no ja listing, and adding languages is off by default.
    expect(unit.locales).toEqual(['de', 'fr']);
    expect(listing.note).toMatch(/no listing in ja: not translated \(set `add_languages`/);
    expect(listing.note).toMatch(/release 1\.1/);
    expect(mock.requests.map((r) => `${r.method} ${r.path.replace(/.*\/applications\/[^/]+/, '').replace(/edits\/\d+/, 'edits/E')}`)).toEqual([
      'POST /edits',
      'GET /edits/E/details',
      'GET /edits/E/listings',
      `GET /edits/E/tracks/${PLAY_TRACK}`,
      'DELETE /edits/E',
    ]);
    expect(mock.openEdits()).toEqual([]);
  });

  it('patches changed fields in one edit, keeps a person’s edit, commits once; writing again commits nothing', async () => {
    const unit = await unitOf(mock);
    mock.consoleEdit('fr-FR', 'title', 'Bienvenue (à la main)');
    mock.requests.length = 0;
    const rows = [
      { key: 'title', locale: 'de', text: 'Willkommen im Laden' },
      { key: 'shortDescription', locale: 'de', text: 'Ihr Warenkorb ist leer' },
      { key: 'title', locale: 'fr', text: 'Bienvenue dans la boutique' },
      { key: 'releaseNotes', locale: 'fr', text: 'À bientôt' },
    ];
    const first = await googlePlay.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(3);
    expect(first.note).toMatch(/Left 1 field\(s\) a person changed .*title \(fr\)/);
    expect(first.skipped).toEqual([{ path: unit.path, key: 'title', locale: 'fr' }]);
    // Google's concurrency considerations: a commit sends a person's pending Play Console changes for review too.
    expect(first.note).toMatch(/sent them for review; the commit also sent for review any changes a person had waiting in the Play Console/);
    const sent = writes(mock);
    expect(sent.map((r) => `${r.method} ${r.path.split('/').slice(-1)[0]}`)).toEqual(['PATCH de-DE', `PUT ${PLAY_TRACK}`, expect.stringMatching(/^POST \d+:commit$/)]);
    expect(sent[0]!.body).toEqual({ title: 'Willkommen im Laden', shortDescription: 'Ihr Warenkorb ist leer' });
    expect(sent[2]!.query.has('changesNotSentForReview')).toBe(false);
    expect(mock.text('de-DE', 'title')).toBe('Willkommen im Laden');
    expect(mock.text('fr-FR', 'title')).toBe('Bienvenue (à la main)');
    // The latest release's notes gained fr; the completed 1.0 kept its own, as read.
    expect(mock.notes('fr-FR')).toBe('À bientôt');
    expect(mock.notes('de-DE', '1.0')).toBe('Erste Version');
    expect(mock.committed.tracks.get(PLAY_TRACK)!.map((r) => r.name)).toEqual(['1.0', '1.1']);
    expect(mock.text('en-US', 'video')).toMatch(/youtube/);
    expect(mock.openEdits()).toEqual([]);

    const again = await unitOf(mock);
    expect(again.strings.find((s) => s.key === 'title')!.translations).toEqual({ de: 'Willkommen im Laden', fr: 'Bienvenue (à la main)' });
    mock.requests.length = 0;
    expect((await googlePlay.write!(context(mock), stringsWriteBack(again, rows.slice(0, 2)))).written).toBe(0);
    expect(writes(mock)).toHaveLength(0);
    expect(mock.openEdits()).toEqual([]);
  });

  it('a failure before the commit deletes the edit and leaves Google Play as it was', async () => {
    const unit = await unitOf(mock);
    const before = JSON.stringify([...mock.committed.listings]);
    mock.failNext('PATCH', '/listings/fr-FR');
    const error = await rejection(
      googlePlay.write!(
        context(mock),
        stringsWriteBack(unit, [
          { key: 'fullDescription', locale: 'de', text: 'Zur Kasse gehen' },
          { key: 'fullDescription', locale: 'fr', text: 'Passer à la caisse' },
        ]),
      ),
    );
    expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/Writing the fr-FR store listing: Google Play answered HTTP 500: Internal error encountered/) });
    expect(mock.requests.some((r) => r.method === 'PATCH' && r.path.endsWith('de-DE'))).toBe(true);
    expect(mock.requests.at(-1)!.method).toBe('DELETE');
    expect(mock.openEdits()).toEqual([]);
    expect(JSON.stringify([...mock.committed.listings])).toBe(before);
  });

  it('a Play Console change racing the write: Google deletes the edit, nothing is written, the sync is to be retried', async () => {
    const unit = await unitOf(mock);
    mock.beforeEditCall = (method) => {
      if (method !== 'PATCH') return;
      mock.beforeEditCall = undefined;
      mock.consoleEdit('en-US', 'title', 'Welcome to the store');
    };
    const error = await rejection(googlePlay.write!(context(mock), stringsWriteBack(unit, [{ key: 'shortDescription', locale: 'fr', text: 'Votre panier est vide' }])));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/Google Play closed Parlance's edit \("This Edit has been deleted\."\).*Nothing was written/);
    expect(mock.text('fr-FR', 'shortDescription')).toBe('');
    expect(mock.openEdits()).toEqual([]);
    mock.consoleEdit('en-US', 'title', SEED[0]!.source);
  });

  it('a commit whose answer was lost is not mistaken for a failure when Google says it was already committed', async () => {
    const unit = await unitOf(mock);
    mock.loseNextCommitAnswer();
    const result = await googlePlay.write!(
      connectorContext(googlePlay, { package_name: PLAY_PACKAGE, api_url: mock.url }, { service_account: mock.account }, { maxRetries: 1 }),
      stringsWriteBack(unit, [{ key: 'fullDescription', locale: 'fr', text: 'Passer à la caisse' }]),
    );
    expect(result.written).toBe(1);
    expect(mock.requests.filter((r) => r.path.endsWith(':commit'))).toHaveLength(2);
    expect(mock.text('fr-FR', 'fullDescription')).toBe('Passer à la caisse');
    expect(mock.openEdits()).toEqual([]);
  });

  it('asks for changes_not_sent_for_review when Google will not send changes for review, and commits with it', async () => {
    mock.review = 'manual';
    try {
      const unit = await unitOf(mock);
      const rows = [{ key: 'shortDescription', locale: 'fr', text: 'Votre panier est vide' }];
      const refused = await rejection(googlePlay.write!(context(mock), stringsWriteBack(unit, rows)));
      expect(refused.kind).toBe('config');
      expect(refused.message).toMatch(/Changes cannot be sent for review automatically.*set `changes_not_sent_for_review` to true/);
      expect(mock.openEdits()).toEqual([]);
      expect(mock.text('fr-FR', 'shortDescription')).toBe('');
      const result = await googlePlay.write!(context(mock, { settings: { changes_not_sent_for_review: true } }), stringsWriteBack(unit, rows));
      expect(result).toMatchObject({ written: 1, note: expect.stringMatching(/not sent for review: they wait in the Play Console, beside any changes a person has there/) });
      expect(mock.requests.at(-1)!.query.get('changesNotSentForReview')).toBe('true');
      expect(mock.text('fr-FR', 'shortDescription')).toBe('Votre panier est vide');
    } finally {
      mock.review = 'auto';
    }
  });

  it('adds a missing language only with add_languages, with a PUT of the new listing', async () => {
    const settings = { add_languages: true };
    const unit = await unitOf(mock, settings);
    expect(unit.locales).toEqual(['de', 'fr', 'ja']);
    mock.requests.length = 0;
    const result = await googlePlay.write!(context(mock, { settings }), stringsWriteBack(unit, [{ key: 'title', locale: 'ja', text: 'ようこそ' }]));
    expect(result.written).toBe(1);
    expect(writes(mock)[0]).toMatchObject({ method: 'PUT', path: expect.stringMatching(/\/listings\/ja-JP$/), body: { language: 'ja-JP', title: 'ようこそ' } });
    expect(mock.text('ja-JP', 'title')).toBe('ようこそ');
    // Without the setting, a language the app lacks is neither listed as a target nor written.
    mock.committed.listings.delete('ja-JP');
    const plain = await unitOf(mock);
    expect(plain.locales).toEqual(['de', 'fr']);
    expect(await googlePlay.write!(context(mock), stringsWriteBack(plain, [{ key: 'title', locale: 'ja', text: 'x' }]))).toMatchObject({ written: 0, note: expect.stringMatching(/ja is not a language/) });
  });

  it('maps Play language codes to project tags: the locales map, exact tags, a language’s only or usual code', () => {
    expect(playCodeFor('de', ['de-DE', 'fr-FR'], {})).toBe('de-DE');
    expect(playCodeFor('fr', ['fr-CA', 'fr-FR'], {})).toBe('fr-FR');
    expect(playCodeFor('fr-CA', ['fr-CA', 'fr-FR'], {})).toBe('fr-CA');
    expect(playCodeFor('ja', ['ja-JP'], {})).toBe('ja-JP');
    expect(playCodeFor('he', ['iw-IL'], {})).toBe('iw-IL');
    expect(playCodeFor('zh', ['zh-CN', 'zh-TW'], {})).toBe('zh-CN');
    expect(playCodeFor('es', ['es-419', 'es-US'], {})).toBeUndefined();
    expect(playCodeFor('es', ['es-419', 'es-US'], { es: 'es-419' })).toBe('es-419');
  });

  it('refuses a wrong package, a missing track, a default language other than the source, and an unknown account', async () => {
    const wrongApp = await rejection(googlePlay.list(context(mock, { settings: { package_name: 'com.example.other' } })));
    expect(wrongApp).toMatchObject({ kind: 'config', message: expect.stringMatching(/no app com\.example\.other .*Package not found.*`package_name`/) });
    const wrongTrack = await rejection(googlePlay.list(context(mock, { settings: { release_notes_track: 'beta' } })));
    expect(wrongTrack).toMatchObject({ kind: 'config', message: expect.stringMatching(/no track 'beta'.*`release_notes_track`/) });
    expect(mock.openEdits()).toEqual([]);
    const wrongSource = await rejection(googlePlay.list(context(mock, { sourceLocale: 'de' })));
    expect(wrongSource).toMatchObject({ kind: 'config', message: expect.stringMatching(/default language .* is 'en-US', which is not the project's source locale 'de'/) });
    const refused = await rejection(googlePlay.list(context(mock, { secrets: { service_account: mock.stranger } })));
    expect(refused.kind).toBe('auth');
    expect(refused.message).toMatch(/invalid_grant/);
    expect(googlePlay.settings.safeParse({ package_name: 'not a package' }).error?.issues[0]?.path).toEqual(['package_name']);
  });

  it("an answer Google Play does not give (too many listings or releases) is 'config' naming api_url", async () => {
    const { listings, tracks } = mock.committed;
    try {
      mock.committed.listings = new Map(Array.from({ length: 201 }, (_, i) => [`x${i}`, { language: `x${i}`, title: 'x', shortDescription: '', fullDescription: '' }]));
      const tooManyListings = await rejection(googlePlay.list(context(mock)));
      expect(tooManyListings).toMatchObject({ kind: 'config', message: expect.stringMatching(/201 listings, .*not trusted\. Check that `api_url` is the Android Publisher API/) });
      mock.committed.listings = listings;
      mock.committed.tracks = new Map([[PLAY_TRACK, Array.from({ length: 21 }, (_, i) => ({ name: `1.${i}`, versionCodes: [String(i + 1)], status: 'completed' }))]]);
      const tooManyReleases = await rejection(googlePlay.list(context(mock)));
      expect(tooManyReleases).toMatchObject({ kind: 'config', message: expect.stringMatching(/21 active releases, .*`api_url`/) });
      expect(mock.openEdits()).toEqual([]);
    } finally {
      mock.committed.listings = listings;
      mock.committed.tracks = tracks;
    }
  });

  it("waits out a 429, and a server that does not answer is 'unavailable'", async () => {
    mock.rateLimitNext(1);
    const listing = await googlePlay.list(context(mock));
    expect((listing.units[0] as StringUnit).strings).toHaveLength(SEED.length);
    await mock.stop();
    try {
      expect((await rejection(googlePlay.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
  });

  it('offers no webhooks: Play’s notifications are about purchases, so syncs run on the schedule', () => {
    expect(googlePlay.webhooks).toBeUndefined();
    expect(googlePlay.verifyWebhook).toBeUndefined();
  });
});

connectorAcceptance('Google Play acceptance', playFixture, { direction: 'two_way' });
