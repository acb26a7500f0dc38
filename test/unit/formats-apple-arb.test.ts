// Unit tests for the ios_strings, ios_xcstrings and arb codecs: byte-faithful round trips, splicing, plurals, the formats' own tools, errors and fresh files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Codec, type Entry, type FreshEntry, type PluralForms, type Value } from '../../src/core/formats/codec.js';
import { arbCodec } from '../../src/core/formats/arb.js';
import { foldIcuPlural, parseIcuPlural, writeIcuPlural } from '../../src/core/formats/icu-plural.js';
import { iosStringsCodec, quoteStringsValue, readStringsFile } from '../../src/core/formats/ios-strings.js';
import { iosXcstringsCodec, readXcstringsLocale } from '../../src/core/formats/ios-xcstrings.js';
import { scanJson } from '../../src/core/formats/json-scan.js';
import { pluralCategories } from '../../src/core/plurals.js';
import { parseError } from '../helpers/formats.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/formats/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const PYTHON = '/usr/bin/python3';
const hasPython = existsSync(PYTHON);
const hasToolkit =
  hasPython && spawnSync(PYTHON, ['-c', 'from translate.storage.properties import stringsfile; from translate.storage.jsonl10n import ARBJsonFile']).status === 0;

const CODECS = { ios_strings: iosStringsCodec, ios_xcstrings: iosXcstringsCodec, arb: arbCodec } as const;
type Format = keyof typeof CODECS;
const FORMATS = Object.keys(CODECS) as Format[];

// ——— helpers ———

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Decodes as the codecs do (UTF-16 by its BOM, else UTF-8), keeping a BOM visible so comparisons see it. */
function dec(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xfe) return `\uFEFF${new TextDecoder('utf-16le', { ignoreBOM: true }).decode(b.subarray(2))}`;
  if (b[0] === 0xfe && b[1] === 0xff) return `\uFEFF${new TextDecoder('utf-16be', { ignoreBOM: true }).decode(b.subarray(2))}`;
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
}

function utf16(text: string, little: boolean): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set(little ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + 2 * i + (little ? 0 : 1)] = c & 0xff;
    out[2 + 2 * i + (little ? 1 : 0)] = c >> 8;
  }
  return out;
}

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(dec(actual)).toBe(dec(expected));
  expect(Buffer.compare(Buffer.from(actual), Buffer.from(expected))).toBe(0);
}

type Values = Record<string, Value> | Map<string, Value>;

function render(codec: Codec, source: string | Uint8Array, values: Values, options: { missing?: 'source' | 'omit'; locale?: string } = {}): Uint8Array {
  const map = values instanceof Map ? values : new Map(Object.entries(values));
  const input = { source: typeof source === 'string' ? enc(source) : source, values: map, missing: options.missing ?? 'source' };
  return codec.render(options.locale === undefined ? input : { ...input, locale: options.locale });
}

const renderText = (codec: Codec, source: string | Uint8Array, values: Values, options?: { missing?: 'source' | 'omit'; locale?: string }): string =>
  dec(render(codec, source, values, options));

const valueOf = (entry: Entry): Value => (entry.plurals ? { plurals: entry.plurals } : entry.source);
const sourceValues = (entries: readonly Entry[]): Map<string, Value> => new Map(entries.map((e) => [e.key, valueOf(e)]));
const keyValues = (entries: readonly Entry[]): [string, Value][] => entries.map((e) => [e.key, valueOf(e)]);

/** The character at a 1-based line and code-point column. */
function charAt(bytes: Uint8Array, line: number, column: number): string {
  const lines = dec(bytes).replace(/^\uFEFF/, '').split(/\r\n|\n|\r|\u2028|\u2029/);
  return [...(lines[line - 1] ?? '')][column - 1] ?? '';
}

/** Awkward text a translator might write: quotes, apostrophes, backslashes, line breaks, markup, emoji and RTL text. */
const pseudo = (s: string): string => `[${s}] «"q"» it's \\ back\nslash\t<b>&amp;</b> & 🚀 עברית`;

function pseudoValues(entries: readonly Entry[], locale: string): Map<string, Value> {
  return new Map(
    entries
      .filter((e) => e.translatable !== false)
      .map((e): [string, Value] => {
        if (!e.plurals) return [e.key, pseudo(e.source)];
        const other = e.plurals.other ?? e.source;
        return [e.key, { plurals: Object.fromEntries(pluralCategories(locale).map((c) => [c, `${c}: ${pseudo(other)}`])) }];
      }),
  );
}

function files(dir: string, ext: string): [string, Uint8Array][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

const EXTENSION: Record<Format, string> = { ios_strings: '.strings', ios_xcstrings: '.xcstrings', arb: '.arb' };
const fixtureFiles = (format: Format): [string, Uint8Array][] => files(join(FIXTURES, format), EXTENSION[format]);

/**
 * Corpus files a format's own tooling rejects, refused with a clear error instead of being half-read.
 * tolgee-Localizable.strings: Foundation's strings parser (CFOldStylePList) ends a `//` comment at the line break, so the
 * line after `// … haha \` ("Escaping is fun!") is stray text where a key must be followed by '=' or ';'. Tolgee keeps
 * it among its import tests' malformed and edge-case inputs.
 */
const REFUSED: Record<string, string> = {
  'ios_strings/tolgee-Localizable.strings': 'Expected \'=\' or \';\' after the key "Escaping" at line 16, column 10',
};

const corpusFiles = (format: Format): [string, Uint8Array][] => files(join(CORPUS, format), EXTENSION[format]);

// ——— the formats' own tools, run in batches ———

let scratch: string | undefined;
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function writeTemp(name: string, bytes: Uint8Array): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'parlance-apple-arb-'));
  const path = join(scratch, name.replace(/[^\w.-]/g, '_'));
  writeFileSync(path, bytes);
  return path;
}

function runPython(script: string, args: string[]): unknown {
  const result = spawnSync(PYTHON, ['-c', script, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  // translate-toolkit logs a warning on stderr when the BOM says more than the encoding it was given; only failure counts.
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/**
 * A strict reader of the strings-file grammar, written independently after Foundation's CFOldStylePList (there is no
 * plutil on Linux): comments end where Foundation ends them, escapes decode as Foundation decodes them, and anything
 * else is an error. Prints, per file, the key/value pairs or the error.
 */
const STRINGS_CHECKER = String.raw`
import json, sys
BARE = set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$/:.-')
SPACE = set('\t\n\x0b\x0c\r \u2028\u2029')
SIMPLE = {'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}
class Bad(Exception): pass
def decode(data):
    if data[:2] == b'\xff\xfe': return data[2:].decode('utf-16-le')
    if data[:2] == b'\xfe\xff': return data[2:].decode('utf-16-be')
    if data[:3] == b'\xef\xbb\xbf': return data[3:].decode('utf-8')
    return data.decode('utf-8')
def parse(text):
    pos = 0
    n = len(text)
    def skip():
        nonlocal pos
        while pos < n:
            if text[pos] in SPACE: pos += 1
            elif text.startswith('//', pos):
                while pos < n and text[pos] not in '\n\r\u2028\u2029': pos += 1
            elif text.startswith('/*', pos):
                end = text.find('*/', pos + 2)
                if end < 0: raise Bad('unterminated comment')
                pos = end + 2
            else: return
    def string():
        nonlocal pos
        if pos < n and text[pos] in '"\'':
            quote = text[pos]
            pos += 1
            out = []
            while True:
                if pos >= n: raise Bad('unterminated string')
                c = text[pos]
                pos += 1
                if c == quote: break
                if c != '\\':
                    out.append(c)
                    continue
                if pos >= n: raise Bad('dangling backslash')
                e = text[pos]
                pos += 1
                if e in '01234567':
                    digits = e
                    while len(digits) < 3 and pos < n and text[pos] in '01234567':
                        digits += text[pos]
                        pos += 1
                    out.append(chr(int(digits, 8) & 0xff))
                elif e in 'Uu':
                    h = text[pos:pos + 4]
                    if len(h) != 4 or any(x not in '0123456789abcdefABCDEF' for x in h): raise Bad('bad \\U escape')
                    out.append(chr(int(h, 16)))
                    pos += 4
                else: out.append(SIMPLE.get(e, e))
            # \UD83D\UDE80 names a UTF-16 surrogate pair, as Foundation strings are UTF-16.
            return ''.join(out).encode('utf-16-le', 'surrogatepass').decode('utf-16-le')
        start = pos
        while pos < n and text[pos] in BARE: pos += 1
        if pos == start: raise Bad('expected a string at offset %d' % pos)
        return text[start:pos]
    pairs = []
    skip()
    braced = pos < n and text[pos] == '{'
    if braced:
        pos += 1
        skip()
    while pos < n and not (braced and text[pos] == '}'):
        key = string()
        skip()
        if pos < n and text[pos] == ';': value = key
        elif pos < n and text[pos] == '=':
            pos += 1
            skip()
            value = string()
            skip()
            if pos >= n or text[pos] != ';': raise Bad("expected ';' at offset %d" % pos)
        else: raise Bad("expected '=' or ';' at offset %d" % pos)
        pos += 1
        pairs.append([key, value])
        skip()
    if braced:
        if pos >= n: raise Bad("expected '}'")
        pos += 1
        skip()
        if pos < n: raise Bad('text after the dictionary')
    return pairs
results = []
for path in sys.argv[1:]:
    try: results.append({'pairs': parse(decode(open(path, 'rb').read()))})
    except (Bad, UnicodeDecodeError) as e: results.append({'error': str(e)})
print(json.dumps(results))
`;

/** translate-toolkit's reader for strings files (UTF-16 by default, so UTF-8 files go through its UTF-8 variant). */
const TOOLKIT_STRINGS = String.raw`
import json, sys
from translate.storage.properties import stringsfile, stringsutf8file
out = []
for arg in sys.argv[1:]:
    kind, path = arg.split(':', 1)
    store = (stringsutf8file if kind == 'utf-8' else stringsfile)(open(path, 'rb'))
    out.append([[u.name, u.source] for u in store.units if u.name])
print(json.dumps(out))
`;

/** Loads catalogs with Python's json module and reads one language's values by the codec's key scheme, plus every unit's state. */
const XCSTRINGS_READER = String.raw`
import json, sys
def forms(plural): return {c: f['stringUnit']['value'] for c, f in plural.items()}
def part(h):
    v = h.get('variations', {})
    if 'plural' in v: return forms(v['plural'])
    su = h.get('stringUnit')
    return None if su is None else su['value']
def states(node, acc):
    if isinstance(node, dict):
        su = node.get('stringUnit')
        if isinstance(su, dict): acc.append(su.get('state'))
        for v in node.values(): states(v, acc)
    return acc
out = []
for arg in sys.argv[1:]:
    path, locale = arg.rsplit('@', 1)
    doc = json.load(open(path, encoding='utf-8-sig'))
    entries = {}
    for key, item in doc['strings'].items():
        loc = item.get('localizations', {}).get(locale)
        if loc is None: continue
        v = loc.get('variations', {})
        if 'device' in v and 'plural' not in v:
            for device, h in v['device'].items(): entries[key + '.device.' + device] = part(h)
        elif part(loc) is not None:
            entries[key] = part(loc)
        for name, sub in loc.get('substitutions', {}).items():
            plural = sub.get('variations', {}).get('plural')
            if plural: entries[key + '.' + name] = forms(plural)
    found = states([item.get('localizations', {}).get(locale) for item in doc['strings'].values()], [])
    out.append({'sourceLanguage': doc['sourceLanguage'], 'entries': entries, 'states': found})
print(json.dumps(out))
`;

/** Loads ARB files with Python's json module (utf-8-sig: a BOM is allowed) and lists the top-level string members. */
const ARB_JSON_READER = String.raw`
import json, sys
out = []
for path in sys.argv[1:]:
    data = json.load(open(path, encoding='utf-8-sig'))
    out.append({k: v for k, v in data.items() if isinstance(v, str)})
print(json.dumps(out))
`;

/** translate-toolkit's ARB reader: one unit per message, the metadata header left out. */
const TOOLKIT_ARB = String.raw`
import json, sys
from translate.storage.jsonl10n import ARBJsonFile
out = []
for path in sys.argv[1:]:
    store = ARBJsonFile(open(path, 'rb'))
    out.append([[u.getid(), u.source] for u in store.units if not u.isheader()])
print(json.dumps(out))
`;

// ——— shared expectations ———

function expectRoundTrip(codec: Codec, bytes: Uint8Array): Entry[] {
  const entries = codec.parse(bytes);
  for (const entry of entries) {
    expect(entry.key).toBe(entry.path.join('.'));
    const at = charAt(bytes, entry.line, entry.column);
    if (codec.id === 'ios_strings') expect(at).toMatch(/^["'A-Za-z0-9_$/:.-]$/);
    else expect(at).toBe('"');
    if (entry.plurals) expect(entry.source).toBe(entry.plurals.other);
  }
  const all = sourceValues(entries);
  expectSameBytes(render(codec, bytes, all), bytes);
  expectSameBytes(render(codec, bytes, all, { missing: 'omit' }), bytes);
  expectSameBytes(render(codec, bytes, new Map()), bytes);
  return entries;
}

/** The strings file with every value token emptied (a shortcut `"k";` as the ` = ""` it renders to): what must not change. */
function stringsSkeleton(bytes: Uint8Array): string {
  const file = readStringsFile(bytes);
  let out = '';
  let at = 0;
  for (const s of file.statements) {
    if (s.value) {
      out += `${file.text.slice(at, s.value.start)}""`;
      at = s.value.end;
    } else {
      out += `${file.text.slice(at, s.key.end)} = ""`;
      at = s.key.end;
    }
  }
  return `${file.encoding}${file.bom ? '+BOM' : ''}:${out}${file.text.slice(at)}`;
}

/** The ARB file with every message string and `@@locale` emptied. */
function arbSkeleton(bytes: Uint8Array): string {
  const doc = scanJson(bytes);
  let out = '';
  let at = 0;
  for (const m of doc.root.members) {
    if (m.value.kind !== 'string' || (m.key.value.startsWith('@') && m.key.value !== '@@locale')) continue;
    out += `${doc.text.slice(at, m.value.start)}""`;
    at = m.value.end;
  }
  return `${doc.bom ? 'BOM:' : ''}${out}${doc.text.slice(at)}`;
}

/** Checks a render with every value changed; returns the output for the tool checks. */
function expectFaithfulTranslation(format: Format, bytes: Uint8Array, locale: string): Uint8Array {
  const codec = CODECS[format];
  const entries = codec.parse(bytes);
  const values = pseudoValues(entries, locale);
  const out = render(codec, bytes, values, { locale });
  if (format === 'ios_strings') {
    expect(keyValues(codec.parse(out))).toEqual([...values]);
    expect(codec.parse(out).map((e) => e.notes)).toEqual(entries.map((e) => e.notes));
    expect(stringsSkeleton(out)).toBe(stringsSkeleton(bytes));
    const file = readStringsFile(bytes);
    const canonical = file.statements.every((s) => s.value && file.text.slice(s.value.start, s.value.end) === quoteStringsValue(s.value.value));
    const back = render(codec, out, sourceValues(entries));
    if (canonical) expectSameBytes(back, bytes);
    else expect(keyValues(codec.parse(back))).toEqual(keyValues(entries));
  } else if (format === 'arb') {
    expect(keyValues(codec.parse(out))).toEqual([...values]);
    expect(arbSkeleton(out)).toBe(arbSkeleton(bytes));
    const doc = scanJson(bytes);
    const localeMember = doc.root.members.find((m) => m.key.value === '@@locale');
    const after = scanJson(out).root.members.find((m) => m.key.value === '@@locale');
    expect(after?.value.kind === 'string' ? after.value.value : undefined).toBe(localeMember ? locale.replace(/-/g, '_') : undefined);
    const originalLocale = localeMember?.value.kind === 'string' ? localeMember.value.value : undefined;
    const back = render(codec, out, sourceValues(entries), originalLocale ? { locale: originalLocale } : {});
    const canonical = doc.root.members.every((m) => {
      if (m.value.kind !== 'string' || m.key.value.startsWith('@')) return true;
      const raw = doc.text.slice(m.value.start, m.value.end);
      const plural = parseIcuPlural(m.value.value);
      const folded = plural && foldIcuPlural(plural);
      if (plural && folded) return raw === JSON.stringify(writeIcuPlural(plural.argument, folded.forms, folded.exact, plural.offset));
      return raw === JSON.stringify(m.value.value);
    });
    if (canonical) expectSameBytes(back, bytes);
    else expect(keyValues(codec.parse(back))).toEqual(keyValues(entries));
  } else {
    // The source language is untouched, the target language holds exactly the values, and removing it restores the file.
    const strip = (e: Entry): unknown => [e.key, valueOf(e), e.notes, e.translatable];
    expect(codec.parse(out).map(strip)).toEqual(entries.map(strip));
    expect(new Map(keyValues(readXcstringsLocale(out, locale)))).toEqual(values);
    const hadLocale = readXcstringsLocale(bytes, locale).length > 0;
    if (!hadLocale) expectSameBytes(render(codec, out, new Map(), { missing: 'omit', locale }), bytes);
  }
  return out;
}

// ——— corpus and fixtures ———

describe.skipIf(!existsSync(CORPUS))('shared corpus', () => {
  for (const format of FORMATS) {
    for (const [file, bytes] of corpusFiles(format)) {
      const refusal = REFUSED[`${format}/${file}`];
      if (refusal) {
        it(`${format} refuses ${file} with a clear error, as its own tooling does`, () => {
          const error = parseError(() => CODECS[format].parse(bytes));
          expect(error.message).toBe(refusal);
          expect(parseError(() => render(CODECS[format], bytes, new Map())).message).toBe(refusal);
        });
        it.skipIf(!hasPython)(`the Foundation-grammar checker rejects ${file} too`, () => {
          const [result] = runPython(STRINGS_CHECKER, [writeTemp(file, bytes)]) as [{ error?: string }];
          expect(result.error).toMatch(/^expected '=' or ';'/);
        });
      } else {
        it(`${format} round-trips ${file} byte for byte`, () => expectRoundTrip(CODECS[format], bytes));
        it(`${format} keeps ${file}'s formatting when every value changes`, () => expectFaithfulTranslation(format, bytes, 'ar'));
      }
    }
  }

  it('reads the UTF-16 strings file and its comment', () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS, 'ios_strings/tolgee-utf-16.strings')));
    expect(iosStringsCodec.parse(bytes)).toEqual([
      { key: '%d devices found', path: ['%d devices found'], source: '%d devices found', notes: 'text = (X number) devices found', line: 2, column: 22 },
    ]);
  });

  it('reads xcstrings variations and substitutions under their documented keys', () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS, 'ios_xcstrings/xcstringstool-Localizable.xcstrings')));
    const entries = iosXcstringsCodec.parse(bytes);
    expect(entries.map((e) => e.key)).toEqual([
      'continue',
      'Empty',
      'Empty.Comment',
      'Key',
      'my_snake_case',
      'my.snake_case.with-multiple-separators',
      'myDeviceVariant.device.ipad',
      'myDeviceVariant.device.mac',
      'myDeviceVariant.device.other',
      'myPlural',
      'mySubstitute',
      'mySubstitute.count',
    ]);
    expect(entries.find((e) => e.key === 'Empty.Comment')).toMatchObject({ source: 'Empty.Comment', notes: 'Value is empty but there is a comment', line: 19, column: 5 });
    expect(entries.find((e) => e.key === 'mySubstitute.count')).toMatchObject({ path: ['mySubstitute', 'count'], plurals: { one: '%arg', other: '%arg' } });
  });

  it('reads the ARB plural with surrounding text as whole-sentence forms', () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS, 'arb/tolgee-app_en.arb')));
    expect(arbCodec.parse(bytes).find((e) => e.key === 'dogsCount')).toMatchObject({
      plurals: { one: 'I have one dog.', other: 'I have {count} dogs.' },
      notes: 'The conventional newborn programmer greeting',
    });
  });
});

describe('fixtures', () => {
  for (const format of FORMATS) {
    for (const [file, bytes] of fixtureFiles(format)) {
      it(`${format}/${file} round-trips byte for byte`, () => expectRoundTrip(CODECS[format], bytes));
      it(`${format}/${file} keeps its formatting when every value changes`, () => expectFaithfulTranslation(format, bytes, 'pl'));
    }
  }

  // Guards against an editor or git setting normalising the fixtures and hollowing out the tests above.
  it('still have the byte-level traits they were written for', () => {
    const read = (p: string): Buffer => readFileSync(join(FIXTURES, p));
    const le = read('ios_strings/genstrings-utf16le.strings');
    expect(le.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xfe, 0x2f, 0x00]));
    expect(le.toString('utf16le')).toContain('\r\n"main.title"');
    expect(read('ios_strings/utf16be.strings').subarray(0, 4)).toEqual(Buffer.from([0xfe, 0xff, 0x00, 0x2f]));
    expect(read('ios_strings/bom-crlf.strings').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('ios_strings/bom-crlf.strings').toString()).toMatch(/^[^\n]*\r\n(?:[^\n]*\r\n)*$/);
    expect(read('ios_strings/no-final-newline.strings').toString()).toMatch(/;$/);
    expect(read('ios_strings/escapes.strings').toString()).toContain('"literal_newline" = "first\nsecond";');
    expect(read('ios_strings/escapes.strings').toString()).toContain('"literal tab" = "x\ty";');
    const other = read('ios_xcstrings/other-tool-crlf.xcstrings');
    expect(other.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(other.toString()).toContain('\r\n    "strings": {\r\n');
    expect(read('ios_xcstrings/features.xcstrings').toString()).toMatch(/\n {6}"comment" : "Items in the cart",\n/);
    expect(read('ios_xcstrings/features.xcstrings').toString()).toMatch(/\}$/);
    expect(read('arb/crlf-bom-tabs.arb').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('arb/crlf-bom-tabs.arb').toString()).toContain('\r\n\t"ok": "OK",\r\n');
    expect(read('arb/no-locale-minified.arb').toString()).not.toContain('\n');
  });
});

// ——— the formats' own tools accept what Parlance writes ———

/** Every accepted corpus file and fixture, rendered with every value changed for a locale with other plural categories. */
function renderedSamples(format: Format, locale: string): { name: string; source: Uint8Array; out: Uint8Array; values: Map<string, Value> }[] {
  const all = [...corpusFiles(format).filter(([f]) => !REFUSED[`${format}/${f}`]).map(([f, b]) => [`corpus-${f}`, b] as const), ...fixtureFiles(format)];
  return all.map(([name, source]) => {
    const values = pseudoValues(CODECS[format].parse(source), locale);
    return { name, source, out: render(CODECS[format], source, values, { locale }), values };
  });
}

describe('ios_strings tools', () => {
  it.skipIf(!hasPython)('a strict Foundation-grammar reader reads the sources and our renders with our keys and values', () => {
    const samples = renderedSamples('ios_strings', 'ar');
    // Omission must leave valid files too.
    const omitted = samples.map((s) => ({
      name: `omit-${s.name}`,
      out: render(iosStringsCodec, s.source, new Map([...s.values].filter((_, i) => i % 2 === 0)), { missing: 'omit' }),
    }));
    const outputs = [...samples.map((s) => ({ name: `src-${s.name}`, out: s.source })), ...samples, ...omitted];
    const results = runPython(
      STRINGS_CHECKER,
      outputs.map((o) => writeTemp(o.name, o.out)),
    ) as { pairs?: [string, string][]; error?: string }[];
    outputs.forEach((o, i) => {
      expect(results[i], o.name).toEqual({ pairs: iosStringsCodec.parse(o.out).map((e) => [e.key, e.source]) });
    });
    expect(results.length).toBeGreaterThan(10);
  });

  it.skipIf(!hasToolkit)("translate-toolkit's strings reader gives the same keys and values as ours", () => {
    // The toolkit reads strings files line by line: it cannot read two statements on a line, `"key";` shortcuts, single
    // quotes, comments after a `;`, or values with a literal line break, and leaves keys escaped. escapes.strings has all
    // of those on purpose, so it is checked by the strict reader above only.
    const samples = renderedSamples('ios_strings', 'ar').filter((s) => s.name !== 'escapes.strings');
    const args = samples.map((s) => `${readStringsFile(s.out).encoding === 'utf-8' ? 'utf-8' : 'utf-16'}:${writeTemp(`tk-${s.name}`, s.out)}`);
    const results = runPython(TOOLKIT_STRINGS, args) as [string, string][][];
    samples.forEach((s, i) => {
      expect(results[i], s.name).toEqual(iosStringsCodec.parse(s.out).map((e) => [e.key, e.source]));
      expect(results[i]!.length, s.name).toBe(s.values.size);
    });
  });
});

describe('ios_xcstrings tools', () => {
  it.skipIf(!hasPython)("Python's json module loads every render, and the target language holds exactly our values", () => {
    const samples = [...renderedSamples('ios_xcstrings', 'ar'), ...renderedSamples('ios_xcstrings', 'ja').map((s) => ({ ...s, name: `ja-${s.name}` }))];
    const args = samples.map((s) => `${writeTemp(s.name, s.out)}@${s.name.startsWith('ja-') ? 'ja' : 'ar'}`);
    const results = runPython(XCSTRINGS_READER, args) as { sourceLanguage: string; entries: Record<string, unknown>; states: string[] }[];
    samples.forEach((s, i) => {
      const result = results[i]!;
      const expected = Object.fromEntries([...s.values].map(([k, v]) => [k, typeof v === 'string' ? v : v.plurals]));
      expect(result.entries, s.name).toEqual(expected);
      expect(result.states.every((state) => state === 'translated'), s.name).toBe(true);
      expect(result.sourceLanguage).toBe(JSON.parse(dec(s.source).replace(/^\uFEFF/, '')).sourceLanguage);
    });
  });
});

describe('arb tools', () => {
  it.skipIf(!hasPython)("Python's json module loads every render with our values and locale", () => {
    const samples = renderedSamples('arb', 'ar');
    const results = runPython(
      ARB_JSON_READER,
      samples.map((s) => writeTemp(s.name, s.out)),
    ) as Record<string, string>[];
    samples.forEach((s, i) => {
      const data = results[i]!;
      for (const [key, value] of s.values) {
        if (typeof value === 'string') expect(data[key], `${s.name} ${key}`).toBe(value);
        else expect(parseIcuPlural(data[key]!)?.forms, `${s.name} ${key}`).toEqual(value.plurals);
      }
      if ('@@locale' in JSON.parse(dec(s.source).replace(/^\uFEFF/, ''))) expect(data['@@locale']).toBe('ar');
    });
  });

  it.skipIf(!hasToolkit)("translate-toolkit's ARB reader gives the same keys and values as ours", () => {
    const samples = renderedSamples('arb', 'pl');
    const results = runPython(
      TOOLKIT_ARB,
      samples.map((s) => writeTemp(`tk-${s.name}`, s.out)),
    ) as [string, string][][];
    samples.forEach((s, i) => {
      const ours = arbCodec.parse(s.out);
      const theirs = results[i]!.map(([key, text]): [string, Value] => {
        const plural = parseIcuPlural(text);
        const folded = plural && foldIcuPlural(plural);
        return [key, folded ? { plurals: folded.forms } : text];
      });
      expect(theirs, s.name).toEqual(keyValues(ours));
    });
  });
});

// ——— ios_strings ———

describe('ios_strings parse', () => {
  it('takes notes from the comments right above a key, not from a header separated by a blank line', () => {
    const src = '/* File header */\n\n/* First line */\n// second line\n"a" = "A";\n"b" = "B"; // about b\n/* No comment provided by engineer. */\n"c" = "C";\n';
    expect(iosStringsCodec.parse(enc(src)).map((e) => [e.key, e.notes])).toEqual([
      ['a', 'First line\nsecond line'],
      ['b', 'about b'],
      ['c', undefined],
    ]);
  });

  it('reads the braced dictionary form Foundation also accepts', () => {
    const src = '{\n  "a" = "A";\n  b = B;\n}\n';
    expect(keyValues(iosStringsCodec.parse(enc(src)))).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
    expect(renderText(iosStringsCodec, src, { a: 'Ä' }, { missing: 'omit' })).toBe('{\n  "a" = "Ä";\n}\n');
  });

  it('counts lines and code-point columns across CRLF, lone CR and emoji, in UTF-16 too', () => {
    const text = '/* 🚀 */\r\n"🚀🚀" = "x";\r"b" = \'y\';\n';
    const expected = [
      ['🚀🚀', 2, 8],
      ['b', 3, 7],
    ];
    expect(iosStringsCodec.parse(enc(text)).map((e) => [e.key, e.line, e.column])).toEqual(expected);
    expect(iosStringsCodec.parse(utf16(text, false)).map((e) => [e.key, e.line, e.column])).toEqual(expected);
  });

  it('reads UTF-16 without a byte order mark by its zero bytes', () => {
    const bytes = utf16('"k" = "v";', true).subarray(2);
    expect(keyValues(iosStringsCodec.parse(bytes))).toEqual([['k', 'v']]);
    expectSameBytes(render(iosStringsCodec, bytes, { k: 'v' }), bytes);
    expect(dec(render(iosStringsCodec, bytes, { k: 'w' }).slice())).not.toContain('\uFEFF');
    expect(keyValues(iosStringsCodec.parse(render(iosStringsCodec, bytes, { k: 'w' })))).toEqual([['k', 'w']]);
  });
});

describe('ios_strings render', () => {
  it('escapes \\" \\\\ and line breaks and keeps other characters literal', () => {
    const out = renderText(iosStringsCodec, '"a" = "x";\n', { a: 'say "hi" \\ \n\r\t é 🚀 {name} %1$@' });
    expect(out).toBe('"a" = "say \\"hi\\" \\\\ \\n\\r\t é 🚀 {name} %1$@";\n');
  });

  it('keeps a value identical to the source in its original spelling', () => {
    const src = '"a" = "caf\\U00e9";\n\'b\' = \'it\\\'s\';\nc = bare;\n';
    expectSameBytes(render(iosStringsCodec, src, { a: 'café', b: "it's", c: 'bare' }), enc(src));
  });

  it('writes changed single-quoted and bare values with double quotes and expands a "key"; shortcut', () => {
    const src = "'a' = 'x';\nb = y;\n\"c\";\nd;\n";
    expect(renderText(iosStringsCodec, src, { a: '1', b: '2', c: '3', d: 'd' })).toBe('\'a\' = "1";\nb = "2";\n"c" = "3";\nd;\n');
  });

  it('keeps UTF-16 BE, its BOM and line endings', () => {
    const src = utf16('/* x */\r\n"a" = "A";\r\n', false);
    const out = render(iosStringsCodec, src, { a: 'Ä 🚀' });
    expectSameBytes(out, utf16('/* x */\r\n"a" = "Ä 🚀";\r\n', false));
  });

  it('never receives plurals: a plural value is a service bug, not a file problem', () => {
    expect(() => render(iosStringsCodec, '"a" = "x";', { a: { plurals: { other: 'y' } } })).toThrow(/format_cannot_express_plural/);
  });
});

describe('ios_strings omission', () => {
  const omit = (src: string, values: Record<string, string>): string => renderText(iosStringsCodec, src, values, { missing: 'omit' });

  it('removes a statement with its comment and line, leaving one blank line between the rest', () => {
    const src = '/* Header */\n\n/* A */\n"a" = "A";\n\n/* B */\n"b" = "B";\n\n/* C */\n"c" = "C";\n';
    expect(omit(src, { a: 'A', c: 'C' })).toBe('/* Header */\n\n/* A */\n"a" = "A";\n\n/* C */\n"c" = "C";\n');
    expect(omit(src, { b: 'B' })).toBe('/* Header */\n\n/* B */\n"b" = "B";\n');
    expect(omit(src, { a: 'A' })).toBe('/* Header */\n\n/* A */\n"a" = "A";\n');
    expect(omit(src, {})).toBe('/* Header */\n');
  });

  it('removes statements sharing a line and their trailing comments, with CRLF', () => {
    expect(omit('"a" = "A"; "b" = "B"; // about b\r\n"c" = "C";\r\n', { a: 'A', c: 'C' })).toBe('"a" = "A"; \r\n"c" = "C";\r\n');
    expect(omit('"a" = "A"; // about a\r\n"c" = "C";\r\n', { c: 'C' })).toBe('"c" = "C";\r\n');
  });

  it('keeps every fixture valid when omitting at random', () => {
    for (const [file, bytes] of fixtureFiles('ios_strings')) {
      const entries = iosStringsCodec.parse(bytes);
      for (let round = 0; round < 8; round++) {
        const kept = new Map(entries.filter((_, i) => (i * 7 + round) % 3 !== 0).map((e) => [e.key, `${e.source}!`]));
        const out = render(iosStringsCodec, bytes, kept, { missing: 'omit' });
        expect(keyValues(iosStringsCodec.parse(out)), file).toEqual([...kept]);
      }
    }
  });
});

// ——— ios_xcstrings ———

const FEATURES = (): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, 'ios_xcstrings/features.xcstrings')));
const OTHER_TOOL = (): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, 'ios_xcstrings/other-tool-crlf.xcstrings')));
const xcLocale = (bytes: Uint8Array, locale: string): Map<string, Value> => new Map(keyValues(readXcstringsLocale(bytes, locale)));

describe('ios_xcstrings parse', () => {
  it('uses the key as the source where the source language has no localization, and marks shouldTranslate false', () => {
    const entries = iosXcstringsCodec.parse(FEATURES());
    expect(entries.find((e) => e.key === 'Key only')).toMatchObject({ source: 'Key only', line: 102, column: 5 });
    expect(entries.find((e) => e.key === 'Brand')).toMatchObject({ source: 'Brand', translatable: false });
    expect(entries.find((e) => e.key === 'Untranslatable with source')?.translatable).toBe(false);
    // Xcode's `""` for empty literals gives nothing to translate.
    expect(entries.some((e) => e.key === '')).toBe(false);
  });

  it('reads plurals, device variations (with plurals inside) and substitutions', () => {
    const entries = iosXcstringsCodec.parse(FEATURES());
    expect(entries.find((e) => e.key === '%lld items')).toMatchObject({
      source: '%lld items',
      plurals: { zero: 'No items', one: '%lld item', other: '%lld items' },
      notes: 'Items in the cart',
    });
    expect(entries.find((e) => e.key === 'device_plural.device.mac')).toMatchObject({ path: ['device_plural', 'device', 'mac'], plurals: { one: 'Click %lld file', other: 'Click %lld files' } });
    expect(entries.find((e) => e.key === 'device_plural.device.other')).toMatchObject({ source: 'Tap the files' });
    expect(entries.filter((e) => e.key.startsWith('pages')).map((e) => e.key)).toEqual(['pages', 'pages.books', 'pages.pages']);
    expect(entries.find((e) => e.key === 'escapes')).toMatchObject({ source: 'Say "café"\nnow / \\ \t🚀', notes: 'JSON escapes: "quoted" é / \\' });
  });

  it('reads another language with readXcstringsLocale', () => {
    expect(xcLocale(FEATURES(), 'de')).toEqual(new Map([['Hello', 'Hallo']]));
    expect(xcLocale(OTHER_TOOL(), 'en')).toEqual(new Map([['greeting', 'Hello']]));
  });
});

describe('ios_xcstrings render', () => {
  it('returns the input bytes when rendering the source language with its own values', () => {
    const bytes = FEATURES();
    expectSameBytes(render(iosXcstringsCodec, bytes, sourceValues(iosXcstringsCodec.parse(bytes)), { locale: 'en' }), bytes);
  });

  it('inserts a new language in sorted position, in the file style, touching nothing else', () => {
    const src = '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : {\n      "localizations" : {\n        "en" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "A"\n          }\n        }\n      }\n    }\n  },\n  "version" : "1.0"\n}';
    expect(renderText(iosXcstringsCodec, src, { a: 'Ä "q"' }, { locale: 'fr' })).toBe(
      src.replace(
        '        }\n      }\n    }\n  },',
        '        },\n        "fr" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "Ä \\"q\\""\n          }\n        }\n      }\n    }\n  },',
      ),
    );
    expect(renderText(iosXcstringsCodec, src, { a: 'Ä' }, { locale: 'de' })).toContain('"localizations" : {\n        "de" : {\n          "stringUnit" : {');
  });

  it('follows another tool\'s style: 4 spaces, ": ", CRLF and a BOM', () => {
    const out = renderText(iosXcstringsCodec, OTHER_TOOL(), { greeting: 'Salut', farewell: 'Au revoir' }, { locale: 'fr' });
    expect(out.startsWith('\uFEFF{\r\n')).toBe(true);
    expect(out).toContain('\r\n                "fr": {\r\n                    "stringUnit": {\r\n                        "state": "translated",\r\n                        "value": "Salut"\r\n                    }\r\n                }\r\n');
    expect(out).not.toMatch(/[^\r]\n/);
    expect(xcLocale(enc(out.slice(1)), 'fr')).toEqual(new Map([['greeting', 'Salut'], ['farewell', 'Au revoir']]));
  });

  it('replaces an existing translation, marking it translated, and keeps an unchanged one with its state', () => {
    const changed = renderText(iosXcstringsCodec, FEATURES(), { Hello: 'Guten Tag' }, { locale: 'de' });
    expect(changed).toContain('"de" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "Guten Tag"');
    expectSameBytes(render(iosXcstringsCodec, FEATURES(), { Hello: 'Hallo' }, { locale: 'de' }), FEATURES());
  });

  it('changes source-language values in place when rendering the source language', () => {
    const out = render(iosXcstringsCodec, FEATURES(), { Hello: 'Hi there', 'Key only': 'Key only' }, { locale: 'en' });
    expect(dec(out)).toContain('"value" : "Hi there"');
    expect(iosXcstringsCodec.parse(out).find((e) => e.key === 'Hello')?.source).toBe('Hi there');
    expect(xcLocale(out, 'de').get('Hello')).toBe('Hallo');
  });

  it('matches a language written with an underscore or another case', () => {
    const src = '{"sourceLanguage": "en", "strings": {"a": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "A"}}, "pt_BR": {"stringUnit": {"state": "translated", "value": "old"}}}}}}';
    const out = renderText(iosXcstringsCodec, src, { a: 'novo' }, { locale: 'pt-br' });
    expect(out).toContain('"pt_BR": {"stringUnit": {"state": "translated", "value": "novo"}}');
  });

  it('gives strings marked shouldTranslate false no target localization', () => {
    const out = render(iosXcstringsCodec, FEATURES(), { Brand: 'Marke', 'Untranslatable with source': 'x' }, { locale: 'de' });
    expectSameBytes(out, FEATURES());
  });

  it('fills variations and substitutions without a value from the source, marked needs_review', () => {
    const out = render(iosXcstringsCodec, FEATURES(), { 'device_plural.device.other': 'Dateien tippen', pages: '%#@pages@ in %#@books@ (de)' }, { locale: 'de' });
    const de = xcLocale(out, 'de');
    expect(de.get('device_plural.device.other')).toBe('Dateien tippen');
    expect(de.get('device_plural.device.mac')).toEqual({ plurals: { one: 'Click %lld file', other: 'Click %lld files' } });
    expect(de.get('pages.books')).toEqual({ plurals: { one: '%arg book', other: '%arg books' } });
    expect(dec(out).match(/"needs_review"/g)?.length).toBe(1 + 2 + 2 + 2);
    // The target gets the source's substitution details.
    expect(dec(out)).toMatch(/"de" : \{[^]*"argNum" : 2,\n\s*"formatSpecifier" : "lld"/);
  });

  it('maps source plural forms to the target categories when filling', () => {
    const out = render(iosXcstringsCodec, FEATURES(), { pages: 'x' }, { locale: 'pl' });
    expect(xcLocale(out, 'pl').get('pages.books')).toEqual({ plurals: { one: '%arg book', few: '%arg books', many: '%arg books', other: '%arg books' } });
  });

  it("omits a language's localization with missing 'omit', never the source's", () => {
    const withDe = render(iosXcstringsCodec, FEATURES(), new Map(), { missing: 'omit', locale: 'de' });
    expect(dec(withDe)).not.toContain('"de"');
    expect(dec(withDe)).toContain('"Hello" : {\n      "localizations" : {\n        "en" : {');
    expectSameBytes(render(iosXcstringsCodec, FEATURES(), new Map(), { missing: 'omit', locale: 'en' }), FEATURES());
    expectSameBytes(render(iosXcstringsCodec, FEATURES(), new Map(), { missing: 'source', locale: 'de' }), FEATURES());
    // The only localization goes with its "localizations" member.
    const src = '{"sourceLanguage": "en", "strings": {"k": {"comment": "c", "localizations": {"fr": {"stringUnit": {"state": "translated", "value": "F"}}}}}}';
    expect(renderText(iosXcstringsCodec, src, {}, { missing: 'omit', locale: 'fr' })).toBe('{"sourceLanguage": "en", "strings": {"k": {"comment": "c"}}}');
  });

  it("refuses a source plural without forms whichever language is rendered, and takes a target language's as no translation", () => {
    const sourceEmpty = '{"sourceLanguage": "en", "strings": {"a": {"localizations": {"en": {"variations": {"plural": {}}}}}}}';
    const message = 'Expected at least one form (zero, one, two, few, many, other) in the plural variations of the "en" localization of "a" at line 1, column 94';
    expect(parseError(() => iosXcstringsCodec.parse(enc(sourceEmpty))).message).toBe(message);
    expect(parseError(() => render(iosXcstringsCodec, sourceEmpty, { a: 'x' }, { locale: 'de' })).message).toBe(message);

    const emptyDe = '        "de" : {\n          "variations" : {\n            "plural" : {\n\n            }\n          }\n        },\n';
    const en = (forms: string): string => `        "en" : {\n          "variations" : {\n            "plural" : {\n${forms}\n            }\n          }\n        }\n`;
    const form = (category: string, value: string): string =>
      `              "${category}" : {\n                "stringUnit" : {\n                  "state" : "translated",\n                  "value" : "${value}"\n                }\n              }`;
    const src = (de: string): string => `{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : {\n      "localizations" : {\n${de}${en(`${form('one', '%lld item')},\n${form('other', '%lld items')}`)}      }\n    }\n  },\n  "version" : "1.0"\n}`;
    const bytes = enc(src(emptyDe));
    expect(keyValues(iosXcstringsCodec.parse(bytes))).toEqual([['a', { plurals: { one: '%lld item', other: '%lld items' } }]]);
    // A value replaces it; without one it is kept (missing 'source') or removed (missing 'omit'), as a malformed localization is.
    const de = { plurals: { one: '%lld Ding', other: '%lld Dinge' } };
    const filled = `        "de" : {\n          "variations" : {\n            "plural" : {\n${form('one', '%lld Ding')},\n${form('other', '%lld Dinge')}\n            }\n          }\n        },\n`;
    expect(renderText(iosXcstringsCodec, bytes, { a: de }, { locale: 'de' })).toBe(src(filled));
    expectSameBytes(render(iosXcstringsCodec, bytes, {}, { locale: 'de' }), bytes);
    expect(renderText(iosXcstringsCodec, bytes, {}, { locale: 'de', missing: 'omit' })).toBe(src(''));
    expect(xcLocale(render(iosXcstringsCodec, bytes, { a: 'x' }, { locale: 'fr' }), 'fr')).toEqual(new Map([['a', 'x']]));
    // Reading the language itself refuses it, as any malformed localization.
    expect(parseError(() => readXcstringsLocale(bytes, 'de')).message).toBe(
      'Expected at least one form (zero, one, two, few, many, other) in the plural variations of the "de" localization of "a" at line 8, column 24',
    );
  });

  it('writes into an empty string object the way Xcode lays it out', () => {
    const src = '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "k" : {\n\n    }\n  }\n}';
    expect(renderText(iosXcstringsCodec, src, { k: 'K!' }, { locale: 'de' })).toBe(
      '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "k" : {\n      "localizations" : {\n        "de" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "K!"\n          }\n        }\n      }\n    }\n  }\n}',
    );
  });
});

// ——— arb ———

const PLURALS_ARB = (): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, 'arb/plurals.arb')));

describe('arb parse', () => {
  it('reads whole-value ICU plurals as forms, and folds surrounding text into them', () => {
    const entries = new Map(arbCodec.parse(PLURALS_ARB()).map((e) => [e.key, e]));
    expect(entries.get('whole')).toMatchObject({ source: '{count} messages', plurals: { other: '{count} messages' }, notes: 'A whole-value plural with exact matches' });
    expect(entries.get('affixes')?.plurals).toEqual({ one: 'You have # new message from {sender}.', other: 'You have # new messages from {sender}.' });
    expect(entries.get('offset')?.plurals).toEqual({ one: '{host} and # guest', other: '{host} and # guests' });
    expect(entries.get('spaces')?.plurals).toEqual({ one: 'x', other: 'y' });
    for (const plain of ['hash_in_prefix', 'select', 'two_plurals', 'ordinal', 'unbalanced']) expect(entries.get(plain)?.plurals, plain).toBeUndefined();
  });

  it('takes notes and context from @key metadata in either order, and skips @@ attributes', () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'arb/metadata.arb')));
    expect(arbCodec.parse(bytes).map((e) => [e.key, e.notes, e.context])).toEqual([
      ['title', 'Metadata may come before its message', 'app bar'],
      ['greeting', 'Greets the user', undefined],
      ['price', undefined, undefined],
      ['empty', undefined, undefined],
    ]);
  });
});

describe('arb render', () => {
  it('sets @@locale with underscores, keeps metadata, and adds no @@locale where there was none', () => {
    const src = '{\n  "@@locale": "en",\n  "a": "A",\n  "@a": {"description": "d"}\n}\n';
    expect(renderText(arbCodec, src, { a: 'Ä' }, { locale: 'pt-BR' })).toBe('{\n  "@@locale": "pt_BR",\n  "a": "Ä",\n  "@a": {"description": "d"}\n}\n');
    expect(renderText(arbCodec, '{"a": "A"}', { a: 'Ä' }, { locale: 'de' })).toBe('{"a": "Ä"}');
    expectSameBytes(render(arbCodec, '{"@@locale": "pt_BR", "a": "A"}', { a: 'A' }, { locale: 'pt-br' }), enc('{"@@locale": "pt_BR", "a": "A"}'));
  });

  it('writes plurals with the target categories, keeping the argument, offset and exact matches', () => {
    const out = render(arbCodec, PLURALS_ARB(), { offset: { plurals: { one: '{host} i # gość', few: '{host} i # gości', many: '{host} i # gości', other: '{host} i # gościa' } } }, { locale: 'pl' });
    expect(dec(out)).toContain(
      '"offset": "{guests, plural, offset:1 =0 {Nobody} =1 {{host} alone} one {{host} i # gość} few {{host} i # gości} many {{host} i # gości} other {{host} i # gościa}}"',
    );
  });

  it('writes folded forms as a whole-value plural, with folded exact matches', () => {
    const src = '{"m": "Hi {n, plural, =0 {nobody} other {# people}}!"}';
    expect(renderText(arbCodec, src, { m: { plurals: { other: 'Salut # personnes !' } } })).toBe('{"m": "{n, plural, =0 {Hi nobody!} other {Salut # personnes !}}"}');
  });

  it('writes a text value for a plural message as text', () => {
    expect(renderText(arbCodec, '{"m": "{n, plural, other {x}}"}', { m: 'plain' })).toBe('{"m": "plain"}');
  });

  it('omits a message together with its metadata, keeping global attributes and orphan metadata', () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'arb/metadata.arb')));
    const out = render(arbCodec, bytes, { greeting: 'Hallo {firstName} {lastName}' }, { missing: 'omit', locale: 'de' });
    const data = JSON.parse(dec(out)) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['@@locale', '@@x-template', '@@last_modified', 'greeting', '@greeting', '@orphan']);
    expect(data['@@locale']).toBe('de');
    expect(renderText(arbCodec, '{\r\n\t"a": "A",\r\n\t"@a": {},\r\n\t"b": "B"\r\n}\r\n', {}, { missing: 'omit' })).toBe('{}\r\n');
    expect(renderText(arbCodec, '{\r\n\t"a": "A",\r\n\t"@a": {},\r\n\t"b": "B"\r\n}\r\n', { b: 'B' }, { missing: 'omit' })).toBe('{\r\n\t"b": "B"\r\n}\r\n');
  });
});

// ——— plurals for locales with other categories ———

describe('plurals', () => {
  const forms = (locale: string): PluralForms => Object.fromEntries(pluralCategories(locale).map((c) => [c, `${locale} ${c} # "x"`]));

  it.each(['ar', 'pl', 'ja'])('arb writes exactly the %s categories and parses back to them', (locale) => {
    const entries = arbCodec.parse(PLURALS_ARB()).filter((e) => e.plurals);
    const out = render(arbCodec, PLURALS_ARB(), new Map(entries.map((e) => [e.key, { plurals: forms(locale) }])), { locale });
    const back = new Map(arbCodec.parse(out).map((e) => [e.key, e]));
    for (const entry of entries) {
      expect(back.get(entry.key)?.plurals, entry.key).toEqual(forms(locale));
      expect(Object.keys(back.get(entry.key)!.plurals!)).toEqual(pluralCategories(locale));
    }
    expect(pluralCategories('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it.each(['ar', 'pl', 'ja'])('ios_xcstrings writes exactly the %s categories and reads them back', (locale) => {
    const entries = iosXcstringsCodec.parse(FEATURES()).filter((e) => e.plurals);
    const out = render(iosXcstringsCodec, FEATURES(), new Map(entries.map((e) => [e.key, { plurals: forms(locale) }])), { locale });
    const back = xcLocale(out, locale);
    for (const entry of entries) expect(back.get(entry.key), entry.key).toEqual({ plurals: forms(locale) });
    const categoriesInOutput = new Set([...dec(out).matchAll(/"(zero|one|two|few|many|other)" : \{/g)].map((m) => m[1]));
    for (const c of pluralCategories(locale)) expect(categoriesInOutput.has(c)).toBe(true);
  });

  it('ios_xcstrings removes categories the target does not use from an existing localization', () => {
    const en = render(iosXcstringsCodec, FEATURES(), { '%lld items': { plurals: { zero: 'z', one: 'o', other: 'x' } } }, { locale: 'lv' });
    const ja = render(iosXcstringsCodec, en, { '%lld items': { plurals: { other: 'ja' } } }, { locale: 'lv' });
    expect(xcLocale(ja, 'lv').get('%lld items')).toEqual({ plurals: { other: 'ja' } });
  });
});

// ——— malformed input ———

describe('malformed input', () => {
  function expectError(codec: Codec, input: string | Uint8Array, message: string, line: number, column: number): void {
    const bytes = typeof input === 'string' ? enc(input) : input;
    const error = parseError(() => codec.parse(bytes));
    expect(error.message).toBe(message);
    expect([error.line, error.column]).toEqual([line, column]);
    expect(parseError(() => codec.render({ source: bytes, values: new Map(), missing: 'source' })).message).toBe(message);
  }

  it.each([
    ['"a" = "x"\n"b" = "y";', 'Expected \';\' after the value of the key "a" at line 2, column 1', 2, 1],
    ['"a" = "x"', 'Expected \';\' after the value of the key "a" at line 1, column 10', 1, 10],
    ['"a" "x";', 'Expected \'=\' or \';\' after the key "a" at line 1, column 5', 1, 5],
    ['\n  "a" = "x;\n', 'Expected " to close the string that starts here before the end of the file at line 2, column 9', 2, 9],
    ["'a' = 'x", "Expected ' to close the string that starts here before the end of the file at line 1, column 7", 1, 7],
    ['"a" = "x";\n/* open', "Expected '*/' to close the comment before the end of the file at line 2, column 1", 2, 1],
    ['= "x";', 'Expected a key (a quoted string or a word of letters, digits and _$/:.-) at line 1, column 1', 1, 1],
    ['"a" = ;', 'Expected a string value after \'=\' for the key "a" at line 1, column 7', 1, 7],
    ['"a" = ', 'Expected a string value after \'=\' for the key "a" before the end of the file at line 1, column 7', 1, 7],
    ['"a" = ("x");', 'Expected a string value for the key "a" (arrays, dictionaries and data are not strings) at line 1, column 7', 1, 7],
    ['"a" = "x";\r\n"a" = "y";', 'Duplicate key "a" (first defined at line 1) at line 2, column 1', 2, 1],
    ['"🚀" = "\\u12G4";', 'Expected 4 hex digits after \\u at line 1, column 8', 1, 8],
    ['"a" = "x\\', 'Expected a character after \\ before the end of the file at line 1, column 9', 1, 9],
    ['{ "a" = "b"; ', "Expected '}' to close the dictionary opened here before the end of the file at line 1, column 1", 1, 1],
    ['{ "a" = "b"; } "c";', "Expected the end of the file after the dictionary's closing '}' at line 1, column 16", 1, 16],
    ['"a" = "b"; }', 'Expected a key (a quoted string or a word of letters, digits and _$/:.-) at line 1, column 12', 1, 12],
  ])('ios_strings %j → %s', (input, message, line, column) => expectError(iosStringsCodec, input, message, line, column));

  it('ios_strings names positions in UTF-16 files and rejects broken encodings', () => {
    expectError(iosStringsCodec, utf16('/* 🚀 */\r\n"a" = "x"\r\n', true), 'Expected \';\' after the value of the key "a" at line 3, column 1', 3, 1);
    expectError(iosStringsCodec, new Uint8Array([0xff, 0xfe, 0x22, 0x00, 0x61]), 'Invalid UTF-16 LE text (an odd number of bytes or an unpaired surrogate) at line 1, column 1', 1, 1);
    expectError(iosStringsCodec, new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x22, 0x00]), 'Invalid UTF-16 LE text (an odd number of bytes or an unpaired surrogate) at line 1, column 1', 1, 1);
    expectError(iosStringsCodec, new Uint8Array([...enc('"a" = "'), 0xc3, 0x28, ...enc('";')]), 'Invalid UTF-8 byte sequence at line 1, column 8', 1, 8);
  });

  const xc = (strings: string): string => `{\n  "sourceLanguage" : "en",\n  "strings" : {\n${strings}\n  }\n}`;
  it.each([
    ['{"sourceLanguage": "en", "strings": {}', "Expected ',' or '}' after a member at line 1, column 39", 1, 39],
    ['{\n  "strings" : {}\n}', 'Expected a "sourceLanguage" string in the top-level object at line 1, column 1', 1, 1],
    ['{\n  "sourceLanguage" : 1,\n  "strings" : {}\n}', 'Expected a string for "sourceLanguage" in the top-level object at line 2, column 22', 2, 22],
    ['{\n  "sourceLanguage" : "en"\n}', 'Expected a "strings" object in the top-level object at line 1, column 1', 1, 1],
    ['{\n  "sourceLanguage" : "en",\n  "strings" : []\n}', 'Expected an object for "strings" at line 3, column 15', 3, 15],
    [xc('    "a" : "A"'), 'Expected an object for the string "a" at line 4, column 11', 4, 11],
    [xc('    "a" : { "localizations" : [] }'), 'Expected an object for the localizations of "a" at line 4, column 31', 4, 31],
    [xc('    "a" : { "localizations" : { "en" : { "stringUnit" : { "state" : "new" } } } }'), 'Expected a "value" string in the stringUnit of the "en" localization of "a" at line 4, column 57', 4, 57],
    [xc('    "a" : { "localizations" : { "en" : { "stringUnit" : { "value" : 1 } } } }'), 'Expected a string for "value" in the stringUnit of the "en" localization of "a" at line 4, column 69', 4, 69],
    [
      xc('    "a" : { "localizations" : { "en" : { "variations" : { "plural" : { "several" : {} } } } } }'),
      'Expected a CLDR plural category (zero, one, two, few, many, other) in the plural variations of the "en" localization of "a", found "several" at line 4, column 72',
      4,
      72,
    ],
    [
      xc('    "a" : { "localizations" : { "en" : { "variations" : { "plural" : { "one" : {} } } } } }'),
      'Expected a "stringUnit" in the "one" form of the "en" localization of "a" at line 4, column 80',
      4,
      80,
    ],
    [
      xc('    "a" : { "localizations" : { "en" : { "variations" : { "plural" : {} } } } }'),
      'Expected at least one form (zero, one, two, few, many, other) in the plural variations of the "en" localization of "a" at line 4, column 70',
      4,
      70,
    ],
    [
      xc('    "a" : { "localizations" : { "en" : { "stringUnit" : { "state" : "new", "value" : "%#@n@" }, "substitutions" : { "n" : { "variations" : { "plural" : {\n\n} } } } } } }'),
      'Expected at least one form (zero, one, two, few, many, other) in the plural variations of the substitution "n" of the "en" localization of "a" at line 4, column 153',
      4,
      153,
    ],
    [
      xc('    "a.device.mac" : {},\n    "a" : { "localizations" : { "en" : { "variations" : { "device" : { "mac" : { "stringUnit" : { "value" : "M" } } } } } } }'),
      'The entries ["a.device.mac"] (line 4) and ["a","device","mac"] both give the key "a.device.mac"; rename one of them at line 5, column 109',
      5,
      109,
    ],
  ])('ios_xcstrings %j → %s', (input, message, line, column) => expectError(iosXcstringsCodec, input, message, line, column));

  it.each([
    ['{"a": "A",}', "Expected another member after ',' (trailing commas are not allowed) at line 1, column 10", 1, 10],
    ['["a"]', "Expected a JSON object ('{') as the top-level value at line 1, column 1", 1, 1],
    ['{\n  "a": 1\n}', 'Expected a string for the message "a" at line 2, column 8', 2, 8],
    ['{\n  "a": {"b": "c"}\n}', 'Expected a string for the message "a" at line 2, column 8', 2, 8],
    ['{"@@locale": ["en"]}', 'Expected a string for "@@locale" at line 1, column 14', 1, 14],
    ['{"a": "x", "a": "y"}', 'Duplicate key "a" (first defined at line 1) at line 1, column 12', 1, 12],
  ])('arb %j → %s', (input, message, line, column) => expectError(arbCodec, input, message, line, column));
});

// ——— fresh files ———

describe('renderFresh', () => {
  const plain: FreshEntry[] = [
    { key: 'b', value: 'B "q"\n', notes: 'Second */ but first' },
    { key: 'a', value: 'A' },
    { key: 'with space', value: "it's {name} %1$@ 🚀" },
  ];

  it('ios_strings writes Xcode-style comments and entries in order', () => {
    const out = iosStringsCodec.renderFresh(plain);
    expect(dec(out)).toBe('/* Second * / but first */\n"b" = "B \\"q\\"\\n";\n\n"a" = "A";\n\n"with space" = "it\'s {name} %1$@ 🚀";\n');
    expect(iosStringsCodec.parse(out).map((e) => [e.key, e.source, e.notes])).toEqual([
      ['b', 'B "q"\n', 'Second * / but first'],
      ['a', 'A', undefined],
      ['with space', "it's {name} %1$@ 🚀", undefined],
    ]);
    expect(dec(iosStringsCodec.renderFresh([]))).toBe('');
  });

  it('ios_xcstrings writes a catalog Xcode would write, keys in the given order, plurals as variations', () => {
    const entries: FreshEntry[] = [...plain, { key: 'n', value: { plurals: { one: '# file', few: '# pliki', other: '# files' } }, notes: 'count' }];
    const out = iosXcstringsCodec.renderFresh(entries, { locale: 'pl' });
    const text = dec(out);
    expect(text.startsWith('{\n  "sourceLanguage" : "pl",\n  "strings" : {\n    "b" : {\n      "comment" : "Second */ but first",\n      "extractionState" : "manual",\n')).toBe(true);
    expect(text.endsWith('\n  },\n  "version" : "1.0"\n}\n')).toBe(true);
    expect(iosXcstringsCodec.parse(out).map((e) => [e.key, valueOf(e), e.notes])).toEqual(entries.map((e) => [e.key, e.value, e.notes]));
    expect(keyValues(iosXcstringsCodec.parse(iosXcstringsCodec.renderFresh([])))).toEqual([]);
  });

  it('arb writes @@locale, messages in order with descriptions, plurals as ICU', () => {
    const entries: FreshEntry[] = [...plain, { key: 'n', value: { plurals: { one: '# file', other: '# files' } } }];
    const out = arbCodec.renderFresh(entries, { locale: 'en-GB' });
    expect(dec(out)).toBe(
      '{\n  "@@locale": "en_GB",\n  "b": "B \\"q\\"\\n",\n  "@b": {\n    "description": "Second */ but first"\n  },\n  "a": "A",\n  "with space": "it\'s {name} %1$@ 🚀",\n  "n": "{count, plural, one {# file} other {# files}}"\n}\n',
    );
    expect(arbCodec.parse(out).map((e) => [e.key, valueOf(e), e.notes])).toEqual(entries.map((e) => [e.key, e.value, e.notes]));
  });

  it('keeps the first position and the last value of a repeated key', () => {
    const entries: FreshEntry[] = [
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
      { key: 'a', value: '3' },
    ];
    for (const codec of Object.values(CODECS)) {
      expect(keyValues(codec.parse(codec.renderFresh(entries))), codec.id).toEqual([
        ['a', '3'],
        ['b', '2'],
      ]);
    }
  });
});

describe('detect', () => {
  it('recognises each format by extension and first bytes', () => {
    expect(iosStringsCodec.detect('Localizable.strings', '/* c */\n"a" = "b";')).toBe(1);
    expect(iosStringsCodec.detect('fr.lproj/Localizable.strings', '\uFEFF"a" = "b";')).toBe(1);
    expect(iosStringsCodec.detect('x.txt', '"a" = "b";')).toBeGreaterThan(0);
    expect(iosStringsCodec.detect('x.json', '{"a": "b"}')).toBe(0);
    expect(iosXcstringsCodec.detect('Localizable.xcstrings', '{\n  "sourceLanguage" : "en",')).toBe(1);
    expect(iosXcstringsCodec.detect('data.json', '{\n  "sourceLanguage" : "en",\n  "strings" : {')).toBeGreaterThan(0.6);
    expect(iosXcstringsCodec.detect('data.json', '{"a": "b"}')).toBe(0);
    expect(arbCodec.detect('app_en.arb', '{\n  "@@locale": "en"')).toBe(1);
    expect(arbCodec.detect('intl_en.json', '{\n  "@@locale": "en"')).toBeGreaterThan(0.6);
    expect(arbCodec.detect('en.json', '{"a": "b"}')).toBe(0);
    expect(arbCodec.detect('Localizable.strings', '"a" = "b";')).toBe(0);
  });
});

// ——— randomized round trips ———

describe('property: random keys and values survive render → parse', () => {
  const piece = fc.constantFrom(
    'a', 'Z', ' ', '"', "'", '\\', '\n', '\r\n', '\r', '\t', '🚀', '👩‍👩‍👧', 'مرحبا', 'שלום', '\u200f', '{name}', '{{x}}', '%s', '%1$s', '%@', '%lld',
    'é', '/*', '*/', '//', ';', '=', '<b>', '&amp;', '\\n', '\\U00e9', '\u2028',
  );
  const text = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
  const keys = (filter: (k: string) => boolean = () => true): fc.Arbitrary<string[]> => fc.uniqueArray(text.filter(filter), { minLength: 1, maxLength: 6 });
  const runs = { numRuns: 100 };

  it('ios_strings (UTF-8 and UTF-16)', () => {
    fc.assert(
      fc.property(keys(), fc.array(text, { minLength: 12, maxLength: 12 }), fc.boolean(), (names, texts, wide) => {
        const first = new Map(names.map((k, i) => [k, texts[i]!]));
        const fresh = iosStringsCodec.renderFresh([...first].map(([key, value]) => ({ key, value })));
        const file = wide ? utf16(dec(fresh), true) : fresh;
        expect(keyValues(iosStringsCodec.parse(file))).toEqual([...first]);
        const next = new Map(names.map((k, i) => [k, texts[i + 6]!]));
        const out = render(iosStringsCodec, file, next);
        expect(keyValues(iosStringsCodec.parse(out))).toEqual([...next]);
        expect(stringsSkeleton(out)).toBe(stringsSkeleton(file));
        expectSameBytes(render(iosStringsCodec, out, first), file);
        const kept = new Map([...next].filter((_, i) => i % 2 === 1));
        expect(keyValues(iosStringsCodec.parse(render(iosStringsCodec, out, kept, { missing: 'omit' })))).toEqual([...kept]);
      }),
      runs,
    );
  });

  it('ios_xcstrings (text and plurals, source and target languages)', () => {
    const value = fc.oneof(text, fc.record({ one: text, few: text, many: text, other: text }).map((plurals): Value => ({ plurals })));
    fc.assert(
      fc.property(keys(), fc.array(value, { minLength: 12, maxLength: 12 }), (names, values) => {
        const first = new Map(names.map((k, i): [string, Value] => [k, values[i]!]));
        const fresh = iosXcstringsCodec.renderFresh([...first].map(([key, v]) => ({ key, value: v })), { locale: 'pl' });
        expect(keyValues(iosXcstringsCodec.parse(fresh))).toEqual([...first]);
        const next = new Map(names.map((k, i): [string, Value] => [k, values[i + 6]!]));
        const target = render(iosXcstringsCodec, fresh, next, { locale: 'uk' });
        expect(xcLocale(target, 'uk')).toEqual(next);
        expect(keyValues(iosXcstringsCodec.parse(target))).toEqual([...first]);
        expectSameBytes(render(iosXcstringsCodec, target, new Map(), { missing: 'omit', locale: 'uk' }), fresh);
        const source = render(iosXcstringsCodec, fresh, next, { locale: 'pl' });
        expect(keyValues(iosXcstringsCodec.parse(source))).toEqual([...next]);
      }),
      runs,
    );
  });

  it('arb (text and plurals)', () => {
    const value = fc.oneof(
      text,
      fc.record({ one: text, other: text }).map((plurals): Value => ({ plurals: Object.fromEntries(Object.entries(plurals).map(([c, t]) => [c, t.replace(/[{}'#]/g, '')])) })),
    );
    fc.assert(
      fc.property(keys((k) => !k.startsWith('@')), fc.array(value, { minLength: 12, maxLength: 12 }), (names, values) => {
        const first = new Map(names.map((k, i): [string, Value] => [k, values[i]!]));
        const fresh = arbCodec.renderFresh([...first].map(([key, v]) => ({ key, value: v })));
        expect(keyValues(arbCodec.parse(fresh))).toEqual([...first]);
        const next = new Map(names.map((k, i): [string, Value] => [k, values[i + 6]!]));
        const out = render(arbCodec, fresh, next, { locale: 'de' });
        expect(keyValues(arbCodec.parse(out))).toEqual([...next]);
        expect(arbSkeleton(out)).toBe(arbSkeleton(fresh));
        expectSameBytes(render(arbCodec, out, first, { locale: 'en' }), fresh);
      }),
      runs,
    );
  });
});
