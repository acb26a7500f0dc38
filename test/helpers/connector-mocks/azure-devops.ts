/**
 * A local Azure DevOps Git REST API 7.1 over the code hosts' in-memory git repository (git-store.ts), for the Azure
 * DevOps Repos connector's tests.
 *
 * Shapes taken from Microsoft's reference (https://learn.microsoft.com/en-us/rest/api/azure/devops/git/?view=azure-devops-rest-7.1):
 * refs/list (`filter` is a prefix of the name after `refs/`, `{ count, value: [{ name, objectId }] }`, the
 * `x-ms-continuationtoken` header for the next page), items/list (`recursionLevel=Full`: folders with `isFolder` and
 * `gitObjectType: 'tree'`, files as `blob`, paths with a leading '/'), items/get (`$format=octetStream`: the bytes),
 * pushes/create (`refUpdates[].oldObjectId`, `commits[].changes[]` of `add`/`edit` with `newContent` `base64encoded`;
 * 201 with the GitPush; the "Update a file in a new branch" example, where a new branch's oldObjectId is the commit it
 * starts from), pull-requests (`searchCriteria.*`, `pullRequestId`, PATCH), statuses/create (`state`, `context`);
 * commits/get-commits (`searchCriteria.itemVersion` and `compareVersion`; `comment` cut with `commentTruncated`) and
 * commits/get, a push's commit naming its `parents` (a non-fast-forward update needs ForcePush), thread comments/update,
 * Connection Data (`authenticatedUser.properties.Account.$value`);
 * the error body `{ $id, innerException, message, typeName, typeKey, errorCode, eventId }` with Azure's TF codes
 * (TF401019 repository not found, TF401174 item not found, TF401028 stale reference, TF400813 anonymous access,
 * TF401027 a missing Git permission: GitNeedsPermissionException, 403);
 * 203 with the sign-in page when `X-TFS-FedAuthRedirect: Suppress` is not sent; 429 with Retry-After and the
 * `X-RateLimit-*` headers (learn.microsoft.com/en-us/azure/devops/integrate/concepts/rate-limits); service hooks
 * (learn.microsoft.com/en-us/azure/devops/service-hooks/events#git.push): the `git.push` event envelope, sent with the
 * subscription's basic authentication.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RemoteFixture } from '../connector-kit.js';
import { codeHostFixtureOps, GitStore, NO_COMMIT, PARLANCE_BOT, seedFiles, type StoredCommit } from './git-store.js';
import { sendJson, serveOnLoopback } from './loopback.js';

export interface AzureDevopsMockOptions {
  organization?: string;
  project?: string;
  repository?: string;
  /** The personal access token the mock accepts (as the password of Basic, any user name). */
  token?: string;
  /** A test knob: the most refs a page of `GET refs` holds before `x-ms-continuationtoken` (Azure pages at 1000). */
  refsPageSize?: number;
  /** A test knob: whether the token's identity has the ForcePush permission on parlance/ branches (default true). */
  forcePush?: boolean;
}

/** A pull request comment thread as Azure DevOps answers it (GitPullRequestCommentThread, the fields used here). */
export interface MockThread {
  id: number;
  status: string;
  isDeleted: boolean;
  threadContext: { filePath: string; rightFileStart?: { line: number; offset: number }; rightFileEnd?: { line: number; offset: number } } | null;
  comments: { id: number; parentCommentId: number; content: string; commentType: string }[];
}

export interface AzureDevopsMock {
  /** The root, as the `api_url` setting takes it. */
  url: string;
  organization: string;
  project: string;
  repository: string;
  token: string;
  git: GitStore;
  /** `METHOD path?query` of every request, in order. */
  requests: string[];
  /** The bodies of every push, in order. */
  pushes: { refUpdates: { name: string; oldObjectId: string }[]; commits: { comment: string; changes: { changeType: string; item: { path: string } }[] }[] }[];
  pullRequests: { pullRequestId: number; title: string; description: string; sourceRefName: string; targetRefName: string; status: string }[];
  statuses: { commit: string; state: string; description: string; context: { name: string; genre: string }; targetUrl?: string }[];
  /** Comment threads by pull request id. */
  threads: Map<number, MockThread[]>;
  failNext429(count?: number): void;
  /** Grants or denies the token's identity the ForcePush permission on parlance/ branches. */
  setForcePush(allowed: boolean): void;
  /** Runs once, just before the next push is handled (a person pushing in between). */
  beforeNextPush(action: () => void): void;
  /** The git.push service hook event for the latest move of `branch`, with basic authentication `user:password`. */
  pushEvent(password: string, branch?: string): { headers: Record<string, string>; body: string };
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function azureError(res: ServerResponse, status: number, message: string, typeKey: string, typeName = `Microsoft.TeamFoundation.Git.Server.${typeKey}, Microsoft.TeamFoundation.Git.Server`, headers: Record<string, string> = {}) {
  sendJson(res, status, { $id: '1', innerException: null, message, typeName, typeKey, errorCode: 0, eventId: 3000 }, { activityid: randomUUID(), ...headers });
}

export async function startAzureDevopsMock(options: AzureDevopsMockOptions = {}): Promise<AzureDevopsMock> {
  const organization = options.organization ?? 'fabrikam';
  const project = options.project ?? 'Storefront';
  const repository = options.repository ?? 'storefront-web';
  const token = options.token ?? 'azdo-pat-5f3k2q7x9w1m4n8b';
  const repositoryId = '3411ebc1-d5aa-464f-9615-0b527bc66719';
  const git = new GitStore(seedFiles({ 'README.md': '# Storefront\n', 'src/app/index.ts': 'export {};\n' }));
  const requests: string[] = [];
  const pushes: AzureDevopsMock['pushes'] = [];
  const pullRequests: AzureDevopsMock['pullRequests'] = [];
  const statuses: AzureDevopsMock['statuses'] = [];
  const threads: AzureDevopsMock['threads'] = new Map();
  let fail429 = 0;
  let forcePush = options.forcePush ?? true;
  let beforePush: (() => void) | undefined;
  let base = '';
  const repoApi = () => `${base}/${organization}/${project}/_apis/git/repositories/${repositoryId}`;
  const repoRecord = () => ({ id: repositoryId, name: repository, url: repoApi(), project: { id: 'a7573007-bbb3-4341-b726-0c4148a07853', name: project, state: 'wellFormed' }, defaultBranch: 'refs/heads/main', remoteUrl: `${base}/${organization}/${project}/_git/${repository}` });

  function authorized(req: IncomingMessage): 'ok' | 'signin' | 'refused' {
    const match = req.headers.authorization?.match(/^Basic (.+)$/);
    const password = match ? Buffer.from(match[1]!, 'base64').toString('utf8').split(':').slice(1).join(':') : undefined;
    if (password === token) return 'ok';
    return req.headers['x-tfs-fedauthredirect'] === 'Suppress' ? 'refused' : 'signin';
  }

  function handlePush(body: Buffer, res: ServerResponse) {
    beforePush?.();
    beforePush = undefined;
    const push = JSON.parse(body.toString('utf8')) as AzureDevopsMock['pushes'][number] & { commits: { changes: { newContent?: { content: string; contentType: string } }[] }[] };
    pushes.push(push);
    const update = push.refUpdates[0]!;
    const branch = update.name.replace(/^refs\/heads\//, '');
    const head = git.branches.get(branch);
    if (head ? head !== update.oldObjectId : update.oldObjectId !== NO_COMMIT && !git.commits.has(update.oldObjectId)) {
      return azureError(res, 409, `TF401028: The reference '${update.name}' has already been updated by another client, so you cannot update it. Please try again.`, 'GitReferenceStaleException');
    }
    // A commit may name its parents; one that does not descend from the branch's head moves the branch backwards or
    // sideways, a non-fast-forward update Azure allows only with ForcePush (TF401027 otherwise, nothing written).
    const named = (push.commits[0] as { parents?: string[] }).parents?.[0];
    if (named !== undefined && !git.commits.has(named)) return azureError(res, 400, `TF401175: The commit ${named} could not be found.`, 'GitCommitDoesNotExistException');
    if (named !== undefined && head && !git.ancestors(named).has(head) && !forcePush) {
      return azureError(res, 403, `TF401027: You need the Git 'ForcePush' permission to perform this action. Details: identity 'a6c2b1f0-4b1e-4c61-9c3d-1f0e2d3c4b5a\\parlance@example.com', scope 'branch'.`, 'GitNeedsPermissionException');
    }
    const parent = named ?? head ?? (update.oldObjectId === NO_COMMIT ? undefined : update.oldObjectId);
    const tree = parent ? git.commits.get(parent)!.files : new Map<string, Uint8Array>();
    const changes = new Map<string, Uint8Array>();
    for (const change of push.commits[0]!.changes as { changeType: string; item: { path: string }; newContent?: { content: string; contentType: string } }[]) {
      const path = change.item.path.replace(/^\//, '');
      const present = tree.has(path) || changes.has(path);
      if (change.changeType === 'add' && present) return azureError(res, 400, `The path '${change.item.path}' already exists at the parent commit; change it with 'edit'.`, 'GitItemAlreadyExistsException');
      if (change.changeType === 'edit' && !present) return azureError(res, 404, `TF401174: The item '${change.item.path}' could not be found in the repository '${repository}' at the version specified by '<Commit: ${parent?.slice(0, 8)}>'.`, 'GitItemNotFoundException');
      if (change.newContent?.contentType !== 'base64encoded') return azureError(res, 400, 'The contentType of newContent must be base64encoded in this mock.', 'ArgumentException', 'System.ArgumentException, mscorlib');
      changes.set(path, new Uint8Array(Buffer.from(change.newContent.content, 'base64')));
    }
    const commit = git.commitTo(branch, changes, push.commits[0]!.comment, PARLANCE_BOT, parent ?? null);
    return sendJson(res, 201, {
      commits: [{ commitId: commit.id, comment: commit.message, url: `${repoApi()}/commits/${commit.id}` }],
      refUpdates: [{ repositoryId, name: update.name, oldObjectId: head ?? NO_COMMIT, newObjectId: commit.id }],
      repository: repoRecord(),
      pushedBy: { displayName: 'Parlance', uniqueName: 'parlance@fabrikam.example' },
      pushId: pushes.length,
      date: new Date().toISOString(),
      url: `${repoApi()}/pushes/${pushes.length}`,
    });
  }

  function items(url: URL, res: ServerResponse) {
    const version = url.searchParams.get('versionDescriptor.version') ?? 'main';
    const commit = git.resolve(version);
    if (!commit) return azureError(res, 404, `TF401175: The version descriptor <Commit: ${version}> could not be resolved to a version in the repository '${repository}'.`, 'GitUnresolvableToCommitException');
    const path = url.searchParams.get('path');
    if (path !== null) {
      const bytes = commit.files.get(path.replace(/^\//, ''));
      if (!bytes) return azureError(res, 404, `TF401174: The item '${path}' could not be found in the repository '${repository}' at the version specified by '<Commit: ${commit.id.slice(0, 8)}>' (resolved to commit ${commit.id.slice(0, 8)}).`, 'GitItemNotFoundException');
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(bytes));
    }
    if (url.searchParams.get('recursionLevel') !== 'Full') return azureError(res, 400, 'This mock lists with recursionLevel=Full only.', 'ArgumentException', 'System.ArgumentException, mscorlib');
    const entries = [{ path: '', type: 'tree', sha: randomUUID().replace(/-/g, '') }, ...git.treeEntries(commit.id)];
    const item = (entry: (typeof entries)[number]) => ({ objectId: entry.sha, gitObjectType: entry.type, commitId: commit.id, path: `/${entry.path}`, ...(entry.type === 'tree' ? { isFolder: true } : {}), url: `${repoApi()}/items?path=${encodeURIComponent(`/${entry.path}`)}` });
    // Folders first, then files, each in path order.
    const value = [...entries.filter((e) => e.type === 'tree'), ...entries.filter((e) => e.type === 'blob')].map(item);
    return sendJson(res, 200, { count: value.length, value });
  }

  function refs(url: URL, res: ServerResponse) {
    const filter = url.searchParams.get('filter') ?? '';
    const all = [...git.branches.entries()].map(([name, objectId]) => ({ name: `refs/heads/${name}`, objectId, creator: { displayName: 'Maria Example' }, url: `${repoApi()}/refs?filter=heads%2F${encodeURIComponent(name)}` }));
    const matching = all.filter((r) => r.name.startsWith(`refs/${filter}`)).sort((a, b) => a.name.localeCompare(b.name));
    const size = options.refsPageSize ?? 1000;
    const start = Number(url.searchParams.get('continuationToken') ?? '0');
    const page = matching.slice(start, start + size);
    const more = start + size < matching.length;
    return sendJson(res, 200, { value: page, count: page.length }, more ? { 'x-ms-continuationtoken': String(start + size) } : {});
  }

  /** A GitCommitRef as commits/get-commits (cut comment) and commits/get (whole) answer it. */
  const commitRecord = (c: StoredCommit, cut: boolean) => {
    const person = { name: c.author.name, email: c.author.email, date: c.timestamp };
    const long = cut && c.message.length > 200;
    return { commitId: c.id, author: person, committer: person, comment: long ? c.message.slice(0, 200) : c.message, ...(long ? { commentTruncated: true } : {}), parents: c.parents, url: `${repoApi()}/commits/${c.id}` };
  };

  const prRecord = (pr: AzureDevopsMock['pullRequests'][number]) => ({ ...pr, repository: repoRecord(), url: `${repoApi()}/pullRequests/${pr.pullRequestId}`, mergeStatus: 'succeeded', isDraft: false });

  async function handle(req: IncomingMessage, body: Buffer, res: ServerResponse) {
    const url = new URL(req.url!, base);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (fail429 > 0) {
      fail429--;
      const reset = String(Math.floor(Date.now() / 1000) + 1);
      return azureError(res, 429, 'TF400733: The request has been throttled: too many requests in a short time.', 'RequestBlockedException', 'Microsoft.TeamFoundation.Framework.Server.RequestBlockedException, Microsoft.TeamFoundation.Framework.Server', {
        'retry-after': '1',
        'x-ratelimit-resource': 'ATCPU',
        'x-ratelimit-delay': '0.5',
        'x-ratelimit-limit': '200',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': reset,
      });
    }
    const auth = authorized(req);
    if (auth === 'signin') return res.writeHead(203, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><html><head><title>Azure DevOps Services | Sign In</title></head><body></body></html>');
    if (auth === 'refused') return azureError(res, 401, 'TF400813: Resource not available for anonymous access. Client authentication required.', 'UnauthorizedRequestException', 'Microsoft.TeamFoundation.Framework.Server.UnauthorizedRequestException, Microsoft.TeamFoundation.Framework.Server');
    // Connection Data (no api-version needed): the token's identity, its email in properties.Account.
    if (url.pathname === `/${organization}/_apis/connectionData` && req.method === 'GET') {
      return sendJson(res, 200, { authenticatedUser: { id: 'a6c2b1f0-4b1e-4c61-9c3d-1f0e2d3c4b5a', providerDisplayName: PARLANCE_BOT.name, isActive: true, properties: { Account: { $type: 'System.String', $value: PARLANCE_BOT.email } } }, instanceId: '8d5b8a2e-6b8c-4c9e-9a4c-6a7d1e0b9f3c', locationServiceData: {} });
    }
    if (url.searchParams.get('api-version') !== '7.1') return azureError(res, 400, `The requested REST API version of ${url.searchParams.get('api-version')} is not 7.1 in this mock.`, 'VssVersionOutOfRangeException', 'Microsoft.VisualStudio.Services.WebApi.VssVersionOutOfRangeException, Microsoft.VisualStudio.Services.WebApi');
    const match = url.pathname.match(/^\/([^/]+)\/([^/]+)\/_apis\/git\/repositories\/([^/]+)(\/.*)?$/);
    if (!match) return azureError(res, 404, 'The resource cannot be found.', 'NotFoundException', 'System.Web.HttpException, System.Web');
    const [org, proj, repo] = [match[1]!, match[2]!, match[3]!].map(decodeURIComponent);
    if (org !== organization) return azureError(res, 404, `TF400898: The organization '${org}' could not be found.`, 'HostNotFoundException', 'Microsoft.VisualStudio.Services.Common.HostNotFoundException');
    if (proj !== project || (repo !== repository && repo !== repositoryId)) {
      return azureError(res, 404, `TF401019: The Git repository with name or identifier ${repo} does not exist or you do not have permissions for the operation you are attempting.`, 'GitRepositoryNotFoundException');
    }
    const rest = match[4] ?? '';
    const method = req.method!;
    if (rest === '/refs' && method === 'GET') return refs(url, res);
    if (rest === '/items' && method === 'GET') return items(url, res);
    // diffs/get: the merge base of baseVersion and targetVersion (`commonCommit`), with the ahead and behind counts.
    if (rest === '/diffs/commits' && method === 'GET') {
      const q = url.searchParams;
      const [base, target] = [git.resolve(q.get('baseVersion') ?? ''), git.resolve(q.get('targetVersion') ?? '')];
      if (!base || !target) return azureError(res, 404, `TF401175: The version descriptor <Commit: ${!base ? q.get('baseVersion') : q.get('targetVersion')}> could not be resolved to a version in the repository.`, 'GitUnresolvableToCommitException');
      const common = git.mergeBase(base.id, target.id)!;
      return sendJson(res, 200, { allChangesIncluded: true, changeCounts: {}, changes: [], commonCommit: common.id, baseCommit: base.id, targetCommit: target.id, aheadCount: git.between(base.id, target.id).length, behindCount: git.between(target.id, base.id).length });
    }
    if (rest === '/pushes' && method === 'POST') return handlePush(body, res);
    // commits/get-commits with itemVersion and compareVersion: the commits the item version has and the compare version
    // has not, newest first; a comment over 200 characters is cut, with commentTruncated (commits/get has it whole).
    if (rest === '/commits' && method === 'GET') {
      const q = url.searchParams;
      const [item, compare] = [git.resolve(q.get('searchCriteria.itemVersion.version') ?? ''), git.resolve(q.get('searchCriteria.compareVersion.version') ?? '')];
      if (!item || !compare) return azureError(res, 404, 'TF401175: The version descriptor could not be resolved to a version in the repository.', 'GitUnresolvableToCommitException');
      const top = Number(q.get('searchCriteria.$top') ?? '100');
      const value = git.between(compare.id, item.id).slice(0, top).map((c) => commitRecord(c, true));
      return sendJson(res, 200, { count: value.length, value });
    }
    const oneCommit = rest.match(/^\/commits\/([0-9a-f]{40})$/);
    if (oneCommit && method === 'GET') {
      const found = git.commits.get(oneCommit[1]!);
      if (!found) return azureError(res, 404, `TF401175: The commit ${oneCommit[1]} could not be found.`, 'GitCommitDoesNotExistException');
      return sendJson(res, 200, commitRecord(found, false));
    }
    const comment = rest.match(/^\/pullrequests\/(\d+)\/threads\/(\d+)\/comments\/(\d+)$/i);
    if (comment && method === 'PATCH') {
      const found = threads.get(Number(comment[1]))?.find((t) => t.id === Number(comment[2]))?.comments.find((c) => c.id === Number(comment[3]));
      if (!found) return azureError(res, 404, 'TF401181: The comment could not be found.', 'CommentNotFoundException');
      found.content = (JSON.parse(body.toString('utf8')) as { content: string }).content;
      return sendJson(res, 200, found);
    }
    if (rest.toLowerCase() === '/pullrequests' && method === 'GET') {
      const q = url.searchParams;
      const found = pullRequests.filter(
        (pr) => (!q.get('searchCriteria.sourceRefName') || pr.sourceRefName === q.get('searchCriteria.sourceRefName')) && (!q.get('searchCriteria.targetRefName') || pr.targetRefName === q.get('searchCriteria.targetRefName')) && pr.status === (q.get('searchCriteria.status') ?? 'active'),
      );
      return sendJson(res, 200, { value: found.map(prRecord), count: found.length });
    }
    if (rest.toLowerCase() === '/pullrequests' && method === 'POST') {
      const input = JSON.parse(body.toString('utf8')) as { sourceRefName?: string; targetRefName?: string; title?: string; description?: string };
      if (!input.sourceRefName || !git.branches.has(input.sourceRefName.replace(/^refs\/heads\//, ''))) return azureError(res, 404, `TF401398: The pull request cannot be activated because the source and/or the target branch no longer exists.`, 'GitPullRequestCannotBeActivated');
      if ((input.description ?? '').length > 4000) return azureError(res, 400, 'TF401376: The description of a pull request is limited to 4000 characters.', 'InvalidArgumentValueException');
      const pr = { pullRequestId: pullRequests.length + 1, title: input.title ?? '', description: input.description ?? '', sourceRefName: input.sourceRefName, targetRefName: input.targetRefName ?? 'refs/heads/main', status: 'active' };
      pullRequests.push(pr);
      return sendJson(res, 201, prRecord(pr));
    }
    const pr = rest.match(/^\/pullrequests\/(\d+)$/i);
    if (pr && method === 'PATCH') {
      const found = pullRequests.find((p) => p.pullRequestId === Number(pr[1]));
      if (!found) return azureError(res, 404, `TF401180: The requested pull request was not found.`, 'GitPullRequestNotFoundException');
      const input = JSON.parse(body.toString('utf8')) as { title?: string; description?: string };
      if ((input.description ?? '').length > 4000) return azureError(res, 400, 'TF401376: The description of a pull request is limited to 4000 characters.', 'InvalidArgumentValueException');
      if (input.title !== undefined) found.title = input.title;
      if (input.description !== undefined) found.description = input.description;
      return sendJson(res, 200, prRecord(found));
    }
    const thread = rest.match(/^\/pullrequests\/(\d+)\/threads(?:\/(\d+))?$/i);
    if (thread) {
      const id = Number(thread[1]);
      if (!pullRequests.some((p) => p.pullRequestId === id)) return azureError(res, 404, 'TF401180: The requested pull request was not found.', 'GitPullRequestNotFoundException');
      const list = threads.get(id) ?? [];
      threads.set(id, list);
      if (!thread[2] && method === 'GET') return sendJson(res, 200, { value: list, count: list.length });
      if (!thread[2] && method === 'POST') {
        const input = JSON.parse(body.toString('utf8')) as { comments?: { parentCommentId?: number; content?: string; commentType?: string }[]; status?: string; threadContext?: MockThread['threadContext'] };
        if (!input.comments?.[0]?.content) return azureError(res, 400, 'A thread needs at least one comment.', 'InvalidArgumentValueException');
        const created = { id: 100 + list.length, status: input.status ?? 'active', isDeleted: false, threadContext: input.threadContext ?? null, comments: input.comments.map((c, i) => ({ id: i + 1, parentCommentId: c.parentCommentId ?? 0, content: c.content ?? '', commentType: c.commentType ?? 'text' })) };
        list.push(created);
        return sendJson(res, 200, created);
      }
      const found = list.find((t) => t.id === Number(thread[2]));
      if (thread[2] && method === 'PATCH' && found) {
        const input = JSON.parse(body.toString('utf8')) as { status?: string };
        if (input.status) found.status = input.status;
        return sendJson(res, 200, found);
      }
    }
    const status = rest.match(/^\/commits\/([0-9a-f]{40})\/statuses$/);
    if (status && method === 'POST') {
      if (!git.commits.has(status[1]!)) return azureError(res, 404, `TF401175: The commit ${status[1]} could not be found.`, 'GitCommitDoesNotExistException');
      const input = JSON.parse(body.toString('utf8')) as AzureDevopsMock['statuses'][number];
      if (!['succeeded', 'failed', 'pending', 'error', 'notApplicable', 'notSet'].includes(input.state) || !input.context?.name) return azureError(res, 400, 'state and context.name are required.', 'InvalidArgumentValueException');
      statuses.push({ ...input, commit: status[1]! });
      return sendJson(res, 201, { ...input, id: statuses.length, creationDate: new Date().toISOString(), createdBy: { displayName: 'Parlance' } });
    }
    return azureError(res, 404, `No route for ${method} ${url.pathname} in this mock.`, 'NotFoundException');
  }

  const server = await serveOnLoopback(handle);
  base = server.url;

  return {
    url: base,
    organization,
    project,
    repository,
    token,
    git,
    requests,
    pushes,
    pullRequests,
    statuses,
    threads,
    failNext429(count = 1) {
      fail429 = count;
    },
    setForcePush(allowed) {
      forcePush = allowed;
    },
    beforeNextPush(action) {
      beforePush = action;
    },
    pushEvent(password, branch = 'main') {
      const move = git.moves.filter((m) => m.branch === branch).at(-1)!;
      const commit = git.commits.get(move.after)!;
      const event = {
        subscriptionId: '00000000-0000-0000-0000-000000000000',
        notificationId: 3,
        id: randomUUID(),
        eventType: 'git.push',
        publisherId: 'tfs',
        message: { text: `Maria Example pushed updates to ${repository}:${branch}.`, html: '', markdown: '' },
        detailedMessage: { text: `Maria Example pushed a commit to ${repository}:${branch}.`, html: '', markdown: '' },
        resource: {
          commits: [{ commitId: commit.id, author: { name: 'Maria Example', email: 'maria@example.com', date: new Date().toISOString() }, comment: commit.message, url: `${repoApi()}/commits/${commit.id}` }],
          refUpdates: [{ name: `refs/heads/${branch}`, oldObjectId: move.before ?? NO_COMMIT, newObjectId: move.after }],
          repository: repoRecord(),
          pushedBy: { displayName: 'Maria Example', uniqueName: 'maria@example.com' },
          pushId: 14,
          date: new Date().toISOString(),
          url: `${repoApi()}/pushes/14`,
        },
        resourceVersion: '1.0',
        resourceContainers: { collection: { id: randomUUID() }, account: { id: randomUUID() }, project: { id: 'a7573007-bbb3-4341-b726-0c4148a07853' } },
        createdDate: new Date().toISOString(),
      };
      return {
        headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Basic ${Buffer.from(`parlance:${password}`).toString('base64')}` },
        body: JSON.stringify(event),
      };
    },
    stop: () => server.stop(),
    start: () => server.start(),
    close: () => server.close(),
  };
}

/** The acceptance kit's fixture over the Azure DevOps mock. */
export async function azureDevopsFixture(): Promise<RemoteFixture & { mock: AzureDevopsMock }> {
  const mock = await startAzureDevopsMock();
  return {
    mock,
    connector: 'azure_devops',
    settings: { api_url: mock.url, organization: mock.organization, project: mock.project, repository: mock.repository },
    secrets: { token: mock.token },
    badSecrets: { token: 'azdo-pat-revoked' },
    ...codeHostFixtureOps(mock.git, mock, (secret) => mock.pushEvent(secret), () => {
      for (const pr of mock.pullRequests) if (pr.status === 'active') pr.status = 'completed';
    }),
  };
}
