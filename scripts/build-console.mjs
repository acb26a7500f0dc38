// Bundles the web console (server/web/console) into server/web/public: console.js, console.css and index.html,
// minified and byte-for-byte the same on every build. `--check` rebuilds in memory and fails if the committed files differ.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const sourceDir = `${root}server/web/console/`;
const outDir = `${root}server/web/public/`;
const check = process.argv.includes('--check');

const shared = {
  bundle: true,
  minify: true,
  write: false,
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
  target: ['chrome111', 'edge111', 'firefox115', 'safari16.4'],
};

/**
 * The client reads package.json only for its version; the browser bundle gets that one field, not the whole manifest.
 * Any other Node import fails the build: the console must run in a browser.
 */
const browserOnly = {
  name: 'browser-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]package\.json$/ }, (args) => ({
      contents: JSON.stringify({ version: JSON.parse(readFileSync(args.path, 'utf8')).version }),
      loader: 'json',
    }));
    build.onResolve({ filter: /^node:/ }, (args) => ({
      errors: [{ text: `'${args.path}' imported by ${args.importer.slice(root.length)}: the console bundle must not depend on Node modules.` }],
    }));
  },
};

const js = await esbuild.build({
  ...shared,
  entryPoints: [`${sourceDir}main.tsx`],
  outfile: `${outDir}console.js`,
  format: 'esm',
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: `${root}server/web/tsconfig.json`,
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [browserOnly],
});
const css = await esbuild.build({ ...shared, entryPoints: [`${sourceDir}console.css`], outfile: `${outDir}console.css`, loader: { '.css': 'css' } });

const script = js.outputFiles[0].contents;
const styles = css.outputFiles[0].contents;
// The version in each asset URL changes with its bytes, so the assets can be cached for good and index.html never.
const version = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);
const html = readFileSync(`${sourceDir}index.html`, 'utf8')
  .replace('%CONSOLE_CSS%', `/console/console.css?v=${version(styles)}`)
  .replace('%CONSOLE_JS%', `/console/console.js?v=${version(script)}`);

const outputs = [
  ['console.js', script],
  ['console.css', styles],
  ['index.html', new TextEncoder().encode(html)],
];

if (check) {
  const stale = outputs.filter(([name, bytes]) => {
    try {
      return !Buffer.from(bytes).equals(readFileSync(`${outDir}${name}`));
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    console.error(`server/web/public is out of date (${stale.map(([name]) => name).join(', ')}): run npm run build:console and commit the result.`);
    process.exit(1);
  }
  console.log('server/web/public is up to date.');
} else {
  mkdirSync(outDir, { recursive: true });
  for (const [name, bytes] of outputs) writeFileSync(`${outDir}${name}`, bytes);
  console.log(outputs.map(([name, bytes]) => `server/web/public/${name}  ${(bytes.length / 1024).toFixed(1)} KiB`).join('\n'));
}
