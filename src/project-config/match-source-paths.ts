/** Source matching over a repository's listing (a code host's tree, not a disk): which paths each file rule's glob names. */
import { compileGlob } from './compile-glob.js';
import type { FileRule, ParlanceConfig } from './parse-config.js';

/** A source file of the repository and the rule that names it. */
export interface SourceMatch {
  rule: FileRule;
  path: string;
}

/** The paths each rule's `source` glob matches, in rule order; a path matched by an earlier rule is not matched again. */
export function matchSourcePaths(config: ParlanceConfig, paths: readonly string[]): SourceMatch[] {
  const seen = new Set<string>();
  const matches: SourceMatch[] = [];
  for (const rule of config.files) {
    const pattern = compileGlob(rule.source);
    for (const path of [...paths].sort()) {
      if (seen.has(path) || !pattern.test(path)) continue;
      seen.add(path);
      matches.push({ rule, path });
    }
  }
  return matches;
}
