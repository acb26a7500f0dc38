/** Finding a repository's parlance.yml on disk and loading it; the directory its paths are relative to. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigNotFoundError } from './config-file-error.js';
import { parseConfig, type ParlanceConfig } from './parse-config.js';

/** Where a config is looked for, in order, relative to the working directory. */
export const CONFIG_LOCATIONS = ['parlance.yml', '.github/parlance.yml'] as const;

/**
 * Finds parlance.yml, then .github/parlance.yml, in `cwd` (or loads `explicit`), validates (zod) and maps errors to line:column via the yaml Document API.
 * `root`, the directory globs are relative to, is the config's directory; for .github/parlance.yml it is the repository above `.github`.
 */
export function loadConfig(cwd: string, explicit?: string): { config: ParlanceConfig; path: string; root: string } {
  const path = explicit !== undefined ? resolve(cwd, explicit) : CONFIG_LOCATIONS.map((name) => join(cwd, name)).find((candidate) => existsSync(candidate));
  if (path === undefined) {
    throw new ConfigNotFoundError(join(cwd, CONFIG_LOCATIONS[0]), `No ${CONFIG_LOCATIONS.join(' or ')} in ${cwd}; run 'parlance init' to write one, or pass --config <file>.`);
  }
  if (!existsSync(path) || !statSync(path).isFile()) throw new ConfigNotFoundError(path, `Config file ${displayName(cwd, path)} does not exist.`);
  const config = parseConfig(readFileSync(path, 'utf8'), path, displayName(cwd, path));
  const directory = dirname(path);
  return { config, path, root: basename(directory) === '.github' ? dirname(directory) : directory };
}

function displayName(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : file;
}
