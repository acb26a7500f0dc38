// Hand-written JSON scanner that keeps every token's span, the writer that splices edits back into the untouched text, and
// the dotted-path parse and render that the json and json_nested codecs share (they differ only in detection and fresh files).
import { firstInvalidUtf8 } from './utf8.js';
import { textValue } from './values.js';
import { FileUnparsableError, type Entry, type RenderInput } from './codec.js';

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

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

// Sticky, so the scanner can hop over a string's ordinary characters in one step.
// eslint-disable-next-line no-control-regex
const PLAIN_RUN = /[^"\\\u0000-\u001f]+/y;

const LITERALS = [
  ['true', 'boolean'],
  ['false', 'boolean'],
  ['null', 'null'],
] as const;

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

class Scanner {
  private pos = 0;
  private depth = 0;
  private readonly lines: LineCounter;

  constructor(private readonly text: string) {
    this.lines = new LineCounter(text);
  }

  scanDocument(): JsonObjectNode {
    this.skipWhitespace();
    if (this.pos >= this.text.length) this.fail("The file is empty; expected a JSON object ('{')");
    if (this.peek() !== '{') this.fail("Expected a JSON object ('{') as the top-level value");
    const root = this.scanObject();
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail("Expected the end of the file after the top-level object's closing '}'");
    return root;
  }

  fail(message: string, at = this.pos): never {
    if (/^\/[/*]/.test(this.text.slice(at, at + 2))) {
      message = `${message} (JSON does not allow comments)`;
    }
    const { line, column } = this.lines.at(at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }

  private peek(): string {
    return this.text.charAt(this.pos);
  }

  private skipWhitespace(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else return;
    }
  }

  private scanValue(): JsonValueNode {
    const c = this.peek();
    if (c === '{') return this.scanObject();
    if (c === '[') return this.scanArray();
    if (c === '"') return this.scanString();
    if (c === '-' || (c >= '0' && c <= '9')) return this.scanNumber();
    for (const [word, kind] of LITERALS) {
      if (this.text.startsWith(word, this.pos) && !/[\w$]/.test(this.text.charAt(this.pos + word.length))) {
        const start = this.pos;
        this.pos += word.length;
        return { kind, start, end: this.pos, ...this.lines.at(start) };
      }
    }
    this.fail(c === "'" ? 'Expected a value (strings need double quotes)' : 'Expected a value');
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail(`Expected at most ${MAX_DEPTH} levels of nesting`);
  }

  private scanObject(): JsonObjectNode {
    const start = this.pos;
    const position = this.lines.at(start);
    this.enter();
    this.pos++;
    const members: JsonMember[] = [];
    const seen = new Map<string, JsonStringNode>();
    this.skipWhitespace();
    if (this.peek() === '}') {
      this.pos++;
    } else {
      for (;;) {
        if (this.peek() !== '"') this.fail(members.length === 0 ? "Expected a string key or '}'" : "Expected a string key after ','");
        const key = this.scanString();
        const first = seen.get(key.value);
        if (first) {
          this.fail(`Duplicate key ${JSON.stringify(key.value)} (first defined at line ${first.line})`, key.start);
        }
        seen.set(key.value, key);
        this.skipWhitespace();
        if (this.peek() !== ':') this.fail(`Expected ':' after the key ${JSON.stringify(key.value)}`);
        this.pos++;
        this.skipWhitespace();
        const value = this.scanValue();
        members.push({ key, value, start: key.start, end: value.end });
        this.skipWhitespace();
        const c = this.peek();
        if (c === '}') {
          this.pos++;
          break;
        }
        if (c !== ',') this.fail("Expected ',' or '}' after a member");
        const comma = this.pos++;
        this.skipWhitespace();
        if (this.peek() === '}') this.fail("Expected another member after ',' (trailing commas are not allowed)", comma);
      }
    }
    this.depth--;
    return { kind: 'object', members, start, end: this.pos, ...position };
  }

  private scanArray(): JsonArrayNode {
    const start = this.pos;
    const position = this.lines.at(start);
    this.enter();
    this.pos++;
    const elements: JsonValueNode[] = [];
    this.skipWhitespace();
    if (this.peek() === ']') {
      this.pos++;
    } else {
      for (;;) {
        elements.push(this.scanValue());
        this.skipWhitespace();
        const c = this.peek();
        if (c === ']') {
          this.pos++;
          break;
        }
        if (c !== ',') this.fail("Expected ',' or ']' after an array element");
        const comma = this.pos++;
        this.skipWhitespace();
        if (this.peek() === ']') this.fail("Expected another element after ',' (trailing commas are not allowed)", comma);
      }
    }
    this.depth--;
    return { kind: 'array', elements, start, end: this.pos, ...position };
  }

  private scanString(): JsonStringNode {
    const t = this.text;
    const start = this.pos;
    const position = this.lines.at(start);
    let value = '';
    let chunk = ++this.pos;
    for (;;) {
      PLAIN_RUN.lastIndex = this.pos;
      if (PLAIN_RUN.test(t)) this.pos = PLAIN_RUN.lastIndex;
      if (this.pos >= t.length) this.fail("Expected '\"' to close the string before the end of the file");
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        value += t.slice(chunk, this.pos);
        this.pos++;
        break;
      }
      if (c === 0x5c) {
        value += t.slice(chunk, this.pos);
        value += this.scanEscape();
        chunk = this.pos;
        continue;
      }
      if (c < 0x20) {
        this.fail(
          c === 0x0a || c === 0x0d
            ? "Expected '\"' to close the string before the end of the line"
            : 'Expected control characters in a string to be escaped',
        );
      }
      this.pos++;
    }
    return { kind: 'string', value, start, end: this.pos, ...position };
  }

  /** Decodes one escape sequence starting at the backslash; a lone surrogate from \uD800 stays as it is, as JSON.parse does. */
  private scanEscape(): string {
    const backslash = this.pos;
    const letter = this.text.charAt(this.pos + 1);
    if (letter === 'u') {
      const hex = this.text.slice(this.pos + 2, this.pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Expected 4 hex digits after \\u', backslash);
      this.pos += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const decoded = ESCAPES[letter];
    if (decoded === undefined) {
      this.fail(`Expected a valid escape after '\\' (one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`, backslash);
    }
    this.pos += 2;
    return decoded;
  }

  private scanNumber(): JsonScalarNode {
    const start = this.pos;
    while (/[0-9+\-.eE]/.test(this.text.charAt(this.pos))) this.pos++;
    if (!NUMBER.test(this.text.slice(start, this.pos))) this.fail('Expected a valid JSON number', start);
    return { kind: 'number', start, end: this.pos, ...this.lines.at(start) };
  }
}

/** Scans a JSON file whose top level must be an object; throws FileUnparsableError naming line and column. */
export function scanJson(bytes: Uint8Array): JsonDocument {
  const { text, bom } = decodeUtf8(bytes);
  return { bom, text, root: new Scanner(text).scanDocument() };
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

const OMITTED = Symbol('omitted');

/**
 * Rewrites a scanned document, touching only the string tokens `decide` changes and the members it omits.
 * Omission rules: an object or array all of whose members were omitted is omitted from its parent (the root becomes `{}`);
 * a partly omitted array keeps its omitted elements' source text, because removing them would renumber the rest.
 * Returns the new text (BOM excluded), or undefined when nothing changed so the caller can hand back the source bytes.
 */
export function rewriteJson(doc: JsonDocument, decide: (value: JsonStringValue) => StringEdit): string | undefined {
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
        const parts = node.members.map((m) => render(m.value, [...path, m.key.value], false, m));
        return join(node, node.members, parts, (m) => text.slice(m.start, m.value.start));
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
    prefixOf: (child: C) => string,
  ): string | typeof OMITTED => {
    if (children.length === 0) return text.slice(node.start, node.end);
    const kept = children.flatMap((child, i) => (parts[i] === OMITTED ? [] : [i]));
    if (kept.length === 0) return OMITTED;
    const first = children[0]!;
    const last = children[children.length - 1]!;
    let out = text.slice(node.start, first.start);
    kept.forEach((i, k) => {
      const child = children[i]!;
      out += prefixOf(child) + (parts[i] as string);
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

/** Scans a file and lists its strings, refusing two paths that flatten to one key (one would shadow the other). */
export function scanKeyed(bytes: Uint8Array): { doc: JsonDocument; strings: JsonStringValue[] } {
  const doc = scanJson(bytes);
  const strings = collectStrings(doc.root);
  const byKey = new Map<string, JsonStringValue>();
  for (const value of strings) {
    const key = keyOf(value);
    const prior = byKey.get(key);
    if (prior) {
      const { line, column } = value.node;
      throw new FileUnparsableError(
        `The paths ${JSON.stringify(prior.path)} (line ${prior.node.line}) and ${JSON.stringify(value.path)} ` +
          `both give the key ${JSON.stringify(key)} at line ${line}, column ${column}; rename one of them`,
        line,
        column,
      );
    }
    byKey.set(key, value);
  }
  return { doc, strings };
}

/** Every string value of a file, nested ones included, as an entry keyed by its dotted path. */
export function parseKeyed(bytes: Uint8Array): Entry[] {
  return scanKeyed(bytes).strings.map((value) => ({
    key: keyOf(value),
    path: value.path,
    source: value.node.value,
    line: value.node.line,
    column: value.node.column,
  }));
}

/** Splices the values keyed by dotted path into the file, leaving every other byte as it was. */
export function renderKeyed(input: RenderInput): Uint8Array {
  return renderDocument(scanKeyed(input.source).doc, input, keyOf);
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
