/** Machine translation through a LibreTranslate server (self-hosted or libretranslate.com), `<ph/>` tokens kept as HTML tags. */
import type { Logger } from '../logger.js';
import { createHttpClient, isRecord, parseJson, type BodyReader } from './http.js';
import type { ProviderRow, RowResult, TranslateRequest, TranslationProvider } from './provider.js';

export interface LibreTranslateProviderOptions {
  /** Server root, e.g. `http://localhost:5000` or `https://libretranslate.com`. */
  baseUrl: string;
  /** Needed by servers started with `--api-keys` (libretranslate.com); sent as `api_key` in the body. */
  apiKey?: string;
  /** Texts per request. Default 25: Argos models run on the CPU, and a smaller request stays well inside the timeout. */
  batchSize?: number;
  /** Per HTTP request, not per translate() call. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 429, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number;
  fetch?: typeof fetch;
  /** First backoff delay, doubled per retry. Default 500. */
  baseDelayMs?: number;
  /** Cap on any single wait, Retry-After included. Default 30 000. */
  maxDelayMs?: number;
  /** Receives a warning per retried request. */
  log?: Logger;
}

/** One entry of `GET /languages`; `targets` is missing on servers older than 1.5, where every pair is installed. */
interface ServerLanguage {
  code: string;
  targets: readonly string[] | undefined;
}

/**
 * LibreTranslate codes that may stand for a BCP-47 tag, preferred first. Likely subtags are filled in (CLDR), so
 * `zh-TW` is Traditional and a bare `pt` Brazilian; older servers call Chinese `zh`/`zt` instead of `zh-Hans`/`zh-Hant`
 * and have no `pt-BR`, hence the fallbacks. Empty for a tag Intl cannot parse.
 */
export function libreTranslateCodes(tag: string): string[] {
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag).maximize();
  } catch {
    return [];
  }
  const language = locale.language === 'no' ? 'nb' : locale.language;
  if (language === 'zh') return locale.script === 'Hant' ? ['zh-Hant', 'zt'] : ['zh-Hans', 'zh'];
  if (language === 'pt') return locale.region === 'BR' ? ['pt-BR', 'pt'] : ['pt'];
  return [language];
}

const LANGUAGES: BodyReader<ServerLanguage[]> = {
  expected: 'a language list',
  read(body) {
    const parsed = parseJson(body);
    if (!Array.isArray(parsed)) return undefined;
    const list: ServerLanguage[] = [];
    for (const item of parsed) {
      if (!isRecord(item) || typeof item.code !== 'string') return undefined;
      const targets = Array.isArray(item.targets) ? item.targets.filter((t): t is string => typeof t === 'string') : undefined;
      list.push({ code: item.code, targets });
    }
    return list;
  },
};

function translatedTextReader(count: number): BodyReader<string[]> {
  return {
    expected: `translatedText for ${count} texts`,
    read(body) {
      const parsed = parseJson(body);
      if (!isRecord(parsed) || !Array.isArray(parsed.translatedText) || parsed.translatedText.length !== count) return undefined;
      const texts: unknown[] = parsed.translatedText;
      return texts.every((t): t is string => typeof t === 'string') ? texts : undefined;
    },
  };
}

type Pair = { ok: true; source: string; target: string } | { ok: false; reason: string };

/** The server's codes for the request's locales, or why the server cannot translate between them. */
function resolvePair(languages: readonly ServerLanguage[], sourceLocale: string, targetLocale: string, server: string): Pair {
  const offered = languages.map((l) => l.code).join(', ');
  const sourceCandidates = libreTranslateCodes(sourceLocale);
  const source = languages.find((l) => sourceCandidates.includes(l.code));
  if (!source) {
    return { ok: false, reason: `LibreTranslate at ${server} cannot translate from source locale '${sourceLocale}' (it offers: ${offered})` };
  }
  const targets = source.targets ?? languages.map((l) => l.code);
  const target = libreTranslateCodes(targetLocale).find((code) => targets.includes(code));
  if (!target) {
    return {
      ok: false,
      reason: `LibreTranslate at ${server} cannot translate from '${source.code}' into target locale '${targetLocale}' (targets from '${source.code}': ${targets.join(', ')})`,
    };
  }
  return { ok: true, source: source.code, target };
}

const TOKEN_SPLIT = /(<ph id="\d+"\/>)/;
const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const PH_TOKEN = /<ph\s[^>]*>/g;
const LETTER = /\p{L}/u;

/**
 * The row text as HTML: literal `&`, `<`, `>` escaped so the server's HTML parser reads them as text, `<ph/>` tokens
 * kept as tags. The server unescapes its answer itself, so nothing is decoded on the way back.
 */
function toHtml(masked: string): string {
  return masked
    .split(TOKEN_SPLIT)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[&<>]/g, (ch) => HTML_ESCAPES[ch] as string)))
    .join('');
}

/** Leading and trailing whitespace of a text: MT engines drop it, UI strings depend on it, so it is kept aside and put back. */
function outerWhitespace(text: string): { lead: string; core: string; trail: string } {
  const lead = /^\s*/u.exec(text)?.[0] ?? '';
  const trail = /\s*$/u.exec(text.slice(lead.length))?.[0] ?? '';
  return { lead, core: text.slice(lead.length, text.length - trail.length), trail };
}

interface Job {
  row: ProviderRow;
  lead: string;
  html: string;
  trail: string;
}

export function createLibreTranslateProvider(options: LibreTranslateProviderOptions): TranslationProvider {
  const root = options.baseUrl.replace(/\/+$/, '');
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 25));
  const apiKey = options.apiKey || undefined;
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const http = createHttpClient({
    name: 'libretranslate',
    secrets: [apiKey],
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    baseDelayMs: options.baseDelayMs,
    maxDelayMs: options.maxDelayMs,
    log: options.log,
  });

  // A server's languages are its installed models, fixed while it runs: asked once, and again only after a failure.
  // The shared request carries no caller's signal: one caller's abort must not fail the others waiting on it.
  let languages: Promise<ServerLanguage[]> | undefined;
  async function serverLanguages(signal: AbortSignal | undefined): Promise<ServerLanguage[]> {
    languages ??= http.send({ method: 'GET', url: `${root}/languages`, headers }, LANGUAGES).catch((error: unknown) => {
      languages = undefined;
      throw error;
    });
    const list = await languages;
    signal?.throwIfAborted();
    return list;
  }

  async function send(jobs: readonly Job[], pair: { source: string; target: string }, request: TranslateRequest): Promise<string[]> {
    const body = JSON.stringify({
      q: jobs.map((job) => job.html),
      source: pair.source,
      target: pair.target,
      format: 'html',
      ...(apiKey ? { api_key: apiKey } : {}),
    });
    return http.send({ method: 'POST', url: `${root}/translate`, headers, body, signal: request.signal }, translatedTextReader(jobs.length));
  }

  return {
    name: 'libretranslate',
    instructable: false,
    async translate(request) {
      const pair = resolvePair(await serverLanguages(request.signal), request.sourceLocale, request.targetLocale, root);
      if (!pair.ok) return request.rows.map((row) => ({ id: row.id, ok: false, reason: pair.reason }));

      const results = new Map<ProviderRow, RowResult>();
      const jobs: Job[] = [];
      for (const row of request.rows) {
        const { lead, core, trail } = outerWhitespace(row.text);
        // Nothing to translate (empty, only tokens, numbers or punctuation): the source is the translation.
        if (!LETTER.test(core.replace(PH_TOKEN, ''))) results.set(row, { id: row.id, ok: true, text: row.text });
        else jobs.push({ row, lead, html: toHtml(core), trail });
      }
      // Sequential requests: the server translates one text at a time anyway, and a throttled key gains nothing.
      for (let i = 0; i < jobs.length; i += batchSize) {
        const batch = jobs.slice(i, i + batchSize);
        const texts = await send(batch, pair, request);
        batch.forEach((job, j) => {
          results.set(job.row, { id: job.row.id, ok: true, text: job.lead + (texts[j] as string).trim() + job.trail });
        });
      }
      return request.rows.map((row) => results.get(row) as RowResult);
    },
  };
}
