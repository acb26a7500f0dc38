/**
 * The webhook receiver: a local node:http server that verifies each delivery's Standard Webhooks signature and
 * records its `webhook-id`; a fault makes it down (port closed), slow (answers after the sender's timeout) or
 * answer 500 for a while.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export type ReceiverMode = 'up' | 'down' | 'slow' | 'error';

export interface Receipt {
  id: string;
  project: string;
  /** What the receiver answered. */
  status: number;
  /** Answered after the sender's timeout: the sender saw no answer. */
  late: boolean;
  signatureValid: boolean;
  type: string;
}

export interface Receiver {
  url(project: string): string;
  /** The secret of each project's subscription, to verify signatures. */
  secrets: Map<string, string>;
  receipts: Receipt[];
  setMode(mode: ReceiverMode): Promise<void>;
  mode(): ReceiverMode;
  close(): Promise<void>;
}

export async function startReceiver(options: { port: number; senderTimeoutMs: number }): Promise<Receiver> {
  const receipts: Receipt[] = [];
  const secrets = new Map<string, string>();
  let mode: ReceiverMode = 'up';
  let server: Server | undefined;

  function listen(): Promise<void> {
    const s = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const project = (req.url ?? '').split('/').pop() ?? '';
        const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
        let signatureValid = false;
        let type = '';
        try {
          const secret = secrets.get(project);
          if (secret) {
            const payload = new Webhook(secret).verify(body, headers) as { type: string };
            signatureValid = true;
            type = payload.type;
          }
        } catch {
          signatureValid = false;
        }
        const answer = mode === 'error' ? 500 : 200;
        const delay = mode === 'slow' ? options.senderTimeoutMs + 500 : 0;
        setTimeout(() => {
          receipts.push({ id: headers['webhook-id'], project, status: answer, late: delay > 0, signatureValid, type });
          if (!res.destroyed) res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'scripted failure');
        }, delay);
      });
    });
    server = s;
    return new Promise((resolve) => s.listen(options.port, '127.0.0.1', resolve));
  }

  async function unlisten(): Promise<void> {
    const s = server;
    server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await listen();
  return {
    url: (project) => `http://127.0.0.1:${options.port}/hooks/${project}`,
    secrets,
    receipts,
    mode: () => mode,
    async setMode(next) {
      if (next === 'down' && mode !== 'down') await unlisten();
      if (next !== 'down' && mode === 'down') await listen();
      mode = next;
    },
    close: unlisten,
  };
}
