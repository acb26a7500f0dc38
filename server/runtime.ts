/** Wires the service together from the configuration: database, queue, rate limiter, services, HTTP and workers. */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Redis } from 'ioredis';
import type { Config, ProviderKind } from './config.js';
import { migrate, openDatabase, type Db } from './db/database.js';
import { acquireDataDirLock, type DataDirLock } from './db/data-dir-lock.js';
import { createApp } from './http/app.js';
import { createBullQueue, createEmbeddedQueue, type JobQueue } from './jobs/queue.js';
import { createLinksService } from './github-app/links.js';
import type { GithubAppServer } from './github-app/server.js';
import { createLogger, type Logger } from './logger.js';
import { createProviderRegistry, createProviders, defaultChoice } from './providers/index.js';
import { sharedLimits } from './providers/shared-limit.js';
import type { TranslationProvider } from './providers/provider.js';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './rate-limit/rate-limiter.js';
import { createBatchRunner, type Providers } from './services/batches/batch-runner.js';
import { createBatchService } from './services/batches/batch-service.js';
import { createIdempotencyStore } from './services/idempotency.js';
import { createLanguagesService } from './services/languages-service.js';
import { createOrganisationService } from './services/organisations.js';
import { usePlanSettings } from './services/plans.js';
import { createPullService } from './services/pull-service.js';
import { createPushService } from './services/push-service.js';
import { createTokenService } from './services/tokens/token-service.js';
import { createAccountService } from './services/people/account-service.js';
import { createMembersService } from './services/people/members-service.js';
import { createSmtpMailer } from './services/people/mailer.js';
import { createKeyStatesService } from './services/key-states-service.js';
import { ApiError } from './errors.js';
import { createGlossaryService } from './services/quality/glossary-service.js';
import { createMemoryService } from './services/quality/memory-service.js';
import { createQaService } from './services/quality/qa-service.js';
import { createTranslationsService } from './services/quality/translations-service.js';
import { createDispatcher, type Dispatcher } from './webhooks/dispatcher.js';
import { createWebhooksService } from './webhooks/webhooks-service.js';
import { createReleasesService } from './delivery/releases-service.js';
import { createCdnStore } from './delivery/cdn-store.js';
import { createStorageTargetsService } from './delivery/storage/storage-targets-service.js';
import { createStorageSync, type StorageSync } from './delivery/storage/storage-sync.js';
import { createImportService } from './imports/import-service.js';
import { platformReader } from './imports/readers.js';
import { createConnectionsService } from './integrations/connections-service.js';
import { createSyncEngine, type SyncEngine } from './integrations/sync-engine.js';
import { createOutbound } from './net/outbound.js';
import type { Resolver } from './net/address-guard.js';

/** How long an idle client connection stays open: longer than a load balancer's idle timeout (60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** While stopping, how often connections that finished their answer are closed. */
const CLOSE_SWEEP_MS = 50;

export interface Roles {
  api: boolean;
  worker: boolean;
}

export interface RuntimeOptions {
  roles: Roles;
  log?: Logger;
  /** Replaces the configured provider of both passes (tests use a scripted one). */
  provider?: TranslationProvider;
  /** Replaces the configured provider of one pass. */
  providers?: Partial<Providers>;
  /** The DNS resolver for requests to user-supplied addresses (tests give one whose answers change between lookups). */
  resolver?: Resolver;
  /** What an embedded database in memory starts from (tests pass one already migrated); see openDatabase. */
  databaseSnapshot?: Blob;
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>;

/** How long a shared limit's lease lives: the provider's request timeout and 10 s. */
function providerLeaseMs(config: Config): number {
  const remote = [config.providers.fast, config.providers.careful].map((p) => ('timeoutMs' in p ? p.timeoutMs : 60_000));
  return Math.max(...remote) + 10_000;
}

export async function createRuntime(config: Config, options: RuntimeOptions) {
  const log = options.log ?? createLogger(config.logLevel);
  // The plans are process-wide (server/services/plans.ts says why); the runtime of this process installs them.
  usePlanSettings(config.plans);
  if (config.database.kind === 'pglite' && !(options.roles.api && options.roles.worker)) {
    throw new Error('Separate API and worker processes need a shared database and queue: set DATABASE_URL and REDIS_URL, or run `parlance start` for one process.');
  }
  if (!config.redis && !(options.roles.api && options.roles.worker)) {
    throw new Error('Separate API and worker processes need REDIS_URL for the job queue; without it, run `parlance start` (API and workers in one process).');
  }

  let lock: DataDirLock | undefined;
  if (config.database.kind === 'pglite' && config.database.dataDir) lock = acquireDataDirLock(config.dataDir);
  let db: Db;
  try {
    db = await openDatabase(config.database, { onIdleError: (error) => log.warn('idle database connection lost', { error }), snapshot: options.databaseSnapshot });
    await migrate(db);
  } catch (error) {
    lock?.release();
    throw error;
  }

  let redis: Redis | undefined;
  let limiter: RateLimiter;
  if (config.redis) {
    const { Redis: RedisClient } = await import('ioredis');
    // Fail fast while Redis is away (the request gets a 503) and reconnect by itself when it is back.
    redis = new RedisClient(config.redis.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.on('error', (error) => log.warn('redis (rate limiter) connection error', { error }));
    const inner = createRedisRateLimiter(redis, config.rateLimitPerMinute, config.redis.prefix);
    limiter = {
      async hit(key, now) {
        try {
          return await inner.hit(key, now);
        } catch {
          throw new ApiError(503, 'rate_limiter_unavailable', 'The rate limiter (Redis) is unreachable; retry in a few seconds.', {}, { 'Retry-After': '2' });
        }
      },
    };
  } else {
    limiter = createMemoryRateLimiter(config.rateLimitPerMinute);
  }

  const onJobError = (error: unknown, batchId: string) => log.error('batch job failed', { batch: batchId, error });
  const queue: JobQueue = config.redis
    ? await createBullQueue({ redisUrl: config.redis.url, prefix: config.redis.prefix, concurrency: config.worker.concurrency, onError: onJobError })
    : createEmbeddedQueue({ concurrency: config.worker.concurrency, onError: onJobError });

  // On Redis, every worker shares one limit of requests in flight per provider and model (shared-limit.ts); a lease
  // outlives a request by its timeout and a margin, so a worker that dies mid-request frees its places.
  const limits = redis && config.redis ? sharedLimits(redis, config.redis.prefix, providerLeaseMs(config)) : undefined;
  const configured = options.provider || (options.providers?.fast && options.providers.careful) ? undefined : createProviders(config.providers, log, limits);
  const providers: Providers = {
    fast: options.providers?.fast ?? options.provider ?? configured!.fast,
    careful: options.providers?.careful ?? options.provider ?? configured!.careful,
  };
  const tokens = createTokenService({ db });
  const batches = createBatchService({ db, queue, leaseSeconds: config.worker.leaseSeconds });
  const organisations = createOrganisationService({ db });
  const outbound = createOutbound({ allowPrivate: config.outbound.allowPrivate, maxResponseBytes: config.archiveLimits.maxInflatedBytes, ...(options.resolver ? { resolver: options.resolver } : {}) });
  const webhooks = createWebhooksService({ db, log, delivery: { ...config.webhooks, outbound }, resolve: outbound.resolve });
  const account = createAccountService({ db, tokens, organisations, settings: config.people });
  const mailer = config.people.smtp ? createSmtpMailer({ smtpUrl: config.people.smtp.url, from: config.people.smtp.from }) : undefined;
  const members = createMembersService({ db, log, mailer, secretKey: config.secretKey, invitationTtlMs: config.people.invitationTtlMs });
  const githubLinks = createLinksService({ db, tokens, webhooks, appEventsUrl: config.githubApp.eventsUrl, secretKey: config.secretKey });
  const pull = createPullService({ db, archiveLimits: config.archiveLimits });
  const releases = createReleasesService({ db, pull, log });
  const cdn = createCdnStore({ db }, { ttlMs: config.delivery.cdnCacheTtlMs, maxBytes: config.delivery.cdnCacheBytes });
  // Syncs are claimed by the worker; a release queued in this process is taken at once, not at the next poll.
  let storageSync: StorageSync | undefined;
  const storageTargets = createStorageTargetsService({ db, secretKey: config.secretKey, outbound, onQueued: () => void storageSync?.tick() });
  releases.onPublished((release) => cdn.forgetProject(release.projectId));
  releases.onPublished(async (release) => void (await storageTargets.enqueueRelease(release.projectId, release.id)));
  releases.onRotated((old) => cdn.forgetBundle(old));
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let syncEngine: SyncEngine | undefined;
  let listeningUrl: string | undefined;
  const publicUrl = () => config.publicUrl ?? listeningUrl ?? `http://${config.host}:${config.port}`;
  const connections = createConnectionsService({ db, secretKey: config.secretKey, publicUrl, onQueued: () => void syncEngine?.tick(), outbound });
  const imports = createImportService({ db, log, secretKey: config.secretKey, readers: platformReader, workerId, pollMs: config.delivery.syncPollMs, outbound, archiveLimits: config.archiveLimits });
  const deps = {
    db,
    queue,
    log,
    limiter,
    tokens,
    batches,
    // A batch that queued no rows (a push that only removed keys) completes at once and publishes like any other.
    push: createPushService({ db, queue, onCompleted: (batchId) => void releases.publishAfterBatch(batchId) }),
    pull,
    releases,
    cdn,
    storageTargets,
    imports,
    connections,
    languages: createLanguagesService({ db }),
    idempotency: createIdempotencyStore({ db }),
    glossary: createGlossaryService({ db }),
    translations: createTranslationsService({ db }),
    qa: createQaService({ db }),
    memory: createMemoryService({ db }),
    webhooks,
    githubLinks,
    maxUploadBytes: config.maxUploadBytes,
    archiveLimits: config.archiveLimits,
    maxJsonBodyBytes: config.maxJsonBodyBytes,
    account,
    members,
    keyStates: createKeyStatesService({ db }),
    publicUrl: config.publicUrl,
    translationProviders: {
      catalog: new Set(Object.keys(config.providerCatalog) as ProviderKind[]),
      defaults: { fast: defaultChoice(config.providers.fast, 'fast'), careful: defaultChoice(config.providers.careful, 'careful') },
      secretKey: config.secretKey,
    },
  };
  const app = createApp(deps, { mcpAllowedOrigins: config.mcp.allowedOrigins });
  const runner = createBatchRunner({
    db,
    providers,
    providerFor: createProviderRegistry(config, providers, log, limits),
    secretKey: config.secretKey,
    log,
    workerId,
    chunkRows: config.worker.chunkRows,
    leaseSeconds: config.worker.leaseSeconds,
    onSettled: (batchId) => {
      batches.settled(batchId);
      // A project that publishes after every batch gets its release once the batch's waiters have been told.
      void releases.publishAfterBatch(batchId);
      // A sync waiting for this batch writes back now rather than at the next poll.
      void syncEngine?.tick();
    },
  });

  const dispatcher: Dispatcher = createDispatcher({ db, log, workerId, ...config.webhooks, outbound });
  if (options.roles.worker) {
    storageSync = createStorageSync({ db, log, workerId, targets: storageTargets, outbound, retryDelaysMs: config.delivery.syncRetryDelaysMs, timeoutMs: config.delivery.syncTimeoutMs, pollMs: config.delivery.syncPollMs });
  }
  if (options.roles.worker) {
    const { retryDelaysMs, pollMs, httpRetries, httpTimeoutMs } = config.integrations;
    syncEngine = createSyncEngine({ db, log, workerId, connections, push: deps.push, pull, translations: deps.translations, publicUrl, retryDelaysMs, pollMs, httpRetries, httpTimeoutMs, outbound });
  }
  let server: Server | undefined;
  let githubApp: GithubAppServer | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let stopped = false;

  async function start(): Promise<{ url: string | undefined }> {
    if (options.roles.worker) {
      await queue.startWorker(runner.run);
      if (queue.kind === 'embedded') await dispatcher.releaseAll();
      dispatcher.start();
      if (queue.kind === 'embedded') await storageSync!.releaseAll();
      storageSync!.start();
      if (queue.kind === 'embedded') await imports.releaseAll();
      imports.start();
      if (queue.kind === 'embedded') await syncEngine!.releaseAll();
      syncEngine!.start();
      // A single process owns the embedded database, so every lease left behind is from a previous run.
      if (queue.kind === 'embedded') await batches.resumeAll();
      else await batches.sweep();
      sweeper = setInterval(() => {
        batches.sweep().catch((error: unknown) => log.warn('sweep failed', { error }));
      }, config.worker.sweepIntervalMs);
      sweeper.unref();
    }
    if (!options.roles.api) return { url: undefined };
    // A client (a load balancer, a proxy, a CLI's pooled connection) may send its next request on an idle connection
    // just as the service closes it, and gets ECONNRESET or a 502. Node closes after 5 s; load balancers keep idle
    // connections up to 60 s (AWS ALB), so the service outlasts them and closing is left to the client. The headers
    // timeout must exceed it (Node's rule).
    const listening = await new Promise<{ port: number }>((resolve) => {
      const listener = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => resolve(info)) as Server;
      listener.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      listener.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
      server = listener;
    });
    const url = `http://${config.host}:${listening.port}`;
    listeningUrl = url;
    // The App talks to the service only through /v1, so it starts once the API listens; it needs no worker of its own.
    if (config.githubApp.app) {
      const { startGithubAppServer } = await import('./github-app/server.js');
      const { id, privateKey, webhookSecret } = config.githubApp.app;
      githubApp = await startGithubAppServer({
        db, links: githubLinks, serviceUrl: url, log, logLevel: config.logLevel, appId: id, privateKey, webhookSecret,
        githubApiUrl: config.githubApp.apiUrl, host: config.host, port: config.githubApp.port,
      });
      log.info('GitHub App listening', { url: githubApp.url, github: config.githubApp.apiUrl });
    }
    return { url };
  }

  /** Graceful stop: no new requests, running batches finish their chunk and release their lease, connections close. */
  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    if (sweeper) clearInterval(sweeper);
    if (githubApp) await githubApp.close();
    if (server) {
      const listener = server;
      const closing = new Promise<void>((resolve) => listener.close(() => resolve()));
      // close() ends the connections idle now; one answering a request becomes idle when its answer is sent, and would
      // then stay open for the whole keep-alive (65 s). Ending idle connections until none is left closes each as
      // soon as its answer is out.
      listener.closeIdleConnections();
      const sweep = setInterval(() => listener.closeIdleConnections(), CLOSE_SWEEP_MS);
      await closing.finally(() => clearInterval(sweep));
    }
    await queue.close();
    await dispatcher.stop();
    await storageSync?.stop();
    await imports.stop();
    await syncEngine?.stop();
    if (redis) await redis.quit().catch(() => undefined);
    await db.destroy();
    lock?.release();
  }

  return { config, log, db, app, queue, tokens, organisations, account, batches, runner, githubLinks, releases, outbound, start, stop };
}
