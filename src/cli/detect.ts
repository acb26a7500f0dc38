/** Guesses parlance.yml from a repository's file names (for `parlance init`): where the locale sits in each path, which locale is the source, and the rules. */
import { posix } from 'node:path';
import { stringify } from 'yaml';
import { checkLocale } from '../core/locales/locales.js';
import { compileGlob } from '../project-config/compile-glob.js';
import type { FileRule } from '../project-config/parse-config.js';
import { TEMPLATE_VARIABLES, localeFromAndroid, variableValues } from '../core/path-templates.js';

export interface DetectedLayout {
  sourceLocale: string;
  locales: string[];
  rules: FileRule[];
}

/** Why `init` wrote a rule: the files behind it, and the translations or the convention its template comes from. */
export interface RuleEvidence {
  /** The repository's files the rule's source glob names. */
  sources: string[];
  /** Locales whose translation files already sit where the template puts them; empty for a layout known from its source alone. */
  translations: string[];
  /** For a layout known from its source alone: the convention whose paths the template follows. */
  convention?: string;
}

/** A detected layout and, rule by rule (same order), its evidence. */
export interface DetectedProject extends DetectedLayout {
  evidence: RuleEvidence[];
}

export interface DetectOptions {
  /** The source locale when the caller knows it (a flag, the project); otherwise guessed. */
  sourceLocale?: string | undefined;
}

/*
 * A repository that holds only its source files (nothing translated yet) has no group; its files are then read against the
 * conventions of the common tools (a folder named locales/, i18n/, l10n/ …, an `.lproj`, Android's values/, Flutter's ARB,
 * gettext's .pot), and the template is the one that tool uses for the other locales.
 *
 * How it works: in every file name the locale can sit in one slot: a whole folder (`locales/de/app.json`), an `.lproj` folder,
 * an Android `values-` folder, the file's stem (`de.json`) or the end of its stem (`app_de.arb`, `devise.de.yml`). Files that
 * differ only in that slot form a group; a group with two locales, or one locale and a base file (Android `values/`,
 * `messages.properties`, a gettext `.pot`), is a layout. The template is the group's shape with the locale variable whose
 * rendering every file of the group uses.
 */

/** Extensions of the formats a file per locale can hold (xcstrings and spreadsheets keep every locale in one file). */
const LOCALE_FILE_EXTENSIONS: ReadonlySet<string> = new Set(['json', 'yml', 'yaml', 'po', 'php', 'xml', 'strings', 'stringsdict', 'arb', 'properties', 'resx', 'xlf', 'xliff', 'md']);
/** Dependencies and build output hold other projects' locale files. */
const SKIPPED_SEGMENTS: ReadonlySet<string> = new Set(['node_modules', '.git', 'vendor', 'Pods', 'Carthage', 'build', 'dist', 'target', '.next', '.nuxt', 'coverage']);
/** The locale slot inside a shape. */
const SLOT = '\u0000';

type SlotKind = 'dir' | 'lproj' | 'android' | 'stem' | 'suffix';
type Style = 'locale' | 'locale_underscore' | 'apple_locale' | 'android_locale';

interface Occurrence {
  shape: string;
  kind: SlotKind;
  path: string;
  /** Undefined for a base file: the source file that names no locale. */
  locale?: string;
  token?: string;
}

interface Group {
  shape: string;
  kind: SlotKind;
  members: Map<string, { path: string; token: string }>;
  base?: string;
}

/**
 * From the repository's file list (posix, relative), guesses the source locale, the target locales and file rules (source glob + translation template + format) for the common layouts:
 * locales/<locale>/*.json, locales/<locale>.json, i18n/*.json, res/values[-xx[-rYY]]/strings.xml, *.lproj/Localizable.strings, lib/l10n/app_<locale>.arb, config/locales/<locale>.yml,
 * resources/lang/<locale>/*.php, po files, and so on.
 */
export function detectLayout(files: readonly string[], options: DetectOptions = {}): DetectedLayout | undefined {
  const project = detectProject(files, options);
  if (!project) return undefined;
  const { sourceLocale, locales, rules } = project;
  return { sourceLocale, locales, rules };
}

/** detectLayout with the evidence for each rule, which `init` writes into parlance.yml as comments. */
export function detectProject(files: readonly string[], options: DetectOptions = {}): DetectedProject | undefined {
  const candidates = files.map((f) => f.replace(/^\.\//, '')).filter((f) => !f.split('/').some((segment) => SKIPPED_SEGMENTS.has(segment)));
  const groups = layoutGroups(candidates);
  const sourceLocale = options.sourceLocale ?? (groups.length > 0 ? chooseSourceLocale(groups, filesPerLocale(candidates)) : sourceOnlyLocale(candidates));
  if (sourceLocale === undefined) return undefined;
  const fromTranslations = mergeFolderRules(groups.flatMap((group) => groupRule(group, sourceLocale) ?? []));
  // What the layouts with translations leave: source files nothing translates yet.
  const covered = fromTranslations.map((r) => compileGlob(r.rule.source));
  const taken = new Set(groups.flatMap((g) => [...[...g.members.values()].map((m) => m.path), ...(g.base !== undefined ? [g.base] : [])]));
  const rest = candidates.filter((path) => !taken.has(path) && !covered.some((glob) => glob.test(path)));
  const merged = [...fromTranslations, ...mergeFolderRules(sourceOnlyRules(rest, sourceLocale))];
  if (merged.length === 0) return undefined;
  merged.sort((a, b) => (a.rule.source < b.rule.source ? -1 : a.rule.source > b.rule.source ? 1 : 0));
  const locales = [...new Set(merged.flatMap((r) => r.locales))].filter((l) => l !== sourceLocale).sort();
  const evidence = merged.map((r): RuleEvidence => {
    const glob = compileGlob(r.rule.source);
    return { sources: candidates.filter((path) => glob.test(path)), translations: [...r.locales].sort(), ...(r.convention ? { convention: r.convention } : {}) };
  });
  return { sourceLocale, locales, rules: merged.map((r) => r.rule), evidence };
}

// ---- Grouping ----------------------------------------------------------------------------------------------------

function layoutGroups(files: readonly string[]): Group[] {
  const fileSet = new Set(files);
  const byShape = new Map<string, Group>();
  const bases: Occurrence[] = [];
  for (const path of files) {
    for (const occurrence of occurrencesIn(path)) {
      if (occurrence.locale === undefined) {
        bases.push(occurrence);
        continue;
      }
      const group = byShape.get(occurrence.shape) ?? { shape: occurrence.shape, kind: occurrence.kind, members: new Map() };
      byShape.set(occurrence.shape, group);
      if (!group.members.has(occurrence.locale)) group.members.set(occurrence.locale, { path, token: occurrence.token ?? '' });
    }
  }
  for (const base of bases) {
    const group = byShape.get(base.shape);
    if (group && group.base === undefined) group.base = base.path;
  }
  for (const group of byShape.values()) if (group.base === undefined && extensionOf(group.shape) === 'po') group.base = gettextTemplate(group, fileSet);

  // A file can sit in two shapes (its folder and its stem both look like a locale); the larger layout keeps it.
  const ordered = [...byShape.values()].sort((a, b) => size(b) - size(a) || (a.shape < b.shape ? -1 : 1));
  const taken = new Set<string>();
  const chosen: Group[] = [];
  for (const group of ordered) {
    const members = new Map([...group.members].filter(([, m]) => !taken.has(m.path)));
    const base = group.base !== undefined && !taken.has(group.base) ? group.base : undefined;
    if (members.size < 2 && !(members.size === 1 && base !== undefined)) continue;
    for (const m of members.values()) taken.add(m.path);
    if (base !== undefined) taken.add(base);
    chosen.push({ ...group, members, ...(base !== undefined ? { base } : {}) });
  }
  return chosen;
}

function size(group: Group): number {
  return group.members.size + (group.base === undefined ? 0 : 1);
}

/** Every way `path` can be read as "a locale in one slot"; base files (no locale) come with the shape they are the base of. */
function occurrencesIn(path: string): Occurrence[] {
  const segments = path.split('/');
  const file = segments[segments.length - 1] ?? '';
  const ext = extensionOf(file);
  if (!LOCALE_FILE_EXTENSIONS.has(ext)) return [];
  const stem = file.slice(0, file.length - ext.length - 1);
  const dirs = segments.slice(0, -1);
  const found: Occurrence[] = [];
  const withDir = (index: number, replacement: string) => [...dirs.slice(0, index), replacement, ...dirs.slice(index + 1), file].join('/');

  dirs.forEach((segment, index) => {
    const lproj = /^(.+)\.lproj$/.exec(segment);
    if (lproj) {
      const token = lproj[1]!;
      const shape = withDir(index, `${SLOT}.lproj`);
      if (token === 'Base') found.push({ shape, kind: 'lproj', path });
      else {
        const locale = localeOfToken(token);
        if (locale) found.push({ shape, kind: 'lproj', path, locale, token });
      }
      return;
    }
    if (ext === 'xml' && (segment === 'values' || segment.startsWith('values-'))) {
      const shape = withDir(index, `values-${SLOT}`);
      if (segment === 'values') found.push({ shape, kind: 'android', path });
      else {
        const token = segment.slice('values-'.length);
        const locale = localeFromAndroid(token);
        if (locale) found.push({ shape, kind: 'android', path, locale, token });
      }
      return;
    }
    const locale = localeOfToken(segment);
    if (locale) found.push({ shape: withDir(index, SLOT), kind: 'dir', path, locale, token: segment });
  });

  const dir = dirs.length > 0 ? `${dirs.join('/')}/` : '';
  const stemLocale = localeOfToken(stem);
  if (stemLocale) found.push({ shape: `${dir}${SLOT}.${ext}`, kind: 'stem', path, locale: stemLocale, token: stem });
  const suffix = localeSuffix(stem);
  if (suffix) found.push({ shape: `${dir}${suffix.prefix}${SLOT}.${ext}`, kind: 'suffix', path, locale: suffix.locale, token: suffix.token });
  // `messages.properties` is the base of `messages_de.properties`, `Resources.resx` of `Resources.de.resx`.
  for (const separator of ['_', '.', '-']) found.push({ shape: `${dir}${stem}${separator}${SLOT}.${ext}`, kind: 'suffix', path });
  return found;
}

/** The longest locale at the end of a stem after '_', '.' or '-' (`app_pt_BR` → pt_BR, `devise.en` → en). */
function localeSuffix(stem: string): { prefix: string; token: string; locale: string } | undefined {
  for (let i = 1; i < stem.length - 1; i++) {
    if (!'_.-'.includes(stem[i]!)) continue;
    const token = stem.slice(i + 1);
    const locale = localeOfToken(token);
    if (locale) return { prefix: stem.slice(0, i + 1), token, locale };
  }
  return undefined;
}

/**
 * The locale a path token names, only when a template variable renders that locale back to the same token (`pt-BR`, `pt_BR`,
 * `zh-Hans`); `pt-br` or `EN` could not be written back, and `src` (read as Sardinian, `sc`) is a folder, not a locale.
 */
function localeOfToken(token: string): string | undefined {
  if (!/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/.test(token)) return undefined;
  const check = checkLocale(token.replaceAll('_', '-'));
  if (!check.ok) return undefined;
  return check.tag === token || check.tag.replaceAll('-', '_') === token ? check.tag : undefined;
}

/** A gettext catalog's template (`messages.pot`) is its source when no source-locale `.po` exists. */
function gettextTemplate(group: Group, files: ReadonlySet<string>): string | undefined {
  const sample = group.members.values().next().value?.path;
  if (sample === undefined) return undefined;
  const stem = posix.basename(sample, '.po');
  const prefix = group.shape.slice(0, group.shape.indexOf(SLOT));
  const templates = [...files].filter((f) => f.endsWith('.pot') && f.startsWith(prefix.slice(0, prefix.lastIndexOf('/') + 1)));
  const sameName = templates.filter((f) => posix.basename(f, '.pot') === stem);
  const candidates = sameName.length > 0 ? sameName : group.kind === 'stem' ? templates.filter((f) => posix.dirname(f) === posix.dirname(group.shape)) : [];
  return candidates.length === 1 ? candidates[0] : undefined;
}

// ---- Source locale and rules -------------------------------------------------------------------------------------

/**
 * English when any layout has it (most projects write their source in English), else English for base files (values/,
 * messages.properties hold the default language, by convention English), else the locale in most layouts and then with most
 * files: translations lag behind their source, so the source is the most complete.
 */
function chooseSourceLocale(groups: readonly Group[], files: ReadonlyMap<string, number>): string {
  const counts = new Map<string, number>();
  for (const group of groups) for (const locale of group.members.keys()) counts.set(locale, (counts.get(locale) ?? 0) + 1);
  const english = ['en', 'en-US', 'en-GB', ...[...counts.keys()].filter((l) => l.startsWith('en-')).sort()].find((l) => counts.has(l));
  if (english) return english;
  if (groups.some((g) => g.base !== undefined)) return 'en';
  const ranked = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || (files.get(b) ?? 0) - (files.get(a) ?? 0) || (a < b ? -1 : 1));
  return ranked[0] ?? 'en';
}

/** How many files name each locale, in any slot. */
function filesPerLocale(files: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of files) {
    const locales = new Set(occurrencesIn(path).flatMap((o) => (o.locale === undefined ? [] : [o.locale])));
    for (const locale of locales) counts.set(locale, (counts.get(locale) ?? 0) + 1);
  }
  return counts;
}

interface RuledGroup {
  group: Group;
  /** For a layout known from its source alone: the convention the template follows. */
  convention?: string;
  style: Style;
  source: string;
  /** The source is a base file (values/, Base.lproj, a .pot) rather than the source locale's own file. */
  fromBase: boolean;
  locales: string[];
  rule: FileRule;
}

function groupRule(group: Group, sourceLocale: string): RuledGroup | undefined {
  const source = group.members.get(sourceLocale)?.path ?? group.base;
  if (source === undefined) return undefined;
  const style = groupStyle(group);
  const locales = [...group.members].filter(([locale, m]) => locale !== sourceLocale && rendersAs(style, locale, m.token)).map(([locale]) => locale);
  if (locales.length === 0) return undefined;
  const rule: FileRule = { source, translation: group.shape.replace(SLOT, `{${style}}`), ...formatOf(source) };
  return { group, style, source, fromBase: source === group.base, locales, rule };
}

/** The variable every token of the group is written in: underscores (gettext, Java, ARB) or the BCP-47 tag itself. */
function groupStyle(group: Group): Style {
  if (group.kind === 'android') return 'android_locale';
  if (group.kind === 'lproj') return 'apple_locale';
  const tokens = [...group.members.values()].map((m) => m.token);
  const underscored = tokens.filter((t) => t.includes('_')).length;
  const hyphenated = tokens.filter((t) => t.includes('-')).length;
  return underscored > hyphenated ? 'locale_underscore' : 'locale';
}

function rendersAs(style: Style, locale: string, token: string): boolean {
  return variableValues('', locale)[style] === token;
}

/**
 * Layouts with the locale as the folder of the files (`locales/de/*.json`, `de.lproj/*.strings`) become one rule per folder and
 * extension: `*` takes in files added later. Android's `values/` also holds colors and dimensions, so there the rule names its files.
 */
function mergeFolderRules(ruled: RuledGroup[]): RuledGroup[] {
  const clusters = new Map<string, RuledGroup[]>();
  const kept: RuledGroup[] = [];
  for (const r of ruled) {
    const shapeDir = posix.dirname(r.group.shape);
    const ext = extensionOf(r.source);
    const folderSlot = ['dir', 'lproj', 'android'].includes(r.group.kind) && shapeDir.includes(SLOT) && !posix.basename(r.group.shape).includes(SLOT);
    // A .pot elsewhere is no folder of the layout; values/ and Base.lproj are.
    const inLayout = !r.fromBase || r.group.kind !== 'dir';
    if (!folderSlot || !inLayout || ext === '' || /[*?{},]/.test(posix.basename(r.source))) {
      kept.push(r);
      continue;
    }
    const key = [shapeDir, posix.dirname(r.source), ext, r.style, r.rule.format ?? ''].join('\u0001');
    clusters.set(key, [...(clusters.get(key) ?? []), r]);
  }
  for (const members of clusters.values()) {
    const first = members[0]!;
    const ext = extensionOf(first.source);
    const sourceDir = posix.dirname(first.source);
    const names = members.map((m) => posix.basename(m.source, `.${ext}`)).sort();
    const android = first.group.kind === 'android';
    if (android && names.length === 1) {
      kept.push(first);
      continue;
    }
    const files = android ? (names.length === 1 ? names[0]! : `{${names.join(',')}}`) : '*';
    const source = `${sourceDir === '.' ? '' : `${sourceDir}/`}${files}.${ext}`;
    const translation = `${posix.dirname(first.group.shape).replace(SLOT, `{${first.style}}`)}/{name}.${ext}`;
    kept.push({ ...first, source, locales: [...new Set(members.flatMap((m) => m.locales))], rule: { source, translation, ...(first.rule.format ? { format: first.rule.format } : {}) } });
  }
  return kept;
}

/** The format when the extension settles it; JSON, XLIFF and CSV come in several, which the service tells apart by content. */
function formatOf(path: string): { format?: string } {
  const ext = extensionOf(path);
  const segments = path.split('/');
  const format: Record<string, string | undefined> = {
    php: 'laravel_php',
    xml: segments.some((s) => s === 'values' || s.startsWith('values-')) ? 'android_xml' : undefined,
    strings: 'ios_strings',
    stringsdict: 'ios_stringsdict',
    arb: 'arb',
    yml: 'yaml',
    yaml: 'yaml',
    properties: 'properties',
    resx: 'resx',
    md: 'markdown',
    // Unreal Engine exports its gettext files under Content/Localization/<target>/<locale>/.
    po: segments.includes('Localization') ? 'unreal_po' : 'po',
    pot: segments.includes('Localization') ? 'unreal_po' : 'po',
  };
  const id = format[ext];
  return id ? { format: id } : {};
}

function extensionOf(path: string): string {
  const name = posix.basename(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
}

// ---- Source files alone ------------------------------------------------------------------------------------------

/** Folder names that say "localisation files live here", so a locale-named file or folder under one is the source, not a coincidence. */
const L10N_FOLDER = /^(?:locales?|i18n|l10n|lang|langs|languages?|translations?|messages|intl|locali[sz]ations?)$/i;
/** Android's values/ also holds colors, dimensions and styles; these are the files that hold text. */
const ANDROID_TEXT_FILES: ReadonlySet<string> = new Set(['strings.xml', 'plurals.xml', 'arrays.xml']);
/** How many source-only files are looked at: beyond this a repository is better described by hand. */
const MAX_SOURCE_ONLY = 2_000;

/** The source locale of a repository without translations: English when a recognised file names it, else the one locale named. */
function sourceOnlyLocale(files: readonly string[]): string | undefined {
  const locales = new Set<string>();
  let bases = 0;
  for (const path of files.slice(0, MAX_SOURCE_ONLY * 10)) {
    if (path.endsWith('.pot')) bases++;
    for (const occurrence of occurrencesIn(path)) {
      if (sourceOnlyConvention(occurrence) === undefined) continue;
      if (occurrence.locale === undefined) bases++;
      else locales.add(occurrence.locale);
    }
  }
  const english = ['en', 'en-US', 'en-GB', ...[...locales].filter((l) => l.startsWith('en-')).sort()].find((l) => locales.has(l));
  if (english) return english;
  if (locales.size === 1) return [...locales][0];
  // Base files (values/, Base.lproj, a .pot) hold the default language, by convention English.
  return locales.size === 0 && bases > 0 ? 'en' : undefined;
}

/** The rules for source files that have no translations yet, each from the convention of the tool its path belongs to. */
function sourceOnlyRules(files: readonly string[], sourceLocale: string): RuledGroup[] {
  const ruled: RuledGroup[] = [];
  const seen = new Set<string>();
  for (const path of files) {
    if (ruled.length >= MAX_SOURCE_ONLY) break;
    if (path.endsWith('.pot')) {
      const pot = gettextTemplateRule(path);
      if (pot) ruled.push(pot);
      continue;
    }
    const found = occurrencesIn(path)
      .filter((o) => o.locale === sourceLocale || o.locale === undefined)
      .flatMap((o) => {
        const convention = sourceOnlyConvention(o);
        return convention ? [{ occurrence: o, ...convention }] : [];
      })
      .sort((a, b) => KIND_ORDER.indexOf(a.occurrence.kind) - KIND_ORDER.indexOf(b.occurrence.kind))[0];
    if (!found || seen.has(path)) continue;
    seen.add(path);
    const { occurrence, style, convention } = found;
    const base = occurrence.locale === undefined;
    const group: Group = {
      shape: occurrence.shape,
      kind: occurrence.kind,
      members: base ? new Map() : new Map([[sourceLocale, { path, token: occurrence.token ?? '' }]]),
      ...(base ? { base: path } : {}),
    };
    const rule: FileRule = { source: path, translation: occurrence.shape.replace(SLOT, `{${style}}`), ...formatOf(path) };
    ruled.push({ group, style, source: path, fromBase: base, locales: [], rule, convention });
  }
  return ruled;
}

/** Which reading of a path wins when it has several: a folder the tool names (`.lproj`, `values`) before a plain folder, before the file name. */
const KIND_ORDER: readonly SlotKind[] = ['lproj', 'android', 'dir', 'stem', 'suffix'];

/** The convention a source-only file follows and the locale variable its tool writes, or undefined when its path is no known layout. */
function sourceOnlyConvention(occurrence: Occurrence): { style: Style; convention: string } | undefined {
  const segments = occurrence.path.split('/');
  const file = segments[segments.length - 1]!;
  const ext = extensionOf(file);
  const inL10nFolder = segments.slice(0, -1).some((segment) => L10N_FOLDER.test(segment));
  switch (occurrence.kind) {
    case 'lproj':
      return ext === 'strings' || ext === 'stringsdict' ? { style: 'apple_locale', convention: 'Xcode: one <locale>.lproj folder per language' } : undefined;
    case 'android':
      return ANDROID_TEXT_FILES.has(file) ? { style: 'android_locale', convention: 'Android: res/values-<qualifier>/ per language' } : undefined;
    case 'dir':
      if (ext === 'po') return segments.includes('LC_MESSAGES') || inL10nFolder ? { style: 'locale_underscore', convention: 'gettext: <locale>/LC_MESSAGES/<domain>.po' } : undefined;
      return inL10nFolder && ext !== 'md' ? { style: 'locale', convention: 'one folder per language (i18next, react-i18next, vue-i18n)' } : undefined;
    case 'stem':
      if (ext === 'po') return { style: 'locale_underscore', convention: 'gettext: one <locale>.po per language' };
      if (!inL10nFolder) return undefined;
      if (ext === 'yml' && occurrence.path.startsWith('config/locales/')) return { style: 'locale', convention: 'Rails I18n: config/locales/<locale>.yml' };
      return ['json', 'yml', 'yaml', 'properties', 'xlf', 'xliff'].includes(ext) ? { style: 'locale', convention: 'one file per language named by its locale' } : undefined;
    case 'suffix': {
      if (occurrence.locale === undefined) return undefined;
      const underscore = occurrence.shape.includes(`_${SLOT}`);
      if (ext === 'arb') return { style: 'locale_underscore', convention: 'Flutter gen-l10n: lib/l10n/app_<locale>.arb' };
      if (!inL10nFolder || !['json', 'yml', 'yaml', 'properties'].includes(ext)) return undefined;
      return { style: underscore ? 'locale_underscore' : 'locale', convention: `one file per language, the locale after the name (${underscore ? 'name_<locale>' : 'name.<locale>'})` };
    }
  }
}

/**
 * A gettext template with no catalogue yet: under a `locale(s)` folder the catalogues go to <locale>/LC_MESSAGES/ (Django,
 * Babel), elsewhere beside it as <locale>.po (GNU's po/ folder).
 */
function gettextTemplateRule(path: string): RuledGroup | undefined {
  const dir = posix.dirname(path);
  const name = posix.basename(path, '.pot');
  if (name === '' || /[*?{},]/.test(name)) return undefined;
  const lcMessages = /^locales?$/i.test(posix.basename(dir));
  const prefix = dir === '.' ? '' : `${dir}/`;
  const shape = lcMessages ? `${prefix}${SLOT}/LC_MESSAGES/${name}.po` : `${prefix}${SLOT}.po`;
  const convention = lcMessages ? 'gettext: <locale>/LC_MESSAGES/<domain>.po beside the template' : 'gettext: one <locale>.po per language beside the template';
  const group: Group = { shape, kind: lcMessages ? 'dir' : 'stem', members: new Map(), base: path };
  const rule: FileRule = { source: path, translation: shape.replace(SLOT, '{locale_underscore}'), ...formatOf(path) };
  return { group, style: 'locale_underscore', source: path, fromBase: true, locales: [], rule, convention };
}

// ---- Rendering ---------------------------------------------------------------------------------------------------

/** What `init` knows beyond the layout, written as comments so that the file says what was guessed and from what. */
export interface RenderNotes {
  /** Rule by rule (the layout's order): the files and translations or convention behind it. */
  evidence?: readonly RuleEvidence[];
  /** Rule by rule: the format(s) the service detects from the source files' names and content, for a rule that names none. */
  detectedFormats?: readonly (string | undefined)[];
  /** Where the listed locales come from. */
  localesFrom?: 'flag' | 'files';
  /** The project's target locales, read from the service; `locales` is then left out so that the project decides. */
  projectLocales?: readonly string[];
  /** Where the source locale comes from, when not guessed from the file names. */
  sourceLocaleFrom?: 'flag' | 'project';
}

/** How many file names a comment lists before it says how many more there are. */
const LISTED_FILES = 4;

/** The commented parlance.yml that `init` writes. */
export function renderConfig(layout: { sourceLocale: string; locales: string[]; rules: FileRule[] }, service?: string, notes: RenderNotes = {}): string {
  const width = Math.max(...TEMPLATE_VARIABLES.map((v) => v.name.length)) + 2;
  const variables = TEMPLATE_VARIABLES.map((v) => `#   ${`{${v.name}}`.padEnd(width)}  ${v.example.padEnd(10)}  ${v.meaning}`);
  const sourceNote = notes.sourceLocaleFrom === 'flag' ? '   # from --source-locale' : notes.sourceLocaleFrom === 'project' ? "   # the project's source locale" : '   # guessed from the file names';
  const lines = [
    '# parlance.yml: which files Parlance translates, and where the translations go.',
    '# Written by `parlance init` from the files in this repository; the comments say what it guessed. Check it and edit freely.',
    "# Paths are relative to this file's directory (the repository, for .github/parlance.yml).",
    '',
    service !== undefined ? `service: ${scalar(service)}` : '# service: https://parlance.example.com   # default: $PARLANCE_URL, else http://127.0.0.1:8787',
    `source_locale: ${scalar(layout.sourceLocale)}${sourceNote}`,
    ...localesLines(layout.locales, notes),
    '',
    "# languages_mapping: where your paths spell a locale differently from Parlance's tag, the name they use",
    '# (every locale variable of a template gives it; a file rule can have its own, over this one). For example:',
    '# languages_mapping:',
    '#   de: de-DE',
    '#   zh-Hans: zh_CN',
    '',
    '# source: a glob: * (within a folder), ** (any depth), ? (one character), {a,b} (either).',
    '# translation: where each locale goes; variables (pt-BR shown):',
    ...variables,
    '# format: optional; the service detects it from the file name and content.',
    '# ignore: optional; globs (as in source) of files that source matches but that are not to be translated, e.g. ["locales/en/legacy/**"].',
    '# careful: optional; key patterns such as ["onboarding.*"] get the careful pass (context, glossary, self-check).',
    '# plurals: optional; i18next (items_one, items_other … are one plural key; the default for a family with _other) or none.',
    'files:',
    ...layout.rules.flatMap((rule, index) => [
      ...ruleComments(rule, notes.evidence?.[index], notes.detectedFormats?.[index]),
      `  - source: ${scalar(rule.source)}`,
      `    translation: ${scalar(rule.translation)}`,
      ...(rule.format ? [`    format: ${scalar(rule.format)}`] : []),
      // JSON strings are YAML double-quoted scalars, safe inside a flow list whatever the pattern holds.
      ...(rule.careful?.length ? [`    careful: [${rule.careful.map((p) => JSON.stringify(p)).join(', ')}]`] : []),
      // Only a glob can match files that are not sources.
      ...(/[*?{]/.test(rule.source) ? [`    # ignore: [${JSON.stringify(ignoreExample(rule.source))}]`] : []),
      `    # languages_mapping: {${layout.locales[0] ?? 'pt-BR'}: ${mappingExample(layout.locales[0] ?? 'pt-BR')}}`,
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

function localesLines(locales: readonly string[], notes: RenderNotes): string[] {
  if (locales.length > 0) {
    const from = notes.localesFrom === 'flag' ? 'from --locales' : 'the locales of the translations found';
    return [`locales: [${locales.map(scalar).join(', ')}]   # ${from}; leave out to use every target locale of the project`];
  }
  if (notes.projectLocales && notes.projectLocales.length > 0) {
    return [
      `# locales: [${notes.projectLocales.map(scalar).join(', ')}]   # the project's target locales today; left out, so that`,
      '#   languages added to the project later (parlance languages add) are pulled too',
    ];
  }
  return ['# locales: [de, fr]   # default: every target locale of the project'];
}

/** The comment lines above a rule: which files, from what its template comes, which format. */
function ruleComments(rule: FileRule, evidence: RuleEvidence | undefined, detected: string | undefined): string[] {
  const lines: string[] = [];
  if (evidence) {
    const shown = evidence.sources.slice(0, LISTED_FILES).map(commentText).join(', ');
    const more = evidence.sources.length > LISTED_FILES ? ` and ${evidence.sources.length - LISTED_FILES} more` : '';
    lines.push(`  # Source files found: ${shown}${more}.`);
    if (evidence.translations.length > 0) lines.push(`  # Template: where the translations found already are (${evidence.translations.join(', ')}).`);
    else if (evidence.convention) lines.push(`  # Template: no translations yet, so it follows the usual layout: ${evidence.convention}.`);
  }
  if (rule.format) lines.push(`  # Format: ${rule.format}, from the file name.`);
  else if (detected) lines.push(`  # Format: ${commentText(detected)}, as the service detects it from the files' names and content; add format: to fix it.`);
  else lines.push('  # Format: detected by the service from each file\'s name and content; add format: to fix it.');
  return lines;
}

/** An ignore glob beside a rule's source, to show the form. */
function ignoreExample(source: string): string {
  const dir = posix.dirname(source);
  return `${dir === '.' ? '' : `${dir}/`}legacy/**`;
}

/** `pt-BR` → `pt_BR`, `de` → `de-DE` (its likely region): a name a repository might use instead of the tag. */
function mappingExample(locale: string): string {
  if (locale.includes('-')) return locale.replaceAll('-', '_');
  const region = new Intl.Locale(locale).maximize().region;
  return region ? `${locale}-${region}` : `${locale}_x`;
}

/** A file name in a comment: a newline or other control character in it would end the comment. */
function commentText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]/g, '?');
}

/** A YAML scalar as the yaml package writes it: quoted when plain text would read back differently (`{locale}.json`, `*.po`). */
function scalar(value: string): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}
