/** `parlance init`: finds the repository's locale files and writes a commented parlance.yml describing them. */
import { closeSync, existsSync, openSync, readSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Project } from '../../client/types.js';
import { CONFIG_LOCATIONS } from '../../project-config/load-config.js';
import { detectProject, renderConfig, type DetectedProject, type RenderNotes } from '../detect.js';
import { CommandError } from '../../sync/command-error.js';
import type { CommandContext } from '../../sync/command-context.js';
import { about } from '../../sync/subject-error.js';
import { localeTag, localeTags, noMorePositionals, parseFlags, type Command } from './command.js';

const Flags = z.object({
  force: z.boolean().default(false),
  'dry-run': z.boolean().default(false),
  service: z.string().optional(),
  locales: localeTags('--locales'),
  'source-locale': localeTag('--source-locale').optional(),
});

/** Folders that hold dependencies, build output or VCS data: their locale files are not the project's. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'vendor', 'Pods', 'dist', 'build', 'target', '.next', '.nuxt', 'coverage', '.parlance', '.venv', '__pycache__']);
/** Enough for any real repository; a walk beyond this is a home directory, not a project. */
const MAX_FILES = 50_000;
/** What format detection reads of a source file: the codecs look at the head only. */
const FORMAT_SNIFF_BYTES = 64 * 1024;

export const initCommand: Command = {
  name: 'init',
  summary: 'Detect the locale files in this repository and write parlance.yml',
  help: `Usage: parlance init [--locales de,fr] [--source-locale en] [--force] [--dry-run] [--service <url>]

Looks at the files under the current directory (skipping node_modules, .git, vendor and build output),
recognises the common layouts and writes a commented parlance.yml with the source locale, the target
locales and one file rule per layout. The source files alone are enough: locales/en/*.json,
public/locales/en/*.json, src/locales/en.json, src/i18n/en.json, res/values/strings.xml,
en.lproj/Localizable.strings, a gettext .pot or en.po, config/locales/en.yml, lib/l10n/app_en.arb.
Translation files already beside them (locales/de/*.json) confirm the template and give the locales.

Target locales: --locales when given; else those of the translation files found; else, with a token
(--token, PARLANCE_TOKEN), the project's (the file then leaves 'locales' out, so the project decides).
--service is written into the file when given.

  --locales        the target locales to write into parlance.yml (repeatable, or comma-separated)
  --source-locale  the locale the source files are in (default: guessed, English when in doubt)
  --force          overwrite an existing parlance.yml
  --dry-run        print the file instead of writing it`,
  options: { force: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, locales: { type: 'string', multiple: true }, 'source-locale': { type: 'string' } },
  async run(context, { values, positionals }) {
    const { io, out } = context;
    noMorePositionals(positionals, 0, 'parlance init [--locales de,fr] [--source-locale en] [--force] [--dry-run]');
    const flags = parseFlags(Flags, values);
    const target = join(io.cwd, 'parlance.yml');
    const existing = CONFIG_LOCATIONS.find((name) => existsSync(join(io.cwd, name)));
    if (existing && !flags.force && !flags['dry-run']) throw new CommandError(`${existing} already exists in ${io.cwd}; pass --force to overwrite it.`);

    const project = await readProject(context);
    const sourceLocale = flags['source-locale'] ?? project?.source_locale;
    const files = listRepositoryFiles(io.cwd);
    const layout = detectProject(files, { sourceLocale });
    if (!layout) {
      throw new CommandError(
        `No locale files found under ${io.cwd} in a layout parlance knows (such as locales/en/*.json, src/i18n/en.json, res/values/strings.xml, en.lproj/Localizable.strings, lib/l10n/app_en.arb, config/locales/en.yml, a gettext .pot)` +
          `${sourceLocale ? ` for the source locale '${sourceLocale}'` : '; if the source files are not in English, pass --source-locale'}. Write parlance.yml by hand: see the README.`,
      );
    }
    const locales = flags.locales ?? layout.locales;
    const listedSource = locales.find((locale) => locale === layout.sourceLocale);
    if (listedSource) throw new CommandError(`--locales lists '${listedSource}', the source locale; list only target locales.`);
    // Every codec loads here only, so the other commands start without them.
    const { detectFormat } = await import('../../core/formats/index.js');
    const notes: RenderNotes = {
      evidence: layout.evidence,
      detectedFormats: layout.rules.map((rule, index) => (rule.format ? undefined : formatsText(io.cwd, layout.evidence[index]?.sources ?? [], detectFormat))),
      ...(flags.locales ? { localesFrom: 'flag' as const } : layout.locales.length > 0 ? { localesFrom: 'files' as const } : {}),
      ...(project && locales.length === 0 ? { projectLocales: project.target_locales } : {}),
      ...(flags['source-locale'] ? { sourceLocaleFrom: 'flag' as const } : project ? { sourceLocaleFrom: 'project' as const } : {}),
    };
    const written = { ...layout, locales };
    const text = renderConfig(written, flags.service, notes);
    if (!flags['dry-run']) writeFileSync(target, text);

    out.document({ path: 'parlance.yml', written: !flags['dry-run'], source_locale: layout.sourceLocale, locales, project_locales: project?.target_locales ?? null, files: layout.rules, text });
    if (flags['dry-run']) {
      out.line(text.trimEnd());
      return 0;
    }
    out.line(`Wrote parlance.yml: ${layout.sourceLocale} → ${targetsText(locales, project)}`);
    layout.rules.forEach((rule, index) => out.line(`  ${rule.source} → ${rule.translation}${rule.format ? ` (${rule.format})` : ''}${guessNote(layout, index)}`));
    if (locales.length === 0 && !project) {
      out.problem("No target locales yet: pass --locales de,fr to list them, or run init with a token (PARLANCE_TOKEN) to see the project's; until then push and pull use every target locale of the project.");
    }
    out.line("Next: check the file, then run 'parlance push'.");
    return 0;
  },
};

/**
 * The project, when a token is at hand (--token, PARLANCE_TOKEN, a stored login): its locales are the targets, and its source
 * locale the source. `init` needs no service, so a project that cannot be read is a warning, and the file is written from the files alone.
 */
async function readProject(context: CommandContext): Promise<Project | undefined> {
  let client;
  try {
    client = context.client();
  } catch (error) {
    if (error instanceof CommandError && error.exitCode === 2) return undefined;
    throw error;
  }
  try {
    return await about("reading the project's locales", () => client.project());
  } catch (error) {
    context.out.problem(`${error instanceof Error ? error.message : String(error)}; parlance.yml is written from the files alone.`);
    return undefined;
  }
}

function targetsText(locales: readonly string[], project: Project | undefined): string {
  if (locales.length > 0) return locales.join(', ');
  if (project) return `the project's target locales (now ${project.target_locales.join(', ') || 'none'})`;
  return '(every target locale of the project)';
}

function guessNote(layout: DetectedProject, index: number): string {
  const evidence = layout.evidence[index];
  if (!evidence) return '';
  return evidence.translations.length > 0 ? `  [translations found: ${evidence.translations.join(', ')}]` : '  [no translations yet: template guessed from the layout]';
}

/** How many of a rule's source files are read to say which format the service will see. */
const SNIFFED_FILES = 20;

type DetectFormat = (typeof import('../../core/formats/index.js'))['detectFormat'];

/** The formats the service will detect for a rule's source files: `json`, or `json (common.json), json_nested (errors.json)` when they differ. */
function formatsText(root: string, sources: readonly string[], detectFormat: DetectFormat): string | undefined {
  const byFormat = new Map<string, string[]>();
  for (const path of sources.slice(0, SNIFFED_FILES)) {
    const format = sniffFormat(root, path, detectFormat);
    if (format !== undefined) byFormat.set(format, [...(byFormat.get(format) ?? []), path.split('/').pop() ?? path]);
  }
  if (byFormat.size <= 1) return [...byFormat.keys()][0];
  return [...byFormat].map(([format, names]) => `${format} (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''})`).join(', ');
}

/** The format the service will detect for a source file, from its name and first bytes; undefined when unreadable or unknown. */
function sniffFormat(root: string, path: string | undefined, detectFormat: DetectFormat): string | undefined {
  if (path === undefined) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(join(root, ...path.split('/')), 'r');
    const buffer = new Uint8Array(FORMAT_SNIFF_BYTES);
    const length = readSync(fd, buffer, 0, FORMAT_SNIFF_BYTES, 0);
    return detectFormat(path.split('/').pop() ?? path, buffer.subarray(0, length));
  } catch {
    // A file that cannot be read now is reported by push; the comment then leaves the format to the service.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Every file under `root`, as posix paths relative to it, sorted; dependency and build folders are not entered. */
export function listRepositoryFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (files.length >= MAX_FILES) return;
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(join(dir, entry.name), path);
      } else if (entry.isFile()) {
        files.push(path);
      }
    }
  };
  walk(root, '');
  return files.sort();
}
