#!/usr/bin/env node
// Entry point of the `parlance` command: runs the compiled CLI in build/. `npm run build` makes it, and so do `npm install`
// and `npm pack` in a clone (prepare); the TypeScript sources and tsx are never loaded here.
import { existsSync } from 'node:fs';
import module from 'node:module';
import v8 from 'node:v8';

// Node 22.1 and later keep the compiled code of build/ and of the dependencies on disk, so later starts compile less
// (about 20% of `parlance --help`); on Node 20 there is no such cache.
module.enableCompileCache?.();

// `parlance admin` opens the embedded database (PGlite, WebAssembly) for one command and exits: V8's optimising
// compiler would spend more CPU on PGlite's code than the command runs it (about 0.45 s of 1 s); its baseline compiler
// alone does the command in 60% of the CPU. Set before anything compiles the module. A service keeps both tiers.
if (process.argv[2] === 'admin') v8.setFlagsFromString('--liftoff-only');

const entry = new URL('../build/parlance.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("parlance: build/parlance.js is missing. In a clone of the repository, run 'npm install' or 'npm run build'.\n");
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
