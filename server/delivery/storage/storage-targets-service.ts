/** Storage targets of a project: S3-compatible buckets and Azure Blob containers that receive every release, with their credentials sealed at rest. */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { StorageSyncsTable, StorageTargetsTable } from '../../db/schema.js';
import { ApiError, notFound, validationFailed } from '../../errors.js';
import { openSecret, sealSecret, SECRET_KEY_HINT } from '../../github-app/crypto.js';
import { newId } from '../../ids.js';
import type { Outbound } from '../../net/outbound.js';
import { credentialsAccountUrl } from './azure-blob-client.js';
import type { AzureBlobCredentials, AzureBlobSettings, S3Credentials, S3Settings } from './storage-client.js';
import { credentialsHint, normalisePrefix, templateProblem } from './storage-fns.js';

export type TargetKind = 's3' | 'azure_blob';

/** What a request may set, parsed and typed at the route. */
export interface TargetFields {
  name: string;
  enabled: boolean;
  prefix: string;
  pathTemplate: string;
  filesTemplate: string | null;
  cacheControl: string | null;
}

export type TargetSpec =
  | (TargetFields & { kind: 's3'; s3: S3Settings; credentials: S3Credentials })
  | (TargetFields & { kind: 'azure_blob'; azureBlob: AzureBlobSettings; credentials: AzureBlobCredentials });

/** Settings a PATCH changes; null removes an optional one. */
export type S3SettingsPatch = { endpoint?: string | null; region?: string; bucket?: string; forcePathStyle?: boolean };
export type AzureBlobSettingsPatch = { container?: string; accountUrl?: string | null };

export type TargetPatch = Partial<TargetFields> & { s3?: S3SettingsPatch; azureBlob?: AzureBlobSettingsPatch; credentials?: S3Credentials | AzureBlobCredentials };

/** Stored settings with a patch applied: fields not in the patch keep their values, a null removes the field. */
function mergeSettings(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else if (value !== undefined) merged[name] = value;
  }
  return merged;
}

/** A target as the sync needs it: settings and credentials opened. */
export type OpenedTarget =
  | { id: string; projectId: string; kind: 's3'; settings: S3Settings; credentials: S3Credentials; prefix: string; pathTemplate: string; filesTemplate: string | null; cacheControl: string | null }
  | { id: string; projectId: string; kind: 'azure_blob'; settings: AzureBlobSettings; credentials: AzureBlobCredentials; prefix: string; pathTemplate: string; filesTemplate: string | null; cacheControl: string | null };

type TargetRow = Selectable<StorageTargetsTable>;

export function publicTarget(row: TargetRow) {
  const settings = row.settings;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    enabled: row.enabled,
    s3: row.kind === 's3' ? { endpoint: (settings.endpoint as string | undefined) ?? null, region: settings.region as string, bucket: settings.bucket as string, force_path_style: Boolean(settings.forcePathStyle) } : null,
    azure_blob: row.kind === 'azure_blob' ? { container: settings.container as string, account_url: (settings.accountUrl as string | undefined) ?? null } : null,
    credentials: { hint: row.credentials_hint },
    prefix: row.prefix,
    path_template: row.path_template,
    files_template: row.files_template,
    cache_control: row.cache_control,
    status: row.status,
    last_error: row.last_error,
    last_release_number: row.last_release_number,
    last_synced_at: row.last_synced_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PublicTarget = ReturnType<typeof publicTarget>;

type SyncRow = Pick<StorageSyncsTable, 'id' | 'target_id' | 'release_id' | 'trigger' | 'status' | 'error'> & {
  attempts: number;
  uploaded: number;
  unchanged: number;
  log: { at: string; message: string }[];
  next_attempt_at: Date;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  release_number: number;
};

export function publicSync(row: SyncRow) {
  return {
    id: row.id,
    target_id: row.target_id,
    release: row.release_number,
    trigger: row.trigger,
    status: row.status,
    attempts: row.attempts,
    uploaded: row.uploaded,
    unchanged: row.unchanged,
    error: row.error,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    log: row.log,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

export type PublicSync = ReturnType<typeof publicSync>;

const sealContext = (targetId: string) => `storage_targets:${targetId}:credentials`;

export function createStorageTargetsService(deps: { db: Db; secretKey: Uint8Array | undefined; outbound: Pick<Outbound, 'checkField'>; onQueued?: () => void }) {
  const { db } = deps;

  function requireSecretKey(): Uint8Array {
    if (deps.secretKey) return deps.secretKey;
    throw new ApiError(503, 'secret_key_missing', `Storage credentials are stored encrypted, and PARLANCE_SECRET_KEY is not set. The operator sets it to ${SECRET_KEY_HINT}, then restarts the service.`);
  }

  /** The layout fields, checked: a clear 422 naming the field and the value. */
  function checkLayout(fields: Partial<TargetFields>): Partial<TargetFields> {
    const errors: { path: string; message: string }[] = [];
    const out: Partial<TargetFields> = { ...fields };
    if (fields.prefix !== undefined) {
      const prefix = normalisePrefix(fields.prefix);
      if (prefix.ok) out.prefix = prefix.prefix;
      else errors.push({ path: 'prefix', message: prefix.reason });
    }
    if (fields.pathTemplate !== undefined) {
      const problem = templateProblem('path_template', fields.pathTemplate);
      if (problem) errors.push({ path: 'path_template', message: problem });
    }
    if (fields.filesTemplate !== undefined && fields.filesTemplate !== null) {
      const problem = templateProblem('files_template', fields.filesTemplate);
      if (problem) errors.push({ path: 'files_template', message: problem });
    }
    if (errors.length > 0) throw validationFailed(`Invalid request: ${errors[0]!.path}: ${errors[0]!.message}`, errors);
    return out;
  }

  /**
   * The addresses being saved, checked: a 422 naming the field and the range when one is, or resolves to, a non-public
   * address the operator does not allow. The sync's connections are checked again, against a name that resolves
   * elsewhere by then. Credentials are checked by the account URL they point at, so no message quotes a key or token.
   */
  async function checkAddresses(saved: { endpoint?: string | null; accountUrl?: string | null; credentials?: S3Credentials | AzureBlobCredentials }): Promise<void> {
    if (saved.endpoint) await deps.outbound.checkField(saved.endpoint, 's3.endpoint', 'The S3 endpoint');
    if (saved.accountUrl) await deps.outbound.checkField(saved.accountUrl, 'azure_blob.account_url', 'The Azure account URL');
    const credentials = saved.credentials;
    if (!credentials || 'accessKeyId' in credentials) return;
    const accountUrl = credentialsAccountUrl(credentials);
    if (accountUrl === undefined) return;
    if ('connectionString' in credentials) await deps.outbound.checkField(accountUrl, 'credentials.connection_string', "The connection string's blob endpoint");
    else await deps.outbound.checkField(accountUrl, 'credentials.sas_url', 'The SAS URL');
  }

  async function row(projectId: string, targetId: string): Promise<TargetRow> {
    const found = await db.selectFrom('storage_targets').selectAll().where('project_id', '=', projectId).where('id', '=', targetId).executeTakeFirst();
    if (!found) throw notFound('storage_target_not_found', `No storage target '${targetId}' in this project.`);
    return found;
  }

  function credentialsJson(kind: TargetKind, credentials: S3Credentials | AzureBlobCredentials): string {
    if (kind === 's3' && !('accessKeyId' in credentials)) throw validationFailed("Invalid request: credentials: an S3 target needs 'access_key_id' and 'secret_access_key'.");
    if (kind === 'azure_blob' && 'accessKeyId' in credentials) throw validationFailed("Invalid request: credentials: an Azure Blob target needs 'connection_string' or 'sas_url'.");
    return JSON.stringify(credentials);
  }

  async function create(projectId: string, spec: TargetSpec): Promise<PublicTarget> {
    const key = requireSecretKey();
    const layout = checkLayout(spec);
    await checkAddresses(spec.kind === 's3' ? { endpoint: spec.s3.endpoint } : { accountUrl: spec.azureBlob.accountUrl, credentials: spec.credentials });
    const id = newId('stt');
    const settings = spec.kind === 's3' ? spec.s3 : spec.azureBlob;
    const created = await db
      .insertInto('storage_targets')
      .values({
        id,
        project_id: projectId,
        name: spec.name,
        kind: spec.kind,
        enabled: spec.enabled,
        settings: JSON.stringify(settings),
        credentials_ciphertext: sealSecret(key, credentialsJson(spec.kind, spec.credentials), sealContext(id)),
        credentials_hint: credentialsHint(spec.credentials),
        prefix: layout.prefix!,
        path_template: spec.pathTemplate,
        files_template: spec.filesTemplate,
        cache_control: spec.cacheControl,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return publicTarget(created);
  }

  async function list(projectId: string): Promise<PublicTarget[]> {
    const rows = await db.selectFrom('storage_targets').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
    return rows.map((r) => publicTarget(r));
  }

  async function get(projectId: string, targetId: string): Promise<PublicTarget> {
    return publicTarget(await row(projectId, targetId));
  }

  async function update(projectId: string, targetId: string, patch: TargetPatch): Promise<PublicTarget> {
    const current = await row(projectId, targetId);
    const layout = checkLayout(patch);
    if (patch.s3 && current.kind !== 's3') throw validationFailed(`Invalid request: s3: target '${targetId}' is an ${current.kind} target; its kind cannot change (create another target).`);
    if (patch.azureBlob && current.kind !== 'azure_blob') throw validationFailed(`Invalid request: azure_blob: target '${targetId}' is an ${current.kind} target; its kind cannot change (create another target).`);
    await checkAddresses({ endpoint: patch.s3?.endpoint, accountUrl: patch.azureBlob?.accountUrl, credentials: current.kind === 'azure_blob' ? patch.credentials : undefined });
    const settingsPatch = patch.s3 ?? patch.azureBlob;
    const settings = settingsPatch ? mergeSettings(current.settings, settingsPatch) : undefined;
    const changes = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(layout.prefix !== undefined ? { prefix: layout.prefix } : {}),
      ...(patch.pathTemplate !== undefined ? { path_template: patch.pathTemplate } : {}),
      ...(patch.filesTemplate !== undefined ? { files_template: patch.filesTemplate } : {}),
      ...(patch.cacheControl !== undefined ? { cache_control: patch.cacheControl } : {}),
      ...(settings ? { settings: JSON.stringify(settings) } : {}),
      ...(patch.credentials
        ? {
            credentials_ciphertext: sealSecret(requireSecretKey(), credentialsJson(current.kind, patch.credentials), sealContext(targetId)),
            credentials_hint: credentialsHint(patch.credentials),
          }
        : {}),
    };
    const updated = await db
      .updateTable('storage_targets')
      .set({ ...changes, updated_at: sql`now()` })
      .where('id', '=', targetId)
      .where('project_id', '=', projectId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return publicTarget(updated);
  }

  async function remove(projectId: string, targetId: string): Promise<void> {
    await row(projectId, targetId);
    await db.deleteFrom('storage_targets').where('id', '=', targetId).where('project_id', '=', projectId).execute();
  }

  /** The target with its credentials opened, for a sync. */
  async function open(targetId: string): Promise<OpenedTarget | undefined> {
    const found = await db.selectFrom('storage_targets').selectAll().where('id', '=', targetId).executeTakeFirst();
    if (!found) return undefined;
    const credentials = JSON.parse(openSecret(requireSecretKey(), found.credentials_ciphertext, sealContext(targetId))) as S3Credentials & AzureBlobCredentials;
    const common = { id: found.id, projectId: found.project_id, prefix: found.prefix, pathTemplate: found.path_template, filesTemplate: found.files_template, cacheControl: found.cache_control };
    return found.kind === 's3'
      ? { ...common, kind: 's3', settings: found.settings as unknown as S3Settings, credentials }
      : { ...common, kind: 'azure_blob', settings: found.settings as unknown as AzureBlobSettings, credentials };
  }

  /**
   * Queues a sync of `releaseId` to a target; a sync of an older release still waiting for it is superseded. The
   * target shows `pending` until the dispatcher takes it.
   */
  async function enqueue(targetId: string, releaseId: string, trigger: 'release' | 'api'): Promise<string> {
    const id = newId('sts');
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('storage_syncs').set({ status: 'superseded', finished_at: sql`now()`, error: 'a newer release was queued for this target' }).where('target_id', '=', targetId).where('status', '=', 'pending').execute();
      await trx.insertInto('storage_syncs').values({ id, target_id: targetId, release_id: releaseId, trigger, status: 'pending' }).execute();
      await trx.updateTable('storage_targets').set({ status: 'pending' }).where('id', '=', targetId).execute();
    });
    deps.onQueued?.();
    return id;
  }

  /** Queues the release for every enabled target of its project. */
  async function enqueueRelease(projectId: string, releaseId: string): Promise<number> {
    const targets = await db.selectFrom('storage_targets').select('id').where('project_id', '=', projectId).where('enabled', '=', true).execute();
    for (const t of targets) await enqueue(t.id, releaseId, 'release');
    return targets.length;
  }

  /** Syncs the latest release (or release `number`) to the target now. */
  async function syncNow(projectId: string, targetId: string, number?: number): Promise<PublicSync> {
    await row(projectId, targetId);
    let query = db.selectFrom('releases').select(['id']).where('project_id', '=', projectId);
    query = number === undefined ? query.orderBy('number', 'desc').limit(1) : query.where('number', '=', number);
    const release = await query.executeTakeFirst();
    if (!release) {
      throw number === undefined
        ? new ApiError(409, 'no_release', 'This project has no release to sync yet. Publish one with POST /v1/releases.')
        : notFound('release_not_found', `No release ${number} in this project.`);
    }
    const id = await enqueue(targetId, release.id, 'api');
    const [queued] = await syncRows(targetId).where('s.id', '=', id).execute();
    return publicSync(queued as SyncRow);
  }

  const syncRows = (targetId: string) =>
    db
      .selectFrom('storage_syncs as s')
      .innerJoin('releases as r', 'r.id', 's.release_id')
      .select(['s.id', 's.target_id', 's.release_id', 's.trigger', 's.status', 's.error', 's.attempts', 's.uploaded', 's.unchanged', 's.log', 's.next_attempt_at', 's.created_at', 's.started_at', 's.finished_at', 'r.number as release_number'])
      .where('s.target_id', '=', targetId);

  async function syncs(projectId: string, targetId: string, options: { cursor?: string; limit: number }) {
    await row(projectId, targetId);
    let query = syncRows(targetId).orderBy('s.id', 'desc').limit(options.limit + 1);
    if (options.cursor) query = query.where('s.id', '<', options.cursor);
    const rows = await query.execute();
    const page = rows.slice(0, options.limit);
    return { items: page.map((r) => publicSync(r as SyncRow)), next_cursor: rows.length > options.limit ? page[page.length - 1]!.id : null };
  }

  return { create, list, get, update, remove, open, enqueue, enqueueRelease, syncNow, syncs };
}

export type StorageTargetsService = ReturnType<typeof createStorageTargetsService>;
