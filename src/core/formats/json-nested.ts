// The `json_nested` codec: string leaves of nested objects and arrays keyed by their dotted path, written back byte for byte.
// It reads and renders exactly as the `json` codec does; fresh files are written nested, splitting keys at '.'.
import { detectJson, textValue } from './values.js';
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { encodeUtf8, parseKeyed, renderKeyed, writeObject, type FreshObject } from './json-scan.js';

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
    return parseKeyed(bytes);
  },

  render(input: RenderInput): Uint8Array {
    return renderKeyed(input);
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
