/** Translation path templates (parlance.yml, storage targets): where the file of one locale goes, given the source file it translates. */
import { posix } from 'node:path';
import { checkLocale } from './locales/locales.js';
import { RepoPathError, repoPath, repoPathProblem } from './repo-path.js';

export const TEMPLATE_VARIABLES: readonly { name: string; example: string; meaning: string }[] = [
  { name: 'locale', example: 'pt-BR', meaning: 'the BCP-47 tag (zh-Hans, sr-Latn, es-419)' },
  { name: 'locale_underscore', example: 'pt_BR', meaning: 'the tag with underscores (gettext, Java, Flutter ARB)' },
  { name: 'android_locale', example: 'pt-rBR', meaning: 'the Android resource qualifier (b+sr+Latn for a script or a numeric region)' },
  { name: 'apple_locale', example: 'pt-BR', meaning: 'the Xcode language ID (.lproj folders; zh-CN becomes zh-Hans)' },
  { name: 'two_letters', example: 'pt', meaning: 'the language subtag alone' },
  { name: 'name', example: 'messages', meaning: 'the source file name without its extension' },
  { name: 'ext', example: 'json', meaning: 'the source file extension, without the dot' },
  { name: 'dir', example: 'locales/en', meaning: "the source file's directory relative to the config file ('.' at the top)" },
];

/** The variables that vary with the locale; a template needs one, or every locale would be written to the same file. */
export const LOCALE_VARIABLES: ReadonlySet<string> = new Set(['locale', 'locale_underscore', 'android_locale', 'apple_locale', 'two_letters']);

const KNOWN_VARIABLES: ReadonlySet<string> = new Set(TEMPLATE_VARIABLES.map((v) => v.name));
const VARIABLE = /\{([^{}]*)\}/g;

/** The variable names a template uses, in order of appearance, without braces. */
export function variablesIn(template: string): string[] {
  return [...template.matchAll(VARIABLE)].map((m) => m[1] ?? '');
}

/** The variables of a template that are not known, each with its braces (`{lang}`), for error messages. */
export function unknownVariables(template: string): string[] {
  return [...new Set(variablesIn(template).filter((name) => !KNOWN_VARIABLES.has(name)))].map((name) => `{${name}}`);
}

/**
 * Fills a translation path template for one source file and one locale. Variables: {locale} (pt-BR), {locale_underscore} (pt_BR),
 * {android_locale} (pt-rBR; b+sr+Latn for a script), {apple_locale} (pt-BR; zh-Hans), {two_letters} (pt), {name} (source file name without extension),
 * {ext} (without dot), {dir} (the source file's directory, posix, relative). Unknown variables: throws naming them.
 * `pathName`, from parlance.yml's languages_mapping (`de: de-DE`), is what every locale variable gives instead: the project chose
 * how that locale is spelled in its paths, whichever variable the template uses.
 */
export function translationPath(template: string, sourcePath: string, locale: string, pathName?: string): string {
  const unknown = unknownVariables(template);
  if (unknown.length > 0) {
    throw new Error(`Unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in translation template '${template}'. Known: ${[...KNOWN_VARIABLES].map((n) => `{${n}}`).join(', ')}.`);
  }
  const problem = templatePathProblem(template);
  if (problem) throw new RepoPathError(template, problem.problem, problem.reason);
  const values = variableValues(repoPath(sourcePath), locale, pathName);
  // Filled but for {dir}, the path meets the same rule: a file named `...json` must not make {name} a '..' that climbs.
  const beforeDir = template.replace(VARIABLE, (whole, name: string) => (name === 'dir' ? whole : (values[name] ?? '')));
  const filledProblem = templatePathProblem(beforeDir);
  if (filledProblem) throw new RepoPathError(beforeDir, filledProblem.problem, filledProblem.reason);
  const filled = template.replace(VARIABLE, (_, name: string) => values[name] ?? '');
  // `{dir}` is '.' for a file at the top, and `{dir}/..` climbs out of the source's folder; normalising gives the path a user
  // would write, and the result must still be a path inside the repository.
  return repoPath(posix.normalize(filled));
}

/**
 * Why a translation template cannot give a repository path, or undefined. The template is held to the repository path rule
 * (src/core/repo-path.ts) as it is written (braces are allowed characters), except that `..` may follow `{dir}` (`{dir}/../{apple_locale}.lproj/…`
 * names a sibling of the source's folder); every filled path is checked again by translationPath.
 */
export function templatePathProblem(template: string): ReturnType<typeof repoPathProblem> {
  let afterDir = false;
  const segments = template.split('/').map((segment) => {
    if (segment === '{dir}') afterDir = true;
    else if (segment === '..' && afterDir) return 'xx';
    else afterDir = false;
    return segment;
  });
  const problem = repoPathProblem(template === '' ? '' : segments.join('/'));
  if (problem?.problem === 'dot_segment') return { ...problem, reason: `${problem.reason} (only right after {dir}, as in '{dir}/../{apple_locale}.lproj/{name}.strings')` };
  return problem;
}

/** The value of every variable for one source file and locale; `pathName` (a languages_mapping value) replaces every locale variable's. */
export function variableValues(sourcePath: string, locale: string, pathName?: string): Record<string, string> {
  const parts = localeParts(locale);
  const base = posix.basename(sourcePath);
  const dot = base.lastIndexOf('.');
  return {
    locale: pathName ?? parts.tag,
    locale_underscore: pathName ?? parts.tag.replaceAll('-', '_'),
    android_locale: pathName ?? androidLocale(parts),
    apple_locale: pathName ?? appleLocale(parts),
    two_letters: pathName ?? parts.language,
    // A leading dot (`.env`) starts a name, not an extension.
    name: dot > 0 ? base.slice(0, dot) : base,
    ext: dot > 0 ? base.slice(dot + 1) : '',
    dir: posix.dirname(sourcePath),
  };
}

interface LocaleParts {
  tag: string;
  language: string;
  script: string | undefined;
  region: string | undefined;
  /** Subtags after language, script and region (variants); Android can only name them in its b+ form. */
  rest: string[];
}

function localeParts(input: string): LocaleParts {
  const check = checkLocale(input);
  if (!check.ok) throw new Error(check.message);
  const locale = new Intl.Locale(check.tag);
  const main = [locale.language, locale.script, locale.region].filter((s): s is string => s !== undefined);
  const rest = check.tag.split('-').slice(main.length);
  return { tag: check.tag, language: locale.language, script: locale.script, region: locale.region, rest };
}

/** Android resource qualifiers: `pt-rBR` only covers a language with a two-letter region; anything else needs the `b+` form (API 24+). */
function androidLocale(parts: LocaleParts): string {
  if (parts.script === undefined && parts.rest.length === 0) {
    if (parts.region === undefined) return parts.language;
    if (/^[A-Z]{2}$/.test(parts.region)) return `${parts.language}-r${parts.region}`;
  }
  return `b+${parts.tag.split('-').join('+')}`;
}

/** Xcode names Chinese localizations by script (zh-Hans.lproj, zh-Hant.lproj), not by the region tags many projects use. */
const APPLE_LANGUAGE_IDS: Readonly<Record<string, string>> = { 'zh-CN': 'zh-Hans', 'zh-TW': 'zh-Hant' };

function appleLocale(parts: LocaleParts): string {
  return APPLE_LANGUAGE_IDS[parts.tag] ?? parts.tag;
}

/** Reads an Android resource qualifier (`pt-rBR`, `b+sr+Latn`, `de`) back into a locale tag; undefined when it is not one. */
export function localeFromAndroid(qualifier: string): string | undefined {
  const tag = qualifier.startsWith('b+') ? qualifier.slice(2).split('+').join('-') : qualifier.replace(/^([a-z]{2,3})-r([A-Z]{2})$/, '$1-$2');
  const check = checkLocale(tag);
  if (!check.ok) return undefined;
  return androidLocale(localeParts(check.tag)) === qualifier ? check.tag : undefined;
}
