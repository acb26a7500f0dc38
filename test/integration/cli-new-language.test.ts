/**
 * A language added after the files were pushed, through the `parlance` binary against an in-process service whose
 * provider is the OpenAI wire mock: `languages add` queues the translation of every existing key, `status --wait`
 * follows it, `translate-missing` translates what is still missing, and `pull` writes the new files filled in.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

const COMMON = { title: 'My shop', cart: 'Your cart' };
const ERRORS = { network: 'The network is down', retry: 'Try again' };

let service: TestService;
let mock: MockOpenAI;
let repo: string;

function cli(...args: string[]): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd: repo, env: { ...process.env, PARLANCE_URL: service.url, PARLANCE_TOKEN: service.token } });
}

function readJson(path: string): Record<string, string> {
  return JSON.parse(readFileSync(join(repo, path), 'utf8')) as Record<string, string>;
}

const translated = (source: Record<string, string>, locale: string) => Object.fromEntries(Object.entries(source).map(([key, text]) => [key, mockTranslate(text, locale)]));

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' } });
  repo = mkdtempSync(join(tmpdir(), 'parlance-new-language-'));
  mkdirSync(join(repo, 'locales/en'), { recursive: true });
  writeFileSync(join(repo, 'locales/en/common.json'), `${JSON.stringify(COMMON, null, 2)}\n`);
  writeFileSync(join(repo, 'locales/en/errors.json'), `${JSON.stringify(ERRORS, null, 2)}\n`);
  // No `locales:`: the project's target languages, so a language added on the service is pulled too.
  writeFileSync(join(repo, 'parlance.yml'), 'files:\n  - source: locales/en/*.json\n    translation: locales/{locale}/{name}.json\n');
});

afterAll(async () => {
  await service?.stop();
  await mock?.close();
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('a new language', () => {
  it('languages add queues every existing key; status --wait follows the batch; pull writes the translated files', async () => {
    const pushed = await cli('push', '--wait');
    expect(pushed.code, pushed.stderr).toBe(0);

    const added = await cli('languages', 'add', 'es');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added es');
    const id = /Queued batch (bat_\w+): 4 keys to translate into es \(\d+ words?\)\./.exec(added.stdout)?.[1];
    expect(id, added.stdout).toBeDefined();
    expect(added.stdout).toContain(`parlance status ${id} --wait`);

    const status = await cli('status', id!, '--wait');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`Batch ${id} completed`);

    const pulled = await cli('pull');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(readJson('locales/es/common.json')).toEqual(translated(COMMON, 'es'));
    expect(readJson('locales/es/errors.json')).toEqual(translated(ERRORS, 'es'));
  });

  it('translate-missing --wait translates what has no translation, and then finds nothing', async () => {
    // A reviewer's rejection takes the translation out: the key is missing in es again.
    const rejected = await service.api(`/v1/translations/retry/es/review?path=${encodeURIComponent('locales/en/errors.json')}`, { method: 'POST', json: { decision: 'reject' } });
    expect(rejected.status).toBe(200);
    const before = mock.rows.length;

    const run = await cli('translate-missing', '--locale', 'es', '--wait');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Queued batch bat_\w+: 1 row \(\d+ words?\) for es\./);
    expect(run.stdout).toMatch(/Batch bat_\w+ completed/);
    // The translation memory answers it (the rejected text was remembered before): no provider call.
    expect(run.stdout).toMatch(/rows {3}1 row: 1 \w+/);
    expect(mock.rows.length).toBe(before);

    const again = await cli('translate-missing', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { batch: { rows: { total: number } } }).batch.rows.total).toBe(0);
    const quiet = await cli('translate-missing');
    expect(quiet.stdout).toContain('Nothing to translate');

    const pulled = await cli('pull');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(readJson('locales/es/errors.json')).toEqual(translated(ERRORS, 'es'));
  });

  it('translate-missing refuses a bad locale and a locale outside the project; a language added back queues nothing', async () => {
    const bad = await cli('translate-missing', '--locale', 'en_us2');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid --locale 'en_us2'");
    const outside = await cli('translate-missing', '--locale', 'pt-BR');
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain("'pt-BR'");
    // A language added back keeps the translations it had: nothing is queued again.
    expect((await cli('languages', 'rm', 'es')).code).toBe(0);
    const back = await cli('languages', 'add', 'es', '--json');
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ tag: 'es', batch: { status: 'completed', rows: { total: 0 } }, batch_problem: null });
    const help = await cli('--help');
    expect(help.stdout).toMatch(/^ {2}translate-missing\b/m);
  });
  it('sync waits for a batch queued before it (a language just added) and writes its files', async () => {
    mock.hold();
    const added = await cli('languages', 'add', 'it');
    expect(added.code, added.stderr).toBe(0);
    const id = /Queued batch (bat_\w+)/.exec(added.stdout)?.[1];
    expect(id, added.stdout).toBeDefined();

    // The provider holds the batch until this sync says it is waiting for it: the sync cannot find it finished.
    const child = spawn(process.execPath, [BIN, 'sync'], { cwd: repo, env: { ...process.env, PARLANCE_URL: service.url, PARLANCE_TOKEN: service.token }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`waiting for batch ${id}`)) mock.release();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    mock.release();
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stderr).toContain(`waiting for batch ${id}`);
    expect(readJson('locales/it/common.json')).toEqual(translated(COMMON, 'it'));
    expect(readJson('locales/it/errors.json')).toEqual(translated(ERRORS, 'it'));
  });
});
