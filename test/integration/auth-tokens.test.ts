/** Authentication, abilities and the /v1/tokens endpoints, over HTTP against the running service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { generateTokenSecret } from '../../server/services/tokens/token-fns.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  return (await res.json()) as { code: string; detail: string; status: number; ability?: string };
}

describe('authentication', () => {
  it('401 token_missing without an Authorization header, with WWW-Authenticate', async () => {
    const res = await service.api('/v1/project', { token: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await problem(res)).code).toBe('token_missing');
  });

  it('401 token_malformed for a non-bearer header, a bad shape and a bad checksum', async () => {
    const basic = await service.api('/v1/project', { token: null, headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
    expect((await problem(basic)).code).toBe('token_malformed');

    const short = await service.api('/v1/project', { token: 'prl_abc' });
    expect((await problem(short)).code).toBe('token_malformed');

    const real = service.token;
    const flipped = real.slice(0, 10) + (real[10] === 'a' ? 'b' : 'a') + real.slice(11);
    const res = await service.api('/v1/project', { token: flipped });
    expect(res.status).toBe(401);
    const body = await problem(res);
    expect(body.code).toBe('token_malformed');
    expect(body.detail).toContain('truncated');
  });

  it('401 token_invalid for a well-formed token nobody minted', async () => {
    const res = await service.api('/v1/project', { token: generateTokenSecret() });
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe('token_invalid');
  });

  it('401 token_expired after expiry', async () => {
    const token = await service.mintToken({ expiresAt: new Date(Date.now() + 1500) });
    expect((await service.api('/v1/project', { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const res = await service.api('/v1/project', { token });
    expect(res.status).toBe(401);
    expect((await problem(res)).code).toBe('token_expired');
  });

  it('403 ability_missing names the ability', async () => {
    const token = await service.mintToken({ abilities: ['pull'] });
    const res = await service.api('/v1/project', { token });
    expect(res.status).toBe(403);
    const body = await problem(res);
    expect(body.code).toBe('ability_missing');
    expect(body.ability).toBe('read');
    expect(body.detail).toContain("'read'");

    const push = await service.api('/v1/push', { token, method: 'POST', json: { keys: [{ key: 'a', source: 'A' }] } });
    expect(push.status).toBe(403);
    expect((await problem(push)).ability).toBe('push');
  });

  it('a token cannot reach another project', async () => {
    const other = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Other', sourceLocale: 'en', targetLocales: ['de'] });
    const token = await service.mintToken({ projectId: other.id });
    const project = (await (await service.api('/v1/project', { token })).json()) as { id: string };
    expect(project.id).toBe(other.id);
    const batch = (await (await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'x', source: 'X' }] } })).json()) as { id: string };
    const res = await service.api(`/v1/batches/${batch.id}`, { token });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe('batch_not_found');
  });
});

describe('/v1/tokens', () => {
  it('mints (secret shown once), lists without secrets, revokes', async () => {
    const minted = await service.api('/v1/tokens', { method: 'POST', json: { name: 'CI' } });
    expect(minted.status).toBe(201);
    const token = (await minted.json()) as { id: string; secret: string; abilities: string[]; prefix: string };
    expect(token.secret).toMatch(/^prl_[0-9A-Za-z]{38}$/);
    expect(token.abilities).toEqual(['push', 'pull', 'read']);
    expect(token.secret.startsWith(token.prefix)).toBe(true);

    expect((await service.api('/v1/batches', { token: token.secret })).status).toBe(200);

    const listed = (await (await service.api('/v1/tokens')).json()) as { items: Record<string, unknown>[] };
    const entry = listed.items.find((t) => t.id === token.id)!;
    expect(entry).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain(token.secret);
    expect(entry.last_used_at).not.toBeNull();

    const revoked = await service.api(`/v1/tokens/${token.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { revoked_at: string | null }).revoked_at).not.toBeNull();
    const after = await service.api('/v1/batches', { token: token.secret });
    expect(after.status).toBe(401);
    expect((await problem(after)).code).toBe('token_revoked');
  });

  it('mints with chosen abilities and expiry; validates the body', async () => {
    const res = await service.api('/v1/tokens', { method: 'POST', json: { name: 'ops', abilities: ['read', 'manage'], expires_in_days: 30 } });
    expect(res.status).toBe(201);
    const token = (await res.json()) as { abilities: string[]; expires_at: string };
    expect(token.abilities).toEqual(['read', 'manage']);
    expect(new Date(token.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const bad = await service.api('/v1/tokens', { method: 'POST', json: { name: 'x', abilities: ['admin'] } });
    expect(bad.status).toBe(422);
    expect((await problem(bad)).code).toBe('validation_failed');
  });

  it('needs the manage ability', async () => {
    const token = await service.mintToken();
    const res = await service.api('/v1/tokens', { token });
    expect(res.status).toBe(403);
    expect((await problem(res)).ability).toBe('manage');
  });

  it('404 token_not_found for an unknown or foreign token id', async () => {
    const res = await service.api('/v1/tokens/tok_nope', { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe('token_not_found');
  });

  it('free plan: 403 plan_forbids_tokens from mint (console session token)', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Hobby', plan: 'free' });
    const project = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Hobby', sourceLocale: 'en', targetLocales: ['de'] });
    await expect(service.runtime.tokens.mint({ projectId: project.id, name: 'api' })).rejects.toMatchObject({ code: 'plan_forbids_tokens' });
    const session = await service.mintToken({ projectId: project.id, kind: 'session', abilities: ['manage', 'read'], expiresAt: new Date(Date.now() + 3_600_000) });
    const res = await service.api('/v1/tokens', { token: session, method: 'POST', json: { name: 'ci' } });
    expect(res.status).toBe(403);
    const body = await problem(res);
    expect(body.code).toBe('plan_forbids_tokens');
    expect(body.detail).toContain('free plan');
  });
});

describe('errors and documents', () => {
  it('unknown routes are problem+json 404', async () => {
    const res = await service.api('/v1/nope');
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe('not_found');
  });

  it('serves the OpenAPI document and the reference page without a token', async () => {
    const doc = await service.api('/v1/openapi.json', { token: null });
    expect(doc.status).toBe(200);
    const json = (await doc.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(json.openapi).toBe('3.1.0');
    for (const path of ['/v1/push', '/v1/pull', '/v1/batches', '/v1/batches/{id}', '/v1/batches/{id}/cancel', '/v1/batches/{id}/retry', '/v1/tokens', '/v1/tokens/{id}', '/v1/project', '/v1/languages', '/v1/languages/{tag}']) {
      expect(json.paths, path).toHaveProperty([path]);
    }
    const page = await service.api('/v1/reference', { token: null });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/v1/push');
    expect(doc.headers.get('x-ratelimit-limit')).toBe('60');
  });
});
