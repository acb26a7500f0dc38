/** Opens the database the configuration names (embedded PGlite or PostgreSQL) and migrates it. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { assetPath } from '../asset-path.js';
import type { Config } from '../config.js';
import { PGliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface OpenDatabaseOptions {
  /** A pooled connection that was idle broke (the server ended it); the pool has dropped it already. */
  onIdleError?: (error: Error) => void;
  /**
   * An embedded database in memory starts from these files (a `dumpDataDir` tarball) instead of an empty cluster:
   * the tests start from one already migrated, which spares each service initdb and the migrations.
   */
  snapshot?: Blob;
}

export async function openDatabase(database: Config['database'], options: OpenDatabaseOptions = {}): Promise<Db> {
  if (database.kind === 'postgres') {
    const pg = await import('pg');
    // int8 (bigserial ids, count(*)) arrives as text; the values we keep there fit in a JS number only for counts,
    // so ids stay strings and counts are converted where they are read.
    // JIT compilation off: the service's statements each touch a few thousand rows by index, and when stale
    // statistics make one look expensive, PostgreSQL spent about 110 ms compiling it for 4 ms of work (a 200,000-key
    // batch's translation lookups, bench/run.ts).
    const pool = new pg.default.Pool({
      connectionString: database.url,
      max: 10,
      options: ['-c jit=off', ...(database.schema ? [`-c search_path=${database.schema}`] : [])].join(' '),
    });
    // Without a listener, the pool's 'error' event for an idle connection that PostgreSQL terminated (a restart, a
    // failover, pg_terminate_backend, an idle timeout) is thrown and kills the process; the next query just reconnects.
    pool.on('error', (error) => options.onIdleError?.(error));
    // The pool listens only while a connection is idle. One that is checked out (a transaction between statements,
    // a job holding its lease connection) and ended by the server emits 'error' with no listener, which kills the
    // process (the soak's PostgreSQL restart did). The statement running on it, or the next, fails instead, and the
    // pool drops the connection when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
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
  if (database.dataDir !== undefined && !existsSync(join(database.dataDir, 'PG_VERSION'))) await createDataDir(database.dataDir);
  // 32 MB of shared buffers rather than PGlite's 160: the embedded database is for small projects, its files are in
  // the operating system's cache anyway, and the buffers it touches stay in the process's memory (bench/run.ts: a
  // 10,000-key batch ends about 30 MiB lower, no slower).
  // One options object: `new PGlite(undefined, options)` would ignore the options of a database in memory.
  const pglite = new PGlite({
    dataDir: database.dataDir,
    postgresqlconf: ['shared_buffers=32MB'],
    loadDataDir: database.dataDir === undefined ? options.snapshot : undefined,
  });
  await pglite.waitReady;
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
}

/**
 * Creates an embedded data directory (initdb) in a child process. The instance that runs initdb keeps about 300 MiB
 * of WebAssembly memory reachable for as long as it lives, and the process's resident memory stays that much higher
 * even after it is closed; a service that opens a directory created elsewhere starts at about half (bench/run.ts).
 */
async function createDataDir(dataDir: string): Promise<void> {
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = new PGlite(${JSON.stringify(dataDir)}); await db.waitReady; await db.close();`;
  const { stderr, status } = await new Promise<{ stderr: string; status: number | null }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stderr: err, status: code }));
  });
  if (status !== 0 || !existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(`Could not create the embedded database in ${dataDir} (exit ${status}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no output'}`);
  }
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
