/**
 * Gitea and Forgejo (Codeberg included: Forgejo keeps Gitea's API v1) as a code host, with an access token of scopes
 * `write:repository` and `write:issue` (pull requests are issues there). Pushes to the base branch are announced by a
 * repository webhook signed with HMAC-SHA256 of the body in `X-Gitea-Signature` (Forgejo also sends it as
 * `X-Forgejo-Signature`); neither sends a timestamp, so a replayed notification cannot be told from a fresh one: it
 * only starts one more sync, which is harmless. Gitea has no line annotations for commit statuses: the refused rows are
 * in the pull request's description (written by the code-host builder) and in one pull request comment per batch set
 * that refused rows, edited in place when written again. A rebuild of the branch is ChangeFiles from the base with
 * `new_branch` and `force_push`.
 *
 * API reference: Gitea's swagger (templates/swagger/v1_json.tmpl, https://gitea.com/api/swagger): repoGetBranch,
 * GetTree (`truncated`, `page`, `total_count`), repoGetRawFile, repoGetContents, repoChangeFiles (ChangeFilesOptions,
 * ChangeFileOperation with the blob `sha` required for updates, FilesResponse), repoListPullRequests,
 * repoCreatePullRequest, repoEditPullRequest, repoCreateStatus (CreateStatusOption), repoCompareDiff, userGetCurrent, issueGetComments, issueCreateComment,
 * issueEditComment; webhooks:
 * https://docs.gitea.com/usage/webhooks (X-Gitea-Event, X-Gitea-Signature) and Forgejo's webhook docs.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { codeHostSettings, batchTrailers, createCodeHostConnector, hasBatchTrailer, type GitHost } from '../code-host.js';
import type { ConnectorContext, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, vendorMessage } from '../connector-http.js';
import { sameSecret } from '../same-secret.js';

export const giteaSettings = z
  .object({
    api_url: z.string().url().openapi({ description: "The instance's API root, ending in `/api/v1`, such as `https://codeberg.org/api/v1` or `https://git.example.com/api/v1`." }),
    repository: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { message: "Expected the repository as 'owner/name', such as 'acme/web'." })
      .openapi({ description: 'The repository as `owner/name`.' }),
    ...codeHostSettings,
  })
  .strict();

export const giteaSecrets = z
  .object({
    token: z.string().min(1).openapi({ description: 'An access token with the scopes `write:repository` and `write:issue`, sent as `Authorization: token …`.' }),
  })
  .strict();

export type GiteaSettings = z.infer<typeof giteaSettings>;
export type GiteaSecrets = z.infer<typeof giteaSecrets>;

/** Gitea's default MAX_RESPONSE_ITEMS is 50; larger values are cut to the instance's maximum anyway. */
const PULLS_PER_PAGE = 50;
/** Tree entries per page (Gitea's DEFAULT_GIT_TREES_PER_PAGE is 1000). */
const TREE_PER_PAGE = 1000;
const DESCRIPTION_MAX = 255;
const MAX_PAGES = 2000;

interface Branch {
  name: string;
  commit: { id: string };
}
interface Tree {
  tree: { path: string; type: 'blob' | 'tree' | 'commit' }[] | null;
  truncated: boolean;
}
interface Contents {
  sha: string;
  type: string;
}
interface FilesResponse {
  commit: { sha: string };
}
interface CompareCommit {
  sha: string;
  commit: { message: string; author: { name: string } };
  author: { login: string } | null;
  committer: { login: string } | null;
  parents: { sha: string }[] | null;
}
interface PullRequest {
  number: number;
  html_url: string;
  head: { ref: string };
  base: { ref: string };
}

/** Each segment percent-encoded, the slashes kept: Gitea's `{filepath}` routes take the path as it is in the tree. */
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

function openGitea(ctx: ConnectorContext<GiteaSettings, GiteaSecrets>): GitHost {
  const [owner, name] = ctx.settings.repository.split('/') as [string, string];
  const repo = `${ctx.settings.api_url.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  const label = `${ctx.settings.repository} on ${new URL(ctx.settings.api_url).host}`;
  const headers = { Authorization: `token ${ctx.secrets.token}`, Accept: 'application/json' };
  const jsonHeaders = { ...headers, 'Content-Type': 'application/json' };
  let request: { id: string; url: string } | null = null;

  /** Gitea answers 404 alike for a missing branch and a missing repository; the repository itself tells them apart. */
  async function repositoryMissing(): Promise<boolean> {
    const response = await ctx.http.request(repo, { headers });
    if (response.status === 404) return true;
    if (!response.ok) throw await failure(response, `Reading ${label}`);
    return false;
  }

  async function branchHead(branch: string): Promise<string | null> {
    const what = `Reading branch '${branch}' of ${label}`;
    const response = await ctx.http.request(`${repo}/branches/${encodePath(branch)}`, { headers });
    if (response.status === 404) {
      if (await repositoryMissing()) throw new ConnectorError('config', `${what}: there is no repository '${ctx.settings.repository}' at ${ctx.settings.api_url} that the token can see (HTTP 404). Check the repository setting and the token's access.`);
      return null;
    }
    if (!response.ok) throw await failure(response, what);
    return ((await response.json()) as Branch).commit.id;
  }

  async function listFiles(commit: string): Promise<string[]> {
    const paths: string[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const url = `${repo}/git/trees/${encodeURIComponent(commit)}?recursive=true&per_page=${TREE_PER_PAGE}&page=${page}`;
      const tree = await ctx.http.json<Tree>(url, { what: `Listing the files of ${label} at ${commit.slice(0, 12)} (page ${page})`, headers });
      for (const entry of tree.tree ?? []) if (entry.type === 'blob') paths.push(entry.path);
      // `truncated` says the recursive listing goes on in the next page.
      if (!tree.truncated || (tree.tree ?? []).length === 0) break;
    }
    return paths;
  }

  async function readFile(commit: string, path: string): Promise<Uint8Array | null> {
    const response = await ctx.http.request(`${repo}/raw/${encodePath(path)}?ref=${encodeURIComponent(commit)}`, { headers });
    if (response.status === 404) return null;
    if (!response.ok) throw await failure(response, `Reading '${path}' of ${label} at ${commit.slice(0, 12)}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** The blob id Gitea asks for to update a file: its compare-and-swap, refused when the file changed since. */
  async function blobSha(commit: string, path: string): Promise<string> {
    const contents = await ctx.http.json<Contents>(`${repo}/contents/${encodePath(path)}?ref=${encodeURIComponent(commit)}`, { what: `Reading the blob id of '${path}' of ${label} at ${commit.slice(0, 12)}`, headers });
    return contents.sha;
  }

  async function commit(input: Parameters<GitHost['commit']>[0]): Promise<string> {
    // ChangeFiles commits on the head of `branch` (there is no parent commit to name): the head is read again right
    // before, and a moved head stops the write; the sync is retried on top of it. The blob sha of every updated file
    // makes Gitea refuse a file that a person changed in the remaining window. A new branch, and a rebuild, start from
    // the base (`new_branch`); a rebuild's `force_push` replaces the branch, whose head was just checked to be the one
    // holding only Parlance's commits.
    const from = input.create || input.replaces ? ctx.settings.base_branch : input.branch;
    for (const [branch, expected] of [[from, input.parent], ...(input.replaces ? [[input.branch, input.replaces]] : [])] as [string, string][]) {
      const head = await branchHead(branch);
      if (head !== expected) {
        throw new ConnectorError(
          'unavailable',
          `Branch '${branch}' of ${label} moved from ${expected.slice(0, 12)} to ${head ? head.slice(0, 12) : '(deleted)'} while Parlance prepared its commit; nothing was written, the sync is retried on top of the new head.`,
        );
      }
    }
    const files = [];
    for (const file of input.files) {
      const content = Buffer.from(file.content).toString('base64');
      files.push(file.exists ? { operation: 'update', path: file.path, content, sha: await blobSha(input.parent, file.path) } : { operation: 'create', path: file.path, content });
    }
    const body = { branch: from, ...(input.create || input.replaces ? { new_branch: input.branch } : {}), ...(input.replaces ? { force_push: true } : {}), message: input.message, files };
    const what = `Committing ${input.files.length} translation file(s) to '${input.branch}' of ${label}`;
    const response = await ctx.http.request(`${repo}/contents`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) });
    if (response.status === 409 || response.status === 422) {
      // A blob sha that no longer matches (or a file created meanwhile): a person's change raced ours.
      const said = vendorMessage(await response.text());
      throw new ConnectorError('unavailable', `${what}: Gitea refused it because the branch changed meanwhile (HTTP ${response.status}: ${said}); nothing was overwritten, the sync is retried.`);
    }
    if (!response.ok) throw await failure(response, what);
    return ((await response.json()) as FilesResponse).commit.sha;
  }

  /** Commits reachable from `head` and not from `base` (Gitea's compare, `base...head`). */
  async function compare(base: string, head: string): Promise<CompareCommit[]> {
    const url = `${repo}/compare/${encodeURIComponent(base)}...${encodeURIComponent(head)}`;
    return (await ctx.http.json<{ commits: CompareCommit[] | null }>(url, { what: `Comparing ${head.slice(0, 12)} with ${base.slice(0, 12)} in ${label}`, headers })).commits ?? [];
  }

  /** Gitea has no merge-base endpoint: it is the parent, outside the list, of the oldest commit `b` has and `a` has not. */
  async function mergeBase(a: string, b: string): Promise<string> {
    const commits = await compare(a, b);
    const listed = new Set(commits.map((c) => c.sha));
    const oldest = commits.find((c) => !listed.has(c.parents?.[0]?.sha ?? ''));
    return oldest?.parents?.[0]?.sha ?? b;
  }

  let self: Promise<{ login: string }> | undefined;
  const whoAmI = () => (self ??= ctx.http.json<{ login: string }>(`${ctx.settings.api_url.replace(/\/+$/, '')}/user`, { what: `Reading the token's account on ${label}`, headers }));

  async function branchCommits(base: string, head: string) {
    const commits = await compare(base, head);
    const me = (await whoAmI()).login;
    return {
      commits: commits.map((c) => {
        const ours = hasBatchTrailer(c.commit.message) && c.committer?.login === me;
        return { id: c.sha, author: c.author?.login ? `@${c.author.login}` : c.commit.author.name, ours, batches: ours ? batchTrailers(c.commit.message) : [] };
      }),
      complete: true,
    };
  }

  /** A pull request is an issue in Gitea: its comments are the issue's, found by the marker and edited in place. */
  async function upsertNote(id: string, marker: string, body: string) {
    const comments = `${repo}/issues/${encodeURIComponent(id)}/comments`;
    const what = `Commenting on pull request #${id} of ${label}`;
    const found = (await ctx.http.json<{ id: number; body: string }[]>(comments, { what, headers })).find((c) => c.body.includes(marker));
    if (!found) return void (await ctx.http.json(comments, { what, method: 'POST', headers: jsonHeaders, body: JSON.stringify({ body }) }));
    if (found.body !== body) await ctx.http.json(`${repo}/issues/comments/${found.id}`, { what, method: 'PATCH', headers: jsonHeaders, body: JSON.stringify({ body }) });
  }

  async function findRequest(source: string, target: string) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const url = `${repo}/pulls?state=open&limit=${PULLS_PER_PAGE}&page=${page}`;
      const response = await ctx.http.request(url, { headers });
      if (!response.ok) throw await failure(response, `Looking for the pull request from '${source}' into '${target}' of ${label}`);
      const pulls = (await response.json()) as PullRequest[];
      const found = pulls.find((pull) => pull.head.ref === source && pull.base.ref === target);
      if (found) {
        request = { id: String(found.number), url: found.html_url };
        return request;
      }
      if (pulls.length === 0 || !/rel="next"/.test(response.headers.get('link') ?? '')) break;
    }
    request = null;
    return null;
  }

  async function openRequest(input: { source: string; target: string; title: string; body: string }) {
    const opened = await ctx.http.json<PullRequest>(`${repo}/pulls`, {
      what: `Opening the pull request from '${input.source}' into '${input.target}' of ${label}`,
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({ head: input.source, base: input.target, title: input.title, body: input.body }),
    });
    request = { id: String(opened.number), url: opened.html_url };
    return request;
  }

  async function updateRequest(id: string, input: { title: string; body: string }) {
    await ctx.http.json(`${repo}/pulls/${encodeURIComponent(id)}`, {
      what: `Updating pull request #${id} of ${label}`,
      method: 'PATCH',
      headers: jsonHeaders,
      body: JSON.stringify({ title: input.title, body: input.body }),
    });
  }

  async function reportStatus(input: Parameters<GitHost['reportStatus']>[0]) {
    await ctx.http.json(`${repo}/statuses/${encodeURIComponent(input.commit)}`, {
      what: `Setting the 'parlance' status of ${input.commit.slice(0, 12)} in ${label}`,
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({ state: input.state, context: 'parlance', description: input.summary.slice(0, DESCRIPTION_MAX), ...(input.url ? { target_url: input.url } : {}) }),
    });
  }

  return { label, branchHead, listFiles, readFile, commit, findRequest, openRequest, updateRequest, reportStatus, mergeBase, branchCommits, upsertNote };
}

const PushEvent = z.object({ ref: z.string() });

export function verifyGiteaWebhook(request: WebhookRequest, webhookSecret: string, settings: GiteaSettings): WebhookVerdict {
  const signature = request.headers.get('x-gitea-signature') ?? request.headers.get('x-forgejo-signature');
  if (signature === null) return { verified: false, sync: false, reason: "no X-Gitea-Signature or X-Forgejo-Signature header; set the webhook's secret to the connection's webhook_secret" };
  const expected = createHmac('sha256', webhookSecret).update(request.body).digest('hex');
  if (!sameSecret(signature.toLowerCase(), expected)) return { verified: false, sync: false, reason: "the signature is not the HMAC-SHA256 of the body with the connection's webhook secret" };
  const event = request.headers.get('x-gitea-event') ?? request.headers.get('x-forgejo-event');
  if (event !== 'push') return { verified: true, sync: false, reason: `event '${event ?? '(none)'}' is not a push; only pushes to '${settings.base_branch}' start a sync` };
  let parsed: z.infer<typeof PushEvent>;
  try {
    parsed = PushEvent.parse(JSON.parse(new TextDecoder().decode(request.body)));
  } catch {
    return { verified: true, sync: false, reason: 'the push event body is not the JSON Gitea sends (ref expected)' };
  }
  const wanted = `refs/heads/${settings.base_branch}`;
  if (parsed.ref !== wanted) return { verified: true, sync: false, reason: `push to ${parsed.ref}, not ${wanted}` };
  return { verified: true, sync: true };
}

export const gitea = createCodeHostConnector<GiteaSettings, GiteaSecrets>({
  id: 'gitea',
  name: 'Gitea / Forgejo',
  summary: 'Gitea and Forgejo repositories (Codeberg included): parlance.yml on the base branch names the source files, one commit per batch on parlance/<base>, one pull request kept up to date, a commit status with the refused rows.',
  settings: giteaSettings,
  secrets: giteaSecrets,
  webhooks: 'X-Gitea-Signature or X-Forgejo-Signature (hex HMAC-SHA256 of the body with the webhook secret); push events to the base branch',
  open: openGitea,
  verifyWebhook: verifyGiteaWebhook,
});
