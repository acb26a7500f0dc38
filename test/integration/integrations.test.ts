/**
 * The connector framework through the service: the catalog, connecting (settings and credentials validated by the
 * connector, credentials never returned, PARLANCE_SECRET_KEY required), abilities, PATCH and disable, the public
 * notification address (unknown ids, forged signatures, disabled connections), the schedule, and a place removed
 * in the remote system. The connector under test is the generic HTTP one, against a service on 127.0.0.1.
 */
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionsService } from '../../server/integrations/connections-service.js';
import { signParlance } from '../../server/integrations/connectors/http.js';
import { KIT_ENV, waitForSync, type ConnectionBody, type SyncBody } from '../helpers/connector-kit.js';
import { startHttpServiceMock, type HttpServiceMock } from '../helpers/connector-mocks/http-service.js';
import { artboard, sketchFile, sketchId, text } from '../helpers/connector-mocks/sketch.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

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
    // The specification's 41: the GitHub App and 40 connectors on the framework; 32 two-way, 9 import-only.
    expect(items.map((c) => c.id)).toEqual([
      'github', 'gitlab', 'bitbucket', 'bitbucket_server', 'azure_devops', 'gitea', 'source_code', 'contentful', 'strapi', 'sanity', 'storyblok', 'wordpress', 'directus', 'webflow', 'drupal', 'ghost', 'hygraph', 'prismic', 'datocms', 'payload', 'contentstack', 'builder', 'kontent', 'hubspot', 'shopify', 'zendesk_guide', 'intercom', 'freshdesk', 'google_sheets', 'airtable', 'app_store_connect', 'google_play', 'notion', 'confluence', 'google_docs', 'figma', 'sketch', 'penpot', 'zeplin', 'miro', 'http',
    ]);
    expect(items.filter((c) => c.direction === 'import_only').map((c) => c.id)).toEqual(['source_code', 'notion', 'confluence', 'google_docs', 'figma', 'sketch', 'penpot', 'zeplin', 'miro']);
    expect(items.filter((c) => c.direction === 'two_way')).toHaveLength(32);
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

  it("Parlance's own text is never taken for a person's: not after its record of a write is lost, nor after a write the remote system did not take", async () => {
    const remote = await startHttpServiceMock({ signingSecret: SECRET });
    try {
      const res = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { ...remote.settings, name: 'own-text' }, secrets: remote.secrets } });
      const created = (await res.json()) as ConnectionBody;
      const base = `/v1/integrations/http/${created.id}`;
      const run = async () => {
        const started = (await (await service.api(`${base}/sync`, { method: 'POST' })).json()) as SyncBody;
        const sync = await waitForSync(service, 'http', created.id, started.id);
        expect(sync.status, JSON.stringify(sync.log)).toBe('succeeded');
        if (sync.batch_id) await waitForBatch(service, sync.batch_id);
        return sync;
      };
      const first = await waitForSync(service, 'http', created.id, created.last_sync!.id);
      expect(first.status, JSON.stringify(first.log)).toBe('succeeded');
      await waitForBatch(service, first.batch_id!);
      const firstDe = await remote.translation('cart', 'de');
      expect(firstDe).toBeTruthy();
      // A write whose record was lost (a write that failed part way is the same): the remote values are Parlance's own.
      await service.runtime.db.deleteFrom('integration_values').where('connection_id', '=', created.id).execute();
      const again = await run();
      expect(again.counts.human_edits).toBe(0);
      const humans = async () => ((await (await service.api('/v1/translations?locale=de&state=human&limit=500')).json()) as { items: { path: string }[] }).items.filter((t) => t.path.includes(created.id));
      expect(await humans()).toEqual([]);
      // The service does not take a translation (someone is editing it there) and says so: not recorded as written.
      remote.locked.add('cart/de');
      await remote.setSource('cart', 'Your basket is empty');
      const skipped = await run();
      expect(skipped.counts.written).toBe(1); // fr only
      expect(skipped.log.map((l) => l.message).join('\n')).toContain('the service did not take 1: cart (de)');
      expect(await remote.translation('cart', 'de')).toBe(firstDe);
      // Unlocked, the old German is still there: it is Parlance's old text, not a person's, so the next write replaces it.
      remote.locked.delete('cart/de');
      const after = await run();
      expect(after.counts.human_edits).toBe(0);
      expect(after.counts.written).toBe(1);
      expect(await remote.translation('cart', 'de')).not.toBe(firstDe);
      expect(await humans()).toEqual([]);
      await service.api(base, { method: 'DELETE' });
    } finally {
      await remote.close();
    }
  }, 60_000);

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

/** A `.sketch` document with one artboard holding these text layers. */
const sketchDocument = (texts: readonly { id: string; text: string }[]) =>
  sketchFile([{ id: sketchId('page'), name: 'Checkout', layers: [artboard(sketchId('board'), 'Cart', texts.map((t, i) => text(t.id, t.text, t.text, { x: 0, y: i * 30, width: 120, height: 20 })))] }]);

describe('uploading the file a design connector reads (PUT …/file)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ env: { ...KIT_ENV, MAX_UPLOAD_BYTES: '200000' } });
  }, 60_000);
  afterAll(async () => service?.stop());

  const put = (path: string, body: Uint8Array, name: string) =>
    service.api(`${path}/file?name=${encodeURIComponent(name)}`, { method: 'PUT', body: body as Uint8Array<ArrayBuffer>, headers: { 'content-type': 'application/octet-stream' } });

  it('stores the file, syncs it (trigger upload), and a new upload replaces it; wrong names, empty bodies, large bodies and other connectors are refused', async () => {
    const res = await service.api('/v1/integrations/sketch', { method: 'POST', json: { settings: {}, secrets: {}, sync: false } });
    const connection = (await res.json()) as ConnectionBody;
    expect(res.status, JSON.stringify(connection)).toBe(201);
    const path = `/v1/integrations/sketch/${connection.id}`;
    expect((connection as unknown as { upload: unknown }).upload).toBeNull();

    const first = sketchDocument([{ id: 'T-1', text: 'Your cart is empty' }, { id: 'T-2', text: 'Proceed to checkout' }]);
    const uploaded = await put(path, first, 'Checkout.sketch');
    const body = (await uploaded.json()) as { file: { name: string; size: number; sha256: string }; sync: SyncBody };
    expect(uploaded.status, JSON.stringify(body)).toBe(202);
    expect(body.file).toMatchObject({ name: 'Checkout.sketch', size: first.byteLength, sha256: createHash('sha256').update(first).digest('hex') });
    expect(body.sync.trigger).toBe('upload');
    const sync = await waitForSync(service, 'sketch', connection.id, body.sync.id);
    expect(sync.status, JSON.stringify(sync.log)).toBe('succeeded');
    expect(sync.counts.added).toBe(2);
    expect(sync.log.map((l) => l.message).join('\n')).toContain("the uploaded file 'Checkout.sketch'");
    // The connection shows the file its syncs read (never the content); other connectors' connections have no such field.
    const shown = (await (await service.api(path)).json()) as { upload: unknown };
    expect(shown.upload).toEqual({ name: 'Checkout.sketch', size: first.byteLength, sha256: body.file.sha256, uploaded_at: expect.any(String) });

    // The designer moves on: one text changed, one added. The new file replaces the old one.
    const second = await put(path, sketchDocument([{ id: 'T-1', text: 'Your basket is empty' }, { id: 'T-2', text: 'Proceed to checkout' }, { id: 'T-3', text: 'See you soon' }]), 'Checkout v2.sketch');
    expect(second.status).toBe(202);
    const again = await waitForSync(service, 'sketch', connection.id, ((await second.json()) as { sync: SyncBody }).sync.id);
    expect(again.status, JSON.stringify(again.log)).toBe('succeeded');
    expect(again.counts).toMatchObject({ added: 1, changed: 1, unchanged: 1 });
    expect(await service.runtime.db.selectFrom('integration_uploads').select(['name']).where('connection_id', '=', connection.id).execute()).toEqual([{ name: 'Checkout v2.sketch' }]);

    const wrongName = await put(path, first, 'Checkout.fig');
    expect(wrongName.status).toBe(422);
    expect(((await wrongName.json()) as { detail: string }).detail).toBe("The file name 'Checkout.fig' (query name) does not end in .sketch: Sketch takes a Sketch document (.sketch).");
    const empty = await put(path, new Uint8Array(0), 'Checkout.sketch');
    expect(empty.status).toBe(422);
    const large = await put(path, new Uint8Array(200_001), 'Checkout.sketch');
    expect(large.status).toBe(413);
    expect(((await large.json()) as { detail: string }).detail).toContain('MAX_UPLOAD_BYTES');
    // A connector that reads its remote system through an API takes no file.
    const other = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: 'http://127.0.0.1:9/strings' }, secrets: { signing_secret: SECRET }, sync: false } });
    const otherId = ((await other.json()) as ConnectionBody).id;
    expect(((await (await service.api(`/v1/integrations/http/${otherId}`)).json()) as Record<string, unknown>).upload).toBeUndefined();
    const refused = await put(`/v1/integrations/http/${otherId}`, first, 'Checkout.sketch');
    expect(refused.status).toBe(405);
    expect(((await refused.json()) as { code: string }).code).toBe('upload_not_supported');
    // Nothing of the refused uploads was stored.
    expect(await service.runtime.db.selectFrom('integration_uploads').select(['connection_id', 'name']).execute()).toEqual([{ connection_id: connection.id, name: 'Checkout v2.sketch' }]);
    // Disconnecting removes the file with the connection.
    await service.api(path, { method: 'DELETE' });
    expect(await service.runtime.db.selectFrom('integration_uploads').select('name').execute()).toEqual([]);
  }, 60_000);
  it("a vendor's one-time webhook handshake (Notion's verification token) is kept for the managers, never echoed, and cleared by setting the secret", async () => {
    const res = await service.api('/v1/integrations/notion', { method: 'POST', json: { settings: { pages: ['1c2f0a3b4c5d4e6f8a9b0c1d2e3f4a5b'] }, secrets: { token: 'ntn_0123456789' }, sync: false } });
    const connection = (await res.json()) as ConnectionBody & { webhook_handshake: unknown };
    expect(res.status, JSON.stringify(connection)).toBe(201);
    expect(connection.webhook_handshake).toBeNull();
    const token = 'secret_hJk3Lm9NpQ2rSt5UvWx8Yz1Ab4Cd7Ef0';
    const handshake = await fetch(connection.webhook_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ verification_token: token }) });
    expect(handshake.status).toBe(200);
    expect(await handshake.text()).not.toContain(token);
    const shown = (await (await service.api(`/v1/integrations/notion/${connection.id}`)).json()) as { webhook_handshake: { value: string; received_at: string } | null; last_sync: unknown };
    expect(shown.webhook_handshake).toMatchObject({ value: token, received_at: expect.any(String) });
    // The handshake started no sync, and the column holds it sealed.
    expect(shown.last_sync).toBeNull();
    const stored = await service.runtime.db.selectFrom('integration_connections').select('webhook_handshake_ciphertext').where('id', '=', connection.id).executeTakeFirstOrThrow();
    expect(stored.webhook_handshake_ciphertext).not.toContain(token);
    // The manager confirms it in Notion and sets it as the secret: the handshake is done with.
    const patched = (await (await service.api(`/v1/integrations/notion/${connection.id}`, { method: 'PATCH', json: { webhook_secret: token } })).json()) as { webhook_handshake: unknown };
    expect(patched.webhook_handshake).toBeNull();
    const body = JSON.stringify({ type: 'page.content_updated', entity: { id: '1c2f0a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b', type: 'page' } });
    const signed = await fetch(connection.webhook_url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-notion-signature': `sha256=${createHmac('sha256', token).update(body).digest('hex')}` }, body });
    expect(signed.status).toBe(202);
    expect(((await signed.json()) as { sync: SyncBody | null }).sync?.trigger).toBe('webhook');
    await service.api(`/v1/integrations/notion/${connection.id}`, { method: 'DELETE' });
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
