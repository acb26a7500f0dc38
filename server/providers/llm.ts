/** What the LLM providers (OpenAI-compatible, Anthropic) share: their options, the prompt, reading the answer, and the chunked translate loop. */
import { setMaxListeners } from 'node:events';
import { createAdaptiveLimit, type AdaptiveLimitOptions } from './adaptive-limit.js';
import { isRecord, parseJson, type RemoteOptions, type RequestLimit } from './http.js';
import { hasTranslatableText } from './mt-text.js';
import { formalityFor, type Pass, type ProviderRow, type RowResult, type StyleGuide, type TranslateRequest, type TranslationProvider } from './provider.js';

/** The options both LLM providers take beside their API's own. */
export interface LlmOptions extends RemoteOptions {
  model: string;
  /** Model for the careful pass; defaults to `model`. */
  carefulModel?: string;
  /** At most this many rows per request. Default 40. */
  batchSize?: number;
  /** At most about this many prompt tokens of rows per request (estimated at 4 characters a token). Default 3,000. */
  batchTokens?: number;
  /** Requests in flight at first, per model, across all calls to this provider; the limit adapts from there (adaptive-limit.ts). Default 16. */
  concurrency?: number;
  /** Requests in flight at most, per model. Default 64. */
  maxConcurrency?: number;
  /** The operator's cap on requests started per minute, per model. */
  requestsPerMinute?: number;
  /** The operator's cap on estimated prompt tokens sent per minute, per model. */
  tokensPerMinute?: number;
  /** Makes the limit of a model; by default one in this process (adaptive-limit.ts), on Redis one shared by every worker (shared-limit.ts). */
  limitFactory?: (model: string, options: AdaptiveLimitOptions) => RequestLimit;
}

/** How a provider cuts a translate call's rows into requests, and how many it starts with in flight. */
export interface ChunkLimits {
  rows: number;
  tokens: number;
  concurrency: number;
  maxConcurrency: number;
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { rows: 40, tokens: 3000, concurrency: 16, maxConcurrency: 64 };

/** The limits from a provider's options, each at least 1; the starting concurrency at most the maximum. */
export function chunkLimits(options: Pick<LlmOptions, 'batchSize' | 'batchTokens' | 'concurrency' | 'maxConcurrency'>): ChunkLimits {
  const atLeastOne = (value: number | undefined, fallback: number) => Math.max(1, Math.floor(value ?? fallback));
  const maxConcurrency = atLeastOne(options.maxConcurrency, DEFAULT_CHUNK_LIMITS.maxConcurrency);
  return {
    rows: atLeastOne(options.batchSize, DEFAULT_CHUNK_LIMITS.rows),
    tokens: atLeastOne(options.batchTokens, DEFAULT_CHUNK_LIMITS.tokens),
    concurrency: Math.min(maxConcurrency, atLeastOne(options.concurrency, DEFAULT_CHUNK_LIMITS.concurrency)),
    maxConcurrency,
  };
}

const INSTRUCTIONS = [
  'You are a professional software localization translator.',
  'The user message is JSON: {"source_locale", "target_locale", "rows": [{"id", "text", "key", ...}]}. Locales are BCP 47 tags.',
  'Translate each row\'s "text" from source_locale into target_locale as natural UI text for that locale.',
  'Every <ph id="N"/> token stands for a placeholder, markup or syntax that must survive: copy each token exactly as written, exactly once, never translate, change, merge, add or drop one. You may move tokens where the target grammar needs it.',
  '"key" and "notes" are context for you; do not translate them. When "max_length" is present, keep the translation within that many characters.',
  'Keep leading and trailing whitespace and line breaks as in the source.',
  'Reply with a JSON object only, no commentary: {"translations":[{"id":"...","text":"..."}]} with exactly one entry per input row, using the same ids.',
];

/** What each optional row field means; only the fields a batch uses go into its prompt, so plain fast batches stay short. */
const FIELD_NOTES = {
  context: '"context" disambiguates the source (a gettext msgctxt, an XLIFF context): translate the text in that sense.',
  neighbours: '"neighbours" are the strings next to this key in its file, as {"key","text"}: use them to understand the screen the text appears on; do not translate them.',
  glossary:
    '"glossary" lists terms that occur in the source. For a term with "forbidden": false, translate it as its "translation", or keep the term unchanged when there is no "translation" (a product name). For a term with "forbidden": true, neither the term nor its "translation" may appear in your translation.',
  memory:
    '"memory" holds approved translations of similar sources, best first, with a similarity "score" from 0 to 1: reuse their wording and terminology where they fit, but translate this row\'s own text.',
  correction:
    'A row with "correction" was translated before and that translation was rejected: "correction.previous" is the rejected translation and "correction.problems" says what was wrong with it. Give a new translation that fixes every listed problem and keeps what was right; never repeat the rejected translation unchanged.',
} as const;

type OptionalField = keyof typeof FIELD_NOTES;

const CAREFUL = [
  'This is the careful pass: take your time. Use key, notes, context and neighbours to resolve ambiguity (button label, title, error message...), keep terminology consistent across rows, and match the register customary for software in the target locale.',
  'Before answering, check every translation against its source: meaning complete and accurate, grammar and agreement correct, no untranslated fragments, every <ph id="N"/> token present exactly once, glossary terms applied, max_length respected. Fix anything that fails, then answer.',
];

function usesField(row: ProviderRow, field: OptionalField): boolean {
  const value = row[field];
  if (value === undefined) return false;
  return typeof value === 'string' ? value !== '' : !Array.isArray(value) || value.length > 0;
}

/** The project's style guide as instructions for the target locale; none when it has none. */
export function styleLines(style: StyleGuide | undefined, targetLocale: string): string[] {
  if (!style) return [];
  const lines: string[] = [];
  if (style.product) lines.push(`The product: ${style.product}`);
  if (style.audience) lines.push(`Its audience: ${style.audience}`);
  if (style.tone) lines.push(`Write in this tone: ${style.tone}`);
  const formality = formalityFor(style, targetLocale);
  if (formality) lines.push(`Address the reader ${formality === 'formal' ? 'formally (e.g. German "Sie", French "vous")' : 'informally (e.g. German "du", French "tu")'} in ${targetLocale}.`);
  if (style.keep && style.keep.length > 0) lines.push(`Keep these words untranslated, exactly as written: ${JSON.stringify(style.keep)}.`);
  return lines.length > 0 ? ["The project's style guide (follow it unless a row's glossary says otherwise):", ...lines] : [];
}

/** The system prompt for one chunk: the shared instructions, notes on the optional fields its rows carry, the project's style guide, and the careful-pass checks. */
export function systemPrompt(pass: Pass, rows: readonly ProviderRow[], style?: StyleGuide, targetLocale = ''): string {
  const fields = (Object.keys(FIELD_NOTES) as OptionalField[]).filter((field) => rows.some((row) => usesField(row, field)));
  return [...INSTRUCTIONS, ...fields.map((field) => FIELD_NOTES[field]), ...styleLines(style, targetLocale), ...(pass === 'careful' ? CAREFUL : [])].join('\n');
}

/** Positional id of a chunk's row: short ids cost fewer tokens and get fewer copying mistakes than the caller's long ones. */
export const positionalId = (index: number): string => String(index + 1);

const nonEmpty = <T>(list: readonly T[] | undefined): readonly T[] | undefined => (list && list.length > 0 ? list : undefined);

/** One row as the model reads it; absent and empty fields are left out (JSON.stringify drops undefined). */
function promptRow(row: ProviderRow, index: number) {
  return {
    id: positionalId(index),
    text: row.text,
    key: row.key,
    notes: row.notes || undefined,
    context: row.context || undefined,
    max_length: row.maxLength,
    neighbours: nonEmpty(row.neighbours),
    glossary: nonEmpty(row.glossary)?.map((g) => ({ term: g.term, translation: g.translation, forbidden: g.forbidden })),
    memory: nonEmpty(row.memory)?.map((m) => ({ source: m.source, translation: m.translation, score: Math.round(m.score * 100) / 100 })),
    correction: row.correction ? { previous: row.correction.previous, problems: row.correction.reasons } : undefined,
  };
}

/** The user message: locales and the chunk's rows under positional ids. */
export function userMessage(request: Pick<TranslateRequest, 'sourceLocale' | 'targetLocale'>, rows: readonly ProviderRow[]): string {
  return JSON.stringify({ source_locale: request.sourceLocale, target_locale: request.targetLocale, rows: rows.map(promptRow) });
}

const FENCE = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i;

/** The JSON value in a model answer: bare, in a ```json fence, or wrapped in a sentence of prose (some models cannot help it). */
function answerJson(content: string): unknown {
  const fenced = FENCE.exec(content);
  const direct = parseJson(fenced ? (fenced[1] as string) : content);
  if (direct !== undefined) return direct;
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  return start >= 0 && end > start ? parseJson(content.slice(start, end + 1)) : undefined;
}

/** `{translations:[{id,text}]}` (or a bare array) to id → text; undefined when the answer is not that shape. */
export function parseAnswer(content: string): Map<string, unknown> | undefined {
  const parsed = answerJson(content);
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

const quoteStart = (s: string): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return `'${flat.length > 80 ? `${flat.slice(0, 80)}…` : flat}'`;
};

/** How the model's reply ended, as far as the answer's rows are concerned. */
export type Completion =
  | { kind: 'text'; content: string; cutOff: string | undefined }
  | { kind: 'refused'; reason: string };

/**
 * The chunk's results from the model's reply, in chunk order. Texts come back as the model wrote them, tokens
 * included: restoring tokens and checking them is the caller's quality gate, not the provider's.
 */
export function chunkResults(rows: readonly ProviderRow[], completion: Completion): RowResult[] {
  const failAll = (reason: string): RowResult[] => rows.map((row) => ({ id: row.id, ok: false, reason }));
  if (completion.kind === 'refused') return failAll(completion.reason);
  const answer = parseAnswer(completion.content);
  if (!answer) {
    return failAll(
      completion.cutOff
        ? `model answer was cut off (${completion.cutOff}); retry with a smaller batch`
        : `model answer was not the expected JSON {"translations":[...]}: ${quoteStart(completion.content)}`,
    );
  }
  return rows.map((row, i): RowResult => {
    const id = positionalId(i);
    const text = answer.get(id);
    if (text === undefined) {
      const why = completion.cutOff ? ` (answer cut off: ${completion.cutOff})` : '';
      return { id: row.id, ok: false, reason: `row ${id} (key '${row.key}') missing from the model answer${why}` };
    }
    if (typeof text !== 'string') return { id: row.id, ok: false, reason: `model answer for row ${id} (key '${row.key}') is not a string but ${JSON.stringify(text)}` };
    return { id: row.id, ok: true, text };
  });
}

/** A row's size in prompt tokens, estimated as models' tokenizers average on mixed text: 4 characters a token. */
export function estimatedTokens(row: ProviderRow): number {
  return Math.ceil(JSON.stringify(promptRow(row, 0)).length / 4);
}

/**
 * What the model is asked for a row, apart from the row's key and its neighbours: rows alike in this get one
 * translation. The key and neighbours only help the model read the text; a string repeated under many keys
 * ("Cancel", "Save") is translated once and reads the same everywhere.
 */
function requestSignature(row: ProviderRow): string {
  const { id: _id, key: _key, neighbours: _neighbours, ...asked } = promptRow(row, 0);
  return JSON.stringify(asked);
}

/** Cuts rows into requests of at most `limits.rows` rows and about `limits.tokens` tokens; a bigger row goes alone. */
export function packChunks(rows: readonly ProviderRow[], limits: Pick<ChunkLimits, 'rows' | 'tokens'>): ProviderRow[][] {
  const chunks: ProviderRow[][] = [];
  let current: ProviderRow[] = [];
  let tokens = 0;
  for (const row of rows) {
    const size = estimatedTokens(row);
    if (current.length > 0 && (current.length >= limits.rows || tokens + size > limits.tokens)) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(row);
    tokens += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * A chunk's rows that the answer left failed (not JSON, cut off, ids missing, a text that is no string, a refusal)
 * are sent again: first once more as they are, then in halves, and the halves' failures in halves again, down to
 * single rows. A row fails only when its own request still fails, with that request's reason; the rows an answer
 * gave validly are kept at once. A model's occasional malformed answer so costs a request or two, never the chunk.
 * At most about twice as many requests as the chunk has failed rows; each waits for its place like the first.
 */
async function recoverFailedRows(
  chunk: readonly ProviderRow[],
  first: readonly RowResult[],
  translateChunk: (chunk: readonly ProviderRow[]) => Promise<RowResult[]>,
): Promise<RowResult[]> {
  const results = new Map<ProviderRow, RowResult>();
  chunk.forEach((row, i) => results.set(row, first[i] as RowResult));
  const failedOf = (rows: readonly ProviderRow[]) => rows.filter((row) => !results.get(row)!.ok);

  const send = async (rows: readonly ProviderRow[]) => {
    const answers = await translateChunk(rows);
    rows.forEach((row, i) => results.set(row, answers[i] as RowResult));
  };
  const split = async (rows: readonly ProviderRow[]): Promise<void> => {
    if (rows.length <= 1) return;
    const half = Math.ceil(rows.length / 2);
    await Promise.all(
      [rows.slice(0, half), rows.slice(half)].map(async (part) => {
        await send(part);
        await split(failedOf(part));
      }),
    );
  };

  const failed = failedOf(chunk);
  if (failed.length === 0) return [...first];
  // Once more as they are: most malformed answers are one-offs.
  await send(failed);
  await split(failedOf(failed));
  return chunk.map((row) => results.get(row)!);
}

/**
 * Runs a provider's chunk translator over the rows that need one: rows with nothing translatable come back as their
 * source without a request; rows asking the same (text, notes, context, budget, hints) are sent once and share the
 * answer; the rest go in requests sized by `limits`, all at once, each waiting for its place in the model's adaptive
 * limit (adaptive-limit.ts). Rows an answer left failed are sent again, alone or in smaller requests
 * (recoverFailedRows). A request that fails after its own HTTP retries (the provider unreachable, 5xx, 429 past its
 * retries) fails the whole call, as one sequential request would: the requests still waiting or in flight are aborted.
 */
export async function translateInChunks(
  rows: readonly ProviderRow[],
  limits: Pick<ChunkLimits, 'rows' | 'tokens'>,
  translateChunk: (chunk: readonly ProviderRow[], signal: AbortSignal) => Promise<RowResult[]>,
  signal?: AbortSignal,
): Promise<RowResult[]> {
  const results = new Map<ProviderRow, RowResult>();
  const unique: ProviderRow[] = [];
  const sameAs = new Map<ProviderRow, ProviderRow>();
  const bySignature = new Map<string, ProviderRow>();
  for (const row of rows) {
    if (!hasTranslatableText(row.text)) {
      results.set(row, { id: row.id, ok: true, text: row.text });
      continue;
    }
    const signature = requestSignature(row);
    const first = bySignature.get(signature);
    if (first) sameAs.set(row, first);
    else {
      bySignature.set(signature, row);
      unique.push(row);
    }
  }
  // Once a request has failed for good, the others are not sent, or are cut short: the call has failed.
  const call = new AbortController();
  const callSignal = signal ? AbortSignal.any([signal, call.signal]) : call.signal;
  const chunks = packChunks(unique, limits);
  // Every request of the call listens to it while it waits for a place and while it runs (two listeners a request).
  setMaxListeners(Math.max(10, chunks.length * 4), callSignal);
  const guarded = async (chunk: readonly ProviderRow[]): Promise<RowResult[]> => {
    try {
      return await translateChunk(chunk, callSignal);
    } catch (error) {
      if (!call.signal.aborted) call.abort(error);
      throw error;
    }
  };
  const settled = await Promise.allSettled(
    chunks.map(async (chunk) => {
      const answers = await guarded(chunk);
      const final = answers.every((answer) => answer.ok) ? answers : await recoverFailedRows(chunk, answers, guarded);
      chunk.forEach((row, j) => results.set(row, final[j] as RowResult));
    }),
  );
  // The first failure is the call's: the others are the aborts it caused. Nothing is left running.
  if (call.signal.aborted) throw call.signal.reason;
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  for (const [row, first] of sameAs) results.set(row, { ...results.get(first)!, id: row.id });
  return rows.map((row) => results.get(row) as RowResult);
}

/** One chunk's prompt, for the provider's API to carry: the pass's model, the system prompt and the user message. */
export interface ChunkPrompt {
  model: string;
  system: string;
  user: string;
  signal: AbortSignal | undefined;
  /** The model's place in flight (adaptive-limit.ts), for the HTTP client to take per attempt. */
  limit: RequestLimit;
  /** Estimated prompt tokens, for the operator's tokens per minute. */
  tokens: number;
}

/**
 * An instructable provider over an LLM API: each chunk of rows becomes a {@link ChunkPrompt}, `complete` sends it
 * and reads the reply as a {@link Completion}, and the chunk's results are read from that.
 */
export function createLlmProvider(name: string, options: LlmOptions, complete: (prompt: ChunkPrompt) => Promise<Completion>): TranslationProvider {
  const limits = chunkLimits(options);
  const modelFor = (pass: Pass): string => (pass === 'careful' ? (options.carefulModel ?? options.model) : options.model);
  const perModel = new Map<string, RequestLimit>();
  const limitFor = (model: string): RequestLimit => {
    let limit = perModel.get(model);
    if (!limit) {
      const settings = { initial: limits.concurrency, max: limits.maxConcurrency, requestsPerMinute: options.requestsPerMinute, tokensPerMinute: options.tokensPerMinute };
      limit = options.limitFactory ? options.limitFactory(model, settings) : createAdaptiveLimit(settings);
      perModel.set(model, limit);
    }
    return limit;
  };

  async function translateChunk(chunk: readonly ProviderRow[], request: TranslateRequest, signal: AbortSignal): Promise<RowResult[]> {
    const model = modelFor(request.pass);
    const system = systemPrompt(request.pass, chunk, request.style, request.targetLocale);
    const user = userMessage(request, chunk);
    const tokens = Math.ceil((system.length + user.length) / 4);
    return chunkResults(chunk, await complete({ model, system, user, signal, limit: limitFor(model), tokens }));
  }

  return {
    name,
    instructable: true,
    translate: (request) => translateInChunks(request.rows, limits, (chunk, signal) => translateChunk(chunk, request, signal), request.signal),
  };
}
