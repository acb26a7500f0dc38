/** The whitespace at the two ends of a string (line breaks, spaces, tabs), which a machine translation keeps from its source. */

/**
 * A string cut into its leading whitespace run, its core and its trailing whitespace run. Only ASCII whitespace
 * counts: a no-break space is typography (French `Nom :`), not layout, so it belongs to the core.
 */
export interface EdgeWhitespace {
  leading: string;
  core: string;
  trailing: string;
}

const WHITESPACE = /[\t\n\v\f\r ]/;

// Scanned by hand: a trailing-run regex (`\s*$`) retries at every space of a long string and goes quadratic.
export function splitEdgeWhitespace(text: string): EdgeWhitespace {
  let start = 0;
  while (start < text.length && WHITESPACE.test(text[start]!)) start++;
  let end = text.length;
  while (end > start && WHITESPACE.test(text[end - 1]!)) end--;
  return { leading: text.slice(0, start), core: text.slice(start, end), trailing: text.slice(end) };
}

/**
 * The translation with its own edge whitespace replaced by the source's: `"\nHello\n"` translated as `"Hallo"` (or
 * `" Hallo\n\n"`) becomes `"\nHallo\n"`. Engines and models drop or change it freely, and gettext's `msgfmt --check`
 * rejects a whole catalog over one msgstr that does not begin and end with a line break where its msgid does.
 * A source that is only whitespace, and a translation that is empty or only whitespace, have no core to anchor the
 * runs to and come back unchanged: an empty answer stays visibly empty for the gates.
 */
export function keepEdgeWhitespace(source: string, translation: string): string {
  const from = splitEdgeWhitespace(source);
  const to = splitEdgeWhitespace(translation);
  if (from.core === '' || to.core === '') return translation;
  return `${from.leading}${to.core}${from.trailing}`;
}
