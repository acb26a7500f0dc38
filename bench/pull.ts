/**
 * Pull benchmark, end to end through the built `parlance` binary against `parlance start` (embedded, the default
 * 60-requests-per-minute limit): a repository of 4 source files × 15 target locales, synced once, then `parlance pull`
 * with nothing changed (one conditional request, answered 304) and with the state file removed (the whole archive,
 * every file compared), beside `node -e 0` and `parlance --version` (this machine's floor). Issue 29's target: the
 * unchanged pull under 3 s (it took 59 s with one request per file and locale). Medians of 5. Prints figures; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildService, sourceFile, withServiceProcess } from './bench-service.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/parlance.js');
const RUNS = 5;
const FILES = ['common', 'errors', 'checkout', 'settings'];
const KEYS_PER_FILE = 100;
const ADDED = ['es', 'it', 'pt-BR', 'nl', 'pl', 'sv', 'da', 'fi', 'nb', 'cs', 'ko', 'zh-Hans'];

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

buildService();

await withServiceProcess('embedded', { env: { RATE_LIMIT_PER_MINUTE: '60' }, abilities: ['push', 'pull', 'read', 'manage'] }, async (service) => {
  for (const tag of ADDED) {
    const res = await fetch(`${service.url}/v1/languages`, { method: 'POST', headers: { ...service.headers, 'content-type': 'application/json' }, body: JSON.stringify({ tag }) });
    if (!res.ok) throw new Error(`adding ${tag}: ${res.status} ${await res.text()}`);
  }
  const locales = ['de', 'fr', 'ja', ...ADDED];
  const repo = mkdtempSync(join(tmpdir(), 'parlance-bench-pull-'));
  try {
    mkdirSync(join(repo, 'locales/en'), { recursive: true });
    for (const name of FILES) writeFileSync(join(repo, `locales/en/${name}.json`), sourceFile(KEYS_PER_FILE).replaceAll('"screen', `"${name}.screen`));
    writeFileSync(join(repo, 'parlance.yml'), `locales: [${locales.join(', ')}]\nfiles:\n  - source: locales/en/*.json\n    translation: locales/{locale}/{name}.json\n`);
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PARLANCE_URL: service.url, PARLANCE_TOKEN: service.headers.authorization.slice('Bearer '.length) };
    const run = (args: string[], cwd = repo) => {
      const start = performance.now();
      const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
      return { ms: performance.now() - start, stdout: result.stdout };
    };

    const sync = run([BIN, 'sync', '--quiet']);
    const unchanged = median(Array.from({ length: RUNS }, () => run([BIN, 'pull']).ms));
    const full = median(
      Array.from({ length: RUNS }, () => {
        rmSync(join(repo, '.parlance'), { recursive: true, force: true });
        return run([BIN, 'pull']).ms;
      }),
    );
    const floor = median(Array.from({ length: RUNS }, () => run(['-e', '0'], ROOT).ms));
    const version = median(Array.from({ length: RUNS }, () => run([BIN, '--version'], ROOT).ms));
    const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`.padStart(9);
    console.log(`\npull through the parlance binary: ${FILES.length} source files × ${locales.length} locales (${FILES.length * locales.length} target files, ${KEYS_PER_FILE} keys each), median of ${RUNS} (Node ${process.versions.node})`);
    console.log(`  node -e 0 (the floor)                          ${fmt(floor)}`);
    console.log(`  parlance --version                             ${fmt(version)}`);
    console.log(`  first sync (push, translate, pull, write)      ${fmt(sync.ms)}  (once)`);
    console.log(`  pull, nothing changed (one request, 304)       ${fmt(unchanged)}  target < 3 s${unchanged < 3000 ? '' : '  MISSED'}`);
    console.log(`  pull without .parlance/state.json (full zip)   ${fmt(full)}`);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});
