// Hand-written gettext PO tokenizer that keeps every token's span, and the helpers that splice msgstr edits into the untouched text.
import { FileUnparsableError } from './file-unparsable-error.js';
import { decodeUtf8, encodeUtf8 } from './json-scan.js';
import { ColumnCounter, LineReader } from './line-index.js';

/**
 * Offsets are UTF-16 indices into `PoDocument.text` (the file decoded, BOM stripped): edits are string splices, and
 * decoding then re-encoding an unchanged file is never needed because an unchanged render hands back the source bytes.
 */
export interface PoPosition {
  /** 1-based line; LF, CRLF and a lone CR each end a line. */
  line: number;
  /** 1-based column in code points. */
  column: number;
}

export type PoCommentKind = 'translator' | 'extracted' | 'reference' | 'flags' | 'previous';

export interface PoComment extends PoPosition {
  kind: PoCommentKind;
  /** The comment's text after its marker and one following space. */
  text: string;
  /** Index of the line's first character. */
  start: number;
  /** Index just past the line's terminator (or the end of the file). */
  end: number;
}

export interface PoString extends PoPosition {
  /** Index of the opening quote. */
  start: number;
  /** Index just past the closing quote. */
  end: number;
  value: string;
}

export type PoKeyword = 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr';

export interface PoField extends PoPosition {
  keyword: PoKeyword;
  /** The N of `msgstr[N]`. */
  index?: number;
  /** Index of the start of the keyword's line (its indentation belongs to the field). */
  lineStart: number;
  /** Index of the keyword. */
  start: number;
  /** Index just past the last string's closing quote. */
  end: number;
  strings: PoString[];
  /** The strings' values joined. */
  value: string;
}

export interface PoMessage {
  /** Index where the message's block starts: the first line of the comments directly above it, or its first keyword's line. */
  start: number;
  /** Index just past the terminator of the message's last line (or the end of the file). */
  end: number;
  /** Every comment since the previous message, in file order (gettext attaches them across blank lines). */
  comments: PoComment[];
  /** The `#,` flags, e.g. `fuzzy`, `c-format`. */
  flags: string[];
  msgctxt?: PoField;
  msgid: PoField;
  msgidPlural?: PoField;
  /** `msgstr`, or `msgstr[0]`, `msgstr[1]`, … for a plural message. */
  msgstr: PoField[];
  /** Whether this is the header entry (msgid "" without context). */
  header: boolean;
}

export interface PoDocument {
  /** Whether the file started with a UTF-8 byte order mark (not part of `text`). */
  bom: boolean;
  text: string;
  /** The charset the header declares, if any. */
  charset?: string;
  /** Whether the file was read as UTF-8 (UTF-8, ASCII, or the template placeholder CHARSET); otherwise changed output is re-encoded as UTF-8. */
  utf8: boolean;
  /** The file's line terminator (its first one), for lines the writer adds. */
  eol: string;
  messages: PoMessage[];
  header?: PoMessage;
  /** gettext's own key for every message: msgctxt + U+0004 + msgid, or msgid alone. */
  keys: Map<string, PoMessage>;
}

/** gettext's key for a message, as in .mo files: the context and the msgid joined by U+0004 (EOT) when a context exists. */
export function gettextKey(message: Pick<PoMessage, 'msgctxt' | 'msgid'>): string {
  return message.msgctxt ? `${message.msgctxt.value}\u0004${message.msgid.value}` : message.msgid.value;
}

/** Where a message's text is, for annotations: the msgid's first non-empty string (after a conventional `msgid ""`). */
export function messagePosition(message: PoMessage): PoPosition {
  const { strings } = message.msgid;
  let first = strings[0]!;
  for (const s of strings) {
    if (s.value !== '') {
      first = s;
      break;
    }
  }
  return { line: first.line, column: first.column };
}

/** Notes for translators: the translator (`# `) and extracted (`#. `) comments, one per line. */
export function messageNotes(message: PoMessage, skip?: (comment: PoComment) => boolean): string | undefined {
  if (message.comments.length === 0) return undefined;
  const lines = message.comments.filter((c) => (c.kind === 'translator' || c.kind === 'extracted') && !skip?.(c)).map((c) => c.text);
  return lines.length > 0 ? lines.join('\n') : undefined;
}

// ---------------------------------------------------------------------------------------------------------------------
// Decoding

const UTF8_NAMES = /^(?:utf-?8|charset|(?:us-)?ascii|ansi_x3\.4-1968)$/i;

/** The charset the header's Content-Type names and where, read from the raw bytes before the file can be decoded. */
function declaredCharset(bytes: Uint8Array): { name: string; line: number; column: number } | undefined {
  const head = bytes.subarray(0, 65536);
  let latin1 = '';
  for (let i = 0; i < head.length; i += 8192) latin1 += String.fromCharCode(...head.subarray(i, i + 8192));
  const match = /^([ \t]*"Content-Type:[^"\r\n]*?charset=)([A-Za-z0-9_.:+-]+)/im.exec(latin1);
  if (!match) return undefined;
  const lines = latin1.slice(0, match.index).split(/\r\n|\n|\r/);
  return { name: match[2]!, line: lines.length, column: lines[lines.length - 1]!.length + match[1]!.length + 1 };
}

function decodePo(bytes: Uint8Array): { text: string; bom: boolean; charset?: string; utf8: boolean } {
  const declared = declaredCharset(bytes);
  const charset = declared?.name;
  if (!declared || UTF8_NAMES.test(declared.name)) return { ...decodeUtf8(bytes), charset, utf8: true };
  let text: string;
  try {
    text = new TextDecoder(declared.name).decode(bytes);
  } catch {
    const { name, line, column } = declared;
    throw new FileUnparsableError(
      `The header declares charset=${name}, which is not a known encoding (expected UTF-8) at line ${line}, column ${column}`,
      line,
      column,
    );
  }
  return { text, bom: false, charset, utf8: false };
}

// ---------------------------------------------------------------------------------------------------------------------
// Positions

/** Line and column of an index, counted from the top: for error messages only, which need it once. */
function positionOf(text: string, index: number): PoPosition {
  let line = 1;
  let start = 0;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: new ColumnCounter(text).at(start, index) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Scanning

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
};

const COMMENT_KINDS: Readonly<Record<string, PoCommentKind>> = { '.': 'extracted', ':': 'reference', ',': 'flags', '|': 'previous' };

// The comments and flags of every message that has none: one empty list, since nothing writes to a scanned message's lists.
const NONE = Object.freeze([]) as never[];

// Longest first, so msgid_plural is not read as msgid.
const KEYWORDS: readonly PoKeyword[] = ['msgctxt', 'msgid_plural', 'msgid', 'msgstr'];

/** Decodes the bytes of consecutive numeric escapes (\303\251 is é in a UTF-8 file). */
const ESCAPED_BYTES = new TextDecoder('utf-8', { ignoreBOM: true });

interface Builder {
  start: number;
  comments: PoComment[];
  msgctxt?: PoField;
  msgid?: PoField;
  msgidPlural?: PoField;
  msgstr: PoField[];
  /** Index just past the terminator of the line holding the message's last string. */
  end: number;
}

class Scanner {
  private readonly messages: PoMessage[] = [];
  private readonly keys = new Map<string, PoMessage>();
  private readonly columns: ColumnCounter;
  private pending: PoComment[] = NONE;
  /** Start of the run of comment lines directly above the current line, if the previous line was a comment. */
  private runStart: number | undefined;
  private current: Builder | undefined;
  private field: PoField | undefined;
  private header: PoMessage | undefined;
  /** The line being read. */
  private readonly lines: LineReader;

  constructor(private readonly text: string) {
    this.columns = new ColumnCounter(text);
    this.lines = new LineReader(text);
  }

  private get line(): number {
    return this.lines.line;
  }

  private get lineStart(): number {
    return this.lines.start;
  }

  private get contentEnd(): number {
    return this.lines.contentEnd;
  }

  private get nextLine(): number {
    return this.lines.next;
  }

  fail(message: string, at: number): never {
    const { line, column } = positionOf(this.text, at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  private at(index: number): PoPosition {
    return { line: this.line, column: this.columns.at(this.lineStart, index) };
  }

  scan(): { messages: PoMessage[]; header?: PoMessage; keys: Map<string, PoMessage> } {
    const t = this.text;
    while (this.lines.advance()) {
      const contentEnd = this.contentEnd;
      let i = this.lineStart;
      while (i < contentEnd && isBlank(t.charCodeAt(i))) i++;
      if (i === contentEnd) {
        this.runStart = undefined;
      } else {
        const c = t.charCodeAt(i);
        if (c === 0x23) {
          this.comment(i);
        } else if (c === 0x22) {
          if (!this.field) this.fail('Expected a keyword (msgctxt, msgid, msgid_plural or msgstr) before a string', i);
          this.strings(this.field, i, false);
          this.runStart = undefined;
        } else {
          this.keyword(i);
          this.runStart = undefined;
        }
      }
    }
    this.close(t.length, true);
    return { messages: this.messages, header: this.header, keys: this.keys };
  }

  private comment(at: number): void {
    this.close(at, false);
    this.field = undefined;
    const t = this.text;
    const marker = t.charAt(at + 1);
    if (marker === '~') {
      // An obsolete entry: kept as text, never an entry; comments above it are its own.
      this.pending = NONE;
      this.runStart = undefined;
      return;
    }
    this.runStart ??= this.lineStart;
    const kind = COMMENT_KINDS[marker] ?? 'translator';
    let from = kind === 'translator' ? at + 1 : at + 2;
    if (t.charCodeAt(from) === 0x20 && from < this.contentEnd) from++;
    const text = from < this.contentEnd ? t.slice(from, this.contentEnd) : '';
    if (this.pending === NONE) this.pending = [];
    this.pending.push({ kind, text, start: this.lineStart, end: this.nextLine, line: this.line, column: this.columns.at(this.lineStart, at) });
  }

  /** Closes the message being read, if any; `final` at the end of the file. */
  private close(at: number, final: boolean): void {
    const b = this.current;
    if (!b) return;
    if (!b.msgid) this.fail(`Expected msgid after msgctxt${final ? ' before the end of the file' : ''}`, at);
    if (b.msgstr.length === 0) {
      const after = b.msgidPlural ? 'msgstr[0] after msgid_plural' : 'msgstr after msgid';
      this.fail(`Expected ${after}${final ? ' before the end of the file' : ''}`, at);
    }
    const message: PoMessage = {
      start: b.start,
      end: b.end,
      comments: b.comments,
      flags: flagsOf(b.comments),
      msgctxt: b.msgctxt,
      msgid: b.msgid,
      msgidPlural: b.msgidPlural,
      msgstr: b.msgstr,
      header: !b.msgctxt && b.msgid.value === '',
    };
    const key = gettextKey(message);
    const first = this.keys.get(key);
    if (first) {
      const what = message.header ? 'header entry (msgid "")' : `message ${JSON.stringify(message.msgid.value)}${message.msgctxt ? ` with msgctxt ${JSON.stringify(message.msgctxt.value)}` : ''}`;
      this.fail(`Duplicate ${what} (first defined at line ${first.msgid.line})`, message.msgid.start);
    }
    this.keys.set(key, message);
    if (message.header) this.header = message;
    this.messages.push(message);
    this.current = undefined;
    this.field = undefined;
  }

  private keyword(at: number): void {
    const t = this.text;
    const keyword = t.startsWith('msg', at) ? KEYWORDS.find((k) => t.startsWith(k, at)) : undefined;
    let after = at + (keyword?.length ?? 0);
    let index: number | undefined;
    if (keyword && t.charCodeAt(after) === 0x5b) {
      // msgstr[N]: digits and a closing bracket, else the bracket is what follows the keyword.
      let digits = after + 1;
      while (isDigit(t.charCodeAt(digits))) digits++;
      if (digits > after + 1 && t.charCodeAt(digits) === 0x5d) {
        index = Number(t.slice(after + 1, digits));
        after = digits + 1;
      }
    }
    if (!keyword || isWordOrBracket(t.charCodeAt(after))) {
      this.fail('Expected a keyword (msgctxt, msgid, msgid_plural or msgstr), a string or a comment', at);
    }
    const b = this.current;
    // msgctxt always opens a message; msgid does unless it follows that message's msgctxt. Closing checks completeness.
    if (keyword === 'msgctxt' || (keyword === 'msgid' && !(b?.msgctxt && !b.msgid))) {
      this.close(at, false);
      this.current = { start: this.runStart ?? this.lineStart, comments: this.pending, msgstr: NONE, end: this.nextLine };
      this.pending = NONE;
    }
    const cur = this.current;
    if (!cur) this.fail(`Expected msgid before ${t.slice(at, after)}`, at);
    if (keyword !== 'msgstr' && index !== undefined) this.fail(`Expected ${keyword} without an index`, at);
    switch (keyword) {
      case 'msgctxt':
        break;
      case 'msgid':
        break;
      case 'msgid_plural':
        if (!cur.msgid || cur.msgidPlural || cur.msgstr.length > 0) this.fail('Expected msgid_plural only once, after msgid', at);
        break;
      case 'msgstr': {
        if (!cur.msgid) this.fail('Expected msgid before msgstr', at);
        if (cur.msgidPlural) {
          if (index === undefined) this.fail(`Expected msgstr[${cur.msgstr.length}] after msgid_plural (a plural message has indexed msgstr)`, at);
          if (index !== cur.msgstr.length) this.fail(`Expected msgstr[${cur.msgstr.length}]; plural forms must be numbered from 0 without gaps`, at);
        } else {
          if (index !== undefined) this.fail('Expected msgstr without an index (msgstr[N] needs msgid_plural)', at);
          if (cur.msgstr.length > 0) this.fail('Expected one msgstr per msgid', at);
        }
        break;
      }
    }
    const field: PoField = {
      keyword,
      index,
      lineStart: this.lineStart,
      start: at,
      end: at,
      strings: NONE,
      value: '',
      line: this.line,
      column: this.columns.at(this.lineStart, at),
    };
    this.strings(field, after, true);
    if (keyword === 'msgctxt') cur.msgctxt = field;
    else if (keyword === 'msgid') cur.msgid = field;
    else if (keyword === 'msgid_plural') cur.msgidPlural = field;
    // Lists start at their exact length: an empty one that is pushed to takes room for 17.
    else if (cur.msgstr === NONE) cur.msgstr = [field];
    else cur.msgstr.push(field);
    this.field = field;
  }

  /** Reads the strings from `at` to the end of the line into `field`; the keyword's own line must hold at least one. */
  private strings(field: PoField, at: number, first: boolean): void {
    const t = this.text;
    const contentEnd = this.contentEnd;
    let i = at;
    for (;;) {
      while (i < contentEnd && isBlank(t.charCodeAt(i))) i++;
      if (i >= contentEnd) break;
      if (t.charCodeAt(i) !== 0x22) {
        const what = field.index === undefined ? field.keyword : `${field.keyword}[${field.index}]`;
        this.fail(first && field.strings.length === 0 ? `Expected a string after ${what}` : 'Expected a string or the end of the line', i);
      }
      const s = this.string(i);
      if (field.strings === NONE) field.strings = [s];
      else field.strings.push(s);
      field.value = field.strings.length === 1 ? s.value : field.value + s.value;
      field.end = s.end;
      i = s.end;
    }
    if (field.strings.length === 0) {
      const what = field.index === undefined ? field.keyword : `${field.keyword}[${field.index}]`;
      this.fail(`Expected a string after ${what}`, i);
    }
    if (this.current) this.current.end = this.nextLine;
  }

  private string(start: number): PoString {
    const t = this.text;
    const contentEnd = this.contentEnd;
    // First the string's extent, checking its escapes in order; a line's end closes no string.
    let i = start + 1;
    let escapes = false;
    // Whether its escapes are all ones JSON shares (and no raw control character JSON would refuse), so JSON.parse decodes it.
    let json = true;
    for (;;) {
      while (i < contentEnd) {
        const c = t.charCodeAt(i);
        if (c === 0x22 || c === 0x5c) break;
        if (c < 0x20) json = false;
        i++;
      }
      if (i >= contentEnd) this.fail(`Expected '"' to close the string before the end of the ${contentEnd === t.length ? 'file' : 'line'}`, i);
      if (t.charCodeAt(i) === 0x22) break;
      escapes = true;
      const e = t.charCodeAt(i + 1);
      if (JSON_ESCAPES.has(e)) {
        i += 2;
      } else if (e === 0x61 || e === 0x76) {
        json = false;
        i += 2;
      } else if (isOctal(e)) {
        json = false;
        const backslash = i;
        i += 2;
        while (i < backslash + 4 && isOctal(t.charCodeAt(i))) i++;
      } else if (e === 0x78 && hexValue(t.charCodeAt(i + 2)) >= 0) {
        json = false;
        i += 3;
        if (hexValue(t.charCodeAt(i)) >= 0) i++;
      } else {
        this.fail(`Expected a valid escape after '\\' (one of \\n \\t \\r \\a \\b \\f \\v \\\\ \\", octal \\ooo or hex \\xhh)`, i);
      }
    }
    const end = i + 1;
    let value: string;
    if (!escapes) value = t.slice(start + 1, i);
    // One flat string, where joining the pieces would leave a chain of them for the collector to copy.
    else if (json) value = JSON.parse(t.slice(start, end)) as string;
    else value = decodeEscapes(t, start + 1, i);
    return { start, end, value, line: this.line, column: this.columns.at(this.lineStart, start) };
  }
}

/** The escapes PO and JSON write alike: \\ \" \n \t \r \b \f. */
const JSON_ESCAPES: ReadonlySet<number> = new Set([...'\\"ntrbf'].map((c) => c.charCodeAt(0)));

/** Decodes a string's text between its quotes, whose escapes are valid. */
function decodeEscapes(t: string, from: number, to: number): string {
  let value = '';
  let chunk = from;
  let bytes: number[] | undefined;
  let i = from;
  while (i < to) {
    if (t.charCodeAt(i) !== 0x5c) {
      i++;
      continue;
    }
    if (i > chunk) {
      if (bytes) value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
      bytes = undefined;
      value += t.slice(chunk, i);
    }
    const simple = SIMPLE_ESCAPES[t.charAt(i + 1)];
    if (simple !== undefined) {
      if (bytes) value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
      bytes = undefined;
      value += simple;
      i += 2;
    } else {
      // Numeric escapes are bytes in the file's encoding, so consecutive ones are decoded together (\303\251 is é).
      let code = 0;
      let end: number;
      if (t.charCodeAt(i + 1) === 0x78) {
        end = i + 2;
        while (end < i + 4 && hexValue(t.charCodeAt(end)) >= 0) code = code * 16 + hexValue(t.charCodeAt(end++));
      } else {
        end = i + 1;
        while (end < i + 4 && isOctal(t.charCodeAt(end))) code = code * 8 + t.charCodeAt(end++) - 0x30;
      }
      (bytes ??= []).push(code & 0xff);
      i = end;
    }
    chunk = i;
  }
  if (i > chunk) {
    if (bytes) value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
    bytes = undefined;
    value += t.slice(chunk, i);
  }
  if (bytes) value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
  return value;
}

/** The `#,` flags of a message's comments, e.g. `fuzzy`, `c-format`. */
function flagsOf(comments: readonly PoComment[]): string[] {
  let flags: string[] = NONE;
  for (const c of comments) {
    if (c.kind !== 'flags') continue;
    for (const f of c.text.split(',')) {
      const flag = f.trim();
      if (flag) (flags === NONE ? (flags = []) : flags).push(flag);
    }
  }
  return flags;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isOctal(c: number): boolean {
  return c >= 0x30 && c <= 0x37;
}

function hexValue(c: number): number {
  return c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
}

/** What may not directly follow a keyword: a word character or '['. */
function isWordOrBracket(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x5b;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0c || c === 0x0b;
}

/** Reads a PO file, keeping every message's span; throws FileUnparsableError naming line and column on malformed input. */
export function scanPo(bytes: Uint8Array): PoDocument {
  const { text, bom, charset, utf8 } = decodePo(bytes);
  const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
  const { messages, header, keys } = new Scanner(text).scan();
  return { bom, text, charset, utf8, eol, messages, header, keys };
}

// ---------------------------------------------------------------------------------------------------------------------
// Writing

const WRITE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\t': '\\t',
  '\r': '\\r',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
};

/**
 * What PO and JSON escape differently: control characters without a name in JSON (PO writes \\a, \\v and octal where
 * JSON writes \\u00XX), and surrogates (JSON escapes a lone one, PO keeps it). Text without them escapes alike.
 */
// eslint-disable-next-line no-control-regex
const UNLIKE_JSON = /[\u0000-\u0007\u000b\u000e-\u001f\ud800-\udfff]/;

/** Escapes text for a PO string: the named C escapes, and octal for other control characters (three digits, so a digit after one is safe). */
export function escapePo(value: string): string {
  if (!UNLIKE_JSON.test(value)) return JSON.stringify(value).slice(1, -1);
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\\"\u0000-\u001f]/g, (c) => WRITE_ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

/** A PO string: the text escaped, in quotes. */
function quotePo(value: string): string {
  return UNLIKE_JSON.test(value) ? `"${escapePo(value)}"` : JSON.stringify(value);
}

/** gettext's line width: a wrapped line, quotes included, stays within 79 columns. */
const WIDTH = 79;

/**
 * Formats one field as lines. Unwrapped: `keyword "value"` on one line. Wrapped, as msgmerge does: one line when it fits
 * and holds no inner newline, else `keyword ""` followed by one string per line of text, broken after spaces to fit.
 */
export function formatField(keyword: string, value: string, wrap: boolean): string[] {
  const single = `${keyword} ${quotePo(value)}`;
  if (!wrap) return [single];
  // One piece of text (no newline but a final one), and a width no more than its length.
  const newline = value.indexOf('\n');
  if ((newline < 0 || newline === value.length - 1) && (single.length <= WIDTH || width(single) <= WIDTH)) return [single];
  const pieces = value.split(/(?<=\n)/).filter((p) => p !== '');
  const lines = [`${keyword} ""`];
  for (const piece of pieces) for (const chunk of breakLine(escapePo(piece), WIDTH - 2)) lines.push(`"${chunk}"`);
  return lines;
}

function width(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Breaks escaped text after spaces into chunks of at most `max` columns; a word longer than that stays whole. */
function breakLine(escaped: string, max: number): string[] {
  const words = escaped.match(/[^ ]* +|[^ ]+/g) ?? [''];
  const chunks: string[] = [];
  let current = '';
  for (const word of words) {
    if (current !== '' && width(current) + width(word) > max) {
      chunks.push(current);
      current = '';
    }
    current += word;
  }
  chunks.push(current);
  return chunks;
}

/** Whether the message was written wrapped (some field spans several strings), so a rewritten msgstr follows suit. */
export function isWrapped(message: PoMessage): boolean {
  if (message.msgid.strings.length > 1 || (message.msgctxt?.strings.length ?? 0) > 1 || (message.msgidPlural?.strings.length ?? 0) > 1) return true;
  return message.msgstr.some((f) => f.strings.length > 1);
}

/** A replacement of `text.slice(start, end)`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping splices (in any order) to the text. */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    out += text.slice(at, s.start) + s.text;
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * Rewrites a message's msgstr (one form) or msgstr[0..n-1] (several) with the given forms, wrapped like the message
 * was, and drops its `fuzzy` flag: the value is a finished translation, and gettext skips fuzzy ones.
 */
export function writeMessage(doc: PoDocument, message: PoMessage, forms: readonly string[], plural: boolean): Splice[] {
  const first = message.msgstr[0]!;
  const last = message.msgstr[message.msgstr.length - 1]!;
  const indent = doc.text.slice(first.lineStart, first.start);
  const wrap = isWrapped(message);
  const lines = plural
    ? forms.flatMap((form, i) => formatField(`msgstr[${i}]`, form, wrap))
    : formatField('msgstr', forms[0] ?? '', wrap);
  const text = lines.length === 1 ? indent + lines[0]! : lines.map((l) => indent + l).join(doc.eol);
  const splices: Splice[] = [{ start: first.lineStart, end: last.end, text }];
  const unfuzzy = dropFlag(doc, message, 'fuzzy');
  if (unfuzzy) splices.push(unfuzzy);
  return splices;
}

/** Removes one flag from a message's `#,` lines, dropping a line left empty; undefined when the flag is absent. */
export function dropFlag(doc: PoDocument, message: PoMessage, flag: string): Splice | undefined {
  if (flag !== '' && !message.flags.includes(flag)) return undefined;
  const line = message.comments.find((c) => c.kind === 'flags' && c.text.split(',').some((f) => f.trim() === flag));
  if (!line) return undefined;
  const rest = line.text.split(',').map((f) => f.trim()).filter((f) => f !== '' && f !== flag);
  if (rest.length === 0) return { start: line.start, end: line.end, text: '' };
  const raw = doc.text.slice(line.start, line.end);
  const terminator = /\r\n|\n|\r$/.exec(raw)?.[0] ?? '';
  const marker = /^[ \t]*#,/.exec(raw)?.[0] ?? '#,';
  return { start: line.start, end: line.end, text: `${marker} ${rest.join(', ')}${terminator}` };
}

/**
 * Removes messages with their comments. Each run of removed messages with nothing but blank lines between them goes
 * with the blank lines after it; a run at the end of the file takes the blank lines before it instead, so the file
 * does not end in a blank line it did not have.
 */
export function omitMessages(doc: PoDocument, messages: readonly PoMessage[]): Splice[] {
  const t = doc.text;
  const blankLine = /[ \t\f\v]*(?:\r\n|\n|\r)/y;
  const skipBlank = (from: number): number => {
    let at = from;
    for (;;) {
      blankLine.lastIndex = at;
      if (!blankLine.test(t)) return at;
      at = blankLine.lastIndex;
    }
  };
  const runs: { start: number; end: number }[] = [];
  for (const m of [...messages].sort((x, y) => x.start - y.start)) {
    const last = runs[runs.length - 1];
    if (last && skipBlank(last.end) >= m.start) last.end = m.end;
    else runs.push({ start: m.start, end: m.end });
  }
  return runs.map(({ start, end }) => {
    const after = skipBlank(end);
    if (!/^[ \t\f\v]*$/.test(t.slice(after))) return { start, end: after, text: '' };
    let from = start;
    for (;;) {
      // A blank line directly before, preceded by the previous line's own terminator (which stays).
      const m = /(?:\r\n|\n|\r)([ \t\f\v]*(?:\r\n|\n|\r))$/.exec(t.slice(0, from));
      if (!m) break;
      from -= m[1]!.length;
    }
    return { start: from, end, text: '' };
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Header

/** Header fields in order, as `[name, value]`; lines without a colon are kept with an empty name. */
export type HeaderFields = [string, string][];

export function parseHeader(value: string): HeaderFields {
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => {
    const colon = line.indexOf(':');
    return colon < 0 ? ['', line] : [line.slice(0, colon), line.slice(colon + 1).trimStart()];
  });
}

export function headerField(fields: HeaderFields, name: string): string | undefined {
  return fields.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

/** Sets a field in place, or adds it after the first of `after` that exists (else at the end). */
export function setHeaderField(fields: HeaderFields, name: string, value: string, after: readonly string[] = []): void {
  const existing = fields.find(([n]) => n.toLowerCase() === name.toLowerCase());
  if (existing) {
    existing[1] = value;
    return;
  }
  const anchor = after.map((a) => fields.findIndex(([n]) => n.toLowerCase() === a.toLowerCase())).find((i) => i >= 0);
  fields.splice(anchor === undefined ? fields.length : anchor + 1, 0, [name, value]);
}

export function serializeHeader(fields: HeaderFields): string {
  return fields.map(([name, value]) => `${name === '' ? value : `${name}: ${value}`}\n`).join('');
}

/** Points the Content-Type at UTF-8 (the only encoding Parlance writes), adding the field when it is missing. */
export function useUtf8(fields: HeaderFields): void {
  const contentType = headerField(fields, 'Content-Type');
  const next = contentType === undefined ? 'text/plain; charset=UTF-8' : /charset=/i.test(contentType)
    ? contentType.replace(/charset=[^\s;]*/i, 'charset=UTF-8')
    : `${contentType}; charset=UTF-8`;
  setHeaderField(fields, 'Content-Type', next, ['MIME-Version', 'Language', 'Language-Team']);
}

/**
 * Rewrites the header's msgstr to `value`, one string per header line as gettext writes it; lines whose text is
 * unchanged keep their original spelling. Undefined when the value is unchanged.
 */
export function writeHeader(doc: PoDocument, header: PoMessage, value: string): Splice | undefined {
  const field = header.msgstr[0]!;
  if (field.value === value) return undefined;
  const raw = new Map<string, string>();
  for (const s of field.strings) if (!raw.has(s.value)) raw.set(s.value, doc.text.slice(s.start, s.end));
  const indent = doc.text.slice(field.lineStart, field.start);
  const lines = value.split(/(?<=\n)/).filter((l) => l !== '');
  const body = lines.map((l) => raw.get(l) ?? `"${escapePo(l)}"`);
  return { start: field.lineStart, end: field.end, text: [`${indent}msgstr ""`, ...body].join(doc.eol) };
}

/** A header entry for a file that has none, written before everything else. */
export function newHeader(doc: PoDocument, value: string): Splice {
  const lines = ['msgid ""', 'msgstr ""', ...value.split(/(?<=\n)/).filter((l) => l !== '').map((l) => `"${escapePo(l)}"`)];
  return { start: 0, end: 0, text: `${lines.join(doc.eol)}${doc.eol}${doc.text === '' ? '' : doc.eol}` };
}

/** Encodes rendered text: UTF-8, with the source's BOM. */
export function encodePo(doc: PoDocument, text: string): Uint8Array {
  return encodeUtf8(text, doc.bom);
}
