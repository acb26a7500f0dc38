/** Pure pieces of the Action's report: the refused and flagged rows, per-locale tallies, annotations, step outputs, the summary table and the verdict. */
import { posix } from 'node:path';
import type { PullReport } from '../sync/pull-translations.js';
import type { PushReport } from '../sync/push-sources.js';
import type { Batch, BatchRow, GateFailure, TranslationRow } from '../client/types.js';
import { exitNote } from './failure.js';
import type { ActionCommand } from './inputs.js';

/** What a run did: the CLI's reports, every row of the batches it waited for, and the review queue it found. */
export interface RunResult {
  command: ActionCommand;
  push: PushReport | undefined;
  pull: PullReport | undefined;
  rows: RunRow[];
  /**
   * The rows held for review in the service's queue for this config's source files and locales, read after the pull;
   * undefined when the run did not pull or could not read the queue (the pulled files' left-out keys stand in then).
   */
  held: TranslationRow[] | undefined;
  /** The config's directory relative to the workspace, posix ('' at the top): batch rows and pulled paths are relative to it. */
  configDir: string;
  /** Where the console shows the review queue; undefined when no row needs a link. */
  links: ReviewLinks | undefined;
}

/** A row of a batch this run queued and waited for. */
export interface RunRow extends BatchRow {
  batchId: string;
}

export const isRefused = (row: BatchRow) => row.outcome === 'refused';
export const isFlagged = (row: BatchRow) => row.gate_outcome === 'flagged';
/** Written into the locale file by this batch: by a provider, or reused from translation memory. */
export const isTranslated = (row: BatchRow) => row.outcome === 'translated' || row.outcome === 'memory';

/** A row the quality gates refused that is held for review, out of the locale files: refused in this run, or before it. */
export interface RefusedRow {
  key: string;
  /** The source file, relative to the config's directory. */
  path: string;
  locale: string;
  /** The key's line in the source file, when this run's batch said. */
  line: number | null;
  reason: string;
  /** The batch that refused it in this run; null for a row held since an earlier run. */
  batchId: string | null;
}

/** A row written to its file but flagged for review by this run's batches (e.g. over its length budget). */
export interface FlaggedRow {
  key: string;
  path: string;
  locale: string;
  line: number | null;
  reason: string;
}

const rowId = (path: string, locale: string, key: string) => JSON.stringify([path, locale, key]);

export function failuresText(failures: readonly GateFailure[]): string {
  // A corrected row lists its first attempt's failure too; the reasons read best once each.
  return [...new Set(failures.map((failure) => `${failure.gate}: ${failure.reason}`))].join('; ');
}

/**
 * Every refused row this run knows of, each (file, locale, key) once: this run's refused batch rows first, then the
 * rows the review queue still holds from earlier runs, then (without a queue) the keys the pulled files left out as
 * held for review. A pull whose files were already current (304) lists no left-out keys: the queue is what tells.
 */
export function refusedRows(result: Pick<RunResult, 'rows' | 'held' | 'pull'>): RefusedRow[] {
  const rows = new Map<string, RefusedRow>();
  for (const row of result.rows.filter(isRefused)) {
    const reason = row.reason ?? (failuresText(row.gate_failures) || 'refused by the quality gates');
    rows.set(rowId(row.path, row.locale, row.key), { key: row.key, path: row.path, locale: row.locale, line: row.line, reason, batchId: row.batchId });
  }
  if (result.held) {
    for (const row of result.held) {
      const id = rowId(row.path, row.locale, row.key);
      if (!rows.has(id)) rows.set(id, { key: row.key, path: row.path, locale: row.locale, line: null, reason: failuresText(row.failures) || 'held for review', batchId: null });
    }
  } else {
    for (const file of result.pull?.files ?? []) {
      if (!file.refused.reasons.includes('held_for_review')) continue;
      for (const key of file.refused.keys) {
        const id = rowId(file.source, file.locale, key);
        if (!rows.has(id)) rows.set(id, { key, path: file.source, locale: file.locale, line: null, reason: 'held for review', batchId: null });
      }
    }
  }
  return [...rows.values()].sort(byLocaleThenKey);
}

export function flaggedRows(rows: readonly RunRow[]): FlaggedRow[] {
  return rows
    .filter(isFlagged)
    .map((row) => ({ key: row.key, path: row.path, locale: row.locale, line: row.line, reason: row.reason ?? (failuresText(row.gate_failures) || 'flagged for review') }))
    .sort(byLocaleThenKey);
}

function byLocaleThenKey(a: { locale: string; key: string }, b: { locale: string; key: string }): number {
  return compare(a.locale, b.locale) || compare(a.key, b.key);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface LocaleTally {
  locale: string;
  translated: number;
  /** Rows refused and held for review: this run's and those still held from earlier runs. */
  refused: number;
  flagged: number;
  filesWritten: number;
}

/** One tally per locale that has a row or a pulled file, sorted by tag. */
export function tallyByLocale(result: Pick<RunResult, 'rows' | 'pull' | 'held'>): LocaleTally[] {
  const tallies = new Map<string, LocaleTally>();
  const tally = (locale: string) => {
    let found = tallies.get(locale);
    if (!found) tallies.set(locale, (found = { locale, translated: 0, refused: 0, flagged: 0, filesWritten: 0 }));
    return found;
  };
  for (const row of result.rows) {
    const t = tally(row.locale);
    if (isTranslated(row)) t.translated += 1;
    if (isFlagged(row)) t.flagged += 1;
  }
  for (const row of refusedRows(result)) tally(row.locale).refused += 1;
  for (const file of result.pull?.files ?? []) {
    const t = tally(file.locale);
    if (file.action === 'written') t.filesWritten += 1;
  }
  return [...tallies.values()].sort((a, b) => compare(a.locale, b.locale));
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

/**
 * On the source line of each row of this run: refused rows are errors, or warnings when the step is not to fail on
 * them (a red mark on a green run would say the opposite of the run); flagged rows are warnings.
 */
export function rowAnnotations(rows: readonly BatchRow[], configDir: string, failOnRefused: boolean): Annotation[] {
  const annotations: Annotation[] = [];
  for (const row of rows) {
    const refused = isRefused(row);
    if (!refused && !isFlagged(row)) continue;
    const reason = row.reason ?? `${refused ? 'refused' : 'flagged for review'}: ${failuresText(row.gate_failures) || 'held for review'}`;
    annotations.push({
      level: refused && failOnRefused ? 'error' : 'warning',
      message: `Parlance: key '${row.key}' (${row.locale}): ${reason}`,
      file: workspacePath(configDir, row.path),
      ...(row.line !== null && row.line !== undefined ? { line: row.line } : {}),
    });
  }
  return annotations;
}

const SHOWN_KEYS = 10;

/**
 * One annotation on each pulled file the service left keys out of, counting only keys no refused row of this run
 * already annotated at its source line (the same refusal, seen from the other side). Errors, or warnings when the
 * step is not to fail on refusals.
 */
export function leftOutAnnotations(pull: PullReport | undefined, rows: readonly BatchRow[], configDir: string, failOnRefused: boolean): Annotation[] {
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
      level: failOnRefused ? 'error' : 'warning',
      message: `Parlance: ${leftOut} ${leftOut === 1 ? 'key' : 'keys'} (${file.locale}) left out of this file${reasons ? ` (${reasons})` : ''}: ${keys.slice(0, SHOWN_KEYS).join(', ')}${more}`,
      file: workspacePath(configDir, file.path),
    });
  }
  return annotations;
}

/** Keys the pulled files left out that are no refused row: a plural the format cannot express, say. */
export function otherLeftOut(result: Pick<RunResult, 'rows' | 'held' | 'pull'>): number {
  const refused = new Set(refusedRows(result).map((row) => rowId(row.path, row.locale, row.key)));
  let count = 0;
  for (const file of result.pull?.files ?? []) {
    const listed = file.refused.keys.filter((key) => !refused.has(rowId(file.source, file.locale, key))).length;
    // Keys beyond the service's listed 100 cannot be matched; they count as left out.
    count += listed + Math.max(0, file.refused.count - file.refused.keys.length);
  }
  return count;
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

/** Where a person reviews the rows in the console (hash routes of server/web/console/router.ts). */
export interface ReviewLinks {
  /** The review queue: held and flagged rows, approve or reject. */
  review: string;
  /** The keys page filtered to one locale and state. */
  keys(locale: string, state: 'held' | 'flagged'): string;
}

export function reviewLinks(service: string, projectId: string): ReviewLinks {
  const project = `${service.replace(/\/+$/, '')}/#/p/${encodeURIComponent(projectId)}`;
  return {
    review: `${project}/review`,
    keys: (locale, state) => `${project}/keys?${new URLSearchParams({ locale, state }).toString()}`,
  };
}

/** Why the run failed, when it did: a failed batch, or refused rows the step was told to fail on (reported either way). */
export function verdict(result: RunResult, exitCode: 0 | 3 | 4, failOnRefused: boolean): { failed: boolean; message: string } | undefined {
  if (exitCode === 3) {
    const failed = (result.push?.files ?? []).filter((file) => file.batch?.status === 'failed');
    const lines = failed.map((file) => `batch ${file.batch!.id} (${file.path}) failed: ${file.batch!.error ?? `${file.batch!.rows.failed} rows could not be translated`}`);
    return { failed: true, message: `Parlance ${result.command}: ${lines.join('; ')} ${exitNote(3)}` };
  }
  const refused = refusedRows(result);
  const thisRun = refused.filter((row) => row.batchId !== null).length;
  const earlier = refused.length - thisRun;
  const leftOut = otherLeftOut(result);
  if (exitCode !== 4 && refused.length === 0 && leftOut === 0) return undefined;
  const parts = [
    ...(thisRun > 0 ? [`${thisRun} ${thisRun === 1 ? 'row' : 'rows'} refused by the quality gates in this run`] : []),
    ...(earlier > 0 ? [`${earlier} ${earlier === 1 ? 'row' : 'rows'} still held for review from earlier runs`] : []),
    ...(leftOut > 0 ? [`${leftOut} ${leftOut === 1 ? 'key' : 'keys'} left out of the pulled files`] : []),
  ];
  const where = result.links ? ` (${result.links.review})` : '';
  const advice = failOnRefused ? `review them in Parlance${where}, or set fail-on-refused: false` : `not failing: fail-on-refused is false; review them in Parlance${where}`;
  return { failed: failOnRefused, message: `Parlance ${result.command}: ${parts.join(' and ')}; ${advice} ${exitNote(4)}` };
}
