/** Caps every request body by route, from one table: enforced while the body is read, and stated in the OpenAPI document. */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../errors.js';
import type { AppEnv } from '../context.js';
import { problemResponse } from '../problem.js';

/** `setting`: the variable that sets `bytes`, if one does; else `why` ends the 413 sentence "…, the limit for <path> <why>.". */
export type BodyLimit = { bytes: number } & ({ setting: string; why?: never } | { why: string; setting?: never });

/** `rules`: the first whose path is the request's (`/v1/push`) or a prefix of it (`/v1/auth/*`) applies; any other route gets `fallback`. */
export interface BodyLimitTable {
  fallback: BodyLimit;
  rules: readonly (BodyLimit & { path: string })[];
}

/**
 * Whether a rule's path is the request's: segment by segment, where a rule's `{name}` segment is any one segment
 * (`/v1/integrations/{connector}/{id}/file`); an OpenAPI path's own `{name}` segments match the rule's literally.
 */
function samePath(rule: string, path: string): boolean {
  const want = rule.split('/');
  const have = path.split('/');
  return want.length === have.length && want.every((segment, i) => segment === have[i] || (/^\{[a-z_]+\}$/.test(segment) && have[i] !== ''));
}

/** The limit of a request path, or of an OpenAPI path (`/v1/imports/{id}/cancel`). */
export function limitFor(table: BodyLimitTable, path: string): BodyLimit {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return table.rules.find((rule) => (rule.path.endsWith('/*') ? trimmed.startsWith(rule.path.slice(0, -1)) : samePath(rule.path, trimmed))) ?? table.fallback;
}

function tooLarge(path: string, limit: BodyLimit): ApiError {
  return new ApiError(413, 'payload_too_large', `The request body exceeds ${limit.bytes} bytes, the limit for ${path} ${limit.why ?? `(${limit.setting})`}.`, {
    limit: limit.bytes,
    setting: limit.setting ?? null,
  });
}

/** What is left of a refused body after the 413 is sent, read and dropped for at most this long and this much. */
const LINGER_MS = 1000;
const LINGER_BYTES = 64 * 1024 * 1024;

type Rest = Pick<ReadableStreamDefaultReader<Uint8Array>, 'read'>;

/**
 * Runs before routing and authentication, so a body over its route's limit is a 413 whatever else is wrong with the
 * request. A declared Content-Length over the limit is refused before a byte is read. A body of unknown length
 * (chunked, or a Request built in-process) passes through a counter, never a buffer: the route reads it as usual, and
 * the read fails at the chunk that crosses the limit, which the route never sees. What the route left unread (a 401, a
 * 404, a route that takes no body) is read here to its end, counted and dropped, up to the limit; over it, the 413
 * replaces the route's answer. (hono/body-limit instead buffers a body of unknown length up to the limit before the
 * route runs: an anonymous client could make the process hold MAX_UPLOAD_BYTES per request.)
 */
export function bodyLimit(table: BodyLimitTable): MiddlewareHandler<AppEnv> {
  return async function limitBody(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const limit = limitFor(table, c.req.path);
    const declared = c.req.header('transfer-encoding') === undefined ? Number.parseInt(c.req.header('content-length') ?? '', 10) : Number.NaN;
    if (declared > limit.bytes) return refuse(problemResponse(c, tooLarge(c.req.path, limit)), c.req.raw.body?.getReader());
    // Node's parser holds a body to its Content-Length, so a declared length within the limit needs no counting.
    if (!Number.isNaN(declared) || !c.req.raw.body) return next();

    const counted = countBody(c.req.raw.body, limit.bytes);
    c.req.raw = new Request(c.req.raw, { body: counted.body, duplex: 'half' } as RequestInit);
    await next();
    if (!counted.over() && !counted.ended()) await counted.drain();
    if (counted.over()) {
      // In place of the route's answer (whatever it made of the failed read), none of whose headers (a session cookie, say) may carry over.
      const answer = await refuse(problemResponse(c, tooLarge(c.req.path, limit)), counted.rest);
      c.res = undefined;
      c.res = answer;
    }
  };
}

/**
 * The 413, made here rather than thrown to app.onError because its body stays open after the problem document: with
 * `Connection: close`, the socket can carry no other request, and the server closes it once the response ends. Until
 * then the rest of the request is read and dropped, up to LINGER_MS and LINGER_BYTES, so a client still sending reads
 * the 413 instead of a reset (closing a socket with unread data resets it); nothing is kept.
 */
async function refuse(problem: Response, rest: Rest | undefined): Promise<Response> {
  const payload = new Uint8Array(await problem.arrayBuffer());
  const headers = new Headers(problem.headers);
  headers.set('Connection', 'close');
  headers.set('Content-Length', String(payload.byteLength));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(payload);
    },
    async pull(controller) {
      const timeUp = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LINGER_MS)));
      let dropped = 0;
      try {
        while (rest && dropped < LINGER_BYTES) {
          const chunk = await Promise.race([rest.read(), timeUp]);
          if (!chunk || chunk.done) break;
          dropped += chunk.value.byteLength;
        }
      } catch {
        // The client stopped sending and went away.
      }
      clearTimeout(timer);
      controller.close();
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new Response(body, { status: problem.status, headers });
}

/** The body as a stream that errors past `limit` bytes; it reads from the request only when its reader asks (highWaterMark 0). */
function countBody(source: ReadableStream<Uint8Array>, limit: number) {
  const reader = source.getReader();
  let received = 0;
  let over = false;
  let ended = false;
  async function read() {
    const chunk = await reader.read();
    if (chunk.done) ended = true;
    else {
      received += chunk.value.byteLength;
      if (received > limit) over = true;
    }
    return chunk;
  }
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await read();
        if (over) controller.error(new ApiError(413, 'payload_too_large', `The request body exceeds ${limit} bytes.`));
        else if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      // Not passed on: cancelling the request's stream destroys the socket before the answer is written.
      cancel() {},
    },
    { highWaterMark: 0 },
  );
  return {
    body,
    over: () => over,
    ended: () => ended,
    /** What is left after the byte over the limit, for the 413 to drop. */
    rest: reader as Rest,
    /** Reads what the route left, dropping it, until the end or the first byte over the limit; a client gone mid-body ends it. */
    async drain() {
      try {
        while (!over && !ended) await read();
      } catch {
        // The client went away: there is no one to answer.
      }
    },
  };
}

type Operation = { description?: string; requestBody?: unknown; responses?: Record<string, unknown> };

/**
 * States the limits in an OpenAPI document: `x-body-limit` (bytes) and a 413 response (the `PayloadTooLarge`
 * component) on every operation that takes a body, and a sentence in the description where a route's own limit applies.
 */
export function documentBodyLimits<D extends { paths?: object }>(document: D, table: BodyLimitTable): D {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(document.paths ?? {}) as [string, Record<string, unknown>][]) {
    const limit = limitFor(table, path);
    const copy: Record<string, unknown> = { ...item };
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const operation = item[method] as Operation | undefined;
      if (!operation || (method === 'delete' && !operation.requestBody)) continue;
      const own = limit === table.fallback ? '' : `\n\nThe request body is limited to ${limit.bytes} bytes ${limit.why ?? `(\`${limit.setting}\`)`}; a larger one gets 413 \`payload_too_large\`.`;
      copy[method] = {
        ...operation,
        ...(own ? { description: `${operation.description ?? ''}${own}`.trimStart() } : {}),
        'x-body-limit': limit.bytes,
        responses: { ...operation.responses, 413: operation.responses?.['413'] ?? { $ref: '#/components/responses/PayloadTooLarge' } },
      };
    }
    paths[path] = copy;
  }
  return { ...document, paths };
}
