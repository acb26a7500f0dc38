/** /v1/keys: the keys with their state in one locale (the console's grid), and per-key settings such as the pass. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ApiError, notFound } from '../../errors.js';
import { KEY_STATES } from '../../services/key-states-service.js';
import { localeParam } from './locale-params.js';
import { Batch, GateFailure, RepoPathParam, notFoundResponse, problemResponses } from './schemas.js';
import { json, pageOf } from './route-shapes.js';

const Plurals = z.record(z.string(), z.string()).nullable();
const KeyRow = z
  .object({
    key: z.string(),
    path: z.string(),
    line: z.number().int().nullable(),
    source: z.string(),
    source_plurals: Plurals,
    notes: z.string().nullable(),
    context: z.string().nullable(),
    max_length: z.number().int().nullable(),
    pass: z.enum(['fast', 'careful']),
    tags: z.array(z.string()).openapi({ description: 'Tags the key brought from another platform (imports).' }),
    locale: z.string(),
    state: z.enum(KEY_STATES).openapi({
      description: '`held`: a refused translation waits for review; `flagged`: written, over its length budget; `human`: written or approved by a person; `machine`: written by a provider or memory; `missing`: none yet.',
    }),
    translation: z
      .object({ text: z.string(), plurals: Plurals, state: z.string(), origin: z.string(), failures: z.array(GateFailure), updated_at: z.string() })
      .nullable()
      .openapi({ description: 'The written translation, as pull serves it.' }),
    held: z.object({ text: z.string(), plurals: Plurals, failures: z.array(GateFailure), created_at: z.string() }).nullable().openapi({ description: 'The refused candidate waiting for review.' }),
  })
  .openapi('KeyRow');

export function keysRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'Keys with their state in one locale',
      description:
        'Ability: `read`. A page of active keys (in key creation order) with the translation in `locale` and any held candidate, filtered by `state`, by `q` (case-insensitive, in the key, the source or the translation) and by source file `path`. `total` counts every match.',
      middleware: [requireAbility('read')] as const,
      request: {
        query: z.object({
          locale: z.string().min(1).openapi({ description: 'A target locale of the project.' }),
          state: z.enum(KEY_STATES).optional(),
          q: z.string().max(200).optional(),
          path: RepoPathParam.optional(),
          cursor: z.string().optional().openapi({ description: 'The `next_cursor` of the previous page.' }),
          limit: z.coerce.number().int().min(1).max(500).default(50),
        }),
      },
      responses: {
        200: json('One page', pageOf(KeyRow).extend({ total: z.number().int() }).openapi('KeyPage')),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const projectId = c.get('auth').project.id;
      const q = c.req.valid('query');
      const locale = localeParam(q.locale);
      const target = await deps.db.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).where('tag', '=', locale).executeTakeFirst();
      if (!target) throw notFound('locale_not_in_project', `Locale '${locale}' is not a target language of this project.`);
      return c.json(await deps.keyStates.page(projectId, { ...q, locale }), 200);
    },
  );

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
        query: z.object({ path: RepoPathParam.optional().openapi({ description: 'The source file, when the same key exists in several.' }) }),
        body: { required: true, content: { 'application/json': { schema: z.object({ pass: z.enum(['fast', 'careful']) }).strict().openapi('KeyPatch') } } },
      },
      responses: {
        200: json('Changed; `batch` is the batch queued for it, or null when the pass was already set', z.object({ key: z.string(), path: z.string(), pass: z.enum(['fast', 'careful']), batch: Batch.nullable() })),
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
