/** The organisation's word allowance: reserved when a batch is queued, returned when words go unspent. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import { PLANS, periodContaining } from './plans.js';

type Executor = Pick<Db, 'selectFrom' | 'updateTable'>;

/** Starts a new monthly period when the current one is over; the month's words replace what was left. */
async function refreshPeriod(db: Executor, organisationId: string, now: Date) {
  const org = await db
    .selectFrom('organisations')
    .select(['plan', 'created_at', 'period_end'])
    .where('id', '=', organisationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (now < org.period_end) return;
  const period = periodContaining(org.created_at, now);
  await db
    .updateTable('organisations')
    .set({ words_remaining: PLANS[org.plan].monthlyWords, period_start: period.start, period_end: period.end })
    .where('id', '=', organisationId)
    .execute();
}

/** Takes `words` from the allowance inside the caller's transaction, or throws 402 allowance_exhausted. */
export async function reserveWords(db: Executor, organisationId: string, words: number, now = new Date()): Promise<void> {
  await refreshPeriod(db, organisationId, now);
  if (words === 0) return;
  const updated = await db
    .updateTable('organisations')
    .set({ words_remaining: sql`words_remaining - ${words}` })
    .where('id', '=', organisationId)
    .where('words_remaining', '>=', words)
    .returning('words_remaining')
    .executeTakeFirst();
  if (updated) return;
  const org = await db.selectFrom('organisations').select(['words_remaining', 'period_end']).where('id', '=', organisationId).executeTakeFirstOrThrow();
  throw new ApiError(402, 'allowance_exhausted', `This push needs ${words} words but the organisation has ${org.words_remaining} left until ${org.period_end.toISOString()}.`, {
    words_needed: words,
    words_remaining: org.words_remaining,
    resets_at: org.period_end.toISOString(),
  });
}

export async function refundWords(db: Executor, organisationId: string, words: number): Promise<void> {
  if (words <= 0) return;
  await db
    .updateTable('organisations')
    .set({ words_remaining: sql`words_remaining + ${words}` })
    .where('id', '=', organisationId)
    .execute();
}

export async function readAllowance(db: Executor, organisationId: string, now = new Date()) {
  const org = await db
    .selectFrom('organisations')
    .select(['plan', 'words_remaining', 'period_start', 'period_end', 'created_at'])
    .where('id', '=', organisationId)
    .executeTakeFirstOrThrow();
  if (now >= org.period_end) {
    const period = periodContaining(org.created_at, now);
    return { plan: org.plan, words_remaining: PLANS[org.plan].monthlyWords, period_start: period.start, period_end: period.end };
  }
  return { plan: org.plan, words_remaining: org.words_remaining, period_start: org.period_start, period_end: org.period_end };
}
