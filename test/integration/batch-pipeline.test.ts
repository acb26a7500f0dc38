/**
 * Overlapping chunks (one commits while the next translates) and the statement-level cascades that replaced the
 * foreign keys of the bulk-written tables (migration 0007), on the real service with the provider mocked at the wire.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactMatchesAcross } from '../../server/services/quality/memory.js';
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

describe('translation memory lookups', () => {
  it("read one entry per request, however large the organisation's memory and however stale its statistics", async () => {
    const { db } = service.runtime;
    const org = await service.runtime.organisations.createOrganisation({ name: 'Memory lookups', plan: 'starter' });
    // Statistics taken while the memory is empty, then 60,000 entries: a big batch's state before its ANALYZE.
    await sql`analyze memory_entries`.execute(db);
    await sql`insert into memory_entries (organisation_id, source_locale, locale, source_sha, source, text, origin)
      select ${org.id}, 'en', l, md5(i::text) || md5((i * 7)::text), 'Source ' || i, 'Text ' || i, 'fast'
      from generate_series(1, 20000) as i, unnest(array['de', 'fr', 'ja']) as l`.execute(db);
    // A chunk's worth of requests: 1,333 sources in 3 locales, 30 of them remembered.
    const requests = ['de', 'fr', 'ja'].flatMap((locale) =>
      Array.from({ length: 1333 }, (_, i) => ({ locale, sha: i < 10 ? createHash('md5').update(String(i + 1)).digest('hex') + createHash('md5').update(String((i + 1) * 7)).digest('hex') : `unknown-${i}` })),
    );
    // Index entries the primary key's searches have returned, as the statistics have them once this session's are flushed.
    const entriesRead = async () =>
      (
        await sql<{ entries: number }>`select coalesce(idx_tup_read, 0)::int as entries from pg_stat_user_indexes
          where schemaname = current_schema() and indexrelname = 'memory_entries_pkey'`.execute(db)
      ).rows[0]!.entries;
    const before = await entriesRead();
    const found = await db.transaction().execute(async (trx) => {
      const matches = await exactMatchesAcross(trx, org.id, 'en', requests);
      await sql`select pg_stat_force_next_flush()`.execute(trx);
      return matches;
    });
    expect(found.size).toBe(30);
    expect(found.get(`de\u0000${requests[0]!.sha}`)).toEqual({ text: 'Text 1', plurals: null, origin: 'fast' });
    // One search per request returns only its match: 30 entries here. A search of the organisation's prefix of the key
    // with the requests as a filter (as the planner chose for two arrays of them) returns all 60,000.
    expect((await entriesRead()) - before).toBeLessThan(requests.length);
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
