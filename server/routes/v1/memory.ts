/** /v1/memory: translation memory import and export as TMX. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ApiError } from '../../errors.js';
import { localeList } from './locale-params.js';
import { problemResponses } from './schemas.js';
import { json, projectId } from './route-shapes.js';

const ImportResult = z
  .object({
    units: z.number().int(),
    imported: z.number().int().openapi({ description: 'Translation pairs written (new or replacing an older translation of the same source).' }),
    locales: z.array(z.string()),
    skipped: z.array(z.object({ line: z.number().int(), reason: z.string() })).openapi({ description: 'The first 100 units left out, with why.' }),
    skipped_count: z.number().int(),
  })
  .openapi('TmxImportResult');

export function memoryRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/import',
      summary: 'Import a TMX file into the translation memory',
      description:
        "Ability: `write`. TMX 1.4b (or 1.1); UTF-8 or UTF-16. Units need a variant in the project's source locale; every other variant becomes a translation-memory entry that exact matches reuse without charging words.",
      middleware: [requireAbility('write')] as const,
      request: {
        body: {
          required: true,
          content: {
            'multipart/form-data': { schema: z.object({ file: z.any().openapi({ type: 'string', format: 'binary' }) }).openapi('TmxImportRequest') },
            'application/x-tmx+xml': { schema: z.string().openapi({ format: 'binary' }) },
          },
        },
      },
      responses: { 200: json('Imported', ImportResult), ...problemResponses },
    }),
    async (c) => {
      const type = c.req.header('content-type') ?? '';
      let bytes: Uint8Array;
      let name = 'upload.tmx';
      if (type.startsWith('multipart/form-data')) {
        const form = await c.req.parseBody();
        const file = form.file;
        if (!(file instanceof File)) throw new ApiError(422, 'validation_failed', "TMX import needs a 'file' part holding the TMX file.");
        bytes = new Uint8Array(await file.arrayBuffer());
        name = file.name || name;
      } else {
        bytes = new Uint8Array(await c.req.arrayBuffer());
      }
      if (bytes.length > deps.maxUploadBytes) throw new ApiError(413, 'file_too_large', `The file is ${bytes.length} bytes; the limit is ${deps.maxUploadBytes}.`);
      if (bytes.length === 0) throw new ApiError(422, 'validation_failed', 'The TMX file is empty.');
      return c.json(await deps.memory.importTmx(projectId(c), bytes, name), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/export',
      summary: 'Export the translation memory as TMX',
      description: "Ability: `read`. Every entry for the project's source locale (shared by the organisation's projects), optionally only some target locales. Plural entries are left out: TMX has no plural forms.",
      middleware: [requireAbility('read')] as const,
      request: { query: z.object({ locales: z.string().optional().openapi({ description: 'Comma-separated target locales.' }) }) },
      responses: { 200: { description: 'TMX 1.4b', content: { 'application/x-tmx+xml': { schema: z.string() } } }, ...problemResponses },
    }),
    async (c) => {
      const { locales } = c.req.valid('query');
      const wanted = localeList(locales);
      const body = await deps.memory.exportTmx(projectId(c), wanted);
      return c.body(body, 200, { 'content-type': 'application/x-tmx+xml; charset=utf-8', 'content-disposition': 'attachment; filename="memory.tmx"' });
    },
  );
  return app;
}
