/** The OpenAI-compatible provider against a real local HTTP server speaking the chat-completions wire format. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseRetryAfter } from '../../server/providers/http.js';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../server/providers/openai.js';
import { ProviderError, type ProviderRow, type TranslateRequest } from '../../server/providers/provider.js';
import { PromptRows } from '../helpers/mock-providers.js';

const API_KEY = 'sk-test-0123456789abcdef';

const ChatRequest = z.object({
  model: z.string().min(1),
  messages: z.tuple([
    z.object({ role: z.literal('system'), content: z.string().min(1) }),
    z.object({ role: z.literal('user'), content: z.string().min(1) }),
  ]),
  temperature: z.literal(0),
  response_format: z.object({ type: z.literal('json_object') }),
});

const UserMessage = PromptRows;

type ChatBody = z.infer<typeof ChatRequest>;
type UserRows = z.infer<typeof UserMessage>['rows'];

interface Recorded {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: ChatBody;
  user: z.infer<typeof UserMessage>;
}

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Raw body; for 200 replies built from `translations` when omitted. */
  body?: string;
  /** Content of the assistant message, overriding the default translator. */
  content?: string;
  delayMs?: number;
}

/** The fake model: upper-cases text outside <ph/> tokens, as a translation that keeps every token. */
function fakeTranslate(text: string): string {
  return text
    .split(/(<ph id="\d+"\/>)/)
    .map((part, i) => (i % 2 === 1 ? part : part.toUpperCase()))
    .join('');
}

function completion(model: string, content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  });
}

let server: Server;
let baseUrl: string;
const requests: Recorded[] = [];
/** Scripted replies, consumed one per request; when empty the server translates normally. */
const script: Array<Reply | ((rows: UserRows) => Reply)> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(body);
      };
      const fail = (status: number, message: string) =>
        send(status, JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }));

      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return fail(404, `no route ${req.method} ${req.url}`);
      if (req.headers['content-type'] !== 'application/json') return fail(415, 'content-type must be application/json');
      const parsed = ChatRequest.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (!parsed.success) return fail(400, `bad chat request: ${parsed.error.message}`);
      const user = UserMessage.safeParse(JSON.parse(parsed.data.messages[1].content));
      if (!user.success) return fail(400, `bad user message: ${user.error.message}`);
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: parsed.data, user: user.data });

      const auth = req.headers.authorization;
      if (auth !== undefined && auth !== `Bearer ${API_KEY}`) {
        return fail(401, `Incorrect API key provided: ${auth.replace(/^Bearer /, '')}. You can find your API key at https://platform.openai.com/account/api-keys.`);
      }

      const next = script.shift();
      const reply = typeof next === 'function' ? next(user.data.rows) : (next ?? {});
      const content =
        reply.content ?? JSON.stringify({ translations: user.data.rows.map((r) => ({ id: r.id, text: fakeTranslate(r.text) })) });
      const respond = () => send(reply.status ?? 200, reply.body ?? completion(parsed.data.model, content), reply.headers);
      if (reply.delayMs) setTimeout(respond, reply.delayMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(() => {
  requests.length = 0;
  script.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const provider = (opts: Partial<OpenAIProviderOptions> = {}) =>
  createOpenAIProvider({ baseUrl, apiKey: API_KEY, model: 'gpt-test', baseDelayMs: 5, ...opts });

const request = (rows: ProviderRow[], extra: Partial<TranslateRequest> = {}): TranslateRequest => ({
  sourceLocale: 'en',
  targetLocale: 'de',
  pass: 'fast',
  rows,
  ...extra,
});

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('openai provider', () => {
  it('sends masked rows as they are and returns the model text with its tokens untouched', async () => {
    const p = provider({ baseUrl: `${baseUrl}/` });
    expect(p.name).toBe('openai:gpt-test');
    expect(p.instructable).toBe(true);
    const rows: ProviderRow[] = [
      { id: 'row-a', key: 'greeting', text: 'Hello <ph id="0"/>, you have <ph id="1"/> <ph id="2"/>new<ph id="3"/> messages', notes: 'Inbox header', maxLength: 80 },
      { id: 'row-b', key: 'files', text: '<ph id="0"/><ph id="1"/> file<ph id="2"/><ph id="3"/> files<ph id="4"/> from <ph id="5"/>' },
    ];
    const results = await p.translate(request(rows));
    expect(results).toEqual([
      { id: 'row-a', ok: true, text: 'HELLO <ph id="0"/>, YOU HAVE <ph id="1"/> <ph id="2"/>NEW<ph id="3"/> MESSAGES' },
      { id: 'row-b', ok: true, text: '<ph id="0"/><ph id="1"/> FILE<ph id="2"/><ph id="3"/> FILES<ph id="4"/> FROM <ph id="5"/>' },
    ]);

    expect(requests).toHaveLength(1);
    const sent = requests[0] as Recorded;
    expect(sent.method).toBe('POST');
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
    expect(requests).toHaveLength(0);
  });

  it('sends rows in chunks of batchSize (default 40) and keeps the caller order', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, key: `key.${i}`, text: `String number ${i} for <ph id="0"/>` }));
    const results = await provider().translate(request(rows));
    expect(requests.map((r) => r.user.rows.length)).toEqual([40, 40, 20]);
    expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(results[99]).toEqual({ id: 'r99', ok: true, text: 'STRING NUMBER 99 FOR <ph id="0"/>' });

    requests.length = 0;
    await provider({ batchSize: 25 }).translate(request(rows));
    expect(requests.map((r) => r.user.rows.length)).toEqual([25, 25, 25, 25]);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    script.push({ status: 429, headers: { 'retry-after': '1' }, body: JSON.stringify({ error: { message: 'Rate limit reached' } }) });
    const started = Date.now();
    const results = await provider({ baseDelayMs: 1 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HELLO' }]);
    expect(requests).toHaveLength(2);
  });

  it('prefers the finer retry-after-ms to Retry-After', async () => {
    script.push({ status: 429, headers: { 'retry-after-ms': '300', 'retry-after': '20' }, body: JSON.stringify({ error: { message: 'Rate limit reached' } }) });
    const started = Date.now();
    const results = await provider({ baseDelayMs: 1 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(280);
    expect(waited).toBeLessThan(5000);
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HELLO' }]);
  });

  it('caps a long Retry-After at maxDelayMs', async () => {
    script.push({ status: 503, headers: { 'retry-after': '3600' }, body: JSON.stringify({ error: { message: 'Maintenance' } }) });
    const started = Date.now();
    const results = await provider({ maxDelayMs: 200 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HELLO' }]);
  });

  it('retries a 500 with backoff, then succeeds', async () => {
    script.push({ status: 500, body: JSON.stringify({ error: { message: 'The server had an error' } }) });
    script.push({ status: 503, body: 'upstream unavailable' });
    const results = await provider().translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HELLO' }]);
    expect(requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a retryable ProviderError', async () => {
    for (let i = 0; i < 5; i++) script.push({ status: 502, body: JSON.stringify({ error: { message: 'Bad gateway' } }) });
    const err = await rejection(provider({ maxRetries: 2 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }])));
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('502');
    expect(err.message).toContain('Bad gateway');
    expect(requests).toHaveLength(3);
  });

  it('fails fast on 401 with the provider message and never the key', async () => {
    const wrongKey = 'sk-wrong-key-987654321';
    const err = await rejection(provider({ apiKey: wrongKey }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }])));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('401');
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.message).not.toContain(wrongKey);
    expect(requests).toHaveLength(1);
  });

  it('fails fast on other 4xx', async () => {
    script.push({ status: 400, body: JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens" } }) });
    const err = await rejection(provider().translate(request([{ id: 'a', key: 'k', text: 'Hello' }])));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/400.*maximum context length/);
    expect(requests).toHaveLength(1);
  });

  it('leaves token checks to the caller and fails only the rows missing from the answer', async () => {
    script.push({
      content: JSON.stringify({
        translations: [
          { id: '1', text: 'HALLO <ph id="0"/>' },
          { id: '2', text: 'HALLO OHNE PLATZHALTER' },
          { id: '3', text: 42 },
        ],
      }),
    });
    const results = await provider().translate(request([
      { id: 'ok', key: 'k1', text: 'Hello <ph id="0"/>' },
      { id: 'dropped', key: 'k2', text: 'Hello <ph id="0"/>' },
      { id: 'number', key: 'k3', text: 'Forty-two' },
      { id: 'missing', key: 'k4', text: 'Goodbye' },
    ]));
    expect(results[0]).toEqual({ id: 'ok', ok: true, text: 'HALLO <ph id="0"/>' });
    // A dropped token is the quality gate's finding, made after the caller restores the tokens.
    expect(results[1]).toEqual({ id: 'dropped', ok: true, text: 'HALLO OHNE PLATZHALTER' });
    expect(results[2]).toEqual({ id: 'number', ok: false, reason: expect.stringContaining("row 3 (key 'k3') is not a string") });
    expect(results[3]).toEqual({ id: 'missing', ok: false, reason: expect.stringContaining("row 4 (key 'k4') missing from the model answer") });
  });

  it('accepts an answer wrapped in a ```json fence', async () => {
    script.push({ content: '```json\n{"translations":[{"id":"1","text":"HALLO <ph id=\\"0\\"/>"}]}\n```' });
    const results = await provider().translate(request([{ id: 'a', key: 'k', text: 'Hello <ph id="0"/>' }]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HALLO <ph id="0"/>' }]);

    script.push({ content: 'Here you go: {"translations":[{"id":"1","text":"HALLO"}]} Let me know!' });
    expect(await provider().translate(request([{ id: 'a', key: 'k', text: 'Hello' }]))).toEqual([{ id: 'a', ok: true, text: 'HALLO' }]);
  });

  it('fails the rows of a chunk whose answer is not JSON', async () => {
    script.push({ content: 'Sure! Here are your translations: ...' });
    const results = await provider().translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    expect(results).toEqual([{ id: 'a', ok: false, reason: expect.stringContaining("not the expected JSON {\"translations\":[...]}: 'Sure! Here are") }]);
  });

  it('fails the rows of a cut-off answer with the finish reason', async () => {
    script.push({ body: JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: '{"translations":[{"id":"1","te' }, finish_reason: 'length' }] }) });
    const results = await provider().translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    expect(results).toEqual([{ id: 'a', ok: false, reason: expect.stringContaining('cut off (finish_reason: length)') }]);
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
    const sent = requests[0] as Recorded;
    expect(sent.user.rows[0]).toEqual({
      id: '1',
      text: 'Save <ph id="0"/>',
      key: 'toolbar.save',
      notes: 'Button',
      context: 'toolbar',
      max_length: 20,
      neighbours: [{ key: 'toolbar.open', text: 'Open' }],
      glossary: [{ term: 'Save', translation: 'Speichern', forbidden: false }, { term: 'Store', forbidden: true }],
      memory: [{ source: 'Save file', translation: 'Datei speichern', score: 0.81 }],
    });
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
    const sent = requests[0] as Recorded;
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
    await p.translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    await p.translate(request([{ id: 'a', key: 'k', text: 'Hello' }], { pass: 'careful' }));
    expect(requests.map((r) => r.body.model)).toEqual(['gpt-test', 'gpt-careful']);
    const [fast, careful] = requests.map((r) => r.body.messages[0].content);
    expect(fast).not.toMatch(/careful pass/);
    expect(fast).not.toMatch(/"glossary"|"neighbours"|"memory"|"correction"/);
    expect(careful).toMatch(/careful pass/);
    expect(careful).toMatch(/check every translation/);
    expect(p.name).toBe('openai:gpt-test');

    requests.length = 0;
    await provider().translate(request([{ id: 'a', key: 'k', text: 'Hello' }], { pass: 'careful' }));
    expect(requests[0]?.body.model).toBe('gpt-test');
  });

  it('sends no Authorization header without a key (Ollama, llama.cpp)', async () => {
    const results = await createOpenAIProvider({ baseUrl, model: 'llama3.2' }).translate(request([{ id: 'a', key: 'k', text: 'Hi' }]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HI' }]);
    expect(requests[0]?.headers.authorization).toBeUndefined();
    expect(requests[0]?.body.model).toBe('llama3.2');
  });

  it('times out a slow request and retries it', async () => {
    script.push({ delayMs: 500 });
    const results = await provider({ timeoutMs: 100 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HELLO' }]);
    expect(requests).toHaveLength(2);

    script.push({ delayMs: 500 });
    const err = await rejection(provider({ timeoutMs: 100, maxRetries: 0 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }])));
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('timed out');
  });

  it('turns network errors into a retryable ProviderError after retrying', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await rejection(
      provider({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }])),
    );
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/network error/);
    expect(err.message).toMatch(/2 attempts/);
  });

  it('stops when the caller aborts', async () => {
    script.push({ delayMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by caller')), 50);
    const started = Date.now();
    await expect(
      provider().translate(request([{ id: 'a', key: 'k', text: 'Hello' }], { signal: controller.signal })),
    ).rejects.toThrow('cancelled by caller');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(requests).toHaveLength(1);
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
    script.push({ status: 429, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() }, body: '{}' });
    const started = Date.now();
    const results = await provider({ baseDelayMs: 1 }).translate(request([{ id: 'a', key: 'k', text: 'Hello' }]));
    expect(results).toEqual([{ id: 'a', ok: true, text: 'HELLO' }]);
    // toUTCString drops milliseconds, so the wait can be up to a second shorter than the 2 s asked.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(requests).toHaveLength(2);
  });
});
