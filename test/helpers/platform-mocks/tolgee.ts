/**
 * A local Tolgee serving the import fixture in Tolgee's own wire shapes and ids, and the zip Tolgee's export makes of it.
 *
 * Shapes from tolgee/tolgee-platform (read at dd7f597): webapp/src/service/apiSchema.generated.ts (ProjectModel,
 * PagedModelLanguageModel, KeysWithTranslationsPageModel with `nextCursor`, KeyWithTranslationsModel,
 * TranslationViewModel, CollectionModelSimpleGlossaryModel, PagedModelSimpleGlossaryTermWithTranslationsModel,
 * CollectionModelProjectTranslationMemoryAssignmentModel, ErrorResponseBody `{ code, params }`);
 * TranslationsController (default sort keyId ASC, a cursor after every non-empty page); AuthenticationFilter
 * (`X-API-Key`, `tgpat_` → invalid_pat, else invalid_project_api_key, 401); ProjectContextService (an unreadable
 * project is 404 project_not_found); AuthenticationInterceptor (`@AllowApiAccess(ONLY_PAT)` endpoints refuse a project
 * key with 403 pak_access_not_allowed: glossary terms and TM export); ExceptionHandlers and RateLimitResponseBody (a
 * 429 is `{ message: "rate_limited", retryAfter: <ms>, global }` with no Retry-After header); TmxExporter (the TM's
 * TMX); GlossaryCSVExporter and csv/Headers.kt (the glossary's CSV, every field quoted by opencsv); ExportFormat,
 * ExportFilePathProvider and GenericStructuredFileExporter (JSON export: `{namespace}/{languageTag}.json`, nested by
 * '.', plurals as one ICU message).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { writeIcuPlural } from '../../../src/core/formats/icu-plural.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import type { FixtureKey, ImportFixture } from '../import-fixture.js';
import { createRequestHolds, type HeldRequest } from './held-request.js';

export interface TolgeeMockOptions {
  /** A project API key (tgpak_…, refused by the endpoints Tolgee keeps for personal access tokens) instead of a PAT. */
  tokenKind?: 'pat' | 'pak';
}

export interface TolgeeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  apiKey: string | undefined;
}

export interface TolgeeMock {
  url: string;
  token: string;
  projectId: string;
  requests: TolgeeRequest[];
  /** The next `count` requests answer 429 as Tolgee's rate limiter does (retryAfter in the body, in ms). */
  rateLimitNext(count?: number, retryAfterMs?: number): void;
  /** Holds the first request `match` takes until the test releases it. */
  hold(match: (method: string, url: URL) => boolean): HeldRequest;
  stop(): Promise<void>;
}

const PROJECT_ID = 4242;
const ORGANIZATION_ID = 17;
const GLOSSARY_ID = 7;
const SHARED_TM_ID = 31;
const PROJECT_TM_ID = 30;
const KEY_ID_BASE = 1_000_000_000;
const PLURAL_ARGUMENT = 'count';

/** Tolgee keeps a plural as one ICU message, with `#` for the number. */
function tolgeePlural(forms: PluralForms): string {
  const hashed = Object.fromEntries(Object.entries(forms).map(([c, text]) => [c, text.replaceAll(`{${PLURAL_ARGUMENT}}`, '#')])) as PluralForms;
  return writeIcuPlural(PLURAL_ARGUMENT, hashed);
}

interface TolgeeProject {
  languages: { id: number; tag: string; name: string; base: boolean }[];
  keys: FixtureKey[];
  /** Key id → language tag → text and state. */
  texts: Map<number, Map<string, { id: number; text: string; state: 'TRANSLATED' | 'REVIEWED' }>>;
}

function tolgeeProject(fixture: ImportFixture): TolgeeProject {
  const tags = [fixture.sourceLocale, ...fixture.targetLocales];
  const languages = tags.map((tag, i) => ({ id: 100 + i, tag, name: tag, base: tag === fixture.sourceLocale }));
  const texts: TolgeeProject['texts'] = new Map();
  for (const k of fixture.keys) {
    texts.set(k.id, new Map([[fixture.sourceLocale, { id: k.id * 10, text: k.plurals ? tolgeePlural(k.plurals) : k.source, state: 'TRANSLATED' }]]));
  }
  for (const t of fixture.translations) {
    texts.get(t.keyId)!.set(t.locale, { id: t.keyId * 10 + 1 + tags.indexOf(t.locale), text: t.plurals ? tolgeePlural(t.plurals) : t.text, state: t.reviewed ? 'REVIEWED' : 'TRANSLATED' });
  }
  return { languages, keys: fixture.keys, texts };
}

function languageModel(l: TolgeeProject['languages'][number]) {
  return { id: l.id, name: l.name, tag: l.tag, originalName: l.name, flagEmoji: '🏳️', base: l.base };
}

function keyModel(project: TolgeeProject, k: FixtureKey, tags: string[]) {
  const translations: Record<string, unknown> = {};
  for (const tag of tags) {
    const t = project.texts.get(k.id)!.get(tag);
    const common = { auto: false, outdated: false, commentCount: 0, unresolvedCommentCount: 0, fromTranslationMemory: false, activeSuggestionCount: 0, totalSuggestionCount: 0, qaIssueCount: 0, qaChecksStale: false };
    // A selected language without a translation comes as UNTRANSLATED with neither id nor text.
    translations[tag] = t ? { id: t.id, text: t.text, state: t.state, ...common } : { state: 'UNTRANSLATED', ...common };
  }
  return {
    keyId: KEY_ID_BASE + k.id,
    keyName: k.key,
    keyNamespace: null,
    keyNamespaceId: null,
    keyDescription: k.notes ?? null,
    keyIsPlural: Boolean(k.plurals),
    keyPluralArgName: k.plurals ? PLURAL_ARGUMENT : null,
    keyMaxCharLimit: k.maxLength ?? null,
    keyTags: k.tags.map((name) => ({ id: 500 + name.length, name })),
    screenshotCount: 0,
    contextPresent: false,
    createdAt: 1_700_000_000_000 + k.id,
    translations,
  };
}

/** Tolgee's cursor: base64 of the sort columns' last values (CursorUtil). */
const encodeCursor = (keyId: number) => Buffer.from(JSON.stringify({ keyId: { direction: 'ASC', value: String(keyId) } })).toString('base64');
const decodeCursor = (cursor: string) => Number((JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { keyId: { value: string } }).keyId.value);

function glossaryTerms(fixture: ImportFixture) {
  return fixture.glossary.map((g, i) => {
    const nonTranslatable = Object.keys(g.translations).length === 0;
    return {
      id: 900 + i,
      description: g.notes ?? '',
      flagNonTranslatable: nonTranslatable,
      flagCaseSensitive: false,
      flagAbbreviation: false,
      flagForbiddenTerm: g.forbidden,
      translations: [{ languageTag: fixture.sourceLocale, text: g.term }, ...Object.entries(g.translations).map(([languageTag, text]) => ({ languageTag, text }))],
    };
  });
}

const escapeXml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The shared TM's export, as TmxExporter writes it. */
function tolgeeTmx(fixture: ImportFixture): string {
  const bySource = new Map<string, { locale: string; text: string }[]>();
  for (const m of fixture.memory) bySource.set(m.source, [...(bySource.get(m.source) ?? []), { locale: m.locale, text: m.text }]);
  const tuv = (lang: string, text: string) => `\n      <tuv xml:lang="${lang}"><seg>${escapeXml(text)}</seg></tuv>`;
  let body = '';
  let tuid = 1;
  for (const [source, targets] of bySource) body += `\n    <tu tuid="${tuid++}">${tuv(fixture.sourceLocale, source)}${targets.map((t) => tuv(t.locale, t.text)).join('')}\n    </tu>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="Tolgee" creationtoolversion="1.0" datatype="PlainText" segtype="sentence" srclang="${fixture.sourceLocale}"/>\n  <body>${body}\n  </body>\n</tmx>`;
}

/** The glossary's CSV export: base-language term, flags as Yes/No, then the other languages in tag order. */
function tolgeeGlossaryCsv(fixture: ImportFixture): string {
  const languages = [...new Set(fixture.glossary.flatMap((g) => Object.keys(g.translations)))].sort();
  const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
  const yes = (b: boolean) => (b ? 'Yes' : 'No');
  const rows = [['term', 'description', 'translatable', 'casesensitive', 'abbreviation', 'forbidden', ...languages]];
  for (const g of fixture.glossary) {
    const nonTranslatable = Object.keys(g.translations).length === 0;
    rows.push([g.term, g.notes ?? '', yes(!nonTranslatable), 'No', 'No', yes(g.forbidden), ...languages.map((l) => (nonTranslatable ? g.term : (g.translations[l] ?? '')))]);
  }
  return rows.map((r) => r.map(quote).join(',')).join('\n') + '\n';
}

/** Nests dotted keys as Tolgee's JSON export does with its default structureDelimiter '.'. */
function nested(values: [string, string][]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of values) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = value;
  }
  return root;
}

/**
 * The zip of Tolgee's export (format JSON, default template, so `<languageTag>.json` without namespaces), with the
 * shared TM's TMX export and the glossary's CSV export added beside it as a person moving away would.
 */
export function tolgeeArchive(fixture: ImportFixture): Uint8Array {
  const project = tolgeeProject(fixture);
  const encoder = new TextEncoder();
  const files: Record<string, Uint8Array> = {};
  for (const l of project.languages) {
    const values: [string, string][] = [];
    for (const k of project.keys) {
      const t = project.texts.get(k.id)!.get(l.tag);
      if (t) values.push([k.key, t.text]);
    }
    files[`${l.tag}.json`] = encoder.encode(JSON.stringify(nested(values), null, 2));
  }
  files['tm-Parlance_memory.tmx'] = encoder.encode(tolgeeTmx(fixture));
  files['glossary-Parlance terms.csv'] = encoder.encode(tolgeeGlossaryCsv(fixture));
  return zipSync(files);
}

export async function startTolgeeMock(fixture: ImportFixture, options: TolgeeMockOptions = {}): Promise<TolgeeMock> {
  const project = tolgeeProject(fixture);
  const terms = glossaryTerms(fixture);
  const tmx = tolgeeTmx(fixture);
  const token = `${options.tokenKind === 'pak' ? 'tgpak_' : 'tgpat_'}mock${Math.random().toString(36).slice(2, 12)}`;
  const requests: TolgeeRequest[] = [];
  let rateLimited = 0;
  let retryAfter = 1000;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: string, params: unknown[] | null = null) => json(res, status, { code, params });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const apiKey = req.headers['x-api-key'] as string | undefined;
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, apiKey });
    if (rateLimited > 0) {
      rateLimited--;
      return json(res, 429, { message: 'rate_limited', retryAfter, global: false });
    }
    if (apiKey !== token) return error(res, 401, apiKey?.startsWith('tgpat_') ? 'invalid_pat' : 'invalid_project_api_key');
    const projectPath = url.pathname.match(/^\/v2\/projects\/(\d+)(\/.*)?$/);
    if (projectPath && Number(projectPath[1]) !== PROJECT_ID) return error(res, 404, 'project_not_found');
    const orgPath = url.pathname.match(/^\/v2\/organizations\/(\d+)(\/.*)$/);
    if (orgPath) {
      if (options.tokenKind === 'pak') return error(res, 403, 'pak_access_not_allowed');
      if (Number(orgPath[1]) !== ORGANIZATION_ID) return error(res, 404, 'organization_not_found');
    }
    const page = Number(url.searchParams.get('page') ?? 0);
    const size = Number(url.searchParams.get('size') ?? 20);
    const paged = <T>(items: T[], name: string) => {
      const slice = items.slice(page * size, page * size + size);
      return { ...(slice.length ? { _embedded: { [name]: slice } } : {}), page: { size, totalElements: items.length, totalPages: Math.ceil(items.length / size), number: page } };
    };
    const route = projectPath ? (projectPath[2] ?? '') : orgPath ? `org:${orgPath[2]}` : url.pathname;

    if (route === '') {
      return json(res, 200, {
        id: PROJECT_ID,
        name: 'Parlance fixture',
        slug: 'parlance-fixture',
        baseLanguage: languageModel(project.languages.find((l) => l.base)!),
        organizationOwner: { id: ORGANIZATION_ID, name: 'Parlance', slug: 'parlance', basePermissions: { scopes: [] } },
        useNamespaces: false,
        icuPlaceholders: true,
        public: false,
        suggestionsMode: 'DISABLED',
        translationProtection: 'NONE',
        useBranching: false,
        useQaChecks: false,
        computedPermission: { scopes: ['translations.view', 'keys.view'] },
      });
    }
    if (route === '/languages') return json(res, 200, paged(project.languages.map(languageModel), 'languages'));
    if (route === '/translations') {
      const tags = url.searchParams.getAll('languages').flatMap((l) => l.split(','));
      const unknown = tags.find((t) => !project.languages.some((l) => l.tag === t));
      if (unknown) return error(res, 400, 'language_not_found', [unknown]);
      const cursor = url.searchParams.get('cursor');
      const after = cursor ? decodeCursor(cursor) : 0;
      const slice = project.keys.filter((k) => KEY_ID_BASE + k.id > after).slice(0, size);
      const selected = tags.length > 0 ? tags : project.languages.map((l) => l.tag);
      return json(res, 200, {
        ...(slice.length ? { _embedded: { keys: slice.map((k) => keyModel(project, k, selected)) } } : {}),
        page: { size, totalElements: project.keys.length, totalPages: Math.ceil(project.keys.length / size), number: 0 },
        ...(slice.length ? { nextCursor: encodeCursor(KEY_ID_BASE + slice.at(-1)!.id) } : {}),
        selectedLanguages: project.languages.filter((l) => selected.includes(l.tag)).map(languageModel),
      });
    }
    if (route === '/glossaries') return json(res, 200, { _embedded: { glossaries: [{ id: GLOSSARY_ID, name: 'Parlance terms', baseLanguageTag: fixture.sourceLocale }] } });
    if (route === '/translation-memories') {
      const assignment = (id: number, name: string, type: 'PROJECT' | 'SHARED') => ({ translationMemoryId: id, translationMemoryName: name, sourceLanguageTag: fixture.sourceLocale, type, readAccess: true, writeAccess: type === 'PROJECT', writeOnlyReviewed: false, priority: 0, defaultPenalty: 0 });
      return json(res, 200, { _embedded: { translationMemoryAssignments: [assignment(PROJECT_TM_ID, 'Parlance fixture', 'PROJECT'), assignment(SHARED_TM_ID, 'Parlance memory', 'SHARED')] } });
    }
    if (route === `org:/glossaries/${GLOSSARY_ID}/termsWithTranslations`) return json(res, 200, paged(terms, 'glossaryTerms'));
    if (route === `org:/translation-memories/${SHARED_TM_ID}/export`) {
      res.writeHead(200, { 'content-type': 'application/xml;charset=UTF-8', 'content-disposition': 'attachment; filename="tm-Parlance_memory.tmx"' });
      return void res.end(tmx);
    }
    return error(res, 404, 'resource_not_found');
  }

  const holds = createRequestHolds();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => void holds.pass(req, res, new URL(req.url ?? '/', 'http://127.0.0.1')).then((answering) => answering && handle(req, res)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    projectId: String(PROJECT_ID),
    requests,
    rateLimitNext(count = 1, retryAfterMs = 1000) {
      rateLimited = count;
      retryAfter = retryAfterMs;
    },
    hold: holds.hold,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
