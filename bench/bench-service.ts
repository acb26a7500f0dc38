/** The service a benchmark runs against: embedded or PostgreSQL + Redis, a Starter project with words to spare, torn down after. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { createRuntime, type Runtime } from '../server/runtime.js';
import type { Ability } from '../server/services/tokens/token-fns.js';

export type Backend = 'embedded' | 'postgres+redis';

export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether PostgreSQL and Redis answer, so the second backend can be measured. */
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

/** Starts the service on `backend` with a project (source en; targets de, fr, ja), runs `fn`, then removes everything. */
export async function withBenchService(backend: Backend, options: { abilities?: Ability[]; env?: Record<string, string> }, fn: (service: BenchService) => Promise<void>) {
  const id = randomBytes(4).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'parlance-bench-'));
  const env: Record<string, string> = {
    PORT: '0',
    PARLANCE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...(backend === 'postgres+redis' ? { DATABASE_URL, DATABASE_SCHEMA: `bench_${id}`, REDIS_URL, REDIS_PREFIX: `bench-${id}` } : {}),
    ...options.env,
  };
  const runtime = await createRuntime(loadConfig(env), { roles: { api: true, worker: true }, log: createLogger('warn') });
  const { url } = await runtime.start();
  try {
    const org = await runtime.organisations.createOrganisation({ name: 'Bench', plan: 'starter' });
    await runtime.db.updateTable('organisations').set({ words_remaining: 100_000_000 }).where('id', '=', org.id).execute();
    const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Bench', sourceLocale: 'en', targetLocales: ['de', 'fr', 'ja'] });
    const { secret } = await runtime.tokens.mint({ projectId: project.id, name: 'bench', ...(options.abilities ? { abilities: options.abilities } : {}) });
    await fn({ runtime, url: url!, projectId: project.id, headers: { authorization: `Bearer ${secret}` } });
  } finally {
    await runtime.stop();
    if (backend === 'postgres+redis') {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists "bench_${id}" cascade`);
      await client.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
