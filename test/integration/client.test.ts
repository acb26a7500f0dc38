/** The typed /v1 client against the real service (every method once), and against a scripted server for retries, errors and exit codes. */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, BatchWaitTimeoutError, EXIT, NetworkError, createClient, exitCodeFor, retryAfterSeconds, type ClientOptions, type ParlanceClient } from '../../src/client/client.js';
import { ConfigFileError } from '../../src/project-config/config-file-error.js';
import { getCodec } from '../../src/core/formats/index.js';
import { startService, type TestService } from '../helpers/service.js';

const ANDROID_SOURCE = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="cart_title">Your cart</string>
    <string name="checkout">Check out</string>
    <plurals name="items">
        <item quantity="one">%d item</item>
        <item quantity="other">%d items</item>
    </plurals>
</resources>
`;
const ANDROID_PATH = 'app/src/main/res/values/strings.xml';

let service: TestService;
let client: ParlanceClient;
const retries: Parameters<NonNullable<ClientOptions['onRetry']>>[0][] = [];

beforeAll(async () => {
  // The test makes more calls than the default 60 a minute; the rate limit has its own service below.
  service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  client = createClient({ baseUrl: service.url, token: service.token, onRetry: (info) => retries.push(info) });
});
afterAll(async () => {
  await service?.stop();
});

describe('every client method against the service', () => {
  let batchId: string;

  it('reads the project and manages its languages', async () => {
    const project = await client.project();
    expect(project).toMatchObject({ source_locale: 'en', target_locales: ['de', 'fr', 'ja'], organisation: { plan: 'starter' } });
    expect((await client.languages()).map((l) => [l.tag, l.role])).toEqual([
      ['en', 'source'],
      ['de', 'target'],
      ['fr', 'target'],
      ['ja', 'target'],
    ]);
    expect(await client.addLanguage('pt-br')).toMatchObject({ tag: 'pt-BR', role: 'target' });
    expect((await client.languages()).map((l) => l.tag)).toContain('pt-BR');
    expect(await client.removeLanguage('pt-BR')).toMatchObject({ tag: 'pt-BR' });
    expect((await client.languages()).map((l) => l.tag)).not.toContain('pt-BR');
  });

  it('pushes a file, waits for its batch, reads it, and lists the files the service holds', async () => {
    const content = new TextEncoder().encode(ANDROID_SOURCE);
    const batch = await client.pushFile({ path: ANDROID_PATH, content, format: 'android_xml', locales: ['de', 'fr'], careful: ['checkout'], idempotencyKey: 'client-test-1' });
    batchId = batch.id;
    expect(batch).toMatchObject({ path: ANDROID_PATH, format: 'android_xml', keys: { added: 3 } });
    // The same key replays the first answer instead of queuing a second batch.
    expect((await client.pushFile({ path: ANDROID_PATH, content, format: 'android_xml', locales: ['de', 'fr'], careful: ['checkout'], idempotencyKey: 'client-test-1' })).id).toBe(batch.id);

    const seen: string[] = [];
    const done = await client.waitForBatch(batch.id, { intervalMs: 100, timeoutMs: 30_000, onProgress: (b) => seen.push(b.status) });
    expect(done.status).toBe('completed');
    expect(done).not.toHaveProperty('row_outcomes');
    expect(seen.at(-1)).toBe('completed');

    const withRows = await client.batch(batch.id);
    expect(withRows.row_outcomes.items).toHaveLength(6);
    expect(withRows.row_outcomes.items.find((r) => r.key === 'checkout')?.pass).toBe('careful');
    expect((await client.batches({ limit: 5 })).map((b) => b.id)).toContain(batch.id);
    expect((await client.batches({ status: 'failed' })).map((b) => b.id)).not.toContain(batch.id);

    const files = await client.files();
    const sha256 = createHash('sha256').update(content).digest('hex');
    expect(files).toContainEqual(expect.objectContaining({ path: ANDROID_PATH, format: 'android_xml', sha256, keys: 3 }));
  });

  it('reads every page of rows of a large batch', async () => {
    const keys = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${String(i).padStart(3, '0')}`, `Word ${i}`]));
    const batch = await client.pushFile({ path: 'locales/en.json', content: new TextEncoder().encode(JSON.stringify(keys, null, 2)) });
    expect(batch.format).toBe('json');
    await client.waitForBatch(batch.id, { intervalMs: 200 });
    const rows = await client.batchRows(batch.id);
    // 300 keys in three target locales: two pages of at most 500.
    expect(rows).toHaveLength(900);
    expect(new Set(rows.map((r) => `${r.key}/${r.locale}`)).size).toBe(900);
    expect((await client.batch(batch.id)).row_outcomes.items).toHaveLength(500);
    expect(await client.batchRows(batch.id, { outcome: 'failed' })).toEqual([]);
  });

  it('pulls a locale, naming the keys the format cannot hold', async () => {
    const pulled = await client.pull({ path: ANDROID_PATH, locale: 'de' });
    expect(pulled.format).toBe('android_xml');
    expect(pulled.refused).toEqual({ count: 0, keys: [], reasons: [] });
    const entries = getCodec('android_xml')!.parse(pulled.body);
    expect(entries.map((e) => e.key).sort()).toEqual(['cart_title', 'checkout', 'items']);

    const properties = await client.pull({ path: ANDROID_PATH, locale: 'de', format: 'properties', missing: 'source' });
    expect(properties.format).toBe('properties');
    expect(properties.refused).toEqual({ count: 1, keys: ['items'], reasons: ['format_cannot_express_plural'] });
    expect(new TextDecoder().decode(properties.body)).toContain('cart_title');
  });

  it('runs QA, lists translations and reviews one', async () => {
    const run = await client.qaRun({ locales: ['de'], path: ANDROID_PATH, include_passed: true });
    expect(run.checked).toBe(3);
    expect(run.items.map((i) => i.key).sort()).toEqual(['cart_title', 'checkout', 'items']);

    const rows = await client.translations({ locale: 'de', path: ANDROID_PATH });
    expect(rows.map((r) => r.key).sort()).toEqual(['cart_title', 'checkout', 'items']);
    expect(await client.translations({ locale: 'de', limit: 2 })).toHaveLength(2);
    expect(await client.translations({ state: 'held' })).toEqual([]);

    const reviewed = await client.review({ key: 'cart_title', locale: 'de', decision: 'approve', path: ANDROID_PATH });
    expect(reviewed).toMatchObject({ decision: 'approve', translation: { key: 'cart_title', locale: 'de', state: 'approved' } });
    expect((await client.translations({ state: 'approved' })).map((r) => r.key)).toEqual(['cart_title']);
  });

  it('adds, lists and removes glossary terms', async () => {
    const term = await client.addGlossaryTerm({ term: 'Cart', translations: { de: 'Warenkorb' }, case_sensitive: true, notes: 'shop' });
    expect(term).toMatchObject({ term: 'Cart', translations: { de: 'Warenkorb' }, case_sensitive: true, forbidden: false, notes: 'shop' });
    expect((await client.glossary()).map((t) => t.id)).toContain(term.id);
    expect((await client.removeGlossaryTerm(term.id)).id).toBe(term.id);
    expect((await client.glossary()).map((t) => t.id)).not.toContain(term.id);
  });

  it('mints, lists and revokes tokens; the secret works until revoked', async () => {
    const minted = await client.createToken({ name: 'ci', abilities: ['read'], expires_in_days: 7 });
    expect(minted.secret).toMatch(/^prl_/);
    expect(minted).toMatchObject({ name: 'ci', abilities: ['read'] });
    expect((await client.tokens()).map((t) => t.id)).toContain(minted.id);
    const readOnly = createClient({ baseUrl: service.url, token: minted.secret });
    expect((await readOnly.project()).id).toBe((await client.project()).id);

    expect((await client.revokeToken(minted.id)).revoked_at).not.toBeNull();
    const refused = await readOnly.project().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 401, code: 'token_revoked' });
    expect(String(refused)).not.toContain(minted.secret);
  });

  it('made no retries against a healthy service', () => {
    expect(batchId).toBeTruthy();
    expect(retries).toEqual([]);
  });
});

describe('errors from the service and their exit codes', () => {
  it('401 and 403 exit 2, other 4xx exit 1; messages name the request, status and code, never the token', async () => {
    const stranger = `prl_${'A'.repeat(38)}`;
    const unauthenticated = await createClient({ baseUrl: service.url, token: stranger }).project().catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(ApiError);
    expect((unauthenticated as ApiError).status).toBe(401);
    expect(exitCodeFor(unauthenticated)).toBe(EXIT.auth);

    const readToken = await service.mintToken({ abilities: ['read'] });
    const forbidden = await createClient({ baseUrl: service.url, token: readToken }).addLanguage('it').catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ status: 403, code: 'ability_missing' });
    expect((forbidden as ApiError).message).toMatch(/^POST \/v1\/languages: 403 ability_missing: /);
    expect(exitCodeFor(forbidden)).toBe(EXIT.auth);

    const missing = await client.batch('b_missing').catch((e: unknown) => e);
    expect((missing as ApiError).message).toMatch(/^GET \/v1\/batches\/b_missing\?limit=500: 404 batch_not_found: /);
    expect(exitCodeFor(missing)).toBe(EXIT.usage);

    const invalid = await client.addLanguage('english').catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 422, code: 'locale_invalid' });
    expect((invalid as ApiError).detail).toContain("'english'");
    expect(exitCodeFor(invalid)).toBe(EXIT.usage);

    for (const [error, token] of [
      [unauthenticated, stranger],
      [forbidden, readToken],
      [missing, service.token],
      [invalid, service.token],
    ] as const) {
      expect(String(error)).not.toContain(token);
      expect(JSON.stringify((error as ApiError).body)).not.toContain(token);
    }
  });

  it('throws a 429 whose Retry-After is beyond maxWaitMs without waiting (exit 3)', async () => {
    const limited = await startService({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
    try {
      const seen: unknown[] = [];
      const tight = createClient({ baseUrl: limited.url, token: limited.token, maxWaitMs: 50, onRetry: (info) => seen.push(info) });
      let error: unknown;
      const started = Date.now();
      // Two calls can straddle a minute boundary; three cannot all fit in one-per-window.
      for (let i = 0; i < 3 && !error; i++) error = await tight.project().then(() => undefined, (e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
      expect((error as ApiError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(seen).toEqual([]);
      expect(exitCodeFor(error)).toBe(EXIT.service);
    } finally {
      await limited.stop();
    }
  });
});

// ---- A scripted server: the answers a real service, proxy or network gives only rarely ----------------------------

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Scripted {
  url: string;
  /** Answers in order; the last one repeats. */
  script(...handlers: Handler[]): void;
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

async function scriptedServer(): Promise<Scripted> {
  let handlers: Handler[] = [];
  const requests: Scripted['requests'] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0]!;
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(...next) {
      handlers = next;
      requests.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const problem =
  (status: number, code: string, detail: string, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
    res.end(JSON.stringify({ type: `https://parlance.dev/problems/${code}`, title: 'x', status, code, detail, instance: '/' }));
  };
const ok =
  (body: unknown, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

const TOKEN = `prl_${'s3cr3t'.repeat(6)}xy`;

describe('retries and errors against a scripted server', () => {
  let fake: Scripted;
  let seen: Parameters<NonNullable<ClientOptions['onRetry']>>[0][];
  const make = (options: Partial<ClientOptions> = {}) => {
    seen = [];
    return createClient({ baseUrl: `${fake.url}/`, token: TOKEN, onRetry: (info) => seen.push(info), ...options });
  };

  beforeAll(async () => {
    fake = await scriptedServer();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('waits Retry-After on a 429 and sends the request again', async () => {
    fake.script(problem(429, 'rate_limited', 'Rate limit of 60 requests per minute exceeded for this token; retry in 1 s.', { 'retry-after': '1' }), ok({ items: [] }));
    const started = Date.now();
    expect(await make().languages()).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toEqual([{ reason: 'rate_limited', waitMs: 1000, attempt: 1, detail: 'Rate limit of 60 requests per minute exceeded for this token; retry in 1 s.' }]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', url: '/v1/languages' });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(fake.requests[0]?.headers['user-agent']).toMatch(/^parlance-cli\/\d+\.\d+\.\d+/);
  });

  it('gives up on 429 after maxRetries, and at once when Retry-After exceeds maxWaitMs', async () => {
    fake.script(problem(429, 'rate_limited', 'slow down', { 'retry-after': '0' }));
    const exhausted = await make({ maxRetries: 2 }).project().catch((e: unknown) => e);
    expect(exhausted).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(fake.requests).toHaveLength(3);
    expect(seen.map((s) => s.attempt)).toEqual([1, 2]);
    expect(exitCodeFor(exhausted)).toBe(EXIT.service);

    fake.script(problem(429, 'rate_limited', 'slow down', { 'retry-after': '120' }));
    const started = Date.now();
    const long = await make().project().catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(long).toMatchObject({ status: 429, retryAfterSeconds: 120 });
    expect(fake.requests).toHaveLength(1);
    expect(seen).toEqual([]);
  });

  it('retries 502/503/504 for reads and keyed pushes, not for other writes', async () => {
    fake.script(problem(503, 'rate_limiter_unavailable', 'Redis is down', { 'retry-after': '0' }), ok({ items: [] }));
    expect(await make().files()).toEqual([]);
    expect(seen).toEqual([{ reason: 'unavailable', waitMs: 0, attempt: 1, detail: '503 Redis is down' }]);

    fake.script((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>'), ok({ id: 'b_1' }, 202));
    const batch = await make().pushFile({ path: 'locales/en.json', content: new TextEncoder().encode('{"a":"b"}'), locales: ['de', 'fr'] });
    expect(batch.id).toBe('b_1');
    expect(fake.requests).toHaveLength(2);
    expect(seen.map((s) => [s.reason, s.waitMs])).toEqual([['unavailable', 500]]);
    const keys = fake.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(fake.requests[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);

    fake.script(problem(503, 'unavailable', 'down'));
    const write = await make().addLanguage('it').catch((e: unknown) => e);
    expect(write).toMatchObject({ status: 503 });
    expect(fake.requests).toHaveLength(1);
    expect(exitCodeFor(write)).toBe(EXIT.service);
  });

  it('reads an answer that is not problem+json as well as it can', async () => {
    fake.script((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>'));
    const error = await make({ maxRetries: 0 }).project().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('GET /v1/project: 502 http_502: <html><body>Bad gateway</body></html>');
    expect(exitCodeFor(error)).toBe(EXIT.service);
  });

  it('maps 402 to exit 5 and 500 to exit 3', async () => {
    fake.script(problem(402, 'allowance_exhausted', 'This push needs 900 words; 12 are left until 2026-01-01.'));
    const allowance = await make().pushFile({ path: 'en.json', content: new Uint8Array([123, 125]) }).catch((e: unknown) => e);
    expect(allowance).toMatchObject({ status: 402, code: 'allowance_exhausted', detail: 'This push needs 900 words; 12 are left until 2026-01-01.' });
    expect(exitCodeFor(allowance)).toBe(EXIT.allowance);

    fake.script(problem(500, 'internal_error', 'Something went wrong on the server; the error was logged.'));
    const internal = await make().project().catch((e: unknown) => e);
    expect(exitCodeFor(internal)).toBe(EXIT.service);
    // A 500 is not retried: the request may have done its work.
    expect(fake.requests).toHaveLength(1);
  });

  it('keeps the token out of errors even when a proxy echoes it back', async () => {
    fake.script((req, res) => res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad header: authorization: ${req.headers.authorization}`));
    const error = await make().project().catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('GET /v1/project: 400 http_400: bad header: authorization: Bearer [token]');
    expect(JSON.stringify((error as ApiError).body)).not.toContain(TOKEN);
  });

  it('stops waiting for a batch after timeoutMs (exit 3)', async () => {
    const running = { id: 'b_9', status: 'running', rows: { total: 10, queued: 6, done: 4, failed: 0, cancelled: 0, outcomes: {} }, row_outcomes: { items: [], next_cursor: null } };
    fake.script(ok(running));
    const error = await make().waitForBatch('b_9', { intervalMs: 50, timeoutMs: 120 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchWaitTimeoutError);
    expect((error as Error).message).toBe('Batch b_9 is still running after 0 s (4 of 10 rows done).');
    expect(fake.requests[0]?.url).toBe('/v1/batches/b_9?limit=1');
    expect(exitCodeFor(error)).toBe(EXIT.service);
  });

  it('does not resend a write whose connection broke after it was sent', async () => {
    fake.script((req) => req.socket.destroy());
    const error = await make().addLanguage('it').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(fake.requests).toHaveLength(1);
    expect(seen).toEqual([]);
  });
});

describe('network errors', () => {
  it('retries a closed port with backoff, then throws NetworkError (exit 3) without the token', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const seen: Parameters<NonNullable<ClientOptions['onRetry']>>[0][] = [];
    const unreachable = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, maxRetries: 2, onRetry: (info) => seen.push(info) });
    const started = Date.now();
    const error = await unreachable.project().catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(new RegExp(`^GET /v1/project: could not reach http://127\\.0\\.0\\.1:${port} after 3 attempts: .*ECONNREFUSED`));
    expect(seen.map((s) => [s.reason, s.waitMs, s.attempt])).toEqual([
      ['network', 500, 1],
      ['network', 1000, 2],
    ]);
    expect(String(error)).not.toContain(TOKEN);
    for (const s of seen) expect(s.detail).not.toContain(TOKEN);
    expect(exitCodeFor(error)).toBe(EXIT.service);

    // A refused connection never reached the service, so even a write may go again.
    const write = await createClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, maxRetries: 1, onRetry: (info) => seen.push(info) }).addLanguage('it').catch((e: unknown) => e);
    expect(write).toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(3);
  });

  it('maps everything else to exit 1', () => {
    expect(exitCodeFor(new Error('bad flag'))).toBe(EXIT.usage);
    expect(exitCodeFor(new ConfigFileError('/repo/parlance.yml', 3, 5, 'parlance.yml:3:5: files[0].translation: ...'))).toBe(EXIT.usage);
    expect(exitCodeFor('a string')).toBe(EXIT.usage);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});
