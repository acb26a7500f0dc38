/** parlance.yml: finding it, validating it strictly with errors at their line and column, and matching its source globs on disk. */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative, resolve } from 'node:path';
import { LineCounter, isMap, isScalar, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { FORMAT_IDS } from '../core/formats/codec.js';
import { checkLocale } from '../core/locales/locales.js';
import { RepoPathError, repoPathProblem } from '../core/repo-path.js';
import { LOCALE_VARIABLES, TEMPLATE_VARIABLES, templatePathProblem, translationPath, unknownVariables, variablesIn } from '../core/path-templates.js';

export interface FileRule {
  source: string;
  translation: string;
  format?: string;
  careful?: string[];
}

export interface ParlanceConfig {
  service?: string;
  source_locale?: string;
  locales?: string[];
  files: FileRule[];
}

export interface ConfigIssue {
  line: number;
  column: number;
  /** Where in the config the problem is, e.g. `files[0].translation`. */
  at: string;
  message: string;
}

/** A parlance.yml that cannot be used; `line` and `column` (1-based) point at the first problem, `issues` lists them all. */
export class ConfigFileError extends Error {
  override readonly name: string = 'ConfigFileError';

  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    message: string,
    readonly issues: readonly ConfigIssue[] = [],
  ) {
    super(message);
  }
}

/** No parlance.yml where one was looked for; line and column are 0 because there is no text to point into. */
export class ConfigNotFoundError extends ConfigFileError {
  override readonly name = 'ConfigNotFoundError';

  constructor(file: string, message: string) {
    super(file, 0, 0, message);
  }
}

/** Where a config is looked for, in order, relative to the working directory. */
export const CONFIG_LOCATIONS = ['parlance.yml', '.github/parlance.yml'] as const;

const FORMAT_SET: ReadonlySet<string> = new Set(FORMAT_IDS);

/** What each place expects, quoted in type errors so the message shows the right form. */
const EXPECTED: Readonly<Record<string, string>> = {
  '': "a mapping with at least 'files'",
  service: "an http(s) URL such as 'https://parlance.example.com'",
  source_locale: "a BCP-47 tag such as 'en'",
  locales: 'a list of BCP-47 tags such as [de, fr, pt-BR]',
  'locales[]': "a BCP-47 tag such as 'pt-BR'",
  files: "a list of file rules, each with 'source' and 'translation'",
  'files[]': "a mapping with 'source' and 'translation'",
  'files[].source': "a glob such as 'locales/en/*.json'",
  'files[].translation': "a path template such as 'locales/{locale}/{name}.json'",
  'files[].format': "a format identifier such as 'json'",
  'files[].careful': 'a list of key patterns such as ["onboarding.*"]',
  'files[].careful[]': "a key pattern such as 'onboarding.*'",
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
});

const Config = z
  .strictObject({
    service: Service.optional(),
    source_locale: Locale.optional(),
    locales: z.array(Locale).optional(),
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
  const targets = (config.locales ?? [config.source_locale === 'de' ? 'fr' : 'de']).filter((l) => l !== config.source_locale);
  config.files.forEach((rule, index) => {
    // A template refused on its own (zod's refinements do not stop the checks after them) has been reported already.
    if (!isUsableTemplate(rule.translation)) return;
    const glob = compileGlob(rule.source);
    const sample = sampleOfGlob(rule.source);
    for (const locale of targets) {
      let target: string;
      try {
        target = translationPath(rule.translation, sample, locale);
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
    }
  });
  return issues;
}

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

function displayName(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : file;
}

// ---- Globs -------------------------------------------------------------------------------------------------------

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

/**
 * Compiles a glob to a RegExp over posix paths: `*` (any run within one path segment), `**` (as a whole segment: any number of
 * directories), `?` (one character other than '/'), `{a,b}` (alternatives, which may hold globs and nest). Everything else is literal.
 */
export function compileGlob(glob: string): RegExp {
  return new RegExp(`^${globSource(glob, glob)}$`, 'u');
}

function globSource(glob: string, whole: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      const double = glob[i + 1] === '*';
      const segmentStart = i === 0 || glob[i - 1] === '/';
      if (double && segmentStart && glob[i + 2] === '/') {
        out += '(?:[^/]+/)*';
        i += 2;
      } else if (double && segmentStart && i + 2 === glob.length) {
        out += '.*';
        i += 1;
      } else {
        out += '[^/]*';
        if (double) i += 1;
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      const end = closingBrace(glob, i);
      if (end < 0) throw new Error(`'${whole}' has a '{' without its '}'`);
      out += `(?:${splitAlternatives(glob.slice(i + 1, end)).map((alternative) => globSource(alternative, whole)).join('|')})`;
      i = end;
    } else if (c === '}') {
      throw new Error(`'${whole}' has a '}' without its '{'`);
    } else {
      out += c.replace(/[.+^$()|[\]\\/]/g, '\\$&');
    }
  }
  return out;
}

function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits `a,{b,c},d` at its top-level commas. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** One path the glob matches (`*` as 'x', `**` as no directory, the first alternative), to try a template on before any file exists. */
export function sampleOfGlob(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      const double = glob[i + 1] === '*';
      const segmentStart = i === 0 || glob[i - 1] === '/';
      if (double && segmentStart && glob[i + 2] === '/') i += 2;
      else {
        out += 'x';
        if (double) i += 1;
      }
    } else if (c === '?') {
      out += 'x';
    } else if (c === '{') {
      const end = closingBrace(glob, i);
      out += sampleOfGlob(splitAlternatives(glob.slice(i + 1, end))[0] ?? '');
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git']);

export interface SourceFileMatch {
  rule: FileRule;
  /** Posix, relative to root. */
  path: string;
  absolute: string;
}

/**
 * Every file matching each rule's `source` glob under `root` (skips node_modules, .git); sorted; a rule matching nothing is reported by the caller.
 * Rules are matched independently, in their order, each rule's files sorted by path, so a caller can tell which rule matched nothing.
 */
export function matchSources(config: ParlanceConfig, root: string): SourceFileMatch[] {
  return config.files.flatMap((rule) => {
    const pattern = compileGlob(rule.source);
    const paths = candidatePaths(root, rule.source).filter((path) => pattern.test(path));
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
