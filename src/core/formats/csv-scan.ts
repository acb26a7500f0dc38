// Shared RFC 4180 tokenizer that keeps every field's span, and the quoting rules for writing fields back.
import { FileUnparsableError } from './codec.js';
import { ColumnCounter } from './line-index.js';
import { decodeXml, encodeXml, lineColumn, type XmlEncoding } from './xml-scan.js';

/*
 * Offsets are UTF-16 indices into `CsvDocument.text` (the file decoded, BOM stripped); codecs splice strings.
 * The tokenizer follows what Python's csv module accepts with strict=True (and what Excel and Tolgee write):
 * a field that starts with '"' is quoted and ends at a '"' followed by the delimiter, a line end or the end of
 * the file, with '""' for a literal quote; a '"' anywhere else in an unquoted field is literal text.
 * Records end at LF, CRLF or a lone CR outside quotes; line ends inside quoted fields are part of the value.
 */

export type CsvDelimiter = ',' | ';' | '\t';
export type CsvEncoding = XmlEncoding;

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

export interface CsvRecord {
  /** At least one field; an empty line is one empty field. */
  fields: CsvField[];
  /** The fields again, under the name a table row gives its cells, so a record serves as one. */
  cells: CsvField[];
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
  records: CsvRecord[];
  /** The first record's line end, for records a codec adds; LF when the file has none. */
  newline: string;
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
export function scanRecords(text: string, delimiter: CsvDelimiter): CsvRecord[] {
  const records: CsvRecord[] = [];
  const fail = (message: string, at: number): never => {
    const { line, column } = lineColumn(text, at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  };
  // Line breaks sit only at record ends and inside quoted fields, so the scan counts lines itself as it passes them.
  const columns = new ColumnCounter(text);
  let line = 1;
  let lineStart = 0;
  const d = delimiter.charCodeAt(0);
  // A record's fields are gathered here and copied out at their count: an array grown by push keeps room for 16.
  const scratch: CsvField[] = [];
  let pos = 0;
  const n = text.length;
  let nextLf = -1;
  let nextCr = -1;
  while (pos < n) {
    const recordStart = pos;
    scratch.length = 0;
    for (;;) {
      const start = pos;
      const column = columns.at(lineStart, start);
      const fieldLine = line;
      let value: string;
      let quoted = false;
      if (text.charCodeAt(pos) === 0x22) {
        quoted = true;
        let escaped = false;
        let close: number;
        for (;;) {
          close = text.indexOf('"', pos + 1);
          if (close < 0) fail(`Expected '"' to close the field opened at line ${fieldLine}, column ${column} before the end of the file`, n);
          if (text.charCodeAt(close + 1) !== 0x22) break;
          escaped = true;
          pos = close + 1;
        }
        // One flat string for a field with doubled quotes, rather than a chain of its pieces.
        value = escaped ? text.slice(start + 1, close).split('""').join('"') : text.slice(start + 1, close);
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
        value = text.slice(start, pos);
      }
      scratch.push({ value, start, end: pos, quoted, line: fieldLine, column });
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
    // Copied by hand: slice() would give the copy the scratch array's spare room.
    const fields: CsvField[] = new Array<CsvField>(scratch.length);
    for (let i = 0; i < scratch.length; i++) fields[i] = scratch[i]!;
    records.push({ fields, cells: fields, column: fields[0]!.column, start: recordStart, end, next: pos, line: fields[0]!.line });
  }
  return records;
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
  const records = scanRecords(text, delimiter);
  const first = records[0];
  const newline = first && first.next > first.end ? text.slice(first.end, first.next) : '\n';
  return { text, bom, encoding, delimiter, records, newline };
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

/** Whether every field of a record is empty (a blank line, or only delimiters). */
export function isBlank(record: CsvRecord): boolean {
  return record.fields.every((f) => f.value === '');
}
