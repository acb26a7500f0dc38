/**
 * The limit of requests in flight shared by every worker through Redis (server/providers/shared-limit.ts), against
 * the real Redis of the PostgreSQL + Redis pass: two workers together stay within one limit, a push back seen by one
 * halves it for both, a dead worker's places come back when its leases expire, and an unreachable Redis falls back to
 * the worker's own limit.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedLimit } from '../../server/providers/shared-limit.js';
import { BACKEND, TEST_REDIS_URL } from '../helpers/service.js';

const OK = new Headers();

describe.runIf(BACKEND === 'postgres')('a provider limit shared through Redis', () => {
  let redis: Redis;
  const prefix = `test-limit-${randomBytes(4).toString('hex')}`;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  /** `count` attempts through `limit` that each wait for their release; counts the attempts in flight across all. */
  function holder() {
    let inFlight = 0;
    let most = 0;
    const releases: ((status: number) => void)[] = [];
    const start = (limit: ReturnType<typeof createSharedLimit>, count: number) =>
      Array.from({ length: count }, () =>
        limit.run(async (answered) => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          const status = await new Promise<number>((resolve) => releases.push(resolve));
          inFlight -= 1;
          answered(status, OK);
        }, 10),
      );
    return { start, releases, inFlight: () => inFlight, most: () => most };
  }

  const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

  it('two workers together stay within one limit, and a push back seen by one halves it for both', async () => {
    const key = `${prefix}:two`;
    const workerA = createSharedLimit({ redis, key, initial: 4, max: 64, leaseMs: 30_000 });
    const workerB = createSharedLimit({ redis, key, initial: 4, max: 64, leaseMs: 30_000 });
    const h = holder();
    const done = [...h.start(workerA, 6), ...h.start(workerB, 6)];
    await settle();
    expect(h.inFlight()).toBe(4);

    // The four in flight are pushed back (429): the shared limit halves once, to 2, for both workers.
    h.releases.splice(0, 4).forEach((release) => release(429));
    await settle();
    expect(await redis.hget(`${key}:state`, 'limit')).toBe('2');
    expect(h.inFlight()).toBe(2);
    while (h.releases.length > 0 || h.inFlight() > 0) {
      h.releases.splice(0).forEach((release) => release(200));
      await settle(50);
    }
    await Promise.all(done);
    expect(h.most()).toBe(4);
    expect(await redis.zcard(`${key}:leases`)).toBe(0);
  });

  it("gives a dead worker's places back when their leases expire", async () => {
    const key = `${prefix}:lease`;
    const dead = createSharedLimit({ redis, key, initial: 1, max: 1, leaseMs: 300 });
    const alive = createSharedLimit({ redis, key, initial: 1, max: 1, leaseMs: 30_000 });
    // An attempt that never ends, as in a worker killed mid-request.
    void dead.run(() => new Promise<never>(() => undefined), 1);
    await settle(50);
    const started = Date.now();
    const answer = await alive.run(async (answered) => {
      answered(200, OK);
      return 'through';
    }, 1);
    expect(answer).toBe('through');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it("paces the deployment to the operator's requests per minute", async () => {
    const key = `${prefix}:rpm`;
    const a = createSharedLimit({ redis, key, initial: 8, max: 8, leaseMs: 30_000, requestsPerMinute: 2 });
    const b = createSharedLimit({ redis, key, initial: 8, max: 8, leaseMs: 30_000, requestsPerMinute: 2 });
    let started = 0;
    const run = (limit: typeof a) => void limit.run(async (answered) => void ((started += 1), answered(200, OK)), 1).catch(() => undefined);
    run(a);
    run(b);
    run(a);
    await settle(300);
    // The third waits for the minute: only two started across both workers.
    expect(started).toBe(2);
  });

  it("falls back to the worker's own limit while Redis cannot be reached", async () => {
    const gone = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    gone.on('error', () => undefined);
    const limit = createSharedLimit({ redis: gone, key: `${prefix}:gone`, initial: 2, max: 2, leaseMs: 1000 });
    const answers = await Promise.all([1, 2, 3].map((n) => limit.run(async (answered) => (answered(200, OK), n), 1)));
    expect(answers).toEqual([1, 2, 3]);
    gone.disconnect();
  });
});
