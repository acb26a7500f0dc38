/** Reading, listing, cancelling and retrying batches, and waking batches whose worker went away. */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { BatchRecord } from '../../db/schema.js';
import { ApiError, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { refundWords, reserveWords } from '../allowance.js';
import { batchTally, type BatchTally } from './batch-tally.js';

/**
 * How fast the batch's rows settle: rows a minute since it started (to its end, once it has one), and the seconds
 * left at that pace while rows are queued. Null before a worker starts it or before a row settles.
 */
export function batchRate(batch: Pick<BatchRecord, 'started_at' | 'finished_at'>, settled: number, queued: number, now: number = Date.now()) {
  if (!batch.started_at || settled === 0) return { rows_per_minute: null, eta_seconds: null };
  const elapsedMs = Math.max(1, (batch.finished_at?.getTime() ?? now) - batch.started_at.getTime());
  const perMinute = (settled * 60_000) / elapsedMs;
  return { rows_per_minute: Math.round(perMinute), eta_seconds: queued > 0 && !batch.finished_at ? Math.ceil((queued * 60) / perMinute) : null };
}

export function publicBatch(batch: BatchRecord, tally: BatchTally) {
  return {
    id: batch.id,
    status: batch.status,
    path: batch.path,
    format: batch.format,
    keys: {
      added: batch.keys_added,
      changed: batch.keys_changed,
      unchanged: batch.keys_unchanged,
      removed: batch.keys_removed,
    },
    rows: {
      total: tally.queued + tally.done + tally.failed + tally.cancelled,
      queued: tally.queued,
      done: tally.done,
      failed: tally.failed,
      cancelled: tally.cancelled,
      outcomes: tally.outcomes,
    },
    words: {
      reserved: batch.words_reserved,
      spent: tally.wordsSpent,
      refunded: batch.words_refunded,
    },
    rate: batchRate(batch, tally.done + tally.failed + tally.cancelled, tally.queued),
    error: batch.error,
    created_at: batch.created_at.toISOString(),
    started_at: batch.started_at?.toISOString() ?? null,
    finished_at: batch.finished_at?.toISOString() ?? null,
  };
}

export type PublicBatch = ReturnType<typeof publicBatch>;

const FINAL_STATUSES: ReadonlySet<BatchRecord['status']> = new Set(['completed', 'failed', 'cancelled']);

/** How often a wait reads the batch's status while it is open: a batch a worker in another process settles is seen this late at most. */
const WAIT_POLL_MS = 100;

export function createBatchService(deps: { db: Db; queue: JobQueue; leaseSeconds: number }) {
  const { db, queue } = deps;
  /** Waiters of `waitUntilSettled` in this process, by batch: woken at once when this process settles the batch. */
  const waiters = new Map<string, Set<() => void>>();

  /** Wakes this process's waiters of a batch that just ended (the runner's finalize, a cancel). */
  function settled(batchId: string): void {
    for (const wake of waiters.get(batchId) ?? []) wake();
  }

  /**
   * Returns once the batch is completed, failed or cancelled, or after `ms`, or when `signal` aborts (the client went
   * away), whichever comes first. Reads only the batch's status (its primary key), every 100 ms, and is woken at once
   * when a worker in this process settles it; the caller then reads the batch as usual.
   */
  async function waitUntilSettled(projectId: string, batchId: string, ms: number, signal?: AbortSignal): Promise<void> {
    const deadline = performance.now() + ms;
    const status = async () => (await db.selectFrom('batches').select('status').where('id', '=', batchId).where('project_id', '=', projectId).executeTakeFirst())?.status;
    for (;;) {
      const now = await status();
      const left = deadline - performance.now();
      if (now === undefined || FINAL_STATUSES.has(now) || left <= 0 || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const set = waiters.get(batchId) ?? new Set();
        waiters.set(batchId, set);
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          set.delete(done);
          if (set.size === 0 && waiters.get(batchId) === set) waiters.delete(batchId);
          resolve();
        };
        const timer = setTimeout(done, Math.min(WAIT_POLL_MS, left));
        signal?.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    }
  }

  async function load(projectId: string, batchId: string, trx: Pick<Db, 'selectFrom'> = db, lock = false) {
    let query = trx.selectFrom('batches').selectAll().where('id', '=', batchId).where('project_id', '=', projectId);
    if (lock) query = query.forUpdate();
    const batch = await query.executeTakeFirst();
    if (!batch) throw notFound('batch_not_found', `No batch '${batchId}' in this project.`);
    return batch;
  }

  async function get(projectId: string, batchId: string): Promise<PublicBatch> {
    const batch = await load(projectId, batchId);
    return publicBatch(batch, await batchTally(db, batchId));
  }

  async function list(projectId: string, options: { cursor?: string; limit: number; status?: BatchRecord['status'] }) {
    let query = db.selectFrom('batches').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(options.limit + 1);
    if (options.cursor) query = query.where('id', '<', options.cursor);
    if (options.status) query = query.where('status', '=', options.status);
    const rows = await query.execute();
    const page = rows.slice(0, options.limit);
    const items = await Promise.all(page.map(async (batch) => publicBatch(batch, await batchTally(db, batch.id))));
    return { items, next_cursor: rows.length > options.limit ? page[page.length - 1]!.id : null };
  }

  async function rows(projectId: string, batchId: string, options: { cursor?: string; limit: number; outcome?: string }) {
    await load(projectId, batchId);
    let query = db
      .selectFrom('batch_rows as r')
      .innerJoin('keys as k', 'k.id', 'r.key_id')
      .select(['r.id', 'k.key', 'k.path', 'r.locale', 'r.status', 'r.outcome', 'r.reason', 'r.words', 'r.pass', 'r.attempts', 'r.gate_outcome', 'r.failures', 'r.retries', 'r.provider', 'k.line'])
      .where('r.batch_id', '=', batchId)
      .orderBy('r.id')
      .limit(options.limit + 1);
    if (options.cursor) query = query.where('r.id', '>', options.cursor);
    if (options.outcome) query = query.where('r.outcome', '=', options.outcome);
    const found = await query.execute();
    const page = found.slice(0, options.limit);
    return {
      items: page.map((row) => ({
        key: row.key,
        path: row.path,
        line: row.line,
        locale: row.locale,
        status: row.status,
        outcome: row.outcome ?? 'pending',
        reason: row.reason,
        words: row.words,
        pass: row.pass,
        attempts: row.attempts,
        gate_outcome: row.gate_outcome,
        gate_failures: (row.failures ?? []).map((f) => ({ gate: f.gate, reason: f.reason, attempt: f.attempt ?? 1 })),
        corrective_retries: row.retries,
        provider: row.provider,
      })),
      next_cursor: found.length > options.limit ? String(page[page.length - 1]!.id) : null,
    };
  }

  /** Stops a queued or running batch; rows not yet written are cancelled and their words returned. */
  async function cancel(projectId: string, batchId: string): Promise<PublicBatch> {
    await db.transaction().execute(async (trx) => {
      const batch = await load(projectId, batchId, trx, true);
      if (batch.status !== 'queued' && batch.status !== 'running') {
        throw new ApiError(409, 'batch_not_cancellable', `Batch '${batchId}' is ${batch.status}; only queued or running batches can be cancelled.`, { status: batch.status });
      }
      await trx
        .updateTable('batch_rows')
        .set({ status: 'cancelled', outcome: 'cancelled', updated_at: sql`now()` })
        .where('batch_id', '=', batchId)
        .where('status', '=', 'queued')
        .execute();
      const tally = await batchTally(trx, batchId);
      const refund = batch.words_reserved - tally.wordsSpent - batch.words_refunded;
      const project = await trx.selectFrom('projects').select('organisation_id').where('id', '=', projectId).executeTakeFirstOrThrow();
      await refundWords(trx, project.organisation_id, refund);
      await trx
        .updateTable('batches')
        .set({ status: 'cancelled', finished_at: sql`now()`, words_refunded: batch.words_refunded + Math.max(0, refund), lease_owner: null, lease_expires_at: null })
        .where('id', '=', batchId)
        .execute();
    });
    settled(batchId);
    return get(projectId, batchId);
  }

  /** Re-queues a failed batch's failed rows; rows already translated are not charged again. */
  async function retry(projectId: string, batchId: string): Promise<PublicBatch> {
    await db.transaction().execute(async (trx) => {
      const batch = await load(projectId, batchId, trx, true);
      if (batch.status !== 'failed') {
        throw new ApiError(409, 'batch_not_retryable', `Batch '${batchId}' is ${batch.status}; only failed batches can be retried.`, { status: batch.status });
      }
      // The project lock a push takes (after the batch lock, the order finalize takes them in): a push and a retry
      // then never both queue the same row.
      await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
      // A failed row that no longer needs work, by the push's own rule (the source changed, a newer batch translated
      // it, a candidate is held, or a queued row carries it), is settled instead of being translated and charged again.
      await trx
        .updateTable('batch_rows as r')
        .set({ status: 'done', outcome: 'superseded', reason: 'a newer push took this row over after it failed; the retry left it alone', updated_at: sql`now()` })
        .where('r.batch_id', '=', batchId)
        .where('r.status', '=', 'failed')
        .where((eb) =>
          eb.or([
            eb.exists(eb.selectFrom('keys as k').select('k.id').whereRef('k.id', '=', 'r.key_id').whereRef('k.source_hash', '<>', 'r.source_hash')),
            eb.exists(
              eb.selectFrom('translations as t').select('t.key_id').whereRef('t.key_id', '=', 'r.key_id').whereRef('t.locale', '=', 'r.locale').whereRef('t.source_hash', '=', 'r.source_hash').where('t.stale', '=', false),
            ),
            eb.exists(
              eb.selectFrom('held_translations as h').select('h.key_id').whereRef('h.key_id', '=', 'r.key_id').whereRef('h.locale', '=', 'r.locale').whereRef('h.source_hash', '=', 'r.source_hash').where('h.state', '=', 'held'),
            ),
            eb.exists(
              eb.selectFrom('batch_rows as o').select('o.id').whereRef('o.key_id', '=', 'r.key_id').whereRef('o.locale', '=', 'r.locale').whereRef('o.source_hash', '=', 'r.source_hash').where('o.status', '=', 'queued'),
            ),
          ]),
        )
        .execute();
      const failed = await trx
        .selectFrom('batch_rows')
        .select((eb) => [eb.fn.countAll<string>().as('rows'), eb.fn.sum<string>('words').as('words')])
        .where('batch_id', '=', batchId)
        .where('status', '=', 'failed')
        .executeTakeFirstOrThrow();
      const words = Number(failed.words ?? 0);
      const project = await trx.selectFrom('projects').select('organisation_id').where('id', '=', projectId).executeTakeFirstOrThrow();
      await reserveWords(trx, project.organisation_id, words);
      await trx
        .updateTable('batch_rows')
        .set({ status: 'queued', outcome: null, reason: null, updated_at: sql`now()` })
        .where('batch_id', '=', batchId)
        .where('status', '=', 'failed')
        .execute();
      await trx
        .updateTable('batches')
        .set({ status: 'queued', error: null, finished_at: null, words_reserved: batch.words_reserved + words, enqueued_at: sql`now()` })
        .where('id', '=', batchId)
        .execute();
    });
    // Committed already; a lost wake-up is repaired by the sweeper.
    await queue.enqueueBatch(batchId).catch(() => undefined);
    return get(projectId, batchId);
  }

  /**
   * Wakes open batches that no worker holds: after a crash, a lost queue message or a Redis outage.
   * A batch is woken at most once per lease period, so a long queue is not flooded with duplicates.
   */
  async function sweep(): Promise<string[]> {
    const stale = sql<Date>`now() - (${deps.leaseSeconds}::int * interval '1 second')`;
    const woken = await db
      .updateTable('batches')
      .set({ enqueued_at: sql`now()` })
      .where('status', 'in', ['queued', 'running'])
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', sql<Date>`now()`)]))
      .where((eb) => eb.or([eb('enqueued_at', 'is', null), eb('enqueued_at', '<', stale)]))
      .returning('id')
      .execute();
    for (const { id } of woken) await queue.enqueueBatch(id);
    return woken.map((b) => b.id);
  }

  /** For a single-process deployment at start-up: no other process can hold a lease, so all are stale. */
  async function resumeAll(): Promise<string[]> {
    const open = await db
      .updateTable('batches')
      .set({ lease_owner: null, lease_expires_at: null, enqueued_at: sql`now()` })
      .where('status', 'in', ['queued', 'running'])
      .returning('id')
      .execute();
    for (const { id } of open) await queue.enqueueBatch(id);
    return open.map((b) => b.id);
  }

  return { get, list, rows, cancel, retry, sweep, resumeAll, settled, waitUntilSettled };
}

export type BatchService = ReturnType<typeof createBatchService>;
