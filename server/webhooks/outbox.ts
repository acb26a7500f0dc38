/**
 * Emitting an event: written to the events table, with one pending delivery per matching subscription, in the same
 * transaction as the change that caused it. Nothing is sent from here; dispatchers pick deliveries up, so an event
 * is never lost to a crash and never sent for a change that was rolled back. An event without subscribers is not stored.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { newId } from '../ids.js';
import { EVENT_DATA, EVENT_LIST_LIMIT, type EventData, type EventType } from './events.js';

type Executor = Pick<Db, 'selectFrom' | 'insertInto'>;

export { EVENT_LIST_LIMIT };

export async function emitEvent<T extends EventType>(db: Executor, projectId: string, type: T, data: EventData<T>): Promise<string> {
  // A payload that does not match its published schema is a bug here, not something to send.
  const checked = EVENT_DATA[type].parse(data);
  const id = newId('evt');
  const subscribers = await db
    .selectFrom('webhooks')
    .select(['id'])
    .where('project_id', '=', projectId)
    .where('enabled', '=', true)
    .where(sql<boolean>`(cardinality(events) = 0 or ${type} = any(events))`)
    .execute();
  // Stored only for delivery: an event nobody subscribed to leaves no row behind.
  if (subscribers.length === 0) return id;
  const project = await db.selectFrom('projects').select(['id', 'name']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const created = new Date();
  const payload = JSON.stringify({ id, type, created_at: created.toISOString(), project: { id: project.id, name: project.name }, data: checked });
  await db.insertInto('events').values({ id, project_id: projectId, type, payload, created_at: created }).execute();
  await db
    .insertInto('webhook_deliveries')
    .values(subscribers.map((w) => ({ id: newId('msg'), webhook_id: w.id, event_id: id, event_type: type, status: 'pending' as const, next_attempt_at: created })))
    .execute();
  return id;
}
