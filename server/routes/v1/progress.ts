/** GET /v1/progress: per target locale, how many keys are translated, held for review, flagged and missing. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { problemResponses } from './schemas.js';
import { json, projectId } from './route-shapes.js';

const LocaleProgress = z
  .object({
    locale: z.string(),
    keys: z.number().int().openapi({ description: 'Active, translatable keys of the project.' }),
    translated: z.number().int().openapi({ description: 'Translated by a machine or a person (accepted, approved, human): `machine` plus `human`.' }),
    machine: z.number().int().openapi({ description: 'Of `translated`: written by a provider or the translation memory and accepted by the gates.' }),
    human: z.number().int().openapi({ description: 'Of `translated`: written or approved by a person; machine passes never overwrite these.' }),
    held: z.number().int().openapi({ description: 'A refused translation waits for review.' }),
    flagged: z.number().int().openapi({ description: 'Written, but over its length budget.' }),
    missing: z.number().int(),
  })
  .openapi('LocaleProgress');

export function progressRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'Translation progress per locale',
      description: 'Ability: `read`. The four counts of a locale add up to `keys`.',
      middleware: [requireAbility('read')] as const,
      responses: { 200: json('Progress', z.object({ keys: z.number().int(), locales: z.array(LocaleProgress) }).openapi('Progress')), ...problemResponses },
    }),
    async (c) => c.json(await deps.keyStates.progress(projectId(c)), 200),
  );
  return app;
}
