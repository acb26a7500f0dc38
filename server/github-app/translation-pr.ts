/**
 * Turns a completed batch into one commit on `parlance/<base>` and one pull request, rebuilding the branch only when
 * Parlance alone wrote to it. The ref moves by compare-and-swap (see syncTranslationPullRequest), so a person's commit
 * pushed at any moment is kept; handlers/batch-completed.ts also serialises the App's own jobs per branch.
 */
import type { ProbotOctokit } from 'probot';
import { RepoPathError, repoPathProblem } from '../../src/core/repo-path.js';
import { BATCH_TRAILER, freshBranch, fromCompare, gitBlobSha, isOwnCommit, planBranch, translationBranchFor, type BranchCommit, type BranchPlan } from '../../src/core/translation-branch.js';
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
  /** The base head the files were pulled at, when the caller has read it (saves a read; also pins the base for the whole job). */
  baseSha?: string;
  /** `baseSha`'s tree listing, when the caller has read it. */
  baseTree?: TreeListing;
  /** Rounds before giving up when the branch keeps moving under the App; `MAX_SYNC_ATTEMPTS` by default. */
  maxAttempts?: number;
}

export interface SyncResult {
  /** The open pull request after the sync; null when nothing changed and none was open. */
  pr: { number: number; url: string } | null;
  /** The commit written for this batch; null when the files already matched the branch. */
  commit: string | null;
  /** Where `parlance/<base>` points after the sync; null when there is no such branch. */
  head: string | null;
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
export { BATCH_TRAILER };

/** The branch Parlance owns for a base branch. */
export const branchFor = translationBranchFor;

export { gitBlobSha };

/** The App's own commit: the batch trailer, committed by a bot. */
export function isParlanceCommit(commit: Pick<BranchCommit, 'message' | 'committerType'>): boolean {
  return isOwnCommit(commit, BATCH_TRAILER);
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
export function humanCommitsComment(input: { head: string; base: string; batchId: string; plan: BranchPlan; held?: readonly string[] }): string {
  const { head, base, batchId, plan, held = [] } = input;
  const named = plan.foreignCommits.map((c) => `\`${c.sha.slice(0, 7)}\` by ${c.author}`);
  if (plan.unseenCommits > 0) named.push(`${plan.unseenCommits} more commit${plan.unseenCommits === 1 ? '' : 's'} the compare API did not list`);
  const rebuilt = plan.baseMoved
    ? `\`${base}\` has moved since, but the branch was not rebuilt on it, because that would force-push over these commits. If this pull request conflicts with \`${base}\`, merge \`${base}\` into it by hand, or delete the branch so Parlance recreates it on the next batch.`
    : 'Parlance never force-pushes over commits it did not make.';
  return [
    `The branch \`${head}\` has commits that Parlance did not make: ${named.join(', ')}.`,
    `Batch ${batchId} was added as a new commit on top of them. ${rebuilt}`,
    ...(held.length > 0
      ? [`These files changed on the branch while the batch was being written and were left as pushed: ${held.map((p) => `\`${p}\``).join(', ')}.`]
      : []),
  ].join('\n\n');
}

/** Times a job builds its commit again when `parlance/<base>` moved under it before it gives up (the service then redelivers). */
export const MAX_SYNC_ATTEMPTS = 3;

/** Where the branch stands after one attempt: nothing to write, the ref moved to the new commit, or it moved under the App first. */
type Attempt =
  | { kind: 'unchanged'; head: string | null }
  | { kind: 'moved'; commit: string | null; head: string; plan: BranchPlan; held: string[] }
  | { kind: 'conflict'; reason: string; seen: string | null };

/**
 * Syncs the batch's files to `parlance/<base>` in one commit and opens or refreshes the single pull request.
 *
 * The ref is moved by compare-and-swap: a fast-forward whenever the new commit descends from the head the App read
 * (GitHub refuses it with 422 when someone pushed since), and a forced rebuild only when that head, re-read just before
 * the update, is still the Parlance commit the plan was made on. On any mismatch the attempt starts over from the new
 * head, at most `MAX_SYNC_ATTEMPTS` times; a commit Parlance did not make is never overwritten, only built upon.
 */
export async function syncTranslationPullRequest(input: SyncInput): Promise<SyncResult> {
  const { octokit, owner, repo, base, batch } = input;
  assertTargetPaths(input.files);
  const head = branchFor(base);
  const slug = `${owner}/${repo}`;

  const baseSha = input.baseSha ?? (await readBranchSha(octokit, owner, repo, base));
  if (baseSha === null) throw new GitHubSyncError(`Base branch '${base}' does not exist in ${slug}.`);
  const trees = treeReader(octokit, owner, repo);
  if (input.baseTree) trees.seed(baseSha, input.baseTree);
  const openPr = await findOpenPullRequest(octokit, owner, repo, head);

  const attempts = input.maxAttempts ?? MAX_SYNC_ATTEMPTS;
  const conflicts: string[] = [];
  // The head the previous round was built on: what changed on the branch since then was pushed while the App wrote.
  let previousHead: string | null | undefined;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const outcome = await attemptSync(input, { baseSha, head, trees, previousHead });
    if (outcome.kind === 'conflict') {
      conflicts.push(outcome.reason);
      previousHead = outcome.seen;
      continue;
    }
    if (outcome.kind === 'unchanged') return { pr: openPr ? await updatePullRequest(input, openPr.number, openPr.body) : null, commit: null, head: outcome.head, action: 'unchanged' };

    const { commit, plan, held } = outcome;
    // GitHub refuses a pull request with no commits between base and head, and there would be nothing to review.
    if (commit === null && !openPr) return { pr: null, commit: null, head: outcome.head, action: 'unchanged' };
    // A rebuilt branch starts its pull request's counts again: the body then reports this batch alone.
    const previousBody = plan.parent === 'base' ? null : (openPr?.body ?? null);
    const pr = openPr ? await updatePullRequest(input, openPr.number, previousBody) : await openPullRequest(input, head);
    if (plan.foreignCommits.length > 0 || plan.unseenCommits > 0) {
      await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        owner,
        repo,
        issue_number: pr.number,
        body: humanCommitsComment({ head, base, batchId: batch.id, plan, held }),
      });
    }
    return { pr, commit, head: outcome.head, action: openPr ? 'updated' : 'created' };
  }
  throw new GitHubSyncError(
    `'${head}' in ${slug} moved while batch ${batch.id} was being written, ${attempts} times in a row (${conflicts.join('; ')}). ` +
      'Nothing was overwritten; the batch is written again when the service redelivers it.',
  );
}

/**
 * One read-plan-write-swap round on the branch as it is now. After a lost round, the target files that a person's
 * commits changed since the head that round was built on are held back, not written: the files were pulled before
 * that push, and writing them would undo the person's edit in the next commit.
 */
async function attemptSync(input: SyncInput, at: { baseSha: string; head: string; trees: TreeReader; previousHead: string | null | undefined }): Promise<Attempt> {
  const { octokit, owner, repo, batch } = input;
  const { baseSha, head, trees, previousHead } = at;
  const slug = `${owner}/${repo}`;
  const branchSha = await readBranchSha(octokit, owner, repo, head);

  // "Changed" is judged against what the pull request shows today: the branch, or the base before there is a branch.
  const shownSha = branchSha ?? baseSha;
  const shownTree = await trees.read(shownSha);
  let planned: BranchPlan | undefined;
  const planFor = async (): Promise<BranchPlan> =>
    (planned ??=
      branchSha === null || branchSha === baseSha
        ? freshBranch()
        : await compareBranch(octokit, owner, repo, baseSha, branchSha));

  let files = input.files;
  const held: string[] = [];
  if (previousHead !== undefined && branchSha !== null && branchSha !== previousHead) {
    const plan = await planFor();
    if (plan.foreignCommits.length > 0 || plan.unseenCommits > 0) {
      const before = await trees.read(previousHead ?? baseSha);
      for (const file of files) if (before.entries.get(file.path)?.sha !== shownTree.entries.get(file.path)?.sha) held.push(file.path);
      files = files.filter((f) => !held.includes(f.path));
    }
  }

  const changed = changedFiles(files, shownTree, `${slug}@${shownSha}`);
  if (changed.length === 0) return { kind: 'unchanged', head: branchSha };

  const plan = await planFor();
  const parentSha = plan.parent === 'base' ? baseSha : shownSha;
  const parentTree = await trees.read(parentSha);
  const toWrite = parentSha === shownSha ? changed : changedFiles(files, parentTree, `${slug}@${parentSha}`);

  const commit = await writeCommit(octokit, owner, repo, { parentSha, parentTree, files: toWrite, message: commitMessage(batch), knownBlobs: trees.blobs });
  if (commit === null && parentSha === shownSha) {
    // Only a truncated listing gets here: the files looked new but the tree GitHub built is the branch's own.
    return { kind: 'unchanged', head: branchSha };
  }
  // A rebuild whose files the base already holds points the branch at the base: the stale Parlance commits must not be merged back.
  const target = commit ?? parentSha;
  const swapped = await swapBranch(octokit, owner, repo, head, { from: branchSha, to: target, rebuild: plan.force });
  if (swapped !== null) return { kind: 'conflict', reason: swapped, seen: branchSha };
  return { kind: 'moved', commit, head: target, plan, held };
}

/**
 * Moves `parlance/<base>` from the head the plan was made on to `to`; null when it moved, else why not (the branch
 * changed meanwhile). A rebuild re-reads the head right before forcing, so what it replaces is still Parlance's own
 * commit; the few milliseconds between that read and the update are the one window GitHub's REST API leaves open.
 */
async function swapBranch(
  octokit: GitHubClient,
  owner: string,
  repo: string,
  branch: string,
  move: { from: string | null; to: string; rebuild: boolean },
): Promise<string | null> {
  try {
    if (move.from === null) {
      await octokit.request('POST /repos/{owner}/{repo}/git/refs', { owner, repo, ref: `refs/heads/${branch}`, sha: move.to });
      return null;
    }
    if (move.rebuild) {
      const now = await readBranchSha(octokit, owner, repo, branch);
      if (now !== move.from) return `'${branch}' is at ${now ?? 'no commit (deleted)'} instead of Parlance's ${move.from.slice(0, 7)}`;
    }
    // Without force GitHub takes only a fast-forward, which keeps any commit pushed since the branch was read.
    await octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { owner, repo, ref: `heads/${branch}`, sha: move.to, force: move.rebuild });
    return null;
  } catch (error) {
    // 422: "Reference already exists", "Update is not a fast forward", "Reference does not exist".
    if (statusOf(error) !== 422) throw error;
    return `GitHub refused to move '${branch}' to ${move.to.slice(0, 7)}: ${messageOf(error)}`;
  }
}

function messageOf(error: unknown): string {
  const data = typeof error === 'object' && error !== null && 'response' in error ? (error.response as { data?: { message?: unknown } } | undefined)?.data : undefined;
  if (typeof data?.message === 'string') return data.message;
  return error instanceof Error ? error.message : String(error);
}

/** Tree listings read in one job, each once, and every blob id they name (blobs GitHub already has need no upload). */
interface TreeReader {
  read(commitSha: string): Promise<TreeListing>;
  seed(commitSha: string, listing: TreeListing): void;
  blobs: Set<string>;
}

function treeReader(octokit: GitHubClient, owner: string, repo: string): TreeReader {
  const listings = new Map<string, Promise<TreeListing>>();
  const blobs = new Set<string>();
  const remember = (listing: TreeListing) => {
    for (const entry of listing.entries.values()) if (entry.type === 'blob') blobs.add(entry.sha);
    return listing;
  };
  return {
    blobs,
    seed(commitSha, listing) {
      listings.set(commitSha, Promise.resolve(remember(listing)));
    },
    read(commitSha) {
      let listing = listings.get(commitSha);
      if (!listing) {
        listing = readTree(octokit, owner, repo, commitSha).then(remember);
        // A failed read is not cached: a retry reads again.
        listing.catch(() => listings.delete(commitSha));
        listings.set(commitSha, listing);
      }
      return listing;
    },
  };
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

/** The open pull request of the branch, with its body: the counts it shows are added to by the next update. */
async function findOpenPullRequest(octokit: GitHubClient, owner: string, repo: string, head: string): Promise<{ number: number; body: string | null } | null> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/pulls', { owner, repo, head: `${owner}:${head}`, state: 'open' });
  const [pr] = data;
  return pr ? { number: pr.number, body: pr.body ?? null } : null;
}

/** Lists a commit's tree recursively; GitHub resolves the commit to its root tree, whose id the answer carries. */
export async function readTree(octokit: GitHubClient, owner: string, repo: string, commitSha: string): Promise<TreeListing> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', { owner, repo, tree_sha: commitSha, recursive: 'true' });
  const entries = new Map<string, TreeEntry>();
  for (const e of data.tree) {
    if (e.path !== undefined && e.sha !== undefined && e.mode !== undefined && e.type !== undefined) entries.set(e.path, { sha: e.sha, mode: e.mode, type: e.type });
  }
  return { sha: data.sha, truncated: data.truncated, entries };
}

async function compareBranch(octokit: GitHubClient, owner: string, repo: string, baseSha: string, branchSha: string): Promise<BranchPlan> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', { owner, repo, basehead: `${baseSha}...${branchSha}`, per_page: 100 });
  return planBranch(fromCompare(data), BATCH_TRAILER);
}

/**
 * Blobs, a tree on the parent's tree and a commit; null when the resulting tree is the parent's (nothing to commit).
 * A file whose blob GitHub already holds (named in a tree listing read for this job, or uploaded in an earlier round)
 * goes into the tree by its id without an upload.
 */
async function writeCommit(
  octokit: GitHubClient,
  owner: string,
  repo: string,
  change: { parentSha: string; parentTree: TreeListing; files: readonly TargetFile[]; message: string; knownBlobs: Set<string> },
): Promise<string | null> {
  if (change.files.length === 0) return null;
  const tree = [];
  for (const file of change.files) {
    let blobSha = gitBlobSha(file.content);
    if (!change.knownBlobs.has(blobSha)) {
      const { data } = await octokit.request('POST /repos/{owner}/{repo}/git/blobs', {
        owner,
        repo,
        // base64 keeps non-UTF-8 files (UTF-16 .strings, binary .mo) byte-exact.
        content: Buffer.from(file.content).toString('base64'),
        encoding: 'base64',
      });
      blobSha = data.sha;
      change.knownBlobs.add(blobSha);
    }
    // An executable bit on an existing file is the repository's choice, not ours to reset.
    const mode = change.parentTree.entries.get(file.path)?.mode === '100755' ? '100755' : '100644';
    tree.push({ path: file.path, mode, type: 'blob', sha: blobSha } as const);
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

/** Opens the pull request; when another App process opened it first (422), that one is updated instead. */
async function openPullRequest(input: SyncInput, head: string): Promise<{ number: number; url: string }> {
  try {
    const { data } = await input.octokit.request('POST /repos/{owner}/{repo}/pulls', {
      owner: input.owner,
      repo: input.repo,
      head,
      base: input.base,
      title: pullRequestTitle(input.base),
      body: bodyOf(input),
    });
    return { number: data.number, url: data.html_url };
  } catch (error) {
    if (statusOf(error) !== 422) throw error;
    const opened = await findOpenPullRequest(input.octokit, input.owner, input.repo, head);
    if (!opened) throw error;
    return updatePullRequest(input, opened.number, opened.body);
  }
}

async function updatePullRequest(input: SyncInput, number: number, previousBody: string | null): Promise<{ number: number; url: string }> {
  const { data } = await input.octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
    owner: input.owner,
    repo: input.repo,
    pull_number: number,
    title: pullRequestTitle(input.base),
    body: bodyOf(input, previousBody),
  });
  return { number: data.number, url: data.html_url };
}

function bodyOf(input: SyncInput, previousBody: string | null = null): string {
  return pullRequestBody({ batch: input.batch, project: input.project, base: input.base, previousBody, ...(input.drift ? { drift: input.drift } : {}) });
}
