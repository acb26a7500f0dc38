// Bundles the CLI package (packages/cli, published as parlance-l10n) into packages/cli/dist/: the user commands of
// src/cli with the client, the codecs, the parlance.yml parser and the MCP server, from src/cli/package-main.ts, with
// every npm package they use inside the bundle, so the package installs with no dependencies, no install scripts and
// no native modules. The service (server/, run by `npx parlance-server start`) is not in it, and the build fails if
// any of its code or its packages (PGlite, Probot, the AWS and Azure SDKs, the database and queue clients) or a
// native module would be: esbuild's metafile lists every input, and every import the output leaves to Node must be
// a Node built-in.
//
// Split at every dynamic import, as build/ is, so `parlance --help` and `parlance push` do not load the MCP SDK.
// Only changed files are rewritten, each by a rename (see below). Run by `npm run build:cli` and by packages/cli's
// prepack, so `npm pack ./packages/cli` and `npm publish` always ship a fresh bundle; dist/ is not committed.
import { builtinModules } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const packageDir = join(root, 'packages/cli');
const quiet = process.argv.includes('--quiet');
/** `--entry <file> --outdir <dir>` build something else with the same checks: test/unit/cli-bundle.test.ts shows they refuse the service. */
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const entryPoint = option('--entry') ?? 'src/cli/package-main.ts';
const outDir = option('--outdir') ? resolve(option('--outdir')) : join(packageDir, 'dist');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.error('Cannot build the CLI package: esbuild is not installed (a dev dependency). Run `npm install` in the repository, then `npm run build:cli`.');
  process.exit(1);
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const cli = readJson(join(packageDir, 'package.json'));
const service = readJson(join(root, 'package.json'));
// The CLI speaks the /v1 API of the service released with it: one version for both packages.
if (cli.version !== service.version) {
  fail(`packages/cli/package.json has version ${cli.version} and package.json ${service.version}: the CLI and the service are released together, so give both the same version.`);
}

/** The CLI, the client and the MCP server read package.json for their version alone: the bundle gets the CLI package's, not the service's manifest. */
const cliVersion = {
  name: 'cli-package-version',
  setup(build) {
    build.onLoad({ filter: /[\\/]package\.json$/ }, () => ({ contents: JSON.stringify({ version: cli.version }), loader: 'json' }));
  },
};

/** Packages of the service that must never reach the CLI's bundle (with their own dependencies, which only they pull). */
const SERVICE_PACKAGES = [
  '@electric-sql/pglite', 'probot', '@probot/', '@octokit/', '@aws-sdk/', '@aws-crypto/', '@smithy/', '@azure/', '@node-rs/',
  'pg', 'pg-', 'ioredis', 'bullmq', 'kysely', 'nodemailer', '@hono/node-server', 'msgpackr', 'undici',
];

const started = performance.now();
let result;
try {
  result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { parlance: entryPoint },
    // A native module is left empty here so the checks below name it (with the rest), instead of esbuild's first error.
    loader: { '.node': 'empty' },
    outdir: outDir,
    write: false,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Bundled CommonJS packages may require() Node's built-ins, which ESM output has no require() for.
    banner: { js: "import { createRequire as __parlanceCreateRequire } from 'node:module'; const require = __parlanceCreateRequire(import.meta.url);" },
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    metafile: true,
    tsconfig: 'tsconfig.json',
    plugins: [cliVersion],
    logLevel: 'warning',
  });
} catch (error) {
  fail(`esbuild failed: ${error.message}`);
}

/** What must not be in the bundle, grouped by why (server/, a service package, a native module), with a file of each. */
const problems = new Map();
const refuse = (why, example) => {
  const known = problems.get(why) ?? { count: 0, examples: [] };
  known.count += 1;
  if (known.examples.length < 3) known.examples.push(example);
  problems.set(why, known);
};
for (const input of Object.keys(result.metafile.inputs)) {
  const path = input.replaceAll('\\', '/');
  if (path.startsWith('server/')) refuse('service code (server/)', path);
  if (path.endsWith('.node')) refuse('a native module', path);
  const pkg = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
  if (pkg && SERVICE_PACKAGES.some((name) => (name.endsWith('/') || name.endsWith('-') ? pkg.startsWith(name) : pkg === name))) refuse(`the service's package ${pkg}`, path);
}
const builtins = new Set(builtinModules);
for (const [output, { imports }] of Object.entries(result.metafile.outputs)) {
  for (const imported of imports) {
    if (!imported.external) continue;
    const name = imported.path.replace(/^node:/, '');
    if (!builtins.has(name) && !builtins.has(name.split('/')[0])) refuse('imports left to Node that are not built-ins (the package has no dependencies to provide them)', `'${imported.path}' in ${relative(outDir, join(root, output))}`);
  }
}
if (problems.size > 0) {
  const lines = [...problems].map(([why, { count, examples }]) => `${why}: ${count}, e.g. ${examples.join(', ')}`);
  fail(`the CLI bundle would carry what it must not; src/cli must reach none of it (check the imports that lead there with esbuild's metafile):\n  ${lines.join('\n  ')}`);
}

// The bundled packages' licences, as the Action's dist/licenses.txt holds its own: legal comments are not kept in the code.
const licences = [...new Set(Object.keys(result.metafile.inputs).map((path) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path.replaceAll('\\', '/'))?.[1]).filter(Boolean))]
  .sort()
  .map((dir) => {
    const manifest = readJson(join(root, dir, 'package.json'));
    const file = readdirSync(join(root, dir)).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
    if (!file) fail(`${dir} has no LICENSE file to ship with the bundle`);
    return `${manifest.name}@${manifest.version} (${manifest.license ?? 'see below'})\n\n${readFileSync(join(root, dir, file), 'utf8').trim()}\n`;
  });

// Only files whose bytes changed are written, each by a rename, and the entry last; then files of an older build are
// removed. Two builds at once (two test files packing the CLI) write the same bytes, so `npm pack` never reads a
// missing or half-written file.
const entryPath = join(outDir, 'parlance.js');
const files = [
  ...result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
  // The bundle's own package scope, so Node reads its files as ES modules even if the package's type were ever changed.
  { path: join(outDir, 'package.json'), contents: Buffer.from(`${JSON.stringify({ type: 'module' })}\n`) },
  { path: join(outDir, 'licenses.txt'), contents: Buffer.from(licences.join(`\n${'-'.repeat(80)}\n\n`)) },
].sort((a, b) => (a.path === entryPath ? 1 : b.path === entryPath ? -1 : a.path.localeCompare(b.path)));
for (const file of files) {
  if (sameBytes(file.path, file.contents)) continue;
  mkdirSync(dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
const produced = new Set(files.map((file) => file.path));
for (const path of filesUnder(outDir)) {
  if (!produced.has(path) && !writtenByAnotherBuild(path)) rmSync(path, { force: true });
}

if (!quiet) {
  const outputs = Object.entries(result.metafile.outputs);
  const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
  const entry = outputs.find(([path]) => path.endsWith('/parlance.js'))?.[1].bytes ?? 0;
  const packages = new Set(Object.keys(result.metafile.inputs).map((path) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1]).filter(Boolean));
  // On stderr: npm runs this inside `npm pack --json` (prepack), whose stdout must stay one JSON document.
  console.error(
    `${relative(root, outDir)}/: ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB (entry ${(entry / 1024).toFixed(0)} KiB), ` +
      `${Object.keys(result.metafile.inputs).length} inputs from ${packages.size} packages (${[...packages].sort().join(', ')}), in ${Math.round(performance.now() - started)} ms`,
  );
}
if (!existsSync(join(outDir, 'parlance.js'))) fail(`the build wrote no ${relative(root, join(outDir, 'parlance.js'))}`);

function fail(message) {
  console.error(`build-cli: ${message}`);
  process.exit(1);
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
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((dirent) => dirent.isFile())
      .map((dirent) => join(dirent.parentPath ?? dirent.path, dirent.name));
  } catch {
    return [];
  }
}
