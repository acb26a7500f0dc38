/** The GitHub App's server bounds what reaches Probot (which reads a body whole): a declared length within GitHub's 25 MB, or nothing. */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.js';
import { requestHandler } from '../../server/github-app/server.js';

let server: Server;
let port: number;
const reachedProbot: string[] = [];

beforeAll(async () => {
  const app = {
    handleParlanceEvent: () => Promise.resolve({ status: 200, body: {} }),
    middleware: async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      reachedProbot.push(`${req.method} ${req.url}`);
      res.writeHead(200).end('{}');
    },
  };
  server = createServer((req, res) => void requestHandler(app as never, createLogger('silent'))(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function post(headers: Record<string, string>, body: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/github/webhooks', method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    if (body === undefined) req.flushHeaders();
    else req.end(body);
  });
}

it('refuses a declared length over 25 MB before reading it, and a body of undeclared length', async () => {
  expect(await post({ 'content-type': 'application/json', 'content-length': String(26 * 1024 * 1024) }, undefined)).toBe(413);
  expect(await post({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, '{"zen":"x"}')).toBe(411);
  expect(reachedProbot).toEqual([]);
  expect(await post({ 'content-type': 'application/json' }, '{"zen":"x"}')).toBe(200);
  expect(reachedProbot).toEqual(['POST /api/github/webhooks']);
});
