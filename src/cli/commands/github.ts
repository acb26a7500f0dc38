/** `parlance github`: link a repository of a GitHub App installation to the project, list the links, unlink (needs 'manage'). */
import { z } from 'zod';
import type { GithubLink } from '../../client/client.js';
import { CommandError } from '../../sync/command-error.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, parseFlags, positional, type Command } from './command.js';

const USAGE = `parlance github link --installation <id> --repository owner/name [--base main] [--config-path parlance.yml]
       parlance github list
       parlance github unlink <link id>`;

/** Only the installation id is parsed here; the service checks the repository, branch and path and names what is wrong. */
const LinkFlags = z.object({
  installation: z.string({ error: "required: the GitHub App installation's numeric id (the number at the end of its settings URL)" }).transform((value, ctx) => {
    if (/^[1-9]\d{0,15}$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
    ctx.addIssue({ code: 'custom', message: `Invalid --installation '${value}'. Expected the GitHub App installation's numeric id, such as 12345678.` });
    return z.NEVER;
  }),
  repository: z.string({ error: "required: the repository as 'owner/name', such as 'acme/web'" }),
  base: z.string().optional(),
  'config-path': z.string().optional(),
});

export const githubCommand: Command = {
  name: 'github',
  summary: 'link --installation <id> --repository owner/name | list | unlink <id>   (needs manage)',
  help: `Usage: ${USAGE}

Links a repository to this project for the Parlance GitHub App: the App opens translation pull requests
against the base branch (default main) and reads the repository's parlance.yml at --config-path.
The service mints the App a token with push, pull, read and write (write because the App imports
translations edited by hand in the repository as human translations, which machine translation then
leaves alone) and subscribes the App to the project's events; both secrets stay encrypted on the
service and are never shown. Unlinking revokes that token and deletes the subscription.
Every action needs a token with 'manage'.`,
  options: { installation: { type: 'string' }, repository: { type: 'string' }, base: { type: 'string' }, 'config-path': { type: 'string' } },
  async run(context, { values, positionals }) {
    const { out } = context;
    const action = positional(positionals, 0, `Missing the github action. Usage: ${USAGE}`);
    switch (action) {
      case 'link': {
        noMorePositionals(positionals, 1, 'parlance github link --installation <id> --repository owner/name');
        const flags = parseFlags(LinkFlags, values);
        const client = context.client();
        const link = await about(`repository ${flags.repository}`, () =>
          client.linkGithub({
            installation_id: flags.installation,
            repository: flags.repository,
            ...(flags.base !== undefined ? { base_branch: flags.base } : {}),
            ...(flags['config-path'] !== undefined ? { config_path: flags['config-path'] } : {}),
          }),
        );
        out.document(link);
        out.line(`Linked ${linkLine(link)}`);
        out.line(`The GitHub App now opens translation pull requests against ${link.base_branch} and reads ${link.config_path}.`);
        return 0;
      }
      case 'list': {
        noMorePositionals(positionals, 1, 'parlance github list');
        const links = await context.client().githubLinks();
        out.document(links);
        if (links.length === 0) out.line('(no linked repositories)');
        for (const link of links) out.line(linkLine(link));
        return 0;
      }
      case 'unlink': {
        const id = positional(positionals, 1, 'Missing the link id. Usage: parlance github unlink <link id> (ids: parlance github list)');
        noMorePositionals(positionals, 2, 'parlance github unlink <link id>');
        const client = context.client();
        const link = await about(`link ${id}`, () => client.unlinkGithub(id));
        out.document(link);
        out.line(`Unlinked ${linkLine(link)}; its token is revoked and its webhook deleted.`);
        return 0;
      }
      default:
        throw new CommandError(`Unknown github action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** `ghl_1  acme/web@main  parlance.yml  installation 42  enabled`. */
export function linkLine(link: GithubLink): string {
  const state = link.enabled ? 'enabled' : `disabled: ${link.disabled_reason ?? 'no reason recorded'}`;
  return `${link.id}  ${link.repository}@${link.base_branch}  ${link.config_path}  installation ${link.installation_id}  ${state}`;
}
