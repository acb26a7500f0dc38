/**
 * HTTP for connectors: the importers' client (429 waited out by Retry-After or the vendor's reset header, network
 * errors and 5xx retried with backoff) plus one mapping of failed answers to ConnectorError, naming the request and
 * quoting the vendor's own error message.
 */
import { createPlatformHttp } from '../imports/platform-http.js';
import { ConnectorError } from './connector-error.js';

export interface HttpInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface ConnectorHttp {
  /** The answer as it came (after waits and retries); a network failure after the retries throws ConnectorError `unavailable`. */
  request(url: string, init?: HttpInit): Promise<Response>;
  /** The JSON body of a 2xx answer; any other answer throws a ConnectorError naming `what`. */
  json<T>(url: string, init: HttpInit & { what: string }): Promise<T>;
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

/** The ConnectorError for a failed answer to `what` (401/403: credentials; 5xx and 429: unavailable; any other: the settings). */
export async function failure(response: Response, what: string, wording: FailureWording = {}): Promise<ConnectorError> {
  const vendor = wording.vendor ?? new URL(response.url || 'http://remote').host;
  const said = (wording.read ?? vendorMessage)(await response.text().catch(() => ''));
  const quoted = said ? `: ${said}` : '';
  if (response.status === 401 || response.status === 403) {
    return new ConnectorError('auth', `${what}: ${vendor} refused the credentials (HTTP ${response.status}${quoted}). Check ${wording.credentials ?? "the connection's token and its permissions"}, then PATCH it.`);
  }
  if (response.status >= 500 || response.status === 429) return new ConnectorError('unavailable', `${what}: ${vendor} answered HTTP ${response.status}${quoted}.`);
  return new ConnectorError('config', `${what}: ${vendor} answered HTTP ${response.status}${quoted}. Check ${wording.settings ?? "the connection's settings"}.`);
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
    try {
      return await platform.request(url, init);
    } catch (error) {
      if (options.signal.aborted || error instanceof ConnectorError) throw error;
      throw new ConnectorError('unavailable', error instanceof Error ? error.message : String(error));
    }
  }

  return {
    request,
    async json<T>(url: string, init: HttpInit & { what: string }): Promise<T> {
      const { what, ...rest } = init;
      const response = await request(url, rest);
      if (!response.ok) throw await failure(response, what);
      if (response.status === 204) return undefined as T;
      const text = await response.text();
      if (text.trim() === '') return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ConnectorError('unavailable', `${what}: ${new URL(url).host} answered HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 120)}`);
      }
    },
  };
}
