/**
 * The embedded database on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly and runs on whichever
 * thread opened it; on the service's main thread every query held up the batch runner's gates and the HTTP responses
 * for as long as it ran. Here a worker thread owns the PGlite instance and this side forwards queries to it, so the
 * database's work and the service's overlap on a machine with two cores or more (docs/decisions.md, "Embedded database").
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What the dialect needs of an embedded database: PGlite's `query` and `close`. */
export interface EmbeddedDatabase {
  query<R>(sql: string, params: readonly unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  close(): Promise<void>;
}

type Reply = { id: number; rows: unknown[]; affectedRows?: number } | { id: number; error: Record<string, unknown> & { message: string } };

/**
 * The worker's code, run as a CommonJS script (`eval`), so it needs no TypeScript loader in development or tests.
 * It opens PGlite, answers `ready` (or `failed`), then runs one message at a time in arrival order. An error keeps its
 * own properties (`code`, `detail`, `constraint`...), which the service reads, e.g. 23505 for a unique violation.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const plain = (error) => {
  const out = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object') for (const [k, v] of Object.entries(error)) if (typeof v !== 'function' && typeof v !== 'object') out[k] = v;
  if (error instanceof Error) out.name = error.name;
  return out;
};
(async () => {
  let db;
  try {
    const { PGlite } = await import(workerData.module);
    db = new PGlite(workerData.dataDir, workerData.options);
    await db.waitReady;
  } catch (error) {
    parentPort.postMessage({ id: 0, error: plain(error) });
    return;
  }
  let queue = Promise.resolve();
  parentPort.on('message', (message) => {
    queue = queue.then(async () => {
      if (message.close) {
        await db.close();
        parentPort.postMessage({ id: message.id, rows: [] });
        parentPort.close();
        return;
      }
      try {
        const result = await db.query(message.sql, message.params);
        parentPort.postMessage({ id: message.id, rows: result.rows, affectedRows: result.affectedRows });
      } catch (error) {
        parentPort.postMessage({ id: message.id, error: plain(error) });
      }
    });
  });
  parentPort.postMessage({ id: 0, rows: [] });
})();
`;

/** An error from the worker, with the properties PGlite gave it. */
function revive(error: Record<string, unknown> & { message: string }): Error {
  return Object.assign(new Error(error.message), error);
}

/** Opens PGlite on a worker thread; resolves once it is ready, or rejects with the reason it could not open. */
export async function openPGliteThread(dataDir: string | undefined, options: Record<string, unknown>): Promise<EmbeddedDatabase> {
  // The ESM entry, as the service itself would import it (a CommonJS require of the package resolves its .cjs build).
  const module = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href.replace(/\.cjs$/, '.js');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, dataDir, options } });
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  let next = 1;
  let stopped: Error | undefined;
  // The thread keeps the process alive only while a query is under way, like a socket with a request in flight.
  const track = () => (pending.size > 0 ? worker.ref() : worker.unref());

  const ready = new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: (reply) => ('error' in reply ? reject(revive(reply.error)) : resolve()), reject });
  });
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    track();
    waiter.resolve(reply);
  });
  const fail = (error: Error) => {
    stopped ??= new Error(`The embedded database stopped: ${error.message}`, { cause: error });
    for (const waiter of pending.values()) waiter.reject(stopped);
    pending.clear();
    track();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`its thread exited with code ${code}`)));
  track();
  await ready;

  const send = (message: Record<string, unknown>): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = next++;
      pending.set(id, { resolve, reject });
      track();
      worker.postMessage({ id, ...message });
    });

  return {
    async query<R>(sql: string, params: readonly unknown[]) {
      const reply = await send({ sql, params });
      if ('error' in reply) throw revive(reply.error);
      return { rows: reply.rows as R[], ...(reply.affectedRows !== undefined ? { affectedRows: reply.affectedRows } : {}) };
    },
    async close() {
      if (stopped) return;
      await send({ close: true });
      await worker.terminate();
    },
  };
}
