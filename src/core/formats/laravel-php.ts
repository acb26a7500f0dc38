// The `laravel_php` codec: string literals of a Laravel `lang/<locale>/*.php` array, spliced back into the untouched PHP.
import { afterLineEnd, LineIndex, lineStart } from './line-index.js';
import { insertKey, type KeyLevel } from './key-tree.js';
import { Engine } from 'php-parser';
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { decodeUtf8, encodeUtf8 } from './json-scan.js';
import { textValue } from './values.js';
import { trimOf } from './trim.js';

/*
 * Decisions:
 * - The file must `return` an array literal (`[...]` or `array(...)`); nested arrays give dotted keys, as Laravel's
 *   `__('file.nested.key')` reads them. Keys follow PHP's own rules: '5' is the integer 5, items without a key take the
 *   next integer (never below 0, as before PHP 8.3), and a key given twice keeps only its last item (the earlier ones
 *   are not entries; they stay in the file, and go when the last one is omitted).
 * - Entries are plain single- or double-quoted string literals. Interpolated strings, heredoc/nowdoc, concatenations,
 *   constants and other expressions are not entries and are kept byte for byte.
 * - A changed value keeps its quotes. Single quotes escape only \' and \\; a value with control characters (a line
 *   break, say) switches to double quotes so the file keeps its lines. Double quotes use PHP escapes and escape `$`.
 *   Text is written as UTF-8 (a lone surrogate, which UTF-8 cannot carry, becomes U+FFFD).
 * - Comments on the lines directly above an item, and one after it on its line, are its notes.
 * - Omission removes an item (its lines, with its notes, when it has lines of its own); an array left empty is removed
 *   from its parent, and an empty root becomes `[]`. An integer-keyed item stays when a later keyless item is kept,
 *   because removing it would renumber that item.
 */

interface Loc {
  start: { offset: number };
  end: { offset: number };
}

interface PhpNode {
  kind: string;
  loc: Loc;
  value?: unknown;
  raw?: string;
  key?: PhpNode | null;
  items?: PhpNode[];
  shortForm?: boolean;
  byRef?: boolean;
  unpack?: boolean;
  expr?: PhpNode;
  children?: PhpNode[];
  comments?: PhpNode[];
}

interface PhpString {
  key: string;
  path: string[];
  node: PhpNode;
  value: string;
  notes?: string;
  line: number;
  column: number;
}

type Tree = { kind: 'string'; string: PhpString } | { kind: 'fixed' } | ArrayTree;

interface ArrayTree {
  kind: 'array';
  node: PhpNode;
  items: Item[];
}

interface Item {
  tree: Tree;
  start: number;
  end: number;
  /** Start of the item's notes above it, or its own start. */
  lead: number;
  /** Integer key (given or implied): removing the item would renumber later keyless items. */
  intKey: boolean;
  keyless: boolean;
  /** For an item whose key is given again later: the index of the last one, which PHP keeps. */
  shadowedBy?: number;
}

interface Comment {
  start: number;
  /** End of the comment, without the line break a `//` comment swallows. */
  end: number;
  text: string;
}

interface Model {
  text: string;
  bom: boolean;
  lines: LineIndex;
  root: ArrayTree;
  strings: PhpString[];
}

const MAX_DEPTH = 512;

function fail(lines: LineIndex, message: string, index: number): never {
  const { line, column } = lines.at(index);
  throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
}

const engine = new Engine({
  parser: { extractDoc: true, php8: true, suppressErrors: false },
  ast: { withPositions: true, withSource: true },
  lexer: { short_tags: false },
});

/*
 * php-parser's lexer keeps the current token's text by appending to a string on every character and cutting it with
 * substring on every look-behind; on a long token (an unterminated string of `{` or `\\`, say) each cut copies the
 * whole token, which made a 400 KB line take 44 s. Outside `unput` the text is always the input between the token's
 * first offset and the lexer's offset, so it is derived from them: a slice of the flat input costs the same at any
 * length. `unput` moves the offset before it reads the text, so during it the text is held as it was.
 */
interface LexerState {
  _input: string | undefined;
  offset: number;
  yylloc: { first_offset: number };
  /** The token text while `unput` runs. */
  heldText?: string | undefined;
  unput(size: number): unknown;
}
const lexer = engine.lexer as unknown as LexerState;
Object.defineProperty(lexer, 'yytext', {
  get(this: LexerState): string {
    if (this.heldText !== undefined) return this.heldText;
    return this._input === undefined ? '' : this._input.slice(this.yylloc.first_offset, this.offset);
  },
  set(this: LexerState, text: string): void {
    if (this.heldText !== undefined) this.heldText = text;
  },
});
const unput = lexer.unput;
lexer.unput = function (this: LexerState, size: number) {
  this.heldText = this._input === undefined ? '' : this._input.slice(this.yylloc.first_offset, this.offset);
  try {
    return unput.call(this, size);
  } finally {
    this.heldText = undefined;
  }
};

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { n: 10, t: 9, r: 13, v: 11, e: 27, f: 12, '\\': 92, $: 36, '"': 34 };

/** Decodes a string literal's source as PHP does, byte by byte; undefined when the bytes are not UTF-8 text. */
function decodeLiteral(raw: string): string | undefined {
  const body = raw.replace(/^[bB]/, '');
  const quote = body[0];
  const inner = body.slice(1, -1);
  if (quote === "'") return inner.replace(/\\([\\'])/g, '$1');
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  // A loop, not push(...spread): a spread of a long literal's bytes overflows the call stack.
  const push = (s: string): void => {
    for (const byte of encoder.encode(s)) bytes.push(byte);
  };
  let i = 0;
  while (i < inner.length) {
    const backslash = inner.indexOf('\\', i);
    if (backslash < 0) {
      push(inner.slice(i));
      break;
    }
    push(inner.slice(i, backslash));
    const rest = inner.slice(backslash + 1);
    const simple = SIMPLE_ESCAPES[rest[0] ?? ''];
    let match: RegExpExecArray | null;
    if (simple !== undefined) {
      bytes.push(simple);
      i = backslash + 2;
    } else if ((match = /^[0-7]{1,3}/.exec(rest))) {
      bytes.push(parseInt(match[0], 8) & 0xff);
      i = backslash + 1 + match[0].length;
    } else if ((match = /^x([0-9a-fA-F]{1,2})/.exec(rest))) {
      bytes.push(parseInt(match[1]!, 16));
      i = backslash + 1 + match[0].length;
    } else if ((match = /^u\{([0-9a-fA-F]+)\}/.exec(rest))) {
      const code = parseInt(match[1]!, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
      push(String.fromCodePoint(code));
      i = backslash + 1 + match[0].length;
    } else {
      // PHP keeps an unknown escape as written, backslash included.
      bytes.push(92);
      i = backslash + 1;
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function int64(n: bigint): bigint | undefined {
  return n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}

/** A key as PHP stores it: an integer (bigint, as PHP's are 64-bit) or a string; undefined when only running PHP could tell. */
function keyValue(node: PhpNode): bigint | string | undefined {
  switch (node.kind) {
    case 'string': {
      const value = decodeLiteral(String(node.raw));
      if (value === undefined) return undefined;
      // PHP turns decimal integer strings into integer keys ('5' is 5; '05' and '-0' stay strings).
      return /^(?:0|-?[1-9][0-9]*)$/.test(value) ? (int64(BigInt(value)) ?? value) : value;
    }
    case 'number': {
      const source = String(node.value).replaceAll('_', '');
      if (/^0[xX][0-9a-fA-F]+$|^0[bB][01]+$|^0[oO][0-7]+$/.test(source)) return int64(BigInt(source.toLowerCase()));
      if (/^0[0-7]+$/.test(source)) return int64(BigInt(`0o${source.slice(1)}`));
      if (/^[0-9]+$/.test(source)) return int64(BigInt(source));
      // A float key is truncated to an integer (PHP warns, but does it).
      const n = Number(source);
      return Number.isFinite(n) ? int64(BigInt(Math.trunc(n))) : undefined;
    }
    case 'boolean':
      return node.value ? 1n : 0n;
    case 'nullkeyword':
      return '';
    default:
      return undefined;
  }
}

function commentText(raw: string): string {
  if (raw.startsWith('//') || raw.startsWith('#')) return raw.replace(/^(?:\/\/|#) ?/, '').trimEnd();
  const lines = raw
    .replace(/^\/\*\*?/, '')
    .replace(/\*\/$/, '')
    .split(/\r?\n|\r/)
    .map((l, i) => (i === 0 ? l.replace(/^ /, '') : l.replace(/^[ \t]*\*? ?/, '')).trimEnd());
  return trimOf(lines.join('\n'), '\n');
}

/** Index of the first comment starting at or after `index` (comments are sorted and never overlap). */
function firstCommentFrom(comments: readonly Comment[], index: number): number {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid]!.start < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Own-line comments directly above `start` (no blank line between), and one comment after `end` on the item's line. */
function notesAround(text: string, lines: LineIndex, comments: readonly Comment[], start: number, end: number): { lead: number; notes?: string } {
  const notes: string[] = [];
  let lead = start;
  for (let i = firstCommentFrom(comments, start) - 1; i >= 0; i--) {
    const c = comments[i]!;
    const ownLine = text.slice(lines.lineStartOf(c.start), c.start).trim() === '';
    if (c.end > lead || !ownLine || !/^[ \t]*(?:\r?\n|\r)[ \t]*$/.test(text.slice(c.end, lead))) break;
    notes.unshift(c.text);
    lead = c.start;
  }
  const trailing = comments[firstCommentFrom(comments, end)];
  if (trailing && /^[ \t]*,?[ \t]*$/.test(text.slice(end, trailing.start))) notes.push(trailing.text);
  const joined = trimOf(notes.join('\n'), '\n');
  return joined === '' ? { lead } : { lead, notes: joined };
}

function parseProgram(text: string, lines: LineIndex): PhpNode {
  try {
    return engine.parseCode(text, 'lang.php') as unknown as PhpNode;
  } catch (error) {
    const e = error as { message?: string; lineNumber?: number; columnNumber?: number };
    if (typeof e.lineNumber !== 'number') {
      if (error instanceof RangeError) fail(lines, `Expected at most ${MAX_DEPTH} levels of nesting`, 0);
      // The lexer throws plain Errors that give only an offset (one past the character), e.g. on a NUL byte in code.
      const lexed = /^(?:Bad terminal sequence "([^]*)"|([^]*?)) at line \d+ \(offset (\d+)\)$/.exec(String(e.message));
      if (lexed) {
        const message = lexed[1] !== undefined ? `Unexpected character ${JSON.stringify(lexed[1])}` : lexed[2]!.replace(/^Parse error:\s+/, '');
        fail(lines, message, Math.min(text.length, Math.max(0, Number(lexed[3]) - 1)));
      }
      if (error instanceof Error) fail(lines, `Unexpected input (${error.message})`, 0);
      throw error;
    }
    const message = String(e.message)
      .replace(/^Parse Error : s/, 'S')
      .replace(/ on line \d+$/, '');
    const lineStartIndex = lines.starts[Math.max(0, e.lineNumber - 1)] ?? text.length;
    fail(lines, message, Math.min(text.length, lineStartIndex + (e.columnNumber ?? 0)));
  }
}

function analyse(bytes: Uint8Array): Model {
  const { text, bom } = decodeUtf8(bytes);
  const lines = new LineIndex(text);
  const program = parseProgram(text, lines);
  const statements = program.children ?? [];
  // Text before `<?php` would be printed by `require`; blank lines there are harmless.
  const inline = statements[0]?.kind === 'inline' ? statements[0] : undefined;
  if (inline && text.slice(0, inline.loc.end.offset).trim() !== '') fail(lines, "Expected the file to start with '<?php'", 0);
  const ret = statements.find((s) => s.kind === 'return');
  if (!ret) fail(lines, 'Expected the file to return an array (return [...];)', text.length);
  if (ret.expr?.kind !== 'array') fail(lines, 'Expected the file to return an array literal (return [...];)', (ret.expr ?? ret).loc.start.offset);

  const comments: Comment[] = (program.comments ?? []).map((c) => {
    const raw = String(c.value).replace(/(?:\r?\n|\r)$/, '');
    return { start: c.loc.start.offset, end: c.loc.start.offset + raw.length, text: commentText(raw) };
  });
  const strings: PhpString[] = [];
  const byKey = new Map<string, PhpString>();

  const walkArray = (node: PhpNode, path: string[], depth: number): ArrayTree => {
    if (depth > MAX_DEPTH) fail(lines, `Expected at most ${MAX_DEPTH} levels of nesting`, node.loc.start.offset);
    const entries = node.items ?? [];
    // PHP's keys: an explicit key, or the next integer after the largest so far; unknowable after a computed key.
    let next = 0n;
    let known = true;
    const keys = entries.map((entry): bigint | string | undefined => {
      if (entry.kind !== 'entry' || entry.unpack) {
        known = false;
        return undefined;
      }
      let key: bigint | string | undefined;
      if (entry.key) key = keyValue(entry.key);
      else key = known ? next : undefined;
      if (key === undefined) known = false;
      else if (typeof key === 'bigint' && key >= next) next = key + 1n;
      return key;
    });
    // A key given again later is dead: PHP keeps the last one.
    const lastIndexOf = new Map<string, number>();
    const slot = (key: bigint | string): string => (typeof key === 'bigint' ? `i${key}` : `s${key}`);
    keys.forEach((key, i) => key !== undefined && lastIndexOf.set(slot(key), i));

    const items = entries.map((entry, i): Item => {
      const start = entry.loc.start.offset;
      const end = entry.loc.end.offset;
      const key = keys[i];
      const keyless = entry.kind === 'entry' && !entry.key && !entry.unpack;
      const { lead, notes } = notesAround(text, lines, comments, start, end);
      const item: Omit<Item, 'tree'> = { start, end, lead, intKey: key === undefined || typeof key === 'bigint', keyless };
      const last = key === undefined ? i : lastIndexOf.get(slot(key))!;
      if (last !== i) return { ...item, shadowedBy: last, tree: { kind: 'fixed' } };
      if (key === undefined || entry.byRef) return { ...item, tree: { kind: 'fixed' } };
      const value = entry.value as PhpNode | undefined;
      const childPath = [...path, String(key)];
      if (value?.kind === 'array') return { ...item, tree: walkArray(value, childPath, depth + 1) };
      const decoded = value?.kind === 'string' ? decodeLiteral(String(value.raw)) : undefined;
      if (!value || decoded === undefined || text.slice(value.loc.start.offset, value.loc.end.offset) !== value.raw) {
        return { ...item, tree: { kind: 'fixed' } };
      }
      const fullKey = childPath.join('.');
      const { line, column } = lines.at(value.loc.start.offset);
      const found: PhpString = { key: fullKey, path: childPath, node: value, value: decoded, line, column };
      if (notes !== undefined) found.notes = notes;
      const prior = byKey.get(fullKey);
      if (prior) {
        fail(
          lines,
          `The paths ${JSON.stringify(prior.path)} (line ${prior.line}) and ${JSON.stringify(childPath)} both give the key ${JSON.stringify(fullKey)}; rename one of them`,
          value.loc.start.offset,
        );
      }
      byKey.set(fullKey, found);
      strings.push(found);
      return { ...item, tree: { kind: 'string', string: found } };
    });
    return { kind: 'array', node, items };
  };

  const root = walkArray(ret.expr, [], 0);
  return { text, bom, lines, root, strings };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

// Other control characters are written as \xHH rather than \e \v \f, which older PHP readers (phply) do not know.
const DOUBLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  $: '\\$',
  '\n': '\\n',
  '\t': '\\t',
  '\r': '\\r',
};

function doubleQuoted(value: string): string {
  // eslint-disable-next-line no-control-regex
  const body = value.replace(/[\\"$\u0000-\u001f\u007f]/g, (ch) => DOUBLE_ESCAPES[ch] ?? `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `"${body}"`;
}

function singleQuoted(value: string): string {
  return `'${value.replace(/[\\']/g, '\\$&')}'`;
}

/** The literal for a changed value, in the source literal's quotes (and `b` prefix) where they can carry it. */
function writeLiteral(value: string, raw: string): string {
  const prefix = /^[bB]/.test(raw) ? raw[0]! : '';
  const single = raw[prefix.length] === "'";
  return prefix + (single && !CONTROL.test(value) ? singleQuoted(value) : doubleQuoted(value));
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Whether an item sits on lines of its own: only indentation before its notes, only `,` and a comment after it. */
function ownsLines(text: string, item: Item): boolean {
  if (text.slice(lineStart(text, item.lead), item.lead).trim() !== '') return false;
  const rest = text.slice(item.end, afterLineEnd(text, item.end)).replace(/(?:\r?\n|\r)$/, '');
  return /^[ \t]*,?[ \t]*(?:(?:\/\/|#(?!\[)).*|\/\*(?:(?!\*\/).)*\*\/[ \t]*)?$/.test(rest) && !rest.includes('?>');
}

/** Renders a tree to edits, or null when everything in it is omitted (the caller removes it). */
function renderTree(tree: Tree, text: string, input: RenderInput): Edit[] | null {
  if (tree.kind === 'fixed') return [];
  if (tree.kind === 'string') {
    const s = tree.string;
    const translated = input.values.get(s.key);
    if (translated === undefined) return input.missing === 'omit' ? null : [];
    const value = textValue(translated, 'laravel_php');
    if (value === s.value) return [];
    return [{ start: s.node.loc.start.offset, end: s.node.loc.end.offset, text: writeLiteral(value, String(s.node.raw)) }];
  }
  const { items } = tree;
  if (items.length === 0) return [];
  const results = items.map((item) => renderTree(item.tree, text, input));
  // A shadowed item goes with the item that shadows it, or removing that one would bring it back to life.
  items.forEach((item, i) => {
    if (item.shadowedBy !== undefined && results[item.shadowedBy] === null) results[i] = null;
  });
  if (results.every((r) => r === null)) return null;
  const edits = results.flatMap((r) => r ?? []);
  // Present: kept, or omitted but not removable because a later kept keyless item would be renumbered.
  const present = results.map((r) => r !== null);
  let keylessKeptLater = false;
  for (let i = items.length - 1; i >= 0; i--) {
    if (!present[i] && items[i]!.intKey && keylessKeptLater) present[i] = true;
    if (present[i] && items[i]!.keyless) keylessKeptLater = true;
  }
  if (present.every(Boolean)) return edits;
  if (items.every((item) => ownsLines(text, item))) {
    items.forEach((item, i) => {
      if (!present[i]) edits.push({ start: lineStart(text, item.lead), end: afterLineEnd(text, item.end), text: '' });
    });
    return edits;
  }
  // Items sharing lines: each removed item takes the separator after it; trailing ones the separator before them.
  const lastPresent = present.lastIndexOf(true);
  items.forEach((item, i) => {
    if (!present[i] && i < lastPresent) edits.push({ start: item.start, end: items[i + 1]!.start, text: '' });
  });
  if (lastPresent < items.length - 1) edits.push({ start: items[lastPresent]!.end, end: items[items.length - 1]!.end, text: '' });
  return edits;
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error('laravel_php codec: overlapping edits');
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

function render(input: RenderInput): Uint8Array {
  const model = analyse(input.source);
  const { text, root } = model;
  let edits = renderTree(root, text, input);
  if (edits === null) {
    edits = [{ start: root.node.loc.start.offset, end: root.node.loc.end.offset, text: root.node.shortForm ? '[]' : 'array()' }];
  }
  if (edits.length === 0) return input.source.slice();
  return encodeUtf8(applyEdits(text, edits), model.bom);
}

type Level = KeyLevel;

/** PHP reads integer-like string keys back as integers: a fresh key must read back as the same text. */
function keyLiteral(key: string): string {
  return CONTROL.test(key) ? doubleQuoted(key) : singleQuoted(key);
}

function writeLevel(level: Level, notes: ReadonlyMap<string, string>, prefix: string[], indent: string): string {
  let out = '';
  for (const [name, member] of level) {
    const path = [...prefix, name];
    const note = typeof member === 'string' ? notes.get(path.join('.')) : undefined;
    // `?>` ends PHP mode even inside a `//` comment.
    if (note !== undefined) for (const line of note.split(/\r?\n|\r/)) out += `${indent}//${line === '' ? '' : ` ${line.replaceAll('?>', '? >')}`}\n`;
    if (typeof member === 'string') out += `${indent}${keyLiteral(name)} => ${CONTROL.test(member) ? doubleQuoted(member) : singleQuoted(member)},\n`;
    else out += `${indent}${keyLiteral(name)} => [\n${writeLevel(member, notes, path, `${indent}    `)}${indent}],\n`;
  }
  return out;
}

function renderFresh(entries: readonly FreshEntry[]): Uint8Array {
  // A repeated key keeps its first position and its last value, as Map.set does.
  const values = new Map<string, string>();
  const notes = new Map<string, string>();
  for (const entry of entries) {
    values.set(entry.key, textValue(entry.value, 'laravel_php'));
    if (entry.notes) notes.set(entry.key, entry.notes);
    else notes.delete(entry.key);
  }
  const root: Level = new Map();
  for (const [key, value] of values) insertKey(root, key.split('.'), value);
  const body = root.size === 0 ? '[]' : `[\n${writeLevel(root, notes, [], '    ')}]`;
  return encodeUtf8(`<?php\n\nreturn ${body};\n`, false);
}

function detect(fileName: string, head: string): number {
  if (!/\.php$/i.test(fileName)) return 0;
  const returnsArray = /<\?php[^]*?\breturn\s*(?:\[|array\s*\()/i.test(head);
  if (/(?:^|[/\\])lang[/\\][A-Za-z]{2,3}(?:[-_][A-Za-z0-9]+)*[/\\][^/\\]+\.php$/i.test(fileName)) return returnsArray ? 0.95 : 0.7;
  return returnsArray ? 0.8 : 0.3;
}

export const laravelPhpCodec: Codec = {
  id: 'laravel_php',
  extensions: ['.php'],
  plurals: false,
  detect,

  parse(bytes: Uint8Array): Entry[] {
    return analyse(bytes).strings.map((s) => {
      const entry: Entry = { key: s.key, path: s.path, source: s.value, line: s.line, column: s.column };
      if (s.notes !== undefined) entry.notes = s.notes;
      return entry;
    });
  },

  render,
  renderFresh,
};
