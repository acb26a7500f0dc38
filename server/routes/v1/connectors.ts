/**
 * /v1/integrations/catalog and /v1/integrations/{connector}: the connector catalog, and a project's connections to
 * remote systems (connect, show, configure, disconnect, sync on demand, syncs and their logs). Ability `manage`.
 * Mounted after /v1/integrations/github, whose routes the GitHub App keeps.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { catalog } from '../../integrations/catalog.js';
import { CONNECTOR_CATEGORIES } from '../../integrations/connector.js';
import { notFoundResponse, problem, problemResponses } from './schemas.js';
import { conflict, itemsOf, json, pageOf, pageQuery, projectId } from './route-shapes.js';

const CatalogEntry = z
  .object({
    id: z.string(),
    name: z.string(),
    category: z.enum(CONNECTOR_CATEGORIES),
    direction: z.enum(['two_way', 'import_only']).openapi({ description: '`two_way`: sources come in and translations go back; `import_only`: sources come in.' }),
    summary: z.string(),
    webhooks: z.string().nullable().openapi({ description: "How the remote system's change notifications are verified; null when it sends none." }),
    endpoint: z.string().openapi({ description: 'Where connections of this connector are managed.' }),
    upload: z
      .object({ description: z.string(), extensions: z.array(z.string()) })
      .nullable()
      .openapi({ description: 'The file the connector reads, uploaded with `PUT {endpoint}/{id}/file` (Sketch, Penpot); null when it reads none.' }),
    settings_schema: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'JSON Schema of `settings` at connect, each field described; null for the GitHub App.' }),
    secrets_schema: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'JSON Schema of `secrets` at connect; null for the GitHub App.' }),
  })
  .openapi('ConnectorCatalogEntry');

const Counts = z
  .object({
    units: z.number().int(),
    strings: z.number().int().openapi({ description: 'Source strings listed in the remote system.' }),
    added: z.number().int(),
    changed: z.number().int(),
    removed: z.number().int(),
    unchanged: z.number().int(),
    human_edits: z.number().int().openapi({ description: 'Remote values changed by people, imported as human translations.' }),
    refused_edits: z.number().int().openapi({ description: 'Remote edits the quality gates refused: left as they are in the remote system, never overwritten.' }),
    written: z.number().int().openapi({ description: 'Translations (or files) written back.' }),
    kept_remote: z.number().int().openapi({ description: 'Translations not written because someone changed the remote value.' }),
  })
  .openapi('IntegrationSyncCounts');

const Sync = z
  .object({
    id: z.string(),
    connection_id: z.string(),
    trigger: z.enum(['api', 'connect', 'schedule', 'webhook', 'upload']).openapi({ description: '`upload`: started by PUT …/file.' }),
    status: z.enum(['queued', 'retrying', 'running', 'waiting_batch', 'succeeded', 'failed', 'cancelled']),
    phase: z.enum(['read', 'write']),
    batch_id: z.string().nullable().openapi({ description: 'The batch that translated what this sync pushed; null when nothing needed translating.' }),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    counts: Counts,
    error: z.string().nullable(),
    log: z.array(z.object({ at: z.string(), message: z.string() })),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('IntegrationSync');

const Connection = z
  .object({
    id: z.string(),
    connector: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    settings: z.record(z.string(), z.unknown()).openapi({ description: "The connector's settings (never the credentials)." }),
    schedule_minutes: z.number().int().nullable(),
    next_scheduled_at: z.string().nullable(),
    status: z.enum(['never_synced', 'syncing', 'ok', 'retrying', 'error', 'disabled']),
    last_error: z.string().nullable(),
    last_sync: Sync.nullable(),
    webhook_url: z.string().openapi({ description: "Where the remote system sends its change notifications (public; verified with the connection's webhook secret)." }),
    webhook_secret: z.string().optional().openapi({ description: 'Only in the answer to connect: the secret to configure in the remote system. Never shown again.' }),
    webhook_handshake: z
      .object({ value: z.string(), received_at: z.string() })
      .nullable()
      .openapi({ description: "What the remote system sent once when its webhook subscription was made, for a person to confirm there and set as `webhook_secret` (Notion's verification token); null when none is waiting. PATCHing `webhook_secret` clears it." }),
    upload: z
      .object({ name: z.string(), size: z.number().int(), sha256: z.string(), uploaded_at: z.string() })
      .nullable()
      .optional()
      .openapi({ description: 'Connectors that read an uploaded file (Sketch, Penpot): the file the next sync reads (never its content), or null when none has been uploaded. Absent for other connectors.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('IntegrationConnection');

const Uploaded = z
  .object({
    file: z.object({ name: z.string(), size: z.number().int(), sha256: z.string(), uploaded_at: z.string() }).openapi({ description: 'The file as stored (its content is never returned).' }),
    sync: Sync,
  })
  .openapi('IntegrationUpload');

const ConnectInput = z
  .object({
    name: z.string().min(1).max(100).optional(),
    settings: z.record(z.string(), z.unknown()).default({}).openapi({ description: "The connector's settings; see its set-up guide in the README." }),
    secrets: z.record(z.string(), z.unknown()).default({}).openapi({ description: 'Credentials for the remote system: stored encrypted, never returned.' }),
    webhook_secret: z.string().min(16).max(200).optional().openapi({ description: 'The secret the remote system signs notifications with, when it chooses one; default: a random one, returned once.' }),
    schedule_minutes: z.number().int().min(5).max(10_080).nullable().optional().openapi({ description: 'Minutes between scheduled syncs (5 to 10080); null or absent: on demand and on notifications only.' }),
    enabled: z.boolean().optional(),
    sync: z.boolean().default(true).openapi({ description: 'Start the first sync at once. Default true.' }),
  })
  .strict()
  .openapi('IntegrationConnectInput');

const PatchInput = z
  .object({
    name: z.string().min(1).max(100).optional(),
    settings: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Merged into the stored settings (a null removes one), then validated whole. Moving an address setting to another host needs `secrets` in the same PATCH (422 `secrets_required`).' }),
    secrets: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Replaces the stored credentials (rotation).' }),
    webhook_secret: z.string().min(16).max(200).optional(),
    schedule_minutes: z.number().int().min(5).max(10_080).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .openapi('IntegrationConnectionPatch');

const ConnectorParam = z.object({ connector: z.string().min(1).max(64) });
const Params = ConnectorParam.extend({ id: z.string().min(1).max(64) });

export function connectorsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/catalog',
      summary: 'Every connector, with its category and direction',
      description: 'Any valid token. The GitHub App is listed first; it keeps its own routes at `/v1/integrations/github` (link, list, show, unlink; configure and sync now answer 405 naming what to do instead).',
      responses: { 200: json('The catalog', itemsOf(CatalogEntry)), ...problemResponses },
    }),
    (c) => c.json({ items: catalog() }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{connector}',
      summary: 'Connect the project to a remote system',
      description:
        'Ability: `manage`. Validates the settings and credentials against the connector, stores the credentials encrypted (PARLANCE_SECRET_KEY), and starts the first sync. The answer carries `webhook_secret` once.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ConnectorParam, body: { required: true, content: { 'application/json': { schema: ConnectInput } } } },
      responses: {
        201: json('Connected', Connection),
        503: problem('PARLANCE_SECRET_KEY is not set'),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const { connector } = c.req.valid('param');
      const body = c.req.valid('json');
      const { connection, webhookSecret } = await deps.connections.connect(projectId(c), connector, body);
      if (body.sync && connection.enabled) await deps.connections.syncNow(projectId(c), connector, connection.id, 'connect');
      const shown = await deps.connections.get(projectId(c), connector, connection.id);
      return c.json({ ...shown, webhook_secret: webhookSecret }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{connector}',
      summary: "The project's connections of one connector",
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ConnectorParam },
      responses: { 200: json('Connections', itemsOf(Connection)), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json({ items: await deps.connections.list(projectId(c), c.req.valid('param').connector) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{connector}/{id}',
      summary: 'One connection: settings, status, last sync and its counts, last error',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: Params },
      responses: { 200: json('The connection', Connection), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { connector, id } = c.req.valid('param');
      return c.json(await deps.connections.get(projectId(c), connector, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/{connector}/{id}',
      summary: 'Configure a connection, or rotate its credentials',
      description: 'Ability: `manage`. Applies from the next sync.',
      middleware: [requireAbility('manage')] as const,
      request: { params: Params, body: { required: true, content: { 'application/json': { schema: PatchInput } } } },
      responses: { 200: json('Changed', Connection), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { connector, id } = c.req.valid('param');
      return c.json(await deps.connections.update(projectId(c), connector, id, c.req.valid('json')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{connector}/{id}',
      summary: 'Disconnect',
      description: "Ability: `manage`. The connection, its credentials and its syncs are removed; its webhook address stops answering; the keys of its string places are marked removed (a code host's files keep theirs). A sync under way stops before it pushes or writes again. Nothing is changed in the remote system.",
      middleware: [requireAbility('manage')] as const,
      request: { params: Params },
      responses: { 200: json('Disconnected: the connection as it was', Connection), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { connector, id } = c.req.valid('param');
      return c.json(await deps.connections.remove(projectId(c), connector, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{connector}/{id}/sync',
      summary: 'Sync now',
      description: 'Ability: `manage`. Queues a sync (or answers the one already waiting to start).',
      middleware: [requireAbility('manage')] as const,
      request: { params: Params },
      responses: {
        202: json('Queued', Sync),
        ...conflict('The connection is disabled'),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const { connector, id } = c.req.valid('param');
      return c.json(await deps.connections.syncNow(projectId(c), connector, id), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/{connector}/{id}/file',
      summary: 'Upload the file the connection reads',
      description:
        "Ability: `manage`. For connectors that read a file (the catalog entry's `upload`, such as Sketch's `.sketch` documents and Penpot's `.penpot` exports): the request body is the file itself, `name` its file name. It replaces the file uploaded before and queues a sync (trigger `upload`) that reads it. Other connectors answer 405 `upload_not_supported`.",
      middleware: [requireAbility('manage')] as const,
      request: {
        params: Params,
        query: z.object({ name: z.string().min(1).max(255).openapi({ example: 'Checkout.sketch', description: 'The file name; it must end as the connector\'s files do (`.sketch`, `.penpot`).' }) }),
        body: { required: true, content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
      },
      responses: {
        202: json('Stored; a sync that reads it is queued', Uploaded),
        405: problem('The connector reads no uploaded file (`upload_not_supported`)'),
        ...conflict('The connection is disabled'),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const { connector, id } = c.req.valid('param');
      const { name } = c.req.valid('query');
      const content = new Uint8Array(await c.req.arrayBuffer());
      return c.json(await deps.connections.upload(projectId(c), connector, id, { name, content }), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{connector}/{id}/syncs',
      summary: "The connection's syncs, newest first, each with its counts and log",
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: Params, query: z.object({ cursor: z.string().max(64).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }) },
      responses: { 200: json('Syncs', pageOf(Sync)), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { connector, id } = c.req.valid('param');
      return c.json(await deps.connections.syncs(projectId(c), connector, id, pageQuery(c.req.valid('query'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{connector}/{id}/syncs/{sync_id}',
      summary: 'One sync',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: Params.extend({ sync_id: z.string().min(1).max(64) }) },
      responses: { 200: json('The sync', Sync), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { connector, id, sync_id } = c.req.valid('param');
      return c.json(await deps.connections.sync(projectId(c), connector, id, sync_id), 200);
    },
  );

  return app;
}
