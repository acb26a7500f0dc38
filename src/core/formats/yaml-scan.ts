// A linear scanner for the YAML that localization files are made of, giving the `yaml` library's ranges, or undefined.

/*
 * The subset: one document (optionally after `---`) whose root is a block map at column 0 of nested block maps, with
 * ASCII plain keys or one-line quoted keys, one-line plain, single- and double-quoted values, empty values, comments
 * and blank lines, indented with spaces and broken with LF or CRLF. Anything else (sequences, block scalars, flow
 * collections, anchors, aliases, tags, multi-line scalars, tabs in indentation, duplicate keys, odd characters) returns
 * undefined, and the codec reads the file with the library instead; any doubt counts as anything else.
 *
 * Ranges are the library's `[start, valueEnd, nodeEnd]`, since the codec's notes, omissions and edits depend on them:
 * - a scalar's nodeEnd takes in its line's break and then the blank lines and comments indented deeper than its map
 *   that follow, through the last such comment;
 * - an empty value sits just past `:` and its spaces, and ends there;
 * - a map's valueEnd is its last value's nodeEnd, and its nodeEnd is that too unless comment lines after it, one of them
 *   at least as indented as the map, stay with it when a shallower line closes it: then they end where that line's key
 *   starts (or at the end of the text).
 */

export type ScannedRange = [number, number, number];

export interface ScannedScalar {
  kind: 'scalar';
  type: 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE';
  /** The scalar's text (null for an empty value). */
  value: string | null;
  range: ScannedRange;
  /** 1-based line of the scalar, and the index where that line starts. */
  line: number;
  lineStart: number;
}

export interface ScannedPair {
  /** The key's text, its style and where it starts and ends. */
  key: string;
  keyType: ScannedScalar['type'];
  keyStart: number;
  keyEnd: number;
  /** Where the key's line starts, and whether the line above it is a comment (it may then hold notes). */
  lineStart: number;
  afterComment: boolean;
  value: ScannedScalar | ScannedMap;
}

export interface ScannedMap {
  kind: 'map';
  range: ScannedRange;
  items: ScannedPair[];
}

export interface ScannedFile {
  root: ScannedMap;
  /** Whether some key holds a '.', so that two paths may join to one key. */
  dottedKeys: boolean;
}

/** An open map on the way down, with the keys seen so far (to leave duplicates to the library's error). */
interface Frame {
  map: ScannedMap;
  indent: number;
  keys: Set<string>;
}

/** Comment lines met after a map's last value that belong to no deeper value: they may stay with a map being closed. */
interface Trailing {
  /** Greatest indentation of their comments; -1 when there are none (blank lines never stay). */
  commentIndent: number;
}

const MAX_SCAN_DEPTH = 64;

/** The value of a pair until its own is read. */
const EMPTY: ScannedScalar = { kind: 'scalar', type: 'PLAIN', value: null, range: [0, 0, 0], line: 0, lineStart: 0 };
const MAX_KEY_LENGTH = 1000;

// Characters the scanner leaves to the library: controls, NEL and other breaks, BOMs, non-characters, lone surrogates,
// and a CR that is not part of CRLF. Each part is searched for alone: one pattern with all of them reads slower.
// eslint-disable-next-line no-control-regex
const UNUSUAL_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const LONE_CR = /\r(?!\n)/;
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function hasUnusual(text: string): boolean {
  if (UNUSUAL_CHAR.test(text)) return true;
  if (text.includes('\r') && LONE_CR.test(text)) return true;
  return SURROGATE.test(text) && LONE_SURROGATE.test(text);
}

/** Whether a plain key the scanner reads may start with this character: a letter, `_` or `$`. */
function isKeyStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x24;
}

// Keys that YAML 1.2 or 1.1 readers take for null or a boolean: the library settles those.
const NON_STRING_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|[yY](?:es)?|[nN]o?|[oO](?:n|ff)|YES|NO|ON|OFF|Yes|No|On|Off)$/;

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const HASH = 0x23;
const COLON = 0x3a;
const QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether a character may stand in a plain key the scanner reads: letters, digits and `_-./$`. */
function isKeyChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2f || c === 0x24
  );
}

// A plain value may not start with an indicator (nor with `-`, `?` or `:`, which only sometimes are one).
const PLAIN_VALUE_START_REFUSED = new Set([...'-?:,[]{}#&*!|>\'"%@`~'].map((c) => c.charCodeAt(0)));

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/** A quoted scalar on one line: its value and the index past its closing quote, or undefined. */
function quoted(text: string, start: number, lineEnd: number): { value: string; end: number } | undefined {
  const quote = text.charCodeAt(start);
  // Most quoted scalars hold no escape: one search finds their end. A search past the line means no one-line scalar.
  const close = text.indexOf(quote === QUOTE ? "'" : '"', start + 1);
  if (close < 0 || close >= lineEnd) return undefined;
  const content = text.slice(start + 1, close);
  if (quote === QUOTE ? text.charCodeAt(close + 1) !== QUOTE : !content.includes('\\')) return { value: content, end: close + 1 };
  let value = '';
  let from = start + 1;
  for (let i = start + 1; i < lineEnd; i++) {
    const c = text.charCodeAt(i);
    if (quote === QUOTE) {
      if (c !== QUOTE) continue;
      if (text.charCodeAt(i + 1) === QUOTE) {
        value += text.slice(from, i + 1);
        from = ++i + 1;
        continue;
      }
      return { value: value + text.slice(from, i), end: i + 1 };
    }
    if (c === DOUBLE_QUOTE) return { value: value + text.slice(from, i), end: i + 1 };
    if (c !== BACKSLASH) continue;
    value += text.slice(from, i);
    const escape = text[i + 1];
    if (escape === undefined || i + 1 >= lineEnd) return undefined;
    const simple = SIMPLE_ESCAPES[escape];
    if (simple !== undefined) {
      value += simple;
      from = i += 2;
      i--;
      continue;
    }
    const digits = escape === 'x' ? 2 : escape === 'u' ? 4 : 0;
    const hex = text.slice(i + 2, i + 2 + digits);
    if (digits === 0 || !new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) return undefined;
    const code = parseInt(hex, 16);
    if (code >= 0xd800 && code <= 0xdfff) return undefined;
    value += String.fromCharCode(code);
    from = i += 2 + digits;
    i--;
  }
  return undefined;
}

/** Index of the first character at or after `from` that is not a space. */
function skipSpaces(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  return i;
}

/** Whether the rest of a line after a value is empty or spaces and a comment (tabs are left to the library). */
function restIsComment(text: string, from: number, lineEnd: number): boolean {
  const i = skipSpaces(text, from, lineEnd);
  return i === lineEnd || (text.charCodeAt(i) === HASH && i > from);
}

/**
 * A plain one-line value starting at `start`: its end (before trailing spaces and any comment), or undefined when it
 * holds what could make it something else (`: `, a trailing `:`, tabs) or a comment not set off by a space.
 */
function plainEnd(text: string, start: number, lineEnd: number): number | undefined {
  let end = start;
  for (let i = start; i < lineEnd; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE) continue;
    if (c === TAB) return undefined;
    if (c === HASH && text.charCodeAt(i - 1) === SPACE) break;
    if (c === COLON) {
      const next = i + 1 < lineEnd ? text.charCodeAt(i + 1) : SPACE;
      if (next === SPACE || next === TAB) return undefined;
    }
    end = i + 1;
  }
  return end;
}

/** Reads the text as the common subset, or returns undefined for the library to read it. */
export function scanYaml(text: string): ScannedFile | undefined {
  if (hasUnusual(text)) return undefined;
  const length = text.length;
  const stack: Frame[] = [];
  /** The pair whose value is still open: a key with nothing after its `:`, waiting for a deeper line or its end. */
  let open: { pair: ScannedPair; frame: Frame; position: number; comment: boolean } | undefined;
  /** The last scalar value, while following lines may still extend its nodeEnd. */
  let last: { scalar: ScannedScalar; indent: number; absorbing: boolean } | undefined;
  let trailing: Trailing | undefined;
  let started = false;
  let root: ScannedMap | undefined;
  let dottedKeys = false;
  let line = 0;
  let commentLine = false;

  /** Closes maps deeper than `indent`; `end` is where a comment run kept by a closed map ends. */
  const close = (indent: number, end: number): boolean => {
    while (stack.length > 0 && stack[stack.length - 1]!.indent > indent) {
      const frame = stack.pop()!;
      const map = frame.map;
      const lastPair = map.items[map.items.length - 1]!;
      map.range[1] = lastPair.value.range[2];
      map.range[2] = map.range[1];
      if (trailing && trailing.commentIndent >= frame.indent && frame.indent > 0) {
        map.range[2] = end;
        trailing = undefined;
      }
    }
    return stack.length === 0 || stack[stack.length - 1]!.indent === indent;
  };

  /** Settles the open pair as an empty value; false when the library's reading of it is in doubt. */
  const settleOpen = (): boolean => {
    if (!open) return true;
    if (open.comment) return false;
    const at = open.position;
    open.pair.value = { kind: 'scalar', type: 'PLAIN', value: null, range: [at, at, at], line: 0, lineStart: 0 };
    open = undefined;
    return true;
  };

  let lineStart = 0;
  while (lineStart < length) {
    line++;
    let lineEnd = text.indexOf('\n', lineStart);
    let next: number;
    if (lineEnd < 0) next = lineEnd = length;
    else next = lineEnd + 1;
    if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
    const first = skipSpaces(text, lineStart, lineEnd);
    const indent = first - lineStart;
    const c = first < lineEnd ? text.charCodeAt(first) : -1;
    if (c === TAB) return undefined;

    if (c === -1 || c === HASH) {
      // A blank or comment line: it extends the last scalar, or joins the comments after the last value.
      if (c === HASH) {
        if (open) open.comment = true;
        else if (last?.absorbing && indent > last.indent) last.scalar.range[2] = next;
        else if (last) {
          last.absorbing = false;
          trailing ??= { commentIndent: -1 };
          trailing.commentIndent = Math.max(trailing.commentIndent, indent);
        }
      }
      commentLine = c === HASH;
      lineStart = next;
      continue;
    }
    const afterComment = commentLine;
    commentLine = false;

    if (!started) {
      started = true;
      if (text.startsWith('---', first) && indent === 0 && first + 3 === lineEnd) {
        lineStart = next;
        continue;
      }
    }

    // A content line: `key:` with an optional value, in an open map or opening a deeper one.
    if (open) {
      if (indent > open.frame.indent) {
        if (stack.length >= MAX_SCAN_DEPTH) return undefined;
        const map: ScannedMap = { kind: 'map', range: [first, first, first], items: [] };
        open.pair.value = map;
        stack.push({ map, indent, keys: new Set() });
        open = undefined;
      } else if (!settleOpen()) return undefined;
    } else if (stack.length === 0) {
      if (root || indent !== 0) return undefined;
      root = { kind: 'map', range: [first, first, first], items: [] };
      stack.push({ map: root, indent: 0, keys: new Set() });
    }
    if (indent > stack[stack.length - 1]!.indent) return undefined;
    last = undefined;
    if (!close(indent, first)) return undefined;
    trailing = undefined;
    const frame = stack[stack.length - 1]!;

    // The key.
    let keyValue: string;
    let keyType: ScannedScalar['type'];
    let keyEnd: number;
    if (c === QUOTE || c === DOUBLE_QUOTE) {
      const read = quoted(text, first, lineEnd);
      if (!read) return undefined;
      keyEnd = read.end;
      keyValue = read.value;
      keyType = c === QUOTE ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE';
    } else {
      if (!isKeyStart(c)) return undefined;
      keyEnd = first + 1;
      while (keyEnd < lineEnd && isKeyChar(text.charCodeAt(keyEnd))) keyEnd++;
      keyValue = text.slice(first, keyEnd);
      keyType = 'PLAIN';
      if (keyEnd - first <= 5 && NON_STRING_KEY.test(keyValue)) return undefined;
    }
    if (keyEnd - first > MAX_KEY_LENGTH || text.charCodeAt(keyEnd) !== COLON || keyEnd >= lineEnd) return undefined;
    const afterColon = keyEnd + 1;
    if (afterColon < lineEnd && text.charCodeAt(afterColon) !== SPACE) return undefined;
    if (frame.keys.has(keyValue)) return undefined;
    frame.keys.add(keyValue);
    if (keyValue.includes('.')) dottedKeys = true;
    const pair: ScannedPair = { key: keyValue, keyType, keyStart: first, keyEnd, lineStart, afterComment, value: EMPTY };
    frame.map.items.push(pair);

    // The value.
    const valueStart = skipSpaces(text, afterColon, lineEnd);
    const v = valueStart < lineEnd ? text.charCodeAt(valueStart) : -1;
    if (v === -1 || v === HASH) {
      // An empty value sits past the spaces after `:`, where the library places it.
      open = { pair, frame, position: valueStart, comment: v === HASH };
      lineStart = next;
      continue;
    }
    if (v === TAB) return undefined;
    let scalar: ScannedScalar;
    if (v === QUOTE || v === DOUBLE_QUOTE) {
      const read = quoted(text, valueStart, lineEnd);
      if (!read || !restIsComment(text, read.end, lineEnd)) return undefined;
      scalar = { kind: 'scalar', type: v === QUOTE ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE', value: read.value, range: [valueStart, read.end, next], line, lineStart };
    } else {
      if (PLAIN_VALUE_START_REFUSED.has(v)) return undefined;
      const end = plainEnd(text, valueStart, lineEnd);
      if (end === undefined) return undefined;
      scalar = { kind: 'scalar', type: 'PLAIN', value: text.slice(valueStart, end), range: [valueStart, end, next], line, lineStart };
    }
    pair.value = scalar;
    last = { scalar, indent: frame.indent, absorbing: true };
    lineStart = next;
  }
  if (!root || !settleOpen()) return undefined;
  close(-1, length);
  return { root, dottedKeys };
}
