/** `parlance diff`: what a pull would change, key by key and locale by locale, without writing. */
import { z } from 'zod';
import { pullTranslations } from '../../sync/pull-translations.js';
import { localeTags, noMorePositionals, oneOf, parseFlags, type Command } from './command.js';

const Flags = z.object({
  locale: localeTags('--locale'),
  fallback: oneOf('--fallback', ['none', 'source']).optional(),
});

const USAGE = 'parlance diff [--locale de,fr] [--fallback source]';

export const diffCommand: Command = {
  name: 'diff',
  summary: 'Show, per locale and key, what a pull would change (writes nothing)',
  help: `Usage: ${USAGE}

Pulls the service's translations and compares them, key by key, with the target files as they are: per locale and
file, the keys a pull would add (+), change (~ old → new) and remove (-, keys no longer in the source file), and the
hand edits it would keep (!). Writes nothing, uploads nothing; exit 0.

  --locale      only these locales (repeatable, or comma-separated)
  --fallback    compare as 'pull --fallback source' would write`,
  options: { locale: { type: 'string', multiple: true }, fallback: { type: 'string' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, USAGE);
    const flags = parseFlags(Flags, values);
    const report = await pullTranslations(context, { locales: flags.locale, dryRun: true, diff: true, missing: flags.fallback === 'source' ? 'source' : 'omit' });
    context.out.document({
      files: report.files.filter((file) => file.action !== 'unchanged' || file.edits.length > 0).map((file) => ({ path: file.path, locale: file.locale, source: file.source, ...file.diff, edits: file.edits })),
    });
    return 0;
  },
};
