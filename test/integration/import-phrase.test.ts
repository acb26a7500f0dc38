/** The Phrase Strings importer against a wire-level Phrase API v2 mock and a `phrase pull` archive of the same project. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, zipSync } from 'fflate';
import { ImportSourceError } from '../../server/imports/import-model.js';
import { phraseReader } from '../../server/imports/platforms/phrase.js';
import { importFixture } from '../helpers/import-fixture.js';
import { collect, expectFixture, runReader } from '../helpers/import-kit.js';
import { phraseArchive, startPhraseMock, type PhraseMock } from '../helpers/platform-mocks/phrase.js';

const fixture = importFixture();
// Phrase has no key context, no forbidden terms and no translation memory API; files are not kept, only keys.
const apiFields = { context: false, paths: false, memory: false, glossary: false } as const;

describe('Phrase Strings import', () => {
  let mock: PhraseMock;
  beforeAll(async () => {
    mock = await startPhraseMock(fixture);
  });
  afterAll(() => mock.stop());

  const source = () => ({ token: mock.token, project: mock.projectId, baseUrl: mock.url });

  it('reads the project through API v2 as the fixture has it', async () => {
    const run = await runReader((context) => phraseReader.readApi(source(), context));
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { fields: apiFields });
    expect(collected.repeats).toBe(0);
    expect(run.checkpoint).toEqual({ stage: 'done' });
    // The API carries no translation memory, and the import says so (as Lokalise's does).
    expect(collected.warnings).toEqual([expect.stringMatching(/^Phrase's API gives no translation memory, so project .*'s memory is not part of this import\. Export it as TMX/)]);
    // Term bases: the one linked to this project, with Phrase's fields; Phrase has no forbidden terms.
    expect([...collected.glossary.values()].map((t) => t.term).sort()).toEqual(fixture.glossary.map((g) => g.term).sort());
    for (const g of fixture.glossary) {
      const term = collected.glossary.get(g.term.toLowerCase())!;
      expect(term.translations).toEqual(g.translations);
      expect(term.notes).toBe(g.notes);
      expect(term.forbidden).toBe(false);
    }
    expect(collected.glossary.get('parlance')!.caseSensitive).toBe(true);
    // Pages of 100 followed through Link headers; max lengths from each key's own record.
    expect(mock.requests.filter((r) => /\/keys\?/.test(r.path)).map((r) => new URL(r.path, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(mock.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('waits out a 429 with Phrase rate-limit headers', async () => {
    mock.requests.length = 0;
    mock.rateLimitNext(2, 3);
    const run = await runReader((context) => phraseReader.readApi(source(), context));
    expect(run.waits).toHaveLength(2);
    // X-Rate-Limit-Reset is a UNIX time about 3 s ahead: the wait follows it.
    for (const wait of run.waits) expect(Number(/: (\d+) ms/.exec(wait)![1])).toBeGreaterThan(1000);
    expect(mock.requests.slice(0, 2).map((r) => r.status)).toEqual([429, 429]);
    expectFixture(collect(run.chunks), fixture, { fields: apiFields });
  });

  it('resumes after a crash from the last checkpoint and ends with the whole project', async () => {
    const first = await runReader((context) => phraseReader.readApi(source(), context), { crashAfterEmits: 3 });
    expect(first.crashed).toBe(true);
    expect(first.emits).toBe(3);
    const second = await runReader((context) => phraseReader.readApi(source(), context), { checkpoint: first.checkpoint });
    expect(second.crashed).toBe(false);
    expect(second.checkpoint).toEqual({ stage: 'done' });
    expectFixture(collect([...first.chunks, ...second.chunks]), fixture, { fields: apiFields });
  });

  it('keeps plural forms that straddle two pages together, also across a crash in between', async () => {
    // Pages of 7 records split Arabic plurals (six records each) between pages.
    const small = await startPhraseMock(fixture, { maxPerPage: 7 });
    try {
      const at = { token: small.token, project: small.projectId, baseUrl: small.url };
      // 75 keys pages and 77 German pages come first: emit 182 is inside Arabic.
      const first = await runReader((context) => phraseReader.readApi(at, context), { crashAfterEmits: 182 });
      expect(first.checkpoint).toMatchObject({ stage: 'translations', locale: 1 });
      const second = await runReader((context) => phraseReader.readApi(at, context), { checkpoint: first.checkpoint });
      expectFixture(collect([...first.chunks, ...second.chunks]), fixture, { fields: apiFields });
    } finally {
      await small.stop();
    }
  });

  it('names Phrase and where to create a token when the token is refused', async () => {
    const error = await runReader((context) => phraseReader.readApi({ ...source(), token: 'revoked' }, context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/Phrase .*refused the API token.*401 "Unauthorized"/);
    expect((error as Error).message).toContain('https://app.phrase.com/settings/oauth_access_tokens');
  });

  it('says which project Phrase does not know', async () => {
    const error = await runReader((context) => phraseReader.readApi({ ...source(), project: 'ffffffffffffffffffffffffffffffff' }, context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/no project ffffffffffffffffffffffffffffffff .*404 "Not Found"/);
  });
});

describe('Phrase Strings archive import', () => {
  const archive = phraseArchive(fixture);
  // Locale downloads carry keys, text and Android plurals; not review state, tags, descriptions, max lengths or context.
  const archiveFields = { notes: false, context: false, maxLength: false, tags: false, reviewed: false, glossary: false } as const;

  it('reads a phrase pull archive with its .phrase.yml: paths, formats, plurals, translations and TMX memory', async () => {
    const run = await runReader((context) => phraseReader.readArchive(archive, 'phrase-pull.zip', context));
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { fields: archiveFields });
    expect(collected.repeats).toBe(0);
    expect(collected.memory).toHaveLength(fixture.memory.length);
    expect(collected.warnings).toEqual([]);
  });

  it('resumes an archive read from the last file', async () => {
    const first = await runReader((context) => phraseReader.readArchive(archive, 'phrase-pull.zip', context), { crashAfterEmits: 3 });
    expect(first.crashed).toBe(true);
    const second = await runReader((context) => phraseReader.readArchive(archive, 'phrase-pull.zip', context), { checkpoint: first.checkpoint });
    expectFixture(collect([...first.chunks, ...second.chunks]), fixture, { fields: archiveFields });
  });

  it('asks for .phrase.yml when the zip has only locale files', async () => {
    const files = unzipSync(archive);
    delete files['.phrase.yml'];
    const error = await runReader((context) => phraseReader.readArchive(zipSync(files), 'phrase-pull.zip', context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/no \.phrase\.yml/);
  });
});
