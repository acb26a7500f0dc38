/** parlance.yml's schema and parser: strict validation with every problem at its line and column, and a hint for a mistyped key. */
import { basename, posix } from 'node:path';
import { LineCounter, isMap, isScalar, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { FORMAT_IDS } from '../core/formats/codec.js';
import { checkLocale } from '../core/locales/locales.js';
import { RepoPathError, repoPathProblem } from '../core/repo-path.js';
import { LOCALE_VARIABLES, TEMPLATE_VARIABLES, templatePathProblem, unknownVariables, variablesIn } from '../core/path-templates.js';
import { compileGlob, sampleOfGlob } from './compile-glob.js';
import { ConfigFileError, type ConfigIssue } from './config-file-error.js';
import { targetPathFor } from './target-paths.js';

export { PLURALS_MODES, type FileRule, type LanguagesMapping, type ParlanceConfig, type PluralsMode } from './config-types.js';
import { PLURALS_MODES, type LanguagesMapping, type ParlanceConfig, type PluralsMode } from './config-types.js';

const FORMAT_SET: ReadonlySet<string> = new Set(FORMAT_IDS);

/** What each place expects, quoted in type errors so the message shows the right form. */
const EXPECTED: Readonly<Record<string, string>> = {
  '': "a mapping with at least 'files'",
  service: "an http(s) URL such as 'https://parlance.example.com'",
  source_locale: "a BCP-47 tag such as 'en'",
  locales: 'a list of BCP-47 tags such as [de, fr, pt-BR]',
  'locales[]': "a BCP-47 tag such as 'pt-BR'",
  languages_mapping: 'a mapping from Parlance locales to the names your paths use, such as {de: de-DE, zh-Hans: zh_CN}',
  files: "a list of file rules, each with 'source' and 'translation'",
  'files[]': "a mapping with 'source' and 'translation'",
  'files[].source': "a glob such as 'locales/en/*.json'",
  'files[].translation': "a path template such as 'locales/{locale}/{name}.json'",
  'files[].format': "a format identifier such as 'json'",
  'files[].careful': 'a list of key patterns such as ["onboarding.*"]',
  'files[].careful[]': "a key pattern such as 'onboarding.*'",
  'files[].ignore': "a list of globs such as ['locales/en/legacy/*.json']",
  'files[].ignore[]': "a glob such as 'locales/en/legacy/*.json'",
  'files[].languages_mapping': 'a mapping from Parlance locales to the names your paths use, such as {de: de-DE, zh-Hans: zh_CN}',
  'files[].plurals': `one of ${PLURALS_MODES.join(', ')}`,
};

/** Keys people reach for from other tools, mapped to ours for the did-you-mean hint. */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  url: 'service',
  server: 'service',
  base_url: 'service',
  source_language: 'source_locale',
  target_locales: 'locales',
  targets: 'locales',
  languages: 'locales',
  target: 'translation',
  dest: 'translation',
  destination: 'translation',
  pattern: 'source',
  src: 'source',
  language_mapping: 'languages_mapping',
  languages_map: 'languages_mapping',
  locale_mapping: 'languages_mapping',
  locales_mapping: 'languages_mapping',
  mapping: 'languages_mapping',
  exclude: 'ignore',
  excludes: 'ignore',
  ignored: 'ignore',
  plural: 'plurals',
};

const Locale = z.string().transform((value, ctx) => {
  const check = checkLocale(value);
  if (!check.ok) {
    ctx.addIssue({ code: 'custom', message: check.message });
    return z.NEVER;
  }
  return check.tag;
});

const Service = z.string().transform((value, ctx) => {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Reported below with the expected form.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not ${EXPECTED.service}` });
    return z.NEVER;
  }
  if (/\/v1\/?$/.test(url.pathname)) {
    ctx.addIssue({ code: 'custom', message: `'${value}' ends in /v1; give the service's base URL without it (the client adds /v1)` });
    return z.NEVER;
  }
  return value.replace(/\/+$/, '');
});

const SourceGlob = z.string().transform((value, ctx) => {
  const problem = sourceGlobProblem(value);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  // './locales/*.json' and 'locales/*.json' name the same files; matching and templates see the second.
  const normalised = posix.normalize(value);
  const pathProblem = repoPathProblem(normalised);
  if (pathProblem) {
    ctx.addIssue({ code: 'custom', message: new RepoPathError(value, pathProblem.problem, pathProblem.reason).message });
    return z.NEVER;
  }
  return normalised;
});

/** A glob of files to leave out: what `source` accepts, normalised the same way. */
const IgnoreGlob = SourceGlob;

/**
 * languages_mapping: each key a locale (canonicalised, as in `locales`), each value one path segment that stands for it in
 * every locale variable of a template. Two locales under one name would write to the same files.
 */
const LanguagesMappingSchema = z.record(z.string(), z.unknown()).transform((value, ctx) => {
  const mapping: LanguagesMapping = {};
  const keyOf = new Map<string, string>();
  const locales = new Map<string, string>();
  for (const [key, name] of Object.entries(value)) {
    const check = checkLocale(key);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', path: [key], message: `${check.message} The keys are Parlance locales; the names your paths use go on the right (de: de-DE).` });
      continue;
    }
    const sameLocale = locales.get(check.tag);
    if (sameLocale !== undefined) {
      ctx.addIssue({ code: 'custom', path: [key], message: `'${key}' is the locale '${check.tag}', which '${sameLocale}' maps already` });
      continue;
    }
    locales.set(check.tag, key);
    if (typeof name !== 'string') {
      ctx.addIssue({ code: 'custom', path: [key], message: `expected the name '${check.tag}' has in your paths, such as '${check.tag.replaceAll('-', '_')}', got ${describeValue(name)}` });
      continue;
    }
    const problem = pathNameProblem(name);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: [key], message: `'${name}' ${problem}` });
      continue;
    }
    const other = keyOf.get(name);
    if (other !== undefined) {
      ctx.addIssue({ code: 'custom', path: [key], message: `'${other}' and '${check.tag}' both map to '${name}', so their translations would be written to the same files` });
      continue;
    }
    keyOf.set(name, check.tag);
    mapping[check.tag] = name;
  }
  return mapping;
});

/** Why a languages_mapping value cannot stand for a locale in a path, or undefined. */
function pathNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty; expected the name the locale has in your paths';
  if (name.trim() !== name) return 'starts or ends with a space';
  if (name.includes('/') || name.includes('\\')) return "holds a path separator; a locale's name is one part of a path (the template says where it goes)";
  if (name === '.' || name === '..') return "is not a name ('.' and '..' are the folder itself and its parent)";
  if (/[{}]/.test(name)) return "holds '{' or '}', which read as a template variable";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'holds a control character';
  if (name.length > 64) return 'is longer than 64 characters';
  return undefined;
}

function isUsableTemplate(template: string): boolean {
  return templatePathProblem(template) === undefined && unknownVariables(template).length === 0 && variablesIn(template).some((name) => LOCALE_VARIABLES.has(name));
}

const TranslationTemplate = z.string().superRefine((value, ctx) => {
  const pathProblem = templatePathProblem(value);
  if (pathProblem) {
    ctx.addIssue({ code: 'custom', message: new RepoPathError(value, pathProblem.problem, pathProblem.reason).message });
    return;
  }
  const unknown = unknownVariables(value);
  if (unknown.length > 0) {
    ctx.addIssue({ code: 'custom', message: `unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in '${value}'; known: ${knownVariablesText()}` });
  } else if (!variablesIn(value).some((name) => LOCALE_VARIABLES.has(name))) {
    ctx.addIssue({
      code: 'custom',
      message: `'${value}' must contain {locale} or another locale variable (${[...LOCALE_VARIABLES].filter((n) => n !== 'locale').map((n) => `{${n}}`).join(', ')}), or every locale is written to the same file`,
    });
  }
});

const Rule = z.strictObject({
  source: SourceGlob,
  translation: TranslationTemplate,
  format: z
    .string()
    .refine((value) => FORMAT_SET.has(value), { error: (issue) => `unknown format '${String(issue.input)}'; expected one of: ${FORMAT_IDS.join(', ')}` })
    .optional(),
  careful: z.array(z.string().min(1, { error: `must not be empty; expected ${EXPECTED['files[].careful[]']}` })).optional(),
  ignore: z.array(IgnoreGlob).optional(),
  languages_mapping: LanguagesMappingSchema.optional(),
  plurals: z
    .string()
    .refine((value): value is PluralsMode => (PLURALS_MODES as readonly string[]).includes(value), {
      error: (issue) => `unknown plurals mode '${String(issue.input)}'; expected i18next (a key family such as items_one, items_other is one plural key) or none (every key on its own)`,
    })
    .transform((value) => value as PluralsMode)
    .optional(),
});

const Config = z
  .strictObject({
    service: Service.optional(),
    source_locale: Locale.optional(),
    locales: z.array(Locale).optional(),
    languages_mapping: LanguagesMappingSchema.optional(),
    files: z.array(Rule).min(1, { error: `must list at least one rule; expected ${EXPECTED.files}` }),
  })
  .superRefine((config, ctx) => {
    for (const issue of crossFieldIssues(config)) ctx.addIssue({ code: 'custom', ...issue });
  });

/** Checks that need more than one field: locales against the source locale, templates against their source globs. */
function crossFieldIssues(config: ParlanceConfig): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const seen = new Map<string, number>();
  config.locales?.forEach((locale, index) => {
    const first = seen.get(locale);
    if (first !== undefined) issues.push({ path: ['locales', index], message: `'${locale}' is listed twice (also locales[${first}])` });
    else seen.set(locale, index);
    if (locale === config.source_locale) issues.push({ path: ['locales', index], message: `'${locale}' is the source locale; list only target locales` });
  });
  // Without `locales` the targets come from the project; a stand-in target still shows a template that writes over sources.
  const standIn = config.locales ? [] : [config.source_locale === 'de' ? 'fr' : 'de'];
  config.files.forEach((rule, index) => {
    // A template refused on its own (zod's refinements do not stop the checks after them) has been reported already.
    if (!isUsableTemplate(rule.translation)) return;
    const glob = compileGlob(rule.source);
    const sample = sampleOfGlob(rule.source);
    // The locales this rule certainly writes: those listed, and those languages_mapping names (mapped, so meant to be written).
    const mapped = Object.keys({ ...config.languages_mapping, ...rule.languages_mapping });
    const known = [...new Set([...(config.locales ?? []), ...mapped])].filter((l) => l !== config.source_locale);
    const targets = [...known, ...standIn.filter((l) => !known.includes(l))];
    const writer = new Map<string, string>();
    for (const locale of targets) {
      let target: string;
      try {
        target = targetPathFor(config, rule, sample, locale);
      } catch (error) {
        if (!(error instanceof RepoPathError)) throw error;
        // `{dir}/../..` climbing above the repository for a source such as the glob's sample.
        issues.push({ path: ['files', index, 'translation'], message: `for the source '${sample}' and locale '${locale}' it gives ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}` });
        break;
      }
      if (glob.test(target)) {
        const which = config.locales ? `for locale '${locale}'` : `for a target locale such as '${locale}'`;
        issues.push({
          path: ['files', index, 'translation'],
          message: `${which} it gives '${target}', which the source glob '${rule.source}' matches too, so translations would be pushed as source files; make 'source' match only the source locale's files`,
        });
        break;
      }
      const other = writer.get(target);
      if (other !== undefined && known.includes(locale)) {
        issues.push({
          path: ['files', index, 'translation'],
          message: `for the locales '${other}' and '${locale}' it gives the same file '${target}' (see languages_mapping); each locale needs its own file`,
        });
        break;
      }
      writer.set(target, locale);
    }
  });
  return issues;
}

/** Parses and validates the text of a config; errors name `display` (the file as the user knows it) with line and column. */
export function parseConfig(text: string, file: string, display = basename(file)): ParlanceConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntax = doc.errors.map((error): ConfigIssue => ({ ...at(error.pos[0]), at: '', message: `${error.message} (YAML ${error.code})` }));
  if (syntax.length > 0) throw configError(file, display, syntax);

  const data: unknown = doc.toJS();
  const result = Config.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap((issue) => describeIssue(issue, doc, data, at));
  throw configError(file, display, issues);
}

function configError(file: string, display: string, issues: ConfigIssue[]): ConfigFileError {
  const sorted = [...issues].sort((a, b) => a.line - b.line || a.column - b.column);
  const lines = sorted.map((issue) => `${display}:${issue.line}:${issue.column}: ${issue.at ? `${issue.at}: ` : ''}${issue.message}`);
  const first = sorted[0] ?? { line: 1, column: 1 };
  return new ConfigFileError(file, first.line, first.column, lines.join('\n'), sorted);
}

type Path = readonly PropertyKey[];
type Position = { line: number; column: number };

/** One zod issue as config issues (an unknown-keys issue becomes one per key, each at the key itself). */
function describeIssue(issue: z.core.$ZodIssue, doc: Document, data: unknown, at: (offset: number) => Position): ConfigIssue[] {
  const path = issue.path;
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      ...(keyPosition(doc, path, key, at) ?? nodePosition(doc, path, at)),
      at: pathText([...path, key]),
      message: `unknown key '${key}'${suggestionFor(key, allowedKeys(path))}; allowed: ${allowedKeys(path).join(', ')}`,
    }));
  }
  const actual = valueAt(data, path);
  let message = issue.message;
  if (issue.code === 'invalid_type') {
    const expected = EXPECTED[shapeOf(path)] ?? issue.expected;
    message = actual === undefined ? `is missing; expected ${expected}` : `expected ${expected}, got ${describeValue(actual)}`;
  }
  return [{ ...nodePosition(doc, path, at), at: pathText(path), message }];
}

/** The position of the node at `path`, or of its nearest existing ancestor (a missing key is reported at the mapping that lacks it). */
function nodePosition(doc: Document, path: Path, at: (offset: number) => Position): Position {
  for (let length = path.length; length >= 0; length--) {
    const node = length === 0 ? doc.contents : doc.getIn(path.slice(0, length), true);
    if (node && typeof node === 'object' && 'range' in node && Array.isArray(node.range)) return at(node.range[0] as number);
  }
  return { line: 1, column: 1 };
}

function keyPosition(doc: Document, path: Path, key: string, at: (offset: number) => Position): Position | undefined {
  const map = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
  const range = isScalar(pair?.key) ? pair.key.range : undefined;
  return range ? at(range[0]) : undefined;
}

function valueAt(data: unknown, path: Path): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/** `files[0].translation`, as a user finds it in the file. */
function pathText(path: Path): string {
  return path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index > 0 ? '.' : ''}${String(segment)}`)).join('');
}

/** `files[].translation`: the path with indices dropped, to look up what the place expects. */
function shapeOf(path: Path): string {
  return pathText(path.map((segment) => (typeof segment === 'number' ? -1 : segment))).replaceAll('[-1]', '[]');
}

function allowedKeys(path: Path): string[] {
  return path.length === 0 ? Object.keys(Config.shape) : Object.keys(Rule.shape);
}

function describeValue(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text '${value}'`;
  return `${typeof value === 'number' ? 'the number' : 'the value'} ${String(value)}`;
}

/** ` (did you mean 'translation'?)` when an allowed key is close to the unknown one, else ''. */
export function suggestionFor(key: string, allowed: readonly string[]): string {
  const alias = KEY_ALIASES[key.toLowerCase()];
  if (alias && allowed.includes(alias)) return ` (did you mean '${alias}'?)`;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(key.toLowerCase(), candidate);
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.key.length / 3)) ? ` (did you mean '${best.key}'?)` : '';
}

/** Optimal-string-alignment distance: a swap of neighbours ('translatoin') counts as one edit, as people make them. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

function knownVariablesText(): string {
  return TEMPLATE_VARIABLES.map((v) => `{${v.name}}`).join(', ');
}

/** Why a source glob cannot be used, or undefined when it can. */
function sourceGlobProblem(glob: string): string | undefined {
  if (glob.trim() === '') return `must not be empty; expected ${EXPECTED['files[].source']}`;
  if (glob.includes('\\')) return `'${glob}' contains '\\'; write paths with '/' (they are relative to the config file on every system)`;
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob)) return `'${glob}' is absolute; write it relative to the config file's directory`;
  if (glob.split('/').includes('..')) return `'${glob}' climbs out with '..'; source files must be under the config file's directory`;
  try {
    compileGlob(glob);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

