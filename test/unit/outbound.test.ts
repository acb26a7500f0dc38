/** The outbound client on its own: the operator's allow list, the guarded fetch's redirects, and the agents SDKs use. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowPrivate, UnsafeAddressError, type Resolver } from '../../server/net/address-guard.js';
import { gzipSync } from 'node:zlib';
import { createOutbound, RedirectRefusedError, ResponseTooLargeError } from '../../server/net/outbound.js';

describe('parseAllowPrivate', () => {
  it('reads true, false and empty', () => {
    expect(parseAllowPrivate('true').all).toBe(true);
    expect(parseAllowPrivate(' TRUE ').all).toBe(true);
    expect(parseAllowPrivate('false').all).toBe(false);
    expect(parseAllowPrivate('').all).toBe(false);
  });

  it('reads networks, addresses and host names', () => {
    const allow = parseAllowPrivate('10.0.0.0/8, 192.168.1.20,fd00::/8, minio.internal, *.corp.example');
    expect(allow.all).toBe(false);
    expect(allow.networks.check('10.9.8.7', 'ipv4')).toBe(true);
    expect(allow.networks.check('192.168.1.20', 'ipv4')).toBe(true);
    expect(allow.networks.check('192.168.1.21', 'ipv4')).toBe(false);
    expect(allow.networks.check('fd12::1', 'ipv6')).toBe(true);
    expect([...allow.hosts]).toEqual(['minio.internal']);
    expect(allow.suffixes).toEqual(['.corp.example']);
  });

  it.each([
    ['10.0.0.0/33', "'10.0.0.0/33' has no valid prefix length: expected 10.0.0.0/0 to 10.0.0.0/32"],
    ['10.0.0.0/x', "'10.0.0.0/x' has no valid prefix length"],
    ['http://minio:9000', "'http://minio:9000' is not a network, an address or a host name"],
    ['minio.internal/8', "'minio.internal/8' is not a network, an address or a host name"],
  ])('refuses %s, naming it', (text, message) => {
    expect(() => parseAllowPrivate(text)).toThrow(message);
  });
});

interface Server {
  url: string;
  port: number;
  seen: { url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function serve(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Server> {
  const seen: Server['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `files.test` and `api.test` are 127.0.0.1, `rebind.test` is public once and loopback after. */
const resolver: Resolver = (hostname, _options, callback) => {
  const answer = (address: string) => process.nextTick(callback, null, [{ address, family: 4 }]);
  if (hostname === 'files.test' || hostname === 'api.test') return answer('127.0.0.1');
  return process.nextTick(callback, Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

/** 64 MiB of zeros, gzipped to about 64 KB. */
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024));

describe('the guarded fetch', () => {
  let files: Server;
  let api: Server;
  beforeAll(async () => {
    files = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('the file'));
    api = await serve((req, res) => {
      if (req.url === '/same') return res.writeHead(301, { location: '/final' }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/away') return res.writeHead(303, { location: `http://files.test:${files.port}/download` }).end('secret body of a redirect');
      if (req.url === '/scheme') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (req.url === '/bomb') return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB);
      if (req.url === '/empty') return res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${req.url}`);
    });
  });
  afterAll(async () => {
    await files.close();
    await api.close();
  });

  const allowed = () => createOutbound({ allowPrivate: parseAllowPrivate('api.test,files.test'), resolver });

  it('follows a redirect on the same origin and says so', async () => {
    const response = await allowed().fetch({ crossOrigin: 'refuse' })(`http://api.test:${api.port}/same`);
    expect(await response.text()).toBe('at /final');
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`http://api.test:${api.port}/final`);
  });

  it('refuses a redirect to another host when asked to, without reading its body', async () => {
    const error = await allowed()
      .fetch({ crossOrigin: 'refuse' })(`http://api.test:${api.port}/away`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect((error as Error).message).toContain(`redirected to another host (files.test:${files.port})`);
    expect((error as Error).message).not.toContain('secret body');
    expect(files.seen).toEqual([]);
  });

  it('follows a redirect to another host without the credentials when asked to', async () => {
    const response = await allowed().fetch({ crossOrigin: 'drop-credentials' })(`http://api.test:${api.port}/away`, { headers: { authorization: 'Bearer tok', 'x-api-key': 'key', accept: 'text/plain' } });
    expect(await response.text()).toBe('the file');
    const request = files.seen.at(-1)!;
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(request.headers.accept).toBe('text/plain');
    expect(api.seen.at(-1)!.headers['x-api-key']).toBe('key');
  });

  it('stops reading a response that decodes past the limit, and passes bodiless answers through', async () => {
    const fetch = createOutbound({ allowPrivate: parseAllowPrivate('api.test'), resolver, maxResponseBytes: 1024 * 1024 }).fetch({ crossOrigin: 'refuse' });
    const error = await (await fetch(`http://api.test:${api.port}/bomb`)).text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toBe(`api.test:${api.port} answered with a body larger than 1,048,576 bytes once decoded (MAX_INFLATED_BYTES); the rest was not read.`);
    expect((await fetch(`http://api.test:${api.port}/empty`)).status).toBe(204);
    expect(await (await fetch(`http://api.test:${api.port}/same`)).text()).toBe('at /final');
  });

  it('stops after five redirects and refuses other schemes', async () => {
    const fetch = allowed().fetch({ crossOrigin: 'refuse' });
    await expect(fetch(`http://api.test:${api.port}/loop`)).rejects.toThrow('redirected more than 5 times');
    await expect(fetch(`http://api.test:${api.port}/scheme`)).rejects.toThrow('redirected to a file address');
  });

  it('refuses a literal private address before connecting, and a name that resolves to one at connect time', async () => {
    const fetch = createOutbound({ allowPrivate: parseAllowPrivate('false'), resolver }).fetch({ crossOrigin: 'refuse' });
    const before = api.seen.length;
    await expect(fetch(`${api.url}/x`)).rejects.toBeInstanceOf(UnsafeAddressError);
    await expect(fetch(`http://[::ffff:127.0.0.1]:${api.port}/x`)).rejects.toThrow('IPv4-mapped loopback');
    await expect(fetch(`http://api.test:${api.port}/x`)).rejects.toThrow('blocked address 127.0.0.1 (loopback) resolved from api.test');
    expect(api.seen.length).toBe(before);
  });
});

describe('every literal form, at connect time (a row saved before the check, or under another setting)', () => {
  let target: Server;
  beforeAll(async () => {
    target = await serve((_req, res) => res.end('ok'));
  });
  afterAll(() => target.close());

  it('is refused by the fetch and by the agents, and nothing reaches the listener', async () => {
    const outbound = createOutbound({ allowPrivate: parseAllowPrivate('false'), resolver });
    const fetch = outbound.fetch({ crossOrigin: 'refuse' });
    const forms: [string, string][] = [
      [`http://127.0.0.1:${target.port}/`, 'loopback'],
      ['http://10.0.0.1/', 'private'],
      ['http://172.16.0.1/', 'private'],
      ['http://192.168.1.1/', 'private'],
      ['http://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
      [`http://[::1]:${target.port}/`, 'loopback'],
      [`http://[::ffff:127.0.0.1]:${target.port}/`, 'IPv4-mapped loopback'],
      [`http://0x7f000001:${target.port}/`, 'loopback'],
    ];
    for (const [url, range] of forms) {
      const viaFetch = await fetch(url).catch((e: unknown) => e);
      expect(viaFetch, url).toBeInstanceOf(UnsafeAddressError);
      expect((viaFetch as UnsafeAddressError).range, url).toBe(range);
      const viaAgent = await new Promise<unknown>((resolve) => http.get(url, { agent: outbound.agents().http }, () => resolve(undefined)).on('error', resolve));
      expect(viaAgent, url).toBeInstanceOf(UnsafeAddressError);
    }
    expect(target.seen).toEqual([]);
  });
});

describe('the guarded agents', () => {
  let target: Server;
  beforeAll(async () => {
    target = await serve((_req, res) => res.end('ok'));
  });
  afterAll(() => target.close());

  function get(agent: http.Agent, url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      http.get(url, { agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
  }

  it('refuse a literal private address and a name resolving to one; allow what the operator lists', async () => {
    const closed = createOutbound({ allowPrivate: parseAllowPrivate('false'), resolver }).agents().http;
    await expect(get(closed, `${target.url}/`)).rejects.toThrow('blocked address 127.0.0.1 (loopback)');
    await expect(get(closed, `http://api.test:${target.port}/`)).rejects.toThrow('resolved from api.test');
    expect(target.seen).toEqual([]);
    const open = createOutbound({ allowPrivate: parseAllowPrivate('127.0.0.1/32'), resolver }).agents().http;
    expect(await get(open, `${target.url}/`)).toBe('ok');
    expect(await get(open, `http://api.test:${target.port}/`)).toBe('ok');
  });
});
