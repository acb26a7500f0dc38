/** `parlance status [batch]`: where a batch stands (default: the newest), its progress bar, and the rows the gates refused. */
import { z } from 'zod';
import type { Batch, BatchRow } from '../../client/types.js';
import { count, progressBar, settledRows } from '../output.js';
import { about, noMorePositionals, parseFlags, type Command, type CommandContext } from './command.js';

const Flags = z.object({ wait: z.boolean().default(false) });

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export const statusCommand: Command = {
  name: 'status',
  summary: 'Progress and outcome of a batch (default: the newest)',
  help: `Usage: parlance status [<batch id>] [--wait]

Shows a batch's status, key and row counts, words, and the rows the quality gates refused.

  --wait        follow the batch until it ends (a bar redrawn in place on a terminal, a line per step otherwise);
                then exit 4 when a row was refused, 3 when the batch failed`,
  options: { wait: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 1, 'parlance status [<batch id>] [--wait]');
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const client = context.client();
    const id = positionals[0] ?? (await about('finding the newest batch', () => client.batches({ limit: 1 })))[0]?.id;
    if (!id) {
      out.document({ batch: null, refused: [] });
      out.line('No batches yet: push a source file first (parlance push).');
      return 0;
    }
    const { batch, refused } = flags.wait ? await settleBatch(context, id, id) : await batchWithRefusals(context, id);
    out.document({ batch, refused });
    for (const line of batchSummary(batch)) out.line(line);
    for (const row of refused) out.problem(refusedRowLine(row));
    if (!flags.wait) return 0;
    if (batch.status === 'failed') return 3;
    return refused.length > 0 ? 4 : 0;
  },
};

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

async function batchWithRefusals(context: CommandContext, id: string): Promise<{ batch: Batch; refused: BatchRow[] }> {
  const { row_outcomes: _rows, ...batch } = await about(`batch ${id}`, () => context.client().batch(id));
  return { batch, refused: await refusedRows(context, batch) };
}

async function refusedRows(context: CommandContext, batch: Batch): Promise<BatchRow[]> {
  if ((batch.rows.outcomes.refused ?? 0) === 0) return [];
  return about(`batch ${batch.id}`, () => context.client().batchRows(batch.id, { outcome: 'refused' }));
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
    ...(batch.error ? [`  error  ${batch.error}`] : []),
  ];
}

/** `locales/en/app.json:12: key 'files.delete' (de) refused: <the gates' reason>`. */
export function refusedRowLine(row: BatchRow): string {
  const where = `${row.path}${row.line !== null && row.line !== undefined ? `:${row.line}` : ''}`;
  const reason = row.reason ?? (row.gate_failures.map((failure) => `${failure.gate}: ${failure.reason}`).join('; ') || 'held for review');
  return `${where}: key '${row.key}' (${row.locale}) refused: ${reason}`;
}
