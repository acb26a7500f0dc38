// Unit tests for the markdown codec: byte-faithful round trips, block splicing and escaping, stable keys, front matter, errors and fresh files.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type Entry, type FreshEntry } from '../../src/core/formats/codec.js';
import { markdownCodec as codec } from '../../src/core/formats/markdown.js';
import { parseError } from '../helpers/formats.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/formats/markdown/', import.meta.url));
const CORPUS = join(fileURLToPath(new URL('../../../shared/corpus/', import.meta.url)), 'markdown');
const PYTHON = '/usr/bin/python3';
const hasPyYaml = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import yaml']).status === 0;

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
// ignoreBOM keeps a BOM visible in the decoded string, so comparisons see it.
const dec = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

function render(source: string | Uint8Array, values: Record<string, string> | Map<string, string>, missing: 'source' | 'omit' = 'source'): string {
  const map = values instanceof Map ? values : new Map(Object.entries(values));
  return dec(codec.render({ source: typeof source === 'string' ? enc(source) : source, values: map, missing, locale: 'de' }));
}

function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(dec(actual)).toBe(dec(expected));
  expect(Buffer.compare(Buffer.from(actual), Buffer.from(expected))).toBe(0);
}

const pairs = (entries: readonly Entry[]): [string, string][] => entries.map((e) => [e.key, e.source]);
const sources = (bytes: Uint8Array | string): [string, string][] => pairs(codec.parse(typeof bytes === 'string' ? enc(bytes) : bytes));

const MDAST_OPTIONS = {
  extensions: [frontmatter(['yaml', 'toml']), gfm()],
  mdastExtensions: [frontmatterFromMarkdown(['yaml', 'toml']), gfmFromMarkdown()],
};
const PHRASING = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'break', 'link', 'image', 'linkReference', 'imageReference', 'html', 'footnoteReference']);

/** The block tree as mdast-util-from-markdown sees it: node types, heading depths, list shapes and untranslated block content. */
function structure(bytes: Uint8Array): string {
  const tree = fromMarkdown(dec(bytes).replace(/^\uFEFF/, ''), MDAST_OPTIONS);
  const walk = (node: Nodes, inBlock: boolean): string => {
    if (inBlock && PHRASING.has(node.type)) return '';
    const parts: string[] = [node.type];
    if (node.type === 'heading') parts.push(`h${node.depth}`);
    if (node.type === 'list') parts.push(`ordered=${node.ordered}`, `start=${node.start}`, `spread=${node.spread}`);
    if (node.type === 'listItem') parts.push(`checked=${node.checked}`, `spread=${node.spread}`);
    if (node.type === 'table') parts.push(`align=${node.align?.join('/')}`);
    if (node.type === 'code' || node.type === 'html') parts.push(JSON.stringify(node.value));
    if (node.type === 'definition') parts.push(node.url);
    const children = 'children' in node ? (node.children as Nodes[]).map((c) => walk(c, true)).filter(Boolean) : [];
    return `${parts.join(' ')}${children.length ? `(${children.join(', ')})` : ''}`;
  };
  return walk(tree, false);
}

/** The character at a 1-based line and code-point column. */
function charAt(bytes: Uint8Array, line: number, column: number): string {
  const lines = dec(bytes).replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  return [...(lines[line - 1] ?? '')][column - 1] ?? '';
}

function expectRoundTrip(bytes: Uint8Array): void {
  const entries = codec.parse(bytes);
  for (const entry of entries) {
    expect(entry.key).toBe(entry.path.join('.'));
    const at = charAt(bytes, entry.line, entry.column);
    if (entry.key.startsWith('frontmatter.')) expect(`"'|>${[...entry.source][0]}`).toContain(at);
    else expect(at, entry.key).toBe([...entry.source][0]);
  }
  expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
  const all = new Map(entries.map((e) => [e.key, e.source]));
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'source' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: all, missing: 'omit' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: new Map(), missing: 'source' }), bytes);
  expectSameBytes(codec.render({ source: bytes, values: new Map(), missing: 'omit' }), bytes);
}

/** What a segment reads back as after a value with no block syntax at line starts is written into it. */
function expectedText(entry: Entry, value: string, bytes: Uint8Array): string {
  if (entry.key.startsWith('frontmatter.')) return value;
  if (/\.table\d+\.r\d+c\d+$/.test(entry.key)) return value.replace(/\n/g, '<br>');
  const text = dec(bytes).replace(/^\uFEFF/, '');
  const lineText = text.split(/\r\n|\n|\r/)[entry.line - 1] ?? '';
  // An ATX heading holds one line; setext headings and paragraphs keep their line breaks.
  if (entry.key.endsWith('.heading') && /^[ \t>]*#/.test(lineText)) return value.replace(/\n/g, ' ');
  return value;
}

const pseudo = (s: string): string => `⟦${s}⟧ "q" 'a' \\ <b> & 🚀 עברית\nsecond «line» %1$s {name} :)`;

/** Front matter of each file as PyYAML (a YAML 1.1 reader, like Jekyll's) reads it, in one interpreter run. */
function pyYamlFrontMatters(files: readonly Uint8Array[]): unknown[] {
  const texts = files.map((bytes) => /^---\r?\n([^]*?)^---$/m.exec(dec(bytes).replace(/^\uFEFF/, ''))?.[1] ?? '');
  const script =
    'import sys, json, yaml\n' +
    'texts = json.loads(sys.stdin.buffer.read().decode("utf-8"))\n' +
    'print(json.dumps([yaml.safe_load(t) for t in texts], default=str))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(texts) }).toString()) as unknown[];
}

function at(data: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], data);
}

/** Renders every value changed, then checks block structure, order and what each block reads back as. */
function expectFaithfulTranslation(bytes: Uint8Array): Uint8Array {
  const entries = codec.parse(bytes);
  const values = new Map(entries.map((e) => [e.key, pseudo(e.source)]));
  const out = codec.render({ source: bytes, values, missing: 'source', locale: 'ar', sourceLocale: 'en' });
  expect(structure(out)).toBe(structure(bytes));
  const back = codec.parse(out);
  // Keys come from heading text, which was translated too: blocks are compared in order.
  expect(back.map((e) => e.key.replace(/^[^.]*\./, ''))).toEqual(entries.map((e) => e.key.replace(/^[^.]*\./, '')));
  back.forEach((entry, i) => expect(entry.source, entries[i]!.key).toBe(expectedText(entries[i]!, values.get(entries[i]!.key)!, bytes)));
  expect(dec(out).startsWith('\uFEFF')).toBe(dec(bytes).startsWith('\uFEFF'));
  // Writing the sources back gives the file again.
  const restored = codec.render({ source: out, values: new Map(back.map((e, i) => [e.key, entries[i]!.source])), missing: 'source' });
  expect(structure(restored)).toBe(structure(bytes));
  expect(pairs(codec.parse(restored))).toEqual(pairs(entries));
  return out;
}

function files(dir: string): [string, Uint8Array][] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]);
}

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));

describe('codec', () => {
  it('describes itself', () => {
    expect(codec.id).toBe('markdown');
    expect(codec.plurals).toBe(false);
    expect(codec.extensions).toContain('.md');
  });

  it.each([
    ['docs/guide.md', '# Hi', 0.9],
    ['README.markdown', '', 0.9],
    ['notes.MKD', 'text', 0.9],
    ['README', '# Project\n\nText', 0.3],
    ['CHANGELOG', '---\ntitle: x\n---\n\n# 1.0\n', 0.3],
    ['README', 'plain text', 0],
    ['page.mdx', '# Hi', 0],
    ['config.yaml', '---\ntitle: x\n', 0],
    ['strings.json', '{"a": "# b"}', 0],
  ])('detects %s', (name, head, score) => {
    expect(codec.detect(name, head)).toBe(score);
  });
});

describe.skipIf(!existsSync(CORPUS))('shared corpus', () => {
  // Translated renders of the corpus are checked under 'tool check' below.
  for (const [file, bytes] of existsSync(CORPUS) ? files(CORPUS) : []) it(`round-trips ${file} byte for byte`, () => expectRoundTrip(bytes));

  it('reads the lingo example with front matter and sections', () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS, 'lingo-example.md')));
    expect(codec.parse(bytes).map((e) => [e.key, e.line, e.column])).toEqual([
      ['frontmatter.title', 2, 8],
      ['frontmatter.description', 3, 14],
      ['frontmatter.author', 4, 9],
      ['frontmatter.tags.0', 6, 8],
      ['frontmatter.tags.1', 6, 18],
      ['frontmatter.tags.2', 6, 29],
      ['welcome-to-our-new-dashboard.heading', 9, 3],
      ['welcome-to-our-new-dashboard.p1', 11, 1],
      ['getting-started.heading', 13, 4],
      ['getting-started.p1', 15, 1],
      ['getting-started.p2', 19, 1],
      ['getting-started.p3', 21, 1],
      ['getting-started.p4', 23, 1],
      ['getting-started.p5', 25, 1],
      ['getting-started.p6', 27, 1],
      ['getting-started.p7', 31, 1],
    ]);
    const entries = new Map(sources(bytes));
    expect(entries.get('frontmatter.title')).toBe('Product Launch Guide');
    expect(entries.get('getting-started.p3')).toBe('![Dashboard overview screenshot](image.jpg)');
    expect(entries.has('frontmatter.date')).toBe(false);
  });
});

describe('fixtures', () => {
  // Translated renders of the fixtures are checked under 'tool check' below.
  for (const [file, bytes] of files(FIXTURES)) it(`${file} round-trips byte for byte`, () => expectRoundTrip(bytes));

  // Guards against an editor or git setting normalising the fixtures and hollowing out the tests above.
  it('still have the byte-level traits they were written for', () => {
    const raw = (name: string): Buffer => readFileSync(join(FIXTURES, name));
    expect(raw('crlf-bom.md').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(raw('crlf-bom.md').toString('latin1')).toMatch(/^[^\n]*\r\n(?:[^\n]*\r\n)*$/);
    expect(raw('cr-only.md').toString('latin1')).not.toContain('\n');
    expect(raw('cr-only.md').toString('latin1')).toContain('\r');
    expect(raw('no-final-newline.md').toString()).toMatch(/newline\.$/);
    expect(raw('tabs.md').toString()).toContain('-\tTab after the marker\n\tcontinued');
    expect(raw('basic.md').toString()).toContain('follows  \n');
    expect(raw('unicode.md').toString()).toContain('e\u0301');
  });
});

describe('parse', () => {
  it('reads headings, paragraphs and their positions, skipping code, HTML and text-free blocks', () => {
    expect(codec.parse(fixture('basic.md'))).toEqual([
      { key: 'parlance-user-guide.heading', path: ['parlance-user-guide', 'heading'], source: 'Parlance *user* guide', line: 1, column: 3 },
      {
        key: 'parlance-user-guide.p1',
        path: ['parlance-user-guide', 'p1'],
        source:
          'Parlance keeps your files in the shape you pushed them.\n' +
          'A second line of the same paragraph, with a [link](https://example.com/docs "Docs") and `inline code`.',
        line: 3,
        column: 1,
      },
      { key: 'setext-heading.heading', path: ['setext-heading', 'heading'], source: 'Setext heading', line: 6, column: 1 },
      {
        key: 'setext-heading.p1',
        path: ['setext-heading', 'p1'],
        source: 'A hard break follows  \nand a backslash break follows\\\nand the paragraph ends here.',
        line: 9,
        column: 1,
      },
      { key: 'another-setext.heading', path: ['another-setext', 'heading'], source: 'Another setext', line: 13, column: 1 },
      {
        key: 'another-setext.p1',
        path: ['another-setext', 'p1'],
        source: 'Text with <kbd>Ctrl</kbd> + <kbd>C</kbd>, **bold**, _emphasis_, ~~strike~~ and an autolink <https://example.org>.',
        line: 27,
        column: 1,
      },
      { key: 'another-setext.p2', path: ['another-setext', 'p2'], source: '![A diagram of the pipeline](pipeline.png "Pipeline")', line: 29, column: 1 },
      { key: 'another-setext.p3', path: ['another-setext', 'p3'], source: 'Final paragraph with a [reference link][docs].', line: 41, column: 1 },
    ]);
  });

  it('reads list items, tasks, nested lists and lazy lines without their markers', () => {
    expect(sources(fixture('lists.md'))).toEqual([
      ['lists.heading', 'Lists'],
      ['lists.li1', 'First item'],
      ['lists.li2', 'Second item with *emphasis*\nand a continuation line'],
      ['lists.li3', 'Third item'],
      ['lists.li4', 'with a second paragraph'],
      ['lists.li5', 'Nested item\ncontinued'],
      ['lists.li6', 'Another nested item'],
      ['lists.li7', 'Ordered one'],
      ['lists.li8', 'Ordered two'],
      ['lists.li9', 'Ordered ten'],
      ['lists.li10', 'Parenthesis three'],
      ['lists.li11', 'Parenthesis four'],
      ['lists.li12', 'Open task'],
      ['lists.li13', 'Done task'],
      ['lists.li14', 'Plus item\nlazy continuation of the plus item'],
      ['lists.quote1', 'Quote inside an item\nspanning two lines'],
      ['lists.li15', 'Wide marker spacing\ncontinued'],
    ]);
  });

  it('reads quotes without their markers, nested and lazy', () => {
    expect(sources(fixture('quotes.md'))).toEqual([
      ['quotes.heading', 'Quotes'],
      ['quotes.quote1', 'A simple quote.'],
      ['quotes.quote2', 'First paragraph of a quote\ncontinued on a second line.'],
      ['quotes.quote3', 'Second paragraph of the same quote.'],
      ['quotes.quote4', 'No space after the marker\non both lines.'],
      ['quotes.quote5', 'Outer quote'],
      ['quotes.quote6', 'Nested quote\nwith two lines.'],
      ['quotes.li1', 'List in a quote\ncontinued'],
      ['quotes.quote7', 'Quote with a lazy\ncontinuation line.'],
      ['quotes.quote8', 'Indented quote marker\nkept as it is.'],
    ]);
  });

  it('reads table cells by row and column, skipping empty and number-only cells', () => {
    expect(codec.parse(fixture('tables.md')).map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['pricing.heading', 'Pricing', 1, 3],
      ['pricing.table1.r1c1', 'Plan', 3, 3],
      ['pricing.table1.r1c2', 'Price', 3, 10],
      ['pricing.table1.r1c3', 'Notes', 3, 18],
      ['pricing.table1.r2c1', 'Free', 5, 3],
      ['pricing.table1.r2c3', 'For *hobby* projects', 5, 15],
      ['pricing.table1.r3c1', 'Team', 6, 3],
      ['pricing.table1.r3c3', 'Includes `a\\|b` code and a \\| pipe', 6, 16],
      ['pricing.table1.r4c1', 'Enterprise', 7, 3],
      ['pricing.table1.r4c3', 'Contact us', 7, 19],
      ['pricing.table2.r1c1', 'Name', 9, 1],
      ['pricing.table2.r1c2', 'Description', 9, 8],
      ['pricing.table2.r2c1', 'Alpha', 11, 1],
      ['pricing.table2.r2c2', 'The first letter', 11, 9],
      ['pricing.table2.r3c1', 'Beta', 12, 1],
      ['pricing.table2.r3c2', 'The second letter', 12, 8],
      ['pricing.table3.r1c1', 'Tight', 14, 2],
      ['pricing.table3.r1c2', 'Cells', 14, 8],
      ['pricing.table3.r2c1', 'one', 16, 2],
      ['pricing.table3.r2c2', 'two', 16, 6],
      ['pricing.table4.r1c1', 'Only header', 18, 3],
    ]);
  });

  it('reads prose from the front matter, leaving dates, slugs, URLs and other machine fields out', () => {
    expect(codec.parse(fixture('frontmatter.md')).map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['frontmatter.title', 'Getting started', 2, 8],
      ['frontmatter.description', 'Learn how to "push" files', 3, 14],
      ['frontmatter.subtitle', "It's quick", 4, 11],
      ['frontmatter.summary', 'First line of the summary.\nSecond line.\n', 12, 10],
      ['frontmatter.excerpt', 'A folded excerpt over two lines.', 15, 10],
      ['frontmatter.tags.0', 'setup', 18, 8],
      ['frontmatter.tags.1', 'first steps', 18, 15],
      ['frontmatter.categories.0', 'Guides', 20, 5],
      ['frontmatter.categories.1', 'Tutorials', 21, 5],
      ['frontmatter.author.name', 'Ada Lovelace', 23, 9],
      ['frontmatter.seo.title', 'Parlance setup', 26, 13],
      ['getting-started.heading', 'Getting started', 30, 3],
      ['getting-started.p1', 'Push your first file.', 32, 1],
    ]);
    expect(codec.parse(fixture('frontmatter.md'))[0]!.path).toEqual(['frontmatter', 'title']);
    expect(sources('---\ntoc: yes\ncomments: Off\nanswer: "yes"\nmail: team@example.com\nsee: ./other.md\nnote: 2024-01-01 release\n---\n')).toEqual([
      ['frontmatter.answer', 'yes'],
    ]);
  });

  it('keys sections by heading slug, de-duplicated, with intro and frontmatter reserved', () => {
    expect(sources(fixture('headings.md'))).toEqual([
      ['intro.p1', 'Intro text before any heading.'],
      ['intro-1.heading', 'Intro'],
      ['intro-1.p1', 'Text under a heading that slugs to intro.'],
      ['example.heading', 'Example'],
      ['example.p1', 'First example.'],
      ['example-1.heading', 'Example'],
      ['example-1.p1', 'Second example.'],
      ['-launch.heading', '🚀 Launch'],
      ['-launch.p1', 'Rocket section.'],
      // A heading without letters gives no entry, but still starts its section.
      ['2024.p1', 'Year section.'],
      ['ünïcödé--spaces-here.heading', 'Ünïcödé & spaces   here'],
      ['ünïcödé--spaces-here.p1', 'Unicode section.'],
      ['code-heading.heading', '`code()` heading'],
      ['code-heading.p1', 'Code heading section.'],
      ['section.p1', 'Empty heading above.'],
    ]);
  });

  it('reads footnote definitions as notes', () => {
    expect(sources(fixture('footnotes.md'))).toEqual([
      ['notes.heading', 'Notes'],
      ['notes.p1', 'Parlance supports footnotes[^1] and long notes[^long].'],
      ['notes.note1', 'The first note.'],
      ['notes.note2', 'A long note\nspanning two lines.'],
      ['notes.note3', 'With a second paragraph.'],
    ]);
  });

  it('keeps escapes and entities as Markdown source', () => {
    expect(sources(fixture('escapes.md')).slice(0, 4)).toEqual([
      ['escapes--and-entities--friends.heading', 'Escapes \\# and entities &amp; friends'],
      ['escapes--and-entities--friends.p1', '\\# Not a heading, just a paragraph.'],
      ['escapes--and-entities--friends.p2', '1\\. Not a list either.'],
      ['escapes--and-entities--friends.p3', '\\- Nor this one.'],
    ]);
  });

  it('counts lines across CRLF and lone CR and columns in code points after a BOM', () => {
    expect(codec.parse(fixture('crlf-bom.md')).map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['frontmatter.title', 'Windows file', 2, 8],
      ['heading.heading', 'Heading', 5, 3],
      ['heading.p1', 'First line\nsecond line.', 7, 1],
      ['heading.li1', 'item one', 10, 3],
      ['heading.li2', 'item two', 11, 3],
      ['heading.table1.r1c1', 'a', 13, 3],
      ['heading.table1.r1c2', 'b', 13, 7],
      ['heading.table1.r2c1', 'cell', 15, 3],
      ['heading.table1.r2c2', 'value', 15, 10],
    ]);
    expect(codec.parse(fixture('cr-only.md')).map((e) => [e.key, e.source, e.line, e.column])).toEqual([
      ['old-mac.heading', 'Old Mac', 1, 3],
      ['old-mac.p1', 'Line one\nline two', 3, 1],
      ['old-mac.quote1', 'quoted', 6, 3],
    ]);
    expect(codec.parse(enc('| 🚀é | b |\n|--|--|\n')).map((e) => [e.key, e.column])).toEqual([
      ['intro.table1.r1c1', 3],
      ['intro.table1.r1c2', 8],
    ]);
  });

  it('reads an empty file, a file with only code, and an empty front matter as no entries', () => {
    expect(codec.parse(enc(''))).toEqual([]);
    expect(codec.parse(enc('```\ncode\n```\n\n<div>html</div>\n'))).toEqual([]);
    expect(codec.parse(enc('---\n---\n'))).toEqual([]);
    expect(codec.parse(enc('---\n# just a comment\n---\nText\n'))).toEqual([{ key: 'intro.p1', path: ['intro', 'p1'], source: 'Text', line: 4, column: 1 }]);
  });

  it('gives dotted YAML keys their own segments and refuses two paths with one key', () => {
    expect(sources('---\nog.title: Shared\nmeta:\n  description: Text\n---\n')).toEqual([
      ['frontmatter.og.title', 'Shared'],
      ['frontmatter.meta.description', 'Text'],
    ]);
    const error = parseError(() => codec.parse(enc('---\na.b: Ex\na:\n  b: Why\n---\n')));
    expect(error.message).toBe('The front matter paths for line 2 and this one both give the key "frontmatter.a.b"; rename one of them at line 4, column 6');
    expect([error.line, error.column]).toEqual([4, 6]);
  });
});

describe('keys', () => {
  const base = '# Guide\n\nFirst.\n\nSecond.\n\n- Item\n\n## Setup\n\nThird.\n\n| A |\n|---|\n| B |\n';

  it('survive editing another block: only the edited source changes', () => {
    const before = sources(base);
    const after = sources(base.replace('Second.', 'Second, edited at length.'));
    expect(after.map(([k]) => k)).toEqual(before.map(([k]) => k));
    expect(after.filter(([k, s]) => new Map(before).get(k) !== s)).toEqual([['guide.p2', 'Second, edited at length.']]);
  });

  it('renumber only the same kind after an inserted block in the same section', () => {
    const before = new Map(sources(base));
    const after = new Map(sources(base.replace('First.\n', 'First.\n\nInserted.\n')));
    expect(after.get('guide.p2')).toBe('Inserted.');
    expect(after.get('guide.p3')).toBe('Second.');
    for (const key of ['guide.heading', 'guide.p1', 'guide.li1', 'setup.heading', 'setup.p1', 'setup.table1.r1c1', 'setup.table1.r2c1']) {
      expect(after.get(key), key).toBe(before.get(key));
    }
  });

  it('re-key only the section whose heading changed', () => {
    const after = sources(base.replace('## Setup', '## Installation'));
    expect(after.map(([k]) => k)).toEqual([
      'guide.heading',
      'guide.p1',
      'guide.p2',
      'guide.li1',
      'installation.heading',
      'installation.p1',
      'installation.table1.r1c1',
      'installation.table1.r2c1',
    ]);
  });
});

describe('render', () => {
  it('splices a changed paragraph and leaves every other byte alone', () => {
    const src = '# Title\n\nHello *world*.\n\nKeep   me  \n';
    expect(render(src, { 'title.p1': 'Hallo *Welt*.' })).toBe('# Title\n\nHallo *Welt*.\n\nKeep   me  \n');
    expect(render(src, { 'title.heading': 'Titel' })).toBe('# Titel\n\nHello *world*.\n\nKeep   me  \n');
  });

  it('writes new lines with the block continuation prefix: list indentation and quote markers', () => {
    const src = '- one\n- two\n\n1. first\n\n> quoted\n\n> - deep\n\n- > inner\n';
    const out = render(src, {
      'intro.li1': 'eins\nzwei',
      'intro.li3': 'erste\nZeile',
      'intro.quote1': 'zitiert\nhier',
      'intro.li4': 'tief\nunten',
      'intro.quote2': 'innen\ndrin',
    });
    expect(out).toBe('- eins\n  zwei\n- two\n\n1. erste\n   Zeile\n\n> zitiert\n> hier\n\n> - tief\n>   unten\n\n- > innen\n  > drin\n');
    expect(structure(enc(out))).toBe(structure(enc(src)));
  });

  it('reuses the source paragraph continuation prefix, lazy or not', () => {
    expect(render('>  a\n>  b\n', { 'intro.quote1': 'x\ny\nz' })).toBe('>  x\n>  y\n>  z\n');
    expect(render('> a\nb\n', { 'intro.quote1': 'x\ny\nz' })).toBe('> x\ny\nz\n');
    expect(render('-\tone\n\ttwo\n', { 'intro.li1': 'x\ny\nz' })).toBe('-\tx\n\ty\n\tz\n');
    expect(render('[^1]: note\n', { 'intro.note1': 'x\ny' })).toBe('[^1]: x\n    y\n');
  });

  it('joins lines with the file line endings and keeps a BOM', () => {
    expect(render('\uFEFFPara\r\n\r\nOther\r\n', { 'intro.p1': 'a\nb\r\nc' })).toBe('\uFEFFa\r\nb\r\nc\r\n\r\nOther\r\n');
    expect(render('Para\r\nnext\r\n', { 'intro.p1': 'a\nb' })).toBe('a\r\nb\r\n');
    expect(render('# T\r\rPara\r', { 'intro.p1': 'x', 't.p1': 'a\nb' })).toBe('# T\r\ra\rb\r');
  });

  it('keeps setext headings multi-line and ATX headings on one line', () => {
    expect(render('Title\n=====\n', { 'title.heading': 'Zwei\nZeilen' })).toBe('Zwei\nZeilen\n=====\n');
    expect(render('## Title ##\n', { 'title.heading': 'Zwei\nZeilen' })).toBe('## Zwei Zeilen ##\n');
    expect(render('# Title\n', { 'title.heading': 'C #' })).toBe('# C \\#\n');
    expect(render('# Title\n', { 'title.heading': '###' })).toBe('# \\###\n');
    expect(render('# Title #\n', { 'title.heading': '' })).toBe('#  #\n');
    expect(render('# Title\n', { 'title.heading': 'Ends with C#' })).toBe('# Ends with C#\n');
  });

  it('escapes pipes in table cells, writes line breaks as <br> and keeps rows valid', () => {
    const src = '| A | B |\n|:--|--:|\n| x | y |\n\nC | D\n--|--\ne | f\n';
    expect(render(src, { 'intro.table1.r1c1': 'a|b', 'intro.table1.r2c2': 'two\nlines' })).toBe(
      '| a\\|b | B |\n|:--|--:|\n| x | two<br>lines |\n\nC | D\n--|--\ne | f\n',
    );
    expect(render(src, { 'intro.table1.r1c1': 'kept \\| escape', 'intro.table1.r1c2': 'ends in \\' })).toBe(
      '| kept \\| escape | ends in \\ |\n|:--|--:|\n| x | y |\n\nC | D\n--|--\ne | f\n',
    );
    expect(render('|a|b|\n|-|-|\n', { 'intro.table1.r1c1': 'x\\' })).toBe('|x\\ |b|\n|-|-|\n');
    // A row without a leading pipe must not start with block syntax.
    expect(render(src, { 'intro.table2.r2c1': '- e', 'intro.table2.r1c1': '# C' })).toBe(
      '| A | B |\n|:--|--:|\n| x | y |\n\n\\# C | D\n--|--\n\\- e | f\n',
    );
    expect(render(src, { 'intro.table1.r2c1': '- x' })).toBe('| A | B |\n|:--|--:|\n| - x | y |\n\nC | D\n--|--\ne | f\n');
  });

  it.each([
    ['# heading', '\\# heading'],
    ['###### six', '\\###### six'],
    ['####### seven', '####### seven'],
    ['#hashtag', '#hashtag'],
    ['> quote', '\\> quote'],
    ['- item', '\\- item'],
    ['-', '\\-'],
    ['+ item', '\\+ item'],
    ['* item', '\\* item'],
    ['*emphasis*', '*emphasis*'],
    ['1. item', '1\\. item'],
    ['12) item', '12\\) item'],
    ['2024. year', '2024\\. year'],
    ['1.5 million', '1.5 million'],
    ['---', '\\---'],
    ['* * *', '\\* * *'],
    ['___', '\\___'],
    ['```js', '\\```js'],
    ['~~~', '\\~~~'],
    ['``not a fence` ok', '``not a fence` ok'],
    ['<div class="x">', '\\<div class="x">'],
    ['<!-- comment -->', '\\<!-- comment -->'],
    ['<span>', '\\<span>'],
    ['<b>bold</b> text', '<b>bold</b> text'],
    ['[label]: https://x.y', '\\[label]: https://x.y'],
    ['[^1]: note', '\\[^1]: note'],
    ['[link](https://x.y) text', '[link](https://x.y) text'],
    ['    indented', 'indented'],
    ['+++', '+++'],
  ])('escapes a first line %j in a paragraph', (value, written) => {
    expect(render('Para\n\nOther\n', { 'intro.p2': value })).toBe(`Para\n\n${written}\n`);
  });

  it.each([
    ['# heading', '\\# heading'],
    ['> quote', '\\> quote'],
    ['- item', '\\- item'],
    ['-', '\\-'],
    ['*', '*'],
    ['===', '\\==='],
    ['--', '\\--'],
    ['1. item', '1\\. item'],
    ['2. item', '2. item'],
    ['```', '\\```'],
    ['<div>', '\\<div>'],
    ['<span>', '<span>'],
    ['[label]: /url', '[label]: /url'],
    ['[^n]: note', '\\[^n]: note'],
    ['--|--', '\\--|--'],
    ['| :-: | --- |', '\\| :-: | --- |'],
    ['a | b', 'a | b'],
    ['\t  tabbed', 'tabbed'],
  ])('escapes a continuation line %j in a paragraph', (value, written) => {
    expect(render('Para\n', { 'intro.p1': `Line\n${value}` })).toBe(`Line\n${written}\n`);
  });

  it('guards task markers, front-matter fences and blank lines', () => {
    expect(render('- item\n', { 'intro.li1': '[ ] looks like a task' })).toBe('- \\[ ] looks like a task\n');
    expect(render('- [ ] task\n', { 'intro.li1': '[x] inner' })).toBe('- [ ] [x] inner\n');
    expect(render('Para\n\nMore\n', { 'intro.p1': '+++\ntitle = 1\n+++' })).toBe('\\+++\ntitle = 1\n+++\n\nMore\n');
    expect(render('Para\n\nMore\n', { 'intro.p1': '---\ntitle: x\n---' })).toBe('\\---\ntitle: x\n\\---\n\nMore\n');
    expect(render('Para\n\nMore\n', { 'intro.p1': '  one\n\n\n  two  \n  ' })).toBe('one\ntwo\n\nMore\n');
  });

  it('keeps the source for a paragraph given nothing to write, and replaces NUL', () => {
    expect(render('Para\n', { 'intro.p1': ' \n\t\n' })).toBe('Para\n');
    expect(render('Para\n', { 'intro.p1': 'a\u0000b' })).toBe('a\uFFFDb\n');
    expect(render('| a |\n|---|\n', { 'intro.table1.r1c1': '' })).toBe('|  |\n|---|\n');
  });

  it('treats omit like source: a document has no fallback for a missing block', () => {
    const bytes = fixture('lists.md');
    expectSameBytes(codec.render({ source: bytes, values: new Map(), missing: 'omit' }), bytes);
    const out = render(bytes, { 'lists.li1': 'Erster Punkt' }, 'omit');
    expect(out).toBe(dec(bytes).replace('- First item', '- Erster Punkt'));
    expect(out).toBe(render(bytes, { 'lists.li1': 'Erster Punkt' }, 'source'));
  });

  it('refuses plural values like every non-plural codec', () => {
    expect(() => codec.render({ source: enc('Para\n'), values: new Map([['intro.p1', { plurals: { other: 'x' } }]]), missing: 'source' })).toThrow(
      /format_cannot_express_plural/,
    );
  });
});

describe('front matter', () => {
  const src = [
    '---',
    'plain: Hello world # comment',
    "single: 'It''s'",
    'double: "Say \\"hi\\""',
    'flow: [One, "Two"]',
    'block: |',
    '  Line one',
    '  Line two',
    'folded: >-',
    '  Folded',
    '  text',
    'nested:',
    '  - name: Deep',
    'date: 2024-01-15',
    '---',
    '',
    'Body',
    '',
  ].join('\n');
  const value = (key: string, text: string): string => render(src, { [`frontmatter.${key}`]: text }).split('\n---\n')[0]!;

  it('keeps each scalar style where the value allows it', () => {
    expect(value('plain', 'Hallo Welt')).toContain('\nplain: Hallo Welt # comment\n');
    expect(value('single', "C'est")).toContain("\nsingle: 'C''est'\n");
    expect(value('double', 'Sag "hallo"')).toContain('\ndouble: "Sag \\"hallo\\""\n');
    expect(value('flow.0', 'Eins')).toContain('\nflow: [Eins, "Two"]\n');
    expect(value('block', 'Zeile eins\nZeile zwei\n')).toContain('\nblock: |\n  Zeile eins\n  Zeile zwei\nfolded:');
    expect(value('block', 'Ohne Zeilenende')).toContain('\nblock: |-\n  Ohne Zeilenende\nfolded:');
    expect(value('folded', 'Gefaltet')).toContain('\nfolded: >-\n  Gefaltet\nnested:');
    expect(value('folded', 'Zwei\nZeilen')).toContain('\nfolded: |-\n  Zwei\n  Zeilen\nnested:');
    expect(value('nested.0.name', 'Tief')).toContain('\n  - name: Tief\n');
  });

  it('quotes a value that would change meaning when written plain', () => {
    for (const [text, written] of [
      ['yes', '"yes"'],
      ['123', '"123"'],
      ['key: value', '"key: value"'],
      ['# not a comment', '"# not a comment"'],
      ['two\nlines', '"two\\nlines"'],
      ['  padded', '"  padded"'],
      ['- dash', '"- dash"'],
      ['null', '"null"'],
      ['tab\there', '"tab\\there"'],
      ['bell\u0007', '"bell\\u0007"'],
    ]) {
      expect(value('plain', text!)).toContain(`\nplain: ${written} # comment\n`);
    }
    expect(value('flow.0', 'a, b')).toContain('\nflow: ["a, b", "Two"]\n');
    expect(value('single', 'two\nlines')).toContain('\nsingle: "two\\nlines"\n');
    expect(value('block', ' leading space')).toContain('\nblock: " leading space"\nfolded:');
    expect(value('block', 'keep\n\n')).toContain('\nblock: "keep\\n\\n"\nfolded:');
  });

  it.skipIf(!hasPyYaml)('writes values that PyYAML and the yaml package read back exactly', () => {
    const texts = ['yes', 'on', '1:20', '0o17', '2024-01-01 x', "it's", 'a "b" \\ c', 'x\ny', ' lead', 'trail ', 'ümlaut 🚀 עברית', '%s {name}', 'k: v #c', '~', '=', '\u0085nel'];
    const cases = texts.flatMap((text, i) =>
      ['plain', 'single', 'double', 'block', 'folded', 'flow.0'].map((key) => {
        const written = `Text ${i} ${text}`;
        return { key, written, out: enc(render(src, { [`frontmatter.${key}`]: written })) };
      }),
    );
    const read = pyYamlFrontMatters(cases.map((c) => c.out));
    cases.forEach(({ key, written, out }, i) => {
      const path = key.split('.');
      expect(at(read[i], path), `${key} ${JSON.stringify(written)}`).toBe(written);
      expect(new Map(sources(out)).get(`frontmatter.${key}`)).toBe(written);
      expect(at(parseYaml(/^---\n([^]*?)^---$/m.exec(dec(out))![1]!), path)).toBe(written);
    });
  });
});

describe('tool check: mdast-util-from-markdown and PyYAML read what Parlance writes', () => {
  const all = [...files(FIXTURES), ...(existsSync(CORPUS) ? files(CORPUS).map(([f, b]): [string, Uint8Array] => [`corpus/${f}`, b]) : [])];
  for (const [file, bytes] of all) {
    it(`${file}: pseudo-translated for ar keeps the block tree and reads back what was written`, () => {
      const out = expectFaithfulTranslation(bytes);
      expect(dec(out)).toContain('עברית');
    });

    if (dec(bytes).replace(/^\uFEFF/, '').startsWith('---')) {
      it.skipIf(!hasPyYaml)(`${file}: PyYAML reads the translated front matter`, () => {
        const entries = codec.parse(bytes).filter((e) => e.key.startsWith('frontmatter.'));
        const out = codec.render({ source: bytes, values: new Map(entries.map((e) => [e.key, pseudo(e.source)])), missing: 'source', locale: 'ar' });
        const [data, before] = pyYamlFrontMatters([out, bytes]) as [Record<string, unknown>, Record<string, unknown>];
        for (const entry of entries) expect(at(data, entry.path.slice(1)), entry.key).toBe(pseudo(entry.source));
        // Untranslated fields read the same as before.
        for (const [key, v] of Object.entries(before)) if (!entries.some((e) => e.path[1] === key)) expect(data[key]).toEqual(v);
      });
    }
  }
});

describe('properties', () => {
  const LETTER_WORDS = ['Hello', 'wörld', 'Zoë', 'مرحبا', 'שלום', '日本語', 'Ünïcode', 'e\u0301t\u00e9'];
  const WORDS = [
    ...LETTER_WORDS,
    '"quoted"', "it's", "'single'", 'back\\slash', '\\', '\\\\', '🚀', '👩‍👩‍👧', '🇫🇷', '{name}', '{{count}}', '%s', '%1$s', '%@',
    '<b>bold</b>', '<br>', 'a&b', '&amp;', '*em*', '**strong**', '_x_', '`code`', '[link](https://x.y/a?b=c)', '#tag', 'x-y', '1.', '>',
    '-', ':)', '!', '?', '(', ')', '[', ']', '<', '\u200f', '\u00a0',
  ];
  const line = (words: readonly string[]): fc.Arbitrary<string> =>
    fc.tuple(fc.constantFrom(...LETTER_WORDS), fc.array(fc.constantFrom(...words), { maxLength: 8 })).map(([first, rest]) => [first, ...rest].join(' '));
  /** Values without block syntax at line starts or edge spaces: they read back exactly. */
  const safeText = (multiline: boolean, words: readonly string[] = WORDS): fc.Arbitrary<string> =>
    fc.array(line(words), { minLength: 1, maxLength: multiline ? 4 : 1 }).map((lines) => lines.join('\n'));
  const PIECES = [
    ...WORDS, ' ', '  ', '\t', '\n', '\n\n', '\r\n', '\n  ', '# ', '## ', '> ', '- ', '* ', '+ ', '1. ', '1) ', '```', '~~~', '---', '===',
    '***', '<div>', '<!--', '<span>', '[x]: /u', '[^1]: n', '| a |', '|---|', ':-:', '--|--', '[ ] ', '+++', '|', '\\|', '    ', '\r', '\u0000', '\ud800', '\u2028', '-\u00a0', '1.\u00a0',
  ];
  /** Anything, ending in a word with letters outside any code span (blocks without letters are not segments). */
  const anyText = fc
    .tuple(fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }), fc.constantFrom(...LETTER_WORDS))
    .map(([pieces, word]) => `${pieces.join('')} ${word}`);

  const skeletons = files(FIXTURES);

  it('safe values of every kind survive render → parse exactly, in every fixture', () => {
    fc.assert(
      fc.property(fc.constantFrom(...skeletons), fc.infiniteStream(fc.tuple(safeText(true), safeText(false, WORDS.filter((w) => w !== '\\')))), ([, bytes], stream) => {
        const entries = codec.parse(bytes);
        const it = stream[Symbol.iterator]();
        const values = new Map<string, string>();
        const expected: string[] = [];
        for (const entry of entries) {
          const [multi, single] = it.next().value as [string, string];
          const cell = /\.table\d+\.r\d+c\d+$/.test(entry.key);
          const atx = expectedText(entry, 'a\nb', bytes) === 'a b';
          const value = cell || atx ? single : multi;
          values.set(entry.key, value);
          expected.push(value);
        }
        const out = codec.render({ source: bytes, values, missing: 'source' });
        expect(structure(out)).toBe(structure(bytes));
        expect(codec.parse(out).map((e) => e.source)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('any value keeps the block structure, and what it reads back as writes the same bytes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...skeletons), fc.infiniteStream(anyText), ([, bytes], stream) => {
        const entries = codec.parse(bytes);
        const it = stream[Symbol.iterator]();
        // Front matter has its own property below; here it keeps its source.
        const values = new Map(entries.filter((e) => !e.key.startsWith('frontmatter.')).map((e) => [e.key, it.next().value as string]));
        const out = codec.render({ source: bytes, values, missing: 'source' });
        expect(structure(out)).toBe(structure(bytes));
        const back = codec.parse(out);
        expect(back.map((e) => e.key.replace(/^[^.]*\./, ''))).toEqual(entries.map((e) => e.key.replace(/^[^.]*\./, '')));
        // Escaping is a projection: writing the text read back gives the same file.
        const readBack = new Map(entries.flatMap((e, i): [string, string][] => (values.has(e.key) ? [[e.key, back[i]!.source]] : [])));
        const again = codec.render({ source: bytes, values: readBack, missing: 'source' });
        expectSameBytes(again, out);
      }),
      { numRuns: 100 },
    );
  });

  it('front-matter values of any text survive render → parse exactly', () => {
    const yamlText = fc
      .tuple(fc.constantFrom(...LETTER_WORDS), fc.array(fc.oneof(fc.constantFrom(...PIECES, ': ', ' #', "'", '"', '\u0007', '\u2028', '\ufeff'), fc.string()), { maxLength: 8 }))
      .map(([w, rest]) => `${w} ${rest.join('')}`);
    const bytes = fixture('frontmatter.md');
    const entries = codec.parse(bytes).filter((e) => e.key.startsWith('frontmatter.'));
    fc.assert(
      fc.property(fc.array(yamlText, { minLength: entries.length, maxLength: entries.length }), (texts) => {
        const values = new Map(entries.map((e, i) => [e.key, texts[i]!]));
        const out = codec.render({ source: bytes, values, missing: 'source' });
        const back = new Map(sources(out));
        for (const [key, text] of values) expect(back.get(key), key).toBe(text);
        expect(structure(out)).toBe(structure(bytes));
      }),
      { numRuns: 100 },
    );
  });

  it('renderFresh reads back the same values, in order, under the scheme keys', () => {
    const kinds = fc.constantFrom('p', 'li', 'quote', 'note', 'cell', 'front');
    fc.assert(
      fc.property(fc.array(fc.tuple(kinds, safeText(true), safeText(false, WORDS.filter((w) => w !== '\\'))), { maxLength: 12 }), (items) => {
        const front = items.filter(([k]) => k === 'front');
        const body = items.filter(([k]) => k !== 'front');
        const counts = new Map<string, number>();
        const next = (kind: string): number => {
          counts.set(kind, (counts.get(kind) ?? 0) + 1);
          return counts.get(kind)!;
        };
        const entries: FreshEntry[] = front.map(([, , single], i) => ({ key: `frontmatter.field${i}`, value: single }));
        let table = 0;
        let previous = '';
        for (const [kind, multi, single] of body) {
          if (kind === 'cell') {
            if (previous !== 'cell') table = next('table');
            entries.push({ key: `intro.table${table}.r1c${entries.filter((e) => e.key.startsWith(`intro.table${table}.`)).length + 1}`, value: single });
          } else {
            entries.push({ key: `intro.${kind}${next(kind)}`, value: multi });
          }
          previous = kind;
        }
        const out = codec.renderFresh(entries);
        expect(pairs(codec.parse(out))).toEqual(entries.map((e) => [e.key, e.value]));
      }),
      { numRuns: 100 },
    );
  });
});

describe('malformed input', () => {
  it.each([
    ['---\ntitle: "unterminated\n---\n', 'Expected valid YAML in the front matter (Missing closing "quote) at line 3, column 1', 3, 1],
    ['---\na: b\na: c\n---\n', 'Expected valid YAML in the front matter (Map keys must be unique) at line 3, column 1', 3, 1],
    ['---\ntitle: [a, b\n---\n', 'Expected valid YAML in the front matter (Flow sequence in block collection must be sufficiently indented and end with a ]) at line 3, column 1', 3, 1],
    ['---\n- a\n- b\n---\n', 'Expected the front matter to be a YAML mapping (key: value lines) at line 2, column 1', 2, 1],
    ['---\r\n\r\n  just text\r\n---\r\n', 'Expected the front matter to be a YAML mapping (key: value lines) at line 3, column 3', 3, 3],
    ['---\ntitle: Never closed\n\n# Heading\n', "Expected a closing '---' line for the front matter that opens at line 1, column 1", 1, 1],
    ['+++\ntitle = "TOML"\n+++\n\nText\n', "TOML front matter ('+++') is not supported; expected YAML front matter between '---' lines at line 1, column 1", 1, 1],
    ['# Title\n\nText with a \u0000 byte\n', 'Expected text, found a NUL character (is this a binary file?) at line 3, column 13', 3, 13],
    [`# Deep\n\n${'> '.repeat(101)}x\n`, 'Expected at most 100 nested blockquote or list markers on one line at line 3, column 201', 3, 201],
    [`${'- '.repeat(150)}x\n`, 'Expected at most 100 nested blockquote or list markers on one line at line 1, column 201', 1, 201],
  ])('%j → %s', (input, message, line, column) => {
    const error = parseError(() => codec.parse(enc(input)));
    expect(error.message).toBe(message);
    expect([error.line, error.column]).toEqual([line, column]);
    expect(parseError(() => codec.render({ source: enc(input), values: new Map(), missing: 'source' })).message).toBe(message);
  });

  it('rejects invalid UTF-8 and UTF-16 naming where', () => {
    const bytes = new Uint8Array([...enc('# Title\n\nCaf'), 0xc3, 0x28, ...enc('\n')]);
    const error = parseError(() => codec.parse(bytes));
    expect(error.message).toBe('Invalid UTF-8 byte sequence at line 3, column 4');
    expect(parseError(() => codec.parse(new Uint8Array([0xff, 0xfe, 0x23, 0x00]))).message).toBe('The file is UTF-16 encoded; expected UTF-8 at line 1, column 1');
  });

  it('accepts a thematic break at the top when no front matter follows', () => {
    expect(sources('---\n\nText\n')).toEqual([['intro.p1', 'Text']]);
    expect(sources('---\nJust a paragraph, no key\n')).toEqual([['intro.p1', 'Just a paragraph, no key']]);
  });

  it('reads deep but sane nesting', () => {
    const src = `${'> '.repeat(40)}deep text\n`;
    expect(sources(src)).toEqual([['intro.quote1', 'deep text']]);
    expect(render(src, { 'intro.quote1': 'tief\nunten' })).toBe(`${'> '.repeat(40)}tief\n${'> '.repeat(40)}unten\n`);
  });
});

describe('renderFresh', () => {
  const fresh = (entries: [string, string][]): string => dec(codec.renderFresh(entries.map(([key, value]): FreshEntry => ({ key, value, notes: 'ignored' }))));

  for (const [file, bytes] of [...files(FIXTURES), ...(existsSync(CORPUS) ? files(CORPUS) : [])]) {
    it(`writes ${file}'s entries into a file that reads back the same entries`, () => {
      const entries = codec.parse(bytes);
      const out = codec.renderFresh(entries.map((e) => ({ key: e.key, value: e.source })));
      expect(pairs(codec.parse(out))).toEqual(pairs(entries));
    });
  }

  it('writes blocks by key kind, front matter first', () => {
    const out = fresh([
      ['guide.heading', 'Guide'],
      ['guide.p1', 'First line\nsecond line'],
      ['guide.li1', 'One'],
      ['guide.li2', 'Two\nlines'],
      ['guide.quote1', 'Quoted'],
      ['guide.table1.r1c1', 'Name'],
      ['guide.table1.r1c2', 'Value'],
      ['guide.table1.r2c2', 'a|b'],
      ['frontmatter.title', 'Fresh'],
      ['frontmatter.tags.0', 'yes'],
      ['frontmatter.tags.1', 'Two'],
      ['frontmatter.seo.description', 'Nested: value'],
      ['guide.note1', 'A note'],
      ['setup.heading', 'Setup'],
      ['setup.p1', '# Not a heading'],
    ]);
    expect(out).toBe(
      [
        '---',
        'title: Fresh',
        'tags:',
        '  - "yes"',
        '  - Two',
        'seo:',
        '  description: "Nested: value"',
        '---',
        '',
        '# Guide',
        '',
        'First line',
        'second line',
        '',
        '- One',
        '- Two',
        '  lines',
        '',
        '> Quoted',
        '',
        '| Name | Value |',
        '| --- | --- |',
        '|  | a\\|b |',
        '',
        '[^1]: A note',
        '',
        '## Setup',
        '',
        '\\# Not a heading',
        '',
      ].join('\n'),
    );
  });

  it('writes keys outside the scheme as paragraphs, read back in order under intro keys', () => {
    const out = fresh([
      ['greeting', 'Hello'],
      ['farewell', 'Bye\nnow'],
    ]);
    expect(out).toBe('Hello\n\nBye\nnow\n');
    expect(sources(out)).toEqual([
      ['intro.p1', 'Hello'],
      ['intro.p2', 'Bye\nnow'],
    ]);
  });

  it('writes an empty file for no entries, and keeps the first position and last value of a repeated key', () => {
    expect(fresh([])).toBe('');
    expect(fresh([['intro.p1', 'A'], ['intro.p2', 'B'], ['intro.p1', 'C']])).toBe('C\n\nB\n');
  });

  it('writes headings without letters back from their section name', () => {
    const entries: [string, string][] = [
      ['intro.p1', 'Top'],
      ['2024.p1', 'Year'],
      ['section.p1', 'Empty heading'],
    ];
    const out = fresh(entries);
    expect(out).toBe('Top\n\n# 2024\n\nYear\n\n##\n\nEmpty heading\n');
    expect(sources(out)).toEqual(entries);
  });

  it('keeps front-matter keys that are both a value and a prefix readable', () => {
    const out = fresh([
      ['frontmatter.a', 'Leaf'],
      ['frontmatter.a.b', 'Under a leaf'],
      ['frontmatter.c.d', 'Branch'],
      ['frontmatter.c', 'Dropped: c is a mapping'],
    ]);
    expect(out).toBe('---\na: Leaf\n"a.b": Under a leaf\nc:\n  d: Branch\n---\n');
    expect(sources(out)).toEqual([
      ['frontmatter.a', 'Leaf'],
      ['frontmatter.a.b', 'Under a leaf'],
      ['frontmatter.c.d', 'Branch'],
    ]);
  });
});
