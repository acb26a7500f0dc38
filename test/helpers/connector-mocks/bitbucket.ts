/**
 * A local Bitbucket Cloud REST API 2.0 over the code hosts' in-memory git repository (git-store.ts), for the Bitbucket
 * connector's tests.
 *
 * Shapes taken from Atlassian's reference (https://developer.atlassian.com/cloud/bitbucket/rest/): api-group-refs
 * (`GET /refs/branches/{name}`: `{ type: 'branch', name, target: { type: 'commit', hash } }`), api-group-source
 * (`GET /src/{commit}/{path}`: raw bytes for a file, for a directory the paginated `{ pagelen, page, values, next }` of
 * `commit_file` / `commit_directory` entries, `max_depth`; `POST /src` as multipart/form-data with file fields named by
 * path, `message`, `branch`, `parents`, answering 201 with the new commit in Location, and 409 when `parents` is not the
 * existing branch's head), api-group-pullrequests (`q` filter, `links.html.href`), api-group-reports (report `result`,
 * bulk annotations of at most 100), api-group-commit-statuses (`state`, `key`, `url` required); the error envelope
 * `{ type: 'error', error: { message } }`; 429 "Rate limit for this resource has been exceeded" with
 * `X-RateLimit-Limit`, `X-RateLimit-Resource`, `X-RateLimit-NearLimit` and no Retry-After (Atlassian's rate-limit KB
 * and the "scaled rate limits" announcement); webhooks (support.atlassian.com/bitbucket-cloud/docs/manage-webhooks and
 * event-payloads): `X-Event-Key: repo:push`, `X-Hub-Signature: sha256=<hex HMAC of the body>`, and the push payload's
 * `push.changes[].new/old`.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RemoteFixture } from '../connector-kit.js';
import { codeHostFixtureOps, GitStore, PARLANCE_BOT, seedFiles, type StoredCommit } from './git-store.js';
import { sendJson, serveOnLoopback } from './loopback.js';

export interface BitbucketMockOptions {
  workspace?: string;
  repoSlug?: string;
  /** Accepted as `Authorization: Bearer <token>`. */
  token?: string;
  /** Accepted as Basic username:app_password. */
  username?: string;
  appPassword?: string;
  /** A test knob: the most entries a `/src` listing page holds (Bitbucket's default pagelen is 10). */
  pageSize?: number;
}

export interface BitbucketMock {
  /** The API root, as the `api_url` setting takes it (`…/2.0`). */
  url: string;
  workspace: string;
  repoSlug: string;
  token: string;
  git: GitStore;
  /** `METHOD path?query` of every request, in order. */
  requests: string[];
  pullRequests: { id: number; title: string; description: string; source: string; destination: string; state: string }[];
  reports: Map<string, Record<string, unknown>>;
  annotations: Map<string, Map<string, Record<string, unknown>>>;
  statuses: Map<string, Record<string, unknown>>;
  /** The next `count` requests answer 429 as Bitbucket does. */
  failNext429(count?: number): void;
  /** Runs once, just before the next `POST /src` is handled (a person pushing in between). */
  beforeNextCommit(action: () => void): void;
  /** The repo:push notification Bitbucket sends for the latest move of `branch`, signed with `secret`. */
  pushWebhook(secret: string, branch?: string): { headers: Record<string, string>; body: string };
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const error = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => sendJson(res, status, { type: 'error', error: { message } }, headers);

export async function startBitbucketMock(options: BitbucketMockOptions = {}): Promise<BitbucketMock> {
  const workspace = options.workspace ?? 'acme';
  const repoSlug = options.repoSlug ?? 'storefront';
  const token = options.token ?? 'ATCTT3xFfGN0-bitbucket-test-token';
  const git = new GitStore(seedFiles({ 'README.md': '# Storefront\n', 'src/app/index.ts': 'export {};\n' }));
  const requests: string[] = [];
  const pullRequests: BitbucketMock['pullRequests'] = [];
  const reports = new Map<string, Record<string, unknown>>();
  const annotations = new Map<string, Map<string, Record<string, unknown>>>();
  const statuses = new Map<string, Record<string, unknown>>();
  let fail429 = 0;
  let beforeCommit: (() => void) | undefined;
  let base = '';
  const repoLinks = () => `${base}/repositories/${workspace}/${repoSlug}`;
  const htmlBase = `https://bitbucket.org/${workspace}/${repoSlug}`;

  function authorized(header: string | undefined): boolean {
    if (header === `Bearer ${token}`) return true;
    if (options.username && options.appPassword && header === `Basic ${Buffer.from(`${options.username}:${options.appPassword}`).toString('base64')}`) return true;
    return false;
  }

  const commitRef = (id: string) => ({ type: 'commit', hash: id, links: { self: { href: `${repoLinks()}/commit/${id}` }, html: { href: `${htmlBase}/commits/${id}` } } });
  const prBody = (pr: BitbucketMock['pullRequests'][number]) => ({
    type: 'pullrequest',
    id: pr.id,
    title: pr.title,
    description: pr.description,
    state: pr.state,
    source: { branch: { name: pr.source }, commit: { type: 'commit', hash: git.branches.get(pr.source)?.slice(0, 12) } },
    destination: { branch: { name: pr.destination } },
    links: { self: { href: `${repoLinks()}/pullrequests/${pr.id}` }, html: { href: `${htmlBase}/pull-requests/${pr.id}` } },
  });

  /** Entries below `dir` at most `depth` levels down, directories included, sorted as Bitbucket lists them. */
  function listing(commit: StoredCommit, dir: string, depth: number) {
    const prefix = dir === '' ? '' : `${dir}/`;
    return git
      .treeEntries(commit.id)
      .filter((entry) => entry.path.startsWith(prefix) && entry.path.slice(prefix.length).split('/').length <= depth)
      .map((entry) => (entry.type === 'blob' ? { path: entry.path, type: 'commit_file', commit: commitRef(commit.id), attributes: [], escaped_path: entry.path, size: entry.size, mimetype: null } : { path: entry.path, type: 'commit_directory', commit: commitRef(commit.id) }));
  }

  async function handleCommit(body: Buffer, contentType: string, res: ServerResponse) {
    beforeCommit?.();
    beforeCommit = undefined;
    const form = await new Request('http://mock.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
    const message = String(form.get('message') ?? 'Commit via the Bitbucket API');
    const branch = String(form.get('branch') ?? 'main');
    const parents = form.get('parents') ? String(form.get('parents')).split(',') : [];
    const head = git.branches.get(branch);
    if (head && parents.length > 0 && parents[0] !== head) return error(res, 409, `Commit ${parents[0]!.slice(0, 12)} is not the head of branch ${branch} (${head.slice(0, 12)}).`);
    const parentId = parents[0] ?? head ?? git.branches.get('main')!;
    const parent = git.commits.get(parentId);
    if (!parent) return error(res, 400, `Unknown parent commit: ${parentId}`);
    const changes = new Map<string, Uint8Array>();
    for (const [name, value] of form.entries()) {
      if (['message', 'branch', 'parents', 'author', 'files'].includes(name)) continue;
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(await value.arrayBuffer());
      changes.set(name.replace(/^\/+/, ''), bytes);
    }
    const commit = git.commitTo(branch, changes, message, PARLANCE_BOT, parent.id);
    res.writeHead(201, { location: `${repoLinks()}/commit/${commit.id}` }).end();
  }

  function pullRequestQuery(q: string): Record<string, string> {
    const terms: Record<string, string> = {};
    for (const match of q.matchAll(/([\w.]+)\s*=\s*"([^"]*)"/g)) terms[match[1]!] = match[2]!;
    return terms;
  }

  async function handle(req: IncomingMessage, body: Buffer, res: ServerResponse) {
    const url = new URL(req.url!, base);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (fail429 > 0) {
      fail429--;
      return error(res, 429, 'Rate limit for this resource has been exceeded', { 'x-ratelimit-limit': '1000', 'x-ratelimit-resource': 'api', 'x-ratelimit-nearlimit': 'true' });
    }
    if (!authorized(req.headers.authorization)) return error(res, 401, 'Token is invalid, expired, or not supported for this endpoint.');
    const match = url.pathname.match(/^\/2\.0\/repositories\/([^/]+)\/([^/]+)(\/.*)?$/);
    if (!match) return error(res, 404, 'Resource not found');
    if (decodeURIComponent(match[1]!) !== workspace || decodeURIComponent(match[2]!) !== repoSlug) return error(res, 404, 'Repository not found');
    const rest = match[3] ?? '';
    const method = req.method!;

    if (rest === '' && method === 'GET') return sendJson(res, 200, { type: 'repository', full_name: `${workspace}/${repoSlug}`, slug: repoSlug, mainbranch: { type: 'branch', name: 'main' } });
    const branch = rest.match(/^\/refs\/branches\/(.+)$/);
    if (branch && method === 'GET') {
      const name = decodeURIComponent(branch[1]!);
      const head = git.branches.get(name);
      if (!head) return error(res, 404, `Branch "${name}" not found.`);
      return sendJson(res, 200, { type: 'branch', name, target: { ...commitRef(head), message: git.commits.get(head)!.message }, links: { html: { href: `${htmlBase}/branch/${name}` } } });
    }
    // api-group-commits: GET /merge-base/{revspec} ("a..b") answers the best common ancestor as a commit.
    const mergeBase = rest.match(/^\/merge-base\/(.+)$/);
    if (mergeBase && method === 'GET') {
      const [a, b] = decodeURIComponent(mergeBase[1]!).split('..');
      const [left, right] = [git.resolve(a ?? ''), git.resolve(b ?? '')];
      if (!left || !right) return error(res, 404, `Commit not found: ${!left ? a : b}`);
      const found = git.mergeBase(left.id, right.id);
      if (!found) return error(res, 404, 'No merge base found.');
      return sendJson(res, 200, { ...commitRef(found.id), message: found.message, date: found.timestamp, parents: found.parents.map(commitRef) });
    }
    const src = rest.match(/^\/src\/([^/]+)\/?(.*)$/);
    if (src && method === 'GET') {
      const commit = git.resolve(decodeURIComponent(src[1]!));
      if (!commit) return error(res, 404, `Commit not found: ${src[1]}`);
      const path = src[2]!.split('/').map(decodeURIComponent).join('/').replace(/\/+$/, '');
      const file = commit.files.get(path);
      if (file) return res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.from(file));
      const values = listing(commit, path, Number(url.searchParams.get('max_depth') ?? '1'));
      if (path !== '' && values.length === 0) return error(res, 404, `No such file or directory: ${path}`);
      const pagelen = Math.min(Number(url.searchParams.get('pagelen') ?? '10'), options.pageSize ?? 100);
      const page = Number(url.searchParams.get('page') ?? '1');
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      const more = page * pagelen < values.length;
      return sendJson(res, 200, { pagelen, page, values: values.slice((page - 1) * pagelen, page * pagelen), ...(more ? { next: `${new URL(base).origin}${next.pathname}${next.search}` } : {}) });
    }
    if (rest === '/src' && method === 'POST') return handleCommit(body, req.headers['content-type'] ?? '', res);

    if (rest === '/pullrequests' && method === 'GET') {
      const terms = pullRequestQuery(url.searchParams.get('q') ?? '');
      const state = terms.state ?? url.searchParams.get('state') ?? 'OPEN';
      const found = pullRequests.filter((pr) => pr.state === state && (!terms['source.branch.name'] || pr.source === terms['source.branch.name']) && (!terms['destination.branch.name'] || pr.destination === terms['destination.branch.name']));
      return sendJson(res, 200, { pagelen: 10, size: found.length, page: 1, values: found.map(prBody) });
    }
    if (rest === '/pullrequests' && method === 'POST') {
      const input = JSON.parse(body.toString('utf8')) as { title?: string; description?: string; source?: { branch?: { name?: string } }; destination?: { branch?: { name?: string } } };
      const source = input.source?.branch?.name;
      if (!input.title || !source || !git.branches.has(source)) return error(res, 400, 'source: branch not found');
      const pr = { id: pullRequests.length + 1, title: input.title, description: input.description ?? '', source, destination: input.destination?.branch?.name ?? 'main', state: 'OPEN' };
      pullRequests.push(pr);
      return sendJson(res, 201, prBody(pr));
    }
    const pr = rest.match(/^\/pullrequests\/(\d+)$/);
    if (pr && method === 'PUT') {
      const found = pullRequests.find((p) => p.id === Number(pr[1]));
      if (!found) return error(res, 404, 'Pull request not found');
      const input = JSON.parse(body.toString('utf8')) as { title?: string; description?: string };
      if (input.title !== undefined) found.title = input.title;
      if (input.description !== undefined) found.description = input.description;
      return sendJson(res, 200, prBody(found));
    }
    const report = rest.match(/^\/commit\/([0-9a-f]+)\/reports\/([^/]+)(\/annotations)?$/);
    if (report) {
      const commit = git.resolve(report[1]!);
      if (!commit) return error(res, 404, `Commit not found: ${report[1]}`);
      const key = `${commit.id}/${decodeURIComponent(report[2]!)}`;
      const input = JSON.parse(body.toString('utf8')) as unknown;
      if (!report[3] && method === 'PUT') {
        const r = input as Record<string, unknown>;
        if (!['PASSED', 'FAILED', 'PENDING'].includes(String(r.result)) || typeof r.title !== 'string' || typeof r.details !== 'string') return error(res, 400, 'report: title, details and result (PASSED, FAILED, PENDING) are required');
        reports.set(key, r);
        return sendJson(res, 200, { ...r, uuid: `{${randomUUID()}}`, external_id: report[2] });
      }
      if (report[3] && method === 'POST') {
        if (!reports.has(key)) return error(res, 404, 'Report not found');
        const list = input as Record<string, unknown>[];
        if (!Array.isArray(list) || list.length > 100) return error(res, 400, 'A maximum of 100 annotations can be created in one request');
        const stored = annotations.get(key) ?? new Map<string, Record<string, unknown>>();
        for (const a of list) {
          if (typeof a.external_id !== 'string' || !['VULNERABILITY', 'CODE_SMELL', 'BUG'].includes(String(a.annotation_type)) || typeof a.summary !== 'string') return error(res, 400, 'annotation: external_id, annotation_type and summary are required');
          stored.set(a.external_id, a);
        }
        annotations.set(key, stored);
        return sendJson(res, 200, list.map((a) => ({ ...a, uuid: `{${randomUUID()}}` })));
      }
    }
    const status = rest.match(/^\/commit\/([0-9a-f]+)\/statuses\/build$/);
    if (status && method === 'POST') {
      const input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      if (typeof input.url !== 'string' || typeof input.key !== 'string') return error(res, 400, 'url and key are required');
      statuses.set(`${status[1]}/${input.key}`, input);
      return sendJson(res, 201, { type: 'build', ...input });
    }
    return error(res, 404, `No route for ${method} ${url.pathname}`);
  }

  const server = await serveOnLoopback(handle);
  base = `${server.url}/2.0`;

  return {
    url: base,
    workspace,
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
    beforeNextCommit(action) {
      beforeCommit = action;
    },
    pushWebhook(secret, branch = 'main') {
      const move = git.moves.filter((m) => m.branch === branch).at(-1)!;
      const payload = {
        actor: { type: 'user', display_name: 'Maria Example', uuid: '{d301aafa-d676-4ee0-88be-962be7417567}' },
        repository: { type: 'repository', full_name: `${workspace}/${repoSlug}`, name: repoSlug, uuid: '{4b2a8e2c-7c7e-4bd4-9d2b-1a4b3c5d6e7f}', links: { html: { href: htmlBase } } },
        push: {
          changes: [
            {
              old: move.before ? { type: 'branch', name: branch, target: commitRef(move.before) } : null,
              new: { type: 'branch', name: branch, target: { ...commitRef(move.after), message: git.commits.get(move.after)!.message } },
              created: move.before === null,
              forced: false,
              closed: false,
              truncated: false,
              commits: [{ ...commitRef(move.after), message: git.commits.get(move.after)!.message }],
            },
          ],
        },
      };
      const body = JSON.stringify(payload);
      return {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Bitbucket-Webhooks/2.0',
          'x-event-key': 'repo:push',
          'x-hook-uuid': randomUUID(),
          'x-request-uuid': randomUUID(),
          'x-attempt-number': '1',
          'x-hub-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
        body,
      };
    },
    stop: () => server.stop(),
    start: () => server.start(),
    close: () => server.close(),
  };
}

/** The acceptance kit's fixture over the Bitbucket mock. */
export async function bitbucketFixture(): Promise<RemoteFixture & { mock: BitbucketMock }> {
  const mock = await startBitbucketMock();
  return {
    mock,
    connector: 'bitbucket',
    settings: { api_url: mock.url, workspace: mock.workspace, repo_slug: mock.repoSlug },
    secrets: { access_token: mock.token },
    badSecrets: { access_token: 'ATCTT3xFfGN0-revoked' },
    ...codeHostFixtureOps(mock.git, mock, (secret) => mock.pushWebhook(secret), () => {
      for (const pr of mock.pullRequests) if (pr.state === 'OPEN') pr.state = 'MERGED';
    }),
  };
}
