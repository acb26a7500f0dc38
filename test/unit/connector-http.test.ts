/** Connector HTTP against a local server: every answer's body is bounded, however a connector reads it, and error pages are read only as far as their message. */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLargeError, createConnectorHttp, failure, readBody, readJson } from '../../server/integrations/connector-http.js';
import { ConnectorError } from '../../server/integrations/connector-error.js';
import { serveOnLoopback, type LoopbackServer } from '../helpers/connector-mocks/loopback.js';

const MIB = 1024 * 1024;

/** Writes `total` bytes of `x` in 64 KiB chunks, without a Content-Length (chunked), stopping when the client goes. */
function stream(res: ServerResponse, status: number, total: number): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const more = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

describe('connector HTTP bounds', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await serveOnLoopback((req, _body, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/endless') return stream(res, 200, 64 * MIB);
      if (url.pathname === '/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(40 * MIB) });
        return void res.end();
      }
      if (url.pathname === '/error-page') return stream(res, 502, 16 * MIB);
      if (url.pathname === '/empty') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const http = () => createConnectorHttp({ signal: new AbortController().signal, maxRetries: 0, timeoutMs: 10_000 });

  it('an answer past the request ceiling fails its read, however the connector reads it (text(), readBody)', async () => {
    const response = await http().request(`${server.url}/endless`, { maxBytes: MIB });
    const error = await response.text().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect((error as ConnectorError).kind).toBe('config');
    expect((error as Error).message).toContain(`answered more than ${MIB} bytes`);
    const again = await http().request(`${server.url}/endless`, { maxBytes: MIB });
    await expect(readBody(again, 'Reading the endless answer', { maxBytes: 8 * MIB })).rejects.toBeInstanceOf(AnswerTooLargeError);
  });

  it("readBody refuses a stated length over its limit before reading, naming the request and what to change", async () => {
    const response = await http().request(`${server.url}/declared`);
    const error = await readBody(response, 'Reading the pages', { maxBytes: MIB, tooLarge: 'narrow the pages with a label' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect((error as Error).message).toBe(`Reading the pages: ${new URL(server.url).host} answered ${40 * MIB} bytes, more than the ${MIB} read; narrow the pages with a label.`);
  });

  it('readJson: undefined for an empty answer, an `unavailable` error when the answer must hold a document', async () => {
    expect(await readJson(await http().request(`${server.url}/empty`), 'Reading')).toBeUndefined();
    const error = await readJson(await http().request(`${server.url}/empty`), 'Reading the space', { required: true }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('Reading the space: ') });
    expect((error as Error).message).toContain('with an empty body');
    expect(await http().json(`${server.url}/ok`, { what: 'Reading' })).toEqual({ ok: true });
  });

  it("a failed answer's error page is read only as far as its message: the start of 16 MiB", async () => {
    const response = await http().request(`${server.url}/error-page`);
    const error = await failure(response, 'Reading the entries', { vendor: 'The CMS' });
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/^Reading the entries: The CMS answered HTTP 502: x{200}\.$/);
  });
});
