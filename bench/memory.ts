/**
 * Memory of a service holding a project of 10,000 keys (BENCH_MEMORY_KEYS) on PostgreSQL + Redis, answering a no-op
 * sync: what `parlance sync` sends when nothing changed (the same source file pushed again, then a pull of every target
 * locale). Measured three times: right after the service translated the project (the heap its batch grew is still
 * held), once the service has been idle long enough for V8's memory reducer to return that heap (about 30 s), and after
 * a restart. Prints the service's resident memory (VmRSS) and each sync's own peak (VmHWM, reset before it) beside the
 * floor, the same service started and idle, and the target (issue 32: at most 200 MiB). Asserts nothing.
 */
import { writeFileSync } from 'node:fs';
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

/** Resets the process's peak resident memory (VmHWM) to its current size (Linux 4.0+), so the next peak is the next step's own. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/**
 * Waits, up to `limitMs`, for V8's memory reducer: about 30 s after a process's allocation rate falls it runs full
 * collections and returns the heap's empty pages. Returns when the resident size fell by a fifth, or at the limit.
 */
async function idleUntilReduced(pid: number, from: number, limitMs: number): Promise<{ rss: number; seconds: number }> {
  const started = performance.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const { rss } = residentMiB(pid);
    const seconds = (performance.now() - started) / 1000;
    if (rss < from * 0.8 || seconds * 1000 >= limitMs) return { rss, seconds };
  }
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
    resetPeak(service.pid);
    const warm = await noopSync(service, file);
    const warmMem = residentMiB(service.pid);
    const reduced = await idleUntilReduced(service.pid, warmMem.rss, 60_000);
    resetPeak(service.pid);
    const held = await noopSync(service, file);
    const heldMem = residentMiB(service.pid);

    await service.restart();
    const idleAgain = residentMiB(service.pid).rss;
    resetPeak(service.pid);
    const fresh = await noopSync(service, file);
    const freshMem = residentMiB(service.pid);

    const mib = (n: number) => `${n.toFixed(0)} MiB`;
    const sync = (m: { rss: number; peak: number }, r: { rows: number; pulledKib: number; ms: number }) =>
      `${mib(m.rss).padStart(8)}   peak ${mib(m.peak).padStart(7)}   (${r.rows} rows pushed, ${r.pulledKib.toFixed(0)} KiB pulled, ${(r.ms / 1000).toFixed(2)} s)`;
    console.log(`\nmemory: a project of ${KEYS} keys × ${LOCALES.length} locales on PostgreSQL + Redis (the service process's VmRSS; a sync's peak is its own VmHWM)`);
    console.log(`  started, idle (floor)                     ${mib(idle).padStart(8)}`);
    console.log(`  after translating it (${cold.rows.total} rows)         ${mib(afterBatch.rss).padStart(8)}   peak ${mib(afterBatch.peak).padStart(7)}`);
    console.log(`  no-op sync right after the batch          ${sync(warmMem, warm)}`);
    console.log(`  idle ${reduced.seconds.toFixed(0).padStart(2)} s (V8's memory reducer ran)       ${mib(reduced.rss).padStart(8)}`);
    console.log(`  no-op sync, holding the project           ${sync(heldMem, held)}   target: at most 200 MiB`);
    console.log(`  restarted, idle                           ${mib(idleAgain).padStart(8)}`);
    console.log(`  no-op sync after the restart              ${sync(freshMem, fresh)}   target: at most 200 MiB`);
  });
}
