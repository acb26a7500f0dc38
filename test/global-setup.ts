/**
 * Runs once before the test files: builds build/ from the sources as they are now, so every test that spawns
 * bin/parlance.js (the CLI, the service, the MCP server, the console) runs the compiled artefact of the current sources;
 * on the embedded backend, also provides the migrated database the services start from (in-process and spawned).
 * Unchanged files are not rewritten, so this costs about half a second and is safe beside a running build/.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { migratedDataDir, migratedSnapshot } from './helpers/pglite-snapshot.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite tarball (test/helpers/pglite-snapshot.ts); absent on PostgreSQL. */
    pgliteSnapshot: string | undefined;
    /** The migrated PGlite data directory, to copy for spawned services (test/helpers/pglite-snapshot.ts); absent on PostgreSQL. */
    pgliteDataDir: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url)), '--quiet'], { stdio: 'inherit' });
  // A source that does not compile fails the tests that import it; the others still run. CI builds in a step of its own.
  if (build.status !== 0) console.warn('npm run build failed (above): the tests that spawn bin/parlance.js run the previous build, if any.');
  const embedded = process.env.PARLANCE_TEST_BACKEND !== 'postgres';
  project.provide('pgliteSnapshot', embedded ? await migratedSnapshot() : undefined);
  project.provide('pgliteDataDir', embedded ? await migratedDataDir() : undefined);
}
