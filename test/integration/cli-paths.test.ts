/**
 * The CLI and the Action never write outside the repository root: the real `parlance` binary and the built dist/index.js
 * against a hostile /v1 server (crafted file names, paths and locales), hostile templates, and symbolic links inside the
 * repository that lead out of it. Each refusal exits 1, names the path, and leaves everything outside untouched.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { node24Binary } from '../helpers/node24.js';
import { runProcess, type Run } from '../helpers/process.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');
const DIST = join(import.meta.dirname, '../../dist/index.js');
const TRANSLATION = '{"title": "Hallo"}';

/** What the hostile server was asked, to show that a refused target is refused before anything is pulled for it. */
const requests: string[] = [];
let hostileLocales: string[] = ['de'];
let server: Server;
let url: string;
const scratch: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/v1/project') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'prj_1', name: 'Hostile', source_locale: 'en', target_locales: hostileLocales }));
    } else if (path === '/v1/pull') {
      // Every name the service can give points outside; the CLI must take the target from parlance.yml alone.
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-disposition': 'attachment; filename="../../outside.json"',
        'x-parlance-path': encodeURI('../outside.json'),
        'x-parlance-format': 'json',
      });
      res.end(TRANSLATION);
    } else if (path === '/v1/files') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ path: '../outside.json', format: 'json', sha256: '0', keys: 1, updated_at: new Date().toISOString() }, { path: '/etc/passwd', format: 'json', sha256: '0', keys: 1, updated_at: new Date().toISOString() }] }));
    } else {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: `No ${path}`, instance: path }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface Sandbox {
  /** The parent of both: nothing but `repo` and `outside` may ever appear here. */
  top: string;
  repo: string;
  outside: string;
}

/** A repository with one source file and the given parlance.yml, beside a folder it must never write into. */
function sandbox(config: string): Sandbox {
  const top = mkdtempSync(join(tmpdir(), 'parlance-paths-'));
  scratch.push(top);
  const repo = join(top, 'repo');
  const outside = join(top, 'outside');
  mkdirSync(join(repo, 'locales'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(repo, 'locales', 'en.json'), '{"title": "Hello"}');
  writeFileSync(join(repo, 'parlance.yml'), config);
  return { top, repo, outside };
}

const config = (translation: string, locales: string | null = '[de]') =>
  `${locales === null ? '' : `locales: ${locales}\n`}files:\n  - source: locales/en.json\n    translation: '${translation}'\n`;

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return runProcess(command, args, { cwd, env });
}

/** The real binary, as a user runs it, against the hostile server. */
function parlance(box: Sandbox, ...args: string[]): Promise<Run> {
  return run(process.execPath, [BIN, ...args], box.repo, { PATH: process.env.PATH ?? '', PARLANCE_URL: url, PARLANCE_TOKEN: 'prl_hostile' });
}

/** Every file under a folder (links listed, not followed). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1)).sort();
}

function expectNothingOutside(box: Sandbox, before: string[] = []) {
  expect(readdirSync(box.top).sort()).toEqual(['outside', 'repo']);
  expect(filesUnder(box.outside)).toEqual(before);
  expect(existsSync(join(box.top, 'outside.json'))).toBe(false);
  expect(existsSync(join(box.top, '..', 'outside.json'))).toBe(false);
}

describe('parlance pull against a hostile server', () => {
  it("writes where parlance.yml says, whatever file names the server sends", async () => {
    const box = sandbox(config('locales/{locale}.json'));
    const result = await parlance(box, 'pull');
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(box.repo, 'locales', 'de.json'), 'utf8')).toBe(TRANSLATION);
    expect(filesUnder(box.repo)).toEqual(['.parlance', '.parlance/state.json', 'locales', 'locales/de.json', 'locales/en.json', 'parlance.yml']);
    expectNothingOutside(box);
  });

  it('refuses a template that climbs out (config error at its line and column, exit 1)', async () => {
    const box = sandbox(config('../outside/{locale}.json'));
    const asked = requests.length;
    const result = await parlance(box, 'pull');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("parlance.yml:4:18: files[0].translation: Invalid path '../outside/{locale}.json': '..' segments are not allowed");
    expect(requests.length).toBe(asked);
    expectNothingOutside(box);
  });

  it('refuses an absolute template, exit 1', async () => {
    const box = sandbox('');
    writeFileSync(join(box.repo, 'parlance.yml'), config(`${box.outside}/{locale}.json`));
    const result = await parlance(box, 'pull');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Invalid path '${box.outside}/{locale}.json': absolute paths are not allowed`);
    expectNothingOutside(box);
  });

  it('refuses a locale from the server that would climb out of the template, exit 1', async () => {
    hostileLocales = ['../../outside'];
    try {
      const box = sandbox(config('locales/{locale}.json', null));
      const result = await parlance(box, 'pull');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("'../../outside'");
      expectNothingOutside(box);
    } finally {
      hostileLocales = ['de'];
    }
  });

  it('refuses a symlinked folder inside the repository that leads outside, naming the path, exit 1', async () => {
    const box = sandbox(config('locales/{locale}/app.json'));
    symlinkSync(box.outside, join(box.repo, 'locales', 'de'));
    const asked = requests.length;
    const result = await parlance(box, 'pull');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Refusing to write locales/de/app.json: it resolves to');
    expect(result.stderr).toContain('outside the repository root');
    expect(requests.slice(asked).filter((r) => r.startsWith('GET /v1/pull'))).toEqual([]);
    expectNothingOutside(box);
  });

  it('refuses a folder further up that is a link out, even when the folders below it do not exist yet', async () => {
    const box = sandbox(config('l10n/{locale}/deep/app.json'));
    symlinkSync(box.outside, join(box.repo, 'l10n'));
    const result = await parlance(box, 'pull');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Refusing to write l10n/de/deep/app.json');
    expectNothingOutside(box);
  });

  it('refuses a target file that is a link to a file outside, which keeps its bytes', async () => {
    const box = sandbox(config('locales/{locale}.json'));
    writeFileSync(join(box.outside, 'victim.json'), 'original');
    symlinkSync(join(box.outside, 'victim.json'), join(box.repo, 'locales', 'de.json'));
    const result = await parlance(box, 'pull');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Refusing to write locales/de.json');
    expect(readFileSync(join(box.outside, 'victim.json'), 'utf8')).toBe('original');
    expectNothingOutside(box, ['victim.json']);
  });

  it('refuses a dangling link, which could lead anywhere', async () => {
    const box = sandbox(config('locales/{locale}.json'));
    symlinkSync(join(box.outside, 'planted.json'), join(box.repo, 'locales', 'de.json'));
    const result = await parlance(box, 'pull', '--dry-run');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Refusing to write locales/de.json');
    expect(result.stderr).toContain('symbolic link that leads nowhere');
    expectNothingOutside(box);
  });

  it('follows a link that stays inside the repository', async () => {
    const box = sandbox(config('locales/{locale}/app.json'));
    mkdirSync(join(box.repo, 'shared', 'de'), { recursive: true });
    symlinkSync(join(box.repo, 'shared', 'de'), join(box.repo, 'locales', 'de'));
    const result = await parlance(box, 'pull');
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(box.repo, 'shared', 'de', 'app.json'), 'utf8')).toBe(TRANSLATION);
    expectNothingOutside(box);
  });
});

describe('the Action against a hostile server', () => {
  it('refuses a symlinked folder that leads outside, fails the step naming the path, and writes nothing outside', async () => {
    const node = await node24Binary();
    const box = sandbox(config('locales/{locale}/app.json'));
    symlinkSync(box.outside, join(box.repo, 'locales', 'de'));
    const files = mkdtempSync(join(tmpdir(), 'parlance-paths-action-'));
    scratch.push(files);
    writeFileSync(join(files, 'output'), '');
    writeFileSync(join(files, 'summary'), '');
    const result = await run(node, [DIST], box.repo, {
      PATH: process.env.PATH ?? '',
      GITHUB_WORKSPACE: box.repo,
      GITHUB_OUTPUT: join(files, 'output'),
      GITHUB_STEP_SUMMARY: join(files, 'summary'),
      RUNNER_TEMP: files,
      INPUT_TOKEN: 'prl_hostile',
      INPUT_COMMAND: 'pull',
      'INPUT_SERVICE-URL': url,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error.*Refusing to write locales\/de\/app\.json: it resolves to .*outside the repository root/);
    expectNothingOutside(box);
  }, 120_000);
});
