/** `parlance retry <batch>`: queues a failed batch's failed rows again (only they are charged), and with --wait follows it to its end. */
import { z } from 'zod';
import { count } from '../../sync/output.js';
import { failedRowGroups, failureLine, refusedRowLine, settleBatch } from '../../sync/settle-batch.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, parseFlags, positional, type Command } from './command.js';
import { batchSummary } from './status.js';

const USAGE = 'parlance retry <batch id> [--wait]';

const Flags = z.object({ wait: z.boolean().default(false) });

export const retryCommand: Command = {
  name: 'retry',
  summary: "Queue a failed batch's failed rows again (parlance status names the batch)",
  help: `Usage: ${USAGE}

Queues the failed rows of a failed batch again; rows already translated are neither redone nor charged twice,
and a failed row a newer push has taken over is left to it. Fix the cause first ('parlance status' prints why the
rows failed): a provider that is still unreachable fails them again.

  --wait        follow the batch until it ends; then exit 3 when it failed again, 4 when a row was refused`,
  options: { wait: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    const id = positional(positionals, 0, `Missing the batch id. Usage: ${USAGE}`);
    noMorePositionals(positionals, 1, USAGE);
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const queued = await about(`batch ${id}`, () => context.client().retryBatch(id));
    if (!flags.wait) {
      out.document({ batch: queued });
      out.line(`Batch ${queued.id} ${queued.status}: ${count(queued.rows.queued, 'row')} queued again (${count(queued.words.reserved, 'word')} reserved in all). Follow it: parlance status ${queued.id} --wait`);
      return 0;
    }
    out.line(`Batch ${queued.id}: ${count(queued.rows.queued, 'row')} queued again`);
    const { batch, refused } = await settleBatch(context, queued.id, queued.id);
    const failures = await failedRowGroups(context, batch);
    out.document({ batch, refused, failures });
    for (const line of batchSummary(batch)) out.line(line);
    for (const row of refused) out.problem(refusedRowLine(row));
    for (const group of failures) out.problem(failureLine(batch, group));
    if (batch.status === 'failed') return 3;
    return refused.length > 0 ? 4 : 0;
  },
};
