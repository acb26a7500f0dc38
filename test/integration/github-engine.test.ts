/** The GitHub App's engine against a nock-mocked api.github.com: the translation PR's branch, commit and PR, and the check run; every request checked against GitHub's OpenAPI description. */
import { createHash } from 'node:crypto';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reportCheckRun, type CheckRow } from '../../server/github-app/check-run.js';
import type { BatchReport, DriftImport, ProjectRef } from '../../server/github-app/pr-body.js';
import { BATCH_TRAILER, gitBlobSha, isParlanceCommit, syncTranslationPullRequest, type TargetFile } from '../../server/github-app/translation-pr.js';
import { planBranch, type BranchCommit } from '../../src/core/translation-branch.js';

const planBranchUpdate = (comparison: { aheadBy: number; behindBy: number; commits: BranchCommit[] }) => planBranch(comparison, BATCH_TRAILER);
import { githubRequestProblems, type WireRequest } from '../helpers/github-openapi.js';

// nock 15 intercepts through @mswjs/interceptors 0.44, which calls Promise.withResolvers (Node 22+); Node 20 is our engine floor.
const promiseStatics = Promise as unknown as { withResolvers?: () => unknown };
promiseStatics.withResolvers ??= () => {
  let resolve: ((value: unknown) => void) | undefined;
  let reject: ((reason?: unknown) => void) | undefined;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

const API = 'https://api.github.com';
const OWNER = 'acme';
const REPO = 'shop';
const REPO_PATH = `/repos/${OWNER}/${REPO}`;
const BASE_REF = `${REPO_PATH}/git/ref/heads%2Fmain`;
const BRANCH_REF = `${REPO_PATH}/git/ref/heads%2Fparlance%2Fmain`;
const OPEN_PRS = { head: `${OWNER}:parlance/main`, state: 'open' };

const project: ProjectRef = { name: 'Shop', url: 'https://parlance.example.com/projects/shop' };
const batch: BatchReport = {
  id: 'bat_01J9ZK3',
  url: 'https://parlance.example.com/v1/batches/bat_01J9ZK3',
  locales: [
    { locale: 'fr', translated: 3, refused: 0, flagged: 1, words: 21 },
    { locale: 'de', translated: 2, refused: 1, flagged: 0, words: 14 },
  ],
};

/** A stand-in object id: any 40-hex value GitHub could have given. */
const sha = (label: string) => createHash('sha1').update(label).digest('hex');
const bytes = (text: string) => new TextEncoder().encode(text);
const decodeBase64 = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

const SOURCE = '{"cart.title":"Your cart","cart.empty":"Your cart is empty"}\n';
const DE_OLD = '{"cart.title":"Warenkorb"}\n';
const DE_NEW = '{"cart.title":"Ihr Warenkorb","cart.empty":"Ihr Warenkorb ist leer"}\n';
const FR_NEW = '{"cart.title":"Votre panier","cart.empty":"Votre panier est vide"}\n';

const files = (texts: Record<string, string>): TargetFile[] => Object.entries(texts).map(([path, text]) => ({ path, content: bytes(text) }));

/** A recursive tree listing as GitHub returns it, with blob ids computed the way git does. */
function treeListing(treeSha: string, texts: Record<string, string>) {
  return {
    sha: treeSha,
    url: `${API}${REPO_PATH}/git/trees/${treeSha}`,
    truncated: false,
    tree: [
      { path: 'locales', mode: '040000', type: 'tree', sha: sha(`${treeSha}/locales`), url: `${API}${REPO_PATH}/git/trees/${sha(`${treeSha}/locales`)}` },
      ...Object.entries(texts).map(([path, text]) => ({ path, mode: '100644', type: 'blob', sha: gitBlobSha(bytes(text)), size: bytes(text).byteLength })),
    ],
  };
}

const refAt = (ref: string, commit: string) => ({ ref: `refs/heads/${ref}`, node_id: 'REF_node', url: `${API}${REPO_PATH}/git/refs/heads/${ref}`, object: { sha: commit, type: 'commit', url: '' } });
const pullRequest = (number: number) => ({ number, html_url: `https://github.com/${OWNER}/${REPO}/pull/${number}`, state: 'open' });

/** A commit as the compare API lists it; `by` a bot account or a person. */
function listedCommit(commitSha: string, message: string, by: { login: string; type: 'Bot' | 'User' }) {
  const account = { login: by.login, id: 1, type: by.type };
  return { sha: commitSha, commit: { message, author: { name: by.login }, committer: { name: by.login } }, author: account, committer: account, parents: [] };
}
const appCommit = (commitSha: string, batchId: string) => listedCommit(commitSha, `Update translations from Parlance batch ${batchId}\n\nParlance-Batch: ${batchId}`, { login: 'parlance[bot]', type: 'Bot' });

/** GitHub's answer to a blob upload: the id git gives the uploaded bytes (nock 15 hands reply functions the fetch Request). */
async function blobCreated(req: Request) {
  const { content } = (await req.json()) as { content: string };
  return { sha: gitBlobSha(Buffer.from(content, 'base64')), url: '' };
}

const sent: WireRequest[] = [];
const scopes: nock.Scope[] = [];

/** A scope on api.github.com that records what went over the wire, for the OpenAPI check and body assertions. */
function github(): nock.Scope {
  const scope = nock(API);
  scope.on('request', (req: Request, _interceptor: unknown, body: string) => sent.push({ method: req.method, url: req.url, body }));
  scopes.push(scope);
  return scope;
}

/** The JSON bodies sent to one method and path, in order. */
function bodiesSent(method: string, path: string): Record<string, unknown>[] {
  return sent.filter((r) => r.method === method && new URL(r.url).pathname === path).map((r) => JSON.parse(r.body ?? '') as Record<string, unknown>);
}

/** As Probot's testing guide sets it up: no retries, and no throttling (which spaces writes a second apart). */
function octokit() {
  return new ProbotOctokit({ auth: { token: 'ghs_installation_token' }, retry: { enabled: false }, throttle: { enabled: false } });
}

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  try {
    for (const scope of scopes) scope.done();
    expect(sent.flatMap(githubRequestProblems)).toEqual([]);
  } finally {
    scopes.length = 0;
    sent.length = 0;
    nock.cleanAll();
  }
});

afterAll(() => {
  nock.enableNetConnect();
});

describe('the OpenAPI checker', () => {
  it('accepts a conforming request, including a nullable value', () => {
    expect(githubRequestProblems({ method: 'POST', url: `${API}${REPO_PATH}/git/trees`, body: JSON.stringify({ base_tree: sha('t'), tree: [{ path: 'gone.txt', mode: '100644', type: 'blob', sha: null }] }) })).toEqual([]);
    expect(githubRequestProblems({ method: 'GET', url: `${API}${REPO_PATH}/pulls?head=acme%3Aparlance%2Fmain&state=open` })).toEqual([]);
  });

  it('names an unknown path, an unknown or invalid query parameter, and a body that breaks the schema', () => {
    expect(githubRequestProblems({ method: 'POST', url: `${API}${REPO_PATH}/git/branches` })).toEqual([`POST ${REPO_PATH}/git/branches matches no operation in GitHub's OpenAPI description`]);
    expect(githubRequestProblems({ method: 'GET', url: `${API}${REPO_PATH}/pulls?state=merged&author=octocat` })).toEqual([
      "GET /repos/{owner}/{repo}/pulls: query parameter 'author' is not defined",
      expect.stringContaining('GET /repos/{owner}/{repo}/pulls: query ?state=merged&author=octocat is invalid: /state must be equal to one of the allowed values'),
    ]);
    const [problem] = githubRequestProblems({ method: 'POST', url: `${API}${REPO_PATH}/git/trees`, body: JSON.stringify({ tree: [{ path: 'a.json', mode: '100645', type: 'blob', sha: 'x' }] }) });
    expect(problem).toMatch(/^POST \/repos\/\{owner\}\/\{repo\}\/git\/trees: the body does not match the request schema: \/tree\/0\/mode must be equal to one of the allowed values/);
    expect(githubRequestProblems({ method: 'PATCH', url: `${API}${REPO_PATH}/git/refs/heads%2Fx`, body: JSON.stringify({ force: true }) })).toEqual([
      expect.stringContaining("must have required property 'sha'"),
    ]);
  });
});

describe('which commits Parlance may replace', () => {
  const trailer = 'Update translations from Parlance batch b1\n\nParlance-Batch: b1';

  it('takes only bot commits with the batch trailer as its own', () => {
    expect(isParlanceCommit({ message: trailer, committerType: 'Bot' })).toBe(true);
    // A person who amends a Parlance commit keeps the trailer but becomes the committer.
    expect(isParlanceCommit({ message: trailer, committerType: 'User' })).toBe(false);
    expect(isParlanceCommit({ message: 'Fix German wording', committerType: 'Bot' })).toBe(false);
    expect(isParlanceCommit({ message: 'Mentions Parlance-Batch: b1 in the subject only', committerType: 'Bot' })).toBe(false);
  });

  it('counts commits the compare API did not list as human', () => {
    const plan = planBranchUpdate({ aheadBy: 3, behindBy: 1, commits: [{ sha: sha('a'), message: trailer, committerType: 'Bot', author: '@parlance[bot]' }] });
    expect(plan).toMatchObject({ parent: 'branch', force: false, unseenCommits: 2, baseMoved: true });
  });

  it('rebuilds on a moved base with force only when Parlance commits would be dropped; a branch the base contains is fast-forwarded', () => {
    const own = [{ sha: sha('a'), message: trailer, committerType: 'Bot', author: '@parlance[bot]' }];
    expect(planBranchUpdate({ aheadBy: 1, behindBy: 2, commits: own })).toMatchObject({ parent: 'base', force: true });
    // The pull request was merged: the branch head is in the base's history, so a commit on the base descends from it.
    expect(planBranchUpdate({ aheadBy: 0, behindBy: 2, commits: [] })).toMatchObject({ parent: 'base', force: false });
  });
});

describe('syncTranslationPullRequest', () => {
  const BASE1 = sha('base-1');
  const BASE2 = sha('base-2');

  it('first batch: creates the branch from the base with one commit holding every file, and opens the PR', async () => {
    const baseTree = treeListing(sha('base-1-tree'), { 'locales/en.json': SOURCE, 'locales/de.json': DE_OLD });
    const scope = github();
    scope.get(BASE_REF).reply(200, refAt('main', BASE1));
    scope.get(BRANCH_REF).reply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/git/refs#get-a-reference', status: '404' });
    scope.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, []);
    scope.get(`${REPO_PATH}/git/trees/${BASE1}`).query({ recursive: 'true' }).reply(200, baseTree);
    scope.post(`${REPO_PATH}/git/blobs`).times(2).reply(201, blobCreated);
    scope.post(`${REPO_PATH}/git/trees`).reply(201, { sha: sha('tree-2'), tree: [] });
    scope.post(`${REPO_PATH}/git/commits`).reply(201, { sha: sha('commit-1') });
    scope.post(`${REPO_PATH}/git/refs`).reply(201, refAt('parlance/main', sha('commit-1')));
    scope.post(`${REPO_PATH}/pulls`).reply(201, pullRequest(7));

    const result = await syncTranslationPullRequest({
      octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', batch, project,
      files: files({ 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEW }),
    });

    expect(result).toEqual({ pr: { number: 7, url: `https://github.com/${OWNER}/${REPO}/pull/7` }, commit: sha('commit-1'), head: sha('commit-1'), action: 'created' });
    const blobs = bodiesSent('POST', `${REPO_PATH}/git/blobs`);
    expect(blobs.map((b) => [b.encoding, decodeBase64(b.content as string)])).toEqual([['base64', DE_NEW], ['base64', FR_NEW]]);
    expect(bodiesSent('POST', `${REPO_PATH}/git/trees`)).toEqual([{
      base_tree: baseTree.sha,
      tree: [
        { path: 'locales/de.json', mode: '100644', type: 'blob', sha: gitBlobSha(bytes(DE_NEW)) },
        { path: 'locales/fr.json', mode: '100644', type: 'blob', sha: gitBlobSha(bytes(FR_NEW)) },
      ],
    }]);
    const [commit] = bodiesSent('POST', `${REPO_PATH}/git/commits`);
    expect(commit).toMatchObject({ tree: sha('tree-2'), parents: [BASE1] });
    expect(commit?.message).toMatch(/\n\nParlance-Batch: bat_01J9ZK3$/);
    expect(bodiesSent('POST', `${REPO_PATH}/git/refs`)).toEqual([{ ref: 'refs/heads/parlance/main', sha: sha('commit-1') }]);
    const [pr] = bodiesSent('POST', `${REPO_PATH}/pulls`);
    expect(pr).toMatchObject({ head: 'parlance/main', base: 'main', title: 'Parlance: update translations for main' });
    expect(pr?.body).toContain('| `de` | 2 | 1 | 0 | 14 |');
    expect(pr?.body).toContain('| `fr` | 3 | 0 | 1 | 21 |');
    expect(pr?.body).toContain('| **Total** | 5 | 1 | 1 | 35 |');
    expect(pr?.body).toContain(`[\`bat_01J9ZK3\`](${batch.url})`);
    expect(pr?.body).not.toContain('Hand edits imported');
  });

  it('second batch: one more commit on the branch, the open PR updated (title, body with drift), no second PR', async () => {
    const COMMIT1 = sha('commit-1');
    const branchTree = treeListing(sha('tree-2'), { 'locales/en.json': SOURCE, 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEW });
    const DE_NEWER = '{"cart.title":"Ihr Einkaufswagen","cart.empty":"Ihr Warenkorb ist leer"}\n';
    const scope = github();
    scope.get(BASE_REF).reply(200, refAt('main', BASE1));
    scope.get(BRANCH_REF).reply(200, refAt('parlance/main', COMMIT1));
    scope.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, [pullRequest(7)]);
    scope.get(`${REPO_PATH}/git/trees/${COMMIT1}`).query({ recursive: 'true' }).reply(200, branchTree);
    scope.get(`${REPO_PATH}/compare/${BASE1}...${COMMIT1}`).query({ per_page: '100' })
      .reply(200, { status: 'ahead', ahead_by: 1, behind_by: 0, total_commits: 1, commits: [appCommit(COMMIT1, 'bat_01J9ZK3')], files: [] });
    scope.post(`${REPO_PATH}/git/blobs`).reply(201, { sha: gitBlobSha(bytes(DE_NEWER)) });
    scope.post(`${REPO_PATH}/git/trees`).reply(201, { sha: sha('tree-3'), tree: [] });
    scope.post(`${REPO_PATH}/git/commits`).reply(201, { sha: sha('commit-2') });
    scope.patch(`${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`).reply(200, refAt('parlance/main', sha('commit-2')));
    scope.patch(`${REPO_PATH}/pulls/7`).reply(200, pullRequest(7));

    const drift: DriftImport[] = [{ key: 'cart.empty', locale: 'de', path: 'locales/de.json' }];
    const result = await syncTranslationPullRequest({
      octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', batch: { ...batch, id: 'bat_02' }, project, drift,
      files: files({ 'locales/de.json': DE_NEWER, 'locales/fr.json': FR_NEW }),
    });

    expect(result).toEqual({ pr: { number: 7, url: `https://github.com/${OWNER}/${REPO}/pull/7` }, commit: sha('commit-2'), head: sha('commit-2'), action: 'updated' });
    // Only the file that changed is uploaded.
    expect(bodiesSent('POST', `${REPO_PATH}/git/blobs`).map((b) => decodeBase64(b.content as string))).toEqual([DE_NEWER]);
    expect(bodiesSent('POST', `${REPO_PATH}/git/trees`)[0]).toMatchObject({ base_tree: branchTree.sha });
    expect(bodiesSent('POST', `${REPO_PATH}/git/commits`)[0]).toMatchObject({ parents: [COMMIT1] });
    expect(bodiesSent('PATCH', `${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`)).toEqual([{ sha: sha('commit-2'), force: false }]);
    const [update] = bodiesSent('PATCH', `${REPO_PATH}/pulls/7`);
    expect(update?.title).toBe('Parlance: update translations for main');
    expect(update?.body).toContain('[`bat_02`]');
    expect(update?.body).toContain('### Hand edits imported');
    expect(update?.body).toContain('- `cart.empty` (de) in `locales/de.json`');
    expect(sent.filter((r) => r.method === 'POST' && new URL(r.url).pathname === `${REPO_PATH}/pulls`)).toEqual([]);
  });

  it('base moved: rebuilds the branch on the new base head and force-updates it, as only Parlance commits are replaced', async () => {
    const COMMIT2 = sha('commit-2');
    const branchTree = treeListing(sha('tree-3'), { 'locales/en.json': SOURCE, 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEW });
    // The base gained a source key and a hand edit of de.json since the branch was made.
    const movedBaseTree = treeListing(sha('base-2-tree'), { 'locales/en.json': SOURCE, 'locales/de.json': DE_OLD, 'src/cart.ts': 'export {};\n' });
    const FR_NEWER = '{"cart.title":"Votre panier","cart.empty":"Le panier est vide"}\n';
    const scope = github();
    scope.get(BASE_REF).reply(200, refAt('main', BASE2));
    // Read to plan, and again right before the forced update: it must still be Parlance's commit.
    scope.get(BRANCH_REF).times(2).reply(200, refAt('parlance/main', COMMIT2));
    scope.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, [pullRequest(7)]);
    scope.get(`${REPO_PATH}/git/trees/${COMMIT2}`).query({ recursive: 'true' }).reply(200, branchTree);
    scope.get(`${REPO_PATH}/compare/${BASE2}...${COMMIT2}`).query({ per_page: '100' }).reply(200, {
      status: 'diverged', ahead_by: 2, behind_by: 3, total_commits: 2,
      commits: [appCommit(sha('commit-1'), 'bat_01J9ZK3'), appCommit(COMMIT2, 'bat_02')], files: [],
    });
    scope.get(`${REPO_PATH}/git/trees/${BASE2}`).query({ recursive: 'true' }).reply(200, movedBaseTree);
    scope.post(`${REPO_PATH}/git/blobs`).reply(201, blobCreated);
    scope.post(`${REPO_PATH}/git/trees`).reply(201, { sha: sha('tree-4'), tree: [] });
    scope.post(`${REPO_PATH}/git/commits`).reply(201, { sha: sha('commit-3') });
    scope.patch(`${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`).reply(200, refAt('parlance/main', sha('commit-3')));
    scope.patch(`${REPO_PATH}/pulls/7`).reply(200, pullRequest(7));

    const result = await syncTranslationPullRequest({
      octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', batch, project,
      files: files({ 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEWER }),
    });

    expect(result).toMatchObject({ commit: sha('commit-3'), action: 'updated' });
    // Against the new base both files differ, so the one commit carries both, on the base's tree and head; de.json's blob
    // is already on GitHub (the branch's tree names it), so only fr.json is uploaded.
    expect(bodiesSent('POST', `${REPO_PATH}/git/blobs`).map((b) => decodeBase64(b.content as string))).toEqual([FR_NEWER]);
    expect(bodiesSent('POST', `${REPO_PATH}/git/trees`)[0]).toMatchObject({
      base_tree: movedBaseTree.sha,
      tree: [
        { path: 'locales/de.json', mode: '100644', type: 'blob', sha: gitBlobSha(bytes(DE_NEW)) },
        { path: 'locales/fr.json', mode: '100644', type: 'blob', sha: gitBlobSha(bytes(FR_NEWER)) },
      ],
    });
    expect(bodiesSent('POST', `${REPO_PATH}/git/commits`)[0]).toMatchObject({ parents: [BASE2] });
    expect(bodiesSent('PATCH', `${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`)).toEqual([{ sha: sha('commit-3'), force: true }]);
    expect(sent.some((r) => new URL(r.url).pathname.endsWith('/comments'))).toBe(false);
  });

  it('base moved and already holds the files: the branch is reset to the base, so stale Parlance commits cannot be merged back', async () => {
    const COMMIT2 = sha('commit-2');
    const scope = github();
    scope.get(BASE_REF).reply(200, refAt('main', BASE2));
    scope.get(BRANCH_REF).times(2).reply(200, refAt('parlance/main', COMMIT2));
    scope.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, []);
    scope.get(`${REPO_PATH}/git/trees/${COMMIT2}`).query({ recursive: 'true' }).reply(200, treeListing(sha('tree-3'), { 'locales/de.json': DE_OLD }));
    scope.get(`${REPO_PATH}/compare/${BASE2}...${COMMIT2}`).query({ per_page: '100' })
      .reply(200, { status: 'diverged', ahead_by: 1, behind_by: 1, total_commits: 1, commits: [appCommit(COMMIT2, 'bat_02')], files: [] });
    scope.get(`${REPO_PATH}/git/trees/${BASE2}`).query({ recursive: 'true' }).reply(200, treeListing(sha('base-2-tree'), { 'locales/de.json': DE_NEW }));
    scope.patch(`${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`).reply(200, refAt('parlance/main', BASE2));

    const result = await syncTranslationPullRequest({ octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', batch, project, files: files({ 'locales/de.json': DE_NEW }) });

    expect(result).toEqual({ pr: null, commit: null, head: BASE2, action: 'unchanged' });
    expect(bodiesSent('PATCH', `${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`)).toEqual([{ sha: BASE2, force: true }]);
  });

  it('human commit on the branch: commits on top of it without force and says so in a PR comment', async () => {
    const HUMAN = sha('human-fix');
    const branchTree = treeListing(sha('tree-human'), { 'locales/en.json': SOURCE, 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEW });
    const FR_NEWER = '{"cart.title":"Votre panier","cart.empty":"Le panier est vide"}\n';
    const scope = github();
    scope.get(BASE_REF).reply(200, refAt('main', BASE2));
    scope.get(BRANCH_REF).reply(200, refAt('parlance/main', HUMAN));
    scope.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, [pullRequest(7)]);
    scope.get(`${REPO_PATH}/git/trees/${HUMAN}`).query({ recursive: 'true' }).reply(200, branchTree);
    scope.get(`${REPO_PATH}/compare/${BASE2}...${HUMAN}`).query({ per_page: '100' }).reply(200, {
      status: 'diverged', ahead_by: 2, behind_by: 1, total_commits: 2,
      commits: [appCommit(sha('commit-1'), 'bat_01J9ZK3'), listedCommit(HUMAN, 'Fix German cart wording', { login: 'octocat', type: 'User' })], files: [],
    });
    scope.post(`${REPO_PATH}/git/blobs`).reply(201, { sha: gitBlobSha(bytes(FR_NEWER)) });
    scope.post(`${REPO_PATH}/git/trees`).reply(201, { sha: sha('tree-5'), tree: [] });
    scope.post(`${REPO_PATH}/git/commits`).reply(201, { sha: sha('commit-4') });
    scope.patch(`${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`).reply(200, refAt('parlance/main', sha('commit-4')));
    scope.patch(`${REPO_PATH}/pulls/7`).reply(200, pullRequest(7));
    scope.post(`${REPO_PATH}/issues/7/comments`).reply(201, { id: 1, html_url: `https://github.com/${OWNER}/${REPO}/pull/7#issuecomment-1` });

    const result = await syncTranslationPullRequest({
      octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', batch, project,
      files: files({ 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEWER }),
    });

    expect(result).toMatchObject({ commit: sha('commit-4'), action: 'updated' });
    expect(bodiesSent('POST', `${REPO_PATH}/git/trees`)[0]).toMatchObject({ base_tree: branchTree.sha });
    expect(bodiesSent('POST', `${REPO_PATH}/git/commits`)[0]).toMatchObject({ parents: [HUMAN] });
    expect(bodiesSent('PATCH', `${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`)).toEqual([{ sha: sha('commit-4'), force: false }]);
    const [comment] = bodiesSent('POST', `${REPO_PATH}/issues/7/comments`);
    expect(comment?.body).toContain(`\`${HUMAN.slice(0, 7)}\` by @octocat`);
    expect(comment?.body).toContain('was not rebuilt');
    expect(comment?.body).not.toContain(sha('commit-1').slice(0, 7));
  });

  it('nothing changed with the PR open: only its body is refreshed', async () => {
    const COMMIT1 = sha('commit-1');
    const scope = github();
    scope.get(BASE_REF).reply(200, refAt('main', BASE1));
    scope.get(BRANCH_REF).reply(200, refAt('parlance/main', COMMIT1));
    scope.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, [pullRequest(7)]);
    scope.get(`${REPO_PATH}/git/trees/${COMMIT1}`).query({ recursive: 'true' })
      .reply(200, treeListing(sha('tree-2'), { 'locales/en.json': SOURCE, 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEW }));
    scope.patch(`${REPO_PATH}/pulls/7`).reply(200, pullRequest(7));

    const result = await syncTranslationPullRequest({
      octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', batch: { ...batch, id: 'bat_03' }, project,
      files: files({ 'locales/de.json': DE_NEW, 'locales/fr.json': FR_NEW }),
    });

    expect(result).toEqual({ pr: { number: 7, url: `https://github.com/${OWNER}/${REPO}/pull/7` }, commit: null, head: COMMIT1, action: 'unchanged' });
    expect(bodiesSent('PATCH', `${REPO_PATH}/pulls/7`)[0]?.body).toContain('[`bat_03`]');
  });

  it('nothing changed and no PR: reads only, writes nothing', async () => {
    const scope = github();
    scope.get(BASE_REF).reply(200, refAt('main', BASE1));
    scope.get(BRANCH_REF).reply(404, { message: 'Not Found' });
    scope.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, []);
    scope.get(`${REPO_PATH}/git/trees/${BASE1}`).query({ recursive: 'true' })
      .reply(200, treeListing(sha('base-1-tree'), { 'locales/en.json': SOURCE, 'locales/de.json': DE_NEW }));

    const result = await syncTranslationPullRequest({
      octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', batch, project, files: files({ 'locales/de.json': DE_NEW }),
    });

    expect(result).toEqual({ pr: null, commit: null, head: null, action: 'unchanged' });
    expect(sent.every((r) => r.method === 'GET')).toBe(true);
  });

  it('a missing base branch is an error naming it, before anything is written', async () => {
    github().get(`${REPO_PATH}/git/ref/heads%2Frelease`).reply(404, { message: 'Not Found' });
    await expect(
      syncTranslationPullRequest({ octokit: octokit(), owner: OWNER, repo: REPO, base: 'release', batch, project, files: files({ 'locales/de.json': DE_NEW }) }),
    ).rejects.toThrow("Base branch 'release' does not exist in acme/shop.");
  });
});

describe('reportCheckRun', () => {
  const HEAD = sha('pr-head');
  const CHECK_RUNS = `${REPO_PATH}/check-runs`;

  const row = (i: number, outcome: CheckRow['outcome']): CheckRow => ({
    key: `checkout.step_${i}`,
    locale: i % 2 === 0 ? 'de' : 'fr',
    path: 'locales/en.json',
    line: i + 2,
    outcome,
    reason: outcome === 'refused' ? `placeholder {count} is missing` : 'translation is 48 characters; the budget is 40',
    gate_failures: outcome === 'refused' ? [{ gate: 'placeholders', reason: 'placeholder {count} is missing' }] : [{ gate: 'length', reason: 'translation is 48 characters; the budget is 40' }],
  });

  it('120 rows: creates the run in progress, then sends annotations 50/50/20 and the conclusion with the last', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => row(i, i < 3 ? 'refused' : 'flagged'));
    const scope = github();
    scope.post(CHECK_RUNS).reply(201, { id: 4242, html_url: `https://github.com/${OWNER}/${REPO}/runs/4242` });
    scope.patch(`${CHECK_RUNS}/4242`).times(3).reply(200, { id: 4242 });

    const result = await reportCheckRun({ octokit: octokit(), owner: OWNER, repo: REPO, headSha: HEAD, batch, rows });

    expect(result).toEqual({ id: 4242, url: `https://github.com/${OWNER}/${REPO}/runs/4242`, conclusion: 'failure' });
    const [created] = bodiesSent('POST', CHECK_RUNS);
    expect(created).toMatchObject({ name: 'Parlance quality gates', head_sha: HEAD, status: 'in_progress', external_id: batch.id, details_url: batch.url });
    expect(created).not.toHaveProperty('conclusion');
    expect(created?.output).toMatchObject({ title: '3 refused, 117 flagged' });
    const updates = bodiesSent('PATCH', `${CHECK_RUNS}/4242`);
    const annotations = updates.map((u) => (u.output as { annotations: Record<string, unknown>[] }).annotations);
    expect(annotations.map((a) => a.length)).toEqual([50, 50, 20]);
    expect(updates.map((u) => u.conclusion)).toEqual([undefined, undefined, 'failure']);
    expect(updates[2]).toMatchObject({ status: 'completed' });
    expect(annotations[0]?.[0]).toEqual({
      path: 'locales/en.json', start_line: 2, end_line: 2, annotation_level: 'failure',
      title: 'Refused (de): checkout.step_0', message: 'placeholder {count} is missing\n- placeholders: placeholder {count} is missing',
    });
    expect(annotations[2]?.[19]).toMatchObject({ path: 'locales/en.json', start_line: 121, end_line: 121, annotation_level: 'warning', title: 'Flagged (fr): checkout.step_119' });
  });

  it('only flagged rows: neutral', async () => {
    const scope = github();
    scope.post(CHECK_RUNS).reply(201, { id: 7, html_url: null });
    scope.patch(`${CHECK_RUNS}/7`).reply(200, { id: 7 });

    const result = await reportCheckRun({ octokit: octokit(), owner: OWNER, repo: REPO, headSha: HEAD, batch, rows: [row(1, 'flagged'), row(2, 'flagged')] });

    expect(result.conclusion).toBe('neutral');
    const [update] = bodiesSent('PATCH', `${CHECK_RUNS}/7`);
    expect(update).toMatchObject({ status: 'completed', conclusion: 'neutral', output: { title: '0 refused, 2 flagged' } });
    expect((update?.output as { annotations: unknown[] }).annotations).toHaveLength(2);
  });

  it('no rows: success in a single request', async () => {
    github().post(CHECK_RUNS).reply(201, { id: 8, html_url: null });

    const result = await reportCheckRun({ octokit: octokit(), owner: OWNER, repo: REPO, headSha: HEAD, batch, rows: [] });

    expect(result.conclusion).toBe('success');
    expect(bodiesSent('POST', CHECK_RUNS)).toEqual([
      expect.objectContaining({ status: 'completed', conclusion: 'success', output: expect.objectContaining({ title: 'Every row passed the quality gates' }) }),
    ]);
  });
});

describe('the repository path rule on the commit', () => {
  it.each([
    ['..', '../../etc/passwd', "'..' segments are not allowed"],
    ['.', 'locales/./de.json', "'.' segments are not allowed"],
    ['absolute', '/etc/passwd', 'absolute paths are not allowed'],
    ['backslash', 'locales\\de.json', 'backslashes are not allowed'],
    ['drive letter', 'C:/locales/de.json', 'drive letters are not allowed'],
    ['NUL', 'locales/de.json\u0000', 'control character U+0000'],
    ['control character', 'locales/\u001bde.json', 'control character U+001B'],
    ['empty segment', 'locales//de.json', 'empty segments are not allowed'],
    ['empty path', '', 'the path is empty'],
    ['over 1,024 bytes', `locales/${'d'.repeat(1020)}.json`, 'at most 1024 are allowed'],
    ['.git', '.git/hooks/post-checkout', "a '.git' segment would write into Git's own data"],
  ])('commits nothing when a target path fails it (%s): no request reaches GitHub', async (_rule, path, says) => {
    const result = syncTranslationPullRequest({ octokit: octokit(), owner: OWNER, repo: REPO, base: 'main', files: files({ 'locales/fr.json': FR_NEW, [path]: DE_NEW }), batch, project });
    await expect(result).rejects.toMatchObject({ name: 'GitHubSyncError', message: expect.stringContaining(says) });
    await expect(result).rejects.toThrow(/^Refusing to commit/);
    expect(sent).toEqual([]);
  });
});
