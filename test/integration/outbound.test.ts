/**
 * Addresses users supply never reach the service's own network: webhooks, a connector's base URL and each importer's
 * API base URL, refused when saved (literal loopback, private, link-local, IPv6 and IPv4-mapped forms, hex) and again
 * at connect time (a name that answers a public address first and a private one next; a redirect from an allowed host
 * to a private one), with a listener on 127.0.0.1 receiving nothing; and reached once the operator allows them.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../server/net/address-guard.js';
import { PLATFORMS } from '../../server/imports/import-model.js';
import { KIT_ENV, waitForSync } from '../helpers/connector-kit.js';
import { startService, type TestService } from '../helpers/service.js';

interface Listener {
  port: number;
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that records what reaches it; `answer` decides the reply (a redirect, for the redirector). */
async function listen(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')): Promise<Listener> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * DNS for the test: a name under `.rebind.test` answers a public address on its first lookup and 127.0.0.1 on every
 * later one; `hop.allowed.test` is 127.0.0.1 (the operator allows that name); anything else goes to the system.
 */
function testResolver() {
  const lookups = new Map<string, number>();
  const resolver: Resolver = (hostname, options, callback) => {
    const seen = lookups.get(hostname) ?? 0;
    lookups.set(hostname, seen + 1);
    const answer = (address: string) => process.nextTick(callback, null, [{ address, family: 4 } satisfies LookupAddress]);
    if (hostname.endsWith('.rebind.test')) return answer(seen === 0 ? '93.184.215.14' : '127.0.0.1');
    if (hostname === 'hop.allowed.test') return answer('127.0.0.1');
    dnsLookup(hostname, options, callback);
  };
  return { resolver, lookups: (hostname: string) => lookups.get(hostname) ?? 0 };
}

/** Every literal form of an address the service must not reach, with the range the refusal names. */
const literals = (port: number): [string, string][] => [
  [`http://127.0.0.1:${port}`, 'loopback'],
  ['http://10.0.0.1', 'private'],
  ['http://172.16.0.1', 'private'],
  ['http://192.168.1.1', 'private'],
  ['http://169.254.169.254', 'link-local (cloud metadata)'],
  [`http://[::1]:${port}`, 'loopback'],
  [`http://[::ffff:127.0.0.1]:${port}`, 'IPv4-mapped loopback'],
  [`http://0x7f000001:${port}`, 'loopback'],
];

const SIGNING = 'outbound-test-signing-secret-0123456789';
/** A project id of the form each platform takes (Transifex checks its `o:org:p:project` form before any request). */
const projectOf = (platform: string) => (platform === 'transifex' ? 'o:acme:p:web' : '1');

async function problem(res: Response): Promise<{ status: number; code: string; detail: string }> {
  const body = (await res.json()) as { code: string; detail: string };
  return { status: res.status, code: body.code, detail: body.detail };
}

async function importFinished(service: TestService, id: string): Promise<{ status: string; error: string | null }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = (await (await service.api(`/v1/imports/${id}`)).json()) as { status: string; error: string | null };
    if (['completed', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('private addresses not allowed (only the name hop.allowed.test)', () => {
  let service: TestService;
  let listener: Listener;
  let redirector: Listener;
  let dns: ReturnType<typeof testResolver>;

  beforeAll(async () => {
    listener = await listen();
    // An allowed destination that sends every request on to the listener's private address.
    redirector = await listen((req, res) => res.writeHead(302, { location: `http://127.0.0.1:${listener.port}${req.url ?? '/'}` }).end('redirected'));
    dns = testResolver();
    service = await startService({
      env: { ...KIT_ENV, OUTBOUND_ALLOW_PRIVATE_ADDRESSES: 'hop.allowed.test', WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_POLL_MS: '50' },
      resolver: dns.resolver,
    });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await listener?.close();
    await redirector?.close();
  });

  describe('webhooks', () => {
    it('refuses every literal form when the subscription is saved', async () => {
      for (const [url, range] of literals(listener.port)) {
        const refused = await problem(await service.api('/v1/webhooks', { method: 'POST', json: { url: `${url}/hook` } }));
        expect(refused, url).toMatchObject({ status: 422, code: 'webhook_url_refused' });
        expect(refused.detail, url).toContain(`in the ${range} range`);
      }
      expect(listener.requests).toEqual([]);
    });

    it('refuses a name that re-binds to loopback at delivery time, once, without retrying', async () => {
      const created = (await (await service.api('/v1/webhooks', { method: 'POST', json: { url: `http://hook.rebind.test:${listener.port}/hook` } })).json()) as { id: string };
      const delivery = (await (await service.api(`/v1/webhooks/${created.id}/test`, { method: 'POST' })).json()) as { status: string; last_error: string; next_attempt_at: string | null };
      expect(delivery.status).toBe('failed');
      expect(delivery.next_attempt_at).toBeNull();
      expect(delivery.last_error).toBe('blocked address 127.0.0.1 (loopback) resolved from hook.rebind.test');
      expect(dns.lookups('hook.rebind.test')).toBe(2);
      expect(listener.requests).toEqual([]);
    });

    it('does not follow a redirect from an allowed host to a private one', async () => {
      const created = (await (await service.api('/v1/webhooks', { method: 'POST', json: { url: `http://hop.allowed.test:${redirector.port}/hook` } })).json()) as { id: string };
      const delivery = (await (await service.api(`/v1/webhooks/${created.id}/test`, { method: 'POST' })).json()) as { attempts: { error: string | null; response: string | null }[] };
      expect(delivery.attempts[0]?.error).toBe(`redirect to http://127.0.0.1:${listener.port}/hook not followed`);
      expect(listener.requests).toEqual([]);
    });
  });

  describe('a connector (any HTTP service)', () => {
    it('refuses every literal form of source_url when the connection is saved', async () => {
      for (const [url, range] of literals(listener.port)) {
        const refused = await problem(await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: `${url}/source` }, secrets: { signing_secret: SIGNING } } }));
        expect(refused, url).toMatchObject({ status: 422, code: 'address_refused' });
        expect(refused.detail, url).toMatch(new RegExp(`^settings\\.source_url: .* in the ${range.replace(/[()]/g, '\\$&')} range; Parlance connects to public addresses only \\(an operator allows private ones with OUTBOUND_ALLOW_PRIVATE_ADDRESSES\\)$`));
      }
      expect(listener.requests).toEqual([]);
    });

    it('refuses a changed address too', async () => {
      const created = (await (await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: `http://cms.example.invalid/source` }, secrets: { signing_secret: SIGNING }, enabled: false } })).json()) as { id: string };
      const refused = await problem(await service.api(`/v1/integrations/http/${created.id}`, { method: 'PATCH', json: { settings: { source_url: 'http://169.254.169.254/latest/meta-data/' }, secrets: { signing_secret: SIGNING } } }));
      expect(refused).toMatchObject({ status: 422, code: 'address_refused' });
      expect(refused.detail).toContain('link-local (cloud metadata)');
    });

    it('fails a sync whose host re-binds to loopback, naming the range, without retrying', async () => {
      const created = (await (await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: `http://cms.rebind.test:${listener.port}/source` }, secrets: { signing_secret: SIGNING } } })).json()) as { id: string; last_sync: { id: string } };
      const sync = await waitForSync(service, 'http', created.id, created.last_sync.id);
      expect(sync.status).toBe('failed');
      expect(sync.attempts).toBe(1);
      expect(sync.error).toContain('127.0.0.1 (from cms.rebind.test), in the loopback range');
      expect(dns.lookups('cms.rebind.test')).toBe(2);
      expect(listener.requests).toEqual([]);
    });

    it('does not follow a redirect from an allowed host to a private one', async () => {
      const created = (await (await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: `http://hop.allowed.test:${redirector.port}/source` }, secrets: { signing_secret: SIGNING } } })).json()) as { id: string; last_sync: { id: string } };
      const sync = await waitForSync(service, 'http', created.id, created.last_sync.id);
      expect(sync.status).toBe('failed');
      expect(sync.error).toContain('redirected to another host');
      expect(sync.error).not.toContain('redirected\n');
      expect(redirector.requests.length).toBeGreaterThan(0);
      expect(listener.requests).toEqual([]);
    });
  });

  describe.each(PLATFORMS)('the %s importer', (platform) => {
    const start = (baseUrl: string) => service.api('/v1/imports', { method: 'POST', json: { platform, api: { token: 'tok_0123456789abcdef', project: projectOf(platform), base_url: baseUrl } } });

    it('refuses every literal form of api.base_url when the import is created', async () => {
      for (const [url, range] of literals(listener.port)) {
        const refused = await problem(await start(url));
        expect(refused, url).toMatchObject({ status: 422, code: 'address_refused' });
        expect(refused.detail, url).toMatch(new RegExp(`^api\\.base_url: The ${platform} API address host .* is in the ${range.replace(/[()]/g, '\\$&')} range`));
      }
      expect(listener.requests).toEqual([]);
    });

    it('fails an import whose host re-binds to loopback, at the first connection, without retrying', async () => {
      const host = `${platform}.rebind.test`;
      const res = await start(`http://${host}:${listener.port}`);
      expect(res.status).toBe(202);
      const done = await importFinished(service, ((await res.json()) as { id: string }).id);
      expect(done.status).toBe('failed');
      expect(done.error).toBe(`The import stopped: blocked address 127.0.0.1 (loopback) resolved from ${host}; Parlance connects to public addresses only (an operator allows private ones with OUTBOUND_ALLOW_PRIVATE_ADDRESSES).`);
      expect(dns.lookups(host)).toBe(2);
      expect(listener.requests).toEqual([]);
    });

    it('does not let a redirect from an allowed host reach a private one', async () => {
      const before = redirector.requests.length;
      const res = await start(`http://hop.allowed.test:${redirector.port}`);
      expect(res.status).toBe(202);
      const done = await importFinished(service, ((await res.json()) as { id: string }).id);
      expect(done.status).toBe('failed');
      expect(done.error).toContain('blocked address 127.0.0.1 (loopback)');
      // The redirect's own body ("redirected") is never shown.
      expect(done.error).not.toContain('redirected');
      expect(redirector.requests.length).toBe(before + 1);
      expect(listener.requests).toEqual([]);
    });
  });
});

describe('private addresses allowed by the operator', () => {
  let service: TestService;
  let listener: Listener;

  beforeAll(async () => {
    listener = await listen();
    service = await startService({ env: { ...KIT_ENV, OUTBOUND_ALLOW_PRIVATE_ADDRESSES: '127.0.0.0/8', WEBHOOK_POLL_MS: '50' } });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await listener?.close();
  });

  it('delivers a webhook to 127.0.0.1', async () => {
    const res = await service.api('/v1/webhooks', { method: 'POST', json: { url: `${listener.url}/hook` } });
    expect(res.status).toBe(201);
    const delivery = (await (await service.api(`/v1/webhooks/${((await res.json()) as { id: string }).id}/test`, { method: 'POST' })).json()) as { status: string };
    expect(delivery.status).toBe('succeeded');
    expect(listener.requests).toContain('POST /hook');
  });

  it('syncs a connection from 127.0.0.1', async () => {
    const res = await service.api('/v1/integrations/http', { method: 'POST', json: { settings: { source_url: `${listener.url}/source` }, secrets: { signing_secret: SIGNING } } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; last_sync: { id: string } };
    await waitForSync(service, 'http', created.id, created.last_sync.id);
    expect(listener.requests.some((r) => r.startsWith('GET /source'))).toBe(true);
  });

  it.each(PLATFORMS)('lets the %s importer reach 127.0.0.1', async (platform) => {
    const before = listener.requests.length;
    const res = await service.api('/v1/imports', { method: 'POST', json: { platform, api: { token: 'tok_0123456789abcdef', project: projectOf(platform), base_url: listener.url } } });
    expect(res.status).toBe(202);
    await importFinished(service, ((await res.json()) as { id: string }).id);
    expect(listener.requests.length).toBeGreaterThan(before);
  });

  it('still refuses what the list leaves out', async () => {
    const refused = await problem(await service.api('/v1/webhooks', { method: 'POST', json: { url: 'http://169.254.169.254/hook' } }));
    expect(refused.status).toBe(422);
    expect(refused.detail).toContain('link-local (cloud metadata)');
  });
});
