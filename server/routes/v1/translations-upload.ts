/** POST /v1/translations/upload: an existing target file (multipart) written as human translations of one source file. Ability `write`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors.js';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { UPLOADABLE_FORMATS, createTranslationUploadService } from '../../services/translation-upload-service.js';
import { repoPath } from '../../../src/core/repo-path.js';
import { localeParam } from './locale-params.js';
import { problem, problemResponses } from './schemas.js';
import { json, projectId } from './route-shapes.js';

const UploadRequest = z
  .object({
    file: z.any().openapi({ type: 'string', format: 'binary', description: 'The target file, e.g. `locales/de/common.json`.' }),
    path: z.string().openapi({ description: 'The path of the source file it translates, as pushed (e.g. `locales/en/common.json`).' }),
    locale: z.string().openapi({ description: "The file's locale: a target language of the project (BCP-47)." }),
    format: z.string().optional().openapi({ description: "Default: the pushed source file's format." }),
    dry_run: z.enum(['true', 'false']).optional().openapi({ description: '`true`: answer what the upload would do and write nothing.' }),
    plurals: z
      .enum(['i18next', 'none'], { error: (issue) => `plurals: '${String(issue.input)}' is not a plurals mode. Expected 'i18next' or 'none'.` })
      .optional()
      .openapi({ description: 'How a json file\'s i18next plural suffixes are read, as the source file was pushed (`POST /v1/push`\'s `plurals`).' }),
  })
  .openapi('TranslationsUploadRequest');

const UploadReport = z
  .object({
    path: z.string(),
    locale: z.string(),
    dry_run: z.boolean(),
    uploaded: z.array(z.string()).openapi({ description: 'Keys whose value was new or different: written as human translations (a length overrun is kept on the row as a failure).' }),
    unchanged: z.number().int().openapi({ description: 'Values equal to what the service holds.' }),
    refused: z
      .array(z.object({ key: z.string(), reason: z.string() }))
      .openapi({
        description:
          'Values a placeholder, plural or glossary gate failed: written all the same as human translations carrying their failures (as an import writes a reviewed translation), so the file keeps them and a reviewer finds them; `GET /v1/translations?state=human` lists the failures. A value of the wrong shape (one text for a plural key, or forms for a plain one) is listed here and not written.',
      }),
    unknown_keys: z.array(z.string()).openapi({ description: 'Keys of the file the source file does not have: not written.' }),
  })
  .openapi('TranslationsUploadReport');

export function translationsUploadRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const uploads = createTranslationUploadService({ db: deps.db, archiveLimits: deps.archiveLimits });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/upload',
      summary: 'Upload an existing translation file of a source file',
      description: `Ability: \`push\` or \`write\` (a deploy token's \`parlance sync\` uploads a repository's existing translations; a translator's token can too). The file is read with the source file's codec (a gettext catalog: its \`msgstr\`, \`fuzzy\` messages left out). For each key of the pushed source file, a value the service does not hold, or holds differently, becomes a human translation (protected from machine passes while its source is unchanged, like \`PUT /v1/translations/{key}/{locale}\`), checked by the quality gates; an empty value is no translation and is skipped. One \`translation.updated\` event (origin \`human\`) names what was written. All or nothing: an error writes nothing. Formats: ${UPLOADABLE_FORMATS.join(', ')}.`,
      middleware: [requireAbility(['push', 'write'])] as const,
      request: { body: { required: true, content: { 'multipart/form-data': { schema: UploadRequest } } } },
      responses: {
        200: json('What the upload wrote (or, with `dry_run`, would write)', UploadReport),
        404: problem('`path_not_found`: no source file with this path was pushed'),
        413: problem('The request body is over `MAX_UPLOAD_BYTES` (`payload_too_large`); nothing was written.'),
        ...problemResponses,
        422: problem(
          'Validation failed; `file_unparsable` names the file, line and column (`path`, `line`, `column`); `locale_not_in_project` for a locale that is not a target language; `format_not_uploadable` for a format whose files keep the source beside the translation (XLIFF, CSV, xlsx, xcstrings, unreal_po) or key strings by position (markdown). Nothing was written.',
        ),
      },
    }),
    async (c) => {
      const form = c.req.valid('form');
      const file: unknown = form.file;
      if (!(file instanceof File)) throw new ApiError(422, 'validation_failed', "The upload needs a 'file' part holding the translation file.", { errors: [{ path: 'file', message: 'required' }] });
      const format = typeof form.format === 'string' && form.format.trim() ? form.format.trim() : undefined;
      const report = await uploads.upload({
        projectId: projectId(c),
        path: repoPath(form.path.trim()),
        locale: localeParam(form.locale),
        content: new Uint8Array(await file.arrayBuffer()),
        ...(format ? { format } : {}),
        dryRun: form.dry_run === 'true',
        ...(form.plurals ? { plurals: form.plurals } : {}),
      });
      return c.json(report, 200);
    },
  );

  return app;
}
