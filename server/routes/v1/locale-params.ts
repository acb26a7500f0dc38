/** Locale tags from requests: canonicalised, or a 422 `locale_invalid` naming the tag. */
import { ApiError } from '../../errors.js';
import { InvalidLocaleError, parseLocale } from '../../../src/core/locales/locales.js';

export function localeParam(input: string): string {
  try {
    return parseLocale(input);
  } catch (error) {
    if (error instanceof InvalidLocaleError) throw new ApiError(422, 'locale_invalid', error.message, { locale: error.input });
    throw error;
  }
}

/** Tags given comma-separated, repeated, or both; duplicates dropped; undefined when none were given. */
export function localeList(raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const tags = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => value.split(',')).map((t) => t.trim()).filter(Boolean);
  return tags.length === 0 ? undefined : [...new Set(tags.map(localeParam))];
}
