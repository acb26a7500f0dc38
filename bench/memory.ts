/**
 * Memory of a service holding a project of 10,000 keys (BENCH_MEMORY_KEYS) on PostgreSQL + Redis, answering a no-op
 * sync: what `parlance sync` sends when nothing changed (the same source file pushed again, then a pull of every target
 * locale). Measured twice: right after the service translated the project (the heap its batch grew is still held), and
 * after a restart, as a service that has held the project for a while is. Prints the service's resident memory
 * (VmRSS) and peak (VmHWM) beside the floor, the same service started and idle. Asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { buildService, reachable, residentMiB, sourceFile, withServiceProcess, type ServiceProcess } from './bench-service.js';

const KEYS = Number(process.env.BENCH_MEMORY_KEYS ?? 10_000);
const LOCALES = ['de', 'fr', 'ja'];

async function push(service: ServiceProcess, file: string): Promise<{ id: string; rows: { total: number } }> {
  const form = new FormData();
  form.set('file', new Blob([file]), 'en.json');
  form.set('format', 'json');
  form.set('path', 'locales/en.json');
  const res = await fetch(`${service.url}/v1/push`, { method: 'POST', headers: service.headers, body: form });
  if (res.status !== 202) throw new Error(`push: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; rows: { total: number } };
}

async function settle(service: ServiceProcess, id: string): Promise<void> {
  for (;;) {
    const body = (await (await fetch(`${service.url}/v1/batches/${id}?limit=1&wait=60`, { headers: service.headers })).json()) as { status: string };
    if (body.status === 'completed') return;
    if (body.status === 'failed' || body.status === 'cancelled') throw new Error(`batch ${body.status}`);
  }
}

/** The no-op sync: the same file pushed (0 rows), then every target locale pulled. */
async function noopSync(service: ServiceProcess, file: string): Promise<{ ms: number; rows: number; pulledKib: number }> {
  const started = performance.now();
  const batch = await push(service, file);
  await settle(service, batch.id);
  let pulled = 0;
  for (const locale of LOCALES) {
    const res = await fetch(`${service.url}/v1/pull?locale=${locale}&path=locales%2Fen.json`, { headers: service.headers });
    pulled += (await res.arrayBuffer()).byteLength;
  }
  return { ms: performance.now() - started, rows: batch.rows.total, pulledKib: pulled / 1024 };
}

if (!(await reachable())) {
  console.log('memory: skipped, PostgreSQL and Redis at 127.0.0.1 are not reachable');
} else {
  buildService();
  const file = sourceFile(KEYS);
  await withServiceProcess('postgres+redis', {}, async (service) => {
    const idle = residentMiB(service.pid).rss;
    const cold = await push(service, file);
    await settle(service, cold.id);
    const afterBatch = residentMiB(service.pid);
    const warm = await noopSync(service, file);
    const warmMem = residentMiB(service.pid);

    await service.restart();
    const idleAgain = residentMiB(service.pid).rss;
    const fresh = await noopSync(service, file);
    const freshMem = residentMiB(service.pid);

    const mib = (n: number) => `${n.toFixed(0)} MiB`;
    console.log(`\nmemory: a project of ${KEYS} keys × ${LOCALES.length} locales on PostgreSQL + Redis (the service process's own figures)`);
    console.log(`  started, idle (floor)                   ${mib(idle).padStart(8)}`);
    console.log(`  after translating it (${cold.rows.total} rows)       ${mib(afterBatch.rss).padStart(8)}   peak ${mib(afterBatch.peak)}`);
    console.log(`  no-op sync in that process             ${mib(warmMem.rss).padStart(8)}   peak ${mib(warmMem.peak)}   (${warm.rows} rows pushed, ${warm.pulledKib.toFixed(0)} KiB pulled, ${(warm.ms / 1000).toFixed(2)} s)`);
    console.log(`  restarted, idle                        ${mib(idleAgain).padStart(8)}`);
    console.log(`  no-op sync after the restart           ${mib(freshMem.rss).padStart(8)}   peak ${mib(freshMem.peak)}   (${fresh.rows} rows pushed, ${fresh.pulledKib.toFixed(0)} KiB pulled, ${(fresh.ms / 1000).toFixed(2)} s)`);
  });
}
