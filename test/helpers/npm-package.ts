/**
 * The npm packages as people get them: `npm pack` of the service (the repository root, parlance-server) or of the CLI
 * (packages/cli, parlance-l10n), run with only the environment a user's shell would have. Shared by
 * test/integration/package.test.ts (the service, installed from the registry) and cli-package.test.ts (the CLI,
 * which has no dependencies and installs offline).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type Run } from './process.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI_PACKAGE_DIR = join(ROOT, 'packages/cli');
export const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** Why installing from the registry cannot work here, or undefined: the service's production dependencies come from it. */
export function registryProblem(): string | undefined {
  const ping = spawnSync('npm', ['ping', '--loglevel=error', '--fetch-retries=0', '--fetch-timeout=15000'], { encoding: 'utf8', timeout: 30_000 });
  if (ping.error) return `npm did not run: ${ping.error.message}`;
  if (ping.status !== 0) {
    const output = `${ping.stderr}\n${ping.stdout}`;
    const reason = /FetchError: (.*)/.exec(output)?.[1] ?? /npm error code (.*)/.exec(output)?.[1] ?? `exit code ${ping.status}`;
    return `npm cannot reach the registry (npm ping: ${reason})`;
  }
  return undefined;
}

/** Only the environment a user's shell would pass: nothing of the test runner's settings leaks into the package. */
export function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'npm_config_cache', 'npm_config_registry']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

export function runAsUser(command: string, args: string[], options: { cwd: string; env?: Record<string, string>; timeout?: number }): Promise<Run> {
  return runProcess(command, args, { cwd: options.cwd, env: userEnv(options.env), timeout: options.timeout ?? 120_000 });
}

export interface Packed {
  tarball: string;
  /** The paths inside the package, as npm lists them. */
  files: string[];
  /** npm's and the build's messages (prepare / prepack print there). */
  stderr: string;
}

/** `npm pack <dir>` into `destination`: runs the package's prepare or prepack (the build) as `npm publish` would. */
export async function npmPack(dir: string, destination: string): Promise<Packed> {
  const pack = await runAsUser('npm', ['pack', dir, '--pack-destination', destination, '--json', ...NPM_FLAGS], { cwd: ROOT, timeout: 180_000 });
  if (pack.code !== 0) throw new Error(`npm pack ${dir} failed (exit ${pack.code}):\n${pack.stderr}`);
  const [report] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  return { tarball: join(destination, report!.filename), files: report!.files.map((file) => file.path), stderr: pack.stderr };
}

/** Every file under `dir` (symlinks not followed) with its size in bytes, as paths relative to `dir`. */
export function filesUnder(dir: string): { path: string; bytes: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: path.slice(dir.length + 1), bytes: statSync(path).size };
    });
}
