/** Keeps two processes from opening the same embedded database directory, which would corrupt it. */
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DataDirLock {
  release(): void;
}

/** Another live process holds the directory; `parlance admin` then hands its command to that process (server/cli/admin-channel.ts). */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${owner}. Stop that process first (or point PARLANCE_DATA_DIR elsewhere; 'parlance admin' works beside a running 'parlance start'); with PostgreSQL (DATABASE_URL) several processes can share one database.`,
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'lock');
  // The lock appears with the pid already in it (a hard link to a file written first): `parlance admin` commands
  // started together would otherwise read each other's empty lock file as stale, and both open the database.
  const mine = `${path}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        createLockFile(mine, path);
        return { release: () => rmSync(path, { force: true }) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = lockOwner(path);
      // Released since (another command finished): try again.
      if (owner === undefined) continue;
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) throw new DataDirLockedError(dataDir, owner);
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(mine, { force: true });
  }
  throw new Error(`Could not lock ${path}.`);
}

/** Fails with EEXIST when the lock exists. Where the file system has no hard links (some network and container mounts), an exclusive create does the same, though not with the pid in it from the first instant. */
function createLockFile(mine: string, path: string) {
  try {
    linkSync(mine, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || !['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(code ?? '')) throw error;
    writeFileSync(path, String(process.pid), { flag: 'wx' });
  }
}

/** The pid in the lock file (NaN when it holds none), or undefined once the file is gone. */
function lockOwner(path: string): number | undefined {
  try {
    return Number(readFileSync(path, 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
