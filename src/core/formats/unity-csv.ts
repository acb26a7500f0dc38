// The `unity_csv` codec: the Unity Localization package's string table CSV (Key, Id, Shared Comments, Name(code) columns).
import { textValue } from './values.js';
import type { Codec, Entry, FreshEntry, FreshOptions, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { encodeCsv, writeField } from './csv-scan.js';
import { dedupe, parseCsvTable, readCsvTable, renderCsvTable, type CsvTable, type HeaderRole, type QuotePolicy, type TableDialect } from './csv.js';

/*
 * Unity's CSV extension names a language's column after its Locale, `LocaleIdentifier.ToString()`: the .NET English
 * name and the code, e.g. `English(en)`, `Chinese (Simplified)(zh-Hans)`, and its comment column `<that> Comments`.
 * Values are Smart Strings or plain text and stay text: Unity has no plural columns (`{0:plural:…}` is a Smart String).
 * Columns: Key → Entry.key; Shared Comments and the source language's Comments → Entry.notes; Id and every other
 * column are carried through untouched. Rendering fills the target's `Name(code)` column, or adds one (named with
 * Intl.DisplayNames) after the source language and its comment column. Values are quoted as Unity writes them (always);
 * an omitted value leaves the cell bare and empty, as Unity exports a missing entry.
 */

const LANGUAGE_COLUMN = /^(.*)\(([^()]+)\)$/;
const COMMENTS_COLUMN = /^(.*\([^()]+\)) Comments$/;

// .NET's CultureInfo.EnglishName spells regional variants "English (United Kingdom)": the standard display style.
const NAMES = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });

/** The header Unity exports for a locale, e.g. `German(de)`. */
export function unityColumnName(locale: string): string {
  let name: string | undefined;
  try {
    name = NAMES.of(locale);
  } catch {
    name = undefined;
  }
  return `${name ?? locale}(${locale})`;
}

function classify(header: string): HeaderRole {
  if (header === 'Key') return { kind: 'key' };
  if (header === 'Shared Comments') return { kind: 'notes' };
  const comments = COMMENTS_COLUMN.exec(header);
  if (comments) return { kind: 'localeNotes', locale: LANGUAGE_COLUMN.exec(comments[1]!)![2]! };
  const language = LANGUAGE_COLUMN.exec(header);
  if (language) return { kind: 'value', locale: language[2]! };
  return { kind: 'ignored' };
}

const unityDialect: TableDialect = {
  format: 'unity_csv',
  plurals: false,
  classify,
  header: (locale) => unityColumnName(locale),
};

// Unity quotes every value it writes, even an empty one, and leaves the cell of a missing entry bare; headers are bare.
const unityQuotes: QuotePolicy = (text, { replaced, header }) => !header && (text !== '' || replaced === true);

/** Unity reads rows by the Key column (or Id, which cannot be translated): a file without one is not a string table. */
function readStringTable(bytes: Uint8Array): CsvTable {
  const table = readCsvTable(bytes);
  const { headerRow } = table;
  if (headerRow.cells.some((c) => c?.value === 'Key')) return table;
  const { line, column } = headerRow;
  throw new FileUnparsableError(
    `Expected a 'Key' column in the header row of a Unity string table (Key,Id,Shared Comments,English(en),…) at line ${line}, column ${column}`,
    line,
    column,
  );
}

/** A string table's entries in the column of `locale` (default English, else the first language). */
export function parseUnityCsv(bytes: Uint8Array, locale = 'en'): Entry[] {
  return parseCsvTable(readStringTable(bytes), unityDialect, locale);
}

export const unityCsvCodec: Codec = {
  id: 'unity_csv',
  extensions: ['.csv'],
  plurals: false,

  detect(fileName, head) {
    if (!/\.csv$/i.test(fileName)) return 0;
    const first = head.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
    if (/^"?Key"?,"?Id"?,"?Shared Comments"?(?:,|$)/.test(first)) return 0.95;
    if (/^"?Key"?,/.test(first) && /[^,]\([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*\)"?(?:,|$)/.test(first)) return 0.9;
    return 0.1;
  },

  parse(bytes: Uint8Array): Entry[] {
    return parseUnityCsv(bytes);
  },

  render(input: RenderInput): Uint8Array {
    const table = readStringTable(input.source);
    for (const value of input.values.values()) textValue(value, 'unity_csv');
    return renderCsvTable(input, unityDialect, unityQuotes, table);
  },

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    const locale = options?.locale ?? 'en';
    // Unity assigns an Id to a row whose Id is blank; it writes LF line ends and no final newline.
    const lines = [`Key,Id,Shared Comments,${writeField(unityColumnName(locale), ',', false)}`];
    for (const entry of dedupe(entries)) {
      const cells = [entry.key, '', entry.notes ?? '', textValue(entry.value, 'unity_csv')];
      lines.push(cells.map((cell, i) => (i === 1 ? cell : writeField(cell, ',', true))).join(','));
    }
    return encodeCsv(lines.join('\n'), false, 'utf-8');
  },
};
