/** Pure pieces of the Action's report: per-locale tallies, annotations, step outputs, the summary table and the verdict. */
import { posix } from 'node:path';
import type { PullReport } from '../sync/pull-translations.js';
import type { PushReport } from '../sync/push-sources.js';
import type { Batch, BatchRow } from '../client/types.js';
import { exitNote } from './failure.js';
import type { ActionCommand } from './inputs.js';

/** What a run did: the CLI's reports, and every row of the batches it waited for. */
export interface RunResult {
  command: ActionCommand;
  push: PushReport | undefined;
  pull: PullReport | undefined;
  rows: BatchRow[];
  /** The config's directory relative to the workspace, posix ('' at the top): batch rows and pulled paths are relative to it. */
  configDir: string;
}

export const isRefused = (row: BatchRow) => row.outcome === 'refused';
export const isFlagged = (row: BatchRow) => row.gate_outcome === 'flagged';
/** Written into the locale file by this batch: by a provider, or reused from translation memory. */
export const isTranslated = (row: BatchRow) => row.outcome === 'translated' || row.outcome === 'memory';

export interface LocaleTally {
  locale: string;
  translated: number;
  refused: number;
  flagged: number;
  filesWritten: number;
}

/** One tally per locale that has a row or a pulled file, sorted by tag. */
export function tallyByLocale(result: Pick<RunResult, 'rows' | 'pull'>): LocaleTally[] {
  const tallies = new Map<string, LocaleTally>();
  const tally = (locale: string) => {
    let found = tallies.get(locale);
    if (!found) tallies.set(locale, (found = { locale, translated: 0, refused: 0, flagged: 0, filesWritten: 0 }));
    return found;
  };
  for (const row of result.rows) {
    const t = tally(row.locale);
    if (isTranslated(row)) t.translated += 1;
    if (isRefused(row)) t.refused += 1;
    if (isFlagged(row)) t.flagged += 1;
  }
  for (const file of result.pull?.files ?? []) {
    const t = tally(file.locale);
    if (file.action === 'written') t.filesWritten += 1;
  }
  return [...tallies.values()].sort((a, b) => (a.locale < b.locale ? -1 : a.locale > b.locale ? 1 : 0));
}

/** A path relative to the config's directory, as GitHub wants it in an annotation: relative to the workspace. */
export function workspacePath(configDir: string, path: string): string {
  return configDir === '' ? path : posix.join(configDir, path);
}

export interface Annotation {
  level: 'error' | 'warning';
  message: string;
  /** Relative to the workspace. */
  file: string;
  line?: number;
}

/** An error on the source line of each refused row, a warning on each flagged one. */
export function rowAnnotations(rows: readonly BatchRow[], configDir: string): Annotation[] {
  const annotations: Annotation[] = [];
  for (const row of rows) {
    const level = isRefused(row) ? 'error' : isFlagged(row) ? 'warning' : undefined;
    if (!level) continue;
    const reason = row.reason ?? `${level === 'error' ? 'refused' : 'flagged for review'}: ${failuresText(row)}`;
    annotations.push({
      level,
      message: `Parlance: key '${row.key}' (${row.locale}): ${reason}`,
      file: workspacePath(configDir, row.path),
      ...(row.line !== null && row.line !== undefined ? { line: row.line } : {}),
    });
  }
  return annotations;
}

function failuresText(row: BatchRow): string {
  return row.gate_failures.map((failure) => `${failure.gate}: ${failure.reason}`).join('; ') || 'held for review';
}

const SHOWN_KEYS = 10;

/**
 * An error on each pulled file the service left keys out of, counting only keys no refused row of this run
 * already annotated at its source line (the same refusal, seen from the other side).
 */
export function leftOutAnnotations(pull: PullReport | undefined, rows: readonly BatchRow[], configDir: string): Annotation[] {
  const annotated = new Set(rows.filter(isRefused).map((row) => rowId(row.path, row.locale, row.key)));
  const annotations: Annotation[] = [];
  for (const file of pull?.files ?? []) {
    if (file.refused.count === 0) continue;
    const keys = file.refused.keys.filter((key) => !annotated.has(rowId(file.source, file.locale, key)));
    // The service lists at most 100 keys; the count covers them all.
    const leftOut = file.refused.count - (file.refused.keys.length - keys.length);
    if (leftOut <= 0) continue;
    const reasons = [...new Set(file.refused.reasons)].join(', ');
    const more = leftOut > Math.min(keys.length, SHOWN_KEYS) ? ` and ${leftOut - Math.min(keys.length, SHOWN_KEYS)} more` : '';
    annotations.push({
      level: 'error',
      message: `Parlance: ${leftOut} ${leftOut === 1 ? 'key' : 'keys'} (${file.locale}) left out of this file${reasons ? ` (${reasons})` : ''}: ${keys.slice(0, SHOWN_KEYS).join(', ')}${more}`,
      file: workspacePath(configDir, file.path),
    });
  }
  return annotations;
}

function rowId(path: string, locale: string, key: string): string {
  return JSON.stringify([path, locale, key]);
}

export interface ActionOutputs {
  'batch-id': string;
  translated: string;
  refused: string;
  flagged: string;
  'changed-files': string;
}

/** The step's outputs; counts are decimal strings, lists are joined so a shell can split them. */
export function actionOutputs(result: RunResult): ActionOutputs {
  const tallies = tallyByLocale(result);
  const sum = (pick: (t: LocaleTally) => number) => String(tallies.reduce((total, t) => total + pick(t), 0));
  return {
    'batch-id': pushedBatches(result.push).map((batch) => batch.id).join(' '),
    translated: sum((t) => t.translated),
    refused: sum((t) => t.refused),
    flagged: sum((t) => t.flagged),
    'changed-files': changedFiles(result).join('\n'),
  };
}

/** The locale files the pull created or changed, relative to the workspace. */
export function changedFiles(result: Pick<RunResult, 'pull' | 'configDir'>): string[] {
  return (result.pull?.files ?? []).filter((file) => file.action === 'written').map((file) => workspacePath(result.configDir, file.path));
}

/** The batches the push queued, in the state it last saw them. */
export function pushedBatches(push: PushReport | undefined): Batch[] {
  return (push?.files ?? []).flatMap((file) => (file.action === 'pushed' && file.batch ? [file.batch] : []));
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a batch has ended (completed, failed or cancelled): its rows will not change any more. */
export const hasEnded = (batch: Pick<Batch, 'status'>) => FINAL_STATUSES.has(batch.status);

/** Words spent by batches that ended; words reserved by those still running (a push that did not wait). */
export function wordsCharged(push: PushReport | undefined): { spent: number; reserved: number } {
  let spent = 0;
  let reserved = 0;
  for (const batch of pushedBatches(push)) {
    if (hasEnded(batch)) spent += batch.words.spent;
    else reserved += batch.words.reserved;
  }
  return { spent, reserved };
}

/** The summary table's body: a row per locale and a total, header first. */
export function summaryRows(tallies: readonly LocaleTally[]): string[][] {
  const total = tallies.reduce(
    (sum, t) => ({ translated: sum.translated + t.translated, refused: sum.refused + t.refused, flagged: sum.flagged + t.flagged, filesWritten: sum.filesWritten + t.filesWritten }),
    { translated: 0, refused: 0, flagged: 0, filesWritten: 0 },
  );
  const cells = (label: string, t: Omit<LocaleTally, 'locale'>) => [label, String(t.translated), String(t.refused), String(t.flagged), String(t.filesWritten)];
  return [...tallies.map((t) => cells(t.locale, t)), ...(tallies.length > 1 ? [cells('Total', total)] : [])];
}

export const SUMMARY_HEADER = ['Locale', 'Translated', 'Refused', 'Flagged', 'Files written'] as const;

/** Why the run failed, when it did: a failed batch, or refusals the step was told to fail on. */
export function verdict(result: RunResult, exitCode: 0 | 3 | 4, failOnRefused: boolean): { failed: boolean; message: string } | undefined {
  if (exitCode === 3) {
    const failed = (result.push?.files ?? []).filter((file) => file.batch?.status === 'failed');
    const lines = failed.map((file) => `batch ${file.batch!.id} (${file.path}) failed: ${file.batch!.error ?? `${file.batch!.rows.failed} rows could not be translated`}`);
    return { failed: true, message: `Parlance ${result.command}: ${lines.join('; ')} ${exitNote(3)}` };
  }
  if (exitCode === 4) {
    const refused = result.rows.filter(isRefused).length;
    const leftOut = (result.pull?.files ?? []).reduce((sum, file) => sum + file.refused.count, 0);
    const parts = [
      ...(refused > 0 ? [`${refused} ${refused === 1 ? 'row' : 'rows'} refused by the quality gates in this run`] : []),
      ...(leftOut > 0 ? [`${leftOut} ${leftOut === 1 ? 'key' : 'keys'} left out of the pulled files`] : []),
    ];
    const advice = failOnRefused ? 'review them in Parlance, or set fail-on-refused: false' : 'not failing: fail-on-refused is false';
    return { failed: failOnRefused, message: `Parlance ${result.command}: ${parts.join(' and ')}; ${advice} ${exitNote(4)}` };
  }
  return undefined;
}
