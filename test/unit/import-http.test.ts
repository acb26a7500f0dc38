/** The importers' HTTP to other platforms: rate-limit waits from each platform's headers, retries, and locale mapping. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapLocale } from '../../server/imports/import-writer.js';
import { createPlatformHttp, rateLimitWaitMs } from '../../server/imports/platform-http.js';

describe('rateLimitWaitMs', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  it.each([
    [{ 'retry-after': '7' }, 7000],
    [{ 'retry-after': 'Wed, 25 Nov 2026 10:00:30 GMT' }, 30_000],
    [{ 'x-ratelimit-reset': String(now / 1000 + 12) }, 12_000],
    [{ 'x-ratelimit-reset': String(now + 5000) }, 5000],
    [{ 'ratelimit-reset': '3' }, 3000],
    [{ 'x-rate-limit-reset': String(now / 1000 - 5) }, 0],
    [{}, undefined],
    [{ 'retry-after': 'soon' }, undefined],
  ])('%j → %s ms', (headers, wait) => {
    expect(rateLimitWaitMs(new Headers(headers as Record<string, string>), now)).toBe(wait);
  });
});

describe('mapLocale', () => {
  it.each([
    ['pt_BR', 'pt-BR'],
    ['pt-br', 'pt-BR'],
    ['zh_Hans', 'zh-Hans'],
    ['ar', 'ar'],
    ['sr-latn', 'sr-Latn'],
    ['es_419', 'es-419'],
    ['not a tag', undefined],
  ])('%s → %s', (tag, mapped) => {
    expect(mapLocale(tag)).toBe(mapped);
  });
});

describe('createPlatformHttp', () => {
  let url = '';
  const script: number[] = [];
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const status = script.shift() ?? 200;
    if (status === 429) res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' }).end('{"error":"slow down"}');
    else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status, auth: req.headers.authorization ?? null }));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const http = (waits: number[]) =>
    createPlatformHttp({
      signal: new AbortController().signal,
      headers: { authorization: 'Bearer t' },
      maxRetries: 2,
      sleep: async (ms) => void waits.push(ms),
    });

  it('waits out 429s as long as asked, without counting them as failures', async () => {
    const waits: number[] = [];
    script.push(429, 429, 429, 200);
    hits = 0;
    const res = await http(waits).request(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 200, auth: 'Bearer t' });
    expect(waits).toEqual([2000, 2000, 2000]);
    expect(hits).toBe(4);
  });

  it('retries 5xx with backoff, then gives the last answer back', async () => {
    const waits: number[] = [];
    script.push(503, 502, 500);
    const res = await http(waits).request(url);
    expect(res.status).toBe(500);
    expect(waits).toEqual([500, 1000]);
  });

  it('returns 4xx answers as they are, for the reader to explain', async () => {
    script.push(401);
    const res = await http([]).request(url);
    expect(res.status).toBe(401);
  });

  it('names the host when it cannot be reached', async () => {
    const waits: number[] = [];
    await expect(http(waits).request('http://127.0.0.1:9/x')).rejects.toThrow(/Could not reach 127\.0\.0\.1:9 after 3 attempts/);
    expect(waits).toHaveLength(2);
  });

  it('gives up on a rate limit longer than the import waits', async () => {
    script.push(429);
    const client = createPlatformHttp({ signal: new AbortController().signal, headers: {}, maxWaitMs: 1000, sleep: async () => undefined });
    await expect(client.request(url)).rejects.toThrow(/asks to wait 2 s for its rate limit, longer than the import waits \(1 s\)/);
  });
});
