/** Where the translations of matched source files go: each rule's translation template filled in per locale. */
import { translationPath } from '../core/path-templates.js';
import type { SourceMatch } from './match-source-paths.js';

/** A managed translation file: where a source's translation into one locale lives. */
export interface TargetMatch {
  source: SourceMatch;
  locale: string;
  path: string;
}

/** Every managed translation file of the sources in the given locales. */
export function targetPaths(sources: readonly SourceMatch[], locales: readonly string[]): TargetMatch[] {
  return sources.flatMap((source) => locales.map((locale) => ({ source, locale, path: translationPath(source.rule.translation, source.path, locale) })));
}
