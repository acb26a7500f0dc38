/** `parlance sync`: push what changed, wait for its batches, upload hand edits, then pull every translation: the one command a CI job needs. */
import { z } from 'zod';
import { pullExitCode, pullTranslations } from '../../sync/pull-translations.js';
import { pushExitCode, pushSources } from '../../sync/push-sources.js';
import { failureLines, refusedRowLine, settleOpenBatches } from '../../sync/settle-batch.js';
import { worstExit } from '../../sync/worst-exit.js';
import { localeTags, noMorePositionals, oneOf, parseFlags, type Command } from './command.js';

const Flags = z.object({
  force: z.boolean().default(false),
  'dry-run': z.boolean().default(false),
  locale: localeTags('--locale'),
  fallback: oneOf('--fallback', ['none', 'source']).optional(),
});

export const syncCommand: Command = {
  name: 'sync',
  summary: 'push, wait for the batches, upload hand edits, pull',
  help: `Usage: parlance sync [--force] [--dry-run] [--locale de,fr] [--fallback source]

Pushes the changed source files and waits for their batches, and for any other batch still queued or running (a
language just added, translate-missing). When a batch failed, writes nothing and exits 3.
Then uploads the values of the target files that the service does not have (hand edits since the last pull, and on
the first sync every existing translation) as human translations, and pulls every translation in one request. A
key the service has no translation for keeps the file's value. The pull runs even when a row was refused, so
everything that passed is written. Exit 4 when a row, an uploaded value or a pulled key was refused.

  --force       push unchanged files too
  --dry-run     list what would be pushed and what the service's current translations would write
  --locale      pull only these locales
  --fallback    keys with no translation anywhere: left out (none, the default) or filled with the source text`,
  options: { force: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, locale: { type: 'string', multiple: true }, fallback: { type: 'string' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance sync [--force] [--dry-run] [--locale de,fr] [--fallback source]');
    const flags = parseFlags(Flags, values);
    const push = await pushSources(context, { force: flags.force, dryRun: flags['dry-run'], wait: !flags['dry-run'] });
    // Batches queued outside this push (a language just added, translate-missing) are waited for too, so the pull writes them.
    const own = new Set(push.files.flatMap((file) => (file.batch ? [file.batch.id] : [])));
    const others = flags['dry-run'] ? [] : await settleOpenBatches(context, own);
    for (const { batch, refused } of others) {
      if (batch.status === 'failed') for (const line of await failureLines(context, batch)) context.out.problem(line);
      for (const row of refused) context.out.problem(refusedRowLine(row));
    }
    const othersExit = worstExit(...others.map(({ batch, refused }) => (batch.status === 'failed' ? 3 : refused.length > 0 ? 4 : 0)));
    const pushed = worstExit(pushExitCode(push), othersExit);
    if (pushed === 3) {
      context.out.problem('Nothing written: a batch failed, so the translation files are left as they are. Fix the cause, then run parlance sync again.');
      context.out.document({ push, pull: null });
      return 3;
    }
    const pull = await pullTranslations(context, { locales: flags.locale, dryRun: flags['dry-run'], uploadEdits: true, missing: flags.fallback === 'source' ? 'source' : 'omit' });
    context.out.document({ push, pull });
    const uploadRefused = (pull.uploaded?.files ?? []).some((file) => file.refused.length > 0) ? 4 : 0;
    return worstExit(pushed, pullExitCode(pull), uploadRefused);
  },
};
