/**
 * A local Sanity HTTP API (Content Lake) holding one dataset in memory, answering the requests the Sanity connector
 * sends, in Sanity's own shapes.
 *
 * Shapes taken from: sanity.io/docs/http-reference/query (`GET /vX/data/query/<dataset>?query=…&$param=<JSON>`,
 * answered `{ms, query, result}`), /http-reference/doc (`GET /vX/data/doc/<dataset>/<ids>` answered `{documents,
 * omitted}`), /http-reference/mutation (`{mutations:[{patch:{id, ifRevisionID, set}}]}` answered `{transactionId,
 * results:[{id, operation}]}`); error bodies as sanity-io/client's src/http/errors.ts reads them: gateway errors
 * `{statusCode, error, message}` (401 "Unauthorized"), Content Lake errors `{error:{description, type}}`, mutation
 * errors `{error:{type:'mutationError', description, items:[{error:{type:'documentRevisionIDDoesNotMatchError',
 * currentRevisionID, expectedRevisionID}}]}}` with 409; webhooks from sanity.io/docs/webhooks (body = the document
 * when no projection is set; headers sanity-operation, sanity-document-id, sanity-project-id, sanity-dataset,
 * sanity-transaction-id, idempotency-key) signed as sanity-io/webhook-toolkit src/signature.ts signs
 * (`t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<body>">`). The 429's `retry-after` and `x-ratelimit-*-second` headers are
 * the gateway's as seen in clients' reports, not from Sanity's reference.
 *
 * The mock understands exactly the connector's listing query and answers 400 with a query error for any other, so a
 * changed query shows up here. `maxResults` caps a page below the query's `[0...$limit]`, standing in
 * for a dataset larger than one page.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson as send } from './loopback.js';

export type SanityRequest = MockRequest;

type Doc = { _id: string; _rev: string; _type: string; _createdAt: string; _updatedAt: string } & Record<string, unknown>;

export interface SanityMockOptions {
  maxResults?: number;
}

export interface SanityMock extends RecordingServer<SanityRequest> {
  token: string;
  projectId: string;
  dataset: string;
  documents: Map<string, Doc>;
  /** The next request answers 429 with `retry-after: <seconds>`. */
  rateLimitNext(seconds: number): void;
  /** Runs `change` once, just before the next mutation is applied (a person editing between our read and our patch). */
  beforeNextMutation(change: () => void): void;
  /** A person edits a locale of a document's `title` in the Studio and publishes: new value, new `_rev`. */
  edit(id: string, language: string, text: string): void;
  /** The GROQ-powered webhook Sanity sends for the document (no projection: the whole document), signed with `secret`. */
  webhook(id: string, secret: string, signedAt?: number): { headers: Record<string, string>; body: string };
}

const TOKEN = 'skQ3v8x2mpEditorTokenForParlanceTests0123456789abcdef';
const PROJECT = 'q3v8x2mp';
const DATASET = 'production';
const DOC_TYPE = 'article';
const STAMP = '2026-11-20T09:12:44Z';

/** The one query the mock understands, written out here (not imported) so that a change to the connector's shows. */
const LIST_QUERY = '*[_type in $types && !(_id in path("drafts.**")) && _id > $after] | order(_id) [0...$limit]';

/** As @sanity/webhook's encodeSignatureHeader: `t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<payload>">`. */
const sign = (payload: string, timestamp: number, secret: string) => `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('base64url')}`;

const newRev = () => randomBytes(16).toString('base64url').slice(0, 22);

/** Sets a dotted path (`title.de`) in a document, creating objects on the way, as a Sanity `set` patch does. */
function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let target = doc;
  for (const part of parts.slice(0, -1)) {
    if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
    target = target[part] as Record<string, unknown>;
  }
  target[parts.at(-1)!] = value;
}

export async function startSanityMock(options: SanityMockOptions = {}): Promise<SanityMock> {
  const documents = new Map<string, Doc>();
  for (const { id, source } of SEED) {
    documents.set(id, { _id: id, _rev: newRev(), _type: DOC_TYPE, _createdAt: STAMP, _updatedAt: STAMP, title: { _type: 'localeString', en: source }, slug: { _type: 'slug', current: id } });
  }
  // A draft and a document of another type: neither is listed.
  documents.set('drafts.welcome', { ...documents.get('welcome')!, _id: 'drafts.welcome', title: { _type: 'localeString', en: 'Welcome (draft)' } });
  documents.set('settings', { _id: 'settings', _rev: newRev(), _type: 'siteSettings', _createdAt: STAMP, _updatedAt: STAMP, title: { _type: 'localeString', en: 'Store settings' } });
  const rateLimit = new Armed<number>();
  const beforeMutation = new Armed<() => void>();

  function query(url: URL, res: ServerResponse): void {
    const text = url.searchParams.get('query') ?? '';
    if (text !== LIST_QUERY) return send(res, 400, { error: { description: 'unknown query for this mock', query: text, start: 0, end: text.length, type: 'queryParseError' } });
    const param = (name: string) => JSON.parse(url.searchParams.get(`$${name}`) ?? 'null') as unknown;
    const types = param('types') as string[];
    const after = param('after') as string;
    const limit = Math.min(param('limit') as number, options.maxResults ?? Infinity);
    const result = [...documents.values()]
      .filter((d) => types.includes(d._type) && !d._id.startsWith('drafts.') && d._id > after)
      .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
      .slice(0, limit);
    send(res, 200, { query: text, result, syncTags: [`s1:${randomBytes(4).toString('base64url')}`], ms: 3 });
  }

  function mutate(sent: unknown, res: ServerResponse): void {
    const body = sent as { mutations: { patch?: { id: string; ifRevisionID?: string; set?: Record<string, unknown> } }[] };
    beforeMutation.take()?.();
    const results: { id: string; operation: string }[] = [];
    // A transaction is all or nothing: check every patch before applying any.
    for (const [index, { patch }] of body.mutations.entries()) {
      if (!patch) return send(res, 400, { error: { description: 'The mock applies only patch mutations', type: 'mutationError' } });
      const doc = documents.get(patch.id);
      if (!doc) return send(res, 409, { error: { description: `The mutation(s) failed: Document "${patch.id}" not found`, items: [{ index, error: { id: patch.id, type: 'documentNotFoundError', description: `Document "${patch.id}" not found` } }], type: 'mutationError' } });
      if (patch.ifRevisionID !== undefined && patch.ifRevisionID !== doc._rev) {
        const description = `Document "${patch.id}" has unexpected revision ID ("${doc._rev}"), expected "${patch.ifRevisionID}"`;
        return send(res, 409, { error: { description: `The mutation(s) failed: ${description}`, items: [{ index, error: { currentRevisionID: doc._rev, expectedRevisionID: patch.ifRevisionID, type: 'documentRevisionIDDoesNotMatchError', description } }], type: 'mutationError' } });
      }
    }
    const transactionId = newRev();
    for (const { patch } of body.mutations) {
      const doc = documents.get(patch!.id)!;
      for (const [path, value] of Object.entries(patch!.set ?? {})) setPath(doc, path, value);
      doc._rev = transactionId;
      doc._updatedAt = new Date().toISOString();
      results.push({ id: doc._id, operation: 'update' });
    }
    send(res, 200, { transactionId, results });
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) {
      return send(res, 429, { statusCode: 429, error: 'Too Many Requests', message: 'API rate limit exceeded' }, { 'retry-after': String(seconds), 'x-ratelimit-limit-second': '25', 'x-ratelimit-remaining-second': '0' });
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Session not found. Error code: SIO-401-ANF' });
    const match = /^\/(v\d{4}-\d{2}-\d{2})\/data\/(query|doc|mutate)\/([^/]+)(?:\/([^/]+))?$/.exec(url.pathname);
    if (!match) return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'Not Found' });
    const [, , endpoint, dataset, ids] = match;
    if (dataset !== DATASET) return send(res, 404, { error: { description: `Dataset "${dataset}" not found for project ID "${PROJECT}"`, type: 'httpError' }, statusCode: 404 });
    if (endpoint === 'query' && req.method === 'GET') return query(url, res);
    if (endpoint === 'doc' && req.method === 'GET') {
      const wanted = decodeURIComponent(ids ?? '').split(',');
      return send(res, 200, { documents: wanted.flatMap((id) => (documents.has(id) ? [documents.get(id)!] : [])), omitted: wanted.filter((id) => !documents.has(id)).map((id) => ({ id, reason: 'existence' })) });
    }
    if (endpoint === 'mutate' && req.method === 'POST') return mutate(body, res);
    return send(res, 405, { statusCode: 405, error: 'Method Not Allowed', message: `${req.method} not allowed` });
  }

  const server = await serveRecording(handle, { internalError: (res, error) => send(res, 500, { statusCode: 500, error: 'Internal Server Error', message: String(error) }) });

  return {
    ...server,
    token: TOKEN,
    projectId: PROJECT,
    dataset: DATASET,
    documents,
    rateLimitNext: (seconds) => rateLimit.arm(seconds),
    beforeNextMutation: (change) => beforeMutation.arm(change),
    edit(id, language, text) {
      const doc = documents.get(id);
      if (!doc) throw new Error(`no document ${id}`);
      setPath(doc, `title.${language}`, text);
      doc._rev = newRev();
      doc._updatedAt = new Date().toISOString();
    },
    webhook(id, secret, signedAt = Date.now()) {
      const doc = documents.get(id);
      if (!doc) throw new Error(`no document ${id}`);
      const body = JSON.stringify(doc);
      return {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Sanity.io webhook delivery',
          'sanity-webhook-signature': sign(body, signedAt, secret),
          'sanity-operation': 'update',
          'sanity-document-id': id,
          'sanity-project-id': PROJECT,
          'sanity-dataset': DATASET,
          'sanity-transaction-id': doc._rev,
          'sanity-transaction-time': doc._updatedAt,
          'idempotency-key': randomUUID(),
        },
        body,
      };
    },
  };
}

/** The acceptance kit's fixture: the SEED strings as `article` documents whose `title` localeString holds them in `en`. */
export async function sanityFixture(): Promise<RemoteFixture> {
  const mock = await startSanityMock();
  const title = (id: string) => mock.documents.get(id)?.title as Record<string, unknown> | undefined;
  return cmsFixture({
    connector: 'sanity',
    settings: { project_id: mock.projectId, dataset: mock.dataset, api_host: mock.url, document_types: ['article'], fields: ['title'], languages: ['en', 'de', 'fr'] },
    secrets: { token: mock.token },
    badSecrets: { token: 'skRevokedToken000000000000000000000000' },
    edit: (id, locale, text) => mock.edit(id, locale, text),
    held: (id, locale) => title(id)?.[locale],
    sourceCount: () => SEED.filter(({ id }) => typeof title(id)?.en === 'string').length,
    webhook: (id, secret) => mock.webhook(id, secret),
    server: mock,
  });
}
