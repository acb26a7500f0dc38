#!/usr/bin/env node
// Entry point of the `parlance` command: runs the compiled CLI in build/. `npm run build` makes it, and so do `npm install`
// and `npm pack` in a clone (prepare); the TypeScript sources and tsx are never loaded here.
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22.1 and later keep the compiled code of build/ and of the dependencies on disk, so later starts compile less
// (about 20% of `parlance --help`); on Node 20 there is no such cache.
module.enableCompileCache?.();

const entry = new URL('../build/parlance.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("parlance: build/parlance.js is missing. In a clone of the repository, run 'npm install' or 'npm run build'.\n");
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
