/**
 * A local Lokalise API v2 serving the import fixture in Lokalise's own shapes, and the zip Lokalise's Download makes of it.
 *
 * Shapes taken from: the official Node client lokalise/node-lokalise-api (src/interfaces/{project,language,key,
 * translation,glossary_term}.ts, src/collections/{keys,languages,glossary_terms}.ts, src/http_client/base.ts, and its
 * test fixtures keys/list_cursor_pagination.json, languages/list.json, glossary_terms/list.json, errors/*.json);
 * developers.lokalise.com/reference/api-pagination (page headers X-Pagination-Total-Count/Page-Count/Limit/Page; cursor
 * pagination with `pagination=cursor`, `cursor` and X-Pagination-Next-Cursor), /reference/api-errors
 * (`{"error":{"message","code"}}`, 404 "Not Found") and /reference/api-rate-limits (6 requests/s, 429 with "Too many
 * requests. Cool your jets and try again in a bit"); docs.lokalise.com "Filenames" (%LANG_ISO% in filenames, one
 * filename per platform), "JSON nested" (`::` nesting) and "Android resources" (descriptions as comments before the
 * string). The 401 text "Invalid `X-Api-Token` header" and the 429 headers X-RateLimit-Limit/Remaining/Reset
 * (epoch seconds) and Retry-After come from third-party write-ups of Lokalise's API, not from Lokalise's reference;
 * the TMX header of Lokalise's memory export is not documented, so the archive's TMX is plain TMX 1.4 with srclang.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import type { FixtureKey, ImportFixture } from '../import-fixture.js';
import { createRequestHolds, type HeldRequest } from './held-request.js';

export interface LokaliseRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  token: string | undefined;
  status: number;
}

export interface LokaliseMockOptions {
  /** The most keys the server gives a request, whatever `limit` asks (Lokalise's own maximum is 500). */
  keysPerPage?: number;
  /** The most glossary terms the server gives a request. */
  termsPerPage?: number;
}

export interface LokaliseMock {
  url: string;
  token: string;
  projectId: string;
  requests: LokaliseRequest[];
  /** Makes the next `count` requests answer 429 as Lokalise's rate limit does. */
  rateLimitNext(count?: number): void;
  /** Holds the first request `match` takes until the test releases it. */
  hold(match: (method: string, url: URL) => boolean): HeldRequest;
  stop(): Promise<void>;
}

const PROJECT_ID = '3817449165f0c8b2e41d77.60215948';
const TOKEN = 'a2c93f0e8b3e4fd6b1c07a5d9e4f81c2d7a6b5e3';
const BASE = 'en';
/** Lokalise `lang_iso` codes and ids; 640 is English in Lokalise's own fixtures, the others are this dataset's. */
const LANGUAGES = [
  { lang_id: 640, lang_iso: 'en', lang_name: 'English', is_rtl: false, plural_forms: ['one', 'other'] },
  { lang_id: 597, lang_iso: 'de', lang_name: 'German', is_rtl: false, plural_forms: ['one', 'other'] },
  { lang_id: 731, lang_iso: 'ar', lang_name: 'Arabic', is_rtl: true, plural_forms: ['zero', 'one', 'two', 'few', 'many', 'other'] },
  { lang_id: 703, lang_iso: 'pt_BR', lang_name: 'Portuguese (Brazil)', is_rtl: false, plural_forms: ['one', 'many', 'other'] },
];
const fixtureLocale = (iso: string) => iso.replace('_', '-');

const JSON_FILENAME = 'locales/%LANG_ISO%.json';
/** No language code in it to rotate: an Android base file keeps its own path as its Lokalise filename. */
const ANDROID_FILENAME = 'app/src/main/res/values/strings.xml';
const keyId = (k: FixtureKey) => 44_596_000 + k.id;
const termId = (index: number) => 5_319_746 + index;
const stamp = { created_at: '2024-03-11 09:12:44 (Etc/UTC)', created_at_timestamp: 1710148364 };

/** The fixture's key as Lokalise's keys endpoint returns it with `include_translations=1`. */
function lokaliseKey(k: FixtureKey, translationsByKey: Map<number, ImportFixture['translations']>) {
  const android = k.format === 'android_xml';
  const platform = android ? 'android' : 'web';
  const text = (value: string, plurals: PluralForms | undefined) => (plurals ? JSON.stringify(plurals) : value);
  const translations = LANGUAGES.map((language, index) => {
    const translation_id = 527_000_000 + k.id * 10 + index;
    const common = { translation_id, segment_number: 1, key_id: keyId(k), language_iso: language.lang_iso, modified_by: 20181, modified_by_email: 'owner@example.com', ...stamp, modified_at: stamp.created_at, modified_at_timestamp: stamp.created_at_timestamp, reviewed_by: 0, is_fuzzy: false, custom_translation_statuses: [], task_id: null };
    if (language.lang_iso === BASE) return { ...common, translation: text(k.source, k.plurals), is_reviewed: true, is_unverified: false, words: 3 };
    const t = translationsByKey.get(k.id)?.find((row) => row.locale === fixtureLocale(language.lang_iso));
    // Lokalise lists every project language on a key; an untranslated one has an empty text.
    if (!t) return { ...common, translation: '', is_reviewed: false, is_unverified: false, words: 0 };
    // Some unreviewed translations were reviewed before their base text changed: Lokalise keeps is_reviewed and marks
    // them unverified, and the review no longer holds.
    const stale = !t.reviewed && k.id % 4 === 1;
    return { ...common, translation: text(t.text, t.plurals), is_reviewed: t.reviewed || stale, is_unverified: stale, words: 3 };
  });
  return {
    key_id: keyId(k),
    ...stamp,
    key_name: { ios: k.key, android: k.key, web: k.key, other: k.key },
    filenames: { ios: '', android: android ? ANDROID_FILENAME : '', web: android ? '' : JSON_FILENAME, other: '' },
    description: k.notes ?? '',
    platforms: [platform],
    tags: k.tags,
    comments: [],
    screenshots: [],
    translations,
    is_plural: k.plurals !== undefined,
    plural_name: '',
    is_hidden: false,
    is_archived: false,
    context: k.context ?? '',
    base_words: 3,
    char_limit: k.maxLength ?? 0,
    custom_attributes: '',
    modified_at: stamp.created_at,
    modified_at_timestamp: stamp.created_at_timestamp,
    translations_modified_at: stamp.created_at,
    translations_modified_at_timestamp: stamp.created_at_timestamp,
  };
}

function glossaryTerm(term: ImportFixture['glossary'][number], index: number) {
  return {
    id: termId(index),
    term: term.term,
    description: term.notes ?? '',
    caseSensitive: false,
    // The fixture's term without translations is a product name: Lokalise's "non-translatable".
    translatable: Object.keys(term.translations).length > 0,
    forbidden: term.forbidden,
    translations: LANGUAGES.map((l) => ({ langId: l.lang_id, langName: l.lang_name, langIso: l.lang_iso, translation: term.translations[fixtureLocale(l.lang_iso)] ?? '', description: '' })),
    tags: [],
    projectId: PROJECT_ID,
    createdAt: stamp.created_at,
    updatedAt: null,
  };
}

/** Lokalise's cursors are opaque base64 strings (`eyIxIjo0NDU5NjA2MX0=` is `{"1":44596061}`, the last id given). */
const encodeCursor = (lastId: number) => Buffer.from(JSON.stringify({ 1: lastId })).toString('base64');
function decodeCursor(cursor: string): number | undefined {
  try {
    const value = (JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as Record<string, unknown>)['1'];
    return typeof value === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function startLokaliseMock(fixture: ImportFixture, options: LokaliseMockOptions = {}): Promise<LokaliseMock> {
  const byKey = new Map<number, ImportFixture['translations']>();
  for (const t of fixture.translations) byKey.set(t.keyId, [...(byKey.get(t.keyId) ?? []), t]);
  const keys = fixture.keys.map((k) => lokaliseKey(k, byKey));
  const terms = fixture.glossary.map(glossaryTerm);
  const requests: LokaliseRequest[] = [];
  let rateLimited = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const token = req.headers['x-api-token'] as string | undefined;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), token, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, message: string, headers?: Record<string, string>) => send(status, { error: { message, code: status } }, headers);

    if (rateLimited > 0) {
      rateLimited--;
      const reset = String(Math.floor(Date.now() / 1000) + 1);
      return error(429, 'Too many requests. Cool your jets and try again in a bit', { 'x-ratelimit-limit': '6', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset, 'retry-after': '1' });
    }
    if (token !== TOKEN) return error(401, 'Invalid `X-Api-Token` header');
    const match = /^\/api2\/projects\/([^/]+)(\/[a-z-]+)?$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return error(404, 'Not Found');
    if (decodeURIComponent(match[1]!) !== PROJECT_ID) return error(404, 'Not Found');
    const limit = (max: number) => Math.min(Number(url.searchParams.get('limit') ?? 100) || 100, max);

    switch (match[2]) {
      case undefined:
        return send(200, {
          project_id: PROJECT_ID,
          project_type: 'localization_files',
          name: 'Parlance fixture',
          description: '',
          ...stamp,
          created_by: 20181,
          created_by_email: 'owner@example.com',
          team_id: 176692,
          base_language_id: 640,
          base_language_iso: BASE,
          settings: { per_platform_key_names: false, reviewing: true, auto_toggle_unverified: true, offline_translation: false, key_editing: true, inline_machine_translations: true },
          statistics: { progress_total: 0, keys_total: keys.length, team: 1, base_words: 0, qa_issues_total: 0, qa_issues: {}, languages: [] },
        });
      case '/languages': {
        const size = limit(5000);
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
        const pages = Math.max(1, Math.ceil(LANGUAGES.length / size));
        return send(200, { project_id: PROJECT_ID, branch: 'master', languages: LANGUAGES.slice((page - 1) * size, page * size) }, paginationHeaders(LANGUAGES.length, pages, size, page));
      }
      case '/keys': {
        const size = limit(Math.min(500, options.keysPerPage ?? 500));
        const body = (slice: typeof keys) => ({ project_id: PROJECT_ID, branch: 'master', keys: url.searchParams.get('include_translations') === '1' ? slice : slice.map(({ translations: _, ...k }) => k) });
        if (url.searchParams.get('pagination') === 'cursor') {
          const cursor = url.searchParams.get('cursor');
          const after = cursor ? decodeCursor(cursor) : 0;
          if (after === undefined) return error(400, 'Invalid `cursor` parameter');
          const slice = keys.filter((k) => k.key_id > after).slice(0, size);
          const more = slice.length > 0 && slice[slice.length - 1]!.key_id < keys[keys.length - 1]!.key_id;
          return send(200, body(slice), { 'x-pagination-limit': String(size), ...(more && { 'x-pagination-next-cursor': encodeCursor(slice[slice.length - 1]!.key_id) }) });
        }
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
        const pages = Math.max(1, Math.ceil(keys.length / size));
        return send(200, body(keys.slice((page - 1) * size, page * size)), paginationHeaders(keys.length, pages, size, page));
      }
      case '/glossary-terms': {
        const size = limit(Math.min(500, options.termsPerPage ?? 500));
        const cursor = url.searchParams.get('cursor');
        const start = cursor ? terms.findIndex((t) => t.id === Number(cursor)) : 0;
        if (start < 0) return error(400, 'Invalid `cursor` parameter');
        const slice = terms.slice(start, start + size);
        const next = terms[start + size];
        return send(200, { data: slice, meta: { count: slice.length, limit: size, cursor: cursor ? Number(cursor) : 0, hasMore: next !== undefined } }, next ? { 'x-pagination-next-cursor': String(next.id) } : {});
      }
      default:
        return error(404, 'Not Found');
    }
  };

  const holds = createRequestHolds();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => void holds.pass(req, res, new URL(req.url ?? '/', 'http://127.0.0.1')).then((answering) => answering && handle(req, res)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api2`,
    token: TOKEN,
    projectId: PROJECT_ID,
    requests,
    rateLimitNext(count = 1) {
      rateLimited += count;
    },
    hold: holds.hold,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function paginationHeaders(total: number, pages: number, limit: number, page: number): Record<string, string> {
  return { 'x-pagination-total-count': String(total), 'x-pagination-page-count': String(pages), 'x-pagination-limit': String(limit), 'x-pagination-page': String(page) };
}

// ---------------------------------------------------------------------------------------------------------------
// The Download archive

/** Android's string escaping (apostrophes, quotes, backslashes, a leading @ or ?) inside XML's own. */
function androidText(value: string): string {
  const escaped = value
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    .replaceAll('"', '\\"')
    .replaceAll('\n', '\\n')
    .replace(/^([@?])/, '\\$1');
  return escaped.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
const xmlText = (value: string) => value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * What Lokalise's Download gives for the fixture with original filenames on, directory prefix `%LANG_ISO%/`, empty
 * translations skipped, plural format `json_string` for JSON and descriptions included: per language a JSON file
 * (format json) and an Android file (format xml), merged into one zip, plus the memory as TMX. One download has one
 * format, so a project with JSON and Android files takes two; the person puts both bundles (and the TMX) in one zip.
 */
export function lokaliseArchive(fixture: ImportFixture): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const language of LANGUAGES) {
    const iso = language.lang_iso;
    const valueOf = (k: FixtureKey): { text: string; plurals?: PluralForms } | undefined => {
      if (iso === BASE) return { text: k.source, ...(k.plurals && { plurals: k.plurals }) };
      const t = fixture.translations.find((row) => row.keyId === k.id && row.locale === fixtureLocale(iso));
      return t && { text: t.text, ...(t.plurals && { plurals: t.plurals }) };
    };
    const json: Record<string, string> = {};
    const android: string[] = [];
    for (const k of fixture.keys) {
      const value = valueOf(k);
      if (!value) continue;
      if (k.format === 'json') {
        json[k.key] = value.plurals ? JSON.stringify(value.plurals) : value.text;
        continue;
      }
      if (iso === BASE && k.notes) android.push(`    <!-- ${xmlText(k.notes)} -->`);
      if (value.plurals) {
        android.push(`    <plurals name="${k.key}">`);
        for (const [category, form] of Object.entries(value.plurals)) android.push(`        <item quantity="${category}">${androidText(form)}</item>`);
        android.push('    </plurals>');
      } else android.push(`    <string name="${k.key}">${androidText(value.text)}</string>`);
    }
    files[`${iso}/${JSON_FILENAME.replace('%LANG_ISO%', iso)}`] = strToU8(`${JSON.stringify(json, null, 2)}\n`);
    files[`${iso}/${ANDROID_FILENAME}`] = strToU8(`<?xml version="1.0" encoding="UTF-8"?>\n<resources>\n${android.join('\n')}\n</resources>\n`);
  }
  const units = new Map<string, string[]>();
  for (const m of fixture.memory) units.set(m.source, [...(units.get(m.source) ?? []), `      <tuv xml:lang="${m.locale}"><seg>${xmlText(m.text)}</seg></tuv>`]);
  const tmx = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  <header creationtool="Lokalise" creationtoolversion="1.0" datatype="plaintext" segtype="sentence" adminlang="en" srclang="${BASE}" o-tmf="Lokalise"/>`,
    '  <body>',
    ...[...units].map(([source, tuvs]) => `    <tu>\n      <tuv xml:lang="${BASE}"><seg>${xmlText(source)}</seg></tuv>\n${tuvs.join('\n')}\n    </tu>`),
    '  </body>',
    '</tmx>',
  ].join('\n');
  files['translation_memory.tmx'] = strToU8(`${tmx}\n`);
  return zipSync(files, { level: 6 });
}
