// Unit tests for the yaml, laravel_json and laravel_php codecs: byte-faithful round trips, splicing, omission, the formats' own tools, errors and fresh files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Engine } from 'php-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as yamlParse, parseDocument, visit } from 'yaml';
import { type Codec, type Entry, type FreshEntry } from '../../src/core/formats/codec.js';
import { collectStrings, scanJson } from '../../src/core/formats/json-scan.js';
import { laravelJsonCodec } from '../../src/core/formats/laravel-json.js';
import { laravelPhpCodec } from '../../src/core/formats/laravel-php.js';
import { yamlCodec, yamlLibraryCodec } from '../../src/core/formats/yaml.js';
import { scanYaml } from '../../src/core/formats/yaml-scan.js';
import { parseError } from '../helpers/formats.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'test/fixtures/formats');
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const PY = '/usr/bin/python3';

const succeeds = (command: string, args: string[]): boolean => {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.error === undefined && result.status === 0;
};
const hasPyYaml = succeeds(PY, ['-c', 'import yaml']);
const hasTtkYaml = succeeds(PY, ['-c', 'import translate.storage.yaml']);
const hasTtkPhp = succeeds(PY, ['-c', 'import translate.storage.php']);
const hasTtkJson = succeeds(PY, ['-c', 'import translate.storage.jsonl10n']);
const hasPhp = succeeds('php', ['-v']);

const TMP = mkdtempSync(join(tmpdir(), 'parlance-yaml-laravel-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
let tmpCount = 0;
function tmpFile(name: string, bytes: Uint8Array): string {
  const path = join(TMP, `${tmpCount++}-${name.replace(/[^\w.-]/g, '_')}`);
  writeFileSync(path, bytes);
  return path;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
// ignoreBOM keeps a BOM visible in the decoded string, so comparisons see it.
const dec = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
/** Decodes YAML as its byte order mark says (UTF-16 or UTF-8), without the mark. */
const decodeYaml = (b: Uint8Array): string =>
  b[0] === 0xff && b[1] === 0xfe ? new TextDecoder('utf-16le').decode(b.subarray(2)) : dec(b).replace(/^\uFEFF/, '');

function render(codec: Codec, source: string | Uint8Array, values: Record<string, string>, missing: 'source' | 'omit' = 'source', locale?: string): string {
  const input = { source: typeof source === 'string' ? enc(source) : source, values: new Map(Object.entries(values)), missing } as const;
  return dec(codec.render(locale === undefined ? input : { ...input, locale }));
}

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(Buffer.from(actual).toString('latin1')).toBe(Buffer.from(expected).toString('latin1'));
}

const pairs = (entries: readonly Entry[]): [string, string][] => entries.map((e) => [e.key, e.source]);

/** Every value changed into awkward text: quotes, apostrophes, backslashes, breaks, markup, emoji, RTL, `$` and placeholders. */
const pseudo = (s: string): string => `[«${s}» it's "q" \\ \n<b>&amp; 🚀 مرحبا $x {$y} %s]`;

function expectRoundTrip(codec: Codec, bytes: Uint8Array): Entry[] {
  const entries = codec.parse(bytes);
  for (const entry of entries) expect(entry.key).toBe(entry.path.join('.'));
  expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
  const all = new Map(entries.map((e) => [e.key, e.source]));
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'source' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'omit' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: new Map(), missing: 'source' }), bytes);
  return entries;
}

/** The file with every entry's value blanked: what must not change when values change. */
function yamlSkeleton(bytes: Uint8Array, entries: readonly Entry[], blankRoot: boolean): string {
  const text = decodeYaml(bytes);
  const wanted = new Set(entries.map((e) => `${e.line}:${e.column}`));
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const position = (offset: number): string => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
    return `${line + 1}:${[...text.slice(lineStarts[line], offset)].length + 1}`;
  };
  const spans: [number, number, string][] = [];
  const doc = parseDocument(text, { keepSourceTokens: true });
  visit(doc, {
    Scalar(_key, node) {
      const range = node.range!;
      if (!wanted.has(position(range[0]))) return;
      const raw = text.slice(range[0], range[1]);
      spans.push([range[0], range[1], `<>${/\r?\n$/.test(raw) ? '\n' : ''}`]);
    },
  });
  if (blankRoot) {
    const root = doc.contents as unknown as { items: { key: { range: [number, number] } }[] };
    const key = root.items[0]!.key.range;
    spans.push([key[0], key[1], '<root>']);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end, blank] of spans) {
    out += text.slice(at, start) + blank;
    at = end;
  }
  return out + text.slice(at);
}

function phpSkeleton(bytes: Uint8Array, entries: readonly Entry[]): string {
  const text = dec(bytes).replace(/^\uFEFF/, '');
  const wanted = new Set(entries.map((e) => `${e.line}:${e.column}`));
  const ast = new Engine({ parser: { php8: true }, ast: { withPositions: true } }).parseCode(text, 'x.php');
  const spans: [number, number][] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const n = node as { kind?: string; loc?: { start: { line: number; column: number; offset: number }; end: { offset: number } } };
      if (n.kind === 'string' && n.loc) {
        const lineText = text.split(/\r?\n/)[n.loc.start.line - 1] ?? '';
        const column = [...lineText.slice(0, n.loc.start.column)].length + 1;
        if (wanted.has(`${n.loc.start.line}:${column}`)) spans.push([n.loc.start.offset, n.loc.end.offset]);
      }
      for (const [k, v] of Object.entries(node)) if (k !== 'loc') walk(v);
    }
  };
  walk(ast);
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(at, start)}<>`;
    at = end;
  }
  return out + text.slice(at);
}

function fixtureFiles(format: string, extensions: RegExp): [string, Uint8Array][] {
  const dir = join(FIXTURES, format);
  return readdirSync(dir)
    .filter((f) => extensions.test(f))
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

function corpusFiles(format: string): [string, Uint8Array][] {
  const dir = join(CORPUS, format);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => [`corpus/${f}`, new Uint8Array(readFileSync(join(dir, f)))]);
}

// ---------------------------------------------------------------------------------------------------------------------
// Tool runners: one process for many files keeps the suite fast.

type Leaves = Record<string, string | null>;
interface YamlToolResult {
  /** PyYAML's leaves by path (segments joined with U+0001), strings or null for other values; or its error. */
  pyyaml: Leaves | { error: string };
  /** translate-toolkit's units by path, or its error. */
  ttk: Leaves | { error: string };
}

const SEP = '\u0001';

const YAML_TOOL = `
import json, sys, yaml
def leaves(data):
    out = {}
    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items(): walk(v, path + [str(k)])
        elif isinstance(node, list):
            for i, v in enumerate(node): walk(v, path + [str(i)])
        else:
            out["\\u0001".join(path)] = node if isinstance(node, str) else None
    walk(data, [])
    return out
try:
    from translate.storage.yaml import YAMLFile
except Exception:
    YAMLFile = None
results = []
for name in sys.argv[1:]:
    raw = open(name, 'rb').read()
    result = {}
    try:
        result['pyyaml'] = leaves(yaml.safe_load(raw))
    except Exception as e:
        result['pyyaml'] = {'error': repr(e)}
    try:
        store = YAMLFile()
        store.parse(raw)
        result['ttk'] = {"\\u0001".join(str(part[1]) for part in unit.get_unitid().parts): str(unit.source) for unit in store.units}
    except Exception as e:
        result['ttk'] = {'error': repr(e)}
    results.append(result)
print(json.dumps(results))
`;

function runJson<T>(command: string, args: string[]): T {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function yamlTool(files: string[]): YamlToolResult[] {
  return runJson<YamlToolResult[]>(PY, ['-c', YAML_TOOL, ...files]);
}

const PHP_VALUES = `
$out = [];
foreach (array_slice($argv, 1) as $file) {
    ob_start();
    $value = require $file;
    ob_end_clean();
    $out[] = $value;
}
echo json_encode($out, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_FORCE_OBJECT);
`;

/** What PHP itself reads from each file: leaves by path, strings or null for other values. */
function phpValues(files: string[]): Leaves[] {
  // JSON_FORCE_OBJECT keeps lists and arrays apart as objects, the outer list included.
  const values = Object.values(runJson<Record<string, unknown>>('php', ['-r', PHP_VALUES, ...files]));
  return values.map((value) => {
    const out: Leaves = {};
    const walk = (node: unknown, path: string[]): void => {
      if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
      else out[path.join(SEP)] = typeof node === 'string' ? node : null;
    };
    walk(value, []);
    return out;
  });
}

function phpLint(file: string): { status: number | null; output: string } {
  const result = spawnSync('php', ['-l', file], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const TTK_PHP = `
import json, sys
from translate.storage.php import phpfile
results = []
for name in sys.argv[1:]:
    try:
        store = phpfile()
        store.parse(open(name, 'rb').read())
        results.append([[unit.getid(), str(unit.source)] for unit in store.units])
    except Exception as e:
        results.append({'error': repr(e)})
print(json.dumps(results))
`;

/** translate-toolkit's PHP units as (path, value); keyless and integer keys read as '#', since it does not number them. */
function ttkPhp(files: string[]): ([string, string][] | { error: string })[] {
  const results = runJson<([string, string][] | { error: string })[]>(PY, ['-c', TTK_PHP, ...files]);
  return results.map((r) =>
    Array.isArray(r)
      ? r.map(([id, value]): [string, string] => [
          id
            .replace(/^return\[\]->/, '')
            .split('->')
            .map((segment) => segment.replace(/\[\]$/, '').replace(/^'(.*)'$|^"(.*)"$/, '$1$2'))
            .map((segment) => (segment === '' || /^-?\d+$/.test(segment) ? '#' : segment))
            .join('.'),
          value,
        ])
      : r,
  );
}

const hashIntegers = (key: string): string => key.split('.').map((s) => (/^-?\d+$/.test(s) ? '#' : s)).join('.');

// =====================================================================================================================
describe('yaml', () => {
  const files: [string, Uint8Array][] = [...corpusFiles('yaml'), ...fixtureFiles('yaml', /\.ya?ml$/)];

  /** Strings PyYAML sees that are not entries, by design (aliases, merges, tags, Ruby symbols, YAML 1.1-only strings). */
  const NON_ENTRY_STRINGS: Record<string, string[]> = {
    'anchors-tags.yaml': ['page.subtitle', 'shared', 'reuse', 'tagged', 'explicit_string', 'same_list.0', 'same_list.1'],
    'rails.yml': ['date.order.0', 'date.order.1'],
    // YAML 1.2 numbers that YAML 1.1 readers take as text: kept as they are, like every number.
    'non-strings.yaml': ['octal', 'exp'],
  };
  /** Fixtures translate-toolkit cannot read at all, and why. */
  const TTK_UNREADABLE: Record<string, RegExp> = {
    // It refuses floats (settings.timeout: 30.5).
    'lingo-example.yml': /handle these values/,
    // translate-toolkit decodes every YAML file as UTF-8.
    'utf16le.yaml': /Unicode|utf-8|codec/i,
    // It refuses values it cannot flatten (floats, dates, binary).
    'non-strings.yaml': /handle these values/,
    'anchors-tags.yaml': /handle these values/,
  };

  const railsRoot = (bytes: Uint8Array): string | undefined => {
    const data = yamlParse(decodeYaml(bytes)) as unknown;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
    const keys = Object.keys(data);
    return keys.length === 1 && /^[a-z]{2}(?:[-_][A-Za-z]+)?$/.test(keys[0]!) ? keys[0] : undefined;
  };

  const rendered = files.map(([name, bytes]) => {
    const entries = yamlCodec.parse(bytes);
    const values = new Map(entries.map((e) => [e.key, pseudo(e.source)]));
    const out = yamlCodec.render({ source: bytes, values, missing: 'source', locale: 'ar' });
    return { name, bytes, entries, values, out, root: railsRoot(bytes) };
  });

  describe('round trips', () => {
    for (const { name, bytes } of rendered) {
      it(`${name} renders back byte for byte`, () => {
        expectRoundTrip(yamlCodec, bytes);
      });
    }
  });

  describe('translations', () => {
    for (const { name, bytes, entries, values, out, root } of rendered) {
      it(`${name}: changed values land in place, everything else stays`, () => {
        const after = yamlCodec.parse(out);
        expect(pairs(after)).toEqual(entries.map((e) => [e.key, values.get(e.key)]));
        expect(yamlSkeleton(out, after, root !== undefined)).toBe(yamlSkeleton(bytes, entries, root !== undefined));
        if (root) expect(decodeYaml(out)).toMatch(/^(?:#[^\n]*\r?\n|---\r?\n)*ar:/);
        // The yaml package's own reading agrees with ours.
        const data = yamlParse(decodeYaml(out)) as Record<string, unknown>;
        for (const entry of after) {
          const path = root ? ['ar', ...entry.path] : entry.path;
          expect(path.reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], data)).toBe(entry.source);
        }
      });
    }
  });

  describe.skipIf(!hasPyYaml)('PyYAML and translate-toolkit read what Parlance writes', () => {
    const checked = rendered.map((r) => ({ ...r, source: tmpFile(r.name, r.bytes), target: tmpFile(r.name, r.out) }));
    let results: YamlToolResult[] = [];
    const resultsFor = (i: number): [YamlToolResult, YamlToolResult] => {
      if (results.length === 0) results = yamlTool(checked.flatMap((c) => [c.source, c.target]));
      return [results[2 * i]!, results[2 * i + 1]!];
    };

    checked.forEach(({ name, out, root }, i) => {
      const short = name.replace(/^corpus\//, '');
      it(`${name}: PyYAML loads the target and reads our values at our paths`, () => {
        const [sourceResult, targetResult] = resultsFor(i);
        expect(sourceResult.pyyaml).not.toHaveProperty('error');
        expect(targetResult.pyyaml).not.toHaveProperty('error');
        const leaves = targetResult.pyyaml as Leaves;
        const ours = yamlCodec.parse(out);
        const prefix = root ? ['ar'] : [];
        const toolPath = (e: Entry): string => [...prefix, ...e.path].join(SEP);
        expect(Object.fromEntries(ours.map((e) => [toolPath(e), leaves[toolPath(e)]]))).toEqual(
          Object.fromEntries(ours.map((e) => [toolPath(e), e.source])),
        );
        // Every other string PyYAML sees is one we leave alone on purpose.
        const oursSet = new Set(ours.map(toolPath));
        const others = Object.entries(leaves)
          .filter(([path, value]) => typeof value === 'string' && !oursSet.has(path))
          .map(([path]) => path.split(SEP).slice(prefix.length).join('.'));
        expect(others.sort()).toEqual([...(NON_ENTRY_STRINGS[short] ?? [])].sort());
      });

      it.skipIf(!hasTtkYaml)(`${name}: translate-toolkit's parse of the target equals ours`, () => {
        const [, targetResult] = resultsFor(i);
        const unreadable = TTK_UNREADABLE[short];
        if (unreadable) {
          expect((targetResult.ttk as { error: string }).error).toMatch(unreadable);
          return;
        }
        expect(targetResult.ttk).not.toHaveProperty('error');
        const units = targetResult.ttk as Leaves;
        const prefix = root ? ['ar'] : [];
        const ours = yamlCodec.parse(out);
        const toolPath = (e: Entry): string => [...prefix, ...e.path].join(SEP);
        expect(Object.fromEntries(ours.map((e) => [toolPath(e), units[toolPath(e)]]))).toEqual(
          Object.fromEntries(ours.map((e) => [toolPath(e), e.source])),
        );
        // Its other units are values we keep as they are (numbers, booleans, aliases, YAML 1.1 oddities).
        const pyyaml = resultsFor(i)[1].pyyaml as Leaves;
        const oursSet = new Set(ours.map(toolPath));
        for (const path of Object.keys(units).filter((p) => !oursSet.has(p))) {
          const nonEntry = NON_ENTRY_STRINGS[short]?.includes(path.split(SEP).slice(prefix.length).join('.'));
          expect(pyyaml[path] === null || nonEntry, `${name} ${path}`).toBe(true);
        }
      });
    });
  });

  // Guards against an editor or git setting normalising the fixtures and hollowing out the tests above.
  it('fixtures still have the byte-level traits they were written for', () => {
    const read = (p: string): Buffer => readFileSync(join(FIXTURES, 'yaml', p));
    expect(read('crlf-bom.yml').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('crlf-bom.yml').toString('latin1')).toMatch(/^[^\n]*\r\n(?:[^\n]*\r\n)*$/);
    expect(read('utf16le.yaml').subarray(0, 4)).toEqual(Buffer.from([0xff, 0xfe, 0x23, 0x00]));
    expect(read('four-spaces-no-final-newline.yml').toString()).toMatch(/\n {4}four[^]*newline$/);
    expect(read('block-scalars.yaml').toString()).toContain('|+\n  Keeps trailing newlines\n\n\n');
  });

  describe('parse', () => {
    it('reads a Rails file without its locale root, with notes, positions and sequences', () => {
      const entries = yamlCodec.parse(readFileSync(join(FIXTURES, 'yaml/rails.yml')));
      expect(entries.slice(0, 3)).toEqual([
        { key: 'welcome', path: ['welcome'], source: 'Welcome to %{app_name}!', line: 4, column: 12, notes: 'Shown on the home page' },
        { key: 'greeting', path: ['greeting'], source: 'Hello, %{name}', line: 5, column: 13, notes: 'trailing note' },
        { key: 'farewell', path: ['farewell'], source: "Goodbye, it's been a pleasure", line: 6, column: 13 },
      ]);
      expect(entries.map((e) => e.key)).toEqual([
        'welcome',
        'greeting',
        'farewell',
        'activerecord.errors.messages.blank',
        'activerecord.errors.messages.too_long',
        'date.formats.default',
        'date.formats.short',
        'date.day_names.0',
        'date.day_names.1',
        'date.day_names.2',
        'date.abbr_day_names.0',
        'date.abbr_day_names.1',
        'number.delimiter',
        'help',
        'summary',
      ]);
      expect(entries.find((e) => e.key === 'help')?.source).toBe('First line of help.\nSecond line with %{link}.\n');
      expect(entries.find((e) => e.key === 'summary')?.source).toBe('A folded paragraph written on two lines.');
    });

    it('keeps a single non-locale top-level key, or a locale key holding a string, as part of the keys', () => {
      expect(yamlCodec.parse(enc('app:\n  title: T\n')).map((e) => e.key)).toEqual(['app.title']);
      expect(yamlCodec.parse(enc('en: English\n')).map((e) => e.key)).toEqual(['en']);
      expect(yamlCodec.parse(enc('en:\n  a: A\nde:\n  a: B\n')).map((e) => e.key)).toEqual(['en.a', 'de.a']);
      expect(yamlCodec.parse(enc('pt-BR:\n  a: A\n')).map((e) => e.key)).toEqual(['a']);
      expect(yamlCodec.parse(enc('zh_CN:\n  a: A\n')).map((e) => e.key)).toEqual(['a']);
      expect(yamlCodec.parse(enc('"de":\n  a: A\n')).map((e) => e.key)).toEqual(['a']);
    });

    it('leaves values that YAML 1.1 or 1.2 readers take for non-strings out', () => {
      const entries = yamlCodec.parse(readFileSync(join(FIXTURES, 'yaml/non-strings.yaml')));
      expect(pairs(entries)).toEqual([
        ['quoted_yes', 'yes'],
        ['quoted_number', '42'],
        ['quoted_date', '2024-01-31'],
        ['plain_text', 'yesterday'],
        ['version_like', '1.2.3'],
      ]);
    });

    it('reads plain y and n as text, as Psych and PyYAML do', () => {
      expect(pairs(yamlCodec.parse(enc('a: y\nb: N\nc: nO\n')))).toEqual([
        ['a', 'y'],
        ['b', 'N'],
      ]);
    });

    it('leaves anchors, aliases, merges and tags out', () => {
      const entries = yamlCodec.parse(readFileSync(join(FIXTURES, 'yaml/anchors-tags.yaml')));
      expect(entries.map((e) => e.key)).toEqual(['defaults.title', 'defaults.subtitle', 'page.title', 'list.0', 'list.1']);
    });

    it('keys root sequences, compact maps and nested sequences by position', () => {
      const entries = yamlCodec.parse(readFileSync(join(FIXTURES, 'yaml/sequences.yaml')));
      expect(entries.map((e) => [e.key, e.path])).toEqual([
        ['0', ['0']],
        ['1', ['1']],
        ['2.key', ['2', 'key']],
        ['2.other', ['2', 'other']],
        ['3.0', ['3', '0']],
        ['3.1', ['3', '1']],
        ['4.late', ['4', 'late']],
      ]);
    });

    it('takes comment lines directly above and a comment after the value as notes', () => {
      const entries = yamlCodec.parse(readFileSync(join(FIXTURES, 'yaml/comments.yaml')));
      expect(entries.map((e) => [e.key, e.notes])).toEqual([
        ['alpha', 'Note for alpha'],
        ['beta', 'inline note for beta'],
        ['gamma.delta', 'Note for delta,\non two lines'],
        ['gamma.epsilon', 'no space after hash\nspaced note'],
        ['zeta.0', 'Note for the first item'],
      ]);
    });

    it("does not take a block scalar's # lines for the next item's notes", () => {
      const src = 'a: |\n  text\n  # part of the text\nb: B\n';
      expect(yamlCodec.parse(enc(src)).map((e) => [e.key, e.source, e.notes])).toEqual([
        ['a', 'text\n# part of the text\n', undefined],
        ['b', 'B', undefined],
      ]);
      expect(render(yamlCodec, src, { a: 'neu\n' }, 'omit')).toBe('a: |\n  neu\n');
      expect(render(yamlCodec, src, { b: 'Be' }, 'omit')).toBe('b: Be\n');
    });

    it('decodes every scalar style', () => {
      const entries = new Map(pairs(yamlCodec.parse(readFileSync(join(FIXTURES, 'yaml/escapes.yaml')))));
      expect(entries.get('double')).toBe('Quote " backslash \\ newline \n tab \t e-acute é rocket 🚀 hex A nul \0 bell \x07');
      expect(entries.get('single')).toBe('It\'s a \'single\' quote with \\ backslash and "double" quotes');
      expect(entries.get('folded_double')).toBe('first line continued line\nnew paragraph');
      expect(entries.get('plain_multiline')).toBe('this plain scalar spans two lines');
      expect(entries.get('nbsp_and_escapes')).toBe('non\u00a0breaking \u0085 next-line \u2028 line-sep \u2029 para-sep');
    });

    it('reads UTF-16 with a byte order mark, and counts columns in code points after a BOM and CRLF', () => {
      expect(pairs(yamlCodec.parse(readFileSync(join(FIXTURES, 'yaml/utf16le.yaml'))))).toEqual([
        ['bonjour', 'Bonjour, ça va ?'],
        ['emoji', '🎉 fête'],
      ]);
      expect(yamlCodec.parse(enc('\uFEFF🚀🚀: x\r\nb: "y"\r\n')).map((e) => [e.key, e.line, e.column])).toEqual([
        ['🚀🚀', 1, 5],
        ['b', 2, 4],
      ]);
    });

    it('gives an empty document no entries and renders it unchanged', () => {
      for (const src of ['', '# just a comment\n', '---\n', '~\n']) {
        expect(yamlCodec.parse(enc(src))).toEqual([]);
        expect(render(yamlCodec, src, { a: 'x' }, 'omit', 'de')).toBe(src);
      }
    });

    it('uses the spelling of non-string keys', () => {
      expect(yamlCodec.parse(enc('404: Not found\ntrue: Yes it is\n1.0: One\n')).map((e) => e.key)).toEqual(['404', 'true', '1.0']);
    });
  });

  describe('render with translations', () => {
    it.each([
      ['plain stays plain', 'k: old\n', 'Hallo Welt', 'k: Hallo Welt\n'],
      ['a plain URL and a colon without space', 'k: old\n', 'http://x.y/a:b', 'k: http://x.y/a:b\n'],
      ['plain quotes a boolean-looking value', 'k: old\n', 'yes', "k: 'yes'\n"],
      ['plain quotes a YAML 1.1 boolean', 'k: old\n', 'On', "k: 'On'\n"],
      ['plain quotes a boolean in any case, as Psych reads it', 'k: old\n', 'tRUE', "k: 'tRUE'\n"],
      ['plain quotes y and n, booleans to some YAML 1.1 readers', 'k: old\n', 'y', "k: 'y'\n"],
      ['plain quotes a number', 'k: old\n', '1.5', "k: '1.5'\n"],
      ['plain quotes a date', 'k: old\n', '2024-01-01', "k: '2024-01-01'\n"],
      ['plain quotes null words', 'k: old\n', '~', "k: '~'\n"],
      ['plain quotes ": "', 'k: old\n', 'a: b', "k: 'a: b'\n"],
      ['plain quotes " #"', 'k: old\n', 'a #b', "k: 'a #b'\n"],
      ['plain quotes a leading indicator', 'k: old\n', '- item', "k: '- item'\n"],
      ['plain quotes a placeholder at the start', 'k: old\n', '%{count} items', "k: '%{count} items'\n"],
      ['plain quotes braces at the start', 'k: old\n', '{name} joined', "k: '{name} joined'\n"],
      ['plain quotes leading spaces', 'k: old\n', ' padded', "k: ' padded'\n"],
      ['plain uses double quotes for an apostrophe', 'k: old\n', "it's: x", 'k: "it\'s: x"\n'],
      ['plain uses double quotes for a break', 'k: old\n', 'two\nlines', 'k: "two\\nlines"\n'],
      ['plain writes an empty value quoted', 'k: old\n', '', "k: ''\n"],
      ['plain keeps an apostrophe plain when safe', 'k: old\n', "can't be blank", "k: can't be blank\n"],
      ['plain in a flow map quotes commas and colons', 'k: {a: old}\n', 'b, c', "k: {a: 'b, c'}\n"],
      ['plain in a flow sequence quotes colons', 'k: [old]\n', 'b:c', "k: ['b:c']\n"],
      ['single-quoted doubles apostrophes', "k: 'old'\n", "it's", "k: 'it''s'\n"],
      ['single-quoted switches to double for a break', "k: 'old'\n", 'a\nb', 'k: "a\\nb"\n'],
      ['single-quoted keeps backslashes literal', "k: 'old'\n", 'C:\\dir', "k: 'C:\\dir'\n"],
      ['double-quoted stays double', 'k: "old"\n', 'plain', 'k: "plain"\n'],
      ['double-quoted escapes', 'k: "old"\n', 'q" b\\ t\t n\n r\r nul\0 esc\x1b del\x7f', 'k: "q\\" b\\\\ t\\t n\\n r\\r nul\\0 esc\\e del\\x7f"\n'],
      ['double-quoted escapes YAML 1.1 line breaks and the BOM', 'k: "old"\n', 'nel\u0085 ls\u2028 ps\u2029 bom\ufeff', 'k: "nel\\x85 ls\\u2028 ps\\u2029 bom\\ufeff"\n'],
      ['double-quoted keeps emoji and RTL text raw', 'k: "old"\n', 'é 🚀 مرحبا', 'k: "é 🚀 مرحبا"\n'],
      ['a lone surrogate is escaped', 'k: "old"\n', 'x\ud800y', 'k: "x\\ud800y"\n'],
      ['a multi-line double-quoted value becomes one line', 'k: "old\n  text"\nn: 1\n', 'neu', 'k: "neu"\nn: 1\n'],
      ['a multi-line plain value becomes one line', 'k: old\n  text\nn: 1\n', 'neu', 'k: neu\nn: 1\n'],
      ['a trailing comment stays', 'k: old # note\n', 'neu', 'k: neu # note\n'],
    ])('%s', (_name, src, value, expected) => {
      const out = render(yamlCodec, src, { [yamlCodec.parse(enc(src))[0]!.key]: value });
      expect(out).toBe(expected);
      expect(yamlCodec.parse(enc(out))[0]!.source).toBe(value);
    });

    it.each([
      ['literal keeps its style and indentation', 'k: |\n    old\n    text\nn: 1\n', 'Zeile eins\n\nZeile drei\n', 'k: |\n    Zeile eins\n\n    Zeile drei\nn: 1\n'],
      ['literal strips for a value without a final break', 'k: |\n  old\nn: 1\n', 'kein Umbruch', 'k: |-\n  kein Umbruch\nn: 1\n'],
      ['literal keeps for several final breaks', 'k: |-\n  old\nn: 1\n', 'zwei\n\n', 'k: |+\n  zwei\n\nn: 1\n'],
      ['literal keeps more-indented lines', 'k: |\n  old\n', 'a\n  b\n', 'k: |\n  a\n    b\n'],
      ['literal keeps its header comment', 'k: | # note\n  old\n', 'neu\n', 'k: | # note\n  neu\n'],
      ['literal drops an indentation indicator it no longer needs', 'k: |2\n    old\n', 'neu\n', 'k: |\n    neu\n'],
      ['folded writes each break as a blank line', 'k: >\n  old\n', 'a\nb\n\nc\n', 'k: >\n  a\n\n  b\n\n\n  c\n'],
      ['folded keeps long lines whole', 'k: >-\n  old\n  text\n', 'one long line', 'k: >-\n  one long line\n'],
      ['a blank line after the block stays outside it', 'k: |\n  old\n\nn: 1\n', 'neu\n', 'k: |\n  neu\n\nn: 1\n'],
      ['CRLF blocks keep CRLF', 'k: |\r\n  old\r\nn: 1\r\n', 'a\nb\n', 'k: |\r\n  a\r\n  b\r\nn: 1\r\n'],
      ['a block at the end of a file without a final break', 'n: 1\nk: |-\n  old', 'neu', 'n: 1\nk: |-\n  neu'],
      ['leading spaces fall back to double quotes', 'k: |\n  old\nn: 1\n', '  indented\n', 'k: "  indented\\n"\nn: 1\n'],
      ['a folded value with indented lines falls back', 'k: >\n  old\nn: 1\n', 'a\n  b', 'k: "a\\n  b"\nn: 1\n'],
      ['an empty value falls back', 'k: |\n  old\n', '', 'k: ""\n'],
      ['kept breaks before a blank line fall back', 'k: |\n  old\n\nn: 1\n', 'x\n\n', 'k: "x\\n\\n"\n\nn: 1\n'],
      ['a CR falls back', 'k: |\n  old\n', 'a\rb', 'k: "a\\rb"\n'],
    ])('block scalars: %s', (_name, src, value, expected) => {
      const out = render(yamlCodec, src, { k: value });
      expect(out).toBe(expected);
      expect(yamlCodec.parse(enc(out)).find((e) => e.key === 'k')!.source).toBe(value);
      expect((yamlParse(out) as Record<string, unknown>).k).toBe(value);
    });

    it.each([
      ['en:\n  a: A\n', 'ar', 'ar:\n  a: B\n'],
      ['en:\n  a: A\n', 'pt-BR', 'pt-BR:\n  a: B\n'],
      ['en_US:\n  a: A\n', 'pt-BR', 'pt_BR:\n  a: B\n'],
      ["'en':\n  a: A\n", 'de', "'de':\n  a: B\n"],
      ['"en": {a: A}\n', 'de', '"de": {a: B}\n'],
      ['en:\n  a: A\n', 'no', "'no':\n  a: B\n"],
    ])('renames the Rails root %j for %s', (src, locale, expected) => {
      expect(render(yamlCodec, src, { a: 'B' }, 'source', locale)).toBe(expected);
    });

    it('keeps the Rails root without a target locale, and renames it even when nothing else changes', () => {
      expect(render(yamlCodec, 'en:\n  a: A\n', { a: 'B' })).toBe('en:\n  a: B\n');
      expect(render(yamlCodec, 'en:\n  a: A\n', { a: 'A' }, 'source', 'fr')).toBe('fr:\n  a: A\n');
      expect(render(yamlCodec, 'en:\n  a: A\n', {}, 'source', 'en')).toBe('en:\n  a: A\n');
    });

    it('writes UTF-16 back as UTF-16 with its byte order mark', () => {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'yaml/utf16le.yaml')));
      const out = yamlCodec.render({ source: bytes, values: new Map([['bonjour', 'Salut 🚀']]), missing: 'source', locale: 'fr-CA' });
      expect([...out.subarray(0, 2)]).toEqual([0xff, 0xfe]);
      const text = new TextDecoder('utf-16le').decode(out.subarray(2));
      expect(text).toBe('# UTF-16 little-endian with a byte order mark\nfr-CA:\n  bonjour: Salut 🚀\n  emoji: "🎉 fête"\n');
    });

    it('hands back a copy of the source bytes when nothing changes', () => {
      const src = enc('a: "\\u0041"\n');
      const out = yamlCodec.render({ source: src, values: new Map([['a', 'A']]), missing: 'source' });
      expectSameBytes(out, src);
      expect(out).not.toBe(src);
    });

    it('refuses plural values, as the service never sends them to a non-plural format', () => {
      expect(yamlCodec.plurals).toBe(false);
      const values = new Map([['a', { plurals: { one: 'x', other: 'y' } }]]);
      expect(() => yamlCodec.render({ source: enc('a: b\n'), values, missing: 'source' })).toThrow(/format_cannot_express_plural: 'yaml'/);
    });
  });

  describe('render with missing: omit', () => {
    const src = '# header\n\n# note a\na: A\nb: B # note b\nc:\n  d: D\n  e: E\n';

    it.each([
      ['the first item and its notes', { b: 'B', 'c.d': 'D', 'c.e': 'E' }, '# header\n\nb: B # note b\nc:\n  d: D\n  e: E\n'],
      ['a middle item', { a: 'A', 'c.d': 'D', 'c.e': 'E' }, '# header\n\n# note a\na: A\nc:\n  d: D\n  e: E\n'],
      ['a nested item', { a: 'A', b: 'B', 'c.d': 'D' }, '# header\n\n# note a\na: A\nb: B # note b\nc:\n  d: D\n'],
      ['a map left empty', { a: 'A', b: 'B' }, '# header\n\n# note a\na: A\nb: B # note b\n'],
      ['everything', {}, '# header\n\n{}\n'],
    ])('removes %s', (_name, values, expected) => {
      const out = render(yamlCodec, src, values, 'omit');
      expect(out).toBe(expected);
      expect(pairs(yamlCodec.parse(enc(out)))).toEqual(Object.entries(values));
    });

    it('keeps maps holding other values, and a Rails root', () => {
      expect(render(yamlCodec, 'en:\n  a: A\n  n: 1\n', {}, 'omit', 'de')).toBe('de:\n  n: 1\n');
      expect(render(yamlCodec, '---\nen:\n  a: A\n  b:\n    c: C\n', {}, 'omit', 'de')).toBe('---\nde: {}\n');
      expect(render(yamlCodec, 'en:\n  a: A\n', {}, 'omit')).toBe('en: {}\n');
    });

    it('removes flow items with their separators', () => {
      expect(render(yamlCodec, 'k: {a: A, b: B, c: C}\n', { 'k.b': 'X' }, 'omit')).toBe('k: {b: X}\n');
      expect(render(yamlCodec, 'k: {a: A, b: B, c: C}\n', { 'k.a': 'X' }, 'omit')).toBe('k: {a: X}\n');
      expect(render(yamlCodec, 'k: {a: A, b: B, c: C,}\n', { 'k.a': 'X', 'k.c': 'Z' }, 'omit')).toBe('k: {a: X, c: Z,}\n');
      expect(render(yamlCodec, 'k: {a: A}\nm: M\n', { m: 'Em' }, 'omit')).toBe('m: Em\n');
    });

    it('keeps omitted items of a partly kept sequence, since removal would renumber it', () => {
      expect(render(yamlCodec, 'l:\n  - A\n  - B\n', { 'l.1': 'X' }, 'omit')).toBe('l:\n  - A\n  - X\n');
      expect(render(yamlCodec, 'l: [A, B]\nm: M\n', { m: 'Em' }, 'omit')).toBe('m: Em\n');
    });

    it('keeps the first pair of a compact map in a sequence, which shares its line with the dash', () => {
      expect(render(yamlCodec, '- a: A\n  b: B\n', { '0.b': 'X' }, 'omit')).toBe('- a: A\n  b: X\n');
      expect(render(yamlCodec, '- a: A\n  b: B\n', { '0.a': 'X' }, 'omit')).toBe('- a: X\n');
    });

    it('keeps a missing final newline missing, and CRLF intact', () => {
      expect(render(yamlCodec, 'a: A\nb: B\nc: C', { a: 'X' }, 'omit')).toBe('a: X');
      expect(render(yamlCodec, 'a: A\r\nb: B\r\nc: C\r\n', { a: 'X', c: 'Z' }, 'omit')).toBe('a: X\r\nc: Z\r\n');
      expect(render(yamlCodec, 'a: A\nb: |\n  B\n  b\nc: C\n', { a: 'X', c: 'Z' }, 'omit')).toBe('a: X\nc: Z\n');
    });

    it('keeps an anchored collection its aliases need, even when all its strings are omitted', () => {
      const src = 'base: &b\n  t: T\nother:\n  <<: *b\nkeep: K\n';
      expect(render(yamlCodec, src, { keep: 'Ka' }, 'omit')).toBe('base: &b\n  t: T\nother:\n  <<: *b\nkeep: Ka\n');
      expect(render(yamlCodec, 'l: &l [A, B]\nm: *l\n', {}, 'omit')).toBe('l: &l [A, B]\nm: *l\n');
    });

    /** Keys inside anchored collections, which stay when all their strings are omitted. */
    const ANCHORED: Record<string, RegExp> = { 'anchors-tags.yaml': /^(?:defaults|list)\./ };

    for (const { name, bytes, entries } of rendered) {
      it(`${name}: random omission keeps exactly the given keys (outside partly kept sequences and anchors)`, () => {
        let seed = 7;
        const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
        for (let round = 0; round < 8; round++) {
          const kept = new Map(entries.filter(() => rnd() < 0.5).map((e) => [e.key, `${e.source}!`]));
          const out = yamlCodec.render({ source: bytes, values: kept, missing: 'omit' });
          const after = yamlCodec.parse(out);
          for (const [key, value] of kept) expect(after.find((e) => e.key === key)?.source, key).toBe(value);
          for (const extra of after.filter((e) => !kept.has(e.key))) {
            const stays = /(?:^|\.)\d+(?:\.|$)/.test(extra.key) || ANCHORED[name]?.test(extra.key);
            expect(stays, `${name} ${extra.key}`).toBe(true);
            expect(extra.source).toBe(entries.find((e) => e.key === extra.key)?.source);
          }
        }
      });
    }
  });

  describe('malformed input', () => {
    it.each([
      ['a: b\n  c: d\n', 'Nested mappings are not allowed in compact mappings at line 1, column 4', 1, 4],
      ["a: 'x\nb: c", "Missing closing 'quote at line 2, column 5", 2, 5],
      ['a: "x', 'Missing closing "quote at line 1, column 6', 1, 6],
      ['a: b\nc\n', 'Implicit map keys need to be followed by map values at line 2, column 1', 2, 1],
      ['a: 1\nb: 2\na: 3\n', 'Duplicate key (map keys must be unique) at line 3, column 1', 3, 1],
      ['a:\n\t- b\n', 'Tabs are not allowed as indentation at line 2, column 1', 2, 1],
      ['---\na: 1\n---\nb: 2\n', "Expected a single YAML document, found another '---' at line 3, column 1", 3, 1],
      ['a: {b: c}}\n', 'Unexpected flow-map-end token in YAML stream: "}" at line 1, column 10', 1, 10],
      ['key: @x\n', 'Plain value cannot start with reserved character @ at line 1, column 6', 1, 6],
      ['a: "\\q"\n', 'Invalid escape sequence \\q at line 1, column 5', 1, 5],
      ['a: *nope\n', "Expected an anchor named 'nope' before the alias *nope at line 1, column 4", 1, 4],
      ['just a string\n', 'Expected a map of keys to strings (or a sequence) at the top level at line 1, column 1', 1, 1],
      ['🚀: x\nb: "y\n', 'Missing closing "quote at line 3, column 1', 3, 1],
      ['a.b: x\na:\n  b: z\n', 'The paths ["a.b"] (line 1) and ["a","b"] both give the key "a.b"; rename one of them at line 3, column 6', 3, 6],
    ])('%j → %s', (input, message, line, column) => {
      const error = parseError(() => yamlCodec.parse(enc(input)));
      expect(error.message).toBe(message);
      expect([error.line, error.column]).toEqual([line, column]);
      expect(parseError(() => yamlCodec.render({ source: enc(input), values: new Map(), missing: 'source' })).message).toBe(message);
    });

    it('rejects invalid UTF-8 and odd UTF-16', () => {
      expect(parseError(() => yamlCodec.parse(new Uint8Array([...enc('a: "'), 0xc3, 0x28, ...enc('"\n')]))).message).toBe(
        'Invalid UTF-8 byte sequence at line 1, column 5',
      );
      expect(parseError(() => yamlCodec.parse(new Uint8Array([0xff, 0xfe, 0x61]))).message).toBe(
        'The UTF-16 file has an odd number of bytes at line 1, column 1',
      );
    });

    it('refuses absurd nesting instead of overflowing the stack', () => {
      const error = parseError(() => yamlCodec.parse(enc(`a: ${'['.repeat(600)}${']'.repeat(600)}\n`)));
      expect(error.message).toMatch(/^Expected at most 512 levels of nesting at line 1, column \d+$/);
    });

    it('names the first flow collection too deep, and keeps brackets inside strings and block scalars out of the count', () => {
      expect(parseError(() => yamlCodec.parse(enc(`a: ok\nb: ${'{x: '.repeat(513)}y${'}'.repeat(513)}\n`))).message).toBe(
        `Expected at most 512 levels of nesting at line 2, column ${4 + 512 * 4}`,
      );
      // Half a million brackets: refused at the 513th, without building the rest.
      expect(parseError(() => yamlCodec.parse(enc(`a: ${'['.repeat(500_000)}\n`))).message).toBe('Expected at most 512 levels of nesting at line 1, column 516');
      const brackets = '{['.repeat(400);
      const entries = yamlCodec.parse(enc(`quoted: "${brackets}"\nsingle: '${brackets}'\nblock: |\n  ${brackets}\n# ${brackets}\n`));
      expect(entries.map((e) => [e.key, e.source])).toEqual([
        ['quoted', brackets],
        ['single', brackets],
        ['block', `${brackets}\n`],
      ]);
    });
  });

  describe('renderFresh', () => {
    const fresh = (entries: FreshEntry[], locale?: string): string => dec(yamlCodec.renderFresh(entries, locale ? { locale } : {}));

    it('writes nested maps conventionally, quoting only what needs it, with notes as comments', () => {
      const out = fresh([
        { key: 'nav.home', value: 'Home', notes: 'Top menu\nleft side' },
        { key: 'nav.about', value: 'yes' },
        { key: 'title', value: "It's: here" },
        { key: '404', value: 'Not found' },
        { key: 'multi', value: 'a\nb' },
        { key: 'empty', value: '' },
      ]);
      expect(out).toBe(
        'nav:\n  # Top menu\n  # left side\n  home: Home\n  about: \'yes\'\ntitle: "It\'s: here"\n\'404\': Not found\nmulti: "a\\nb"\nempty: \'\'\n',
      );
      expect(yamlCodec.parse(enc(out)).map((e) => [e.key, e.source, e.notes])).toEqual([
        ['nav.home', 'Home', 'Top menu\nleft side'],
        ['nav.about', 'yes', undefined],
        ['title', "It's: here", undefined],
        ['404', 'Not found', undefined],
        ['multi', 'a\nb', undefined],
        ['empty', '', undefined],
      ]);
    });

    it('writes {} for no entries', () => {
      expect(fresh([])).toBe('{}\n');
      expect(yamlCodec.parse(enc(fresh([])))).toEqual([]);
    });

    it('roots a lone locale-named map under the locale, so it does not read back as a Rails root', () => {
      const out = fresh([{ key: 'de.title', value: 'Titel' }], 'de');
      expect(out).toBe('de:\n  de:\n    title: Titel\n');
      expect(pairs(yamlCodec.parse(enc(out)))).toEqual([['de.title', 'Titel']]);
    });

    it('keeps keys that are both a leaf and a prefix dotted', () => {
      const entries: [string, string][] = [
        ['a', 'A'],
        ['a.b', 'AB'],
        ['p.q', 'PQ'],
        ['p.q.r', 'PQR'],
      ];
      const out = fresh(entries.map(([key, value]) => ({ key, value })));
      expect(out).toBe('a: A\na.b: AB\np:\n  q: PQ\n  q.r: PQR\n');
      expect(pairs(yamlCodec.parse(enc(out)))).toEqual(entries);
    });
  });

  it('detects by extension and first bytes', () => {
    expect(yamlCodec.detect('config/locales/en.yml', 'en:\n')).toBe(0.9);
    expect(yamlCodec.detect('messages.YAML', '')).toBe(0.9);
    expect(yamlCodec.detect('messages', '---\na: b\n')).toBe(0.3);
    expect(yamlCodec.detect('messages.json', '{}')).toBe(0);
    expect(yamlCodec.extensions).toEqual(['.yml', '.yaml']);
  });
});

// =====================================================================================================================
describe('yaml: the fast scan agrees with the library', () => {
  const outcome = (fn: () => unknown): string => {
    try {
      return `ok ${JSON.stringify(fn())}`;
    } catch (error) {
      return `error ${(error as Error).message}`;
    }
  };
  /** Parse, and renders that change, keep and omit values, through both paths. */
  const expectAgreement = (text: string | Uint8Array): void => {
    const source = typeof text === 'string' ? enc(text) : text;
    const parsed = outcome(() => yamlLibraryCodec.parse(source));
    expect(outcome(() => yamlCodec.parse(source))).toBe(parsed);
    if (parsed.startsWith('error')) return;
    const entries = yamlLibraryCodec.parse(source);
    const variants: [Map<string, string>, 'source' | 'omit'][] = [
      [new Map(entries.map((e) => [e.key, `${e.source} (de)`])), 'source'],
      [new Map(entries.filter((_, i) => i % 2 === 0).map((e) => [e.key, "it's: \"new\"\n"])), 'omit'],
      [new Map(entries.filter((_, i) => i % 3 === 1).map((e) => [e.key, e.source])), 'omit'],
      [new Map(), 'omit'],
    ];
    for (const [values, missing] of variants) {
      const input = { source, values, missing, locale: 'pt-BR' } as const;
      expect(outcome(() => dec(yamlCodec.render(input)))).toBe(outcome(() => dec(yamlLibraryCodec.render(input))));
    }
  };

  // Files in the subset the scan reads itself: where comments, blank lines and empty values end decides notes and omissions.
  const SCANNED = [
    '# header\n\nen:\n  # note\n  title: Hello   # trailing\n  nested:\n    deep: \'it\'\'s\'\n        # deeper, kept with deep\n\n  # belongs to next\n  next: "tab\\there \\u00e9 \\"q\\""\n',
    'a:\n  b:\n    c: x\n    # at the inner map\n  d: y\ne: z\n',
    'a:\n  b:\n    c: x\n    # kept by the inner map\ne: z',
    'a:\n  b:\n    c: x\n  # at the middle map\n\n    # deeper\n',
    'empty:\nnull_after:\n\n  \nk: v\r\nlast:',
    '---\n# c\npt_BR:\n    one: 1\n    two: two words, and more\n    three: 2020-01-01\n    four: x#y\n',
    'a: x\n  # c\n',
    'a: \'\'\nb: ""\nc: "\\x41\\/\\ \\0"\nd: caf\u00e9 \ud83d\ude00\ne.f: dotted\ne:\n  g: x\n',
  ];
  // Files the scan leaves to the library: each holds something outside its subset, or in doubt.
  const FALLBACK = [
    'a: &x v\nb: *x\n',
    'a: !!str 1\n',
    'a: [x, y]\n',
    'a: {b: c}\n',
    'a: |\n  block\n',
    'a: >-\n  folded\n',
    'a:\n  - x\n  - y\n',
    'a: x\n---\nb: y\n',
    '%YAML 1.2\n---\na: x\n',
    'a:\n\tb: x\n',
    'a: x\na: y\n',
    'a: multi\n  line\n',
    'a: "multi\n  line"\n',
    'a:\n    b: x\n  c: y\n',
    '  a: x\n',
    'a: x\rb: y\n',
    '404: x\n',
    'yes: x\n',
    'a: b: c\n',
    'a: x\u2028y\n',
    'a: "\\ud83d"\n',
    'a: # comment\nb: x\n',
    'a:\n  # comment\nb: x\n',
  ];

  it.each(SCANNED)('reads %j itself, as the library does', (text) => {
    expect(scanYaml(text)).toBeDefined();
    expectAgreement(text);
  });

  it.each(FALLBACK)('leaves %j to the library', (text) => {
    expect(scanYaml(text)).toBeUndefined();
    expectAgreement(text);
  });

  it('leaves two paths giving one key to the library, which names both', () => {
    const text = 'a.b: x\na:\n  b: y\n';
    expect(() => yamlCodec.parse(enc(text))).toThrow(/both give the key "a.b"/);
    expectAgreement(text);
  });

  it('agrees on the corpus and fixtures', () => {
    for (const [, bytes] of [...corpusFiles('yaml'), ...fixtureFiles('yaml', /\.ya?ml$/)]) expectAgreement(bytes);
  });
});

// =====================================================================================================================
describe('laravel_json', () => {
  const files: [string, Uint8Array][] = [...corpusFiles('laravel_json'), ...fixtureFiles('laravel_json', /\.json$/)];

  const skeleton = (bytes: Uint8Array): string => {
    const doc = scanJson(bytes);
    let out = '';
    let at = 0;
    for (const { node } of collectStrings(doc.root)) {
      out += `${doc.text.slice(at, node.start)}""`;
      at = node.end;
    }
    return `${doc.bom ? 'BOM:' : ''}${out}${doc.text.slice(at)}`;
  };

  const rendered = files.map(([name, bytes]) => {
    const entries = laravelJsonCodec.parse(bytes);
    const values = new Map(entries.map((e) => [e.key, pseudo(e.source)]));
    const out = laravelJsonCodec.render({ source: bytes, values, missing: 'source', locale: 'ar' });
    return { name, bytes, entries, values, out };
  });

  for (const { name, bytes, entries, values, out } of rendered) {
    it(`${name} round-trips byte for byte and splices translations in place`, () => {
      expectRoundTrip(laravelJsonCodec, bytes);
      expect(pairs(laravelJsonCodec.parse(out))).toEqual(entries.map((e) => [e.key, values.get(e.key)]));
      expect(skeleton(out)).toBe(skeleton(bytes));
    });
  }

  it.skipIf(!hasPhp)("PHP's json_decode, which Laravel uses, reads our values", () => {
    const targets = rendered.map((r) => tmpFile(`${r.name}.json`, r.out));
    const script = `$o = []; foreach (array_slice($argv, 1) as $f) { $o[] = json_decode(preg_replace('/^\\xEF\\xBB\\xBF/', '', file_get_contents($f)), true, 512, JSON_THROW_ON_ERROR); } echo json_encode($o, JSON_THROW_ON_ERROR | JSON_FORCE_OBJECT);`;
    const decoded = runJson<Record<string, unknown>[]>('php', ['-r', script, ...targets]);
    rendered.forEach(({ out }, i) => {
      const strings = Object.entries(decoded[i]!).filter(([, v]) => typeof v === 'string');
      expect(strings).toEqual(pairs(laravelJsonCodec.parse(out)));
    });
  });

  it.skipIf(!hasTtkJson)("translate-toolkit's parse of our output equals ours", () => {
    const targets = rendered.filter((r) => !r.name.includes('scalars')).map((r) => ({ ...r, file: tmpFile(`${r.name}.json`, r.out) }));
    const script = `
import json, sys
from translate.storage.jsonl10n import JsonFile
out = []
for name in sys.argv[1:]:
    store = JsonFile()
    store.parse(open(name, 'rb').read())
    out.append([[unit.getid().lstrip('.'), str(unit.source)] for unit in store.units])
print(json.dumps(out))`;
    const units = runJson<[string, string][][]>(PY, ['-c', script, ...targets.map((t) => t.file)]);
    targets.forEach(({ out }, i) => expect(units[i]).toEqual(pairs(laravelJsonCodec.parse(out))));
  });

  it('keeps Laravel plurals and :placeholders as text', () => {
    const src = '{\n  "apples": "{0} none|{1} one|[2,*] :count many"\n}\n';
    expect(laravelJsonCodec.parse(enc(src))[0]!.source).toBe('{0} none|{1} one|[2,*] :count many');
    expect(render(laravelJsonCodec, src, { apples: '{0} keine|{1} einer|[2,*] :count viele' })).toBe(
      '{\n  "apples": "{0} keine|{1} einer|[2,*] :count viele"\n}\n',
    );
  });

  it('omits untranslated strings and keeps the file valid JSON', () => {
    const src = '{\n    "Log in": "Log in",\n    "Log out": "Log out",\n    "Register": "Register"\n}\n';
    const out = render(laravelJsonCodec, src, { 'Log out': 'Abmelden' }, 'omit');
    expect(out).toBe('{\n    "Log out": "Abmelden"\n}\n');
    expect(render(laravelJsonCodec, src, {}, 'omit')).toBe('{}\n');
  });

  it('refuses nested strings with wording for Laravel, and malformed JSON with its position', () => {
    const error = parseError(() => laravelJsonCodec.parse(enc('{\n  "auth": {"failed": "x"}\n}')));
    expect(error.message).toBe(
      'The key "auth" holds a nested object with strings at line 2, column 11; ' +
        "Laravel's JSON translation files map each string to its translation, with string values only",
    );
    expect([error.line, error.column]).toEqual([2, 11]);
    expect(parseError(() => laravelJsonCodec.parse(enc('{"a": "x",}'))).message).toBe(
      "Expected another member after ',' (trailing commas are not allowed) at line 1, column 10",
    );
    expect(parseError(() => laravelJsonCodec.render({ source: enc('{"a": ["x"]}'), values: new Map(), missing: 'source' })).line).toBe(1);
  });

  it('refuses plural values under its own name', () => {
    expect(laravelJsonCodec.plurals).toBe(false);
    const values = new Map([['a', { plurals: { other: 'y' } }]]);
    expect(() => laravelJsonCodec.render({ source: enc('{"a": "b"}'), values, missing: 'source' })).toThrow(
      /format_cannot_express_plural: 'laravel_json'/,
    );
    expect(() => laravelJsonCodec.renderFresh([{ key: 'a', value: { plurals: { other: 'y' } } }])).toThrow(/'laravel_json'/);
  });

  it('writes fresh files as flat JSON that reads back in order', () => {
    const entries: [string, string][] = [
      ['Welcome, :name!', 'Willkommen, :name!'],
      ['auth.failed', 'Falsche Zugangsdaten'],
      ['Say "hi"', 'Sag "hallo"\n'],
    ];
    const out = dec(laravelJsonCodec.renderFresh(entries.map(([key, value]) => ({ key, value }))));
    expect(out).toBe('{\n  "Welcome, :name!": "Willkommen, :name!",\n  "auth.failed": "Falsche Zugangsdaten",\n  "Say \\"hi\\"": "Sag \\"hallo\\"\\n"\n}\n');
    expect(pairs(laravelJsonCodec.parse(enc(out)))).toEqual(entries);
  });

  it('claims lang/<locale>.json paths and little else', () => {
    expect(laravelJsonCodec.detect('lang/de.json', '{\n  "Log in": "Anmelden"')).toBe(0.8);
    expect(laravelJsonCodec.detect('resources/lang/pt_BR.json', '{')).toBe(0.8);
    expect(laravelJsonCodec.detect('lang/vendor.json', '')).toBe(0.8);
    expect(laravelJsonCodec.detect('locales/de.json', '{\n  "Log in": "Anmelden"')).toBe(0.2);
    expect(laravelJsonCodec.detect('locales/de.json', '{\n  "title": "Titel"')).toBe(0.1);
    expect(laravelJsonCodec.detect('lang/de.json', '[1]')).toBe(0);
    expect(laravelJsonCodec.detect('lang/de/auth.php', '<?php')).toBe(0);
  });

  it('property: random keys and values survive renderFresh, render and parse', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(textArb, textArb), { selector: ([k]) => k, maxLength: 8 }), fc.array(textArb, { minLength: 8, maxLength: 8 }), (members, next) => {
        const file = laravelJsonCodec.renderFresh(members.map(([key, value]) => ({ key, value })));
        expect(pairs(laravelJsonCodec.parse(file))).toEqual(members);
        const values = new Map(members.map(([key], i) => [key, next[i]!]));
        const out = laravelJsonCodec.render({ source: file, values, missing: 'source' });
        expect(pairs(laravelJsonCodec.parse(out))).toEqual([...values]);
      }),
      { numRuns: 100 },
    );
  });
});

// =====================================================================================================================
describe('laravel_php', () => {
  const files: [string, Uint8Array][] = [...corpusFiles('laravel_php'), ...fixtureFiles('laravel_php', /\.php$/)];

  /** Strings PHP returns that are not entries, by design (heredoc, nowdoc, concatenation, interpolation, calls, constants). */
  const NON_ENTRY_STRINGS: Record<string, string[]> = {
    'non-entries.php': ['heredoc', 'nowdoc', 'concatenated', 'interpolated', 'constant', 'call'],
  };
  /** Fixtures translate-toolkit's PHP reader (phply, a PHP 5 grammar) cannot read, and why. */
  const TTK_UNREADABLE: Record<string, RegExp> = {
    // PHP 7.3 flexible heredoc/nowdoc (an indented closing marker).
    'non-entries.php': /./,
  };
  /** Items phply does not see at all: it has no `b"…"` binary string prefix for double quotes. */
  const TTK_UNSEEN: Record<string, string[]> = { 'escapes.php': ['binary_double'] };

  const rendered = files.map(([name, bytes]) => {
    const entries = laravelPhpCodec.parse(bytes);
    const values = new Map(entries.map((e) => [e.key, pseudo(e.source)]));
    const out = laravelPhpCodec.render({ source: bytes, values, missing: 'source', locale: 'ar' });
    return { name, bytes, entries, values, out };
  });

  for (const { name, bytes, entries, values, out } of rendered) {
    it(`${name} round-trips byte for byte and splices translations in place`, () => {
      expectRoundTrip(laravelPhpCodec, bytes);
      const after = laravelPhpCodec.parse(out);
      expect(pairs(after)).toEqual(entries.map((e) => [e.key, values.get(e.key)]));
      expect(phpSkeleton(out, after)).toBe(phpSkeleton(bytes, entries));
    });
  }

  describe.skipIf(!hasPhp)('PHP reads what Parlance writes', () => {
    const checked = rendered.map((r) => ({ ...r, source: tmpFile(r.name, r.bytes), target: tmpFile(r.name, r.out) }));
    let values: Leaves[] = [];
    const valuesFor = (i: number): [Leaves, Leaves] => {
      if (values.length === 0) values = phpValues(checked.flatMap((c) => [c.source, c.target]));
      return [values[2 * i]!, values[2 * i + 1]!];
    };

    checked.forEach(({ name, target, out }, i) => {
      it(`${name}: php -l passes and require returns our values at our keys`, () => {
        const lint = phpLint(target);
        expect(lint.output).toMatch(/No syntax errors/);
        expect(lint.status).toBe(0);
        const [, leaves] = valuesFor(i);
        const ours = laravelPhpCodec.parse(out);
        const toolPath = (e: Entry): string => e.path.join(SEP);
        expect(Object.fromEntries(ours.map((e) => [e.key, leaves[toolPath(e)]]))).toEqual(Object.fromEntries(pairs(ours)));
        const oursSet = new Set(ours.map(toolPath));
        const others = Object.entries(leaves)
          .filter(([path, value]) => typeof value === 'string' && !oursSet.has(path))
          .map(([path]) => path.split(SEP).join('.'));
        expect(others.sort()).toEqual([...(NON_ENTRY_STRINGS[name.replace(/^corpus\//, '')] ?? [])].sort());
      });
    });

    it.skipIf(!hasTtkPhp)("translate-toolkit's parse of our output gives our keys and values", () => {
      const targets = checked.filter(({ name }) => !TTK_UNREADABLE[name]);
      const results = ttkPhp(targets.map((t) => t.target));
      targets.forEach(({ name, out }, i) => {
        const result = results[i]!;
        expect(result, name).not.toHaveProperty('error');
        const unseen = new Set(TTK_UNSEEN[name] ?? []);
        const ours = laravelPhpCodec
          .parse(out)
          .filter((e) => !unseen.has(e.key))
          .map(({ key, source }): [string, string] => [hashIntegers(key), source]);
        expect(result, name).toEqual(ours);
      });
      for (const [name, reason] of Object.entries(TTK_UNREADABLE)) {
        const file = checked.find((c) => c.name === name);
        if (file) expect(JSON.stringify(ttkPhp([file.target])[0]), name).toMatch(reason);
      }
    });
  });

  it('fixtures still have the byte-level traits they were written for', () => {
    const read = (p: string): Buffer => readFileSync(join(FIXTURES, 'laravel_php', p));
    expect(read('crlf-bom.php').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(read('crlf-bom.php').toString('latin1')).toMatch(/^[^\n]*\r\n(?:[^\n]*\r\n)*$/);
    expect(read('escapes.php').toString()).toContain("'It\\'s a \\\\ backslash");
    const json = (p: string): Buffer => readFileSync(join(FIXTURES, 'laravel_json', p));
    expect(json('fr-crlf-bom.json').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(json('fr-crlf-bom.json').toString('latin1')).toMatch(/\r\n\t"Save"[^]*\}$/);
  });

  describe('parse', () => {
    it('reads nested arrays as dotted keys, with notes and positions', () => {
      const entries = laravelPhpCodec.parse(readFileSync(join(FIXTURES, 'laravel_php/validation.php')));
      expect(entries.slice(0, 3)).toEqual([
        { key: 'accepted', path: ['accepted'], source: 'The :attribute field must be accepted.', line: 11, column: 19 },
        {
          key: 'active_url',
          path: ['active_url'],
          source: 'The :attribute field must be a valid URL.',
          line: 13,
          column: 21,
          notes: 'Shown when the field is not a valid URL.',
        },
        { key: 'between.array', path: ['between', 'array'], source: 'The :attribute field must have between :min and :max items.', line: 15, column: 20 },
      ]);
      expect(entries.map((e) => [e.key, e.notes])).toContainEqual(['confirmed', 'trailing note']);
      expect(entries.map((e) => e.key)).toContain('custom.email.required');
      expect(entries.find((e) => e.key === 'apples')?.source).toBe('{0} There are none|[1,19] There are some|[20,*] There are many');
    });

    it('decodes single- and double-quoted literals as PHP does', () => {
      const entries = new Map(pairs(laravelPhpCodec.parse(readFileSync(join(FIXTURES, 'laravel_php/escapes.php')))));
      expect(entries.get('single')).toBe('It\'s a \\ backslash, a literal \\n and a "double" quote');
      expect(entries.get('single_unknown')).toBe('C:\\path\\to\\file');
      expect(entries.get('double')).toBe('Line one\nLine two\tTabbed "quoted" \\ $dollar');
      expect(entries.get('double_unicode')).toBe('Rocket 🚀 e-acute é');
      expect(entries.get('double_hex_octal')).toBe('ABC \x1b[0m \v \f');
      expect(entries.get('double_utf8_bytes')).toBe('café');
      expect(entries.get('double_unknown')).toBe('keeps \\q and \\u without braces');
      expect(entries.get('binary_double')).toBe('binary "double"');
      expect(entries.get('multiline_single')).toBe('first line\nsecond line');
    });

    it('follows PHP key rules and leaves non-literal values out', () => {
      const entries = laravelPhpCodec.parse(readFileSync(join(FIXTURES, 'laravel_php/non-entries.php')));
      expect(pairs(entries)).toEqual([
        ['duplicate', 'Second wins'],
        ['5', 'Five'],
        ['6', 'Six'],
        ['7', 'Seven'],
        ['08', 'Zero-eight stays a string key'],
        ['16', 'Sixteen'],
        ['list.0', 'One'],
        ['list.1', 'Two'],
        ['list.2', 'Three'],
        ['text', 'Translatable'],
      ]);
    });

    it('numbers keyless items as PHP does, and gives up after a key only PHP could compute', () => {
      const src = "<?php return ['a', 10 => 'b', 'c', '-5' => 'd', 'e', true => 'f', 'k' => ['x'], FOO => 'g', 'h', 'z' => 'i', 'l' => 'L'];";
      expect(pairs(laravelPhpCodec.parse(enc(src)))).toEqual([
        ['0', 'a'],
        ['10', 'b'],
        ['11', 'c'],
        ['-5', 'd'],
        ['12', 'e'],
        ['1', 'f'],
        ['k.0', 'x'],
        ['z', 'i'],
        ['l', 'L'],
      ]);
      expect(pairs(laravelPhpCodec.parse(enc("<?php return ['123456789012345678901' => 'big', '9007199254740993' => 'exact'];")))).toEqual([
        ['123456789012345678901', 'big'],
        ['9007199254740993', 'exact'],
      ]);
    });

    it('takes own-line comments directly above and one after the item as notes', () => {
      const entries = laravelPhpCodec.parse(readFileSync(join(FIXTURES, 'laravel_php/comments.php')));
      expect(entries.map((e) => [e.key, e.notes])).toEqual([
        ['line', 'Line comment note'],
        ['hash', 'Hash comment note'],
        ['block', 'Block comment note'],
        ['doc', 'Docblock note\non two lines'],
        ['plain', 'Trailing note'],
        ['after', 'trailing block'],
        ['group.inner', 'Nested note'],
      ]);
    });
  });

  describe('render with translations', () => {
    it.each([
      ['single quotes escape \\ and \'', "'old'", "it's a \\ backslash", "'it\\'s a \\\\ backslash'"],
      ['single quotes keep $ and braces', "'old'", 'Pay $5 {$x}', "'Pay $5 {$x}'"],
      ['single quotes keep emoji and RTL', "'old'", '🚀 مرحبا', "'🚀 مرحبا'"],
      ['single quotes keep a tab', "'old'", 'a\tb', "'a\tb'"],
      ['a line break switches to double quotes', "'old'", 'line\nbreak', '"line\\nbreak"'],
      ['double quotes escape $, quotes and backslashes', '"old"', 'Pay $5 {$x} "q" \\', '"Pay \\$5 {\\$x} \\"q\\" \\\\"'],
      ['double quotes escape control characters', '"old"', 't\t r\r v\v e\x1b f\f nul\0 del\x7f', '"t\\t r\\r v\\x0b e\\x1b f\\x0c nul\\x00 del\\x7f"'],
      ['the b prefix stays', "b'old'", "it's", "b'it\\'s'"],
    ])('%s', (_name, literal, value, expected) => {
      const src = `<?php\nreturn ['k' => ${literal}];\n`;
      const out = render(laravelPhpCodec, src, { k: value });
      expect(out).toBe(`<?php\nreturn ['k' => ${expected}];\n`);
      expect(laravelPhpCodec.parse(enc(out))[0]!.source).toBe(value);
    });

    it('keeps CRLF, a BOM and the array syntax', () => {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'laravel_php/crlf-bom.php')));
      const out = render(laravelPhpCodec, bytes, { hello: 'Hallo', 'nested.bye': 'Tschüss' });
      expect(out).toBe('\uFEFF<?php\r\n\r\nreturn [\r\n    // CRLF and a BOM\r\n    \'hello\' => \'Hallo\',\r\n    \'nested\' => [\r\n        \'bye\' => "Tschüss",\r\n    ],\r\n];\r\n');
    });

    it('refuses plural values', () => {
      expect(laravelPhpCodec.plurals).toBe(false);
      const values = new Map([['a', { plurals: { other: 'y' } }]]);
      expect(() => laravelPhpCodec.render({ source: enc("<?php return ['a' => 'b'];"), values, missing: 'source' })).toThrow(
        /format_cannot_express_plural: 'laravel_php'/,
      );
    });
  });

  describe('render with missing: omit', () => {
    const src = "<?php\n\nreturn [\n    // note a\n    'a' => 'A',\n    'b' => 'B', // note b\n    'n' => [\n        'c' => 'C',\n        'd' => 'D',\n    ],\n];\n";

    it.each([
      ['the first item and its notes', { b: 'B', 'n.c': 'C', 'n.d': 'D' }, "<?php\n\nreturn [\n    'b' => 'B', // note b\n    'n' => [\n        'c' => 'C',\n        'd' => 'D',\n    ],\n];\n"],
      ['a nested item', { a: 'A', b: 'B', 'n.c': 'C' }, "<?php\n\nreturn [\n    // note a\n    'a' => 'A',\n    'b' => 'B', // note b\n    'n' => [\n        'c' => 'C',\n    ],\n];\n"],
      ['an array left empty', { a: 'A', b: 'B' }, "<?php\n\nreturn [\n    // note a\n    'a' => 'A',\n    'b' => 'B', // note b\n];\n"],
      ['everything', {}, '<?php\n\nreturn [];\n'],
    ])('removes %s', (_name, values, expected) => {
      const out = render(laravelPhpCodec, src, values, 'omit');
      expect(out).toBe(expected);
      expect(pairs(laravelPhpCodec.parse(enc(out)))).toEqual(Object.entries(values));
    });

    it('removes items from one-line arrays with their commas', () => {
      const inline = readFileSync(join(FIXTURES, 'laravel_php/inline.php'));
      expect(render(laravelPhpCodec, inline, { no: 'Nein', 'maybe.b': 'Be', last: 'Letzte' }, 'omit')).toBe(
        "<?php\nreturn ['no' => 'Nein', 'maybe' => ['b' => 'Be'], 'last' => 'Letzte'];\n",
      );
      expect(render(laravelPhpCodec, inline, { yes: 'Ja' }, 'omit')).toBe("<?php\nreturn ['yes' => 'Ja'];\n");
      expect(render(laravelPhpCodec, "<?php return array('a' => 'A',);", {}, 'omit')).toBe('<?php return array();');
      expect(render(laravelPhpCodec, "<?php return ['a' => 'A', 'b' => 'B',];", { a: 'X' }, 'omit')).toBe("<?php return ['a' => 'X',];");
    });

    it('keeps integer-keyed items that a later kept keyless item would be renumbered by', () => {
      const list = "<?php\nreturn [\n    'zero',\n    'one',\n    'two',\n];\n";
      expect(render(laravelPhpCodec, list, { '1': 'eins' }, 'omit')).toBe("<?php\nreturn [\n    'zero',\n    'eins',\n];\n");
      expect(render(laravelPhpCodec, "<?php return [5 => 'five', 'six', 'k' => 'K'];", { '6': 'sechs' }, 'omit')).toBe(
        "<?php return [5 => 'five', 'sechs'];",
      );
    });

    it('keeps non-entries, so their arrays stay', () => {
      const bytes = readFileSync(join(FIXTURES, 'laravel_php/non-entries.php'));
      const out = render(laravelPhpCodec, bytes, {}, 'omit');
      expect(out).toContain("'heredoc' => <<<EOT");
      expect(out).toContain("'number' => 42,");
      expect(out).not.toContain('Translatable');
      expect(laravelPhpCodec.parse(enc(out))).toEqual([]);
    });

    for (const { name, bytes, entries } of rendered) {
      it.skipIf(!hasPhp)(`${name}: random omission keeps the given keys and php -l still passes`, () => {
        let seed = 11;
        const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
        const outs: Uint8Array[] = [];
        for (let round = 0; round < 4; round++) {
          const kept = new Map(entries.filter(() => rnd() < 0.5).map((e) => [e.key, `${e.source}!`]));
          const out = laravelPhpCodec.render({ source: bytes, values: kept, missing: 'omit' });
          const after = laravelPhpCodec.parse(out);
          for (const [key, value] of kept) expect(after.find((e) => e.key === key)?.source, key).toBe(value);
          for (const extra of after.filter((e) => !kept.has(e.key))) expect(extra.source).toBe(entries.find((e) => e.key === extra.key)?.source);
          outs.push(out);
        }
        for (const out of outs) expect(phpLint(tmpFile(name, out)).status).toBe(0);
      });
    }
  });

  describe('malformed input', () => {
    it.each([
      ["<?php\nreturn [\n  'a' => 'b'\n  'c' => 'd',\n];", "Syntax error, unexpected ''c'' (T_CONSTANT_ENCAPSED_STRING), expecting ']' at line 4, column 3", 4, 3],
      ["<?php\nreturn ['a' => 'b'", "Syntax error, expecting ']' at line 2, column 19", 2, 19],
      ['<?php\nreturn [\n  "🚀" => "x" "y"];', 'Syntax error, unexpected \'"y"\' (T_CONSTANT_ENCAPSED_STRING), expecting \']\' at line 3, column 14', 3, 14],
      ["<?php\nreturn ['a' => ];", "Syntax error, unexpected ']' at line 2, column 16", 2, 16],
      ['<?php\nreturn ["unterminated];', 'Syntax error, expecting \'"\' at line 2, column 24', 2, 24],
      ["<?php\n$lang = ['a' => 'b'];\n", 'Expected the file to return an array (return [...];) at line 3, column 1', 3, 1],
      ["<?php\nreturn array_merge(['a' => 'b']);\n", 'Expected the file to return an array literal (return [...];) at line 2, column 8', 2, 8],
      ["return ['a' => 'b'];", "Expected the file to start with '<?php' at line 1, column 1", 1, 1],
      ["Hello\n<?php return ['a' => 'b'];", "Expected the file to start with '<?php' at line 1, column 1", 1, 1],
      ["<?php\nreturn ['a.b' => 'x', 'a' => ['b' => 'y']];", 'The paths ["a.b"] (line 2) and ["a","b"] both give the key "a.b"; rename one of them at line 2, column 38', 2, 38],
    ])('%j → %s', (input, message, line, column) => {
      const error = parseError(() => laravelPhpCodec.parse(enc(input)));
      expect(error.message).toBe(message);
      expect([error.line, error.column]).toEqual([line, column]);
      expect(parseError(() => laravelPhpCodec.render({ source: enc(input), values: new Map(), missing: 'source' })).message).toBe(message);
    });

    it('accepts blank lines before <?php, which PHP prints harmlessly', () => {
      expect(pairs(laravelPhpCodec.parse(enc("\n<?php return ['a' => 'b'];")))).toEqual([['a', 'b']]);
    });

    it('rejects invalid UTF-8 naming where it is', () => {
      const bytes = new Uint8Array([...enc("<?php\nreturn ['a' => '"), 0xff, ...enc("'];")]);
      expect(parseError(() => laravelPhpCodec.parse(bytes)).message).toBe('Invalid UTF-8 byte sequence at line 2, column 17');
    });
  });

  describe('renderFresh', () => {
    it('writes a conventional Laravel file with nested arrays and notes', () => {
      const out = dec(
        laravelPhpCodec.renderFresh([
          { key: 'auth.failed', value: 'These credentials do not match.', notes: 'Login error\nnever ?> here' },
          { key: 'auth.throttle', value: "Too many attempts. It's :seconds seconds." },
          { key: 'welcome', value: 'Line one\nline two $x' },
          { key: '0', value: 'zero' },
        ]),
      );
      expect(out).toBe(
        "<?php\n\nreturn [\n    'auth' => [\n        // Login error\n        // never ? > here\n        'failed' => 'These credentials do not match.',\n" +
          "        'throttle' => 'Too many attempts. It\\'s :seconds seconds.',\n    ],\n    'welcome' => \"Line one\\nline two \\$x\",\n    '0' => 'zero',\n];\n",
      );
      expect(laravelPhpCodec.parse(enc(out)).map((e) => [e.key, e.source, e.notes])).toEqual([
        ['auth.failed', 'These credentials do not match.', 'Login error\nnever ? > here'],
        ['auth.throttle', "Too many attempts. It's :seconds seconds.", undefined],
        ['welcome', 'Line one\nline two $x', undefined],
        ['0', 'zero', undefined],
      ]);
    });

    it('writes return []; for no entries', () => {
      expect(dec(laravelPhpCodec.renderFresh([]))).toBe('<?php\n\nreturn [];\n');
    });

    it('keeps keys that are both a leaf and a prefix dotted', () => {
      const entries: [string, string][] = [
        ['a', 'A'],
        ['a.b', 'AB'],
      ];
      const out = dec(laravelPhpCodec.renderFresh(entries.map(([key, value]) => ({ key, value }))));
      expect(out).toBe("<?php\n\nreturn [\n    'a' => 'A',\n    'a.b' => 'AB',\n];\n");
      expect(pairs(laravelPhpCodec.parse(enc(out)))).toEqual(entries);
    });
  });

  it('detects Laravel language files', () => {
    expect(laravelPhpCodec.detect('lang/en/auth.php', "<?php\n\nreturn [\n")).toBe(0.95);
    expect(laravelPhpCodec.detect('resources/lang/pt_BR/validation.php', '<?php\nreturn array(')).toBe(0.95);
    expect(laravelPhpCodec.detect('config/app.php', "<?php\n\nreturn [\n")).toBe(0.8);
    expect(laravelPhpCodec.detect('src/Foo.php', '<?php\nclass Foo {}')).toBe(0.3);
    expect(laravelPhpCodec.detect('lang/en.json', '{}')).toBe(0);
  });
});

// =====================================================================================================================
// Property tests: random keys and values with every awkward character survive render → parse in all three formats.

const PIECES = [
  'a', 'Z', ' ', '  ', '.', ',', ':', ': ', ' #', '#', '-', '- ', '?', '!', '&', '*', '|', '>', '%', '@', '`', '=', '<<', '~',
  '"', "'", "''", '\\', '\\n', '/', '\n', '\n\n', '\r', '\r\n', '\t', '\0', '\x01', '\x1b', '\x7f', '\u0085', '\u00a0',
  '\u2028', '\u2029', '\ufeff', '{', '}', '[', ']', '$', '$x', '{$y}', '{name}', '{{x}}', '%s', '%1$s', '%{count}', ':name',
  '<b>', '&amp;', '🚀', '👩‍👩‍👧', '🇫🇷', 'مرحبا', 'שלום', '\u200f', 'é', 'e\u0301', 'yes', 'No', 'on', 'null', '42', '1.5',
  '0x1F', '2024-01-01', '1:30', '.inf', '---', '...',
];
const textArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((parts) => parts.join(''));
// Lone surrogates cannot be written as UTF-8; YAML escapes them in double quotes, so only YAML gets them.
const yamlTextArb = fc.oneof(textArb, fc.tuple(textArb, fc.constantFrom('\ud800', '\udfff')).map(([a, b]) => a + b));

describe('property tests', () => {
  const YAML_TEMPLATE = [
    '# A note',
    'plain: plain value',
    "single: 'single value'",
    'double: "double value"',
    'literal: |',
    '  literal value',
    'folded: >-',
    '  folded value',
    'flow: {a: flow value, b: "quoted flow"}',
    'seq:',
    '  - item value',
    'en_root_like:',
    '  nested: nested value # trailing',
    'last: final',
  ].join('\n');
  const yamlKeys = yamlCodec.parse(enc(YAML_TEMPLATE)).map((e) => e.key);
  const yamlOutputs: { file: Uint8Array; values: Map<string, string> }[] = [];

  it('yaml: any values spliced into every scalar style read back the same, and keep the rest of the file', () => {
    const template = enc(YAML_TEMPLATE);
    const templateEntries = yamlCodec.parse(template);
    fc.assert(
      fc.property(fc.array(yamlTextArb, { minLength: yamlKeys.length, maxLength: yamlKeys.length }), (texts) => {
        const values = new Map(yamlKeys.map((key, i) => [key, texts[i]!]));
        const out = yamlCodec.render({ source: template, values, missing: 'source' });
        const after = yamlCodec.parse(out);
        expect(pairs(after)).toEqual([...values]);
        expect(yamlSkeleton(out, after, false)).toBe(yamlSkeleton(template, templateEntries, false));
        const data = yamlParse(dec(out)) as Record<string, unknown>;
        for (const entry of after) expect(entry.path.reduce<unknown>((n, s) => (n as Record<string, unknown>)[s], data)).toBe(entry.source);
        yamlOutputs.push({ file: out, values });
      }),
      { numRuns: 100 },
    );
  });

  it('yaml: random keys and values survive renderFresh → parse → render → parse', () => {
    const segment = fc.constantFrom('a', 'b', 'en', 'de', 'x y', 'é', '🚀', '0', '42', 'yes', '', "it's", 'a: b', '"q"', '#', '-', '&a');
    const key = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, yamlTextArb), { selector: ([k]) => k, maxLength: 6 }), fc.array(yamlTextArb, { minLength: 6, maxLength: 6 }), (members, next) => {
        const file = yamlCodec.renderFresh(members.map(([k, value]) => ({ key: k, value })), { locale: 'de' });
        const entries = yamlCodec.parse(file);
        expect(new Map(pairs(entries))).toEqual(new Map(members));
        expect(entries).toHaveLength(members.length);
        const values = new Map(members.map(([k], i) => [k, next[i]!]));
        const out = yamlCodec.render({ source: file, values, missing: 'source', locale: 'ar' });
        expect(new Map(pairs(yamlCodec.parse(out)))).toEqual(values);
        yamlOutputs.push({ file: out, values });
      }),
      { numRuns: 100 },
    );
  });

  it.skipIf(!hasPyYaml)('yaml: PyYAML reads every file the property tests wrote with the same values', () => {
    expect(yamlOutputs.length).toBeGreaterThan(0);
    const results = yamlTool(yamlOutputs.map(({ file }, i) => tmpFile(`prop-${i}.yaml`, file)));
    results.forEach((result, i) => {
      const { file } = yamlOutputs[i]!;
      expect(result.pyyaml, dec(file)).not.toHaveProperty('error');
      const leaves = result.pyyaml as Leaves;
      // Fresh files may carry a locale root (renamed to the target locale), which is not part of the keys.
      for (const entry of yamlCodec.parse(file)) {
        const path = entry.path.join(SEP);
        const value = Object.hasOwn(leaves, path) ? leaves[path] : leaves[`ar${SEP}${path}`];
        expect(value, `${dec(file)}\n${entry.key}`).toBe(entry.source);
      }
    });
  });

  const PHP_TEMPLATE = "<?php\n\nreturn [\n    'single' => 'single value',\n    'double' => \"double value\",\n    'nested' => ['inline' => 'x', 'list' => ['item']],\n    'b' => b'binary',\n];\n";
  const phpOutputs: { file: Uint8Array; values: Map<string, string> }[] = [];

  it('laravel_php: any values spliced into both quote styles read back the same', () => {
    const template = enc(PHP_TEMPLATE);
    const keys = laravelPhpCodec.parse(template).map((e) => e.key);
    fc.assert(
      fc.property(fc.array(textArb, { minLength: keys.length, maxLength: keys.length }), (texts) => {
        const values = new Map(keys.map((key, i) => [key, texts[i]!]));
        const out = laravelPhpCodec.render({ source: template, values, missing: 'source' });
        expect(pairs(laravelPhpCodec.parse(out))).toEqual([...values]);
        phpOutputs.push({ file: out, values });
      }),
      { numRuns: 100 },
    );
  });

  it('laravel_php: random keys and values survive renderFresh → parse → render → parse', () => {
    const segment = fc.constantFrom('a', 'b', 'x y', 'é', '🚀', '0', '07', '-0', '42', '', "it's", '\\', '?>', '$x', '"q"');
    const key = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, textArb), { selector: ([k]) => k, maxLength: 6 }), fc.array(textArb, { minLength: 6, maxLength: 6 }), (members, next) => {
        const file = laravelPhpCodec.renderFresh(members.map(([k, value]) => ({ key: k, value, notes: `note ${k} ?> */` })));
        const entries = laravelPhpCodec.parse(file);
        expect(new Map(pairs(entries))).toEqual(new Map(members));
        expect(entries).toHaveLength(members.length);
        const values = new Map(members.map(([k], i) => [k, next[i]!]));
        const out = laravelPhpCodec.render({ source: file, values, missing: 'source' });
        expect(new Map(pairs(laravelPhpCodec.parse(out)))).toEqual(values);
        phpOutputs.push({ file: out, values });
      }),
      { numRuns: 100 },
    );
  });

  it.skipIf(!hasPhp)('laravel_php: PHP returns the same values from every file the property tests wrote', () => {
    expect(phpOutputs.length).toBeGreaterThan(0);
    const files = phpOutputs.map(({ file }, i) => tmpFile(`prop-${i}.php`, file));
    const leaves = phpValues(files);
    phpOutputs.forEach(({ file, values }, i) => {
      for (const entry of laravelPhpCodec.parse(file)) {
        expect(leaves[i]![entry.path.join(SEP)], `${dec(file)}\n${entry.key}`).toBe(values.get(entry.key));
      }
    });
    // Linting is one process per file: a sample is enough, the values above already prove PHP compiled them.
    for (const file of files.slice(0, 10)) expect(phpLint(file).status).toBe(0);
  });
});

describe('laravel_php: found by the fuzzer (npm run fuzz)', () => {
  it('refuses a NUL byte in code naming its line and column, instead of the lexer\'s raw Error', () => {
    const error = parseError(() => laravelPhpCodec.parse(enc("<?php\n\nreturn [\n  'a' => 'A',\0\n];\n")));
    expect(error.message).toBe('Unexpected character "\\u0000" at line 4, column 14');
    expect([error.line, error.column]).toEqual([4, 14]);
  });
});

describe('laravel_php: a long double-quoted literal (found by the fuzzer)', () => {
  it('reads a 300,000-character "..." string with an escape, not a RangeError', () => {
    const long = 'a'.repeat(300_000);
    const entries = laravelPhpCodec.parse(enc(`<?php\nreturn ['k' => "${long}\\n"];\n`));
    expect(entries.map((e) => e.source)).toEqual([`${long}\n`]);
  });

  it('reads long runs the lexer looks behind on ({ and \\ in "..."), and still places errors after them', () => {
    const braces = '{'.repeat(200_000);
    expect(laravelPhpCodec.parse(enc(`<?php\nreturn ['k' => "${braces}"];\n`)).map((e) => e.source)).toEqual([braces]);
    const slashes = '\\'.repeat(100_000);
    expect(laravelPhpCodec.parse(enc(`<?php\nreturn ['k' => "${slashes}"];\n`)).map((e) => e.source)).toEqual(['\\'.repeat(50_000)]);
    const error = parseError(() => laravelPhpCodec.parse(enc(`<?php\nreturn ['k' => "${braces}];`)));
    expect([error.line, error.column]).toEqual([2, 16 + 200_000 + 3]);
  });

  it('gives columns on one long line of many entries, counting code points', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => `'k${i}' => '😀 ${i}'`).join(', ');
    const entries = laravelPhpCodec.parse(enc(`<?php return [${items}];\n`));
    expect(entries).toHaveLength(5_000);
    expect(entries[0]).toMatchObject({ key: 'k0', line: 1, column: 23 });
    const lastItem = items.slice(0, items.lastIndexOf("'k4999'"));
    expect(entries[4_999]).toMatchObject({ key: 'k4999', column: [...`<?php return [${lastItem}'k4999' => `].length + 1 });
  });
});
