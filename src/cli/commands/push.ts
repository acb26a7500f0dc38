/** `parlance push`: sends the source files parlance.yml matches, skipping those the service already holds byte for byte. */
import { z } from 'zod';
import { pushExitCode, pushSources } from '../../sync/push-sources.js';
import { noMorePositionals, parseFlags, type Command } from './command.js';

const Flags = z.object({
  force: z.boolean().default(false),
  'dry-run': z.boolean().default(false),
  wait: z.boolean().default(false),
});

export const pushCommand: Command = {
  name: 'push',
  summary: 'Push the source files that changed since the last push',
  help: `Usage: parlance push [--force] [--dry-run] [--wait]

Pushes every source file parlance.yml's files[].source globs match, with the rule's format and careful keys
and the config's locales. A file whose SHA-256 equals the one the service holds is skipped.

  --force       push unchanged files too (e.g. to fill in a language added since the last push)
  --dry-run     list what would be pushed; push nothing
  --wait        wait for the batches; exit 4 when a row is refused, 3 when a batch fails`,
  options: { force: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, wait: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance push [--force] [--dry-run] [--wait]');
    const flags = parseFlags(Flags, values);
    const report = await pushSources(context, { force: flags.force, dryRun: flags['dry-run'], wait: flags.wait });
    context.out.document(report);
    return pushExitCode(report);
  },
};
