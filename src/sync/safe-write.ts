/** Writing into the repository: only inside its root (symbolic links followed and checked), and atomically. */
import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { CommandError } from './command-error.js';

/**
 * The real file to write for `target` (a repository path): symbolic links on the way, of the file itself or of any existing
 * folder above it, are followed, and a target that lands outside the root is refused (exit 1), whatever the config or the
 * service asked for.
 */
export function insideRoot(root: string, target: string, template: string): string {
  const realRoot = realpathSync(root);
  let existing = join(realRoot, ...target.split('/'));
  const missing: string[] = [];
  while (!exists(existing)) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    throw new CommandError(`Refusing to write ${target}: ${existing} is a symbolic link that leads nowhere, so where the file would land is unknown (template '${template}').`);
  }
  const landed = join(real, ...missing);
  const rel = relative(realRoot, landed);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new CommandError(`Refusing to write ${target}: it resolves to ${landed}, outside the repository root ${realRoot} (template '${template}'; check for a symbolic link on the way).`);
  }
  return landed;
}

/** Whether anything, a dangling symbolic link included, is at `absolute`. */
function exists(absolute: string): boolean {
  try {
    lstatSync(absolute);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `bytes` to `absolute` through a temporary file in the same folder and a rename, so a reader (or a crash)
 * sees the old file or the new one, never half of one. `display` names the file in errors.
 */
export function writeAtomic(absolute: string, display: string, bytes: Uint8Array): void {
  const temporary = join(dirname(absolute), `.${Math.random().toString(36).slice(2)}.parlance-tmp`);
  try {
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(temporary, bytes, { flag: 'wx' });
    renameSync(temporary, absolute);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CommandError(`${display}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}
