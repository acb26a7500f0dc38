/**
 * The connector framework through the service: the catalog, connecting (settings and credentials validated by the
 * connector, credentials never returned, PARLANCE_SECRET_KEY required), abilities, PATCH and disable, the public
 * notification address (unknown ids, forged signatures, disabled connections), the schedule, and a place removed
 * in the remote system. The connector under test is the generic HTTP one, against a service on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionsService } from '../../server/integrations/connections-service.js';
import { signParlance } from '../../server/integrations/connectors/http.js';
import { KIT_ENV, waitForSync, type ConnectionBody, type SyncBody } from '../helpers/connector-kit.js';
import { startHttpServiceMock, type HttpServiceMock } from '../helpers/connector-mocks/http-service.js';
import { startService, type TestService } from '../helpers/service.js';

const SECRET = 'signing-secret-0123456789';

describe('the connector framework', () => {
  let service: TestService;
  let mock: HttpServiceMock;
  beforeAll(async () => {
    service = await startService({ env: KIT_ENV });
    mock = await startHttpServiceMock({ signingSecret: SECRET });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await service?.stop();
  });

  it('lists the catalog: the GitHub App first, every connector with its category and direction', async () => {
    const res = await service.api('/v1/integrations/catalog');
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: { id: string; category: string; direction: string; endpoint: string }[] };
    expect(items[0]).toMatchObject({ id: 'github', category: 'code_host', direction: 'two_way', endpoint: '/v1/integrations/github' });
    expect(items.find((c) => c.id === 'http')).toMatchObject({ category: 'automation', direction: 'two_way', endpoint: '/v1/integrations/http' });
    for (const item of items) expect(['two_way', 'import_only']).toContain(item.direction);
    expect(new Set(items.map((c) => c.id)).size).toBe(items.length);
    // The GitHub App and the 27 connectors on the framework: 26 two-way, Figma import-only.
    expect(items.map((c) => c.id)).toEqual(['github', 'gitlab', 'bitbucket', 'azure_devops', 'gitea', 'contentful', 'strapi', 'sanity', 'storyblok', 'wordpress', 'directus', 'webflow', 'drupal', 'ghost', 'hygraph', 'prismic', 'datocms', 'payload', 'contentstack', 'builder', 'kontent', 'hubspot', 'shopify', 'zendesk_guide', 'intercom', 'freshdesk', 'figma', 'http']);
    expect(items.filter((c) => c.direction === 'import_only').map((c) => c.id)).toEqual(['figma']);
    // Each connector's settings and credentials as JSON Schemas, described field by field (a console can render a form).
    const http = items.find((c) => c.id === 'http') as unknown as { settings_schema: { required: string[]; properties: Record<string, { description?: string }> }; secrets_schema: { required: string[] } };
    expect(http.settings_schema.required).toEqual(['source_url']);
    expect(http.settings_schema.properties.source_url?.description).toContain('GETs the source strings');
    expect(http.secrets_schema.required).toEqual(['signing_secret']);
    expect(Object.fromEntries(items.map((c) => [c.id, c.category]))).toMatchObject({ gitlab: 'code_host', contentful: 'content', figma: 'design', http: 'automation' });
  });

  it('refuses unknown connectors, invalid settings (naming the field) and tokens without manage', async () => {
    const unknown = await service.api('/v1/integrations/nope', { method: 'POST', json: { settings: {}, secrets: {} } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toContain("No connector 'nope'");
    const invalid = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: 'not a url' }, secrets: { signing_secret: 'short' } } });
    expect(invalid.status).toBe(422);
    const detail = ((await invalid.json()) as { detail: string }).detail;
    expect(detail).toContain('settings.source_url');
    const reader = await service.mintToken({ abilities: ['read', 'pull', 'push'] });
    const forbidden = await service.api('/v1/integrations/http', { method: 'POST', token: reader, json: { settings: mock.settings, secrets: mock.secrets } });
    expect(forbidden.status).toBe(403);
  });

  it('every route of a connection needs manage: a token without it gets 403 and changes nothing', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { name: 'Guarded', settings: mock.settings, secrets: mock.secrets, sync: false } });
    const created = (await res.json()) as ConnectionBody;
    expect(res.status).toBe(201);
    const deploy = await service.mintToken({ abilities: ['read', 'pull', 'push', 'write'] });
    const base = `/v1/integrations/http/${created.id}`;
    const attempts: [string, RequestInit & { json?: unknown }][] = [
      ['/v1/integrations/http', {}],
      [base, {}],
      [base, { method: 'PATCH', json: { name: 'Taken over', settings: { delivery_url: 'https://example.com/steal' } } }],
      [`${base}/sync`, { method: 'POST' }],
      [`${base}/syncs`, {}],
      [`${base}/syncs/isy_x`, {}],
      [base, { method: 'DELETE' }],
    ];
    for (const [path, init] of attempts) {
      const refused = await service.api(path, { ...init, token: deploy });
      expect(refused.status, `${init.method ?? 'GET'} ${path}`).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('ability_missing');
    }
    const shown = (await (await service.api(base)).json()) as ConnectionBody;
    expect(shown).toMatchObject({ name: 'Guarded', settings: mock.settings, last_sync: null });
    await service.api(base, { method: 'DELETE' });
  });

  it('connects without returning credentials, shows the webhook secret once, and PATCH merges settings', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { name: 'Workflow', settings: mock.settings, secrets: mock.secrets, sync: false } });
    const created = (await res.json()) as ConnectionBody;
    expect(res.status).toBe(201);
    expect(JSON.stringify(created)).not.toContain(SECRET);
    expect(created.webhook_secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(created.status).toBe('never_synced');
    expect(created.last_sync).toBeNull();
    const shown = (await (await service.api(`/v1/integrations/http/${created.id}`)).json()) as ConnectionBody;
    expect(shown.webhook_secret).toBeUndefined();
    expect(JSON.stringify(shown)).not.toContain(SECRET);
    // At rest: the credentials and the webhook secret are ciphertext, bound to their row, and open with the key.
    const stored = async () => service.runtime.db.selectFrom('integration_connections').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    const row = await stored();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain(created.webhook_secret);
    // Not merely encoded: no part of the sealed value decodes to the secret either.
    for (const sealed of [row.secrets_ciphertext, row.webhook_secret_ciphertext]) {
      expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const decoded = sealed.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1')).join('');
      expect(decoded).not.toContain(SECRET);
      expect(decoded).not.toContain(created.webhook_secret);
    }
    // Opened the way the sync engine opens them, with the operator's key.
    const sealed = createConnectionsService({ db: service.runtime.db, secretKey: service.config.secretKey, publicUrl: () => service.url, outbound: service.runtime.outbound });
    const opened = await sealed.open(created.id);
    expect(opened?.secrets).toEqual(mock.secrets);
    expect(opened?.webhookSecret).toBe(created.webhook_secret);
    // Rotated credentials are sealed the same way, under a new ciphertext.
    const rotated = 'rotated-signing-secret-9876543210';
    expect((await service.api(`/v1/integrations/http/${created.id}`, { method: 'PATCH', json: { secrets: { signing_secret: rotated } } })).status).toBe(200);
    const after = await stored();
    expect(JSON.stringify(after)).not.toContain(rotated);
    expect(after.secrets_ciphertext).not.toBe(row.secrets_ciphertext);
    expect((await sealed.open(created.id))?.secrets).toEqual({ signing_secret: rotated });
    await service.api(`/v1/integrations/http/${created.id}`, { method: 'PATCH', json: { secrets: mock.secrets } });
    const patched = await service.api(`/v1/integrations/http/${created.id}`, { method: 'PATCH', json: { settings: { name: 'app' }, schedule_minutes: 30 } });
    const body = (await patched.json()) as ConnectionBody & { schedule_minutes: number; next_scheduled_at: string };
    expect(patched.status).toBe(200);
    expect(body.settings).toMatchObject({ name: 'app', source_url: mock.settings.source_url });
    expect(body.schedule_minutes).toBe(30);
    expect(Date.parse(body.next_scheduled_at)).toBeGreaterThan(Date.now() + 29 * 60_000);
    const badPatch = await service.api(`/v1/integrations/http/${created.id}`, { method: 'PATCH', json: { settings: { delivery_url: 'ftp:/x' } } });
    expect(badPatch.status).toBe(422);
    // Listed under its connector only.
    const listed = (await (await service.api('/v1/integrations/http')).json()) as { items: ConnectionBody[] };
    expect(listed.items.map((c) => c.id)).toContain(created.id);
    await service.api(`/v1/integrations/http/${created.id}`, { method: 'DELETE' });
  });

  it('the notification address: unknown ids and forged signatures do nothing; a disabled connection answers 404', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: mock.settings, secrets: mock.secrets, sync: false } });
    const created = (await res.json()) as ConnectionBody;
    const body = '{"event":"strings.changed"}';
    const unknown = await fetch(created.webhook_url.replace(created.id, 'con_unknown'), { method: 'POST', body, headers: { 'x-parlance-signature': signParlance(created.webhook_secret!, body) } });
    expect(unknown.status).toBe(404);
    const forged = await fetch(created.webhook_url, { method: 'POST', body, headers: { 'x-parlance-signature': signParlance('guess', body) } });
    expect(forged.status).toBe(401);
    const syncs = (await (await service.api(`/v1/integrations/http/${created.id}/syncs`)).json()) as { items: SyncBody[] };
    expect(syncs.items).toEqual([]);
    await service.api(`/v1/integrations/http/${created.id}`, { method: 'PATCH', json: { enabled: false } });
    const disabled = await fetch(created.webhook_url, { method: 'POST', body, headers: { 'x-parlance-signature': signParlance(created.webhook_secret!, body) } });
    expect(disabled.status).toBe(404);
    const syncNow = await service.api(`/v1/integrations/http/${created.id}/sync`, { method: 'POST' });
    expect(syncNow.status).toBe(409);
    await service.api(`/v1/integrations/http/${created.id}`, { method: 'DELETE' });
  });

  it('runs a sync when its scheduled time comes', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { ...mock.settings, name: 'scheduled' }, secrets: mock.secrets, schedule_minutes: 60, sync: false } });
    const created = (await res.json()) as ConnectionBody;
    // An hour is long for a test: the time is moved, as the clock would move it.
    await service.runtime.db.updateTable('integration_connections').set({ next_scheduled_at: new Date(Date.now() - 1000) }).where('id', '=', created.id).execute();
    const deadline = Date.now() + 20_000;
    let shown: ConnectionBody;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      shown = (await (await service.api(`/v1/integrations/http/${created.id}`)).json()) as ConnectionBody;
    } while (!shown.last_sync && Date.now() < deadline);
    expect(shown.last_sync?.trigger).toBe('schedule');
    const sync = await waitForSync(service, 'http', created.id, shown.last_sync!.id);
    expect(sync.status, JSON.stringify(sync.log)).toBe('succeeded');
    const next = (await (await service.api(`/v1/integrations/http/${created.id}`)).json()) as { next_scheduled_at: string };
    expect(Date.parse(next.next_scheduled_at)).toBeGreaterThan(Date.now() + 59 * 60_000);
    await service.api(`/v1/integrations/http/${created.id}`, { method: 'DELETE' });
  });

  it('a place renamed in the remote system: its old keys are removed, nothing is duplicated', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { ...mock.settings, name: 'before' }, secrets: mock.secrets } });
    const created = (await res.json()) as ConnectionBody;
    expect((await waitForSync(service, 'http', created.id, created.last_sync!.id)).status).toBe('succeeded');
    await service.api(`/v1/integrations/http/${created.id}`, { method: 'PATCH', json: { settings: { name: 'after' } } });
    const run = await service.api(`/v1/integrations/http/${created.id}/sync`, { method: 'POST' });
    const sync = await waitForSync(service, 'http', created.id, ((await run.json()) as SyncBody).id);
    expect(sync.status).toBe('succeeded');
    expect(sync.counts.removed).toBe(4);
    expect(sync.counts.added).toBe(4);
    const keys = await service.runtime.db.selectFrom('keys').select(['path', 'state']).where('path', 'like', `integrations/${created.id}/%`).execute();
    expect(keys.filter((k) => k.state === 'active').every((k) => k.path.endsWith('/after'))).toBe(true);
    expect(keys.filter((k) => k.path.endsWith('/before')).every((k) => k.state === 'removed')).toBe(true);
  });
});

describe('with private addresses not allowed (the default)', () => {
  let service: TestService;
  let mock: HttpServiceMock;
  beforeAll(async () => {
    service = await startService({ env: { ...KIT_ENV, OUTBOUND_ALLOW_PRIVATE_ADDRESSES: 'false' } });
    mock = await startHttpServiceMock({ signingSecret: SECRET });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await service?.stop();
  });

  it('a connection to a loopback address is refused when saved, naming the field, the range and the setting, and reaches nothing', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: mock.settings, secrets: mock.secrets } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; detail: string };
    expect(body.code).toBe('address_refused');
    expect(body.detail).toContain('settings.source_url');
    expect(body.detail).toContain('127.0.0.1 is in the loopback range');
    expect(body.detail).toContain('OUTBOUND_ALLOW_PRIVATE_ADDRESSES');
    expect(mock.requests).toEqual([]);
  });
});

describe('without PARLANCE_SECRET_KEY', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  }, 60_000);
  afterAll(async () => service?.stop());

  it('connecting answers 503 naming the setting', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: 'http://127.0.0.1:9/x' }, secrets: { signing_secret: 'signing-secret-0123456789' } } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toContain('PARLANCE_SECRET_KEY');
  });
});
