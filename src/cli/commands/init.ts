/** `parlance init`: finds the repository's locale files and writes a commented parlance.yml describing them. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CONFIG_LOCATIONS } from '../../project-config/load-config.js';
import { detectLayout, renderConfig } from '../detect.js';
import { CommandError } from '../../sync/command-error.js';
import { noMorePositionals, parseFlags, type Command } from './command.js';

const Flags = z.object({
  force: z.boolean().default(false),
  'dry-run': z.boolean().default(false),
  service: z.string().optional(),
});

/** Folders that hold dependencies, build output or VCS data: their locale files are not the project's. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'vendor', 'Pods', 'dist', 'build', 'target', '.next', '.nuxt', 'coverage', '.parlance', '.venv', '__pycache__']);
/** Enough for any real repository; a walk beyond this is a home directory, not a project. */
const MAX_FILES = 50_000;

export const initCommand: Command = {
  name: 'init',
  summary: 'Detect the locale files in this repository and write parlance.yml',
  help: `Usage: parlance init [--force] [--dry-run] [--service <url>]

Looks at the files under the current directory (skipping node_modules, .git, vendor and build output),
recognises the common layouts (locales/<locale>/*.json, res/values-xx/strings.xml, *.lproj, ARB, Rails YAML,
Laravel lang, gettext, ...) and writes a commented parlance.yml with the source locale, the target locales
and one file rule per layout. --service is written into the file when given.

  --force       overwrite an existing parlance.yml
  --dry-run     print the file instead of writing it`,
  options: { force: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
  async run({ io, out }, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance init [--force] [--dry-run]');
    const flags = parseFlags(Flags, values);
    const target = join(io.cwd, 'parlance.yml');
    const existing = CONFIG_LOCATIONS.find((name) => existsSync(join(io.cwd, name)));
    if (existing && !flags.force && !flags['dry-run']) throw new CommandError(`${existing} already exists in ${io.cwd}; pass --force to overwrite it.`);

    const files = listRepositoryFiles(io.cwd);
    const layout = detectLayout(files);
    if (!layout) {
      throw new CommandError(
        `No locale files found under ${io.cwd} in a layout parlance knows (such as locales/en/*.json, res/values/strings.xml, en.lproj/Localizable.strings). Write parlance.yml by hand: see the README.`,
      );
    }
    const text = renderConfig(layout, flags.service);
    if (!flags['dry-run']) writeFileSync(target, text);

    out.document({ path: 'parlance.yml', written: !flags['dry-run'], source_locale: layout.sourceLocale, locales: layout.locales, files: layout.rules, text });
    if (flags['dry-run']) {
      out.line(text.trimEnd());
      return 0;
    }
    out.line(`Wrote parlance.yml: ${layout.sourceLocale} → ${layout.locales.join(', ') || '(every target locale of the project)'}`);
    for (const rule of layout.rules) out.line(`  ${rule.source} → ${rule.translation}${rule.format ? ` (${rule.format})` : ''}`);
    out.line("Next: check the file, then run 'parlance push'.");
    return 0;
  },
};

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
