/** Guesses parlance.yml from a repository's file names (for `parlance init`): where the locale sits in each path, which locale is the source, and the rules. */
import { posix } from 'node:path';
import { stringify } from 'yaml';
import { checkLocale } from '../core/locales/locales.js';
import type { FileRule } from '../project-config/parse-config.js';
import { TEMPLATE_VARIABLES, localeFromAndroid, variableValues } from '../core/path-templates.js';

export interface DetectedLayout {
  sourceLocale: string;
  locales: string[];
  rules: FileRule[];
}

/*
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
export function detectLayout(files: readonly string[]): DetectedLayout | undefined {
  const candidates = files.map((f) => f.replace(/^\.\//, '')).filter((f) => !f.split('/').some((segment) => SKIPPED_SEGMENTS.has(segment)));
  const groups = layoutGroups(candidates);
  if (groups.length === 0) return undefined;
  const sourceLocale = chooseSourceLocale(groups, filesPerLocale(candidates));
  const ruled = groups.flatMap((group) => groupRule(group, sourceLocale) ?? []);
  if (ruled.length === 0) return undefined;
  const merged = mergeFolderRules(ruled);
  const locales = [...new Set(merged.flatMap((r) => r.locales))].filter((l) => l !== sourceLocale).sort();
  return { sourceLocale, locales, rules: merged.map((r) => r.rule).sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0)) };
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

// ---- Rendering ---------------------------------------------------------------------------------------------------

/** The commented parlance.yml that `init` writes. */
export function renderConfig(layout: { sourceLocale: string; locales: string[]; rules: FileRule[] }, service?: string): string {
  const width = Math.max(...TEMPLATE_VARIABLES.map((v) => v.name.length)) + 2;
  const variables = TEMPLATE_VARIABLES.map((v) => `#   ${`{${v.name}}`.padEnd(width)}  ${v.example.padEnd(10)}  ${v.meaning}`);
  const lines = [
    '# parlance.yml: which files Parlance translates, and where the translations go.',
    '# Written by `parlance init` from the file names in this repository; check it and edit freely.',
    "# Paths are relative to this file's directory (the repository, for .github/parlance.yml).",
    '',
    service !== undefined ? `service: ${scalar(service)}` : '# service: https://parlance.example.com   # default: $PARLANCE_URL, else http://127.0.0.1:8787',
    `source_locale: ${scalar(layout.sourceLocale)}`,
    layout.locales.length > 0
      ? `locales: [${layout.locales.map(scalar).join(', ')}]   # leave out to use every target locale of the project`
      : "# locales: [de, fr]   # default: every target locale of the project",
    '',
    '# source: a glob: * (within a folder), ** (any depth), ? (one character), {a,b} (either).',
    '# translation: where each locale goes; variables (pt-BR shown):',
    ...variables,
    '# format: optional; the service detects it from the file name and content.',
    '# careful: optional; key patterns such as ["onboarding.*"] get the careful pass (context, glossary, self-check).',
    'files:',
    ...layout.rules.flatMap((rule) => [
      `  - source: ${scalar(rule.source)}`,
      `    translation: ${scalar(rule.translation)}`,
      ...(rule.format ? [`    format: ${scalar(rule.format)}`] : []),
      // JSON strings are YAML double-quoted scalars, safe inside a flow list whatever the pattern holds.
      ...(rule.careful?.length ? [`    careful: [${rule.careful.map((p) => JSON.stringify(p)).join(', ')}]`] : []),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

/** A YAML scalar as the yaml package writes it: quoted when plain text would read back differently (`{locale}.json`, `*.po`). */
function scalar(value: string): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}
