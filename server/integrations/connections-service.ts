/**
 * A project's connections to remote systems: connect, show, configure, disconnect, and the syncs they ran. Settings
 * are validated by the connector's own schema; credentials and the webhook secret are sealed with PARLANCE_SECRET_KEY
 * (AES-256-GCM, as the GitHub link and storage secrets are) and never returned, except the webhook secret once, at
 * connect, for the person to paste into the remote system's webhook settings.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { z } from '@hono/zod-openapi';
import type { Db } from '../db/database.js';
import type { IntegrationConnectionsTable, IntegrationSyncsTable, IntegrationSyncTrigger } from '../db/schema.js';
import { ApiError, notFound } from '../errors.js';
import { openSecret, sealSecret, SECRET_KEY_HINT } from '../github-app/crypto.js';
import { newId } from '../ids.js';
import { findConnector } from './catalog.js';
import type { AnyConnector, UploadedFile } from './connector.js';
import type { Outbound } from '../net/outbound.js';

type ConnectionRow = Selectable<IntegrationConnectionsTable>;
type SyncRow = Selectable<IntegrationSyncsTable>;

export function publicSync(row: SyncRow) {
  return {
    id: row.id,
    connection_id: row.connection_id,
    trigger: row.trigger,
    // A queued sync with attempts behind it waits for its retry.
    status: row.status === 'queued' && row.attempts > 0 ? ('retrying' as const) : row.status,
    phase: row.phase,
    batch_id: row.batch_id,
    attempts: row.attempts,
    next_attempt_at: row.status === 'queued' ? new Date(row.next_attempt_at).toISOString() : null,
    counts: { units: 0, strings: 0, added: 0, changed: 0, removed: 0, unchanged: 0, human_edits: 0, refused_edits: 0, written: 0, kept_remote: 0, ...row.counts },
    error: row.error,
    log: row.log,
    created_at: new Date(row.created_at).toISOString(),
    started_at: row.started_at ? new Date(row.started_at).toISOString() : null,
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}
export type PublicSync = ReturnType<typeof publicSync>;

/**
 * `handshake`: the value the vendor sent when its webhook subscription was made, opened for the managers to confirm;
 * `upload`: the file the connection reads, for connectors that read one (undefined for the others: no field).
 */
export function publicConnection(row: ConnectionRow, lastSync: SyncRow | undefined, publicUrl: string, handshake: string | null = null, upload?: PublicUpload | null) {
  return {
    id: row.id,
    connector: row.connector,
    name: row.name,
    enabled: row.enabled,
    settings: row.settings,
    schedule_minutes: row.schedule_minutes,
    next_scheduled_at: row.next_scheduled_at ? new Date(row.next_scheduled_at).toISOString() : null,
    status: row.enabled ? row.status : ('disabled' as const),
    last_error: row.last_error,
    last_sync: lastSync ? publicSync(lastSync) : null,
    webhook_url: `${publicUrl.replace(/\/+$/, '')}/hooks/integrations/${row.id}`,
    webhook_handshake: handshake !== null && row.webhook_handshake_at ? { value: handshake, received_at: new Date(row.webhook_handshake_at).toISOString() } : null,
    ...(upload === undefined ? {} : { upload }),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
export type PublicConnection = ReturnType<typeof publicConnection>;

/** An uploaded file as the API shows it (never its content). */
export interface PublicUpload {
  name: string;
  size: number;
  sha256: string;
  uploaded_at: string;
}

export interface ConnectInput {
  name?: string | undefined;
  settings: unknown;
  secrets: unknown;
  webhook_secret?: string | undefined;
  schedule_minutes?: number | null | undefined;
  enabled?: boolean | undefined;
}

export interface ConnectionPatch {
  name?: string | undefined;
  settings?: Record<string, unknown> | undefined;
  secrets?: unknown;
  webhook_secret?: string | undefined;
  schedule_minutes?: number | null | undefined;
  enabled?: boolean | undefined;
}

/** A connection opened for a sync: its connector, settings and credentials. */
export interface OpenedConnection {
  row: ConnectionRow;
  connector: AnyConnector;
  settings: unknown;
  secrets: unknown;
  webhookSecret: string;
}

/**
 * Settings whose value after the change is an http(s) address on another origin than before (or a new one): the
 * requests they lead to would carry the stored credentials to a host they were not given for. A removed address
 * (no default to fall back to) sends nothing anywhere, so it is not one.
 */
export function movedAddresses(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const origin = (value: unknown) => {
    if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return undefined;
    try {
      return new URL(value).origin;
    } catch {
      return undefined;
    }
  };
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => {
    const [a, b] = [origin(before[name]), origin(after[name])];
    return b !== undefined && a !== b;
  });
}

/** The zod issues of a connector's settings or credentials as one 422 naming each field. */
function invalid(what: 'settings' | 'secrets', connector: AnyConnector, error: z.ZodError): ApiError {
  const problems = error.issues.map((issue) => `${[what, ...issue.path].join('.')}: ${issue.message}`);
  return new ApiError(422, 'validation_failed', `Invalid ${what} for ${connector.name}: ${problems.join('; ')}.`, { problems });
}

export function createConnectionsService(deps: { db: Db; secretKey: Uint8Array | undefined; publicUrl: () => string; onQueued?: () => void; outbound: Pick<Outbound, 'checkField'> }) {
  const { db } = deps;

  /** Every address in the settings is one the service may reach (checked again on each connection a sync opens). */
  async function checkAddresses(connector: AnyConnector, settings: Record<string, unknown>): Promise<void> {
    for (const [name, value] of Object.entries(settings)) {
      if (typeof value === 'string' && /^https?:\/\//i.test(value)) await deps.outbound.checkField(value, `settings.${name}`, `The ${connector.name} connection's ${name}`);
    }
  }

  function key(): Uint8Array {
    if (!deps.secretKey) {
      throw new ApiError(503, 'secret_key_missing', `Integration credentials are stored encrypted, and PARLANCE_SECRET_KEY is not set. The operator sets it to ${SECRET_KEY_HINT}, then restarts the service.`);
    }
    return deps.secretKey;
  }

  function connectorOf(id: string): AnyConnector {
    const connector = findConnector(id);
    if (!connector) throw notFound('connector_not_found', `No connector '${id}'. GET /v1/integrations/catalog lists them.`);
    return connector;
  }

  function parse<T>(what: 'settings' | 'secrets', connector: AnyConnector, schema: z.ZodType<T>, value: unknown): T {
    const parsed = schema.safeParse(value ?? {});
    if (!parsed.success) throw invalid(what, connector, parsed.error);
    return parsed.data;
  }

  async function lastSyncs(rows: readonly ConnectionRow[]): Promise<Map<string, SyncRow>> {
    const ids = rows.map((r) => r.last_sync_id).filter((id): id is string => id !== null);
    if (ids.length === 0) return new Map();
    const syncs = await db.selectFrom('integration_syncs').selectAll().where('id', 'in', ids).execute();
    return new Map(syncs.map((s) => [s.id, s]));
  }

  async function row(projectId: string, connectorId: string, id: string): Promise<ConnectionRow> {
    const found = await db.selectFrom('integration_connections').selectAll().where('id', '=', id).where('project_id', '=', projectId).where('connector', '=', connectorId).executeTakeFirst();
    if (!found) throw notFound('connection_not_found', `No ${connectorId} connection '${id}' in this project.`);
    return found;
  }

  async function describe(found: ConnectionRow): Promise<PublicConnection> {
    const [syncs, uploads] = await Promise.all([lastSyncs([found]), uploadsOf([found])]);
    return publicConnection(found, found.last_sync_id ? syncs.get(found.last_sync_id) : undefined, deps.publicUrl(), handshakeOf(found), uploadOf(found, uploads));
  }

  /** The files uploaded to these connections (without their content), by connection id. */
  async function uploadsOf(rows: readonly ConnectionRow[]): Promise<Map<string, PublicUpload>> {
    const ids = rows.filter((r) => findConnector(r.connector)?.upload).map((r) => r.id);
    if (ids.length === 0) return new Map();
    const found = await db.selectFrom('integration_uploads').select(['connection_id', 'name', 'size', 'sha256', 'uploaded_at']).where('connection_id', 'in', ids).execute();
    return new Map(found.map((u) => [u.connection_id, { name: u.name, size: u.size, sha256: u.sha256, uploaded_at: new Date(u.uploaded_at).toISOString() }]));
  }

  /** A connection's uploaded file: null when its connector reads one and none is uploaded; undefined when it reads none. */
  function uploadOf(row: ConnectionRow, uploads: Map<string, PublicUpload>): PublicUpload | null | undefined {
    if (!findConnector(row.connector)?.upload) return undefined;
    return uploads.get(row.id) ?? null;
  }

  /** The vendor's handshake value of a connection, opened; null when there is none (or no key to open it with). */
  function handshakeOf(found: ConnectionRow): string | null {
    if (found.webhook_handshake_ciphertext === null || !deps.secretKey) return null;
    return openSecret(deps.secretKey, found.webhook_handshake_ciphertext, `integration-handshake:${found.id}`);
  }

  /**
   * Keeps the value a vendor sent once when its webhook subscription was made (verdict `handshake`), sealed, for the
   * connection's managers to confirm in the vendor's app and set as the webhook secret; a later one replaces it.
   */
  async function recordHandshake(id: string, value: string): Promise<void> {
    await db
      .updateTable('integration_connections')
      .set({ webhook_handshake_ciphertext: sealSecret(key(), value, `integration-handshake:${id}`), webhook_handshake_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** Queues a sync of a connection unless one is already waiting to start (a second one would read the same). */
  async function enqueue(connectionId: string, projectId: string, trigger: IntegrationSyncTrigger): Promise<{ sync: SyncRow; queued: boolean }> {
    const sync = await db.transaction().execute(async (trx) => {
      await trx.selectFrom('integration_connections').select('id').where('id', '=', connectionId).forUpdate().executeTakeFirstOrThrow();
      const waiting = await trx.selectFrom('integration_syncs').selectAll().where('connection_id', '=', connectionId).where('status', '=', 'queued').where('attempts', '=', 0).executeTakeFirst();
      if (waiting) return { sync: waiting, queued: false };
      const id = newId('isy');
      const created = await trx.insertInto('integration_syncs').values({ id, connection_id: connectionId, project_id: projectId, trigger }).returningAll().executeTakeFirstOrThrow();
      await trx.updateTable('integration_connections').set({ last_sync_id: id }).where('id', '=', connectionId).execute();
      return { sync: created, queued: true };
    });
    if (sync.queued) deps.onQueued?.();
    return sync;
  }

  async function connect(projectId: string, connectorId: string, input: ConnectInput): Promise<{ connection: PublicConnection; webhookSecret: string }> {
    const connector = connectorOf(connectorId);
    const settings = parse('settings', connector, connector.settings, input.settings);
    const secrets = parse('secrets', connector, connector.secrets, input.secrets);
    await checkAddresses(connector, settings as Record<string, unknown>);
    const sealKey = key();
    const id = newId('con');
    const webhookSecret = input.webhook_secret ?? randomBytes(24).toString('base64url');
    const schedule = input.schedule_minutes ?? null;
    await db
      .insertInto('integration_connections')
      .values({
        id,
        project_id: projectId,
        connector: connector.id,
        name: input.name ?? connector.name,
        enabled: input.enabled ?? true,
        settings: JSON.stringify(settings),
        secrets_ciphertext: sealSecret(sealKey, JSON.stringify(secrets), `integration:${id}`),
        webhook_secret_ciphertext: sealSecret(sealKey, webhookSecret, `integration-webhook:${id}`),
        schedule_minutes: schedule,
        next_scheduled_at: schedule === null ? null : new Date(Date.now() + schedule * 60_000),
      })
      .execute();
    return { connection: await describe(await row(projectId, connector.id, id)), webhookSecret };
  }

  async function list(projectId: string, connectorId: string): Promise<PublicConnection[]> {
    connectorOf(connectorId);
    const rows = await db.selectFrom('integration_connections').selectAll().where('project_id', '=', projectId).where('connector', '=', connectorId).orderBy('created_at').orderBy('id').execute();
    const syncs = await lastSyncs(rows);
    const uploads = await uploadsOf(rows);
    return rows.map((r) => publicConnection(r, r.last_sync_id ? syncs.get(r.last_sync_id) : undefined, deps.publicUrl(), handshakeOf(r), uploadOf(r, uploads)));
  }

  async function get(projectId: string, connectorId: string, id: string): Promise<PublicConnection> {
    connectorOf(connectorId);
    return describe(await row(projectId, connectorId, id));
  }

  async function update(projectId: string, connectorId: string, id: string, patch: ConnectionPatch): Promise<PublicConnection> {
    const connector = connectorOf(connectorId);
    const found = await row(projectId, connectorId, id);
    const set: Record<string, unknown> = { updated_at: sql`now()` };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    if (patch.settings !== undefined) {
      // Merged into the stored settings; a null removes a setting (back to its default).
      const merged: Record<string, unknown> = { ...found.settings, ...patch.settings };
      for (const [name, value] of Object.entries(patch.settings)) if (value === null) delete merged[name];
      const settings = parse('settings', connector, connector.settings, merged) as Record<string, unknown>;
      await checkAddresses(connector, settings);
      const moved = movedAddresses(found.settings, settings);
      if (moved.length > 0 && patch.secrets === undefined) {
        throw new ApiError(422, 'secrets_required', `Changing ${moved.map((m) => `settings.${m}`).join(', ')} sends requests to another host: send the credentials for it in "secrets" in the same PATCH (the stored ones are never sent to a new host).`, { settings: moved });
      }
      set.settings = JSON.stringify(settings);
    }
    if (patch.secrets !== undefined) set.secrets_ciphertext = sealSecret(key(), JSON.stringify(parse('secrets', connector, connector.secrets, patch.secrets)), `integration:${id}`);
    if (patch.webhook_secret !== undefined) {
      set.webhook_secret_ciphertext = sealSecret(key(), patch.webhook_secret, `integration-webhook:${id}`);
      // The handshake's value has served its purpose once a secret is set.
      set.webhook_handshake_ciphertext = null;
      set.webhook_handshake_at = null;
    }
    if (patch.schedule_minutes !== undefined) {
      set.schedule_minutes = patch.schedule_minutes;
      set.next_scheduled_at = patch.schedule_minutes === null ? null : new Date(Date.now() + patch.schedule_minutes * 60_000);
    }
    // New credentials or settings: the error they caused is history until the next sync says otherwise.
    if ((patch.secrets !== undefined || patch.settings !== undefined) && found.status === 'error') {
      set.status = 'never_synced';
      set.last_error = null;
    }
    await db.updateTable('integration_connections').set(set).where('id', '=', id).execute();
    return describe(await row(projectId, connectorId, id));
  }

  /**
   * Disconnects: the connection, its syncs and its record of remote values go, and the keys of its string places are
   * removed (as a push removes a file's missing keys: their translations stay in the memory). A code host's files keep
   * their keys, which a CLI push or the GitHub App may share.
   */
  async function remove(projectId: string, connectorId: string, id: string): Promise<PublicConnection> {
    connectorOf(connectorId);
    const found = await describe(await row(projectId, connectorId, id));
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('integration_connections').where('id', '=', id).execute();
      const prefix = `integrations/${id}/`.replace(/[\\%_]/g, '\\$&');
      await trx
        .updateTable('keys')
        .set({ state: 'removed', removed_at: sql`now()` })
        .where('project_id', '=', projectId)
        .where('path', 'like', `${prefix}%`)
        .where('state', '=', 'active')
        .execute();
    });
    return found;
  }

  async function syncNow(projectId: string, connectorId: string, id: string, trigger: IntegrationSyncTrigger = 'api'): Promise<PublicSync> {
    connectorOf(connectorId);
    const found = await row(projectId, connectorId, id);
    if (!found.enabled) throw new ApiError(409, 'connection_disabled', `The ${connectorId} connection '${id}' is disabled; PATCH it with {"enabled": true} first.`);
    return publicSync((await enqueue(found.id, projectId, trigger)).sync);
  }

  /**
   * Stores the file a person uploaded to a connection whose connector reads one (replacing the one before) and queues a
   * sync that reads it. The name must end as the connector's files do; the body's size was bounded by the route.
   */
  async function upload(projectId: string, connectorId: string, id: string, file: { name: string; content: Uint8Array }): Promise<{ file: PublicUpload; sync: PublicSync }> {
    const connector = connectorOf(connectorId);
    const spec = connector.upload;
    if (!spec) throw new ApiError(405, 'upload_not_supported', `${connector.name} connections read no uploaded file: ${connector.direction === 'import_only' ? 'they read the remote system through its API' : 'they sync with the remote system through its API'}.`);
    const found = await row(projectId, connectorId, id);
    if (!found.enabled) throw new ApiError(409, 'connection_disabled', `The ${connectorId} connection '${id}' is disabled; PATCH it with {"enabled": true} first.`);
    if (!spec.extensions.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      throw new ApiError(422, 'validation_failed', `The file name '${file.name}' (query name) does not end in ${spec.extensions.join(' or ')}: ${connector.name} takes ${spec.description}.`);
    }
    if (file.content.byteLength === 0) throw new ApiError(422, 'validation_failed', `The body is empty: send ${spec.description} as the request body.`);
    const sha256 = createHash('sha256').update(file.content).digest('hex');
    const values = { name: file.name, size: file.content.byteLength, sha256, content: Buffer.from(file.content), uploaded_at: sql<Date>`now()` };
    const stored = await db
      .insertInto('integration_uploads')
      .values({ connection_id: id, ...values })
      .onConflict((oc) => oc.column('connection_id').doUpdateSet(values))
      .returning(['name', 'size', 'sha256', 'uploaded_at'])
      .executeTakeFirstOrThrow();
    const queued = await enqueue(found.id, projectId, 'upload');
    return { file: { name: stored.name, size: stored.size, sha256: stored.sha256, uploaded_at: new Date(stored.uploaded_at).toISOString() }, sync: publicSync(queued.sync) };
  }

  /** The file last uploaded to a connection, for its sync; null when none has been. */
  async function uploaded(connectionId: string): Promise<UploadedFile | null> {
    const found = await db.selectFrom('integration_uploads').selectAll().where('connection_id', '=', connectionId).executeTakeFirst();
    return found ? { name: found.name, content: new Uint8Array(found.content), sha256: found.sha256, uploadedAt: new Date(found.uploaded_at) } : null;
  }

  async function syncs(projectId: string, connectorId: string, id: string, options: { cursor?: string | undefined; limit: number }) {
    await row(projectId, connectorId, id);
    let query = db.selectFrom('integration_syncs').selectAll().where('connection_id', '=', id).orderBy('id', 'desc').limit(options.limit + 1);
    if (options.cursor) query = query.where('id', '<', options.cursor);
    const rows = await query.execute();
    const more = rows.length > options.limit;
    const items = rows.slice(0, options.limit).map(publicSync);
    return { items, next_cursor: more ? items[items.length - 1]!.id : null };
  }

  async function sync(projectId: string, connectorId: string, id: string, syncId: string): Promise<PublicSync> {
    await row(projectId, connectorId, id);
    const found = await db.selectFrom('integration_syncs').selectAll().where('id', '=', syncId).where('connection_id', '=', id).executeTakeFirst();
    if (!found) throw notFound('sync_not_found', `No sync '${syncId}' of connection '${id}'.`);
    return publicSync(found);
  }

  /** Opens a connection for a sync or a webhook; undefined when it is gone or its connector no longer exists. */
  async function open(id: string): Promise<OpenedConnection | undefined> {
    const found = await db.selectFrom('integration_connections').selectAll().where('id', '=', id).executeTakeFirst();
    if (!found) return undefined;
    const connector = findConnector(found.connector);
    if (!connector) return undefined;
    const sealKey = key();
    return {
      row: found,
      connector,
      settings: found.settings,
      secrets: JSON.parse(openSecret(sealKey, found.secrets_ciphertext, `integration:${id}`)) as unknown,
      webhookSecret: openSecret(sealKey, found.webhook_secret_ciphertext, `integration-webhook:${id}`),
    };
  }

  /** Queues a sync for every enabled connection whose scheduled time has come, and sets its next time. */
  async function enqueueScheduled(): Promise<number> {
    const due = await db
      .updateTable('integration_connections')
      .set({ next_scheduled_at: sql`now() + schedule_minutes * interval '1 minute'` })
      .where('enabled', '=', true)
      .where('schedule_minutes', 'is not', null)
      .where('next_scheduled_at', '<=', sql<Date>`now()`)
      .returning(['id', 'project_id'])
      .execute();
    for (const c of due) await enqueue(c.id, c.project_id, 'schedule');
    return due.length;
  }

  return { connect, list, get, update, remove, syncNow, upload, uploaded, recordHandshake, syncs, sync, open, enqueue, enqueueScheduled };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;
