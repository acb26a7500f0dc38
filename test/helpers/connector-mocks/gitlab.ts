/**
 * A local GitLab REST API v4 over the code hosts' in-memory git repository (git-store.ts), answering in GitLab's own
 * shapes, for the GitLab connector's tests.
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
import type { RemoteFixture } from '../connector-kit.js';
import { serveAnswers, segments, type Answer, type AnswerHandler, type AnsweringServer } from './answering.js';
import { blobSha, codeHostFixtureOps, fillerFiles, GitStore, NO_COMMIT, PARLANCE_BOT, seedFiles, type StoredCommit } from './git-store.js';

export interface GitlabMockOptions {
  token?: string;
  projectId?: number;
  projectPath?: string;
  /** Filler files in the repository, so the tree listing spans several pages of 100. */
  extraFiles?: number;
}

export interface GitlabMock extends AnsweringServer {
  /** The API root, as the connector's `api_url` takes it. */
  apiUrl: string;
  token: string;
  projectId: number;
  projectPath: string;
  store: GitStore;
  mergeRequests: { iid: number; source_branch: string; target_branch: string; title: string; description: string; state: 'opened' | 'merged' | 'closed'; notes: string[] }[];
  statuses: { sha: string; state: string; name: string; description: string | null; target_url: string | null }[];
  /** The push event GitLab sends for the last commit on `branch`, with the given secret token. */
  pushEvent(secret: string, branch?: string): { headers: Record<string, string>; body: string };
}

const GITLAB_USER = { id: 4, username: 'maria', name: 'Maria Example', state: 'active', avatar_url: null, web_url: 'https://gitlab.example.com/maria' };

export async function startGitlabMock(options: GitlabMockOptions = {}): Promise<GitlabMock> {
  const token = options.token ?? 'glpat-kit-0123456789abcdefghij';
  const projectId = options.projectId ?? 4815;
  const projectPath = options.projectPath ?? 'acme/shop';
  const store = new GitStore(seedFiles({ 'README.md': '# Shop\n', ...fillerFiles(options.extraFiles ?? 0) }));
  const mergeRequests: GitlabMock['mergeRequests'] = [];
  const statuses: GitlabMock['statuses'] = [];
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

  const handle: AnswerHandler = (request): Answer => {
    if (request.headers['private-token'] !== token) return { status: 401, body: { message: '401 Unauthorized' } };
    const parts = segments(request.path);
    // users.md: the token's own account; commits made through the API carry its commit email.
    if (request.method === 'GET' && parts.join('/') === 'api/v4/user') return { status: 200, body: { ...GITLAB_USER, id: 7, username: PARLANCE_BOT.username, name: PARLANCE_BOT.name, email: PARLANCE_BOT.email, commit_email: PARLANCE_BOT.email, public_email: null, bot: true } };
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
    // repositories.md: GET …/repository/merge_base?refs[]=…&refs[]=… answers the common ancestor as a commit.
    if (route === 'GET repository/merge_base') {
      const refs = q.getAll('refs[]');
      if (refs.length < 2) return badRequest('Provide at least 2 refs');
      const commits = refs.map((ref) => store.resolve(ref));
      if (commits.some((c) => !c)) return notFound(`Commit`);
      const found = store.mergeBase(commits[0]!.id, commits[1]!.id);
      return found ? { status: 200, body: commitJson(found) } : notFound('Merge Base');
    }
    // repositories.md: GET …/repository/compare?from&to (straight=false: from the merge base), commits oldest first.
    if (route === 'GET repository/compare') {
      const from = store.resolve(q.get('from') ?? '');
      const to = store.resolve(q.get('to') ?? '');
      if (!from || !to) return notFound('Ref');
      const commits = store.between(from.id, to.id).reverse();
      return { status: 200, body: { commit: commits.at(-1) ? commitJson(commits.at(-1)!) : null, commits: commits.map(commitJson), diffs: [], compare_timeout: false, compare_same_ref: from.id === to.id, web_url: `${webUrl()}/-/compare/${from.id}...${to.id}` } };
    }
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
      // notes.md: a note's id here is 700 + its place in the merge request's list.
      const noteJson = (index: number) => ({ id: 700 + index + 1, type: null, body: mr.notes[index]!, author: { ...GITLAB_USER, username: PARLANCE_BOT.username }, system: false, noteable_id: 9000 + mr.iid, noteable_type: 'MergeRequest', noteable_iid: mr.iid });
      if (request.method === 'GET' && rest[2] === 'notes' && rest.length === 3) {
        const perPage = Math.min(100, Number(q.get('per_page') ?? 20));
        const page = Number(q.get('page') ?? 1);
        const all = mr.notes.map((_, i) => noteJson(i));
        const items = (q.get('sort') === 'asc' ? all : all.reverse()).slice((page - 1) * perPage, page * perPage);
        return { status: 200, headers: { 'X-Page': String(page), 'X-Next-Page': page * perPage < all.length ? String(page + 1) : '', 'X-Total': String(all.length) }, body: items };
      }
      if (request.method === 'POST' && rest[2] === 'notes') {
        if (!body.body) return { status: 400, body: { error: 'body is missing' } };
        mr.notes.push(body.body);
        return { status: 201, body: noteJson(mr.notes.length - 1) };
      }
      if (request.method === 'PUT' && rest[2] === 'notes' && rest.length === 4) {
        const index = Number(rest[3]) - 701;
        if (!mr.notes[index]) return notFound('Note');
        if (!body.body) return { status: 400, body: { error: 'body is missing' } };
        mr.notes[index] = body.body;
        return { status: 200, body: noteJson(index) };
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
    // commits.md: `force` overwrites the target branch with a new commit based on start_branch or start_sha.
    if (force && !startSha && !startBranch) return badRequest('force requires start_branch or start_sha');
    const exists = store.head(branch) !== undefined;
    let from: string | undefined;
    if (startSha || startBranch) {
      if (exists && !force) return badRequest(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
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

  // GitLab's rate limiter.
  const tooManyRequests = (retryAfter: number): Answer => {
    const reset = Math.ceil(Date.now() / 1000) + retryAfter;
    return {
      status: 429,
      headers: { 'RateLimit-Limit': '2000', 'RateLimit-Observed': '2001', 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(reset), 'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(), 'Retry-After': String(retryAfter) },
      body: 'Retry later\n',
    };
  };
  const server = await serveAnswers(handle, tooManyRequests);
  origin = server.url;

  return {
    ...server,
    apiUrl: `${server.url}/api/v4`,
    token,
    projectId,
    projectPath,
    store,
    mergeRequests,
    statuses,
    pushEvent(secret, branch = 'main') {
      const head = store.commit(store.head(branch)!)!;
      const project = { id: projectId, name: projectPath.split('/').pop(), description: '', web_url: webUrl(), avatar_url: null, git_ssh_url: `git@127.0.0.1:${projectPath}.git`, git_http_url: `${webUrl()}.git`, namespace: projectPath.split('/')[0], visibility_level: 0, path_with_namespace: projectPath, default_branch: 'main', homepage: webUrl(), url: `git@127.0.0.1:${projectPath}.git`, ssh_url: `git@127.0.0.1:${projectPath}.git`, http_url: `${webUrl()}.git` };
      const payload = {
        object_kind: 'push',
        event_name: 'push',
        before: head.parents[0] ?? NO_COMMIT,
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
        commits: [{ id: head.id, message: head.message, title: head.message.split('\n')[0], timestamp: head.timestamp, url: `${webUrl()}/-/commit/${head.id}`, author: { name: head.author.name, email: head.author.email }, ...store.changedPaths(head.id), removed: [] }],
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
    ...codeHostFixtureOps(mock.store, mock, (secret) => mock.pushEvent(secret), () => {
      for (const mr of mock.mergeRequests) if (mr.state === 'opened') mr.state = 'merged';
    }),
  };
}
