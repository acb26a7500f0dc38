/** POST /v1/translate-missing over HTTP: queues only the rows without a current translation, and nothing the second time. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

let service: TestService;
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-1' } });
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
});

async function translateMissing(body: unknown, token?: string) {
  return service.api('/v1/translate-missing', { method: 'POST', json: body, ...(token ? { token } : {}) });
}

describe('POST /v1/translate-missing', () => {
  it('queues only the rows of a newly added language, then nothing', async () => {
    const pushed = await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'greet', source: 'Hello {name}' }, { key: 'bye', source: 'Goodbye now' }] } });
    expect(pushed.status).toBe(202);
    expect((await waitForBatch(service, ((await pushed.json()) as BatchBody).id)).status).toBe('completed');

    expect((await service.api('/v1/languages', { method: 'POST', json: { tag: 'es' } })).status).toBe(201);
    const before = mock.rows.length;
    const res = await translateMissing({});
    expect(res.status).toBe(202);
    const batch = (await res.json()) as BatchBody;
    expect(batch.rows.total).toBe(2);
    const done = await waitForBatch(service, batch.id);
    expect(done.status).toBe('completed');
    expect(done.row_outcomes.items.map((r) => r.locale)).toEqual(['es', 'es']);
    expect(mock.rows.length - before).toBe(2);

    const again = (await (await translateMissing({})).json()) as BatchBody;
    expect(again.status).toBe('completed');
    expect(again.rows.total).toBe(0);
  });

  it('refuses a locale outside the project, and a token without push', async () => {
    const res = await translateMissing({ locales: ['pt-BR'] });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toContain("'pt-BR'");
    const readOnly = await service.mintToken({ abilities: ['read'] });
    const refused = await translateMissing({}, readOnly);
    expect(refused.status).toBe(403);
  });
});
