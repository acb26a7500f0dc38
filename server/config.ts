/** The one environment schema: every setting the service reads, validated once at start-up. */
import { resolve } from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

export const envSchema = z.object({
  PARLANCE_HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(8787),
  PARLANCE_DATA_DIR: z.string().min(1).default('./.parlance'),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z.string().regex(/^postgres(ql)?:\/\//, "expected a URL such as 'postgres://user@127.0.0.1:5432/parlance'").optional(),
  ),
  DATABASE_SCHEMA: z.preprocess(emptyAsUndefined, z.string().regex(/^[a-z_][a-z0-9_]*$/, 'expected a lower-case SQL identifier').optional()),
  REDIS_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^rediss?:\/\//, "expected a URL such as 'redis://127.0.0.1:6379'").optional()),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]+$/, 'expected letters, digits, colons, dashes or underscores').default('parlance'),
  PARLANCE_PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(60),
  MAX_UPLOAD_BYTES: positiveInt.default(20 * 1024 * 1024),
  WORKER_CONCURRENCY: positiveInt.default(2),
  BATCH_CHUNK_ROWS: positiveInt.default(500),
  LEASE_SECONDS: positiveInt.default(30),
  SWEEP_INTERVAL_MS: positiveInt.default(5000),
  TRANSLATION_PROVIDER: z.enum(['pseudo', 'openai']).default('pseudo'),
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_CAREFUL_MODEL: z.preprocess(emptyAsUndefined, z.string().optional()),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  PARLANCE_DEMO: z.enum(['true', 'false']).default('true'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  publicUrl: string | undefined;
  database: { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string; schema: string | undefined };
  redis: { url: string; prefix: string } | undefined;
  rateLimitPerMinute: number;
  maxUploadBytes: number;
  worker: { concurrency: number; chunkRows: number; leaseSeconds: number; sweepIntervalMs: number };
  provider:
    | { kind: 'pseudo' }
    | { kind: 'openai'; baseUrl: string; apiKey: string | undefined; model: string; carefulModel: string | undefined };
  logLevel: Env['LOG_LEVEL'];
  demo: boolean;
}

/** A bad setting: names the variable, the value and what was expected, and stops start-up. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const value = env[name];
        return `${name}=${value === undefined ? '(unset)' : `'${value}'`}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  return {
    host: e.PARLANCE_HOST,
    port: e.PORT,
    dataDir: resolve(e.PARLANCE_DATA_DIR),
    publicUrl: e.PARLANCE_PUBLIC_URL,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
      : { kind: 'pglite', dataDir: resolve(e.PARLANCE_DATA_DIR, 'db') },
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : undefined,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      chunkRows: e.BATCH_CHUNK_ROWS,
      leaseSeconds: e.LEASE_SECONDS,
      sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    },
    provider:
      e.TRANSLATION_PROVIDER === 'openai'
        ? { kind: 'openai', baseUrl: e.OPENAI_BASE_URL, apiKey: e.OPENAI_API_KEY, model: e.OPENAI_MODEL, carefulModel: e.OPENAI_CAREFUL_MODEL }
        : { kind: 'pseudo' },
    logLevel: e.LOG_LEVEL,
    demo: e.PARLANCE_DEMO === 'true',
  };
}
