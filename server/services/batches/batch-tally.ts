/** A batch's rows counted by status and outcome, and the words they spent. */
import type { Db } from '../../db/database.js';

const SPENDING_OUTCOMES: ReadonlySet<string> = new Set(['translated', 'refused', 'kept_human']);

export interface BatchTally {
  queued: number;
  done: number;
  failed: number;
  cancelled: number;
  wordsSpent: number;
  outcomes: Record<string, number>;
}

/** Counts a batch's rows by status and outcome; derived on read rather than kept in counters that could drift. */
export async function batchTally(db: Pick<Db, 'selectFrom'>, batchId: string): Promise<BatchTally> {
  const groups = await db
    .selectFrom('batch_rows')
    .select((eb) => ['status', 'outcome', eb.fn.countAll<string>().as('rows'), eb.fn.sum<string>('words').as('words')])
    .where('batch_id', '=', batchId)
    .groupBy(['status', 'outcome'])
    .execute();
  const tally: BatchTally = { queued: 0, done: 0, failed: 0, cancelled: 0, wordsSpent: 0, outcomes: {} };
  for (const group of groups) {
    const rows = Number(group.rows);
    tally[group.status] += rows;
    if (group.outcome) tally.outcomes[group.outcome] = (tally.outcomes[group.outcome] ?? 0) + rows;
    // Words pay for provider work: written and refused rows used it; memory reuse, superseded-before-commit and failures did not.
    if (group.outcome && SPENDING_OUTCOMES.has(group.outcome)) tally.wordsSpent += Number(group.words ?? 0);
  }
  return tally;
}
