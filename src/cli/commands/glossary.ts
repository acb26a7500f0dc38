/** `parlance glossary`: list the project's terms, lock a term's translations, forbid a term, remove one. */
import { z } from 'zod';
import type { GlossaryTerm } from '../../client/types.js';
import { checkLocale } from '../../core/locales/locales.js';
import { CommandError } from '../../sync/command-error.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, parseFlags, positional, type Command } from './command.js';

const USAGE = `parlance glossary list
       parlance glossary add <term> [--translation de=Übersicht ...] [--case-sensitive] [--notes <text>]
       parlance glossary forbid <term> [--notes <text>]
       parlance glossary rm <term id>`;

/** `--translation de=Übersicht`, repeatable: one locked translation per locale. */
const Translations = z
  .array(z.string())
  .default([])
  .transform((pairs, ctx) => {
    const translations: Record<string, string> = {};
    for (const pair of pairs) {
      const match = /^([^=]+)=(.+)$/s.exec(pair);
      const check = match ? checkLocale(match[1]!) : undefined;
      if (!match || !check) {
        ctx.addIssue({ code: 'custom', message: `Invalid --translation '${pair}'. Expected <locale>=<text>, such as de=Übersicht.` });
        return z.NEVER;
      }
      if (!check.ok) {
        ctx.addIssue({ code: 'custom', message: `Invalid --translation '${pair}': locale '${match[1]}'. ${check.message}` });
        return z.NEVER;
      }
      translations[check.tag] = match[2]!;
    }
    return translations;
  });

const Flags = z.object({
  translation: Translations,
  'case-sensitive': z.boolean().default(false),
  notes: z.string().optional(),
});

export const glossaryCommand: Command = {
  name: 'glossary',
  summary: 'list | add <term> [--translation de=Übersicht] | forbid <term> | rm <id>',
  help: `Usage: ${USAGE}

A locked term must be translated as given (the glossary gate checks it); a forbidden term must not appear in
any translation. Needs a token with 'write' (list: 'read').`,
  options: { translation: { type: 'string', multiple: true }, 'case-sensitive': { type: 'boolean' }, notes: { type: 'string' } },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const client = context.client();
    const action = positional(positionals, 0, `Missing the glossary action. Usage: ${USAGE}`);
    switch (action) {
      case 'list': {
        noMorePositionals(positionals, 1, 'parlance glossary list');
        const terms = await client.glossary();
        out.document(terms);
        if (terms.length === 0) out.line('(no glossary terms)');
        for (const term of terms) out.line(termLine(term));
        return 0;
      }
      case 'add':
      case 'forbid': {
        const term = positional(positionals, 1, `Missing the term. Usage: parlance glossary ${action} <term>`);
        noMorePositionals(positionals, 2, `parlance glossary ${action} <term> (quote a term with spaces)`);
        if (action === 'forbid' && Object.keys(flags.translation).length > 0) throw new CommandError('A forbidden term has no translations: drop --translation, or use glossary add.');
        const created = await about(`glossary term '${term}'`, () =>
          client.addGlossaryTerm({
            term,
            ...(action === 'forbid' ? { forbidden: true } : { translations: flags.translation }),
            ...(flags['case-sensitive'] ? { case_sensitive: true } : {}),
            ...(flags.notes !== undefined ? { notes: flags.notes } : {}),
          }),
        );
        out.document(created);
        out.line(`${action === 'forbid' ? 'Forbade' : 'Added'} ${termLine(created)}`);
        return 0;
      }
      case 'rm': {
        const id = positional(positionals, 1, 'Missing the term id. Usage: parlance glossary rm <term id> (ids: parlance glossary list)');
        noMorePositionals(positionals, 2, 'parlance glossary rm <term id>');
        const removed = await about(`glossary term ${id}`, () => client.removeGlossaryTerm(id));
        out.document(removed);
        out.line(`Removed ${termLine(removed)}`);
        return 0;
      }
      default:
        throw new CommandError(`Unknown glossary action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** `gls_1  Dashboard  de=Übersicht, fr=Tableau de bord` or `gls_2  Handy  forbidden`. */
export function termLine(term: GlossaryTerm): string {
  const what = term.forbidden ? 'forbidden' : Object.entries(term.translations).map(([locale, text]) => `${locale}=${text}`).join(', ') || '(no translations)';
  return `${term.id}  ${term.term}  ${what}${term.case_sensitive ? '  (case-sensitive)' : ''}`;
}
