/** runGates: the four gates over whole translated rows, and the outcome their failures add up to. */
import { describe, expect, it } from 'vitest';
import * as gates from '../../src/core/gates/index.js';
import { runGates, type GateInput, type GlossaryTerm } from '../../src/core/gates/index.js';

const GLOSSARY: GlossaryTerm[] = [
  { term: 'Dashboard', caseSensitive: false, forbidden: false, translations: { de: 'Übersicht', pl: 'pulpit', ja: 'ダッシュボード' } },
  { term: 'Parlance', caseSensitive: true, forbidden: false, translations: {} },
  { term: 'cell phone', caseSensitive: false, forbidden: true, translations: { de: 'Handy' } },
];

const row = (input: Partial<GateInput> & Pick<GateInput, 'source' | 'target'>): GateInput => ({ sourceLocale: 'en', targetLocale: 'de', glossary: GLOSSARY, ...input });

describe('runGates', () => {
  it.each<[string, GateInput]>([
    ['an Android string with positional printf', row({ source: 'Welcome %1$s! You have %2$d new messages.', target: 'Willkommen %1$s! Sie haben %2$d neue Nachrichten.', maxLength: 60 })],
    ['an ICU plural in Polish with a locked term', row({ targetLocale: 'pl', source: '{count, plural, one {# dashboard} other {# dashboards}}', target: '{count, plural, one {# pulpit} few {# pulpity} many {# pulpitów} other {# pulpitu}}' })],
    ['a Japanese plural key with its only form', row({ targetLocale: 'ja', source: '%d dogs', sourcePlurals: { one: '%d dog', other: '%d dogs' }, target: '%d 匹の犬', targetPlurals: { other: '%d 匹の犬' } })],
    ['HTML with a kept name', row({ source: 'Welcome to <b>Parlance</b>, {{name}}!', target: 'Willkommen bei <b>Parlance</b>, {{name}}!' })],
  ])('passes %s', (_name, input) => {
    expect(runGates(input)).toEqual({ outcome: 'passed', failures: [] });
  });

  it('flags a row whose only failure is its length', () => {
    expect(runGates(row({ source: 'Save changes', target: 'Änderungen speichern', maxLength: 14 }))).toEqual({
      outcome: 'flagged',
      failures: [{ gate: 'length', reason: '20 characters, over the budget of 14 by 6' }],
    });
  });

  it('flags plural forms over budget', () => {
    const report = runGates(row({ source: '%d files', sourcePlurals: { one: '%d file', other: '%d files' }, target: '%d ausgewählte Dateien', targetPlurals: { one: '%d Datei', other: '%d ausgewählte Dateien' }, maxLength: 12 }));
    expect(report).toEqual({ outcome: 'flagged', failures: [{ gate: 'length', reason: 'form "other": 22 characters, over the budget of 12 by 10' }] });
  });

  it('refuses a row with a placeholder failure, listing all gates in order', () => {
    expect(runGates(row({ source: 'Open the dashboard ({count} new)', target: 'Das Dashboard mit neuen Einträgen öffnen', maxLength: 30 }))).toEqual({
      outcome: 'refused',
      failures: [
        { gate: 'placeholders', reason: 'placeholder {count} is missing' },
        { gate: 'glossary', reason: 'locked term "Dashboard" must be translated as "Übersicht"' },
        { gate: 'length', reason: '40 characters, over the budget of 30 by 10' },
      ],
    });
  });

  it('refuses an ICU plural turned into plain text', () => {
    expect(runGates(row({ source: '{count, plural, one {# file} other {# files}}', target: '5 Dateien' }))).toEqual({
      outcome: 'refused',
      failures: [
        { gate: 'placeholders', reason: 'placeholder {count} is missing' },
        { gate: 'plurals', reason: 'the plural on {count} was turned into plain text' },
      ],
    });
  });

  it('refuses a Polish plural key with the English forms', () => {
    const report = runGates(row({ targetLocale: 'pl', source: '%d dogs', sourcePlurals: { one: '%d dog', other: '%d dogs' }, target: '%d psów', targetPlurals: { one: '%d pies', other: '%d psów' } }));
    expect(report.outcome).toBe('refused');
    expect(report.failures).toEqual([
      { gate: 'plurals', reason: 'plural form "few" is missing (pl needs one, few, many, other)' },
      { gate: 'plurals', reason: 'plural form "many" is missing (pl needs one, few, many, other)' },
    ]);
  });

  it('refuses a forbidden term, matched as a whole word', () => {
    expect(runGates(row({ source: 'Verify your cell phone number', target: 'Bestätigen Sie Ihre Handynummer' }))).toEqual({ outcome: 'passed', failures: [] });
    expect(runGates(row({ source: 'Verify your cell phone', target: 'Bestätigen Sie Ihr Handy' }))).toEqual({
      outcome: 'refused',
      failures: [{ gate: 'glossary', reason: 'forbidden term "Handy" appears' }],
    });
  });

  it('exports the four checks, the term helpers and the contract', () => {
    expect(gates.GATE_NAMES).toEqual(['placeholders', 'plurals', 'glossary', 'length']);
    for (const fn of [gates.checkPlaceholders, gates.checkPlurals, gates.checkGlossary, gates.checkLength, gates.termsInSource, gates.containsTerm, gates.displayLength]) {
      expect(fn).toBeTypeOf('function');
    }
  });
});
