/** Following a batch to its end, with its progress drawn, and the rows the quality gates refused in it. */
import type { Batch, BatchRow } from '../client/types.js';
import type { CommandContext } from './command-context.js';
import { about } from './subject-error.js';

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
