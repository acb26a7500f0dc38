// The `ios_strings` codec: Apple `.strings` files (old-style plist `"key" = "value";` pairs) in UTF-8 or UTF-16, spliced in place.
import { textValue } from './values.js';
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { decodeUtf8 } from './json-scan.js';
import { ColumnCounter } from './line-index.js';

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface DecodedFile {
  text: string;
  encoding: Encoding;
  /** Whether the file started with a byte order mark (not part of `text`). */
  bom: boolean;
}

export interface Token {
  /** Index of the opening quote (or first character of a bare word) in the decoded text. */
  start: number;
  /** Index just past the closing quote or the word. */
  end: number;
  value: string;
  line: number;
  column: number;
}

export interface Comment {
  start: number;
  end: number;
  /** The comment's text without its markers, trimmed. */
  text: string;
}

export interface Statement {
  key: Token;
  /** Absent for the shortcut form `"key";`, whose value is the key itself. */
  value?: Token;
  /** Index just past the terminating `;`. */
  end: number;
  /** The comments directly above the key (no blank line between), which give the notes. */
  above: Comment[];
  /** A comment starting on the line where the statement ends, after its `;`. */
  trailing?: Comment;
}

export interface StringsFile extends DecodedFile {
  statements: Statement[];
}

/** Decodes by byte order mark; UTF-16 without one is recognised by its zero bytes, as it cannot be valid text otherwise. */
function decode(bytes: Uint8Array): DecodedFile {
  const [b0, b1] = [bytes[0], bytes[1]];
  let encoding: Encoding | undefined;
  let bom = false;
  if (b0 === 0xff && b1 === 0xfe) [encoding, bom] = ['utf-16le', true];
  else if (b0 === 0xfe && b1 === 0xff) [encoding, bom] = ['utf-16be', true];
  else if (bytes.length >= 2 && bytes.length % 2 === 0 && b0 !== 0 && b1 === 0) encoding = 'utf-16le';
  else if (bytes.length >= 2 && bytes.length % 2 === 0 && b0 === 0 && b1 !== 0) encoding = 'utf-16be';
  if (!encoding) {
    const { text, bom: utf8Bom } = decodeUtf8(bytes);
    return { text, encoding: 'utf-8', bom: utf8Bom };
  }
  const body = bytes.subarray(bom ? 2 : 0);
  try {
    if (body.length % 2 !== 0) throw new Error('odd length');
    return { text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body), encoding, bom };
  } catch {
    const name = encoding === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE';
    throw new FileUnparsableError(`Invalid ${name} text (an odd number of bytes or an unpaired surrogate) at line 1, column 1`, 1, 1);
  }
}

function encode(text: string, encoding: Encoding, bom: boolean): Uint8Array {
  if (encoding === 'utf-8') return new TextEncoder().encode(bom ? `\uFEFF${text}` : text);
  const units = bom ? `\uFEFF${text}` : text;
  const out = new Uint8Array(units.length * 2);
  const little = encoding === 'utf-16le';
  for (let i = 0; i < units.length; i++) {
    const c = units.charCodeAt(i);
    out[2 * i + (little ? 0 : 1)] = c & 0xff;
    out[2 * i + (little ? 1 : 0)] = c >> 8;
  }
  return out;
}

// The characters CFOldStylePList allows in an unquoted string.
const BARE_RUN = /[A-Za-z0-9_$/:.-]+/y;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const LINE_BREAKS = /[\n\r\u2028\u2029]/g;

/** Whitespace as CFOldStylePList skips it: tab through carriage return, space, and the Unicode line and paragraph separators. */
const isSpace = (c: number): boolean => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x2028 || c === 0x2029;
const isLineBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

/** The comments of the many statements that have none: one empty list, never written to. */
const NONE = Object.freeze([]) as never[];

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '\n',
};

/**
 * The grammar Foundation's strings-file parser (CFOldStylePList) accepts: `key = value;` or `key;` statements, keys and
 * values quoted with `"` or `'` or bare words, `/* *\/` and `//` comments anywhere whitespace may be. Stricter where it is
 * lenient only in refusing duplicate keys, which Foundation resolves silently to the last one.
 */
class Parser {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private lineAt = 0;
  /** The first line break at or after `lineAt`, once looked for (the text's length when there is none). */
  private nextBreak = -1;
  private readonly columns: ColumnCounter;

  constructor(private readonly text: string) {
    this.columns = new ColumnCounter(text);
  }

  parse(): Statement[] {
    const statements: Statement[] = [];
    const seen = new Map<string, Token>();
    let comments = this.skip();
    // Foundation also reads a strings file written as one old-style plist dictionary, `{ "key" = "value"; }`.
    const braced = this.text[this.pos] === '{' ? this.pos++ : -1;
    if (braced >= 0) comments = this.skip();
    while (this.pos < this.text.length && !(braced >= 0 && this.text[this.pos] === '}')) {
      const key = this.string('Expected a key (a quoted string or a word of letters, digits and _$/:.-)');
      const first = seen.get(key.value);
      if (first) this.fail(`Duplicate key ${JSON.stringify(key.value)} (first defined at line ${first.line})`, key.start);
      seen.set(key.value, key);
      const statement: Statement = { key, end: 0, above: this.above(comments, key.start) };
      this.skip();
      const c = this.text[this.pos];
      if (c === '=') {
        this.pos++;
        this.skip();
        if (this.text[this.pos] === '(' || this.text[this.pos] === '{' || this.text[this.pos] === '<') {
          this.fail(`Expected a string value for the key ${JSON.stringify(key.value)} (arrays, dictionaries and data are not strings)`);
        }
        statement.value = this.string(() => `Expected a string value after '=' for the key ${JSON.stringify(key.value)}`);
        this.skip();
        if (this.text[this.pos] !== ';') this.fail(`Expected ';' after the value of the key ${JSON.stringify(key.value)}`);
      } else if (c !== ';') {
        this.fail(`Expected '=' or ';' after the key ${JSON.stringify(key.value)}`);
      }
      this.pos++;
      statement.end = this.pos;
      statements.push(statement);
      comments = this.skip();
      if (comments[0] && !this.hasLineBreak(statement.end, comments[0].start)) statement.trailing = comments.shift();
    }
    if (braced >= 0) {
      if (this.pos >= this.text.length) this.fail("Expected '}' to close the dictionary opened here before the end of the file", braced);
      this.pos++;
      this.skip();
      if (this.pos < this.text.length) this.fail("Expected the end of the file after the dictionary's closing '}'");
    }
    return statements;
  }

  fail(message: string, at = this.pos): never {
    const { line, column } = this.position(at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  /** Line and code-point column of an index; moves forward from the last answer, or restarts when asked about an earlier one. */
  private position(target: number): { line: number; column: number } {
    if (target < this.lineAt) [this.lineAt, this.line, this.lineStart, this.nextBreak] = [0, 1, 0, -1];
    const t = this.text;
    // Hop from line break to line break; the columns of the last line are counted from its start.
    for (;;) {
      if (this.nextBreak < this.lineAt) {
        LINE_BREAKS.lastIndex = this.lineAt;
        this.nextBreak = LINE_BREAKS.exec(t)?.index ?? t.length;
      }
      const at = this.nextBreak;
      if (at >= target) break;
      this.lineAt = at + 1;
      // The CR of a CRLF: the LF ends the line.
      if (t.charCodeAt(at) === 0x0d && t.charCodeAt(at + 1) === 0x0a) continue;
      this.line++;
      this.lineStart = at + 1;
    }
    this.lineAt = target;
    return { line: this.line, column: this.columns.at(this.lineStart, target) };
  }


  private hasLineBreak(from: number, to: number): boolean {
    return LINE_BREAK.test(this.text.slice(from, to));
  }

  /** The run of comments ending right above `keyStart`, each separated from the next by at most one line break. */
  private above(comments: Comment[], keyStart: number): Comment[] {
    if (comments.length === 0) return NONE;
    const run: Comment[] = [];
    let next = keyStart;
    for (let i = comments.length - 1; i >= 0; i--) {
      const comment = comments[i]!;
      const gap = this.text.slice(comment.end, next);
      if ((gap.match(/\r\n|[\n\r\u2028\u2029]/g) ?? []).length > 1) break;
      run.unshift(comment);
      next = comment.start;
    }
    return run;
  }

  /** Skips whitespace and comments, returning the comments passed. */
  private skip(): Comment[] {
    const t = this.text;
    let comments: Comment[] = NONE;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (isSpace(c)) {
        this.pos++;
      } else if (c === 0x2f && t.charCodeAt(this.pos + 1) === 0x2f) {
        const start = this.pos;
        this.pos += 2;
        while (this.pos < t.length && !isLineBreak(t.charCodeAt(this.pos))) this.pos++;
        if (comments === NONE) comments = [];
        comments.push({ start, end: this.pos, text: t.slice(start + 2, this.pos).trim() });
      } else if (c === 0x2f && t.charCodeAt(this.pos + 1) === 0x2a) {
        const start = this.pos;
        const close = t.indexOf('*/', this.pos + 2);
        if (close < 0) this.fail("Expected '*/' to close the comment before the end of the file", start);
        this.pos = close + 2;
        if (comments === NONE) comments = [];
        comments.push({ start, end: this.pos, text: t.slice(start + 2, close).trim() });
      } else {
        break;
      }
    }
    return comments;
  }

  /** Reads a quoted string or a bare word; `expected` says what was expected where there is neither. */
  private string(expected: string | (() => string)): Token {
    const t = this.text;
    const start = this.pos;
    const c = t[this.pos];
    if (c === '"' || c === "'") return this.quoted(c);
    BARE_RUN.lastIndex = this.pos;
    if (c === undefined || !BARE_RUN.test(t)) {
      const message = typeof expected === 'string' ? expected : expected();
      this.fail(this.pos >= t.length ? `${message} before the end of the file` : message);
    }
    this.pos = BARE_RUN.lastIndex;
    const { line, column } = this.position(start);
    return { start, end: this.pos, value: t.slice(start, this.pos), line, column };
  }

  private quoted(quote: string): Token {
    const t = this.text;
    const q = quote.charCodeAt(0);
    const start = this.pos++;
    let value = '';
    let chunk = this.pos;
    for (;;) {
      let i = this.pos;
      let c = t.charCodeAt(i);
      while (c !== q && c !== 0x5c && i < t.length) c = t.charCodeAt(++i);
      this.pos = i;
      if (i >= t.length) this.fail(`Expected ${quote} to close the string that starts here before the end of the file`, start);
      if (c === q) break;
      value += t.slice(chunk, i) + this.escape();
      chunk = this.pos;
    }
    value = chunk === start + 1 ? t.slice(chunk, this.pos) : value + t.slice(chunk, this.pos);
    this.pos++;
    const { line, column } = this.position(start);
    return { start, end: this.pos, value, line, column };
  }

  /** Decodes the escape at the backslash as Foundation does; an unknown letter stands for itself (`\'` → `'`). */
  private escape(): string {
    const t = this.text;
    const backslash = this.pos;
    const c = t[this.pos + 1];
    if (c === undefined) this.fail('Expected a character after \\ before the end of the file', backslash);
    this.pos += 2;
    if (c === 'U' || c === 'u') {
      const hex = /^[0-9A-Fa-f]{4}/.exec(t.slice(this.pos, this.pos + 4));
      if (!hex) this.fail(`Expected 4 hex digits after \\${c}`, backslash);
      this.pos += 4;
      return String.fromCharCode(parseInt(hex[0], 16));
    }
    if (c >= '0' && c <= '7') {
      const octal = /^[0-7]{1,3}/.exec(t.slice(this.pos - 1, this.pos + 2))![0];
      this.pos += octal.length - 1;
      return String.fromCharCode(parseInt(octal, 8) & 0xff);
    }
    if (c === '\r' && t[this.pos] === '\n') {
      this.pos++;
      return '\r\n';
    }
    return SIMPLE_ESCAPES[c] ?? c;
  }
}

/** Decodes and parses a strings file, keeping every token's span in the decoded text (for the codec and its tests). */
export function readStringsFile(bytes: Uint8Array): StringsFile {
  const decoded = decode(bytes);
  return { ...decoded, statements: new Parser(decoded.text).parse() };
}

const read = readStringsFile;

// genstrings writes this for every string without a comment; it says nothing to a translator.
const NO_COMMENT = 'No comment provided by engineer.';

function notesOf(statement: Statement): string | undefined {
  const above = statement.above.map((c) => c.text).filter((text) => text && text !== NO_COMMENT);
  if (above.length > 0) return above.join('\n').replace(/\r\n?/g, '\n');
  // A comment after the `;` explains that line when there is none above it.
  const trailing = statement.trailing?.text;
  return trailing && trailing !== NO_COMMENT ? trailing : undefined;
}

// eslint-disable-next-line no-control-regex
const UNLIKE_JSON = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\ud800-\udfff]/;

/** Quotes a value the way Xcode writes strings files: `\"`, `\\`, `\n` and `\r` escaped, everything else literal. */
export function quoteStringsValue(value: string): string {
  // Without other control characters or surrogates, JSON.stringify escapes exactly these four.
  if (!UNLIKE_JSON.test(value)) return JSON.stringify(value);
  return `"${value.replace(/[\\"\n\r]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\${c}`))}"`;
}

interface Cut {
  start: number;
  end: number;
  /** Whether the statement had its line(s) to itself, so the cut takes whole lines. */
  ownsLine: boolean;
}

const lineBreakAt = (text: string, at: number): number => (text.startsWith('\r\n', at) ? 2 : LINE_BREAK.test(text[at] ?? '') ? 1 : 0);

/** The text to cut when omitting a statement: with its comments, and its whole line(s) when it has them to itself. */
function statementCut(text: string, statement: Statement): Cut {
  const start = statement.above[0]?.start ?? statement.key.start;
  let end = statement.trailing?.end ?? statement.end;
  let lineStart = start;
  while (lineStart > 0 && (text[lineStart - 1] === ' ' || text[lineStart - 1] === '\t')) lineStart--;
  while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
  const ownsLine = (lineStart === 0 || LINE_BREAK.test(text[lineStart - 1]!)) && (end === text.length || lineBreakAt(text, end) > 0);
  return ownsLine ? { start: lineStart, end: end + lineBreakAt(text, end), ownsLine } : { start, end, ownsLine };
}

/**
 * Joins cuts separated only by blank lines, then keeps the file's spacing: where a cut leaves a blank line on both
 * sides one goes, and a cut at the end of the file takes the blank line before it.
 */
function joinCuts(text: string, cuts: readonly Cut[]): Cut[] {
  const joined: Cut[] = [];
  for (const cut of cuts) {
    const last = joined[joined.length - 1];
    if (last?.ownsLine && cut.ownsLine && /^[ \t\r\n]*$/.test(text.slice(last.end, cut.start))) last.end = cut.end;
    else joined.push({ ...cut });
  }
  for (const cut of joined) {
    if (!cut.ownsLine) continue;
    const before = text.slice(0, cut.start);
    // The blank line is the whitespace and break that end `before`, after the previous line's own break.
    const blankBefore = /(?:\r\n|\n|\r(?!\n))([ \t]*(?:\r\n|[\n\r]))$/.exec(before);
    if (before !== '' && !blankBefore) continue;
    let blank = cut.end;
    while (text[blank] === ' ' || text[blank] === '\t') blank++;
    if (lineBreakAt(text, blank) > 0) cut.end = blank + lineBreakAt(text, blank);
    else if (blankBefore && blank === text.length) cut.start -= blankBefore[1]!.length;
  }
  return joined;
}

export const iosStringsCodec: Codec = {
  id: 'ios_strings',
  extensions: ['.strings'],
  plurals: false,

  detect(fileName: string, head: string): number {
    const byName = /\.strings$/i.test(fileName);
    // A UTF-16 head read as bytes shows a zero byte beside each ASCII character.
    const body = head.replace(/^\uFEFF/, '').split('\u0000').join('');
    const looksLike = /^\s*(?:\/\*[^]*?\*\/\s*|\/\/[^\n]*\n\s*)*"(?:[^"\\\n]|\\.)*"\s*=\s*"/.test(body);
    if (byName) return looksLike || body.trim() === '' ? 1 : 0.8;
    return looksLike ? 0.4 : 0;
  },

  parse(bytes: Uint8Array): Entry[] {
    const { statements } = read(bytes);
    return statements.map((statement) => {
      const token = statement.value ?? statement.key;
      const entry: Entry = {
        key: statement.key.value,
        path: [statement.key.value],
        source: token.value,
        line: token.line,
        column: token.column,
      };
      const notes = notesOf(statement);
      if (notes !== undefined) entry.notes = notes;
      return entry;
    });
  },

  render(input: RenderInput): Uint8Array {
    const file = read(input.source);
    const { text } = file;
    const edits: { start: number; end: number; text: string }[] = [];
    const cuts: Cut[] = [];
    for (const statement of file.statements) {
      const translated = input.values.get(statement.key.value);
      if (translated === undefined) {
        if (input.missing === 'omit') cuts.push(statementCut(text, statement));
        continue;
      }
      const value = textValue(translated, 'ios_strings');
      const current = statement.value ?? statement.key;
      if (value === current.value) continue;
      if (statement.value) edits.push({ start: current.start, end: current.end, text: quoteStringsValue(value) });
      else edits.push({ start: statement.key.end, end: statement.key.end, text: ` = ${quoteStringsValue(value)}` });
    }
    for (const cut of joinCuts(text, cuts)) edits.push({ start: cut.start, end: cut.end, text: '' });
    if (edits.length === 0) return input.source.slice();
    edits.sort((a, b) => a.start - b.start);
    let out = '';
    let at = 0;
    for (const edit of edits) {
      out += text.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    return encode(out + text.slice(at), file.encoding, file.bom);
  },

  renderFresh(entries: readonly FreshEntry[]): Uint8Array {
    // A repeated key keeps its first position and its last value and notes, as the service's key map does.
    const byKey = new Map<string, FreshEntry>();
    for (const entry of entries) byKey.set(entry.key, entry);
    const blocks = [...byKey.values()].map((entry) => {
      const line = `${quoteStringsValue(entry.key)} = ${quoteStringsValue(textValue(entry.value, 'ios_strings'))};\n`;
      // `*/` would end the comment early; a space keeps the note readable.
      return entry.notes ? `/* ${entry.notes.replace(/\*\//g, '* /')} */\n${line}` : line;
    });
    return encode(blocks.join('\n'), 'utf-8', false);
  },
};
