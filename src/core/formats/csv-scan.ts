// Shared RFC 4180 tokenizer that keeps every field's span, and the quoting rules for writing fields back.
import { FileUnparsableError } from './file-unparsable-error.js';
import { decodeXml, encodeXml, lineColumn, type XmlEncoding } from './xml-scan.js';
import { columnOf } from './line-index.js';

/*
 * Offsets are UTF-16 indices into `CsvDocument.text` (the file decoded, BOM stripped); codecs splice strings.
 * The tokenizer follows what Python's csv module accepts with strict=True (and what Excel and Tolgee write):
 * a field that starts with '"' is quoted and ends at a '"' followed by the delimiter, a line end or the end of
 * the file, with '""' for a literal quote; a '"' anywhere else in an unquoted field is literal text.
 * Records end at LF, CRLF or a lone CR outside quotes; line ends inside quoted fields are part of the value.
 */

export type CsvDelimiter = ',' | ';' | '\t';
export type CsvEncoding = XmlEncoding;

/** A field as an object, for tests and tools that inspect a file; codecs read the fields of a `CsvGrid`. */
export interface CsvField {
  /** The decoded value: quotes removed, '""' turned into '"'. */
  value: string;
  /** The raw field, quotes included. */
  start: number;
  end: number;
  quoted: boolean;
  /** 1-based line and column (in code points) of the field's first character. */
  line: number;
  column: number;
}

/** A record as an object, for tests and tools that inspect a file; codecs read the records of a `CsvGrid`. */
export interface CsvRecord {
  /** At least one field; an empty line is one empty field. */
  fields: CsvField[];
  /** Column of the first field. */
  column: number;
  start: number;
  /** Just past the last field, before the line end. */
  end: number;
  /** Just past the line end (equal to `end` for a last record without one). */
  next: number;
  line: number;
}

export interface CsvDocument {
  text: string;
  bom: boolean;
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
  /** The records and fields as offsets into `text`: what codecs read. */
  grid: CsvGrid;
  /** The records as objects, built on first use: for tests and tools, since a large file has millions of fields. */
  readonly records: CsvRecord[];
  /** The first record's line end, for records a codec adds; LF when the file has none. */
  newline: string;
}

// Field flags.
const QUOTED = 1;
/** A quoted field holding '""'. */
const ESCAPED = 2;
/** A quoted field holding a line end. */
const MULTILINE = 4;

/**
 * The records and fields of a scanned text in parallel arrays of offsets, rather than an object each: a render reads a
 * file whole, and objects that live that long are what the garbage collector spends its time on. Values and positions
 * are worked out when asked for.
 */
export class CsvGrid {
  /** Number of fields. */
  fields = 0;
  /** Number of records. */
  size = 0;
  /** Per field: the raw span (quotes included), and flags (typed arrays, grown as the scan fills them). */
  starts: Int32Array;
  ends: Int32Array;
  flags: Uint8Array;
  /** Per record, its first field; one more at the end, so record r holds fields firsts[r] to firsts[r + 1] - 1. */
  firsts: Int32Array;
  /** Per record, just past its line end (its last field's end, for a last record without one). */
  nexts: Int32Array;
  /** Per record, the 1-based line it starts on; a record starts a line, so its first field is in column 1. */
  lines: Int32Array;

  constructor(
    readonly text: string,
    readonly delimiter: CsvDelimiter,
  ) {
    // Guesses from the text's length, generous so that a scan seldom grows them: a field per 16 characters, a record
    // per 32 (growing them is cheap, but a path each scan takes once costs its optimised code).
    const fields = Math.max(64, text.length >> 4);
    const records = Math.max(16, text.length >> 5);
    this.starts = new Int32Array(fields);
    this.ends = new Int32Array(fields);
    this.flags = new Uint8Array(fields);
    this.firsts = new Int32Array(records + 1);
    this.nexts = new Int32Array(records);
    this.lines = new Int32Array(records);
  }

  /** Starts a record on `line`: the fields added next are its own. */
  openRecord(line: number): void {
    if (this.size === this.nexts.length) {
      const size = 2 * this.size;
      this.firsts = grown(this.firsts, size + 1);
      this.nexts = grown(this.nexts, size);
      this.lines = grown(this.lines, size);
    }
    this.lines[this.size] = line;
  }

  addField(start: number, end: number, flags: number): void {
    const f = this.fields;
    if (f === this.starts.length) {
      this.starts = grown(this.starts, 2 * f);
      this.ends = grown(this.ends, 2 * f);
      this.flags = grown(this.flags, 2 * f);
    }
    this.starts[f] = start;
    this.ends[f] = end;
    this.flags[f] = flags;
    this.fields = f + 1;
  }

  /** Ends the record opened last; `next` is just past its line end. */
  closeRecord(next: number): void {
    this.nexts[this.size] = next;
    this.size++;
    this.firsts[this.size] = this.fields;
  }

  /** Number of fields of record r: at least one, since an empty line is one empty field. */
  width(r: number): number {
    return this.firsts[r + 1]! - this.firsts[r]!;
  }

  /** Start of record r: its first field's. */
  start(r: number): number {
    return this.starts[this.firsts[r]!]!;
  }

  /** Just past record r's last field, before its line end. */
  end(r: number): number {
    return this.ends[this.firsts[r + 1]! - 1]!;
  }

  /** The decoded value of field f: quotes removed, '""' turned into '"'. */
  value(f: number): string {
    const flags = this.flags[f]!;
    if ((flags & QUOTED) === 0) return this.text.slice(this.starts[f], this.ends[f]);
    const inner = this.text.slice(this.starts[f]! + 1, this.ends[f]! - 1);
    // One flat string for a field with doubled quotes, rather than a chain of its pieces.
    return (flags & ESCAPED) === 0 ? inner : inner.split('""').join('"');
  }

  /** Whether field f's value is `value`, told without decoding it unless it holds '""'. */
  equals(f: number, value: string): boolean {
    const flags = this.flags[f]!;
    if ((flags & ESCAPED) !== 0) return this.value(f) === value;
    const quotes = (flags & QUOTED) === 0 ? 0 : 1;
    const start = this.starts[f]! + quotes;
    return this.ends[f]! - quotes - start === value.length && this.text.startsWith(value, start);
  }

  /** Whether field f's value includes `search`, which holds no '"': the raw field does exactly when the value does. */
  includes(f: number, search: string): boolean {
    return this.text.slice(this.starts[f], this.ends[f]).includes(search);
  }

  quoted(f: number): boolean {
    return (this.flags[f]! & QUOTED) !== 0;
  }

  /** Whether field f's value is empty, told without decoding it. */
  empty(f: number): boolean {
    return this.ends[f]! - this.starts[f]! === ((this.flags[f]! & QUOTED) === 0 ? 0 : 2);
  }

  /** Whether every field of record r is empty (a blank line, or only delimiters). */
  blank(r: number): boolean {
    for (let f = this.firsts[r]!; f < this.firsts[r + 1]!; f++) if (!this.empty(f)) return false;
    return true;
  }

  /** Whether field f is quoted although its value does not need it (see needsQuotes), told without decoding it. */
  quotedWithoutNeed(f: number): boolean {
    const flags = this.flags[f]!;
    if (flags !== QUOTED) return false;
    // No '""' and no line end inside: only the delimiter would need the quotes.
    const end = this.ends[f]! - 1;
    const d = this.text.indexOf(this.delimiter, this.starts[f]! + 1);
    return d < 0 || d >= end;
  }

  /** 1-based line of the first character of field f, of record r: the record's, unless a field before it holds line ends. */
  line(r: number, f: number): number {
    this.seek(r, f);
    return this.seen.line;
  }

  /** 1-based column, in code points, of the first character of field f, of record r. */
  column(r: number, f: number): number {
    this.seek(r, f);
    return this.seen.column;
  }

  /**
   * The position looked up last, so that lookups moving forward along a record (as readers of a row go) count only
   * the characters in between: a line of many thousand fields would otherwise take as many passes.
   */
  private readonly seen = { record: -1, field: -1, line: 0, lineStart: 0, column: 1 };

  private seek(r: number, f: number): void {
    const { text, seen } = this;
    if (seen.record === r && seen.field === f) return;
    let g = this.firsts[r]!;
    let line = this.lines[r]!;
    let lineStart = this.starts[g]!;
    let column = 1;
    if (seen.record === r && seen.field > g && seen.field < f) {
      g = seen.field;
      line = seen.line;
      lineStart = seen.lineStart;
      column = seen.column;
    }
    let index = this.starts[g]!;
    for (; g < f; g++) {
      if ((this.flags[g]! & MULTILINE) === 0) continue;
      line += lineEnds(text, this.starts[g]!, this.ends[g]!);
      // The next line starts after the last line end inside the field: LF, CRLF or a lone CR.
      let i = this.ends[g]! - 1;
      while (text.charCodeAt(i - 1) !== 0x0a && !(text.charCodeAt(i - 1) === 0x0d && text.charCodeAt(i) !== 0x0a)) i--;
      lineStart = index = i;
      column = 1;
    }
    seen.record = r;
    seen.field = f;
    seen.line = line;
    seen.lineStart = lineStart;
    seen.column = columnOf(text, lineStart, this.starts[f]!, index, column);
  }

  /** Record r as an object. */
  record(r: number): CsvRecord {
    const fields: CsvField[] = [];
    for (let f = this.firsts[r]!; f < this.firsts[r + 1]!; f++) {
      fields.push({ value: this.value(f), start: this.starts[f]!, end: this.ends[f]!, quoted: this.quoted(f), line: this.line(r, f), column: this.column(r, f) });
    }
    return { fields, column: 1, start: this.start(r), end: this.end(r), next: this.nexts[r]!, line: this.lines[r]! };
  }
}

/** A copy of `array` with room for `length` elements. */
function grown<T extends Int32Array | Uint8Array>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}

/** Lines ended inside text[start, end): LF, CRLF and a lone CR each end one. */
function lineEnds(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) count++;
  }
  return count;
}

/** Decodes UTF-8 (BOM optional) or UTF-16 with a BOM, as Excel's "Unicode text" export writes, naming bad bytes' position. */
export function decodeCsv(bytes: Uint8Array): { text: string; bom: boolean; encoding: CsvEncoding } {
  // The XML scanner's decoder is the shared BOM-aware UTF-8/UTF-16 decoder; its declaration check never matches CSV.
  return decodeXml(bytes);
}

export function encodeCsv(text: string, bom: boolean, encoding: CsvEncoding): Uint8Array {
  return encodeXml(text, bom, encoding);
}

/**
 * The delimiter the header line uses most, outside quotes: comma, semicolon or tab (ties in that order).
 * Only the first record is looked at, because values further down may contain any of them.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
      continue;
    }
    if (c === '\n' || c === '\r') break;
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
      continue;
    }
    if (c === ',' || c === ';' || c === '\t') {
      counts[c]++;
      fieldStart = true;
    } else {
      fieldStart = false;
    }
  }
  const best = Math.max(counts[','], counts[';'], counts['\t']);
  if (best === 0 || counts[','] === best) return ',';
  return counts[';'] === best ? ';' : '\t';
}

const SHOWN: Readonly<Record<CsvDelimiter, string>> = { ',': "','", ';': "';'", '\t': 'a tab' };

/** Splits decoded text into records; a stray character after a closing quote or an unclosed quote is an error. */
export function scanGrid(text: string, delimiter: CsvDelimiter): CsvGrid {
  const grid = new CsvGrid(text, delimiter);
  const fail = (message: string, at: number): never => {
    const { line, column } = lineColumn(text, at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  };
  // Line breaks sit only at record ends and inside quoted fields, so the scan counts lines itself as it passes them.
  let line = 1;
  let lineStart = 0;
  const d = delimiter.charCodeAt(0);
  let pos = 0;
  const n = text.length;
  let nextLf = -1;
  let nextCr = -1;
  while (pos < n) {
    grid.openRecord(line);
    for (;;) {
      const start = pos;
      const fieldLine = line;
      let flag = 0;
      if (text.charCodeAt(pos) === 0x22) {
        flag = QUOTED;
        let close: number;
        for (;;) {
          close = text.indexOf('"', pos + 1);
          if (close < 0) {
            const column = columnOf(text, lineStart, start);
            fail(`Expected '"' to close the field opened at line ${fieldLine}, column ${column} before the end of the file`, n);
          }
          if (text.charCodeAt(close + 1) !== 0x22) break;
          flag = QUOTED | ESCAPED;
          pos = close + 1;
        }
        pos = close + 1;
        const c = text.charCodeAt(pos);
        if (pos < n && c !== d && c !== 0x0a && c !== 0x0d) {
          // Writers built on OpenCSV escape quotes with a backslash; RFC 4180 readers (Excel, Python) do not.
          const hint = text.charAt(pos - 2) === '\\' ? ' (a quote inside a quoted field is written "", not \\")' : '';
          fail(`Expected ${SHOWN[delimiter]} or the end of the line after the closing '"' of a quoted field${hint}`, pos);
        }
        // LF, CRLF and a lone CR inside the quotes each end a line. Most values hold none: the next line end
        // anywhere (kept from earlier fields, since the scan only moves forward) says so without a pass over the value.
        if (nextLf <= start) nextLf = indexOrEnd(text, '\n', start + 1);
        if (nextCr <= start) nextCr = indexOrEnd(text, '\r', start + 1);
        if (nextLf < close || nextCr < close) {
          flag |= MULTILINE;
          for (let i = start + 1; i < close; i++) {
            const b = text.charCodeAt(i);
            if (b === 0x0a || (b === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
              line++;
              lineStart = i + 1;
            }
          }
        }
      } else {
        while (pos < n) {
          const c = text.charCodeAt(pos);
          if (c === d || c === 0x0a || c === 0x0d) break;
          pos++;
        }
      }
      grid.addField(start, pos, flag);
      if (text.charCodeAt(pos) === d) {
        pos++;
        continue;
      }
      break;
    }
    const end = pos;
    if (text.charCodeAt(pos) === 0x0d) pos++;
    if (text.charCodeAt(pos) === 0x0a && (pos === end || text.charCodeAt(end) === 0x0d)) pos++;
    if (pos > end) {
      line++;
      lineStart = pos;
    }
    grid.closeRecord(pos);
  }
  return grid;
}

/** The records of decoded text as objects (see scanGrid). */
export function scanRecords(text: string, delimiter: CsvDelimiter): CsvRecord[] {
  return recordsOf(scanGrid(text, delimiter));
}

function recordsOf(grid: CsvGrid): CsvRecord[] {
  return Array.from({ length: grid.size }, (_, r) => grid.record(r));
}

/** Index of `c` at or after `from`, or the text's length when there is none. */
function indexOrEnd(text: string, c: string, from: number): number {
  const i = text.indexOf(c, from);
  return i < 0 ? text.length : i;
}

/** Decodes and tokenizes a file. */
export function scanCsv(bytes: Uint8Array): CsvDocument {
  const { text, bom, encoding } = decodeCsv(bytes);
  const delimiter = detectDelimiter(text);
  const grid = scanGrid(text, delimiter);
  const newline = grid.size > 0 && grid.nexts[0]! > grid.end(0) ? text.slice(grid.end(0), grid.nexts[0]) : '\n';
  let records: CsvRecord[] | undefined;
  return {
    text,
    bom,
    encoding,
    delimiter,
    grid,
    get records() {
      return (records ??= recordsOf(grid));
    },
    newline,
  };
}

/** Whether RFC 4180 requires quotes around the value: it holds the delimiter, a quote or a line end, or starts a quoted field. */
export function needsQuotes(value: string, delimiter: CsvDelimiter): boolean {
  return value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r');
}

/** Writes one field, quoted when asked to or when the value needs it. */
export function writeField(value: string, delimiter: CsvDelimiter, quote: boolean): string {
  if (!quote && !needsQuotes(value, delimiter)) return value;
  // Most values hold no quote: the test is cheaper than a replace that finds nothing.
  return value.includes('"') ? `"${value.replaceAll('"', '""')}"` : `"${value}"`;
}
