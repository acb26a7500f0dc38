/** The `parlance` binary (bin/parlance.js, the build of the current sources) as real processes: a service to wait on and stop, and commands run to their end. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runProcess, type Run } from './process.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/parlance.js', import.meta.url));
/**
 * Node's flags for a service a test spawns: the embedded database's WebAssembly on V8's baseline compiler only, as in
 * the test files themselves (vitest.config.ts); a test's service lives for seconds, too short to repay the optimiser.
 */
export const SERVICE_NODE_FLAGS = ['--liftoff-only'];

/** A clean environment plus `env`: nothing such as DATABASE_URL leaks in from the shell that runs the tests. */
export function processEnv(env: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  return { ...base, ...env };
}

/** `parlance <args>` to its end, in `cwd` (the repository unless given). */
export function runParlance(args: readonly string[], env: Record<string, string>, cwd = ROOT, input?: string): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], { cwd, env: processEnv(env), ...(input !== undefined ? { input } : {}) });
}

export interface ServiceProcess {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  running(): boolean;
  /** Resolves with the first match of `pattern` in stdout followed by stderr; rejects, with the output, if the process exits first. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<RegExpExecArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `parlance start` (or another long-running command) in the background. */
export function spawnParlance(args: readonly string[], env: Record<string, string>): ServiceProcess {
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, BIN, ...args], { cwd: ROOT, env: processEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exitCode: number | null | undefined;
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((check) => check());
  proc.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    changed();
  });
  proc.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    changed();
  });
  const exited = new Promise<number | null>((resolve) =>
    proc.on('close', (code) => {
      exitCode = code;
      resolve(code);
      changed();
    }),
  );
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    running: () => exitCode === undefined,
    waitFor(pattern, stream) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = (stream === 'stderr' ? undefined : pattern.exec(out)) ?? (stream === 'stdout' ? undefined : pattern.exec(err));
          if (match) {
            waiters.delete(check);
            resolve(match);
          } else if (exitCode !== undefined) {
            waiters.delete(check);
            reject(new Error(`parlance ${args.join(' ')} exited (${exitCode}) before printing ${pattern}\nstdout: ${out}\nstderr: ${err}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (exitCode === undefined) proc.kill('SIGTERM');
      return exited;
    },
  };
}

/** Waits for the service's "started" log line (LOG_LEVEL info or lower) and returns the URL it listens on. */
export async function serviceUrl(service: ServiceProcess): Promise<string> {
  const match = await service.waitFor(/parlance API and workers started \{"url":"(http:\/\/[^"]+)"/, 'stderr');
  return match[1]!;
}
