/**
 * The MCP server's review loop through the SDK's client over Streamable HTTP, against the real service with an
 * OpenAI wire mock that breaks placeholders: get_batch names the refused, flagged and failed rows; get_translation
 * shows a held row and lists the review queue; upsert_translation approves and rejects.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, mockTranslate, type MockOpenAI } from '../helpers/mock-openai.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

type Structured = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Row {
  key: string;
  locale: string;
  path: string;
  state?: string;
  reason?: string | null;
  text?: string;
  failures?: { gate: string; reason: string }[];
  gate_failures?: { gate: string; reason: string }[];
}

let service: TestService;
let mock: MockOpenAI;
let client: Client;

beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-1', RATE_LIMIT_PER_MINUTE: '100000' } });
  client = await connect(service.token);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await service?.stop();
  await mock?.close();
});

async function connect(token: string): Promise<Client> {
  const mcp = new Client({ name: 'parlance-review-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return mcp;
}

/** The tool's structured answer and its text, failing the test on a tool error. */
async function tool(name: string, args: Record<string, unknown> = {}, via: Client = client): Promise<{ structured: Structured; text: string }> {
  const result = (await via.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return { structured: result.structuredContent as Structured, text };
}

async function toolError(name: string, args: Record<string, unknown>, via: Client = client): Promise<string> {
  const result = (await via.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} should fail`).toBe(true);
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

const pairs = (rows: Row[]) => rows.map((r) => `${r.key}/${r.locale}`).sort();

/** The mock's translation with every placeholder dropped: the placeholder gate refuses it, again after the corrective retry. */
function dropPlaceholders(keys: string[], locale: string) {
  mock.script = (row, context) => (keys.includes(row.key) && context.locale === locale ? mockTranslate(row.text, context.locale).replace(/<ph id="\d+"\/>/g, '') : undefined);
}

describe('refused rows, the review queue, approve and reject', () => {
  const path = 'locales/review/en.json';
  let batchId = '';

  beforeAll(async () => {
    dropPlaceholders(['greet', 'remove'], 'de');
    try {
      const { structured } = await tool('push_file', { path, content: JSON.stringify({ greet: 'Hello {name}', remove: 'Remove {file}?', bye: 'Goodbye' }), locales: ['de', 'fr'] });
      batchId = structured.batch.id;
      expect((await waitForBatch(service, batchId)).status).toBe('completed');
    } finally {
      mock.script = undefined;
    }
  }, 60_000);

  it('get_batch names the refused rows with key, locale and reason instead of "6/6 done, 0 failed"', async () => {
    const { structured, text } = await tool('get_batch', { id: batchId });
    expect(structured.batch.rows.outcomes).toMatchObject({ refused: 2, translated: 4 });
    expect(structured.refused.total).toBe(2);
    expect(pairs(structured.refused.rows)).toEqual(['greet/de', 'remove/de']);
    for (const row of structured.refused.rows as Row[]) {
      expect(row.path).toBe(path);
      expect(row.reason).toMatch(/refused by the quality gates after one corrective retry: .*\{(name|file)\}/);
      expect(row.gate_failures?.map((f) => f.gate)).toContain('placeholders');
    }
    expect(structured.flagged).toMatchObject({ total: 0, rows: [], complete: true, rows_read: 6 });
    expect(structured.failed).toEqual({ total: 0, rows: [] });
    expect(structured.rows).toHaveLength(6);

    expect(text).toContain(`Batch ${batchId} completed: 6 row(s): `);
    expect(text).toContain('2 refused by the quality gates and held for review');
    expect(text).toMatch(new RegExp(`- greet \\[de\\] in ${path}: refused by the quality gates.*\\{name\\}`));
    expect(text).toMatch(new RegExp(`- remove \\[de\\] in ${path}: refused by the quality gates.*\\{file\\}`));
    expect(text).not.toContain('No row was refused');
  });

  it('get_batch lists no more rows than its limit, but counts them all', async () => {
    const { structured, text } = await tool('get_batch', { id: batchId, limit: 1 });
    expect(structured.rows).toHaveLength(1);
    expect(structured.refused.total).toBe(2);
    expect(structured.refused.rows).toHaveLength(1);
    expect(text).toContain('(first 1 listed)');
  });

  it('get_translation returns a held row with its state and gate failures', async () => {
    const { structured, text } = await tool('get_translation', { key: 'greet', locale: 'de', path });
    expect(structured.translations).toHaveLength(1);
    const held = structured.translations[0] as Row;
    expect(held).toMatchObject({ key: 'greet', locale: 'de', path, state: 'held', text: 'de: HELLO' });
    expect(held.failures?.map((f) => f.gate)).toContain('placeholders');
    expect(text).toContain('greet [de] in locales/review/en.json held (in no file until approved)');
    // The corrective retry's failure, once: not both attempts' copies of it.
    expect(text).toMatch(/ — placeholders: placeholder \{name\} is missing$/);

    // Every locale: the held one beside the written one.
    const all = (await tool('get_translation', { key: 'greet', path })).structured.translations as Row[];
    expect(all.map((r) => `${r.locale}:${r.state}`)).toEqual(['de:held', 'fr:accepted']);
  });

  it('get_translation with a state lists the review queue a page at a time', async () => {
    const first = (await tool('get_translation', { state: 'held', limit: 1 })).structured;
    expect(first.translations).toHaveLength(1);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await tool('get_translation', { state: 'held', limit: 1, cursor: first.next_cursor });
    expect(second.structured.translations).toHaveLength(1);
    expect(second.structured.next_cursor).toBeNull();
    expect(pairs([...first.translations, ...second.structured.translations])).toEqual(['greet/de', 'remove/de']);

    const whole = await tool('get_translation', { state: 'held', locale: 'de' });
    expect(pairs(whole.structured.translations)).toEqual(['greet/de', 'remove/de']);
    expect(whole.text).not.toContain('More rows');
    expect((await tool('get_translation', { state: 'held', locale: 'fr' })).text).toBe("No held translations in 'fr'.");
    expect(await toolError('get_translation', {})).toContain('Give key');
    expect(await toolError('get_translation', { key: 'greet', cursor: first.next_cursor })).toContain('give state too');
  });

  it('upsert_translation approves a held row into the files and rejects another out of the queue', async () => {
    const approved = await tool('upsert_translation', { key: 'greet', locale: 'de', path, review: 'approve' });
    expect(approved.structured).toMatchObject({ decision: 'approve', translation: { key: 'greet', locale: 'de', state: 'approved', text: 'de: HELLO' } });
    expect(approved.text).toMatch(/^Approved: greet \[de\]/);

    const rejected = await tool('upsert_translation', { key: 'remove', locale: 'de', path, review: 'reject' });
    expect(rejected.structured).toMatchObject({ decision: 'reject', translation: { key: 'remove', locale: 'de', state: 'rejected' } });

    expect((await tool('get_translation', { state: 'held' })).structured.translations).toEqual([]);
    expect((await tool('get_translation', { key: 'remove', locale: 'de', path })).structured.translations.map((r: Row) => r.state)).toEqual(['rejected']);
    const pulled = (await tool('pull_file', { path, locale: 'de' })).structured;
    // The approved candidate is in the file as the reviewer accepted it; the rejected key is not.
    expect(JSON.parse(pulled.content)).toEqual({ greet: 'de: HELLO', bye: 'de: GOODBYE' });
  });

  it('refuses an ambiguous review, a review of nothing, and a review without the write ability', async () => {
    expect(await toolError('upsert_translation', { key: 'bye', locale: 'de', path, review: 'approve', text: 'Tschüss' })).toContain('not both');
    expect(await toolError('upsert_translation', { key: 'bye', locale: 'ja', path, review: 'approve' })).toContain("no translation or held candidate in ja to review");
    const reader = await connect(await service.mintToken({ abilities: ['read'] }));
    try {
      expect(await toolError('upsert_translation', { key: 'bye', locale: 'de', path, review: 'approve' }, reader)).toContain("lacks the 'write' ability");
      // Reading the queue needs only 'read'.
      expect((await tool('get_translation', { state: 'rejected' }, reader)).structured.translations.map((r: Row) => r.key)).toEqual(['remove']);
    } finally {
      await reader.close();
    }
  });
});

describe('flagged and failed rows', () => {
  it('get_batch and the flagged queue name the rows over their length budget', async () => {
    const path = 'locales/flagged/en.json';
    // The mock's answers ('de: SAVE') are far longer than 120% of the source: written, and flagged.
    expect((await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: 120 } })).status).toBe(200);
    let batchId: string;
    try {
      batchId = (await tool('push_file', { path, content: JSON.stringify({ save: 'Save', open: 'Open' }), locales: ['de'] })).structured.batch.id;
      expect((await waitForBatch(service, batchId)).status).toBe('completed');
    } finally {
      await service.api('/v1/project', { method: 'PATCH', json: { length_budget_percent: null } });
    }
    const { structured, text } = await tool('get_batch', { id: batchId });
    expect(structured.refused.total).toBe(0);
    expect(structured.flagged).toMatchObject({ total: 2, complete: true });
    expect(pairs(structured.flagged.rows)).toEqual(['open/de', 'save/de']);
    expect(text).toContain('2 flagged for review (written, over the length budget)');
    expect(text).toMatch(/- save \[de\] in locales\/flagged\/en\.json: written and flagged for review: .*budget/);

    const queue = (await tool('get_translation', { state: 'flagged', path })).structured.translations as Row[];
    expect(pairs(queue)).toEqual(['open/de', 'save/de']);
    expect(queue.every((r) => r.failures?.some((f) => f.gate === 'length'))).toBe(true);
    const one = await tool('get_translation', { key: 'open', locale: 'de', path });
    expect(one.structured.translations).toMatchObject([{ key: 'open', locale: 'de', state: 'flagged', failures: [{ gate: 'length' }] }]);
    expect(one.text).toMatch(/^open \[de\] in locales\/flagged\/en\.json flagged: "de: OPEN" — length: .*budget/);
    const approved = await tool('upsert_translation', { key: 'save', locale: 'de', path, review: 'approve' });
    expect(approved.structured.translation.state).toBe('approved');
    expect(pairs((await tool('get_translation', { state: 'flagged', path })).structured.translations)).toEqual(['open/de']);
  });

  it('get_batch names the rows the provider failed', async () => {
    mock.mode = 'fail400';
    let batchId: string;
    try {
      batchId = (await tool('push_file', { path: 'locales/failed/en.json', content: JSON.stringify({ alpha: 'Alpha' }), locales: ['fr'] })).structured.batch.id;
      expect((await waitForBatch(service, batchId)).status).toBe('failed');
    } finally {
      mock.mode = 'ok';
    }
    const { structured, text } = await tool('get_batch', { id: batchId });
    expect(structured.failed.total).toBe(1);
    expect(structured.failed.rows[0]).toMatchObject({ key: 'alpha', locale: 'fr', outcome: 'failed' });
    expect(text).toMatch(/1 failed \(the provider did not answer; retry_batch re-queues them\):\n- alpha \[fr\] in locales\/failed\/en\.json: .+/);
  });
});
