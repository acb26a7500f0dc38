/**
 * Overlapping chunks (one commits while the next translates) and the statement-level cascades that replaced the
 * foreign keys of the bulk-written tables (migration 0007), on the real service with the provider mocked at the wire.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai.js';
import { startService, waitForBatch, type TestService } from '../helpers/service.js';

let service: TestService;
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
  // Chunks of 4 rows, growing to 32: a 192-row batch is many chunks, each claimed while the one before commits.
  service = await startService({ env: { TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'mock-1', BATCH_CHUNK_ROWS: '4' } });
});
afterAll(async () => {
  await service?.stop();
  await mock?.close();
});

describe('pipelined chunks', () => {
  it('reuses what the chunk still committing translated, so each source is sent to the provider once per locale', async () => {
    // 64 keys whose sources repeat every 16 keys (48 rows, more than the largest chunk): no chunk holds a source twice,
    // so every repeat comes from the memory, including the translations of the chunk committing meanwhile.
    const keys = Array.from({ length: 64 }, (_, i) => ({ key: `k${String(i).padStart(2, '0')}`, source: `Repeated text number ${i % 16}` }));
    const res = await service.api('/v1/push', { method: 'POST', json: { keys } });
    expect(res.status).toBe(202);
    const batch = (await res.json()) as { id: string };
    const done = await waitForBatch(service, batch.id);
    expect(done.status).toBe('completed');
    expect(done.rows).toMatchObject({ total: 192, done: 192, failed: 0, queued: 0 });
    expect(done.rows.outcomes).toEqual({ translated: 48, memory: 144 });

    const sent = mock.calls.flatMap((call) => call.rows.map((row) => `${call.locale}\u0000${row.text}`));
    expect(sent).toHaveLength(48);
    expect(new Set(sent).size).toBe(48);

    for (const locale of ['de', 'fr', 'ja']) {
      const pulled = JSON.parse(await (await service.api(`/v1/pull?locale=${locale}`)).text()) as Record<string, string>;
      expect(Object.keys(pulled)).toHaveLength(64);
      for (const { key, source } of keys) expect(pulled[key]).toBe(`${locale}: ${source.toUpperCase()}`);
    }
  });
});

describe('planner statistics', () => {
  it('a batch of 1,000 rows or more refreshes the statistics of keys and translations before it completes', async () => {
    const analyzed = async () =>
      (
        await sql<{ relname: string; analyzed: number }>`select relname, (coalesce(analyze_count, 0) + coalesce(autoanalyze_count, 0))::int as analyzed
          from pg_stat_user_tables where schemaname = current_schema() and relname in ('keys', 'translations') order by relname`.execute(service.runtime.db)
      ).rows;
    const before = await analyzed();
    // 1,002 rows: 334 keys in 3 locales.
    const keys = Array.from({ length: 334 }, (_, i) => ({ key: `stats.k${i}`, source: `Statistics sample ${i}` }));
    const res = await service.api('/v1/push', { method: 'POST', json: { keys } });
    expect(res.status).toBe(202);
    const done = await waitForBatch(service, ((await res.json()) as { id: string }).id);
    expect(done.status).toBe('completed');
    expect(done.rows.total).toBe(1002);
    const after = await analyzed();
    expect(after.map((t) => t.relname)).toEqual(['keys', 'translations']);
    for (const [i, table] of after.entries()) expect(table.analyzed).toBeGreaterThan(before[i]?.analyzed ?? 0);
  });
});

describe('cascades of the bulk-written tables', () => {
  it('deleting an organisation still deletes its projects, keys, translations, batch rows and memory', async () => {
    const { runtime } = service;
    const org = await runtime.organisations.createOrganisation({ name: 'Cascade', plan: 'starter' });
    const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Cascade', sourceLocale: 'en', targetLocales: ['de'] });
    const token = await service.mintToken({ projectId: project.id });
    const res = await service.api('/v1/push', { method: 'POST', token, json: { keys: [{ key: 'a', source: 'Cascade one' }, { key: 'b', source: 'Cascade two' }] } });
    expect(res.status).toBe(202);
    expect((await waitForBatch(service, ((await res.json()) as { id: string }).id, token)).status).toBe('completed');

    const counts = async () =>
      (
        await sql<{ keys: number; translations: number; batch_rows: number; memory: number }>`select
          (select count(*)::int from keys where project_id = ${project.id}) as keys,
          (select count(*)::int from translations t where exists (select 1 from keys k where k.id = t.key_id and k.project_id = ${project.id})) as translations,
          (select count(*)::int from batch_rows r join batches b on b.id = r.batch_id where b.project_id = ${project.id}) as batch_rows,
          (select count(*)::int from memory_entries where organisation_id = ${org.id}) as memory`.execute(runtime.db)
      ).rows[0]!;
    expect(await counts()).toEqual({ keys: 2, translations: 2, batch_rows: 2, memory: 2 });
    const keyIds = (await runtime.db.selectFrom('keys').select('id').where('project_id', '=', project.id).execute()).map((k) => k.id);

    await runtime.db.deleteFrom('organisations').where('id', '=', org.id).execute();
    expect(await counts()).toEqual({ keys: 0, translations: 0, batch_rows: 0, memory: 0 });
    // Nothing is left behind under the old ids either.
    const orphans = await sql<{ n: number }>`select (select count(*)::int from translations where key_id = any(${keyIds}::text[])) + (select count(*)::int from batch_rows where key_id = any(${keyIds}::text[])) as n`.execute(runtime.db);
    expect(orphans.rows[0]!.n).toBe(0);
  });
});
