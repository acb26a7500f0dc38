/**
 * The console's Integrations page end to end: the service spawned as `npm start` runs it, with the generic HTTP
 * connector's mock service in this process (it checks every request's X-Parlance-Signature), driven in Debian's
 * Chromium through playwright-core by the Demo owner. Reads the catalog, connects "Any HTTP service" through the form
 * generated from its schemas (a refusal first), sees the webhook secret once and the first sync's counts, syncs
 * again, shows a wrong signing secret failing on the connection until the credentials are rotated back, edits the
 * connection's name, schedule and settings (a move to another host needing credentials), and disconnects, with axe-core
 * run on the page.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, CHROMIUM, HAS_CHROMIUM, launchChromium, PASSWORD, settled, signUpDemoOwner, startParlance, stopParlance, type Service, watchProblems } from '../helpers/console-browser.js';
import { KIT_ENV, SEED } from '../helpers/connector-kit.js';
import { startHttpServiceMock, type HttpServiceMock } from '../helpers/connector-mocks/http-service.js';
import { startShopifyMock, type ShopifyMock } from '../helpers/connector-mocks/shopify.js';
import { artboard, sketchFile, sketchId, text } from '../helpers/connector-mocks/sketch.js';
import { backendEnv } from '../helpers/service.js';

if (!HAS_CHROMIUM) console.warn(`test/e2e/console-integrations.test.ts is skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const SIGNING_SECRET = 'the-mock-service-signing-secret';
const WRONG_SECRET = 'not-the-signing-secret-at-all';
const HTTP_CONNECTOR = 'Any HTTP service (n8n, Zapier, Make)';
const NAME = 'Mock service';
const RENAMED = 'Mock service, edited';

const browserProblems: string[] = [];

describe.skipIf(!HAS_CHROMIUM)('the Integrations page in Chromium', () => {
  let remote: HttpServiceMock;
  let service: Service | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let owner: Page;
  /** Where the page's own messages appear: the screen-reader announcer repeats them a moment later. */
  let main: ReturnType<Page['locator']>;
  let projectId: string;
  const card = () => owner.getByRole('article', { name: NAME });
  const status = () => card().locator('dd .badge').first().textContent();
  const count = (name: string) => card().locator(`td[data-count="${name}"]`).textContent();

  beforeAll(async () => {
    remote = await startHttpServiceMock({ signingSecret: SIGNING_SECRET });
    [service, browser] = await Promise.all([startParlance(backendEnv({ ...KIT_ENV, LOG_LEVEL: 'info', PARLANCE_DEMO: 'true' }, { migrated: true })), launchChromium()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: service.url });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
    owner = await context.newPage();
    watchProblems(owner, browserProblems);
    main = owner.locator('#main');
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await stopParlance(service);
    await remote?.close();
  });

  it('signs up the owner of the Demo project and lists the catalog by category', async () => {
    projectId = await signUpDemoOwner(owner);

    await owner.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Integrations', exact: true }).click();
    await expect.poll(() => owner.locator('#page-title').textContent()).toBe('Integrations');
    await settled(owner);
    const headings = await main.locator('section.card > h2').allTextContents();
    expect(headings).toEqual(['Code hosts', 'Content systems', 'Design tools', 'Automation']);
    await expect(main.locator('tbody tr').count()).resolves.toBe(41);
    // The GitHub App keeps its own page; the others open their connector's page.
    await expect(main.getByRole('link', { name: 'GitHub', exact: true }).first().getAttribute('href')).resolves.toMatch(/\/github$/);
    const http = owner.getByRole('row', { name: new RegExp(`^${HTTP_CONNECTOR.replace(/[()]/g, '\\$&')}`) });
    await expect.poll(() => http.textContent(), { timeout: 15_000 }).toMatch(/two-way.*JSON URL.*X-Parlance-Signature.*0 connections/s);
    await expect(owner.getByRole('row', { name: /^Figma/ }).locator('.badge').textContent()).resolves.toBe('import only');
    await checkPage(owner, 'integrations');
  });

  it('connects Any HTTP service through the generated form, refused first with the field named', async () => {
    await main.getByRole('link', { name: HTTP_CONNECTOR }).click();
    await expect.poll(() => owner.locator('#page-title').textContent()).toBe(HTTP_CONNECTOR);
    await settled(owner);
    await main.getByText('No connection yet.').waitFor();

    const form = owner.getByRole('form', { name: `Connect ${HTTP_CONNECTOR}` });
    const source = form.getByLabel('Source URL (required)');
    await expect(source.getAttribute('type')).resolves.toBe('url');
    await expect(source.getAttribute('required')).resolves.toBe('');
    await expect(form.getByLabel('Name', { exact: true }).getAttribute('placeholder')).resolves.toBe('strings');
    await form.getByText("The place's name in Parlance's paths.").waitFor();
    const signing = form.getByLabel('Signing secret (required)');
    await expect(signing.getAttribute('type')).resolves.toBe('password');
    await expect(form.getByLabel('Authorization').getAttribute('type')).resolves.toBe('password');

    await form.getByLabel('Connection name (optional)').fill(NAME);
    await source.fill(remote.settings.source_url as string);
    await form.getByLabel('Delivery URL').fill(remote.settings.delivery_url as string);
    await signing.fill('too-short');
    await form.getByRole('button', { name: `Connect ${HTTP_CONNECTOR}` }).click();
    const refusal = form.getByRole('alert');
    await expect(refusal.textContent()).resolves.toMatch(/Not connected:.*secrets\.signing_secret.*validation_failed/s);
    await expect(signing.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(source.getAttribute('aria-invalid')).resolves.toBeNull();
    await expect(card().count()).resolves.toBe(0);

    await signing.fill(SIGNING_SECRET);
    await form.getByRole('button', { name: `Connect ${HTTP_CONNECTOR}` }).click();
    await main.getByText(`${NAME} connected.`).waitFor();
    const secret = main.getByRole('textbox', { name: 'Webhook secret' });
    await expect(secret.inputValue()).resolves.toMatch(/^\S{20,}$/);
    await expect(main.locator('.secret').textContent()).resolves.toContain('It is not shown again');
    await expect(signing.inputValue()).resolves.toBe('');
    await expect(card().locator('dd .mono').first().textContent()).resolves.toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+/);
  });

  it('shows the first sync succeeding with its counts, and the secret never again', async () => {
    await expect.poll(status, { timeout: 30_000 }).toBe('ok');
    await expect(count('strings')).resolves.toBe('4');
    await expect(count('added')).resolves.toBe('4');
    // The mock holds de and fr; every string in both went back, signed.
    expect(remote.deliveries).toHaveLength(8);
    await expect(count('written')).resolves.toBe('8');
    expect(remote.requests.every((r) => r.signed)).toBe(true);
    await main.getByRole('button', { name: 'Copy webhook secret' }).click();
    // Read in the page; this file is typed for Node, which has no navigator.clipboard.
    const clipboard = owner.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    await expect(clipboard).resolves.toBe(await main.getByRole('textbox', { name: 'Webhook secret' }).inputValue());
    // After the copy, too: the button's name keeps the word it shows ("Copied"), so axe finds no mismatch.
    await expect(main.getByRole('button', { name: 'Copy webhook secret: copied' }).textContent()).resolves.toBe('Copied');
    await checkPage(owner, 'integrations-connected');

    await owner.reload();
    await settled(owner);
    await card().waitFor();
    await expect(main.getByRole('textbox', { name: 'Webhook secret' }).count()).resolves.toBe(0);
    await expect(status()).resolves.toBe('ok');
  });

  it('syncs now, and lists both syncs with their logs', async () => {
    await card().getByRole('button', { name: `Sync now ${NAME}` }).click();
    await main.getByText(`Sync of ${NAME} queued.`).waitFor();
    await card().getByText(`Recent syncs of ${NAME}`).click();
    const rows = card().getByRole('region', { name: `Syncs of ${NAME} (table)` }).locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => rows.first().locator('.badge').textContent(), { timeout: 30_000 }).toBe('succeeded');
    await expect(rows.first().textContent()).resolves.toContain('(api)');
    await expect(rows.last().textContent()).resolves.toContain('(connect)');
    await expect(count('added')).resolves.toBe('0');
    await rows.first().locator('summary').click();
    await expect(rows.first().locator('ol').textContent()).resolves.toContain('read 4 string(s)');
    expect(remote.deliveries).toHaveLength(8);
  });

  it('shows a wrong signing secret failing on the connection, until the credentials are rotated back', async () => {
    const rotate = async (value: string) => {
      await card().getByRole('button', { name: `Rotate credentials of ${NAME}` }).click();
      const form = card().getByRole('form', { name: `New credentials for ${NAME}` });
      await form.getByLabel('Signing secret (required)').fill(value);
      await form.getByRole('button', { name: 'Replace credentials' }).click();
      await main.getByText(`Credentials of ${NAME} replaced`).waitFor();
      await expect(form.count()).resolves.toBe(0);
    };
    await rotate(WRONG_SECRET);
    await card().getByRole('button', { name: `Sync now ${NAME}` }).click();
    await expect.poll(status, { timeout: 30_000 }).toBe('error');
    const error = card().locator('.connection-error');
    await expect(error.textContent()).resolves.toMatch(/Last error:.*refused the credentials \(HTTP 401: signature rejected/s);
    await checkPage(owner, 'integrations-error');

    await rotate(SIGNING_SECRET);
    await expect.poll(status).toBe('never synced');
    await expect(error.count()).resolves.toBe(0);
    await card().getByRole('button', { name: `Sync now ${NAME}` }).click();
    await expect.poll(status, { timeout: 30_000 }).toBe('ok');
    await expect(error.count()).resolves.toBe(0);
  });

  it("edits the connection's name, schedule and settings; a move to another host needs credentials in the same save", async () => {
    const edited = () => owner.getByRole('article', { name: RENAMED });
    const settingsOf = (article: ReturnType<Page['locator']>) => article.locator('dd.mono').textContent();
    const edit = async (article: ReturnType<Page['locator']>, name: string) => {
      await article.getByRole('button', { name: `Edit settings of ${name}` }).click();
      return article.getByRole('form', { name: `Settings of ${name}` });
    };
    // The page's message of an earlier save may still be shown: the form closing is what says this one was accepted.
    const save = async (form: ReturnType<Page['locator']>, button: string, name: string) => {
      await form.getByRole('button', { name: button }).click();
      await expect.poll(() => form.count()).toBe(0);
      await main.getByText(`Settings of ${name} saved.`).waitFor();
    };
    const source = remote.settings.source_url as string;
    const before = await settingsOf(card());
    expect(before).toBe(`source_url: ${source}; delivery_url: ${remote.settings.delivery_url as string}; name: strings`);

    // Prefilled with what is stored.
    let form = await edit(card(), NAME);
    await expect(form.getByLabel('Connection name').inputValue()).resolves.toBe(NAME);
    await expect(form.getByLabel('Sync every … minutes (optional)').inputValue()).resolves.toBe('');
    await expect(form.getByLabel('Source URL (required)').inputValue()).resolves.toBe(source);
    await expect(form.getByLabel('Delivery URL').inputValue()).resolves.toBe(remote.settings.delivery_url);
    await expect(form.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('strings');
    await expect(form.getByLabel('Signing secret (required)').count()).resolves.toBe(0);
    await checkPage(owner, 'integrations-edit');

    await form.getByLabel('Connection name').fill(RENAMED);
    await form.getByLabel('Sync every … minutes (optional)').fill('60');
    await save(form, 'Save settings', RENAMED);
    await expect(edited().locator('h3').textContent()).resolves.toBe(RENAMED);
    await expect.poll(() => edited().textContent()).toMatch(/Scheduleevery 60 minutes, next /);
    await expect.poll(() => settingsOf(edited())).toBe(before);

    // A value the connector refuses: the field the 422 names is marked, as in the connect form.
    form = await edit(edited(), RENAMED);
    const place = form.getByLabel('Name', { exact: true });
    await place.fill('web strings');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toMatch(/Settings not saved:.*settings\.name.*validation_failed/s);
    await expect(place.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(form.getByLabel('Source URL (required)').getAttribute('aria-invalid')).resolves.toBeNull();
    await place.fill('web-strings');
    await save(form, 'Save settings', RENAMED);
    await expect.poll(() => settingsOf(edited())).toMatch(/; name: web-strings$/);

    // Cleared: sent as null, so the stored delivery URL goes and the connection only imports. An address that goes
    // sends nothing anywhere, so no credentials are asked for.
    form = await edit(edited(), RENAMED);
    await form.getByLabel('Delivery URL').fill('');
    await save(form, 'Save settings', RENAMED);
    await expect.poll(() => settingsOf(edited())).toBe(`source_url: ${source}; name: web-strings`);

    // Another origin for the same mock: refused without credentials, the field named and nothing stored.
    const elsewhere = source.replace('127.0.0.1', 'localhost');
    expect(elsewhere).not.toBe(source);
    form = await edit(edited(), RENAMED);
    const sourceField = form.getByLabel('Source URL (required)');
    await expect(form.getByLabel('Signing secret (required)').count()).resolves.toBe(0);
    await sourceField.fill(elsewhere);
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toMatch(/Settings not saved:.*settings\.source_url.*another host.*secrets_required/s);
    await expect(sourceField.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(settingsOf(edited())).resolves.toBe(`source_url: ${source}; name: web-strings`);
    const signing = form.getByLabel('Signing secret (required)');
    await expect(signing.getAttribute('type')).resolves.toBe('password');
    await checkPage(owner, 'integrations-edit-credentials');

    await signing.fill(SIGNING_SECRET);
    await save(form, 'Save settings and credentials', RENAMED);
    await expect.poll(() => settingsOf(edited())).toBe(`source_url: ${elsewhere}; name: web-strings`);

    // Back to the first name, the schedule emptied: sent as null, so syncs run on demand again.
    form = await edit(edited(), RENAMED);
    await expect(form.getByLabel('Sync every … minutes (optional)').inputValue()).resolves.toBe('60');
    await form.getByLabel('Connection name').fill(NAME);
    await form.getByLabel('Sync every … minutes (optional)').fill('');
    await save(form, 'Save settings', NAME);
    await expect.poll(() => card().textContent()).toContain('Scheduleon demand and on notifications');
  });

  it('disables and enables the connection, then disconnects it behind a confirmation', async () => {
    await card().getByRole('button', { name: `Disable ${NAME}` }).click();
    await main.getByText(`${NAME} disabled.`).waitFor();
    await expect.poll(() => card().getByRole('button', { name: `Sync now ${NAME}` }).isDisabled()).toBe(true);
    await expect(status()).resolves.toBe('disabled');
    await card().getByRole('button', { name: `Enable ${NAME}` }).click();
    await main.getByText(`${NAME} enabled.`).waitFor();

    // Dismissed first: nothing happens.
    owner.once('dialog', (dialog) => void dialog.dismiss());
    await card().getByRole('button', { name: `Disconnect ${NAME}` }).click();
    await expect(card().count()).resolves.toBe(1);

    const asked = new Promise<string>((resolve) => owner.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.message()))));
    await card().getByRole('button', { name: `Disconnect ${NAME}` }).click();
    await expect(asked).resolves.toContain("The project's keys and translations stay");
    await main.getByText(`${NAME} disconnected.`).waitFor();
    await main.getByText('No connection yet.').waitFor();
    await expect(card().count()).resolves.toBe(0);
    await checkPage(owner, 'integrations-disconnected');
  });

  it('generates each field from its schema type: lists, key=value maps, choices, checkboxes, numbers, alternatives', async () => {
    const open = async (connector: string, title: string) => {
      await owner.goto(`/#/p/${projectId}/integrations/${connector}`);
      await expect.poll(() => owner.locator('#page-title').textContent()).toBe(title);
      await settled(owner);
      return owner.getByRole('form', { name: `Connect ${title}` });
    };
    let form = await open('wordpress', 'WordPress (Polylang)');
    await expect(form.getByLabel('Post types').getAttribute('placeholder')).resolves.toBe('posts, pages');
    await expect(form.getByRole('checkbox', { name: 'Include content' }).isChecked()).resolves.toBe(false);
    await expect(form.getByLabel('Application password (required)').getAttribute('type')).resolves.toBe('password');

    form = await open('figma', 'Figma');
    await expect(form.getByLabel('Chars per px').getAttribute('type')).resolves.toBe('number');
    await expect(form.getByLabel('Chars per px').getAttribute('placeholder')).resolves.toBe('0.14');

    form = await open('bitbucket', 'Bitbucket Cloud');
    await expect(form.getByLabel('Access token (required)').count()).resolves.toBe(1);
    await form.getByRole('radio', { name: 'Username and App password' }).check();
    await expect(form.getByLabel('Access token (required)').count()).resolves.toBe(0);
    await expect(form.getByLabel('App password (required)').getAttribute('type')).resolves.toBe('password');

    form = await open('strapi', 'Strapi');
    const fields = form.getByLabel('Fields (required)');
    await expect(fields.evaluate((e) => e.tagName)).resolves.toBe('TEXTAREA');
    await expect(form.getByLabel('Status').evaluate((e) => e.tagName)).resolves.toBe('SELECT');
    await form.getByLabel('API URL (required)').fill(remote.url);
    await form.getByLabel('Collections (required)').fill('articles, pages');
    await form.getByLabel('Status').selectOption('draft');
    await form.getByLabel('API token (required)').fill('strapi-token');
    await fields.fill('articles');
    await form.getByRole('button', { name: 'Connect Strapi' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toContain("settings.fields: line 1 ('articles') is not key=value.");
    await expect(fields.getAttribute('aria-invalid')).resolves.toBe('true');
    await fields.fill('articles=title, summary\npages=title');
    await form.getByLabel('Locales').fill('pt-BR=pt');
    await form.getByRole('button', { name: 'Connect Strapi' }).click();
    await main.getByText('Strapi connected.').waitFor();
    const strapi = owner.getByRole('article', { name: 'Strapi' });
    // Shown in the form's order; the lists and maps as the service stored them (its JSON orders object keys its own way).
    const settings = (await strapi.locator('dd.mono').textContent())!;
    expect(settings).toMatch(new RegExp(`^api_url: ${remote.url}; collections: \\["articles","pages"\\]; fields: \\{.*\\}; locales: \\{"pt-BR":"pt"\\}; status: draft$`));
    expect(JSON.parse(/fields: (\{.*?\}); locales/.exec(settings)![1]!)).toEqual({ articles: ['title', 'summary'], pages: ['title'] });
    // The mock is no Strapi: the sync fails at once, with what the server answered on the connection.
    await expect.poll(() => strapi.locator('dd .badge').first().textContent(), { timeout: 30_000 }).toBe('error');
    await expect(strapi.locator('.connection-error').textContent()).resolves.toContain('Last error:');
    owner.once('dialog', (dialog) => void dialog.accept());
    await strapi.getByRole('button', { name: 'Disconnect Strapi' }).click();
    await main.getByText('No connection yet.').waitFor();
  });

  it('connects Shopify, one of the connectors added in issue 33, through its generated form: the first sync registers the translations with their digests', async () => {
    let shop: ShopifyMock | undefined;
    try {
      shop = await startShopifyMock();
      await owner.goto(`/#/p/${projectId}/integrations/shopify`);
      await expect.poll(() => owner.locator('#page-title').textContent()).toBe('Shopify');
      await settled(owner);
      const form = owner.getByRole('form', { name: 'Connect Shopify' });
      await expect(form.getByLabel('Access token (required)').getAttribute('type')).resolves.toBe('password');
      await form.getByLabel('Shop URL (required)').fill(shop.url);
      await form.getByLabel('Access token (required)').fill(shop.token);
      await form.getByRole('button', { name: 'Connect Shopify' }).click();
      await main.getByText('Shopify connected.').waitFor();
      const connection = owner.getByRole('article', { name: 'Shopify' });
      await expect.poll(() => connection.locator('dd .badge').first().textContent(), { timeout: 30_000 }).toBe('ok');
      // Every SEED product title is in the shop's de and fr now, registered by translationsRegister (which the mock
      // refuses without the source's digest), and the counts say what went back.
      for (const { id } of SEED) {
        for (const locale of ['de', 'fr']) expect(shop.translation(shop.seedProduct(id), locale, 'title')?.value).toBeTruthy();
      }
      await expect(connection.locator('td[data-count="written"]').textContent()).resolves.not.toBe('0');
      owner.once('dialog', (dialog) => void dialog.accept());
      await connection.getByRole('button', { name: 'Disconnect Shopify' }).click();
      await main.getByText('No connection yet.').waitFor();
    } finally {
      await shop?.close();
    }
  });

  it('uploads a Sketch document to a Sketch connection from its card: the sync the upload starts imports its text layers', async () => {
    await owner.goto(`/#/p/${projectId}/integrations/sketch`);
    await expect.poll(() => owner.locator('#page-title').textContent()).toBe('Sketch');
    await settled(owner);
    const form = owner.getByRole('form', { name: 'Connect Sketch' });
    await form.getByRole('button', { name: 'Connect Sketch' }).click();
    await main.getByText('Sketch connected.').waitFor();
    const connection = owner.getByRole('article', { name: 'Sketch' });
    // Nothing uploaded yet: the first sync says what to do.
    await expect.poll(() => connection.locator('.connection-error').textContent(), { timeout: 30_000 }).toContain('No Sketch document to read: upload one');
    const document = sketchFile([{ id: sketchId('page'), name: 'Checkout', layers: [artboard(sketchId('board'), 'Cart', SEED.map((s, i) => text(sketchId(s.id), s.id, s.source, { x: 0, y: i * 30, width: 160, height: 20 })))] }]);
    await connection.getByLabel('Upload a Sketch document (.sketch)').setInputFiles({ name: 'Checkout.sketch', mimeType: 'application/octet-stream', buffer: Buffer.from(document) });
    await main.getByText('Checkout.sketch uploaded to Sketch; a sync that reads it is queued.').waitFor();
    await expect.poll(() => connection.locator('dd .badge').first().textContent(), { timeout: 30_000 }).toBe('ok');
    await expect.poll(() => connection.locator('td[data-count="added"]').textContent()).toBe(String(SEED.length));
    await expect(connection.locator('dd').nth(1).textContent()).resolves.toContain('started by upload');
    await expect(connection.locator('dd[data-upload]').textContent()).resolves.toMatch(new RegExp(`^Checkout\\.sketch \\(${document.byteLength.toLocaleString('en')} bytes\\), uploaded `));
    owner.once('dialog', (dialog) => void dialog.accept());
    await connection.getByRole('button', { name: 'Disconnect Sketch' }).click();
    await main.getByText('No connection yet.').waitFor();
  });

  it("shows Notion's one-time verification value on the connection, and uses it as the webhook secret on request", async () => {
    await owner.goto(`/#/p/${projectId}/integrations/notion`);
    await expect.poll(() => owner.locator('#page-title').textContent()).toBe('Notion');
    await settled(owner);
    const form = owner.getByRole('form', { name: 'Connect Notion' });
    await form.getByLabel('Pages').fill('1c2f0a3b4c5d4e6f8a9b0c1d2e3f4a5b');
    await form.getByLabel('Token (required)').fill('ntn_0123456789');
    await form.getByRole('button', { name: 'Connect Notion' }).click();
    await main.getByText('Notion connected.').waitFor();
    const connection = owner.getByRole('article', { name: 'Notion' });
    const webhookUrl = (await connection.locator('dd .mono').first().textContent())!;
    const value = 'secret_hJk3Lm9NpQ2rSt5UvWx8Yz1Ab4Cd7Ef0';
    expect((await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ verification_token: value }) })).status).toBe(200);
    await connection.getByText(value).waitFor({ timeout: 15_000 });
    await connection.getByRole('button', { name: 'Use the verification value as the webhook secret of Notion' }).click();
    await main.getByText('The verification value is now the webhook secret of Notion.').waitFor();
    await expect.poll(() => connection.getByText(value).count()).toBe(0);
    owner.once('dialog', (dialog) => void dialog.accept());
    await connection.getByRole('button', { name: 'Disconnect Notion' }).click();
    await main.getByText('No connection yet.').waitFor();
  });

  it('shows a translator the catalog but not the connections, which need manage', async () => {
    await owner.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Invitations', exact: true }).click();
    await owner.getByLabel('Email', { exact: true }).fill('translator@example.com');
    await owner.getByLabel('Role', { exact: true }).selectOption('translator');
    await owner.getByRole('button', { name: 'Create invitation' }).click();
    const link = await owner.getByLabel('Invitation link', { exact: true }).inputValue();

    const other = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: service!.url });
    try {
      const translator = await other.newPage();
      watchProblems(translator, browserProblems);
      const asked: string[] = [];
      translator.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await translator.goto(link);
      await translator.getByLabel('Password').fill(PASSWORD);
      await translator.getByRole('button', { name: 'Create account and join' }).click();
      await expect.poll(() => translator.locator('#page-title').textContent(), { timeout: 15_000 }).toBe('Demo: overview');

      await translator.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Integrations', exact: true }).click();
      await expect.poll(() => translator.locator('#page-title').textContent()).toBe('Integrations');
      await settled(translator);
      await expect(translator.locator('#main tbody tr').count()).resolves.toBe(41);
      await expect(translator.locator('#main thead').first().textContent()).resolves.not.toContain('Connections');
      await translator.getByText('needs the manage ability').waitFor();
      await checkPage(translator, 'integrations-translator');

      await translator.getByRole('link', { name: HTTP_CONNECTOR }).click();
      await expect.poll(() => translator.locator('#page-title').textContent()).toBe(HTTP_CONNECTOR);
      await expect(translator.getByRole('alert').textContent()).resolves.toContain('Missing ability: manage');
      await expect(translator.getByRole('form').count()).resolves.toBe(0);
      expect(asked.filter((path) => path.startsWith('/v1/integrations/') && path !== '/v1/integrations/catalog')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('saw no script error and nothing blocked by the Content-Security-Policy', () => {
    expect(browserProblems).toEqual([]);
  });
});
