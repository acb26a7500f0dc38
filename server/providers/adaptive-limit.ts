/**
 * How many requests a provider's model gets at once, found while translating: additive increase, multiplicative
 * decrease (the rule TCP uses for the same problem). It starts at PROVIDER_CONCURRENCY in flight and, until the
 * provider first pushes back, grows by one for every answer (doubling per round trip); after that, by one per round
 * trip. The first push back (a 429, or an `x-ratelimit-remaining-*` header under a tenth of its limit) halves it: slow
 * start overshoots by up to twice. Later ones take it to 0.7 of itself (CUBIC's factor rather than Reno's half): the
 * limit then saws between 70% and 100% of what the provider allows instead of 50% and 100%, which against a provider
 * allowing 8 in flight was the difference between 1.2× and 1.5× of the floor (bench/provider.ts). At most once per
 * round trip: the requests already in flight answer with the old limit. It never exceeds PROVIDER_MAX_CONCURRENCY, nor
 * the operator's requests and tokens per minute (PROVIDER_REQUESTS_PER_MINUTE, PROVIDER_TOKENS_PER_MINUTE), which
 * pace requests as a sliding minute.
 *
 * One limit serves every batch a worker translates with that provider and model, so two projects together stay
 * within what the provider allows; on Redis the same rules run in Redis for every worker at once (shared-limit.ts).
 * Each HTTP attempt takes a place; a retry's wait does not hold one.
 */
import { sleep, type RequestLimit } from './http.js';

export interface AdaptiveLimitOptions {
  /** In flight at first. */
  initial: number;
  /** In flight at most. */
  max: number;
  requestsPerMinute?: number | undefined;
  tokensPerMinute?: number | undefined;
  now?: () => number;
}

export interface LimitSnapshot {
  /** Requests allowed in flight now. */
  limit: number;
  inFlight: number;
  /** Requests started in the last minute. */
  requestsLastMinute: number;
  /** 429s and low-remaining headers in the last minute. */
  throttledLastMinute: number;
}

export type { RequestLimit };

export interface AdaptiveLimit extends RequestLimit {
  snapshot(): LimitSnapshot;
}

const MINUTE_MS = 60_000;
/** A rate-limit header below this share of its limit counts as a push back. */
const LOW_REMAINING = 0.1;

/** `x-ratelimit-remaining-requests` against `x-ratelimit-limit-requests` (OpenAI) or `anthropic-ratelimit-requests-*`, and the same for tokens. */
export function nearlySpent(headers: Headers): boolean {
  for (const kind of ['requests', 'tokens']) {
    for (const [remainingName, limitName] of [
      [`x-ratelimit-remaining-${kind}`, `x-ratelimit-limit-${kind}`],
      [`anthropic-ratelimit-${kind}-remaining`, `anthropic-ratelimit-${kind}-limit`],
    ] as const) {
      const remaining = Number(headers.get(remainingName) ?? Number.NaN);
      const limit = Number(headers.get(limitName) ?? Number.NaN);
      if (Number.isFinite(remaining) && Number.isFinite(limit) && limit > 0 && remaining < limit * LOW_REMAINING) return true;
    }
  }
  return false;
}

export function createAdaptiveLimit(options: AdaptiveLimitOptions): AdaptiveLimit {
  const now = options.now ?? Date.now;
  const max = Math.max(1, Math.floor(options.max));
  let limit = Math.min(max, Math.max(1, options.initial));
  let inFlight = 0;
  let slowStart = true;
  /** The attempts started since the last decrease: a push back from one of the older ones changes nothing more. */
  let generation = 0;
  /** Start times and token costs of the last minute's requests. */
  const started: { at: number; tokens: number }[] = [];
  const throttled: number[] = [];
  const waiting: (() => void)[] = [];

  const forget = (list: { at: number }[] | number[], t: number) => {
    while (list.length > 0) {
      const first = list[0]!;
      if ((typeof first === 'number' ? first : first.at) > t - MINUTE_MS) break;
      list.shift();
    }
  };

  /** Milliseconds until `tokens` more fit the minute's budgets; 0 when they fit now. */
  function budgetWait(tokens: number): number {
    const t = now();
    forget(started, t);
    let wait = 0;
    if (options.requestsPerMinute !== undefined && started.length >= options.requestsPerMinute) {
      wait = Math.max(wait, started[started.length - options.requestsPerMinute]!.at + MINUTE_MS - t);
    }
    if (options.tokensPerMinute !== undefined) {
      let spent = started.reduce((sum, s) => sum + s.tokens, 0);
      // A request bigger than the whole budget goes alone, once the minute is clear.
      const allowed = Math.max(options.tokensPerMinute, tokens);
      for (let i = 0; spent + tokens > allowed && i < started.length; i++) {
        spent -= started[i]!.tokens;
        wait = Math.max(wait, started[i]!.at + MINUTE_MS - t);
      }
    }
    return Math.max(0, Math.ceil(wait));
  }

  /** Hands free places to the waiting attempts, first come first served; each grant takes its place at once. */
  function wake() {
    while (waiting.length > 0 && inFlight < Math.floor(limit)) {
      inFlight += 1;
      waiting.shift()!();
    }
  }

  /** A place in flight: at once when one is free and nobody waits, else in turn; rejects if `signal` aborts first. */
  function acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (waiting.length === 0 && inFlight < Math.floor(limit)) {
      inFlight += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const granted = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = waiting.indexOf(granted);
        if (at >= 0) waiting.splice(at, 1);
        reject(signal!.reason);
      };
      waiting.push(granted);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function decrease() {
    const t = now();
    throttled.push(t);
    forget(throttled, t);
    limit = Math.max(1, limit * (slowStart ? 0.5 : 0.7));
    slowStart = false;
    generation += 1;
  }

  /** A push back from an attempt sent before the last decrease says nothing new: the limit halves once per round trip. */
  function answered(sentIn: number, status: number, headers: Headers) {
    if (status === 429 || nearlySpent(headers)) {
      if (sentIn === generation) decrease();
    } else if (status >= 200 && status < 300) {
      // One per answer in slow start (doubling per round trip), then one per round trip.
      limit = Math.min(max, slowStart ? limit + 1 : limit + 1 / Math.floor(limit));
    }
    wake();
  }

  return {
    async run(attempt, tokens, signal) {
      await acquire(signal);
      try {
        // A place is held while the minute's budgets refill: the requests behind it would wait for them too.
        for (let wait = budgetWait(tokens); wait > 0; wait = budgetWait(tokens)) await sleep(wait, signal);
        started.push({ at: now(), tokens });
        const sentIn = generation;
        return await attempt((status, headers) => answered(sentIn, status, headers));
      } finally {
        inFlight -= 1;
        wake();
      }
    },
    snapshot() {
      const t = now();
      forget(started, t);
      forget(throttled, t);
      return { limit: Math.floor(limit), inFlight, requestsLastMinute: started.length, throttledLastMinute: throttled.length };
    },
  };
}
