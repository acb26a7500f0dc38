/**
 * The HTTP server every vendor mock runs on: 127.0.0.1, a port of its own, the request body read whole, and able to
 * stop (the vendor "down": connections refused) and come back on the same port, as the acceptance kit needs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  url: string;
  port: number;
  /** Closes the server and every open connection; requests are refused until `start`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Stops, if running. */
  close(): Promise<void>;
}

export type LoopbackHandler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => unknown;

/** Serves `handle`; a handler that throws (or rejects) answers 500 with the error's text. */
export async function serveOnLoopback(handle: LoopbackHandler): Promise<LoopbackServer> {
  let server: Server | undefined;
  let port = 0;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      Promise.resolve()
        .then(() => handle(req, Buffer.concat(chunks), res))
        .catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(error instanceof Error ? error.message : String(error));
        });
    });
  };
  async function start(): Promise<void> {
    if (server) return;
    server = createServer(listener);
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }
  async function stop(): Promise<void> {
    if (!server) return;
    const closing = server;
    server = undefined;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  }
  await start();
  return { url: `http://127.0.0.1:${port}`, port, start, stop, close: stop };
}

/** Sends `value` as JSON with `status` and any extra headers. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(value));
}
