/** The edge whitespace a machine translation keeps from its source (issue 14), alone and in the pipeline's row shapes. */
import { describe, expect, it } from 'vitest';
import { keepEdgeWhitespace, splitEdgeWhitespace } from '../../src/core/edge-whitespace.js';
import { runGates } from '../../src/core/gates/index.js';
import { assemble, shapeOf } from '../../server/services/quality/row-shape.js';

describe('splitEdgeWhitespace', () => {
  it('cuts off the runs of line breaks, spaces and tabs at both ends', () => {
    expect(splitEdgeWhitespace('\n\t Hello,\n world \r\n')).toEqual({ leading: '\n\t ', core: 'Hello,\n world', trailing: ' \r\n' });
    expect(splitEdgeWhitespace('Hello')).toEqual({ leading: '', core: 'Hello', trailing: '' });
    expect(splitEdgeWhitespace(' \n ')).toEqual({ leading: ' \n ', core: '', trailing: '' });
    expect(splitEdgeWhitespace('')).toEqual({ leading: '', core: '', trailing: '' });
  });

  it('leaves a no-break space in the core: it is typography, not layout', () => {
    expect(splitEdgeWhitespace('\u00a0Nom :\u00a0\n')).toEqual({ leading: '', core: '\u00a0Nom :\u00a0', trailing: '\n' });
  });

  it('takes linear time on a long run of spaces', () => {
    const text = `a${' '.repeat(200_000)}a${' '.repeat(200_000)}`;
    const started = performance.now();
    expect(splitEdgeWhitespace(text).trailing).toHaveLength(200_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('keepEdgeWhitespace', () => {
  it.each<[where: string, source: string, translation: string, expected: string]>([
    ['a dropped trailing line break comes back (msgfmt --check)', 'Hello\n', 'Hallo', 'Hallo\n'],
    ['dropped line breaks at both ends come back', '\nHello\n', 'Hallo', '\nHallo\n'],
    ['a changed run is replaced by the source run', '\n\tUsage\n\n', ' Verwendung\n', '\n\tVerwendung\n\n'],
    ['spaces count too', '  Name: ', 'Nom :', '  Nom : '],
    ['whitespace the source does not have is removed', 'Save', '\nSpeichern \n', 'Speichern'],
    ['CR LF is kept as the source has it', 'Line\r\n', 'Zeile\n', 'Zeile\r\n'],
    ['line breaks inside the text are the translation\'s', 'Line one\nline two\n', 'Zeile eins und zwei', 'Zeile eins und zwei\n'],
    ['an unchanged translation stays as it is', '\nHello\n', '\nHallo\n', '\nHallo\n'],
    ['a whitespace-only source has no core to anchor to', '\n', ' x ', ' x '],
    ['an empty answer stays empty', 'Hello\n', '', ''],
    ['a whitespace-only answer is not dressed up', 'Hello\n', ' ', ' '],
  ])('%s', (_where, source, translation, expected) => {
    expect(keepEdgeWhitespace(source, translation)).toBe(expected);
  });

  it('makes the placeholders gate pass where only the edges were wrong', () => {
    const cases: [source: string, translation: string][] = [['Hello\n', 'Hallo'], ['\n\nHello', ' Hallo'], ['Hello', 'Hallo\n']];
    for (const [source, translation] of cases) {
      expect(runGates({ sourceLocale: 'en', targetLocale: 'de', source, target: translation }).outcome).toBe('refused');
      expect(runGates({ sourceLocale: 'en', targetLocale: 'de', source, target: keepEdgeWhitespace(source, translation) }).outcome).toBe('passed');
    }
  });
});

describe('assemble', () => {
  /** Answers by part name, the provider's (masked) text for each; here with every edge stripped, as a model might. */
  const stripped = (shape: ReturnType<typeof shapeOf>, translate: (masked: string) => string) =>
    new Map(shape.parts.map((p) => [p.name, translate(p.masked.trim())]));

  it('restores a plain string', () => {
    const shape = shapeOf('\nYou have {count} messages\n', null, 'de');
    expect(assemble(shape, stripped(shape, (m) => m.replace('You have', 'Sie haben').replace('messages', 'Nachrichten')))).toEqual({
      text: '\nSie haben {count} Nachrichten\n',
      plurals: null,
    });
  });

  it('restores each plural form from the source form of its category, falling back to other', () => {
    const shape = shapeOf('%d files\n\n', { one: '\nOne file\n', other: '%d files\n\n' }, 'pl');
    const { plurals } = assemble(shape, stripped(shape, (m) => `${m} (pl)\n`));
    expect(plurals).toEqual({ one: '\nOne file (pl)\n', few: '%d files (pl)\n\n', many: '%d files (pl)\n\n', other: '%d files (pl)\n\n' });
  });

  it('puts an ICU string\'s edge whitespace back outside the plural, where the source has it', () => {
    const source = '\n  {count, plural, =0 {No photos} one {# photo} other {# photos}}\n';
    const shape = shapeOf(source, null, 'pl');
    const value = assemble(shape, stripped(shape, (m) => `${m} (pl)`));
    expect(value).toEqual({ text: '\n  {count, plural, =0 {No photos (pl)} one {# photo (pl)} few {# photos (pl)} many {# photos (pl)} other {# photos (pl)}}\n', plurals: null });
    expect(runGates({ sourceLocale: 'en', targetLocale: 'pl', source, target: value.text }).outcome).toBe('passed');
  });

  it('keeps an ICU prefix\'s text inside the branches and only its edge whitespace outside', () => {
    const shape = shapeOf('\nTotal: {count, plural, one {# file} other {# files}}.\n', null, 'de');
    expect(assemble(shape, stripped(shape, (m) => m.replace('Total', 'Gesamt').replace('files', 'Dateien').replace('file', 'Datei'))).text).toBe(
      '\n{count, plural, one {Gesamt: # Datei.} other {Gesamt: # Dateien.}}\n',
    );
  });
});
