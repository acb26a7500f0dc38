/**
 * A PostgreSQL connection ended under a request (pg_terminate_backend, a restart, a failover) is answered 503
 * `database_unavailable` with Retry-After, not 500: the error is the one node-postgres really raises.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { toApiError } from '../../server/http/problem.js';
import { createLogger } from '../../server/logger.js';
import { BACKEND, TEST_DATABASE_URL } from '../helpers/service.js';

describe.skipIf(BACKEND !== 'postgres')('a database connection lost during a request', () => {
  it('maps the error of a terminated backend to 503 database_unavailable with Retry-After', async () => {
    const victim = new pg.Client({ connectionString: TEST_DATABASE_URL });
    const killer = new pg.Client({ connectionString: TEST_DATABASE_URL });
    victim.on('error', () => undefined);
    await victim.connect();
    await killer.connect();
    try {
      const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
      const running = victim.query('select pg_sleep(5)').then(
        () => undefined,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await killer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      const error = await running;
      expect(error).toBeDefined();
      const mapped = toApiError(error, createLogger('silent'));
      expect(mapped.status).toBe(503);
      expect(mapped.code).toBe('database_unavailable');
      expect(mapped.headers['Retry-After']).toBe('1');
    } finally {
      await killer.end();
      await victim.end().catch(() => undefined);
    }
  });

  it('leaves other errors alone: an unknown failure is still a logged 500', () => {
    expect(toApiError(new Error('boom'), createLogger('silent')).status).toBe(500);
  });
});

describe.skipIf(BACKEND !== 'postgres')('a checked-out connection ended by the server', () => {
  it('fails the transaction holding it, without killing the process, and the next query reconnects', async () => {
    const { openDatabase } = await import('../../server/db/database.js');
    const { sql } = await import('kysely');
    const db = await openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema: undefined });
    const killer = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await killer.connect();
    try {
      const outcome = await db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          // Between two statements, nothing is running on the connection: the server's FATAL arrives as an event.
          await killer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
          await new Promise((resolve) => setTimeout(resolve, 300));
          await sql`select 1`.execute(trx);
          return 'committed';
        })
        .catch((error: unknown) => error);
      expect(outcome).toBeInstanceOf(Error);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(rows[0]!.one).toBe(1);
    } finally {
      await killer.end();
      await db.destroy();
    }
  });
});
