/**
 * A thin layer over `serveOnLoopback` for a mock written as a function from a request to an answer (the GitLab and
 * Gitea mocks): each request is answered, then recorded with the status it got; a test can run an action right after
 * a request it picks (a person pushing mid-sync), and have the next requests throttled with the vendor's 429.
 */
import type { IncomingMessage } from 'node:http';
import { serveOnLoopback, type LoopbackServer } from './loopback.js';

export interface RecordedRequest {
  method: string;
  /** The path as sent (percent-encoding kept), without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  status: number;
}

/** A mock's answer: a string or bytes are sent as text, anything else as JSON. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type AnswerHandler = (request: Omit<RecordedRequest, 'status'>) => Answer;

export interface AnsweringServer extends LoopbackServer {
  /** Every request answered, in order, with its status. */
  requests: RecordedRequest[];
  /** Runs `action` once, right after the first answered request that `match` picks. */
  after(match: (request: RecordedRequest) => boolean, action: () => void): void;
  /** The next `count` requests get the vendor's 429, asking to wait `retryAfter` seconds. */
  failNext429(count?: number, retryAfter?: number): void;
}

/**
 * Serves `handle` on the loopback; a handler that throws answers 500 with the error's text (and is recorded so).
 * `tooManyRequests` is the vendor's 429 answer asking to wait `retryAfter` seconds.
 */
export async function serveAnswers(handle: AnswerHandler, tooManyRequests: (retryAfter: number) => Answer): Promise<AnsweringServer> {
  const requests: RecordedRequest[] = [];
  const hooks: { match: (request: RecordedRequest) => boolean; action: () => void }[] = [];
  let throttled = 0;
  let wait = 1;
  const server = await serveOnLoopback((req, body, res) => {
    const raw = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request = { method: req.method ?? 'GET', path: raw.pathname, query: raw.searchParams, headers: req.headers, body: body.toString('utf8') };
    let answer: Answer;
    try {
      if (throttled > 0) {
        throttled--;
        answer = tooManyRequests(wait);
      } else {
        answer = handle(request);
      }
    } catch (error) {
      answer = { status: 500, body: { message: `500 Internal Server Error: ${error instanceof Error ? error.message : String(error)}` } };
    }
    const recorded = { ...request, status: answer.status };
    requests.push(recorded);
    const due = hooks.findIndex((hook) => hook.match(recorded));
    if (due >= 0) hooks.splice(due, 1)[0]!.action();
    const text = answer.body === undefined || typeof answer.body === 'string' || answer.body instanceof Uint8Array;
    res.writeHead(answer.status, { 'Content-Type': text ? 'text/plain; charset=utf-8' : 'application/json', ...answer.headers });
    res.end(text ? (answer.body as string | Uint8Array | undefined) : JSON.stringify(answer.body));
  });
  return {
    ...server,
    requests,
    after(match, action) {
      hooks.push({ match, action });
    },
    failNext429(count = 1, retryAfter = 1) {
      throttled = count;
      wait = retryAfter;
    },
  };
}

/** Splits a raw path into decoded segments, so `locales%2Fen.json` stays one segment as GitLab's router reads it. */
export function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '').map(decodeURIComponent);
}
