/** The App Store Connect connector against a local API: ES256 tokens, editable and live places, locale matching, re-read before PATCH. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { appleCodeFor, appStoreConnect, appStoreConnectToken } from '../../server/integrations/connectors/app-store-connect.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { appStoreConnectFixture, ASC_APP_ID, startAppStoreConnectMock, type AppStoreConnectMock } from '../helpers/connector-mocks/app-store-connect.js';

const context = (mock: AppStoreConnectMock, overrides: { secrets?: object; settings?: Record<string, unknown>; sourceLocale?: string } = {}) =>
  connectorContext(appStoreConnect, { app_id: ASC_APP_ID, api_url: mock.url, ...overrides.settings }, overrides.secrets ?? mock.secrets, overrides.sourceLocale ? { sourceLocale: overrides.sourceLocale } : {});

const unitOf = (listing: { units: unknown[] }, path: string) => (listing.units as StringUnit[]).find((u) => u.path === path)!;

describe('App Store Connect connector', () => {
  let mock: AppStoreConnectMock;
  beforeAll(async () => {
    mock = await startAppStoreConnectMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  it('signs an ES256 token with the key id, issuer, audience and an expiry under 20 minutes', () => {
    const [head, claims, signature] = appStoreConnectToken(mock.secrets, 1_800_000_000_000).split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({ alg: 'ES256', kid: mock.secrets.key_id, typ: 'JWT' });
    const payload = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { iss: string; iat: number; exp: number; aud: string };
    expect(payload).toMatchObject({ iss: mock.secrets.issuer_id, aud: 'appstoreconnect-v1', iat: 1_800_000_000 });
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(20 * 60);
    // ieee-p1363: r||s, 64 bytes, as JWS wants (not DER).
    expect(Buffer.from(signature!, 'base64url')).toHaveLength(64);
  });

  it('lists the app info and the version being prepared, with limits, notes and what each locale holds', async () => {
    mock.requests.length = 0;
    const listing = await appStoreConnect.list(context(mock));
    const info = unitOf(listing, 'app-info');
    const version = unitOf(listing, 'app-store-version');
    expect(info.strings).toEqual([expect.objectContaining({ key: 'name', source: 'Parlance Shop', maxLength: 30, translations: {} })]);
    expect(version.strings.map((s) => [s.key, s.source, s.maxLength])).toEqual([
      ['description', 'Welcome to our store', 4000],
      ['keywords', 'See you soon', 100],
      ['promotionalText', 'Your cart is empty', 170],
      ['whatsNew', 'Proceed to checkout', 4000],
    ]);
    expect(version.strings.find((s) => s.key === 'keywords')!.notes).toMatch(/comma-separated/);
    // de → de-DE, fr → fr-FR; the app has no ja, and adding locales is off by default.
    expect(version.locales).toEqual(['de', 'fr']);
    expect(listing.note).toMatch(/lacks ja: not translated \(set `add_locales`/);
    // The 1.1 version being prepared, not the live 1.0; the IOS platform only.
    const versions = mock.requests.find((r) => r.path.endsWith('/appStoreVersions'))!;
    expect(versions.query.get('filter[platform]')).toBe('IOS');
    expect(mock.requests.some((r) => r.path.includes('/appStoreVersions/ver-1-1/'))).toBe(true);
    expect(mock.requests.some((r) => r.path.includes('ver-1-0'))).toBe(false);
    expect(mock.requests.every((r) => r.authorization?.startsWith('Bearer ey'))).toBe(true);
  });

  it('patches only changed fields after reading them again, keeps a person’s edit, and writing again sends nothing', async () => {
    const version = unitOf(await appStoreConnect.list(context(mock)), 'app-store-version');
    mock.edit(mock.editable.version, 'fr-FR', 'description', 'Bienvenue (à la main)');
    mock.requests.length = 0;
    const rows = [
      { key: 'description', locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: 'keywords', locale: 'de', text: 'laden,geschäft' },
      { key: 'description', locale: 'fr', text: 'Bienvenue dans notre boutique' },
    ];
    const first = await appStoreConnect.write!(context(mock), stringsWriteBack(version, rows));
    expect(first.written).toBe(2);
    expect(first.note).toMatch(/Left 1 field\(s\) a person changed .*description \(fr\)/);
    expect(first.skipped).toEqual([{ path: version.path, key: 'description', locale: 'fr' }]);
    const patches = mock.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.body).toEqual({ data: { type: 'appStoreVersionLocalizations', id: expect.any(String), attributes: { description: 'Willkommen in unserem Laden', keywords: 'laden,geschäft' } } });
    expect(mock.text(mock.editable.version, 'fr-FR', 'description')).toBe('Bienvenue (à la main)');
    const again = unitOf(await appStoreConnect.list(context(mock)), 'app-store-version');
    expect(again.strings.find((s) => s.key === 'description')!.translations).toEqual({ de: 'Willkommen in unserem Laden', fr: 'Bienvenue (à la main)' });
    mock.requests.length = 0;
    expect((await appStoreConnect.write!(context(mock), stringsWriteBack(again, rows.slice(0, 2)))).written).toBe(0);
    expect(mock.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('adds a missing locale only with add_locales, to both places, an app info localization with its name', async () => {
    const settings = { settings: { add_locales: true } };
    const listing = await appStoreConnect.list(context(mock, settings));
    const info = unitOf(listing, 'app-info');
    const version = unitOf(listing, 'app-store-version');
    expect(version.locales).toEqual(['de', 'fr', 'ja']);
    mock.requests.length = 0;
    const result = await appStoreConnect.write!(context(mock, settings), {
      ...stringsWriteBack(version, [{ key: 'promotionalText', locale: 'ja', text: 'カートは空です' }]),
      strings: [...stringsWriteBack(info, [{ key: 'name', locale: 'ja', text: 'パーランス' }]).strings, ...stringsWriteBack(version, [{ key: 'promotionalText', locale: 'ja', text: 'カートは空です' }]).strings],
    });
    expect(result.written).toBe(2);
    const posts = mock.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.body)).toEqual([
      { data: { type: 'appInfoLocalizations', attributes: { locale: 'ja', name: 'パーランス' }, relationships: { appInfo: { data: { type: 'appInfos', id: mock.editable.appInfo } } } } },
      { data: { type: 'appStoreVersionLocalizations', attributes: { locale: 'ja', promotionalText: 'カートは空です' }, relationships: { appStoreVersion: { data: { type: 'appStoreVersions', id: mock.editable.version } } } } },
    ]);
    // Without the setting, a locale the app lacks is never created (ja now exists, so it is mapped to one the app lacks).
    const plain = await appStoreConnect.write!(context(mock), stringsWriteBack(unitOf(await appStoreConnect.list(context(mock, { settings: { locales: { ja: 'ko' } } })), 'app-store-version'), [{ key: 'description', locale: 'ja', text: 'x' }]));
    expect(plain).toMatchObject({ written: 0, note: expect.stringMatching(/ja is not a locale of the app/) });
  });

  it('reads a live version without an editable one, and translates nothing into it', async () => {
    mock.setState(mock.editable.version, 'WAITING_FOR_REVIEW');
    try {
      const listing = await appStoreConnect.list(context(mock));
      const version = unitOf(listing, 'app-store-version');
      expect(version.locales).toEqual([]);
      expect(version.strings.find((s) => s.key === 'description')).toMatchObject({ source: 'The old description', translations: { de: 'Die alte Beschreibung' } });
      expect(listing.note).toMatch(/version 1\.0 is READY_FOR_DISTRIBUTION: Apple allows no edits to it, so it was read only; .*next version/);
    } finally {
      mock.setState(mock.editable.version, 'PREPARE_FOR_SUBMISSION');
    }
  });

  it('a version that went to review after the listing (STATE_ERROR): its localizations are skipped with a note, the app info is still written', async () => {
    const listing = await appStoreConnect.list(context(mock));
    const info = unitOf(listing, 'app-info');
    const version = unitOf(listing, 'app-store-version');
    const before = mock.text(mock.editable.version, 'de-DE', 'description');
    mock.setState(mock.editable.version, 'WAITING_FOR_REVIEW');
    try {
      const result = await appStoreConnect.write!(context(mock), {
        ...stringsWriteBack(version, []),
        strings: [
          ...stringsWriteBack(version, [
            { key: 'description', locale: 'de', text: 'Neu im Laden' },
            { key: 'description', locale: 'fr', text: 'Nouveau' },
          ]).strings,
          ...stringsWriteBack(info, [{ key: 'name', locale: 'de', text: 'Parlance Laden' }]).strings,
        ],
      });
      expect(result.written).toBe(1);
      expect(result.note).toMatch(/Not written: the de-DE localization of App Store version ver-1-1: Apple no longer allows edits to it \(STATE_ERROR: Attribute 'description' cannot be edited at this time\); the next editable App Store version gets these texts; the fr-FR localization/);
      expect(mock.text(mock.editable.appInfo, 'de-DE', 'name')).toBe('Parlance Laden');
      expect(mock.text(mock.editable.version, 'de-DE', 'description')).toBe(before);
    } finally {
      mock.setState(mock.editable.version, 'PREPARE_FOR_SUBMISSION');
    }
  });

  it('a locale a person added meanwhile (409 DUPLICATE) is left to the next sync; any other 409 is `config` naming the field', async () => {
    const settings = { settings: { add_locales: true, locales: { ja: 'it' } } };
    const version = unitOf(await appStoreConnect.list(context(mock, settings)), 'app-store-version');
    expect(version.locales).toContain('ja');
    mock.edit(mock.editable.version, 'it', 'whatsNew', 'Novità');
    const duplicate = await appStoreConnect.write!(context(mock, settings), stringsWriteBack(version, [{ key: 'promotionalText', locale: 'ja', text: 'Il carrello è vuoto' }]));
    expect(duplicate).toMatchObject({ written: 0, note: expect.stringMatching(/\(it\): a person added this locale meanwhile \(ENTITY_ERROR\.ATTRIBUTE\.INVALID\.DUPLICATE: Entity with locale: 'it' already exists\. Try updating\.\); the next sync lists it anew/) });
    expect(mock.text(mock.editable.version, 'it', 'promotionalText')).toBeUndefined();

    // A value Apple refuses, on a POST and on a PATCH: asking again gets the same answer.
    const added = await rejection(appStoreConnect.write!(context(mock, { settings: { add_locales: true, locales: { ja: 'ko' } } }), stringsWriteBack(version, [{ key: 'keywords', locale: 'ja', text: 'k'.repeat(101) }])));
    expect(added).toMatchObject({ kind: 'config', message: expect.stringMatching(/Adding the ko localization .*refused the field `keywords` \(HTTP 409: ENTITY_ERROR\.ATTRIBUTE\.INVALID\.TOO_LONG: The attribute 'keywords' can not be longer than 100 characters\.\)/) });
    const patched = await rejection(appStoreConnect.write!(context(mock), stringsWriteBack(version, [{ key: 'keywords', locale: 'fr', text: 'k'.repeat(101) }])));
    expect(patched).toMatchObject({ kind: 'config', message: expect.stringMatching(/Writing the fr-FR localization .*refused the field `keywords` \(HTTP 409: .*TOO_LONG/) });
  });

  it("an answer App Store Connect does not give (pages without end) is 'config' naming api_url", async () => {
    const wrong = await startAppStoreConnectMock();
    try {
      // More than five pages of 200: no app has that many localizations, so the server is not Apple's.
      for (let i = 0; i < 1001; i++) wrong.edit(wrong.editable.appInfo, `xx-${String(i).padStart(4, '0')}`, 'name', 'x');
      const error = await rejection(appStoreConnect.list(context(wrong, { settings: { fields: ['name'] } })));
      expect(error.kind).toBe('config');
      expect(error.message).toMatch(/more than 5 pages of 200.*`api_url`/);
    } finally {
      await wrong.close();
    }
  });

  it('maps Apple locales to project tags: the locales map, exact tags, a language’s only or usual region', () => {
    expect(appleCodeFor('de', ['de-DE', 'fr-FR'], {})).toBe('de-DE');
    expect(appleCodeFor('fr', ['fr-CA', 'fr-FR'], {})).toBe('fr-FR');
    expect(appleCodeFor('fr-CA', ['fr-CA', 'fr-FR'], {})).toBe('fr-CA');
    expect(appleCodeFor('zh-Hant', ['zh-Hans', 'zh-Hant'], {})).toBe('zh-Hant');
    expect(appleCodeFor('es-419', ['es-ES', 'es-MX'], {})).toBeUndefined();
    expect(appleCodeFor('es-419', ['es-ES', 'es-MX'], { 'es-419': 'es-MX' })).toBe('es-MX');
    expect(appleCodeFor('nb', ['no'], { nb: 'no' })).toBe('no');
  });

  it('refuses a wrong app, a primary locale other than the source, and a key the API does not take', async () => {
    const wrongApp = await rejection(appStoreConnect.list(context(mock, { settings: { app_id: '999' } })));
    expect(wrongApp).toMatchObject({ kind: 'config', message: expect.stringMatching(/no app 999 .*`app_id`/) });
    const wrongSource = await rejection(appStoreConnect.list(context(mock, { sourceLocale: 'de' })));
    expect(wrongSource).toMatchObject({ kind: 'config', message: expect.stringMatching(/primary locale is 'en-US'.*'de'/) });
    const refused = await rejection(appStoreConnect.list(context(mock, { secrets: mock.wrongSecrets })));
    expect(refused.kind).toBe('auth');
    expect(refused.message).toMatch(/HTTP 401: NOT_AUTHORIZED: Provide a properly configured and signed bearer token.*issuer_id, key_id and private_key/);
    expect(appStoreConnect.secrets.safeParse({ ...mock.secrets, private_key: 'not a key' }).error?.issues[0]).toMatchObject({ path: ['private_key'], message: expect.stringMatching(/not the \.p8 key/) });
    expect(appStoreConnect.settings.safeParse({ app_id: 'com.example.shop' }).error?.issues[0]?.path).toEqual(['app_id']);
  });

  it("waits out a 429, and a server that does not answer is 'unavailable'", async () => {
    mock.rateLimitNext(1, 1);
    expect(unitOf(await appStoreConnect.list(context(mock)), 'app-store-version').strings).toHaveLength(SEED.length);
    await mock.stop();
    try {
      expect((await rejection(appStoreConnect.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
  });

  it('offers no webhooks: App Store Connect sends none for a metadata change', () => {
    expect(appStoreConnect.webhooks).toBeUndefined();
    expect(appStoreConnect.verifyWebhook).toBeUndefined();
  });
});

connectorAcceptance('App Store Connect acceptance', appStoreConnectFixture, { direction: 'two_way' });
