/** The Tolgee importer against a local Tolgee: the API read, rate limits, resumption, refusals, and the export zip. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportSourceError } from '../../server/imports/import-model.js';
import { tolgeeReader } from '../../server/imports/platforms/tolgee.js';
import { collect, expectFixture, runReader } from '../helpers/import-kit.js';
import { importFixture } from '../helpers/import-fixture.js';
import { startTolgeeMock, tolgeeArchive, type TolgeeMock } from '../helpers/platform-mocks/tolgee.js';

const fixture = importFixture();
/** Tolgee knows no repository files and no disambiguating context; everything else comes across its API. */
const API_FIELDS = { paths: false, context: false } as const;

describe('Tolgee import through the API', () => {
  let tolgee: TolgeeMock;
  beforeAll(async () => {
    tolgee = await startTolgeeMock(fixture);
  });
  afterAll(async () => {
    await tolgee.stop();
  });
  const source = () => ({ token: tolgee.token, project: tolgee.projectId, baseUrl: tolgee.url });

  it('reads keys, translations with review states, the glossary and the shared memory as the fixture has them', async () => {
    tolgee.requests.length = 0;
    const run = await runReader((context) => tolgeeReader.readApi(source(), context));
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { fields: API_FIELDS });
    expect(collected.repeats).toBe(0);
    expect(collected.warnings).toEqual([]);
    // Arabic plurals arrive in all six CLDR forms, with Tolgee's `#` given back as the count placeholder.
    const plural = collected.translations.get(`\u0000items_count_3\u0000ar`)!;
    expect(plural.plurals?.few).toBe('{count} عناصر قليلة');
    // Every page asks for all four languages, with the cursor of the page before.
    const pages = tolgee.requests.filter((r) => r.path.endsWith('/translations'));
    expect(pages).toHaveLength(7);
    expect(pages[0]!.query.getAll('languages').sort()).toEqual(['ar', 'de', 'en', 'pt-BR']);
    expect(pages[0]!.query.get('cursor')).toBeNull();
    expect(pages.slice(1).every((p) => p.query.get('cursor'))).toBe(true);
    expect(tolgee.requests.every((r) => r.apiKey === tolgee.token)).toBe(true);
  });

  it('waits out a 429 and then reads everything', async () => {
    tolgee.requests.length = 0;
    tolgee.rateLimitNext(1, 1500);
    const run = await runReader((context) => tolgeeReader.readApi(source(), context));
    // Tolgee names the wait only in its body, with no Retry-After header: the import backs off on its own.
    expect(run.waits).toHaveLength(1);
    expect(run.waits[0]).toMatch(/rate limited by 127\.0\.0\.1:\d+: \d+ ms/);
    expect(tolgee.requests[0]!.path).toBe(tolgee.requests[1]!.path);
    expectFixture(collect(run.chunks), fixture, { fields: API_FIELDS });
  });

  it('continues from the last checkpoint after a crash, and the two runs together give the whole project', async () => {
    // The glossary's page first, then three pages of keys.
    const crashed = await runReader((context) => tolgeeReader.readApi(source(), context), { crashAfterEmits: 4 });
    expect(crashed.crashed).toBe(true);
    expect(crashed.checkpoint).toMatchObject({ stage: 'keys', cursor: expect.any(String) });
    expect(collect(crashed.chunks).keys.size).toBe(300);
    tolgee.requests.length = 0;
    const resumed = await runReader((context) => tolgeeReader.readApi(source(), context), { checkpoint: crashed.checkpoint });
    expect(resumed.crashed).toBe(false);
    // The resumed run starts at the saved cursor, not at the first page.
    expect(tolgee.requests.find((r) => r.path.endsWith('/translations'))!.query.get('cursor')).toBe((crashed.checkpoint as { cursor: string }).cursor);
    expect(collect(resumed.chunks).keys.size).toBe(220);
    expectFixture(collect([...crashed.chunks, ...resumed.chunks]), fixture, { fields: API_FIELDS });
  });

  it('names Tolgee, the refused key and where to create one when the key is wrong', async () => {
    const error = await runReader((context) => tolgeeReader.readApi({ ...source(), token: 'tgpak_wrong0000000000' }, context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/^Tolgee at http:\/\/127\.0\.0\.1:\d+ refused the project API key tgpak_wron…/);
    expect((error as Error).message).toContain('401 invalid_project_api_key');
    expect((error as Error).message).toContain(`${tolgee.url}/account/personal-access-tokens`);
    expect((error as Error).message).toContain(`${tolgee.url}/projects/${tolgee.projectId}/integrate`);
  });

  it('names the project when Tolgee has none with that id, and refuses an id that is not a number', async () => {
    const error = await runReader((context) => tolgeeReader.readApi({ ...source(), project: '999' }, context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toContain('has no project 999');
    expect((error as Error).message).toContain('404 project_not_found');
    const notANumber = await runReader((context) => tolgeeReader.readApi({ ...source(), project: 'my-app' }, context)).catch((e: unknown) => e);
    expect(notANumber).toBeInstanceOf(ImportSourceError);
    expect((notANumber as Error).message).toContain("'my-app' is not a Tolgee project id");
  });
});

describe('Tolgee import with a project API key', () => {
  it('reads every key and translation, and says why the glossary and memory need a personal access token', async () => {
    const tolgee = await startTolgeeMock(fixture, { tokenKind: 'pak' });
    try {
      const run = await runReader((context) => tolgeeReader.readApi({ token: tolgee.token, project: tolgee.projectId, baseUrl: tolgee.url }, context));
      const collected = collect(run.chunks);
      expectFixture(collected, fixture, { fields: { ...API_FIELDS, glossary: false, memory: false } });
      expect(collected.glossary.size).toBe(0);
      expect(collected.memory).toEqual([]);
      expect(collected.warnings).toHaveLength(2);
      expect(collected.warnings[0]).toMatch(/terms of glossary 7 'Parlance terms' \(403 pak_access_not_allowed\).*personal access token/);
      expect(collected.warnings[1]).toMatch(/TMX export of translation memory 31 'Parlance memory' \(403 pak_access_not_allowed\)/);
    } finally {
      await tolgee.stop();
    }
  });
});

describe("Tolgee's export zip", () => {
  /** The export carries keys, texts and plurals; the TM's TMX and the glossary's CSV carry memory and terms. */
  const ARCHIVE_FIELDS = { paths: false, context: false, notes: false, maxLength: false, tags: false, reviewed: false } as const;

  it('reads the JSON files, the TMX and the glossary CSV as the fixture has them', async () => {
    const run = await runReader((context) => tolgeeReader.readArchive(tolgeeArchive(fixture), 'parlance-fixture.zip', context));
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { fields: ARCHIVE_FIELDS });
    expect(collected.repeats).toBe(0);
    expect(collected.warnings).toEqual([]);
    expect([...collected.translations.values()].every((t) => !t.reviewed)).toBe(true);
    expect(collected.glossary.get('cell phone')).toMatchObject({ forbidden: true, notes: 'Say mobile phone', translations: { de: 'Handy' } });
  });

  it('resumes after a crash at the next file', async () => {
    const bytes = tolgeeArchive(fixture);
    const crashed = await runReader((context) => tolgeeReader.readArchive(bytes, 'export.zip', context), { crashAfterEmits: 3 });
    expect(crashed.crashed).toBe(true);
    const resumed = await runReader((context) => tolgeeReader.readArchive(bytes, 'export.zip', context), { checkpoint: crashed.checkpoint });
    expectFixture(collect([...crashed.chunks, ...resumed.chunks]), fixture, { fields: ARCHIVE_FIELDS });
  });

  it('without a TMX, takes the language with the most keys as the source and says it guessed', async () => {
    const { unzipSync, zipSync } = await import('fflate');
    const files = unzipSync(tolgeeArchive(fixture));
    delete files['tm-Parlance_memory.tmx'];
    const run = await runReader((context) => tolgeeReader.readArchive(zipSync(files), 'export.zip', context));
    const collected = collect(run.chunks);
    expect(collected.locales?.source).toBe('en');
    expect(collected.warnings).toEqual([expect.stringContaining("'en' was taken as the source")]);
  });
});
