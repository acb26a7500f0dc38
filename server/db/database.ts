/** Opens the database the configuration names (embedded PGlite or PostgreSQL) and migrates it. */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { assetPath } from '../asset-path.js';
import type { Config } from '../config.js';
import { PGliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** `onIdleError`: a pooled connection that was idle broke (the server ended it); the pool has dropped it already. */
export async function openDatabase(database: Config['database'], options: { onIdleError?: (error: Error) => void } = {}): Promise<Db> {
  if (database.kind === 'postgres') {
    const pg = await import('pg');
    // int8 (bigserial ids, count(*)) arrives as text; the values we keep there fit in a JS number only for counts,
    // so ids stay strings and counts are converted where they are read.
    const pool = new pg.default.Pool({
      connectionString: database.url,
      max: 10,
      ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
    });
    // Without a listener, the pool's 'error' event for an idle connection that PostgreSQL terminated (a restart, a
    // failover, pg_terminate_backend, an idle timeout) is thrown and kills the process; the next query just reconnects.
    pool.on('error', (error) => options.onIdleError?.(error));
    if (database.schema) {
      const client = await pool.connect();
      try {
        await client.query(`create schema if not exists "${database.schema}"`);
      } finally {
        client.release();
      }
    }
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  if (database.dataDir) mkdirSync(database.dataDir, { recursive: true });
  const pglite = new PGlite(database.dataDir);
  await pglite.waitReady;
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
}

/**
 * Applies every migration file not yet recorded, in name order, each in its own transaction.
 * An advisory lock keeps several processes starting at once from applying the same file twice.
 */
export async function migrate(db: Db): Promise<string[]> {
  const migrationsDir = assetPath('server/db/migrations');
  const files = readdirSync(migrationsDir)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  await db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(727274)`.execute(conn);
    try {
      await sql`create table if not exists parlance_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(conn);
      const done = await sql<{ name: string }>`select name from parlance_migrations`.execute(conn);
      const seen = new Set(done.rows.map((row) => row.name));
      for (const name of files) {
        if (seen.has(name)) continue;
        const statements = splitStatements(readFileSync(join(migrationsDir, name), 'utf8'));
        await conn.transaction().execute(async (trx) => {
          for (const statement of statements) await sql.raw(statement).execute(trx);
          await sql`insert into parlance_migrations (name) values (${name})`.execute(trx);
        });
        applied.push(name);
      }
    } finally {
      await sql`select pg_advisory_unlock(727274)`.execute(conn);
    }
  });
  return applied;
}

/** Migration files are plain statements ending in ';' at the end of a line (no functions or dollar quoting). */
function splitStatements(text: string): string[] {
  return text
    .replace(/^\s*--.*$/gm, '')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}
