/** GET /v1/progress: per target locale, how many keys are translated, held for review, flagged and missing. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { problemResponses } from './schemas.js';

const LocaleProgress = z
  .object({
    locale: z.string(),
    keys: z.number().int().openapi({ description: 'Active, translatable keys of the project.' }),
    translated: z.number().int().openapi({ description: 'Translated by a machine or a person (accepted, approved, human).' }),
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
      responses: { 200: { description: 'Progress', content: { 'application/json': { schema: z.object({ keys: z.number().int(), locales: z.array(LocaleProgress) }).openapi('Progress') } } }, ...problemResponses },
    }),
    async (c) => c.json(await deps.keyStates.progress(c.get('auth').project.id), 200),
  );
  return app;
}
