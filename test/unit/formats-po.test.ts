// Unit tests for the po and unreal_po codecs and gettext Plural-Forms: byte-faithful round trips, splicing, plural slots, gettext's own tools.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Codec, type Entry, type FreshEntry, type PluralForms, type Value } from '../../src/core/formats/codec.js';
import { compilePluralExpression, GETTEXT_PLURAL_TABLE, gettextPlurals } from '../../src/core/formats/plural-forms.js';
import { poCodec } from '../../src/core/formats/po.js';
import { applySplices, gettextKey, headerField, parseHeader, scanPo, type Splice } from '../../src/core/formats/po-scan.js';
import { unrealPoCodec } from '../../src/core/formats/unreal-po.js';
import { pluralCategories, sourceFormsFor } from '../../src/core/plurals.js';
import { parseError } from '../helpers/formats.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'test/fixtures/formats');
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const PYTHON = '/usr/bin/python3';
const hasMsgfmt = spawnSync('msgfmt', ['--version']).status === 0;
const hasPython = existsSync(PYTHON);
const hasToolkit = hasPython && spawnSync(PYTHON, ['-c', 'from translate.storage import po']).status === 0;

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
// ignoreBOM keeps a BOM visible in the decoded string, so comparisons see it.
const dec = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
const stripBom = (b: Uint8Array): Uint8Array => (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b);

let scratch: string | undefined;
let counter = 0;
function writeTemp(bytes: Uint8Array, ext = '.po'): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'parlance-po-'));
  const path = join(scratch, `f${counter++}${ext}`);
  writeFileSync(path, bytes);
  return path;
}
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(dec(actual)).toBe(dec(expected));
  expect(Buffer.compare(Buffer.from(actual), Buffer.from(expected))).toBe(0);
}

function render(codec: Codec, source: string | Uint8Array, values: Record<string, Value>, options: { missing?: 'source' | 'omit'; locale?: string } = {}): string {
  const bytes = typeof source === 'string' ? enc(source) : source;
  return dec(codec.render({ source: bytes, values: new Map(Object.entries(values)), missing: options.missing ?? 'source', locale: options.locale }));
}

/** Every value equal to its entry's source: what must give the file back unchanged. */
function sourceValues(entries: readonly Entry[]): Map<string, Value> {
  return new Map(entries.map((e) => [e.key, e.plurals ? { plurals: e.plurals } : e.source]));
}

/** The msgstr forms of every message but the header, by gettext key, as our scanner reads them. */
function msgstrs(bytes: Uint8Array): Map<string, string[]> {
  return new Map(scanPo(bytes).messages.filter((m) => !m.header).map((m) => [gettextKey(m), m.msgstr.map((f) => f.value)]));
}

/** A target file's plural forms for a key, by CLDR category through the locale's slot layout. */
function readPlurals(bytes: Uint8Array, key: string, locale: string): PluralForms {
  const forms = msgstrs(bytes).get(key) ?? [];
  const { categories } = gettextPlurals(locale);
  expect(forms).toHaveLength(categories.length);
  return Object.fromEntries(categories.map((c, i) => [c, forms[i]]));
}

function headerOf(bytes: Uint8Array): [string, string][] {
  const header = scanPo(bytes).header;
  return header ? parseHeader(header.msgstr[0]!.value) : [];
}

/** The text with every msgstr, the header block and `fuzzy` flags blanked out: what must not change when values change. */
function skeleton(bytes: Uint8Array): string {
  const doc = scanPo(bytes);
  const splices: Splice[] = [];
  for (const m of doc.messages) {
    if (m.header) {
      splices.push({ start: m.start, end: m.end, text: '<header>\n' });
      continue;
    }
    splices.push({ start: m.msgstr[0]!.lineStart, end: m.msgstr[m.msgstr.length - 1]!.end, text: '<msgstr>' });
    for (const c of m.comments) {
      if (c.kind !== 'flags') continue;
      const rest = c.text.split(',').map((f) => f.trim()).filter((f) => f !== '' && f !== 'fuzzy');
      splices.push({ start: c.start, end: c.end, text: rest.length === 0 ? '' : `<flags ${rest.join(',')}>\n` });
    }
  }
  return `${doc.bom ? 'BOM:' : ''}${applySplices(doc.text, splices).replace(/\r\n?/g, '\n')}`;
}

/** The character at a 1-based line and code-point column. */
function charAt(bytes: Uint8Array, line: number, column: number): string {
  const lines = dec(stripBom(bytes)).split(/\r\n|\n|\r/);
  return [...(lines[line - 1] ?? '')][column - 1] ?? '';
}

/**
 * Wraps text in awkward characters msgfmt accepts anywhere: no '%' or braces (format checks compare directives), and the
 * leading and trailing newlines kept, since msgfmt --check requires msgid and msgstr to agree on them.
 */
function pseudo(text: string, tag = ''): string {
  const lead = /^\n*/.exec(text)![0];
  const rest = text.slice(lead.length);
  const trail = /\n*$/.exec(rest)![0];
  const core = rest.slice(0, rest.length - trail.length);
  return `${lead}[${core}${tag} "q" 'a' \\ \t<b>&amp;</b>\n🚀 עברית مرحبا]${trail}`;
}

/** Pseudo-translated values for every entry, plural ones with exactly the target locale's categories. */
function pseudoValues(entries: readonly Entry[], locale: string): Map<string, Value> {
  return new Map(
    entries.map((e): [string, Value] => {
      if (!e.plurals) return [e.key, pseudo(e.source)];
      const start = sourceFormsFor(locale, e.plurals);
      return [e.key, { plurals: Object.fromEntries(Object.entries(start).map(([c, s]) => [c, pseudo(s, ` ${c}`)])) }];
    }),
  );
}

/** The msgstr forms a value must have been written as, in the locale's slot order. */
function expectedForms(value: Value, locale: string): string[] {
  if (typeof value === 'string') return [value];
  return gettextPlurals(locale).categories.map((c) => value.plurals[c]!);
}

function msgfmtCheck(bytes: Uint8Array): { status: number | null; stderr: string; mo: string } {
  const path = writeTemp(stripBom(bytes));
  const mo = `${path}.mo`;
  const run = spawnSync('msgfmt', ['--check', '-o', mo, path], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr, mo };
}

/** Reads compiled catalogs with Python's gettext module: an independent reader of what msgfmt made of our output. */
function readMo(paths: string[]): Record<string, string | Record<string, string>>[] {
  const script = `
import gettext, json, sys
out = []
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        catalog = gettext.GNUTranslations(f)._catalog
    result = {}
    for key, value in catalog.items():
        if isinstance(key, tuple):
            result.setdefault(key[0], {})[str(key[1])] = value
        elif key != '':
            result[key] = value
    out.append(result)
print(json.dumps(out))
`;
  const run = spawnSync(PYTHON, ['-c', script, ...paths], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<string, string | Record<string, string>>[];
}

interface ToolkitUnit {
  ctx: string | null;
  id: string;
  plural: string | null;
  str: string[];
}

/** translate-toolkit's reading of PO files: context, msgid, msgid_plural and msgstr forms of every live message. */
function readToolkit(paths: string[]): ToolkitUnit[][] {
  const script = `
import json, sys
from translate.storage import po
out = []
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        store = po.pofile(f)
    units = []
    for u in store.units:
        if u.isheader() or u.isobsolete() or u.isblank():
            continue
        plural = u.hasplural()
        units.append({
            'ctx': u.getcontext() if u.msgctxt else None,
            'id': u.source.strings[0] if plural else str(u.source),
            'plural': u.source.strings[1] if plural else None,
            'str': list(u.target.strings) if plural else [str(u.target)],
        })
    out.append(units)
print(json.dumps(out))
`;
  const run = spawnSync(PYTHON, ['-c', script, ...paths], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as ToolkitUnit[][];
}

/** Our scanner's view in translate-toolkit's shape. translate-toolkit only unescapes \n \t \r \" \\, so other controls are compared as it leaves them. */
function ourUnits(bytes: Uint8Array): ToolkitUnit[] {
  return scanPo(bytes)
    .messages.filter((m) => !m.header)
    .map((m) => ({ ctx: m.msgctxt?.value ?? null, id: m.msgid.value, plural: m.msgidPlural?.value ?? null, str: m.msgstr.map((f) => f.value) }));
}

// eslint-disable-next-line no-control-regex
const TOOLKIT_UNREADABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

function expectRoundTrip(codec: Codec, bytes: Uint8Array): Entry[] {
  const entries = codec.parse(bytes);
  for (const entry of entries) {
    expect(entry.path).toEqual([entry.key]);
    expect(charAt(bytes, entry.line, entry.column)).toBe('"');
  }
  const all = sourceValues(entries);
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'source' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'omit' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: new Map(), missing: 'source' }), bytes);
  return entries;
}

/** Renders a pseudo-translated target for `locale` and checks what changed, what did not, and that the values read back. */
function translate(codec: Codec, bytes: Uint8Array, locale: string): { out: Uint8Array; values: Map<string, Value> } {
  const entries = codec.parse(bytes);
  const values = pseudoValues(entries, locale);
  const out = codec.render({ source: bytes, values, missing: 'source', locale });
  // A file without a header gets one, followed by a blank line.
  expect(skeleton(out)).toBe(scanPo(bytes).header ? skeleton(bytes) : `<header>\n\n${skeleton(bytes)}`);
  expect(codec.parse(out).map((e) => [e.key, e.source, e.plurals])).toEqual(entries.map((e) => [e.key, e.source, e.plurals]));
  const written = msgstrs(out);
  for (const [key, value] of values) expect(written.get(codec === unrealPoCodec ? unrealGettextKey(out, key) : key)).toEqual(expectedForms(value, locale));
  const header = headerOf(out);
  expect(headerField(header, 'Plural-Forms')).toBe(gettextPlurals(locale).header);
  expect(headerField(header, 'Language')).toBe(codec === unrealPoCodec ? locale : locale.replace(/-/g, '_'));
  expect(headerField(header, 'Content-Type')).toMatch(/charset=UTF-8/);
  return { out, values };
}

/** Unreal keys are msgctxt values; gettext's key for the same message adds the msgid. */
function unrealGettextKey(bytes: Uint8Array, key: string): string {
  const message = scanPo(bytes).messages.find((m) => m.msgctxt?.value === key)!;
  return gettextKey(message);
}

/** msgfmt --check accepts every rendered target, and what it compiled reads back as the values we wrote. */
function expectToolsAccept(codec: Codec, targets: { out: Uint8Array; values: Map<string, Value>; locale: string }[]): void {
  const mos: string[] = [];
  for (const { out } of targets) {
    const check = msgfmtCheck(out);
    // Header fields a template leaves at their defaults (PO-Revision-Date…) are the project's to fill, and only warned about.
    expect(check.stderr.split('\n').filter((l) => l !== '' && !/warning: header field '[\w-]+' (?:missing in header|still has the initial default value)/.test(l))).toEqual([]);
    expect(check.status).toBe(0);
    mos.push(check.mo);
  }
  if (!hasPython) return;
  readMo(mos).forEach((catalog, i) => {
    const { out, values, locale } = targets[i]!;
    const expected: Record<string, string | Record<string, string>> = {};
    for (const [key, value] of values) {
      const gettext = codec === unrealPoCodec ? unrealGettextKey(out, key) : key;
      const forms = expectedForms(value, locale);
      expected[gettext] = typeof value === 'string' ? forms[0]! : Object.fromEntries(forms.map((f, k) => [String(k), f]));
    }
    expect(catalog).toEqual(expected);
  });
}

function expectToolkitAgrees(files: Uint8Array[]): void {
  const theirs = readToolkit(files.map((b) => writeTemp(b)));
  // translate-toolkit only unescapes \n \t \r \" \\, so a string holding another control character is compared as unreadable.
  const blind = (s: string | null): string | null => (s !== null && TOOLKIT_UNREADABLE.test(s) ? '<unreadable>' : s);
  const view = (u: ToolkitUnit, ours: ToolkitUnit | undefined): ToolkitUnit => ({
    ctx: ours && blind(ours.ctx) !== ours.ctx ? '<unreadable>' : u.ctx,
    id: ours && blind(ours.id) !== ours.id ? '<unreadable>' : u.id,
    plural: ours && blind(ours.plural) !== ours.plural ? '<unreadable>' : u.plural,
    str: u.str.map((s, k) => (ours && blind(ours.str[k] ?? null) !== (ours.str[k] ?? null) ? '<unreadable>' : s)),
  });
  files.forEach((bytes, i) => {
    const ours = ourUnits(bytes);
    const toolkit = theirs[i]!;
    expect(toolkit.map((u, k) => view(u, ours[k]))).toEqual(ours.map((u) => view(u, u)));
  });
}

function files(folder: string, root: string): [string, Uint8Array][] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.pot?$/.test(f))
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

const TOOL_LOCALES = ['ar', 'pl', 'ja', 'de'] as const;

// ---------------------------------------------------------------------------------------------------------------------

describe('gettext Plural-Forms table', () => {
  const REQUIRED = 'en de fr es it pt nl sv da nb fi ru uk pl cs sk hr sr sl ro lt lv ar he ja zh ko vi th tr hu el id ms ga cy is mt'.split(' ');
  const NUMBERS = [...Array.from({ length: 201 }, (_, n) => n), 1000, 1001, 10000, 100000, 1000000, 2000000, 1100000, 10000000];
  // An evaluator independent of ours: the C expressions are valid JavaScript once comparisons are turned into numbers.
  const viaJs = (expression: string): ((n: number) => number) => new Function('n', `return Number(${expression});`) as (n: number) => number;

  it('covers every language the service names', () => {
    for (const tag of REQUIRED) expect(GETTEXT_PLURAL_TABLE[tag], tag).toBeDefined();
  });

  for (const tag of [...Object.keys(GETTEXT_PLURAL_TABLE), 'pt-BR', 'pt-PT', 'zh-Hant-TW', 'sr-Latn', 'en-GB', 'de-CH', 'nb-NO', 'es-419']) {
    it(`${tag}: the formula picks the slot of Intl.PluralRules' category for 0..200 and beyond`, () => {
      const layout = gettextPlurals(tag);
      expect(layout.categories).toEqual(pluralCategories(tag));
      expect(layout.nplurals).toBe(layout.categories.length);
      expect(layout.header).toBe(`nplurals=${layout.nplurals}; plural=${layout.plural};`);
      const rules = new Intl.PluralRules(tag);
      const js = viaJs(layout.plural);
      const ours = compilePluralExpression(layout.plural);
      for (const n of NUMBERS) {
        expect(layout.categories[js(n)], `${tag} n=${n}`).toBe(rules.select(n));
        expect(ours(n)).toBe(js(n));
      }
    });
  }

  it('keeps the conventional formulas where CLDR agrees with them', () => {
    expect(gettextPlurals('en').header).toBe('nplurals=2; plural=(n != 1);');
    expect(gettextPlurals('de').header).toBe('nplurals=2; plural=(n != 1);');
    expect(gettextPlurals('ja').header).toBe('nplurals=1; plural=0;');
    expect(gettextPlurals('ar').categories).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    // Categories only fractions reach still get a slot, so every form the service sends is kept.
    expect(gettextPlurals('pl').categories).toEqual(['one', 'few', 'many', 'other']);
    expect(gettextPlurals('cs').categories).toEqual(['one', 'few', 'many', 'other']);
    expect(gettextPlurals('fr').categories).toEqual(['one', 'many', 'other']);
  });

  it('tells region variants apart and falls back for unknown languages', () => {
    expect(gettextPlurals('pt-PT').plural).not.toBe(gettextPlurals('pt-BR').plural);
    expect(gettextPlurals('pt-BR').plural).toBe(gettextPlurals('pt').plural);
    expect(gettextPlurals('zh-Hant-TW').header).toBe('nplurals=1; plural=0;');
    expect(gettextPlurals('qaa').categories).toEqual(pluralCategories('qaa'));
    // Not in the table: found among the shapes by agreeing with Intl.PluralRules.
    expect(gettextPlurals('bg').header).toBe('nplurals=2; plural=(n != 1);');
    expect(gettextPlurals('hi').header).toBe('nplurals=2; plural=(n > 1);');
    expect(gettextPlurals('be').plural).toBe(gettextPlurals('ru').plural);
  });

  it('every CLDR locale finds a formula that agrees with its rules', () => {
    const cldr = JSON.parse(readFileSync(join(REPO, 'node_modules/cldr-core/supplemental/plurals.json'), 'utf8')) as {
      supplemental: { 'plurals-type-cardinal': Record<string, unknown> };
    };
    for (const tag of Object.keys(cldr.supplemental['plurals-type-cardinal'])) {
      const layout = gettextPlurals(tag);
      const rules = new Intl.PluralRules(tag);
      const js = viaJs(layout.plural);
      expect(layout.categories, tag).toEqual(pluralCategories(tag));
      for (const n of NUMBERS) expect(layout.categories[js(n)], `${tag} n=${n}`).toBe(rules.select(n));
    }
  });

  it('rejects malformed expressions naming the column', () => {
    expect(() => compilePluralExpression('n ==')).toThrow("Expected 'n', a number, '!' or '(' at column 5 of the plural expression");
    expect(() => compilePluralExpression('(n != 1')).toThrow("Expected ')' at column 8 of the plural expression");
    expect(() => compilePluralExpression('n ? 1')).toThrow("Expected ':' in a conditional expression at column 6 of the plural expression");
    expect(() => compilePluralExpression('n 1')).toThrow('Expected an operator or the end of the expression at column 3 of the plural expression');
    expect(compilePluralExpression('!(n % 0) + n / 0 * 2 - 1')(7)).toBe(0);
  });

  it.skipIf(!hasMsgfmt)('msgfmt accepts every header and plural message laid out by the table', () => {
    for (const tag of Object.keys(GETTEXT_PLURAL_TABLE)) {
      const layout = gettextPlurals(tag);
      const forms = layout.categories.map((c, i) => `msgstr[${i}] "%d ${c}"`).join('\n');
      const po = `msgid ""\nmsgstr ""\n"Language: ${tag}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: ${layout.header}\\n"\n\n#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\n${forms}\n`;
      const check = msgfmtCheck(enc(po));
      expect(check.stderr.split('\n').filter((l) => l !== '' && !/header field/.test(l)), tag).toEqual([]);
      expect(check.status, tag).toBe(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe.skipIf(!existsSync(CORPUS))('shared corpus', () => {
  for (const [folder, codec] of [
    ['po', poCodec],
    ['unreal_po', unrealPoCodec],
  ] as const) {
    for (const [file, bytes] of files(folder, CORPUS)) {
      it(`${folder}/${file} round-trips byte for byte`, () => {
        expect(expectRoundTrip(codec, bytes).length).toBeGreaterThan(0);
      });

      it(`${folder}/${file}: pseudo-translated targets keep everything but the values`, () => {
        for (const locale of TOOL_LOCALES) translate(codec, bytes, locale);
      });

      it.skipIf(!hasMsgfmt)(`${folder}/${file}: msgfmt --check accepts the source and the targets for ${TOOL_LOCALES.join(', ')}`, () => {
        expect(msgfmtCheck(bytes).status).toBe(0);
        expectToolsAccept(codec, TOOL_LOCALES.map((locale) => ({ ...translate(codec, bytes, locale), locale })));
      });

      it.skipIf(!hasToolkit)(`${folder}/${file}: translate-toolkit reads what we read and what we wrote`, () => {
        expectToolkitAgrees([bytes, ...TOOL_LOCALES.map((locale) => translate(codec, bytes, locale).out)]);
      });
    }
  }

  it('reads the tolgee examples as gettext does', () => {
    const ctx = poCodec.parse(new Uint8Array(readFileSync(join(CORPUS, 'po/tolgee-example_msgctxt.po'))));
    expect(ctx.map((e) => [e.key, e.context])).toEqual([
      ['menu\u0004Open', 'menu'],
      ['verb\u0004Open', 'verb'],
      ['Open', undefined],
      ['items\u0004%d item', 'items'],
      ['\u0004Cancel', ''],
    ]);
    expect(ctx[3]).toMatchObject({ source: '%d items', plurals: { one: '%d item', other: '%d items' }, line: 21, column: 7 });
    const escapes = poCodec.parse(new Uint8Array(readFileSync(join(CORPUS, 'po/tolgee-example_msgctxt_escapes.po'))));
    expect(escapes).toEqual([{ key: 'a "quoted" ctx\nwith newline\u0004Save', path: ['a "quoted" ctx\nwith newline\u0004Save'], source: 'Save', context: 'a "quoted" ctx\nwith newline', line: 10, column: 7 }]);
    const example = poCodec.parse(new Uint8Array(readFileSync(join(CORPUS, 'po/tolgee-example.po'))));
    expect(example.find((e) => e.key.startsWith('We connect'))).toMatchObject({
      source: 'We connect developers and translators around the globe in Tolgee for a fantastic localization experience.',
      notes:
        "some other comment\nand other\nThis is the text that should appear next to menu accelerators\n* that use the super key. If the text on this key isn't typically\n* translated on keyboards used for your language, don't translate\n* this.",
      line: 25,
      column: 7,
    });
    expect(example.map((e) => e.key)).toContain('Multiline message with \\n\\r');
  });

  it('reads the Unreal export keyed by msgctxt, with SourceLocation as a note', () => {
    const entries = unrealPoCodec.parse(new Uint8Array(readFileSync(join(CORPUS, 'unreal_po/localizationTestC-en-Game.po'))));
    expect(entries[0]).toEqual({
      key: 'LocalizationTest,__Key__',
      path: ['LocalizationTest,__Key__'],
      source: 'Chinese',
      notes: 'SourceLocation:\t/Game/Localization/StringTable/LocalizationTest.LocalizationTest',
      line: 20,
      column: 7,
    });
    expect(entries.map((e) => e.key)).toContain('LocalizationTest,Task_2');
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('fixtures', () => {
  // gettext reads keywords and comments after indentation; translate-toolkit's parser only at the start of a line.
  const TOOLKIT_REFUSES = new Set(['po/indented.po']);

  for (const [folder, codec] of [
    ['po', poCodec],
    ['unreal_po', unrealPoCodec],
  ] as const) {
    for (const [file, bytes] of files(folder, FIXTURES)) {
      it(`${folder}/${file} round-trips byte for byte`, () => {
        expect(expectRoundTrip(codec, bytes).length).toBeGreaterThan(0);
      });

      it(`${folder}/${file}: pseudo-translated targets keep everything but the values`, () => {
        for (const locale of TOOL_LOCALES) translate(codec, bytes, locale);
      });

      it.skipIf(!hasMsgfmt)(`${folder}/${file}: msgfmt --check accepts the targets for ${TOOL_LOCALES.join(', ')}`, () => {
        expectToolsAccept(codec, TOOL_LOCALES.map((locale) => ({ ...translate(codec, bytes, locale), locale })));
      });

      if (TOOLKIT_REFUSES.has(`${folder}/${file}`)) {
        it.skipIf(!hasToolkit)(`${folder}/${file}: translate-toolkit cannot read it (keywords must start their line there)`, () => {
          const run = spawnSync(PYTHON, ['-c', 'import sys\nfrom translate.storage import po\npo.pofile(open(sys.argv[1], "rb"))', writeTemp(bytes)], { encoding: 'utf8' });
          expect(run.stderr).toMatch(/PoParseError: Syntax error/);
        });
      } else {
        it.skipIf(!hasToolkit)(`${folder}/${file}: translate-toolkit reads what we read and what we wrote`, () => {
          expectToolkitAgrees([bytes, ...TOOL_LOCALES.map((locale) => translate(codec, bytes, locale).out)]);
        });
      }
    }
  }

  it.skipIf(!hasMsgfmt)('are accepted by msgfmt where gettext takes them as they are', () => {
    // template.pot has the template placeholders (nplurals=INTEGER), no-header.po has plurals but no header, and
    // crlf-bom.po a BOM (msgfmt 0.21 refuses it; Parlance keeps the one a file has): only rendered targets must pass.
    for (const [file, bytes] of files('po', FIXTURES)) {
      if (['template.pot', 'no-header.po'].includes(file)) continue;
      expect(msgfmtCheck(bytes).status, file).toBe(0);
    }
  });

  // Guards against an editor or git setting normalising the fixtures and hollowing out the tests above.
  it('still have the byte-level traits they were written for', () => {
    const read = (p: string): Buffer => readFileSync(join(FIXTURES, p));
    expect(read('po/crlf-bom.po').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('po/crlf-bom.po').toString('latin1')).toMatch(/^[^\n]*\r\n(?:[^\n]*\r\n)*$/);
    expect(read('po/latin1.po').includes(Buffer.from([0xc9, 0x74, 0xe9]))).toBe(true);
    expect(read('po/no-header.po').toString()).toMatch(/msgstr ""$/);
    expect(read('po/indented.po').toString()).toContain('\n  msgid "indented message"\n  msgstr');
    expect(read('unreal_po/Game-en.po').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('unreal_po/Game-en.po').toString()).toContain('#. Key:\tQuote_Line\n');
    expect(read('unreal_po/Game-crlf.po').toString('latin1')).toContain('msgctxt "UI,MainMenu_Play"\r\n');
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('po parse', () => {
  const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, 'po', name)));

  it('reads messages, contexts, notes and plurals from a template, skipping the header', () => {
    const entries = poCodec.parse(fixture('template.pot'));
    expect(entries.map((e) => e.key)).toEqual([
      'Welcome to the app',
      'Delete %s?',
      '%d file was removed',
      'menu\u0004Open',
      'verb\u0004Open',
      'This is a long paragraph of help text that xgettext wrapped over several lines because it is wider than seventy-nine columns.\nIt also has a second line.\n',
      'New text',
    ]);
    expect(entries[0]).toEqual({ key: 'Welcome to the app', path: ['Welcome to the app'], source: 'Welcome to the app', notes: 'TRANSLATORS: shown on the start screen', line: 23, column: 7 });
    expect(entries[1]!.notes).toBe('Reviewed by the docs team.\nButton label');
    expect(entries[2]).toMatchObject({ source: '%d files were removed', plurals: { one: '%d file was removed', other: '%d files were removed' } });
    expect(entries[3]).toMatchObject({ context: 'menu', source: 'Open', line: 42 });
    // A wrapped msgid points at its first non-empty string.
    expect(entries[5]).toMatchObject({ line: 52, column: 1 });
  });

  it('decodes every C escape gettext knows', () => {
    const sources = poCodec.parse(fixture('escapes.po')).map((e) => e.source);
    expect(sources).toEqual([
      'Quotes "double" and \'single\' and \\ backslash',
      'Tab\there, newline\nthere, CR\r, bell\x07, backspace\b, formfeed\f, vtab\v',
      'Octal é and hex AB and A and \x07 bell',
      '\nLeading and trailing newline\n',
      'Emoji 🚀 and RTL שלום مرحبا and {name} %s %1$s <b>&amp;</b>',
    ]);
  });

  it('keeps obsolete entries and trailing comments out of the entries', () => {
    const entries = poCodec.parse(fixture('obsolete-fuzzy.po'));
    expect(entries.map((e) => [e.key, e.notes])).toEqual([
      ['Save', undefined],
      ['Saved %d items', undefined],
      ['Cancel', 'comment separated by a blank line still belongs to the next message'],
      ['Last', undefined],
    ]);
  });

  it('reads CRLF, a BOM, legacy charsets and files without a header', () => {
    expect(poCodec.parse(fixture('crlf-bom.po')).map((e) => [e.key, e.line, e.column, e.notes])).toEqual([
      ['Hello', 10, 7, 'translator note'],
      ['%d day', 13, 7, undefined],
      ['Bye', 18, 7, undefined],
    ]);
    expect(msgstrs(fixture('latin1.po'))).toEqual(new Map([['Summer', ['Été']], ['Cafe', ['Café crème']]]));
    expect(poCodec.parse(fixture('no-header.po')).map((e) => e.key)).toEqual(['Without header', 'One apple', 'ctx\u0004End']);
  });

  it('counts columns in code points across lone CRs', () => {
    const entries = poCodec.parse(enc('msgid "🚀"\rmsgstr ""\r\rmsgctxt "🚀🚀"\r  msgid "🚀" "x"\rmsgstr ""'));
    expect(entries.map((e) => [e.key, e.line, e.column])).toEqual([
      ['🚀', 1, 7],
      ['🚀🚀\u0004🚀x', 5, 9],
    ]);
  });

  it('detects gettext files by name and content', () => {
    expect(poCodec.detect('de.po', '')).toBe(0.9);
    expect(poCodec.detect('messages.pot', '# header\nmsgid ""\n')).toBe(0.9);
    expect(poCodec.detect('strings.txt', '# comment\n\nmsgid ""\nmsgstr ""\n')).toBe(0.4);
    expect(poCodec.detect('strings.json', '{"msgid": "x"}')).toBe(0);
    expect(poCodec.detect('Game.po', '\uFEFF# Game English translation.\n# Copyright Epic Games, Inc. All Rights Reserved.\n')).toBe(0.5);
    expect(unrealPoCodec.detect('Game.po', '\uFEFF# Game English translation.\n# Copyright Epic Games, Inc. All Rights Reserved.\n')).toBe(0.95);
    expect(unrealPoCodec.detect('de.po', 'msgid ""\nmsgstr ""\n')).toBe(0);
  });
});

describe('po render with translations', () => {
  const SRC = [
    'msgid ""',
    'msgstr ""',
    '"Language: en\\n"',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
    '',
    '#. note',
    'msgid "Hello"',
    'msgstr ""',
    '',
    'msgctxt "menu"',
    'msgid "Open"',
    'msgstr "Open"',
    '',
    '#, c-format',
    'msgid "%d file"',
    'msgid_plural "%d files"',
    'msgstr[0] ""',
    'msgstr[1] ""',
    '',
  ].join('\n');

  it('splices escaped values into msgstr and leaves the rest alone', () => {
    const out = render(poCodec, SRC, { Hello: 'Hallo "Welt"\n\\\t\x07\x01', 'menu\u0004Open': 'Öffnen' });
    expect(out).toBe(SRC.replace('msgid "Hello"\nmsgstr ""', 'msgid "Hello"\nmsgstr "Hallo \\"Welt\\"\\n\\\\\\t\\a\\001"').replace('msgstr "Open"', 'msgstr "Öffnen"'));
  });

  it('writes plural forms in the target locale slots and updates the header', () => {
    const out = render(poCodec, SRC, { '%d file': { plurals: { one: '%d plik', few: '%d pliki', many: '%d plików', other: '%d pliku' } } }, { locale: 'pl' });
    expect(out).toBe(
      SRC.replace('"Language: en\\n"', '"Language: pl\\n"')
        .replace('nplurals=2; plural=(n != 1);', gettextPlurals('pl').header)
        .replace('msgstr[0] ""\nmsgstr[1] ""', 'msgstr[0] "%d plik"\nmsgstr[1] "%d pliki"\nmsgstr[2] "%d plików"\nmsgstr[3] "%d pliku"'),
    );
  });

  it('keeps the message as it was when the value equals the source text', () => {
    const src = 'msgid "Yes"\nmsgstr "Ja"\n\nmsgid "%d item"\nmsgid_plural "%d items"\nmsgstr[0] "\\x41"\nmsgstr[1] ""\n';
    expect(render(poCodec, src, { Yes: 'Yes', '%d item': { plurals: { one: '%d item', other: '%d items' } } })).toBe(src);
  });

  it('fills a kept plural message to the target slot count, empty when it was untranslated', () => {
    const out = render(poCodec, SRC, {}, { locale: 'ar' });
    expect(msgstrs(enc(out)).get('%d file')).toEqual(['', '', '', '', '', '']);
    const translated = 'msgid "%d item"\nmsgid_plural "%d items"\nmsgstr[0] "%d item"\nmsgstr[1] "%d items"\n';
    expect(msgstrs(enc(render(poCodec, translated, {}, { locale: 'ja' }))).get('%d item')).toEqual(['%d items']);
    expect(msgstrs(enc(render(poCodec, translated, {}, { locale: 'de' }))).get('%d item')).toEqual(['%d item', '%d items']);
  });

  it('writes a string value into every plural slot and the other form of a plural value into a singular message', () => {
    const out = enc(render(poCodec, SRC, { '%d file': 'files: %d', Hello: { plurals: { one: 'Hi', other: 'Hallo' } } }, { locale: 'ru' }));
    expect(msgstrs(out).get('%d file')).toEqual(['files: %d', 'files: %d', 'files: %d', 'files: %d']);
    expect(msgstrs(out).get('Hello')).toEqual(['Hallo']);
  });

  it('wraps like the source: one line stays one line, wrapped messages wrap at 79 columns', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/wrapped.po')));
    const long = 'Dit is een nieuwe vertaling die ruim langer is dan negenenzeventig kolommen, zodat hij moet worden afgebroken.';
    const out = render(poCodec, src, {
      'A message that msgmerge wrapped because it is longer than the seventy-nine column limit that gettext uses for its output files.': long,
      'Line one\nLine two\n': 'Een\nTwee\n',
      'Short one': 'Kort',
      'A one-line message that is longer than seventy-nine columns but was kept on one line': long,
    });
    expect(out).toContain(
      'msgstr ""\n"Dit is een nieuwe vertaling die ruim langer is dan negenenzeventig kolommen, "\n"zodat hij moet worden afgebroken."\n',
    );
    expect(out).toContain('msgstr ""\n"Een\\n"\n"Twee\\n"\n');
    expect(out).toContain('msgid "Short one"\nmsgstr "Kort"\n');
    expect(out).toContain(`msgid "A one-line message that is longer than seventy-nine columns but was kept on one line"\nmsgstr "${long}"\n`);
    for (const line of out.split('\n')) if (line.startsWith('"Dit') || line.startsWith('"zodat')) expect([...line].length).toBeLessThanOrEqual(79);
  });

  it('keeps the indentation of indented messages', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/indented.po')));
    const out = render(poCodec, src, { 'indented message': 'nieuw', 'tab\u0004wrapped and indented': 'ingesprongen met tab' });
    expect(out).toContain('\n  # indented comment\n  msgid "indented message"\n  msgstr "nieuw"\n');
    expect(out).toContain('\tmsgid ""\n\t"wrapped and "\n\t"indented"\n\tmsgstr "ingesprongen met tab"\n');
  });

  it('drops the fuzzy flag of messages it translates and keeps other flags', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/obsolete-fuzzy.po')));
    const out = render(poCodec, src, { Save: 'Sauver', 'Saved %d items': '%d éléments sauvés' });
    expect(out).toContain('\n\nmsgid "Save"\nmsgstr "Sauver"\n');
    expect(out).toContain('\n\n#, c-format\nmsgid "Saved %d items"\nmsgstr "%d éléments sauvés"\n');
    expect(out).toContain('#, fuzzy\n#~| msgid "Older"');
  });

  it('turns a template header into a target header', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/template.pot')));
    const out = render(poCodec, src, {}, { locale: 'pt-BR' });
    expect(out).toContain('#\nmsgid ""\nmsgstr ""\n"Project-Id-Version: PACKAGE VERSION\\n"');
    expect(out).not.toContain('#, fuzzy\nmsgid ""');
    expect(headerOf(enc(out))).toEqual([
      ['Project-Id-Version', 'PACKAGE VERSION'],
      ['Report-Msgid-Bugs-To', ''],
      ['POT-Creation-Date', '2024-05-01 12:00+0000'],
      ['PO-Revision-Date', 'YEAR-MO-DA HO:MI+ZONE'],
      ['Last-Translator', 'FULL NAME <EMAIL@ADDRESS>'],
      ['Language-Team', 'LANGUAGE <LL@li.org>'],
      ['Language', 'pt_BR'],
      ['MIME-Version', '1.0'],
      ['Content-Type', 'text/plain; charset=UTF-8'],
      ['Content-Transfer-Encoding', '8bit'],
      ['Plural-Forms', gettextPlurals('pt-BR').header],
    ]);
    expect(skeleton(enc(out))).toBe(skeleton(src));
  });

  it('adds a header to a file without one when it renders for a locale', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/no-header.po')));
    const out = render(poCodec, src, { 'Without header': 'Ohne Kopf' }, { locale: 'de' });
    expect(out).toBe(
      'msgid ""\nmsgstr ""\n"Language: de\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n' +
        `"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n${dec(src).replace('msgid "Without header"\nmsgstr ""', 'msgid "Without header"\nmsgstr "Ohne Kopf"')}`,
    );
    // Without a locale the file stays header-less.
    expect(render(poCodec, src, { 'Without header': 'Ohne Kopf' })).toBe(dec(src).replace('msgstr ""', 'msgstr "Ohne Kopf"'));
  });

  it('re-encodes a legacy-charset file as UTF-8 only when something changes', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/latin1.po')));
    expectSameBytes(poCodec.render({ source: src, values: new Map([['Summer', 'Summer']]), missing: 'source' }), src);
    const out = render(poCodec, src, { Summer: 'Été 🌞' });
    expect(out).toContain('"Content-Type: text/plain; charset=UTF-8\\n"');
    expect(out).toContain('msgstr "Été 🌞"\n\nmsgid "Cafe"\nmsgstr "Café crème"\n');
  });

  it('keeps CRLF line endings and the BOM in what it writes', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/crlf-bom.po')));
    const out = render(poCodec, src, { Hello: 'Salut\nà tous', '%d day': { plurals: { one: '%d jour', many: '%d de jours', other: '%d jours' } } }, { locale: 'fr' });
    expect(out.startsWith('\uFEFFmsgid ""\r\n')).toBe(true);
    expect(out).toContain('\r\nmsgstr "Salut\\nà tous"\r\n');
    expect(out).toContain('\r\nmsgstr[0] "%d jour"\r\nmsgstr[1] "%d de jours"\r\nmsgstr[2] "%d jours"\r\n');
    expect(out.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('ignores values for keys the file does not have', () => {
    expect(render(poCodec, SRC, { Unknown: 'x', 'Open': 'nope' })).toBe(SRC);
  });
});

describe('po render with missing: omit', () => {
  const SRC = 'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n# a\nmsgid "A"\nmsgstr ""\n\n#. b\nmsgid "B"\nmsgstr ""\n\nmsgid "C"\nmsgstr ""\n';

  it.each([
    ['the first message with its comment', { B: 'b', C: 'c' }, 'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n#. b\nmsgid "B"\nmsgstr "b"\n\nmsgid "C"\nmsgstr "c"\n'],
    ['a middle message', { A: 'a', C: 'c' }, 'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n# a\nmsgid "A"\nmsgstr "a"\n\nmsgid "C"\nmsgstr "c"\n'],
    ['the last message', { A: 'a', B: 'b' }, 'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n# a\nmsgid "A"\nmsgstr "a"\n\n#. b\nmsgid "B"\nmsgstr "b"\n'],
    ['every message but the header', {}, 'msgid ""\nmsgstr ""\n"Language: en\\n"\n'],
  ])('removes %s cleanly', (_name, values, expected) => {
    expect(render(poCodec, SRC, values, { missing: 'omit' })).toBe(expected);
    expect(msgfmtOk(expected)).toBe(true);
  });

  it('keeps comments separated by a blank line, obsolete entries and trailing comments', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/obsolete-fuzzy.po')));
    const out = render(poCodec, src, { Save: 'Sauver' }, { missing: 'omit' });
    expect(out).toContain('# comment separated by a blank line still belongs to the next message\n\n#~ msgid "Removed long ago"');
    expect(out.endsWith('#~ msgstr "Ancien"\n\n# trailing comment with no message\n')).toBe(true);
    expect(poCodec.parse(enc(out)).map((e) => e.key)).toEqual(['Save']);
  });

  it('handles CRLF and a last message without a final newline', () => {
    const src = new Uint8Array(readFileSync(join(FIXTURES, 'po/no-header.po')));
    expect(render(poCodec, src, { 'Without header': 'x' }, { missing: 'omit' })).toBe('msgid "Without header"\nmsgstr "x"\n');
    const crlf = new Uint8Array(readFileSync(join(FIXTURES, 'po/crlf-bom.po')));
    const out = render(poCodec, crlf, { Bye: 'Adiós' }, { missing: 'omit' });
    expect(out.endsWith('"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\r\n\r\nmsgid "Bye"\r\nmsgstr "Adiós"\r\n')).toBe(true);
  });
});

function msgfmtOk(text: string): boolean {
  return !hasMsgfmt || msgfmtCheck(enc(text)).status === 0;
}

describe('po malformed input', () => {
  it.each([
    ['msgid "a"\nmsgstr "b', "Expected '\"' to close the string before the end of the file at line 2, column 10", 2, 10],
    ['msgid "a\nmsgstr "b"', "Expected '\"' to close the string before the end of the line at line 1, column 9", 1, 9],
    ['msgid "a"\n', 'Expected msgstr after msgid before the end of the file at line 2, column 1', 2, 1],
    ['msgid "a"\nmsgid "b"\nmsgstr ""', 'Expected msgstr after msgid at line 2, column 1', 2, 1],
    ['msgid "a"\n# comment\nmsgstr ""', 'Expected msgstr after msgid at line 2, column 1', 2, 1],
    ['msgctxt "c"\nmsgctxt "d"\nmsgid "a"\nmsgstr ""', 'Expected msgid after msgctxt at line 2, column 1', 2, 1],
    ['msgctxt "c"\nmsgstr ""', 'Expected msgid before msgstr at line 2, column 1', 2, 1],
    ['msgstr "x"', 'Expected msgid before msgstr at line 1, column 1', 1, 1],
    ['msgid "x\\q"\nmsgstr ""', "Expected a valid escape after '\\' (one of \\n \\t \\r \\a \\b \\f \\v \\\\ \\\", octal \\ooo or hex \\xhh) at line 1, column 9", 1, 9],
    ['msgid "\\?"\nmsgstr ""', "Expected a valid escape after '\\' (one of \\n \\t \\r \\a \\b \\f \\v \\\\ \\\", octal \\ooo or hex \\xhh) at line 1, column 8", 1, 8],
    ['msgid "a"\nmsgid_plural "as"\nmsgstr[1] ""', 'Expected msgstr[0]; plural forms must be numbered from 0 without gaps at line 3, column 1', 3, 1],
    ['msgid "a"\nmsgid_plural "as"\nmsgstr ""', 'Expected msgstr[0] after msgid_plural (a plural message has indexed msgstr) at line 3, column 1', 3, 1],
    ['msgid "a"\nmsgid_plural "as"\n', 'Expected msgstr[0] after msgid_plural before the end of the file at line 3, column 1', 3, 1],
    ['msgid "a"\nmsgstr[0] "x"', 'Expected msgstr without an index (msgstr[N] needs msgid_plural) at line 2, column 1', 2, 1],
    ['msgid "a"\nmsgstr "b"\nmsgstr "c"', 'Expected one msgstr per msgid at line 3, column 1', 3, 1],
    ['msgid "a"\nmsgstr ""\nmsgid_plural "b"', 'Expected msgid_plural only once, after msgid at line 3, column 1', 3, 1],
    ['msgid "a" x\nmsgstr ""', 'Expected a string or the end of the line at line 1, column 11', 1, 11],
    ['msgid\nmsgstr ""', 'Expected a string after msgid at line 1, column 6', 1, 6],
    ['msgid "a"\nmsgstr[0]', 'Expected msgstr without an index (msgstr[N] needs msgid_plural) at line 2, column 1', 2, 1],
    ['msgid_plural "a"', 'Expected msgid before msgid_plural at line 1, column 1', 1, 1],
    ['msgid[1] "a"\nmsgstr ""', 'Expected msgid without an index at line 1, column 1', 1, 1],
    ['msgids "a"', 'Expected a keyword (msgctxt, msgid, msgid_plural or msgstr), a string or a comment at line 1, column 1', 1, 1],
    ['\n\n  "orphan"', 'Expected a keyword (msgctxt, msgid, msgid_plural or msgstr) before a string at line 3, column 3', 3, 3],
    ['msgid "a"\nmsgstr ""\n\nmsgid "a"\nmsgstr "x"', 'Duplicate message "a" (first defined at line 1) at line 4, column 1', 4, 1],
    ['msgctxt "c"\nmsgid "a"\nmsgstr ""\nmsgctxt "c"\nmsgid "a"\nmsgstr ""', 'Duplicate message "a" with msgctxt "c" (first defined at line 2) at line 5, column 1', 5, 1],
    ['msgid ""\nmsgstr ""\n\nmsgid ""\nmsgstr ""', 'Duplicate header entry (msgid "") (first defined at line 1) at line 4, column 1', 4, 1],
    ['\uFEFFmsgid "🚀" "x\r\nmsgstr ""', "Expected '\"' to close the string before the end of the line at line 1, column 13", 1, 13],
  ])('%j → %s', (input, message, line, column) => {
    for (const codec of [poCodec, unrealPoCodec]) {
      const error = parseError(() => codec.parse(enc(input)));
      expect(error.message).toBe(message);
      expect([error.line, error.column]).toEqual([line, column]);
      expect(parseError(() => codec.render({ source: enc(input), values: new Map(), missing: 'source' })).message).toBe(message);
    }
  });

  it('rejects invalid UTF-8, UTF-16 and unknown charsets naming where', () => {
    const bytes = new Uint8Array([...enc('msgid "a"\nmsgstr "é'), 0xc3, 0x28, ...enc('"\n')]);
    expect(parseError(() => poCodec.parse(bytes)).message).toBe('Invalid UTF-8 byte sequence at line 2, column 10');
    expect(parseError(() => poCodec.parse(new Uint8Array([0xff, 0xfe, 0x6d, 0x00]))).message).toBe('The file is UTF-16 encoded; expected UTF-8 at line 1, column 1');
    const unknown = enc('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=KLINGON-8\\n"\n');
    const error = parseError(() => poCodec.parse(unknown));
    expect(error.message).toBe('The header declares charset=KLINGON-8, which is not a known encoding (expected UTF-8) at line 3, column 36');
    expect([error.line, error.column]).toEqual([3, 36]);
  });

  it('refuses what Unreal would not import', () => {
    const cases: [string, string, number, number][] = [
      ['msgid "a"\nmsgstr ""', 'Expected msgctxt "Namespace,Key" before msgid at line 1, column 1; Unreal PO files identify every text by its msgctxt', 1, 1],
      ['msgctxt "N,K"\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] ""', 'Expected msgstr instead of msgid_plural at line 3, column 1; Unreal PO files have no plural messages', 3, 1],
      ['msgctxt "N,K"\nmsgid "a"\nmsgstr ""\n\nmsgctxt "N,K"\nmsgid "b"\nmsgstr ""', 'Duplicate key "N,K" (first defined at line 1) at line 5, column 1', 5, 1],
    ];
    for (const [input, message, line, column] of cases) {
      const error = parseError(() => unrealPoCodec.parse(enc(input)));
      expect(error.message).toBe(message);
      expect([error.line, error.column]).toEqual([line, column]);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('unreal_po', () => {
  const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, 'unreal_po', name)));

  it('keys texts by msgctxt and takes msgid as the source', () => {
    expect(unrealPoCodec.parse(fixture('Game-en.po')).map((e) => [e.key, e.source, e.notes, e.line, e.column])).toEqual([
      ['UI,MainMenu_Play', 'Play', 'SourceLocation:\t/Game/UI/WBP_MainMenu.WBP_MainMenu_C:WidgetTree.PlayText.Text', 20, 7],
      ['Dialogue,Quote_Line', 'She said "run!"\nAnd we ran.', 'SourceLocation:\t/Game/Dialogue/DT_Lines.DT_Lines\nInfoMetaData:\t"Speaker" : "Narrator"', 28, 7],
      ['Misc\\,Ns,Comma\\,Key', '{Count} items, {Price}', 'SourceLocation:\t/Game/Data/ST_Misc.ST_Misc', 35, 7],
      [',C0FFEE0000000000000000000000AB12', 'Welcome to Level 1', 'SourceLocation:\t/Game/Maps/Level1.Level1:PersistentLevel.Sign.TextRender', 42, 7],
    ]);
  });

  it('writes the target culture into the header and its first comment line', () => {
    const out = render(unrealPoCodec, fixture('Game-en.po'), { 'UI,MainMenu_Play': 'Spielen' }, { locale: 'zh-CN' });
    expect(out.startsWith('\uFEFF# Game Chinese (China) translation.\n# Copyright Epic Games, Inc. All Rights Reserved.\n')).toBe(true);
    expect(out).toContain('"Language: zh-CN\\n"');
    expect(out).toContain('"Plural-Forms: nplurals=1; plural=0;\\n"');
    expect(out).toContain('msgctxt "UI,MainMenu_Play"\nmsgid "Play"\nmsgstr "Spielen"\n');
    const crlf = render(unrealPoCodec, fixture('Game-crlf.po'), {}, { locale: 'de' });
    expect(crlf.startsWith('\uFEFF# Game German translation.\r\n')).toBe(true);
    // A first line that does not name the previous culture is not the engine's, and stays.
    const other = render(unrealPoCodec, dec(fixture('Game-crlf.po')).replace('English (United States)', 'Klingon'), {}, { locale: 'de' });
    expect(other.startsWith('\uFEFF# Game Klingon translation.\r\n')).toBe(true);
    expect(crlf).toContain('"Language: de\\n"\r\n');
  });

  it('omits texts without a value', () => {
    const out = render(unrealPoCodec, fixture('Game-en.po'), { 'Dialogue,Quote_Line': 'Sie sagte "lauf!"\nUnd wir liefen.' }, { missing: 'omit', locale: 'de' });
    expect(unrealPoCodec.parse(enc(out)).map((e) => e.key)).toEqual(['Dialogue,Quote_Line']);
    expect(out).toContain('#: /Game/Dialogue/DT_Lines.DT_Lines\nmsgctxt "Dialogue,Quote_Line"\nmsgid "She said \\"run!\\"\\nAnd we ran."\nmsgstr "Sie sagte \\"lauf!\\"\\nUnd wir liefen."\n');
    expect(msgfmtOk(dec(stripBom(enc(out))))).toBe(true);
  });

  it('writes fresh files in the engine layout', () => {
    const out = unrealPoCodec.renderFresh(
      [
        { key: 'UI,Play', value: 'Play', notes: 'SourceLocation:\t/Game/UI' },
        { key: 'Esc\\,aped,Key', value: 'Line "one"\ntwo' },
      ],
      { locale: 'en' },
    );
    expect(dec(out)).toBe(
      '\uFEFFmsgid ""\nmsgstr ""\n"Project-Id-Version: \\n"\n"Language: en\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
        '"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n' +
        '#. Key:\tPlay\n#. SourceLocation:\t/Game/UI\nmsgctxt "UI,Play"\nmsgid "Play"\nmsgstr "Play"\n\n' +
        '#. Key:\tKey\nmsgctxt "Esc\\\\,aped,Key"\nmsgid "Line \\"one\\"\\ntwo"\nmsgstr "Line \\"one\\"\\ntwo"\n',
    );
    expect(unrealPoCodec.parse(out).map((e) => [e.key, e.source, e.notes])).toEqual([
      ['UI,Play', 'Play', 'SourceLocation:\t/Game/UI'],
      ['Esc\\,aped,Key', 'Line "one"\ntwo', undefined],
    ]);
    expect(msgfmtOk(dec(stripBom(out)))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('po plurals', () => {
  const SRC = enc('msgid ""\nmsgstr ""\n"Language: en\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n#, c-format\nmsgid "%d apple"\nmsgid_plural "%d apples"\nmsgstr[0] ""\nmsgstr[1] ""\n');

  for (const locale of ['ar', 'pl', 'ja', 'cy', 'fr', 'lv'] as const) {
    it(`${locale}: writes exactly the locale's categories and reads them back`, () => {
      const forms = Object.fromEntries(pluralCategories(locale).map((c) => [c, `%d ${c} apple`]));
      const out = poCodec.render({ source: SRC, values: new Map([['%d apple', { plurals: forms }]]), missing: 'source', locale });
      expect(Object.keys(readPlurals(out, '%d apple', locale))).toEqual(pluralCategories(locale));
      expect(readPlurals(out, '%d apple', locale)).toEqual(forms);
      expect(headerField(headerOf(out), 'Plural-Forms')).toBe(gettextPlurals(locale).header);
      expect(msgfmtOk(dec(out))).toBe(true);
      // Rendering the target again for another locale re-lays its slots out.
      const back = poCodec.render({ source: out, values: new Map([['%d apple', { plurals: { one: '%d Apfel', other: '%d Äpfel' } }]]), missing: 'source', locale: 'de' });
      expect(readPlurals(back, '%d apple', 'de')).toEqual({ one: '%d Apfel', other: '%d Äpfel' });
    });
  }

  it('expects ar, pl and ja to have the categories the service sends', () => {
    expect(pluralCategories('ar')).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(pluralCategories('pl')).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralCategories('ja')).toEqual(['other']);
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('po renderFresh', () => {
  it('writes a conventional catalog for the locale, in the given order', () => {
    const entries: FreshEntry[] = [
      { key: 'Hello', value: 'Cześć', notes: 'greeting\nsecond line' },
      { key: 'menu\u0004Open', value: 'Otwórz' },
      { key: '%d file', value: { plurals: { one: '%d plik', few: '%d pliki', many: '%d plików', other: '%d pliku' } } },
      { key: '', value: 'cannot be a message' },
    ];
    const out = poCodec.renderFresh(entries, { locale: 'pl' });
    expect(dec(out)).toBe(
      'msgid ""\nmsgstr ""\n"Language: pl\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n' +
        `"Plural-Forms: ${gettextPlurals('pl').header}\\n"\n\n` +
        '#. greeting\n#. second line\nmsgid "Hello"\nmsgstr "Cześć"\n\n' +
        'msgctxt "menu"\nmsgid "Open"\nmsgstr "Otwórz"\n\n' +
        'msgid "%d file"\nmsgid_plural "%d file"\nmsgstr[0] "%d plik"\nmsgstr[1] "%d pliki"\nmsgstr[2] "%d plików"\nmsgstr[3] "%d pliku"\n',
    );
    expect(poCodec.parse(out).map((e) => [e.key, e.notes])).toEqual([
      ['Hello', 'greeting\nsecond line'],
      ['menu\u0004Open', undefined],
      ['%d file', undefined],
    ]);
    expect(msgstrs(out).get('Hello')).toEqual(['Cześć']);
    expect(readPlurals(out, '%d file', 'pl')).toEqual({ one: '%d plik', few: '%d pliki', many: '%d plików', other: '%d pliku' });
    expect(msgfmtOk(dec(out))).toBe(true);
  });

  it('writes an empty catalog, and keeps the first position and last value of a repeated key', () => {
    expect(poCodec.parse(poCodec.renderFresh([]))).toEqual([]);
    const out = poCodec.renderFresh([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
      { key: 'a', value: '3' },
    ]);
    expect([...msgstrs(out)]).toEqual([
      ['a', ['3']],
      ['b', ['2']],
    ]);
  });

  it('wraps long and multi-line values as msgmerge does', () => {
    const long = 'word '.repeat(30).trim();
    const out = dec(poCodec.renderFresh([{ key: 'k', value: `${long}\nnext` }]));
    expect(out).toContain(`msgstr ""\n"${'word '.repeat(15)}"\n"${'word '.repeat(14)}word\\n"\n"next"\n`);
  });
});

// ---------------------------------------------------------------------------------------------------------------------

describe('property: values survive render → parse', () => {
  const PIECES = [
    'a', 'Z', ' ', '  ', '"', "'", '\\', '\\n', '\n', '\r', '\t', '\r\n', '\u0001', '\u0007', '\u007f', '🚀', '👩‍👩‍👧', 'שלום', 'مرحبا',
    '\u200f', '\u2028', 'é', '{name}', '{{x}}', '%s', '%1$s', '%d', '<b>', '&amp;', '#', ':', ',', 'msgid "', 'word '.repeat(20),
  ];
  const text = (min = 0): fc.Arbitrary<string> => fc.array(fc.constantFrom(...PIECES), { minLength: min, maxLength: 8 }).map((p) => p.join(''));
  const key = fc.tuple(fc.option(text(), { nil: undefined }), text(1)).map(([ctx, id]) => (ctx === undefined ? id : `${ctx}\u0004${id}`));

  it('po: renderFresh, parse, render and read back give the same keys and values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('en', 'ar', 'pl', 'ja', 'fr'),
        fc.uniqueArray(fc.tuple(key, text(), fc.boolean()), { selector: ([k]) => k, maxLength: 6 }),
        fc.array(text(), { minLength: 6, maxLength: 6 }),
        fc.boolean(),
        (locale, rows, next, omitSome) => {
          const valueOf = (v: string, plural: boolean): Value =>
            plural ? { plurals: Object.fromEntries(pluralCategories(locale).map((c, i) => [c, `${v}${i}`])) } : v;
          const file = poCodec.renderFresh(rows.map(([k, v, p]) => ({ key: k, value: valueOf(v, p) })), { locale });
          expect(poCodec.parse(file).map((e) => e.key)).toEqual(rows.map(([k]) => k));
          for (const [k, v, p] of rows) expect(msgstrs(file).get(k)).toEqual(expectedForms(valueOf(v, p), locale));

          const values = new Map<string, Value>();
          rows.forEach(([k, , p], i) => {
            if (!omitSome || i % 2 === 0) values.set(k, valueOf(next[i]!, p));
          });
          const out = poCodec.render({ source: file, values, missing: omitSome ? 'omit' : 'source', locale });
          expect(poCodec.parse(out).map((e) => e.key)).toEqual(rows.filter((_, i) => !omitSome || i % 2 === 0).map(([k]) => k));
          for (const [k, value] of values) {
            const id = k.includes('\u0004') ? k.slice(k.indexOf('\u0004') + 1) : k;
            // A value equal to the msgid keeps the message as it was.
            if (value !== id) expect(msgstrs(out).get(k)).toEqual(expectedForms(value, locale));
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('unreal_po: keys and values survive fresh files and rendering', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(text(1), text()), { selector: ([k]) => k, maxLength: 6 }), fc.array(text(), { minLength: 6, maxLength: 6 }), (rows, next) => {
        const file = unrealPoCodec.renderFresh(rows.map(([key, value]) => ({ key, value })), { locale: 'en' });
        expect(unrealPoCodec.parse(file).map((e) => [e.key, e.source])).toEqual(rows);
        const out = unrealPoCodec.render({ source: file, values: new Map(rows.map(([k], i) => [k, next[i]!])), missing: 'source', locale: 'fr' });
        const read = scanPo(out).messages.filter((m) => !m.header).map((m) => [m.msgctxt!.value, m.msgstr[0]!.value]);
        expect(read).toEqual(rows.map(([k], i) => [k, next[i]]));
      }),
      { numRuns: 100 },
    );
  });
});

describe('po: found by the fuzzer (npm run fuzz)', () => {
  it('reads a line of 100,000 empty strings in linear time', () => {
    const bytes = enc(`msgid "a"\nmsgstr ${'""'.repeat(100_000)}\n`);
    const start = performance.now();
    expect(poCodec.parse(bytes).map((e) => e.key)).toEqual(['a']);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
