/** A Kysely dialect for PGlite: one embedded connection, handed out to one query or transaction at a time. */
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(query.sql, [...query.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(query.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database');
  }
}

class PGliteDriver implements Driver {
  // PGlite has a single session, so a transaction must own it until it ends: callers queue here.
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init() {
    await this.pglite.waitReady;
  }

  private releaseCurrent: (() => void) | undefined;

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.releaseCurrent = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection() {
    const release = this.releaseCurrent;
    this.releaseCurrent = undefined;
    release?.();
  }

  async destroy() {
    await this.queue;
    await this.pglite.close();
  }
}
