#!/usr/bin/env node
// Entry point of the `parlance` command of the CLI package: runs the bundle in dist/, which scripts/build-cli.mjs
// makes from the repository's sources (`npm run build:cli`, and `npm pack` / `npm publish` of this package).
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22.1 and later keep the compiled bundle on disk, so later starts compile less; on Node 20 there is no such cache.
module.enableCompileCache?.();

const entry = new URL('../dist/parlance.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("parlance: dist/parlance.js is missing. In a clone of the Parlance repository, run 'npm run build:cli'.\n");
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
