/**
 * A local GitLab REST API v4 over an in-memory git repository (branches → commits with parents → trees of files),
 * answering in GitLab's own shapes, for the GitLab connector's tests; plus the repository model, the loopback server
 * and the kit fixture operations that the Gitea mock reuses.
 *
 * Shapes taken from GitLab's API reference (gitlabhq/gitlabhq doc/api): branches.md (GET …/repository/branches/:branch,
 * `{"message":"404 Branch Not Found"}`), repositories.md (GET …/repository/tree with `recursive`, `ref`, `per_page`,
 * `page`, entries `{id, name, type, path, mode}`, the X-Page/X-Next-Page/X-Total headers of rest/index.md),
 * repository_files.md (GET …/files/:file_path/raw, `{"message":"404 File Not Found"}`; HEAD …/files/:file_path with
 * X-Gitlab-Last-Commit-Id), commits.md (POST …/repository/commits with `branch`, `commit_message`, `start_sha`,
 * `actions[] {action, file_path, content, encoding, last_commit_id}`, 400 `{"message":"A file with this name already
 * exists"}` and "The file has changed since you started editing it: <path>" (Files::MultiService); POST
 * /projects/:id/statuses/:sha with `state` pending|running|success|failed|canceled, `name`, `target_url`,
 * `description`), merge_requests.md (list by `state`,
 * `source_branch`, `target_branch`; create; PUT …/merge_requests/:iid), notes.md (POST …/merge_requests/:iid/notes),
 * rest/index.md (401 `{"message":"401 Unauthorized"}`, 404 `{"message":"404 Project Not Found"}`), rate limits
 * (security/rate_limits.md: 429 with RateLimit-Limit, RateLimit-Observed, RateLimit-Remaining, RateLimit-Reset,
 * RateLimit-ResetTime and Retry-After, body "Retry later"), and user/project/integrations/webhook_events.md (the push
 * event payload, `X-Gitlab-Event: Push Hook`) with webhooks.md (`X-Gitlab-Token` carries the secret token as is).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SEED, type RemoteFixture } from '../connector-kit.js';

// ---------------------------------------------------------------------------------------------------------------
// The repository model, shared by the code-host mocks.

export interface Person {
  name: string;
  email: string;
  username: string;
}

export const PARLANCE_BOT: Person = { name: 'Parlance', email: 'parlance@example.com', username: 'parlance-bot' };
export const MARIA: Person = { name: 'Maria Example', email: 'maria@example.com', username: 'maria' };

export interface StoredCommit {
  id: string;
  parents: string[];
  files: Map<string, Uint8Array>;
  message: string;
  author: Person;
  timestamp: string;
}

/** A branch moving from one commit to another (`before` null when the branch was created). */
export interface BranchMove {
  branch: string;
  before: string | null;
  after: string;
}

/** Git's blob id: SHA-1 of `blob <size>\0<bytes>`, so the mocks' blob shas are the ones git computes. */
export function blobSha(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
}

export class GitStore {
  readonly commits = new Map<string, StoredCommit>();
  readonly branches = new Map<string, string>();
  readonly moves: BranchMove[] = [];
  private clock = Date.parse('2026-03-02T09:00:00Z');

  constructor(files: Record<string, string>, base = 'main') {
    const tree = new Map(Object.entries(files).map(([path, text]) => [path, new TextEncoder().encode(text)]));
    const root = this.store([], tree, 'Initial commit', MARIA);
    this.setBranch(base, root);
  }

  head(branch: string): string | undefined {
    return this.branches.get(branch);
  }

  commit(id: string): StoredCommit | undefined {
    return this.commits.get(id) ?? [...this.commits.values()].find((c) => id.length >= 7 && c.id.startsWith(id));
  }

  /** A commit id or a branch name, as GitLab's and Gitea's `ref` parameters take either. */
  resolve(ref: string): StoredCommit | undefined {
    const branch = this.branches.get(ref);
    return branch ? this.commits.get(branch) : this.commit(ref);
  }

  file(ref: string, path: string): Uint8Array | undefined {
    return this.resolve(ref)?.files.get(path);
  }

  /**
   * A new commit whose parent is `from` (default: the branch's head), and the branch moved to it. `changes` maps a
   * path to its new bytes.
   */
  commitTo(branch: string, changes: Map<string, Uint8Array>, message: string, author: Person, from?: string): StoredCommit {
    const parentId = from ?? this.branches.get(branch);
    if (!parentId) throw new Error(`GitStore: no branch '${branch}' and no start commit`);
    const parent = this.commits.get(parentId)!;
    const files = new Map(parent.files);
    for (const [path, content] of changes) files.set(path, content);
    const created = this.store([parentId], files, message, author);
    this.setBranch(branch, created);
    return created;
  }

  /** The commit that last changed `path` as of `ref`, following first parents (GitLab's `last_commit_id`). */
  lastChange(ref: string, path: string): string | undefined {
    const start = this.resolve(ref);
    if (!start?.files.has(path)) return undefined;
    let commit: StoredCommit = start;
    for (;;) {
      const parent: StoredCommit | undefined = commit.parents[0] ? this.commits.get(commit.parents[0]) : undefined;
      const before = parent?.files.get(path);
      if (!parent || !before || !Buffer.from(before).equals(Buffer.from(commit.files.get(path)!))) return commit.id;
      commit = parent;
    }
  }

  /** Every branch move whose new head does not have the old head as its parent: a rewritten (force-pushed) branch. */
  rewrites(): BranchMove[] {
    return this.moves.filter((move) => move.before !== null && !this.commits.get(move.after)!.parents.includes(move.before));
  }

  /** The files under `prefix` a tree listing shows, directories included, sorted as git sorts paths. */
  treeEntries(ref: string): { path: string; type: 'blob' | 'tree'; sha: string; size: number }[] {
    const commit = this.resolve(ref);
    if (!commit) return [];
    const entries = new Map<string, { path: string; type: 'blob' | 'tree'; sha: string; size: number }>();
    for (const [path, content] of commit.files) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        if (!entries.has(dir)) entries.set(dir, { path: dir, type: 'tree', sha: createHash('sha1').update(`tree ${dir}`).digest('hex'), size: 0 });
      }
      entries.set(path, { path, type: 'blob', sha: blobSha(content), size: content.byteLength });
    }
    return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private store(parents: string[], files: Map<string, Uint8Array>, message: string, author: Person): StoredCommit {
    this.clock += 60_000;
    const timestamp = new Date(this.clock).toISOString().replace('.000Z', 'Z');
    const hash = createHash('sha1').update(`${parents.join(',')}\n${message}\n${timestamp}\n${this.commits.size}`);
    for (const [path, content] of [...files].sort()) hash.update(`${path}\0${blobSha(content)}\n`);
    const commit: StoredCommit = { id: hash.digest('hex'), parents, files, message, author, timestamp };
    this.commits.set(commit.id, commit);
    return commit;
  }

  private setBranch(branch: string, commit: StoredCommit): void {
    this.moves.push({ branch, before: this.branches.get(branch) ?? null, after: commit.id });
    this.branches.set(branch, commit.id);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The kit's repository: parlance.yml, the English source file with SEED, and the operations RemoteFixture asks for.

export const SOURCE_PATH = 'locales/en.json';
export const PARLANCE_YML = "files:\n  - source: 'locales/en.json'\n    translation: 'locales/{locale}.json'\nlocales: [de, fr]\n";

/** The kit's repository files, plus `extra` files (to make tree listings span pages). */
export function seedFiles(extra = 0): Record<string, string> {
  const files: Record<string, string> = {
    'parlance.yml': PARLANCE_YML,
    [SOURCE_PATH]: `${JSON.stringify(Object.fromEntries(SEED.map((s) => [s.id, s.source])), null, 2)}\n`,
    'README.md': '# Shop\n',
  };
  for (let i = 0; i < extra; i++) files[`src/components/c${String(i).padStart(3, '0')}.ts`] = `export const c${i} = ${i};\n`;
  return files;
}

function readJson(bytes: Uint8Array | undefined): Record<string, string> | undefined {
  if (!bytes) return undefined;
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, string>;
}

function writeJson(value: Record<string, string>): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

/** setSource, translation, editTranslation and sourceCount over a GitStore, as a person using git would. */
export function repositoryOperations(store: GitStore, base = 'main') {
  const branch = `parlance/${base}`;
  return {
    async setSource(id: string, text: string) {
      const source = readJson(store.file(base, SOURCE_PATH)) ?? {};
      source[id] = text;
      store.commitTo(base, new Map([[SOURCE_PATH, writeJson(source)]]), `Reword '${id}'`, MARIA);
    },
    async translation(id: string, locale: string) {
      const ref = store.head(branch) ? branch : base;
      return readJson(store.file(ref, `locales/${locale}.json`))?.[id];
    },
    async editTranslation(id: string, locale: string, text: string) {
      const path = `locales/${locale}.json`;
      if (!store.head(branch)) throw new Error(`editTranslation: no branch '${branch}' yet; Parlance has not written anything`);
      const file = readJson(store.file(branch, path)) ?? {};
      file[id] = text;
      store.commitTo(branch, new Map([[path, writeJson(file)]]), `Better ${locale} wording for '${id}'`, MARIA);
    },
    async sourceCount() {
      return Object.keys(readJson(store.file(base, SOURCE_PATH)) ?? {}).length;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A loopback HTTP server that can stop and come back on the same port.

export interface RecordedRequest {
  method: string;
  /** The path as sent (percent-encoding kept), without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  status: number;
}

export interface LoopbackServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A mock's answer: a string or bytes are sent as text, anything else as JSON. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Handler = (request: Omit<RecordedRequest, 'status'>) => Answer;

export async function serveOnLoopback(handle: Handler, record: (request: RecordedRequest) => void): Promise<LoopbackServer> {
  let server: Server | undefined;
  let port = 0;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request = { method: req.method ?? 'GET', path: raw.pathname, query: raw.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      let answer: ReturnType<Handler>;
      try {
        answer = handle(request);
      } catch (error) {
        answer = { status: 500, body: { message: `500 Internal Server Error: ${error instanceof Error ? error.message : String(error)}` } };
      }
      record({ ...request, status: answer.status });
      const bytes = answer.body === undefined ? undefined : typeof answer.body === 'string' || answer.body instanceof Uint8Array ? answer.body : JSON.stringify(answer.body);
      const type = answer.body === undefined || typeof answer.body === 'string' || answer.body instanceof Uint8Array ? 'text/plain; charset=utf-8' : 'application/json';
      res.writeHead(answer.status, { 'Content-Type': type, ...answer.headers });
      res.end(bytes);
    });
  };
  async function start() {
    server = createServer(listener);
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }
  async function stop() {
    if (!server) return;
    const closing = server;
    server = undefined;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  }
  await start();
  return { url: `http://127.0.0.1:${port}`, start, stop, close: stop };
}

/** Splits a raw path into decoded segments, so `locales%2Fen.json` stays one segment as GitLab's router reads it. */
export function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '').map(decodeURIComponent);
}

// ---------------------------------------------------------------------------------------------------------------
// GitLab.

export interface GitlabMockOptions {
  token?: string;
  projectId?: number;
  projectPath?: string;
  /** Filler files in the repository, so the tree listing spans several pages of 100. */
  extraFiles?: number;
}

export interface GitlabMock extends LoopbackServer {
  /** The API root, as the connector's `api_url` takes it. */
  apiUrl: string;
  token: string;
  projectId: number;
  projectPath: string;
  store: GitStore;
  requests: RecordedRequest[];
  mergeRequests: { iid: number; source_branch: string; target_branch: string; title: string; description: string; state: 'opened' | 'merged' | 'closed'; notes: string[] }[];
  statuses: { sha: string; state: string; name: string; description: string | null; target_url: string | null }[];
  /** The next `count` API requests answer 429 as GitLab's rate limiter does, asking to wait `retryAfter` seconds. */
  failNext429(count?: number, retryAfter?: number): void;
  /** Runs `action` once, right after the first answered request that `match` picks (a person pushing mid-sync). */
  after(match: (request: RecordedRequest) => boolean, action: () => void): void;
  /** The push event GitLab sends for the last commit on `branch`, with the given secret token. */
  pushEvent(secret: string, branch?: string): { headers: Record<string, string>; body: string };
}

const GITLAB_USER = { id: 4, username: 'maria', name: 'Maria Example', state: 'active', avatar_url: null, web_url: 'https://gitlab.example.com/maria' };

export async function startGitlabMock(options: GitlabMockOptions = {}): Promise<GitlabMock> {
  const token = options.token ?? 'glpat-kit-0123456789abcdefghij';
  const projectId = options.projectId ?? 4815;
  const projectPath = options.projectPath ?? 'acme/shop';
  const store = new GitStore(seedFiles(options.extraFiles ?? 0));
  const requests: RecordedRequest[] = [];
  const mergeRequests: GitlabMock['mergeRequests'] = [];
  const statuses: GitlabMock['statuses'] = [];
  const hooks: { match: (r: RecordedRequest) => boolean; action: () => void }[] = [];
  let throttled = 0;
  let retryAfter = 1;
  let origin = '';

  const webUrl = () => `${origin}/${projectPath}`;
  const commitJson = (c: StoredCommit) => ({
    id: c.id,
    short_id: c.id.slice(0, 8),
    title: c.message.split('\n')[0],
    message: c.message,
    author_name: c.author.name,
    author_email: c.author.email,
    authored_date: c.timestamp,
    committer_name: c.author.name,
    committer_email: c.author.email,
    committed_date: c.timestamp,
    created_at: c.timestamp,
    parent_ids: c.parents,
    web_url: `${webUrl()}/-/commit/${c.id}`,
    trailers: {},
    extended_trailers: {},
  });
  const mrJson = (mr: GitlabMock['mergeRequests'][number]) => ({
    id: 9000 + mr.iid,
    iid: mr.iid,
    project_id: projectId,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    source_branch: mr.source_branch,
    target_branch: mr.target_branch,
    source_project_id: projectId,
    target_project_id: projectId,
    author: GITLAB_USER,
    draft: false,
    work_in_progress: false,
    merge_status: 'can_be_merged',
    detailed_merge_status: 'mergeable',
    sha: store.head(mr.source_branch) ?? null,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${projectPath}!${mr.iid}` },
    web_url: `${webUrl()}/-/merge_requests/${mr.iid}`,
  });
  const notFound = (what: string): Answer => ({ status: 404, body: { message: `404 ${what} Not Found` } });
  const badRequest = (message: string): Answer => ({ status: 400, body: { message } });

  function parseBody(body: string): Record<string, unknown> {
    return body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
  }

  const handle: Handler = (request): Answer => {
    if (throttled > 0) {
      throttled--;
      const reset = Math.ceil(Date.now() / 1000) + retryAfter;
      return {
        status: 429,
        headers: { 'RateLimit-Limit': '2000', 'RateLimit-Observed': '2001', 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(reset), 'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(), 'Retry-After': String(retryAfter) },
        body: 'Retry later\n',
      };
    }
    if (request.headers['private-token'] !== token) return { status: 401, body: { message: '401 Unauthorized' } };
    const parts = segments(request.path);
    if (parts[0] !== 'api' || parts[1] !== 'v4' || parts[2] !== 'projects') return { status: 404, body: { error: '404 Not Found' } };
    if (parts[3] !== String(projectId) && parts[3] !== projectPath) return notFound('Project');
    const rest = parts.slice(4);
    const route = `${request.method} ${rest[0] ?? ''}/${rest[1] ?? ''}`;
    const q = request.query;

    if (route === 'GET repository/branches' && rest.length === 3) {
      const head = store.head(rest[2]!);
      if (!head) return notFound('Branch');
      return { status: 200, body: { name: rest[2], merged: false, protected: rest[2] === 'main', default: rest[2] === 'main', developers_can_push: false, developers_can_merge: false, can_push: true, web_url: `${webUrl()}/-/tree/${rest[2]}`, commit: commitJson(store.commit(head)!) } };
    }
    if (route === 'GET repository/tree') {
      const ref = q.get('ref') ?? 'main';
      if (!store.resolve(ref)) return notFound('Tree');
      const all = q.get('recursive') === 'true' ? store.treeEntries(ref) : store.treeEntries(ref).filter((e) => !e.path.includes('/'));
      const perPage = Math.min(100, Number(q.get('per_page') ?? 20));
      const page = Number(q.get('page') ?? 1);
      const pages = Math.max(1, Math.ceil(all.length / perPage));
      const items = all.slice((page - 1) * perPage, page * perPage).map((e) => ({ id: e.sha, name: e.path.split('/').pop(), type: e.type, path: e.path, mode: e.type === 'tree' ? '040000' : '100644' }));
      const next = page < pages ? String(page + 1) : '';
      const link = (p: number, rel: string) => `<${origin}${request.path}?${new URLSearchParams({ ...Object.fromEntries(q), page: String(p) })}>; rel="${rel}"`;
      return {
        status: 200,
        headers: {
          'X-Page': String(page),
          'X-Per-Page': String(perPage),
          'X-Next-Page': next,
          'X-Prev-Page': page > 1 ? String(page - 1) : '',
          'X-Total': String(all.length),
          'X-Total-Pages': String(pages),
          Link: [...(next ? [link(page + 1, 'next')] : []), link(1, 'first'), link(pages, 'last')].join(', '),
        },
        body: items,
      };
    }
    if (request.method === 'GET' && rest[0] === 'repository' && rest[1] === 'files' && rest[3] === 'raw') {
      const content = store.file(q.get('ref') ?? 'main', rest[2]!);
      if (!content) return notFound('File');
      return { status: 200, headers: { 'X-Gitlab-File-Path': rest[2]!, 'X-Gitlab-Blob-Id': blobSha(content) }, body: content };
    }
    if ((request.method === 'HEAD' || request.method === 'GET') && rest[0] === 'repository' && rest[1] === 'files' && rest.length === 3) {
      const ref = q.get('ref');
      if (!ref) return { status: 400, body: { error: 'ref is missing' } };
      const content = store.file(ref, rest[2]!);
      if (!content) return notFound('File');
      const commit = store.resolve(ref)!;
      const meta = { file_name: rest[2]!.split('/').pop()!, file_path: rest[2]!, size: content.byteLength, encoding: 'base64', content_sha256: createHash('sha256').update(content).digest('hex'), ref, blob_id: blobSha(content), commit_id: commit.id, last_commit_id: store.lastChange(ref, rest[2]!)!, execute_filemode: false };
      const headers = { 'X-Gitlab-Blob-Id': meta.blob_id, 'X-Gitlab-Commit-Id': meta.commit_id, 'X-Gitlab-Content-Sha256': meta.content_sha256, 'X-Gitlab-Encoding': 'base64', 'X-Gitlab-File-Name': meta.file_name, 'X-Gitlab-File-Path': meta.file_path, 'X-Gitlab-Last-Commit-Id': meta.last_commit_id, 'X-Gitlab-Ref': ref, 'X-Gitlab-Size': String(meta.size), 'X-Gitlab-Execute-Filemode': 'false' };
      return { status: 200, headers, body: request.method === 'HEAD' ? undefined : { ...meta, content: Buffer.from(content).toString('base64') } };
    }
    if (route === 'POST repository/commits') return createCommit(parseBody(request.body));
    if (route === 'GET merge_requests/' || (request.method === 'GET' && rest[0] === 'merge_requests' && rest.length === 1)) {
      const found = mergeRequests.filter((mr) => (!q.get('state') || q.get('state') === 'all' || mr.state === q.get('state')) && (!q.get('source_branch') || mr.source_branch === q.get('source_branch')) && (!q.get('target_branch') || mr.target_branch === q.get('target_branch')));
      return { status: 200, headers: { 'X-Page': '1', 'X-Next-Page': '', 'X-Total': String(found.length), 'X-Total-Pages': '1' }, body: found.map(mrJson) };
    }
    if (request.method === 'POST' && rest[0] === 'merge_requests' && rest.length === 1) {
      const body = parseBody(request.body) as { source_branch?: string; target_branch?: string; title?: string; description?: string };
      if (!body.source_branch || !body.target_branch || !body.title) return { status: 400, body: { error: 'source_branch is missing, target_branch is missing, title is missing' } };
      if (!store.head(body.source_branch)) return badRequest('Source branch does not exist');
      const open = mergeRequests.find((mr) => mr.state === 'opened' && mr.source_branch === body.source_branch && mr.target_branch === body.target_branch);
      if (open) return { status: 409, body: { message: [`Another open merge request already exists for this source branch: !${open.iid}`] } };
      const mr = { iid: mergeRequests.length + 1, source_branch: body.source_branch, target_branch: body.target_branch, title: body.title, description: body.description ?? '', state: 'opened' as const, notes: [] };
      mergeRequests.push(mr);
      return { status: 201, body: mrJson(mr) };
    }
    if (rest[0] === 'merge_requests' && rest.length >= 2) {
      const mr = mergeRequests.find((m) => String(m.iid) === rest[1]);
      if (!mr) return notFound('Merge Request');
      const body = parseBody(request.body) as { title?: string; description?: string; body?: string };
      if (request.method === 'PUT' && rest.length === 2) {
        if (body.title !== undefined) mr.title = body.title;
        if (body.description !== undefined) mr.description = body.description;
        return { status: 200, body: mrJson(mr) };
      }
      if (request.method === 'POST' && rest[2] === 'notes') {
        if (!body.body) return { status: 400, body: { error: 'body is missing' } };
        mr.notes.push(body.body);
        return { status: 201, body: { id: 700 + mr.notes.length, type: null, body: body.body, author: GITLAB_USER, system: false, noteable_id: 9000 + mr.iid, noteable_type: 'MergeRequest', noteable_iid: mr.iid } };
      }
    }
    if (request.method === 'POST' && rest[0] === 'statuses' && rest.length === 2) {
      const body = { ...Object.fromEntries(q), ...parseBody(request.body) } as { state?: string; name?: string; context?: string; description?: string; target_url?: string };
      const commit = store.commit(rest[1]!);
      if (!commit) return notFound('Commit');
      if (!body.state || !['pending', 'running', 'success', 'failed', 'canceled', 'skipped'].includes(body.state)) return { status: 400, body: { error: 'state does not have a valid value' } };
      if ((body.description ?? '').length > 255) return badRequest('Failed to save commit status: description is too long (maximum is 255 characters)');
      const status = { sha: commit.id, state: body.state, name: body.name ?? body.context ?? 'default', description: body.description ?? null, target_url: body.target_url ?? null };
      statuses.push(status);
      return { status: 201, body: { id: statuses.length, sha: commit.id, ref: null, status: status.state, name: status.name, target_url: status.target_url, description: status.description, created_at: commit.timestamp, started_at: null, finished_at: commit.timestamp, allow_failure: false, coverage: null, author: GITLAB_USER } };
    }
    return { status: 404, body: { error: '404 Not Found' } };
  };

  function createCommit(body: Record<string, unknown>): Answer {
    const { branch, commit_message: message, start_sha: startSha, start_branch: startBranch, actions, force } = body as { branch?: string; commit_message?: string; start_sha?: string; start_branch?: string; actions?: { action: string; file_path: string; content?: string; encoding?: string; last_commit_id?: string }[]; force?: boolean };
    if (!branch || !message || !Array.isArray(actions)) return { status: 400, body: { error: 'branch is missing, commit_message is missing, actions is missing' } };
    if (force) return badRequest('The connector is never to force; this mock refuses `force` so a test sees it');
    const exists = store.head(branch) !== undefined;
    let from: string | undefined;
    if (startSha || startBranch) {
      if (exists) return badRequest(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
      from = startSha ? store.commit(startSha)?.id : store.head(startBranch!);
      if (!from) return badRequest(`Invalid start ${startSha ? 'sha' : 'branch'}`);
    } else if (!exists) {
      return badRequest('You can only create or edit files when you are on a branch');
    }
    const base = store.commits.get(from ?? store.head(branch)!)!;
    const changes = new Map<string, Uint8Array>();
    for (const action of actions) {
      const present = base.files.has(action.file_path);
      if (action.action === 'create' && present) return badRequest('A file with this name already exists');
      if (action.action === 'update' && !present) return badRequest("A file with this name doesn't exist");
      if (action.action === 'update' && action.last_commit_id && action.last_commit_id !== store.lastChange(base.id, action.file_path)) return badRequest(`The file has changed since you started editing it: ${action.file_path}`);
      if (action.action !== 'create' && action.action !== 'update') return badRequest(`This mock does not implement action '${action.action}'`);
      const content = action.content ?? '';
      changes.set(action.file_path, action.encoding === 'base64' ? new Uint8Array(Buffer.from(content, 'base64')) : new TextEncoder().encode(content));
    }
    const created = store.commitTo(branch, changes, message, PARLANCE_BOT, from);
    return { status: 201, body: { ...commitJson(created), stats: { additions: changes.size, deletions: 0, total: changes.size }, status: null, project_id: projectId, last_pipeline: null } };
  }

  const server = await serveOnLoopback(handle, (request) => {
    requests.push(request);
    const due = hooks.findIndex((hook) => hook.match(request));
    if (due >= 0) hooks.splice(due, 1)[0]!.action();
  });
  origin = server.url;

  return {
    ...server,
    apiUrl: `${server.url}/api/v4`,
    token,
    projectId,
    projectPath,
    store,
    requests,
    mergeRequests,
    statuses,
    failNext429(count = 1, wait = 1) {
      throttled = count;
      retryAfter = wait;
    },
    after(match, action) {
      hooks.push({ match, action });
    },
    pushEvent(secret, branch = 'main') {
      const head = store.commit(store.head(branch)!)!;
      const changed = head.parents[0] ? [...head.files.keys()].filter((p) => store.commits.get(head.parents[0]!)!.files.get(p) !== head.files.get(p)) : [...head.files.keys()];
      const project = { id: projectId, name: projectPath.split('/').pop(), description: '', web_url: webUrl(), avatar_url: null, git_ssh_url: `git@127.0.0.1:${projectPath}.git`, git_http_url: `${webUrl()}.git`, namespace: projectPath.split('/')[0], visibility_level: 0, path_with_namespace: projectPath, default_branch: 'main', homepage: webUrl(), url: `git@127.0.0.1:${projectPath}.git`, ssh_url: `git@127.0.0.1:${projectPath}.git`, http_url: `${webUrl()}.git` };
      const payload = {
        object_kind: 'push',
        event_name: 'push',
        before: head.parents[0] ?? '0000000000000000000000000000000000000000',
        after: head.id,
        ref: `refs/heads/${branch}`,
        ref_protected: branch === 'main',
        checkout_sha: head.id,
        user_id: GITLAB_USER.id,
        user_name: head.author.name,
        user_username: head.author.username,
        user_email: '',
        user_avatar: null,
        project_id: projectId,
        project,
        commits: [{ id: head.id, message: head.message, title: head.message.split('\n')[0], timestamp: head.timestamp, url: `${webUrl()}/-/commit/${head.id}`, author: { name: head.author.name, email: head.author.email }, added: [], modified: changed, removed: [] }],
        total_commits_count: 1,
        push_options: {},
        repository: { name: project.name, url: project.url, description: '', homepage: webUrl(), git_http_url: project.git_http_url, git_ssh_url: project.git_ssh_url, visibility_level: 0 },
      };
      return {
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'GitLab/18.6.0', 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': secret, 'X-Gitlab-Instance': origin, 'X-Gitlab-Webhook-UUID': randomUUID(), 'X-Gitlab-Event-UUID': randomUUID(), 'Idempotency-Key': randomUUID() },
        body: JSON.stringify(payload),
      };
    },
  };
}

/** The kit's RemoteFixture over the GitLab mock. */
export async function gitlabFixture(): Promise<RemoteFixture & { mock: GitlabMock }> {
  const mock = await startGitlabMock();
  return {
    mock,
    connector: 'gitlab',
    settings: { api_url: mock.apiUrl, project: mock.projectPath },
    secrets: { token: mock.token },
    badSecrets: { token: 'glpat-revoked-000000000000' },
    ...repositoryOperations(mock.store),
    webhook: (secret: string) => mock.pushEvent(secret),
    stop: () => mock.stop(),
    start: () => mock.start(),
    close: () => mock.close(),
  };
}
