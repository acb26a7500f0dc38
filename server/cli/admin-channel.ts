/**
 * The local channel between `parlance admin` and the running `parlance start` that holds the embedded database (only
 * one process may open it): the service listens on a Unix socket (a named pipe on Windows) and runs each admin command
 * line it receives against its open database, answering with the command's output and exit code.
 *
 * Only the data directory's owner gets in: <dataDir>/admin.json (mode 0600) names the socket and holds a secret made
 * at each start, the socket is 0600 as well, and a request without the secret is refused. Nothing listens on a network.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logger.js';

export const ADMIN_CHANNEL_FILE = 'admin.json';
export const ADMIN_SOCKET_FILE = 'admin.sock';
/** An admin command line is a few hundred bytes; a request larger than this is refused unread. */
export const MAX_ADMIN_REQUEST_BYTES = 64 * 1024;
/** A reply is one command's output: the token or project list of a large instance fits many times over. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;
/** A connection that has not sent its whole request by then is dropped, so a stuck client holds nothing open. */
const REQUEST_TIMEOUT_MS = 10_000;
/** How long the CLI waits for the service's answer (a command is a few statements; a service this slow is stuck). */
const REPLY_TIMEOUT_MS = 120_000;
/** Unix socket paths are limited to 104 bytes (macOS) or 108 (Linux) including the final NUL. */
const MAX_SOCKET_PATH_BYTES = 100;

/** Where an admin command writes: the terminal, or the reply going back over the channel. */
export interface AdminOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs one admin command line (as typed after `parlance admin`) and resolves to its exit code. */
export type AdminCommandRunner = (argv: string[], out: AdminOutput) => Promise<number>;

export interface AdminChannel {
  /** The socket (or pipe) the service listens on. */
  socket: string;
  /** Stops taking commands, lets the running ones finish, and removes the socket and admin.json. */
  close(): Promise<void>;
}

const channelFileSchema = z.object({ pid: z.number().int(), socket: z.string().min(1), secret: z.string().min(1) });
const requestSchema = z.object({ secret: z.string(), argv: z.array(z.string().max(4096)).max(100) });
const replySchema = z.object({ code: z.number().int(), stdout: z.string(), stderr: z.string() });
export type AdminReply = z.infer<typeof replySchema>;

/** The channel cannot carry the command: the message says why and what to do. */
export class AdminChannelError extends Error {
  constructor(
    message: string,
    /** The holder has no channel (yet): a service still starting, or a short-lived process such as another admin, may change that in a moment. */
    readonly noChannel = false,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The service's side.

export async function openAdminChannel(deps: { dataDir: string; run: AdminCommandRunner; log: Logger }): Promise<AdminChannel> {
  const secret = randomBytes(32).toString('base64url');
  const address = socketAddress(deps.dataDir);
  // A socket left by a service that was killed: the data directory's lock, which this process holds, says no live process uses it.
  if (address.removable) rmSync(address.socket, { force: true });
  const waiting = new Set<Socket>();
  const running = new Set<Promise<void>>();
  const server = createServer({ allowHalfOpen: true }, (connection) => {
    waiting.add(connection);
    const served = serveConnection(connection, {
      secret,
      run: deps.run,
      log: deps.log,
      received: () => waiting.delete(connection),
    }).finally(() => {
      waiting.delete(connection);
      running.delete(served);
    });
    running.add(served);
  });
  server.maxConnections = 8;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => deps.log.warn('admin channel error', { error }));
  if (process.platform !== 'win32') chmodSync(address.socket, 0o600);
  const file = join(deps.dataDir, ADMIN_CHANNEL_FILE);
  writePrivateFile(file, JSON.stringify({ pid: process.pid, socket: address.socket, secret }) + '\n');

  let closed: Promise<void> | undefined;
  return {
    socket: address.socket,
    close: () =>
      (closed ??= (async () => {
        rmSync(file, { force: true });
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // A client that connected but has not sent its command gets nothing more; commands already received finish.
        for (const connection of waiting) connection.destroy();
        await Promise.allSettled([...running]);
        await stopped;
        address.cleanup();
      })()),
  };
}

/** The socket's path: in the data directory, or in a private temporary directory when that path is too long for a socket. */
function socketAddress(dataDir: string): { socket: string; removable: boolean; cleanup(): void } {
  if (process.platform === 'win32') {
    return { socket: `\\\\.\\pipe\\parlance-admin-${randomBytes(8).toString('hex')}`, removable: false, cleanup: () => undefined };
  }
  const socket = join(dataDir, ADMIN_SOCKET_FILE);
  if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES) return { socket, removable: true, cleanup: () => rmSync(socket, { force: true }) };
  // mkdtemp makes the directory 0700 with a name nobody could have taken before.
  const dir = mkdtempSync(join(tmpdir(), 'parlance-admin-'));
  return { socket: join(dir, ADMIN_SOCKET_FILE), removable: true, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Written whole under a temporary name with mode 0600 and renamed, so a reader never sees it half-written or readable by others. */
function writePrivateFile(path: string, text: string) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

async function serveConnection(
  connection: Socket,
  deps: { secret: string; run: AdminCommandRunner; log: Logger; received(): void },
): Promise<void> {
  connection.on('error', () => undefined);
  connection.setTimeout(REQUEST_TIMEOUT_MS, () => connection.destroy());
  let request: z.infer<typeof requestSchema>;
  try {
    const line = await readLine(connection, MAX_ADMIN_REQUEST_BYTES);
    const parsed = requestSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new AdminChannelError('the request is not an admin command line');
    request = parsed.data;
  } catch (error) {
    deps.log.warn('admin channel: request refused', { reason: (error as Error).message });
    await answer(connection, refusal(error instanceof SyntaxError ? 'the request is not JSON' : (error as Error).message));
    return;
  }
  if (!sameSecret(request.secret, deps.secret)) {
    deps.log.warn('admin channel: request refused', { reason: 'wrong secret' });
    await answer(connection, refusal('the admin secret does not match this service (admin.json in its data directory)'));
    return;
  }
  deps.received();
  connection.setTimeout(0);
  const reply: AdminReply = { code: 1, stdout: '', stderr: '' };
  const out: AdminOutput = { stdout: (text) => void (reply.stdout += text), stderr: (text) => void (reply.stderr += text) };
  const command = request.argv.filter((arg) => !arg.startsWith('-')).slice(0, 2).join(' ');
  try {
    reply.code = await deps.run(request.argv, out);
    deps.log.info('admin command', { command, exit: reply.code });
  } catch (error) {
    deps.log.error('admin command failed', { command, error });
    out.stderr(`parlance: ${error instanceof Error ? error.message : String(error)}\n`);
    reply.code = 1;
  }
  await answer(connection, reply);
}

function refusal(reason: string): AdminReply {
  return { code: 1, stdout: '', stderr: `parlance admin: the service refused the command: ${reason}.\n` };
}

/** Compared as digests, so the comparison takes as long whatever the length or the first differing byte. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The bytes up to the first newline; rejects once more than `limit` bytes came without one, or when the connection ends or is dropped first. */
function readLine(connection: Socket, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void) => {
      connection.off('data', onData);
      connection.off('end', onEnd);
      connection.off('close', onEnd);
      connection.pause();
      settle();
    };
    const onData = (chunk: Buffer) => {
      const end = chunk.indexOf(0x0a);
      const part = end === -1 ? chunk : chunk.subarray(0, end);
      size += part.length;
      if (size > limit) return finish(() => reject(new AdminChannelError(`the request is larger than ${limit} bytes`)));
      chunks.push(part);
      if (end !== -1) finish(() => resolve(Buffer.concat(chunks).toString('utf8')));
    };
    const onEnd = () => finish(() => reject(new AdminChannelError('the request ended before its end of line')));
    connection.on('data', onData);
    connection.on('end', onEnd);
    connection.on('close', onEnd);
  });
}

/** One JSON line, then the connection ends; it is destroyed once written, even if the client is still sending. */
function answer(connection: Socket, reply: AdminReply): Promise<void> {
  return new Promise((resolve) => {
    if (connection.destroyed) return resolve();
    connection.end(JSON.stringify(reply) + '\n', () => {
      connection.destroy();
      resolve();
    });
    connection.once('close', () => resolve());
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The CLI's side.

/** Hands a command line to the service (process `owner`) that holds the embedded database in `dataDir`, and returns its answer. */
export async function sendAdminCommand(dataDir: string, owner: number, argv: string[]): Promise<AdminReply> {
  const { socket, secret } = readChannelFile(dataDir, owner);
  const text = await exchange(socket, JSON.stringify({ secret, argv }) + '\n', { dataDir, owner });
  let reply;
  try {
    reply = replySchema.safeParse(JSON.parse(text));
  } catch {
    reply = undefined;
  }
  if (!reply?.success) throw new AdminChannelError(`Process ${owner}, which holds the embedded database in ${dataDir}, answered the admin command with something that is not an admin reply. Is it a parlance service of this version?`);
  return reply.data;
}

function readChannelFile(dataDir: string, owner: number): z.infer<typeof channelFileSchema> {
  const path = join(dataDir, ADMIN_CHANNEL_FILE);
  const noChannel = (why: string) =>
    new AdminChannelError(
      `The embedded database in ${dataDir} is in use by process ${owner}, which does not take admin commands (${why}). ` +
        `It is not a 'parlance start' of this version, or is still starting: stop it, or wait until it has started, and run the command again. ` +
        `If process ${owner} is no parlance at all, the lock ${join(dataDir, 'lock')} is stale: remove it.`,
      true,
    );
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw noChannel(`${path} is missing`);
    if (code === 'EACCES' || code === 'EPERM') throw notOwner(dataDir, path);
    throw error;
  }
  let parsed;
  try {
    parsed = channelFileSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw noChannel(`${path} is not a channel file`);
  // The file of a service that was killed, while some other process holds the lock now.
  if (parsed.data.pid !== owner) throw noChannel(`${path} was left by process ${parsed.data.pid}`);
  return parsed.data;
}

function notOwner(dataDir: string, path: string) {
  return new AdminChannelError(`Permission denied on ${path}: only the user that runs the service (the owner of ${dataDir}) can send it admin commands. Run 'parlance admin' as that user.`);
}

/** Sends the request and reads the reply to the end of the connection, at most MAX_REPLY_BYTES. */
function exchange(socket: string, request: string, about: { dataDir: string; owner: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(
      () => settle(new AdminChannelError(`Process ${about.owner} took more than ${REPLY_TIMEOUT_MS / 1000} s to answer the admin command; it may be stuck. Its log says more.`)),
      REPLY_TIMEOUT_MS,
    );
    const connection = connect(socket);
    connection.on('connect', () => connection.write(request));
    connection.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) return settle(new AdminChannelError(`The admin reply of process ${about.owner} is larger than ${MAX_REPLY_BYTES} bytes.`));
      chunks.push(chunk);
    });
    connection.on('end', () => settle(undefined));
    connection.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EACCES' || error.code === 'EPERM') return settle(notOwner(about.dataDir, socket));
      if (chunks.length > 0 && error.code === 'ECONNRESET') return settle(undefined);
      settle(
        new AdminChannelError(
          `The embedded database in ${about.dataDir} is in use by process ${about.owner}, which does not answer on its admin socket ${socket} (${error.code ?? error.message}). ` +
            `If that process is not a parlance service, or is stuck, stop it and run the command again.`,
        ),
      );
    });
  });
}
