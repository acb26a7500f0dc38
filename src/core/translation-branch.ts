/**
 * The rules every writer of a translation branch follows (the GitHub App, the Action's create-pull-request): its
 * commits carry its own trailer and are made by a bot; a commit without both is someone else's, and the branch is
 * then only ever built upon, never rebuilt over it. Each writer passes its own trailer, so the App and the Action
 * treat each other's commits as a person's.
 */
import { createHash } from 'node:crypto';

/** The branch a writer owns for a base branch, unless the user names another. */
export function translationBranchFor(base: string): string {
  return `parlance/${base}`;
}

/** A commit on the branch that is not on the base, as GitHub's compare API lists it. */
export interface BranchCommit {
  sha: string;
  message: string;
  /** GitHub account type of the committer (`Bot` for commits an App's token, such as GITHUB_TOKEN, made through the API); null when the email matches no account. */
  committerType: string | null;
  /** Who to name: `@login`, else the name in the commit. */
  author: string;
}

/** The trailer that marks the GitHub App's and the code-host connectors' commits: `Parlance-Batch: <batch id>`. */
export const BATCH_TRAILER = 'Parlance-Batch';

/** The values of a trailer's `<trailer>: <value>` lines in the message's last paragraph (git's trailer block). */
export function trailerValues(message: string, trailer: string): string[] {
  const paragraphs = message.trim().split(/\r?\n\s*\r?\n/);
  const line = new RegExp(`^${trailer}: (\\S+)$`);
  return (paragraphs.at(-1) ?? '').split(/\r?\n/).flatMap((text) => line.exec(text.trim())?.[1] ?? []);
}

/** The message carries the trailer in its trailer block. */
export function hasTrailer(message: string, trailer: string): boolean {
  return trailerValues(message, trailer).length > 0;
}

/**
 * The writer's own commit: its trailer, and a bot committed it. A person who amends or cherry-picks one keeps the
 * trailer but becomes the committer, and then it is theirs and their edit must survive.
 */
export function isOwnCommit(commit: Pick<BranchCommit, 'message' | 'committerType'>, trailer: string): boolean {
  return commit.committerType === 'Bot' && hasTrailer(commit.message, trailer);
}

/** Where the next commit goes: on the branch (kept as it is), or on the base with the branch rebuilt (forced). */
export interface BranchPlan {
  parent: 'base' | 'branch';
  force: boolean;
  /** Commits on the branch the writer did not make (a person's, or another tool's): they forbid a rebuild. */
  foreignCommits: BranchCommit[];
  /** Commits beyond the compare API's list, counted as someone else's because they cannot be checked. */
  unseenCommits: number;
  baseMoved: boolean;
}

/** The plan for a branch that does not exist yet, or points at the base: commit on it as it is. */
export function freshBranch(): BranchPlan {
  return { parent: 'branch', force: false, foreignCommits: [], unseenCommits: 0, baseMoved: false };
}

/** Decides the parent of the next commit from how the branch relates to the base (the compare of base...branch). */
export function planBranch(comparison: { aheadBy: number; behindBy: number; commits: readonly BranchCommit[] }, trailer: string): BranchPlan {
  const foreignCommits = comparison.commits.filter((commit) => !isOwnCommit(commit, trailer));
  const unseenCommits = Math.max(0, comparison.aheadBy - comparison.commits.length);
  const baseMoved = comparison.behindBy > 0;
  if (foreignCommits.length > 0 || unseenCommits > 0) return { parent: 'branch', force: false, foreignCommits, unseenCommits, baseMoved };
  // Only the writer's own commits would be replaced: starting again on the moved base keeps the pull request free of
  // conflicts. A branch the base already contains (merged) is an ancestor of the new commit: a plain fast-forward.
  if (baseMoved) return { parent: 'base', force: comparison.aheadBy > 0, foreignCommits, unseenCommits, baseMoved };
  return { parent: 'branch', force: false, foreignCommits, unseenCommits, baseMoved };
}

/** Git's object id for a blob: what a tree listing holds, so an unchanged file needs no upload. */
export function gitBlobSha(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
}

/** A commit as GitHub's compare API lists it (the fields read here). */
export interface ComparedCommit {
  sha: string;
  commit: { message: string; author?: { name?: string } | null };
  author?: { login?: string } | null;
  committer?: { type?: string } | null;
}

/** GitHub's compare of base...branch, as planBranch reads it. */
export function fromCompare(data: { ahead_by: number; behind_by: number; commits: readonly ComparedCommit[] }): { aheadBy: number; behindBy: number; commits: BranchCommit[] } {
  return {
    aheadBy: data.ahead_by,
    behindBy: data.behind_by,
    commits: data.commits.map((c) => ({
      sha: c.sha,
      message: c.commit.message,
      committerType: c.committer?.type ?? null,
      author: c.author?.login ? `@${c.author.login}` : (c.commit.author?.name ?? 'an unknown author'),
    })),
  };
}
