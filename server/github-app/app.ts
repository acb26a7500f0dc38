/** The Parlance GitHub App: Probot wiring for GitHub's events and the receiver for Parlance's own (signed) events; the work lives in ./handlers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Probot, ProbotOctokit } from 'probot';
import { z } from 'zod';
import { createClient, type ParlanceClient } from '../../src/client/client.js';
import type { Db } from '../db/database.js';
import type { Logger, LogLevel } from '../logger.js';
import { eventSchema } from '../webhooks/events.js';
import { verifyWebhook, WebhookVerificationError } from '../webhooks/signing.js';
import { CHECK_RUN_NAME } from './check-run.js';
import { createDeliveryJobs, type ResumableDelivery } from './deliveries.js';
import { createAppMemory } from './handlers/app-memory.js';
import { handleBatchCompleted } from './handlers/batch-completed.js';
import { handleCheckRerun } from './handlers/check-rerun.js';
import { handlePush, ownPushReason, pushedBranchRole } from './handlers/push.js';
import { splitRepository } from './handlers/repository.js';
import type { GithubLink, LinksService } from './links.js';
import type { GitHubClient } from './translation-pr.js';

/** Where Probot serves GitHub's webhooks, as in Probot's own server. */
export const GITHUB_WEBHOOKS_PATH = '/api/github/webhooks';
/** A Parlance delivery older or newer than this is refused as a possible replay. */
const EVENT_TOLERANCE_SECONDS = 300;
/** GitHub caps webhook payloads at 25 MB. */
const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;
/**
 * GitHub's events (and actions) the App acts on; any other delivery, such as the `check_run.created` that each of the
 * App's own check runs causes, is acknowledged without being recorded.
 */
const GITHUB_EVENTS: Readonly<Record<string, readonly string[] | null>> = { push: null, check_run: ['rerequested'], installation: ['deleted'], installation_repositories: ['removed'] };

function actionOf(payload: unknown): string | undefined {
  const action = typeof payload === 'object' && payload !== null ? (payload as { action?: unknown }).action : undefined;
  return typeof action === 'string' ? action : undefined;
}

function actsOn(name: string, action: string | undefined): boolean {
  if (!Object.hasOwn(GITHUB_EVENTS, name)) return false;
  const actions = GITHUB_EVENTS[name];
  return actions === null || (action !== undefined && actions!.includes(action));
}

export interface GithubAppOptions {
  db: Db;
  links: Pick<LinksService, 'linksForRepository' | 'decryptToken' | 'decryptWebhookSecret' | 'disableForInstallation'>;
  /** The service's base URL (no /v1), which the App calls with each link's token. */
  serviceUrl: string;
  log: Logger;
  /** The level of Probot's own (pino) log lines. */
  logLevel?: LogLevel;
  appId: number | string;
  privateKey: string;
  /** Secret of GitHub's webhook deliveries to the App. */
  webhookSecret: string;
  Octokit?: typeof ProbotOctokit;
  /**
   * GitHub's REST API, e.g. `https://github.example.com/api/v3` for GitHub Enterprise Server (GITHUB_API_URL);
   * api.github.com when unset. The operator's setting, so not held to the outbound guard for user-supplied addresses.
   */
  githubApiUrl?: string;
  /** The App's bot login (`<slug>[bot]`); asked of GitHub (GET /app) when first needed if not given. */
  appLogin?: string;
  /** Replaces fetch for calls to the service (tests). */
  fetch?: typeof fetch;
  /** Waits before retrying a failed job (default 2 s, 15 s, 60 s); after the last, a redelivery runs it again. */
  jobRetryDelaysMs?: readonly number[];
}

/** A Parlance delivery as the HTTP layer hands it over: headers, the raw body exactly as signed, and the query. */
export interface ParlanceEventRequest {
  headers: Record<string, string | undefined>;
  body: string;
  query: Record<string, string | undefined>;
}

export interface ParlanceEventResponse {
  status: number;
  body: { ok: true; handled: string } | { error: string };
}

const Envelope = z.object({ type: z.string(), project: z.object({ id: z.string() }) }).loose();

/** What a delivery's row keeps to run its job again after a crash: the verified body, as received. */
const StoredDelivery = z.discriminatedUnion('source', [
  z.object({ source: z.literal('github'), id: z.string(), name: z.string(), body: z.string() }),
  z.object({ source: z.literal('parlance'), link: z.string(), body: z.string() }),
]);
type StoredDelivery = z.infer<typeof StoredDelivery>;

export async function createGithubApp(options: GithubAppOptions) {
  const { db, links, log } = options;
  const memory = createAppMemory();
  const jobs = createDeliveryJobs({ db, log, ...(options.jobRetryDelaysMs ? { retryDelaysMs: options.jobRetryDelaysMs } : {}) });
  const probot = new Probot({
    appId: options.appId,
    privateKey: options.privateKey,
    secret: options.webhookSecret,
    logLevel: probotLevel(options.logLevel ?? 'info'),
    ...(options.Octokit ? { Octokit: options.Octokit } : {}),
    ...(options.githubApiUrl ? { baseUrl: options.githubApiUrl } : {}),
  });
  let appLogin = options.appLogin;

  function clientFor(link: GithubLink): ParlanceClient {
    return createClient({ baseUrl: options.serviceUrl, token: links.decryptToken(link), userAgent: 'parlance-github-app', ...(options.fetch ? { fetch: options.fetch } : {}) });
  }

  async function installationOctokit(installationId: number): Promise<GitHubClient> {
    return (await probot.auth(installationId)) as unknown as GitHubClient;
  }

  /** The App's own login, for the loop guard: GitHub knows the slug, the configuration only the id. */
  async function ownLogin(): Promise<string> {
    if (appLogin) return appLogin;
    const octokit = await probot.auth();
    const { data } = await octokit.request('GET /app');
    if (!data?.slug) throw new Error('GET /app returned no slug; cannot tell the App\'s own pushes apart.');
    appLogin = `${data.slug}[bot]`;
    return appLogin;
  }

  /** A link by the id in the receiver URL, read straight from the table (the App has no project to scope it by yet). */
  async function findLink(id: string): Promise<GithubLink | undefined> {
    const row = await db.selectFrom('github_links').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { ...row, installation_id: Number(row.installation_id) } : undefined;
  }

  const appFn = (app: Probot) => {
    app.on('push', async (context) => {
      const { payload } = context;
      if (!payload.installation) return void context.log.warn('push without an installation: ignored');
      const branch = payload.ref.startsWith('refs/heads/') ? payload.ref.slice('refs/heads/'.length) : null;
      if (branch === null || payload.deleted) return;
      const linked = (await links.linksForRepository(payload.installation.id, payload.repository.full_name)).filter((l) => pushedBranchRole(l, branch) !== null);
      if (linked.length === 0) return;
      const facts = { ref: payload.ref, before: payload.before, after: payload.after, deleted: payload.deleted, sender: payload.sender ? { login: payload.sender.login, type: payload.sender.type } : null, commits: payload.commits };
      const own = ownPushReason(facts, facts.sender?.type === 'Bot' ? await ownLogin() : undefined);
      if (own) return void context.log.info(`push to ${payload.repository.full_name}@${branch} ignored: ${own}`);
      for (const link of linked) {
        await handlePush({ octokit: context.octokit as unknown as GitHubClient, client: clientFor(link), link, push: facts, memory, log });
      }
    });

    app.on('check_run.rerequested', async (context) => {
      const { check_run: run, repository, installation } = context.payload;
      if (run.name !== CHECK_RUN_NAME || !installation) return;
      if (!run.external_id) return void context.log.warn(`check run ${run.id} has no external_id: no batch to re-run`);
      const { owner, repo } = splitRepository(repository.full_name);
      for (const link of await links.linksForRepository(installation.id, repository.full_name)) {
        const client = clientFor(link);
        // The batch belongs to the project of one of the repository's links; the others answer 404.
        try {
          await client.batch(run.external_id);
        } catch (error) {
          if (error instanceof Error && 'status' in error && error.status === 404) continue;
          throw error;
        }
        await handleCheckRerun({ octokit: context.octokit as unknown as GitHubClient, client, owner, repo, headSha: run.head_sha, batchId: run.external_id, serviceUrl: options.serviceUrl });
        return;
      }
      context.log.warn(`check run ${run.id}: batch '${run.external_id}' belongs to no enabled link of ${repository.full_name}`);
    });

    app.on('installation.deleted', async (context) => {
      const account = context.payload.installation.account;
      const owner = account && 'login' in account ? account.login : (account?.slug ?? 'its account');
      const disabled = await links.disableForInstallation(context.payload.installation.id, `The GitHub App was uninstalled from ${owner}.`);
      log.info('installation deleted: links disabled', { installation: context.payload.installation.id, links: disabled.map((l) => l.id) });
    });

    app.on('installation_repositories.removed', async (context) => {
      const removed = context.payload.repositories_removed.map((r) => r.full_name);
      const disabled = await links.disableForInstallation(context.payload.installation.id, 'The GitHub App lost access to the repository.', removed);
      log.info('repositories removed from the installation: links disabled', { installation: context.payload.installation.id, repositories: removed, links: disabled.map((l) => l.id) });
    });
  };

  await probot.load(appFn);

  /**
   * GitHub's deliveries at GITHUB_WEBHOOKS_PATH: verified, recorded by `X-GitHub-Delivery` and answered at once; the
   * handlers above run afterwards as a job, so a slow push never outlasts GitHub's 10-second delivery timeout and a
   * redelivery of the same id does nothing twice. Anything else goes to `next`.
   */
  async function middleware(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== GITHUB_WEBHOOKS_PATH) return next();
    const answer = (status: number, body: unknown) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    try {
      await acknowledgeGithubDelivery(req, answer);
    } catch (error) {
      // Before the acknowledgement (reading the body, recording the delivery): GitHub shows the 500, and "Redeliver" works.
      log.error('GitHub delivery failed', { delivery: header(req, 'x-github-delivery'), event: header(req, 'x-github-event'), error });
      if (!res.headersSent) answer(500, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  async function acknowledgeGithubDelivery(req: IncomingMessage, answer: (status: number, body: unknown) => void): Promise<void> {
    if (req.method !== 'POST') return answer(405, { error: `${req.method} ${GITHUB_WEBHOOKS_PATH}: only POST is accepted.` });
    const name = header(req, 'x-github-event');
    const id = header(req, 'x-github-delivery');
    const signature = header(req, 'x-hub-signature-256');
    const missing = [!name && 'X-GitHub-Event', !id && 'X-GitHub-Delivery', !signature && 'X-Hub-Signature-256'].filter(Boolean);
    if (missing.length > 0) return answer(400, { error: `Not a GitHub delivery: missing ${missing.join(', ')}.` });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_WEBHOOK_BYTES) return answer(413, { error: `The delivery is over ${MAX_WEBHOOK_BYTES} bytes, GitHub's limit for webhook payloads.` });
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks).toString('utf8');
    // A malformed signature header makes verify throw; it is refused like a wrong one.
    if (!(await probot.webhooks.verify(body, signature!).catch(() => false))) return answer(401, { error: `Delivery ${id} refused: the signature does not match the App's webhook secret.` });
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return answer(400, { error: `Delivery ${id} is signed but not JSON.` });
    }
    const action = actionOf(payload);
    if (!actsOn(name!, action)) return answer(200, { ok: true, handled: `ignored: the App does not act on '${action ? `${name}.${action}` : name}'` });
    const stored: StoredDelivery = { source: 'github', id: id!, name: name!, body };
    const acceptance = await jobs.submit(`github:${id}`, name!, githubJob(id!, name!, payload), JSON.stringify(stored));
    answer(200, { ok: true, handled: acceptance.accepted ? `accepted: ${name} ${id}` : `ignored: ${acceptance.reason}` });
  }

  /** GitHub's event through Probot's handlers above. */
  function githubJob(id: string, name: string, payload: unknown): () => Promise<void> {
    return () => probot.receive({ id, name: name as never, payload: payload as never });
  }

  /** A batch.completed: the pull request of `link` synced with the batch. */
  function batchCompletedJob(delivery: string, link: GithubLink, batchId: string): () => Promise<void> {
    return async () => {
      const octokit = await installationOctokit(link.installation_id);
      const result = await handleBatchCompleted({ octokit, client: clientFor(link), link, batchId, serviceUrl: options.serviceUrl, memory });
      log.info('batch synced to GitHub', { delivery, link: link.id, batch: batchId, pr: result.sync.pr?.url, action: result.sync.action });
    };
  }

  /** A job cut off by a crash or restart, rebuilt from its row (verified when it was accepted); a string says why not. */
  async function rebuildJob(delivery: ResumableDelivery): Promise<(() => Promise<void>) | string> {
    const parsed = StoredDelivery.safeParse(JSON.parse(delivery.payload));
    if (!parsed.success) return `its stored payload is not one the App keeps: ${parsed.error.message}`;
    const stored = parsed.data;
    if (stored.source === 'github') return githubJob(stored.id, stored.name, JSON.parse(stored.body));
    const link = await findLink(stored.link);
    if (!link) return `link '${stored.link}' no longer exists`;
    if (!link.enabled) return `link '${link.id}' is disabled (${link.disabled_reason ?? 'no reason recorded'})`;
    const event = eventSchema('batch.completed').parse(JSON.parse(stored.body));
    return batchCompletedJob(delivery.id, link, event.data.batch.id);
  }

  /** POST /events?link=<id>: verifies the link's signature before anything else, then acts on the event. */
  async function handleParlanceEvent(request: ParlanceEventRequest): Promise<ParlanceEventResponse> {
    const linkId = request.query.link;
    if (!linkId) return { status: 400, body: { error: "Missing query parameter 'link': the receiver URL is GITHUB_APP_EVENTS_URL?link=<link id>." } };
    const link = await findLink(linkId);
    if (!link) return { status: 404, body: { error: `No GitHub link '${linkId}'.` } };
    try {
      verifyWebhook(links.decryptWebhookSecret(link), request.headers, request.body, { toleranceSeconds: EVENT_TOLERANCE_SECONDS });
    } catch (error) {
      if (error instanceof WebhookVerificationError) return { status: 401, body: { error: `Delivery for link '${linkId}' refused: ${error.message}` } };
      throw error;
    }
    // The service stops delivering to a disabled link's webhook; one already in flight is acknowledged and dropped.
    if (!link.enabled) return { status: 200, body: { ok: true, handled: `ignored: link '${link.id}' is disabled (${link.disabled_reason ?? 'no reason recorded'})` } };
    let raw: unknown;
    try {
      raw = JSON.parse(request.body);
    } catch {
      return { status: 400, body: { error: `The delivery for link '${linkId}' is signed but not JSON.` } };
    }
    const envelope = Envelope.safeParse(raw);
    if (!envelope.success) return { status: 400, body: { error: `The delivery is not a Parlance event: ${envelope.error.message}` } };
    if (envelope.data.project.id !== link.project_id) return { status: 400, body: { error: `The event is for project '${envelope.data.project.id}', but link '${link.id}' belongs to '${link.project_id}'.` } };

    switch (envelope.data.type) {
      case 'batch.completed': {
        const event = eventSchema('batch.completed').parse(raw);
        const batchId = event.data.batch.id;
        // The signature check above required it; the same id on every redelivery.
        const delivery = `parlance:${request.headers['webhook-id']!}`;
        const stored: StoredDelivery = { source: 'parlance', link: link.id, body: request.body };
        const acceptance = await jobs.submit(delivery, 'batch.completed', batchCompletedJob(delivery, link, batchId), JSON.stringify(stored));
        return { status: 200, body: { ok: true, handled: acceptance.accepted ? `batch ${batchId}: accepted, syncing the pull request` : `ignored: ${acceptance.reason}` } };
      }
      case 'source_drift.repaired': {
        const event = eventSchema('source_drift.repaired').parse(raw);
        // Not a list of hand edits: the service sends it for machine re-translations after a source change too, and for
        // the App's own imports, which the push handler already noted with their translation file's path.
        return { status: 200, body: { ok: true, handled: `ignored: ${event.data.count} repaired translations are not hand edits; the push that imported any noted them` } };
      }
      default:
        return { status: 200, body: { ok: true, handled: `ignored: the App does not act on '${envelope.data.type}'` } };
    }
  }

  // Jobs an earlier process accepted and did not finish (a crash, a restart mid-job) run again now, oldest first.
  let resumed: string[] = [];
  try {
    resumed = await jobs.resume(rebuildJob);
  } catch (error) {
    log.error('resuming GitHub App jobs cut off by a crash or restart failed; a redelivery runs them again', { error });
  }

  return {
    probot,
    handleParlanceEvent,
    /** The deliveries whose jobs this process took over at start from an earlier one. */
    resumed,
    middleware,
    memory,
    /** Resolves once every accepted delivery's job has finished (or failed for good). */
    idle: () => jobs.idle(),
    /** Stops retrying and waits for running jobs; call after the server stopped taking deliveries. */
    stop: () => jobs.stop(),
  };
}

export type GithubApp = Awaited<ReturnType<typeof createGithubApp>>;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Probot logs through pino, which has no 'silent'; 'fatal' is as quiet as it gets. */
function probotLevel(level: LogLevel): 'debug' | 'info' | 'warn' | 'error' | 'fatal' {
  return level === 'silent' ? 'fatal' : level;
}
