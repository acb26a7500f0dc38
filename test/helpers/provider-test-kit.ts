/** What the provider integration tests share: the file's mock server, requests in the file's locales, and the cases every remote provider passes alike. */
import { afterAll, afterEach, expect } from 'vitest';
import type { RemoteOptions } from '../../server/providers/http.js';
import { ProviderError, type ProviderRow, type TranslateRequest, type TranslationProvider } from '../../server/providers/provider.js';
import type { MockServer } from './mock-providers.js';

/** The one-row request most cases send: id 'a', text 'Hello'. */
export const HELLO_ROW: ProviderRow = { id: 'a', key: 'k', text: 'Hello' };

/** Starts the file's mock server (call at the top level); it forgets its requests and script after each test and closes after the file. */
export async function startForFile<M extends Pick<MockServer<unknown>, 'reset' | 'close'>>(start: () => Promise<M>): Promise<M> {
  const mock = await start();
  afterEach(() => mock.reset());
  afterAll(() => mock.close());
  return mock;
}

/** A request builder for the fast pass between the file's locales; `extra` overrides any field. */
export function requestsIn(locales: Pick<TranslateRequest, 'sourceLocale' | 'targetLocale'>) {
  return (rows: ProviderRow[], extra: Partial<TranslateRequest> = {}): TranslateRequest => ({ ...locales, pass: 'fast', rows, ...extra });
}

/** The ProviderError a call rejects with; fails the test when it resolves or rejects with anything else. */
export async function providerError(pending: Promise<unknown>): Promise<ProviderError> {
  const err = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

/** A provider under test: its mock server, the provider on it (with fast backoff unless `options` say otherwise), and its requests. */
export interface ProviderFixture<R> {
  mock: MockServer<R>;
  provider: (options?: RemoteOptions) => TranslationProvider;
  request: (rows: ProviderRow[], extra?: Partial<TranslateRequest>) => TranslateRequest;
}

/** The cases every remote provider passes alike, run against one provider's fixture; each returns once its checks pass. */
export function commonCases<R>({ mock, provider, request }: ProviderFixture<R>) {
  return {
    /** A 429 with `Retry-After: 1` (and `body`): the provider waits the second out, not its 1 ms backoff, and the retry succeeds. */
    async expectWaitsOutRetryAfter(body: string, translatedHello: string): Promise<void> {
      mock.script.push({ status: 429, headers: { 'retry-after': '1' }, body });
      const started = Date.now();
      const results = await provider({ baseDelayMs: 1 }).translate(request([HELLO_ROW]));
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(results).toEqual([{ id: HELLO_ROW.id, ok: true, text: translatedHello }]);
      expect(mock.requests).toHaveLength(2);
    },

    /**
     * Every attempt answered with `status` and `body`: with maxRetries 2 the provider tries three times, backing off
     * between them, then throws a retryable ProviderError, returned for the caller's checks of its message.
     */
    async expectGivesUpAfterTwoRetries(status: number, body: string): Promise<ProviderError> {
      for (let i = 0; i < 3; i++) mock.script.push({ status, body });
      const started = Date.now();
      const err = await providerError(provider({ maxRetries: 2, baseDelayMs: 60 }).translate(request([HELLO_ROW])));
      // Jittered backoff waits at least half of 60 ms, then half of 120 ms.
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      expect(err.retryable).toBe(true);
      expect(mock.requests).toHaveLength(3);
      return err;
    },

    /**
     * A 400 whose `body` echoes the provider's API key: the provider fails at once, without retrying, and its message
     * shows `[redacted]` where the key stood. The error is returned for the caller's checks of the rest of the message.
     */
    async expectEchoedKeyRedacted(body: string, apiKey: string): Promise<ProviderError> {
      expect(body).toContain(apiKey);
      mock.script.push({ status: 400, body });
      const err = await providerError(provider().translate(request([HELLO_ROW])));
      expect(err.retryable).toBe(false);
      expect(err.message).toContain('[redacted]');
      expect(err.message).not.toContain(apiKey);
      expect(mock.requests).toHaveLength(1);
      return err;
    },

    /** The caller aborts 50 ms into a request the server holds for 2 s: translate rejects with the caller's reason at once, without a retry. */
    async expectStopsWhenCallerAborts(): Promise<void> {
      mock.script.push({ delayMs: 2000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('cancelled by caller')), 50);
      const started = Date.now();
      await expect(provider().translate(request([HELLO_ROW], { signal: controller.signal }))).rejects.toThrow('cancelled by caller');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(mock.requests).toHaveLength(1);
    },
  };
}
