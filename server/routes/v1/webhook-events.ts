/** GET /v1/webhooks/events: the catalog of webhook event kinds, each with its JSON Schema and an example delivery. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { EVENT_TYPES, eventCatalog } from '../../webhooks/events.js';
import { problemResponses } from './schemas.js';
import { itemsOf, json } from './route-shapes.js';

const WebhookEventKind = z
  .object({
    type: z.enum(EVENT_TYPES),
    description: z.string().openapi({ description: 'What triggers the event.' }),
    schema: z.record(z.string(), z.unknown()).openapi({ description: 'JSON Schema (draft 2020-12) of the whole delivered body.' }),
    example: z.record(z.string(), z.unknown()).openapi({ description: 'An example delivery body, valid against `schema`.' }),
  })
  .openapi('WebhookEventKind');

// Takes deps like every other sub-app so it mounts the same way; the catalog is static and needs none of them.
export function webhookEventsRoutes(_deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  // Built by the first request and kept: the schemas never change while the process runs, and start-up need not wait
  // for twelve JSON Schemas.
  let catalog: ReturnType<typeof eventCatalog> | undefined;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/events',
      summary: 'List webhook event kinds',
      description:
        'Ability: `read`. Every kind Parlance sends, with the JSON Schema of its delivered body (envelope `{ id, type, created_at, project, data }`) and an example. The schemas forbid fields they do not list (`additionalProperties: false`).',
      middleware: [requireAbility('read')] as const,
      responses: {
        200: json('The event kinds, in a stable order', itemsOf(WebhookEventKind).openapi('WebhookEventCatalog')),
        ...problemResponses,
      },
    }),
    (c) => c.json((catalog ??= eventCatalog()), 200),
  );

  return app;
}
