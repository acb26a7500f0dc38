/**
 * The tokens `parlance login` stores: `$XDG_CONFIG_HOME/parlance/credentials` (default ~/.config/parlance/credentials),
 * JSON keyed by service URL, mode 0600 in a folder of mode 0700. Like ssh with a private key, a file that others can
 * read or write, or that another user owns, is refused rather than used.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { CommandError } from '../sync/command-error.js';

/** Far more than any number of services a person logs in to; a larger file is not one `parlance login` wrote. */
const MAX_BYTES = 1024 * 1024;

const Entry = z.object({
  token: z.string().min(1),
  project: z.object({ id: z.string(), name: z.string() }).nullable(),
  saved_at: z.string(),
});
export type CredentialEntry = z.infer<typeof Entry>;

const CredentialsFile = z.object({
  version: z.literal(1),
  services: z.record(z.string(), Entry),
});
type Credentials = z.infer<typeof CredentialsFile>;

/** Where the credentials live for this environment. */
export function credentialsPath(env: Record<string, string | undefined>): string {
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  const base = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
  return join(base, 'parlance', 'credentials');
}

/** The stored token for a service URL (as serviceUrl normalises it), or undefined when none is stored. */
export function storedToken(env: Record<string, string | undefined>, serviceUrl: string): string | undefined {
  return readCredentials(credentialsPath(env))?.services[serviceUrl]?.token;
}

/** Stores (or replaces) the entry of one service, keeping the others. */
export function saveCredential(env: Record<string, string | undefined>, serviceUrl: string, entry: CredentialEntry): string {
  const path = credentialsPath(env);
  const current = readCredentials(path) ?? { version: 1 as const, services: {} };
  writeCredentials(path, { ...current, services: { ...current.services, [serviceUrl]: entry } });
  return path;
}

/** Removes one service's entry; the file goes when it was the last. False when there was none. */
export function removeCredential(env: Record<string, string | undefined>, serviceUrl: string): { path: string; removed: boolean; left: string[] } {
  const path = credentialsPath(env);
  const current = readCredentials(path);
  if (!current || !(serviceUrl in current.services)) return { path, removed: false, left: Object.keys(current?.services ?? {}) };
  const { [serviceUrl]: _removed, ...services } = current.services;
  if (Object.keys(services).length === 0) rmSync(path, { force: true });
  else writeCredentials(path, { ...current, services });
  return { path, removed: true, left: Object.keys(services) };
}

/** The file's content; undefined when there is no file. Refuses a file others may read or write, or that is not ours. */
function readCredentials(path: string): Credentials | undefined {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CommandError(`${path}: cannot read the stored credentials (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, 2);
  }
  if (!stat.isFile()) throw new CommandError(`${path}: the stored credentials are not a regular file; remove it and run 'parlance login' again.`, 2);
  if (process.platform !== 'win32') {
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
      throw new CommandError(`${path} belongs to another user (uid ${stat.uid}); refusing to use its tokens. Remove it and run 'parlance login' again.`, 2);
    }
    if ((stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      throw new CommandError(
        `${path} is accessible by others (mode ${mode}); refusing to use its tokens, as ssh refuses such a key. Run 'chmod 600 ${path}' if only you could have read it, else remove it, revoke its tokens and run 'parlance login' again.`,
        2,
      );
    }
  }
  if (stat.size > MAX_BYTES) throw new CommandError(`${path} is ${stat.size} bytes, more than the ${MAX_BYTES} a credentials file can be; remove it and run 'parlance login' again.`, 2);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CommandError(`${path} is not valid JSON (${(error as Error).message}); remove it and run 'parlance login' again.`, 2);
  }
  const result = CredentialsFile.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new CommandError(`${path}: ${issue.path.join('.') || '(top level)'}: ${issue.message}. Expected {"version": 1, "services": {"<url>": {"token": …}}}; remove it and run 'parlance login' again.`, 2);
  }
  return result.data;
}

/** Writes the whole file at once: a temporary file created 0600 beside it, then renamed over it, so no reader sees half a file. */
function writeCredentials(path: string, credentials: Credentials): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  const temporary = join(dir, `.credentials-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CommandError(`${path}: cannot store the credentials (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, 1);
  }
}
