/** The Bitbucket Cloud connector against a local Bitbucket REST API 2.0 over an in-memory repository, then the acceptance scenario. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { FileUnit, ReportRow } from '../../server/integrations/connector.js';
import { bitbucket } from '../../server/integrations/connectors/bitbucket.js';
import { connectorAcceptance } from '../helpers/connector-kit.js';
import { bitbucketFixture, startBitbucketMock, type BitbucketMock } from '../helpers/connector-mocks/bitbucket.js';
import { filesWriteBack, FRENCH, GERMAN, translationIn } from '../helpers/connector-mocks/git-store.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

const context = (mock: BitbucketMock, settings: Record<string, unknown> = {}, secrets: Record<string, unknown> = { access_token: mock.token }) => connectorContext(bitbucket, { api_url: mock.url, workspace: mock.workspace, repo_slug: mock.repoSlug, ...settings }, secrets);

describe('Bitbucket Cloud connector', () => {
  let mock: BitbucketMock;

  beforeEach(async () => {
    mock = await startBitbucketMock({ pageSize: 2, username: 'maria', appPassword: 'ATBB-app-password' });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('lists the source file named by parlance.yml, reading the tree page by page, with the remote locales only', async () => {
    const listing = await bitbucket.list(context(mock));
    expect(listing.units).toHaveLength(1);
    const unit = listing.units[0] as FileUnit;
    expect(unit).toMatchObject({ kind: 'file', path: 'locales/en.json', format: 'json' });
    expect(JSON.parse(new TextDecoder().decode(unit.content))).toMatchObject({ welcome: 'Welcome to our store' });
    expect(unit.targets).toEqual([
      { locale: 'de', path: 'locales/de.json', content: null },
      { locale: 'fr', path: 'locales/fr.json', content: null },
    ]);
    // Seven tree entries (four files, three directories) at two a page: the listing followed `next` to the fourth page.
    const pages = mock.requests.filter((r) => r.includes('/src/') && r.includes('max_depth='));
    expect(pages.length).toBe(4);
    expect(pages.at(-1)).toContain('page=4');
  });

  it('first write: one commit on parlance/main from main, a pull request, a passed report; the same write again changes nothing', async () => {
    const ctx = context(mock);
    const mainHead = mock.git.branches.get('main')!;
    const result = await bitbucket.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(result.written).toBe(2);
    expect(result.url).toBe('https://bitbucket.org/acme/storefront/pull-requests/1');
    const head = mock.git.branches.get('parlance/main')!;
    expect(mock.git.commits.get(head)!.parents).toEqual([mainHead]);
    expect(mock.git.commits.get(head)!.message).toContain('Parlance-Batch: bat_1');
    expect(translationIn(mock.git, 'cart', 'de')).toBe('Ihr Warenkorb ist leer');
    expect(mock.git.branches.get('main')).toBe(mainHead);
    expect(mock.pullRequests).toMatchObject([{ source: 'parlance/main', destination: 'main', state: 'OPEN', title: 'Parlance: translations for main' }]);
    expect(mock.reports.get(`${head}/parlance`)).toMatchObject({ result: 'PASSED', report_type: 'BUG' });
    expect(mock.statuses.get(`${head}/parlance`)).toMatchObject({ state: 'SUCCESSFUL', url: 'https://bitbucket.org/acme/storefront/pull-requests/1' });

    const again = await bitbucket.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    expect(again.written).toBe(0);
    expect(mock.git.branches.get('parlance/main')).toBe(head);
    expect(mock.pullRequests).toHaveLength(1);
    expect(mock.requests.filter((r) => r === 'POST /2.0/repositories/acme/storefront/src')).toHaveLength(1);
    expect(mock.requests.filter((r) => r === 'PUT /2.0/repositories/acme/storefront/pullrequests/1')).toHaveLength(1);
  });

  it("keeps a person's commit on parlance/main: it is listed, and the next write goes on top of it", async () => {
    const ctx = context(mock);
    await bitbucket.write!(ctx, filesWriteBack({ de: GERMAN, fr: FRENCH }));
    const human = mock.git.editJson('parlance/main', 'locales/de.json', (data) => void (data.checkout = 'Zur Kasse, bitte'), 'Better German');
    const listing = await bitbucket.list(ctx);
    const de = (listing.units[0] as FileUnit).targets.find((t) => t.locale === 'de')!;
    expect(JSON.parse(new TextDecoder().decode(de.content!))).toMatchObject({ checkout: 'Zur Kasse, bitte' });

    await bitbucket.write!(ctx, filesWriteBack({ fr: { ...FRENCH, cart: 'Votre panier est toujours vide' } }));
    const head = mock.git.branches.get('parlance/main')!;
    expect(mock.git.commits.get(head)!.parents).toEqual([human.id]);
    expect(translationIn(mock.git, 'checkout', 'de')).toBe('Zur Kasse, bitte');
    expect(translationIn(mock.git, 'cart', 'fr')).toBe('Votre panier est toujours vide');
    expect(mock.git.rewrites()).toEqual([]);
  });

  it('a head that moves between read and write: an error, nothing overwritten, no second attempt', async () => {
    const ctx = context(mock);
    await bitbucket.write!(ctx, filesWriteBack({ de: GERMAN }));
    let human = '';
    mock.beforeNextCommit(() => {
      human = mock.git.editJson('parlance/main', 'locales/de.json', (data) => void (data.welcome = 'Herzlich willkommen'), 'Warmer welcome').id;
    });
    const posts = () => mock.requests.filter((r) => r.endsWith('/src') && r.startsWith('POST')).length;
    const before = posts();
    const error = await rejection(bitbucket.write!(ctx, filesWriteBack({ de: { ...GERMAN, farewell: 'Auf Wiedersehen' } })));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/moved since Parlance read it.*HTTP 409/);
    expect(posts() - before).toBe(1);
    expect(mock.git.branches.get('parlance/main')).toBe(human);
    expect(translationIn(mock.git, 'welcome', 'de')).toBe('Herzlich willkommen');
    expect(mock.git.rewrites()).toEqual([]);
  });

  it('refused rows: a failed report with annotations on the source path and line, sent 100 at a time', async () => {
    const rows: ReportRow[] = [{ path: 'locales/en.json', key: 'cart', locale: 'de', line: 3, outcome: 'refused', reason: 'Placeholder {count} missing' }];
    for (let i = 0; i < 129; i++) rows.push({ path: 'locales/en.json', key: `extra.${i}`, locale: 'fr', line: 10 + i, outcome: 'flagged', reason: 'Longer than the source by 60%' });
    await bitbucket.write!(context(mock), filesWriteBack({ de: GERMAN }, rows));
    const head = mock.git.branches.get('parlance/main')!;
    const report = mock.reports.get(`${head}/parlance`)!;
    expect(report).toMatchObject({ result: 'FAILED', details: '1 translation(s) refused by the quality gates' });
    expect(report.data).toEqual([
      { title: 'Refused', type: 'NUMBER', value: 1 },
      { title: 'Flagged', type: 'NUMBER', value: 129 },
    ]);
    const annotations = [...mock.annotations.get(`${head}/parlance`)!.values()];
    expect(annotations).toHaveLength(130);
    expect(annotations.find((a) => String(a.summary).includes("'cart'"))).toMatchObject({ path: 'locales/en.json', line: 3, severity: 'HIGH', annotation_type: 'BUG' });
    expect(mock.requests.filter((r) => r.endsWith(`/commit/${head}/reports/parlance/annotations`))).toHaveLength(2);
    expect(mock.statuses.get(`${head}/parlance`)).toMatchObject({ state: 'FAILED' });
  });

  it('waits out a 429 (no Retry-After: backoff) and goes on', async () => {
    mock.failNext429(1);
    const listing = await bitbucket.list(context(mock));
    expect(listing.units).toHaveLength(1);
    expect(mock.requests[0]).toBe(mock.requests[1]);
  });

  it('signs in with a username and app password too', async () => {
    const listing = await bitbucket.list(context(mock, {}, { username: 'maria', app_password: 'ATBB-app-password' }));
    expect(listing.units).toHaveLength(1);
  });

  it("refused credentials → 'auth' quoting Bitbucket; a wrong repository → 'config' naming it; server down → 'unavailable'", async () => {
    const auth = await rejection(bitbucket.list(context(mock, {}, { access_token: 'revoked' })));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toMatch(/HTTP 401: Token is invalid, expired/);
    const config = await rejection(bitbucket.list(context(mock, { repo_slug: 'storefrnt' })));
    expect(config.kind).toBe('config');
    expect(config.message).toMatch(/no repository 'storefrnt' in workspace 'acme'/);
    const branch = await rejection(bitbucket.list(context(mock, { base_branch: 'develop' })));
    expect(branch.kind).toBe('config');
    expect(branch.message).toContain("Branch 'develop' does not exist");
    await mock.stop();
    const down = await rejection(bitbucket.list(context(mock)));
    expect(down.kind).toBe('unavailable');
  });

  it('webhook: the signed repo:push to the base branch syncs; forged, other branches and other events do not', () => {
    const settings = context(mock).settings;
    mock.git.editJson('main', 'locales/en.json', (data) => void (data.cart = 'Your basket is empty'), 'Copy');
    const signed = mock.pushWebhook('whsec_1');
    const request = (hook: { headers: Record<string, string>; body: string }) => ({ headers: new Headers(hook.headers), body: new TextEncoder().encode(hook.body) });
    expect(bitbucket.verifyWebhook!(request(signed), 'whsec_1', settings)).toEqual({ verified: true, sync: true });
    expect(bitbucket.verifyWebhook!(request(signed), 'another-secret', settings)).toMatchObject({ verified: false, sync: false });
    expect(bitbucket.verifyWebhook!(request({ ...signed, body: signed.body.replace('main', 'main2') }), 'whsec_1', settings)).toMatchObject({ verified: false });
    const unsigned = { ...signed, headers: { ...signed.headers, 'x-hub-signature': '' } };
    expect(bitbucket.verifyWebhook!(request(unsigned), 'whsec_1', settings).verified).toBe(false);
    mock.git.move('parlance/main', mock.git.branches.get('main')!);
    expect(bitbucket.verifyWebhook!(request(mock.pushWebhook('whsec_1', 'parlance/main')), 'whsec_1', settings)).toMatchObject({ verified: true, sync: false });
    const other = { ...signed, headers: { ...signed.headers, 'x-event-key': 'pullrequest:created' } };
    expect(bitbucket.verifyWebhook!(request(other), 'whsec_1', settings)).toMatchObject({ verified: true, sync: false });
  });
});

// The acceptance scenario through the service; afterwards no branch of the mock may have been rewritten.
let acceptance: Awaited<ReturnType<typeof bitbucketFixture>> | undefined;
connectorAcceptance('Bitbucket Cloud: acceptance', async () => (acceptance = await bitbucketFixture()), { direction: 'two_way', codeHost: true });
afterAll(() => {
  if (!acceptance) return; // the scenario was filtered out
  expect(acceptance?.mock.git.moves.some((m) => m.branch === 'parlance/main')).toBe(true);
  expect(acceptance?.mock.git.rewrites()).toEqual([]);
});
