/** The rules of a translation branch that the GitHub App, the Action and the code-host connectors share. */
import { describe, expect, it } from 'vitest';
import { BATCH_TRAILER, fromCompare, gitBlobSha, hasTrailer, isOwnCommit, planBranch, trailerValues } from '../../src/core/translation-branch.js';

describe('trailers', () => {
  it('reads the values of a trailer from the last paragraph only', () => {
    const message = `Update translations\n\nMentions ${BATCH_TRAILER}: bat_0 in the body\n\n${BATCH_TRAILER}: bat_1\nSigned-off-by: A <a@example.com>\n${BATCH_TRAILER}: bat_2`;
    expect(trailerValues(message, BATCH_TRAILER)).toEqual(['bat_1', 'bat_2']);
    expect(hasTrailer(message, BATCH_TRAILER)).toBe(true);
    expect(hasTrailer(`${BATCH_TRAILER}: bat_1\n\nA paragraph after it`, BATCH_TRAILER)).toBe(false);
    expect(hasTrailer(`Subject\n\nParlance-Action-Run: 7`, BATCH_TRAILER)).toBe(false);
    expect(trailerValues('Subject\r\n\r\nParlance-Batch: bat_3\r\n', BATCH_TRAILER)).toEqual(['bat_3']);
  });

  it("is the writer's own commit only with its trailer and a bot committer", () => {
    const message = `Update\n\n${BATCH_TRAILER}: bat_1`;
    expect(isOwnCommit({ message, committerType: 'Bot' }, BATCH_TRAILER)).toBe(true);
    expect(isOwnCommit({ message, committerType: 'User' }, BATCH_TRAILER)).toBe(false);
    expect(isOwnCommit({ message, committerType: null }, BATCH_TRAILER)).toBe(false);
    expect(isOwnCommit({ message, committerType: 'Bot' }, 'Parlance-Action-Run')).toBe(false);
  });
});

describe('planBranch', () => {
  const own = { sha: 'a', message: `x\n\n${BATCH_TRAILER}: b`, committerType: 'Bot', author: '@parlance[bot]' };
  const person = { sha: 'b', message: 'Fix the German', committerType: 'User', author: '@octocat' };

  it('builds on a branch with anyone else’s commit, or with commits the compare did not list', () => {
    expect(planBranch({ aheadBy: 2, behindBy: 1, commits: [own, person] }, BATCH_TRAILER)).toEqual({ parent: 'branch', force: false, foreignCommits: [person], unseenCommits: 0, baseMoved: true });
    expect(planBranch({ aheadBy: 3, behindBy: 1, commits: [own] }, BATCH_TRAILER)).toMatchObject({ parent: 'branch', force: false, unseenCommits: 2 });
  });

  it('rebuilds on a moved base only over its own commits, and fast-forwards a merged branch', () => {
    expect(planBranch({ aheadBy: 1, behindBy: 2, commits: [own] }, BATCH_TRAILER)).toMatchObject({ parent: 'base', force: true });
    expect(planBranch({ aheadBy: 0, behindBy: 2, commits: [] }, BATCH_TRAILER)).toMatchObject({ parent: 'base', force: false });
    expect(planBranch({ aheadBy: 1, behindBy: 0, commits: [own] }, BATCH_TRAILER)).toMatchObject({ parent: 'branch', force: false, baseMoved: false });
  });
});

it("reads GitHub's compare answer: login or name, committer type or none", () => {
  const read = fromCompare({
    ahead_by: 2,
    behind_by: 0,
    commits: [
      { sha: 's1', commit: { message: 'm1', author: { name: 'Ana' } }, author: { login: 'ana' }, committer: { type: 'Bot' } },
      { sha: 's2', commit: { message: 'm2', author: { name: 'Ben' } }, author: null, committer: null },
    ],
  });
  expect(read).toEqual({
    aheadBy: 2,
    behindBy: 0,
    commits: [
      { sha: 's1', message: 'm1', committerType: 'Bot', author: '@ana' },
      { sha: 's2', message: 'm2', committerType: null, author: 'Ben' },
    ],
  });
});

it("gives git's blob id", () => {
  // `printf 'bonjour\n' | git hash-object --stdin`
  expect(gitBlobSha(Buffer.from('bonjour\n'))).toBe('1cd909e05d33f0f6bc4ea1caf19b5749b434ceb3');
});
