/**
 * Acknowledge, then work (issue 30): the App answers the service's `batch.completed` deliveries and GitHub's `push`
 * deliveries at once and does the work afterwards, keyed by the delivery id. Against the GitHub stand-in: the answer
 * comes back while the App's write is held; the same delivery twice (and again after a restart) makes one commit and
 * one check run; a job that failed until its retries gave up runs again on the service's redelivery; a job cut off by
 * a crash is resumed when the next App process starts.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProbotOctokit } from 'probot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGithubApp, GITHUB_WEBHOOKS_PATH, type GithubApp, type ParlanceEventRequest, type ParlanceEventResponse } from '../../server/github-app/app.js';
import { MAX_STORED_PAYLOAD_BYTES } from '../../server/github-app/deliveries.js';
import { requestHandler } from '../../server/github-app/server.js';
import { createLogger } from '../../server/logger.js';
import { APP_ID, APP_SLUG, INSTALLATION_ID, OWNER, REPO, appPrivateKey } from '../fixtures/github/repository.js';
import { startGithubStandin, type GithubStandin } from '../helpers/github-standin.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { startService, type TestService } from '../helpers/service.js';

const WEBHOOK_SECRET = 'deliveries-webhook-secret';
const CONFIG = 'files:\n  - source: locales/en.json\n    translation: locales/{locale}.json\n';
const json = (value: Record<string, string>) => `${JSON.stringify(value, null, 2)}\n`;
const COMMITS = 'POST /repos/{owner}/{repo}/git/commits';
const TREES = 'POST /repos/{owner}/{repo}/git/trees';

interface Answer {
  request: ParlanceEventRequest;
  type: string;
  status: number;
  handled: string;
  at: number;
}

const answers: Answer[] = [];
let github: GithubStandin;
let mock: MockOpenAI;
let service: TestService;
let appServer: Server;
let app: GithubApp;
let privateKey: string;
let webhookId: string;
let appUrl: string;

function newApp() {
  return createGithubApp({
    db: service.runtime.db,
    links: service.runtime.githubLinks,
    serviceUrl: service.url,
    log: createLogger('silent'),
    logLevel: 'silent',
    appId: APP_ID,
    privateKey,
    webhookSecret: WEBHOOK_SECRET,
    githubApiUrl: service.config.githubApp.apiUrl,
    // Retries a failed job twice, quickly; the stand-in's injected 500s outlast them when asked to.
    jobRetryDelaysMs: [50, 100],
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({ ...options, retry: { enabled: false }, throttle: { enabled: false } })),
  });
}

/** The batch.completed answers since `from` (to the delivery `msgId`, if given), once there are `count` of them. */
async function batchAnswers(from: number, count: number, msgId?: string): Promise<Answer[]> {
  return vi.waitFor(
    () => {
      const seen = answers.slice(from).filter((a) => a.type === 'batch.completed' && (msgId === undefined || a.request.headers['webhook-id'] === msgId));
      if (seen.length < count) throw new Error(`${seen.length} of ${count} batch.completed deliveries answered`);
      return seen;
    },
    { timeout: 60_000, interval: 20 },
  );
}

async function recordedStatus(key: string): Promise<string | undefined> {
  const row = await service.runtime.db.selectFrom('github_app_deliveries').select('status').where('id', '=', key).executeTakeFirst();
  return row?.status;
}

/** The service's "Redeliver", once the service has recorded the App's answer to the last attempt (409 until then). */
async function redeliverFromService(deliveryId: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const res = await service.api(`/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { method: 'POST' });
      expect(res.status, await res.text()).toBe(200);
    },
    { timeout: 10_000, interval: 20 },
  );
}

beforeAll(async () => {
  mock = await startMockOpenAI();
  privateKey = appPrivateKey();
  github = await startGithubStandin({ owner: OWNER, repo: REPO, installationId: INSTALLATION_ID, appId: APP_ID, appSlug: APP_SLUG, appPrivateKey: privateKey });

  const late: { handle?: (req: IncomingMessage, res: ServerResponse) => Promise<void> } = {};
  appServer = createServer((req, res) => {
    if (late.handle) void late.handle(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;

  service = await startService({
    env: {
      PARLANCE_SECRET_KEY: randomBytes(32).toString('base64'),
      GITHUB_APP_EVENTS_URL: `${appUrl}/events`,
      GITHUB_API_URL: github.apiUrl,
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_DELAYS: '500ms,1s,2s',
      RATE_LIMIT_PER_MINUTE: '100000',
      TRANSLATION_PROVIDER: 'openai',
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'mock-fast',
    },
  });
  app = await newApp();
  async function recordEvent(request: ParlanceEventRequest): Promise<ParlanceEventResponse> {
    const answer = await app.handleParlanceEvent(request);
    const event = JSON.parse(request.body) as { type?: string };
    answers.push({ request, type: event.type ?? '?', status: answer.status, handled: 'handled' in answer.body ? answer.body.handled : answer.body.error, at: Date.now() });
    return answer;
  }
  late.handle = requestHandler({ middleware: (req, res, next) => app.middleware(req, res, next), handleParlanceEvent: recordEvent }, createLogger('silent'));
  github.setWebhook(`${appUrl}${GITHUB_WEBHOOKS_PATH}`, WEBHOOK_SECRET);

  const linked = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: INSTALLATION_ID, repository: `${OWNER}/${REPO}`, base_branch: 'main', config_path: 'parlance.yml' } });
  expect(linked.status).toBe(201);
  webhookId = ((await linked.json()) as { webhook_id: string }).webhook_id;
  github.seed({ 'parlance.yml': CONFIG, 'README.md': '# Shop\n' });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await github?.close();
  await service?.stop();
  appServer?.closeAllConnections();
  await new Promise<void>((resolve) => appServer.close(() => resolve()));
  await mock?.close();
});

describe.sequential('deliveries to the App are acknowledged at once and worked on once', () => {
  it('answers before the work ends; the same delivery again (while running, after it, after a restart) makes one commit and one check run', async () => {
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    github.calls.reset();
    // The App's first commit waits here until the test lets it go.
    github.inject({
      at: (method, _path, _count, route) => `${method} ${route}` === COMMITS,
      do: async () => {
        holding();
        await released;
      },
    });

    const from = answers.length;
    const started = Date.now();
    const pushed = await github.push({ files: { 'locales/en.json': json({ 'cart.title': 'Your cart', 'cart.empty': 'Your cart is empty' }) }, login: 'octocat', message: 'Add sources' });
    // GitHub's delivery: answered 200 at once, before the push was even sent to the service.
    expect(pushed.delivery?.status).toBe(200);
    expect(pushed.delivery?.response).toContain('accepted: push');
    expect(Date.now() - started).toBeLessThan(1000);

    const [first] = await batchAnswers(from, 1);
    await held;
    // The service's delivery was answered while the App's write is still held: the work runs after the answer.
    expect(first).toMatchObject({ status: 200 });
    expect(first!.handled).toContain('accepted');
    expect(github.head('parlance/main')).toBeUndefined();
    const msgId = first!.request.headers['webhook-id']!;
    expect(await recordedStatus(`parlance:${msgId}`)).toBe('running');

    // The same delivery again while the job runs: directly (a retry racing the first attempt) and through the service.
    const again = await app.handleParlanceEvent(first!.request);
    expect(again).toMatchObject({ status: 200, body: { ok: true } });
    expect((again.body as { handled: string }).handled).toContain(`ignored: delivery parlance:${msgId} is already being worked on`);
    await redeliverFromService(msgId);
    const [redelivered] = await batchAnswers(answers.indexOf(first!) + 1, 1, msgId);
    expect(redelivered).toMatchObject({ status: 200 });
    expect(redelivered!.handled).toContain('ignored');
    // GitHub's "Redeliver" of the push once its job is done: nothing is sent to the service twice.
    await vi.waitFor(async () => expect(await recordedStatus(`github:${pushed.delivery!.id}`)).toBe('done'), { timeout: 10_000, interval: 20 });
    const pushAgain = await github.redeliver(pushed.delivery!.id);
    expect(pushAgain.status).toBe(200);
    expect(pushAgain.response).toContain(`ignored: delivery github:${pushed.delivery!.id} was already accepted (done`);

    release();
    await app.idle();
    expect(await recordedStatus(`parlance:${msgId}`)).toBe('done');
    expect(github.log('parlance/main', 'main')).toHaveLength(1);
    expect(JSON.parse(github.files('parlance/main')['locales/de.json']!)).toMatchObject({ 'cart.title': expect.stringContaining('YOUR CART') });
    // One check run per commit it reports on (the pushed commit, the Parlance commit), none twice.
    expect(github.checkRuns.length).toBeGreaterThan(0);
    expect(new Set(github.checkRuns.map((r) => r.head_sha)).size).toBe(github.checkRuns.length);
    expect(github.checkRuns.map((r) => r.head_sha)).toContain(pushed.sha);
    const runsAfterFirst = github.checkRuns.map((r) => ({ ...r, output: { ...r.output } }));
    const callsAfterFirst = github.calls.byRoute();
    expect(callsAfterFirst[COMMITS]).toBe(1);

    // After the job finished, and after a restart of the App (a new process reads the same record): still nothing.
    const afterDone = await app.handleParlanceEvent(first!.request);
    expect((afterDone.body as { handled: string }).handled).toContain('was already accepted (done');
    // Finished deliveries are kept 7 days: the new process prunes older ones at its first delivery, never a running one.
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60_000);
    await service.runtime.db
      .insertInto('github_app_deliveries')
      .values([
        { id: 'github:old-done', event: 'push', status: 'done', updated_at: eightDaysAgo },
        { id: 'github:old-failed', event: 'push', status: 'failed', updated_at: eightDaysAgo },
        { id: 'github:old-running', event: 'push', status: 'running', updated_at: eightDaysAgo },
      ])
      .execute();
    await app.stop();
    app = await newApp();
    const afterRestart = await app.handleParlanceEvent(first!.request);
    expect(afterRestart).toMatchObject({ status: 200 });
    expect((afterRestart.body as { handled: string }).handled).toContain('was already accepted (done');
    await app.idle();
    await vi.waitFor(async () => {
      const kept = await service.runtime.db.selectFrom('github_app_deliveries').select('id').where('id', 'like', 'github:old-%').execute();
      expect(kept.map((r) => r.id)).toEqual(['github:old-running']);
    });
    await service.runtime.db.deleteFrom('github_app_deliveries').where('id', '=', 'github:old-running').execute();

    expect(github.calls.byRoute()).toEqual(callsAfterFirst);
    expect(github.log('parlance/main', 'main')).toHaveLength(1);
    expect(github.checkRuns).toEqual(runsAfterFirst);
    expect(github.pulls).toHaveLength(1);
    expect(github.unreachableCommits()).toEqual([]);
    expect(github.problems).toEqual([]);
  });

  it('a job that failed until its retries gave up runs again on the next redelivery, and then succeeds', async () => {
    const before = github.head('parlance/main')!;
    github.calls.reset();
    // The first attempt and both retries meet a 500 on tree creation.
    github.inject({ at: (method, _path, _count, route) => `${method} ${route}` === TREES, do: 'fail500', times: 3 });

    const from = answers.length;
    const pushed = await github.push({ files: { 'locales/en.json': json({ 'cart.title': 'Your basket', 'cart.empty': 'Your cart is empty' }) }, login: 'octocat', message: 'Basket' });
    expect(pushed.delivery?.status).toBe(200);
    const [delivered] = await batchAnswers(from, 1);
    expect(delivered).toMatchObject({ status: 200 });
    const msgId = delivered!.request.headers['webhook-id']!;
    await app.idle();

    expect(github.calls.byRoute()[TREES]).toBe(3);
    expect(github.calls.byRoute()[COMMITS]).toBeUndefined();
    expect(github.head('parlance/main')).toBe(before);
    expect(await recordedStatus(`parlance:${msgId}`)).toBe('failed');
    const row = await service.runtime.db.selectFrom('github_app_deliveries').selectAll().where('id', '=', `parlance:${msgId}`).executeTakeFirstOrThrow();
    expect(row.last_error).toContain('gave up after 3 attempts');

    // The operator (or the service's console) redelivers it: the job runs again, and GitHub answers now.
    await redeliverFromService(msgId);
    const [redelivered] = await batchAnswers(answers.indexOf(delivered!) + 1, 1, msgId);
    expect(redelivered).toMatchObject({ status: 200 });
    expect(redelivered!.handled).toContain('accepted');
    await app.idle();

    const rerun = await service.runtime.db.selectFrom('github_app_deliveries').selectAll().where('id', '=', `parlance:${msgId}`).executeTakeFirstOrThrow();
    expect(rerun, rerun.last_error ?? '').toMatchObject({ status: 'done', runs: 2 });
    expect(github.calls.byRoute()[TREES]).toBe(4);
    expect(github.calls.byRoute()[COMMITS]).toBe(1);
    const commits = github.log('parlance/main', 'main');
    expect(commits.map((c) => c.parents)).toEqual([[pushed.sha]]);
    expect(JSON.parse(github.files('parlance/main')['locales/fr.json']!)).toMatchObject({ 'cart.title': expect.stringContaining('YOUR BASKET') });
    expect(github.pulls).toHaveLength(1);
    expect(github.problems).toEqual([]);
  });

  it('a job cut off by a crash is resumed when the next App process starts: one commit, one pull request, the row done', async () => {
    github.calls.reset();
    const previousHead = github.head('parlance/main')!;
    const unreachableBefore = github.unreachableCommits();
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    // The first process's commit hangs here: it "crashes" mid-job, and its call is only answered (with a 500) once a
    // new process has taken the job over.
    github.inject({
      at: (method, _path, _count, route) => `${method} ${route}` === COMMITS,
      do: async () => {
        holding();
        await woken;
        throw new Error('the process that made this call is gone');
      },
    });
    let resuming!: () => void;
    const atResumedCommit = new Promise<void>((resolve) => (resuming = resolve));
    let proceed!: () => void;
    const proceeding = new Promise<void>((resolve) => (proceed = resolve));
    const dead = app;
    try {
      const from = answers.length;
      const pushed = await github.push({ files: { 'locales/en.json': json({ 'cart.title': 'Your trolley', 'cart.empty': 'Your cart is empty' }) }, login: 'octocat', message: 'Trolley' });
      expect(pushed.delivery?.status).toBe(200);
      const [delivered] = await batchAnswers(from, 1);
      expect(delivered!.handled).toContain('accepted');
      const key = `parlance:${delivered!.request.headers['webhook-id']!}`;
      await held;
      await vi.waitFor(async () => expect(await recordedStatus(`github:${pushed.delivery!.id}`)).toBe('done'), { timeout: 10_000, interval: 20 });
      expect(await recordedStatus(key)).toBe('running');
      // The resumed job's commit waits too, until the test has seen the dead process's last record come to nothing.
      github.inject({
        at: (method, _path, _count, route) => `${method} ${route}` === COMMITS,
        do: async () => {
          resuming();
          await proceeding;
        },
      });
      const stored = await service.runtime.db.selectFrom('github_app_deliveries').select('payload').where('id', '=', key).executeTakeFirstOrThrow();
      expect(JSON.parse(stored.payload!)).toMatchObject({ source: 'parlance', body: delivered!.request.body });

      // The restarted process, on the same database, without a stop() of the first: it takes the job over at start.
      app = await newApp();
      expect(app.resumed).toEqual([key]);
      // Only in this test do both processes share the branch lock (one module): the dead one's hung call is answered
      // now, and being stopped it does not retry; its record of the failure must not touch the row it no longer holds.
      const deadStopped = dead.stop();
      wake();
      await deadStopped;
      await atResumedCommit;
      expect(await recordedStatus(key)).toBe('running');
      proceed();
      await app.idle();

      const row = await service.runtime.db.selectFrom('github_app_deliveries').selectAll().where('id', '=', key).executeTakeFirstOrThrow();
      expect(row, row.last_error ?? '').toMatchObject({ status: 'done', runs: 2, last_error: null });
      // The hung call (never written) and the resumed job's.
      expect(github.calls.byRoute()[COMMITS]).toBe(2);
      expect(github.log('parlance/main', 'main').map((c) => c.parents)).toEqual([[pushed.sha]]);
      expect(JSON.parse(github.files('parlance/main')['locales/de.json']!)).toMatchObject({ 'cart.title': expect.stringContaining('YOUR TROLLEY') });
      expect(github.pulls).toHaveLength(1);
      // Rebuilt on the new push, the branch leaves only its previous head behind: nothing written twice.
      expect(github.unreachableCommits().sort()).toEqual([...unreachableBefore, previousHead].sort());
      expect(github.problems).toEqual([]);

      // A further restart finds nothing to resume, and the service's redelivery of the finished job is dropped.
      await app.stop();
      app = await newApp();
      expect(app.resumed).toEqual([]);
      const again = await app.handleParlanceEvent(delivered!.request);
      expect((again.body as { handled: string }).handled).toContain('was already accepted (done');
    } finally {
      wake();
      proceed();
    }
  });

  it('a GitHub delivery over 1 MiB is worked on as usual, but not kept for resuming after a crash', async () => {
    const body = JSON.stringify({
      ref: 'refs/heads/unlinked',
      before: '0'.repeat(40),
      after: '1'.repeat(40),
      deleted: false,
      installation: { id: INSTALLATION_ID },
      repository: { full_name: `${OWNER}/${REPO}` },
      sender: { login: 'octocat', type: 'User' },
      commits: [],
      padding: 'x'.repeat(MAX_STORED_PAYLOAD_BYTES),
    });
    const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const res = await fetch(`${appUrl}${GITHUB_WEBHOOKS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'd-large', 'x-hub-signature-256': signature }, body });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('accepted: push d-large');
    await app.idle();
    const row = await service.runtime.db.selectFrom('github_app_deliveries').select(['status', 'payload', 'last_error']).where('id', '=', 'github:d-large').executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'done', payload: null, last_error: null });
  });

  it("GitHub's deliveries: a bad or malformed signature is refused, an event the App does not act on is answered and not recorded", async () => {
    const send = (id: string, event: string, body: string, signature: string) =>
      fetch(`${appUrl}${GITHUB_WEBHOOKS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': id, 'x-hub-signature-256': signature }, body });
    const sign = (body: string) => `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const created = JSON.stringify({ action: 'created', check_run: { id: 1, name: 'Parlance quality gates' }, installation: { id: INSTALLATION_ID } });

    const forged = await send('d-forged', 'check_run', created, sign(`${created} `));
    expect(forged.status).toBe(401);
    expect(await forged.text()).toContain('Delivery d-forged refused');
    expect((await send('d-malformed', 'check_run', created, 'sha256=zz')).status).toBe(401);
    const missing = await fetch(`${appUrl}${GITHUB_WEBHOOKS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: created });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('missing X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256');

    // The App's own check runs cause check_run.created deliveries: acknowledged, never a row.
    const ignored = await send('d-created', 'check_run', created, sign(created));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ ok: true, handled: "ignored: the App does not act on 'check_run.created'" });
    const rows = await service.runtime.db.selectFrom('github_app_deliveries').select('id').where('id', 'in', ['github:d-forged', 'github:d-malformed', 'github:d-created']).execute();
    expect(rows).toEqual([]);
  });
});
