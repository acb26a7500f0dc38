/**
 * The body limits hold memory down: a spawned `parlance start` (the built bin/parlance.js) is sent eight 200 MB bodies
 * at once, half with Content-Length and half chunked, to routes before and after sign-in, and its peak resident set
 * (VmHWM in /proc/<pid>/status, so Linux only) grows by less than 100 MiB over idle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendEnv, dropBackend } from '../helpers/service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/parlance.js', import.meta.url));
const BODY_BYTES = 200 * 1024 * 1024;
const MiB = 1024 * 1024;

let child: ChildProcess | undefined;
let output = '';
let env: Record<string, string>;
let base: string;
let token: string;
let startupSeconds: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Sets the peak to the current resident set (Linux 4.0+), so what startup once used hides no growth; false where that is refused. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Peak and current resident set of the service, in MiB. */
function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { peak: kib('VmHWM') / 1024, now: kib('VmRSS') / 1024 };
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}\n${output}`);
  return (await res.json()) as T;
}

/** A project token, the way a person gets one: sign up, create a project, ask for a credential. */
async function signUpForToken(): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: base };
  const signUp = await fetch(`${base}/v1/auth/sign-up`, { method: 'POST', headers, body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery' }) });
  const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
  const account = await json<{ organisations: { id: string }[]; projects: { id: string }[] }>(signUp);
  const withCookie = { ...headers, cookie };
  const projectId =
    account.projects[0]?.id ??
    (await json<{ id: string }>(await fetch(`${base}/v1/auth/projects`, { method: 'POST', headers: withCookie, body: JSON.stringify({ organisation_id: account.organisations[0]!.id, name: 'Web', source_locale: 'en', target_locales: ['de'] }) }))).id;
  return (await json<{ token: string }>(await fetch(`${base}/v1/auth/credentials`, { method: 'POST', headers: withCookie, body: JSON.stringify({ project_id: projectId }) }))).token;
}

interface Outcome {
  label: string;
  status?: number;
  code?: string;
  connection?: string;
  error?: string;
  sentMiB: number;
}

/**
 * POSTs BODY_BYTES made as they are sent (never held here), and stops sending once the answer is in, as fetch and
 * curl do; `chunked` leaves out Content-Length.
 */
function send(path: string, options: { chunked: boolean; token?: string; type?: string }): Promise<Outcome> {
  const label = `POST ${path} ${options.token ? 'with' : 'without'} a token, ${options.chunked ? 'chunked' : 'Content-Length'}`;
  const headers: Record<string, string> = { 'content-type': options.type ?? 'application/json', origin: base, accept: 'application/json, text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (!options.chunked) headers['content-length'] = String(BODY_BYTES);
  let sent = 0;
  const chunk = Buffer.alloc(256 * 1024, 'x');
  const body = Readable.from(
    (function* () {
      yield Buffer.from('{"text":"');
      while (sent < BODY_BYTES) {
        const part = chunk.subarray(0, Math.min(chunk.byteLength, BODY_BYTES - sent));
        sent += part.byteLength;
        yield part;
      }
    })(),
  );
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { method: 'POST', headers });
    let settled = false;
    const settle = (outcome: Omit<Outcome, 'label' | 'sentMiB'>) => {
      if (settled) return;
      settled = true;
      body.unpipe(req);
      body.destroy();
      req.destroy();
      resolve({ label, sentMiB: Math.round(sent / MiB), ...outcome });
    };
    req.on('response', (res) => {
      let text = '';
      res.on('data', (data: Buffer) => (text += data.toString()));
      res.on('end', () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { code?: string }).code;
        } catch {
          code = text.slice(0, 200);
        }
        settle({ status: res.statusCode!, code, connection: res.headers.connection! });
      });
      res.on('error', (error) => settle({ status: res.statusCode!, error: error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    body.on('error', () => undefined);
    body.pipe(req);
  });
}

describe.runIf(process.platform === 'linux')('body limits and memory', () => {
  beforeAll(async () => {
    const port = await freePort();
    env = backendEnv({ PORT: String(port), LOG_LEVEL: 'warn' }, { migrated: true });
    base = `http://127.0.0.1:${port}`;
    // A clean environment: only the backend's settings, nothing from the test runner's.
    const clean: Record<string, string> = {};
    for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name] !== undefined) clean[name] = process.env[name];
    child = spawn(process.execPath, [BIN, 'start'], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    const spawned = Date.now();
    const deadline = spawned + 55_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`parlance start exited with ${child.exitCode}:\n${output}`);
      const healthy = await fetch(`${base}/healthz`).then((res) => res.ok, () => false);
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`parlance start did not answer /healthz:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    startupSeconds = (Date.now() - spawned) / 1000;
    token = await signUpForToken();
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    if (env) await dropBackend(env);
  });

  it('eight 200 MB bodies at once are all refused with 413, and the peak memory grows by less than 100 MiB', async () => {
    // Warm the routes' code paths first, so what is measured is the bodies, not the first load of a module.
    for (const path of ['/v1/qa/run', '/v1/auth/sign-in', '/mcp']) await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: base }, body: '{}' });
    const reset = resetPeak(child!.pid!);
    const idle = memory(child!.pid!);

    const started = Date.now();
    const outcomes = await Promise.all([
      send('/v1/auth/sign-in', { chunked: false }),
      send('/v1/auth/sign-up', { chunked: true }),
      send('/v1/qa/run', { chunked: false, token }),
      send('/v1/qa/run', { chunked: true, token }),
      send('/v1/push', { chunked: false, token, type: 'multipart/form-data; boundary=x' }),
      send('/v1/push', { chunked: true }),
      send('/mcp', { chunked: false }),
      send('/v1/push', { chunked: true, token, type: 'multipart/form-data; boundary=x' }),
    ]);
    const seconds = (Date.now() - started) / 1000;
    const after = memory(child!.pid!);
    const growth = after.peak - idle.peak;
    const report = `idle peak ${idle.peak.toFixed(0)} MiB (${reset ? 'reset to the resident set' : 'the peak since start'}), after ${after.peak.toFixed(0)} MiB (+${growth.toFixed(0)}), answered in ${seconds.toFixed(1)} s; the service started in ${startupSeconds.toFixed(1)} s\n${outcomes.map((o) => JSON.stringify(o)).join('\n')}`;
    console.log(report);

    for (const outcome of outcomes) {
      expect(outcome, report).toMatchObject({ status: 413, code: 'payload_too_large', connection: 'close' });
      // Refused early: the clients stopped long before the end of their bodies.
      expect(outcome.sentMiB, report).toBeLessThan(100);
    }
    expect(growth, report).toBeLessThan(100);
  }, 60_000);
});
