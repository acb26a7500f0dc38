/**
 * Acknowledge, then work: a delivery to the App (the service's, or GitHub's) is recorded by its id and answered at
 * once; its work runs afterwards in this process, retried a few times on failure. A redelivery of an id already
 * recorded (running or done) is acknowledged and dropped; one whose job failed runs again. The row keeps what the job
 * needs to run again (`payload`), so a job cut off by a crash or restart is resumed when the next App process starts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';

/** Finished deliveries are kept this long, then pruned: GitHub and the service redeliver within days, not weeks. */
export const DELIVERY_KEEP_MS = 7 * 24 * 60 * 60_000;
/** How often pruning runs, at most. */
const PRUNE_EVERY_MS = 60 * 60_000;
/**
 * A `running` row not touched for this long belongs to a process that died mid-job (each attempt touches it), so a
 * redelivery may run it again (the next start resumes it anyway, unless its payload was too large to keep).
 */
export const STALE_RUNNING_MS = 30 * 60_000;
/** Waits before the 2nd, 3rd and 4th attempt of a failed job; after the last, the delivery is recorded as failed. */
export const DEFAULT_JOB_RETRY_DELAYS_MS: readonly number[] = [2_000, 15_000, 60_000];
/** The largest payload kept for resuming (bytes of UTF-8): GitHub's pushes are usually a few KiB, its cap is 25 MB. */
export const MAX_STORED_PAYLOAD_BYTES = 1024 * 1024;
/** A job cut off this many runs (crash loops, say a payload that kills the process) is recorded as failed, not resumed. */
export const MAX_RUNS_RESUMED = 5;
/** How long a graceful stop waits for running jobs; one still running stays `running`, for the next start to resume. */
const STOP_WAIT_MS = 30_000;

export type Acceptance = { accepted: true } | { accepted: false; reason: string };

/** A row left `running` by an earlier process, for the App to rebuild its job from. */
export interface ResumableDelivery {
  id: string;
  event: string;
  payload: string;
}

export interface DeliveryJobsOptions {
  db: Db;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  retryDelaysMs?: readonly number[];
}

export function createDeliveryJobs(options: DeliveryJobsOptions) {
  const { db, log } = options;
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_JOB_RETRY_DELAYS_MS;
  /** Jobs of this process, by delivery key, until they settle (retry waits included). */
  const inFlight = new Map<string, Promise<void>>();
  /** This process's id in the rows it runs: rows `running` under another id were cut off by a crash or restart. */
  const instance = randomUUID();
  const startedAt = new Date();
  const idleWaiters: (() => void)[] = [];
  let lastPrune = 0;
  let stopping = false;
  let wakeRetries: (() => void)[] = [];

  async function prune(): Promise<void> {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    try {
      await db.deleteFrom('github_app_deliveries').where('status', '!=', 'running').where('updated_at', '<', new Date(Date.now() - DELIVERY_KEEP_MS)).execute();
    } catch (error) {
      log.warn('pruning the GitHub App delivery record failed', { error });
    }
  }

  /**
   * Records the delivery as running unless it is already recorded: a new id, or one whose job failed (or whose
   * process died mid-job), is claimed; any other is a duplicate. Throws when the database cannot record it, so the
   * sender gets a 5xx and delivers again.
   */
  async function claim(key: string, event: string, payload: string | null): Promise<Acceptance> {
    if (inFlight.has(key)) return { accepted: false, reason: `delivery ${key} is already being worked on` };
    const staleBefore = new Date(Date.now() - STALE_RUNNING_MS);
    const claimed = await db
      .insertInto('github_app_deliveries')
      .values({ id: key, event, status: 'running', payload, instance })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ status: 'running', runs: sql`github_app_deliveries.runs + 1`, last_error: null, payload, instance, updated_at: sql`now()` })
          .where((eb) => eb.or([eb('github_app_deliveries.status', '=', 'failed'), eb.and([eb('github_app_deliveries.status', '=', 'running'), eb('github_app_deliveries.updated_at', '<', staleBefore)])])),
      )
      .returning('id')
      .executeTakeFirst();
    void prune();
    if (claimed) return { accepted: true };
    const row = await db.selectFrom('github_app_deliveries').select(['status', 'updated_at']).where('id', '=', key).executeTakeFirst();
    return { accepted: false, reason: `delivery ${key} was already accepted (${row?.status ?? 'recorded'} since ${row?.updated_at.toISOString() ?? 'earlier'})` };
  }

  /** Only while this process holds the row: a process taken for dead and then waking never overwrites its successor's. */
  async function record(key: string, status: 'running' | 'done' | 'failed', lastError: string | null): Promise<void> {
    try {
      await db.updateTable('github_app_deliveries').set({ status, last_error: lastError, updated_at: sql`now()` }).where('id', '=', key).where('instance', '=', instance).execute();
    } catch (error) {
      log.error('recording a GitHub App delivery failed', { delivery: key, status, error });
    }
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeRetries = wakeRetries.filter((w) => w !== done);
        resolve();
      }
      wakeRetries.push(done);
    });
  }

  async function run(key: string, event: string, work: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await work();
        await record(key, 'done', null);
        return;
      } catch (error) {
        const message = describe(error);
        const delay = retryDelaysMs[attempt - 1];
        if (delay === undefined || stopping) {
          const why = stopping && delay !== undefined ? 'the App stopped before retrying' : `gave up after ${attempt} attempts`;
          log.error(`GitHub App job failed (${why}); a redelivery of ${key} runs it again`, { delivery: key, event, attempt, error });
          await record(key, 'failed', `${message} (${why})`);
          return;
        }
        log.warn(`GitHub App job failed; retrying in ${delay} ms`, { delivery: key, event, attempt, error: message });
        await record(key, 'running', message);
        await wait(delay);
      }
    }
  }

  function track(key: string, job: Promise<void>): void {
    const tracked = job.finally(() => {
      inFlight.delete(key);
      if (inFlight.size === 0) for (const wake of idleWaiters.splice(0)) wake();
    });
    inFlight.set(key, tracked);
  }

  return {
    /**
     * Claims `key` and, when it is new (or its job failed before), starts `work` after this call returns; the caller
     * answers the delivery with 2xx either way.
     */
    async submit(key: string, event: string, work: () => Promise<void>, payload: string | null): Promise<Acceptance> {
      if (payload !== null && Buffer.byteLength(payload, 'utf8') > MAX_STORED_PAYLOAD_BYTES) {
        log.warn(`GitHub App delivery ${key} is over ${MAX_STORED_PAYLOAD_BYTES} bytes: not kept, so a crash mid-job leaves it to a redelivery`, { delivery: key, event, bytes: Buffer.byteLength(payload, 'utf8') });
        payload = null;
      }
      const acceptance = await claim(key, event, payload);
      if (!acceptance.accepted) return acceptance;
      track(key, new Promise<void>((resolve) => setImmediate(resolve)).then(() => run(key, event, work)));
      return acceptance;
    },
    /**
     * Takes over the rows left `running` by earlier processes (a crash or restart cut their jobs off) and runs each once
     * more, oldest first and one after another, through the same runner. `rebuild` turns a row's payload back into its
     * job, or answers why it cannot (the row is then recorded as failed, for a redelivery). Rows without a payload (too
     * large to keep) are left for a redelivery once stale. Resolves with the ids taken over; their jobs run afterwards.
     */
    async resume(rebuild: (delivery: ResumableDelivery) => Promise<(() => Promise<void>) | string>): Promise<string[]> {
      const taken = await db
        .updateTable('github_app_deliveries')
        .set({ instance, runs: sql`runs + 1`, updated_at: sql`now()` })
        .where('status', '=', 'running')
        .where('payload', 'is not', null)
        .where((eb) => eb.or([eb('instance', 'is', null), eb('instance', '!=', instance)]))
        .where('updated_at', '<', startedAt)
        .returning(['id', 'event', 'payload', 'runs', 'created_at'])
        .execute();
      taken.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
      if (taken.length === 0) return [];
      log.info(`resuming ${taken.length} GitHub App jobs cut off by a crash or restart`, { deliveries: taken.map((t) => t.id) });
      let chain = new Promise<void>((resolve) => setImmediate(resolve));
      for (const row of taken) {
        const key = row.id;
        chain = chain.then(async () => {
          if (stopping) return record(key, 'failed', 'cut off by a crash or restart; the App stopped before resuming it');
          if (row.runs > MAX_RUNS_RESUMED) {
            log.error(`GitHub App job ${key} was cut off ${row.runs - 1} times; not resumed (a redelivery runs it again)`, { delivery: key, event: row.event });
            return record(key, 'failed', `cut off by a crash or restart ${row.runs - 1} times; not resumed`);
          }
          let work: (() => Promise<void>) | string;
          try {
            work = await rebuild({ id: key, event: row.event, payload: row.payload! });
          } catch (error) {
            work = describe(error);
          }
          if (typeof work === 'string') {
            log.error(`GitHub App job ${key} cannot be resumed: ${work}`, { delivery: key, event: row.event });
            return record(key, 'failed', `not resumed after a crash or restart: ${work}`);
          }
          log.info(`resuming GitHub App job ${key}`, { delivery: key, event: row.event, run: row.runs });
          return run(key, row.event, work);
        });
        // Each id is busy from now until its own turn has run, so a redelivery meanwhile is dropped.
        track(key, chain);
      }
      return taken.map((t) => t.id);
    },
    /** Resolves once no job is running or waiting to retry (tests, and a graceful stop). */
    idle(): Promise<void> {
      if (inFlight.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /** Cuts retry waits short (their jobs are recorded as failed, for a redelivery to run) and waits for running attempts. */
    async stop(waitMs = STOP_WAIT_MS): Promise<void> {
      stopping = true;
      for (const wake of wakeRetries.splice(0)) wake();
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), waitMs)));
      const stuck = await Promise.race([this.idle().then(() => false), gaveUp]);
      clearTimeout(timer);
      if (stuck) log.warn(`stopping with ${inFlight.size} GitHub App jobs still running; the next start resumes them (one too large to keep: a redelivery after ${STALE_RUNNING_MS / 60_000} minutes)`, { deliveries: [...inFlight.keys()] });
    },
  };
}

/** Probot reports its handlers' failures as one AggregateError, whose own message is empty. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describe).join('; ');
  return error instanceof Error ? error.message : String(error);
}

export type DeliveryJobs = ReturnType<typeof createDeliveryJobs>;
