/**
 * The console's Delivery page end to end: the service spawned as `npm start` runs it, with s3rver in this process as
 * the storage target, driven in Debian's Chromium through playwright-core by the Demo owner. Publishes releases and
 * follows a CDN address, changes the bundle shape, syncs to the bucket, edits the target's settings, and shows a
 * target refusing a wrong secret, with axe-core run on the page.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../../server/delivery/storage/s3-client.js';
import type { StorageClient } from '../../server/delivery/storage/storage-client.js';
import { checkPage, CHROMIUM, HAS_CHROMIUM, launchChromium, settled, signUpDemoOwner, startParlance, stopParlance, type Service, watchProblems } from '../helpers/console-browser.js';
import { backendEnv } from '../helpers/service.js';
import { startS3rver, type S3rverHandle } from '../helpers/storage-servers.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

if (!HAS_CHROMIUM) console.warn(`test/e2e/console-delivery.test.ts is skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const BUCKET = 'releases';


const browserProblems: string[] = [];

/** What the page's own origin answers at `url`, read in the page (the console's Content-Security-Policy allows only 'self'). */
function fetchInPage(page: Page, url: string) {
  return page.evaluate(async (address) => {
    // The browser's cache would answer a `latest` address with the release it read before. (A variable: Node's
    // RequestInit, which types this file, has no `cache`.)
    const fresh = { method: 'GET', cache: 'no-store' };
    const res = await fetch(address, fresh);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the test compares the text.
    }
    return { status: res.status, type: res.headers.get('content-type'), body };
  }, url);
}

describe.skipIf(!HAS_CHROMIUM)('the Delivery page in Chromium', () => {
  let s3: S3rverHandle;
  let bucket: StorageClient;
  let service: Service | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let owner: Page;
  /** Where the page's own messages appear: the screen-reader announcer repeats them a moment later. */
  let main: ReturnType<Page['locator']>;

  beforeAll(async () => {
    s3 = await startS3rver();
    await s3.createBucket(BUCKET);
    bucket = await createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', bucket: BUCKET, forcePathStyle: true }, { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    [service, browser] = await Promise.all([
      startParlance(
        backendEnv({
          LOG_LEVEL: 'info',
          PARLANCE_DEMO: 'true',
          PARLANCE_SECRET_KEY: 'a'.repeat(64),
          RATE_LIMIT_PER_MINUTE: '100000',
          STORAGE_SYNC_POLL_MS: '100',
          STORAGE_SYNC_TIMEOUT_MS: '5000',
        }, { migrated: true }),
      ),
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
    bucket?.close();
    await s3?.stop();
  });

  it('signs up the owner of the Demo project, which gets keys translated', async () => {
    const projectId = await signUpDemoOwner(owner);

    // The keys come through the API with the owner's own console credential; uploading a file is the console test's part.
    const status = await owner.evaluate(async (id) => {
      const minted = await fetch('/v1/auth/credentials', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: id }) });
      const { token } = (await minted.json()) as { token: string };
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const keys = [
        { key: 'home.title', source: 'Welcome' },
        { key: 'home.bye', source: 'Goodbye' },
      ];
      const pushed = await fetch('/v1/push', { method: 'POST', headers, body: JSON.stringify({ keys }) });
      const { id: batchId } = (await pushed.json()) as { id: string };
      for (let i = 0; i < 150; i++) {
        const batch = (await (await fetch(`/v1/batches/${batchId}`, { headers })).json()) as { status: string };
        if (['completed', 'failed', 'cancelled'].includes(batch.status)) return batch.status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return 'still running after 15 s';
    }, projectId);
    expect(status).toBe('completed');
  });

  it('publishes a release, lists it, and serves its JSON at the latest address', async () => {
    await owner.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Delivery', exact: true }).click();
    await expect.poll(() => owner.locator('#page-title').textContent()).toBe('Delivery');
    await settled(owner);
    await main.getByText('No release yet').waitFor();

    await owner.getByRole('button', { name: 'Publish release' }).click();
    await main.getByText('Release 1 published.').waitFor();
    const release = owner.getByRole('row', { name: /^Release 1 / });
    await expect(release.textContent()).resolves.toMatch(/de \(2 keys\).*fr \(2 keys\).*ja \(2 keys\)/);
    await owner.getByRole('button', { name: 'Publish release' }).click();
    await main.getByText('Nothing changed since release 1').waitFor();
    await expect(owner.getByRole('region', { name: 'Releases (table)' }).locator('tbody tr').count()).resolves.toBe(1);

    const bundleId = (await main.locator('.facts dd.mono').first().textContent())!;
    const link = owner.getByRole('link', { name: `${service!.url}/cdn/${bundleId}/latest/de.json`, exact: true });
    const german = await fetchInPage(owner, (await link.getAttribute('href'))!);
    expect(german).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
    expect(Object.keys(german.body as object).sort()).toEqual(['home.bye', 'home.title']);
    const manifest = await fetchInPage(owner, (await owner.getByRole('link', { name: `${service!.url}/cdn/${bundleId}/latest/manifest.json`, exact: true }).getAttribute('href'))!);
    expect(manifest).toMatchObject({ status: 200, body: { release: 1 } });
  });

  it('saves the nested shape, which the next release follows', async () => {
    await owner.getByRole('radio', { name: /^Nested/ }).check();
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await main.getByText('Settings saved').waitFor();
    await owner.getByRole('button', { name: 'Publish release' }).click();
    await main.getByText('Release 2 published.').waitFor();
    const href = await owner.getByRole('link', { name: /\/latest\/de\.json$/ }).getAttribute('href');
    await expect.poll(async () => (await fetchInPage(owner, href!)).body).toMatchObject({ home: { title: expect.any(String), bye: expect.any(String) } });
    await expect(owner.getByRole('row', { name: /^Release 2 / }).textContent()).resolves.toContain('nested');
  });

  it('adds an S3 target, syncs it, and shows the uploaded files in the sync log', async () => {
    await owner.getByLabel('Name', { exact: true }).fill('s3rver');
    await owner.getByLabel('Endpoint (optional)').fill(s3.endpoint);
    await owner.getByLabel('Bucket', { exact: true }).fill(BUCKET);
    await owner.getByRole('checkbox', { name: /Path-style addressing/ }).check();
    await owner.getByLabel('Access key id').fill(s3.accessKeyId);
    const secret = owner.getByLabel('Secret access key');
    await expect(secret.getAttribute('type')).resolves.toBe('password');
    await secret.fill(s3.secretAccessKey);
    await owner.getByLabel('Prefix (optional)').fill('i18n/web');
    await owner.getByRole('button', { name: 'Add target' }).click();
    const card = owner.getByRole('article', { name: 's3rver' });
    await card.waitFor();
    await expect(secret.inputValue()).resolves.toBe('');
    await expect(card.locator('.badge').textContent()).resolves.toBe('never synced');

    await card.getByRole('button', { name: 'Sync now to s3rver' }).click();
    await expect.poll(() => card.locator('.badge').textContent(), { timeout: 15_000 }).toBe('ok');
    await expect(card.textContent()).resolves.toContain('release 2, synced');
    await card.getByText('Recent syncs of s3rver').click();
    const sync = card.getByRole('row', { name: /^Release 2 / });
    await expect(sync.locator('.badge').textContent()).resolves.toBe('succeeded');
    await sync.locator('summary').click();
    await expect(sync.locator('ol').textContent()).resolves.toMatch(/uploaded i18n\/web\/de\.json.*uploaded i18n\/web\/manifest\.json/s);
    const inBucket = JSON.parse(new TextDecoder().decode((await bucket.get('i18n/web/de.json'))!)) as unknown;
    expect(inBucket).toMatchObject({ home: { title: expect.any(String) } });
    await checkPage(owner, 'delivery');
  });

  it('edits the target’s settings, prefilled from the stored ones without its credentials, and the next sync follows them', async () => {
    const card = owner.getByRole('article', { name: 's3rver' });
    await card.getByRole('button', { name: 'Edit settings of s3rver' }).click();
    const form = card.getByRole('form', { name: 'Settings of s3rver' });
    await expect(form.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('s3rver');
    await expect(form.getByLabel('Endpoint (optional)').inputValue()).resolves.toBe(s3.endpoint);
    await expect(form.getByLabel('Region').inputValue()).resolves.toBe('us-east-1');
    await expect(form.getByLabel('Bucket', { exact: true }).inputValue()).resolves.toBe(BUCKET);
    await expect(form.getByRole('checkbox', { name: /Path-style addressing/ }).isChecked()).resolves.toBe(true);
    await expect(form.getByLabel('Prefix (optional)').inputValue()).resolves.toBe('i18n/web');
    await expect(form.getByLabel('Path template').inputValue()).resolves.toBe('{locale}.json');
    await expect(form.getByLabel('Files template (optional)').inputValue()).resolves.toBe('');
    await expect(form.getByLabel('Cache-Control (optional)').inputValue()).resolves.toBe('');
    await expect(form.getByLabel('Secret access key').count()).resolves.toBe(0);
    await expect(form.textContent()).resolves.toContain(`access key …${s3.accessKeyId.slice(-4)}`);
    await checkPage(owner, 'delivery-edit-target');

    await form.getByLabel('Name', { exact: true }).fill('s3rver app');
    await form.getByLabel('Prefix (optional)').fill('i18n/app');
    await form.getByLabel('Path template').fill('{locale}.{hash}.json');
    await form.getByLabel('Cache-Control (optional)').fill('public, max-age=60');
    await form.getByRole('button', { name: 'Save target' }).click();
    await main.getByText('Settings of s3rver app saved.').waitFor();
    await expect.poll(() => form.count()).toBe(0);
    const edited = owner.getByRole('article', { name: 's3rver app' });
    await expect(edited.textContent()).resolves.toMatch(/Bundles ati18n\/app\/\{locale\}\.\{hash\}\.json.*Cache-Controlpublic, max-age=60/);
    // Still the same bucket and credentials: only the fields of the form changed.
    await expect(edited.textContent()).resolves.toContain(`bucket ${BUCKET} at ${s3.endpoint}, path style`);

    await edited.getByRole('button', { name: 'Sync now to s3rver app' }).click();
    await expect.poll(async () => (await bucket.get('i18n/app/manifest.json')) !== null, { timeout: 15_000 }).toBe(true);
    const manifest = JSON.parse(new TextDecoder().decode((await bucket.get('i18n/app/manifest.json'))!)) as { locales: Record<string, { url: string; sha256: string }> };
    expect(manifest.locales.de!.url).toBe(`de.${manifest.locales.de!.sha256.slice(0, 12)}.json`);
    expect(await bucket.head(`i18n/app/${manifest.locales.de!.url}`)).not.toBeNull();
    // The sync log opened by the test before shows badges of its own.
    await expect.poll(() => edited.locator('.facts .badge').textContent(), { timeout: 15_000 }).toBe('ok');

    // An emptied optional field is removed: Cache-Control goes back to not set.
    await edited.getByRole('button', { name: 'Edit settings of s3rver app' }).click();
    const again = edited.getByRole('form', { name: 'Settings of s3rver app' });
    await expect(again.getByLabel('Cache-Control (optional)').inputValue()).resolves.toBe('public, max-age=60');
    await again.getByLabel('Cache-Control (optional)').fill('');
    await again.getByRole('button', { name: 'Save target' }).click();
    await expect.poll(() => again.count()).toBe(0);
    await expect.poll(() => edited.textContent()).toContain('Cache-Controlnot set');
  });

  it('shows the storage’s refusal of a wrong secret as the target’s failure, until the credentials are rotated', async () => {
    await owner.getByLabel('Name', { exact: true }).fill('wrong secret');
    await owner.getByLabel('Endpoint (optional)').fill(s3.endpoint);
    await owner.getByLabel('Bucket', { exact: true }).fill(BUCKET);
    await owner.getByRole('checkbox', { name: /Path-style addressing/ }).check();
    // s3rver does not check SigV4 signatures, only that the key id is one of its accounts: the pair is wrong in both.
    await owner.getByLabel('Access key id').fill('AKIAWRONGWRONG1234');
    await owner.getByLabel('Secret access key').fill('not-the-secret');
    await owner.getByRole('button', { name: 'Add target' }).click();
    const card = owner.getByRole('article', { name: 'wrong secret' });
    await card.getByRole('button', { name: 'Sync now to wrong secret' }).click();
    await expect.poll(() => card.locator('.badge').textContent(), { timeout: 15_000 }).toBe('failed');
    await expect(card.locator('dd.bad').textContent()).resolves.toMatch(/refused the credentials/);
    await checkPage(owner, 'delivery-target-failed');

    await card.getByRole('button', { name: 'Rotate credentials of wrong secret' }).click();
    const form = card.getByRole('form', { name: 'New credentials for wrong secret' });
    await form.getByLabel('Access key id').fill(s3.accessKeyId);
    await form.getByLabel('Secret access key').fill(s3.secretAccessKey);
    await form.getByRole('button', { name: 'Replace credentials' }).click();
    await main.getByText('Credentials of wrong secret replaced').waitFor();
    await card.getByRole('button', { name: 'Sync now to wrong secret' }).click();
    await expect.poll(() => card.locator('.badge').textContent(), { timeout: 15_000 }).toBe('ok');
    await expect(card.locator('dd.bad').count()).resolves.toBe(0);
  });

  it('rotates the bundle id behind a confirmation, after which the old addresses answer 404', async () => {
    const old = (await owner.getByRole('link', { name: /\/latest\/de\.json$/ }).getAttribute('href'))!;
    const asked = new Promise<string>((resolve) => owner.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.message()))));
    await owner.getByRole('button', { name: 'Rotate bundle id' }).click();
    await expect(asked).resolves.toContain('stops working');
    await main.getByText('Bundle id rotated').waitFor();
    const fresh = owner.getByRole('link', { name: /\/latest\/de\.json$/ });
    await expect.poll(() => fresh.getAttribute('href')).not.toBe(old);
    await expect(fetchInPage(owner, old)).resolves.toMatchObject({ status: 404 });
    await expect(fetchInPage(owner, (await fresh.getAttribute('href'))!)).resolves.toMatchObject({ status: 200, body: { home: { title: expect.any(String) } } });
  });

  it('saw no script error and nothing blocked by the Content-Security-Policy', () => {
    expect(browserProblems).toEqual([]);
  });
});
