/**
 * Service benchmark: a JSON file of N keys pushed, translated into 3 locales by the pseudo provider, pushed again
 * unchanged and pulled, on the embedded default and (when reachable) on PostgreSQL + Redis. Sizes: 10,000 and 50,000
 * keys on both, 200,000 on PostgreSQL only (BENCH_SIZES, e.g. `10000,50000`). Each size runs in a process of its own.
 *
 * The service is `parlance start` from build/ (built first), in a process of its own as operators run it, so its
 * memory figures are the service's (from /proc), and this process's work as the client does not share its thread.
 *
 * Beside each figure: the machine's floor for the same work, measured in this process on the same database once the
 * service has stopped (parsing and hashing the file, an unnest insert of the same number of rows, a select of them,
 * the rendered file's JSON.stringify), and the ratio. Every figure is also printed per 10,000 keys, which stays flat
 * when cost is linear. Prints figures; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from '../server/db/database.js';
import { buildService, DATABASE_URL, REDIS_URL, reachable, residentMiB, sourceFile, withServiceProcess, type Backend, type ServiceProcess } from './bench-service.js';

const LOCALES = 3;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}


interface Figures {
  backend: Backend;
  keys: number;
  rows: number;
  kib: number;
  push: number;
  complete: number;
  repush: number;
  repushRows: number;
  pull: number;
  pullKib: number;
  zip: number;
  rssMiB: number;
  peakMiB: number;
  idleMiB: number;
  /** The service's peak resident memory after each step, in MiB: which step raised it. */
  peaks: Record<string, number>;
  floors: { push: number; complete: number; repush: number; pull: number };
}

/** One size on one backend: the service in a process of its own, the figures, then the floors on the same database. */
async function measure(backend: Backend, keys: number): Promise<Figures> {
  let figures: Omit<Figures, 'floors'> | undefined;
  let floors: Figures['floors'] | undefined;
  const file = sourceFile(keys);
  const service = async ({ url, headers, pid }: ServiceProcess) => {
    const idleMiB = residentMiB(pid).rss;
    const peaks: Record<string, number> = {};
    const peak = (step: string) => (peaks[step] = residentMiB(pid).peak);
    peak('start');
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

    const [first, pushMs] = await timed(push);
    peak('push');
    const [, completeMs] = await timed(async () => {
      for (;;) {
        // Held by the service until the batch ends (up to 60 s a request), as the CLI waits: answered the moment the
        // batch is done, without polls that count the batch's rows while it runs.
        const res = await fetch(`${url}/v1/batches/${first.id}?limit=1&wait=60`, { headers });
        const body = (await res.json()) as { status: string };
        if (body.status === 'completed') return;
        if (body.status === 'failed' || body.status === 'cancelled') throw new Error(`batch ${body.status}`);
      }
    });
    peak('batch');
    const [second, repushMs] = await timed(push);
    peak('re-push');
    const [pulled, pullMs] = await timed(async () => (await fetch(`${url}/v1/pull?locale=de`, { headers })).arrayBuffer());
    peak('pull');
    const [, zipMs] = await timed(async () => (await fetch(`${url}/v1/pull`, { headers })).arrayBuffer());
    peak('zip');
    const { rss: rssMiB, peak: peakMiB } = residentMiB(pid);
    figures = {
      backend,
      keys,
      rows: first.rows.total,
      kib: file.length / 1024,
      push: pushMs,
      complete: completeMs,
      repush: repushMs,
      repushRows: second.rows.total,
      pullKib: pulled.byteLength / 1024,
      pull: pullMs,
      zip: zipMs,
      rssMiB,
      peakMiB,
      idleMiB,
      peaks,
    };
  };

  // The floors, on the same database once the service has stopped: what parsing, hashing, writing and reading this
  // many rows costs at least, measured in this process.
  const measureFloors = async (db: Db) => {
    const table = sql.raw(`bench_floor_${randomBytes(4).toString('hex')}`);
    await sql`create table ${table} (id text primary key, key text not null, locale text not null, text text not null, n int not null)`.execute(db);
    const rowsOf = (n: number, locale: string) => {
      const ids: string[] = [], names: string[] = [], locales: string[] = [], texts: string[] = [], ns: number[] = [];
      for (let i = 0; i < n; i++) {
        ids.push(`row_${locale}_${i.toString().padStart(24, '0')}`);
        names.push(`screen${Math.floor(i / 50)}.item${i}`);
        locales.push(locale);
        texts.push(`Item ${i}: {count} new messages from %s in <b>your inbox</b>`);
        ns.push(i);
      }
      return sql`insert into ${table} select * from unnest(${ids}::text[], ${names}::text[], ${locales}::text[], ${texts}::text[], ${ns}::int[])`;
    };
    const parseAndHash = () => {
      const parsed = JSON.parse(file) as Record<string, string>;
      for (const [key, value] of Object.entries(parsed)) createHash('sha256').update(key).update('\0').update(value).digest('hex');
    };
    const [, parseMs] = await timed(async () => parseAndHash());
    const [, insertKeysMs] = await timed(() => rowsOf(keys, 'en').execute(db));
    const [, insertRowsMs] = await timed(async () => {
      for (const locale of ['de', 'fr', 'ja']) await rowsOf(keys, locale).execute(db);
    });
    const [, updateRowsMs] = await timed(() => sql`update ${table} set text = text || '!' where locale <> 'en'`.execute(db));
    const [selected, selectMs] = await timed(() => sql<{ key: string; text: string }>`select key, text from ${table} where locale = 'de'`.execute(db));
    const [, stringifyMs] = await timed(async () => JSON.stringify(Object.fromEntries(selected.rows.map((r) => [r.key, r.text])), null, 2));
    await sql`drop table ${table}`.execute(db);
    floors = {
      // Read and hash the file, write its keys and one row per key and locale.
      push: parseMs + insertKeysMs + insertRowsMs,
      // Write one translation per row and update each row once.
      complete: insertRowsMs + updateRowsMs,
      // Read and hash the file, read the stored keys.
      repush: parseMs + selectMs,
      // Read one locale's rows and write them out.
      pull: selectMs + stringifyMs,
    };
  };
  await withServiceProcess(backend, { env: { SWEEP_INTERVAL_MS: '1000' } }, service, measureFloors);
  return { ...figures!, floors: floors! };
}

function print(f: Figures) {
  const per10k = 10_000 / f.keys;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
  const line = (label: string, ms: number, floorMs: number | undefined, note: string) =>
    console.log(
      `  ${label.padEnd(26)}${s(ms)}  ${s(ms * per10k)}/10k   ${floorMs === undefined ? ''.padEnd(24) : `floor ${s(floorMs)} ×${(ms / floorMs).toFixed(1).padEnd(5)}`}  ${note}`,
    );
  console.log(`\n${f.backend}: ${f.keys.toLocaleString('en')} keys, ${f.kib.toFixed(0)} KiB, ${LOCALES} target locales`);
  line('first push (202)', f.push, f.floors.push, `${f.rows} rows queued`);
  line('batch complete (pseudo)', f.complete, f.floors.complete, `${Math.round(f.rows / (f.complete / 1000))} rows/s`);
  line('unchanged re-push (202)', f.repush, f.floors.repush, `${f.repushRows} rows queued`);
  line('pull one locale', f.pull, f.floors.pull, `${f.pullKib.toFixed(0)} KiB`);
  line('pull all locales (zip)', f.zip, undefined, '');
  console.log(
    `  resident memory           ${f.rssMiB.toFixed(0).padStart(5)} MiB at the end, ${f.peakMiB.toFixed(0)} MiB peak; floor: ${f.idleMiB.toFixed(0)} MiB with the service started and idle (the service process)`,
  );
  console.log(`  peak after each step      ${Object.entries(f.peaks).map(([step, m]) => `${step} ${m.toFixed(0)}`).join(', ')} MiB `);
}

const SELF = fileURLToPath(import.meta.url);
const RUN_TS = fileURLToPath(new URL('../bin/run-ts.js', import.meta.url));

if (process.argv[2] === '--one') {
  // A child: one backend and size, figures back to the parent as JSON on the last line.
  buildService();
  const figures = await measure(process.argv[3] as Backend, Number(process.argv[4]));
  console.log(JSON.stringify(figures));
} else {
  const sizes = (process.env.BENCH_SIZES ?? '10000,50000,200000').split(',').map(Number);
  const pg = await reachable();
  const runs: [Backend, number][] = [];
  for (const keys of sizes) {
    // 200,000 keys × 3 locales is 600,000 rows: on PostgreSQL only, as the embedded database is for small projects.
    if (keys <= 50_000) runs.push(['embedded', keys]);
    if (pg) runs.push(['postgres+redis', keys]);
  }
  if (!pg) console.log(`postgres+redis: skipped (no PostgreSQL at ${DATABASE_URL} or Redis at ${REDIS_URL})`);
  for (const [backend, keys] of runs) {
    const child = spawnSync(process.execPath, [RUN_TS, SELF, '--one', backend, String(keys)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
    const last = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !last.startsWith('{')) {
      console.log(`\n${backend}, ${keys} keys: the run failed (exit ${child.status})\n${child.stdout}`);
      continue;
    }
    print(JSON.parse(last) as Figures);
  }
}
