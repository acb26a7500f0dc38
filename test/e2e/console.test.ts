/**
 * The web console end to end: the service spawned as `npm start` runs it, driven in Debian's Chromium through
 * playwright-core by three people (the Demo owner, an invited translator, a newcomer on the free plan), with axe-core
 * run on every page and a screenshot of each in test-artifacts/console/.
 */
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, HAS_CHROMIUM, PASSWORD, ROOT, checkPage, settled, startParlance, stopParlance, type Service } from '../helpers/console-browser.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { backendEnv } from '../helpers/service.js';

if (!HAS_CHROMIUM) console.warn(`test/e2e/console.test.ts is skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

// `PARLANCE_DOCS_SCREENSHOT=1` also refreshes the README's picture; a plain run leaves tracked files alone.
const DOCS_SCREENSHOT = process.env.PARLANCE_DOCS_SCREENSHOT === '1' ? join(ROOT, 'docs', 'console.png') : undefined;

/** Four units: `welcome` is held (the mock drops its placeholder twice), `save` is flagged (over its 6 characters). */
const SOURCE_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
  <file original="app.html" source-language="en" datatype="plaintext">
    <body>
      <trans-unit id="welcome"><source>Welcome back, {name}!</source></trans-unit>
      <trans-unit id="save" maxwidth="6" size-unit="char"><source>Save</source></trans-unit>
      <trans-unit id="inbox"><source>You have {count} new messages</source><note>Shown on the home screen</note></trans-unit>
      <trans-unit id="farewell"><source>Goodbye</source></trans-unit>
    </body>
  </file>
</xliff>
`;

/** Problems the browser reported: script errors, and anything the Content-Security-Policy blocked. */
const browserProblems: string[] = [];

function watch(page: Page, who: string) {
  page.on('pageerror', (error) => browserProblems.push(`[${who}] page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) browserProblems.push(`[${who}] ${message.text()}`);
  });
}

const heading = (page: Page) => page.locator('#page-title');

/** Follows a link of the project navigation and waits for the page it opens. */
async function open(page: Page, link: string, title: string) {
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: link, exact: true }).click();
  await expect.poll(() => heading(page).textContent()).toBe(title);
  await settled(page);
}

describe.skipIf(!HAS_CHROMIUM)('the web console in Chromium', () => {
  let mock: MockOpenAI;
  let service: Service | undefined;
  let browser: Browser;
  let owner: Page;
  let translator: Page;
  let newcomer: Page;
  const contexts: BrowserContext[] = [];
  let projectId = '';

  async function person(who: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: service!.url });
    contexts.push(context);
    const page = await context.newPage();
    watch(page, who);
    return page;
  }

  beforeAll(async () => {
    mock = await startMockOpenAI();
    // The mock answers `welcome` without its placeholder, first time and on the corrective retry: the row is held.
    mock.script = (row, { locale }) => (row.key === 'welcome' ? `${locale}: WILLKOMMEN ZURÜCK!` : undefined);
    service = await startParlance(
      backendEnv({
        LOG_LEVEL: 'info',
        PARLANCE_DEMO: 'true',
        RATE_LIMIT_PER_MINUTE: '100000',
        TRANSLATION_PROVIDER: 'openai',
        OPENAI_BASE_URL: mock.url,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'mock-fast',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      }, { migrated: true }),
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stopParlance(service);
    await mock?.close();
  });

  it('serves the console at / with a strict Content-Security-Policy', async () => {
    const res = await fetch(`${service!.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'; script-src 'self'.*frame-ancestors 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).not.toMatch(/<script>/);
    const script = /src="(\/console\/console\.js\?v=\w+)"/.exec(html)![1]!;
    const asset = await fetch(`${service!.url}${script}`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('signs up the first person, who becomes owner of the Demo organisation', async () => {
    owner = await person('owner');
    await owner.goto('/');
    await expect.poll(() => owner.url()).toContain('#/sign-in');
    await checkPage(owner, 'sign-in');
    await owner.getByRole('link', { name: 'Create one' }).click();
    await checkPage(owner, 'sign-up');
    await owner.getByLabel('Email', { exact: true }).fill('owner@example.com');
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => heading(owner).textContent(), { timeout: 15_000 }).toBe('Demo: overview');
    await expect(owner.locator('.nav-role').textContent()).resolves.toContain('your role: owner');
    projectId = /#\/p\/([^/?]+)/.exec(owner.url())![1]!;
  });

  it('uploads a source file and follows its batch to 100%', async () => {
    await open(owner, 'Upload', 'Upload a source file');
    await owner.getByLabel('Source file').setInputFiles({ name: 'app.xlf', mimeType: 'application/xliff+xml', buffer: Buffer.from(SOURCE_FILE) });
    await expect(owner.getByLabel('Path in your repository').inputValue()).resolves.toBe('app.xlf');
    await owner.getByLabel('Path in your repository').fill('locales/app.en.xlf');
    await owner.getByLabel('Format').selectOption('xliff12');
    await owner.getByRole('button', { name: 'Push' }).click();
    const bar = owner.getByRole('progressbar', { name: 'Batch progress' });
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 30_000 }).toBe('100');
    await owner.getByRole('heading', { name: 'Row outcomes' }).waitFor();
    await expect.poll(() => owner.locator('.rows-table tbody tr').count(), { timeout: 15_000 }).toBe(12);
    await checkPage(owner, 'upload');
  });

  it('shows progress per locale, held and flagged rows included', async () => {
    await open(owner, 'Overview', 'Demo: overview');
    const german = owner.getByRole('row', { name: /^de — German/ });
    await expect(german.getByRole('progressbar').getAttribute('aria-valuetext')).resolves.toBe('50% translated: 2 of 4 keys, 1 flagged, 1 held, 0 missing');
    await checkPage(owner, 'overview');
    if (DOCS_SCREENSHOT) await owner.screenshot({ path: DOCS_SCREENSHOT });
  });

  it('approves a held row and, in bulk, the flagged rows in the review queue', async () => {
    await open(owner, 'Review queue', 'Review queue');
    await expect.poll(() => owner.locator('.review-table tbody tr').count(), { timeout: 10_000 }).toBe(3);
    await expect(owner.locator('.review-table').textContent()).resolves.toContain('placeholder {name} is missing');
    await checkPage(owner, 'review');
    await owner.getByRole('button', { name: 'Approve welcome (de)' }).click();
    await expect.poll(() => owner.locator('.review-table tbody tr').count(), { timeout: 10_000 }).toBe(2);

    await owner.getByRole('button', { name: 'Flagged', exact: true }).click();
    await expect.poll(() => owner.locator('.review-table tbody tr').count(), { timeout: 10_000 }).toBe(3);
    await owner.getByRole('checkbox', { name: 'Choose every row' }).check();
    await owner.getByRole('button', { name: 'Approve chosen' }).click();
    await owner.getByText('Nothing flagged').waitFor();
  });

  it('refuses a translation that drops a placeholder, says why, and saves the corrected one', async () => {
    await open(owner, 'Keys and translations', 'Keys and translations');
    await owner.getByRole('button', { name: 'welcome', exact: true }).click();
    await expect(owner.locator('#editor-title').textContent()).resolves.toBe('welcome');
    await owner.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => owner.locator('#editor-title').textContent()).toBe('save');

    await owner.getByLabel('Search', { exact: true }).fill('inbox');
    // The search waits 350 ms for typing to stop, then asks the service: on a loaded CI machine that can take longer
    // than expect.poll's default second, as can the review queue's reloads above.
    await expect.poll(() => owner.locator('.keys-table tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await owner.getByRole('button', { name: 'inbox', exact: true }).click();
    const field = owner.getByLabel('Translation of inbox');
    await expect(field.getAttribute('lang')).resolves.toBe('de');
    await field.fill('Sie haben neue Nachrichten');
    await owner.getByText('Gates: this text would be refused.').waitFor();
    await owner.keyboard.press('Control+Enter');
    const refusal = owner.getByRole('alert').filter({ hasText: 'Not saved: refused by the gates' });
    await expect(refusal.textContent()).resolves.toContain('placeholder {count} is missing');
    await checkPage(owner, 'keys-refused');

    await field.fill('Sie haben ');
    await owner.getByRole('button', { name: 'Insert placeholder {count}' }).click();
    await expect.poll(() => field.inputValue(), { timeout: 10_000 }).toBe('Sie haben {count}');
    await field.press('End');
    await field.pressSequentially(' neue Nachrichten');
    await expect(field.inputValue()).resolves.toBe('Sie haben {count} neue Nachrichten');
    await owner.keyboard.press('Control+Enter');
    await owner.getByText('Saved. Machine passes will not overwrite it').waitFor();
    await expect(owner.locator('.editor-head .badge').textContent()).resolves.toBe('Human');
    await checkPage(owner, 'keys');
  });

  it('invites a translator, who previews and accepts the invitation in a second browser', async () => {
    await open(owner, 'Invitations', 'Invitations');
    await owner.getByLabel('Email', { exact: true }).fill('translator@example.com');
    await owner.getByLabel('Role', { exact: true }).selectOption('translator');
    await owner.getByRole('button', { name: 'Create invitation' }).click();
    const link = await owner.getByLabel('Invitation link', { exact: true }).inputValue();
    expect(link).toMatch(new RegExp(`^${service!.url}/#/invite/`));
    await checkPage(owner, 'invitations');

    translator = await person('translator');
    await translator.goto(link);
    await expect.poll(() => heading(translator).textContent()).toBe('Join Demo on Parlance');
    await expect(translator.locator('.facts').textContent()).resolves.toContain('translator');
    await checkPage(translator, 'invite');
    await expect(translator.getByLabel('Email').inputValue()).resolves.toBe('translator@example.com');
    await translator.getByLabel('Password').fill(PASSWORD);
    await translator.getByRole('button', { name: 'Create account and join' }).click();
    await expect.poll(() => heading(translator).textContent(), { timeout: 15_000 }).toBe('Demo: overview');
    await expect(translator.locator('.nav-role').textContent()).resolves.toContain('your role: translator');
  });

  it('keeps the tokens page from the translator, whose credential the API refuses with 403 ability_missing', async () => {
    await expect(translator.getByRole('navigation', { name: 'Project' }).getByRole('link').allTextContents()).resolves.not.toContain('API tokens');
    await translator.goto(`/#/p/${projectId}/tokens`);
    await settled(translator);
    await expect(translator.getByRole('alert').textContent()).resolves.toContain('Missing ability: manage');
    await checkPage(translator, 'tokens-translator');

    const answer = await translator.evaluate(async (id) => {
      const minted = await fetch('/v1/auth/credentials', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: id }) });
      const { token } = (await minted.json()) as { token: string };
      const res = await fetch('/v1/tokens', { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as { code: string } };
    }, projectId);
    expect(answer).toMatchObject({ status: 403, body: { code: 'ability_missing' } });
  });

  it('refuses a fourth member on the 3-seat plan and says why', async () => {
    await owner.getByLabel('Email', { exact: true }).fill('developer@example.com');
    await owner.getByLabel('Role', { exact: true }).selectOption('developer');
    await owner.getByRole('button', { name: 'Create invitation' }).click();
    await owner.getByLabel('Invitation link', { exact: true }).waitFor();
    await owner.getByLabel('Email', { exact: true }).fill('fourth@example.com');
    await owner.getByRole('button', { name: 'Create invitation' }).click();
    const refusal = owner.getByRole('alert').filter({ hasText: 'Not invited' });
    await expect(refusal.textContent()).resolves.toMatch(/All 3 seats of the starter plan are taken.*seats_exhausted/);
    await expect(refusal.textContent()).resolves.toContain('Withdraw a pending invitation or remove a member');
    await expect(owner.getByRole('progressbar', { name: 'Seats used' }).getAttribute('aria-valuenow')).resolves.toBe('100');
    await checkPage(owner, 'invitations-refused');
  });

  it('lets a newcomer on the free plan create a first project, where tokens are refused up front', async () => {
    newcomer = await person('newcomer');
    await newcomer.goto('/#/sign-up');
    await newcomer.getByLabel('Email').fill('newcomer@example.com');
    await newcomer.getByLabel('Password').fill(PASSWORD);
    await newcomer.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => heading(newcomer).textContent(), { timeout: 15_000 }).toBe('Create your first project');
    await checkPage(newcomer, 'projects-first');
    await newcomer.getByLabel('Project name').fill('Mobile');
    await newcomer.getByLabel('Target languages').fill('de, ar');
    await newcomer.getByRole('button', { name: 'Create project' }).click();
    await expect.poll(() => heading(newcomer).textContent(), { timeout: 15_000 }).toBe('Mobile: overview');

    await open(newcomer, 'Languages', 'Languages');
    await expect(newcomer.getByRole('row', { name: /^ar / }).textContent()).resolves.toContain('right to left');
    await newcomer.getByLabel('Add a target language').fill('en_US');
    await expect(newcomer.locator('#language-tag-error').textContent()).resolves.toContain("did you mean 'en-US'?");
    await checkPage(newcomer, 'languages');

    await open(newcomer, 'API tokens', 'API tokens');
    await expect(newcomer.locator('.notice-warning').textContent()).resolves.toContain('free plan, which cannot mint API tokens');
    await expect(newcomer.getByRole('button', { name: 'Mint token' }).isDisabled()).resolves.toBe(true);
    await checkPage(newcomer, 'tokens-free');
  });

  it('edits Arabic right to left, and stays usable 1024 pixels wide', async () => {
    await open(newcomer, 'Upload', 'Upload a source file');
    await newcomer.getByLabel('Source file').setInputFiles({ name: 'en.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "Hello, {name}"}\n') });
    await newcomer.getByRole('button', { name: 'Push' }).click();
    await expect.poll(() => newcomer.getByRole('progressbar', { name: 'Batch progress' }).getAttribute('aria-valuenow'), { timeout: 30_000 }).toBe('100');

    await newcomer.setViewportSize({ width: 1024, height: 768 });
    await open(newcomer, 'Keys and translations', 'Keys and translations');
    await newcomer.getByLabel('Language', { exact: true }).selectOption('ar');
    await newcomer.getByRole('button', { name: 'hello', exact: true }).click();
    const field = newcomer.getByLabel('Translation of hello');
    await expect(field.getAttribute('dir')).resolves.toBe('rtl');
    await expect(field.getAttribute('lang')).resolves.toBe('ar');
    await expect(newcomer.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(1024);
    await checkPage(newcomer, 'keys-rtl-1024');
  });

  it('renders every other page without a serious accessibility violation', async () => {
    // Each of these pages is titled as its link.
    const go = (label: string) => open(owner, label, label);
    await go('Glossary');
    await owner.getByText('Add a term').click();
    await owner.getByLabel('Term (source language)').fill('Dashboard');
    await owner.getByLabel('de', { exact: true }).fill('Übersicht');
    await owner.getByRole('button', { name: 'Add term' }).click();
    await owner.getByRole('row', { name: /^Dashboard/ }).waitFor();
    await checkPage(owner, 'glossary');

    await go('Batches');
    await checkPage(owner, 'batches');
    await owner.locator('table a.mono').first().click();
    await expect.poll(() => heading(owner).textContent()).toMatch(/^Batch bat_/);
    await owner.getByRole('heading', { name: 'Row outcomes' }).waitFor();
    await checkPage(owner, 'batch');

    await go('Webhooks');
    await owner.getByLabel('URL').fill(`${mock.url}/hook`);
    await owner.getByRole('button', { name: 'Create webhook' }).click();
    await expect(owner.getByLabel('Signing secret', { exact: true }).inputValue()).resolves.toMatch(/^whsec_/);
    await checkPage(owner, 'webhooks');
    await owner.getByRole('button', { name: `Send a test delivery to ${mock.url}/hook` }).click();
    // Scoped to the page: the screen-reader announcer repeats the message a moment later.
    await owner.locator('#main').getByText('Test delivery sent').waitFor();
    await owner.getByRole('link', { name: `Deliveries of ${mock.url}/hook` }).click();
    await expect.poll(() => heading(owner).textContent()).toBe('Webhook deliveries');
    await settled(owner);
    await checkPage(owner, 'webhook-deliveries');

    await go('Members');
    await expect(owner.getByRole('combobox', { name: 'Role of translator@example.com on this project' }).inputValue()).resolves.toBe('translator');
    await checkPage(owner, 'members');

    for (const [label, name] of [
      ['Languages', 'languages-owner'],
      ['Usage', 'usage'],
      ['GitHub', 'github'],
      ['API tokens', 'tokens'],
    ] as const) {
      await go(label);
      await checkPage(owner, name);
    }
  });

  it('mints a new credential when the API says the current one was revoked, and keeps it in memory only', async () => {
    // On the tokens page, where the console's own credential is listed. The next request after the revocation answers 401 token_revoked; the console mints a new credential once and
    // repeats the request, and the page carries on.
    const consoleRow = owner.getByRole('row', { name: /^console: owner@example\.com/ });
    const before = await consoleRow.locator('td.mono').textContent();
    owner.once('dialog', (dialog) => void dialog.accept());
    await consoleRow.getByRole('button', { name: 'Revoke console: owner@example.com' }).click();
    await expect.poll(() => consoleRow.locator('td.mono').textContent(), { timeout: 15_000 }).not.toBe(before);
    await expect(owner.getByRole('alert').count()).resolves.toBe(0);
    // The credential lives in memory only: nothing in web storage, and the session cookie is HttpOnly.
    await expect(owner.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage), document.cookie])')).resolves.toBe('[[],[],""]');
  });

  it('lists the browser sessions, signs out, shows the service’s reason for a wrong password, and signs in again', async () => {
    await owner.getByRole('link', { name: 'owner@example.com' }).click();
    await expect.poll(() => heading(owner).textContent()).toBe('Your account');
    await settled(owner);
    await expect(owner.getByRole('table').textContent()).resolves.toContain('This browser');
    await checkPage(owner, 'account');

    await owner.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading(owner).textContent()).toBe('Sign in to Parlance');
    await owner.getByLabel('Email', { exact: true }).fill('owner@example.com');
    await owner.getByLabel('Password').fill('not the password');
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await expect(owner.getByRole('alert').textContent()).resolves.toContain('The email address or the password is wrong.');
    await checkPage(owner, 'sign-in-refused');
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => heading(owner).textContent(), { timeout: 15_000 }).toBe('Demo: overview');
  });

  it('saw no script error and nothing blocked by the Content-Security-Policy', () => {
    expect(browserProblems).toEqual([]);
  });
});
