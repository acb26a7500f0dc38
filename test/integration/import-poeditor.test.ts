/** The POEditor reader against a local POEditor API v2 serving the import fixture, and against POEditor's JSON export of it. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { ImportSourceError, type ImportedTranslation, type ReaderContext } from '../../server/imports/import-model.js';
import { poeditorReader } from '../../server/imports/platforms/poeditor.js';
import { importFixture } from '../helpers/import-fixture.js';
import { collect, expectFixture, runReader } from '../helpers/import-kit.js';
import { poeditorArchive, poeditorExportFile, startPoeditorMock } from '../helpers/platform-mocks/poeditor.js';

const fixture = importFixture();
const mock = await startPoeditorMock(fixture);
afterAll(() => mock.stop());
beforeEach(() => {
  mock.requests.length = 0;
});

/** POEditor's codes back to the fixture's tags: `pt-br` is `pt-BR`. */
const locale = (tag: string) => (tag === 'pt-br' ? 'pt-BR' : tag);
/** What POEditor has no place for: source files, max lengths, translation memory and glossary. */
const API_FIELDS = { paths: false, maxLength: false, memory: false, glossary: false };

const readApi = (source: Partial<{ token: string; project: string }> = {}) => (context: ReaderContext) =>
  poeditorReader.readApi({ token: mock.token, project: mock.projectId, baseUrl: mock.url, ...source }, context);

const termsListLanguages = () => mock.requests.filter((r) => r.method === 'terms/list').map((r) => r.fields.language);

describe('POEditor reader, API v2', () => {
  it('reads keys, plurals, notes, context, tags, translations and proofread state as the fixture has them', async () => {
    const run = await runReader(readApi());
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { locale, fields: API_FIELDS });
    expect(collected.locales).toEqual({ source: 'en', targets: ['de', 'ar', 'pt-br'] });
    expect([...collected.keys.values()].every((k) => k.path === '' && k.format === undefined && k.maxLength === undefined)).toBe(true);
    expect(collected.warnings).toEqual([]);
    expect(collected.repeats).toBe(0);
    // One emit per language, each with the languages done so far as its checkpoint.
    expect(run.emits).toBe(4);
    expect(run.checkpoint).toEqual({ languages: ['en', 'de', 'ar', 'pt-br'] });
    expect(mock.requests.map((r) => r.method)).toEqual(['projects/view', 'languages/list', 'terms/list', 'terms/list', 'terms/list', 'terms/list']);
    expect(termsListLanguages()).toEqual(['en', 'de', 'ar', 'pt-br']);
    expect(mock.requests.every((r) => r.fields.api_token === mock.token && r.fields.id === mock.projectId)).toBe(true);
  });

  it('waits out a 429 Too many requests and then reads everything', async () => {
    mock.rateLimitNext(2);
    const run = await runReader(readApi());
    expect(run.waits).toHaveLength(2);
    expect(run.waits[0]).toMatch(/rate limited by 127\.0\.0\.1/);
    expect(mock.requests.slice(0, 3).map((r) => r.status)).toEqual([429, 429, 200]);
    expectFixture(collect(run.chunks), fixture, { locale, fields: API_FIELDS });
  });

  it('resumes after a crash from the last language written, without reading it again, and ends with the whole fixture', async () => {
    const crashed = await runReader(readApi(), { crashAfterEmits: 2 });
    expect(crashed.crashed).toBe(true);
    expect(crashed.checkpoint).toEqual({ languages: ['en', 'de'] });

    mock.requests.length = 0;
    const resumed = await runReader(readApi(), { checkpoint: crashed.checkpoint });
    expect(resumed.crashed).toBe(false);
    expect(termsListLanguages()).toEqual(['ar', 'pt-br']);
    expect(resumed.checkpoint).toEqual({ languages: ['en', 'de', 'ar', 'pt-br'] });
    const collected = collect([...crashed.chunks, ...resumed.chunks]);
    expectFixture(collected, fixture, { locale, fields: API_FIELDS });
    expect(collected.repeats).toBe(0);
  });

  it('names POEditor, the refused token and where tokens are found when the token is wrong', async () => {
    const error = await runReader(readApi({ token: 'ffffffffffffffffffffffffffff9z9z' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/^POEditor refused the API token ending in "9z9z" \(code 4011: Invalid API Token\)/);
    expect((error as Error).message).toContain('API Access');
    expect(mock.requests).toHaveLength(1);
  });

  it('names the project when POEditor refuses it, and refuses an id that cannot be a POEditor project without asking', async () => {
    const unknown = await runReader(readApi({ project: '999999' })).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ImportSourceError);
    expect((unknown as Error).message).toMatch(/^POEditor project 999999 cannot be opened with this API token \(code 403: You don't have permission/);
    expect((unknown as Error).message).toContain('projects/view?id=');

    mock.requests.length = 0;
    const malformed = await runReader(readApi({ project: 'my-app' })).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ImportSourceError);
    expect((malformed as Error).message).toContain("got 'my-app'");
    expect(mock.requests).toHaveLength(0);
  });

  it('asks for a Default Reference Language when the project has none', async () => {
    const bare = await startPoeditorMock(fixture, { referenceLanguage: '' });
    try {
      const run = runReader((context) => poeditorReader.readApi({ token: bare.token, project: bare.projectId, baseUrl: bare.url }, context));
      await expect(run).rejects.toThrow(/POEditor project \d+ \("Parlance fixture"\) has no Default Reference Language/);
      expect(bare.requests.map((r) => r.method)).toEqual(['projects/view']);
    } finally {
      await bare.stop();
    }
  });
});

describe('POEditor reader, JSON export archive', () => {
  /** The JSON export has no tags or proofread state either. */
  const ARCHIVE_FIELDS = { ...API_FIELDS, tags: false, reviewed: false };

  it('reads the zipped per-language JSON exports: keys, plurals, notes, context and every translation, as unreviewed', async () => {
    const run = await runReader((context) => poeditorReader.readArchive(poeditorArchive(fixture), 'poeditor-export.zip', context));
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { locale, fields: ARCHIVE_FIELDS });
    expect(collected.locales).toEqual({ source: 'en', targets: ['ar', 'de', 'pt-br'] });
    expect([...collected.translations.values()].filter((t: ImportedTranslation) => t.reviewed)).toEqual([]);
    expect(collected.warnings).toHaveLength(2);
    expect(collected.warnings[0]).toContain("'en' (en.json) was taken as the source language");
    expect(collected.warnings[1]).toContain('no proofread state or tags');
    expect(run.emits).toBe(4);
  });

  it('refuses files it cannot place: a file not named by language code, and a Key-Value JSON export', async () => {
    const unnamed = zipSync({ 'Parlance_German.json': poeditorExportFile(fixture, 'de') });
    await expect(runReader((context) => poeditorReader.readArchive(unnamed, 'export.zip', context))).rejects.toThrow(
      /'Parlance_German\.json' should be named after its POEditor language code, as in de\.json/,
    );
    const keyValue = strToU8(JSON.stringify({ screen0: { item0: 'Item 0 of the list' } }));
    const error = await runReader((context) => poeditorReader.readArchive(keyValue, 'de.json', context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/^'de\.json' is not in POEditor's JSON export format .*"Key-Value JSON"/s);
  });
});
