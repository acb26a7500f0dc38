/**
 * The processes under test: a redis-server of the soak's own, 4 `parlance serve` and 4 `parlance worker`, each
 * restartable after a kill, with output kept in a log file per process and exits the soak did not cause counted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/parlance.js');

export type Role = 'serve' | 'worker' | 'redis';

export interface Member {
  name: string;
  role: Role;
  /** Listening port of serve and redis; undefined for workers. */
  port: number | undefined;
  proc: ChildProcess | undefined;
  /** Set while the soak itself is stopping or killing the process, so the exit is not counted as a crash. */
  expectingExit: boolean;
  starts: number;
  /** The last lines of output, for the report when the process died on its own. */
  tail: string[];
}

export interface Crash {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  tail: string[];
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number, alive?: Member): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (alive && !alive.proc) throw new Error(`${what}: ${alive.name} exited while starting:\n${alive.tail.join('\n')}`);
    if (await probe().catch(() => false)) return;
    await sleep(150);
  }
  throw new Error(`${what}: not reached within ${timeoutMs} ms${alive ? `\n${alive.tail.join('\n')}` : ''}`);
}

export function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data: Buffer) => finish(data.toString('utf8').startsWith('+PONG')));
  });
}

async function healthy(port: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
  await res.arrayBuffer();
  return res.status === 200;
}

export function createFleet(deps: { logDir: string; serviceEnv: (member: Member) => Record<string, string> }) {
  const members: Member[] = [];
  const crashes: Crash[] = [];
  const logs = new Map<string, WriteStream>();

  function log(member: Member): WriteStream {
    let stream = logs.get(member.name);
    if (!stream) {
      stream = createWriteStream(join(deps.logDir, `${member.name}.log`), { flags: 'a' });
      logs.set(member.name, stream);
    }
    return stream;
  }

  function spawnMember(member: Member): void {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LANG: process.env.LANG ?? 'C.UTF-8' };
    const [command, args] =
      member.role === 'redis'
        ? ['redis-server', ['--port', String(member.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', deps.logDir]]
        : [process.execPath, [BIN, member.role]];
    const proc = spawn(command, args, { cwd: ROOT, env: member.role === 'redis' ? env : { ...env, ...deps.serviceEnv(member) }, stdio: ['ignore', 'pipe', 'pipe'] });
    member.proc = proc;
    member.starts += 1;
    member.expectingExit = false;
    const out = log(member);
    out.write(`----- start #${member.starts} pid ${proc.pid} at ${new Date().toISOString()}\n`);
    const capture = (data: Buffer) => {
      out.write(data);
      member.tail.push(...data.toString('utf8').split('\n').filter((line) => line.trim()));
      if (member.tail.length > 60) member.tail.splice(0, member.tail.length - 60);
    };
    proc.stdout!.on('data', capture);
    proc.stderr!.on('data', capture);
    proc.on('exit', (code, signal) => {
      out.write(`----- exit code ${code} signal ${signal} at ${new Date().toISOString()}\n`);
      if (member.proc === proc) member.proc = undefined;
      if (!member.expectingExit) crashes.push({ name: member.name, code, signal, tail: member.tail.slice(-30) });
    });
  }

  async function start(member: Member): Promise<void> {
    spawnMember(member);
    if (member.role === 'redis') await until(`${member.name} answering PING`, () => redisPing(member.port!), 10_000, member);
    if (member.role === 'serve') await until(`${member.name} answering /healthz`, () => healthy(member.port!), 60_000, member);
  }

  async function add(name: string, role: Role): Promise<Member> {
    const member: Member = { name, role, port: role === 'worker' ? undefined : await freePort(), proc: undefined, expectingExit: false, starts: 0, tail: [] };
    members.push(member);
    return member;
  }

  /** Stops the member (SIGKILL unless told otherwise) and waits for its exit. */
  async function stop(member: Member, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const proc = member.proc;
    if (!proc) return;
    member.expectingExit = true;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** Starts every member that is not running (after a crash, say); returns how many were started. */
  async function reviveAll(): Promise<number> {
    const down = members.filter((m) => !m.proc);
    await Promise.all(down.map((m) => start(m)));
    return down.length;
  }

  async function shutdown(): Promise<void> {
    // Service processes first and gracefully, Redis last.
    await Promise.all(members.filter((m) => m.role !== 'redis').map((m) => stop(m, 'SIGTERM')));
    await Promise.all(members.filter((m) => m.role === 'redis').map((m) => stop(m, 'SIGTERM')));
    await Promise.all([...logs.values()].map((s) => new Promise<void>((resolve) => s.end(() => resolve()))));
  }

  return { members, crashes, add, start, stop, reviveAll, shutdown };
}

export type Fleet = ReturnType<typeof createFleet>;
