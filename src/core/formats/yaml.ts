// The `yaml` codec: string scalars of nested maps and sequences, spliced back into the untouched text in their own quoting style.
import { afterLineEnd, ColumnCounter, LineIndex, lineStart } from './line-index.js';
import { insertKey, type KeyLevel } from './key-tree.js';
import { isAlias, isMap, isPair, isScalar, isSeq, Lexer, parseDocument, type CST, type Document, type Range, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { decodeUtf8, encodeUtf8 } from './json-scan.js';
import { textValue } from './values.js';
import { trimEndOf, trimOf } from './trim.js';
import { scanYaml, type ScannedFile, type ScannedMap } from './yaml-scan.js';

/*
 * Decisions:
 * - Entries are the string scalars of maps and sequences, keyed by their path joined with '.'; sequence items are `a.0`.
 * - Not entries, and kept byte for byte: aliases, anchored or tagged nodes, merge keys, and plain scalars that YAML 1.2 or
 *   YAML 1.1 readers (Psych, PyYAML) take for null, booleans, numbers, dates or Ruby symbols (`yes`, `1:30`, `:year`).
 * - Rails style: a file whose only top-level key is a known language code (`en`, `pt-BR`, `zh_CN`) holding a map is
 *   rooted at that locale. The root is not part of the keys, and rendering renames it to the target locale.
 * - Comments on the lines directly above an item, and a comment after a value on its line, are its notes.
 * - A changed value keeps its scalar style where it can: plain stays plain unless that would read back differently
 *   (then single quotes, or double quotes when it holds an apostrophe or needs escapes); single-quoted stays
 *   single-quoted unless it needs escapes; double-quoted values are written on one line with YAML escapes; block
 *   scalars keep `|` or `>` and their indentation, adapting the chomping indicator. Anything else becomes double-quoted.
 * - Omission removes a map item's lines (with its notes); a map left empty is removed from its parent, and an empty
 *   root becomes `{}`. A partly kept sequence keeps its omitted items' source text, since removal would renumber it.
 */

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** What the codec reads of a scalar, whether the library parsed it or the fast scan found it: its style and range. */
interface ScalarSpan {
  type?: Scalar.Type | undefined;
  range: Range;
}

/** A translatable scalar found in the document. */
interface YamlString {
  kind: 'string';
  key: string;
  /** The path of the map or sequence holding the scalar, and the scalar's own segment: its path, built only when read. */
  parentPath: readonly string[];
  segment: string;
  scalar: ScalarSpan;
  value: string;
  /** Inside a flow collection, where `,[]{}` end a plain scalar. */
  flow: boolean;
  notes?: string;
  line: number;
  column: number;
}

type Tree = YamlString | { kind: 'fixed' } | CollectionTree;

const FIXED: Tree = { kind: 'fixed' };

interface CollectionTree {
  kind: 'collection';
  node: { range: Range; anchor?: string | undefined };
  seq: boolean;
  flow: boolean;
  items: Item[];
}

interface Item {
  tree: Tree;
  /** Index of the item's first token: its key, `?` or `-` indicator, or properties. */
  lead: number;
  /** Start of the comment lines directly above the item (its notes), or of its line. */
  noteStart: number;
  /** Index just past the item's value. */
  end: number;
}

interface Model {
  text: string;
  encoding: Encoding;
  bom: boolean;
  eol: string;
  root?: CollectionTree;
  /** Rails-style root: the locale key and whether the file spells locales with '_'. */
  rails?: { key: ScalarSpan & { value: unknown }; underscore: boolean };
  strings: YamlString[];
}

const MAX_DEPTH = 512;

function fail(lines: LineIndex, message: string, index: number): never {
  const { line, column } = lines.at(index);
  throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
}

// YAML allows UTF-16 with a byte order mark (PyYAML and Psych read it), so it is kept rather than refused.
function decode(bytes: Uint8Array): { text: string; encoding: Encoding; bom: boolean } {
  const encoding: Encoding | undefined =
    bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  if (!encoding) return { ...decodeUtf8(bytes), encoding: 'utf-8' };
  if (bytes.length % 2 !== 0) throw new FileUnparsableError('The UTF-16 file has an odd number of bytes at line 1, column 1', 1, 1);
  return { text: new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes.subarray(2)), encoding, bom: true };
}

function encode(text: string, encoding: Encoding, bom: boolean): Uint8Array {
  if (encoding === 'utf-8') return encodeUtf8(text, bom);
  const out = new Uint8Array(2 + text.length * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, encoding === 'utf-16le');
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), encoding === 'utf-16le');
  return out;
}

// Plain scalars that some common YAML reader resolves to something other than a string: YAML 1.2 core and YAML 1.1
// (Ruby's Psych, PyYAML) nulls, booleans (Psych ignores case), integers (incl. base 60), floats, timestamps, the
// merge/value keys, and the `:symbol`s Rails reads as Ruby symbols (date orders and the like, not text to translate).
const NON_STRING_PLAIN = new RegExp(
  '^(?:' +
    [
      '~|null|Null|NULL',
      '[yY][eE][sS]|[nN][oO]|[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|[oO][nN]|[oO][fF][fF]',
      '[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+]?[0-9]+)?)',
      '[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)',
      '\\d{4}-\\d\\d?-\\d\\d?(?:(?:[Tt]|[ \\t]+)\\d\\d?:\\d\\d:\\d\\d(?:\\.\\d*)?(?:[ \\t]*(?:Z|[-+]\\d\\d?(?::\\d\\d)?))?)?',
      '<<|=',
      ':[A-Za-z_][A-Za-z0-9_]*[?!]?',
    ].join('|') +
    ')$',
);

// Characters YAML cannot hold unescaped (outside c-printable), plus line separators that YAML 1.1 readers treat as line
// breaks, the BOM, and lone surrogates: only double quotes can carry them.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const SURROGATE = /[\ud800-\udfff]/;

/** NEEDS_ESCAPE.test(value), read faster: lone surrogates are looked for only where there is a surrogate at all. */
function needsEscape(value: string): boolean {
  return NEEDS_ESCAPE_CHAR.test(value) || (SURROGATE.test(value) && NEEDS_ESCAPE.test(value));
}

/** Whether a value can be written as a one-line plain scalar that every reader takes back as this very string. */
function canBePlain(value: string, flow: boolean): boolean {
  if (value === '' || needsEscape(value) || /[\n\r\t]/.test(value)) return false;
  if (/^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) || /\s$/.test(value)) return false;
  if (/: |:$| #/.test(value)) return false;
  // PyYAML also refuses '?' inside a plain scalar in flow context, though YAML 1.2 allows it.
  if (flow && /[,[\]{}:?]/.test(value)) return false;
  // YAML 1.1's y/n booleans: Psych and PyYAML read them as text, but other 1.1 readers (go-yaml v2) do not.
  return !NON_STRING_PLAIN.test(value) && !/^[yYnN]$/.test(value);
}

function canBeSingleQuoted(value: string): boolean {
  return !needsEscape(value) && !/[\n\r]/.test(value);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\0': '\\0',
  '\x07': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\x1b': '\\e',
  '"': '\\"',
  '\\': '\\\\',
};

/** A one-line double-quoted scalar; YAML can express any string this way. */
function doubleQuoted(value: string): string {
  let out = '"';
  for (const ch of value) {
    const short = SHORT_ESCAPES[ch];
    if (short) out += short;
    else if (NEEDS_ESCAPE.test(ch)) {
      const code = ch.charCodeAt(0);
      out += code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

function singleQuoted(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Plain where that reads back the same, else quoted: single quotes unless an apostrophe or an escape calls for double. */
function plainOrQuoted(value: string, flow: boolean): string {
  if (canBePlain(value, flow)) return value;
  return canBeSingleQuoted(value) && !value.includes("'") ? singleQuoted(value) : doubleQuoted(value);
}

/** The first significant token of a CST collection item: its properties, indicator or key. */
function itemLead(item: CST.CollectionItem | undefined): number | undefined {
  if (!item) return undefined;
  const skip = new Set(['space', 'newline', 'comment', 'comma']);
  const first = item.start.find((t) => !skip.has(t.type));
  if (first) return first.offset;
  if (item.key) return item.key.offset;
  const sep = item.sep?.find((t) => !skip.has(t.type));
  return sep?.offset ?? item.value?.offset;
}

/**
 * Start of the run of comment-only lines directly above the line holding `index`, and their text (the notes).
 * The run stops at a blank line, a `---` marker or any content, so file headers separated by a blank line stay apart,
 * and at `floor`, the end of the previous item: a block scalar's `#` lines are its text, not comments.
 */
function commentsAbove(text: string, index: number, floor: number): { start: number; notes: string[] } {
  let start = lineStart(text, index);
  const notes: string[] = [];
  while (start > floor) {
    const prevStart = lineStart(text, start - 1);
    if (prevStart < floor || !startsWithHash(text, prevStart)) break;
    const line = text.slice(prevStart, start).replace(/\r?\n$|\r$/, '');
    const match = /^[ \t]*#(.*)$/.exec(line);
    if (!match) break;
    notes.unshift(commentText(match[1]!));
    start = prevStart;
  }
  return { start, notes };
}

/** Whether the line at `index` is `#` after spaces and tabs: a cheap test before reading it as a comment. */
function startsWithHash(text: string, index: number): boolean {
  let i = index;
  let c = text.charCodeAt(i);
  while (c === 0x20 || c === 0x09) c = text.charCodeAt(++i);
  return c === 0x23;
}

function commentText(afterHash: string): string {
  return afterHash.replace(/^ /, '').trimEnd();
}

function notesOf(text: string, above: readonly string[], scalar: ScalarSpan): string | undefined {
  const block = scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED';
  if (above.length === 0 && (block || !startsWithHash(text, scalar.range[1]))) return undefined;
  const notes = [...above];
  if (!block) {
    const rest = text.slice(scalar.range[1], afterLineEnd(text, scalar.range[1]));
    const trailing = /^[ \t]*#(.*?)\r?\n?$/.exec(rest);
    if (trailing) notes.push(trailing[1]!.trim());
  }
  const joined = trimOf(notes.join('\n'), '\n');
  return joined === '' ? undefined : joined;
}

// Rails roots are language codes; a known-language check keeps ordinary single keys (`app:`, `errors:`) as keys.
const LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

function isLocaleKey(key: string): boolean {
  if (!/^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})*$/.test(key)) return false;
  try {
    return LANGUAGES.of(key.replaceAll('_', '-')) !== undefined;
  } catch {
    return false;
  }
}

/** The path segment a map key gives, or undefined for keys that cannot be one (null, aliases, collections, merges). */
function keySegment(key: unknown): string | undefined {
  if (!isScalar(key) || key.value === null || key.value === undefined) return undefined;
  if (typeof key.value === 'string') return key.type === 'PLAIN' && key.value === '<<' ? undefined : key.value;
  // Non-string plain keys (`404:`, `true:`) keep their spelling, as a translation key would.
  return (key as Scalar.Parsed).source ?? String(key.value);
}

// The lexer's tokens that stand for no source text: document start, flow end, scalar.
const CONTROL_TOKENS = new Set(['\u0002', '\u0018', '\u001f']);

/**
 * Refuses flow collections (`{`, `[`) nested deeper than MAX_DEPTH before the parser builds them: half a million
 * nested `{` took the parser 1.7 s to build and then refuse. Only a text with enough brackets is lexed for this, and the
 * lexer stops at the first collection too deep.
 */
function guardFlowDepth(text: string, lines: LineIndex): void {
  let brackets = 0;
  for (let i = 0; i < text.length && brackets <= MAX_DEPTH; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) brackets++;
  }
  if (brackets <= MAX_DEPTH) return;
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '{' || token === '[') {
      if (++depth > MAX_DEPTH) fail(lines, `Expected at most ${MAX_DEPTH} levels of nesting`, offset);
    } else if (token === '}' || token === ']') depth--;
    if (!CONTROL_TOKENS.has(token)) offset += token.length;
  }
}

function pathOf(s: YamlString): string[] {
  const path = s.parentPath.slice();
  path.push(s.segment);
  return path;
}

/** A file's text and what is known of it before its structure is read. */
function emptyModel(bytes: Uint8Array): Model {
  const { text, encoding, bom } = decode(bytes);
  const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
  return { text, encoding, bom, eol, strings: [] };
}

/** Reads a file: the fast scan when the file is in the common subset it knows, else the `yaml` library. */
function analyse(bytes: Uint8Array): Model {
  const model = emptyModel(bytes);
  const scanned = scanYaml(model.text);
  return (scanned && modelFromScan(model, scanned)) ?? modelFromLibrary(emptyModel(bytes));
}

function analyseWithLibrary(bytes: Uint8Array): Model {
  return modelFromLibrary(emptyModel(bytes));
}

/**
 * The model of a file the fast scan read, built as the library's is; undefined when two paths give one key, an error
 * left to the library path to report in its words.
 */
function modelFromScan(model: Model, { root, dottedKeys }: ScannedFile): Model | undefined {
  const { text } = model;
  const columns = new ColumnCounter(text);
  const only = root.items.length === 1 ? root.items[0] : undefined;
  const railsPair = only && only.value.kind === 'map' && isLocaleKey(only.key) ? only : undefined;
  if (railsPair) {
    const { key, keyType, keyStart, keyEnd } = railsPair;
    model.rails = { key: { type: keyType, range: [keyStart, keyEnd, keyEnd], value: key }, underscore: key.includes('_') };
  }
  const keys = new Set<string>();
  const noNotes: readonly string[] = [];
  // `prefix` is `path` joined with '.', built along with it.
  const map = (node: ScannedMap, path: string[], prefix: string, floor: number): CollectionTree | undefined => {
    let itemFloor = floor;
    const items: Item[] = [];
    for (const pair of node.items) {
      const { value } = pair;
      const lead = pair.keyStart;
      const end = value.range[1];
      // A line with no comment above holds no notes: commentsAbove would stop at once.
      const { start: noteStart, notes } = pair.afterComment ? commentsAbove(text, lead, itemFloor) : { start: pair.lineStart, notes: noNotes };
      itemFloor = end;
      const segment = pair.key;
      const key = pair === railsPair ? prefix : path.length === 0 ? segment : `${prefix}.${segment}`;
      let tree: Tree;
      if (value.kind === 'map') {
        const childPath = pair === railsPair ? path : [...path, segment];
        const child = map(value, childPath, key, lead);
        if (!child) return undefined;
        tree = child;
      } else if (value.value === null || (value.type === 'PLAIN' && NON_STRING_PLAIN.test(value.value))) tree = FIXED;
      else {
        // Keys without dots join distinct paths to distinct keys: only dotted ones can collide.
        if (dottedKeys) {
          if (keys.has(key)) return undefined;
          keys.add(key);
        }
        const column = columns.at(value.lineStart, value.range[0]);
        const found: YamlString = { kind: 'string', key, parentPath: path, segment, scalar: value, value: value.value, flow: false, line: value.line, column };
        const notesText = notesOf(text, notes, value);
        if (notesText !== undefined) found.notes = notesText;
        model.strings.push(found);
        tree = found;
      }
      items.push({ tree, lead, noteStart, end });
    }
    return { kind: 'collection', node, seq: false, flow: false, items };
  };
  const tree = map(root, [], '', 0);
  if (!tree) return undefined;
  model.root = tree;
  return model;
}

function modelFromLibrary(model: Model): Model {
  const { text } = model;
  const lines = new LineIndex(text);
  guardFlowDepth(text, lines);
  let doc: Document.Parsed;
  // The parser makes an Error object for every problem it meets, and capturing each one's stack trace made a line of
  // 400,000 stray quotes take seconds; only the first problem's position is reported, so no stack is captured.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    doc = parseDocument(text, { keepSourceTokens: true, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    if (error instanceof RangeError) fail(lines, `Expected at most ${MAX_DEPTH} levels of nesting`, 0);
    throw error;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const error = doc.errors[0];
  if (error) {
    const message =
      error.code === 'MULTIPLE_DOCS'
        ? "Expected a single YAML document, found another '---'"
        : error.code === 'DUPLICATE_KEY'
          ? 'Duplicate key (map keys must be unique)'
          : error.message.replace(/\s+at line \d+, column \d+[^]*$/, '');
    fail(lines, message, error.pos[0]);
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null && !root.tag && !root.anchor)) return model;
  if (!isMap(root) && !isSeq(root)) fail(lines, 'Expected a map of keys to strings (or a sequence) at the top level', root.range[0]);

  const only = isMap(root) && root.items.length === 1 ? root.items[0] : undefined;
  const onlyKey = only && isScalar(only.key) && typeof only.key.value === 'string' ? (only.key as Scalar.Parsed) : undefined;
  const railsPair = onlyKey && isLocaleKey(onlyKey.value as string) && isMap(only!.value) && !only!.value.tag ? only : undefined;
  if (railsPair) model.rails = { key: onlyKey!, underscore: (onlyKey!.value as string).includes('_') };

  const byKey = new Map<string, YamlString>();
  const walk = (node: unknown, path: string[], flow: boolean, above: readonly string[], floor: number, depth: number): Tree => {
    if (node === null || node === undefined) return { kind: 'fixed' };
    if (isAlias(node)) {
      if (!node.resolve(doc)) fail(lines, `Expected an anchor named '${node.source}' before the alias *${node.source}`, node.range![0]);
      return { kind: 'fixed' };
    }
    if (isScalar(node)) {
      const scalar = node as Scalar.Parsed;
      if (scalar.anchor || scalar.tag || typeof scalar.value !== 'string') return { kind: 'fixed' };
      if (scalar.type === 'PLAIN' && NON_STRING_PLAIN.test(scalar.value)) return { kind: 'fixed' };
      const key = path.join('.');
      const { line, column } = lines.at(scalar.range[0]);
      const found: YamlString = {
        kind: 'string',
        key,
        parentPath: path.slice(0, -1),
        segment: path[path.length - 1]!,
        scalar,
        value: scalar.value,
        flow,
        line,
        column,
      };
      const notes = notesOf(text, above, scalar);
      if (notes !== undefined) found.notes = notes;
      const prior = byKey.get(key);
      if (prior) {
        fail(
          lines,
          `The paths ${JSON.stringify(pathOf(prior))} (line ${prior.line}) and ${JSON.stringify(path)} both give the key ${JSON.stringify(key)}; rename one of them`,
          scalar.range[0],
        );
      }
      byKey.set(key, found);
      model.strings.push(found);
      return found;
    }
    if (!isMap(node) && !isSeq(node)) return { kind: 'fixed' };
    const collection = node as YAMLMap.Parsed | YAMLSeq.Parsed;
    if (collection.tag) return { kind: 'fixed' };
    if (depth > MAX_DEPTH) fail(lines, `Expected at most ${MAX_DEPTH} levels of nesting`, collection.range[0]);
    const inFlow = flow || Boolean(collection.flow);
    const cst = collection.srcToken as CST.BlockMap | CST.BlockSequence | CST.FlowCollection | undefined;
    let itemFloor = floor;
    const items: Item[] = collection.items.map((item: unknown, index: number): Item => {
      const cstItem = cst?.items[index] as CST.CollectionItem | undefined;
      let lead: number;
      let end: number;
      let child: () => Tree;
      if (isPair(item)) {
        const value = item.value as { range?: [number, number, number] } | null;
        const key = item.key as { range?: [number, number, number] } | null;
        lead = itemLead(item.srcToken ?? cstItem) ?? key?.range?.[0] ?? value?.range?.[0] ?? collection.range[0];
        end = value?.range?.[1] ?? key?.range?.[1] ?? lead;
        const segment = keySegment(item.key);
        const childPath = item === railsPair ? path : [...path, segment!];
        child = () => (segment === undefined ? { kind: 'fixed' } : walk(item.value, childPath, inFlow, notes, lead, depth + 1));
      } else {
        const range = (item as { range?: [number, number, number] } | null)?.range;
        lead = itemLead(cstItem) ?? range?.[0] ?? collection.range[0];
        end = range?.[1] ?? lead;
        child = () => walk(item, [...path, String(index)], inFlow, notes, lead, depth + 1);
      }
      const { start: noteStart, notes } = commentsAbove(text, lead, itemFloor);
      itemFloor = end;
      return { tree: child(), lead, noteStart, end };
    });
    return { kind: 'collection', node: collection, seq: isSeq(collection), flow: Boolean(collection.flow), items };
  };
  const tree = walk(root, [], false, [], 0, 0);
  if (tree.kind === 'collection') model.root = tree;
  return model;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The block scalar header's style and the rest of its line (a comment); the body starts on the next line. */
function blockHeader(text: string, start: number): { style: string; rest: string; bodyStart: number } | undefined {
  const bodyStart = afterLineEnd(text, start + 1);
  const header = text.slice(start, bodyStart).replace(/\r?\n$|\r$/, '');
  const match = /^([|>])([1-9][-+]?|[-+][1-9]?|)(.*)$/.exec(header);
  if (!match) return undefined;
  return { style: match[1]!, rest: match[3]!, bodyStart };
}

/**
 * Rewrites a block scalar in its own style and indentation, or returns undefined when the value cannot be written so
 * (leading whitespace or breaks, characters that need escapes, or kept trailing breaks that would swallow blank lines).
 * The scalar's range ends after its last content line (and, for `+`, after its kept blank lines), so blank lines that
 * merely separate it from the next item stay outside the edit.
 */
function blockScalar(value: string, s: YamlString, model: Model): Edit | undefined {
  const { text } = model;
  const [start, end] = s.scalar.range;
  const header = blockHeader(text, start);
  if (!header || value === '' || NEEDS_ESCAPE.test(value) || /[\r\u0085]/.test(value) || /^[ \t\n]/.test(value)) return undefined;
  const indents = text
    .slice(header.bodyStart, end)
    .split(/\r?\n|\r/)
    .filter((l) => l.trim() !== '')
    .map((l) => /^ */.exec(l)![0].length);
  if (indents.length === 0) return undefined;
  // The smallest indentation is the content's own (an indentation indicator is no longer needed: line one is not indented).
  const indent = ' '.repeat(Math.min(...indents));
  const eol = /\r\n|\n|\r/.exec(text.slice(start, end))?.[0] ?? model.eol;

  const content = trimEndOf(value, '\n');
  const breaks = value.length - content.length;
  const chomp = breaks === 0 ? '-' : breaks === 1 ? '' : '+';
  // Folding turns a single break between lines into a space, so each run of n breaks is written as n blank lines.
  const lines = header.style === '>' ? content.replace(/\n+/g, (m) => `${m}\n`).split('\n') : content.split('\n');
  // Folding treats lines that start with whitespace differently; such values are not written folded.
  if (header.style === '>' && lines.some((l) => /^[ \t]/.test(l))) return undefined;
  if (chomp === '+' && /^[ \t]*(?:\r?\n|\r|$)/.test(text.slice(end))) return undefined;

  let out = `${header.style}${chomp}${header.rest}${eol}`;
  out += lines.map((l) => (l === '' ? '' : indent + l)).join(eol);
  const atEofWithoutBreak = end === text.length && !/[\r\n]$/.test(text);
  if (!(atEofWithoutBreak && chomp === '-')) out += eol;
  out += eol.repeat(Math.max(0, breaks - 1));
  return { start, end, text: out };
}

function scalarEdit(value: string, s: YamlString, model: Model): Edit {
  const [start, end] = s.scalar.range;
  switch (s.scalar.type) {
    case 'PLAIN':
      return { start, end, text: plainOrQuoted(value, s.flow) };
    case 'QUOTE_SINGLE':
      return { start, end, text: canBeSingleQuoted(value) ? singleQuoted(value) : doubleQuoted(value) };
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED': {
      const block = blockScalar(value, s, model);
      if (block) return block;
      // The block ends with a line break that keeps the next item on its own line; the quoted value keeps it too.
      const lastBreak = /(?:\r?\n|\r)$/.exec(model.text.slice(start, end))?.[0] ?? '';
      return { start, end, text: doubleQuoted(value) + lastBreak };
    }
    default:
      return { start, end, text: doubleQuoted(value) };
  }
}

/**
 * Adds a tree's edits to `edits`, or returns false when everything in it is omitted (the caller removes it; nothing was
 * added then). One list for the whole file: a list per scalar made rendering large files slow.
 */
function renderTree(tree: Tree, model: Model, input: RenderInput, edits: Edit[]): boolean {
  if (tree.kind === 'fixed') return true;
  if (tree.kind === 'string') {
    const s = tree;
    const translated = input.values.get(s.key);
    if (translated === undefined) return input.missing !== 'omit';
    const value = textValue(translated, 'yaml');
    if (value !== s.value) edits.push(scalarEdit(value, s, model));
    return true;
  }
  const { items } = tree;
  if (items.length === 0) return true;
  const kept = items.map((item) => renderTree(item.tree, model, input, edits));
  // An anchored collection stays (its aliases would dangle without it), holding its source text when all else goes.
  if (!kept.includes(true)) return Boolean(tree.node.anchor);
  if (tree.seq || !kept.includes(false)) return true;
  const { text } = model;
  if (tree.flow) {
    const lastKept = kept.lastIndexOf(true);
    items.forEach((item, i) => {
      if (kept[i]) return;
      if (i < lastKept) edits.push({ start: item.lead, end: items[i + 1]!.lead, text: '' });
    });
    const last = items[items.length - 1]!;
    if (lastKept < items.length - 1) edits.push({ start: items[lastKept]!.end, end: last.end, text: '' });
    return true;
  }
  items.forEach((item, i) => {
    if (kept[i]) return;
    const ownLine = text.slice(lineStart(text, item.lead), item.lead).trim() === '';
    // The first item of a compact map shares its line with a `- ` indicator: removing it would take the indicator along.
    if (!ownLine) return;
    edits.push(lineDeletion(text, item.noteStart, item.end));
  });
  return true;
}

/** Deletes whole lines from `start` through the line holding end-1. */
function lineDeletion(text: string, start: number, end: number): Edit {
  return { start, end: afterLineEnd(text, end), text: '' };
}

function applyEdits(text: string, edits: Edit[]): string {
  // Edits mostly come in order already; a stable sort would leave them as they are.
  const sorted = edits.every((e, i) => i === 0 || edits[i - 1]!.start <= e.start) ? edits : [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error('yaml codec: overlapping edits');
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += text.slice(at);
  // Deleting the last lines leaves the break before them last: a file that had no final newline keeps having none.
  const deletedEnd = edits.some((e) => e.end === text.length && e.text === '');
  return deletedEnd && text !== '' && !/[\r\n]$/.test(text) ? out.replace(/(?:\r\n|\n|\r)$/, '') : out;
}

/** Spells the target locale for the Rails root in the source's separator and quoting style. */
function rootKeyText(locale: string, model: Model): string {
  const rails = model.rails!;
  const name = rails.underscore ? locale.replaceAll('-', '_') : locale;
  if (rails.key.type === 'QUOTE_SINGLE' && canBeSingleQuoted(name)) return singleQuoted(name);
  if (rails.key.type === 'QUOTE_DOUBLE') return doubleQuoted(name);
  return plainOrQuoted(name, false);
}

function render(input: RenderInput, read: (bytes: Uint8Array) => Model): Uint8Array {
  const model = read(input.source);
  const { text, root } = model;
  if (!root) return input.source.slice();
  const rename = model.rails && input.locale !== undefined && input.locale !== model.rails.key.value;
  const edits: Edit[] = [];
  if (!renderTree(root, model, input, edits)) {
    // Everything was omitted: the root becomes an empty collection (under the locale key for Rails files).
    const last = root.items[root.items.length - 1]!;
    const end = root.flow ? root.node.range[1] : afterLineEnd(text, last.end);
    // The first item's notes go with it, as with any removed item; a Rails root's own comments stay.
    const start = root.flow || model.rails ? root.node.range[0] : root.items[0]!.noteStart;
    const lineBreak = /(?:\r?\n|\r)$/.exec(text.slice(root.node.range[0], end))?.[0] ?? '';
    const empty = root.seq ? '[]' : '{}';
    const rails = model.rails;
    const key = rails && (rename ? rootKeyText(input.locale!, model) : text.slice(rails.key.range[0], rails.key.range[1]));
    edits.push({ start, end, text: (key ? `${key}: ${empty}` : empty) + (root.flow ? '' : lineBreak) });
  } else if (rename) {
    const [start, end] = model.rails!.key.range;
    edits.push({ start, end, text: rootKeyText(input.locale!, model) });
  }
  if (edits.length === 0) return input.source.slice();
  return encode(applyEdits(text, edits), model.encoding, model.bom);
}

type Level = KeyLevel;

/** A map key: plain where safe, else double-quoted; overlong keys use the explicit `? ` form implicit keys cannot exceed. */
function writeKey(key: string): { text: string; explicit: boolean } {
  const text = plainOrQuoted(key, false);
  return { text, explicit: text.length > 1000 };
}

function writeLevel(level: Level, notes: ReadonlyMap<string, string>, prefix: string[], indent: string): string {
  let out = '';
  for (const [name, member] of level) {
    const path = [...prefix, name];
    const note = typeof member === 'string' ? notes.get(path.join('.')) : undefined;
    if (note !== undefined) for (const line of note.split(/\r?\n|\r/)) out += `${indent}#${line === '' ? '' : ` ${line}`}\n`;
    const key = writeKey(name);
    const head = key.explicit ? `${indent}? ${key.text}\n${indent}:` : `${indent}${key.text}:`;
    if (typeof member === 'string') out += `${head} ${plainOrQuoted(member, false)}\n`;
    else out += `${head}\n${writeLevel(member, notes, path, `${indent}  `)}`;
  }
  return out;
}

function renderFresh(entries: readonly FreshEntry[], options?: { locale?: string }): Uint8Array {
  // A repeated key keeps its first position and its last value, as Map.set does.
  const values = new Map<string, string>();
  const notes = new Map<string, string>();
  for (const entry of entries) {
    values.set(entry.key, textValue(entry.value, 'yaml'));
    if (entry.notes) notes.set(entry.key, entry.notes);
    else notes.delete(entry.key);
  }
  const root: Level = new Map();
  for (const [key, value] of values) insertKey(root, key.split('.'), value);
  if (root.size === 0) return encodeUtf8('{}\n', false);
  // A lone top-level map named like a locale would read back as a Rails root; an explicit root keeps its keys intact.
  const [only] = root.size === 1 ? [...root] : [];
  if (only && only[1] instanceof Map && isLocaleKey(only[0])) {
    const locale = options?.locale ?? 'en';
    const wrapped = writeLevel(root, notes, [], '  ');
    return encodeUtf8(`${writeKey(locale).text}:\n${wrapped}`, false);
  }
  return encodeUtf8(writeLevel(root, notes, [], ''), false);
}

function detect(fileName: string, head: string): number {
  if (/\.ya?ml$/i.test(fileName)) return 0.9;
  const body = head.replace(/^\uFEFF/, '');
  if (/^(?:%YAML|---)/.test(body)) return 0.3;
  return 0;
}

function codecReadingWith(read: (bytes: Uint8Array) => Model): Codec {
  return {
    id: 'yaml',
    extensions: ['.yml', '.yaml'],
    plurals: false,
    detect,

    parse(bytes: Uint8Array): Entry[] {
      return read(bytes).strings.map((s) => {
        const entry: Entry = { key: s.key, path: pathOf(s), source: s.value, line: s.line, column: s.column };
        if (s.notes !== undefined) entry.notes = s.notes;
        return entry;
      });
    },

    render: (input) => render(input, read),
    renderFresh,
  };
}

export const yamlCodec: Codec = codecReadingWith(analyse);

/** The codec reading every file with the `yaml` library, which the fast scan must agree with (for tests). */
export const yamlLibraryCodec: Codec = codecReadingWith(analyseWithLibrary);
