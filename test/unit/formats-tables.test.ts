// Unit tests for the table codecs (csv, unity_csv, xlsx): byte-faithful round trips, splicing, plurals, tools and errors.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Codec, type Entry, type PluralForms, type Value } from '../../src/core/formats/codec.js';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { detectDelimiter, scanCsv, scanRecords, writeField } from '../../src/core/formats/csv-scan.js';
import { csvCodec, parseCsv, readCsvTable } from '../../src/core/formats/csv.js';
import { parseIcuPlural } from '../../src/core/formats/icu-plural.js';
import { parseUnityCsv, unityColumnName, unityCsvCodec } from '../../src/core/formats/unity-csv.js';
import { parseXlsx, xlsxCodec } from '../../src/core/formats/xlsx.js';
import { pluralCategories } from '../../src/core/plurals.js';
import { parseError } from '../helpers/formats.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'test/fixtures/formats');
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const PYTHON = '/usr/bin/python3';
const pythonHas = (module: string): boolean => existsSync(PYTHON) && spawnSync(PYTHON, ['-c', `import ${module}`]).status === 0;
const hasPython = existsSync(PYTHON);
const hasOpenpyxl = pythonHas('openpyxl');
const hasTranslate = pythonHas('translate.storage.csvl10n');

const TMP = mkdtempSync(join(tmpdir(), 'parlance-tables-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
let tmpCount = 0;
function tempFile(bytes: Uint8Array, extension: string): string {
  const path = join(TMP, `f${tmpCount++}${extension}`);
  writeFileSync(path, bytes);
  return path;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
// ignoreBOM keeps a BOM visible in the decoded string, so comparisons see it.
const dec = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(Buffer.compare(Buffer.from(actual), Buffer.from(expected))).toBe(0);
}

const valueOf = (e: Entry): Value => (e.plurals ? { plurals: e.plurals } : e.source);

function render(
  codec: Codec,
  source: string | Uint8Array,
  values: Record<string, Value>,
  options: { locale?: string; sourceLocale?: string; missing?: 'source' | 'omit' } = {},
): Uint8Array {
  return codec.render({
    source: typeof source === 'string' ? enc(source) : source,
    values: new Map(Object.entries(values)),
    missing: options.missing ?? 'source',
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.sourceLocale ? { sourceLocale: options.sourceLocale } : {}),
  });
}
const renderText = (...args: Parameters<typeof render>): string => dec(render(...args));

function python(script: string, ...args: string[]): string {
  const run = spawnSync(PYTHON, ['-c', script, ...args], { encoding: 'utf-8' });
  if (run.status !== 0) throw new Error(`python exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

// Python's csv module in strict mode is the reference RFC 4180 reader; one process reads many files (path, delimiter).
const PY_CSV = `
import csv, io, json, sys
def rows(path, delimiter):
    data = open(path, 'rb').read()
    text = data.decode('utf-16') if data[:2] in (b'\\xff\\xfe', b'\\xfe\\xff') else data.decode('utf-8-sig')
    return list(csv.reader(io.StringIO(text, newline=''), delimiter=delimiter, strict=True))
args = sys.argv[1:]
print(json.dumps([rows(args[i], args[i + 1]) for i in range(0, len(args), 2)]))
`;
/** Each file's rows as Python reads them, with the delimiter our scanner detected (or the one given). */
function pythonRows(...files: (Uint8Array | [Uint8Array, string])[]): string[][][] {
  const args = files.flatMap((f) => (Array.isArray(f) ? [tempFile(f[0], '.csv'), f[1]] : [tempFile(f, '.csv'), scanCsv(f).delimiter]));
  return JSON.parse(python(PY_CSV, ...args)) as string[][][];
}

// Each workbook's first sheet as openpyxl reads it; one process for many workbooks, as importing openpyxl is slow.
const PY_XLSX = `
import json, sys, warnings
warnings.simplefilter('ignore')
import openpyxl
def rows(path):
    ws = openpyxl.load_workbook(path).worksheets[0]
    return [[c.value if c.value is None or isinstance(c.value, str) else str(c.value) for c in row] for row in ws.iter_rows()]
print(json.dumps([rows(path) for path in sys.argv[1:]]))
`;
type SheetRows = (string | null)[][];
function openpyxlRows(...workbooks: Uint8Array[]): SheetRows[] {
  return JSON.parse(python(PY_XLSX, ...workbooks.map((b) => tempFile(b, '.xlsx')))) as SheetRows[];
}

// Every zip entry's method, CRC and raw (compressed) bytes, read with Python's zipfile after it checks every CRC.
const PY_ZIP = `
import json, sys, zipfile
path = sys.argv[1]
z = zipfile.ZipFile(path)
assert z.testzip() is None
data = open(path, 'rb').read()
out = {}
for i in z.infolist():
    o = i.header_offset
    n = int.from_bytes(data[o + 26:o + 28], 'little')
    e = int.from_bytes(data[o + 28:o + 30], 'little')
    out[i.filename] = [i.compress_type, i.CRC, data[o + 30 + n + e:o + 30 + n + e + i.compress_size].hex()]
print(json.dumps(out))
`;
function zipEntries(bytes: Uint8Array): Record<string, [number, number, string]> {
  return JSON.parse(python(PY_ZIP, tempFile(bytes, '.zip'))) as Record<string, [number, number, string]>;
}

/** The cells of the column headed `header` (by exact header text), keyed by the first column. */
function columnOf(rows: readonly (readonly (string | null)[])[], header: string): Map<string, string> {
  const index = rows[0]!.indexOf(header);
  expect(index, `column ${header} in ${JSON.stringify(rows[0])}`).toBeGreaterThanOrEqual(0);
  return new Map(rows.slice(1).filter((r) => (r[0] ?? '') !== '').map((r) => [r[0]!, r[index] ?? ''] as const));
}

/** Entries of the column of `locale`: how the target a render wrote reads back through our own codec. */
function parseAs(codec: Codec, bytes: Uint8Array, locale: string): Entry[] {
  if (codec.id === 'xlsx') return parseXlsx(bytes, locale);
  return codec.id === 'unity_csv' ? parseUnityCsv(bytes, locale) : parseCsv(bytes, locale);
}

function fixtureFiles(format: string): [string, Uint8Array][] {
  const dir = join(FIXTURES, format);
  return readdirSync(dir)
    .filter((f) => /\.(?:csv|tsv|xlsx)$/.test(f))
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

function corpusFiles(format: string): [string, Uint8Array][] {
  const dir = join(CORPUS, format);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

const CODECS: Record<string, Codec> = { csv: csvCodec, unity_csv: unityCsvCodec, xlsx: xlsxCodec };

/**
 * Corpus files the format's own tooling rejects, refused by us with the reason and position. tolgee-example.csv escapes
 * quotes with a backslash (`"this is a \"quote\""`, as Java's OpenCSV writes): RFC 4180 doubles them, and Python's csv
 * module (strict) stops at the same place: "',' expected after '\"'" on line 7.
 */
const REFUSED: Record<string, { message: string; line: number; column: number }> = {
  'csv/tolgee-example.csv': {
    message:
      "Expected ',' or the end of the line after the closing '\"' of a quoted field (a quote inside a quoted field is written \"\", not \\\") at line 7, column 34",
    line: 7,
    column: 34,
  },
};

function expectRoundTrip(codec: Codec, bytes: Uint8Array): Entry[] {
  const entries = codec.parse(bytes);
  const all = new Map(entries.map((e) => [e.key, valueOf(e)]));
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'source' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'omit' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'source', locale: 'en', sourceLocale: 'en' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: new Map(), missing: 'source' }), bytes);
  const copy = codec.render({ source: bytes, values: new Map(), missing: 'source' });
  expect(copy).not.toBe(bytes);
  for (const entry of entries) {
    expect(entry.path).toEqual([entry.key]);
    expect(entry.line).toBeGreaterThan(0);
    expect(entry.column).toBeGreaterThan(0);
    if (entry.plurals) expect(entry.source).toBe(entry.plurals.other ?? '');
  }
  return entries;
}

/** A value for each entry in the target locale, changed into awkward text (plural forms for the target's categories). */
function pseudoValues(entries: readonly Entry[], locale: string, pseudo: (s: string) => string): Map<string, Value> {
  return new Map(
    entries.map((e): [string, Value] => {
      if (!e.plurals) return [e.key, pseudo(e.source)];
      const forms: PluralForms = {};
      for (const c of pluralCategories(locale)) forms[c] = pseudo(`${c}: # ${e.plurals[c] ?? e.source}`);
      return [e.key, { plurals: forms }];
    }),
  );
}

/** What a target cell must hold for a value: the text, or an ICU plural with exactly the value's forms. */
function expectCell(cell: string | undefined, value: Value, where: string): void {
  if (typeof value === 'string') {
    expect(cell, where).toBe(value);
    return;
  }
  const icu = parseIcuPlural(cell ?? '');
  expect(icu?.forms, where).toEqual(value.plurals);
}

const PSEUDO_CSV = (s: string): string => `[${s}] "q" 'a' \\ \n <b> & 🚀 עברית, ; %1$s {name}`;

// ---------------------------------------------------------------------------------------------------------------

describe('csv-scan', () => {
  it('keeps each field’s span, quoting and position', () => {
    const text = 'a,"b ""q""",\r\n"x\ny",🚀,z';
    const records = scanRecords(text, ',');
    expect(records.map((r) => r.fields.map((f) => [f.value, f.quoted, text.slice(f.start, f.end), f.line, f.column]))).toEqual([
      [
        ['a', false, 'a', 1, 1],
        ['b "q"', true, '"b ""q"""', 1, 3],
        ['', false, '', 1, 13],
      ],
      [
        ['x\ny', true, '"x\ny"', 2, 1],
        ['🚀', false, '🚀', 3, 4],
        ['z', false, 'z', 3, 6],
      ],
    ]);
    expect(records.map((r) => [r.start, r.end, r.next, r.line])).toEqual([
      [0, 12, 14, 1],
      [14, text.length, text.length, 2],
    ]);
  });

  it('ends records at LF, CRLF and a lone CR, and reads a quote inside an unquoted field literally', () => {
    const records = scanRecords('a\rb\r\nc\nd"e" f,\n', ',');
    expect(records.map((r) => r.fields.map((f) => f.value))).toEqual([['a'], ['b'], ['c'], ['d"e" f', '']]);
    expect(scanRecords('', ',')).toEqual([]);
    expect(scanRecords('\n\n', ',').map((r) => r.fields.map((f) => f.value))).toEqual([[''], ['']]);
  });

  it('detects the delimiter from the header line only, outside quotes', () => {
    expect(detectDelimiter('key,en,de\nx;y;z;w')).toBe(',');
    expect(detectDelimiter('"key";"en";"de"\n')).toBe(';');
    expect(detectDelimiter('key\ten\n')).toBe('\t');
    expect(detectDelimiter('"a,b,c";"d"\n')).toBe(';');
    expect(detectDelimiter('key\n')).toBe(',');
    expect(detectDelimiter('a;b,c\t')).toBe(',');
  });

  it('quotes only what RFC 4180 needs, or everything when asked', () => {
    expect(writeField('plain', ',', false)).toBe('plain');
    expect(writeField('a,b', ',', false)).toBe('"a,b"');
    expect(writeField('a,b', ';', false)).toBe('a,b');
    expect(writeField('say "hi"', ';', false)).toBe('"say ""hi"""');
    expect(writeField('two\nlines', '\t', false)).toBe('"two\nlines"');
    expect(writeField('cr\r', ',', false)).toBe('"cr\r"');
    expect(writeField('', ',', true)).toBe('""');
  });
});

describe.skipIf(!existsSync(CORPUS))('shared corpus', () => {
  for (const format of ['csv', 'unity_csv', 'xlsx'] as const) {
    const codec = CODECS[format]!;
    for (const [file, bytes] of corpusFiles(format)) {
      const refused = REFUSED[`${format}/${file}`];
      if (refused) {
        it(`${format} refuses ${file} with a clear error, as the format's own tools do`, () => {
          const error = parseError(() => codec.parse(bytes));
          expect(error.message).toBe(refused.message);
          expect([error.line, error.column]).toEqual([refused.line, refused.column]);
          expect(parseError(() => codec.render({ source: bytes, values: new Map(), missing: 'source' })).message).toBe(refused.message);
        });
        if (hasPython && format === 'csv') {
          it(`Python's csv module (strict) also rejects ${file}`, () => {
            expect(() => pythonRows([bytes, ','])).toThrow(/',' expected after '"'/);
          });
        }
        continue;
      }
      it(`${format}: ${file} round-trips byte for byte`, () => {
        expectRoundTrip(codec, bytes);
      });
    }
  }

  it.skipIf(!hasPython)('csv: entries match what Python’s csv module reads from each corpus file', () => {
    const files = corpusFiles('csv').filter(([file]) => !REFUSED[`csv/${file}`]);
    const read = pythonRows(...files.map(([, bytes]) => bytes));
    for (const [i, [file, bytes]] of files.entries()) {
      const rows = read[i]!;
      const entries = csvCodec.parse(bytes);
      const sourceColumn = rows[0]!.indexOf('en');
      expect(entries.map((e) => [e.key, e.plurals ? rows.find((r) => r[0] === e.key)![sourceColumn] : e.source]), file).toEqual(
        rows.slice(1).map((r) => [r[0], r[sourceColumn]]),
      );
    }
  });

  it('reads the corpus layouts as documented', () => {
    const read = (p: string): Uint8Array => new Uint8Array(readFileSync(join(CORPUS, p)));
    const lingo = csvCodec.parse(read('csv/lingo-example.csv'));
    expect(lingo.map((e) => [e.key, e.source])).toContainEqual(['empty_row_key', '']);
    expect(lingo.map((e) => [e.key, e.source])).toContainEqual(['whitespace_only', '   ']);
    expect(lingo.at(-1)).toMatchObject({ key: 'new_feature', line: 8, column: 13 });

    const tolgee = csvCodec.parse(read('csv/tolgee-example_tab.csv'));
    // Tolgee's cell ' {value, plural, …}' has a leading space, folded into each form.
    expect(tolgee.find((e) => e.key === 'keyPluralSimple')).toMatchObject({
      source: ' the plural {value}',
      plurals: { one: ' the singular', other: ' the plural {value}' },
    });
    const params = xlsxCodec.parse(read('xlsx/tolgee-example_params.xlsx'));
    expect(params).toEqual([
      { key: 'key', path: ['key'], source: 'Hello {icuPara}', line: 2, column: 2 },
      {
        key: 'plural',
        path: ['plural'],
        source: 'Hello other {icuParam}',
        plurals: { one: 'Hello one # {icuParam}', other: 'Hello other {icuParam}' },
        line: 3,
        column: 2,
      },
    ]);
    const unity = unityCsvCodec.parse(read('unity_csv/unity-localization-table.csv'));
    expect(unity).toEqual([
      { key: 'MENU_START', path: ['MENU_START'], source: 'Start game', notes: 'Main menu button', line: 2, column: 47 },
      {
        key: 'ITEMS_COUNT',
        path: ['ITEMS_COUNT'],
        source: '{0:plural:You have {} item|You have {} items}',
        notes: 'Smart string, plural\nShown in inventory',
        line: 3,
        column: 52,
      },
      { key: 'GREETING', path: ['GREETING'], source: 'Hello, {player-name}!', notes: 'Use the profile name', line: 4, column: 29 },
      { key: 'QUOTE', path: ['QUOTE'], source: 'He said "wait"\nthen left.', notes: 'Contains quotes and a newline', line: 5, column: 55 },
    ]);
  });
});

describe('fixtures', () => {
  for (const format of ['csv', 'unity_csv', 'xlsx'] as const) {
    for (const [file, bytes] of fixtureFiles(format)) {
      it(`${format}/${file} round-trips byte for byte`, () => {
        expectRoundTrip(CODECS[format]!, bytes);
      });
    }
  }

  it.skipIf(!hasPython)('csv fixtures read the same through Python’s csv module', () => {
    const files = [...fixtureFiles('csv'), ...fixtureFiles('unity_csv')];
    const read = pythonRows(...files.map(([, bytes]) => bytes));
    for (const [i, [file, bytes]] of files.entries()) {
      const rows = read[i]!.map((r) => (r.length === 0 ? [''] : r));
      const ours = readCsvTable(bytes);
      expect([ours.header, ...ours.records].map((r) => r.fields.map((f) => f.value)), file).toEqual(rows.slice(rows.findIndex((r) => r.some((c) => c !== ''))));
    }
  });

  // Guards against an editor or git setting normalising the fixtures and hollowing out the tests above.
  it('still have the byte-level traits they were written for', () => {
    const read = (p: string): Buffer => readFileSync(join(FIXTURES, p));
    expect(read('csv/crlf-bom-semicolon.csv').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('csv/crlf-bom-semicolon.csv').toString('latin1')).toMatch(/^(?:[^\n]*\r\n)+$/);
    expect(read('csv/utf16le-tab.csv').subarray(0, 4)).toEqual(Buffer.from([0xff, 0xfe, 0x6b, 0x00]));
    expect(read('csv/old-mac-cr.csv').toString()).toBe('key,en\rhello,Hello\rbye,"Bye\rnow"');
    expect(read('csv/tab-no-final-newline.tsv').toString()).toMatch(/\tÚltimo$/);
    expect(read('unity_csv/crlf-full.csv').toString()).toMatch(/^Key,Id,Shared Comments,[^\n]*\r\n/);
    expect(read('unity_csv/zh-first.csv').toString()).toMatch(/"Cancel"$/);
    expect(read('xlsx/handmade-shared.xlsx').subarray(0, 4)).toEqual(Buffer.from('PK\u0003\u0004', 'latin1'));
  });
});

describe('csv: parse', () => {
  it('recognises key, language, note, context, max length and translatable columns', () => {
    const entries = csvCodec.parse(new Uint8Array(readFileSync(join(FIXTURES, 'csv/single-language.csv'))));
    expect(entries).toEqual([
      { key: 'save', path: ['save'], source: 'Save', notes: 'Button label', context: 'toolbar', maxLength: 10, line: 2, column: 6 },
      { key: 'save_menu', path: ['save_menu'], source: 'Save…', context: 'menu', line: 3, column: 11 },
      { key: 'brand', path: ['brand'], source: 'Parlance', notes: 'Product name', translatable: false, line: 4, column: 7 },
    ]);
  });

  it('picks the source column by sourceLocale, else the first language; unknown headers are not languages', () => {
    const src = 'id,url,fr,en_GB,notes\nk,http://x,Bonjour,Hello,n\n';
    expect(csvCodec.parse(enc(src))).toEqual([{ key: 'k', path: ['k'], source: 'Hello', notes: 'n', line: 2, column: 20 }]);
    // 'en' is the default source locale; en_GB matches by language. Without an English column, the first language.
    expect(csvCodec.parse(enc('key,de,fr\nk,Hallo,Salut\n'))[0]!.source).toBe('Hallo');
    expect(renderText(csvCodec, 'key,de,fr\nk,Hallo,Salut\n', { k: 'Bonjour' }, { locale: 'fr', sourceLocale: 'de' })).toBe(
      'key,de,fr\nk,Hallo,Bonjour\n',
    );
  });

  it('prefers a `key` column to an `id` column, carrying the other along', () => {
    expect(csvCodec.parse(enc('id,key,en\n7,greeting,Hi\n')).map((e) => [e.key, e.source])).toEqual([['greeting', 'Hi']]);
    expect(renderText(csvCodec, 'Key,Id,en\ngreeting,7,Hi\n', { greeting: 'Hallo' }, { locale: 'de' })).toBe('Key,Id,en,de\ngreeting,7,Hi,Hallo\n');
  });

  it('reads plural category columns, and ICU plurals in a cell with surrounding text folded in', () => {
    const columns = csvCodec.parse(new Uint8Array(readFileSync(join(FIXTURES, 'csv/plural-columns.csv'))));
    expect(columns.map((e) => [e.key, e.source, e.plurals, e.line, e.column])).toEqual([
      ['title', 'Inbox', undefined, 2, 18],
      ['messages', '{count} messages', { one: '{count} message', other: '{count} messages' }, 3, 40],
      ['files', '# files', { one: '# file', other: '# files' }, 4, 16],
    ]);
    const icu = csvCodec.parse(new Uint8Array(readFileSync(join(FIXTURES, 'csv/icu-plurals.csv'))));
    expect(icu.map((e) => [e.key, e.plurals ?? e.source])).toEqual([
      ['inbox', { one: '# message', other: '# messages' }],
      ['offset', { one: 'You and one other', other: 'You and # others' }],
      ['prefixed', { one: 'You have # item in {place}.', other: 'You have # items in {place}.' }],
      ['select', '{g, select, male {He} other {They}}'],
      ['quoted', "It''s {n, plural, one {# '{x}'} other {# '{y}'}}"],
    ]);
  });

  it('reads a single-language file with bare category columns; a row with only `other` is text', () => {
    const entries = csvCodec.parse(new Uint8Array(readFileSync(join(FIXTURES, 'csv/bare-categories.csv'))));
    expect(entries.map((e) => [e.key, e.plurals ?? e.source])).toEqual([
      ['title', 'Inbox'],
      ['messages', { zero: 'No messages', one: 'One message', other: '{count} messages' }],
    ]);
  });

  it('skips blank rows and tolerates short rows', () => {
    const entries = csvCodec.parse(new Uint8Array(readFileSync(join(FIXTURES, 'csv/ragged.csv'))));
    expect(entries.map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['a', 'Alpha', 3, 3],
      ['b', 'Beta', 4, 3],
      ['c', 'Gamma', 6, 3],
    ]);
  });

  it('decodes UTF-16 with a BOM and counts columns in code points', () => {
    const entries = csvCodec.parse(new Uint8Array(readFileSync(join(FIXTURES, 'csv/utf16le-tab.csv'))));
    expect(entries.map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['hello', 'Hello', 2, 7],
      ['emoji', '🚀 rocket', 3, 7],
    ]);
    expect(csvCodec.parse(enc('key,en\n🚀,x\n'))[0]).toMatchObject({ line: 2, column: 3 });
  });
});

describe('csv: render with translations', () => {
  const basic = new Uint8Array(readFileSync(join(FIXTURES, 'csv/basic.csv')));

  it('fills an existing language column, quoting only where needed, and leaves every other byte alone', () => {
    const out = renderText(csvCodec, basic, { greeting: 'Servus', farewell: 'Tschüss', quote: 'Er sagte "ja", dann ging er' }, { locale: 'de' });
    const expected = dec(basic)
      .replace('greeting,Hello,Hallo', 'greeting,Hello,Servus')
      .replace('"Auf Wiedersehen, Freund"', 'Tschüss')
      .replace('"Sie sagte ""hallo"""', '"Er sagte ""ja"", dann ging er"')
      .replace('"Zeile eins\nZeile zwei"', '"Line one\nLine two"')
      .replace('placeholders,Hello {name}: %s and %1$s,Hallo {name}: %s und %1$s', 'placeholders,Hello {name}: %s and %1$s,Hello {name}: %s and %1$s')
      .replace('spaces,  padded  ,', 'spaces,  padded  ,  padded  ')
      .replace("apostrophe,It's <b>bold</b> & \\ backslash,", "apostrophe,It's <b>bold</b> & \\ backslash,It's <b>bold</b> & \\ backslash")
      .replace('unicode,🚀 مرحبا שלום é,🚀', 'unicode,🚀 مرحبا שלום é,🚀 مرحبا שלום é');
    // Missing values fall back to the source text (missing: 'source').
    expect(out).toBe(expected);
  });

  it('adds a column for a new language right after the source column, in every row', () => {
    const src = 'key,en,de\r\nhi,Hi,Hallo\r\nbye,"Bye, now",Tschüss';
    expect(renderText(csvCodec, src, { hi: 'Salut', bye: 'Au revoir, "ami"' }, { locale: 'fr' })).toBe(
      'key,en,fr,de\r\nhi,Hi,Salut,Hallo\r\nbye,"Bye, now","Au revoir, ""ami""",Tschüss',
    );
    const quoted = '"key";"en"\n"hi";"Hi"\n';
    expect(renderText(csvCodec, quoted, { hi: 'Salut' }, { locale: 'pt-BR' })).toBe('"key";"en";"pt-BR"\n"hi";"Hi";"Salut"\n');
    // A tag spelt with '_' in the file is spelt the same way for the new column.
    expect(renderText(csvCodec, 'key,en_US\nhi,Hi\n', { hi: 'Oi' }, { locale: 'pt-BR', sourceLocale: 'en-US' })).toBe('key,en_US,pt_BR\nhi,Hi,Oi\n');
  });

  it('pads short rows only as far as needed and leaves blank rows blank', () => {
    const ragged = new Uint8Array(readFileSync(join(FIXTURES, 'csv/ragged.csv')));
    expect(renderText(csvCodec, ragged, { a: 'A-fr', b: 'B-fr', c: 'C, fr' }, { locale: 'fr' })).toBe(
      'key,en,fr,de,_notes\n\na,Alpha,A-fr\nb,Beta,B-fr,Beta-de,note b\n,,,\nc,"Gamma","C, fr",,\n',
    );
    expect(renderText(csvCodec, ragged, { a: 'A-de' }, { locale: 'de' })).toBe(
      'key,en,de,_notes\n\na,Alpha,A-de\nb,Beta,Beta,note b\n,,,\nc,"Gamma",Gamma,\n',
    );
  });

  it('keeps the BOM, CRLF and semicolons of the source', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'csv/crlf-bom-semicolon.csv')));
    const out = renderText(csvCodec, src, { 'app.title': 'Meine App', 'app.welcome': 'Willkommen; viel Spaß', 'app.multi': 'X\r\nY' }, { locale: 'de' });
    expect(out).toBe(
      '\uFEFF"key";"description";"en";"de";"fr"\r\n' +
        '"app.title";"Window title";"My App";"Meine App";"Mon appli"\r\n' +
        '"app.welcome";"";"Welcome; have fun";"Willkommen; viel Spaß";"Bienvenue ; amusez-vous"\r\n' +
        '"app.multi";"Two lines";"A\r\nB";"X\r\nY";"A\r\nB"\r\n',
    );
  });

  it('keeps UTF-16 and lone-CR files in their encoding and line ends', () => {
    const utf16 = new Uint8Array(readFileSync(join(FIXTURES, 'csv/utf16le-tab.csv')));
    const out = render(csvCodec, utf16, { hello: 'Hallo', emoji: 'Rakete 🚀' }, { locale: 'de' });
    expect([...out.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(new TextDecoder('utf-16le').decode(out.subarray(2))).toBe('key\ten\tde\tja\r\nhello\tHello\tHallo\tこんにちは\r\nemoji\t🚀 rocket\tRakete 🚀\t🚀\r\n');
    const cr = new Uint8Array(readFileSync(join(FIXTURES, 'csv/old-mac-cr.csv')));
    expect(renderText(csvCodec, cr, { hello: 'Hallo', bye: 'Tschüss\rdann' }, { locale: 'de' })).toBe(
      'key,en,de\rhello,Hello,Hallo\rbye,"Bye\rnow","Tschüss\rdann"',
    );
  });

  it('writes plural values as ICU text in ICU cells, keeping the argument, offset and exact matches', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'csv/icu-plurals.csv')));
    const out = renderText(
      csvCodec,
      src,
      {
        inbox: { plurals: { one: '# wiadomość', few: '# wiadomości', many: '# wiadomości', other: '# wiadomości' } },
        offset: { plurals: { one: 'Ty i jeszcze jedna', few: 'Ty i # inne', many: 'Ty i # innych', other: 'Ty i # innej' } },
        select: '{g, select, male {On} other {Oni}}',
      },
      { locale: 'pl', missing: 'omit' },
    );
    const rows = out.split('\n');
    expect(rows[0]).toBe('key,en,pl,fr');
    expect(rows[1]).toBe(
      'inbox,"{count, plural, =0 {No messages} one {# message} other {# messages}}",' +
        '"{count, plural, =0 {No messages} one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}",' +
        '"{count, plural, =0 {Aucun message} one {# message} other {# messages}}"',
    );
    expect(rows[2]).toBe(
      'offset,"{n, plural, offset:1 one {You and one other} other {You and # others}}",' +
        '"{n, plural, offset:1 one {Ty i jeszcze jedna} few {Ty i # inne} many {Ty i # innych} other {Ty i # innej}}",',
    );
    expect(rows[3]).toBe('prefixed,"You have {n, plural, one {# item} other {# items}} in {place}.",,');
    expect(rows[4]).toBe('select,"{g, select, male {He} other {They}}","{g, select, male {On} other {Oni}}",');
  });

  it('gives a source row back unchanged when it fills its `other` cell beside the plain cell it is read from (found by the fuzzer)', () => {
    const src = enc('key,en,en_one,en_other,de\nmessages,{count} messages,,{count} Nachricht,{count} Nachrichten\n');
    const entries = csvCodec.parse(src);
    expect(entries.map((e) => [e.key, e.source, e.plurals])).toEqual([['messages', '{count} messages', undefined]]);
    const same = csvCodec.render({ source: src, values: new Map([['messages', '{count} messages']]), missing: 'source' });
    expect(dec(same)).toBe(dec(src));
    // A changed text is still written as one text: the category cells it no longer needs are cleared.
    const changed = renderText(csvCodec, src, { messages: '{count} notes' }, { locale: 'en' });
    expect(changed).toBe('key,en,en_one,en_other,de\nmessages,{count} notes,,,{count} Nachrichten\n');
  });

  it('writes plural values into category columns, adding the target’s categories', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'csv/plural-columns.csv')));
    const out = renderText(
      csvCodec,
      src,
      {
        title: 'Skrzynka',
        messages: { plurals: { one: '{count} wiadomość', few: '{count} wiadomości', many: '{count} wiadomości', other: '{count} wiadomości' } },
      },
      { locale: 'pl', missing: 'omit' },
    );
    expect(out).toBe(
      'key,description,en,en_one,en_other,pl,pl_one,pl_few,pl_many,pl_other,de,de_one,de_other\n' +
        'title,Page title,Inbox,,,Skrzynka,,,,,Posteingang,,\n' +
        'messages,Unread count,,{count} message,{count} messages,,{count} wiadomość,{count} wiadomości,{count} wiadomości,{count} wiadomości,,{count} Nachricht,{count} Nachrichten\n' +
        'files,,,# file,# files,,,,,,,,\n',
    );
    // An existing language gets the category columns it lacks after its last one.
    const de = renderText(csvCodec, src, { messages: { plurals: { zero: 'keine', one: 'eine', other: 'viele' } } }, { locale: 'de' });
    expect(de.split('\n')[0]).toBe('key,description,en,en_one,en_other,de,de_one,de_other,de_zero');
    expect(de.split('\n')[2]).toBe('messages,Unread count,,{count} message,{count} messages,,eine,viele,keine');
  });

  it('fills the same columns in a single-language file, whatever the target locale', () => {
    const src = 'key,value\nhello,Hello\n';
    expect(renderText(csvCodec, src, { hello: 'Hallo' }, { locale: 'de' })).toBe('key,value\nhello,Hallo\n');
    const bare = new Uint8Array(readFileSync(join(FIXTURES, 'csv/bare-categories.csv')));
    expect(renderText(csvCodec, bare, { title: 'Skrzynka', messages: { plurals: { one: 'jedna', few: 'kilka', many: 'wiele', other: 'inne' } } }, { locale: 'pl' })).toBe(
      'key,zero,one,other,few,many\ntitle,,,Skrzynka,,\nmessages,,jedna,inne,kilka,wiele\n',
    );
  });

  it('keeps untranslatable rows as they are', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'csv/single-language.csv')));
    expect(renderText(csvCodec, src, { save: 'Speichern', brand: 'Marke' }, { locale: 'de', missing: 'omit' })).toBe(
      'id,text,comment,context,max_length,translatable,_internal\nsave,Speichern,Button label,toolbar,10,true,x\nbrand,Parlance,Product name,,,false,\n',
    );
  });
});

describe('csv and unity_csv: render into the file’s own language', () => {
  /** The text with the given column's cells replaced by a marker: what must not change when that column's values do. */
  function skeleton(bytes: Uint8Array, column: number): string {
    const { doc, records } = readCsvTable(bytes);
    let out = '';
    let at = 0;
    for (const field of records.map((r) => r.fields[column]).filter((f) => f !== undefined)) {
      out += `${doc.text.slice(at, field.start)}¤`;
      at = field.end;
    }
    return `${doc.bom ? 'BOM:' : ''}${doc.encoding}:${out}${doc.text.slice(at)}`;
  }

  const inputs: [string, Codec, Uint8Array][] = [
    ...[...corpusFiles('csv'), ...fixtureFiles('csv')]
      .filter(([file]) => !REFUSED[`csv/${file}`] && !file.includes('plural-columns') && !file.includes('bare-'))
      .map(([file, bytes]): [string, Codec, Uint8Array] => [file, csvCodec, bytes]),
    ...[...corpusFiles('unity_csv'), ...fixtureFiles('unity_csv')].map(([file, bytes]): [string, Codec, Uint8Array] => [file, unityCsvCodec, bytes]),
  ];
  for (const [file, codec, bytes] of inputs) {
    it(`${codec.id}: ${file} changes only the source cells`, () => {
      const entries = codec.parse(bytes);
      const values = pseudoValues(entries, 'en', PSEUDO_CSV);
      const out = render(codec, bytes, Object.fromEntries(values));
      const column = readCsvTable(bytes).header.fields.findIndex((f) => ['en', 'text', 'English(en)'].includes(f.value));
      expect(skeleton(out, column)).toBe(skeleton(bytes, column));
      // Untranslatable rows keep their text.
      expect(codec.parse(out).map(valueOf)).toEqual(entries.map((e) => (e.translatable === false ? valueOf(e) : values.get(e.key))));
      // Back to the source values: the same entries (quoting may differ where the source quoted without need).
      expect(codec.parse(render(codec, out, Object.fromEntries(entries.map((e) => [e.key, valueOf(e)]))))).toEqual(entries);
    });
  }
});

describe('csv: render with missing: omit', () => {
  it('empties another language’s cells and keeps the row (other languages live in it)', () => {
    const src = 'key,en,de\na,A,Ah\nb,B,Be\n';
    expect(renderText(csvCodec, src, { a: 'Ä' }, { locale: 'de', missing: 'omit' })).toBe('key,en,de\na,A,Ä\nb,B,\n');
    expect(renderText(csvCodec, '"key","en","de"\n"a","A","Ah"\n', {}, { locale: 'de', missing: 'omit' })).toBe('"key","en","de"\n"a","A",""\n');
    expect(renderText(csvCodec, src, {}, { locale: 'fr', missing: 'omit' })).toBe('key,en,fr,de\na,A,,Ah\nb,B,,Be\n');
  });

  it('removes rows of the file’s own language, keeping the final newline or its absence', () => {
    const src = 'key,en\r\na,A\r\nb,B\r\nc,C';
    expect(renderText(csvCodec, src, { a: 'A', b: 'B' }, { missing: 'omit' })).toBe('key,en\r\na,A\r\nb,B');
    expect(renderText(csvCodec, src, { a: 'A' }, { missing: 'omit' })).toBe('key,en\r\na,A');
    expect(renderText(csvCodec, src, { c: 'C' }, { missing: 'omit' })).toBe('key,en\r\nc,C');
    expect(renderText(csvCodec, src, {}, { missing: 'omit' })).toBe('key,en');
    expect(renderText(csvCodec, 'key,value\na,A\nb,B\n', { b: 'Be' }, { locale: 'de', missing: 'omit' })).toBe('key,value\nb,Be\n');
    expect(csvCodec.parse(render(csvCodec, src, {}, { missing: 'omit' }))).toEqual([]);
  });
});

describe('unity_csv: render', () => {
  const corpusTable = join(CORPUS, 'unity_csv/unity-localization-table.csv');
  const table = existsSync(corpusTable)
    ? new Uint8Array(readFileSync(corpusTable))
    : new Uint8Array(readFileSync(join(FIXTURES, 'unity_csv/crlf-full.csv')));

  it('names added languages the way Unity does', () => {
    expect(unityColumnName('de')).toBe('German(de)');
    expect(unityColumnName('zh-Hans')).toBe('Chinese (Simplified)(zh-Hans)');
    expect(unityColumnName('en-GB')).toBe('English (United Kingdom)(en-GB)');
    expect(unityColumnName('pt-BR')).toBe('Portuguese (Brazil)(pt-BR)');
  });

  it('adds the target language after the source language and its comments, quoting values as Unity does', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'unity_csv/crlf-full.csv')));
    const out = renderText(unityCsvCodec, src, { START: 'Démarrer', SMART: '{0:plural:{} élément|{} éléments}', NEWLINE: 'Ligne 1\r\n"Ligne" 2' }, { locale: 'fr', missing: 'omit' });
    expect(out).toBe(
      'Key,Id,Shared Comments,English(en),English(en) Comments,French(fr),German(de),German(de) Comments,Japanese(ja)\r\n' +
        '"START",1001,"Main menu","Start","Button","Démarrer","Starten","","スタート"\r\n' +
        '"SMART",1002,"Smart String","{0:plural:{} item|{} items}","","{0:plural:{} élément|{} éléments}","{0:plural:{} Element|{} Elemente}","",\r\n' +
        '"NEWLINE",,"Has ""quotes"", commas","Line 1\r\nLine 2","","Ligne 1\r\n""Ligne"" 2","","",\r\n' +
        '"EMPTY",1004,"","","",,"","",\r\n',
    );
  });

  it('fills an existing language column and empties it on omission', () => {
    const out = renderText(unityCsvCodec, table, { MENU_START: 'Démarrer', GREETING: 'Salut, {player-name} !' }, { locale: 'fr', missing: 'omit' });
    if (table.length === 486) {
      expect(out).toBe(
        'Key,Id,Shared Comments,English(en),English(en) Comments,French(fr),Japanese(ja)\n' +
          '"MENU_START",6245678901234,"Main menu button","Start game","","Démarrer","スタート"\n' +
          '"ITEMS_COUNT",6245678901235,"Smart string, plural","{0:plural:You have {} item|You have {} items}","Shown in inventory","",\n' +
          '"GREETING",6245678901236,"","Hello, {player-name}!","Use the profile name","Salut, {player-name} !",\n' +
          '"QUOTE",6245678901237,"Contains quotes and a newline","He said ""wait""\nthen left.","","",',
      );
    }
    expect(unityCsvCodec.parse(enc(out)).map((e) => e.key)).toEqual(unityCsvCodec.parse(table).map((e) => e.key));
  });

  it('takes English as the source even when another language comes first', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'unity_csv/zh-first.csv')));
    expect(renderText(unityCsvCodec, src, { OK: 'OK', CANCEL: 'Abbrechen' }, { locale: 'de' })).toBe(
      'Key,Id,Shared Comments,Chinese (Simplified)(zh-Hans),English(en),German(de)\n"OK",1,"","好","OK","OK"\n"CANCEL",2,"Dialog button","取消","Cancel","Abbrechen"',
    );
  });

  it('refuses plural values', () => {
    expect(() => render(unityCsvCodec, table, { MENU_START: { plurals: { one: 'a', other: 'b' } } }, { locale: 'fr' })).toThrow(
      /format_cannot_express_plural/,
    );
  });
});

describe('xlsx: render', () => {
  const handmade = new Uint8Array(readFileSync(join(FIXTURES, 'xlsx/handmade-shared.xlsx')));
  const inline = new Uint8Array(readFileSync(join(FIXTURES, 'xlsx/openpyxl-inline.xlsx')));

  it('reads shared, rich, inline, escaped, boolean, number and formula cells from the first sheet', () => {
    expect(xlsxCodec.parse(handmade).map((e) => [e.key, e.source, e.notes, e.line, e.column])).toEqual([
      ['hello', 'Hello', 'note', 2, 2],
      ['rich', 'Bold and plain', undefined, 3, 2],
      ['cr', 'carriage\r\nreturn', undefined, 5, 2],
      ['phonetic', 'Kanji', undefined, 6, 2],
      ['404', 'Not found', undefined, 7, 2],
      ['literal', 'literal _x0041_ stays', undefined, 8, 2],
    ]);
    expect(xlsxCodec.parse(inline).map((e) => [e.key, e.source, e.notes])).toEqual([
      ['welcome', 'Welcome, {name}!', 'Home page'],
      ['multi', 'Line one\nLine two', undefined],
      ['padded', '  padded ', 'Leading space'],
      ['markup', 'Tom & Jerry <b>', undefined],
      ['42', 'The answer', 'Numeric key'],
      ['emoji', '🚀 مرحبا', undefined],
    ]);
  });

  it.skipIf(!hasPython)('rewrites only the worksheet and shared strings, copying every other zip entry’s bytes', () => {
    const out = render(xlsxCodec, handmade, { hello: 'Hallo', rich: 'Fett', cr: 'Wagen\r\nRücklauf', literal: 'x _x0041_ y', phonetic: 'Kanji' }, { locale: 'de' });
    const before = zipEntries(handmade);
    const after = zipEntries(out);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const name of Object.keys(before)) {
      if (name === 'xl/worksheets/sheet1.xml' || name === 'xl/sharedStrings.xml') expect(after[name], name).not.toEqual(before[name]);
      else expect(after[name], name).toEqual(before[name]);
    }
    const entries = parseXlsxTarget(out, 'de');
    expect(entries.get('hello')).toBe('Hallo');
    expect(entries.get('cr')).toBe('Wagen\r\nRücklauf');
    expect(entries.get('literal')).toBe('x _x0041_ y');
  });

  it('adds a language column after the last column, keeping styles and updating the dimension and spans', () => {
    const out = render(xlsxCodec, handmade, { hello: 'Hallo', rich: 'Reich & <b>' }, { locale: 'de', missing: 'omit' });
    const sheet = unzipText(out, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<x:dimension ref="A1:E8"/>');
    expect(sheet).toContain('<x:row r="1" spans="1:5">');
    expect(sheet).toContain('<x:c r="E1" t="s"><x:v>11</x:v></x:c></x:row>');
    expect(sheet).toContain('<x:c r="E2" s="1" t="s"><x:v>12</x:v></x:c></x:row>');
    expect(sheet).toContain('<x:c t="s"><x:v>6</x:v></x:c><x:c r="E3" s="1" t="s"><x:v>13</x:v></x:c></x:row>');
    const strings = unzipText(out, 'xl/sharedStrings.xml');
    expect(strings).toContain('count="15" uniqueCount="14"');
    expect(strings).toMatch(/<si><t>note<\/t><\/si>\n<si><t>de<\/t><\/si><si><t>Hallo<\/t><\/si><si><t>Reich &amp; &lt;b&gt;<\/t><\/si><\/sst>\n$/);
    expect(xlsxCodec.parse(out)).toEqual(xlsxCodec.parse(handmade));
  });

  it('writes inline strings where the workbook has no shared strings, and reuses the replaced cell’s attributes', () => {
    const out = render(xlsxCodec, inline, { welcome: 'Bienvenue, {name} !', multi: ' deux\nlignes' }, { locale: 'de', missing: 'omit' });
    const sheet = unzipText(out, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<c r="D2" t="inlineStr"><is><t>Bienvenue, {name} !</t></is></c>');
    expect(sheet).toContain('<c r="D3" t="inlineStr"><is><t xml:space="preserve"> deux\nlignes</t></is></c>');
    // Omitted: the cells go, the rows stay.
    expect(sheet).not.toContain('r="D5"');
    expect(sheet).not.toContain('r="D6"');
  });

  it('removes rows of the workbook’s own language on omission', () => {
    const out = render(xlsxCodec, inline, { welcome: 'Welcome, {name}!' }, { missing: 'omit' });
    expect(xlsxCodec.parse(out).map((e) => e.key)).toEqual(['welcome']);
    expect(unzipText(out, 'xl/worksheets/sheet1.xml')).not.toContain('<row r="3"');
  });

  it('opens an empty, self-closing shared string table to append to it', () => {
    const files = unzipSync(xlsxCodec.renderFresh([{ key: 'hello', value: 'Hello' }]));
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    files['xl/sharedStrings.xml'] = strToU8(`<?xml version="1.0"?>\n<sst xmlns="${main}" count="0" uniqueCount="0" />\n`);
    files['xl/_rels/workbook.xml.rels'] = strToU8(
      new TextDecoder()
        .decode(files['xl/_rels/workbook.xml.rels'])
        .replace(
          '</Relationships>',
          '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        ),
    );
    files['[Content_Types].xml'] = strToU8(
      new TextDecoder()
        .decode(files['[Content_Types].xml'])
        .replace('</Types>', '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'),
    );
    const workbook = zipSync(files);
    const out = render(xlsxCodec, workbook, { hello: 'Hallo & <tschüss>' }, { locale: 'de' });
    expect(unzipText(out, 'xl/sharedStrings.xml')).toBe(
      `<?xml version="1.0"?>\n<sst xmlns="${main}" count="2" uniqueCount="2"><si><t>de</t></si><si><t>Hallo &amp; &lt;tschüss&gt;</t></si></sst>\n`,
    );
    expect(parseXlsx(out, 'de').map((e) => [e.key, e.source])).toEqual([['hello', 'Hallo & <tschüss>']]);
    if (hasOpenpyxl) expect(openpyxlRows(out)[0]).toEqual([['key', 'en', 'de'], ['hello', 'Hello', 'Hallo & <tschüss>']]);
  });

  it('writes plural category columns', () => {
    const plural = new Uint8Array(readFileSync(join(FIXTURES, 'xlsx/plural-columns.xlsx')));
    const out = render(xlsxCodec, plural, { messages: { plurals: { one: 'une', many: 'beaucoup', other: 'plusieurs' } }, title: 'Boîte' }, { locale: 'fr', missing: 'omit' });
    const sheet = unzipText(out, 'xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<c r="G3" t="inlineStr"><is><t>beaucoup</t></is></c>');
    expect(sheet).toContain('<c r="E2" t="inlineStr"><is><t>Boîte</t></is></c>');
    expect(sheet).not.toContain('r="F4"');
  });
});

function unzipText(bytes: Uint8Array, name: string): string {
  const file = unzipSync(bytes)[name];
  if (!file) throw new Error(`no ${name} in the archive`);
  return new TextDecoder().decode(file);
}

/** Target values of a rendered workbook, read through our own codec. */
function parseXlsxTarget(bytes: Uint8Array, locale: string): Map<string, string> {
  return new Map(parseXlsx(bytes, locale).map((e) => [e.key, e.source]));
}

describe('real tools read what we write', () => {
  const csvInputs = (): [string, Uint8Array][] => [
    ...corpusFiles('csv').filter(([f]) => !REFUSED[`csv/${f}`]),
    ...fixtureFiles('csv').filter(([f]) => !f.startsWith('bare-') && !f.startsWith('single-')),
  ];

  it.skipIf(!hasPython)('csv: Python’s csv module (strict) reads pseudo-translated ar and pl columns with our values', () => {
    const cases = csvInputs().flatMap(([file, bytes]) =>
      ['ar', 'pl'].map((locale) => {
        const entries = csvCodec.parse(bytes);
        const values = pseudoValues(entries, locale, PSEUDO_CSV);
        return { file, bytes, locale, entries, values, out: render(csvCodec, bytes, Object.fromEntries(values), { locale }) };
      }),
    );
    const read = pythonRows(...cases.flatMap((c) => [c.bytes, c.out]));
    cases.forEach(({ file, locale, entries, values, out }, i) => {
      const [sourceRows, rows] = [read[2 * i]!, read[2 * i + 1]!];
      const where = `${file} → ${locale}`;
      if (rows[0]!.some((h) => h.endsWith('_other'))) {
        // Category columns: each form in its own column, text in the plain one.
        for (const entry of entries) {
          const value = values.get(entry.key)!;
          for (const category of pluralCategories(locale)) {
            const cell = columnOf(rows, `${locale}_${category}`).get(entry.key);
            expect(cell, `${where} ${entry.key} ${category}`).toBe(typeof value === 'string' ? '' : value.plurals[category]);
          }
          if (typeof value === 'string') expect(columnOf(rows, locale).get(entry.key), `${where} ${entry.key}`).toBe(value);
        }
      } else {
        const target = columnOf(rows, locale);
        for (const entry of entries) expectCell(target.get(entry.key), values.get(entry.key)!, `${where} ${entry.key}`);
      }
      // Every other cell reads as before (blank rows get no cells).
      const added = rows[0]!.map((h, c) => (sourceRows[0]!.includes(h) ? -1 : c)).filter((c) => c >= 0);
      expect(rows.map((r) => (r[0] ? r.filter((_, c) => !added.includes(c)) : r)), where).toEqual(sourceRows);
      // Our own reading of the target column agrees.
      const ours = parseAs(csvCodec, out, locale);
      expect(ours.map((e) => e.key), where).toEqual(entries.map((e) => e.key));
      for (const e of ours) expect(e.plurals ? { plurals: e.plurals } : e.source, `${where} ${e.key}`).toEqual(values.get(e.key));
    });
  });

  it.skipIf(!hasPython)('csv: omission keeps the file readable with the omitted cells empty', () => {
    const cases = csvInputs().map(([file, bytes]) => {
      const entries = csvCodec.parse(bytes);
      const kept = entries.filter((_, i) => i % 2 === 0);
      const other = render(csvCodec, bytes, Object.fromEntries(kept.map((e) => [e.key, 'ok, "kept"'])), { locale: 'de', missing: 'omit' });
      const own = render(csvCodec, bytes, Object.fromEntries(kept.map((e) => [e.key, valueOf(e)])), { missing: 'omit' });
      return { file, entries, kept, other, own };
    });
    const read = pythonRows(...cases.flatMap((c) => [c.other, c.own]));
    cases.forEach(({ file, entries, kept }, i) => {
      const target = columnOf(read[2 * i]!, 'de');
      for (const e of entries) expect(target.get(e.key), `${file} ${e.key}`).toBe(kept.includes(e) ? 'ok, "kept"' : '');
      expect(read[2 * i + 1]!.slice(1).filter((r) => r.some((c) => c !== '')).map((r) => r[0]), file).toEqual(kept.map((e) => e.key));
    });
  });

  it.skipIf(!hasTranslate)('csv: translate-toolkit reads the same keys, sources and targets', () => {
    // csvl10n guesses the dialect with csv.Sniffer from the first 1024 characters; on a two-line file with quotes and
    // spaces in a value it can guess a space delimiter. Such files are left out (the sniffed delimiter is reported).
    const script = `
import csv, json, sys
from translate.storage import csvl10n
def read(path):
    data = open(path, 'rb').read()
    store = csvl10n.csvfile(open(path, 'rb'))
    sniffed = csv.Sniffer().sniff(data.decode('utf-8-sig')[:1024]).delimiter
    return {'delimiter': sniffed, 'units': [[u.location, u.source, u.target] for u in store.units]}
print(json.dumps([read(path) for path in sys.argv[1:]]))
`;
    // translate-toolkit reads key,<source>,<target> by position (location, source, target). It reads text without
    // newline='' handling, so lone-CR line ends fail inside its csv reader; it sniffs UTF-16 poorly.
    const inputs = csvInputs().filter(([, bytes]) => {
      const doc = scanCsv(bytes);
      return doc.records[0]!.fields[1]?.value === 'en' && doc.encoding === 'utf-8' && doc.newline !== '\r';
    });
    const cases = inputs.map(([file, bytes]) => {
      const entries = csvCodec.parse(bytes);
      const values = pseudoValues(entries, 'pl', (s) => `[${s}] "q" 'a' \\ <b> & 🚀 עברית, ; %1$s`);
      return { file, bytes, entries, values, out: render(csvCodec, bytes, Object.fromEntries(values), { locale: 'pl' }) };
    });
    const rows = pythonRows(...cases.flatMap((c) => [c.bytes, c.out]));
    const read = JSON.parse(python(script, ...cases.map((c) => tempFile(c.out, '.csv')))) as { delimiter: string; units: string[][] }[];
    let checked = 0;
    cases.forEach(({ file, out, entries, values }, i) => {
      const { delimiter, units } = read[i]!;
      if (delimiter !== scanCsv(out).delimiter) return;
      checked++;
      const [sourceRows, outRows] = [rows[2 * i]!, rows[2 * i + 1]!];
      expect(units, file).toEqual(outRows.filter((r) => r.length > 0).map((r) => [r[0], r[1], r[2]]));
      expect(units[0], file).toEqual([sourceRows[0]![0], 'en', 'pl']);
      const keyed = units.slice(1).filter(([key]) => key !== '');
      expect(keyed.map(([key]) => key), file).toEqual(entries.map((e) => e.key));
      for (const [key, source, target] of keyed) {
        expect(source).toBe(sourceRows.slice(1).find((r) => r[0] === key)![1]);
        expectCell(target, values.get(key!)!, `${file} ${key}`);
      }
    });
    // Three of the fixtures are read with the delimiter we wrote; the shared corpus, where it is present, adds more.
    expect(checked).toBeGreaterThanOrEqual(corpusFiles('csv').length > 0 ? 4 : 3);
  });

  it.skipIf(!hasPython)('unity_csv: Python’s csv module (strict) reads the added and filled columns', () => {
    const cases = [...corpusFiles('unity_csv'), ...fixtureFiles('unity_csv')].flatMap(([file, bytes]) =>
      ['ar', 'ja', 'de'].map((locale) => {
        const entries = unityCsvCodec.parse(bytes);
        const values = pseudoValues(entries, locale, PSEUDO_CSV);
        return { file, locale, entries, values, out: render(unityCsvCodec, bytes, Object.fromEntries(values), { locale }) };
      }),
    );
    const read = pythonRows(...cases.map((c) => c.out));
    cases.forEach(({ file, locale, entries, values, out }, i) => {
      const rows = read[i]!;
      const header = rows[0]!.find((h) => h.endsWith(`(${locale})`)) ?? unityColumnName(locale);
      const target = columnOf(rows, header);
      for (const e of entries) expect(target.get(e.key), `${file} ${locale} ${e.key}`).toBe(values.get(e.key));
      expect(parseAs(unityCsvCodec, out, locale).map((e) => [e.key, e.source])).toEqual([...values]);
    });
  });

  it.skipIf(!hasOpenpyxl)('xlsx: openpyxl opens pseudo-translated workbooks and reads our values', () => {
    const cases = [...corpusFiles('xlsx'), ...fixtureFiles('xlsx')].flatMap(([file, bytes]) =>
      ['ar', 'pl'].map((locale) => {
        const entries = xlsxCodec.parse(bytes);
        const values = pseudoValues(entries, locale, (s) => `[${s}] "q" 'a' \\ \r\n <b> & 🚀 עברית, ;`);
        return { file, bytes, locale, entries, values, out: render(xlsxCodec, bytes, Object.fromEntries(values), { locale }) };
      }),
    );
    const read = openpyxlRows(...cases.flatMap((c) => [c.bytes, c.out]));
    cases.forEach(({ file, locale, entries, values }, i) => {
      const [sourceRows, rows] = [read[2 * i]!, read[2 * i + 1]!];
      const where = `${file} → ${locale}`;
      const categorised = rows[0]!.some((h) => h?.endsWith('_other'));
      for (const e of entries) {
        const value = values.get(e.key)!;
        if (categorised) {
          for (const category of pluralCategories(locale)) {
            const cell = columnOf(rows, `${locale}_${category}`).get(e.key);
            expect(cell, `${where} ${e.key}`).toBe(typeof value === 'string' ? '' : value.plurals[category]);
          }
          if (typeof value === 'string') expect(columnOf(rows, locale).get(e.key), `${where} ${e.key}`).toBe(value);
        } else {
          expectCell(columnOf(rows, locale).get(e.key), value, `${where} ${e.key}`);
        }
      }
      // Other cells read as before; added columns are appended at the end.
      expect(rows.map((r) => r.slice(0, sourceRows[0]!.length)), where).toEqual(sourceRows);
    });
  });

  it.skipIf(!hasOpenpyxl)('xlsx: omission keeps the workbook readable', () => {
    const cases = [...corpusFiles('xlsx'), ...fixtureFiles('xlsx')].map(([file, bytes]) => {
      const entries = xlsxCodec.parse(bytes);
      const kept = entries.filter((_, i) => i % 2 === 1);
      const other = render(xlsxCodec, bytes, Object.fromEntries(kept.map((e) => [e.key, 'gardé'])), { locale: 'de', missing: 'omit' });
      const own = render(xlsxCodec, bytes, Object.fromEntries(kept.map((e) => [e.key, valueOf(e)])), { missing: 'omit' });
      return { file, entries, kept, other, own };
    });
    const read = openpyxlRows(...cases.flatMap((c) => [c.other, c.own]));
    cases.forEach(({ file, entries, kept, own }, i) => {
      const target = columnOf(read[2 * i]!, 'de');
      for (const e of entries) expect(target.get(e.key) ?? '', `${file} ${e.key}`).toBe(kept.includes(e) ? 'gardé' : '');
      const keys = read[2 * i + 1]!.slice(1).filter((r) => r[0] !== null && r.slice(1).some((c) => c !== null));
      expect(keys.map((r) => r[0]), file).toEqual(kept.map((e) => e.key));
      expect(xlsxCodec.parse(own).map((e) => e.key), file).toEqual(kept.map((e) => e.key));
    });
  });
});

describe('plurals', () => {
  const forms = (locale: string): PluralForms => Object.fromEntries(pluralCategories(locale).map((c) => [c, `${locale} ${c} # {count}`]));
  const inputs: [string, Codec, Uint8Array][] = [
    ['csv/icu-plurals.csv', csvCodec, new Uint8Array(readFileSync(join(FIXTURES, 'csv/icu-plurals.csv')))],
    ['csv/plural-columns.csv', csvCodec, new Uint8Array(readFileSync(join(FIXTURES, 'csv/plural-columns.csv')))],
    ['csv/bare-categories.csv', csvCodec, new Uint8Array(readFileSync(join(FIXTURES, 'csv/bare-categories.csv')))],
  ];

  for (const locale of ['ar', 'pl', 'ja']) {
    it(`csv writes exactly ${locale}’s categories and reads them back`, () => {
      expect(pluralCategories('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
      for (const [file, codec, bytes] of inputs) {
        const entries = codec.parse(bytes).filter((e) => e.plurals);
        const out = render(codec, bytes, Object.fromEntries(entries.map((e) => [e.key, { plurals: forms(locale) }])), { locale });
        const single = file.includes('bare-');
        const back = single ? codec.parse(out) : parseAs(codec, out, locale);
        for (const e of entries) {
          const read = back.find((b) => b.key === e.key)!;
          // In a file without a plain column, a lone `other` form is indistinguishable from text (ja has only `other`).
          if (single && locale === 'ja') expect(read.source, `${file} ${e.key}`).toBe(forms('ja').other);
          else expect(read.plurals, `${file} ${e.key}`).toEqual(forms(locale));
        }
      }
    });

    it(`xlsx writes exactly ${locale}’s categories and reads them back`, () => {
      for (const name of ['plural-columns.xlsx']) {
        const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'xlsx', name)));
        const entries = xlsxCodec.parse(bytes).filter((e) => e.plurals);
        const out = render(xlsxCodec, bytes, Object.fromEntries(entries.map((e) => [e.key, { plurals: forms(locale) }])), { locale });
        const back = parseAs(xlsxCodec, out, locale);
        for (const e of entries) expect(back.find((b) => b.key === e.key)!.plurals, `${name} ${e.key}`).toEqual(forms(locale));
      }
      const corpus = join(CORPUS, 'xlsx/tolgee-example_params.xlsx');
      if (existsSync(corpus)) {
        const out = render(xlsxCodec, new Uint8Array(readFileSync(corpus)), { plural: { plurals: forms(locale) } }, { locale });
        expect(parseAs(xlsxCodec, out, locale).find((e) => e.key === 'plural')!.plurals).toEqual(forms(locale));
      }
    });
  }

  it('writes the source forms onto the target’s categories for missing values', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'csv/plural-columns.csv')));
    const out = render(csvCodec, src, {}, { locale: 'pl' });
    expect(parseAs(csvCodec, out, 'pl').find((e) => e.key === 'messages')!.plurals).toEqual({
      one: '{count} message',
      few: '{count} messages',
      many: '{count} messages',
      other: '{count} messages',
    });
  });
});

describe('randomized round trips', () => {
  const PIECES = [
    'a', 'Z', ' ', '.', '"', '""', "'", '\\', '/', ',', ';', '\t', '\n', '\r', '\r\n', '🚀', '👩‍👩‍👧', 'مرحبا', 'שלום', '\u200f',
    'é', 'e\u0301', '{name}', '{n, number}', '%s', '%1$s', '%d', '<b>', '&amp;', '&', '<', ']]>', '_x000D_', '_x005F_', '\u0001', '=1+1',
  ];
  const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join(''));
  const key = fc.array(fc.constantFrom(...PIECES.filter((p) => p !== '\u0001')), { minLength: 1, maxLength: 4 }).map((p) => `k${p.join('')}`);
  const table = fc.uniqueArray(fc.tuple(key, text), { selector: ([k]) => k, maxLength: 8 });

  it('csv: hand-built files with any delimiter, quoting and line ends parse and render back', () => {
    fc.assert(
      fc.property(
        table,
        fc.array(text, { minLength: 8, maxLength: 8 }),
        fc.constantFrom(',', ';', '\t'),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (rows, next, delimiter, newline, quoteAll, bom, finalNewline) => {
          const line = (cells: string[]): string => cells.map((c) => writeField(c, delimiter, quoteAll)).join(delimiter);
          const body = [line(['key', 'en']), ...rows.map(([k, v]) => line([k, v]))].join(newline) + (finalNewline ? newline : '');
          const bytes = enc(`${bom ? '\uFEFF' : ''}${body}`);
          const entries = csvCodec.parse(bytes);
          expect(entries.map((e) => [e.key, e.source])).toEqual(rows);
          expectSameBytes(csvCodec.render({ source: bytes, values: new Map(rows), missing: 'source' }), bytes);

          const values = new Map(rows.map(([k], i) => [k, next[i]!]));
          const out = csvCodec.render({ source: bytes, values, missing: 'source' });
          expect(csvCodec.parse(out).map((e) => [e.key, e.source])).toEqual([...values]);
          expectSameBytes(csvCodec.render({ source: out, values: new Map(rows), missing: 'source' }).subarray(0, bom ? 3 : 0), bytes.subarray(0, bom ? 3 : 0));

          const de = csvCodec.render({ source: bytes, values, missing: 'source', locale: 'de' });
          expect(parseAs(csvCodec, de, 'de').map((e) => [e.key, e.source])).toEqual([...values]);
          expect(csvCodec.parse(de).map((e) => [e.key, e.source])).toEqual(rows);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('csv and unity_csv: renderFresh reads back, and values survive render → parse', () => {
    for (const codec of [csvCodec, unityCsvCodec]) {
      fc.assert(
        fc.property(table, fc.array(text, { minLength: 8, maxLength: 8 }), (rows, next) => {
          const file = codec.renderFresh(rows.map(([k, v]) => ({ key: k, value: v })), { locale: 'en' });
          expect(codec.parse(file).map((e) => [e.key, e.source])).toEqual(rows);
          const values = new Map(rows.map(([k], i) => [k, next[i]!]));
          const out = codec.render({ source: file, values, missing: 'source', locale: 'fr' });
          expect(parseAs(codec, out, 'fr').map((e) => [e.key, e.source])).toEqual([...values]);
          expect(codec.parse(out).map((e) => [e.key, e.source])).toEqual(rows);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('xlsx: renderFresh reads back, and values survive render → parse in shared and inline workbooks', () => {
    const handmade = new Uint8Array(readFileSync(join(FIXTURES, 'xlsx/handmade-shared.xlsx')));
    const keys = xlsxCodec.parse(handmade).map((e) => e.key);
    fc.assert(
      fc.property(table, fc.array(text, { minLength: 8, maxLength: 8 }), (rows, next) => {
        const file = xlsxCodec.renderFresh(rows.map(([k, v]) => ({ key: k, value: v })));
        expect(xlsxCodec.parse(file).map((e) => [e.key, e.source])).toEqual(rows);
        const values = new Map(rows.map(([k], i) => [k, next[i]!]));
        const out = xlsxCodec.render({ source: file, values, missing: 'source' });
        expect(xlsxCodec.parse(out).map((e) => [e.key, e.source])).toEqual([...values]);

        const shared = new Map(keys.map((k, i) => [k, next[i]!]));
        const changed = xlsxCodec.render({ source: handmade, values: shared, missing: 'source' });
        expect(xlsxCodec.parse(changed).map((e) => [e.key, e.source])).toEqual([...shared]);
        expectSameBytes(xlsxCodec.render({ source: changed, values: new Map(), missing: 'source' }), changed);
      }),
      { numRuns: 50 },
    );
  });
});

describe('renderFresh', () => {
  const entries = [
    { key: 'title', value: 'Inbox, "new"', notes: 'Page title' },
    { key: 'messages', value: { plurals: { one: '# message', other: '# messages' } } },
    { key: 'multi', value: 'Line 1\nLine 2' },
    { key: 'title', value: 'Inbox' },
  ];

  it('csv: key and locale columns, plurals as ICU, repeated keys keep their first position and last value', () => {
    const out = csvCodec.renderFresh(entries, { locale: 'de' });
    expect(dec(out)).toBe('key,de\ntitle,Inbox\nmessages,"{count, plural, one {# message} other {# messages}}"\nmulti,"Line 1\nLine 2"\n');
    expect(parseAs(csvCodec, out, 'de').map((e) => [e.key, e.plurals ?? e.source])).toEqual([
      ['title', 'Inbox'],
      ['messages', { one: '# message', other: '# messages' }],
      ['multi', 'Line 1\nLine 2'],
    ]);
    expect(dec(csvCodec.renderFresh([]))).toBe('key,en\n');
  });

  it('unity_csv: Unity’s header and quoting, notes as Shared Comments', () => {
    const out = unityCsvCodec.renderFresh(
      [
        { key: 'START', value: 'Start "now"', notes: 'Menu' },
        { key: 'EMPTY', value: '' },
      ],
      { locale: 'en' },
    );
    expect(dec(out)).toBe('Key,Id,Shared Comments,English(en)\n"START",,"Menu","Start ""now"""\n"EMPTY",,"",""');
    expect(unityCsvCodec.parse(out)).toEqual([
      { key: 'START', path: ['START'], source: 'Start "now"', notes: 'Menu', line: 2, column: 17 },
      { key: 'EMPTY', path: ['EMPTY'], source: '', line: 3, column: 13 },
    ]);
    expect(() => unityCsvCodec.renderFresh([{ key: 'p', value: { plurals: { other: 'x' } } }])).toThrow(/format_cannot_express_plural/);
  });

  it('xlsx: a minimal workbook that reads back in order', () => {
    const out = xlsxCodec.renderFresh(entries, { locale: 'en' });
    expect(xlsxCodec.parse(out).map((e) => [e.key, e.plurals ?? e.source])).toEqual([
      ['title', 'Inbox'],
      ['messages', { one: '# message', other: '# messages' }],
      ['multi', 'Line 1\nLine 2'],
    ]);
    // Reproducible: no timestamps.
    expectSameBytes(xlsxCodec.renderFresh(entries, { locale: 'en' }), out);
    expect(xlsxCodec.parse(xlsxCodec.renderFresh([]))).toEqual([]);
  });

  it.skipIf(!hasOpenpyxl)('xlsx: openpyxl opens a fresh workbook', () => {
    expect(openpyxlRows(xlsxCodec.renderFresh(entries, { locale: 'de' }))[0]).toEqual([
      ['key', 'de'],
      ['title', 'Inbox'],
      ['messages', '{count, plural, one {# message} other {# messages}}'],
      ['multi', 'Line 1\nLine 2'],
    ]);
  });
});

describe('detect', () => {
  it('scores by extension and first bytes', () => {
    expect(csvCodec.detect('en.csv', 'key,en\n')).toBe(0.6);
    expect(csvCodec.detect('en.tsv', 'key\ten\n')).toBe(0.6);
    expect(csvCodec.detect('en.json', '{}')).toBe(0);
    expect(csvCodec.detect('table.csv', 'Key,Id,Shared Comments,English(en)\n')).toBe(0.3);
    expect(unityCsvCodec.detect('table.csv', 'Key,Id,Shared Comments,English(en)\n')).toBe(0.95);
    expect(unityCsvCodec.detect('table.csv', '\uFEFFKey,English(en),French(fr)\r\n')).toBe(0.9);
    expect(unityCsvCodec.detect('en.csv', 'key,en\n')).toBe(0.1);
    expect(unityCsvCodec.detect('en.xlsx', 'PK')).toBe(0);
    expect(xlsxCodec.detect('strings.xlsx', 'PK\u0003\u0004\u0014\u0000')).toBe(1);
    expect(xlsxCodec.detect('strings.xlsx', 'key,en')).toBe(0.5);
    expect(xlsxCodec.detect('upload.bin', 'PK\u0003\u0004 [Content_Types].xml xl/workbook.xml')).toBe(0.6);
    expect(xlsxCodec.detect('en.csv', 'key,en')).toBe(0);
  });
});

describe('malformed input', () => {
  it.each([
    ['key,en\na,"x', 'Expected \'"\' to close the field opened at line 2, column 3 before the end of the file at line 2, column 5', 2, 5],
    ['key,en\na,"x"y', "Expected ',' or the end of the line after the closing '\"' of a quoted field at line 2, column 6", 2, 6],
    ['key;en\na;"x" ;y', "Expected ';' or the end of the line after the closing '\"' of a quoted field at line 2, column 6", 2, 6],
    ['key\ten\na\t"x""\ty"z', "Expected a tab or the end of the line after the closing '\"' of a quoted field at line 2, column 10", 2, 10],
    ['key,en\n"a\\"b",c', "Expected ',' or the end of the line after the closing '\"' of a quoted field (a quote inside a quoted field is written \"\", not \\\") at line 2, column 5", 2, 5],
    ['', 'The file is empty; expected a header row (e.g. key,en) at line 1, column 1', 1, 1],
    ['\n,,\n\n', 'The file is empty; expected a header row (e.g. key,en) at line 4, column 1', 4, 1],
    ['key,url,comment\na,b,c\n', 'Expected a language column in the header row (e.g. key,en,de); found only "key", "url", "comment" at line 1, column 1', 1, 1],
    ['key,en\na,A\n,B\n', 'Expected a key in the key column of a row that has values at line 3, column 1', 3, 1],
    ['key,en\na,A\nb,B\na,C\n', 'Duplicate key "a" (first defined at line 2) at line 4, column 1', 4, 1],
    ['key,en\na,A,extra\n', 'Expected at most 2 cells in a row, as in the header row; this cell has no column at line 2, column 5', 2, 5],
    ['key,en,de,en\na,A,B,C\n', 'Duplicate column "en" (first in column 2) at line 1, column 11', 1, 11],
    ['key,en,KEY\na,A,b\n', 'Duplicate column "KEY" (first in column 1) at line 1, column 8', 1, 8],
  ])('csv %j → %s', (input, message, line, column) => {
    const error = parseError(() => csvCodec.parse(enc(input)));
    expect(error.message).toBe(message);
    expect([error.line, error.column]).toEqual([line, column]);
    expect(parseError(() => csvCodec.render({ source: enc(input), values: new Map(), missing: 'source' })).message).toBe(message);
  });

  it('csv: invalid UTF-8 names its position', () => {
    const bytes = new Uint8Array([...enc('key,en\nk,caf'), 0xc3, 0x28, ...enc('\n')]);
    const error = parseError(() => csvCodec.parse(bytes));
    expect(error.message).toBe('Invalid UTF-8 byte sequence at line 2, column 6');
  });

  it('unity_csv: a table without a Key column', () => {
    const error = parseError(() => unityCsvCodec.parse(enc('Id,English(en)\n1,"Hi"\n')));
    expect(error.message).toBe("Expected a 'Key' column in the header row of a Unity string table (Key,Id,Shared Comments,English(en),…) at line 1, column 1");
    expect(parseError(() => unityCsvCodec.parse(enc('Key,Id\n"a",1\n'))).message).toBe(
      'Expected a language column in the header row (e.g. key,en,de); found only "Key", "Id" at line 1, column 1',
    );
    expect(parseError(() => unityCsvCodec.parse(enc('Key,English(en)\n"a","x"\n"a","y"\n'))).message).toBe(
      'Duplicate key "a" (first defined at line 2) at line 3, column 1',
    );
  });

  it('xlsx: not a workbook, or a damaged one', () => {
    expect(parseError(() => xlsxCodec.parse(enc('key,en\n'))).message).toBe('Expected an .xlsx workbook (a ZIP archive starting with "PK") at line 1, column 1');
    const handmade = new Uint8Array(readFileSync(join(FIXTURES, 'xlsx/handmade-shared.xlsx')));
    expect(parseError(() => xlsxCodec.parse(handmade.subarray(0, 200))).message).toMatch(/^Expected an \.xlsx workbook, but the ZIP archive is damaged \(.+\) at line 1, column 1$/);
    const noSheet = xlsxCodec.renderFresh([]).slice();
    // Point the workbook at a missing part by renaming the sheet's entry name in place (same length).
    const renamed = replaceBytes(noSheet, 'xl/worksheets/sheet1.xml', 'xl/worksheets/sheetX.xml');
    expect(parseError(() => xlsxCodec.parse(renamed)).message).toBe(
      'Expected the workbook part xl/worksheets/sheet1.xml, which the package\'s relationships name, but it is missing at line 1, column 1',
    );
  });

  it('xlsx: malformed XML names the part, line and column', () => {
    const sheet = '<?xml version="1.0"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>\n<row r="1"><c r="A1" t="inlineStr"><is><t>key</t></is></c></row>\n<row r="2"><c r="A2"><v>1</c></row></sheetData></worksheet>';
    const error = parseError(() => xlsxCodec.parse(workbookWith(sheet)));
    expect(error.message).toBe("In xl/worksheets/sheet1.xml: Expected '</v>' to close <v> (opened at line 4, column 22); found '</c>' at line 4, column 26");
    expect([error.line, error.column]).toEqual([4, 26]);
  });

  it.each([
    ['<row r="1"><c r="A1" t="s"><v>7</v></c></row>', 'In xl/worksheets/sheet1.xml: Expected a shared string index below 0, found "7" at line 1, column 116', 1, 116],
    ['<row r="1"><c r="A2" t="inlineStr"><is><t>key</t></is></c></row>', 'In xl/worksheets/sheet1.xml: Expected a cell reference in row 1 (like A1), found "A2" at line 1, column 100', 1, 100],
    ['<row r="2"/><row r="1"/>', 'In xl/worksheets/sheet1.xml: Expected rows in ascending order with numeric r attributes, found r="1" at line 1, column 101', 1, 101],
    ['<row r="1"><c r="B1"/><c r="A1"/></row>', 'In xl/worksheets/sheet1.xml: Expected cells in column order, found "A1" after column B at line 1, column 111', 1, 111],
    ['', 'The first worksheet is empty; expected a header row (e.g. key, en) at line 1, column 1', 1, 1],
    [
      '<row r="1"><c r="A1" t="inlineStr"><is><t>key</t></is></c><c r="B1" t="inlineStr"><is><t>en</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="C2" t="inlineStr"><is><t>stray</t></is></c></row>',
      'Expected at most 2 cells in a row, as in the header row; this cell has no column at line 2, column 3',
      2,
      3,
    ],
  ])('xlsx sheet %j → %s', (rows, message, line, column) => {
    const sheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
    const error = parseError(() => xlsxCodec.parse(workbookWith(sheet)));
    expect(error.message).toBe(message);
    expect([error.line, error.column]).toEqual([line, column]);
  });
});

/** A fresh workbook with its worksheet XML replaced, zipped with fflate so the test does not lean on the codec's writer. */
function workbookWith(sheet: string): Uint8Array {
  const files = unzipSync(xlsxCodec.renderFresh([]));
  files['xl/worksheets/sheet1.xml'] = strToU8(sheet);
  return zipSync(files);
}

function replaceBytes(bytes: Uint8Array, from: string, to: string): Uint8Array {
  return new Uint8Array(Buffer.from(Buffer.from(bytes).toString('latin1').replaceAll(from, to), 'latin1'));
}

describe('csv: found by the fuzzer (npm run fuzz)', () => {
  const same = (bytes: Uint8Array): Map<string, Value> =>
    new Map(csvCodec.parse(bytes).map((e) => [e.key, e.plurals ? { plurals: e.plurals } : e.source]));

  it('renders the source locale unchanged when its category columns lack `other` (no column is added)', () => {
    for (const text of ['key,zero,one,other\u0000\ntitle,,,Inbox\n', 'one\tOne\tUno\ntab_in_value\t"a\tb"\t"a\tb"\nlast\tLast\tÚltimo']) {
      const bytes = enc(text);
      expect(dec(csvCodec.render({ source: bytes, values: new Map(), missing: 'source' }))).toBe(text);
      expect(dec(csvCodec.render({ source: bytes, values: same(bytes), missing: 'source' }))).toBe(text);
    }
  });

  it('leaves a plain cell beside category cells alone when the forms are the row\'s own', () => {
    const text = 'key,en,en_one,en_other\nkey,en,en_one,en_other\nmessages,t{count} message,{count} messages,\n';
    const bytes = enc(text);
    expect(dec(csvCodec.render({ source: bytes, values: same(bytes), missing: 'source' }))).toBe(text);
  });
});
