/**
 * The service's npm package (parlance-server) as operators install it: `npm pack` here, `npm install
 * ./parlance-server-x.y.z.tgz` with production dependencies only into an empty directory, then `npx parlance --help`,
 * `npx parlance start` (on the selected backend, demo token from its output) and `npx parlance push` / `pull` from a
 * repository against it. Then the CLI package (parlance-l10n, packages/cli) installed into an app, as its developers
 * do, runs `init`, `push` and `pull` against that packed service (cli-package.test.ts checks the CLI package itself,
 * offline, against an in-process service).
 *
 * Installing the package is most of this file's time, so it runs once (test/backend-free.ts, BOTH_BACKENDS_IN_ONE_PASS)
 * and starts the installed service on both backends itself: the embedded default, then PostgreSQL + Redis (the
 * `pg`, `ioredis` and `bullmq` the package must bring as production dependencies).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PACKAGE_DIR, NPM_FLAGS, npmPack, registryProblem, ROOT, runAsUser as run, userEnv } from '../helpers/npm-package.js';
import { backendEnv, dropBackend, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/service.js';

describe('the npm package', { timeout: 300_000 }, () => {
  /** Why the service's dependencies could not be installed (neither npm's cache nor the registry has them): the later steps skip, saying so. */
  let uninstallable: string | undefined;
  let scratch = '';
  let packDir = '';
  let installDir = '';
  let repo = '';
  let env: Record<string, string> = {};
  let service: ChildProcess | undefined;
  /** What the embedded service has printed so far. */
  let output: () => string = () => '';
  let tarball = '';
  let url = '';
  let token = '';
  let pgEnv: Record<string, string> | undefined;
  let pgService: ChildProcess | undefined;

  // In hooks, not at collection: a skipped run makes no directory and no database schema.
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'parlance-package-'));
    packDir = join(scratch, 'pack');
    installDir = join(scratch, 'install');
    repo = join(installDir, 'repo');
    // The embedded default (this file runs in the embedded pass only); PostgreSQL + Redis is the last test.
    env = backendEnv({ PARLANCE_DEMO: 'true', LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    // npx runs the bin through a shell and does not pass signals on: the whole process group is stopped, if still there.
    if (service?.pid) {
      try {
        process.kill(-service.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    if (pgService?.pid) {
      try {
        process.kill(-pgService.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await dropBackend(env);
    if (pgEnv) await dropBackend(pgEnv);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('npm pack ships the build, the migrations and the console, and no TypeScript', async () => {
    mkdirSync(packDir, { recursive: true });
    const packed = await npmPack(ROOT, packDir);
    tarball = packed.tarball;
    expect(tarball).toMatch(/parlance-server-\d+\.\d+\.\d+\.tgz$/);
    const files = packed.files;
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'bin/parlance.js', 'build/parlance.js', 'server/db/migrations/0001_service_core.sql', 'server/web/public/index.html', 'server/web/public/console.js']));
    expect(files.filter((path) => path.endsWith('.ts') || path.startsWith('src/') || path.startsWith('test/') || path.startsWith('dist/'))).toEqual([]);
    expect(files).not.toContain('bin/run-ts.js');
    // The CLI package is packed on its own (packages/cli), never inside the service's.
    expect(files.filter((path) => path.startsWith('packages/'))).toEqual([]);
  });

  it('installs into an empty directory with production dependencies only', async (ctx) => {
    mkdirSync(installDir, { recursive: true });
    // From npm's cache first (CI's npm ci filled it; this machine has no registry), else from the registry.
    let install = await run('npm', ['install', tarball, '--omit=dev', '--offline', ...NPM_FLAGS], { cwd: installDir, timeout: 300_000 });
    if (install.code !== 0 && /ENOTCACHED/.test(install.stderr)) {
      const offline = registryProblem();
      if (offline) {
        uninstallable = `the service's dependencies are not in npm's cache and ${offline}`;
        console.warn(`The npm package tests after the pack are skipped: ${uninstallable}`);
        ctx.skip();
      }
      install = await run('npm', ['install', tarball, '--omit=dev', ...NPM_FLAGS], { cwd: installDir, timeout: 300_000 });
    }
    expect(install.code, install.stderr).toBe(0);
    const installed = readdirSync(join(installDir, 'node_modules'));
    expect(installed).toContain('parlance-server');
    for (const dev of ['tsx', 'typescript', 'esbuild', 'vitest', 'preact']) expect(installed).not.toContain(dev);
  });

  it('npx parlance --help and --version', async (ctx) => {
    if (uninstallable) ctx.skip();
    const help = await run('npx', ['--no-install', 'parlance', '--help'], { cwd: installDir });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: parlance <command>');
    const version = await run('npx', ['--no-install', 'parlance', '--version'], { cwd: installDir });
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    // By the package's name too, as `npx parlance-server start` runs it where it is not installed.
    const byName = await run('npx', ['--no-install', 'parlance-server', '--version'], { cwd: installDir });
    expect(byName.stdout.trim(), byName.stderr).toBe(version.stdout.trim());
  });

  it('npx parlance start migrates, serves the API and the console, and prints a demo token', async (ctx) => {
    if (uninstallable) ctx.skip();
    const started = startInstalled(installDir, env);
    service = started.child;
    ({ url, token } = await demoOf(started, 'parlance start'));
    output = started.output;

    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/console/console.js?v=');
    expect((await fetch(`${url}/v1/openapi.json`)).status).toBe(200);
  });

  it('npx parlance push is accepted and translated, and pull writes the German file', async (ctx) => {
    if (uninstallable) ctx.skip();
    mkdirSync(join(repo, 'locales'), { recursive: true });
    writeFileSync(join(repo, 'parlance.yml'), `service: ${url}\nlocales: [de]\nfiles:\n  - source: locales/en.json\n    translation: locales/{locale}.json\n`);
    writeFileSync(join(repo, 'locales/en.json'), '{\n  "greeting": "Hello, {name}!",\n  "farewell": "Goodbye"\n}\n');
    const cli = (...args: string[]) => run('npx', ['--no-install', 'parlance', ...args, '--json'], { cwd: repo, env: { PARLANCE_TOKEN: token } });

    const push = await cli('push', '--wait');
    expect(push.code, push.stderr).toBe(0);
    const report = JSON.parse(push.stdout) as { files: { path: string; action: string; batch?: { status: string } }[] };
    expect(report.files).toEqual([expect.objectContaining({ path: 'locales/en.json', action: 'pushed', batch: expect.objectContaining({ status: 'completed' }) })]);

    const pull = await cli('pull');
    expect(pull.code, pull.stderr).toBe(0);
    expect(existsSync(join(repo, 'locales/de.json'))).toBe(true);
    expect(readFileSync(join(repo, 'locales/de.json'), 'utf8')).toContain('{name}');
  });

  it('the CLI package installed in an app runs init, push and pull against the packed service', async (ctx) => {
    if (uninstallable) ctx.skip();
    const app = join(scratch, 'app');
    mkdirSync(join(app, 'locales/en'), { recursive: true });
    mkdirSync(join(app, 'locales/de'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{ "name": "shop", "version": "1.0.0", "private": true }\n');
    writeFileSync(join(app, 'locales/en/common.json'), '{\n  "cart": {\n    "title": "Your cart, {name}"\n  }\n}\n');
    writeFileSync(join(app, 'locales/de/common.json'), '{}\n');
    // No dependencies: the CLI installs without the registry.
    const cliPackage = await npmPack(CLI_PACKAGE_DIR, packDir);
    const install = await run('npm', ['install', cliPackage.tarball, '--omit=dev', '--offline', ...NPM_FLAGS], { cwd: app });
    expect(install.code, install.stderr).toBe(0);
    expect(readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['parlance-l10n']);
    const cli = (...args: string[]) => run('npx', ['--no-install', 'parlance', ...args], { cwd: app, env: { PARLANCE_TOKEN: token, XDG_CONFIG_HOME: join(scratch, 'config') } });

    const init = await cli('init', '--service', url);
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(join(app, 'parlance.yml'), 'utf8')).toContain(`service: ${url}`);
    const push = await cli('push', '--wait', '--json');
    expect(push.code, push.stderr).toBe(0);
    const pull = await cli('pull');
    expect(pull.code, pull.stderr).toBe(0);
    const german = JSON.parse(readFileSync(join(app, 'locales/de/common.json'), 'utf8')) as { cart?: { title?: string } };
    expect(german.cart?.title).toContain('{name}');
    expect(german.cart?.title).not.toBe('Your cart, {name}');
    // The service's commands are not in the CLI package: it points at the service's.
    const start = await cli('start');
    expect(start.code).toBe(1);
    expect(start.stderr).toContain('npx parlance-server start');
  });

  it('stops gracefully on SIGTERM', async (ctx) => {
    if (uninstallable) ctx.skip();
    const closed = new Promise<void>((resolve) => service!.on('close', () => resolve()));
    // npx runs the bin through a shell and does not pass signals on, so the signal goes to the whole process group;
    // 'close' comes once the service, which holds the output pipes, has exited.
    process.kill(-service!.pid!, 'SIGTERM');
    await closed;
    expect(output()).toContain('SIGTERM received: stopping');
    expect(output()).not.toContain('stop failed');
  });

  it('on PostgreSQL + Redis, npx parlance start migrates a new schema and serves, and a push is translated and pulled', async (ctx) => {
    if (uninstallable) ctx.skip();
    const unreachable = await backendsUnreachable();
    if (unreachable) {
      // CI starts both (.ci/run); elsewhere `npm test` may run without them, and says what it left out.
      if (process.env.CI) throw new Error(`PostgreSQL + Redis are needed for the installed package's test on them: ${unreachable}`);
      console.warn(`The installed package on PostgreSQL + Redis is skipped: ${unreachable}`);
      ctx.skip();
    }
    const id = randomBytes(4).toString('hex');
    pgEnv = backendEnv({ PARLANCE_DEMO: 'true', LOG_LEVEL: 'info', DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: `t_pkg_${id}`, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test-pkg-${id}` });
    const started = startInstalled(installDir, pgEnv);
    pgService = started.child;
    const { url: pgUrl, token: pgToken } = await demoOf(started, 'parlance start on PostgreSQL');
    expect((await fetch(`${pgUrl}/healthz`)).status).toBe(200);

    const pgRepo = join(installDir, 'repo-postgres');
    mkdirSync(join(pgRepo, 'locales'), { recursive: true });
    writeFileSync(join(pgRepo, 'parlance.yml'), `service: ${pgUrl}\nlocales: [de]\nfiles:\n  - source: locales/en.json\n    translation: locales/{locale}.json\n`);
    writeFileSync(join(pgRepo, 'locales/en.json'), '{\n  "greeting": "Hello, {name}!"\n}\n');
    const cli = (...args: string[]) => run('npx', ['--no-install', 'parlance', ...args, '--json'], { cwd: pgRepo, env: { PARLANCE_TOKEN: pgToken } });
    const push = await cli('push', '--wait');
    expect(push.code, push.stderr).toBe(0);
    expect(JSON.parse(push.stdout)).toMatchObject({ files: [{ path: 'locales/en.json', action: 'pushed', batch: { status: 'completed' } }] });
    const pull = await cli('pull');
    expect(pull.code, pull.stderr).toBe(0);
    expect(readFileSync(join(pgRepo, 'locales/de.json'), 'utf8')).toContain('{name}');
    // The tables are in the schema the service was given, not in public.
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const tables = await client.query(`select count(*)::int as n from information_schema.tables where table_schema = $1 and table_name = 'batches'`, [`t_pkg_${id}`]);
      expect(tables.rows[0].n).toBe(1);
    } finally {
      await client.end();
    }

    const closed = new Promise<void>((resolve) => pgService!.on('close', () => resolve()));
    process.kill(-pgService.pid!, 'SIGTERM');
    await closed;
    expect(started.output()).toContain('SIGTERM received: stopping');
    expect(started.output()).not.toContain('stop failed');
  });
});

/** `npx parlance start` of the installed package, in a process group of its own (npx passes no signals on), its output collected. */
function startInstalled(cwd: string, env: Record<string, string>): { child: ChildProcess; output(): string } {
  let output = '';
  const child = spawn('npx', ['--no-install', 'parlance', 'start'], { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** The URL and demo token the started service prints, waited for up to 2 minutes. */
async function demoOf(started: ReturnType<typeof startInstalled>, what: string): Promise<{ url: string; token: string }> {
  const deadline = Date.now() + 120_000;
  while (!/export PARLANCE_TOKEN=prl_\w+/.test(started.output())) {
    if (started.child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} printed no token (exit ${started.child.exitCode}):\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: /Parlance is running at (http:\/\/\S+)/.exec(started.output())![1]!, token: /export PARLANCE_TOKEN=(prl_\w+)/.exec(started.output())![1]! };
}

/** Why PostgreSQL or Redis at TEST_DATABASE_URL / TEST_REDIS_URL cannot be reached, or undefined. */
async function backendsUnreachable(): Promise<string | undefined> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    return `PostgreSQL at ${TEST_DATABASE_URL}: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const { Redis } = await import('ioredis');
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `Redis at ${TEST_REDIS_URL}: ${(error as Error).message}`;
  } finally {
    redis.disconnect();
  }
  return undefined;
}
