/**
 * Issue 14: line breaks, spaces and tabs at the ends of a source survive translation. A provider (the OpenAI wire mock)
 * drops, adds or changes them on every row; every plural-carrying format, the po family and JSON with ICU are pushed,
 * translated on both passes, pulled for de and pl, and read back by the format's own tool where Debian has one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/formats/csv.js';
import { getCodec, IMPLEMENTED_FORMATS, type Entry, type FormatId, type FreshEntry, type PluralForms } from '../../src/core/formats/index.js';
import { readXcstringsLocale } from '../../src/core/formats/ios-xcstrings.js';
import { gettextPlurals } from '../../src/core/formats/plural-forms.js';
import { gettextKey, scanPo } from '../../src/core/formats/po-scan.js';
import { parseXlsx } from '../../src/core/formats/xlsx.js';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

const LOCALES = ['de', 'pl'];
// Every format that carries plurals (JSON among them, as i18next's key_<category> families), and the po family.
const FORMATS: FormatId[] = [...new Set<FormatId>([...IMPLEMENTED_FORMATS.filter((id) => getCodec(id)!.plurals), 'unreal_po', 'json'])];

/** The strings of one file; each file's name is in its texts, so none is served from another's translation memory. */
const strings = (file: string): FreshEntry[] => [
  { key: 'greeting', value: `\nHello from ${file}\n` },
  { key: 'label', value: `  ${file} name:  ` },
  { key: 'usage', value: `\tUsage: parlance push ${file}\n\n` },
  { key: 'save', value: `Save ${file}` },
  { key: 'files', value: { plurals: { one: `{count} ${file} file selected\n`, other: `{count} ${file} files selected\n` } } },
  { key: 'photos', value: `\n{count, plural, one {# ${file} photo} other {# ${file} photos}}\n` },
];

// gettext keys messages by msgid, so the po file is written by hand (a fresh po file's msgids are the keys).
const PO = `msgid ""
msgstr ""
"Project-Id-Version: parlance-test 1.0\\n"
"Report-Msgid-Bugs-To: \\n"
"POT-Creation-Date: 2024-05-01 12:00+0000\\n"
"PO-Revision-Date: 2024-05-01 12:00+0000\\n"
"Last-Translator: Parlance <test@example.com>\\n"
"Language-Team: none\\n"
"Language: en\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "\\nHello from po\\n"
msgstr ""

msgid "  po name:  "
msgstr ""

msgctxt "cli"
msgid "\\tUsage: parlance push po\\n\\n"
msgstr ""

msgid "Save po"
msgstr ""

msgid "{count} po file selected\\n"
msgid_plural "{count} po files selected\\n"
msgstr[0] ""
msgstr[1] ""
`;

const PYTHON = '/usr/bin/python3';
const works = (command: string, args: string[]): boolean => {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  return !run.error && run.status === 0;
};
const python = (script: string) => (file: string): [string, string[]] => [PYTHON, ['-c', script, file]];
const hasPython = works(PYTHON, ['-c', '']);
const MSGFMT = { name: 'msgfmt --check', available: works('msgfmt', ['--version']), command: (file: string): [string, string[]] => ['msgfmt', ['--check', '-o', '/dev/null', file]] };
const BOM = [0xef, 0xbb, 0xbf];
const JSON_LOAD = { name: 'python3 json.load', available: hasPython, command: python('import json, sys; json.load(open(sys.argv[1], encoding="utf-8-sig"))') };
/** The format's own tool (or Debian's nearest reader of it) for each format under test. */
const TOOLS: Record<string, { name: string; available: boolean; command: (file: string) => [string, string[]]; bytes?: (file: Uint8Array) => Uint8Array }> = {
  po: MSGFMT,
  // Unreal writes its PO files with a BOM, and so does Parlance; msgfmt 0.21 takes a BOM for a syntax error.
  unreal_po: { ...MSGFMT, bytes: (file) => (BOM.every((b, i) => file[i] === b) ? file.subarray(BOM.length) : file) },
  android_xml: { name: 'xmllint --noout', available: works('xmllint', ['--version']), command: (file) => ['xmllint', ['--nonet', '--noout', file]] },
  ios_stringsdict: { name: 'python3 plistlib.load', available: hasPython, command: python('import plistlib, sys; plistlib.load(open(sys.argv[1], "rb"))') },
  ios_xcstrings: JSON_LOAD,
  arb: JSON_LOAD,
  json: JSON_LOAD,
  json_nested: JSON_LOAD,
  csv: { name: 'python3 csv (strict)', available: hasPython, command: python('import csv, sys; list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8-sig"), strict=True))') },
  xlsx: { name: 'python3 openpyxl', available: works(PYTHON, ['-c', 'import openpyxl']), command: python('import openpyxl, sys; openpyxl.load_workbook(sys.argv[1])') },
};

/** What the mock model does to every row: edge whitespace dropped where the source has it, added where it has none. */
function misplaceEdges(text: string, locale: string): string {
  const core = text.trim();
  const leading = text.length > text.trimStart().length;
  const trailing = text.length > text.trimEnd().length;
  return `${leading ? '' : ' \n'}${mockTranslate(core, locale)}${trailing ? ' ' : '\n'}`;
}

let service: TestService;
let mock: MockOpenAI;
let token: string;
const scratch = mkdtempSync(join(tmpdir(), 'parlance-edges-'));
const sources = new Map<FormatId, Entry[]>();
const batches = new Map<FormatId, BatchBody>();
const pulled = new Map<string, Uint8Array>();

const pathOf = (format: FormatId): string => `${format}/strings${getCodec(format)!.extensions[0]}`;

beforeAll(async () => {
  mock = await startMockOpenAI();
  mock.script = (row, { locale }) => misplaceEdges(row.text, locale);
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', OPENAI_CAREFUL_MODEL: 'mock-careful', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const project = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Edges', sourceLocale: 'en', targetLocales: LOCALES });
  token = await service.mintToken({ projectId: project.id, abilities: ['push', 'pull', 'read', 'write'] });

  const queued: [FormatId, string][] = [];
  for (const format of FORMATS) {
    const codec = getCodec(format)!;
    const bytes = format === 'po' ? new TextEncoder().encode(PO) : codec.renderFresh(strings(format).filter((e) => codec.plurals || typeof e.value === 'string'), { locale: 'en' });
    sources.set(format, codec.parse(bytes));
    // The po file goes through the careful pass, every other file through the fast one.
    const fields = { format, path: pathOf(format), ...(format === 'po' ? { careful: '*' } : {}) };
    const res = await service.api('/v1/push', { token, method: 'POST', body: filePush(bytes, fields, pathOf(format).split('/')[1]) });
    expect(res.status, await res.clone().text()).toBe(202);
    queued.push([format, ((await res.json()) as { id: string }).id]);
  }
  for (const [format, id] of queued) batches.set(format, await waitForBatch(service, id, token));
  for (const format of FORMATS) {
    for (const locale of LOCALES) {
      const res = await service.api(`/v1/pull?locale=${locale}&path=${encodeURIComponent(pathOf(format))}`, { token });
      expect(res.status).toBe(200);
      pulled.set(`${format}/${locale}`, new Uint8Array(await res.arrayBuffer()));
    }
  }
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The translations in a pulled file by key: msgstr for the po family, the target locale's column or localization for tables and catalogs. */
function translations(format: FormatId, bytes: Uint8Array, locale: string): Map<string, string | PluralForms> {
  if (format === 'po' || format === 'unreal_po') {
    const { categories } = gettextPlurals(locale);
    const out = new Map<string, string | PluralForms>();
    for (const message of scanPo(bytes).messages) {
      if (message.header) continue;
      const key = format === 'po' ? gettextKey(message) : message.msgctxt!.value;
      out.set(key, message.msgidPlural ? Object.fromEntries(message.msgstr.map((field) => [categories[field.index!], field.value])) : message.msgstr[0]!.value);
    }
    return out;
  }
  const entries = format === 'csv' ? parseCsv(bytes, locale) : format === 'xlsx' ? parseXlsx(bytes, locale) : format === 'ios_xcstrings' ? readXcstringsLocale(bytes, locale) : getCodec(format)!.parse(bytes);
  return new Map(entries.map((e) => [e.key, e.plurals ?? e.source]));
}

/** The whitespace runs at both ends, by the test's own rule (not the code under test's). */
const edges = (text: string): [string, string] => [/^\s*/.exec(text)![0], /\s*$/.exec(text)![0]];

describe.each(FORMATS)('%s', (format) => {
  it('is translated on its pass with every row passing the gates', () => {
    const batch = batches.get(format)!;
    expect(batch.status).toBe('completed');
    const pass = format === 'po' ? 'careful' : 'fast';
    expect(batch.row_outcomes.items.length).toBe(sources.get(format)!.length * LOCALES.length);
    for (const row of batch.row_outcomes.items) {
      expect({ key: row.key, locale: row.locale, outcome: row.outcome, gate_outcome: row.gate_outcome, pass: row.pass, reason: row.reason }).toEqual({
        key: row.key,
        locale: row.locale,
        outcome: 'translated',
        gate_outcome: 'passed',
        pass,
        reason: null,
      });
    }
  });

  it.each(LOCALES)('pulled for %s, every translation starts and ends with the whitespace of its source', (locale) => {
    const got = translations(format, pulled.get(`${format}/${locale}`)!, locale);
    const wrong: unknown[] = [];
    for (const entry of sources.get(format)!) {
      const value = got.get(entry.key);
      if (value === undefined || typeof value === 'string' !== !entry.plurals) {
        wrong.push({ key: entry.key, value });
        continue;
      }
      const pairs: [string, string, string][] =
        typeof value === 'string' ? [['', entry.source, value]] : Object.entries(value).map(([category, form]) => [category, entry.plurals![category as keyof PluralForms] ?? entry.plurals!.other!, form!]);
      for (const [form, source, translation] of pairs) {
        if (!translation.includes(`${locale}: `) || JSON.stringify(edges(translation)) !== JSON.stringify(edges(source))) wrong.push({ key: entry.key, form, source, translation });
      }
    }
    expect(wrong).toEqual([]);
  });

  const tool = TOOLS[format]!;
  it.skipIf(!tool.available).each(LOCALES)(`pulled for %s, passes ${tool.name}`, (locale) => {
    const file = join(scratch, `${format}-${locale}${getCodec(format)!.extensions[0]}`);
    const bytes = pulled.get(`${format}/${locale}`)!;
    writeFileSync(file, tool.bytes ? tool.bytes(bytes) : bytes);
    const [command, args] = tool.command(file);
    const run = spawnSync(command, args, { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    // Unreal's own exports leave out Last-Translator and friends; msgfmt only warns about that.
    expect(run.stderr.split('\n').filter((line) => line !== '' && !/: warning: header field '[\w-]+' missing in header$/.test(line))).toEqual([]);
    expect(run.status).toBe(0);
  });
});

it('the provider saw each source with its edge whitespace, on both passes, and no row needed a corrective retry', () => {
  expect(new Set(mock.calls.map((c) => c.model))).toEqual(new Set(['mock-fast', 'mock-careful']));
  expect(mock.rows.some((row) => row.text.endsWith('\n') || row.text.startsWith(' '))).toBe(true);
  expect(mock.rows.filter((row) => row.correction)).toEqual([]);
});

describe('a person\'s translation (PUT /v1/translations)', () => {
  const put = (text: string) =>
    service.api(`/v1/translations/greeting/de?path=${encodeURIComponent(pathOf('json'))}`, { token, method: 'PUT', json: { text } });

  it('is refused when its line breaks at the ends differ from the source', async () => {
    const res = await put('Hallo, Welt');
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; failures: { gate: string; reason: string }[] };
    expect(body.code).toBe('gate_refused');
    expect(body.failures).toEqual([
      { gate: 'placeholders', reason: 'leading line break is missing: the source starts with "\\n"' },
      { gate: 'placeholders', reason: 'trailing line break is missing: the source ends with "\\n"' },
    ]);
  });

  it('keeps the spaces a person chose beside the source\'s line breaks: they are not restored', async () => {
    expect((await put('\n  Hallo, Welt \n')).status).toBe(200);
    const res = await service.api(`/v1/pull?locale=de&path=${encodeURIComponent(pathOf('json'))}`, { token });
    expect((JSON.parse(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()))) as Record<string, string>).greeting).toBe('\n  Hallo, Welt \n');
  });
});
