/**
 * Console benchmark: the keys grid (GET /v1/keys) and the progress bars (GET /v1/progress) over a project of 100,000
 * keys, on the embedded default and (when reachable) PostgreSQL + Redis. Beside each figure, the floor: the same
 * page read straight from the database without the state joins. Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { createRuntime } from '../server/runtime.js';

const KEYS = Number(process.env.BENCH_CONSOLE_KEYS ?? 100_000);
const RUNS = 5;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<boolean> {
  try {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 1000 });
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function bench(backend: 'embedded' | 'postgres+redis') {
  const id = randomBytes(4).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'parlance-bench-'));
  const env: Record<string, string> = {
    PORT: '0',
    PARLANCE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...(backend === 'postgres+redis' ? { DATABASE_URL, DATABASE_SCHEMA: `bench_${id}`, REDIS_URL, REDIS_PREFIX: `bench-${id}` } : {}),
  };
  const runtime = await createRuntime(loadConfig(env), { roles: { api: true, worker: true }, log: createLogger('warn') });
  const { url } = await runtime.start();
  try {
    const org = await runtime.organisations.createOrganisation({ name: 'Bench', plan: 'starter' });
    await runtime.db.updateTable('organisations').set({ words_remaining: 100_000_000 }).where('id', '=', org.id).execute();
    const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Bench', sourceLocale: 'en', targetLocales: ['de', 'fr', 'ja'] });
    const { secret } = await runtime.tokens.mint({ projectId: project.id, name: 'bench', abilities: ['push', 'read'] });
    const headers = { authorization: `Bearer ${secret}` };
    const entries: string[] = [];
    for (let i = 0; i < KEYS; i++) entries.push(`  "screen${Math.floor(i / 50)}.item${i}": "Item ${i}: {count} new messages${i % 100 === 0 ? ' about needles' : ''}"`);
    const form = new FormData();
    form.set('file', new Blob([`{\n${entries.join(',\n')}\n}\n`]), 'en.json');
    form.set('format', 'json');
    form.set('path', 'locales/en.json');
    const push = await fetch(`${url}/v1/push`, { method: 'POST', headers, body: form });
    if (push.status !== 202) throw new Error(`push: ${push.status} ${await push.text()}`);
    const batch = (await push.json()) as { id: string };
    // The grid is measured on keys, not on translation speed: stop the batch, keeping what it wrote.
    await fetch(`${url}/v1/batches/${batch.id}/cancel`, { method: 'POST', headers });

    const get = async (path: string) => {
      const res = await fetch(`${url}${path}`, { headers });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ next_cursor?: string | null; total?: number }>;
    };
    let deep = '/v1/keys?locale=de&limit=50';
    for (let i = 0; i < 20; i++) {
      const page = await get(deep);
      deep = `/v1/keys?locale=de&limit=50&cursor=${page.next_cursor}`;
    }
    const figures: [string, number][] = [
      ['first page (50 keys + total)', await median(() => get('/v1/keys?locale=de&limit=50'))],
      ['21st page (cursor)', await median(() => get(deep))],
      ['search "needles"', await median(() => get('/v1/keys?locale=de&limit=50&q=needles'))],
      ['state=missing', await median(() => get('/v1/keys?locale=de&limit=50&state=missing'))],
      ['progress, 3 locales', await median(() => get('/v1/progress'))],
    ];
    const floor = await median(async () => {
      await runtime.db.selectFrom('keys').select(['id', 'key', 'source']).where('project_id', '=', project.id).orderBy('id').limit(50).execute();
      await runtime.db.selectFrom('keys').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', project.id).executeTakeFirst();
    });
    console.log(`\n${backend}: ${KEYS} keys, 3 target locales (median of ${RUNS})`);
    for (const [name, ms] of figures) console.log(`  ${name.padEnd(30)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / floor).toFixed(1)}× the floor`);
    console.log(`  floor: 50 keys + count(*)      ${floor.toFixed(1).padStart(8)} ms   (the keys table alone, no HTTP, no state joins)`);
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
else console.log(`\npostgres+redis: skipped (no PostgreSQL at ${DATABASE_URL})`);
