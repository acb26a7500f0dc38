/**
 * Azure DevOps Repos (Git REST API 7.1) as a code host: reads `parlance.yml` and the source files through `items`,
 * writes one commit per batch on `parlance/<base>` with `POST pushes` (its `refUpdates[].oldObjectId` is Azure's own
 * compare-and-swap: a branch that moved since it was read answers 409 TF401028, and nothing is written), keeps one pull
 * request open, and sets a commit status `parlance/localization` (succeeded or failed) on each commit Parlance makes.
 *
 * The branch is rebuilt on a moved base, when only Parlance committed there, by a push whose commit names the base's
 * head as its parent and whose oldObjectId is the branch's head: a non-fast-forward update, which needs the Git
 * ForcePush permission on the branch; without it Azure answers 403 TF401027, and the branch is extended instead.
 *
 * Azure DevOps has no line annotations on a commit: each refused row becomes a comment thread on the pull request, on
 * its source file and line (at most 50; all rows are in the description's table). A thread whose row is no longer
 * refused is marked fixed; flagged rows stay in the description only, so review is not drowned in threads.
 *
 * Webhooks: an Azure DevOps service hook subscription ("Code pushed", `git.push`) to a Web Hook consumer, with basic
 * authentication whose password is the connection's webhook secret (the user name is not checked). Azure DevOps signs
 * nothing else, so the password is the only proof, and there is no timestamp to refuse a replay; a replay only starts
 * a harmless extra sync.
 *
 * Reference: https://learn.microsoft.com/en-us/rest/api/azure/devops/git/?view=azure-devops-rest-7.1 (refs/list,
 * items/list, items/get, pushes/create with the "Update a file in a new branch" example, pull-requests/get-pull-requests,
 * create, update, statuses/create, diffs/get for the merge base, commits/get-commits, pull-request-threads and
 * pull-request-thread-comments, GitRefUpdateStatus ForcePushRequired) and https://learn.microsoft.com/en-us/azure/devops/service-hooks/events#git.push.
 */
import { z } from '@hono/zod-openapi';
import { batchTrailers, branchFor, codeHostSettings, createCodeHostConnector, hasBatchTrailer, RebuildRefusedError, type CodeHostSettings, type GitHost } from '../code-host.js';
import type { ConnectorContext, ReportRow, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, vendorMessage } from '../connector-http.js';
import { sameSecret } from '../same-secret.js';

const settingsSchema = z
  .object({
    api_url: z.string().url().default('https://dev.azure.com').openapi({ description: 'The Azure DevOps root. Default `https://dev.azure.com` (an Azure DevOps Server collection URL works too).' }),
    organization: z.string().min(1).openapi({ description: 'The organization, as in dev.azure.com/{organization}.' }),
    project: z.string().min(1).openapi({ description: "The project's name or id." }),
    repository: z.string().min(1).openapi({ description: "The repository's name or id." }),
    ...codeHostSettings,
  })
  .strict();

const secretsSchema = z
  .object({ token: z.string().min(1).openapi({ description: 'A personal access token with the Code (Read & write) and Code (Status) scopes, sent as Basic with an empty user name.' }) })
  .strict();

export type AzureDevopsSettings = z.infer<typeof settingsSchema> & CodeHostSettings;
export type AzureDevopsSecrets = z.infer<typeof secretsSchema>;
type Context = ConnectorContext<AzureDevopsSettings, AzureDevopsSecrets>;

const API_VERSION = '7.1';
/** Azure DevOps refuses a pull request description longer than this. */
const DESCRIPTION_MAX = 4000;
/** The most refused rows posted as threads; the rest are in the description's table. */
const THREADS_MAX = 50;
/** The most commits of the branch listed; more count as people's (the branch is then not rebuilt). */
const COMMITS_MAX = 100;
/** How Parlance's threads start, to tell them from people's. */
const THREAD_MARK = '**Parlance**';

interface Listed<T> {
  value: T[];
  count?: number;
}
interface GitRef {
  name: string;
  objectId: string;
}
interface GitItem {
  path: string;
  gitObjectType?: string;
  isFolder?: boolean;
}
interface GitPullRequest {
  pullRequestId: number;
}
interface CommentThread {
  id: number;
  status?: string;
  isDeleted?: boolean;
  threadContext?: { filePath?: string } | null;
  comments?: { id?: number; content?: string }[];
}
interface GitCommit {
  commitId: string;
  comment: string;
  commentTruncated?: boolean;
  author?: { name?: string; email?: string };
  committer?: { name?: string; email?: string };
}
interface ConnectionData {
  authenticatedUser: { id: string; providerDisplayName?: string; properties?: { Account?: { $value?: string } } };
}

function threadContent(row: ReportRow): string {
  return `${THREAD_MARK}: the ${row.locale} translation of \`${row.key}\` was refused: ${row.reason}`;
}

/** A thread on the row's source file, on its line when the row has one. */
function threadContext(row: ReportRow) {
  const filePath = `/${row.path}`;
  if (row.line === null) return { filePath };
  return { filePath, rightFileStart: { line: row.line, offset: 1 }, rightFileEnd: { line: row.line, offset: 1 } };
}

function openAzureDevops(ctx: Context): GitHost {
  const s = ctx.settings;
  const root = s.api_url.replace(/\/+$/, '');
  const repoApi = `${root}/${encodeURIComponent(s.organization)}/${encodeURIComponent(s.project)}/_apis/git/repositories/${encodeURIComponent(s.repository)}`;
  const webRepo = `${root}/${encodeURIComponent(s.organization)}/${encodeURIComponent(s.project)}/_git/${encodeURIComponent(s.repository)}`;
  const label = `${s.organization}/${s.project}/${s.repository} on Azure DevOps`;
  // Suppress: a refused token answers 401 instead of 203 and the sign-in page.
  const headers = { authorization: `Basic ${Buffer.from(`:${ctx.secrets.token}`).toString('base64')}`, 'x-tfs-fedauthredirect': 'Suppress' };
  const url = (path: string, query: Record<string, string> = {}) => `${repoApi}${path}?${new URLSearchParams({ ...query, 'api-version': API_VERSION })}`;

  /** A request whose answer must be 2xx: 203 is Azure's sign-in page, i.e. the token was not accepted. */
  async function send(target: string, what: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
    const response = await ctx.http.request(target, {
      headers: init.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(init.method ? { method: init.method } : {}),
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    if (response.status === 203) {
      await response.body?.cancel();
      throw new ConnectorError('auth', `${what}: Azure DevOps answered with its sign-in page (HTTP 203): the token was not accepted. Check the connection's token and its Code scopes, then PATCH it.`);
    }
    if (!response.ok) throw await failure(response, what);
    return response;
  }
  const json = async <T>(target: string, what: string, init: { method?: string; body?: unknown } = {}) => (await (await send(target, what, init)).json()) as T;

  async function branchHead(branch: string): Promise<string | null> {
    const name = `refs/heads/${branch}`;
    // `filter` is a prefix ('heads/main' also finds 'heads/main-old'): the exact name is picked from what comes back.
    let continuation: string | null = null;
    do {
      const query: Record<string, string> = { filter: `heads/${branch}` };
      if (continuation) query.continuationToken = continuation;
      const response = await send(url('/refs', query), `Reading branch '${branch}' of ${label}`);
      continuation = response.headers.get('x-ms-continuationtoken');
      const refs = (await response.json()) as Listed<GitRef>;
      const found = refs.value.find((ref) => ref.name === name);
      if (found) return found.objectId;
    } while (continuation);
    return null;
  }

  const atCommit = (commit: string) => ({ 'versionDescriptor.version': commit, 'versionDescriptor.versionType': 'commit' });

  async function listFiles(commit: string): Promise<string[]> {
    const items = await json<Listed<GitItem>>(url('/items', { scopePath: '/', recursionLevel: 'Full', ...atCommit(commit) }), `Listing the files of ${label} at ${commit.slice(0, 12)}`);
    return items.value.filter((item) => !item.isFolder && (item.gitObjectType ?? 'blob') === 'blob').map((item) => item.path.replace(/^\//, ''));
  }

  async function readFile(commit: string, path: string): Promise<Uint8Array | null> {
    const what = `Reading ${path} of ${label} at ${commit.slice(0, 12)}`;
    const response = await ctx.http.request(url('/items', { path: `/${path}`, ...atCommit(commit), $format: 'octetStream' }), { headers: { ...headers, accept: 'application/octet-stream' } });
    if (response.status === 404) {
      // The same 404 says "no such file" (GitItemNotFoundException) or "no such repository"; only the first is null.
      const body = (await response.clone().json().catch(() => ({}))) as { typeKey?: string };
      if (body.typeKey === 'GitItemNotFoundException') return null;
    }
    if (response.status === 203) throw new ConnectorError('auth', `${what}: Azure DevOps answered with its sign-in page (HTTP 203): the token was not accepted.`);
    if (!response.ok) throw await failure(response, what);
    return new Uint8Array(await response.arrayBuffer());
  }

  async function commit(input: Parameters<GitHost['commit']>[0]): Promise<string> {
    const what = `Pushing ${input.files.length} translation file(s) to '${input.branch}' of ${label}`;
    const body = {
      // For an existing branch oldObjectId must be its head now (else 409); for a new one it is the commit the branch
      // starts from (Microsoft's "Update a file in a new branch" example), and a branch created meanwhile is refused.
      // A rebuild names the branch's head as oldObjectId and the base's head as the commit's parent: a
      // non-fast-forward update, which Azure allows only with the ForcePush permission on the branch.
      refUpdates: [{ name: `refs/heads/${input.branch}`, oldObjectId: input.replaces ?? input.parent }],
      commits: [
        {
          comment: input.message,
          ...(input.replaces ? { parents: [input.parent] } : {}),
          changes: input.files.map((file) => ({
            changeType: file.exists ? 'edit' : 'add',
            item: { path: `/${file.path}` },
            newContent: { content: Buffer.from(file.content).toString('base64'), contentType: 'base64encoded' },
          })),
        },
      ],
    };
    const response = await ctx.http.request(url('/pushes'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (response.status === 409) {
      const said = vendorMessage(await response.text().catch(() => ''));
      throw new ConnectorError('unavailable', `${what}: the branch moved since Parlance read it at ${input.parent.slice(0, 12)} (someone pushed to it), so nothing was written and nothing of theirs was overwritten; the next attempt starts from the new head (Azure DevOps answered HTTP 409${said ? `: ${said}` : ''}).`);
    }
    if (response.status === 403 && input.replaces) {
      // TF401027 (GitNeedsPermissionException): the token's identity lacks ForcePush on the branch; nothing was written.
      const said = vendorMessage(await response.clone().text().catch(() => ''));
      if (/TF401027/.test(said) && /ForcePush/i.test(said)) throw new RebuildRefusedError(`Azure DevOps answered HTTP 403: ${said}`);
    }
    if (response.status === 203) throw new ConnectorError('auth', `${what}: Azure DevOps answered with its sign-in page (HTTP 203): the token was not accepted.`);
    if (!response.ok) throw await failure(response, what);
    const push = (await response.json()) as { commits?: { commitId?: string }[]; refUpdates?: { newObjectId?: string }[] };
    const created = push.refUpdates?.[0]?.newObjectId ?? push.commits?.[0]?.commitId;
    if (!created) throw new ConnectorError('unavailable', `${what}: the answer names no new commit.`);
    return created;
  }

  const requestUrl = (id: number | string) => `${webRepo}/pullrequest/${id}`;
  /** Azure cuts nothing itself: a description over its limit is refused, so the table is shortened here. */
  const description = (body: string) => (body.length <= DESCRIPTION_MAX ? body : `${body.slice(0, DESCRIPTION_MAX - 40)}\n\n… (shortened; see the batch)`);

  async function findRequest(source: string, target: string): Promise<{ id: string; url: string } | null> {
    const found = await json<Listed<GitPullRequest>>(
      url('/pullrequests', { 'searchCriteria.sourceRefName': `refs/heads/${source}`, 'searchCriteria.targetRefName': `refs/heads/${target}`, 'searchCriteria.status': 'active' }),
      `Looking for the pull request from '${source}' in ${label}`,
    );
    const first = found.value[0];
    return first ? { id: String(first.pullRequestId), url: requestUrl(first.pullRequestId) } : null;
  }

  async function openRequest(input: { source: string; target: string; title: string; body: string }): Promise<{ id: string; url: string }> {
    const created = await json<GitPullRequest>(url('/pullrequests'), `Opening the pull request from '${input.source}' in ${label}`, {
      method: 'POST',
      body: { sourceRefName: `refs/heads/${input.source}`, targetRefName: `refs/heads/${input.target}`, title: input.title, description: description(input.body) },
    });
    return { id: String(created.pullRequestId), url: requestUrl(created.pullRequestId) };
  }

  async function updateRequest(id: string, input: { title: string; body: string }): Promise<void> {
    await json(url(`/pullrequests/${encodeURIComponent(id)}`), `Updating pull request !${id} in ${label}`, { method: 'PATCH', body: { title: input.title, description: description(input.body) } });
  }

  async function reportStatus(input: Parameters<GitHost['reportStatus']>[0]): Promise<void> {
    await json(url(`/commits/${encodeURIComponent(input.commit)}/statuses`), `Setting the status of commit ${input.commit.slice(0, 12)} of ${label}`, {
      method: 'POST',
      body: {
        state: input.state === 'success' ? 'succeeded' : 'failed',
        description: input.summary.slice(0, 255),
        context: { name: 'parlance', genre: 'localization' },
        ...(input.url ? { targetUrl: input.url } : {}),
      },
    });
    const request = await findRequest(branchFor(s.base_branch), s.base_branch);
    if (request) await syncThreads(request.id, input.problems.filter((p) => p.outcome === 'refused').slice(0, THREADS_MAX));
  }

  /** One active thread per refused row: new rows get one, rows no longer refused have theirs marked fixed. */
  async function syncThreads(requestId: string, rows: ReportRow[]): Promise<void> {
    const threadsUrl = url(`/pullRequests/${encodeURIComponent(requestId)}/threads`);
    const what = `Commenting on pull request !${requestId} in ${label}`;
    const threads = await json<Listed<CommentThread>>(threadsUrl, what);
    const wanted = new Map(rows.map((row) => [`/${row.path}\0${threadContent(row)}`, row]));
    for (const thread of threads.value) {
      const content = thread.comments?.[0]?.content ?? '';
      if (thread.isDeleted || !content.startsWith(THREAD_MARK)) continue;
      const key = `${thread.threadContext?.filePath ?? ''}\0${content}`;
      // Parlance only moves its threads between active and fixed; one a person closed (won't fix, by design) stays so.
      const stillRefused = wanted.delete(key);
      const status = stillRefused ? (thread.status === 'fixed' ? 'active' : undefined) : thread.status === 'active' ? 'fixed' : undefined;
      if (status) await json(url(`/pullRequests/${encodeURIComponent(requestId)}/threads/${thread.id}`), what, { method: 'PATCH', body: { status } });
    }
    for (const row of wanted.values()) {
      await json(threadsUrl, what, { method: 'POST', body: { comments: [{ parentCommentId: 0, content: threadContent(row), commentType: 'text' }], status: 'active', threadContext: threadContext(row) } });
    }
  }

  /** Diffs - Get names the merge base (`commonCommit`) of the two commits; no change is needed, hence `$top=1`. */
  async function mergeBase(a: string, b: string): Promise<string> {
    const query = { baseVersion: a, baseVersionType: 'commit', targetVersion: b, targetVersionType: 'commit', $top: '1' };
    return (await json<{ commonCommit: string }>(url('/diffs/commits', query), `Finding the merge base of ${a.slice(0, 12)} and ${b.slice(0, 12)} in ${label}`)).commonCommit;
  }

  /** The token's identity (Connection Data's authenticated user), whose account email commits pushed through the API carry. */
  let self: Promise<ConnectionData> | undefined;
  const whoAmI = () => (self ??= json<ConnectionData>(`${root}/${encodeURIComponent(s.organization)}/_apis/connectionData`, `Reading the token's identity on ${label}`));

  /**
   * Commits - Get Commits with an item version and a compare version: the commits `head` has and `base` has not. Azure
   * cuts a long comment (`commentTruncated`); the trailer is at its end, so such a commit is read whole.
   */
  async function branchCommits(base: string, head: string) {
    const query = {
      'searchCriteria.itemVersion.version': head,
      'searchCriteria.itemVersion.versionType': 'commit',
      'searchCriteria.compareVersion.version': base,
      'searchCriteria.compareVersion.versionType': 'commit',
      'searchCriteria.$top': String(COMMITS_MAX),
    };
    const what = `Listing the commits of ${head.slice(0, 12)} not in ${base.slice(0, 12)} in ${label}`;
    const listed = await json<Listed<GitCommit>>(url('/commits', query), what);
    const email = (await whoAmI()).authenticatedUser.properties?.Account?.$value?.toLowerCase();
    const commits = [];
    for (const c of listed.value) {
      const comment = c.commentTruncated ? (await json<GitCommit>(url(`/commits/${encodeURIComponent(c.commitId)}`), what)).comment : c.comment;
      const ours = hasBatchTrailer(comment) && !!email && c.committer?.email?.toLowerCase() === email;
      commits.push({ id: c.commitId, author: c.author?.name ?? c.author?.email ?? 'someone', ours, batches: ours ? batchTrailers(comment) : [] });
    }
    return { commits, complete: listed.value.length < COMMITS_MAX };
  }

  /** A pull request thread without a file (a general comment), found again by the marker in its first comment. */
  async function upsertNote(requestId: string, marker: string, body: string) {
    const threadsUrl = url(`/pullRequests/${encodeURIComponent(requestId)}/threads`);
    const what = `Commenting on pull request !${requestId} in ${label}`;
    const found = (await json<Listed<CommentThread>>(threadsUrl, what)).value.find((t) => !t.isDeleted && (t.comments?.[0]?.content ?? '').includes(marker));
    if (!found) return void (await json(threadsUrl, what, { method: 'POST', body: { comments: [{ parentCommentId: 0, content: body, commentType: 'text' }], status: 'active' } }));
    const first = found.comments![0]!;
    if (first.content !== body) await json(url(`/pullRequests/${encodeURIComponent(requestId)}/threads/${found.id}/comments/${first.id}`), what, { method: 'PATCH', body: { content: body } });
  }

  return { label, branchHead, listFiles, readFile, commit, findRequest, openRequest, updateRequest, reportStatus, mergeBase, branchCommits, upsertNote, annotatesRows: true };
}

const pushEvent = z.object({
  eventType: z.string(),
  resource: z.object({
    refUpdates: z.array(z.object({ name: z.string() })).default([]),
    repository: z.object({ id: z.string().optional(), name: z.string().optional() }).optional(),
  }),
});

/** The password of a `Basic` authorization header, or undefined when there is none or it is malformed. */
function basicPassword(header: string | null): string | undefined {
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

export function verifyAzureDevopsWebhook(request: WebhookRequest, webhookSecret: string, settings: AzureDevopsSettings): WebhookVerdict {
  const password = basicPassword(request.headers.get('authorization'));
  if (password === undefined) return { verified: false, sync: false, reason: "No basic authentication: set the service hook's password to the connection's webhook_secret." };
  if (!sameSecret(password, webhookSecret)) return { verified: false, sync: false, reason: "The service hook's basic-authentication password is not the connection's webhook secret." };
  let parsed;
  try {
    parsed = pushEvent.safeParse(JSON.parse(new TextDecoder().decode(request.body)));
  } catch {
    return { verified: true, sync: false, reason: 'The notification body is not JSON.' };
  }
  if (!parsed.success) return { verified: true, sync: false, reason: `The notification is not a service hook event: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}.` };
  if (parsed.data.eventType !== 'git.push') return { verified: true, sync: false, reason: `Event '${parsed.data.eventType}' is not git.push; nothing to sync.` };
  const repository = parsed.data.resource.repository;
  const wanted = settings.repository.toLowerCase();
  if (repository && repository.name?.toLowerCase() !== wanted && repository.id?.toLowerCase() !== wanted) {
    return { verified: true, sync: false, reason: `The push is to repository '${repository.name ?? repository.id}', not '${settings.repository}'.` };
  }
  const base = `refs/heads/${settings.base_branch}`;
  const touched = parsed.data.resource.refUpdates.some((ref) => ref.name === base);
  return touched ? { verified: true, sync: true } : { verified: true, sync: false, reason: `The push does not change ${base}.` };
}

export const azureDevops = createCodeHostConnector<AzureDevopsSettings, AzureDevopsSecrets>({
  id: 'azure_devops',
  name: 'Azure DevOps Repos',
  summary:
    'An Azure DevOps Git repository with parlance.yml: pushes to the base branch are translated, one commit per batch on parlance/<base> and one pull request carry the translations, each commit gets a succeeded/failed status.',
  settings: settingsSchema,
  secrets: secretsSchema,
  webhooks: 'An Azure DevOps service hook (git.push) to a Web Hook with basic authentication whose password is the webhook secret',
  open: openAzureDevops,
  verifyWebhook: verifyAzureDevopsWebhook,
});
