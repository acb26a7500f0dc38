/**
 * The one client for destinations a user supplies (webhooks, connectors, import base URLs, storage endpoints and account
 * URLs): every connection's own lookup is guarded, literal IPs are judged before connecting, every redirect hop is a new
 * guarded request, and a refusal says which range and which setting allows it.
 */
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { Agent, buildConnector } from 'undici';
import type { LookupAddress } from 'node:dns';
import { DEFAULT_ARCHIVE_LIMITS } from '../../src/core/archive-limits.js';
import { ApiError } from '../errors.js';
import {
  ALLOW_PRIVATE_SETTING,
  checkDestination,
  guardedLookup,
  literalRefusal,
  resolveWith,
  UnsafeAddressError,
  UnsafeUrlError,
  type AllowPrivate,
  type Resolver,
} from './address-guard.js';

export interface OutboundOptions {
  allowPrivate: AllowPrivate;
  /** The DNS resolver sockets use; the system's by default. Tests give one that answers differently from one lookup to the next. */
  resolver?: Resolver;
  /** The most a response body may hold once decoded (fetch undoes gzip and brotli as it reads); MAX_INFLATED_BYTES, 100 MiB by default. */
  maxResponseBytes?: number;
}

export interface OutboundFetchOptions {
  /**
   * What a redirect to another origin does: `refuse` (connectors: their credentials travel in headers a redirect would
   * carry elsewhere) or `drop-credentials` (importers: Transifex answers a finished download with a 303 to its file
   * store), which follows it with only the request's non-secret headers.
   */
  crossOrigin: 'refuse' | 'drop-credentials';
  /** Hops followed before giving up. Default 5. */
  maxRedirects?: number;
}

/** A response whose body, decoded, is larger than the client reads; the read fails at the chunk past the limit. */
export class ResponseTooLargeError extends Error {
  readonly permanent = true;
  constructor(
    readonly host: string,
    readonly limit: number,
  ) {
    super(`${host} answered with a body larger than ${limit.toLocaleString('en-US')} bytes once decoded (MAX_INFLATED_BYTES); the rest was not read.`);
    this.name = 'ResponseTooLargeError';
  }
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The response with a body that errors past `limit` decoded bytes, so a compressed bomb is never read whole. */
function bounded(response: Response, limit: number, host: string, redirected: boolean, url: string): Response {
  if (response.body === null || NULL_BODY.has(response.status)) return response;
  let seen = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new ResponseTooLargeError(host, limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  const out = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperties(out, { redirected: { value: redirected }, url: { value: url } });
  return out;
}

/** A redirect the client would not follow; the response's body is never read or shown. */
export class RedirectRefusedError extends Error {
  readonly permanent = true;
  constructor(message: string) {
    super(message);
    this.name = 'RedirectRefusedError';
  }
}

/** Headers a cross-origin hop keeps: none of them carries a credential. */
const SAFE_HEADERS = new Set(['accept', 'accept-language', 'user-agent', 'content-type']);

export interface Outbound {
  readonly allowPrivate: AllowPrivate;
  /** `fetch` through guarded connections, redirects followed by hand (each hop guarded, at most five). */
  fetch(options: OutboundFetchOptions): typeof fetch;
  /** Node agents whose every connection is guarded, for SDKs that take one (the AWS SDK's request handler, Azure's pipeline). */
  agents(): { http: http.Agent; https: https.Agent };
  /** The guarded lookup, for a raw `http.request` (webhook deliveries). */
  lookup: ReturnType<typeof guardedLookup>;
  /**
   * Checks a URL when the setting that holds it is saved: throws {@link UnsafeUrlError} naming the range. `label`
   * starts the sentence ("The S3 endpoint"); a host that does not resolve passes (it is checked again at connect time).
   */
  check(url: string, label: string): Promise<URL>;
  /** {@link Outbound.check} as the 422 a route answers, naming the field (`s3.endpoint`) and the range. */
  checkField(url: string, field: string, label: string): Promise<URL>;
  /** The resolver a test gave, as a promise; undefined for the system's. */
  readonly resolve: ((hostname: string) => Promise<LookupAddress[]>) | undefined;
}

/** How a refusal ends, for messages shown to people. */
export const PUBLIC_ONLY_REASON = `Parlance connects to public addresses only (an operator allows private ones with ${ALLOW_PRIVATE_SETTING})`;

/** The refusal or redirect error inside a failed fetch (`TypeError: fetch failed` carries it as `cause`), else the error itself. */
export function outboundCause(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof UnsafeAddressError || current instanceof RedirectRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return error;
}

type ConnectCallback = (error: Error | null, socket: Duplex | null) => void;

/** An http.Agent or https.Agent whose connections use the guarded lookup and refuse blocked literal IPs. */
function guardedAgent<T extends typeof http.Agent | typeof https.Agent>(Base: T, allow: AllowPrivate, lookup: Outbound['lookup']): InstanceType<T> {
  const agent = new Base({ keepAlive: true, lookup } as never) as InstanceType<T>;
  const createConnection = agent.createConnection.bind(agent) as (options: { host?: string | null }, callback: ConnectCallback) => Duplex | undefined;
  (agent as { createConnection: unknown }).createConnection = (options: { host?: string | null }, callback: ConnectCallback) => {
    const refused = literalRefusal(options.host ?? '', allow);
    if (refused) {
      // Agent#createSocket hands a callback error to the request's 'error' event.
      process.nextTick(callback, refused, null);
      return undefined;
    }
    return createConnection({ ...options, lookup } as never, callback);
  };
  return agent;
}

export function createOutbound(options: OutboundOptions): Outbound {
  const { allowPrivate } = options;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_ARCHIVE_LIMITS.maxInflatedBytes;
  const lookup = guardedLookup(allowPrivate, options.resolver);
  const connector = buildConnector({ lookup } as buildConnector.BuildOptions);
  const dispatcher = new Agent({
    connect(connectOptions, callback) {
      const refused = literalRefusal(connectOptions.hostname, allowPrivate);
      if (refused) return callback(refused, null);
      return connector(connectOptions, callback);
    },
  });
  let agents: { http: http.Agent; https: https.Agent } | undefined;
  const resolve = options.resolver ? resolveWith(options.resolver) : undefined;
  const check = (url: string, label: string) => checkDestination(url, { allowPrivate, label, publicOnly: PUBLIC_ONLY_REASON, mustResolve: false, ...(resolve ? { resolve } : {}) });

  function guardedFetch(fetchOptions: OutboundFetchOptions): typeof fetch {
    const maxRedirects = fetchOptions.maxRedirects ?? 5;
    return async (input, init) => {
      let url = new URL(input instanceof Request ? input.url : String(input));
      let request: RequestInit = { ...init, redirect: 'manual' };
      for (let hops = 0; ; hops++) {
        const refused = literalRefusal(url.hostname, allowPrivate);
        if (refused) throw refused;
        let response: Response;
        try {
          response = await fetch(url, { ...request, dispatcher } as RequestInit);
        } catch (error) {
          const cause = outboundCause(error);
          throw cause instanceof UnsafeAddressError ? cause : error;
        }
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || response.status === 304 || location === null) {
          return bounded(response, maxResponseBytes, url.host, hops > 0, url.href);
        }
        // The body of a redirect is never read: it may be what a refused destination answered.
        await response.body?.cancel().catch(() => undefined);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new RedirectRefusedError(`${url.host} redirected to an address that is not a URL.`);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new RedirectRefusedError(`${url.host} redirected to a ${next.protocol.slice(0, -1)} address; only http and https are followed.`);
        if (hops >= maxRedirects) throw new RedirectRefusedError(`${url.host} redirected more than ${maxRedirects} times.`);
        if (next.origin !== url.origin) {
          if (fetchOptions.crossOrigin === 'refuse') {
            throw new RedirectRefusedError(`${url.host} redirected to another host (${next.host}); requests stay on the host the settings name, with their credentials. Set that address in the settings if it is the right one.`);
          }
          const headers = new Headers(request.headers);
          for (const name of [...headers.keys()]) if (!SAFE_HEADERS.has(name)) headers.delete(name);
          request = { ...request, headers };
        }
        // 303, and a POST answered 301 or 302, continue as a GET without a body, as browsers do.
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST')) {
          const { body: _body, ...rest } = request;
          request = { ...rest, method: 'GET' };
        }
        url = next;
      }
    };
  }

  return {
    allowPrivate,
    lookup,
    fetch: guardedFetch,
    agents() {
      agents ??= { http: guardedAgent(http.Agent, allowPrivate, lookup), https: guardedAgent(https.Agent, allowPrivate, lookup) };
      return agents;
    },
    check,
    async checkField(url, field, label) {
      try {
        return await check(url, label);
      } catch (error) {
        if (error instanceof UnsafeUrlError) throw new ApiError(422, 'address_refused', `${field}: ${error.message}`, { field, ...(error.range ? { range: error.range } : {}) });
        throw error;
      }
    },
    resolve,
  };
}

export { UnsafeAddressError, UnsafeUrlError };
