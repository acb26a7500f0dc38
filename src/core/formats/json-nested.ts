// The `json_nested` codec: string leaves of nested objects and arrays keyed by their dotted path, written back byte for byte.
import { detectJson, textValue } from './values.js';
import { FileUnparsableError, type Codec, type Entry, type FreshEntry, type RenderInput } from './codec.js';
import { collectStrings, encodeUtf8, renderDocument, scanJson, writeObject, type FreshObject, type JsonDocument, type JsonStringValue } from './json-scan.js';

const keyOf = (value: JsonStringValue): string => value.path.join('.');

/** Scans a nested file and lists its strings, refusing two paths that flatten to one key (one would shadow the other). */
function scanNested(bytes: Uint8Array): { doc: JsonDocument; strings: JsonStringValue[] } {
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

type Level = Map<string, string | Level>;

// Past this many segments the rest of a key stays dotted, so fresh files stay well within the scanner's nesting limit.
const MAX_FRESH_DEPTH = 64;

/**
 * Places one key in the tree. Where a key is both a leaf and a prefix of another, the longer keys stay dotted at the
 * level of the conflict: parsing joins segments with '.', so they read back under the same keys and nothing is lost.
 */
function insert(level: Level, segments: readonly string[], value: string, depth: number): void {
  const [head = '', ...rest] = segments;
  const existing = level.get(head);
  if (rest.length === 0 || depth >= MAX_FRESH_DEPTH) {
    const key = segments.join('.');
    if (existing instanceof Map && rest.length === 0) {
      // The object already here moves out as dotted leaves, in place; the leaf takes its name.
      const members = [...level];
      level.clear();
      for (const [name, member] of members) {
        if (name !== head) level.set(name, member);
        else for (const [path, leaf] of flatten(existing)) level.set(`${head}.${path}`, leaf);
      }
    }
    level.set(key, value);
  } else if (typeof existing === 'string') {
    level.set(segments.join('.'), value);
  } else {
    const child: Level = existing ?? new Map();
    level.set(head, child);
    insert(child, rest, value, depth + 1);
  }
}

function flatten(level: Level): [string, string][] {
  return [...level].flatMap(([name, member]): [string, string][] =>
    typeof member === 'string' ? [[name, member]] : flatten(member).map(([path, leaf]) => [`${name}.${path}`, leaf]),
  );
}

function toFresh(level: Level): FreshObject {
  return [...level].map(([name, member]) => [name, typeof member === 'string' ? member : toFresh(member)] as const);
}

export const jsonNestedCodec: Codec = {
  id: 'json_nested',
  extensions: ['.json'],
  plurals: false,
  detect: (fileName, head) => detectJson(fileName, head, true),

  parse(bytes: Uint8Array): Entry[] {
    return scanNested(bytes).strings.map((value) => ({
      key: keyOf(value),
      path: value.path,
      source: value.node.value,
      line: value.node.line,
      column: value.node.column,
    }));
  },

  render(input: RenderInput): Uint8Array {
    return renderDocument(scanNested(input.source).doc, input, keyOf);
  },

  renderFresh(entries: readonly FreshEntry[]): Uint8Array {
    // A repeated key keeps its first position and its last value, as Map.set does.
    const values = new Map<string, string>();
    for (const entry of entries) values.set(entry.key, textValue(entry.value, 'json_nested'));
    const root: Level = new Map();
    for (const [key, value] of values) insert(root, key.split('.'), value, 0);
    return encodeUtf8(`${writeObject(toFresh(root))}\n`, false);
  },
};
