// The `laravel_json` codec: Laravel's flat `lang/<locale>.json`, read and written by the json codec under its own name.
import type { Codec, Entry, FreshEntry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { jsonCodec } from './json.js';
import { checkKeys, checkTokenKeys, renderTokens, scanKeyedEntries, scanKeyedTokens, type KeyedFile } from './json-scan.js';
import { textValue } from './values.js';

/*
 * Laravel looks JSON translations up by the whole source string (`__('Log in')`), so keys are usually sentences and
 * dots in them are not paths. Laravel's own plural syntax (`{0} none|{1} one|[2,*] many`, read by trans_choice) and
 * `:placeholder`s are plain text to this codec: they are translated as written, not split into plural forms.
 */

/** Refuses nested strings with Laravel's wording, before the json codec's checks would point at json_nested. */
function checkFlat(scan: KeyedFile): void {
  const nested = scan.nested;
  if (!nested) return;
  const { name, kind, line, column } = nested;
  throw new FileUnparsableError(
    `The key ${JSON.stringify(name)} holds ${kind === 'object' ? 'a nested object' : 'an array'} with strings at line ${line}, column ${column}; ` +
      "Laravel's JSON translation files map each string to its translation, with string values only",
    line,
    column,
  );
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
    const scan = scanKeyedEntries(bytes);
    checkFlat(scan);
    checkKeys(scan);
    return scan.entries;
  },

  render(input: RenderInput): Uint8Array {
    const scan = scanKeyedTokens(input.source);
    checkFlat(scan);
    for (const value of input.values.values()) textValue(value, 'laravel_json');
    checkTokenKeys(scan, input.source);
    return renderTokens(scan, input);
  },

  renderFresh(entries: readonly FreshEntry[]): Uint8Array {
    return jsonCodec.renderFresh(entries.map((entry) => ({ ...entry, value: textValue(entry.value, 'laravel_json') })));
  },
};
