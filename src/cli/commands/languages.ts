/** `parlance languages`: the project's source and target languages; adding or removing a target (needs 'manage'). */
import { z } from 'zod';
import type { AddedLanguage, Language } from '../../client/types.js';
import { count } from '../../sync/output.js';
import { CommandError } from '../../sync/command-error.js';
import { about } from '../../sync/subject-error.js';
import { localeTag, noMorePositionals, parseFlags, positional, type Command } from './command.js';

const USAGE = `parlance languages list
       parlance languages add <tag>
       parlance languages rm <tag>`;

export const languagesCommand: Command = {
  name: 'languages',
  summary: 'list | add <tag> | rm <tag>',
  help: `Usage: ${USAGE}

Tags are BCP-47 (pt-BR, zh-Hant). Adding a language queues one batch translating every existing key
into it (its id is printed; follow it with 'parlance status <batch id> --wait', then 'parlance pull').
Removing a language keeps its translations. Adding and removing need a token with 'manage'.`,
  options: {},
  async run(context, { positionals }) {
    const { out } = context;
    const client = context.client();
    const action = positional(positionals, 0, `Missing the languages action. Usage: ${USAGE}`);
    switch (action) {
      case 'list': {
        noMorePositionals(positionals, 1, 'parlance languages list');
        const languages = await client.languages();
        out.document(languages);
        for (const language of languages) out.line(languageLine(language));
        return 0;
      }
      case 'add':
      case 'rm': {
        const input = positional(positionals, 1, `Missing the locale tag. Usage: parlance languages ${action} <tag>`);
        noMorePositionals(positionals, 2, `parlance languages ${action} <tag>`);
        const tag = parseFlags(z.object({ tag: localeTag('locale tag') }), { tag: input }).tag;
        if (action === 'rm') {
          const removed = await about(`language ${tag}`, () => client.removeLanguage(tag));
          out.document(removed);
          out.line(`Removed ${tag}; its translations are kept.`);
          return 0;
        }
        const added = await about(`language ${tag}`, () => client.addLanguage(tag));
        out.document(added);
        out.line(`Added ${languageLine(added)}`);
        for (const line of addedLines(added)) out.line(line);
        if (added.batch_problem) out.problem(`${tag}: the existing keys were not queued for translation: ${added.batch_problem.detail} Run 'parlance translate-missing --locale ${tag}' once that is settled.`);
        return 0;
      }
      default:
        throw new CommandError(`Unknown languages action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** What became of the existing keys of a language just added: the batch translating them, or why there is none. */
export function addedLines(added: AddedLanguage): string[] {
  if (added.batch) {
    const { batch } = added;
    // A language added back still has its translations (removing one keeps them).
    if (batch.rows.total === 0) return [`Nothing to translate into ${added.tag}: every key has a translation, a candidate held for review, or a queued row.`];
    return [
      `Queued batch ${batch.id}: ${count(batch.rows.total, 'key')} to translate into ${added.tag} (${count(batch.words.reserved, 'word')}).`,
      `Follow it with: parlance status ${batch.id} --wait (then parlance pull writes the ${added.tag} files)`,
    ];
  }
  if (added.batch_problem) return [];
  return [`No keys yet: the first push translates them into ${added.tag}.`];
}

/** `pt-BR   target  Portuguese (Brazil)`. */
export function languageLine(language: Language): string {
  return `${language.tag.padEnd(8)} ${language.role.padEnd(7)} ${language.name ?? ''}${language.known ? '' : ' (not in CLDR)'}`.trimEnd();
}
