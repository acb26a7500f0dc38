/** /v1/storage-targets: S3-compatible buckets and Azure Blob containers that receive every release; their syncs and logs. Ability `manage`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import type { AzureBlobCredentials, AzureBlobSettings, S3Credentials, S3Settings } from '../../delivery/storage/storage-client.js';
import type { AzureBlobSettingsPatch, S3SettingsPatch, TargetPatch, TargetSpec } from '../../delivery/storage/storage-targets-service.js';
import { notFoundResponse, problem, problemResponses } from './schemas.js';
import { ById64, conflict, itemsOf, json, pageOf, pageQuery, projectId } from './route-shapes.js';

const S3Input = z
  .object({
    endpoint: z.url().max(2000).optional().openapi({ description: 'For S3-compatible services: `https://<account>.r2.cloudflarestorage.com`, `http://minio:9000`. Omitted: AWS S3 in `region`. A public address unless the operator allows private ones (OUTBOUND_ALLOW_PRIVATE_ADDRESSES): 422 `address_refused` otherwise.' }),
    region: z.string().min(1).max(64).default('us-east-1').openapi({ description: "AWS region; 'auto' for Cloudflare R2." }),
    bucket: z.string().min(3).max(63),
    force_path_style: z.boolean().default(false).openapi({ description: 'Address the bucket in the path (`endpoint/bucket/key`), as MinIO and most self-hosted services need.' }),
  })
  .strict()
  .openapi('S3Settings');

const AzureInput = z
  .object({
    container: z.string().min(3).max(63),
    account_url: z.url().max(2000).optional().openapi({ description: "The account's blob endpoint; when given, it must be where the credentials point. A public address unless the operator allows private ones (OUTBOUND_ALLOW_PRIVATE_ADDRESSES)." }),
  })
  .strict()
  .openapi('AzureBlobSettings');

/** A PATCH's settings: only the fields given change, the rest keep their stored values (no defaults here). */
const S3PatchInput = z
  .object({
    endpoint: z.url().max(2000).nullable().optional().openapi({ description: 'null: AWS S3 itself, in `region`.' }),
    region: z.string().min(1).max(64).optional(),
    bucket: z.string().min(3).max(63).optional(),
    force_path_style: z.boolean().optional(),
  })
  .strict()
  .openapi('S3SettingsPatch');

const AzurePatchInput = z
  .object({
    container: z.string().min(3).max(63).optional(),
    account_url: z.url().max(2000).nullable().optional().openapi({ description: 'null: wherever the credentials point.' }),
  })
  .strict()
  .openapi('AzureBlobSettingsPatch');

const S3CredentialsInput = z
  .object({ access_key_id: z.string().min(1).max(256), secret_access_key: z.string().min(1).max(256), session_token: z.string().min(1).max(8192).optional() })
  .strict()
  .openapi('S3Credentials');

const AzureCredentialsInput = z
  .union([
    z.object({ connection_string: z.string().min(1).max(4096).openapi({ description: 'As the Azure portal gives it (AccountName, AccountKey, BlobEndpoint…).' }) }).strict(),
    z.object({ sas_url: z.url().max(4096).openapi({ description: 'The account or container URL with a SAS token that may create and write blobs.' }) }).strict(),
  ])
  .openapi('AzureBlobCredentials');

const layoutFields = {
  name: z.string().min(1).max(100),
  enabled: z.boolean().default(true),
  prefix: z.string().max(500).default('').openapi({ description: "Folder in the bucket or container for this project's files, e.g. `i18n/web`." }),
  path_template: z
    .string()
    .min(1)
    .max(500)
    .default('{locale}.json')
    .openapi({
      description:
        "Where each locale's JSON bundle goes under the prefix, with the CLI's template variables ({locale}, {locale_underscore}, {android_locale}, {apple_locale}, {two_letters}) and two of storage's own: {hash} (the first 12 hex digits of the object's SHA-256) and {release} (the release number). With plain paths objects are overwritten in place; with {hash} or {release} changed objects get new keys and the manifest, written last, switches clients to the new release at once.",
    }),
  files_template: z
    .string()
    .min(1)
    .max(500)
    .nullable()
    .default(null)
    .openapi({ description: "Where each source file's translations go when releases carry files, filled per source file and locale ({dir}, {name}, {ext}, {locale}, …, and {hash}, {release} as in path_template); null: `files/<the pulled path>`." }),
  cache_control: z.string().min(1).max(200).nullable().default(null).openapi({ description: 'Cache-Control stored with every object, e.g. `public, max-age=300`.' }),
};

const TargetInput = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('s3'), ...layoutFields, s3: S3Input, credentials: S3CredentialsInput }).strict(),
    z.object({ kind: z.literal('azure_blob'), ...layoutFields, azure_blob: AzureInput, credentials: AzureCredentialsInput }).strict(),
  ])
  .openapi('StorageTargetInput');

const TargetPatchInput = z
  .object({
    name: layoutFields.name.optional(),
    enabled: z.boolean().optional(),
    prefix: z.string().max(500).optional(),
    path_template: z.string().min(1).max(500).optional(),
    files_template: z.string().min(1).max(500).nullable().optional(),
    cache_control: z.string().min(1).max(200).nullable().optional(),
    s3: S3PatchInput.optional().openapi({ description: 'Only the fields given change; the others keep their stored values.' }),
    azure_blob: AzurePatchInput.optional().openapi({ description: 'Only the fields given change; the others keep their stored values.' }),
    credentials: z.union([S3CredentialsInput, AzureCredentialsInput]).optional().openapi({ description: 'New credentials (rotation); the old ones are forgotten.' }),
  })
  .strict()
  .openapi('StorageTargetPatch');

const Target = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['s3', 'azure_blob']),
    enabled: z.boolean(),
    s3: z.object({ endpoint: z.string().nullable(), region: z.string(), bucket: z.string(), force_path_style: z.boolean() }).nullable(),
    azure_blob: z.object({ container: z.string(), account_url: z.string().nullable() }).nullable(),
    credentials: z.object({ hint: z.string().openapi({ description: 'Enough to tell credentials apart (the end of an access key id, the account name); never the secret.' }) }),
    prefix: z.string(),
    path_template: z.string(),
    files_template: z.string().nullable(),
    cache_control: z.string().nullable(),
    status: z.enum(['idle', 'pending', 'syncing', 'ok', 'failed']).openapi({ description: '`ok`: the last sync succeeded; `failed`: it gave up, see `last_error`; `pending`: a sync waits (or retries).' }),
    last_error: z.string().nullable(),
    last_release_number: z.number().int().nullable(),
    last_synced_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('StorageTarget');

const Sync = z
  .object({
    id: z.string(),
    target_id: z.string(),
    release: z.number().int(),
    trigger: z.enum(['release', 'api']),
    status: z.enum(['pending', 'running', 'succeeded', 'failed', 'superseded']),
    attempts: z.number().int(),
    uploaded: z.number().int(),
    unchanged: z.number().int().openapi({ description: 'Objects already in the target with the same content, not uploaded again.' }),
    error: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    log: z.array(z.object({ at: z.string(), message: z.string() })),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('StorageSync');

const s3Settings = (s: z.infer<typeof S3Input>): S3Settings => ({ ...(s.endpoint ? { endpoint: s.endpoint } : {}), region: s.region, bucket: s.bucket, forcePathStyle: s.force_path_style });
const azureSettings = (s: z.infer<typeof AzureInput>): AzureBlobSettings => ({ container: s.container, ...(s.account_url ? { accountUrl: s.account_url } : {}) });
const s3SettingsPatch = (s: z.infer<typeof S3PatchInput>): S3SettingsPatch => ({
  ...(s.endpoint !== undefined ? { endpoint: s.endpoint } : {}),
  ...(s.region !== undefined ? { region: s.region } : {}),
  ...(s.bucket !== undefined ? { bucket: s.bucket } : {}),
  ...(s.force_path_style !== undefined ? { forcePathStyle: s.force_path_style } : {}),
});
const azureSettingsPatch = (s: z.infer<typeof AzurePatchInput>): AzureBlobSettingsPatch => ({
  ...(s.container !== undefined ? { container: s.container } : {}),
  ...(s.account_url !== undefined ? { accountUrl: s.account_url } : {}),
});
const credentials = (c: z.infer<typeof S3CredentialsInput> | z.infer<typeof AzureCredentialsInput>): S3Credentials | AzureBlobCredentials =>
  'access_key_id' in c
    ? { accessKeyId: c.access_key_id, secretAccessKey: c.secret_access_key, ...(c.session_token ? { sessionToken: c.session_token } : {}) }
    : 'connection_string' in c
      ? { connectionString: c.connection_string }
      : { sasUrl: c.sas_url };

export function storageTargetsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Add a storage target',
      description:
        'Ability: `manage`. Every release is synced to every enabled target: JSON bundles at `path_template`, files at `files_template`, `manifest.json` last, under `prefix`. Credentials are stored encrypted with PARLANCE_SECRET_KEY and never returned.',
      middleware: [requireAbility('manage')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: TargetInput } } } },
      responses: {
        201: json('Created', Target),
        503: problem('PARLANCE_SECRET_KEY is not set'),
        ...problemResponses,
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const fields = { name: body.name, enabled: body.enabled, prefix: body.prefix, pathTemplate: body.path_template, filesTemplate: body.files_template, cacheControl: body.cache_control };
      const spec: TargetSpec =
        body.kind === 's3'
          ? { ...fields, kind: 's3', s3: s3Settings(body.s3), credentials: credentials(body.credentials) as S3Credentials }
          : { ...fields, kind: 'azure_blob', azureBlob: azureSettings(body.azure_blob), credentials: credentials(body.credentials) as AzureBlobCredentials };
      return c.json(await deps.storageTargets.create(projectId(c), spec), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'List storage targets',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      responses: { 200: json('Every target of the project', itemsOf(Target)), ...problemResponses },
    }),
    async (c) => c.json({ items: await deps.storageTargets.list(projectId(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      summary: 'One storage target',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById64 },
      responses: { 200: json('The target', Target), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.storageTargets.get(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      summary: 'Change a storage target, or rotate its credentials',
      description: 'Ability: `manage`. Only the fields given change, also inside `s3` and `azure_blob`; changes apply from the next sync; `credentials` replaces the stored ones. The kind of a target cannot change.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById64, body: { required: true, content: { 'application/json': { schema: TargetPatchInput } } } },
      responses: { 200: json('Changed', Target), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const patch: TargetPatch = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        ...(body.prefix !== undefined ? { prefix: body.prefix } : {}),
        ...(body.path_template !== undefined ? { pathTemplate: body.path_template } : {}),
        ...(body.files_template !== undefined ? { filesTemplate: body.files_template } : {}),
        ...(body.cache_control !== undefined ? { cacheControl: body.cache_control } : {}),
        ...(body.s3 ? { s3: s3SettingsPatch(body.s3) } : {}),
        ...(body.azure_blob ? { azureBlob: azureSettingsPatch(body.azure_blob) } : {}),
        ...(body.credentials ? { credentials: credentials(body.credentials) } : {}),
      };
      return c.json(await deps.storageTargets.update(projectId(c), c.req.valid('param').id, patch), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      summary: 'Remove a storage target',
      description: 'Ability: `manage`. What was written to the bucket or container stays there.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById64 },
      responses: { 204: { description: 'Removed' }, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      await deps.storageTargets.remove(projectId(c), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/sync',
      summary: 'Sync a release to the target now',
      description: 'Ability: `manage`. Queues a sync of the latest release (or `release`), which uploads only what differs from what the target holds.',
      middleware: [requireAbility('manage')] as const,
      request: {
        params: ById64,
        body: { required: false, content: { 'application/json': { schema: z.object({ release: z.number().int().min(1).optional() }).strict().openapi('StorageSyncInput') } } },
      },
      responses: {
        202: json('Queued', Sync),
        ...conflict('No release yet'),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const body = (c.req.valid('json') as { release?: number } | undefined) ?? {};
      return c.json(await deps.storageTargets.syncNow(projectId(c), c.req.valid('param').id, body.release), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}/syncs',
      summary: "The target's syncs, newest first, each with its log",
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById64, query: z.object({ cursor: z.string().optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }) },
      responses: { 200: json('A page', pageOf(Sync)), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await deps.storageTargets.syncs(projectId(c), c.req.valid('param').id, pageQuery(q)), 200);
    },
  );

  return app;
}
