/**
 * Start-up benchmark of the built `parlance` command (build/, made first): `parlance --help` and `--version` beside
 * `node -e 0` (this machine's floor for any Node program), and `parlance start` from spawn to the first 200 of
 * /healthz, on a new data directory and then on that existing one. Medians of 5. Prints figures; asserts nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildService, freePort } from './bench-service.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/parlance.js');
const RUNS = 5;

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function wallTime(args: string[]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}`);
  return performance.now() - start;
}

/** Spawns `parlance start` on the data directory and resolves with the time to its first 200; then stops it with SIGTERM. */
async function startToFirst200(dataDir: string): Promise<number> {
  const port = await freePort();
  const start = performance.now();
  const child = spawn(process.execPath, [BIN, 'start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PARLANCE_DATA_DIR: dataDir, PARLANCE_HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`parlance start exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.status === 200, () => false);
      if (ok) return performance.now() - start;
      if (performance.now() - start > 60_000) throw new Error('parlance start gave no 200 within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

buildService();

const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`.padStart(9);
const times = (args: string[]) => median(Array.from({ length: RUNS }, () => wallTime(args)));
console.log(`\nstart-up of the built parlance command, median of ${RUNS} (Node ${process.versions.node})`);
console.log(`  node -e 0 (the floor)                   ${fmt(times(['-e', '0']))}`);
console.log(`  parlance --help                         ${fmt(times([BIN, '--help']))}`);
console.log(`  parlance --version                      ${fmt(times([BIN, '--version']))}`);

const dataDir = mkdtempSync(join(tmpdir(), 'parlance-bench-startup-'));
try {
  console.log(`  parlance start to first 200, new data directory       ${fmt(await startToFirst200(dataDir))}`);
  const again: number[] = [];
  for (let i = 0; i < RUNS; i++) again.push(await startToFirst200(dataDir));
  console.log(`  parlance start to first 200, existing data directory  ${fmt(median(again))}   (runs: ${again.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s)`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
