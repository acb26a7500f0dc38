/** PATCH /v1/keys/:key: per-key settings that are not in the source file, such as the translation pass. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ApiError, notFound } from '../../errors.js';
import { Batch, notFoundResponse, problemResponses } from './schemas.js';

export function keysRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'patch',
      path: '/{key}',
      summary: "Change a key's translation pass",
      description:
        'Ability: `write`. `pass: careful` sends the key through the careful pass (an LLM with context: notes, neighbouring keys, glossary, translation memory, length budget). A change queues the key again in every target locale, like a push; later file pushes keep the flag.',
      middleware: [requireAbility('write')] as const,
      request: {
        params: z.object({ key: z.string().min(1).openapi({ description: 'The key, URL-encoded.' }) }),
        query: z.object({ path: z.string().optional().openapi({ description: 'The source file, when the same key exists in several.' }) }),
        body: { required: true, content: { 'application/json': { schema: z.object({ pass: z.enum(['fast', 'careful']) }).strict().openapi('KeyPatch') } } },
      },
      responses: {
        200: {
          description: 'Changed; `batch` is the batch queued for it, or null when the pass was already set',
          content: { 'application/json': { schema: z.object({ key: z.string(), path: z.string(), pass: z.enum(['fast', 'careful']), batch: Batch.nullable() }) } },
        },
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const projectId = c.get('auth').project.id;
      const { key } = c.req.valid('param');
      const { path } = c.req.valid('query');
      const { pass } = c.req.valid('json');
      let query = deps.db.selectFrom('keys').selectAll().where('project_id', '=', projectId).where('key', '=', key).where('state', '=', 'active');
      if (path !== undefined) query = query.where('path', '=', path);
      const found = await query.execute();
      if (found.length === 0) throw notFound('key_not_found', `No active key '${key}'${path !== undefined ? ` in '${path}'` : ''} in this project.`);
      if (found.length > 1) throw new ApiError(422, 'path_required', `Key '${key}' exists in ${found.length} files; choose one with ?path=: ${found.map((k) => `'${k.path}'`).join(', ')}.`);
      const k = found[0]!;
      if (k.pass === pass) return c.json({ key: k.key, path: k.path, pass, batch: null }, 200);
      // The same delta as a push of this one key with the new pass: it is re-hashed and queued in every target locale.
      const batch = await deps.push.push({
        projectId,
        path: k.path,
        format: null,
        entries: [
          {
            key: k.key,
            source: k.source,
            plurals: k.source_plurals ?? undefined,
            translatable: k.translatable,
            notes: k.notes ?? undefined,
            context: k.context ?? undefined,
            maxLength: k.max_length ?? undefined,
            line: k.line ?? undefined,
            pass,
          },
        ],
      });
      return c.json({ key: k.key, path: k.path, pass, batch }, 200);
    },
  );
  return app;
}
