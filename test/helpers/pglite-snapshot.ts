/**
 * The embedded database every test service starts from: an empty PGlite cluster with every migration applied, made
 * once in .cache/test/ (keyed by the migrations and PGlite's version), so a service loads it in about a second instead
 * of running initdb and the migrations (about 4.5 s of CPU) in each test file. Two forms: a `dumpDataDir` tarball for
 * the services in the test's own process, and a data directory that tests copy for the `parlance` processes they spawn.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { migrate } from '../../server/db/database.js';
import { PGliteDialect } from '../../server/db/pglite-dialect.js';
import type { Database } from '../../server/db/schema.js';

const ROOT = join(import.meta.dirname, '../..');
const MIGRATIONS = join(ROOT, 'server/db/migrations');

/** The migrations and PGlite's version, which decide whether a snapshot made by an earlier run still fits. */
function snapshotKey(): string {
  const key = createHash('sha256');
  key.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  for (const name of readdirSync(MIGRATIONS).sort()) key.update(`${name}\n`).update(readFileSync(join(MIGRATIONS, name)));
  return key.digest('hex').slice(0, 16);
}

const CACHE = join(ROOT, '.cache/test');

/** The snapshot's path, made now if no run has made it for these migrations and this PGlite. */
export async function migratedSnapshot(): Promise<string> {
  const dir = CACHE;
  const path = join(dir, `pglite-migrated-${snapshotKey()}.tar`);
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

/**
 * A migrated data directory (what `parlance start` makes in `<PARLANCE_DATA_DIR>/db` on its first run), made now if no
 * run has made it for these migrations and this PGlite. Copy it; never open it: PGlite writes to the files it opens.
 */
export async function migratedDataDir(): Promise<string> {
  const path = join(CACHE, `pglite-datadir-${snapshotKey()}`);
  if (existsSync(path)) return path;
  // `parlance migrate` on an empty data directory, as an operator's first run: initdb, then every migration. Made aside
  // and renamed: a run that starts meanwhile sees the whole directory or none.
  const scratch = `${path}.${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', PARLANCE_DATA_DIR: scratch, PARLANCE_DEMO: 'false', LOG_LEVEL: 'warn' };
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/parlance.js'), 'migrate'], { env, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`parlance migrate on ${scratch} failed (exit ${run.status}): ${run.stderr}`);
  try {
    renameSync(join(scratch, 'db'), path);
  } catch (error) {
    // Another run renamed its own first: theirs is as good.
    if (!existsSync(path)) throw error;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return path;
}

/** Puts a copy of the migrated data directory where a service on `dataDir` (PARLANCE_DATA_DIR) opens its database. */
export function copyMigratedDataDir(template: string, dataDir: string): void {
  cpSync(template, join(dataDir, 'db'), { recursive: true });
}
