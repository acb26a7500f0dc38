/**
 * The embedded database on its worker thread (server/db/pglite-thread.ts): values and errors cross the thread as the
 * service reads them, a query waits in line behind a transaction, and a closed database says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPGliteThread, type EmbeddedDatabase } from '../../server/db/pglite-thread.js';

let db: EmbeddedDatabase;
beforeAll(async () => {
  db = await openPGliteThread(undefined, {});
});
afterAll(async () => {
  await db?.close();
});

describe('PGlite on a worker thread', () => {
  it('returns rows with their types and the count of affected rows', async () => {
    await db.query('create table t (id int primary key, big int8, at timestamptz, doc jsonb, raw bytea, name text)', []);
    const inserted = await db.query('insert into t values ($1, $2, $3, $4, $5, $6), (2, null, null, null, null, null)', [1, '9007199254740993', '2026-11-25T01:02:03Z', JSON.stringify({ a: [1, 'b'] }), new Uint8Array([0, 255]), 'Grüße']);
    expect(inserted.affectedRows).toBe(2);
    const { rows } = await db.query<{ id: number; big: unknown; at: Date; doc: unknown; raw: Uint8Array; name: string }>('select * from t where id = $1', [1]);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.id).toBe(1);
    expect(String(row.big)).toBe('9007199254740993');
    expect(row.at).toBeInstanceOf(Date);
    expect(row.at.toISOString()).toBe('2026-11-25T01:02:03.000Z');
    expect(row.doc).toEqual({ a: [1, 'b'] });
    expect([...row.raw]).toEqual([0, 255]);
    expect(row.name).toBe('Grüße');
  });

  it('passes an error on with the properties the service reads (23505 for a unique violation)', async () => {
    const error = await db.query('insert into t (id) values (1)', []).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((error as Error).message).toMatch(/duplicate key value violates unique constraint "t_pkey"/);
    // The session is usable after the error.
    expect((await db.query<{ n: number }>('select count(*)::int as n from t', [])).rows).toEqual([{ n: 2 }]);
  });

  it('runs queries in the order they were sent, a transaction included', async () => {
    const order = await Promise.all([
      db.query('begin', []),
      db.query('insert into t (id, name) values (3, $1)', ['in the transaction']),
      db.query<{ name: string }>('select name from t where id = 3', []),
      db.query('rollback', []),
      db.query<{ n: number }>('select count(*)::int as n from t where id = 3', []),
    ]);
    expect(order[2].rows).toEqual([{ name: 'in the transaction' }]);
    expect(order[4].rows).toEqual([{ n: 0 }]);
  });

  it('refuses a query after close with an error that says the database stopped', async () => {
    const other = await openPGliteThread(undefined, {});
    await other.close();
    await expect(other.query('select 1', [])).rejects.toThrow(/The embedded database stopped/);
  });
});
