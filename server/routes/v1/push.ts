/** POST /v1/push: a source file (multipart) or keys (JSON); queues a batch for the rows that changed. Ability `push`. */
import { parseProblem } from '../../services/parse-problem.js';
import { createHash } from 'node:crypto';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors.js';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import type { PushInput } from '../../services/push-service.js';
import { keyPatterns, type SourceEntry } from '../../services/push-fns.js';
import type { ArchiveLimits } from '../../../src/core/archive-limits.js';
import { FORMAT_IDS, type PluralForms } from '../../../src/core/formats/codec.js';
import { detectFormat, getCodec, isFormatId } from '../../../src/core/formats/index.js';
import { repoPath } from '../../../src/core/repo-path.js';
import { localeList } from './locale-params.js';
import { Batch, RepoPathParam, problem, problemResponses } from './schemas.js';
import { json } from './route-shapes.js';

export const PluralInput = z
  .object({
    zero: z.string().max(100_000).optional(),
    one: z.string().max(100_000).optional(),
    two: z.string().max(100_000).optional(),
    few: z.string().max(100_000).optional(),
    many: z.string().max(100_000).optional(),
    other: z.string().max(100_000),
  })
  .strict()
  .openapi({ description: 'Plural forms by CLDR category; `other` is required. Targets get their own categories.' });

const KeyInput = z.object({
  key: z.string().min(1).max(1000),
  source: z.string().max(100_000).optional().openapi({ description: 'The source text; for a plural key, defaults to its `other` form.' }),
  plurals: PluralInput.optional(),
  notes: z.string().max(10_000).optional(),
  context: z.string().max(1000).optional(),
  max_length: z.number().int().positive().optional(),
  pass: z.enum(['fast', 'careful']).optional().openapi({ description: 'Translation pass for this key: `fast` (default) or `careful`.' }),
});

const JsonPush = z
  .object({
    keys: z.array(KeyInput).min(1).max(100_000),
    locales: z.array(z.string()).min(1).optional().openapi({ description: "Target locales; default: all of the project's languages." }),
    path: RepoPathParam.optional().openapi({ description: "Groups the keys like a file path does; default ''. A relative path inside the repository (422 `path_invalid` otherwise)." }),
  })
  .openapi('PushKeysRequest');

const MultipartPush = z
  .object({
    file: z.any().openapi({ type: 'string', format: 'binary', description: 'The source-language file.' }),
    format: z.string().optional().openapi({ description: 'Format identifier, e.g. `json` or `po`; detected from the file name and content when omitted (the batch says which was used).' }),
    path: z.string().optional().openapi({ description: "The file's path in the repository (default: the uploaded file name), such as `locales/en.json`: relative, with no `.` or `..` segments, backslashes, drive letters, control characters or empty segments, at most 1,024 bytes (422 `path_invalid` otherwise). A project can hold many source files." }),
    locales: z.union([z.string(), z.array(z.string())]).optional().openapi({ description: 'Target locales, comma-separated or repeated; default: all.' }),
    careful: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .openapi({ description: 'Keys to translate with the careful pass: names or `*` patterns (e.g. `onboarding.*`), comma-separated or repeated. Other keys keep their stored pass (new keys: fast).' }),
    plurals: z
      .enum(['i18next', 'none'], { error: (issue) => `plurals: '${String(issue.input)}' is not a plurals mode. Expected 'i18next' or 'none'.` })
      .optional()
      .openapi({
        description:
          "How `json` and `json_nested` files read i18next plural suffixes (`items_one`, `items_other`, `place_ordinal_one`): by default a key family with an `_other` member is one plural key (`items`); `i18next` makes every suffix family one; `none` keeps every key on its own. Other formats ignore it.",
      }),
  })
  .openapi('PushFileRequest');

export function pushRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Push a source file or keys; queue a batch',
      description:
        'Ability: `push`. Only added or changed rows are queued and charged; pushing the same file again queues nothing. Keys missing from a re-pushed file are marked removed (their translations are kept). Send `Idempotency-Key` to make retries safe.',
      middleware: [requireAbility('push')] as const,
      request: {
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: {
          content: { 'application/json': { schema: JsonPush }, 'multipart/form-data': { schema: MultipartPush } },
          required: false,
        },
      },
      responses: {
        202: json('Batch queued (or completed at once when nothing needed translating)', Batch),
        402: problem('Not enough words left in the allowance; nothing was queued'),
        413: problem('The request body is over `MAX_UPLOAD_BYTES` (`payload_too_large`), or the file is an archive (`xlsx`) holding more than the service reads (`archive_too_large`: its entries inflate past `MAX_INFLATED_BYTES` together, or it has more than `MAX_ARCHIVE_ENTRIES`); the problem names the file (`path`), the entry (`entry`), the `limit` and its `setting`. Nothing was queued.'),
        ...problemResponses,
      },
    }),
    async (c) => {
      const auth = c.get('auth');
      const isJson = (c.req.header('content-type') ?? '').toLowerCase().includes('json');
      // The route declares both media types; the validator filled in only the one that was sent.
      const input: PushInput & { fingerprint: string } = isJson
        ? fromJson(auth.project.id, c.req.valid('json') as z.infer<typeof JsonPush>)
        : await fromMultipart(auth.project.id, c.req.valid('form') as z.infer<typeof MultipartPush>, deps.archiveLimits);
      const key = c.req.valid('header')['idempotency-key'];
      const { fingerprint, ...pushInput } = input;
      if (!key) return c.json(await deps.push.push(pushInput), 202);
      const result = await deps.idempotency.once({ projectId: auth.project.id, key, route: 'POST /v1/push', request: fingerprint }, async () => ({
        status: 202,
        body: await deps.push.push(pushInput),
      }));
      if (result.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(result.body as z.infer<typeof Batch>, 202);
    },
  );

  return app;
}

function fromJson(projectId: string, body: z.infer<typeof JsonPush>): PushInput & { fingerprint: string } {
  const seen = new Set<string>();
  const entries: SourceEntry[] = body.keys.map((k, index) => {
    if (seen.has(k.key)) throw new ApiError(422, 'validation_failed', `Duplicate key '${k.key}' at keys[${index}].`, { errors: [{ path: `keys.${index}.key`, message: 'duplicate key' }] });
    seen.add(k.key);
    if (k.source === undefined && !k.plurals) {
      throw new ApiError(422, 'validation_failed', `keys[${index}] ('${k.key}') needs 'source' or 'plurals'.`, { errors: [{ path: `keys.${index}.source`, message: 'required' }] });
    }
    const plurals = k.plurals ? (Object.fromEntries(Object.entries(k.plurals).filter(([, form]) => form !== undefined)) as PluralForms) : undefined;
    return { key: k.key, source: k.source ?? plurals!.other!, plurals, notes: k.notes, context: k.context, maxLength: k.max_length, pass: k.pass };
  });
  const locales = localeList(body.locales);
  return {
    projectId,
    path: body.path ?? '',
    format: null,
    entries,
    ...(locales ? { locales } : {}),
    fingerprint: JSON.stringify(['json', body.path ?? '', locales ?? null, body.keys]),
  };
}

async function fromMultipart(projectId: string, form: z.infer<typeof MultipartPush>, archiveLimits: Readonly<ArchiveLimits>): Promise<PushInput & { fingerprint: string }> {
  const file: unknown = form.file;
  if (!(file instanceof File)) throw new ApiError(422, 'validation_failed', "Multipart push needs a 'file' part holding the source file.", { errors: [{ path: 'file', message: 'required' }] });
  const given = (typeof form.path === 'string' && form.path.trim()) || file.name;
  if (!given) throw new ApiError(422, 'validation_failed', "Multipart push needs a 'path' (the file's repository path).");
  // Checked after trimming and the file-name default, so the path stored is the path checked.
  const path = repoPath(given);
  const content = new Uint8Array(await file.arrayBuffer());
  const format = (typeof form.format === 'string' ? form.format.trim() : '') || detectFormat(path, content);
  if (!format) {
    throw new ApiError(422, 'format_undetected', `Could not tell the format of '${path}' from its name and content; send 'format', one of: ${FORMAT_IDS.join(', ')}.`, { path });
  }
  if (!isFormatId(format)) throw new ApiError(422, 'format_unknown', `Unknown format '${format}'. Expected one of: ${FORMAT_IDS.join(', ')}.`);
  const codec = getCodec(format);
  if (!codec) throw new ApiError(422, 'format_not_supported', `Format '${format}' is not supported by this server yet.`);
  let parsed;
  try {
    parsed = codec.parse(content, { archive: archiveLimits, ...(form.plurals ? { plurals: form.plurals } : {}) });
  } catch (error) {
    throw parseProblem(path, error);
  }
  const locales = localeList(form.locales);
  const careful = keyPatterns(form.careful);
  return {
    projectId,
    path,
    format,
    content,
    entries: parsed.map((e) => ({
      ...(careful?.(e.key) ? { pass: 'careful' as const } : {}),
      key: e.key,
      source: e.source,
      plurals: e.plurals,
      translatable: e.translatable,
      notes: e.notes,
      context: e.context,
      maxLength: e.maxLength,
      line: e.line,
    })),
    ...(locales ? { locales } : {}),
    fingerprint: JSON.stringify(['file', path, format, locales ?? null, form.careful ?? null, createHash('sha256').update(content).digest('hex'), form.plurals ?? null]),
  };
}
