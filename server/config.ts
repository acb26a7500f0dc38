/** The one environment schema: every setting the service reads, validated once at start-up. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../src/core/archive-limits.js';
import { parseSecretKey } from './github-app/crypto.js';
import { parseAllowPrivate, type AllowPrivate } from './net/address-guard.js';
import { planSettingsFromEnv, type PlanSettings } from './services/plans.js';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const httpUrl = z.url({ protocol: /^https?$/, error: "expected an http(s) URL such as 'http://localhost:5000'" });

export const PROVIDER_KINDS = ['pseudo', 'openai', 'anthropic', 'deepl', 'libretranslate'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
/** Machine-translation engines read no instructions, so they cannot run the careful pass. */
/** The machine-translation engines: they take no instructions, so they cannot run the careful pass or read a style guide. */
export const UNINSTRUCTABLE: ReadonlySet<ProviderKind> = new Set(['deepl', 'libretranslate']);

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
  MCP_ALLOWED_ORIGINS: z
    .string()
    .regex(/^\s*(https?:\/\/[^\s,/]+\s*(,\s*https?:\/\/[^\s,/]+\s*)*)?$/, "expected comma-separated origins such as 'https://agent.example.com,http://localhost:6274'")
    .default(''),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(60),
  MAX_UPLOAD_BYTES: positiveInt.default(20 * 1024 * 1024),
  MAX_INFLATED_BYTES: positiveInt.default(DEFAULT_ARCHIVE_LIMITS.maxInflatedBytes),
  MAX_ARCHIVE_ENTRIES: positiveInt.default(DEFAULT_ARCHIVE_LIMITS.maxEntries),
  MAX_JSON_BODY_BYTES: positiveInt.default(1024 * 1024),
  WORKER_CONCURRENCY: positiveInt.default(2),
  BATCH_CHUNK_ROWS: positiveInt.default(500),
  LEASE_SECONDS: positiveInt.default(30),
  ADMIN_WAIT_SECONDS: positiveInt.default(20),
  SWEEP_INTERVAL_MS: positiveInt.default(5000),
  TRANSLATION_PROVIDER: z.enum(PROVIDER_KINDS).default('pseudo'),
  CAREFUL_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(PROVIDER_KINDS).optional()),
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  OPENAI_API_KEY: optionalString,
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_CAREFUL_MODEL: optionalString,
  ANTHROPIC_BASE_URL: httpUrl.default('https://api.anthropic.com'),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_MODEL: z.string().min(1).default('claude-sonnet-4-5'),
  ANTHROPIC_CAREFUL_MODEL: optionalString,
  DEEPL_API_KEY: optionalString,
  DEEPL_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  LIBRETRANSLATE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  LIBRETRANSLATE_API_KEY: optionalString,
  PROVIDER_TIMEOUT_MS: positiveInt.default(60_000),
  PROVIDER_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  PROVIDER_BATCH_ROWS: positiveInt.default(40),
  PROVIDER_BATCH_TOKENS: positiveInt.default(3000),
  PROVIDER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  PROVIDER_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(64),
  PROVIDER_REQUESTS_PER_MINUTE: z.preprocess(emptyAsUndefined, positiveInt.optional()),
  PROVIDER_TOKENS_PER_MINUTE: z.preprocess(emptyAsUndefined, positiveInt.optional()),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  PARLANCE_DEMO: z.enum(['true', 'false']).default('true'),
  // Which non-public addresses requests to user-supplied URLs may reach: 'false' (default), 'true', or networks and hosts.
  OUTBOUND_ALLOW_PRIVATE_ADDRESSES: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .optional()
      .superRefine((value, ctx) => {
        if (value === undefined) return;
        try {
          parseAllowPrivate(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
        }
      }),
  ),
  // Aliases of OUTBOUND_ALLOW_PRIVATE_ADDRESSES from when webhooks and connectors had a switch each; 'true' in either allows all.
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\s*\d+(?:ms|s|m|h|d)\s*(?:,\s*\d+(?:ms|s|m|h|d)\s*)*$/, "expected comma-separated durations such as '5s,5m,30m,2h'")
    .default('5s,5m,30m,2h,5h,10h,14h,20h,24h'),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(15_000),
  WEBHOOK_CONCURRENCY: positiveInt.default(8),
  WEBHOOK_POLL_MS: positiveInt.default(500),
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().min(0).default(72),
  CDN_CACHE_TTL_MS: positiveInt.default(2_000),
  CDN_CACHE_MB: positiveInt.default(64),
  STORAGE_SYNC_RETRY_DELAYS: z
    .string()
    .regex(/^\s*\d+(?:ms|s|m|h|d)\s*(?:,\s*\d+(?:ms|s|m|h|d)\s*)*$/, "expected comma-separated durations such as '5s,30s,2m'")
    .default('5s,30s,2m,10m,30m,1h'),
  STORAGE_SYNC_TIMEOUT_MS: positiveInt.default(30_000),
  STORAGE_SYNC_POLL_MS: positiveInt.default(1_000),
  INTEGRATION_RETRY_DELAYS: z
    .string()
    .regex(/^\s*\d+(?:ms|s|m|h|d)\s*(?:,\s*\d+(?:ms|s|m|h|d)\s*)*$/, "expected comma-separated durations such as '10s,1m,5m'")
    .default('10s,1m,5m,15m,1h'),
  INTEGRATION_POLL_MS: positiveInt.default(1_000),
  INTEGRATION_ALLOW_PRIVATE_ADDRESSES: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  INTEGRATION_HTTP_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  INTEGRATION_HTTP_TIMEOUT_MS: positiveInt.default(30_000),
  // Checked by secretKeyFromEnv, not here: a schema issue would print the value, and this one must stay out of logs.
  PARLANCE_SECRET_KEY: optionalString,
  GITHUB_APP_EVENTS_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  GITHUB_APP_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^\d+$/, "expected the App's numeric id such as '123456'").optional()),
  // Checked by githubAppFromEnv, not here: like the secret key, the private key and webhook secret must stay out of logs.
  GITHUB_APP_PRIVATE_KEY: optionalString,
  GITHUB_APP_PRIVATE_KEY_PATH: optionalString,
  GITHUB_APP_WEBHOOK_SECRET: optionalString,
  GITHUB_APP_PORT: port.default(8788),
  // Checked by githubApiUrlFromEnv: the two ways of naming a GitHub Enterprise Server must agree.
  GITHUB_API_URL: optionalString,
  GHE_HOST: optionalString,
  GHE_PROTOCOL: optionalString,
  SESSION_TTL: z.string().regex(/^\s*\d+(?:ms|s|m|h|d)\s*$/, "expected a duration such as '12h'").default('12h'),
  CREDENTIAL_TTL: z.string().regex(/^\s*\d+(?:ms|s|m|h|d)\s*$/, "expected a duration such as '15m'").default('15m'),
  INVITATION_TTL: z.string().regex(/^\s*\d+(?:ms|s|m|h|d)\s*$/, "expected a duration such as '7d'").default('7d'),
  SIGN_IN_MAX_FAILURES: positiveInt.default(5),
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: positiveInt.default(20),
  SIGN_IN_WINDOW: z.string().regex(/^\s*\d+(?:ms|s|m|h|d)\s*$/, "expected a duration such as '15m'").default('15m'),
  PARLANCE_SIGNUP: z.enum(['open', 'invite']).default('open'),
  // Checked for form only: the URL may carry a password, which must stay out of logs.
  SMTP_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^smtps?:\/\//, "expected a URL such as 'smtp://user:pass@mail.example.com:587'").optional()),
  SMTP_FROM: z.string().min(3).default('Parlance <parlance@localhost>'),
  // Checked by planSettingsFromEnv: inline JSON or a JSON/YAML file of plans, on top of free, starter and unlimited.
  PARLANCE_PLANS: optionalString,
  PARLANCE_DEFAULT_PLAN: optionalString,
  PARLANCE_HOSTED: z.enum(['true', 'false']).default('false'),
});

export type Env = z.infer<typeof envSchema>;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s` → 90000; the schema has already checked the form. */
export function durationMs(text: string): number {
  const m = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(text);
  if (!m) throw new Error(`not a duration: '${text}'`);
  return Number(m[1]) * (UNIT_MS[m[2]!] ?? 1);
}

/** Per-request timeout and retry count, the same for every remote provider. */
export interface RemoteSettings {
  timeoutMs: number;
  maxRetries: number;
}

/**
 * How an LLM provider cuts rows into requests (rows and estimated prompt tokens per request) and how many it sends at
 * once: `concurrency` at first, adapting up to `maxConcurrency` and within the per-minute caps (adaptive-limit.ts).
 */
export interface BatchingSettings {
  batchRows: number;
  batchTokens: number;
  concurrency: number;
  maxConcurrency: number;
  requestsPerMinute: number | undefined;
  tokensPerMinute: number | undefined;
}

/** One translation provider and everything it needs; API keys live here and nowhere in logs. */
export type ProviderSettings =
  | { kind: 'pseudo' }
  | ({ kind: 'openai'; baseUrl: string; apiKey: string | undefined; model: string; carefulModel: string | undefined } & RemoteSettings & BatchingSettings)
  | ({ kind: 'anthropic'; baseUrl: string; apiKey: string; model: string; carefulModel: string | undefined } & RemoteSettings & BatchingSettings)
  /** `baseUrl` undefined: chosen from the key (Free keys end in ':fx'). */
  | ({ kind: 'deepl'; baseUrl: string | undefined; apiKey: string } & RemoteSettings)
  | ({ kind: 'libretranslate'; baseUrl: string; apiKey: string | undefined } & RemoteSettings);

/** The provider of each pass; the same settings twice when one provider does both. */
export interface ProvidersConfig {
  fast: ProviderSettings;
  careful: ProviderSettings;
}

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** ADMIN_WAIT_SECONDS: how long `parlance admin` waits for a process that holds the embedded database without taking admin commands. */
  adminWaitMs: number;
  publicUrl: string | undefined;
  /** MCP_ALLOWED_ORIGINS: browser origins, besides the service's own and localhost, allowed to call /mcp. */
  mcp: { allowedOrigins: string[] };
  database: { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string; schema: string | undefined };
  redis: { url: string; prefix: string } | undefined;
  rateLimitPerMinute: number;
  maxUploadBytes: number;
  /** MAX_INFLATED_BYTES and MAX_ARCHIVE_ENTRIES: what an uploaded archive (an .xlsx push, an import's export) may hold. */
  archiveLimits: ArchiveLimits;
  /** MAX_JSON_BODY_BYTES: the request-body limit of every route without one of its own (server/http/app.ts). */
  maxJsonBodyBytes: number;
  worker: { concurrency: number; chunkRows: number; leaseSeconds: number; sweepIntervalMs: number };
  providers: ProvidersConfig;
  /**
   * Every provider a project may choose (GET/PATCH /v1/project/translation): the two the operator chose, and each
   * other kind whose credentials are set (OPENAI_API_KEY, ANTHROPIC_API_KEY, DEEPL_API_KEY, LIBRETRANSLATE_URL), and pseudo.
   */
  providerCatalog: Partial<Record<ProviderKind, ProviderSettings>>;
  /**
   * The settings a project's own API key is used with (PATCH /v1/project/translation `own_keys`): the operator's base
   * URL, models and limits for each kind that takes a key, with the key left empty.
   */
  ownKeyTemplates: Record<OwnKeyKind, ProviderSettings>;
  logLevel: Env['LOG_LEVEL'];
  people: {
    sessionTtlMs: number;
    credentialTtlMs: number;
    invitationTtlMs: number;
    signInMaxFailuresPerAccount: number;
    signInMaxFailuresPerAddress: number;
    signInWindowMs: number;
    signup: 'open' | 'invite';
    smtp: { url: string; from: string } | undefined;
  };
  demo: boolean;
  /** OUTBOUND_ALLOW_PRIVATE_ADDRESSES (or its aliases): the non-public addresses requests to user-supplied URLs may reach. */
  outbound: { allowPrivate: AllowPrivate };
  webhooks: { retryDelaysMs: number[]; timeoutMs: number; concurrency: number; pollMs: number; disableAfterMs: number };
  /** The CDN route's cache (CDN_CACHE_TTL_MS, CDN_CACHE_MB) and storage syncs' retries, request timeout and poll. */
  delivery: { cdnCacheTtlMs: number; cdnCacheBytes: number; syncRetryDelaysMs: number[]; syncTimeoutMs: number; syncPollMs: number };
  integrations: { retryDelaysMs: number[]; pollMs: number; httpRetries: number; httpTimeoutMs: number };
  /** PARLANCE_SECRET_KEY: encrypts secrets kept at rest (the GitHub App's tokens); unset, features that need it answer 503. */
  secretKey: Buffer | undefined;
  /**
   * Where the service sends the GitHub App its events (unset: linking a repository answers 503), and the App itself:
   * `app` is set when GITHUB_APP_ID and a private key are, and `parlance start` then runs the App next to the service.
   */
  githubApp: {
    eventsUrl: string | undefined;
    port: number;
    app: { id: string; privateKey: string; webhookSecret: string } | undefined;
    /** GITHUB_API_URL (or GHE_HOST): the REST API the App calls, api.github.com or a GitHub Enterprise Server's `/api/v3`. */
    apiUrl: string;
  };
  /** PARLANCE_PLANS, PARLANCE_DEFAULT_PLAN and PARLANCE_HOSTED: the plans offered and how refusals advise. */
  plans: PlanSettings;
}

/** A bad setting: names the variable, the value and what was expected, and stops start-up. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** OUTBOUND_ALLOW_PRIVATE_ADDRESSES when set, else 'true' when either older name says so. */
function allowPrivateSetting(e: Env): string {
  if (e.OUTBOUND_ALLOW_PRIVATE_ADDRESSES !== undefined) return e.OUTBOUND_ALLOW_PRIVATE_ADDRESSES;
  return e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true' || e.INTEGRATION_ALLOW_PRIVATE_ADDRESSES === 'true' ? 'true' : 'false';
}

/** Why a provider kind is in use, naming the variables that chose it: "TRANSLATION_PROVIDER='deepl'". */
function chosenBy(e: Env, kind: ProviderKind): string {
  const names = (['TRANSLATION_PROVIDER', 'CAREFUL_PROVIDER'] as const).filter((name) => e[name] === kind);
  return names.map((name) => `${name}='${kind}'`).join(' and ');
}

/** The settings of one provider kind, or the problem that stops it (a required variable unset). */
function providerSettings(e: Env, kind: ProviderKind): { ok: true; settings: ProviderSettings } | { ok: false; problem: string } {
  const remote: RemoteSettings = { timeoutMs: e.PROVIDER_TIMEOUT_MS, maxRetries: e.PROVIDER_MAX_RETRIES };
  const batching: BatchingSettings = {
    batchRows: e.PROVIDER_BATCH_ROWS,
    batchTokens: e.PROVIDER_BATCH_TOKENS,
    // The starting point never above the ceiling.
    concurrency: Math.min(e.PROVIDER_CONCURRENCY, e.PROVIDER_MAX_CONCURRENCY),
    maxConcurrency: e.PROVIDER_MAX_CONCURRENCY,
    requestsPerMinute: e.PROVIDER_REQUESTS_PER_MINUTE,
    tokensPerMinute: e.PROVIDER_TOKENS_PER_MINUTE,
  };
  const missing = (name: string, expected: string) => ({ ok: false as const, problem: `${name}=(unset): required because ${chosenBy(e, kind)}; expected ${expected}` });
  switch (kind) {
    case 'pseudo':
      return { ok: true, settings: { kind } };
    case 'openai':
      return {
        ok: true,
        settings: { kind, baseUrl: e.OPENAI_BASE_URL, apiKey: e.OPENAI_API_KEY, model: e.OPENAI_MODEL, carefulModel: e.OPENAI_CAREFUL_MODEL, ...remote, ...batching },
      };
    case 'anthropic':
      if (!e.ANTHROPIC_API_KEY) return missing('ANTHROPIC_API_KEY', 'an Anthropic API key');
      return {
        ok: true,
        settings: { kind, baseUrl: e.ANTHROPIC_BASE_URL, apiKey: e.ANTHROPIC_API_KEY, model: e.ANTHROPIC_MODEL, carefulModel: e.ANTHROPIC_CAREFUL_MODEL, ...remote, ...batching },
      };
    case 'deepl':
      if (!e.DEEPL_API_KEY) return missing('DEEPL_API_KEY', "a DeepL API key (Free keys end in ':fx')");
      return { ok: true, settings: { kind, baseUrl: e.DEEPL_BASE_URL, apiKey: e.DEEPL_API_KEY, ...remote } };
    case 'libretranslate':
      if (!e.LIBRETRANSLATE_URL) return missing('LIBRETRANSLATE_URL', "the server's URL such as 'http://localhost:5000'");
      return { ok: true, settings: { kind, baseUrl: e.LIBRETRANSLATE_URL, apiKey: e.LIBRETRANSLATE_API_KEY, ...remote } };
    default: {
      const unknown: never = kind;
      throw new Error(`unknown translation provider: ${String(unknown)}`);
    }
  }
}

/**
 * The providers of both passes. An unset CAREFUL_PROVIDER means TRANSLATION_PROVIDER does both, even when that is an
 * MT engine (the runtime warns that careful keys then get its plain translation); asking for an MT engine on the
 * careful pass explicitly is a mistake worth stopping for.
 */
export function providersFromEnv(e: Env): { ok: true; providers: ProvidersConfig } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (e.CAREFUL_PROVIDER && UNINSTRUCTABLE.has(e.CAREFUL_PROVIDER)) {
    problems.push(
      `CAREFUL_PROVIDER='${e.CAREFUL_PROVIDER}': ${e.CAREFUL_PROVIDER} is a machine-translation engine that takes no instructions and cannot run the careful pass; expected one of 'openai', 'anthropic', 'pseudo', or unset to use TRANSLATION_PROVIDER`,
    );
  }
  const fast = providerSettings(e, e.TRANSLATION_PROVIDER);
  const careful = e.CAREFUL_PROVIDER && e.CAREFUL_PROVIDER !== e.TRANSLATION_PROVIDER ? providerSettings(e, e.CAREFUL_PROVIDER) : fast;
  if (!fast.ok) problems.push(fast.problem);
  if (!careful.ok && careful !== fast) problems.push(careful.problem);
  if (problems.length > 0 || !fast.ok || !careful.ok) return { ok: false, problems };
  return { ok: true, providers: { fast: fast.settings, careful: careful.settings } };
}

/** The providers a project may choose: the operator's two, every other kind with its credentials set, and pseudo. */
function providerCatalog(e: Env, chosen: ProvidersConfig): Partial<Record<ProviderKind, ProviderSettings>> {
  const catalog: Partial<Record<ProviderKind, ProviderSettings>> = { pseudo: { kind: 'pseudo' } };
  const credentialed: Record<ProviderKind, boolean> = {
    pseudo: true,
    openai: e.OPENAI_API_KEY !== undefined,
    anthropic: e.ANTHROPIC_API_KEY !== undefined,
    deepl: e.DEEPL_API_KEY !== undefined,
    libretranslate: e.LIBRETRANSLATE_URL !== undefined,
  };
  for (const kind of PROVIDER_KINDS) {
    if (!credentialed[kind]) continue;
    const settings = providerSettings(e, kind);
    if (settings.ok) catalog[kind] = settings.settings;
  }
  catalog[chosen.fast.kind] = chosen.fast;
  catalog[chosen.careful.kind] = chosen.careful;
  return catalog;
}

/** The provider kinds a project may bring its own API key for. */
export const OWN_KEY_KINDS = ['openai', 'anthropic', 'deepl'] as const;
export type OwnKeyKind = (typeof OWN_KEY_KINDS)[number];
/** A project's own API keys, by provider kind: used instead of the operator's for that kind's requests. */
export type OwnKeys = Partial<Record<OwnKeyKind, string>>;

function ownKeyTemplates(e: Env): Record<OwnKeyKind, ProviderSettings> {
  // The operator's settings of each kind with a stand-in key (these kinds fail only for a missing key).
  const withKey: Env = { ...e, OPENAI_API_KEY: 'own', ANTHROPIC_API_KEY: 'own', DEEPL_API_KEY: 'own' };
  const template = (kind: OwnKeyKind): ProviderSettings => {
    const made = providerSettings(withKey, kind);
    if (!made.ok) throw new Error(made.problem);
    return { ...made.settings, apiKey: '' } as ProviderSettings;
  };
  return { openai: template('openai'), anthropic: template('anthropic'), deepl: template('deepl') };
}

/** PARLANCE_SECRET_KEY decoded, or the problem that stops start-up; the message describes the value without quoting it. */
export function secretKeyFromEnv(text: string | undefined): { ok: true; key: Buffer | undefined } | { ok: false; problem: string } {
  if (text === undefined) return { ok: true, key: undefined };
  const parsed = parseSecretKey(text);
  return parsed.ok ? parsed : { ok: false, problem: `PARLANCE_SECRET_KEY=(hidden): ${parsed.problem}` };
}

/** The GitHub App's credentials, or the problem that stops start-up; messages name the variables, never their values. */
export function githubAppFromEnv(
  e: Pick<Env, 'GITHUB_APP_ID' | 'GITHUB_APP_PRIVATE_KEY' | 'GITHUB_APP_PRIVATE_KEY_PATH' | 'GITHUB_APP_WEBHOOK_SECRET'>,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): { ok: true; app: NonNullable<Config['githubApp']['app']> | undefined } | { ok: false; problems: string[] } {
  let privateKey = e.GITHUB_APP_PRIVATE_KEY;
  if (privateKey === undefined && e.GITHUB_APP_PRIVATE_KEY_PATH !== undefined) {
    try {
      privateKey = readFile(e.GITHUB_APP_PRIVATE_KEY_PATH);
    } catch (error) {
      return { ok: false, problems: [`GITHUB_APP_PRIVATE_KEY_PATH='${e.GITHUB_APP_PRIVATE_KEY_PATH}': cannot read it (${(error as Error).message}); expected the PEM file GitHub gave for the App`] };
    }
  }
  if (e.GITHUB_APP_ID === undefined && privateKey === undefined) return { ok: true, app: undefined };
  const problems: string[] = [];
  if (e.GITHUB_APP_ID === undefined) problems.push("GITHUB_APP_ID=(unset): required because a private key is set; expected the App's numeric id");
  // Env files often carry a PEM on one line with literal \n.
  const pem = privateKey?.replace(/\\n/g, '\n');
  if (pem === undefined) problems.push('GITHUB_APP_PRIVATE_KEY=(unset): required because GITHUB_APP_ID is set; expected the PEM text, or set GITHUB_APP_PRIVATE_KEY_PATH to the .pem file');
  else if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(pem)) problems.push("GITHUB_APP_PRIVATE_KEY=(hidden): not a PEM private key; expected text starting '-----BEGIN RSA PRIVATE KEY-----'");
  if (e.GITHUB_APP_WEBHOOK_SECRET === undefined) problems.push("GITHUB_APP_WEBHOOK_SECRET=(unset): required when the App is enabled; expected the webhook secret set in the App's settings");
  if (problems.length > 0 || e.GITHUB_APP_ID === undefined || pem === undefined || e.GITHUB_APP_WEBHOOK_SECRET === undefined) return { ok: false, problems };
  return { ok: true, app: { id: e.GITHUB_APP_ID, privateKey: pem, webhookSecret: e.GITHUB_APP_WEBHOOK_SECRET } };
}

export const GITHUB_DOT_COM_API = 'https://api.github.com';
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The GitHub REST API base URL: GITHUB_API_URL, else Probot's GHE_HOST (with GHE_PROTOCOL) as `<protocol>://<host>/api/v3`,
 * else api.github.com. It must be https; plain http only to this machine (a test stand-in or a local TLS-terminating
 * proxy), since the App sends its private-key-signed JWTs and installation tokens there.
 */
export function githubApiUrlFromEnv(e: Pick<Env, 'GITHUB_API_URL' | 'GHE_HOST' | 'GHE_PROTOCOL'>): { ok: true; url: string } | { ok: false; problem: string } {
  const expected = "expected an https URL such as 'https://github.example.com/api/v3'";
  let fromHost: string | undefined;
  if (e.GHE_HOST !== undefined) {
    const protocol = e.GHE_PROTOCOL ?? 'https';
    if (protocol !== 'https' && protocol !== 'http') return { ok: false, problem: `GHE_PROTOCOL='${protocol}': expected 'https' (or 'http' for a server on this machine)` };
    if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:]+\](:\d{1,5})?$/.test(e.GHE_HOST)) {
      return { ok: false, problem: `GHE_HOST='${e.GHE_HOST}': expected the server's host name such as 'github.example.com', without a scheme or path` };
    }
    fromHost = `${protocol}://${e.GHE_HOST}/api/v3`;
  }
  const name = e.GITHUB_API_URL !== undefined ? 'GITHUB_API_URL' : 'GHE_HOST';
  const text = e.GITHUB_API_URL ?? fromHost;
  if (text === undefined) return { ok: true, url: GITHUB_DOT_COM_API };
  const shown = name === 'GITHUB_API_URL' ? text : e.GHE_HOST;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `${name}='${shown}': not a URL; ${expected}` };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return { ok: false, problem: `${name}='${shown}': ${url.protocol.slice(0, -1)} is not allowed (the App sends its credentials there; plain http only to 127.0.0.1, [::1] or localhost); ${expected}` };
  }
  if (url.username || url.password || url.search || url.hash) return { ok: false, problem: `${name}='${shown}': must not carry credentials, a query or a fragment; ${expected}` };
  const normalised = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (fromHost !== undefined && e.GITHUB_API_URL !== undefined) {
    const other = new URL(fromHost);
    if (`${other.origin}${other.pathname}` !== normalised) {
      return { ok: false, problem: `GITHUB_API_URL='${e.GITHUB_API_URL}' and GHE_HOST='${e.GHE_HOST}' name different servers (GHE_HOST means '${fromHost}'); set only GITHUB_API_URL` };
    }
  }
  return { ok: true, url: normalised };
}

/** Variables whose values may carry a password: an error names them but never prints them. */
const HIDDEN_VALUES: ReadonlySet<string> = new Set(['SMTP_URL']);

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const value = env[name];
        const shown = value === undefined ? '(unset)' : HIDDEN_VALUES.has(name) ? '(hidden)' : `'${value}'`;
        return `${name}=${shown}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const providers = providersFromEnv(e);
  if (!providers.ok) throw new ConfigError(providers.problems);
  const secretKey = secretKeyFromEnv(e.PARLANCE_SECRET_KEY);
  if (!secretKey.ok) throw new ConfigError([secretKey.problem]);
  const githubApp = githubAppFromEnv(e);
  if (!githubApp.ok) throw new ConfigError(githubApp.problems);
  const githubApiUrl = githubApiUrlFromEnv(e);
  if (!githubApiUrl.ok) throw new ConfigError([githubApiUrl.problem]);
  const plans = planSettingsFromEnv(e);
  if (!plans.ok) throw new ConfigError(plans.problems);
  return {
    host: e.PARLANCE_HOST,
    port: e.PORT,
    dataDir: resolve(e.PARLANCE_DATA_DIR),
    adminWaitMs: e.ADMIN_WAIT_SECONDS * 1000,
    publicUrl: e.PARLANCE_PUBLIC_URL,
    mcp: { allowedOrigins: e.MCP_ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean) },
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
      : { kind: 'pglite', dataDir: resolve(e.PARLANCE_DATA_DIR, 'db') },
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : undefined,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    archiveLimits: { maxInflatedBytes: e.MAX_INFLATED_BYTES, maxEntries: e.MAX_ARCHIVE_ENTRIES },
    maxJsonBodyBytes: e.MAX_JSON_BODY_BYTES,
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      chunkRows: e.BATCH_CHUNK_ROWS,
      leaseSeconds: e.LEASE_SECONDS,
      sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    },
    providers: providers.providers,
    providerCatalog: providerCatalog(e, providers.providers),
    ownKeyTemplates: ownKeyTemplates(e),
    logLevel: e.LOG_LEVEL,
    people: {
      sessionTtlMs: durationMs(e.SESSION_TTL),
      credentialTtlMs: durationMs(e.CREDENTIAL_TTL),
      invitationTtlMs: durationMs(e.INVITATION_TTL),
      signInMaxFailuresPerAccount: e.SIGN_IN_MAX_FAILURES,
      signInMaxFailuresPerAddress: e.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
      signInWindowMs: durationMs(e.SIGN_IN_WINDOW),
      signup: e.PARLANCE_SIGNUP,
      smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM } : undefined,
    },
    demo: e.PARLANCE_DEMO === 'true',
    outbound: { allowPrivate: parseAllowPrivate(allowPrivateSetting(e)) },
    webhooks: {
      retryDelaysMs: e.WEBHOOK_RETRY_DELAYS.split(',').map(durationMs),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      pollMs: e.WEBHOOK_POLL_MS,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
    },
    delivery: {
      cdnCacheTtlMs: e.CDN_CACHE_TTL_MS,
      cdnCacheBytes: e.CDN_CACHE_MB * 1024 * 1024,
      syncRetryDelaysMs: e.STORAGE_SYNC_RETRY_DELAYS.split(',').map(durationMs),
      syncTimeoutMs: e.STORAGE_SYNC_TIMEOUT_MS,
      syncPollMs: e.STORAGE_SYNC_POLL_MS,
    },
    integrations: {
      retryDelaysMs: e.INTEGRATION_RETRY_DELAYS.split(',').map(durationMs),
      pollMs: e.INTEGRATION_POLL_MS,
      httpRetries: e.INTEGRATION_HTTP_RETRIES,
      httpTimeoutMs: e.INTEGRATION_HTTP_TIMEOUT_MS,
    },
    secretKey: secretKey.key,
    githubApp: { eventsUrl: e.GITHUB_APP_EVENTS_URL, port: e.GITHUB_APP_PORT, app: githubApp.app, apiUrl: githubApiUrl.url },
    plans: plans.settings,
  };
}
