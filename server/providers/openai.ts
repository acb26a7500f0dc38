/** Machine translation through any OpenAI-compatible chat-completions endpoint (OpenAI, Azure-style proxies, Ollama, llama.cpp, vLLM). */
import { mask, unmask } from '../../src/core/placeholders.js';
import { ProviderError, type Pass, type ProviderRow, type RowResult, type TranslateRequest, type TranslationProvider } from './provider.js';

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
}

const INSTRUCTIONS = [
  'You are a professional software localization translator.',
  'The user message is JSON: {"source_locale", "target_locale", "rows": [{"id", "text", "key", "notes"?, "max_length"?}]}. Locales are BCP 47 tags.',
  'Translate each row\'s "text" from source_locale into target_locale as natural UI text for that locale.',
  'Every <ph id="N"/> token stands for a placeholder, markup or syntax that must survive: copy each token exactly as written, exactly once, never translate, change, merge, add or drop one. You may move tokens where the target grammar needs it.',
  '"key" and "notes" are context for you; do not translate them. When "max_length" is present, keep the translation within that many characters.',
  'Keep leading and trailing whitespace and line breaks as in the source.',
  'Reply with a JSON object only, no commentary: {"translations":[{"id":"...","text":"..."}]} with exactly one entry per input row, using the same ids.',
];

const SYSTEM_PROMPT: Record<Pass, string> = {
  fast: INSTRUCTIONS.join('\n'),
  careful: [
    ...INSTRUCTIONS,
    'This is the careful pass: take your time. Use key and notes to resolve ambiguity (button label, title, error message...), keep terminology consistent across rows, and match the register customary for software in the target locale.',
    'Before answering, check every translation against its source: meaning complete and accurate, grammar and agreement correct, no untranslated fragments, every <ph id="N"/> token present exactly once, max_length respected. Fix anything that fails, then answer.',
  ].join('\n'),
};

const FENCE = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i;
const PH_ONLY = /<ph\s[^>]*>/g;
const LETTER = /\p{L}/u;

type ChatResult = { content: string | null; finishReason: string | undefined; refusal: string | undefined };
type Attempt = { ok: true; result: ChatResult } | { ok: false; message: string; retryAfterMs?: number };

/** Milliseconds to wait per a Retry-After header (delta-seconds or HTTP-date), or undefined when absent/invalid. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The provider's own explanation from an error body: OpenAI `{error:{message}}`, Ollama `{error:"..."}`, or plain text. */
function errorDetail(body: string): string {
  let detail = body.trim();
  try {
    const parsed: unknown = JSON.parse(body);
    if (isRecord(parsed)) {
      const err = parsed.error;
      if (isRecord(err) && typeof err.message === 'string') detail = err.message;
      else if (typeof err === 'string') detail = err;
      else if (typeof parsed.message === 'string') detail = parsed.message;
    }
  } catch {
    // Not JSON (an HTML error page from a proxy, say): keep the start of the raw text.
  }
  detail = detail.replace(/\s+/g, ' ');
  return detail.length > 300 ? `${detail.slice(0, 300)}…` : detail;
}

function parseCompletion(body: string): ChatResult | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.choices)) return undefined;
  const choice: unknown = parsed.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return undefined;
  const { content, refusal } = choice.message;
  if (content !== null && content !== undefined && typeof content !== 'string') return undefined;
  return {
    content: content ?? null,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined,
    refusal: typeof refusal === 'string' ? refusal : undefined,
  };
}

/** `{translations:[{id,text}]}` (or a bare array) to id → text; undefined when the answer is not that shape. */
function parseAnswer(content: string): Map<string, unknown> | undefined {
  const fenced = FENCE.exec(content);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fenced ? (fenced[1] as string) : content);
  } catch {
    return undefined;
  }
  const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.translations : undefined;
  if (!Array.isArray(list)) return undefined;
  const byId = new Map<string, unknown>();
  for (const item of list) {
    if (!isRecord(item) || (typeof item.id !== 'string' && typeof item.id !== 'number')) continue;
    const id = String(item.id);
    // First answer wins: a repeated id is more likely a model glitch than a correction.
    if (!byId.has(id)) byId.set(id, item.text);
  }
  return byId;
}

interface Masked {
  row: ProviderRow;
  masked: string;
  tokens: string[];
}

export function createOpenAIProvider(options: OpenAIProviderOptions): TranslationProvider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = Math.max(0, options.maxRetries ?? 3);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 40));
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const name = `openai:${options.model}`;
  const apiKey = options.apiKey || undefined;

  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  // Some servers echo the key back in error text ("Incorrect API key provided: sk-..."); it must never reach logs.
  const redact = (s: string): string => (apiKey ? s.split(apiKey).join('[redacted]') : s);

  async function attempt(body: string, signal: AbortSignal | undefined): Promise<Attempt> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, { method: 'POST', headers, body, signal: combined });
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) return { ok: false, message: `${name}: request timed out after ${timeoutMs} ms` };
      const cause = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      return { ok: false, message: redact(`${name}: network error: ${cause}`) };
    }
    if (res.ok) {
      const result = parseCompletion(text);
      // A 200 without a completion is a misbehaving gateway; another attempt usually gets a real answer.
      if (!result) return { ok: false, message: `${name}: HTTP ${res.status} without a chat completion in the body` };
      return { ok: true, result };
    }
    const detail = errorDetail(text);
    const message = redact(`${name}: HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
    if (res.status === 429 || res.status >= 500) {
      // Azure and some proxies send the finer-grained retry-after-ms alongside (or instead of) Retry-After.
      const ms = res.headers.get('retry-after-ms')?.trim();
      const retryAfterMs = ms && /^\d+(?:\.\d+)?$/.test(ms) ? Number(ms) : parseRetryAfter(res.headers.get('retry-after'));
      return { ok: false, message, retryAfterMs };
    }
    throw new ProviderError(message, false);
  }

  async function complete(model: string, pass: Pass, user: string, signal: AbortSignal | undefined): Promise<ChatResult> {
    const body = JSON.stringify({
      model,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT[pass] },
        { role: 'user', content: user },
      ],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    for (let retry = 0; ; retry++) {
      signal?.throwIfAborted();
      const outcome = await attempt(body, signal);
      if (outcome.ok) return outcome.result;
      if (retry >= maxRetries) throw new ProviderError(`${outcome.message} (gave up after ${retry + 1} attempts)`, true);
      // Jitter spreads out workers that were throttled together; a server-given Retry-After is followed as is.
      const backoff = baseDelayMs * 2 ** retry * (0.5 + Math.random() / 2);
      await sleep(Math.min(outcome.retryAfterMs ?? backoff, maxDelayMs), signal);
    }
  }

  async function translateChunk(chunk: readonly Masked[], request: TranslateRequest): Promise<RowResult[]> {
    // Short positional ids instead of the caller's (often long) ids: fewer tokens and fewer copying mistakes.
    const user = JSON.stringify({
      source_locale: request.sourceLocale,
      target_locale: request.targetLocale,
      rows: chunk.map((m, i) => ({
        id: String(i + 1),
        text: m.masked,
        key: m.row.key,
        notes: m.row.notes || undefined,
        max_length: m.row.maxLength,
      })),
    });
    const model = request.pass === 'careful' ? (options.carefulModel ?? options.model) : options.model;
    const result = await complete(model, request.pass, user, request.signal);

    const failAll = (reason: string): RowResult[] => chunk.map((m) => ({ id: m.row.id, ok: false, reason }));
    if (result.content === null) return failAll(`model returned no content${result.refusal ? ` (refusal: ${result.refusal})` : ''}`);
    const answer = parseAnswer(result.content);
    if (!answer) {
      return failAll(
        result.finishReason === 'length'
          ? 'model answer was cut off (finish_reason: length); retry with a smaller batch'
          : 'model answer was not the expected JSON {"translations":[...]}',
      );
    }
    return chunk.map((m, i): RowResult => {
      const text = answer.get(String(i + 1));
      if (text === undefined) return { id: m.row.id, ok: false, reason: 'row missing from the model answer' };
      if (typeof text !== 'string') return { id: m.row.id, ok: false, reason: 'model answer for the row is not a string' };
      const restored = unmask(text, m.tokens);
      return restored.ok
        ? { id: m.row.id, ok: true, text: restored.text }
        : { id: m.row.id, ok: false, reason: `placeholder check failed: ${restored.reason}` };
    });
  }

  return {
    name,
    async translate(request) {
      const results = new Map<ProviderRow, RowResult>();
      const pending: Masked[] = [];
      for (const row of request.rows) {
        const { masked, tokens } = mask(row.text);
        // Nothing to translate (empty, only placeholders, numbers or punctuation): the source is the translation.
        if (!LETTER.test(masked.replace(PH_ONLY, ''))) results.set(row, { id: row.id, ok: true, text: row.text });
        else pending.push({ row, masked, tokens });
      }
      // Sequential chunks: a rate-limited key gains nothing from parallel requests, and order stays predictable.
      for (let i = 0; i < pending.length; i += batchSize) {
        const chunk = pending.slice(i, i + batchSize);
        const chunkResults = await translateChunk(chunk, request);
        chunk.forEach((m, j) => results.set(m.row, chunkResults[j] as RowResult));
      }
      return request.rows.map((row) => results.get(row) as RowResult);
    },
  };
}
