/** Local servers speaking the OpenAI, Anthropic, DeepL and LibreTranslate wire formats, validating requests with zod and scriptable per test. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { mockTranslate } from './mock-openai.js';

/** A scripted answer for the next request, instead of the normal translation. */
export interface MockReply {
  status?: number;
  headers?: Record<string, string>;
  /** Raw response body. */
  body?: string;
  delayMs?: number;
  /** LLM mocks only: the assistant's text (for a 200 built the normal way) instead of the translations JSON. */
  text?: string;
  /** LLM mocks only: why the 200 answer stopped, as OpenAI's `finish_reason` (default 'stop') or Anthropic's `stop_reason` (default 'end_turn'). */
  stopReason?: string;
}

export interface MockServer<R> {
  url: string;
  /** Requests that passed validation, in order (those with a wrong key included). */
  requests: R[];
  /** Consumed one per validated request; when empty the server translates. A function sees the request. */
  script: (MockReply | ((request: R) => MockReply))[];
  /** Forgets the requests, the script and any other count, for the next test. */
  reset(): void;
  close(): Promise<void>;
}

interface Incoming {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Send = (status: number, body: string, headers?: Record<string, string>) => void;

/** Runs `handle` per request on 127.0.0.1 with a free port; `path` is appended to the URL (an API root such as `/v1`). */
async function serve(handle: (req: Incoming, send: Send) => Promise<void> | void, path = ''): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send: Send = (status, body, headers = {}) => {
        if (res.headersSent) return;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(body);
      };
      const incoming = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      Promise.resolve(handle(incoming, send)).catch((error: unknown) => send(500, JSON.stringify({ error: String(error) })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseJsonBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The mock of one API, over its served URL and its record of requests and script. */
function mockServer<R>(served: { url: string; close(): Promise<void> }, requests: R[], script: MockServer<R>['script']): MockServer<R> {
  return {
    ...served,
    requests,
    script,
    reset() {
      requests.length = 0;
      script.length = 0;
    },
  };
}

/** Answers with the next scripted reply, or with `normal()` when the script is empty. */
async function reply<R>(script: MockServer<R>['script'], request: R, send: Send, normal: (scripted: MockReply) => string): Promise<void> {
  const next = script.shift();
  const scripted = typeof next === 'function' ? next(request) : (next ?? {});
  if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
  send(scripted.status ?? 200, scripted.body ?? normal(scripted), scripted.headers);
}

// ---------------------------------------------------------------------------------------------------------------
// The LLM prompt, and OpenAI chat completions

/** The rows as the LLM prompt carries them (see server/providers/llm.ts). */
export const PromptRows = z.object({
  source_locale: z.string().min(1),
  target_locale: z.string().min(1),
  rows: z
    .array(
      z.strictObject({
        id: z.string().regex(/^\d+$/),
        text: z.string(),
        key: z.string(),
        notes: z.string().optional(),
        context: z.string().optional(),
        max_length: z.number().int().positive().optional(),
        neighbours: z.array(z.strictObject({ key: z.string(), text: z.string() })).min(1).optional(),
        glossary: z.array(z.strictObject({ term: z.string(), translation: z.string().optional(), forbidden: z.boolean() })).min(1).optional(),
        memory: z.array(z.strictObject({ source: z.string(), translation: z.string(), score: z.number().min(0).max(1) })).min(1).optional(),
        correction: z.strictObject({ previous: z.string(), problems: z.array(z.string()).min(1) }).optional(),
      }),
    )
    .min(1),
});

/** The translations JSON the LLM mocks answer with by default: every row through {@link mockTranslate}. */
function translationsJson(prompt: z.infer<typeof PromptRows>): string {
  return JSON.stringify({ translations: prompt.rows.map((row) => ({ id: row.id, text: mockTranslate(row.text, prompt.target_locale) })) });
}

export const ChatRequest = z.strictObject({
  model: z.string().min(1),
  messages: z.tuple([
    z.strictObject({ role: z.literal('system'), content: z.string().min(1) }),
    z.strictObject({ role: z.literal('user'), content: z.string().min(1) }),
  ]),
  temperature: z.literal(0),
  response_format: z.strictObject({ type: z.literal('json_object') }),
});

export interface ChatRecorded {
  headers: IncomingHttpHeaders;
  body: z.infer<typeof ChatRequest>;
  user: z.infer<typeof PromptRows>;
}

/** An error body as OpenAI sends it. */
export const openaiError = (message: string) => JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } });

/**
 * OpenAI's `POST /v1/chat/completions`; `url` is the API root with `/v1`, as OpenAI clients take it. Requests
 * without a key pass (Ollama, llama.cpp); with `apiKey` given, any other Bearer key gets OpenAI's 401, which echoes it.
 */
export async function startMockChatCompletions(options: { apiKey?: string } = {}): Promise<MockServer<ChatRecorded>> {
  const requests: ChatRecorded[] = [];
  const script: MockServer<ChatRecorded>['script'] = [];
  let answered = 0;
  const served = await serve(async (req, send) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, openaiError(`no route ${req.method} ${req.url}`));
    if (req.headers['content-type'] !== 'application/json') return send(415, openaiError('content-type must be application/json'));
    const body = ChatRequest.safeParse(parseJsonBody(req.body));
    if (!body.success) return send(400, openaiError(`bad chat request: ${body.error.message}`));
    const user = PromptRows.safeParse(parseJsonBody(body.data.messages[1].content));
    if (!user.success) return send(400, openaiError(`bad user message: ${user.error.message}`));
    const recorded = { headers: req.headers, body: body.data, user: user.data };
    requests.push(recorded);

    const auth = req.headers.authorization;
    if (auth !== undefined && options.apiKey !== undefined && auth !== `Bearer ${options.apiKey}`) {
      const key = auth.replace(/^Bearer /, '');
      return send(401, openaiError(`Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`));
    }
    await reply(script, recorded, send, (scripted) => {
      answered += 1;
      return JSON.stringify({
        id: `chatcmpl-${answered}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.data.model,
        choices: [{ index: 0, message: { role: 'assistant', content: scripted.text ?? translationsJson(user.data) }, finish_reason: scripted.stopReason ?? 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    });
  }, '/v1');
  return mockServer(served, requests, script);
}

// ---------------------------------------------------------------------------------------------------------------
// Anthropic Messages API

export const AnthropicRequest = z.strictObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  system: z.string().min(1),
  messages: z.tuple([z.strictObject({ role: z.literal('user'), content: z.string().min(1) })]),
  temperature: z.literal(0),
});

export interface AnthropicRecorded {
  headers: IncomingHttpHeaders;
  body: z.infer<typeof AnthropicRequest>;
  user: z.infer<typeof PromptRows>;
}

/** An error body as Anthropic sends it: `type` is the error type (`rate_limit_error`, `overloaded_error`...). */
export const anthropicError = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_mock' });

/** Anthropic's `POST /v1/messages`; `apiKey` is the only key it accepts when given (any non-empty key otherwise). */
export async function startMockAnthropic(options: { apiKey?: string } = {}): Promise<MockServer<AnthropicRecorded>> {
  const requests: AnthropicRecorded[] = [];
  const script: MockServer<AnthropicRecorded>['script'] = [];
  let answered = 0;
  const served = await serve(async (req, send) => {
    if (req.method !== 'POST' || req.url !== '/v1/messages') return send(404, anthropicError('not_found_error', `Not found: ${req.method} ${req.url}`));
    if (req.headers['anthropic-version'] !== '2023-06-01') return send(400, anthropicError('invalid_request_error', 'anthropic-version: header is required'));
    if (req.headers['content-type'] !== 'application/json') return send(400, anthropicError('invalid_request_error', 'content-type must be application/json'));
    const body = AnthropicRequest.safeParse(parseJsonBody(req.body));
    if (!body.success) return send(400, anthropicError('invalid_request_error', `bad request body: ${body.error.message}`));
    const user = PromptRows.safeParse(parseJsonBody(body.data.messages[0].content));
    if (!user.success) return send(400, anthropicError('invalid_request_error', `bad user message: ${user.error.message}`));
    const recorded = { headers: req.headers, body: body.data, user: user.data };
    requests.push(recorded);

    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key === '' || (options.apiKey !== undefined && key !== options.apiKey)) {
      return send(401, anthropicError('authentication_error', 'invalid x-api-key'));
    }
    await reply(script, recorded, send, (scripted) => {
      answered += 1;
      return JSON.stringify({
        id: `msg_mock_${answered}`,
        type: 'message',
        role: 'assistant',
        model: body.data.model,
        content: [{ type: 'text', text: scripted.text ?? translationsJson(user.data) }],
        stop_reason: scripted.stopReason ?? 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      });
    });
  });
  return mockServer(served, requests, script);
}

// ---------------------------------------------------------------------------------------------------------------
// DeepL /v2/translate

export const DeepLRequest = z.strictObject({
  text: z.array(z.string()).min(1).max(50),
  source_lang: z.string().regex(/^[A-Z]{2,3}$/),
  target_lang: z.string().regex(/^[A-Z]{2,3}(?:-[A-Z0-9]+)?$/),
  tag_handling: z.literal('xml'),
  ignore_tags: z.tuple([z.literal('ph')]),
  preserve_formatting: z.literal(true),
  context: z.string().min(1).optional(),
  formality: z.enum(['default', 'more', 'less', 'prefer_more', 'prefer_less']).optional(),
});

export interface DeepLRecorded {
  headers: IncomingHttpHeaders;
  body: z.infer<typeof DeepLRequest>;
}

/** What DeepL does to XML input in the mock: tags and entities stay, the rest is "translated". */
export function mockTranslateXml(text: string, target: string): string {
  return `${target}: ` + text.split(/(<[^>]+>|&#?\w+;)/).map((part, i) => (i % 2 === 1 ? part : part.toUpperCase())).join('');
}

/** An error body as DeepL sends it. */
export const deeplError = (message: string) => JSON.stringify({ message });

/** DeepL's `POST /v2/translate` (JSON body); `apiKey` is the only key it accepts when given (any non-empty key otherwise). */
export async function startMockDeepL(options: { apiKey?: string } = {}): Promise<MockServer<DeepLRecorded>> {
  const requests: DeepLRecorded[] = [];
  const script: MockServer<DeepLRecorded>['script'] = [];
  const served = await serve(async (req, send) => {
    if (req.method !== 'POST' || req.url !== '/v2/translate') return send(404, deeplError(`Not found: ${req.method} ${req.url}`));
    if (req.headers['content-type'] !== 'application/json') return send(415, deeplError('Unsupported content type'));
    const body = DeepLRequest.safeParse(parseJsonBody(req.body));
    if (!body.success) return send(400, deeplError(`Bad request. Reason: ${body.error.message}`));
    const recorded = { headers: req.headers, body: body.data };
    requests.push(recorded);

    const auth = /^DeepL-Auth-Key (.+)$/.exec(req.headers.authorization ?? '');
    if (!auth || (options.apiKey !== undefined && auth[1] !== options.apiKey)) return send(403, deeplError('Authorization failure, check auth_key'));
    await reply(script, recorded, send, () =>
      JSON.stringify({
        translations: body.data.text.map((text) => ({ detected_source_language: body.data.source_lang, text: mockTranslateXml(text, body.data.target_lang) })),
      }),
    );
  });
  return mockServer(served, requests, script);
}

// ---------------------------------------------------------------------------------------------------------------
// LibreTranslate /translate and /languages

export const LibreTranslateRequest = z.strictObject({
  q: z.array(z.string()).min(1),
  source: z.string().min(2),
  target: z.string().min(2),
  format: z.literal('html'),
  api_key: z.string().min(1).optional(),
});

export interface LibreTranslateRecorded {
  headers: IncomingHttpHeaders;
  body: z.infer<typeof LibreTranslateRequest>;
}

export const MOCK_LIBRETRANSLATE_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja', 'pt', 'pt-BR', 'zh-Hans', 'zh-Hant'] as const;

const HTML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/**
 * What LibreTranslate does to HTML input in the mock: tags stay, the rest is "translated", self-closing tags come
 * back as an open/close pair (its HTML parser rewrites `<ph id="0"/>` as `<ph id="0"></ph>`), entities are unescaped.
 */
export function mockTranslateHtml(text: string, target: string): string {
  const translated = text
    .split(/(<[^>]+>)/)
    .map((part, i) => (i % 2 === 1 ? part.replace(/^<(\w+)([^>]*?)\s*\/>$/, '<$1$2></$1>') : part.toUpperCase()))
    .join('');
  return `${target}: ` + translated.replace(/&(amp|lt|gt|quot);/gi, (_m, name: string) => HTML_ENTITIES[name.toLowerCase()] as string);
}

/** An error body as LibreTranslate sends it. */
export const libreTranslateError = (error: string) => JSON.stringify({ error });

/**
 * LibreTranslate's `POST /translate` (JSON) and `GET /languages`. With `apiKey` every translate request must carry
 * it as `api_key` (a server started with --api-keys); without, a key is optional as on a plain self-hosted server.
 */
export async function startMockLibreTranslate(
  options: { apiKey?: string; languages?: readonly string[] } = {},
): Promise<MockServer<LibreTranslateRecorded> & { readonly languageRequests: number }> {
  const languages = options.languages ?? MOCK_LIBRETRANSLATE_LANGUAGES;
  const requests: LibreTranslateRecorded[] = [];
  const script: MockServer<LibreTranslateRecorded>['script'] = [];
  let languageRequests = 0;
  const served = await serve(async (req, send) => {
    if (req.method === 'GET' && req.url === '/languages') {
      languageRequests += 1;
      return send(200, JSON.stringify(languages.map((code) => ({ code, name: code, targets: languages.filter((t) => t !== code) }))));
    }
    if (req.method !== 'POST' || req.url !== '/translate') return send(404, libreTranslateError(`Not found: ${req.method} ${req.url}`));
    const body = LibreTranslateRequest.safeParse(parseJsonBody(req.body));
    if (!body.success) return send(400, libreTranslateError(`Invalid request: ${body.error.message}`));
    const recorded = { headers: req.headers, body: body.data };
    requests.push(recorded);

    if (options.apiKey !== undefined && body.data.api_key !== options.apiKey) return send(403, libreTranslateError('Invalid API key'));
    if (!languages.includes(body.data.source)) return send(400, libreTranslateError(`${body.data.source} is not supported`));
    if (!languages.includes(body.data.target)) return send(400, libreTranslateError(`${body.data.target} is not supported`));
    await reply(script, recorded, send, () => JSON.stringify({ translatedText: body.data.q.map((text) => mockTranslateHtml(text, body.data.target)) }));
  });
  const mock = mockServer(served, requests, script);
  return {
    ...mock,
    get languageRequests() {
      return languageRequests;
    },
    reset() {
      mock.reset();
      languageRequests = 0;
    },
  };
}
