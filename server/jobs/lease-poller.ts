/**
 * The loop of work queued in the database and claimed with a lease (webhook deliveries, storage syncs): every
 * `pollMs`, or when told there is new work, claim as many due items as there are free slots and run each, never
 * more than `concurrency` at once; on stop, claim nothing more and wait for what runs.
 */
import type { Logger } from '../logger.js';

export interface LeasePollerOptions {
  /** What the log calls the work: 'webhook delivery', 'storage sync'. */
  name: string;
  log: Logger;
  concurrency: number;
  pollMs: number;
  /** Claims up to `limit` due items and returns their ids. */
  claim(limit: number): Promise<string[]>;
  /** Runs one claimed item; a rejection is logged, never thrown. */
  run(id: string): Promise<void>;
}

export function createLeasePoller(options: LeasePollerOptions) {
  const { log, name } = options;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  let ticking = false;
  let again = false;

  async function tick(): Promise<void> {
    if (stopping) return;
    if (ticking) {
      // Asked again while claiming: claim once more when this round ends, so new work does not wait for the poll.
      again = true;
      return;
    }
    ticking = true;
    try {
      do {
        again = false;
        const free = options.concurrency - inFlight.size;
        if (free <= 0) break;
        for (const id of await options.claim(free)) {
          const run = options
            .run(id)
            .catch((error: unknown) => log.error(`${name} failed`, { id, error }))
            .finally(() => {
              inFlight.delete(run);
              // A slot is free: due work need not wait for the next poll.
              void tick();
            });
          inFlight.add(run);
        }
      } while (again);
    } catch (error) {
      log.warn(`${name} poll failed`, { error });
    } finally {
      ticking = false;
    }
  }

  return {
    start() {
      stopping = false;
      timer = setInterval(() => void tick(), options.pollMs);
      timer.unref();
      void tick();
    },
    /** Stops claiming and waits for the work in flight. */
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
    tick,
  };
}
