/** A local server speaking the OpenAI chat-completions wire format, scriptable per test (delay, hold, fail). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRow {
  id: string;
  text: string;
  key: string;
  notes?: string;
  max_length?: number;
  neighbours?: { key: string; text: string }[];
  glossary?: { term: string; translation?: string; forbidden: boolean }[];
  memory?: { source: string; translation: string; score: number }[];
  /** Present on the corrective retry: the rejected answer and the gate failures. */
  correction?: { previous: string; problems: string[] };
}

/** A scripted answer for one row, in place of the default translation; undefined keeps the default. */
export type Script = (row: ChatRow, context: { locale: string; model: string; system: string }) => string | undefined;

export interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface MockOpenAI {
  url: string;
  /** Rows received, in order, across all requests. */
  rows: ChatRow[];
  requests: number;
  /** 'ok' translates; 'fail400' answers 400 (not retried); 'fail500' answers 500. */
  mode: 'ok' | 'fail400' | 'fail500';
  delayMs: number;
  /** Per-row answers; see Script. */
  script: Script | undefined;
  /** Replies used, one per request, before the mock answers normally again (e.g. a 429 with Retry-After). */
  replies: ScriptedReply[];
  /** Every request's model and system prompt, in order. */
  /** Each answered request: its model, system prompt, target locale, rows and Authorization header. */
  calls: { model: string; system: string; locale: string; rows: ChatRow[]; authorization: string | undefined }[];
  /** Holds every request until release() is called. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** Translation the mock applies: upper-case outside placeholder tokens, prefixed so tests can recognise it. */
export function mockTranslate(text: string, locale: string): string {
  return `${locale}: ` + text.split(/(<ph id="\d+"\/>)/).map((part, i) => (i % 2 === 1 ? part : part.toUpperCase())).join('');
}

export async function startMockOpenAI(options: { delayMs?: number } = {}): Promise<MockOpenAI> {
  let held: Promise<void> | undefined;
  let releaseHeld: (() => void) | undefined;

  const mock: MockOpenAI = {
    url: '',
    rows: [],
    requests: 0,
    mode: 'ok',
    delayMs: options.delayMs ?? 0,
    script: undefined,
    replies: [],
    calls: [],
    hold() {
      held = new Promise((resolve) => (releaseHeld = resolve));
    },
    release() {
      releaseHeld?.();
      held = undefined;
    },
    close: async () => {
      mock.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    mock.requests += 1;
    if (held) await held;
    if (mock.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, mock.delayMs));
    const scripted = mock.replies.shift();
    if (scripted) {
      res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers }).end(JSON.stringify(scripted.body));
      return;
    }
    if (mock.mode !== 'ok') {
      const status = mock.mode === 'fail400' ? 400 : 500;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `scripted failure ${status}`, type: 'invalid_request_error' } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; messages: { role: string; content: string }[] };
    const user = JSON.parse(body.messages.find((m) => m.role === 'user')!.content) as { target_locale: string; rows: ChatRow[] };
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    mock.rows.push(...user.rows);
    mock.calls.push({ model: body.model, system, locale: user.target_locale, rows: user.rows, authorization: req.headers.authorization });
    const answer = (row: ChatRow) => mock.script?.(row, { locale: user.target_locale, model: body.model, system }) ?? mockTranslate(row.text, user.target_locale);
    const content = JSON.stringify({ translations: user.rows.map((row) => ({ id: row.id, text: answer(row) })) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${mock.requests}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return mock;
}
