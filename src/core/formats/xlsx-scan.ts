// The xlsx codec's fast path through a workbook's two large parts: the worksheet's <sheetData> and the shared string table.
import { BOOLEAN_TEXT, BOOLEAN_TYPE, CELL_TYPES, EMPTY_TEXT, INLINE_TYPE, NUMBER_TYPE, OOXML_TEXT, PLAIN_TEXT, SHARED_TEXT, SHARED_TYPE, SheetGrid, STRING_TYPE } from './xlsx-grid.js';
import { decodedText, referenceLength, unescapeOoxml } from './xlsx-text.js';
import type { XmlAttribute } from './xml-scan.js';

export { unescapeOoxml };

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
    return this.references ? decodedText(this.text, this.textStart, this.textEnd) : this.text.slice(this.textStart, this.textEnd);
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

// ---------------------------------------------------------------------------------------------------------------
// Parts

/**
 * The rows of a <sheetData> whose content is `text` from `from` to `to`, or undefined to leave the sheet to the shared
 * scanner. `prefixes` are the namespace prefixes declared on <sheetData> and its ancestors.
 */
export function scanSheetData(
  text: string,
  from: number,
  to: number,
  prefix: string,
  prefixes: readonly string[],
  shared: readonly string[],
): SheetGrid | undefined {
  const s = new ContentScanner(text, from, to, prefixes);
  if (!s.plain()) return undefined;
  return new SheetReader(text, from, to, prefix, prefixes, shared).read() ?? scanSheetTokens(s, shared);
}

/** The rows of <sheetData> from its tokens (see scanSheetData). */
function scanSheetTokens(s: ContentScanner, shared: readonly string[]): SheetGrid | undefined {
  const { text } = s;
  const grid = new SheetGrid();
  let rowOpen = false;
  let line = 0;
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

  const addCell = (end: number): boolean => {
    const cellValue = cellText(type, value, inline, shared);
    if (cellValue === undefined) return false;
    grid.addCell(column, cellStart, end, type, cellValue, type === 's' && value !== undefined);
    cellOpen = false;
    return true;
  };

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
        line = number;
        grid.addRow(number, s.tagStart, s.pos, s.pos);
        rowOpen = !s.selfClosing;
      } else if (depth === 1) {
        if (!rowOpen || !s.isNamed('c')) continue;
        const r = s.attribute('r');
        if (r >= 0) {
          column = cellColumn(s, r, line);
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
        if (s.selfClosing && !addCell(s.pos)) return undefined;
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
        if (!addCell(s.pos)) return undefined;
      } else if (depth === 0 && rowOpen) {
        grid.closeRow(text.lastIndexOf('</', s.pos - 1), s.pos);
        rowOpen = false;
      }
      continue;
    }
    return token === END ? grid : undefined;
  }
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

// ---------------------------------------------------------------------------------------------------------------
// Sheets as spreadsheet applications write them

/**
 * Reads a <sheetData> in the form spreadsheet applications write, character by character, without tokens: rows of
 * cells, each empty or holding a <v> or an inline string of one <t>, with nothing but whitespace between elements.
 * Its elements take the prefix <sheetData> has. Anything else (and anything the token scanner would not take) makes
 * it give up, and the token scanner reads the sheet instead: what the reader takes, the token scanner reads the same.
 * The range holds no character the scanner leaves to the shared one (ContentScanner.plain has said so).
 */
class SheetReader {
  private readonly grid: SheetGrid;
  /** Where the value (or the inline text) of the cell read last starts and ends, whether it has one, and its tag's end. */
  private valueStart = 0;
  private valueEnd = 0;
  /** The shared string index of the cell read last (see textOf). */
  private sharedIndex = 0;
  /** The next '&' at or after a text read (or -1 before the first search; past the range when there is none). */
  private nextAmp = -1;
  /** The start tag read last: its end, whether it closes itself, and its `r` and `t` attributes' values (-1 when absent). */
  private tagEnd = 0;
  private selfClosing = false;
  private rStart = -1;
  private rEnd = -1;
  private tStart = -1;
  private tEnd = -1;
  /** The value of a cell's `s` (its style) and of a row's `spans`, recorded for a render (-1 when absent). */
  private sStart = -1;
  private sEnd = -1;
  private readonly names = new Int32Array(2 * READER_ATTRIBUTES);
  private readonly rowTag: string;
  private readonly rowClose: string;
  private readonly cellTag: string;
  private readonly cellClose: string;
  private readonly valueOpen: string;
  private readonly valueClose: string;
  private readonly inlineOpen: string;
  private readonly inlineClose: string;
  private readonly textTag: string;
  private readonly textClose: string;
  private readonly prefixLength: number;

  constructor(
    private readonly text: string,
    private readonly from: number,
    private readonly limit: number,
    prefix: string,
    private readonly prefixes: readonly string[],
    private readonly shared: readonly string[],
  ) {
    // Room for as many rows and cells as a sheet of short texts holds in as many characters, so that the grid seldom
    // grows (each time it does, its columns are copied and the old ones left to collect).
    this.grid = new SheetGrid(Math.max(256, Math.ceil((limit - from) / 200)), Math.max(512, Math.ceil((limit - from) / 80)));
    this.prefixLength = prefix.length;
    this.rowTag = `<${prefix}row`;
    this.rowClose = `</${prefix}row>`;
    this.cellTag = `<${prefix}c`;
    this.cellClose = `</${prefix}c>`;
    this.valueOpen = `<${prefix}v>`;
    this.valueClose = `</${prefix}v>`;
    this.inlineOpen = `<${prefix}is>`;
    this.inlineClose = `</${prefix}is>`;
    this.textTag = `<${prefix}t`;
    this.textClose = `</${prefix}t>`;
  }

  read(): SheetGrid | undefined {
    const { text: t, limit, grid } = this;
    grid.readFrom(t, this.shared);
    grid.recordAttributes();
    let at = skipSpace(t, this.from);
    let previousRow = 0;
    // The elements' prefix is the one <sheetData> has, declared around it.
    if (this.rowTag.length > 4 && !this.prefixes.includes(this.rowTag.slice(1, -4))) return undefined;
    while (at < limit) {
      const start = at;
      if (!startsTag(t, at, this.rowTag)) return undefined;
      const tag = this.quickTag(at + this.rowTag.length, ROW_TAG);
      if (tag === -1 || (tag === OTHER_FORM && this.startTag(at + this.rowTag.length, ROW_TAG) < 0)) return undefined;
      at = this.tagEnd;
      let line = previousRow + 1;
      if (this.rStart >= 0) {
        line = digits(t, this.rStart, this.rEnd);
        if (line <= previousRow) return undefined;
      }
      previousRow = line;
      grid.addRow(line, start, at, at);
      if (this.sStart >= 0) grid.rowAttribute(this.sStart, this.sEnd);
      if (!this.selfClosing) {
        at = this.readCells(skipSpace(t, at), line);
        if (at < 0 || !hasAt(t, at, this.rowClose)) return undefined;
        grid.closeRow(at, at + this.rowClose.length);
        at += this.rowClose.length;
      }
      at = skipSpace(t, at);
    }
    return at === limit ? grid : undefined;
  }

  /** Reads the cells of a row from `at`, returning where they end (at the row's end tag), or -1 to give up. */
  private readCells(at: number, line: number): number {
    const { text: t, grid } = this;
    let previousColumn = -1;
    while (startsTag(t, at, this.cellTag)) {
      const start = at;
      const tag = this.quickTag(at + this.cellTag.length, CELL_TAG);
      if (tag === -1 || (tag === OTHER_FORM && this.startTag(at + this.cellTag.length, CELL_TAG) < 0)) return -1;
      at = this.tagEnd;
      let column = previousColumn + 1;
      if (this.rStart >= 0) {
        column = cellReference(t, this.rStart, this.rEnd, line);
        if (column <= previousColumn) return -1;
      }
      previousColumn = column;
      const type = this.tStart < 0 ? NUMBER_TYPE : typeAt(t, this.tStart, this.tEnd);
      if (type < 0) return -1;
      // The `s` read before the cell's content (whose <t> is a start tag read too).
      const sStart = this.sStart;
      // What the cell holds: 0 nothing, 1 a <v>, 2 an inline string's <t>.
      let holds = 0;
      if (!this.selfClosing) {
        // The content's first element, told by the character after its prefix: v or is.
        const first = t.charCodeAt(at + this.prefixLength + 1);
        if (first === 0x76 /* v */ && hasAt(t, at, this.valueOpen)) {
          at = this.readText(at + this.valueOpen.length, this.valueClose);
          holds = 1;
        } else if (first === 0x69 /* i */ && hasAt(t, at, this.inlineOpen)) {
          at += this.inlineOpen.length;
          if (!startsTag(t, at, this.textTag) || this.startTag(at + this.textTag.length, OTHER_TAG) < 0 || this.selfClosing) return -1;
          at = this.readText(this.tagEnd, this.textClose);
          if (at < 0 || !hasAt(t, at, this.inlineClose)) return -1;
          at += this.inlineClose.length;
          holds = 2;
        }
        if (at < 0 || !hasAt(t, at, this.cellClose)) return -1;
        at += this.cellClose.length;
      }
      const how = this.textOf(type, holds);
      if (how < 0) return -1;
      if (how === SHARED_TEXT) grid.addTextCell(column, start, at, type, how, this.sharedIndex, 0, holds === 1);
      else grid.addTextCell(column, start, at, type, how, this.valueStart, this.valueEnd, false);
      if (sStart >= 0) grid.cellAttribute(sStart, this.sEnd);
      at = skipSpace(t, at);
    }
    return at;
  }

  /**
   * How the grid reads the text of a cell of the type holding what `holds` says, as cellText reads it (a shared
   * string's index in `sharedIndex`); -1 to give up.
   */
  private textOf(type: number, holds: number): number {
    if (type === INLINE_TYPE) return holds === 2 ? OOXML_TEXT : EMPTY_TEXT;
    if (holds !== 1) return EMPTY_TEXT;
    if (type === SHARED_TYPE) {
      const index = digits(this.text, this.valueStart, this.valueEnd);
      if (index < 0 || index >= this.shared.length) return -1;
      this.sharedIndex = index;
      return SHARED_TEXT;
    }
    if (type === BOOLEAN_TYPE) return BOOLEAN_TEXT;
    return type === STRING_TYPE ? OOXML_TEXT : PLAIN_TEXT;
  }

  /** Reads text from `at` up to the end tag `close`, returning where the end tag ends, or -1 to give up. */
  private readText(at: number, close: string): number {
    const t = this.text;
    const lt = t.indexOf('<', at);
    if (lt < 0 || lt >= this.limit || !hasAt(t, lt, close)) return -1;
    let amp = this.nextAmp;
    if (amp < at) amp = this.nextAmp = this.findAmp(at);
    // The text's references are stepped over in place (a search per reference costs more than reading the text); the
    // next text searches again from its start.
    while (amp < lt) {
      if (t.charCodeAt(amp) === 0x26 /* & */) {
        const length = referenceLength(t, amp);
        if (length === 0) return -1;
        amp += length;
      } else amp++;
    }
    this.valueStart = at;
    this.valueEnd = lt;
    return lt + close.length;
  }

  private findAmp(from: number): number {
    const at = this.text.indexOf('&', from);
    return at < 0 ? this.text.length : at;
  }

  /**
   * Reads the attributes of a row's or cell's start tag from just past its name as startTag does, where they take the
   * form writers give them: each ` name="value"`, the names r and a row's spans or a cell's s and t, none twice, and
   * the tag's end right after. Returns 0, -1 to give up, or OTHER_FORM for a tag of another form (startTag reads it).
   */
  private quickTag(at: number, tag: number): number {
    const t = this.text;
    const { limit } = this;
    this.rStart = this.tStart = this.sStart = -1;
    for (;;) {
      const c = t.charCodeAt(at);
      if (c === 0x3e /* > */ || c === 0x2f /* / */) {
        if (c === 0x2f && t.charCodeAt(at + 1) !== 0x3e) return OTHER_FORM;
        this.selfClosing = c === 0x2f;
        this.tagEnd = at + (c === 0x2f ? 2 : 1);
        return this.tagEnd > limit ? -1 : 0;
      }
      if (c !== 0x20) return OTHER_FORM;
      if (tag === ROW_TAG && this.sStart < 0 && hasAt(t, at + 1, 'spans="')) {
        // A row's spans (Excel writes them on every row).
        let valueEnd = at + 8;
        for (let v = t.charCodeAt(valueEnd); v !== 0x22; v = t.charCodeAt(++valueEnd)) {
          if (valueEnd >= limit || v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a) return OTHER_FORM;
        }
        this.sStart = at + 8;
        this.sEnd = valueEnd;
        at = valueEnd + 1;
        continue;
      }
      if (t.charCodeAt(at + 2) !== 0x3d /* = */ || t.charCodeAt(at + 3) !== 0x22 /* " */) return OTHER_FORM;
      const name = t.charCodeAt(at + 1);
      const valueStart = at + 4;
      let valueEnd = valueStart;
      if (name === 0x72 /* r */ && this.rStart < 0) {
        while (valueEnd < limit && t.charCodeAt(valueEnd) !== 0x22) valueEnd++;
        this.rStart = valueStart;
        this.rEnd = valueEnd;
      } else if (name === 0x74 /* t */ && tag === CELL_TAG && this.tStart < 0) {
        while (valueEnd < limit && t.charCodeAt(valueEnd) !== 0x22) valueEnd++;
        this.tStart = valueStart;
        this.tEnd = valueEnd;
      } else if (name === 0x73 /* s */ && tag === CELL_TAG && this.sStart < 0) {
        for (let v = t.charCodeAt(valueEnd); v !== 0x22; v = t.charCodeAt(++valueEnd)) {
          if (valueEnd >= limit || v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a) return OTHER_FORM;
        }
        this.sStart = valueStart;
        this.sEnd = valueEnd;
      } else return OTHER_FORM;
      // The name must end at the '=' (a one-letter name), and the value before the content's end.
      if (valueEnd >= limit) return OTHER_FORM;
      at = valueEnd + 1;
    }
  }

  /**
   * Reads the attributes of a start tag from just past its name, noting `r` and `t`; returns 0 (and sets tagEnd and
   * selfClosing), or -1 to give up: on anything the token scanner would not take, a namespace declaration, or more
   * than a few attributes. The values a row's or cell's reader reads (and takes only in their narrow form: digits,
   * letters) are not checked here.
   */
  private startTag(at: number, tag: number): number {
    const t = this.text;
    this.rStart = this.tStart = this.sStart = -1;
    let count = 0;
    for (;;) {
      const before = at;
      at = skipSpace(t, at);
      const c = t.charCodeAt(at);
      if (c === 0x3e /* > */ || c === 0x2f /* / */) {
        if (c === 0x2f && t.charCodeAt(at + 1) !== 0x3e) return -1;
        this.selfClosing = c === 0x2f;
        this.tagEnd = at + (c === 0x2f ? 2 : 1);
        return this.tagEnd > this.limit ? -1 : 0;
      }
      if (at === before || count === READER_ATTRIBUTES) return -1;
      const nameStart = at;
      let colon = -1;
      for (let n = t.charCodeAt(at); isNameChar(n); n = t.charCodeAt(++at)) {
        if (n === 0x3a /* : */) {
          if (colon >= 0) return -1;
          colon = at;
        }
      }
      const nameEnd = at;
      const first = t.charCodeAt(nameStart);
      if (nameEnd === nameStart || (first >= 0x30 && first <= 0x39) || first === 0x2d || first === 0x2e) return -1;
      if (colon >= 0 && !this.declared(nameStart, colon, nameEnd)) return -1;
      for (let k = 0; k < count; k++) if (sameRange(t, this.names[2 * k]!, this.names[2 * k + 1]!, nameStart, nameEnd)) return -1;
      this.names[2 * count] = nameStart;
      this.names[2 * count + 1] = nameEnd;
      count++;
      at = skipSpace(t, at);
      if (t.charCodeAt(at) !== 0x3d /* = */) return -1;
      at = skipSpace(t, at + 1);
      const quote = t.charCodeAt(at);
      if (quote !== 0x22 && quote !== 0x27) return -1;
      const valueStart = at + 1;
      // Values are short: read up to the quote rather than searched.
      let valueEnd = valueStart;
      while (valueEnd < this.limit && t.charCodeAt(valueEnd) !== quote) valueEnd++;
      if (valueEnd >= this.limit) return -1;
      const name = nameEnd - nameStart === 1 ? t.charCodeAt(nameStart) : 0;
      if (name === 0x72 /* r */ && tag !== OTHER_TAG) {
        this.rStart = valueStart;
        this.rEnd = valueEnd;
      } else if (name === 0x74 /* t */ && tag === CELL_TAG) {
        this.tStart = valueStart;
        this.tEnd = valueEnd;
      } else {
        for (let i = valueStart; i < valueEnd; i++) {
          const v = t.charCodeAt(i);
          if (v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a) return -1;
        }
        if (tag === CELL_TAG ? name === 0x73 /* s */ : tag === ROW_TAG && nameEnd - nameStart === 5 && hasAt(t, nameStart, 'spans')) {
          this.sStart = valueStart;
          this.sEnd = valueEnd;
        }
      }
      at = valueEnd + 1;
    }
  }

  /** Whether an attribute's prefix (from `start` to `colon`) is declared around the content, or is xml; not xmlns. */
  private declared(start: number, colon: number, end: number): boolean {
    const t = this.text;
    const length = colon - start;
    if (colon === start || colon === end - 1) return false;
    if (length === 3 && t.startsWith('xml', start)) return true;
    for (const prefix of this.prefixes) if (prefix.length === length && t.startsWith(prefix, start)) return true;
    return false;
  }
}

const READER_ATTRIBUTES = 8;
/** What quickTag returns for a start tag it leaves to startTag. */
const OTHER_FORM = -2;
/** Which start tag the reader reads: a row's `r` and a cell's `r` and `t` are read (and so checked) by the reader. */
const ROW_TAG = 0;
const CELL_TAG = 1;
const OTHER_TAG = 2;

/** Whether the text at `at` is the start tag name `tag` (with its '<'), followed by what may end a name. */
function startsTag(t: string, at: number, tag: string): boolean {
  if (!hasAt(t, at, tag)) return false;
  const c = t.charCodeAt(at + tag.length);
  return c === 0x20 || c === 0x3e || c === 0x2f || c === 0x0a || c === 0x09;
}

function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e;
}

/** The number an attribute value of one to nine digits spells, or -1. */
function digits(t: string, start: number, end: number): number {
  if (end <= start || end - start > 9) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + (c - 0x30);
  }
  return n;
}

/** The 0-based column of a cell reference in row `row` (like B3), or -1 when it is not one. */
function cellReference(t: string, start: number, end: number, row: number): number {
  let at = start;
  let column = 0;
  for (let c = t.charCodeAt(at); c >= 0x41 && c <= 0x5a && at - start < 3; c = t.charCodeAt(++at)) column = column * 26 + (c - 64);
  if (at === start || t.charCodeAt(at) === 0x30) return -1;
  return digits(t, at, end) === row ? column - 1 : -1;
}

/**
 * Whether the text at `at` is `piece`, compared character by character: the pieces are a few characters long, and a
 * call to startsWith costs more than the comparison.
 */
function hasAt(t: string, at: number, piece: string): boolean {
  for (let i = 0; i < piece.length; i++) if (t.charCodeAt(at + i) !== piece.charCodeAt(i)) return false;
  return true;
}

/** The code of the cell type spelt from `start` to `end` (see CELL_TYPES), or -1 for another. */
function typeAt(t: string, start: number, end: number): number {
  const length = end - start;
  if (length === 1) {
    const c = t.charCodeAt(start);
    return c === 0x6e /* n */ ? NUMBER_TYPE : c === 0x73 /* s */ ? SHARED_TYPE : c === 0x62 /* b */ ? BOOLEAN_TYPE : CELL_TYPES.indexOf(t[start]!);
  }
  if (length === 9 && t.charCodeAt(start) === 0x69 /* i */ && hasAt(t, start, 'inlineStr')) return INLINE_TYPE;
  return length === 3 && hasAt(t, start, 'str') ? STRING_TYPE : CELL_TYPES.indexOf(t.slice(start, end));
}
