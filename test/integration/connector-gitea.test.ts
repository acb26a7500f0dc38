/**
 * The Gitea/Forgejo connector against a wire-level Gitea API v1 (test/helpers/connector-mocks/gitea.ts): listing
 * through parlance.yml and a truncated (paginated) recursive tree, one ChangeFiles commit per write on parlance/main
 * that never rewrites the branch (a person's commit there is kept and built upon; a head that moves mid-write, or a
 * file changed after its blob sha was read, stops it), the pull request and the commit status, Gitea's errors mapped
 * to ConnectorError kinds, a proxy's 429 waited out, and the webhook's HMAC signature under Gitea's and Forgejo's names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileUnit } from '../../server/integrations/connector.js';
import { gitea, giteaSettings } from '../../server/integrations/connectors/gitea.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { filesWriteBack, FRENCH, GERMAN, MARIA, repositoryOperations } from '../helpers/connector-mocks/git-store.js';
import { giteaFixture, startGiteaMock, type GiteaMock } from '../helpers/connector-mocks/gitea.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const encoder = new TextEncoder();

/** A context on the mock; one retry, so that a 429 is waited out. */
function context(mock: GiteaMock, overrides: { settings?: Record<string, unknown>; secrets?: Record<string, unknown>; maxRetries?: number } = {}) {
  return connectorContext(gitea, { api_url: mock.apiUrl, repository: mock.repository, ...overrides.settings }, { token: mock.token, ...overrides.secrets }, { maxRetries: overrides.maxRetries ?? 1 });
}

const commitPosts = (mock: GiteaMock) => mock.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/repos/acme/shop/contents');

describe('Gitea connector', () => {
  let mock: GiteaMock;
  beforeAll(async () => {
    // 230 filler files and an instance that pages trees by 100: the recursive listing is truncated twice.
    mock = await startGiteaMock({ extraFiles: 230, treePageMax: 100 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('lists the source file named by parlance.yml, following truncated tree pages, with the targets it lists (ja is not in the repository)', async () => {
    const listing = await gitea.list(context(mock));
    const treePages = mock.requests.filter((r) => r.path.startsWith('/api/v1/repos/acme/shop/git/trees/'));
    expect(treePages.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(treePages.every((r) => r.query.get('recursive') === 'true' && r.path.endsWith(mock.store.head('main')!))).toBe(true);
    const unit = listing.units[0] as FileUnit;
    expect(listing.units).toHaveLength(1);
    expect(unit.path).toBe('locales/en.json');
    expect(JSON.parse(new TextDecoder().decode(unit.content))).toEqual(Object.fromEntries(SEED.map((s) => [s.id, s.source])));
    expect(unit.targets).toEqual([
      { locale: 'de', path: 'locales/de.json', content: null },
      { locale: 'fr', path: 'locales/fr.json', content: null },
    ]);
    expect(mock.requests.every((r) => r.headers.authorization === `token ${mock.token}`)).toBe(true);
    // The source file is read raw at the commit listed, its path kept as slashes.
    expect(mock.requests.some((r) => r.path === '/api/v1/repos/acme/shop/raw/locales/en.json' && r.query.get('ref') === mock.store.head('main'))).toBe(true);
  });

  it('writes the first batch as one commit creating parlance/main from main, opens the pull request and sets the status', async () => {
    const main = mock.store.head('main')!;
    const result = await gitea.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    expect(head.parents).toEqual([main]);
    expect(head.message).toContain('Parlance-Batch: bat_1');
    const sent = JSON.parse(commitPosts(mock)[0]!.body) as { branch: string; new_branch: string; files: { operation: string; path: string; sha?: string }[]; force_push?: boolean };
    expect(sent).toMatchObject({ branch: 'main', new_branch: 'parlance/main' });
    expect(sent.force_push).toBeUndefined();
    expect(sent.files.map((f) => [f.operation, f.path, f.sha])).toEqual([
      ['create', 'locales/de.json', undefined],
      ['create', 'locales/fr.json', undefined],
    ]);
    expect(mock.pulls).toHaveLength(1);
    expect(mock.pulls[0]).toMatchObject({ head: 'parlance/main', base: 'main', title: 'Parlance: translations for main' });
    expect(result).toMatchObject({ written: 2, url: `${mock.url}/acme/shop/pulls/1` });
    expect(mock.statuses.at(-1)).toMatchObject({ sha: head.id, state: 'success', context: 'parlance', target_url: result.url });
  });

  it('writing the same files again commits nothing and keeps the one pull request', async () => {
    const before = mock.store.head('parlance/main');
    const posts = commitPosts(mock).length;
    const result = await gitea.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(result.written).toBe(0);
    expect(mock.store.head('parlance/main')).toBe(before);
    expect(commitPosts(mock)).toHaveLength(posts);
    expect(mock.pulls).toHaveLength(1);
    expect(mock.requests.some((r) => r.method === 'PATCH' && r.path === '/api/v1/repos/acme/shop/pulls/1')).toBe(true);
  });

  it("keeps a person's commit on parlance/main, lists their edit, and commits the next batch on top of it with the file's blob sha", async () => {
    const ops = repositoryOperations(mock.store);
    await ops.editTranslation('checkout', 'de', 'Zur Kasse, bitte');
    const human = mock.store.head('parlance/main')!;
    expect(mock.store.commit(human)!.author).toEqual(MARIA);
    const listing = await gitea.list(context(mock));
    const german = (listing.units[0] as FileUnit).targets.find((t) => t.locale === 'de')!;
    expect(JSON.parse(new TextDecoder().decode(german.content!))).toMatchObject({ checkout: 'Zur Kasse, bitte' });

    await gitea.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, cart: 'Votre panier est encore vide' } }));
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    expect(head.parents).toEqual([human]);
    expect(await ops.translation('checkout', 'de')).toBe('Zur Kasse, bitte');
    expect(await ops.translation('cart', 'fr')).toBe('Votre panier est encore vide');
    const update = JSON.parse(commitPosts(mock).at(-1)!.body) as { branch: string; new_branch?: string; files: { operation: string; sha?: string }[] };
    expect(update.branch).toBe('parlance/main');
    expect(update.new_branch).toBeUndefined();
    expect(update.files).toMatchObject([{ operation: 'update', sha: expect.stringMatching(/^[0-9a-f]{40}$/) }]);
  });

  it('a head that moves between reading and committing stops the write: an error, nothing overwritten', async () => {
    const ops = repositoryOperations(mock.store);
    const posts = commitPosts(mock).length;
    mock.after(
      (r) => r.method === 'GET' && r.path === '/api/v1/repos/acme/shop/branches/parlance/main',
      () => void ops.editTranslation('welcome', 'de', 'Herzlich willkommen'),
    );
    const error = await rejection(gitea.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Willkommen!' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/Branch 'parlance\/main' of acme\/shop on 127\.0\.0\.1:\d+ moved from [0-9a-f]{12} to [0-9a-f]{12}/);
    expect(commitPosts(mock)).toHaveLength(posts);
    expect(await ops.translation('welcome', 'de')).toBe('Herzlich willkommen');
  });

  it("a file a person changes after its blob sha was read: Gitea refuses the commit (sha does not match) and nothing is overwritten", async () => {
    const ops = repositoryOperations(mock.store);
    mock.after(
      (r) => r.method === 'GET' && r.path === '/api/v1/repos/acme/shop/contents/locales/de.json',
      () => void ops.editTranslation('cart', 'de', 'Der Warenkorb ist leer'),
    );
    const error = await rejection(gitea.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Herzlich willkommen', farewell: 'Auf bald' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('HTTP 422: sha does not match');
    expect(commitPosts(mock).at(-1)!.status).toBe(422);
    expect(await ops.translation('cart', 'de')).toBe('Der Warenkorb ist leer');
    expect(await ops.translation('farewell', 'de')).toBe('Bis bald');
  });

  it('refused rows: the status is failure with the summary, and a pull request comment lists them with their lines', async () => {
    const problems = [{ path: 'locales/en.json', key: 'cart', locale: 'fr', line: 3, outcome: 'refused' as const, reason: 'placeholder {count} is missing' }];
    await gitea.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, farewell: 'À très bientôt' } }, problems, { id: 'bat_2', url: undefined, translated: 3, refused: 1, flagged: 0 }));
    expect(mock.statuses.at(-1)).toMatchObject({ sha: mock.store.head('parlance/main'), state: 'failure', context: 'parlance', description: '1 translation(s) refused by the quality gates' });
    expect(mock.pulls[0]!.body).toContain('placeholder {count} is missing');
    expect(mock.pulls[0]!.comments.at(-1)).toContain('`cart` (locales/en.json:3, fr): placeholder {count} is missing');
  });

  it('never rewrote a branch: every move of parlance/main has the previous head as its parent', () => {
    expect(mock.store.moves.filter((m) => m.branch === 'parlance/main').length).toBeGreaterThanOrEqual(5);
    expect(mock.store.rewrites()).toEqual([]);
  });

  it('writing the same refused rows again edits the one comment instead of posting another', async () => {
    const problems = [{ path: 'locales/en.json', key: 'cart', locale: 'fr', line: 3, outcome: 'refused' as const, reason: 'placeholder {count} is missing' }];
    const pull = mock.pulls[0]!;
    const before = pull.comments.length;
    await gitea.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, farewell: 'À très bientôt !' } }, problems, { id: 'bat_2', url: undefined, translated: 3, refused: 1, flagged: 0 }));
    expect(pull.comments).toHaveLength(before);
    expect(pull.comments.filter((c) => c.includes('<!-- parlance:refused bat_2 -->'))).toHaveLength(1);
  });

  it("the base moved while people's commits are on parlance/main: the branch is not rewritten, and one comment says why", async () => {
    const ops = repositoryOperations(mock.store);
    await ops.setSource('welcome', 'Welcome to the store');
    const head = mock.store.head('parlance/main')!;
    await gitea.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Herzlich willkommen', cart: 'Der Warenkorb ist leer', farewell: 'Auf bald!' } }));
    expect(mock.store.commit(mock.store.head('parlance/main')!)!.parents).toEqual([head]);
    await gitea.write!(context(mock), filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte', welcome: 'Herzlich willkommen', cart: 'Der Warenkorb ist leer', farewell: 'Bis ganz bald' } }));
    const notes = mock.pulls[0]!.comments.filter((c) => c.includes('<!-- parlance:human-commits -->'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/commits that Parlance did not make: `[0-9a-f]{7}` by @maria/);
    expect(mock.store.rewrites()).toEqual([]);
  });

  it("waits out a proxy's 429 (Retry-After) and goes on", async () => {
    mock.failNext429(1, 1);
    const started = Date.now();
    expect((await gitea.list(context(mock))).units).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests.some((r) => r.status === 429)).toBe(true);
  });

  it("a refused token is an 'auth' error quoting Gitea; an unknown repository is 'config'; a missing base branch is 'config'", async () => {
    const auth = await rejection(gitea.list(context(mock, { secrets: { token: 'wrong' } })));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toContain('invalid username, password or token');
    const repository = await rejection(gitea.list(context(mock, { settings: { repository: 'acme/nope' } })));
    expect(repository.kind).toBe('config');
    expect(repository.message).toContain("there is no repository 'acme/nope'");
    const branch = await rejection(gitea.list(context(mock, { settings: { base_branch: 'develop' } })));
    expect(branch.kind).toBe('config');
    expect(branch.message).toMatch(/^Branch 'develop' does not exist in acme\/shop on 127\.0\.0\.1:\d+\.$/);
  });

  it('the settings need an API address and owner/name', () => {
    expect(giteaSettings.safeParse({ repository: 'acme/shop' }).success).toBe(false);
    expect(giteaSettings.safeParse({ api_url: 'https://codeberg.org/api/v1', repository: 'shop' }).success).toBe(false);
    expect(giteaSettings.parse({ api_url: 'https://codeberg.org/api/v1', repository: 'acme/shop' })).toMatchObject({ base_branch: 'main', config_path: 'parlance.yml' });
  });

  it("Gitea down is 'unavailable'", async () => {
    await mock.stop();
    try {
      const down = await rejection(gitea.list(context(mock, { maxRetries: 0 })));
      expect(down.kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect((await gitea.list(context(mock))).units).toHaveLength(1);
  });

  it('the webhook: a good signature on a push to main starts a sync; a forged one, another branch or another event does not', async () => {
    const settings = context(mock).settings;
    await repositoryOperations(mock.store).setSource('cart', 'Your basket is empty');
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: encoder.encode(hook.body) });
    const good = mock.pushEvent('whsec-kit');
    expect(gitea.verifyWebhook!(request(good), 'whsec-kit', settings)).toEqual({ verified: true, sync: true });
    expect(JSON.parse(good.body)).toMatchObject({ ref: 'refs/heads/main', after: mock.store.head('main') });

    const forged = gitea.verifyWebhook!(request(mock.pushEvent('whsec-guess')), 'whsec-kit', settings);
    expect(forged).toMatchObject({ verified: false, sync: false });
    const tampered = { headers: new Headers(good.headers), body: encoder.encode(good.body.replace('refs/heads/main', 'refs/heads/mainx')) };
    expect(gitea.verifyWebhook!(tampered, 'whsec-kit', settings).verified).toBe(false);
    const unsigned = { headers: new Headers({ 'X-Gitea-Event': 'push' }), body: encoder.encode(good.body) };
    expect(gitea.verifyWebhook!(unsigned, 'whsec-kit', settings).verified).toBe(false);

    expect(gitea.verifyWebhook!(request(mock.pushEvent('whsec-kit', 'parlance/main')), 'whsec-kit', settings)).toMatchObject({ verified: true, sync: false });
    const issueEvent = { headers: new Headers({ ...good.headers, 'X-Gitea-Event': 'issues' }), body: encoder.encode(good.body) };
    expect(gitea.verifyWebhook!(issueEvent, 'whsec-kit', settings)).toMatchObject({ verified: true, sync: false });
  });

  it("Forgejo's X-Forgejo-Signature and X-Forgejo-Event are read as Gitea's", async () => {
    const forgejo = await startGiteaMock({ forgejo: true });
    try {
      const hook = forgejo.pushEvent('whsec-kit');
      expect(Object.keys(hook.headers)).toContain('X-Forgejo-Signature');
      expect(Object.keys(hook.headers)).not.toContain('X-Gitea-Signature');
      const settings = giteaSettings.parse({ api_url: forgejo.apiUrl, repository: forgejo.repository });
      expect(gitea.verifyWebhook!({ headers: new Headers(hook.headers), body: encoder.encode(hook.body) }, 'whsec-kit', settings)).toEqual({ verified: true, sync: true });
      expect(gitea.verifyWebhook!({ headers: new Headers(hook.headers), body: encoder.encode(hook.body) }, 'other', settings).verified).toBe(false);
    } finally {
      await forgejo.close();
    }
  });
});

describe('Gitea connector: rebuilding parlance/main', () => {
  let mock: GiteaMock;
  beforeAll(async () => {
    mock = await startGiteaMock();
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('the base moved and only Parlance committed on the branch: the next commit is on the new base, the branch moved to it', async () => {
    await gitea.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const first = mock.store.head('parlance/main')!;
    await repositoryOperations(mock.store).setSource('cart', 'Your basket is empty');
    const main = mock.store.head('main')!;
    await gitea.write!(context(mock), filesWriteBack({ de: { ...GERMAN, cart: 'Ihr Korb ist leer' }, fr: FRENCH }, [], { id: 'bat_2' }));
    const head = mock.store.commit(mock.store.head('parlance/main')!)!;
    expect(head.parents).toEqual([main]);
    expect(new TextDecoder().decode(head.files.get('locales/fr.json'))).toContain('Bienvenue dans notre boutique');
    const sent = JSON.parse(mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/contents')).at(-1)!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({ branch: 'main', new_branch: 'parlance/main', force_push: true });
    expect(mock.store.rewrites()).toEqual([{ branch: 'parlance/main', before: first, after: head.id }]);
    expect(mock.pulls).toHaveLength(1);
    expect(mock.pulls[0]!.comments.some((c) => c.includes('parlance:human-commits'))).toBe(false);
  });
});

connectorAcceptance('Gitea connector: the acceptance scenario', giteaFixture, { direction: 'two_way', codeHost: true });
