/**
 * Delivers pending webhook deliveries: claims due ones with a database lease (so several workers share the work
 * and a crashed worker's deliveries are taken over), sends them concurrently (a slow receiver holds one slot, not
 * the queue), records every attempt, and schedules retries with exponential backoff and jitter.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { Outbound } from '../net/outbound.js';
import { sendWebhook } from './send.js';
import { webhookHeaders } from './signing.js';
import { createLeasePoller } from '../jobs/lease-poller.js';

export interface DeliverySettings {
  /** Deliveries connect through its guarded lookup, to the addresses OUTBOUND_ALLOW_PRIVATE_ADDRESSES allows. */
  outbound: Pick<Outbound, 'allowPrivate' | 'lookup'>;
  timeoutMs: number;
  /** Waits before the 2nd, 3rd… attempt; one attempt more than there are delays. */
  retryDelaysMs: readonly number[];
  /** A subscription whose deliveries keep failing this long, through a delivery's last retry, is disabled. */
  disableAfterMs: number;
}

export interface DispatcherOptions extends DeliverySettings {
  db: Db;
  log: Logger;
  workerId: string;
  concurrency: number;
  pollMs: number;
}

/** ±10 % so receivers that failed together are not retried together. */
function jitter(ms: number): number {
  return Math.round(ms * (0.9 + Math.random() * 0.2));
}

/** One attempt of one delivery, recorded; decides the delivery's next state and the subscription's health. */
export async function attemptDelivery(deps: { db: Db; log: Logger } & DeliverySettings, deliveryId: string): Promise<void> {
  const { db, log } = deps;
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.attempts', 'd.status', 'w.id as webhook_id', 'w.url', 'w.enabled', 'w.secret', 'w.previous_secret', 'w.previous_secret_expires_at', 'e.payload'])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  if (!row || row.status !== 'pending') return;
  if (!row.enabled) {
    await db.updateTable('webhook_deliveries').set({ status: 'failed', last_error: 'the subscription is disabled', finished_at: sql`now()`, lease_owner: null }).where('id', '=', deliveryId).execute();
    return;
  }
  const now = Date.now();
  const secrets = [row.secret, ...(row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > now ? [row.previous_secret] : [])];
  const result = await sendWebhook({
    url: row.url,
    headers: webhookHeaders(secrets, row.id, Math.floor(now / 1000), row.payload),
    body: row.payload,
    timeoutMs: deps.timeoutMs,
    allowPrivate: deps.outbound.allowPrivate,
    lookup: deps.outbound.lookup,
  });
  const attempt = row.attempts + 1;
  const previous = await db.selectFrom('webhook_attempts').select((eb) => eb.fn.countAll<string>().as('n')).where('delivery_id', '=', deliveryId).executeTakeFirstOrThrow();
  await db
    .insertInto('webhook_attempts')
    .values({ delivery_id: deliveryId, attempt: Number(previous.n) + 1, status: result.status, latency_ms: result.latencyMs, response: result.response || null, error: result.error })
    .execute();

  const error = result.error ?? (result.ok ? null : `HTTP ${result.status}`);
  // A delivery's final state and its subscription's health change in one transaction: a reader never sees a
  // failed delivery beside a subscription that is about to be disabled because of it.
  if (result.ok) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('webhook_deliveries').set({ status: 'succeeded', attempts: attempt, last_status: result.status, last_error: null, finished_at: sql`now()`, next_attempt_at: null, lease_owner: null, lease_expires_at: null }).where('id', '=', deliveryId).execute();
      await trx.updateTable('webhooks').set({ failing_since: null }).where('id', '=', row.webhook_id).execute();
    });
    return;
  }
  if (result.status === 410) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('webhook_deliveries').set({ status: 'failed', attempts: attempt, last_status: 410, last_error: error, finished_at: sql`now()`, next_attempt_at: null, lease_owner: null, lease_expires_at: null }).where('id', '=', deliveryId).execute();
      await trx.updateTable('webhooks').set({ enabled: false, disabled_reason: 'the receiver answered 410 Gone', disabled_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', row.webhook_id).execute();
    });
    log.warn('webhook disabled: 410 Gone', { webhook: row.webhook_id });
    return;
  }
  await db.updateTable('webhooks').set({ failing_since: sql`coalesce(failing_since, now())` }).where('id', '=', row.webhook_id).execute();
  // An address the service may not reach is refused again on every retry: the delivery ends now, saying why.
  const delay = result.refused ? undefined : deps.retryDelaysMs[attempt - 1];
  if (delay !== undefined) {
    const wait = Math.max(jitter(delay), result.retryAfterMs ?? 0);
    await db
      .updateTable('webhook_deliveries')
      .set({ attempts: attempt, last_status: result.status, last_error: error, next_attempt_at: new Date(Date.now() + wait), lease_owner: null, lease_expires_at: null })
      .where('id', '=', deliveryId)
      .execute();
    return;
  }
  const disabledSince = await db.transaction().execute(async (trx) => {
    await trx.updateTable('webhook_deliveries').set({ status: 'failed', attempts: attempt, last_status: result.status, last_error: error, finished_at: sql`now()`, next_attempt_at: null, lease_owner: null, lease_expires_at: null }).where('id', '=', deliveryId).execute();
    const webhook = await trx.selectFrom('webhooks').select(['failing_since']).where('id', '=', row.webhook_id).executeTakeFirst();
    if (!webhook?.failing_since || Date.now() - webhook.failing_since.getTime() < deps.disableAfterMs) return undefined;
    const since = webhook.failing_since.toISOString();
    await trx
      .updateTable('webhooks')
      .set({ enabled: false, disabled_reason: `every delivery has failed since ${since}; the last one gave up after ${attempt} attempts (${error})`, disabled_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', row.webhook_id)
      .execute();
    return since;
  });
  if (disabledSince) log.warn('webhook disabled after repeated failures', { webhook: row.webhook_id, since: disabledSince });
}

export function createDispatcher(options: DispatcherOptions) {
  const { db, workerId } = options;

  /** Claims due deliveries up to the free slots; a lease outlives the request timeout, so only a crash lets it lapse. */
  async function claim(limit: number): Promise<string[]> {
    const leaseSeconds = Math.ceil(options.timeoutMs / 1000) + 5;
    const rows = await sql<{ id: string }>`
      update webhook_deliveries set lease_owner = ${workerId}, lease_expires_at = now() + (${leaseSeconds}::int * interval '1 second')
      where id in (
        select id from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now() and (lease_owner is null or lease_expires_at < now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked
      )
      returning id`.execute(db);
    return rows.rows.map((r) => r.id);
  }

  const poller = createLeasePoller({ name: 'webhook delivery', log: options.log, concurrency: options.concurrency, pollMs: options.pollMs, claim, run: (id) => attemptDelivery({ ...options }, id) });

  return {
    ...poller,
    /** The only process on an embedded database: every lease left behind is from a previous run. */
    async releaseAll() {
      await db.updateTable('webhook_deliveries').set({ lease_owner: null, lease_expires_at: null }).where('status', '=', 'pending').where('lease_owner', 'is not', null).execute();
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
