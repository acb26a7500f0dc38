/**
 * The test files whose outcome no backend can change: codecs, gates, CLI parsing and the other unit tests, and the
 * clients of outside services (translation providers, importers, storage, webhooks, GitHub) against wire-level mocks.
 * They start no service, spawn no bin/parlance.js and touch neither database nor queue, so they run once, in the
 * embedded pass; the PostgreSQL + Redis pass leaves them out (vitest.config.ts). test/unit/backend-free.test.ts
 * checks that they stay that way.
 */
export const BACKEND_FREE: readonly string[] = [
  'test/unit/**',
  'test/integration/github-app-body-limit.test.ts',
  'test/integration/github-engine.test.ts',
  'test/integration/import-crowdin.test.ts',
  'test/integration/import-lokalise.test.ts',
  'test/integration/import-phrase.test.ts',
  'test/integration/import-poeditor.test.ts',
  'test/integration/import-tolgee.test.ts',
  'test/integration/import-transifex.test.ts',
  'test/integration/provider-anthropic.test.ts',
  'test/integration/provider-deepl.test.ts',
  'test/integration/provider-libretranslate.test.ts',
  'test/integration/provider-openai.test.ts',
  'test/integration/storage-clients.test.ts',
  'test/integration/webhooks-send.test.ts',
];

/**
 * The test files that run once, in the embedded pass, and reach PostgreSQL + Redis themselves where the backend matters:
 * their costly set-up (installing the npm package) would otherwise run twice for one short test per backend. The
 * PostgreSQL + Redis pass leaves them out too (vitest.config.ts); CI starts both backends before the embedded pass.
 */
export const BOTH_BACKENDS_IN_ONE_PASS: readonly string[] = ['test/integration/package.test.ts'];
