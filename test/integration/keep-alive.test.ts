/**
 * Idle connections: the API keeps them open (65 s, longer than a load balancer's 60 s), so a client's next request
 * never meets a connection the service is closing; and a graceful stop still ends a connection as soon as the answer
 * it was sending is out, instead of waiting out that keep-alive.
 */
import { Agent, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let stopped = false;

beforeAll(async () => {
  service = await startService();
}, 120_000);
afterAll(async () => {
  if (!stopped) await service?.stop();
});

function send(agent: Agent, options: { method: string; path: string; body?: () => AsyncIterable<string> }): Promise<{ res: IncomingMessage; text: string; socket: Socket }> {
  const url = new URL(service.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: options.method, path: options.path, agent, headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ res, text, socket: req.socket! }));
    });
    req.on('error', reject);
    if (!options.body) return void req.end();
    void (async () => {
      for await (const part of options.body!()) req.write(part);
      req.end();
    })();
  });
}

it('keeps an idle connection for the next request', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const first = await send(agent, { method: 'GET', path: '/healthz' });
  expect(first.res.statusCode).toBe(200);
  expect(first.res.headers['keep-alive']).toBe('timeout=65');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const second = await send(agent, { method: 'GET', path: '/v1/project' });
  expect(second.res.statusCode).toBe(200);
  expect(second.socket).toBe(first.socket);
  agent.destroy();
});

it('stops without waiting out the keep-alive of a connection that was answering a request', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // A request whose body is still arriving when the stop begins: it is answered, then its connection must close.
  const answered = send(agent, {
    method: 'POST',
    path: '/v1/glossary',
    body: async function* () {
      yield '{"term": "Parlance", ';
      await held;
      yield '"forbidden": false}';
    },
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const stopping = service.runtime.stop();
  release();
  const { res, socket } = await answered;
  expect(res.statusCode).toBe(201);
  const closed = socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', resolve));
  // Before the fix both waited 65 s, past this test's timeout.
  await Promise.all([stopping, closed]);
  stopped = true;
  await service.stop();
  agent.destroy();
}, 20_000);
