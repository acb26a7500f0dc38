/**
 * The Action's pull request through the GitHub REST API (`@actions/github`, GITHUB_API_URL for GitHub Enterprise
 * Server): the pulled locale files in one commit on `parlance/<base>`, one pull request opened or updated, or a comment
 * on the pull request a `pull_request` event is about. The branch moves only by fast-forward, or by a rebuild when the
 * Action alone wrote to it; a commit someone else made is built upon, and the files it touched are not written over.
 */
import type { getOctokit } from '@actions/github';
import { freshBranch, fromCompare, gitBlobSha, planBranch, type BranchCommit, type BranchPlan } from '../core/translation-branch.js';
import { ACTION_TRAILER, BODY_MARKER, PULL_REQUEST_TITLE, type BranchNote } from './pull-request-fns.js';
import { PullRequestError } from './pull-request-error.js';

export type Octokit = ReturnType<typeof getOctokit>;

/** A file to commit, at its repository path. */
export interface RepoFile {
  path: string;
  content: Uint8Array;
}

/** Times a run builds its commit again when the branch moved under it, before it stops. */
const MAX_ATTEMPTS = 3;

const NOT_PERMITTED_TO_CREATE = /not permitted to create or approve pull requests/i;

/** The permission a request needs of a GITHUB_TOKEN, for the message when it is refused. */
function permissionFor(route: string): string {
  const [method = 'GET', path = ''] = route.split(' ');
  if (path.includes('/pulls') || path.includes('/issues/')) return method === 'GET' ? 'pull-requests: read' : 'pull-requests: write';
  return method === 'GET' ? 'contents: read' : 'contents: write';
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}

function messageOf(error: unknown): string {
  const data = typeof error === 'object' && error !== null && 'response' in error ? (error.response as { data?: { message?: unknown } } | undefined)?.data : undefined;
  if (typeof data?.message === 'string') return data.message;
  return error instanceof Error ? error.message : String(error);
}

/** Maps a refused request to a message a workflow author can act on; other errors pass through. */
export function describeGitHubError(route: string, error: unknown, slug: string): Error {
  const status = statusOf(error);
  const said = messageOf(error);
  const request = `GitHub ${route.replace('{owner}/{repo}', slug)}`;
  if (status === 401) {
    return new PullRequestError(`${request}: 401 ${said}: the github-token input was not accepted. Leave it out to use the workflow's GITHUB_TOKEN, or pass a valid token.`, 2);
  }
  if (status === 403 && NOT_PERMITTED_TO_CREATE.test(said)) {
    return new PullRequestError(
      `${request}: 403 ${said}: allow it under the repository's (or organisation's) Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests", or pass a github-token that may open pull requests.`,
      2,
    );
  }
  // GitHub answers 404 rather than 403 to a write the token may not see the target of.
  if (status === 403 || (status === 404 && !route.startsWith('GET '))) {
    return new PullRequestError(
      `${request}: ${status} ${said}: the github-token needs '${permissionFor(route)}'. Give the job "permissions: { contents: write, pull-requests: write }" (create-pull-request needs both).`,
      2,
    );
  }
  if (status !== undefined) return new PullRequestError(`${request}: ${status} ${said}`, status >= 500 ? 3 : 1);
  return error instanceof Error ? error : new Error(String(error));
}

/** The repository the run works on and the client for it. */
export interface Repo {
  octokit: Octokit;
  owner: string;
  repo: string;
}

/** octokit.request with the error mapped to the permission it lacks. */
async function call<T>(repo: Repo, route: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw describeGitHubError(route, error, `${repo.owner}/${repo.repo}`);
  }
}

export interface SyncInput extends Repo {
  base: string;
  branch: string;
  files: readonly RepoFile[];
  /** Files whose change alone is no reason for a commit (the CLI's state file). */
  incidental: ReadonlySet<string>;
  message: string;
  /** The body for what the branch turned out to hold. */
  body: (note: BranchNote | undefined) => string;
}

export interface SyncResult {
  pr: { number: number; url: string } | null;
  commit: string | null;
  action: 'created' | 'updated' | 'unchanged';
  note: BranchNote | undefined;
}

/** Commits the files to the branch and opens or updates its one pull request. */
export async function syncPullRequest(input: SyncInput): Promise<SyncResult> {
  const baseSha = await readBranchSha(input, input.base);
  if (baseSha === null) throw new PullRequestError(`Base branch '${input.base}' does not exist in ${input.owner}/${input.repo}.`, 1);
  // Read before anything is written: a token that may not see pull requests stops the run with no branch left behind.
  const open = await findOpenPullRequest(input);
  const conflicts: string[] = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const outcome = await attemptSync(input, baseSha);
    if (outcome.kind === 'conflict') {
      conflicts.push(outcome.reason);
      continue;
    }
    // Nothing new and no open pull request (none yet, or merged or closed by a person): there is nothing to propose,
    // and a closed one stays closed.
    if (outcome.commit === null && !open) return { pr: null, commit: null, action: 'unchanged', note: outcome.note };
    const body = input.body(outcome.note);
    const pr = open ? await updatePullRequest(input, open.number, body) : await openPullRequest(input, body);
    return { pr, commit: outcome.commit, action: open ? (outcome.commit ? 'updated' : 'unchanged') : 'created', note: outcome.note };
  }
  throw new PullRequestError(`'${input.branch}' in ${input.owner}/${input.repo} moved while the Action wrote to it, ${MAX_ATTEMPTS} times in a row (${conflicts.join('; ')}). Nothing was overwritten; run the workflow again.`, 1);
}

type Attempt = { kind: 'done'; commit: string | null; branchSha: string | null; note: BranchNote | undefined } | { kind: 'conflict'; reason: string };

/** One read-plan-write-swap round on the branch as it is now. */
async function attemptSync(input: SyncInput, baseSha: string): Promise<Attempt> {
  const branchSha = await readBranchSha(input, input.branch);
  const plan: BranchPlan =
    branchSha === null || branchSha === baseSha ? freshBranch() : await compareBranch(input, baseSha, branchSha);
  const parentSha = plan.parent === 'base' || branchSha === null ? baseSha : branchSha;
  const parentTree = await readTree(input, parentSha);

  // A file someone else changed on the branch is theirs: never written over, only named in the body. Behind commits
  // the compare API did not list, any file may be theirs.
  const touched = plan.unseenCommits > 0 ? undefined : await pathsTouchedBy(input, plan.foreignCommits);
  const differs = (file: RepoFile) => parentTree.entries.get(file.path) !== gitBlobSha(file.content);
  const heldFiles = input.files.filter((file) => differs(file) && (touched === undefined || touched.has(file.path)));
  const toWrite = input.files.filter((file) => differs(file) && !heldFiles.includes(file));
  const note: BranchNote | undefined =
    plan.foreignCommits.length > 0 || plan.unseenCommits > 0 ? { branch: input.branch, peopleCommits: plan.foreignCommits, unseenCommits: plan.unseenCommits, heldFiles: heldFiles.map((f) => f.path) } : undefined;
  if (toWrite.every((file) => input.incidental.has(file.path))) return { kind: 'done', commit: null, branchSha, note };

  const commit = await writeCommit(input, { parentSha, parentTree, files: toWrite });
  if (commit === null) return { kind: 'done', commit: null, branchSha, note };
  const refused = await swapBranch(input, { from: branchSha, to: commit, rebuild: plan.force });
  if (refused !== null) return { kind: 'conflict', reason: refused };
  return { kind: 'done', commit, branchSha: commit, note };
}

/** Moves the branch from the head the plan was made on; null when it moved, else why not (it changed meanwhile). */
async function swapBranch(input: SyncInput, move: { from: string | null; to: string; rebuild: boolean }): Promise<string | null> {
  const { octokit, owner, repo, branch } = input;
  try {
    if (move.from === null) {
      await octokit.request('POST /repos/{owner}/{repo}/git/refs', { owner, repo, ref: `refs/heads/${branch}`, sha: move.to });
      return null;
    }
    if (move.rebuild) {
      // Re-read right before forcing: what the rebuild replaces must still be the Action's own commit the plan saw.
      const now = await readBranchSha(input, branch);
      if (now !== move.from) return `'${branch}' is at ${now ?? 'no commit (deleted)'} instead of ${move.from.slice(0, 7)}`;
    }
    // Without force GitHub takes only a fast-forward, which keeps any commit pushed since the branch was read.
    await octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { owner, repo, ref: `heads/${branch}`, sha: move.to, force: move.rebuild });
    return null;
  } catch (error) {
    // 422: "Reference already exists", "Update is not a fast forward", "Reference does not exist".
    if (statusOf(error) !== 422) throw describeGitHubError(move.from === null ? 'POST /repos/{owner}/{repo}/git/refs' : 'PATCH /repos/{owner}/{repo}/git/refs/{ref}', error, `${owner}/${repo}`);
    return `GitHub refused to move '${branch}' to ${move.to.slice(0, 7)}: ${messageOf(error)}`;
  }
}

/** The commit a branch points at, or null when there is no such branch. */
async function readBranchSha(input: Repo, branch: string): Promise<string | null> {
  const { octokit, owner, repo } = input;
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { owner, repo, ref: `heads/${branch}` });
    return data.object.sha;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw describeGitHubError('GET /repos/{owner}/{repo}/git/ref/{ref}', error, `${owner}/${repo}`);
  }
}

interface TreeListing {
  sha: string;
  /** Blob id by path. */
  entries: ReadonlyMap<string, string>;
  /** Paths whose file is executable: an executable bit is the repository's choice, not the Action's to reset. */
  executable: ReadonlySet<string>;
}

async function readTree(input: Repo, commitSha: string): Promise<TreeListing> {
  const { octokit, owner, repo } = input;
  const route = 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}';
  const { data } = await call(input, route, () => octokit.request(route, { owner, repo, tree_sha: commitSha, recursive: 'true' }));
  const entries = new Map<string, string>();
  const executable = new Set<string>();
  // A path missing from a truncated listing counts as changed: its blob is written, and an unchanged tree makes no commit.
  for (const entry of data.tree) {
    if (entry.type !== 'blob' || entry.path === undefined || entry.sha === undefined) continue;
    entries.set(entry.path, entry.sha);
    if (entry.mode === '100755') executable.add(entry.path);
  }
  return { sha: data.sha, entries, executable };
}

async function compareBranch(input: Repo, baseSha: string, branchSha: string): Promise<BranchPlan> {
  const { octokit, owner, repo } = input;
  const route = 'GET /repos/{owner}/{repo}/compare/{basehead}';
  const { data } = await call(input, route, () => octokit.request(route, { owner, repo, basehead: `${baseSha}...${branchSha}`, per_page: 100 }));
  return planBranch(fromCompare(data), ACTION_TRAILER);
}

/** The paths each commit changed against its first parent. */
async function pathsTouchedBy(input: Repo, commits: readonly BranchCommit[]): Promise<Set<string>> {
  const { octokit, owner, repo } = input;
  const route = 'GET /repos/{owner}/{repo}/commits/{ref}';
  const paths = new Set<string>();
  for (const commit of commits) {
    const { data } = await call(input, route, () => octokit.request(route, { owner, repo, ref: commit.sha }));
    for (const file of data.files ?? []) {
      paths.add(file.filename);
      if (file.previous_filename) paths.add(file.previous_filename);
    }
  }
  return paths;
}

/** Blobs, a tree on the parent's and a commit; null when the tree is the parent's (nothing to commit). */
async function writeCommit(input: SyncInput, change: { parentSha: string; parentTree: TreeListing; files: readonly RepoFile[] }): Promise<string | null> {
  const { octokit, owner, repo } = input;
  if (change.files.length === 0) return null;
  const tree: { path: string; mode: '100644' | '100755'; type: 'blob'; sha: string }[] = [];
  for (const file of change.files) {
    const route = 'POST /repos/{owner}/{repo}/git/blobs';
    // base64 keeps non-UTF-8 files (UTF-16 .strings, binary .mo) byte-exact.
    const { data } = await call(input, route, () => octokit.request(route, { owner, repo, content: Buffer.from(file.content).toString('base64'), encoding: 'base64' }));
    tree.push({ path: file.path, mode: change.parentTree.executable.has(file.path) ? '100755' : '100644', type: 'blob', sha: data.sha });
  }
  const treeRoute = 'POST /repos/{owner}/{repo}/git/trees';
  const { data: newTree } = await call(input, treeRoute, () => octokit.request(treeRoute, { owner, repo, base_tree: change.parentTree.sha, tree }));
  if (newTree.sha === change.parentTree.sha) return null;
  const commitRoute = 'POST /repos/{owner}/{repo}/git/commits';
  const { data: commit } = await call(input, commitRoute, () => octokit.request(commitRoute, { owner, repo, message: input.message, tree: newTree.sha, parents: [change.parentSha] }));
  return commit.sha;
}

async function findOpenPullRequest(input: SyncInput): Promise<{ number: number } | null> {
  const { octokit, owner, repo } = input;
  const route = 'GET /repos/{owner}/{repo}/pulls';
  const { data } = await call(input, route, () => octokit.request(route, { owner, repo, head: `${owner}:${input.branch}`, base: input.base, state: 'open' }));
  const [pr] = data;
  return pr ? { number: pr.number } : null;
}

/** Opens the pull request; when another run opened it first (422), that one is updated instead. */
async function openPullRequest(input: SyncInput, body: string): Promise<{ number: number; url: string }> {
  const { octokit, owner, repo } = input;
  const route = 'POST /repos/{owner}/{repo}/pulls';
  try {
    const { data } = await octokit.request(route, { owner, repo, head: input.branch, base: input.base, title: PULL_REQUEST_TITLE(input.base), body });
    return { number: data.number, url: data.html_url };
  } catch (error) {
    if (statusOf(error) !== 422) throw describeGitHubError(route, error, `${owner}/${repo}`);
    const opened = await findOpenPullRequest(input);
    if (!opened) throw describeGitHubError(route, error, `${owner}/${repo}`);
    return updatePullRequest(input, opened.number, body);
  }
}

async function updatePullRequest(input: SyncInput, number: number, body: string): Promise<{ number: number; url: string }> {
  const { octokit, owner, repo } = input;
  const route = 'PATCH /repos/{owner}/{repo}/pulls/{pull_number}';
  const { data } = await call(input, route, () => octokit.request(route, { owner, repo, pull_number: number, title: PULL_REQUEST_TITLE(input.base), body }));
  return { number: data.number, url: data.html_url };
}

/** Writes the report as the Action's one comment on the pull request, updating the comment an earlier run left. */
export async function upsertComment(input: Repo & { number: number; body: string }): Promise<{ url: string; action: 'created' | 'updated' }> {
  const { octokit, owner, repo, number } = input;
  const listRoute = 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments';
  const comments = await call(input, listRoute, () => octokit.paginate(listRoute, { owner, repo, issue_number: number, per_page: 100 }));
  const own = comments.find((comment) => comment.body?.startsWith(BODY_MARKER) && comment.user?.type === 'Bot');
  if (own) {
    const route = 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}';
    const { data } = await call(input, route, () => octokit.request(route, { owner, repo, comment_id: own.id, body: input.body }));
    return { url: data.html_url, action: 'updated' };
  }
  const route = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments';
  const { data } = await call(input, route, () => octokit.request(route, { owner, repo, issue_number: number, body: input.body }));
  return { url: data.html_url, action: 'created' };
}
