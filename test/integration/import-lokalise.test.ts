/** The Lokalise importer against a local Lokalise API v2 and Lokalise's Download zip, both built from the import fixture. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImportSourceError } from '../../server/imports/import-model.js';
import { lokaliseReader } from '../../server/imports/platforms/lokalise.js';
import { importFixture } from '../helpers/import-fixture.js';
import { collect, expectFixture, keyId, runReader } from '../helpers/import-kit.js';
import { lokaliseArchive, startLokaliseMock, type LokaliseMock } from '../helpers/platform-mocks/lokalise.js';

const fixture = importFixture();
const locale = (tag: string) => tag.replace('_', '-');

describe('Lokalise import', () => {
  let mock: LokaliseMock;
  beforeAll(async () => {
    // Pages of 100 keys and 2 terms: six key pages and three glossary pages, so paging and resumption are exercised.
    mock = await startLokaliseMock(fixture, { keysPerPage: 100, termsPerPage: 2 });
  });
  afterAll(() => mock.stop());
  beforeEach(() => {
    mock.requests.length = 0;
  });
  const source = () => ({ token: mock.token, project: mock.projectId, baseUrl: mock.url });

  it('reads the whole project through the API, page by page', async () => {
    const run = await runReader((context) => lokaliseReader.readApi(source(), context));
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { locale, fields: { memory: false } });
    expect(collected.repeats).toBe(0);
    expect(collected.locales?.targets).toContain('pt_BR');
    // Lokalise has no translation memory endpoint: the import says so instead of silently dropping it.
    expect(collected.warnings.some((w) => /translation memory/.test(w) && /TMX/.test(w))).toBe(true);
    const keyRequests = mock.requests.filter((r) => r.path.endsWith('/keys'));
    expect(keyRequests).toHaveLength(6);
    for (const r of keyRequests) expect(r.query).toMatchObject({ include_translations: '1', pagination: 'cursor' });
    expect(mock.requests.filter((r) => r.path.endsWith('/glossary-terms'))).toHaveLength(3);
    expect(mock.requests.every((r) => r.token === mock.token && r.status === 200)).toBe(true);
    // Plural translations arrive as a JSON string of forms; the key keeps its Android format from its filename.
    const android = fixture.keys.find((k) => k.plurals)!;
    expect(collected.keys.get(keyId(android.path, android.key))).toMatchObject({ format: 'android_xml', plurals: { one: '{count} item', other: '{count} items' } });
  });

  it('waits out a 429 and carries on', async () => {
    mock.rateLimitNext();
    const run = await runReader((context) => lokaliseReader.readApi(source(), context));
    expect(mock.requests[0]).toMatchObject({ status: 429 });
    expect(run.waits).toHaveLength(1);
    expect(run.waits[0]).toMatch(/rate limited/);
    expectFixture(collect(run.chunks), fixture, { locale, fields: { memory: false } });
  });

  it('resumes after a crash from the last checkpoint, with nothing lost', async () => {
    // The glossary's pages come first (three of them), then the six key pages: the crash falls after the third.
    const first = await runReader((context) => lokaliseReader.readApi(source(), context), { crashAfterEmits: 6 });
    expect(first.crashed).toBe(true);
    expect(first.checkpoint).toMatchObject({ stage: 'keys', cursor: expect.any(String) });
    const seen = mock.requests.length;
    const second = await runReader((context) => lokaliseReader.readApi(source(), context), { checkpoint: first.checkpoint });
    expect(second.crashed).toBe(false);
    // The resumed run starts at the saved cursor: it reads the three remaining key pages, not all six.
    const resumedKeys = mock.requests.slice(seen).filter((r) => r.path.endsWith('/keys'));
    expect(resumedKeys).toHaveLength(3);
    expect(resumedKeys[0]!.query.cursor).toBe((first.checkpoint as { cursor: string }).cursor);
    expectFixture(collect([...first.chunks, ...second.chunks]), fixture, { locale, fields: { memory: false } });
  });

  it('names Lokalise and where to make a token when the token is refused', async () => {
    const error = await runReader((context) => lokaliseReader.readApi({ ...source(), token: 'not-a-token' }, context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/Lokalise refused the API token/);
    expect((error as Error).message).toContain('Invalid `X-Api-Token` header');
    expect((error as Error).message).toContain('https://app.lokalise.com/profile#apitokens');
  });

  it('names the project id Lokalise does not know', async () => {
    const error = await runReader((context) => lokaliseReader.readApi({ ...source(), project: '1111111111aaaaaaaaaaaa.00000000' }, context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/Lokalise has no project '1111111111aaaaaaaaaaaa\.00000000'/);
    expect((error as Error).message).toContain('HTTP 404, Lokalise code 404: Not Found');
  });
});

describe('Lokalise Download archive', () => {
  it('reads keys, paths, plurals, translations, Android descriptions and the TMX memory', async () => {
    const zip = lokaliseArchive(fixture);
    const run = await runReader((context) => lokaliseReader.readArchive(zip, 'Parlance_fixture-locale.zip', context));
    const collected = collect(run.chunks);
    // A download carries no review state, context, character limits, tags, glossary, nor JSON keys' descriptions.
    expectFixture(collected, fixture, { locale, fields: { notes: false, context: false, maxLength: false, tags: false, reviewed: false, glossary: false } });
    expect(collected.repeats).toBe(0);
    expect(collected.memory).toHaveLength(fixture.memory.length);
    for (const k of fixture.keys.filter((k) => k.format === 'android_xml')) expect(collected.keys.get(keyId(k.path, k.key))?.notes, k.key).toBe(k.notes);
    expect([...collected.translations.values()].every((t) => !t.reviewed)).toBe(true);
  });

  it('resumes after a crash without losing a file', async () => {
    const zip = lokaliseArchive(fixture);
    const first = await runReader((context) => lokaliseReader.readArchive(zip, 'bundle.zip', context), { crashAfterEmits: 3 });
    expect(first.crashed).toBe(true);
    const second = await runReader((context) => lokaliseReader.readArchive(zip, 'bundle.zip', context), { checkpoint: first.checkpoint });
    expectFixture(collect([...first.chunks, ...second.chunks]), fixture, { locale, fields: { notes: false, context: false, maxLength: false, tags: false, reviewed: false, glossary: false } });
  });

  it('refuses a file that is not a zip, naming it', async () => {
    const error = await runReader((context) => lokaliseReader.readArchive(new TextEncoder().encode('<html>'), 'export.zip', context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toContain('export.zip is not a zip archive');
  });
});
