/**
 * The adaptive limit of adaptive-limit.ts kept in Redis, so every worker of a deployment shares one limit per
 * provider and model: two projects translated by two workers together stay within what the provider allows. The
 * state (limit, slow start, generation) is a hash; each attempt in flight is a lease in a sorted set, scored by when
 * it expires (PROVIDER_TIMEOUT_MS and a margin), so a worker that dies mid-request frees its places; the last
 * minute's starts are another sorted set, for the operator's requests and tokens per minute. Every change is one Lua
 * script, atomic across workers. A waiting attempt is woken at once by a release in its own process and looks again
 * every POLL_MS for the others'.
 *
 * While Redis cannot be reached (a restart), attempts go through the worker's own adaptive limit instead: translation
 * slows to one worker's share at worst, never stops.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createAdaptiveLimit, nearlySpent, type AdaptiveLimitOptions } from './adaptive-limit.js';
import type { RequestLimit } from './http.js';

const POLL_MS = 25;
const MINUTE_MS = 60_000;

/**
 * KEYS: state, leases, starts. ARGV: initial, max, rpm (0: none), tpm (0: none), tokens, lease ms, id.
 * Returns {0, generation} when granted, {ms, generation} to wait for the minute's budgets, {-1, generation} when no place is free.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'limit', ARGV[1], 'slow', 1, 'gen', 0)
end
local limit = math.floor(tonumber(redis.call('HGET', KEYS[1], 'limit')))
local gen = tonumber(redis.call('HGET', KEYS[1], 'gen'))
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= limit then return {-1, gen} end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - ${MINUTE_MS})
local rpm = tonumber(ARGV[3])
local tpm = tonumber(ARGV[4])
local tokens = tonumber(ARGV[5])
local wait = 0
if rpm > 0 or tpm > 0 then
  local starts = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
  local count = #starts / 2
  if rpm > 0 and count >= rpm then
    wait = math.max(wait, tonumber(starts[(count - rpm) * 2 + 2]) + ${MINUTE_MS} - now)
  end
  if tpm > 0 then
    local spent = 0
    for i = 1, #starts, 2 do spent = spent + tonumber(string.match(starts[i], ':(%d+)$')) end
    local allowed = math.max(tpm, tokens)
    local i = 1
    while spent + tokens > allowed and i <= #starts do
      spent = spent - tonumber(string.match(starts[i], ':(%d+)$'))
      wait = math.max(wait, tonumber(starts[i + 1]) + ${MINUTE_MS} - now)
      i = i + 2
    end
  end
end
if wait > 0 then return {wait, gen} end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[6]), ARGV[7])
redis.call('ZADD', KEYS[3], now, ARGV[7] .. ':' .. ARGV[5])
redis.call('PEXPIRE', KEYS[1], 86400000)
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6]) + ${MINUTE_MS})
redis.call('PEXPIRE', KEYS[3], ${2 * MINUTE_MS})
return {0, gen}
`;

/** KEYS: state. ARGV: generation the attempt was sent in, outcome ('push' | 'ok'), max. Returns the new limit, as text. */
const ANSWER = `
if redis.call('EXISTS', KEYS[1]) == 0 then return '0' end
local limit = tonumber(redis.call('HGET', KEYS[1], 'limit'))
local slow = tonumber(redis.call('HGET', KEYS[1], 'slow'))
local gen = tonumber(redis.call('HGET', KEYS[1], 'gen'))
if ARGV[2] == 'push' then
  if tonumber(ARGV[1]) == gen then
    if slow == 1 then limit = limit * 0.5 else limit = limit * 0.7 end
    if limit < 1 then limit = 1 end
    redis.call('HSET', KEYS[1], 'limit', tostring(limit), 'slow', 0, 'gen', gen + 1)
  end
else
  if slow == 1 then limit = limit + 1 else limit = limit + 1 / math.floor(limit) end
  if limit > tonumber(ARGV[3]) then limit = tonumber(ARGV[3]) end
  redis.call('HSET', KEYS[1], 'limit', tostring(limit))
end
return tostring(limit)
`;

export interface SharedLimitOptions extends AdaptiveLimitOptions {
  redis: Redis;
  /** The Redis key prefix of this provider and model, e.g. `parlance:provider-limit:openai:gpt-4o-mini`. */
  key: string;
  /** How long a lease lives without being released: the provider's timeout and a margin. */
  leaseMs: number;
}

export function createSharedLimit(options: SharedLimitOptions): RequestLimit {
  const { redis, key } = options;
  const keys = [`${key}:state`, `${key}:leases`, `${key}:starts`];
  /** The worker's own limit, used while Redis cannot be reached. */
  const local = createAdaptiveLimit(options);
  const wakers = new Set<() => void>();

  async function acquire(id: string, tokens: number, signal: AbortSignal | undefined): Promise<number | undefined> {
    for (;;) {
      signal?.throwIfAborted();
      let answer: [number, number];
      try {
        answer = (await redis.eval(ACQUIRE, keys.length, ...keys, options.initial, options.max, options.requestsPerMinute ?? 0, options.tokensPerMinute ?? 0, tokens, options.leaseMs, id)) as [number, number];
      } catch {
        return undefined;
      }
      const [wait, generation] = answer;
      if (wait === 0) return generation;
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          wakers.delete(done);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          clearTimeout(timer);
          wakers.delete(done);
          reject(signal!.reason);
        };
        const timer = setTimeout(done, wait > 0 ? wait : POLL_MS);
        // A place freed in this process is worth looking at at once; a budget wait is not shortened by it.
        if (wait < 0) wakers.add(done);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  return {
    async run(attempt, tokens, signal) {
      const id = randomUUID();
      const generation = await acquire(id, tokens, signal);
      // Redis unreachable: the worker's own limit carries the attempt.
      if (generation === undefined) return local.run(attempt, tokens, signal);
      try {
        return await attempt((status, headers) => {
          const pushedBack = status === 429 || nearlySpent(headers);
          if (!pushedBack && (status < 200 || status >= 300)) return;
          redis.eval(ANSWER, 1, keys[0]!, generation, pushedBack ? 'push' : 'ok', options.max).catch(() => undefined);
        });
      } finally {
        await redis.zrem(keys[1]!, id).catch(() => undefined);
        for (const wake of [...wakers]) wake();
      }
    },
  };
}

/** Makes shared limits on one Redis connection, under the deployment's key prefix. */
export function sharedLimits(redis: Redis, prefix: string, leaseMs: number) {
  return (provider: string, model: string, options: AdaptiveLimitOptions): RequestLimit => createSharedLimit({ ...options, redis, key: `${prefix}:provider-limit:${provider}:${model}`, leaseMs });
}
