/**
 * The GitHub App's handlers in Probot's testing style: `probot.receive()` with payloads from @octokit/webhooks-examples,
 * GitHub mocked with nock (every scope done, every request checked against GitHub's OpenAPI description), and the real
 * service in process for the App's /v1 calls.
 */
import { randomBytes } from 'node:crypto';
import examples from '@octokit/webhooks-examples';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGithubApp, type GithubApp } from '../../server/github-app/app.js';
import { CHECK_RUN_NAME } from '../../server/github-app/check-run.js';
import { createLogger } from '../../server/logger.js';
import { signature } from '../../server/webhooks/signing.js';
import {
  APP_ID, APP_SLUG, CONFIG_TEXT, FULL_NAME, INSTALLATION_ID, OWNER, REPO, REPO_PATH, SOURCE_TEXT,
  appPrivateKey, contentsAnswer, contentsPath, createGithubRecorder, mockInstallationToken, sha, treeAnswer,
} from '../fixtures/github/repository.js';
import { githubRequestProblems } from '../helpers/github-openapi.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

interface Link {
  id: string;
  installation_id: number;
  enabled: boolean;
  disabled_reason: string | null;
}

// Payloads are adapted field by field, deep inside; typing each example's full shape would only repeat @octokit/webhooks-types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Example = Record<string, any>;
// The package is CommonJS whose typings declare a default export; at run time the default import is the array itself.
const DEFINITIONS = ((examples as unknown as { default?: unknown }).default ?? examples) as { name: string; examples: Example[] }[];

/** The first example of an event with the given action, deep-copied so tests can adapt it. */
function example(name: string, action?: string): Example {
  const group = DEFINITIONS.find((e) => e.name === name);
  const found = group?.examples.find((e) => action === undefined || e.action === action);
  if (!found) throw new Error(`@octokit/webhooks-examples has no '${name}' example${action ? ` with action '${action}'` : ''}`);
  return structuredClone(found);
}

/** A push to acme/shop's main branch, built from the examples' branch push. */
function pushPayload(input: { after: string; sender?: { login: string; type: 'User' | 'Bot' }; commits: { message: string; added?: string[]; modified?: string[] }[] }) {
  const payload = example('push');
  const branchPush = DEFINITIONS.find((e) => e.name === 'push')?.examples.find((e) => e.ref === 'refs/heads/master' && e.installation);
  if (!branchPush) throw new Error('@octokit/webhooks-examples has no branch push with an installation');
  Object.assign(payload, structuredClone(branchPush));
  payload.ref = 'refs/heads/main';
  payload.before = sha('before');
  payload.after = input.after;
  payload.deleted = false;
  payload.installation = { id: INSTALLATION_ID, node_id: 'INST_node' };
  payload.repository = { ...payload.repository, name: REPO, full_name: FULL_NAME, owner: { ...payload.repository.owner, login: OWNER, name: OWNER } };
  payload.sender = { ...payload.sender, ...(input.sender ?? { login: 'octocat', type: 'User' }) };
  payload.commits = input.commits.map((c, i) => ({ ...payload.commits[0], id: sha(`${input.after}-${i}`), message: c.message, added: c.added ?? [], modified: c.modified ?? [], removed: [] }));
  payload.head_commit = payload.commits.at(-1);
  return payload;
}

const SECRET_KEY = randomBytes(32).toString('base64');
const github = createGithubRecorder();
let service: TestService;
let link: Link;
let app: GithubApp;

/** A fresh App per test, so Probot's installation-token cache does not leak a token (and a skipped request) into the next test. */
async function newApp(options: { appLogin?: string } = {}): Promise<GithubApp> {
  return createGithubApp({
    db: service.runtime.db,
    links: service.runtime.githubLinks,
    serviceUrl: service.url,
    log: createLogger('silent'),
    logLevel: 'silent',
    appId: APP_ID,
    privateKey: PRIVATE_KEY,
    webhookSecret: 'github-webhook-secret',
    Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    ...options,
  });
}
const PRIVATE_KEY = appPrivateKey();

/** The repository at one commit: the config, the source, and any translation files. */
function mockRepositoryAt(commit: string, files: Record<string, string>) {
  const scope = github.scope();
  const all = { 'parlance.yml': CONFIG_TEXT, ...files };
  scope.get(contentsPath('parlance.yml')).query({ ref: commit }).reply(200, contentsAnswer('parlance.yml', CONFIG_TEXT));
  scope.get(`${REPO_PATH}/git/trees/${commit}`).query({ recursive: 'true' }).reply(200, treeAnswer(sha(`${commit}-tree`), all));
  return scope;
}

beforeAll(async () => {
  nock.disableNetConnect();
  // The service runs in this process; its own port and the App's calls to it stay local.
  nock.enableNetConnect('127.0.0.1');
  service = await startService({
    env: { PARLANCE_SECRET_KEY: SECRET_KEY, GITHUB_APP_EVENTS_URL: 'http://127.0.0.1:9/events', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_RETRY_DELAYS: '1h', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const res = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: INSTALLATION_ID, repository: FULL_NAME, base_branch: 'main', config_path: 'parlance.yml' } });
  expect(res.status).toBe(201);
  link = (await res.json()) as Link;
});

afterEach(() => {
  try {
    for (const scope of github.scopes) scope.done();
    expect(github.sent.flatMap(githubRequestProblems)).toEqual([]);
  } finally {
    github.reset();
    nock.cleanAll();
  }
});

afterAll(async () => {
  nock.enableNetConnect();
  await service?.stop();
});

describe('push to the linked base branch', () => {
  it('pushes a changed source file to the service, remembering the commit for the batch', async () => {
    app = await newApp();
    const after = sha('push-1');
    const scope = mockRepositoryAt(after, { 'locales/en.json': SOURCE_TEXT });
    mockInstallationToken(scope);
    scope.get(contentsPath('locales/en.json')).query({ ref: after }).reply(200, contentsAnswer('locales/en.json', SOURCE_TEXT));

    await app.probot.receive({ name: 'push', id: 'delivery-push-1', payload: pushPayload({ after, commits: [{ message: 'Add cart strings', modified: ['locales/en.json'] }] }) as never });

    const files = (await (await service.api('/v1/files')).json()) as { items: { path: string; keys: number }[] };
    expect(files.items).toEqual([expect.objectContaining({ path: 'locales/en.json', keys: 3 })]);
    const batches = (await (await service.api('/v1/batches?limit=1')).json()) as { items: { id: string }[] };
    const batchId = batches.items[0]!.id;
    expect(app.memory.triggerOf(batchId)).toBe(after);
    expect((await waitForBatch(service, batchId)).status).toBe('completed');
  });

  it('ignores a push by the App itself (its bot account, found through GET /app)', async () => {
    app = await newApp();
    const before = (await (await service.api('/v1/batches?limit=100')).json()) as { items: unknown[] };
    github.scope().get('/app').reply(200, { id: APP_ID, slug: APP_SLUG, name: 'Parlance test', owner: { login: OWNER }, permissions: {}, events: [] });

    await app.probot.receive({
      name: 'push',
      id: 'delivery-push-bot',
      payload: pushPayload({ after: sha('push-bot'), sender: { login: `${APP_SLUG}[bot]`, type: 'Bot' }, commits: [{ message: 'Merge translations', modified: ['locales/en.json', 'locales/de.json'] }] }) as never,
    });

    const after = (await (await service.api('/v1/batches?limit=100')).json()) as { items: unknown[] };
    expect(after.items).toHaveLength(before.items.length);
    // Only GET /app went to GitHub: no config, tree or contents read.
    expect(github.sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['GET /app']);
  });

  it('ignores commits carrying the Parlance-Batch trailer, whoever pushed them', async () => {
    app = await newApp();
    await app.probot.receive({
      name: 'push',
      id: 'delivery-push-merge',
      payload: pushPayload({ after: sha('push-merge'), commits: [{ message: 'Update translations\n\nParlance-Batch: bat_0123', modified: ['locales/de.json'] }] }) as never,
    });
    expect(github.sent).toEqual([]);
  });

  it('imports a hand edit of a translation file as a human translation, which a later batch does not overwrite', async () => {
    app = await newApp();
    const pulled = await service.api('/v1/pull?path=locales%2Fen.json&locale=de');
    const machineDe = await pulled.text();
    const editedDe = machineDe.replace(/"cart\.title": "[^"]*"/, '"cart.title": "Ihr Warenkorb"');
    expect(editedDe).not.toBe(machineDe);
    const after = sha('push-drift');
    const scope = mockRepositoryAt(after, { 'locales/en.json': SOURCE_TEXT, 'locales/de.json': editedDe });
    mockInstallationToken(scope);
    scope.get(contentsPath('locales/de.json')).query({ ref: after }).reply(200, contentsAnswer('locales/de.json', editedDe));
    // The hand edit is what changed since the push's `before` (issue 30): the App reads the file there too.
    scope.get(contentsPath('locales/de.json')).query({ ref: sha('before') }).reply(200, contentsAnswer('locales/de.json', machineDe));

    await app.probot.receive({ name: 'push', id: 'delivery-push-drift', payload: pushPayload({ after, commits: [{ message: 'Fix German cart title', modified: ['locales/de.json'] }] }) as never });

    const rows = (await (await service.api('/v1/translations?locale=de&key=cart.title')).json()) as { items: { key: string; text: string; state: string }[] };
    expect(rows.items).toEqual([expect.objectContaining({ key: 'cart.title', text: 'Ihr Warenkorb', state: 'human' })]);
    expect(app.memory.takeDrift(link.id)).toEqual([{ key: 'cart.title', locale: 'de', path: 'locales/de.json' }]);

    // A later source change translates the file again; the hand-made title stays.
    const changed = SOURCE_TEXT.replace('Your cart is empty', 'Nothing in your cart yet');
    const push = await service.api('/v1/push', { method: 'POST', body: (() => { const f = new FormData(); f.set('file', new Blob([changed]), 'en.json'); f.set('path', 'locales/en.json'); return f; })() });
    expect(push.status).toBe(202);
    const batch = (await push.json()) as { id: string };
    expect((await waitForBatch(service, batch.id)).status).toBe('completed');
    const de = JSON.parse(await (await service.api('/v1/pull?path=locales%2Fen.json&locale=de')).text()) as Record<string, string>;
    expect(de['cart.title']).toBe('Ihr Warenkorb');
  });
});

describe('check_run.rerequested', () => {
  it('re-runs the quality gates over the batch and reports a new check run on the same commit', async () => {
    app = await newApp();
    const batches = (await (await service.api('/v1/batches?limit=1')).json()) as { items: { id: string }[] };
    const batchId = batches.items[0]!.id;
    // A human translation over the length budget is stored flagged; the re-run must find it.
    expect((await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: 10 } })).status).toBe(200);
    const put = await service.api(`/v1/translations/cart.empty/fr?path=locales%2Fen.json`, { method: 'PUT', json: { text: 'Votre panier est entièrement et absolument vide pour le moment' } });
    expect(put.status).toBe(200);

    const payload = example('check_run', 'rerequested');
    const headSha = sha('pr-head');
    payload.check_run = { ...payload.check_run, name: CHECK_RUN_NAME, external_id: batchId, head_sha: headSha };
    payload.repository = { ...payload.repository, name: REPO, full_name: FULL_NAME, owner: { ...payload.repository.owner, login: OWNER } };
    payload.installation = { id: INSTALLATION_ID, node_id: 'INST_node' };
    const scope = github.scope();
    mockInstallationToken(scope);
    // The commit's runs are read first (for what the last run reported); this one has none the App can read back.
    scope.get(`${REPO_PATH}/commits/${headSha}/check-runs`).query({ check_name: CHECK_RUN_NAME, filter: 'latest', per_page: '100' }).reply(200, { total_count: 0, check_runs: [] });
    // The commit's source is compared with the service's, which a later push has changed.
    scope.get(contentsPath('locales/en.json')).query({ ref: headSha }).reply(200, contentsAnswer('locales/en.json', SOURCE_TEXT));
    scope.post(`${REPO_PATH}/check-runs`).reply(201, { id: 91, html_url: `https://github.com/${FULL_NAME}/runs/91` });
    scope.patch(`${REPO_PATH}/check-runs/91`).reply(200, { id: 91 });

    await app.probot.receive({ name: 'check_run', id: 'delivery-rerun', payload: payload as never });

    const [created] = github.bodies('POST', `${REPO_PATH}/check-runs`);
    expect(created).toMatchObject({ name: CHECK_RUN_NAME, head_sha: headSha, external_id: batchId, status: 'in_progress' });
    const [update] = github.bodies('PATCH', `${REPO_PATH}/check-runs/91`);
    expect(update).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect((update!.output as { summary: string }).summary).toContain(`\`locales/en.json\` at this commit (${headSha.slice(0, 7)}) differs from the source Parlance holds now`);
    const annotations = (update?.output as { annotations: { path: string; start_line: number; annotation_level: string; title: string }[] }).annotations;
    // "cart.empty" is on line 3 of the source file; one annotation names every locale it is flagged in.
    expect(annotations).toEqual([expect.objectContaining({ path: 'locales/en.json', start_line: 3, annotation_level: 'warning', title: 'Flagged (de, fr, ja): cart.empty' })]);
    await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: null } });
  });
});

describe('installation events', () => {
  it('installation.deleted disables the installation\'s links', async () => {
    app = await newApp();
    const other = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: 777, repository: 'acme/other', base_branch: 'main', config_path: 'parlance.yml' } });
    expect(other.status).toBe(201);
    const payload = example('installation', 'deleted');
    payload.installation = { ...payload.installation, id: 777 };

    await app.probot.receive({ name: 'installation', id: 'delivery-uninstall', payload: payload as never });

    const links = (await (await service.api('/v1/integrations/github')).json()) as { items: (Link & { repository: string })[] };
    expect(links.items.find((l) => l.repository === 'acme/other')).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('uninstalled') });
    expect(links.items.find((l) => l.repository === FULL_NAME)).toMatchObject({ enabled: true });
  });

  it('installation_repositories.removed disables only the removed repository\'s links', async () => {
    app = await newApp();
    const created = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: 778, repository: 'acme/docs', base_branch: 'main', config_path: 'parlance.yml' } });
    expect(created.status).toBe(201);
    const payload = example('installation_repositories', 'removed');
    payload.installation = { ...payload.installation, id: 778 };
    payload.repositories_removed = [{ id: 1, node_id: 'R_1', name: 'docs', full_name: 'acme/docs', private: false }];

    await app.probot.receive({ name: 'installation_repositories', id: 'delivery-removed', payload: payload as never });

    const links = (await (await service.api('/v1/integrations/github')).json()) as { items: (Link & { repository: string })[] };
    expect(links.items.find((l) => l.repository === 'acme/docs')).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('lost access') });
  });
});

describe('Parlance events at /events', () => {
  const body = JSON.stringify({ id: 'evt_01', type: 'batch.completed', created_at: new Date().toISOString(), project: { id: 'prj_x', name: 'Web' }, data: {} });

  it('refuses unsigned, badly signed and stale deliveries with 401, before any GitHub request', async () => {
    app = await newApp();
    const now = Math.floor(Date.now() / 1000);
    const secret = service.runtime.githubLinks.decryptWebhookSecret((await service.runtime.githubLinks.linksForProject(service.projectId)).find((l) => l.id === link.id)!);
    const cases = [
      { headers: {}, expected: 'Missing webhook-id header' },
      { headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(now), 'webhook-signature': `v1,${Buffer.from('forged').toString('base64')}` }, expected: 'No signature in webhook-signature matches message msg_1' },
      { headers: { 'webhook-id': 'msg_2', 'webhook-timestamp': String(now - 600), 'webhook-signature': signature(secret, 'msg_2', now - 600, body) }, expected: /is 60\d s old; tolerance is 300 s/ },
    ];
    for (const c of cases) {
      const result = await app.handleParlanceEvent({ headers: c.headers, body, query: { link: link.id } });
      expect(result.status).toBe(401);
      // The stale case's age is counted when the check runs, a second or more after `now` on a busy machine.
      expect((result.body as { error: string }).error).toMatch(c.expected);
    }
    expect(github.sent).toEqual([]);
  });

  it('answers 404 for a link that does not exist and 400 without one', async () => {
    app = await newApp();
    expect((await app.handleParlanceEvent({ headers: {}, body, query: { link: 'ghl_missing' } })).status).toBe(404);
    expect((await app.handleParlanceEvent({ headers: {}, body, query: {} })).status).toBe(400);
  });
});

describe('the repository path rule on a push', () => {
  /** The repository at one commit with its own parlance.yml. */
  function mockRepositoryWith(commit: string, config: string, files: Record<string, string>) {
    const scope = github.scope();
    mockInstallationToken(scope);
    scope.get(contentsPath('parlance.yml')).query({ ref: commit }).reply(200, contentsAnswer('parlance.yml', config));
    scope.get(`${REPO_PATH}/git/trees/${commit}`).query({ recursive: 'true' }).reply(200, treeAnswer(sha(`${commit}-tree`), { 'parlance.yml': config, ...files }));
    return scope;
  }

  async function pushedPaths(): Promise<string[]> {
    return ((await (await service.api('/v1/files')).json()) as { items: { path: string }[] }).items.map((f) => f.path);
  }

  it('neither reads nor pushes a source file whose name fails the rule (git allows a backslash or a control character)', async () => {
    app = await newApp();
    const after = sha('push-hostile-names');
    const config = "files:\n  - source: 'web/*.json'\n    translation: 'web/{locale}/{name}.json'\n";
    const files = { 'web/app.json': SOURCE_TEXT, 'web/..\\..\\evil.json': SOURCE_TEXT, 'web/bell\u0007.json': SOURCE_TEXT };
    const scope = mockRepositoryWith(after, config, files);
    // Only the good file is read; a request for another would find no interceptor and fail the delivery.
    scope.get(contentsPath('web/app.json')).query({ ref: after }).reply(200, contentsAnswer('web/app.json', SOURCE_TEXT));

    await app.probot.receive({ name: 'push', id: 'delivery-push-hostile-names', payload: pushPayload({ after, commits: [{ message: 'Add strings', added: Object.keys(files) }] }) as never });

    const paths = await pushedPaths();
    expect(paths).toContain('web/app.json');
    expect(paths.filter((p) => p.includes('\\') || p.includes('\u0007'))).toEqual([]);
    expect(github.sent.filter((r) => new URL(r.url).pathname.includes('/contents/')).map((r) => decodeURIComponent(new URL(r.url).pathname))).toEqual([
      `${REPO_PATH}/contents/parlance.yml`,
      `${REPO_PATH}/contents/web/app.json`,
    ]);
  });

  it('refuses a parlance.yml whose template leads out of the repository: nothing read, nothing pushed, a failing check run at the line, the delivery answered', async () => {
    app = await newApp();
    const after = sha('push-hostile-template');
    const config = "files:\n  - source: 'locales/en.json'\n    translation: '../../{locale}.json'\n";
    const scope = github.scope();
    mockInstallationToken(scope);
    scope.get(contentsPath('parlance.yml')).query({ ref: after }).reply(200, contentsAnswer('parlance.yml', config));
    scope.post(`${REPO_PATH}/check-runs`).reply(201, { id: 93, html_url: `https://github.com/${FULL_NAME}/runs/93` });
    const before = await pushedPaths();
    const batches = ((await (await service.api('/v1/batches?limit=100')).json()) as { items: unknown[] }).items.length;

    // Answered, not thrown: a redelivery would meet the same file. The error goes to the commit as a check run.
    await app.probot.receive({ name: 'push', id: 'delivery-push-hostile-template', payload: pushPayload({ after, commits: [{ message: 'Move translations', modified: ['locales/en.json'] }] }) as never });
    const [run] = github.bodies('POST', `${REPO_PATH}/check-runs`);
    expect(run).toMatchObject({ name: 'Parlance configuration', head_sha: after, status: 'completed', conclusion: 'failure' });
    expect((run!.output as { annotations: unknown[] }).annotations).toEqual([
      expect.objectContaining({ path: 'parlance.yml', start_line: 3, start_column: 18, annotation_level: 'failure', message: expect.stringContaining("parlance.yml:3:18: files[0].translation: Invalid path '../../{locale}.json': '..' segments are not allowed") }),
    ]);

    expect(await pushedPaths()).toEqual(before);
    expect(((await (await service.api('/v1/batches?limit=100')).json()) as { items: unknown[] }).items).toHaveLength(batches);
    expect(github.sent.map((r) => `${r.method} ${decodeURIComponent(new URL(r.url).pathname)}`)).toEqual([
      `POST /app/installations/${INSTALLATION_ID}/access_tokens`,
      `GET ${REPO_PATH}/contents/parlance.yml`,
      `POST ${REPO_PATH}/check-runs`,
    ]);
  });
});
