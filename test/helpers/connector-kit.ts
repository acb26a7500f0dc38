/**
 * The acceptance scenario every connector passes, through the service's real entry points (the /v1 integration routes,
 * the public webhook route, the job that syncs) against a wire-level mock of the vendor's API:
 * connect and first sync (strings imported, batch translated, written back), one string changed remotely (only that
 * row re-translated and written back), a person's edit in the remote system (imported as human, never overwritten),
 * the remote system down then back (the sync completes, nothing lost or duplicated), refused credentials (a clear
 * error on the connection, not retried), and disconnect.
 *
 * A vendor's test supplies a `RemoteFixture`: its mock, seeded with the strings of SEED, and a handful of operations
 * in terms of those strings' ids, so the scenario never needs to know the vendor's shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, waitForBatch, type TestService } from './service.js';

/** The strings every fixture seeds, by id; the vendor mock holds them in its own shape (entries, layers, files). */
export const SEED: readonly { id: string; source: string }[] = [
  { id: 'welcome', source: 'Welcome to our store' },
  { id: 'cart', source: 'Your cart is empty' },
  { id: 'checkout', source: 'Proceed to checkout' },
  { id: 'farewell', source: 'See you soon' },
];

/** The test project's target locales (startService); two-way remote systems hold de and fr only. */
export const PROJECT_LOCALES = ['de', 'fr', 'ja'] as const;
export const REMOTE_LOCALES = ['de', 'fr'] as const;

export interface RemoteFixture {
  /** The connector's id in the catalog. */
  connector: string;
  /** What POST /v1/integrations/{connector} takes to connect to the mock. */
  settings: Record<string, unknown>;
  secrets: Record<string, unknown>;
  /** Credentials the mock refuses (401/403 with the vendor's error body). */
  badSecrets: Record<string, unknown>;
  /** Changes a string's source text in the remote system, as a person editing there would. */
  setSource(id: string, text: string): Promise<void>;
  /** What the remote system holds for a string in a locale now; undefined when it holds nothing. */
  translation(id: string, locale: string): Promise<string | undefined>;
  /** A person edits a translation in the remote system. Two-way connectors only. */
  editTranslation?(id: string, locale: string, text: string): Promise<void>;
  /**
   * Code hosts: a person merges Parlance's merge/pull request, then edits a translation on the base branch (the
   * connector must import that edit as human, as the GitHub App imports hand edits pushed to the base).
   */
  mergeThenEditBase?(id: string, locale: string, text: string): Promise<void>;
  /** How many source strings the remote system holds (to check that nothing was duplicated). */
  sourceCount(): Promise<number>;
  /**
   * The change notification the vendor sends after `setSource`, signed with `secret` as the vendor signs it.
   * Undefined for vendors without notifications.
   */
  /** The vendor's notification of the last change, signed with `secret`; `url` is where it goes (HubSpot signs it). */
  webhook?(secret: string, url: string): { headers: Record<string, string>; body: string };
  /** The vendor's API stops answering (its server closes) and comes back on the same address. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ConnectionBody {
  id: string;
  connector: string;
  name: string;
  settings: Record<string, unknown>;
  enabled: boolean;
  status: 'never_synced' | 'syncing' | 'ok' | 'retrying' | 'error' | 'disabled';
  last_error: string | null;
  last_sync: SyncBody | null;
  webhook_url: string;
  webhook_secret?: string;
}

export interface SyncBody {
  id: string;
  status: 'queued' | 'running' | 'waiting_batch' | 'retrying' | 'succeeded' | 'failed' | 'cancelled';
  trigger: string;
  batch_id: string | null;
  attempts: number;
  error: string | null;
  counts: { strings: number; added: number; changed: number; removed: number; unchanged: number; human_edits: number; refused_edits: number; written: number; kept_remote: number };
  log: { at: string; message: string }[];
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** Polls a sync until it is final (succeeded, failed or cancelled). */
export async function waitForSync(service: TestService, connector: string, connectionId: string, syncId: string, timeoutMs = 60_000): Promise<SyncBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await service.api(`/v1/integrations/${connector}/${connectionId}/syncs/${syncId}`);
    const body = (await res.json()) as SyncBody;
    if (!res.ok) throw new Error(`sync ${syncId}: ${res.status} ${JSON.stringify(body)}`);
    if (FINAL.has(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`sync ${syncId} still ${body.status} after ${timeoutMs} ms: ${JSON.stringify(body.log.slice(-5))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts a sync on demand and waits for it to end. */
export async function syncNow(service: TestService, connector: string, connectionId: string): Promise<SyncBody> {
  const res = await service.api(`/v1/integrations/${connector}/${connectionId}/sync`, { method: 'POST' });
  const body = (await res.json()) as SyncBody;
  expect(res.status, JSON.stringify(body)).toBe(202);
  return waitForSync(service, connector, connectionId, body.id);
}

/** Environment for a service whose syncs retry quickly (the scenario takes the remote system down on purpose). */
export const KIT_ENV = { INTEGRATION_RETRY_DELAYS: '300ms,600ms,1s,1500ms,2s,3s', INTEGRATION_POLL_MS: '100', INTEGRATION_HTTP_RETRIES: '0', INTEGRATION_HTTP_TIMEOUT_MS: '5000', RATE_LIMIT_PER_MINUTE: '100000', INTEGRATION_ALLOW_PRIVATE_ADDRESSES: 'true', PARLANCE_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };

/** The whole acceptance scenario for one connector, as one `describe` of ordered steps. */
export function connectorAcceptance(title: string, makeFixture: () => Promise<RemoteFixture>, options: { direction: 'two_way' | 'import_only'; codeHost?: boolean }): void {
  describe(title, () => {
    let service: TestService;
    let fixture: RemoteFixture;
    let connection: ConnectionBody;
    const translated = new Map<string, string>();
    const twoWay = options.direction === 'two_way';

    beforeAll(async () => {
      service = await startService({ env: KIT_ENV });
      fixture = await makeFixture();
    }, 60_000);
    afterAll(async () => {
      await fixture?.close();
      await service?.stop();
    });

    it('connects, and the first sync imports the strings, translates them and writes them back', async () => {
      const res = await service.api(`/v1/integrations/${fixture.connector}`, { method: 'POST', json: { settings: fixture.settings, secrets: fixture.secrets } });
      const body = (await res.json()) as ConnectionBody;
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(JSON.stringify(body)).not.toContain(JSON.stringify(Object.values(fixture.secrets)[0]));
      connection = body;
      // Connecting starts the first sync.
      expect(body.last_sync?.trigger).toBe('connect');
      const first = await waitForSync(service, fixture.connector, connection.id, body.last_sync!.id);
      expect(first.status, JSON.stringify(first)).toBe('succeeded');
      expect(first.counts.strings).toBeGreaterThanOrEqual(SEED.length);
      expect(first.batch_id).not.toBeNull();
      const batch = await waitForBatch(service, first.batch_id!);
      expect(batch.status).toBe('completed');
      expect(await fixture.sourceCount()).toBe(SEED.length);
      for (const { id } of SEED) {
        for (const locale of ['de', 'fr']) {
          const value = await fixture.translation(id, locale);
          if (twoWay) {
            expect(value, `${id} in ${locale}`).toBeTruthy();
            translated.set(`${id}/${locale}`, value!);
          } else {
            expect(value).toBeUndefined();
          }
        }
      }
      const shown = (await (await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`)).json()) as ConnectionBody;
      expect(shown.status).toBe('ok');
      expect(shown.last_sync?.id).toBe(first.id);
    }, 120_000);

    it('a string changed remotely: only its rows are translated again and written back', async () => {
      await fixture.setSource('cart', 'Your basket is empty');
      let sync: SyncBody;
      if (fixture.webhook) {
        // A forged notification does nothing; the vendor's signed one starts a sync.
        const forged = fixture.webhook('not-the-secret', connection.webhook_url);
        const refused = await fetch(connection.webhook_url, { method: 'POST', headers: forged.headers, body: forged.body });
        expect(refused.status).toBe(401);
        const signed = fixture.webhook(connection.webhook_secret!, connection.webhook_url);
        const accepted = await fetch(connection.webhook_url, { method: 'POST', headers: signed.headers, body: signed.body });
        let syncId: string;
        if (accepted.status === 204) {
          // A vendor that wants an empty acknowledgement (Airtable): the sync is the connection's last one.
          const shown = (await (await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`)).json()) as ConnectionBody;
          expect(shown.last_sync?.trigger).toBe('webhook');
          syncId = shown.last_sync!.id;
        } else {
          const hook = (await accepted.json()) as { sync: SyncBody | null };
          expect(accepted.status, JSON.stringify(hook)).toBe(202);
          expect(hook.sync).not.toBeNull();
          syncId = hook.sync!.id;
        }
        sync = await waitForSync(service, fixture.connector, connection.id, syncId);
      } else {
        sync = await syncNow(service, fixture.connector, connection.id);
      }
      expect(sync.status, JSON.stringify(sync)).toBe('succeeded');
      expect(sync.counts.changed).toBe(1);
      const batch = await waitForBatch(service, sync.batch_id!);
      expect(new Set(batch.row_outcomes.items.map((row) => row.key)).size).toBe(1);
      // Two-way: only the languages the remote system holds; import-only: every target locale of the project.
      expect(batch.rows.total).toBe(twoWay ? REMOTE_LOCALES.length : PROJECT_LOCALES.length);
      // One translation (or one file) per language the remote system holds, for the one changed string; nothing else.
      expect(sync.counts.written).toBe(twoWay ? REMOTE_LOCALES.length : 0);
      if (twoWay) {
        for (const locale of REMOTE_LOCALES) {
          const now = await fixture.translation('cart', locale);
          expect(now, `cart in ${locale}`).toBeTruthy();
          expect(now, `cart in ${locale}`).not.toBe(translated.get(`cart/${locale}`));
          for (const id of ['welcome', 'checkout', 'farewell']) expect(await fixture.translation(id, locale), `${id} in ${locale}`).toBe(translated.get(`${id}/${locale}`));
          translated.set(`cart/${locale}`, now!);
        }
      }
    }, 120_000);

    if (twoWay) {
      it("a person's edit in the remote system is imported as a human translation and never overwritten", async () => {
        await fixture.editTranslation!('checkout', 'de', 'Zur Kasse, bitte');
        const sync = await syncNow(service, fixture.connector, connection.id);
        expect(sync.status, JSON.stringify(sync)).toBe('succeeded');
        expect(sync.counts.human_edits).toBe(1);
        const res = await service.api('/v1/translations?locale=de&state=human&limit=500');
        const humans = ((await res.json()) as { items: { text: string }[] }).items;
        expect(humans.map((t) => t.text)).toContain('Zur Kasse, bitte');
        // Another sync, and a translate-missing run, leave the person's words in place.
        await service.api('/v1/translate-missing', { method: 'POST', json: {} });
        const again = await syncNow(service, fixture.connector, connection.id);
        expect(again.status).toBe('succeeded');
        expect(await fixture.translation('checkout', 'de')).toBe('Zur Kasse, bitte');
      }, 120_000);
    }

    if (options.codeHost) {
      it("after the merge request is merged, a person's edit on the base branch is imported as human and not overwritten", async () => {
        await fixture.mergeThenEditBase!('welcome', 'de', 'Herzlich willkommen in unserem Laden');
        const sync = await syncNow(service, fixture.connector, connection.id);
        expect(sync.status, JSON.stringify(sync)).toBe('succeeded');
        expect(sync.counts.human_edits).toBe(1);
        const res = await service.api('/v1/translations?locale=de&state=human&limit=500');
        const humans = ((await res.json()) as { items: { key: string; text: string }[] }).items;
        expect(humans).toContainEqual(expect.objectContaining({ key: 'welcome', text: 'Herzlich willkommen in unserem Laden' }));
        expect(await fixture.translation('welcome', 'de')).toBe('Herzlich willkommen in unserem Laden');
        // The next sync finds nothing new to import, and leaves the person's words in place.
        const again = await syncNow(service, fixture.connector, connection.id);
        expect(again.status, JSON.stringify(again)).toBe('succeeded');
        expect(again.counts.human_edits).toBe(0);
        expect(await fixture.translation('welcome', 'de')).toBe('Herzlich willkommen in unserem Laden');
        expect(await fixture.translation('checkout', 'de')).toBe('Zur Kasse, bitte');
      }, 120_000);
    }

    it('the remote system down, then back: the sync waits, retries and completes, with nothing lost or duplicated', async () => {
      await fixture.setSource('farewell', 'See you very soon');
      await fixture.stop();
      const res = await service.api(`/v1/integrations/${fixture.connector}/${connection.id}/sync`, { method: 'POST' });
      const started = (await res.json()) as SyncBody;
      expect(res.status).toBe(202);
      // The first attempt fails while the server is away; the connection says why and that it will retry.
      const deadline = Date.now() + 30_000;
      let shown: ConnectionBody;
      do {
        await new Promise((resolve) => setTimeout(resolve, 100));
        shown = (await (await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`)).json()) as ConnectionBody;
      } while (shown.status !== 'retrying' && Date.now() < deadline);
      expect(shown.status).toBe('retrying');
      expect(shown.last_error).toBeTruthy();
      await fixture.start();
      const sync = await waitForSync(service, fixture.connector, connection.id, started.id);
      expect(sync.status, JSON.stringify(sync)).toBe('succeeded');
      expect(sync.attempts).toBeGreaterThan(1);
      expect(sync.counts.changed).toBe(1);
      expect(await fixture.sourceCount()).toBe(SEED.length);
      if (twoWay) {
        const now = await fixture.translation('farewell', 'fr');
        expect(now).toBeTruthy();
        expect(now).not.toBe(translated.get('farewell/fr'));
      }
      const keys = (await (await service.api('/v1/keys?locale=de&limit=500')).json()) as { items: { key: string; state: string }[] };
      const active = keys.items.filter((k) => k.state !== 'removed');
      expect(active.length).toBe(new Set(active.map((k) => k.key)).size);
    }, 120_000);

    it('refused credentials: a clear error on the connection, failed at once, and fine again with good ones', async () => {
      const patched = await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`, { method: 'PATCH', json: { secrets: fixture.badSecrets } });
      expect(patched.status).toBe(200);
      const sync = await syncNow(service, fixture.connector, connection.id);
      expect(sync.status).toBe('failed');
      expect(sync.attempts).toBe(1);
      expect(sync.error).toMatch(/credential|token|auth|key|permission/i);
      const shown = (await (await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`)).json()) as ConnectionBody;
      expect(shown.status).toBe('error');
      expect(shown.last_error).toBe(sync.error);
      await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`, { method: 'PATCH', json: { secrets: fixture.secrets } });
      const again = await syncNow(service, fixture.connector, connection.id);
      expect(again.status, JSON.stringify(again)).toBe('succeeded');
    }, 120_000);

    it('disconnects: the connection is gone, its webhook address answers 404, the remote system is left as it was', async () => {
      const before = await Promise.all(SEED.map(({ id }) => fixture.translation(id, 'de')));
      const res = await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`, { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect((await service.api(`/v1/integrations/${fixture.connector}/${connection.id}`)).status).toBe(404);
      expect((await fetch(connection.webhook_url, { method: 'POST', body: '{}' })).status).toBe(404);
      expect(await Promise.all(SEED.map(({ id }) => fixture.translation(id, 'de')))).toEqual(before);
    }, 60_000);
  });
}
