/**
 * `parlance release` and `parlance storage`, the real binary against an in-process service: publishing (new and
 * unchanged, some locales), the CDN URLs it prints answering, listing, showing, rotating the bundle id; storage
 * targets listed, a sync to s3rver followed to its end, a target with wrong credentials failing with exit 3; --json,
 * help and usage errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Release, StorageSync, StorageTarget } from '../../src/client/types.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';
import { startS3rver, type S3rverHandle } from '../helpers/storage-servers.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

let service: TestService;
let s3: S3rverHandle;
let cwd: string;

beforeAll(async () => {
  s3 = await startS3rver();
  await s3.createBucket('releases');
  service = await startService({
    env: { PARLANCE_SECRET_KEY: 'b'.repeat(64), STORAGE_SYNC_RETRY_DELAYS: '4s', STORAGE_SYNC_TIMEOUT_MS: '2000', STORAGE_SYNC_POLL_MS: '100', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  // No parlance.yml here: the commands need only --service and --token.
  cwd = mkdtempSync(join(tmpdir(), 'parlance-cli-delivery-'));
  const res = await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'home.title', source: 'Welcome' }, { key: 'home.bye', source: 'Goodbye' }], locales: ['de', 'fr', 'ja'] } });
  expect(res.status).toBe(202);
  expect((await waitForBatch(service, ((await res.json()) as BatchBody).id)).status).toBe('completed');
});

afterAll(async () => {
  await service?.stop();
  await s3?.stop();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** The real binary, with the service and token as flags and neither in the environment. */
function cli(...args: string[]): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args, '--service', service.url, '--token', service.token], { cwd, env: { ...process.env, PARLANCE_URL: '', PARLANCE_TOKEN: '' } });
}

function json<T>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('parlance release', () => {
  let bundleId: string;

  it('help names every action; a missing or unknown action and a bad flag are usage errors (exit 1)', async () => {
    const help = await cli('release', '--help');
    expect(help.code).toBe(0);
    for (const usage of ['parlance release publish [--locale de --locale fr]', 'parlance release list [--limit <n>]', 'parlance release show <number|latest|release id>', 'parlance release rotate-bundle-id']) {
      expect(help.stdout).toContain(usage);
    }
    expect((await cli('--help')).stdout).toMatch(/^ {2}release +publish/m);

    const missing = await cli('release');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^parlance release: Missing the release action\. Usage: parlance release publish/m);
    const unknown = await cli('release', 'frobnicate', '--json');
    expect(unknown.code).toBe(1);
    expect(json<{ error: { message: string; exit_code: number } }>(unknown).error).toMatchObject({ exit_code: 1, message: expect.stringContaining("Unknown release action 'frobnicate'") });
    const limit = await cli('release', 'list', '--limit', '0');
    expect(limit.code).toBe(1);
    expect(limit.stderr).toContain("Invalid --limit '0'. Expected a whole number from 1 to 100.");
    const locale = await cli('release', 'publish', '--locale', 'en_us2');
    expect(locale.code).toBe(1);
    expect(locale.stderr).toContain("Invalid --locale 'en_us2'");
    expect((await cli('release', 'show')).stderr).toContain('Missing the release. Usage: parlance release show <number|latest|release id>');
  });

  it('list before the first release shows the bundle id and says how to publish', async () => {
    const list = await cli('release', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("(no releases yet: publish one with 'parlance release publish')");
    bundleId = /^Bundle id: (bnd_\S+)$/m.exec(list.stdout)![1]!;
    expect(json<{ bundle_id: string; items: unknown[] }>(await cli('release', 'list', '--json'))).toMatchObject({ bundle_id: bundleId, items: [] });
  });

  it('publish prints the release, each locale with its key count and full CDN URL, and the latest manifest; the URLs answer', async () => {
    const publish = await cli('release', 'publish');
    expect(publish.code, publish.stderr).toBe(0);
    expect(publish.stdout).toMatch(/^Published release 1 \(new\): 4 locales, rel_\S+$/m);
    for (const locale of ['en', 'de', 'fr', 'ja']) {
      expect(publish.stdout).toMatch(new RegExp(`^ {2}${locale} +2 keys {2}${escape(`${service.url}/cdn/${bundleId}/1/${locale}.json`)}$`, 'm'));
    }
    expect(publish.stdout).toMatch(new RegExp(`^ {2}manifest +${escape(`${service.url}/cdn/${bundleId}/1/manifest.json`)}$`, 'm'));
    const latest = `${service.url}/cdn/${bundleId}/latest/manifest.json`;
    expect(publish.stdout).toContain(`Latest: ${latest}\n`);

    const de = await fetch(`${service.url}/cdn/${bundleId}/1/de.json`);
    expect(de.status).toBe(200);
    expect(Object.keys((await de.json()) as object).sort()).toEqual(['home.bye', 'home.title']);
    const manifest = await fetch(latest);
    expect(manifest.status).toBe(200);
    expect(((await manifest.json()) as { release: number }).release).toBe(1);
  });

  it('publishing again with nothing changed numbers no release; --json is the API answer', async () => {
    const again = await cli('release', 'publish', '--json');
    expect(again.code, again.stderr).toBe(0);
    const doc = json<{ created: boolean; release: Release }>(again);
    expect(doc).toMatchObject({ created: false, release: { number: 1 } });
    expect(doc.release.locales.map((l) => l.locale)).toEqual(['en', 'de', 'fr', 'ja']);
    const human = await cli('release', 'publish');
    expect(human.stdout).toMatch(/^Release 1 unchanged: nothing changed since it was published at \S+, so no new release was numbered\.$/m);
    expect(human.stdout).toContain(`${service.url}/cdn/${bundleId}/1/de.json`);
  });

  it('--locale publishes only those locales, canonical and repeatable', async () => {
    const some = await cli('release', 'publish', '--locale', 'DE', '--locale', 'fr', '--json');
    expect(some.code, some.stderr).toBe(0);
    const doc = json<{ created: boolean; release: Release }>(some);
    expect(doc.created).toBe(true);
    expect(doc.release.number).toBe(2);
    expect(doc.release.locales.map((l) => [l.locale, l.keys])).toEqual([
      ['de', 2],
      ['fr', 2],
    ]);
  });

  it('list shows the releases newest first with time, trigger and locales, then the bundle id and the latest manifest', async () => {
    const list = await cli('release', 'list');
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines[0]).toMatch(/^ {2}2 {2}\d{4}-\d\d-\d\dT\S+Z {2}api {4}de, fr$/);
    expect(lines[1]).toMatch(/^ {2}1 {2}\d{4}-\d\d-\d\dT\S+Z {2}api {4}en, de, fr, ja$/);
    expect(list.stdout).toContain(`Bundle id: ${bundleId}\nLatest: ${service.url}/cdn/${bundleId}/latest/manifest.json\n`);

    const one = await cli('release', 'list', '--limit', '1');
    expect(one.stdout).toContain('(older releases not shown: raise --limit, up to 100)');
    const doc = json<{ bundle_id: string; items: Release[]; next_cursor: string | null }>(await cli('release', 'list', '--limit', '1', '--json'));
    expect(doc.items.map((r) => r.number)).toEqual([2]);
    expect(doc.next_cursor).not.toBeNull();
  });

  it('show takes a number, latest or a release id; an unknown release exits 1 with the service reason', async () => {
    const byNumber = await cli('release', 'show', '1');
    expect(byNumber.code, byNumber.stderr).toBe(0);
    expect(byNumber.stdout).toMatch(/^Release 1 {2}rel_\S+ {2}\S+ {2}api$/m);
    expect(byNumber.stdout).toContain(`${service.url}/cdn/${bundleId}/1/ja.json`);

    const latest = json<Release>(await cli('release', 'show', 'latest', '--json'));
    expect(latest.number).toBe(2);
    expect(json<Release>(await cli('release', 'show', latest.id, '--json')).number).toBe(2);

    const unknown = await cli('release', 'show', '99');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^parlance release: release 99: 404 release_not_found: /m);
  });

  it('rotate-bundle-id prints the new id and says the old URLs stop working; they do', async () => {
    const rotate = await cli('release', 'rotate-bundle-id');
    expect(rotate.code, rotate.stderr).toBe(0);
    const fresh = /^New bundle id: (bnd_\S+)$/m.exec(rotate.stdout)![1]!;
    expect(fresh).not.toBe(bundleId);
    expect(rotate.stdout).toContain('Every CDN URL with the old bundle id answers 404 from now on');
    expect(rotate.stdout).toContain(`  ${service.url}/cdn/${fresh}/latest/manifest.json\n`);
    expect((await fetch(`${service.url}/cdn/${bundleId}/1/de.json`)).status).toBe(404);
    expect((await fetch(`${service.url}/cdn/${fresh}/1/de.json`)).status).toBe(200);
    expect(json<{ bundle_id: string }>(await cli('release', 'list', '--json')).bundle_id).toBe(fresh);
    bundleId = fresh;
  });
});

describe('parlance storage', () => {
  let good: StorageTarget;
  let bad: StorageTarget;

  const s3Target = (name: string, credentials: { access_key_id: string; secret_access_key: string }) => ({
    kind: 's3',
    name,
    s3: { endpoint: s3.endpoint, region: 'us-east-1', bucket: 'releases', force_path_style: true },
    credentials,
    prefix: `i18n/${name}`,
  });

  beforeAll(async () => {
    const create = async (body: unknown) => {
      const res = await service.api('/v1/storage-targets', { method: 'POST', json: body });
      expect(res.status).toBe(201);
      return (await res.json()) as StorageTarget;
    };
    good = await create(s3Target('web', { access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey }));
    bad = await create(s3Target('wrong', { access_key_id: 'AKIAWRONGWRONG1234', secret_access_key: 'not-the-secret' }));
  });

  it('help says why targets are not created here; a missing target id and an unknown action exit 1', async () => {
    const help = await cli('storage', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('parlance storage sync <target id> [--release <number>] [--wait]');
    expect(help.stdout).toContain("credentials given on a command\nline would end up in the shell's history");

    const missing = await cli('storage', 'sync', '--wait');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('parlance storage: Missing the storage target id. Usage: parlance storage sync <target id>');
    const unknown = await cli('storage', 'create', '--json');
    expect(unknown.code).toBe(1);
    expect(json<{ error: { message: string; exit_code: number } }>(unknown).error).toMatchObject({ exit_code: 1, message: expect.stringContaining("Unknown storage action 'create'") });
    const release = await cli('storage', 'sync', good.id, '--release', 'two');
    expect(release.code).toBe(1);
    expect(release.stderr).toContain("Invalid --release 'two'. Expected a release number such as 3");
    const notFound = await cli('storage', 'syncs', 'stt_nope');
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toMatch(/^parlance storage: storage target stt_nope: 404 storage_target_not_found: /m);
  });

  it('list shows each target: id, name, kind, where, status, last release and last error', async () => {
    const list = await cli('storage', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`${good.id}  web  s3  idle\n`);
    expect(list.stdout).toContain(`  where         s3://releases/i18n/web/ at ${s3.endpoint} (path style)\n`);
    expect(list.stdout).toContain('  credentials   access key …1234\n');
    expect(list.stdout).toContain('  last release  none yet\n');
    const targets = json<StorageTarget[]>(await cli('storage', 'list', '--json'));
    expect(targets.map((t) => [t.id, t.name, t.status])).toEqual([
      [good.id, 'web', 'idle'],
      [bad.id, 'wrong', 'idle'],
    ]);
  });

  it('sync --wait follows the sync to its end and prints the counts and the log', async () => {
    const sync = await cli('storage', 'sync', good.id, '--wait');
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(new RegExp(`^Synced release 2 to ${good.id}: 3 uploaded, 0 unchanged \\(sts_\\S+, 1 attempt\\)$`, 'm'));
    expect(sync.stdout).toMatch(/^ {2}\S+Z {2}uploaded i18n\/web\/de\.json \(\d+ bytes\)$/m);
    expect(sync.stdout).toMatch(/^ {2}\S+Z {2}uploaded i18n\/web\/manifest\.json \(\d+ bytes\)$/m);
    expect(sync.stderr).toMatch(/^Queued sts_\S+: release 2 to stt_\S+; waiting for it to end$/m);

    const again = await cli('storage', 'sync', good.id, '--release', '1', '--wait', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(json<StorageSync>(again)).toMatchObject({ target_id: good.id, release: 1, status: 'succeeded', uploaded: 3, unchanged: 2 });

    const list = await cli('storage', 'list');
    expect(list.stdout).toMatch(new RegExp(`^${good.id} {2}web {2}s3 {2}ok$`, 'm'));
    expect(list.stdout).toMatch(/^ {2}last release {2}1, synced \S+Z$/m);
  });

  it('a sync that fails exits 3 with the target error on stderr; --json carries the failed sync', async () => {
    const failed = await cli('storage', 'sync', bad.id, '--wait');
    expect(failed.code).toBe(3);
    expect(failed.stdout).toMatch(new RegExp(`^Sync sts_\\S+ of release 2 to ${bad.id} failed after 1 attempt: 0 uploaded, 0 unchanged$`, 'm'));
    expect(failed.stderr).toMatch(new RegExp(`^parlance storage: ${bad.id}: sync of release 2 failed: .*refused the credentials.*s3://releases`, 'm'));
    expect(failed.stderr + failed.stdout).not.toContain('not-the-secret');

    const asJson = await cli('storage', 'sync', bad.id, '--wait', '--json');
    expect(asJson.code).toBe(3);
    expect(json<StorageSync>(asJson)).toMatchObject({ target_id: bad.id, status: 'failed', error: expect.stringMatching(/refused the credentials/) });

    const list = await cli('storage', 'list');
    expect(list.stdout).toMatch(new RegExp(`^${bad.id} {2}wrong {2}s3 {2}failed$`, 'm'));
    expect(list.stdout).toMatch(/^ {2}last error {4}.*refused the credentials/m);
  });

  it('sync without --wait queues and returns; syncs lists the recent syncs with status and counts', async () => {
    const queued = await cli('storage', 'sync', good.id, '--json');
    expect(queued.code, queued.stderr).toBe(0);
    const sync = json<StorageSync>(queued);
    expect(sync).toMatchObject({ target_id: good.id, release: 2, trigger: 'api' });
    expect(['pending', 'running', 'succeeded']).toContain(sync.status);
    const human = await cli('storage', 'sync', good.id);
    expect(human.stdout).toMatch(new RegExp(`^Queued sts_\\S+: release 2 to ${good.id} \\(\\w+\\)\\. Follow it with 'parlance storage syncs ${good.id}'\\.$`, 'm'));

    const syncs = await cli('storage', 'syncs', bad.id);
    expect(syncs.code, syncs.stderr).toBe(0);
    expect(syncs.stdout).toMatch(/^sts_\S+ {2}release 2 {2}failed {6}0 uploaded, 0 unchanged {2}api {6}\S+Z$/m);
    expect(syncs.stdout).toMatch(/^ {4}.*refused the credentials/m);
    const page = json<{ items: StorageSync[]; next_cursor: string | null }>(await cli('storage', 'syncs', good.id, '--json'));
    expect(page.items[page.items.length - 1]!).toMatchObject({ release: 2, status: 'succeeded', uploaded: 3 });
  });

  it('sync --wait notes a failed attempt that will be retried, and follows the newer sync that supersedes it', async () => {
    // The syncs queued above have ended, so the newest sync below is the CLI's.
    for (let i = 0; i < 100 && ((await (await service.api(`/v1/storage-targets/${good.id}`)).json()) as StorageTarget).status !== 'ok'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await s3.halt();
    let restarted = false;
    try {
      const waiting = cli('storage', 'sync', good.id, '--wait');
      // The first attempt finds the bucket down and waits about 4 s to retry; the CLI, polling at most 2 s apart, sees that.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { items } = (await (await service.api(`/v1/storage-targets/${good.id}/syncs?limit=1`)).json()) as { items: StorageSync[] };
        if (items[0]?.status === 'pending' && items[0].error) break;
        if (Date.now() > deadline) throw new Error(`no failed attempt: ${JSON.stringify(items)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await s3.restart();
      restarted = true;
      const newer = await service.api(`/v1/storage-targets/${good.id}/sync`, { method: 'POST' });
      expect(newer.status).toBe(202);
      const newerId = ((await newer.json()) as StorageSync).id;

      const run = await waiting;
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^sts_\S+ attempt 1 failed: Could not reach S3 .*; retrying at \S+Z$/m);
      expect(run.stderr).toMatch(new RegExp(`^sts_\\S+ was superseded by ${newerId} \\(release 2\\); following it$`, 'm'));
      expect(run.stdout).toMatch(new RegExp(`^Synced release 2 to ${good.id}: 0 uploaded, 3 unchanged \\(${newerId}, 1 attempt\\)$`, 'm'));
    } finally {
      if (!restarted) await s3.restart();
    }
  });
});
