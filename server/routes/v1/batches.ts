/** /v1/batches: status with the row-by-row outcome, list, cancel, retry. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { Batch, BatchRow, BatchStatus, Pagination, notFoundResponse, problem, problemResponses } from './schemas.js';
import { ById, conflict, json, pageOf, pageQuery, projectId } from './route-shapes.js';

const BatchWithRows = Batch.extend({
  row_outcomes: pageOf(BatchRow),
}).openapi('BatchWithRows');

const wrongState = conflict('The batch is not in a state that allows this');

export function batchesRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'List batches, newest first',
      description: 'Ability: `read`.',
      middleware: [requireAbility('read')] as const,
      request: { query: Pagination.extend({ status: BatchStatus.optional() }) },
      responses: {
        200: json('A page of batches', pageOf(Batch)),
        ...problemResponses,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await deps.batches.list(projectId(c), { ...pageQuery(q), ...(q.status ? { status: q.status } : {}) }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      summary: 'One batch: status, counts, words, and the row-by-row outcome',
      description:
        'Ability: `read`. Rows are paginated with `cursor` and `limit`, and can be filtered by `outcome`. With `wait`, an open (queued or running) batch is answered once it ends or after that many seconds, whichever comes first: one request instead of polling, and the answer as soon as the batch is done.',
      middleware: [requireAbility('read')] as const,
      request: {
        params: ById,
        query: Pagination.extend({
          outcome: z.string().optional(),
          wait: z.coerce.number().int().min(0).max(60).default(0).openapi({ description: 'Seconds (0 to 60) to hold the answer while the batch is queued or running; 0 answers at once.' }),
        }),
      },
      responses: { 200: json('The batch', BatchWithRows), ...problemResponses, ...notFoundResponse },
    }),
    async (c) => {
      const project = projectId(c);
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      if (q.wait > 0) await deps.batches.waitUntilSettled(project, id, q.wait * 1000, c.req.raw.signal);
      const batch = await deps.batches.get(project, id);
      const rows = await deps.batches.rows(project, id, { ...pageQuery(q), ...(q.outcome ? { outcome: q.outcome } : {}) });
      return c.json({ ...batch, row_outcomes: rows }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/cancel',
      summary: 'Cancel a queued or running batch',
      description: 'Ability: `push`. Rows not yet written are cancelled and their words return to the allowance.',
      middleware: [requireAbility('push')] as const,
      request: { params: ById },
      responses: { 200: json('Cancelled', Batch), ...problemResponses, ...notFoundResponse, ...wrongState },
    }),
    async (c) => c.json(await deps.batches.cancel(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/retry',
      summary: "Re-queue a failed batch's failed rows",
      description: 'Ability: `push`. Only the failed rows are queued and charged; rows already translated are not charged twice.',
      middleware: [requireAbility('push')] as const,
      request: { params: ById },
      responses: {
        202: json('Re-queued', Batch),
        402: problem('Not enough words left'),
        ...problemResponses,
        ...notFoundResponse,
        ...wrongState,
      },
    }),
    async (c) => c.json(await deps.batches.retry(projectId(c), c.req.valid('param').id), 202),
  );

  return app;
}
