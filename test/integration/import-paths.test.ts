/**
 * The repository path rule at every import entrance, through POST /v1/imports: each platform's export with entries
 * named `../`, absolute, with backslashes or a NUL (and a config naming a source outside the repository) imports its
 * good files, skips the bad ones and names each in the report with the rule's reason; GET /v1/files lists none of
 * them. A Transifex project whose API names a resource `../evil.json` is refused the same way, and the writer refuses
 * a bad path a reader let through.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImportWriter, emptyReport } from '../../server/imports/import-writer.js';
import type { ImportFixture } from '../helpers/import-fixture.js';
import { startTransifexMock } from '../helpers/platform-mocks/transifex.js';
import { startService, type TestService } from '../helpers/service.js';

interface ImportBody {
  id: string;
  status: string;
  error: string | null;
  report: {
    keys: { added: number };
    locales: Record<string, { translations: number }>;
    warnings: { message: string }[];
    refused_paths: { path: string; problem: string; message: string }[];
    refused_paths_count: number;
  };
}

let service: TestService;

beforeAll(async () => {
  service = await startService({ env: { PARLANCE_SECRET_KEY: 'c'.repeat(64), RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await service?.stop();
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function newProject(name: string): Promise<string> {
  return (await newProjectWithId(name)).token;
}

async function newProjectWithId(name: string): Promise<{ projectId: string; token: string }> {
  const project = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name, sourceLocale: 'en', targetLocales: ['de'] });
  return { projectId: project.id, token: await service.mintToken({ projectId: project.id, abilities: ['read', 'pull', 'push', 'write', 'manage'] }) };
}

async function finished(token: string, id: string): Promise<ImportBody> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = await json<ImportBody>(await service.api(`/v1/imports/${id}`, { token }));
    if (['completed', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function filePaths(token: string): Promise<string[]> {
  return (await json<{ items: { path: string }[] }>(await service.api('/v1/files', { token }))).items.map((f) => f.path);
}

const text = (value: unknown) => strToU8(typeof value === 'string' ? value : JSON.stringify(value));
const REASONS: Record<string, RegExp> = {
  dot_segment: /'\.\.' segments are not allowed/,
  absolute: /absolute paths are not allowed/,
  backslash: /backslashes are not allowed/,
  control_character: /control character U\+0000/,
};

interface Case {
  platform: 'crowdin' | 'lokalise' | 'phrase' | 'tolgee' | 'transifex' | 'poeditor';
  good: Record<string, unknown>;
  /** Entry name → its content: each must be refused. */
  bad: Record<string, unknown>;
  /** Printable path → problem, in the report: the bad entries, and paths a config derives. */
  refused: Record<string, string>;
  /** The source files GET /v1/files lists afterwards. */
  files: string[];
}

const EVIL = { evil: 'Evil' };
const CASES: Case[] = [
  {
    platform: 'crowdin',
    good: { 'locales/en.json': { hello: 'Hello', bye: 'Goodbye' }, 'de/locales/en.json': { hello: 'Hallo', bye: 'Tschüss' } },
    // Crowdin's layout: `de/../../evil.json` is the German of the source `../../evil.json`.
    bad: { '../../evil.json': EVIL, 'de/../../evil.json': EVIL, '/etc/evil.json': EVIL, 'de\\..\\evil.json': EVIL, 'locales/evil\u0000.json': EVIL },
    refused: { '../../evil.json': 'dot_segment', 'de/../../evil.json': 'dot_segment', '/etc/evil.json': 'absolute', 'de\\..\\evil.json': 'backslash', 'locales/evil\\u0000.json': 'control_character' },
    files: ['locales/en.json'],
  },
  {
    platform: 'lokalise',
    good: { 'en/locales/en.json': { hello: 'Hello', bye: 'Goodbye' }, 'de/locales/de.json': { hello: 'Hallo', bye: 'Tschüss' } },
    bad: { 'en/../../evil.json': EVIL, '../en/evil.json': EVIL, '/en/evil.json': EVIL, 'en\\..\\evil.json': EVIL, 'en/evil\u0000.json': EVIL },
    refused: { 'en/../../evil.json': 'dot_segment', '../en/evil.json': 'dot_segment', '/en/evil.json': 'absolute', 'en\\..\\evil.json': 'backslash', 'en/evil\\u0000.json': 'control_character' },
    files: ['locales/en.json'],
  },
  {
    platform: 'phrase',
    good: {
      // The second push source lies outside the repository: refused from .phrase.yml itself, no entry needed.
      '.phrase.yml': [
        'phrase:',
        '  file_format: simple_json',
        '  push:',
        '    sources:',
        '      - file: ./locales/en.json',
        '        params: { locale_id: en }',
        '      - file: ../outside.json',
        '        params: { locale_id: en }',
        '  pull:',
        '    targets:',
        '      - file: ./locales/<locale_name>.json',
        '',
      ].join('\n'),
      'locales/en.json': { hello: 'Hello', bye: 'Goodbye' },
      'locales/de.json': { hello: 'Hallo', bye: 'Tschüss' },
    },
    bad: { '../../evil.json': EVIL, 'locales/../../fr.json': EVIL, '/locales/fr.json': EVIL, 'locales\\..\\fr.json': EVIL, 'locales/fr\u0000.json': EVIL },
    refused: {
      '../../evil.json': 'dot_segment',
      'locales/../../fr.json': 'dot_segment',
      '/locales/fr.json': 'absolute',
      'locales\\..\\fr.json': 'backslash',
      'locales/fr\\u0000.json': 'control_character',
      '../outside.json': 'dot_segment',
    },
    files: ['locales/en.json'],
  },
  {
    platform: 'tolgee',
    good: { 'en.json': { hello: 'Hello', bye: 'Goodbye' }, 'de.json': { hello: 'Hallo', bye: 'Tschüss' } },
    bad: { '../../fr.json': EVIL, 'de/../../fr.json': EVIL, '/fr.json': EVIL, 'de\\..\\fr.json': EVIL, 'fr\u0000.json': EVIL },
    refused: { '../../fr.json': 'dot_segment', 'de/../../fr.json': 'dot_segment', '/fr.json': 'absolute', 'de\\..\\fr.json': 'backslash', 'fr\\u0000.json': 'control_character' },
    // Tolgee's export names no repository file: its keys have none.
    files: [],
  },
  {
    platform: 'transifex',
    good: {
      '.tx/config': [
        '[main]',
        'host = https://app.transifex.com',
        '',
        '[o:acme:p:app:r:web]',
        'file_filter = locales/<lang>.json',
        'source_file = locales/en.json',
        'source_lang = en',
        'type = KEYVALUEJSON',
        '',
        '[o:acme:p:app:r:outside]',
        'file_filter = ../<lang>/outside.json',
        'source_file = ../outside.json',
        'source_lang = en',
        'type = KEYVALUEJSON',
        '',
      ].join('\n'),
      'locales/en.json': { hello: 'Hello', bye: 'Goodbye' },
      'locales/de.json': { hello: 'Hallo', bye: 'Tschüss' },
    },
    bad: { '../../evil.json': EVIL, 'locales/../../fr.json': EVIL, '/locales/fr.json': EVIL, 'locales\\..\\fr.json': EVIL, 'locales/fr\u0000.json': EVIL },
    refused: {
      '../../evil.json': 'dot_segment',
      'locales/../../fr.json': 'dot_segment',
      '/locales/fr.json': 'absolute',
      'locales\\..\\fr.json': 'backslash',
      'locales/fr\\u0000.json': 'control_character',
      '../outside.json': 'dot_segment',
    },
    files: ['locales/en.json'],
  },
  {
    platform: 'poeditor',
    good: {
      'en.json': [
        { term: 'hello', definition: 'Hello' },
        { term: 'bye', definition: 'Goodbye' },
      ],
      'de.json': [
        { term: 'hello', definition: 'Hallo' },
        { term: 'bye', definition: 'Tschüss' },
      ],
    },
    // Read, any of these would have failed the import: two files for 'fr', or a name that is no language code.
    bad: { '../../fr.json': [], 'de/../../fr.json': [], '/fr.json': [], 'de\\..\\fr.json': [], 'fr\u0000.json': [] },
    refused: { '../../fr.json': 'dot_segment', 'de/../../fr.json': 'dot_segment', '/fr.json': 'absolute', 'de\\..\\fr.json': 'backslash', 'fr\\u0000.json': 'control_character' },
    files: [],
  },
];

describe.each(CASES)('a $platform export with entries outside the repository', ({ platform, good, bad, refused, files }) => {
  it('imports the good files, skips each bad one with the reason in the report, and stores no bad path', async () => {
    const token = await newProject(`${platform} paths`);
    const entries = Object.fromEntries(Object.entries({ ...good, ...bad }).map(([name, value]) => [name, text(value)]));
    const form = new FormData();
    form.set('platform', platform);
    form.set('file', new Blob([zipSync(entries) as Uint8Array<ArrayBuffer>]), `${platform}-export.zip`);
    const queued = await json<ImportBody>(await service.api('/v1/imports', { method: 'POST', token, body: form }), 202);
    const done = await finished(token, queued.id);

    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.report.keys.added).toBe(2);
    expect(done.report.locales.de?.translations).toBe(2);
    const listed = Object.fromEntries(done.report.refused_paths.map((r) => [r.path, r.problem]));
    expect(listed).toEqual(refused);
    expect(done.report.refused_paths_count).toBe(Object.keys(refused).length);
    for (const r of done.report.refused_paths) {
      expect(r.message).toContain(`Skipped '${r.path}'`);
      expect(r.message).toMatch(REASONS[r.problem]!);
      // Printable: a NUL reaches no log or terminal.
      expect(r.message).not.toContain('\u0000');
    }
    expect(await filePaths(token)).toEqual(files);
  });
});

describe('a platform API naming a file outside the repository', () => {
  it('Transifex: the resource named ../evil.json is skipped and reported, the rest imported', async () => {
    const fixture: ImportFixture = {
      sourceLocale: 'en',
      targetLocales: ['de'],
      files: [
        { path: 'locales/en.json', format: 'json' },
        { path: '../evil.json', format: 'json' },
      ],
      keys: [
        { id: 1, path: 'locales/en.json', format: 'json', key: 'hello', source: 'Hello', tags: [] },
        { id: 2, path: 'locales/en.json', format: 'json', key: 'bye', source: 'Goodbye', tags: [] },
        { id: 3, path: '../evil.json', format: 'json', key: 'evil', source: 'Evil', tags: [] },
      ],
      translations: [
        { keyId: 1, locale: 'de', text: 'Hallo', reviewed: true },
        { keyId: 2, locale: 'de', text: 'Tschüss', reviewed: false },
        { keyId: 3, locale: 'de', text: 'Böse', reviewed: true },
      ],
      memory: [],
      glossary: [],
    };
    const mock = await startTransifexMock(fixture);
    try {
      const token = await newProject('transifex api paths');
      const queued = await json<ImportBody>(
        await service.api('/v1/imports', { method: 'POST', token, json: { platform: 'transifex', api: { token: mock.token, project: mock.projectId, base_url: mock.url } } }),
        202,
      );
      const done = await finished(token, queued.id);

      expect(done.status, done.error ?? '').toBe('completed');
      expect(done.report.keys.added).toBe(2);
      expect(done.report.locales.de?.translations).toBe(2);
      expect(done.report.refused_paths).toEqual([
        { path: '../evil.json', problem: 'dot_segment', message: expect.stringMatching(/^Skipped '\.\.\/evil\.json' \(the name of Transifex resource o:.*\): '\.\.' segments are not allowed\.$/) },
      ]);
      expect(await filePaths(token)).toEqual(['locales/en.json']);
      // The skipped resource's strings were never asked for.
      expect(mock.requests.some((r) => r.path.includes('evil'))).toBe(false);
    } finally {
      await mock.stop();
    }
  });
});

describe('the import writer', () => {
  it('refuses keys and translations whose path a reader let through, and stores the rest', async () => {
    const { projectId, token } = await newProjectWithId('writer paths');
    const report = emptyReport();
    const writer = createImportWriter({ projectId, platform: 'crowdin', options: { conflict: 'keep_human', unreviewed: 'accept', dryRun: false }, report });
    const key = (path: string, name: string) => ({ ref: `${path} ${name}`, path, format: 'json' as const, key: name, source: name });
    const row = (path: string, name: string) => ({ ref: `${path} ${name} de`, path, key: name, locale: 'de', text: `${name} (de)`, reviewed: false });
    await writer.write(service.runtime.db, [
      { kind: 'locales', source: 'en', targets: ['de'] },
      { kind: 'keys', keys: [key('locales/en.json', 'hello'), key('../evil.json', 'evil'), key('/etc/evil.json', 'etc'), key('', 'pathless')] },
      { kind: 'translations', rows: [row('locales/en.json', 'hello'), row('../evil.json', 'evil'), row('/etc/evil.json', 'etc'), row('', 'pathless')] },
    ]);
    await writer.finish(service.runtime.db);

    expect(report.keys.added).toBe(2);
    expect(report.locales.de?.translations).toBe(2);
    expect(report.refused_paths.map((r) => [r.path, r.problem])).toEqual([
      ['../evil.json', 'dot_segment'],
      ['/etc/evil.json', 'absolute'],
    ]);
    expect(report.refused_paths_count).toBe(2);
    // No warning about translations of keys the import "did not read": the refusal says it once.
    expect(report.warnings).toEqual([]);
    expect(await filePaths(token)).toEqual(['locales/en.json']);
    const stored = await service.runtime.db.selectFrom('keys').select('path').where('project_id', '=', projectId).execute();
    expect(stored.map((k) => k.path).sort()).toEqual(['', 'locales/en.json']);
  });
});
