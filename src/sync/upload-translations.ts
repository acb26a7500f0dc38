/** Uploading existing target files (`push --translations`, and `pull`/`sync` before they write): their values become human translations. */
import { existsSync, readFileSync } from 'node:fs';
import type { TranslationsUpload } from '../client/types.js';
import type { PluralsMode } from '../project-config/config-types.js';
import { matchSources } from '../project-config/match-sources.js';
import { targetPathFor } from '../project-config/target-paths.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { count } from './output.js';
import { insideRoot } from './safe-write.js';
import { about } from './subject-error.js';

/** One existing target file to upload. */
export interface TargetFile {
  /** The source file it translates, as pushed (relative to parlance.yml's folder). */
  source: string;
  locale: string;
  /** The target file, relative to parlance.yml's folder. */
  path: string;
  absolute: string;
  format?: string | undefined;
  /** The rule's `plurals`, so the service reads the file as it read the source. */
  plurals?: PluralsMode | undefined;
}

export interface UploadedFile extends TranslationsUpload {
  /** The target file uploaded. */
  file: string;
}

export interface UploadReport {
  dry_run: boolean;
  files: UploadedFile[];
  /** Target files that do not exist yet: nothing to upload. */
  absent: string[];
}

/** Every target file parlance.yml names for the locales (the config's, else the project's), existing or not. */
export async function targetFiles(context: CommandContext, locales: string[] | undefined): Promise<TargetFile[]> {
  const { config, root, path: configPath } = context.config();
  const matches = matchSources(config, root);
  if (matches.length === 0) throw new CommandError(`No source file matches the files[].source globs of ${configPath}.`);
  const wanted = locales ?? config.locales ?? (await about('reading the project', () => context.client().project())).target_locales;
  const sources = new Set(matches.map((match) => match.path));
  const files: TargetFile[] = [];
  for (const match of matches) {
    for (const locale of wanted) {
      const target = await about(`${match.path} (${locale})`, async () => targetPathFor(config, match.rule, match.path, locale));
      if (sources.has(target)) continue;
      files.push({ source: match.path, locale, path: target, absolute: insideRoot(root, target, match.rule.translation), format: match.rule.format, plurals: match.rule.plurals });
    }
  }
  return files;
}

/** Uploads each existing file and prints what the service made of it; the report per file and locale. */
export async function uploadTargetFiles(context: CommandContext, files: readonly TargetFile[], dryRun: boolean): Promise<UploadReport> {
  const { out } = context;
  const client = context.client();
  const report: UploadReport = { dry_run: dryRun, files: [], absent: [] };
  for (const file of files) {
    if (!existsSync(file.absolute)) {
      report.absent.push(file.path);
      continue;
    }
    const content = readFileSync(file.absolute);
    const answer = await about(`${file.path} (${file.locale})`, () =>
      client.uploadTranslations({ path: file.source, locale: file.locale, content, ...(file.format ? { format: file.format } : {}), ...(file.plurals ? { plurals: file.plurals } : {}), ...(dryRun ? { dryRun: true } : {}) }),
    );
    report.files.push({ ...answer, file: file.path });
    const verb = dryRun ? 'would upload' : 'uploaded';
    out.line(`${verb.padEnd(12)} ${file.path} (${file.locale}): ${count(answer.uploaded.length, 'value')} ${dryRun ? 'new or different' : 'as human translations'}, ${answer.unchanged} unchanged, ${answer.refused.length} refused, ${count(answer.unknown_keys.length, 'unknown key')}`);
    for (const refused of answer.refused) out.problem(`${file.path}: key '${refused.key}' (${file.locale}) refused: ${refused.reason}; the value stays in the file`);
    if (answer.unknown_keys.length > 0) out.note(`${file.path}: ${count(answer.unknown_keys.length, 'key')} the source file ${file.source} does not have (not uploaded): ${shortList(answer.unknown_keys)}`);
  }
  const byLocale = new Map<string, UploadedFile[]>();
  for (const file of report.files) byLocale.set(file.locale, [...(byLocale.get(file.locale) ?? []), file]);
  for (const [locale, uploaded] of byLocale) {
    const sum = (pick: (file: UploadedFile) => number) => uploaded.reduce((total, file) => total + pick(file), 0);
    out.line(
      `${locale}: ${sum((f) => f.uploaded.length)} ${dryRun ? 'to upload' : 'uploaded'}, ${sum((f) => f.unchanged)} unchanged, ${sum((f) => f.refused.length)} refused, ${count(sum((f) => f.unknown_keys.length), 'unknown key')}`,
    );
  }
  if (report.absent.length > 0) out.note(`${count(report.absent.length, 'target file')} not there yet (nothing to upload): ${shortList(report.absent)}`);
  return report;
}

/** 4 when the gates refused an uploaded value, else 0. */
export function uploadExitCode(report: UploadReport): 0 | 4 {
  return report.files.some((file) => file.refused.length > 0) ? 4 : 0;
}

const SHOWN = 10;

export function shortList(items: readonly string[]): string {
  const shown = items.slice(0, SHOWN).join(', ');
  return items.length > SHOWN ? `${shown} and ${items.length - SHOWN} more` : shown;
}
