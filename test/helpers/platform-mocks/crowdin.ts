/**
 * A local Crowdin API v2 serving the import fixture in Crowdin's own shapes and ids, and the zip a Crowdin project build
 * gives (with the source files, the TM as TMX and the glossary as TBX beside it), for the Crowdin importer's tests.
 *
 * Shapes taken from: crowdin/crowdin-api-client-js (src/core/index.ts: the `{ data: [{ data }], pagination }` list
 * envelope, the `{ error: { code, message } }` and `{ errors: [{ error: { key, errors } }] }` error bodies, the Status
 * of asynchronous exports; src/projectsGroups, src/languages, src/sourceFiles, src/sourceStrings, src/labels,
 * src/stringTranslations (language translations, plural translations by `pluralForm`, approvals), src/translationMemory
 * and src/glossaries (export → status → download link), src/translations (BuildRequest.skipUntranslatedStrings));
 * Crowdin's API overview (asynchronous operations in three calls; at most 500 items a page); code-dot-org/code-dot-org
 * PR #57011 (Crowdin's 429 is its nginx's HTML page, with no rate-limit headers); the TBX-Basic administrative
 * statuses (ISO 30042) for Crowdin's term statuses; S3's refusal of a pre-signed URL sent with an Authorization header.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { zipSync } from 'fflate';
import { getCodec, type PluralForms, type Value } from '../../../src/core/formats/index.js';
import { escapeXmlAttribute, escapeXmlText } from '../../../src/core/formats/xml-scan.js';
import type { FixtureKey, ImportFixture } from '../import-fixture.js';

export interface CrowdinMockOptions {
  token?: string;
  projectId?: number;
  /** How many status checks of an export answer 'inProgress' before 'finished' (default 1). */
  exportPolls?: number;
  /**
   * A test knob, not Crowdin's behaviour (Crowdin refuses a limit above 500): pages hold at most this many items and
   * `pagination.limit` says so, to make the fixture span several pages as a large project does.
   */
  pageSize?: number;
}

export interface CrowdinMock {
  /** The API root, as `ApiSource.baseUrl` takes it (`…/api/v2`). */
  url: string;
  token: string;
  projectId: string;
  /** `METHOD path?query` of every request, in order (the download links included). */
  requests: string[];
  /** The next `count` API requests answer 429 as Crowdin's edge does; `retryAfter` adds a Retry-After header (seconds). */
  failNext429(count?: number, options?: { retryAfter?: number }): void;
  stop(): Promise<void>;
}

const PROJECT_ID = 428571;
const FILE_IDS: Record<string, number> = { 'locales/en.json': 2, 'app/src/main/res/values/strings.xml': 4 };
const TM = { id: 7, name: 'Parlance Demo TM' };
const GLOSSARY = { id: 3, name: 'Parlance Demo Glossary' };
const USER = { id: 12, username: 'maria', fullName: 'Maria Example', avatarUrl: '' };
const CREATED = '2024-05-14T09:30:00+00:00';

/** Crowdin's language records for the fixture's locales (GET /languages). */
const LANGUAGES: Record<string, Record<string, unknown>> = {
  en: { id: 'en', name: 'English', editorCode: 'en', twoLettersCode: 'en', threeLettersCode: 'eng', locale: 'en-US', androidCode: 'en-rUS', osxCode: 'en.lproj', osxLocale: 'en', pluralCategoryNames: ['one', 'other'], textDirection: 'ltr', dialectOf: null },
  de: { id: 'de', name: 'German', editorCode: 'de', twoLettersCode: 'de', threeLettersCode: 'deu', locale: 'de-DE', androidCode: 'de-rDE', osxCode: 'de.lproj', osxLocale: 'de', pluralCategoryNames: ['one', 'other'], textDirection: 'ltr', dialectOf: null },
  ar: { id: 'ar', name: 'Arabic', editorCode: 'ar', twoLettersCode: 'ar', threeLettersCode: 'ara', locale: 'ar-SA', androidCode: 'ar-rSA', osxCode: 'ar.lproj', osxLocale: 'ar', pluralCategoryNames: ['zero', 'one', 'two', 'few', 'many', 'other'], textDirection: 'rtl', dialectOf: null },
  'pt-BR': { id: 'pt-BR', name: 'Portuguese, Brazilian', editorCode: 'ptbr', twoLettersCode: 'pt', threeLettersCode: 'por', locale: 'pt-BR', androidCode: 'pt-rBR', osxCode: 'pt-BR.lproj', osxLocale: 'pt-BR', pluralCategoryNames: ['one', 'other'], textDirection: 'ltr', dialectOf: 'pt-PT' },
};

const stringId = (k: FixtureKey) => 8000 + k.id;
/** One id per translation, and per plural form of it, as Crowdin stores each form as a translation of its own. */
const translationId = (keyId: number, locale: string, form = 0) => 1_000_000 + keyId * 100 + Object.keys(LANGUAGES).indexOf(locale) * 10 + form;

function labelIds(fixture: ImportFixture): Map<string, number> {
  const titles = [...new Set(fixture.keys.flatMap((k) => k.tags))].sort();
  return new Map(titles.map((t, i) => [t, i + 1]));
}

function crowdinString(fixture: ImportFixture, k: FixtureKey, labels: Map<string, number>) {
  return {
    id: stringId(k),
    projectId: PROJECT_ID,
    branchId: null,
    identifier: k.key,
    text: k.plurals ? { ...k.plurals } : k.source,
    type: k.plurals ? 'plural' : 'text',
    // Crowdin has one free-text context per string: what its parsers take from the file's comments, or a person writes.
    context: k.notes ?? k.context ?? '',
    maxLength: k.maxLength ?? 0,
    isHidden: false,
    isDuplicate: false,
    masterStringId: null,
    hasPlurals: k.plurals !== undefined,
    isIcu: false,
    labelIds: k.tags.map((t) => labels.get(t)!),
    webUrl: `https://crowdin.com/editor/parlance-demo/${FILE_IDS[k.path]}/en-de?view=comfortable#${stringId(k)}`,
    createdAt: CREATED,
    updatedAt: CREATED,
    fileId: FILE_IDS[k.path]!,
    directoryId: null,
    revision: 1,
    fields: {},
  };
}

function languageTranslation(fixture: ImportFixture, t: ImportFixture['translations'][number]) {
  const k = fixture.keys[t.keyId - 1]!;
  if (t.plurals) {
    return {
      stringId: stringId(k),
      contentType: 'application/vnd.crowdin.text+plural',
      plurals: Object.entries(t.plurals).map(([form, text], i) => ({ translationId: translationId(t.keyId, t.locale, i), text, pluralForm: form, user: USER, createdAt: CREATED })),
    };
  }
  return { stringId: stringId(k), contentType: 'text/plain', translationId: translationId(t.keyId, t.locale), text: t.text, user: USER, createdAt: CREATED };
}

function approvals(fixture: ImportFixture, fileId: number, locale: string) {
  let id = 500_000;
  return fixture.translations
    .filter((t) => t.reviewed && t.locale === locale && FILE_IDS[fixture.keys[t.keyId - 1]!.path] === fileId)
    .flatMap((t) => (t.plurals ? Object.keys(t.plurals).map((_, i) => translationId(t.keyId, t.locale, i)) : [translationId(t.keyId, t.locale)]).map((tid) => ({ tid, t })))
    .map(({ tid, t }) => ({ id: ++id, user: USER, translationId: tid, stringId: stringId(fixture.keys[t.keyId - 1]!), languageId: locale, createdAt: CREATED }));
}

/** The TM as Crowdin's 'tmx' export writes it: one unit per source segment, a variant per language. */
export function crowdinTmx(fixture: ImportFixture): string {
  const bySource = new Map<string, { locale: string; text: string }[]>();
  for (const m of fixture.memory) bySource.set(m.source, [...(bySource.get(m.source) ?? []), m]);
  const tuv = (locale: string, text: string) => `      <tuv xml:lang="${escapeXmlAttribute(locale, '"')}">\n        <seg>${escapeXmlText(text)}</seg>\n      </tuv>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  <header creationtool="Crowdin" creationtoolversion="1.0" datatype="plaintext" segtype="sentence" adminlang="en" srclang="${fixture.sourceLocale}" o-tmf="Crowdin"/>`,
    '  <body>',
    ...[...bySource].map(([source, targets], i) => [`    <tu tuid="${i + 1}" creationdate="20240514T093000Z">`, tuv(fixture.sourceLocale, source), ...targets.map((t) => tuv(t.locale, t.text)), '    </tu>'].join('\n')),
    '  </body>',
    '</tmx>',
    '',
  ].join('\n');
}

/** The glossary as Crowdin's 'tbx' (TBX v2, TBX-Basic) export writes it; a 'not recommended' term is deprecatedTerm-admn-sts. */
export function crowdinTbx(fixture: ImportFixture): string {
  const tig = (text: string, status: string, description?: string) =>
    [
      '          <tig>',
      `            <term>${escapeXmlText(text)}</term>`,
      ...(description ? [`            <descrip type="definition">${escapeXmlText(description)}</descrip>`] : []),
      '            <termNote type="partOfSpeech">noun</termNote>',
      `            <termNote type="administrativeStatus">${status}</termNote>`,
      '          </tig>',
    ].join('\n');
  const entries = fixture.glossary.map((g, i) =>
    [
      `      <termEntry id="${i + 1}">`,
      `        <langSet xml:lang="${fixture.sourceLocale}">`,
      tig(g.term, g.forbidden ? 'deprecatedTerm-admn-sts' : 'preferredTerm-admn-sts', g.notes),
      '        </langSet>',
      ...Object.entries(g.translations).map(([locale, text]) => [`        <langSet xml:lang="${escapeXmlAttribute(locale, '"')}">`, tig(text, 'admittedTerm-admn-sts'), '        </langSet>'].join('\n')),
      '      </termEntry>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<martif type="TBX-Basic" xml:lang="${fixture.sourceLocale}">`,
    '  <martifHeader>',
    '    <fileDesc>',
    `      <sourceDesc><p>${GLOSSARY.name}</p></sourceDesc>`,
    '    </fileDesc>',
    '  </martifHeader>',
    '  <text>',
    '    <body>',
    ...entries,
    '    </body>',
    '  </text>',
    '</martif>',
    '',
  ].join('\n');
}

/** The source files as the repository holds them (and `crowdin download sources` writes them). */
function sourceFiles(fixture: ImportFixture): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const file of fixture.files) {
    const keys = fixture.keys.filter((k) => k.path === file.path);
    const entries = keys.map((k) => ({ key: k.key, value: (k.plurals ? { plurals: k.plurals } : k.source) as Value, ...(k.notes ? { notes: k.notes } : {}) }));
    out.set(file.path, getCodec(file.format)!.renderFresh(entries, { locale: fixture.sourceLocale }));
  }
  return out;
}

/**
 * The zip of a Crowdin project build with the project's default layout (no export pattern: each language in a folder
 * named by its Crowdin language id, the source hierarchy kept under it, e.g. `pt-BR/locales/en.json`), built with
 * 'Skip untranslated strings' on; the source files at their own paths, the TM as TMX and the glossary as TBX beside it.
 */
export function crowdinArchive(fixture: ImportFixture): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const sources = sourceFiles(fixture);
  const encoder = new TextEncoder();
  for (const file of fixture.files) {
    const source = sources.get(file.path)!;
    files[file.path] = source;
    for (const locale of fixture.targetLocales) {
      const values = new Map<string, Value>();
      for (const t of fixture.translations) {
        const k = fixture.keys[t.keyId - 1]!;
        if (t.locale === locale && k.path === file.path) values.set(k.key, t.plurals ? { plurals: t.plurals as PluralForms } : t.text);
      }
      files[`${locale}/${file.path}`] = getCodec(file.format)!.render({ source, values, missing: 'omit', locale, sourceLocale: fixture.sourceLocale });
    }
  }
  files[`${TM.name}.tmx`] = encoder.encode(crowdinTmx(fixture));
  files[`${GLOSSARY.name}.tbx`] = encoder.encode(crowdinTbx(fixture));
  return zipSync(files);
}

const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const crowdinError = (code: number, message: string) => json(code, { error: { code, message } });
const validationError = (key: string, code: string, message: string) => json(400, { errors: [{ error: { key, errors: [{ code, message }] } }] });
const listPage = (items: unknown[], offset: number, limit: number) => json(200, { data: items.slice(offset, offset + limit).map((data) => ({ data })), pagination: { offset, limit } });

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export async function startCrowdinMock(fixture: ImportFixture, options: CrowdinMockOptions = {}): Promise<CrowdinMock> {
  const token = options.token ?? 'crowdin-personal-token-5f2a';
  const projectId = options.projectId ?? PROJECT_ID;
  const labels = labelIds(fixture);
  const strings = fixture.keys.map((k) => crowdinString(fixture, k, labels));
  const translations = fixture.translations.map((t) => ({ t, row: languageTranslation(fixture, t), fileId: FILE_IDS[fixture.keys[t.keyId - 1]!.path]! })).sort((a, b) => a.row.stringId - b.row.stringId);
  const exports = new Map<string, { polls: number; file: Uint8Array; extension: string; attributes: Record<string, unknown> }>();
  const downloads = new Map<string, Uint8Array>();
  const requests: string[] = [];
  let throttled = 0;
  let retryAfter: number | undefined;
  let origin = '';

  const project = {
    id: projectId,
    type: 0,
    userId: USER.id,
    sourceLanguageId: fixture.sourceLocale,
    targetLanguageIds: [...fixture.targetLocales],
    languageAccessPolicy: 'moderate',
    name: 'Parlance Demo',
    identifier: 'parlance-demo',
    description: '',
    visibility: 'private',
    logo: '',
    publicDownloads: false,
    createdAt: CREATED,
    updatedAt: CREATED,
    lastActivity: CREATED,
    sourceLanguage: LANGUAGES[fixture.sourceLocale],
    targetLanguages: fixture.targetLocales.map((l) => LANGUAGES[l]),
    webUrl: 'https://crowdin.com/project/parlance-demo',
    fields: {},
  };
  const files = fixture.files.map((f) => ({
    id: FILE_IDS[f.path]!,
    projectId,
    branchId: null,
    directoryId: null,
    name: f.path.slice(f.path.lastIndexOf('/') + 1),
    title: null,
    context: null,
    type: f.format === 'android_xml' ? 'android' : 'json',
    path: `/${f.path}`,
    status: 'active',
    revisionId: 1,
    priority: 'normal',
    excludedTargetLanguages: null,
    parserVersion: 1,
    createdAt: CREATED,
    updatedAt: CREATED,
    fields: {},
  }));
  const resource = (r: { id: number; name: string }, extra: Record<string, unknown>) => ({
    id: r.id,
    groupId: 0,
    userId: USER.id,
    name: r.name,
    languageId: fixture.sourceLocale,
    languageIds: [fixture.sourceLocale, ...fixture.targetLocales],
    defaultProjectIds: [projectId],
    projectIds: [projectId],
    createdAt: CREATED,
    webUrl: `https://crowdin.com/resources#${r.id}`,
    ...extra,
  });
  // An account's TMs and glossaries include some of other projects: the importer takes only its project's.
  const tms = [resource(TM, { segmentsCount: fixture.memory.length / 2 }), { ...resource({ id: 9, name: 'Other project TM' }, { segmentsCount: 3 }), defaultProjectIds: [99], projectIds: [99] }];
  const glossaries = [{ ...resource({ id: 1, name: 'Other project glossary' }, { terms: 2 }), defaultProjectIds: [99], projectIds: [99] }, resource(GLOSSARY, { terms: fixture.glossary.length })];

  function status(id: string, entry: { polls: number; attributes: Record<string, unknown> }, finished: boolean) {
    return { identifier: id, status: finished ? 'finished' : entry.polls === 0 ? 'created' : 'inProgress', progress: finished ? 100 : 40, attributes: entry.attributes, createdAt: CREATED, updatedAt: CREATED, startedAt: CREATED, finishedAt: finished ? CREATED : null, eta: finished ? '0 seconds' : '1 second' };
  }

  function exportRoutes(method: string, rest: string, base: string, file: () => Uint8Array, extension: string, body: string): Reply | undefined {
    if (method === 'POST' && rest === '/exports') {
      const request = (body ? JSON.parse(body) : {}) as { format?: string };
      if (request.format !== undefined && request.format !== extension) return validationError('format', 'notInArray', `The input '${request.format}' was not found in the haystack (this mock exports ${extension})`);
      const id = randomUUID();
      const entry = { polls: 0, file: file(), extension, attributes: { format: extension, ...(base.startsWith('/glossaries') ? { exportFields: [] } : { sourceLanguageId: null, targetLanguageId: null }) } };
      exports.set(id, entry);
      return json(202, { data: status(id, entry, false) });
    }
    const m = /^\/exports\/([0-9a-f-]+)(\/download)?$/.exec(rest);
    if (method !== 'GET' || !m) return undefined;
    const entry = exports.get(m[1]!);
    if (!entry) return crowdinError(404, 'Export Not Found');
    if (!m[2]) {
      const finished = entry.polls >= (options.exportPolls ?? 1);
      entry.polls++;
      return json(200, { data: status(m[1]!, entry, finished) });
    }
    if (entry.polls <= (options.exportPolls ?? 1)) return crowdinError(404, 'Export Not Found');
    const object = `${randomUUID()}.${entry.extension}`;
    downloads.set(object, entry.file);
    return json(200, { data: { url: `${origin}/crowdin-exports/${object}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=60&X-Amz-Signature=5e1f`, expireIn: '2024-05-14T09:31:00+00:00' } });
  }

  function route(method: string, url: URL, headers: IncomingMessage['headers'], body: string): Reply {
    // The download link: pre-signed object storage, which refuses a request that carries a second credential.
    const object = /^\/crowdin-exports\/([^/]+)$/.exec(url.pathname);
    if (object) {
      if (headers.authorization) {
        return { status: 400, headers: { 'content-type': 'application/xml' }, body: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidArgument</Code><Message>Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified</Message></Error>' };
      }
      const file = downloads.get(object[1]!);
      return file ? { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: file } : { status: 404, headers: { 'content-type': 'application/xml' }, body: '<Error><Code>NoSuchKey</Code></Error>' };
    }
    if (!url.pathname.startsWith('/api/v2/')) return crowdinError(404, 'Not Found');
    if (throttled > 0) {
      throttled--;
      return { status: 429, headers: { 'content-type': 'text/html', ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}) }, body: '<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n' };
    }
    if (headers.authorization !== `Bearer ${token}`) return crowdinError(401, 'Unauthorized');
    const path = url.pathname.slice('/api/v2'.length);
    const q = url.searchParams;
    const limit = Number(q.get('limit') ?? 25);
    const offset = Number(q.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) return validationError('limit', 'lessThan', `The input is not less or equal than '500'`);
    const list = (items: unknown[], offset: number, limit: number) => listPage(items, offset, Math.min(limit, options.pageSize ?? 500));

    if (path.startsWith('/tms') || path.startsWith('/glossaries')) {
      if (method === 'GET' && path === '/tms') return list(tms, offset, limit);
      if (method === 'GET' && path === '/glossaries') return list(glossaries, offset, limit);
      const tm = new RegExp(`^/tms/${TM.id}(/.*)$`).exec(path);
      if (tm) return exportRoutes(method, tm[1]!, path, () => new TextEncoder().encode(crowdinTmx(fixture)), 'tmx', body) ?? crowdinError(404, 'Not Found');
      const glossary = new RegExp(`^/glossaries/${GLOSSARY.id}(/.*)$`).exec(path);
      if (glossary) return exportRoutes(method, glossary[1]!, path, () => new TextEncoder().encode(crowdinTbx(fixture)), 'tbx', body) ?? crowdinError(404, 'Not Found');
      return crowdinError(404, path.startsWith('/tms') ? 'Translation Memory Not Found' : 'Glossary Not Found');
    }
    const p = /^\/projects\/(\d+)(\/.*)?$/.exec(path);
    if (!p || method !== 'GET') return crowdinError(404, 'Not Found');
    if (Number(p[1]) !== projectId) return crowdinError(404, 'Project Not Found');
    const rest = p[2] ?? '';
    const fileId = q.get('fileId') === null ? undefined : Number(q.get('fileId'));
    if (rest === '') return json(200, { data: project });
    if (rest === '/files') return list(files, offset, limit);
    if (rest === '/labels') return list([...labels].map(([title, id]) => ({ id, title, isSystem: false })), offset, limit);
    if (rest === '/strings') return list(strings.filter((s) => fileId === undefined || s.fileId === fileId), offset, limit);
    if (rest === '/approvals') {
      const languageId = q.get('languageId');
      if (fileId !== undefined && !languageId) return validationError('languageId', 'isEmpty', 'Value is required and can\'t be empty');
      if (fileId === undefined || !languageId) return validationError('stringId', 'isEmpty', 'One of stringId, fileId or labelIds is required');
      return list(approvals(fixture, fileId, languageId), offset, limit);
    }
    const lt = /^\/languages\/([^/]+)\/translations$/.exec(rest);
    if (lt) {
      const locale = decodeURIComponent(lt[1]!);
      if (!project.targetLanguageIds.includes(locale)) return crowdinError(404, 'Language Not Found');
      return list(
        translations.filter((x) => x.t.locale === locale && (fileId === undefined || x.fileId === fileId)).map((x) => x.row),
        offset,
        limit,
      );
    }
    return crowdinError(404, 'Not Found');
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', origin);
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      let reply: Reply;
      try {
        reply = route(req.method ?? 'GET', url, req.headers, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        reply = crowdinError(500, String(error));
      }
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api/v2`,
    token,
    projectId: String(projectId),
    requests,
    failNext429(count = 1, opts = {}) {
      throttled = count;
      retryAfter = opts.retryAfter;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
