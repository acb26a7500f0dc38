// The `csv` codec, and the table conventions (key, language, plural-category and note columns) unity_csv and xlsx share.
import { pluralCategories, sourceFormsFor } from '../plurals.js';
import {
  FileUnparsableError,
  PLURAL_CATEGORIES,
  type Codec,
  type Entry,
  type FreshEntry,
  type FreshOptions,
  type PluralCategory,
  type PluralForms,
  type RenderInput,
  type Value,
} from './codec.js';
import { encodeCsv, isBlank, needsQuotes, scanCsv, writeField, type CsvDelimiter, type CsvDocument, type CsvField, type CsvRecord } from './csv-scan.js';
import { foldIcuPlural, parseIcuPlural, writeIcuPlural } from './icu-plural.js';

/*
 * Columns the csv and xlsx codecs recognise in the header row (names compared case-insensitively):
 *   key        key, keys, key_name, key name, keyname, string_id, id, identifier, name (the first of these, in this
 *              order of preference, names the rows; else the first column)
 *   language   a BCP-47 tag: en, en-US, pt_BR, zh-Hans (Tolgee, Lokalise, Lingo and Godot exports)
 *   plural     <tag>_<category> or <tag>-<category> (en_one, en-other), or a bare category (one, other) in a
 *              single-language file; CLDR categories zero one two few many other
 *   value      value, text, translation, string, message: the text of a single-language file (`key,value`)
 *   notes      description, comment(s), note(s), developer/translator comment(s)   → Entry.notes (joined by LF)
 *   context    context, ?context (Godot), msgctxt                                     → Entry.context
 *   max length max_length, maxlength, max length, char_limit, character_limit, limit  → Entry.maxLength
 *   translatable  translatable (false, no, n, 0 mark a row untranslatable)
 * Every other column (Godot's `_`-prefixed ones, Unity's Id, fuzzy flags, locations) is carried through untouched.
 *
 * The source is the language named by sourceLocale (default 'en'), else one of the same language (en_GB for en), else
 * the unnamed language of a single-language file, else the first language. A plural is either one ICU plural in the
 * cell (Tolgee's layout; text around it is folded into each form, and it is written back as ICU text) or one column per
 * category. A row is plural in category columns when a category other than `other` is filled, or when only `other` is
 * while the language's plain column is empty; otherwise its text is the plain column (or `other` where there is none).
 * Entry.line/column point at the source cell (the key cell when the row has none).
 */

export interface TableCell {
  /** The cell's text, decoded. */
  value: string;
  line: number;
  column: number;
}

/** One row of a sheet: cells by 0-based column index (sparse where a spreadsheet leaves cells out). */
export interface TableRow {
  cells: readonly (TableCell | undefined)[];
  line: number;
  column: number;
}

export type HeaderRole =
  | { kind: 'notes' | 'context' | 'maxLength' | 'translatable' | 'ignored' }
  /** A key column; with several, the lowest rank names the rows and the others are carried along. */
  | { kind: 'key'; rank?: number }
  /** Values of one language ('' for the unnamed language of a single-language file); `category` for per-category columns. */
  | { kind: 'value'; locale: string; category?: PluralCategory }
  /** Unity's per-language comment column. */
  | { kind: 'localeNotes'; locale: string };

/** How a table format names its columns. */
export interface TableDialect {
  format: 'csv' | 'unity_csv' | 'xlsx';
  plurals: boolean;
  classify(header: string): HeaderRole;
  /** Header of a column added for `locale` (and `category`), spelt like the group it is modelled on. */
  header(locale: string, like: ValueGroup, category?: PluralCategory): string;
}

/** The columns holding one language's values. */
export interface ValueGroup {
  /** Normalised tag (lower case, '-' separated), or '' for the unnamed language. */
  id: string;
  /** The tag as the header spells it. */
  locale: string;
  plain?: number;
  categories: Map<PluralCategory, number>;
  /** The language's own comment column (Unity). */
  notes?: number;
  /** '_' or '-', as in `en_one`; '' for bare category headers. */
  separator: string;
  /** The group's last column (its comment column included), which columns added for another language follow. */
  last: number;
}

export interface TableLayout {
  key: number;
  notes: number[];
  context?: number;
  maxLength?: number;
  translatable?: number;
  groups: ValueGroup[];
  source: ValueGroup;
  /** Number of header cells. */
  width: number;
}

/** What the source row holds for rendering: its entry, plus the ICU frame of a whole-ICU plural cell. */
export interface TableEntry {
  /** Index into the data rows. */
  row: number;
  entry: Entry;
  icu?: { argument: string; offset?: number; exact: Record<string, string> };
  /** Whether the value sits in category columns (rather than the plain column). */
  categorised: boolean;
}

/** Cells to write: column (existing index, or `width + k` for the k-th added column) → text ('' empties it). */
export interface RowEdit {
  remove?: boolean;
  /** Sparse: a hole leaves the cell as it is (an array indexed by column costs a row far less than a Map). */
  cells: string[];
}

export interface TablePlan {
  /** Columns to add: their header and the existing column they follow (formats that cannot insert append them). */
  added: { header: string; after: number }[];
  /** Data row index → edit. */
  rows: Map<number, RowEdit>;
  changed: boolean;
}

// In order of preference: with `key` and `id` both present (Unity's Key,Id), `key` names the rows and `id` is carried along.
const KEY_HEADERS = ['key', 'keys', 'key_name', 'key name', 'keyname', 'string_id', 'string id', 'id', 'identifier', 'name'];
const NOTE_HEADERS = new Set([
  'description',
  'comment',
  'comments',
  'note',
  'notes',
  'developer_comments',
  'developer comments',
  'developer comment',
  'translator_comments',
  'translator comments',
  'translator comment',
]);
const CONTEXT_HEADERS = new Set(['context', '?context', 'msgctxt']);
const MAX_LENGTH_HEADERS = new Set(['max_length', 'maxlength', 'max length', 'max_len', 'char_limit', 'character_limit', 'character limit', 'limit']);
const VALUE_HEADERS = new Set(['value', 'text', 'translation', 'string', 'message']);
const CATEGORY_SET: ReadonlySet<string> = new Set(PLURAL_CATEGORIES);
const LOCALE_SHAPE = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/;
// Any two or three letters are a well-formed tag ('url', 'tag'); only languages CLDR names count as language columns.
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A normalised tag (lower case, '-' separated), or undefined when the text is not a tag of a known language. */
export function localeId(text: string): string | undefined {
  const shape = LOCALE_SHAPE.exec(text);
  if (!shape) return undefined;
  try {
    const tag = Intl.getCanonicalLocales(text.replaceAll('_', '-'))[0];
    return tag && LANGUAGE_NAMES.of(shape[1]!.toLowerCase()) !== undefined ? tag.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** The column conventions of plain CSV and spreadsheets (see the table at the top of this file). */
export function classifyHeader(header: string): HeaderRole {
  const h = header.trim().toLowerCase();
  const rank = KEY_HEADERS.indexOf(h);
  if (rank >= 0) return { kind: 'key', rank };
  if (NOTE_HEADERS.has(h)) return { kind: 'notes' };
  if (CONTEXT_HEADERS.has(h)) return { kind: 'context' };
  if (MAX_LENGTH_HEADERS.has(h)) return { kind: 'maxLength' };
  if (h === 'translatable') return { kind: 'translatable' };
  if (VALUE_HEADERS.has(h)) return { kind: 'value', locale: '' };
  if (CATEGORY_SET.has(h)) return { kind: 'value', locale: '', category: h as PluralCategory };
  const plural = /^(.+?)[-_](zero|one|two|few|many|other)$/i.exec(header.trim());
  if (plural && localeId(plural[1]!)) return { kind: 'value', locale: plural[1]!, category: plural[2]!.toLowerCase() as PluralCategory };
  if (localeId(header.trim())) return { kind: 'value', locale: header.trim() };
  return { kind: 'ignored' };
}

/** Spells a tag the way an existing header does: with '_' (pt_BR) when it uses one. */
export function spellLike(locale: string, like: string): string {
  return like.includes('_') ? locale.replaceAll('-', '_') : locale.replaceAll('_', '-');
}

const csvDialect: TableDialect = {
  format: 'csv',
  plurals: true,
  classify: classifyHeader,
  header(locale, like, category) {
    // The unnamed language's target is itself, so its added columns are bare categories.
    if (like.id === '' && category) return category;
    const tag = spellLike(locale, like.locale);
    return category ? `${tag}${like.separator || '_'}${category}` : tag;
  },
};

function positionError(message: string, at: { line: number; column: number }): FileUnparsableError {
  return new FileUnparsableError(`${message} at line ${at.line}, column ${at.column}`, at.line, at.column);
}

const normalise = (locale: string): string => localeId(locale) ?? locale.replaceAll('_', '-').toLowerCase();

/** Reads the header row into column roles and language groups, and picks the source group. */
export function readLayout(header: TableRow, dialect: TableDialect, sourceLocale: string): TableLayout {
  const roles: HeaderRole[] = header.cells.map((cell) => (cell && cell.value.trim() !== '' ? dialect.classify(cell.value) : { kind: 'ignored' }));
  let key = -1;
  roles.forEach((role, index) => {
    if (role.kind === 'key' && (key < 0 || (role.rank ?? 0) < ((roles[key] as { rank?: number }).rank ?? 0))) key = index;
  });
  if (key < 0) {
    // Godot and Lingo name the key column anything; Tolgee reads the first column as the key.
    key = 0;
    roles[0] = { kind: 'key' };
  }
  const groups: ValueGroup[] = [];
  const layout: Omit<TableLayout, 'source'> = { key, notes: [], groups, width: header.cells.length };
  const seen = new Map<string, number>();
  const claim = (name: string, index: number): void => {
    const first = seen.get(name);
    const cell = header.cells[index]!;
    if (first !== undefined) throw positionError(`Duplicate column ${JSON.stringify(cell.value)} (first in column ${first + 1})`, cell);
    seen.set(name, index);
  };
  const groupFor = (locale: string): ValueGroup => {
    const id = locale === '' ? '' : normalise(locale);
    let group = groups.find((g) => g.id === id);
    if (!group) {
      group = { id, locale, categories: new Map(), separator: '', last: -1 };
      groups.push(group);
    }
    return group;
  };
  roles.forEach((role, index) => {
    switch (role.kind) {
      case 'key':
        // Two columns of one key name are ambiguous; `key` beside `id` is not.
        claim(`key:${role.rank ?? ''}`, index);
        return;
      case 'notes':
        layout.notes.push(index);
        return;
      case 'context':
      case 'maxLength':
      case 'translatable':
        claim(role.kind, index);
        layout[role.kind] = index;
        return;
      case 'ignored':
        return;
      case 'localeNotes': {
        const group = groupFor(role.locale);
        claim(`notes:${group.id}`, index);
        group.notes = index;
        // Unity writes each language's comment column right after its values; added languages go after both.
        group.last = Math.max(group.last, index);
        return;
      }
      case 'value': {
        if (role.category && !dialect.plurals) return;
        const group = groupFor(role.locale);
        claim(`value:${group.id}:${role.category ?? ''}`, index);
        if (role.category) {
          group.categories.set(role.category, index);
          const cell = header.cells[index]!.value.trim();
          if (role.locale !== '') group.separator = cell.charAt(cell.length - role.category.length - 1);
        } else {
          group.plain = index;
          group.locale = role.locale;
        }
        group.last = Math.max(group.last, index);
      }
    }
  });
  // A language with only a comment column (Unity "French(fr) Comments" without "French(fr)") holds no values.
  const valued = groups.filter((g) => g.plain !== undefined || g.categories.size > 0);
  const wanted = normalise(sourceLocale);
  const language = (id: string): string => id.split('-')[0]!;
  const source =
    valued.find((g) => g.id === wanted) ??
    valued.find((g) => g.id !== '' && language(g.id) === language(wanted)) ??
    valued.find((g) => g.id === '') ??
    valued[0];
  if (!source) {
    const found = header.cells.filter((c) => c && c.value !== '').map((c) => JSON.stringify(c!.value));
    throw positionError(`Expected a language column in the header row (e.g. key,en,de); found only ${found.join(', ') || 'empty cells'}`, header);
  }
  return { ...layout, groups: valued, source };
}

const FALSE = /^(?:false|no|n|0)$/i;

const cellText = (row: TableRow, index: number | undefined): string => (index === undefined ? '' : (row.cells[index]?.value ?? ''));

/** Whether a row is a plural in the group's category columns (see the rule at the top of this file). */
function isCategorisedPlural(row: TableRow, group: ValueGroup): boolean {
  let filled = false;
  let beyondOther = false;
  for (const [category, index] of group.categories) {
    if (cellText(row, index) === '') continue;
    filled = true;
    if (category !== 'other') beyondOther = true;
  }
  return beyondOther || (filled && group.plain !== undefined && cellText(row, group.plain) === '');
}

/** The column holding a non-plural value: the plain column, else `other`. */
export function textColumn(group: ValueGroup): number {
  return group.plain ?? group.categories.get('other') ?? [...group.categories.values()][0]!;
}

/**
 * A cell that is one ICU plural, with any text around it folded into each form (so translators see whole sentences).
 * Text that cannot be folded without changing its meaning leaves the cell a plain string.
 */
function icuPluralOf(text: string): { forms: PluralForms; icu: NonNullable<TableEntry['icu']> } | undefined {
  const plural = parseIcuPlural(text);
  const folded = plural && foldIcuPlural(plural);
  if (!plural || !folded) return undefined;
  return { forms: folded.forms, icu: { argument: plural.argument, ...(plural.offset !== undefined ? { offset: plural.offset } : {}), exact: folded.exact } };
}

/** Lists the data rows' entries; blank rows are skipped; a row without a key, a repeated key or a stray cell is an error. */
export function readEntries(layout: TableLayout, rows: readonly TableRow[], dialect: TableDialect): TableEntry[] {
  const out: TableEntry[] = [];
  const keys = new Map<string, number>();
  const { source } = layout;
  const noteColumns = source.notes !== undefined ? [...layout.notes, source.notes] : layout.notes;
  const plainColumn = textColumn(source);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    for (let i = layout.width; i < row.cells.length; i++) {
      const cell = row.cells[i];
      if (cell !== undefined && cell.value !== '') {
        throw positionError(`Expected at most ${layout.width} cells in a row, as in the header row; this cell has no column`, cell);
      }
    }
    if (isEmptyRow(row)) continue;
    const keyCell = row.cells[layout.key];
    if (!keyCell || keyCell.value === '') throw positionError('Expected a key in the key column of a row that has values', keyCell ?? row);
    const key = keyCell.value;
    const first = keys.get(key);
    if (first !== undefined) throw positionError(`Duplicate key ${JSON.stringify(key)} (first defined at line ${first})`, keyCell);
    keys.set(key, keyCell.line);

    const entry: Entry = { key, path: [key], source: '', line: keyCell.line, column: keyCell.column };
    const item: TableEntry = { row: index, entry, categorised: false };
    let at: TableCell | undefined;
    if (dialect.plurals && isCategorisedPlural(row, source)) {
      const plurals: PluralForms = {};
      for (const category of PLURAL_CATEGORIES) {
        const column = source.categories.get(category);
        const text = cellText(row, column);
        if (text === '') continue;
        plurals[category] = text;
        if (!at || category === 'other') at = row.cells[column!];
      }
      entry.plurals = plurals;
      entry.source = plurals.other ?? '';
      item.categorised = true;
    } else {
      const column = plainColumn;
      at = row.cells[column];
      entry.source = at?.value ?? '';
      const plural = dialect.plurals && column === source.plain ? icuPluralOf(entry.source) : undefined;
      if (plural) {
        entry.plurals = plural.forms;
        entry.source = plural.forms.other ?? '';
        item.icu = plural.icu;
      }
    }
    if (at) {
      entry.line = at.line;
      entry.column = at.column;
    }
    // Notes joined by hand: most rows have one note column or none, and arrays per row cost a large file dearly.
    let notes: string | undefined;
    for (let k = 0; k < noteColumns.length; k++) {
      const note = cellText(row, noteColumns[k]);
      if (note !== '') notes = notes === undefined ? note : `${notes}\n${note}`;
    }
    if (notes !== undefined) entry.notes = notes;
    const context = cellText(row, layout.context);
    if (context !== '') entry.context = context;
    if (layout.maxLength !== undefined) {
      const maxLength = cellText(row, layout.maxLength).trim();
      if (/^\d+$/.test(maxLength)) entry.maxLength = Number(maxLength);
    }
    if (layout.translatable !== undefined && FALSE.test(cellText(row, layout.translatable).trim())) entry.translatable = false;
    out.push(item);
  }
  return out;
}

function isEmptyRow(row: TableRow): boolean {
  for (const cell of row.cells) if (cell !== undefined && cell.value !== '') return false;
  return true;
}

function sameForms(a: PluralForms, b: PluralForms): boolean {
  return PLURAL_CATEGORIES.every((c) => a[c] === b[c]);
}

/**
 * Decides which cells change for a target locale. The target is the source group itself (rendering the source locale,
 * or a single-language file), the existing group for the locale, or a new group modelled on the source's columns.
 * Missing values: 'source' writes the source text (its forms mapped onto the target's categories) into another
 * language's columns; 'omit' empties them, or removes the row when the target is the source group itself.
 * Untranslatable rows keep their source text whatever the values say.
 */
export function planRender(
  layout: TableLayout,
  rows: readonly TableRow[],
  entries: readonly TableEntry[],
  input: RenderInput,
  dialect: TableDialect,
): TablePlan {
  const sourceLocale = input.sourceLocale ?? 'en';
  const locale = input.locale ?? sourceLocale;
  const { source } = layout;
  const wanted = normalise(locale);
  const plan: TablePlan = { added: [], rows: new Map(), changed: false };

  const existing =
    wanted === normalise(sourceLocale) || wanted === source.id ? source : (layout.groups.find((g) => g.id === wanted) ?? (source.id === '' ? source : undefined));
  // Columns by slot: '' for the plain column, else the plural category.
  const columns = new Map<PluralCategory | '', number>();
  if (existing?.plain !== undefined) columns.set('', existing.plain);
  for (const [category, index] of existing?.categories ?? []) columns.set(category, index);
  // New columns are spelt like the target's existing ones, else like the source's, and follow the target's last column.
  const like: ValueGroup = existing ? { ...existing, separator: existing.separator || source.separator } : source;
  const tag = existing ? existing.locale : locale;
  const after = existing ? existing.last : source.last;
  const add = (slot: PluralCategory | ''): void => {
    columns.set(slot, layout.width + plan.added.length);
    plan.added.push({ header: dialect.header(tag, like, slot || undefined), after });
    plan.changed = true;
  };
  if (!existing && source.plain !== undefined) add('');
  // The source's own columns for its own locale gain only what a value needs: with none, the bytes come back unchanged.
  const own = existing === source && (wanted === normalise(sourceLocale) || wanted === source.id);
  if (source.categories.size > 0) {
    // Per-category layouts get the target's categories, plus any a value carries beyond them.
    const needed = new Set<PluralCategory>(own ? [] : pluralCategories(locale));
    for (const value of input.values.values()) if (typeof value !== 'string') for (const c of Object.keys(value.plurals)) needed.add(c as PluralCategory);
    for (const category of PLURAL_CATEGORIES) if (needed.has(category) && !columns.has(category)) add(category);
  }
  // Text needs a home: a language with category columns but neither a plain nor an `other` column gets `other`.
  // (The source's own group keeps its text where it was read from.)
  if (!own && !columns.has('') && !columns.has('other')) add('other');
  const plain = columns.get('');
  const categories = [...columns].filter((c): c is [PluralCategory, number] => c[0] !== '');

  // Rows are planned in order, so the row edited last is usually the one asked for again.
  let lastRow = -1;
  let lastEdit: RowEdit | undefined;
  const edit = (row: number): RowEdit => {
    if (row === lastRow) return lastEdit!;
    let e = plan.rows.get(row);
    if (!e) plan.rows.set(row, (e = { cells: [] }));
    lastRow = row;
    lastEdit = e;
    return e;
  };
  const set = (row: number, column: number, text: string): void => {
    if (column < layout.width && cellText(rows[row]!, column) === text) return;
    edit(row).cells[column] = text;
    plan.changed = true;
  };
  const writeText = (row: number, text: string): void => {
    const into = plain ?? columns.get('other') ?? textColumn(source);
    set(row, into, text);
    for (const [, column] of categories) if (column !== into) set(row, column, '');
  };
  const writeForms = (item: TableEntry, forms: PluralForms): void => {
    const row = rows[item.row]!;
    if (categories.length > 0) {
      for (const [category, column] of categories) set(item.row, column, forms[category] ?? '');
      // A plain cell beside the category cells repeats the `other` form where the source row fills it (and is left as
      // it is when the forms are the row's own).
      const unchanged = own && item.entry.plurals !== undefined && sameForms(forms, item.entry.plurals);
      if (plain !== undefined && !unchanged) set(item.row, plain, cellText(row, source.plain) === '' ? '' : (forms.other ?? ''));
      return;
    }
    const { icu, entry } = item;
    if (icu && entry.plurals && sameForms(forms, entry.plurals)) set(item.row, plain!, cellText(row, source.plain));
    else set(item.row, plain!, writeIcuPlural(icu?.argument ?? 'count', forms, icu?.exact, icu?.offset));
  };

  for (const item of entries) {
    const { entry } = item;
    const fixed = entry.translatable === false;
    const value: Value | undefined = fixed ? undefined : input.values.get(entry.key);
    if (value === undefined) {
      if (existing === source) {
        if (input.missing === 'omit' && !fixed) {
          edit(item.row).remove = true;
          plan.changed = true;
        }
      } else if (input.missing === 'omit' && !fixed) {
        for (const [, column] of columns) set(item.row, column, '');
      } else if (item.categorised) {
        writeForms(item, sourceFormsFor(locale, entry.plurals!));
      } else {
        writeText(item.row, cellText(rows[item.row]!, textColumn(source)));
      }
    } else if (typeof value === 'string') {
      // The source's own text, given back unchanged, leaves its row as it is: a row can fill its `other` cell beside
      // the plain cell it is read from, and clearing it would lose that text.
      if (!(own && entry.plurals === undefined && value === entry.source)) writeText(item.row, value);
    } else {
      if (!dialect.plurals) throw new Error(`format_cannot_express_plural: '${dialect.format}' was given plural forms`);
      writeForms(item, value.plurals);
    }
  }
  // Added columns get a cell in every data row, so the table stays rectangular.
  if (plan.added.length > 0) {
    for (const item of entries) {
      const { cells } = edit(item.row);
      for (let k = 0; k < plan.added.length; k++) cells[layout.width + k] ??= '';
    }
  }
  return plan;
}

// ---------------------------------------------------------------------------------------------------------------
// The csv codec

/** A scanned file as a table: the header record and the data records after it. */
export interface CsvTable {
  doc: CsvDocument;
  header: CsvRecord;
  headerRow: TableRow;
  records: CsvRecord[];
  rows: TableRow[];
}



/** Tokenizes a file and finds its header (the first non-blank record). */
export function readCsvTable(bytes: Uint8Array): CsvTable {
  const doc = scanCsv(bytes);
  const start = doc.records.findIndex((r) => !isBlank(r));
  if (start < 0) {
    const lines = doc.text.split(/\r\n|\n|\r/).length;
    throw positionError('The file is empty; expected a header row (e.g. key,en)', { line: lines, column: 1 });
  }
  const header = doc.records[start]!;
  const records = doc.records.slice(start + 1);
  return { doc, header, headerRow: header, records, rows: records };
}

/** What a quoting decision can look at about a written cell. */
export interface QuoteContext {
  /** The cell it replaces, if any. */
  replaced?: CsvField;
  /** Its row's source cell (for the header row, the source column's header). */
  like?: CsvField;
  header: boolean;
  /** Whether the file quotes fields that do not need it (Tolgee quotes every field), rather than only where needed. */
  styled: boolean;
}

/** Whether to quote a written cell beyond what RFC 4180 needs (writeField adds those quotes anyway). */
export type QuotePolicy = (text: string, context: QuoteContext) => boolean;

/** A file that quotes by style gets quotes like the cell replaced (or the row's source cell); others only where needed. */
const mirrorQuotes: QuotePolicy = (_text, { replaced, like, styled }) => styled && (replaced ?? like)?.quoted === true;

/**
 * Applies a plan to the text: splices changed fields, inserts added columns after the column they follow (padding
 * short rows), and removes rows, keeping every other character, the line ends and the final newline (or its absence).
 */
export function applyCsvPlan(table: CsvTable, layout: TableLayout, plan: TablePlan, quote: QuotePolicy): string {
  const { doc } = table;
  const d = doc.delimiter;
  const edits = new Edits();
  // Output column order: the existing columns with each added one right after the column it follows.
  const order: number[] = [];
  for (let c = 0; c < layout.width; c++) {
    order.push(c);
    plan.added.forEach((a, k) => a.after === c && order.push(layout.width + k));
  }
  plan.added.forEach((a, k) => (a.after < 0 || a.after >= layout.width) && order.push(layout.width + k));
  const likeColumn = textColumn(layout.source);
  const styled = quotesByStyle(doc.records, d);

  const write = (text: string, header: boolean, replaced: CsvField | undefined, like: CsvField | undefined): string =>
    writeField(text, d, quote(text, { header, styled, replaced, like }));
  const rewrite = (record: CsvRecord, cells: readonly (string | undefined)[]): void => {
    const { fields } = record;
    const header = record === table.header;
    const like = fields[likeColumn] ?? fields[layout.key];
    let tail = '';
    let pending = '';
    for (let o = 0; o < order.length; o++) {
      const column = order[o]!;
      const text = cells[column];
      const field = column < layout.width ? fields[column] : undefined;
      if (field) {
        if (text !== undefined) edits.add(field.start, field.end, write(text, header, field, like));
        continue;
      }
      const added = column >= layout.width ? plan.added[column - layout.width]! : undefined;
      if (added && added.after < fields.length - 1) {
        // Between existing fields: insert right after the field it follows.
        const anchor = fields[added.after]!.end;
        edits.add(anchor, anchor, d + write(text ?? '', header, undefined, like));
        continue;
      }
      // Beyond the row's last field: pad only as far as the last cell that has something to hold.
      pending = pending === '' ? d : pending + d;
      if (text !== undefined) pending += write(text, header, undefined, like);
      if (text !== undefined && (text !== '' || added)) {
        tail = tail === '' ? pending : tail + pending;
        pending = '';
      }
    }
    if (tail !== '') edits.add(record.end, record.end, tail);
  };

  if (plan.added.length > 0) rewrite(table.header, addedHeaders(layout, plan));
  let removed: Set<CsvRecord> | undefined;
  for (const [index, rowEdit] of plan.rows) {
    const record = table.records[index]!;
    if (!rowEdit.remove) {
      rewrite(record, rowEdit.cells);
      continue;
    }
    (removed ??= new Set()).add(record);
    edits.add(record.start, record.next, '');
  }
  const all = doc.records;
  const last = all[all.length - 1]!;
  if (removed?.has(last) && last.next === last.end) {
    // The file had no final newline: the last row kept drops its line end instead.
    const kept = all.findLast((r) => !removed.has(r));
    if (kept) edits.add(kept.end, kept.next, '');
  }
  return edits.apply(doc.text);
}

/** Whether the file quotes a field that does not need it (Tolgee quotes every field), rather than only where needed. */
function quotesByStyle(records: readonly CsvRecord[], d: CsvDelimiter): boolean {
  for (let r = 0; r < records.length; r++) {
    const { fields } = records[r]!;
    for (let f = 0; f < fields.length; f++) {
      const field = fields[f]!;
      if (field.quoted && !needsQuotes(field.value, d)) return true;
    }
  }
  return false;
}

/** The header row's cells for the added columns. */
export function addedHeaders(layout: TableLayout, plan: TablePlan): string[] {
  const cells: string[] = [];
  plan.added.forEach((a, k) => (cells[layout.width + k] = a.header));
  return cells;
}

/**
 * Edits to a text, in parallel arrays rather than an object each (a render plans one or more per row), applied by
 * `apply`. They never overlap except for insertions at one point, which keep the order they were planned in.
 */
class Edits {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly texts: string[] = [];
  /** Edits are planned row by row, so they usually come in order and need no sort. */
  private ordered = true;

  add(start: number, end: number, text: string): void {
    const n = this.starts.length;
    if (n > 0 && this.ordered) {
      const before = this.starts[n - 1]!;
      if (!(before < start || (before === start && this.ends[n - 1]! <= end))) this.ordered = false;
    }
    this.starts.push(start);
    this.ends.push(end);
    this.texts.push(text);
  }

  apply(text: string): string {
    const { starts, ends, texts } = this;
    const n = starts.length;
    let order: number[] | undefined;
    if (!this.ordered) {
      order = Array.from({ length: n }, (_, i) => i);
      order.sort((a, b) => starts[a]! - starts[b]! || ends[a]! - ends[b]! || a - b);
    }
    // Pieces joined once: concatenating them one by one would build a chain of as many strings to flatten on encoding.
    const parts: string[] = new Array<string>(2 * n + 1);
    let at = 0;
    for (let k = 0; k < n; k++) {
      const i = order ? order[k]! : k;
      parts[2 * k] = text.slice(at, starts[i]);
      parts[2 * k + 1] = texts[i]!;
      at = ends[i]!;
    }
    parts[2 * n] = text.slice(at);
    return parts.join('');
  }
}

/** Renders a CSV-shaped file through a dialect: the source bytes back when nothing changes. */
export function renderCsvTable(input: RenderInput, dialect: TableDialect, quote: QuotePolicy, table = readCsvTable(input.source)): Uint8Array {
  const layout = readLayout(table.headerRow, dialect, input.sourceLocale ?? 'en');
  const entries = readEntries(layout, table.rows, dialect);
  const plan = planRender(layout, table.rows, entries, input, dialect);
  if (!plan.changed) return input.source.slice();
  const text = applyCsvPlan(table, layout, plan, quote);
  return encodeCsv(text, table.doc.bom, table.doc.encoding);
}

/** Entries of a CSV-shaped file, reading the column of `sourceLocale` (or the first language) as the source. */
export function parseCsvTable(source: Uint8Array | CsvTable, dialect: TableDialect, sourceLocale = 'en'): Entry[] {
  const table = source instanceof Uint8Array ? readCsvTable(source) : source;
  const layout = readLayout(table.headerRow, dialect, sourceLocale);
  return readEntries(layout, table.rows, dialect).map((e) => e.entry);
}

/** A csv file's entries in the column of `locale`: how the service reads a file's other languages back. */
export function parseCsv(bytes: Uint8Array, locale = 'en'): Entry[] {
  return parseCsvTable(bytes, csvDialect, locale);
}

/** A cell for a fresh file: plural values as ICU text, as Tolgee writes them. */
export function freshCell(value: Value): string {
  return typeof value === 'string' ? value : writeIcuPlural('count', value.plurals);
}

/** Keeps the first position and the last value of a repeated key, as Map.set does. */
export function dedupe(entries: readonly FreshEntry[]): FreshEntry[] {
  const byKey = new Map<string, FreshEntry>();
  for (const entry of entries) byKey.set(entry.key, { ...entry, notes: entry.notes ?? byKey.get(entry.key)?.notes });
  return [...byKey.values()];
}

export const csvCodec: Codec = {
  id: 'csv',
  extensions: ['.csv', '.tsv'],
  plurals: true,

  detect(fileName, head) {
    if (!/\.(?:csv|tsv)$/i.test(fileName)) return 0;
    const first = head.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
    // Unity's string table export is claimed by unity_csv.
    if (/^"?Key"?,"?Id"?,/.test(first) || /[^,]\([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*\)"?(?:,|$)/.test(first)) return 0.3;
    return 0.6;
  },

  parse(bytes: Uint8Array): Entry[] {
    // Parse has no locale: the source is 'en' (the service's default source locale), else the first language column.
    return parseCsv(bytes);
  },

  render(input: RenderInput): Uint8Array {
    return renderCsvTable(input, csvDialect, mirrorQuotes);
  },

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    const locale = options?.locale ?? 'en';
    const lines = [`key,${writeField(locale, ',', false)}`];
    for (const entry of dedupe(entries)) lines.push(`${writeField(entry.key, ',', false)},${writeField(freshCell(entry.value), ',', false)}`);
    return encodeCsv(`${lines.join('\n')}\n`, false, 'utf-8');
  },
};

