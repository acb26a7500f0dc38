/** A batch as an agent needs it: its counts, and the rows that need a person (refused and held, flagged, failed) with keys, locales and reasons. */
import type { ParlanceClient } from '../client/client.js';
import type { Batch, BatchRow } from '../client/types.js';

/** The service's largest page of rows. */
const PAGE_LIMIT = 500;
/**
 * Flagged rows have no filter of their own (a flagged row's outcome is `translated` or `memory`), so they are found by
 * reading the rows; past this many rows the list says it is partial instead of reading a 200,000-row batch.
 */
const FLAGGED_SCAN_LIMIT = 5_000;

/** Rows of one kind: `total` counts them all, `rows` lists the first `limit`. */
export interface RowGroup {
  total: number;
  rows: BatchRow[];
}

export interface BatchReport {
  batch: Batch;
  /** The batch's first rows, whatever their outcome. */
  rows: BatchRow[];
  /** Refused by the gates after the corrective retry: held for review, in no file until a reviewer approves them. */
  refused: RowGroup;
  /** Written, but over the length budget. `total` counts the rows read, `complete` says whether that was every row. */
  flagged: RowGroup & { complete: boolean; rows_read: number };
  /** The provider did not answer; retry_batch re-queues them. */
  failed: RowGroup;
}

const isFlagged = (row: BatchRow) => row.gate_outcome === 'flagged';

/** One outcome's rows through the service's `outcome` filter; the count comes from the batch's tally, so it is exact. */
async function outcomeRows(client: ParlanceClient, batch: Batch, outcome: string, limit: number): Promise<RowGroup> {
  const total = batch.rows.outcomes[outcome] ?? 0;
  if (total === 0) return { total, rows: [] };
  const page = await client.batchWithRows(batch.id, { outcome, limit });
  return { total, rows: page.row_outcomes.items };
}

/** Reads the batch's rows page by page (the first page already in hand) up to FLAGGED_SCAN_LIMIT, keeping the flagged ones. */
async function flaggedRows(client: ParlanceClient, id: string, first: { items: BatchRow[]; next_cursor: string | null }, limit: number): Promise<BatchReport['flagged']> {
  const flagged = first.items.filter(isFlagged);
  let read = first.items.length;
  let cursor = first.next_cursor;
  while (cursor !== null && read < FLAGGED_SCAN_LIMIT) {
    const page = (await client.batchWithRows(id, { cursor, limit: Math.min(PAGE_LIMIT, FLAGGED_SCAN_LIMIT - read) })).row_outcomes;
    flagged.push(...page.items.filter(isFlagged));
    read += page.items.length;
    cursor = page.next_cursor;
  }
  return { total: flagged.length, rows: flagged.slice(0, limit), complete: cursor === null, rows_read: read };
}

/** The batch, its first `limit` rows, and up to `limit` rows of each kind that needs attention. */
export async function readBatchReport(client: ParlanceClient, id: string, limit: number): Promise<BatchReport> {
  // A full first page: for most batches it holds every row, so the flagged ones need no second request.
  const { row_outcomes: firstPage, ...batch } = await client.batchWithRows(id, { limit: PAGE_LIMIT });
  const [refused, failed, flagged] = await Promise.all([outcomeRows(client, batch, 'refused', limit), outcomeRows(client, batch, 'failed', limit), flaggedRows(client, id, firstPage, limit)]);
  return { batch, rows: firstPage.items.slice(0, limit), refused, flagged, failed };
}

/** `greet [de] in locales/en.json: refused by the quality gates …`. */
function rowLine(row: BatchRow, fallback: string): string {
  const reason = row.reason ?? (row.gate_failures.map((f) => `${f.gate}: ${f.reason}`).join('; ') || fallback);
  return `- ${row.key} [${row.locale}]${row.path ? ` in ${row.path}` : ''}: ${reason}`;
}

function groupLines(title: string, group: RowGroup, fallback: string, partialNote = ''): string[] {
  if (group.total === 0) return [];
  const shown = group.rows.length < group.total ? ` (first ${group.rows.length} listed)` : '';
  return [`${group.total} ${title}${partialNote}${shown}:`, ...group.rows.map((row) => rowLine(row, fallback))];
}

/** The text answer: counts by outcome, then each refused, flagged and failed row with its reason. */
export function batchReportText(report: BatchReport): string {
  const { batch, refused, flagged, failed } = report;
  const outcomes = Object.entries(batch.rows.outcomes)
    .map(([outcome, count]) => `${count} ${outcome}`)
    .join(', ');
  const open = batch.rows.queued > 0 ? `, ${batch.rows.queued} still queued` : '';
  const head = `Batch ${batch.id} ${batch.status}: ${batch.rows.total} row(s)${outcomes ? `: ${outcomes}` : ''}${open}.${batch.error ? ` Error: ${batch.error}` : ''}`;
  const flaggedNote = flagged.complete ? '' : ` among the first ${flagged.rows_read} rows read`;
  const lines = [
    ...groupLines('refused by the quality gates and held for review (in no file until approved; review them with upsert_translation)', refused, 'refused by the quality gates'),
    ...groupLines('flagged for review (written, over the length budget)', flagged, 'flagged for review', flaggedNote),
    ...groupLines('failed (the provider did not answer; retry_batch re-queues them)', failed, 'failed'),
  ];
  if (lines.length === 0 && batch.rows.queued === 0) lines.push('No row was refused, flagged or failed.');
  return [head, ...lines].join('\n');
}
