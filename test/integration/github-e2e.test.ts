/**
 * End to end in one process: the service and the GitHub App, GitHub mocked with nock. A file pushed through the API is
 * translated (one row broken by the model twice, so refused), the signed batch.completed reaches the App over HTTP, and
 * GitHub receives one commit with every locale file, one pull request (updated, not duplicated, on the next batch) and
 * a check run pinning the refused key to its line in the source file.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGithubApp, type GithubApp } from '../../server/github-app/app.js';
import { requestHandler } from '../../server/github-app/server.js';
import { gitBlobSha } from '../../server/github-app/translation-pr.js';
import { createLogger } from '../../server/logger.js';
import {
  APP_ID, CONFIG_TEXT, FULL_NAME, INSTALLATION_ID, OWNER, REPO_PATH, SOURCE_TEXT,
  appPrivateKey, contentsAnswer, contentsPath, createGithubRecorder, mockInstallationToken, refAnswer, sha, treeAnswer,
} from '../fixtures/github/repository.js';
import { githubRequestProblems } from '../helpers/github-openapi.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { filePush, startService, waitForBatch, type TestService } from '../helpers/service.js';

const SECRET_KEY = randomBytes(32).toString('base64');
const BASE = sha('base-1');
const BASE_REF = `${REPO_PATH}/git/ref/heads%2Fmain`;
const BRANCH_REF = `${REPO_PATH}/git/ref/heads%2Fparlance%2Fmain`;
const OPEN_PRS = { head: `${OWNER}:parlance/main`, state: 'open' };
const CHECK_RUNS_OF = new RegExp(`^${REPO_PATH}/commits/[0-9a-f]{40}/check-runs$`);
const PR = { number: 12, html_url: `https://github.com/${FULL_NAME}/pull/12`, state: 'open' };
const BASE_FILES = { 'parlance.yml': CONFIG_TEXT, 'locales/en.json': SOURCE_TEXT };

const github = createGithubRecorder();
let mock: MockOpenAI;
let service: TestService;
let app: GithubApp | undefined;
let appServer: Server;

/** GitHub's answer to a blob upload: the id git gives the uploaded bytes. */
async function blobCreated(req: Request) {
  const { content } = (await req.json()) as { content: string };
  return { sha: gitBlobSha(Buffer.from(content, 'base64')), url: '' };
}

/** What the App reads of the base, once per job: its head, the config, and the tree (which the sync reuses). */
function mockBaseReads(scope: nock.Scope) {
  scope.get(BASE_REF).reply(200, refAnswer('main', BASE));
  scope.get(contentsPath('parlance.yml')).query({ ref: BASE }).reply(200, contentsAnswer('parlance.yml', CONFIG_TEXT));
  scope.get(`${REPO_PATH}/git/trees/${BASE}`).query({ recursive: 'true' }).reply(200, treeAnswer(sha('base-tree'), BASE_FILES));
}

/** Resolves once every interceptor of every scope has been used, i.e. the App has finished talking to GitHub. */
async function githubDone(timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!github.scopes.every((s) => s.isDone())) {
    if (Date.now() > deadline) throw new Error(`GitHub mocks still pending: ${github.scopes.flatMap((s) => s.pendingMocks()).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The last request (a check run update) has been answered; let the App finish its response to the service.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

function pushSource(text: string) {
  return service.api('/v1/push', { method: 'POST', body: filePush(text, { path: 'locales/en.json' }) });
}

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  mock = await startMockOpenAI();
  // The model drops the placeholder of one row, on the first answer and on the corrective retry: the row is refused.
  mock.script = (row, { locale }) => (row.key === 'cart.items' && locale === 'de' ? row.text.replace(/<ph id="\d+"\/>/g, '').toUpperCase() : undefined);

  // The App's server listens first, so the service can be told where to deliver; the App itself needs the service's database.
  const late: { handle?: (req: IncomingMessage, res: ServerResponse) => Promise<void> } = {};
  appServer = createServer((req, res) => {
    if (late.handle) void late.handle(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  const appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;

  service = await startService({
    env: {
      PARLANCE_SECRET_KEY: SECRET_KEY,
      GITHUB_APP_EVENTS_URL: `${appUrl}/events`,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_POLL_MS: '50',
      RATE_LIMIT_PER_MINUTE: '100000',
      TRANSLATION_PROVIDER: 'openai',
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'mock-fast',
    },
  });
  const log = createLogger('silent');
  app = await createGithubApp({
    db: service.runtime.db,
    links: service.runtime.githubLinks,
    serviceUrl: service.url,
    log,
    logLevel: 'silent',
    appId: APP_ID,
    privateKey: appPrivateKey(),
    webhookSecret: 'github-webhook-secret',
    // The function form: Probot passes its own throttle options to each instance, which would override plain object
    // defaults and space every write a second apart (about ten seconds per batch here).
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({ ...options, retry: { enabled: false }, throttle: { enabled: false } })),
  });
  late.handle = requestHandler(app, log);

  const linked = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: INSTALLATION_ID, repository: FULL_NAME, base_branch: 'main', config_path: 'parlance.yml' } });
  expect(linked.status).toBe(201);
});

afterAll(async () => {
  nock.cleanAll();
  nock.enableNetConnect();
  await service?.stop();
  appServer.closeAllConnections();
  await new Promise<void>((resolve) => appServer.close(() => resolve()));
  await mock?.close();
});

it('a batch becomes one commit and one pull request with a check run on the refused key; the next batch updates that pull request', async () => {
  // First batch: no branch and no pull request yet.
  const first = github.scope();
  mockInstallationToken(first);
  mockBaseReads(first);
  first.get(BRANCH_REF).reply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/git/refs#get-a-reference', status: '404' });
  first.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, []);
  first.post(`${REPO_PATH}/git/blobs`).times(3).reply(201, blobCreated);
  first.post(`${REPO_PATH}/git/trees`).reply(201, { sha: sha('tree-1'), tree: [] });
  first.post(`${REPO_PATH}/git/commits`).reply(201, { sha: sha('commit-1') });
  first.post(`${REPO_PATH}/git/refs`).reply(201, refAnswer('parlance/main', sha('commit-1')));
  first.post(`${REPO_PATH}/pulls`).reply(201, PR);
  // Each commit's "Parlance quality gates" run is looked up by name first: none yet on either.
  first.get(CHECK_RUNS_OF).query(true).times(2).reply(200, { total_count: 0, check_runs: [] });
  first.post(`${REPO_PATH}/check-runs`).reply(201, { id: 501, html_url: null }).post(`${REPO_PATH}/check-runs`).reply(201, { id: 502, html_url: null });
  first.patch(`${REPO_PATH}/check-runs/501`).reply(200, { id: 501 }).patch(`${REPO_PATH}/check-runs/502`).reply(200, { id: 502 });

  const pushed = await pushSource(SOURCE_TEXT);
  expect(pushed.status).toBe(202);
  const batch1 = (await pushed.json()) as { id: string };
  const done1 = await waitForBatch(service, batch1.id);
  expect(done1.rows.outcomes).toMatchObject({ refused: 1 });
  await githubDone();

  // ONE commit holding every locale file, on the base's tree.
  const trees = github.bodies('POST', `${REPO_PATH}/git/trees`);
  expect(trees).toHaveLength(1);
  expect(trees[0]).toMatchObject({ base_tree: sha('base-tree') });
  const tree = trees[0]!.tree as { path: string; mode: string; type: string; sha: string }[];
  expect(tree.map((e) => e.path)).toEqual(['locales/de.json', 'locales/fr.json', 'locales/ja.json']);
  const blobs = github.bodies('POST', `${REPO_PATH}/git/blobs`).map((b) => Buffer.from(b.content as string, 'base64').toString('utf8'));
  const de = JSON.parse(blobs[0]!) as Record<string, string>;
  expect(de['cart.title']).toBe('de: YOUR CART');
  // The refused row is not written into the file.
  expect(de).not.toHaveProperty('cart.items');
  expect(JSON.parse(blobs[1]!)).toMatchObject({ 'cart.items': 'fr: YOU HAVE {count} ITEMS IN YOUR CART' });
  expect(tree.map((e) => e.sha)).toEqual(blobs.map((b) => gitBlobSha(Buffer.from(b))));
  const commits = github.bodies('POST', `${REPO_PATH}/git/commits`);
  expect(commits).toEqual([expect.objectContaining({ tree: sha('tree-1'), parents: [BASE], message: expect.stringContaining(`Parlance-Batch: ${batch1.id}`) })]);
  const prs = github.bodies('POST', `${REPO_PATH}/pulls`);
  expect(prs).toEqual([expect.objectContaining({ head: 'parlance/main', base: 'main', title: 'Parlance: update translations for main' })]);
  expect(prs[0]!.body).toContain('| `de` | 2 | 1 | 0 |');

  // Check runs on the PR's commit and on the base, each annotating the refused key at its line (4) in the source file.
  const runs = github.bodies('POST', `${REPO_PATH}/check-runs`);
  expect(runs.map((r) => r.head_sha).sort()).toEqual([BASE, sha('commit-1')].sort());
  for (const id of [501, 502]) {
    const [update] = github.bodies('PATCH', `${REPO_PATH}/check-runs/${id}`);
    expect(update).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect((update!.output as { annotations: unknown[] }).annotations).toEqual([
      expect.objectContaining({ path: 'locales/en.json', start_line: 4, end_line: 4, annotation_level: 'failure', title: 'Refused (de): cart.items', message: expect.stringContaining('placeholder') }),
    ]);
  }
  expect(github.sent.flatMap(githubRequestProblems)).toEqual([]);
  for (const scope of github.scopes) scope.done();

  // Second batch: the branch holds the first commit and the pull request is open, so it gets a commit and an update.
  const firstCommitFiles = Object.fromEntries(tree.map((e, i) => [e.path, blobs[i]!]));
  const baseRunOutput = github.bodies('PATCH', `${REPO_PATH}/check-runs/502`)[0]!.output as { title: string; summary: string };
  github.reset();
  nock.cleanAll();
  const second = github.scope();
  mockBaseReads(second);
  second.get(BRANCH_REF).reply(200, refAnswer('parlance/main', sha('commit-1')));
  // The open pull request as GitHub lists it, with the body batch 1 wrote: batch 2's counts are added to it.
  second.get(`${REPO_PATH}/pulls`).query(OPEN_PRS).reply(200, [{ ...PR, body: prs[0]!.body }]);
  second.get(`${REPO_PATH}/git/trees/${sha('commit-1')}`).query({ recursive: 'true' }).reply(200, treeAnswer(sha('tree-1'), { ...BASE_FILES, ...firstCommitFiles }));
  second.get(`${REPO_PATH}/compare/${BASE}...${sha('commit-1')}`).query({ per_page: '100' }).reply(200, {
    status: 'ahead', ahead_by: 1, behind_by: 0, total_commits: 1, files: [],
    commits: [{ sha: sha('commit-1'), commit: { message: commits[0]!.message, author: { name: 'parlance-test[bot]' }, committer: { name: 'GitHub' } }, author: { login: 'parlance-test[bot]', id: 1, type: 'Bot' }, committer: { login: 'parlance-test[bot]', id: 1, type: 'Bot' }, parents: [] }],
  });
  second.post(`${REPO_PATH}/git/blobs`).times(3).reply(201, blobCreated);
  second.post(`${REPO_PATH}/git/trees`).reply(201, { sha: sha('tree-2'), tree: [] });
  second.post(`${REPO_PATH}/git/commits`).reply(201, { sha: sha('commit-2') });
  second.patch(`${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`).reply(200, refAnswer('parlance/main', sha('commit-2')));
  second.patch(`${REPO_PATH}/pulls/12`).reply(200, PR);
  // The new branch commit gets its first run; the base commit already has run 502 (batch 1's failure), which batch 2 updates.
  second.get(`${REPO_PATH}/commits/${sha('commit-2')}/check-runs`).query(true).reply(200, { total_count: 0, check_runs: [] });
  second.get(`${REPO_PATH}/commits/${BASE}/check-runs`).query(true).reply(200, {
    total_count: 1,
    check_runs: [{ id: 502, name: 'Parlance quality gates', head_sha: BASE, status: 'completed', conclusion: 'failure', html_url: null, output: { ...baseRunOutput, text: null, annotations_count: 1, annotations_url: '' } }],
  });
  second.post(`${REPO_PATH}/check-runs`).reply(201, { id: 503, html_url: null });
  second.patch(`${REPO_PATH}/check-runs/502`).reply(200, { id: 502 });

  const again = await pushSource(SOURCE_TEXT.replace('Your cart is empty', 'Nothing in your cart yet'));
  expect(again.status).toBe(202);
  const batch2 = (await again.json()) as { id: string };
  await waitForBatch(service, batch2.id);
  await githubDone();

  expect(github.bodies('POST', `${REPO_PATH}/pulls`)).toEqual([]);
  const [update] = github.bodies('PATCH', `${REPO_PATH}/pulls/12`);
  expect(update?.body).toContain(`[\`${batch2.id}\`]`);
  expect(github.bodies('POST', `${REPO_PATH}/git/commits`)).toEqual([expect.objectContaining({ parents: [sha('commit-1')] })]);
  expect(github.bodies('PATCH', `${REPO_PATH}/git/refs/heads%2Fparlance%2Fmain`)).toEqual([{ sha: sha('commit-2'), force: false }]);
  // One run per commit: batch 2 (clean) is added to the base commit's run, whose verdict stays batch 1's failure.
  expect(github.bodies('POST', `${REPO_PATH}/check-runs`)).toEqual([expect.objectContaining({ head_sha: sha('commit-2'), conclusion: 'success' })]);
  const [baseRun] = github.bodies('PATCH', `${REPO_PATH}/check-runs/502`);
  expect(baseRun).toMatchObject({ status: 'completed', conclusion: 'failure', output: { title: '1 refused, 0 flagged' } });
  expect((baseRun!.output as { summary: string }).summary).toContain(`[\`${batch1.id}\`]`);
  expect((baseRun!.output as { summary: string }).summary).toContain(`[\`${batch2.id}\`]`);
  // The pull request body counts both batches.
  expect(update?.body).toContain(`from 2 Parlance batches since the branch was last rebuilt: [\`${batch1.id}\`]`);
  expect(github.sent.flatMap(githubRequestProblems)).toEqual([]);
  for (const scope of github.scopes) scope.done();
});
