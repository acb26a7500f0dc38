/** Webhook subscriptions of a project: create (the secret is shown once), list, change, delete, rotate, test, delivery log. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import { attemptDelivery, type DeliverySettings } from './dispatcher.js';
import { EVENT_TYPES, EXAMPLES, type EventType } from './events.js';
import { checkWebhookUrl, UnsafeUrlError, type CheckUrlOptions } from '../net/address-guard.js';
import { generateSecret } from './signing.js';

/** How long the old secret keeps signing beside the new one after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

type WebhookRow = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  previous_secret_expires_at: Date | null;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
};

export function publicWebhook(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    events: w.events,
    enabled: w.enabled,
    disabled_reason: w.disabled_reason,
    disabled_at: w.disabled_at?.toISOString() ?? null,
    failing_since: w.failing_since?.toISOString() ?? null,
    previous_secret_expires_at: w.previous_secret_expires_at && w.previous_secret_expires_at.getTime() > Date.now() ? w.previous_secret_expires_at.toISOString() : null,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

export interface WebhookInput {
  url?: string | undefined;
  events?: string[] | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
}

export function createWebhooksService(deps: { db: Db; log: Logger; delivery: DeliverySettings; resolve?: CheckUrlOptions['resolve'] }) {
  const { db } = deps;

  async function checkUrl(url: string) {
    try {
      await checkWebhookUrl(url, { allowPrivate: deps.delivery.outbound.allowPrivate, ...(deps.resolve ? { resolve: deps.resolve } : {}) });
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw new ApiError(422, 'webhook_url_refused', `url: ${error.message}`, { url });
      throw error;
    }
  }

  function checkEvents(events: string[] | undefined): EventType[] {
    const unknown = (events ?? []).filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
    if (unknown.length > 0) throw new ApiError(422, 'event_unknown', `Unknown event kind(s) ${unknown.map((e) => `'${e}'`).join(', ')}; the 12 kinds are: ${EVENT_TYPES.join(', ')}.`, { events: unknown });
    return [...new Set(events ?? [])] as EventType[];
  }

  async function load(projectId: string, id: string) {
    const w = await db.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    if (!w) throw notFound('webhook_not_found', `No webhook '${id}' in this project.`);
    return w;
  }

  async function create(projectId: string, input: WebhookInput & { url: string }) {
    await checkUrl(input.url);
    const secret = generateSecret();
    const row = await db
      .insertInto('webhooks')
      .values({ id: newId('whk'), project_id: projectId, url: input.url, description: input.description ?? null, events: checkEvents(input.events), enabled: input.enabled ?? true, secret })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...publicWebhook(row), secret };
  }

  async function list(projectId: string, options: { cursor?: string; limit: number }) {
    let query = db.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(options.limit + 1);
    if (options.cursor) query = query.where('id', '<', options.cursor);
    const rows = await query.execute();
    const page = rows.slice(0, options.limit);
    return { items: page.map(publicWebhook), next_cursor: rows.length > options.limit ? page[page.length - 1]!.id : null };
  }

  async function get(projectId: string, id: string) {
    return publicWebhook(await load(projectId, id));
  }

  async function update(projectId: string, id: string, patch: WebhookInput) {
    await load(projectId, id);
    if (patch.url !== undefined) await checkUrl(patch.url);
    const row = await db
      .updateTable('webhooks')
      .set({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: checkEvents(patch.events) } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        // Re-enabling starts afresh: the reason and the failure streak are cleared.
        ...(patch.enabled !== undefined ? { enabled: patch.enabled, ...(patch.enabled ? { disabled_reason: null, disabled_at: null, failing_since: null } : { disabled_reason: 'disabled through the API', disabled_at: new Date() }) } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return publicWebhook(row);
  }

  async function remove(projectId: string, id: string) {
    const w = await load(projectId, id);
    await db.deleteFrom('webhooks').where('id', '=', id).execute();
    return publicWebhook(w);
  }

  /** A new secret; the old one keeps signing beside it for 24 hours, so receivers can switch without losing a delivery. */
  async function rotateSecret(projectId: string, id: string) {
    const w = await load(projectId, id);
    const secret = generateSecret();
    const expires = new Date(Date.now() + ROTATION_OVERLAP_MS);
    const row = await db.updateTable('webhooks').set({ secret, previous_secret: w.secret, previous_secret_expires_at: expires, updated_at: sql`now()` }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return { ...publicWebhook(row), secret };
  }

  /** Sends one event of `type` (its catalog example's data) to this subscription now, and returns the delivery. */
  async function test(projectId: string, id: string, type: EventType = 'batch.completed') {
    const w = await load(projectId, id);
    const project = await db.selectFrom('projects').select(['id', 'name']).where('id', '=', projectId).executeTakeFirstOrThrow();
    const eventId = newId('evt');
    const created = new Date();
    const payload = JSON.stringify({ ...EXAMPLES[type], id: eventId, created_at: created.toISOString(), project });
    const deliveryId = newId('msg');
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('events').values({ id: eventId, project_id: projectId, type, payload, created_at: created }).execute();
      // No due time: dispatchers leave it alone while this request makes the first attempt.
      await trx.insertInto('webhook_deliveries').values({ id: deliveryId, webhook_id: w.id, event_id: eventId, event_type: type, status: 'pending', next_attempt_at: null }).execute();
    });
    // A failure is retried on the normal schedule by the workers.
    await attemptDelivery({ db, log: deps.log, ...deps.delivery }, deliveryId);
    return (await deliveries(projectId, id, { limit: 1, delivery: deliveryId })).items[0]!;
  }

  async function deliveries(projectId: string, id: string, options: { cursor?: string; limit: number; status?: 'pending' | 'succeeded' | 'failed'; delivery?: string }) {
    await load(projectId, id);
    let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', id).orderBy('id', 'desc').limit(options.limit + 1);
    if (options.cursor) query = query.where('id', '<', options.cursor);
    if (options.status) query = query.where('status', '=', options.status);
    if (options.delivery) query = query.where('id', '=', options.delivery);
    const rows = await query.execute();
    const page = rows.slice(0, options.limit);
    const attempts = page.length
      ? await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', page.map((d) => d.id)).orderBy('id').execute()
      : [];
    return {
      items: page.map((d) => ({
        id: d.id,
        event_id: d.event_id,
        event_type: d.event_type,
        status: d.status,
        attempts: attempts
          .filter((a) => a.delivery_id === d.id)
          .map((a) => ({ attempt: a.attempt, started_at: a.started_at.toISOString(), status: a.status, latency_ms: a.latency_ms, response: a.response, error: a.error })),
        next_attempt_at: d.status === 'pending' ? (d.next_attempt_at?.toISOString() ?? null) : null,
        last_status: d.last_status,
        last_error: d.last_error,
        created_at: d.created_at.toISOString(),
        finished_at: d.finished_at?.toISOString() ?? null,
      })),
      next_cursor: rows.length > options.limit ? page[page.length - 1]!.id : null,
    };
  }

  /** Sends a delivery again, with the same `webhook-id` so receivers can recognise it, on a fresh retry schedule. */
  async function redeliver(projectId: string, id: string, deliveryId: string) {
    const w = await load(projectId, id);
    if (!w.enabled) throw new ApiError(409, 'webhook_disabled', `Webhook '${id}' is disabled (${w.disabled_reason ?? 'no reason recorded'}); enable it with PATCH first.`);
    const updated = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: sql`now()`, finished_at: null, lease_owner: null, lease_expires_at: null })
      .where('id', '=', deliveryId)
      .where('webhook_id', '=', id)
      .where('status', '!=', 'pending')
      .returning('id')
      .executeTakeFirst();
    if (!updated) {
      const exists = await db.selectFrom('webhook_deliveries').select('status').where('id', '=', deliveryId).where('webhook_id', '=', id).executeTakeFirst();
      if (!exists) throw notFound('delivery_not_found', `No delivery '${deliveryId}' for webhook '${id}'.`);
      throw new ApiError(409, 'delivery_pending', `Delivery '${deliveryId}' is still pending; it is sent on its retry schedule.`);
    }
    return (await deliveries(projectId, id, { limit: 1, delivery: deliveryId })).items[0]!;
  }

  return { create, list, get, update, remove, rotateSecret, test, deliveries, redeliver };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
