/** The GitHub App's HTTP server: GitHub's webhooks and Parlance's signed events at /events, each acknowledged at once and worked on afterwards. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGithubApp, type GithubApp, type GithubAppOptions } from './app.js';

/** Where the service delivers the App's events; GITHUB_APP_EVENTS_URL points here. */
export const EVENTS_PATH = '/events';
/** Parlance events are small; anything larger is not one. */
const MAX_EVENT_BYTES = 1024 * 1024;
/** GitHub caps webhook payloads at 25 MB and always declares their length; Probot reads a body whole, so it gets no more. */
const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

class BodyTooLargeError extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_EVENT_BYTES) throw new BodyTooLargeError(`The delivery is over ${MAX_EVENT_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  // The signature covers the exact bytes, so the text is decoded once and passed on unchanged.
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The request handler: /events here, everything else to the App's GitHub middleware (which answers its own path and 404s the rest). */
export function requestHandler(app: Pick<GithubApp, 'handleParlanceEvent' | 'middleware'>, log: GithubAppOptions['log']) {
  return async function githubAppRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === EVENTS_PATH) {
      if (req.method !== 'POST') return send(res, 405, { error: `${req.method} ${EVENTS_PATH}: only POST is accepted.` });
      try {
        const body = await readBody(req);
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
        const result = await app.handleParlanceEvent({ headers, body, query: Object.fromEntries(url.searchParams) });
        return send(res, result.status, result.body);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return send(res, 413, { error: error.message });
        // Only what comes before the acknowledgement fails here (e.g. the database cannot record the delivery): a 5xx
        // makes the service deliver again later. The job's own failures are retried and logged by the App.
        log.error('Parlance event failed', { link: url.searchParams.get('link'), error });
        return send(res, 500, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    const declared = req.headers['content-length'];
    if (declared === undefined && req.headers['transfer-encoding'] !== undefined) {
      res.setHeader('connection', 'close');
      return send(res, 411, { error: 'GitHub declares the length of its deliveries: a body without Content-Length is not one.' });
    }
    if (declared !== undefined && Number(declared) > MAX_WEBHOOK_BYTES) {
      res.setHeader('connection', 'close');
      return send(res, 413, { error: `The delivery is over ${MAX_WEBHOOK_BYTES} bytes, GitHub's limit for webhook payloads.` });
    }
    await app.middleware(req, res, () => send(res, 404, { error: `No route ${req.method} ${url.pathname}.` }));
  };
}

/** Creates the App and listens; `close` stops accepting and waits for open requests and running jobs. */
export async function startGithubAppServer(options: GithubAppOptions & { host: string; port: number }) {
  const app = await createGithubApp(options);
  const server: Server = createServer((req, res) => void requestHandler(app, options.log)(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    app,
    url: `http://${options.host}:${port}`,
    async close(): Promise<void> {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closing;
      // Accepted deliveries whose job is running finish; one waiting to retry is recorded as failed, for a redelivery.
      await app.stop();
    },
  };
}

export type GithubAppServer = Awaited<ReturnType<typeof startGithubAppServer>>;
