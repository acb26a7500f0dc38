/**
 * The files that run in the embedded pass only (test/backend-free.ts) must be ones no backend can change: neither
 * they nor the test helpers they import start a service, spawn bin/parlance.js or reach a database or a queue.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { BACKEND_FREE, BOTH_BACKENDS_IN_ONE_PASS } from '../backend-free.js';

const ROOT = join(import.meta.dirname, '../..');

/** What a file needs a backend for: the service helpers, the runtime, the database, the queue, the binary. */
const BACKEND = /helpers\/service\.js|server\/runtime\.js|server\/db\/|server\/jobs\/|from '(pg|ioredis|bullmq|@electric-sql\/pglite)'|bin\/parlance|'parlance\.js'|process\.env\.PARLANCE_TEST_BACKEND/;

/** A file's code without its comments, which may name what the code does not use. */
const code = (path: string) => readFileSync(join(ROOT, path), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

function files(pattern: string): string[] {
  if (!pattern.endsWith('/**')) return [pattern];
  const dir = pattern.slice(0, -3);
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${dir}/${name}`);
}

/** The file and every test helper it imports, directly or through other helpers. */
function withHelpers(file: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const [, spec] of code(path).matchAll(/from '(\.[^']+)\.js'/g)) {
      const target = relative(ROOT, resolve(ROOT, dirname(path), `${spec}.ts`));
      if (target.startsWith('test/') && existsSync(join(ROOT, target))) visit(target);
    }
  };
  visit(file);
  return [...seen];
}

it('every backend-free pattern is a directory (/**) or a test file that exists', () => {
  for (const pattern of BACKEND_FREE) expect(pattern.endsWith('/**') || existsSync(join(ROOT, pattern)), pattern).toBe(true);
});

it('every file that reaches both backends in one pass exists and names both', () => {
  for (const file of BOTH_BACKENDS_IN_ONE_PASS) {
    expect(existsSync(join(ROOT, file)), file).toBe(true);
    expect(code(file), `${file} reaches PostgreSQL + Redis itself`).toMatch(/TEST_DATABASE_URL[\s\S]*TEST_REDIS_URL/);
  }
});

it('no backend-free file, nor a helper it imports, starts a service or reaches a database or a queue', () => {
  const offenders = BACKEND_FREE.flatMap(files).flatMap((file) =>
    withHelpers(file)
      .map((path) => ({ path, match: BACKEND.exec(code(path))?.[0] }))
      .filter(({ match }) => match !== undefined)
      .map(({ path, match }) => `${file}: ${path} mentions ${match}`),
  );
  expect(offenders).toEqual([]);
});
