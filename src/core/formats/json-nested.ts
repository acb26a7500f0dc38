// The `json_nested` codec: string leaves of nested objects and arrays keyed by their dotted path, written back byte for byte.
// It reads and renders exactly as the `json` codec does; fresh files are written nested, splitting keys at '.'.
import { insertKey, type KeyLevel } from './key-tree.js';
import { detectJson, textValue } from './values.js';
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { encodeUtf8, parseKeyed, renderKeyed, writeObject, type FreshObject } from './json-scan.js';

type Level = KeyLevel;

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
    for (const [key, value] of values) insertKey(root, key.split('.'), value);
    return encodeUtf8(`${writeObject(toFresh(root))}\n`, false);
  },
};
