/** Pseudo-localisation keeps every placeholder, ICU structure and tag while visibly changing and expanding the text. */
import { describe, expect, it } from 'vitest';
import { placeholdersOf, tokenize } from '../../src/core/placeholders.js';
import { createPseudoProvider, pseudoLocalize, withGlossary } from '../../server/providers/pseudo.js';
import { runGates } from '../../src/core/gates/index.js';

const literalLength = (s: string) =>
  tokenize(s)
    .filter((x) => x.kind === 'text')
    .reduce((n, x) => n + x.value.length, 0);
const structure = (s: string) => tokenize(s).filter((x) => x.kind !== 'text').map((x) => x.value);

/** Balanced braces and every plural/select argument followed by at least one `selector {...}` branch. */
function looksLikeIcu(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === '{') depth++;
    else if (ch === '}' && --depth < 0) return false;
  }
  if (depth !== 0) return false;
  const heads = [...s.matchAll(/\{\s*\w+\s*,\s*(plural|select|selectordinal)\s*,/g)];
  return heads.every((m) => /^\s*(offset:\d+\s*)?(=\d+|\w+)\s*\{/.test(s.slice((m.index ?? 0) + m[0].length)));
}

const SAMPLES = [
  'Hello {{name}}, welcome back to {{ appName }}!',
  'Hello {name}, you are {age, number} years old',
  'You have {count, plural, =0 {no new messages} one {# new message} other {# new messages}} today',
  '{gender, select, female {She shared {count, plural, one {# photo} other {# photos}}} other {They shared some photos}}',
  'Copied %d of %lld files (%.1f%% done) to %s, %i %u %x',
  '%2$@ was shared by %1$@ on %3$s',
  'Hello %{name}, you have %{count} unread notifications',
  'The :attribute field must be at least :min characters.',
  'Hello {0}, your balance is {1:C} as of {2:d}',
  'Read the <a href="https://example.com/terms">terms &amp; conditions</a> before <b>continuing</b>.<br/>',
  'Hello <xliff:g id="user" example="Bob">%1$s</xliff:g>, your order shipped',
  'Hello %(name)s, your invoice is ready at http://example.com/x',
];

describe('pseudoLocalize', () => {
  it.each(SAMPLES)('keeps placeholders, ICU syntax and markup: %s', (input) => {
    for (const pass of ['fast', 'careful'] as const) {
      const out = pseudoLocalize(input, pass);
      expect(out).not.toBe(input);
      expect(placeholdersOf(out)).toEqual(placeholdersOf(input));
      expect(structure(out)).toEqual(structure(input));
    }
  });

  it('expands sentences by roughly 30%', () => {
    for (const input of SAMPLES) {
      const ratio = literalLength(pseudoLocalize(input, 'fast')) / literalLength(input);
      expect(ratio, input).toBeGreaterThanOrEqual(1.2);
      expect(ratio, input).toBeLessThanOrEqual(1.5);
    }
  });

  it('accents letters readably and leaves digits and punctuation alone', () => {
    expect(pseudoLocalize('Hello World 42!', 'fast')).toMatch(/^\[Ĥéļļö Ŵöŕļð 42!·+\]$/);
  });

  it('shows the pass in the brackets', () => {
    expect(pseudoLocalize('Save', 'fast')).toMatch(/^\[.*\]$/);
    expect(pseudoLocalize('Save', 'careful')).toMatch(/^⟦.*⟧$/);
  });

  it('pads short strings at least a little', () => {
    expect(literalLength(pseudoLocalize('OK', 'fast'))).toBeGreaterThan(2 + 2);
    expect(pseudoLocalize('OK', 'fast')).toContain('·');
  });

  it('is deterministic', () => {
    for (const input of SAMPLES) expect(pseudoLocalize(input, 'fast')).toBe(pseudoLocalize(input, 'fast'));
  });

  it('keeps ICU plural messages parseable and pads every branch', () => {
    const input = '{count, plural, =0 {No files} one {# file} other {# files}}';
    const out = pseudoLocalize(input, 'fast');
    expect(looksLikeIcu(input)).toBe(true);
    expect(looksLikeIcu(out)).toBe(true);
    expect(out).toMatch(/^\[\{count, plural, =0 \{Ñö ƒîļéš·+\} one \{# ƒîļé·+\} other \{# ƒîļéš·+\}\}\]$/);
    for (const sample of SAMPLES) expect(looksLikeIcu(pseudoLocalize(sample, 'careful'))).toBe(looksLikeIcu(sample));
  });

  it('keeps empty strings empty and the whitespace at both ends outside the brackets', () => {
    expect(pseudoLocalize('', 'fast')).toBe('');
    expect(pseudoLocalize(' \n', 'fast')).toBe(' \n');
    // msgfmt --check refuses a msgstr that does not end with "\n" where its msgid does.
    expect(pseudoLocalize('Line\n', 'fast')).toMatch(/^\[Ļîñé·+\]\n$/);
    expect(pseudoLocalize('\n\t Two\nlines  \n\n', 'careful')).toMatch(/^\n\t ⟦Ţŵö\nļîñéš·+⟧ {2}\n\n$/);
    expect(pseudoLocalize('{n, plural, one {# line\n} other {# lines\n}}', 'fast')).toMatch(/^\[\{n, plural, one \{# ļîñé·+\n\} other \{# ļîñéš·+\n\}\}\]$/);
    expect(pseudoLocalize('{name}', 'fast')).toBe('[{name}]');
  });
});

describe('createPseudoProvider', () => {
  it('translates every row with the pass visible', async () => {
    const provider = createPseudoProvider();
    expect(provider.name).toBe('pseudo');
    const rows = [
      { id: 'a', key: 'greeting', text: 'Hello {name}' },
      { id: 'b', key: 'count', text: '%d items' },
    ];
    const fast = await provider.translate({ sourceLocale: 'en', targetLocale: 'de', pass: 'fast', rows });
    expect(fast).toEqual([
      { id: 'a', ok: true, text: pseudoLocalize('Hello {name}', 'fast') },
      { id: 'b', ok: true, text: pseudoLocalize('%d items', 'fast') },
    ]);
    const careful = await provider.translate({ sourceLocale: 'en', targetLocale: 'de', pass: 'careful', rows });
    expect(careful.every((r) => r.ok && r.text.startsWith('⟦'))).toBe(true);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      createPseudoProvider().translate({ sourceLocale: 'en', targetLocale: 'de', pass: 'fast', rows: [], signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe('pseudo and the glossary', () => {
  const glossary = [
    { term: 'Dashboard', translation: 'Übersicht', forbidden: false },
    { term: 'Parlance', forbidden: false },
    { term: 'cell phone', translation: 'Handy', forbidden: true },
  ];

  it('writes locked terms as their translation, or unchanged, and accents the rest', () => {
    const out = withGlossary('Open the dashboard in Parlance', glossary, (t) => pseudoLocalize(t, 'fast'));
    expect(out).toContain('Übersicht');
    expect(out).toContain('Parlance');
    expect(out).not.toMatch(/dashboard/i);
    expect(out.startsWith('[Öþéñ ţĥé Übersicht îñ Parlance')).toBe(true);
  });

  it('gives output that passes the glossary gate', async () => {
    const [row] = await createPseudoProvider().translate({
      sourceLocale: 'en',
      targetLocale: 'de',
      pass: 'fast',
      rows: [{ id: '1', key: 'k', text: 'Charge your cell phone from the Dashboard', glossary }],
    });
    expect(row?.ok).toBe(true);
    const terms = [
      { term: 'Dashboard', caseSensitive: false, forbidden: false, translations: { de: 'Übersicht' } },
      { term: 'cell phone', caseSensitive: false, forbidden: true, translations: { de: 'Handy' } },
    ];
    const report = runGates({ sourceLocale: 'en', targetLocale: 'de', source: 'Charge your cell phone from the Dashboard', target: (row as { text: string }).text, glossary: terms });
    expect(report).toEqual({ outcome: 'passed', failures: [] });
  });
});
