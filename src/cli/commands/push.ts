/** `parlance push`: sends the source files parlance.yml matches, skipping those the service already holds byte for byte; with --translations, the existing target files. */
import { z } from 'zod';
import { pushExitCode, pushSources } from '../../sync/push-sources.js';
import { targetFiles, uploadExitCode, uploadTargetFiles } from '../../sync/upload-translations.js';
import { localeTags, noMorePositionals, parseFlags, type Command } from './command.js';

const Flags = z.object({
  force: z.boolean().default(false),
  'dry-run': z.boolean().default(false),
  wait: z.boolean().default(false),
  translations: z.boolean().default(false),
  locale: localeTags('--locale'),
});

const USAGE = 'parlance push [--force] [--dry-run] [--wait] | parlance push --translations [--locale de,fr] [--dry-run]';

export const pushCommand: Command = {
  name: 'push',
  summary: 'Push the source files that changed since the last push (--translations: the existing translations)',
  help: `Usage: ${USAGE}

Pushes every source file parlance.yml's files[].source globs match, with the rule's format and careful keys
and the config's locales. A file whose SHA-256 equals the one the service holds is skipped.

  --force         push unchanged files too (e.g. to fill in a language added since the last push)
  --dry-run       list what would be pushed; push nothing
  --wait          wait for the batches; exit 4 when a row is refused, 3 when a batch fails

With --translations, uploads the existing target files instead (the paths parlance.yml's templates give for each
source file and target locale; push the source files first): each value the service does not hold, or holds
differently, becomes a human translation, which machine passes never overwrite, checked by the quality gates.
Prints per locale what was uploaded, unchanged, refused (key, locale and reason; the value stays in the file) and
the keys the source file does not have. Exit 4 when a value was refused.

  --locale        only these locales (repeatable, or comma-separated)
  --dry-run       say what would be uploaded; change nothing`,
  options: { force: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, wait: { type: 'boolean' }, translations: { type: 'boolean' }, locale: { type: 'string', multiple: true } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, USAGE);
    const flags = parseFlags(Flags, values);
    if (flags.translations) {
      const report = await uploadTargetFiles(context, await targetFiles(context, flags.locale), flags['dry-run']);
      if (report.files.length === 0) context.out.line('Nothing to upload: no target file exists yet.');
      context.out.document(report);
      return uploadExitCode(report);
    }
    const report = await pushSources(context, { force: flags.force, dryRun: flags['dry-run'], wait: flags.wait });
    context.out.document(report);
    return pushExitCode(report);
  },
};
