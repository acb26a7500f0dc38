/**
 * Imports from other platforms: created by the API, run as jobs claimed with a database lease, resumed from their
 * checkpoint after a crash, cancelled on request. The platform's credentials and the uploaded archive are kept only
 * while the import runs.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ImportsTable } from '../db/schema.js';
import { ApiError, notFound } from '../errors.js';
import { openSecret, sealSecret, SECRET_KEY_HINT } from '../github-app/crypto.js';
import { newId } from '../ids.js';
import { createLeasePoller } from '../jobs/lease-poller.js';
import type { Logger } from '../logger.js';
import type { ArchiveLimits } from '../../src/core/archive-limits.js';
import { ImportSourceError, type ApiSource, type PlatformId, type PlatformReader, type ReaderContext } from './import-model.js';
import { createImportWriter, emptyReport, type ImportOptions, type ImportReport } from './import-writer.js';
import { createPlatformHttp } from './platform-http.js';
import { PUBLIC_ONLY_REASON, UnsafeAddressError, type Outbound } from '../net/outbound.js';

export type ImportInput =
  | { platform: PlatformId; source: 'api'; api: ApiSource; options: ImportOptions }
  | { platform: PlatformId; source: 'archive'; archive: Uint8Array; archiveName: string; options: ImportOptions };

type ImportRow = Selectable<ImportsTable>;

export function publicImport(row: Omit<ImportRow, 'archive' | 'credentials_ciphertext' | 'checkpoint'>) {
  const options = row.options as unknown as ImportOptions;
  return {
    id: row.id,
    platform: row.platform as PlatformId,
    source: row.source,
    status: row.status,
    options: { conflict: options.conflict, unreviewed: options.unreviewed, dry_run: options.dryRun },
    archive_name: row.archive_name,
    progress: row.progress as { message?: string; done?: number; total?: number },
    // A report saved before a list existed (refused_paths) shows it empty.
    report: { ...emptyReport(), ...(row.report as unknown as ImportReport) },
    error: row.error,
    attempts: row.attempts,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

export type PublicImport = ReturnType<typeof publicImport>;

const PUBLIC_COLUMNS = ['id', 'project_id', 'platform', 'source', 'status', 'options', 'archive_name', 'progress', 'report', 'error', 'attempts', 'lease_owner', 'lease_expires_at', 'created_at', 'started_at', 'finished_at'] as const;

/** An import's lease: renewed while it runs (rate-limit waits included), so only a crashed worker lets it lapse. */
const LEASE_SECONDS = 60;
/** The least time between two writes of an import's progress. */
const PROGRESS_MS = 250;
const sealContext = (importId: string) => `imports:${importId}:credentials`;

class Cancelled extends Error {}
/** The service is stopping: the import stays running, and a worker resumes it from its checkpoint. */
class Stopping extends Error {}

export interface ImportServiceDeps {
  db: Db;
  log: Logger;
  secretKey: Uint8Array | undefined;
  /** The reader of each platform, loaded when an import of it runs. */
  readers: (platform: PlatformId) => Promise<PlatformReader>;
  workerId: string;
  pollMs: number;
  /** MAX_INFLATED_BYTES and MAX_ARCHIVE_ENTRIES, for the readers of uploaded exports. */
  archiveLimits: Readonly<ArchiveLimits>;
  /** Requests to the platform's API go through it; a base URL the project gives is checked when the import is created. */
  outbound: Pick<Outbound, 'fetch' | 'checkField'>;
}

/** The longest error an import keeps: a remote system's words are an excerpt, never a whole answer. */
const ERROR_CHARS = 600;

export function createImportService(deps: ImportServiceDeps) {
  const { db, log, workerId } = deps;
  const running = new Map<string, AbortController>();
  // Transifex answers a finished download with a 303 to its file store: followed, without the platform's credentials.
  const platformFetch = deps.outbound.fetch({ crossOrigin: 'drop-credentials' });
  /** Only a process with the worker role runs imports; an API-only process queues them for the workers. */
  let started = false;

  function requireSecretKey(): Uint8Array {
    if (deps.secretKey) return deps.secretKey;
    throw new ApiError(503, 'secret_key_missing', `An API import keeps the platform's token encrypted while it runs, and PARLANCE_SECRET_KEY is not set. The operator sets it to ${SECRET_KEY_HINT}, then restarts the service; an import from an uploaded export works without it.`);
  }

  async function create(projectId: string, input: ImportInput): Promise<PublicImport> {
    if (input.source === 'api' && input.api.baseUrl !== undefined) await deps.outbound.checkField(input.api.baseUrl, 'api.base_url', `The ${input.platform} API address`);
    const id = newId('imp');
    const row = await db
      .insertInto('imports')
      .values({
        id,
        project_id: projectId,
        platform: input.platform,
        source: input.source,
        status: 'queued',
        options: JSON.stringify(input.options),
        credentials_ciphertext: input.source === 'api' ? sealSecret(requireSecretKey(), JSON.stringify(input.api), sealContext(id)) : null,
        archive: input.source === 'archive' ? (sql`decode(${Buffer.from(input.archive).toString('base64')}, 'base64')` as never) : null,
        archive_name: input.source === 'archive' ? input.archiveName : null,
        checkpoint: null,
        report: JSON.stringify(emptyReport()),
        progress: JSON.stringify({ message: 'queued' }),
      })
      .returning([...PUBLIC_COLUMNS])
      .executeTakeFirstOrThrow();
    if (started) void poller.tick();
    return publicImport(row);
  }

  async function get(projectId: string, importId: string): Promise<PublicImport> {
    const row = await db.selectFrom('imports').select([...PUBLIC_COLUMNS]).where('project_id', '=', projectId).where('id', '=', importId).executeTakeFirst();
    if (!row) throw notFound('import_not_found', `No import '${importId}' in this project.`);
    return publicImport(row);
  }

  async function list(projectId: string, options: { cursor?: string; limit: number }) {
    let query = db.selectFrom('imports').select([...PUBLIC_COLUMNS]).where('project_id', '=', projectId).orderBy('id', 'desc').limit(options.limit + 1);
    if (options.cursor) query = query.where('id', '<', options.cursor);
    const rows = await query.execute();
    const page = rows.slice(0, options.limit);
    return { items: page.map(publicImport), next_cursor: rows.length > options.limit ? page[page.length - 1]!.id : null };
  }

  async function cancel(projectId: string, importId: string): Promise<PublicImport> {
    const current = await get(projectId, importId);
    if (current.status === 'completed' || current.status === 'failed' || current.status === 'cancelled') {
      throw new ApiError(409, 'import_finished', `Import '${importId}' has already ${current.status === 'completed' ? 'completed' : current.status === 'failed' ? 'failed' : 'been cancelled'}; there is nothing to cancel.`);
    }
    await db
      .updateTable('imports')
      .set({ status: 'cancelled', finished_at: sql`now()`, credentials_ciphertext: null, archive: null, lease_owner: null, lease_expires_at: null, progress: JSON.stringify({ message: 'cancelled' }) })
      .where('id', '=', importId)
      .where('status', 'in', ['queued', 'running'])
      .execute();
    running.get(importId)?.abort(new Cancelled('cancelled'));
    return get(projectId, importId);
  }

  /** Runs one claimed import to its end, from its checkpoint. */
  async function run(importId: string): Promise<void> {
    const row = await db
      .selectFrom('imports')
      .select(['id', 'project_id', 'platform', 'source', 'options', 'credentials_ciphertext', sql<string | null>`encode(archive, 'base64')`.as('archive'), 'archive_name', 'checkpoint', 'report'])
      .where('id', '=', importId)
      .executeTakeFirstOrThrow();
    const controller = new AbortController();
    running.set(importId, controller);
    const report = { ...emptyReport(), ...(row.report as unknown as ImportReport) };
    const options = row.options as unknown as ImportOptions;
    const writer = createImportWriter({ projectId: row.project_id, platform: row.platform as PlatformId, options, report });
    const renewLease = () => db.updateTable('imports').set({ lease_expires_at: sql`now() + (${LEASE_SECONDS}::int * interval '1 second')` }).where('id', '=', importId).where('lease_owner', '=', workerId).execute();
    const heartbeat = setInterval(() => void renewLease().catch((error: unknown) => log.warn('import lease renewal failed', { import: importId, error })), (LEASE_SECONDS * 1000) / 3);
    let lastProgress = 0;
    let latestProgress: { message: string; done?: number; total?: number } | undefined;
    let progressTimer: NodeJS.Timeout | undefined;
    const saveProgress = () => {
      clearTimeout(progressTimer);
      progressTimer = undefined;
      if (!latestProgress || controller.signal.aborted) return;
      lastProgress = Date.now();
      const progress = JSON.stringify(latestProgress);
      latestProgress = undefined;
      void db
        .updateTable('imports')
        .set({ progress })
        .where('id', '=', importId)
        .where('status', '=', 'running')
        .execute()
        .catch((error: unknown) => log.warn('import progress not saved', { import: importId, error }));
    };
    const context: ReaderContext = {
      signal: controller.signal,
      http: createPlatformHttp({ signal: controller.signal, headers: {}, fetch: platformFetch, onWait: (reason, ms) => context.progress(`waiting ${Math.ceil(ms / 1000)} s: ${reason}`) }),
      checkpoint: row.checkpoint ?? undefined,
      archiveLimits: deps.archiveLimits,
      async emit(chunks, checkpoint) {
        await db.transaction().execute(async (trx) => {
          const current = await trx.selectFrom('imports').select(['status']).where('id', '=', importId).forUpdate().executeTakeFirstOrThrow();
          if (current.status !== 'running') throw new Cancelled(current.status);
          await writer.write(trx, chunks);
          await trx.updateTable('imports').set({ checkpoint: JSON.stringify(checkpoint ?? null), report: JSON.stringify(report) }).where('id', '=', importId).execute();
        });
        context.checkpoint = checkpoint;
      },
      progress(message, done, total) {
        latestProgress = { message, ...(done !== undefined ? { done } : {}), ...(total !== undefined ? { total } : {}) };
        const wait = lastProgress + PROGRESS_MS - Date.now();
        // At most one write a quarter second; the last report within one is written at its end, not dropped, so what
        // GET shows while the reader waits on a slow page is where it stands.
        if (wait > 0 && done !== total) {
          progressTimer ??= setTimeout(saveProgress, wait);
          return;
        }
        saveProgress();
      },
    };
    try {
      const reader = await deps.readers(row.platform as PlatformId);
      if (row.source === 'api') {
        const api = JSON.parse(openSecret(requireSecretKey(), row.credentials_ciphertext!, sealContext(importId))) as ApiSource;
        await reader.readApi(api, context);
      } else {
        await reader.readArchive(new Uint8Array(Buffer.from(row.archive!, 'base64')), row.archive_name ?? 'export.zip', context);
      }
      await writer.finish(db);
      await db
        .updateTable('imports')
        .set({ status: 'completed', report: JSON.stringify(report), progress: JSON.stringify({ message: 'done' }), finished_at: sql`now()`, credentials_ciphertext: null, archive: null, lease_owner: null, lease_expires_at: null })
        .where('id', '=', importId)
        .where('status', '=', 'running')
        .execute();
      log.info('import completed', { import: importId, platform: row.platform, keys: report.keys });
    } catch (error) {
      if (error instanceof Cancelled || controller.signal.reason instanceof Cancelled) {
        log.info('import cancelled', { import: importId });
        return;
      }
      if (controller.signal.reason instanceof Stopping) {
        await db.updateTable('imports').set({ lease_owner: null, lease_expires_at: sql`now() - interval '1 second'` }).where('id', '=', importId).where('status', '=', 'running').execute();
        log.info('import paused: the service is stopping; it resumes from its checkpoint', { import: importId });
        return;
      }
      const said =
        error instanceof ImportSourceError ? error.message : error instanceof UnsafeAddressError ? `The import stopped: ${error.message}; ${PUBLIC_ONLY_REASON}.` : `The import stopped: ${(error as Error).message}`;
      const message = said.length > ERROR_CHARS ? `${said.slice(0, ERROR_CHARS)}…` : said;
      await db
        .updateTable('imports')
        .set({ status: 'failed', error: message, report: JSON.stringify(report), progress: JSON.stringify({ message: 'failed' }), finished_at: sql`now()`, credentials_ciphertext: null, archive: null, lease_owner: null, lease_expires_at: null })
        .where('id', '=', importId)
        .where('status', '=', 'running')
        .execute();
      log.warn('import failed', { import: importId, platform: row.platform, error: message });
    } finally {
      clearInterval(heartbeat);
      clearTimeout(progressTimer);
      running.delete(importId);
    }
  }

  /** Claims queued imports, and running ones whose worker went away (their lease lapsed): those resume. */
  async function claim(limit: number): Promise<string[]> {
    const rows = await sql<{ id: string }>`
      update imports set status = 'running', attempts = attempts + 1, lease_owner = ${workerId},
        lease_expires_at = now() + (${LEASE_SECONDS}::int * interval '1 second'), started_at = coalesce(started_at, now())
      where id in (
        select id from imports
        where status = 'queued' or (status = 'running' and lease_expires_at < now())
        order by id
        limit ${limit}
        for update skip locked
      )
      returning id`.execute(db);
    return rows.rows.map((r) => r.id);
  }

  const poller = createLeasePoller({ name: 'import', log, concurrency: 2, pollMs: deps.pollMs, claim, run });

  return {
    create,
    get,
    list,
    cancel,
    start() {
      started = true;
      poller.start();
    },
    tick: poller.tick,
    async stop() {
      for (const controller of running.values()) controller.abort(new Stopping('the service is stopping'));
      await poller.stop();
    },
    /** The only process on an embedded database: every import left running is from a previous run, and resumes. */
    async releaseAll() {
      await db.updateTable('imports').set({ lease_owner: null, lease_expires_at: sql`now() - interval '1 second'` }).where('status', '=', 'running').execute();
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
