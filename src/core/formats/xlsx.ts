// The `xlsx` codec: the first worksheet of an Excel workbook as a table, with only changed cells rewritten and re-zipped.
import * as zlib from 'node:zlib';
import { unzipSync, type Unzipped } from 'fflate';
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
import {
  attribute,
  decodeXml,
  encodeXml,
  escapeXmlAttribute,
  escapeXmlText,
  scanXml,
  splice,
  textContent,
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
// Zip container

const fail = (message: string): never => {
  throw new FileUnparsableError(`${message} at line 1, column 1`, 1, 1);
};

function unzip(bytes: Uint8Array): Unzipped {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) fail('Expected an .xlsx workbook (a ZIP archive starting with "PK")');
  try {
    // Only the XML parts are needed; images and other media stay compressed.
    return unzipSync(bytes, { filter: (file) => /\.(?:xml|rels)$/i.test(file.name) });
  } catch (error) {
    return fail(`Expected an .xlsx workbook, but the ZIP archive is damaged (${(error as Error).message})`);
  }
}

interface CentralRecord {
  name: string;
  localOffset: number;
  /** The raw central directory record. */
  raw: Uint8Array;
}

interface CentralDirectory {
  records: CentralRecord[];
  offset: number;
  /** The raw end-of-central-directory record, comment included. */
  end: Uint8Array;
}

function readCentralDirectory(bytes: Uint8Array): CentralDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail('Expected an .xlsx workbook, but the ZIP archive has no central directory');
  const count = view.getUint16(eocd + 10, true);
  const offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff) fail('ZIP64 workbooks (over 4 GB or 65535 parts) are not supported');
  const records: CentralRecord[] = [];
  let at = offset;
  const names = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) fail('Expected an .xlsx workbook, but its ZIP central directory is damaged');
    const length = 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    records.push({
      name: names.decode(bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))),
      localOffset: view.getUint32(at + 42, true),
      raw: bytes.subarray(at, at + length),
    });
    at += length;
  }
  return { records, offset, end: bytes.subarray(eocd) };
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** zlib's own CRC-32 where Node has it (20.15 and later), else the table below. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

function crc32(data: Uint8Array): number {
  if (nativeCrc32) return nativeCrc32(data);
  let c = -1;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A local header (from a template's, or fresh) for a deflated entry; returns the header and the data. */
function localEntry(name: Uint8Array, data: Uint8Array, template?: Uint8Array): { header: Uint8Array; body: Uint8Array; crc: number } {
  // Node's zlib, native code: three to four times faster than deflating in JavaScript on a large sheet.
  const body: Uint8Array = zlib.deflateRawSync(data, { level: 6 });
  const header = new Uint8Array(30 + name.length);
  const view = new DataView(header.buffer);
  if (template) header.set(template.subarray(0, 30));
  else {
    view.setUint32(0, 0x04034b50, true);
    view.setUint16(12, 0x21, true); // 1980-01-01, so fresh files are reproducible
  }
  const crc = crc32(data);
  view.setUint16(4, Math.max(20, view.getUint16(4, true)), true);
  // Sizes are known up front, so no data descriptor follows (bit 3 off); UTF-8 names keep bit 11.
  view.setUint16(6, view.getUint16(6, true) & ~0x0008, true);
  view.setUint16(8, 8, true);
  view.setUint32(14, crc, true);
  view.setUint32(18, body.length, true);
  view.setUint32(22, data.length, true);
  view.setUint16(26, name.length, true);
  view.setUint16(28, 0, true);
  header.set(name, 30);
  return { header, body, crc };
}

/** Rebuilds the archive with some entries replaced; every other entry's bytes (headers, data, descriptors) are copied. */
/**
 * A plain Uint8Array of its own: a subclass such as Node's Buffer may be a view into a shared pool, and its `slice`
 * returns a view, which would put the DataViews below at the wrong offsets.
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes);
}

function rezip(input: Uint8Array, replacements: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const bytes = ownBytes(input);
  const dir = readCentralDirectory(bytes);
  const byOffset = [...dir.records].sort((a, b) => a.localOffset - b.localOffset);
  const parts: Uint8Array[] = [bytes.subarray(0, byOffset[0]?.localOffset ?? dir.offset)];
  let size = parts[0]!.length;
  const moved = new Map<CentralRecord, { offset: number; crc?: number; compressed?: number; length?: number }>();
  byOffset.forEach((record, i) => {
    const end = byOffset[i + 1]?.localOffset ?? dir.offset;
    const data = replacements.get(record.name);
    if (!data) {
      moved.set(record, { offset: size });
      parts.push(bytes.subarray(record.localOffset, end));
      size += end - record.localOffset;
      return;
    }
    const nameLength = new DataView(bytes.buffer, bytes.byteOffset + record.localOffset).getUint16(26, true);
    const name = bytes.subarray(record.localOffset + 30, record.localOffset + 30 + nameLength);
    const { header, body, crc } = localEntry(name, data, bytes.subarray(record.localOffset));
    moved.set(record, { offset: size, crc, compressed: body.length, length: data.length });
    parts.push(header, body);
    size += header.length + body.length;
  });
  const directoryStart = size;
  for (const record of dir.records) {
    const raw = record.raw.slice();
    const view = new DataView(raw.buffer);
    const m = moved.get(record)!;
    view.setUint32(42, m.offset, true);
    if (m.crc !== undefined) {
      view.setUint16(8, view.getUint16(8, true) & ~0x0008, true);
      view.setUint16(10, 8, true);
      view.setUint32(16, m.crc, true);
      view.setUint32(20, m.compressed!, true);
      view.setUint32(24, m.length!, true);
    }
    parts.push(raw);
    size += raw.length;
  }
  const end = dir.end.slice();
  const endView = new DataView(end.buffer);
  endView.setUint32(12, size - directoryStart, true);
  endView.setUint32(16, directoryStart, true);
  parts.push(end);
  return concat(parts);
}

/** A new archive of the given files, deflated, in order. */
function zip(files: readonly [string, string][]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let size = 0;
  for (const [path, text] of files) {
    const name = new TextEncoder().encode(path);
    const data = new TextEncoder().encode(text);
    const { header, body, crc } = localEntry(name, data);
    const record = new Uint8Array(46 + name.length);
    const view = new DataView(record.buffer);
    view.setUint32(0, 0x02014b50, true);
    view.setUint16(4, 20, true);
    view.setUint16(6, 20, true);
    view.setUint16(10, 8, true);
    view.setUint16(14, 0x21, true);
    view.setUint32(16, crc, true);
    view.setUint32(20, body.length, true);
    view.setUint32(24, data.length, true);
    view.setUint16(28, name.length, true);
    view.setUint32(42, size, true);
    record.set(name, 46);
    central.push(record);
    parts.push(header, body);
    size += header.length + body.length;
  }
  const directory = concat(central);
  const end = new Uint8Array(22);
  const view = new DataView(end.buffer);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, files.length, true);
  view.setUint16(10, files.length, true);
  view.setUint32(12, directory.length, true);
  view.setUint32(16, size, true);
  return concat([...parts, directory, end]);
}

// ---------------------------------------------------------------------------------------------------------------
// Workbook parts

interface Part {
  path: string;
  text: string;
  bom: boolean;
  encoding: XmlEncoding;
  doc: XmlDocument;
}

function readPart(files: Unzipped, path: string): Part {
  const bytes = files[path];
  if (!bytes) return fail(`Expected the workbook part ${path}, which the package's relationships name, but it is missing`);
  try {
    const { text, bom, encoding } = decodeXml(bytes);
    return { path, text, bom, encoding, doc: scanXml(text) };
  } catch (error) {
    if (error instanceof FileUnparsableError) throw new FileUnparsableError(`In ${path}: ${error.message}`, error.line, error.column);
    throw error;
  }
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);
const children = (el: XmlElement, name: string): XmlElement[] => el.children.filter((n): n is XmlElement => n.kind === 'element' && localName(n.name) === name);
const child = (el: XmlElement, name: string): XmlElement | undefined => children(el, name)[0];

function partError(part: Part, message: string, at: { line: number; column: number }): FileUnparsableError {
  return new FileUnparsableError(`In ${part.path}: ${message} at line ${at.line}, column ${at.column}`, at.line, at.column);
}

function expectRoot(part: Part, name: string): XmlElement {
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

/** OOXML writes characters XML cannot carry as `_xHHHH_` (and a literal `_xHHHH_` with its '_' as `_x005F_`). */
function unescapeOoxml(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

// Control characters XML 1.0 cannot carry even as references; Excel writes them as `_xHHHH_`.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function escapeOoxml(text: string): string {
  return text
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(XML_FORBIDDEN, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}

/** The text of a string item or inline string: its `t`, or its rich-text runs' `t`s; phonetic runs are not text. */
function richText(el: XmlElement): string {
  let out = '';
  for (const node of el.children) {
    if (node.kind !== 'element') continue;
    const name = localName(node.name);
    if (name === 't') out += textContent(node);
    else if (name === 'r') for (const t of children(node, 't')) out += textContent(t);
  }
  return unescapeOoxml(out);
}

const COLUMN_REF = /^([A-Z]{1,3})([1-9][0-9]*)$/;

function columnIndex(letters: string): number {
  let n = 0;
  for (const c of letters) n = n * 26 + (c.charCodeAt(0) - 64);
  return n - 1;
}

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

interface SheetCell {
  el: XmlElement;
  /** 0-based. */
  column: number;
  type: string;
  text: string;
}

interface SheetRow {
  el: XmlElement;
  /** 1-based, as in the `r` attribute. */
  number: number;
  cells: SheetCell[];
}

interface Workbook {
  files: Unzipped;
  sheet: Part;
  worksheet: XmlElement;
  strings?: Part;
  /** Shared string items, decoded. */
  shared: string[];
  /** Whether each item is plain text (one `t`), so a new cell may reuse it without taking on rich formatting. */
  plain: boolean[];
  rows: SheetRow[];
}

const WORKSHEET_TYPE = /\/worksheet$/;
const SHARED_STRINGS_TYPE = /\/sharedStrings$/;
const OFFICE_DOCUMENT_TYPE = /\/officeDocument$/;

function readWorkbook(input: Uint8Array): Workbook {
  const files = unzip(ownBytes(input));
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
  const strings = stringsPath && files[stringsPath] ? readPart(files, stringsPath) : undefined;
  const items = strings ? children(expectRoot(strings, 'sst'), 'si') : [];
  const shared = items.map(richText);
  const plain = items.map((si) => si.children.every((n) => n.kind !== 'element' || localName(n.name) === 't'));
  const sheet = readPart(files, sheetRel.target);
  const worksheet = expectRoot(sheet, 'worksheet');
  const rows: SheetRow[] = [];
  const data = child(worksheet, 'sheetData');
  let previousRow = 0;
  for (const rowEl of data ? children(data, 'row') : []) {
    const r = attribute(rowEl, 'r')?.value;
    const number = r === undefined ? previousRow + 1 : Number(r);
    if (!Number.isInteger(number) || number <= previousRow) throw partError(sheet, `Expected rows in ascending order with numeric r attributes, found r=${JSON.stringify(r)}`, rowEl);
    previousRow = number;
    const cells: SheetCell[] = [];
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
      cells.push({ el: cellEl, column, ...readCell(sheet, cellEl, shared) });
    }
    rows.push({ el: rowEl, number, cells });
  }
  return { files, sheet, worksheet, ...(strings ? { strings } : {}), shared, plain, rows };
}

function readCell(sheet: Part, el: XmlElement, shared: readonly string[]): { type: string; text: string } {
  const type = attribute(el, 't')?.value ?? 'n';
  if (type === 'inlineStr') {
    const is = child(el, 'is');
    return { type, text: is ? richText(is) : '' };
  }
  const v = child(el, 'v');
  const raw = v ? textContent(v) : '';
  if (type === 's' && v) {
    const text = /^\d+$/.test(raw.trim()) ? shared[Number(raw.trim())] : undefined;
    if (text === undefined) throw partError(sheet, `Expected a shared string index below ${shared.length}, found ${JSON.stringify(raw)}`, v);
    return { type, text };
  }
  if (type === 'b') return { type, text: raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw };
  return { type, text: type === 'str' ? unescapeOoxml(raw) : raw };
}

/** The sheet as a table: the first non-empty row is the header; cells are positioned by sheet row and column. */
function toTable(book: Workbook): { header: SheetRow; headerRow: TableRow; data: SheetRow[]; rows: TableRow[] } {
  const toRow = (row: SheetRow): TableRow => {
    const cells: TableRow['cells'][number][] = [];
    for (const cell of row.cells) cells[cell.column] = { value: cell.text, line: row.number, column: cell.column + 1 };
    return { cells, line: row.number, column: 1 };
  };
  const start = book.rows.findIndex((r) => r.cells.some((c) => c.text !== ''));
  if (start < 0) return fail('The first worksheet is empty; expected a header row (e.g. key, en)');
  const header = book.rows[start]!;
  const data = book.rows.slice(start + 1);
  return { header, headerRow: toRow(header), data, rows: data.map(toRow) };
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering

/** Writes a plan into the worksheet (and the shared strings), returning the changed parts' new text. */
function applyPlan(book: Workbook, layout: TableLayout, plan: TablePlan, header: SheetRow, data: readonly SheetRow[]): Map<string, string> {
  const { sheet, strings } = book;
  const text = sheet.text;
  const edits: { start: number; end: number; text: string }[] = [];
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
  const ns = prefixOf(child(book.worksheet, 'sheetData') ?? book.worksheet);
  const markup = (row: SheetRow, column: number, value: string, replaced: SheetCell | undefined): string => {
    const attributes = replaced
      ? replaced.el.attributes.filter((a) => a.name !== 't').map((a) => text.slice(a.start, a.end))
      : [`r="${columnName(column)}${row.number}"`, ...styleOf(row.cells.find((c) => c.column === likeColumn))];
    if (value === '') return attributes.some((a) => a.startsWith('s=')) ? `<${ns}c ${attributes.join(' ')}/>` : '';
    if (strings && replaced?.type !== 'inlineStr') {
      countDelta++;
      return `<${ns}c ${attributes.join(' ')} t="s"><${ns}v>${sharedIndex(value)}</${ns}v></${ns}c>`;
    }
    return `<${ns}c ${attributes.join(' ')} t="inlineStr"><${ns}is>${textElement(ns, value)}</${ns}is></${ns}c>`;
  };

  const rewrite = (row: SheetRow, cells: readonly (string | undefined)[]): void => {
    let widest = -1;
    for (let column = 0; column < cells.length; column++) {
      const value = cells[column];
      if (value === undefined) continue;
      const existing = row.cells.find((c) => c.column === column);
      if (existing) {
        if (existing.text === value) continue;
        if (countsShared(existing)) countDelta--;
        edits.push({ start: existing.el.start, end: existing.el.end, text: markup(row, column, value, existing) });
        continue;
      }
      if (value === '') continue;
      const next = row.cells.find((c) => c.column > column);
      if (!next && row.el.selfClosing) throw new Error('xlsx: a row without cells cannot hold an entry');
      const at = next ? next.el.start : row.el.closeStart;
      edits.push({ start: at, end: at, text: markup(row, column, value, undefined) });
      widest = Math.max(widest, column);
    }
    const spans = attribute(row.el, 'spans');
    const range = spans && /^(\d+):(\d+)$/.exec(spans.value);
    if (range && widest + 1 > Number(range[2])) edits.push({ start: spans.valueStart, end: spans.valueEnd, text: `${range[1]}:${widest + 1}` });
  };

  if (plan.added.length > 0) rewrite(header, addedHeaders(layout, plan));
  for (const [index, rowEdit] of plan.rows) {
    const row = data[index]!;
    if (rowEdit.remove) {
      countDelta -= row.cells.filter(countsShared).length;
      edits.push({ start: row.el.start, end: row.el.end, text: '' });
    } else {
      rewrite(row, rowEdit.cells);
    }
  }
  const dimension = child(book.worksheet, 'dimension');
  const ref = dimension && attribute(dimension, 'ref');
  const bounds = ref && /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(ref.value);
  if (plan.added.length > 0 && ref && bounds) {
    const last = Math.max(columnIndex(bounds[3] ?? bounds[1]!), layout.width + plan.added.length - 1);
    edits.push({ start: ref.valueStart, end: ref.valueEnd, text: `${bounds[1]}${bounds[2]}:${columnName(last)}${bounds[4] ?? bounds[2]}` });
  }
  const out = new Map<string, string>();
  if (edits.length > 0) out.set(sheet.path, splice(text, edits));
  if (strings && (added.length > 0 || countDelta !== 0)) out.set(strings.path, appendSharedStrings(strings, added, countDelta));
  return out;
}

/** Whether a cell is one of the shared string table's `count` (a shared string cell with a value). */
function countsShared(cell: SheetCell): boolean {
  return cell.type === 's' && child(cell.el, 'v') !== undefined;
}

function prefixOf(el: XmlElement): string {
  const colon = el.name.indexOf(':');
  return colon < 0 ? '' : el.name.slice(0, colon + 1);
}

/** A `t` element; `xml:space` keeps edge whitespace and line ends from being trimmed by spreadsheet apps. */
function textElement(ns: string, value: string): string {
  const space = /^\s|\s$|\n/.test(value) ? ' xml:space="preserve"' : '';
  return `<${ns}t${space}>${escapeXmlText(escapeOoxml(value))}</${ns}t>`;
}

function styleOf(cell: SheetCell | undefined): string[] {
  const style = cell && attribute(cell.el, 's');
  return style ? [`s="${escapeXmlAttribute(style.value, '"')}"`] : [];
}

/** Appends string items and keeps the table's `count` (cells using it) and `uniqueCount` (items) attributes true. */
function appendSharedStrings(part: Part, added: readonly string[], countDelta: number): string {
  const sst = part.doc.root;
  const ns = prefixOf(sst);
  const items = added.map((value) => `<${ns}si>${textElement(ns, value)}</${ns}si>`).join('');
  const edits: { start: number; end: number; text: string }[] = [];
  const bump = (name: string, by: number): void => {
    const attr = attribute(sst, name);
    if (attr && by !== 0 && /^\d+$/.test(attr.value)) edits.push({ start: attr.valueStart, end: attr.valueEnd, text: String(Math.max(0, Number(attr.value) + by)) });
  };
  bump('count', countDelta);
  bump('uniqueCount', added.length);
  if (sst.selfClosing) {
    const tag = splice(
      part.text.slice(sst.start, sst.end),
      edits.map((e) => ({ ...e, start: e.start - sst.start, end: e.end - sst.start })),
    );
    return part.text.slice(0, sst.start) + tag.replace(/\s*\/>$/, `>${items}</${sst.name}>`) + part.text.slice(sst.end);
  }
  if (items) edits.push({ start: sst.closeStart, end: sst.closeStart, text: items });
  return splice(part.text, edits);
}

function renderWorkbook(input: RenderInput): Uint8Array {
  const book = readWorkbook(input.source);
  const table = toTable(book);
  const layout = readLayout(table.headerRow, xlsxDialect, input.sourceLocale ?? 'en');
  const entries = readEntries(layout, table.rows, xlsxDialect);
  const plan = planRender(layout, table.rows, entries, input, xlsxDialect);
  if (!plan.changed) return input.source.slice();
  const parts = applyPlan(book, layout, plan, table.header, table.data);
  if (parts.size === 0) return input.source.slice();
  const encoded = new Map<string, Uint8Array>();
  for (const [path, text] of parts) {
    const part = path === book.sheet.path ? book.sheet : book.strings!;
    encoded.set(path, encodeXml(text, part.bom, part.encoding));
  }
  return rezip(input.source, encoded);
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
  const layout = readLayout(table.headerRow, xlsxDialect, locale);
  return readEntries(layout, table.rows, xlsxDialect).map((e) => e.entry);
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
