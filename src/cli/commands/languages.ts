/** `parlance languages`: the project's source and target languages; adding or removing a target (needs 'manage'). */
import { z } from 'zod';
import type { Language } from '../../client/types.js';
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

Tags are BCP-47 (pt-BR, zh-Hant). A language added here is translated from the next push of each file;
files the service already holds unchanged need 'parlance push --force'. Removing a language keeps its
translations. Adding and removing need a token with 'manage'.`,
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
        const language = await about(`language ${tag}`, () => (action === 'add' ? client.addLanguage(tag) : client.removeLanguage(tag)));
        out.document(language);
        if (action === 'add') {
          out.line(`Added ${languageLine(language)}`);
          out.line(`Existing keys are translated into ${tag} by the next push of each file; for files that did not change, run 'parlance push --force'.`);
        } else {
          out.line(`Removed ${tag}; its translations are kept.`);
        }
        return 0;
      }
      default:
        throw new CommandError(`Unknown languages action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** `pt-BR   target  Portuguese (Brazil)`. */
export function languageLine(language: Language): string {
  return `${language.tag.padEnd(8)} ${language.role.padEnd(7)} ${language.name ?? ''}${language.known ? '' : ' (not in CLDR)'}`.trimEnd();
}
