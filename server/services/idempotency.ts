/** Idempotency-Key support: the first response to a key is stored and replayed to every retry with the same request. */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** A key whose first request never finished (the process died) is given up after this long. */
const ABANDONED_AFTER_SECONDS = 300;

export function createIdempotencyStore(deps: { db: Db }) {
  const { db } = deps;

  /**
   * Runs `work` once per (project, key). A retry with the same request gets the stored response; a retry with a
   * different request, or while the first is still running, is refused.
   */
  async function once(
    scope: { projectId: string; key: string; route: string; request: Uint8Array | string },
    work: () => Promise<StoredResponse>,
  ): Promise<StoredResponse & { replayed: boolean }> {
    if (scope.key.length === 0 || scope.key.length > 255) {
      throw new ApiError(422, 'validation_failed', 'Idempotency-Key must be 1 to 255 characters.');
    }
    const requestHash = createHash('sha256').update(scope.route).update('\u0000').update(scope.request).digest('hex');
    await db
      .deleteFrom('idempotency_records')
      .where('project_id', '=', scope.projectId)
      .where('key', '=', scope.key)
      .where('status', 'is', null)
      .where('created_at', '<', sql<Date>`now() - (${ABANDONED_AFTER_SECONDS}::int * interval '1 second')`)
      .execute();
    const claimed = await db
      .insertInto('idempotency_records')
      .values({ project_id: scope.projectId, key: scope.key, route: scope.route, request_sha256: requestHash })
      .onConflict((oc) => oc.columns(['project_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const record = await db.selectFrom('idempotency_records').selectAll().where('project_id', '=', scope.projectId).where('key', '=', scope.key).executeTakeFirstOrThrow();
      if (record.request_sha256 !== requestHash) {
        throw new ApiError(422, 'idempotency_key_reused', `Idempotency-Key '${scope.key}' was already used for a different request.`);
      }
      if (record.status === null) {
        throw new ApiError(409, 'idempotency_in_progress', `A request with Idempotency-Key '${scope.key}' is still being processed; retry shortly.`, {}, { 'Retry-After': '1' });
      }
      const body = JSON.parse(record.body ?? 'null') as { __problem?: { code: string; message: string; extras: Record<string, unknown> } } | null;
      if (body?.__problem) {
        const { code, message, extras } = body.__problem;
        throw new ApiError(record.status as ApiError['status'], code, message, extras, { 'Idempotent-Replayed': 'true' });
      }
      return { status: record.status, body, replayed: true };
    }
    try {
      const response = await work();
      await db
        .updateTable('idempotency_records')
        .set({ status: response.status, body: JSON.stringify(response.body) })
        .where('project_id', '=', scope.projectId)
        .where('key', '=', scope.key)
        .execute();
      return { ...response, replayed: false };
    } catch (error) {
      // A refused request (4xx) is a final answer worth replaying; anything else frees the key for a retry.
      if (error instanceof ApiError && error.status < 500 && error.status !== 429 && error.status !== 409) {
        await db
          .updateTable('idempotency_records')
          .set({ status: error.status, body: JSON.stringify({ __problem: { code: error.code, message: error.message, extras: error.extras } }) })
          .where('project_id', '=', scope.projectId)
          .where('key', '=', scope.key)
          .execute();
      } else {
        await db.deleteFrom('idempotency_records').where('project_id', '=', scope.projectId).where('key', '=', scope.key).execute();
      }
      throw error;
    }
  }

  return { once };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
