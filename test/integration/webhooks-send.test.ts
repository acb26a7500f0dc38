/** sendWebhook against a real local receiver: outcomes for every kind of answer, the deadline, truncation and the address guard. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from '../../server/webhooks/send.js';
import { generateSecret, webhookHeaders } from '../../server/webhooks/signing.js';

interface Received {
  method: string | undefined;
  path: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
const BIG_BODY = 'Übersetzung fertig – 翻訳完了. '.repeat(4000);

/** Each path is one receiver behaviour. */
function respond(req: http.IncomingMessage, res: http.ServerResponse): void {
  switch (req.url) {
    case '/ok':
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks, got it');
    case '/fail':
      return void res.writeHead(500).end('{"error":"database unavailable"}');
    case '/gone':
      return void res.writeHead(410).end('this endpoint was removed');
    case '/throttle':
      return void res.writeHead(429, { 'retry-after': '7' }).end('slow down');
    case '/unavailable':
      return void res.writeHead(503, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }).end();
    case '/teapot':
      return void res.writeHead(418, { 'retry-after': '7' }).end();
    case '/redirect':
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end('moved');
    case '/slow-headers':
      return void setTimeout(() => res.writeHead(200).end('too late'), 2_000);
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('started…');
      return void setTimeout(() => res.end(' done'), 2_000);
    case '/big':
      // A receiver that ignores the client going away must not crash the test server.
      res.on('error', () => undefined);
      return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(BIG_BODY);
    case '/endless':
      // 70 KiB and then nothing: only the read limit lets the sender finish before its deadline.
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.write('x'.repeat(70 * 1024));
    case '/half':
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part of it');
      return void setTimeout(() => res.destroy(), 50);
    default:
      return void res.writeHead(404).end();
  }
}

let server: http.Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      respond(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterEach(() => {
  received.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const BODY = JSON.stringify({ type: 'batch.completed', data: { batchId: 'bat_01' } });
const send = (path: string, extra: Partial<Parameters<typeof sendWebhook>[0]> = {}) =>
  sendWebhook({ url: `${base}${path}`, headers: { 'content-type': 'application/json' }, body: BODY, allowPrivate: true, ...extra });

describe('sendWebhook answers', () => {
  it('POSTs the signed body and reports a 200 with its body', async () => {
    const secret = generateSecret();
    const headers = webhookHeaders([secret], 'msg_01', Math.floor(Date.now() / 1000), BODY);
    const result = await send('/ok', { headers });
    expect(result).toMatchObject({ ok: true, status: 200, response: 'thanks, got it', error: null, retryAfterMs: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);

    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.body).toBe(BODY);
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(request?.headers['user-agent']).toBe('Parlance-Webhooks/1');
    // What arrived verifies with the reference library, as a receiver would check it.
    expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toEqual(JSON.parse(BODY));
  });

  it('reports a 500 as not ok, with the receiver body', async () => {
    expect(await send('/fail')).toMatchObject({ ok: false, status: 500, response: '{"error":"database unavailable"}', error: null, retryAfterMs: null });
  });

  it('reports a 410 for the dispatcher to disable the subscription', async () => {
    expect(await send('/gone')).toMatchObject({ ok: false, status: 410, response: 'this endpoint was removed', error: null });
  });

  it('reads Retry-After seconds on 429', async () => {
    expect(await send('/throttle')).toMatchObject({ ok: false, status: 429, retryAfterMs: 7_000, response: 'slow down' });
  });

  it('reads a Retry-After date on 503', async () => {
    const result = await send('/unavailable');
    expect(result.status).toBe(503);
    expect(result.retryAfterMs).toBeGreaterThan(55_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('ignores Retry-After on other statuses', async () => {
    expect(await send('/teapot')).toMatchObject({ ok: false, status: 418, retryAfterMs: null });
  });

  it('does not follow a redirect', async () => {
    const result = await send('/redirect');
    expect(result).toMatchObject({ ok: false, status: 302, error: 'redirect to http://169.254.169.254/latest/meta-data/ not followed', response: 'moved' });
    expect(received.map((r) => r.path)).toEqual(['/redirect']);
  });
});

describe('sendWebhook deadline', () => {
  it('times out a receiver that does not answer', async () => {
    const result = await send('/slow-headers', { timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, status: null, error: 'timed out after 200 ms', response: '' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(195);
    expect(result.latencyMs).toBeLessThan(1_500);
  });

  it('times out a body that does not end, keeping what arrived', async () => {
    const result = await send('/slow-body', { timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: 200, error: 'timed out after 300 ms', response: 'started…' });
    expect(result.latencyMs).toBeLessThan(1_500);
  });

  it('reports a response cut off by the receiver', async () => {
    const result = await send('/half');
    expect(result.ok).toBe(false);
    expect(result.status).toBe(200);
    expect(result.error).toMatch(/^response interrupted: connection reset/);
    expect(result.response).toBe('only part of it');
  });
});

describe('sendWebhook response truncation', () => {
  it('keeps the first 2048 bytes of a big body, on a character boundary, marked as cut', async () => {
    const result = await send('/big');
    expect(result.ok).toBe(true);
    expect(result.response.endsWith('…')).toBe(true);
    const kept = result.response.slice(0, -1);
    expect(kept).not.toContain('\uFFFD');
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(2048);
    expect(Buffer.byteLength(kept)).toBeGreaterThan(2044);
    expect(BIG_BODY.startsWith(kept)).toBe(true);
  });

  it('stops reading at 64 KiB instead of waiting for a body that does not end', async () => {
    const result = await send('/endless', { timeoutMs: 3_000 });
    expect(result).toMatchObject({ ok: true, status: 200, error: null, response: `${'x'.repeat(2048)}…` });
    expect(result.latencyMs).toBeLessThan(2_000);
  });

  it('never splits a multi-byte character at a small limit', async () => {
    // 'Ü' takes two bytes, so a one-byte limit keeps nothing of it rather than half.
    expect((await send('/big', { maxResponseBytes: 1 })).response).toBe('…');
    expect((await send('/big', { maxResponseBytes: 2 })).response).toBe('Ü…');
    expect((await send('/big', { maxResponseBytes: 3 })).response).toBe('Üb…');
  });

  it('keeps a short body whole, without the mark', async () => {
    expect((await send('/ok', { maxResponseBytes: 14 })).response).toBe('thanks, got it');
    expect((await send('/ok', { maxResponseBytes: 13 })).response).toBe('thanks, got i…');
  });
});

describe('sendWebhook address guard and network errors', () => {
  it('refuses a literal loopback address when private addresses are not allowed, without connecting', async () => {
    const result = await send('/ok', { allowPrivate: false });
    expect(result).toMatchObject({ ok: false, status: null, error: 'blocked address 127.0.0.1 (loopback)', response: '' });
    expect(received).toEqual([]);
  });

  it('refuses a host name that resolves to loopback, at connect time', async () => {
    const result = await send('/ok', { url: `http://localhost:${port}/ok`, allowPrivate: false });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^blocked address (127\.0\.0\.1|::1) \(loopback\) resolved from localhost$/);
    expect(received).toEqual([]);
  });

  it('reaches the same host name when private addresses are allowed', async () => {
    const result = await send('/ok', { url: `http://localhost:${port}/ok`, allowPrivate: true });
    expect(result).toMatchObject({ ok: true, status: 200 });
  });

  it('reports a closed port as connection refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const result = await send('/ok', { url: `http://127.0.0.1:${closedPort}/ok` });
    expect(result).toMatchObject({ ok: false, status: null, response: '', retryAfterMs: null });
    expect(result.error).toBe(`connection refused (connect ECONNREFUSED 127.0.0.1:${closedPort})`);
  });

  it('reports a host that does not resolve', async () => {
    const result = await send('/ok', { url: 'http://nothing-here.invalid/hook' });
    expect(result.error).toMatch(/^(host not found|DNS lookup failed temporarily) \(getaddrinfo (ENOTFOUND|EAI_AGAIN) nothing-here\.invalid\)$/);
  });

  it('reports a TLS failure, here https to a plain-HTTP receiver', async () => {
    const result = await send('/ok', { url: `https://127.0.0.1:${port}/ok` });
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/^TLS failure: .*EPROTO.*[^\n]$/);
  });

  it('reports an unusable URL instead of throwing', async () => {
    expect((await send('/ok', { url: 'ftp://example.com/hook' })).error).toBe("unsupported URL scheme 'ftp'");
    expect((await send('/ok', { url: 'not a url' })).error).toBe("invalid URL 'not a url'");
    expect((await send('/ok', { headers: { 'x-broken': 'line\nbreak' } })).error).toMatch(/Invalid character in header content \["x-broken"\]/);
  });
});
