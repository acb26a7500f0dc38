/** Machine translation through any OpenAI-compatible chat-completions endpoint (OpenAI, Azure-style proxies, Ollama, llama.cpp, vLLM). */
import { createHttpClient, isRecord, parseJson, type BodyReader } from './http.js';
import { createLlmProvider, type Completion, type LlmOptions } from './llm.js';
import type { TranslationProvider } from './provider.js';

export interface OpenAIProviderOptions extends LlmOptions {
  /** API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  /** Omitted for local servers that take no key; then no Authorization header is sent. */
  apiKey?: string;
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
  const name = `openai:${options.model}`;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const apiKey = options.apiKey || undefined;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const http = createHttpClient({ name, secrets: [apiKey] }, options);

  return createLlmProvider(name, options, ({ model, system, user, signal, limit, tokens }) => {
    const body = JSON.stringify({
      model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    return http.send({ method: 'POST', url, headers, body, signal, limit, tokens }, CHAT_COMPLETION);
  });
}
