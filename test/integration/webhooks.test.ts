/**
 * Webhooks end to end: each of the 12 event kinds caused by its real operation, received on a local HTTP receiver,
 * verified with the `standardwebhooks` package and validated against the catalog's JSON Schema; then the faults:
 * retries, 410, a slow receiver, a receiver down across a service restart, tampering.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.js';
import { createRuntime } from '../../server/runtime.js';
import { verifyWebhook } from '../../server/webhooks/signing.js';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

interface Receiver {
  url: string;
  received: Received[];
  /** Status codes answered in turn; 200 once they run out. */
  statuses: number[];
  delayMs: number;
  close(): Promise<void>;
}

async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], statuses: [], delayMs: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = receiver.statuses.shift() ?? 200;
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : `scripted ${status}`), receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_DELAYS: '150ms,150ms,150ms',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_DISABLE_AFTER_HOURS: '0',
  RATE_LIMIT_PER_MINUTE: '100000',
};

let service: TestService;
let mock: MockOpenAI;
let receiver: Receiver;
let secret: string;
let webhookId: string;
let catalog: { items: { type: string; schema: object; example: unknown }[] };
const ajv = new Ajv2020({ strict: false });
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));

beforeAll(async () => {
  mock = await startMockOpenAI();
  receiver = await startReceiver();
  service = await startService({ env: { ...ENV, TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock' } });
  const created = await json<{ id: string; secret: string }>(await service.api('/v1/webhooks', { method: 'POST', json: { url: receiver.url, description: 'all events' } }), 201);
  secret = created.secret;
  webhookId = created.id;
  catalog = await json(await service.api('/v1/webhooks/events'));
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
  await receiver?.close();
});

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function waitFor<T>(find: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The next delivery of `type` after `since` on the shared receiver, verified and validated. */
async function expectEvent(type: string, since: number): Promise<{ id: string; type: string; data: Record<string, unknown> }> {
  const delivery = await waitFor(() => receiver.received.slice(since).find((r) => (JSON.parse(r.body) as { type: string }).type === type), `a ${type} delivery`);
  const headers = { 'webhook-id': String(delivery.headers['webhook-id']), 'webhook-timestamp': String(delivery.headers['webhook-timestamp']), 'webhook-signature': String(delivery.headers['webhook-signature']) };
  const payload = new Webhook(secret).verify(delivery.body, headers) as { id: string; type: string; data: Record<string, unknown> };
  const kind = catalog.items.find((i) => i.type === type);
  expect(kind, `${type} in the catalog`).toBeDefined();
  const validate = ajv.compile(kind!.schema);
  expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
  expect(validate(kind!.example), `catalog example of ${type}`).toBe(true);
  return payload;
}

async function push(keys: { key: string; source: string }[], locales = ['de']): Promise<BatchBody> {
  const batch = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', json: { keys, locales, path: 'hooks' } }), 202);
  return waitForBatch(service, batch.id);
}

describe('subscriptions', () => {
  it('shows the secret once, validates the URL and the event filter', async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const got = await json<Record<string, unknown>>(await service.api(`/v1/webhooks/${webhookId}`));
    expect(got).not.toHaveProperty('secret');
    expect(got).toMatchObject({ url: receiver.url, enabled: true, events: [] });
    const bad = await service.api('/v1/webhooks', { method: 'POST', json: { url: 'ftp://example.com/x' } });
    expect(bad.status).toBe(422);
    const unknownEvent = await service.api('/v1/webhooks', { method: 'POST', json: { url: receiver.url, events: ['batch.exploded'] } });
    expect(((await unknownEvent.json()) as { code: string }).code).toBe('event_unknown');
    const deploy = await service.mintToken({ abilities: ['push', 'pull', 'read'] });
    expect((await service.api('/v1/webhooks', { token: deploy })).status).toBe(403);
    expect((await service.api('/v1/webhooks/events', { token: deploy })).status).toBe(200);
  });

  it('publishes a catalog of the 12 kinds', () => {
    expect(catalog.items.map((i) => i.type).sort()).toEqual(
      [
        'batch.completed',
        'batch.failed',
        'glossary.updated',
        'key.created',
        'key.deleted',
        'key.updated',
        'language.added',
        'language.removed',
        'qa.completed',
        'source_drift.repaired',
        'translation.reviewed',
        'translation.updated',
      ].sort(),
    );
  });
});

describe('the 12 events, each from its operation', () => {
  it('batch.completed, key.created and translation.updated from a push', async () => {
    const since = receiver.received.length;
    const batch = await push([
      { key: 'w.a', source: 'Alpha' },
      { key: 'w.b', source: 'Beta' },
    ]);
    const completed = await expectEvent('batch.completed', since);
    expect(completed.data).toMatchObject({ batch: { id: batch.id, status: 'completed' }, rows: { total: 2 }, pull: { path: 'hooks' } });
    const created = await expectEvent('key.created', since);
    expect(created.data).toMatchObject({ count: 2, batch_id: batch.id, keys: [{ key: 'w.a', source: 'Alpha' }, { key: 'w.b', source: 'Beta' }] });
    const updated = await expectEvent('translation.updated', since);
    expect(updated.data).toMatchObject({ origin: 'batch', count: 2, locales: ['de'] });
  });

  it('key.updated and source_drift.repaired when a source changes and is translated again', async () => {
    const since = receiver.received.length;
    await push([{ key: 'w.a', source: 'Alpha, changed' }]);
    expect((await expectEvent('key.updated', since)).data).toMatchObject({ count: 1, keys: [{ key: 'w.a', source: 'Alpha, changed' }] });
    expect((await expectEvent('source_drift.repaired', since)).data).toMatchObject({ origin: 'batch', count: 1, keys: [{ key: 'w.a', path: 'hooks', locale: 'de' }] });
  });

  it('source_drift.repaired when a hand edit of a translation file is imported', async () => {
    const since = receiver.received.length;
    await json(await service.api('/v1/translations/w.a/de?path=hooks', { method: 'PUT', json: { text: 'Alpha, von Hand', drift: true } }));
    expect((await expectEvent('source_drift.repaired', since)).data).toEqual({
      origin: 'import',
      batch_id: null,
      count: 1,
      locales: ['de'],
      keys: [{ key: 'w.a', path: 'hooks', locale: 'de' }],
      truncated: false,
    });
  });

  it('one key.created summarising a 500-key push, and key.deleted for keys a file no longer has', async () => {
    const since = receiver.received.length;
    const file = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`bulk.${i}`, `Bulk string ${i}`]));
    const first = await json<BatchBody>(await service.api('/v1/push', { method: 'POST', body: filePush(JSON.stringify(file), { locales: 'de' }, 'bulk.json') }), 202);
    await waitForBatch(service, first.id);
    const created = await expectEvent('key.created', since);
    expect(created.data).toMatchObject({ count: 500, truncated: true, path: 'bulk.json' });
    expect((created.data.keys as unknown[]).length).toBe(100);
    expect(receiver.received.slice(since).filter((r) => r.body.includes('"key.created"'))).toHaveLength(1);

    const since2 = receiver.received.length;
    delete file['bulk.7'];
    await json(await service.api('/v1/push', { method: 'POST', body: filePush(JSON.stringify(file), { locales: 'de' }, 'bulk.json') }), 202);
    expect((await expectEvent('key.deleted', since2)).data).toMatchObject({ count: 1, keys: [{ key: 'bulk.7', source: null }] });
  });

  it('batch.failed when the provider refuses the request', async () => {
    const since = receiver.received.length;
    mock.mode = 'fail400';
    try {
      const batch = await push([{ key: 'w.fail', source: 'This one fails' }]);
      expect(batch.status).toBe('failed');
      expect((await expectEvent('batch.failed', since)).data).toMatchObject({ batch: { id: batch.id, status: 'failed' } });
    } finally {
      mock.mode = 'ok';
    }
  });

  it('translation.updated and translation.reviewed from a human edit and a review', async () => {
    const since = receiver.received.length;
    await json(await service.api('/v1/translations/w.b/de?path=hooks', { method: 'PUT', json: { text: 'Beta (de)' } }));
    expect((await expectEvent('translation.updated', since)).data).toMatchObject({ origin: 'human', translations: [{ key: 'w.b', locale: 'de', state: 'human' }] });
    await json(await service.api('/v1/translations/w.b/de/review?path=hooks', { method: 'POST', json: { decision: 'approve' } }));
    expect((await expectEvent('translation.reviewed', since)).data).toMatchObject({ key: 'w.b', decision: 'approve', text: 'Beta (de)' });
  });

  it('language.added and language.removed', async () => {
    const since = receiver.received.length;
    await json(await service.api('/v1/languages', { method: 'POST', json: { tag: 'pt-br' } }), 201);
    expect((await expectEvent('language.added', since)).data).toEqual({ tag: 'pt-BR', name: expect.any(String) });
    await json(await service.api('/v1/languages/pt-BR', { method: 'DELETE' }));
    expect((await expectEvent('language.removed', since)).data).toMatchObject({ tag: 'pt-BR' });
  });

  it('glossary.updated and qa.completed', async () => {
    const since = receiver.received.length;
    await json(await service.api('/v1/glossary', { method: 'POST', json: { term: 'Beta', translations: { de: 'Beta' } } }), 201);
    expect((await expectEvent('glossary.updated', since)).data).toMatchObject({ action: 'created', term: { term: 'Beta' } });
    const run = await json<{ id: string }>(await service.api('/v1/qa/run', { method: 'POST', json: { locales: ['de'] } }));
    expect((await expectEvent('qa.completed', since)).data).toMatchObject({ qa_run_id: run.id });
  });
});

describe('delivery', () => {
  async function subscribe(url: string, events: string[]) {
    return json<{ id: string; secret: string }>(await service.api('/v1/webhooks', { method: 'POST', json: { url, events } }), 201);
  }

  async function deliveries(id: string) {
    return (await json<{ items: { id: string; status: string; attempts: { status: number | null; latency_ms: number; response: string | null }[] }[] }>(await service.api(`/v1/webhooks/${id}/deliveries`))).items;
  }

  it('retries 500, 500, then 200: delivered once, three attempts logged', async () => {
    const r = await startReceiver();
    try {
      r.statuses = [500, 500];
      const hook = await subscribe(r.url, ['language.added']);
      await json(await service.api('/v1/languages', { method: 'POST', json: { tag: 'sv' } }), 201);
      const done = await waitFor(async () => (await deliveries(hook.id)).find((d) => d.status === 'succeeded'), 'a succeeded delivery');
      expect(done.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
      expect(done.attempts[0]!.response).toBe('scripted 500');
      expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([done.id, done.id, done.id]);
      expect(r.received.filter((x) => x.headers['webhook-id'] === done.id)).toHaveLength(3);

      // Redelivery: the same webhook-id, once more.
      await json(await service.api(`/v1/webhooks/${hook.id}/deliveries/${done.id}/redeliver`, { method: 'POST' }));
      await waitFor(() => (r.received.length === 4 ? true : undefined), 'the redelivery');
      expect(r.received[3]!.headers['webhook-id']).toBe(done.id);
    } finally {
      await service.api('/v1/languages/sv', { method: 'DELETE' });
      await r.close();
    }
  });

  it('disables a subscription whose receiver answers 410 Gone', async () => {
    const r = await startReceiver();
    try {
      r.statuses = [410];
      const hook = await subscribe(r.url, ['glossary.updated']);
      await json(await service.api('/v1/glossary', { method: 'POST', json: { term: 'Gone' } }), 201);
      const disabled = await waitFor(async () => {
        const w = await json<{ enabled: boolean; disabled_reason: string | null }>(await service.api(`/v1/webhooks/${hook.id}`));
        return w.enabled ? undefined : w;
      }, 'the webhook to be disabled');
      expect(disabled.disabled_reason).toContain('410');
      expect(r.received).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('gives up after the last retry and disables a subscription that keeps failing', async () => {
    const r = await startReceiver();
    try {
      r.statuses = [503, 503, 503, 503];
      const hook = await subscribe(r.url, ['glossary.updated']);
      await json(await service.api('/v1/glossary', { method: 'POST', json: { term: 'Failing' } }), 201);
      const failed = await waitFor(async () => (await deliveries(hook.id)).find((d) => d.status === 'failed'), 'a failed delivery');
      expect(failed.attempts).toHaveLength(4);
      const w = await json<{ enabled: boolean; disabled_reason: string; failing_since: string }>(await service.api(`/v1/webhooks/${hook.id}`));
      expect(w.enabled).toBe(false);
      expect(w.disabled_reason).toMatch(/failed since .* after 4 attempts/);
    } finally {
      await r.close();
    }
  });

  it('does not let a slow receiver hold up other deliveries', async () => {
    const slow = await startReceiver();
    const fast = await startReceiver();
    try {
      slow.delayMs = 6000;
      const slowHook = await subscribe(slow.url, ['qa.completed']);
      await subscribe(fast.url, ['qa.completed']);
      const started = Date.now();
      await json(await service.api('/v1/qa/run', { method: 'POST', json: { locales: ['de'] } }));
      // Well before the slow receiver answers (6 s) or times out (2 s): the fast one is not queued behind it.
      await waitFor(() => (fast.received.length > 0 ? true : undefined), 'the fast delivery', 4000);
      expect(Date.now() - started).toBeLessThan(4000);
      // The slow one times out (2 s) and is retried on its schedule.
      const log = await waitFor(async () => (await deliveries(slowHook.id)).find((d) => d.attempts.length > 0), 'a slow attempt');
      expect(log.attempts[0]!.status).toBeNull();
      await service.api(`/v1/webhooks/${slowHook.id}`, { method: 'DELETE' });
    } finally {
      await slow.close();
      await fast.close();
    }
  });

  it('signs with both secrets for a day after a rotation, and sends test deliveries on demand', async () => {
    const r = await startReceiver();
    try {
      const hook = await subscribe(r.url, ['batch.completed']);
      const rotated = await json<{ secret: string; previous_secret_expires_at: string }>(await service.api(`/v1/webhooks/${hook.id}/rotate-secret`, { method: 'POST' }));
      expect(rotated.secret).not.toBe(hook.secret);
      expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3_600_000);
      const tested = await json<{ status: string; attempts: { status: number }[] }>(await service.api(`/v1/webhooks/${hook.id}/test`, { method: 'POST', json: { type: 'batch.completed' } }));
      expect(tested).toMatchObject({ status: 'succeeded', attempts: [{ status: 200 }] });
      const got = r.received[0]!;
      const headers = { 'webhook-id': String(got.headers['webhook-id']), 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) };
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(() => new Webhook(hook.secret).verify(got.body, headers)).not.toThrow();
      expect(() => new Webhook(rotated.secret).verify(got.body, headers)).not.toThrow();
      expect((JSON.parse(got.body) as { project: { id: string } }).project.id).toBe(service.projectId);
    } finally {
      await r.close();
    }
  });

  it('a tampered body or an old timestamp fails verification, with the package and with the documented plain-Node check', async () => {
    const got = receiver.received[0]!;
    const headers = { 'webhook-id': String(got.headers['webhook-id']), 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) };
    expect(() => verifyWebhook(secret, headers, got.body, { now: Number(headers['webhook-timestamp']) })).not.toThrow();
    const tampered = got.body.replace('"data":{', '"data":{"x":1,');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow();
    expect(() => verifyWebhook(secret, headers, tampered, { now: Number(headers['webhook-timestamp']) })).toThrow(/signature/i);
    const old = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 3600) };
    expect(() => new Webhook(secret).verify(got.body, old)).toThrow();
    expect(() => verifyWebhook(secret, headers, got.body, { now: Number(headers['webhook-timestamp']) + 3600 })).toThrow(/timestamp/i);
  });
});

describe('across a restart', () => {
  it('delivers what was pending while the receiver and the service were down', async () => {
    const env = { ...ENV, WEBHOOK_RETRY_DELAYS: '300ms,300ms,300ms,300ms,300ms' };
    const own = await startService({ env, memory: false });
    let second: Awaited<ReturnType<typeof createRuntime>> | undefined;
    const r = await startReceiver();
    const port = Number(new URL(r.url).port);
    try {
      const hook = await json<{ id: string; secret: string }>(await own.api('/v1/webhooks', { method: 'POST', json: { url: r.url, events: ['language.added'] } }), 201);
      await r.close();
      await json(await own.api('/v1/languages', { method: 'POST', json: { tag: 'nl' } }), 201);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await own.runtime.stop();

      const back = await startReceiver(port);
      try {
        second = await createRuntime(own.config, { roles: { api: true, worker: true }, log: createLogger('silent') });
        await second.start();
        const delivery = await waitFor(() => back.received[0], 'the delivery after the restart');
        const payload = new Webhook(hook.secret).verify(delivery.body, {
          'webhook-id': String(delivery.headers['webhook-id']),
          'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
          'webhook-signature': String(delivery.headers['webhook-signature']),
        }) as { type: string; data: { tag: string } };
        expect(payload).toMatchObject({ type: 'language.added', data: { tag: 'nl' } });
      } finally {
        await back.close();
      }
    } finally {
      await second?.stop();
      await own.stop().catch(() => undefined);
    }
  });
});
