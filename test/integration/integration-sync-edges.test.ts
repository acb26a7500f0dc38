/**
 * The sync engine's edges, found in review, through the service against a scriptable source for the generic HTTP
 * connector: one running sync per connection, plural keys through a string place, a source changed while its batch
 * ran, disconnecting while a sync reads, an empty listing, a settings PATCH that moves the host, redirects to another
 * host, and a notification body larger than the limit sent in chunks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParlance } from '../../server/integrations/connectors/http.js';
import { KIT_ENV, syncNow, waitForSync, type ConnectionBody, type SyncBody } from '../helpers/connector-kit.js';
import { serveOnLoopback, sendJson, type LoopbackServer } from '../helpers/connector-mocks/loopback.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

const SECRET = 'signing-secret-0123456789';

interface SourceString {
  key: string;
  source: string;
  plurals?: Record<string, string>;
}

/** A service whose source strings, answer delay and answers a test changes as it goes; it records overlapping reads. */
async function scriptedSource() {
  const state = {
    strings: [] as SourceString[],
    remote: new Map<string, string>(),
    delayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
    reads: 0,
    deliveries: 0,
    /** Answers the n-th read (1-based) with other strings, when set. */
    readOverride: undefined as ((read: number) => SourceString[] | undefined) | undefined,
  };
  const server = await serveOnLoopback(async (req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/source') {
      state.reads++;
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      state.inFlight--;
      const strings = state.readOverride?.(state.reads) ?? state.strings;
      const translations = (key: string) => Object.fromEntries(['de', 'fr'].flatMap((l) => (state.remote.has(`${key}/${l}`) ? [[l, state.remote.get(`${key}/${l}`)!]] : [])));
      return sendJson(res, 200, { locales: ['de', 'fr'], strings: strings.map((s) => ({ ...s, translations: translations(s.key) })) });
    }
    if (req.method === 'POST' && url.pathname === '/deliver') {
      for (const t of (JSON.parse(body.toString('utf8')) as { translations: { key: string; locale: string; text: string }[] }).translations) {
        state.remote.set(`${t.key}/${t.locale}`, t.text);
        state.deliveries++;
      }
      return sendJson(res, 200, {});
    }
    return sendJson(res, 404, { error: 'not found' });
  });
  return { server, state };
}

describe('the sync engine at its edges', () => {
  let service: TestService;
  const servers: LoopbackServer[] = [];
  beforeAll(async () => {
    service = await startService({ env: KIT_ENV });
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await service?.stop();
  });

  async function source() {
    const made = await scriptedSource();
    servers.push(made.server);
    return made;
  }

  async function connect(server: LoopbackServer, name: string, options: { sync?: boolean; secrets?: Record<string, string> } = {}): Promise<ConnectionBody> {
    const res = await service.api('/v1/integrations/http', {
      method: 'POST',
      json: { settings: { source_url: `${server.url}/source`, delivery_url: `${server.url}/deliver`, name }, secrets: options.secrets ?? { signing_secret: SECRET }, sync: options.sync ?? true },
    });
    const body = (await res.json()) as ConnectionBody;
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body;
  }

  const activeKeys = (connectionId: string) =>
    service.runtime.db.selectFrom('keys').select(['key', 'path']).where('path', 'like', `integrations/${connectionId}/%`).where('state', '=', 'active').execute();

  it('runs one sync of a connection at a time, however many are due', async () => {
    const { server, state } = await source();
    state.strings.push({ key: 'apple', source: 'Apple' });
    const connection = await connect(server, 'one-at-a-time', { sync: false });
    state.delayMs = 400;
    // Two due at once, one of them a retry: the claim takes one, the other waits for it.
    await service.runtime.db
      .insertInto('integration_syncs')
      .values([
        { id: 'isy_edge_1', connection_id: connection.id, project_id: service.projectId, trigger: 'api' },
        { id: 'isy_edge_2', connection_id: connection.id, project_id: service.projectId, trigger: 'api', attempts: 1 },
      ] as never)
      .execute();
    const first = await waitForSync(service, 'http', connection.id, 'isy_edge_1');
    const second = await waitForSync(service, 'http', connection.id, 'isy_edge_2');
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded']);
    expect(state.maxInFlight).toBe(1);
    state.delayMs = 0;
  }, 60_000);

  it('a plural key through a string place: written as its text, then neither counted as a remote edit nor kept back', async () => {
    const { server, state } = await source();
    state.strings.push({ key: 'items', source: '{count} items', plurals: { one: '{count} item', other: '{count} items' } }, { key: 'hello', source: 'Hello' });
    const connection = await connect(server, 'plurals');
    const first = await waitForSync(service, 'http', connection.id, connection.last_sync!.id);
    expect(first.status, JSON.stringify(first.log)).toBe('succeeded');
    expect(state.remote.get('items/de')).toBeTruthy();
    const again = await syncNow(service, 'http', connection.id);
    expect(again.counts).toMatchObject({ human_edits: 0, refused_edits: 0, kept_remote: 0 });
    const before = state.remote.get('items/de');
    state.strings[0] = { key: 'items', source: '{count} things', plurals: { one: '{count} thing', other: '{count} things' } };
    const changed = await syncNow(service, 'http', connection.id);
    expect(changed.status).toBe('succeeded');
    expect(changed.counts.kept_remote).toBe(0);
    expect(state.remote.get('items/de')).not.toBe(before);
  }, 60_000);

  it('a source changed remotely while its batch ran: the old text is not written over the new one', async () => {
    const { server, state } = await source();
    state.strings.push({ key: 'fruit', source: 'Apple' });
    // The first read (before the push) says Apple; every later read says Pear.
    state.readOverride = (read) => (read === 1 ? [{ key: 'fruit', source: 'Apple' }] : [{ key: 'fruit', source: 'Pear' }]);
    const connection = await connect(server, 'stale');
    const sync = await waitForSync(service, 'http', connection.id, connection.last_sync!.id);
    expect(sync.status).toBe('succeeded');
    expect(state.remote.has('fruit/de')).toBe(false);
    expect(sync.log.map((l) => l.message).join('\n')).toContain('their source changed in the remote system');
    // The next sync translates Pear and writes it.
    const next = await syncNow(service, 'http', connection.id);
    if (next.batch_id) await waitForBatch(service, next.batch_id);
    expect(next.status).toBe('succeeded');
    expect(state.remote.get('fruit/de')).toBeTruthy();
  }, 60_000);

  it('disconnecting while a sync reads: nothing is pushed or written, and the keys of its places are removed', async () => {
    const { server, state } = await source();
    state.strings.push({ key: 'kept', source: 'Orange' });
    const connection = await connect(server, 'leaving');
    expect((await waitForSync(service, 'http', connection.id, connection.last_sync!.id)).status).toBe('succeeded');
    expect(await activeKeys(connection.id)).toHaveLength(1);
    state.strings.push({ key: 'late', source: 'Banana' });
    state.delayMs = 1500;
    const deliveries = state.deliveries;
    await service.api(`/v1/integrations/http/${connection.id}/sync`, { method: 'POST' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await service.api(`/v1/integrations/http/${connection.id}`, { method: 'DELETE' })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await activeKeys(connection.id)).toEqual([]);
    expect(state.deliveries).toBe(deliveries);
    state.delayMs = 0;
  }, 60_000);

  it('an empty listing from a connection that holds keys fails the sync and removes nothing', async () => {
    const { server, state } = await source();
    state.strings.push({ key: 'a', source: 'Apple' }, { key: 'b', source: 'Berry' });
    const connection = await connect(server, 'empty');
    expect((await waitForSync(service, 'http', connection.id, connection.last_sync!.id)).status).toBe('succeeded');
    state.strings.length = 0;
    const sync = await syncNow(service, 'http', connection.id);
    expect(sync.status).toBe('failed');
    expect(sync.error).toContain('listed no strings at all');
    expect(await activeKeys(connection.id)).toHaveLength(2);
  }, 60_000);

  it('moving an address setting to another host needs the credentials in the same PATCH; a null removes a setting', async () => {
    const { server } = await source();
    const other = await source();
    const connection = await connect(server, 'moving', { sync: false });
    // Removing an address sends nothing to a new host: no credentials needed.
    const removed = await service.api(`/v1/integrations/http/${connection.id}`, { method: 'PATCH', json: { settings: { delivery_url: null } } });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as ConnectionBody).settings.delivery_url).toBeUndefined();
    const moved = await service.api(`/v1/integrations/http/${connection.id}`, { method: 'PATCH', json: { settings: { source_url: `${other.server.url}/source` } } });
    expect(moved.status).toBe(422);
    const problem = (await moved.json()) as { code: string; detail: string };
    expect(problem.code).toBe('secrets_required');
    expect(problem.detail).toContain('settings.source_url');
    expect(other.state.reads).toBe(0);
    const withSecrets = await service.api(`/v1/integrations/http/${connection.id}`, { method: 'PATCH', json: { settings: { source_url: `${other.server.url}/source` }, secrets: { signing_secret: SECRET } } });
    const body = (await withSecrets.json()) as ConnectionBody;
    expect(withSecrets.status, JSON.stringify(body)).toBe(200);
    expect(body.settings.source_url).toBe(`${other.server.url}/source`);
    // Adding an address is sending credentials to a host too.
    const added = await service.api(`/v1/integrations/http/${connection.id}`, { method: 'PATCH', json: { settings: { delivery_url: `${server.url}/deliver` } } });
    expect(added.status).toBe(422);
  }, 60_000);

  it('a redirect to another host is refused, and the credentials never reach it', async () => {
    const seen: string[] = [];
    const elsewhere = await serveOnLoopback((req, _body, res) => {
      seen.push(String(req.headers.authorization));
      sendJson(res, 200, { strings: [] });
    });
    servers.push(elsewhere);
    const redirecting = await serveOnLoopback((_req, _body, res) => {
      // Another origin: the same address under another name.
      res.writeHead(307, { location: elsewhere.url.replace('127.0.0.1', 'localhost') + '/source' });
      res.end();
    });
    servers.push(redirecting);
    const connection = await connect(redirecting, 'redirect', { secrets: { signing_secret: SECRET, authorization: 'Bearer not-for-others' } });
    const sync = await waitForSync(service, 'http', connection.id, connection.last_sync!.id);
    expect(sync.status).toBe('failed');
    expect(sync.error).toContain('redirected to another host');
    expect(seen).toEqual([]);
  }, 60_000);

  it('a notification larger than 1 MiB sent in chunks is refused with 413 before it is read whole', async () => {
    const { server } = await source();
    const connection = await connect(server, 'big-hook', { sync: false });
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 64 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(connection.webhook_url, { method: 'POST', body, duplex: 'half', headers: { 'x-parlance-signature': signParlance('x', 'y') } } as RequestInit & { duplex: 'half' }).catch((error: unknown) => error);
    // The service answers 413 as soon as the limit is passed; the client may see the answer or a reset stream.
    if (res instanceof Response) expect(res.status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    const syncs = (await (await service.api(`/v1/integrations/http/${connection.id}/syncs`)).json()) as { items: SyncBody[] };
    expect(syncs.items).toEqual([]);
  }, 60_000);
});
