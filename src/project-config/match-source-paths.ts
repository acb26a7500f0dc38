/** Source matching over a repository's listing (a code host's tree, not a disk): which paths each file rule's glob names. */
import { compileGlob } from './compile-glob.js';
import type { FileRule, ParlanceConfig } from './config-types.js';

/** A source file of the repository and the rule that names it. */
export interface SourceMatch {
  rule: FileRule;
  path: string;
}

/** The paths each rule's `source` glob matches and its `ignore` globs do not, in rule order; a path matched by an earlier rule is not matched again. */
export function matchSourcePaths(config: ParlanceConfig, paths: readonly string[]): SourceMatch[] {
  const seen = new Set<string>();
  const matches: SourceMatch[] = [];
  for (const rule of config.files) {
    const isSource = sourceTest(rule);
    for (const path of [...paths].sort()) {
      if (seen.has(path) || !isSource(path)) continue;
      seen.add(path);
      matches.push({ rule, path });
    }
  }
  return matches;
}

/** Whether a path is one of the rule's source files: matched by `source`, by none of `ignore`. */
export function sourceTest(rule: Pick<FileRule, 'source' | 'ignore'>): (path: string) => boolean {
  const source = compileGlob(rule.source);
  const ignored = (rule.ignore ?? []).map((glob) => compileGlob(glob));
  return (path) => source.test(path) && !ignored.some((glob) => glob.test(path));
}
