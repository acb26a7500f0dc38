/** The placeholders gate on real UI strings (corpus files, framework docs) and the ways machine translation damages them. */
import { describe, expect, it } from 'vitest';
import { runGates } from '../../src/core/gates/index.js';
import { checkPlaceholders } from '../../src/core/gates/placeholders.js';
import type { PluralForms } from '../../src/core/formats/codec.js';

const reasons = (source: string, target: string, targetLocale = 'de') =>
  checkPlaceholders({ sourceLocale: 'en', targetLocale, source, target }).map((f) => f.reason);

const pluralReasons = (sourcePlurals: PluralForms, targetPlurals: PluralForms, targetLocale = 'pl') =>
  checkPlaceholders({ sourceLocale: 'en', targetLocale, source: sourcePlurals.other ?? '', sourcePlurals, target: targetPlurals.other ?? '', targetPlurals }).map(
    (f) => f.reason,
  );

const PASSING: Array<[where: string, source: string, target: string, locale?: string]> = [
  ['Android positional printf', 'Welcome %1$s! You have %2$d new messages.', 'Willkommen %1$s! Sie haben %2$d neue Nachrichten.'],
  ['xcstrings positional arguments may move', 'Second: %2$@ - First: %1$lld', 'Erstens: %1$lld – zweitens: %2$@'],
  ['xcstrings repeated positional argument', '%1$lld, I repeat: %1$lld', '%1$lld, ich wiederhole: %1$lld'],
  ['iOS object placeholder', '%@ liked your photo', '%@ gefällt dein Foto'],
  ['Android %% literal percent', 'Battery at %1$d%%', 'Akku bei %1$d %%'],
  ['xcstrings stray percent kept as in the source', 'Test 50% off', 'Test 50% Rabatt'],
  ['a percent sign in a string that is not printf', 'Save 50% with {plan}', 'Sparen Sie 50 % mit {plan}'],
  ['Java %n takes no argument and may stay at the end', 'Line %1$s%n', 'Zeile %1$s%n'],
  ['Qt %1 %2 may move', 'Delete %1 of %2 files?', 'Von %2 Dateien %1 löschen?'],
  ['Python named conversions may move', 'Hello %(name)s, you owe %(amount).2f', 'Sie schulden %(amount).2f, %(name)s'],
  ['i18next spacing inside braces', 'Hello {{name}}, welcome back!', 'Hallo {{ name }}, willkommen zurück!'],
  ['i18next nesting', 'See $t(common.terms) for details', 'Details unter $t(common.terms)'],
  ['JS template placeholder', 'Hello ${user.firstName}', 'Hallo ${user.firstName}'],
  ['Laravel, corpus laravel-lang de', ':resource Details: :title', ':resource Einzelheiten: :title'],
  ['Laravel validation, reordered', 'The :attribute field must be between :min and :max.', ':attribute は :min から :max の間で指定してください。', 'ja'],
  ['Laravel capitalised parameter, corpus laravel-lang de', ':amount selected', ':Amount ausgewählt'],
  ['Laravel plain key translated as a choice, corpus laravel-lang de', '(and :count more errors)', '(und :count weiterer Fehler)|(und :count weitere Fehler)|(und :count weitere Fehler)'],
  ['Laravel choice string with more variants than the source', '(and :count more error)|(and :count more errors)', '(und :count weiterer Fehler)|(und :count weitere Fehler)|(und :count weitere Fehler)'],
  ['Rails, corpus tolgee-ruby.yaml', 'This is a text with params: %{param1} and %{param2}', 'Toto je text s parametry: %{param1} a %{param2}', 'cs'],
  ['.NET indexed, corpus resx', 'Text with placeholders {0} and tags </br> and complex tags <p>text</p>', 'Text mit Platzhaltern {0} und Tags </br> und komplexen Tags <p>Text</p>'],
  ['ICU argument, corpus arb', 'Hello World! {name}', 'Hallo Welt! {name}'],
  ['ICU plural with =0, corpus lingo-example.arb', '{count, plural, =0 {No items} one {# item} other {# items}}', '{count, plural, =0 {Keine Elemente} one {# Element} other {# Elemente}}'],
  ['ICU plural using {count} in a branch, corpus arb params', 'I have {count, plural, one {one dog} other {{count} dogs}}.', 'Ich habe {count, plural, one {einen Hund} other {{count} Hunde}}.'],
  ['ICU plural with more branches in Czech, corpus tolgee-icu.yaml', '{count, plural, one {# relation} other {# relations}}', '{count, plural, one {# relace} few {# relace} many {# relace} other {# relací}}', 'cs'],
  ['ICU select, corpus lingo-example.arb', '{status, select, online {User is online} offline {User is offline} away {User is away} other {Unknown status}}', '{status, select, online {Benutzer ist online} offline {Benutzer ist offline} away {Benutzer ist abwesend} other {Unbekannter Status}}'],
  ['ICU plural with a nested argument, corpus properties', 'Hello {count, plural, one {one # {icuParam}} other {other {icuParam}}}', 'Hallo {count, plural, one {ein # {icuParam}} other {andere {icuParam}}}'],
  ['ICU number argument written differently in the translation', 'Uploaded {size, number} files', '{size, number, integer} Dateien hochgeladen'],
  ['HTML link and bold, attributes kept', 'By signing up you accept the <a href="/terms">Terms</a> and <b>privacy policy</b>.', 'Mit der Registrierung akzeptieren Sie die <a href="/terms">AGB</a> und die <b>Datenschutzerklärung</b>.'],
  ['HTML elements may change order', '<b>Save</b> or <i>discard</i> your changes', 'Änderungen <i>verwerfen</i> oder <b>speichern</b>'],
  ['translatable attribute values may change', '<img src="/logo.png" alt="Parlance logo"> Welcome', '<img src="/logo.png" alt="Parlance-Logo"> Willkommen'],
  ['void element written as <br> or <br />', 'First line<br/>Second line', 'Erste Zeile<br />Zweite Zeile'],
  ['entities are not placeholders', 'Terms &amp; Conditions', 'Allgemeine Geschäftsbedingungen'],
  ['Android xliff:g content kept, corpus tolgee-strings.xml', '<b>Hello!\n<xliff:g id="number">%d</xliff:g>\n</b>\n<xliff:g id="number">Dont\'translate this</xliff:g>', '<b>Hallo!\n<xliff:g id="number">%d</xliff:g>\n</b>\n<xliff:g id="number">Dont\'translate this</xliff:g>'],
  ['nothing to keep', 'Hello i18n!', 'Hallo i18n!'],
];

const FAILING: Array<[where: string, source: string, target: string, expected: string[]]> = [
  ['ICU argument dropped', '{count} new messages', 'Neue Nachrichten', ['placeholder {count} is missing']],
  ['ICU argument name translated in a branch', '{count, plural, one {# file} other {{count} files}}', '{count, plural, one {# soubor} few {# soubory} many {# souborů} other {{počet} souborů}}', ['placeholder {počet} is not in the source (in the "other" branch of {count})']],
  ['printf arguments without n$ swapped', 'Copied %d files to %@', 'Nach %@ wurden %d Dateien kopiert', ['%d and %@ swapped: printf arguments without n$ must keep the source order']],
  ['printf %s and %d swapped', 'Hello %s, you have %d new messages', 'Sie haben %d neue Nachrichten, %s', ['%s and %d swapped: printf arguments without n$ must keep the source order']],
  ['printf conversion changed', '%@ liked your photo', '%s gefällt dein Foto', ['placeholder %@ is missing', 'placeholder %s is not in the source']],
  ['placeholder duplicated', 'Hello {name}', 'Hallo {name}, {name}', ['placeholder {name} appears 2 times, the source has it once']],
  ['i18next variable name translated', 'Hello {{name}}, welcome back!', 'Hallo {{Name}}, willkommen zurück!', ['placeholder {{name}} is missing', 'placeholder {{Name}} is not in the source']],
  ['Laravel placeholder translated', 'The :attribute field is required.', 'Das Feld :Attribut ist erforderlich.', ['placeholder :attribute is missing', 'placeholder :Attribut is not in the source']],
  ['Laravel choice variant lost its count', '{0} No errors|[1,*] :count errors', '{0} Keine Fehler|[1,*] Fehler', ['placeholder :count is missing']],
  ['Rails placeholder renamed', 'Hello %{name}, you have %{count} messages', 'Hallo %{name}, Sie haben %{anzahl} Nachrichten', ['placeholder %{count} is missing', 'placeholder %{anzahl} is not in the source']],
  ['.NET index changed', 'Hello {0}, your balance is {1:C}', 'Hallo {1}, Ihr Kontostand ist {1:C}', ['placeholder {0} is missing', 'placeholder {1} is not in the source']],
  ['i18next nesting key translated', 'See $t(common.terms) for details', 'Siehe $t(common.bedingungen)', ['placeholder $t(common.terms) is missing', 'placeholder $t(common.bedingungen) is not in the source']],
  ['ICU formatted argument dropped next to a plural', '{count, plural, one {# backup} other {# backups}} on {date, date, medium}', '{count, plural, one {# Sicherung} other {# Sicherungen}}', ['placeholder {date} is missing']],
  ['ICU top-level argument renamed next to a plural', 'Hi {name}, {count, plural, one {# task} other {# tasks}} left', 'Salut {nom}, {count, plural, one {# tâche} other {# tâches}} restantes', ['placeholder {name} is missing', 'placeholder {nom} is not in the source']],
  ['ICU plural argument renamed', '{count, plural, one {# file} other {# files}}', '{anzahl, plural, one {# Datei} other {# Dateien}}', ['placeholder {count} is missing', 'placeholder {anzahl} is not in the source (the translation has a plural on it)']],
  ['ICU select keys translated', '{gender, select, female {She replied} male {He replied} other {They replied}}', '{gender, select, weiblich {Sie antwortete} male {Er antwortete} other {Sie antworteten}}', ['select on {gender}: branch "female" is missing', 'select on {gender}: branch "weiblich" is not in the source']],
  ['ICU select flattened to text', '{gender, select, female {She replied} other {They replied}}', 'Antwort erhalten', ['placeholder {gender} is missing']],
  ['ICU select flattened to its argument', '{role, select, admin {Administrator} other {Member}} since {date}', '{role} seit {date}', ['select on {role} is missing']],
  ['tag dropped', '<b>Note:</b> this cannot be undone.', 'Hinweis: Dies kann nicht rückgängig gemacht werden.', ['tag <b> is missing']],
  ['closing tag dropped', '<b>Note:</b> this cannot be undone.', '<b>Hinweis: Dies kann nicht rückgängig gemacht werden.', ['tag </b> is missing']],
  ['tag added', 'Save changes', '<b>Änderungen</b> speichern', ['tag <b> is not in the source']],
  ['link target changed', 'Read the <a href="/terms">terms</a>', 'Lesen Sie die <a href="/conditions">Bedingungen</a>', ['<a href="/terms"> changed to <a href="/conditions">']],
  ['tags overlap', '<b>Hello <i>world</i></b>', '<b>Hallo <i>Welt</b></i>', ['tags <b> and <i> overlap: </b> closes before </i>']],
  ['xliff:g content translated, Android', 'Welcome to <xliff:g id="app">Parlance</xliff:g>!', 'Willkommen bei <xliff:g id="app">Parlanz</xliff:g>!', ['content of <xliff:g id="app"> changed from "Parlance" to "Parlanz"']],
  ['French spacing before % makes a conversion', 'Save %1$d%% on %2$s', 'Économisez %1$d % de réduction sur %2$s', ['"% d" would be read as a printf conversion; write "%%" for a literal percent sign']],
  ['lone % in a printf string', 'Battery at %1$d%%', 'Akku bei %1$d %', ['a lone "%" is not valid in a printf string; write "%%" for a literal percent sign']],
  ['Python placeholder lost', 'Hello %(name)s, you owe %(amount).2f', 'Sie schulden %(amount).2f', ['placeholder %(name)s is missing']],
  ['JS template placeholder changed', 'Hello ${user.firstName}', 'Hallo ${user.vorname}', ['placeholder ${user.firstName} is missing', 'placeholder ${user.vorname} is not in the source']],
];

describe('checkPlaceholders', () => {
  it.each(PASSING)('passes: %s', (_where, source, target, locale) => {
    expect(reasons(source, target, locale)).toEqual([]);
  });

  it.each(FAILING)('fails: %s', (_where, source, target, expected) => {
    expect(reasons(source, target)).toEqual(expected);
  });

  it('reports each failure under the placeholders gate', () => {
    expect(checkPlaceholders({ sourceLocale: 'en', targetLocale: 'de', source: '{count} files', target: 'Dateien' })).toEqual([
      { gate: 'placeholders', reason: 'placeholder {count} is missing' },
    ]);
  });
});

describe('checkPlaceholders on the line breaks at the ends (issue 14: msgfmt --check)', () => {
  it.each<[where: string, source: string, target: string]>([
    ['gettext msgid ending with a line break', 'Hello\n', 'Hallo\n'],
    ['line breaks and indentation at both ends', '\n\tUsage: %s [options]\n\n', '\n\tVerwendung: %s [Optionen]\n\n'],
    ['spaces and tabs at the ends are the translator\'s', '  Name: ', 'Nom :'],
    ['spaces beside a kept line break', 'Line\n', 'Zeile \n'],
    ['CR LF is one line break, as LF is', 'Line\r\n', 'Zeile\n'],
    ['line breaks inside the text are free', 'First line\nsecond line', 'Erste und zweite Zeile'],
    ['whitespace-only sources have no ends to compare', '\n', 'x'],
    ['an empty translation is left to the other gates', 'Hello\n', ''],
    ['ICU strings compare as whole strings', '\n{count, plural, one {# file} other {# files}}\n', '\n{count, plural, one {# Datei} other {# Dateien}}\n'],
  ])('passes: %s', (_where, source, target) => {
    expect(reasons(source, target)).toEqual([]);
  });

  it.each<[where: string, source: string, target: string, expected: string[]]>([
    ['trailing line break dropped', 'Hello\n', 'Hallo', ['trailing line break is missing: the source ends with "\\n"']],
    ['leading line break dropped', '\nHello', 'Hallo', ['leading line break is missing: the source starts with "\\n"']],
    ['two trailing line breaks dropped', 'Hello\n\n', 'Hallo ', ['trailing line breaks are missing: the source ends with "\\n\\n"']],
    ['trailing line break added', 'Hello', 'Hallo\n', ['trailing line break is not in the source: the translation ends with "\\n"']],
    ['one of two trailing line breaks dropped', 'Hello\n\n', 'Hallo\n', ['trailing line breaks differ: the source ends with "\\n\\n", the translation with "\\n"']],
    ['a space after the final line break', 'Hello\n', 'Hallo\n ', ['trailing line breaks differ: the source ends with "\\n", the translation with "\\n "']],
    ['a space before the first line break', '\nHello', ' \nHallo', ['leading line breaks differ: the source starts with "\\n", the translation with " \\n"']],
    ['both ends changed', '\nHello\n', 'Hallo\n\n', ['leading line break is missing: the source starts with "\\n"', 'trailing line breaks differ: the source ends with "\\n", the translation with "\\n\\n"']],
    ['ICU line breaks moved into the branches', '\n{count, plural, one {# file} other {# files}}', '{count, plural, one {\n# Datei} other {\n# Dateien}}', ['leading line break is missing: the source starts with "\\n"']],
  ])('fails: %s', (_where, source, target, expected) => {
    expect(reasons(source, target)).toEqual(expected);
  });

  it('checks each plural form against the source form of its category, else other', () => {
    expect(pluralReasons({ one: 'One file\n', other: '%d files\n' }, { one: 'Jeden plik\n', few: '%d pliki\n', many: '%d plików\n', other: '%d pliku\n' })).toEqual([]);
    expect(pluralReasons({ one: '\nOne file', other: '%d files\n' }, { one: 'Jeden plik\n', few: '%d pliki', many: '%d plików\n', other: '%d pliku\n' })).toEqual([
      'form "one": leading line break is missing: the source starts with "\\n"',
      'form "one": trailing line break is not in the source: the translation ends with "\\n"',
      'form "few": trailing line break is missing: the source ends with "\\n"',
    ]);
  });

  it('refuses the row under the placeholders gate', () => {
    expect(runGates({ sourceLocale: 'en', targetLocale: 'de', source: 'Hello\n', target: 'Hallo' })).toEqual({
      outcome: 'refused',
      failures: [{ gate: 'placeholders', reason: 'trailing line break is missing: the source ends with "\\n"' }],
    });
  });
});

describe('checkPlaceholders on plural keys', () => {
  it('passes Android plurals where every form keeps %d (corpus tolgee-strings.xml)', () => {
    expect(pluralReasons({ one: '%d dog', other: '%d dogs' }, { one: '%d pies', few: '%d psy', many: '%d psów', other: '%d psa' })).toEqual([]);
  });

  it('lets one/zero/two leave out the count, as "one item" does', () => {
    expect(pluralReasons({ one: '%d file', other: '%d files' }, { one: 'Eine Datei', other: '%d Dateien' }, 'de')).toEqual([]);
    expect(pluralReasons({ zero: 'I have no strings', one: 'I have %lld string', other: 'I have %lld strings' }, { zero: 'Nemám žádné řetězce', one: 'Mám jeden řetězec', few: 'Mám %lld řetězce', many: 'Mám %lld řetězce', other: 'Mám %lld řetězců' }, 'cs')).toEqual([]);
  });

  it('passes stringsdict forms with printf and an ICU argument (corpus tolgee-Localizable_params.stringsdict)', () => {
    expect(pluralReasons({ one: 'Peter has %lld dog {meto}', other: 'Peter has %lld dogs {meto}' }, { other: 'ピーターは犬を %lld 匹飼っています {meto}' }, 'ja')).toEqual([]);
  });

  it('refuses forms other than zero/one/two without the count, and forms with placeholders no source form has', () => {
    expect(pluralReasons({ one: '%d dog %s', other: '%d dogs %s' }, { one: 'pies %s', few: '%d psy %s %@', many: 'psów %s', other: '%d psa %s' })).toEqual([
      'form "few": placeholder %@ is not in the source',
      'form "many": placeholder %d is missing',
    ]);
  });

  it('keeps printf order and tags per form, against the source form of the same category', () => {
    expect(pluralReasons({ one: '%d file in %s', other: '%d files in <b>%s</b>' }, { one: '%d Datei in %s', other: 'In <b>%s</b>: %d Dateien' }, 'de')).toEqual([
      'form "other": %d and %s swapped: printf arguments without n$ must keep the source order',
    ]);
    expect(pluralReasons({ one: '<b>%d</b> file', other: '<b>%d</b> files' }, { one: '<b>%d</b> Datei', other: '%d Dateien' }, 'de')).toEqual(['form "other": tag <b> is missing']);
  });

  it('passes i18next plural keys (corpus tolgee-i18next-params.json)', () => {
    expect(pluralReasons({ one: 'Hello one # {{icuParam}}', other: 'Hello other {{icuParam}}' }, { one: 'Hallo eins # {{icuParam}}', other: 'Hallo andere {{icuParam}}' }, 'de')).toEqual([]);
  });

  it('leaves empty forms to the plurals gate', () => {
    expect(pluralReasons({ one: '%d dog', other: '%d dogs' }, { one: '%d pies', few: '', many: '%d psów', other: '%d psa' })).toEqual([]);
  });

  it('compares the other form with the source when the translation has no forms', () => {
    expect(checkPlaceholders({ sourceLocale: 'en', targetLocale: 'ja', source: '%d dogs', sourcePlurals: { one: '%d dog', other: '%d dogs' }, target: '犬' }).map((f) => f.reason)).toEqual([
      'placeholder %d is missing',
    ]);
  });
});
