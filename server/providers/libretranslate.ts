/** Machine translation through a LibreTranslate server (self-hosted or libretranslate.com), `<ph/>` tokens kept as HTML tags. */
import { createHttpClient, isRecord, parseJson, type BodyReader, type RemoteOptions } from './http.js';
import { answersReader, translateAsMarkup, type MarkupJob } from './mt-text.js';
import type { TranslateRequest, TranslationProvider } from './provider.js';

export interface LibreTranslateProviderOptions extends RemoteOptions {
  /** Server root, e.g. `http://localhost:5000` or `https://libretranslate.com`. */
  baseUrl: string;
  /** Needed by servers started with `--api-keys` (libretranslate.com); sent as `api_key` in the body. */
  apiKey?: string;
  /** Texts per request. Default 25: Argos models run on the CPU, and a smaller request stays well inside the timeout. */
  batchSize?: number;
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

/** An item of the server's `translatedText`, which is the text itself. */
const asText = (item: unknown): string | undefined => (typeof item === 'string' ? item : undefined);

/** Consecutive requests of at most `size` jobs each. */
function chunksOf(jobs: readonly MarkupJob[], size: number): { jobs: MarkupJob[] }[] {
  return Array.from({ length: Math.ceil(jobs.length / size) }, (_, i) => ({ jobs: jobs.slice(i * size, (i + 1) * size) }));
}

export function createLibreTranslateProvider(options: LibreTranslateProviderOptions): TranslationProvider {
  const root = options.baseUrl.replace(/\/+$/, '');
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 25));
  const apiKey = options.apiKey || undefined;
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const http = createHttpClient({ name: 'libretranslate', secrets: [apiKey] }, options);

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

  async function send(jobs: readonly MarkupJob[], pair: { source: string; target: string }, request: TranslateRequest): Promise<string[]> {
    const body = JSON.stringify({
      // HTML, so that the server's parser keeps the tokens as tags; it unescapes its answer itself, so nothing is decoded.
      q: jobs.map((job) => job.markup),
      source: pair.source,
      target: pair.target,
      format: 'html',
      ...(apiKey ? { api_key: apiKey } : {}),
    });
    const reader = answersReader('translatedText', jobs.length, asText);
    return http.send({ method: 'POST', url: `${root}/translate`, headers, body, signal: request.signal }, reader);
  }

  return {
    name: 'libretranslate',
    instructable: false,
    async translate(request) {
      const pair = resolvePair(await serverLanguages(request.signal), request.sourceLocale, request.targetLocale, root);
      if (!pair.ok) return request.rows.map((row) => ({ id: row.id, ok: false, reason: pair.reason }));

      return translateAsMarkup(request.rows, {
        batchesOf: (jobs) => chunksOf(jobs, batchSize),
        send: (batch) => send(batch.jobs, pair, request),
      });
    },
  };
}
