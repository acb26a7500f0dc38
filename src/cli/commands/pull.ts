/** `parlance pull`: every target file in one request, merged key by key with what the files hold, written where parlance.yml's templates say. */
import { z } from 'zod';
import { checkFailed, pullExitCode, pullTranslations } from '../../sync/pull-translations.js';
import { localeTags, noMorePositionals, oneOf, parseFlags, type Command } from './command.js';

const Flags = z.object({
  locale: localeTags('--locale'),
  'dry-run': z.boolean().default(false),
  check: z.boolean().default(false),
  overwrite: z.boolean().default(false),
  missing: oneOf('--missing', ['omit', 'source']).optional(),
  fallback: oneOf('--fallback', ['none', 'source']).optional(),
});

const USAGE = 'parlance pull [--locale de,fr] [--dry-run] [--check] [--overwrite] [--fallback source]';

export const pullCommand: Command = {
  name: 'pull',
  summary: "Write the translated files where parlance.yml's templates say",
  help: `Usage: ${USAGE}

Pulls every target file of every source file parlance.yml matches in one request (an unchanged pull transfers
nothing: the service answers 304 to the ETag remembered in .parlance/state.json), and writes each where its rule's
translation template puts it, creating folders. Files are written atomically; a file whose bytes would not change
is left alone.

Nothing is lost: a key the service has no translation for yet keeps the file's value; a value changed by hand since
the CLI wrote it (a hand edit) is never overwritten: pull names the keys and exits 1 without writing anything
(keep them with 'parlance push --translations', replace them with --overwrite). On the first pull in a repository,
target values the service does not have are uploaded first, as human translations.

Prints per locale how many keys are missing, held for review and flagged. Exit 4 when the service left keys out
(held for review, or plurals the format cannot express); the files are still written.

  --locale      only these locales (repeatable, or comma-separated)
  --dry-run     list what would be written; write nothing
  --check       write nothing; exit 1 when a file would change or a key is untranslated, listing them (for CI)
  --overwrite   the service's values replace hand edits
  --fallback    a key with no translation anywhere: left out (none, the default; i18next and most runtimes then
                show the source) or filled with the source text (source). --missing omit|source is the same.`,
  options: {
    locale: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    check: { type: 'boolean' },
    overwrite: { type: 'boolean' },
    missing: { type: 'string' },
    fallback: { type: 'string' },
  },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, USAGE);
    const flags = parseFlags(Flags, values);
    const missing = flags.fallback === 'source' ? 'source' : flags.fallback === 'none' ? 'omit' : flags.missing;
    const report = await pullTranslations(context, { locales: flags.locale, dryRun: flags['dry-run'], check: flags.check, overwrite: flags.overwrite, missing });
    context.out.document(report);
    if (flags.check) return checkFailed(report) ? 1 : 0;
    return pullExitCode(report);
  },
};
