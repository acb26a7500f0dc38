/**
 * The GitHub App's writes to `parlance/<base>` under concurrency, against the stateful GitHub stand-in
 * (test/helpers/github-standin.ts): two batch.completed jobs for one branch at once (serialised: two commits in a chain,
 * no orphan, one pull request), a person pushing to the branch while the App writes (kept and built upon, on the
 * fast-forward and on the rebuild path), and the calls a job makes (blobs only for changed files, at 300 files).
 */
import { randomBytes } from 'node:crypto';
import { Probot, ProbotOctokit } from 'probot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { createAppMemory } from '../../server/github-app/handlers/app-memory.js';
import { branchLockKey, handleBatchCompleted, withBranchLock } from '../../server/github-app/handlers/batch-completed.js';
import type { GithubLink } from '../../server/github-app/links.js';
import type { BatchReport, ProjectRef } from '../../server/github-app/pr-body.js';
import { syncTranslationPullRequest, type GitHubClient, type TargetFile } from '../../server/github-app/translation-pr.js';
import { APP_ID, APP_SLUG, INSTALLATION_ID, OWNER, REPO, SOURCE_TEXT, appPrivateKey } from '../fixtures/github/repository.js';
import { startGithubStandin, type GithubStandin } from '../helpers/github-standin.js';
import { filePush, startService, waitForBatch, type TestService } from '../helpers/service.js';

const CONFIG = [
  'files:',
  '  - source: locales/en.json',
  '    translation: locales/{locale}.json',
  '  - source: web/en.json',
  '    translation: web/{locale}.json',
  '',
].join('\n');
const WEB_TEXT = '{\n  "nav.home": "Home",\n  "nav.account": "Your account"\n}\n';

const project: ProjectRef = { name: 'Web', url: 'https://parlance.example.com/v1/project' };
const report = (id: string): BatchReport => ({ id, url: `https://parlance.example.com/v1/batches/${id}`, locales: [{ locale: 'de', translated: 1, refused: 0, flagged: 0, words: 2 }] });
const bytes = (text: string) => new TextEncoder().encode(text);
const files = (texts: Record<string, string>): TargetFile[] => Object.entries(texts).map(([path, text]) => ({ path, content: bytes(text) }));

let standin: GithubStandin;
let service: TestService;
let octokit: GitHubClient;

/** The git routes a job may call, for the per-scenario call counts (check runs are another part's business). */
function gitCalls(): Record<string, number> {
  return Object.fromEntries(Object.entries(standin.calls.byRoute()).filter(([route]) => !route.includes('check-runs') && !route.includes('access_tokens')));
}

beforeAll(async () => {
  const privateKey = appPrivateKey();
  standin = await startGithubStandin({ owner: OWNER, repo: REPO, installationId: INSTALLATION_ID, appId: APP_ID, appSlug: APP_SLUG, appPrivateKey: privateKey });
  // An installation token from the stand-in, as the App gets one: Probot signs a JWT and exchanges it.
  const probot = new Probot({
    appId: APP_ID,
    privateKey,
    baseUrl: standin.apiUrl,
    logLevel: 'fatal',
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({ ...options, retry: { enabled: false }, throttle: { enabled: false } })),
  });
  octokit = (await probot.auth(INSTALLATION_ID)) as unknown as GitHubClient;
  service = await startService({
    env: { PARLANCE_SECRET_KEY: randomBytes(32).toString('base64'), GITHUB_APP_EVENTS_URL: 'http://127.0.0.1:9/events', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_RETRY_DELAYS: '1h', RATE_LIMIT_PER_MINUTE: '100000' },
  });
});

afterAll(async () => {
  await service?.stop();
  await standin?.close();
});

describe('one writer per repository branch', () => {
  it('two batch.completed jobs for the same branch at once: two commits in a chain, no orphan, one pull request', async () => {
    const mainHead = standin.seed({ 'parlance.yml': CONFIG, 'locales/en.json': SOURCE_TEXT, 'web/en.json': WEB_TEXT });
    const created = await service.api('/v1/integrations/github', { method: 'POST', json: { installation_id: INSTALLATION_ID, repository: `${OWNER}/${REPO}`, base_branch: 'main', config_path: 'parlance.yml' } });
    expect(created.status).toBe(201);
    const links = service.runtime.githubLinks;
    const { id: linkId } = (await created.json()) as { id: string };
    const link = (await links.linksForProject(service.projectId)).find((l) => l.id === linkId) as GithubLink;
    const client = createClient({ baseUrl: service.url, token: links.decryptToken(link), userAgent: 'parlance-github-app' });

    // One push of two source files: two batches.
    const batchOf = async (text: string, path: string) => {
      const res = await service.api('/v1/push', { method: 'POST', body: filePush(text, { path }) });
      expect(res.status).toBe(202);
      const { id } = (await res.json()) as { id: string };
      expect((await waitForBatch(service, id)).status).toBe('completed');
      return id;
    };
    const batchA = await batchOf(SOURCE_TEXT, 'locales/en.json');
    const batchB = await batchOf(WEB_TEXT, 'web/en.json');

    // While the first job uploads its blobs, the web source changes again and its batch completes: the files the
    // second job pulls differ, so it must commit, and must do so on top of the first job's commit.
    const WEB_CHANGED = WEB_TEXT.replace('Your account', 'Your profile');
    standin.inject({
      at: (method, path) => method === 'POST' && path.endsWith('/git/blobs'),
      do: async () => void (await batchOf(WEB_CHANGED, 'web/en.json')),
    });
    standin.calls.reset();
    const memory = createAppMemory();
    const job = (batchId: string) => handleBatchCompleted({ octokit, client, link, batchId, serviceUrl: service.url, memory });
    const [first, second] = await Promise.all([job(batchA), job(batchB)]);

    expect(first.sync.action).toBe('created');
    expect(second.sync.action).toBe('updated');
    const log = standin.log('parlance/main', 'main');
    expect(log.map((c) => c.parents)).toEqual([[mainHead], [log[0]!.sha]]);
    expect(log.map((c) => c.message.split('\n').at(-1))).toEqual([`Parlance-Batch: ${batchA}`, `Parlance-Batch: ${batchB}`]);
    expect(log.every((c) => c.committer.type === 'Bot')).toBe(true);
    expect([first.sync.commit, second.sync.commit]).toEqual(log.map((c) => c.sha));
    expect(standin.head('parlance/main')).toBe(log[1]!.sha);
    // No commit was made that no ref reaches: neither job lost a race for the ref.
    expect(standin.unreachableCommits()).toEqual([]);
    expect(standin.pulls.filter((pr) => pr.head === 'parlance/main')).toEqual([expect.objectContaining({ state: 'open', base: 'main' })]);
    const after = standin.files('parlance/main');
    expect(Object.keys(after).sort()).toEqual(['locales/de.json', 'locales/en.json', 'locales/fr.json', 'locales/ja.json', 'parlance.yml', 'web/de.json', 'web/en.json', 'web/fr.json', 'web/ja.json']);
    expect(after['web/de.json']).not.toBe(standin.files(first.sync.commit!)['web/de.json']);

    // Calls for the two jobs: parlance.yml and the base tree once per job; one tree, one commit, one ref move each.
    // Blobs are uploaded once per distinct content GitHub lacks: the test provider's pseudo-translations are the same
    // in every locale, so the first job uploads two (locales/*, web/*) and the second one (the changed web/*).
    expect(gitCalls()).toEqual({
      'GET /repos/{owner}/{repo}/compare/{basehead}': 1,
      'GET /repos/{owner}/{repo}/contents/{path}': 2,
      'GET /repos/{owner}/{repo}/git/ref/{ref}': 4,
      'GET /repos/{owner}/{repo}/git/trees/{tree_sha}': 3,
      'GET /repos/{owner}/{repo}/pulls': 2,
      'PATCH /repos/{owner}/{repo}/git/refs/{ref}': 1,
      'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': 1,
      'POST /repos/{owner}/{repo}/git/blobs': 2 + 1,
      'POST /repos/{owner}/{repo}/git/commits': 2,
      'POST /repos/{owner}/{repo}/git/refs': 1,
      'POST /repos/{owner}/{repo}/git/trees': 2,
      'POST /repos/{owner}/{repo}/pulls': 1,
    });
    expect(standin.problems).toEqual([]);
  });
});

describe('the per-branch lock', () => {
  /** A job that records when it starts and ends, and finishes when told to. */
  function controlled(name: string, events: string[]) {
    let finish!: (fail?: boolean) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = (fail) => (fail ? reject(new Error(`${name} failed`)) : resolve());
    });
    return {
      finish,
      work: async () => {
        events.push(`${name} start`);
        await done;
        events.push(`${name} end`);
        return name;
      },
    };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('runs jobs of one branch one after another (a failed one releases the next), other branches at once', async () => {
    const events: string[] = [];
    const key = branchLockKey('Acme/Shop', 'main');
    expect(branchLockKey('acme/shop', 'main')).toBe(key);
    const a = controlled('a', events);
    const b = controlled('b', events);
    const c = controlled('c', events);
    const other = controlled('other', events);
    const ra = withBranchLock(key, a.work);
    const rb = withBranchLock(key, b.work);
    const rc = withBranchLock(key, c.work);
    const ro = withBranchLock(branchLockKey('acme/shop', 'release'), other.work);
    await tick();
    expect(events).toEqual(['a start', 'other start']);
    a.finish(true);
    await expect(ra).rejects.toThrow('a failed');
    await tick();
    expect(events).toEqual(['a start', 'other start', 'b start']);
    b.finish();
    expect(await rb).toBe('b');
    await tick();
    expect(events.at(-1)).toBe('c start');
    c.finish();
    other.finish();
    expect(await Promise.all([rc, ro])).toEqual(['c', 'other']);
  });

  it('a job that never ends holds the branch only up to the wait limit', async () => {
    const events: string[] = [];
    const key = branchLockKey('acme/hung', 'main');
    const hung = controlled('hung', events);
    void withBranchLock(key, hung.work);
    const next = await withBranchLock(key, async () => 'next', 50);
    expect(next).toBe('next');
    expect(events).toEqual(['hung start']);
    hung.finish();
  });
});

describe('compare-and-swap on parlance/<base>', () => {
  const DE_1 = '{"cart.title":"Warenkorb"}\n';
  const DE_2 = '{"cart.title":"Ihr Warenkorb"}\n';
  const FR_1 = '{"cart.title":"Panier"}\n';
  const FR_PERSON = '{"cart.title":"Votre panier"}\n';

  it('a person pushes between the App\'s read and its ref update: GitHub refuses the fast-forward, the App builds on the person\'s commit', async () => {
    standin.seed({ 'parlance.yml': CONFIG, 'locales/en.json': SOURCE_TEXT }, 'release');
    const sync = (batchId: string, texts: Record<string, string>) =>
      syncTranslationPullRequest({ octokit, owner: OWNER, repo: REPO, base: 'release', batch: report(batchId), project, files: files(texts) });
    const first = await sync('b1', { 'locales/de.json': DE_1, 'locales/fr.json': FR_1 });
    expect(first.action).toBe('created');

    // Just before the App's PATCH is handled, octocat pushes a fix of fr.json to the branch.
    let person: string | undefined;
    standin.inject({
      at: (method, path) => method === 'PATCH' && path.endsWith('/git/refs/heads/parlance/release'),
      do: async () => {
        person = (await standin.push({ branch: 'parlance/release', files: { 'locales/fr.json': FR_PERSON }, message: 'Better French title', login: 'octocat' })).sha;
      },
    });
    standin.calls.reset();
    // The App's files were pulled before the push: fr.json still holds the old text.
    const second = await sync('b2', { 'locales/de.json': DE_2, 'locales/fr.json': FR_1 });

    expect(person).toBeDefined();
    const log = standin.log('parlance/release', 'release');
    expect(log.map((c) => c.sha)).toEqual([first.commit, person, second.commit]);
    expect(log[2]!.parents).toEqual([person]);
    // The person's edit survives in the tree, the App's change lands beside it.
    expect(standin.files('parlance/release')).toMatchObject({ 'locales/fr.json': FR_PERSON, 'locales/de.json': DE_2 });
    expect(second).toMatchObject({ action: 'updated', head: second.commit });
    const comment = standin.comments.at(-1)!;
    expect(comment.body).toContain(`\`${person!.slice(0, 7)}\` by @octocat`);
    expect(comment.body).toContain('left as pushed: `locales/fr.json`');
    // One refused fast-forward, then one that went through; no forced update.
    expect(standin.calls.byRoute()['PATCH /repos/{owner}/{repo}/git/refs/{ref}']).toBe(2);
    expect(standin.calls.byRoute()['POST /repos/{owner}/{repo}/git/commits']).toBe(2);
    expect(standin.problems).toEqual([]);
  });

  it('base moved, only Parlance commits on the branch, and a person pushes before the forced rebuild: nothing is forced over the person\'s commit', async () => {
    standin.seed({ 'parlance.yml': CONFIG, 'locales/en.json': SOURCE_TEXT }, 'stable');
    const sync = (batchId: string, texts: Record<string, string>) =>
      syncTranslationPullRequest({ octokit, owner: OWNER, repo: REPO, base: 'stable', batch: report(batchId), project, files: files(texts) });
    const first = await sync('s1', { 'locales/de.json': DE_1 });
    // The base moves: a rebuild on it would need a forced update.
    const movedBase = standin.seed({ 'src/app.ts': 'export {};\n' }, 'stable', 'Add app');

    // The re-read right before the forced update (the branch's second read of this sync) finds a person's commit.
    let reads = 0;
    let person: string | undefined;
    standin.inject({
      at: (method, path) => method === 'GET' && path.endsWith('/git/ref/heads/parlance/stable') && ++reads === 2,
      do: async () => {
        person = (await standin.push({ branch: 'parlance/stable', files: { 'NOTES.md': 'Glossary: cart = Warenkorb\n' }, message: 'Add notes', login: 'octocat' })).sha;
      },
    });
    const second = await sync('s2', { 'locales/de.json': DE_2 });

    expect(person).toBeDefined();
    const log = standin.log('parlance/stable', 'stable');
    expect(log.map((c) => c.sha)).toEqual([first.commit, person, second.commit]);
    expect(log[2]!.parents).toEqual([person]);
    expect(standin.files('parlance/stable')).toMatchObject({ 'NOTES.md': 'Glossary: cart = Warenkorb\n', 'locales/de.json': DE_2 });
    // Not rebuilt on the moved base: that would drop the person's commit.
    expect(standin.log('parlance/stable').some((c) => c.sha === movedBase)).toBe(false);
    expect(standin.comments.at(-1)!.body).toContain(`\`${person!.slice(0, 7)}\` by @octocat`);
    expect(standin.problems).toEqual([]);
  });

  it('gives up after three rounds when the branch keeps moving, overwriting nothing', async () => {
    standin.seed({ 'parlance.yml': CONFIG, 'locales/en.json': SOURCE_TEXT }, 'busy');
    const sync = (batchId: string, texts: Record<string, string>) =>
      syncTranslationPullRequest({ octokit, owner: OWNER, repo: REPO, base: 'busy', batch: report(batchId), project, files: files(texts) });
    await sync('k1', { 'locales/de.json': DE_1 });
    const pushes: string[] = [];
    standin.inject({
      at: (method, path) => method === 'PATCH' && path.endsWith('/git/refs/heads/parlance/busy'),
      do: async () => void pushes.push((await standin.push({ branch: 'parlance/busy', files: { [`notes/${pushes.length}.md`]: 'x\n' }, login: 'octocat' })).sha),
      times: 3,
    });

    await expect(sync('k2', { 'locales/de.json': DE_2 })).rejects.toThrow(/'parlance\/busy' in acme\/shop moved while batch k2 was being written, 3 times in a row .*Update is not a fast forward.*Nothing was overwritten/s);
    expect(pushes).toHaveLength(3);
    expect(standin.head('parlance/busy')).toBe(pushes[2]);
  });
});

describe('fewer calls', () => {
  it('300 target files of which 2 changed: 2 blob uploads; a rebuild on a moved base uploads only the newly changed one', async () => {
    const targets = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`l10n/page${String(i).padStart(3, '0')}/de.json`, `{"title":"Seite ${i}"}\n`]));
    standin.seed({ 'parlance.yml': CONFIG, ...targets }, 'bulk');
    const pulled = { ...targets, 'l10n/page007/de.json': '{"title":"Seite sieben"}\n', 'l10n/page123/de.json': '{"title":"Seite 123!"}\n' };
    const sync = (batchId: string, texts: Record<string, string>) => syncTranslationPullRequest({ octokit, owner: OWNER, repo: REPO, base: 'bulk', batch: report(batchId), project, files: files(texts) });

    standin.calls.reset();
    const first = await sync('m1', pulled);
    expect(first.action).toBe('created');
    expect(gitCalls()).toEqual({
      'GET /repos/{owner}/{repo}/git/ref/{ref}': 2,
      'GET /repos/{owner}/{repo}/git/trees/{tree_sha}': 1,
      'GET /repos/{owner}/{repo}/pulls': 1,
      'POST /repos/{owner}/{repo}/git/blobs': 2,
      'POST /repos/{owner}/{repo}/git/commits': 1,
      'POST /repos/{owner}/{repo}/git/refs': 1,
      'POST /repos/{owner}/{repo}/git/trees': 1,
      'POST /repos/{owner}/{repo}/pulls': 1,
    });

    // The base moves and a third file changes; the branch holds only Parlance's commit, so it is rebuilt on the new
    // base with all three files, reusing the two blobs GitHub already has from the branch.
    const movedBase = standin.seed({ 'README.md': 'Pages\n' }, 'bulk', 'Add readme');
    standin.calls.reset();
    const second = await sync('m2', { ...pulled, 'l10n/page200/de.json': '{"title":"Seite zweihundert"}\n' });
    expect(second.action).toBe('updated');
    expect(standin.log('parlance/bulk', 'bulk').map((c) => c.parents)).toEqual([[movedBase]]);
    expect(standin.files('parlance/bulk')).toMatchObject({
      'README.md': 'Pages\n',
      'l10n/page007/de.json': '{"title":"Seite sieben"}\n',
      'l10n/page123/de.json': '{"title":"Seite 123!"}\n',
      'l10n/page200/de.json': '{"title":"Seite zweihundert"}\n',
    });
    expect(gitCalls()).toEqual({
      'GET /repos/{owner}/{repo}/compare/{basehead}': 1,
      // base, branch, and the branch again right before the forced update
      'GET /repos/{owner}/{repo}/git/ref/{ref}': 3,
      'GET /repos/{owner}/{repo}/git/trees/{tree_sha}': 2,
      'GET /repos/{owner}/{repo}/pulls': 1,
      'PATCH /repos/{owner}/{repo}/git/refs/{ref}': 1,
      'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': 1,
      'POST /repos/{owner}/{repo}/git/blobs': 1,
      'POST /repos/{owner}/{repo}/git/commits': 1,
      'POST /repos/{owner}/{repo}/git/trees': 1,
    });
    expect(standin.problems).toEqual([]);
  });
});
