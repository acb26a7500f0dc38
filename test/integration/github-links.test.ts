/**
 * Linking a GitHub repository to a project over HTTP: the App's token minted and stored sealed, the App's receiver
 * subscribed and reached with signed deliveries, unlink undoing both, the refusals (403, 422, 409, 503), disabling
 * by installation, and `parlance github` in the CLI.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { hashTokenSecret } from '../../server/services/tokens/token-fns.js';
import { verifyWebhook } from '../../server/webhooks/signing.js';
import { startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A stand-in for the App's event receiver: records every request and answers 200. */
async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/github-app/events`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Link {
  id: string;
  installation_id: number;
  repository: string;
  base_branch: string;
  config_path: string;
  token_id: string;
  webhook_id: string | null;
  enabled: boolean;
  disabled_reason: string | null;
}

interface ProblemBody {
  code: string;
  detail: string;
}

const SECRET_KEY = randomBytes(32).toString('base64');
const BASE_ENV = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '50', RATE_LIMIT_PER_MINUTE: '100000' };

let service: TestService;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  service = await startService({ env: { ...BASE_ENV, PARLANCE_SECRET_KEY: SECRET_KEY, GITHUB_APP_EVENTS_URL: receiver.url } });
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function link(body: Record<string, unknown>, token?: string): Promise<Response> {
  return service.api('/v1/integrations/github', { method: 'POST', json: body, ...(token ? { token } : {}) });
}

async function appTokens(): Promise<{ id: string; name: string; abilities: string[]; revoked_at: string | null }[]> {
  const { items } = await json<{ items: { id: string; name: string; abilities: string[]; revoked_at: string | null }[] }>(await service.api('/v1/tokens'));
  return items.filter((t) => t.name.startsWith('github-app '));
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The stored row, through the service the App uses. */
async function storedLink(id: string) {
  const row = (await service.runtime.githubLinks.linksForProject(service.projectId)).find((l) => l.id === id);
  if (!row) throw new Error(`link ${id} is not among the project's enabled links`);
  return row;
}

describe('linking', () => {
  let linked: Link;

  it('mints the App a token with push, pull, read and write, and subscribes its receiver to two events', async () => {
    const res = await link({ installation_id: 4242, repository: 'acme/web' });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(text).not.toMatch(/prl_|whsec_|ciphertext/);
    linked = JSON.parse(text) as Link;
    expect(linked).toMatchObject({ installation_id: 4242, repository: 'acme/web', base_branch: 'main', config_path: 'parlance.yml', enabled: true, disabled_reason: null });
    expect(linked.id).toMatch(/^ghl_/);

    const [token] = (await appTokens()).filter((t) => t.id === linked.token_id);
    expect(token).toMatchObject({ name: 'github-app acme/web', revoked_at: null });
    expect([...token!.abilities].sort()).toEqual(['pull', 'push', 'read', 'write']);

    const webhook = await json<{ url: string; events: string[]; enabled: boolean }>(await service.api(`/v1/webhooks/${linked.webhook_id}`));
    expect(webhook).toMatchObject({ url: `${receiver.url}?link=${linked.id}`, enabled: true });
    expect([...webhook.events].sort()).toEqual(['batch.completed', 'source_drift.repaired']);

    expect(await json<Link>(await service.api(`/v1/integrations/github/${linked.id}`))).toEqual(linked);
    expect((await json<{ items: Link[] }>(await service.api('/v1/integrations/github'))).items.map((l) => l.id)).toContain(linked.id);
  });

  it('stores the token sealed: the ciphertext is not the token, and opens to the token the service minted', async () => {
    const row = await storedLink(linked.id);
    expect(row.token_ciphertext).not.toContain('prl_');
    expect(row.webhook_secret_ciphertext).not.toContain('whsec_');
    const token = service.runtime.githubLinks.decryptToken(row);
    expect(token).toMatch(/^prl_/);
    expect(row.token_ciphertext).not.toContain(token);
    const minted = await service.runtime.db.selectFrom('tokens').select('secret_hash').where('id', '=', linked.token_id).executeTakeFirstOrThrow();
    expect(hashTokenSecret(token)).toBe(minted.secret_hash);
    expect((await service.api('/v1/project', { token })).status).toBe(200);
  });

  it('a batch.completed delivery reaches the receiver, signed with the stored secret', async () => {
    const since = receiver.received.length;
    const batch = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'app.hello', source: 'Hello' }], locales: ['de'], path: 'app' } }), 202);
    await waitForBatch(service, batch.id);
    const delivery = await waitFor(
      () => receiver.received.slice(since).find((r) => r.url === `/github-app/events?link=${linked.id}` && (JSON.parse(r.body) as { type: string }).type === 'batch.completed'),
      'a batch.completed delivery for the link',
    );
    const secret = service.runtime.githubLinks.decryptWebhookSecret(await storedLink(linked.id));
    const headers = { 'webhook-id': String(delivery.headers['webhook-id']), 'webhook-timestamp': String(delivery.headers['webhook-timestamp']), 'webhook-signature': String(delivery.headers['webhook-signature']) };
    expect(() => verifyWebhook(secret, headers, delivery.body)).not.toThrow();
    expect(() => verifyWebhook(secret, headers, delivery.body.replace('completed', 'complete'))).toThrow(/No signature/);
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'batch.completed', data: { batch: { id: batch.id } } });
  });

  it('refuses a second link of the same repository and branch, whatever the case, and mints nothing', async () => {
    const before = (await appTokens()).length;
    const problem = await json<ProblemBody>(await link({ installation_id: 4242, repository: 'ACME/Web', base_branch: 'main' }), 409);
    expect(problem.code).toBe('github_link_exists');
    expect(problem.detail).toContain(`'ACME/Web' (branch 'main', installation 4242) is already linked to this project as ${linked.id}`);
    expect((await appTokens()).length).toBe(before);

    const other = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Other', sourceLocale: 'en', targetLocales: ['de'] });
    const otherToken = await service.mintToken({ projectId: other.id, abilities: ['manage'] });
    const elsewhere = await json<ProblemBody>(await link({ installation_id: 4242, repository: 'acme/web' }, otherToken), 409);
    expect(elsewhere.detail).toContain('already linked to another project');
    expect(elsewhere.detail).not.toContain(linked.id);
  });

  it('links another branch of the same repository, with its own config path', async () => {
    const release = await json<Link>(await link({ installation_id: 4242, repository: 'acme/web', base_branch: 'release/2.x', config_path: '.github/parlance.yml' }), 201);
    expect(release).toMatchObject({ base_branch: 'release/2.x', config_path: '.github/parlance.yml' });
    expect(release.token_id).not.toBe(linked.token_id);
    expect(release.webhook_id).not.toBe(linked.webhook_id);
  });

  it("the connector routes a link has no counterpart for answer 405 naming the real flow, and change nothing", async () => {
    const before = await json<Link>(await service.api(`/v1/integrations/github/${linked.id}`));
    const patched = await service.api(`/v1/integrations/github/${linked.id}`, { method: 'PATCH', json: { settings: { base_branch: 'develop' } } });
    expect(patched.headers.get('allow')).toBe('GET, DELETE');
    const configure = await json<ProblemBody>(patched, 405);
    expect(configure.code).toBe('github_link_operation_unsupported');
    expect(configure.detail).toContain(`unlink it (DELETE /v1/integrations/github/${linked.id}) and link again (POST /v1/integrations/github)`);
    expect(configure.detail).not.toContain('No connector');
    const sync = await json<ProblemBody>(await service.api(`/v1/integrations/github/${linked.id}/sync`, { method: 'POST' }), 405);
    expect(sync.detail).toContain("it syncs when a commit is pushed to 'main' of acme/web");
    const syncs = await json<ProblemBody>(await service.api(`/v1/integrations/github/${linked.id}/syncs`), 405);
    expect(syncs.detail).toContain('GET /v1/batches');
    expect((await json<ProblemBody>(await service.api(`/v1/integrations/github/${linked.id}/syncs/isy_x`), 405)).code).toBe('github_link_operation_unsupported');
    // An unknown link is a 404 first, on each of them.
    expect((await json<ProblemBody>(await service.api('/v1/integrations/github/ghl_unknown', { method: 'PATCH', json: {} }), 404)).code).toBe('github_link_not_found');
    expect((await json<ProblemBody>(await service.api('/v1/integrations/github/ghl_unknown/sync', { method: 'POST' }), 404)).code).toBe('github_link_not_found');
    expect(await json<Link>(await service.api(`/v1/integrations/github/${linked.id}`))).toEqual(before);
  });

  it('unlinking revokes the token and deletes the webhook', async () => {
    const token = service.runtime.githubLinks.decryptToken(await storedLink(linked.id));
    const removed = await json<Link>(await service.api(`/v1/integrations/github/${linked.id}`, { method: 'DELETE' }));
    expect(removed.id).toBe(linked.id);

    expect((await appTokens()).find((t) => t.id === linked.token_id)?.revoked_at).not.toBeNull();
    expect((await json<ProblemBody>(await service.api('/v1/project', { token }), 401)).code).toBe('token_revoked');
    expect((await json<ProblemBody>(await service.api(`/v1/webhooks/${linked.webhook_id}`), 404)).code).toBe('webhook_not_found');
    expect((await json<ProblemBody>(await service.api(`/v1/integrations/github/${linked.id}`), 404)).code).toBe('github_link_not_found');
    expect((await json<ProblemBody>(await service.api(`/v1/integrations/github/${linked.id}`, { method: 'DELETE' }), 404)).code).toBe('github_link_not_found');

    // The target is free again.
    await json<Link>(await link({ installation_id: 4242, repository: 'acme/web' }), 201);
  });
});

describe('refusals', () => {
  it('403 without the manage ability, on every route', async () => {
    const deploy = await service.mintToken({ abilities: ['push', 'pull', 'read', 'write'] });
    const refused = await json<ProblemBody>(await link({ installation_id: 1, repository: 'acme/deploy' }, deploy), 403);
    expect(refused).toMatchObject({ code: 'ability_missing' });
    expect(refused.detail).toContain("lacks the 'manage' ability");
    expect((await service.api('/v1/integrations/github', { token: deploy })).status).toBe(403);
    expect((await service.api('/v1/integrations/github/ghl_x', { token: deploy })).status).toBe(403);
    expect((await service.api('/v1/integrations/github/ghl_x', { method: 'DELETE', token: deploy })).status).toBe(403);
    expect((await service.api('/v1/integrations/github/ghl_x', { method: 'PATCH', json: {}, token: deploy })).status).toBe(403);
    expect((await service.api('/v1/integrations/github/ghl_x/sync', { method: 'POST', token: deploy })).status).toBe(403);
    expect((await service.api('/v1/integrations/github/ghl_x/syncs', { token: deploy })).status).toBe(403);
    expect((await appTokens()).some((t) => t.name === 'github-app acme/deploy')).toBe(false);
  });

  it.each([
    [{ installation_id: 1, repository: 'acme' }, "Invalid repository 'acme'. Expected 'owner/name'"],
    [{ installation_id: 1, repository: 'acme/web/extra' }, "Invalid repository 'acme/web/extra'"],
    [{ installation_id: 1, repository: '-acme/web' }, "Invalid repository '-acme/web'"],
    [{ installation_id: 1, repository: 'acme/..' }, "Invalid repository 'acme/..'"],
    [{ installation_id: 1, repository: 'acme/has space' }, "Invalid repository 'acme/has space'"],
    [{ installation_id: '1', repository: 'acme/web' }, 'Invalid installation_id "1"'],
    [{ installation_id: -3, repository: 'acme/web' }, 'Invalid installation_id -3'],
    [{ installation_id: 1, repository: 'acme/web', base_branch: 'feature..x' }, "Invalid base_branch 'feature..x'"],
    [{ installation_id: 1, repository: 'acme/web', base_branch: 'bad name' }, "Invalid base_branch 'bad name'"],
    [{ installation_id: 1, repository: 'acme/web', config_path: '../parlance.yml' }, "Invalid config_path '../parlance.yml'"],
    [{ installation_id: 1, repository: 'acme/web', config_path: '/etc/parlance.yml' }, "Invalid config_path '/etc/parlance.yml'"],
    [{ installation_id: 1, repository: 'acme/web', token: 'prl_x' }, 'token'],
  ])('422 for %j', async (body, message) => {
    const problem = await json<ProblemBody>(await link(body), 422);
    expect(problem.code).toBe('validation_failed');
    expect(problem.detail).toContain(message);
  });

  it('a refused request mints no token and subscribes nothing', async () => {
    const tokens = (await appTokens()).length;
    const webhooks = (await json<{ items: unknown[] }>(await service.api('/v1/webhooks'))).items.length;
    await json<ProblemBody>(await link({ installation_id: 1, repository: 'nope' }), 422);
    expect((await appTokens()).length).toBe(tokens);
    expect((await json<{ items: unknown[] }>(await service.api('/v1/webhooks'))).items.length).toBe(webhooks);
  });

  describe('503 when the operator has not configured it', () => {
    let bare: TestService;
    let keyOnly: TestService;
    beforeAll(async () => {
      [bare, keyOnly] = await Promise.all([
        startService({ env: { ...BASE_ENV, GITHUB_APP_EVENTS_URL: receiver.url } }),
        startService({ env: { ...BASE_ENV, PARLANCE_SECRET_KEY: SECRET_KEY } }),
      ]);
    });
    afterAll(async () => {
      await bare?.stop();
      await keyOnly?.stop();
    });

    it('secret_key_missing without PARLANCE_SECRET_KEY, saying how to set it, and nothing minted', async () => {
      const problem = await json<ProblemBody>(await bare.api('/v1/integrations/github', { method: 'POST', json: { installation_id: 1, repository: 'acme/web' } }), 503);
      expect(problem.code).toBe('secret_key_missing');
      expect(problem.detail).toContain('PARLANCE_SECRET_KEY is not set');
      expect(problem.detail).toContain('openssl rand -base64 32');
      const { items } = await json<{ items: { name: string }[] }>(await bare.api('/v1/tokens'));
      expect(items.map((t) => t.name)).toEqual(['test']);
    });

    it('github_app_not_configured without GITHUB_APP_EVENTS_URL', async () => {
      const problem = await json<ProblemBody>(await keyOnly.api('/v1/integrations/github', { method: 'POST', json: { installation_id: 1, repository: 'acme/web' } }), 503);
      expect(problem.code).toBe('github_app_not_configured');
      expect(problem.detail).toContain('GITHUB_APP_EVENTS_URL is not set');
    });
  });
});

describe('disabling by installation', () => {
  it('disables the links of removed repositories, or of the whole installation, and their webhooks', async () => {
    const a = await json<Link>(await link({ installation_id: 777, repository: 'acme/one' }), 201);
    const b = await json<Link>(await link({ installation_id: 777, repository: 'acme/two' }), 201);
    const links = service.runtime.githubLinks;

    const removed = await links.disableForInstallation(777, 'repository removed from the installation', ['ACME/One']);
    expect(removed.map((l) => l.id)).toEqual([a.id]);
    expect(await json<Link>(await service.api(`/v1/integrations/github/${a.id}`))).toMatchObject({ enabled: false, disabled_reason: 'repository removed from the installation' });
    expect(await json<{ enabled: boolean }>(await service.api(`/v1/webhooks/${a.webhook_id}`))).toMatchObject({ enabled: false });
    expect((await links.linksForRepository(777, 'acme/one')).length).toBe(0);
    expect((await links.linksForRepository(777, 'Acme/Two')).map((l) => l.id)).toEqual([b.id]);
    expect(await links.disableForInstallation(777, 'nothing', [])).toEqual([]);

    const rest = await links.disableForInstallation(777, 'installation deleted');
    expect(rest.map((l) => l.id)).toEqual([b.id]);
    const ids = (await links.linksForProject(service.projectId)).map((l) => l.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(b.id);
    expect(await json<Link>(await service.api(`/v1/integrations/github/${a.id}`))).toMatchObject({ disabled_reason: 'repository removed from the installation' });

    const again = await json<ProblemBody>(await link({ installation_id: 777, repository: 'acme/two' }), 409);
    expect(again.detail).toContain(`as ${b.id} (disabled: installation deleted); to link it again, unlink it first`);
  });
});

describe('parlance github', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'parlance-github-cli-'));
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  async function cli(args: string[]) {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: { PARLANCE_TOKEN: service.token, PARLANCE_URL: service.url },
      cwd,
      isTTY: false,
    };
    const code = await runCli(args, io);
    return { code, stdout, stderr };
  }

  it('links, lists and unlinks', async () => {
    const linked = await cli(['github', 'link', '--installation', '31337', '--repository', 'acme/cli', '--base', 'develop', '--config-path', 'config/parlance.yml', '--json']);
    expect(linked.code, linked.stderr).toBe(0);
    const created = JSON.parse(linked.stdout) as Link;
    expect(created).toMatchObject({ installation_id: 31337, repository: 'acme/cli', base_branch: 'develop', config_path: 'config/parlance.yml', enabled: true });

    const listed = await cli(['github', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${created.id}  acme/cli@develop  config/parlance.yml  installation 31337  enabled`);

    const unlinked = await cli(['github', 'unlink', created.id]);
    expect(unlinked.code, unlinked.stderr).toBe(0);
    expect(unlinked.stdout).toContain(`Unlinked ${created.id}`);
    expect((await appTokens()).find((t) => t.id === created.token_id)?.revoked_at).not.toBeNull();
  });

  it('names the bad flag or the service refusal, with the exit code', async () => {
    const badId = await cli(['github', 'link', '--installation', 'abc', '--repository', 'acme/cli']);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain("Invalid --installation 'abc'");
    const missing = await cli(['github', 'link', '--installation', '5']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("--repository: required: the repository as 'owner/name'");
    const refused = await cli(['github', 'link', '--installation', '5', '--repository', 'not-a-repo']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("422 validation_failed: Invalid request: repository: Invalid repository 'not-a-repo'");
    const unknown = await cli(['github', 'unlink', 'ghl_missing']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("404 github_link_not_found: No GitHub link 'ghl_missing' in this project.");
  });
});
