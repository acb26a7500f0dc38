// The `json_nested` codec: string leaves of nested objects and arrays keyed by their dotted path, written back byte for byte.
// It reads and renders exactly as the `json` codec does; fresh files are written nested, splitting keys at '.'.
import { insertKey, type KeyLevel } from './key-tree.js';
import { detectJson } from './values.js';
import type { Codec, Entry, FreshEntry, FreshOptions, ParseOptions, RenderInput } from './codec.js';
import { foldPluralFamilies, freshPluralMembers, hasPluralValue, renderPluralFamilies } from './i18next-plurals.js';
import { encodeUtf8, parseKeyed, renderKeyed, writeObject, type FreshObject } from './json-scan.js';

type Level = KeyLevel;

function toFresh(level: Level): FreshObject {
  return [...level].map(([name, member]) => [name, typeof member === 'string' ? member : toFresh(member)] as const);
}

export const jsonNestedCodec: Codec = {
  id: 'json_nested',
  extensions: ['.json'],
  plurals: true,
  detect: (fileName, head) => detectJson(fileName, head, true),

  parse(bytes: Uint8Array, options?: ParseOptions): Entry[] {
    return foldPluralFamilies(parseKeyed(bytes), options?.plurals);
  },

  render(input: RenderInput): Uint8Array {
    return hasPluralValue(input.values) ? renderPluralFamilies(input) : renderKeyed(input);
  },

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    // A repeated key keeps its first position and its last value, as Map.set does. A plural is written as i18next's
    // `key_<category>` members, beside each other in the key's object.
    const values = new Map<string, string>();
    for (const entry of entries) {
      if (typeof entry.value === 'string') values.set(entry.key, entry.value);
      else for (const [key, form] of freshPluralMembers(entry.key, entry.value.plurals, options?.locale ?? 'en')) values.set(key, form);
    }
    const root: Level = new Map();
    for (const [key, value] of values) insertKey(root, key.split('.'), value);
    return encodeUtf8(`${writeObject(toFresh(root))}\n`, false);
  },
};
