// The xlsx codec's worksheet as read: its rows and cells held in columns of numbers, read as the table codecs' rows.
import type { TableCell, TableRow, TableRows } from './csv.js';
import { decodedText, unescapeOoxml } from './xlsx-text.js';
import type { XmlElement } from './xml-scan.js';

/*
 * A workbook of 50,000 rows holds 100,000 cells and more; an object per cell and per row (and an array per row) costs
 * more to collect than to read, so the grid keeps positions in typed arrays, and each cell's text in one array of
 * strings. Rows are the sheet's <row> elements in document order, cells each row's <c> elements in column order.
 * The fast scanner leaves a cell's text where it stands in the part (see addTextCell) and the grid decodes it when it
 * is asked for: a render reads few of a large sheet's cells (a parse, most of them once), and decoding each as the
 * sheet is read would cost it dearly.
 */

/** How a cell's text is read: given, or from its range of the part's text (see addTextCell). */
export const GIVEN_TEXT = 0;
/** '' (a cell without a value). */
export const EMPTY_TEXT = 1;
/** The range's text, references decoded. */
export const PLAIN_TEXT = 2;
/** The range's text, references and then OOXML escapes decoded (inline and formula strings). */
export const OOXML_TEXT = 3;
/** A boolean's: TRUE for 1, FALSE for 0, else the range's text, references decoded. */
export const BOOLEAN_TEXT = 4;
/** The shared string whose index the range's start holds. */
export const SHARED_TEXT = 5;

/** Named references' names, which a search must not be part of to be looked for in a cell's raw text. */
const REFERENCE_NAMES = ['amp', 'apos', 'lt', 'gt', 'quot'];

/** How a search may be looked for in a cell's raw text (see rawSearch). */
const DECODED = 0;
const UNLESS_ESCAPED = 1;
const RAW = 2;

/**
 * How `search` may be looked for in a cell's raw text rather than its decoded text. UNLESS_ESCAPED: where the raw text
 * holds no character reference or OOXML escape, it is found in the raw text just where it is found in the text; that
 * is, it holds no character a named reference (&amp; &lt; &gt; &quot; &apos;) decodes to or starts or ends with, and is
 * no part of a reference's name, so no occurrence in either text reaches into a reference. RAW: besides, found in the
 * raw text it is in the text, whatever the raw text holds: it holds neither '#' nor '_' and a character no character
 * reference or OOXML escape is spelt with (beyond '&', '#', ';', '_', 'x' and hex digits), so no occurrence in the raw
 * text reaches into one. DECODED: neither.
 */
function rawSearch(search: string): number {
  if (search === '' || /[&;'<>"]/.test(search) || REFERENCE_NAMES.some((name) => name.includes(search))) return DECODED;
  return !/[#_]/.test(search) && /[^xX0-9A-Fa-f]/.test(search) ? RAW : UNLESS_ESCAPED;
}

/** The `t` attribute values a sheet uses, by code; a cell of any other type keeps its own spelling. */
export const CELL_TYPES: readonly string[] = ['n', 's', 'inlineStr', 'str', 'b', 'e', 'd'];
const OTHER_TYPE = 255;

/** The codes of the types a cell's text depends on. */
export const NUMBER_TYPE = 0;
export const SHARED_TYPE = 1;
export const INLINE_TYPE = 2;
export const STRING_TYPE = 3;
export const BOOLEAN_TYPE = 4;

function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(Math.max(2 * array.length, size));
  out.set(array);
  return out;
}

export class SheetGrid {
  /** How many rows and cells. */
  rows = 0;
  cells = 0;
  /** By row: its number in the sheet, the range of its element, where its end tag starts (`end` when self-closing). */
  private rowLine: Int32Array<ArrayBuffer>;
  private rowStart: Int32Array<ArrayBuffer>;
  private rowEnd: Int32Array<ArrayBuffer>;
  private rowCloseStart: Int32Array<ArrayBuffer>;
  /** By row: the value of its `spans`, where `recorded` (else not read); -1 when it has none. */
  private rowSpansStart: Int32Array<ArrayBuffer>;
  private rowSpansEnd: Int32Array<ArrayBuffer>;
  /** By row: its first cell; one more than the rows, ending at `cells`. */
  private rowFirst: Int32Array<ArrayBuffer>;
  /** By cell: its 0-based column, the range of its element, its type's code and whether it counts in the shared table. */
  private cellColumn: Int32Array<ArrayBuffer>;
  private cellStart: Int32Array<ArrayBuffer>;
  private cellEnd: Int32Array<ArrayBuffer>;
  private cellType: Uint8Array<ArrayBuffer>;
  private cellCounted: Uint8Array<ArrayBuffer>;
  /** By cell: how its text is read (GIVEN_TEXT and the others), and the range it is read from. */
  private cellText: Uint8Array<ArrayBuffer>;
  private textStart: Int32Array<ArrayBuffer>;
  private textEnd: Int32Array<ArrayBuffer>;
  /** By cell: the value of its `s`, where `recorded` (else not read); -1 when it has none. */
  private cellStyleStart: Int32Array<ArrayBuffer>;
  private cellStyleEnd: Int32Array<ArrayBuffer>;
  /**
   * Whether the scanner recorded where each row's `spans` and each cell's `s` are (see rowAttribute and cellAttribute):
   * a render looks them up in most rows.
   */
  recorded = false;
  /** By cell: its text, where it is given (GIVEN_TEXT). */
  private readonly values: (string | undefined)[] = [];
  /** The part's text and shared strings the cells' ranges are read from. */
  private source = '';
  private shared: readonly string[] = [];
  /** The searches `includes` was asked for (a few, over and over), and how each may be looked for (see rawSearch). */
  private readonly searches: string[] = [];
  private readonly searchWays: number[] = [];
  private readonly otherTypes = new Map<number, string>();
  /** The elements, when the shared scanner read the sheet (else undefined). */
  private rowElements: XmlElement[] | undefined;
  private cellElements: XmlElement[] | undefined;

  /** A grid with room for `rows` rows and `cells` cells to begin with (it grows as it needs). */
  constructor(rows = 256, cells = 512) {
    this.rowLine = new Int32Array(rows);
    this.rowStart = new Int32Array(rows);
    this.rowEnd = new Int32Array(rows);
    this.rowCloseStart = new Int32Array(rows);
    this.rowSpansStart = new Int32Array(rows);
    this.rowSpansEnd = new Int32Array(rows);
    this.rowFirst = new Int32Array(rows + 1);
    this.cellColumn = new Int32Array(cells);
    this.cellStart = new Int32Array(cells);
    this.cellEnd = new Int32Array(cells);
    this.cellType = new Uint8Array(cells);
    this.cellCounted = new Uint8Array(cells);
    this.cellText = new Uint8Array(cells);
    this.textStart = new Int32Array(cells);
    this.textEnd = new Int32Array(cells);
    this.cellStyleStart = new Int32Array(cells);
    this.cellStyleEnd = new Int32Array(cells);
  }

  /** Starts a row, which takes the cells added until the next. */
  addRow(line: number, start: number, end: number, closeStart: number, el?: XmlElement): void {
    const r = this.rows;
    if (r === this.rowLine.length) {
      this.rowLine = grown(this.rowLine, r + 1);
      this.rowStart = grown(this.rowStart, r + 1);
      this.rowEnd = grown(this.rowEnd, r + 1);
      this.rowCloseStart = grown(this.rowCloseStart, r + 1);
      this.rowSpansStart = grown(this.rowSpansStart, r + 1);
      this.rowSpansEnd = grown(this.rowSpansEnd, r + 1);
      this.rowFirst = grown(this.rowFirst, this.rowLine.length + 1);
    }
    this.rowLine[r] = line;
    this.rowStart[r] = start;
    this.rowEnd[r] = end;
    this.rowCloseStart[r] = closeStart;
    this.rowSpansStart[r] = -1;
    this.rowFirst[r] = this.cells;
    this.rowFirst[r + 1] = this.cells;
    if (el) (this.rowElements ??= [])[r] = el;
    this.rows = r + 1;
  }

  /** Ends the last row at its end tag. */
  closeRow(closeStart: number, end: number): void {
    this.rowCloseStart[this.rows - 1] = closeStart;
    this.rowEnd[this.rows - 1] = end;
  }

  /** Adds a cell to the last row, after its others (in column order). */
  addCell(column: number, start: number, end: number, type: string, value: string, counted: boolean, el?: XmlElement): void {
    const code = CELL_TYPES.indexOf(type);
    if (code < 0) this.otherTypes.set(this.cells, type);
    this.addTypedCell(column, start, end, code < 0 ? OTHER_TYPE : code, value, counted);
    if (el) (this.cellElements ??= [])[this.cells - 1] = el;
  }

  /** Adds a cell of a type given by its code (see typeCode). */
  addTypedCell(column: number, start: number, end: number, code: number, value: string, counted: boolean): void {
    this.addTextCell(column, start, end, code, GIVEN_TEXT, 0, 0, counted);
    this.values[this.cells - 1] = value;
  }

  /** Notes that the scanner records each row's `spans` and each cell's `s` (see rowAttribute and cellAttribute). */
  recordAttributes(): void {
    this.recorded = true;
  }

  /** Records the value of the last row's `spans`, from `from` to `to` in the part's text. */
  rowAttribute(from: number, to: number): void {
    this.rowSpansStart[this.rows - 1] = from;
    this.rowSpansEnd[this.rows - 1] = to;
  }

  /** Records the value of the last cell's `s`, from `from` to `to` in the part's text. */
  cellAttribute(from: number, to: number): void {
    this.cellStyleStart[this.cells - 1] = from;
    this.cellStyleEnd[this.cells - 1] = to;
  }

  /** Where the value of the row's `spans` starts (-1 when it has none) and ends, where `recorded`. */
  spansStart(row: number): number {
    return this.rowSpansStart[row]!;
  }

  spansEnd(row: number): number {
    return this.rowSpansEnd[row]!;
  }

  /** Where the value of the cell's `s` starts (-1 when it has none) and ends, where `recorded`. */
  styleStart(cell: number): number {
    return this.cellStyleStart[cell]!;
  }

  styleEnd(cell: number): number {
    return this.cellStyleEnd[cell]!;
  }

  /** The part's text and shared strings that cells added by addTextCell read their text from. */
  readFrom(source: string, shared: readonly string[]): void {
    this.source = source;
    this.shared = shared;
  }

  /**
   * Adds a cell whose text is read as `how` says (PLAIN_TEXT and the others) from `from` to `to` in the part's text
   * each time it is asked for; for SHARED_TEXT, `from` is the string's index. References in the range are ones the
   * fast scanner takes.
   */
  addTextCell(column: number, start: number, end: number, code: number, how: number, from: number, to: number, counted: boolean): void {
    const c = this.cells;
    if (c >= this.cellColumn.length) this.growCells(c + 1);
    this.cellColumn[c] = column;
    this.cellStart[c] = start;
    this.cellEnd[c] = end;
    this.cellType[c] = code;
    this.cellCounted[c] = counted ? 1 : 0;
    this.cellText[c] = how;
    this.textStart[c] = from;
    this.textEnd[c] = to;
    this.cellStyleStart[c] = -1;
    this.cells = c + 1;
    this.rowFirst[this.rows] = this.cells;
  }

  private growCells(size: number): void {
    this.cellColumn = grown(this.cellColumn, size);
    const length = this.cellColumn.length;
    this.cellStart = grown(this.cellStart, length);
    this.cellEnd = grown(this.cellEnd, length);
    this.textStart = grown(this.textStart, length);
    this.textEnd = grown(this.textEnd, length);
    this.cellStyleStart = grown(this.cellStyleStart, length);
    this.cellStyleEnd = grown(this.cellStyleEnd, length);
    const bytes = (array: Uint8Array): Uint8Array<ArrayBuffer> => {
      const out = new Uint8Array(length);
      out.set(array);
      return out;
    };
    this.cellType = bytes(this.cellType);
    this.cellCounted = bytes(this.cellCounted);
    this.cellText = bytes(this.cellText);
  }

  /** The row's number in the sheet. */
  line(row: number): number {
    return this.rowLine[row]!;
  }

  start(row: number): number {
    return this.rowStart[row]!;
  }

  end(row: number): number {
    return this.rowEnd[row]!;
  }

  /** At the row's '</row>', or its end when it is self-closing. */
  closeStart(row: number): number {
    return this.rowCloseStart[row]!;
  }

  rowElement(row: number): XmlElement | undefined {
    return this.rowElements?.[row];
  }

  /** The row's cells are `first(row)` up to `first(row + 1)`. */
  first(row: number): number {
    return this.rowFirst[row]!;
  }

  /** The row's cell in the column, or -1. */
  find(row: number, column: number): number {
    const first = this.rowFirst[row]!;
    const last = this.rowFirst[row + 1]!;
    // Most rows leave no column out.
    const at = first + column;
    if (at < last && this.cellColumn[at] === column) return at;
    for (let c = first; c < last; c++) {
      const col = this.cellColumn[c]!;
      if (col === column) return c;
      if (col > column) break;
    }
    return -1;
  }

  /** One past the row's last cell's column. */
  width(row: number): number {
    const last = this.rowFirst[row + 1]!;
    return last > this.rowFirst[row]! ? this.cellColumn[last - 1]! + 1 : 0;
  }

  column(cell: number): number {
    return this.cellColumn[cell]!;
  }

  cellStartOf(cell: number): number {
    return this.cellStart[cell]!;
  }

  cellEndOf(cell: number): number {
    return this.cellEnd[cell]!;
  }

  /** The cell's `t` attribute, 'n' when absent. */
  type(cell: number): string {
    const code = this.cellType[cell]!;
    return code === OTHER_TYPE ? this.otherTypes.get(cell)! : CELL_TYPES[code]!;
  }

  isInline(cell: number): boolean {
    return this.cellType[cell] === INLINE_TYPE;
  }

  /** Whether the cell is one of the shared string table's `count`: a shared string cell with a <v>. */
  counted(cell: number): boolean {
    return this.cellCounted[cell] === 1;
  }

  /** The cell's text, decoded. */
  value(cell: number): string {
    // Read each time it is asked for (a render or parse asks for most cells' text once, if at all).
    return this.cellText[cell] === GIVEN_TEXT ? this.values[cell]! : this.read(cell);
  }

  private read(cell: number): string {
    const how = this.cellText[cell]!;
    const from = this.textStart[cell]!;
    if (how === SHARED_TEXT) return this.shared[from]!;
    if (how === EMPTY_TEXT) return '';
    const raw = decodedText(this.source, from, this.textEnd[cell]!);
    if (how === OOXML_TEXT) return unescapeOoxml(raw);
    if (how === BOOLEAN_TEXT) return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    return raw;
  }

  /** Whether the cell's text is not '', told without decoding it. */
  filled(cell: number): boolean {
    const how = this.cellText[cell]!;
    if (how === GIVEN_TEXT) return this.values[cell] !== '';
    if (how === SHARED_TEXT) return this.shared[this.textStart[cell]!] !== '';
    // A reference or an OOXML escape decodes to a character: text that is not empty does not decode to ''.
    return how !== EMPTY_TEXT && this.textEnd[cell]! > this.textStart[cell]!;
  }

  private rawSearch(search: string): number {
    const { searches } = this;
    for (let k = 0; k < searches.length; k++) if (searches[k] === search) return this.searchWays[k]!;
    const way = rawSearch(search);
    if (searches.length < 8) {
      searches.push(search);
      this.searchWays.push(way);
    }
    return way;
  }

  /** Whether the cell's text includes `search`, told from its raw text where that gives the same answer. */
  includes(cell: number, search: string): boolean {
    const how = this.cellText[cell]!;
    const way = how === PLAIN_TEXT || how === OOXML_TEXT ? this.rawSearch(search) : DECODED;
    if (way !== DECODED) {
      const raw = this.source.slice(this.textStart[cell], this.textEnd[cell]);
      const found = raw.includes(search);
      if (found && way === RAW) return true;
      if (!raw.includes('&#') && (how === PLAIN_TEXT || !raw.includes('_x'))) return found;
    }
    return this.value(cell).includes(search);
  }

  cellElement(cell: number): XmlElement | undefined {
    return this.cellElements?.[cell];
  }

  /** The row as an object with a cell object each, for the header row. */
  tableRow(row: number): TableRow {
    const cells: TableCell[] = [];
    const line = this.rowLine[row]!;
    for (let c = this.rowFirst[row]!; c < this.rowFirst[row + 1]!; c++) cells[this.cellColumn[c]!] = { value: this.value(c), line, column: this.cellColumn[c]! + 1 };
    return { cells, line, column: 1 };
  }

  /** Whether a cell of the row holds text. */
  filledRow(row: number): boolean {
    for (let c = this.rowFirst[row]!; c < this.rowFirst[row + 1]!; c++) if (this.filled(c)) return true;
    return false;
  }
}

/** The rows of a grid from `offset` on, as the table codecs read them. */
export class SheetRows implements TableRows {
  readonly length: number;

  constructor(
    private readonly grid: SheetGrid,
    private readonly offset: number,
  ) {
    this.length = grid.rows - offset;
  }

  width(row: number): number {
    return this.grid.width(row + this.offset);
  }

  has(row: number, column: number): boolean {
    return this.grid.find(row + this.offset, column) >= 0;
  }

  filled(row: number, column: number): boolean {
    const cell = this.grid.find(row + this.offset, column);
    return cell >= 0 && this.grid.filled(cell);
  }

  text(row: number, column: number): string {
    const cell = this.grid.find(row + this.offset, column);
    return cell < 0 ? '' : this.grid.value(cell);
  }

  equals(row: number, column: number, text: string): boolean {
    return this.text(row, column) === text;
  }

  includes(row: number, column: number, search: string): boolean {
    const cell = this.grid.find(row + this.offset, column);
    return cell < 0 ? ''.includes(search) : this.grid.includes(cell, search);
  }

  line(row: number): number {
    return this.grid.line(row + this.offset);
  }

  column(row: number, column: number): number {
    return this.grid.find(row + this.offset, column) < 0 ? 1 : column + 1;
  }
}
