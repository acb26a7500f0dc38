// The `json` codec: any JSON object of strings, nested objects and arrays included, keyed by dotted path and written back
// byte for byte around the changed values. It reads and renders exactly as json_nested does; fresh files are written flat.
import { detectJson, textValue } from './values.js';
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { encodeUtf8, parseKeyed, renderKeyed, writeObject } from './json-scan.js';

export const jsonCodec: Codec = {
  id: 'json',
  extensions: ['.json'],
  plurals: false,
  detect: (fileName, head) => detectJson(fileName, head, false),

  parse(bytes: Uint8Array): Entry[] {
    return parseKeyed(bytes);
  },

  render(input: RenderInput): Uint8Array {
    return renderKeyed(input);
  },

  renderFresh(entries: readonly FreshEntry[]): Uint8Array {
    // One top-level member per key, dotted keys as they are: parsing reads them back under the same keys.
    // A repeated key keeps its first position and its last value, as Map.set does.
    const members = new Map<string, string>();
    for (const entry of entries) members.set(entry.key, textValue(entry.value, 'json'));
    return encodeUtf8(`${writeObject([...members])}\n`, false);
  },
};
