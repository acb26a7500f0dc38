/**
 * `parlance integrations`, the real binary against an in-process service and the generic HTTP connector's mock: the
 * catalog; connect with a credential missing from the environment, with a setting the service refuses, and for real
 * (the webhook secret printed once, the signing secret never); sync --wait succeeding (translations delivered) and
 * failing with exit 3 on a signing secret the mock refuses; list and syncs, --json; disconnect; update (rename,
 * schedule, settings set and removed, disable and enable, an address moved to another host only with new credentials);
 * upload of a design file (--wait, a missing file, a connector that takes none); usage errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogConnector, IntegrationConnection, IntegrationSync, Page } from '../../src/client/types.js';
import { KIT_ENV, SEED } from '../helpers/connector-kit.js';
import { startHttpServiceMock, type HttpServiceMock } from '../helpers/connector-mocks/http-service.js';
import { artboard, sketchFile, sketchId, text } from '../helpers/connector-mocks/sketch.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');
const SIGNING_SECRET = 'signing-secret-for-the-cli-0123';
const WRONG_SECRET = 'a-signing-secret-the-mock-refuses';

let service: TestService;
let mock: HttpServiceMock;
let cwd: string;

beforeAll(async () => {
  mock = await startHttpServiceMock({ signingSecret: SIGNING_SECRET });
  service = await startService({ env: KIT_ENV });
  // No parlance.yml here: the commands need only --service and --token.
  cwd = mkdtempSync(join(tmpdir(), 'parlance-cli-integrations-'));
});

afterAll(async () => {
  await service?.stop();
  await mock?.close();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** The real binary, with the service and token as flags; no PARLANCE_SECRET_* from this process leaks in. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PARLANCE_')));
  return runProcess(process.execPath, [BIN, ...args, '--service', service.url, '--token', service.token], { cwd, env: { ...inherited, ...env } });
}

function json<T>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

async function apiConnections(): Promise<IntegrationConnection[]> {
  return ((await (await service.api('/v1/integrations/http')).json()) as { items: IntegrationConnection[] }).items;
}

const httpSettings = () => ['--set', `source_url=${mock.url}/source`, '--set', `delivery_url=${mock.url}/deliver`];

describe('parlance integrations', () => {
  let good: string;
  let bad: string;

  it('help names every action; a missing or unknown action, a missing connector and a misplaced flag are usage errors', async () => {
    const help = await cli(['integrations', '--help']);
    expect(help.code).toBe(0);
    for (const usage of ['parlance integrations catalog', 'parlance integrations list <connector>', 'parlance integrations connect <connector> --set key=value', 'parlance integrations update <connector> <connection id> [--set key=value ...] [--unset key ...]', '[--enable | --disable] [--rotate-secrets]', 'parlance integrations sync <connector> <connection id> [--wait]', 'PARLANCE_SECRET_MANAGEMENT_TOKEN']) {
      expect(help.stdout).toContain(usage);
    }
    expect((await cli(['--help'])).stdout).toMatch(/^ {2}integrations +catalog \| list \| connect \| update \|/m);

    const missing = await cli(['integrations']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^parlance integrations: Missing the integrations action\. Usage: parlance integrations catalog/m);
    const unknown = await cli(['integrations', 'frobnicate', '--json']);
    expect(unknown.code).toBe(1);
    expect(json<{ error: { message: string; exit_code: number } }>(unknown).error).toMatchObject({ exit_code: 1, message: expect.stringContaining("Unknown integrations action 'frobnicate'") });
    expect((await cli(['integrations', 'list'])).stderr).toContain('Missing the connector. Usage: parlance integrations list <connector>');
    expect((await cli(['integrations', 'syncs', 'http'])).stderr).toContain('Missing the connection id. Usage: parlance integrations syncs http <connection id>');
    const misplaced = await cli(['integrations', 'list', 'http', '--wait']);
    expect(misplaced.code).toBe(1);
    expect(misplaced.stderr).toContain("--wait is an option of 'parlance integrations sync' and 'parlance integrations upload', not of 'list'.");
    const shared = await cli(['integrations', 'sync', 'http', 'con_x', '--set', 'a=b']);
    expect(shared.code).toBe(1);
    expect(shared.stderr).toContain("--set is an option of 'parlance integrations connect' and 'parlance integrations update', not of 'sync'.");
    expect((await cli(['integrations', 'connect', 'http', '--unset', 'a'])).stderr).toContain("--unset is an option of 'parlance integrations update', not of 'connect'.");
    expect((await cli(['integrations', 'update', 'http'])).stderr).toContain('Missing the connection id. Usage: parlance integrations update http <connection id>');
    const schedule = await cli(['integrations', 'connect', 'http', '--schedule', '2']);
    expect(schedule.code).toBe(1);
    expect(schedule.stderr).toContain("Invalid --schedule '2'. Expected the minutes between scheduled syncs, from 5 to 10080");
    const github = await cli(['integrations', 'list', 'github']);
    expect(github.code).toBe(1);
    expect(github.stderr).toContain("parlance github link|list|unlink");
  });

  it('catalog is a table of the 41 connectors; --json is the catalog itself', async () => {
    const run = await cli(['integrations', 'catalog']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +NAME +CATEGORY +DIRECTION$/);
    expect(lines).toHaveLength(42);
    expect(lines[1]).toMatch(/^github +GitHub +code_host +two_way$/);
    expect(run.stdout).toMatch(/^http +\S.* +automation +two_way$/m);
    expect(run.stdout).toMatch(/^figma +Figma +design +import_only$/m);

    const doc = json<CatalogConnector[]>(await cli(['integrations', 'catalog', '--json']));
    expect(doc).toHaveLength(41);
    expect(doc.filter((c) => c.direction === 'import_only')).toHaveLength(9);
    expect(doc.find((c) => c.id === 'http')).toMatchObject({ category: 'automation', direction: 'two_way', secrets_schema: { required: ['signing_secret'] } });
  });

  it('an unknown connector is named with the service 404; connect names it too', async () => {
    const list = await cli(['integrations', 'list', 'nosuch']);
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/^parlance integrations: connector 'nosuch': 404 connector_not_found: No connector 'nosuch'/m);
    const connect = await cli(['integrations', 'connect', 'nosuch', '--set', 'a=b']);
    expect(connect.code).toBe(1);
    expect(connect.stderr).toMatch(/Unknown connector 'nosuch'\. Expected one of: github, gitlab, .*http\./);
  });

  it('connect without the credential in the environment names the missing variable, and connects nothing', async () => {
    const run = await cli(['integrations', 'connect', 'http', ...httpSettings()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('parlance integrations: Missing credentials for http: set $PARLANCE_SECRET_SIGNING_SECRET (credentials are read from the environment');
    // A connector whose credentials come in alternatives names each alternative.
    const bitbucket = await cli(['integrations', 'connect', 'bitbucket', '--set', 'workspace=acme']);
    expect(bitbucket.code).toBe(1);
    expect(bitbucket.stderr).toContain('set $PARLANCE_SECRET_ACCESS_TOKEN, or $PARLANCE_SECRET_USERNAME and $PARLANCE_SECRET_APP_PASSWORD');
    // A credential on the command line is refused before anything is sent.
    const inline = await cli(['integrations', 'connect', 'http', ...httpSettings(), '--set', `signing_secret=${SIGNING_SECRET}`]);
    expect(inline.code).toBe(1);
    expect(inline.stderr).toContain("'signing_secret' is a credential of http: set $PARLANCE_SECRET_SIGNING_SECRET instead");
    expect(await apiConnections()).toEqual([]);
  });

  it('connect with a setting the service refuses exits 1 with its 422 and the field', async () => {
    const run = await cli(['integrations', 'connect', 'http', '--set', 'source_url=not a url', '--set', `delivery_url=${mock.url}/deliver`], { PARLANCE_SECRET_SIGNING_SECRET: SIGNING_SECRET });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^parlance integrations: connecting http: 422 \S+: .*source_url/m);
    expect(await apiConnections()).toEqual([]);
  });

  it('connect prints the connection and the webhook URL and secret once, never the signing secret', async () => {
    // `name` is a string setting: 2026 stays text, where a JSON number would be refused.
    const run = await cli(['integrations', 'connect', 'http', ...httpSettings(), '--set', 'name=2026', '--name', 'n8n workflow', '--schedule', '60', '--no-sync'], { PARLANCE_SECRET_SIGNING_SECRET: SIGNING_SECRET });
    expect(run.code, run.stderr).toBe(0);
    good = /^Connected .+ as (\S+) \(n8n workflow\)\.$/m.exec(run.stdout)![1]!;
    expect(run.stdout).toMatch(/^ {2}schedule {4}every 60 min, next \S+$/m);
    expect(run.stdout).toMatch(/^ {2}last sync {3}none yet$/m);
    const url = /^ {2}webhook URL {5}(\S+)$/m.exec(run.stdout)![1]!;
    const secret = /^ {2}webhook secret {2}(\S+)$/m.exec(run.stdout)![1]!;
    expect(secret.length).toBeGreaterThanOrEqual(16);
    expect(run.stdout).toContain('not shown again');
    expect(`${run.stdout}${run.stderr}`).not.toContain(SIGNING_SECRET);

    const stored = (await apiConnections()).find((c) => c.id === good)!;
    expect(stored).toMatchObject({ name: 'n8n workflow', schedule_minutes: 60, status: 'never_synced', webhook_url: url, settings: { source_url: `${mock.url}/source`, name: '2026' } });
    expect(stored.webhook_secret).toBeUndefined();
  });

  it('connect takes a --set value that parses as JSON as JSON (lists, objects); --quiet still prints the webhook secret', async () => {
    const run = await cli(['integrations', 'connect', 'strapi', '--set', `api_url=${mock.url}`, '--set', 'collections=["articles"]', '--set', 'fields={"articles":["title","summary"]}', '--no-sync', '--quiet'], { PARLANCE_SECRET_API_TOKEN: 'strapi-token' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('Connected');
    expect(run.stdout).toMatch(/^ {2}webhook secret {2}\S{16,}$/m);
    expect(run.stdout).not.toContain('strapi-token');
    const [connection] = ((await (await service.api('/v1/integrations/strapi')).json()) as { items: IntegrationConnection[] }).items;
    expect(connection!.settings).toMatchObject({ api_url: mock.url, collections: ['articles'], fields: { articles: ['title', 'summary'] } });
  });

  it('sync --wait follows the sync to success: exit 0, counts, translations delivered', async () => {
    const run = await cli(['integrations', 'sync', 'http', good, '--wait', '--timeout', '120']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).toMatch(/^Queued \S+ for http connection \S+; waiting for it to end$/m);
    expect(run.stdout).toMatch(new RegExp(`^Sync \\S+ of http connection ${good} succeeded after 1 attempt: ${SEED.length} strings: ${SEED.length} added, 0 changed, 0 removed, 0 human edits, ${SEED.length * 2} written \\(batch \\S+\\)$`, 'm'));
    for (const { id } of SEED) for (const locale of ['de', 'fr']) expect(await mock.translation(id, locale), `${id} ${locale}`).toBeTruthy();
  });

  it('sync --wait on a connection whose signing secret the service refuses exits 3 with the error and the log', async () => {
    const connect = await cli(['integrations', 'connect', 'http', ...httpSettings(), '--no-sync', '--json'], { PARLANCE_SECRET_SIGNING_SECRET: WRONG_SECRET });
    expect(connect.code, connect.stderr).toBe(0);
    const doc = json<IntegrationConnection>(connect);
    expect(doc.webhook_secret).toBeTruthy();
    expect(connect.stdout).not.toContain(WRONG_SECRET);
    bad = doc.id;

    const run = await cli(['integrations', 'sync', 'http', bad, '--wait']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3);
    expect(run.stdout).toMatch(new RegExp(`^Sync \\S+ of http connection ${bad} failed after 1 attempt`, 'm'));
    expect(run.stderr).toMatch(new RegExp(`^parlance integrations: http connection ${bad}: sync \\S+ failed: .*signature rejected`, 'm'));
    expect(run.stderr).toMatch(/^ {2}\d{4}-\d\d-\d\dT\S+Z {2}\S/m);

    const asJson = await cli(['integrations', 'sync', 'http', bad, '--wait', '--json']);
    expect(asJson.code).toBe(3);
    expect(json<IntegrationSync>(asJson)).toMatchObject({ status: 'failed', error: expect.stringContaining('signature rejected') });
  });

  it('list shows each connection with its status, last sync and counts, and last error; --json is the connections', async () => {
    const run = await cli(['integrations', 'list', 'http']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${good} {2}n8n workflow {2}ok$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^ {2}last sync {3}\\S+ {2}succeeded {2}\\S+Z {2}${SEED.length} strings: ${SEED.length} added`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^${bad} {2}.+ {2}error$`, 'm'));
    expect(run.stdout).toMatch(/^ {2}last error {2}.*signature rejected/m);
    const doc = json<IntegrationConnection[]>(await cli(['integrations', 'list', 'http', '--json']));
    expect(doc.map((c) => [c.id, c.status]).sort()).toEqual(
      [
        [good, 'ok'],
        [bad, 'error'],
      ].sort(),
    );
  });

  it('sync without --wait queues; syncs lists them newest first with their counts; --json is the page', async () => {
    const queued = await cli(['integrations', 'sync', 'http', good]);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stdout).toMatch(new RegExp(`^Queued \\S+ for http connection ${good} \\(queued\\)\\. Follow it with 'parlance integrations syncs http ${good}'\\.$`, 'm'));

    const run = await cli(['integrations', 'syncs', 'http', good]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^\\S+ {2}succeeded {6}api {7}\\S+Z {2}${SEED.length} strings: ${SEED.length} added, 0 changed, 0 removed, 0 human edits, ${SEED.length * 2} written$`));
    const page = json<Page<IntegrationSync>>(await cli(['integrations', 'syncs', 'http', bad, '--json']));
    expect(page.items.map((s) => s.status)).toEqual(['failed', 'failed']);
    const failed = await cli(['integrations', 'syncs', 'http', bad]);
    expect(failed.stdout).toMatch(/^ {4}.*signature rejected/m);
  });

  it("upload sends a design file to the connection and --wait follows the sync it starts; a connector that reads no file says so", async () => {
    const res = await service.api('/v1/integrations/sketch', { method: 'POST', json: { settings: {}, secrets: {}, sync: false } });
    const sketch = ((await res.json()) as IntegrationConnection).id;
    const file = join(cwd, 'Checkout.sketch');
    writeFileSync(file, sketchFile([{ id: sketchId('page'), name: 'Checkout', layers: [artboard(sketchId('board'), 'Cart', SEED.map((s, i) => text(sketchId(s.id), s.id, s.source, { x: 0, y: i * 30, width: 160, height: 20 })))] }]));
    const run = await cli(['integrations', 'upload', 'sketch', sketch, file, '--wait']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Uploaded Checkout\.sketch \(\d+ bytes\); waiting for sync isy_\w+ to end/);
    expect(run.stdout).toMatch(/succeeded/);
    const synced = ((await (await service.api(`/v1/integrations/sketch/${sketch}/syncs`)).json()) as Page<IntegrationSync>).items[0]!;
    expect(synced).toMatchObject({ trigger: 'upload', status: 'succeeded', counts: { added: SEED.length } });
    const listed = await cli(['integrations', 'list', 'sketch']);
    expect(listed.stdout).toMatch(/^ {2}file {8}Checkout\.sketch \(\d+ bytes\), uploaded \d{4}-/m);

    const missing = await cli(['integrations', 'upload', 'sketch', sketch, join(cwd, 'nope.sketch')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`Cannot read ${join(cwd, 'nope.sketch')}: no such file.`);
    const refused = await cli(['integrations', 'upload', 'http', good, file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('405 upload_not_supported');
    await service.api(`/v1/integrations/sketch/${sketch}`, { method: 'DELETE' });
  });

  it('disconnect removes the connection; what is gone is then named with the 404', async () => {
    const run = await cli(['integrations', 'disconnect', 'http', bad]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Disconnected ${bad} (`);
    expect(run.stdout).toContain("The project's keys and translations stay");
    expect((await apiConnections()).map((c) => c.id)).toEqual([good]);

    const again = await cli(['integrations', 'syncs', 'http', bad]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^parlance integrations: http connection ${bad}: 404 `, 'm'));
  });

  describe('update', () => {
    async function stored(): Promise<IntegrationConnection> {
      return (await apiConnections()).find((c) => c.id === good)!;
    }

    it('renames and schedules, prints the connection as list does; --no-schedule goes back to on demand', async () => {
      const run = await cli(['integrations', 'update', 'http', good, '--name', 'Renamed workflow', '--schedule', '30']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^${good} {2}Renamed workflow {2}ok$`, 'm'));
      expect(run.stdout).toMatch(/^ {2}schedule {4}every 30 min, next \S+$/m);
      expect(run.stdout).toMatch(/^ {2}last sync {3}\S+ {2}succeeded/m);
      expect(await stored()).toMatchObject({ name: 'Renamed workflow', schedule_minutes: 30, enabled: true });

      const off = await cli(['integrations', 'update', 'http', good, '--no-schedule']);
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toMatch(/^ {2}schedule {4}on demand and on change notifications$/m);
      expect(await stored()).toMatchObject({ name: 'Renamed workflow', schedule_minutes: null, next_scheduled_at: null });
    });

    it('--set changes one setting as connect parses it (a string field stays text) and keeps the others; --json is the connection', async () => {
      const run = await cli(['integrations', 'update', 'http', good, '--set', 'name=2027', '--json']);
      expect(run.code, run.stderr).toBe(0);
      const doc = json<IntegrationConnection>(run);
      expect(doc).toMatchObject({ id: good, name: 'Renamed workflow', settings: { name: '2027', source_url: `${mock.url}/source`, delivery_url: `${mock.url}/deliver` } });
      expect(doc.webhook_secret).toBeUndefined();
      expect((await stored()).settings).toEqual({ name: '2027', source_url: `${mock.url}/source`, delivery_url: `${mock.url}/deliver` });
    });

    it('--unset removes a setting; a credential, an unknown setting or a key also set are usage errors', async () => {
      // An address removed sends nothing to a new host: no credentials needed.
      const run = await cli(['integrations', 'update', 'http', good, '--unset', 'delivery_url']);
      expect(run.code, run.stderr).toBe(0);
      expect((await stored()).settings).toEqual({ name: '2027', source_url: `${mock.url}/source` });

      const before = await stored();
      const secret = await cli(['integrations', 'update', 'http', good, '--unset', 'signing_secret']);
      expect(secret.code).toBe(1);
      expect(secret.stderr).toContain("'signing_secret' is a credential of http: replace the credentials with --rotate-secrets and $PARLANCE_SECRET_SIGNING_SECRET instead.");
      const unknown = await cli(['integrations', 'update', 'http', good, '--unset', 'nosuch']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("Invalid --unset 'nosuch': http has no such setting. Expected one of: source_url, delivery_url, name.");
      const both = await cli(['integrations', 'update', 'http', good, '--set', 'name=x', '--unset', 'name']);
      expect(both.code).toBe(1);
      expect(both.stderr).toContain("'name' is given to both --set and --unset");
      expect(await stored()).toEqual(before);
    });

    it('--disable and --enable', async () => {
      const off = await cli(['integrations', 'update', 'http', good, '--disable']);
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toMatch(new RegExp(`^${good} {2}Renamed workflow {2}disabled$`, 'm'));
      expect(await stored()).toMatchObject({ enabled: false, status: 'disabled' });
      const refused = await cli(['integrations', 'sync', 'http', good]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('409 connection_disabled');

      const on = await cli(['integrations', 'update', 'http', good, '--enable']);
      expect(on.code, on.stderr).toBe(0);
      expect(on.stdout).toMatch(new RegExp(`^${good} {2}Renamed workflow {2}ok$`, 'm'));
      expect(await stored()).toMatchObject({ enabled: true, status: 'ok' });
    });

    it('moving an address to another host is refused without --rotate-secrets (the API detail and a hint), and changes nothing', async () => {
      const before = await stored();
      const moved = `http://localhost:${new URL(mock.url).port}/source`;
      // The variable alone is not enough: only --rotate-secrets sends it.
      const env = { PARLANCE_SECRET_SIGNING_SECRET: SIGNING_SECRET };
      const run = await cli(['integrations', 'update', 'http', good, '--set', `source_url=${moved}`], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^parlance integrations: http connection ${good}: 422 secrets_required: Changing settings\\.source_url sends requests to another host: .*\\(repeat the command with --rotate-secrets and \\$PARLANCE_SECRET_SIGNING_SECRET set\\)$`, 'm'));
      const asJson = await cli(['integrations', 'update', 'http', good, '--set', `source_url=${moved}`, '--json'], env);
      expect(asJson.code).toBe(1);
      expect(json<{ error: { message: string; exit_code: number; status: number; code: string } }>(asJson).error).toMatchObject({ exit_code: 1, status: 422, code: 'secrets_required', message: expect.stringContaining('--rotate-secrets') });
      expect(await stored()).toEqual(before);

      const missing = await cli(['integrations', 'update', 'http', good, '--set', `source_url=${moved}`, '--rotate-secrets']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('Missing credentials for http: set $PARLANCE_SECRET_SIGNING_SECRET');
      expect(await stored()).toEqual(before);

      const rotated = await cli(['integrations', 'update', 'http', good, '--set', `source_url=${moved}`, '--rotate-secrets'], env);
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(`${rotated.stdout}${rotated.stderr}`).not.toContain(SIGNING_SECRET);
      expect((await stored()).settings).toEqual({ name: '2027', source_url: moved });
    });

    it('no flag, or contradicting flags, is a usage error naming the flags, sent to no one', async () => {
      const before = await stored();
      const none = await cli(['integrations', 'update', 'http', good]);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`parlance integrations: Nothing to change on http connection ${good}: give one or more of --set, --unset, --name, --schedule, --no-schedule, --enable, --disable, --rotate-secrets.`);
      const both = await cli(['integrations', 'update', 'http', good, '--enable', '--disable']);
      expect(both.code).toBe(1);
      expect(both.stderr).toContain('--enable and --disable contradict each other: give one of them.');
      const schedule = await cli(['integrations', 'update', 'http', good, '--schedule', '30', '--no-schedule']);
      expect(schedule.code).toBe(1);
      expect(schedule.stderr).toContain('--schedule and --no-schedule contradict each other');
      expect(await stored()).toEqual(before);
    });
  });
});
