/**
 * The GitHub Action as the runner runs it: the committed dist/index.js in a Node 24 subprocess, inputs as
 * INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files, against the real service in-process with
 * the OpenAI wire mock as its provider. Asserts outputs, workflow-command annotations, the summary, the written
 * locale files and the exit status.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INPUT_NAMES } from '../../src/action/inputs.js';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { node24Binary } from '../helpers/node24.js';
import { annotations, runAction as runActionIn, type ActionRun } from '../helpers/run-action.js';
import { startService, type TestService } from '../helpers/service.js';

const ACTION_YML = join(import.meta.dirname, '../../action.yml');
const FIXTURE = join(import.meta.dirname, '../fixtures/action-repo');
const SOURCE = 'web/locales/en/app.json';

let service: TestService;
let mock: MockOpenAI;
let node: string;
let workspace: string;
const scratch: string[] = [];

beforeAll(async () => {
  node = await node24Binary();
  mock = await startMockOpenAI();
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  workspace = temporaryCopy(FIXTURE);
}, 360_000);
afterAll(async () => {
  await service?.stop();
  await mock?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  mock.script = undefined;
});

function temporaryCopy(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'parlance-action-repo-'));
  scratch.push(dir);
  cpSync(from, dir, { recursive: true });
  return dir;
}

/** Runs dist/index.js as the runner does; the service answers from this process, so the child must not block it (no spawnSync). */
function runAction(inputs: Record<string, string>, where = workspace): Promise<ActionRun> {
  return runActionIn(node, { workspace: where, inputs });
}

function baseInputs(extra: Record<string, string> = {}): Record<string, string> {
  return { token: service.token, 'service-url': service.url, 'working-directory': 'web', ...extra };
}

function readLocale(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(join(workspace, `web/locales/${locale}/app.json`), 'utf8')) as Record<string, string>;
}

/** Adds a key as the last entry of the source file; returns its 1-based line. */
function addSourceKey(key: string, text: string): number {
  const path = join(workspace, SOURCE);
  const source = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  source[key] = text;
  writeFileSync(path, `${JSON.stringify(source, null, 2)}\n`);
  return readFileSync(path, 'utf8').split('\n').findIndex((line) => line.startsWith(`  "${key}":`)) + 1;
}

/** Drops the first placeholder, as a model that "translates" one does, on every attempt: the row is refused. */
const breakPlaceholderOf = (key: string) => (row: { key: string; text: string }, { locale }: { locale: string }) =>
  row.key === key ? mockTranslate(row.text, locale).replace(/<ph id="0"\/>/, '{etwas}') : undefined;

describe('the Action (dist/index.js under Node 24)', () => {
  it('syncs: pushes the source, waits, writes every locale file, sets the outputs and the summary, exits 0', async () => {
    const run = await runAction(baseInputs());
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`::add-mask::${service.token}`);
    expect(run.stdout.replace(`::add-mask::${service.token}`, '')).not.toContain(service.token);
    expect(annotations(run, 'error')).toEqual([]);

    expect(run.outputs['batch-id']).toMatch(/^\S+$/);
    expect(run.outputs).toMatchObject({ translated: '6', refused: '0', flagged: '0', 'changed-files': 'web/locales/de/app.json\nweb/locales/fr/app.json' });
    expect(readLocale('de')).toEqual({ greeting: 'de: HELLO, {name}!', inbox: 'de: YOU HAVE {count} NEW MESSAGES', farewell: 'de: GOODBYE' });
    expect(readLocale('fr').farewell).toBe('fr: GOODBYE');

    expect(run.summary).toContain('<h2>Parlance sync</h2>');
    expect(run.summary).toMatch(/<th>Locale<\/th><th>Translated<\/th><th>Refused<\/th><th>Flagged<\/th><th>Files written<\/th>/);
    expect(run.summary).toContain('<tr><td>de</td><td>3</td><td>0</td><td>0</td><td>1</td></tr>');
    expect(run.summary).toContain('<tr><td>Total</td><td>6</td><td>0</td><td>0</td><td>2</td></tr>');
    const batch = (await (await service.api(`/v1/batches/${run.outputs['batch-id']}`)).json()) as { words: { spent: number } };
    expect(batch.words.spent).toBeGreaterThan(0);
    expect(run.summary).toContain(`Words charged: <strong>${batch.words.spent}</strong>`);
    expect(run.summary).toContain('<code>web/locales/de/app.json</code>');

    // Nothing changed: nothing is pushed or written, and no words are charged.
    const again = await runAction(baseInputs());
    expect(again.status, again.stdout).toBe(0);
    expect(again.outputs).toMatchObject({ 'batch-id': '', translated: '0', 'changed-files': '' });
    expect(again.summary).toContain('Words charged: <strong>0</strong>');
  });

  it('warns on the source line of a flagged row and still passes', async () => {
    expect((await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: 100 } })).status).toBe(200);
    try {
      const line = addSourceKey('cancel', 'Cancel');
      const run = await runAction(baseInputs());
      expect(run.status, run.stdout).toBe(0);
      const warnings = annotations(run, 'warning').filter((w) => w.file === SOURCE);
      expect(warnings.map((w) => [w.line, w.message.split(':').slice(0, 2).join(':')])).toEqual([
        [String(line), "Parlance: key 'cancel' (de)"],
        [String(line), "Parlance: key 'cancel' (fr)"],
      ]);
      expect(warnings[0]!.message).toMatch(/flagged for review: .*over the budget of 6/);
      expect(run.outputs).toMatchObject({ translated: '2', flagged: '2', refused: '0' });
      expect(readLocale('de').cancel).toBe('de: CANCEL');
    } finally {
      await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: null } });
    }
  });

  it('fails with an error on the source line of each refused row, and writes everything that passed', async () => {
    mock.script = breakPlaceholderOf('delete');
    const line = addSourceKey('delete', 'Delete {file}?');
    const run = await runAction(baseInputs());
    expect(run.status, run.stdout).toBe(1);

    const errors = annotations(run, 'error');
    const rowErrors = errors.filter((e) => e.file === SOURCE);
    expect(rowErrors.map((e) => [e.line, e.message.split(':').slice(0, 2).join(':')])).toEqual([
      [String(line), "Parlance: key 'delete' (de)"],
      [String(line), "Parlance: key 'delete' (fr)"],
    ]);
    expect(rowErrors[0]!.message).toMatch(/refused by the quality gates.*\{file\}/);
    expect(run.stdout).toMatch(new RegExp(`::error file=${SOURCE},line=${line}::Parlance: key 'delete'`));
    // The refused key is also missing from the pulled files: that is the same refusal, not annotated twice.
    expect(errors.filter((e) => e.file?.startsWith('web/locales/de'))).toEqual([]);
    const failure = errors.find((e) => e.file === undefined);
    expect(failure?.message).toBe(
      `Parlance sync: 2 rows refused by the quality gates in this run; review them in Parlance (${service.url}/#/p/${service.projectId}/review), or set fail-on-refused: false (exit code 4: refused by the quality gates)`,
    );

    expect(run.outputs).toMatchObject({ translated: '0', refused: '2', flagged: '0' });
    expect(run.summary).toContain('<tr><td>de</td><td>0</td><td>1</td><td>0</td><td>0</td></tr>');
    // Each refused row with its key, file, reason and batch, and where to review it.
    expect(run.summary).toContain('<h3>Refused rows: held for review, not in the files (2)</h3>');
    const refusedRow = new RegExp(`<tr><td>de</td><td><code>delete</code></td><td><code>locales/en/app.json</code></td><td>[^<]*placeholder \\{file\\} is missing[^<]*</td><td>this run \\(batch <code>${run.outputs['batch-id']}</code>\\)</td></tr>`);
    expect(run.summary).toMatch(refusedRow);
    expect(run.summary).toContain(`<a href="${service.url}/#/p/${service.projectId}/review">the review queue</a>`);
    expect(run.summary).toContain(`<a href="${service.url}/#/p/${service.projectId}/keys?locale=fr&amp;state=held">fr</a>`);
    expect(readLocale('de')).not.toHaveProperty('delete');
    expect(readLocale('de').greeting).toBe('de: HELLO, {name}!');
  });

  it('fails on keys still held from an earlier run, counting them with keys and reasons in the summary and the refused output', async () => {
    // Nothing to push: the held rows come from the review queue (and the pulled files leave them out).
    const run = await runAction(baseInputs());
    expect(run.status, run.stdout).toBe(1);
    expect(run.outputs).toMatchObject({ 'batch-id': '', translated: '0', refused: '2' });
    expect(run.summary).toContain('<tr><td>de</td><td>0</td><td>1</td><td>0</td><td>0</td></tr>');
    expect(run.summary).toContain('<tr><td>fr</td><td>0</td><td>1</td><td>0</td><td>0</td></tr>');
    expect(run.summary).toContain('<tr><td>Total</td><td>0</td><td>2</td><td>0</td><td>0</td></tr>');
    expect(run.summary).toMatch(/<tr><td>fr<\/td><td><code>delete<\/code><\/td><td><code>locales\/en\/app.json<\/code><\/td><td>placeholders: [^<]+<\/td><td>earlier<\/td><\/tr>/);
    expect(annotations(run, 'error').at(-1)?.message).toBe(
      `Parlance sync: 2 rows still held for review from earlier runs; review them in Parlance (${service.url}/#/p/${service.projectId}/review), or set fail-on-refused: false (exit code 4: refused by the quality gates)`,
    );
  });

  it('with fail-on-refused: false, reports refusals as warnings (no error annotation) and passes; keys still held from before are warned on the locale file', async () => {
    mock.script = breakPlaceholderOf('upload');
    const line = addSourceKey('upload', 'Upload {name}');
    const run = await runAction(baseInputs({ 'fail-on-refused': 'false' }));
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).not.toContain('::error');
    const warnings = annotations(run, 'warning');
    expect(warnings.filter((w) => w.file === SOURCE).map((w) => [w.line, w.message.split(':').slice(0, 2).join(':')])).toEqual([
      [String(line), "Parlance: key 'upload' (de)"],
      [String(line), "Parlance: key 'upload' (fr)"],
    ]);
    const held = warnings.find((w) => w.file === 'web/locales/de/app.json');
    expect(held?.message).toBe('Parlance: 1 key (de) left out of this file (held_for_review): delete');
    expect(run.stdout).toContain('2 rows refused by the quality gates in this run and 2 rows still held for review from earlier runs; not failing: fail-on-refused is false');
    // This run's two and the two still held from the run before.
    expect(run.outputs.refused).toBe('4');
    expect(run.summary).toContain('<tr><td>de</td><td>0</td><td>2</td><td>0</td><td>0</td></tr>');
  });

  it('pulls alone: rewrites a missing locale file and lists it in changed-files', async () => {
    rmSync(join(workspace, 'web/locales/fr/app.json'));
    const run = await runAction(baseInputs({ command: 'pull', 'fail-on-refused': 'false' }));
    expect(run.status, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ 'batch-id': '', translated: '0', refused: '4', 'changed-files': 'web/locales/fr/app.json' });
    expect(readLocale('fr')).toMatchObject({ greeting: 'fr: HELLO, {name}!', cancel: 'fr: CANCEL' });
    expect(readLocale('fr')).not.toHaveProperty('delete');
    const held = annotations(run, 'warning').find((e) => e.file === 'web/locales/fr/app.json');
    expect(held?.message).toBe('Parlance: 2 keys (fr) left out of this file (held_for_review): delete, upload');
    expect(run.summary).toContain('<h2>Parlance pull</h2>');
    expect(run.summary).toContain('<tr><td>fr</td><td>0</td><td>2</td><td>0</td><td>1</td></tr>');
    expect(run.summary).not.toContain('Words charged');
  });

  it('pushes without waiting: outputs the batch and writes no file', async () => {
    addSourceKey('later', 'See you later');
    const run = await runAction(baseInputs({ command: 'push', wait: 'false' }));
    expect(run.status, run.stdout).toBe(0);
    expect(run.outputs['batch-id']).toMatch(/^\S+$/);
    expect(run.outputs).toMatchObject({ translated: '0', 'changed-files': '' });
    expect(run.summary).toContain('<h2>Parlance push</h2>');
    expect(run.summary).toContain(`<code>${run.outputs['batch-id']}</code>`);
    expect(readLocale('de')).not.toHaveProperty('later');
  });

  it('fails on a failed batch with its error and exit code 3, whatever fail-on-refused says', async () => {
    mock.mode = 'fail400';
    try {
      addSourceKey('broken', 'The provider turns this down');
      const run = await runAction(baseInputs({ 'fail-on-refused': 'false' }));
      expect(run.status, run.stdout).toBe(1);
      const failure = annotations(run, 'error').at(-1);
      expect(failure?.message).toMatch(/^Parlance sync: batch \S+ \(locales\/en\/app.json\) failed: .*\(exit code 3: service or network\)$/);
      expect(failure?.message).toContain(run.outputs['batch-id']);
    } finally {
      mock.mode = 'ok';
    }
  });

  it('fails with the HTTP status, the code and the CLI exit code when the token lacks an ability', async () => {
    const readOnly = await service.mintToken({ abilities: ['read'] });
    const run = await runAction(baseInputs({ token: readOnly }));
    expect(run.status).toBe(1);
    const failure = annotations(run, 'error').at(-1);
    expect(failure?.message).toMatch(/^Parlance sync: .*403 ability_missing: .*\(exit code 2: authentication or a missing ability\)$/);
    expect(run.stdout).toContain(`::add-mask::${readOnly}`);
    expect(run.stdout.replace(`::add-mask::${readOnly}`, '')).not.toContain(readOnly);
  });

  it('points at the line and column of a bad parlance.yml', async () => {
    const broken = temporaryCopy(FIXTURE);
    writeFileSync(join(broken, 'web/parlance.yml'), 'files:\n  - source: locales/en/*.json\n    translation: locales/app.json\n');
    const run = await runAction(baseInputs(), broken);
    expect(run.status).toBe(1);
    const [atConfig, failure] = annotations(run, 'error');
    expect(atConfig).toMatchObject({ file: 'web/parlance.yml', line: '3', col: '18' });
    expect(atConfig!.message).toContain('{locale}');
    expect(failure?.message).toMatch(/\(exit code 1: usage, configuration or validation\)$/);
    expect(existsSync(join(broken, 'web/locales/de'))).toBe(false);
  });

  it('refuses an invalid input, quoting it', async () => {
    const run = await runAction(baseInputs({ command: 'deploy' }));
    expect(run.status).toBe(1);
    expect(annotations(run, 'error').at(-1)?.message).toBe("Parlance: Invalid input command 'deploy'. Expected one of push, pull, sync. (exit code 1: usage, configuration or validation)");
    const url = await runAction(baseInputs({ 'service-url': 'ftp://parlance.example.com' }));
    expect(url.status).toBe(1);
    expect(annotations(url, 'error').at(-1)?.message).toBe(
      "Parlance: Invalid input service-url 'ftp://parlance.example.com'. Expected an http(s) URL such as https://parlance.example.com. (exit code 1: usage, configuration or validation)",
    );
  });

  it('fails on an empty service-url with no service in parlance.yml and no PARLANCE_URL, naming the input, and calls no service', async () => {
    const before = (await (await service.api('/v1/batches')).json()) as { items: unknown[] };
    addSourceKey('unsent', 'Never sent anywhere');
    const run = await runAction(baseInputs({ 'service-url': '' }));
    expect(run.status).toBe(1);
    const failure = annotations(run, 'error').at(-1)?.message ?? '';
    expect(failure).toMatch(/^Parlance sync: Input service-url is empty or missing, web\/parlance.yml sets no 'service', and PARLANCE_URL is not set: /);
    expect(failure).toMatch(/\(exit code 1: usage, configuration or validation\)$/);
    expect(run.stdout).not.toContain('127.0.0.1:8787');
    expect(run.outputs).toEqual({});
    const after = (await (await service.api('/v1/batches')).json()) as { items: unknown[] };
    expect(after.items.length).toBe(before.items.length);
  });
});

describe('action.yml', () => {
  const action = parse(readFileSync(ACTION_YML, 'utf8')) as {
    runs: { using: string; main: string };
    inputs: Record<string, { required?: boolean; default?: string }>;
    outputs: Record<string, unknown>;
  };

  it('runs dist/index.js on node24 and declares exactly the inputs the Action reads, with its defaults', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(Object.keys(action.inputs).sort()).toEqual([...INPUT_NAMES].sort());
    expect(action.inputs.token?.required).toBe(true);
    expect(Object.fromEntries(Object.entries(action.inputs).flatMap(([name, input]) => (input.default === undefined ? [] : [[name, input.default]])))).toEqual({
      command: 'sync',
      wait: 'true',
      'fail-on-refused': 'true',
      'create-pull-request': 'false',
      'github-token': '${{ github.token }}',
    });
  });

  it('declares exactly the outputs a run sets', async () => {
    const run = await runAction(baseInputs({ command: 'push', 'fail-on-refused': 'false' }));
    expect(run.status, run.stdout).toBe(0);
    expect(Object.keys(action.outputs).sort()).toEqual(Object.keys(run.outputs).sort());
  });
});
