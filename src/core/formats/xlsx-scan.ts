// The xlsx codec's fast path through a workbook's two large parts: the worksheet's <sheetData> and the shared string table.
import type { TableCell, TableRow } from './csv.js';
import { decodePredefined, type XmlAttribute, type XmlElement } from './xml-scan.js';

/*
 * A workbook of 50,000 rows holds ten megabytes of sheet XML; the shared XML scanner builds a node for every row, cell,
 * value and text run of it, and collecting them costs more than reading. This scanner walks the content of <sheetData>
 * (or <sst>) once and keeps only the rows and cells. It takes a narrow form of XML: elements, attributes, text with
 * the five built-in entities and character references. Anything else returns undefined, and the codec scans the part
 * with the shared scanner instead: comments, CDATA, processing instructions, other entities, CRs, characters XML
 * forbids, names beyond ASCII, namespace declarations, attribute values holding a reference, a tab or a line end
 * (so a value's raw text is what a parser reads), anything not well-formed, and any sheet the codec would reject (rows
 * or cells out of order, a bad shared string index). Whatever it accepts, the shared scanner reads the same way, and
 * every error is still reported by the shared scanner, with its position.
 */

/** A cell of the sheet, which is also the table's cell: line and column are the sheet's row and (1-based) column. */
export interface SheetCell extends TableCell {
  start: number;
  end: number;
  /** The `t` attribute, 'n' when absent. */
  type: string;
  /** Whether it is one of the shared string table's `count`: a shared string cell with a <v>. */
  counted: boolean;
  /** The element, when the shared scanner read the sheet. */
  el: XmlElement | undefined;
}

/** A row of the sheet, which is also the table's row: line is the sheet's row number. */
export interface SheetRow extends TableRow {
  /** By 0-based column, sparse where the sheet leaves cells out. */
  cells: (SheetCell | undefined)[];
  start: number;
  end: number;
  /** At '</row>', or equal to `end` when the row is self-closing. */
  closeStart: number;
  /** The element, when the shared scanner read the sheet. */
  el: XmlElement | undefined;
}

/** OOXML writes characters XML cannot carry as `_xHHHH_` (and a literal `_xHHHH_` with its '_' as `_x005F_`). */
export function unescapeOoxml(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

/** A cell's text from its type and content, or undefined for a shared string index outside the table. */
export function cellText(type: string, value: string | undefined, inline: string | undefined, shared: readonly string[]): string | undefined {
  if (type === 'inlineStr') return inline === undefined ? '' : unescapeOoxml(inline);
  const raw = value ?? '';
  if (type === 's' && value !== undefined) {
    const index = raw.trim();
    return /^\d+$/.test(index) ? shared[Number(index)] : undefined;
  }
  if (type === 'b') return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
  return type === 'str' ? unescapeOoxml(raw) : raw;
}

/** 0-based column of a reference's letters. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const c of letters) n = n * 26 + (c.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * The attributes of a start tag at `start` that the fast scanner took, values as they stand: the scanner takes no
 * value a parser would read differently (references, tabs and line ends).
 */
export function tagAttributes(text: string, start: number): XmlAttribute[] {
  const out: XmlAttribute[] = [];
  for (let at = skipTagName(text, start); (at = nextAttribute(text, at)) >= 0; ) out.push(foundAttribute(text, at));
  return out;
}

/** The attribute named `name` of a start tag the fast scanner took (see tagAttributes). */
export function tagAttribute(text: string, start: number, name: string): XmlAttribute | undefined {
  for (let at = skipTagName(text, start); (at = nextAttribute(text, at)) >= 0; ) {
    if (found.nameEnd - found.nameStart === name.length && text.startsWith(name, found.nameStart)) return foundAttribute(text, at);
  }
  return undefined;
}

/** Offsets of the attribute nextAttribute stepped over last. */
const found = { nameStart: 0, nameEnd: 0, valueStart: 0, valueEnd: 0 };

function skipTagName(text: string, start: number): number {
  let at = start + 1;
  for (let c = text.charCodeAt(at); !isTagSpace(c) && c !== 0x3e && c !== 0x2f; c = text.charCodeAt(++at));
  return at;
}

/** Steps over the attribute at or after `at` in a well-formed start tag, returning where it ends, or -1 at the tag's end. */
function nextAttribute(text: string, at: number): number {
  while (isTagSpace(text.charCodeAt(at))) at++;
  const c = text.charCodeAt(at);
  if (c === 0x3e || c === 0x2f || at >= text.length) return -1;
  found.nameStart = at;
  while (!isTagSpace(text.charCodeAt(at)) && text.charCodeAt(at) !== 0x3d) at++;
  found.nameEnd = at;
  while (text.charCodeAt(at) !== 0x22 && text.charCodeAt(at) !== 0x27) at++;
  found.valueStart = at + 1;
  found.valueEnd = text.indexOf(text[at]!, at + 1);
  return found.valueEnd + 1;
}

function foundAttribute(text: string, end: number): XmlAttribute {
  const { nameStart, nameEnd, valueStart, valueEnd } = found;
  const quote = text[valueEnd] === '"' ? '"' : "'";
  return { name: text.slice(nameStart, nameEnd), value: text.slice(valueStart, valueEnd), start: nameStart, end, valueStart, valueEnd, quote };
}

function isTagSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens

const FAIL = 0;
const END = 1;
const OPEN = 2;
const CLOSE = 3;
const TEXT = 4;

// Characters the scanner leaves to the shared one: those XML forbids, and CR (which a parser turns into a line feed).
// Decoded text never holds an unpaired surrogate (decodeXml rejects them), so they need no check here.
// eslint-disable-next-line no-control-regex
const UNUSUAL = /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/g;

const MAX_ATTRIBUTES = 32;
// Far below the shared scanner's limit, counting the part's own elements around the content.
const MAX_DEPTH = 64;

const KNOWN_TYPES = ['s', 'n', 'inlineStr', 'str', 'b', 'e', 'd'];

/** Start tags, end tags and text runs of a content range, with positions; no node objects. */
class ContentScanner {
  pos: number;
  /** The current start tag. */
  tagStart = 0;
  nameStart = 0;
  nameEnd = 0;
  /** Just past the prefix's colon, or the name's start. */
  localStart = 0;
  /** The first colon of the name scanned last, or -1. */
  private colon = -1;
  selfClosing = false;
  attributes = 0;
  readonly attributeNameStart = new Int32Array(MAX_ATTRIBUTES);
  readonly attributeNameEnd = new Int32Array(MAX_ATTRIBUTES);
  readonly valueStart = new Int32Array(MAX_ATTRIBUTES);
  readonly valueEnd = new Int32Array(MAX_ATTRIBUTES);
  /** The current text run. */
  textStart = 0;
  textEnd = 0;
  references = false;
  /** Open elements' names, as start and end offsets. */
  private readonly open = new Int32Array(2 * MAX_DEPTH);
  depth = 0;
  /** The next '&' at or after the cursor (or -1 before the first search). */
  private nextAmp = -1;

  constructor(
    readonly text: string,
    from: number,
    private readonly limit: number,
    /** Namespace prefixes declared on the elements around the content. */
    private readonly prefixes: readonly string[],
  ) {
    this.pos = from;
  }

  /** Whether the range holds nothing the scanner leaves to the shared one before reading a single tag. */
  plain(): boolean {
    const t = this.text;
    UNUSUAL.lastIndex = this.pos;
    const unusual = UNUSUAL.exec(t);
    if (unusual && unusual.index < this.limit) return false;
    const cdataEnd = t.indexOf(']]>', this.pos);
    return cdataEnd < 0 || cdataEnd >= this.limit;
  }

  next(): number {
    const t = this.text;
    const pos = this.pos;
    if (pos >= this.limit) return this.depth === 0 && pos === this.limit ? END : FAIL;
    if (t.charCodeAt(pos) !== 0x3c /* < */) return this.scanText(pos);
    const c = t.charCodeAt(pos + 1);
    if (c === 0x2f /* / */) return this.scanEndTag(pos);
    if (c === 0x21 /* ! */ || c === 0x3f /* ? */) return FAIL;
    return this.scanStartTag(pos);
  }

  private scanText(pos: number): number {
    let lt = this.text.indexOf('<', pos);
    if (lt < 0 || lt > this.limit) lt = this.limit;
    if (!this.takeText(pos, lt)) return FAIL;
    this.pos = lt;
    return TEXT;
  }

  /** Makes the text from `start` to `end` the current text run, or returns false for a reference it leaves alone. */
  private takeText(start: number, end: number): boolean {
    let amp = this.nextAmp;
    if (amp < start && amp !== -2) amp = this.findAmp(start);
    this.references = false;
    while (amp >= 0 && amp < end) {
      const length = referenceLength(this.text, amp);
      if (length === 0) return false;
      this.references = true;
      amp = this.findAmp(amp + length);
    }
    this.textStart = start;
    this.textEnd = end;
    return true;
  }

  /** The next '&' from `from`, remembered; -2 when there is none left. */
  private findAmp(from: number): number {
    const at = this.text.indexOf('&', from);
    this.nextAmp = at < 0 ? -2 : at;
    return this.nextAmp;
  }

  /** The current text run, references decoded. */
  textValue(): string {
    const t = this.text;
    const end = this.textEnd;
    if (!this.references) return t.slice(this.textStart, end);
    let out = '';
    let from = this.textStart;
    for (let amp = t.indexOf('&', from); amp >= 0 && amp < end; amp = t.indexOf('&', from)) {
      const length = referenceLength(t, amp);
      out += t.slice(from, amp) + decodeReference(t, amp, length);
      from = amp + length;
    }
    out += t.slice(from, end);
    // Flattened now, rather than kept as a chain of pieces until first read.
    out.charCodeAt(0);
    return out;
  }

  private scanEndTag(pos: number): number {
    const t = this.text;
    if (this.depth === 0) return FAIL;
    const start = this.open[2 * this.depth - 2]!;
    const length = this.open[2 * this.depth - 1]! - start;
    let at = pos + 2;
    for (let i = 0; i < length; i++) if (t.charCodeAt(at + i) !== t.charCodeAt(start + i)) return FAIL;
    at += length;
    at = skipSpace(t, at);
    if (t.charCodeAt(at) !== 0x3e /* > */ || at >= this.limit) return FAIL;
    this.pos = at + 1;
    this.depth--;
    return CLOSE;
  }

  private scanStartTag(pos: number): number {
    const t = this.text;
    this.tagStart = pos;
    const nameStart = pos + 1;
    const nameEnd = this.scanName(nameStart);
    if (nameEnd < 0) return FAIL;
    this.nameStart = nameStart;
    this.nameEnd = nameEnd;
    this.localStart = this.colon < 0 ? nameStart : this.colon + 1;
    let at = nameEnd;
    let count = 0;
    let selfClosing = false;
    for (;;) {
      const before = at;
      at = skipSpace(t, at);
      const c = t.charCodeAt(at);
      if (c === 0x3e /* > */) {
        at++;
        break;
      }
      if (c === 0x2f /* / */) {
        if (t.charCodeAt(at + 1) !== 0x3e) return FAIL;
        at += 2;
        selfClosing = true;
        break;
      }
      if (at === before || count === MAX_ATTRIBUTES) return FAIL;
      const attributeStart = at;
      const attributeEnd = this.scanName(at);
      if (attributeEnd < 0) return FAIL;
      // A namespace declaration would change what the names below it may use: left to the shared scanner.
      if (t.startsWith('xmlns:', attributeStart)) return FAIL;
      at = skipSpace(t, attributeEnd);
      if (t.charCodeAt(at) !== 0x3d /* = */) return FAIL;
      at = skipSpace(t, at + 1);
      const quote = t.charCodeAt(at);
      if (quote !== 0x22 && quote !== 0x27) return FAIL;
      const valueStart = at + 1;
      const valueEnd = t.indexOf(quote === 0x22 ? '"' : "'", valueStart);
      if (valueEnd < 0 || valueEnd >= this.limit) return FAIL;
      for (let i = valueStart; i < valueEnd; i++) {
        const v = t.charCodeAt(i);
        // '<' is not allowed; a reference or a literal tab or line end would make the read value differ from the raw.
        if (v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a) return FAIL;
      }
      for (let k = 0; k < count; k++) {
        if (sameRange(t, this.attributeNameStart[k]!, this.attributeNameEnd[k]!, attributeStart, attributeEnd)) return FAIL;
      }
      this.attributeNameStart[count] = attributeStart;
      this.attributeNameEnd[count] = attributeEnd;
      this.valueStart[count] = valueStart;
      this.valueEnd[count] = valueEnd;
      count++;
      at = valueEnd + 1;
    }
    if (at > this.limit) return FAIL;
    this.attributes = count;
    this.selfClosing = selfClosing;
    this.pos = at;
    if (!selfClosing) {
      if (this.depth === MAX_DEPTH) return FAIL;
      this.open[2 * this.depth] = nameStart;
      this.open[2 * this.depth + 1] = nameEnd;
      this.depth++;
    }
    return OPEN;
  }

  /**
   * The end of an ASCII name at `at`, or -1 where there is none, it goes on beyond ASCII, or it is not a qualified
   * name whose prefix is declared around the content (or is xml or xmlns).
   */
  private scanName(at: number): number {
    const t = this.text;
    const first = t.charCodeAt(at);
    if (!((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a) || first === 0x5f || first === 0x3a)) return -1;
    let end = at + 1;
    let colon = first === 0x3a ? at : -1;
    let colons = colon < 0 ? 0 : 1;
    let c = t.charCodeAt(end);
    while ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e) {
      if (c === 0x3a && colons++ === 0) colon = end;
      c = t.charCodeAt(++end);
    }
    this.colon = colon;
    if (c >= 0x80) return -1;
    return colons === 0 || (colons === 1 && colon > at && colon < end - 1 && this.declared(at, colon)) ? end : -1;
  }

  /** Whether the prefix from `start` to `colon` is declared around the content (or is xml or xmlns). */
  private declared(start: number, colon: number): boolean {
    const t = this.text;
    const length = colon - start;
    if ((length === 3 && t.startsWith('xml', start)) || (length === 5 && t.startsWith('xmlns', start))) return true;
    for (const prefix of this.prefixes) if (prefix.length === length && t.startsWith(prefix, start)) return true;
    return false;
  }

  /** Whether the current tag's local name is `name`. */
  isNamed(name: string): boolean {
    return this.nameEnd - this.localStart === name.length && this.text.startsWith(name, this.localStart);
  }

  /** Index of the current tag's attribute named exactly `name`, or -1. */
  attribute(name: string): number {
    for (let k = 0; k < this.attributes; k++) {
      const start = this.attributeNameStart[k]!;
      if (this.attributeNameEnd[k]! - start === name.length && this.text.startsWith(name, start)) return k;
    }
    return -1;
  }

  attributeValue(k: number): string {
    return this.text.slice(this.valueStart[k], this.valueEnd[k]);
  }
}

function skipSpace(t: string, at: number): number {
  let c = t.charCodeAt(at);
  while (c === 0x20 || c === 0x0a || c === 0x09) c = t.charCodeAt(++at);
  return at;
}

function sameRange(t: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (t.charCodeAt(aStart + i) !== t.charCodeAt(bStart + i)) return false;
  return true;
}

/**
 * The length of a built-in entity or character reference at `at` (the `&`), or 0 for anything else: other entities
 * and references to characters XML forbids are left to the shared scanner.
 */
function referenceLength(t: string, at: number): number {
  const c = t.charCodeAt(at + 1);
  if (c !== 0x23 /* # */) {
    if (c === 0x61 /* a */) return t.startsWith('mp;', at + 2) ? 5 : t.startsWith('pos;', at + 2) ? 6 : 0;
    if (c === 0x6c /* l */ || c === 0x67 /* g */) return t.charCodeAt(at + 2) === 0x74 && t.charCodeAt(at + 3) === 0x3b ? 4 : 0;
    if (c === 0x71 /* q */) return t.startsWith('uot;', at + 2) ? 6 : 0;
    return 0;
  }
  const hex = t.charCodeAt(at + 2) === 0x78; /* x */
  const digitsStart = at + (hex ? 3 : 2);
  let end = digitsStart;
  let code = 0;
  for (;;) {
    const d = t.charCodeAt(end);
    let value: number;
    if (d >= 0x30 && d <= 0x39) value = d - 0x30;
    else if (hex && ((d >= 0x41 && d <= 0x46) || (d >= 0x61 && d <= 0x66))) value = (d | 0x20) - 0x57;
    else break;
    code = code * (hex ? 16 : 10) + value;
    if (code > 0x10ffff) return 0;
    end++;
  }
  if (end === digitsStart || t.charCodeAt(end) !== 0x3b /* ; */) return 0;
  const allowed = code === 0x09 || code === 0x0a || code === 0x0d || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
  return allowed ? end + 1 - at : 0;
}

function decodeReference(t: string, at: number, length: number): string {
  if (t.charCodeAt(at + 1) !== 0x23 /* # */) return decodePredefined(t, at);
  const hex = t.charCodeAt(at + 2) === 0x78;
  return String.fromCodePoint(parseInt(t.slice(at + (hex ? 3 : 2), at + length - 1), hex ? 16 : 10));
}

// ---------------------------------------------------------------------------------------------------------------
// Parts

/**
 * The rows of a <sheetData> whose content is `text` from `from` to `to`, or undefined to leave the sheet to the shared
 * scanner. `prefixes` are the namespace prefixes declared on <sheetData> and its ancestors.
 */
export function scanSheetData(text: string, from: number, to: number, prefixes: readonly string[], shared: readonly string[]): SheetRow[] | undefined {
  const s = new ContentScanner(text, from, to, prefixes);
  if (!s.plain()) return undefined;
  const rows: SheetRow[] = [];
  let row: SheetRow | undefined;
  let previousRow = 0;
  let previousColumn = -1;
  // The open cell.
  let cellOpen = false;
  let cellStart = 0;
  let column = 0;
  let type = 'n';
  let value: string | undefined;
  let inline: string | undefined;
  // Text collected for the cell's first <v> (at depth 3 and below) or its first <is>'s <t> and <r><t> runs.
  let collecting = 0;
  let collectDepth = -1;
  let inIs = false;
  let inRun = false;
  // The open row's cells by column, and the columns they are at.
  const cells: (SheetCell | undefined)[] = [];
  const columns: number[] = [];
  let count = 0;

  for (;;) {
    const token = s.next();
    if (token === TEXT) {
      if (collectDepth >= 0) {
        if (collecting === 1) value = value === undefined ? s.textValue() : value + s.textValue();
        else inline = inline === undefined ? s.textValue() : inline + s.textValue();
      }
      continue;
    }
    if (token === OPEN) {
      // The element's depth within the content: rows at 0, cells at 1, a cell's children at 2.
      const depth = s.selfClosing ? s.depth : s.depth - 1;
      if (depth === 0) {
        if (!s.isNamed('row')) continue;
        const r = s.attribute('r');
        const number = r < 0 ? previousRow + 1 : rowNumber(s, r);
        if (!Number.isInteger(number) || number <= previousRow) return undefined;
        previousRow = number;
        previousColumn = -1;
        const next: SheetRow = { cells: [], line: number, column: 1, start: s.tagStart, end: s.pos, closeStart: s.pos, el: undefined };
        rows.push(next);
        row = s.selfClosing ? undefined : next;
      } else if (depth === 1) {
        if (!row || !s.isNamed('c')) continue;
        const r = s.attribute('r');
        if (r >= 0) {
          column = cellColumn(s, r, row.line);
          if (column < 0) return undefined;
        } else column = previousColumn + 1;
        if (column <= previousColumn) return undefined;
        previousColumn = column;
        const t = s.attribute('t');
        type = t < 0 ? 'n' : knownType(s, t);
        value = undefined;
        inline = undefined;
        cellStart = s.tagStart;
        cellOpen = true;
        inIs = false;
        if (s.selfClosing) {
          const cell = sheetCell(row, column, cellStart, s.pos, type, undefined, undefined, shared);
          if (!cell) return undefined;
          cells[column] = cell;
          columns[count++] = column;
          cellOpen = false;
        }
      } else if (cellOpen && collectDepth < 0) {
        if (depth === 2) {
          if (value === undefined && s.isNamed('v')) {
            value = '';
            collecting = 1;
            collectDepth = depth;
          } else if (inline === undefined && !inIs && s.isNamed('is')) {
            inline = '';
            inIs = !s.selfClosing;
          }
        } else if (inIs && depth === 3) {
          if (s.isNamed('t')) {
            collecting = 2;
            collectDepth = depth;
          } else inRun = s.isNamed('r') && !s.selfClosing;
        } else if (inRun && depth === 4 && s.isNamed('t')) {
          collecting = 2;
          collectDepth = depth;
        }
        if (s.selfClosing && collectDepth === depth) collectDepth = -1;
      }
      continue;
    }
    if (token === CLOSE) {
      // The closed element's depth.
      const depth = s.depth;
      if (depth === collectDepth) collectDepth = -1;
      else if (depth === 3) inRun = false;
      else if (depth === 2) inIs = false;
      else if (depth === 1 && cellOpen) {
        const cell = sheetCell(row!, column, cellStart, s.pos, type, value, inline, shared);
        if (!cell) return undefined;
        cells[column] = cell;
        columns[count++] = column;
        cellOpen = false;
      } else if (depth === 0 && row) {
        row.cells = rowCells(cells, columns, count);
        count = 0;
        row.end = s.pos;
        row.closeStart = text.lastIndexOf('</', s.pos - 1);
        row = undefined;
      }
      continue;
    }
    return token === END ? rows : undefined;
  }
}

/**
 * A row's cells by column, in an array of their own at its exact size (arrays grown cell by cell hold several times
 * the room, which a large sheet pays for in collection), from the first `count` of `columns`; `cells` is emptied for
 * the next row. (Both are counted rather than truncated: emptying an array frees its store, and the next row would
 * allocate one.)
 */
function rowCells(cells: (SheetCell | undefined)[], columns: readonly number[], count: number): (SheetCell | undefined)[] {
  if (count === 0) return [];
  const width = columns[count - 1]! + 1;
  let out: (SheetCell | undefined)[];
  // A row with a few cells far to the right stays sparse rather than filled with undefined.
  if (width <= 2 * count + 8) out = cells.slice(0, width);
  else {
    out = [];
    for (let k = 0; k < count; k++) out[columns[k]!] = cells[columns[k]!];
  }
  for (let k = 0; k < count; k++) cells[columns[k]!] = undefined;
  return out;
}

/** A cell read by the fast scanner, or undefined when its shared string index is outside the table. */
function sheetCell(
  row: SheetRow,
  column: number,
  start: number,
  end: number,
  type: string,
  value: string | undefined,
  inline: string | undefined,
  shared: readonly string[],
): SheetCell | undefined {
  const text = cellText(type, value, inline, shared);
  if (text === undefined) return undefined;
  return { value: text, line: row.line, column: column + 1, start, end, type, counted: type === 's' && value !== undefined, el: undefined };
}

/** The row number an `r` attribute gives, as Number() reads it. */
function rowNumber(s: ContentScanner, k: number): number {
  const t = s.text;
  const start = s.valueStart[k]!;
  const end = s.valueEnd[k]!;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39 || end - start > 15) return Number(t.slice(start, end));
    n = n * 10 + (c - 0x30);
  }
  return end > start ? n : Number.NaN;
}

/** The 0-based column of a cell reference in row `row` (like B3), or -1 when it is not one. */
function cellColumn(s: ContentScanner, k: number, row: number): number {
  const t = s.text;
  const start = s.valueStart[k]!;
  const end = s.valueEnd[k]!;
  let at = start;
  let column = 0;
  for (let c = t.charCodeAt(at); c >= 0x41 && c <= 0x5a && at - start < 3; c = t.charCodeAt(++at)) column = column * 26 + (c - 64);
  if (at === start || at === end) return -1;
  const first = t.charCodeAt(at);
  if (first < 0x31 || first > 0x39) return -1;
  let n = 0;
  for (let i = at; i < end; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + (c - 0x30);
  }
  if (end - at > 15) n = Number(t.slice(at, end));
  return n === row ? column - 1 : -1;
}

function knownType(s: ContentScanner, k: number): string {
  const start = s.valueStart[k]!;
  const length = s.valueEnd[k]! - start;
  for (const type of KNOWN_TYPES) if (type.length === length && s.text.startsWith(type, start)) return type;
  return s.attributeValue(k);
}

/**
 * The items of an <sst> whose content is `text` from `from` to `to`, as text and whether each is plain (one <t>), or
 * undefined to leave the table to the shared scanner.
 */
export function scanSharedStrings(text: string, from: number, to: number, prefixes: readonly string[]): { shared: string[]; plain: boolean[] } | undefined {
  const s = new ContentScanner(text, from, to, prefixes);
  if (!s.plain()) return undefined;
  const shared: string[] = [];
  const plain: boolean[] = [];
  let open = false;
  let item = '';
  let onlyText = true;
  let inRun = false;
  let collectDepth = -1;
  for (;;) {
    const token = s.next();
    if (token === TEXT) {
      if (collectDepth >= 0) item += s.textValue();
      continue;
    }
    if (token === OPEN) {
      const depth = s.selfClosing ? s.depth : s.depth - 1;
      if (depth === 0) {
        if (!s.isNamed('si')) continue;
        if (s.selfClosing) {
          shared.push('');
          plain.push(true);
          continue;
        }
        open = true;
        item = '';
        onlyText = true;
      } else if (open && collectDepth < 0) {
        if (depth === 1) {
          if (s.isNamed('t')) collectDepth = s.selfClosing ? -1 : depth;
          else {
            onlyText = false;
            inRun = s.isNamed('r') && !s.selfClosing;
          }
        } else if (inRun && depth === 2 && s.isNamed('t') && !s.selfClosing) collectDepth = depth;
      }
      continue;
    }
    if (token === CLOSE) {
      const depth = s.depth;
      if (depth === collectDepth) collectDepth = -1;
      else if (depth === 1) inRun = false;
      else if (depth === 0 && open) {
        item.charCodeAt(0);
        shared.push(unescapeOoxml(item));
        plain.push(onlyText);
        open = false;
      }
      continue;
    }
    return token === END ? { shared, plain } : undefined;
  }
}
