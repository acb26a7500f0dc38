#!/usr/bin/env node
// Entry point of the `parlance` command: loads the TypeScript sources through tsx and hands over to the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
