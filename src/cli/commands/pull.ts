/** `parlance pull`: writes each source file's translations where parlance.yml's translation template puts them, touching only files whose bytes change. */
import { z } from 'zod';
import { pullExitCode, pullTranslations } from '../../sync/pull-translations.js';
import { localeTags, noMorePositionals, oneOf, parseFlags, type Command } from './command.js';

const Flags = z.object({
  locale: localeTags('--locale'),
  'dry-run': z.boolean().default(false),
  missing: oneOf('--missing', ['omit', 'source']).optional(),
});

export const pullCommand: Command = {
  name: 'pull',
  summary: "Write the translated files where parlance.yml's templates say",
  help: `Usage: parlance pull [--locale de,fr] [--dry-run] [--missing omit|source]

For every source file parlance.yml matches and every target locale (the config's locales, else the project's),
pulls the translation and writes it at the rule's translation path, creating folders. A file whose bytes
would not change is left alone. Exit 4 when the service left keys out (held for review, or plurals the format
cannot express); the files are still written.

  --locale      only these locales (repeatable, or comma-separated)
  --dry-run     list what would be written; write nothing
  --missing     untranslated keys: omit them (default) or fill in the source text`,
  options: { locale: { type: 'string', multiple: true }, 'dry-run': { type: 'boolean' }, missing: { type: 'string' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance pull [--locale de,fr] [--dry-run]');
    const flags = parseFlags(Flags, values);
    const report = await pullTranslations(context, { locales: flags.locale, dryRun: flags['dry-run'], missing: flags.missing });
    context.out.document(report);
    return pullExitCode(report);
  },
};
