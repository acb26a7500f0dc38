/** The Transifex importer against a local Transifex (API v3 and the archive a team holds), checked against the import fixture. */
import { afterEach, describe, expect, it } from 'vitest';
import { ImportSourceError, type ApiSource } from '../../server/imports/import-model.js';
import { createTransifexReader } from '../../server/imports/platforms/transifex.js';
import { importFixture } from '../helpers/import-fixture.js';
import { collect, expectFixture, keyId, runReader } from '../helpers/import-kit.js';
import { startTransifexMock, transifexArchive, type TransifexMock } from '../helpers/platform-mocks/transifex.js';

const fixture = importFixture();
const fromTransifex = (tag: string) => tag.replace(/_/g, '-');
// Download jobs are polled without the CLI's second-long waits.
const reader = createTransifexReader({ pollDelaysMs: [5] });

let mock: TransifexMock | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

const sourceOf = (m: TransifexMock, overrides: Partial<ApiSource> = {}): ApiSource => ({ token: m.token, project: m.projectId, baseUrl: m.url, ...overrides });

describe('Transifex API v3', () => {
  it('reads the project: keys with notes, context, limits and tags, plural translations by category, review state, TM', async () => {
    mock = await startTransifexMock(fixture, { pageSize: 100 });
    const m = mock;
    const run = await runReader((context) => reader.readApi(sourceOf(m), context));
    const collected = collect(run.chunks);

    expectFixture(collected, fixture, { locale: fromTransifex, fields: { glossary: false } });
    expect(collected.repeats).toBe(0);
    expect(collected.locales?.targets).toContain('pt_BR');
    // The JSON keys come back unescaped ('screen0\.item0' on Transifex) and pages were followed by links.next.
    expect(collected.keys.get(keyId('locales/en.json', 'screen0.item0'))?.ref).toMatch(/^o:acme:p:shop-app:r:locales-en-json:s:[0-9a-f]{32}$/);
    expect(m.requests.filter((r) => r.path.startsWith('/resource_strings') && r.path.includes('page[cursor]')).length).toBeGreaterThan(2);
    expect(m.requests.some((r) => r.path.startsWith('/resource_translations') && r.path.includes('include=resource_string') && r.path.includes('filter[language]=l:pt_BR'))).toBe(true);
    expect(collected.warnings.join('\n')).toMatch(/no glossary endpoint.*CSV/);
  });

  it('waits out a 429 for as long as Retry-After says', async () => {
    mock = await startTransifexMock(fixture, { pageSize: 400 });
    const m = mock;
    m.rateLimitNext(2);
    const run = await runReader((context) => reader.readApi(sourceOf(m), context));

    expect(run.waits).toEqual([`rate limited by ${new URL(m.url).host}: 2000 ms`]);
    expect(m.requests.filter((r) => r.path === `/projects/${m.projectId}`)).toHaveLength(2);
    expect(collect(run.chunks).keys.size).toBe(fixture.keys.length);
  });

  it('follows a TMX download job that is pending twice, then redirects to the file', async () => {
    mock = await startTransifexMock(fixture, { pageSize: 400, tmxPendingPolls: 2 });
    const m = mock;
    const run = await runReader((context) => reader.readApi(sourceOf(m), context));

    const created = m.requests.filter((r) => r.method === 'POST' && r.path === '/tmx_async_downloads');
    expect(created).toHaveLength(fixture.targetLocales.length);
    const polls = m.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/tmx_async_downloads/'));
    const perJob = [...new Set(polls.map((r) => r.path))].map((path) => polls.filter((r) => r.path === path).length);
    // Two answers 'pending'/'processing', the third a 303 to the file.
    expect(perJob).toEqual(fixture.targetLocales.map(() => 3));
    expect(m.requests.filter((r) => r.path.startsWith('/_downloads/'))).toHaveLength(fixture.targetLocales.length);
    const memory = collect(run.chunks).memory;
    expect(memory).toHaveLength(fixture.memory.length);
    expect(memory).toContainEqual({ sourceLocale: 'en', locale: 'ar', source: 'Memory sentence 7', text: 'جملة الذاكرة 7' });
  });

  it('resumes after a crash from the last checkpoint, at the page it stopped at, and ends with the whole project', async () => {
    mock = await startTransifexMock(fixture, { pageSize: 100 });
    const m = mock;
    const first = await runReader((context) => reader.readApi(sourceOf(m), context), { crashAfterEmits: 3 });
    expect(first.crashed).toBe(true);
    expect(first.checkpoint).toMatchObject({ step: 'strings:o:acme:p:shop-app:r:locales-en-json', next: expect.stringContaining('page%5Bcursor%5D') });

    const before = m.requests.length;
    const second = await runReader((context) => reader.readApi(sourceOf(m), context), { checkpoint: first.checkpoint });
    expect(second.crashed).toBe(false);
    // The resumed run goes to the fourth page of strings, not back to the first.
    const firstStringsRequest = m.requests.slice(before).find((r) => r.path.startsWith('/resource_strings'));
    expect(firstStringsRequest?.path).toContain('page[cursor]');
    const collected = collect([...first.chunks, ...second.chunks]);
    expectFixture(collected, fixture, { locale: fromTransifex, fields: { glossary: false } });
    expect(collected.repeats).toBe(0);
  });

  it('names Transifex and where to create a token when the token is refused', async () => {
    mock = await startTransifexMock(fixture);
    const m = mock;
    const error = await runReader((context) => reader.readApi(sourceOf(m, { token: 'revoked' }), context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/^Transifex .*refused the API token \(401 unauthorized: .*\)\. Create a token at https:\/\/app\.transifex\.com\/user\/settings\/api\//);
  });

  it('says which project Transifex does not know, and what a project id looks like', async () => {
    mock = await startTransifexMock(fixture);
    const m = mock;
    const unknown = await runReader((context) => reader.readApi(sourceOf(m, { project: 'o:acme:p:no-such-app' }), context)).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ImportSourceError);
    expect((unknown as Error).message).toMatch(/404 for project o:acme:p:no-such-app.*not_found.*'o:<organization>:p:<project>'/);

    const malformed = await runReader((context) => reader.readApi(sourceOf(m, { project: 'shop-app' }), context)).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ImportSourceError);
    expect((malformed as Error).message).toMatch(/Invalid Transifex project 'shop-app'/);

    // A project's address works as well as its id.
    const byAddress = await runReader((context) => reader.readApi(sourceOf(m, { project: 'https://app.transifex.com/acme/shop-app/dashboard/' }), context));
    expect(collect(byAddress.chunks).keys.size).toBe(fixture.keys.length);
  });
});

describe('Transifex archive (.tx/config with pulled files, TMX, glossary CSV)', () => {
  it('reads keys, plural translations, Android notes, TM and glossary; what the files cannot carry stays out', async () => {
    const run = await runReader((context) => reader.readArchive(transifexArchive(fixture), 'transifex-shop-app.zip', context));
    const collected = collect(run.chunks);

    // Files carry no review state, tags, context or limits, and a flat JSON file no notes.
    expectFixture(collected, fixture, { locale: fromTransifex, fields: { notes: false, context: false, maxLength: false, tags: false, reviewed: false, glossary: false } });
    for (const k of fixture.keys.filter((key) => key.format === 'android_xml')) {
      expect(collected.keys.get(keyId(k.path, k.key))?.notes, `notes of ${k.key}`).toBe(k.notes);
    }
    expect([...collected.translations.values()].every((t) => !t.reviewed)).toBe(true);
    // Android's values-pt-rBR folder comes back as Transifex's pt_BR through the lang_map.
    expect(collected.locales?.targets).toEqual(['ar', 'de', 'pt_BR']);
    expect(collected.warnings.join('\n')).toMatch(/locales\/ar\.json: 80 strings equal to their source were taken as untranslated/);

    expect(collected.glossary.size).toBe(fixture.glossary.length);
    for (const g of fixture.glossary) {
      const got = collected.glossary.get(g.term.toLowerCase())!;
      expect(Object.fromEntries(Object.entries(got.translations).map(([tag, text]) => [fromTransifex(tag), text]))).toEqual(g.translations);
      expect(got.notes).toBe(g.notes);
      expect(got.forbidden).toBe(false);
    }
    expect(collected.warnings.join('\n')).toMatch(/no forbidden-term flag/);
  });

  it('resumes an archive read after a crash', async () => {
    const archive = transifexArchive(fixture);
    const first = await runReader((context) => reader.readArchive(archive, 'tx.zip', context), { crashAfterEmits: 3 });
    expect(first.crashed).toBe(true);
    const second = await runReader((context) => reader.readArchive(archive, 'tx.zip', context), { checkpoint: first.checkpoint });
    const collected = collect([...first.chunks, ...second.chunks]);
    expect(collected.repeats).toBe(0);
    expectFixture(collected, fixture, { locale: fromTransifex, fields: { notes: false, context: false, maxLength: false, tags: false, reviewed: false, glossary: false } });
  });

  it('refuses an archive with nothing Transifex-shaped in it', async () => {
    const { zipSync, strToU8 } = await import('fflate');
    const error = await runReader((context) => reader.readArchive(zipSync({ 'README.md': strToU8('hi') }), 'other.zip', context)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportSourceError);
    expect((error as Error).message).toMatch(/no \.tx\/config/);
  });
});
