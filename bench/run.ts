/**
 * Service benchmark: a 10,000-key JSON file pushed, translated by the pseudo provider and pulled, on the embedded
 * default and (when reachable) on PostgreSQL + Redis. Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { createRuntime } from '../server/runtime.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

function sourceFile(keys: number): string {
  const entries: string[] = [];
  for (let i = 0; i < keys; i++) entries.push(`  "screen${Math.floor(i / 50)}.item${i}": "Item ${i}: {count} new messages from %s in <b>your inbox</b>"`);
  return `{\n${entries.join(',\n')}\n}\n`;
}

async function reachable(): Promise<boolean> {
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

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

async function bench(backend: 'embedded' | 'postgres+redis') {
  const id = randomBytes(4).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'parlance-bench-'));
  const env: Record<string, string> = {
    PORT: '0',
    PARLANCE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
    SWEEP_INTERVAL_MS: '1000',
    ...(backend === 'postgres+redis' ? { DATABASE_URL, DATABASE_SCHEMA: `bench_${id}`, REDIS_URL, REDIS_PREFIX: `bench-${id}` } : {}),
  };
  const runtime = await createRuntime(loadConfig(env), { roles: { api: true, worker: true }, log: createLogger('warn') });
  const { url } = await runtime.start();
  try {
    const org = await runtime.organisations.createOrganisation({ name: 'Bench', plan: 'starter' });
    await runtime.db.updateTable('organisations').set({ words_remaining: 100_000_000 }).where('id', '=', org.id).execute();
    const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Bench', sourceLocale: 'en', targetLocales: ['de', 'fr', 'ja'] });
    const { secret } = await runtime.tokens.mint({ projectId: project.id, name: 'bench' });
    const headers = { authorization: `Bearer ${secret}` };
    const file = sourceFile(KEYS);
    const push = () => {
      const form = new FormData();
      form.set('file', new Blob([file]), 'en.json');
      form.set('format', 'json');
      form.set('path', 'locales/en.json');
      return fetch(`${url}/v1/push`, { method: 'POST', headers, body: form }).then(async (res) => {
        if (res.status !== 202) throw new Error(`push: ${res.status} ${await res.text()}`);
        return (await res.json()) as { id: string; rows: { total: number } };
      });
    };

    const [first, firstMs] = await timed(push);
    const [, completeMs] = await timed(async () => {
      for (;;) {
        const res = await fetch(`${url}/v1/batches/${first.id}?limit=1`, { headers });
        const body = (await res.json()) as { status: string };
        if (body.status === 'completed') return;
        if (body.status === 'failed' || body.status === 'cancelled') throw new Error(`batch ${body.status}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    const [second, repushMs] = await timed(push);
    const [pulled, pullMs] = await timed(async () => (await fetch(`${url}/v1/pull?locale=de`, { headers })).arrayBuffer());
    const [zip, zipMs] = await timed(async () => (await fetch(`${url}/v1/pull`, { headers })).arrayBuffer());
    const rows = first.rows.total;
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(9);
    console.log(`\n${backend}: ${KEYS} keys, ${(file.length / 1024).toFixed(0)} KiB, 3 target locales`);
    console.log(`  first push (202)            ${fmt(firstMs)}   ${rows} rows queued`);
    console.log(`  batch complete (pseudo)     ${fmt(completeMs)}   ${Math.round(rows / (completeMs / 1000))} rows/s`);
    console.log(`  unchanged re-push (202)     ${fmt(repushMs)}   ${second.rows.total} rows queued`);
    console.log(`  pull one locale             ${fmt(pullMs)}   ${(pulled.byteLength / 1024).toFixed(0)} KiB`);
    console.log(`  pull all locales (zip)      ${fmt(zipMs)}   ${(zip.byteLength / 1024).toFixed(0)} KiB`);
    console.log(`  resident memory             ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0).padStart(6)} MiB`);
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

await bench('embedded');
if (await reachable()) await bench('postgres+redis');
else console.log(`\npostgres+redis: skipped (no PostgreSQL at ${DATABASE_URL} or Redis at ${REDIS_URL})`);
