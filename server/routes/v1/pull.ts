/** GET /v1/pull: one locale as a file in the pushed file's shape, a zip of one file's target locales, or a zip of every pushed file's (with a manifest and an ETag). Ability `pull`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ARCHIVE_MANIFEST } from '../../services/pull-service.js';
import { localeList, localeParam } from './locale-params.js';
import { RepoPathParam, notFoundResponse, problemResponses } from './schemas.js';

const PullQuery = z.object({
  format: z.string().optional().openapi({ description: "Format identifier; default: the pushed file's format (`json` for keys pushed without a file)." }),
  locale: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({
      description:
        "With `path`: one locale, or omit for a zip with one file per target locale. Without `path`: the locales of the archive, repeated or comma-separated (default: every target locale); one locale answers the one source file's translation, as with `path` (see `archive`).",
    }),
  path: RepoPathParam.optional().openapi({ description: 'Which source file; omit for every pushed file (see `archive`). 422 `path_invalid` for a path outside the repository.' }),
  archive: z.enum(['true', 'false']).optional().openapi({
    description:
      'Without `path`: `true` answers the archive of every pushed file for the locales asked for. Without it, the archive is the answer when several locales are asked for, or none and the project has several source files; one locale of a project with several source files is 422 `path_required`.',
  }),
  missing: z.enum(['omit', 'source']).default('omit').openapi({ description: 'Untranslated keys: left out (default) or filled with the source text.' }),
});

const ARCHIVE_DESCRIPTION = `The archive of every pushed file: entries \`<locale>/<source path>\` (\`<locale>/(keys).json\` for keys pushed without a file) and \`${ARCHIVE_MANIFEST}\`, which lists per entry its \`path\` (the source file as pushed), \`locale\`, \`format\`, \`bytes\`, \`keys\`, the \`missing\` keys (no translation yet), the \`flagged\` keys and the \`refused\` keys with their reason (\`held_for_review\`, \`format_cannot_express_plural\`). Its strong \`ETag\` covers the manifest and every entry; \`If-None-Match\` with it answers 304 with no body.`;

export function pullRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'Pull translations as a file',
      description:
        `Ability: \`pull\`. Renders the locale's translations into the pushed source file (same key order, nesting, indentation, comments). Pulling the source locale returns the pushed file byte for byte. Headers \`x-parlance-path\` and \`content-disposition\` name the target file, \`x-parlance-refused-*\` the keys left out. ${ARCHIVE_DESCRIPTION}`,
      middleware: [requireAbility('pull')] as const,
      request: {
        query: PullQuery,
        headers: z.object({ 'if-none-match': z.string().optional().openapi({ description: "The archive's ETag from an earlier pull: 304 when nothing changed." }) }),
      },
      responses: {
        200: {
          description: "The file, a zip of one file's target locales, or the archive of every pushed file (with an `ETag`)",
          content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) }, 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        304: { description: "The archive's ETag matches `If-None-Match`: nothing changed, no body." },
        ...problemResponses,
        ...notFoundResponse,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const auth = c.get('auth');
      if (q.path === undefined) {
        const locales = localeList(q.locale);
        const single = locales === undefined || locales.length === 1;
        // `archive=true`, several locales, or several source files and no one locale: the archive. One locale without
        // `archive` answers as before: the one source file's translation, or 422 path_required naming the files.
        if (q.archive === 'true' || !single || (locales === undefined && (await deps.pull.pushedPathCount(auth.project.id)) > 1)) {
          const archive = await deps.pull.pullArchive({ projectId: auth.project.id, sourceLocale: auth.project.source_locale, missing: q.missing, ...(locales ? { locales } : {}) });
          const headers = { etag: archive.etag, 'cache-control': 'private, no-cache' };
          if (matchesEntityTag(c.req.header('if-none-match'), archive.etag)) return c.body(null, 304, headers);
          return c.body(archive.zip() as Uint8Array<ArrayBuffer>, 200, { ...headers, 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="translations.zip"' });
        }
      }
      const locale = q.locale === undefined ? undefined : localeParam(Array.isArray(q.locale) ? q.locale.join(',') : q.locale);
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

/** Whether `If-None-Match` names the tag (weak comparison, RFC 9110) or is `*`. */
function matchesEntityTag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
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
