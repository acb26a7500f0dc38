/**
 * `parlance status`, `parlance retry` and push --wait when batches fail, run as the real binary against an in-process
 * service whose provider is the OpenAI wire mock behind a TCP front that can go away (ECONNREFUSED) and come back:
 * the failed rows' reasons grouped with the retry command, the retry, `status --wait` over every batch of a push,
 * and the per-locale progress table.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../src/client/types.js';
import { batchesToFollow } from '../../src/cli/commands/status.js';
import { failedRowReason } from '../../src/sync/settle-batch.js';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { runProcess, type Run } from '../helpers/process.js';
import { startService, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');

const CONFIG = `locales: [de, fr]
files:
  - source: locales/en/*.json
    translation: locales/{locale}/{name}.json
`;

/** The provider's address as the service knows it: a TCP front to the mock that can stop listening and listen again on the same port. */
interface Front {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

async function startFront(target: number): Promise<Front> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((socket) => {
        const upstream = connect(target, '127.0.0.1');
        for (const s of [socket, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => (s === socket ? upstream : socket).destroy());
        }
        socket.pipe(upstream).pipe(socket);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = async () => {
    if (!server) return;
    const closing = server;
    server = undefined;
    // Kept-alive connections go too: the next request must meet a closed port, not a connection still open.
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    down,
    up: () => (server ? Promise.resolve() : listen()),
    close: down,
  };
}

let mock: MockOpenAI;
let front: Front;
let service: TestService;
const scratch: string[] = [];

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'parlance-status-'));
  scratch.push(dir);
  for (const [path, content] of Object.entries({ 'parlance.yml': CONFIG, ...files })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function parlance(args: string[], cwd: string, token = service.token): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, PARLANCE_URL: service.url, PARLANCE_TOKEN: token } });
}

function json<T>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

interface LocaleProgressDoc {
  locale: string;
  keys: number;
  translated: number;
  machine: number;
  human: number;
  held: number;
  flagged: number;
  missing: number;
}

beforeAll(async () => {
  mock = await startMockOpenAI();
  front = await startFront(Number(new URL(mock.url).port));
  service = await startService({
    env: {
      TRANSLATION_PROVIDER: 'openai',
      OPENAI_BASE_URL: `http://127.0.0.1:${front.port}/v1`,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'mock-fast',
      // One attempt per request: an unreachable provider fails the rows at once instead of after backoff.
      PROVIDER_MAX_RETRIES: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
});

afterAll(async () => {
  await service?.stop();
  await front?.close();
  await mock?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('a batch whose provider is unreachable', () => {
  let dir: string;
  let batchId: string;

  it('push --wait exits 3 and says why the rows failed, grouped, ending with the retry command', async () => {
    dir = repo({ 'locales/en/app.json': JSON.stringify({ title: 'My shop', cart: 'Cart', checkout: 'Check out' }, null, 2) });
    await front.down();
    const push = await parlance(['push', '--wait'], dir);
    expect(push.code, push.stderr).toBe(3);
    batchId = /batch (bat_\w+)/.exec(push.stdout)![1]!;
    // 3 keys × 2 locales, all for one reason: one line, not six, and not the service's "POST …/retry" hint.
    const lines = push.stderr.split('\n').filter((line) => line.includes('failed:'));
    expect(lines).toEqual([
      `locales/en/app.json: batch ${batchId} failed: provider unreachable: connect ECONNREFUSED 127.0.0.1:${front.port}, 6 rows; queue them again: parlance retry ${batchId}`,
    ]);
    expect(push.stderr).not.toContain('POST /v1/batches');
  });

  it('status names the same reason and shows every locale missing', async () => {
    const status = await parlance(['status', batchId], dir);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`Batch ${batchId} failed locales/en/app.json (json)`);
    expect(status.stderr).toMatch(new RegExp(`failed: provider unreachable: connect ECONNREFUSED [^,]+, 6 rows; queue them again: parlance retry ${batchId}$`, 'm'));
    expect(status.stdout).toMatch(/^ {2}de +0 +0 +0 +0 +0 +3 +0%$/m);

    const doc = json<{ batch: { status: string }; failures: { reason: string; rows: number }[] }>(await parlance(['status', batchId, '--json'], dir));
    expect(doc.batch.status).toBe('failed');
    expect(doc.failures).toEqual([{ reason: `provider unreachable: connect ECONNREFUSED 127.0.0.1:${front.port}`, rows: 6 }]);
  });

  it('retry --wait translates the failed rows once the provider is back; status prints the progress table', async () => {
    await front.up();
    const requestsBefore = mock.requests;
    const retry = await parlance(['retry', batchId, '--wait'], dir);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stdout).toContain(`Batch ${batchId}: 6 rows queued again`);
    expect(retry.stdout).toContain(`Batch ${batchId} completed locales/en/app.json`);
    expect(retry.stdout).toContain('6 translated');
    expect(mock.requests).toBeGreaterThan(requestsBefore);

    // A completed batch is not retried again: the service's 409 is the exit-1 error naming the batch.
    const again = await parlance(['retry', batchId], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`batch ${batchId}: 409 batch_not_retryable`);

    // A person's translation counts as human, the rest as machine.
    const put = await service.api('/v1/translations/title/de?path=locales%2Fen%2Fapp.json', { method: 'PUT', json: { text: 'Mein Laden' } });
    expect(put.status, await put.text()).toBe(200);
    const status = await parlance(['status'], dir);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Progress (3 keys)');
    expect(status.stdout).toMatch(/^ {2}locale +translated +machine +human +held +flagged +missing +done$/m);
    expect(status.stdout).toMatch(/^ {2}de +3 +2 +1 +0 +0 +0 +100%$/m);
    expect(status.stdout).toMatch(/^ {2}fr +3 +3 +0 +0 +0 +0 +100%$/m);
    // The project's other target (ja) has nothing yet.
    expect(status.stdout).toMatch(/^ {2}ja +0 +0 +0 +0 +0 +3 +0%$/m);

    const doc = json<{ progress: { keys: number; locales: LocaleProgressDoc[] } }>(await parlance(['status', '--json'], dir));
    expect(doc.progress.keys).toBe(3);
    expect(doc.progress.locales.find((locale) => locale.locale === 'de')).toEqual({ locale: 'de', keys: 3, translated: 3, machine: 2, human: 1, held: 0, flagged: 0, missing: 0 });
  });
});

describe('status --wait after a two-file push', () => {
  it('follows both batches to their end, names each, and exits 4 for the refused key in one of them', async () => {
    // A project of its own, so the batches of the tests above are not part of this push.
    const project = await service.runtime.organisations.createProject({ organisationId: service.organisationId, name: 'Two files', sourceLocale: 'en', targetLocales: ['de', 'fr'] });
    const token = await service.mintToken({ projectId: project.id });
    const dir = repo({
      'locales/en/a.json': JSON.stringify({ hello: 'Hello' }, null, 2),
      'locales/en/b.json': JSON.stringify({ bye: 'Bye', remove: 'Delete {file}?' }, null, 2),
    });
    // The placeholder gate refuses `remove` in German, on the first answer and on the corrective retry.
    mock.script = (row, { locale }) => (row.key === 'remove' && locale === 'de' ? mockTranslate(row.text, locale).replace(/<ph id="0"\/>/, '{datei}') : undefined);
    // Held at the provider, both batches are still open when status starts.
    mock.hold();
    try {
      const push = await parlance(['push', '--json'], dir, token);
      expect(push.code, push.stderr).toBe(0);
      const ids = json<{ files: { path: string; batch: { id: string } }[] }>(push).files.map((file) => file.batch.id);
      expect(ids).toHaveLength(2);

      const status = await new Promise<Run>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'status', '--wait'], { cwd: dir, env: { ...process.env, PARLANCE_URL: service.url, PARLANCE_TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 45_000 });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          // The provider answers once status has listed what it follows.
          if (stderr.includes('Following 2 batches')) mock.release();
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      expect(status.code, status.stderr).toBe(4);
      expect(status.stderr).toContain(`Following 2 batches: ${ids[0]} (locales/en/a.json), ${ids[1]} (locales/en/b.json)`);
      expect(status.stdout).toContain(`Batch ${ids[0]} completed locales/en/a.json`);
      expect(status.stdout).toContain(`Batch ${ids[1]} completed locales/en/b.json`);
      expect(status.stderr).toMatch(/locales\/en\/b\.json(:\d+)?: key 'remove' \(de\) refused: /);
      expect(status.stdout).toContain(`2 batches: ${ids[0]} (locales/en/a.json) completed; ${ids[1]} (locales/en/b.json) completed, 1 refused row`);
      expect(status.stdout).toMatch(/^ {2}de +2 +2 +0 +1 +0 +0 +66%$/m);

      // Once they ended, status --wait still reports the last push (not only the newest batch), so the exit stays 4.
      const after = await parlance(['status', '--wait', '--json'], dir, token);
      expect(after.code, after.stderr).toBe(4);
      expect(json<{ batches: { batch: { id: string } }[] }>(after).batches.map((report) => report.batch.id)).toEqual(ids);
    } finally {
      mock.release();
      mock.script = undefined;
    }
  });
});

describe('the pieces status is made of', () => {
  it('a failed row reason reads as what happened at the provider', () => {
    expect(failedRowReason('provider_error: openai:gpt-4o-mini: network error: connect ECONNREFUSED 127.0.0.1:11434 (gave up after 4 attempts)')).toBe(
      'provider unreachable: connect ECONNREFUSED 127.0.0.1:11434',
    );
    expect(failedRowReason('provider_error: deepl: request timed out after 60000 ms (gave up after 4 attempts)')).toBe('provider timed out: no answer from deepl within 60000 ms');
    expect(failedRowReason('provider_error: openai:gpt-4o-mini: HTTP 401: invalid_request_error: Incorrect API key')).toBe(
      'provider error: openai:gpt-4o-mini: HTTP 401: invalid_request_error: Incorrect API key',
    );
    expect(failedRowReason(null)).toBe('no reason recorded');
    expect(failedRowReason('something else')).toBe('something else');
  });

  it('the last push is the newest batch and those queued just before it, one per file, plus every open batch', () => {
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString();
    const batch = (id: string, path: string | null, seconds: number, status: Batch['status'] = 'completed') => ({ id, path, created_at: at(seconds), status }) as Batch;
    // Newest first, as the service lists them: c and b pushed together; a's file again, so a earlier push; z long before.
    const recent = [batch('c', 'c.json', 50), batch('b', 'b.json', 48), batch('a2', 'c.json', 47), batch('a', 'a.json', 46), batch('z', 'z.json', 0)];
    expect(batchesToFollow(recent, []).map((b) => b.id)).toEqual(['b', 'c']);
    // More than the gap between two batches ends the push too; an open batch is followed whenever it was queued.
    const apart = [batch('c', 'c.json', 50), batch('b', 'b.json', 30), batch('z', 'z.json', 0, 'queued')];
    expect(batchesToFollow(apart, [apart[2]!]).map((b) => b.id)).toEqual(['z', 'c']);
    expect(batchesToFollow([], [])).toEqual([]);
  });
});
