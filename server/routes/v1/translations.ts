/** /v1/translations: review of translation rows (held, flagged...), human edits, approve and reject. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { REVIEW_STATES } from '../../services/quality/translations-service.js';
import { localeParam } from './locale-params.js';
import { GateFailure, Pagination, RepoPathParam, notFoundResponse, problemResponses } from './schemas.js';
import { json, pageOf, pageQuery, projectId } from './route-shapes.js';
import { PluralInput } from './push.js';

const State = z.enum(REVIEW_STATES as [string, ...string[]]).openapi('TranslationState', {
  description:
    '`held`: refused by the gates after the corrective retry, not in any file; `rejected`: rejected by a reviewer, translated again on the next push; `flagged`: written but over its length budget; `accepted`: passed the gates; `approved`: approved by a reviewer; `human`: written by a person (never overwritten by a machine pass while the source is unchanged).',
});

const Plurals = z.record(z.string(), z.string()).nullable();

const Translation = z
  .object({
    key: z.string(),
    path: z.string(),
    locale: z.string(),
    state: State,
    source: z.string(),
    source_plurals: Plurals,
    text: z.string(),
    plurals: Plurals,
    origin: z.string().openapi({ description: "Provider name, 'memory', or 'human'." }),
    failures: z.array(GateFailure),
    stale: z.boolean().openapi({ description: 'A glossary change touched it: the next push translates it again.' }),
    batch_id: z.string().nullable(),
    reviewed_at: z.string().nullable(),
    updated_at: z.string(),
  })
  .openapi('Translation');

const Params = z.object({
  key: z.string().min(1).openapi({ description: 'The key, URL-encoded (`/` as `%2F`).' }),
  locale: z.string().min(1),
});
const PathQuery = z.object({ path: RepoPathParam.optional().openapi({ description: 'The source file, when the same key exists in several.' }) });

export function translationsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'List translation rows by review state',
      description: 'Ability: `read`. Without `state`, lists written translations (flagged, accepted, approved, human). Held and rejected rows are listed only while their source is unchanged.',
      middleware: [requireAbility('read')] as const,
      request: { query: Pagination.extend({ state: State.optional(), locale: z.string().optional(), path: RepoPathParam.optional(), key: z.string().optional() }) },
      responses: { 200: json('A page of rows', pageOf(Translation)), ...problemResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await deps.translations.list(projectId(c), {
        ...pageQuery(q),
        ...(q.state ? { state: q.state as (typeof REVIEW_STATES)[number] } : {}),
        ...(q.locale ? { locale: localeParam(q.locale) } : {}),
        ...(q.path !== undefined ? { path: q.path } : {}),
        ...(q.key !== undefined ? { key: q.key } : {}),
      });
      return c.json(page, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/{key}/{locale}',
      summary: 'Write a translation by hand',
      description:
        'Ability: `write`. The text goes through the four gates: a placeholder, plural or glossary failure is refused with 422 `gate_refused` and nothing is saved; a length overrun is saved with its failure. A saved human translation is protected: machine passes do not overwrite it until the source changes.',
      middleware: [requireAbility('write')] as const,
      request: {
        params: Params,
        query: PathQuery,
        body: {
          required: true,
          content: { 'application/json': { schema: z
                .object({
                  text: z.string().max(100_000).optional(),
                  plurals: PluralInput.optional(),
                  drift: z
                    .boolean()
                    .optional()
                    .openapi({ description: 'The text is a hand edit of a managed translation file being imported (the GitHub App sets this); the import also sends `source_drift.repaired`.' }),
                })
                .strict()
                .openapi('TranslationInput') } },
        },
      },
      responses: {
        200: json('Saved', z.object({ translation: Translation, gate_outcome: z.enum(['passed', 'flagged']), gate_failures: z.array(GateFailure) })),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const { key, locale: tag } = c.req.valid('param');
      const body = c.req.valid('json');
      const { path } = c.req.valid('query');
      const result = await deps.translations.put(projectId(c), {
        key,
        locale: localeParam(tag),
        ...(path !== undefined ? { path } : {}),
        ...(body.text !== undefined ? { text: body.text } : {}),
        ...(body.plurals ? { plurals: body.plurals } : {}),
        ...(body.drift ? { drift: true } : {}),
      });
      return c.json({ ...result, gate_outcome: result.gate_outcome as 'passed' | 'flagged' }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{key}/{locale}/review',
      summary: 'Approve or reject a translation or a held candidate',
      description:
        'Ability: `write`. `approve` writes a held candidate into the files (the reviewer overrules the gates) or marks a flagged or machine translation approved; approved text joins the translation memory. `reject` takes the text out of the files and the next push translates the key again.',
      middleware: [requireAbility('write')] as const,
      request: {
        params: Params,
        query: PathQuery,
        body: { required: true, content: { 'application/json': { schema: z.object({ decision: z.enum(['approve', 'reject']) }).strict().openapi('ReviewInput') } } },
      },
      responses: {
        200: json('Reviewed', z.object({ decision: z.enum(['approve', 'reject']), translation: Translation })),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => {
      const { key, locale: tag } = c.req.valid('param');
      const { path } = c.req.valid('query');
      const result = await deps.translations.review(projectId(c), { key, locale: localeParam(tag), decision: c.req.valid('json').decision, ...(path !== undefined ? { path } : {}) });
      return c.json(result, 200);
    },
  );

  return app;
}
