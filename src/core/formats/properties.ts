// The `properties` codec: Java .properties files read as Properties.load does, with changed values spliced in on one line.
import { FileUnparsableError, type Codec, type Entry, type FreshEntry, type RenderInput } from './codec.js';
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
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\f';

class Scanner {
  /** Line starts; LF, CRLF and a lone CR each end a line, as in Properties.load. */
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) this.starts.push(i + 1);
    }
  }

  private contentEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    return this.text.charCodeAt(next - 1) === 0x0a && this.text.charCodeAt(next - 2) === 0x0d ? next - 2 : next - 1;
  }

  private lineEnd(line: number): number {
    return this.starts[line + 1] ?? this.text.length;
  }

  position(index: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    let column = 1;
    for (const _ of this.text.slice(this.starts[lo]!, index)) column++;
    return { line: lo + 1, column };
  }

  fail(message: string, at: number): never {
    const { line, column } = this.position(at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  scan(): PropertiesPair[] {
    const t = this.text;
    const pairs: PropertiesPair[] = [];
    let comments: string[] = [];
    for (let line = 0; line < this.starts.length; line++) {
      const lineStart = this.starts[line]!;
      let end = this.contentEnd(line);
      let i = lineStart;
      while (i < end && isSpace(t.charAt(i))) i++;
      if (i === end) {
        comments = [];
        continue;
      }
      if (t.charAt(i) === '#' || t.charAt(i) === '!') {
        // A comment is one natural line: a trailing backslash does not continue it.
        const body = t.slice(i + 1, end);
        comments.push(body.startsWith(' ') ? body.slice(1) : body);
        continue;
      }
      // Build the logical line, remembering where each of its characters sits in the file.
      let chars = '';
      const offsets: number[] = [];
      for (;;) {
        let backslashes = 0;
        while (end - backslashes - 1 >= i && t.charAt(end - backslashes - 1) === '\\') backslashes++;
        const continued = backslashes % 2 === 1;
        const stop = continued ? end - 1 : end;
        for (let k = i; k < stop; k++) {
          chars += t.charAt(k);
          offsets.push(k);
        }
        if (!continued || line + 1 >= this.starts.length) break;
        line++;
        end = this.contentEnd(line);
        i = this.starts[line]!;
        while (i < end && isSpace(t.charAt(i))) i++;
      }
      pairs.push(this.pair(chars, offsets, lineStart, end, this.lineEnd(line), comments));
      comments = [];
    }
    return pairs;
  }

  /** Splits a logical line into key and value exactly as Properties.load does. */
  private pair(chars: string, offsets: number[], start: number, lastContentEnd: number, end: number, comments: string[]): PropertiesPair {
    const limit = chars.length;
    let keyLen = 0;
    let valueStart = limit;
    let separator = false;
    let escaped = false;
    while (keyLen < limit) {
      const c = chars.charAt(keyLen);
      if ((c === '=' || c === ':') && !escaped) {
        valueStart = keyLen + 1;
        separator = true;
        break;
      }
      if (isSpace(c) && !escaped) {
        valueStart = keyLen + 1;
        break;
      }
      escaped = c === '\\' ? !escaped : false;
      keyLen++;
    }
    while (valueStart < limit) {
      const c = chars.charAt(valueStart);
      if (!isSpace(c)) {
        if (!separator && (c === '=' || c === ':')) separator = true;
        else break;
      }
      valueStart++;
    }
    const key = this.unescape(chars, offsets, 0, keyLen);
    const value = this.unescape(chars, offsets, valueStart, limit);
    const valueAt = valueStart < limit ? offsets[valueStart]! : lastContentEnd;
    const pair: PropertiesPair = {
      key,
      value,
      start,
      end,
      valueStart: valueAt,
      writeStart: valueStart > 0 ? offsets[valueStart - 1]! + 1 : valueAt,
      valueEnd: lastContentEnd,
      separator,
      bare: keyLen === limit,
      ...this.position(valueAt),
    };
    if (comments.length > 0) pair.notes = comments.join('\n');
    return pair;
  }

  /** Java's loadConvert: \t \n \r \f and \uXXXX, any other escaped character stands for itself. */
  private unescape(chars: string, offsets: number[], from: number, to: number): string {
    let out = '';
    for (let k = from; k < to; k++) {
      const c = chars.charAt(k);
      if (c !== '\\') {
        out += c;
        continue;
      }
      k++;
      if (k >= to) break;
      const e = chars.charAt(k);
      if (e === 'u') {
        const hex = chars.slice(k + 1, k + 5);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('Expected 4 hex digits after \\u (malformed \\uXXXX escape)', offsets[k - 1]!);
        out += String.fromCharCode(parseInt(hex, 16));
        k += 4;
      } else {
        out += e === 't' ? '\t' : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 'f' ? '\f' : e;
      }
    }
    return out;
  }
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

const hex4 = (unit: number): string => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Escapes text for a key or value. Control and invisible line-breaking characters and lone surrogates always become
 * \uXXXX (other readers split lines on U+2028 or drop them); other non-ASCII only when `ascii`.
 */
function escapeText(text: string, ascii: boolean, extra: RegExp | undefined): string {
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
      out += ascii ? hex4(unit) + hex4(text.charCodeAt(i + 1)) : c + text.charAt(i + 1);
      i++;
    } else if (unit < 0x20 || unit === 0x7f || unit === 0x85 || unit === 0x2028 || unit === 0x2029 || unit === 0xfeff || (unit >= 0xd800 && unit <= 0xdfff)) {
      out += hex4(unit);
    } else if (unit > 0x7e && ascii) {
      out += hex4(unit);
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
