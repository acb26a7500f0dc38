/**
 * The Bitbucket Data Center connector against a wire-level Bitbucket REST API 1.0 (test/helpers/connector-mocks/
 * bitbucket-server.ts): listing through parlance.yml over paged file and branch listings, one commit per file on
 * parlance/main that never rewrites the branch (a person's commit there is kept and built upon; a file or a head that
 * changes mid-write stops it), the pull request at its version, the Code Insights report with its annotations replaced
 * on every report and the build status, Bitbucket's errors mapped to ConnectorError kinds, a 429 waited out, and the
 * webhook's HMAC signature on repo:refs_changed and pr:merged; then the acceptance scenario.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileUnit, ReportRow } from '../../server/integrations/connector.js';
import { bitbucketServer } from '../../server/integrations/connectors/bitbucket-server.js';
import { connectorAcceptance } from '../helpers/connector-kit.js';
import { bitbucketServerFixture, startBitbucketServerMock, type BitbucketServerMock } from '../helpers/connector-mocks/bitbucket-server.js';
import { filesWriteBack, FRENCH, GERMAN, MARIA, translationIn } from '../helpers/connector-mocks/git-store.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const USERLESS = 'BBDC-repository-token-without-user';

/** A context on the mock; one retry, so that a 429 is waited out. */
function context(mock: BitbucketServerMock, settings: Record<string, unknown> = {}, secrets: Record<string, unknown> = { token: mock.token }) {
  return connectorContext(bitbucketServer, { base_url: mock.url, project_key: mock.projectKey, repo_slug: mock.repoSlug, ...settings }, secrets, { maxRetries: 1 });
}

const edits = (mock: BitbucketServerMock) => mock.requests.filter((r) => r.startsWith('PUT /rest/api/1.0/projects/SHOP/repos/storefront/browse/'));
const hook = (signed: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(signed.headers), body: new TextEncoder().encode(signed.body) });

describe('Bitbucket Data Center connector', () => {
  let mock: BitbucketServerMock;

  beforeEach(async () => {
    mock = await startBitbucketServerMock({ pageSize: 2, userlessToken: USERLESS, extraFiles: { 'src/app/cart.ts': 'export {};\n' } });
  });
  afterEach(async () => {
    await mock.close();
  });

  it('lists the source file named by parlance.yml, following file and branch pages, and picks the branch whose ref is exactly the base', async () => {
    // 'main-archive' and 'domain' also match filterText=main; they hold an older commit.
    const first = mock.git.head('main')!;
    mock.git.editJson('main', 'locales/en.json', (data) => void (data.cart = 'Your basket is empty'), 'Copy');
    mock.git.move('domain', first);
    mock.git.move('main-archive', first);
    const listing = await bitbucketServer.list(context(mock));
    expect(listing.note).toContain(`main@${mock.git.head('main')!.slice(0, 12)}`);
    const unit = listing.units[0] as FileUnit;
    expect(unit).toMatchObject({ kind: 'file', path: 'locales/en.json', format: 'json' });
    expect(JSON.parse(new TextDecoder().decode(unit.content))).toMatchObject({ cart: 'Your basket is empty' });
    expect(unit.targets).toEqual([
      { locale: 'de', path: 'locales/de.json', content: null },
      { locale: 'fr', path: 'locales/fr.json', content: null },
    ]);
    // Five files at two a page: the listing followed nextPageStart to the third page.
    const files = mock.requests.filter((r) => r.includes('/files?'));
    expect(files.map((r) => new URL(r.split(' ')[1]!, mock.url).searchParams.get('start'))).toEqual(['0', '2', '4']);
  });

  it('first write: parlance/main created at main, one commit per file with the batch trailer, a pull request, a passed report and build status; the same write again changes nothing', async () => {
    const ctx = context(mock);
    const mainHead = mock.git.head('main')!;
    const result = await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(result.written).toBe(2);
    expect(result.url).toBe(`${mock.url}/projects/SHOP/repos/storefront/pull-requests/1`);
    const head = mock.git.commit(mock.git.head('parlance/main')!)!;
    const before = mock.git.commit(head.parents[0]!)!;
    expect(before.parents).toEqual([mainHead]);
    expect(before.message.split('\n')[0]).toMatch(/^Parlance: translations of batch bat_\d+ \(1\/2: locales\/de\.json\)$/);
    expect(head.message.split('\n')[0]).toMatch(/\(2\/2: locales\/fr\.json\)$/);
    expect(head.message.split('\n').at(-1)).toMatch(/^Parlance-Batch: bat_\d+$/);
    expect(translationIn(mock.git, 'cart', 'de')).toBe('Ihr Warenkorb ist leer');
    expect(translationIn(mock.git, 'cart', 'fr')).toBe('Votre panier est vide');
    expect(mock.git.head('main')).toBe(mainHead);
    expect(mock.pullRequests).toMatchObject([{ from: 'parlance/main', to: 'main', state: 'OPEN', title: 'Parlance: translations for main' }]);
    expect(mock.reports.get(`${head.id}/parlance.translations`)).toMatchObject({ result: 'PASS', title: 'Parlance', link: result.url });
    expect(mock.statuses.get(`${head.id}/parlance.translations`)).toMatchObject({ state: 'SUCCESSFUL', url: result.url });

    const again = await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(again.written).toBe(0);
    expect(mock.git.head('parlance/main')).toBe(head.id);
    expect(mock.pullRequests).toHaveLength(1);
    expect(edits(mock)).toHaveLength(2);
    // The pull request is read at its version; its description changed (a new batch), so it was updated once.
    expect(mock.pullRequests[0]!.version).toBe(1);
    expect(mock.git.rewrites()).toEqual([]);
  });

  it("keeps a person's commit on parlance/main: it is listed, and the next write goes on top of it with sourceCommitId", async () => {
    const ctx = context(mock);
    await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const human = mock.git.editJson('parlance/main', 'locales/de.json', (data) => void (data.checkout = 'Zur Kasse, bitte'), 'Better German');
    const listing = await bitbucketServer.list(ctx);
    const de = (listing.units[0] as FileUnit).targets.find((t) => t.locale === 'de')!;
    expect(JSON.parse(new TextDecoder().decode(de.content!))).toMatchObject({ checkout: 'Zur Kasse, bitte' });

    await bitbucketServer.write!(ctx, filesWriteBack({ de: { ...GERMAN, checkout: 'Zur Kasse, bitte' }, fr: { ...FRENCH, cart: 'Votre panier est toujours vide' } }));
    const head = mock.git.commit(mock.git.head('parlance/main')!)!;
    expect(head.parents).toEqual([human.id]);
    expect(translationIn(mock.git, 'checkout', 'de')).toBe('Zur Kasse, bitte');
    expect(translationIn(mock.git, 'cart', 'fr')).toBe('Votre panier est toujours vide');
    expect(mock.git.rewrites()).toEqual([]);
  });

  it('a file a person changes after it was read: Bitbucket refuses the edit (409), nothing is overwritten', async () => {
    const ctx = context(mock);
    await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN }));
    let human = '';
    mock.beforeNextEdit(() => {
      human = mock.git.editJson('parlance/main', 'locales/de.json', (data) => void (data.welcome = 'Herzlich willkommen'), 'Warmer welcome').id;
    });
    const error = await rejection(bitbucketServer.write!(ctx, filesWriteBack({ de: { ...GERMAN, farewell: 'Auf Wiedersehen' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/changed since Parlance read it.*HTTP 409: The file 'locales\/de.json' has been changed/);
    expect(mock.git.head('parlance/main')).toBe(human);
    expect(translationIn(mock.git, 'welcome', 'de')).toBe('Herzlich willkommen');
  });

  it("a push of another file between two of a batch's commits stops the write before that file is touched", async () => {
    const ctx = context(mock);
    await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    mock.beforeNextEdit(() => {
      mock.git.editJson('parlance/main', 'locales/fr.json', (data) => void (data.farewell = 'À très bientôt'), 'Warmer farewell', MARIA);
    });
    const error = await rejection(bitbucketServer.write!(ctx, filesWriteBack({ de: { ...GERMAN, farewell: 'Auf Wiedersehen' }, fr: { ...FRENCH, cart: 'Panier vide' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/moved from .* while Parlance prepared its commit/);
    // The German file (untouched by the person) was committed on top of their commit; the French one was not written.
    expect(translationIn(mock.git, 'farewell', 'de')).toBe('Auf Wiedersehen');
    expect(translationIn(mock.git, 'farewell', 'fr')).toBe('À très bientôt');
    expect(translationIn(mock.git, 'cart', 'fr')).toBe('Votre panier est vide');
    expect(mock.git.rewrites()).toEqual([]);
  });

  it('a head that moves between the listing and the write stops it before any edit', async () => {
    const ctx = context(mock);
    await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN }));
    const before = edits(mock).length;
    // The write reads the branch's head, then checks it again right before the first edit: a person pushes in between.
    let lookups = 0;
    mock.beforeRequest(
      (line) => line.startsWith('GET ') && line.includes('/branches?filterText=parlance') && ++lookups === 2,
      () => void mock.git.editJson('parlance/main', 'docs/notes.json', (data) => void (data.note = 'x'), 'Notes', MARIA),
    );
    const error = await rejection(bitbucketServer.write!(ctx, filesWriteBack({ de: { ...GERMAN, cart: 'Leer' } })));
    expect(error.kind).toBe('unavailable');
    expect(edits(mock).length).toBe(before);
    expect(translationIn(mock.git, 'cart', 'de')).toBe('Ihr Warenkorb ist leer');
  });

  it("a branch name Bitbucket refuses (400 InvalidRefNameException) is 'config' naming base_branch and quoting Bitbucket", async () => {
    // 'parlance/' + this name is 101 characters as refs/heads/…: the base itself (92) is accepted, Parlance's branch is not.
    const base = `release/${'x'.repeat(73)}`;
    mock.git.move(base, mock.git.head('main')!);
    const error = await rejection(bitbucketServer.write!(context(mock, { base_branch: base }), filesWriteBack({ de: GERMAN })));
    expect(error.kind).toBe('config');
    expect(error.message).toMatch(/refused the branch name \(HTTP 400: The ref name, once fully qualified, is limited to 100 characters\.\).*`base_branch`/);
    expect(mock.git.head(`parlance/${base}`)).toBeUndefined();
  });

  it('refused rows: a failed report, annotations on the source lines 100 at a time, replaced (not duplicated) when reported again, at most 1000', async () => {
    const rows: ReportRow[] = [{ path: 'locales/en.json', key: 'cart', locale: 'de', line: 3, outcome: 'refused', reason: 'Placeholder {count} missing' }];
    for (let i = 0; i < 129; i++) rows.push({ path: 'locales/en.json', key: `extra.${i}`, locale: 'fr', line: 10 + i, outcome: 'flagged', reason: 'Longer than the source by 60%' });
    const ctx = context(mock);
    await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN }, rows));
    const head = mock.git.head('parlance/main')!;
    const key = `${head}/parlance.translations`;
    expect(mock.reports.get(key)).toMatchObject({ result: 'FAIL', details: '1 translation(s) refused by the quality gates' });
    expect(mock.reports.get(key)!.data).toEqual([
      { title: 'Refused', type: 'NUMBER', value: 1 },
      { title: 'Flagged', type: 'NUMBER', value: 129 },
    ]);
    expect(mock.annotations.get(key)).toHaveLength(130);
    expect(mock.annotations.get(key)!.find((a) => String(a.message).includes("'cart'"))).toMatchObject({ path: 'locales/en.json', line: 3, severity: 'HIGH', type: 'BUG' });
    expect(mock.requests.filter((r) => r === `POST /rest/insights/1.0/projects/SHOP/repos/storefront/commits/${head}/reports/parlance.translations/annotations`)).toHaveLength(2);
    expect(mock.statuses.get(key)).toMatchObject({ state: 'FAILED' });

    // The same write again: no commit, the same head reported again, its annotations replaced.
    await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN }, rows));
    expect(mock.git.head('parlance/main')).toBe(head);
    expect(mock.annotations.get(key)).toHaveLength(130);

    const many: ReportRow[] = Array.from({ length: 1200 }, (_, i) => ({ path: 'locales/en.json', key: `k${i}`, locale: 'de', line: i + 1, outcome: 'flagged' as const, reason: 'Too long' }));
    await bitbucketServer.write!(ctx, filesWriteBack({ de: GERMAN }, many));
    expect(mock.annotations.get(key)).toHaveLength(1000);
  });

  it('waits out a 429 (Retry-After) and goes on', async () => {
    mock.failNext429(1);
    const listing = await bitbucketServer.list(context(mock));
    expect(listing.units).toHaveLength(1);
    expect(mock.requests[0]).toBe(mock.requests[1]);
  });

  it("refused credentials → 'auth' quoting Bitbucket; a token without a user → 'auth' at the first edit, saying what to use; wrong project or repository, a missing base → 'config'; down → 'unavailable'", async () => {
    const auth = await rejection(bitbucketServer.list(context(mock, {}, { token: 'revoked' })));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toMatch(/HTTP 401: Authentication failed\. Please check your credentials/);
    const userless = await rejection(bitbucketServer.write!(context(mock, {}, { token: USERLESS }), filesWriteBack({ de: GERMAN })));
    expect(userless.kind).toBe('auth');
    expect(userless.message).toMatch(/HTTP 403: The request was authenticated using a project or repository access token.*personal HTTP access token/);
    const repo = await rejection(bitbucketServer.list(context(mock, { repo_slug: 'storefrnt' })));
    expect(repo.kind).toBe('config');
    expect(repo.message).toMatch(/no repository 'storefrnt' in project 'SHOP'/);
    const project = await rejection(bitbucketServer.list(context(mock, { project_key: 'SHOPP' })));
    expect(project.kind).toBe('config');
    const branch = await rejection(bitbucketServer.list(context(mock, { base_branch: 'develop' })));
    expect(branch.kind).toBe('config');
    expect(branch.message).toContain("Branch 'develop' does not exist");
    expect(() => bitbucketServer.settings.parse({ base_url: 'bitbucket.example.com', project_key: 'SHOP', repo_slug: 'x' })).toThrow();
    await mock.stop();
    const down = await rejection(bitbucketServer.list(context(mock)));
    expect(down.kind).toBe('unavailable');
  });

  it('webhook: a signed repo:refs_changed of the base branch or pr:merged into it syncs; forged, other branches, other repositories and other events do not', async () => {
    const settings = context(mock).settings;
    mock.git.editJson('main', 'locales/en.json', (data) => void (data.cart = 'Your basket is empty'), 'Copy');
    const push = mock.pushWebhook('whsec_1');
    expect(bitbucketServer.verifyWebhook!(hook(push), 'whsec_1', settings)).toEqual({ verified: true, sync: true });
    expect(bitbucketServer.verifyWebhook!(hook(push), 'another-secret', settings)).toMatchObject({ verified: false, sync: false });
    expect(bitbucketServer.verifyWebhook!(hook({ ...push, body: push.body.replace('UPDATE', 'ADD') }), 'whsec_1', settings)).toMatchObject({ verified: false });
    expect(bitbucketServer.verifyWebhook!(hook({ ...push, headers: { ...push.headers, 'x-hub-signature': '' } }), 'whsec_1', settings).verified).toBe(false);
    expect(bitbucketServer.verifyWebhook!(hook(push), 'whsec_1', { ...settings, repo_slug: 'other' })).toMatchObject({ verified: true, sync: false, reason: expect.stringContaining('not SHOP/other') });

    await bitbucketServer.write!(context(mock), filesWriteBack({ de: GERMAN }));
    expect(bitbucketServer.verifyWebhook!(hook(mock.pushWebhook('whsec_1', 'parlance/main')), 'whsec_1', settings)).toMatchObject({ verified: true, sync: false });
    expect(bitbucketServer.verifyWebhook!(hook(mock.mergedWebhook('whsec_1', 1)), 'whsec_1', settings)).toEqual({ verified: true, sync: true });
    expect(bitbucketServer.verifyWebhook!(hook(mock.mergedWebhook('whsec_1', 1)), 'whsec_1', { ...settings, base_branch: 'develop' })).toMatchObject({ verified: true, sync: false });
    const opened = { ...push, headers: { ...push.headers, 'x-event-key': 'pr:opened' } };
    expect(bitbucketServer.verifyWebhook!(hook(opened), 'whsec_1', settings)).toMatchObject({ verified: true, sync: false });
  });
});

// The acceptance scenario through the service; afterwards no branch of the mock may have been rewritten.
let acceptance: Awaited<ReturnType<typeof bitbucketServerFixture>> | undefined;
connectorAcceptance('Bitbucket Data Center: acceptance', async () => (acceptance = await bitbucketServerFixture()), { direction: 'two_way', codeHost: true });
afterAll(() => {
  if (!acceptance) return; // the scenario was filtered out
  expect(acceptance.mock.git.moves.some((m) => m.branch === 'parlance/main')).toBe(true);
  expect(acceptance.mock.git.rewrites()).toEqual([]);
});
