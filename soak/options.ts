/** The soak's settings, read once from the environment. */
import { z } from 'zod';

const schema = z.object({
  SOAK_SECONDS: z.coerce.number().int().min(20, 'expected at least 20 seconds').default(600),
  SOAK_SEED: z.coerce.number().int().min(0).default(1),
  SOAK_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "expected a URL such as 'postgres://postgres@127.0.0.1:5432/test'").default('postgres://postgres@127.0.0.1:5432/test'),
  SOAK_DRAIN_SECONDS: z.coerce.number().int().positive().default(120),
  SOAK_KEEP_SCHEMA: z.enum(['true', 'false']).default('false'),
});

export interface SoakOptions {
  seconds: number;
  seed: number;
  databaseUrl: string;
  /** The database the service runs in, for pg_stat_activity.datname. */
  databaseName: string;
  drainSeconds: number;
  keepSchema: boolean;
}

export function soakOptions(env: Record<string, string | undefined> = process.env): SoakOptions {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${String(issue.path[0])}='${env[String(issue.path[0])] ?? '(unset)'}': ${issue.message}`);
    throw new Error(`Invalid soak settings:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    seconds: e.SOAK_SECONDS,
    seed: e.SOAK_SEED,
    databaseUrl: e.SOAK_DATABASE_URL,
    databaseName: new URL(e.SOAK_DATABASE_URL).pathname.slice(1) || 'postgres',
    drainSeconds: e.SOAK_DRAIN_SECONDS,
    keepSchema: e.SOAK_KEEP_SCHEMA === 'true',
  };
}
