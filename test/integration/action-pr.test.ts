/**
 * The Action's create-pull-request, as the runner runs it: the committed dist/index.js on Node 24 against the real
 * service (OpenAI wire mock as its provider) and the stateful GitHub stand-in (git objects, refs, pull requests,
 * comments, a workflow's GITHUB_TOKEN with its permissions) under a GitHub Enterprise Server prefix reached through
 * GITHUB_API_URL. Each run works in a fresh checkout of the stand-in's branch, as actions/checkout gives it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGithubStandin, type GithubStandin } from '../helpers/github-standin.js';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { node24Binary } from '../helpers/node24.js';
import { annotations, runAction, type ActionRun } from '../helpers/run-action.js';
import { startService, type TestService } from '../helpers/service.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/action-repo');
const SOURCE = 'web/locales/en/app.json';
const DE = 'web/locales/de/app.json';
const FR = 'web/locales/fr/app.json';
const STATE = 'web/.parlance/state.json';
const OWNER = 'acme';
const REPO = 'web';

let service: TestService;
let mock: MockOpenAI;
let github: GithubStandin;
let node: string;
let runId = 100;
const scratch: string[] = [];

beforeAll(async () => {
  node = await node24Binary();
  mock = await startMockOpenAI();
  service = await startService({
    env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-fast', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const appPrivateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  github = await startGithubStandin({ owner: OWNER, repo: REPO, installationId: 1, appId: 1, appSlug: 'parlance-test', appPrivateKey });
  github.seed({
    'README.md': readFileSync(join(FIXTURE, 'README.md')),
    'web/parlance.yml': readFileSync(join(FIXTURE, 'web/parlance.yml')),
    [SOURCE]: readFileSync(join(FIXTURE, SOURCE)),
  });
}, 360_000);
afterAll(async () => {
  await service?.stop();
  await mock?.close();
  await github?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  mock.script = undefined;
});

/** A fresh checkout of a branch of the stand-in, as actions/checkout leaves it in GITHUB_WORKSPACE. */
function checkout(branch: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'parlance-action-pr-'));
  scratch.push(dir);
  for (const [path, text] of Object.entries(github.files(branch))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A person's commit on main adding a source key (the change a workflow on push runs for). */
async function addSourceKeyOnMain(key: string, text: string): Promise<void> {
  const source = JSON.parse(github.files('main')[SOURCE]!) as Record<string, string>;
  source[key] = text;
  await github.push({ files: { [SOURCE]: `${JSON.stringify(source, null, 2)}\n` }, message: `Add ${key}`, login: 'octocat' });
}

/** The Action on a push to main (or another event), with create-pull-request and a workflow token. */
function runOn(options: { event?: string; ref?: string; workspace?: string; githubToken?: string; inputs?: Record<string, string>; payload?: unknown } = {}): Promise<ActionRun> {
  const ref = options.ref ?? 'refs/heads/main';
  const branch = ref.replace('refs/heads/', '');
  return runAction(node, {
    workspace: options.workspace ?? checkout(branch),
    inputs: {
      token: service.token,
      'service-url': service.url,
      'working-directory': 'web',
      'create-pull-request': 'true',
      'github-token': options.githubToken ?? github.grantWorkflowToken(),
      ...options.inputs,
    },
    env: {
      GITHUB_EVENT_NAME: options.event ?? 'push',
      GITHUB_REF: ref,
      GITHUB_SHA: github.head(branch) ?? '0'.repeat(40),
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_SERVER_URL: 'https://github.example.test',
      GITHUB_RUN_ID: String(++runId),
    },
    event: options.payload ?? {},
  });
}

/** Drops the first placeholder on every attempt, so the row is refused. */
const breakPlaceholderOf = (key: string) => (row: { key: string; text: string }, { locale }: { locale: string }) =>
  row.key === key ? mockTranslate(row.text, locale).replace(/<ph id="0"\/>/, '{etwas}') : undefined;

const openPulls = () => github.pulls.filter((pr) => pr.state === 'open');

const json = (text: string | undefined) => JSON.parse(text ?? 'null') as Record<string, string>;

describe('create-pull-request (dist/index.js under Node 24, GitHub stand-in)', () => {
  it('opens one pull request from parlance/main with the pulled files, the refused rows in its body, and sets the outputs; the step still fails on the refusal', async () => {
    mock.script = breakPlaceholderOf('inbox');
    const mainBefore = github.head('main');
    const run = await runOn();
    expect(run.status, run.stdout).toBe(1);
    expect(annotations(run, 'error').at(-1)?.message).toMatch(/^Parlance sync: 2 rows refused by the quality gates in this run; /);

    expect(github.pulls).toHaveLength(1);
    const [pr] = github.pulls;
    expect(pr).toMatchObject({ number: 1, state: 'open', head: 'parlance/main', base: 'main', user: 'github-actions[bot]', title: 'Update translations from Parlance (main)' });
    expect(run.outputs).toMatchObject({ refused: '2', 'pull-request-number': '1', 'pull-request-url': 'https://github.example.test/acme/web/pull/1' });
    expect(run.summary).toContain('Pull request #1 opened');

    // What passed is committed; the refused key is not in the files, and is in the body with its reason and a link to review it.
    const files = github.files('parlance/main');
    expect(json(files[DE])).toEqual({ greeting: 'de: HELLO, {name}!', farewell: 'de: GOODBYE' });
    expect(json(files[FR]).farewell).toBe('fr: GOODBYE');
    expect(files[STATE]).toContain('"locales/de/app.json"');
    expect(pr!.body).toContain('### Refused rows: held for review, not in the files (2)');
    expect(pr!.body).toMatch(/\| de \| `inbox` \| `locales\/en\/app\.json` \| [^|]*placeholder \{count\} is missing[^|]* \| this run \(batch `\S+`\) \|/);
    expect(pr!.body).toContain(`Review them in Parlance: ${service.url}/#/p/${service.projectId}/review`);
    expect(pr!.body).toContain('[workflow run 101](https://github.example.test/acme/web/actions/runs/101)');

    // One commit by github-actions[bot] on top of main, and main untouched.
    expect(github.head('main')).toBe(mainBefore);
    const log = github.log('parlance/main', 'main');
    expect(log).toHaveLength(1);
    expect(log[0]!.parents).toEqual([mainBefore]);
    expect(log[0]!.committer.login).toBe('github-actions[bot]');
    expect(log[0]!.message).toMatch(/\n\nParlance-Action-Run: 101$/);
  });

  it('updates the same pull request on the next run: the branch rebuilt on the moved base, one pull request, nothing but its own commit replaced', async () => {
    await addSourceKeyOnMain('thanks', 'Thank you');
    const run = await runOn({ inputs: { 'fail-on-refused': 'false' } });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).not.toContain('::error');
    expect(github.pulls).toHaveLength(1);
    expect(run.outputs).toMatchObject({ 'pull-request-number': '1', translated: '2' });
    expect(run.summary).toContain('Pull request #1 updated with a new commit');

    const log = github.log('parlance/main', 'main');
    expect(log).toHaveLength(1);
    expect(log[0]!.parents).toEqual([github.head('main')]);
    expect(json(github.files('parlance/main')[DE])).toMatchObject({ thanks: 'de: THANK YOU', greeting: 'de: HELLO, {name}!' });
    // The body is this run's report: the refusal is still held, now from an earlier run.
    expect(github.pulls[0]!.body).toMatch(/\| de \| `inbox` \| [^\n]* \| earlier \|/);
    // The only commit no branch reaches any more is the Action's own first one.
    const lost = github.unreachableCommits().map((sha) => github.log(sha, 'main').at(-1)!);
    expect(lost.map((c) => c.committer.login)).toEqual(['github-actions[bot]']);

    // Nothing new: no commit, the pull request stays, its description refreshed.
    const head = github.head('parlance/main');
    const again = await runOn({ inputs: { 'fail-on-refused': 'false' } });
    expect(again.status, again.stdout).toBe(0);
    expect(github.head('parlance/main')).toBe(head);
    expect(github.pulls).toHaveLength(1);
    expect(again.outputs['pull-request-number']).toBe('1');
  });

  it('after a person merges the pull request, opens none while nothing is new, then a new one from the merged branch without force', async () => {
    await github.merge({ head: 'parlance/main', message: 'Merge the translations' });
    expect(github.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    const branchHead = github.head('parlance/main');

    const quiet = await runOn({ inputs: { 'fail-on-refused': 'false' } });
    expect(quiet.status, quiet.stdout).toBe(0);
    expect(quiet.outputs).toMatchObject({ 'changed-files': '', 'pull-request-number': '', 'pull-request-url': '' });
    expect(github.head('parlance/main')).toBe(branchHead);
    expect(openPulls()).toEqual([]);

    await addSourceKeyOnMain('bye', 'Bye');
    const fresh = await runOn({ inputs: { 'fail-on-refused': 'false' } });
    expect(fresh.status, fresh.stdout).toBe(0);
    expect(openPulls()).toMatchObject([{ number: 2, head: 'parlance/main', base: 'main' }]);
    expect(fresh.outputs['pull-request-number']).toBe('2');
    const log = github.log('parlance/main', 'main');
    expect(log).toHaveLength(1);
    expect(log[0]!.parents).toEqual([github.head('main')]);
    expect(github.log('parlance/main').map((c) => c.sha)).toContain(branchHead);
  });

  it("keeps a person's commit on the branch: adds its commit on top, leaves the file they edited as they committed it, and says so", async () => {
    const edited = `${JSON.stringify({ greeting: 'Hallo, {name}!', farewell: 'Tschüss', thanks: 'Danke' }, null, 2)}\n`;
    const { sha: personal } = await github.push({ branch: 'parlance/main', files: { [DE]: edited }, message: 'Better German', login: 'octocat' });
    await addSourceKeyOnMain('welcome', 'Welcome');

    const run = await runOn({ inputs: { 'fail-on-refused': 'false' } });
    expect(run.status, run.stdout).toBe(0);
    expect(openPulls()).toHaveLength(1);

    const log = github.log('parlance/main', 'main');
    expect(log.map((c) => c.sha)).toContain(personal);
    expect(log.at(-1)!.parents).toEqual([personal]);
    const files = github.files('parlance/main');
    expect(files[DE]).toBe(edited);
    expect(json(files[FR]).welcome).toBe('fr: WELCOME');
    expect(github.unreachableCommits().every((sha) => github.log(sha, 'main').at(-1)!.committer.login === 'github-actions[bot]')).toBe(true);

    const body = openPulls()[0]!.body ?? '';
    expect(body).toContain(`\`${personal.slice(0, 7)}\` by @octocat`);
    expect(body).toContain(`did not write the translations it pulled into them: \`${DE}\``);
    expect(annotations(run, 'warning').some((w) => w.message.includes(`changed ${DE}: those files were left as committed there`))).toBe(true);
  });

  it('on a pull_request event comments on that pull request with the refused rows, opens no branch, and updates its comment on the next run', async () => {
    // The stand-in starts a new branch from no parent: the person's branch carries main's files and their change.
    await github.push({ branch: 'feature/checkout', files: { ...github.files('main'), 'README.md': 'A feature\n' }, login: 'octocat' });
    const pr = github.openPullRequest({ head: 'feature/checkout', base: 'main' });
    const branches = github.branches();
    const payload = { action: 'synchronize', number: pr.number, pull_request: { number: pr.number, html_url: `https://github.example.test/acme/web/pull/${pr.number}`, head: { ref: pr.head, repo: { full_name: 'acme/web' } } } };
    const options = { event: 'pull_request', ref: `refs/pull/${pr.number}/merge`, workspace: checkout('feature/checkout'), payload, inputs: { 'fail-on-refused': 'false' } };

    const run = await runOn(options);
    expect(run.status, run.stdout).toBe(0);
    expect(github.branches()).toEqual(branches);
    expect(openPulls()).toHaveLength(2);
    const comments = github.comments.filter((c) => c.issue === pr.number);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/\| fr \| `inbox` \| [^\n]*placeholders: placeholder \{count\} is missing/);
    expect(comments[0]!.body).toContain('the Action commits nothing and opens no branch of its own');
    expect(run.outputs).toMatchObject({ 'pull-request-number': String(pr.number), 'pull-request-url': payload.pull_request.html_url });

    const again = await runOn({ ...options, workspace: checkout('feature/checkout') });
    expect(again.status, again.stdout).toBe(0);
    expect(github.comments.filter((c) => c.issue === pr.number)).toHaveLength(1);
  });

  it("on a fork's pull request, whose token is read-only, warns that it could not comment and passes", async () => {
    const pr = github.openPullRequest({ head: 'feature/checkout', base: 'main', login: 'forker' });
    const payload = { action: 'opened', number: pr.number, pull_request: { number: pr.number, html_url: `https://github.example.test/acme/web/pull/${pr.number}`, head: { ref: 'feature/checkout', repo: { full_name: 'forker/web' } } } };
    const run = await runOn({
      event: 'pull_request',
      ref: `refs/pull/${pr.number}/merge`,
      workspace: checkout('feature/checkout'),
      payload,
      githubToken: github.grantWorkflowToken({ contents: 'read', pull_requests: 'read' }),
      inputs: { 'fail-on-refused': 'false' },
    });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).not.toContain('::error');
    const warning = annotations(run, 'warning').find((w) => w.message.includes('could not comment'));
    expect(warning?.message).toMatch(new RegExp(`^Parlance: could not comment on pull request #${pr.number} from the fork forker/web: GitHub gives a fork's pull request a read-only GITHUB_TOKEN\\. .*403 Resource not accessible by integration: the github-token needs 'pull-requests: write'`));
    expect(github.comments.filter((c) => c.issue === pr.number)).toEqual([]);
    expect(run.outputs['pull-request-number']).toBe('');
  });

  it('fails with the permission a token lacks, and when Actions may not open pull requests', async () => {
    const noPulls = await runOn({ githubToken: github.grantWorkflowToken({ contents: 'write' }), inputs: { 'fail-on-refused': 'false', 'pull-request-branch': 'translations/no-pulls' } });
    expect(noPulls.status).toBe(1);
    expect(annotations(noPulls, 'error').at(-1)?.message).toMatch(
      /^Parlance sync: GitHub GET \/repos\/acme\/web\/pulls: 403 Resource not accessible by integration: the github-token needs 'pull-requests: read'\. .*pull-requests: write.*\(exit code 2: authentication or a missing ability\)$/,
    );

    const readOnly = await runOn({ githubToken: github.grantWorkflowToken({ contents: 'read', pull_requests: 'write' }), inputs: { 'fail-on-refused': 'false', 'pull-request-branch': 'translations/read-only' } });
    expect(readOnly.status).toBe(1);
    expect(annotations(readOnly, 'error').at(-1)?.message).toMatch(/GitHub POST \/repos\/acme\/web\/git\/blobs: 403 Resource not accessible by integration: the github-token needs 'contents: write'/);
    expect(github.branches()).not.toContain('translations/read-only');

    github.setActionsMayCreatePullRequests(false);
    try {
      const refused = await runOn({ inputs: { 'fail-on-refused': 'false', 'pull-request-branch': 'translations/not-permitted' } });
      expect(refused.status).toBe(1);
      expect(annotations(refused, 'error').at(-1)?.message).toMatch(/403 GitHub Actions is not permitted to create or approve pull requests\.: allow it under .*"Allow GitHub Actions to create and approve pull requests"/);
    } finally {
      github.setActionsMayCreatePullRequests(true);
    }

    const badToken = await runOn({ githubToken: 'ghs_not_a_token', inputs: { 'fail-on-refused': 'false' } });
    expect(badToken.status).toBe(1);
    expect(annotations(badToken, 'error').at(-1)?.message).toMatch(/401 Bad credentials: the github-token input was not accepted/);
    expect(github.pulls.filter((p) => p.state === 'open' && p.head.startsWith('translations/'))).toEqual([]);
  });

  it('refuses create-pull-request on a tag, and every request it made matched GitHub\u2019s OpenAPI description', async () => {
    const run = await runOn({ ref: 'refs/tags/v1.0.0', workspace: checkout('main'), inputs: { 'fail-on-refused': 'false' } });
    expect(run.status).toBe(1);
    expect(annotations(run, 'error').at(-1)?.message).toMatch(/Input create-pull-request needs a branch .* is for 'refs\/tags\/v1\.0\.0'/);
    expect(github.problems).toEqual([]);
  });
});
