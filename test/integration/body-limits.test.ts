/**
 * Request-body limits over HTTP: every operation of the OpenAPI document that takes a body, /mcp, /hooks and paths
 * no route serves, with and without a token, refuse a body over their limit with 413 `payload_too_large`, whether the
 * length is declared or the body is streamed, before authentication, routing or validation say anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

const MAX_UPLOAD_BYTES = 256 * 1024;
const JSON_LIMIT = 1024 * 1024;
const ANONYMOUS_LIMIT = 16 * 1024;

interface Operation {
  description?: string;
  requestBody?: unknown;
  responses: Record<string, unknown>;
  'x-body-limit'?: number;
}
interface Document {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: Record<string, unknown> }> };
}

let service: TestService;
let doc: Document;
beforeAll(async () => {
  // Upload routes get a small MAX_UPLOAD_BYTES so their bodies stay small; the JSON default is left as it ships.
  service = await startService({ env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), RATE_LIMIT_PER_MINUTE: '1000000' } });
  doc = (await (await service.api('/v1/openapi.json', { token: null })).json()) as Document;
});
afterAll(async () => {
  await service?.stop();
});

/** Every operation that takes a body: POST, PUT and PATCH, and DELETE where it declares one. */
function bodyOperations(): { method: string; path: string; operation: Operation }[] {
  const found = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (['post', 'put', 'patch'].includes(method) || (method === 'delete' && operation.requestBody)) found.push({ method, path, operation });
    }
  }
  return found;
}

/** The limit each kind of route should have. */
function expectedLimit(path: string): number {
  if (path.startsWith('/v1/auth/')) return ANONYMOUS_LIMIT;
  if (['/v1/push', '/v1/imports', '/v1/memory/import', '/v1/translations/upload', '/v1/integrations/{connector}/{id}/file', '/mcp'].includes(path)) return MAX_UPLOAD_BYTES;
  return JSON_LIMIT;
}

/** `size` bytes of an unterminated JSON string, made as they are sent, without a Content-Length (chunked). */
function streamed(size: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const part = sent === 0 ? new TextEncoder().encode('{"a":"') : chunk.subarray(0, Math.min(chunk.byteLength, size - sent));
      sent += part.byteLength;
      controller.enqueue(part);
    },
  });
}

async function send(method: string, path: string, options: { bytes: number; chunked: boolean; token: boolean }) {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: service.url, accept: 'application/json, text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${service.token}`;
  const body = options.chunked ? streamed(options.bytes) : new Uint8Array(options.bytes).fill(0x78);
  const res = await fetch(`${service.url}${path}`, { method: method.toUpperCase(), headers, body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  return { status: res.status, connection: res.headers.get('connection'), text };
}

function expectRefused(result: Awaited<ReturnType<typeof send>>, label: string, limit: number, path: string) {
  expect(result.status, `${label}: ${result.text.slice(0, 300)}`).toBe(413);
  expect(result.connection, label).toBe('close');
  const problem = JSON.parse(result.text) as { code: string; detail: string; limit: number; setting: string | null };
  expect(problem.code, label).toBe('payload_too_large');
  expect(problem.limit, label).toBe(limit);
  expect(problem.setting, label).toBe(limit === ANONYMOUS_LIMIT || path.startsWith('/hooks/') ? null : limit === JSON_LIMIT ? 'MAX_JSON_BODY_BYTES' : 'MAX_UPLOAD_BYTES');
  expect(problem.detail, label).toContain(`exceeds ${limit} bytes, the limit for ${path}`);
}

/** `{id}`, `{key}`, … filled with ids no project has. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'dummy1');

describe('body limits', () => {
  it('states the limit of every operation that takes a body, and documents its 413', () => {
    const operations = bodyOperations();
    expect(operations.length).toBeGreaterThan(30);
    expect(doc.components.responses.PayloadTooLarge?.content).toHaveProperty(['application/problem+json']);
    for (const { method, path, operation } of operations) {
      const label = `${method.toUpperCase()} ${path}`;
      expect(operation['x-body-limit'], label).toBe(expectedLimit(path));
      // The shared response, or the operation's own 413 (POST /v1/push adds archive_too_large), which must name the code.
      const declared = operation.responses['413'] as { $ref?: string; description?: string } | undefined;
      if (declared?.$ref === undefined) expect(declared?.description, label).toContain('payload_too_large');
      else expect(declared.$ref, label).toBe('#/components/responses/PayloadTooLarge');
    }
    for (const path of ['/v1/push', '/v1/imports', '/v1/memory/import', '/v1/translations/upload']) {
      expect(doc.paths[path]!.post!.description).toContain(`The request body is limited to ${MAX_UPLOAD_BYTES} bytes (\`MAX_UPLOAD_BYTES\`)`);
    }
    expect(doc.paths['/v1/integrations/{connector}/{id}/file']!.put!.description).toContain(`The request body is limited to ${MAX_UPLOAD_BYTES} bytes (\`MAX_UPLOAD_BYTES\`)`);
    expect(doc.paths['/v1/auth/sign-in']!.post!.description).toContain(`limited to ${ANONYMOUS_LIMIT} bytes before sign-in`);
    expect(doc.info.description).toContain(`limited to ${JSON_LIMIT} bytes`);
  });

  it('every operation, with and without a token, refuses a declared length over its limit with 413', async () => {
    for (const { method, path } of bodyOperations()) {
      const limit = expectedLimit(path);
      for (const token of [false, true]) {
        const result = await send(method, concrete(path), { bytes: limit + 1, chunked: false, token });
        expectRefused(result, `${method.toUpperCase()} ${path} ${token ? 'with' : 'without'} a token, Content-Length ${limit + 1}`, limit, concrete(path));
      }
    }
  }, 120_000);

  it('every operation, with and without a token, refuses a streamed body over its limit with 413', async () => {
    for (const { method, path } of bodyOperations()) {
      const limit = expectedLimit(path);
      for (const token of [false, true]) {
        // Well past the limit: the read must stop at it, whatever the route would have answered (401, 403, 404, 422).
        const result = await send(method, concrete(path), { bytes: limit + 512 * 1024, chunked: true, token });
        expectRefused(result, `${method.toUpperCase()} ${path} ${token ? 'with' : 'without'} a token, chunked`, limit, concrete(path));
      }
    }
  }, 120_000);

  it('/mcp, /hooks and paths no route serves are limited too, before 401, 404 and 405', async () => {
    const others: [string, number][] = [
      ['/mcp', MAX_UPLOAD_BYTES],
      ['/hooks/integrations/dummy1', 1024 * 1024],
      ['/v1/no-such-route', JSON_LIMIT],
      ['/v1/project', JSON_LIMIT],
      ['/healthz', JSON_LIMIT],
      ['/', JSON_LIMIT],
      ['/cdn/dummy1/latest/de.json', JSON_LIMIT],
    ];
    for (const [path, limit] of others) {
      for (const token of [false, true]) {
        for (const chunked of [false, true]) {
          const result = await send('post', path, { bytes: chunked ? limit + 512 * 1024 : limit + 1, chunked, token });
          expectRefused(result, `POST ${path} ${token ? 'with' : 'without'} a token${chunked ? ', chunked' : ''}`, limit, path);
        }
      }
    }
  }, 60_000);

  it('a body within its limit still reaches the route, streamed or not', async () => {
    const term = { term: 'Checkout', translations: { de: 'Kasse' } };
    const declared = await service.api('/v1/glossary', { method: 'POST', json: term });
    expect(declared.status, await declared.clone().text()).toBe(201);

    const bytes = new TextEncoder().encode(JSON.stringify({ ...term, term: 'Basket' }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 5));
        controller.enqueue(bytes.subarray(5));
        controller.close();
      },
    });
    const chunked = await service.api('/v1/glossary', { method: 'POST', body, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
    expect(chunked.status, await chunked.clone().text()).toBe(201);
    expect(chunked.headers.get('connection')).not.toBe('close');

    // A route that reads no body, sent a small one in chunks: the route's own answer.
    const ignored = await service.api('/v1/batches/dummy1/cancel', { method: 'POST', body: streamed(1000), duplex: 'half' } as RequestInit);
    expect(ignored.status).toBe(404);
  });
});
