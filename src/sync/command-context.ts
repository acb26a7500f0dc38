/** The context a command runs in: where it writes, the repository's parlance.yml and the /v1 client, each made on first use. */
import { createClient, type ParlanceClient } from '../client/client.js';
import { DEFAULT_ARCHIVE_LIMITS } from '../core/archive-limits.js';
import { readZip } from '../core/read-zip.js';
import { ConfigNotFoundError } from '../project-config/config-file-error.js';
import { loadConfig } from '../project-config/load-config.js';
import type { ParlanceConfig } from '../project-config/parse-config.js';
import { CommandError } from './command-error.js';
import { formatSeconds, type CommandIo, type Output } from './output.js';

export const DEFAULT_SERVICE = 'http://127.0.0.1:8787';
export const MAX_RETRIES = 4;

export interface LoadedConfig {
  config: ParlanceConfig;
  /** The config file, absolute. */
  path: string;
  /** The directory paths in the config are relative to. */
  root: string;
}

export interface CommandContext {
  io: CommandIo;
  out: Output;
  /** The repository's parlance.yml; a ConfigFileError naming where it looked when there is none, or the line and column of its first problem. */
  config(): LoadedConfig;
  /** The /v1 client for the project the token belongs to. */
  client(): ParlanceClient;
  /** The service URL the client talks to (see serviceUrl), without a trailing `/v1`. */
  service(): string;
}

export interface GlobalFlags {
  token?: string | undefined;
  service?: string | undefined;
  config?: string | undefined;
}

/**
 * What the host adds to the token lookup: the CLI, a token `parlance login` stored for the service (read only when
 * neither --token nor PARLANCE_TOKEN gives one); the Action, nothing.
 */
export interface ContextOptions {
  storedToken?: (serviceUrl: string) => string | undefined;
}

/** The run context: parlance.yml and the client are made on first use, so `init` and `languages list` need only what they use. */
export function createContext(io: CommandIo, out: Output, flags: GlobalFlags, options: ContextOptions = {}): CommandContext {
  let loaded: LoadedConfig | undefined;
  let client: ParlanceClient | undefined;
  let baseUrl: string | undefined;

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

  const service = (): string => (baseUrl ??= serviceUrl(flags.service, () => findConfig(false)?.config.service, io.env.PARLANCE_URL));

  return {
    io,
    out,
    config: () => findConfig(true)!,
    service,
    client() {
      if (client) return client;
      const url = service();
      const token = flags.token || io.env.PARLANCE_TOKEN || options.storedToken?.(url);
      if (!token) {
        const login = options.storedToken ? `, or store one for ${url} with 'parlance login'` : '';
        throw new CommandError(`No token: pass --token <token> or set PARLANCE_TOKEN (a project token, prl_…)${login}.`, 2);
      }
      client = createClient({
        baseUrl: url,
        token,
        maxRetries: MAX_RETRIES,
        onRetry: (info) => out.note(retryNote(info, url)),
        readZip: (bytes) => readZip(bytes, { budget: DEFAULT_ARCHIVE_LIMITS }),
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
    throw new CommandError(`Invalid service URL '${value}' (from ${origin}). Expected an http(s) URL such as https://parlance.example.com.`);
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
