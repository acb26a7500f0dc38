/**
 * Console benchmark: the keys grid (GET /v1/keys) and the progress bars (GET /v1/progress) over a project of 100,000
 * keys, on the embedded default and (when reachable) PostgreSQL + Redis. Beside each figure, the floor: the same
 * page read straight from the database without the state joins. Prints figures; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { DATABASE_URL, reachable, withBenchService, type Backend } from './bench-service.js';

const KEYS = Number(process.env.BENCH_CONSOLE_KEYS ?? 100_000);
const RUNS = 5;

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

async function bench(backend: Backend) {
  await withBenchService(backend, { abilities: ['push', 'read'] }, async ({ runtime, url, projectId, headers }) => {
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
    // The 21st page, or the last one of a smaller project.
    let deep = '/v1/keys?locale=de&limit=50';
    for (let i = 0; i < 20; i++) {
      const page = await get(deep);
      if (!page.next_cursor) break;
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
      await runtime.db.selectFrom('keys').select(['id', 'key', 'source']).where('project_id', '=', projectId).orderBy('id').limit(50).execute();
      await runtime.db.selectFrom('keys').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', projectId).executeTakeFirst();
    });
    console.log(`\n${backend}: ${KEYS} keys, 3 target locales (median of ${RUNS})`);
    for (const [name, ms] of figures) console.log(`  ${name.padEnd(30)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / floor).toFixed(1)}× the floor`);
    console.log(`  floor: 50 keys + count(*)      ${floor.toFixed(1).padStart(8)} ms   (the keys table alone, no HTTP, no state joins)`);
  });
}

await bench('embedded');
if (await reachable()) await bench('postgres+redis');
else console.log(`\npostgres+redis: skipped (no PostgreSQL at ${DATABASE_URL} or no Redis)`);
