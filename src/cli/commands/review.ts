/** `parlance review`: the translations waiting for a person (held, flagged, ...), and approving or rejecting one. */
import { z } from 'zod';
import type { ReviewState, TranslationRow } from '../../client/types.js';
import { CommandError } from '../../sync/command-error.js';
import { about } from '../../sync/subject-error.js';
import { localeTag, noMorePositionals, oneOf, parseFlags, positional, type Command } from './command.js';

const STATES = ['held', 'flagged', 'rejected', 'accepted', 'approved', 'human'] as const satisfies readonly ReviewState[];

const USAGE = `parlance review list [--state held|flagged|rejected|accepted|approved|human] [--locale de] [--path <file>]
       parlance review approve|reject <key> --locale <tag> [--path <file>]`;

const Flags = z.object({
  state: oneOf('--state', STATES).default('held'),
  locale: localeTag('--locale').optional(),
  path: z.string().optional(),
});

export const reviewCommand: Command = {
  name: 'review',
  summary: 'list [--state held|flagged] | approve|reject <key> --locale <tag>',
  help: `Usage: ${USAGE}

Held rows failed the quality gates twice and are kept out of pulled files until a person approves them;
flagged rows were written but are over their length budget. Listing needs 'read', deciding needs 'write'.`,
  options: { state: { type: 'string' }, locale: { type: 'string' }, path: { type: 'string' } },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const client = context.client();
    const action = positional(positionals, 0, `Missing the review action. Usage: ${USAGE}`);
    switch (action) {
      case 'list': {
        noMorePositionals(positionals, 1, 'parlance review list [--state held|flagged]');
        const rows = await about(`${flags.state} translations`, () =>
          client.translations({ state: flags.state, ...(flags.locale ? { locale: flags.locale } : {}), ...(flags.path ? { path: flags.path } : {}) }),
        );
        out.document(rows);
        if (rows.length === 0) out.line(`(no ${flags.state} translations)`);
        for (const row of rows) out.line(reviewLine(row));
        return 0;
      }
      case 'approve':
      case 'reject': {
        const key = positional(positionals, 1, `Missing the key. Usage: parlance review ${action} <key> --locale <tag>`);
        noMorePositionals(positionals, 2, `parlance review ${action} <key> --locale <tag>`);
        if (!flags.locale) throw new CommandError(`Missing --locale: which translation of '${key}' to ${action}.`);
        const locale = flags.locale;
        const result = await about(`'${key}' (${locale})`, () => client.review({ key, locale, decision: action, ...(flags.path ? { path: flags.path } : {}) }));
        out.document(result);
        out.line(`${action === 'approve' ? 'Approved' : 'Rejected'} ${reviewLine(result.translation)}`);
        return 0;
      }
      default:
        throw new CommandError(`Unknown review action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** `locales/en/app.json 'files.delete' (de) held: "Lösche {anzahl}?" — placeholders: …`. */
export function reviewLine(row: TranslationRow): string {
  const reasons = row.failures.map((failure) => `${failure.gate}: ${failure.reason}`).join('; ');
  return `${row.path} '${row.key}' (${row.locale}) ${row.state}: ${JSON.stringify(row.text)}${reasons ? ` — ${reasons}` : ''}`;
}
