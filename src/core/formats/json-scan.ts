// Hand-written JSON scanner that keeps every token's span, the writer that splices edits back into the untouched text, the
// dotted-path parse and render that the json and json_nested codecs share (they differ only in detection and fresh files),
// and the tape the arb and ios_xcstrings codecs read large files from.
import { firstInvalidUtf8 } from './utf8.js';
import { KEY_HASH_SEED, KeyIndex, hashKey, hashUnit } from './key-index.js';
import { textValue } from './values.js';
import type { Entry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';

export interface TextPosition {
  /** 1-based line; LF, CRLF and a lone CR each end a line. */
  line: number;
  /** 1-based column in code points, so an emoji counts once and a tab counts once. */
  column: number;
}

/**
 * Offsets are UTF-16 indices into `JsonDocument.text` (the file decoded, BOM stripped): the writer splices strings,
 * and the decode/encode round trip of valid UTF-8 is exact, so no byte offsets are needed.
 */
interface NodeSpan extends TextPosition {
  /** Index of the token's first character (the quote, bracket or first digit). */
  start: number;
  /** Index just past the token's last character. */
  end: number;
}

export interface JsonStringNode extends NodeSpan {
  kind: 'string';
  /** The decoded value. */
  value: string;
}

export interface JsonScalarNode extends NodeSpan {
  kind: 'number' | 'boolean' | 'null';
}

export interface JsonMember {
  key: JsonStringNode;
  value: JsonValueNode;
  /** `key.start`: the member begins at its key. */
  start: number;
  /** `value.end`: the member ends with its value; separators belong to neither neighbour. */
  end: number;
}

export interface JsonObjectNode extends NodeSpan {
  kind: 'object';
  members: JsonMember[];
}

export interface JsonArrayNode extends NodeSpan {
  kind: 'array';
  elements: JsonValueNode[];
}

export type JsonValueNode = JsonStringNode | JsonScalarNode | JsonObjectNode | JsonArrayNode;

export interface JsonDocument {
  /** Whether the file started with a UTF-8 byte order mark (not part of `text`). */
  bom: boolean;
  /** The file decoded from UTF-8, without the BOM. */
  text: string;
  root: JsonObjectNode;
}

/** A string value somewhere in the document, as `collectStrings` lists them. */
export interface JsonStringValue {
  /** Member names from the root down; array positions as decimal strings. */
  path: string[];
  /** Whether the string is an array element rather than an object member's value. */
  inArray: boolean;
  /** The raw token (quotes included), its decoded value and position. */
  node: JsonStringNode;
  /** The whole member (key through value) for object members; the token itself for array elements. */
  span: { start: number; end: number };
}

// Deep enough for any real localization file; guards the recursive scanner and writer against stack overflow.
const MAX_DEPTH = 512;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** Decodes a file as strict UTF-8, stripping and remembering a BOM; invalid bytes are reported with their position. */
export function decodeUtf8(bytes: Uint8Array): { text: string; bom: boolean } {
  const bom = bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body), bom };
  } catch {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
      throw new FileUnparsableError('The file is UTF-16 encoded; expected UTF-8 at line 1, column 1', 1, 1);
    }
    const bad = Math.max(0, firstInvalidUtf8(body));
    const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body.subarray(0, bad));
    const { line, column } = new LineCounter(before).at(before.length);
    throw new FileUnparsableError(`Invalid UTF-8 byte sequence at line ${line}, column ${column}`, line, column);
  }
}

/** Encodes text as UTF-8, restoring the BOM when the source had one. */
export function encodeUtf8(text: string, bom: boolean): Uint8Array {
  return new TextEncoder().encode(bom ? `\uFEFF${text}` : text);
}

const ENCODER = new TextEncoder();

// Characters of pieces gathered before they are encoded: a call to encodeInto costs more than encoding a short piece.
const BATCH = 16_384;

/**
 * Writes a UTF-8 file piece by piece, encoding the pieces in batches as they come: a rewrite of a large file then holds
 * bytes, where concatenating the pieces would hold a rope of strings for the collector to trace until the end.
 */
export class Utf8Writer {
  private bytes: Uint8Array;
  private size = 0;
  private pending = '';

  /** `capacity` is a guess at the size in bytes; the buffer grows past it. */
  constructor(capacity: number, bom: boolean) {
    this.bytes = new Uint8Array(Math.max(capacity, 64));
    if (bom) {
      this.bytes.set(UTF8_BOM);
      this.size = UTF8_BOM.length;
    }
  }

  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= BATCH) this.flush();
  }

  /** The bytes written. */
  finish(): Uint8Array {
    this.flush();
    return this.bytes.slice(0, this.size);
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    // A UTF-16 code unit takes at most 3 bytes.
    if (this.bytes.length - this.size < text.length * 3) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.size + text.length * 3));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    this.size += ENCODER.encodeInto(text, this.bytes.subarray(this.size)).written;
  }
}

/** Turns indices into line/column; queries usually move forward, so it resumes where the last one stopped. */
class LineCounter {
  private index = 0;
  private line = 1;
  private column = 1;

  constructor(private readonly text: string) {}

  at(target: number): TextPosition {
    if (target < this.index) [this.index, this.line, this.column] = [0, 1, 1];
    const t = this.text;
    for (; this.index < target; this.index++) {
      const c = t.charCodeAt(this.index);
      if (c === 0x0a || (c === 0x0d && t.charCodeAt(this.index + 1) !== 0x0a)) {
        this.line++;
        this.column = 1;
      } else if (c === 0x0d) {
        // The CR of a CRLF: the LF ends the line.
      } else if (c >= 0xdc00 && c <= 0xdfff && isHighSurrogate(t.charCodeAt(this.index - 1))) {
        // Second half of a surrogate pair: the pair is one column.
      } else {
        this.column++;
      }
    }
    return { line: this.line, column: this.column };
  }
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** What escapes a string token holds: none, only those JSON.stringify writes, or others too (\/, \uXXXX). */
type Escapes = 0 | 1 | 2;
const PLAIN = 0;
const STRINGIFY_ESCAPES = 1;
const OTHER_ESCAPES = 2;

/** The value of the string token `text[start, end)`, which holds `escapes`. */
function decodeToken(text: string, start: number, end: number, escapes: Escapes): string {
  // The token is valid JSON, so JSON.parse decodes its escapes (a lone surrogate from \uD800 stays, as here) into one
  // flat string, where joining the pieces would leave a chain of them for the collector to copy.
  return escapes === PLAIN ? text.slice(start + 1, end - 1) : (JSON.parse(text.slice(start, end)) as string);
}

/** The kind of escape each letter after a backslash makes (0: not an escape), by code unit; \u is read apart. */
const ESCAPES = new Uint8Array(128);
for (const letter of '"\\bfnrt') ESCAPES[letter.charCodeAt(0)] = STRINGIFY_ESCAPES;
ESCAPES['/'.charCodeAt(0)] = OTHER_ESCAPES;

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Whether a code unit may continue a word after a literal (`truex` is not `true`): letters, digits, `_` and `$`. */
function isWordUnit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24;
}

/** Whether a code unit may be part of a number token; the token is then checked against the JSON grammar. */
function isNumberUnit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e || c === 0x65 || c === 0x45;
}

// An object with more members than this finds duplicates through a map; smaller ones compare with each member.
const LINEAR_DUPLICATES = 12;

/**
 * The tokens both scanners read, and the position they keep. Positions are counted as the scan goes: a line break
 * occurs only between tokens and a surrogate pair only inside a string, so a token's column is its distance from the
 * line's start less the pairs met on the line before it.
 */
class JsonLexer {
  protected pos = 0;
  protected line = 1;
  protected lineStart = 0;
  protected pairs = 0;
  protected depth = 0;

  constructor(protected readonly text: string) {}

  fail(message: string, at = this.pos): never {
    if (/^\/[/*]/.test(this.text.slice(at, at + 2))) {
      message = `${message} (JSON does not allow comments)`;
    }
    const { line, column } = new LineCounter(this.text).at(at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  protected column(at: number): number {
    return at - this.lineStart + 1 - this.pairs;
  }

  /** Checks that the file holds one object, then scans it with `object`. */
  protected document<T>(object: () => T): T {
    this.skipWhitespace();
    if (this.pos >= this.text.length) this.fail("The file is empty; expected a JSON object ('{')");
    if (this.text.charCodeAt(this.pos) !== 0x7b) this.fail("Expected a JSON object ('{') as the top-level value");
    const root = object();
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail("Expected the end of the file after the top-level object's closing '}'");
    return root;
  }

  protected skipWhitespace(): void {
    const t = this.text;
    let pos = this.pos;
    for (;;) {
      const c = t.charCodeAt(pos);
      if (c === 0x20 || c === 0x09) {
        pos++;
      } else if (c === 0x0a || c === 0x0d) {
        pos++;
        // The CR of a CRLF: the LF ends the line.
        if (c === 0x0d && t.charCodeAt(pos) === 0x0a) continue;
        this.line++;
        this.lineStart = pos;
        this.pairs = 0;
      } else {
        break;
      }
    }
    this.pos = pos;
  }

  protected enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail(`Expected at most ${MAX_DEPTH} levels of nesting`);
  }

  protected leave(): void {
    this.depth--;
  }

  /** Checks the separator after a member or element: true after the closing bracket, false after a comma. */
  protected next(close: number, container: 'member' | 'element'): boolean {
    this.skipWhitespace();
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === close) {
      this.pos++;
      return true;
    }
    if (c !== 0x2c) this.fail(container === 'member' ? "Expected ',' or '}' after a member" : "Expected ',' or ']' after an array element");
    const comma = this.pos++;
    this.skipWhitespace();
    if (t.charCodeAt(this.pos) === close) this.fail(`Expected another ${container} after ',' (trailing commas are not allowed)`, comma);
    return false;
  }

  /** Checks the start of a member's key (at `pos`), `first` for the object's first member. */
  protected expectKey(first: boolean): void {
    if (this.text.charCodeAt(this.pos) !== 0x22) this.fail(first ? "Expected a string key or '}'" : "Expected a string key after ','");
  }

  /** Checks and skips the ':' after the key token `text[keyStart, keyEnd)`. */
  protected colon(keyStart: number, keyEnd: number): void {
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) !== 0x3a) {
      // The token is valid JSON: decoding it for the message costs nothing on the way through.
      this.fail(`Expected ':' after the key ${JSON.stringify(JSON.parse(this.text.slice(keyStart, keyEnd)))}`);
    }
    this.pos++;
    this.skipWhitespace();
  }

  /** Reads the string token at `pos` and returns its decoded value, leaving `pos` just past it. */
  protected string(): string {
    const start = this.pos;
    const escapes = this.token();
    return decodeToken(this.text, start, this.pos, escapes);
  }

  /** Checks the string token at `pos`, leaving `pos` just past it, and tells what escapes it holds. */
  protected token(): Escapes {
    const t = this.text;
    let i = this.pos + 1;
    let pairs = 0;
    let escapes: Escapes = PLAIN;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c >= 0x5d) {
        // A high surrogate: valid UTF-8 decodes only to whole pairs, which count as one column.
        if (c >= 0xd800 && c <= 0xdbff) pairs++;
        i++;
      } else if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
        i++;
      } else if (c === 0x22) {
        break;
      } else if (c === 0x5c) {
        const letter = t.charCodeAt(i + 1);
        if (letter === 0x75) {
          if (!isHex4(t, i + 2)) this.fail('Expected 4 hex digits after \\u', i);
          escapes = OTHER_ESCAPES;
          i += 6;
        } else {
          const escape = (letter < 128 ? ESCAPES[letter]! : 0) as Escapes;
          if (escape === 0) this.fail(`Expected a valid escape after '\\' (one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`, i);
          if (escape > escapes) escapes = escape;
          i += 2;
        }
      } else if (i >= t.length) {
        this.fail("Expected '\"' to close the string before the end of the file", i);
      } else {
        const message = c === 0x0a || c === 0x0d ? "Expected '\"' to close the string before the end of the line" : 'Expected control characters in a string to be escaped';
        this.fail(message, i);
      }
    }
    this.pairs += pairs;
    this.pos = i + 1;
    return escapes;
  }

  /** Reads a number, `true`, `false` or `null` at `pos`, or fails where no value starts. */
  protected scalar(): 'number' | 'boolean' | 'null' {
    const t = this.text;
    const start = this.pos;
    const c = t.charCodeAt(start);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let i = start;
      while (isNumberUnit(t.charCodeAt(i))) i++;
      this.pos = i;
      if (!NUMBER.test(t.slice(start, i))) this.fail('Expected a valid JSON number', start);
      return 'number';
    }
    const length = t.startsWith('true', start) || t.startsWith('null', start) ? 4 : t.startsWith('false', start) ? 5 : 0;
    if (length > 0 && !isWordUnit(t.charCodeAt(start + length))) {
      this.pos += length;
      return c === 0x6e ? 'null' : 'boolean';
    }
    this.fail(c === 0x27 ? 'Expected a value (strings need double quotes)' : 'Expected a value');
  }
}

/** Builds the whole document as nodes. */
class TreeScanner extends JsonLexer {
  // Members and elements are gathered in a list per depth and copied out at their count: a list grown by push keeps
  // room for 16, which in a catalog of many small objects is most of what the tree holds.
  private readonly scratch: unknown[][] = [];

  private gather<T>(): T[] {
    const list = (this.scratch[this.depth] ??= []) as T[];
    list.length = 0;
    return list;
  }
  scan(): JsonObjectNode {
    return this.document(() => this.object());
  }

  private value(): JsonValueNode {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x22) return this.stringNode();
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    const start = this.pos;
    const line = this.line;
    const column = this.column(start);
    const kind = this.scalar();
    return { kind, start, end: this.pos, line, column };
  }

  private stringNode(): JsonStringNode {
    const start = this.pos;
    const column = this.column(start);
    const value = this.string();
    return { kind: 'string', value, start, end: this.pos, line: this.line, column };
  }

  private object(): JsonObjectNode {
    const start = this.pos;
    const line = this.line;
    const column = this.column(start);
    this.enter();
    this.pos++;
    const members = this.gather<JsonMember>();
    let seen: Map<string, JsonStringNode> | undefined;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
    } else {
      do {
        this.expectKey(members.length === 0);
        const key = this.stringNode();
        let first: JsonStringNode | undefined;
        if (seen) {
          first = seen.get(key.value);
          seen.set(key.value, key);
        } else {
          for (const m of members) if (m.key.value === key.value) first ??= m.key;
        }
        if (first) this.fail(`Duplicate key ${JSON.stringify(key.value)} (first defined at line ${first.line})`, key.start);
        this.colon(key.start, key.end);
        const value = this.value();
        members.push({ key, value, start: key.start, end: value.end });
        if (!seen && members.length > LINEAR_DUPLICATES) seen = new Map(members.map((m) => [m.key.value, m.key]));
      } while (!this.next(0x7d, 'member'));
    }
    this.leave();
    return { kind: 'object', members: members.slice(), start, end: this.pos, line, column };
  }

  private array(): JsonArrayNode {
    const start = this.pos;
    const line = this.line;
    const column = this.column(start);
    this.enter();
    this.pos++;
    const elements = this.gather<JsonValueNode>();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
    } else {
      do elements.push(this.value());
      while (!this.next(0x5d, 'element'));
    }
    this.leave();
    return { kind: 'array', elements: elements.slice(), start, end: this.pos, line, column };
  }
}

/** A top-level member whose value is an object or array, as the keyed scan notes the first that holds a string. */
export interface NestedMember {
  name: string;
  kind: 'object' | 'array';
  /** Where the object or array starts. */
  line: number;
  column: number;
}

/** What a keyed scan finds besides the strings themselves. */
export interface KeyedFile {
  bom: boolean;
  text: string;
  /** The first top-level member holding a string below it, if any. */
  nested?: NestedMember;
  /** Whether two paths might flatten to one key: some string is nested and some member name holds a '.'. */
  ambiguous: boolean;
}

/** Every string value of a file as an entry keyed by its dotted path, in document order (as `collectStrings` lists them). */
export interface KeyedEntries extends KeyedFile {
  entries: Entry[];
}

/** Every string value's key and token: its span (from the opening quote to just past the closing one) and escapes. */
export interface KeyedTokens extends KeyedFile {
  keys: string[];
  starts: number[];
  ends: number[];
  escapes: Escapes[];
}

/**
 * Reads the same grammar as the tree scanner, with the same errors, but lists only the string values: the json codecs
 * need no nodes to parse a file or to splice values into it. It lists entries to parse, or tokens to render.
 */
class KeyedScanner extends JsonLexer {
  readonly entries: Entry[] = [];
  readonly keys: string[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly escapes: Escapes[] = [];
  nested: NestedMember | undefined;
  dotted = false;
  deep = false;
  private readonly path: string[] = [];
  /** The top-level member whose value is being read, when it is an object or array. */
  private container: NestedMember | undefined;

  constructor(
    text: string,
    private readonly tokens: boolean,
  ) {
    super(text);
  }

  scan(): void {
    this.document(() => this.object(''));
  }

  /** Reads the value of the member or element `name`, already on the path; `prefix` is its parent's key and a dot. */
  private value(prefix: string, name: string): void {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x22) {
      if (this.path.length > 1) {
        this.deep = true;
        this.nested ??= this.container;
      }
      if (this.tokens) {
        // Rendering looks every key up at once: a flat string hashes without first being copied out of a concatenation.
        this.keys.push(prefix === '' ? name : this.path.join('.'));
        this.starts.push(this.pos);
        this.escapes.push(this.token());
        this.ends.push(this.pos);
      } else {
        const line = this.line;
        const column = this.column(this.pos);
        this.entries.push({ key: prefix === '' ? name : prefix + name, path: this.path.slice(), source: this.string(), line, column });
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (this.path.length === 1) this.container = { name, kind: c === 0x7b ? 'object' : 'array', line: this.line, column: this.column(this.pos) };
      const inner = `${prefix}${name}.`;
      if (c === 0x7b) this.object(inner);
      else this.array(inner);
    } else {
      this.scalar();
    }
  }

  private object(prefix: string): void {
    this.enter();
    this.pos++;
    // The members' names and lines, by their position in the object.
    const names: string[] = [];
    const lines: number[] = [];
    let seen: KeyIndex | undefined;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
    } else {
      do {
        this.expectKey(names.length === 0);
        const start = this.pos;
        const line = this.line;
        const name = this.string();
        let first: number | undefined;
        if (seen) {
          first = lookUpName(seen, names, lines, name);
        } else {
          for (let k = 0; k < names.length; k++) if (names[k] === name) first ??= lines[k];
          if (names.length === LINEAR_DUPLICATES) seen = indexNames([...names, name]);
        }
        names.push(name);
        lines.push(line);
        if (first !== undefined) this.fail(`Duplicate key ${JSON.stringify(name)} (first defined at line ${first})`, start);
        if (!this.dotted && name.includes('.')) this.dotted = true;
        this.colon(start, this.pos);
        this.path.push(name);
        this.value(prefix, name);
        this.path.pop();
      } while (!this.next(0x7d, 'member'));
    }
    this.leave();
  }

  private array(prefix: string): void {
    this.enter();
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
    } else {
      let index = 0;
      do {
        const name = String(index++);
        this.path.push(name);
        this.value(prefix, name);
        this.path.pop();
      } while (!this.next(0x5d, 'element'));
    }
    this.leave();
  }
}

// The keyed scanner's duplicate check of objects with many members, apart so that the scan of small ones stays compact.
function indexNames(names: readonly string[]): KeyIndex {
  const seen = new KeyIndex();
  names.forEach((name, k) => seen.add(hashKey(name), k));
  return seen;
}

/** Adds `name`, the next member's, to `seen`: the line of an earlier member of that name (`names`, `lines`), or undefined. */
function lookUpName(seen: KeyIndex, names: readonly string[], lines: readonly number[], name: string): number | undefined {
  const hash = hashKey(name);
  let first: number | undefined;
  for (let b = seen.find(hash); b >= 0 && first === undefined; b = seen.next(b, hash)) if (names[seen.id(b)] === name) first = lines[seen.id(b)];
  seen.add(hash, names.length);
  return first;
}

function scanKeyed(bytes: Uint8Array, tokens: boolean): { scanner: KeyedScanner; file: KeyedFile } {
  const { text, bom } = decodeUtf8(bytes);
  const scanner = new KeyedScanner(text, tokens);
  scanner.scan();
  const { nested } = scanner;
  return { scanner, file: { bom, text, ...(nested ? { nested } : {}), ambiguous: scanner.deep && scanner.dotted } };
}

/** Scans a JSON file for its string values as entries; throws FileUnparsableError naming line and column, as `scanJson` does. */
export function scanKeyedEntries(bytes: Uint8Array): KeyedEntries {
  const { scanner, file } = scanKeyed(bytes, false);
  return { ...file, entries: scanner.entries };
}

/** Scans a JSON file for its string values' keys and spans, to splice values in; throws as `scanJson` does. */
export function scanKeyedTokens(bytes: Uint8Array): KeyedTokens {
  const { scanner, file } = scanKeyed(bytes, true);
  const { keys, starts, ends, escapes } = scanner;
  return { ...file, keys, starts, ends, escapes };
}

/** Whether 4 hex digits follow at `at`. */
function isHex4(t: string, at: number): boolean {
  for (let k = at; k < at + 4; k++) {
    const c = t.charCodeAt(k);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46))) return false;
  }
  return true;
}

/** Scans a JSON file whose top level must be an object; throws FileUnparsableError naming line and column. */
export function scanJson(bytes: Uint8Array): JsonDocument {
  const { text, bom } = decodeUtf8(bytes);
  return { bom, text, root: new TreeScanner(text).scan() };
}

/** What a value on a tape is. */
export type JsonKind = JsonValueNode['kind'];

const KINDS: readonly JsonKind[] = ['string', 'number', 'boolean', 'null', 'object', 'array'];
const STRING_KIND = 0;
const OBJECT_KIND = 4;
const ARRAY_KIND = 5;

// Int32 fields per slot: the kind (escapes of a string above it), start, end, line, column, and `after`.
const FIELDS = 6;
const ESCAPES_SHIFT = 4;

/**
 * A scanned document as one flat array of slots, for codecs that read large files: where `scanJson` makes several
 * objects per value, which a catalog of many small objects spends most of its time allocating and collecting, a tape
 * makes none. There is one slot per value and one per member key, in document order: an object's slot is followed by
 * each member's key slot then its value's slots, an array's by its elements' slots. `after` of a slot is the slot just
 * past its value (for a key, past the member), so `for (let k = o + 1; k < tape.after(o); k = tape.after(k))` visits
 * the members of the object at `o`, and the same loop the elements of an array. The root object is slot 0.
 */
export class JsonTape {
  constructor(
    /** The file decoded from UTF-8, without the BOM; offsets index it. */
    readonly text: string,
    /** Whether the file started with a UTF-8 byte order mark (not part of `text`). */
    readonly bom: boolean,
    private readonly slots: Int32Array,
  ) {}

  kind(slot: number): JsonKind {
    return KINDS[this.slots[slot * FIELDS]! & ((1 << ESCAPES_SHIFT) - 1)]!;
  }

  /** Index of the token's first character (the quote, bracket or first digit). */
  start(slot: number): number {
    return this.slots[slot * FIELDS + 1]!;
  }

  /** Index just past the token's last character. */
  end(slot: number): number {
    return this.slots[slot * FIELDS + 2]!;
  }

  line(slot: number): number {
    return this.slots[slot * FIELDS + 3]!;
  }

  column(slot: number): number {
    return this.slots[slot * FIELDS + 4]!;
  }

  /** The slot just past the value at `slot` and all it contains; for a key, past its member. */
  after(slot: number): number {
    return this.slots[slot * FIELDS + 5]!;
  }

  /** The decoded value of the string (or key) at `slot`. */
  string(slot: number): string {
    return decodeToken(this.text, this.start(slot), this.end(slot), (this.slots[slot * FIELDS]! >> ESCAPES_SHIFT) as Escapes);
  }

  /** The string (or key) at `slot` as `JSON.stringify` writes its value: the token itself when it has no escapes. */
  quoted(slot: number): string {
    // Valid UTF-8 decodes to no lone surrogate, and a token without escapes has no quote, backslash or control character.
    return this.slots[slot * FIELDS]! >> ESCAPES_SHIFT === PLAIN ? this.text.slice(this.start(slot), this.end(slot)) : JSON.stringify(this.string(slot));
  }

  /** Whether the value at `slot` is a string that decodes to `value`; compared in place when it has no escapes. */
  is(slot: number, value: string): boolean {
    const head = this.slots[slot * FIELDS]!;
    if (head === STRING_KIND) {
      const start = this.start(slot);
      return this.end(slot) - start - 2 === value.length && this.text.startsWith(value, start + 1);
    }
    return (head & ((1 << ESCAPES_SHIFT) - 1)) === STRING_KIND && this.string(slot) === value;
  }

  /**
   * `is(slot, value)` for a caller that holds `quoted`, the value's `JSON.stringify`: a token whose only escapes are
   * the ones JSON.stringify writes holds the value exactly when it reads as `quoted`, so it is compared undecoded.
   */
  isQuoted(slot: number, value: string, quoted: string): boolean {
    const head = this.slots[slot * FIELDS]!;
    if (head === STRING_KIND || head === (STRING_KIND | (STRINGIFY_ESCAPES << ESCAPES_SHIFT))) {
      const start = this.start(slot);
      return this.end(slot) - start === quoted.length && this.text.startsWith(quoted, start);
    }
    return this.is(slot, value);
  }

  /**
   * Whether the decoded string at `slot` may hold `part` (letters, digits or punctuation other than quote and backslash):
   * false is sure, true only where its \u escapes could hide it.
   */
  mayHold(slot: number, part: string): boolean {
    const head = this.slots[slot * FIELDS]!;
    if (head >> ESCAPES_SHIFT === OTHER_ESCAPES) return true;
    // The escapes JSON.stringify writes stand for quotes, backslashes and control characters, which `part` may not hold.
    return this.text.slice(this.start(slot) + 1, this.end(slot) - 1).includes(part);
  }

  /** The key slot of the object's member named `name` (its value is at key + 1), or -1. */
  member(object: number, name: string): number {
    const stop = this.after(object);
    for (let key = object + 1; key < stop; key = this.after(key)) if (this.is(key, name)) return key;
    return -1;
  }

  /** The key slots of an object's members, or the slots of an array's elements, in order. */
  children(container: number): number[] {
    const out: number[] = [];
    const stop = this.after(container);
    for (let child = container + 1; child < stop; child = this.after(child)) out.push(child);
    return out;
  }
}

/** Builds a tape: the tree scanner's grammar and errors, written into slots. */
class TapeScanner extends JsonLexer {
  private slots: Int32Array;
  private count = 0;
  // Key slots of the objects being read, one list per depth, for the duplicate check of small objects.
  private readonly scratch: number[][] = [];

  constructor(text: string) {
    super(text);
    // About one slot per 16 characters in indented files; grown by doubling past that.
    this.slots = new Int32Array(Math.max(64, text.length >> 4) * FIELDS);
  }

  scan(): Int32Array {
    this.document(() => this.value());
    return this.slots.subarray(0, this.count * FIELDS);
  }

  /** Appends a slot whose end and `after` are set when known. */
  private open(kind: number, start: number): number {
    const slot = this.count++;
    if (this.count * FIELDS > this.slots.length) {
      const grown = new Int32Array(this.slots.length * 2);
      grown.set(this.slots);
      this.slots = grown;
    }
    const at = slot * FIELDS;
    this.slots[at] = kind;
    this.slots[at + 1] = start;
    this.slots[at + 3] = this.line;
    this.slots[at + 4] = this.column(start);
    return slot;
  }

  private close(slot: number): void {
    this.slots[slot * FIELDS + 2] = this.pos;
    this.slots[slot * FIELDS + 5] = this.count;
  }

  private value(): void {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x22) {
      this.stringSlot();
    } else if (c === 0x7b) {
      this.object();
    } else if (c === 0x5b) {
      this.array();
    } else {
      const slot = this.open(0, this.pos);
      this.slots[slot * FIELDS] = KINDS.indexOf(this.scalar());
      this.close(slot);
    }
  }

  private stringSlot(): number {
    const slot = this.open(STRING_KIND, this.pos);
    this.slots[slot * FIELDS] = STRING_KIND | (this.token() << ESCAPES_SHIFT);
    this.close(slot);
    return slot;
  }

  /** Decodes the key at `slot`, for the duplicate check of large objects and error messages. */
  private keyAt(slot: number): string {
    const at = slot * FIELDS;
    return decodeToken(this.text, this.slots[at + 1]!, this.slots[at + 2]!, (this.slots[at]! >> ESCAPES_SHIFT) as Escapes);
  }

  // The duplicate check of objects with many members, apart so that the scan of small ones stays compact.
  private index(keys: readonly number[]): KeyIndex {
    const seen = new KeyIndex();
    for (const key of keys) seen.add(this.keyHash(key), key);
    return seen;
  }

  /** Adds the key at `slot` to `seen`, returning the slot of an earlier key that decodes alike, or -1. */
  private lookUp(seen: KeyIndex, slot: number): number {
    const hash = this.keyHash(slot);
    let first = -1;
    for (let b = seen.find(hash); b >= 0 && first < 0; b = seen.next(b, hash)) if (this.sameKey(seen.id(b), slot)) first = seen.id(b);
    seen.add(hash, slot);
    return first;
  }

  /** The hash of the key at `slot` as decoded (`KeyIndex`), read in place when it has no escapes. */
  private keyHash(slot: number): number {
    if (this.slots[slot * FIELDS] !== STRING_KIND) return hashKey(this.keyAt(slot));
    const t = this.text;
    const end = this.slots[slot * FIELDS + 2]! - 1;
    let hash = KEY_HASH_SEED;
    for (let i = this.slots[slot * FIELDS + 1]! + 1; i < end; i++) hash = hashUnit(hash, t.charCodeAt(i));
    return hash;
  }

  /** Whether two key slots decode alike; raw tokens without escapes compare in place. */
  private sameKey(a: number, b: number): boolean {
    const s = this.slots;
    const aStart = s[a * FIELDS + 1]!;
    const bStart = s[b * FIELDS + 1]!;
    const length = s[a * FIELDS + 2]! - aStart;
    if (s[a * FIELDS] === STRING_KIND && s[b * FIELDS] === STRING_KIND) {
      if (s[b * FIELDS + 2]! - bStart !== length) return false;
      const t = this.text;
      for (let k = 1; k < length - 1; k++) if (t.charCodeAt(aStart + k) !== t.charCodeAt(bStart + k)) return false;
      return true;
    }
    return this.keyAt(a) === this.keyAt(b);
  }

  private object(): void {
    const slot = this.open(OBJECT_KIND, this.pos);
    this.enter();
    this.pos++;
    const keys = (this.scratch[this.depth] ??= []);
    keys.length = 0;
    let seen: KeyIndex | undefined;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
    } else {
      do {
        this.expectKey(keys.length === 0 && !seen);
        const key = this.stringSlot();
        let first = -1;
        if (seen) {
          first = this.lookUp(seen, key);
        } else {
          for (let k = 0; k < keys.length && first < 0; k++) if (this.sameKey(keys[k]!, key)) first = keys[k]!;
          keys.push(key);
          if (keys.length > LINEAR_DUPLICATES) {
            seen = this.index(keys);
            keys.length = 0;
          }
        }
        if (first >= 0) {
          this.fail(`Duplicate key ${JSON.stringify(this.keyAt(key))} (first defined at line ${this.slots[first * FIELDS + 3]})`, this.slots[key * FIELDS + 1]);
        }
        this.colon(this.slots[key * FIELDS + 1]!, this.slots[key * FIELDS + 2]!);
        this.value();
        // A key's `after` is its member's: past the value.
        this.slots[key * FIELDS + 5] = this.count;
      } while (!this.next(0x7d, 'member'));
    }
    this.leave();
    this.close(slot);
  }

  private array(): void {
    const slot = this.open(ARRAY_KIND, this.pos);
    this.enter();
    this.pos++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
    } else {
      do this.value();
      while (!this.next(0x5d, 'element'));
    }
    this.leave();
    this.close(slot);
  }
}

/** Scans a JSON file whose top level must be an object onto a tape; throws FileUnparsableError as `scanJson` does. */
export function scanJsonTape(bytes: Uint8Array): JsonTape {
  const { text, bom } = decodeUtf8(bytes);
  return new JsonTape(text, bom, new TapeScanner(text).scan());
}

/** Every string value in document order (object keys are not values). */
export function collectStrings(root: JsonObjectNode): JsonStringValue[] {
  const out: JsonStringValue[] = [];
  const visit = (node: JsonValueNode, path: string[], inArray: boolean, span: { start: number; end: number }): void => {
    if (node.kind === 'string') out.push({ path, inArray, node, span });
    else if (node.kind === 'object') for (const m of node.members) visit(m.value, [...path, m.key.value], false, m);
    else if (node.kind === 'array') node.elements.forEach((e, i) => visit(e, [...path, String(i)], true, e));
  };
  visit(root, [], false, root);
  return out;
}

/** What to do with one string value when rewriting. */
export type StringEdit = { kind: 'keep' } | { kind: 'replace'; value: string } | { kind: 'omit' };

/** What to do with one object member, by its index, when rewriting: `text` replaces the whole member, key included. */
export type MemberEdit = { kind: 'text'; text: string } | { kind: 'omit' };

const OMITTED = Symbol('omitted');

/**
 * Rewrites a scanned document, touching only the string tokens `decide` changes and the members it omits.
 * Omission rules: an object or array all of whose members were omitted is omitted from its parent (the root becomes `{}`);
 * a partly omitted array keeps its omitted elements' source text, because removing them would renumber the rest.
 * `membersOf` may replace or omit whole members of an object (i18next plural families); `decide` is not asked about them.
 * Returns the new text (BOM excluded), or undefined when nothing changed so the caller can hand back the source bytes.
 */
export function rewriteJson(
  doc: JsonDocument,
  decide: (value: JsonStringValue) => StringEdit,
  membersOf?: (node: JsonObjectNode, path: readonly string[]) => ReadonlyMap<number, MemberEdit> | undefined,
): string | undefined {
  const text = doc.text;
  let changed = false;

  const render = (node: JsonValueNode, path: string[], inArray: boolean, span: { start: number; end: number }): string | typeof OMITTED => {
    switch (node.kind) {
      case 'string': {
        const edit = decide({ path, inArray, node, span });
        if (edit.kind === 'keep' || (edit.kind === 'replace' && edit.value === node.value)) return text.slice(node.start, node.end);
        changed = true;
        return edit.kind === 'omit' ? OMITTED : JSON.stringify(edit.value);
      }
      case 'number':
      case 'boolean':
      case 'null':
        return text.slice(node.start, node.end);
      case 'object': {
        const edits = membersOf?.(node, path);
        // Members replaced whole carry their own key.
        const whole = new Set<number>();
        const parts = node.members.map((m, i) => {
          const edit = edits?.get(i);
          if (!edit) return render(m.value, [...path, m.key.value], false, m);
          if (edit.kind === 'omit') {
            changed = true;
            return OMITTED;
          }
          if (edit.text !== text.slice(m.start, m.end)) changed = true;
          whole.add(i);
          return edit.text;
        });
        return join(node, node.members, parts, (m, i) => (whole.has(i) ? '' : text.slice(m.start, m.value.start)));
      }
      case 'array': {
        const parts = node.elements.map((e, i) => render(e, [...path, String(i)], true, e));
        if (parts.some((p) => p !== OMITTED)) {
          for (const [i, e] of node.elements.entries()) if (parts[i] === OMITTED) parts[i] = text.slice(e.start, e.end);
        }
        return join(node, node.elements, parts, () => '');
      }
    }
  };

  /**
   * Reassembles a container from its rendered children. Each kept child is followed by the separator that originally
   * followed it, and the last kept one by the original closing whitespace, so indentation and line endings survive omission.
   */
  const join = <C extends { start: number; end: number }>(
    node: JsonObjectNode | JsonArrayNode,
    children: readonly C[],
    parts: readonly (string | typeof OMITTED)[],
    prefixOf: (child: C, index: number) => string,
  ): string | typeof OMITTED => {
    if (children.length === 0) return text.slice(node.start, node.end);
    const kept = children.flatMap((child, i) => (parts[i] === OMITTED ? [] : [i]));
    if (kept.length === 0) return OMITTED;
    const first = children[0]!;
    const last = children[children.length - 1]!;
    let out = text.slice(node.start, first.start);
    kept.forEach((i, k) => {
      const child = children[i]!;
      out += prefixOf(child, i) + (parts[i] as string);
      out += k < kept.length - 1 ? text.slice(child.end, children[i + 1]!.start) : text.slice(last.end, node.end);
    });
    return out;
  };

  const root = render(doc.root, [], false, doc.root);
  if (!changed) return undefined;
  return text.slice(0, doc.root.start) + (root === OMITTED ? '{}' : root) + text.slice(doc.root.end);
}

/** The edit for one string under the render contract, shared by the json codecs. */
export function editFor(key: string, input: RenderInput): StringEdit {
  const translated = input.values.get(key);
  if (translated === undefined) return input.missing === 'omit' ? { kind: 'omit' } : { kind: 'keep' };
  return { kind: 'replace', value: textValue(translated, 'json') };
}

/** Renders a scanned document, handing back a copy of the source bytes when no value changed. */
export function renderDocument(doc: JsonDocument, input: RenderInput, keyOf: (value: JsonStringValue) => string): Uint8Array {
  const text = rewriteJson(doc, (value) => editFor(keyOf(value), input));
  return text === undefined ? input.source.slice() : encodeUtf8(text, doc.bom);
}

/** A string value's key: its path segments (member names, array indexes) joined with '.'. */
export const keyOf = (value: JsonStringValue): string => value.path.join('.');

/** Refuses two paths that flatten to one key (one would shadow the other). */
export function checkKeys(scan: KeyedEntries): void {
  // Keys of top-level strings are their distinct names, and without a '.' in any name joining paths loses nothing.
  if (!scan.ambiguous) return;
  const byKey = new Map<string, Entry>();
  for (const entry of scan.entries) {
    const prior = byKey.get(entry.key);
    if (prior) {
      const { line, column } = entry;
      throw new FileUnparsableError(
        `The paths ${JSON.stringify(prior.path)} (line ${prior.line}) and ${JSON.stringify(entry.path)} ` +
          `both give the key ${JSON.stringify(entry.key)} at line ${line}, column ${column}; rename one of them`,
        line,
        column,
      );
    }
    byKey.set(entry.key, entry);
  }
}

/** `checkKeys` for a scan of tokens: a repeated key is refused with the message a scan of entries gives. */
export function checkTokenKeys(scan: KeyedTokens, bytes: Uint8Array): void {
  if (!scan.ambiguous) return;
  const keys = new Set<string>();
  for (const key of scan.keys) {
    if (keys.size === keys.add(key).size) checkKeys(scanKeyedEntries(bytes));
  }
}

/** Every string value of a file, nested ones included, as an entry keyed by its dotted path. */
export function parseKeyed(bytes: Uint8Array): Entry[] {
  const scan = scanKeyedEntries(bytes);
  checkKeys(scan);
  return scan.entries;
}

/** Splices the values keyed by dotted path into a scanned file, leaving every other byte as it was. */
export function renderTokens(scan: KeyedTokens, input: RenderInput): Uint8Array {
  const { text, keys, starts, ends, escapes } = scan;
  // Without omissions every edit replaces one string token, so the text is the source with those tokens spliced.
  let out: Utf8Writer | undefined;
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    const translated = input.values.get(keys[i]!);
    if (translated === undefined) {
      // Omitting members and emptied containers needs the document's structure.
      if (input.missing === 'omit') return renderDocument(scanJson(input.source), input, keyOf);
      continue;
    }
    const value = textValue(translated, 'json');
    const start = starts[i]!;
    const end = ends[i]!;
    // The file's text is compared in place, without decoding it: a token whose escapes are the ones JSON.stringify
    // writes holds the value exactly when it reads as the value's JSON.
    let quoted: string | undefined;
    if (escapes[i] === PLAIN) {
      if (value.length === end - start - 2 && text.startsWith(value, start + 1)) continue;
    } else if (escapes[i] === STRINGIFY_ESCAPES) {
      quoted = JSON.stringify(value);
      if (quoted.length === end - start && text.startsWith(quoted, start)) continue;
    } else if (JSON.parse(text.slice(start, end)) === value) {
      continue;
    }
    out ??= new Utf8Writer(input.source.length + (input.source.length >> 1), scan.bom);
    out.write(text.slice(at, start));
    out.write(quoted ?? JSON.stringify(value));
    at = end;
  }
  if (!out) return input.source.slice();
  out.write(text.slice(at));
  return out.finish();
}

/** Splices the values keyed by dotted path into the file, leaving every other byte as it was. */
export function renderKeyed(input: RenderInput): Uint8Array {
  const scan = scanKeyedTokens(input.source);
  checkTokenKeys(scan, input.source);
  return renderTokens(scan, input);
}

/** Members of an object to write fresh, in order; a value is a string or a nested object. */
export type FreshObject = readonly (readonly [string, string | FreshObject])[];

/** Writes an object conventionally (2-space indentation, LF); hand-written because JSON.stringify reorders integer-like keys. */
export function writeObject(members: FreshObject, indent = ''): string {
  if (members.length === 0) return '{}';
  const inner = `${indent}  `;
  const lines = members.map(([key, value]) => {
    const rendered = typeof value === 'string' ? JSON.stringify(value) : writeObject(value, inner);
    return `${inner}${JSON.stringify(key)}: ${rendered}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}
