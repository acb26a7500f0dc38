// The `csv` codec, and the table conventions (key, language, plural-category and note columns) unity_csv and xlsx share.
import { pluralCategories, sourceFormsFor } from '../plurals.js';
import { PLURAL_CATEGORIES, type Codec, type Entry, type FreshEntry, type FreshOptions, type PluralCategory, type PluralForms, type RenderInput, type Value } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { encodeCsv, needsQuotes, scanCsv, writeField, type CsvDocument, type CsvEncoding, type CsvGrid, type CsvRecord } from './csv-scan.js';
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

/**
 * A table's data rows, read cell by cell, so that a codec can keep its cells in whatever form it scans cheapest (the
 * csv codec reads offsets into the file's text and decodes a value only when asked for it).
 */
export interface TableRows {
  readonly length: number;
  /** One past the row's last cell. */
  width(row: number): number;
  /** Whether the row has a cell in the column (a spreadsheet leaves cells out, a CSV row may be short). */
  has(row: number, column: number): boolean;
  /** Whether the cell holds text, told without decoding it. */
  filled(row: number, column: number): boolean;
  /** The cell's text, decoded; '' where there is no cell. */
  text(row: number, column: number): string;
  /** Whether the cell's text is `text` ('' where there is no cell), told without decoding it where the codec can. */
  equals(row: number, column: number, text: string): boolean;
  /** Whether the cell's text includes `search`, which holds no '"', told without decoding it where the codec can. */
  includes(row: number, column: number, search: string): boolean;
  /** 1-based line and column of the cell; of the row where there is no cell. */
  line(row: number, column: number): number;
  column(row: number, column: number): number;
}

/** Rows held as objects, as the xlsx codec reads them. */
class RowList implements TableRows {
  constructor(private readonly rows: readonly TableRow[]) {}

  get length(): number {
    return this.rows.length;
  }

  width(row: number): number {
    return this.rows[row]!.cells.length;
  }

  has(row: number, column: number): boolean {
    return this.rows[row]!.cells[column] !== undefined;
  }

  filled(row: number, column: number): boolean {
    const cell = this.rows[row]!.cells[column];
    return cell !== undefined && cell.value !== '';
  }

  text(row: number, column: number): string {
    return this.rows[row]!.cells[column]?.value ?? '';
  }

  equals(row: number, column: number, text: string): boolean {
    return this.text(row, column) === text;
  }

  includes(row: number, column: number, search: string): boolean {
    return this.text(row, column).includes(search);
  }

  line(row: number, column: number): number {
    const r = this.rows[row]!;
    return (r.cells[column] ?? r).line;
  }

  column(row: number, column: number): number {
    const r = this.rows[row]!;
    return (r.cells[column] ?? r).column;
  }
}

const tableRows = (rows: readonly TableRow[] | TableRows): TableRows => (isRowList(rows) ? new RowList(rows) : rows);
const isRowList = (rows: readonly TableRow[] | TableRows): rows is readonly TableRow[] => Array.isArray(rows);

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

const cellText = (rows: TableRows, row: number, index: number | undefined): string => (index === undefined ? '' : rows.text(row, index));

/** Where a cell is (its row's position when there is no cell), for errors. */
const cellAt = (rows: TableRows, row: number, column: number): { line: number; column: number } => ({
  line: rows.line(row, column),
  column: rows.column(row, column),
});

/** Whether a row is a plural in the group's category columns (see the rule at the top of this file). */
function isCategorisedPlural(rows: TableRows, row: number, group: ValueGroup): boolean {
  // Most files have no category columns: no iterator needed to say so.
  if (group.categories.size === 0) return false;
  let filled = false;
  let beyondOther = false;
  for (const [category, index] of group.categories) {
    if (!rows.filled(row, index)) continue;
    filled = true;
    if (category !== 'other') beyondOther = true;
  }
  return beyondOther || (filled && group.plain !== undefined && !rows.filled(row, group.plain));
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
export function readEntries(layout: TableLayout, rows: readonly TableRow[] | TableRows, dialect: TableDialect): TableEntry[] {
  const out: TableEntry[] = [];
  forEachEntry(layout, tableRows(rows), dialect, (item) => out.push(item));
  return out;
}

/**
 * Reads the data rows' entries as readEntries does, handing each to `visit` as it is read. With `reuse`, every row is
 * read into the same objects, and only as far as planning a render looks (key, text, forms, translatable): for a caller
 * that keeps nothing of them, so that a large file leaves the garbage collector no objects per row.
 */
export function forEachEntry(layout: TableLayout, rows: TableRows, dialect: TableDialect, visit: (item: TableEntry) => void, reuse = false): void {
  const keys = new KeyTable(rows, layout.key);
  const shared: TableEntry | undefined = reuse ? { row: -1, entry: { key: '', path: [''], source: '', line: 0, column: 0 }, categorised: false } : undefined;
  const { source } = layout;
  const noteColumns = source.notes !== undefined ? [...layout.notes, source.notes] : layout.notes;
  const plainColumn = textColumn(source);
  for (let index = 0; index < rows.length; index++) {
    const width = rows.width(index);
    for (let i = layout.width; i < width; i++) {
      if (rows.filled(index, i)) {
        throw positionError(`Expected at most ${layout.width} cells in a row, as in the header row; this cell has no column`, cellAt(rows, index, i));
      }
    }
    if (isEmptyRow(rows, index)) continue;
    if (!rows.filled(index, layout.key)) throw positionError('Expected a key in the key column of a row that has values', cellAt(rows, index, layout.key));
    const key = rows.text(index, layout.key);
    const first = keys.add(key, index);
    if (first >= 0) {
      throw positionError(`Duplicate key ${JSON.stringify(key)} (first defined at line ${rows.line(first, layout.key)})`, cellAt(rows, index, layout.key));
    }

    let item: TableEntry;
    if (shared) {
      item = shared;
      item.row = index;
      item.categorised = false;
      item.icu = undefined;
      const { entry } = item;
      entry.key = key;
      entry.path[0] = key;
      entry.plurals = undefined;
      entry.translatable = undefined;
    } else {
      const line = rows.line(index, layout.key);
      item = { row: index, entry: { key, path: [key], source: '', line, column: rows.column(index, layout.key) }, categorised: false };
    }
    const { entry } = item;
    // The column of the cell the entry points at.
    let at = -1;
    if (dialect.plurals && isCategorisedPlural(rows, index, source)) {
      const plurals: PluralForms = {};
      for (const category of PLURAL_CATEGORIES) {
        const column = source.categories.get(category);
        const text = cellText(rows, index, column);
        if (text === '') continue;
        plurals[category] = text;
        if (at < 0 || category === 'other') at = column!;
      }
      entry.plurals = plurals;
      entry.source = plurals.other ?? '';
      item.categorised = true;
    } else {
      const column = plainColumn;
      if (rows.has(index, column)) at = column;
      const icu = dialect.plurals && column === source.plain;
      // Planning reads the cell's text itself where it needs it, so a shared entry gets it only where it may be an ICU
      // plural, whose argument holds a comma and the word plural: decoding every cell of a large file costs dearly.
      const needed = !shared || (icu && rows.includes(index, column, ',') && rows.includes(index, column, 'plural'));
      entry.source = needed ? rows.text(index, column) : '';
      const plural = icu && needed ? icuPluralOf(entry.source) : undefined;
      if (plural) {
        entry.plurals = plural.forms;
        entry.source = plural.forms.other ?? '';
        item.icu = plural.icu;
      }
    }
    // What only the entries of a parse report: where the entry is, and its notes, context and length limit.
    if (!shared) {
      if (at >= 0) {
        entry.line = rows.line(index, at);
        entry.column = rows.column(index, at);
      }
      // Notes joined by hand: most rows have one note column or none, and arrays per row cost a large file dearly.
      let notes: string | undefined;
      for (let k = 0; k < noteColumns.length; k++) {
        const note = cellText(rows, index, noteColumns[k]);
        if (note !== '') notes = notes === undefined ? note : `${notes}\n${note}`;
      }
      if (notes !== undefined) entry.notes = notes;
      const context = cellText(rows, index, layout.context);
      if (context !== '') entry.context = context;
      if (layout.maxLength !== undefined) {
        const maxLength = cellText(rows, index, layout.maxLength).trim();
        if (/^\d+$/.test(maxLength)) entry.maxLength = Number(maxLength);
      }
    }
    if (layout.translatable !== undefined && FALSE.test(cellText(rows, index, layout.translatable).trim())) entry.translatable = false;
    visit(item);
  }
}

/**
 * The rows' keys seen so far, to tell a repeated one: an open-addressed table of row indices by a hash of the key, which
 * keeps no string (a Map of a large file's keys costs a lookup and an insert per row, and keeps every key alive for the
 * garbage collector to copy). Keys whose hashes match are told apart by their text, read again from the row.
 */
class KeyTable {
  /** Slot → row index + 1 (0 for an empty slot). */
  private slots = new Int32Array(1024);
  /** Slot → the hash of its row's key. */
  private hashes = new Int32Array(1024);
  private size = 0;

  constructor(
    private readonly rows: TableRows,
    private readonly column: number,
  ) {}

  /** Adds the key of `row`; returns the row that has it already (and adds nothing), else -1. */
  add(key: string, row: number): number {
    const hash = hashText(key);
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let taken = slots[slot]!; taken !== 0; taken = slots[slot]!) {
      if (hashes[slot] === hash && this.rows.text(taken - 1, this.column) === key) return taken - 1;
      slot = (slot + 1) & mask;
    }
    slots[slot] = row + 1;
    hashes[slot] = hash;
    if (++this.size * 2 > slots.length) this.grow();
    return -1;
  }

  /** Doubles the table, placing each row again by its hash. */
  private grow(): void {
    const { slots, hashes } = this;
    this.slots = new Int32Array(slots.length * 2);
    this.hashes = new Int32Array(slots.length * 2);
    const mask = this.slots.length - 1;
    for (let k = 0; k < slots.length; k++) {
      if (slots[k] === 0) continue;
      let slot = hashes[k]! & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = slots[k]!;
      this.hashes[slot] = hashes[k]!;
    }
  }
}

/** Where hashText starts, drawn per process (as V8 seeds its own string hashes), so that which keys collide is not fixed. */
const HASH_SEED = (Math.random() * 0x100000000) | 0;

/** FNV-1a over a text's UTF-16 units, with a final mix so that the low bits (the table's slot) depend on every unit. */
function hashText(text: string): number {
  let hash = 0x811c9dc5 ^ HASH_SEED;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return hash ^ (hash >>> 12);
}

function isEmptyRow(rows: TableRows, row: number): boolean {
  const width = rows.width(row);
  for (let column = 0; column < width; column++) if (rows.filled(row, column)) return false;
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
  rows: readonly TableRow[] | TableRows,
  entries: readonly TableEntry[],
  input: RenderInput,
  dialect: TableDialect,
): TablePlan {
  const planner = new RowPlanner(layout, tableRows(rows), input, dialect);
  const edits = new Map<number, RowEdit>();
  for (const item of entries) if (planner.plan(item)) edits.set(item.row, planner.edit());
  return { added: planner.added, rows: edits, changed: planner.changed };
}

/**
 * Plans one row at a time (see planRender), into cells it reuses, so that a codec can write each row out as it is
 * planned and keep nothing of it.
 */
export class RowPlanner {
  readonly added: TablePlan['added'] = [];
  /** Whether a row changes, or a column is added. */
  changed = false;
  /** The row planned last: column (existing index, or `width + k` for the k-th added column) → text ('' empties it). */
  readonly cells: (string | undefined)[];
  /** Whether the row planned last is removed. */
  remove = false;
  /** Whether the row planned last has an edit. */
  private touched = false;
  /**
   * The columns of `cells` the row planned last fills (the first `filling` of them), to empty for the next: a wide
   * table's rows fill few. A count rather than `length = 0`, which would drop the array's room every row.
   */
  private readonly filled: number[] = [];
  private filling = 0;
  private readonly locale: string;
  private readonly existing: ValueGroup | undefined;
  /** Columns by slot: '' for the plain column, else the plural category. */
  private readonly columns = new Map<PluralCategory | '', number>();
  private readonly own: boolean;
  private readonly plain: number | undefined;
  private readonly categories: [PluralCategory, number][];
  /** The values in the map's order, and the next of them (see `value`). */
  private readonly order: MapIterator<[string, Value]>;
  private next: [string, Value] | undefined;

  constructor(
    private readonly layout: TableLayout,
    private readonly rows: TableRows,
    private readonly input: RenderInput,
    private readonly dialect: TableDialect,
  ) {
    const sourceLocale = input.sourceLocale ?? 'en';
    const locale = (this.locale = input.locale ?? sourceLocale);
    const { source } = layout;
    const wanted = normalise(locale);
    const { columns } = this;
    const existing = (this.existing =
      wanted === normalise(sourceLocale) || wanted === source.id ? source : (layout.groups.find((g) => g.id === wanted) ?? (source.id === '' ? source : undefined)));
    if (existing?.plain !== undefined) columns.set('', existing.plain);
    for (const [category, index] of existing?.categories ?? []) columns.set(category, index);
    // New columns are spelt like the target's existing ones, else like the source's, and follow the target's last column.
    const like: ValueGroup = existing ? { ...existing, separator: existing.separator || source.separator } : source;
    const tag = existing ? existing.locale : locale;
    const after = existing ? existing.last : source.last;
    const add = (slot: PluralCategory | ''): void => {
      columns.set(slot, layout.width + this.added.length);
      this.added.push({ header: dialect.header(tag, like, slot || undefined), after });
      this.changed = true;
    };
    if (!existing && source.plain !== undefined) add('');
    // The source's own columns for its own locale gain only what a value needs: with none, the bytes come back unchanged.
    const own = (this.own = existing === source && (wanted === normalise(sourceLocale) || wanted === source.id));
    if (source.categories.size > 0) {
      // Per-category layouts get the target's categories, plus any a value carries beyond them.
      const needed = new Set<PluralCategory>(own ? [] : pluralCategories(locale));
      for (const value of input.values.values()) if (typeof value !== 'string') for (const c of Object.keys(value.plurals)) needed.add(c as PluralCategory);
      for (const category of PLURAL_CATEGORIES) if (needed.has(category) && !columns.has(category)) add(category);
    }
    // Text needs a home: a language with category columns but neither a plain nor an `other` column gets `other`.
    // (The source's own group keeps its text where it was read from.)
    if (!own && !columns.has('') && !columns.has('other')) add('other');
    this.plain = columns.get('');
    this.categories = [...columns].filter((c): c is [PluralCategory, number] => c[0] !== '');
    this.cells = new Array<string | undefined>(layout.width + this.added.length).fill(undefined);
    this.order = input.values.entries();
    const first = this.order.next();
    this.next = first.done ? undefined : first.value;
  }

  /** Plans an entry's row into `cells` and `remove`; false when the row stays as it is. */
  plan(item: TableEntry): boolean {
    const { cells, layout, input, existing, columns, filled } = this;
    for (let k = 0; k < this.filling; k++) cells[filled[k]!] = undefined;
    this.filling = 0;
    this.remove = false;
    this.touched = false;
    const { entry } = item;
    const { source } = layout;
    const fixed = entry.translatable === false;
    const value: Value | undefined = fixed ? undefined : this.value(entry.key);
    if (value === undefined) {
      if (existing === source) {
        if (input.missing === 'omit' && !fixed) {
          this.remove = this.touched = this.changed = true;
        }
      } else if (input.missing === 'omit' && !fixed) {
        for (const column of columns.values()) this.set(item.row, column, '');
      } else if (item.categorised) {
        this.writeForms(item, sourceFormsFor(this.locale, entry.plurals!));
      } else {
        this.writeText(item.row, this.rows.text(item.row, textColumn(source)));
      }
    } else if (typeof value === 'string') {
      // The source's own text, given back unchanged, leaves its row as it is: a row can fill its `other` cell beside
      // the plain cell it is read from, and clearing it would lose that text.
      if (!(this.own && entry.plurals === undefined && this.rows.equals(item.row, textColumn(layout.source), value))) this.writeText(item.row, value);
    } else {
      if (!this.dialect.plurals) throw new Error(`format_cannot_express_plural: '${this.dialect.format}' was given plural forms`);
      this.writeForms(item, value.plurals);
    }
    // Added columns get a cell in every data row, so the table stays rectangular.
    if (this.added.length > 0) {
      this.touched = true;
      for (let k = 0; k < this.added.length; k++) if (cells[layout.width + k] === undefined) this.fill(layout.width + k, '');
    }
    return this.touched;
  }

  /**
   * The value for a key. Values most often come in the file's order (they are read from it): the next one in the map's
   * order is tried first, which spares a hash lookup (a large map's costs a few cache misses); else the map is asked.
   */
  private value(key: string): Value | undefined {
    const { next } = this;
    if (next !== undefined && next[0] === key) {
      const value = next[1];
      const after = this.order.next();
      this.next = after.done ? undefined : after.value;
      return value;
    }
    return this.input.values.get(key);
  }

  /** The row planned last as an edit of its own. */
  edit(): RowEdit {
    const cells: string[] = [];
    for (let k = 0; k < this.filling; k++) cells[this.filled[k]!] = this.cells[this.filled[k]!]!;
    return this.remove ? { remove: true, cells } : { cells };
  }

  private set(row: number, column: number, text: string): void {
    if (column < this.layout.width && this.rows.equals(row, column, text)) return;
    this.fill(column, text);
    this.touched = this.changed = true;
  }

  private fill(column: number, text: string): void {
    if (this.cells[column] === undefined) this.filled[this.filling++] = column;
    this.cells[column] = text;
  }

  private writeText(row: number, text: string): void {
    const into = this.plain ?? this.columns.get('other') ?? textColumn(this.layout.source);
    this.set(row, into, text);
    // By index: an iterator each row would be garbage each row.
    for (let k = 0; k < this.categories.length; k++) {
      const column = this.categories[k]![1];
      if (column !== into) this.set(row, column, '');
    }
  }

  private writeForms(item: TableEntry, forms: PluralForms): void {
    const { row, icu, entry } = item;
    const { plain, rows } = this;
    const { source } = this.layout;
    if (this.categories.length > 0) {
      for (const [category, column] of this.categories) this.set(row, column, forms[category] ?? '');
      // A plain cell beside the category cells repeats the `other` form where the source row fills it (and is left as
      // it is when the forms are the row's own).
      const unchanged = this.own && entry.plurals !== undefined && sameForms(forms, entry.plurals);
      if (plain !== undefined && !unchanged) this.set(row, plain, source.plain === undefined || !rows.filled(row, source.plain) ? '' : (forms.other ?? ''));
      return;
    }
    if (icu && entry.plurals && sameForms(forms, entry.plurals)) this.set(row, plain!, cellText(rows, row, source.plain));
    else this.set(row, plain!, writeIcuPlural(icu?.argument ?? 'count', forms, icu?.exact, icu?.offset));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The csv codec

/** A scanned file as a table: the header record and the data records after it. */
export interface CsvTable {
  doc: CsvDocument;
  /** The header record's index in the grid; the data rows are the records after it. */
  head: number;
  headerRow: TableRow;
  rows: TableRows;
  /** The header and data records as objects, for tests and tools (see CsvDocument.records). */
  readonly header: CsvRecord;
  readonly records: CsvRecord[];
}

/** The data records of a scanned file as table rows, read from its grid. */
class CsvRows implements TableRows {
  readonly length: number;

  constructor(
    private readonly grid: CsvGrid,
    /** The first data record. */
    private readonly offset: number,
  ) {
    this.length = grid.size - offset;
  }

  /** The row's field in the column, or -1 when the row is shorter. */
  field(row: number, column: number): number {
    const { firsts } = this.grid;
    const r = row + this.offset;
    const f = firsts[r]! + column;
    return f < firsts[r + 1]! ? f : -1;
  }

  width(row: number): number {
    return this.grid.width(row + this.offset);
  }

  has(row: number, column: number): boolean {
    return this.field(row, column) >= 0;
  }

  filled(row: number, column: number): boolean {
    const f = this.field(row, column);
    return f >= 0 && !this.grid.empty(f);
  }

  text(row: number, column: number): string {
    const f = this.field(row, column);
    return f < 0 ? '' : this.grid.value(f);
  }

  equals(row: number, column: number, text: string): boolean {
    const f = this.field(row, column);
    return f < 0 ? text === '' : this.grid.equals(f, text);
  }

  includes(row: number, column: number, search: string): boolean {
    const f = this.field(row, column);
    return f >= 0 && this.grid.includes(f, search);
  }

  line(row: number, column: number): number {
    const r = row + this.offset;
    const f = this.field(row, column);
    return f < 0 ? this.grid.lines[r]! : this.grid.line(r, f);
  }

  column(row: number, column: number): number {
    const f = this.field(row, column);
    return f < 0 ? 1 : this.grid.column(row + this.offset, f);
  }
}

/** Tokenizes a file and finds its header (the first non-blank record). */
export function readCsvTable(bytes: Uint8Array): CsvTable {
  const doc = scanCsv(bytes);
  const { grid } = doc;
  let head = 0;
  while (head < grid.size && grid.blank(head)) head++;
  if (head === grid.size) {
    const lines = doc.text.split(/\r\n|\n|\r/).length;
    throw positionError('The file is empty; expected a header row (e.g. key,en)', { line: lines, column: 1 });
  }
  const cells: TableCell[] = [];
  for (let f = grid.firsts[head]!; f < grid.firsts[head + 1]!; f++) cells.push({ value: grid.value(f), line: grid.line(head, f), column: grid.column(head, f) });
  return {
    doc,
    head,
    headerRow: { cells, line: cells[0]!.line, column: cells[0]!.column },
    rows: new CsvRows(grid, head + 1),
    get header() {
      return doc.records[head]!;
    },
    get records() {
      return doc.records.slice(head + 1);
    },
  };
}

/** What a quoting decision can look at about a written cell. */
export interface QuoteContext {
  /** Whether the cell it replaces is quoted; undefined when it replaces none. */
  replaced?: boolean;
  /** Whether its row's source cell is quoted (for the header row, the source column's header); undefined when there is none. */
  like?: boolean;
  header: boolean;
  /** Whether the file quotes fields that do not need it (Tolgee quotes every field), rather than only where needed. */
  styled: boolean;
}

/** Whether to quote a written cell beyond what RFC 4180 needs (writeField adds those quotes anyway); the context is the policy's to read during the call only. */
export type QuotePolicy = (text: string, context: QuoteContext) => boolean;

/** A file that quotes by style gets quotes like the cell replaced (or the row's source cell); others only where needed. */
const mirrorQuotes: QuotePolicy = (_text, { replaced, like, styled }) => styled && (replaced ?? like) === true;

/**
 * Writes planned rows into the text: splices changed fields, inserts added columns after the column they follow
 * (padding short rows), and removes rows, keeping every other character, the line ends and the final newline (or its
 * absence). Rows are written as they are planned, so nothing of a row's plan outlives it.
 */
class CsvRewriter {
  private readonly output: CsvOutput;
  private readonly edits: Splicer;
  /** Output column order: the existing columns with each added one right after the column it follows. */
  private readonly order: number[] = [];
  private readonly likeColumn: number;
  /** What the quote policy is told about a cell: one object, refilled for each. */
  private readonly context: QuoteContext;
  /** The last record removed, and the first of the records removed right before it. */
  private lastRemoved = -2;
  private removedFrom = -1;

  constructor(
    private readonly table: CsvTable,
    private readonly layout: TableLayout,
    private readonly added: TablePlan['added'],
    private readonly quote: QuotePolicy,
  ) {
    const { doc } = table;
    // Most renders add a column of about the size of the file's values, or change values in place.
    this.output = new CsvOutput(doc.bom, doc.encoding, 2 * doc.text.length);
    this.edits = new Splicer(doc.text, this.output);
    const { order } = this;
    for (let c = 0; c < layout.width; c++) {
      order.push(c);
      added.forEach((a, k) => a.after === c && order.push(layout.width + k));
    }
    added.forEach((a, k) => (a.after < 0 || a.after >= layout.width) && order.push(layout.width + k));
    this.likeColumn = textColumn(layout.source);
    this.context = { header: false, styled: quotesByStyle(table.doc.grid) };
    if (added.length > 0) this.rewrite(table.head, headerCells(layout, added));
  }

  /** Writes data row `row`'s planned cells (column → text, a hole leaving the cell as it is), or removes it. */
  row(row: number, cells: readonly (string | undefined)[], remove: boolean): void {
    const r = row + this.table.head + 1;
    if (remove) {
      if (r !== this.lastRemoved + 1) this.removedFrom = r;
      this.lastRemoved = r;
      const { grid } = this.table.doc;
      this.edits.open(grid.start(r), grid.nexts[r]!);
    } else {
      this.rewrite(r, cells);
    }
    this.edits.flush();
  }

  /** The file with the rows written. */
  result(): Uint8Array {
    const { grid } = this.table.doc;
    const last = grid.size - 1;
    let trim = 0;
    if (this.lastRemoved === last && grid.nexts[last] === grid.end(last)) {
      // The file had no final newline: the last record kept drops its line end instead, and with every record after
      // it removed, that line end is what the text ends with.
      const kept = this.removedFrom - 1;
      if (kept >= 0) trim = grid.nexts[kept]! - grid.end(kept);
    }
    this.edits.finish();
    return this.output.result(trim);
  }

  /** Rewrites record r (a grid index). */
  private rewrite(r: number, cells: readonly (string | undefined)[]): void {
    const { edits, order, layout, added } = this;
    const { grid, delimiter } = this.table.doc;
    const { firsts, starts, ends } = grid;
    const first = firsts[r]!;
    const width = firsts[r + 1]! - first;
    const header = r === this.table.head;
    const likeField = this.likeColumn < width ? first + this.likeColumn : layout.key < width ? first + layout.key : -1;
    const like = likeField < 0 ? undefined : grid.quoted(likeField);
    // Past the row's last field, one edit appends the cells, written up to `kept`; -1 until it is opened.
    let kept = -1;
    for (let o = 0; o < order.length; o++) {
      const column = order[o]!;
      const text = cells[column];
      if (column < layout.width && column < width) {
        const f = first + column;
        if (text === undefined) continue;
        edits.open(starts[f]!, ends[f]!);
        this.write(text, header, grid.quoted(f), like);
        continue;
      }
      const addedColumn = column >= layout.width ? added[column - layout.width]! : undefined;
      if (addedColumn && addedColumn.after < width - 1) {
        // Between existing fields: insert right after the field it follows.
        const anchor = ends[first + addedColumn.after]!;
        edits.open(anchor, anchor);
        edits.write(delimiter);
        this.write(text ?? '', header, undefined, like);
        continue;
      }
      // Beyond the row's last field (the columns in order after it are all beyond it too): pad only as far as the
      // last cell that has something to hold.
      if (kept < 0) {
        const end = grid.end(r);
        edits.open(end, end);
        kept = edits.mark;
      }
      edits.write(delimiter);
      if (text === undefined) continue;
      this.write(text, header, undefined, like);
      if (text !== '' || addedColumn) kept = edits.mark;
    }
    if (kept >= 0) edits.truncate(kept);
  }

  /** Writes a field's text into the edit opened last, as writeField spells it. */
  private write(text: string, header: boolean, replaced: boolean | undefined, like: boolean | undefined): void {
    const { edits } = this;
    const d = this.table.doc.delimiter;
    const { context } = this;
    context.header = header;
    context.replaced = replaced;
    context.like = like;
    if (!this.quote(text, context) && !needsQuotes(text, d)) {
      edits.write(text);
      return;
    }
    edits.write('"');
    // Quotes doubled by writing the text up to and including each one, then another: a few pieces, where replaceAll
    // would build a chain of strings that lives as long as the render.
    let from = 0;
    for (let q = text.indexOf('"'); q >= 0; q = text.indexOf('"', from)) {
      edits.write(text.slice(from, q + 1));
      edits.write('"');
      from = q + 1;
    }
    edits.write(from === 0 ? text : text.slice(from));
    edits.write('"');
  }
}

/** Whether the file quotes a field that does not need it (Tolgee quotes every field), rather than only where needed. */
function quotesByStyle(grid: CsvGrid): boolean {
  const count = grid.fields;
  for (let f = 0; f < count; f++) if (grid.quotedWithoutNeed(f)) return true;
  return false;
}

/** The header row's cells for the added columns. */
export function addedHeaders(layout: TableLayout, plan: TablePlan): string[] {
  return headerCells(layout, plan.added);
}

function headerCells(layout: TableLayout, added: TablePlan['added']): string[] {
  const cells: string[] = [];
  added.forEach((a, k) => (cells[layout.width + k] = a.header));
  return cells;
}

/**
 * A text with edits spliced in as they come, in order of position: each replaces a span of the text with the pieces
 * written after it is opened. The pieces are joined a few thousand at a time and handed to the output, so that neither
 * they nor one large array pointing at them live long enough for the garbage collector to copy them.
 */
class Splicer {
  /** The text is spliced up to here. */
  private at = 0;
  private pieces: string[] = [];

  constructor(
    private readonly text: string,
    private readonly output: CsvOutput,
  ) {}

  /** Opens an edit replacing start..end (at or after the last one's end) with the pieces written until the next. */
  open(start: number, end: number): void {
    this.pieces.push(this.text.slice(this.at, start));
    this.at = end;
  }

  write(piece: string): void {
    this.pieces.push(piece);
  }

  /** How many pieces are written: a mark to `truncate` to, before the next `flush`. */
  get mark(): number {
    return this.pieces.length;
  }

  /** Drops the pieces written since `mark`. */
  truncate(mark: number): void {
    if (this.pieces.length > mark) this.pieces.length = mark;
  }

  /** Hands the pieces on once there are enough of them (between rows, since `truncate` reaches back only within one). */
  flush(): void {
    if (this.pieces.length < 4096) return;
    this.output.add(this.pieces.join(''));
    this.pieces = [];
  }

  /** Hands on the rest of the text. */
  finish(): void {
    this.pieces.push(this.text.slice(this.at));
    this.output.add(this.pieces.join(''));
    this.pieces = [];
  }
}

// One encoder for every render: it holds no state between calls.
const UTF8 = new TextEncoder();

/**
 * A rendered file's bytes, given a chunk of text at a time: UTF-8 is encoded as it comes, so that the text never
 * exists whole. (UTF-16, which Excel's "Unicode text" export writes and little else, is encoded at the end.)
 */
class CsvOutput {
  private bytes = new Uint8Array(0);
  private length = 0;
  private readonly texts: string[] = [];

  constructor(
    private readonly bom: boolean,
    private readonly encoding: CsvEncoding,
    /** What the output is expected to take, in bytes: room made at the first chunk (a render may change nothing). */
    private readonly size: number,
  ) {}

  add(text: string): void {
    if (this.encoding !== 'utf-8') {
      this.texts.push(text);
      return;
    }
    // A UTF-16 unit takes at most three bytes; the first chunk makes room, and writes the BOM.
    if (this.bytes.length === 0 || this.bytes.length - this.length < text.length * 3) {
      const bytes = new Uint8Array(Math.max(2 * this.bytes.length, this.length + text.length * 3 + 3, this.size));
      bytes.set(this.bytes.subarray(0, this.length));
      if (this.bytes.length === 0 && this.bom) this.length = UTF8.encodeInto('\uFEFF', bytes).written;
      this.bytes = bytes;
    }
    this.length += UTF8.encodeInto(text, this.bytes.subarray(this.length)).written;
  }

  /** The file, without the text's last `trim` characters (a line end's: one byte each in UTF-8). */
  result(trim: number): Uint8Array {
    if (this.encoding === 'utf-8') return this.bytes.slice(0, this.length - trim);
    const text = this.texts.join('');
    return encodeCsv(text.slice(0, text.length - trim), this.bom, this.encoding);
  }
}

/** Renders a CSV-shaped file through a dialect: the source bytes back when nothing changes. */
export function renderCsvTable(input: RenderInput, dialect: TableDialect, quote: QuotePolicy, table = readCsvTable(input.source)): Uint8Array {
  const layout = readLayout(table.headerRow, dialect, input.sourceLocale ?? 'en');
  // Rows are read, planned and written in one pass, so that no row's objects outlive it (a large file's would keep
  // the garbage collector busy). A planning error waits until the whole file is read: the file's own errors come
  // first, as they would if it were read before planning.
  let planning: { planner: RowPlanner; rewriter: CsvRewriter } | undefined;
  let failure: { error: unknown } | undefined;
  try {
    const planner = new RowPlanner(layout, table.rows, input, dialect);
    planning = { planner, rewriter: new CsvRewriter(table, layout, planner.added, quote) };
  } catch (error) {
    failure = { error };
  }
  forEachEntry(layout, table.rows, dialect, (item) => {
    if (!planning) return;
    const { planner, rewriter } = planning;
    try {
      if (planner.plan(item)) rewriter.row(item.row, planner.cells, planner.remove);
    } catch (error) {
      failure = { error };
      planning = undefined;
    }
  }, true);
  if (failure) throw failure.error;
  const { planner, rewriter } = planning!;
  return planner.changed ? rewriter.result() : input.source.slice();
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

