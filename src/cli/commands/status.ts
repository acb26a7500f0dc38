/** `parlance status [batch]`: where a batch stands (default: the newest), its progress bar, and the rows the gates refused. */
import { z } from 'zod';
import type { Batch, BatchRow } from '../../client/types.js';
import type { CommandContext } from '../../sync/command-context.js';
import { count, progressBar, settledRows } from '../../sync/output.js';
import { refusedRowLine, refusedRows, settleBatch } from '../../sync/settle-batch.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, parseFlags, type Command } from './command.js';

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

async function batchWithRefusals(context: CommandContext, id: string): Promise<{ batch: Batch; refused: BatchRow[] }> {
  const { row_outcomes: _rows, ...batch } = await about(`batch ${id}`, () => context.client().batch(id));
  return { batch, refused: await refusedRows(context, batch) };
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
