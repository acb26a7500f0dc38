/** GET /v1/project and /v1/languages: the token's project, its languages, adding and removing targets. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { readAllowance } from '../../services/allowance.js';
import { translateNewLanguage } from '../../services/languages-service.js';
import { Batch, Language, notFoundResponse, problemResponses } from './schemas.js';
import { conflict, itemsOf, json, projectId } from './route-shapes.js';

const ProjectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    source_locale: z.string(),
    target_locales: z.array(z.string()),
    length_budget_percent: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Default length budget for keys without their own max length, as a percentage of the source's length (e.g. 150); null: no default budget." }),
    delivery: z
      .object({
        release_on_batch: z.boolean().openapi({ description: 'Publish a release after every completed batch.' }),
        bundle_shape: z.enum(['flat', 'nested']).openapi({ description: "The CDN's JSON bundles: flat keys (`home.title`) or nested objects." }),
        bundle_files: z.boolean().openapi({ description: "Releases also carry every source file's translations in its own format (`files/<path>`)." }),
      })
      .openapi({ description: 'Release settings; the bundle id is in GET /v1/releases.' }),
    organisation: z.object({ id: z.string(), name: z.string(), plan: z.string().openapi({ description: "The plan's name: free, starter, unlimited, or one the operator configured (PARLANCE_PLANS)." }) }),
    allowance: z.object({
      words_remaining: z.number().int(),
      words_per_month: z.number().int(),
      unlimited: z.boolean().openapi({ description: 'The plan has no word limit (an operator\'s `unlimited` plan): pushes are never refused for words, and the two numbers above are only bookkeeping.' }),
      period_start: z.string(),
      period_end: z.string(),
    }),
    created_at: z.string(),
  })
  .openapi('Project');

const ProjectPatch = z
  .object({
    length_budget_percent: z.number().int().min(10).max(1000).nullable().optional(),
    release_on_batch: z.boolean().optional(),
    bundle_shape: z.enum(['flat', 'nested']).optional(),
    bundle_files: z.boolean().optional(),
  })
  .strict()
  .openapi('ProjectPatch');

const ProjectSettings = z
  .object({ length_budget_percent: z.number().int().nullable(), release_on_batch: z.boolean(), bundle_shape: z.enum(['flat', 'nested']), bundle_files: z.boolean() })
  .openapi('ProjectSettings');

const AddedLanguage = Language.extend({
  batch: Batch.nullable().openapi({ description: 'The batch translating every existing key into the language; null when there are no keys yet or it could not be queued.' }),
  batch_problem: z
    .object({ code: z.string(), detail: z.string() })
    .nullable()
    .openapi({ description: 'Why no batch was queued although the project has keys (e.g. `allowance_exhausted`); the language is added all the same.' }),
}).openapi('AddedLanguage');

export function projectRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/project',
      summary: "The token's project",
      description: 'Ability: `read`.',
      middleware: [requireAbility('read')] as const,
      responses: { 200: json('The project', ProjectSchema), ...problemResponses },
    }),
    async (c) => {
      const auth = c.get('auth');
      const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', auth.project.id).executeTakeFirstOrThrow();
      const targets = await deps.db.selectFrom('project_languages').select('tag').where('project_id', '=', project.id).orderBy('tag').execute();
      const allowance = await readAllowance(deps.db, auth.organisation.id);
      return c.json(
        {
          id: project.id,
          name: project.name,
          source_locale: project.source_locale,
          target_locales: targets.map((t) => t.tag),
          length_budget_percent: project.length_budget_percent,
          delivery: { release_on_batch: project.release_on_batch, bundle_shape: project.bundle_shape, bundle_files: project.bundle_files },
          organisation: auth.organisation,
          allowance: {
            words_remaining: allowance.words_remaining,
            words_per_month: allowance.words_per_month,
            unlimited: allowance.unlimited,
            period_start: allowance.period_start.toISOString(),
            period_end: allowance.period_end.toISOString(),
          },
          created_at: project.created_at.toISOString(),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/project',
      summary: "Change the project's settings",
      description:
        "Ability: `manage`. `length_budget_percent` sets the length gate's budget for keys without a max length of their own (null removes it); it applies to translations made from now on and to QA runs. `release_on_batch`, `bundle_shape` and `bundle_files` shape releases from the next one on (see /v1/releases).",
      middleware: [requireAbility('manage')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: ProjectPatch } } } },
      responses: { 200: json('The changed settings', ProjectSettings), ...problemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const projectId = c.get('auth').project.id;
      const changes = {
        ...(body.length_budget_percent !== undefined ? { length_budget_percent: body.length_budget_percent } : {}),
        ...(body.release_on_batch !== undefined ? { release_on_batch: body.release_on_batch } : {}),
        ...(body.bundle_shape !== undefined ? { bundle_shape: body.bundle_shape } : {}),
        ...(body.bundle_files !== undefined ? { bundle_files: body.bundle_files } : {}),
      };
      if (Object.keys(changes).length > 0) await deps.db.updateTable('projects').set(changes).where('id', '=', projectId).execute();
      const project = await deps.db.selectFrom('projects').select(['length_budget_percent', 'release_on_batch', 'bundle_shape', 'bundle_files']).where('id', '=', projectId).executeTakeFirstOrThrow();
      return c.json(project, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/languages',
      summary: "The project's languages: the source first, then targets",
      description: 'Ability: `read`.',
      middleware: [requireAbility('read')] as const,
      responses: { 200: json('Languages', itemsOf(Language)), ...problemResponses },
    }),
    async (c) => c.json({ items: await deps.languages.list(projectId(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/languages',
      summary: 'Add a target language',
      description:
        'Ability: `manage`. The tag is validated as BCP-47 and canonicalised (`zh-hant-tw` → `zh-Hant-TW`). Every existing key is queued for translation into it at once, in one batch (`batch`; as `POST /v1/translate-missing` with this locale would), and the language is included in every later push. `batch` is null when the project has no keys yet, or when the batch could not be queued (`batch_problem`, e.g. `allowance_exhausted`: the language is added all the same; run `POST /v1/translate-missing` later). The free plan allows 15 locale rows including the source.',
      middleware: [requireAbility('manage')] as const,
      request: { body: { content: { 'application/json': { schema: z.object({ tag: z.string().openapi({ example: 'pt-BR' }) }) } }, required: true } },
      responses: { 201: json('Added, with the batch translating the existing keys into it', AddedLanguage), ...problemResponses, ...conflict('Already a language of the project') },
    }),
    async (c) => {
      const language = await deps.languages.add(projectId(c), c.req.valid('json').tag);
      return c.json({ ...language, ...(await translateNewLanguage(deps, projectId(c), language.tag)) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/languages/{tag}',
      summary: 'Remove a target language',
      description: 'Ability: `manage`. Its translations are kept, so adding the language back does not cost words again.',
      middleware: [requireAbility('manage')] as const,
      request: { params: z.object({ tag: z.string() }) },
      responses: { 200: json('Removed', Language), ...problemResponses, ...notFoundResponse },
    }),
    async (c) => c.json(await deps.languages.remove(projectId(c), c.req.valid('param').tag), 200),
  );

  return app;
}
