/**
 * The translation provider the soak's workers call: OpenAI's chat-completions wire format (as test/helpers/mock-openai.ts
 * speaks it), with a fault mode switched on for a while (429 with Retry-After, or 500/503), and keys named `*fragile*`
 * answered without their placeholders so the gates refuse them and reviewers have held candidates to approve.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LlmMode = 'ok' | 'rate_limited' | 'server_error';

interface ChatRow {
  id: string;
  text: string;
  key: string;
}

export interface LlmMock {
  url: string;
  mode: LlmMode;
  delayMs: number;
  answered: Record<string, number>;
  close(): Promise<void>;
}

/** What the mock writes for a row: recognisable, placeholders kept (unless the key is fragile). */
function translate(row: ChatRow, locale: string): string {
  const parts = row.text.split(/(<ph id="\d+"\/>)/);
  if (row.key.includes('fragile')) return `${locale}: ${parts.filter((_, i) => i % 2 === 0).join('').toUpperCase()}`;
  return `${locale}: ${parts.map((part, i) => (i % 2 === 1 ? part : part.toUpperCase())).join('')}`;
}

export async function startLlmMock(options: { delayMs: number }): Promise<LlmMock> {
  const mock: LlmMock = { url: '', mode: 'ok', delayMs: options.delayMs, answered: {}, close: async () => undefined };
  const count = (what: string) => (mock.answered[what] = (mock.answered[what] ?? 0) + 1);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, mock.delayMs));
    if (mock.mode === 'rate_limited') {
      count('429');
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }));
      return;
    }
    if (mock.mode === 'server_error') {
      const status = count('5xx') % 2 === 0 ? 500 : 503;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; messages: { role: string; content: string }[] };
    const user = JSON.parse(body.messages.find((m) => m.role === 'user')!.content) as { target_locale: string; rows: ChatRow[] };
    count('200');
    const content = JSON.stringify({ translations: user.rows.map((row) => ({ id: row.id, text: translate(row, user.target_locale) })) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-soak`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  mock.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return mock;
}
