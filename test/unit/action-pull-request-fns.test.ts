/** The Action's pull request decisions without GitHub: whose commits a branch holds, where the next commit goes, branch names. */
import { describe, expect, it } from 'vitest';
import { branchNameProblem } from '../../src/action/inputs.js';
import { ACTION_TRAILER, isActionCommit } from '../../src/action/pull-request-fns.js';
import { planBranch as planFor, type BranchCommit } from '../../src/core/translation-branch.js';

const planBranch = (comparison: { aheadBy: number; behindBy: number; commits: BranchCommit[] }) => planFor(comparison, ACTION_TRAILER);

const own = (sha: string): BranchCommit => ({ sha, message: `Update translations from Parlance\n\n${ACTION_TRAILER}: 7`, committerType: 'Bot', author: '@github-actions[bot]' });
const person = (sha: string): BranchCommit => ({ sha, message: 'Fix the German greeting', committerType: 'User', author: '@octocat' });

describe('isActionCommit', () => {
  it("needs the trailer and a bot committer: a person's amend of the Action's commit is theirs", () => {
    expect(isActionCommit(own('a'))).toBe(true);
    expect(isActionCommit({ ...own('a'), committerType: 'User' })).toBe(false);
    expect(isActionCommit({ ...own('a'), message: 'Update translations\n\nParlance-Batch: bat_1' })).toBe(false);
    // The trailer counts only in the last paragraph, as git reads trailers.
    expect(isActionCommit({ ...own('a'), message: `${ACTION_TRAILER}: 7\n\nAnd then some text` })).toBe(false);
  });
});

describe('planBranch', () => {
  it('builds on the branch, never forcing, when a person committed to it (or a commit could not be seen)', () => {
    expect(planBranch({ aheadBy: 2, behindBy: 3, commits: [own('a'), person('b')] })).toMatchObject({ parent: 'branch', force: false, foreignCommits: [person('b')] });
    expect(planBranch({ aheadBy: 101, behindBy: 0, commits: Array.from({ length: 100 }, (_, i) => own(String(i))) })).toMatchObject({ parent: 'branch', force: false, unseenCommits: 1 });
  });

  it("rebuilds on a moved base when only the Action's commits would be replaced, and fast-forwards a merged branch", () => {
    expect(planBranch({ aheadBy: 1, behindBy: 2, commits: [own('a')] })).toEqual({ parent: 'base', force: true, foreignCommits: [], unseenCommits: 0, baseMoved: true });
    expect(planBranch({ aheadBy: 0, behindBy: 2, commits: [] })).toEqual({ parent: 'base', force: false, foreignCommits: [], unseenCommits: 0, baseMoved: true });
    expect(planBranch({ aheadBy: 1, behindBy: 0, commits: [own('a')] })).toEqual({ parent: 'branch', force: false, foreignCommits: [], unseenCommits: 0, baseMoved: false });
  });
});

describe('branchNameProblem', () => {
  it('takes the names git takes and refuses the others', () => {
    expect(branchNameProblem('parlance/main')).toBeUndefined();
    expect(branchNameProblem('translations/release-2.0')).toBeUndefined();
    for (const bad of ['refs/heads/x', 'a b', 'a..b', 'a/', '/a', 'a.lock', 'a/.b', 'a:b', 'a~1', '@']) expect(branchNameProblem(bad), bad).toBeDefined();
  });
});
