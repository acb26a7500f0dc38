/** Fixed one-minute windows per key, counted in memory (one process) or in Redis (shared by every API process). */
import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the current window ends. */
  resetAt: number;
  /** Seconds until the window ends, at least 1. */
  retryAfter: number;
}

export interface RateLimiter {
  hit(key: string, now?: number): Promise<RateLimitResult>;
}

const WINDOW_MS = 60_000;

function result(count: number, limit: number, windowStart: number, now: number): RateLimitResult {
  const resetMs = windowStart + WINDOW_MS;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil(resetMs / 1000),
    retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
}

export function createMemoryRateLimiter(limit: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(key, now = Date.now()) {
      const start = now - (now % WINDOW_MS);
      let window = windows.get(key);
      if (!window || window.start !== start) {
        window = { start, count: 0 };
        windows.set(key, window);
        // Old windows are dead weight: drop them whenever a new window opens.
        if (windows.size > 10_000) for (const [k, w] of windows) if (w.start !== start) windows.delete(k);
      }
      window.count += 1;
      return result(window.count, limit, start, now);
    },
  };
}

export function createRedisRateLimiter(redis: Redis, limit: number, prefix: string): RateLimiter {
  return {
    async hit(key, now = Date.now()) {
      const start = now - (now % WINDOW_MS);
      const redisKey = `${prefix}:ratelimit:${key}:${start}`;
      const replies = await redis.multi().incr(redisKey).pexpire(redisKey, WINDOW_MS * 2).exec();
      const count = Number(replies?.[0]?.[1] ?? 0);
      return result(count, limit, start, now);
    },
  };
}
