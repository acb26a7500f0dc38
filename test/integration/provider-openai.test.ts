/** The OpenAI-compatible provider against a real local HTTP server speaking the chat-completions wire format. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../server/providers/http.js';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../server/providers/openai.js';
import type { ProviderRow } from '../../server/providers/provider.js';
import { openaiError, startMockChatCompletions, type ChatRecorded } from '../helpers/mock-providers.js';
import { commonCases, HELLO_ROW, providerError, requestsIn, startForFile } from '../helpers/provider-test-kit.js';

const API_KEY = 'sk-test-0123456789abcdef';

const mock = await startForFile(() => startMockChatCompletions({ apiKey: API_KEY }));
const provider = (opts: Partial<OpenAIProviderOptions> = {}) =>
  createOpenAIProvider({ baseUrl: mock.url, apiKey: API_KEY, model: 'gpt-test', baseDelayMs: 5, ...opts });
const request = requestsIn({ sourceLocale: 'en', targetLocale: 'de' });
const common = commonCases({ mock, provider, request });

describe('openai provider', () => {
  it('sends masked rows as they are and returns the model text with its tokens untouched', async () => {
    const p = provider({ baseUrl: `${mock.url}/` });
    expect(p.name).toBe('openai:gpt-test');
    expect(p.instructable).toBe(true);
    const rows: ProviderRow[] = [
      { id: 'row-a', key: 'greeting', text: 'Hello <ph id="0"/>, you have <ph id="1"/> <ph id="2"/>new<ph id="3"/> messages', notes: 'Inbox header', maxLength: 80 },
      { id: 'row-b', key: 'files', text: '<ph id="0"/><ph id="1"/> file<ph id="2"/><ph id="3"/> files<ph id="4"/> from <ph id="5"/>' },
    ];
    const results = await p.translate(request(rows));
    expect(results).toEqual([
      { id: 'row-a', ok: true, text: 'de: HELLO <ph id="0"/>, YOU HAVE <ph id="1"/> <ph id="2"/>NEW<ph id="3"/> MESSAGES' },
      { id: 'row-b', ok: true, text: 'de: <ph id="0"/><ph id="1"/> FILE<ph id="2"/><ph id="3"/> FILES<ph id="4"/> FROM <ph id="5"/>' },
    ]);

    expect(mock.requests).toHaveLength(1);
    const sent = mock.requests[0] as ChatRecorded;
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.body.model).toBe('gpt-test');
    expect(sent.body.messages[0].content).toContain('{"translations":[{"id":"...","text":"..."}]}');
    expect(sent.body.messages[0].content).toContain('<ph id="N"/>');
    expect(sent.user.source_locale).toBe('en');
    expect(sent.user.target_locale).toBe('de');
    expect(sent.user.rows[0]).toEqual({ id: '1', text: rows[0]?.text, key: 'greeting', notes: 'Inbox header', max_length: 80 });
    expect(sent.user.rows[1]).toEqual({ id: '2', text: rows[1]?.text, key: 'files' });
  });

  it('returns rows with nothing to translate as they are, without a request', async () => {
    const results = await provider().translate(request([
      { id: 'a', key: 'k1', text: '<ph id="0"/>: <ph id="1"/>' },
      { id: 'b', key: 'k2', text: '' },
      { id: 'c', key: 'k3', text: '42 / <ph id="0"/>' },
    ]));
    expect(results).toEqual([
      { id: 'a', ok: true, text: '<ph id="0"/>: <ph id="1"/>' },
      { id: 'b', ok: true, text: '' },
      { id: 'c', ok: true, text: '42 / <ph id="0"/>' },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it('sends rows in chunks of batchSize (default 40) and keeps the caller order', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, key: `key.${i}`, text: `String number ${i} for <ph id="0"/>` }));
    const results = await provider().translate(request(rows));
    // Up to 4 requests run at once, so they may arrive in any order.
    expect(mock.requests.map((r) => r.user.rows.length).sort((a, b) => b - a)).toEqual([40, 40, 20]);
    expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(results[99]).toEqual({ id: 'r99', ok: true, text: 'de: STRING NUMBER 99 FOR <ph id="0"/>' });

    mock.requests.length = 0;
    await provider({ batchSize: 25 }).translate(request(rows));
    expect(mock.requests.map((r) => r.user.rows.length)).toEqual([25, 25, 25, 25]);
  });

  it('sizes requests by estimated tokens as well as rows; a row over the budget goes alone', async () => {
    const long = 'word '.repeat(400);
    const rows = [
      { id: 'a', key: 'k.a', text: 'Short one' },
      { id: 'b', key: 'k.b', text: long },
      { id: 'c', key: 'k.c', text: 'Short two' },
      { id: 'd', key: 'k.d', text: 'Short three' },
    ];
    const results = await provider({ batchTokens: 200, concurrency: 1 }).translate(request(rows));
    expect(mock.requests.map((r) => r.user.rows.map((row) => row.key))).toEqual([['k.a'], ['k.b'], ['k.c', 'k.d']]);
    expect(results.map((r) => r.ok && r.text)).toEqual(['de: SHORT ONE', `de: ${long.toUpperCase()}`, 'de: SHORT TWO', 'de: SHORT THREE']);
  });

  it('translates rows asking the same once, whatever their keys, and gives each row the answer under its own id', async () => {
    const rows = [
      { id: 'save-1', key: 'toolbar.save', text: 'Save' },
      { id: 'save-2', key: 'dialog.save', text: 'Save' },
      { id: 'save-note', key: 'menu.save', text: 'Save', notes: 'Verb, in a menu' },
      { id: 'cancel', key: 'dialog.cancel', text: 'Cancel' },
      { id: 'save-3', key: 'form.save', text: 'Save', neighbours: [{ key: 'form.title', text: 'Profile' }] },
    ];
    const results = await provider().translate(request(rows));
    expect(mock.requests).toHaveLength(1);
    // A note changes what is asked; a key or neighbours do not.
    expect(mock.requests[0]!.user.rows.map((r) => r.key)).toEqual(['toolbar.save', 'menu.save', 'dialog.cancel']);
    expect(results).toEqual([
      { id: 'save-1', ok: true, text: 'de: SAVE' },
      { id: 'save-2', ok: true, text: 'de: SAVE' },
      { id: 'save-note', ok: true, text: 'de: SAVE' },
      { id: 'cancel', ok: true, text: 'de: CANCEL' },
      { id: 'save-3', ok: true, text: 'de: SAVE' },
    ]);
  });

  it('keeps up to `concurrency` requests in flight, and fails the call when one request fails for good', async () => {
    // A server that holds every answer until `concurrency` requests are waiting (or a moment has passed), counting
    // the most it ever held at once.
    let waiting: (() => void)[] = [];
    let most = 0;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (part: Buffer) => (body += part.toString()));
      req.on('end', () => {
        const user = JSON.parse(JSON.parse(body).messages[1].content) as { rows: { id: string; text: string }[] };
        const content = JSON.stringify({ translations: user.rows.map((r) => ({ id: r.id, text: `de: ${r.text}` })) });
        waiting.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] })));
        most = Math.max(most, waiting.length);
        const release = () => {
          const all = waiting;
          waiting = [];
          for (const answer of all) answer();
        };
        if (waiting.length === 3) release();
        else setTimeout(release, 200);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, key: `key.${i}`, text: `Text ${i}` }));
      const results = await provider({ baseUrl, batchSize: 2, concurrency: 3 }).translate(request(rows));
      expect(most).toBe(3);
      expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
      expect(results.every((r) => r.ok)).toBe(true);
    } finally {
      server.close();
    }

    const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, key: `key.${i}`, text: `Text ${i}` }));
    mock.script.push({ status: 400, body: openaiError('Invalid request') });
    const err = await providerError(provider({ batchSize: 2, concurrency: 2, maxRetries: 0 }).translate(request(rows)));
    expect(err.message).toContain('Invalid request');
    // Once a request has failed, no new one starts: the one in flight finishes, the rest are never sent.
    expect(mock.requests.length).toBeLessThan(6);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    await common.expectWaitsOutRetryAfter(openaiError('Rate limit reached'), 'de: HELLO');
  });

  it('prefers the finer retry-after-ms to Retry-After', async () => {
    mock.script.push({ status: 429, headers: { 'retry-after-ms': '300', 'retry-after': '20' }, body: openaiError('Rate limit reached') });
    const started = Date.now();
    const results = await provider({ baseDelayMs: 1 }).translate(request([HELLO_ROW]));
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(280);
    expect(waited).toBeLessThan(5000);
    expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HELLO' }]);
  });

  it('caps a long Retry-After at maxDelayMs', async () => {
    mock.script.push({ status: 503, headers: { 'retry-after': '3600' }, body: openaiError('Maintenance') });
    const started = Date.now();
    const results = await provider({ maxDelayMs: 200 }).translate(request([HELLO_ROW]));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HELLO' }]);
  });

  it('retries a 500 with backoff, then succeeds', async () => {
    mock.script.push({ status: 500, body: openaiError('The server had an error') });
    mock.script.push({ status: 503, body: 'upstream unavailable' });
    const results = await provider().translate(request([HELLO_ROW]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HELLO' }]);
    expect(mock.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a retryable ProviderError', async () => {
    const err = await common.expectGivesUpAfterTwoRetries(502, openaiError('Bad gateway'));
    expect(err.message).toContain('502');
    expect(err.message).toContain('Bad gateway');
  });

  it('fails fast on 401 with the provider message and never the key', async () => {
    const wrongKey = 'sk-wrong-key-987654321';
    const err = await providerError(provider({ apiKey: wrongKey }).translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('401');
    expect(err.message).toContain('Incorrect API key provided: [redacted]');
    expect(err.message).not.toContain(wrongKey);
    expect(mock.requests).toHaveLength(1);
  });

  it('fails fast on other 4xx', async () => {
    mock.script.push({ status: 400, body: openaiError("This model's maximum context length is 8192 tokens") });
    const err = await providerError(provider().translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/400.*maximum context length/);
    expect(mock.requests).toHaveLength(1);
  });

  it('leaves token checks to the caller, keeps the valid rows of a partial answer and sends the others again', async () => {
    mock.script.push({
      text: JSON.stringify({
        translations: [
          { id: '1', text: 'HALLO <ph id="0"/>' },
          { id: '2', text: 'HALLO OHNE PLATZHALTER' },
          { id: '3', text: 42 },
          // An id the chunk does not have: ignored.
          { id: '9', text: 'EXTRA' },
        ],
      }),
    });
    const results = await provider().translate(request([
      { id: 'ok', key: 'k1', text: 'Hello <ph id="0"/>' },
      { id: 'dropped', key: 'k2', text: 'Hello again <ph id="0"/>' },
      { id: 'number', key: 'k3', text: 'Forty-two' },
      { id: 'missing', key: 'k4', text: 'Goodbye' },
    ]));
    expect(results[0]).toEqual({ id: 'ok', ok: true, text: 'HALLO <ph id="0"/>' });
    // A dropped token is the quality gate's finding, made after the caller restores the tokens.
    expect(results[1]).toEqual({ id: 'dropped', ok: true, text: 'HALLO OHNE PLATZHALTER' });
    // The rows the answer got wrong went again, on their own request, under new positional ids.
    expect(results[2]).toEqual({ id: 'number', ok: true, text: 'de: FORTY-TWO' });
    expect(results[3]).toEqual({ id: 'missing', ok: true, text: 'de: GOODBYE' });
    expect(mock.requests.map((r) => r.user.rows.map((row) => `${row.id}:${row.key}`))).toEqual([
      ['1:k1', '2:k2', '3:k3', '4:k4'],
      ['1:k3', '2:k4'],
    ]);
  });

  it('a malformed answer in a chunk of 60 costs one more request and fails no row', async () => {
    mock.script.push({ text: 'Sure! Here are your translations: ...' });
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: `r${i}`, key: `key.${i}`, text: `String number ${i}` }));
    const results = await provider({ batchSize: 60 }).translate(request(rows));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results[59]).toEqual({ id: 'r59', ok: true, text: 'de: STRING NUMBER 59' });
    expect(mock.requests.map((r) => r.user.rows.length)).toEqual([60, 60]);
  });

  it('splits a chunk whose answer stays malformed, down to the one row the model cannot answer, which fails with the reason', async () => {
    // Whenever key.5 is in a request, the answer is prose; every other request is answered normally.
    const poisoned = (r: ChatRecorded) => (r.user.rows.some((row) => row.key === 'key.5') ? { text: 'I cannot translate this.' } : {});
    mock.script.push(...Array.from({ length: 20 }, () => poisoned));
    const rows = Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, key: `key.${i}`, text: `String number ${i}` }));
    const results = await provider().translate(request(rows));
    expect(results.filter((r) => r.ok).map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r6', 'r7']);
    expect(results[5]).toEqual({ id: 'r5', ok: false, reason: expect.stringContaining("not the expected JSON {\"translations\":[...]}: 'I cannot translate this.'") });
    // 8, the same 8 again, halves of 4, then of 2, then the single row: each request once.
    expect(mock.requests.map((r) => r.user.rows.length)).toEqual([8, 8, 4, 4, 2, 2, 1, 1]);
  });

  it('fails a row whose answer is cut off every time, with the finish reason, after one retry', async () => {
    mock.script.push({ text: '{"translations":[{"id":"1","te', stopReason: 'length' }, { text: '{"translations":[{"id":"1","te', stopReason: 'length' });
    const results = await provider().translate(request([HELLO_ROW]));
    expect(results).toEqual([{ id: 'a', ok: false, reason: expect.stringContaining('cut off (finish_reason: length)') }]);
    expect(mock.requests).toHaveLength(2);
  });

  it('accepts an answer wrapped in a ```json fence', async () => {
    mock.script.push({ text: '```json\n{"translations":[{"id":"1","text":"HALLO <ph id=\\"0\\"/>"}]}\n```' });
    const results = await provider().translate(request([{ id: 'a', key: 'k', text: 'Hello <ph id="0"/>' }]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HALLO <ph id="0"/>' }]);

    mock.script.push({ text: 'Here you go: {"translations":[{"id":"1","text":"HALLO"}]} Let me know!' });
    expect(await provider().translate(request([HELLO_ROW]))).toEqual([{ id: 'a', ok: true, text: 'HALLO' }]);
  });

  it('fails the rows of a chunk whose answer is not JSON, each time', async () => {
    mock.script.push({ text: 'Sure! Here are your translations: ...' }, { text: 'Sure! Here are your translations: ...' });
    const results = await provider().translate(request([HELLO_ROW]));
    expect(results).toEqual([{ id: 'a', ok: false, reason: expect.stringContaining("not the expected JSON {\"translations\":[...]}: 'Sure! Here are") }]);
  });

  it('puts careful-pass context into the prompt and asks for a self-check', async () => {
    const row: ProviderRow = {
      id: 'a',
      key: 'toolbar.save',
      text: 'Save <ph id="0"/>',
      notes: 'Button',
      context: 'toolbar',
      maxLength: 20,
      neighbours: [{ key: 'toolbar.open', text: 'Open' }],
      glossary: [{ term: 'Save', translation: 'Speichern', forbidden: false }, { term: 'Store', forbidden: true }],
      memory: [{ source: 'Save file', translation: 'Datei speichern', score: 0.8123 }],
    };
    await provider().translate(request([row], { pass: 'careful' }));
    const sent = mock.requests[0] as ChatRecorded;
    // Sent as given but for a positional id, max_length in the wire spelling and memory scores rounded to two places.
    const { id: _callerId, maxLength, memory: _memory, ...asGiven } = row;
    const memory = [{ source: 'Save file', translation: 'Datei speichern', score: 0.81 }];
    expect(sent.user.rows[0]).toEqual({ ...asGiven, id: '1', max_length: maxLength, memory });
    const system = sent.body.messages[0].content;
    for (const field of ['"neighbours"', '"glossary"', '"memory"', '"context"']) expect(system).toContain(field);
    expect(system).toMatch(/careful pass/);
    expect(system).toMatch(/check every translation/);
    expect(system).not.toContain('"correction"');
  });

  it('tells the model what was wrong with a rejected translation on the corrective retry', async () => {
    const row: ProviderRow = {
      id: 'a',
      key: 'k',
      text: 'Delete <ph id="0"/> files',
      correction: { previous: 'Dateien löschen', reasons: ['placeholder <ph id="0"/> is missing', "glossary term 'Delete' must be 'Entfernen'"] },
      glossary: [{ term: 'Delete', translation: 'Entfernen', forbidden: false }],
    };
    await provider().translate(request([row]));
    const sent = mock.requests[0] as ChatRecorded;
    expect(sent.user.rows[0]?.correction).toEqual({
      previous: 'Dateien löschen',
      problems: ['placeholder <ph id="0"/> is missing', "glossary term 'Delete' must be 'Entfernen'"],
    });
    const system = sent.body.messages[0].content;
    expect(system).toContain('"correction.previous" is the rejected translation');
    expect(system).toMatch(/fixes every listed problem/);
    expect(system).not.toMatch(/careful pass/);
  });

  it('uses the careful model and a self-checking prompt for the careful pass', async () => {
    const p = provider({ carefulModel: 'gpt-careful' });
    await p.translate(request([HELLO_ROW]));
    await p.translate(request([HELLO_ROW], { pass: 'careful' }));
    expect(mock.requests.map((r) => r.body.model)).toEqual(['gpt-test', 'gpt-careful']);
    const [fast, careful] = mock.requests.map((r) => r.body.messages[0].content);
    expect(fast).not.toMatch(/careful pass/);
    expect(fast).not.toMatch(/"glossary"|"neighbours"|"memory"|"correction"/);
    expect(careful).toMatch(/careful pass/);
    expect(careful).toMatch(/check every translation/);
    expect(p.name).toBe('openai:gpt-test');

    mock.requests.length = 0;
    await provider().translate(request([HELLO_ROW], { pass: 'careful' }));
    expect(mock.requests[0]?.body.model).toBe('gpt-test');
  });

  it('sends no Authorization header without a key (Ollama, llama.cpp)', async () => {
    const results = await createOpenAIProvider({ baseUrl: mock.url, model: 'llama3.2' }).translate(request([{ id: 'a', key: 'k', text: 'Hi' }]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HI' }]);
    expect(mock.requests[0]?.headers.authorization).toBeUndefined();
    expect(mock.requests[0]?.body.model).toBe('llama3.2');
  });

  it('times out a slow request and retries it', async () => {
    mock.script.push({ delayMs: 500 });
    const results = await provider({ timeoutMs: 100 }).translate(request([HELLO_ROW]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HELLO' }]);
    expect(mock.requests).toHaveLength(2);

    mock.script.push({ delayMs: 500 });
    const err = await providerError(provider({ timeoutMs: 100, maxRetries: 0 }).translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('timed out');
  });

  it('turns network errors into a retryable ProviderError after retrying', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await providerError(provider({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 }).translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/network error/);
    expect(err.message).toMatch(/2 attempts/);
  });

  it('stops when the caller aborts', async () => {
    await common.expectStopsWhenCallerAborts();
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 2.5 ', now)).toBe(2500);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('honours an HTTP-date Retry-After from the server', async () => {
    mock.script.push({ status: 429, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() }, body: '{}' });
    const started = Date.now();
    const results = await provider({ baseDelayMs: 1 }).translate(request([HELLO_ROW]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HELLO' }]);
    // toUTCString drops milliseconds, so the wait can be up to a second shorter than the 2 s asked.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests).toHaveLength(2);
  });
});
