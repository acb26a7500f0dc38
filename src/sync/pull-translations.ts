/** Pulling a repository's translations: each source file's, written where parlance.yml's translation template puts it, touching only files whose bytes change. */
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { ApiError, type ParlanceClient } from '../client/client.js';
import type { PulledFile } from '../client/types.js';
import { translationPath } from '../core/path-templates.js';
import { matchSources } from '../project-config/match-sources.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { count } from './output.js';
import { about } from './subject-error.js';

export interface PullOptions {
  locales?: string[] | undefined;
  dryRun: boolean;
  missing?: 'omit' | 'source' | undefined;
}

export interface PulledTarget {
  /** The source file, relative to the config's directory. */
  source: string;
  locale: string;
  /** Where the translation goes, relative to the config's directory. */
  path: string;
  action: 'written' | 'would_write' | 'unchanged';
  bytes: number;
  /** Keys the service left out of the file, and why (held for review, a plural the format cannot express). */
  refused: PulledFile['refused'];
}

export interface PullReport {
  dry_run: boolean;
  files: PulledTarget[];
}

/** Pulls every source file × target locale and writes what changed (nothing with `dryRun`). */
export async function pullTranslations(context: CommandContext, options: PullOptions): Promise<PullReport> {
  const { out } = context;
  const { config, root, path: configPath } = context.config();
  const client = context.client();
  const matches = matchSources(config, root);
  if (matches.length === 0) throw new CommandError(`No source file matches the files[].source globs of ${configPath}.`);
  const locales = options.locales ?? config.locales ?? (await about('reading the project', () => client.project())).target_locales;
  const sources = new Set(matches.map((match) => match.path));

  const files: PulledTarget[] = [];
  for (const match of matches) {
    for (const locale of locales) {
      const subject = `${match.path} (${locale})`;
      const target = await about(subject, async () => translationPath(match.rule.translation, match.path, locale));
      // A template can map a locale onto a source file (the source locale itself): never overwrite a source.
      if (sources.has(target)) {
        out.note(`skipped    ${target}: it is a source file (${locale} is the source locale?)`);
        continue;
      }
      const absolute = insideRoot(root, target, match.rule.translation);
      const pulled = await about(subject, () => pullOrSkip(client, { path: match.path, locale, missing: options.missing }, options.dryRun));
      if (!pulled) {
        out.note(`not pushed ${match.path}: the service does not hold it yet, so ${target} is written after the push`);
        continue;
      }
      const changed = !sameBytes(absolute, pulled.body);
      const action = !changed ? 'unchanged' : options.dryRun ? 'would_write' : 'written';
      if (action === 'written') writeTranslation(absolute, target, pulled.body);
      files.push({ source: match.path, locale, path: target, action, bytes: pulled.body.byteLength, refused: pulled.refused });
      if (action !== 'unchanged') out.line(`${action === 'written' ? 'wrote      ' : 'would write'} ${target} (${locale}, ${count(pulled.body.byteLength, 'byte')})`);
      if (pulled.refused.count > 0) out.problem(refusedKeysLine(target, pulled.refused));
    }
  }
  const unchanged = files.filter((file) => file.action === 'unchanged').length;
  if (unchanged > 0) out.line(`${count(unchanged, 'file')} already up to date.`);
  return { dry_run: options.dryRun, files };
}

/** The pulled file; in a dry run, undefined for a source file the service does not hold yet (a dry `sync` before its first push). */
async function pullOrSkip(client: ParlanceClient, input: { path: string; locale: string; missing: 'omit' | 'source' | undefined }, dryRun: boolean): Promise<PulledFile | undefined> {
  try {
    return await client.pull({ path: input.path, locale: input.locale, ...(input.missing ? { missing: input.missing } : {}) });
  } catch (error) {
    if (dryRun && error instanceof ApiError && (error.code === 'path_not_found' || error.code === 'nothing_pushed')) return undefined;
    throw error;
  }
}

/**
 * The real file to write for `target` (a repository path): symbolic links on the way, of the file itself or of any existing
 * folder above it, are followed, and a target that lands outside the root is refused (exit 1), whatever the config or the
 * service asked for.
 */
export function insideRoot(root: string, target: string, template: string): string {
  const realRoot = realpathSync(root);
  let existing = join(realRoot, ...target.split('/'));
  const missing: string[] = [];
  while (!exists(existing)) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    throw new CommandError(`Refusing to write ${target}: ${existing} is a symbolic link that leads nowhere, so where the file would land is unknown (template '${template}').`);
  }
  const landed = join(real, ...missing);
  const rel = relative(realRoot, landed);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new CommandError(`Refusing to write ${target}: it resolves to ${landed}, outside the repository root ${realRoot} (template '${template}'; check for a symbolic link on the way).`);
  }
  return landed;
}

/** Whether anything, a dangling symbolic link included, is at `absolute`. */
function exists(absolute: string): boolean {
  try {
    lstatSync(absolute);
    return true;
  } catch {
    return false;
  }
}

function sameBytes(absolute: string, body: Uint8Array): boolean {
  if (!existsSync(absolute)) return false;
  return Buffer.compare(readFileSync(absolute), body) === 0;
}

function writeTranslation(absolute: string, target: string, body: Uint8Array): void {
  try {
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, body);
  } catch (error) {
    throw new CommandError(`${target}: cannot write the translation (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

const SHOWN_KEYS = 10;

/** `locales/de/app.json: 2 keys left out (held_for_review): a, b`. */
export function refusedKeysLine(target: string, refused: PulledFile['refused']): string {
  const shown = refused.keys.slice(0, SHOWN_KEYS).join(', ');
  const more = refused.keys.length > SHOWN_KEYS ? ` and ${refused.keys.length - SHOWN_KEYS} more` : '';
  const reasons = [...new Set(refused.reasons)].join(', ');
  return `${target}: ${count(refused.count, 'key')} left out${reasons ? ` (${reasons})` : ''}: ${shown}${more}`;
}

/** 4 when any pulled file left keys out, else 0. */
export function pullExitCode(report: PullReport): 0 | 4 {
  return report.files.some((file) => file.refused.count > 0) ? 4 : 0;
}
