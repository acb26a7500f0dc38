/** GET /v1/files: the source files the service holds, with the SHA-256 of the bytes last pushed, so clients push only what changed. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { RepoPathError, repoPathProblem } from '../../../src/core/repo-path.js';
import { problemResponses } from './schemas.js';
import { itemsOf, json } from './route-shapes.js';

const SourceFile = z
  .object({
    path: z.string(),
    format: z.string(),
    sha256: z.string().openapi({ description: 'SHA-256 (hex) of the file as last pushed.' }),
    keys: z.number().int().openapi({ description: 'Active keys of the file.' }),
    updated_at: z.string(),
    path_invalid: z.string().nullable().openapi({
      description:
        'Null for a good path. For a path stored before the repository path rule existed (`../x.json`, say): why it fails the rule. Pull refuses such a file with 422 `path_invalid`; push it again under a good path.',
    }),
  })
  .openapi('SourceFile');

export function filesRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'Source files pushed to this project',
      description: 'Ability: `read`. One entry per pushed file path, ordered by path; a client compares `sha256` with its local file to skip unchanged files. A file an import recorded (`POST /v1/imports`) is listed with its format and the SHA-256 of no bytes until a push sends the file itself.',
      middleware: [requireAbility('read')] as const,
      responses: { 200: json('The files', itemsOf(SourceFile)), ...problemResponses },
    }),
    async (c) => {
      const projectId = c.get('auth').project.id;
      const rows = await deps.db
        .selectFrom('source_files as f')
        .select((eb) => [
          'f.path',
          'f.format',
          'f.content_sha256',
          'f.updated_at',
          eb
            .selectFrom('keys as k')
            .select((k) => k.fn.countAll<string>().as('n'))
            .whereRef('k.project_id', '=', 'f.project_id')
            .whereRef('k.path', '=', 'f.path')
            .where('k.state', '=', 'active')
            .as('keys'),
        ])
        .where('f.project_id', '=', projectId)
        .orderBy('f.path')
        .execute();
      const items = rows.map((r) => {
        const problem = repoPathProblem(r.path);
        return {
          path: r.path,
          format: r.format,
          sha256: r.content_sha256,
          keys: Number(r.keys ?? 0),
          updated_at: r.updated_at.toISOString(),
          path_invalid: problem ? new RepoPathError(r.path, problem.problem, problem.reason).message : null,
        };
      });
      return c.json({ items }, 200);
    },
  );
  return app;
}
