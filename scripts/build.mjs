// Compiles the `parlance` command (the service in server/, the user CLI and the client in src/) into build/ for Node:
// ESM bundled by esbuild from server/cli/main.ts, split at every dynamic import so `parlance --help` and `parlance push`
// load a few small files and never the service, with the packages left to node_modules and linked source maps.
// Tests, benchmarks, the console's sources (server/web/public is their committed build) and the Action (dist/) are not
// part of it. Files the code reads at run time are not copied: server/asset-path.ts finds them from the package root.
//
// Only files whose bytes changed are written, each by a rename, and the entry last, so a build while another process
// runs build/ (a test run, a service) never shows it a half-written file; files of an older build are then removed.
// Run by `npm run build`, by `npm install` and `npm pack` in a clone (prepare), and before the tests (test/global-setup.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = join(root, 'build');
const entry = join(outDir, 'parlance.js');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // A clone installed with --omit=dev has no esbuild; it can still run a build made before (prepare runs on that install too).
  const built = existsSync(entry);
  console.error(built ? 'esbuild is not installed (a dev dependency): keeping the existing build/.' : 'Cannot build: esbuild is not installed. Run `npm install` with dev dependencies, then `npm run build`.');
  process.exit(built ? 0 : 1);
}

/** The CLI and the MCP server read package.json for their version alone; the bundle gets that field, not the manifest. */
const versionOnly = {
  name: 'package-version-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]package\.json$/ }, (args) => ({ contents: JSON.stringify({ version: JSON.parse(readFileSync(args.path, 'utf8')).version }), loader: 'json' }));
  },
};

const started = performance.now();
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { parlance: 'server/cli/main.ts' },
  outdir: outDir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  sourcemap: 'linked',
  // Stack traces need the mappings only; the sources are in the repository, not in the package.
  sourcesContent: false,
  tsconfig: 'tsconfig.json',
  plugins: [versionOnly],
  write: false,
  logLevel: 'warning',
});

const outputs = result.outputFiles.sort((a, b) => (a.path === entry ? 1 : b.path === entry ? -1 : a.path.localeCompare(b.path)));
let written = 0;
for (const file of outputs) {
  if (sameBytes(file.path, file.contents)) continue;
  mkdirSync(dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
  written += 1;
}
const produced = new Set(outputs.map((file) => file.path));
let removed = 0;
for (const path of filesUnder(outDir)) {
  if (produced.has(path) || writtenByAnotherBuild(path)) continue;
  rmSync(path, { force: true });
  removed += 1;
}

const bytes = outputs.reduce((sum, file) => sum + (file.path.endsWith('.map') ? 0 : file.contents.length), 0);
const code = outputs.filter((file) => file.path.endsWith('.js')).length;
// On stderr: npm runs this inside `npm pack --json` (prepare), whose stdout must stay one JSON document.
if (!process.argv.includes('--quiet')) {
  console.error(`build/: ${code} files, ${(bytes / 1024).toFixed(0)} KiB of JavaScript (+ source maps), ${written} written, ${removed} removed, in ${Math.round(performance.now() - started)} ms`);
}

function sameBytes(path, contents) {
  try {
    return Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).equals(readFileSync(path));
  } catch {
    return false;
  }
}

/** A file another build is writing at this moment (its temporary file, named with its process id); one of a build that died is removed. */
function writtenByAnotherBuild(path) {
  const pid = Number(/\.(\d+)\.tmp$/.exec(path)?.[1]);
  if (!pid || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function filesUnder(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries.filter((dirent) => dirent.isFile()).map((dirent) => join(dirent.parentPath ?? dirent.path, dirent.name));
}
