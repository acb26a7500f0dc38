/** The source files of parlance.yml's rules on disk, found by walking only as deep as each glob can reach. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sourceTest } from './match-source-paths.js';
import type { FileRule, ParlanceConfig } from './config-types.js';

const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git']);

export interface SourceFileMatch {
  rule: FileRule;
  /** Posix, relative to root. */
  path: string;
  absolute: string;
}

/**
 * Every file matching each rule's `source` glob and none of its `ignore` globs under `root` (skips node_modules, .git); sorted; a rule matching nothing is reported by the caller.
 * Rules are matched independently, in their order, each rule's files sorted by path, so a caller can tell which rule matched nothing.
 */
export function matchSources(config: ParlanceConfig, root: string): SourceFileMatch[] {
  return config.files.flatMap((rule) => {
    const isSource = sourceTest(rule);
    const paths = candidatePaths(root, rule.source).filter(isSource);
    return paths.sort(byCodeUnits).map((path) => ({ rule, path, absolute: join(root, ...path.split('/')) }));
  });
}

/** The files under the glob's literal leading directories, as deep as the glob can reach. */
function candidatePaths(root: string, glob: string): string[] {
  const firstWildcard = glob.search(/[*?{]/);
  if (firstWildcard < 0) {
    const absolute = join(root, ...glob.split('/'));
    return existsSync(absolute) && statSync(absolute).isFile() ? [glob] : [];
  }
  const base = glob.slice(0, glob.lastIndexOf('/', firstWildcard) + 1);
  const rest = glob.slice(base.length);
  const unbounded = rest.includes('**') || /\{[^}]*\//.test(rest);
  const depth = unbounded ? Number.POSITIVE_INFINITY : rest.split('/').length;
  const found: string[] = [];
  walk(root, base.replace(/\/$/, ''), depth, found);
  return found;
}

function walk(root: string, directory: string, depth: number, found: string[]): void {
  if (depth <= 0) return;
  let entries;
  try {
    entries = readdirSync(directory === '' ? root : join(root, ...directory.split('/')), { withFileTypes: true });
  } catch {
    // A literal base directory that does not exist simply matches nothing.
    return;
  }
  for (const entry of entries) {
    const path = directory === '' ? entry.name : `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(root, path, depth - 1, found);
    } else if (entry.isFile() || (entry.isSymbolicLink() && isFile(join(root, ...path.split('/'))))) {
      // Symlinked directories are not followed, so a link cycle cannot make the walk endless.
      found.push(path);
    }
  }
}

function isFile(absolute: string): boolean {
  try {
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
