/**
 * The console's Import page end to end: the service spawned as `npm start` runs it (with PARLANCE_SECRET_KEY, which API
 * imports need), a local POEditor API serves the import fixture, and Debian's Chromium driven through playwright-core
 * by the Demo owner imports POEditor's export through the file input, then the same project through the API, reads
 * both reports and the list of imports, with axe-core run on the page.
 */
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, CHROMIUM, HAS_CHROMIUM, launchChromium, settled, signUpDemoOwner, startParlance, stopParlance, type Service, watchProblems } from '../helpers/console-browser.js';
import { importFixture } from '../helpers/import-fixture.js';
import { poeditorArchive, startPoeditorMock, type PoeditorMock } from '../helpers/platform-mocks/poeditor.js';
import { backendEnv } from '../helpers/service.js';

if (!HAS_CHROMIUM) console.warn(`test/e2e/console-imports.test.ts is skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const fixture = importFixture();
const KEYS = fixture.keys.length;
const ARCHIVE_NAME = 'poeditor-export.zip';
/** 520 keys on a machine shared with other test runs: generous, though an import usually ends within a few seconds. */
const IMPORT_TIMEOUT_MS = 45_000;

const browserProblems: string[] = [];

describe.skipIf(!HAS_CHROMIUM)('the Import page in Chromium', () => {
  let poeditor: PoeditorMock;
  let service: Service | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let owner: Page;
  /** Where the page's own text appears: the screen-reader announcer repeats messages a moment later outside it. */
  let main: Locator;

  beforeAll(async () => {
    [poeditor, service, browser] = await Promise.all([
      startPoeditorMock(fixture),
      startParlance(backendEnv({ LOG_LEVEL: 'info', PARLANCE_DEMO: 'true', PARLANCE_SECRET_KEY: 'c'.repeat(64), RATE_LIMIT_PER_MINUTE: '100000' }, { migrated: true })),
      launchChromium(),
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: service.url });
    owner = await context.newPage();
    watchProblems(owner, browserProblems);
    main = owner.locator('#main');
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stopParlance(service);
    await poeditor?.stop();
  });

  /** The card of the import just started, once it has finished (its heading starts with the status badge). */
  async function finishedImport(heading: RegExp): Promise<Locator> {
    const card = main.getByRole('region', { name: heading });
    await expect.poll(() => card.locator('h2 .badge').textContent(), { timeout: IMPORT_TIMEOUT_MS, interval: 250 }).toMatch(/^(completed|failed|cancelled)$/);
    return card;
  }

  it('signs up the owner of the Demo project and opens the Import page from the navigation', async () => {
    await signUpDemoOwner(owner);

    await owner.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Import', exact: true }).click();
    await expect.poll(() => owner.locator('#page-title').textContent()).toBe('Import from another platform');
    await settled(owner);
    await main.getByText('No imports yet.').waitFor();
  });

  it('imports POEditor’s export through the file input and lays out its report', async () => {
    await owner.getByLabel('Platform', { exact: true }).selectOption('poeditor');
    await owner.getByRole('radio', { name: /^From an export/ }).check();
    await expect(main.locator('#import-platform-hint').textContent()).resolves.toMatch(/exported as JSON/);
    await owner.getByLabel('Export file', { exact: true }).setInputFiles({ name: ARCHIVE_NAME, mimeType: 'application/zip', buffer: Buffer.from(poeditorArchive(fixture)) });
    await owner.getByRole('button', { name: 'Import', exact: true }).click();

    const card = await finishedImport(/POEditor, from the export poeditor-export\.zip/);
    await expect(card.locator('h2 .badge').textContent()).resolves.toBe('completed');
    const facts = card.locator('dl.facts').last();
    await expect(facts.textContent()).resolves.toContain(`Keys${KEYS} added, 0 updated, 0 unchanged`);
    await expect(facts.textContent()).resolves.toContain('pt-br → pt-BR');
    await expect(facts.textContent()).resolves.toMatch(/Languages added.*pt-BR/);
    const locales = card.getByRole('region', { name: 'Translations by language (table)' });
    await expect(locales.getByRole('row', { name: /^pt-BR/ }).count()).resolves.toBe(1);
    await expect(locales.getByRole('row', { name: /^de/ }).count()).resolves.toBe(1);
    // The export carries no proofread state (the reader warns of it), so nothing arrives as human.
    await expect(card.getByRole('heading', { name: /^Warnings: \d+/ }).count()).resolves.toBe(1);
    await expect(card.textContent()).resolves.toContain('no proofread state');
  });

  it('imports the same project through POEditor’s API, forgetting the token, and finds every key unchanged', async () => {
    await owner.getByRole('radio', { name: /^Through the API/ }).check();
    await expect(main.locator('#import-platform-hint').textContent()).resolves.toMatch(/API access/);
    await owner.getByLabel('Project id', { exact: true }).fill(poeditor.projectId);
    const token = owner.getByLabel('API token', { exact: true });
    await expect(token.getAttribute('type')).resolves.toBe('password');
    await token.fill(poeditor.token);
    await owner.getByLabel('API address (optional)', { exact: true }).fill(poeditor.url);
    await owner.getByRole('button', { name: 'Import', exact: true }).click();

    const card = await finishedImport(/POEditor, through the API/);
    await expect(card.locator('h2 .badge').textContent()).resolves.toBe('completed');
    await expect(card.locator('dl.facts').last().textContent()).resolves.toContain(`Keys0 added, 0 updated, ${KEYS} unchanged`);
    await expect(token.inputValue()).resolves.toBe('');
    expect(await owner.content()).not.toContain(poeditor.token);
    // The mock saw the token the person typed: the import really went through POEditor's API.
    expect(poeditor.requests.some((r) => r.method === 'terms/list' && r.fields.api_token === poeditor.token)).toBe(true);
  });

  it('lists both imports, newest first, each opening its report', async () => {
    const list = main.getByRole('region', { name: 'Past imports (table)' });
    // The list reloads when the import on the page finishes; until that answer arrives it may still show it running.
    await expect.poll(() => list.locator('tbody tr').allTextContents(), { timeout: 10_000 }).toEqual([expect.stringMatching(/^imp_\w+completed/), expect.stringMatching(/^imp_\w+completed/)]);
    const rows = await list.locator('tbody tr').allTextContents();
    expect(rows[0]).toMatch(/completedPOEditorAPI0 added, 0 updated, 520 unchanged/);
    expect(rows[1]).toMatch(/completedPOEditorexport poeditor-export\.zip520 added, 0 updated, 0 unchanged/);
    await checkPage(owner, 'imports');

    await list.locator('tbody tr').nth(1).getByRole('link').click();
    await expect.poll(() => owner.locator('#page-title').textContent()).toMatch(/^Import imp_/);
    const card = await finishedImport(/POEditor, from the export poeditor-export\.zip/);
    await expect(card.textContent()).resolves.toContain('pt-br → pt-BR');
    await checkPage(owner, 'imports-report');
  });

  it('saw no script error and nothing blocked by the Content-Security-Policy', () => {
    expect(browserProblems).toEqual([]);
  });
});
