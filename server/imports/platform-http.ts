/**
 * HTTP to another platform's API for an importer: a 429 is waited out (Retry-After, or the platform's reset header),
 * network errors and 5xx are retried with backoff, and every other answer goes back to the reader as it is.
 */
import type { PlatformHttp } from './import-model.js';

export interface PlatformHttpOptions {
  signal: AbortSignal;
  /** Headers sent with every request (the platform's authorization). */
  headers: Record<string, string>;
  /** Attempts per request for network errors and 5xx; a 429 does not count against them. */
  maxRetries?: number;
  /** The longest the import waits for one rate limit to pass before it gives up. */
  maxWaitMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Told of every wait, to show the person why the import pauses. */
  onWait?: (reason: string, ms: number) => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** How long a 429 asks to wait: Retry-After (seconds or an HTTP date), else a reset header (seconds, or an epoch time). */
export function rateLimitWaitMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  // Contentful names its own (seconds from now).
  for (const name of ['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset', 'x-contentful-ratelimit-reset']) {
    const value = headers.get(name);
    if (value === null) continue;
    const n = Number(value);
    if (!Number.isFinite(n)) continue;
    // An epoch time in seconds (Lokalise, Phrase) or milliseconds, or seconds from now (the IETF draft).
    if (n > 1e12) return Math.max(0, n - now);
    if (n > 1e9) return Math.max(0, n * 1000 - now);
    return n * 1000;
  }
  return undefined;
}

/** Tolgee names the wait in the 429's body (`{"retryAfter": <ms>}`) rather than in a header. */
async function bodyRetryAfterMs(response: Response): Promise<number | undefined> {
  try {
    const body = (await response.clone().json()) as { retryAfter?: unknown };
    return typeof body.retryAfter === 'number' && Number.isFinite(body.retryAfter) && body.retryAfter >= 0 ? body.retryAfter : undefined;
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

export function createPlatformHttp(options: PlatformHttpOptions): PlatformHttp {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  const maxRetries = options.maxRetries ?? 4;
  const maxWaitMs = options.maxWaitMs ?? 15 * 60_000;
  const timeoutMs = options.timeoutMs ?? 60_000;

  return {
    async request(url, init = {}) {
      let failures = 0;
      for (;;) {
        options.signal.throwIfAborted();
        let response: Response | undefined;
        let error: unknown;
        try {
          response = await doFetch(url, {
            method: init.method ?? 'GET',
            headers: { accept: 'application/json', ...options.headers, ...init.headers },
            ...(init.body !== undefined ? { body: init.body as RequestInit['body'] } : {}),
            signal: AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]),
            redirect: 'follow',
          });
        } catch (caught) {
          if (options.signal.aborted) throw options.signal.reason;
          // A refusal raised before anything was sent (an address the service may not reach) is not worth retrying.
          if ((caught as { permanent?: unknown }).permanent === true) throw caught;
          error = caught;
        }
        if (response?.status === 429) {
          const wait = rateLimitWaitMs(response.headers) ?? (await bodyRetryAfterMs(response)) ?? Math.min(60_000, 1000 * 2 ** Math.min(failures, 6));
          await response.body?.cancel().catch(() => undefined);
          if (wait > maxWaitMs) throw new Error(`${new URL(url).host} asks to wait ${Math.round(wait / 1000)} s for its rate limit, longer than the import waits (${Math.round(maxWaitMs / 1000)} s); start the import again later.`);
          options.onWait?.(`rate limited by ${new URL(url).host}`, wait);
          await sleep(wait, options.signal);
          continue;
        }
        // What another host answered after a redirect is not the platform's to show: its status stays, its body does not.
        if (response?.redirected && !response.ok) {
          await response.body?.cancel().catch(() => undefined);
          response = new Response(null, { status: response.status, statusText: response.statusText });
        }
        if (response && response.status < 500) return response;
        failures++;
        const reason = response ? `HTTP ${response.status}` : `${(error as Error).message}`;
        if (failures > maxRetries) {
          if (response) return response;
          throw new Error(`Could not reach ${new URL(url).host} after ${failures} attempts: ${reason}`);
        }
        await response?.body?.cancel();
        const wait = Math.min(30_000, 500 * 2 ** (failures - 1));
        options.onWait?.(`${new URL(url).host}: ${reason}`, wait);
        await sleep(wait, options.signal);
      }
    },
  };
}
