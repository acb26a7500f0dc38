// Unit tests for the shared ICU plural reader and writer: what counts as one plural, folding surrounding text, and round trips.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldIcuPlural, parseIcuPlural, writeIcuPlural } from '../../src/core/formats/icu-plural.js';
import { PLURAL_CATEGORIES, type PluralForms } from '../../src/core/formats/codec.js';

describe('parseIcuPlural', () => {
  it('reads a whole-value plural with exact matches, keeping # and nested arguments raw', () => {
    expect(parseIcuPlural('{count, plural, =0 {No items} one {# item} other {{count} items for {name}}}')).toEqual({
      argument: 'count',
      forms: { one: '# item', other: '{count} items for {name}' },
      exact: { '=0': 'No items' },
      prefix: '',
      suffix: '',
    });
  });

  it('reads the offset and keeps sub-messages verbatim, whitespace and quoting included', () => {
    expect(parseIcuPlural("{ n ,plural,offset:1\n=1 {{host}} one{ '#' and # } other  {It''s '{x}'}}")).toEqual({
      argument: 'n',
      offset: 1,
      forms: { one: " '#' and # ", other: "It''s '{x}'" },
      exact: { '=1': '{host}' },
      prefix: '',
      suffix: '',
    });
  });

  it('returns text around the plural as raw prefix and suffix', () => {
    expect(parseIcuPlural('I have {count, plural, one {one dog} other {{count} dogs}}, {name}.')).toMatchObject({
      prefix: 'I have ',
      suffix: ', {name}.',
      forms: { one: 'one dog', other: '{count} dogs' },
    });
    expect(parseIcuPlural('{a, number, ::currency/EUR} for {n, plural, other {# x}}')?.prefix).toBe('{a, number, ::currency/EUR} for ');
  });

  it('keeps nested plurals and selects inside forms', () => {
    const parsed = parseIcuPlural('{a, plural, one {{b, plural, one {x} other {y}}} other {{g, select, f {F} other {O}}}}');
    expect(parsed?.forms).toEqual({ one: '{b, plural, one {x} other {y}}', other: '{g, select, f {F} other {O}}' });
  });

  it.each([
    ['plain text', 'Hello {name}'],
    ['a select', '{g, select, male {He} other {They}}'],
    ['a selectordinal', '{n, selectordinal, one {#st} other {#th}}'],
    ['two plurals', '{a, plural, other {x}} {b, plural, other {y}}'],
    ['a plural beside a select', '{g, select, other {x}} {b, plural, other {y}}'],
    ['no other form', '{n, plural, one {x}}'],
    ['a non-CLDR selector', '{n, plural, one {x} lots {y} other {z}}'],
    ['a repeated selector', '{n, plural, one {x} one {y} other {z}}'],
    ['an unclosed form', '{n, plural, one {x} other {y}'],
    ['a stray closing brace', '{n, plural, other {y}}}'],
    ['a quoted plural', "'{n, plural, other {y}}'"],
    ['an unterminated quote in a form', "{n, plural, other {it'{s}}"],
    ['a missing argument name', '{, plural, other {y}}'],
    ['a bad offset', '{n, plural, offset:x other {y}}'],
    ['a bad exact value', '{n, plural, =x {a} other {y}}'],
    ['a form without braces', '{n, plural, one x other {y}}'],
    ['a plural without options', '{n, plural}'],
    ['an empty string', ''],
  ])('returns undefined for %s', (_, text) => {
    expect(parseIcuPlural(text)).toBeUndefined();
  });
});

describe('foldIcuPlural', () => {
  it('moves prefix and suffix into every form and exact match', () => {
    const parsed = parseIcuPlural('You have {n, plural, =0 {no mail} one {# mail} other {# mails}}!')!;
    expect(foldIcuPlural(parsed)).toEqual({
      forms: { one: 'You have # mail!', other: 'You have # mails!' },
      exact: { '=0': 'You have no mail!' },
    });
  });

  it('keeps a whole-value plural as it is, in CLDR order', () => {
    const parsed = parseIcuPlural('{n, plural, other {o} one {1} zero {0}}')!;
    const folded = foldIcuPlural(parsed)!;
    expect(Object.keys(folded.forms)).toEqual(['zero', 'one', 'other']);
  });

  it('refuses where moving text would change its meaning', () => {
    // `#` outside the plural is literal; inside a form it is the number.
    expect(foldIcuPlural(parseIcuPlural('#{n, plural, other {x}}')!)).toBeUndefined();
    // An apostrophe at a seam could pair with one across it; apostrophes away from the seams are fine.
    expect(foldIcuPlural(parseIcuPlural("x''{n, plural, other {y}}")!)).toBeUndefined();
    expect(foldIcuPlural(parseIcuPlural("{n, plural, other {y}}'{z}'")!)).toBeUndefined();
    expect(foldIcuPlural(parseIcuPlural("a {n, plural, other {'{x}' b}}")!)).toBeUndefined();
    expect(foldIcuPlural(parseIcuPlural("it's {n, plural, other {'{x}'}}")!)).toBeUndefined();
    expect(foldIcuPlural(parseIcuPlural("it's {n, plural, other {a '{x}' b}} ok")!)?.forms).toEqual({ other: "it's a '{x}' b ok" });
    // With nothing around the plural there is no seam.
    expect(foldIcuPlural(parseIcuPlural("{n, plural, other {'{x}'}}")!)?.forms).toEqual({ other: "'{x}'" });
  });
});

describe('writeIcuPlural', () => {
  it('writes exact matches first, then forms in CLDR order', () => {
    expect(writeIcuPlural('count', { other: '# items', one: '# item', few: '# itemy' }, { '=0': 'None' })).toBe(
      '{count, plural, =0 {None} one {# item} few {# itemy} other {# items}}',
    );
  });

  it('writes the offset and adds a missing = to exact keys', () => {
    expect(writeIcuPlural('n', { other: 'x' }, { '1': 'one' }, 1)).toBe('{n, plural, offset:1 =1 {one} other {x}}');
  });

  it('writes only the given categories', () => {
    expect(writeIcuPlural('n', { other: 'ja' })).toBe('{n, plural, other {ja}}');
  });
});

describe('round trips', () => {
  // Sub-messages a translator may write: text, quoting, # and nested arguments; braces balanced as ICU requires.
  const piece = fc.constantFrom('a', ' ', '#', "''", "'{'", "'}'", '{name}', '{n, number}', '%s', '%1$s', '"', '\\', '\n', '🚀', 'مرحبا', 'שלום', 'é', '{g, select, a {A} other {B}}');
  const message = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
  const forms = fc.record(Object.fromEntries(PLURAL_CATEGORIES.map((c) => [c, message])) as Record<string, fc.Arbitrary<string>>, {
    requiredKeys: ['other'],
  }) as fc.Arbitrary<PluralForms>;
  const exact = fc.dictionary(fc.integer({ min: 0, max: 20 }).map((n) => `=${n}`), message, { maxKeys: 3 });
  const argument = fc.constantFrom('count', 'n', 'itemCount', 'x_1');
  const offset = fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined });

  it('writeIcuPlural output parses back to the same argument, offset, forms and exact matches', () => {
    fc.assert(
      fc.property(argument, forms, exact, offset, (arg, f, e, o) => {
        const parsed = parseIcuPlural(writeIcuPlural(arg, f, e, o));
        expect(parsed).toBeDefined();
        expect(parsed!.argument).toBe(arg);
        expect(parsed!.offset).toBe(o);
        expect(parsed!.forms).toEqual(f);
        expect(parsed!.exact).toEqual(e);
        expect([parsed!.prefix, parsed!.suffix]).toEqual(['', '']);
      }),
      { numRuns: 200 },
    );
  });

  it('folding then writing gives forms that parse back folded the same way', () => {
    const affix = fc.constantFrom('', 'You have ', '{name}: ', ' left.', ' — {when}');
    fc.assert(
      fc.property(argument, forms, affix, affix, (arg, f, prefix, suffix) => {
        const parsed = parseIcuPlural(`${prefix}${writeIcuPlural(arg, f)}${suffix}`)!;
        const folded = foldIcuPlural(parsed);
        if (!folded) return;
        const again = parseIcuPlural(writeIcuPlural(arg, folded.forms, folded.exact))!;
        expect(foldIcuPlural(again)).toEqual(folded);
      }),
      { numRuns: 200 },
    );
  });
});
