/** Where the translations of matched source files go: each rule's translation template filled in per locale, with languages_mapping applied. */
import { checkLocale } from '../core/locales/locales.js';
import { localeFromAndroid, translationPath, variableValues } from '../core/path-templates.js';
import type { SourceMatch } from './match-source-paths.js';
import type { FileRule, LanguagesMapping, ParlanceConfig } from './config-types.js';

/** A managed translation file: where a source's translation into one locale lives. */
export interface TargetMatch {
  source: SourceMatch;
  locale: string;
  path: string;
}

type MappingSource = Pick<ParlanceConfig, 'languages_mapping'>;

/** The languages_mapping that holds for a rule: the config's, with the rule's own entries over it. */
export function languagesMappingFor(config: MappingSource, rule: Pick<FileRule, 'languages_mapping'>): LanguagesMapping {
  return { ...config.languages_mapping, ...rule.languages_mapping };
}

/**
 * The path of `sourcePath`'s translation into `locale` under `rule`: the rule's template with every locale variable
 * giving the locale's languages_mapping name when it has one. Every host (CLI, Action, GitHub App, connectors) asks this.
 */
export function targetPathFor(config: MappingSource, rule: Pick<FileRule, 'translation' | 'languages_mapping'>, sourcePath: string, locale: string): string {
  const check = checkLocale(locale);
  const mapping = languagesMappingFor(config, rule);
  return translationPath(rule.translation, sourcePath, locale, check.ok ? mapping[check.tag] : undefined);
}

/** Every managed translation file of the sources in the given locales. */
export function targetPaths(config: MappingSource, sources: readonly SourceMatch[], locales: readonly string[]): TargetMatch[] {
  return sources.flatMap((source) => locales.map((locale) => ({ source, locale, path: targetPathFor(config, source.rule, source.path, locale) })));
}

/**
 * The Parlance locale a name found in a target path stands for (the reverse of languages_mapping): `de-DE` → `de` under
 * `de: de-DE`; a name no mapping holds is read as any locale variable writes it (`pt-BR`, `pt_BR`, `pt-rBR`, `zh-Hans`).
 * Undefined when it is no locale, or when it is a locale that the mapping writes under another name (with `de: de-DE`,
 * a `de` folder is not German's). With `candidates` (the project's locales), the answer is the candidate whose mapped
 * name or variable value is `name`, so `{two_letters}`'s `pt` finds `pt-BR` and `{apple_locale}`'s `zh-Hans` finds `zh-CN`.
 */
export function localeFromPathName(config: MappingSource, rule: Pick<FileRule, 'languages_mapping'>, name: string, candidates?: readonly string[]): string | undefined {
  const mapping = languagesMappingFor(config, rule);
  if (candidates) {
    return candidates.find((candidate) => {
      const check = checkLocale(candidate);
      if (!check.ok) return false;
      const mapped = mapping[check.tag];
      if (mapped !== undefined) return mapped === name;
      const written = variableValues('x', check.tag);
      return [written.locale, written.locale_underscore, written.android_locale, written.apple_locale, written.two_letters].includes(name);
    });
  }
  for (const [locale, mapped] of Object.entries(mapping)) if (mapped === name) return locale;
  const locale = readLocale(name);
  return locale === undefined || mapping[locale] !== undefined ? undefined : locale;
}

/** A locale from the way one of the template variables writes it, only when that variable writes it back the same. */
function readLocale(name: string): string | undefined {
  const android = localeFromAndroid(name);
  if (android !== undefined) return android;
  const check = checkLocale(name.replaceAll('_', '-'));
  if (!check.ok) return undefined;
  const written = variableValues('x', check.tag);
  return [written.locale, written.locale_underscore, written.apple_locale].includes(name) ? check.tag : undefined;
}
