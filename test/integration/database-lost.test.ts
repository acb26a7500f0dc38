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
