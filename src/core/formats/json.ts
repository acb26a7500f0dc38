// The `json` codec: any JSON object of strings, nested objects and arrays included, keyed by dotted path and written back
// byte for byte around the changed values. It reads and renders exactly as json_nested does; fresh files are written flat.
// i18next plural families (`items_one`, `items_other`) are one plural entry each (i18next-plurals.ts).
import { detectJson } from './values.js';
import type { Codec, Entry, FreshEntry, FreshOptions, ParseOptions, RenderInput } from './codec.js';
import { foldPluralFamilies, freshPluralMembers, hasPluralValue, renderPluralFamilies } from './i18next-plurals.js';
import { encodeUtf8, parseKeyed, renderKeyed, writeObject } from './json-scan.js';

export const jsonCodec: Codec = {
  id: 'json',
  extensions: ['.json'],
  plurals: true,
  detect: (fileName, head) => detectJson(fileName, head, false),

  parse(bytes: Uint8Array, options?: ParseOptions): Entry[] {
    return foldPluralFamilies(parseKeyed(bytes), options?.plurals);
  },

  render(input: RenderInput): Uint8Array {
    return hasPluralValue(input.values) ? renderPluralFamilies(input) : renderKeyed(input);
  },

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    // One top-level member per key, dotted keys as they are: parsing reads them back under the same keys. A plural is
    // written as i18next's `key_<category>` members. A repeated key keeps its first position and its last value, as Map.set does.
    const members = new Map<string, string>();
    for (const entry of entries) {
      if (typeof entry.value === 'string') members.set(entry.key, entry.value);
      else for (const [key, form] of freshPluralMembers(entry.key, entry.value.plurals, options?.locale ?? 'en')) members.set(key, form);
    }
    return encodeUtf8(`${writeObject([...members])}\n`, false);
  },
};
