/** `parlance tokens`: a manager's view of the project's tokens: list, mint (the secret is shown once), revoke. */
import { z } from 'zod';
import type { Token } from '../../client/types.js';
import { CommandError } from '../../sync/command-error.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, parseFlags, positional, type Command } from './command.js';

const USAGE = `parlance tokens list
       parlance tokens create <name> [--abilities push,pull,read] [--expires-in-days <n>]
       parlance tokens revoke <token id>`;

const Flags = z.object({
  abilities: z
    .string()
    .optional()
    .transform((value) => value?.split(',').map((ability) => ability.trim()).filter(Boolean)),
  'expires-in-days': z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const days = Number(value);
      if (Number.isInteger(days) && days >= 1) return days;
      ctx.addIssue({ code: 'custom', message: `Invalid --expires-in-days '${value}'. Expected a whole number of days, 1 or more.` });
      return z.NEVER;
    }),
});

export const tokensCommand: Command = {
  name: 'tokens',
  summary: 'list | create <name> [--abilities push,pull,read] | revoke <id>   (needs manage)',
  help: `Usage: ${USAGE}

Abilities: push, pull, read, write, manage; a new token gets push, pull, read (what a CI job needs) unless
--abilities says otherwise. The secret of a new token is printed once; the service keeps only its hash.
Every action needs a token with 'manage'.`,
  options: { abilities: { type: 'string' }, 'expires-in-days': { type: 'string' } },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const client = context.client();
    const action = positional(positionals, 0, `Missing the tokens action. Usage: ${USAGE}`);
    switch (action) {
      case 'list': {
        noMorePositionals(positionals, 1, 'parlance tokens list');
        const tokens = await client.tokens();
        out.document(tokens);
        if (tokens.length === 0) out.line('(no tokens)');
        for (const token of tokens) out.line(tokenLine(token));
        return 0;
      }
      case 'create': {
        const name = positional(positionals, 1, 'Missing the token name. Usage: parlance tokens create <name> [--abilities push,pull,read]');
        noMorePositionals(positionals, 2, 'parlance tokens create <name> (quote a name with spaces)');
        const created = await about(`token '${name}'`, () =>
          client.createToken({
            name,
            ...(flags.abilities ? { abilities: flags.abilities } : {}),
            ...(flags['expires-in-days'] !== undefined ? { expires_in_days: flags['expires-in-days'] } : {}),
          }),
        );
        out.document(created);
        out.line(`Created ${tokenLine(created)}. The secret is shown once:\n\n  ${created.secret}\n`);
        return 0;
      }
      case 'revoke': {
        const id = positional(positionals, 1, 'Missing the token id. Usage: parlance tokens revoke <token id> (ids: parlance tokens list)');
        noMorePositionals(positionals, 2, 'parlance tokens revoke <token id>');
        const revoked = await about(`token ${id}`, () => client.revokeToken(id));
        out.document(revoked);
        out.line(`Revoked ${tokenLine(revoked)}`);
        return 0;
      }
      default:
        throw new CommandError(`Unknown tokens action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** `tok_1  prl_Ab12…  push,pull,read  expires 2026-01-01T…  CI`. */
export function tokenLine(token: Token): string {
  const state = token.revoked_at ? `revoked ${token.revoked_at}` : token.expires_at ? `expires ${token.expires_at}` : 'no expiry';
  return `${token.id}  ${token.prefix}…  ${token.abilities.join(',')}  ${state}  ${token.name}`;
}
