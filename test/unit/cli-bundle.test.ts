/**
 * The checks of scripts/build-cli.mjs, which keep the CLI package (packages/cli) free of the service: given an entry
 * that reaches server/ code, the service's packages and a native module (test/fixtures/cli-bundle/leaks.ts) in place of
 * the CLI's, the build refuses, naming each, and writes nothing. test/integration/cli-package.test.ts builds, packs
 * and runs the real CLI bundle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'parlance-cli-bundle-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('refuses a bundle that would carry the service, its packages or a native module, and writes nothing', () => {
  const outdir = join(scratch, 'dist');
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs', '--entry', 'test/fixtures/cli-bundle/leaks.ts', '--outdir', outdir], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(build.status, build.stderr).toBe(1);
  expect(build.stderr).toContain('build-cli: the CLI bundle would carry what it must not');
  expect(build.stderr).toMatch(/^ {2}service code \(server\/\): \d+, e\.g\. server\//m);
  for (const pkg of ['@electric-sql/pglite', 'probot', '@aws-sdk/client-s3', '@azure/storage-blob', '@node-rs/argon2']) {
    expect(build.stderr).toContain(`the service's package ${pkg}:`);
  }
  expect(build.stderr).toMatch(/^ {2}a native module: \d+, e\.g\. node_modules\/@node-rs\/.*\.node/m);
  expect(existsSync(outdir)).toBe(false);
}, 120_000);
