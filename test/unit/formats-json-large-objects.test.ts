// Unit tests for what the JSON-family codecs do differently in objects of many members: the duplicate check by hash,
// arb metadata found beside or away from its message, and renders spliced in batches.
import { describe, expect, it } from 'vitest';
import { getCodec, type FormatId, type Value } from '../../src/core/formats/index.js';
import { parseError } from '../helpers/formats.js';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const dec = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A flat object of `count` members `"k<i>": "v<i>"`, one per line, after `head` members. */
function members(count: number, head: string[] = []): string[] {
  return [...head, ...Array.from({ length: count }, (_, i) => `  "k${i}": "v${i}"`)];
}

const object = (lines: string[]): string => `{\n${lines.join(',\n')}\n}\n`;

/** The same file as a catalog: each member a string with an English text, `"strings"` opening on line 3. */
function catalog(count: number, duplicate?: string): string {
  const strings = Array.from({ length: count }, (_, i) => `    "k${i}": {}`);
  if (duplicate) strings.push(`    ${duplicate}: {}`);
  return `{\n  "sourceLanguage": "en",\n  "strings": {\n${strings.join(',\n')}\n  },\n  "version": "1.0"\n}\n`;
}

const FLAT: FormatId[] = ['json', 'json_nested', 'laravel_json', 'arb'];

describe('duplicate keys in objects of many members', () => {
  it.each([
    // Members past the first dozen are checked by hash; a key spelled with escapes is the same key.
    ['"k5"', 40, 5],
    ['"k\\u0035"', 40, 5],
    ['"\\u006b5"', 40, 5],
    ['"k39"', 40, 39],
    ['"k2"', 3000, 2],
    ['"k2999"', 3000, 2999],
  ])('refuses %s repeated among %i members, naming both lines', (key, count, at) => {
    for (const id of FLAT) {
      const text = object(members(count, ['  "@@locale": "en"']).concat(`  ${key}: "again"`));
      const line = count + 3;
      const error = parseError(() => getCodec(id)!.parse(enc(text)));
      expect(error.message).toBe(`Duplicate key "k${at}" (first defined at line ${at + 3}) at line ${line}, column 3`);
      expect([error.line, error.column]).toEqual([line, 3]);
    }
    const error = parseError(() => getCodec('ios_xcstrings')!.parse(enc(catalog(count, key))));
    expect(error.message).toBe(`Duplicate key "k${at}" (first defined at line ${at + 4}) at line ${count + 4}, column 5`);
  });

  it('reads thousands of distinct keys, non-ASCII ones too, as distinct', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `key ${i} ${String.fromCharCode(0x4e00 + i)}`);
    const text = `{${keys.map((k, i) => `${JSON.stringify(k)}: "v${i}"`).join(', ')}}`;
    for (const id of FLAT) expect(getCodec(id)!.parse(enc(text)).map((e) => e.key)).toEqual(keys);
  });
});

describe('arb messages and their metadata', () => {
  const arb = getCodec('arb')!;

  it('finds @key metadata beside its message, before it, or far from it', () => {
    const text = object([
      '  "@@locale": "en"',
      '  "@far": {"description": "far away"}',
      ...members(30),
      '  "near": "N"',
      '  "@near": {"description": "beside", "context": "c"}',
      '  "@before": {"description": "ahead"}',
      '  "before": "B"',
      '  "far": "F"',
    ]);
    const entries = arb.parse(enc(text));
    const byKey = new Map(entries.map((e) => [e.key, e]));
    expect(byKey.get('near')).toMatchObject({ notes: 'beside', context: 'c' });
    expect(byKey.get('before')?.notes).toBe('ahead');
    expect(byKey.get('far')?.notes).toBe('far away');
    expect(byKey.get('k3')?.notes).toBeUndefined();
  });

  it('renders a large bundle in one pass: only changed values differ, escapes compare by value', () => {
    const text = object(members(3000, ['  "@@locale": "en"', '  "esc": "a\\u0062c"', '  "same": "q\\"uote"', '  "n": "{n, plural, one {# x} other {# xs}}"']));
    const values = new Map<string, Value>([
      ['esc', 'abc'],
      ['same', 'q"uote'],
      ['n', { plurals: { one: '# y', other: '# ys' } }],
      ['k7', 'seven'],
      ['k2999', 'last "one"'],
    ]);
    const out = dec(arb.render({ source: enc(text), values, missing: 'source', locale: 'pt-BR' }));
    const expected = text
      .replace('"@@locale": "en"', '"@@locale": "pt_BR"')
      .replace('{n, plural, one {# x} other {# xs}}', '{n, plural, one {# y} other {# ys}}')
      .replace('"k7": "v7"', '"k7": "seven"')
      .replace('"k2999": "v2999"', '"k2999": "last \\"one\\""');
    expect(out).toBe(expected);
  });
});
