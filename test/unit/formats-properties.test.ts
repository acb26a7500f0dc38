// Unit tests for the properties codec: Properties.load semantics, byte-faithful splicing, escaping, and Java's and translate-toolkit's reading.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { propertiesCodec, scanProperties } from '../../src/core/formats/properties.js';
import { parseError } from '../helpers/formats.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'test/fixtures/formats/properties');
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/properties/', import.meta.url));
const PYTHON = '/usr/bin/python3';
const hasJava = spawnSync('javac', ['-version']).status === 0 && spawnSync('java', ['-version']).status === 0;
const hasToolkit = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'from translate.storage import properties']).status === 0;

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
// ignoreBOM keeps a BOM visible in the decoded string, so comparisons see it.
const dec = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const stripBom = (b: Uint8Array): Uint8Array => (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b);

let scratch: string | undefined;
let counter = 0;
function temp(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'parlance-properties-'));
  return scratch;
}
function writeTemp(bytes: Uint8Array): string {
  const path = join(temp(), `f${counter++}.properties`);
  writeFileSync(path, bytes);
  return path;
}
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(latin1(actual)).toBe(latin1(expected));
  expect(Buffer.compare(Buffer.from(actual), Buffer.from(expected))).toBe(0);
}

function render(source: string | Uint8Array, values: Record<string, string>, missing: 'source' | 'omit' = 'source'): string {
  const bytes = typeof source === 'string' ? enc(source) : source;
  return dec(propertiesCodec.render({ source: bytes, values: new Map(Object.entries(values)), missing }));
}

/** What Properties.load ends up with: every key's last value. */
function effective(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(propertiesCodec.parse(bytes).map((e) => [e.key, e.source]));
}

/** The text with every effective value blanked out (a key without separator gains the `=` a written value brings). */
function skeleton(bytes: Uint8Array): string {
  const doc = scanProperties(bytes);
  let out = doc.bom ? 'BOM:' : '';
  let at = 0;
  for (const pair of doc.pairs) {
    if (doc.byKey.get(pair.key) !== pair) continue;
    out += `${doc.text.slice(at, pair.writeStart)}${pair.bare ? '=' : ''}<v>`;
    at = pair.valueEnd;
  }
  return out + doc.text.slice(at);
}

/** A translation with everything a value has to escape: a leading space, separators, comment characters, newlines, non-ASCII. */
const pseudo = (s: string): string => `  [${s}] "q" 'a' \\ \\n\n\t\r\f<b>&amp;</b> é 🚀 עברית مرحبا = : # ! {0} %s \u2028`;

function expectFaithfulTranslation(bytes: Uint8Array): Uint8Array {
  const entries = propertiesCodec.parse(bytes);
  const values = new Map(entries.map((e) => [e.key, pseudo(e.source)]));
  const out = propertiesCodec.render({ source: bytes, values, missing: 'source' });
  expect(propertiesCodec.parse(out).map((e) => [e.key, e.source])).toEqual(entries.map((e) => [e.key, pseudo(e.source)]));
  expect(skeleton(out)).toBe(skeleton(bytes));
  // An ASCII file stays one: every written non-ASCII character is a \u escape.
  if (scanProperties(bytes).style === 'ascii') expect([...latin1(out)].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
  return out;
}

function expectRoundTrip(bytes: Uint8Array): void {
  const entries = propertiesCodec.parse(bytes);
  for (const entry of entries) expect(entry.path).toEqual([entry.key]);
  const all = new Map(entries.map((e) => [e.key, e.source]));
  expectSameBytes(propertiesCodec.render({ source: bytes, values: all, missing: 'source' }), bytes);
  expectSameBytes(propertiesCodec.render({ source: bytes, values: all, missing: 'omit' }), bytes);
  expectSameBytes(propertiesCodec.render({ source: bytes, values: new Map(), missing: 'source' }), bytes);
}

// ---------------------------------------------------------------------------------------------------------------------
// Java and translate-toolkit

const JAVA_SOURCE = `
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

/** Prints each file's properties as one JSON object per line; arguments are pairs of mode (latin1 | utf8) and path. */
public class PropsDump {
  public static void main(String[] args) throws Exception {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i + 1 < args.length; i += 2) {
      Properties p = new Properties();
      if (args[i].equals("utf8")) {
        try (Reader r = new InputStreamReader(new FileInputStream(args[i + 1]), StandardCharsets.UTF_8)) { p.load(r); }
      } else {
        try (InputStream in = new FileInputStream(args[i + 1])) { p.load(in); }
      }
      out.append('{');
      boolean first = true;
      for (String k : new TreeSet<>(p.stringPropertyNames())) {
        if (!first) out.append(',');
        first = false;
        out.append(q(k)).append(':').append(q(p.getProperty(k)));
      }
      out.append("}\\n");
    }
    System.out.print(out);
  }

  static String q(String s) {
    StringBuilder b = new StringBuilder("\\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\\\') b.append('\\\\').append(c);
      else if (c < 0x20 || c > 0x7e) b.append(String.format("\\\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
`;

let javaClasses: string | undefined;

/** What java.util.Properties reads from each file: load(InputStream) (ISO-8859-1) or load(Reader) over UTF-8. */
function readWithJava(files: { bytes: Uint8Array; mode: 'latin1' | 'utf8' }[]): Record<string, string>[] {
  if (!javaClasses) {
    const dir = mkdtempSync(join(temp(), 'java-'));
    writeFileSync(join(dir, 'PropsDump.java'), JAVA_SOURCE);
    const compiled = spawnSync('javac', ['-d', dir, join(dir, 'PropsDump.java')], { encoding: 'utf8' });
    expect(compiled.stderr).toBe('');
    javaClasses = dir;
  }
  // Java's loaders take a BOM for part of the first key; Parlance keeps the BOM a file has, so Java is shown the rest.
  const args = files.flatMap(({ bytes, mode }) => [mode, writeTemp(stripBom(bytes))]);
  const run = spawnSync('java', ['-cp', javaClasses, 'PropsDump', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
}

/** The loader that matches how a file is written: UTF-8 text needs load(Reader); ASCII and Latin-1 files are what load(InputStream) reads. */
function modes(bytes: Uint8Array): ('latin1' | 'utf8')[] {
  const { style } = scanProperties(bytes);
  return style === 'utf8' ? ['utf8'] : style === 'ascii' ? ['latin1', 'utf8'] : ['latin1'];
}

function expectJavaAgrees(files: [string, Uint8Array][]): void {
  const jobs = files.flatMap(([name, bytes]) => modes(bytes).map((mode) => ({ name, bytes, mode })));
  const read = readWithJava(jobs);
  jobs.forEach(({ name, bytes, mode }, i) => expect(read[i], `${name} (${mode})`).toEqual(sortedObject(effective(bytes))));
}

function sortedObject(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * translate-toolkit's reading (keys unescaped, the last of repeated keys winning). It splits only at '=', ':' and
 * space, and does not join a key continued onto the next line: `ignore` names keys it cannot read, by file.
 */
function readWithToolkit(files: Uint8Array[]): Record<string, string>[] {
  const script = `
import json, sys
from translate.storage import properties
from translate.misc import quote
out = []
for path in sys.argv[1:]:
    raw = open(path, 'rb').read()
    try:
        raw.decode('utf-8')
        personality = 'java-utf8'
    except UnicodeDecodeError:
        personality = 'java'
    store = properties.propfile(personality=personality)
    store.parse(raw)
    out.append({quote.propertiesdecode(u.name): u.source for u in store.units if u.name})
print(json.dumps(out))
`;
  const run = spawnSync(PYTHON, ['-c', script, ...files.map((b) => writeTemp(b))], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<string, string>[];
}

const TOOLKIT_MISREADS: Record<string, string[]> = {
  'separators.properties': ['tab'],
  'continuation.properties': ['key.continued'],
};

function expectToolkitAgrees(files: [string, Uint8Array][]): void {
  const read = readWithToolkit(files.map(([, bytes]) => bytes));
  files.forEach(([name, bytes], i) => {
    const ignore = new Set(TOOLKIT_MISREADS[name] ?? []);
    const ours = Object.entries(effective(bytes)).filter(([k]) => !ignore.has(k));
    const theirs = read[i]!;
    expect(Object.fromEntries(ours.map(([k]) => [k, theirs[k]])), name).toEqual(Object.fromEntries(ours));
  });
}

function files(dir: string): [string, Uint8Array][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.properties'))
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

// ---------------------------------------------------------------------------------------------------------------------

for (const [where, dir] of [
  ['shared corpus', CORPUS],
  ['fixtures', FIXTURES],
] as const) {
  describe.skipIf(!existsSync(dir))(where, () => {
    const all = files(dir);
    for (const [file, bytes] of all) {
      it(`${file} round-trips byte for byte`, () => expectRoundTrip(bytes));
      it(`${file} keeps everything but the values when every value changes`, () => {
        expectFaithfulTranslation(bytes);
      });
    }

    it.skipIf(!hasJava)('java.util.Properties reads every source and every pseudo-translated target as we do', () => {
      const targets = all.map(([file, bytes]): [string, Uint8Array] => [`${file} (target)`, expectFaithfulTranslation(bytes)]);
      expectJavaAgrees([...all, ...targets]);
    });

    it.skipIf(!hasToolkit)('translate-toolkit reads every source and every pseudo-translated target as we do', () => {
      const targets = all.map(([file, bytes]): [string, Uint8Array] => [file, expectFaithfulTranslation(bytes)]);
      expectToolkitAgrees([...all, ...targets]);
    });
  });
}

describe('fixtures at the byte level', () => {
  // Guards against an editor or git setting normalising the fixtures and hollowing out the tests above.
  it('still have the traits they were written for', () => {
    const read = (p: string): Buffer => readFileSync(join(FIXTURES, p));
    expect(read('crlf.properties').toString('latin1')).toMatch(/^[^\n]*\r\n(?:[^\n]*\r\n)*$/);
    expect(read('bom.properties').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('latin1.properties').includes(Buffer.from([0xc9, 0x74, 0xe9]))).toBe(true);
    expect(read('separators.properties').toString()).toContain('\ntab\tvalue');
    expect(read('separators.properties').toString()).toContain('\nbare.spaced   \n');
    expect(read('separators.properties').toString()).toContain('\nemptyspaced = \n');
    expect(read('duplicates-comments.properties').toString()).toMatch(/no newline$/);
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('parse', () => {
  const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));

  it('splits keys and values at every separator Properties.load accepts', () => {
    expect(propertiesCodec.parse(fixture('separators.properties')).map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['equals', 'value with equals', 2, 8],
      ['colon', 'value after colon and space', 3, 8],
      ['space', 'value after a space', 4, 7],
      ['tab', 'value after a tab', 5, 5],
      ['spaced', 'value with spaces around the separator', 6, 14],
      ['colonequals', '=value starting with an equals sign', 7, 13],
      ['indented.key', 'indented line', 8, 20],
      ['empty', '', 9, 7],
      ['emptyspaced', '', 10, 15],
      ['bare', '', 11, 5],
      ['bare.spaced', '', 12, 15],
      ['ends.with.escaped.backslash', 'C:\\path\\', 13, 29],
      ['last', 'the end', 15, 8],
    ]);
    expect(propertiesCodec.parse(fixture('separators.properties')).at(-1)!.notes).toBe('comment directly above the last key');
  });

  it('decodes escapes as loadConvert does', () => {
    expect(effective(fixture('escapes.properties'))).toEqual({
      unicode: 'Café üß 🚀 שלום',
      controls: 'tab\there\nnewline\rreturn\fformfeed',
      separators: 'a=b:c #hash !bang',
      leading: '   three leading spaces kept',
      'key with spaces': 'value',
      'key=with:seps': 'value',
      '#not.a.comment': 'value',
      anyqescape: 'qwe letters stand for themselves',
      backslashes: 'one \\ two \\\\ end',
      quotes: 'It\'s "quoted" <b>&amp;</b> {name} %s %1$s',
    });
  });

  it('joins continuation lines, skipping their leading whitespace', () => {
    expect(propertiesCodec.parse(fixture('continuation.properties')).map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['multi', 'first line, second line, third line', 2, 9],
      ['key.continued', 'value of a key split over lines', 6, 15],
      ['even.backslashes', 'ends with two \\', 7, 20],
      ['not.continued', 'next line is its own', 8, 17],
      ['odd.backslashes', 'ends with three \\continued after an escaped backslash', 9, 19],
      ['comment.followed', 'value', 12, 20],
      ['empty.continuation', '', 14, 1],
      ['after.empty', 'value', 15, 15],
      ['hash.continued', 'first # not a comment but part of the value', 16, 18],
    ]);
  });

  it('keeps the last of repeated keys with its own comments, as Properties.load does', () => {
    expect(propertiesCodec.parse(fixture('duplicates-comments.properties')).map((e) => [e.key, e.source, e.notes, e.line])).toEqual([
      ['title', 'Second title wins', undefined, 7],
      ['subtitle', 'Sub', 'orphan comment at the end', 9],
      ['last.no.newline', 'the last line has no newline', undefined, 10],
    ]);
    const first = 'title=x\n# a\n! b\ntitle=y\n';
    expect(propertiesCodec.parse(enc(first))).toEqual([{ key: 'title', path: ['title'], source: 'y', notes: 'a\nb', line: 4, column: 7 }]);
  });

  it('reads UTF-8 when it is valid and ISO-8859-1 otherwise, and a BOM, CRLF or lone CR line endings', () => {
    expect(effective(fixture('utf8.properties')).greeting).toBe('Grüße aus Köln 🚀');
    expect(effective(fixture('latin1.properties'))).toEqual({ summer: 'Été à Zürich', escaped: 'été' });
    expect(scanProperties(fixture('latin1.properties')).style).toBe('latin1');
    expect(scanProperties(fixture('escapes.properties')).style).toBe('ascii');
    expect(scanProperties(fixture('utf8.properties')).style).toBe('utf8');
    expect(propertiesCodec.parse(fixture('bom.properties'))[0]).toMatchObject({ key: 'first', line: 1, column: 7 });
    expect(effective(fixture('crlf.properties'))).toEqual({ one: 'One', two: 'Two continued', three: 'Three' });
    expect(propertiesCodec.parse(enc('a=1\rb = 🚀\\\r  2\r\nc=3')).map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['a', '1', 1, 3],
      ['b', '🚀2', 2, 5],
      ['c', '3', 4, 3],
    ]);
  });

  it('detects .properties files by name', () => {
    expect(propertiesCodec.detect('messages_de.properties', 'a=b')).toBe(0.9);
    expect(propertiesCodec.detect('messages.txt', 'a=b')).toBe(0);
  });
});

describe('render with translations', () => {
  it('splices values after every kind of separator', () => {
    const src = 'a=1\nb: 2\nc 3\nd\t4\ne\nf   \ng=\nh = \\\n  long \\\n  value\n';
    expect(render(src, { a: 'A', b: 'B', c: 'C', d: 'D', e: 'E', f: 'F', g: 'G', h: 'H' })).toBe('a=A\nb: B\nc C\nd\tD\ne=E\nf   F\ng=G\nh = H\n');
  });

  it('escapes what the format needs and nothing more', () => {
    const src = 'plain=x\nspaced x\n';
    expect(render(src, { plain: ' lead = : # ! \\ \n\t\r\f "q" \'a\' \u0001 \u2028', spaced: '=starts with a separator' })).toBe(
      'plain=\\ lead = : # ! \\\\ \\n\\t\\r\\f "q" \'a\' \\u0001 \\u2028\nspaced \\=starts with a separator\n',
    );
    expect(render('a=x\n', { a: ':x' })).toBe('a=:x\n');
  });

  it('keeps non-ASCII as \\u escapes in ASCII and Latin-1 files, and raw in UTF-8 files', () => {
    expect(render('a=x\n', { a: 'é 🚀 עברית' })).toBe('a=\\u00E9 \\uD83D\\uDE80 \\u05E2\\u05D1\\u05E8\\u05D9\\u05EA\n');
    expect(render('# café\na=x\n', { a: 'é 🚀' })).toBe('# café\na=é 🚀\n');
    const latin = new Uint8Array(readFileSync(join(FIXTURES, 'latin1.properties')));
    const out = propertiesCodec.render({ source: latin, values: new Map([['escaped', 'Ça 🚀']]), missing: 'source' });
    expect(latin1(out)).toBe(latin1(latin).replace('escaped=\\u00e9t\\u00e9', 'escaped=\\u00C7a \\uD83D\\uDE80'));
  });

  it('writes a changed continued value on one line and keeps unchanged ones as they were', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'continuation.properties')));
    const out = render(src, { multi: 'eins', 'key.continued': 'zwei', 'odd.backslashes': 'ends with three \\continued after an escaped backslash' });
    expect(out).toContain('multi = eins\nkey.\\\n  continued = zwei\n');
    expect(out).toContain('odd.backslashes = ends with three \\\\\\\n  continued after an escaped backslash\n');
  });

  it('keeps the raw spelling of values equal to the source', () => {
    const src = 'a=caf\\u00e9 \\\n   x\nb = \\ lead\n';
    expect(render(src, { a: 'café x', b: ' lead' })).toBe(src);
  });

  it('writes the effective one of repeated keys and keeps CRLF and the BOM', () => {
    const src = '\uFEFFk=1\r\nk=2\r\nm=3';
    expect(render(src, { k: 'eins', m: 'drei' })).toBe('\uFEFFk=1\r\nk=eins\r\nm=drei');
  });

  it('ignores keys the file does not have', () => {
    expect(render('a=1\n', { b: '2' })).toBe('a=1\n');
  });
});

describe('render with missing: omit', () => {
  const SRC = '# header\n\n# about a\na=1\nb = two \\\n  lines\n! about c\nc=3\n';

  it.each([
    ['the first key (its comments stay)', { b: 'B', c: 'C' }, '# header\n\n# about a\nb = B\n! about c\nc=C\n'],
    ['a continued key with all its lines', { a: 'A', c: 'C' }, '# header\n\n# about a\na=A\n! about c\nc=C\n'],
    ['the last key', { a: 'A', b: 'B' }, '# header\n\n# about a\na=A\nb = B\n! about c\n'],
    ['every key', {}, '# header\n\n# about a\n! about c\n'],
  ])('removes %s', (_name, values, expected) => {
    expect(render(SRC, values, 'omit')).toBe(expected);
  });

  it('keeps the missing final newline and removes every repeat of a key', () => {
    expect(render('a=1\nb=2', { a: 'A' }, 'omit')).toBe('a=A');
    expect(render('b=0\r\na=1\r\nb=2', { a: 'A' }, 'omit')).toBe('a=A');
    expect(render('only=1', {}, 'omit')).toBe('');
  });
});

describe('malformed input', () => {
  it.each([
    ['a=\\u12G4', 'Expected 4 hex digits after \\u (malformed \\uXXXX escape) at line 1, column 3', 1, 3],
    ['a=ok\nb = x\\u00', 'Expected 4 hex digits after \\u (malformed \\uXXXX escape) at line 2, column 6', 2, 6],
    ['# c\n\\u00zz=v', 'Expected 4 hex digits after \\u (malformed \\uXXXX escape) at line 2, column 1', 2, 1],
    ['k = a \\\n   \\u12', 'Expected 4 hex digits after \\u (malformed \\uXXXX escape) at line 2, column 4', 2, 4],
    ['🚀=\\u', 'Expected 4 hex digits after \\u (malformed \\uXXXX escape) at line 1, column 3', 1, 3],
  ])('%j → %s', (input, message, line, column) => {
    const error = parseError(() => propertiesCodec.parse(enc(input)));
    expect(error.message).toBe(message);
    expect([error.line, error.column]).toEqual([line, column]);
    expect(parseError(() => propertiesCodec.render({ source: enc(input), values: new Map(), missing: 'source' })).message).toBe(message);
  });

  it('refuses UTF-16', () => {
    const error = parseError(() => propertiesCodec.parse(new Uint8Array([0xff, 0xfe, 0x61, 0x00])));
    expect(error.message).toBe('The file is UTF-16 encoded; expected UTF-8 or ISO-8859-1 at line 1, column 1');
  });
});

describe('renderFresh', () => {
  it('writes key=value lines in ASCII with notes above, in the given order', () => {
    const out = propertiesCodec.renderFresh([
      { key: 'greeting', value: 'Grüße 🚀', notes: 'replaced by the repeat below' },
      { key: 'a key=with:seps #!', value: ' lead\nnext' },
      { key: '#hash', value: '' },
      { key: 'greeting', value: 'Hallo', notes: 'shown first\nsecond line' },
    ]);
    expect(dec(out)).toBe('# shown first\n# second line\ngreeting=Hallo\na\\ key\\=with\\:seps\\ \\#\\!=\\ lead\\nnext\n\\#hash=\n');
    expect(propertiesCodec.parse(out).map((e) => [e.key, e.source, e.notes])).toEqual([
      ['greeting', 'Hallo', 'shown first\nsecond line'],
      ['a key=with:seps #!', ' lead\nnext', undefined],
      ['#hash', '', undefined],
    ]);
    expect(dec(propertiesCodec.renderFresh([]))).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('property: keys and values survive', () => {
  const PIECES = [
    'a', 'Z', ' ', '  ', '"', "'", '\\', '\\u0041', '\n', '\r', '\t', '\f', '\r\n', '\u0000', '\u0001', '=', ':', '#', '!',
    '🚀', 'שלום', 'مرحبا', '\u200f', '\u2028', '\u0085', '\uFEFF', '\ud800', 'é', 'ÿ', '{name}', '{0}', '%s', '%1$s', "''",
  ];
  const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join(''));
  const rows = fc.uniqueArray(fc.tuple(text, text), { selector: ([k]) => k, maxLength: 6 });

  it('renderFresh, parse, render and parse give the values back', () => {
    fc.assert(
      fc.property(rows, fc.array(text, { minLength: 6, maxLength: 6 }), fc.boolean(), (pairs, next, omitSome) => {
        const file = propertiesCodec.renderFresh(pairs.map(([key, value]) => ({ key, value })));
        expect(propertiesCodec.parse(file).map((e) => [e.key, e.source])).toEqual(pairs);
        const values = new Map(pairs.filter((_, i) => !omitSome || i % 2 === 0).map(([k], i) => [k, next[i]!]));
        const out = propertiesCodec.render({ source: file, values, missing: omitSome ? 'omit' : 'source' });
        const expected = pairs.flatMap(([k, v]): [string, string][] => (values.has(k) ? [[k, values.get(k)!]] : omitSome ? [] : [[k, v]]));
        expect(propertiesCodec.parse(out).map((e) => [e.key, e.source])).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('values written into every fixture read back, whatever the file style', () => {
    const sources = files(FIXTURES);
    fc.assert(
      fc.property(fc.constantFrom(...sources), fc.array(text, { minLength: 20, maxLength: 20 }), ([, bytes], next) => {
        const entries = propertiesCodec.parse(bytes);
        const values = new Map(entries.map((e, i) => [e.key, next[i % next.length]!]));
        const out = propertiesCodec.render({ source: bytes, values, missing: 'source' });
        expect(propertiesCodec.parse(out).map((e) => [e.key, e.source])).toEqual([...values]);
        expect(skeleton(out)).toBe(skeleton(bytes));
      }),
      { numRuns: 100 },
    );
  });

  it.skipIf(!hasJava)('java.util.Properties reads random fresh and rendered files as we do', () => {
    const samples = fc.sample(fc.tuple(rows, fc.array(text, { minLength: 6, maxLength: 6 })), { numRuns: 40, seed: 7 });
    const made: [string, Uint8Array][] = [];
    for (const [i, [pairs, next]] of samples.entries()) {
      const file = propertiesCodec.renderFresh(pairs.map(([key, value]) => ({ key, value })));
      made.push([`fresh ${i}`, file]);
      const utf8 = new Uint8Array(readFileSync(join(FIXTURES, 'utf8.properties')));
      const values = new Map(propertiesCodec.parse(utf8).map((e, k) => [e.key, next[k]!]));
      made.push([`utf8 ${i}`, propertiesCodec.render({ source: utf8, values, missing: 'source' })]);
    }
    expectJavaAgrees(made);
  });
});
