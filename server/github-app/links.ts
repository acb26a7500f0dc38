/** Links between a GitHub App installation's repository and a project: the App's token and event subscription, kept encrypted at rest. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { GithubLinkRow } from '../db/schema.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { TokenService } from '../services/tokens/token-service.js';
import type { Ability } from '../services/tokens/token-fns.js';
import type { EventType } from '../webhooks/events.js';
import type { WebhooksService } from '../webhooks/webhooks-service.js';
import { openSecret, sealSecret, SECRET_KEY_HINT } from './crypto.js';

/**
 * The deploy abilities plus `write`: the App imports translations edited by hand in the repository as human
 * translations, which goes through the write API.
 */
export const APP_TOKEN_ABILITIES: readonly Ability[] = ['push', 'pull', 'read', 'write'];
/** What the App acts on: finished batches (open or update the pull request) and repaired drift (mention it there). */
export const APP_EVENTS: readonly EventType[] = ['batch.completed', 'source_drift.repaired'];

/** A link as the App reads it: the stored row with the installation id as a number. */
export type GithubLink = Omit<GithubLinkRow, 'installation_id'> & { installation_id: number };

export interface LinkInput {
  installationId: number;
  /** `owner/name`, already checked by the route. */
  repository: string;
  baseBranch: string;
  configPath: string;
}

/** What the API shows of a link: never the token or the webhook secret, only their ids. */
export function publicLink(link: GithubLink) {
  return {
    id: link.id,
    installation_id: link.installation_id,
    repository: link.repository,
    base_branch: link.base_branch,
    config_path: link.config_path,
    token_id: link.token_id,
    webhook_id: link.webhook_id,
    enabled: link.enabled,
    disabled_reason: link.disabled_reason,
    created_at: link.created_at.toISOString(),
    updated_at: link.updated_at.toISOString(),
  };
}

export type PublicGithubLink = ReturnType<typeof publicLink>;

/** The additional data each sealed column is bound to, so a ciphertext moved to another row or column does not open. */
const tokenContext = (id: string) => `github_links:${id}:token`;
const webhookSecretContext = (id: string) => `github_links:${id}:webhook_secret`;

/** The App's receiver with the link's id in the query, so the App knows which link (and secret) a delivery is for without trying each. */
export function receiverUrl(appEventsUrl: string, linkId: string): string {
  const url = new URL(appEventsUrl);
  url.searchParams.set('link', linkId);
  return url.href;
}

function toLink(row: GithubLinkRow): GithubLink {
  return { ...row, installation_id: Number(row.installation_id) };
}

/** `'acme/web' (branch 'main', installation 42)`: how messages name a link's target. */
function target(input: { repository: string; baseBranch: string; installationId: number }): string {
  return `'${input.repository}' (branch '${input.baseBranch}', installation ${input.installationId})`;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export function createLinksService(deps: {
  db: Db;
  tokens: Pick<TokenService, 'mint' | 'revoke'>;
  webhooks: Pick<WebhooksService, 'create' | 'update' | 'remove'>;
  appEventsUrl: string | undefined;
  secretKey: Uint8Array | undefined;
}) {
  const { db } = deps;

  function requireSecretKey(): Uint8Array {
    if (deps.secretKey) return deps.secretKey;
    throw new ApiError(
      503,
      'secret_key_missing',
      `The GitHub App's token and webhook secret are stored encrypted, and PARLANCE_SECRET_KEY is not set. The operator sets it to ${SECRET_KEY_HINT}, then restarts the service.`,
    );
  }

  function requireEventsUrl(): string {
    if (deps.appEventsUrl) return deps.appEventsUrl;
    throw new ApiError(
      503,
      'github_app_not_configured',
      "GITHUB_APP_EVENTS_URL is not set, so the service does not know where the GitHub App receives events. The operator sets it (for the App inside the service: 'http://127.0.0.1:8787/github-app/events'), then restarts the service.",
    );
  }

  async function load(projectId: string, id: string): Promise<GithubLink> {
    const row = await db.selectFrom('github_links').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('github_link_not_found', `No GitHub link '${id}' in this project.`);
    return toLink(row);
  }

  function duplicate(input: LinkInput, existing: { id: string; project_id: string; enabled: boolean; disabled_reason: string | null } | undefined, projectId: string): ApiError {
    if (!existing) return new ApiError(409, 'github_link_exists', `${target(input)} is already linked.`);
    if (existing.project_id !== projectId) {
      return new ApiError(409, 'github_link_exists', `${target(input)} is already linked to another project; one branch of a repository feeds one project.`);
    }
    const state = existing.enabled ? '' : ` (disabled: ${existing.disabled_reason ?? 'no reason recorded'})`;
    return new ApiError(409, 'github_link_exists', `${target(input)} is already linked to this project as ${existing.id}${state}; to link it again, unlink it first (DELETE /v1/integrations/github/${existing.id}).`, {
      link: existing.id,
    });
  }

  async function findTarget(input: LinkInput) {
    return db
      .selectFrom('github_links')
      .select(['id', 'project_id', 'enabled', 'disabled_reason'])
      .where('installation_id', '=', input.installationId)
      .where((eb) => eb(eb.fn('lower', ['repository']), '=', input.repository.toLowerCase()))
      .where('base_branch', '=', input.baseBranch)
      .executeTakeFirst();
  }

  /** Deletes a link's webhook; one the user already deleted through /v1/webhooks is fine. */
  async function removeWebhook(projectId: string, webhookId: string): Promise<void> {
    try {
      await deps.webhooks.remove(projectId, webhookId);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'webhook_not_found')) throw error;
    }
  }

  /**
   * Mints the App's token, subscribes the App's receiver to the project's events, and stores both secrets sealed.
   * A step that fails undoes the ones before it, so a refused link leaves no live token or subscription behind.
   */
  async function link(projectId: string, input: LinkInput): Promise<PublicGithubLink> {
    const key = requireSecretKey();
    const eventsUrl = requireEventsUrl();
    const existing = await findTarget(input);
    if (existing) throw duplicate(input, existing, projectId);

    const id = newId('ghl');
    const { token, secret } = await deps.tokens.mint({ projectId, name: `github-app ${input.repository}`, abilities: APP_TOKEN_ABILITIES });
    let webhook: Awaited<ReturnType<WebhooksService['create']>>;
    try {
      webhook = await deps.webhooks.create(projectId, {
        url: receiverUrl(eventsUrl, id),
        events: [...APP_EVENTS],
        description: `GitHub App: ${input.repository} (${input.baseBranch})`,
      });
    } catch (error) {
      await deps.tokens.revoke(projectId, token.id);
      throw error;
    }
    try {
      const row = await db
        .insertInto('github_links')
        .values({
          id,
          project_id: projectId,
          installation_id: input.installationId,
          repository: input.repository,
          base_branch: input.baseBranch,
          config_path: input.configPath,
          token_id: token.id,
          token_ciphertext: sealSecret(key, secret, tokenContext(id)),
          webhook_id: webhook.id,
          webhook_secret_ciphertext: sealSecret(key, webhook.secret, webhookSecretContext(id)),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return publicLink(toLink(row));
    } catch (error) {
      await deps.tokens.revoke(projectId, token.id);
      await removeWebhook(projectId, webhook.id);
      // Another request linked the same target between the check above and this insert.
      if (isUniqueViolation(error)) throw duplicate(input, await findTarget(input), projectId);
      throw error;
    }
  }

  async function list(projectId: string): Promise<PublicGithubLink[]> {
    const rows = await db.selectFrom('github_links').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').execute();
    return rows.map((row) => publicLink(toLink(row)));
  }

  async function get(projectId: string, id: string): Promise<PublicGithubLink> {
    return publicLink(await load(projectId, id));
  }

  /** Revokes the App's token, deletes its webhook and forgets the link; returns the link as it was. */
  async function unlink(projectId: string, id: string): Promise<PublicGithubLink> {
    const found = await load(projectId, id);
    await deps.tokens.revoke(projectId, found.token_id);
    if (found.webhook_id) await removeWebhook(projectId, found.webhook_id);
    await db.deleteFrom('github_links').where('id', '=', id).execute();
    return publicLink(found);
  }

  /**
   * Disables the enabled links of an installation (every one, or those of `repositories`) and their webhooks, when
   * the App is uninstalled or loses access to repositories. Their tokens stay until someone unlinks, so the record
   * of what was linked survives; the App skips disabled links.
   */
  async function disableForInstallation(installationId: number, reason: string, repositories?: readonly string[]): Promise<PublicGithubLink[]> {
    if (repositories?.length === 0) return [];
    let query = db
      .updateTable('github_links')
      .set({ enabled: false, disabled_reason: reason, updated_at: sql`now()` })
      .where('installation_id', '=', installationId)
      .where('enabled', '=', true);
    if (repositories) query = query.where((eb) => eb(eb.fn('lower', ['repository']), 'in', repositories.map((r) => r.toLowerCase())));
    const rows = (await query.returningAll().execute()).map(toLink);
    for (const row of rows) {
      if (!row.webhook_id) continue;
      try {
        await deps.webhooks.update(row.project_id, row.webhook_id, { enabled: false });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'webhook_not_found')) throw error;
      }
    }
    return rows.map(publicLink);
  }

  /** The enabled links of a project, with their sealed secrets, for the App to act on an event of that project. */
  async function linksForProject(projectId: string): Promise<GithubLink[]> {
    const rows = await db.selectFrom('github_links').selectAll().where('project_id', '=', projectId).where('enabled', '=', true).orderBy('id').execute();
    return rows.map(toLink);
  }

  /** The enabled links of one repository of an installation (one per base branch), for the App to act on a push. */
  async function linksForRepository(installationId: number, repository: string): Promise<GithubLink[]> {
    const rows = await db
      .selectFrom('github_links')
      .selectAll()
      .where('installation_id', '=', installationId)
      .where((eb) => eb(eb.fn('lower', ['repository']), '=', repository.toLowerCase()))
      .where('enabled', '=', true)
      .orderBy('id')
      .execute();
    return rows.map(toLink);
  }

  /** The project token the App calls /v1 with; throws SecretDecryptionError if the stored value was altered or the key changed. */
  function decryptToken(link: GithubLink): string {
    return openSecret(requireSecretKey(), link.token_ciphertext, tokenContext(link.id));
  }

  /** The secret that signs this link's deliveries, for the App to verify them. */
  function decryptWebhookSecret(link: GithubLink): string {
    return openSecret(requireSecretKey(), link.webhook_secret_ciphertext, webhookSecretContext(link.id));
  }

  return { link, list, get, unlink, disableForInstallation, linksForProject, linksForRepository, decryptToken, decryptWebhookSecret };
}

export type LinksService = ReturnType<typeof createLinksService>;
