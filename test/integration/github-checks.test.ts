/**
 * The GitHub App's check runs, configuration errors and pull request body under the conditions of issue 30: two batches
 * of one commit, a refusal fixed between two re-runs, a broken parlance.yml and the push after it. GitHub is mocked with
 * nock (check runs kept in a small in-memory model, every request checked against GitHub's OpenAPI description); the
 * service runs in process with a scripted OpenAI-compatible provider that drops a placeholder when told to.
 */
import { createHash, randomBytes } from 'node:crypto';
import examples from '@octokit/webhooks-examples';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ParlanceClient } from '../../src/client/client.js';
import { createGithubApp, type GithubApp } from '../../server/github-app/app.js';
import { addBatch, annotationsFor, CHECK_RUN_NAME, checkRunOutput, readCheckState, reportBatchOnCommit, STATE_PROBLEM_LIMIT, stateConclusion, type CheckRow } from '../../server/github-app/check-run.js';
import { CONFIG_CHECK_RUN_NAME } from '../../server/github-app/config-check.js';
import { checkRowsOf, localeTallies } from '../../server/github-app/handlers/batch-completed.js';
import { pullRequestBody, readPullRequestState, type BatchReport } from '../../server/github-app/pr-body.js';
import { createLogger } from '../../server/logger.js';
import {
  APP_ID, CONFIG_TEXT, FULL_NAME, INSTALLATION_ID, OWNER, REPO, REPO_PATH, SOURCE_TEXT,
  appPrivateKey, contentsAnswer, contentsPath, createGithubRecorder, mockInstallationToken, sha, treeAnswer,
} from '../fixtures/github/repository.js';
import { githubRequestProblems } from '../helpers/github-openapi.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { filePush, startService, waitForBatch, type TestService } from '../helpers/service.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Example = Record<string, any>;
// The package is CommonJS whose typings declare a default export; at run time the default import is the array itself.
const DEFINITIONS = ((examples as unknown as { default?: unknown }).default ?? examples) as { name: string; examples: Example[] }[];

function example(name: string, action?: string): Example {
  const found = DEFINITIONS.find((e) => e.name === name)?.examples.find((e) => action === undefined || e.action === action);
  if (!found) throw new Error(`@octokit/webhooks-examples has no '${name}' example`);
  return structuredClone(found);
}

/** A push to acme/shop's main branch by a person. */
function pushPayload(input: { before: string; after: string; commits: { message: string; modified: string[] }[] }) {
  const payload = structuredClone(DEFINITIONS.find((e) => e.name === 'push')!.examples.find((e) => e.ref === 'refs/heads/master' && e.installation)!);
  payload.ref = 'refs/heads/main';
  payload.before = input.before;
  payload.after = input.after;
  payload.deleted = false;
  payload.installation = { id: INSTALLATION_ID, node_id: 'INST_node' };
  payload.repository = { ...payload.repository, name: REPO, full_name: FULL_NAME, owner: { ...payload.repository.owner, login: OWNER, name: OWNER } };
  payload.sender = { ...payload.sender, login: 'octocat', type: 'User' };
  payload.commits = input.commits.map((c, i) => ({ ...payload.commits[0], id: sha(`${input.after}-${i}`), message: c.message, added: [], modified: c.modified, removed: [] }));
  payload.head_commit = payload.commits.at(-1);
  return payload;
}

/** Check runs as GitHub keeps them: created, updated (annotations appended), listed per commit and name, newest first. */
interface ModelRun {
  id: number;
  name: string;
  head_sha: string;
  external_id: string;
  status: string;
  conclusion: string | null;
  output: { title: string; summary: string };
  annotations: { path: string; start_line: number; annotation_level: string; title: string; message: string }[];
}

const SECRET_KEY = randomBytes(32).toString('base64');
const CHECKOUT_TEXT = '{\n  "checkout.pay": "Pay now",\n  "checkout.total": "Total"\n}\n';
/** cart.items changed: the stored translations were made for the old text, and still pass the gates against the new one. */
const SOURCE_V1 = SOURCE_TEXT.replace('You have {count} items in your cart', 'You have {count} items in the cart');
const SOURCE_V2 = SOURCE_V1.replace('Your cart is empty', 'Nothing in your cart yet');
const COMMIT = sha('commit-two-batches');
const TWO_FILES_CONFIG = `${CONFIG_TEXT}  - source: checkout/en.json\n    translation: checkout/{locale}.json\n`;

const github = createGithubRecorder();
const runs: ModelRun[] = [];
let mock: MockOpenAI;
let service: TestService;
let client: ParlanceClient;
let app: GithubApp;
/** The ids of the two batches of COMMIT, set by the first test. */
const batchIds: { refused?: string; clean?: string } = {};

function octokit() {
  return new ProbotOctokit({ auth: { token: 'ghs_installation_token' }, retry: { enabled: false }, throttle: { enabled: false } });
}

/** The check-runs endpoints on a persistent scope answering from `runs`. */
function mockCheckRuns(): nock.Scope {
  const scope = github.scope().persist();
  // nock 15 hands a reply function the fetch Request.
  scope.get(/^\/repos\/acme\/shop\/commits\/[0-9a-f]{40}\/check-runs/).query(true).reply((req: Request) => {
    const url = new URL(req.url);
    const head = url.pathname.split('/')[5]!;
    const name = url.searchParams.get('check_name');
    // filter=latest: the newest run of each name.
    const newest = new Map<string, ModelRun>();
    for (const run of [...runs].sort((a, b) => b.id - a.id)) if (run.head_sha === head && (!name || run.name === name) && !newest.has(run.name)) newest.set(run.name, run);
    const found = [...newest.values()].map(answer);
    return [200, { total_count: found.length, check_runs: found }];
  });
  scope.post(`${REPO_PATH}/check-runs`).reply(async (req: Request) => {
    const b = (await req.json()) as Record<string, unknown> & { output: ModelRun['output'] & { annotations?: ModelRun['annotations'] } };
    const run: ModelRun = {
      id: 900 + runs.length, name: b.name as string, head_sha: b.head_sha as string, external_id: (b.external_id as string) ?? '', status: (b.status as string) ?? 'queued',
      conclusion: (b.conclusion as string) ?? null, output: { title: b.output.title, summary: b.output.summary }, annotations: [...(b.output.annotations ?? [])],
    };
    runs.push(run);
    return [201, answer(run)];
  });
  scope.patch(/^\/repos\/acme\/shop\/check-runs\/\d+$/).reply(async (req: Request) => {
    const run = runs.find((r) => r.id === Number(new URL(req.url).pathname.split('/').pop()));
    if (!run) return [404, { message: 'Not Found' }];
    const b = (await req.json()) as { status?: string; conclusion?: string; output?: ModelRun['output'] & { annotations?: ModelRun['annotations'] } };
    if (b.status) run.status = b.status;
    if (b.conclusion) run.conclusion = b.conclusion;
    if (b.output) {
      run.output = { title: b.output.title, summary: b.output.summary };
      run.annotations.push(...(b.output.annotations ?? []));
    }
    return [200, answer(run)];
  });
  return scope;
}

function answer(run: ModelRun) {
  return {
    id: run.id, name: run.name, head_sha: run.head_sha, external_id: run.external_id, status: run.status, conclusion: run.conclusion,
    html_url: `https://github.com/${FULL_NAME}/runs/${run.id}`, output: { ...run.output, text: null, annotations_count: run.annotations.length, annotations_url: '' },
  };
}

async function pushFile(path: string, text: string): Promise<string> {
  const res = await service.api('/v1/push', { method: 'POST', body: filePush(text, { path }) });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  expect((await waitForBatch(service, id)).status).toBe('completed');
  return id;
}

async function batchReport(id: string): Promise<BatchReport> {
  return { id, url: `${service.url}/v1/batches/${id}`, locales: localeTallies(await client.batchRows(id)) };
}

function rerunPayload(externalId: string): Example {
  const payload = example('check_run', 'rerequested');
  payload.check_run = { ...payload.check_run, name: CHECK_RUN_NAME, external_id: externalId, head_sha: COMMIT };
  payload.repository = { ...payload.repository, name: REPO, full_name: FULL_NAME, owner: { ...payload.repository.owner, login: OWNER } };
  payload.installation = { id: INSTALLATION_ID, node_id: 'INST_node' };
  return payload;
}

const runsOf = (head: string, name = CHECK_RUN_NAME) => runs.filter((r) => r.head_sha === head && r.name === name);

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  mock = await startMockOpenAI();
  service = await startService({
    env: {
      PARLANCE_SECRET_KEY: SECRET_KEY,
      GITHUB_APP_EVENTS_URL: 'http://127.0.0.1:9/events',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_RETRY_DELAYS: '1h',
      RATE_LIMIT_PER_MINUTE: '100000',
      TRANSLATION_PROVIDER: 'openai',
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'mock-fast',
    },
  });
  client = createClient({ baseUrl: service.url, token: service.token });
  const linked = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: INSTALLATION_ID, repository: FULL_NAME, base_branch: 'main', config_path: 'parlance.yml' } });
  expect(linked.status).toBe(201);
  app = await createGithubApp({
    db: service.runtime.db,
    links: service.runtime.githubLinks,
    serviceUrl: service.url,
    log: createLogger('silent'),
    logLevel: 'silent',
    appId: APP_ID,
    privateKey: appPrivateKey(),
    webhookSecret: 'github-webhook-secret',
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({ ...options, retry: { enabled: false }, throttle: { enabled: false } })),
  });
  // The first translations of cart.items pass the gates; the next source of it is translated without its placeholder.
  await pushFile('locales/en.json', SOURCE_TEXT);
});

afterEach(() => {
  try {
    expect(github.sent.flatMap(githubRequestProblems)).toEqual([]);
  } finally {
    github.reset();
    nock.cleanAll();
  }
});

afterAll(async () => {
  nock.enableNetConnect();
  await service?.stop();
  await mock?.close();
});

describe('one check run per commit', () => {
  it('two batches of one commit, one refused and one clean: one run, failure, both batches in it, each key annotated once with its locales', async () => {
    mock.script = (row, { locale }) => (row.key === 'cart.items' && ['de', 'fr'].includes(locale) ? row.text.replace(/<ph id="\d+"\/>/g, '').toUpperCase() : undefined);
    batchIds.refused = await pushFile('locales/en.json', SOURCE_V1);
    mock.script = undefined;
    batchIds.clean = await pushFile('checkout/en.json', CHECKOUT_TEXT);
    mockCheckRuns();

    // The refused batch first, then the clean one: the later success must not hide the failure.
    for (const id of [batchIds.refused, batchIds.clean]) {
      const rows = checkRowsOf(await client.batchRows(id));
      await reportBatchOnCommit({ octokit: octokit(), owner: OWNER, repo: REPO, headSha: COMMIT, batch: { id, url: `${service.url}/v1/batches/${id}` }, rows });
    }
    // The clean batch delivered again changes nothing.
    await reportBatchOnCommit({ octokit: octokit(), owner: OWNER, repo: REPO, headSha: COMMIT, batch: { id: batchIds.clean, url: `${service.url}/v1/batches/${batchIds.clean}` }, rows: [] });

    expect(runsOf(COMMIT)).toHaveLength(1);
    const [run] = runsOf(COMMIT);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure', external_id: batchIds.refused, output: { title: '2 refused, 0 flagged' } });
    expect(run!.output.summary).toContain('Parlance checked 2 batches for this commit: 2 rows refused, 0 flagged.');
    expect(run!.output.summary).toContain(`| [\`${batchIds.refused}\`](${service.url}/v1/batches/${batchIds.refused}) | 2 | 0 |`);
    expect(run!.output.summary).toContain(`| [\`${batchIds.clean}\`](${service.url}/v1/batches/${batchIds.clean}) | 0 | 0 |`);
    // One annotation for the key, naming both locales; the shared reason written once, not once per locale.
    expect(run!.annotations).toHaveLength(1);
    const [annotation] = run!.annotations;
    expect(annotation).toMatchObject({ path: 'locales/en.json', start_line: 4, annotation_level: 'failure', title: 'Refused (de, fr): cart.items' });
    const firstLine = annotation!.message.split('\n')[0]!;
    expect(firstLine).toMatch(/placeholder/i);
    expect(annotation!.message.split(firstLine)).toHaveLength(2);
  });

  it('re-run: still red while the refusal stands (an older stored translation passing does not count), green after the fix, saying what was fixed', async () => {
    expect(batchIds.refused).toBeDefined();
    mockCheckRuns();
    const scope = github.scope();
    mockInstallationToken(scope);
    // Each re-run compares the commit's source files with what the service holds: the same bytes here.
    scope.get(contentsPath('locales/en.json')).query({ ref: COMMIT }).times(2).reply(200, contentsAnswer('locales/en.json', SOURCE_V1));
    scope.get(contentsPath('checkout/en.json')).query({ ref: COMMIT }).times(2).reply(200, contentsAnswer('checkout/en.json', CHECKOUT_TEXT));

    await app.probot.receive({ name: 'check_run', id: 'delivery-rerun-1', payload: rerunPayload(batchIds.refused!) as never });

    const [, first] = runsOf(COMMIT);
    expect(first).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(first!.output.summary).toContain('0 refusals fixed, 2 remaining');
    expect(first!.annotations).toEqual([expect.objectContaining({ title: 'Refused (de, fr): cart.items', start_line: 4 })]);

    // The fix: a person writes both translations with the placeholder.
    for (const [locale, text] of [['de', 'Sie haben {count} Artikel im Warenkorb'], ['fr', 'Vous avez {count} articles dans le panier']] as const) {
      const put = await service.api(`/v1/translations/cart.items/${locale}?path=locales%2Fen.json`, { method: 'PUT', json: { text } });
      expect(put.status).toBe(200);
    }
    await app.probot.receive({ name: 'check_run', id: 'delivery-rerun-2', payload: rerunPayload(batchIds.refused!) as never });

    const all = runsOf(COMMIT);
    expect(all).toHaveLength(3);
    expect(all[2]).toMatchObject({ status: 'completed', conclusion: 'success', output: { title: 'Every row passed the quality gates' } });
    expect(all[2]!.output.summary).toContain('2 refusals fixed, 0 remaining');
    // Both batches of the commit are still what the run reports on.
    expect(all[2]!.output.summary).toContain(batchIds.clean!);
    expect(all[2]!.annotations).toEqual([]);
    expect(all[2]!.output.summary).not.toContain('differs from the source Parlance holds');
    scope.done();
  });
});

describe('a broken parlance.yml', () => {
  it('fails a "Parlance configuration" check run at the line, answers the delivery, and the next valid push sends the source change it held back', async () => {
    const filesBefore = await client.files();
    const broken = `${CONFIG_TEXT}  - source: checkout/en.json\n    translation: ../checkout/{locale}.json\n`;
    const brokenCommit = sha('push-broken-config');
    mockCheckRuns();
    const scope = github.scope();
    mockInstallationToken(scope);
    scope.get(contentsPath('parlance.yml')).query({ ref: brokenCommit }).reply(200, contentsAnswer('parlance.yml', broken));

    // The delivery resolves (Probot answers GitHub 200): no retry of a push that would meet the same file.
    await app.probot.receive({
      name: 'push', id: 'delivery-broken-config',
      payload: pushPayload({ before: sha('earlier'), after: brokenCommit, commits: [{ message: 'Reword the cart and add checkout', modified: ['locales/en.json', 'parlance.yml'] }] }) as never,
    });

    const [run] = runsOf(brokenCommit, CONFIG_CHECK_RUN_NAME);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(run!.output.summary).toContain("files[1].translation: Invalid path '../checkout/{locale}.json'");
    expect(run!.annotations).toEqual([expect.objectContaining({ path: 'parlance.yml', start_line: 6, annotation_level: 'failure', message: expect.stringContaining('parlance.yml:6:18:') })]);
    expect(await client.files()).toEqual(filesBefore);

    // The fix touches parlance.yml alone; the source change of the broken push goes out with it.
    const fixedCommit = sha('push-fixed-config');
    const tree = { 'parlance.yml': TWO_FILES_CONFIG, 'locales/en.json': SOURCE_V2, 'checkout/en.json': CHECKOUT_TEXT };
    const next = github.scope();
    next.get(contentsPath('parlance.yml')).query({ ref: fixedCommit }).reply(200, contentsAnswer('parlance.yml', TWO_FILES_CONFIG));
    next.get(`${REPO_PATH}/git/trees/${fixedCommit}`).query({ recursive: 'true' }).reply(200, treeAnswer(sha('fixed-tree'), tree));
    next.get(contentsPath('locales/en.json')).query({ ref: fixedCommit }).reply(200, contentsAnswer('locales/en.json', SOURCE_V2));
    // checkout/en.json is read and, as the service already holds it byte for byte, not sent again.
    next.get(contentsPath('checkout/en.json')).query({ ref: fixedCommit }).reply(200, contentsAnswer('checkout/en.json', CHECKOUT_TEXT));
    const batchesBefore = ((await (await service.api('/v1/batches?limit=100')).json()) as { items: unknown[] }).items.length;

    await app.probot.receive({ name: 'push', id: 'delivery-fixed-config', payload: pushPayload({ before: brokenCommit, after: fixedCommit, commits: [{ message: 'Fix parlance.yml', modified: ['parlance.yml'] }] }) as never });

    next.done();
    const files = await client.files();
    expect(files.find((f) => f.path === 'locales/en.json')?.sha256).toBe(createHash('sha256').update(SOURCE_V2).digest('hex'));
    expect(files.find((f) => f.path === 'checkout/en.json')?.sha256).toBe(filesBefore.find((f) => f.path === 'checkout/en.json')?.sha256);
    expect(((await (await service.api('/v1/batches?limit=100')).json()) as { items: unknown[] }).items).toHaveLength(batchesBefore + 1);
    expect(runsOf(fixedCommit, CONFIG_CHECK_RUN_NAME)).toEqual([]);
  });
});

describe('the pull request body', () => {
  it('counts every batch since the branch was built, lists a hand edit once with its file, and starts again on a rebuild', async () => {
    const project = { name: 'Shop', url: `${service.url}/v1/project` };
    const first = await batchReport(batchIds.refused!);
    const second = await batchReport(batchIds.clean!);
    const edit = { key: 'cart.title', locale: 'de', path: 'locales/de.json' };

    const afterFirst = pullRequestBody({ batch: first, project, base: 'main', drift: [edit] });
    const afterSecond = pullRequestBody({ batch: second, project, base: 'main', drift: [edit], previousBody: afterFirst });
    // A redelivered batch adds nothing.
    expect(pullRequestBody({ batch: second, project, base: 'main', previousBody: afterSecond })).toBe(afterSecond);

    const sum = (key: 'translated' | 'refused' | 'words', locale: string) => [first, second].flatMap((b) => b.locales).filter((t) => t.locale === locale).reduce((n, t) => n + t[key], 0);
    expect(sum('refused', 'de')).toBe(1);
    expect(sum('translated', 'ja')).toBeGreaterThan(first.locales.find((t) => t.locale === 'ja')!.translated);
    for (const locale of ['de', 'fr', 'ja']) {
      expect(afterSecond).toContain(`| \`${locale}\` | ${sum('translated', locale)} | ${sum('refused', locale)} | 0 | ${sum('words', locale)} |`);
    }
    expect(afterSecond).toContain(`from 2 Parlance batches since the branch was last rebuilt: [\`${first.id}\`]`);
    expect(afterSecond).toContain(`[\`${second.id}\`]`);
    expect(afterSecond.match(/- `cart\.title` \(de\) in `locales\/de\.json`/g)).toHaveLength(1);
    expect(readPullRequestState(afterSecond)?.batches.map((b) => b.id)).toEqual([first.id, second.id]);

    // A rebuilt branch: no previous body, the counts are this batch's alone.
    const rebuilt = pullRequestBody({ batch: second, project, base: 'main', previousBody: null });
    expect(rebuilt).toContain(`from Parlance batch [\`${second.id}\`]`);
    expect(rebuilt).not.toContain(first.id);
    expect(rebuilt).not.toContain('Hand edits imported');
  });
});

describe('the check run state', () => {
  const row = (key: string, locale: string, reason: string, outcome: CheckRow['outcome'] = 'refused'): CheckRow => ({
    key, locale, path: 'locales/en.json', line: 7, outcome, reason, gate_failures: [{ gate: 'placeholders', reason }],
  });

  it('names locales once per reason when the locales failed differently', () => {
    const [annotation, ...rest] = annotationsFor([row('a', 'fr', 'missing {n}'), row('a', 'de', 'missing {n}'), row('a', 'ja', 'extra {m}')]);
    expect(rest).toEqual([]);
    expect(annotation).toMatchObject({ title: 'Refused (de, fr, ja): a', start_line: 7 });
    expect(annotation!.message).toBe('de, fr: missing {n}\n- placeholders: missing {n}\n\nja: extra {m}\n- placeholders: extra {m}');
  });

  it('reads back what it wrote, keys with "-->" included, and keeps the verdict when the list is cut', () => {
    const many = Array.from({ length: STATE_PROBLEM_LIMIT + 5 }, (_, i) => row(`k${i}`, 'de', 'r', i < STATE_PROBLEM_LIMIT ? 'flagged' : 'refused'));
    const state = addBatch(addBatch(null, { id: 'bat_1', url: 'https://p.example/b/1' }, [row('odd --> key', 'fr', 'x')]), { id: 'bat_2', url: 'https://p.example/b/2' }, many);
    expect(state.problems).toHaveLength(STATE_PROBLEM_LIMIT);
    // Refusals stay listed; the flagged rows beyond the limit are only counted.
    expect(state.problems.filter((p) => p.outcome === 'refused')).toHaveLength(6);
    expect(state.unlisted).toEqual({ refused: 0, flagged: 6 });
    expect(stateConclusion(state)).toBe('failure');
    const { summary, title } = checkRunOutput(state);
    expect(title).toBe(`6 refused, ${STATE_PROBLEM_LIMIT} flagged`);
    expect(summary.length).toBeLessThanOrEqual(65_535);
    expect(readCheckState(summary)).toEqual(state);
  });
});
