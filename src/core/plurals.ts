/** CLDR plural categories of a locale, from the ICU data behind Intl.PluralRules. */
import { PLURAL_CATEGORIES, type PluralCategory, type PluralForms } from './formats/codec.js';

const cache = new Map<string, PluralCategory[]>();

/** The cardinal plural categories `locale` uses, in CLDR order (zero, one, two, few, many, other). */
export function pluralCategories(locale: string): PluralCategory[] {
  let categories = cache.get(locale);
  if (!categories) {
    const used = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
    categories = PLURAL_CATEGORIES.filter((c) => used.has(c));
    cache.set(locale, categories);
  }
  return categories;
}

const ordinalCache = new Map<string, PluralCategory[]>();

/** The ordinal plural categories `locale` uses (1st, 2nd, 3rd…), in CLDR order: `en` has one, two, few, other. */
export function ordinalCategories(locale: string): PluralCategory[] {
  let categories = ordinalCache.get(locale);
  if (!categories) {
    const used = new Set(new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions().pluralCategories);
    categories = PLURAL_CATEGORIES.filter((c) => used.has(c));
    ordinalCache.set(locale, categories);
  }
  return categories;
}

/**
 * The source forms to start each target category from: the same category where the source has it,
 * else `other` (so `ar`'s `few` starts from English `other`, and `ja`'s only form from English `other`).
 */
export function sourceFormsFor(targetLocale: string, source: PluralForms): Record<string, string> {
  const forms: Record<string, string> = {};
  for (const category of pluralCategories(targetLocale)) forms[category] = source[category] ?? source.other ?? Object.values(source)[0] ?? '';
  return forms;
}

/** Orders forms in CLDR order and drops empty categories. */
export function orderedForms(forms: PluralForms): [PluralCategory, string][] {
  return PLURAL_CATEGORIES.filter((c) => forms[c] !== undefined).map((c) => [c, forms[c]!]);
}
