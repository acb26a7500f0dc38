/**
 * HTTP for connectors: the importers' client (429 waited out by Retry-After or the vendor's reset header, network
 * errors and 5xx retried with backoff) plus one mapping of failed answers to ConnectorError, naming the request and
 * quoting the vendor's own error message.
 */
import type { z } from '@hono/zod-openapi';
import { createPlatformHttp } from '../imports/platform-http.js';
import { ConnectorError } from './connector-error.js';

export interface HttpInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The most of the answer's body any read may take (default MAX_RESPONSE_BYTES): past it the body's stream fails. */
  maxBytes?: number;
}

/**
 * The ceiling on any answer's body, however a connector reads it (`readBody`, `readJson`, `text()`, `json()`): a
 * connection's address is the project's to choose, so an endless answer must not fill the service's memory. A
 * connector that takes larger files (a design document) raises it per request with `maxBytes`; `readBody`'s own,
 * tighter limits apply beneath it.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** `response` with a body that fails once it passes `maxBytes` (a stated Content-Length over it fails at once). */
function capped(response: Response, maxBytes: number, url: string): Response {
  if (!response.body) return response;
  const refuse = () => new AnswerTooLargeError(`${new URL(url).host} answered more than ${maxBytes} bytes to ${url.split('?')[0]}, more than a connector reads.`);
  let size = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxBytes) controller.error(refuse());
        else controller.enqueue(chunk);
      },
    }),
  );
  const limited = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(limited, 'url', { value: response.url || url });
  return limited;
}

/** How much of an answer is read, and what to say when it is more. */
export interface BodyLimit {
  /** The most bytes read (default MAX_ANSWER_BYTES). */
  maxBytes?: number;
  /** What the person can change to get a smaller answer, ending the error's sentence ("narrow the table with a view"). */
  tooLarge?: string;
  /** readJson: an empty body is an `unavailable` error rather than undefined (the request always answers a document). */
  required?: boolean;
  /** readJson: what the person can check when the body is not JSON, ending the error's first clause ("check the connection's url"). */
  notJson?: string;
}

export interface ConnectorHttp {
  /** The answer as it came (after waits and retries); a network failure after the retries throws ConnectorError `unavailable`. */
  request(url: string, init?: HttpInit): Promise<Response>;
  /** The JSON body of a 2xx answer, read within its limit; any other answer throws a ConnectorError naming `what`. */
  json<T>(url: string, init: HttpInit & BodyLimit & { what: string }): Promise<T>;
}

/** The most of one answer a connector reads unless it says otherwise: far above any page of a vendor's list. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** An answer over its limit (readBody): a `config` error, so a connector that can do without the answer (a code file too large to read) can tell it apart. */
export class AnswerTooLargeError extends ConnectorError {
  constructor(message: string) {
    super('config', message);
  }
}

/**
 * The body of an answer, read no further than its limit: a stated Content-Length over it is refused before a byte is
 * read, and a body without one stops at the chunk that crosses it. Over the limit is a `config` error naming `what`
 * (asking again gets the same answer; a setting that narrows what is read is the way out).
 */
export async function readBody(response: Response, what: string, limit: BodyLimit = {}): Promise<Uint8Array> {
  const maxBytes = limit.maxBytes ?? MAX_ANSWER_BYTES;
  const refuse = (size: string) =>
    new AnswerTooLargeError(`${what}: ${new URL(response.url || 'http://remote').host} answered ${size} bytes, more than the ${maxBytes} read${limit.tooLarge ? `; ${limit.tooLarge}` : ''}.`);
  const declared = Number(response.headers.get('content-length') ?? '');
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw refuse(String(declared));
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw refuse('more than');
    chunks.push(chunk as Uint8Array);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * The JSON of an answer read by `readBody`; undefined for 204 or an empty body, unless `required`. A body that is not
 * JSON is `unavailable` (a proxy's error page, a vendor mid-deploy), quoting its start.
 */
export async function readJson<T>(response: Response, what: string, limit: BodyLimit = {}): Promise<T> {
  const empty = () => {
    if (limit.required) throw new ConnectorError('unavailable', `${what}: ${new URL(response.url || 'http://remote').host} answered HTTP ${response.status} with an empty body.`);
    return undefined as T;
  };
  if (response.status === 204) {
    await response.body?.cancel();
    return empty();
  }
  const text = Buffer.from(await readBody(response, what, limit)).toString('utf8');
  if (text.trim() === '') return empty();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ConnectorError('unavailable', `${what}: ${new URL(response.url || 'http://remote').host} answered HTTP ${response.status} with a body that is not JSON${limit.notJson ? `; ${limit.notJson}` : ''}: ${text.slice(0, 120)}`);
  }
}

export interface ConnectorHttpOptions {
  signal: AbortSignal;
  /** Headers on every request (the vendor's authorization). */
  headers?: Record<string, string>;
  maxRetries?: number;
  timeoutMs?: number;
  maxWaitMs?: number;
  fetch?: typeof fetch;
}

/** The vendor's own words from an error body: the usual fields of JSON error envelopes, else the start of the text. */
export function vendorMessage(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    const body = JSON.parse(trimmed) as unknown;
    const found = pickMessage(body, 0);
    if (found) return found.slice(0, 300);
  } catch {
    // Not JSON: the text itself.
  }
  return trimmed.replace(/\s+/g, ' ').slice(0, 200);
}

function pickMessage(value: unknown, depth: number): string | undefined {
  if (depth > 3 || value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return pickMessage(value[0], depth + 1);
  if (typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const field of ['message', 'error_description', 'detail', 'title', 'error', 'errors', 'msg', 'err']) {
    const found = pickMessage(record[field], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** How a connector words `failure`'s errors: the vendor's name, its error envelope, and what to check. */
export interface FailureWording {
  /** Named in the message; default: the answering host. */
  vendor?: string;
  /** The vendor's words from an error body; default: `vendorMessage`. */
  read?: (text: string) => string;
  /** What to check on a refusal of the credentials; default: "the connection's token and its permissions". */
  credentials?: string;
  /** What to check on any other refusal; default: "the connection's settings". */
  settings?: string;
}

/** The most of an error answer read for its message: an error page's first words are what a message quotes. */
const ERROR_TEXT_BYTES = 64 * 1024;

/** The start of an answer's body as text, at most ERROR_TEXT_BYTES; the rest is not read. */
async function errorText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_TEXT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body that breaks off: what came is the message.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, ERROR_TEXT_BYTES).toString('utf8');
}

/** The ConnectorError for a failed answer to `what` (401/403: credentials; 5xx and 429: unavailable; any other: the settings). */
export async function failure(response: Response, what: string, wording: FailureWording = {}): Promise<ConnectorError> {
  const vendor = wording.vendor ?? new URL(response.url || 'http://remote').host;
  const said = (wording.read ?? vendorMessage)(await errorText(response));
  const quoted = said ? `: ${said}` : '';
  if (response.status === 401 || response.status === 403) {
    return new ConnectorError('auth', `${what}: ${vendor} refused the credentials (HTTP ${response.status}${quoted}). Check ${wording.credentials ?? "the connection's token and its permissions"}, then PATCH it.`);
  }
  if (response.status >= 500 || response.status === 429) return new ConnectorError('unavailable', `${what}: ${vendor} answered HTTP ${response.status}${quoted}.`);
  return new ConnectorError('config', `${what}: ${vendor} answered HTTP ${response.status}${quoted}. Check ${wording.settings ?? "the connection's settings"}.`);
}

/** How `getValidated` reads one answer: the request's name, the vendor's wording, and the form the answer must have. */
export interface ValidatedRead<S extends z.ZodType> extends BodyLimit {
  schema: S;
  /** Names the request in errors ("Reading article 42"). */
  what: string;
  /** `failure`'s wording for an answer that is not 2xx. */
  wording?: FailureWording;
  /** What the answer should have been, for one the schema refuses ("a Freshdesk API answer"). */
  answer: string;
  /** What to check when the answer is not JSON or not of that form ("the connection's url"). */
  check: string;
  /** A 404 is null (the thing read was deleted) rather than an error. */
  orGone?: boolean;
  headers?: Record<string, string>;
}

/** A validated answer: its body as the schema parsed it, and the response for its headers (a Link header's next page). */
export interface Validated<S extends z.ZodType> {
  body: z.output<S>;
  response: Response;
}

/**
 * A GET's JSON (read by `readJson`, so within its limit), checked against `schema`; a failed answer throws `failure`'s
 * error in the vendor's wording, and with `orGone` a 404 is null.
 */
export async function getValidated<S extends z.ZodType>(http: ConnectorHttp, url: string, read: ValidatedRead<S> & { orGone: true }): Promise<Validated<S> | null>;
export async function getValidated<S extends z.ZodType>(http: ConnectorHttp, url: string, read: ValidatedRead<S> & { orGone?: false }): Promise<Validated<S>>;
export async function getValidated<S extends z.ZodType>(http: ConnectorHttp, url: string, read: ValidatedRead<S>): Promise<Validated<S> | null>;
export async function getValidated<S extends z.ZodType>(http: ConnectorHttp, url: string, read: ValidatedRead<S>): Promise<Validated<S> | null> {
  const { schema, what, wording, answer, check, orGone, headers, ...limit } = read;
  const response = await http.request(url, headers ? { headers } : {});
  if (orGone && response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, what, wording);
  const parsed = schema.safeParse(await readJson<unknown>(response, what, { notJson: `check ${check}`, ...limit, required: true }));
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer is not ${answer} (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}). Check ${check}.`);
  return { body: parsed.data, response };
}

export function createConnectorHttp(options: ConnectorHttpOptions): ConnectorHttp {
  const platform = createPlatformHttp({
    signal: options.signal,
    headers: options.headers ?? {},
    maxRetries: options.maxRetries ?? 3,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxWaitMs: options.maxWaitMs ?? 5 * 60_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  async function request(url: string, init: HttpInit = {}): Promise<Response> {
    const { maxBytes, ...rest } = init;
    try {
      return capped(await platform.request(url, rest), maxBytes ?? MAX_RESPONSE_BYTES, url);
    } catch (error) {
      if (options.signal.aborted || error instanceof ConnectorError) throw error;
      throw new ConnectorError('unavailable', error instanceof Error ? error.message : String(error));
    }
  }

  return {
    request,
    async json<T>(url: string, init: HttpInit & BodyLimit & { what: string }): Promise<T> {
      const { what, maxBytes, tooLarge, required, notJson, ...rest } = init;
      const response = await request(url, rest);
      if (!response.ok) throw await failure(response, what);
      return readJson<T>(response, what, { ...(maxBytes !== undefined ? { maxBytes } : {}), ...(tooLarge !== undefined ? { tooLarge } : {}), ...(required !== undefined ? { required } : {}), ...(notJson !== undefined ? { notJson } : {}) });
    },
  };
}
