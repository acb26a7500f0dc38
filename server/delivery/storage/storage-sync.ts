/**
 * Syncs releases to storage targets: claims queued syncs with a database lease (one at a time per target), uploads
 * only objects whose content differs from what the target holds, the manifest last, and retries with backoff when
 * the target is unreachable or busy. A sync that fails leaves the previous manifest in place. Whether a client can see
 * half a release depends on the target's templates: with `{hash}` or `{release}` in them, every changed object gets a
 * new key, the old release's objects stay untouched, and a client that reads the keys the manifest lists never mixes
 * two releases; with plain paths (`{locale}.json`, the default) objects are overwritten in place, so a sync that
 * fails partway leaves some locale files new under the old manifest until the retry completes.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ReleaseObjectsTable, StorageSyncLogLine } from '../../db/schema.js';
import type { Logger } from '../../logger.js';
import { namePath, renderManifest, sha256Hex } from '../release-fns.js';
import { createAzureBlobClient } from './azure-blob-client.js';
import { createS3Client } from './s3-client.js';
import { StorageError, type GuardedAgents, type StorageClient } from './storage-client.js';
import { jitter, objectKey } from './storage-fns.js';
import { createLeasePoller } from '../../jobs/lease-poller.js';
import type { OpenedTarget, StorageTargetsService } from './storage-targets-service.js';
import type { Outbound } from '../../net/outbound.js';

export interface SyncSettings {
  /** Waits before the 2nd, 3rd… attempt of a sync that failed for a reason that may pass. */
  retryDelaysMs: readonly number[];
  /** Per request to the target. */
  timeoutMs: number;
  pollMs: number;
}

/** A sync's lease: renewed after every object, so only a crashed worker lets it lapse. */
const LEASE_SECONDS = 120;
/** Syncs a worker runs at once (of different targets). */
const SYNCS_IN_FLIGHT = 4;
/** A sync's log keeps this many lines; a long one keeps its first and last. */
const LOG_LINES = 400;

/** A client whose every connection goes through the guarded agents: a refused address fails the sync for good, see refusedAddress(). */
async function clientFor(target: OpenedTarget, timeoutMs: number, agents: GuardedAgents): Promise<StorageClient> {
  return target.kind === 's3' ? createS3Client(target.settings, target.credentials, { timeoutMs, agents }) : createAzureBlobClient(target.settings, target.credentials, { timeoutMs, agents });
}

type ReleaseObjectRow = Selectable<ReleaseObjectsTable>;

export function createStorageSync(deps: { db: Db; log: Logger; targets: Pick<StorageTargetsService, 'open'>; outbound: Pick<Outbound, 'agents'>; workerId: string } & SyncSettings) {
  const { db, log, workerId } = deps;

  /** One attempt of one claimed sync. */
  async function attempt(syncId: string): Promise<void> {
    const sync = await db
      .selectFrom('storage_syncs as s')
      .innerJoin('releases as r', 'r.id', 's.release_id')
      .select(['s.id', 's.target_id', 's.release_id', 's.attempts', 's.log', 'r.number', 'r.created_at', 'r.content_hash', 'r.shape', 'r.project_id'])
      .where('s.id', '=', syncId)
      .executeTakeFirstOrThrow();
    const lines: StorageSyncLogLine[] = [...sync.log];
    const note = (message: string) => {
      lines.push({ at: new Date().toISOString(), message });
      if (lines.length > LOG_LINES) lines.splice(LOG_LINES / 2, lines.length - LOG_LINES + 1, { at: new Date().toISOString(), message: '…' });
    };
    let uploaded = 0;
    let unchanged = 0;
    let client: StorageClient | undefined;
    try {
      const target = await deps.targets.open(sync.target_id);
      if (!target) return;
      note(`attempt ${sync.attempts}: release ${sync.number} to ${target.kind === 's3' ? `bucket '${target.settings.bucket}'` : `container '${target.settings.container}'`}${target.prefix ? ` under '${target.prefix}'` : ''}`);
      client = await clientFor(target, deps.timeoutMs, deps.outbound.agents());
      const objects = await db
        .selectFrom('release_objects')
        .select(['name', 'kind', 'locale', 'source_path', 'format', 'keys', 'content_type', 'sha256', 'bytes'])
        .where('release_id', '=', sync.release_id)
        .orderBy('kind')
        .orderBy('name')
        .execute();
      const project = await db.selectFrom('projects').select(['source_locale']).where('id', '=', sync.project_id).executeTakeFirstOrThrow();
      const layout = { prefix: target.prefix, pathTemplate: target.pathTemplate, filesTemplate: target.filesTemplate };
      const files = objects.filter((o): o is ReleaseObjectRow & { kind: 'bundle' | 'file' } => o.kind !== 'manifest').map((o) => ({ ...o, key: objectKey(layout, { kind: o.kind, name: o.name, locale: o.locale, sourcePath: o.source_path, sha256: o.sha256, release: sync.number }) }));
      const seen = new Map<string, string>();
      for (const f of files) {
        const other = seen.get(f.key);
        if (other) throw new StorageError(`The target's templates write both '${other}' and '${f.name}' to '${f.key}'; change path_template or files_template so each locale and file has its own object.`, 'other', false);
        seen.set(f.key, f.name);
      }

      const put = async (key: string, body: Uint8Array, sha256: string, contentType: string) => {
        const there = await client!.head(key);
        if (there?.sha256 === sha256) {
          unchanged++;
          return;
        }
        await client!.put(key, body, { contentType, sha256, ...(target.cacheControl ? { cacheControl: target.cacheControl } : {}) });
        uploaded++;
        note(`uploaded ${key} (${body.byteLength} bytes)`);
        await db.updateTable('storage_syncs').set({ lease_expires_at: sql`now() + (${LEASE_SECONDS}::int * interval '1 second')` }).where('id', '=', syncId).execute();
      };
      // Locale files first, the manifest last: until the manifest is written, it still describes the release before
      // (whose objects are intact only when the templates give changed objects new keys, see the module's note).
      const blobs = new Map(
        (
          await db
            .selectFrom('release_blobs')
            .select(['sha256', sql<string>`encode(content, 'base64')`.as('content')])
            .where(sql<boolean>`sha256 = any(${[...new Set(files.map((f) => f.sha256))]}::text[])`)
            .execute()
        ).map((b) => [b.sha256, b.content]),
      );
      for (const f of files) await put(f.key, new Uint8Array(Buffer.from(blobs.get(f.sha256)!, 'base64')), f.sha256, f.content_type);
      const prefix = target.prefix;
      const manifest = renderManifest({
        number: sync.number,
        createdAt: sync.created_at,
        contentHash: sync.content_hash,
        shape: sync.shape,
        sourceLocale: project.source_locale,
        objects: files.map((f) => ({ name: f.name, kind: f.kind, locale: f.locale!, sourcePath: f.source_path, format: (f.format ?? 'json') as 'json', keys: f.keys, sha256: f.sha256, bytes: f.bytes, url: namePath(f.key.slice(prefix.length)) })),
      });
      await put(`${prefix}manifest.json`, manifest, sha256Hex(manifest), 'application/json; charset=utf-8');
      note(`done: ${uploaded} uploaded, ${unchanged} unchanged`);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('storage_syncs')
          .set({ status: 'succeeded', uploaded, unchanged, error: null, log: JSON.stringify(lines), finished_at: sql`now()`, lease_owner: null, lease_expires_at: null })
          .where('id', '=', syncId)
          .execute();
        // A newer sync may have been queued meanwhile: the target stays pending for it.
        const newer = await trx.selectFrom('storage_syncs').select('id').where('target_id', '=', sync.target_id).where('status', '=', 'pending').limit(1).executeTakeFirst();
        await trx
          .updateTable('storage_targets')
          .set({ status: newer ? 'pending' : 'ok', last_error: null, last_release_number: sync.number, last_synced_at: sql`now()` })
          .where('id', '=', sync.target_id)
          .execute();
      });
      log.info('storage sync succeeded', { sync: syncId, target: sync.target_id, release: sync.number, uploaded, unchanged });
    } catch (error) {
      const failure = error instanceof StorageError ? error : new StorageError(`Sync failed: ${(error as Error).message}`, 'other', false);
      const delay = failure.retryable ? deps.retryDelaysMs[sync.attempts - 1] : undefined;
      const newer = await db.selectFrom('storage_syncs').select('id').where('target_id', '=', sync.target_id).where('status', '=', 'pending').where('id', '<>', syncId).limit(1).executeTakeFirst();
      if (delay !== undefined && !newer) {
        const wait = Math.max(jitter(delay), failure.retryAfterMs ?? 0);
        const at = new Date(Date.now() + wait);
        note(`failed: ${failure.message}; retrying at ${at.toISOString()}`);
        await db
          .updateTable('storage_syncs')
          .set({ status: 'pending', uploaded, unchanged, error: failure.message, log: JSON.stringify(lines), next_attempt_at: at, lease_owner: null, lease_expires_at: null })
          .where('id', '=', syncId)
          .execute();
        await db
          .updateTable('storage_targets')
          .set({ status: 'pending', last_error: `${failure.message} (attempt ${sync.attempts}; retrying at ${at.toISOString()})` })
          .where('id', '=', sync.target_id)
          .execute();
        log.warn('storage sync failed, will retry', { sync: syncId, target: sync.target_id, attempt: sync.attempts, error: failure.message });
        return;
      }
      const final = newer ? 'superseded' : 'failed';
      note(newer ? `failed: ${failure.message}; a newer release is queued for this target` : `failed: ${failure.message}`);
      await db
        .updateTable('storage_syncs')
        .set({ status: final, uploaded, unchanged, error: failure.message, log: JSON.stringify(lines), finished_at: sql`now()`, lease_owner: null, lease_expires_at: null })
        .where('id', '=', syncId)
        .execute();
      await db.updateTable('storage_targets').set({ status: newer ? 'pending' : 'failed', last_error: failure.message }).where('id', '=', sync.target_id).execute();
      log.warn('storage sync failed', { sync: syncId, target: sync.target_id, error: failure.message });
    } finally {
      client?.close();
    }
  }

  /**
   * Claims due syncs: pending ones whose time has come, and running ones whose worker went away (lease lapsed), never
   * two of one target at once.
   */
  async function claim(limit: number): Promise<string[]> {
    const rows = await sql<{ id: string }>`
      update storage_syncs set status = 'running', attempts = attempts + 1, lease_owner = ${workerId},
        lease_expires_at = now() + (${LEASE_SECONDS}::int * interval '1 second'), started_at = coalesce(started_at, now())
      where id in (
        select s.id from storage_syncs s
        where ((s.status = 'pending' and s.next_attempt_at <= now()) or (s.status = 'running' and s.lease_expires_at < now()))
          and not exists (select 1 from storage_syncs o where o.target_id = s.target_id and o.id <> s.id and o.status = 'running' and o.lease_expires_at >= now())
        order by s.next_attempt_at, s.id
        limit ${limit}
        for update skip locked
      )
      returning id`.execute(db);
    if (rows.rows.length > 0) {
      await db
        .updateTable('storage_targets')
        .set({ status: 'syncing' })
        .where('id', 'in', db.selectFrom('storage_syncs').select('target_id').where(sql<boolean>`id = any(${rows.rows.map((r) => r.id)}::text[])`))
        .execute();
    }
    return rows.rows.map((r) => r.id);
  }

  const poller = createLeasePoller({ name: 'storage sync', log, concurrency: SYNCS_IN_FLIGHT, pollMs: deps.pollMs, claim, run: attempt });

  return {
    ...poller,
    /** The only process on an embedded database: every sync left running is from a previous run. */
    async releaseAll() {
      await db.updateTable('storage_syncs').set({ status: 'pending', lease_owner: null, lease_expires_at: null }).where('status', '=', 'running').execute();
    },
  };
}

export type StorageSync = ReturnType<typeof createStorageSync>;
