// The `properties` codec: Java .properties files read as Properties.load does, with changed values spliced in on one line.
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { ColumnCounter, LineIndex, LineReader } from './line-index.js';
import { textValue } from './values.js';

/*
 * Encoding: a file that is valid UTF-8 is read as UTF-8 (as Java 9+ resource bundles do), anything else as ISO-8859-1
 * (as Properties.load(InputStream) does). Written values keep non-ASCII as \uXXXX unless the file already holds raw
 * UTF-8 text, so an ASCII or Latin-1 file stays readable by both kinds of loader.
 */
type Style = 'ascii' | 'latin1' | 'utf8';

interface Decoded {
  text: string;
  bom: boolean;
  style: Style;
}

/** One key/value pair (a logical line, possibly continued over several natural lines). */
export interface PropertiesPair {
  key: string;
  value: string;
  /** Index of the start of its first natural line. */
  start: number;
  /** Index just past its last natural line's terminator (the end of the file when it has none). */
  end: number;
  /** Where the value's text starts in the file (where a value goes when it is empty). */
  valueStart: number;
  /**
   * Where a written value goes: just after the separator, even when the value itself starts on a continuation line,
   * so the written value replaces those lines and sits on the key's line.
   */
  writeStart: number;
  /** Where the value's text ends: the end of the last natural line's content. */
  valueEnd: number;
  /** Whether an `=` or `:` separates key and value (else whitespace does, or nothing when the key ends the line). */
  separator: boolean;
  /** The key runs to the end of the line: a written value needs a separator in front. */
  bare: boolean;
  line: number;
  column: number;
  notes?: string;
}

export interface PropertiesDocument extends Decoded {
  pairs: PropertiesPair[];
  /** The effective pair of each key: the last, as Properties.load keeps the last of repeated keys. */
  byKey: Map<string, PropertiesPair>;
}

function decode(bytes: Uint8Array): Decoded {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new FileUnparsableError('The file is UTF-16 encoded; expected UTF-8 or ISO-8859-1 at line 1, column 1', 1, 1);
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    // eslint-disable-next-line no-control-regex
    return { text, bom, style: /[^\u0000-\u007f]/.test(text) ? 'utf8' : 'ascii' };
  } catch {
    let text = '';
    for (let i = 0; i < body.length; i += 8192) text += String.fromCharCode(...body.subarray(i, i + 8192));
    return { text, bom, style: 'latin1' };
  }
}

function encode(doc: Decoded, text: string): Uint8Array {
  if (doc.style !== 'latin1') return new TextEncoder().encode(doc.bom ? `\uFEFF${text}` : text);
  const out = new Uint8Array(text.length + (doc.bom ? 3 : 0));
  let at = 0;
  if (doc.bom) {
    out.set([0xef, 0xbb, 0xbf]);
    at = 3;
  }
  // Written values escape everything outside ASCII, and kept text came from single bytes, so every unit fits a byte.
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i) & 0xff;
  return out;
}

/** Java's whitespace between tokens. */
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0c;

/** One natural line of a logical line: the text it contributes, and where its line starts. */
interface Piece {
  from: number;
  to: number;
  line: number;
  lineStart: number;
}

class Scanner {
  private readonly lines: LineReader;
  private readonly columns: ColumnCounter;

  constructor(private readonly text: string) {
    this.lines = new LineReader(text);
    this.columns = new ColumnCounter(text);
  }

  fail(message: string, at: number): never {
    const { line, column } = new LineIndex(this.text).at(at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  scan(): PropertiesPair[] {
    const t = this.text;
    const lines = this.lines;
    const pairs: PropertiesPair[] = [];
    let comments: string[] | undefined;
    while (lines.advance()) {
      const lineStart = lines.start;
      let end = lines.contentEnd;
      let i = lineStart;
      while (i < end && isSpace(t.charCodeAt(i))) i++;
      if (i === end) {
        comments = undefined;
        continue;
      }
      const c = t.charCodeAt(i);
      if (c === 0x23 || c === 0x21) {
        // A comment is one natural line: a trailing backslash does not continue it.
        const from = t.charCodeAt(i + 1) === 0x20 && i + 1 < end ? i + 2 : i + 1;
        (comments ??= []).push(t.slice(from, end));
        continue;
      }
      // The logical line: this natural line and those its odd number of trailing backslashes continue it onto.
      const first: Piece = { from: i, to: end, line: lines.line, lineStart };
      let pieces: Piece[] | undefined;
      for (let piece = first; ; ) {
        let backslashes = 0;
        while (end - backslashes - 1 >= i && t.charCodeAt(end - backslashes - 1) === 0x5c) backslashes++;
        const continued = backslashes % 2 === 1;
        if (continued) piece.to = end - 1;
        if (!continued || !lines.advance()) break;
        end = lines.contentEnd;
        i = lines.start;
        while (i < end && isSpace(t.charCodeAt(i))) i++;
        piece = { from: i, to: end, line: lines.line, lineStart: lines.start };
        (pieces ??= [first]).push(piece);
      }
      const logical = pieces ? new LogicalLine(pieces.map((p) => t.slice(p.from, p.to)).join(''), pieces) : new LogicalLine(t, [first]);
      pairs.push(this.pair(logical, lineStart, end, lines.next, comments));
      comments = undefined;
    }
    return pairs;
  }

  /** Splits a logical line into key and value exactly as Properties.load does. */
  private pair(logical: LogicalLine, start: number, lastContentEnd: number, end: number, comments: string[] | undefined): PropertiesPair {
    const { chars, from, to } = logical;
    let keyEnd = from;
    let valueStart = to;
    let separator = false;
    let escaped = false;
    while (keyEnd < to) {
      const c = chars.charCodeAt(keyEnd);
      if ((c === 0x3d || c === 0x3a) && !escaped) {
        valueStart = keyEnd + 1;
        separator = true;
        break;
      }
      if (isSpace(c) && !escaped) {
        valueStart = keyEnd + 1;
        break;
      }
      escaped = c === 0x5c ? !escaped : false;
      keyEnd++;
    }
    while (valueStart < to) {
      const c = chars.charCodeAt(valueStart);
      if (!isSpace(c)) {
        if (!separator && (c === 0x3d || c === 0x3a)) separator = true;
        else break;
      }
      valueStart++;
    }
    const key = this.unescape(logical, from, keyEnd);
    const value = this.unescape(logical, valueStart, to);
    const valueAt = valueStart < to ? logical.offset(valueStart) : lastContentEnd;
    const piece = valueStart < to ? logical.pieceOf(valueStart) : logical.pieces[logical.pieces.length - 1]!;
    const pair: PropertiesPair = {
      key,
      value,
      start,
      end,
      valueStart: valueAt,
      writeStart: valueStart > from ? logical.offset(valueStart - 1) + 1 : valueAt,
      valueEnd: lastContentEnd,
      separator,
      bare: keyEnd === to,
      line: piece.line,
      column: this.columns.at(piece.lineStart, valueAt),
    };
    if (comments) pair.notes = comments.join('\n');
    return pair;
  }

  /** Java's loadConvert: \t \n \r \f and \uXXXX, any other escaped character stands for itself. */
  private unescape(logical: LogicalLine, from: number, to: number): string {
    const chars = logical.chars;
    let out = '';
    let chunk = from;
    for (let k = from; k < to; k++) {
      if (chars.charCodeAt(k) !== 0x5c) continue;
      out += chars.slice(chunk, k);
      k++;
      chunk = k;
      if (k >= to) break;
      const e = chars.charCodeAt(k);
      if (e === 0x75) {
        // The four digits may run past `to`, never past the logical line.
        const code = k + 5 <= logical.to ? hex4(chars, k + 1) : -1;
        if (code < 0) this.fail('Expected 4 hex digits after \\u (malformed \\uXXXX escape)', logical.offset(k - 1));
        out += String.fromCharCode(code);
        k += 4;
        chunk = k + 1;
      } else {
        out += e === 0x74 ? '\t' : e === 0x6e ? '\n' : e === 0x72 ? '\r' : e === 0x66 ? '\f' : chars.charAt(k);
        chunk = k + 1;
      }
    }
    if (chunk === from) return chars.slice(from, to);
    return chunk < to ? out + chars.slice(chunk, to) : out;
  }
}

/**
 * A logical line's characters: a range of the text itself when it is one natural line, else its natural lines' text
 * joined, with the pieces to map an index back into the file.
 */
class LogicalLine {
  readonly from: number;
  readonly to: number;

  constructor(
    readonly chars: string,
    readonly pieces: readonly Piece[],
  ) {
    this.from = pieces.length === 1 ? pieces[0]!.from : 0;
    this.to = pieces.length === 1 ? pieces[0]!.to : chars.length;
  }

  /** The piece holding the character at `index` (`from` ≤ index < `to`). */
  pieceOf(index: number): Piece {
    if (this.pieces.length === 1) return this.pieces[0]!;
    let at = index;
    for (const piece of this.pieces) {
      if (at < piece.to - piece.from) return piece;
      at -= piece.to - piece.from;
    }
    return this.pieces[this.pieces.length - 1]!;
  }

  /** Where the character at `index` is in the file. */
  offset(index: number): number {
    if (this.pieces.length === 1) return index;
    let at = index;
    for (const piece of this.pieces) {
      if (at < piece.to - piece.from) return piece.from + at;
      at -= piece.to - piece.from;
    }
    const last = this.pieces[this.pieces.length - 1]!;
    return last.to + at;
  }
}

/** The value of the 4 hex digits at `at`, or -1. */
function hex4(t: string, at: number): number {
  let code = 0;
  for (let k = at; k < at + 4; k++) {
    const c = t.charCodeAt(k);
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (digit < 0) return -1;
    code = code * 16 + digit;
  }
  return code;
}

/** Reads a file as Properties.load does, keeping every pair's span (offsets index the decoded text, BOM excluded). */
export function scanProperties(bytes: Uint8Array): PropertiesDocument {
  const decoded = decode(bytes);
  const pairs = new Scanner(decoded.text).scan();
  const byKey = new Map<string, PropertiesPair>();
  for (const pair of pairs) byKey.set(pair.key, pair);
  return { ...decoded, pairs, byKey };
}

const NAMED: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\f': '\\f' };

// What escapeText changes in a value, besides every non-ASCII character in an ASCII file.
// eslint-disable-next-line no-control-regex
const ESCAPED = /[\\\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex
const ESCAPED_IN_ASCII = /[\\\u0000-\u001f\u007f-\uffff]/;

const hexUnit = (unit: number): string => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Escapes text for a key or value. Control and invisible line-breaking characters and lone surrogates always become
 * \uXXXX (other readers split lines on U+2028 or drop them); other non-ASCII only when `ascii`.
 */
function escapeText(text: string, ascii: boolean, extra: RegExp | undefined): string {
  if (!extra && !(ascii ? ESCAPED_IN_ASCII : ESCAPED).test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    const unit = text.charCodeAt(i);
    const named = NAMED[c];
    if (named !== undefined) {
      out += named;
    } else if (extra?.test(c)) {
      out += `\\${c}`;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && /[\udc00-\udfff]/.test(text.charAt(i + 1))) {
      out += ascii ? hexUnit(unit) + hexUnit(text.charCodeAt(i + 1)) : c + text.charAt(i + 1);
      i++;
    } else if (unit < 0x20 || unit === 0x7f || unit === 0x85 || unit === 0x2028 || unit === 0x2029 || unit === 0xfeff || (unit >= 0xd800 && unit <= 0xdfff)) {
      out += hexUnit(unit);
    } else if (unit > 0x7e && ascii) {
      out += hexUnit(unit);
    } else {
      out += c;
    }
  }
  return out;
}

/** A value as written after a key: a leading space escaped (Java skips it otherwise), and a leading = or : when no separator precedes. */
function escapeValue(value: string, ascii: boolean, separator: boolean): string {
  const escaped = escapeText(value, ascii, undefined);
  if (escaped.startsWith(' ')) return `\\${escaped}`;
  if (!separator && /^[=:]/.test(escaped)) return `\\${escaped}`;
  return escaped;
}

function escapeKey(key: string): string {
  return escapeText(key, true, /[ =:#!]/);
}

export const propertiesCodec: Codec = {
  id: 'properties',
  extensions: ['.properties'],
  plurals: false,

  // Properties files have no signature worth reading: `key=value` lines look like many formats, so the name decides.
  detect(fileName: string): number {
    return /\.properties$/i.test(fileName) ? 0.9 : 0;
  },

  parse(bytes: Uint8Array): Entry[] {
    const doc = scanProperties(bytes);
    return [...doc.byKey.values()]
      .sort((a, b) => a.start - b.start)
      .map((pair): Entry => {
        const entry: Entry = { key: pair.key, path: [pair.key], source: pair.value, line: pair.line, column: pair.column };
        if (pair.notes !== undefined) entry.notes = pair.notes;
        return entry;
      });
  },

  /**
   * Writes each changed value into the key's effective (last) pair on one line; an earlier repeat of the key is dead
   * text to Java and stays as it is. missing 'omit' removes every pair of the key, with its lines.
   */
  render(input: RenderInput): Uint8Array {
    const doc = scanProperties(input.source);
    const ascii = doc.style !== 'utf8';
    const t = doc.text;
    let out = '';
    let at = 0;
    let changed = false;
    for (const pair of doc.pairs) {
      const value = input.values.get(pair.key);
      if (value === undefined) {
        if (input.missing !== 'omit') continue;
        // The last line may lack a terminator: take the one before it instead, so the file keeps its ending.
        const start = pair.end === t.length && !/[\r\n]$/.test(t.slice(pair.start, pair.end)) ? trimTerminator(t, pair.start) : pair.start;
        if (start < at) continue;
        out += t.slice(at, start);
        at = pair.end;
        changed = true;
        continue;
      }
      const text = textValue(value, 'properties');
      if (doc.byKey.get(pair.key) !== pair || text === pair.value) continue;
      out += t.slice(at, pair.writeStart) + (pair.bare ? '=' : '') + escapeValue(text, ascii, pair.separator || pair.bare);
      at = pair.valueEnd;
      changed = true;
    }
    if (!changed) return input.source.slice();
    return encode(doc, out + t.slice(at));
  },

  /**
   * Writes `key=value` lines with keys and values in ASCII with \uXXXX escapes (readable by every Java loader) and
   * notes as `#` comments above, verbatim: comments are never unescaped, and loaders skip their bytes.
   */
  renderFresh(entries: readonly FreshEntry[]): Uint8Array {
    const merged = new Map<string, FreshEntry>();
    // A repeated key keeps its first position and its last value, as Map.set does.
    for (const entry of entries) merged.set(entry.key, entry);
    const lines: string[] = [];
    for (const entry of merged.values()) {
      const value = textValue(entry.value, 'properties');
      if (entry.notes !== undefined) for (const note of entry.notes.split(/\r\n|\n|\r/)) lines.push(note === '' ? '#' : `# ${note}`);
      lines.push(`${escapeKey(entry.key)}=${escapeValue(value, true, true)}`);
    }
    return new TextEncoder().encode(lines.map((l) => `${l}\n`).join(''));
  },
};

/** The index of the line terminator just before `start`, or `start` itself at the beginning of the file. */
function trimTerminator(text: string, start: number): number {
  if (text.charAt(start - 1) === '\n') return text.charAt(start - 2) === '\r' ? start - 2 : start - 1;
  if (text.charAt(start - 1) === '\r') return start - 1;
  return start;
}
