/**
 * Provider benchmark: 2,000 keys × 3 locales through the OpenAI-compatible provider, with the default settings,
 * against a local mock of the chat-completions API that answers every request after a fixed latency (500 ms, a hosted
 * model's). Four runs, each on a service of its own:
 * - cold: the first translation of every key;
 * - cold against a rate limit: the mock answers 429 with Retry-After to any request beyond 8 in flight;
 * - warm: 25 keys changed, then pushed again;
 * - no-op: the same file again.
 * Each prints provider calls, the most requests in flight and the wall time beside the floor for that work:
 * calls × latency ÷ in flight (the default start of 16, or the mock's limit of 8). Asserts nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { withBenchService } from './bench-service.js';

const KEYS = Number(process.env.BENCH_PROVIDER_KEYS ?? 2000);
const LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 500);
const RATE_LIMIT_IN_FLIGHT = 8;
/** The service's default starting point (PROVIDER_CONCURRENCY), for the cold run's floor. */
const DEFAULT_IN_FLIGHT = 16;

/** UI strings repeat: one key in five reuses an earlier text ("Save", "Cancel"), as real files do. */
function sourceFile(keys: number, changed = 0): string {
  const entries: string[] = [];
  for (let i = 0; i < keys; i++) {
    const text = i % 5 === 4 ? `Common action ${i % 40}` : `Item ${i}: {count} new messages from %s in <b>your inbox</b>`;
    entries.push(`  "screen${Math.floor(i / 50)}.item${i}": "${i < changed * 5 && i % 5 === 0 ? `${text} (new)` : text}"`);
  }
  return `{\n${entries.join(',\n')}\n}\n`;
}

/** Upper-cases the text around `<ph id="N"/>` tokens, which come back as they were sent. */
const translate = (text: string): string => text.split(/(<ph id="\d+"\/>)/).map((part, i) => (i % 2 === 1 ? part : part.toUpperCase())).join('');

/** A chat-completions endpoint that translates by upper-casing after `LATENCY_MS`; with `limitInFlight`, a 429 beyond it. */
async function startMock(limitInFlight?: number) {
  const stats = { calls: 0, rows: 0, inFlight: 0, mostInFlight: 0, refused: 0, busyMs: 0, idleGaps: 0 };
  // Time-weighted requests in flight: busyMs / wall is the average the provider saw.
  let last = performance.now();
  const account = () => {
    const t = performance.now();
    stats.busyMs += stats.inFlight * (t - last);
    last = t;
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (part: Buffer) => (body += part.toString()));
    req.on('end', () => {
      if (limitInFlight !== undefined && stats.inFlight >= limitInFlight) {
        stats.refused += 1;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': String(LATENCY_MS / 2) });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }));
        return;
      }
      stats.calls += 1;
      account();
      stats.inFlight += 1;
      stats.mostInFlight = Math.max(stats.mostInFlight, stats.inFlight);
      const user = JSON.parse(JSON.parse(body).messages[1].content) as { rows: { id: string; text: string }[] };
      stats.rows += user.rows.length;
      const content = JSON.stringify({ translations: user.rows.map((r) => ({ id: r.id, text: translate(r.text) })) });
      setTimeout(() => {
        account();
        stats.inFlight -= 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `chatcmpl-${stats.calls}`, object: 'chat.completion', model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      }, LATENCY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const reset = () => {
    account();
    Object.assign(stats, { calls: 0, rows: 0, mostInFlight: 0, refused: 0, busyMs: 0 });
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, stats, reset, close: () => server.close() };
}

interface Run {
  wall: number;
  rows: number;
  failed: number;
}

async function push(url: string, headers: Record<string, string>, file: string): Promise<Run> {
  const form = new FormData();
  form.set('file', new Blob([file]), 'en.json');
  form.set('format', 'json');
  form.set('path', 'locales/en.json');
  const started = performance.now();
  const res = await fetch(`${url}/v1/push`, { method: 'POST', headers, body: form });
  if (res.status !== 202) throw new Error(`push: ${res.status} ${await res.text()}`);
  const batch = (await res.json()) as { id: string; status: string; rows: { total: number } };
  for (;;) {
    // Held by the service until the batch ends, up to 60 s a request.
    const body = (await (await fetch(`${url}/v1/batches/${batch.id}?limit=1&wait=60`, { headers })).json()) as { status: string; rows: { total: number; failed: number } };
    if (body.status === 'completed') return { wall: performance.now() - started, rows: body.rows.total, failed: body.rows.failed };
    if (body.status === 'failed' || body.status === 'cancelled') throw new Error(`batch ${body.status}`);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function report(title: string, run: Run, stats: { calls: number; rows: number; mostInFlight: number; refused: number; busyMs: number }, inFlight: number) {
  const floor = (stats.calls * LATENCY_MS) / inFlight;
  console.log(`\n${title}: ${run.rows} rows, ${run.failed} failed`);
  console.log(`  provider calls             ${String(stats.calls).padStart(8)}   ${stats.rows} rows sent, ${(stats.rows / Math.max(1, stats.calls)).toFixed(1)} a call${stats.refused ? `; ${stats.refused} refused with 429` : ''}`);
  console.log(`  requests in flight (most)  ${String(stats.mostInFlight).padStart(8)}   on average ${(stats.busyMs / run.wall).toFixed(1)} over the run`);
  console.log(
    `  wall time (push → done)    ${seconds(run.wall).padStart(8)}   floor ${seconds(floor)} (${stats.calls} calls × ${LATENCY_MS} ms / ${inFlight} in flight)${floor > 0 ? `, ratio ${(run.wall / floor).toFixed(2)}×` : ''}`,
  );
}

console.log(`provider: ${KEYS} keys × 3 locales through openai (default settings) against a mock answering in ${LATENCY_MS} ms`);
for (const limited of [false, true]) {
  const mock = await startMock(limited ? RATE_LIMIT_IN_FLIGHT : undefined);
  try {
    const env = { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-bench', SWEEP_INTERVAL_MS: '1000' };
    await withBenchService('embedded', { env }, async ({ url, headers }) => {
      mock.reset();
      const cold = await push(url, headers, sourceFile(KEYS));
      report(limited ? `cold, the mock refusing beyond ${RATE_LIMIT_IN_FLIGHT} in flight` : 'cold', cold, mock.stats, limited ? RATE_LIMIT_IN_FLIGHT : DEFAULT_IN_FLIGHT);
      if (limited) return;
      mock.reset();
      const warm = await push(url, headers, sourceFile(KEYS, 25));
      report('warm: 25 keys changed', warm, mock.stats, DEFAULT_IN_FLIGHT);
      mock.reset();
      const noop = await push(url, headers, sourceFile(KEYS, 25));
      report('no-op: the same file again', noop, mock.stats, DEFAULT_IN_FLIGHT);
    });
  } finally {
    mock.close();
  }
}
