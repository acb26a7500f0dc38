/**
 * Imports end to end through the service: POST /v1/imports against each platform's wire-level mock and with its
 * export, the job to its end, then what the project holds (keys, human and machine translations, flagged ones,
 * memory, glossary, added languages) and what a pull gives; no words charged, a second run changes nothing, an
 * import paused by a stopping service resumes from its checkpoint, and a free-plan organisation imports too.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../server/runtime.js';
import { createLogger } from '../../server/logger.js';
import type { ImportFixture } from '../helpers/import-fixture.js';
import { ANDROID_FILE, FIXTURE_ANDROID_KEYS, FIXTURE_GLOSSARY_KEY, FIXTURE_JSON_KEYS, importFixture } from '../helpers/import-fixture.js';
import { getCodec } from '../../src/core/formats/index.js';
import { crowdinArchive, startCrowdinMock } from '../helpers/platform-mocks/crowdin.js';
import { lokaliseArchive, startLokaliseMock } from '../helpers/platform-mocks/lokalise.js';
import { phraseArchive, startPhraseMock } from '../helpers/platform-mocks/phrase.js';
import { poeditorArchive, startPoeditorMock } from '../helpers/platform-mocks/poeditor.js';
import { startTolgeeMock, tolgeeArchive } from '../helpers/platform-mocks/tolgee.js';
import { startTransifexMock, transifexArchive } from '../helpers/platform-mocks/transifex.js';
import { filePush, startService, type TestService } from '../helpers/service.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

interface PlatformMock {
  url: string;
  token: string;
  projectId: string;
  stop(): Promise<void>;
}

interface Case {
  platform: 'crowdin' | 'lokalise' | 'phrase' | 'transifex' | 'tolgee' | 'poeditor';
  start(fixture: ImportFixture): Promise<PlatformMock>;
  archive(fixture: ImportFixture): Uint8Array;
  /** Whether keys keep their source file's path (the platform knows it), through the API and in its export. */
  paths: boolean;
  archivePaths: boolean;
  /** Whether the API path brings memory units across. */
  apiMemory: boolean;
  /** Whether the API path brings the glossary across. */
  apiGlossary: boolean;
  /** Whether the export carries translation memory (TMX) and the glossary. */
  archiveMemory: boolean;
  archiveGlossary: boolean;
}

const CASES: Case[] = [
  { platform: 'crowdin', start: (f) => startCrowdinMock(f), archive: crowdinArchive, paths: true, archivePaths: true, apiMemory: true, apiGlossary: true, archiveMemory: true, archiveGlossary: true },
  { platform: 'lokalise', start: (f) => startLokaliseMock(f), archive: lokaliseArchive, paths: true, archivePaths: true, apiMemory: false, apiGlossary: true, archiveMemory: true, archiveGlossary: false },
  { platform: 'phrase', start: (f) => startPhraseMock(f), archive: phraseArchive, paths: false, archivePaths: true, apiMemory: false, apiGlossary: true, archiveMemory: true, archiveGlossary: false },
  { platform: 'transifex', start: (f) => startTransifexMock(f), archive: transifexArchive, paths: true, archivePaths: true, apiMemory: true, apiGlossary: false, archiveMemory: true, archiveGlossary: true },
  { platform: 'tolgee', start: (f) => startTolgeeMock(f), archive: tolgeeArchive, paths: false, archivePaths: false, apiMemory: true, apiGlossary: true, archiveMemory: true, archiveGlossary: true },
  { platform: 'poeditor', start: (f) => startPoeditorMock(f), archive: poeditorArchive, paths: false, archivePaths: false, apiMemory: false, apiGlossary: false, archiveMemory: false, archiveGlossary: false },
];

interface ImportBody {
  id: string;
  status: string;
  error: string | null;
  progress: { message?: string; done?: number; total?: number };
  report: {
    keys: { added: number; updated: number; unchanged: number };
    locales: Record<string, { keys: number; translations: number; human: number; machine: number; held: number; flagged: number; kept: number; memory: number; glossary: number }>;
    locale_mappings: Record<string, string>;
    languages_added: string[];
    locales_refused: string[];
    memory_units: number;
    glossary_terms: { added: number; updated: number };
    gate_failures: { key: string; locale: string; gate: string; state: string }[];
    gate_failures_count: number;
    warnings: { message: string; ref?: string }[];
    warnings_count: number;
  };
}

let service: TestService;
const fixture = importFixture();

beforeAll(async () => {
  service = await startService({ env: { PARLANCE_SECRET_KEY: 'b'.repeat(64), STORAGE_SYNC_POLL_MS: '100', RATE_LIMIT_PER_MINUTE: '100000' }, memory: false });
});
afterAll(async () => {
  await service?.stop();
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** A project in the service's organisation, or in an organisation of its own (on the free plan always): memory is kept per organisation. */
async function newProject(name: string, plan: 'starter' | 'free' = 'starter', ownOrganisation = plan === 'free'): Promise<{ projectId: string; token: string }> {
  const organisationId = ownOrganisation ? (await service.runtime.organisations.createOrganisation({ name: `${name} org`, plan })).id : service.organisationId;
  const project = await service.runtime.organisations.createProject({ organisationId, name, sourceLocale: 'en', targetLocales: ['de'] });
  const token = await service.mintToken({ projectId: project.id, abilities: ['read', 'pull', 'push', 'write', 'manage'], ...(plan === 'free' ? { kind: 'session' as const, expiresAt: new Date(Date.now() + 3_600_000) } : {}) });
  return { projectId: project.id, token };
}

async function finished(token: string, id: string, base = service.url, timeoutMs = 60_000): Promise<ImportBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await json<ImportBody>(await fetch(`${base}/v1/imports/${id}`, { headers: { authorization: `Bearer ${token}` } }));
    if (['completed', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function importApi(token: string, platform: string, mock: PlatformMock, options: Record<string, unknown> = {}) {
  const queued = await json<ImportBody>(await service.api('/v1/imports', { method: 'POST', token, json: { platform, api: { token: mock.token, project: mock.projectId, base_url: mock.url }, options } }), 202);
  return finished(token, queued.id);
}

async function importArchive(token: string, platform: string, bytes: Uint8Array) {
  const form = new FormData();
  form.set('platform', platform);
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), `${platform}-export.zip`);
  const queued = await json<ImportBody>(await service.api('/v1/imports', { method: 'POST', token, body: form }), 202);
  return finished(token, queued.id);
}

async function allowance(token: string) {
  return (await json<{ allowance: { words_remaining: number } }>(await service.api('/v1/project', { token }))).allowance.words_remaining;
}

/** The German translation that drops its placeholders; reviewed on the platform. */
const BROKEN_KEY = fixture.keys[fixture.translations.find((t) => t.locale === 'de' && t.text === 'Hallo, Sie haben Nachrichten')!.keyId - 1]!.key;

/** What the fixture says a locale holds, by key: translations, and for reviewed ones whether they were reviewed. */
function expected(locale: string) {
  return fixture.translations.filter((t) => t.locale === locale).map((t) => ({ ...t, key: fixture.keys[t.keyId - 1]! }));
}

describe.each(CASES)('$platform', ({ platform, start, archive, paths, archivePaths, apiMemory, apiGlossary, archiveMemory, archiveGlossary }) => {
  let mock: PlatformMock;
  let project: { projectId: string; token: string };
  let first: ImportBody;

  beforeAll(async () => {
    mock = await start(fixture);
    project = await newProject(`${platform} project`, 'starter', true);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('imports everything through the API, charging no words', async () => {
    const before = await allowance(project.token);
    first = await importApi(project.token, platform, mock);
    expect(first.error).toBeNull();
    expect(first.status).toBe('completed');
    expect(first.report.keys.added).toBe(fixture.keys.length);
    expect(first.report.languages_added.sort()).toEqual(['ar', 'pt-BR']);
    for (const locale of fixture.targetLocales) {
      const rows = expected(locale);
      const t = first.report.locales[locale]!;
      expect(t.human + t.machine + t.flagged, `translations into ${locale}`).toBe(rows.length);
      expect(t.translations, `translations into ${locale}`).toBe(rows.length);
      // Every translated key, counted in the project: one translation per key.
      expect(t.keys, `keys with a translation in ${locale}`).toBe(rows.length);
      expect(t.held).toBe(0);
      expect(t.glossary, `glossary terms with a ${locale} translation`).toBe(apiGlossary ? fixture.glossary.filter((g) => g.translations[locale]).length : 0);
    }
    // The German translation that lost its placeholders, reviewed on the platform, is imported as a human translation
    // (protected from machine passes) and named in the report.
    expect(first.report.gate_failures).toContainEqual(expect.objectContaining({ key: BROKEN_KEY, locale: 'de', gate: 'placeholders', state: 'human' }));
    if (apiMemory) expect(first.report.memory_units).toBeGreaterThanOrEqual(fixture.memory.length);
    // The glossary arrives before the translations are gated: the first import already flags the translations that
    // leave out a term's translation.
    const glossaryFailures = first.report.gate_failures.filter((f) => f.gate === 'glossary');
    expect(glossaryFailures.map((f) => [f.key, f.locale]).sort()).toEqual(apiGlossary ? [[FIXTURE_GLOSSARY_KEY, 'ar'], [FIXTURE_GLOSSARY_KEY, 'de']] : []);
    // Tags come across and are on the key.
    const tagged = fixture.keys.find((k) => k.tags.length === 2)!;
    const keys = await json<{ items: { key: string; tags: string[] }[] }>(await service.api(`/v1/keys?locale=de&q=${encodeURIComponent(tagged.key)}&limit=50`, { token: project.token }));
    expect(keys.items.find((k) => k.key === tagged.key)?.tags.sort()).toEqual([...tagged.tags].sort());
    expect(await allowance(project.token)).toBe(before);
  });

  it.skipIf(!apiGlossary && !apiMemory)('the glossary and the memory are in the project afterwards', async () => {
    if (apiGlossary) {
      const terms = await json<{ items: { term: string; translations: Record<string, string>; forbidden: boolean }[] }>(await service.api('/v1/glossary?limit=100', { token: project.token }));
      expect(terms.items.map((t) => t.term).sort()).toEqual(fixture.glossary.map((g) => g.term).sort());
      expect(terms.items.find((t) => t.term === 'Dashboard')?.translations).toEqual({ de: 'Übersicht', ar: 'لوحة التحكم' });
    }
    if (apiMemory) {
      const tmx = await (await service.api('/v1/memory/export?locales=de', { token: project.token })).text();
      for (const m of fixture.memory.filter((u) => u.locale === 'de').slice(0, 5)) {
        expect(tmx).toContain(m.source);
        expect(tmx).toContain(m.text);
      }
    }
  });

  it('reviewed translations become human translations, the others machine ones', async () => {
    const reviewedDe = expected('de').filter((t) => t.reviewed).length;
    const human = await json<{ items: { key: string; failures: { gate: string }[] }[] }>(await service.api('/v1/translations?state=human&locale=de&limit=500', { token: project.token }));
    const flagged = await json<{ items: { key: string; failures: { gate: string }[] }[] }>(await service.api('/v1/translations?state=flagged&locale=de&limit=500', { token: project.token }));
    expect(flagged.items.length).toBe(first.report.locales.de!.flagged);
    // The reviewed ones but the flagged: a review on the platform does not get a broken placeholder past the gates.
    expect(human.items.length).toBe(first.report.locales.de!.human);
    // Reviewed translations stay human ones even where a gate failed: the failure is kept on the row.
    expect(human.items.length).toBe(reviewedDe);
    expect(new Set(human.items.find((i) => i.key === BROKEN_KEY)?.failures.map((f) => f.gate))).toEqual(new Set(['placeholders']));
  });

  it('a pull afterwards gives the imported translations', async () => {
    const path = paths ? 'locales/en.json' : '';
    const res = await service.api(`/v1/pull?locale=pt-BR&path=${encodeURIComponent(path)}`, { token: project.token });
    expect(res.status).toBe(200);
    const pulled = JSON.parse(await res.text()) as Record<string, string>;
    for (const t of expected('pt-BR').filter((r) => !paths || r.key.path === 'locales/en.json')) expect(pulled[t.key.key], t.key.key).toBe(t.text);
  });

  it.skipIf(!paths)('keeps each source file and its format: a pull without a format answers in the file\'s own', async () => {
    const files = await json<{ items: { path: string; format: string; keys: number }[] }>(await service.api('/v1/files', { token: project.token }));
    expect(files.items.map((f) => [f.path, f.format, f.keys])).toEqual([
      [ANDROID_FILE, 'android_xml', FIXTURE_ANDROID_KEYS],
      ['locales/en.json', 'json', FIXTURE_JSON_KEYS],
    ]);
    const res = await service.api(`/v1/pull?locale=ar&path=${encodeURIComponent(ANDROID_FILE)}`, { token: project.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('strings.xml');
    const pulled = new Map(getCodec('android_xml')!.parse(new Uint8Array(await res.arrayBuffer())).map((e) => [e.key, e]));
    const rows = expected('ar').filter((t) => t.key.path === ANDROID_FILE);
    expect(pulled.size).toBe(rows.length);
    for (const t of rows) {
      if (t.plurals) expect(pulled.get(t.key.key)?.plurals, t.key.key).toEqual(t.plurals);
      else expect(pulled.get(t.key.key)?.source, t.key.key).toBe(t.text);
    }
    // Arabic's six CLDR forms, each from the platform.
    const plural = rows.find((t) => t.plurals)!;
    expect(Object.keys(pulled.get(plural.key.key)!.plurals!).sort()).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
  });

  it.skipIf(!paths)('a push of the same source file afterwards matches the imported keys', async () => {
    const file = `${JSON.stringify(Object.fromEntries(fixture.keys.filter((k) => k.path === 'locales/en.json').map((k) => [k.key, k.source])), null, 2)}\n`;
    const res = await service.api('/v1/push', { method: 'POST', token: project.token, body: filePush(file, { path: 'locales/en.json', format: 'json' }) });
    const batch = await json<{ keys: { added: number; changed: number; unchanged: number; removed: number } }>(res, 202);
    expect(batch.keys).toEqual({ added: 0, changed: 0, unchanged: FIXTURE_JSON_KEYS, removed: 0 });
  });

  it('running the same import again changes nothing', async () => {
    const again = await importApi(project.token, platform, mock);
    expect(again.status).toBe('completed');
    expect(again.report.keys).toEqual({ added: 0, updated: 0, unchanged: fixture.keys.length });
    // The same glossary failures as the first run: the glossary was in place for the first run's translations too.
    const glossaryFailures = (body: ImportBody) => body.report.gate_failures.filter((f) => f.gate === 'glossary');
    expect(glossaryFailures(again)).toEqual(glossaryFailures(first));
    const keys = await json<{ total: number }>(await service.api('/v1/keys?locale=de&limit=1', { token: project.token }));
    expect(keys.total).toBe(fixture.keys.length);
  });

  it('imports the export to the same keys, translations, memory and glossary', async () => {
    // An organisation of its own: memory is kept per organisation, and this one's must come from the export alone.
    const other = await newProject(`${platform} archive`, 'starter', true);
    const result = await importArchive(other.token, platform, archive(fixture));
    expect(result.error).toBeNull();
    expect(result.status).toBe('completed');
    expect(result.report.keys.added).toBe(fixture.keys.length);
    const api = await projectState(project.projectId);
    const exported = await projectState(other.projectId);

    // The fixture's 520 keys on each side, at their source file's path where that side knows it (Phrase's API gives a
    // key no file, its `phrase pull` export is laid out by file; Tolgee and POEditor know no files either way).
    const names = (withPaths: boolean) => fixture.keys.map((k) => `${withPaths ? k.path : ''}\u0000${k.key}`).sort();
    expect(Object.keys(api.keys).sort()).toEqual(names(paths));
    expect(Object.keys(exported.keys).sort()).toEqual(names(archivePaths));
    // Key names are unique across the fixture's files: with the paths checked, the two sides compare by key name.
    const byKey = <T,>(rows: Record<string, T>) => Object.fromEntries(Object.entries(rows).map(([name, row]) => [name.split('\u0000')[1]!, row]));
    const apiKeys = byKey(api.keys);
    const exportedKeys = byKey(exported.keys);
    for (const [key, k] of Object.entries(apiKeys)) {
      const e = exportedKeys[key]!;
      expect([e.source, e.plurals], key).toEqual([k.source, k.plurals]);
      // An export carries less about a key than the API (flat JSON holds no notes, files hold no tags or max lengths):
      // what it does carry is the API's.
      for (const field of ['notes', 'context', 'maxLength'] as const) if (e[field] !== null) expect(e[field], `${key} ${field}`).toEqual(k[field]);
      if (e.tags.length > 0) expect(e.tags, `${key} tags`).toEqual(k.tags);
    }

    for (const locale of fixture.targetLocales) {
      const fromApi = byKey(api.translations[locale] ?? {});
      const fromExport = byKey(exported.translations[locale] ?? {});
      expect(Object.keys(fromExport).sort(), locale).toEqual(Object.keys(fromApi).sort());
      expect(Object.keys(fromExport).length, locale).toBe(expected(locale).length);
      for (const [key, t] of Object.entries(fromApi)) {
        const e = fromExport[key]!;
        expect([e.text, e.plurals], `${locale} ${key}`).toEqual([t.text, t.plurals]);
        // An export carries no review state: every translation arrives unreviewed, accepted or flagged by the gates. The
        // placeholder-less German one is flagged, as is the glossary key's where the export brings a glossary; on the
        // API side, a reviewed one is a human translation, and the glossary key's is flagged where the API brings one.
        const gatedByGlossary = key === FIXTURE_GLOSSARY_KEY && (locale === 'de' || locale === 'ar');
        const flaggedInExport = (key === BROKEN_KEY && locale === 'de') || (gatedByGlossary && archiveGlossary);
        expect(e.state, `${locale} ${key}`).toBe(flaggedInExport ? 'flagged' : 'accepted');
        if (t.state !== 'human' && !(gatedByGlossary && apiGlossary !== archiveGlossary)) expect(e.state, `${locale} ${key}`).toBe(t.state);
      }
    }
    // Arabic's six forms of the Android plurals, from the export as from the API.
    const arabicPlurals = expected('ar').filter((t) => t.plurals);
    expect(arabicPlurals.length).toBeGreaterThan(0);
    for (const t of arabicPlurals) expect(byKey(exported.translations.ar!)[t.key.key]?.plurals, t.key.key).toEqual(t.plurals);

    // Memory and glossary where each side carries them: Lokalise's and Phrase's APIs give no translation memory (their
    // exports' TMX does), Transifex's API no glossary (its Glossary page's CSV does), Lokalise's and Phrase's exports no
    // glossary, POEditor neither memory nor glossary either way.
    const memory = fixture.memory.map((m) => `${m.locale}\u0000${m.source}\u0000${m.text}`).sort();
    expect(api.memory.sort()).toEqual(apiMemory ? memory : []);
    expect(exported.memory.sort()).toEqual(archiveMemory ? memory : []);
    const terms = fixture.glossary.map((g) => g.term).sort();
    expect(api.glossary.map((g) => g.term).sort()).toEqual(apiGlossary ? terms : []);
    expect(exported.glossary.map((g) => g.term).sort()).toEqual(archiveGlossary ? terms : []);
    if (apiGlossary && archiveGlossary) expect(exported.glossary).toEqual(api.glossary);
  });
});

/** What an import left in a project, by key (`path` NUL `key`): the keys, each locale's translations, the glossary and the memory units the platform's TM brought (the fixture's memory sentences) in its organisation. */
async function projectState(projectId: string) {
  const db = service.runtime.db;
  const project = await db.selectFrom('projects').select(['organisation_id']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const keyRows = await db.selectFrom('keys').select(['id', 'path', 'key', 'source', 'source_plurals', 'notes', 'context', 'max_length', 'tags']).where('project_id', '=', projectId).where('state', '=', 'active').execute();
  const name = new Map(keyRows.map((k) => [k.id, `${k.path}\u0000${k.key}`]));
  const keys = Object.fromEntries(keyRows.map((k) => [name.get(k.id)!, { source: k.source, plurals: k.source_plurals, notes: k.notes, context: k.context, maxLength: k.max_length, tags: [...(k.tags ?? [])].sort() }]));
  const rows = await db.selectFrom('translations as t').innerJoin('keys as k', 'k.id', 't.key_id').select(['t.key_id', 't.locale', 't.text', 't.plurals', 't.state'])
    .where('k.project_id', '=', projectId)
    .where('k.state', '=', 'active')
    // What the import wrote, not what the service's machine pass wrote since into the keys left untranslated.
    .where('t.origin', 'like', 'import:%')
    .execute();
  const translations: Record<string, Record<string, { text: string; plurals: unknown; state: string }>> = {};
  for (const r of rows) (translations[r.locale] ??= {})[name.get(r.key_id)!] = { text: r.text, plurals: r.plurals, state: r.state };
  const glossary = (await db.selectFrom('glossary_terms').select(['term', 'translations', 'forbidden', 'notes', 'case_sensitive']).where('project_id', '=', projectId).orderBy('term').execute()).map((g) => ({ ...g }));
  const memory = (await db.selectFrom('memory_entries').select(['locale', 'source', 'text']).where('organisation_id', '=', project.organisation_id).where('source', 'like', 'Memory sentence %').orderBy('locale').orderBy('source').execute()).map((m) => `${m.locale}\u0000${m.source}\u0000${m.text}`);
  return { keys, translations, glossary, memory };
}

describe('the import job', () => {
  it('refuses a bad platform token with a clear, final error', async () => {
    const mock = await startPoeditorMock(fixture);
    try {
      const project = await newProject('bad token');
      const result = await importApi(project.token, 'poeditor', { ...mock, token: 'wrong-token-1234' });
      expect(result.status).toBe('failed');
      expect(result.error).toMatch(/POEditor/);
      expect(result.report.keys.added).toBe(0);
    } finally {
      await mock.stop();
    }
  });

  it('holds unreviewed translations for review when asked, and a dry run writes nothing', async () => {
    const mock = await startLokaliseMock(fixture);
    try {
      const project = await newProject('hold');
      const dry = await importApi(project.token, 'lokalise', mock, { dry_run: true });
      expect(dry.report.keys.added).toBe(fixture.keys.length);
      expect((await json<{ total: number }>(await service.api('/v1/keys?locale=de&limit=1', { token: project.token }))).total).toBe(0);
      const held = await importApi(project.token, 'lokalise', mock, { unreviewed: 'hold' });
      expect(held.report.locales['pt-BR']!.held).toBe(expected('pt-BR').length);
      const queue = await json<{ items: unknown[] }>(await service.api('/v1/translations?state=held&locale=pt-BR&limit=500', { token: project.token }));
      expect(queue.items.length).toBe(expected('pt-BR').length);
    } finally {
      await mock.stop();
    }
  });

  it('keeps a translation a person wrote in Parlance, unless told to overwrite', async () => {
    const mock = await startTolgeeMock(fixture);
    try {
      const project = await newProject('conflict');
      await importApi(project.token, 'tolgee', mock);
      const key = fixture.keys.find((k) => !k.plurals && !k.source.startsWith('Hello'))!;
      const put = await service.api(`/v1/translations/${encodeURIComponent(key.key)}/de?path=`, { method: 'PUT', token: project.token, json: { text: 'Von Hand' } });
      expect(put.status, await put.text()).toBe(200);
      const kept = await importApi(project.token, 'tolgee', mock);
      expect(kept.report.locales.de!.kept).toBeGreaterThanOrEqual(1);
      const pulled = async () => JSON.parse(await (await service.api('/v1/pull?locale=de&format=json&path=', { token: project.token })).text()) as Record<string, string>;
      expect((await pulled())[key.key]).toBe('Von Hand');
      await importApi(project.token, 'tolgee', mock, { conflict: 'overwrite' });
      expect((await pulled())[key.key]).toBe(`DE ${key.source}`);
    } finally {
      await mock.stop();
    }
  });

  it('refuses an upload that is no export, and a request that is neither JSON nor multipart', async () => {
    const project = await newProject('bad upload');
    const form = new FormData();
    form.set('platform', 'crowdin');
    form.set('file', new Blob([Uint8Array.of(0x7b, 0xff, 0xfe, 0x7d)]), 'broken.json');
    const res = await service.api('/v1/imports', { method: 'POST', token: project.token, body: form });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/broken\.json is neither a zip archive nor a UTF-8 text file/);
    const bare = await service.api('/v1/imports', { method: 'POST', token: project.token });
    expect(bare.status).toBe(415);
    expect((await json<{ items: unknown[] }>(await service.api('/v1/imports', { token: project.token }))).items).toEqual([]);
  });

  it('works on the free plan, charging nothing', async () => {
    const project = await newProject('free', 'free');
    const before = await allowance(project.token);
    const result = await importArchive(project.token, 'poeditor', poeditorArchive(fixture));
    expect(result.status).toBe('completed');
    expect(result.report.keys.added).toBe(fixture.keys.length);
    expect(await allowance(project.token)).toBe(before);
  });

  it('cancels a running import: it stops, and the project holds exactly the chunks committed before', async () => {
    const mock = await startTransifexMock(fixture, { pageSize: 10 });
    try {
      const project = await newProject('cancel');
      // The second page of the first file's strings is held at the mock: the reader waits on it with the first page's
      // ten keys committed (each page is emitted before the next is asked for), and the cancel lands there.
      const held = mock.hold((method, url) => method === 'GET' && url.pathname === '/resource_strings' && url.searchParams.get('page[cursor]') === Buffer.from('10').toString('base64url'));
      const queued = await json<ImportBody>(
        await service.api('/v1/imports', { method: 'POST', token: project.token, json: { platform: 'transifex', api: { token: mock.token, project: mock.projectId, base_url: mock.url } } }),
        202,
      );
      await held.reached;
      const keyCount = async () => (await json<{ total: number }>(await service.api('/v1/keys?locale=de&limit=1', { token: project.token }))).total;
      expect(await keyCount()).toBe(10);
      const cancelled = await json<ImportBody>(await service.api(`/v1/imports/${queued.id}/cancel`, { method: 'POST', token: project.token }));
      expect(cancelled.status).toBe('cancelled');
      const asked = mock.requests.length;
      held.release();
      // The running worker dropped the request it waited on when the cancel came: the held page was never read.
      expect(await held.settled).toBe('aborted');
      const final = await json<ImportBody>(await service.api(`/v1/imports/${queued.id}`, { token: project.token }));
      expect(final.status).toBe('cancelled');
      // The report is saved in the transaction of each chunk: the keys in the project are the ones it counts.
      expect(final.report.keys.added).toBe(10);
      expect(await keyCount()).toBe(10);
      expect(mock.requests.length).toBe(asked);
      const row = await service.runtime.db.selectFrom('imports').select(['credentials_ciphertext', 'lease_owner']).where('id', '=', queued.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ credentials_ciphertext: null, lease_owner: null });
      // A cancelled import cannot be cancelled again.
      expect((await service.api(`/v1/imports/${queued.id}/cancel`, { method: 'POST', token: project.token })).status).toBe(409);
    } finally {
      await mock.stop();
    }
  });

  it.each([
    {
      platform: 'lokalise',
      // Lokalise's keys with cursor pagination carry no X-Pagination-Total-Count: the total is the project's keys_total.
      start: () => startLokaliseMock(fixture),
      second: (url: URL) => url.pathname.endsWith('/keys') && url.searchParams.has('cursor'),
    },
    // Phrase's Pagination header gives the key list's total_count.
    { platform: 'phrase', start: () => startPhraseMock(fixture), second: (url: URL) => url.pathname.endsWith('/keys') && url.searchParams.get('page') === '2' },
    // Tolgee's page metadata gives totalElements with each cursor page.
    { platform: 'tolgee', start: () => startTolgeeMock(fixture), second: (url: URL) => url.pathname.endsWith('/translations') && url.searchParams.has('cursor') },
  ])('reports the number of keys while it reads them from $platform', async ({ platform, start, second }) => {
    const mock = await start();
    try {
      const project = await newProject(`${platform} progress`);
      // The second keys page is held at the mock: the import stands in its keys stage, its first page read.
      const held = mock.hold((method, url) => method === 'GET' && second(url));
      const queued = await json<ImportBody>(await service.api('/v1/imports', { method: 'POST', token: project.token, json: { platform, api: { token: mock.token, project: mock.projectId, base_url: mock.url } } }), 202);
      await held.reached;
      // Progress is written at most every quarter second, the latest report at the end of one: poll for it (an earlier
      // one may be there first), the keys read so far being the ones written.
      let now = await json<ImportBody>(await service.api(`/v1/imports/${queued.id}`, { token: project.token }));
      for (let i = 0; i < 100 && !(now.progress.total !== undefined && now.progress.done === now.report.keys.added); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        now = await json<ImportBody>(await service.api(`/v1/imports/${queued.id}`, { token: project.token }));
      }
      expect(now.status).toBe('running');
      expect(now.progress.message).toMatch(/keys/i);
      expect(now.progress.total).toBe(fixture.keys.length);
      expect(now.progress.done).toBe(now.report.keys.added);
      expect(now.progress.done).toBeGreaterThan(0);
      expect(now.progress.done).toBeLessThan(fixture.keys.length);
      held.release();
      expect((await finished(project.token, queued.id)).status).toBe('completed');
    } finally {
      await mock.stop();
    }
  });

  it("forgets the platform's token and the uploaded export once an import ends", async () => {
    const mock = await startPoeditorMock(fixture);
    try {
      const project = await newProject('forget');
      const viaApi = await importApi(project.token, 'poeditor', mock);
      const viaArchive = await importArchive(project.token, 'poeditor', poeditorArchive(fixture));
      expect([viaApi.status, viaArchive.status]).toEqual(['completed', 'completed']);
      const rows = await service.runtime.db
        .selectFrom('imports')
        .select(['id', 'source', 'credentials_ciphertext', sql<boolean>`archive is null`.as('archive_cleared'), 'archive_name'])
        .where('id', 'in', [viaApi.id, viaArchive.id])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.source, r.credentials_ciphertext, r.archive_cleared])).toEqual([
        ['api', null, true],
        ['archive', null, true],
      ]);
      expect(rows[1]!.archive_name).toBe('poeditor-export.zip');
    } finally {
      await mock.stop();
    }
  });

  it('needs the manage ability to start, list or cancel an import', async () => {
    const project = await newProject('abilities');
    const token = await service.mintToken({ projectId: project.projectId, abilities: ['read', 'pull', 'push', 'write'] });
    const post = await service.api('/v1/imports', { method: 'POST', token, json: { platform: 'poeditor', api: { token: 'x'.repeat(32), project: '1' } } });
    expect(post.status).toBe(403);
    expect(((await post.json()) as { detail: string }).detail).toMatch(/manage/);
    expect((await service.api('/v1/imports', { token })).status).toBe(403);
    expect((await service.api('/v1/imports/imp_x/cancel', { method: 'POST', token })).status).toBe(403);
    expect((await json<{ items: unknown[] }>(await service.api('/v1/imports', { token: project.token }))).items).toEqual([]);
  });

  it('a resumed import leaves out the locales the plan refused, even where the reader sends no locales again', async () => {
    const mock = await startCrowdinMock(fixture);
    try {
      // A free plan has 15 locale rows: with the source and 13 targets, ar takes the last one and pt-BR finds none.
      const organisation = await service.runtime.organisations.createOrganisation({ name: 'refused org', plan: 'free' });
      const created = await service.runtime.organisations.createProject({ organisationId: organisation.id, name: 'refused', sourceLocale: 'en', targetLocales: ['de', 'fr', 'es', 'it', 'nl', 'sv', 'da', 'fi', 'pl', 'cs', 'ja', 'ko', 'zh'] });
      const token = await service.mintToken({ projectId: created.id, abilities: ['read', 'pull', 'write', 'manage'], kind: 'session', expiresAt: new Date(Date.now() + 3_600_000) });
      const first = await importApi(token, 'crowdin', mock);
      expect(first.status).toBe('completed');
      expect(first.report.languages_added).toEqual(['ar']);
      expect(first.report.locales_refused).toEqual(['pt-BR']);
      // As a worker that died after saving a checkpoint inside the translations would leave it: running, its lease
      // lapsed, to resume at the first language's translations of the first file (Crowdin sends no locales there).
      const { sealSecret } = await import('../../server/github-app/crypto.js');
      const credentials = sealSecret(service.config.secretKey!, JSON.stringify({ token: mock.token, project: mock.projectId, baseUrl: mock.url }), `imports:${first.id}:credentials`);
      await service.runtime.db
        .updateTable('imports')
        .set({ status: 'running', finished_at: null, credentials_ciphertext: credentials, checkpoint: JSON.stringify({ stage: 'files', file: 0, language: 0, offset: 0 }), lease_owner: 'gone', lease_expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', first.id)
        .execute();
      const resumed = await finished(token, first.id);
      expect(resumed.status).toBe('completed');
      expect(resumed.report.locales_refused).toEqual(['pt-BR']);
      expect(resumed.report.warnings.filter((w) => w.message.includes("'pt-BR'"))).toHaveLength(1);
      const written = await service.runtime.db.selectFrom('translations as t').innerJoin('keys as k', 'k.id', 't.key_id').select((eb) => eb.fn.countAll<string>().as('n')).where('k.project_id', '=', created.id).where('t.locale', '=', 'pt-BR').executeTakeFirstOrThrow();
      expect(Number(written.n)).toBe(0);
    } finally {
      await mock.stop();
    }
  });

  it('resumes from its checkpoint after the service stops mid-import, without duplicates', async () => {
    const mock = await startTransifexMock(fixture, { pageSize: 40 });
    const project = await newProject('resume');
    try {
      // Every page is slow: the service stops while the import is part-way through.
      const queued = await json<ImportBody>(
        await service.api('/v1/imports', { method: 'POST', token: project.token, json: { platform: 'transifex', api: { token: mock.token, project: mock.projectId, base_url: mock.url } } }),
        202,
      );
      for (let i = 0; i < 200; i++) {
        const now = await json<ImportBody>(await service.api(`/v1/imports/${queued.id}`, { token: project.token }));
        if (now.report.keys.added > 0 || now.status !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await service.runtime.stop();
      const stopped = await service.runtime.db;
      void stopped;
      const runtime = await createRuntime(service.config, { roles: { api: true, worker: true }, log: createLogger('silent') });
      const { url } = await runtime.start();
      try {
        const result = await finished(project.token, queued.id, url!);
        expect(result.error).toBeNull();
        expect(result.status).toBe('completed');
        expect(result.report.keys.added).toBe(fixture.keys.length);
        const keys = await json<{ total: number }>(await fetch(`${url}/v1/keys?locale=de&limit=1`, { headers: { authorization: `Bearer ${project.token}` } }));
        expect(keys.total).toBe(fixture.keys.length);
      } finally {
        await runtime.stop();
        // The test service's own stop drops the backend; its runtime is already stopped.
        service.runtime = runtime;
      }
    } finally {
      await mock.stop();
    }
  });
});

