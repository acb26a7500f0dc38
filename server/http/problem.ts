/** Maps every error to an RFC 9457 problem+json response, once, at the edge. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { RepoPathError } from '../../src/core/repo-path.js';
import { ApiError, TITLES } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AppEnv } from './context.js';
import { rateLimitHeaders } from './middleware/rate-limit.js';

export function problemResponse(c: Context<AppEnv>, error: ApiError): Response {
  const body = {
    type: `https://parlance.dev/problems/${error.code}`,
    title: TITLES[error.status] ?? 'Error',
    status: error.status,
    code: error.code,
    detail: error.message,
    instance: c.req.path,
    ...error.extras,
  };
  const headers = new Headers({ 'content-type': 'application/problem+json' });
  for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
  const limit = c.get('rateLimit');
  if (limit) for (const [name, value] of Object.entries(rateLimitHeaders(limit))) headers.set(name, value);
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

export function toApiError(error: unknown, log: Logger): ApiError {
  if (error instanceof ApiError) return error;
  // Thrown by the one path rule wherever a path enters: a request's path, or a stored one that no longer passes it.
  if (error instanceof RepoPathError) return new ApiError(422, 'path_invalid', error.message, { path: error.value, problem: error.problem });
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) return new ApiError(413, 'payload_too_large', error.message || 'The request body is too large.');
    if (status === 415) return new ApiError(415, 'unsupported_media_type', 'Send application/json or multipart/form-data.');
    if (status === 400) return new ApiError(400, 'bad_request', error.message || 'The request could not be read.');
    if (status === 404) return new ApiError(404, 'not_found', error.message || 'Not found.');
  }
  // PostgreSQL cannot store U+0000 in text (22021 character_not_in_repertoire): a NUL that reaches a query came from the request.
  if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '22021') {
    return new ApiError(422, 'validation_failed', 'Invalid request: text may not contain the NUL character (U+0000).');
  }
  // The database connection ended under the request (a restart, a failover, pg_terminate_backend): the failed statement
  // was not committed, and the pool reconnects on the next query, so the client is told to try again, not that we broke.
  if (databaseConnectionLost(error)) {
    log.warn('database connection lost during a request', { error });
    return new ApiError(503, 'database_unavailable', 'The database connection was lost while answering; retry in a second.', { retry_after: 1 }, { 'Retry-After': '1' });
  }
  log.error('unhandled error', { error });
  return new ApiError(500, 'internal_error', 'Something went wrong on the server; the error was logged.');
}

/** SQLSTATE class 57P (operator intervention: admin or crash shutdown, cannot connect now) and 08 (connection exception), or node-postgres losing the socket. */
const CONNECTION_LOST_CODES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006']);

function databaseConnectionLost(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CONNECTION_LOST_CODES.has(code)) return true;
  return typeof message === 'string' && /^Connection terminated( unexpectedly)?$/.test(message);
}
