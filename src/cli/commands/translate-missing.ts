/** `parlance translate-missing [--locale de,fr] [--machine] [--wait]`: one batch for every key without a current translation (POST /v1/translate-missing). */
import { z } from 'zod';
import type { Batch } from '../../client/types.js';
import type { Output } from '../../sync/output.js';
import { count } from '../../sync/output.js';
import { failureLines, refusedRowLine, settleBatch } from '../../sync/settle-batch.js';
import { about } from '../../sync/subject-error.js';
import { batchSummary } from './status.js';
import { localeTags, noMorePositionals, parseFlags, type Command } from './command.js';

const USAGE = 'parlance translate-missing [--locale <tags>] [--machine] [--wait]';

const Flags = z.object({ locale: localeTags('--locale'), machine: z.boolean().default(false), wait: z.boolean().default(false) });

export const translateMissingCommand: Command = {
  name: 'translate-missing',
  summary: 'Translate every key that has no translation yet (e.g. into a new language)',
  help: `Usage: ${USAGE}

Queues one batch translating every key of every pushed file that has no current translation in the
locales: a language added before the keys were, a key whose translation a reviewer rejected, rows of a
cancelled batch. Keys with a translation (a person's or a machine's), held for review or already queued
are left alone, so running it again queues nothing. 'parlance languages add' does this for a new language
by itself. Needs a token with 'push'.

  --locale <tags>  only these target languages, comma-separated or repeated (default: all of them)
  --machine        also re-translate what a machine translated and no one reviewed, e.g. after a
                   change of model or style guide ('parlance translation set'); a person's
                   translations and approved ones are never queued
  --wait           follow the batch until it ends; then exit 4 when a row was refused, 3 when it failed`,
  options: { locale: { type: 'string', multiple: true }, machine: { type: 'boolean' }, wait: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, USAGE);
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const locales = flags.locale && flags.locale.length > 0 ? flags.locale : undefined;
    const queued = await about('translate-missing', () => context.client().translateMissing({ ...(locales ? { locales } : {}), ...(flags.machine ? { retranslate_machine: true } : {}) }));
    if (queued.rows.total === 0) {
      out.document({ batch: queued, refused: [] });
      const having = flags.machine ? "a person's or an approved translation" : 'a translation';
      out.line(`Nothing to translate: every key has ${having}${locales ? ` in ${locales.join(', ')}` : ''}, is held for review, or is already queued.`);
      return 0;
    }
    if (!flags.wait) {
      out.document({ batch: queued, refused: [] });
      out.line(queuedLine(queued, locales));
      out.line(`Follow it with: parlance status ${queued.id} --wait`);
      return 0;
    }
    out.note(queuedLine(queued, locales));
    const { batch, refused } = await settleBatch(context, queued.id, 'translate-missing');
    out.document({ batch, refused });
    for (const line of batchSummary(batch)) out.line(line);
    return settled(out, batch, refused.map(refusedRowLine), await failureLines(context, batch));
  },
};

/** `Queued batch bat_1: 12 rows (340 words) for es.` */
export function queuedLine(batch: Batch, locales: readonly string[] | undefined): string {
  return `Queued batch ${batch.id}: ${count(batch.rows.total, 'row')} (${count(batch.words.reserved, 'word')}) for ${locales ? locales.join(', ') : 'every target language'}.`;
}

/** Prints why rows were refused or failed; the exit code of a followed batch (3 failed, 4 a refused row, else 0). */
function settled(out: Output, batch: Batch, refused: readonly string[], failures: readonly string[]): number {
  for (const line of refused) out.problem(line);
  for (const line of failures) out.problem(line);
  if (batch.status === 'failed') return 3;
  return refused.length > 0 ? 4 : 0;
}
