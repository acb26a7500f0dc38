/**
 * A local Prismic repository: the Content (Document) API and the Migration API on one loopback server, holding
 * documents in memory, in Prismic's own shapes.
 *
 * Sources: prismic.io/docs/content-api (repository endpoint `/api/v2` with `refs` `{id, ref, label, isMasterRef}` and
 * `languages`; `/api/v2/documents/search?ref=…&lang=*&pageSize=…&page=…&q=[[…]]`, answers `{page, results_per_page,
 * results_size, total_pages, total_results_size, next_page, prev_page, results}`; documents `{id, uid, type, lang, tags,
 * alternate_languages:[{id, uid, type, lang}], first_publication_date, last_publication_date, data}`; `access_token` as
 * a query parameter for private repositories), prismic.io/docs/migration-api-technical-reference (POST
 * https://migration.prismic.io/documents with headers `repository`, `Authorization: Bearer <write token>`,
 * `x-api-key`; body `{title, type, uid, lang, alternate_language_id, tags, data}`, answer `{id, type, lang, title,
 * uid}`; PUT /documents/{id} `{title, uid, tags, data}`; pages created as drafts in a migration release; one request
 * per second per repository), prismic.io/docs/webhooks (payload fields `type`, `secret`, `masterRef`, `releases`,
 * `domain`, `apiUrl`, `documents`; types `api-update` and `test-trigger`), @prismicio/client's `Repository` and
 * `Language` types (`languages: [{id, name, is_master}]`) and migration `PostDocumentParams`/`PostDocumentResult`,
 * and Rich Text blocks `{type: 'heading1' | 'paragraph' | …, text, spans}`.
 *
 * Guessed (not in the pages read): the migration release appearing among `refs` with a label starting "Migration" and
 * readable by the Content API; the exact error bodies (`{type: 'api_security_error', message: 'Invalid access token'}`
 * for the Content API, `{message: 'Unauthorized'}` / `{message: 'Too Many Requests'}` for the Migration API); a 429
 * with Retry-After from both APIs; the Migration API refusing (400) a second translation in one language of a document.
 * Only the `any`, `at` and `in` predicates on `document.type` and `document.id` are understood.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface PrismicRequest extends MockRequest {
  headers: Record<string, string | undefined>;
}

type Data = Record<string, unknown>;

export interface MockDocument {
  id: string;
  uid: string | null;
  type: string;
  lang: string;
  /** The master-language document this one translates (undefined for a master-language document). */
  master?: string;
  tags: string[];
  /** The published version (what the master ref shows); null until published. */
  published: Data | null;
  /** The draft in the migration release (what the release ref shows over the published one). */
  draft: Data | null;
  title: string;
}

export interface PrismicMockOptions {
  /** The most documents a page holds, whatever `pageSize` asks (Prismic's own maximum is 100). */
  maxPageSize?: number;
  /** Languages; the first is the master language. */
  languages?: string[];
  /** Migration API writes closer together than this are answered 429 (Prismic: about one a second). */
  minWriteIntervalMs?: number;
}

export interface PrismicMock extends RecordingServer<PrismicRequest> {
  repository: string;
  accessToken: string;
  writeToken: string;
  apiKey: string;
  documents: Map<string, MockDocument>;
  /** The next `count` requests answer 429 with `Retry-After: seconds`. */
  rateLimitNext(seconds: number, count?: number): void;
  /** A person edits a SEED document's title in a language in the Prismic app and publishes it. */
  edit(id: string, lang: string, text: string): void;
  /** What a language's version of a SEED document holds in `field` now (its draft, else its published version). */
  held(id: string, lang: string, field?: string): unknown;
  /** The translation document of a SEED document in a language. */
  translationOf(id: string, lang: string): MockDocument | undefined;
  /** Prismic's webhook payload after a publish, with the secret configured on the webhook. */
  webhook(secret: string, type?: string): { headers: Record<string, string>; body: string };
}

const REPOSITORY = 'parlance-shop';
const ACCESS_TOKEN = 'MC5aUGxhcmxhbmNlQUFBQUFBQUFB.77-9bW9jay1hY2Nlc3M';
const WRITE_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.d3JpdGUtdG9rZW4.bW9jaw';
const API_KEY = 'cSaZlfkQlF9C6CEAM2Del6MNX9WonlV86HPbeEJL';
const STAMP = '2026-11-20T09:12:44+0000';
const TEXT_BLOCKS = new Set(['heading1', 'heading2', 'heading3', 'heading4', 'heading5', 'heading6', 'paragraph', 'preformatted', 'list-item', 'o-list-item']);

const newId = () => randomBytes(12).toString('base64url').slice(0, 16);
const newRef = () => randomBytes(12).toString('base64url').slice(0, 16);
const heading = (text: string) => [{ type: 'heading1', text, spans: [] }];

/** The text of a Title field (its first block), or a Key Text value. */
export const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) ? ((value[0] as { text?: string } | undefined)?.text ?? undefined) : undefined);

export async function startPrismicMock(options: PrismicMockOptions = {}): Promise<PrismicMock> {
  const maxPageSize = options.maxPageSize ?? 100;
  const languages = options.languages ?? ['en-us', 'de-de', 'fr-fr'];
  const master = languages[0]!;
  const documents = new Map<string, MockDocument>();
  for (const { id, source } of SEED) {
    documents.set(id, { id, uid: id, type: 'page', lang: master, tags: ['shop'], published: { title: heading(source), code: id }, draft: null, title: source });
  }
  let masterRef = newRef();
  let releaseRef = newRef();
  let lastWrite = 0;
  const rateLimit = new Armed<number>();

  const visible = (doc: MockDocument, release: boolean): Data | null => (release ? (doc.draft ?? doc.published) : doc.published);
  const family = (doc: MockDocument) => {
    const root = doc.master ?? doc.id;
    return [...documents.values()].filter((d) => d.id === root || d.master === root);
  };
  const docJson = (doc: MockDocument, data: Data, release: boolean) => ({
    id: doc.id,
    uid: doc.uid,
    url: null,
    type: doc.type,
    href: `http://127.0.0.1/api/v2/documents/search?ref=${release ? releaseRef : masterRef}&q=%5B%5B%3Ad+%3D+at%28document.id%2C+%22${doc.id}%22%29+%5D%5D`,
    tags: doc.tags,
    first_publication_date: doc.published ? STAMP : null,
    last_publication_date: doc.published ? STAMP : null,
    slugs: [],
    linked_documents: [],
    lang: doc.lang,
    alternate_languages: family(doc)
      .filter((d) => d.id !== doc.id && visible(d, release) !== null)
      .map((d) => ({ id: d.id, uid: d.uid, type: d.type, lang: d.lang })),
    data,
  });

  /** `[[any(document.type,["page"])]]`, `[[at(document.type,"page")]]`, `[[in(document.id,["a","b"])]]`. */
  function predicate(q: string | null): ((doc: MockDocument) => boolean) | string {
    if (q === null) return () => true;
    const match = /^\[\[(at|any|in)\((document\.type|document\.id),\s*(.+)\)\]\]$/.exec(q.trim());
    if (!match) return `Unexpected query '${q}'`;
    const [, op, path, raw] = match;
    let values: string[];
    try {
      const parsed = JSON.parse(raw!) as unknown;
      values = Array.isArray(parsed) ? parsed.map(String) : [String(parsed)];
    } catch {
      return `Invalid value in '${q}'`;
    }
    if (op === 'at' && values.length !== 1) return `at() takes one value in '${q}'`;
    return (doc) => values.includes(path === 'document.type' ? doc.type : doc.id);
  }

  function contentApi(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (url.searchParams.get('access_token') !== ACCESS_TOKEN) {
      return sendJson(res, 401, { type: 'api_security_error', message: 'Invalid access token', oauth_initiate: `https://${REPOSITORY}.prismic.io/auth`, oauth_token: `https://${REPOSITORY}.prismic.io/auth/token` });
    }
    if (url.pathname === '/api/v2') {
      return sendJson(res, 200, {
        refs: [
          { id: 'master', ref: masterRef, label: 'Master', isMasterRef: true },
          { id: 'ZmigrationRelease', ref: releaseRef, label: 'Migration release' },
        ],
        integrationFieldsRef: null,
        bookmarks: {},
        types: { page: 'Page' },
        languages: languages.map((id, i) => ({ id, name: id, is_master: i === 0 })),
        tags: ['shop'],
        forms: {},
        oauth_initiate: `https://${REPOSITORY}.prismic.io/auth`,
        oauth_token: `https://${REPOSITORY}.prismic.io/auth/token`,
        version: 'mock',
        license: 'All Rights Reserved',
      });
    }
    if (url.pathname !== '/api/v2/documents/search') return sendJson(res, 404, { type: 'api_notfound_error', message: `No route ${url.pathname}` });
    const ref = url.searchParams.get('ref');
    if (ref !== masterRef && ref !== releaseRef) return sendJson(res, 404, { type: 'api_notfound_error', message: `Ref not found. Ensure you have the correct ref and try again. Master ref is: ${masterRef}` });
    const release = ref === releaseRef;
    const filter = predicate(url.searchParams.get('q'));
    if (typeof filter === 'string') return sendJson(res, 400, { type: 'parsing-error', message: filter });
    const lang = url.searchParams.get('lang') ?? master;
    const all = [...documents.values()].filter((d) => visible(d, release) !== null && (lang === '*' || d.lang === lang) && filter(d));
    const pageSize = Math.min(Number(url.searchParams.get('pageSize') ?? 20), maxPageSize);
    const page = Number(url.searchParams.get('page') ?? 1);
    const results = all.slice((page - 1) * pageSize, page * pageSize).map((d) => docJson(d, visible(d, release)!, release));
    const totalPages = Math.max(1, Math.ceil(all.length / pageSize));
    const link = (p: number) => { const next = new URL(url); next.searchParams.set('page', String(p)); return next.toString(); };
    return sendJson(res, 200, { page, results_per_page: pageSize, results_size: results.length, total_results_size: all.length, total_pages: totalPages, next_page: page < totalPages ? link(page + 1) : null, prev_page: page > 1 ? link(page - 1) : null, results, version: 'mock', license: 'All Rights Reserved' });
  }

  /** Rich Text blocks the Migration API takes: an array of `{type, text, spans}` for a text block. */
  function invalidData(data: unknown): string | undefined {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'data must be an object';
    for (const [field, value] of Object.entries(data)) {
      if (!Array.isArray(value)) continue;
      for (const block of value as { type?: unknown; text?: unknown; spans?: unknown }[]) {
        if (typeof block.type === 'string' && TEXT_BLOCKS.has(block.type) && (typeof block.text !== 'string' || !Array.isArray(block.spans))) return `data.${field}: a ${block.type} block needs text and spans`;
      }
    }
    return undefined;
  }

  function migrationApi(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    if (req.headers.authorization !== `Bearer ${WRITE_TOKEN}` || req.headers['x-api-key'] !== API_KEY) return sendJson(res, 401, { message: 'Unauthorized' });
    if (req.headers.repository !== REPOSITORY) return sendJson(res, 400, { message: `Missing or unknown repository header: ${req.headers.repository ?? '(none)'}` });
    if (options.minWriteIntervalMs && Date.now() - lastWrite < options.minWriteIntervalMs) return sendJson(res, 429, { message: 'Too Many Requests' }, { 'retry-after': '1' });
    lastWrite = Date.now();
    const body = sent as { title?: unknown; type?: unknown; uid?: unknown; lang?: unknown; alternate_language_id?: unknown; tags?: unknown; data?: unknown };
    if (typeof body !== 'object' || body === null) return sendJson(res, 400, { message: 'Invalid JSON body' });
    const problem = invalidData(body.data);
    if (problem) return sendJson(res, 400, { message: problem });
    if (typeof body.title !== 'string' || body.title === '') return sendJson(res, 400, { message: 'title is required' });
    const id = /^\/migration\/documents(?:\/([^/]+))?$/.exec(url.pathname)?.[1];
    if (req.method === 'POST' && url.pathname === '/migration/documents') {
      if (typeof body.type !== 'string' || typeof body.lang !== 'string') return sendJson(res, 400, { message: 'type and lang are required' });
      if (!languages.includes(body.lang)) return sendJson(res, 400, { message: `Language ${body.lang} is not configured in the repository` });
      let masterId: string | undefined;
      if (body.alternate_language_id !== undefined) {
        const masterDoc = documents.get(String(body.alternate_language_id));
        if (!masterDoc || masterDoc.lang !== master) return sendJson(res, 400, { message: `alternate_language_id ${String(body.alternate_language_id)} is not a document in the master language` });
        if (family(masterDoc).some((d) => d.lang === body.lang)) return sendJson(res, 400, { message: `Document ${masterDoc.id} already has a ${body.lang} translation` });
        masterId = masterDoc.id;
      }
      const doc: MockDocument = { id: newId(), uid: typeof body.uid === 'string' ? body.uid : null, type: body.type, lang: body.lang, ...(masterId ? { master: masterId } : {}), tags: Array.isArray(body.tags) ? body.tags.map(String) : [], published: null, draft: body.data as Data, title: body.title };
      documents.set(doc.id, doc);
      releaseRef = newRef();
      return sendJson(res, 201, { id: doc.id, type: doc.type, lang: doc.lang, title: doc.title, uid: doc.uid });
    }
    if (req.method === 'PUT' && id) {
      const doc = documents.get(id);
      if (!doc) return sendJson(res, 404, { message: `Document ${id} not found` });
      doc.draft = body.data as Data;
      doc.title = body.title;
      if (Array.isArray(body.tags)) doc.tags = body.tags.map(String);
      releaseRef = newRef();
      return sendJson(res, 200, { id: doc.id, type: doc.type, lang: doc.lang, title: doc.title, uid: doc.uid });
    }
    return sendJson(res, 405, { message: `Method ${req.method} not allowed on ${url.pathname}` });
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) return sendJson(res, 429, { message: 'Too Many Requests' }, { 'retry-after': String(seconds) });
    if (url.pathname.startsWith('/migration/')) return migrationApi(req, res, url, sent);
    return contentApi(req, res, url);
  }

  const server = await serveRecording(handle, {
    extra: (req) => ({ headers: { authorization: req.headers.authorization, 'x-api-key': req.headers['x-api-key'] as string | undefined, repository: req.headers.repository as string | undefined } }),
    internalError: (res, error) => sendJson(res, 500, { message: `Internal Server Error: ${String(error)}` }),
  });

  const translationOf = (id: string, lang: string) => [...documents.values()].find((d) => d.master === id && d.lang === lang);

  return {
    ...server,
    repository: REPOSITORY,
    accessToken: ACCESS_TOKEN,
    writeToken: WRITE_TOKEN,
    apiKey: API_KEY,
    documents,
    rateLimitNext: (seconds, count = 1) => rateLimit.arm(seconds, count),
    translationOf,
    held(id, lang, field = 'title') {
      const doc = lang === master ? documents.get(id) : translationOf(id, lang);
      const data = doc ? (doc.draft ?? doc.published) : null;
      return data?.[field];
    },
    edit(id, lang, text) {
      const source = documents.get(id);
      if (!source) throw new Error(`no document ${id}`);
      let doc = lang === master ? source : translationOf(id, lang);
      if (!doc) {
        doc = { id: newId(), uid: source.uid, type: source.type, lang, master: id, tags: source.tags, published: null, draft: null, title: text };
        documents.set(doc.id, doc);
      }
      // Edited in the app and published: the draft (if any) is what the person started from.
      doc.published = { ...(doc.draft ?? doc.published ?? source.published), title: heading(text) };
      doc.draft = null;
      masterRef = newRef();
      releaseRef = newRef();
    },
    webhook(secret, type = 'api-update') {
      const body = JSON.stringify({ type, masterRef, releases: {}, masks: {}, tags: {}, experiments: {}, documents: [...documents.keys()].slice(0, 1), domain: REPOSITORY, apiUrl: `https://${REPOSITORY}.prismic.io/api`, secret });
      return { headers: { 'content-type': 'application/json' }, body };
    },
  };
}

/** The acceptance kit's fixture: the SEED strings as `page` documents whose Title field `title` holds them in en-us. */
export async function prismicFixture(): Promise<RemoteFixture> {
  const mock = await startPrismicMock();
  const lang = (locale: string) => ({ en: 'en-us', de: 'de-de', fr: 'fr-fr' })[locale] ?? locale;
  return cmsFixture({
    connector: 'prismic',
    settings: { repository: mock.repository, api_url: `${mock.url}/api/v2`, migration_url: `${mock.url}/migration`, fields: ['title'], write_interval_ms: 0 },
    secrets: { access_token: mock.accessToken, write_token: mock.writeToken, migration_api_key: mock.apiKey },
    badSecrets: { access_token: 'MC5revoked-access-token', write_token: 'revoked-write-token', migration_api_key: mock.apiKey },
    edit: (id, locale, text) => mock.edit(id, lang(locale), text),
    held: (id, locale) => textOf(mock.held(id, lang(locale))),
    sourceCount: () => [...mock.documents.values()].filter((d) => d.master === undefined).length,
    webhook: (_id, secret) => mock.webhook(secret),
    server: mock,
  });
}
