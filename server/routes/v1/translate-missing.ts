/** POST /v1/translate-missing: one batch for every key without a current translation in the given locales. Ability `push`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { localeList } from './locale-params.js';
import { Batch, RepoPathParam, problem, problemResponses } from './schemas.js';
import { json, projectId } from './route-shapes.js';

const TranslateMissingRequest = z
  .object({
    locales: z.array(z.string().min(1)).min(1).optional().openapi({ description: "Target locales; default: all of the project's languages." }),
    paths: z.array(RepoPathParam).min(1).optional().openapi({ description: 'Source files to cover; default: every file (and keys pushed without one).' }),
    retranslate_machine: z.boolean().optional().openapi({
      description:
        "Default false. Also re-translate keys whose current translation a machine made and no one reviewed (accepted or flagged), e.g. after a change of model or style guide (PATCH /v1/project/translation). A person's translations and approved ones are never queued.",
    }),
  })
  .strict()
  .openapi('TranslateMissingRequest');

export function translateMissingRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Queue a batch for every key without a current translation',
      description:
        'Ability: `push`. Covers active translatable keys whose translation in a locale is missing or stale (a held candidate or a queued row counts as covered); with `retranslate_machine`, also those whose translation a machine made and no one reviewed. Only those rows are queued and charged; calling again before they finish queues nothing.',
      middleware: [requireAbility('push')] as const,
      request: { body: { content: { 'application/json': { schema: TranslateMissingRequest } }, required: false } },
      responses: {
        202: json('Batch queued (or completed at once when nothing was missing)', Batch),
        402: problem('Not enough words left in the allowance; nothing was queued'),
        ...problemResponses,
      },
    }),
    async (c) => {
      // The body is optional: an absent one means every locale and every file.
      const body = (c.req.valid('json') as z.infer<typeof TranslateMissingRequest> | undefined) ?? {};
      const locales = localeList(body.locales);
      const batch = await deps.push.translateMissing({
        projectId: projectId(c),
        ...(locales ? { locales } : {}),
        ...(body.paths ? { paths: body.paths } : {}),
        retranslateMachine: body.retranslate_machine === true,
      });
      return c.json(batch, 202);
    },
  );

  return app;
}
