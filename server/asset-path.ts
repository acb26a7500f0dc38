/** Where the files the service reads at run time are (the migrations, the console's build): one rule, from the package root. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * `path` is relative to the package root, never to the module that reads it: the same code runs from the sources
 * (server/db/database.ts), from the build, where esbuild has merged many modules into build/chunks/*.js, and from an
 * installed package (node_modules/parlance/build/…). The package root is the nearest folder above this module that
 * holds a package.json: the clone's root, the installed package's folder, or the container's /app. So the files stay
 * where they are in the repository, package.json's "files" ships them there, and build/ holds code only (and must
 * never get a package.json of its own).
 */
export function assetPath(path: string): string {
  root ??= packageRoot(dirname(fileURLToPath(import.meta.url)));
  return join(root, path);
}

function packageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json in ${start} or above it: cannot find Parlance's migrations and console files.`);
  }
}
