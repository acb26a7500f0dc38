/**
 * The CLI package (packages/cli, parlance-l10n) as an app developer gets it: `npm pack ./packages/cli` (its prepack
 * bundles the CLI with scripts/build-cli.mjs), `npm install <tarball> --omit=dev --offline` into an empty app (the
 * package has no dependencies, so nothing comes from the registry), then the installed `node_modules/.bin/parlance`
 * runs `init`, `push` and `pull` against a service whose provider is the OpenAI wire mock, and `mcp` over stdio.
 * test/integration/package.test.ts runs the same CLI against the packed service package when the registry can be
 * reached (installing the service needs it).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { CLI_PACKAGE_DIR, filesUnder, NPM_FLAGS, npmPack, ROOT, runAsUser, userEnv, type Packed } from '../helpers/npm-package.js';
import type { Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const MAX_INSTALLED_BYTES = 10 * 1024 * 1024;
/** npm runs these on install; the package must have none. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

let mock: MockOpenAI;
let service: TestService;
let scratch = '';
let app = '';
let packed: Packed;
let installOutput: Run;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'parlance-cli-package-'));
  app = join(scratch, 'app');
  mkdirSync(join(scratch, 'pack'));
  mkdirSync(app);
  // Started while npm packs: the service and the packing wait on different things.
  const started = (async () => {
    mock = await startMockOpenAI();
    service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' } });
  })();
  packed = await npmPack(CLI_PACKAGE_DIR, join(scratch, 'pack'));
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'shop', version: '1.0.0', private: true }, null, 2)}\n`);
  installOutput = await runAsUser('npm', ['install', packed.tarball, '--omit=dev', '--offline', ...NPM_FLAGS], { cwd: app });
  await started;
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await mock?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The installed bin, as `npx parlance` runs it, with only what a user's shell has plus the project token. */
function parlance(args: string[], extra: Record<string, string> = {}): Promise<Run> {
  return runAsUser(join(app, 'node_modules/.bin/parlance'), args, { cwd: app, env: { PARLANCE_TOKEN: service.token, XDG_CONFIG_HOME: join(scratch, 'config'), ...extra } });
}

function json<T>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

describe('the CLI package (parlance-l10n)', () => {
  it('npm pack builds a fresh bundle and ships it with the bin, and nothing else', () => {
    // The prepack ran the build (it reports on stderr, so `npm pack --json` stays one document).
    expect(packed.stderr).toMatch(/packages\/cli\/dist\/: \d+ files/);
    expect(packed.tarball).toMatch(/parlance-l10n-\d+\.\d+\.\d+\.tgz$/);
    expect(packed.files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'bin/parlance.js', 'dist/parlance.js', 'dist/licenses.txt']));
    const unexpected = packed.files.filter((path) => !['package.json', 'README.md', 'bin/parlance.js', 'dist/package.json', 'dist/licenses.txt'].includes(path) && !/^dist\/(chunks\/)?[\w-]+\.js$/.test(path));
    expect(unexpected).toEqual([]);
  });

  it('installs offline into an empty app as one package of at most 10 MB, with no install scripts and no native modules', () => {
    expect(installOutput.code, installOutput.stderr).toBe(0);
    const modules = join(app, 'node_modules');
    expect(readdirSync(modules).filter((name) => !name.startsWith('.')).sort()).toEqual(['parlance-l10n']);
    const files = filesUnder(modules);
    const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
    expect(files.filter((file) => file.path.endsWith('.node'))).toEqual([]);
    // The licences of the packages inside the bundle travel with it.
    const licences = readFileSync(join(modules, 'parlance-l10n/dist/licenses.txt'), 'utf8');
    for (const pkg of ['@modelcontextprotocol/sdk', 'yaml', 'zod']) expect(licences).toMatch(new RegExp(`^${pkg}@\\d+\\.\\d+\\.\\d+ `, 'm'));

    const manifest = JSON.parse(readFileSync(join(modules, 'parlance-l10n/package.json'), 'utf8')) as Record<string, unknown> & { scripts?: Record<string, string>; bin: Record<string, string> };
    expect(manifest.bin).toEqual({ parlance: 'bin/parlance.js' });
    expect(manifest.description).toMatch(/^Parlance CLI: /);
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => INSTALL_SCRIPTS.includes(name))).toEqual([]);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    expect(Object.keys(lock.packages).sort()).toEqual(['', 'node_modules/parlance-l10n']);
    expect(lock.packages['node_modules/parlance-l10n']!.hasInstallScript).toBeUndefined();
    // The app's own manifest now names the CLI; nothing else was added.
    const appManifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(appManifest.dependencies)).toEqual(['parlance-l10n']);
  });

  it('answers --help and --version, and sends the service commands to parlance-server', async () => {
    const help = await parlance(['--help']);
    expect(help.code, help.stderr).toBe(0);
    for (const command of ['init', 'push', 'pull', 'sync', 'mcp']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const version = await parlance(['--version']);
    expect(version.stdout).toBe(`${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`);

    const commands = ['start', 'serve', 'worker', 'migrate', 'admin', 'github-app'];
    const runs = await Promise.all(commands.map((command) => parlance([command])));
    for (const [i, command] of commands.entries()) {
      const run = runs[i]!;
      expect(run.code, `${command}: ${run.stderr}`).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`parlance ${command}: this is a command of the Parlance service`);
      expect(run.stderr).toContain(`npx parlance-server ${command}`);
    }
    const asJson = await parlance(['--json', 'start']);
    expect(asJson.code).toBe(1);
    expect(json<{ error: { message: string; exit_code: number } }>(asJson).error).toMatchObject({ exit_code: 1, message: expect.stringContaining('npx parlance-server start') });
  });

  it('init, push and pull against the service write the German file', async () => {
    mkdirSync(join(app, 'locales/en'), { recursive: true });
    mkdirSync(join(app, 'locales/de'), { recursive: true });
    writeFileSync(join(app, 'locales/en/common.json'), '{\n  "greeting": "Hello, {name}!",\n  "cart": {\n    "title": "Your cart"\n  }\n}\n');
    writeFileSync(join(app, 'locales/de/common.json'), '{}\n');

    const init = await parlance(['init', '--service', service.url]);
    expect(init.code, init.stderr).toBe(0);
    const config = readFileSync(join(app, 'parlance.yml'), 'utf8');
    expect(config).toContain(`service: ${service.url}`);
    expect(config).toContain('locales/en/*.json');

    const push = await parlance(['push', '--wait', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(json<{ files: { path: string; action: string; batch?: { status: string } }[] }>(push).files).toEqual([
      expect.objectContaining({ path: 'locales/en/common.json', action: 'pushed', batch: expect.objectContaining({ status: 'completed' }) }),
    ]);
    expect(mock.rows.map((row) => row.key).sort()).toEqual(['cart.title', 'greeting']);

    const pull = await parlance(['pull']);
    expect(pull.code, pull.stderr).toBe(0);
    const german = JSON.parse(readFileSync(join(app, 'locales/de/common.json'), 'utf8')) as { greeting: string; cart: { title: string } };
    // The mock upper-cases the text around the placeholder, which comes back as the source wrote it.
    expect(german).toEqual({ greeting: 'de: HELLO, {name}!', cart: { title: 'de: YOUR CART' } });
    // The shape of the source is kept: nesting and two-space indentation.
    expect(readFileSync(join(app, 'locales/de/common.json'), 'utf8')).toMatch(/^\{\n {2}"greeting": .*\n {2}"cart": \{\n {4}"title": /);
  });

  it('parlance mcp serves the MCP tools over stdio from the bundled SDK', async () => {
    const child = spawn(join(app, 'node_modules/.bin/parlance'), ['mcp'], { cwd: app, env: userEnv({ PARLANCE_TOKEN: service.token, PARLANCE_URL: service.url }), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const answers: { id?: number; result?: { tools?: { name: string }[]; serverInfo?: { name: string; version: string } } }[] = [];
    const answered = (id: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          const lines = stdout.split('\n');
          stdout = lines.pop()!;
          for (const line of lines) if (line.trim()) answers.push(JSON.parse(line) as (typeof answers)[number]);
          if (answers.some((answer) => answer.id === id)) {
            child.stdout.off('data', onData);
            resolve();
          }
        };
        const onData = (chunk: Buffer) => {
          stdout += chunk.toString();
          check();
        };
        child.stdout.on('data', onData);
        child.once('exit', (code) => reject(new Error(`parlance mcp exited (${code}) before answering ${id}: ${stderr}`)));
        check();
      });
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-package-test', version: '1' } } });
    await answered(1);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    await answered(2);
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.stdin.end();
    expect(await closed).toBe(0);

    expect(answers.find((answer) => answer.id === 1)!.result!.serverInfo).toMatchObject({ name: 'parlance', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const tools = answers.find((answer) => answer.id === 2)!.result!.tools!.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['push_file', 'pull_file', 'get_project']));
  });
});
