/** `parlance login`: a token stored per service URL in the user's config directory, checked with the service before it is kept. */
import { z } from 'zod';
import { ApiError, createClient } from '../../client/client.js';
import type { Project } from '../../client/types.js';
import { MAX_RETRIES, retryNote, serviceUrl, type CommandContext } from '../../sync/command-context.js';
import { CommandError } from '../../sync/command-error.js';
import { about } from '../../sync/subject-error.js';
import { saveCredential } from '../credentials-file.js';
import { noMorePositionals, parseFlags, type Command } from './command.js';

/** A token is about 40 characters; more than this on stdin is not a token. */
const MAX_TOKEN_INPUT = 4096;

const LoginFlags = z.object({ url: z.string().optional(), 'token-stdin': z.boolean().default(false) });

export const SERVICE_HELP = `  --url <url>     the service (default: --service, else parlance.yml's service, else $PARLANCE_URL,
                  else http://127.0.0.1:8787); the entry is stored under this URL and used for it only`;

export const loginCommand: Command = {
  name: 'login',
  summary: 'Store a token for a service, checked first, for when PARLANCE_TOKEN is not set',
  help: `Usage: parlance login [--url <url>] [--token-stdin]

Checks the token with the service (GET /v1/project), says which project it belongs to, and stores it in
$XDG_CONFIG_HOME/parlance/credentials (default ~/.config/parlance/credentials; mode 0600, its folder 0700),
keyed by the service URL. Commands then use it when neither --token nor PARLANCE_TOKEN gives a token.
A refused token is not stored. The token is never taken from the command line (shell history, ps):

${SERVICE_HELP}
  --token-stdin   read the token from stdin (e.g. printf %s "$TOKEN" | parlance login --token-stdin);
                  without it, the token is asked for on the terminal without echo`,
  options: { url: { type: 'string' }, 'token-stdin': { type: 'boolean' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance login [--url <url>] [--token-stdin]');
    const flags = parseFlags(LoginFlags, values);
    if (values.token !== undefined) {
      throw new CommandError("parlance login does not take --token: a token on the command line ends up in shell history and in ps. Pipe it in with --token-stdin, or run 'parlance login' on a terminal to be asked for it.");
    }
    const { out, io } = context;
    const url = chosenService(context, flags.url);
    const token = flags['token-stdin'] ? oneToken(await readStdin(MAX_TOKEN_INPUT, 'one token'), 'stdin') : oneToken(await askHidden(`Token for ${url} (input hidden): `), 'the prompt');
    const project = await checkToken(context, url, token);
    const path = saveCredential(io.env, url, { token, project: project ? { id: project.id, name: project.name } : null, saved_at: new Date().toISOString() });
    out.document({ service: url, project: project ? { id: project.id, name: project.name, organisation: project.organisation.name } : null, credentials: path });
    out.line(
      project
        ? `Logged in to ${url}: the token belongs to project '${project.name}' (${project.id}) of ${project.organisation.name}.`
        : `Logged in to ${url}: the token is valid but lacks the 'read' ability, so its project cannot be named.`,
    );
    out.line(`Stored in ${path}; commands use it for ${url} when neither --token nor PARLANCE_TOKEN is set.`);
    if (io.env.PARLANCE_TOKEN) out.note('PARLANCE_TOKEN is set in this shell: while it is, commands use it instead of the stored token.');
    return 0;
  },
};

/** --url when given (checked and normalised as the context normalises --service), else the service every command would use. */
export function chosenService(context: CommandContext, flag: string | undefined): string {
  if (flag === undefined) return context.service();
  let url: URL | undefined;
  try {
    url = new URL(flag);
  } catch {
    // Reported below with the value.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new CommandError(`Invalid --url '${flag}'. Expected an http(s) URL such as https://parlance.example.com.`);
  return serviceUrl(flag, () => undefined, undefined);
}

/** The project the token belongs to; null when the token is valid but may not read it. A refused token stops the login. */
async function checkToken(context: CommandContext, url: string, token: string): Promise<Project | null> {
  const client = createClient({ baseUrl: url, token, maxRetries: MAX_RETRIES, onRetry: (info) => context.out.note(retryNote(info, url)) });
  try {
    return await about(`checking the token with ${url}`, () => client.project());
  } catch (error) {
    const api = error instanceof Error && error.cause instanceof ApiError ? error.cause : error;
    if (api instanceof ApiError && api.status === 403 && api.code === 'ability_missing') return null;
    if (api instanceof ApiError && api.status === 401) throw new CommandError(`${url} refused the token: ${api.status} ${api.code}: ${api.detail} Nothing was stored.`, 2);
    throw error;
  }
}

/** The one token in what was read: surrounding whitespace (a trailing newline) dropped; empty or several words refused. */
function oneToken(text: string, from: string): string {
  const token = text.trim();
  if (token === '') throw new CommandError(`No token on ${from}. Pipe a project token (prl_…) in with --token-stdin, or type it at the prompt.`);
  if (/\s/.test(token)) throw new CommandError(`Expected one token on ${from}, found ${token.split(/\s+/).length} words. Give the token alone.`);
  return token;
}

/** All of stdin, refused past `max` bytes (`expected` says what should have come). */
export async function readStdin(max: number, expected: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > max) throw new CommandError(`stdin holds more than ${max} bytes; expected ${expected}.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a line from the terminal without echoing it; Ctrl-C stops the login. */
function askHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    return Promise.reject(new CommandError(`No terminal to ask for the token on. Pipe it in instead: printf %s "$TOKEN" | parlance login --token-stdin`));
  }
  // Echo goes off before the prompt shows, so nothing typed after it is echoed.
  stdin.setRawMode(true);
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (result: { token: string } | { error: CommandError }) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if ('token' in result) resolve(result.token);
      else reject(result.error);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish({ token: value });
        if (char === '\u0003') return finish({ error: new CommandError('Login cancelled; nothing was stored.') });
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
        if (value.length > MAX_TOKEN_INPUT) return finish({ error: new CommandError(`More than ${MAX_TOKEN_INPUT} characters typed; expected one token.`) });
      }
    };
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}
