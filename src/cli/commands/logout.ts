/** `parlance logout`: removes the token `parlance login` stored for a service. */
import { z } from 'zod';
import { removeCredential } from '../credentials-file.js';
import { noMorePositionals, parseFlags, type Command } from './command.js';
import { chosenService, SERVICE_HELP } from './login.js';

const Flags = z.object({ url: z.string().optional() });

export const logoutCommand: Command = {
  name: 'logout',
  summary: "Remove the token 'parlance login' stored for a service",
  help: `Usage: parlance logout [--url <url>]

Removes the service's entry from $XDG_CONFIG_HOME/parlance/credentials (the file goes with its last entry).
The token itself stays valid on the service: revoke it with 'parlance tokens revoke <id>' if it leaked.

${SERVICE_HELP}`,
  options: { url: { type: 'string' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance logout [--url <url>]');
    const flags = parseFlags(Flags, values);
    const url = chosenService(context, flags.url);
    const { path, removed, left } = removeCredential(context.io.env, url);
    context.out.document({ service: url, removed, credentials: path, services_left: left });
    if (removed) context.out.line(`Logged out of ${url}: its token is removed from ${path}.`);
    else context.out.line(`No token stored for ${url} in ${path}${left.length > 0 ? ` (stored: ${left.join(', ')})` : ''}; nothing to remove.`);
    return 0;
  },
};
