// The xlsx codec's worksheet as read: its rows and cells held in columns of numbers, read as the table codecs' rows.
import type { TableCell, TableRow, TableRows } from './csv.js';
import type { XmlElement } from './xml-scan.js';

/*
 * A workbook of 50,000 rows holds 100,000 cells and more; an object per cell and per row (and an array per row) costs
 * more to collect than to read, so the grid keeps positions in typed arrays, and each cell's text in one array of
 * strings. Rows are the sheet's <row> elements in document order, cells each row's <c> elements in column order.
 */

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
  private rowLine = new Int32Array(256);
  private rowStart = new Int32Array(256);
  private rowEnd = new Int32Array(256);
  private rowCloseStart = new Int32Array(256);
  /** By row: its first cell; one more than the rows, ending at `cells`. */
  private rowFirst = new Int32Array(257);
  /** By cell: its 0-based column, the range of its element, its type's code and whether it counts in the shared table. */
  private cellColumn = new Int32Array(512);
  private cellStart = new Int32Array(512);
  private cellEnd = new Int32Array(512);
  private cellType = new Uint8Array(512);
  private cellCounted = new Uint8Array(512);
  private readonly values: string[] = [];
  private readonly otherTypes = new Map<number, string>();
  /** The elements, when the shared scanner read the sheet (else undefined). */
  private rowElements: XmlElement[] | undefined;
  private cellElements: XmlElement[] | undefined;

  /** Starts a row, which takes the cells added until the next. */
  addRow(line: number, start: number, end: number, closeStart: number, el?: XmlElement): void {
    const r = this.rows;
    if (r === this.rowLine.length) {
      this.rowLine = grown(this.rowLine, r + 1);
      this.rowStart = grown(this.rowStart, r + 1);
      this.rowEnd = grown(this.rowEnd, r + 1);
      this.rowCloseStart = grown(this.rowCloseStart, r + 1);
      this.rowFirst = grown(this.rowFirst, this.rowLine.length + 1);
    }
    this.rowLine[r] = line;
    this.rowStart[r] = start;
    this.rowEnd[r] = end;
    this.rowCloseStart[r] = closeStart;
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
    const c = this.cells;
    if (c >= this.cellColumn.length) {
      this.cellColumn = grown(this.cellColumn, c + 1);
      this.cellStart = grown(this.cellStart, c + 1);
      this.cellEnd = grown(this.cellEnd, c + 1);
      const types = new Uint8Array(this.cellColumn.length);
      types.set(this.cellType);
      this.cellType = types;
      const counts = new Uint8Array(this.cellColumn.length);
      counts.set(this.cellCounted);
      this.cellCounted = counts;
    }
    this.cellColumn[c] = column;
    this.cellStart[c] = start;
    this.cellEnd[c] = end;
    this.cellType[c] = code;
    this.cellCounted[c] = counted ? 1 : 0;
    this.values[c] = value;
    this.cells = c + 1;
    this.rowFirst[this.rows] = this.cells;
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
    return this.values[cell]!;
  }

  cellElement(cell: number): XmlElement | undefined {
    return this.cellElements?.[cell];
  }

  /** The row as an object with a cell object each, for the header row. */
  tableRow(row: number): TableRow {
    const cells: TableCell[] = [];
    const line = this.rowLine[row]!;
    for (let c = this.rowFirst[row]!; c < this.rowFirst[row + 1]!; c++) cells[this.cellColumn[c]!] = { value: this.values[c]!, line, column: this.cellColumn[c]! + 1 };
    return { cells, line, column: 1 };
  }

  /** Whether a cell of the row holds text. */
  filledRow(row: number): boolean {
    for (let c = this.rowFirst[row]!; c < this.rowFirst[row + 1]!; c++) if (this.values[c] !== '') return true;
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
    return cell >= 0 && this.grid.value(cell) !== '';
  }

  text(row: number, column: number): string {
    const cell = this.grid.find(row + this.offset, column);
    return cell < 0 ? '' : this.grid.value(cell);
  }

  equals(row: number, column: number, text: string): boolean {
    return this.text(row, column) === text;
  }

  includes(row: number, column: number, search: string): boolean {
    return this.text(row, column).includes(search);
  }

  line(row: number): number {
    return this.grid.line(row + this.offset);
  }

  column(row: number, column: number): number {
    return this.grid.find(row + this.offset, column) < 0 ? 1 : column + 1;
  }
}
