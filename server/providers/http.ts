/** The one HTTP call every remote provider makes: per-request timeout, retries with backoff, Retry-After, key redaction, ProviderError on failure. */
import type { Logger } from '../logger.js';
import { ProviderError } from './provider.js';

/** How a remote provider's HTTP calls run: every provider's options extend these, and they pass through to {@link createHttpClient}. */
export interface RemoteOptions {
  /** Per HTTP request, not per translate() call. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 408, 429, 5xx (Anthropic's 529 included), timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** Default: the global fetch; tests pass a recording one. */
  fetch?: typeof fetch;
  /** First backoff delay, doubled per retry. Default 500. */
  baseDelayMs?: number;
  /** Cap on any single wait, Retry-After included. Default 30 000. */
  maxDelayMs?: number;
  /** Receives a warning per retried request, so throttling shows in the logs before it becomes a failure. */
  log?: Logger;
  /** Places for the attempts in flight (adaptive-limit.ts); without one, every attempt goes at once. */
  limit?: RequestLimit;
}

/** What the HTTP client needs of a limit on requests in flight: a place per attempt, and each answer's status and headers. */
export interface RequestLimit {
  /**
   * Runs `attempt` once a place is free and the minute's budgets allow `tokens` more; rejects if `signal` aborts
   * first. The attempt reports its answer through `answered`: 2xx grows the limit, a push back (429) shrinks it.
   */
  run<T>(attempt: (answered: (status: number, headers: Headers) => void) => Promise<T>, tokens: number, signal?: AbortSignal): Promise<T>;
}

/** What the client knows of the API it calls: its name in messages, the secrets to redact, and how to read its errors. */
export interface HttpClientOptions {
  /** Provider name that starts every message, e.g. 'deepl' or 'openai:gpt-4o-mini'. */
  name: string;
  /** Values that must never appear in a message (API keys): some servers echo the key back in their error text. */
  secrets: readonly (string | undefined)[];
  /** The provider's explanation from an error body; defaults to {@link errorDetail}. */
  describeError?: (status: number, body: string) => string;
  /** Overrides the status-based retry decision for one error response (a spend cap answered as 429, say); undefined keeps it. */
  isRetryable?: (status: number, body: string) => boolean | undefined;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** JSON text for POST. */
  body?: string;
  signal?: AbortSignal | undefined;
  /** Estimated prompt tokens, for a limit's tokens per minute. */
  tokens?: number;
  /** This request's limit in flight, in place of the client's (an LLM provider keeps one per model). */
  limit?: RequestLimit;
}

/**
 * Reads a 2xx body into the caller's shape. Returning undefined marks the body as malformed: that is retried,
 * because a 200 without the expected payload comes from a misbehaving gateway far more often than from the API.
 */
export interface BodyReader<T> {
  read: (body: string) => T | undefined;
  /** What the body should have held, for the message: 'a chat completion', 'translations for 12 texts'. */
  expected: string;
}

export interface HttpClient {
  /** Sends the request until it succeeds; throws ProviderError (retryable or not) or the caller's abort reason. */
  send<T>(request: HttpRequest, reader: BodyReader<T>): Promise<T>;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; message: string; retryAfterMs: number | undefined };

const DECIMAL = /^\d+(?:\.\d+)?$/;

/** Milliseconds to wait per a Retry-After header (delta-seconds or HTTP-date), or undefined when absent/invalid. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (DECIMAL.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The server's requested wait: `retry-after-ms` (Azure, OpenAI and Anthropic send it beside Retry-After) wins for its precision. */
export function retryAfterOf(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && DECIMAL.test(ms)) return Number(ms);
  return parseRetryAfter(headers.get('retry-after'), now);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses JSON, or undefined for text that is not JSON (an HTML error page from a proxy, say). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const MAX_DETAIL = 300;

/**
 * The provider's own explanation from an error body: `{error:{message}}` (OpenAI, Anthropic), `{error:"..."}`
 * (Ollama, LibreTranslate), `{message}` (DeepL), or the start of the raw text.
 */
export function errorDetail(body: string): string {
  let detail = body.trim();
  const parsed = parseJson(body);
  if (isRecord(parsed)) {
    const err = parsed.error;
    if (isRecord(err) && typeof err.message === 'string') detail = typeof err.type === 'string' ? `${err.type}: ${err.message}` : err.message;
    else if (typeof err === 'string') detail = err;
    else if (typeof parsed.message === 'string') detail = typeof parsed.detail === 'string' ? `${parsed.message} (${parsed.detail})` : parsed.message;
  }
  detail = detail.replace(/\s+/g, ' ');
  return detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail;
}

/** 408 and 429 ask to come back later; 5xx (and Anthropic's 529 "overloaded") are the server's trouble, not the request's. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Exponential backoff with jitter: workers throttled together should not come back together. */
export function backoffMs(retry: number, baseDelayMs: number, random: () => number = Math.random): number {
  return baseDelayMs * 2 ** retry * (0.5 + random() / 2);
}

function networkCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED 127.0.0.1:1234) in the cause.
  return err.cause instanceof Error ? err.cause.message : err.message;
}

/** A client for one API; `remote` is the provider's own options object, of which only the {@link RemoteOptions} fields are read. */
export function createHttpClient(api: HttpClientOptions, remote: RemoteOptions): HttpClient {
  const { name } = api;
  const { log } = remote;
  const doFetch = remote.fetch ?? globalThis.fetch;
  const timeoutMs = remote.timeoutMs ?? 60_000;
  const maxRetries = Math.max(0, remote.maxRetries ?? 3);
  const baseDelayMs = remote.baseDelayMs ?? 500;
  const maxDelayMs = remote.maxDelayMs ?? 30_000;
  const describe = api.describeError ?? ((_status: number, body: string) => errorDetail(body));
  const secrets = api.secrets.filter((s): s is string => typeof s === 'string' && s !== '');

  const redact = (s: string): string => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), s);

  const limit: RequestLimit = remote.limit ?? { run: (attempt) => attempt(() => undefined) };

  async function attempt<T>(request: HttpRequest, reader: BodyReader<T>, answered: (status: number, headers: Headers) => void): Promise<Attempt<T>> {
    const { signal } = request;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: combined });
      text = await res.text();
      answered(res.status, res.headers);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) return { ok: false, message: `${name}: request timed out after ${timeoutMs} ms`, retryAfterMs: undefined };
      return { ok: false, message: redact(`${name}: network error: ${networkCause(err)}`), retryAfterMs: undefined };
    }
    if (res.ok) {
      const value = reader.read(text);
      if (value !== undefined) return { ok: true, value };
      return { ok: false, message: `${name}: HTTP ${res.status} without ${reader.expected} in the body`, retryAfterMs: undefined };
    }
    const detail = describe(res.status, text);
    const message = redact(`${name}: HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
    const retryable = api.isRetryable?.(res.status, text) ?? isRetryableStatus(res.status);
    if (!retryable) throw new ProviderError(message, false);
    return { ok: false, message, retryAfterMs: retryAfterOf(res.headers) };
  }

  return {
    async send(request, reader) {
      for (let retry = 0; ; retry++) {
        request.signal?.throwIfAborted();
        const outcome = await (request.limit ?? limit).run((answered) => attempt(request, reader, answered), request.tokens ?? 0, request.signal);
        if (outcome.ok) return outcome.value;
        if (retry >= maxRetries) throw new ProviderError(`${outcome.message} (gave up after ${retry + 1} attempts)`, true);
        // A server-given wait is followed as is (up to the cap): it knows when the window reopens, our backoff only guesses.
        const waitMs = Math.round(Math.min(outcome.retryAfterMs ?? backoffMs(retry, baseDelayMs), maxDelayMs));
        log?.warn(`${outcome.message}; retrying in ${waitMs} ms (attempt ${retry + 2} of ${maxRetries + 1})`);
        await sleep(waitMs, request.signal);
      }
    },
  };
}
