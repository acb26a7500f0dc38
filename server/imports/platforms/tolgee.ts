/** Reads a Tolgee project (keys, translations and review states, its glossaries and shared translation memories) through Tolgee's REST API, or its export zip. */
import { z } from 'zod';
import { parseTmx } from '../../../src/core/tmx.js';
import type { ApiSource, ImportChunk, ImportedKey, ImportedTerm, ImportedTranslation, PlatformReader, ReaderContext } from '../import-model.js';
import { ImportSourceError } from '../import-model.js';
import { readTolgeeArchive, tolgeeValue } from './tolgee-archive.js';

const DEFAULT_BASE_URL = 'https://app.tolgee.io';
/** Keys per translations page; the cursor, not the page size, says where the next page starts. */
const PAGE_SIZE = 100;
const TERMS_PAGE_SIZE = 100;

// The parts of Tolgee's answers this reader uses (webapp/src/service/apiSchema.generated.ts in tolgee-platform).
const language = z.object({ id: z.number(), tag: z.string(), base: z.boolean() });
const project = z.object({
  id: z.number(),
  name: z.string(),
  baseLanguage: language.nullish(),
  organizationOwner: z.object({ id: z.number() }).nullish(),
});
const pageMetadata = z.object({ number: z.number().optional(), totalPages: z.number().optional(), totalElements: z.number().int().min(0).optional() }).optional();
const languagesPage = z.object({ _embedded: z.object({ languages: z.array(language).optional() }).optional(), page: pageMetadata });
const translationView = z.object({ id: z.number().nullish(), text: z.string().nullish(), state: z.enum(['UNTRANSLATED', 'TRANSLATED', 'REVIEWED', 'DISABLED']) });
const keyWithTranslations = z.object({
  keyId: z.number(),
  keyName: z.string(),
  keyNamespace: z.string().nullish(),
  keyDescription: z.string().nullish(),
  keyIsPlural: z.boolean().optional(),
  keyMaxCharLimit: z.number().nullish(),
  keyTags: z.array(z.object({ name: z.string() })).optional(),
  translations: z.record(z.string(), translationView),
});
const translationsPage = z.object({ _embedded: z.object({ keys: z.array(keyWithTranslations).optional() }).optional(), page: pageMetadata, nextCursor: z.string().nullish() });
const glossaries = z.object({ _embedded: z.object({ glossaries: z.array(z.object({ id: z.number(), name: z.string(), baseLanguageTag: z.string() })).optional() }).optional() });
const termsPage = z.object({
  _embedded: z
    .object({
      glossaryTerms: z
        .array(
          z.object({
            id: z.number(),
            description: z.string().nullish(),
            flagCaseSensitive: z.boolean(),
            flagForbiddenTerm: z.boolean(),
            flagNonTranslatable: z.boolean(),
            translations: z.array(z.object({ languageTag: z.string(), text: z.string() })),
          }),
        )
        .optional(),
    })
    .optional(),
  page: pageMetadata,
});
const memoryAssignments = z.object({
  _embedded: z
    .object({
      translationMemoryAssignments: z
        .array(z.object({ translationMemoryId: z.number(), translationMemoryName: z.string(), type: z.enum(['PROJECT', 'SHARED']), readAccess: z.boolean(), sourceLanguageTag: z.string() }))
        .optional(),
    })
    .optional(),
});
/** Tolgee's error body (`ErrorResponseBody`); a 429 has `{ message, retryAfter, global }` instead. */
const errorBody = z.object({ code: z.string().optional(), message: z.string().optional(), params: z.unknown().optional() });

/**
 * Where a resumed API read continues: the glossaries (by index, then terms page), then `keys` at a translations
 * cursor (none: the first page), then the shared translation memories (by index).
 */
type Checkpoint = { stage: 'keys'; cursor?: string } | { stage: 'glossary'; glossary: number; page: number } | { stage: 'memory'; memory: number };
const checkpointSchema: z.ZodType<Checkpoint> = z.union([
  z.object({ stage: z.literal('keys'), cursor: z.string().optional() }),
  z.object({ stage: z.literal('glossary'), glossary: z.number(), page: z.number() }),
  z.object({ stage: z.literal('memory'), memory: z.number() }),
]);

/** Parts of a project that need more than a project API key or the free plan: their absence is a warning, not a failure. */
class OptionalPartUnavailable extends Error {}

/** Glossary terms and TM exports live under the organization that owns the project. */
function organizationPath(organizationId: number | undefined, rest: string): string {
  if (organizationId === undefined) throw new OptionalPartUnavailable("Tolgee did not say which organization owns the project, where its glossaries' terms and translation memories are");
  return `/v2/organizations/${organizationId}${rest}`;
}

function describeToken(token: string): string {
  if (token.startsWith('tgpat_')) return `personal access token ${token.slice(0, 10)}…`;
  if (token.startsWith('tgpak_')) return `project API key ${token.slice(0, 10)}…`;
  return `API key ${token.slice(0, 4)}…`;
}

function createTolgeeApi(source: ApiSource, context: ReaderContext) {
  const base = (source.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const projectId = source.project.trim();
  if (!/^\d+$/.test(projectId)) {
    throw new ImportSourceError(`'${source.project}' is not a Tolgee project id. Expected the number in the project's address, as in ${base}/projects/1234.`);
  }
  const tokenHelp =
    `Create a project API key in Tolgee under Integrate (${base}/projects/${projectId}/integrate) or a personal access token ` +
    `under Account settings → Personal Access Tokens (${base}/account/personal-access-tokens), with view permission on the project.`;

  /** GETs `path` with the token; a refusal names the token, the project and Tolgee's own error code. */
  async function get(path: string, what: string, optional = false): Promise<Response> {
    const response = await context.http.request(`${base}${path}`, { headers: { 'X-API-Key': source.token } });
    if (response.ok) return response;
    const text = await response.text();
    let parsed: z.infer<typeof errorBody> = {};
    try {
      parsed = errorBody.parse(JSON.parse(text));
    } catch {
      // Not Tolgee's JSON (a proxy's page): the status says enough.
    }
    const code = parsed.code ?? parsed.message;
    const said = code ? ` (${response.status} ${code}${parsed.params ? ` ${JSON.stringify(parsed.params)}` : ''})` : ` (HTTP ${response.status})`;
    if (response.status === 401) throw new ImportSourceError(`Tolgee at ${base} refused the ${describeToken(source.token)}${said}. ${tokenHelp}`);
    if (optional && [400, 403, 404].includes(response.status)) throw new OptionalPartUnavailable(`Tolgee did not give ${what}${said}`);
    if (response.status === 404 || (response.status === 403 && code === 'pak_created_for_different_project')) {
      throw new ImportSourceError(`Tolgee at ${base} has no project ${projectId} that the ${describeToken(source.token)} can read${said}. Check the project id (the number in ${base}/projects/<id>) and that the key belongs to that project.`);
    }
    if (response.status === 403) throw new ImportSourceError(`Tolgee refused ${what} of project ${projectId} to the ${describeToken(source.token)}${said}. ${tokenHelp}`);
    throw new Error(`Tolgee answered HTTP ${response.status} for ${what} of project ${projectId}${said}.`);
  }

  async function getJson<T>(path: string, schema: z.ZodType<T>, what: string, optional = false): Promise<T> {
    const response = await get(path, what, optional);
    const result = schema.safeParse(await response.json());
    if (!result.success) throw new Error(`Tolgee's answer for ${what} of project ${projectId} is not in the expected shape: ${result.error.message}`);
    return result.data;
  }

  return { base, projectId, get, getJson };
}

async function readApi(source: ApiSource, context: ReaderContext): Promise<void> {
  const api = createTolgeeApi(source, context);
  const { projectId } = api;
  const resumed = context.checkpoint === undefined ? undefined : checkpointSchema.safeParse(context.checkpoint);
  // The glossary first: every translation is then gated against the project's whole glossary.
  let checkpoint: Checkpoint = resumed?.success ? resumed.data : { stage: 'glossary', glossary: 0, page: 0 };

  const info = await api.getJson(`/v2/projects/${projectId}`, project, 'the project');
  const languages: z.infer<typeof language>[] = [];
  for (let page = 0; ; page++) {
    const answer = await api.getJson(`/v2/projects/${projectId}/languages?page=${page}&size=1000`, languagesPage, 'the languages');
    languages.push(...(answer._embedded?.languages ?? []));
    if (page + 1 >= (answer.page?.totalPages ?? 0)) break;
  }
  const baseTag = info.baseLanguage?.tag ?? languages.find((l) => l.base)?.tag;
  if (!baseTag) throw new ImportSourceError(`Tolgee project ${projectId} (${info.name}) has no base language; set one in the project's settings.`);
  const targets = languages.map((l) => l.tag).filter((t) => t !== baseTag);
  // Every run starts with the locales, so a resumed run's writer knows them whatever stage it resumes at.
  let pending: ImportChunk[] = [{ kind: 'locales', source: baseTag, targets }];
  const emit = async (chunks: ImportChunk[], next: Checkpoint) => {
    await context.emit([...pending, ...chunks], next);
    pending = [];
    checkpoint = next;
  };

  if (checkpoint.stage === 'glossary') await readGlossaries(api, context, info.organizationOwner?.id, checkpoint, emit);
  if (checkpoint.stage !== 'memory') await readKeys(api, context, baseTag, [baseTag, ...targets], checkpoint.stage === 'keys' ? checkpoint.cursor : undefined, emit);
  const memoryStart = checkpoint.stage === 'memory' ? checkpoint.memory : 0;
  await readMemories(api, context, info.organizationOwner?.id, baseTag, memoryStart, emit);
  if (pending.length > 0) await context.emit(pending, checkpoint);
}

type Api = ReturnType<typeof createTolgeeApi>;
type Emit = (chunks: ImportChunk[], next: Checkpoint) => Promise<void>;

async function readKeys(api: Api, context: ReaderContext, baseTag: string, tags: string[], cursor: string | undefined, emit: Emit): Promise<void> {
  const languagesQuery = tags.map((t) => `languages=${encodeURIComponent(t)}`).join('&');
  const namespaces = new Set<string>();
  const names = new Map<string, string>();
  let page = 0;
  // Tolgee's page metadata gives the number of keys; counted in this run, so after a resume the bar is short of the
  // total by the keys read before.
  let total: number | undefined;
  let read = 0;
  for (;;) {
    context.signal.throwIfAborted();
    context.progress(`reading keys, page ${++page}`, total === undefined ? undefined : Math.min(read, total), total);
    const answer = await api.getJson(
      `/v2/projects/${api.projectId}/translations?${languagesQuery}&size=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      translationsPage,
      'the keys and translations',
    );
    const items = answer._embedded?.keys ?? [];
    total = answer.page?.totalElements ?? total;
    read += items.length;
    // Tolgee gives a next cursor with every page that has keys; only an empty page says the keys are done (a short
    // page could be the server's own size limit).
    if (items.length === 0) break;
    const keys: ImportedKey[] = [];
    const rows: ImportedTranslation[] = [];
    const warnings: ImportChunk[] = [];
    for (const item of items) {
      const ref = String(item.keyId);
      const namespace = item.keyNamespace ?? '';
      if (namespace && !namespaces.has(namespace)) {
        namespaces.add(namespace);
        warnings.push({ kind: 'warning', message: `Tolgee namespace '${namespace}': Tolgee does not know which repository file a namespace stands for, so its keys were imported without a file.` });
      }
      const other = names.get(item.keyName);
      if (other !== undefined && other !== namespace) {
        warnings.push({ kind: 'warning', message: `Tolgee key '${item.keyName}' is in namespaces '${other}' and '${namespace}'; without files to tell them apart, the import keeps the last one read.`, ref });
      }
      names.set(item.keyName, namespace);
      const plural = item.keyIsPlural ?? false;
      const baseText = item.translations[baseTag];
      const source = tolgeeValue(baseText?.text ?? '', plural);
      if (source.problem) warnings.push({ kind: 'warning', message: `Tolgee key ${item.keyId} '${item.keyName}' ${source.problem}.`, ref });
      keys.push({
        ref,
        path: '',
        key: item.keyName,
        source: source.text,
        ...(source.plurals ? { plurals: source.plurals } : {}),
        ...(item.keyDescription ? { notes: item.keyDescription } : {}),
        ...(item.keyMaxCharLimit ? { maxLength: item.keyMaxCharLimit } : {}),
        tags: (item.keyTags ?? []).map((t) => t.name),
      });
      for (const [tag, t] of Object.entries(item.translations)) {
        // UNTRANSLATED has no text and DISABLED means the key is not to be translated into that language.
        if (tag === baseTag || t.state === 'UNTRANSLATED' || t.state === 'DISABLED' || !t.text) continue;
        const value = tolgeeValue(t.text, plural);
        const tref = t.id != null ? String(t.id) : `${item.keyId}/${tag}`;
        if (value.problem) warnings.push({ kind: 'warning', message: `Tolgee translation ${tref} of key '${item.keyName}' into ${tag} ${value.problem}.`, ref: tref });
        rows.push({ ref: tref, path: '', key: item.keyName, locale: tag, text: value.text, ...(value.plurals ? { plurals: value.plurals } : {}), reviewed: t.state === 'REVIEWED' });
      }
    }
    cursor = answer.nextCursor ?? undefined;
    const done = !cursor;
    await emit([{ kind: 'keys', keys }, { kind: 'translations', rows }, ...warnings], done ? { stage: 'memory', memory: 0 } : { stage: 'keys', cursor });
    if (done) return;
  }
  await emit([], { stage: 'memory', memory: 0 });
}

const PAT_NOTE = 'a personal access token (tgpat_…) of a member of the project\'s organization, on a plan with';

async function readGlossaries(api: Api, context: ReaderContext, organizationId: number | undefined, start: { glossary: number; page: number }, emit: Emit): Promise<void> {
  let list: z.infer<typeof glossaries>;
  try {
    list = await api.getJson(`/v2/projects/${api.projectId}/glossaries`, glossaries, 'the glossaries', true);
  } catch (error) {
    if (!(error instanceof OptionalPartUnavailable)) throw error;
    await emit([{ kind: 'warning', message: `${error.message}; the glossary was not imported. Reading it takes ${PAT_NOTE} glossaries.` }], { stage: 'keys' });
    return;
  }
  const all = list._embedded?.glossaries ?? [];
  for (let g = start.glossary; g < all.length; g++) {
    const glossary = all[g]!;
    for (let page = g === start.glossary ? start.page : 0; ; page++) {
      context.progress(`reading glossary '${glossary.name}', page ${page + 1}`);
      let answer: z.infer<typeof termsPage>;
      try {
        answer = await api.getJson(organizationPath(organizationId, `/glossaries/${glossary.id}/termsWithTranslations?page=${page}&size=${TERMS_PAGE_SIZE}`), termsPage, `the terms of glossary ${glossary.id} '${glossary.name}'`, true);
      } catch (error) {
        if (!(error instanceof OptionalPartUnavailable)) throw error;
        await emit([{ kind: 'warning', message: `${error.message}; they were not imported. Tolgee gives glossary terms only to ${PAT_NOTE} glossaries.` }], { stage: 'glossary', glossary: g + 1, page: 0 });
        break;
      }
      const terms: ImportedTerm[] = [];
      for (const t of answer._embedded?.glossaryTerms ?? []) {
        const term = t.translations.find((x) => x.languageTag === glossary.baseLanguageTag)?.text;
        if (!term) continue;
        const translations: Record<string, string> = {};
        // A non-translatable term keeps its own text in every language; there is nothing to translate.
        if (!t.flagNonTranslatable) for (const x of t.translations) if (x.languageTag !== glossary.baseLanguageTag && x.text) translations[x.languageTag] = x.text;
        terms.push({ term, translations, forbidden: t.flagForbiddenTerm, caseSensitive: t.flagCaseSensitive, ...(t.description ? { notes: t.description } : {}) });
      }
      const last = page + 1 >= (answer.page?.totalPages ?? 0);
      await emit([{ kind: 'glossary', terms }], last ? { stage: 'glossary', glossary: g + 1, page: 0 } : { stage: 'glossary', glossary: g, page: page + 1 });
      if (last) break;
    }
  }
}

async function readMemories(api: Api, context: ReaderContext, organizationId: number | undefined, baseTag: string, start: number, emit: Emit): Promise<void> {
  let list: z.infer<typeof memoryAssignments>;
  try {
    list = await api.getJson(`/v2/projects/${api.projectId}/translation-memories`, memoryAssignments, 'the translation memories', true);
  } catch (error) {
    if (!(error instanceof OptionalPartUnavailable)) throw error;
    await emit([{ kind: 'warning', message: `${error.message}; the translation memory was not imported.` }], { stage: 'memory', memory: Number.MAX_SAFE_INTEGER });
    return;
  }
  // The project's own TM is its translations, imported above; shared TMs hold what the project's keys do not.
  const shared = (list._embedded?.translationMemoryAssignments ?? []).filter((m) => m.type === 'SHARED' && m.readAccess);
  for (let i = start; i < shared.length; i++) {
    const tm = shared[i]!;
    context.progress(`reading translation memory '${tm.translationMemoryName}'`, i, shared.length);
    const chunks: ImportChunk[] = [];
    try {
      const response = await api.get(organizationPath(organizationId, `/translation-memories/${tm.translationMemoryId}/export`), `the TMX export of translation memory ${tm.translationMemoryId} '${tm.translationMemoryName}'`, true);
      const doc = parseTmx(new Uint8Array(await response.arrayBuffer()), { sourceLocale: tm.sourceLanguageTag || baseTag });
      const sourceLocale = doc.sourceLocale ?? baseTag;
      const units = doc.units.flatMap((u) => {
        const src = u.variants.find((v) => v.locale.toLowerCase() === sourceLocale.toLowerCase());
        return src ? u.variants.filter((v) => v !== src).map((v) => ({ sourceLocale, locale: v.locale, source: src.text, text: v.text })) : [];
      });
      chunks.push({ kind: 'memory', units });
    } catch (error) {
      if (!(error instanceof OptionalPartUnavailable)) throw error;
      chunks.push({ kind: 'warning', message: `${error.message}; it was not imported. Tolgee exports a translation memory only to ${PAT_NOTE} translation memories.` });
    }
    await emit(chunks, { stage: 'memory', memory: i + 1 });
  }
}

export const tolgeeReader: PlatformReader = {
  platform: 'tolgee',
  readApi,
  readArchive: readTolgeeArchive,
};
