/** Security headers on every kind of response over HTTP, and hostile input the HTTP fuzzer found (npm run fuzz). */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_PAGE_CSP } from '../../server/http/reference-page.js';
import { CONSOLE_CSP } from '../../server/web/console-routes.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

describe('security headers', () => {
  it('sends nosniff on /v1 JSON, problem responses, /healthz, /mcp and the console, and no CSP on non-HTML', async () => {
    const answers = [
      await service.api('/v1/project'),
      await service.api('/v1/openapi.json', { token: null }),
      await service.api('/v1/batches/no-such-batch'),
      await service.api('/v1/project', { token: null }),
      await service.api('/v1/nowhere'),
      await service.api('/healthz', { token: null }),
      await service.api('/mcp', { token: null, method: 'POST', json: {} }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 404, 401, 404, 200, 401]);
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBeNull();
    }
    expect(answers[2]!.headers.get('content-type')).toBe('application/problem+json');
  });

  it('sends nosniff on an MCP answer with a token', async () => {
    const res = await service.api('/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    await res.body?.cancel();
  });

  it("gives /v1/reference a CSP that allows only its own inline style, by hash, with frame-ancestors 'none'", async () => {
    const res = await service.api('/v1/reference', { token: null });
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(REFERENCE_PAGE_CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).not.toMatch(/<script|<link|src=/);
    const styles = [...html.matchAll(/<style>([^]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`);
  });

  it('keeps the console its own strict CSP, once', async () => {
    const res = await service.api('/', { token: null });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    if (res.status === 200) {
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    }
  });
});

describe('hostile input found by the HTTP fuzzer', () => {
  it('refuses a NUL in an id, a cursor or a search with 422, not 500', async () => {
    for (const path of ['/v1/batches/%00', '/v1/tokens/%00', '/v1/glossary?q=%00', '/v1/batches?cursor=%00', '/v1/translations?key=%00']) {
      const method = path.startsWith('/v1/tokens/') ? 'DELETE' : 'GET';
      const res = await service.api(path, { method });
      expect(res.status, path).toBe(422);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = (await res.json()) as { code: string; detail: string };
      expect(body.code).toBe('validation_failed');
      expect(body.detail).toContain('NUL');
    }
  });
});
