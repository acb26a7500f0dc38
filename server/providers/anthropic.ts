/** Machine translation through Anthropic's Messages API (Claude models). */
import type { Logger } from '../logger.js';
import { createHttpClient, errorDetail, isRecord, parseJson, type BodyReader } from './http.js';
import { chunkResults, systemPrompt, translateInChunks, userMessage, type Completion } from './llm.js';
import type { ProviderRow, RowResult, TranslateRequest, TranslationProvider } from './provider.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicProviderOptions {
  /** API root without `/v1`. Default `https://api.anthropic.com`. */
  baseUrl?: string;
  apiKey: string;
  model: string;
  /** Model for the careful pass; defaults to `model`. */
  carefulModel?: string;
  /** Output budget per request (`max_tokens`, required by the API). Default 8192, ample for 40 UI strings. */
  maxTokens?: number;
  /** Per HTTP request, not per translate() call. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 429, 5xx, 529 (overloaded), timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** Rows per request. Default 40. */
  batchSize?: number;
  fetch?: typeof fetch;
  /** First backoff delay, doubled per retry. Default 500. */
  baseDelayMs?: number;
  /** Cap on any single wait, Retry-After included. Default 30 000. */
  maxDelayMs?: number;
  /** Receives a warning per retried request. */
  log?: Logger;
}

/** A Messages API response as a {@link Completion}: the text blocks joined, `max_tokens` as a cut-off; undefined when the body is not a message. */
function readMessage(body: string): Completion | undefined {
  const parsed = parseJson(body);
  if (!isRecord(parsed) || parsed.type !== 'message' || !Array.isArray(parsed.content)) return undefined;
  const stop = typeof parsed.stop_reason === 'string' ? parsed.stop_reason : undefined;
  const content = parsed.content
    .filter((block): block is { type: 'text'; text: string } => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('');
  if (stop === 'refusal') return { kind: 'refused', reason: `model refused to answer (stop_reason: refusal)${content ? `: ${content.slice(0, 200)}` : ''}` };
  return { kind: 'text', content, cutOff: stop === 'max_tokens' ? 'stop_reason: max_tokens' : undefined };
}

const MESSAGE: BodyReader<Completion> = { read: readMessage, expected: 'a message' };

/**
 * A 429 is normally a rate limit worth waiting for, but the same `rate_limit_error` also reports a reached monthly
 * spend cap (`error.details.error_code: enforced_spend_limit_reached`), which no retry can fix before next month.
 */
function isSpendCap(status: number, body: string): boolean | undefined {
  if (status !== 429) return undefined;
  const parsed = parseJson(body);
  const details = isRecord(parsed) && isRecord(parsed.error) ? parsed.error.details : undefined;
  return isRecord(details) && details.error_code === 'enforced_spend_limit_reached' ? false : undefined;
}

export function createAnthropicProvider(options: AnthropicProviderOptions): TranslationProvider {
  const url = `${(options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '')}/v1/messages`;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 40));
  const maxTokens = options.maxTokens ?? 8192;
  const name = `anthropic:${options.model}`;
  const headers = {
    'x-api-key': options.apiKey,
    'anthropic-version': ANTHROPIC_VERSION,
    'content-type': 'application/json',
    accept: 'application/json',
  };

  const http = createHttpClient({
    name,
    secrets: [options.apiKey],
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    baseDelayMs: options.baseDelayMs,
    maxDelayMs: options.maxDelayMs,
    describeError: (status, body) => (isSpendCap(status, body) === false ? `monthly spend limit reached: ${errorDetail(body)}` : errorDetail(body)),
    isRetryable: isSpendCap,
    log: options.log,
  });

  async function translateChunk(chunk: readonly ProviderRow[], request: TranslateRequest): Promise<RowResult[]> {
    const body = JSON.stringify({
      model: request.pass === 'careful' ? (options.carefulModel ?? options.model) : options.model,
      max_tokens: maxTokens,
      system: systemPrompt(request.pass, chunk),
      messages: [{ role: 'user', content: userMessage(request, chunk) }],
      temperature: 0,
    });
    const completion = await http.send({ method: 'POST', url, headers, body, signal: request.signal }, MESSAGE);
    return chunkResults(chunk, completion);
  }

  return {
    name,
    instructable: true,
    translate: (request) => translateInChunks(request.rows, batchSize, (chunk) => translateChunk(chunk, request)),
  };
}
