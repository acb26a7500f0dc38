// The `xlsx` codec: the first worksheet of an Excel workbook as a table, with only changed cells rewritten and re-zipped.
import type { Codec, Entry, FreshEntry, FreshOptions, ParseOptions, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import {
  addedHeaders,
  classifyHeader,
  dedupe,
  forEachEntry,
  freshCell,
  readEntries,
  readLayout,
  RowPlanner,
  spellLike,
  textColumn,
  type TableDialect,
  type TableLayout,
  type TablePlan,
  type TableRow,
} from './csv.js';
import { SheetGrid, SheetRows } from './xlsx-grid.js';
import { cellText, columnIndex, scanSharedStrings, scanSheetData, tagAttribute, tagAttributes, unescapeOoxml } from './xlsx-scan.js';
import { ascii, escapeOoxml, PartWriter, preservesSpace, type Part } from './xlsx-write.js';
import { failWorkbook, rezip, unzip, zip, type Unzipped } from './xlsx-zip.js';
import {
  attribute,
  decodeXml,
  escapeXmlAttribute,
  escapeXmlText,
  scanXml,
  textContent,
  type XmlAttribute,
  type XmlDocument,
  type XmlElement,
} from './xml-scan.js';

/*
 * Columns follow the csv codec's conventions (key, language, plural-category and note columns), read from the first
 * worksheet's first non-empty row. Entry.line and Entry.column are the sheet's row and column numbers (B3 → 3, 2).
 * Rendering splices the worksheet XML: a changed cell is rewritten in place (keeping its style), a cell that empties
 * is removed (or kept bare where it has a style), and an added language's columns go after the last column, since
 * inserting columns would move every reference in the workbook. New text goes to the shared string table when the
 * workbook has one (existing strings are never edited: other cells may share them), else inline. Only the worksheet
 * and sharedStrings entries are recompressed; every other zip entry is copied byte for byte. Omitting a row of the
 * workbook's own language removes its <row> (a blank row remains, so no reference moves). Text is XML-escaped, with a CR
 * as `&#13;` and characters XML cannot carry as OOXML's `_xHHHH_` (a literal `_xHHHH_` gets its '_' escaped).
 * The content of <sheetData> and <sst> (nearly all of a large workbook) is read by xlsx-scan's fast scanner, the rest
 * of those parts by the shared XML scanner; a part the fast scanner does not take is read by the shared one whole.
 */

const xlsxDialect: TableDialect = {
  format: 'xlsx',
  plurals: true,
  classify: classifyHeader,
  header(locale, like, category) {
    if (like.id === '' && category) return category;
    const tag = spellLike(locale, like.locale);
    return category ? `${tag}${like.separator || '_'}${category}` : tag;
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Workbook parts

/** A part read by the shared XML scanner. */
interface ScannedPart extends Part {
  doc: XmlDocument;
}

function inPart<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof FileUnparsableError) throw new FileUnparsableError(`In ${path}: ${error.message}`, error.line, error.column);
    throw error;
  }
}

function decodePart(files: Unzipped, path: string): Part {
  const bytes = files[path];
  if (!bytes) return failWorkbook(`Expected the workbook part ${path}, which the package's relationships name, but it is missing`);
  return { path, ...inPart(path, () => decodeXml(bytes)), bytes };
}

function scanPart(part: Part): ScannedPart {
  return { ...part, doc: inPart(part.path, () => scanXml(part.text)) };
}

function readPart(files: Unzipped, path: string): ScannedPart {
  return scanPart(decodePart(files, path));
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);
const children = (el: XmlElement, name: string): XmlElement[] => el.children.filter((n): n is XmlElement => n.kind === 'element' && localName(n.name) === name);
const child = (el: XmlElement, name: string): XmlElement | undefined => children(el, name)[0];

function partError(part: Part, message: string, at: { line: number; column: number }): FileUnparsableError {
  return new FileUnparsableError(`In ${part.path}: ${message} at line ${at.line}, column ${at.column}`, at.line, at.column);
}

function expectRoot(part: ScannedPart, name: string): XmlElement {
  const { root } = part.doc;
  if (localName(root.name) !== name) throw partError(part, `Expected a <${name}> root element, found <${root.name}>`, root);
  return root;
}

interface Relationship {
  type: string;
  target: string;
}

function relationships(files: Unzipped, source: string): Map<string, Relationship> {
  const slash = source.lastIndexOf('/');
  const path = `${source.slice(0, slash + 1)}_rels/${source.slice(slash + 1)}.rels`;
  const out = new Map<string, Relationship>();
  if (!files[path]) return out;
  const part = readPart(files, path);
  for (const rel of children(expectRoot(part, 'Relationships'), 'Relationship')) {
    const id = attribute(rel, 'Id')?.value;
    const target = attribute(rel, 'Target')?.value;
    if (id && target && attribute(rel, 'TargetMode')?.value !== 'External') {
      out.set(id, { type: attribute(rel, 'Type')?.value ?? '', target: resolve(source, target) });
    }
  }
  return out;
}

/** A relationship target as a zip path: absolute ('/xl/…', as openpyxl writes) or relative to the source part's folder. */
function resolve(source: string, target: string): string {
  const segments = target.startsWith('/') ? [] : source.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

/** The text of a string item or inline string, before unescapeOoxml: its `t`, or its rich-text runs' `t`s; phonetic runs are not text. */
function runText(el: XmlElement): string {
  let out = '';
  for (const node of el.children) {
    if (node.kind !== 'element') continue;
    const name = localName(node.name);
    if (name === 't') out += textContent(node);
    else if (name === 'r') for (const t of children(node, 't')) out += textContent(t);
  }
  return out;
}

const COLUMN_REF = /^([A-Z]{1,3})([1-9][0-9]*)$/;

// Names of the first columns, which a render asks for once per row.
const COLUMN_NAMES: string[] = [];

function columnName(index: number): string {
  if (index < 64) return (COLUMN_NAMES[index] ??= spellColumn(index));
  return spellColumn(index);
}

function spellColumn(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function prefixOf(el: XmlElement): string {
  const colon = el.name.indexOf(':');
  return colon < 0 ? '' : el.name.slice(0, colon + 1);
}

/** The namespace prefixes an element declares. */
function declaredPrefixes(el: XmlElement): string[] {
  return el.attributes.filter((a) => a.name.startsWith('xmlns:')).map((a) => a.name.slice(6));
}

/**
 * A part scanned by the shared scanner with the content of one element left out (the large part, which the fast
 * scanner reads): where the element starts, and where its content runs from and to in the part's text. Offsets in
 * the scanned document past `from` are `to - from` short of the text's. Undefined when the element is not found or
 * has no content; the caller checks that the element found is the one it wants.
 */
interface Masked {
  doc: XmlDocument;
  start: number;
  from: number;
  to: number;
}

function maskContent(text: string, tag: RegExp): Masked | undefined {
  const open = tag.exec(text);
  if (!open) return undefined;
  const name = open[0].slice(1, -1);
  const from = text.indexOf('>', open.index) + 1;
  if (from === 0 || text.charCodeAt(from - 2) === 0x2f /* / */) return undefined;
  // Its end tag is the last one of the name (the scan checks it closes this element).
  const to = text.lastIndexOf(`</${name}`);
  if (to < from) return undefined;
  try {
    return { doc: scanXml(text.slice(0, from) + text.slice(to)), start: open.index, from, to };
  } catch {
    return undefined;
  }
}

/** Whether the masked element is `el`, as the shared scanner read it with its content left out. */
function isMasked(el: XmlElement | undefined, masked: Masked): el is XmlElement {
  return el !== undefined && el.start === masked.start && el.openEnd === masked.from && el.closeStart === masked.from;
}

/** An attribute of the masked document, at its place in the part's text. */
function unmask(a: XmlAttribute, masked: Masked): XmlAttribute {
  const by = a.start >= masked.from ? masked.to - masked.from : 0;
  return by === 0 ? a : { ...a, start: a.start + by, end: a.end + by, valueStart: a.valueStart + by, valueEnd: a.valueEnd + by };
}

const SHEET_DATA_TAG = /<(?:[A-Za-z_][A-Za-z0-9_.-]*:)?sheetData[ \t\r\n/>]/;
const SST_TAG = /<(?:[A-Za-z_][A-Za-z0-9_.-]*:)?sst[ \t\r\n/>]/;

interface Sheet {
  part: Part;
  grid: SheetGrid;
  /** The prefix the sheet's elements use: new elements take it (some writers bind the main namespace to `x:`). */
  ns: string;
  /** The `ref` of <dimension>. */
  dimension: XmlAttribute | undefined;
}

function readSheet(files: Unzipped, path: string, shared: readonly string[]): Sheet {
  const part = decodePart(files, path);
  return readSheetQuickly(part, shared) ?? readSheetFully(part, shared);
}

function readSheetQuickly(part: Part, shared: readonly string[]): Sheet | undefined {
  const masked = maskContent(part.text, SHEET_DATA_TAG);
  if (!masked) return undefined;
  const root = masked.doc.root;
  const data = localName(root.name) === 'worksheet' ? child(root, 'sheetData') : undefined;
  if (!isMasked(data, masked)) return undefined;
  const grid = scanSheetData(part.text, masked.from, masked.to, prefixOf(data), [...declaredPrefixes(root), ...declaredPrefixes(data)], shared);
  if (!grid) return undefined;
  const dimension = child(root, 'dimension');
  const ref = dimension && attribute(dimension, 'ref');
  return { part, grid, ns: prefixOf(data), dimension: ref && unmask(ref, masked) };
}

/** The sheet read by the shared scanner, which reports anything malformed with its position. */
function readSheetFully(part: Part, shared: readonly string[]): Sheet {
  const sheet = scanPart(part);
  const worksheet = expectRoot(sheet, 'worksheet');
  const grid = new SheetGrid();
  const data = child(worksheet, 'sheetData');
  let previousRow = 0;
  for (const rowEl of data ? children(data, 'row') : []) {
    const r = attribute(rowEl, 'r')?.value;
    const number = r === undefined ? previousRow + 1 : Number(r);
    if (!Number.isInteger(number) || number <= previousRow) throw partError(sheet, `Expected rows in ascending order with numeric r attributes, found r=${JSON.stringify(r)}`, rowEl);
    previousRow = number;
    grid.addRow(number, rowEl.start, rowEl.end, rowEl.closeStart, rowEl);
    let previousColumn = -1;
    for (const cellEl of children(rowEl, 'c')) {
      const ref = attribute(cellEl, 'r')?.value;
      const match = ref === undefined ? undefined : COLUMN_REF.exec(ref);
      if (ref !== undefined && (!match || Number(match[2]) !== number)) {
        throw partError(sheet, `Expected a cell reference in row ${number} (like A${number}), found ${JSON.stringify(ref)}`, cellEl);
      }
      const column = match ? columnIndex(match[1]!) : previousColumn + 1;
      if (column <= previousColumn) throw partError(sheet, `Expected cells in column order, found ${JSON.stringify(ref)} after column ${columnName(previousColumn)}`, cellEl);
      previousColumn = column;
      readCell(sheet, grid, cellEl, column, shared);
    }
  }
  const dimension = child(worksheet, 'dimension');
  return { part, grid, ns: prefixOf(data ?? worksheet), dimension: dimension && attribute(dimension, 'ref') };
}

function readCell(sheet: Part, grid: SheetGrid, el: XmlElement, column: number, shared: readonly string[]): void {
  const type = attribute(el, 't')?.value ?? 'n';
  const is = type === 'inlineStr' ? child(el, 'is') : undefined;
  const v = child(el, 'v');
  const raw = v ? textContent(v) : undefined;
  const text = cellText(type, raw, is && runText(is), shared);
  if (text === undefined) throw partError(sheet, `Expected a shared string index below ${shared.length}, found ${JSON.stringify(raw)}`, v!);
  grid.addCell(column, el.start, el.end, type, text, type === 's' && v !== undefined, el);
}

interface SharedStrings {
  part: Part;
  /** <sst>, at its place in the part's text. */
  root: XmlElement;
  /** The items, decoded. */
  shared: string[];
  /** Whether each item is plain text (one `t`), so a new cell may reuse it without taking on rich formatting. */
  plain: boolean[];
}

function readSharedStrings(files: Unzipped, path: string): SharedStrings {
  const part = decodePart(files, path);
  return readSharedStringsQuickly(part) ?? readSharedStringsFully(part);
}

function readSharedStringsQuickly(part: Part): SharedStrings | undefined {
  const masked = maskContent(part.text, SST_TAG);
  if (!masked) return undefined;
  const root = masked.doc.root;
  if (localName(root.name) !== 'sst' || !isMasked(root, masked)) return undefined;
  const items = scanSharedStrings(part.text, masked.from, masked.to, declaredPrefixes(root));
  if (!items) return undefined;
  const by = masked.to - masked.from;
  return { part, root: { ...root, closeStart: root.closeStart + by, end: root.end + by }, ...items };
}

function readSharedStringsFully(part: Part): SharedStrings {
  const strings = scanPart(part);
  const root = expectRoot(strings, 'sst');
  const items = children(root, 'si');
  return {
    part,
    root,
    shared: items.map((si) => unescapeOoxml(runText(si))),
    plain: items.map((si) => si.children.every((n) => n.kind !== 'element' || localName(n.name) === 't')),
  };
}

interface Workbook {
  sheet: Sheet;
  strings: SharedStrings | undefined;
  /** Shared string items, decoded (none without a table). */
  shared: string[];
  plain: boolean[];
}

const WORKSHEET_TYPE = /\/worksheet$/;
const SHARED_STRINGS_TYPE = /\/sharedStrings$/;
const OFFICE_DOCUMENT_TYPE = /\/officeDocument$/;

function readWorkbook(input: Uint8Array, archive?: ParseOptions['archive']): Workbook {
  const files = unzip(input, archive);
  const workbookPath = [...relationships(files, '').values()].find((r) => OFFICE_DOCUMENT_TYPE.test(r.type))?.target ?? 'xl/workbook.xml';
  const workbook = readPart(files, workbookPath);
  const rels = relationships(files, workbookPath);
  const first = child(expectRoot(workbook, 'workbook'), 'sheets');
  const sheetEl = first && child(first, 'sheet');
  if (!sheetEl) throw partError(workbook, 'Expected a <sheets> element listing at least one <sheet>', first ?? workbook.doc.root);
  const id = sheetEl.attributes.find((a) => localName(a.name) === 'id' && a.name.includes(':'))?.value ?? '';
  const sheetRel = rels.get(id);
  if (!sheetRel || !WORKSHEET_TYPE.test(sheetRel.type)) {
    throw partError(workbook, `Expected the first sheet to be a worksheet (its relationship ${JSON.stringify(id)} is not one)`, sheetEl);
  }
  const stringsPath = [...rels.values()].find((r) => SHARED_STRINGS_TYPE.test(r.type))?.target;
  const strings = stringsPath && files[stringsPath] ? readSharedStrings(files, stringsPath) : undefined;
  const shared = strings?.shared ?? [];
  const sheet = readSheet(files, sheetRel.target, shared);
  return { sheet, strings, shared, plain: strings?.plain ?? [] };
}

/** The sheet as a table: the first non-empty row is the header; cells are positioned by sheet row and column. */
interface Table {
  /** The header row's index in the grid; the data rows are the rows after it. */
  head: number;
  header: TableRow;
  data: SheetRows;
}

function toTable(book: Workbook): Table {
  const { grid } = book.sheet;
  let head = 0;
  while (head < grid.rows && !grid.filledRow(head)) head++;
  if (head === grid.rows) return failWorkbook('The first worksheet is empty; expected a header row (e.g. key, en)');
  return { head, header: grid.tableRow(head), data: new SheetRows(grid, head + 1) };
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering

/** A cell's attributes: its element's, or read again from the tag the fast scanner took. */
function cellAttributes(text: string, grid: SheetGrid, cell: number): readonly XmlAttribute[] {
  const el = grid.cellElement(cell);
  return el ? el.attributes : tagAttributes(text, grid.cellStartOf(cell));
}

function cellAttribute(text: string, grid: SheetGrid, cell: number, name: string): XmlAttribute | undefined {
  const el = grid.cellElement(cell);
  return el ? attribute(el, name) : tagAttribute(text, grid.cellStartOf(cell), name);
}

function rowAttribute(text: string, grid: SheetGrid, row: number, name: string): XmlAttribute | undefined {
  const el = grid.rowElement(row);
  return el ? attribute(el, name) : tagAttribute(text, grid.start(row), name);
}

/** A `t` element. */
function textElement(ns: string, value: string): string {
  const space = preservesSpace(value) ? ' xml:space="preserve"' : '';
  return `<${ns}t${space}>${escapeXmlText(escapeOoxml(value))}</${ns}t>`;
}

const SPANS = /^(\d+):(\d+)$/;

/**
 * Writes planned rows into the worksheet (and new text into the shared strings), row by row as they are planned, so
 * that nothing of a row's plan outlives it: changed cells are spliced in place, new cells go in column order, a removed
 * row leaves its place blank. The header row's added columns and the <dimension> are written first (or, in an odd
 * file with <dimension> after <sheetData>, last), as the sheet's edits go in document order.
 */
class SheetRewriter {
  private readonly grid: SheetGrid;
  private readonly text: string;
  private readonly out: PartWriter;
  /** Plain shared strings by text (the first of a repeated one), made when a cell first takes one. */
  private known: Map<string, number> | undefined;
  /** Strings added to the table. */
  private readonly added: string[] = [];
  /** How many more cells use the table than before. */
  private countDelta = 0;
  private readonly likeColumn: number;
  private readonly dimension: { ref: XmlAttribute; bounds: RegExpExecArray } | undefined;
  private started = false;
  /** The spans read last, as SPANS reads it (see spansOf). */
  private lastSpans: string | undefined;
  private lastRange: RegExpExecArray | null = null;
  /** The style read last, and the style written last, with its bytes (see styleOf and escapedStyle). */
  private lastStyle: string | undefined;
  private lastEscaped: string | undefined;
  private lastEscapedBytes = new Uint8Array(0);
  // New elements take the prefix the sheet's own elements use (some writers bind the main namespace to `x:`).
  /** `<c `, before a replaced cell's own attributes, and `<c r="`, before a new cell's reference. */
  private readonly cellOpen: Uint8Array;
  private readonly refOpen: Uint8Array;
  /** What follows a cell's attributes: after a replaced cell's, and after a new cell's (which end in an open quote). */
  private readonly bare: CellPieces;
  private readonly quoted: CellPieces;
  private readonly inlineClose: Uint8Array;
  private readonly sharedClose: Uint8Array;

  constructor(
    private readonly book: Workbook,
    private readonly layout: TableLayout,
    private readonly columns: TablePlan['added'],
    private readonly head: number,
  ) {
    const { sheet } = book;
    const { ns } = sheet;
    this.grid = sheet.grid;
    this.text = sheet.part.text;
    this.out = new PartWriter(sheet.part);
    this.likeColumn = textColumn(layout.source);
    this.cellOpen = ascii(`<${ns}c `);
    this.refOpen = ascii(`<${ns}c r="`);
    this.bare = cellPieces(ns, '');
    this.quoted = cellPieces(ns, '"');
    this.inlineClose = ascii(`</${ns}t></${ns}is></${ns}c>`);
    this.sharedClose = ascii(`</${ns}v></${ns}c>`);
    const ref = sheet.dimension;
    const bounds = ref && /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(ref.value);
    this.dimension = columns.length > 0 && ref && bounds ? { ref, bounds } : undefined;
  }

  /** Writes what goes before the rows: the <dimension> before them, and the header row's added columns. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    const { dimension } = this;
    if (dimension && dimension.ref.valueStart < this.grid.start(this.head)) this.widen();
    if (this.columns.length > 0) this.rewrite(this.head, addedHeaders(this.layout, { added: this.columns, rows: new Map(), changed: true }));
  }

  /** Writes data row `index`'s planned cells (column → text, a hole leaving the cell as it is), or removes it. */
  row(index: number, cells: readonly (string | undefined)[], remove: boolean): void {
    this.start();
    const row = this.head + 1 + index;
    if (remove) {
      const { grid } = this;
      for (let c = grid.first(row); c < grid.first(row + 1); c++) if (grid.counted(c)) this.countDelta--;
      this.out.replace(grid.start(row), grid.end(row));
    } else {
      this.rewrite(row, cells);
    }
  }

  /** The changed parts, encoded. */
  finish(): Map<string, Uint8Array> {
    this.start();
    const { dimension, book, out } = this;
    if (dimension && dimension.ref.valueStart >= this.grid.start(this.head)) this.widen();
    const { strings } = book;
    const parts = new Map<string, Uint8Array>();
    if (out.edited) parts.set(book.sheet.part.path, out.encode());
    if (strings && (this.added.length > 0 || this.countDelta !== 0)) parts.set(strings.part.path, appendSharedStrings(strings, this.added, this.countDelta));
    return parts;
  }

  private widen(): void {
    const { ref, bounds } = this.dimension!;
    const last = Math.max(columnIndex(bounds[3] ?? bounds[1]!), this.layout.width + this.columns.length - 1);
    this.out.replace(ref.valueStart, ref.valueEnd);
    this.out.write(`${bounds[1]}${bounds[2]}:${columnName(last)}${bounds[4] ?? bounds[2]}`);
  }

  private sharedIndex(value: string): number {
    const { book } = this;
    let known = this.known;
    if (!known) {
      // From the last item back, so that a repeated string is left at its first item, one Map operation an item.
      known = this.known = new Map<string, number>();
      for (let i = book.shared.length - 1; i >= 0; i--) if (book.plain[i]) known.set(book.shared[i]!, i);
    }
    let index = known.get(value);
    if (index === undefined) {
      index = book.shared.length + this.added.length;
      this.added.push(value);
      known.set(value, index);
    }
    return index;
  }

  /** A row's spans from `start` to `end` in the sheet's text: the one before where it is the same (as most are). */
  private spansOf(start: number, end: number): string {
    const last = this.lastSpans;
    return last !== undefined && last.length === end - start && this.text.startsWith(last, start) ? last : this.text.slice(start, end);
  }

  /** The style from `start` to `end` in the sheet's text: the one before where it is the same (most rows share one). */
  private styleOf(start: number, end: number): string {
    const last = this.lastStyle;
    if (last !== undefined && last.length === end - start && this.text.startsWith(last, start)) return last;
    return (this.lastStyle = this.text.slice(start, end));
  }

  /** A style as a new cell's `s` (in double quotes), encoded: the one before's bytes where it is the same. */
  private escapedStyle(style: string): Uint8Array {
    if (style !== this.lastEscaped) {
      this.lastEscaped = style;
      this.lastEscapedBytes = UTF8.encode(escapeXmlAttribute(style, '"'));
    }
    return this.lastEscapedBytes;
  }

  /** Writes a cell of the grid's row `row`; `replaced` is the grid's cell it replaces, -1 for a new one. */
  private writeCell(row: number, column: number, value: string, replaced: number): void {
    const { grid, text, out } = this;
    let attributes: string | undefined;
    let style: string | undefined;
    let styled: boolean;
    if (replaced >= 0) {
      const kept = cellAttributes(text, grid, replaced)
        .filter((a) => a.name !== 't')
        .map((a) => text.slice(a.start, a.end));
      attributes = kept.join(' ');
      styled = kept.some((a) => a.startsWith('s='));
    } else {
      const like = grid.find(row, this.likeColumn);
      if (like < 0) style = undefined;
      else if (!grid.recorded) style = cellAttribute(text, grid, like, 's')?.value;
      else if (grid.styleStart(like) >= 0) style = this.styleOf(grid.styleStart(like), grid.styleEnd(like));
      styled = style !== undefined;
    }
    if (value === '' && !styled) return;
    let pieces: CellPieces;
    if (attributes !== undefined) {
      out.writeBytes(this.cellOpen);
      out.write(attributes);
      pieces = this.bare;
    } else {
      out.writeBytes(this.refOpen);
      out.writeAscii(columnName(column));
      out.writeNumber(grid.line(row));
      if (style !== undefined) {
        out.writeBytes(STYLE_OPEN);
        out.writeBytes(this.escapedStyle(style));
      }
      pieces = this.quoted;
    }
    if (value === '') {
      out.writeBytes(pieces.empty);
      return;
    }
    if (this.book.strings && !(replaced >= 0 && grid.isInline(replaced))) {
      this.countDelta++;
      out.writeBytes(pieces.shared);
      out.writeNumber(this.sharedIndex(value));
      out.writeBytes(this.sharedClose);
      return;
    }
    out.writeTextElement(pieces.inline, pieces.spacedInline, value, this.inlineClose);
  }

  private rewrite(row: number, cells: readonly (string | undefined)[]): void {
    const { grid, text, out } = this;
    // A `spans` to widen sits in the row's start tag, before its cells: it is written first.
    let widest = -1;
    for (let column = 0; column < cells.length; column++) {
      const value = cells[column];
      if (value !== undefined && value !== '' && grid.find(row, column) < 0) widest = column;
    }
    if (widest >= 0) {
      let spans: { value: string; valueStart: number; valueEnd: number } | undefined;
      if (!grid.recorded) spans = rowAttribute(text, grid, row, 'spans');
      else if (grid.spansStart(row) >= 0) spans = { value: this.spansOf(grid.spansStart(row), grid.spansEnd(row)), valueStart: grid.spansStart(row), valueEnd: grid.spansEnd(row) };
      const range = spans && (spans.value === this.lastSpans ? this.lastRange : SPANS.exec(spans.value));
      if (spans) {
        this.lastSpans = spans.value;
        this.lastRange = range ?? null;
      }
      if (spans && range && widest + 1 > Number(range[2])) {
        out.replace(spans.valueStart, spans.valueEnd);
        out.write(`${range[1]}:${widest + 1}`);
      }
    }
    // Cells are in column order in the sheet, so the edits come in document order.
    for (let column = 0; column < cells.length; column++) {
      const value = cells[column];
      if (value === undefined) continue;
      const existing = grid.find(row, column);
      if (existing >= 0) {
        if (grid.value(existing) === value) continue;
        if (grid.counted(existing)) this.countDelta--;
        out.replace(grid.cellStartOf(existing), grid.cellEndOf(existing));
        this.writeCell(row, column, value, existing);
        continue;
      }
      if (value === '') continue;
      let next = -1;
      for (let c = grid.first(row); c < grid.first(row + 1) && next < 0; c++) if (grid.column(c) > column) next = c;
      if (next < 0 && grid.closeStart(row) === grid.end(row)) throw new Error('xlsx: a row without cells cannot hold an entry');
      const at = next >= 0 ? grid.cellStartOf(next) : grid.closeStart(row);
      out.replace(at, at);
      this.writeCell(row, column, value, -1);
    }
  }
}

const STYLE_OPEN = ascii('" s="');
const UTF8 = new TextEncoder();

/** What follows a written cell's attributes (the last of which may want its closing quote): each kind of content. */
interface CellPieces {
  empty: Uint8Array;
  shared: Uint8Array;
  inline: Uint8Array;
  spacedInline: Uint8Array;
}

function cellPieces(ns: string, quote: string): CellPieces {
  return {
    empty: ascii(`${quote}/>`),
    shared: ascii(`${quote} t="s"><${ns}v>`),
    inline: ascii(`${quote} t="inlineStr"><${ns}is><${ns}t>`),
    spacedInline: ascii(`${quote} t="inlineStr"><${ns}is><${ns}t xml:space="preserve">`),
  };
}

/** Appends string items and keeps the table's `count` (cells using it) and `uniqueCount` (items) attributes true. */
function appendSharedStrings(strings: SharedStrings, added: readonly string[], countDelta: number): Uint8Array {
  const { root: sst, part } = strings;
  const ns = prefixOf(sst);
  const edits: { start: number; end: number; text: string }[] = [];
  const bump = (name: string, by: number): void => {
    const attr = attribute(sst, name);
    if (attr && by !== 0 && /^\d+$/.test(attr.value)) edits.push({ start: attr.valueStart, end: attr.valueEnd, text: String(Math.max(0, Number(attr.value) + by)) });
  };
  bump('count', countDelta);
  bump('uniqueCount', added.length);
  edits.sort((a, b) => a.start - b.start);
  const selfClosing = sst.selfClosing;
  // A self-closing <sst/> is written up to its '/>', which becomes '>' items '</sst>'.
  const itemsAt = selfClosing ? /\s*\/>$/.exec(part.text.slice(sst.start, sst.end))!.index + sst.start : sst.closeStart;
  const out = new PartWriter(part);
  for (const edit of edits) {
    out.replace(edit.start, edit.end);
    out.write(edit.text);
  }
  out.replace(itemsAt, selfClosing ? sst.end : itemsAt);
  if (selfClosing) out.write('>');
  const textOpen = ascii(`<${ns}si><${ns}t>`);
  const spacedTextOpen = ascii(`<${ns}si><${ns}t xml:space="preserve">`);
  const textClose = ascii(`</${ns}t></${ns}si>`);
  for (const value of added) out.writeTextElement(textOpen, spacedTextOpen, value, textClose);
  if (selfClosing) out.write(`</${sst.name}>`);
  return out.encode();
}

function renderWorkbook(input: RenderInput): Uint8Array {
  const book = readWorkbook(input.source, input.archive);
  const table = toTable(book);
  const layout = readLayout(table.header, xlsxDialect, input.sourceLocale ?? 'en');
  // Rows are read, planned and written in one pass, so that no row's objects outlive it (a large sheet's would keep the
  // garbage collector busy). Errors come in the order they would if the sheet were read, then planned, then written:
  // the sheet's own first, then planning's, then writing's (once one comes, rows are still planned but not written).
  let planner: RowPlanner | undefined;
  let planning: { error: unknown } | undefined;
  try {
    planner = new RowPlanner(layout, table.data, input, xlsxDialect);
  } catch (error) {
    planning = { error };
  }
  let writer: SheetRewriter | undefined;
  let writing: { error: unknown } | undefined;
  try {
    writer = planner && new SheetRewriter(book, layout, planner.added, table.head);
  } catch (error) {
    writing = { error };
  }
  forEachEntry(
    layout,
    table.data,
    xlsxDialect,
    (item) => {
      if (!planner) return;
      let edited: boolean;
      try {
        edited = planner.plan(item);
      } catch (error) {
        planning = { error };
        planner = undefined;
        return;
      }
      if (!edited || !writer) return;
      try {
        writer.row(item.row, planner.cells, planner.remove);
      } catch (error) {
        writing = { error };
        writer = undefined;
      }
    },
    true,
  );
  if (planning) throw planning.error;
  if (!planner!.changed) return input.source.slice();
  if (writing) throw writing.error;
  const parts = writer!.finish();
  if (parts.size === 0) return input.source.slice();
  return rezip(input.source, parts);
}

// ---------------------------------------------------------------------------------------------------------------
// Fresh workbooks

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function freshWorkbook(rows: readonly (readonly string[])[]): Uint8Array {
  const cell = (value: string, column: number, row: number): string =>
    value === '' ? '' : `<c r="${columnName(column)}${row}" t="inlineStr"><is>${textElement('', value)}</is></c>`;
  const sheetRows = rows.map((cells, i) => `<row r="${i + 1}">${cells.map((v, c) => cell(v, c, i + 1)).join('')}</row>`).join('');
  const width = Math.max(1, ...rows.map((r) => r.length));
  return zip([
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Translations" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ],
    [
      'xl/worksheets/sheet1.xml',
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><dimension ref="A1:${columnName(width - 1)}${Math.max(1, rows.length)}"/>` +
        `<sheetData>${sheetRows}</sheetData></worksheet>`,
    ],
  ]);
}

/** A workbook's entries in the column of `locale` (default 'en', else the first language). */
export function parseXlsx(bytes: Uint8Array, locale = 'en', archive?: ParseOptions['archive']): Entry[] {
  const table = toTable(readWorkbook(bytes, archive));
  const layout = readLayout(table.header, xlsxDialect, locale);
  return readEntries(layout, table.data, xlsxDialect).map((e) => e.entry);
}

export const xlsxCodec: Codec = {
  id: 'xlsx',
  extensions: ['.xlsx'],
  plurals: true,

  detect(fileName, head) {
    const zipped = head.startsWith('PK\u0003\u0004');
    if (/\.xlsx$/i.test(fileName)) return zipped || head === '' ? 1 : 0.5;
    return zipped && head.includes('xl/') ? 0.6 : 0;
  },

  parse(bytes: Uint8Array, options?: ParseOptions): Entry[] {
    return parseXlsx(bytes, 'en', options?.archive);
  },

  render: renderWorkbook,

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    const rows = [['key', options?.locale ?? 'en'], ...dedupe(entries).map((e) => [e.key, freshCell(e.value)])];
    return freshWorkbook(rows);
  },
};
