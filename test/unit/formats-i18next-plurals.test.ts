// Unit tests for i18next plural families in the json codecs: parse, render, round trips, ordinals, the `plurals` modes, and
// the gates on `{{count}}` forms.
import { describe, expect, it } from 'vitest';
import { jsonCodec, jsonNestedCodec, type Codec, type Entry, type PluralForms, type Value } from '../../src/core/formats/index.js';
import { placeholdersOf } from '../../src/core/placeholders.js';
import { runGates } from '../../src/core/gates/index.js';
import { handEdits } from '../../server/github-app/handlers/push.js';
import { parseError } from '../helpers/formats.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
const CODECS: [string, Codec][] = [
  ['json', jsonCodec],
  ['json_nested', jsonNestedCodec],
];

const FLAT = `{
  "title": "My shop",
  "items_one": "{{count}} item",
  "items_other": "{{count}} items",
  "checkout": "Check out"
}
`;

const NESTED = `{
  "cart": {
    "title": "Cart",
    "items_one": "{{count}} item in your cart",
    "items_other": "{{count}} items in your cart"
  },
  "footer": "Bye"
}
`;

function render(codec: Codec, source: string, values: Record<string, Value>, locale?: string, missing: 'source' | 'omit' = 'omit'): string {
  return dec(codec.render({ source: enc(source), values: new Map(Object.entries(values)), missing, ...(locale ? { locale } : {}), sourceLocale: 'en' }));
}

/** The values a file's own entries give: rendering them must give the file back. */
function ownValues(entries: readonly Entry[]): Record<string, Value> {
  return Object.fromEntries(entries.map((e) => [e.key, e.plurals ? { plurals: e.plurals } : e.source]));
}

const PL: PluralForms = { one: '{{count}} rzecz', few: '{{count}} rzeczy', many: '{{count}} rzeczy (wiele)', other: '{{count}} rzeczy (ułamek)' };
const AR: PluralForms = { zero: 'لا عناصر', one: 'عنصر واحد', two: 'عنصران', few: '{{count}} عناصر', many: '{{count}} عنصرًا', other: '{{count}} عنصر' };
const JA: PluralForms = { other: '{{count}} 個' };

describe.each(CODECS)('%s', (_name, codec) => {
  it('reads a family with _other as one plural entry at the place of its first member', () => {
    const entries = codec.parse(enc(FLAT));
    expect(entries.map((e) => e.key)).toEqual(['title', 'items', 'checkout']);
    const items = entries[1]!;
    expect(items).toMatchObject({ key: 'items', path: ['items'], source: '{{count}} items', plurals: { one: '{{count}} item', other: '{{count}} items' }, line: 3 });
  });

  it('reads a nested family under its dotted base key', () => {
    const entries = codec.parse(enc(NESTED));
    expect(entries.map((e) => e.key)).toEqual(['cart.title', 'cart.items', 'footer']);
    expect(entries[1]).toMatchObject({ path: ['cart', 'items'], plurals: { one: '{{count}} item in your cart', other: '{{count}} items in your cart' } });
  });

  it('renders exactly the target locale categories in the family’s place: pl, ar, ja', () => {
    const pl = render(codec, FLAT, { title: 'Mój sklep', items: { plurals: PL }, checkout: 'Do kasy' }, 'pl');
    expect(pl).toBe(`{
  "title": "Mój sklep",
  "items_one": "{{count}} rzecz",
  "items_few": "{{count}} rzeczy",
  "items_many": "{{count}} rzeczy (wiele)",
  "items_other": "{{count}} rzeczy (ułamek)",
  "checkout": "Do kasy"
}
`);
    const ar = JSON.parse(render(codec, FLAT, { items: { plurals: AR } }, 'ar')) as Record<string, string>;
    expect(Object.keys(ar)).toEqual(['items_zero', 'items_one', 'items_two', 'items_few', 'items_many', 'items_other']);
    expect(ar.items_two).toBe('عنصران');
    const ja = JSON.parse(render(codec, FLAT, { title: 'マイショップ', items: { plurals: JA }, checkout: 'レジへ' }, 'ja')) as Record<string, string>;
    expect(ja).toEqual({ title: 'マイショップ', items_other: '{{count}} 個', checkout: 'レジへ' });
    // And each reads back as the same one plural entry.
    expect(codec.parse(enc(pl)).find((e) => e.key === 'items')!.plurals).toEqual(PL);
    expect(codec.parse(enc(JSON.stringify(ja))).find((e) => e.key === 'items')!.plurals).toEqual(JA);
  });

  it('writes a target’s categories from the value, dropping forms the locale does not use', () => {
    // A value carrying more than Japanese uses (a held candidate, an old translation) still gives exactly `other`.
    const ja = JSON.parse(render(codec, FLAT, { items: { plurals: { one: 'x', other: '{{count}} 個' } } }, 'ja'));
    expect(ja).toEqual({ items_other: '{{count}} 個' });
  });

  it('renders a nested family in its object, laid out as its members were', () => {
    const out = render(codec, NESTED, { 'cart.title': 'Koszyk', 'cart.items': { plurals: PL }, footer: 'Pa' }, 'pl');
    expect(out).toBe(`{
  "cart": {
    "title": "Koszyk",
    "items_one": "{{count}} rzecz",
    "items_few": "{{count}} rzeczy",
    "items_many": "{{count}} rzeczy (wiele)",
    "items_other": "{{count}} rzeczy (ułamek)"
  },
  "footer": "Pa"
}
`);
  });

  it('round-trips the source byte for byte when the values equal it (an English _zero included)', () => {
    const withZero = `{"a":"b",\t"n_zero" : "none",   "n_one":"one","x":"y","n_other":"{{count}}","ord_ordinal_one":"{{count}}st","ord_ordinal_two":"{{count}}nd","ord_ordinal_few":"{{count}}rd","ord_ordinal_other":"{{count}}th"}`;
    // Members out of CLDR order, and categories English does not use, are the source's own forms all the same.
    const reordered = '{\n  "n_other": "{{count}} items",\n  "n_one": "one item"\n}';
    const foreign = '{"n_two": "2", "n_few": "3", "n_other": "{{count}}"}';
    for (const source of [FLAT, NESTED, withZero, reordered, foreign]) {
      const entries = codec.parse(enc(source));
      expect(render(codec, source, ownValues(entries))).toBe(source);
      expect(render(codec, source, ownValues(entries), 'en')).toBe(source);
      expect(render(codec, source, {}, 'de', 'source')).toBe(source);
    }
  });

  it('keeps non-adjacent members in source order, the family where its first member stood', () => {
    const source = '{\n  "n_one": "1",\n  "x": "y",\n  "n_other": "{{count}}"\n}\n';
    const out = render(codec, source, { n: { plurals: { one: 'jeden', few: 'kilka', many: 'wiele', other: 'ułamek' } }, x: 'z' }, 'pl');
    expect(out).toBe('{\n  "n_one": "jeden",\n  "n_few": "kilka",\n  "n_many": "wiele",\n  "n_other": "ułamek",\n  "x": "z"\n}\n');
  });

  it('replaces the strings of a family in place, in the source’s order, when the target has its categories', () => {
    const source = '{\n  "n_other": "{{count}} items",\n  "n_one": "one item"\n}';
    expect(render(codec, source, { n: { plurals: { one: 'ein Ding', other: '{{count}} Dinge' } } }, 'de')).toBe('{\n  "n_other": "{{count}} Dinge",\n  "n_one": "ein Ding"\n}');
    // A target keeps i18next's _zero where the source family and the translation both have it, and only then.
    const zero = '{"n_zero": "none", "n_one": "one", "n_other": "many"}';
    expect(Object.keys(JSON.parse(render(codec, zero, { n: { plurals: { zero: 'kein', one: 'eins', other: 'viele' } } }, 'de')))).toEqual(['n_zero', 'n_one', 'n_other']);
    expect(Object.keys(JSON.parse(render(codec, zero, { n: { plurals: { one: 'eins', other: 'viele' } } }, 'de')))).toEqual(['n_one', 'n_other']);
    expect(Object.keys(JSON.parse(render(codec, FLAT, { items: { plurals: { zero: 'kein', one: 'eins', other: 'viele' } } }, 'de')))).toEqual(['items_one', 'items_other']);
  });

  it('leaves out a family whose value has no forms, keeping the file valid', () => {
    expect(JSON.parse(render(codec, FLAT, { title: 'T', items: { plurals: {} } }))).toEqual({ title: 'T' });
  });

  it('compact files stay compact', () => {
    const out = render(codec, '{"n_one":"1","n_other":"n"}', { n: { plurals: { other: 'n' } } }, 'ja');
    expect(out).toBe('{"n_other":"n"}');
  });

  it('leaves a family without a value out with missing: omit, and the rest of the file as it was', () => {
    expect(JSON.parse(render(codec, FLAT, { title: 'T' }, 'pl'))).toEqual({ title: 'T' });
  });

  it('reads ordinals with the source’s ordinal forms and writes the target’s ordinal categories', () => {
    const source = '{\n  "place_ordinal_one": "{{count}}st",\n  "place_ordinal_two": "{{count}}nd",\n  "place_ordinal_few": "{{count}}rd",\n  "place_ordinal_other": "{{count}}th"\n}\n';
    const [entry] = codec.parse(enc(source));
    expect(entry).toMatchObject({ key: 'place_ordinal', plurals: { one: '{{count}}st', two: '{{count}}nd', few: '{{count}}rd', other: '{{count}}th' } });
    // Polish ordinals have `other` only (CLDR), whatever cardinal forms the value carries.
    expect(JSON.parse(render(codec, source, { place_ordinal: { plurals: PL } }, 'pl'))).toEqual({ place_ordinal_other: PL.other });
    // French ordinals: one (1er) and other (2e).
    expect(Object.keys(JSON.parse(render(codec, source, { place_ordinal: { plurals: { one: '{{count}}er', many: 'x', other: '{{count}}e' } } }, 'fr')))).toEqual([
      'place_ordinal_one',
      'place_ordinal_other',
    ]);
    // A fresh English file gets English ordinal categories (1st, 2nd, 3rd, 4th), `other`'s form where the value has none.
    expect(JSON.parse(dec(codec.renderFresh([{ key: 'place_ordinal', value: { plurals: { one: 'a', other: 'b' } } }], { locale: 'en' })))).toEqual({
      place_ordinal_one: 'a',
      place_ordinal_two: 'b',
      place_ordinal_few: 'b',
      place_ordinal_other: 'b',
    });
  });

  it('keeps a family without _other as separate keys, and reads it as one plural with plurals: i18next', () => {
    const source = '{"items_one": "{{count}} item", "items_few": "{{count}} items"}';
    expect(codec.parse(enc(source)).map((e) => e.key)).toEqual(['items_one', 'items_few']);
    expect(codec.parse(enc(source)).every((e) => e.plurals === undefined)).toBe(true);
    const [forced] = codec.parse(enc(source), { plurals: 'i18next' });
    expect(forced).toMatchObject({ key: 'items', source: '{{count}} item', plurals: { one: '{{count}} item', few: '{{count}} items' } });
  });

  it('keeps every key on its own with plurals: none, and renders them as plain strings', () => {
    const entries = codec.parse(enc(FLAT), { plurals: 'none' });
    expect(entries.map((e) => e.key)).toEqual(['title', 'items_one', 'items_other', 'checkout']);
    expect(entries.every((e) => e.plurals === undefined)).toBe(true);
    const out = render(codec, FLAT, { items_one: 'jeden', items_other: 'wiele' }, 'pl', 'source');
    expect(JSON.parse(out)).toEqual({ title: 'My shop', items_one: 'jeden', items_other: 'wiele', checkout: 'Check out' });
  });

  it('leaves a family apart when its base is a key of its own; plurals: i18next refuses it, naming both', () => {
    const source = '{\n  "items": "Items",\n  "items_one": "{{count}} item",\n  "items_other": "{{count}} items"\n}';
    expect(codec.parse(enc(source)).map((e) => e.key)).toEqual(['items', 'items_one', 'items_other']);
    const error = parseError(() => codec.parse(enc(source), { plurals: 'i18next' }));
    expect(error.message).toContain('"items"');
    expect(error.message).toContain('line 2');
    expect(error.line).toBe(3);
  });

  it('does not read array elements or lone suffixes as families', () => {
    const source = '{"list": ["a_one", "b_other"], "_other": "x", "deep": {"n_other": {"not": "a string"}}}';
    expect(codec.parse(enc(source)).map((e) => e.key)).toEqual(['list.0', 'list.1', '_other', 'deep.n_other.not']);
  });

  it('writes a plural key of a fresh file as key_<category> members of the locale', () => {
    const out = JSON.parse(dec(codec.renderFresh([{ key: 'a.items', value: { plurals: PL } }, { key: 'a.title', value: 'T' }], { locale: 'pl' })));
    const flat = codec.id === 'json' ? out : Object.fromEntries(Object.entries(out.a as Record<string, string>).map(([k, v]) => [`a.${k}`, v]));
    expect(Object.keys(flat)).toEqual(['a.items_one', 'a.items_few', 'a.items_many', 'a.items_other', 'a.title']);
    const back = codec.parse(enc(JSON.stringify(out)));
    expect(back.find((e) => e.key === 'a.items')!.plurals).toEqual(PL);
  });
});

describe('{{count}} in plural forms', () => {
  const sourcePlurals = { one: '{{count}} item', other: '{{count}} items' };
  const gate = (targetLocale: string, targetPlurals: PluralForms) =>
    runGates({ sourceLocale: 'en', targetLocale, source: sourcePlurals.other, sourcePlurals, target: targetPlurals.other ?? '', targetPlurals });

  it('is a placeholder', () => {
    expect(placeholdersOf('{{count}} items')).toEqual(['{{count}}']);
  });

  it('passes a complete Polish translation, with "one" leaving the count out', () => {
    expect(gate('pl', { ...PL, one: 'jedna rzecz' })).toEqual({ outcome: 'passed', failures: [] });
  });

  it('refuses a Polish translation missing "few", naming the form', () => {
    const { few: _few, ...withoutFew } = PL;
    const report = gate('pl', withoutFew);
    expect(report.outcome).toBe('refused');
    expect(report.failures.map((f) => f.reason)).toContain('plural form "few" is missing (pl needs one, few, many, other)');
  });

  it('refuses a "many" form that drops {{count}}', () => {
    const report = gate('pl', { ...PL, many: 'wiele rzeczy' });
    expect(report.failures).toContainEqual({ gate: 'placeholders', reason: 'form "many": placeholder {{count}} is missing' });
  });
});

describe('hand edits of a translation file (the GitHub App’s drift import)', () => {
  const rendered = enc(render(jsonCodec, FLAT, { title: 'Mój sklep', items: { plurals: PL }, checkout: 'Do kasy' }, 'pl'));

  it('reads an edited form as an edit of the whole plural, with every Polish form', () => {
    const edited = enc(dec(rendered).replace('"{{count}} rzeczy"', '"{{count}} rzeczy (poprawione)"'));
    expect(handEdits(jsonCodec, edited, rendered)).toEqual([expect.objectContaining({ key: 'items', plurals: { ...PL, few: '{{count}} rzeczy (poprawione)' } })]);
    expect(handEdits(jsonCodec, rendered, rendered)).toEqual([]);
  });

  it('reads the rule’s plurals: none keys one by one', () => {
    const edited = enc(dec(rendered).replace('"{{count}} rzecz"', '"jedna rzecz"'));
    expect(handEdits(jsonCodec, edited, rendered, { plurals: 'none' })).toEqual([expect.objectContaining({ key: 'items_one', source: 'jedna rzecz' })]);
  });
});
