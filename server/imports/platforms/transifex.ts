/** Reads a Transifex project into the import model: API v3 (JSON:API) for strings, translations and TM, or its export archive. */
import { abortableSleep } from '../platform-http.js';
import { z } from 'zod';
import { parseTmx } from '../../../src/core/tmx.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import { checkedImportPath, ImportSourceError, type ApiSource, type ImportChunk, type ImportedKey, type ImportedMemoryUnit, type ImportedTranslation, type PlatformReader, type ReaderContext } from '../import-model.js';
import { formatOfI18nType, parlanceKey, readTransifexArchive } from './transifex-archive.js';

const DEFAULT_BASE_URL = 'https://rest.api.transifex.com';
const TOKEN_PAGE = 'https://app.transifex.com/user/settings/api/';
const JSON_API = 'application/vnd.api+json';
/** The waits between polls of a download job: transifex/cli's backoff (1, 1, 1, 2, 3, 5, 8, 13 s), the last repeated. */
const CLI_POLL_DELAYS_MS = [1000, 1000, 1000, 2000, 3000, 5000, 8000, 13_000];
const MAX_JOB_MS = 15 * 60_000;

export interface TransifexReaderOptions {
  /** Waits between polls of an asynchronous download job; tests shorten them. */
  pollDelaysMs?: readonly number[];
  /** How long a download job may stay pending before the import gives up. */
  maxJobMs?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The JSON:API documents the reader reads: only the members it uses, everything else passes.

const identifier = z.object({ type: z.string(), id: z.string() });
const relationship = z.object({ data: identifier.nullable().optional() }).optional();
const pluralStrings = z.record(z.string(), z.string().nullable());

const projectDocument = z.object({
  data: z.object({ id: z.string(), attributes: z.object({ name: z.string().optional() }).optional(), relationships: z.object({ source_language: relationship }) }),
});
const languageResource = z.object({ id: z.string(), attributes: z.object({ code: z.string() }) });
const resourceResource = z.object({
  id: z.string(),
  attributes: z.object({ slug: z.string(), name: z.string() }),
  relationships: z.object({ i18n_format: relationship }).optional(),
});
const stringResource = z.object({
  id: z.string(),
  type: z.literal('resource_strings'),
  attributes: z.object({
    key: z.string(),
    // Transifex returns context as a string ('frontpage:footer') in some answers and as a list in others.
    context: z.union([z.string(), z.array(z.string())]).nullable().optional(),
    strings: pluralStrings,
    pluralized: z.boolean().optional(),
    developer_comment: z.string().nullable().optional(),
    instructions: z.string().nullable().optional(),
    character_limit: z.number().nullable().optional(),
    tags: z.array(z.string()).nullable().optional(),
  }),
});
const translationResource = z.object({
  id: z.string(),
  attributes: z.object({
    // null for a string not translated yet: the collection lists a slot for every source string.
    strings: pluralStrings.nullable(),
    reviewed: z.boolean().optional(),
    proofread: z.boolean().optional(),
  }),
  relationships: z.object({ resource_string: z.object({ data: identifier }) }),
});
const collection = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), included: z.array(z.unknown()).optional(), links: z.object({ next: z.string().nullable().optional() }).optional() });
const jobDocument = z.object({
  data: z.object({
    id: z.string(),
    attributes: z.object({ status: z.string().optional(), errors: z.array(z.object({ code: z.string().optional(), detail: z.string().optional() })).optional() }).optional(),
    links: z.object({ self: z.string().optional() }).optional(),
  }),
});
const errorDocument = z.object({ errors: z.array(z.object({ status: z.string().optional(), code: z.string().optional(), title: z.string().optional(), detail: z.string().optional() })) });

/** Where a run stopped: the step it was in and the page to read next; `next: null` when that step was finished. */
const checkpointSchema = z.object({ step: z.string(), next: z.string().nullable() });
type Checkpoint = z.infer<typeof checkpointSchema>;

interface Step {
  id: string;
  /** Reads the step from `from` (a page URL) or from its start, emitting after each page. */
  run(from: string | undefined): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------------

export function createTransifexReader(options: TransifexReaderOptions = {}): PlatformReader {
  const pollDelaysMs = options.pollDelaysMs ?? CLI_POLL_DELAYS_MS;
  const maxJobMs = options.maxJobMs ?? MAX_JOB_MS;

  return {
    platform: 'transifex',
    readApi: (source, context) => readApi(source, context, { pollDelaysMs, maxJobMs }),
    readArchive: (bytes, fileName, context) => readTransifexArchive(bytes, fileName, context),
  };
}

export const transifexReader: PlatformReader = createTransifexReader();

async function readApi(source: ApiSource, context: ReaderContext, options: Required<TransifexReaderOptions>): Promise<void> {
  const base = (source.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const projectId = projectIdOf(source.project);
  const api = createApi(base, source.token, context);

  context.progress(`reading Transifex project ${projectId}`);
  const project = projectDocument.parse(await api.json(`/projects/${projectId}`, `project ${projectId}`));
  const sourceLanguage = languageCode(project.data.relationships.source_language?.data?.id ?? '');
  if (!sourceLanguage) throw new Error(`Transifex project ${projectId} has no source language in its API answer; cannot tell source from translations.`);
  const languages = (await api.all(`/projects/${projectId}/languages`, languageResource, `the languages of project ${projectId}`))
    .map((l) => l.attributes.code)
    .filter((code) => code !== sourceLanguage);
  const resources = await api.all(`/resources?${query({ 'filter[project]': projectId })}`, resourceResource, `the resources of project ${projectId}`);
  const locales: ImportChunk = { kind: 'locales', source: sourceLanguage, targets: languages };

  // Every emit carries the locales: whichever emit a resumed run starts with, the writer knows them.
  const emit = (chunks: ImportChunk[], checkpoint: Checkpoint) => context.emit([locales, ...chunks], checkpoint);

  const steps: Step[] = [];
  const pathWarnings: ImportChunk[] = [];
  resources.forEach((resource, index) => {
    const file = resourceFile(resource);
    // A resource named like a path that breaks the rule is skipped whole, and reported with the other path notes at the end.
    if (file.path !== '' && checkedImportPath(file.path, pathWarnings, `the name of Transifex resource ${resource.id}`) === undefined) return;
    if (file.warning) pathWarnings.push({ kind: 'warning', message: file.warning, ref: resource.id });
    const label = `file ${index + 1} of ${resources.length} (${resource.attributes.name})`;
    const stringsStep = `strings:${resource.id}`;
    steps.push({
      id: stringsStep,
      run: (from) =>
        api.pages(from ?? `/resource_strings?${query({ 'filter[resource]': resource.id })}`, collection(stringResource), `the strings of resource ${resource.id}`, async (page, next) => {
          context.progress(`reading strings of ${label}`, index, resources.length);
          const keys = page.data.map((s) => importedKey(s, file));
          await emit([{ kind: 'keys', keys }], { step: stringsStep, next });
        }),
    });
    for (const language of languages) {
      const step = `translations:${resource.id}:${language}`;
      steps.push({
        id: step,
        run: (from) =>
          api.pages(
            from ?? `/resource_translations?${query({ 'filter[resource]': resource.id, 'filter[language]': `l:${language}`, include: 'resource_string' })}`,
            collection(translationResource),
            `the ${language} translations of resource ${resource.id}`,
            async (page, next) => {
              context.progress(`reading ${language} translations of ${label}`, index, resources.length);
              await emit([{ kind: 'translations', rows: translationRows(page, language, file) }], { step, next });
            },
          ),
      });
    }
  });
  for (const language of languages) {
    const step = `memory:${language}`;
    steps.push({
      id: step,
      run: async () => {
        context.progress(`downloading the ${language} translation memory`);
        const units = await downloadMemory(api, projectId, sourceLanguage, language, context.signal, options);
        await emit([{ kind: 'memory', units }], { step, next: null });
      },
    });
  }
  steps.push({
    id: 'glossary',
    run: () =>
      emit(
        [
          ...pathWarnings,
          {
            kind: 'warning',
            message:
              `Transifex's API (v3) has no glossary endpoint, so the glossary of ${projectId} was not imported. ` +
              'Download it as CSV from the project\'s Glossary page on Transifex and import that file as a Transifex archive.',
          },
        ],
        { step: 'glossary', next: null },
      ),
  });

  const saved = checkpointSchema.safeParse(context.checkpoint);
  let start = 0;
  let from: string | undefined;
  if (saved.success) {
    const at = steps.findIndex((s) => s.id === saved.data.step);
    // A step no longer in the project (a resource deleted since): start over rather than skip anything.
    if (at >= 0) {
      start = saved.data.next === null ? at + 1 : at;
      from = saved.data.next ?? undefined;
    }
  }
  for (let i = start; i < steps.length; i++) {
    await steps[i]!.run(i === start ? from : undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Mapping

interface ResourceFile {
  path: string;
  format: ImportedKey['format'];
  i18nType: string;
  warning?: string;
}

/**
 * Transifex knows a resource by slug and name, not by repository path: the repository's `.tx/config` holds the path.
 * Teams that name resources after their source file's path (`resource_name = locales/en.json`) give it away; a bare
 * file name (what `tx push` gives a new resource by default) or a title does not, and the keys get no path.
 */
function resourceFile(resource: z.infer<typeof resourceResource>): ResourceFile {
  const i18nType = resource.relationships?.i18n_format?.data?.id ?? '';
  const format = formatOfI18nType(i18nType);
  const name = resource.attributes.name.trim();
  const looksLikePath = name.includes('/') && !/\s/.test(name);
  const unknownFormat = format ? '' : ` Its format ${i18nType || '(none)'} has no Parlance codec, so its keys come without a format.`;
  if (looksLikePath) return { path: name.replace(/^\.?\//, ''), format, i18nType, ...(unknownFormat && { warning: `Transifex resource ${resource.id}:${unknownFormat}` }) };
  return {
    path: '',
    format,
    i18nType,
    warning:
      `Transifex resource ${resource.id} is named '${name}', not by a repository path, so its keys were imported without a file. ` +
      `Import the repository's Transifex files (its .tx/config with the pulled files) as an archive to place them.${unknownFormat}`,
  };
}

function importedKey(s: z.infer<typeof stringResource>, file: ResourceFile): ImportedKey {
  const a = s.attributes;
  const plurals = a.pluralized ? formsOf(a.strings) : undefined;
  const context = Array.isArray(a.context) ? a.context.join(':') : a.context;
  // Instructions are Transifex's second note field (per string, for translators); Parlance has one.
  const notes = [a.developer_comment, a.instructions].filter((n): n is string => !!n && n.trim() !== '').join('\n\n');
  return {
    ref: s.id,
    path: file.path,
    ...(file.format && { format: file.format }),
    key: parlanceKey(a.key, file.i18nType),
    source: a.strings.other ?? '',
    ...(plurals && { plurals }),
    ...(notes && { notes }),
    ...(context && { context }),
    ...(a.character_limit != null && a.character_limit > 0 && { maxLength: a.character_limit }),
    tags: a.tags ?? [],
  };
}

function translationRows(page: z.infer<ReturnType<typeof collection<typeof translationResource>>>, language: string, file: ResourceFile): ImportedTranslation[] {
  const strings = new Map<string, z.infer<typeof stringResource>>();
  for (const item of page.included ?? []) {
    const parsed = stringResource.safeParse(item);
    if (parsed.success) strings.set(parsed.data.id, parsed.data);
  }
  const rows: ImportedTranslation[] = [];
  for (const t of page.data) {
    if (!t.attributes.strings) continue;
    const stringId = t.relationships.resource_string.data.id;
    const s = strings.get(stringId);
    if (!s) throw new Error(`Transifex sent translation ${t.id} without its source string ${stringId}, though the reader asked to include it.`);
    const text = t.attributes.strings.other ?? '';
    const plurals = s.attributes.pluralized ? formsOf(t.attributes.strings) : undefined;
    if (!text && !plurals) continue;
    rows.push({
      ref: t.id,
      path: file.path,
      key: parlanceKey(s.attributes.key, file.i18nType),
      locale: language,
      text,
      ...(plurals && { plurals }),
      // `finalized` only says the string went through the project's whole workflow, which need not include a review.
      reviewed: t.attributes.reviewed === true || t.attributes.proofread === true,
    });
  }
  return rows;
}

function formsOf(strings: Record<string, string | null>): PluralForms | undefined {
  const forms: PluralForms = {};
  for (const category of ['zero', 'one', 'two', 'few', 'many', 'other'] as const) {
    const form = strings[category];
    if (form != null) forms[category] = form;
  }
  return Object.keys(forms).length > 0 ? forms : undefined;
}

/** `l:pt_BR` → `pt_BR`. */
function languageCode(id: string): string {
  return id.replace(/^l:/, '');
}

/** Accepts `o:org:p:project` or the project's address on app.transifex.com (as `tx add remote` does). */
function projectIdOf(input: string): string {
  const value = input.trim();
  if (/^o:[^:/\s]+:p:[^:/\s]+$/.test(value)) return value;
  const address = /^https?:\/\/(?:app|www)\.transifex\.com\/([^/\s]+)\/([^/\s]+)/.exec(value);
  if (address) return `o:${address[1]}:p:${address[2]}`;
  throw new ImportSourceError(`Invalid Transifex project '${input}'. Expected its id such as 'o:my-org:p:my-project', or its address such as 'https://app.transifex.com/my-org/my-project/'.`);
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

// ---------------------------------------------------------------------------------------------------------------
// Translation memory: a TMX per language, from an asynchronous download job.

async function downloadMemory(
  api: TransifexApi,
  projectId: string,
  sourceLanguage: string,
  language: string,
  signal: AbortSignal,
  options: Required<TransifexReaderOptions>,
): Promise<ImportedMemoryUnit[]> {
  const what = `the ${language} translation memory of ${projectId}`;
  const body = {
    data: {
      type: 'tmx_async_downloads',
      attributes: { callback_url: null },
      relationships: { project: { data: { type: 'projects', id: projectId } }, language: { data: { type: 'languages', id: `l:${language}` } } },
    },
  };
  const tmx = await api.download('/tmx_async_downloads', body, what, signal, options);
  const document = parseTmx(tmx, { sourceLocale: sourceLanguage });
  const units: ImportedMemoryUnit[] = [];
  const sourceTag = document.sourceLocale ?? sourceLanguage;
  for (const unit of document.units) {
    const sourceVariant = unit.variants.find((v) => sameLanguage(v.locale, sourceTag));
    if (!sourceVariant) continue;
    for (const v of unit.variants) {
      if (v === sourceVariant || v.text === '') continue;
      units.push({ sourceLocale: sourceLanguage, locale: sameLanguage(v.locale, language) ? language : v.locale, source: sourceVariant.text, text: v.text });
    }
  }
  return units;
}

/** Transifex writes `pt_BR` where TMX readers canonicalise to `pt-BR`. */
function sameLanguage(a: string, b: string): boolean {
  return a.replace(/_/g, '-').toLowerCase() === b.replace(/_/g, '-').toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP: Transifex's JSON:API, its errors, its cursor pages and its download jobs.

interface TransifexApi {
  json(pathOrUrl: string, what: string): Promise<unknown>;
  all<T extends z.ZodType>(path: string, item: T, what: string): Promise<z.infer<T>[]>;
  pages<T extends z.ZodType>(first: string, schema: T, what: string, onPage: (page: z.infer<T>, next: string | null) => Promise<void>): Promise<void>;
  download(path: string, body: unknown, what: string, signal: AbortSignal, options: Required<TransifexReaderOptions>): Promise<Uint8Array>;
}

function createApi(base: string, token: string, context: ReaderContext): TransifexApi {
  const headers = { authorization: `Bearer ${token}`, accept: JSON_API };
  // Transifex's `links.next` are absolute addresses; a path is taken against the API's own base.
  const urlOf = (pathOrUrl: string) => (/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${base}${pathOrUrl}`);

  async function json(pathOrUrl: string, what: string): Promise<unknown> {
    const response = await context.http.request(urlOf(pathOrUrl), { headers });
    if (!response.ok) throw await errorOf(response, what, base);
    return response.json();
  }

  async function pages<T extends z.ZodType>(first: string, schema: T, what: string, onPage: (page: z.infer<T>, next: string | null) => Promise<void>) {
    let url: string | null = first;
    while (url) {
      const page = schema.parse(await json(url, what)) as z.infer<T> & { links?: { next?: string | null } };
      const next = page.links?.next ? urlOf(page.links.next) : null;
      await onPage(page, next);
      url = next;
    }
  }

  return {
    json,
    pages,
    async all(path, item, what) {
      const out: z.infer<typeof item>[] = [];
      await pages(path, collection(item), what, async (page) => {
        out.push(...(page.data as z.infer<typeof item>[]));
      });
      return out;
    },
    /** Creates a download job, polls it until Transifex redirects (303) to the file, and returns the file. */
    async download(path, body, what, signal, options) {
      const created = await context.http.request(urlOf(path), { method: 'POST', headers: { ...headers, 'content-type': JSON_API }, body: JSON.stringify(body) });
      if (!created.ok) throw await errorOf(created, `the download of ${what}`, base);
      let job = jobDocument.parse(await created.json());
      const jobUrl = urlOf(job.data.links?.self ?? `${path}/${encodeURIComponent(job.data.id)}`);
      const started = Date.now();
      for (let poll = 0; ; poll++) {
        failIfJobFailed(job, what);
        if (Date.now() - started > options.maxJobMs) {
          throw new Error(`Transifex's download job ${job.data.id} for ${what} was still ${job.data.attributes?.status ?? 'pending'} after ${Math.round(options.maxJobMs / 60_000)} minutes; start the import again later.`);
        }
        await abortableSleep(options.pollDelaysMs[Math.min(poll, options.pollDelaysMs.length - 1)] ?? 1000, signal);
        // The finished job answers 303 to the file; fetch follows it, so the answer is then the file itself.
        const response = await context.http.request(jobUrl, { headers });
        if (!response.ok) throw await errorOf(response, `the download job ${job.data.id} for ${what}`, base);
        if (response.redirected || !(response.headers.get('content-type') ?? '').includes('json')) return new Uint8Array(await response.arrayBuffer());
        job = jobDocument.parse(await response.json());
      }
    },
  };
}

function failIfJobFailed(job: z.infer<typeof jobDocument>, what: string) {
  const attributes = job.data.attributes;
  if (attributes?.status !== 'failed' && !attributes?.errors?.length) return;
  const reasons = (attributes.errors ?? []).map((e) => `${e.code ?? 'error'}: ${e.detail ?? ''}`).join('; ');
  throw new Error(`Transifex's download job ${job.data.id} for ${what} failed${reasons ? ` (${reasons})` : ''}.`);
}

/** A Transifex error answer as a message: the status, Transifex's own code and detail, and what to do about it. */
async function errorOf(response: Response, what: string, base: string): Promise<Error> {
  const text = await response.text().catch(() => '');
  let said = text.slice(0, 300);
  try {
    const parsed = errorDocument.safeParse(JSON.parse(text));
    if (parsed.success && parsed.data.errors.length > 0) said = parsed.data.errors.map((e) => `${e.code ?? e.title ?? 'error'}: ${e.detail ?? e.title ?? ''}`).join('; ');
  } catch {
    // Not JSON (a proxy's page): the start of the text says more than nothing.
  }
  const host = new URL(base).host;
  if (response.status === 401) {
    return new ImportSourceError(`Transifex (${host}) refused the API token (401 ${said}). Create a token at ${TOKEN_PAGE} and start the import again with it.`);
  }
  if (response.status === 403) {
    return new ImportSourceError(`Transifex (${host}) does not let this API token read ${what} (403 ${said}). Use a token of a user with access to the project (${TOKEN_PAGE}).`);
  }
  if (response.status === 404) {
    return new ImportSourceError(`Transifex (${host}) answered 404 for ${what}: it does not exist or this token cannot see it (${said}). Check the project id ('o:<organization>:p:<project>', as in the project's address).`);
  }
  return new Error(`Transifex (${host}) answered ${response.status} when reading ${what}: ${said}`);
}

