// Unit tests for the locale-tag validator and the generated CLDR table behind it.
import { describe, expect, it } from 'vitest';
import known from '../../src/core/locales/known-locales.json' with { type: 'json' };
import {
  checkLocale,
  InvalidLocaleError,
  KNOWN_LOCALE_COUNT,
  localeDisplayName,
  parseLocale,
} from '../../src/core/locales/locales.js';

const EXPECTED = "Expected a BCP-47 tag such as 'en-US'";

describe('known-locales.json', () => {
  it('has KNOWN_LOCALE_COUNT entries and no duplicates', () => {
    expect(known.length).toBe(KNOWN_LOCALE_COUNT);
    expect(new Set(known).size).toBe(known.length);
  });

  it('holds only canonical tags, sorted', () => {
    expect(known.filter((tag) => Intl.getCanonicalLocales(tag)[0] !== tag)).toEqual([]);
    expect(known).toEqual([...known].sort());
  });

  it('leaves out the CLDR root locale', () => {
    expect(known).not.toContain('und');
    expect(known).not.toContain('root');
  });

  it('includes both CLDR data locales and default-content locales', () => {
    expect(known).toEqual(expect.arrayContaining(['en', 'en-GB', 'es-419', 'sr-Latn-ME', 'en-US', 'de-DE', 'ja-JP']));
  });
});

describe('checkLocale', () => {
  it.each([
    ['en-US', 'en-US'],
    ['EN-us', 'en-US'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['  fr-FR \n', 'fr-FR'],
    ['es-419', 'es-419'],
    ['sr-Latn-ME', 'sr-Latn-ME'],
    ['ca-es-VALENCIA', 'ca-ES-valencia'],
    ['iw', 'he'], // deprecated alias
    ['mo', 'ro'],
  ])('accepts %j as known %s', (input, tag) => {
    expect(checkLocale(input)).toEqual({ ok: true, tag, known: true });
  });

  it.each([
    ['de-AT-1996', 'de-AT-1996'],
    ['en-Latn-GB', 'en-Latn-GB'],
    ['fr-CA-u-ca-gregory', 'fr-CA-u-ca-gregory'],
    ['en-x-pirate', 'en-x-pirate'],
    ['qaa', 'qaa'],
    ['QTZ-Latn', 'qtz-Latn'],
  ])('accepts well-formed %j outside the table as unknown %s', (input, tag) => {
    expect(checkLocale(input)).toEqual({ ok: true, tag, known: false });
  });

  it.each(['en_us2', 'x-pirate', '', '   ', 'e', 'en-', 'en--US', 'i-klingon', 'root', '日本語'])(
    'rejects malformed %j',
    (input) => {
      expect(checkLocale(input)).toEqual({ ok: false, message: `Invalid locale '${input.trim()}'. ${EXPECTED}.` });
    },
  );

  it('quotes the bad value and the expected form', () => {
    expect(checkLocale('en_us2')).toEqual({
      ok: false,
      message: "Invalid locale 'en_us2'. Expected a BCP-47 tag such as 'en-US'.",
    });
  });

  it.each([
    ['en_US', 'en-US'],
    ['zh_hant_TW', 'zh-Hant-TW'],
    ['pt_br', 'pt-BR'],
  ])('rejects underscores in %j but suggests %s', (input, suggestion) => {
    expect(checkLocale(input)).toEqual({
      ok: false,
      message: `Invalid locale '${input}'. ${EXPECTED} (did you mean '${suggestion}'?).`,
    });
  });

  it('does not suggest a dashed form that would itself be rejected', () => {
    expect(checkLocale('zz_ZZ')).toEqual({ ok: false, message: `Invalid locale 'zz_ZZ'. ${EXPECTED}.` });
  });

  it.each([
    ['zz', 'zz'],
    ['english', 'english'],
    ['ZZ-DE', 'zz'],
    ['und', 'und'],
    ['qua', 'qua'], // just past the private-use range
  ])('rejects well-formed %j whose language subtag %s is unknown', (input, language) => {
    expect(checkLocale(input)).toEqual({
      ok: false,
      message: `Invalid locale '${input}'. Unknown language subtag '${language}'. ${EXPECTED}.`,
    });
  });

  it('truncates very long values in the message', () => {
    const result = checkLocale('a'.repeat(500));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toBe(`Invalid locale '${'a'.repeat(64)}…'. ${EXPECTED}.`);
  });
});

describe('parseLocale', () => {
  it('returns the canonical tag', () => {
    expect(parseLocale(' EN-gb ')).toBe('en-GB');
    expect(parseLocale('de-AT-1996')).toBe('de-AT-1996');
  });

  it('throws InvalidLocaleError carrying the raw input and the message', () => {
    let error: unknown;
    try {
      parseLocale(' en_US ');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidLocaleError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'InvalidLocaleError',
      input: ' en_US ',
      message: `Invalid locale 'en_US'. ${EXPECTED} (did you mean 'en-US'?).`,
    });
  });
});

describe('localeDisplayName', () => {
  it('names locales in English', () => {
    expect(localeDisplayName('en-US')).toBe('American English');
    expect(localeDisplayName('zh-Hant-TW')).toBe('Chinese (Traditional, Taiwan)');
  });

  it('returns undefined for unnamed or malformed tags', () => {
    expect(localeDisplayName('qaa')).toBeUndefined();
    expect(localeDisplayName('en_us2')).toBeUndefined();
  });
});
