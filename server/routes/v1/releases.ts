/** /v1/releases: publishing releases of the project's translations for the CDN and storage targets, listing them, rotating the bundle id. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ApiError } from '../../errors.js';
import { notFoundResponse, problemResponses } from './schemas.js';
import { ById64, conflict, json, projectId } from './route-shapes.js';

const Release = z
  .object({
    id: z.string(),
    number: z.number().int().openapi({ description: 'Numbered from 1 per project; `/cdn/{bundle_id}/{number}/…` never changes.' }),
    content_hash: z.string().openapi({ description: "SHA-256 over the release's objects: equal for equal content." }),
    shape: z.enum(['flat', 'nested']),
    includes_files: z.boolean().openapi({ description: "Whether the release carries each source file's translations in its own format too." }),
    trigger: z.enum(['api', 'batch']),
    batch_id: z.string().nullable(),
    created_at: z.string(),
    locales: z.array(z.object({ locale: z.string(), keys: z.number().int(), bytes: z.number().int(), sha256: z.string(), path: z.string().openapi({ description: 'The CDN path of the JSON bundle.' }) })),
    files: z.array(
      z.object({ path: z.string(), source_path: z.string().nullable(), locale: z.string(), format: z.string(), keys: z.number().int(), bytes: z.number().int(), sha256: z.string(), url: z.string() }),
    ),
    manifest: z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() }).nullable(),
  })
  .openapi('Release');

const PublishInput = z
  .object({
    locales: z
      .array(z.string().min(1).max(64))
      .max(1000)
      .optional()
      .openapi({ description: "Locales to include; omitted or empty: the source locale and every target locale. Each must be a language of the project." }),
  })
  .strict()
  .openapi('ReleaseInput');

export function releasesRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Publish a release',
      description:
        "Ability: `manage`. Snapshots the project's accepted translations (flagged rows included, rows held for review never) as the next numbered release, served at `/cdn/{bundle_id}/{number}/{locale}.json` and `/cdn/{bundle_id}/latest/…`, and queues a sync to every enabled storage target. When nothing changed since the latest release, answers 200 with that release and `created: false` instead of numbering a new one.",
      middleware: [requireAbility('manage')] as const,
      request: { body: { required: false, content: { 'application/json': { schema: PublishInput } } } },
      responses: {
        201: json('Published', z.object({ created: z.literal(true), release: Release })),
        200: json('Nothing changed: the latest release', z.object({ created: z.literal(false), release: Release })),
        ...conflict('Nothing pushed yet'),
        ...problemResponses,
      },
    }),
    async (c) => {
      const body = (c.req.valid('json') as z.infer<typeof PublishInput> | undefined) ?? {};
      const { release, created } = await deps.releases.publish(projectId(c), { trigger: 'api', ...(body.locales ? { locales: body.locales } : {}) });
      return created ? c.json({ created: true as const, release }, 201) : c.json({ created: false as const, release }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'List releases, newest first, with the bundle id',
      description: 'Ability: `read`. `bundle_id` is the secret segment of every CDN address of this project; rotate it with POST /v1/releases/rotate-bundle-id.',
      middleware: [requireAbility('read')] as const,
      request: {
        query: z.object({
          cursor: z.string().regex(/^[1-9][0-9]{0,8}$/).optional().openapi({ description: 'The `next_cursor` of the previous page.' }),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
      },
      responses: {
        200: json('A page', z.object({ bundle_id: z.string(), items: z.array(Release), next_cursor: z.string().nullable() })),
        ...problemResponses,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await deps.releases.list(projectId(c), { limit: q.limit, ...(q.cursor ? { cursor: Number(q.cursor) } : {}) }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/rotate-bundle-id',
      summary: 'Replace the bundle id',
      description: 'Ability: `manage`. Every CDN address with the old bundle id answers 404 from now on (caches may keep what they hold until it expires); the releases stay and are served under the new id.',
      middleware: [requireAbility('manage')] as const,
      responses: { 200: json('The new bundle id', z.object({ bundle_id: z.string() })), ...problemResponses },
    }),
    async (c) => c.json(await deps.releases.rotateBundleId(projectId(c)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      summary: 'One release',
      description: 'Ability: `read`. `id` is a release id (`rel_…`), a release number, or `latest`.',
      middleware: [requireAbility('read')] as const,
      request: { params: ById64 },
      responses: { 200: json('The release', Release), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      if (!/^(latest|[1-9][0-9]{0,8}|rel_[0-9a-z]{26})$/.test(id)) throw new ApiError(404, 'release_not_found', `No release '${id}' in this project. Expected a release id (rel_…), a number or 'latest'.`);
      return c.json(await deps.releases.get(projectId(c), id), 200);
    },
  );

  return app;
}
