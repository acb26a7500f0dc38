/** The service a benchmark runs against: embedded or PostgreSQL + Redis, a Starter project with words to spare, torn down after. */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { createRuntime, type Runtime } from '../server/runtime.js';
import type { Ability } from '../server/services/tokens/token-fns.js';

export type Backend = 'embedded' | 'postgres+redis';

export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether PostgreSQL and Redis answer, so the second backend can be measured. */
/** The benches' source file: a flat JSON of `keys` strings with placeholders and markup, 50 keys per screen. */
export function sourceFile(keys: number): string {
  const entries: string[] = [];
  for (let i = 0; i < keys; i++) entries.push(`  "screen${Math.floor(i / 50)}.item${i}": "Item ${i}: {count} new messages from %s in <b>your inbox</b>"`);
  return `{\n${entries.join(',\n')}\n}\n`;
}

export async function reachable(): Promise<boolean> {
  try {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 1000 });
    await client.connect();
    await client.end();
    const { Redis } = await import('ioredis');
    const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
    await redis.connect();
    await redis.quit();
    return true;
  } catch {
    return false;
  }
}

export interface BenchService {
  runtime: Runtime;
  url: string;
  projectId: string;
  headers: { authorization: string };
}

/** A bench's environment on `backend`: its own data directory, and its own schema and Redis prefix on PostgreSQL + Redis. */
function benchEnv(backend: Backend, extra: Record<string, string> = {}) {
  const id = randomBytes(4).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'parlance-bench-'));
  const env: Record<string, string> = {
    PARLANCE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...(backend === 'postgres+redis' ? { DATABASE_URL, DATABASE_SCHEMA: `bench_${id}`, REDIS_URL, REDIS_PREFIX: `bench-${id}` } : {}),
    ...extra,
  };
  return { id, dataDir, env };
}

/** A Starter organisation with words to spare and its project (source en; targets de, fr, ja), and a token of it. */
async function seedProject(runtime: Runtime, abilities?: Ability[]): Promise<{ projectId: string; secret: string }> {
  const org = await runtime.organisations.createOrganisation({ name: 'Bench', plan: 'starter' });
  await runtime.db.updateTable('organisations').set({ words_remaining: 100_000_000 }).where('id', '=', org.id).execute();
  const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Bench', sourceLocale: 'en', targetLocales: ['de', 'fr', 'ja'] });
  const { secret } = await runtime.tokens.mint({ projectId: project.id, name: 'bench', ...(abilities ? { abilities } : {}) });
  return { projectId: project.id, secret };
}

/** Removes what `benchEnv` made: the schema and Redis keys on PostgreSQL + Redis, and the data directory. */
async function removeBench(backend: Backend, id: string, dataDir: string): Promise<void> {
  if (backend === 'postgres+redis') {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists "bench_${id}" cascade`);
    await client.end();
    const { Redis } = await import('ioredis');
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`bench-${id}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/** Starts the service on `backend` with a project (source en; targets de, fr, ja), runs `fn`, then removes everything. */
export async function withBenchService(backend: Backend, options: { abilities?: Ability[]; env?: Record<string, string> }, fn: (service: BenchService) => Promise<void>) {
  const { id, dataDir, env } = benchEnv(backend, { PORT: '0', ...options.env });
  const runtime = await createRuntime(loadConfig(env), { roles: { api: true, worker: true }, log: createLogger('warn') });
  const { url } = await runtime.start();
  try {
    const { projectId, secret } = await seedProject(runtime, options.abilities);
    await fn({ runtime, url: url!, projectId, headers: { authorization: `Bearer ${secret}` } });
  } finally {
    await runtime.stop();
    await removeBench(backend, id, dataDir);
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds build/ from the sources (what `parlance start` runs), so a benchmark of the process measures this checkout. */
export function buildService(): void {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** A port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process now and at its peak, in MiB, from /proc (Linux). */
export function residentMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

export interface ServiceProcess {
  url: string;
  pid: number;
  projectId: string;
  headers: { authorization: string };
  config: Config;
  /** Stops the service and starts it again on the same database and data directory, as an operator's restart; `pid` is the new process's. */
  restart(): Promise<void>;
}

/**
 * Runs `fn` against `parlance start` (the built command, as operators run it) in a process of its own on `backend`,
 * with a Starter project (source en; targets de, fr, ja) seeded beforehand in this process, which then lets go of the
 * database. After `fn`, the service is stopped and `after` runs here on the same database (floors); then everything
 * is removed. Memory figures of the service are its own, not this process's.
 */
export async function withServiceProcess(
  backend: Backend,
  options: { env?: Record<string, string>; abilities?: Ability[] },
  fn: (service: ServiceProcess) => Promise<void>,
  after?: (db: Runtime['db']) => Promise<void>,
) {
  const port = await freePort();
  const { id, dataDir, env } = benchEnv(backend, { PARLANCE_HOST: '127.0.0.1', PORT: String(port), PARLANCE_DEMO: 'false', ...options.env });
  const config = loadConfig(env);
  try {
    const runtime = await createRuntime(config, { roles: { api: true, worker: true }, log: createLogger('warn') });
    let seeded: { projectId: string; secret: string };
    try {
      seeded = await seedProject(runtime, options.abilities);
    } finally {
      await runtime.stop();
    }
    // BENCH_SERVICE_NODE_ARGS: Node options for the service, to try V8 settings (e.g. `--max-semi-space-size=4`).
    const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const url = `http://127.0.0.1:${port}`;
    const start = async () => {
      const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin/parlance.js'), 'start'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const stop = async () => {
        child.kill('SIGTERM');
        await exited;
      };
      try {
        const started = Date.now();
        while (!(await fetch(`${url}/healthz`).then((res) => res.status === 200, () => false))) {
          if (child.exitCode !== null) throw new Error(`parlance start exited with ${child.exitCode}`);
          if (Date.now() - started > 60_000) throw new Error('parlance start gave no 200 within 60 s');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } catch (error) {
        await stop();
        throw error;
      }
      return { pid: child.pid!, stop };
    };
    let running = await start();
    const service: ServiceProcess = {
      url,
      pid: running.pid,
      projectId: seeded.projectId,
      headers: { authorization: `Bearer ${seeded.secret}` },
      config,
      async restart() {
        await running.stop();
        running = await start();
        service.pid = running.pid;
      },
    };
    try {
      await fn(service);
    } finally {
      await running.stop();
    }
    if (after) {
      const { openDatabase } = await import('../server/db/database.js');
      const db = await openDatabase(config.database);
      try {
        await after(db);
      } finally {
        await db.destroy();
      }
    }
  } finally {
    await removeBench(backend, id, dataDir);
  }
}
