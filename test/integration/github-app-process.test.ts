/**
 * The GitHub App as operators run it: `parlance start` (bin/parlance.js, a real process on the embedded backend in a
 * temporary data directory) with GITHUB_APP_ID, a private key and GITHUB_APP_WEBHOOK_SECRET set, its Octokit pointed
 * at the stateful GitHub stand-in by GITHUB_API_URL alone (Octokit's real throttle and retry included), the service
 * delivering `batch.completed` to the App over GITHUB_APP_EVENTS_URL, and the repository linked with `parlance github
 * link`. A person's push of two source files reaches the App as GitHub's signed webhook; the test waits for the
 * stand-in's git state, sends the same delivery again, and stops the process with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readCheckState } from '../../server/github-app/check-run.js';
import { startGithubStandin, type GithubStandin } from '../helpers/github-standin.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { SERVICE_NODE_FLAGS } from '../helpers/parlance-process.js';
import { backendEnv, dropBackend } from '../helpers/service.js';

const BIN = fileURLToPath(new URL('../../bin/parlance.js', import.meta.url));

const OWNER = 'acme';
const REPO = 'shop';
const INSTALLATION_ID = 4242;
const APP_ID = 1337;
const APP_SLUG = 'parlance-process';
const WEBHOOK_SECRET = 'process-webhook-secret';
const LOCALES = ['de', 'fr', 'ja'];
const CONFIG = ['files:', '  - source: locales/en.json', '    translation: locales/{locale}.json', '  - source: checkout/en.json', '    translation: checkout/{locale}.json', ''].join('\n');
const CART = { 'cart.title': 'Your cart', 'cart.empty': 'Your cart is empty', 'cart.items': 'You have {count} items in your cart' };
const CHECKOUT = { 'checkout.pay': 'Pay now', 'checkout.total': 'Total' };
const SOURCES = { locales: CART, checkout: CHECKOUT };
const json = (value: Record<string, string>) => `${JSON.stringify(value, null, 2)}\n`;
/** What the mock provider makes of a source text: upper case outside placeholders, prefixed with the locale. */
const translated = (text: string, locale: string) => `${locale}: ${text.replace(/\{[^}]*\}|[^{]+/g, (part) => (part.startsWith('{') ? part : part.toUpperCase()))}`;
const expectedFile = (source: Record<string, string>, locale: string) => Object.fromEntries(Object.entries(source).map(([k, v]) => [k, translated(v, locale)]));

interface Child {
  name: string;
  proc: ChildProcess;
  output: string[];
  stdout(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
}

const children: Child[] = [];

/** A clean environment: nothing from the test runner but PATH and LANG; HOME is the scratch directory, so no stored login is read or written. */
function spawnChild(name: string, args: string[], env: Record<string, string>, cwd: string): Child {
  const base: Record<string, string> = { HOME: cwd, XDG_CONFIG_HOME: join(cwd, 'config'), TMPDIR: tmpdir() };
  for (const key of ['PATH', 'LANG']) if (process.env[key] !== undefined) base[key] = process.env[key]!;
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, BIN, ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  let stdout = '';
  const started = Date.now();
  const capture = (stream: 'out' | 'err') => {
    let partial = '';
    return (data: Buffer) => {
      const text = data.toString('utf8');
      if (stream === 'out') stdout += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (line.trim()) output.push(`[${name} ${stream} +${Date.now() - started}ms] ${line}`);
      if (output.length > 3000) output.splice(0, output.length - 3000);
    };
  };
  proc.stdout!.on('data', capture('out'));
  proc.stderr!.on('data', capture('err'));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on('close', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
    proc.on('error', (error) => {
      done = true;
      output.push(`[${name}] failed to spawn: ${error.message}`);
      resolve({ code: null, signal: null });
    });
  });
  const child: Child = { name, proc, output, stdout: () => stdout, exited, running: () => !done };
  children.push(child);
  return child;
}

/** The exit of a process, or undefined when it has not exited within `timeoutMs`. */
async function exitWithin(child: Child, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  try {
    return await Promise.race([child.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a short `parlance` command to its end and returns its JSON output. */
async function parlance<T>(args: string[], env: Record<string, string>, cwd: string): Promise<T> {
  const child = spawnChild(args.slice(0, 3).join(' '), [...args, '--json'], env, cwd);
  const result = await exitWithin(child, 60_000);
  if (!result) {
    child.proc.kill('SIGKILL');
    await child.exited;
  }
  if (result?.code !== 0) throw new Error(`parlance ${args.join(' ')} exited with ${JSON.stringify(result)}:\n${child.output.join('\n')}`);
  return JSON.parse(child.stdout()) as T;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Polls `probe` until it stops throwing; fails at the deadline with its last error, or at once when the service exits. */
async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service && !service.running()) throw new Error(`${what}: parlance start exited while waiting:\n${service.output.slice(-60).join('\n')}`);
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`${what}: not reached within ${timeoutMs} ms (${error instanceof Error ? error.message : String(error)})\n${service.output.slice(-60).join('\n')}`);
      }
    }
    await new Promise<void>((resolve) => setTimeout(resolve, intervalMs));
  }
}

let scratch: string;
let env: Record<string, string>;
let mock: MockOpenAI;
let github: GithubStandin;
let service: Child;
let base: string;
let token: string;

function api(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(`${base}${path}`, { ...init, headers, signal: AbortSignal.timeout(10_000) });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'parlance-app-process-'));
  mock = await startMockOpenAI();
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  github = await startGithubStandin({ owner: OWNER, repo: REPO, installationId: INSTALLATION_ID, appId: APP_ID, appSlug: APP_SLUG, appPrivateKey: privateKey });
  github.seed({ 'parlance.yml': CONFIG, 'README.md': '# Shop\n' });

  const [port, appPort] = [await freePort(), await freePort()];
  base = `http://127.0.0.1:${port}`;
  env = backendEnv({
    PORT: String(port),
    LOG_LEVEL: 'info',
    PARLANCE_SECRET_KEY: randomBytes(32).toString('base64'),
    GITHUB_APP_ID: String(APP_ID),
    GITHUB_APP_PRIVATE_KEY: privateKey,
    GITHUB_APP_WEBHOOK_SECRET: WEBHOOK_SECRET,
    GITHUB_APP_PORT: String(appPort),
    GITHUB_APP_EVENTS_URL: `http://127.0.0.1:${appPort}/events`,
    GITHUB_API_URL: github.apiUrl,
    // backendEnv sets it too: the service delivers to the App on 127.0.0.1.
    OUTBOUND_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_RETRY_DELAYS: '500ms,1s,2s',
    RATE_LIMIT_PER_MINUTE: '100000',
    TRANSLATION_PROVIDER: 'openai',
    OPENAI_BASE_URL: mock.url,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODEL: 'mock-fast',
  }, { migrated: true });

  // The operator's path: the project and a manage token on the data directory before the service takes it over.
  const org = await parlance<{ id: string }>(['admin', 'org', 'create', '--name', 'Acme', '--plan', 'starter'], env, scratch);
  const project = await parlance<{ id: string }>(['admin', 'project', 'create', '--org', org.id, '--name', 'Shop', '--source', 'en', '--targets', LOCALES.join(',')], env, scratch);
  token = (await parlance<{ secret: string }>(['admin', 'token', 'create', '--project', project.id, '--abilities', 'push,pull,read,write,manage'], env, scratch)).secret;

  service = spawnChild('start', ['start'], env, scratch);
  await until('GET /healthz', async () => expect((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) })).status).toBe(200), 60_000);
  // The App listens on its own port once the API does: GitHub's deliveries go there.
  github.setWebhook(`http://127.0.0.1:${appPort}/api/github/webhooks`, WEBHOOK_SECRET);
  await until('the App answering', async () => expect((await fetch(`http://127.0.0.1:${appPort}/api/github/webhooks`, { signal: AbortSignal.timeout(2000) })).status).toBe(405), 30_000);

  const link = await parlance<{ id: string; repository: string }>(
    ['github', 'link', '--installation', String(INSTALLATION_ID), '--repository', `${OWNER}/${REPO}`, '--base', 'main', '--config-path', 'parlance.yml', '--service', base, '--token', token],
    {},
    scratch,
  );
  expect(link).toMatchObject({ repository: `${OWNER}/${REPO}` });
}, 180_000);

afterAll(async () => {
  // The service is stopped as an operator would (a test that failed before the SIGTERM test still gets a clean stop);
  // everything is cleaned up before the outcome is asserted.
  let stop: { code: number | null; signal: NodeJS.Signals | null } | undefined | 'not running' = 'not running';
  if (service?.running()) {
    service.proc.kill('SIGTERM');
    stop = await exitWithin(service, 15_000);
  }
  const stopOutput = service?.output.slice(-50).join('\n') ?? '';
  const leftRunning: string[] = [];
  for (const child of children.splice(0)) {
    if (child.running()) {
      leftRunning.push(child.name);
      child.proc.kill('SIGKILL');
      await child.exited;
    }
  }
  await github?.close();
  await mock?.close();
  if (env) await dropBackend(env);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  if (stop !== 'not running') expect(stop, `parlance start: no clean exit within 15 s of SIGTERM:\n${stopOutput}`).toEqual({ code: 0, signal: null });
  expect(leftRunning, 'processes still running after SIGTERM').toEqual([]);
  if (env) expect(existsSync(env.PARLANCE_DATA_DIR!)).toBe(false);
  if (scratch) expect(existsSync(scratch)).toBe(false);
});

beforeEach((ctx) => {
  ctx.onTestFailed(() => console.error(`----- output of parlance start (last 200 lines) -----\n${service?.output.slice(-200).join('\n') || '(nothing)'}`));
});

describe.sequential('parlance start with the GitHub App, against the GitHub stand-in', () => {
  let pushed: { sha: string; deliveryId: string };

  it('a person pushes two source files to main: parlance/main gets every target file, one pull request, completed check runs', { timeout: 120_000 }, async () => {
    const push = await github.push({ files: { 'locales/en.json': json(CART), 'checkout/en.json': json(CHECKOUT) }, login: 'octocat', message: 'Add sources' });
    expect(push.delivery?.status, push.delivery?.response).toBe(200);
    expect(push.delivery?.response).toContain('accepted: push');
    pushed = { sha: push.sha, deliveryId: push.delivery!.id };

    // Octokit's throttle spaces the App's writes about a second apart: the state is polled, never slept for.
    await until(
      'parlance/main with every target file, the pull request and both batches checked',
      () => {
        const files = github.files('parlance/main');
        for (const [dir, source] of Object.entries(SOURCES)) {
          for (const locale of LOCALES) expect(JSON.parse(files[`${dir}/${locale}.json`] ?? '{}')).toEqual(expectedFile(source, locale));
        }
        expect(github.pulls.filter((pr) => pr.state === 'open')).toHaveLength(1);
        const onPush = github.checkRuns.filter((r) => r.head_sha === push.sha);
        expect(onPush.length).toBeGreaterThan(0);
        const batches = new Set(onPush.flatMap((r) => readCheckState(r.output.summary)?.batches.map((b) => b.id) ?? []));
        expect(batches.size).toBe(2);
        expect(github.checkRuns.map((r) => r.head_sha)).toContain(github.head('parlance/main'));
        for (const run of github.checkRuns) expect(run.status).toBe('completed');
      },
      90_000,
      200,
    );
    await github.settled();

    expect(github.branches()).toEqual(['main', 'parlance/main']);
    const files = github.files('parlance/main');
    expect(Object.keys(files).sort()).toEqual([
      'README.md', 'checkout/de.json', 'checkout/en.json', 'checkout/fr.json', 'checkout/ja.json', 'locales/de.json', 'locales/en.json', 'locales/fr.json', 'locales/ja.json', 'parlance.yml',
    ]);
    const commits = github.log('parlance/main', 'main');
    expect(commits.length).toBeGreaterThanOrEqual(1);
    expect(commits.length).toBeLessThanOrEqual(2);
    expect(commits[0]!.parents).toEqual([push.sha]);
    for (const c of commits) {
      expect(c.committer).toMatchObject({ login: `${APP_SLUG}[bot]`, type: 'Bot' });
      expect(c.message).toMatch(/^Parlance-Batch: \S+$/m);
    }
    expect(github.unreachableCommits()).toEqual([]);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]).toMatchObject({ state: 'open', head: 'parlance/main', base: 'main' });
    for (const run of github.checkRuns) expect(run).toMatchObject({ name: 'Parlance quality gates', status: 'completed', conclusion: 'success' });
    expect(github.problems).toEqual([]);
    // The App's own commits came back as push webhooks and were answered (the loop guard ignores them).
    expect(github.deliveries.filter((d) => d.status !== 200)).toEqual([]);
  });

  it('the same GitHub delivery again is answered and changes nothing', async () => {
    const before = { commits: github.log('parlance/main').length, head: github.head('parlance/main'), checkRuns: github.checkRuns.length, pulls: github.pulls.length, calls: github.calls.total() };
    const providerRows = mock.rows.length;

    const again = await github.redeliver(pushed.deliveryId);
    expect(again.status, again.response).toBe(200);
    expect(again.response).toContain(`ignored: delivery`);
    expect(again.response).toContain('already accepted');
    await github.settled();

    expect(github.log('parlance/main').length).toBe(before.commits);
    expect(github.head('parlance/main')).toBe(before.head);
    expect(github.checkRuns).toHaveLength(before.checkRuns);
    expect(github.pulls).toHaveLength(before.pulls);
    expect(github.unreachableCommits()).toEqual([]);
    // The duplicate was refused before any work: not one call to GitHub.
    expect(github.calls.total()).toBe(before.calls);
    expect(mock.rows.length).toBe(providerRows);
    // The link still stands and the service still answers for the project.
    const links = await api('/v1/integrations/github');
    expect(links.status).toBe(200);
  });

  it('SIGTERM stops parlance start, the App included, with exit code 0', async () => {
    const t0 = Date.now();
    service.proc.kill('SIGTERM');
    const result = await exitWithin(service, 15_000);
    expect(result, `no exit within 15 s of SIGTERM:\n${service.output.slice(-50).join('\n')}`).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(15_000);
    // Nothing went wrong along the way: no job failed and was retried, no warning from the service or from Probot.
    const troubles = service.output.filter((line) => /\dZ (warn |error )|\] (WARN|ERROR) \(/.test(line));
    expect(troubles).toEqual([]);
  });
});
