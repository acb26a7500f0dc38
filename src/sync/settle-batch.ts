/** Following a batch to its end, with its progress drawn, the rows the quality gates refused in it, and why its failed rows failed. */
import type { Batch, BatchRow } from '../client/types.js';
import type { CommandContext } from './command-context.js';
import { count } from './output.js';
import { about } from './subject-error.js';

/** Failed rows read to group their reasons: every row of a real outage, yet a bounded read for a batch of 100,000 rows. */
export const FAILED_ROWS_READ = 2_000;
const PAGE = 500;

/** Waits for a batch to end, drawing its progress under `label`, then fetches its refused rows. */
export async function settleBatch(context: CommandContext, id: string, label: string): Promise<{ batch: Batch; refused: BatchRow[] }> {
  const client = context.client();
  const progress = context.out.progress(label);
  let batch: Batch;
  try {
    batch = await about(`batch ${id}`, () => client.waitForBatch(id, { onProgress: (b) => progress.update(b) }));
    progress.update(batch);
  } finally {
    progress.end();
  }
  return { batch, refused: await refusedRows(context, batch) };
}

/** The rows of a batch the quality gates refused (none are fetched when its outcomes count none). */
export async function refusedRows(context: CommandContext, batch: Batch): Promise<BatchRow[]> {
  if ((batch.rows.outcomes.refused ?? 0) === 0) return [];
  return about(`batch ${batch.id}`, () => context.client().batchRows(batch.id, { outcome: 'refused' }));
}

/** `locales/en/app.json:12: key 'files.delete' (de) refused: <the gates' reason>`. */
export function refusedRowLine(row: BatchRow): string {
  const where = `${row.path}${row.line !== null && row.line !== undefined ? `:${row.line}` : ''}`;
  const reason = row.reason ?? (row.gate_failures.map((failure) => `${failure.gate}: ${failure.reason}`).join('; ') || 'held for review');
  return `${where}: key '${row.key}' (${row.locale}) refused: ${reason}`;
}

/** One reason the failed rows of a batch failed, and how many rows failed for it. */
export interface FailureGroup {
  reason: string;
  rows: number;
}

/**
 * Why a failed batch's rows failed, grouped by reason, most rows first; none for a batch that did not fail. At most
 * FAILED_ROWS_READ rows are read: the rest are counted as one group whose reason says they were not read.
 */
export async function failedRowGroups(context: CommandContext, batch: Batch): Promise<FailureGroup[]> {
  if (batch.status !== 'failed') return [];
  const client = context.client();
  const counts = new Map<string, number>();
  let read = 0;
  let cursor: string | undefined;
  do {
    const page = await about(`batch ${batch.id}`, () => client.batchWithRows(batch.id, { outcome: 'failed', limit: PAGE, ...(cursor ? { cursor } : {}) }));
    for (const row of page.row_outcomes.items) {
      const reason = failedRowReason(row.reason);
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
    read += page.row_outcomes.items.length;
    cursor = page.row_outcomes.next_cursor ?? undefined;
  } while (cursor !== undefined && read < FAILED_ROWS_READ);
  const groups = [...counts].map(([reason, rows]) => ({ reason, rows })).sort((a, b) => b.rows - a.rows || a.reason.localeCompare(b.reason));
  const unread = batch.rows.failed - read;
  if (cursor !== undefined && unread > 0) groups.push({ reason: `not read (only the first ${FAILED_ROWS_READ} failed rows were)`, rows: unread });
  if (groups.length === 0) groups.push({ reason: batch.error ?? 'no failed row recorded a reason', rows: batch.rows.failed });
  return groups;
}

/** `locales/en/app.json: batch b_1 failed: provider unreachable: connect ECONNREFUSED 127.0.0.1:11434, 6 rows; queue them again: parlance retry b_1`. */
export function failureLine(batch: Pick<Batch, 'id' | 'path'>, group: FailureGroup): string {
  return `${batch.path ?? `batch ${batch.id}`}: ${batch.path ? `batch ${batch.id} ` : ''}failed: ${group.reason}, ${count(group.rows, 'row')}; queue them again: ${retryCommand(batch.id)}`;
}

/** The lines that say why a batch failed, one per reason, each ending with the command that queues its failed rows again. */
export async function failureLines(context: CommandContext, batch: Batch): Promise<string[]> {
  return (await failedRowGroups(context, batch)).map((group) => failureLine(batch, group));
}

export function retryCommand(batchId: string): string {
  return `parlance retry ${batchId}`;
}

/**
 * A failed row's reason as a person reads it. The service records `provider_error: <provider>: <detail>`; a network
 * failure (`openai:gpt-4o-mini: network error: connect ECONNREFUSED …`) is the provider being unreachable, whichever it is.
 */
export function failedRowReason(reason: string | null): string {
  if (reason === null || reason.trim() === '') return 'no reason recorded';
  const detail = reason.replace(/^provider_error: /, '');
  if (detail === reason) return reason;
  const network = /^.+?: network error: (.*?)(?: \(gave up after \d+ attempts\))?$/s.exec(detail);
  if (network) return `provider unreachable: ${network[1]}`;
  const timeout = /^(.+?): request timed out after (\d+) ms(?: \(gave up after \d+ attempts\))?$/s.exec(detail);
  if (timeout) return `provider timed out: no answer from ${timeout[1]} within ${timeout[2]} ms`;
  return `provider error: ${detail}`;
}

/** How many open batches `sync` follows besides its own pushes (a new language's, a translate-missing run's). */
const OPEN_BATCHES_READ = 50;

/**
 * Follows every batch still queued or running that `exclude` does not name (batches queued by `languages add` or
 * `translate-missing`, or another push), so a pull afterwards writes their translations too.
 */
export async function settleOpenBatches(context: CommandContext, exclude: ReadonlySet<string>): Promise<{ batch: Batch; refused: BatchRow[] }[]> {
  const client = context.client();
  const [running, queued] = await about('listing the open batches', () =>
    Promise.all([client.batches({ status: 'running', limit: OPEN_BATCHES_READ }), client.batches({ status: 'queued', limit: OPEN_BATCHES_READ })]),
  );
  const open = [...running, ...queued].filter((batch) => !exclude.has(batch.id));
  const settled: { batch: Batch; refused: BatchRow[] }[] = [];
  for (const batch of open) {
    const label = `batch ${batch.id}${batch.path ? ` (${batch.path})` : ''}`;
    context.out.note(`waiting for ${label}, queued before this sync`);
    settled.push(await settleBatch(context, batch.id, label));
  }
  return settled;
}
