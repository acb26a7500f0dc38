/**
 * Provider benchmark: 2,000 keys × 3 locales through the OpenAI-compatible provider against a local mock of the
 * chat-completions API that answers every request after a fixed 200 ms, as a hosted model's latency. Prints provider
 * calls and wall time beside the floor (every request's latency, spread over the requests in flight); asserts nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { withBenchService } from './bench-service.js';

const KEYS = Number(process.env.BENCH_PROVIDER_KEYS ?? 2000);
const LATENCY_MS = 200;
const ROWS = Number(process.env.PROVIDER_BATCH_ROWS ?? 40);
const CONCURRENCY = Number(process.env.PROVIDER_CONCURRENCY ?? 4);

/** UI strings repeat: one key in five reuses an earlier text ("Save", "Cancel"), as real files do. */
function sourceFile(keys: number): string {
  const entries: string[] = [];
  for (let i = 0; i < keys; i++) {
    const text = i % 5 === 4 ? `Common action ${i % 40}` : `Item ${i}: {count} new messages from %s in <b>your inbox</b>`;
    entries.push(`  "screen${Math.floor(i / 50)}.item${i}": "${text}"`);
  }
  return `{\n${entries.join(',\n')}\n}\n`;
}

/** Upper-cases the text around `<ph id="N"/>` tokens, which come back as they were sent. */
const translate = (text: string): string => text.split(/(<ph id="\d+"\/>)/).map((part, i) => (i % 2 === 1 ? part : part.toUpperCase())).join('');

/** A chat-completions endpoint that translates by upper-casing, after LATENCY_MS, counting calls and rows. */
async function startMock() {
  const stats = { calls: 0, rows: 0, inFlight: 0, mostInFlight: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (part: Buffer) => (body += part.toString()));
    req.on('end', () => {
      stats.calls += 1;
      stats.inFlight += 1;
      stats.mostInFlight = Math.max(stats.mostInFlight, stats.inFlight);
      const user = JSON.parse(JSON.parse(body).messages[1].content) as { rows: { id: string; text: string }[] };
      stats.rows += user.rows.length;
      const content = JSON.stringify({ translations: user.rows.map((r) => ({ id: r.id, text: translate(r.text) })) });
      setTimeout(() => {
        stats.inFlight -= 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `chatcmpl-${stats.calls}`, object: 'chat.completion', model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      }, LATENCY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, stats, close: () => server.close() };
}

const mock = await startMock();
try {
  const env = { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-bench', SWEEP_INTERVAL_MS: '1000' };
  await withBenchService('embedded', { env }, async ({ url, headers }) => {
    const form = new FormData();
    form.set('file', new Blob([sourceFile(KEYS)]), 'en.json');
    form.set('format', 'json');
    form.set('path', 'locales/en.json');
    const started = performance.now();
    const res = await fetch(`${url}/v1/push`, { method: 'POST', headers, body: form });
    if (res.status !== 202) throw new Error(`push: ${res.status} ${await res.text()}`);
    const batch = (await res.json()) as { id: string; rows: { total: number } };
    for (;;) {
      // Held by the service until the batch ends, up to 60 s a request.
      const body = (await (await fetch(`${url}/v1/batches/${batch.id}?limit=1&wait=60`, { headers })).json()) as { status: string };
      if (body.status === 'completed') break;
      if (body.status === 'failed' || body.status === 'cancelled') throw new Error(`batch ${body.status}`);
    }
    const wall = performance.now() - started;
    const sequentialCalls = Math.ceil(batch.rows.total / ROWS);
    const floor = Math.ceil(mock.stats.calls / CONCURRENCY) * LATENCY_MS;
    console.log(`\nprovider: ${KEYS} keys × 3 locales (${batch.rows.total} rows) through openai against a mock answering in ${LATENCY_MS} ms`);
    console.log(`  provider calls             ${String(mock.stats.calls).padStart(8)}   ${mock.stats.rows} rows sent (one request per ${ROWS} rows, every row, would be ${sequentialCalls})`);
    console.log(`  requests in flight (most)  ${String(mock.stats.mostInFlight).padStart(8)}   PROVIDER_CONCURRENCY=${CONCURRENCY} per provider in the worker`);
    console.log(`  wall time (push → done)    ${`${(wall / 1000).toFixed(2)} s`.padStart(8)}   floor ${(floor / 1000).toFixed(2)} s (${mock.stats.calls} calls × ${LATENCY_MS} ms / ${CONCURRENCY} in flight), ratio ${(wall / floor).toFixed(1)}×`);
  });
} finally {
  mock.close();
}
