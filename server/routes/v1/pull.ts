/** GET /v1/pull: one locale as a file in the pushed file's shape, or a zip of every target locale. Ability `pull`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { localeParam } from './locale-params.js';
import { RepoPathParam, notFoundResponse, problemResponses } from './schemas.js';

const PullQuery = z.object({
  format: z.string().optional().openapi({ description: "Format identifier; default: the pushed file's format (`json` for keys pushed without a file)." }),
  locale: z.string().optional().openapi({ description: 'One locale; omit for a zip with one file per target locale.' }),
  path: RepoPathParam.optional().openapi({ description: 'Which source file; needed when the project has more than one. 422 `path_invalid` for a path outside the repository.' }),
  missing: z.enum(['omit', 'source']).default('omit').openapi({ description: 'Untranslated keys: left out (default) or filled with the source text.' }),
});

export function pullRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'Pull translations as a file',
      description:
        "Ability: `pull`. Renders the locale's translations into the pushed source file (same key order, nesting, indentation, comments). Pulling the source locale returns the pushed file byte for byte. Headers `x-parlance-path` and `content-disposition` name the target file.",
      middleware: [requireAbility('pull')] as const,
      request: { query: PullQuery },
      responses: {
        200: {
          description: 'The file, or a zip of all target locales',
          content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) }, 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        ...problemResponses,
        ...notFoundResponse,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const auth = c.get('auth');
      const locale = q.locale === undefined ? undefined : localeParam(q.locale);
      const file = await deps.pull.pull({
        projectId: auth.project.id,
        sourceLocale: auth.project.source_locale,
        missing: q.missing,
        ...(q.path !== undefined ? { path: q.path } : {}),
        ...(q.format !== undefined ? { format: q.format } : {}),
        ...(locale !== undefined ? { locale } : {}),
      });
      const name = file.path.split('/').pop() ?? 'translations';
      return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
        'content-type': file.contentType,
        'content-disposition': `attachment; filename="${name.replace(/"/g, '')}"`,
        'x-parlance-path': encodeURI(file.path),
        'x-parlance-format': file.format,
        ...refusalHeaders(file.refused),
      });
    },
  );

  return app;
}

/** Keys whose current translation is not in the file (a plural the format cannot express, a row held for review) are named here, so clients (the CLI exits 4) can report them. */
function refusalHeaders(refused: { key: string; reason: string }[]): Record<string, string> {
  if (refused.length === 0) return {};
  const keys = [...new Set(refused.map((r) => r.key))];
  return {
    'x-parlance-refused-count': String(keys.length),
    'x-parlance-refused-reason': [...new Set(refused.map((r) => r.reason))].join(', '),
    'x-parlance-refused-keys': keys.slice(0, 100).map(encodeURIComponent).join(','),
  };
}
