// Unit tests for the json and json_nested codecs: byte-faithful round trips, splicing, omission, errors and fresh files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  FORMAT_IDS,
  getCodec,
  IMPLEMENTED_FORMATS,
  isFormatId,
  jsonCodec,
  jsonNestedCodec,
  type Codec,
  type FreshEntry,
  type Value,
} from '../../src/core/formats/index.js';
import { collectStrings, scanJson } from '../../src/core/formats/json-scan.js';
import { parseError } from '../helpers/formats.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'test/fixtures/formats');
const CORPUS = join(REPO, '../shared/corpus');
const CODECS = [jsonCodec, jsonNestedCodec] as const;

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
// ignoreBOM keeps a BOM visible in the decoded string, so comparisons see it.
const dec = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
const jsonOf = (b: Uint8Array): unknown => JSON.parse(dec(b).replace(/^\uFEFF/, ''));

function render(codec: Codec, source: string | Uint8Array, values: Record<string, string> | Map<string, string>, missing: 'source' | 'omit' = 'source'): string {
  const map = values instanceof Map ? values : new Map(Object.entries(values));
  return dec(codec.render({ source: typeof source === 'string' ? enc(source) : source, values: map, missing }));
}

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(dec(actual)).toBe(dec(expected));
  expect(Buffer.compare(Buffer.from(actual), Buffer.from(expected))).toBe(0);
}

/** Entries both codecs should find (every string, keyed by dotted path), computed independently with JSON.parse. */
function oracleEntries(bytes: Uint8Array): [string, string][] {
  const out: [string, string][] = [];
  const walk = (value: unknown, path: string[]): void => {
    if (typeof value === 'string') out.push([path.join('.'), value]);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, String(i)]));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(jsonOf(bytes), []);
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** JSON.parse's view of the source with the given keys' strings replaced, for comparing rendered output. */
function withReplaced(bytes: Uint8Array, replace: (key: string) => string | undefined): unknown {
  const map = (value: unknown, path: string[]): unknown => {
    if (typeof value === 'string') return replace(path.join('.')) ?? value;
    if (Array.isArray(value)) return value.map((v, i) => map(v, [...path, String(i)]));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v, [...path, k])]));
    }
    return value;
  };
  return map(jsonOf(bytes), []);
}

/** The text with every string value emptied: what must not change when values change. */
function skeleton(bytes: Uint8Array): string {
  const doc = scanJson(bytes);
  let out = '';
  let at = 0;
  for (const { node } of collectStrings(doc.root)) {
    out += `${doc.text.slice(at, node.start)}""`;
    at = node.end;
  }
  return `${doc.bom ? 'BOM:' : ''}${out}${doc.text.slice(at)}`;
}

/** Whether every string value is written the way JSON.stringify would write it, so a changed render can be undone byte for byte. */
function isCanonical(bytes: Uint8Array): boolean {
  const doc = scanJson(bytes);
  return collectStrings(doc.root).every(({ node }) => doc.text.slice(node.start, node.end) === JSON.stringify(node.value));
}

/** The character at a 1-based line and code-point column. */
function charAt(bytes: Uint8Array, line: number, column: number): string {
  const lines = dec(bytes).replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  return [...(lines[line - 1] ?? '')][column - 1] ?? '';
}

function expectRoundTrip(codec: Codec, bytes: Uint8Array): void {
  // Every string on its own, as the oracle lists them; i18next plural families folded are checked below.
  const entries = codec.parse(bytes, { plurals: 'none' });
  expect(entries.map((e) => [e.key, e.source] as [string, string]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(
    oracleEntries(bytes),
  );
  for (const entry of entries) {
    expect(entry.key).toBe(entry.path.join('.'));
    expect(charAt(bytes, entry.line, entry.column)).toBe('"');
  }
  const all = new Map(entries.map((e) => [e.key, e.source]));
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'source' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'omit' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: new Map(), missing: 'source' }), bytes);
  // Read with i18next plural families as plural entries (the default), the file's own values give it back too.
  const own = new Map<string, Value>(codec.parse(bytes).map((e) => [e.key, e.plurals ? { plurals: e.plurals } : e.source]));
  expectSameBytes(codec.render({ source: bytes, values: own, missing: 'source' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: own, missing: 'omit' }), bytes);
}

/** Renders with every value changed (into awkward text) and checks structure, untouched formatting and reversibility. */
function expectFaithfulTranslation(codec: Codec, bytes: Uint8Array): void {
  const entries = codec.parse(bytes, { plurals: 'none' });
  const translate = (s: string): string => `«${s}» "q" \\ / \n\t\u0001 🚀 עברית`;
  const values = new Map(entries.map((e) => [e.key, translate(e.source)]));
  const out = codec.render({ source: bytes, values, missing: 'source' });
  expect(jsonOf(out)).toEqual(withReplaced(bytes, (key) => values.get(key)));
  expect(skeleton(out)).toBe(skeleton(bytes));
  expect(codec.parse(out, { plurals: 'none' }).map((e) => [e.key, e.source])).toEqual(entries.map((e) => [e.key, translate(e.source)]));
  const back = codec.render({ source: out, values: new Map(entries.map((e) => [e.key, e.source])), missing: 'source' });
  if (isCanonical(bytes)) expectSameBytes(back, bytes);
  else expect(jsonOf(back)).toEqual(jsonOf(bytes));
}

function fixtureFiles(format: string): [string, Uint8Array][] {
  const dir = join(FIXTURES, format);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

describe('registry', () => {
  it('lists json and json_nested as implemented and looks them up', () => {
    expect(IMPLEMENTED_FORMATS).toEqual(expect.arrayContaining(['json', 'json_nested']));
    expect(getCodec('json')).toBe(jsonCodec);
    expect(getCodec('json_nested')).toBe(jsonNestedCodec);
    expect(jsonCodec.extensions).toEqual(['.json']);
  });

  it('recognises format ids', () => {
    for (const id of FORMAT_IDS) expect(isFormatId(id)).toBe(true);
    expect(isFormatId('JSON')).toBe(false);
    expect(isFormatId('json-nested')).toBe(false);
    expect(isFormatId('')).toBe(false);
  });
});

describe.skipIf(!existsSync(CORPUS))('shared corpus', () => {
  // Both codecs read nesting, so every corpus file must round-trip under both, whichever folder it sits in.
  // The one exclusion: Tolgee's example deliberately holds "common.save" both as a nested path and as a flat key (its
  // values say "This is conflict"); one would shadow the other, so both codecs refuse it naming both paths.
  const TOLGEE_CONFLICT =
    'The paths ["common","save"] (line 3) and ["common.save"] both give the key "common.save" at line 10, column 18; rename one of them';
  const REFUSALS: Record<string, string> = { 'json/tolgee-example.json': TOLGEE_CONFLICT };

  for (const folder of ['json', 'json_nested'] as const) {
    const dir = join(CORPUS, folder);
    const files = existsSync(dir) ? readdirSync(dir).sort() : [];
    for (const file of files) {
      for (const codec of CODECS) {
        const refusal = REFUSALS[`${folder}/${file}`];
        const bytes = new Uint8Array(readFileSync(join(dir, file)));
        if (refusal !== undefined) {
          it(`${codec.id} refuses ${folder}/${file}, naming both clashing paths`, () => {
            const error = parseError(() => codec.parse(bytes));
            expect(error.message).toBe(refusal);
            expect([error.line, error.column]).toEqual([10, 18]);
            expect(parseError(() => codec.render({ source: bytes, values: new Map(), missing: 'source' })).message).toBe(refusal);
          });
        } else {
          it(`${codec.id} round-trips ${folder}/${file} byte for byte`, () => {
            expectRoundTrip(codec, bytes);
            expectFaithfulTranslation(codec, bytes);
          });
        }
      }
    }
  }

  it('reads the nested lingo example the same under both codecs', () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS, 'json/lingo-example.json')));
    const entries = jsonNestedCodec.parse(bytes);
    expect(entries.map((e) => e.key)).toContain('contributors.1.name');
    expect(entries.map((e) => e.key)).toContain('mixed_array.3.nested_message');
    expect(entries.find((e) => e.key === 'emoji')).toMatchObject({ source: '🚀', line: 9, column: 12 });
    expect(jsonCodec.parse(bytes)).toEqual(entries);
  });
});

describe.skipIf(!existsSync(CORPUS))('flat json on a nested file (the lingo example)', () => {
  // Lingo.dev's and Tolgee's "json" take nesting, so ours reads it too, keyed exactly as json_nested keys it.
  const read = (): Uint8Array => new Uint8Array(readFileSync(join(CORPUS, 'json/lingo-example.json')));
  const text = (): string => dec(read());

  it('parses nested objects, arrays and arrays of objects by dotted path', () => {
    const entries = jsonCodec.parse(read());
    const pick = (key: string) => entries.find((e) => e.key === key);
    expect(pick('author.name')).toEqual({ key: 'author.name', path: ['author', 'name'], source: 'John Doe', line: 11, column: 13 });
    expect(pick('messages.0')).toEqual({ key: 'messages.0', path: ['messages', '0'], source: 'Welcome to MyApp', line: 14, column: 16 });
    expect(pick('config.theme.primary')).toEqual({
      key: 'config.theme.primary',
      path: ['config', 'theme', 'primary'],
      source: 'Blue theme',
      line: 17,
      column: 18,
    });
    expect(pick('contributors.1.name')).toMatchObject({ path: ['contributors', '1', 'name'], source: 'Bob' });
    expect(pick('mixed_array.3.nested_message')).toMatchObject({ source: 'Nested text', line: 25, column: 25 });
    expect(pick('title')).toMatchObject({ path: ['title'], source: 'Hello, world!' });
    // Numbers, booleans and null are not entries; string-holding containers are not entries themselves.
    expect(entries.map((e) => e.key)).not.toContain('deprecated');
    expect(entries.map((e) => e.key)).not.toContain('author');
    expect(entries).toHaveLength(19);
  });

  it('renders translations into nested positions, touching only those string tokens', () => {
    const values = new Map([
      ['author.name', 'Jean "JD" Dupont'],
      ['messages.0', 'Bienvenue dans MyApp'],
      ['config.theme.primary', 'Thème bleu'],
      ['contributors.1.name', 'Robert\n🚀'],
      ['mixed_array.3.nested_message', 'Texte imbriqué'],
    ]);
    const out = dec(jsonCodec.render({ source: read(), values, missing: 'source' }));
    const expected = text()
      .replace('"John Doe"', '"Jean \\"JD\\" Dupont"')
      .replace('"Welcome to MyApp"', '"Bienvenue dans MyApp"')
      .replace('"Blue theme"', '"Thème bleu"')
      .replace('"Bob"', '"Robert\\n🚀"')
      .replace('"Nested text"', '"Texte imbriqué"');
    expect(out).toBe(expected);
    expect(out).toBe(dec(jsonNestedCodec.render({ source: read(), values, missing: 'source' })));
  });

  it("omits untranslated nested members with missing 'omit', keeping valid JSON", () => {
    const values = new Map([
      ['title', 'Bonjour'],
      ['author.name', 'Jean'],
      ['messages.1', 'Salut'],
      ['config.theme.primary', 'Thème bleu'],
    ]);
    const out = jsonCodec.render({ source: read(), values, missing: 'omit' });
    expect(dec(out)).toBe(
      [
        '{',
        '  "title": "Bonjour",',
        '  "deprecated": null,',
        '  "author": {',
        '    "name": "Jean"',
        '  },',
        // A partly kept array keeps its other elements' source text, so indices stay put.
        '  "messages": ["Welcome to MyApp", "Salut"],',
        '  "config": {',
        '    "theme": {',
        '      "primary": "Thème bleu"',
        '    }',
        '  },',
        // An array that keeps non-string values is partly kept, so its strings stay as the source had them.
        '  "mixed_array": [',
        '    "Mixed content here",',
        '    42,',
        '    true,',
        '    {',
        '      "nested_message": "Nested text"',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
    expect(jsonOf(out)).toBeDefined();
    expect(jsonCodec.parse(out).map((e) => e.key)).toEqual([
      'title',
      'author.name',
      'messages.0',
      'messages.1',
      'config.theme.primary',
      'mixed_array.0',
      'mixed_array.3.nested_message',
    ]);
  });

  it('writes the parsed entries fresh as a flat file with dotted keys that reads back the same', () => {
    const entries = jsonCodec.parse(read());
    const out = jsonCodec.renderFresh(entries.map((e) => ({ key: e.key, value: e.source })));
    const data = jsonOf(out) as Record<string, unknown>;
    expect(Object.values(data).every((v) => typeof v === 'string')).toBe(true);
    expect(data['config.theme.primary']).toBe('Blue theme');
    expect(jsonCodec.parse(out).map((e) => [e.key, e.source])).toEqual(entries.map((e) => [e.key, e.source]));
  });
});

describe('fixtures', () => {
  // Both codecs read flat and nested files alike, so each runs over both folders.
  for (const format of ['json', 'json_nested'] as const) {
    for (const [file, bytes] of fixtureFiles(format)) {
      for (const codec of CODECS) {
        it(`${codec.id}: ${format}/${file} round-trips byte for byte`, () => expectRoundTrip(codec, bytes));
        it(`${codec.id}: ${format}/${file} keeps its formatting when every value changes`, () => expectFaithfulTranslation(codec, bytes));
      }
    }
  }

  // Guards against an editor or git setting normalising the fixtures and hollowing out the tests above.
  it('still have the byte-level traits they were written for', () => {
    const read = (p: string): Buffer => readFileSync(join(FIXTURES, p));
    expect(read('json/crlf.json').toString('latin1')).toMatch(/^[^\n]*\r\n(?:[^\n]*\r\n)*$/);
    expect(read('json/bom.json').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('json_nested/crlf-bom.json').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('json_nested/crlf-bom.json').toString('latin1')).toContain('\r\n');
    expect(read('json/tabs.json').toString()).toContain('\n\t"save"');
    expect(read('json/four-spaces-no-final-newline.json').toString()).toMatch(/\n {4}"one"[^]*\}$/);
    expect(read('json_nested/four-spaces-no-final-newline.json').toString()).toMatch(/\}$/);
  });
});

describe('parse', () => {
  it('reads flat strings with positions and leaves other values alone', () => {
    const src = enc('{\n  "title": "Hi",\n  "n": 2,\n  "flag": true,\n  "none": null,\n  "list": [1, 2],\n  "meta": {},\n  "a.b": "Dotted"\n}\n');
    expect(jsonCodec.parse(src)).toEqual([
      { key: 'title', path: ['title'], source: 'Hi', line: 2, column: 12 },
      { key: 'a.b', path: ['a.b'], source: 'Dotted', line: 8, column: 10 },
    ]);
  });

  it('decodes escapes and strips the BOM without shifting columns', () => {
    const src = enc('\uFEFF{"a": "\\"x\\" \\\\ \\/ \\u00e9 \\ud83d\\ude80 \\n"}');
    expect(jsonCodec.parse(src)).toEqual([{ key: 'a', path: ['a'], source: '"x" \\ / é 🚀 \n', line: 1, column: 7 }]);
  });

  it('counts columns in code points and lines across CRLF and lone CR', () => {
    const src = enc('{\r\n"🚀🚀": "a",\r"b": "c"\r\n}');
    expect(jsonCodec.parse(src).map((e) => [e.key, e.line, e.column])).toEqual([
      ['🚀🚀', 2, 7],
      ['b', 3, 6],
    ]);
  });

  it.each(CODECS.map((codec) => [codec.id, codec] as const))('%s keys nested strings and array elements by their dotted path', (_id, codec) => {
    const src = enc('{"a": {"b": "B", "c": [ "C0", {"d": "D"}, ["E"] ], "n": 1}, "x.y": "XY"}');
    expect(codec.parse(src).map((e) => [e.key, e.path, e.source])).toEqual([
      ['a.b', ['a', 'b'], 'B'],
      ['a.c.0', ['a', 'c', '0'], 'C0'],
      ['a.c.1.d', ['a', 'c', '1', 'd'], 'D'],
      ['a.c.2.0', ['a', 'c', '2', '0'], 'E'],
      ['x.y', ['x.y'], 'XY'],
    ]);
  });
});

describe('render with translations', () => {
  it('splices escaped values into CRLF, tab-indented text and leaves the rest alone', () => {
    const src = '{\r\n\t"greeting": "Hello",\r\n\t"n": 1,\r\n\t"farewell": "Bye"\r\n}';
    expect(render(jsonCodec, src, { greeting: 'Hallo "Welt"\n\\' })).toBe(
      '{\r\n\t"greeting": "Hallo \\"Welt\\"\\n\\\\",\r\n\t"n": 1,\r\n\t"farewell": "Bye"\r\n}',
    );
  });

  it('escapes only what JSON requires', () => {
    const out = render(jsonCodec, '{"a": "x"}\n', { a: 'é مرحبا 🚀 / \u2028 \u0001\u001f\t\u007f' });
    expect(out).toBe('{"a": "é مرحبا 🚀 / \u2028 \\u0001\\u001f\\t\u007f"}\n');
  });

  it('keeps the raw spelling of values equal to the source and rewrites changed escaped ones plainly', () => {
    const src = '{"same": "caf\\u00e9 \\/", "changed": "caf\\u00e9"}';
    expect(render(jsonCodec, src, { same: 'café /', changed: 'cafés' })).toBe('{"same": "caf\\u00e9 \\/", "changed": "cafés"}');
  });

  it('preserves a BOM, 4-space indentation and a missing final newline', () => {
    const src = '\uFEFF{\n    "a": "A",\n    "b": "B"\n}';
    expect(render(jsonCodec, src, { b: 'Be' })).toBe('\uFEFF{\n    "a": "A",\n    "b": "Be"\n}');
  });

  it('translates keys with dots in flat files and ignores unknown keys', () => {
    const src = '{\n  "auth.login": "Log in",\n  "auth": "Auth"\n}\n';
    expect(render(jsonCodec, src, { 'auth.login': 'Anmelden', unknown: 'x', 'auth.login.x': 'y' })).toBe(
      '{\n  "auth.login": "Anmelden",\n  "auth": "Auth"\n}\n',
    );
  });

  it.each(CODECS.map((codec) => [codec.id, codec] as const))('%s translates nested leaves and array elements', (_id, codec) => {
    const src = '{\n  "menu": {\n    "open": "Open"\n  },\n  "days": ["Mon", "Tue"]\n}\n';
    expect(render(codec, src, { 'menu.open': 'Öffnen', 'days.1': 'Di' })).toBe(
      '{\n  "menu": {\n    "open": "Öffnen"\n  },\n  "days": ["Mon", "Di"]\n}\n',
    );
  });

  it('hands back the source bytes untouched when nothing changes', () => {
    const src = enc('{"a": "\\u0041"}');
    const out = jsonCodec.render({ source: src, values: new Map([['a', 'A']]), missing: 'source' });
    expectSameBytes(out, src);
    expect(out).not.toBe(src);
  });
});

describe('render with missing: omit', () => {
  const flat = '{\n  "a": "A",\n  "b": "B",\n  "c": "C"\n}\n';

  it.each([
    ['the first member', { b: 'B', c: 'C' }, '{\n  "b": "B",\n  "c": "C"\n}\n'],
    ['a middle member', { a: 'A', c: 'C' }, '{\n  "a": "A",\n  "c": "C"\n}\n'],
    ['the last member', { a: 'A', b: 'B' }, '{\n  "a": "A",\n  "b": "B"\n}\n'],
    ['all but the last', { c: 'Ce' }, '{\n  "c": "Ce"\n}\n'],
    ['all but the first', { a: 'Ah' }, '{\n  "a": "Ah"\n}\n'],
    ['every member', {}, '{}\n'],
  ])('removes %s cleanly', (_name, values, expected) => {
    expect(render(jsonCodec, flat, values, 'omit')).toBe(expected);
  });

  it('removes members from inline objects', () => {
    expect(render(jsonCodec, '{"a": "A", "b": "B", "c": "C"}', { b: 'B' }, 'omit')).toBe('{"b": "B"}');
    expect(render(jsonCodec, '{ "a" : "A" ,"b":"B" }', { a: 'A' }, 'omit')).toBe('{ "a" : "A" }');
  });

  it('empties the only member to {} keeping the BOM and line endings around it', () => {
    expect(render(jsonCodec, '\uFEFF{\r\n\t"only": "One"\r\n}\r\n', {}, 'omit')).toBe('\uFEFF{}\r\n');
  });

  it('keeps numbers, booleans, null and empty containers', () => {
    const src = '{\n  "a": "A",\n  "n": 1,\n  "t": true,\n  "z": null,\n  "e": {},\n  "b": "B"\n}';
    expect(render(jsonCodec, src, {}, 'omit')).toBe('{\n  "n": 1,\n  "t": true,\n  "z": null,\n  "e": {}\n}');
  });

  // Both codecs read nesting, so both omit nested members the same way.
  describe.each(CODECS.map((codec) => [codec.id, codec] as const))('nested members under %s', (_id, codec) => {
    it('omits a nested object whose members were all omitted, up the chain', () => {
      const src = '{\n  "a": {\n    "b": {\n      "c": "C"\n    },\n    "d": "D"\n  },\n  "e": "E"\n}\n';
      expect(render(codec, src, { 'a.d': 'Dee', e: 'E' }, 'omit')).toBe('{\n  "a": {\n    "d": "Dee"\n  },\n  "e": "E"\n}\n');
      expect(render(codec, src, { e: 'E' }, 'omit')).toBe('{\n  "e": "E"\n}\n');
      expect(render(codec, src, { 'a.b.c': 'Cee' }, 'omit')).toBe('{\n  "a": {\n    "b": {\n      "c": "Cee"\n    }\n  }\n}\n');
      expect(render(codec, src, {}, 'omit')).toBe('{}\n');
    });

    it('keeps an object that still holds non-string values', () => {
      expect(render(codec, '{"a": {"n": 1, "s": "S"}}', {}, 'omit')).toBe('{"a": {"n": 1}}');
    });

    it('omits an array only as a whole, keeping source text for gaps so indices stay put', () => {
      const src = '{\n  "days": ["Mon", "Tue", "Wed"],\n  "x": "X"\n}';
      expect(render(codec, src, { x: 'Ex' }, 'omit')).toBe('{\n  "x": "Ex"\n}');
      expect(render(codec, src, { 'days.1': 'Di' }, 'omit')).toBe('{\n  "days": ["Mon", "Di", "Wed"]\n}');
    });

    it('omits arrays of objects emptied by omission', () => {
      const src = '{"cards": [{"t": "One"}, {"t": "Two"}], "k": "K"}';
      expect(render(codec, src, { k: 'K' }, 'omit')).toBe('{"k": "K"}');
    });

    it('leaves objects that were empty in the source', () => {
      expect(render(codec, '{\n  "e": {},\n  "a": "A"\n}\n', {}, 'omit')).toBe('{\n  "e": {}\n}\n');
    });

    it('omits the deepest chain of the deep fixture', () => {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'json_nested/deep.json')));
      const out = render(codec, bytes, { 'l1.l2.l3.sibling': 'Nachbar' }, 'omit');
      expect(out).toBe('{\n  "l1": {\n    "l2": {\n      "l3": {\n        "sibling": "Nachbar"\n      }\n    }\n  }\n}\n');
    });
  });
});

describe('malformed input', () => {
  it.each([
    ['{\n  "a": "x"\n  "b": "y"\n}', "Expected ',' or '}' after a member at line 3, column 3", 3, 3],
    ['{\n  "a": "x",\n}', "Expected another member after ',' (trailing commas are not allowed) at line 2, column 11", 2, 11],
    ['{"a": ["x",]}', "Expected another element after ',' (trailing commas are not allowed) at line 1, column 11", 1, 11],
    ['{"a": ["x" "y"]}', "Expected ',' or ']' after an array element at line 1, column 12", 1, 12],
    ['{\n  "a" "x"\n}', 'Expected \':\' after the key "a" at line 2, column 7', 2, 7],
    ['{\n  a: "x"\n}', "Expected a string key or '}' at line 2, column 3", 2, 3],
    ['{"a": "x", b: 1}', "Expected a string key after ',' at line 1, column 12", 1, 12],
    ['{"a": }', 'Expected a value at line 1, column 7', 1, 7],
    ["{\"a\": 'x'}", 'Expected a value (strings need double quotes) at line 1, column 7', 1, 7],
    ['{"a": "x\ny"}', "Expected '\"' to close the string before the end of the line at line 1, column 9", 1, 9],
    ['{"a": "x', "Expected '\"' to close the string before the end of the file at line 1, column 9", 1, 9],
    ['{"a": "tab\there"}', 'Expected control characters in a string to be escaped at line 1, column 11', 1, 11],
    ['{"a": "\\x"}', "Expected a valid escape after '\\' (one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) at line 1, column 8", 1, 8],
    ['{"a": "\\u12G4"}', 'Expected 4 hex digits after \\u at line 1, column 8', 1, 8],
    ['{"a": 01}', 'Expected a valid JSON number at line 1, column 7', 1, 7],
    ['{"a": 1.}', 'Expected a valid JSON number at line 1, column 7', 1, 7],
    ['{"a": tru}', 'Expected a value at line 1, column 7', 1, 7],
    ['{"a": NaN}', 'Expected a value at line 1, column 7', 1, 7],
    ['{\n  // note\n  "a": "x"\n}', "Expected a string key or '}' (JSON does not allow comments) at line 2, column 3", 2, 3],
    ['{"a": "x"} {}', "Expected the end of the file after the top-level object's closing '}' at line 1, column 12", 1, 12],
    ['{"a": "x"', "Expected ',' or '}' after a member at line 1, column 10", 1, 10],
    ['["a"]', "Expected a JSON object ('{') as the top-level value at line 1, column 1", 1, 1],
    ['\n\n  "a"', "Expected a JSON object ('{') as the top-level value at line 3, column 3", 3, 3],
    ['', "The file is empty; expected a JSON object ('{') at line 1, column 1", 1, 1],
    ['\uFEFF  \n', "The file is empty; expected a JSON object ('{') at line 2, column 1", 2, 1],
    ['{\n  "a": "x",\n  "b": "y",\n  "a": "z"\n}', 'Duplicate key "a" (first defined at line 2) at line 4, column 3', 4, 3],
    ['{\r\n"🚀": "x" "y"}', "Expected ',' or '}' after a member at line 2, column 10", 2, 10],
  ])('%j → %s', (input, message, line, column) => {
    for (const codec of CODECS) {
      const error = parseError(() => codec.parse(enc(input)));
      expect(error.message).toBe(message);
      expect([error.line, error.column]).toEqual([line, column]);
      expect(parseError(() => codec.render({ source: enc(input), values: new Map(), missing: 'source' })).message).toBe(message);
    }
  });

  it('rejects invalid UTF-8 naming where it is', () => {
    const bytes = new Uint8Array([...enc('{\n  "a": "é'), 0xc3, 0x28, ...enc('"\n}')]);
    for (const codec of CODECS) expect(parseError(() => codec.parse(bytes)).message).toBe('Invalid UTF-8 byte sequence at line 2, column 10');
    const overlong = new Uint8Array([...enc('{"a": "'), 0xe0, 0x80, 0xaf, ...enc('"}')]);
    expect(parseError(() => jsonCodec.parse(overlong)).message).toBe('Invalid UTF-8 byte sequence at line 1, column 8');
    const surrogate = new Uint8Array([...enc('{"a": "'), 0xed, 0xa0, 0x80, ...enc('"}')]);
    expect(parseError(() => jsonCodec.parse(surrogate)).message).toBe('Invalid UTF-8 byte sequence at line 1, column 8');
  });

  it('recognises UTF-16', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]);
    expect(parseError(() => jsonCodec.parse(bytes)).message).toBe('The file is UTF-16 encoded; expected UTF-8 at line 1, column 1');
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    const src = `{"a": ${'['.repeat(600)}${']'.repeat(600)}}`;
    for (const codec of CODECS) {
      expect(parseError(() => codec.parse(enc(src))).message).toBe('Expected at most 512 levels of nesting at line 1, column 518');
    }
  });

  it('refuses two nested paths that give the same key, naming both, under either codec', () => {
    for (const codec of CODECS) {
      const source = enc('{\n  "a.b": "x",\n  "a": {\n    "b": "y"\n  }\n}');
      const error = parseError(() => codec.parse(source));
      expect(error.message).toBe('The paths ["a.b"] (line 2) and ["a","b"] both give the key "a.b" at line 4, column 10; rename one of them');
      expect([error.line, error.column]).toEqual([4, 10]);
      expect(parseError(() => codec.render({ source, values: new Map(), missing: 'omit' })).message).toBe(error.message);
      expect(parseError(() => codec.parse(enc('{"a": ["x"], "a.0": "y"}'))).message).toBe(
        'The paths ["a","0"] (line 1) and ["a.0"] both give the key "a.0" at line 1, column 21; rename one of them',
      );
      // A dotted key and a leaf that is its prefix are different keys, so they do not clash.
      expect(codec.parse(enc('{"a.b": "x", "a": "y"}')).map((e) => e.key)).toEqual(['a.b', 'a']);
    }
  });
});

describe('renderFresh', () => {
  const fresh = (codec: Codec, entries: [string, string][]): string =>
    dec(codec.renderFresh(entries.map(([key, value]): FreshEntry => ({ key, value, notes: 'ignored' }))));

  it('writes flat files conventionally, in the given order', () => {
    const entries: [string, string][] = [
      ['b', 'B'],
      ['a', 'A "q"\n'],
      ['10', 'ten'],
      ['x.y', 'dotted'],
    ];
    const out = fresh(jsonCodec, entries);
    expect(out).toBe('{\n  "b": "B",\n  "a": "A \\"q\\"\\n",\n  "10": "ten",\n  "x.y": "dotted"\n}\n');
    expect(jsonCodec.parse(enc(out)).map((e) => [e.key, e.source])).toEqual(entries);
  });

  it('writes json flat with dotted keys even for entries read from a nested file, where json_nested nests them', () => {
    const source = enc('{\n  "nav": {\n    "home": "Home",\n    "items": ["One", {"x": "X"}]\n  },\n  "title": "T"\n}\n');
    const entries = jsonCodec.parse(source).map(({ key, source: value }): [string, string] => [key, value]);
    expect(entries).toEqual([
      ['nav.home', 'Home'],
      ['nav.items.0', 'One'],
      ['nav.items.1.x', 'X'],
      ['title', 'T'],
    ]);
    const flat = fresh(jsonCodec, entries);
    expect(flat).toBe('{\n  "nav.home": "Home",\n  "nav.items.0": "One",\n  "nav.items.1.x": "X",\n  "title": "T"\n}\n');
    expect(jsonCodec.parse(enc(flat)).map((e) => [e.key, e.path, e.source])).toEqual([
      ['nav.home', ['nav.home'], 'Home'],
      ['nav.items.0', ['nav.items.0'], 'One'],
      ['nav.items.1.x', ['nav.items.1.x'], 'X'],
      ['title', ['title'], 'T'],
    ]);
    expect(fresh(jsonNestedCodec, entries)).toBe(
      '{\n  "nav": {\n    "home": "Home",\n    "items": {\n      "0": "One",\n      "1": {\n        "x": "X"\n      }\n    }\n  },\n  "title": "T"\n}\n',
    );
  });

  it('writes {} for no entries', () => {
    expect(fresh(jsonCodec, [])).toBe('{}\n');
    expect(fresh(jsonNestedCodec, [])).toBe('{}\n');
  });

  it('keeps the first position and last value of a repeated key', () => {
    expect(fresh(jsonCodec, [['a', '1'], ['b', '2'], ['a', '3']])).toBe('{\n  "a": "3",\n  "b": "2"\n}\n');
  });

  it('nests dotted keys', () => {
    const entries: [string, string][] = [
      ['nav.home', 'Home'],
      ['nav.about', 'About'],
      ['title', 'Title'],
      ['a.b.c', 'Deep'],
    ];
    const out = fresh(jsonNestedCodec, entries);
    expect(out).toBe(
      '{\n  "nav": {\n    "home": "Home",\n    "about": "About"\n  },\n  "title": "Title",\n  "a": {\n    "b": {\n      "c": "Deep"\n    }\n  }\n}\n',
    );
    expect(jsonNestedCodec.parse(enc(out)).map((e) => [e.key, e.source])).toEqual(entries);
  });

  it('keeps a key that is both a leaf and a prefix as a dotted key, whichever comes first', () => {
    const leafFirst: [string, string][] = [
      ['a', 'A'],
      ['a.b', 'AB'],
      ['x.y', 'XY'],
      ['x.y.z', 'XYZ'],
    ];
    const out1 = fresh(jsonNestedCodec, leafFirst);
    expect(out1).toBe('{\n  "a": "A",\n  "a.b": "AB",\n  "x": {\n    "y": "XY",\n    "y.z": "XYZ"\n  }\n}\n');
    expect(jsonNestedCodec.parse(enc(out1)).map((e) => [e.key, e.source])).toEqual(leafFirst);

    const prefixFirst: [string, string][] = [
      ['a.b', 'AB'],
      ['a.c.d', 'ACD'],
      ['z', 'Z'],
      ['a', 'A'],
      ['a.e', 'AE'],
    ];
    const out2 = fresh(jsonNestedCodec, prefixFirst);
    expect(out2).toBe('{\n  "a.b": "AB",\n  "a.c.d": "ACD",\n  "z": "Z",\n  "a": "A",\n  "a.e": "AE"\n}\n');
    expect(jsonNestedCodec.parse(enc(out2)).map((e) => [e.key, e.source])).toEqual(prefixFirst);
  });

  it('keeps absurdly deep keys readable back under the same key', () => {
    const key = Array.from({ length: 200 }, (_, i) => `k${i}`).join('.');
    const out = jsonNestedCodec.renderFresh([{ key, value: 'v' }]);
    expect(jsonNestedCodec.parse(out).map((e) => [e.key, e.source])).toEqual([[key, 'v']]);
  });
});

describe('randomized round trips', () => {
  // mulberry32: a tiny seeded generator, so failures reproduce.
  function random(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const PIECES = [
    'a', 'Z', ' ', '.', '"', '\\', '/', '\n', '\r', '\t', '\r\n', '\u0000', '\u0001', '\u001f', '\u007f', '\b', '\f',
    '🚀', '👩‍👩‍👧', '🇫🇷', 'مرحبا', 'שלום', '\u200f', '\u202e', '\u2028', '\u2029', 'é', 'e\u0301', '{name}', '{{x}}',
    '%1$s', '{n, plural, one {#} other {# "x"}}', '\\u0041', '\ud800', '\udfff', '\uFEFF', '}', ']', ',', ':',
  ];
  const text = (rnd: () => number, max: number): string =>
    Array.from({ length: Math.floor(rnd() * max) }, () => PIECES[Math.floor(rnd() * PIECES.length)]!).join('');

  it('flat: renderFresh, parse, render and parse give the values back', () => {
    const rnd = random(1);
    for (let round = 0; round < 200; round++) {
      const map = new Map<string, string>();
      for (let i = Math.floor(rnd() * 8); i > 0; i--) map.set(text(rnd, 4), text(rnd, 12));
      const file = jsonCodec.renderFresh([...map].map(([key, value]) => ({ key, value })));
      expect(jsonCodec.parse(file).map((e) => [e.key, e.source])).toEqual([...map]);

      const next = new Map([...map].map(([key]) => [key, text(rnd, 12)]));
      const out = jsonCodec.render({ source: file, values: next, missing: 'source' });
      expect(jsonCodec.parse(out).map((e) => [e.key, e.source])).toEqual([...next]);
      expect(skeleton(out)).toBe(skeleton(file));
      expectSameBytes(jsonCodec.render({ source: out, values: map, missing: 'source' }), file);

      const kept = new Map([...next].filter(() => rnd() < 0.5));
      const omitted = jsonCodec.render({ source: out, values: kept, missing: 'omit' });
      expect(jsonCodec.parse(omitted).map((e) => [e.key, e.source])).toEqual([...kept]);
    }
  });

  it('nested: renderFresh with clashing dotted keys reads back every key', () => {
    const rnd = random(2);
    const segments = ['a', 'b', 'c', '0', '', 'é', '🚀'];
    for (let round = 0; round < 300; round++) {
      const map = new Map<string, string>();
      for (let i = Math.floor(rnd() * 10); i > 0; i--) {
        const depth = 1 + Math.floor(rnd() * 4);
        map.set(Array.from({ length: depth }, () => segments[Math.floor(rnd() * segments.length)]!).join('.'), text(rnd, 8));
      }
      const file = jsonNestedCodec.renderFresh([...map].map(([key, value]) => ({ key, value })));
      const entries = jsonNestedCodec.parse(file);
      expect(new Map(entries.map((e) => [e.key, e.source]))).toEqual(map);
      expect(entries).toHaveLength(map.size);

      const next = new Map([...map].map(([key]) => [key, text(rnd, 8)]));
      const out = jsonNestedCodec.render({ source: file, values: next, missing: 'source' });
      expect(new Map(jsonNestedCodec.parse(out).map((e) => [e.key, e.source]))).toEqual(next);
      expectSameBytes(jsonNestedCodec.render({ source: out, values: map, missing: 'source' }), file);
    }
  });

  it.each(CODECS.map((codec) => [codec.id, codec] as const))('%s fixtures: random omission keeps exactly the given keys outside partly kept arrays', (_id, codec) => {
    const rnd = random(3);
    for (const [file, bytes] of [...fixtureFiles('json_nested'), ...fixtureFiles('json')]) {
      const entries = codec.parse(bytes);
      for (let round = 0; round < 25; round++) {
        const kept = new Map(entries.filter(() => rnd() < 0.5).map((e) => [e.key, text(rnd, 6)]));
        const out = codec.render({ source: bytes, values: kept, missing: 'omit' });
        const after = codec.parse(out);
        expect(jsonOf(out), file).toBeDefined();
        for (const [key, value] of kept) expect(after.find((e) => e.key === key)?.source, `${file} ${key}`).toBe(value);
        for (const extra of after.filter((e) => !kept.has(e.key))) {
          // Only an array that keeps some element keeps its untranslated elements' source text.
          expect(/\.\d+(\.|$)/.test(extra.key), `${file} ${extra.key}`).toBe(true);
          expect(extra.source).toBe(entries.find((e) => e.key === extra.key)?.source);
        }
      }
    }
  });
});
