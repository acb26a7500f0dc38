/** The Google Sheets connector against a local Sheets API: one bounded read, formula cells, guarded RAW writes of target cells only, refusals. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import { googleSheets } from '../../server/integrations/connectors/google-sheets.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection, stringsWriteBack } from '../helpers/connector-unit.js';
import { SHEETS_SETTINGS, SHEETS_TAB, sheetsFixture, startSheetsMock, type SheetsMock } from '../helpers/connector-mocks/google-sheets.js';

const context = (mock: SheetsMock, overrides: { secrets?: Record<string, unknown>; settings?: Record<string, unknown>; targetLocales?: string[] } = {}) =>
  connectorContext(googleSheets, { ...SHEETS_SETTINGS, api_url: mock.url, ...overrides.settings }, overrides.secrets ?? { service_account: mock.account }, overrides.targetLocales ? { targetLocales: overrides.targetLocales } : {});
const unitOf = (listing: { units: unknown[] }) => listing.units[0] as StringUnit;
const api = (mock: SheetsMock) => mock.requests.filter((r) => r.path.startsWith('/v4/'));

describe('Google Sheets connector', () => {
  let mock: SheetsMock;
  beforeAll(async () => {
    mock = await startSheetsMock();
  });
  beforeEach(() => {
    mock.reset();
    mock.requests.length = 0;
  });
  afterAll(async () => {
    await mock.close();
  });

  it('lists the rows under the header in one FORMULA read; formula cells are neither imported nor written', async () => {
    mock.edit(mock.rowOf('welcome'), 'de', 'Willkommen');
    mock.edit(mock.rowOf('cart'), 'de', { formula: '=GOOGLETRANSLATE(B3,"en","de")', shows: 'Ihr Warenkorb ist leer' });
    mock.edit(7, 'en', 'A text without a key');
    const listing = await googleSheets.list(context(mock));
    const unit = unitOf(listing);
    expect(unit).toMatchObject({ kind: 'strings', path: SHEETS_TAB, locales: ['de', 'fr'] });
    expect(unit.strings.map((s) => [s.key, s.source])).toEqual(SEED.map(({ id, source }) => [id, source]));
    expect(unit.strings[0]!.maxLength).toBeUndefined();
    expect(unit.strings[0]).toMatchObject({ notes: 'seed welcome', translations: { de: 'Willkommen' }, ref: { row: 2, columns: { '': 'A', de: 'C', fr: 'D' }, seen: { de: 'Willkommen', fr: '' } } });
    expect(unit.strings[1]!.translations).toEqual({});
    const reads = api(mock);
    expect(reads).toHaveLength(1);
    expect(decodeURIComponent(reads[0]!.path)).toBe(`/v4/spreadsheets/${SHEETS_SETTINGS.spreadsheet_id}/values/'Strings'!A1:ZZ10002`);
    expect(reads[0]!.query.get('valueRenderOption')).toBe('FORMULA');
    expect(listing.note).toMatch(/Read 6 row\(s\) of sheet 'Strings': 4 string\(s\)/);
    expect(listing.note).toMatch(/1 row\(s\) with a source text but no key/);
    expect(listing.note).toMatch(/1 formula cell\(s\) in target columns .*: C3 \(de\)/);
    expect(listing.note).toMatch(/No column for ja in the header row: nothing written for it/);

    // The framework would never ask to write the formula cell; a write that does is refused cell by cell anyway.
    const result = await googleSheets.write!(context(mock), stringsWriteBack(unit, [{ key: 'cart', locale: 'de', text: 'Warenkorb leer' }]));
    expect(result).toMatchObject({ written: 0, note: expect.stringMatching(/Left 1 formula cell\(s\): C3 \(de\)/), skipped: [{ path: unit.path, key: 'cart', locale: 'de' }] });
    expect(mock.cell(mock.rowOf('cart'), 'de')).toMatchObject({ formula: '=GOOGLETRANSLATE(B3,"en","de")' });
  });

  it('writes only target cells, RAW, after one batchGet; a text beginning with = or + stays text; writing again sends nothing', async () => {
    const unit = unitOf(await googleSheets.list(context(mock)));
    const rows = [
      { key: 'welcome', locale: 'de', text: 'Willkommen in unserem Laden' },
      { key: 'welcome', locale: 'fr', text: 'Bienvenue dans notre boutique' },
      { key: 'cart', locale: 'de', text: '=Ihr Warenkorb ist leer' },
      { key: 'checkout', locale: 'fr', text: '+ Passer à la caisse' },
    ];
    mock.requests.length = 0;
    const first = await googleSheets.write!(context(mock), stringsWriteBack(unit, rows));
    expect(first.written).toBe(4);
    const [check, update, ...rest] = api(mock);
    expect(rest).toHaveLength(0);
    expect(check!.path).toMatch(/values:batchGet$/);
    expect(check!.query.getAll('ranges')).toEqual(["'Strings'!A1:ZZ1", "'Strings'!A2:A4", "'Strings'!C2:C4", "'Strings'!D2:D4"]);
    expect(update!.path).toMatch(/values:batchUpdate$/);
    const body = update!.body as { valueInputOption: string; data: { range: string; values: string[][] }[] };
    expect(body.valueInputOption).toBe('RAW');
    expect(body.data.map((d) => d.range)).toEqual(["'Strings'!C2", "'Strings'!D2", "'Strings'!C3", "'Strings'!D4"]);
    expect(mock.cell(2, 'de')).toBe('Willkommen in unserem Laden');
    expect(mock.cell(3, 'de')).toBe('=Ihr Warenkorb ist leer');
    expect(mock.cell(4, 'fr')).toBe('+ Passer à la caisse');
    expect(mock.cell(2, 'notes')).toBe('seed welcome');
    expect(mock.cell(2, 'Owner')).toBe('marketing');
    expect(mock.cell(2, 'en')).toBe('Welcome to our store');

    const again = unitOf(await googleSheets.list(context(mock)));
    expect(again.strings[0]!.translations).toEqual({ de: 'Willkommen in unserem Laden', fr: 'Bienvenue dans notre boutique' });
    mock.requests.length = 0;
    const second = await googleSheets.write!(context(mock), stringsWriteBack(again, rows.filter((r) => r.key !== 'cart')));
    expect(second.written).toBe(0);
    expect(api(mock).filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('leaves a cell a person changed since the listing, and a row whose key moved', async () => {
    const unit = unitOf(await googleSheets.list(context(mock)));
    mock.edit(mock.rowOf('welcome'), 'de', 'Herzlich willkommen');
    mock.edit(mock.rowOf('farewell'), 'key', 'goodbye');
    const result = await googleSheets.write!(
      context(mock),
      stringsWriteBack(unit, [
        { key: 'welcome', locale: 'de', text: 'Willkommen' },
        { key: 'welcome', locale: 'fr', text: 'Bienvenue' },
        { key: 'farewell', locale: 'de', text: 'Bis bald' },
      ]),
    );
    expect(result.written).toBe(1);
    expect(result.note).toMatch(/Left 1 cell\(s\) a person changed since the listing: welcome \(de, C2\)/);
    expect(result.note).toMatch(/the key is no longer in its row .*: farewell \(row 5\)/);
    // Neither is recorded as written: the next listing compares the cells with what was there before.
    expect(result.skipped?.map((s) => `${s.key}/${s.locale}`).sort()).toEqual(['farewell/de', 'welcome/de']);
    expect(mock.cell(2, 'de')).toBe('Herzlich willkommen');
    expect(mock.cell(2, 'fr')).toBe('Bienvenue');
    expect(mock.cell(5, 'de')).toBeUndefined();
  });

  it('a header row changed between listing and write stops the write with nothing written', async () => {
    const unit = unitOf(await googleSheets.list(context(mock)));
    mock.insertRow(1);
    mock.requests.length = 0;
    const moved = await rejection(googleSheets.write!(context(mock), stringsWriteBack(unit, [{ key: 'welcome', locale: 'de', text: 'Willkommen' }])));
    expect(moved.kind).toBe('config');
    expect(moved.message).toMatch(/The header row \(row 1\) of sheet 'Strings' changed since the listing; nothing was written/);
    expect(api(mock).filter((r) => r.method === 'POST')).toHaveLength(0);

    mock.reset();
    const listed = unitOf(await googleSheets.list(context(mock)));
    const grid = mock.tabs.get(SHEETS_TAB)!;
    for (const row of grid) row.splice(2, 0, row === grid[0] ? 'Comment' : undefined);
    const shifted = await rejection(googleSheets.write!(context(mock), stringsWriteBack(listed, [{ key: 'welcome', locale: 'de', text: 'Willkommen' }])));
    expect(shifted.message).toMatch(/changed since the listing \(columns .*"de":"C".* are now .*"de":"D"/);
    expect(mock.cell(2, 'Comment')).toBeUndefined();
    expect(mock.cell(2, 'de')).toBeUndefined();
  });

  it('settings: a header row further down, a named source column, locales mapped to headers, a missing column added when allowed', async () => {
    mock.tabs.set('Other', [['Exported 2026-12-01'], ['Key', 'English', 'Deutsch', 'Max'], ['home.title', 'Home', 'Start', 12], ['home.body', 'Body text', '', '']]);
    const settings = { sheet: 'Other', header_row: 2, notes_column: undefined, key_column: 'Key', source_column: 'English', max_length_column: 'Max', locales: { de: 'Deutsch', fr: 'Français' }, add_missing_columns: true };
    const unit = unitOf(await googleSheets.list(context(mock, { settings })));
    expect(unit.locales).toEqual(['de', 'fr', 'ja']);
    expect(unit.strings.map((s) => [s.key, s.source, s.maxLength, s.translations])).toEqual([
      ['home.title', 'Home', 12, { de: 'Start' }],
      ['home.body', 'Body text', undefined, {}],
    ]);
    expect(unit.strings[0]!.ref).toMatchObject({ row: 3, columns: { '': 'A', de: 'C', fr: 'E', ja: 'F' }, added: ['fr', 'ja'] });
    const result = await googleSheets.write!(
      context(mock, { settings }),
      stringsWriteBack(unit, [
        { key: 'home.body', locale: 'de', text: 'Fließtext' },
        { key: 'home.title', locale: 'fr', text: 'Accueil' },
        { key: 'home.body', locale: 'fr', text: 'Corps du texte' },
      ]),
    );
    expect(result.written).toBe(3);
    expect(result.note).toMatch(/Added the column\(s\) E \(Français\)/);
    expect(mock.tabs.get('Other')![1]).toEqual(['Key', 'English', 'Deutsch', 'Max', 'Français']);
    expect(mock.tabs.get('Other')![3]).toEqual(['home.body', 'Body text', 'Fließtext', '', 'Corps du texte']);
    // Listed again, the column is an ordinary target column.
    const again = unitOf(await googleSheets.list(context(mock, { settings })));
    expect(again.strings[0]!.translations).toEqual({ de: 'Start', fr: 'Accueil' });
    expect(again.strings[0]!.ref).toMatchObject({ added: ['ja'], columns: { fr: 'E', ja: 'F' } });
  });

  it('an added column goes after every cell read: a headerless column holding a person\'s comments is never taken', async () => {
    const grid = mock.tabs.get(SHEETS_TAB)!;
    // Column G has no header, but a person keeps comments there.
    grid[2]![6] = 'Legal must approve this wording';
    grid[4]![6] = 'Too long on mobile';
    const settings = { add_missing_columns: true };
    const unit = unitOf(await googleSheets.list(context(mock, { settings })));
    expect(unit.strings[0]!.ref).toMatchObject({ columns: { de: 'C', fr: 'D', ja: 'H' }, added: ['ja'], free: 7 });
    expect(unit.strings[1]!.translations).toEqual({});
    const result = await googleSheets.write!(context(mock, { settings }), stringsWriteBack(unit, [{ key: 'cart', locale: 'ja', text: 'カートは空です' }]));
    expect(result).toMatchObject({ written: 1, note: expect.stringMatching(/Added the column\(s\) H \(ja\)/) });
    expect(grid[0]![6]).toBeUndefined();
    expect(grid[0]![7]).toBe('ja');
    expect(grid[2]!.slice(6)).toEqual(['Legal must approve this wording', 'カートは空です']);
    expect(grid[4]![6]).toBe('Too long on mobile');
    // Listed again, G is still nobody's column: its comments are not imported as translations.
    const again = unitOf(await googleSheets.list(context(mock, { settings })));
    expect(again.strings[1]!.translations).toEqual({ ja: 'カートは空です' });
    expect(again.strings[3]!.translations).toEqual({});

    // A person types into the column to be added between listing and write, in a row the write does not touch.
    mock.reset();
    const listed = unitOf(await googleSheets.list(context(mock, { settings })));
    expect(listed.strings[0]!.ref).toMatchObject({ columns: { ja: 'G' } });
    mock.tabs.get(SHEETS_TAB)![4]![6] = 'A comment';
    mock.requests.length = 0;
    const filled = await rejection(googleSheets.write!(context(mock, { settings }), stringsWriteBack(listed, [{ key: 'welcome', locale: 'ja', text: 'ようこそ' }])));
    expect(filled.kind).toBe('config');
    expect(filled.message).toMatch(/Column\(s\) G \(for ja\) of sheet 'Strings', empty at the listing and to be added, now hold cells; nothing was written/);
    expect(api(mock).filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("a write into a protected range is 'config' naming the cells and what to do, not a credentials error", async () => {
    const unit = unitOf(await googleSheets.list(context(mock)));
    mock.protect('D1:D100');
    const refused = await rejection(
      googleSheets.write!(
        context(mock),
        stringsWriteBack(unit, [
          { key: 'welcome', locale: 'de', text: 'Willkommen' },
          { key: 'welcome', locale: 'fr', text: 'Bienvenue' },
        ]),
      ),
    );
    expect(refused.kind).toBe('config');
    expect(refused.message).toMatch(/HTTP 403 \(You are trying to edit a protected cell or object\./);
    expect(refused.message).toMatch(/some of the cells written to sheet 'Strings' are protected \(cells C2, D2 in column\(s\) C \(de\), D \(fr\)\)/);
    expect(refused.message).toMatch(/Remove that protection .* or give the service account .*@.* edit rights on the protected range/);
    expect(refused.message).not.toMatch(/sharing|refused the credentials/);
    expect(mock.cell(2, 'de')).toBeUndefined();
    expect(mock.cell(2, 'fr')).toBeUndefined();
  });

  it("config errors name the setting: repeated keys (both rows), a missing column, an unknown tab or spreadsheet, too many rows", async () => {
    mock.edit(7, 'key', 'cart');
    mock.edit(7, 'en', 'Cart again');
    const repeated = await rejection(googleSheets.list(context(mock)));
    expect(repeated.kind).toBe('config');
    expect(repeated.message).toMatch(/repeats the key 'cart' in rows 3 and 7/);
    mock.reset();
    const source = await rejection(googleSheets.list(context(mock, { settings: { source_column: 'English' } })));
    expect(source.message).toMatch(/No column headed 'English' \(source_column\) in the header row \(row 1\) of sheet 'Strings'; its headers are 'key', 'en'/);
    const tab = await rejection(googleSheets.list(context(mock, { settings: { sheet: 'Strngs' } })));
    expect(tab.kind).toBe('config');
    expect(tab.message).toMatch(/Unable to parse range: 'Strngs'!A1:ZZ10002\).*no tab titled 'Strngs'.*`sheet`/);
    const sheet = await rejection(googleSheets.list(context(mock, { settings: { spreadsheet_id: '1NoSuchSpreadsheet000000000000' } })));
    expect(sheet.message).toMatch(/HTTP 404.*no spreadsheet '1NoSuchSpreadsheet000000000000'.*`spreadsheet_id`/);
    const rows = await rejection(googleSheets.list(context(mock, { settings: { max_rows: 3 } })));
    expect(rows.message).toMatch(/more than 3 rows under its header.*`max_rows` 3/);
    expect(googleSheets.settings.safeParse({ ...SHEETS_SETTINGS, spreadsheet_id: 'https://docs.google.com' }).error?.issues[0]).toMatchObject({ path: ['spreadsheet_id'] });
  });

  it("refused credentials are 'auth' quoting Google; a 429 is waited out; a server that does not answer is 'unavailable'", async () => {
    const stranger = await rejection(googleSheets.list(context(mock, { secrets: { service_account: mock.stranger } })));
    expect(stranger.kind).toBe('auth');
    expect(stranger.message).toMatch(/invalid_grant: Invalid JWT Signature/);
    const expired = await rejection(googleSheets.list(context(mock, { secrets: { access_token: 'ya29.expired' } })));
    expect(expired.kind).toBe('auth');
    expect(expired.message).toMatch(/Google Sheets refused the credentials \(HTTP 401: Request had invalid authentication credentials/);
    mock.requests.length = 0;
    mock.rateLimitNext(1);
    expect(unitOf(await googleSheets.list(context(mock))).strings).toHaveLength(SEED.length);
    expect(api(mock).map((r) => r.method)).toEqual(['GET', 'GET']);
    await mock.stop();
    try {
      expect((await rejection(googleSheets.list(context(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect(googleSheets.verifyWebhook).toBeUndefined();
  });
});

connectorAcceptance('Google Sheets acceptance', sheetsFixture, { direction: 'two_way' });
