/** /v1/glossary: locked and forbidden terms, read by the glossary gate. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { Pagination, notFoundResponse, problemResponses } from './schemas.js';
import { ById, conflict, json, pageOf, pageQuery, projectId } from './route-shapes.js';

const Translations = z
  .record(z.string(), z.string().max(1000))
  .openapi({ description: 'Per-locale translation, e.g. `{"de": "Übersicht"}`. A locked term without an entry for a locale must stay as written (a product name).' });

const TermFields = {
  term: z.string().min(1).max(500).openapi({ description: 'The source-language term.' }),
  translations: Translations.optional(),
  case_sensitive: z.boolean().optional().openapi({ description: 'Match case exactly; default false.' }),
  forbidden: z
    .boolean()
    .optional()
    .openapi({ description: 'Default false (locked: the translation must use the term\'s translation). True: neither the term nor its translation for the locale may appear in translations.' }),
  notes: z.string().max(5000).nullable().optional(),
};

const GlossaryTerm = z
  .object({
    id: z.string(),
    term: z.string(),
    translations: z.record(z.string(), z.string()),
    case_sensitive: z.boolean(),
    forbidden: z.boolean(),
    notes: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('GlossaryTerm');

const GlossaryWrite = GlossaryTerm.extend({
  translations_marked_stale: z.number().int().openapi({ description: 'Machine translations of strings containing the term (old or new wording) that the next push translates again.' }),
}).openapi('GlossaryWriteResult');

const termExists = conflict('The term already exists');

export function glossaryRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Lock a term (or forbid one)',
      description: 'Ability: `write`. Machine translations of strings containing the term are marked stale and translated again on the next push.',
      middleware: [requireAbility('write')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: z.object(TermFields).strict().openapi('GlossaryTermInput') } } } },
      responses: { 201: json('Created', GlossaryWrite), ...termExists, ...problemResponses },
    }),
    async (c) => c.json(await deps.glossary.create(projectId(c), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'List glossary terms, newest first',
      description: 'Ability: `read`.',
      middleware: [requireAbility('read')] as const,
      request: { query: Pagination.extend({ q: z.string().max(500).optional().openapi({ description: 'Only terms containing this text (case-insensitive).' }) }) },
      responses: { 200: json('A page of terms', pageOf(GlossaryTerm)), ...problemResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await deps.glossary.list(projectId(c), { ...pageQuery(q), ...(q.q ? { q: q.q } : {}) }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      summary: 'One glossary term',
      description: 'Ability: `read`.',
      middleware: [requireAbility('read')] as const,
      request: { params: ById },
      responses: { 200: json('The term', GlossaryTerm), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.glossary.get(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/{id}',
      summary: 'Change a term',
      description: 'Ability: `write`. Fields left out stay as they are; `translations` replaces the whole map. Affected machine translations are marked stale.',
      middleware: [requireAbility('write')] as const,
      request: { params: ById, body: { required: true, content: { 'application/json': { schema: z.object(TermFields).partial().strict().openapi('GlossaryTermPatch') } } } },
      responses: { 200: json('Changed', GlossaryWrite), ...notFoundResponse, ...termExists, ...problemResponses },
    }),
    async (c) => c.json(await deps.glossary.update(projectId(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      summary: 'Delete a term',
      description: 'Ability: `write`. Affected machine translations are marked stale.',
      middleware: [requireAbility('write')] as const,
      request: { params: ById },
      responses: { 200: json('Deleted; the term as it was', GlossaryWrite), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.glossary.remove(projectId(c), c.req.valid('param').id), 200),
  );

  return app;
}
