// Shared hand-written XML scanner: decodes, checks well-formedness and keeps every node's span so codecs can splice.
import { firstInvalidUtf8 } from './utf8.js';
import { FileUnparsableError } from './file-unparsable-error.js';

/*
 * Offsets are UTF-16 indices into the decoded text (BOM stripped). Codecs splice strings, and the decode/encode
 * round trip of well-formed UTF-8 and UTF-16 is exact, so byte offsets are never needed.
 * Columns count code points, so an emoji or a tab counts once (as the JSON scanner does).
 */

export interface XmlAttribute {
  name: string;
  /** Entities decoded and literal whitespace normalised to spaces, as an XML parser reports it. */
  value: string;
  /** The whole attribute, from the first character of its name to just past the closing quote. */
  start: number;
  end: number;
  /** The raw value between the quotes. */
  valueStart: number;
  valueEnd: number;
  quote: '"' | "'";
}

export interface XmlElement {
  kind: 'element';
  /** Qualified, e.g. 'xliff:g'. */
  name: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
  start: number;
  /** Just past the end tag (or past '/>'). */
  end: number;
  /** Just past the start tag's '>'. */
  openEnd: number;
  /** At '</', or equal to `end` when self-closing. */
  closeStart: number;
  selfClosing: boolean;
  line: number;
  column: number;
}

export interface XmlText {
  kind: 'text';
  raw: string;
  /** Entities decoded, line ends normalised to LF (a `&#13;` stays a CR). */
  value: string;
  start: number;
  end: number;
  line: number;
  column: number;
}

export interface XmlCData {
  kind: 'cdata';
  /** The content between `<![CDATA[` and `]]>`, line ends normalised to LF. */
  value: string;
  start: number;
  end: number;
  line: number;
  column: number;
}

export interface XmlComment {
  kind: 'comment';
  /** The content between `<!--` and `-->`, line ends normalised to LF. */
  value: string;
  start: number;
  end: number;
  line: number;
  column: number;
}

export interface XmlOther {
  kind: 'pi' | 'doctype';
  raw: string;
  start: number;
  end: number;
  line: number;
  column: number;
}

export type XmlNode = XmlElement | XmlText | XmlCData | XmlComment | XmlOther;

export interface XmlDocument {
  text: string;
  /** Top-level nodes in order, including the prolog, comments and whitespace between them. */
  nodes: XmlNode[];
  root: XmlElement;
}

export type XmlEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

const NO_PREFIXES: ReadonlySet<string> = new Set();
// What elements without attributes, and leaf elements, share instead of an empty array each (a tree is read, never
// changed, by the codecs), so a scan allocates and keeps fewer objects.
const NO_ATTRIBUTES: XmlAttribute[] = [];
const NO_CHILDREN: XmlNode[] = [];

// Deep enough for any real resource file; keeps codecs that walk the tree recursively clear of stack overflow.
const MAX_DEPTH = 512;

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const PREDEFINED: ReadonlyMap<string, string> = new Map(Object.entries(PREDEFINED_ENTITIES));

// Characters XML 1.0 cannot carry at all, not even as references. With the `u` flag, the surrogate range only
// matches unpaired halves, which TextDecoder never yields but callers' strings may hold.
// eslint-disable-next-line no-control-regex
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;
// eslint-disable-next-line no-control-regex
const INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;

// Any half of a surrogate pair (without the `u` flag, pairs are two matches of it rather than one character).
const SURROGATE = /[\uD800-\uDFFF]/;

// Anything escapeXmlText changes; most values hold none of it.
// eslint-disable-next-line no-control-regex
const TEXT_ESCAPED = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;

// Anything escapeXmlAttribute might change; most values (ids, names, locales) hold none of it.
// eslint-disable-next-line no-control-regex
const ATTRIBUTE_ESCAPED = /[&<"'\n\r\t\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;

const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040`;
// eslint-disable-next-line no-misleading-character-class -- XML name characters include combining marks by design
const NAME = new RegExp(`[${NAME_START}][${NAME_CHAR}]*`, 'uy');
// Character data up to the next character that needs a closer look.
// eslint-disable-next-line no-control-regex
const PLAIN_TEXT = /[^<&\]\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]+/uy;
const XML_DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>$/;
const DECLARED_ENCODING = /^(?:\uFEFF)?<\?xml[^>]*?[ \t\r\n]encoding[ \t\r\n]*=[ \t\r\n]*(["'])([^"']*)\1/;
const SUPPORTED_ENCODINGS = new Set(['utf-8', 'utf8', 'utf-16', 'utf-16le', 'utf-16be', 'ucs-2', 'unicode', 'us-ascii', 'ascii']);

// ---------------------------------------------------------------------------------------------------------------
// Bytes

/**
 * Decodes a file, recognising a BOM (UTF-8, UTF-16 LE/BE) or, without one, UTF-16 from the zero byte beside its '<'.
 * Malformed byte sequences and encodings other than UTF-8/UTF-16 are reported with their position.
 */
export function decodeXml(bytes: Uint8Array): { text: string; bom: boolean; encoding: XmlEncoding } {
  let encoding: XmlEncoding = 'utf-8';
  let skip = 0;
  const [b0, b1, b2] = [bytes[0], bytes[1], bytes[2]];
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) skip = 3;
  else if (b0 === 0xff && b1 === 0xfe) [encoding, skip] = ['utf-16le', 2];
  else if (b0 === 0xfe && b1 === 0xff) [encoding, skip] = ['utf-16be', 2];
  // No BOM: a '<' with a zero byte beside it can only be UTF-16 (UTF-8 XML never holds a NUL).
  else if (b0 === 0x3c && b1 === 0x00) encoding = 'utf-16le';
  else if (b0 === 0x00 && b1 === 0x3c) encoding = 'utf-16be';
  const body = bytes.subarray(skip);
  const text = encoding === 'utf-8' ? decodeUtf8Strict(body) : decodeUtf16Strict(body, encoding);
  const declared = DECLARED_ENCODING.exec(text);
  if (declared && !SUPPORTED_ENCODINGS.has(declared[2]!.toLowerCase())) {
    const { line, column } = lineColumn(text, declared.index + declared[0].length - declared[2]!.length - 1);
    throw new FileUnparsableError(
      `Unsupported encoding '${declared[2]}'; expected UTF-8 or UTF-16 at line ${line}, column ${column}`,
      line,
      column,
    );
  }
  return { text, bom: skip > 0, encoding };
}

// One encoder for every render: it holds no state between calls.
const UTF8 = new TextEncoder();

/** Encodes text in the file's original encoding, restoring the BOM when the source had one. */
export function encodeXml(text: string, bom: boolean, encoding: XmlEncoding): Uint8Array {
  const full = bom ? `\uFEFF${text}` : text;
  if (encoding === 'utf-8') return UTF8.encode(full);
  const out = new Uint8Array(full.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < full.length; i++) view.setUint16(i * 2, full.charCodeAt(i), encoding === 'utf-16le');
  return out;
}

function decodeUtf8Strict(body: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const bad = Math.max(0, firstInvalidUtf8(body));
    const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body.subarray(0, bad));
    const { line, column } = lineColumn(before, before.length);
    throw new FileUnparsableError(`Invalid UTF-8 byte sequence at line ${line}, column ${column}`, line, column);
  }
}

function decodeUtf16Strict(body: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): string {
  const units = Math.floor(body.length / 2);
  let text = '';
  const chunk: number[] = [];
  for (let i = 0; i < units; i++) {
    chunk.push(encoding === 'utf-16le' ? body[2 * i]! | (body[2 * i + 1]! << 8) : (body[2 * i]! << 8) | body[2 * i + 1]!);
    if (chunk.length === 8192) {
      text += String.fromCharCode(...chunk);
      chunk.length = 0;
    }
  }
  text += String.fromCharCode(...chunk);
  const lone = /[\uD800-\uDFFF]/u.exec(text);
  if (lone || body.length % 2 === 1) {
    const at = lone ? lone.index : text.length;
    const { line, column } = lineColumn(text, at);
    const what = lone ? 'Unpaired UTF-16 surrogate' : 'The file ends in the middle of a UTF-16 character';
    throw new FileUnparsableError(`${what} at line ${line}, column ${column}`, line, column);
  }
  return text;
}

// ---------------------------------------------------------------------------------------------------------------
// Positions

// Codecs ask for many positions in the same text, mostly moving forward: remember its line starts and the last answer.
let cachedText: string | undefined;
let cachedStarts: number[] = [];
let lastOffset = -1;
let lastLine = 0;
let lastColumn = 0;

/** 1-based line and column (in code points) of a UTF-16 offset; LF, CRLF and a lone CR each end a line. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  // Equal text in a different string object compares in linear time: adopting the caller's object makes the
  // following calls with it compare by identity.
  const same = text === cachedText;
  cachedText = text;
  if (!same) {
    cachedStarts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) cachedStarts.push(i + 1);
    }
    lastOffset = -1;
    lastLine = 0;
    lastColumn = 0;
  }
  const target = Math.max(0, Math.min(offset, text.length));
  let lo = 0;
  let hi = cachedStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cachedStarts[mid]! <= target) lo = mid;
    else hi = mid - 1;
  }
  const lineStart = cachedStarts[lo]!;
  let from = lineStart;
  let column = 1;
  if (lastLine === lo + 1 && lastOffset <= target && lastOffset >= lineStart) {
    from = lastOffset;
    column = lastColumn;
  }
  for (let i = from; i < target; i++) {
    const c = text.charCodeAt(i);
    // The low half of a surrogate pair and the CR of a CRLF add no column.
    if (c >= 0xdc00 && c <= 0xdfff && i > lineStart && isHighSurrogate(text.charCodeAt(i - 1))) continue;
    if (c === 0x0d) continue;
    column++;
  }
  lastOffset = target;
  lastLine = lo + 1;
  lastColumn = column;
  return { line: lo + 1, column };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

// ---------------------------------------------------------------------------------------------------------------
// Scanning

/** Scans a decoded document; anything not well-formed (namespaces included) throws FileUnparsableError. */
export function scanXml(text: string): XmlDocument {
  return new Scanner(text).scan();
}

class Scanner {
  private pos = 0;
  private readonly entities = new Map<string, string>(Object.entries(PREDEFINED_ENTITIES));
  // Namespace prefixes declared on each open element, innermost last.
  private readonly prefixes: ReadonlySet<string>[] = [];
  private readonly attributeScratch: XmlAttribute[] = [];

  constructor(private readonly text: string) {}

  scan(): XmlDocument {
    const t = this.text;
    if (t.charCodeAt(0) === 0xfeff) this.pos = 1;
    const documentStart = this.pos;
    this.plainColumns = !t.includes('\r');
    const nodes: XmlNode[] = [];
    const stack: XmlElement[] = [];
    // Children of the open elements, innermost last, each element's from its mark in `marks`: an element gets its
    // children as one exactly sized array when it closes, rather than an array grown by pushes (most hold one or two).
    const pending: XmlNode[] = [];
    const marks: number[] = [];
    let root: XmlElement | undefined;
    let doctypeSeen = false;
    const add = (node: XmlNode): void => {
      (stack.length > 0 ? pending : nodes).push(node);
    };
    while (this.pos < t.length) {
      const start = this.pos;
      if (t.charCodeAt(start) !== 0x3c /* < */) {
        const node = this.scanText();
        if (stack.length === 0) {
          const offset = node.raw.search(/[^ \t\r\n]/);
          if (offset >= 0) {
            if (root) this.fail(`Expected nothing but whitespace and comments after the root element </${root.name}>`, start + offset);
            this.fail("Expected the root element ('<'); text is not allowed before it", start + offset);
          }
        }
        add(node);
        continue;
      }
      const next = t.charCodeAt(start + 1);
      if (next === 0x2f /* / */) {
        const element = stack.pop();
        this.scanEndTag(element);
        element!.closeStart = start;
        element!.end = this.pos;
        const mark = marks.pop()!;
        if (pending.length > mark) {
          element!.children = exactCopy(pending, mark, pending.length);
          pending.length = mark;
        }
        this.prefixes.pop();
      } else if (next !== 0x21 /* ! */ && next !== 0x3f /* ? */) {
        if (stack.length === 0 && root) this.fail(`Expected a single root element; found another element after </${root.name}>`, start);
        if (stack.length >= MAX_DEPTH) this.fail(`Elements are nested more than ${MAX_DEPTH} levels deep`, start);
        const element = this.scanStartTag();
        add(element);
        if (stack.length === 0) root = element;
        if (!element.selfClosing) {
          stack.push(element);
          marks.push(pending.length);
        } else this.prefixes.pop();
      } else if (t.startsWith('<!--', start)) add(this.scanComment());
      else if (t.startsWith('<![CDATA[', start)) {
        if (stack.length === 0) this.fail('A CDATA section is only allowed inside the root element', start);
        add(this.scanCData());
      } else if (t.startsWith('<!DOCTYPE', start)) {
        if (stack.length > 0 || root) this.fail('A DOCTYPE is only allowed before the root element', start);
        if (doctypeSeen) this.fail('Only one DOCTYPE is allowed', start);
        doctypeSeen = true;
        add(this.scanDoctype());
      } else if (t.startsWith('<!', start)) this.fail("Expected a comment ('<!--'), CDATA section or DOCTYPE after '<!'", start);
      else add(this.scanProcessingInstruction(start === documentStart));
    }
    const open = stack[stack.length - 1];
    if (open) {
      this.fail(`Expected '</${open.name}>' to close <${open.name}> (opened at line ${open.line}, column ${open.column}) before the end of the file`, t.length);
    }
    if (!root) this.fail("Expected a root element; the file has none", t.length);
    return { text: t, nodes, root };
  }

  private fail(message: string, at: number = this.pos): never {
    const { line, column } = lineColumn(this.text, at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  // Nodes are positioned in document order, so one forward-moving counter serves them all; `locate` leaves the
  // answer in `line` and `column` rather than allocating an object per node.
  private counted = 0;
  private line = 1;
  private column = 1;

  // Without CRs and surrogate pairs, as nearly every file is, a column is the distance from the line start, and line
  // ends are found with indexOf rather than by looking at every character. The scan clears this on meeting either.
  private plainColumns = false;
  // Where the line holding `counted` starts, and the next LF at or after `counted` (-1 when not looked for yet).
  private lineStart = 0;
  private nextLineFeed = -1;

  private locate(at: number): void {
    const t = this.text;
    if (at < this.counted) {
      ({ line: this.line, column: this.column } = lineColumn(t, at));
      this.counted = at;
      this.lineStart = at - this.column + 1;
      this.nextLineFeed = -1;
      return;
    }
    if (this.plainColumns) {
      let { line, lineStart, nextLineFeed } = this;
      if (nextLineFeed < 0) nextLineFeed = t.indexOf('\n', this.counted);
      while (nextLineFeed >= 0 && nextLineFeed < at) {
        line++;
        lineStart = nextLineFeed + 1;
        nextLineFeed = t.indexOf('\n', lineStart);
      }
      this.counted = at;
      this.line = line;
      this.column = at - lineStart + 1;
      this.lineStart = lineStart;
      // No LF left is remembered as one past the end, so the search is not repeated for every node of the last line.
      this.nextLineFeed = nextLineFeed < 0 ? t.length : nextLineFeed;
      return;
    }
    let { line, column } = this;
    let index = this.counted;
    for (; index < at; index++) {
      const c = t.charCodeAt(index);
      if (c > 0x0d && c < 0xdc00) {
        column++;
      } else if (c === 0x0a || (c === 0x0d && t.charCodeAt(index + 1) !== 0x0a)) {
        line++;
        column = 1;
      } else if (c === 0x0d || (c >= 0xdc00 && c <= 0xdfff && isHighSurrogate(t.charCodeAt(index - 1)))) {
        // The CR of a CRLF and the low half of a surrogate pair add no column.
      } else {
        column++;
      }
    }
    this.counted = index;
    this.line = line;
    this.column = column;
  }

  private skipWhitespace(): number {
    const t = this.text;
    const from = this.pos;
    let at = from;
    for (let c = t.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = t.charCodeAt(++at));
    this.pos = at;
    return at - from;
  }

  // Recently read names, by a hash of their first and last characters and length.
  private readonly names: (string | undefined)[] = new Array<string | undefined>(64).fill(undefined);

  private scanName(what: string): string {
    // ASCII names, nearly all of them, are read without the Unicode-aware expression.
    const t = this.text;
    const start = this.pos;
    let c = t.charCodeAt(start);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a) {
      let end = start + 1;
      for (c = t.charCodeAt(end); isAsciiNameChar(c); c = t.charCodeAt(++end));
      if (!(c >= 0x80)) {
        this.pos = end;
        // A document repeats a handful of names: the same string serves each occurrence, rather than a copy per
        // node that every collection during the scan has to move.
        const slot = (t.charCodeAt(start) * 31 + (end - start) * 7 + t.charCodeAt(end - 1)) & 63;
        const known = this.names[slot];
        if (known !== undefined && known.length === end - start && t.startsWith(known, start)) return known;
        const name = t.slice(start, end);
        this.names[slot] = name;
        return name;
      }
    }
    // A name beyond ASCII may hold a surrogate pair: columns are then counted character by character.
    this.plainColumns = false;
    NAME.lastIndex = this.pos;
    const match = NAME.exec(this.text);
    if (!match) this.fail(`Expected ${what}`);
    this.pos = NAME.lastIndex;
    return match[0];
  }

  /** Rejects characters XML cannot carry in raw content between `from` and `to`. */
  private checkChars(from: number, to: number): void {
    const slice = this.text.slice(from, to);
    if (this.plainColumns && SURROGATE.test(slice)) this.plainColumns = false;
    const bad = INVALID_CHAR.exec(slice);
    if (bad) this.fail(`Character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML`, from + bad.index);
  }

  // Whitespace runs sliced so far, by length: indentation repeats, and one string per depth serves every node that has
  // it (a document indented with tabs and spaces alike just replaces them more often).
  private readonly spaces: (string | undefined)[] = [];

  /** The text between `start` and `end`, reusing the string of an earlier whitespace run of that length when it is the same. */
  private sliceText(start: number, end: number): string {
    const t = this.text;
    const length = end - start;
    const known = length <= 64 ? this.spaces[length] : undefined;
    if (known !== undefined && t.startsWith(known, start)) return known;
    const raw = t.slice(start, end);
    if (length <= 64 && isXmlSpace(raw.charCodeAt(0)) && isXmlSpace(raw.charCodeAt(length - 1)) && /^[ \t\r\n]*$/.test(raw)) this.spaces[length] = raw;
    return raw;
  }

  private scanText(): XmlText {
    const t = this.text;
    const start = this.pos;
    // Most runs (indentation, plain words) need no decoding: take them whole. Anything unusual (references, CR,
    // surrogates, characters XML forbids) goes the careful way below.
    // The five built-in entities are common enough in values to be taken in this stride too, decoded in one pass.
    let end = start;
    let decoded = '';
    let from = start;
    for (let c = t.charCodeAt(end); ; c = t.charCodeAt(++end)) {
      if (c >= 0x20 ? c !== 0x3c && c !== 0x26 && c !== 0x5d && c < 0xd800 : c === 0x0a || c === 0x09) continue;
      const length = c === 0x26 ? predefinedReferenceLength(t, end) : 0;
      if (length === 0) break;
      decoded += t.slice(from, end) + decodePredefined(t, end);
      end += length - 1;
      from = end + 1;
    }
    if (end > start && (end === t.length || t.charCodeAt(end) === 0x3c)) {
      this.pos = end;
      const references = from > start;
      const raw = references ? t.slice(start, end) : this.sliceText(start, end);
      this.locate(start);
      const value = references ? flat(decoded + t.slice(from, end)) : raw;
      return { kind: 'text', raw, value, start, end, line: this.line, column: this.column };
    }
    let value = '';
    while (this.pos < t.length) {
      PLAIN_TEXT.lastIndex = this.pos;
      if (PLAIN_TEXT.exec(t)) {
        value += t.slice(this.pos, PLAIN_TEXT.lastIndex);
        this.pos = PLAIN_TEXT.lastIndex;
        continue;
      }
      const c = t.charCodeAt(this.pos);
      if (c === 0x3c /* < */) break;
      if (c === 0x26 /* & */) value += this.scanReference();
      else if (c === 0x5d /* ] */) {
        if (t.startsWith(']]>', this.pos)) this.fail("']]>' is not allowed in text; write it as ']]&gt;'");
        value += ']';
        this.pos++;
      } else if (c === 0x0d) {
        value += '\n';
        this.pos += t.charCodeAt(this.pos + 1) === 0x0a ? 2 : 1;
      } else if (isHighSurrogate(c) && t.charCodeAt(this.pos + 1) >= 0xdc00 && t.charCodeAt(this.pos + 1) <= 0xdfff) {
        value += t.slice(this.pos, this.pos + 2);
        this.pos += 2;
      } else {
        this.checkChars(this.pos, this.pos + 1);
        value += t[this.pos];
        this.pos++;
      }
    }
    const raw = t.slice(start, this.pos);
    // PLAIN_TEXT takes surrogate pairs in its stride.
    if (this.plainColumns && SURROGATE.test(raw)) this.plainColumns = false;
    this.locate(start);
    return { kind: 'text', raw, value, start, end: this.pos, line: this.line, column: this.column };
  }

  /** Decodes `&name;`, `&#N;` or `&#xH;` at the cursor. */
  private scanReference(): string {
    const t = this.text;
    const start = this.pos;
    const semi = t.indexOf(';', start);
    const body = semi < 0 ? '' : t.slice(start + 1, semi);
    let value = PREDEFINED.get(body);
    if (value !== undefined) {
      this.pos = semi + 1;
      return value;
    }
    const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
    if (numeric) {
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2]!, 10);
      if (code <= 0x10ffff) {
        const char = String.fromCodePoint(code);
        if (!INVALID_CHAR.test(char)) value = char;
      }
      if (value === undefined) this.fail(`Character reference '&${body};' is not a character XML allows`, start);
    } else if (/^[^\s&<>"'#;]+$/.test(body)) {
      value = this.entities.get(body);
      if (value === undefined) this.fail(`Unknown entity '&${body};'; expected &amp; &lt; &gt; &quot; &apos; or a character reference`, start);
    } else {
      this.fail("Expected an entity or character reference after '&' (write a literal '&' as '&amp;')", start);
    }
    this.pos = semi + 1;
    return value;
  }

  private scanComment(): XmlComment {
    const t = this.text;
    const start = this.pos;
    const close = t.indexOf('--', start + 4);
    if (close < 0) this.fail("Expected '-->' to close the comment", t.length);
    if (t.charCodeAt(close + 2) !== 0x3e) this.fail("'--' is not allowed inside a comment", close);
    this.checkChars(start + 4, close);
    this.pos = close + 3;
    this.locate(start);
    return { kind: 'comment', value: normalizeLineEnds(t.slice(start + 4, close)), start, end: this.pos, line: this.line, column: this.column };
  }

  private scanCData(): XmlCData {
    const t = this.text;
    const start = this.pos;
    const close = t.indexOf(']]>', start + 9);
    if (close < 0) this.fail("Expected ']]>' to close the CDATA section", t.length);
    this.checkChars(start + 9, close);
    this.pos = close + 3;
    this.locate(start);
    return { kind: 'cdata', value: normalizeLineEnds(t.slice(start + 9, close)), start, end: this.pos, line: this.line, column: this.column };
  }

  private scanProcessingInstruction(atDocumentStart: boolean): XmlOther {
    const t = this.text;
    const start = this.pos;
    this.pos += 2;
    const target = this.scanName('a processing instruction target after \'<?\'');
    const close = t.indexOf('?>', this.pos);
    if (close < 0) this.fail("Expected '?>' to close the processing instruction", t.length);
    if (close > this.pos && !/[ \t\r\n]/.test(t[this.pos]!)) this.fail("Expected whitespace or '?>' after the processing instruction target");
    this.checkChars(this.pos, close);
    this.pos = close + 2;
    const raw = t.slice(start, this.pos);
    if (target === 'xml') {
      if (!atDocumentStart) this.fail('The XML declaration (<?xml ...?>) is only allowed at the very start of the file', start);
      if (!XML_DECLARATION.test(raw)) this.fail('Malformed XML declaration; expected <?xml version="1.0" encoding="..."?>', start);
    } else if (target.toLowerCase() === 'xml') {
      this.fail(`The processing instruction target '${target}' is reserved`, start);
    }
    this.locate(start);
    return { kind: 'pi', raw, start, end: this.pos, line: this.line, column: this.column };
  }

  private scanDoctype(): XmlOther {
    const t = this.text;
    const start = this.pos;
    this.pos += 9;
    if (this.skipWhitespace() === 0) this.fail("Expected whitespace after '<!DOCTYPE'");
    this.scanName('the document type name');
    let subset: [number, number] | undefined;
    for (;;) {
      this.skipWhitespace();
      const c = t[this.pos];
      if (c === undefined) this.fail("Expected '>' to close the DOCTYPE", t.length);
      if (c === '>') break;
      if (c === '"' || c === "'") {
        const close = t.indexOf(c, this.pos + 1);
        if (close < 0) this.fail(`Expected ${c} to close the quoted DOCTYPE identifier`, t.length);
        this.pos = close + 1;
      } else if (c === '[') {
        const subsetStart = ++this.pos;
        this.skipInternalSubset();
        subset = [subsetStart, this.pos];
        this.pos++;
      } else if (/[A-Z]/.test(c)) {
        this.scanName('SYSTEM or PUBLIC');
      } else {
        this.fail("Expected SYSTEM, PUBLIC, a quoted identifier, '[' or '>' in the DOCTYPE");
      }
    }
    this.pos++;
    this.checkChars(start, this.pos);
    if (subset) this.declareEntities(t.slice(subset[0], subset[1]));
    this.locate(start);
    return { kind: 'doctype', raw: t.slice(start, this.pos), start, end: this.pos, line: this.line, column: this.column };
  }

  /** Moves to the ']' ending an internal subset, stepping over quoted literals and comments that may contain one. */
  private skipInternalSubset(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos]!;
      if (c === ']') return;
      if (c === '"' || c === "'") {
        const close = t.indexOf(c, this.pos + 1);
        if (close < 0) break;
        this.pos = close + 1;
      } else if (t.startsWith('<!--', this.pos)) {
        const close = t.indexOf('-->', this.pos + 4);
        if (close < 0) break;
        this.pos = close + 3;
      } else this.pos++;
    }
    this.fail("Expected ']' to close the DOCTYPE's internal subset", t.length);
  }

  // Internal entities with plain-text replacement are honoured; ones holding markup stay unknown, so they fail loudly.
  private declareEntities(subset: string): void {
    const declaration = /<!ENTITY[ \t\r\n]+([^\s%]+)[ \t\r\n]+(["'])([^]*?)\2[ \t\r\n]*>/g;
    for (const [, name, , literal] of subset.matchAll(declaration)) {
      if (this.entities.has(name!) || /[<&%]/.test(literal!.replace(/&#(?:x[0-9A-Fa-f]+|[0-9]+);/g, ''))) continue;
      this.entities.set(
        name!,
        literal!.replace(/&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g, (_, hex: string | undefined, dec: string | undefined) =>
          String.fromCodePoint(hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10)),
        ),
      );
    }
  }

  private scanStartTag(): XmlElement {
    const t = this.text;
    const start = this.pos;
    this.pos++;
    const name = this.scanName("an element name after '<'");
    // Collected in a reused array and copied out at its exact size.
    // (Counted rather than truncated: emptying an array frees its store, and the next push would allocate one.)
    const scratch = this.attributeScratch;
    let count = 0;
    let selfClosing = false;
    for (;;) {
      const spaced = this.skipWhitespace() > 0;
      const c = t.charCodeAt(this.pos);
      if (c === 0x3e /* > */) {
        this.pos++;
        break;
      }
      if (c === 0x2f /* / */) {
        if (t.charCodeAt(this.pos + 1) !== 0x3e) this.fail("Expected '>' after '/' in the start tag");
        this.pos += 2;
        selfClosing = true;
        break;
      }
      if (this.pos >= t.length) this.fail(`Expected '>' to close the start tag <${name}>`, t.length);
      if (!spaced) this.fail(`Expected whitespace, '>' or '/>' in the start tag <${name}>`);
      const attribute = this.scanAttribute();
      for (let i = 0; i < count; i++) if (scratch[i]!.name === attribute.name) this.fail(`Attribute '${attribute.name}' appears twice on <${name}>`, attribute.start);
      scratch[count++] = attribute;
    }
    const attributes = count === 0 ? NO_ATTRIBUTES : exactCopy(scratch, 0, count);
    this.checkNamespaces(name, start, attributes);
    this.locate(start);
    const element: XmlElement = {
      kind: 'element',
      name,
      attributes,
      children: NO_CHILDREN,
      start,
      end: this.pos,
      openEnd: this.pos,
      closeStart: this.pos,
      selfClosing,
      line: this.line,
      column: this.column,
    };
    return element;
  }

  private scanAttribute(): XmlAttribute {
    const t = this.text;
    const start = this.pos;
    const name = this.scanName('an attribute name');
    this.skipWhitespace();
    if (t.charCodeAt(this.pos) !== 0x3d /* = */) this.fail(`Expected '=' after the attribute name '${name}'`);
    this.pos++;
    this.skipWhitespace();
    const quote = t[this.pos];
    if (quote !== '"' && quote !== "'") this.fail(`Expected a quoted value for the attribute '${name}'`);
    const quoteCode = quote.charCodeAt(0);
    const valueStart = ++this.pos;
    let value = '';
    for (;;) {
      // Plain characters are copied as one run rather than one by one.
      const runStart = this.pos;
      let unit = t.charCodeAt(this.pos);
      while (unit > 0x3c ? unit < 0xd800 : unit >= 0x20 && unit !== 0x26 && unit !== 0x3c && unit !== quoteCode) unit = t.charCodeAt(++this.pos);
      if (this.pos > runStart) value += t.slice(runStart, this.pos);
      const c = t[this.pos];
      if (c === undefined) this.fail(`Expected ${quote} to close the value of the attribute '${name}'`, t.length);
      if (c === quote) break;
      if (c === '<') this.fail(`'<' is not allowed in an attribute value (write it as '&lt;')`);
      if (c === '&') {
        value += this.scanReference();
        continue;
      }
      if (c === '\r') {
        // Literal line ends and tabs read as spaces (XML attribute-value normalisation); references keep them.
        value += ' ';
        this.pos += t[this.pos + 1] === '\n' ? 2 : 1;
        continue;
      }
      const code = c.charCodeAt(0);
      if (isHighSurrogate(code) && t.charCodeAt(this.pos + 1) >= 0xdc00 && t.charCodeAt(this.pos + 1) <= 0xdfff) {
        this.plainColumns = false;
        value += t.slice(this.pos, this.pos + 2);
        this.pos += 2;
        continue;
      }
      this.checkChars(this.pos, this.pos + 1);
      value += c === '\n' || c === '\t' ? ' ' : c;
      this.pos++;
    }
    const valueEnd = this.pos++;
    return { name, value, start, end: this.pos, valueStart, valueEnd, quote };
  }

  /** Namespace well-formedness: a prefixed name needs its prefix declared here or on an ancestor. */
  private checkNamespaces(name: string, start: number, attributes: XmlAttribute[]): void {
    // Most elements declare nothing: they share one empty set instead of allocating their own.
    let declared: Set<string> | undefined;
    for (const a of attributes) if (a.name.startsWith('xmlns:')) (declared ??= new Set<string>()).add(a.name.slice(6));
    this.prefixes.push(declared ?? NO_PREFIXES);
    this.checkQualifiedName(name, start + 1, 'Element');
    for (const a of attributes) this.checkQualifiedName(a.name, a.start, 'Attribute');
  }

  private checkQualifiedName(qualified: string, at: number, what: string): void {
    const colon = qualified.indexOf(':');
    if (colon < 0) return;
    // One colon, with a name on either side of it.
    if (colon === 0 || colon === qualified.length - 1 || qualified.includes(':', colon + 1)) this.fail(`${what} '${qualified}' is not a valid qualified name`, at);
    const prefix = qualified.slice(0, colon);
    if (prefix === 'xml' || prefix === 'xmlns') return;
    if (!this.prefixes.some((s) => s.has(prefix))) this.fail(`Namespace prefix '${prefix}' of ${what.toLowerCase()} '${qualified}' is not declared (expected an xmlns:${prefix} attribute)`, at);
  }

  private scanEndTag(open: XmlElement | undefined): void {
    const t = this.text;
    const start = this.pos;
    this.pos += 2;
    // The expected name, as it nearly always is, is matched in place rather than read into a new string.
    if (open && t.startsWith(open.name, this.pos) && !isAsciiNameChar(t.charCodeAt(this.pos + open.name.length)) && t.charCodeAt(this.pos + open.name.length) < 0x80) {
      this.pos += open.name.length;
      this.skipWhitespace();
      if (t.charCodeAt(this.pos) === 0x3e) {
        this.pos++;
        return;
      }
      this.pos = start + 2;
    }
    const name = this.scanName("an element name after '</'");
    this.skipWhitespace();
    if (t[this.pos] !== '>') this.fail(`Expected '>' to close the end tag </${name}>`, this.pos >= t.length ? t.length : this.pos);
    if (!open) this.fail(`Unexpected end tag </${name}>: no element is open`, start);
    if (open.name !== name) {
      this.fail(`Expected '</${open.name}>' to close <${open.name}> (opened at line ${open.line}, column ${open.column}); found '</${name}>'`, start);
    }
    this.pos++;
  }
}

/**
 * `items.slice(from, to)`, written as an array literal for the short lengths nearly every element has. The tree lives
 * as long as the codec reading it, and V8 allocates what a literal site keeps producing for long straight into the
 * old generation, where `slice` copies are first moved there, each, by young-generation collections.
 */
function exactCopy<T>(items: readonly T[], from: number, to: number): T[] {
  switch (to - from) {
    case 1:
      return [items[from]!];
    case 2:
      return [items[from]!, items[from + 1]!];
    case 3:
      return [items[from]!, items[from + 1]!, items[from + 2]!];
    case 4:
      return [items[from]!, items[from + 1]!, items[from + 2]!, items[from + 3]!];
    case 5:
      return [items[from]!, items[from + 1]!, items[from + 2]!, items[from + 3]!, items[from + 4]!];
    default:
      return items.slice(from, to);
  }
}

/**
 * The same string, flattened now: a value built piece by piece is a chain of small objects until first read, and a
 * document's worth of chains would otherwise be copied through every young-generation collection of the scan.
 */
export function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** The length of the built-in entity reference at `at` ('&amp;', '&lt;', ...), or 0 when there is none. */
function predefinedReferenceLength(t: string, at: number): number {
  switch (t.charCodeAt(at + 1)) {
    case 0x61 /* a */:
      return t.startsWith('mp;', at + 2) ? 5 : t.startsWith('pos;', at + 2) ? 6 : 0;
    case 0x6c /* l */:
    case 0x67 /* g */:
      return t.charCodeAt(at + 2) === 0x74 /* t */ && t.charCodeAt(at + 3) === 0x3b /* ; */ ? 4 : 0;
    case 0x71 /* q */:
      return t.startsWith('uot;', at + 2) ? 6 : 0;
    default:
      return 0;
  }
}

/** The character of the predefined entity at `at` (`&amp;`, `&apos;`, `&lt;`, `&gt;` or `&quot;`, already matched). */
export function decodePredefined(t: string, at: number): string {
  switch (t.charCodeAt(at + 1)) {
    case 0x61:
      return t.charCodeAt(at + 2) === 0x6d ? '&' : "'";
    case 0x6c:
      return '<';
    case 0x67:
      return '>';
    default:
      return '"';
  }
}

function isAsciiNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e;
}

function normalizeLineEnds(s: string): string {
  return s.includes('\r') ? s.replace(/\r\n?/g, '\n') : s;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing and tree helpers

/**
 * Escapes text content: & < and > (so ']]>' can never appear), and CR as a reference so a parser does not fold it
 * into a line end. Characters XML 1.0 cannot carry at all become U+FFFD rather than an unreadable file.
 */
export function escapeXmlText(value: string): string {
  if (!TEXT_ESCAPED.test(value)) return value;
  // One pass copying the runs between escapes.
  let out = '';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let escaped: string;
    if (c === 0x26) escaped = '&amp;';
    else if (c === 0x3c) escaped = '&lt;';
    else if (c === 0x3e) escaped = '&gt;';
    else if (c === 0x0d) escaped = '&#13;';
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      escaped = '\uFFFD';
    } else if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0xfffe || c === 0xffff) escaped = '\uFFFD';
    else continue;
    out += value.slice(from, i) + escaped;
    from = i + 1;
  }
  // A render keeps every escaped value until the file is joined: one string each, not a chain of pieces.
  return flat(out + value.slice(from));
}

/** Escapes an attribute value for the given quote: & < the quote, and \n \r \t as references (parsers fold them to spaces). */
export function escapeXmlAttribute(value: string, quote: '"' | "'"): string {
  if (!ATTRIBUTE_ESCAPED.test(value)) return value;
  return value.replace(INVALID_CHARS, '\uFFFD').replace(/[&<"'\n\r\t]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '\n':
        return '&#10;';
      case '\r':
        return '&#13;';
      case '\t':
        return '&#9;';
      default:
        return c === quote ? (c === '"' ? '&quot;' : '&apos;') : c;
    }
  });
}

/** The decoded text of every text and CDATA descendant, in document order. */
export function textContent(el: XmlElement): string {
  // Most elements hold a single text node, or nothing.
  const only = el.children.length === 1 ? el.children[0]! : undefined;
  if (only && (only.kind === 'text' || only.kind === 'cdata')) return only.value;
  if (el.children.length === 0) return '';
  let out = '';
  const pending: XmlNode[] = [...el.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.kind === 'text' || node.kind === 'cdata') out += node.value;
    else if (node.kind === 'element') for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return out;
}

/** Child elements, optionally only those with the given qualified name. */
export function childElements(el: XmlElement, name?: string): XmlElement[] {
  return el.children.filter((n): n is XmlElement => n.kind === 'element' && (name === undefined || n.name === name));
}

export function attribute(el: XmlElement, name: string): XmlAttribute | undefined {
  for (const a of el.attributes) if (a.name === name) return a;
  return undefined;
}

/** Applies non-overlapping edits given in any order; an overlap is a programming error. */
export function splice(text: string, edits: readonly { start: number; end: number; text: string }[]): string {
  // Codecs mostly emit edits in document order already: then there is nothing to copy and sort.
  let ordered = true;
  for (let i = 1; i < edits.length && ordered; i++) {
    const a = edits[i - 1]!;
    const b = edits[i]!;
    ordered = a.start < b.start || (a.start === b.start && a.end <= b.end);
  }
  const sorted = ordered ? edits : [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  // Pieces joined once: concatenating a document's worth of them builds a chain the encoder must then flatten.
  const parts: string[] = [];
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at || edit.end < edit.start || edit.end > text.length) {
      throw new Error(`splice: edit ${edit.start}..${edit.end} overlaps another or lies outside the text`);
    }
    if (edit.start > at) parts.push(text.slice(at, edit.start));
    if (edit.text !== '') parts.push(edit.text);
    at = edit.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------------------------
// Layout helpers for codecs that splice: where a removed element's line begins, how siblings are separated, and
// how plural slots (Android <item quantity>, stringsdict category keys) are added and removed in place.

export interface XmlEdit {
  start: number;
  end: number;
  text: string;
}

/** The whitespace at the start of the line holding `offset` (empty when something precedes it on the line). */
export function lineIndent(text: string, offset: number): string {
  let i = offset;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i === 0 || text[i - 1] === '\n' || text[i - 1] === '\r' ? text.slice(i, offset) : '';
}

/**
 * Where to start removing a node so its line goes with it: back over the indentation and the line end before it.
 * Inline nodes (no line end before them) take the whitespace run before them instead.
 */
export function removalStart(text: string, start: number): number {
  let i = start;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  if (text[i - 1] === '\n') {
    i--;
    if (text[i - 1] === '\r') i--;
    return i;
  }
  if (text[i - 1] === '\r') return i - 1;
  return i;
}

/** The file's line ending, judged by its first line end ('\n' when it has none). */
export function lineEnding(text: string): '\n' | '\r\n' {
  const lf = text.indexOf('\n');
  return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n';
}

/** An edit that makes `el` hold `content` instead of its current content, expanding a self-closing tag. */
export function contentEdit(text: string, el: XmlElement, content: string): XmlEdit {
  if (!el.selfClosing) return { start: el.openEnd, end: el.closeStart, text: content };
  const slash = text.lastIndexOf('/', el.end - 1);
  return { start: slash, end: el.end, text: `>${content}</${el.name}>` };
}

/** One plural form's markup in a file: the span to remove when the target locale lacks the category. */
export interface PluralSlot {
  category: string;
  start: number;
  end: number;
}

/** Canonical CLDR order, so inserted categories land where a person would put them. */
const CATEGORY_RANK: Readonly<Record<string, number>> = { zero: 0, one: 1, two: 2, few: 3, many: 4, other: 5 };

/** What separates two slots: the whitespace between the first two, else the line break and indentation before the first. */
export function slotSeparator(text: string, slots: readonly PluralSlot[]): string {
  const [first, second] = slots;
  if (first && second) {
    const between = text.slice(first.end, second.start);
    if (/^[ \t\r\n]*$/.test(between)) return between;
  }
  if (!first) return '';
  const lead = text.slice(removalStart(text, first.start), first.start);
  return /^[ \t]*$/.test(lead) ? '' : lead;
}

/**
 * Edits that leave exactly `categories` among `slots` (the caller edits the content of slots it keeps): slots of other
 * categories are removed with their line, new ones (built by `make`) are inserted next to their CLDR neighbour using
 * the existing separator. Returns undefined when there is no slot to anchor on; the caller then fills the container.
 */
export function pluralSlotEdits(
  text: string,
  slots: readonly PluralSlot[],
  categories: readonly string[],
  make: (category: string) => string,
): XmlEdit[] | undefined {
  if (slots.length === 0) return categories.length === 0 ? [] : undefined;
  const wanted = new Set(categories);
  const existing = new Set(slots.map((s) => s.category));
  const edits: XmlEdit[] = [];
  for (const slot of slots) if (!wanted.has(slot.category)) edits.push({ start: removalStart(text, slot.start), end: slot.end, text: '' });
  const added = categories.filter((c) => !existing.has(c)).sort((a, b) => (CATEGORY_RANK[a] ?? 9) - (CATEGORY_RANK[b] ?? 9));
  if (added.length === 0) return edits;
  const sep = slotSeparator(text, slots);
  const kept = slots.filter((s) => wanted.has(s.category));
  if (kept.length === 0) {
    const last = slots[slots.length - 1]!;
    edits.push({ start: last.end, end: last.end, text: added.map((c) => sep + make(c)).join('') });
    return edits;
  }
  const after = new Map<PluralSlot, string[]>();
  const before: string[] = [];
  for (const category of added) {
    const rank = CATEGORY_RANK[category] ?? 9;
    let anchor: PluralSlot | undefined;
    for (const slot of kept) {
      const r = CATEGORY_RANK[slot.category] ?? 9;
      if (r < rank && (!anchor || r > (CATEGORY_RANK[anchor.category] ?? 9))) anchor = slot;
    }
    if (anchor) after.set(anchor, [...(after.get(anchor) ?? []), category]);
    else before.push(category);
  }
  for (const [slot, list] of after) edits.push({ start: slot.end, end: slot.end, text: list.map((c) => sep + make(c)).join('') });
  if (before.length > 0) {
    const lowest = kept.reduce((a, b) => ((CATEGORY_RANK[b.category] ?? 9) < (CATEGORY_RANK[a.category] ?? 9) ? b : a));
    edits.push({ start: lowest.start, end: lowest.start, text: before.map((c) => make(c) + sep).join('') });
  }
  return edits;
}
