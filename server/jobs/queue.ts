/** The job queue seen by the rest of the service: a wake-up for a batch, carried in-process or by BullMQ. */
import type { Redis } from 'ioredis';

export type BatchHandler = (batchId: string, signal: AbortSignal) => Promise<void>;

export interface JobQueue {
  readonly kind: 'embedded' | 'bullmq';
  /** Asks some worker to run the batch. The batch's state lives in the database, so a lost wake-up is repaired by the sweeper. */
  enqueueBatch(batchId: string): Promise<void>;
  /** Starts consuming jobs in this process. */
  startWorker(handler: BatchHandler): Promise<void>;
  /** Stops taking jobs, lets running handlers finish or release their batch, then closes connections. */
  close(): Promise<void>;
}

/** In-process runner for the embedded default: same handler, no Redis. */
export function createEmbeddedQueue(options: { concurrency: number; onError: (error: unknown, batchId: string) => void }): JobQueue {
  const pending: string[] = [];
  const queued = new Set<string>();
  const running = new Map<string, Promise<void>>();
  const abort = new AbortController();
  let handler: BatchHandler | undefined;

  function pump() {
    if (!handler || abort.signal.aborted) return;
    while (running.size < options.concurrency && pending.length > 0) {
      const batchId = pending.shift()!;
      queued.delete(batchId);
      const run = handler(batchId, abort.signal)
        .catch((error: unknown) => options.onError(error, batchId))
        .finally(() => {
          running.delete(batchId);
          pump();
        });
      running.set(batchId, run);
    }
  }

  return {
    kind: 'embedded',
    async enqueueBatch(batchId) {
      // A batch already waiting needs no second wake-up; one that is running may have more rows by now, so wake it again.
      if (queued.has(batchId)) return;
      queued.add(batchId);
      pending.push(batchId);
      pump();
    },
    async startWorker(h) {
      handler = h;
      pump();
    },
    async close() {
      abort.abort();
      await Promise.allSettled(running.values());
    },
  };
}

export const BATCH_QUEUE = 'batches';

/** BullMQ on Redis: any number of `parlance worker` processes share the queue. */
export async function createBullQueue(options: {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  onError: (error: unknown, batchId: string) => void;
}): Promise<JobQueue> {
  const { Queue, Worker } = await import('bullmq');
  const { Redis: RedisClient } = await import('ioredis');
  const connection = new RedisClient(options.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(BATCH_QUEUE, { connection, prefix: options.prefix });
  queue.on('error', (error) => options.onError(error, '-'));
  // Closing connections BullMQ is still setting up leaves an unhandled error or a stray timer: start fully first.
  await queue.waitUntilReady();
  const abort = new AbortController();
  let worker: InstanceType<typeof Worker> | undefined;
  let workerConnection: Redis | undefined;

  return {
    kind: 'bullmq',
    async enqueueBatch(batchId) {
      // While Redis is away ioredis holds commands until it is back; a request must not wait for that.
      // The sweeper wakes the batch later if this wake-up is lost.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('enqueue timed out: Redis unreachable')), 2000);
      });
      const added = queue.add(
        'translate-batch',
        { batchId },
        // Several wake-ups for one batch are harmless (the batch lease lets one worker in), so ids need not be unique per batch.
        { removeOnComplete: true, removeOnFail: 1000, attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
      );
      added.catch(() => undefined);
      try {
        await Promise.race([added, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async startWorker(handler) {
      workerConnection = new RedisClient(options.redisUrl, { maxRetriesPerRequest: null });
      worker = new Worker(
        BATCH_QUEUE,
        async (job) => {
          const batchId = String((job.data as { batchId?: unknown }).batchId ?? '');
          try {
            await handler(batchId, abort.signal);
          } catch (error) {
            options.onError(error, batchId);
            throw error;
          }
        },
        { connection: workerConnection, prefix: options.prefix, concurrency: options.concurrency },
      );
      worker.on('error', (error) => options.onError(error, '-'));
      await worker.waitUntilReady();
    },
    async close() {
      abort.abort();
      await worker?.close();
      await queue.close();
      await Promise.allSettled([connection.quit(), workerConnection?.quit()]);
    },
  };
}
