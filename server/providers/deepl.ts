/** Machine translation through the DeepL API (`/v2/translate`), with `<ph/>` tokens kept as XML tags DeepL leaves alone. */
import { createHttpClient, errorDetail, isRecord, type RemoteOptions } from './http.js';
import { answersReader, decodeXmlEntities, translateAsMarkup, type MarkupJob } from './mt-text.js';
import { formalityFor, type ProviderRow, type RowResult, type TranslateRequest, type TranslationProvider } from './provider.js';

export const DEEPL_PRO_URL = 'https://api.deepl.com';
export const DEEPL_FREE_URL = 'https://api-free.deepl.com';

/**
 * Languages of DeepL's text translation, from developers.deepl.com "Languages supported" (the generally available
 * ones; the beta languages need `enable_beta_languages` and are left out). Variants of a language are one source code.
 */
export const DEEPL_SOURCE_LANGUAGES: ReadonlySet<string> = new Set([
  'AR', 'BG', 'CS', 'DA', 'DE', 'EL', 'EN', 'ES', 'ET', 'FI', 'FR', 'HE', 'HU', 'ID', 'IT', 'JA', 'KO', 'LT', 'LV',
  'NB', 'NL', 'PL', 'PT', 'RO', 'RU', 'SK', 'SL', 'SV', 'TH', 'TR', 'UK', 'VI', 'ZH',
]);

/** Target codes; English, Portuguese and Chinese are always sent with their variant (the bare codes are deprecated aliases). */
export const DEEPL_TARGET_LANGUAGES: ReadonlySet<string> = new Set([
  'AR', 'BG', 'CS', 'DA', 'DE', 'EL', 'EN-GB', 'EN-US', 'ES', 'ET', 'FI', 'FR', 'HE', 'HU', 'ID', 'IT', 'JA', 'KO',
  'LT', 'LV', 'NB', 'NL', 'PL', 'PT-BR', 'PT-PT', 'RO', 'RU', 'SK', 'SL', 'SV', 'TH', 'TR', 'UK', 'VI', 'ZH-HANS', 'ZH-HANT',
]);

/** DeepL's per-request limits: 50 texts, 128 KiB in all; the byte budget leaves room for JSON framing and the context. */
const MAX_TEXTS = 50;
const MAX_TEXT_BYTES = 100 * 1024;

/**
 * The tag with its likely subtags filled in (CLDR): a bare `pt` is Brazilian, `zh-TW` is Traditional, `en` is
 * American. Undefined for a tag Intl cannot parse.
 */
function maximized(tag: string): Intl.Locale | undefined {
  try {
    return new Intl.Locale(tag).maximize();
  } catch {
    return undefined;
  }
}

/** DeepL only has Bokmål; the `no` macrolanguage tag means Bokmål in practice. */
const baseCode = (locale: Intl.Locale): string => (locale.language === 'no' ? 'NB' : locale.language.toUpperCase());

/** DeepL `source_lang` for a BCP-47 tag, or undefined when DeepL cannot translate from it. */
export function deeplSourceLanguage(tag: string): string | undefined {
  const locale = maximized(tag);
  const code = locale && baseCode(locale);
  return code && DEEPL_SOURCE_LANGUAGES.has(code) ? code : undefined;
}

/** DeepL `target_lang` for a BCP-47 tag, or undefined when DeepL cannot translate into it. */
export function deeplTargetLanguage(tag: string): string | undefined {
  const locale = maximized(tag);
  if (!locale) return undefined;
  const base = baseCode(locale);
  let code = base;
  // Every English outside the US spells the British way more than the American (colour, centre), Canada included.
  if (base === 'EN') code = locale.region === 'US' ? 'EN-US' : 'EN-GB';
  else if (base === 'PT') code = locale.region === 'BR' ? 'PT-BR' : 'PT-PT';
  else if (base === 'ZH') code = locale.script === 'Hant' ? 'ZH-HANT' : 'ZH-HANS';
  return DEEPL_TARGET_LANGUAGES.has(code) ? code : undefined;
}

/** Free-plan keys end in `:fx` and only work on the free endpoint. */
export function deeplBaseUrl(apiKey: string): string {
  return apiKey.endsWith(':fx') ? DEEPL_FREE_URL : DEEPL_PRO_URL;
}

export interface DeepLProviderOptions extends RemoteOptions {
  apiKey: string;
  /** Default: {@link deeplBaseUrl} of the key. */
  baseUrl?: string;
  /**
   * Send the rows' `context` and `notes` as DeepL's `context` parameter (not billed). DeepL takes one context per
   * request, so rows are grouped by it: many distinct notes mean more, smaller requests. Default true.
   */
  sendContext?: boolean;
  /** Texts per request, at most 50 (DeepL's limit). Default 50. */
  batchSize?: number;
}

/** The DeepL `context` for a row: its file context and translator notes, neither of which is translated or billed. */
function contextOf(row: ProviderRow): string {
  return [row.context, row.notes].filter((s): s is string => typeof s === 'string' && s.trim() !== '').join('\n');
}

/** One `/v2/translate` request: texts that share a context. */
interface DeepLRequest {
  context: string;
  jobs: MarkupJob[];
}

/** Requests for the jobs: grouped by context (DeepL takes one per request), each within the text and byte limits. */
function requestsOf(jobs: readonly MarkupJob[], contextFor: (row: ProviderRow) => string, maxTexts: number): DeepLRequest[] {
  const groups = new Map<string, MarkupJob[]>();
  for (const job of jobs) {
    const context = contextFor(job.row);
    const group = groups.get(context);
    if (group) group.push(job);
    else groups.set(context, [job]);
  }
  const requests: DeepLRequest[] = [];
  for (const [context, group] of groups) {
    let current: MarkupJob[] = [];
    let bytes = 0;
    for (const job of group) {
      const size = Buffer.byteLength(job.markup);
      if (current.length > 0 && (current.length >= maxTexts || bytes + size > MAX_TEXT_BYTES)) {
        requests.push({ context, jobs: current });
        current = [];
        bytes = 0;
      }
      current.push(job);
      bytes += size;
    }
    if (current.length > 0) requests.push({ context, jobs: current });
  }
  return requests;
}

/** The text of one item of DeepL's `translations`, `{detected_source_language, text}`. */
const translationText = (item: unknown): string | undefined => (isRecord(item) && typeof item.text === 'string' ? item.text : undefined);

/** DeepL's status codes say more than its terse bodies; 456 and 403 get an explanation an operator can act on. */
function describeDeepLError(status: number, body: string): string {
  const detail = errorDetail(body);
  const suffix = detail ? ` (${detail})` : '';
  if (status === 456) return `quota exceeded: the character limit of the DeepL plan is reached${suffix}`;
  if (status === 403) {
    return `authorization failed: DeepL refused the API key${suffix}; Free keys end in ':fx' and work only on ${DEEPL_FREE_URL}, Pro keys only on ${DEEPL_PRO_URL}`;
  }
  if (status === 413) return `request too large${suffix}`;
  return detail;
}

/** DeepL's `formality` for the request's target locale from the project's style guide, if it sets one. */
function formalityOf(request: TranslateRequest): 'prefer_more' | 'prefer_less' | undefined {
  const formality = formalityFor(request.style, request.targetLocale);
  return formality === 'formal' ? 'prefer_more' : formality === 'informal' ? 'prefer_less' : undefined;
}

export function createDeepLProvider(options: DeepLProviderOptions): TranslationProvider {
  const url = `${(options.baseUrl ?? deeplBaseUrl(options.apiKey)).replace(/\/+$/, '')}/v2/translate`;
  const maxTexts = Math.min(MAX_TEXTS, Math.max(1, Math.floor(options.batchSize ?? MAX_TEXTS)));
  const contextFor = options.sendContext === false ? () => '' : contextOf;
  const headers = { authorization: `DeepL-Auth-Key ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' };
  const http = createHttpClient({ name: 'deepl', secrets: [options.apiKey], describeError: describeDeepLError }, options);

  async function send({ context, jobs }: DeepLRequest, sourceLang: string, targetLang: string, request: TranslateRequest): Promise<string[]> {
    const deeplFormality = formalityOf(request);
    const body = JSON.stringify({
      text: jobs.map((job) => job.markup),
      source_lang: sourceLang,
      target_lang: targetLang,
      tag_handling: 'xml',
      ignore_tags: ['ph'],
      // UI strings are fragments: DeepL must not "fix" their capitalisation or final punctuation.
      preserve_formatting: true,
      ...(context ? { context } : {}),
      // The project's style guide: 'prefer_' so a language without formal forms is translated rather than refused.
      ...(deeplFormality ? { formality: deeplFormality } : {}),
    });
    return http.send({ method: 'POST', url, headers, body, signal: request.signal }, answersReader('translations', jobs.length, translationText));
  }

  return {
    name: 'deepl',
    instructable: false,
    async translate(request) {
      const failAll = (reason: string): RowResult[] => request.rows.map((row) => ({ id: row.id, ok: false, reason }));
      const sourceLang = deeplSourceLanguage(request.sourceLocale);
      if (!sourceLang) return failAll(`DeepL does not translate from source locale '${request.sourceLocale}' (not among DeepL's source languages)`);
      const targetLang = deeplTargetLanguage(request.targetLocale);
      if (!targetLang) return failAll(`DeepL does not translate into target locale '${request.targetLocale}' (not among DeepL's target languages)`);

      return translateAsMarkup(request.rows, {
        batchesOf: (jobs) => requestsOf(jobs, contextFor, maxTexts),
        send: (batch) => send(batch, sourceLang, targetLang, request),
        decode: decodeXmlEntities,
      });
    },
  };
}
