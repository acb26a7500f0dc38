// The `laravel_json` codec: Laravel's flat `lang/<locale>.json`, read and written by the json codec under its own name.
import { FileUnparsableError, type Codec, type Entry, type FreshEntry, type RenderInput } from './codec.js';
import { jsonCodec } from './json.js';
import { scanJson, type JsonValueNode } from './json-scan.js';
import { textValue } from './values.js';

/*
 * Laravel looks JSON translations up by the whole source string (`__('Log in')`), so keys are usually sentences and
 * dots in them are not paths. Laravel's own plural syntax (`{0} none|{1} one|[2,*] many`, read by trans_choice) and
 * `:placeholder`s are plain text to this codec: they are translated as written, not split into plural forms.
 */

/** Refuses nested strings with Laravel's wording, before the json codec would point at json_nested. */
function checkFlat(bytes: Uint8Array): void {
  const doc = scanJson(bytes);
  for (const { key, value } of doc.root.members) {
    if ((value.kind === 'object' || value.kind === 'array') && holdsString(value)) {
      const { line, column } = value;
      throw new FileUnparsableError(
        `The key ${JSON.stringify(key.value)} holds ${value.kind === 'object' ? 'a nested object' : 'an array'} with strings at line ${line}, column ${column}; ` +
          "Laravel's JSON translation files map each string to its translation, with string values only",
        line,
        column,
      );
    }
  }
}

// Numbers, booleans, null and string-free containers carry nothing to translate; the json codec keeps them as they are.
function holdsString(node: JsonValueNode): boolean {
  if (node.kind === 'string') return true;
  if (node.kind === 'object') return node.members.some((m) => holdsString(m.value));
  if (node.kind === 'array') return node.elements.some(holdsString);
  return false;
}

// Laravel reads lang/<locale>.json (resources/lang/ before Laravel 9); a bare <locale>.json could be any JSON file.
const LARAVEL_PATH = /(?:^|[/\\])lang[/\\][^/\\]+\.json$/i;

export const laravelJsonCodec: Codec = {
  id: 'laravel_json',
  extensions: ['.json'],
  plurals: false,

  detect(fileName: string, head: string): number {
    if (!/\.json$/i.test(fileName)) return 0;
    const trimmed = head.replace(/^\uFEFF/, '').trimStart();
    if (trimmed !== '' && !trimmed.startsWith('{')) return 0;
    if (LARAVEL_PATH.test(fileName)) return 0.8;
    // Sentences and :placeholders as keys hint at Laravel, but flat JSON is the likelier reading.
    return /^\{\s*"[^"]*(?:\s|:[a-z])[^"]*"\s*:/i.test(trimmed) ? 0.2 : 0.1;
  },

  parse(bytes: Uint8Array): Entry[] {
    checkFlat(bytes);
    return jsonCodec.parse(bytes);
  },

  render(input: RenderInput): Uint8Array {
    checkFlat(input.source);
    const values = new Map([...input.values].map(([key, value]) => [key, textValue(value, 'laravel_json')]));
    return jsonCodec.render({ ...input, values });
  },

  renderFresh(entries: readonly FreshEntry[]): Uint8Array {
    return jsonCodec.renderFresh(entries.map((entry) => ({ ...entry, value: textValue(entry.value, 'laravel_json') })));
  },
};
