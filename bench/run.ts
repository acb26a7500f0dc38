/**
 * Service benchmark: a 10,000-key JSON file pushed, translated by the pseudo provider and pulled, on the embedded
 * default and (when reachable) on PostgreSQL + Redis. Prints figures; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { DATABASE_URL, REDIS_URL, reachable, withBenchService, type Backend } from './bench-service.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);

function sourceFile(keys: number): string {
  const entries: string[] = [];
  for (let i = 0; i < keys; i++) entries.push(`  "screen${Math.floor(i / 50)}.item${i}": "Item ${i}: {count} new messages from %s in <b>your inbox</b>"`);
  return `{\n${entries.join(',\n')}\n}\n`;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

async function bench(backend: Backend) {
  await withBenchService(backend, { env: { SWEEP_INTERVAL_MS: '1000' } }, async ({ url, headers }) => {
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
  });
}

await bench('embedded');
if (await reachable()) await bench('postgres+redis');
else console.log(`\npostgres+redis: skipped (no PostgreSQL at ${DATABASE_URL} or Redis at ${REDIS_URL})`);
