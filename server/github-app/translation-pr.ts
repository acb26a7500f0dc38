/** Turns a completed batch into one commit on `parlance/<base>` and one pull request, rebuilding the branch only when Parlance alone wrote to it. */
import { createHash } from 'node:crypto';
import type { ProbotOctokit } from 'probot';
import { RepoPathError, repoPathProblem } from '../../src/core/repo-path.js';
import { pullRequestBody, pullRequestTitle, type BatchReport, type DriftImport, type ProjectRef } from './pr-body.js';

/** The part of an Octokit client the engine uses; Probot's `context.octokit` and a bare `@octokit/core` both fit. */
export type GitHubClient = Pick<ProbotOctokit, 'request'>;

/** A target locale file as pulled from the service, at its repository-relative path. */
export interface TargetFile {
  path: string;
  content: Uint8Array;
}

export interface SyncInput {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  /** The branch the pull request targets, e.g. `main`. */
  base: string;
  files: readonly TargetFile[];
  batch: BatchReport;
  project: ProjectRef;
  drift?: readonly DriftImport[];
}

export interface SyncResult {
  /** The open pull request after the sync; null when nothing changed and none was open. */
  pr: { number: number; url: string } | null;
  /** The commit written for this batch; null when the files already matched the branch. */
  commit: string | null;
  /** `created`: a new pull request; `updated`: new content on the open one; `unchanged`: no new content (an open PR only gets a fresh body). */
  action: 'created' | 'updated' | 'unchanged';
}

/** Raised when the repository cannot take the batch as asked; the message names the branch, path or commit at fault. */
export class GitHubSyncError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitHubSyncError';
  }
}

/** The trailer that marks a commit as Parlance's own, so a later batch may replace it. */
export const BATCH_TRAILER = 'Parlance-Batch';

/** The branch Parlance owns for a base branch. */
export function branchFor(base: string): string {
  return `parlance/${base}`;
}

/** A commit on the branch that is not on the base, as the compare API reports it. */
export interface BranchCommit {
  sha: string;
  message: string;
  /** GitHub account type of the committer (`Bot` for an App's API commits), null when the email matches no account. */
  committerType: string | null;
  /** Who to name in the PR comment: the author's login, else the name in the commit. */
  author: string;
}

/** Where the batch's commit goes and whether the ref may be forced there. */
export interface BranchPlan {
  parent: 'base' | 'branch';
  force: boolean;
  /** Commits on the branch that Parlance did not make (or could not see), which forbid a rebuild. */
  humanCommits: BranchCommit[];
  /** Commits beyond the compare API's list, counted as human because they cannot be checked. */
  unseenCommits: number;
  baseMoved: boolean;
}

/**
 * A commit is Parlance's when it carries the batch trailer and a bot committed it: a person who amends or cherry-picks
 * a Parlance commit keeps the trailer but becomes the committer, and their edit must survive.
 */
export function isParlanceCommit(commit: Pick<BranchCommit, 'message' | 'committerType'>): boolean {
  const paragraphs = commit.message.trim().split(/\r?\n\s*\r?\n/);
  const trailers = paragraphs[paragraphs.length - 1] ?? '';
  const hasTrailer = trailers.split(/\r?\n/).some((line) => new RegExp(`^${BATCH_TRAILER}: \\S+$`).test(line.trim()));
  return hasTrailer && commit.committerType === 'Bot';
}

/** Decides the parent of the new commit from how the branch relates to the base. */
export function planBranchUpdate(comparison: { aheadBy: number; behindBy: number; commits: readonly BranchCommit[] }): BranchPlan {
  const humanCommits = comparison.commits.filter((c) => !isParlanceCommit(c));
  const unseenCommits = Math.max(0, comparison.aheadBy - comparison.commits.length);
  const baseMoved = comparison.behindBy > 0;
  if (humanCommits.length > 0 || unseenCommits > 0) return { parent: 'branch', force: false, humanCommits, unseenCommits, baseMoved };
  // Only Parlance's commits would be replaced, so starting again on the current base is safe and keeps the PR free of conflicts.
  if (baseMoved) return { parent: 'base', force: true, humanCommits, unseenCommits, baseMoved };
  return { parent: 'branch', force: false, humanCommits, unseenCommits, baseMoved };
}

/** Git's object id for a blob: what the tree listing holds, so unchanged files need no upload. */
export function gitBlobSha(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
}

export interface TreeEntry {
  sha: string;
  mode: string;
  type: string;
}

/** A commit's tree: its id and the entries by path (incomplete when GitHub truncated the listing). */
export interface TreeListing {
  sha: string;
  truncated: boolean;
  entries: ReadonlyMap<string, TreeEntry>;
}

/** The files whose content differs from the tree; a path missing from a truncated listing counts as changed. */
export function changedFiles(files: readonly TargetFile[], tree: TreeListing, where: string): TargetFile[] {
  return files.filter((file) => {
    const entry = tree.entries.get(file.path);
    if (entry === undefined) return true;
    if (entry.type !== 'blob') {
      throw new GitHubSyncError(`'${file.path}' is a ${entry.type === 'tree' ? 'directory' : entry.type} in ${where}; Parlance can only write a file there.`);
    }
    return entry.sha !== gitBlobSha(file.content);
  });
}

/** Rejects paths that fail the repository path rule or would write into `.git`, and a path given twice (which content would win?). */
export function assertTargetPaths(files: readonly TargetFile[]): void {
  const seen = new Set<string>();
  for (const { path } of files) {
    const problem = repoPathProblem(path);
    if (problem) throw new GitHubSyncError(`Refusing to commit: ${new RepoPathError(path, problem.problem, problem.reason).message}`);
    if (path.split('/').includes('.git')) throw new GitHubSyncError(`Refusing to commit '${path}': a '.git' segment would write into Git's own data. Expected a repository-relative path such as 'locales/de.json'.`);
    if (seen.has(path)) throw new GitHubSyncError(`Target path '${path}' is given twice; each locale file must appear once.`);
    seen.add(path);
  }
}

/** The commit message: what the batch did per locale, then the trailer that lets a later batch recognise the commit. */
export function commitMessage(batch: BatchReport): string {
  const lines = [...batch.locales]
    .sort((a, b) => a.locale.localeCompare(b.locale))
    .map((l) => `${l.locale}: ${l.translated} translated, ${l.refused} refused, ${l.flagged} flagged`);
  return [`Update translations from Parlance batch ${batch.id}`, lines.join('\n'), `${BATCH_TRAILER}: ${batch.id}`].filter((p) => p !== '').join('\n\n');
}

/** The PR comment that explains why the branch was not rebuilt, naming the commits that prevented it. */
export function humanCommitsComment(input: { head: string; base: string; batchId: string; plan: BranchPlan }): string {
  const { head, base, batchId, plan } = input;
  const named = plan.humanCommits.map((c) => `\`${c.sha.slice(0, 7)}\` by ${c.author}`);
  if (plan.unseenCommits > 0) named.push(`${plan.unseenCommits} more commit${plan.unseenCommits === 1 ? '' : 's'} the compare API did not list`);
  const rebuilt = plan.baseMoved
    ? `\`${base}\` has moved since, but the branch was not rebuilt on it, because that would force-push over these commits. If this pull request conflicts with \`${base}\`, merge \`${base}\` into it by hand, or delete the branch so Parlance recreates it on the next batch.`
    : 'Parlance never force-pushes over commits it did not make.';
  return [
    `The branch \`${head}\` has commits that Parlance did not make: ${named.join(', ')}.`,
    `Batch ${batchId} was added as a new commit on top of them. ${rebuilt}`,
  ].join('\n\n');
}

/** Syncs the batch's files to `parlance/<base>` in one commit and opens or refreshes the single pull request. */
export async function syncTranslationPullRequest(input: SyncInput): Promise<SyncResult> {
  const { octokit, owner, repo, base, batch } = input;
  assertTargetPaths(input.files);
  const head = branchFor(base);
  const slug = `${owner}/${repo}`;

  const baseSha = await readBranchSha(octokit, owner, repo, base);
  if (baseSha === null) throw new GitHubSyncError(`Base branch '${base}' does not exist in ${slug}.`);
  const branchSha = await readBranchSha(octokit, owner, repo, head);
  const openPr = await findOpenPullRequest(octokit, owner, repo, head);

  // "Changed" is judged against what the pull request shows today: the branch, or the base before there is a branch.
  const shownSha = branchSha ?? baseSha;
  const shownTree = await readTree(octokit, owner, repo, shownSha);
  const changed = changedFiles(input.files, shownTree, `${slug}@${shownSha}`);
  if (changed.length === 0) return { pr: openPr ? await updatePullRequest(input, openPr.number) : null, commit: null, action: 'unchanged' };

  const plan: BranchPlan =
    branchSha === null || branchSha === baseSha
      ? { parent: 'branch', force: false, humanCommits: [], unseenCommits: 0, baseMoved: false }
      : await compareBranch(octokit, owner, repo, baseSha, branchSha);
  const parentSha = plan.parent === 'base' ? baseSha : shownSha;
  const parentTree = parentSha === shownSha ? shownTree : await readTree(octokit, owner, repo, parentSha);
  const toWrite = parentSha === shownSha ? changed : changedFiles(input.files, parentTree, `${slug}@${parentSha}`);

  const commit = await writeCommit(octokit, owner, repo, { parentSha, parentTree, files: toWrite, message: commitMessage(batch) });
  if (commit === null && parentSha === shownSha) {
    // Only a truncated listing gets here: the files looked new but the tree GitHub built is the branch's own.
    return { pr: openPr ? await updatePullRequest(input, openPr.number) : null, commit: null, action: 'unchanged' };
  }
  // A rebuild whose files the base already holds points the branch at the base: the stale Parlance commits must not be merged back.
  const target = commit ?? parentSha;
  if (branchSha === null) await createBranch(octokit, owner, repo, head, target);
  else await moveBranch(octokit, owner, repo, head, target, plan.force);

  // GitHub refuses a pull request with no commits between base and head, and there would be nothing to review.
  if (commit === null && !openPr) return { pr: null, commit: null, action: 'unchanged' };
  const pr = openPr ? await updatePullRequest(input, openPr.number) : await openPullRequest(input, head);
  if (plan.humanCommits.length > 0 || plan.unseenCommits > 0) {
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner,
      repo,
      issue_number: pr.number,
      body: humanCommitsComment({ head, base, batchId: batch.id, plan }),
    });
  }
  return { pr, commit, action: openPr ? 'updated' : 'created' };
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}

/** The commit a branch points at, or null when the branch does not exist. */
async function readBranchSha(octokit: GitHubClient, owner: string, repo: string, branch: string): Promise<string | null> {
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { owner, repo, ref: `heads/${branch}` });
    return data.object.sha;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

async function findOpenPullRequest(octokit: GitHubClient, owner: string, repo: string, head: string): Promise<{ number: number } | null> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/pulls', { owner, repo, head: `${owner}:${head}`, state: 'open' });
  const [pr] = data;
  return pr ? { number: pr.number } : null;
}

/** Lists a commit's tree recursively; GitHub resolves the commit to its root tree, whose id the answer carries. */
async function readTree(octokit: GitHubClient, owner: string, repo: string, commitSha: string): Promise<TreeListing> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', { owner, repo, tree_sha: commitSha, recursive: 'true' });
  const entries = new Map<string, TreeEntry>();
  for (const e of data.tree) {
    if (e.path !== undefined && e.sha !== undefined && e.mode !== undefined && e.type !== undefined) entries.set(e.path, { sha: e.sha, mode: e.mode, type: e.type });
  }
  return { sha: data.sha, truncated: data.truncated, entries };
}

async function compareBranch(octokit: GitHubClient, owner: string, repo: string, baseSha: string, branchSha: string): Promise<BranchPlan> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', { owner, repo, basehead: `${baseSha}...${branchSha}`, per_page: 100 });
  return planBranchUpdate({
    aheadBy: data.ahead_by,
    behindBy: data.behind_by,
    commits: data.commits.map((c) => ({
      sha: c.sha,
      message: c.commit.message,
      committerType: c.committer && 'type' in c.committer ? c.committer.type : null,
      author: c.author && 'login' in c.author ? `@${c.author.login}` : (c.commit.author?.name ?? 'an unknown author'),
    })),
  });
}

/** Blobs, a tree on the parent's tree and a commit; null when the resulting tree is the parent's (nothing to commit). */
async function writeCommit(
  octokit: GitHubClient,
  owner: string,
  repo: string,
  change: { parentSha: string; parentTree: TreeListing; files: readonly TargetFile[]; message: string },
): Promise<string | null> {
  if (change.files.length === 0) return null;
  const tree = [];
  for (const file of change.files) {
    const { data } = await octokit.request('POST /repos/{owner}/{repo}/git/blobs', {
      owner,
      repo,
      // base64 keeps non-UTF-8 files (UTF-16 .strings, binary .mo) byte-exact.
      content: Buffer.from(file.content).toString('base64'),
      encoding: 'base64',
    });
    // An executable bit on an existing file is the repository's choice, not ours to reset.
    const mode = change.parentTree.entries.get(file.path)?.mode === '100755' ? '100755' : '100644';
    tree.push({ path: file.path, mode, type: 'blob', sha: data.sha } as const);
  }
  const { data: newTree } = await octokit.request('POST /repos/{owner}/{repo}/git/trees', { owner, repo, base_tree: change.parentTree.sha, tree });
  if (newTree.sha === change.parentTree.sha) return null;
  const { data: commit } = await octokit.request('POST /repos/{owner}/{repo}/git/commits', {
    owner,
    repo,
    message: change.message,
    tree: newTree.sha,
    parents: [change.parentSha],
  });
  return commit.sha;
}

async function createBranch(octokit: GitHubClient, owner: string, repo: string, branch: string, sha: string): Promise<void> {
  await octokit.request('POST /repos/{owner}/{repo}/git/refs', { owner, repo, ref: `refs/heads/${branch}`, sha });
}

/** Without force GitHub refuses anything but a fast-forward, which protects commits pushed since the branch was read. */
async function moveBranch(octokit: GitHubClient, owner: string, repo: string, branch: string, sha: string, force: boolean): Promise<void> {
  await octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { owner, repo, ref: `heads/${branch}`, sha, force });
}

async function openPullRequest(input: SyncInput, head: string): Promise<{ number: number; url: string }> {
  const { data } = await input.octokit.request('POST /repos/{owner}/{repo}/pulls', {
    owner: input.owner,
    repo: input.repo,
    head,
    base: input.base,
    title: pullRequestTitle(input.base),
    body: bodyOf(input),
  });
  return { number: data.number, url: data.html_url };
}

async function updatePullRequest(input: SyncInput, number: number): Promise<{ number: number; url: string }> {
  const { data } = await input.octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
    owner: input.owner,
    repo: input.repo,
    pull_number: number,
    title: pullRequestTitle(input.base),
    body: bodyOf(input),
  });
  return { number: data.number, url: data.html_url };
}

function bodyOf(input: SyncInput): string {
  return pullRequestBody({ batch: input.batch, project: input.project, base: input.base, ...(input.drift ? { drift: input.drift } : {}) });
}
