/** `parlance extract`: the translation keys the code on disk uses, against the source-language file; offline, no service. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { DEFAULT_EXCLUDE, DEFAULT_EXTRACT_LIMITS, isCodeFile } from '../../core/extract/extract-limits.js';
import { extractKeys, ExtractLimitError } from '../../core/extract/extract-keys.js';
import { collectKeys, compareWithSource, keyInSource, type FoundKey } from '../../core/extract/key-report.js';
import type { ExtractWarning } from '../../core/extract/key-use.js';
import { readSourceFile, withAddedKeys } from '../../core/extract/source-file.js';
import { FileUnparsableError } from '../../core/formats/file-unparsable-error.js';
import { ConfigNotFoundError } from '../../project-config/config-file-error.js';
import { compileGlob } from '../../project-config/compile-glob.js';
import { matchSourcePaths } from '../../project-config/match-source-paths.js';
import type { CommandContext } from '../../sync/command-context.js';
import { CommandError } from '../../sync/command-error.js';
import { insideRoot, writeAtomic } from '../../sync/safe-write.js';
import { count } from '../../sync/output.js';
import { parseFlags, type Command } from './command.js';

const Flags = z.object({
  source: z.string().min(1).optional(),
  check: z.boolean().optional(),
  write: z.boolean().optional(),
});

const USAGE = 'parlance extract [paths…] [--source <file>] [--check] [--write]';

/** Directories that hold no application code of the project's own. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', 'coverage', 'out']);
/** How many paths a walk of the repository (to find parlance.yml's source glob) looks at before giving up. */
const MAX_LISTED = 200_000;

const toPosix = (path: string) => path.split(sep).join('/');

/** Every code file under `paths` (relative to `cwd`): directories walked, tests and declarations left out; a named file is read as named. */
function codeFiles(cwd: string, paths: readonly string[], warnings: ExtractWarning[]): { path: string; size: number }[] {
  const excluded = DEFAULT_EXCLUDE.map((g) => compileGlob(g));
  const found: { path: string; size: number }[] = [];
  const add = (absolute: string, size: number) => {
    found.push({ path: toPosix(relative(cwd, absolute)), size });
    if (found.length > DEFAULT_EXTRACT_LIMITS.maxFiles) throw new CommandError(`More than ${DEFAULT_EXTRACT_LIMITS.maxFiles} code files under ${paths.join(', ')}: name fewer paths.`);
  };
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const absolute = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_DIRECTORIES.has(entry.name)) walk(absolute);
      } else if (entry.isFile() && isCodeFile(entry.name) && !excluded.some((g) => g.test(toPosix(relative(cwd, absolute))))) {
        add(absolute, statSync(absolute).size);
      }
    }
  };
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    if (!existsSync(absolute)) throw new CommandError(`No file or directory '${path}'. Usage: ${USAGE}`);
    const stat = statSync(absolute);
    if (stat.isDirectory()) walk(absolute);
    else if (isCodeFile(absolute)) add(absolute, stat.size);
    else warnings.push({ file: path, line: null, message: 'not a JavaScript, TypeScript or Vue file: skipped.' });
  }
  return found;
}

/** Every file under `root` as a posix path relative to it, for matching parlance.yml's source glob. */
function listRepository(root: string): string[] {
  const paths: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (paths.length > MAX_LISTED) throw new CommandError(`More than ${MAX_LISTED} files under ${root}: pass --source <file>.`);
      const absolute = join(directory, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(absolute);
      else if (entry.isFile()) paths.push(toPosix(relative(root, absolute)));
    }
  };
  walk(root);
  return paths;
}

/** The source file: --source, else the first source file of parlance.yml's first rule; undefined when there is neither. */
function sourceFile(context: CommandContext, flag: string | undefined): { absolute: string; shown: string; root: string; format?: string; plurals?: 'i18next' | 'none' } | undefined {
  const cwd = context.io.cwd;
  // `--write` writes only inside this root: the current directory for --source, parlance.yml's folder for its rule.
  if (flag !== undefined) return { absolute: resolve(cwd, flag), shown: flag, root: cwd };
  let loaded;
  try {
    loaded = context.config();
  } catch (error) {
    if (error instanceof ConfigNotFoundError) return undefined;
    throw error;
  }
  const rule = loaded.config.files[0];
  if (!rule) return undefined;
  const match = /[*?{]/.test(rule.source) ? matchSourcePaths({ ...loaded.config, files: [rule] }, listRepository(loaded.root))[0]?.path : rule.source;
  if (match === undefined) throw new CommandError(`parlance.yml's first rule names '${rule.source}' and no file matches it: pass --source <file>.`);
  const absolute = resolve(loaded.root, match);
  const shown = toPosix(relative(cwd, absolute));
  return { absolute, shown: shown.startsWith('..') || isAbsolute(shown) ? absolute : shown, root: loaded.root, ...(rule.format ? { format: rule.format } : {}), ...(rule.plurals ? { plurals: rule.plurals } : {}) };
}

const quoted = (text: string | undefined) => (text === undefined ? '(no default text)' : JSON.stringify(text));
const keyJson = (key: FoundKey) => ({ key: key.key, default_text: key.defaultText ?? null, notes: key.notes ?? null, context: key.context, uses: key.uses });
const warningLine = (w: ExtractWarning) => `${w.file}${w.line === null ? '' : `:${w.line}`}: ${w.message}`;

export const extractCommand: Command = {
  name: 'extract',
  summary: 'The keys the code uses, and those missing from or unused in the source file (offline)',
  help: `Usage: ${USAGE}

Reads the JavaScript, TypeScript and Vue files under the paths (default: src/ when there is one, else the current
directory; tests, *.d.ts, node_modules, dist and build are left out) and lists the translation keys they use, in the
conventions of i18next (t, i18n.t, <Trans>), vue-i18n ($t, $tc, v-t, templates), react-intl / FormatJS (defineMessages,
formatMessage, <FormattedMessage>) and Angular ($localize with :@@id:), each with its default text and where it is used.
Only literal keys count: a dynamic key (t(variable)) is reported with its file:line, as are files over
${DEFAULT_EXTRACT_LIMITS.maxFileBytes} bytes and files that cannot be parsed, which are skipped. Then, against the source
file: the keys the code uses that it lacks, and the keys it holds that no code uses. Needs no service and no token.

  --source <file>  the source-language file (default: the first source file of parlance.yml's first rule)
  --check          exit 1 when a key the code uses is missing from the source file (for CI)
  --write          add the missing keys that have a default text to the source file, through its format's codec;
                   a key already there is never changed or removed (a person's text outranks the code's default)`,
  options: { source: { type: 'string' }, check: { type: 'boolean' }, write: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { cwd } = context.io;
    const warnings: ExtractWarning[] = [];
    const paths = positionals.length > 0 ? positionals : [existsSync(join(cwd, 'src')) ? 'src' : '.'];
    const files = codeFiles(cwd, paths, warnings);
    // The sizes from `stat` are added up before any file is read: a tree over the limit is refused, not loaded.
    const total = files.reduce((sum, f) => sum + (f.size > DEFAULT_EXTRACT_LIMITS.maxFileBytes ? 0 : f.size), 0);
    if (total > DEFAULT_EXTRACT_LIMITS.maxTotalBytes) {
      throw new CommandError(`The code files under ${paths.join(', ')} hold ${total} bytes, more than the ${DEFAULT_EXTRACT_LIMITS.maxTotalBytes} bytes one run reads: name a narrower path (such as src/app).`);
    }
    const texts = [];
    let oversized = 0;
    for (const file of files) {
      // The size is checked before the file is read: a bundle is never loaded whole.
      if (file.size > DEFAULT_EXTRACT_LIMITS.maxFileBytes) {
        warnings.push({ file: file.path, line: null, message: `skipped: ${file.size} bytes, over the ${DEFAULT_EXTRACT_LIMITS.maxFileBytes}-byte limit for one code file (generated or bundled code?).` });
        oversized++;
        continue;
      }
      texts.push({ path: file.path, text: readFileSync(join(cwd, file.path), 'utf8') });
    }
    let extraction;
    try {
      extraction = await extractKeys(texts);
    } catch (error) {
      if (error instanceof ExtractLimitError) throw new CommandError(error.message);
      throw error;
    }
    const { keys, warnings: conflicts } = collectKeys(extraction.uses);
    warnings.push(...extraction.warnings, ...conflicts);

    const source = sourceFile(context, flags.source);
    if ((flags.check || flags.write) && !source) throw new CommandError(`--${flags.write ? 'write' : 'check'} needs a source file: pass --source <file>, or run where parlance.yml names one.`);
    let comparison: ReturnType<typeof compareWithSource> | undefined;
    const written: string[] = [];
    const notWritten: string[] = [];
    if (source) {
      if (!existsSync(source.absolute)) throw new CommandError(`Source file ${source.shown} does not exist.`);
      const bytes = readFileSync(source.absolute);
      const options = { format: source.format, plurals: source.plurals };
      let held;
      try {
        held = readSourceFile(source.shown, bytes, options);
      } catch (error) {
        const at = error instanceof FileUnparsableError ? `:${error.line}:${error.column}` : '';
        throw new CommandError(`${source.shown}${at}: ${(error as Error).message}`);
      }
      comparison = compareWithSource(keys, [...held.values.keys()], source.shown);
      if (flags.write && comparison.missing.length > 0) {
        const added = comparison.missing.filter((k) => k.defaultText !== undefined).map((k) => ({ key: keyInSource(k.key, source.shown), text: k.defaultText! }));
        notWritten.push(...comparison.missing.filter((k) => k.defaultText === undefined).map((k) => k.key));
        if (added.length > 0) {
          let updated;
          try {
            updated = withAddedKeys(source.shown, bytes, added, options);
          } catch (error) {
            throw new CommandError((error as Error).message);
          }
          writeAtomic(insideRoot(source.root, toPosix(relative(source.root, source.absolute)), source.shown), source.shown, updated);
          written.push(...added.map((a) => a.key));
        }
      }
    }

    const missing = comparison?.missing ?? [];
    const stillMissing = missing.filter((k) => !written.includes(keyInSource(k.key, source?.shown)));
    const out = context.out;
    out.document({
      files: extraction.files,
      skipped: extraction.skipped + oversized,
      source: source?.shown ?? null,
      keys: keys.map(keyJson),
      missing: missing.map(keyJson),
      unused: comparison?.unused ?? [],
      written,
      not_written: notWritten,
      warnings,
    });
    out.line(`${count(keys.length, 'key')} in ${count(extraction.files, 'file')}:`);
    for (const key of keys) out.line(`  ${key.key}  ${quoted(key.defaultText)}  ${key.context}`);
    if (comparison && source) {
      out.line(missing.length === 0 ? `None missing from ${source.shown}.` : `Missing from ${source.shown} (${missing.length}):`);
      for (const key of missing) out.line(`  ${key.key}  ${quoted(key.defaultText)}  ${key.context}`);
      out.line(comparison.unused.length === 0 ? `None unused in ${source.shown}.` : `In ${source.shown} but used by no code (${comparison.unused.length}):`);
      for (const key of comparison.unused) out.line(`  ${key}`);
      if (written.length > 0) out.line(`Added ${count(written.length, 'key')} to ${source.shown} with the code's default text: ${written.join(', ')}. No key already there was changed.`);
      if (notWritten.length > 0) out.line(`Not added (no default text in the code; add the text by hand): ${notWritten.join(', ')}.`);
    } else {
      out.line('No source file to compare with: pass --source <file>, or run where parlance.yml names one.');
    }
    for (const warning of warnings) out.note(warningLine(warning));
    return flags.check && stillMissing.length > 0 ? 1 : 0;
  },
};
