/** /v1/webhooks: subscriptions, secret rotation, test deliveries and the delivery log. Ability `manage`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { EVENT_TYPES } from '../../webhooks/events.js';
import { Pagination, notFoundResponse, problemResponses } from './schemas.js';
import { ById, conflict, json, pageOf, pageQuery, projectId } from './route-shapes.js';

const EventType = z.enum(EVENT_TYPES).openapi('EventType');

const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()).openapi({ description: 'Event kinds sent; empty: every kind.' }),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().openapi({ description: 'Why the service disabled it (410 Gone, failing for days), or that it was disabled through the API.' }),
    disabled_at: z.string().nullable(),
    failing_since: z.string().nullable().openapi({ description: 'First failed delivery since the last success.' }),
    previous_secret_expires_at: z.string().nullable().openapi({ description: 'Until then, deliveries are signed with the previous secret too.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Webhook');

const WithSecret = Webhook.extend({ secret: z.string().openapi({ description: 'The signing secret (`whsec_…`). Shown only here.' }) }).openapi('WebhookWithSecret');

const Delivery = z
  .object({
    id: z.string().openapi({ description: 'Sent as `webhook-id`; the same on redelivery.' }),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        started_at: z.string(),
        status: z.number().int().nullable(),
        latency_ms: z.number().int(),
        response: z.string().nullable().openapi({ description: 'The first 2 KiB of the response body.' }),
        error: z.string().nullable(),
      }),
    ),
    next_attempt_at: z.string().nullable(),
    last_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .openapi('WebhookDelivery');

const Input = z
  .object({
    url: z.url().max(2000).openapi({ description: 'http(s) URL. Private, loopback and link-local addresses are refused unless the operator allows them.' }),
    events: z.array(z.string()).max(12).optional().openapi({ description: 'Event kinds to send; omitted or empty: all 12.' }),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();


export function webhooksRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Subscribe a URL to events',
      description: 'Ability: `manage`. The response holds the signing secret, shown only this once.',
      middleware: [requireAbility('manage')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: Input.openapi('WebhookInput') } } } },
      responses: { 201: json('Created', WithSecret), ...problemResponses },
    }),
    async (c) => c.json(await deps.webhooks.create(projectId(c), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'List webhooks, newest first',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { query: Pagination },
      responses: { 200: json('A page', pageOf(Webhook)), ...problemResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await deps.webhooks.list(projectId(c), pageQuery(q)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      summary: 'One webhook',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { 200: json('The webhook', Webhook), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.webhooks.get(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      summary: 'Change a webhook (URL, events, description, enabled)',
      description: 'Ability: `manage`. Enabling a webhook the service disabled clears the reason and the failure streak.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById, body: { required: true, content: { 'application/json': { schema: Input.partial().openapi('WebhookPatch') } } } },
      responses: { 200: json('Changed', Webhook), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.webhooks.update(projectId(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      summary: 'Delete a webhook and its delivery log',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { 200: json('Deleted', Webhook), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.webhooks.remove(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/rotate-secret',
      summary: 'Rotate the signing secret',
      description: 'Ability: `manage`. Returns the new secret once. For 24 hours deliveries carry two signatures, old and new, so receivers can switch without a gap.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { 200: json('Rotated', WithSecret), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.webhooks.rotateSecret(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/test',
      summary: 'Send a test delivery now',
      description: "Ability: `manage`. Sends the catalog example of `type` (default `batch.completed`) with a new id and this project, and returns the delivery with its first attempt. A failure is retried on the normal schedule.",
      middleware: [requireAbility('manage')] as const,
      request: { params: ById, body: { required: false, content: { 'application/json': { schema: z.object({ type: EventType.optional() }).strict() } } } },
      responses: { 200: json('The delivery', Delivery), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const body = c.req.header('content-type')?.includes('application/json') ? c.req.valid('json') : {};
      return c.json(await deps.webhooks.test(projectId(c), c.req.valid('param').id, body.type), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}/deliveries',
      summary: 'Delivery log, newest first',
      description: 'Ability: `manage`. Every attempt with its status, latency and the start of the response.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById, query: Pagination.extend({ status: z.enum(['pending', 'succeeded', 'failed']).optional() }) },
      responses: { 200: json('A page', pageOf(Delivery)), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await deps.webhooks.deliveries(projectId(c), c.req.valid('param').id, { ...pageQuery(q), ...(q.status ? { status: q.status } : {}) }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/deliveries/{delivery}/redeliver',
      summary: 'Send a finished delivery again',
      description: 'Ability: `manage`. Same `webhook-id`, a fresh retry schedule.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById.extend({ delivery: z.string().min(1) }) },
      responses: { 200: json('Queued again', Delivery), ...notFoundResponse, ...conflict('Not possible in this state'), ...problemResponses },
    }),
    async (c) => {
      const { id, delivery } = c.req.valid('param');
      return c.json(await deps.webhooks.redeliver(projectId(c), id, delivery), 200);
    },
  );

  return app;
}
