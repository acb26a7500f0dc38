// The `xlsx` codec: the first worksheet of an Excel workbook as a table, with only changed cells rewritten and re-zipped.
import { FileUnparsableError, type Codec, type Entry, type FreshEntry, type FreshOptions, type RenderInput } from './codec.js';
import {
  addedHeaders,
  classifyHeader,
  dedupe,
  freshCell,
  planRender,
  readEntries,
  readLayout,
  spellLike,
  textColumn,
  type TableDialect,
  type TableLayout,
  type TablePlan,
  type TableRow,
} from './csv.js';
import { SheetGrid, SheetRows } from './xlsx-grid.js';
import { cellText, columnIndex, scanSharedStrings, scanSheetData, tagAttribute, tagAttributes, unescapeOoxml } from './xlsx-scan.js';
import { failWorkbook, rezip, unzip, zip, type Unzipped } from './xlsx-zip.js';
import {
  attribute,
  decodeXml,
  encodeXml,
  escapeXmlAttribute,
  escapeXmlText,
  scanXml,
  textContent,
  type XmlAttribute,
  type XmlDocument,
  type XmlElement,
  type XmlEncoding,
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

/** A part's text, decoded. */
interface Part {
  path: string;
  text: string;
  bom: boolean;
  encoding: XmlEncoding;
}

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
  return { path, ...inPart(path, () => decodeXml(bytes)) };
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

// Control characters XML 1.0 cannot carry even as references; Excel writes them as `_xHHHH_`.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex
const HAS_XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function escapeOoxml(text: string): string {
  // Most values hold neither a literal `_x` nor a character XML cannot carry.
  if (!text.includes('_x') && !HAS_XML_FORBIDDEN.test(text)) return text;
  return text
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(XML_FORBIDDEN, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
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

function readWorkbook(input: Uint8Array): Workbook {
  const files = unzip(input);
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

// One encoder for every render: it holds no state between calls.
const UTF8 = new TextEncoder();

/**
 * A part's new bytes, written in document order: the source's text between edits, and each edit's text, encoded as
 * UTF-8 as they come into one buffer (a render of a large sheet writes a few pieces per row, and strings joined
 * first would be copied twice and collected). A part in UTF-16 is encoded again at the end.
 */
class PartWriter {
  private bytes: Uint8Array;
  private size = 0;
  private at = 0;
  /** Whether anything was replaced or inserted. */
  edited = false;

  constructor(private readonly part: Part) {
    // Room for the source, and as much again for what a render adds; it grows when that is not enough.
    this.bytes = new Uint8Array(2 * part.text.length + 1024);
    if (part.bom && part.encoding === 'utf-8') this.size = UTF8.encodeInto('\uFEFF', this.bytes).written;
  }

  /** Copies the source up to `start` and leaves it out up to `end`; what is written next takes its place. */
  replace(start: number, end: number): void {
    const { text } = this.part;
    if (start < this.at || end < start || end > text.length) throw new Error(`xlsx: edit ${start}..${end} overlaps another or lies outside the text`);
    if (start > this.at) this.write(text.slice(this.at, start));
    this.at = end;
    this.edited = true;
  }

  write(piece: string): void {
    // A byte per UTF-16 unit at least; what does not fit gets the room it may need, three bytes a unit.
    this.room(piece.length);
    const { read, written } = UTF8.encodeInto(piece, this.bytes.subarray(this.size));
    this.size += written;
    if (read < piece.length) {
      this.room(3 * (piece.length - read));
      this.size += UTF8.encodeInto(piece.slice(read), this.bytes.subarray(this.size)).written;
    }
  }

  /**
   * Writes text as an element's content: OOXML's escapes (escapeOoxml), then XML's (escapeXmlText). Most text needs
   * neither but for '&', '<', '>' and CR, which are escaped in its bytes; the rest takes the way through strings.
   */
  writeText(value: string): void {
    const from = this.size;
    this.write(value);
    const { bytes } = this;
    const end = this.size;
    let escapes = 0;
    let first = end;
    for (let i = from; i < end; i++) {
      const b = bytes[i]!;
      if (b >= 0x40) {
        // '_x' may start an OOXML escape; EF BF BE and EF BF BF are U+FFFE and U+FFFF, which XML cannot carry.
        if ((b === 0x5f && i + 1 < end && bytes[i + 1] === 0x78) || (b === 0xef && i + 2 < end && bytes[i + 1] === 0xbf && bytes[i + 2]! >= 0xbe)) {
          this.size = from;
          return this.write(escapeXmlText(escapeOoxml(value)));
        }
        continue;
      }
      if (b === 0x26 || b === 0x3c || b === 0x3e || b === 0x0d) {
        if (escapes++ === 0) first = i;
      } else if (b < 0x20 && b !== 0x09 && b !== 0x0a) {
        this.size = from;
        return this.write(escapeXmlText(escapeOoxml(value)));
      }
    }
    // Unpaired surrogates are written as U+FFFD, as escapeXmlText writes them.
    if (escapes === 0) return;
    // Each escape takes at most four bytes more: the bytes from the first move up, and are copied back down escaped.
    const shift = 4 * escapes;
    this.room(shift);
    const out = this.bytes;
    out.copyWithin(first + shift, first, end);
    let to = first;
    for (let i = first + shift; i < end + shift; i++) {
      const b = out[i]!;
      if (b === 0x26) to = put(out, to, AMP);
      else if (b === 0x3c) to = put(out, to, LT);
      else if (b === 0x3e) to = put(out, to, GT);
      else if (b === 0x0d) to = put(out, to, CR);
      else out[to++] = b;
    }
    this.size = to;
  }

  /** Makes room for `more` bytes past the end. */
  private room(more: number): void {
    if (this.bytes.length - this.size >= more) return;
    const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.size + more));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }

  /** The whole part, the rest of the source included, encoded as the source part was. */
  encode(): Uint8Array {
    const { text, bom, encoding } = this.part;
    if (this.at < text.length) this.write(text.slice(this.at));
    this.at = text.length;
    const bytes = this.bytes.subarray(0, this.size);
    return encoding === 'utf-8' ? bytes : encodeXml(UTF8_TEXT.decode(bytes), bom, encoding);
  }
}

const UTF8_TEXT = new TextDecoder('utf-8', { ignoreBOM: true });
const AMP = UTF8.encode('&amp;');
const LT = UTF8.encode('&lt;');
const GT = UTF8.encode('&gt;');
const CR = UTF8.encode('&#13;');

/** Writes `piece` into `out` at `at`, returning where it ends. */
function put(out: Uint8Array, at: number, piece: Uint8Array): number {
  for (let k = 0; k < piece.length; k++) out[at + k] = piece[k]!;
  return at + piece.length;
}


const SPACE = /\s/;

/** Whether a character is whitespace as /\s/ reads it. */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return SPACE.test(String.fromCharCode(c));
}

/** Whether a `t` element needs `xml:space`, to keep edge whitespace and line ends from being trimmed by spreadsheet apps. */
function preservesSpace(value: string): boolean {
  // Only the edge characters are tested: a pattern anchored at the end would try every position of the value.
  return (value !== '' && (isSpace(value.charCodeAt(0)) || isSpace(value.charCodeAt(value.length - 1)))) || value.includes('\n');
}

/** A `t` element. */
function textElement(ns: string, value: string): string {
  const space = preservesSpace(value) ? ' xml:space="preserve"' : '';
  return `<${ns}t${space}>${escapeXmlText(escapeOoxml(value))}</${ns}t>`;
}

const SPANS = /^(\d+):(\d+)$/;

/** Writes a plan into the worksheet (and the shared strings), returning the changed parts encoded. */
function applyPlan(book: Workbook, layout: TableLayout, plan: TablePlan, head: number): Map<string, Uint8Array> {
  const { sheet, strings } = book;
  const { grid } = sheet;
  const { text } = sheet.part;
  const { ns } = sheet;
  const out = new PartWriter(sheet.part);
  const known = new Map<string, number>();
  book.shared.forEach((s, i) => book.plain[i] && !known.has(s) && known.set(s, i));
  const added: string[] = [];
  let countDelta = 0;
  const sharedIndex = (value: string): number => {
    let index = known.get(value);
    if (index === undefined) {
      index = book.shared.length + added.length;
      added.push(value);
      known.set(value, index);
    }
    return index;
  };
  const likeColumn = textColumn(layout.source);
  // New elements take the prefix the sheet's own elements use (some writers bind the main namespace to `x:`).
  const cellOpen = `<${ns}c `;
  const inlineOpen = ` t="inlineStr"><${ns}is><${ns}t>`;
  const spacedInlineOpen = ` t="inlineStr"><${ns}is><${ns}t xml:space="preserve">`;
  const inlineClose = `</${ns}t></${ns}is></${ns}c>`;

  // Rows and cells are the grid's; a replaced cell is -1 for a new one.
  const writeCell = (row: number, column: number, value: string, replaced: number): void => {
    let attributes: string;
    let styled: boolean;
    if (replaced >= 0) {
      const kept = cellAttributes(text, grid, replaced)
        .filter((a) => a.name !== 't')
        .map((a) => text.slice(a.start, a.end));
      attributes = kept.join(' ');
      styled = kept.some((a) => a.startsWith('s='));
    } else {
      const like = grid.find(row, likeColumn);
      const style = like >= 0 ? cellAttribute(text, grid, like, 's') : undefined;
      const line = grid.line(row);
      attributes = style ? `r="${columnName(column)}${line}" s="${escapeXmlAttribute(style.value, '"')}"` : `r="${columnName(column)}${line}"`;
      styled = style !== undefined;
    }
    if (value === '') {
      if (styled) out.write(`${cellOpen}${attributes}/>`);
      return;
    }
    if (strings && !(replaced >= 0 && grid.isInline(replaced))) {
      countDelta++;
      out.write(`${cellOpen}${attributes} t="s"><${ns}v>${sharedIndex(value)}</${ns}v></${ns}c>`);
      return;
    }
    out.write(`${cellOpen}${attributes}${preservesSpace(value) ? spacedInlineOpen : inlineOpen}`);
    out.writeText(value);
    out.write(inlineClose);
  };

  const rewrite = (row: number, cells: readonly (string | undefined)[]): void => {
    // A `spans` to widen sits in the row's start tag, before its cells: it is written first.
    let widest = -1;
    for (let column = 0; column < cells.length; column++) {
      const value = cells[column];
      if (value !== undefined && value !== '' && grid.find(row, column) < 0) widest = column;
    }
    if (widest >= 0) {
      const spans = rowAttribute(text, grid, row, 'spans');
      const range = spans && SPANS.exec(spans.value);
      if (range && widest + 1 > Number(range[2])) {
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
        if (grid.counted(existing)) countDelta--;
        out.replace(grid.cellStartOf(existing), grid.cellEndOf(existing));
        writeCell(row, column, value, existing);
        continue;
      }
      if (value === '') continue;
      let next = -1;
      for (let c = grid.first(row); c < grid.first(row + 1) && next < 0; c++) if (grid.column(c) > column) next = c;
      if (next < 0 && grid.closeStart(row) === grid.end(row)) throw new Error('xlsx: a row without cells cannot hold an entry');
      const at = next >= 0 ? grid.cellStartOf(next) : grid.closeStart(row);
      out.replace(at, at);
      writeCell(row, column, value, -1);
    }
  };

  // <dimension> comes before <sheetData> (or, in an odd file, after it): its edit goes before or after the rows'.
  const ref = sheet.dimension;
  const bounds = ref && /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(ref.value);
  const widen = (): void => {
    const last = Math.max(columnIndex(bounds![3] ?? bounds![1]!), layout.width + plan.added.length - 1);
    out.replace(ref!.valueStart, ref!.valueEnd);
    out.write(`${bounds![1]}${bounds![2]}:${columnName(last)}${bounds![4] ?? bounds![2]}`);
  };
  const dimension = plan.added.length > 0 && bounds !== undefined && bounds !== null;
  if (dimension && ref!.valueStart < grid.start(head)) widen();
  if (plan.added.length > 0) rewrite(head, addedHeaders(layout, plan));
  // Rows in document order (the plan lists them in the order it met them).
  const indices = [...plan.rows.keys()];
  if (indices.some((index, i) => i > 0 && index < indices[i - 1]!)) indices.sort((a, b) => a - b);
  for (const index of indices) {
    const rowEdit = plan.rows.get(index)!;
    const row = head + 1 + index;
    if (rowEdit.remove) {
      for (let c = grid.first(row); c < grid.first(row + 1); c++) if (grid.counted(c)) countDelta--;
      out.replace(grid.start(row), grid.end(row));
    } else {
      rewrite(row, rowEdit.cells);
    }
  }
  if (dimension && ref!.valueStart >= grid.start(head)) widen();

  const parts = new Map<string, Uint8Array>();
  if (out.edited) parts.set(sheet.part.path, out.encode());
  if (strings && (added.length > 0 || countDelta !== 0)) parts.set(strings.part.path, appendSharedStrings(strings, added, countDelta));
  return parts;
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
  const itemOpen = `<${ns}si>`;
  const itemClose = `</${ns}si>`;
  const textOpen = `<${ns}t>`;
  const spacedTextOpen = `<${ns}t xml:space="preserve">`;
  const textClose = `</${ns}t>`;
  for (const value of added) {
    out.write(itemOpen);
    out.write(preservesSpace(value) ? spacedTextOpen : textOpen);
    out.writeText(value);
    out.write(textClose);
    out.write(itemClose);
  }
  if (selfClosing) out.write(`</${sst.name}>`);
  return out.encode();
}

function renderWorkbook(input: RenderInput): Uint8Array {
  const book = readWorkbook(input.source);
  const table = toTable(book);
  const layout = readLayout(table.header, xlsxDialect, input.sourceLocale ?? 'en');
  const entries = readEntries(layout, table.data, xlsxDialect);
  const plan = planRender(layout, table.data, entries, input, xlsxDialect);
  if (!plan.changed) return input.source.slice();
  const parts = applyPlan(book, layout, plan, table.head);
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
export function parseXlsx(bytes: Uint8Array, locale = 'en'): Entry[] {
  const table = toTable(readWorkbook(bytes));
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

  parse(bytes: Uint8Array): Entry[] {
    return parseXlsx(bytes);
  },

  render: renderWorkbook,

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    const rows = [['key', options?.locale ?? 'en'], ...dedupe(entries).map((e) => [e.key, freshCell(e.value)])];
    return freshWorkbook(rows);
  },
};
