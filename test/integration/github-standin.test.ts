/**
 * The GitHub App against the stateful GitHub stand-in (test/helpers/github-standin.ts), reached only through the
 * GitHub Enterprise setting (GITHUB_API_URL → Probot's baseUrl, an `/api/v3` prefix): a person's pushes arrive as
 * signed `push` webhooks, the service translates with the mock provider, and each scenario asserts the stand-in's
 * final git state (branches, commits, files, pull requests, check runs) and reports the calls it took.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProbotOctokit } from 'probot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGithubApp, GITHUB_WEBHOOKS_PATH, type GithubApp, type ParlanceEventRequest, type ParlanceEventResponse } from '../../server/github-app/app.js';
import { requestHandler } from '../../server/github-app/server.js';
import { createLogger } from '../../server/logger.js';
import { APP_ID, APP_SLUG, INSTALLATION_ID, OWNER, REPO, appPrivateKey } from '../fixtures/github/repository.js';
import { startGithubStandin, type GithubStandin } from '../helpers/github-standin.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { startService, type TestService } from '../helpers/service.js';

const WEBHOOK_SECRET = 'standin-webhook-secret';
const LOCALES = ['de', 'fr', 'ja'];
const CONFIG = [
  'files:',
  '  - source: locales/en.json',
  '    translation: locales/{locale}.json',
  '  - source: checkout/en.json',
  '    translation: checkout/{locale}.json',
  '',
].join('\n');
const CART = { 'cart.title': 'Your cart', 'cart.empty': 'Your cart is empty', 'cart.items': 'You have {count} items in your cart' };
const CHECKOUT = { 'checkout.pay': 'Pay now', 'checkout.total': 'Total' };
const json = (value: Record<string, string>) => `${JSON.stringify(value, null, 2)}\n`;

/** What the mock provider makes of a source text: upper case outside placeholders, prefixed with the locale. */
const translated = (text: string, locale: string) => `${locale}: ${text.replace(/\{[^}]*\}|[^{]+/g, (part) => (part.startsWith('{') ? part : part.toUpperCase()))}`;
const expectedFile = (source: Record<string, string>, locale: string) => Object.fromEntries(Object.entries(source).map(([k, v]) => [k, translated(v, locale)]));

interface Handled {
  type: string;
  batch: string | undefined;
  status: number;
}

const handled: Handled[] = [];
const waiters: (() => void)[] = [];
const callsPerScenario: Record<string, Record<string, number>> = {};
let github: GithubStandin;
let mock: MockOpenAI;
let service: TestService;
let appServer: Server;
let app: GithubApp;

/** Resolves once the App has answered `count` batch.completed deliveries (200) since `from`; a failed one is reported, not waited out. */
async function batchesHandled(from: number, count: number, timeoutMs = 60_000): Promise<Handled[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = handled.slice(from).filter((h) => h.type === 'batch.completed');
    const done = seen.filter((h) => h.status === 200);
    if (done.length >= count) return done;
    if (Date.now() > deadline) throw new Error(`${done.length} of ${count} batch.completed deliveries handled; answers: ${JSON.stringify(seen)}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, deadline - Date.now());
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * A person's push to main, answered by the App; then every batch it started answered, and the stand-in in the state
 * `ready` expects (the App may finish its writes after answering a delivery), and every webhook the App's writes
 * caused delivered.
 */
async function personPushes(files: Record<string, string | null>, batches: number, message: string, ready: (pushed: string) => void) {
  const from = handled.length;
  const pushed = await github.push({ files, login: 'octocat', message });
  expect(pushed.delivery?.status).toBe(200);
  const done = await batchesHandled(from, batches);
  await vi.waitFor(() => ready(pushed.sha), { timeout: 30_000, interval: 50 });
  // A job whose first attempt failed is retried by the App 2 s later, after the branch may already look ready: the
  // scenario ends when no job is left, so a late retry cannot land a commit on the next scenario's main.
  await app.idle();
  await github.settled();
  return { sha: pushed.sha, batches: done.map((d) => d.batch) };
}

/** parlance/main holds the translations of these sources, a pull request is open, and the pushed commit's check runs are done. */
function translationsShown(sources: Record<string, Record<string, string>>) {
  return (pushed: string) => {
    const files = github.files('parlance/main');
    for (const [dir, source] of Object.entries(sources)) {
      for (const locale of LOCALES) expect(JSON.parse(files[`${dir}/${locale}.json`] ?? '{}')).toEqual(expectedFile(source, locale));
    }
    expect(github.pulls.filter((pr) => pr.state === 'open')).toHaveLength(1);
    const runs = github.checkRuns.filter((r) => r.head_sha === pushed);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(run.status).toBe('completed');
  };
}

/** The service's translations matching a query, as sorted `key/locale=text` lines. */
async function rows(query: string): Promise<string[]> {
  const answer = await service.api(`/v1/translations?${query}&limit=500`);
  expect(answer.status).toBe(200);
  const { items } = (await answer.json()) as { items: { key: string; locale: string; text: string }[] };
  return items.map((r) => `${r.key}/${r.locale}=${r.text}`).sort();
}
const humanRows = () => rows('state=human');

function parlanceCommits() {
  return github.log('parlance/main', 'main');
}

beforeAll(async () => {
  mock = await startMockOpenAI();
  const privateKey = appPrivateKey();
  github = await startGithubStandin({ owner: OWNER, repo: REPO, installationId: INSTALLATION_ID, appId: APP_ID, appSlug: APP_SLUG, appPrivateKey: privateKey });

  const late: { handle?: (req: IncomingMessage, res: ServerResponse) => Promise<void> } = {};
  appServer = createServer((req, res) => {
    if (late.handle) void late.handle(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  const appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;

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
  // The setting reached the configuration as the App will use it.
  expect(service.config.githubApp.apiUrl).toBe(github.apiUrl);

  const log = createLogger('silent');
  app = await createGithubApp({
    db: service.runtime.db,
    links: service.runtime.githubLinks,
    serviceUrl: service.url,
    log,
    logLevel: 'silent',
    appId: APP_ID,
    privateKey,
    webhookSecret: WEBHOOK_SECRET,
    githubApiUrl: service.config.githubApp.apiUrl,
    // Probot's throttle spaces writes a second apart; without it a scenario takes seconds, not tens of seconds.
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({ ...options, retry: { enabled: false }, throttle: { enabled: false } })),
  });
  async function recordEvent(request: ParlanceEventRequest): Promise<ParlanceEventResponse> {
    let status = 500;
    try {
      const answer = await app.handleParlanceEvent(request);
      status = answer.status;
      return answer;
    } finally {
      const event = JSON.parse(request.body) as { type?: string; data?: { batch?: { id?: string } } };
      handled.push({ type: event.type ?? '?', batch: event.data?.batch?.id, status });
      for (const wake of waiters.splice(0)) wake();
    }
  }
  late.handle = requestHandler({ middleware: app.middleware, handleParlanceEvent: recordEvent }, log);
  github.setWebhook(`${appUrl}${GITHUB_WEBHOOKS_PATH}`, WEBHOOK_SECRET);

  const linked = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: INSTALLATION_ID, repository: `${OWNER}/${REPO}`, base_branch: 'main', config_path: 'parlance.yml' } });
  expect(linked.status).toBe(201);
  github.seed({ 'parlance.yml': CONFIG, 'README.md': '# Shop\n' });
}, 60_000);

afterAll(async () => {
  console.log(`GitHub calls per scenario (stand-in):\n${JSON.stringify(callsPerScenario, null, 2)}`);
  await github?.close();
  await service?.stop();
  appServer?.closeAllConnections();
  await new Promise<void>((resolve) => appServer.close(() => resolve()));
  await mock?.close();
});

describe.sequential('the App against the GitHub stand-in, through GITHUB_API_URL', () => {
  it('first push with two source files: parlance/main holds every target file in Parlance commits on main, with one pull request', async () => {
    github.calls.reset();
    const { sha: pushed, batches } = await personPushes(
      { 'locales/en.json': json(CART), 'checkout/en.json': json(CHECKOUT) },
      2,
      'Add sources',
      translationsShown({ locales: CART, checkout: CHECKOUT }),
    );
    callsPerScenario['first push, two sources'] = github.calls.byRoute();

    expect(new Set(batches).size).toBe(2);
    expect(github.branches()).toEqual(['main', 'parlance/main']);
    const files = github.files('parlance/main');
    for (const locale of LOCALES) {
      expect(JSON.parse(files[`locales/${locale}.json`]!)).toEqual(expectedFile(CART, locale));
      expect(JSON.parse(files[`checkout/${locale}.json`]!)).toEqual(expectedFile(CHECKOUT, locale));
    }
    // Everything else is main's, untouched.
    expect(Object.keys(files).sort()).toEqual(['README.md', 'checkout/de.json', 'checkout/en.json', 'checkout/fr.json', 'checkout/ja.json', 'locales/de.json', 'locales/en.json', 'locales/fr.json', 'locales/ja.json', 'parlance.yml']);
    const commits = parlanceCommits();
    // One commit, or one per batch when the second builds on the first: never more, always a line from main's head.
    expect(commits.length).toBeGreaterThanOrEqual(1);
    expect(commits.length).toBeLessThanOrEqual(2);
    expect(commits[0]!.parents).toEqual([pushed]);
    for (const [i, c] of commits.entries()) {
      expect(c.committer).toMatchObject({ login: `${APP_SLUG}[bot]`, type: 'Bot' });
      expect(c.message).toMatch(/^Parlance-Batch: \S+$/m);
      if (i > 0) expect(c.parents).toEqual([commits[i - 1]!.sha]);
    }
    // No write was lost in a race: every commit the App made is on a branch.
    expect(github.unreachableCommits()).toEqual([]);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]).toMatchObject({ state: 'open', head: 'parlance/main', base: 'main', title: 'Parlance: update translations for main' });
    for (const run of github.checkRuns) expect(run).toMatchObject({ name: 'Parlance quality gates', status: 'completed', conclusion: 'success' });
    expect(github.checkRuns.map((r) => r.head_sha)).toContain(github.head('parlance/main'));
    expect(github.problems).toEqual([]);
    expect(github.deliveries.filter((d) => d.status !== 200)).toEqual([]);
  });

  it('a source change: the same pull request, a new Parlance commit on the new main with the new translation', async () => {
    github.calls.reset();
    const before = github.head('parlance/main');
    const changed = { ...CART, 'cart.empty': 'Nothing in your cart yet' };
    const { sha: pushed, batches } = await personPushes({ 'locales/en.json': json(changed) }, 1, 'Reword the empty cart', translationsShown({ locales: changed, checkout: CHECKOUT }));
    callsPerScenario['source change'] = github.calls.byRoute();

    expect(github.head('parlance/main')).not.toBe(before);
    const files = github.files('parlance/main');
    for (const locale of LOCALES) {
      expect(JSON.parse(files[`locales/${locale}.json`]!)).toEqual(expectedFile(changed, locale));
      expect(JSON.parse(files[`checkout/${locale}.json`]!)).toEqual(expectedFile(CHECKOUT, locale));
    }
    expect(files['locales/en.json']).toBe(json(changed));
    // main moved with the source change and the branch held only Parlance's commits: one commit on main's new head.
    const commits = parlanceCommits();
    expect(commits.map((c) => c.parents), commits.map((c) => `${c.sha.slice(0, 7)} ${c.message}`).join('\n---\n')).toEqual([[pushed]]);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]!.state).toBe('open');
    expect(github.pulls[0]!.body).toContain(`\`${batches[0]}\``);
    expect(github.problems).toEqual([]);
  });

  it('base moved by a commit that is no source: the next batch rebuilds parlance/main on it, keeping its files', async () => {
    const readme = await github.push({ files: { 'README.md': '# Shop\n\nNow with checkout.\n', 'docs/guide.md': 'Guide\n' }, message: 'Docs' });
    expect(readme.delivery?.status).toBe(200);
    await github.settled();
    // Not a source: no batch, so the branch still stands on the old main.
    expect(github.log('main', 'parlance/main').map((c) => c.sha)).toEqual([readme.sha]);

    github.calls.reset();
    const changed = { ...CHECKOUT, 'checkout.total': 'Order total' };
    const { sha: pushed } = await personPushes({ 'checkout/en.json': json(changed) }, 1, 'Rename total', translationsShown({ locales: { ...CART, 'cart.empty': 'Nothing in your cart yet' }, checkout: changed }));
    callsPerScenario['base moved, rebuilt'] = github.calls.byRoute();

    const commits = parlanceCommits();
    expect(commits.map((c) => c.parents)).toEqual([[pushed]]);
    // Nothing of main is missing from the branch (behind by none), and the docs came along.
    expect(github.log('main', 'parlance/main')).toEqual([]);
    const files = github.files('parlance/main');
    expect(files['README.md']).toBe('# Shop\n\nNow with checkout.\n');
    expect(files['docs/guide.md']).toBe('Guide\n');
    for (const locale of LOCALES) expect(JSON.parse(files[`checkout/${locale}.json`]!)).toEqual(expectedFile(changed, locale));
    expect(github.pulls).toHaveLength(1);
    expect(github.problems).toEqual([]);
  });

  it('a 500 from GitHub on tree creation: the work is done again, with no dangling ref or lost commit', async () => {
    const previous = github.head('parlance/main')!;
    const unreachableBefore = new Set(github.unreachableCommits());
    github.calls.reset();
    github.inject({ at: (method, _path, _count, route) => method === 'POST' && route === '/repos/{owner}/{repo}/git/trees', do: 'fail500' });
    const cart = { ...CART, 'cart.empty': 'Nothing in your cart yet', 'cart.title': 'Your basket' };
    const { sha: pushed } = await personPushes({ 'locales/en.json': json(cart) }, 1, 'Basket', translationsShown({ locales: cart, checkout: { ...CHECKOUT, 'checkout.total': 'Order total' } }));
    callsPerScenario['500 on tree creation'] = github.calls.byRoute();

    expect(github.calls.byRoute()['POST /repos/{owner}/{repo}/git/trees']).toBeGreaterThanOrEqual(2);
    expect(github.branches()).toEqual(['main', 'parlance/main']);
    expect(parlanceCommits().map((c) => c.parents)).toEqual([[pushed]]);
    // Only the replaced Parlance commit left the branch (a rebuild on the moved main); nothing the App wrote is adrift.
    expect(github.unreachableCommits().filter((c) => !unreachableBefore.has(c))).toEqual([previous]);
    expect(github.pulls).toHaveLength(1);
    expect(github.problems).toEqual([]);
  });

  it("a person's commit on parlance/main: the next batch builds on it, never forces over it, and names it in a comment", async () => {
    const de = JSON.parse(github.files('parlance/main')['checkout/de.json']!) as Record<string, string>;
    const edit = await github.push({ branch: 'parlance/main', files: { 'checkout/de.json': json({ ...de, 'checkout.pay': 'Jetzt bezahlen' }) }, login: 'translator', message: 'Better German' });
    expect(edit.delivery?.status).toBe(200);
    // The App imports the edit (a push to parlance/main by a person) before the next source change comes in.
    await app.idle();
    await github.settled();

    github.calls.reset();
    const cart = { ...CART, 'cart.empty': 'Your basket is empty', 'cart.title': 'Your basket' };
    await personPushes({ 'locales/en.json': json(cart) }, 1, 'Basket again', (pushed) => {
      const files = github.files('parlance/main');
      for (const locale of LOCALES) expect(JSON.parse(files[`locales/${locale}.json`]!)).toEqual(expectedFile(cart, locale));
      expect(github.comments).toHaveLength(1);
      for (const run of github.checkRuns.filter((r) => r.head_sha === pushed)) expect(run.status).toBe('completed');
    });
    callsPerScenario["a person's commit on the branch"] = github.calls.byRoute();

    const history = parlanceCommits();
    expect(history.map((c) => c.sha)).toContain(edit.sha);
    expect(history.at(-1)!.committer.type).toBe('Bot');
    expect(github.comments[0]).toMatchObject({ issue: github.pulls[0]!.number, user: { type: 'Bot' } });
    expect(github.comments[0]!.body).toContain(edit.sha.slice(0, 7));
    expect(github.comments[0]!.body).toContain('@translator');
    expect(github.pulls).toHaveLength(1);
    expect(github.problems).toEqual([]);
  });

  // The stand-in has what the remaining scenarios need (push/inject/redeliver/rerequest/unreachableCommits).
  // Covered elsewhere: a person pushing during the App's write and 300 target files (github-concurrency.test.ts); a
  // refused row, fix and Re-run, and a broken parlance.yml (github-checks.test.ts).
  it("a person's commit on parlance/main: its changed values imported as human translations, and kept in the file by the next commit", async () => {
    await app.idle();
    const humanBefore = await humanRows();
    const fr = JSON.parse(github.files('parlance/main')['locales/fr.json']!) as Record<string, string>;
    github.calls.reset();
    const edit = await github.push({ branch: 'parlance/main', files: { 'locales/fr.json': json({ ...fr, 'cart.title': 'Votre panier (revu)' }) }, login: 'traductrice', message: 'Better French title' });
    expect(edit.delivery?.status).toBe(200);
    // The push is handled once the App is idle: only the value the person changed is human now, the file's other (machine) values are not.
    await app.idle();
    expect(await humanRows()).toEqual([...humanBefore, 'cart.title/fr=Votre panier (revu)'].sort());
    await github.settled();

    // cart.title's source stays as it was when the person edited its French; the other keys change.
    const cart = { ...CART, 'cart.title': 'Your basket', 'cart.empty': 'The basket is empty', 'cart.items': 'You have {count} items in your basket' };
    expect(JSON.parse(github.files('main')['locales/en.json']!)['cart.title']).toBe(cart['cart.title']);
    await personPushes({ 'locales/en.json': json(cart) }, 1, 'Basket, third pass', (pushed) => {
      const files = github.files('parlance/main');
      expect(JSON.parse(files['locales/fr.json']!)).toEqual({ ...expectedFile(cart, 'fr'), 'cart.title': 'Votre panier (revu)' });
      expect(JSON.parse(files['locales/de.json']!)).toEqual(expectedFile(cart, 'de'));
      for (const run of github.checkRuns.filter((r) => r.head_sha === pushed)) expect(run.status).toBe('completed');
    });
    callsPerScenario["a person's commit on the branch, imported"] = github.calls.byRoute();

    const history = parlanceCommits();
    expect(history.map((c) => c.sha)).toContain(edit.sha);
    // The App's commit came after the person's and built on it, never over it.
    const last = history.at(-1)!;
    expect(last.committer.type).toBe('Bot');
    expect(history.findIndex((c) => c.sha === edit.sha)).toBeLessThan(history.length - 1);
    const files = github.files('parlance/main');
    // The other French values were translated again for the new sources; the person's title stands, as they wrote it.
    expect(JSON.parse(files['locales/fr.json']!)).toEqual({ ...expectedFile(cart, 'fr'), 'cart.title': 'Votre panier (revu)' });
    // The earlier edit on the branch (checkout.pay in German) is human and still in the file.
    expect(JSON.parse(files['checkout/de.json']!)['checkout.pay']).toBe('Jetzt bezahlen');
    expect(await humanRows()).toContain('checkout.pay/de=Jetzt bezahlen');
    expect(github.unreachableCommits().filter((c) => history.some((h) => h.sha === c))).toEqual([]);
    expect(github.problems).toEqual([]);
  });

  it('a hand edit on main with the pull request open: only the edited key becomes a human translation', async () => {
    // main holds the German file as the translation pull request once delivered it (added without a push event).
    const machineDe = github.files('parlance/main')['locales/de.json']!;
    github.seed({ 'locales/de.json': machineDe }, 'main', 'Translations from an earlier pull request');
    // A source change: the open pull request gets the new German, main's file now lags for cart.empty and cart.items.
    const cart = { ...CART, 'cart.title': 'Your basket', 'cart.empty': 'Your basket has nothing in it', 'cart.items': '{count} items in your basket' };
    await personPushes({ 'locales/en.json': json(cart) }, 1, 'Basket, fourth pass', (pushed) => {
      expect(JSON.parse(github.files('parlance/main')['locales/de.json']!)).toEqual(expectedFile(cart, 'de'));
      for (const run of github.checkRuns.filter((r) => r.head_sha === pushed)) expect(run.status).toBe('completed');
    });
    const lagging = JSON.parse(github.files('main')['locales/de.json']!) as Record<string, string>;
    expect(lagging['cart.empty']).not.toBe(translated(cart['cart.empty'], 'de'));

    await app.idle();
    const humanBefore = await humanRows();
    github.calls.reset();
    const edit = await github.push({ files: { 'locales/de.json': json({ ...lagging, 'cart.title': 'Ihr Korb' }) }, login: 'uebersetzer', message: 'German title by hand' });
    expect(edit.delivery?.status).toBe(200);
    await app.idle();
    expect(await humanRows()).toEqual([...humanBefore, 'cart.title/de=Ihr Korb'].sort());
    await github.settled();
    callsPerScenario['hand edit on main, pull request open'] = github.calls.byRoute();

    // The lagging keys kept their machine translation of the current source: not locked as human with old text.
    const de = await rows('state=accepted&locale=de&path=locales%2Fen.json');
    expect(de).toEqual(expect.arrayContaining([`cart.empty/de=${translated(cart['cart.empty'], 'de')}`, `cart.items/de=${translated(cart['cart.items'], 'de')}`]));

    // The next batch: the pull request's German file has the hand-made title and the current machine values.
    const later = { ...cart, 'cart.empty': 'Nothing here yet' };
    await personPushes({ 'locales/en.json': json(later) }, 1, 'Basket, fifth pass', (pushed) => {
      expect(JSON.parse(github.files('parlance/main')['locales/de.json']!)).toEqual({ ...expectedFile(later, 'de'), 'cart.title': 'Ihr Korb' });
      for (const run of github.checkRuns.filter((r) => r.head_sha === pushed)) expect(run.status).toBe('completed');
    });
    expect(github.files('main')['locales/de.json']).toBe(json({ ...lagging, 'cart.title': 'Ihr Korb' }));
    expect(github.pulls.filter((pr) => pr.state === 'open')).toHaveLength(1);
    expect(github.pulls[0]!.body).toContain('cart.title');
    expect(github.problems).toEqual([]);
  });
  it("merging the translation pull request into main: the App's values are not imported as human; a fix made while merging is", async () => {
    await app.idle();
    const humanBefore = await humanRows();
    const branchFiles = github.files('parlance/main');
    expect(parlanceCommits().at(-1)!.committer.type).toBe('Bot');
    // Both sides changed the German file since they parted: the person resolves it with the pull request's version and one fix.
    const resolvedDe = { ...(JSON.parse(branchFiles['locales/de.json']!) as Record<string, string>), 'cart.items': 'Sie haben {count} Artikel im Korb' };
    github.calls.reset();
    const merge = await github.merge({ head: 'parlance/main', login: 'maintainer', message: 'Merge pull request #1 from acme/parlance/main', resolve: { 'locales/de.json': json(resolvedDe) } });
    expect(merge.delivery?.status).toBe(200);
    await app.idle();
    await github.settled();
    callsPerScenario['translation pull request merged'] = github.calls.byRoute();

    // main now holds every target file the App wrote (fr, ja and checkout added by the merge), yet only the fix is human.
    const main = github.files('main');
    expect(main['locales/fr.json']).toBe(branchFiles['locales/fr.json']);
    expect(main['checkout/ja.json']).toBe(branchFiles['checkout/ja.json']);
    expect(github.log('main').find((c) => c.sha === merge.sha)?.parents).toEqual([expect.any(String), github.head('parlance/main')]);
    expect(await humanRows()).toEqual([...humanBefore, 'cart.items/de=Sie haben {count} Artikel im Korb'].sort());
    expect(github.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    expect(github.problems).toEqual([]);
  });

  // The same delivery twice, and a redelivery after a failed job (one commit, one check run): github-deliveries.test.ts.
});
