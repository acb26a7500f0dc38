/** The Anthropic provider against a local server speaking the Messages API wire format. */
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider, type AnthropicProviderOptions } from '../../server/providers/anthropic.js';
import type { ProviderRow } from '../../server/providers/provider.js';
import { anthropicError, startMockAnthropic, type AnthropicRecorded } from '../helpers/mock-providers.js';
import { commonCases, HELLO_ROW, providerError, requestsIn, startForFile } from '../helpers/provider-test-kit.js';

const API_KEY = 'sk-ant-api03-test-0123456789';

const mock = await startForFile(() => startMockAnthropic({ apiKey: API_KEY }));
const provider = (opts: Partial<AnthropicProviderOptions> = {}) =>
  createAnthropicProvider({ baseUrl: mock.url, apiKey: API_KEY, model: 'claude-test', baseDelayMs: 5, ...opts });
const request = requestsIn({ sourceLocale: 'en', targetLocale: 'de' });
const common = commonCases({ mock, provider, request });

describe('anthropic provider', () => {
  it('calls /v1/messages with the key, version and JSON body, and returns the text with tokens untouched', async () => {
    const p = provider({ baseUrl: `${mock.url}/` });
    expect(p.name).toBe('anthropic:claude-test');
    expect(p.instructable).toBe(true);
    const results = await p.translate(request([
      { id: 'row-a', key: 'greeting', text: 'Hello <ph id="0"/>, welcome', notes: 'Home title', maxLength: 40 },
      { id: 'row-b', key: 'bye', text: 'Goodbye' },
    ]));
    expect(results).toEqual([
      { id: 'row-a', ok: true, text: 'de: HELLO <ph id="0"/>, WELCOME' },
      { id: 'row-b', ok: true, text: 'de: GOODBYE' },
    ]);
    expect(mock.requests).toHaveLength(1);
    const sent = mock.requests[0] as AnthropicRecorded;
    expect(sent.headers['x-api-key']).toBe(API_KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body.model).toBe('claude-test');
    expect(sent.body.max_tokens).toBe(8192);
    expect(sent.body.system).toContain('{"translations":[{"id":"...","text":"..."}]}');
    expect(sent.user.rows).toEqual([
      { id: '1', text: 'Hello <ph id="0"/>, welcome', key: 'greeting', notes: 'Home title', max_length: 40 },
      { id: '2', text: 'Goodbye', key: 'bye' },
    ]);
  });

  it('sends rows in chunks of batchSize (default 40) and keeps the caller order, skipping rows with nothing to translate', async () => {
    const rows: ProviderRow[] = Array.from({ length: 90 }, (_, i) => ({ id: `r${i}`, key: `k${i}`, text: i === 5 ? '<ph id="0"/> %' : `Item ${i}` }));
    const results = await provider().translate(request(rows));
    expect(mock.requests.map((r) => r.user.rows.length)).toEqual([40, 40, 9]);
    expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(results[5]).toEqual({ id: 'r5', ok: true, text: '<ph id="0"/> %' });
    expect(results[89]).toEqual({ id: 'r89', ok: true, text: 'de: ITEM 89' });
  });

  it('waits for retry-after on a 429 rate_limit_error, then succeeds', async () => {
    const body = anthropicError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit');
    await common.expectWaitsOutRetryAfter(body, 'de: HELLO');
  });

  it('retries 529 overloaded_error and 500 with growing backoff, then succeeds', async () => {
    mock.script.push({ status: 529, body: anthropicError('overloaded_error', 'Overloaded') });
    mock.script.push({ status: 500, body: anthropicError('api_error', 'Internal server error') });
    const started = Date.now();
    const results = await provider({ baseDelayMs: 100 }).translate(request([HELLO_ROW]));
    // Jittered backoff waits at least half of 100 ms, then half of 200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HELLO' }]);
    expect(mock.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a retryable ProviderError naming the status and message', async () => {
    const err = await common.expectGivesUpAfterTwoRetries(529, anthropicError('overloaded_error', 'Overloaded'));
    expect(err.message).toBe('anthropic:claude-test: HTTP 529: overloaded_error: Overloaded (gave up after 3 attempts)');
  });

  it('fails fast on a 400 with the API message, never showing the key', async () => {
    const body = anthropicError('invalid_request_error', `prompt is too long: 250000 tokens > 200000 maximum (key ${API_KEY})`);
    const err = await common.expectEchoedKeyRedacted(body, API_KEY);
    expect(err.message).toMatch(/HTTP 400: invalid_request_error: prompt is too long/);
  });

  it('fails fast on a wrong key (401)', async () => {
    const err = await providerError(provider({ apiKey: 'sk-ant-wrong' }).translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('HTTP 401: authentication_error: invalid x-api-key');
    expect(err.message).not.toContain('sk-ant-wrong');
    expect(mock.requests[0]?.headers['x-api-key']).toBe('sk-ant-wrong');
  });

  it('does not retry a 429 that reports the monthly spend limit', async () => {
    mock.script.push({
      status: 429,
      body: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Spend limit reached', details: { error_code: 'enforced_spend_limit_reached' } } }),
    });
    const err = await providerError(provider().translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('monthly spend limit reached');
    expect(mock.requests).toHaveLength(1);
  });

  it('fails the rows of an answer cut off at max_tokens every time, after one retry', async () => {
    const cutOff = { text: '{"translations":[{"id":"1","text":"HAL', stopReason: 'max_tokens' };
    mock.script.push(cutOff, cutOff);
    const results = await provider({ maxTokens: 16 }).translate(request([HELLO_ROW]));
    expect(mock.requests[0]?.body.max_tokens).toBe(16);
    expect(results).toEqual([{ id: 'a', ok: false, reason: expect.stringContaining('cut off (stop_reason: max_tokens)') }]);
    expect(mock.requests).toHaveLength(2);
  });

  it('uses the careful model and puts context, glossary, memory and neighbours into the careful prompt', async () => {
    const row: ProviderRow = {
      id: 'a',
      key: 'menu.file.close',
      text: 'Close',
      context: 'menu item',
      neighbours: [{ key: 'menu.file.open', text: 'Open…' }],
      glossary: [{ term: 'Close', translation: 'Schließen', forbidden: false }],
      memory: [{ source: 'Close window', translation: 'Fenster schließen', score: 0.7 }],
    };
    await provider({ carefulModel: 'claude-careful' }).translate(request([row], { pass: 'careful' }));
    const sent = mock.requests[0] as AnthropicRecorded;
    expect(sent.body.model).toBe('claude-careful');
    expect(sent.user.rows[0]).toMatchObject({
      context: 'menu item',
      neighbours: [{ key: 'menu.file.open', text: 'Open…' }],
      glossary: [{ term: 'Close', translation: 'Schließen', forbidden: false }],
      memory: [{ source: 'Close window', translation: 'Fenster schließen', score: 0.7 }],
    });
    expect(sent.body.system).toMatch(/careful pass/);
    expect(sent.body.system).toMatch(/Before answering, check every translation/);
    expect(sent.body.system).toContain('"glossary" lists terms');
  });

  it('sends the rejected translation and the reasons on the corrective retry', async () => {
    const row: ProviderRow = {
      id: 'a',
      key: 'k',
      text: 'Send <ph id="0"/>',
      maxLength: 12,
      correction: { previous: 'Senden Sie jetzt <ph id="0"/>', reasons: ['translation is 22 characters, over the budget of 12'] },
    };
    await provider().translate(request([row]));
    const sent = mock.requests[0] as AnthropicRecorded;
    expect(sent.user.rows[0]?.correction).toEqual({ previous: 'Senden Sie jetzt <ph id="0"/>', problems: ['translation is 22 characters, over the budget of 12'] });
    expect(sent.body.system).toContain('was rejected');
    expect(sent.body.system).toMatch(/never repeat the rejected translation/);
  });

  it('stops when the caller aborts', async () => {
    await common.expectStopsWhenCallerAborts();
  });
});
