/**
 * The promises the soak checks at the end, from the database and the receiver: rows reach one final state, words add
 * up, allowances stay non-negative, every event is delivered once (after deduplication) or waits for a due retry,
 * and the rate limit held across the API processes. Each check gives a figure and whether it holds.
 */
import type pg from 'pg';
import { BUILT_IN_PLANS } from '../server/services/plans.js';
import type { Receiver } from './receiver.js';

export interface Check {
  name: string;
  figure: string;
  ok: boolean;
  /** What to look at when it failed. */
  detail?: string;
}

const SPENDING = `('translated', 'refused', 'kept_human')`;
const UNSPENT = `('cancelled', 'failed', 'memory', 'superseded')`;

async function rows<T extends pg.QueryResultRow>(db: pg.Client, text: string, values: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(text, values)).rows;
}

async function one<T extends pg.QueryResultRow>(db: pg.Client, text: string, values: unknown[] = []): Promise<T> {
  return (await rows<T>(db, text, values))[0]!;
}

const sample = (items: unknown[]) => (items.length === 0 ? undefined : JSON.stringify(items.slice(0, 5)));

export async function batchChecks(db: pg.Client, retried: ReadonlySet<string>): Promise<Check[]> {
  const checks: Check[] = [];

  const open = await rows<{ id: string; status: string }>(db, `select id, status from batches where status in ('queued', 'running')`);
  checks.push({ name: 'open batches after the drain', figure: String(open.length), ok: open.length === 0, detail: sample(open) });

  const unsettled = await rows<{ id: string; batch_id: string; status: string; outcome: string | null }>(
    db,
    `select r.id, r.batch_id, r.status, r.outcome from batch_rows r join batches b on b.id = r.batch_id
     where not ((r.status = 'done' and r.outcome in ('translated', 'memory', 'refused', 'superseded', 'kept_human'))
             or (r.status = 'failed' and r.outcome = 'failed')
             or (r.status = 'cancelled' and r.outcome = 'cancelled'))`,
  );
  const total = await one<{ n: string }>(db, `select count(*) as n from batch_rows`);
  checks.push({ name: 'rows not in exactly one final state', figure: `${unsettled.length} of ${total.n}`, ok: unsettled.length === 0, detail: sample(unsettled) });

  const repeated = (await rows<{ id: string; batch_id: string; attempts: number }>(db, `select id, batch_id, attempts from batch_rows where attempts > 1`)).filter((r) => !retried.has(r.batch_id));
  const unattempted = await rows<{ id: string }>(db, `select id from batch_rows where status in ('done', 'failed') and attempts < 1`);
  checks.push({ name: 'rows written more than once (attempts > 1, batch never retried)', figure: String(repeated.length), ok: repeated.length === 0, detail: sample(repeated) });
  checks.push({ name: 'final rows never attempted', figure: String(unattempted.length), ok: unattempted.length === 0, detail: sample(unattempted) });

  const twice = await rows<{ key_id: string; locale: string; n: string }>(
    db,
    `select key_id, locale, count(*) as n from batch_rows where outcome = 'translated' group by key_id, locale, source_hash having count(*) > 1`,
  );
  checks.push({ name: 'same source translated twice (key, locale, source hash)', figure: String(twice.length), ok: twice.length === 0, detail: sample(twice) });

  const words = await rows<{ id: string; status: string; reserved: number; refunded: number; spent: string; unspent: string; all_words: string }>(
    db,
    `select b.id, b.status, b.words_reserved as reserved, b.words_refunded as refunded,
            coalesce(sum(r.words) filter (where r.outcome in ${SPENDING}), 0) as spent,
            coalesce(sum(r.words) filter (where r.outcome in ${UNSPENT}), 0) as unspent,
            coalesce(sum(r.words), 0) as all_words
     from batches b left join batch_rows r on r.batch_id = b.id
     where b.status in ('completed', 'failed', 'cancelled') group by b.id`,
  );
  const charged = words.filter((b) => b.reserved - b.refunded !== Number(b.spent));
  // A retry reserves the failed rows' words again: that is the only way a batch reserves more than its rows' words.
  const refunds = words.filter((b) => {
    const extra = b.reserved - Number(b.all_words);
    return extra < 0 || (extra > 0 && !retried.has(b.id)) || b.refunded !== Number(b.unspent) + extra;
  });
  const sum = (pick: (b: (typeof words)[number]) => number) => words.reduce((acc, b) => acc + pick(b), 0);
  checks.push({
    name: 'words charged = words of translated (and refused, kept) rows',
    figure: `${sum((b) => b.reserved - b.refunded)} = ${sum((b) => Number(b.spent))}; ${charged.length} batches differ`,
    ok: charged.length === 0,
    detail: sample(charged),
  });
  const cancelledWords = await one<{ words: string }>(db, `select coalesce(sum(words), 0) as words from batch_rows where outcome = 'cancelled'`);
  checks.push({
    name: 'refunds = words of cancelled (and failed, memory, superseded) rows',
    figure: `${sum((b) => b.refunded)} refunded, ${cancelledWords.words} of them cancelled rows; ${refunds.length} batches differ`,
    ok: refunds.length === 0,
    detail: sample(refunds),
  });

  const orgs = await rows<{ id: string; plan: string; words_remaining: number; charged: string; period_start: Date; created_at: Date }>(
    db,
    `select o.id, o.plan, o.words_remaining, o.period_start, o.created_at,
            coalesce((select sum(b.words_reserved - b.words_refunded) from batches b join projects p on p.id = b.project_id where p.organisation_id = o.id), 0) as charged
     from organisations o`,
  );
  const negative = orgs.filter((o) => o.words_remaining < 0);
  // Only within the first period: a new month replaces the remainder, and the sum over all batches no longer applies.
  const drifted = orgs.filter((o) => o.period_start.getTime() <= o.created_at.getTime() + 1000 && BUILT_IN_PLANS[o.plan]!.initialWords - o.words_remaining !== Number(o.charged));
  checks.push({ name: 'allowances below zero', figure: `${negative.length} of ${orgs.length} (lowest ${Math.min(...orgs.map((o) => o.words_remaining))})`, ok: negative.length === 0, detail: sample(negative) });
  checks.push({ name: 'allowance used ≠ words charged by its batches', figure: `${drifted.length} of ${orgs.length}`, ok: drifted.length === 0, detail: sample(drifted) });

  const finishedEvents = await rows<{ id: string; status: string; completed: string; failed: string }>(
    db,
    `select b.id, b.status,
            count(e.id) filter (where e.type = 'batch.completed') as completed,
            count(e.id) filter (where e.type = 'batch.failed') as failed
     from batches b left join events e on e.project_id = b.project_id and e.type in ('batch.completed', 'batch.failed') and (e.payload::jsonb -> 'data' -> 'batch' ->> 'id') = b.id
     where b.status in ('completed', 'failed') group by b.id`,
  );
  const missing = finishedEvents.filter((b) => (b.status === 'completed' ? Number(b.completed) !== 1 : Number(b.failed) < 1 || Number(b.completed) !== 0));
  checks.push({ name: 'finished batches without exactly one batch.completed / a batch.failed event', figure: `${missing.length} of ${finishedEvents.length}`, ok: missing.length === 0, detail: sample(missing) });
  return checks;
}

export async function deliveryChecks(db: pg.Client, receiver: Receiver): Promise<{ checks: Check[]; figures: Record<string, number> }> {
  const checks: Check[] = [];
  const perEvent = await rows<{ event_id: string; n: string }>(
    db,
    `select e.id as event_id, count(d.id) as n from events e join webhooks w on w.project_id = e.project_id left join webhook_deliveries d on d.event_id = e.id and d.webhook_id = w.id group by e.id, w.id having count(d.id) <> 1`,
  );
  checks.push({ name: 'events without exactly one delivery per subscription', figure: String(perEvent.length), ok: perEvent.length === 0, detail: sample(perEvent) });

  const deliveries = await rows<{ id: string; status: string; next_attempt_at: Date | null; attempts: number; last_error: string | null }>(
    db,
    `select id, status, next_attempt_at, attempts, last_error from webhook_deliveries`,
  );
  const failed = deliveries.filter((d) => d.status === 'failed');
  const stuck = deliveries.filter((d) => d.status === 'pending' && d.next_attempt_at === null);
  const pending = deliveries.filter((d) => d.status === 'pending');
  checks.push({ name: 'deliveries given up (failed)', figure: String(failed.length), ok: failed.length === 0, detail: sample(failed) });
  checks.push({ name: 'pending deliveries without a due retry', figure: `${stuck.length} (pending with a retry: ${pending.length - stuck.length})`, ok: stuck.length === 0, detail: sample(stuck) });

  const known = new Set(deliveries.map((d) => d.id));
  const answeredOk = new Set(receiver.receipts.filter((r) => r.status >= 200 && r.status < 300 && !r.late).map((r) => r.id));
  const succeeded = deliveries.filter((d) => d.status === 'succeeded');
  const notReceived = succeeded.filter((d) => !answeredOk.has(d.id));
  const phantom = [...new Set(receiver.receipts.map((r) => r.id))].filter((id) => !known.has(id));
  const unsigned = receiver.receipts.filter((r) => !r.signatureValid);
  const delivered = new Set([...answeredOk].filter((id) => known.has(id)));
  const succeededIds = new Set(succeeded.map((d) => d.id));
  const deliveredButPending = [...delivered].filter((id) => !succeededIds.has(id));
  checks.push({ name: 'succeeded deliveries the receiver never accepted', figure: String(notReceived.length), ok: notReceived.length === 0, detail: sample(notReceived) });
  checks.push({ name: 'accepted by the receiver, not recorded as succeeded', figure: String(deliveredButPending.length), ok: deliveredButPending.every((id) => pending.some((d) => d.id === id && d.next_attempt_at !== null)), detail: sample(deliveredButPending) });
  checks.push({ name: 'receipts with an unknown webhook-id', figure: String(phantom.length), ok: phantom.length === 0, detail: sample(phantom) });
  checks.push({ name: 'receipts with an invalid signature', figure: String(unsigned.length), ok: unsigned.length === 0, detail: sample(unsigned.map((r) => r.id)) });

  const okReceipts = receiver.receipts.filter((r) => r.status === 200 && !r.late).length;
  return {
    checks,
    figures: {
      events: Number((await one<{ n: string }>(db, `select count(*) as n from events`)).n),
      deliveries: deliveries.length,
      delivered: delivered.size,
      receipts: receiver.receipts.length,
      duplicateAcceptances: okReceipts - new Set(receiver.receipts.filter((r) => r.status === 200 && !r.late).map((r) => r.id)).size,
      attempts: deliveries.reduce((acc, d) => acc + d.attempts, 0),
    },
  };
}

/**
 * At most `limit` requests let through per token per fixed minute (windows named by x-ratelimit-reset). A Redis
 * restart empties the counters, so windows that span one are reported apart: there the limit starts counting again.
 */
export function rateLimitChecks(windows: Map<string, Map<number, number>>, limit: number, redisRestarts: readonly number[]): Check[] {
  let worst = 0;
  let worstRestart = 0;
  let counted = 0;
  const over: string[] = [];
  for (const [token, perWindow] of windows) {
    for (const [reset, n] of perWindow) {
      const end = reset * 1000;
      const spansRestart = redisRestarts.some((t) => t > end - 60_000 && t <= end);
      counted += 1;
      if (spansRestart) worstRestart = Math.max(worstRestart, n);
      else {
        worst = Math.max(worst, n);
        if (n > limit) over.push(`${token}@${new Date(end).toISOString()}: ${n}`);
      }
    }
  }
  return [
    { name: `token-minutes over ${limit} requests (across the API processes)`, figure: `${over.length} of ${counted}; busiest ${worst}; busiest spanning a Redis restart ${worstRestart}`, ok: over.length === 0, detail: sample(over) },
  ];
}
