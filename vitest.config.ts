import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BACKEND_FREE, BOTH_BACKENDS_IN_ONE_PASS } from './test/backend-free.js';

export default defineConfig({
  test: {
    // The PostgreSQL + Redis pass runs only the files whose outcome the backend can change; the others run once, embedded,
    // and so do the few that reach both backends themselves.
    exclude: [...configDefaults.exclude, ...(process.env.PARLANCE_TEST_BACKEND === 'postgres' ? [...BACKEND_FREE, ...BOTH_BACKENDS_IN_ONE_PASS] : [])],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // The files wait on I/O (HTTP, PGlite, PostgreSQL, spawned processes) for much of their time, so one more file at
    // a time than cores keeps the cores busy; vitest's own default (cores - 1) runs one at a time on two cores.
    maxWorkers: availableParallelism() + 1,
    // WebAssembly (PGlite) on V8's baseline compiler only: a test file's database lives for seconds, too short to repay
    // the optimising compiler, which cost about 2 s of CPU per file and made no file faster.
    execArgv: ['--liftoff-only'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // The unit files share one module graph per worker instead of loading it again for each file (about a fifth of
      // their time): they start no service, and what they set up they make per test. The others keep a process each,
      // since a service in the test's process sets process-wide state (the operator's plans, the logger, timers).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'] } },
    ],
  },
});
