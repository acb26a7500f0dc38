/**
 * The embedded database every in-process test service starts from: an empty PGlite cluster with every migration
 * applied, dumped once to .cache/test/ (keyed by the migrations and PGlite's version), so a service loads it in about
 * a second instead of running initdb and the migrations in each test file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { migrate } from '../../server/db/database.js';
import { PGliteDialect } from '../../server/db/pglite-dialect.js';
import type { Database } from '../../server/db/schema.js';

const ROOT = join(import.meta.dirname, '../..');
const MIGRATIONS = join(ROOT, 'server/db/migrations');

/** The snapshot's path, made now if no run has made it for these migrations and this PGlite. */
export async function migratedSnapshot(): Promise<string> {
  const key = createHash('sha256');
  key.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  for (const name of readdirSync(MIGRATIONS).sort()) key.update(`${name}\n`).update(readFileSync(join(MIGRATIONS, name)));
  const dir = join(ROOT, '.cache/test');
  const path = join(dir, `pglite-migrated-${key.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(path)) return path;

  const pglite = await PGlite.create();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrate(db);
    const tar = await pglite.dumpDataDir('none');
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed: a run that starts meanwhile sees the whole file or none.
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await tar.arrayBuffer()));
    renameSync(partial, path);
  } finally {
    await db.destroy();
  }
  return path;
}
