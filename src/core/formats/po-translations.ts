/** The translations a gettext catalog holds for its locale (its msgstr), keyed as the `po` codec keys the messages. */
import type { Entry, PluralForms } from './codec.js';
import { gettextPlurals } from './plural-forms.js';
import { gettextKey, messagePosition, scanPo } from './po-scan.js';

/**
 * Reads a target catalog: each message's msgstr, a plural message's msgstr[i] as the CLDR category the locale's
 * layout puts at index i (a form the file lacks is left out, for the plural gate to name). A `fuzzy` message is left
 * out, as gettext leaves it out at run time; an empty msgstr is returned empty (untranslated). Throws
 * FileUnparsableError naming line and column on malformed input.
 */
export function readPoTranslations(bytes: Uint8Array, locale: string): Entry[] {
  const layout = gettextPlurals(locale);
  const entries: Entry[] = [];
  for (const m of scanPo(bytes).messages) {
    if (m.header || m.flags.includes('fuzzy')) continue;
    const key = gettextKey(m);
    const { line, column } = messagePosition(m);
    if (!m.msgidPlural) {
      entries.push({ key, path: [key], source: m.msgstr[0]?.value ?? '', line, column });
      continue;
    }
    const plurals: PluralForms = {};
    layout.categories.forEach((category, index) => {
      const form = m.msgstr.find((s) => (s.index ?? 0) === index);
      if (form) plurals[category] = form.value;
    });
    entries.push({ key, path: [key], source: plurals.other ?? '', plurals, line, column });
  }
  return entries;
}
