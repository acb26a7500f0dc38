/**
 * A local Gitea API v1 (Forgejo keeps the same API) over the code hosts' in-memory git repository (git-store.ts),
 * answering in Gitea's own shapes, for the Gitea/Forgejo connector's tests.
 *
 * Shapes taken from Gitea's source and swagger (go-gitea/gitea modules/structs: repo_branch.go `Branch` with
 * `commit: PayloadCommit`, repo_tree.go `GitTreeResponse {sha, url, tree[], truncated, page, total_count}`,
 * repo_file.go `ContentsResponse`, `ChangeFilesOptions {branch, new_branch, message, files[]}`, `ChangeFileOperation
 * {operation: create|update|…, path, content (base64), sha}` with the blob sha required to change a file,
 * `FilesResponse {files, commit, verification}`; pull.go `PullRequest`, `CreatePullRequestOption`,
 * `EditPullRequestOption`; commit_status.go `CreateStatusOption` with state pending|success|error|failure|warning;
 * hook.go `PushPayload`), Gitea's APIError body `{"message": …, "url": "<instance>/api/swagger"}` with 401 "invalid
 * username, password or token", 404 "GetContentsOrList", 422 "sha does not match [given: …, expected: …]" (the
 * answers recorded from a Gitea 1.25 instance in a public client's notes), the Link and X-Total-Count pagination
 * headers, and Gitea's webhook docs (docs.gitea.com/usage/webhooks: X-Gitea-Event, X-Gitea-Delivery,
 * X-Gitea-Signature = hex HMAC-SHA256 of the body; Forgejo also sends the X-Forgejo-* names). Gitea itself has no API
 * rate limit; the 429 here is what a reverse proxy in front of an instance (Codeberg's) answers, with Retry-After.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { RemoteFixture } from '../connector-kit.js';
import { serveAnswers, segments, type Answer, type AnswerHandler, type AnsweringServer } from './answering.js';
import { blobSha, codeHostFixtureOps, fillerFiles, GitStore, NO_COMMIT, PARLANCE_BOT, seedFiles, type StoredCommit } from './git-store.js';

export interface GiteaMockOptions {
  token?: string;
  owner?: string;
  name?: string;
  /** Filler files in the repository, so the recursive tree spans several pages. */
  extraFiles?: number;
  /**
   * A test knob standing for the instance's DEFAULT_GIT_TREES_PER_PAGE (1000 on a stock Gitea): tree pages hold at
   * most this many entries, whatever `per_page` asks, as an instance with a lower setting does.
   */
  treePageMax?: number;
  /** Send Forgejo's X-Forgejo-* webhook headers instead of Gitea's. */
  forgejo?: boolean;
}

export interface GiteaPull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  comments: string[];
}

export interface GiteaMock extends AnsweringServer {
  apiUrl: string;
  token: string;
  repository: string;
  store: GitStore;
  pulls: GiteaPull[];
  statuses: { sha: string; state: string; context: string; description: string; target_url: string }[];
  pushEvent(secret: string, branch?: string): { headers: Record<string, string>; body: string };
}

export async function startGiteaMock(options: GiteaMockOptions = {}): Promise<GiteaMock> {
  const token = options.token ?? 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
  const owner = options.owner ?? 'acme';
  const name = options.name ?? 'shop';
  const store = new GitStore(seedFiles({ 'README.md': '# Shop\n', ...fillerFiles(options.extraFiles ?? 0) }));
  const pulls: GiteaPull[] = [];
  const statuses: GiteaMock['statuses'] = [];
  const treePageMax = options.treePageMax ?? 1000;
  let origin = '';

  const htmlUrl = () => `${origin}/${owner}/${name}`;
  const apiRepo = () => `${origin}/api/v1/repos/${owner}/${name}`;
  const apiError = (status: number, message: string): Answer => ({ status, body: { message, url: `${origin}/api/swagger` } });
  const notFound = (message = "The target couldn't be found."): Answer => ({ status: 404, body: { errors: [message], message, url: `${origin}/api/swagger` } });
  const user = () => ({ id: 2, login: 'maria', login_name: '', full_name: 'Maria Example', email: 'maria@noreply.localhost', avatar_url: `${origin}/avatars/2`, html_url: `${origin}/maria`, username: 'maria' });
  const repositoryJson = () => ({ id: 17, owner: { ...user(), login: owner, username: owner }, name, full_name: `${owner}/${name}`, private: false, fork: false, html_url: htmlUrl(), clone_url: `${htmlUrl()}.git`, default_branch: 'main', permissions: { admin: false, push: true, pull: true } });
  const payloadCommit = (c: StoredCommit) => ({
    id: c.id,
    message: `${c.message}\n`,
    url: `${htmlUrl()}/commit/${c.id}`,
    author: { name: c.author.name, email: c.author.email, username: c.author.username },
    committer: { name: c.author.name, email: c.author.email, username: c.author.username },
    verification: null,
    timestamp: c.timestamp,
    added: null,
    removed: null,
    modified: null,
  });
  const contentsJson = (path: string, content: Uint8Array, withContent: boolean, ref: string) => ({
    name: path.split('/').pop(),
    path,
    sha: blobSha(content),
    last_commit_sha: store.resolve(ref)?.id,
    type: 'file',
    size: content.byteLength,
    encoding: withContent ? 'base64' : null,
    content: withContent ? Buffer.from(content).toString('base64') : null,
    target: null,
    url: `${apiRepo()}/contents/${path}?ref=${ref}`,
    html_url: `${htmlUrl()}/src/branch/${ref}/${path}`,
    git_url: `${apiRepo()}/git/blobs/${blobSha(content)}`,
    download_url: `${htmlUrl()}/raw/branch/${ref}/${path}`,
    submodule_git_url: null,
    _links: { self: `${apiRepo()}/contents/${path}?ref=${ref}`, git: `${apiRepo()}/git/blobs/${blobSha(content)}`, html: `${htmlUrl()}/src/branch/${ref}/${path}` },
  });
  const pullJson = (pull: GiteaPull) => ({
    id: 300 + pull.number,
    url: `${htmlUrl()}/pulls/${pull.number}`,
    number: pull.number,
    user: user(),
    title: pull.title,
    body: pull.body,
    state: pull.state,
    html_url: `${htmlUrl()}/pulls/${pull.number}`,
    diff_url: `${htmlUrl()}/pulls/${pull.number}.diff`,
    mergeable: true,
    merged: false,
    head: { label: pull.head, ref: pull.head, sha: store.head(pull.head) ?? '', repo_id: 17, repo: repositoryJson() },
    base: { label: pull.base, ref: pull.base, sha: store.head(pull.base) ?? '', repo_id: 17, repo: repositoryJson() },
  });

  const parseBody = (body: string) => (body === '' ? {} : (JSON.parse(body) as Record<string, unknown>));

  const handle: AnswerHandler = (request): Answer => {
    const auth = request.headers.authorization ?? '';
    if (auth !== `token ${token}` && auth !== `Bearer ${token}`) return apiError(401, 'invalid username, password or token');
    const parts = segments(request.path);
    // userGetCurrent: the token's own account, the committer of what it commits through the API.
    if (request.method === 'GET' && parts.join('/') === 'api/v1/user') return { status: 200, body: { ...user(), id: 7, login: PARLANCE_BOT.username, username: PARLANCE_BOT.username, full_name: PARLANCE_BOT.name, email: PARLANCE_BOT.email } };
    if (parts[0] !== 'api' || parts[1] !== 'v1' || parts[2] !== 'repos') return notFound();
    if (parts[3] !== owner || parts[4] !== name) return notFound();
    const rest = parts.slice(5);
    const q = request.query;
    const method = request.method;

    if (method === 'GET' && rest.length === 0) return { status: 200, body: repositoryJson() };
    if (method === 'GET' && rest[0] === 'branches' && rest.length >= 2) {
      const branch = rest.slice(1).join('/');
      const head = store.head(branch);
      if (!head) return notFound(`branch does not exist [repo_id: 17 name: ${branch}]`);
      return { status: 200, body: { name: branch, commit: payloadCommit(store.commit(head)!), protected: false, required_approvals: 0, enable_status_check: false, status_check_contexts: [], user_can_push: true, user_can_merge: true, effective_branch_protection_name: '' } };
    }
    if (method === 'GET' && rest[0] === 'git' && rest[1] === 'trees' && rest.length === 3) {
      const commit = store.resolve(rest[2]!);
      if (!commit) return apiError(400, `sha not found [${rest[2]}]`);
      const all = q.get('recursive') === 'true' ? store.treeEntries(commit.id) : store.treeEntries(commit.id).filter((e) => !e.path.includes('/'));
      const perPage = Math.min(treePageMax, Number(q.get('per_page') ?? treePageMax));
      const page = Math.max(1, Number(q.get('page') ?? 1));
      const entries = all.slice((page - 1) * perPage, page * perPage).map((e) => ({ path: e.path, mode: e.type === 'tree' ? '040000' : '100644', type: e.type, size: e.size, sha: e.sha, url: `${apiRepo()}/git/${e.type === 'tree' ? 'trees' : 'blobs'}/${e.sha}` }));
      return { status: 200, body: { sha: commit.id, url: `${apiRepo()}/git/trees/${commit.id}`, tree: entries, truncated: page * perPage < all.length, page, total_count: all.length } };
    }
    if (method === 'GET' && rest[0] === 'raw' && rest.length >= 2) {
      const path = rest.slice(1).join('/');
      const content = store.file(q.get('ref') ?? 'main', path);
      if (!content) return notFound(`object does not exist [id: , rel_path: ${path}]`);
      return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: content };
    }
    if (method === 'GET' && rest[0] === 'contents' && rest.length >= 2) {
      const path = rest.slice(1).join('/');
      const ref = q.get('ref') ?? 'main';
      const content = store.file(ref, path);
      if (!content) return notFound('GetContentsOrList');
      return { status: 200, body: contentsJson(path, content, true, ref) };
    }
    if (method === 'POST' && rest[0] === 'contents' && rest.length === 1) return changeFiles(parseBody(request.body));
    if (method === 'GET' && rest[0] === 'pulls' && rest.length === 1) {
      const state = q.get('state') ?? 'open';
      const limit = Math.min(50, Number(q.get('limit') ?? 30));
      const page = Math.max(1, Number(q.get('page') ?? 1));
      const found = pulls.filter((p) => state === 'all' || p.state === state);
      const items = found.slice((page - 1) * limit, page * limit);
      const last = Math.max(1, Math.ceil(found.length / limit));
      const link = (p: number, rel: string) => `<${apiRepo()}/pulls?limit=${limit}&page=${p}&state=${state}>; rel="${rel}"`;
      return { status: 200, headers: { 'X-Total-Count': String(found.length), Link: [...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []), ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : [])].join(',') }, body: items.map(pullJson) };
    }
    if (method === 'POST' && rest[0] === 'pulls' && rest.length === 1) {
      const body = parseBody(request.body) as { head?: string; base?: string; title?: string; body?: string };
      if (!body.head || !body.base || !body.title) return { status: 422, body: { message: '[Head]: Required; [Base]: Required; [Title]: Required', url: `${origin}/api/swagger` } };
      if (!store.head(body.head) || !store.head(body.base)) return notFound();
      const open = pulls.find((p) => p.state === 'open' && p.head === body.head && p.base === body.base);
      if (open) return apiError(409, `pull request already exists for these targets [id: ${300 + open.number}, issue_id: ${open.number}, head_repo_id: 17, base_repo_id: 17, head_branch: ${open.head}, base_branch: ${open.base}]`);
      const pull: GiteaPull = { number: pulls.length + 1, head: body.head, base: body.base, title: body.title, body: body.body ?? '', state: 'open', comments: [] };
      pulls.push(pull);
      return { status: 201, body: pullJson(pull) };
    }
    if (method === 'PATCH' && rest[0] === 'pulls' && rest.length === 2) {
      const pull = pulls.find((p) => String(p.number) === rest[1]);
      if (!pull) return notFound();
      const body = parseBody(request.body) as { title?: string; body?: string };
      if (body.title !== undefined) pull.title = body.title;
      if (body.body !== undefined) pull.body = body.body;
      return { status: 201, body: pullJson(pull) };
    }
    // repoCompareDiff: GET compare/{base}...{head}, the commits head has and base has not (Compare, []Commit).
    if (method === 'GET' && rest[0] === 'compare' && rest.length >= 2) {
      const [baseRef, headRef] = rest.slice(1).join('/').split('...');
      const [base, head] = [store.resolve(baseRef ?? ''), store.resolve(headRef ?? '')];
      if (!base || !head) return notFound(`object does not exist [id: ${!base ? baseRef : headRef}]`);
      const account = (c: StoredCommit) => (c.author.username === PARLANCE_BOT.username ? { ...user(), id: 7, login: PARLANCE_BOT.username, username: PARLANCE_BOT.username } : user());
      const commits = store.between(base.id, head.id).map((c) => ({
        url: `${apiRepo()}/git/commits/${c.id}`,
        sha: c.id,
        created: c.timestamp,
        html_url: `${htmlUrl()}/commit/${c.id}`,
        commit: { url: `${apiRepo()}/git/commits/${c.id}`, message: `${c.message}\n`, author: { name: c.author.name, email: c.author.email, date: c.timestamp }, committer: { name: c.author.name, email: c.author.email, date: c.timestamp }, tree: { sha: c.id, url: `${apiRepo()}/git/trees/${c.id}` } },
        author: account(c),
        committer: account(c),
        parents: c.parents.map((sha) => ({ url: `${apiRepo()}/git/commits/${sha}`, sha })),
        files: null,
        stats: null,
      }));
      return { status: 200, body: { total_commits: commits.length, commits, files: [] } };
    }
    // issueGetComments and issueEditComment: a comment's id here is 900 + its place in the pull request's list.
    if (method === 'GET' && rest[0] === 'issues' && rest[2] === 'comments' && rest.length === 3) {
      const pull = pulls.find((p) => String(p.number) === rest[1]);
      if (!pull) return notFound();
      return { status: 200, body: pull.comments.map((text, i) => ({ id: 901 + i, html_url: `${htmlUrl()}/pulls/${pull.number}#issuecomment-${901 + i}`, pull_request_url: `${htmlUrl()}/pulls/${pull.number}`, user: user(), body: text })) };
    }
    if (method === 'PATCH' && rest[0] === 'issues' && rest[1] === 'comments' && rest.length === 3) {
      const index = Number(rest[2]) - 901;
      const pull = pulls.find((p) => p.comments[index] !== undefined && index >= 0);
      if (!pull) return notFound();
      const body = parseBody(request.body) as { body?: string };
      if (!body.body) return { status: 422, body: { message: '[Body]: Required', url: `${origin}/api/swagger` } };
      pull.comments[index] = body.body;
      return { status: 200, body: { id: 901 + index, user: user(), body: body.body } };
    }
    if (method === 'POST' && rest[0] === 'issues' && rest[2] === 'comments' && rest.length === 3) {
      const pull = pulls.find((p) => String(p.number) === rest[1]);
      if (!pull) return notFound();
      const body = parseBody(request.body) as { body?: string };
      if (!body.body) return { status: 422, body: { message: '[Body]: Required', url: `${origin}/api/swagger` } };
      pull.comments.push(body.body);
      return { status: 201, body: { id: 900 + pull.comments.length, html_url: `${htmlUrl()}/pulls/${pull.number}#issuecomment-${900 + pull.comments.length}`, pull_request_url: `${htmlUrl()}/pulls/${pull.number}`, user: user(), body: body.body } };
    }
    if (method === 'POST' && rest[0] === 'statuses' && rest.length === 2) {
      const commit = store.commit(rest[1]!);
      if (!commit) return notFound();
      const body = parseBody(request.body) as { state?: string; context?: string; description?: string; target_url?: string };
      if (!body.state || !['pending', 'success', 'error', 'failure', 'warning'].includes(body.state)) return { status: 422, body: { message: `invalid commit status state: ${body.state}`, url: `${origin}/api/swagger` } };
      const status = { sha: commit.id, state: body.state, context: body.context ?? 'default', description: body.description ?? '', target_url: body.target_url ?? '' };
      statuses.push(status);
      return { status: 201, body: { id: statuses.length, status: status.state, target_url: status.target_url, description: status.description, url: `${apiRepo()}/statuses/${commit.id}`, context: status.context, creator: user(), created_at: commit.timestamp, updated_at: commit.timestamp } };
    }
    return notFound();
  };

  function changeFiles(body: Record<string, unknown>): Answer {
    const { branch, new_branch: newBranch, message, files, force_push: force } = body as { branch?: string; new_branch?: string; message?: string; force_push?: boolean; files?: { operation: string; path: string; content?: string; sha?: string }[] };
    if (!Array.isArray(files) || files.length === 0) return { status: 422, body: { message: '[Files]: Required', url: `${origin}/api/swagger` } };
    // ChangeFilesOptions.force_push: an existing new_branch is overwritten by the commit on `branch`.
    if (force && !newBranch) return apiError(422, 'force_push needs new_branch in this mock');
    const from = branch || 'main';
    const fromHead = store.head(from);
    if (!fromHead) return notFound(`branch does not exist [name: ${from}]`);
    if (newBranch && store.head(newBranch) && !force) return apiError(422, `branch already exists [name: ${newBranch}]`);
    const base = store.commit(fromHead)!;
    const changes = new Map<string, Uint8Array>();
    for (const file of files) {
      const present = base.files.get(file.path);
      if (file.operation === 'create' && present) return apiError(422, `repository file already exists [path: ${file.path}]`);
      if (file.operation === 'update') {
        if (!present) return notFound(`repository file does not exist [path: ${file.path}]`);
        if (!file.sha) return apiError(422, `sha does not match [given: , expected: ${blobSha(present)}]`);
        if (file.sha !== blobSha(present)) return apiError(422, `sha does not match [given: ${file.sha}, expected: ${blobSha(present)}]`);
      }
      if (file.operation !== 'create' && file.operation !== 'update') return apiError(422, `this mock does not implement operation '${file.operation}'`);
      changes.set(file.path, new Uint8Array(Buffer.from(file.content ?? '', 'base64')));
    }
    const created = store.commitTo(newBranch || from, changes, message || 'Update files', PARLANCE_BOT, fromHead);
    const parent = store.commit(fromHead)!;
    return {
      status: 201,
      body: {
        files: [...changes.keys()].map((path) => contentsJson(path, changes.get(path)!, false, newBranch || from)),
        commit: {
          url: `${apiRepo()}/git/commits/${created.id}`,
          sha: created.id,
          created: created.timestamp,
          html_url: `${htmlUrl()}/commit/${created.id}`,
          author: { name: PARLANCE_BOT.name, email: PARLANCE_BOT.email, date: created.timestamp },
          committer: { name: PARLANCE_BOT.name, email: PARLANCE_BOT.email, date: created.timestamp },
          parents: [{ url: `${apiRepo()}/git/commits/${parent.id}`, sha: parent.id, created: parent.timestamp }],
          message: `${created.message}\n`,
          tree: { url: `${apiRepo()}/git/trees/${created.id}`, sha: created.id, created: created.timestamp },
        },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
      },
    };
  }

  // Gitea has no rate limit of its own; this is a reverse proxy's.
  const server = await serveAnswers(handle, (retryAfter) => ({ status: 429, headers: { 'Retry-After': String(retryAfter) }, body: '429 Too Many Requests\n' }));
  origin = server.url;

  return {
    ...server,
    apiUrl: `${server.url}/api/v1`,
    token,
    repository: `${owner}/${name}`,
    store,
    pulls,
    statuses,
    pushEvent(secret, branch = 'main') {
      const head = store.commit(store.head(branch)!)!;
      const parent = head.parents[0] ? store.commits.get(head.parents[0]) : undefined;
      const commit = { ...payloadCommit(head), ...store.changedPaths(head.id), removed: [] };
      const body = JSON.stringify({
        ref: `refs/heads/${branch}`,
        before: parent?.id ?? NO_COMMIT,
        after: head.id,
        compare_url: parent ? `${htmlUrl()}/compare/${parent.id}...${head.id}` : '',
        commits: [commit],
        total_commits: 1,
        head_commit: commit,
        repository: repositoryJson(),
        pusher: user(),
        sender: user(),
      });
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      const delivery = randomUUID();
      const vendor = options.forgejo ? 'Forgejo' : 'Gitea';
      return {
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Go-http-client/1.1',
          [`X-${vendor}-Delivery`]: delivery,
          [`X-${vendor}-Event`]: 'push',
          [`X-${vendor}-Event-Type`]: 'push',
          [`X-${vendor}-Signature`]: signature,
          // Gitea sends every webhook under its own, Gogs' and GitHub's header names.
          'X-Gogs-Delivery': delivery,
          'X-Gogs-Event': 'push',
          'X-Gogs-Signature': signature,
          'X-GitHub-Delivery': delivery,
          'X-GitHub-Event': 'push',
          'X-Hub-Signature-256': `sha256=${signature}`,
        },
        body,
      };
    },
  };
}

/** The kit's RemoteFixture over the Gitea mock. */
export async function giteaFixture(): Promise<RemoteFixture & { mock: GiteaMock }> {
  const mock = await startGiteaMock();
  return {
    mock,
    connector: 'gitea',
    settings: { api_url: mock.apiUrl, repository: mock.repository },
    secrets: { token: mock.token },
    badSecrets: { token: '0000000000000000000000000000000000000000' },
    ...codeHostFixtureOps(mock.store, mock, (secret) => mock.pushEvent(secret), () => {
      for (const pull of mock.pulls) if (pull.state === 'open') pull.state = 'closed';
    }),
  };
}
