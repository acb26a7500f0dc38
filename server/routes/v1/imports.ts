/** /v1/imports: bring a project across from Crowdin, Lokalise, Phrase, Transifex, Tolgee or POEditor. Ability `manage`; never charges words. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ApiError } from '../../errors.js';
import { PLATFORMS } from '../../imports/import-model.js';
import type { ImportInput } from '../../imports/import-service.js';
import type { ImportOptions } from '../../imports/import-writer.js';
import { notFoundResponse, problem, problemResponses } from './schemas.js';
import { ById64, conflict, json, pageOf, pageQuery, projectId } from './route-shapes.js';

const Platform = z.enum(PLATFORMS).openapi('ImportPlatform');

const Options = z
  .object({
    conflict: z
      .enum(['keep_human', 'overwrite'])
      .default('keep_human')
      .openapi({ description: '`keep_human`: translations a person wrote or approved in Parlance stay, machine ones are overwritten; `overwrite`: the platform wins everywhere.' }),
    unreviewed: z.enum(['accept', 'hold']).default('accept').openapi({ description: 'Translations not reviewed on the platform: accepted machine translations, or held for review.' }),
    dry_run: z.boolean().default(false).openapi({ description: 'Read everything and report what would change, writing nothing.' }),
  })
  .strict()
  .openapi('ImportOptions');

const ApiImport = z
  .object({
    platform: Platform,
    api: z
      .object({
        token: z.string().min(1).max(4096).openapi({ description: "The platform's API token; used for this import only and forgotten when it ends." }),
        project: z.string().min(1).max(200).openapi({ description: "The platform's project id (Transifex: `o:<org>:p:<project>`)." }),
        base_url: z.url().max(2000).optional().openapi({ description: 'Another API address: a self-hosted Tolgee, an enterprise Crowdin domain. A public address unless the operator allows private ones (OUTBOUND_ALLOW_PRIVATE_ADDRESSES): 422 `address_refused` otherwise.' }),
      })
      .strict(),
    options: Options.default({ conflict: 'keep_human', unreviewed: 'accept', dry_run: false }),
  })
  .strict()
  .openapi('ApiImportInput');

const Tally = z.object({
  keys: z.number().int().openapi({ description: "The project's active keys with a translation in this locale once the import completed (in a dry run: the translations it would import, plus kept ones)." }),
  translations: z.number().int().openapi({ description: 'Translations imported: human + machine + held + flagged.' }),
  human: z.number().int().openapi({ description: 'Reviewed on the platform: imported as human translations, protected from machine passes, also when a gate failed (the failure is on the row and in `gate_failures`).' }),
  machine: z.number().int(),
  held: z.number().int(),
  flagged: z.number().int().openapi({ description: 'Not reviewed on the platform, and a gate failed: imported flagged for review.' }),
  kept: z.number().int().openapi({ description: 'A translation a person wrote or approved in Parlance, left as it was (conflict `keep_human`).' }),
  memory: z.number().int().openapi({ description: 'Translation memory units into this locale.' }),
  glossary: z.number().int().openapi({ description: 'Glossary terms imported with a translation into this locale.' }),
});

const Import = z
  .object({
    id: z.string(),
    platform: Platform,
    source: z.enum(['api', 'archive']),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    options: z.object({ conflict: z.string(), unreviewed: z.string(), dry_run: z.boolean() }),
    archive_name: z.string().nullable(),
    progress: z.object({ message: z.string().optional(), done: z.number().optional(), total: z.number().optional() }),
    report: z
      .object({
        keys: z.object({ added: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }),
        locales: z.record(z.string(), Tally).openapi({ description: 'Per locale: keys, translations (as human, machine, held, flagged; kept ones left as they were), memory units and glossary terms.' }),
        locale_mappings: z.record(z.string(), z.string()).openapi({ description: "Platform tags that needed mapping to BCP-47, e.g. `pt_BR` → `pt-BR`." }),
        languages_added: z.array(z.string()),
        locales_refused: z.array(z.string()).openapi({ description: "The platform's locales whose translations were left out: the plan had no room for another language, or the project lacks it. A resumed import leaves out the same ones." }),
        memory_units: z.number().int(),
        glossary_terms: z.object({ added: z.number().int(), updated: z.number().int() }),
        gate_failures: z.array(
          z.object({ key: z.string(), path: z.string(), locale: z.string(), gate: z.string(), reason: z.string(), state: z.enum(['human', 'flagged', 'held']).optional().openapi({ description: 'How the translation was imported: `human` (reviewed on the platform, protected, the failure on the row), `flagged` or `held`.' }) }),
        ),
        gate_failures_count: z.number().int(),
        warnings: z.array(z.object({ message: z.string(), ref: z.string().optional() })),
        warnings_count: z.number().int(),
        refused_paths: z
          .array(
            z.object({
              path: z.string().openapi({ description: 'The file path or archive entry name as the platform gave it, control characters escaped (`\\u0000`).' }),
              problem: z.string().openapi({ description: 'What breaks the repository path rule, as a 422 `path_invalid` problem names it: `dot_segment`, `absolute`, `backslash`, `control_character`, `drive_letter`, `empty_segment`, `empty`, `too_long`.' }),
              message: z.string().openapi({ example: "Skipped '../../evil.json' (an entry of crowdin-export.zip): '..' segments are not allowed." }),
            }),
          )
          .openapi({ description: 'Files the import skipped, the rest going on, because their path is not a relative path inside the repository (the rule push and pull apply): an archive entry or a file the platform names `../x.json`, `/etc/x.json`, `de\\x.json` or with a control character. Nothing with such a path is stored. The first 200, once per path.' }),
        refused_paths_count: z.number().int(),
      })
      .passthrough(),
    error: z.string().nullable(),
    attempts: z.number().int(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('Import');

/** An export is a zip, or one text file (TMX, XLIFF, JSON, CSV) in UTF-8, or in UTF-16 with its byte order mark. */
function isExport(bytes: Uint8Array): boolean {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return true;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export function importsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Import a project from another platform',
      description:
        "Ability: `manage`. From the platform's API (JSON: `platform`, `api: {token, project}`) or from its export (multipart: `platform`, `file`, and optionally `options` as JSON). Runs as a job: follow it with GET /v1/imports/{id}. Never charges words. Running the same import again changes nothing that did not change on the platform.",
      middleware: [requireAbility('manage')] as const,
      request: {
        body: {
          // Not `required`: with it, a JSON body is also held to the multipart schema and the reverse.
          required: false,
          content: {
            'application/json': { schema: ApiImport },
            'multipart/form-data': {
              schema: z
                .object({ platform: Platform, file: z.any().openapi({ type: 'string', format: 'binary' }), options: z.string().optional().openapi({ description: 'ImportOptions as JSON.' }) })
                .openapi('ArchiveImportInput'),
            },
          },
        },
      },
      responses: {
        202: json('Queued', Import),
        503: problem('PARLANCE_SECRET_KEY is not set (API imports)'),
        ...problemResponses,
      },
    }),
    async (c) => {
      const type = c.req.header('content-type') ?? '';
      const toOptions = (o: z.infer<typeof Options>): ImportOptions => ({ conflict: o.conflict, unreviewed: o.unreviewed, dryRun: o.dry_run });
      let input: ImportInput;
      if (type.startsWith('multipart/form-data')) {
        const form = await c.req.parseBody();
        const platform = Platform.safeParse(form.platform);
        if (!platform.success) throw new ApiError(422, 'validation_failed', `Invalid request: platform: expected one of ${PLATFORMS.join(', ')}, got '${String(form.platform ?? '')}'.`);
        const file = form.file;
        if (!(file instanceof File)) throw new ApiError(422, 'validation_failed', "An import from an export needs a 'file' part holding the platform's export (zip, TMX, XLIFF, …).");
        const bytes = new Uint8Array(await file.arrayBuffer());
        if (bytes.length === 0) throw new ApiError(422, 'validation_failed', `${file.name || 'The file'} is empty.`);
        if (bytes.length > deps.maxUploadBytes) throw new ApiError(413, 'payload_too_large', `The file is ${bytes.length} bytes; the limit is ${deps.maxUploadBytes} (MAX_UPLOAD_BYTES).`);
        if (!isExport(bytes)) {
          throw new ApiError(422, 'file_unparsable', `${file.name || 'The file'} is neither a zip archive nor a UTF-8 text file (TMX, XLIFF, JSON, CSV…): upload the platform's export as it gave it.`);
        }
        let rawOptions: unknown = {};
        if (typeof form.options === 'string' && form.options.trim() !== '') {
          try {
            rawOptions = JSON.parse(form.options);
          } catch {
            throw new ApiError(422, 'validation_failed', "Invalid request: options: expected JSON such as '{\"unreviewed\":\"hold\"}'.");
          }
        }
        const options = Options.safeParse(rawOptions);
        if (!options.success) throw new ApiError(422, 'validation_failed', `Invalid request: options: ${options.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`).join('; ')}`);
        input = { platform: platform.data, source: 'archive', archive: bytes, archiveName: file.name || 'export.zip', options: toOptions(options.data) };
      } else {
        const body = type.startsWith('application/json') ? (c.req.valid('json') as z.infer<typeof ApiImport> | undefined) : undefined;
        if (!body?.api) throw new ApiError(415, 'unsupported_media_type', "Send JSON (an import through the platform's API) or multipart/form-data (an import from its export).");
        input = { platform: body.platform, source: 'api', api: { token: body.api.token, project: body.api.project, ...(body.api.base_url ? { baseUrl: body.api.base_url } : {}) }, options: toOptions(body.options) };
      }
      return c.json(await deps.imports.create(projectId(c), input), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'List imports, newest first',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { query: z.object({ cursor: z.string().optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }) },
      responses: { 200: json('A page', pageOf(Import)), ...problemResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await deps.imports.list(projectId(c), pageQuery(q)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      summary: 'One import: its progress and report',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById64 },
      responses: { 200: json('The import', Import), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.imports.get(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/cancel',
      summary: 'Cancel an import',
      description: 'Ability: `manage`. What was written so far stays; running the import again later continues idempotently.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById64 },
      responses: {
        200: json('Cancelled', Import),
        ...conflict('Already finished'),
        ...notFoundResponse,
        ...problemResponses,
      },
    }),
    async (c) => c.json(await deps.imports.cancel(projectId(c), c.req.valid('param').id), 200),
  );

  return app;
}
