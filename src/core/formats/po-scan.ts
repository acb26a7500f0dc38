// Hand-written gettext PO tokenizer that keeps every token's span, and the helpers that splice msgstr edits into the untouched text.
import { FileUnparsableError } from './codec.js';
import { decodeUtf8, encodeUtf8 } from './json-scan.js';

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
  const first = message.msgid.strings.find((s) => s.value !== '') ?? message.msgid.strings[0]!;
  return { line: first.line, column: first.column };
}

/** Notes for translators: the translator (`# `) and extracted (`#. `) comments, one per line. */
export function messageNotes(message: PoMessage, skip: (comment: PoComment) => boolean = () => false): string | undefined {
  const lines = message.comments.filter((c) => (c.kind === 'translator' || c.kind === 'extracted') && !skip(c)).map((c) => c.text);
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

class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) this.starts.push(i + 1);
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    return this.starts[line - 1]!;
  }

  /** Index where the line's content ends (before its terminator). */
  contentEnd(line: number): number {
    const next = this.starts[line];
    if (next === undefined) return this.text.length;
    return this.text.charCodeAt(next - 1) === 0x0a && this.text.charCodeAt(next - 2) === 0x0d ? next - 2 : next - 1;
  }

  at(index: number): PoPosition {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    const start = this.starts[lo]!;
    // Columns are counted on from the last lookup on the same line: a line of many strings stays linear, not quadratic.
    const resume = this.last && this.last.line === lo + 1 && this.last.index <= index ? this.last : undefined;
    let column = resume?.column ?? 1;
    for (let i = resume?.index ?? start; i < index; i++) {
      const c = this.text.charCodeAt(i);
      if (!(c >= 0xdc00 && c <= 0xdfff && i > start && isHighSurrogate(this.text.charCodeAt(i - 1)))) column++;
    }
    this.last = { line: lo + 1, index, column };
    return { line: lo + 1, column };
  }

  private last: { line: number; index: number; column: number } | undefined;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
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

const KEYWORD = /(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?/y;

interface Builder {
  start: number;
  comments: PoComment[];
  msgctxt?: PoField;
  msgid?: PoField;
  msgidPlural?: PoField;
  msgstr: PoField[];
}

class Scanner {
  private readonly lines: LineIndex;
  private readonly messages: PoMessage[] = [];
  private readonly keys = new Map<string, PoMessage>();
  private pending: PoComment[] = [];
  /** Start of the run of comment lines directly above the current line, if the previous line was a comment. */
  private runStart: number | undefined;
  private current: Builder | undefined;
  private field: PoField | undefined;
  private header: PoMessage | undefined;

  constructor(private readonly text: string) {
    this.lines = new LineIndex(text);
  }

  fail(message: string, at: number): never {
    const { line, column } = this.lines.at(at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  scan(): { messages: PoMessage[]; header?: PoMessage; keys: Map<string, PoMessage> } {
    const t = this.text;
    for (let line = 1; line <= this.lines.lineCount; line++) {
      const lineStart = this.lines.lineStart(line);
      const contentEnd = this.lines.contentEnd(line);
      let i = lineStart;
      while (i < contentEnd && isBlank(t.charCodeAt(i))) i++;
      if (i === contentEnd) {
        this.runStart = undefined;
        continue;
      }
      const c = t.charAt(i);
      if (c === '#') {
        this.comment(line, lineStart, i, contentEnd);
      } else if (c === '"') {
        if (!this.field) this.fail('Expected a keyword (msgctxt, msgid, msgid_plural or msgstr) before a string', i);
        this.strings(this.field, i, contentEnd, false);
        this.runStart = undefined;
      } else {
        this.keyword(lineStart, i, contentEnd);
        this.runStart = undefined;
      }
    }
    this.close(t.length, true);
    return { messages: this.messages, header: this.header, keys: this.keys };
  }

  /** Index just past the terminator of the line holding `at`. */
  private lineEnd(at: number): number {
    const { line } = this.lines.at(at);
    return line < this.lines.lineCount ? this.lines.lineStart(line + 1) : this.text.length;
  }

  private comment(line: number, lineStart: number, at: number, contentEnd: number): void {
    this.close(at, false);
    this.field = undefined;
    const marker = this.text.charAt(at + 1);
    const end = line < this.lines.lineCount ? this.lines.lineStart(line + 1) : this.text.length;
    if (marker === '~') {
      // An obsolete entry: kept as text, never an entry; comments above it are its own.
      this.pending = [];
      this.runStart = undefined;
      return;
    }
    this.runStart ??= lineStart;
    const kind = COMMENT_KINDS[marker] ?? 'translator';
    const body = this.text.slice(kind === 'translator' ? at + 1 : at + 2, contentEnd);
    const text = body.startsWith(' ') ? body.slice(1) : body;
    this.pending.push({ kind, text, start: lineStart, end, ...this.lines.at(at) });
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
    const last = b.msgstr[b.msgstr.length - 1]!;
    const message: PoMessage = {
      start: b.start,
      end: this.lineEnd(last.end),
      comments: b.comments,
      flags: b.comments.filter((c) => c.kind === 'flags').flatMap((c) => c.text.split(',').map((f) => f.trim()).filter(Boolean)),
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

  private keyword(lineStart: number, at: number, contentEnd: number): void {
    KEYWORD.lastIndex = at;
    const match = KEYWORD.exec(this.text);
    const next = this.text.charAt(KEYWORD.lastIndex);
    if (!match || /[\w[]/.test(next)) {
      this.fail('Expected a keyword (msgctxt, msgid, msgid_plural or msgstr), a string or a comment', at);
    }
    const keyword = match[1] as PoKeyword;
    const index = match[2] === undefined ? undefined : Number(match[2]);
    const b = this.current;
    // msgctxt always opens a message; msgid does unless it follows that message's msgctxt. Closing checks completeness.
    if (keyword === 'msgctxt' || (keyword === 'msgid' && !(b?.msgctxt && !b.msgid))) {
      this.close(at, false);
      this.current = { start: this.runStart ?? lineStart, comments: this.pending, msgstr: [] };
      this.pending = [];
    }
    const cur = this.current;
    if (!cur) this.fail(`Expected msgid before ${match[0]}`, at);
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
      lineStart,
      start: at,
      end: at,
      strings: [],
      value: '',
      ...this.lines.at(at),
    };
    this.strings(field, KEYWORD.lastIndex, contentEnd, true);
    if (keyword === 'msgctxt') cur.msgctxt = field;
    else if (keyword === 'msgid') cur.msgid = field;
    else if (keyword === 'msgid_plural') cur.msgidPlural = field;
    else cur.msgstr.push(field);
    this.field = field;
  }

  /** Reads the strings from `at` to the end of the line into `field`; the keyword's own line must hold at least one. */
  private strings(field: PoField, at: number, contentEnd: number, first: boolean): void {
    const t = this.text;
    let i = at;
    for (;;) {
      while (i < contentEnd && isBlank(t.charCodeAt(i))) i++;
      if (i >= contentEnd) break;
      if (t.charAt(i) !== '"') {
        const what = field.index === undefined ? field.keyword : `${field.keyword}[${field.index}]`;
        this.fail(first && field.strings.length === 0 ? `Expected a string after ${what}` : 'Expected a string or the end of the line', i);
      }
      const s = this.string(i, contentEnd);
      field.strings.push(s);
      field.value += s.value;
      field.end = s.end;
      i = s.end;
    }
    if (field.strings.length === 0) {
      const what = field.index === undefined ? field.keyword : `${field.keyword}[${field.index}]`;
      this.fail(`Expected a string after ${what}`, i);
    }
  }

  private string(start: number, contentEnd: number): PoString {
    const t = this.text;
    let value = '';
    let bytes: number[] = [];
    const flush = (): void => {
      if (bytes.length > 0) value += new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(bytes));
      bytes = [];
    };
    let i = start + 1;
    for (;;) {
      if (i >= contentEnd) this.fail(`Expected '"' to close the string before the end of the ${contentEnd === t.length ? 'file' : 'line'}`, i);
      const c = t.charAt(i);
      if (c === '"') break;
      if (c !== '\\') {
        flush();
        value += c;
        i++;
        continue;
      }
      const e = t.charAt(i + 1);
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        flush();
        value += simple;
        i += 2;
        continue;
      }
      // Numeric escapes are bytes in the file's encoding, so consecutive ones are decoded together (\303\251 is é).
      const octal = /^[0-7]{1,3}/.exec(t.slice(i + 1, i + 4));
      const hex = e === 'x' ? /^[0-9A-Fa-f]{1,2}/.exec(t.slice(i + 2, i + 4)) : null;
      if (octal) {
        bytes.push(parseInt(octal[0], 8) & 0xff);
        i += 1 + octal[0].length;
      } else if (hex) {
        bytes.push(parseInt(hex[0], 16));
        i += 2 + hex[0].length;
      } else {
        this.fail(`Expected a valid escape after '\\' (one of \\n \\t \\r \\a \\b \\f \\v \\\\ \\", octal \\ooo or hex \\xhh)`, i);
      }
    }
    flush();
    return { start, end: i + 1, value, ...this.lines.at(start) };
  }
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

/** Escapes text for a PO string: the named C escapes, and octal for other control characters (three digits, so a digit after one is safe). */
export function escapePo(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\\"\u0000-\u001f]/g, (c) => WRITE_ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

/** gettext's line width: a wrapped line, quotes included, stays within 79 columns. */
const WIDTH = 79;

/**
 * Formats one field as lines. Unwrapped: `keyword "value"` on one line. Wrapped, as msgmerge does: one line when it fits
 * and holds no inner newline, else `keyword ""` followed by one string per line of text, broken after spaces to fit.
 */
export function formatField(keyword: string, value: string, wrap: boolean): string[] {
  const escaped = escapePo(value);
  const single = `${keyword} "${escaped}"`;
  const pieces = value.split(/(?<=\n)/).filter((p) => p !== '');
  if (!wrap || (pieces.length <= 1 && width(single) <= WIDTH)) return [single];
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
  const fields = [message.msgctxt, message.msgid, message.msgidPlural, ...message.msgstr];
  return fields.some((f) => f !== undefined && f.strings.length > 1);
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
  const splices: Splice[] = [{ start: first.lineStart, end: last.end, text: lines.map((l) => indent + l).join(doc.eol) }];
  const unfuzzy = dropFlag(doc, message, 'fuzzy');
  if (unfuzzy) splices.push(unfuzzy);
  return splices;
}

/** Removes one flag from a message's `#,` lines, dropping a line left empty; undefined when the flag is absent. */
export function dropFlag(doc: PoDocument, message: PoMessage, flag: string): Splice | undefined {
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
