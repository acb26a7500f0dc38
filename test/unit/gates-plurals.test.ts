/** The plurals gate: plural keys and ICU plurals against the CLDR categories Intl.PluralRules gives for the target locale. */
import { describe, expect, it } from 'vitest';
import { checkPlurals } from '../../src/core/gates/plurals.js';
import { pluralCategories } from '../../src/core/plurals.js';
import type { PluralForms } from '../../src/core/formats/codec.js';

const keyReasons = (targetLocale: string, targetPlurals: PluralForms | undefined, target = targetPlurals?.other ?? '') =>
  checkPlurals({ sourceLocale: 'en', targetLocale, source: '%d files', sourcePlurals: { one: '%d file', other: '%d files' }, target, targetPlurals }).map((f) => f.reason);

const icuReasons = (targetLocale: string, source: string, target: string) =>
  checkPlurals({ sourceLocale: 'en', targetLocale, source, target }).map((f) => f.reason);

// French gained "many" (1 000 000 de fichiers) in recent CLDR; the expectations follow whatever this Node's ICU says.
const fr = pluralCategories('fr');
const frOrdinal = new Intl.PluralRules('fr', { type: 'ordinal' }).resolvedOptions().pluralCategories;
const frForms = Object.fromEntries(fr.map((c) => [c, `%d fichier (${c})`])) as PluralForms;

const FILES = '{count, plural, one {# file} other {# files}}';

describe('checkPlurals on plural keys', () => {
  it.each<[string, string, PluralForms]>([
    ['Polish, Android dogs_count', 'pl', { one: '%d pies', few: '%d psy', many: '%d psów', other: '%d psa' }],
    ['Russian', 'ru', { one: '%d файл', few: '%d файла', many: '%d файлов', other: '%d файла' }],
    ['Arabic, all six', 'ar', { zero: 'لا ملفات', one: 'ملف واحد', two: 'ملفان', few: '%d ملفات', many: '%d ملفًا', other: '%d ملف' }],
    ['Welsh, all six', 'cy', { zero: 'Dim ffeiliau', one: '%d ffeil', two: '%d ffeil', few: '%d ffeil', many: '%d ffeil', other: '%d ffeil' }],
    ['Japanese, only other', 'ja', { other: '%d 個のファイル' }],
    ['German', 'de', { one: '%d Datei', other: '%d Dateien' }],
    ['Hebrew has a dual', 'he', { one: 'קובץ אחד', two: 'שני קבצים', other: '%d קבצים' }],
    ['French, as Intl.PluralRules says', 'fr', frForms],
  ])('passes %s', (_name, locale, forms) => {
    expect(keyReasons(locale, forms)).toEqual([]);
  });

  it('names each missing form with the set the locale needs', () => {
    expect(keyReasons('pl', { one: '%d plik', other: '%d pliku' })).toEqual([
      'plural form "few" is missing (pl needs one, few, many, other)',
      'plural form "many" is missing (pl needs one, few, many, other)',
    ]);
    expect(keyReasons('ar', { one: 'ملف واحد', few: '%d ملفات', many: '%d ملفًا', other: '%d ملف' })).toEqual([
      'plural form "zero" is missing (ar needs zero, one, two, few, many, other)',
      'plural form "two" is missing (ar needs zero, one, two, few, many, other)',
    ]);
  });

  it('names forms the locale does not use', () => {
    expect(keyReasons('ja', { one: '1 個のファイル', other: '%d 個のファイル' })).toEqual(['plural form "one" is not used by ja (ja has only other)']);
    expect(keyReasons('de', { zero: 'Keine Dateien', one: '%d Datei', other: '%d Dateien' })).toEqual(['plural form "zero" is not used by de (de has one, other)']);
  });

  it('counts an empty or blank form as missing', () => {
    expect(keyReasons('ru', { one: '%d файл', few: '  ', many: '%d файлов', other: '%d файла' })).toEqual(['plural form "few" is missing (ru needs one, few, many, other)']);
  });

  it('uses the locale French has on this Node, without a hard-coded list', () => {
    const withoutLast = Object.fromEntries(Object.entries(frForms).filter(([c]) => c !== fr[fr.length - 2])) as PluralForms;
    expect(keyReasons('fr', withoutLast)).toEqual([`plural form "${fr[fr.length - 2]}" is missing (fr needs ${fr.join(', ')})`]);
  });

  it('reads a translation without forms as its other form only', () => {
    expect(keyReasons('de', undefined, '%d Dateien')).toEqual(['plural form "one" is missing (de needs one, other)']);
    expect(keyReasons('ja', undefined, '%d 個のファイル')).toEqual([]);
  });
});

describe('checkPlurals on ICU messages', () => {
  it.each<[string, string, string, string]>([
    ['German, corpus tolgee-plural.json', 'de', '{count, plural, one {# day} other {# days}}', '{count, plural, one {# Tag} other {# Tage}}'],
    ['Polish with all four forms', 'pl', FILES, '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}'],
    ['Japanese, other only', 'ja', FILES, '{count, plural, other {# 個のファイル}}'],
    ['exact =0 and =1 are always allowed', 'ja', '{count, plural, =0 {No items} one {# item} other {# items}}', '{count, plural, =0 {アイテムはありません} =1 {アイテム 1 個} other {# 個のアイテム}}'],
    ['Arabic, all six', 'ar', FILES, '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}'],
    ['plural inside text, corpus arb params', 'de', 'I have {count, plural, one {one dog} other {{count} dogs}}.', 'Ich habe {count, plural, one {einen Hund} other {{count} Hunde}}.'],
    ['offset and exact matches', 'de', '{guests, plural, offset:1 =0 {No guests} =1 {{host} only} one {{host} and # guest} other {{host} and # guests}}', '{guests, plural, offset:1 =0 {Keine Gäste} =1 {Nur {host}} one {{host} und # Gast} other {{host} und # Gäste}}'],
    ['plural nested in select', 'pl', '{gender, select, female {She has {n, plural, one {# file} other {# files}}} other {They have {n, plural, one {# file} other {# files}}}}', '{gender, select, female {Ona ma {n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}} other {Oni mają {n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}}}'],
    ['selectordinal in German, other only', 'de', 'Your {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} visit', 'Ihr {n, selectordinal, other {#.}} Besuch'],
    ['selectordinal in French, ordinal categories', 'fr', '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place', `{n, selectordinal, ${frOrdinal.map((c) => `${c} {#${c === 'one' ? 'er' : 'e'}}`).join(' ')}} place`],
    ['doubled apostrophe is a literal apostrophe', 'fr', '{n, plural, one {# file in {folder}} other {# files in {folder}}}', `{n, plural, ${fr.map((c) => `${c} {# fichier(s) dans l''{folder}}`).join(' ')}}`],
    ['typographic apostrophe', 'fr', '{n, plural, one {# file in {folder}} other {# files in {folder}}}', `{n, plural, ${fr.map((c) => `${c} {# fichier(s) dans l’{folder}}`).join(' ')}}`],
    ['Angular =0/=1/other in German: =1 is the only number "one" selects', 'de', '{VAR_PLURAL, plural, =0 {Your cart is empty} =1 {One item in your cart} other {{count} items in your cart}}', '{VAR_PLURAL, plural, =0 {Ihr Warenkorb ist leer} =1 {Ein Artikel im Warenkorb} other {{count} Artikel im Warenkorb}}'],
    ['Polish =1 in place of one', 'pl', '{n, plural, =1 {One file} other {# files}}', '{n, plural, =1 {Jeden plik} few {# pliki} many {# plików} other {# pliku}}'],
    ['Arabic =0, =1 and =2 in place of zero, one and two', 'ar', FILES, '{count, plural, =0 {لا ملفات} =1 {ملف واحد} =2 {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}'],
    ['a source without a plural and a translation without one', 'de', 'Hello {name}!', 'Hallo {name}!'],
    ['a plural added where the language wants one', 'de', '{count} files', '{count, plural, one {# Datei} other {# Dateien}}'],
    ['a source whose own ICU is broken, corpus tolgee-icu.yaml', 'cs', '{count, plural, one {# relation} few {# relations} many {# relations} other {# relations}', '{count, plural, one {# relace} few {# relace} many {# relace} other {# relací}'],
  ])('passes %s', (_name, locale, source, target) => {
    expect(icuReasons(locale, source, target)).toEqual([]);
  });

  it.each<[string, string, string, string, string[]]>([
    ['Polish without many', 'pl', FILES, '{count, plural, one {# plik} few {# pliki} other {# pliku}}', ['plural form "many" is missing from the plural on {count} (pl needs one, few, many, other)']],
    ['Russian with the English forms only', 'ru', FILES, '{count, plural, one {# файл} other {# файлов}}', ['plural form "few" is missing from the plural on {count} (ru needs one, few, many, other)', 'plural form "many" is missing from the plural on {count} (ru needs one, few, many, other)']],
    ['Japanese with one', 'ja', FILES, '{count, plural, one {# 個のファイル} other {# 個のファイル}}', ['plural form "one" in the plural on {count} is not used by ja (ja has only other)']],
    ['Welsh missing zero and two', 'cy', FILES, '{count, plural, one {# ffeil} few {# ffeil} many {# ffeil} other {# ffeil}}', ['plural form "zero" is missing from the plural on {count} (cy needs zero, one, two, few, many, other)', 'plural form "two" is missing from the plural on {count} (cy needs zero, one, two, few, many, other)']],
    ['Russian =1 does not stand in for one, which also takes 21, 31…', 'ru', '{n, plural, =1 {One file} other {# files}}', '{n, plural, =1 {Один файл} few {# файла} many {# файлов} other {# файла}}', ['plural form "one" is missing from the plural on {n} (ru needs one, few, many, other)']],
    ['no other form', 'de', FILES, '{count, plural, one {# Datei}}', ['plural form "other" is missing from the plural on {count} (de needs one, other)']],
    ['selector translated', 'de', FILES, '{count, plural, one {# Datei} andere {# Dateien}}', ['plural form "other" is missing from the plural on {count} (de needs one, other)', 'selector "andere" in the plural on {count} is not a plural category (de uses one, other, or =N for an exact number)']],
    ['turned into plain text', 'de', FILES, '5 Dateien', ['the plural on {count} was turned into plain text']],
    ['closing brace lost', 'pl', FILES, '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}', ['the translation is not valid ICU: 1 of its 5 "{" is never closed']],
    ['stray closing brace', 'de', FILES, '{count, plural, one {# Datei}} other {# Dateien}}', ['the translation is not valid ICU: "}" at offset 48 closes nothing']],
    ['plural moved to another argument', 'de', FILES, '{anzahl, plural, one {# Datei} other {# Dateien}}', ['the plural on {count} is missing']],
    ['nested plural missing a Polish form in one branch', 'pl', '{gender, select, female {{n, plural, one {# file} other {# files}}} other {{n, plural, one {# file} other {# files}}}}', '{gender, select, female {{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}} other {{n, plural, one {# plik} other {# pliku}}}}', ['plural form "few" is missing from the plural on {n} (pl needs one, few, many, other)', 'plural form "many" is missing from the plural on {n} (pl needs one, few, many, other)']],
    ['selectordinal with the English ordinal forms in German', 'de', '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', '{n, selectordinal, one {#.} two {#.} few {#.} other {#.}}', ['ordinal form "one" in the selectordinal on {n} is not used by de (de has only other)', 'ordinal form "two" in the selectordinal on {n} is not used by de (de has only other)', 'ordinal form "few" in the selectordinal on {n} is not used by de (de has only other)']],
    ['selectordinal turned into a plural', 'en-GB', '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', '{n, plural, one {#st} other {#th}}', ['the selectordinal on {n} is missing']],
    ['French apostrophe before an argument starts ICU quoting', 'fr', '{n, plural, one {# file in {folder}} other {# files in {folder}}}', `{n, plural, ${fr.map((c) => `${c} {# fichier(s) dans l'{folder}}`).join(' ')}}`, [`an apostrophe before "{" in "l'{folder}" starts ICU quoting, so the text after it prints literally; write ’ or ''`]],
    ['a plural the translation added has the wrong forms', 'ja', '{count} files', '{count, plural, one {# ファイル} other {# ファイル}}', ['plural form "one" in the plural on {count} is not used by ja (ja has only other)']],
  ])('fails %s', (_name, locale, source, target, expected) => {
    expect(icuReasons(locale, source, target)).toEqual(expected);
  });

  it('reports under the plurals gate', () => {
    expect(checkPlurals({ sourceLocale: 'en', targetLocale: 'de', source: FILES, target: 'Dateien' })).toEqual([{ gate: 'plurals', reason: 'the plural on {count} was turned into plain text' }]);
  });
});
