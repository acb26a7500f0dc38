/** The events a finished batch sends: batch.completed or batch.failed, and the translation and drift summaries. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { batchTally, type BatchTally } from '../services/batches/batch-tally.js';
import type { GateName } from '../../src/core/gates/types.js';
import { EVENT_LIST_LIMIT, emitEvent } from './outbox.js';

type Executor = Pick<Db, 'selectFrom' | 'insertInto'>;

/**
 * Emits the events of a batch that has just finished (in the transaction that finished it). `counted`: the batch's
 * tally, when the caller has just counted it in the same transaction.
 */
export async function emitBatchFinished(db: Executor, batchId: string, counted?: BatchTally): Promise<void> {
  const batch = await db.selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirstOrThrow();
  if (batch.status !== 'completed' && batch.status !== 'failed') return;
  const tally = counted ?? (await batchTally(db, batchId));
  const refused = await db
    .selectFrom('batch_rows as r')
    .innerJoin('keys as k', 'k.id', 'r.key_id')
    .select(['k.key', 'k.path', 'r.locale', 'r.failures', 'r.reason'])
    .where('r.batch_id', '=', batchId)
    .where('r.status', '=', 'done')
    .where('r.outcome', '=', 'refused')
    .orderBy('r.id')
    .limit(EVENT_LIST_LIMIT)
    .execute();
  await emitEvent(db, batch.project_id, batch.status === 'completed' ? 'batch.completed' : 'batch.failed', {
    batch: {
      id: batch.id,
      status: batch.status,
      path: batch.path,
      format: batch.format,
      created_at: batch.created_at.toISOString(),
      finished_at: (batch.finished_at ?? new Date()).toISOString(),
      error: batch.error,
    },
    rows: { total: tally.queued + tally.done + tally.failed + tally.cancelled, outcomes: tally.outcomes },
    words: { reserved: batch.words_reserved, spent: tally.wordsSpent, refunded: batch.words_refunded },
    refused: refused.map((r) => {
      // The failures of the last attempt are why the row was refused.
      const failures = r.failures ?? [];
      const last = Math.max(1, ...failures.map((f) => f.attempt ?? 1));
      const first = failures.find((f) => (f.attempt ?? 1) === last);
      return { key: r.key, path: r.path, locale: r.locale, gate: (first?.gate ?? null) as GateName | null, reason: first?.reason ?? r.reason ?? 'refused' };
    }),
    refused_count: tally.outcomes.refused ?? 0,
    files: batch.path !== null ? [{ path: batch.path, format: batch.format }] : [],
    pull: batch.path !== null ? { path: batch.path, url: `/v1/pull?path=${encodeURIComponent(batch.path)}` } : null,
  });

  // Counted in the database: a batch of 30,000 rows sends the first EVENT_LIST_LIMIT of them, not all.
  const totals = await db
    .selectFrom('batch_rows')
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<number>`(count(*) filter (where repaired_drift))::int`.as('repaired'),
      sql<string[]>`coalesce(array_agg(distinct locale collate "C" order by locale collate "C"), '{}')`.as('locales'),
      sql<string[]>`coalesce(array_agg(distinct locale collate "C" order by locale collate "C") filter (where repaired_drift), '{}')`.as('repaired_locales'),
    ])
    .where('batch_id', '=', batchId)
    .where('outcome', 'in', ['translated', 'memory'])
    .executeTakeFirstOrThrow();
  const writtenRows = (repairedOnly: boolean) =>
    db
      .selectFrom('batch_rows as r')
      .innerJoin('keys as k', 'k.id', 'r.key_id')
      .leftJoin('translations as t', (join) => join.onRef('t.key_id', '=', 'r.key_id').onRef('t.locale', '=', 'r.locale'))
      .select(['k.key', 'k.path', 'r.locale', 't.state'])
      .where('r.batch_id', '=', batchId)
      .where('r.status', '=', 'done')
      .where('r.outcome', 'in', ['translated', 'memory'])
      .$if(repairedOnly, (q) => q.where('r.repaired_drift', '=', true))
      .orderBy('r.id')
      .limit(EVENT_LIST_LIMIT)
      .execute();
  if (totals.count > 0) {
    const written = await writtenRows(false);
    await emitEvent(db, batch.project_id, 'translation.updated', {
      origin: 'batch',
      batch_id: batch.id,
      count: totals.count,
      locales: totals.locales,
      translations: written.map((w) => ({ key: w.key, path: w.path, locale: w.locale, state: w.state ?? 'accepted' })),
      truncated: totals.count > EVENT_LIST_LIMIT,
    });
  }
  if (totals.repaired > 0) {
    const repaired = await writtenRows(true);
    await emitEvent(db, batch.project_id, 'source_drift.repaired', {
      origin: 'batch',
      batch_id: batch.id,
      count: totals.repaired,
      locales: totals.repaired_locales,
      keys: repaired.map((w) => ({ key: w.key, path: w.path, locale: w.locale })),
      truncated: totals.repaired > EVENT_LIST_LIMIT,
    });
  }
}
