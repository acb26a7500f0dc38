/** Machine translation through any OpenAI-compatible chat-completions endpoint (OpenAI, Azure-style proxies, Ollama, llama.cpp, vLLM). */
import type { Logger } from '../logger.js';
import { createHttpClient, isRecord, parseJson, type BodyReader } from './http.js';
import { chunkResults, systemPrompt, translateInChunks, userMessage, type Completion } from './llm.js';
import type { ProviderRow, RowResult, TranslateRequest, TranslationProvider } from './provider.js';

export interface OpenAIProviderOptions {
  /** API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  /** Omitted for local servers that take no key; then no Authorization header is sent. */
  apiKey?: string;
  model: string;
  /** Model for the careful pass; defaults to `model`. */
  carefulModel?: string;
  /** Per HTTP request, not per translate() call. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 429, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** Rows per chat request. Default 40. */
  batchSize?: number;
  fetch?: typeof fetch;
  /** First backoff delay, doubled per retry. Default 500. */
  baseDelayMs?: number;
  /** Cap on any single wait, Retry-After included. Default 30 000. */
  maxDelayMs?: number;
  /** Receives a warning per retried request. */
  log?: Logger;
}

/** The parts of a chat completion the provider reads, as a {@link Completion}; undefined when the body is not a chat completion. */
function readChatCompletion(body: string): Completion | undefined {
  const parsed = parseJson(body);
  if (!isRecord(parsed) || !Array.isArray(parsed.choices)) return undefined;
  const choice: unknown = parsed.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return undefined;
  const { content, refusal } = choice.message;
  if (content !== null && content !== undefined && typeof content !== 'string') return undefined;
  if (typeof content !== 'string') {
    return { kind: 'refused', reason: `model returned no content${typeof refusal === 'string' ? ` (refusal: ${refusal})` : ''}` };
  }
  const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
  return { kind: 'text', content, cutOff: finish === 'length' ? 'finish_reason: length' : undefined };
}

const CHAT_COMPLETION: BodyReader<Completion> = { read: readChatCompletion, expected: 'a chat completion' };

export function createOpenAIProvider(options: OpenAIProviderOptions): TranslationProvider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 40));
  const name = `openai:${options.model}`;
  const apiKey = options.apiKey || undefined;

  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  const http = createHttpClient({
    name,
    secrets: [apiKey],
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    baseDelayMs: options.baseDelayMs,
    maxDelayMs: options.maxDelayMs,
    log: options.log,
  });

  async function translateChunk(chunk: readonly ProviderRow[], request: TranslateRequest): Promise<RowResult[]> {
    const body = JSON.stringify({
      model: request.pass === 'careful' ? (options.carefulModel ?? options.model) : options.model,
      messages: [
        { role: 'system', content: systemPrompt(request.pass, chunk) },
        { role: 'user', content: userMessage(request, chunk) },
      ],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    const completion = await http.send({ method: 'POST', url, headers, body, signal: request.signal }, CHAT_COMPLETION);
    return chunkResults(chunk, completion);
  }

  return {
    name,
    instructable: true,
    translate: (request) => translateInChunks(request.rows, batchSize, (chunk) => translateChunk(chunk, request)),
  };
}
