/** POST /v1/qa/run: the four quality gates over stored or proposed translations. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { localeParam } from './locale-params.js';
import { GateFailure, RepoPathParam, problemResponses } from './schemas.js';
import { json, projectId } from './route-shapes.js';
import { PluralInput } from './push.js';

const QaRequest = z
  .object({
    locales: z.array(z.string()).min(1).optional().openapi({ description: 'Check the stored translations of these locales; default: every target locale. Ignored with `rows`.' }),
    keys: z.array(z.string()).min(1).max(100_000).optional().openapi({ description: 'Only these keys.' }),
    path: RepoPathParam.optional().openapi({ description: 'Only keys of this source file.' }),
    rows: z
      .array(
        z
          .object({
            key: z.string().min(1),
            locale: z.string().min(1),
            path: RepoPathParam.optional(),
            text: z.string().max(100_000).optional().openapi({ description: 'A proposed translation to check instead of the stored one.' }),
            plurals: PluralInput.optional(),
          })
          .strict(),
      )
      .min(1)
      .max(10_000)
      .optional()
      .openapi({ description: 'Check these rows only: the stored translation, or the given `text`/`plurals`.' }),
    include_passed: z.boolean().optional().openapi({ description: 'List passed rows in `items` too; default false (counts only).' }),
  })
  .strict()
  .openapi('QaRunRequest');

const QaRun = z
  .object({
    id: z.string(),
    checked: z.number().int(),
    passed: z.number().int(),
    flagged: z.number().int(),
    refused: z.number().int(),
    not_checked: z.array(z.object({ key: z.string(), path: z.string().nullable(), locale: z.string(), reason: z.string() })),
    items: z.array(
      z.object({
        key: z.string(),
        path: z.string(),
        locale: z.string(),
        checked: z.enum(['stored', 'given']),
        outcome: z.enum(['passed', 'flagged', 'refused']),
        failures: z.array(GateFailure),
      }),
    ),
    created_at: z.string(),
  })
  .openapi('QaRun');

export function qaRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'post',
      path: '/run',
      summary: 'Run the quality gates',
      description:
        'Ability: `read`. Runs placeholders, plurals, glossary and length over a whole locale, some keys, or given rows (e.g. after human edits or a glossary change) and returns the per-row outcome. Nothing is changed; the run is recorded.',
      middleware: [requireAbility('read')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: QaRequest } } } },
      responses: { 200: json('The outcome of the run', QaRun), ...problemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const result = await deps.qa.run(projectId(c), {
        ...body,
        ...(body.locales ? { locales: body.locales.map(localeParam) } : {}),
        ...(body.rows ? { rows: body.rows.map((r) => ({ ...r, locale: localeParam(r.locale) })) } : {}),
      });
      return c.json(result, 200);
    },
  );
  return app;
}
