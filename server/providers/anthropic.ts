/** Machine translation through Anthropic's Messages API (Claude models). */
import { createHttpClient, errorDetail, isRecord, parseJson, type BodyReader } from './http.js';
import { createLlmProvider, type Completion, type LlmOptions } from './llm.js';
import type { TranslationProvider } from './provider.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicProviderOptions extends LlmOptions {
  /** API root without `/v1`. Default `https://api.anthropic.com`. */
  baseUrl?: string;
  apiKey: string;
  /** Output budget per request (`max_tokens`, required by the API). Default 8192, ample for 40 UI strings. */
  maxTokens?: number;
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

/** The API's error detail, with a spend cap (answered as a 429 rate_limit_error) named as such. */
function describeAnthropicError(status: number, body: string): string {
  return isSpendCap(status, body) === false ? `monthly spend limit reached: ${errorDetail(body)}` : errorDetail(body);
}

export function createAnthropicProvider(options: AnthropicProviderOptions): TranslationProvider {
  const name = `anthropic:${options.model}`;
  const url = `${(options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '')}/v1/messages`;
  const maxTokens = options.maxTokens ?? 8192;
  const headers = {
    'x-api-key': options.apiKey,
    'anthropic-version': ANTHROPIC_VERSION,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const http = createHttpClient(
    { name, secrets: [options.apiKey], describeError: describeAnthropicError, isRetryable: isSpendCap },
    options,
  );

  return createLlmProvider(name, options, ({ model, system, user, signal, limit, tokens }) => {
    const body = JSON.stringify({ model, max_tokens: maxTokens, system, messages: [{ role: 'user', content: user }], temperature: 0 });
    return http.send({ method: 'POST', url, headers, body, signal, limit, tokens }, MESSAGE);
  });
}
