/**
 * What the Contentful, Sanity, Storyblok, Webflow and Figma mocks share around their vendor handlers: the loopback
 * server with every request recorded (query, parsed JSON body, when it came and the status it got), a switch a test
 * arms for the next requests (a 429 to answer, a person's change to make just before a write), and the acceptance
 * kit's `RemoteFixture` made from a mock's few operations on SEED strings. Routes, bodies and error shapes stay in
 * each vendor's mock.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { serveOnLoopback, type LoopbackServer } from './loopback.js';

/** One request as the mock received it. */
export interface MockRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The status it was answered with (0 until then). */
  status: number;
  /** The body sent, parsed as JSON (its text when it is not JSON); absent when there was none. */
  body?: unknown;
  /** When it came, in epoch milliseconds. */
  at: number;
}

export interface RecordingServer<R extends MockRequest> extends LoopbackServer {
  /** Every request, in the order they came. */
  requests: R[];
}

/** Answers one request; `body` is the recorded (parsed) body. */
export type RecordedHandler = (req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) => unknown;

export interface RecordingOptions<X extends object> {
  /** What else to record of a request (the vendor's headers a test looks at). */
  extra?: (req: IncomingMessage) => X;
  /** The vendor's 500 to a handler that throws (otherwise loopback's plain-text 500). */
  internalError?: (res: ServerResponse, error: unknown) => void;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Serves `handle` on the loopback (stoppable, restartable on the same port), recording each request as it comes. */
export async function serveRecording<X extends object = Record<never, never>>(handle: RecordedHandler, options: RecordingOptions<X> = {}): Promise<RecordingServer<MockRequest & X>> {
  const requests: (MockRequest & X)[] = [];
  const server = await serveOnLoopback(async (req, raw, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = raw.toString('utf8');
    const log = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), status: 0, at: Date.now(), ...(text ? { body: parsed(text) } : {}), ...options.extra?.(req) } as MockRequest & X;
    requests.push(log);
    try {
      await handle(req, res, url, log.body);
    } catch (error: unknown) {
      if (!options.internalError || res.headersSent) throw error;
      options.internalError(res, error);
    } finally {
      // Set as soon as the handler has answered, before the client can read the answer; a throw answers 500.
      log.status = res.headersSent ? res.statusCode : 500;
    }
  });
  return { ...server, requests };
}

/** A value a test arms for the next `times` requests (a 429 to answer, a change to make before a write). */
export class Armed<T> {
  private value: T | undefined;
  private left = 0;

  arm(value: T, times = 1): void {
    this.value = value;
    this.left = times;
  }

  /** The armed value, used up once; undefined when nothing is armed. */
  take(): T | undefined {
    if (this.left <= 0) return undefined;
    this.left--;
    return this.value;
  }
}

/** A mock's operations on SEED strings (by id), from which `cmsFixture` makes the acceptance kit's fixture. */
export interface FixtureOperations {
  connector: string;
  settings: Record<string, unknown>;
  secrets: Record<string, unknown>;
  badSecrets: Record<string, unknown>;
  /** The locale `edit` takes for the source text (default 'en'). */
  sourceLocale?: string;
  /** A person changes a SEED string's text in a locale, in the vendor's app. */
  edit(id: string, locale: string, text: string): void;
  /** What the remote system holds for a SEED string in a locale; absent for a system that holds no translations. */
  held?(id: string, locale: string): unknown;
  /** How many source strings the remote system holds. */
  sourceCount(): number;
  /** The vendor's notification of a change to the SEED string `id`, signed with `secret`. */
  webhook?(id: string, secret: string): { headers: Record<string, string>; body: string };
  server: Pick<LoopbackServer, 'stop' | 'start' | 'close'>;
}

/** The acceptance kit's fixture: a held value counts as a translation when it is a non-empty string. */
export function cmsFixture(operations: FixtureOperations): RemoteFixture {
  const { edit, held, webhook, server } = operations;
  let lastChanged = SEED[0]!.id;
  return {
    connector: operations.connector,
    settings: operations.settings,
    secrets: operations.secrets,
    badSecrets: operations.badSecrets,
    async setSource(id, text) {
      edit(id, operations.sourceLocale ?? 'en', text);
      lastChanged = id;
    },
    async translation(id, locale) {
      const value = held?.(id, locale);
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
    ...(held ? { editTranslation: async (id: string, locale: string, text: string) => edit(id, locale, text) } : {}),
    sourceCount: async () => operations.sourceCount(),
    ...(webhook ? { webhook: (secret: string) => webhook(lastChanged, secret) } : {}),
    stop: () => server.stop(),
    start: () => server.start(),
    close: () => server.close(),
  };
}
