/** The Azure DevOps Repos connector against a local Azure DevOps Git REST API 7.1 over an in-memory repository, then the acceptance scenario. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { FileUnit, ReportRow } from '../../server/integrations/connector.js';
import { azureDevops } from '../../server/integrations/connectors/azure-devops.js';
import { connectorAcceptance } from '../helpers/connector-kit.js';
import { azureDevopsFixture, startAzureDevopsMock, type AzureDevopsMock } from '../helpers/connector-mocks/azure-devops.js';
import { filesWriteBack, FRENCH, GERMAN, PARLANCE_BOT, translationIn, twoBatchWriteBack } from '../helpers/connector-mocks/git-store.js';
import { batchTrailers } from '../../server/integrations/code-host.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const context = (mock: AzureDevopsMock, settings: Record<string, unknown> = {}, secrets: Record<string, unknown> = { token: mock.token }) => connectorContext(azureDevops, { api_url: mock.url, organization: mock.organization, project: mock.project, repository: mock.repository, ...settings }, secrets);

const PR_URL = (mock: AzureDevopsMock, id: number) => `${mock.url}/${mock.organization}/${mock.project}/_git/${mock.repository}/pullrequest/${id}`;

describe('Azure DevOps Repos connector', () => {
  let mock: AzureDevopsMock;

  beforeEach(async () => {
    mock = await startAzureDevopsMock({ refsPageSize: 1 });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('lists the source file named by parlance.yml from the full item tree, with the remote locales only', async () => {
    const listing = await azureDevops.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as FileUnit;
    expect(unit).toMatchObject({ kind: 'file', path: 'locales/en.json', format: 'json' });
    expect(JSON.parse(new TextDecoder().decode(unit.content))).toMatchObject({ checkout: 'Proceed to checkout' });
    expect(unit.targets).toEqual([
      { locale: 'de', path: 'locales/de.json', content: null },
      { locale: 'fr', path: 'locales/fr.json', content: null },
    ]);
    expect(mock.requests.some((r) => r.includes('/items?') && r.includes('recursionLevel=Full') && r.includes('versionDescriptor.versionType=commit'))).toBe(true);
    expect(mock.requests.some((r) => r.includes('%24format=octetStream') && r.includes('path=%2Fparlance.yml'))).toBe(true);
  });

  it('first write: one push creating parlance/main from main, a pull request, a succeeded status; the same write again changes nothing', async () => {
    const ctx = context(mock);
    const mainHead = mock.git.branches.get('main')!;
    const result = await azureDevops.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(result.written).toBe(2);
    expect(result.url).toBe(PR_URL(mock, 1));
    expect(mock.pushes).toHaveLength(1);
    expect(mock.pushes[0]!.refUpdates).toEqual([{ name: 'refs/heads/parlance/main', oldObjectId: mainHead }]);
    expect(mock.pushes[0]!.commits[0]!.changes.map((c) => [c.changeType, c.item.path])).toEqual([
      ['add', '/locales/de.json'],
      ['add', '/locales/fr.json'],
    ]);
    const head = mock.git.branches.get('parlance/main')!;
    expect(mock.git.commits.get(head)!.parents).toEqual([mainHead]);
    expect(translationIn(mock.git, 'farewell', 'fr')).toBe('À bientôt');
    expect(mock.pullRequests).toMatchObject([{ sourceRefName: 'refs/heads/parlance/main', targetRefName: 'refs/heads/main', status: 'active' }]);
    expect(mock.statuses).toEqual([{ commit: head, state: 'succeeded', description: 'Translations up to date', context: { name: 'parlance', genre: 'localization' }, targetUrl: PR_URL(mock, 1) }]);

    const again = await azureDevops.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(again.written).toBe(0);
    expect(mock.pushes).toHaveLength(1);
    expect(mock.pullRequests).toHaveLength(1);
    expect(mock.requests.filter((r) => r.startsWith('PATCH ') && r.includes('/pullrequests/1?'))).toHaveLength(1);
  });

  it("keeps a person's commit on parlance/main: it is listed, and the next push goes on top of it", async () => {
    const ctx = context(mock);
    await azureDevops.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const human = mock.git.editJson('parlance/main', 'locales/de.json', (data) => void (data.checkout = 'Zur Kasse, bitte'), 'Better German');
    const listing = await azureDevops.list(ctx);
    const de = (listing.units[0] as FileUnit).targets.find((t) => t.locale === 'de')!;
    expect(JSON.parse(new TextDecoder().decode(de.content!))).toMatchObject({ checkout: 'Zur Kasse, bitte' });

    await azureDevops.write!(ctx, filesWriteBack({ fr: { ...FRENCH, cart: 'Votre panier est toujours vide' } }));
    expect(mock.pushes.at(-1)!.refUpdates).toEqual([{ name: 'refs/heads/parlance/main', oldObjectId: human.id }]);
    expect(mock.pushes.at(-1)!.commits[0]!.changes.map((c) => c.changeType)).toEqual(['edit']);
    expect(mock.git.commits.get(mock.git.branches.get('parlance/main')!)!.parents).toEqual([human.id]);
    expect(translationIn(mock.git, 'checkout', 'de')).toBe('Zur Kasse, bitte');
    expect(translationIn(mock.git, 'cart', 'fr')).toBe('Votre panier est toujours vide');
    expect(mock.git.rewrites()).toEqual([]);
  });

  it('a head that moves between read and push: 409 TF401028 → an error, nothing overwritten, no second attempt', async () => {
    const ctx = context(mock);
    await azureDevops.write!(ctx, filesWriteBack({ de: GERMAN }));
    let human = '';
    mock.beforeNextPush(() => {
      human = mock.git.editJson('parlance/main', 'locales/de.json', (data) => void (data.welcome = 'Herzlich willkommen'), 'Warmer welcome').id;
    });
    const error = await rejection(azureDevops.write!(ctx, filesWriteBack({ de: { ...GERMAN, farewell: 'Auf Wiedersehen' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/moved since Parlance read it.*HTTP 409: TF401028/);
    expect(mock.pushes).toHaveLength(2);
    expect(mock.git.branches.get('parlance/main')).toBe(human);
    expect(translationIn(mock.git, 'welcome', 'de')).toBe('Herzlich willkommen');
    expect(mock.git.rewrites()).toEqual([]);
  });

  it('refused rows: a failed status, the rows with their source lines in the description, and a thread per refused row on its line', async () => {
    const rows: ReportRow[] = [{ path: 'locales/en.json', key: 'cart', locale: 'de', line: 3, outcome: 'refused', reason: 'Placeholder {count} missing' }];
    for (let i = 0; i < 200; i++) rows.push({ path: 'locales/en.json', key: `extra.${i}`, locale: 'fr', line: 10 + i, outcome: 'flagged', reason: 'Longer than the source by 60%, which the layout cannot hold in its narrowest column' });
    await azureDevops.write!(context(mock), filesWriteBack({ de: GERMAN }, rows));
    const head = mock.git.branches.get('parlance/main')!;
    expect(mock.statuses.at(-1)).toMatchObject({ commit: head, state: 'failed', description: '1 translation(s) refused by the quality gates' });
    const description = mock.pullRequests[0]!.description;
    expect(description).toContain('`cart` (locales/en.json:3) | de | refused | Placeholder {count} missing');
    // Azure refuses descriptions over 4000 characters: the long table was shortened, not refused.
    expect(description.length).toBeLessThanOrEqual(4000);
    expect(description).toMatch(/shortened; see the batch/);
    // The refused row (not the flagged ones) is a thread on its source line.
    const threads = mock.threads.get(1)!;
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({
      status: 'active',
      threadContext: { filePath: '/locales/en.json', rightFileStart: { line: 3, offset: 1 }, rightFileEnd: { line: 3, offset: 1 } },
      comments: [{ parentCommentId: 0, content: '**Parlance**: the de translation of `cart` was refused: Placeholder {count} missing' }],
    });

    // The same row refused again: no second thread. Once it passes, its thread is marked fixed; a person's thread is left alone.
    mock.threads.get(1)!.push({ id: 7, status: 'active', isDeleted: false, threadContext: null, comments: [{ id: 1, parentCommentId: 0, content: 'Looks good to me', commentType: 'text' }] });
    await azureDevops.write!(context(mock), filesWriteBack({ de: { ...GERMAN, cart: 'Der Warenkorb ist leer' } }, rows.slice(0, 1)));
    expect(mock.threads.get(1)!.map((t) => t.status)).toEqual(['active', 'active']);
    await azureDevops.write!(context(mock), filesWriteBack({ de: { ...GERMAN, cart: 'Ihr Korb ist leer' } }));
    expect(mock.threads.get(1)!.map((t) => [t.id, t.status])).toEqual([
      [100, 'fixed'],
      [7, 'active'],
    ]);
    expect(mock.statuses.at(-1)).toMatchObject({ state: 'succeeded' });
  });

  it('waits out a 429 by its Retry-After and goes on', async () => {
    mock.failNext429(1);
    const started = Date.now();
    const listing = await azureDevops.list(context(mock));
    expect(listing.units).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(mock.requests[0]).toBe(mock.requests[1]);
  });

  it("refused token → 'auth' quoting TF400813; wrong repository → 'config' quoting TF401019; a missing base branch found through paged refs → 'config'; server down → 'unavailable'", async () => {
    const auth = await rejection(azureDevops.list(context(mock, {}, { token: 'revoked' })));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toMatch(/HTTP 401: TF400813/);
    const config = await rejection(azureDevops.list(context(mock, { repository: 'storefront-api' })));
    expect(config.kind).toBe('config');
    expect(config.message).toMatch(/HTTP 404: TF401019: The Git repository with name or identifier storefront-api/);
    // `filter=heads/develop` also finds develop-2 and develop-3, one a page: every page is read, none is 'develop'.
    const main = mock.git.branches.get('main')!;
    mock.git.move('develop-2', main);
    mock.git.move('develop-3', main);
    const branch = await rejection(azureDevops.list(context(mock, { base_branch: 'develop' })));
    expect(branch.kind).toBe('config');
    expect(branch.message).toContain("Branch 'develop' does not exist");
    expect(mock.requests.filter((r) => r.includes('filter=heads%2Fdevelop'))).toHaveLength(2);
    await mock.stop();
    const down = await rejection(azureDevops.list(context(mock)));
    expect(down.kind).toBe('unavailable');
  });

  it('webhook: a git.push to the base branch with the right basic-auth password syncs; forged, other branches, repositories and events do not', () => {
    const settings = context(mock).settings;
    mock.git.editJson('main', 'locales/en.json', (data) => void (data.cart = 'Your basket is empty'), 'Copy');
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    const good = mock.pushEvent('whsec_9');
    expect(azureDevops.verifyWebhook!(request(good), 'whsec_9', settings)).toEqual({ verified: true, sync: true });
    expect(azureDevops.verifyWebhook!(request(mock.pushEvent('guess')), 'whsec_9', settings)).toMatchObject({ verified: false, sync: false });
    const { authorization: _dropped, ...unauthenticated } = good.headers;
    expect(azureDevops.verifyWebhook!(request({ ...good, headers: unauthenticated }), 'whsec_9', settings)).toMatchObject({ verified: false });
    mock.git.move('parlance/main', mock.git.branches.get('main')!);
    expect(azureDevops.verifyWebhook!(request(mock.pushEvent('whsec_9', 'parlance/main')), 'whsec_9', settings)).toMatchObject({ verified: true, sync: false });
    const elsewhere = { ...good, body: good.body.replaceAll('"name":"storefront-web"', '"name":"payments"').replace(/"id":"3411ebc1[^"]*"/, '"id":"9d2c0a7e"') };
    expect(azureDevops.verifyWebhook!(request(elsewhere), 'whsec_9', settings)).toMatchObject({ verified: true, sync: false });
    const created = { ...good, body: good.body.replace('"eventType":"git.push"', '"eventType":"git.pullrequest.created"') };
    expect(azureDevops.verifyWebhook!(request(created), 'whsec_9', settings)).toMatchObject({ verified: true, sync: false });
  });
});

describe('Azure DevOps Repos connector: one commit per batch', () => {
  it('a sync of two source files pushes one commit per batch (its files, its trailer), in order; a retried write pushes none again', async () => {
    const mock = await startAzureDevopsMock();
    try {
      const write = twoBatchWriteBack(['bat_51', 'bat_52'], { de: GERMAN }, { de: { pay: 'Bezahlen' }, fr: { pay: 'Payer' } });
      const result = await azureDevops.write!(context(mock), write);
      expect(result.written).toBe(3);
      expect(mock.pushes).toHaveLength(2);
      expect(mock.pushes.map((p) => p.commits[0]!.changes.map((c) => c.item.path))).toEqual([['/locales/de.json'], ['/src/checkout/de.json', '/src/checkout/fr.json']]);
      expect(mock.pushes.map((p) => batchTrailers(p.commits[0]!.comment))).toEqual([['bat_51'], ['bat_52']]);
      const head = mock.git.commits.get(mock.git.branches.get('parlance/main')!)!;
      expect(mock.pushes[1]!.refUpdates[0]!.oldObjectId).toBe(head.parents[0]);
      expect(mock.pullRequests).toHaveLength(1);
      expect(mock.pullRequests[0]!.description).toMatch(/\[bat_51\][^\n]*\n- \[bat_52\]/);
      const again = await azureDevops.write!(context(mock), twoBatchWriteBack(['bat_51', 'bat_52'], { de: { ...GERMAN, cart: 'Der Korb ist leer' } }, { de: { pay: 'Bezahlen' }, fr: { pay: 'Payer' } }));
      expect(again.written).toBe(0);
      expect(again.note).toContain('batch bat_51, bat_52 already committed there');
      expect(mock.pushes).toHaveLength(2);
    } finally {
      await mock.stop();
    }
  });
});

describe('Azure DevOps Repos connector: rebuilding parlance/main on a moved base', () => {
  let mock: AzureDevopsMock;
  beforeEach(async () => {
    mock = await startAzureDevopsMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  const rewordSource = () => mock.git.editJson('main', 'locales/en.json', (data) => void (data.cart = 'Your basket is empty'), 'Reword cart');
  const notes = (marker: string) => (mock.threads.get(1) ?? []).filter((t) => t.comments[0]!.content.includes(marker));

  it('only Parlance committed there: one push whose commit has the new base as parent and the old head as oldObjectId (a non-fast-forward update)', async () => {
    await azureDevops.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const first = mock.git.branches.get('parlance/main')!;
    const main = rewordSource().id;
    const result = await azureDevops.write!(context(mock), filesWriteBack({ de: { ...GERMAN, cart: 'Ihr Korb ist leer' } }));
    const push = mock.pushes.at(-1)! as (typeof mock.pushes)[number] & { commits: { parents?: string[] }[] };
    expect(push.refUpdates).toEqual([{ name: 'refs/heads/parlance/main', oldObjectId: first }]);
    expect(push.commits[0]!.parents).toEqual([main]);
    const head = mock.git.commits.get(mock.git.branches.get('parlance/main')!)!;
    expect(head.parents).toEqual([main]);
    // The French file this write did not hold again is carried from Parlance's earlier commit, not lost.
    expect(translationIn(mock.git, 'farewell', 'fr')).toBe('À bientôt');
    expect(translationIn(mock.git, 'cart', 'de')).toBe('Ihr Korb ist leer');
    expect(head.files.get('locales/en.json')).toEqual(mock.git.commits.get(main)!.files.get('locales/en.json'));
    expect(mock.git.rewrites()).toEqual([{ branch: 'parlance/main', before: first, after: head.id }]);
    expect(result.note).toContain('rebuilt on main@');
    expect(mock.pullRequests).toHaveLength(1);
    expect(mock.threads.get(1) ?? []).toEqual([]);
  });

  it("a person's commit on the branch: no rewrite, the push goes on top of it, and one thread names it however often it is written", async () => {
    await azureDevops.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const human = mock.git.editJson('parlance/main', 'locales/de.json', (data) => void (data.checkout = 'Zur Kasse, bitte'), 'Better German');
    rewordSource();
    await azureDevops.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, cart: 'Votre panier est encore vide' } }));
    expect(mock.git.commits.get(mock.git.branches.get('parlance/main')!)!.parents).toEqual([human.id]);
    await azureDevops.write!(context(mock), filesWriteBack({ fr: { ...FRENCH, cart: 'Votre panier reste vide' } }));
    expect(mock.git.rewrites()).toEqual([]);
    const found = notes('<!-- parlance:human-commits -->');
    expect(found).toHaveLength(1);
    expect(found[0]!.comments[0]!.content).toContain(`\`${human.id.slice(0, 7)}\` by Maria Example`);
    expect(found[0]!.threadContext).toBeNull();
  });

  it('ForcePush denied: Azure answers 403 TF401027, the branch is extended instead, and one thread and the sync note say so', async () => {
    await azureDevops.write!(context(mock), filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const first = mock.git.branches.get('parlance/main')!;
    mock.setForcePush(false);
    rewordSource();
    const result = await azureDevops.write!(context(mock), filesWriteBack({ de: { ...GERMAN, cart: 'Ihr Korb ist leer' } }));
    expect(mock.requests.filter((r) => r.startsWith('POST ') && r.includes('/pushes?'))).toHaveLength(3);
    expect(mock.pushes.at(-1)!.refUpdates).toEqual([{ name: 'refs/heads/parlance/main', oldObjectId: first }]);
    expect(mock.git.commits.get(mock.git.branches.get('parlance/main')!)!.parents).toEqual([first]);
    expect(translationIn(mock.git, 'cart', 'de')).toBe('Ihr Korb ist leer');
    expect(mock.git.rewrites()).toEqual([]);
    expect(result.note).toMatch(/not rebuilt on the moved main, extended instead: Azure DevOps answered HTTP 403: TF401027: You need the Git 'ForcePush' permission/);
    // Written again (the base still moved, the rewrite still refused): the one thread is kept, not posted twice.
    await azureDevops.write!(context(mock), filesWriteBack({ de: { ...GERMAN, cart: 'Ihr Korb bleibt leer' } }));
    const found = notes('<!-- parlance:rebuild-refused -->');
    expect(found).toHaveLength(1);
    expect(found[0]!.comments[0]!.content).toContain("give the token's account the permission to force-push on `parlance/main`");
    expect(mock.git.rewrites()).toEqual([]);
  });
});

// The acceptance scenario through the service; afterwards no person's commit may have been rewritten away.
let acceptance: Awaited<ReturnType<typeof azureDevopsFixture>> | undefined;
connectorAcceptance('Azure DevOps Repos: acceptance', async () => (acceptance = await azureDevopsFixture()), { direction: 'two_way', codeHost: true });
afterAll(() => {
  if (!acceptance) return; // the scenario was filtered out
  expect(acceptance.mock.git.moves.some((m) => m.branch === 'parlance/main')).toBe(true);
  // A rebuild on the moved base may replace Parlance's own commits, never a person's.
  const git = acceptance.mock.git;
  for (const move of git.rewrites()) expect(git.between(move.after, move.before!).filter((c) => c.author.name !== PARLANCE_BOT.name)).toEqual([]);
});
