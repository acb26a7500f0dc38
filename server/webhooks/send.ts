/** One webhook POST: to public addresses only (unless allowed), no redirects, one deadline for the whole exchange, and an outcome instead of a throw. */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseRetryAfter } from '../providers/http.js';
import { guardedLookup, literalRefusal, PUBLIC_ONLY, ANY_ADDRESS, type AllowPrivate } from '../net/address-guard.js';

export interface SendInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** From sending the request to the last byte of the response. Default 15 000. */
  timeoutMs?: number;
  allowPrivate: AllowPrivate | boolean;
  /** The guarded lookup to connect with; by default one over the system resolver for `allowPrivate`. */
  lookup?: LookupFunction;
  /** How much of the response body to keep for the delivery log. Default 2048. */
  maxResponseBytes?: number;
}

export interface SendResult {
  /** A 2xx answer arrived in time. */
  ok: boolean;
  /** Null when no response arrived. */
  status: number | null;
  latencyMs: number;
  /** The start of the response body, cut on a UTF-8 boundary, with "…" appended when cut. */
  response: string;
  /** Why the exchange failed short of an HTTP answer, or a redirect that was not followed; null when the status says it all. */
  error: string | null;
  /** The receiver's requested wait, from Retry-After on 429 and 503. */
  retryAfterMs: number | null;
  /** The address is one the service may not reach: nothing was sent, and a retry would be refused the same way. */
  refused: boolean;
}

/** Bodies are read this far, then the connection is dropped: a receiver streaming megabytes must not hold the worker. */
const READ_LIMIT = 64 * 1024;

/** Plain words for the network failures receivers cause most; Node's own message follows for the address and port. */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

/** The first `maxBytes` of `bytes` as text, never splitting a UTF-8 sequence, "…" marking a cut. */
function truncateUtf8(bytes: Buffer, maxBytes: number): string {
  if (bytes.length <= maxBytes) return bytes.toString('utf8');
  let cut = maxBytes;
  // A continuation byte (10xxxxxx) at the cut means the character began earlier: cut before its lead byte instead.
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return `${bytes.subarray(0, cut).toString('utf8')}…`;
}

/** A transport error in words; the blocked-address error from the guarded lookup already reads well. */
/** With several addresses to try (autoSelectFamily), Node reports every attempt; the first names the problem. */
function firstError(err: unknown): NodeJS.ErrnoException | undefined {
  const first: unknown = err instanceof AggregateError && err.errors[0] instanceof Error ? err.errors[0] : err;
  return first instanceof Error ? first : undefined;
}

function networkFailure(err: unknown): string {
  const first = firstError(err) ?? err;
  if (!(first instanceof Error)) return String(first);
  const code = (first as NodeJS.ErrnoException).code;
  // OpenSSL's messages end in a newline.
  const message = first.message.trim();
  if (code === 'EUNSAFEADDRESS') return message;
  const words = code === undefined ? undefined : NETWORK_FAILURES[code];
  if (words !== undefined) return `${words} (${message})`;
  // Certificate problems carry OpenSSL's verify codes (CERT_HAS_EXPIRED, UNABLE_TO_VERIFY_LEAF_SIGNATURE…); a broken handshake is EPROTO.
  if (code !== undefined && /CERT|TLS|SSL|SIGNATURE|^EPROTO$/.test(code)) return `TLS failure: ${message}`;
  return message;
}

/** Why a completed HTTP answer is not a delivery beyond its status: only an unfollowed redirect needs words. */
function answerError(res: http.IncomingMessage): string | null {
  const status = res.statusCode ?? 0;
  if (status < 300 || status >= 400) return null;
  // Following would re-open the SSRF question for a URL nobody checked; receivers must give their final URL.
  return `redirect to ${res.headers.location ?? '(no Location header)'} not followed`;
}

/** The URL to POST to, or why there is none; a literal IP never passes through `lookup`, so it is judged here. */
function target(url: string, allowPrivate: AllowPrivate): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `invalid URL '${url}'`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `unsupported URL scheme '${parsed.protocol.slice(0, -1)}'`;
  const refused = literalRefusal(parsed.hostname, allowPrivate);
  return refused === undefined ? parsed : refused.message;
}

/** POSTs `body` once and reports what happened; never throws. */
export function sendWebhook(input: SendInput): Promise<SendResult> {
  const timeoutMs = input.timeoutMs ?? 15_000;
  const maxResponseBytes = input.maxResponseBytes ?? 2048;
  // One byte past what is kept, at least, so a body cut by the read limit is always marked as cut.
  const readLimit = Math.max(READ_LIMIT, maxResponseBytes + 1);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  const allowPrivate = input.allowPrivate === true ? ANY_ADDRESS : input.allowPrivate === false ? PUBLIC_ONLY : input.allowPrivate;
  const url = target(input.url, allowPrivate);
  if (typeof url === 'string') return Promise.resolve({ ok: false, status: null, latencyMs: elapsed(), response: '', error: url, retryAfterMs: null, refused: url.startsWith('blocked address') });

  return new Promise((resolve) => {
    let settled = false;
    let response: http.IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    let refused = false;

    function finish(error: string | null): void {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      const status = response?.statusCode ?? null;
      const retryAfter = status === 429 || status === 503 ? parseRetryAfter(response?.headers['retry-after']) : undefined;
      resolve({
        ok: error === null && status !== null && status >= 200 && status < 300,
        status,
        latencyMs: elapsed(),
        response: truncateUtf8(Buffer.concat(chunks), maxResponseBytes),
        error,
        retryAfterMs: retryAfter ?? null,
        refused,
      });
      // Drops the socket when we stop early (deadline, read limit); after a complete exchange it only releases it.
      request?.destroy();
    }

    const deadline = setTimeout(() => finish(`timed out after ${timeoutMs} ms`), timeoutMs);
    let request: http.ClientRequest | undefined;
    try {
      request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        headers: { ...input.headers, 'content-length': String(Buffer.byteLength(input.body)) },
        lookup: input.lookup ?? guardedLookup(allowPrivate),
        // A fresh connection each time: a pooled socket would skip the guarded lookup of this request.
        agent: false,
      });
    } catch (err) {
      // http.request throws synchronously for header values it cannot send (a newline, say).
      finish(err instanceof Error ? err.message : String(err));
      return;
    }
    request.on('error', (err) => {
      refused = firstError(err)?.code === 'EUNSAFEADDRESS';
      finish(networkFailure(err));
    });
    request.on('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received >= readLimit) finish(answerError(res));
      });
      res.on('end', () => finish(answerError(res)));
      res.on('error', (err) => finish(`response interrupted: ${networkFailure(err)}`));
      res.on('close', () => {
        if (!res.complete) finish('response interrupted: connection closed before the body ended');
      });
    });
    request.end(input.body);
  });
}
