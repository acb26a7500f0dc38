/**
 * GitLab (gitlab.com or a self-managed instance) as a code host, through the REST API v4 with a personal, group or
 * project access token of scope `api`. Pushes to the base branch are announced by a project webhook whose secret
 * token GitLab sends back verbatim in `X-Gitlab-Token` (GitLab does not sign bodies, and sends no timestamp, so a
 * replayed notification cannot be told from a fresh one: it only starts one more sync, which is harmless).
 * GitLab has no line annotations for external statuses: the refused rows are in the merge request's description
 * (written by the code-host builder) and in one merge request note per batch set that refused rows, edited in place
 * when written again. A rebuild of the branch uses the commits API's `force` with `start_sha`.
 *
 * API reference: https://docs.gitlab.com/api/branches/, /api/repositories/ (tree), /api/repository_files/ (raw),
 * /api/commits/ (create a commit with multiple files and actions, `force`; commit status), /api/repositories/ (compare, merge_base), /api/merge_requests/,
 * /api/notes/, /api/users/ (GET /user), /user/project/integrations/webhook_events/ (push events) and /webhooks/ (X-Gitlab-Token).
 */
import { z } from '@hono/zod-openapi';
import { codeHostSettings, batchTrailers, createCodeHostConnector, hasBatchTrailer, type GitHost } from '../code-host.js';
import type { ConnectorContext, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, vendorMessage } from '../connector-http.js';
import { sameSecret } from '../same-secret.js';

export const gitlabSettings = z
  .object({
    api_url: z
      .string()
      .url()
      .default('https://gitlab.com/api/v4')
      .openapi({ description: "The instance's API root, ending in `/api/v4`. Default `https://gitlab.com/api/v4`." }),
    project: z
      .string()
      .min(1)
      .regex(/^(\d+|[^/\s]+(\/[^/\s]+)+)$/, { message: "Expected the project's numeric id (such as '4815162342') or its full path (such as 'acme/web' or 'acme/apps/web')." })
      .openapi({ description: "The project's numeric id or its full path (`group/name`, subgroups included)." }),
    ...codeHostSettings,
  })
  .strict();

export const gitlabSecrets = z
  .object({
    token: z.string().min(1).openapi({ description: 'A personal, group or project access token with the `api` scope (Developer role or more on the project), sent as `PRIVATE-TOKEN`.' }),
  })
  .strict();

export type GitlabSettings = z.infer<typeof gitlabSettings>;
export type GitlabSecrets = z.infer<typeof gitlabSecrets>;

/** GitLab caps `per_page` at 100. */
const PER_PAGE = 100;
/** A status description longer than this is refused by GitLab (the column is 255 characters). */
const DESCRIPTION_MAX = 255;
/** Far more tree pages than any repository Parlance translates has; a bound so a misbehaving proxy cannot loop us. */
const MAX_PAGES = 2000;

interface Branch {
  name: string;
  commit: { id: string };
}
interface TreeEntry {
  path: string;
  type: 'blob' | 'tree' | 'commit';
}
interface Commit {
  id: string;
  parent_ids: string[];
}
interface MergeRequest {
  iid: number;
  web_url: string;
}
interface CompareCommit {
  id: string;
  message: string;
  author_name: string;
  committer_email: string;
}
interface User {
  email?: string;
  commit_email?: string;
  public_email?: string;
}
interface Note {
  id: number;
  body: string;
  system: boolean;
}

function openGitlab(ctx: ConnectorContext<GitlabSettings, GitlabSecrets>): GitHost {
  const root = ctx.settings.api_url.replace(/\/+$/, '');
  const project = `${root}/projects/${encodeURIComponent(ctx.settings.project)}`;
  const label = `${ctx.settings.project} on GitLab`;
  const headers = { 'PRIVATE-TOKEN': ctx.secrets.token, Accept: 'application/json' };
  const jsonHeaders = { ...headers, 'Content-Type': 'application/json' };
  /** The merge request found or opened during this write, for the note that lists refused rows. */
  let request: { iid: string; url: string } | null = null;

  /** GitLab answers 404 with `{"message":"404 Branch Not Found"}` (or File, Tree, Project…): only the named kind is "absent". */
  async function absent(response: Response, kind: string): Promise<boolean> {
    if (response.status !== 404) return false;
    const text = await response.clone().text();
    return text.includes(`${kind} Not Found`);
  }

  async function branchHead(branch: string): Promise<string | null> {
    const what = `Reading branch '${branch}' of ${label}`;
    const response = await ctx.http.request(`${project}/repository/branches/${encodeURIComponent(branch)}`, { headers });
    if (await absent(response, 'Branch')) return null;
    if (!response.ok) throw await failure(response, what);
    return ((await response.json()) as Branch).commit.id;
  }

  async function listFiles(commit: string): Promise<string[]> {
    const paths: string[] = [];
    let page: string | null = '1';
    for (let count = 0; page && count < MAX_PAGES; count++) {
      const url = `${project}/repository/tree?recursive=true&ref=${encodeURIComponent(commit)}&per_page=${PER_PAGE}&page=${page}`;
      const response = await ctx.http.request(url, { headers });
      if (!response.ok) throw await failure(response, `Listing the files of ${label} at ${commit.slice(0, 12)} (page ${page})`);
      const entries = (await response.json()) as TreeEntry[];
      for (const entry of entries) if (entry.type === 'blob') paths.push(entry.path);
      // Offset pagination: X-Next-Page is empty on the last page.
      page = response.headers.get('x-next-page') || null;
    }
    return paths;
  }

  async function readFile(commit: string, path: string): Promise<Uint8Array | null> {
    const url = `${project}/repository/files/${encodeURIComponent(path)}/raw?ref=${encodeURIComponent(commit)}`;
    const response = await ctx.http.request(url, { headers });
    if (await absent(response, 'File')) return null;
    if (!response.ok) throw await failure(response, `Reading '${path}' of ${label} at ${commit.slice(0, 12)}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  async function commit(input: Parameters<GitHost['commit']>[0]): Promise<string> {
    const expected = input.replaces ?? input.parent;
    if (!input.create) {
      // GitLab's commits endpoint has no compare-and-swap on the branch (`start_sha` only says where a NEW branch
      // starts): it commits on top of whatever the head is. So the head is read again right before committing, and a
      // head that moved since the files were read (a person pushed) stops the write; the sync is retried and reads
      // their commit first. A push in the remaining window still ends up below our commit, never replaced, and the
      // `last_commit_id` of each updated file makes GitLab refuse our commit if that push changed one of them.
      const head = await branchHead(input.branch);
      if (head !== expected) {
        throw new ConnectorError(
          'unavailable',
          `Branch '${input.branch}' of ${label} moved from ${expected.slice(0, 12)} to ${head ? head.slice(0, 12) : '(deleted)'} while Parlance prepared its commit; nothing was written, the sync is retried on top of the new head.`,
        );
      }
    }
    const actions = [];
    for (const file of input.files) {
      const content = Buffer.from(file.content).toString('base64');
      if (!file.exists) {
        actions.push({ action: 'create', file_path: file.path, content, encoding: 'base64' });
        continue;
      }
      // `last_commit_id` is GitLab's per-file check: it refuses the commit when the file changed since that commit,
      // which closes the window left between the head check above and the commit.
      const last = await lastCommitOf(input.parent, file.path);
      actions.push({ action: 'update', file_path: file.path, content, encoding: 'base64', ...(last ? { last_commit_id: last } : {}) });
    }
    // A rebuild: `force` with `start_sha` makes GitLab point the branch at a new commit on the base's head, replacing
    // Parlance's own commits (the head was checked just above to be the one whose commits are all Parlance's).
    const start = input.create ? { start_sha: input.parent } : input.replaces ? { start_sha: input.parent, force: true } : {};
    const body = { branch: input.branch, commit_message: input.message, ...start, actions };
    const what = `Committing ${input.files.length} translation file(s) to '${input.branch}' of ${label}`;
    const response = await ctx.http.request(`${project}/repository/commits`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) });
    if (response.status === 400) {
      const said = vendorMessage(await response.clone().text());
      // A file changed, created or removed, or the branch created, since Parlance read them: a person's push raced ours.
      if (/has changed since you started editing it|already exists|doesn't exist/i.test(said)) {
        throw new ConnectorError('unavailable', `${what}: GitLab refused it because the branch changed meanwhile (HTTP 400: ${said}); nothing was overwritten, the sync is retried.`);
      }
    }
    if (!response.ok) throw await failure(response, what);
    return ((await response.json()) as Commit).id;
  }

  /** The commit that last changed `path` as of `commit` (GitLab's X-Gitlab-Last-Commit-Id on a HEAD of the file). */
  async function lastCommitOf(commit: string, path: string): Promise<string | null> {
    const url = `${project}/repository/files/${encodeURIComponent(path)}?ref=${encodeURIComponent(commit)}`;
    const response = await ctx.http.request(url, { method: 'HEAD', headers });
    if (!response.ok) throw await failure(response, `Reading the last commit of '${path}' of ${label} at ${commit.slice(0, 12)}`);
    return response.headers.get('x-gitlab-last-commit-id');
  }

  async function findRequest(source: string, target: string) {
    const url = `${project}/merge_requests?state=opened&source_branch=${encodeURIComponent(source)}&target_branch=${encodeURIComponent(target)}`;
    const found = await ctx.http.json<MergeRequest[]>(url, { what: `Looking for the merge request from '${source}' into '${target}' of ${label}`, headers });
    const first = found[0];
    request = first ? { iid: String(first.iid), url: first.web_url } : null;
    return request ? { id: request.iid, url: request.url } : null;
  }

  async function openRequest(input: { source: string; target: string; title: string; body: string }) {
    const opened = await ctx.http.json<MergeRequest>(`${project}/merge_requests`, {
      what: `Opening the merge request from '${input.source}' into '${input.target}' of ${label}`,
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({ source_branch: input.source, target_branch: input.target, title: input.title, description: input.body }),
    });
    request = { iid: String(opened.iid), url: opened.web_url };
    return { id: request.iid, url: request.url };
  }

  async function updateRequest(id: string, input: { title: string; body: string }) {
    await ctx.http.json(`${project}/merge_requests/${encodeURIComponent(id)}`, {
      what: `Updating merge request !${id} of ${label}`,
      method: 'PUT',
      headers: jsonHeaders,
      body: JSON.stringify({ title: input.title, description: input.body }),
    });
  }

  async function reportStatus(input: Parameters<GitHost['reportStatus']>[0]) {
    await ctx.http.json(`${project}/statuses/${encodeURIComponent(input.commit)}`, {
      what: `Setting the 'parlance' status of ${input.commit.slice(0, 12)} in ${label}`,
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({
        state: input.state === 'failure' ? 'failed' : 'success',
        name: 'parlance',
        description: input.summary.slice(0, DESCRIPTION_MAX),
        ...(input.url ? { target_url: input.url } : {}),
      }),
    });
  }

  async function mergeBase(a: string, b: string): Promise<string> {
    const url = `${project}/repository/merge_base?${new URLSearchParams([['refs[]', a], ['refs[]', b]])}`;
    return (await ctx.http.json<Commit>(url, { what: `Finding the merge base of ${a.slice(0, 12)} and ${b.slice(0, 12)} in ${label}`, headers })).id;
  }

  /** The token's own account (GET /user), whose commit email is on the commits Parlance makes through the API. */
  let self: Promise<User> | undefined;
  const whoAmI = () => (self ??= ctx.http.json<User>(`${root}/user`, { what: `Reading the token's account on ${label}`, headers }));

  async function branchCommits(base: string, head: string) {
    const url = `${project}/repository/compare?from=${encodeURIComponent(base)}&to=${encodeURIComponent(head)}&straight=false`;
    const compared = await ctx.http.json<{ commits: CompareCommit[] }>(url, { what: `Comparing ${head.slice(0, 12)} with ${base.slice(0, 12)} in ${label}`, headers });
    const me = await whoAmI();
    const emails = new Set([me.commit_email, me.email, me.public_email].filter((e): e is string => !!e).map((e) => e.toLowerCase()));
    const commits = compared.commits.map((c) => {
      const ours = hasBatchTrailer(c.message) && emails.has(c.committer_email.toLowerCase());
      return { id: c.id, author: c.author_name, ours, batches: ours ? batchTrailers(c.message) : [] };
    });
    return { commits, complete: true };
  }

  /** GitLab cannot annotate source lines from outside CI: the refused rows (and other notices) are merge request notes. */
  async function upsertNote(iid: string, marker: string, body: string) {
    const notes = `${project}/merge_requests/${encodeURIComponent(iid)}/notes`;
    const what = `Noting on merge request !${iid} of ${label}`;
    let page: string | null = '1';
    for (let count = 0; page && count < MAX_PAGES; count++) {
      const response = await ctx.http.request(`${notes}?sort=asc&order_by=created_at&per_page=${PER_PAGE}&page=${page}`, { headers });
      if (!response.ok) throw await failure(response, what);
      const found = ((await response.json()) as Note[]).find((note) => !note.system && note.body.includes(marker));
      if (found) {
        if (found.body !== body) await ctx.http.json(`${notes}/${found.id}`, { what, method: 'PUT', headers: jsonHeaders, body: JSON.stringify({ body }) });
        return;
      }
      page = response.headers.get('x-next-page') || null;
    }
    await ctx.http.json(notes, { what, method: 'POST', headers: jsonHeaders, body: JSON.stringify({ body }) });
  }

  return { label, branchHead, listFiles, readFile, commit, findRequest, openRequest, updateRequest, reportStatus, mergeBase, branchCommits, upsertNote };
}

const PushEvent = z.object({ object_kind: z.string(), ref: z.string() });

export function verifyGitlabWebhook(request: WebhookRequest, webhookSecret: string, settings: GitlabSettings): WebhookVerdict {
  const token = request.headers.get('x-gitlab-token');
  if (token === null) return { verified: false, sync: false, reason: "no X-Gitlab-Token header; set the secret token of the GitLab webhook to the connection's webhook_secret" };
  if (!sameSecret(token, webhookSecret)) return { verified: false, sync: false, reason: "X-Gitlab-Token does not match the connection's webhook secret" };
  const event = request.headers.get('x-gitlab-event');
  if (event !== 'Push Hook') return { verified: true, sync: false, reason: `GitLab event '${event ?? '(none)'}' is not a push; only pushes to '${settings.base_branch}' start a sync` };
  let parsed: z.infer<typeof PushEvent>;
  try {
    parsed = PushEvent.parse(JSON.parse(new TextDecoder().decode(request.body)));
  } catch {
    return { verified: true, sync: false, reason: 'the push event body is not the JSON GitLab sends (object_kind and ref expected)' };
  }
  const wanted = `refs/heads/${settings.base_branch}`;
  if (parsed.ref !== wanted) return { verified: true, sync: false, reason: `push to ${parsed.ref}, not ${wanted}` };
  return { verified: true, sync: true };
}

export const gitlab = createCodeHostConnector<GitlabSettings, GitlabSecrets>({
  id: 'gitlab',
  name: 'GitLab',
  summary: 'GitLab projects (gitlab.com or self-managed): parlance.yml on the base branch names the source files, one commit per batch on parlance/<base>, one merge request kept up to date, a commit status with the refused rows.',
  settings: gitlabSettings,
  secrets: gitlabSecrets,
  webhooks: "GitLab's X-Gitlab-Token (the webhook's secret token, compared in constant time); Push Hook events to the base branch",
  open: openGitlab,
  verifyWebhook: verifyGitlabWebhook,
});
