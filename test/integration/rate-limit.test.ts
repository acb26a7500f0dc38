/** 60 requests per minute per token: headers on every response, 429 with Retry-After on the 61st, nothing changed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/logger.js';
import { createRuntime, type Runtime } from '../../server/runtime.js';
import { BACKEND, startService, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

/** Waits for a fresh minute window when too little of the current one is left for the burst that follows. */
async function freshWindow(secondsNeeded = 5) {
  const left = 60 - (Math.floor(Date.now() / 1000) % 60);
  if (left < secondsNeeded) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}

describe('rate limit', () => {
  it('allows 60 requests per token per minute; the 61st gets 429 with Retry-After and changes nothing', async () => {
    await freshWindow();
    const token = await service.mintToken({ abilities: ['push', 'pull', 'read'] });
    const other = await service.mintToken({ abilities: ['read'] });
    for (let i = 1; i <= 59; i++) {
      const res = await service.api('/v1/batches?limit=1', { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    }
    const sixtieth = await service.api('/v1/push', { token, method: 'POST', json: { keys: [{ key: 'sixtieth', source: 'Allowed' }] } });
    expect(sixtieth.status).toBe(202);
    expect(sixtieth.headers.get('x-ratelimit-remaining')).toBe('0');

    const before = (await (await service.api('/v1/batches?limit=100', { token: other })).json()) as { items: unknown[] };
    const res = await service.api('/v1/push', { token, method: 'POST', json: { keys: [{ key: 'sixty-first', source: 'Refused' }] } });
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    const body = (await res.json()) as { code: string; retry_after: number };
    expect(body.code).toBe('rate_limited');
    expect(body.retry_after).toBe(retryAfter);

    // Nothing was queued or charged: another token sees the same batches.
    const after = (await (await service.api('/v1/batches?limit=100', { token: other })).json()) as { items: unknown[] };
    expect(after.items.length).toBe(before.items.length);
    // The limit is per token: another token of the same project is unaffected.
    expect((await service.api('/v1/project', { token: other })).status).toBe(200);
  });

  it.runIf(BACKEND === 'postgres')('is shared by every API process on the same Redis', async () => {
    await freshWindow();
    const second: Runtime = await createRuntime(loadConfig(service.env), { roles: { api: true, worker: false }, log: createLogger('silent') });
    try {
      const { url } = await second.start();
      const token = await service.mintToken({ abilities: ['read'] });
      const headers = { authorization: `Bearer ${token}` };
      for (let i = 0; i < 30; i++) {
        expect((await fetch(`${service.url}/v1/project`, { headers })).status).toBe(200);
        expect((await fetch(`${url}/v1/project`, { headers })).status).toBe(200);
      }
      expect((await fetch(`${url}/v1/project`, { headers })).status).toBe(429);
      expect((await fetch(`${service.url}/v1/project`, { headers })).status).toBe(429);
    } finally {
      await second.stop();
    }
  });
});
