/** What the HTTP layer needs from the rest of the service, and the variables middleware sets per request. */
import type { ArchiveLimits } from '../../src/core/archive-limits.js';
import type { ProviderKind } from '../config.js';
import type { Db } from '../db/database.js';
import type { LinksService } from '../github-app/links.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import type { RateLimiter, RateLimitResult } from '../rate-limit/rate-limiter.js';
import type { BatchService } from '../services/batches/batch-service.js';
import type { IdempotencyStore } from '../services/idempotency.js';
import type { LanguagesService } from '../services/languages-service.js';
import type { PullService } from '../services/pull-service.js';
import type { PushService } from '../services/push-service.js';
import type { AuthContext, TokenService } from '../services/tokens/token-service.js';
import type { GlossaryService } from '../services/quality/glossary-service.js';
import type { MemoryService } from '../services/quality/memory-service.js';
import type { QaService } from '../services/quality/qa-service.js';
import type { TranslationsService } from '../services/quality/translations-service.js';
import type { WebhooksService } from '../webhooks/webhooks-service.js';
import type { KeyStatesService } from '../services/key-states-service.js';
import type { AccountService } from '../services/people/account-service.js';
import type { MembersService } from '../services/people/members-service.js';
import type { ReleasesService } from '../delivery/releases-service.js';
import type { StorageTargetsService } from '../delivery/storage/storage-targets-service.js';
import type { ImportService } from '../imports/import-service.js';
import type { ConnectionsService } from '../integrations/connections-service.js';

export interface AppDeps {
  db: Db;
  queue: JobQueue;
  log: Logger;
  limiter: RateLimiter;
  tokens: TokenService;
  batches: BatchService;
  push: PushService;
  pull: PullService;
  languages: LanguagesService;
  idempotency: IdempotencyStore;
  glossary: GlossaryService;
  translations: TranslationsService;
  qa: QaService;
  memory: MemoryService;
  webhooks: WebhooksService;
  githubLinks: LinksService;
  maxUploadBytes: number;
  /** MAX_INFLATED_BYTES and MAX_ARCHIVE_ENTRIES, for a pushed .xlsx. */
  archiveLimits: Readonly<ArchiveLimits>;
  /** MAX_JSON_BODY_BYTES: the body limit of every route without one of its own. */
  maxJsonBodyBytes: number;
  account: AccountService;
  keyStates: KeyStatesService;
  members: MembersService;
  releases: ReleasesService;
  storageTargets: StorageTargetsService;
  imports: ImportService;
  connections: ConnectionsService;
  /** PARLANCE_PUBLIC_URL: the service's address as browsers see it (invitation links, the CSRF origin check). */
  publicUrl: string | undefined;
  /** The providers a project may choose (config.providerCatalog) and the operator's choice per pass. */
  translationProviders: {
    catalog: ReadonlySet<ProviderKind>;
    defaults: { fast: { provider: ProviderKind; model: string | null }; careful: { provider: ProviderKind; model: string | null } };
    /** PARLANCE_SECRET_KEY, which seals a project's own provider keys; unset, setting one answers 503. */
    secretKey: Uint8Array | undefined;
  };
}

export interface AppEnv {
  Variables: {
    auth: AuthContext;
    rateLimit: RateLimitResult | undefined;
  };
}
