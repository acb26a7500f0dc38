/** The length gate: user-perceived characters of what a translation displays, against the row's budget. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLength, displayLength } from '../../src/core/gates/length.js';
import type { PluralForms } from '../../src/core/formats/codec.js';

describe('displayLength', () => {
  it.each<[string, string, number]>([
    ['an English button', 'Save', 4],
    ['a German button', 'Änderungen speichern', 20],
    ['German with a decomposed umlaut', 'A\u0308nderungen speichern', 20],
    ['Vietnamese with stacked decomposed marks', 'Tie\u0302\u0301ng Vie\u0323\u0302t', 10],
    ['Japanese', 'ダッシュボードを開く', 10],
    ['Chinese with a character outside the BMP', '𠮷野家のメニュー', 8],
    ['Korean syllables', '설정 저장', 5],
    ['Korean written as conjoining jamo', '\u1109\u1165\u11af\u110c\u1165\u11bc', 2],
    ['Thai with vowel and tone marks', 'บันทึกการตั้งค่า', 11],
    ['Arabic', 'حفظ الإعدادات', 13],
    ['Arabic with vowel marks', 'مُحَمَّد', 4],
    ['Hebrew with points', 'שָׁלוֹם', 4],
    ['an emoji family joined with ZWJ', 'Family: 👨‍👩‍👧', 9],
    ['a flag from regional indicators', 'Deutsch 🇩🇪', 9],
    ['a thumbs-up with a skin tone', 'Liked 👍🏽', 7],
    ['a heart with a variation selector', 'Love ❤️', 6],
    ['CR LF is one character', 'Line 1\r\nLine 2', 13],
    ['fullwidth Latin', 'ＰＡＲＬＡＮＣＥ', 8],
    ['tags display nothing', '<b>Save</b> <a href="https://example.com/a/very/long/path">now</a>', 8],
    ['an entity displays one character', 'Terms &amp; Conditions', 18],
    ['a placeholder counts as written', 'Hello {name}', 12],
    ['printf conversions count as written', 'Copied %d files to %@', 21],
    ['Android xliff:g shows its content', 'Welcome to <xliff:g id="app">Parlance</xliff:g>!', 20],
    ['an ICU plural shows its longest branch', '{count, plural, one {# file} other {# files}}', 7],
    ['text around an ICU plural', 'You have {count, plural, =0 {no new messages} one {# new message} other {# new messages}}.', 25],
    ['a plural nested in a select', '{g, select, female {She has {n, plural, one {# file} other {# files}}} other {They have {n, plural, one {# file} other {# files}}}}', 17],
    ['empty', '', 0],
  ])('%s', (_name, text, expected) => {
    expect(displayLength(text)).toBe(expected);
  });

  it('counts plain text exactly as Intl.Segmenter does, whatever the script', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const pieces = ['a', 'Z', ' ', 'é', 'e\u0301', 'ß', 'Ж', 'ж', 'ي', 'َ', 'ה', 'ֹ', 'क', '्', 'ष', 'ि', 'ก', 'ั', 'ำ', '한', '\u1100', '\u1161', '\u11a8', '日', 'カ', 'ﾞ', '😀', '👍', '🏽', '\u200d', '❤', '\ufe0f', '🇩', '🇪', '\r', '\n', '\t', '.', '-'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(displayLength(text)).toBe([...segmenter.segment(text)].length);
      }),
    );
  });
});

const row = (target: string, maxLength: number | undefined, targetPlurals?: PluralForms) =>
  checkLength({ sourceLocale: 'en', targetLocale: 'de', source: 'Save', target, targetPlurals, maxLength }).map((f) => f.reason);

describe('checkLength', () => {
  it.each<[string, string, number | undefined, string[]]>([
    ['no budget, any length', 'Einstellungen für Benachrichtigungen und Datenschutz speichern', undefined, []],
    ['exactly on budget', 'Speichern', 9, []],
    ['a German button over a 10-character budget', 'Änderungen speichern', 10, ['20 characters, over the budget of 10 by 10']],
    ['a sentence over budget', 'Ihr Abonnement wurde erfolgreich verlängert und bleibt aktiv', 40, ['60 characters, over the budget of 40 by 20']],
    ['emoji count as one character each', '👨‍👩‍👧 👍🏽 🇩🇪', 5, []],
    ['tags do not use up the budget', '<a href="https://parlance.dev/pricing">Preise</a>', 6, []],
    ['the longest ICU branch must fit', '{count, plural, one {# Datei} other {# Dateien ausgewählt}}', 12, ['20 characters, over the budget of 12 by 8']],
    ['a Japanese label within budget', '設定を保存', 5, []],
  ])('%s', (_name, target, maxLength, expected) => {
    expect(row(target, maxLength)).toEqual(expected);
  });

  it('checks each plural form and names the offending ones', () => {
    expect(row('%d plików', 10, { one: '%d plik', few: '%d pliki', many: '%d plików wybranych', other: '%d pliku wybranego' })).toEqual([
      'form "many": 19 characters, over the budget of 10 by 9',
      'form "other": 18 characters, over the budget of 10 by 8',
    ]);
    expect(row('%d plików', 10, { one: '%d plik', few: '%d pliki', many: '%d plików', other: '%d pliku' })).toEqual([]);
  });

  it('reports under the length gate', () => {
    expect(checkLength({ sourceLocale: 'en', targetLocale: 'fr', source: 'Save', target: 'Enregistrer', maxLength: 8 })).toEqual([
      { gate: 'length', reason: '11 characters, over the budget of 8 by 3' },
    ]);
  });
});
