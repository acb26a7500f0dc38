/**
 * Transifex on 127.0.0.1: API v3 (JSON:API) serving the import fixture in Transifex's shapes and ids, and the archive a
 * team holds from Transifex (`.tx/config`, the files `tx pull` writes, TM and glossary downloads).
 *
 * Sources for the shapes:
 * - transifex/transifex-javascript `packages/api/src/transifexApi.js` (the official v3 client): resource types, the
 *   download jobs (create, reload until `redirect`), `tmx_async_downloads` with project and language.
 * - transifex/cli `pkg/jsonapi/*` and `pkg/txapi/*`: Bearer auth, `application/vnd.api+json`, `links.next` pages, the
 *   job answering 303 with a Location when done (`getDownloadEndpoint` in `internal/txlib/pull_test.go`), a failed
 *   job's `attributes.status` and `errors`, 429 with an integer Retry-After (`parseRetryResponse`), the error envelope
 *   `{ errors: [{ status, code, title, detail }] }` with snake_case codes (`errors_test.go`), resource attributes and
 *   the `i18n_format` relationship, project `source_language` `l:en`, `.tx/config` keys (`config/local.go`).
 * - transifex/transifex-delivery `tests/.../helpers/api.js`: resource_strings and resource_translations attributes
 *   (key, context, strings by plural category, pluralized, developer_comment, instructions, character_limit, tags,
 *   reviewed, proofread, finalized), `include=resource_string`, ids `o:…:p:…:r:…:s:<hash>[:l:<code>]`.
 * - transifex/openformats: string_hash = md5('key:context'), JSON keys with '.' escaped as '\.'.
 * - The glossary CSV columns (term, pos, comment, translation_<lang>, comment_<lang>): a script reading Transifex
 *   glossary exports, widelands/widelands `utils/generate_glossary.py`.
 * The mock's own choices: page size, cursor values, the 401/404/429 `code` and `detail` texts, the TMX header's
 * creationtool, and the zip's TM and glossary file names (Transifex downloads them one by one; the team zips them).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { z } from 'zod';
import { androidXmlCodec } from '../../../src/core/formats/android-xml.js';
import { jsonCodec, type FreshEntry } from '../../../src/core/formats/index.js';
import { renderTmx } from '../../../src/core/tmx.js';
import type { FixtureKey, FixtureTranslation, ImportFixture } from '../import-fixture.js';
import { createRequestHolds, type HeldRequest } from './held-request.js';

const ORG = 'acme';
const PROJECT = 'shop-app';
const PROJECT_ID = `o:${ORG}:p:${PROJECT}`;
const JSON_API = 'application/vnd.api+json';

export interface TransifexMockOptions {
  /** Items per page of every collection (resource strings, translations, …). */
  pageSize?: number;
  /** How many polls of a TMX download job answer 'pending'/'processing' before it redirects to the file. */
  tmxPendingPolls?: number;
}

export interface TransifexMockRequest {
  method: string;
  /** Path and query, decoded. */
  path: string;
}

export interface TransifexMock {
  url: string;
  token: string;
  projectId: string;
  requests: TransifexMockRequest[];
  /** The next API request answers 429 with `Retry-After: seconds`. */
  rateLimitNext(seconds?: number): void;
  /** Holds the first request `match` takes until the test releases it. */
  hold(match: (method: string, url: URL) => boolean): HeldRequest;
  stop(): Promise<void>;
}

/** Transifex's language code for a fixture locale: `pt-BR` → `pt_BR`. */
export const transifexLanguage = (locale: string) => locale.replace(/-/g, '_');

/** Transifex's i18n format for each fixture file, and the resource the fixture file is pushed as. */
function resourcesOf(fixture: ImportFixture) {
  return fixture.files.map((file) => {
    const slug = file.path.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return {
      slug,
      id: `${PROJECT_ID}:r:${slug}`,
      // Named after the repository path, as a team does with `resource_name` in .tx/config.
      name: file.path,
      path: file.path,
      format: file.format,
      i18nType: file.format === 'json' ? 'KEYVALUEJSON' : 'ANDROID',
      fileFilter: file.format === 'json' ? file.path.replace(/en\.json$/, '<lang>.json') : file.path.replace('/values/', '/values-<lang>/'),
      // Android resource folders spell regions with an 'r': values-pt-rBR.
      langMap: file.format === 'android_xml' ? 'pt_BR: pt-rBR' : '',
    };
  });
}

/** openformats escapes '\' and '.' in a JSON member name; the fixture's JSON file is flat, so `screen0.item0` is one name. */
const transifexKey = (k: FixtureKey) => (k.format === 'json' ? k.key.replace(/\\/g, '\\\\').replace(/\./g, '\\.') : k.key);
const stringHash = (k: FixtureKey) => createHash('md5').update(`${transifexKey(k)}:${k.context ?? ''}`).digest('hex');

export async function startTransifexMock(fixture: ImportFixture, options: TransifexMockOptions = {}): Promise<TransifexMock> {
  const pageSize = options.pageSize ?? 150;
  const pendingPolls = options.tmxPendingPolls ?? 0;
  const token = '1/parlance-import-test-token';
  const resources = resourcesOf(fixture);
  const languages = fixture.targetLocales.map(transifexLanguage);
  const keysByResource = new Map(resources.map((r) => [r.id, fixture.keys.filter((k) => k.path === r.path)]));
  const translations = new Map<string, FixtureTranslation>(fixture.translations.map((t) => [`${t.keyId}\u0000${transifexLanguage(t.locale)}`, t]));
  const jobs = new Map<string, { language: string; polls: number }>();
  const requests: TransifexMockRequest[] = [];
  const holds = createRequestHolds();
  let rateLimit: number | undefined;
  let base = '';

  const stringId = (resourceId: string, k: FixtureKey) => `${resourceId}:s:${stringHash(k)}`;
  const link = (path: string) => `${base}${path}`;
  const stringResource = (resourceId: string, k: FixtureKey, order: number) => ({
    type: 'resource_strings',
    id: stringId(resourceId, k),
    attributes: {
      appearance_order: order,
      key: transifexKey(k),
      context: k.context ?? '',
      strings: k.plurals ?? { other: k.source },
      tags: k.tags,
      occurrences: null,
      developer_comment: k.notes ?? '',
      instructions: null,
      character_limit: k.maxLength ?? null,
      pluralized: k.plurals !== undefined,
      string_hash: stringHash(k),
      datetime_created: '2024-03-01T10:00:00Z',
      metadata_datetime_modified: '2024-03-01T10:00:00Z',
      strings_datetime_modified: '2024-03-01T10:00:00Z',
    },
    relationships: {
      resource: { data: { type: 'resources', id: resourceId }, links: { related: link(`/resources/${resourceId}`) } },
      language: { data: { type: 'languages', id: 'l:en' }, links: { related: link('/languages/l:en') } },
    },
    links: { self: link(`/resource_strings/${stringId(resourceId, k)}`) },
  });
  const translationResource = (resourceId: string, k: FixtureKey, language: string) => {
    const t = translations.get(`${k.id}\u0000${language}`);
    const id = `${stringId(resourceId, k)}:l:${language}`;
    // Every source string has a slot in every language; an untranslated one has `strings: null`.
    const reviewed = t?.reviewed ?? false;
    return {
      type: 'resource_translations',
      id,
      attributes: {
        strings: t ? (t.plurals ?? { other: t.text }) : null,
        reviewed,
        proofread: reviewed && k.id % 4 === 0,
        finalized: reviewed,
        datetime_created: '2024-03-02T10:00:00Z',
        datetime_translated: t ? '2024-03-02T10:00:00Z' : null,
        datetime_reviewed: reviewed ? '2024-03-03T10:00:00Z' : null,
        datetime_proofread: null,
      },
      relationships: {
        resource_string: { data: { type: 'resource_strings', id: stringId(resourceId, k) }, links: { related: link(`/resource_strings/${stringId(resourceId, k)}`) } },
        resource: { data: { type: 'resources', id: resourceId }, links: { related: link(`/resources/${resourceId}`) } },
        language: { data: { type: 'languages', id: `l:${language}` }, links: { related: link(`/languages/l:${language}`) } },
      },
      links: { self: link(`/resource_translations/${id}`) },
    };
  };

  /** One page of `items` from the cursor in `url`, with `links.next` as an absolute address (as Transifex gives it). */
  function page<T>(url: URL, items: T[]) {
    const offset = Number(Buffer.from(url.searchParams.get('page[cursor]') ?? 'MA', 'base64url').toString() || '0');
    const data = items.slice(offset, offset + pageSize);
    const at = (o: number) => {
      const next = new URL(url);
      next.searchParams.set('page[cursor]', Buffer.from(String(o)).toString('base64url'));
      return link(`${next.pathname}${next.search}`);
    };
    return {
      data,
      links: { self: link(`${url.pathname}${url.search}`), next: offset + pageSize < items.length ? at(offset + pageSize) : null, previous: offset > 0 ? at(Math.max(0, offset - pageSize)) : null },
    };
  }

  function handle(method: string, url: URL, headers: IncomingMessage['headers'], body: string): { status: number; body: string; headers?: Record<string, string> } {
    const json = (status: number, value: unknown) => ({ status, body: JSON.stringify(value), headers: { 'content-type': JSON_API } });
    const error = (status: number, code: string, title: string, detail: string) => json(status, { errors: [{ status: String(status), code, title, detail }] });

    // The finished file sits behind a signed address on Transifex's storage: no token asked.
    const file = /^\/_downloads\/([\w-]+)\.tmx$/.exec(url.pathname);
    if (file) {
      const job = jobs.get(file[1]!);
      if (!job) return { status: 404, body: 'NoSuchKey' };
      return { status: 200, body: tmxOf(fixture, job.language), headers: { 'content-type': 'application/x-tmx+xml' } };
    }
    if (rateLimit !== undefined) {
      const seconds = rateLimit;
      rateLimit = undefined;
      return { ...error(429, 'throttled', 'Too Many Requests', `Request was throttled. Expected available in ${seconds} seconds.`), headers: { 'content-type': JSON_API, 'retry-after': String(seconds) } };
    }
    if (headers.authorization !== `Bearer ${token}`) return error(401, 'unauthorized', 'Unauthorized', 'Authentication credentials were not provided or are invalid.');

    const projectPath = /^\/projects\/([^/]+)(\/languages)?$/.exec(decodeURIComponent(url.pathname));
    if (method === 'GET' && projectPath) {
      if (projectPath[1] !== PROJECT_ID) return error(404, 'not_found', 'Object not found', `Project '${projectPath[1]}' was not found.`);
      if (projectPath[2]) {
        return json(
          200,
          page(
            url,
            languages.map((code) => ({ type: 'languages', id: `l:${code}`, attributes: { code, name: code, rtl: code === 'ar', plural_equation: '', plural_rules: {} }, links: { self: link(`/languages/l:${code}`) } })),
          ),
        );
      }
      return json(200, {
        data: {
          type: 'projects',
          id: PROJECT_ID,
          attributes: { slug: PROJECT, name: 'Shop app', private: true, type: 'file' },
          relationships: {
            organization: { data: { type: 'organizations', id: `o:${ORG}` }, links: { related: link(`/organizations/o:${ORG}`) } },
            source_language: { data: { type: 'languages', id: `l:${fixture.sourceLocale}` }, links: { related: link(`/languages/l:${fixture.sourceLocale}`) } },
            languages: { links: { self: link(`/projects/${PROJECT_ID}/relationships/languages`), related: link(`/projects/${PROJECT_ID}/languages`) } },
          },
          links: { self: link(`/projects/${PROJECT_ID}`) },
        },
      });
    }
    if (method === 'GET' && url.pathname === '/resources') {
      if (url.searchParams.get('filter[project]') !== PROJECT_ID) return error(404, 'not_found', 'Object not found', `Project '${url.searchParams.get('filter[project]')}' was not found.`);
      return json(
        200,
        page(
          url,
          resources.map((r) => ({
            type: 'resources',
            id: r.id,
            attributes: { slug: r.slug, name: r.name, priority: 'normal', i18n_version: 2, accept_translations: true, string_count: keysByResource.get(r.id)!.length, categories: [] },
            relationships: {
              project: { data: { type: 'projects', id: PROJECT_ID }, links: { related: link(`/projects/${PROJECT_ID}`) } },
              i18n_format: { data: { type: 'i18n_formats', id: r.i18nType } },
            },
            links: { self: link(`/resources/${r.id}`) },
          })),
        ),
      );
    }
    if (method === 'GET' && url.pathname === '/resource_strings') {
      const resourceId = url.searchParams.get('filter[resource]') ?? '';
      const keys = keysByResource.get(resourceId);
      if (!keys) return error(400, 'invalid', 'Invalid filter', `filter[resource]: '${resourceId}' is not a resource of this organization.`);
      return json(200, page(url, keys.map((k, i) => stringResource(resourceId, k, i))));
    }
    if (method === 'GET' && url.pathname === '/resource_translations') {
      const resourceId = url.searchParams.get('filter[resource]') ?? '';
      const language = (url.searchParams.get('filter[language]') ?? '').replace(/^l:/, '');
      const keys = keysByResource.get(resourceId);
      if (!keys || !languages.includes(language)) return error(400, 'invalid', 'Invalid filter', 'filter[resource] and filter[language] must name a resource and one of its target languages.');
      const result = page(url, keys.map((k) => ({ k, t: translationResource(resourceId, k, language) })));
      const include = url.searchParams.get('include') === 'resource_string';
      return json(200, {
        data: result.data.map((x) => x.t),
        ...(include && { included: result.data.map((x) => stringResource(resourceId, x.k, keys.indexOf(x.k))) }),
        links: result.links,
      });
    }
    if (method === 'POST' && url.pathname === '/tmx_async_downloads') {
      const parsed = tmxJobRequest.safeParse(JSON.parse(body || 'null'));
      if (!parsed.success) return error(400, 'parse_error', 'Invalid payload', parsed.error.message);
      const { project, language } = parsed.data.data.relationships;
      if (project.data.id !== PROJECT_ID) return error(404, 'not_found', 'Object not found', `Project '${project.data.id}' was not found.`);
      const id = createHash('md5').update(`tmx:${language.data.id}:${jobs.size}`).digest('hex').slice(0, 12);
      jobs.set(id, { language: language.data.id.replace(/^l:/, ''), polls: 0 });
      return json(202, { data: { type: 'tmx_async_downloads', id, attributes: { status: 'pending', errors: [] }, links: { self: link(`/tmx_async_downloads/${id}`) } } });
    }
    const jobPath = /^\/tmx_async_downloads\/([\w-]+)$/.exec(url.pathname);
    if (method === 'GET' && jobPath) {
      const job = jobs.get(jobPath[1]!);
      if (!job) return error(404, 'not_found', 'Object not found', `Download '${jobPath[1]}' was not found.`);
      if (job.polls < pendingPolls) {
        job.polls++;
        return json(200, { data: { type: 'tmx_async_downloads', id: jobPath[1], attributes: { status: job.polls === 1 ? 'pending' : 'processing', errors: [] }, links: { self: link(url.pathname) } } });
      }
      return { status: 303, body: '', headers: { location: link(`/_downloads/${jobPath[1]}.tmx`) } };
    }
    return error(404, 'not_found', 'Not found', `No endpoint ${method} ${url.pathname}.`);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      requests.push({ method: req.method ?? '', path: decodeURIComponent(`${url.pathname}${url.search}`) });
      void holds.pass(req, res, url).then((answering) => {
        if (!answering) return;
        const answer = handle(req.method ?? '', url, req.headers, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    token,
    projectId: PROJECT_ID,
    requests,
    rateLimitNext(seconds = 1) {
      rateLimit = seconds;
    },
    hold: holds.hold,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const relation = (type: string) => z.object({ data: z.object({ type: z.literal(type), id: z.string() }) });
const tmxJobRequest = z.object({ data: z.object({ type: z.literal('tmx_async_downloads'), relationships: z.object({ project: relation('projects'), language: relation('languages') }) }) });

/** The project's TM for one language as Transifex's TMX export gives it: the source and that language per unit. */
function tmxOf(fixture: ImportFixture, language: string): string {
  const units = fixture.memory
    .filter((m) => transifexLanguage(m.locale) === language)
    .map((m, i) => ({ id: String(i + 1), source: m.source, targets: [{ locale: language, text: m.text }] }));
  return renderTmx({ sourceLocale: fixture.sourceLocale, units, tool: { name: 'Transifex', version: 'mock' } });
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * What a team holds from Transifex, zipped: the repository's `.tx/config` (one section per resource, source_file and
 * file_filter at the repository's own paths, `lang_map = pt_BR: pt-rBR` for Android's folders), the source files, the
 * files `tx pull --all` writes (default mode: JSON Key-Value fills untranslated strings with the source; Android leaves
 * them out), one TMX per language from "Download TM", and the glossary CSV from the Glossary page.
 */
export function transifexArchive(fixture: ImportFixture): Uint8Array {
  const resources = resourcesOf(fixture);
  const languages = fixture.targetLocales.map(transifexLanguage);
  const files: Record<string, Uint8Array> = {};
  const config = ['[main]', 'host = https://app.transifex.com', ''];
  for (const r of resources) {
    config.push(`[${r.id}]`, `file_filter = ${r.fileFilter}`, `source_file = ${r.path}`, `source_lang = ${fixture.sourceLocale}`, `type = ${r.i18nType}`);
    if (r.langMap) config.push(`lang_map = ${r.langMap}`);
    config.push('');
    const codec = r.format === 'json' ? jsonCodec : androidXmlCodec;
    const keys = fixture.keys.filter((k) => k.path === r.path);
    files[r.path] = codec.renderFresh(keys.map((k): FreshEntry => ({ key: k.key, value: k.plurals ? { plurals: k.plurals } : k.source, ...(k.notes && { notes: k.notes }) })));
    const localOf = new Map(r.langMap ? r.langMap.split(',').map((pair) => pair.split(':').map((s) => s.trim()) as [string, string]) : []);
    for (const language of languages) {
      const entries: FreshEntry[] = [];
      for (const k of keys) {
        const t = fixture.translations.find((x) => x.keyId === k.id && transifexLanguage(x.locale) === language);
        if (t) entries.push({ key: k.key, value: t.plurals ? { plurals: t.plurals } : t.text, ...(k.notes && { notes: k.notes }) });
        else if (r.format === 'json') entries.push({ key: k.key, value: k.source });
      }
      files[r.fileFilter.replace('<lang>', localOf.get(language) ?? language)] = codec.renderFresh(entries, { locale: fixture.targetLocales[languages.indexOf(language)] });
    }
  }
  files['.tx/config'] = strToU8(config.join('\n'));
  for (const language of languages) {
    if (language === transifexLanguage(fixture.sourceLocale)) continue;
    files[`transifex-downloads/${PROJECT}-tm-${language}.tmx`] = strToU8(tmxOf(fixture, language));
  }
  files[`transifex-downloads/${PROJECT}-glossary.csv`] = strToU8(glossaryCsv(fixture, languages));
  return zipSync(files);
}

/** Transifex's glossary export with notes: term, pos, comment, then translation_<lang> and comment_<lang>. */
function glossaryCsv(fixture: ImportFixture, languages: string[]): string {
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const header = ['term', 'pos', 'comment', ...languages.flatMap((l) => [`translation_${l}`, `comment_${l}`])];
  const rows = fixture.glossary.map((g) => {
    const byLanguage = new Map(Object.entries(g.translations).map(([locale, text]) => [transifexLanguage(locale), text]));
    return [g.term, 'noun', g.notes ?? '', ...languages.flatMap((l) => [byLanguage.get(l) ?? '', ''])].map(quote).join(',');
  });
  return `${[header.join(','), ...rows].join('\r\n')}\r\n`;
}
