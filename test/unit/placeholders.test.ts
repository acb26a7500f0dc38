/** Tokenizer, placeholder extraction and masking against real-world strings from the common i18n ecosystems. */
import { describe, expect, it } from 'vitest';
import { mask, placeholdersOf, tokenize, unmask, type Segment } from '../../src/core/placeholders.js';

const kinds = (text: string) => tokenize(text).map((s) => [s.kind, s.value]);
const protectedOf = (text: string) => tokenize(text).filter((s) => s.kind !== 'text').map((s) => s.value);
const textOf = (text: string) => tokenize(text).filter((s) => s.kind === 'text').map((s) => s.value);

const CASES: Array<[ecosystem: string, input: string, placeholders: string[]]> = [
  // i18next / Handlebars / Angular / Vue
  ['i18next', 'Hello {{name}}, welcome back!', ['{{name}}']],
  ['i18next', 'You have {{ count }} new messages', ['{{ count }}']],
  ['i18next', 'Total: {{val, number}} ({{- rawHtml}})', ['{{val, number}}', '{{- rawHtml}}']],
  ['i18next', 'See $t(common.terms) for details', ['$t(common.terms)']],
  ['handlebars', 'Signed in as {{{user.html}}}', ['{{{user.html}}}']],
  ['vue-i18n', 'Hello {name}, you are {age}', ['{name}', '{age}']],
  // ICU / FormatJS / Angular / Flutter ARB
  ['icu', 'Hello {name}!', ['{name}']],
  ['icu', 'Uploaded {size, number, ::compact-short} on {date, date, medium}', ['{size, number, ::compact-short}', '{date, date, medium}']],
  ['icu', 'Due {d, time, short}', ['{d, time, short}']],
  ['icu', '{count, plural, one {# file} other {# files}} selected', []],
  ['icu', '{count, plural, =0 {No items} one {{name} has one item} other {{name} has # items}}', ['{name}', '{name}']],
  ['arb', 'Welcome, {userName}', ['{userName}']],
  // printf / C / Objective-C / Swift / Android / Java
  ['printf', 'Copied %d files (%s)', ['%d', '%s']],
  ['printf', 'Progress: %.1f%% complete', ['%.1f', '%%']],
  ['printf', 'Size %lld bytes, %ld blocks, %u items, %x hex, %i ints', ['%lld', '%ld', '%u', '%x', '%i']],
  ['printf', '%-10s|%05d|%+.2e', ['%-10s', '%05d', '%+.2e']],
  ['ios', '%@ liked your photo', ['%@']],
  ['ios', '%2$@ was shared by %1$@', ['%2$@', '%1$@']],
  ['ios', 'You have %#@messages@', ['%#@messages@']],
  ['android', 'Welcome %1$s! You have %2$d new messages.', ['%1$s', '%2$d']],
  ['android', 'Battery at %1$d%%', ['%1$d', '%%']],
  ['java', 'Line %1$s%n', ['%1$s', '%n']],
  ['qt', 'Delete %1 of %2 files?', ['%1', '%2']],
  ['python', 'Hello %(name)s, you owe %(amount).2f', ['%(name)s', '%(amount).2f']],
  ['python', 'Hello {}, you are {0!r} and {name:>10}', ['{}', '{0!r}', '{name:>10}']],
  // Ruby on Rails
  ['rails', 'Hello %{name}, you have %{count} messages', ['%{name}', '%{count}']],
  ['ruby', 'Total %<amount>.2f', ['%<amount>.2f']],
  // Laravel
  ['laravel', 'The :attribute must be at least :min characters.', [':attribute', ':min']],
  ['laravel', 'Welcome, :Name! (:count)', [':Name', ':count']],
  ['laravel', ':attribute is required', [':attribute']],
  // .NET
  ['dotnet', 'Hello {0}, your balance is {1:C}', ['{0}', '{1:C}']],
  ['dotnet', 'Name: {0,-20} Age: {1,5:N0}', ['{0,-20}', '{1,5:N0}']],
  // JS templates, Chrome extensions
  ['template', 'Hello ${user.firstName}', ['${user.firstName}']],
  ['chrome', 'Signed in as $USER$', ['$USER$']],
  // Things that must stay prose
  ['prose', 'Visit https://example.com/docs or http://localhost:8080/x', []],
  ['prose', 'Note: this cannot be undone.', []],
  ['prose', 'Meeting at 10:30, ratio 16:9', []],
  ['prose', 'Save 50% off today, 100 % sure', []],
  ['prose', 'Hello world', []],
  ['prose', '', []],
];

describe('placeholdersOf', () => {
  it.each(CASES)('%s: %j', (_eco, input, expected) => {
    expect(placeholdersOf(input)).toEqual(expected);
  });
});

describe('tokenize', () => {
  it('is lossless: segments concatenate back to the input', () => {
    const samples = [
      ...CASES.map((c) => c[1]),
      'Use { carefully and } other {broken, plural, one {x}',
      '<p>Hi <b>{name}</b>,<br/>read the <a href="https://x.io/?a=1&amp;b=2" target=_blank>terms</a> &nbsp;&#169;&#x2014;</p>',
      '{g, select, male {He} female {She} other {They}} said {n, plural, offset:1 =0 {nothing} other {# things}}',
    ];
    for (const s of samples) expect(tokenize(s).map((x: Segment) => x.value).join('')).toBe(s);
  });

  it('never returns two adjacent text segments', () => {
    const segs = tokenize('a {b} c %d e :f g');
    for (let i = 1; i < segs.length; i++) expect(segs[i - 1]?.kind === 'text' && segs[i]?.kind === 'text').toBe(false);
  });

  it('classifies HTML and XML tags, comments and entities as markup', () => {
    expect(kinds('Click <a href="/x" class=\'btn\'>here</a> &amp; <br/> <br> <img src="a.png" /> <!-- note -->')).toEqual([
      ['text', 'Click '],
      ['markup', '<a href="/x" class=\'btn\'>'],
      ['text', 'here'],
      ['markup', '</a>'],
      ['text', ' '],
      ['markup', '&amp;'],
      ['text', ' '],
      ['markup', '<br/>'],
      ['text', ' '],
      ['markup', '<br>'],
      ['text', ' '],
      ['markup', '<img src="a.png" />'],
      ['text', ' '],
      ['markup', '<!-- note -->'],
    ]);
  });

  it('handles Android xliff:g wrappers with the placeholder inside', () => {
    const s = 'Hello <xliff:g id="user" example="Bob">%1$s</xliff:g>!';
    expect(kinds(s)).toEqual([
      ['text', 'Hello '],
      ['markup', '<xliff:g id="user" example="Bob">'],
      ['placeholder', '%1$s'],
      ['markup', '</xliff:g>'],
      ['text', '!'],
    ]);
    expect(placeholdersOf(s)).toEqual(['%1$s']);
  });

  it('keeps prose comparisons and stray brackets as text', () => {
    expect(protectedOf('if a < b and 3 > 2')).toEqual([]);
    expect(protectedOf('AT&T and R&D; 5 < 6')).toEqual([]);
    expect(protectedOf('Use {curly braces} wisely')).toEqual([]);
    expect(protectedOf('a } b { c')).toEqual([]);
  });

  it('protects ICU plural structure and # but keeps branch text translatable', () => {
    expect(kinds('You have {count, plural, =0 {no messages} one {# message} other {# messages}}.')).toEqual([
      ['text', 'You have '],
      ['icu', '{count, plural, =0 {'],
      ['text', 'no messages'],
      ['icu', '} one {'],
      ['icu', '#'],
      ['text', ' message'],
      ['icu', '} other {'],
      ['icu', '#'],
      ['text', ' messages'],
      ['icu', '}}'],
      ['text', '.'],
    ]);
  });

  it('handles select, selectordinal, offset and nesting recursively', () => {
    const s =
      '{gender, select, female {{count, plural, offset:1 one {She and # other} other {She and # others}}} other {{count, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}}}';
    expect(textOf(s)).toEqual(['She and ', ' other', 'She and ', ' others', 'st', 'nd', 'rd', 'th']);
    expect(protectedOf(s).filter((v) => v === '#')).toHaveLength(6);
    expect(tokenize(s).map((x) => x.value).join('')).toBe(s);
  });

  it('leaves # as text outside plural branches', () => {
    expect(protectedOf('Issue #42')).toEqual([]);
    expect(protectedOf('{g, select, male {Ticket #1} other {Ticket #2}}')).not.toContain('#');
  });

  it('treats malformed ICU as literal text rather than swallowing the rest', () => {
    const s = 'Broken {count, plural, one {# item} and more {name}';
    expect(placeholdersOf(s)).toEqual(['{name}']);
    expect(protectedOf(s)).not.toContain('#');
  });

  it('stays fast and lossless on malformed or hostile input', () => {
    const inputs = [
      '{a, plural, one {'.repeat(3000),
      '{a, number, '.repeat(3000),
      '{a, plural, one {'.repeat(500) + 'x' + '}}'.repeat(500),
      '{'.repeat(20000) + '}'.repeat(100),
      '<a ' + 'x=y '.repeat(10000),
      '%'.repeat(10000) + ' :a'.repeat(10000),
    ];
    const started = performance.now();
    for (const s of inputs) expect(tokenize(s).map((x) => x.value).join('')).toBe(s);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('applies the Laravel rule: start, space or punctuation before; letter after', () => {
    expect(placeholdersOf(':name joined')).toEqual([':name']);
    expect(placeholdersOf('(:count) items, "quoted :value"')).toEqual([':count', ':value']);
    expect(placeholdersOf('foo:bar, std::vector, 12:30, ::x')).toEqual([]);
    expect(placeholdersOf('Status: :status')).toEqual([':status']);
  });
});

describe('mask / unmask', () => {
  it('replaces every protected segment with a numbered <ph/> and round-trips', () => {
    const s = 'Hi <b>{name}</b>, %1$s and :count &amp; {n, plural, one {# day} other {# days}}';
    const { masked, tokens } = mask(s);
    expect(masked).toBe(
      'Hi <ph id="0"/><ph id="1"/><ph id="2"/>, <ph id="3"/> and <ph id="4"/> <ph id="5"/> <ph id="6"/><ph id="7"/> day<ph id="8"/><ph id="9"/> days<ph id="10"/>',
    );
    expect(tokens).toEqual(['<b>', '{name}', '</b>', '%1$s', ':count', '&amp;', '{n, plural, one {', '#', '} other {', '#', '}}']);
    expect(unmask(masked, tokens)).toEqual({ ok: true, text: s });
  });

  it('leaves text without placeholders unchanged', () => {
    expect(mask('Just text')).toEqual({ masked: 'Just text', tokens: [] });
    expect(unmask('Nur Text', [])).toEqual({ ok: true, text: 'Nur Text' });
  });

  it('allows reordering placeholders in a translation', () => {
    const { masked, tokens } = mask('%1$@ shared %2$@');
    expect(masked).toBe('<ph id="0"/> shared <ph id="1"/>');
    expect(unmask('<ph id="1"/> wurde von <ph id="0"/> geteilt', tokens)).toEqual({ ok: true, text: '%2$@ wurde von %1$@ geteilt' });
  });

  it('tolerates small reformatting of the tokens by a translator', () => {
    const { tokens } = mask('{a} and {b} and {c}');
    expect(unmask("<ph id='0' /> und <ph id=1></ph> und <ph  id = \"2\">", tokens)).toEqual({ ok: true, text: '{a} und {b} und {c}' });
  });

  it('reports missing, unknown and duplicated ids', () => {
    const { tokens } = mask('{a} {b} {c}');
    const missing = unmask('<ph id="0"/> <ph id="2"/>', tokens);
    expect(missing).toEqual({ ok: false, reason: expect.stringContaining('missing placeholder ids 1') });
    const unknown = unmask('<ph id="0"/> <ph id="1"/> <ph id="2"/> <ph id="7"/>', tokens);
    expect(unknown).toEqual({ ok: false, reason: expect.stringContaining('unknown placeholder ids 7') });
    const dup = unmask('<ph id="0"/> <ph id="1"/> <ph id="1"/> <ph id="2"/>', tokens);
    expect(dup).toEqual({ ok: false, reason: expect.stringContaining('duplicated placeholder ids 1') });
    const all = unmask('<ph id="0"/><ph id="0"/><ph id="9"/>', tokens);
    expect(all.ok).toBe(false);
    if (!all.ok) expect(all.reason).toMatch(/missing placeholder ids 1, 2.*unknown placeholder ids 9.*duplicated placeholder ids 0/);
  });

  it('rejects a translation that reorders ICU structure', () => {
    const { masked, tokens } = mask('{n, plural, one {# day} other {# days}}');
    expect(masked).toBe('<ph id="0"/><ph id="1"/> day<ph id="2"/><ph id="3"/> days<ph id="4"/>');
    expect(unmask('<ph id="0"/><ph id="1"/> Tag<ph id="2"/><ph id="3"/> Tage<ph id="4"/>', tokens)).toEqual({
      ok: true,
      text: '{n, plural, one {# Tag} other {# Tage}}',
    });
    const swapped = unmask('<ph id="0"/><ph id="1"/> Tag<ph id="4"/><ph id="3"/> Tage<ph id="2"/>', tokens);
    expect(swapped.ok).toBe(false);
    if (!swapped.ok) expect(swapped.reason).toContain('ICU structure');
  });

  it('masks literal <ph/> in a source so it cannot collide with the mask tokens', () => {
    const { masked, tokens } = mask('Literal <ph id="0"/> here {x}');
    expect(tokens).toEqual(['<ph id="0"/>', '{x}']);
    expect(unmask(masked, tokens)).toEqual({ ok: true, text: 'Literal <ph id="0"/> here {x}' });
  });
});
