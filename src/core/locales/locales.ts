// Validates and canonicalises BCP-47 locale tags against the CLDR-derived table in known-locales.json.
import known from './known-locales.json' with { type: 'json' };

export type LocaleCheck = { ok: true; tag: string; known: boolean } | { ok: false; message: string };

export class InvalidLocaleError extends Error {
  override readonly name = 'InvalidLocaleError';

  constructor(
    readonly input: string,
    message: string,
  ) {
    super(message);
  }
}

const KNOWN_TAGS: ReadonlySet<string> = new Set(known);
const KNOWN_LANGUAGES: ReadonlySet<string> = new Set(known.map(languageOf));

export const KNOWN_LOCALE_COUNT: number = KNOWN_TAGS.size;

const EXPECTED = "Expected a BCP-47 tag such as 'en-US'";
// Inputs come from API callers; echoing an arbitrarily long value back would bloat logs and responses.
const MAX_QUOTED_LENGTH = 64;

export function checkLocale(input: string): LocaleCheck {
  const value = input.trim();
  if (value === '') return invalid(value, `${EXPECTED}.`);

  // POSIX/Java-style tags are a common slip; reject them so stored tags stay canonical, but point at the fix.
  if (value.includes('_')) {
    const suggestion = checkLocale(value.replaceAll('_', '-'));
    const hint = suggestion.ok ? ` (did you mean '${suggestion.tag}'?)` : '';
    return invalid(value, `${EXPECTED}${hint}.`);
  }

  let tag: string | undefined;
  try {
    [tag] = Intl.getCanonicalLocales(value);
  } catch {
    // Intl throws RangeError for anything that is not a well-formed tag; that is our "invalid syntax".
  }
  if (tag === undefined) return invalid(value, `${EXPECTED}.`);

  if (KNOWN_TAGS.has(tag)) return { ok: true, tag, known: true };

  // Well-formed tags outside the table (extra variants, extensions, unusual regions) are fine as long as
  // the language itself is real: that rejects typos like 'english' or 'zz' that Intl considers well-formed.
  const language = languageOf(tag);
  if (KNOWN_LANGUAGES.has(language) || isPrivateUseLanguage(language)) return { ok: true, tag, known: false };
  return invalid(value, `Unknown language subtag '${language}'. ${EXPECTED}.`);
}

export function parseLocale(input: string): string {
  const result = checkLocale(input);
  if (!result.ok) throw new InvalidLocaleError(input, result.message);
  return result.tag;
}

let displayNames: Intl.DisplayNames | undefined;

/** English name of a locale ("Chinese (Traditional, Taiwan)"), or undefined when ICU has none or the tag is malformed. */
export function localeDisplayName(tag: string): string | undefined {
  // Created lazily so importing the module stays free of work beyond loading the table.
  displayNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  try {
    return displayNames.of(tag);
  } catch {
    return undefined;
  }
}

function languageOf(tag: string): string {
  return tag.split('-', 1)[0] ?? tag;
}

// BCP-47 reserves qaa–qtz for private agreements between parties, so no table could list them.
function isPrivateUseLanguage(language: string): boolean {
  return /^q[a-t][a-z]$/.test(language);
}

function invalid(value: string, detail: string): { ok: false; message: string } {
  const quoted = value.length > MAX_QUOTED_LENGTH ? `${value.slice(0, MAX_QUOTED_LENGTH)}…` : value;
  return { ok: false, message: `Invalid locale '${quoted}'. ${detail}` };
}
