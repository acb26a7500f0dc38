/** The MCP server through the SDK's own client, over stdio (`parlance mcp`) and Streamable HTTP (/mcp), against a running service. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originAllowed } from '../../server/http/mcp-route.js';
import { ApiError } from '../../src/client/client.js';
import { toolErrorMessage } from '../../src/mcp/server.js';
import { mockTranslate, startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

const TOOLS = [
  'cancel_batch',
  'delete_glossary_term',
  'get_batch',
  'get_project',
  'get_translation',
  'list_batches',
  'list_glossary',
  'list_languages',
  'lock_glossary_term',
  'pull_file',
  'push_file',
  'retry_batch',
  'run_qa',
  'translate_missing',
  'update_glossary_term',
  'upsert_translation',
];

let service: TestService;
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-1', RATE_LIMIT_PER_MINUTE: '100000' } });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await mock?.close();
});

async function connectStdio(token: string): Promise<Client> {
  const client = new Client({ name: 'parlance-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [resolve('bin/parlance.js'), 'mcp'],
      // An empty directory: no parlance.yml decides the service, PARLANCE_URL does.
      cwd: mkdtempSync(join(tmpdir(), 'parlance-mcp-')),
      env: { ...getDefaultEnvironment(), PARLANCE_TOKEN: token, PARLANCE_URL: service.url },
      stderr: 'pipe',
    }),
  );
  return client;
}

async function connectHttp(token: string): Promise<Client> {
  const client = new Client({ name: 'parlance-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

type Structured = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  expect(result.content[0]).toMatchObject({ type: 'text' });
  return result.structuredContent as Structured;
}

async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe.each([
  ['stdio', connectStdio],
  ['Streamable HTTP', connectHttp],
] as const)('MCP over %s', (transportName, connect) => {
  const label = transportName === 'stdio' ? 'stdio' : 'http';
  // Sources differ per transport: the translation memory would otherwise answer the second run from the first.
  const path = `locales/${label}/en.json`;
  let client: Client;
  beforeAll(async () => {
    client = await connect(service.token);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists the 16 tools, each with a title and every input field described', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.description, t.name).toMatch(/Needs the token ability '(read|write|push|pull)'/);
      expect(t.outputSchema, t.name).toBeDefined();
      for (const [field, schema] of Object.entries(t.inputSchema.properties ?? {})) expect((schema as { description?: string }).description, `${t.name}.${field}`).toBeTruthy();
    }
  });

  it('reads the project and its languages', async () => {
    expect((await tool(client, 'get_project')).project).toMatchObject({ source_locale: 'en', target_locales: ['de', 'fr', 'ja'] });
    expect((await tool(client, 'list_languages')).languages.map((l: { tag: string }) => l.tag)).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'ja']));
  });

  it('pushes a file, follows its batch, reads, writes, checks and pulls translations', async () => {
    const { batch } = await tool(client, 'push_file', { path, content: JSON.stringify({ greet: `Hello {name} ${label}`, bye: `Goodbye ${label}` }), locales: ['de'] });
    expect(batch.rows.total).toBe(2);
    await waitForBatch(service, batch.id);
    const followed = await tool(client, 'get_batch', { id: batch.id });
    expect(followed.batch.status).toBe('completed');
    expect(followed.rows).toHaveLength(2);
    expect((await tool(client, 'list_batches', { limit: 5 })).batches.map((b: { id: string }) => b.id)).toContain(batch.id);

    const read = await tool(client, 'get_translation', { key: 'greet', locale: 'de', path });
    expect(read.translations[0]).toMatchObject({ key: 'greet', locale: 'de', text: `de: HELLO {name} ${label.toUpperCase()}` });
    expect(await toolError(client, 'get_translation', { key: 'no.such.key', path })).toContain("'no.such.key'");

    const written = await tool(client, 'upsert_translation', { key: 'greet', locale: 'de', text: 'Hallo {name}', path });
    expect(written).toMatchObject({ gate_outcome: 'passed', translation: { text: 'Hallo {name}', state: 'human' } });

    const refused = await toolError(client, 'upsert_translation', { key: 'greet', locale: 'de', text: 'Hallo', path });
    expect(refused).toContain('refused by the quality gates');
    expect(refused).toMatch(/- placeholders: .*\{name\}/);
    expect(await toolError(client, 'upsert_translation', { key: 'greet', locale: 'en_us2', text: 'x', path })).toContain("'en_us2'");

    const qa = await tool(client, 'run_qa', { path, locales: ['de'] });
    expect(qa.checked).toBe(2);

    const pulled = await tool(client, 'pull_file', { path, locale: 'de' });
    expect(JSON.parse(pulled.content)).toEqual({ greet: 'Hallo {name}', bye: `de: GOODBYE ${label.toUpperCase()}` });
    expect(pulled.left_out.count).toBe(0);

    const missing = await tool(client, 'translate_missing', { paths: [path] });
    expect(missing.batch.rows.total).toBe(4);
    await waitForBatch(service, missing.batch.id);
    expect((await tool(client, 'translate_missing', { paths: [path] })).batch.rows.total).toBe(0);
  });

  it('names a refused row in get_batch, shows it held, lists it in the queue and approves it', async () => {
    const refusedPath = `locales/${label}/refused.json`;
    // The placeholder dropped on both attempts: the gate refuses the row after its corrective retry.
    mock.script = (row, { locale }) => (row.key === 'ask' && locale === 'fr' ? mockTranslate(row.text, locale).replace(/<ph id="\d+"\/>/g, '') : undefined);
    let batch;
    try {
      batch = (await tool(client, 'push_file', { path: refusedPath, content: JSON.stringify({ ask: `Ask {who} ${label}`, fine: `Fine ${label}` }), locales: ['fr'] })).batch;
      await waitForBatch(service, batch.id);
    } finally {
      mock.script = undefined;
    }
    const followed = await tool(client, 'get_batch', { id: batch.id });
    expect(followed.refused).toMatchObject({ total: 1, rows: [{ key: 'ask', locale: 'fr', outcome: 'refused' }] });
    expect(followed.refused.rows[0].reason).toContain('{who}');
    expect((await tool(client, 'get_translation', { key: 'ask', locale: 'fr', path: refusedPath })).translations).toMatchObject([{ state: 'held', failures: [{ gate: 'placeholders' }, { gate: 'placeholders' }] }]);
    expect((await tool(client, 'get_translation', { state: 'held', path: refusedPath })).translations.map((t: { key: string }) => t.key)).toEqual(['ask']);
    expect((await tool(client, 'upsert_translation', { key: 'ask', locale: 'fr', path: refusedPath, review: 'approve' })).translation.state).toBe('approved');
    expect((await tool(client, 'get_translation', { state: 'held', path: refusedPath })).translations).toEqual([]);
  });

  it('locks, lists, updates and deletes a glossary term', async () => {
    const term = `Dashboard${transportName.length}`;
    const locked = (await tool(client, 'lock_glossary_term', { term, translations: { de: 'Übersicht' } })).term;
    expect(locked).toMatchObject({ term, forbidden: false, translations: { de: 'Übersicht' } });
    expect((await tool(client, 'list_glossary')).terms.map((t: { id: string }) => t.id)).toContain(locked.id);
    expect((await tool(client, 'update_glossary_term', { id: locked.id, translations: { de: 'Armaturenbrett' } })).term.translations).toEqual({ de: 'Armaturenbrett' });
    expect((await tool(client, 'delete_glossary_term', { id: locked.id })).term.id).toBe(locked.id);
    expect((await tool(client, 'list_glossary')).terms.map((t: { id: string }) => t.id)).not.toContain(locked.id);
  });

  it('cancels a running batch and retries a failed one', async () => {
    mock.hold();
    let held;
    try {
      held = (await tool(client, 'push_file', { path: `${path}.cancel.json`, content: JSON.stringify({ a: `Alpha ${label}` }), format: 'json', locales: ['fr'] })).batch;
      const cancelled = (await tool(client, 'cancel_batch', { id: held.id })).batch;
      expect(cancelled.status).toBe('cancelled');
    } finally {
      mock.release();
    }

    mock.mode = 'fail400';
    let failed;
    try {
      failed = (await tool(client, 'push_file', { path: `${path}.retry.json`, content: JSON.stringify({ b: `Beta ${label}` }), format: 'json', locales: ['fr'] })).batch;
      expect((await waitForBatch(service, failed.id)).status).toBe('failed');
    } finally {
      mock.mode = 'ok';
    }
    const retried = (await tool(client, 'retry_batch', { id: failed.id })).batch;
    expect(retried.status).toBe('queued');
    expect((await waitForBatch(service, failed.id)).status).toBe('completed');
  });

  it('refuses a tool the token has no ability for, naming the ability', async () => {
    const deploy = await connect(await service.mintToken({ abilities: ['pull', 'read'] }));
    try {
      const message = await toolError(deploy, 'lock_glossary_term', { term: 'Forbidden' });
      expect(message).toContain("lacks the 'write' ability");
      expect((await tool(deploy, 'get_project')).project.source_locale).toBe('en');
    } finally {
      await deploy.close();
    }
  });
});

describe('/mcp over HTTP: authentication and origin', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
  const post = (headers: Record<string, string>) =>
    fetch(`${service.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });

  it('answers 401 with WWW-Authenticate without a token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: `Bearer prl_${'x'.repeat(38)}` }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  });

  it('answers 403 to a foreign Origin and serves a localhost one', async () => {
    const foreign = await post({ authorization: `Bearer ${service.token}`, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { detail: string }).detail).toContain("'https://evil.example'");
    const local = await post({ authorization: `Bearer ${service.token}`, origin: 'http://localhost:6274' });
    expect(local.status).toBe(200);
    expect(((await local.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('parlance');
  });
});

describe('tool errors and origins (no service)', () => {
  it('says how long to wait after a 429, and names the ability of a 403', () => {
    const limited = new ApiError(429, 'rate_limited', 'Rate limit of 60 requests per minute exceeded for this token; retry in 17 s.', {}, 'GET /v1/project', 17);
    expect(toolErrorMessage(limited)).toMatch(/^Rate limited: try again in 17 s\./);
    const refused = new ApiError(403, 'ability_missing', 'This token lacks the \'manage\' ability.', { ability: 'manage' }, 'POST /v1/languages');
    expect(toolErrorMessage(refused)).toContain("lacks the 'manage' ability");
  });

  it('allows no Origin, the same origin, localhost and the allowlist; refuses others', () => {
    expect(originAllowed(undefined, 'parlance.example.com', [])).toBe(true);
    expect(originAllowed('https://parlance.example.com', 'parlance.example.com', [])).toBe(true);
    expect(originAllowed('http://127.0.0.1:6274', 'parlance.example.com', [])).toBe(true);
    expect(originAllowed('https://agent.example.com', 'parlance.example.com', ['https://agent.example.com'])).toBe(true);
    expect(originAllowed('https://evil.example', 'parlance.example.com', ['https://agent.example.com'])).toBe(false);
    expect(originAllowed('null', 'parlance.example.com', [])).toBe(false);
  });
});
