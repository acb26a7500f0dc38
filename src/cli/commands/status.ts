/**
 * `parlance status [batch]`: where a batch stands (default: the newest), its progress bar, the rows the gates refused
 * and why rows failed; with --wait and no id, every batch of the last push to its end; then each locale's progress.
 */
import { z } from 'zod';
import type { Batch, BatchRow, Progress } from '../../client/types.js';
import type { CommandContext } from '../../sync/command-context.js';
import { count, progressBar, settledRows } from '../../sync/output.js';
import { failedRowGroups, failureLine, refusedRowLine, refusedRows, settleBatch, type FailureGroup } from '../../sync/settle-batch.js';
import { about } from '../../sync/subject-error.js';
import { worstExit } from '../../sync/worst-exit.js';
import { noMorePositionals, parseFlags, type Command } from './command.js';

const Flags = z.object({ wait: z.boolean().default(false) });

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Batches read to find the last push and the open ones: far more files than one push sends. */
const RECENT_BATCHES = 100;
/**
 * A push queues its files' batches one request after another: a batch created more than this before the next one
 * (or for a file already among them) belongs to an earlier push.
 */
const PUSH_GAP_MS = 10_000;

/** A batch as status reports it: where it stands, the rows the gates refused, why rows failed. */
export interface BatchReport {
  batch: Batch;
  refused: BatchRow[];
  failures: FailureGroup[];
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'Batches (default: the newest) and progress per locale; --wait follows the last push',
  help: `Usage: parlance status [<batch id>] [--wait]

Shows a batch's status, key and row counts, words, the rows the quality gates refused, and why rows failed
(grouped by reason, each line ending with the 'parlance retry <batch>' that queues them again). Then each target
locale's progress: keys translated (by a machine, by a person), held for review, flagged, missing.

  --wait        follow the batch until it ends (a bar redrawn in place on a terminal, a line per step otherwise);
                without a batch id, follow every batch of the last push and every batch still queued or running.
                Then exit 3 when a batch failed, else 4 when a row was refused, else 0`,
  options: { wait: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 1, 'parlance status [<batch id>] [--wait]');
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const client = context.client();
    const id = positionals[0];
    if (id === undefined && flags.wait) return followLastPush(context);

    const newest = id ?? (await about('finding the newest batch', () => client.batches({ limit: 1 })))[0]?.id;
    if (!newest) {
      const progress = await projectProgress(context);
      out.document({ batch: null, refused: [], failures: [], progress });
      out.line('No batches yet: push a source file first (parlance push).');
      printProgress(context, progress);
      return 0;
    }
    const report = flags.wait ? await settledReport(context, newest) : await currentReport(context, newest);
    const progress = await projectProgress(context);
    out.document({ ...report, progress });
    printReport(context, report);
    printProgress(context, progress);
    return flags.wait ? exitFor(report) : 0;
  },
};

/** Follows every batch of the last push (and any other still open) to its end; exits with the worst outcome. */
async function followLastPush(context: CommandContext): Promise<number> {
  const { out } = context;
  const client = context.client();
  const [recent, running, queued] = await about('listing the batches', () =>
    Promise.all([client.batches({ limit: RECENT_BATCHES }), client.batches({ status: 'running', limit: RECENT_BATCHES }), client.batches({ status: 'queued', limit: RECENT_BATCHES })]),
  );
  const followed = batchesToFollow(recent, [...running, ...queued]);
  if (followed.length === 0) {
    const progress = await projectProgress(context);
    out.document({ batches: [], progress });
    out.line('No batches yet: push a source file first (parlance push).');
    printProgress(context, progress);
    return 0;
  }
  if (followed.length > 1) out.note(`Following ${count(followed.length, 'batch', 'batches')}: ${followed.map((batch) => `${batch.id}${batch.path ? ` (${batch.path})` : ''}`).join(', ')}`);
  const reports: BatchReport[] = [];
  for (const batch of followed) reports.push(await settledReport(context, batch.id));
  const progress = await projectProgress(context);
  out.document({ batches: reports, progress });
  for (const report of reports) printReport(context, report);
  if (reports.length > 1) out.line(`${count(reports.length, 'batch', 'batches')}: ${reports.map(verdict).join('; ')}`);
  printProgress(context, progress);
  return worstExit(...reports.map(exitFor));
}

/**
 * The batches `status --wait` follows, oldest first: the last push (the newest batch and those queued just before it,
 * each within PUSH_GAP_MS of the next and for a file not already among them) and every batch still open.
 * `recent` is newest first, as the service lists batches.
 */
export function batchesToFollow(recent: readonly Batch[], open: readonly Batch[]): Batch[] {
  const chosen = new Map<string, Batch>();
  const paths = new Set<string>();
  let next: Batch | undefined;
  for (const batch of recent) {
    if (next) {
      const gap = Date.parse(next.created_at) - Date.parse(batch.created_at);
      if (!(gap <= PUSH_GAP_MS) || (batch.path !== null && paths.has(batch.path))) break;
    }
    chosen.set(batch.id, batch);
    if (batch.path !== null) paths.add(batch.path);
    next = batch;
  }
  for (const batch of open) chosen.set(batch.id, batch);
  return [...chosen.values()].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id.localeCompare(b.id));
}

async function settledReport(context: CommandContext, id: string): Promise<BatchReport> {
  const { batch, refused } = await settleBatch(context, id, id);
  return { batch, refused, failures: await failedRowGroups(context, batch) };
}

async function currentReport(context: CommandContext, id: string): Promise<BatchReport> {
  const { row_outcomes: _rows, ...batch } = await about(`batch ${id}`, () => context.client().batch(id));
  return { batch, refused: await refusedRows(context, batch), failures: await failedRowGroups(context, batch) };
}

function projectProgress(context: CommandContext): Promise<Progress> {
  return about('reading the progress per locale', () => context.client().progress());
}

function printReport(context: CommandContext, report: BatchReport): void {
  for (const line of batchSummary(report.batch)) context.out.line(line);
  for (const row of report.refused) context.out.problem(refusedRowLine(row));
  for (const group of report.failures) context.out.problem(failureLine(report.batch, group));
}

function printProgress(context: CommandContext, progress: Progress): void {
  for (const line of progressTable(progress)) context.out.line(line);
}

/** 3 when the batch failed, 4 when a row was refused, else 0. */
function exitFor(report: BatchReport): 0 | 3 | 4 {
  if (report.batch.status === 'failed') return 3;
  return report.refused.length > 0 ? 4 : 0;
}

/** `b_1 (locales/en/app.json) completed, 1 refused row`. */
function verdict(report: BatchReport): string {
  const { batch } = report;
  const failed = batch.status === 'failed' ? `, ${count(batch.rows.failed, 'failed row')}` : '';
  const refused = report.refused.length > 0 ? `, ${count(report.refused.length, 'refused row')}` : '';
  return `${batch.id}${batch.path ? ` (${batch.path})` : ''} ${batch.status}${failed}${refused}`;
}

/** Plain lines describing a batch: the bar, keys, rows by outcome and words. */
export function batchSummary(batch: Batch): string[] {
  const outcomes = Object.entries(batch.rows.outcomes).map(([outcome, n]) => `${n} ${outcome}`);
  const source = batch.path ? ` ${batch.path}${batch.format ? ` (${batch.format})` : ''}` : '';
  return [
    `Batch ${batch.id} ${batch.status}${source}`,
    `  ${progressBar(settledRows(batch), batch.rows.total)}${FINAL_STATUSES.has(batch.status) ? '' : ` (${batch.rows.queued} queued)`}`,
    `  keys   ${batch.keys.added} added, ${batch.keys.changed} changed, ${batch.keys.unchanged} unchanged, ${batch.keys.removed} removed`,
    `  rows   ${count(batch.rows.total, 'row')}${outcomes.length > 0 ? `: ${outcomes.join(', ')}` : ''}`,
    `  words  ${batch.words.reserved} reserved, ${batch.words.spent} spent, ${batch.words.refunded} refunded`,
  ];
}

const PROGRESS_COLUMNS = ['translated', 'machine', 'human', 'held', 'flagged', 'missing'] as const;

/**
 * Each target locale's progress as a table: `translated` is `machine` plus `human`; with `held`, `flagged` and
 * `missing` they add up to the project's keys.
 */
export function progressTable(progress: Progress): string[] {
  if (progress.locales.length === 0) return [`Progress: ${count(progress.keys, 'key')}, no target locales (parlance languages add <locale>)`];
  const header = ['locale', ...PROGRESS_COLUMNS, 'done'];
  const rows = progress.locales.map((locale) => [
    locale.locale,
    ...PROGRESS_COLUMNS.map((column) => String(locale[column])),
    `${locale.keys === 0 ? 100 : Math.floor((locale.translated / locale.keys) * 100)}%`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const format = (cells: string[]) => `  ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`.trimEnd();
  return [`Progress (${count(progress.keys, 'key')})`, format(header), ...rows.map(format)];
}
