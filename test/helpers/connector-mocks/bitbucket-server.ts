/**
 * A local Bitbucket Data Center / Server (REST API 1.0, Code Insights, build status) over the code hosts' in-memory git
 * repository (git-store.ts), answering in Bitbucket's own shapes, for the Bitbucket Data Center connector's tests.
 *
 * Shapes taken from Atlassian's OpenAPI document of Bitbucket Data Center (vendored in coderabbitai/bitbucket,
 * src/server/openapi/swagger.v3.json): paged answers `{ size, limit, isLastPage, start, nextPageStart, values }`;
 * Find branches (`filterText`, `boostMatches`; RestBranch `{ id: 'refs/heads/…', displayId, type, latestCommit,
 * latestChangeset, isDefault }`); Create branch (`{ name, startPoint }`); Get files in directory (values are paths);
 * Get raw content (`?at=`); Edit file (`PUT /browse/{path}`, multipart `content`, `message`, `branch`,
 * `sourceCommitId`, `sourceBranch`; 200 with the new RestCommit; 409 when the file exists and no sourceCommitId is
 * given, when the file changed since sourceCommitId, or when the content does not change it; 403 for a project or
 * repository token without a user); Get the common ancestor (`/commits/{id}/merge-base?otherCommitId=`, 204 when
 * there is none); pull requests (`at`, `direction`, `state`; `version` required on update, 409 when out of date);
 * Code Insights (PUT report: `title` and `data` required, `result` PASS|FAIL, at most 6 data fields; POST annotations
 * `{ annotations: [...] }` with `message` and `severity` required, at most 1000 per report and the whole request
 * refused past it, no de-duplication; DELETE annotations); build status (`state`, `key`, `url` mandatory, fields at
 * most 255 characters, url 450; 204); the error envelope `{ errors: [{ context, message, exceptionName }] }`. Webhooks:
 * confluence.atlassian.com/bitbucketserver/event-payload (X-Event-Key, X-Request-Id, X-Hub-Signature =
 * `sha256=` hex HMAC-SHA256 of the body; the repo:refs_changed and pr:merged payloads).
 *
 * Creating a branch whose name is over 100 characters once fully qualified answers 400 InvalidRefNameException "The ref
 * name, once fully qualified, is limited to 100 characters." (an instance's answer quoted in dependabot/dependabot-core#1450).
 *
 * Guesses (not confirmed in those sources): the exact wording of the error messages and their exceptionName values;
 * that creating an existing branch answers 409 (the branch-utils resource documents 400/409, the core one neither);
 * that the Edit file commit goes on the branch's head (not on sourceCommitId) once the file itself is unchanged; that
 * replacing a report keeps its annotations (the connector deletes them anyway); the 429 with Retry-After of the
 * instance's rate limiting; the webhook's User-Agent.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RemoteFixture } from '../connector-kit.js';
import { codeHostFixtureOps, GitStore, PARLANCE_BOT, seedFiles, type Person, type StoredCommit } from './git-store.js';
import { sendJson, serveOnLoopback } from './loopback.js';

export interface BitbucketServerMockOptions {
  projectKey?: string;
  repoSlug?: string;
  /** A personal HTTP access token: reads and writes. */
  token?: string;
  /** A repository access token without a user of its own: reads, but refused (403) by Edit file. */
  userlessToken?: string;
  /** A test knob: the most values a page holds, whatever `limit` asks (an instance's page.max settings). */
  pageSize?: number;
  /** Source files beyond the kit's, so that listings span several pages. */
  extraFiles?: Record<string, string>;
}

export interface ServerPullRequest {
  id: number;
  version: number;
  title: string;
  description: string;
  from: string;
  to: string;
  state: 'OPEN' | 'MERGED' | 'DECLINED';
}

export interface BitbucketServerMock {
  /** The instance's address, as the `base_url` setting takes it. */
  url: string;
  projectKey: string;
  repoSlug: string;
  token: string;
  git: GitStore;
  /** `METHOD path?query` of every request, in order. */
  requests: string[];
  pullRequests: ServerPullRequest[];
  /** Code Insights reports and their annotations, by `<commit>/<key>`. */
  reports: Map<string, Record<string, unknown>>;
  annotations: Map<string, Record<string, unknown>[]>;
  /** Build statuses, by `<commit>/<key>`. */
  statuses: Map<string, Record<string, unknown>>;
  /** The next `count` requests answer 429 as the instance's rate limiting does. */
  failNext429(count?: number): void;
  /** Runs once, just before the next Edit file request is handled (a person pushing in between). */
  beforeNextEdit(action: () => void): void;
  /** Runs once, before the first request whose `METHOD path?query` line `match` accepts is answered. */
  beforeRequest(match: (line: string) => boolean, action: () => void): void;
  /** The repo:refs_changed notification for the latest move of `branch`, signed with `secret`. */
  pushWebhook(secret: string, branch?: string): { headers: Record<string, string>; body: string };
  /** The pr:merged notification for pull request `id`, signed with `secret`. */
  mergedWebhook(secret: string, id: number): { headers: Record<string, string>; body: string };
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const error = (res: ServerResponse, status: number, message: string, exceptionName: string | null, headers: Record<string, string> = {}) =>
  sendJson(res, status, { errors: [{ context: null, message, exceptionName }] }, headers);

const user = (person: Person, id: number) => ({ name: person.username, emailAddress: person.email, id, displayName: person.name, active: true, slug: person.username, type: 'NORMAL' });

export async function startBitbucketServerMock(options: BitbucketServerMockOptions = {}): Promise<BitbucketServerMock> {
  const projectKey = options.projectKey ?? 'SHOP';
  const repoSlug = options.repoSlug ?? 'storefront';
  const token = options.token ?? 'BBDC-NjY0MTk2NjQ1NzQ2OkX2-personal-test-token';
  const git = new GitStore(seedFiles({ 'README.md': '# Storefront\n', 'src/app/index.ts': 'export {};\n', ...options.extraFiles }));
  const requests: string[] = [];
  const pullRequests: ServerPullRequest[] = [];
  const reports = new Map<string, Record<string, unknown>>();
  const annotations = new Map<string, Record<string, unknown>[]>();
  const statuses = new Map<string, Record<string, unknown>>();
  let fail429 = 0;
  let beforeEdit: (() => void) | undefined;
  let hook: { match: (line: string) => boolean; action: () => void } | undefined;
  let base = '';
  const repository = () => ({
    slug: repoSlug,
    id: 42,
    name: repoSlug,
    hierarchyId: 'e3c939f9ef4a7fae272e',
    scmId: 'git',
    state: 'AVAILABLE',
    statusMessage: 'Available',
    forkable: true,
    project: { key: projectKey, id: 7, name: 'Shop', public: false, type: 'NORMAL', links: { self: [{ href: `${base}/projects/${projectKey}` }] } },
    public: false,
    links: { self: [{ href: `${base}/projects/${projectKey}/repos/${repoSlug}/browse` }] },
  });

  const restCommit = (commit: StoredCommit) => {
    const millis = Date.parse(commit.timestamp);
    return {
      id: commit.id,
      displayId: commit.id.slice(0, 11),
      author: user(commit.author, commit.author === PARLANCE_BOT ? 101 : 7),
      authorTimestamp: millis,
      committer: user(commit.author, commit.author === PARLANCE_BOT ? 101 : 7),
      committerTimestamp: millis,
      message: commit.message,
      parents: commit.parents.map((id) => ({ id, displayId: id.slice(0, 11) })),
    };
  };
  const ref = (branch: string) => ({ id: `refs/heads/${branch}`, displayId: branch, latestCommit: git.head(branch) ?? null, type: 'BRANCH', repository: repository() });
  const restPull = (pr: ServerPullRequest) => ({
    id: pr.id,
    version: pr.version,
    title: pr.title,
    description: pr.description,
    state: pr.state,
    open: pr.state === 'OPEN',
    closed: pr.state !== 'OPEN',
    draft: false,
    createdDate: 1772442000000,
    updatedDate: 1772442000000,
    fromRef: ref(pr.from),
    toRef: ref(pr.to),
    locked: false,
    author: { user: user(PARLANCE_BOT, 101), role: 'AUTHOR', approved: false, status: 'UNAPPROVED' },
    reviewers: [],
    participants: [],
    links: { self: [{ href: `${base}/projects/${projectKey}/repos/${repoSlug}/pull-requests/${pr.id}` }] },
  });

  /** One page of `values` as Bitbucket pages them: `start` and `limit` from the query, `nextPageStart` while more remain. */
  function page<T>(url: URL, values: T[]) {
    const start = Number(url.searchParams.get('start') ?? '0');
    const limit = Math.min(Number(url.searchParams.get('limit') ?? '25'), options.pageSize ?? 1000);
    const slice = values.slice(start, start + limit);
    const isLastPage = start + limit >= values.length;
    return { size: slice.length, limit, isLastPage, start, values: slice, ...(isLastPage ? {} : { nextPageStart: start + limit }) };
  }

  async function editFile(req: IncomingMessage, body: Buffer, path: string, res: ServerResponse) {
    if (req.headers.authorization !== `Bearer ${token}`) {
      return error(res, 403, 'The request was authenticated using a project or repository access token, which does not have a valid user associated with it.', 'com.atlassian.bitbucket.AuthorisationException');
    }
    beforeEdit?.();
    beforeEdit = undefined;
    const form = await new Request('http://mock.invalid/', { method: 'PUT', headers: { 'content-type': req.headers['content-type'] ?? '' }, body }).formData();
    const branch = form.get('branch');
    const content = form.get('content');
    if (typeof branch !== 'string' || content === null) return error(res, 400, 'The branch and content parameters are required.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(await content.arrayBuffer());
    const sourceBranch = form.get('sourceBranch');
    const sourceCommitId = form.get('sourceCommitId');
    let head = git.head(branch);
    if (!head && typeof sourceBranch === 'string') head = git.head(sourceBranch);
    if (!head) return error(res, 404, `Branch '${branch}' does not exist in repository '${repoSlug}'.`, 'com.atlassian.bitbucket.repository.NoSuchBranchException');
    const now = git.file(head, path);
    if (now) {
      if (typeof sourceCommitId !== 'string') return error(res, 409, `The file '${path}' already exists; provide the sourceCommitId to edit it.`, 'com.atlassian.bitbucket.content.FileAlreadyExistsException');
      const then = git.file(sourceCommitId, path);
      if (!then || !Buffer.from(then).equals(Buffer.from(now))) return error(res, 409, `The file '${path}' has been changed since commit ${sourceCommitId.slice(0, 11)}.`, 'com.atlassian.bitbucket.content.FileContentOutOfDateException');
      if (Buffer.from(now).equals(Buffer.from(bytes))) return error(res, 409, 'The content is the same as the existing file and does not modify it.', 'com.atlassian.bitbucket.content.EditFileNoChangeException');
    }
    const message = form.get('message');
    const commit = git.commitTo(branch, new Map([[path, bytes]]), typeof message === 'string' ? message : `${path} edited online with Bitbucket`, PARLANCE_BOT, head);
    return sendJson(res, 200, restCommit(commit));
  }

  async function handleRepo(req: IncomingMessage, body: Buffer, url: URL, rest: string, res: ServerResponse) {
    const method = req.method!;
    if (rest === '/branches' && method === 'GET') {
      const filter = url.searchParams.get('filterText') ?? '';
      const names = [...git.branches.keys()].filter((name) => name.includes(filter));
      // boostMatches puts the exact match, then prefix matches, first.
      const rank = (name: string) => (url.searchParams.get('boostMatches') === 'true' ? (name === filter ? 0 : name.startsWith(filter) ? 1 : 2) : 2);
      names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
      return sendJson(res, 200, page(url, names.map((name) => ({ id: `refs/heads/${name}`, displayId: name, type: 'BRANCH', latestCommit: git.head(name), latestChangeset: git.head(name), isDefault: name === 'main' }))));
    }
    if (rest === '/branches' && method === 'POST') {
      const input = JSON.parse(body.toString('utf8')) as { name?: string; startPoint?: string };
      if (!input.name || !input.startPoint) return error(res, 400, 'A name and a startPoint are required.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
      // Bitbucket's limit on a ref name (as quoted in dependabot/dependabot-core#1450).
      if (`refs/heads/${input.name}`.length > 100) return error(res, 400, 'The ref name, once fully qualified, is limited to 100 characters.', 'com.atlassian.bitbucket.repository.InvalidRefNameException');
      if (git.branches.has(input.name)) return error(res, 409, `Branch '${input.name}' already exists in repository '${repoSlug}'.`, 'com.atlassian.bitbucket.repository.DuplicateRefException');
      const start = git.resolve(input.startPoint);
      if (!start) return error(res, 400, `'${input.startPoint}' is not a valid start point.`, 'com.atlassian.bitbucket.commit.NoSuchCommitException');
      git.move(input.name, start.id);
      return sendJson(res, 200, { id: `refs/heads/${input.name}`, displayId: input.name, type: 'BRANCH', latestCommit: start.id, latestChangeset: start.id, isDefault: false });
    }
    if (rest === '/files' && method === 'GET') {
      const at = url.searchParams.get('at') ?? 'main';
      const commit = git.resolve(at);
      if (!commit) return error(res, 404, `Commit '${at}' does not exist in repository '${repoSlug}'.`, 'com.atlassian.bitbucket.commit.NoSuchCommitException');
      return sendJson(res, 200, page(url, [...commit.files.keys()].sort()));
    }
    const raw = rest.match(/^\/raw\/(.+)$/);
    if (raw && method === 'GET') {
      const path = raw[1]!.split('/').map(decodeURIComponent).join('/');
      const at = url.searchParams.get('at') ?? 'main';
      const commit = git.resolve(at);
      if (!commit) return error(res, 404, `Commit '${at}' does not exist in repository '${repoSlug}'.`, 'com.atlassian.bitbucket.commit.NoSuchCommitException');
      const file = commit.files.get(path);
      if (!file) return error(res, 404, `The path "${path}" does not exist at revision "${at}"`, 'com.atlassian.bitbucket.content.NoSuchPathException');
      return res.writeHead(200, { 'content-type': 'text/plain;charset=UTF-8', 'content-length': String(file.byteLength) }).end(Buffer.from(file));
    }
    const browse = rest.match(/^\/browse\/(.+)$/);
    if (browse && method === 'PUT') return editFile(req, body, browse[1]!.split('/').map(decodeURIComponent).join('/'), res);
    const mergeBase = rest.match(/^\/commits\/([^/]+)\/merge-base$/);
    if (mergeBase && method === 'GET') {
      const a = git.commit(decodeURIComponent(mergeBase[1]!));
      const b = git.commit(url.searchParams.get('otherCommitId') ?? '');
      if (!a || !b) return error(res, 404, `Commit '${!a ? mergeBase[1] : url.searchParams.get('otherCommitId')}' does not exist in repository '${repoSlug}'.`, 'com.atlassian.bitbucket.commit.NoSuchCommitException');
      const found = git.mergeBase(a.id, b.id);
      return found ? sendJson(res, 200, restCommit(found)) : res.writeHead(204).end();
    }
    if (rest === '/pull-requests' && method === 'GET') {
      const state = url.searchParams.get('state') ?? 'OPEN';
      const at = url.searchParams.get('at');
      const outgoing = url.searchParams.get('direction') === 'OUTGOING';
      const found = pullRequests.filter((pr) => (state === 'ALL' || pr.state === state) && (!at || `refs/heads/${outgoing ? pr.from : pr.to}` === at));
      return sendJson(res, 200, page(url, found.map(restPull)));
    }
    if (rest === '/pull-requests' && method === 'POST') {
      const input = JSON.parse(body.toString('utf8')) as { title?: string; description?: string; fromRef?: { id?: string }; toRef?: { id?: string } };
      const from = input.fromRef?.id?.replace(/^refs\/heads\//, '');
      const to = input.toRef?.id?.replace(/^refs\/heads\//, '');
      if (!input.title || !from || !to) return error(res, 400, 'A title, a fromRef and a toRef are required.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
      if (!git.branches.has(from) || !git.branches.has(to)) return error(res, 404, `Repository "${repoSlug}" of project with key "${projectKey}" has no branch "${!git.branches.has(from) ? from : to}"`, 'com.atlassian.bitbucket.repository.NoSuchBranchException');
      if (pullRequests.some((pr) => pr.state === 'OPEN' && pr.from === from && pr.to === to)) return error(res, 409, 'Only one pull request may be open for a given source and target branch', 'com.atlassian.bitbucket.pull.DuplicatePullRequestException');
      const pr: ServerPullRequest = { id: pullRequests.length + 1, version: 0, title: input.title, description: input.description ?? '', from, to, state: 'OPEN' };
      pullRequests.push(pr);
      return sendJson(res, 201, restPull(pr));
    }
    const one = rest.match(/^\/pull-requests\/(\d+)$/);
    if (one) {
      const pr = pullRequests.find((p) => p.id === Number(one[1]));
      if (!pr) return error(res, 404, `Pull request ${one[1]} does not exist in ${projectKey}/${repoSlug}.`, 'com.atlassian.bitbucket.pull.NoSuchPullRequestException');
      if (method === 'GET') return sendJson(res, 200, restPull(pr));
      if (method === 'PUT') {
        const input = JSON.parse(body.toString('utf8')) as { version?: number; title?: string; description?: string };
        if (input.version !== pr.version) return error(res, 409, 'You are attempting to modify a pull request based on out-of-date information.', 'com.atlassian.bitbucket.pull.PullRequestOutOfDateException');
        if (input.title !== undefined) pr.title = input.title;
        if (input.description !== undefined) pr.description = input.description;
        pr.version++;
        return sendJson(res, 200, restPull(pr));
      }
    }
    return error(res, 404, `No route for ${method} ${url.pathname}`, null);
  }

  function handleInsights(req: IncomingMessage, body: Buffer, url: URL, commitId: string, key: string, sub: string, res: ServerResponse) {
    const method = req.method!;
    if (!/^[0-9a-f]{40}$/.test(commitId)) return error(res, 400, `The commit ID '${commitId}' is not a full 40 character commit hash.`, 'com.atlassian.bitbucket.validation.ArgumentValidationException');
    if (!git.commit(commitId)) return error(res, 404, `Commit '${commitId}' does not exist in repository '${repoSlug}'.`, 'com.atlassian.bitbucket.commit.NoSuchCommitException');
    const id = `${commitId}/${key}`;
    if (sub === '' && method === 'PUT') {
      const input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      if (typeof input.title !== 'string' || input.title.length > 450) return error(res, 400, 'The report title is required and at most 450 characters.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
      if (!Array.isArray(input.data) || input.data.length > 6) return error(res, 400, 'The report data is required and holds at most 6 fields.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
      if (input.result !== undefined && input.result !== 'PASS' && input.result !== 'FAIL') return error(res, 400, `'${String(input.result)}' is not a valid result; expected PASS or FAIL.`, 'com.atlassian.bitbucket.validation.ArgumentValidationException');
      if (typeof input.details === 'string' && input.details.length > 2000) return error(res, 400, 'The report details are at most 2000 characters.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
      reports.set(id, input);
      return sendJson(res, 200, { ...input, key, createdDate: 1772442000000 });
    }
    if (sub === '/annotations') {
      if (!reports.has(id)) return error(res, 404, `No report with key '${key}' on commit ${commitId}.`, 'com.atlassian.bitbucket.codeinsights.NoSuchReportException');
      if (method === 'DELETE') {
        const ids = url.searchParams.getAll('externalId');
        annotations.set(id, ids.length === 0 ? [] : (annotations.get(id) ?? []).filter((a) => !ids.includes(String(a.externalId))));
        return res.writeHead(204).end();
      }
      if (method === 'POST') {
        const input = JSON.parse(body.toString('utf8')) as { annotations?: Record<string, unknown>[] };
        const list = input.annotations;
        if (!Array.isArray(list)) return error(res, 400, 'The request must hold an "annotations" array.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
        for (const a of list) {
          if (typeof a.message !== 'string' || a.message.length > 2000 || !['LOW', 'MEDIUM', 'HIGH'].includes(String(a.severity))) return error(res, 400, 'Each annotation needs a message (at most 2000 characters) and a severity of LOW, MEDIUM or HIGH.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
        }
        const stored = annotations.get(id) ?? [];
        if (stored.length + list.length > 1000) return error(res, 400, 'A report cannot have more than 1000 annotations.', 'com.atlassian.bitbucket.codeinsights.TooManyAnnotationsException');
        annotations.set(id, [...stored, ...list]);
        return res.writeHead(204).end();
      }
    }
    return error(res, 404, `No route for ${method} ${url.pathname}`, null);
  }

  function handleBuildStatus(body: Buffer, commitId: string, res: ServerResponse) {
    const input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (!/^[0-9a-f]{40}$/.test(commitId)) return error(res, 400, `The commit ID '${commitId}' is not a full 40-characters SHA1.`, 'com.atlassian.bitbucket.validation.ArgumentValidationException');
    if (!['SUCCESSFUL', 'FAILED', 'INPROGRESS'].includes(String(input.state)) || typeof input.key !== 'string' || typeof input.url !== 'string') return error(res, 400, 'The state, key and url fields are mandatory.', 'com.atlassian.bitbucket.validation.ArgumentValidationException');
    const tooLong = Object.entries(input).find(([field, value]) => typeof value === 'string' && value.length > (field === 'url' ? 450 : 255));
    if (tooLong) return error(res, 400, `The ${tooLong[0]} field is too long.`, 'com.atlassian.bitbucket.validation.ArgumentValidationException');
    statuses.set(`${commitId}/${input.key}`, input);
    return res.writeHead(204).end();
  }

  async function handle(req: IncomingMessage, body: Buffer, res: ServerResponse) {
    const url = new URL(req.url!, base);
    const line = `${req.method} ${url.pathname}${url.search}`;
    requests.push(line);
    if (hook?.match(line)) {
      const { action } = hook;
      hook = undefined;
      action();
    }
    if (fail429 > 0) {
      fail429--;
      return error(res, 429, 'You have been rate limited.', 'com.atlassian.bitbucket.throttle.RateLimitedException', { 'retry-after': '1', 'x-ratelimit-limit': '60' });
    }
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${token}` && !(options.userlessToken && auth === `Bearer ${options.userlessToken}`)) {
      return error(res, 401, 'Authentication failed. Please check your credentials and try again.', 'com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException');
    }
    const repoMatch = url.pathname.match(/^\/rest\/(api|insights)\/1\.0\/projects\/([^/]+)\/repos\/([^/]+)(\/.*)?$/);
    const status = url.pathname.match(/^\/rest\/build-status\/1\.0\/commits\/([^/]+)$/);
    if (status && req.method === 'POST') return handleBuildStatus(body, status[1]!, res);
    if (!repoMatch) return error(res, 404, `No route for ${req.method} ${url.pathname}`, null);
    if (decodeURIComponent(repoMatch[2]!) !== projectKey) return error(res, 404, `Project ${decodeURIComponent(repoMatch[2]!)} does not exist.`, 'com.atlassian.bitbucket.project.NoSuchProjectException');
    if (decodeURIComponent(repoMatch[3]!) !== repoSlug) return error(res, 404, `Repository ${projectKey}/${decodeURIComponent(repoMatch[3]!)} does not exist.`, 'com.atlassian.bitbucket.repository.NoSuchRepositoryException');
    const rest = repoMatch[4] ?? '';
    if (repoMatch[1] === 'api') return handleRepo(req, body, url, rest, res);
    const insight = rest.match(/^\/commits\/([^/]+)\/reports\/([^/]+)(\/annotations)?$/);
    if (insight) return handleInsights(req, body, url, insight[1]!, decodeURIComponent(insight[2]!), insight[3] ?? '', res);
    return error(res, 404, `No route for ${req.method} ${url.pathname}`, null);
  }

  const server = await serveOnLoopback(handle);
  base = server.url;

  const signed = (secret: string, event: string, payload: unknown) => {
    const body = JSON.stringify(payload);
    return {
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'user-agent': 'Atlassian HttpClient 4.2.0 / Bitbucket-8.19.1 (8019001) / Default',
        'x-event-key': event,
        'x-request-id': randomUUID(),
        'x-hub-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      },
      body,
    };
  };

  return {
    url: base,
    projectKey,
    repoSlug,
    token,
    git,
    requests,
    pullRequests,
    reports,
    annotations,
    statuses,
    failNext429(count = 1) {
      fail429 = count;
    },
    beforeNextEdit(action) {
      beforeEdit = action;
    },
    beforeRequest(match, action) {
      hook = { match, action };
    },
    pushWebhook(secret, branch = 'main') {
      const move = git.moves.filter((m) => m.branch === branch).at(-1)!;
      return signed(secret, 'repo:refs_changed', {
        eventKey: 'repo:refs_changed',
        date: '2026-03-02T10:00:00+0000',
        actor: user(git.commits.get(move.after)!.author, 7),
        repository: repository(),
        changes: [
          {
            ref: { id: `refs/heads/${branch}`, displayId: branch, type: 'BRANCH' },
            refId: `refs/heads/${branch}`,
            fromHash: move.before ?? '0000000000000000000000000000000000000000',
            toHash: move.after,
            type: move.before === null ? 'ADD' : 'UPDATE',
          },
        ],
      });
    },
    mergedWebhook(secret, id) {
      const pr = pullRequests.find((p) => p.id === id)!;
      return signed(secret, 'pr:merged', { eventKey: 'pr:merged', date: '2026-03-02T10:00:00+0000', actor: user(git.commits.get(git.head(pr.to)!)!.author, 7), pullRequest: restPull(pr) });
    },
    stop: () => server.stop(),
    start: () => server.start(),
    close: () => server.close(),
  };
}

/** The acceptance kit's fixture over the Bitbucket Data Center mock. */
export async function bitbucketServerFixture(): Promise<RemoteFixture & { mock: BitbucketServerMock }> {
  const mock = await startBitbucketServerMock();
  return {
    mock,
    connector: 'bitbucket_server',
    settings: { base_url: mock.url, project_key: mock.projectKey, repo_slug: mock.repoSlug },
    secrets: { token: mock.token },
    badSecrets: { token: 'BBDC-revoked-token' },
    ...codeHostFixtureOps(mock.git, mock, (secret) => mock.pushWebhook(secret), () => {
      for (const pr of mock.pullRequests) if (pr.state === 'OPEN') pr.state = 'MERGED';
    }),
  };
}
