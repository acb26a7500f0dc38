/** `parlance sync`: push what changed, wait for its batches, then pull every translation: the one command a CI job needs. */
import { z } from 'zod';
import { pullExitCode, pullTranslations } from '../../sync/pull-translations.js';
import { pushExitCode, pushSources } from '../../sync/push-sources.js';
import { worstExit } from '../../sync/worst-exit.js';
import { localeTags, noMorePositionals, parseFlags, type Command } from './command.js';

const Flags = z.object({
  force: z.boolean().default(false),
  'dry-run': z.boolean().default(false),
  locale: localeTags('--locale'),
});

export const syncCommand: Command = {
  name: 'sync',
  summary: 'push, wait for the batches, pull',
  help: `Usage: parlance sync [--force] [--dry-run] [--locale de,fr]

Pushes the changed source files, waits for their batches, then pulls every translation. The pull runs even
when a row was refused, so everything that passed is written. Exit 4 when a row or a pulled key was refused,
3 when a batch failed.

  --force       push unchanged files too
  --dry-run     list what would be pushed and what the service's current translations would write
  --locale      pull only these locales`,
  options: { force: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, locale: { type: 'string', multiple: true } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance sync [--force] [--dry-run]');
    const flags = parseFlags(Flags, values);
    const push = await pushSources(context, { force: flags.force, dryRun: flags['dry-run'], wait: !flags['dry-run'] });
    const pull = await pullTranslations(context, { locales: flags.locale, dryRun: flags['dry-run'] });
    context.out.document({ push, pull });
    return worstExit(pushExitCode(push), pullExitCode(pull));
  },
};
