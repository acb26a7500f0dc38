/** The organisation's word allowance: reserved when a batch is queued, returned when words go unspent. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import { UNLIMITED_WORDS, findPlan, limitsOf, periodContaining, periodWords, remedy, unlimitedWordsIn } from './plans.js';

type Executor = Pick<Db, 'selectFrom' | 'updateTable'>;

/** Starts a new monthly period when the current one is over; the month's words replace what was left. */
async function refreshPeriod(db: Executor, organisationId: string, now: Date) {
  const org = await db
    .selectFrom('organisations')
    .select(['id', 'name', 'plan', 'created_at', 'period_end'])
    .where('id', '=', organisationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const limits = limitsOf(org);
  const period = periodContaining(org.created_at, now);
  if (now < org.period_end) return { org, limits, period };
  await db
    .updateTable('organisations')
    .set({ words_remaining: periodWords(limits, period.index), period_start: period.start, period_end: period.end })
    .where('id', '=', organisationId)
    .execute();
  return { org, limits, period };
}

/** Takes `words` from the allowance inside the caller's transaction, or throws 402 allowance_exhausted. */
export async function reserveWords(db: Executor, organisationId: string, words: number, now = new Date()): Promise<void> {
  const { org, limits, period } = await refreshPeriod(db, organisationId, now);
  if (words === 0) return;
  if (unlimitedWordsIn(limits, period.index)) {
    // No word limit: the kept allowance is topped up rather than run out, so it never refuses.
    await db
      .updateTable('organisations')
      .set({ words_remaining: sql`greatest(words_remaining, ${Math.min(words, UNLIMITED_WORDS)}) - ${Math.min(words, UNLIMITED_WORDS)}` })
      .where('id', '=', organisationId)
      .execute();
    return;
  }
  const updated = await db
    .updateTable('organisations')
    .set({ words_remaining: sql`words_remaining - ${words}` })
    .where('id', '=', organisationId)
    .where('words_remaining', '>=', words)
    .returning('words_remaining')
    .executeTakeFirst();
  if (updated) return;
  const left = await db.selectFrom('organisations').select(['words_remaining', 'period_end']).where('id', '=', organisationId).executeTakeFirstOrThrow();
  const advice = remedy(org, (other) => other.monthlyWords > limits.monthlyWords, 'Wait for the allowance to reset, or upgrade to a plan with more words.');
  throw new ApiError(
    402,
    'allowance_exhausted',
    `This push needs ${words} words but organisation '${org.name}' (${org.plan} plan) has ${left.words_remaining} left until ${left.period_end.toISOString()}. ${advice}`,
    {
      plan: org.plan,
      words_needed: words,
      words_remaining: left.words_remaining,
      resets_at: left.period_end.toISOString(),
    },
  );
}

export async function refundWords(db: Executor, organisationId: string, words: number): Promise<void> {
  if (words <= 0) return;
  // Capped at the column's range: a refund after an unlimited plan's top-up may return more than was taken.
  await db
    .updateTable('organisations')
    .set({ words_remaining: sql`least(words_remaining::bigint + ${words}, 2147483647)::integer` })
    .where('id', '=', organisationId)
    .execute();
}

/** The allowance as shown; `unlimited` when the plan has no word limit (then the numbers are only bookkeeping). */
export async function readAllowance(db: Executor, organisationId: string, now = new Date()) {
  const org = await db
    .selectFrom('organisations')
    .select(['plan', 'words_remaining', 'period_start', 'period_end', 'created_at'])
    .where('id', '=', organisationId)
    .executeTakeFirstOrThrow();
  const limits = findPlan(org.plan);
  const period = periodContaining(org.created_at, now);
  const unlimited = limits !== undefined && unlimitedWordsIn(limits, period.index);
  const wordsPerMonth = limits ? periodWords(limits, 1) : 0;
  if (now >= org.period_end) {
    return { plan: org.plan, unlimited, words_per_month: wordsPerMonth, words_remaining: limits ? periodWords(limits, period.index) : 0, period_start: period.start, period_end: period.end };
  }
  return { plan: org.plan, unlimited, words_per_month: wordsPerMonth, words_remaining: org.words_remaining, period_start: org.period_start, period_end: org.period_end };
}
