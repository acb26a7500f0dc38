/** The Crowdin importer against a local Crowdin API v2 and a Crowdin build zip, both holding the import fixture. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync, unzipSync } from 'fflate';
import { ImportSourceError } from '../../server/imports/import-model.js';
import { crowdinReader } from '../../server/imports/platforms/crowdin.js';
import { collect, expectFixture, keyId, runReader } from '../helpers/import-kit.js';
import { importFixture } from '../helpers/import-fixture.js';
import { crowdinArchive, startCrowdinMock, type CrowdinMock } from '../helpers/platform-mocks/crowdin.js';

const fixture = importFixture();

/** Crowdin's single free-text `context` per string arrives as the key's notes: the fixture's notes, or its context where it has no notes. */
function expectCrowdinNotes(collected: ReturnType<typeof collect>) {
  for (const k of fixture.keys) expect(collected.keys.get(keyId(k.path, k.key))?.notes, `notes of ${k.key}`).toBe(k.notes ?? k.context);
}

describe('Crowdin API v2', () => {
  let mock: CrowdinMock;
  const source = () => ({ token: mock.token, project: mock.projectId, baseUrl: mock.url });

  beforeAll(async () => {
    mock = await startCrowdinMock(fixture);
  });
  afterAll(async () => {
    await mock.stop();
  });

  it('reads strings, translations with their approvals, the TM and the glossary as the fixture holds them', async () => {
    mock.requests.length = 0;
    const run = await runReader((context) => crowdinReader.readApi(source(), context));
    const collected = collect(run.chunks);
    // Crowdin has one context field per string, so the fixture's notes and context both arrive as notes.
    expectFixture(collected, fixture, { fields: { notes: false, context: false } });
    expectCrowdinNotes(collected);
    expect(collected.repeats).toBe(0);
    expect(collected.warnings).toEqual([]);
    // The asynchronous exports: started, polled, then fetched from the pre-signed link (which refuses the Crowdin token);
    // the glossary first, so that every translation is gated against it.
    expect(mock.requests.filter((r) => /^POST /.test(r))).toEqual(['POST /api/v2/glossaries/3/exports', 'POST /api/v2/tms/7/exports']);
    expect(run.chunks.findIndex((c) => c.kind === 'glossary')).toBeLessThan(run.chunks.findIndex((c) => c.kind === 'translations'));
    expect(mock.requests.filter((r) => r.startsWith('GET /crowdin-exports/'))).toHaveLength(2);
    expect(mock.requests.some((r) => /\/(tms\/9|glossaries\/1)\//.test(r))).toBe(false);
    expect(mock.requests.every((r) => !/limit=(\d+)/.test(r) || Number(/limit=(\d+)/.exec(r)![1]) <= 500)).toBe(true);
  });

  it('waits out 429s from Crowdin, with and without Retry-After', async () => {
    // Crowdin's edge answers 429 with an HTML page and no rate-limit header: the wait is the HTTP layer's backoff.
    mock.failNext429(2);
    const plain = await runReader((context) => crowdinReader.readApi(source(), context));
    expect(plain.waits.filter((w) => w.startsWith('rate limited'))).toHaveLength(2);
    const collected = collect(plain.chunks);
    expect([collected.keys.size, collected.translations.size, collected.glossary.size]).toEqual([fixture.keys.length, fixture.translations.length, fixture.glossary.length]);

    // Where a proxy in front of Crowdin adds Retry-After, the wait is what it asks.
    mock.failNext429(1, { retryAfter: 3 });
    // Three emits: the glossary, the TM, the JSON file's strings.
    const told = await runReader((context) => crowdinReader.readApi(source(), context), { crashAfterEmits: 3 });
    expect(told.waits).toEqual([`rate limited by ${new URL(mock.url).host}: 3000 ms`]);
    expect(collect(told.chunks).keys.size).toBe(400);
  });

  it('resumes from the checkpoint after a crash, mid-strings or mid-translations, and ends with the whole project', async () => {
    // Pages of 120 spread the fixture over several pages, so a crash falls inside a file's strings or translations.
    const paged = await startCrowdinMock(fixture, { pageSize: 120 });
    try {
      const pagedSource = { token: paged.token, project: paged.projectId, baseUrl: paged.url };
      const full = await runReader((context) => crowdinReader.readApi(pagedSource, context));
      for (const crashAfterEmits of [3, 6]) {
        const crashed = await runReader((context) => crowdinReader.readApi(pagedSource, context), { crashAfterEmits });
        expect(crashed.crashed).toBe(true);
        expect(crashed.emits).toBe(crashAfterEmits);
        const resumed = await runReader((context) => crowdinReader.readApi(pagedSource, context), { checkpoint: crashed.checkpoint });
        expect(resumed.crashed).toBe(false);
        // It continued where the first run stopped: nothing saved is emitted again, nothing after it is skipped.
        expect(resumed.emits).toBe(full.emits - crashed.emits);
        const collected = collect([...crashed.chunks, ...resumed.chunks]);
        expect(collected.repeats).toBe(0);
        expectFixture(collected, fixture, { fields: { notes: false, context: false } });
        expectCrowdinNotes(collected);
      }
      expect(paged.requests.some((r) => /\/strings\?fileId=2&limit=500&offset=360/.test(r))).toBe(true);
    } finally {
      await paged.stop();
    }
  });

  it('names Crowdin and the token page when the token is refused', async () => {
    const error = await runReader((context) => crowdinReader.readApi({ ...source(), token: 'revoked-token' }, context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/^Crowdin refused the API token \(HTTP 401: 401 Unauthorized\)/);
    expect((error as Error).message).toContain('https://crowdin.com/settings#api-key');
    expect((error as Error).message).not.toContain('revoked-token');
  });

  it('says which project Crowdin does not know, and refuses an id that is not a Crowdin project id', async () => {
    const unknown = await runReader((context) => crowdinReader.readApi({ ...source(), project: '999999' }, context)).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ImportSourceError);
    expect((unknown as Error).message).toContain('Crowdin has no project 999999');
    expect((unknown as Error).message).toContain('404 Project Not Found');

    const malformed = await runReader((context) => crowdinReader.readApi({ ...source(), project: 'parlance-demo' }, context)).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ImportSourceError);
    expect((malformed as Error).message).toContain("'parlance-demo' is not a Crowdin project id");
  });
});

describe('Crowdin build archive', () => {
  const archive = crowdinArchive(fixture);
  // A build carries translated files only: no review state, labels or max lengths; JSON files carry no notes.
  const fields = { reviewed: false, tags: false, maxLength: false, notes: false, context: false };

  it('reads the source files, every language folder, the TMX and the TBX', async () => {
    const run = await runReader((context) => crowdinReader.readArchive(archive, 'parlance-demo.zip', context));
    const collected = collect(run.chunks);
    expectFixture(collected, fixture, { fields });
    expect([...collected.translations.values()].every((t) => !t.reviewed)).toBe(true);
    // Android files keep their comments, so those notes do come across.
    for (const k of fixture.keys.filter((k) => k.format === 'android_xml')) expect(collected.keys.get(keyId(k.path, k.key))?.notes).toBe(k.notes);
    expect(collected.warnings).toEqual([]);
  });

  it('resumes an archive read from its checkpoint', async () => {
    const crashed = await runReader((context) => crowdinReader.readArchive(archive, 'parlance-demo.zip', context), { crashAfterEmits: 3 });
    expect(crashed.crashed).toBe(true);
    const resumed = await runReader((context) => crowdinReader.readArchive(archive, 'parlance-demo.zip', context), { checkpoint: crashed.checkpoint });
    expectFixture(collect([...crashed.chunks, ...resumed.chunks]), fixture, { fields });
  });

  it('asks for the source files when the zip holds only the language folders', async () => {
    const entries = Object.fromEntries(Object.entries(unzipSync(archive)).filter(([path]) => /^(de|ar|pt-BR)\//.test(path)));
    const error = await runReader((context) => crowdinReader.readArchive(zipSync(entries), 'build.zip', context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toContain("not the source files they translate");
    expect((error as Error).message).toContain('crowdin download sources');
  });
});
