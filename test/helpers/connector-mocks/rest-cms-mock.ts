/**
 * What the REST CMS mocks (Strapi, Directus, WordPress) share around their vendor handlers: the loopback server, every
 * request recorded with its parsed JSON body, a rate limit a test switches on (429 with Retry-After, in the vendor's
 * error shape), and a handler that throws answered in the vendor's error shape. Routes and bodies stay in each mock.
 */
import type { ServerResponse } from 'node:http';
import { serveOnLoopback } from './loopback.js';

/** One request as the mock received it. */
export interface RestCmsRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: unknown;
}

/** The part of every REST CMS mock's interface that this module serves. */
export interface RestCmsMock {
  url: string;
  requests: RestCmsRequest[];
  /** The next `count` requests answer 429 with `Retry-After: seconds`. */
  rateLimitNext(count?: number, seconds?: number): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** What a vendor handler gets: the parsed URL and the raw body text beside the recorded request. */
export interface RestCmsCall extends RestCmsRequest {
  url: URL;
  text: string;
}

export interface RestCmsVendor {
  /** The vendor's 429 answer; `headers` carries the Retry-After of `seconds`. */
  tooManyRequests(res: ServerResponse, headers: Record<string, string>, seconds: number): void;
  /** The vendor's 500 answer to a handler that threw. */
  internalError(res: ServerResponse, error: unknown): void;
  /** Answers every request the rate limit lets through. */
  handle(call: RestCmsCall, res: ServerResponse): unknown;
}

/** Serves `vendor` on 127.0.0.1, recording every request (after a throttled one too) before it is answered. */
export async function serveRestCms(vendor: RestCmsVendor): Promise<RestCmsMock> {
  const requests: RestCmsRequest[] = [];
  let rateLimited = 0;
  let retryAfter = 1;
  const server = await serveOnLoopback(async (req, body, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = body.toString('utf8');
      const request: RestCmsRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, authorization: req.headers.authorization, body: text ? (JSON.parse(text) as unknown) : undefined };
      requests.push(request);
      if (rateLimited > 0) {
        rateLimited--;
        return vendor.tooManyRequests(res, { 'retry-after': String(retryAfter) }, retryAfter);
      }
      return await vendor.handle({ ...request, url, text }, res);
    } catch (error: unknown) {
      if (res.headersSent) res.end();
      else vendor.internalError(res, error);
    }
  });
  return {
    url: server.url,
    requests,
    rateLimitNext(count = 1, seconds = 1) {
      rateLimited = count;
      retryAfter = seconds;
    },
    stop: server.stop,
    start: server.start,
    close: server.close,
  };
}
