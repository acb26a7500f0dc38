/**
 * Starts the real service for a test on the backend CI selects: the embedded default (PGlite in memory,
 * in-process queue) or PostgreSQL + Redis (PARLANCE_TEST_BACKEND=postgres), each test file in its own
 * schema and Redis prefix so files can run in parallel.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../server/config.js';
import { createLogger } from '../../server/logger.js';
import { createRuntime, type Roles, type Runtime } from '../../server/runtime.js';
import type { Ability } from '../../server/services/tokens/token-fns.js';
import type { Resolver } from '../../server/net/address-guard.js';
import { copyMigratedDataDir } from './pglite-snapshot.js';

export const BACKEND = process.env.PARLANCE_TEST_BACKEND === 'postgres' ? 'postgres' : 'embedded';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestService {
  url: string;
  runtime: Runtime;
  config: Config;
  env: Record<string, string>;
  /** A token of the seeded Starter project with all five abilities. */
  token: string;
  projectId: string;
  organisationId: string;
  mintToken(options?: { abilities?: Ability[]; projectId?: string; expiresAt?: Date; kind?: 'api' | 'session' }): Promise<string>;
  api(path: string, init?: RequestInit & { token?: string | null; json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * Environment for a service (in-process or spawned) on the selected backend, isolated from other test files.
 * `migrated`: on the embedded backend, the data directory starts with a copy of the migrated database, so a spawned
 * `parlance` process skips initdb and the migrations; a test of the first start on an empty directory leaves it out.
 */
export function backendEnv(extra: Record<string, string> = {}, options: { migrated?: boolean } = {}): Record<string, string> {
  const id = randomBytes(4).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'parlance-test-'));
  const template = BACKEND === 'embedded' && options.migrated && process.env.VITEST ? inject('pgliteDataDir') : undefined;
  if (template !== undefined) copyMigratedDataDir(template, extra.PARLANCE_DATA_DIR ?? dataDir);
  return {
    PARLANCE_HOST: '127.0.0.1',
    PORT: '0',
    PARLANCE_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LEASE_SECONDS: '2',
    SWEEP_INTERVAL_MS: '300',
    PARLANCE_DEMO: 'false',
    // Every wire-level stand-in (platforms, CMSes, s3rver, receivers) listens on 127.0.0.1; outbound tests turn this off.
    OUTBOUND_ALLOW_PRIVATE_ADDRESSES: 'true',
    ...(BACKEND === 'postgres'
      ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: `t_${id}`, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test-${id}` }
      : {}),
    ...extra,
  };
}

/** The service's log level in tests: silent unless TEST_LOG_LEVEL (e.g. 'warn') asks to see what a failing test's service said. */
const testLogLevel = () => (process.env.TEST_LOG_LEVEL ?? 'silent') as Parameters<typeof createLogger>[0];

let snapshot: Promise<Blob> | undefined;
/**
 * The migrated embedded database (test/global-setup.ts), read once per test file. Outside vitest (the HTTP fuzzer
 * starts its service here too) there is none to inject, and the service migrates an empty database.
 */
function migratedSnapshot(): Promise<Blob> | undefined {
  const path = process.env.VITEST ? inject('pgliteSnapshot') : undefined;
  return path === undefined ? undefined : (snapshot ??= readFile(path).then((bytes) => new Blob([bytes])));
}

export async function startService(options: { env?: Record<string, string>; roles?: Roles; memory?: boolean; resolver?: Resolver } = {}): Promise<TestService> {
  const env = backendEnv(options.env);
  const config = loadConfig(env);
  // In memory, the database starts migrated (the migrations still run, and find nothing to do); on disk, from initdb.
  const inMemory = config.database.kind === 'pglite' && options.memory !== false;
  if (inMemory) config.database = { kind: 'pglite', dataDir: undefined };
  const databaseSnapshot = inMemory ? await migratedSnapshot() : undefined;
  const runtime = await createRuntime(config, {
    roles: options.roles ?? { api: true, worker: true },
    log: createLogger(testLogLevel()),
    ...(options.resolver ? { resolver: options.resolver } : {}),
    ...(databaseSnapshot ? { databaseSnapshot } : {}),
  });
  const { url } = await runtime.start();
  const org = await runtime.organisations.createOrganisation({ name: 'Acme', plan: 'starter' });
  const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Web', sourceLocale: 'en', targetLocales: ['de', 'fr', 'ja'] });
  const { secret } = await runtime.tokens.mint({ projectId: project.id, name: 'test', abilities: ['push', 'pull', 'read', 'write', 'manage'] });
  // The test and the service share one event loop, which the embedded database holds for each statement: after a
  // block longer than the service's keep-alive (65 s; Node's 5 s before), the test's next request could go out on a
  // connection the service was closing (ECONNRESET). This side drops an idle connection after 1 s as well.
  const client = new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });

  const service: TestService = {
    url: url!,
    runtime,
    config,
    env,
    token: secret,
    projectId: project.id,
    organisationId: org.id,
    async mintToken(o = {}) {
      const minted = await runtime.tokens.mint({
        projectId: o.projectId ?? project.id,
        name: 'extra',
        ...(o.abilities ? { abilities: o.abilities } : {}),
        ...(o.expiresAt ? { expiresAt: o.expiresAt } : {}),
        ...(o.kind ? { kind: o.kind } : {}),
      });
      return minted.secret;
    },
    async api(path, init = {}) {
      const { token, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      const bearer = token === undefined ? secret : token;
      if (bearer !== null) headers.set('authorization', `Bearer ${bearer}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${url}${path}`, { ...rest, headers, dispatcher: client, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
    },
    async stop() {
      await runtime.stop();
      // Not close(): that waits for every response body, and some tests leave one unread (an MCP stream, a 4xx).
      await client.destroy();
      await dropBackend(env);
    },
  };
  return service;
}

/** Removes what a test created on the shared PostgreSQL and Redis, and its temporary data directory. */
export async function dropBackend(env: Record<string, string>) {
  if (env.DATABASE_SCHEMA) {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists "${env.DATABASE_SCHEMA}" cascade`);
    await client.end();
  }
  if (env.REDIS_PREFIX && env.REDIS_URL) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(env.REDIS_URL);
    const keys = await redis.keys(`${env.REDIS_PREFIX}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
  if (env.PARLANCE_DATA_DIR) rmSync(env.PARLANCE_DATA_DIR, { recursive: true, force: true });
}

/** Waits for a batch to reach a final status: the service holds each answer up to 5 s (`wait`) and gives it when the batch ends. */
export async function waitForBatch(service: Pick<TestService, 'api'>, batchId: string, token?: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wait = Math.max(0, Math.min(5, Math.floor((deadline - Date.now()) / 1000)));
    const res = await service.api(`/v1/batches/${batchId}?limit=500&wait=${wait}`, token ? { token } : {});
    const body = (await res.json()) as BatchBody;
    if (!res.ok) throw new Error(`batch ${batchId}: ${res.status} ${JSON.stringify(body)}`);
    if (['completed', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`batch ${batchId} still ${body.status} after ${timeoutMs} ms: ${JSON.stringify(body.rows)}`);
    if (wait === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface BatchBody {
  id: string;
  status: string;
  format: string | null;
  keys: { added: number; changed: number; unchanged: number; removed: number };
  rows: { total: number; queued: number; done: number; failed: number; cancelled: number; outcomes: Record<string, number> };
  words: { reserved: number; spent: number; refunded: number };
  rate: { rows_per_minute: number | null; eta_seconds: number | null };
  error: string | null;
  row_outcomes: { items: BatchRowBody[]; next_cursor: string | null };
}

export interface BatchRowBody {
  key: string;
  locale: string;
  status: string;
  outcome: string;
  reason: string | null;
  attempts: number;
  words: number;
  pass: 'fast' | 'careful';
  gate_outcome: 'passed' | 'corrected' | 'flagged' | 'refused' | null;
  gate_failures: { gate: string; reason: string; attempt: number }[];
  corrective_retries: number;
  provider: string | null;
}

export function filePush(content: string | Uint8Array, fields: Record<string, string>, name = 'en.json'): FormData {
  const form = new FormData();
  form.set('file', new Blob([typeof content === 'string' ? new TextEncoder().encode(content) : content]), name);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}
