/** Local servers speaking the Anthropic, DeepL and LibreTranslate wire formats, validating requests with zod and scriptable per test. */
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
  /** Anthropic only: the assistant's text (for a 200 built the normal way) instead of the translations JSON. */
  text?: string;
  /** Anthropic only: `stop_reason` of the 200 answer. Default 'end_turn'. */
  stopReason?: string;
}

export interface MockServer<R> {
  url: string;
  /** Requests that passed validation, in order (those with a wrong key included). */
  requests: R[];
  /** Consumed one per validated request; when empty the server translates. A function sees the request. */
  script: (MockReply | ((request: R) => MockReply))[];
  close(): Promise<void>;
}

interface Incoming {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Send = (status: number, body: string, headers?: Record<string, string>) => void;

/** Runs `handle` per request on 127.0.0.1 with a free port. */
async function serve(handle: (req: Incoming, send: Send) => Promise<void> | void): Promise<{ url: string; close(): Promise<void> }> {
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
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
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

/** Answers with the next scripted reply, or with `normal()` when the script is empty. */
async function reply<R>(script: MockServer<R>['script'], request: R, send: Send, normal: (scripted: MockReply) => string): Promise<void> {
  const next = script.shift();
  const scripted = typeof next === 'function' ? next(request) : (next ?? {});
  if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
  send(scripted.status ?? 200, scripted.body ?? normal(scripted), scripted.headers);
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

export interface AnthropicRecorded {
  headers: IncomingHttpHeaders;
  body: z.infer<typeof AnthropicRequest>;
  user: z.infer<typeof PromptRows>;
}

const anthropicError = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_mock' });

/** Anthropic's `POST /v1/messages`; `apiKey` is the only key it accepts when given (any non-empty key otherwise). */
export async function startMockAnthropic(options: { apiKey?: string } = {}): Promise<MockServer<AnthropicRecorded>> {
  const requests: AnthropicRecorded[] = [];
  const script: MockServer<AnthropicRecorded>['script'] = [];
  let served = 0;
  const { url, close } = await serve(async (req, send) => {
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
      served += 1;
      const text =
        scripted.text ??
        JSON.stringify({ translations: user.data.rows.map((row) => ({ id: row.id, text: mockTranslate(row.text, user.data.target_locale) })) });
      return JSON.stringify({
        id: `msg_mock_${served}`,
        type: 'message',
        role: 'assistant',
        model: body.data.model,
        content: [{ type: 'text', text }],
        stop_reason: scripted.stopReason ?? 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      });
    });
  });
  return { url, requests, script, close };
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
});

export interface DeepLRecorded {
  headers: IncomingHttpHeaders;
  body: z.infer<typeof DeepLRequest>;
}

/** What DeepL does to XML input in the mock: tags and entities stay, the rest is "translated". */
export function mockTranslateXml(text: string, target: string): string {
  return `${target}: ` + text.split(/(<[^>]+>|&#?\w+;)/).map((part, i) => (i % 2 === 1 ? part : part.toUpperCase())).join('');
}

/** DeepL's `POST /v2/translate` (JSON body); `apiKey` is the only key it accepts when given (any non-empty key otherwise). */
export async function startMockDeepL(options: { apiKey?: string } = {}): Promise<MockServer<DeepLRecorded>> {
  const requests: DeepLRecorded[] = [];
  const script: MockServer<DeepLRecorded>['script'] = [];
  const fail = (message: string) => JSON.stringify({ message });
  const { url, close } = await serve(async (req, send) => {
    if (req.method !== 'POST' || req.url !== '/v2/translate') return send(404, fail(`Not found: ${req.method} ${req.url}`));
    if (req.headers['content-type'] !== 'application/json') return send(415, fail('Unsupported content type'));
    const body = DeepLRequest.safeParse(parseJsonBody(req.body));
    if (!body.success) return send(400, fail(`Bad request. Reason: ${body.error.message}`));
    const recorded = { headers: req.headers, body: body.data };
    requests.push(recorded);

    const auth = /^DeepL-Auth-Key (.+)$/.exec(req.headers.authorization ?? '');
    if (!auth || (options.apiKey !== undefined && auth[1] !== options.apiKey)) return send(403, fail('Authorization failure, check auth_key'));
    await reply(script, recorded, send, () =>
      JSON.stringify({
        translations: body.data.text.map((text) => ({ detected_source_language: body.data.source_lang, text: mockTranslateXml(text, body.data.target_lang) })),
      }),
    );
  });
  return { url, requests, script, close };
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

/**
 * LibreTranslate's `POST /translate` (JSON) and `GET /languages`. With `apiKey` every translate request must carry
 * it as `api_key` (a server started with --api-keys); without, a key is optional as on a plain self-hosted server.
 */
export async function startMockLibreTranslate(
  options: { apiKey?: string; languages?: readonly string[] } = {},
): Promise<MockServer<LibreTranslateRecorded> & { languageRequests: number }> {
  const languages = options.languages ?? MOCK_LIBRETRANSLATE_LANGUAGES;
  const requests: LibreTranslateRecorded[] = [];
  const script: MockServer<LibreTranslateRecorded>['script'] = [];
  const fail = (error: string) => JSON.stringify({ error });
  const mock = {
    url: '',
    requests,
    script,
    languageRequests: 0,
    close: async () => {},
  };
  const { url, close } = await serve(async (req, send) => {
    if (req.method === 'GET' && req.url === '/languages') {
      mock.languageRequests += 1;
      return send(200, JSON.stringify(languages.map((code) => ({ code, name: code, targets: languages.filter((t) => t !== code) }))));
    }
    if (req.method !== 'POST' || req.url !== '/translate') return send(404, fail(`Not found: ${req.method} ${req.url}`));
    const body = LibreTranslateRequest.safeParse(parseJsonBody(req.body));
    if (!body.success) return send(400, fail(`Invalid request: ${body.error.message}`));
    const recorded = { headers: req.headers, body: body.data };
    requests.push(recorded);

    if (options.apiKey !== undefined && body.data.api_key !== options.apiKey) return send(403, fail('Invalid API key'));
    if (!languages.includes(body.data.source)) return send(400, fail(`${body.data.source} is not supported`));
    if (!languages.includes(body.data.target)) return send(400, fail(`${body.data.target} is not supported`));
    await reply(script, recorded, send, () => JSON.stringify({ translatedText: body.data.q.map((text) => mockTranslateHtml(text, body.data.target)) }));
  });
  mock.url = url;
  mock.close = close;
  return mock;
}
