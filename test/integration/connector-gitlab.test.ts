/**
 * The GitLab connector against a wire-level GitLab API v4 (test/helpers/connector-mocks/gitlab.ts): listing through
 * parlance.yml and a paginated tree, one commit per write on parlance/main that never rewrites the branch (a person's
 * commit there is kept and built upon; a head that moves mid-write stops it), the merge request and the commit status,
 * GitLab's errors mapped to ConnectorError kinds, a 429 waited out, and the webhook's secret token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileUnit } from '../../server/integrations/connector.js';
import { gitlab, gitlabSettings } from '../../server/integrations/connectors/gitlab.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { filesWriteBack, FRENCH, GERMAN, MARIA, repositoryOperations, twoBatchWriteBack } from '../helpers/connector-mocks/git-store.js';
import { batchTrailers } from '../../server/integrations/code-host.js';
import { gitlabFixture, startGitlabMock, type GitlabMock } from '../helpers/connector-mocks/gitlab.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const encoder = new TextEncoder();

/** A context on the mock; one retry, so that a 429 is waited out. */
function context(mock: GitlabMock, overrides: { settings?: Record<string, unknown>; secrets?: Record<string, unknown>; maxRetries?: number } = {}) {
  return connectorContext(gitlab, { api_url: mock.apiUrl, project: mock.projectPath, ...overrides.settings }, { token: mock.token, ...overrides.secrets }, { maxRetries: overrides.maxRetries ?? 1 });
}

describe('GitLab connector', () => {
  let mock: GitlabMock;
  beforeAll(async () => {
    // 230 filler files: the recursive tree spans three pages of 100.
    mock = await startGitlabMock({ extraFiles: 230 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('lists the source file named by parlance.yml, across every page of the tree, with the targets it lists (ja is not in the repository)', async () => {
    const listing = await gitlab.list(context(mock));
    const treePages = mock.requests.filter((r) => r.path.endsWith('/repository/tree'));
    expect(treePages.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(treePages.every((r) => r.query.get('recursive') === 'true' && r.query.get('per_page') === '100')).toBe(true);
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as FileUnit;
    expect(unit.path).toBe('locales/en.json');
    expect(unit.format).toBe('json');
    expect(JSON.parse(new TextDecoder().decode(unit.content))).toEqual(Object.fromEntries(SEED.map((s) => [s.id, s.source])));
    expect(unit.targets).toEqual([
      { locale: 'de', path: 'locales/de.json', content: null },
      { locale: 'fr', path: 'locales/fr.json', content: null },
    ]);
    // The project path is one URL-encoded segment, and the token goes in PRIVATE-TOKEN.
    expect(mock.requests.every((r) => r.path.startsWith('/api/v4/projects/acme%2Fshop/') && r.headers['private-token'] === mock.token)).toBe(true);
    expect(listing.note).toContain(`main@${mock.store.head('main')!.slice(0, 12)}`);
  });

  it('writes the first batch as one commit creating parlance/main from main, opens the merge request and sets the status', async () => {
    const main = mock.store.head('main')!;
    const result = await gitlab.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    expect(head.parents).toEqual([main]);
    expect(head.message).toContain('Parlance-Batch: bat_1');
    expect(new TextDecoder().decode(head.files.get('locales/de.json'))).toContain('Willkommen in unserem Laden');
    const commitRequest = mock.requests.find((r) => r.method === 'POST' && r.path.endsWith('/repository/commits'))!;
    const sent = JSON.parse(commitRequest.body) as { branch: string; start_sha: string; actions: { action: string; encoding: string }[]; force?: boolean };
    expect(sent).toMatchObject({ branch: 'parlance/main', start_sha: main });
    expect(sent.force).toBeUndefined();
    expect(sent.actions.map((a) => [a.action, a.encoding])).toEqual([
      ['create', 'base64'],
      ['create', 'base64'],
    ]);
    expect(mock.mergeRequests).toHaveLength(1);
    expect(mock.mergeRequests[0]).toMatchObject({ source_branch: 'parlance/main', target_branch: 'main', title: 'Parlance: translations for main' });
    expect(result).toMatchObject({ written: 2, url: `${mock.url}/acme/shop/-/merge_requests/1` });
    expect(mock.statuses.at(-1)).toMatchObject({ sha: head.id, state: 'success', name: 'parlance', target_url: result.url });
  });

  it('writing the same files again commits nothing and keeps the one merge request', async () => {
    const before = mock.store.head('parlance/main');
    const commits = mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repository/commits')).length;
    const result = await gitlab.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(result.written).toBe(0);
    expect(mock.store.head('parlance/main')).toBe(before);
    expect(mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repository/commits'))).toHaveLength(commits);
    expect(mock.mergeRequests).toHaveLength(1);
  });

  it("keeps a person's commit on parlance/main, lists their edit, and commits the next batch on top of it", async () => {
    const ops = repositoryOperations(mock.store);
    await ops.editTranslation('checkout', 'de', 'Zur Kasse, bitte');
    const human = mock.store.head('parlance/main')!;
    expect(mock.store.commit(human)!.author).toEqual(MARIA);

    const listing = await gitlab.list(context(mock));
    const german = (listing.units[0] as FileUnit).targets.find((t) => t.locale === 'de')!;
    expect(JSON.parse(new TextDecoder().decode(german.content!))).toMatchObject({ checkout: 'Zur Kasse, bitte' });

    // The engine imports the edit and sends only what changed since: French.
    await gitlab.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, cart: 'Votre panier est encore vide' } }));
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    expect(head.parents).toEqual([human]);
    expect(await ops.translation('checkout', 'de')).toBe('Zur Kasse, bitte');
    expect(await ops.translation('cart', 'fr')).toBe('Votre panier est encore vide');
    const update = JSON.parse(mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repository/commits')).at(-1)!.body) as { start_sha?: string; actions: { action: string; last_commit_id?: string }[] };
    expect(update.start_sha).toBeUndefined();
    // The French file was last changed by Parlance's first commit, which is what GitLab checks it against.
    expect(update.actions).toMatchObject([{ action: 'update', last_commit_id: mock.store.lastChange(human, 'locales/fr.json') }]);
  });

  it('a head that moves between reading and committing stops the write: an error, nothing overwritten', async () => {
    const ops = repositoryOperations(mock.store);
    const commitsBefore = mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repository/commits')).length;
    // A person pushes to parlance/main right after the connector first read its head.
    mock.after(
      (r) => r.method === 'GET' && r.path.endsWith('/repository/branches/parlance%2Fmain'),
      () => void ops.editTranslation('welcome', 'de', 'Herzlich willkommen'),
    );
    const error = await rejection(gitlab.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Willkommen!' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/Branch 'parlance\/main' of acme\/shop on GitLab moved from [0-9a-f]{12} to [0-9a-f]{12}/);
    expect(mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repository/commits'))).toHaveLength(commitsBefore);
    expect(await ops.translation('welcome', 'de')).toBe('Herzlich willkommen');
  });

  it('a file a person changes after its last commit was read: GitLab refuses the commit (last_commit_id) and nothing is overwritten', async () => {
    const ops = repositoryOperations(mock.store);
    mock.after(
      (r) => r.method === 'HEAD' && r.path.endsWith('/repository/files/locales%2Fde.json'),
      () => void ops.editTranslation('cart', 'de', 'Der Warenkorb ist leer'),
    );
    const error = await rejection(gitlab.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Herzlich willkommen', farewell: 'Auf bald' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('The file has changed since you started editing it: locales/de.json');
    const refused = mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repository/commits')).at(-1)!;
    expect(refused.status).toBe(400);
    expect(await ops.translation('cart', 'de')).toBe('Der Warenkorb ist leer');
    expect(await ops.translation('farewell', 'de')).toBe('Bis bald');
  });

  it('refused rows: the status is failed with the summary, and a merge request note lists them with their lines', async () => {
    const problems = [{ path: 'locales/en.json', key: 'cart', locale: 'fr', line: 3, outcome: 'refused' as const, reason: 'placeholder {count} is missing' }];
    await gitlab.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, farewell: 'À très bientôt' } }, problems, { id: 'bat_2', url: undefined, translated: 3, refused: 1, flagged: 0 }));
    const status = mock.statuses.at(-1)!;
    expect(status).toMatchObject({ sha: mock.store.head('parlance/main'), state: 'failed', name: 'parlance', description: '1 translation(s) refused by the quality gates' });
    const mr = mock.mergeRequests[0]!;
    expect(mr.description).toContain('placeholder {count} is missing');
    expect(mr.notes.at(-1)).toContain('`cart` (locales/en.json:3, fr): placeholder {count} is missing');
  });

  it('never rewrote a branch: every move of parlance/main has the previous head as its parent', () => {
    expect(mock.store.moves.filter((m) => m.branch === 'parlance/main').length).toBeGreaterThanOrEqual(5);
    expect(mock.store.rewrites()).toEqual([]);
  });

  it('writing the same refused rows again edits the one note instead of posting another', async () => {
    const problems = [{ path: 'locales/en.json', key: 'cart', locale: 'fr', line: 3, outcome: 'refused' as const, reason: 'placeholder {count} is missing' }];
    const mr = mock.mergeRequests[0]!;
    const before = mr.notes.length;
    await gitlab.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, farewell: 'À très bientôt !' } }, problems, { id: 'bat_2', url: undefined, translated: 3, refused: 1, flagged: 0 }));
    expect(mr.notes).toHaveLength(before);
    expect(mr.notes.filter((n) => n.includes('<!-- parlance:refused bat_2 -->'))).toHaveLength(1);
  });

  it("the base moved while people's commits are on parlance/main: the branch is not rewritten, and one note says why", async () => {
    const ops = repositoryOperations(mock.store);
    await ops.setSource('welcome', 'Welcome to the store');
    const head = mock.store.head('parlance/main')!;
    await gitlab.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Herzlich willkommen', cart: 'Der Warenkorb ist leer', farewell: 'Auf bald!' } }));
    expect(mock.store.commit(mock.store.head('parlance/main')!)!.parents).toEqual([head]);
    await gitlab.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Herzlich willkommen', cart: 'Der Warenkorb ist leer', farewell: 'Bis ganz bald' } }));
    const notes = mock.mergeRequests[0]!.notes.filter((n) => n.includes('<!-- parlance:human-commits -->'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/commits that Parlance did not make: `[0-9a-f]{7}` by Maria Example/);
    expect(mock.store.rewrites()).toEqual([]);
  });

  it('a sync of two source files: one commit per batch, in the order they completed, each with its own files, counts and trailer; the merge request names both', async () => {
    const before = mock.store.head('parlance/main')!;
    const result = await gitlab.write!(context(mock), twoBatchWriteBack(['bat_31', 'bat_32'], { fr: { ...FRENCH, farewell: 'À plus tard' } }, { de: { pay: 'Bezahlen' } }));
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    const first = mock.store.commit(head.parents[0]!)!;
    expect(first.parents).toEqual([before]);
    expect(first.message).toBe('Parlance: translations of batch bat_31\n\nbat_31 <https://parlance.example.com/v1/batches/bat_31> (locales/en.json): 5 translated, 0 refused, 0 flagged\n\nParlance-Batch: bat_31');
    expect(mock.store.changedPaths(first.id)).toEqual({ added: [], modified: ['locales/fr.json'] });
    expect(head.message).toBe('Parlance: translations of batch bat_32\n\nbat_32 <https://parlance.example.com/v1/batches/bat_32> (src/checkout/en.json): 2 translated, 0 refused, 1 flagged\n\nParlance-Batch: bat_32');
    expect(mock.store.changedPaths(head.id)).toEqual({ added: ['src/checkout/de.json'], modified: [] });
    expect(result).toMatchObject({ written: 2 });
    expect(result.note).toMatch(/^2 commit\(s\) on parlance\/main/);
    const description = mock.mergeRequests[0]!.description;
    expect(description).toContain('- [bat_31](https://parlance.example.com/v1/batches/bat_31) (locales/en.json): 5 translated, 0 refused, 0 flagged');
    expect(description).toContain('- [bat_32](https://parlance.example.com/v1/batches/bat_32) (src/checkout/en.json): 2 translated, 0 refused, 1 flagged');
  });

  it('a retried write: a batch whose commit is on the branch (its trailer) is skipped even when its file renders otherwise; the rest are committed once', async () => {
    // The first attempt committed bat_41 and stopped before bat_42.
    await gitlab.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, farewell: 'À tout à l’heure' } }, [], { id: 'bat_41' }));
    const afterFirst = mock.store.head('parlance/main')!;
    const retry = twoBatchWriteBack(['bat_41', 'bat_42'], { fr: { ...FRENCH, farewell: 'À la prochaine' } }, { de: { pay: 'Jetzt bezahlen' } });
    const result = await gitlab.write!(context(mock), retry);
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    expect(head.parents).toEqual([afterFirst]);
    expect(batchTrailers(head.message)).toEqual(['bat_42']);
    expect(result.note).toContain('batch bat_41 already committed there');
    // The same write once more: nothing new.
    const again = await gitlab.write!(context(mock), retry);
    expect(again.written).toBe(0);
    expect(mock.store.head('parlance/main')).toBe(head.id);
    const trailers = [...mock.store.ancestors('parlance/main')].flatMap((id) => batchTrailers(mock.store.commit(id)!.message));
    expect(trailers.filter((t) => t === 'bat_41')).toHaveLength(1);
    expect(trailers.filter((t) => t === 'bat_42')).toHaveLength(1);
  });

  it("a rule's careful patterns in parlance.yml come with the listed file", async () => {
    mock.store.commitTo('main', new Map([['parlance.yml', encoder.encode("files:\n  - source: 'locales/en.json'\n    translation: 'locales/{locale}.json'\n    careful: ['check*']\nlocales: [de, fr]\n")]]), 'Careful with checkout', MARIA);
    const listing = await gitlab.list(context(mock));
    expect((listing.units[0] as FileUnit).careful).toEqual(['check*']);
  });

  it("waits out GitLab's 429 (RateLimit-Reset, Retry-After) and goes on", async () => {
    mock.failNext429(1, 1);
    const started = Date.now();
    const listing = await gitlab.list(context(mock));
    expect(listing.units).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests.some((r) => r.status === 429)).toBe(true);
  });

  it("a refused token is an 'auth' error quoting GitLab; an unknown project is 'config'; a missing base branch is 'config'", async () => {
    const auth = await rejection(gitlab.list(context(mock, { secrets: { token: 'glpat-wrong' } })));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toContain('401 Unauthorized');
    expect(auth.message).toMatch(/token/);
    const project = await rejection(gitlab.list(context(mock, { settings: { project: 'acme/nope' } })));
    expect(project.kind).toBe('config');
    expect(project.message).toContain('404 Project Not Found');
    const branch = await rejection(gitlab.list(context(mock, { settings: { base_branch: 'develop' } })));
    expect(branch.kind).toBe('config');
    expect(branch.message).toBe("Branch 'develop' does not exist in acme/shop on GitLab.");
  });

  it("the project setting takes a numeric id too, and refuses what is neither", () => {
    expect(gitlabSettings.parse({ project: '4815' }).api_url).toBe('https://gitlab.com/api/v4');
    expect(gitlabSettings.safeParse({ project: 'shop' }).success).toBe(false);
    expect(gitlabSettings.safeParse({ project: 'acme/shop', extra: 1 }).success).toBe(false);
  });

  it("GitLab down is 'unavailable'", async () => {
    await mock.stop();
    try {
      const down = await rejection(gitlab.list(context(mock, { maxRetries: 0 })));
      expect(down.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await gitlab.list(context(mock))).units).toHaveLength(1);
  });

  it('the webhook: the right token on a push to main starts a sync; a forged token, another branch or another event does not', async () => {
    const settings = context(mock).settings;
    const ops = repositoryOperations(mock.store);
    await ops.setSource('cart', 'Your basket is empty');
    const good = mock.pushEvent('whsec-kit');
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: encoder.encode(hook.body) });
    expect(gitlab.verifyWebhook!(request(good), 'whsec-kit', settings)).toEqual({ verified: true, sync: true });
    expect(JSON.parse(good.body)).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', after: mock.store.head('main') });

    const forged = gitlab.verifyWebhook!(request(mock.pushEvent('whsec-guess')), 'whsec-kit', settings);
    expect(forged).toMatchObject({ verified: false, sync: false });
    expect(forged.reason).toContain('X-Gitlab-Token');
    const missing = { headers: new Headers({ 'X-Gitlab-Event': 'Push Hook' }), body: encoder.encode(good.body) };
    expect(gitlab.verifyWebhook!(missing, 'whsec-kit', settings).verified).toBe(false);

    const other = gitlab.verifyWebhook!(request(mock.pushEvent('whsec-kit', 'parlance/main')), 'whsec-kit', settings);
    expect(other).toMatchObject({ verified: true, sync: false });
    const mrEvent = { headers: new Headers({ ...good.headers, 'X-Gitlab-Event': 'Merge Request Hook' }), body: encoder.encode(good.body) };
    expect(gitlab.verifyWebhook!(mrEvent, 'whsec-kit', settings)).toMatchObject({ verified: true, sync: false });
  });
});

describe('GitLab connector: rebuilding parlance/main', () => {
  let mock: GitlabMock;
  beforeAll(async () => {
    mock = await startGitlabMock();
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('the base moved and only Parlance committed on the branch: the next commit is on the new base, the branch moved to it', async () => {
    await gitlab.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const first = mock.store.head('parlance/main')!;
    await repositoryOperations(mock.store).setSource('cart', 'Your basket is empty');
    const main = mock.store.head('main')!;
    await gitlab.write!(context(mock), filesWriteBack({ de: { ...GERMAN, cart: 'Ihr Korb ist leer' }, fr: FRENCH }, [], { id: 'bat_2' }));
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    expect(head.parents).toEqual([main]);
    expect(new TextDecoder().decode(head.files.get('locales/fr.json'))).toContain('Bienvenue dans notre boutique');
    const sent = JSON.parse(mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repository/commits')).at(-1)!.body) as { start_sha?: string; force?: boolean };
    expect(sent).toMatchObject({ start_sha: main, force: true });
    // The one rewrite: Parlance's own commit replaced; the merge request is the same one.
    expect(mock.store.rewrites()).toEqual([{ branch: 'parlance/main', before: first, after: head.id }]);
    expect(mock.mergeRequests).toHaveLength(1);
    expect(mock.mergeRequests[0]!.notes.some((n) => n.includes('parlance:human-commits'))).toBe(false);
  });
});

connectorAcceptance('GitLab connector: the acceptance scenario', gitlabFixture, { direction: 'two_way', codeHost: true });
