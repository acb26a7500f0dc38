/** The user commands of `parlance`: finds the command on the line, parses its flags, runs it, and turns what it throws into one stderr line and an exit code. */
import { parseArgs } from 'node:util';
import packageJson from '../../package.json' with { type: 'json' };
import { ApiError, EXIT, exitCodeFor } from '../client/client.js';
import { ConfigFileError } from '../project-config/config-file-error.js';
import { createContext } from '../sync/command-context.js';
import { CommandError } from '../sync/command-error.js';
import type { CommandIo } from '../sync/output.js';
import { SubjectError } from '../sync/subject-error.js';
import { GLOBAL_OPTIONS, type Command } from './commands/command.js';
import { githubCommand } from './commands/github.js';
import { glossaryCommand } from './commands/glossary.js';
import { importCommand } from './commands/import.js';
import { initCommand } from './commands/init.js';
import { integrationsCommand } from './commands/integrations.js';
import { languagesCommand } from './commands/languages.js';
import { translationCommand } from './commands/translation.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { mcpCommand } from './commands/mcp.js';
import { diffCommand } from './commands/diff.js';
import { extractCommand } from './commands/extract.js';
import { pullCommand } from './commands/pull.js';
import { pushCommand } from './commands/push.js';
import { qaCommand } from './commands/qa.js';
import { releaseCommand } from './commands/release.js';
import { retryCommand } from './commands/retry.js';
import { reviewCommand } from './commands/review.js';
import { statusCommand } from './commands/status.js';
import { storageCommand } from './commands/storage.js';
import { syncCommand } from './commands/sync.js';
import { tokensCommand } from './commands/tokens.js';
import { translateMissingCommand } from './commands/translate-missing.js';
import { storedToken } from './credentials-file.js';
import { createOutput } from './output.js';

const COMMANDS: readonly Command[] = [initCommand, pushCommand, pullCommand, syncCommand, diffCommand, statusCommand, retryCommand, translateMissingCommand, qaCommand, extractCommand, glossaryCommand, reviewCommand, languagesCommand, translationCommand, tokensCommand, releaseCommand, storageCommand, importCommand, githubCommand, integrationsCommand, mcpCommand, loginCommand, logoutCommand];

const GLOBAL_HELP = `Options for every command:
  --token <token>     project token (default: $PARLANCE_TOKEN, else the one 'parlance login' stored for the
                      service); never printed
  --service <url>     the Parlance service (default: parlance.yml's service, else $PARLANCE_URL,
                      else http://127.0.0.1:8787)
  --config <file>     the config file (default: parlance.yml, else .github/parlance.yml)
  --json              one JSON document on stdout and nothing else (errors: {"error": {...}})
  -q, --quiet         only errors and refused rows, on stderr
  -h, --help          help for the command`;

const EXIT_HELP = `Exit codes:
  0  ok
  1  usage or config error (parlance.yml:LINE:COL, a bad flag, a request the service rejected as invalid);
     extract --check: a key the code uses is missing from the source file
  2  authentication or ability (no token, a revoked token, a token without the ability, a stored credentials
     file others can read)
  3  service or network (5xx, unreachable, still rate limited after retries, a failed batch or storage sync)
  4  a refused row: a translation held by the quality gates (push --wait, sync, pull, status --wait, retry --wait, qa)
  5  the word allowance is exhausted`;

/** The help of the whole `parlance` binary: the user commands here, the service commands of server/cli. */
export const HELP = `Usage: parlance <command> [options]

Project commands (talk to a Parlance service with a project token):
${COMMANDS.map((command) => `  ${command.name.padEnd(11)} ${command.summary}`).join('\n')}

Service commands (run where the service runs: the parlance-server package or the Docker image):
  start       API and workers in one process (the embedded default; creates a demo project on first start)
  serve       API only (needs DATABASE_URL and REDIS_URL; run workers with 'parlance worker')
  worker      job workers only (needs DATABASE_URL and REDIS_URL)
  migrate     apply database migrations and exit
  admin ...   organisations, projects and tokens, directly in the database; run 'parlance admin help'
  github-app  the GitHub App alone (needs DATABASE_URL and GITHUB_APP_* settings; 'start' runs it when they are set)

${GLOBAL_HELP}

${EXIT_HELP}

Run 'parlance <command> --help' for a command's options, 'parlance --version' for the version. The service
reads its configuration from environment variables; see the README.
`;

/** Global options that take a value: the word after them is not the command. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, option]) => option.type === 'string')
    .map(([name]) => `--${name}`),
);

/** Runs one user command; resolves to the exit code (see EXIT_HELP). */
export async function runCli(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { command: name, rest } = splitCommand(argv);
  if (name === undefined && rest.includes('--version')) {
    io.stdout.write(`${packageJson.version}\n`);
    return EXIT.ok;
  }
  if (name === undefined || name === 'help') return showHelp(io, name === 'help' ? rest[0] : undefined, rest.includes('--help') || rest.includes('-h') || name === 'help');
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    if (rest.includes('--json')) return fail(io, 'parlance', { json: true, secret: io.env.PARLANCE_TOKEN }, new CommandError(`Unknown command '${name}'. Run 'parlance --help'.`));
    io.stderr.write(`Unknown command '${name}'.\n\n${HELP}`);
    return EXIT.usage;
  }

  let parsed: ReturnType<typeof parseLine>;
  try {
    parsed = parseLine(command, rest);
  } catch (error) {
    return fail(io, `parlance ${command.name}`, { json: rest.includes('--json'), secret: io.env.PARLANCE_TOKEN }, new CommandError(`${(error as Error).message}. Run 'parlance ${command.name} --help'.`));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout.write(`${command.help}\n\n${GLOBAL_HELP}\n`);
    return EXIT.ok;
  }
  const flags = { token: optionalString(values.token), service: optionalString(values.service), config: optionalString(values.config) };
  const secret = flags.token ?? io.env.PARLANCE_TOKEN;
  const out = createOutput(io, { json: values.json === true, quiet: values.quiet === true, secret });
  try {
    return await command.run(createContext(io, out, flags, { storedToken: (url) => storedToken(io.env, url) }), { values, positionals });
  } catch (error) {
    return fail(io, `parlance ${command.name}`, { json: values.json === true, secret }, error);
  }
}

function parseLine(command: Command, args: string[]) {
  const { values, positionals } = parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
  return { values: values as Record<string, unknown>, positionals };
}

/** The command word and the rest of the line; global options may stand before the command (`parlance --json push`). */
export function splitCommand(argv: readonly string[]): { command: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('-')) return { command: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    if (VALUE_OPTIONS.has(arg)) i++;
  }
  return { command: undefined, rest: [...argv] };
}

function showHelp(io: CommandIo, topic: string | undefined, asked: boolean): number {
  const command = topic === undefined ? undefined : COMMANDS.find((candidate) => candidate.name === topic);
  if (topic !== undefined && !topic.startsWith('-') && !command) {
    io.stderr.write(`No help for '${topic}'.${topic === 'admin' ? " Run 'parlance admin help'." : ''}\n\n${HELP}`);
    return EXIT.usage;
  }
  io.stdout.write(command ? `${command.help}\n\n${GLOBAL_HELP}\n` : HELP);
  // `parlance` alone is a usage slip; `parlance --help` is a question.
  return asked ? EXIT.ok : EXIT.usage;
}

interface Failure {
  message: string;
  exitCode: number;
  status?: number;
  code?: string;
}

/** Prints why the command stopped (one stderr line; in --json mode also the error document) and returns its exit code. */
function fail(io: CommandIo, prefix: string, options: { json: boolean; secret: string | undefined }, error: unknown): number {
  const failure = describeFailure(error);
  const out = createOutput(io, { json: options.json, quiet: false, secret: options.secret });
  out.problem(`${prefix}: ${failure.message}`);
  out.document({ error: { message: failure.message, exit_code: failure.exitCode, ...(failure.status ? { status: failure.status, code: failure.code } : {}) } });
  if (io.env.PARLANCE_DEBUG && error instanceof Error && error.stack) out.problem(error.stack);
  return failure.exitCode;
}

/** Maps what a command threw to its message and exit code: the one place errors become exit codes. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof SubjectError) {
    const inner = describeFailure(error.cause);
    return { ...inner, message: `${error.subject}: ${inner.message}` };
  }
  if (error instanceof CommandError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof ConfigFileError) return { message: error.message, exitCode: EXIT.usage };
  if (error instanceof ApiError) {
    const hint = API_HINTS[error.code] ?? (error.status === 401 ? API_HINTS.token_invalid : undefined);
    return { message: `${error.status} ${error.code}: ${error.detail}${hint ? ` ${hint}` : ''}`, exitCode: exitCodeFor(error), status: error.status, code: error.code };
  }
  // NetworkError and a batch wait that timed out are 3; anything else the commands did not foresee is 1.
  return { message: error instanceof Error ? error.message : String(error), exitCode: exitCodeFor(error) };
}

/** What to do next, for the answers a CLI user can fix themselves. */
const API_HINTS: Record<string, string> = {
  token_missing: '(check --token or PARLANCE_TOKEN)',
  token_malformed: '(check --token or PARLANCE_TOKEN)',
  token_invalid: "(check --token or PARLANCE_TOKEN, and --service; a token stored by 'parlance login' is replaced by logging in again)",
  token_expired: '(mint a new token: parlance tokens create)',
  token_revoked: '(mint a new token: parlance tokens create)',
  path_not_found: "(push the file first: 'parlance push')",
  nothing_pushed: "(push a source file first: 'parlance push')",
};

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), isTTY: process.stderr.isTTY === true };
}
