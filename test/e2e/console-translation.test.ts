/**
 * The console's Translation page end to end: the service spawned as `npm start` runs it (its provider is pseudo), driven
 * in Debian's Chromium through playwright-core by the Demo owner. Shows the operator's defaults, shows the service's
 * refusal of a model for pseudo in the form, saves the style guide, shows it again after a reload, and reads it back
 * through GET /v1/project/translation, then stores and removes a project's own API key, with axe-core run on the page.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, CHROMIUM, HAS_CHROMIUM, launchChromium, settled, signUpDemoOwner, startParlance, stopParlance, type Service, watchProblems } from '../helpers/console-browser.js';
import { backendEnv } from '../helpers/service.js';

if (!HAS_CHROMIUM) console.warn(`test/e2e/console-translation.test.ts is skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const browserProblems: string[] = [];

describe.skipIf(!HAS_CHROMIUM)('the Translation page in Chromium', () => {
  let service: Service | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let owner: Page;
  let projectId: string;
  /** Where the page's own messages appear: the screen-reader announcer repeats them a moment later. */
  let main: ReturnType<Page['locator']>;

  beforeAll(async () => {
    [service, browser] = await Promise.all([
      startParlance(backendEnv({ LOG_LEVEL: 'info', PARLANCE_DEMO: 'true', PARLANCE_SECRET_KEY: 'a'.repeat(64), RATE_LIMIT_PER_MINUTE: '100000' }, { migrated: true })),
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
  });

  it('signs up the owner of the Demo project and opens its Translation page, which shows the operator defaults', async () => {
    projectId = await signUpDemoOwner(owner);

    await owner.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Translation', exact: true }).click();
    await expect.poll(() => owner.locator('#page-title').textContent()).toBe('Translation');
    await settled(owner);
    expect(owner.url()).toContain(`#/p/${projectId}/translation`);

    const fast = owner.getByLabel('Fast pass provider');
    await expect(fast.inputValue()).resolves.toBe('');
    await expect(fast.locator('option:checked').textContent()).resolves.toBe('Operator default (pseudo)');
    await expect(fast.locator('option').allTextContents()).resolves.toContain('pseudo');
    await expect(owner.getByLabel('Careful pass provider').inputValue()).resolves.toBe('');
    await expect(owner.getByLabel('Fast pass model').inputValue()).resolves.toBe('');
    await expect(owner.getByLabel('Tone').inputValue()).resolves.toBe('');
    await expect(owner.getByLabel('Keep untranslated').inputValue()).resolves.toBe('');
    await expect(owner.getByLabel(/^Formality for de/).inputValue()).resolves.toBe('');
    await checkPage(owner, 'translation');
  });

  it('shows the service’s refusal of a model for the pseudo provider in the form', async () => {
    await owner.getByLabel('Tone').fill('friendly and brief');
    await owner.getByLabel(/^Formality for de/).selectOption('informal');
    await owner.getByLabel('Keep untranslated').fill('Acme, Parlance');
    await owner.getByLabel('Fast pass model').fill('gpt-4o');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    const alert = main.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/Settings not saved:.*fast\.model 'gpt-4o': pseudo takes no model name.*\(model_not_applicable\)/);
    // Nothing was stored: the form still holds what was typed.
    await expect(owner.getByLabel('Tone').inputValue()).resolves.toBe('friendly and brief');
    await checkPage(owner, 'translation-refused');
  });

  it('saves the style guide alone once the model is emptied', async () => {
    await owner.getByLabel('Fast pass model').fill('');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await main.getByText('Translation settings saved.').waitFor();
    await expect(main.getByRole('alert').count()).resolves.toBe(0);
  });

  it('shows the saved values after a reload', async () => {
    await owner.reload();
    await expect.poll(() => owner.locator('#page-title').textContent(), { timeout: 15_000 }).toBe('Translation');
    await settled(owner);
    await expect.poll(() => owner.getByLabel('Tone').inputValue(), { timeout: 15_000 }).toBe('friendly and brief');
    await expect(owner.getByLabel(/^Formality for de/).inputValue()).resolves.toBe('informal');
    await expect(owner.getByLabel(/^Formality for fr/).inputValue()).resolves.toBe('');
    await expect(owner.getByLabel('Keep untranslated').inputValue()).resolves.toBe('Acme, Parlance');
    await expect(owner.getByLabel('Fast pass model').inputValue()).resolves.toBe('');
    await expect(owner.getByLabel('Fast pass provider').inputValue()).resolves.toBe('');
  });

  it('stored the values, as GET /v1/project/translation answers them', async () => {
    const settings = await owner.evaluate(async (id) => {
      const minted = await fetch('/v1/auth/credentials', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: id }) });
      const { token } = (await minted.json()) as { token: string };
      const res = await fetch('/v1/project/translation', { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as unknown };
    }, projectId);
    expect(settings).toEqual({
      status: 200,
      body: {
        fast: { provider: null, model: null },
        careful: { provider: null, model: null },
        style_guide: { product: null, audience: null, tone: 'friendly and brief', formality: { de: 'informal' }, keep: ['Acme', 'Parlance'] },
        available: expect.arrayContaining(['pseudo']),
        defaults: { fast: { provider: 'pseudo', model: null }, careful: { provider: 'pseudo', model: null } },
        own_keys: {},
        own_keys_problem: null,
      },
    });
  });

  it("stores the project's own API key from a password field, shows only its last four characters, and removes it", async () => {
    const field = owner.getByLabel('deepl API key');
    await expect(field.getAttribute('type')).resolves.toBe('password');
    await field.fill('console-deepl-key-Zz42:fx');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await main.getByText('Translation settings saved.').waitFor();
    // The field is empty again; the hint names the stored key by its end, and deepl is now a choice for the fast pass.
    await expect(field.inputValue()).resolves.toBe('');
    await main.getByText('Stored: …2:fx. Type a new key to replace it.').waitFor();
    await expect(owner.getByLabel('Fast pass provider').locator('option').allTextContents()).resolves.toContain('deepl');
    await expect(owner.content()).resolves.not.toContain('console-deepl-key-Zz42');
    await checkPage(owner, 'translation-own-key');

    await owner.getByLabel('Remove the stored deepl key').check();
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await main.getByText('Translation settings saved.').waitFor();
    await main.getByText("None: the operator's key is used.").first().waitFor();
    await expect(owner.getByLabel('Remove the stored deepl key').count()).resolves.toBe(0);
  });

  it('saw no script error and nothing blocked by the Content-Security-Policy', () => {
    expect(browserProblems).toEqual([]);
  });
});
