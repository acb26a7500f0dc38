/**
 * The `parlance` command of the CLI package (packages/cli, published as parlance-l10n; scripts/build-cli.mjs bundles it
 * from here): every user command of ./main.ts. The service's own commands run only from the service package
 * (parlance-server), whose code this package does not carry: here they say so and where to get them, and exit 1.
 */
import { runCli, splitCommand } from './main.js';

/** The commands of server/cli/main.ts: they run the service or act on its database, so they need the service package. */
export const SERVICE_COMMANDS: ReadonlySet<string> = new Set(['start', 'serve', 'worker', 'migrate', 'admin', 'github-app']);

export const SERVICE_PACKAGE = 'parlance-server';

/** Why `parlance <command>` does nothing in this package and what to run instead. */
export function serviceCommandMessage(command: string): string {
  return (
    `this is a command of the Parlance service, which this package (the CLI alone) does not include. ` +
    `Run it with 'npx ${SERVICE_PACKAGE} ${command}' (or the Docker image; see the README), ` +
    `and point this CLI at the service with --service <url>, PARLANCE_URL or parlance.yml's 'service'.`
  );
}

/** Runs one command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const { command, rest } = splitCommand(argv);
  // `parlance help start` asks about a service command too.
  const asked = command === 'help' && rest[0] !== undefined && SERVICE_COMMANDS.has(rest[0]) ? rest[0] : command;
  if (asked === undefined || !SERVICE_COMMANDS.has(asked)) return runCli(argv);
  const message = serviceCommandMessage(asked);
  process.stderr.write(`parlance ${asked}: ${message}\n`);
  if (rest.includes('--json')) process.stdout.write(`${JSON.stringify({ error: { message, exit_code: 1 } }, null, 2)}\n`);
  return 1;
}
