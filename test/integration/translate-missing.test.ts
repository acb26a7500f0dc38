/** POST /v1/translate-missing and POST /v1/languages over HTTP: queue only the rows without a current translation, and nothing the second time. */
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
  it('adding a language queues its rows at once; translate-missing then queues only what is missing', async () => {
    const pushed = await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'greet', source: 'Hello {name}' }, { key: 'bye', source: 'Goodbye now' }] } });
    expect(pushed.status).toBe(202);
    expect((await waitForBatch(service, ((await pushed.json()) as BatchBody).id)).status).toBe('completed');

    const before = mock.rows.length;
    const added = await service.api('/v1/languages', { method: 'POST', json: { tag: 'es' } });
    expect(added.status).toBe(201);
    const language = (await added.json()) as { tag: string; batch: BatchBody | null; batch_problem: unknown };
    expect(language).toMatchObject({ tag: 'es', batch_problem: null });
    expect(language.batch!.rows.total).toBe(2);
    const done = await waitForBatch(service, language.batch!.id);
    expect(done.status).toBe('completed');
    expect(done.row_outcomes.items.map((r) => r.locale)).toEqual(['es', 'es']);
    expect(mock.rows.length - before).toBe(2);

    const nothing = (await (await translateMissing({})).json()) as BatchBody;
    expect(nothing.status).toBe('completed');
    expect(nothing.rows.total).toBe(0);

    // A rejected translation is missing again: translate-missing queues that one row.
    expect((await service.api('/v1/translations/bye/es/review', { method: 'POST', json: { decision: 'reject' } })).status).toBe(200);
    const res = await translateMissing({ locales: ['es'] });
    expect(res.status).toBe(202);
    const batch = (await res.json()) as BatchBody;
    expect(batch.rows.total).toBe(1);
    const redone = await waitForBatch(service, batch.id);
    expect(redone.row_outcomes.items.map((r) => [r.key, r.locale])).toEqual([['bye', 'es']]);

    const again = (await (await translateMissing({})).json()) as BatchBody;
    expect(again.status).toBe('completed');
    expect(again.rows.total).toBe(0);
  });

  it('a language added when the allowance cannot pay for its batch is added, and says why nothing was queued', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Spent', plan: 'starter' });
    const project = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Spent', sourceLocale: 'en', targetLocales: ['de'] });
    const token = await service.mintToken({ projectId: project.id, abilities: ['push', 'manage', 'read'] });
    const pushed = await service.api('/v1/push', { method: 'POST', json: { keys: [{ key: 'greet', source: 'Hello there, friend' }] }, token });
    expect((await waitForBatch(service, ((await pushed.json()) as BatchBody).id, token)).status).toBe('completed');
    await service.runtime.db.updateTable('organisations').set({ words_remaining: 0 }).where('id', '=', org.id).execute();

    const added = await service.api('/v1/languages', { method: 'POST', json: { tag: 'it' }, token });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ tag: 'it', batch: null, batch_problem: { code: 'allowance_exhausted', detail: expect.stringContaining('words') } });
    const languages = (await (await service.api('/v1/languages', { token })).json()) as { items: { tag: string }[] };
    expect(languages.items.map((l) => l.tag)).toContain('it');
  });

  it('a language added to a project without keys has no batch', async () => {
    const org = await service.runtime.organisations.createOrganisation({ name: 'Empty', plan: 'starter' });
    const project = await service.runtime.organisations.createProject({ organisationId: org.id, name: 'Empty', sourceLocale: 'en', targetLocales: ['de'] });
    const token = await service.mintToken({ projectId: project.id, abilities: ['manage', 'read'] });
    const added = await service.api('/v1/languages', { method: 'POST', json: { tag: 'it' }, token });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ tag: 'it', batch: null, batch_problem: null });
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
