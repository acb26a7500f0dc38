/** What every user command shares: its definition, the run context (output, parlance.yml, client) and the parsing of its flags. */
import type { ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { createClient, type ParlanceClient } from '../../client/client.js';
import { checkLocale } from '../../core/locales/locales.js';
import { ConfigNotFoundError, loadConfig, type ParlanceConfig } from '../config.js';
import { formatSeconds, type CliIo, type Output } from '../output.js';

/** What `parseArgs` takes as `options`. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

export const DEFAULT_SERVICE = 'http://127.0.0.1:8787';
export const MAX_RETRIES = 4;

/** Options every command takes, wherever they stand on the command line. */
export const GLOBAL_OPTIONS = {
  token: { type: 'string' },
  service: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionsConfig;

export interface Command {
  name: string;
  /** One line for `parlance --help`. */
  summary: string;
  /** What `parlance <command> --help` prints: usage lines and the command's own options. */
  help: string;
  /** The command's own options; GLOBAL_OPTIONS are added to them. */
  options: OptionsConfig;
  run(context: CommandContext, args: { values: Record<string, unknown>; positionals: string[] }): Promise<number>;
}

export interface LoadedConfig {
  config: ParlanceConfig;
  /** The config file, absolute. */
  path: string;
  /** The directory paths in the config are relative to. */
  root: string;
}

export interface CommandContext {
  io: CliIo;
  out: Output;
  /** The repository's parlance.yml; a ConfigFileError naming where it looked when there is none, or the line and column of its first problem. */
  config(): LoadedConfig;
  /** The /v1 client for the project the token belongs to. */
  client(): ParlanceClient;
}

/** A failure the CLI itself detects, with the exit code it means (1 usage or config, 2 auth). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3 | 4 | 5 = 1,
  ) {
    super(message);
  }
}

/** An error while working on one thing (a file, a locale, a batch): the message starts with that thing. */
export class SubjectError extends Error {
  constructor(
    readonly subject: string,
    override readonly cause: unknown,
  ) {
    super(`${subject}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Runs `work` and names `subject` in any error it throws. */
export async function about<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new SubjectError(subject, error);
  }
}

export interface GlobalFlags {
  token?: string | undefined;
  service?: string | undefined;
  config?: string | undefined;
}

/** The run context: parlance.yml and the client are made on first use, so `init` and `languages list` need only what they use. */
export function createContext(io: CliIo, out: Output, flags: GlobalFlags): CommandContext {
  let loaded: LoadedConfig | undefined;
  let client: ParlanceClient | undefined;

  const findConfig = (required: boolean): LoadedConfig | undefined => {
    if (loaded) return loaded;
    try {
      loaded = loadConfig(io.cwd, flags.config);
    } catch (error) {
      // Commands that only talk to the service read the config for its `service`, and do without one; a named --config must exist.
      if (!required && flags.config === undefined && error instanceof ConfigNotFoundError) return undefined;
      throw error;
    }
    return loaded;
  };

  return {
    io,
    out,
    config: () => findConfig(true)!,
    client() {
      if (client) return client;
      const token = flags.token ?? io.env.PARLANCE_TOKEN;
      if (!token) throw new CliError('No token: pass --token <token> or set PARLANCE_TOKEN (a project token, prl_…).', 2);
      const baseUrl = serviceUrl(flags.service, () => findConfig(false)?.config.service, io.env.PARLANCE_URL);
      client = createClient({
        baseUrl,
        token,
        maxRetries: MAX_RETRIES,
        onRetry: (info) => out.note(retryNote(info, baseUrl)),
      });
      return client;
    },
  };
}

/** The stderr line for a retry the client is about to make. */
export function retryNote(info: { reason: 'rate_limited' | 'unavailable' | 'network'; waitMs: number; attempt: number; detail: string }, baseUrl: string): string {
  const wait = formatSeconds(info.waitMs);
  const attempt = `(attempt ${info.attempt}/${MAX_RETRIES})`;
  switch (info.reason) {
    case 'rate_limited':
      return `rate limited; waiting ${wait} ${attempt}`;
    case 'unavailable':
      return `service unavailable (${info.detail}); retrying in ${wait} ${attempt}`;
    case 'network':
      return `cannot reach ${baseUrl} (${info.detail}); retrying in ${wait} ${attempt}`;
  }
}

/** --service, else the config's `service`, else PARLANCE_URL, else the local default; checked and without a trailing `/v1`. */
export function serviceUrl(flag: string | undefined, fromConfig: () => string | undefined, fromEnv: string | undefined): string {
  const [value, origin] = chooseService(flag, fromConfig, fromEnv);
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Reported below with the value and where it came from.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError(`Invalid service URL '${value}' (from ${origin}). Expected an http(s) URL such as https://parlance.example.com.`);
  }
  return url.href.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function chooseService(flag: string | undefined, fromConfig: () => string | undefined, fromEnv: string | undefined): [string, string] {
  if (flag !== undefined) return [flag, '--service'];
  // The config is only read when no flag decides, so a flag works next to a config that does not load.
  const configured = fromConfig();
  if (configured) return [configured, "parlance.yml's service"];
  if (fromEnv) return [fromEnv, 'PARLANCE_URL'];
  return [DEFAULT_SERVICE, 'the default'];
}

/** Validates a command's parsed flags; the first problem becomes a usage error quoting the bad value. */
export function parseFlags<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new CliError(issue.code === 'custom' ? issue.message : `--${issue.path.join('.')}: ${issue.message}`);
}

/** A locale flag's value, canonical: `--locale pt-br` is `pt-BR`; `en_us` is refused with the suggested tag. */
export function localeTag(flag: string) {
  return z.string().transform((value, ctx) => {
    const check = checkLocale(value);
    if (check.ok) return check.tag;
    ctx.addIssue({ code: 'custom', message: `Invalid ${flag} '${value}'. ${check.message}` });
    return z.NEVER;
  });
}

/** A repeatable, comma-separated locale flag (`--locale de,fr --locale ja`), canonical and without duplicates. */
export function localeTags(flag: string) {
  return z
    .array(z.string())
    .optional()
    .transform((values, ctx) => {
      if (values === undefined) return undefined;
      const tags: string[] = [];
      for (const value of values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)) {
        const check = checkLocale(value);
        if (!check.ok) {
          ctx.addIssue({ code: 'custom', message: `Invalid ${flag} '${value}'. ${check.message}` });
          return z.NEVER;
        }
        if (!tags.includes(check.tag)) tags.push(check.tag);
      }
      return tags;
    });
}

/** A flag that takes one of a few words; anything else is refused with the list. */
export function oneOf<const T extends readonly [string, ...string[]]>(flag: string, choices: T) {
  return z.string().transform((value, ctx) => {
    if ((choices as readonly string[]).includes(value)) return value as T[number];
    ctx.addIssue({ code: 'custom', message: `Invalid ${flag} '${value}'. Expected one of: ${choices.join(', ')}.` });
    return z.NEVER;
  });
}

/** The positional argument at `index`, or a usage error that says which one is missing. */
export function positional(positionals: string[], index: number, missing: string): string {
  const value = positionals[index];
  if (value === undefined || value === '') throw new CliError(missing);
  return value;
}

/** A usage error for positionals beyond what the command takes. */
export function noMorePositionals(positionals: string[], from: number, usage: string): void {
  const extra = positionals[from];
  if (extra !== undefined) throw new CliError(`Unexpected argument '${extra}'. Usage: ${usage}`);
}
