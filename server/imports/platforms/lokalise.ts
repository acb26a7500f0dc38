/** Reads a Lokalise project into the import model through API v2 (project, languages, keys with translations, glossary terms), or from its download archive. */
import { z } from 'zod';
import type { FormatId } from '../../../src/core/formats/codec.js';
import { checkedImportPath, ImportSourceError, type ApiSource, type ImportChunk, type ImportedKey, type ImportedTerm, type ImportedTranslation, type PlatformReader, type ReaderContext } from '../import-model.js';
import { pluralForms, readLokaliseArchive } from './lokalise-archive.js';

const API_ROOT = 'https://api.lokalise.com/api2';
/** Where a person makes a Lokalise API token (Personal profile → API tokens). */
export const LOKALISE_TOKEN_PAGE = 'https://app.lokalise.com/profile#apitokens';
/** The keys endpoint gives at most 500 keys a request; the server may give fewer, which cursor paging does not mind. */
const KEYS_PER_PAGE = 500;
const TERMS_PER_PAGE = 500;
const LANGUAGES_PER_PAGE = 500;

// Lokalise answers with more fields than these; only what the import maps is read (zod drops the rest).
const platformStrings = z.object({ ios: z.string().nullish(), android: z.string().nullish(), web: z.string().nullish(), other: z.string().nullish() });
type Platform = keyof z.infer<typeof platformStrings>;
const PLATFORMS: readonly Platform[] = ['web', 'android', 'ios', 'other'];

const projectBody = z.object({
  project_id: z.string(),
  name: z.string().optional(),
  base_language_iso: z.string().min(1),
  // The keys endpoint with cursor pagination sends no X-Pagination-Total-Count: the project's statistics give the total.
  statistics: z.object({ keys_total: z.number().int().min(0).optional() }).nullish(),
});
const languagesBody = z.object({ languages: z.array(z.object({ lang_id: z.number(), lang_iso: z.string().min(1) })) });
const translationRow = z.object({
  translation_id: z.number(),
  language_iso: z.string(),
  translation: z.string().nullable(),
  is_reviewed: z.boolean(),
  is_unverified: z.boolean().optional(),
});
const keyRow = z.object({
  key_id: z.number(),
  key_name: z.union([z.string(), platformStrings]),
  filenames: platformStrings.nullish(),
  description: z.string().nullish(),
  platforms: z.array(z.string()).nullish(),
  tags: z.array(z.string()).nullish(),
  is_plural: z.boolean(),
  context: z.string().nullish(),
  char_limit: z.number().nullish(),
  translations: z.array(translationRow).nullish(),
});
type KeyRow = z.infer<typeof keyRow>;
const keysBody = z.object({ keys: z.array(keyRow) });
const termsBody = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      term: z.string(),
      description: z.string().nullish(),
      caseSensitive: z.boolean().optional(),
      translatable: z.boolean().optional(),
      forbidden: z.boolean(),
      translations: z.array(z.object({ langIso: z.string(), translation: z.string().nullish() })).nullish(),
    }),
  ),
  meta: z.object({ hasMore: z.boolean().optional() }).optional(),
});

/** Where a read stands: the cursor of the next keys or glossary page still to read. */
const checkpointSchema = z.union([
  z.object({ stage: z.literal('keys'), cursor: z.string().nullable() }),
  z.object({ stage: z.literal('glossary'), cursor: z.string().nullable() }),
  z.object({ stage: z.literal('done') }),
]);
type Checkpoint = z.infer<typeof checkpointSchema>;

/** Lokalise's error body, `{ error: { message, code } }` (some endpoints answer `{ message, code }` at the top). */
const errorBody = z.union([
  z.object({ error: z.object({ message: z.string().optional(), code: z.union([z.number(), z.string()]).optional() }) }),
  z.object({ message: z.string(), code: z.union([z.number(), z.string()]).optional() }),
]);

/** The HTTP status and Lokalise's own code and message, for error texts ("HTTP 401, Lokalise code 401: Invalid `X-Api-Token` header"). */
async function describeFailure(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let said = text.trim().slice(0, 300);
  let code: number | string | undefined;
  try {
    const parsed = errorBody.safeParse(JSON.parse(text));
    if (parsed.success) {
      const error = 'error' in parsed.data ? parsed.data.error : parsed.data;
      code = error.code;
      said = error.message ?? said;
    }
  } catch {
    // Not JSON (a proxy's HTML page): the raw text is the best there is.
  }
  return `HTTP ${response.status}${code !== undefined ? `, Lokalise code ${code}` : ''}${said ? `: ${said}` : ''}`;
}

class GlossaryUnavailable extends Error {}

function lokaliseApi(source: ApiSource, context: ReaderContext) {
  const root = (source.baseUrl ?? API_ROOT).replace(/\/+$/, '');
  const project = encodeURIComponent(source.project);

  async function get<T>(path: string, query: Record<string, string | number | null>, schema: z.ZodType<T>, failure: (response: Response) => Promise<Error>) {
    const url = new URL(`${root}/projects/${project}${path}`);
    for (const [name, value] of Object.entries(query)) if (value !== null) url.searchParams.set(name, String(value));
    const response = await context.http.request(url.href, { headers: { 'x-api-token': source.token } });
    if (!response.ok) throw await failure(response);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new Error(`Lokalise answered GET ${url.pathname} of project ${source.project} with a body the import does not recognise: ${z.prettifyError(parsed.error)}`);
    }
    return { body: parsed.data, headers: response.headers };
  }

  /** 401 and 403 are the person's to fix, whatever was asked; the rest is named with the request. */
  const failure = (what: string) => async (response: Response) => {
    const said = await describeFailure(response);
    if (response.status === 401) {
      return new ImportSourceError(
        `Lokalise refused the API token given for project ${source.project} (${said}). Create a token in Lokalise under Personal profile → API tokens (${LOKALISE_TOKEN_PAGE}); a read-only token is enough. Then start the import again with it.`,
      );
    }
    if (response.status === 403) {
      return new ImportSourceError(
        `Lokalise refused this API token access to ${what} of project ${source.project} (${said}). The token's owner must be a contributor of the project; use a token of someone who is, or add its owner to the project.`,
      );
    }
    return new Error(`Lokalise could not give ${what} of project ${source.project} (${said}).`);
  };

  return {
    async project() {
      const { body } = await get('', {}, projectBody, async (response) => {
        if (response.status === 404 || response.status === 400) {
          return new ImportSourceError(
            `Lokalise has no project '${source.project}' that this API token can see (${await describeFailure(response)}). Copy the project id from the project's settings in Lokalise (it looks like 803826145ba90b42d5d860.46800099) and check that the token's owner is a contributor of it.`,
          );
        }
        return failure('the project')(response);
      });
      return body;
    },

    /** All the project's languages, page by page (this endpoint pages by number, with X-Pagination-* headers). */
    async languages() {
      const all: string[] = [];
      for (let page = 1; ; page++) {
        const { body, headers } = await get('/languages', { page, limit: LANGUAGES_PER_PAGE }, languagesBody, failure('the languages'));
        all.push(...body.languages.map((l) => l.lang_iso));
        const pages = Number(headers.get('x-pagination-page-count') ?? '1');
        if (!(page < pages) || body.languages.length === 0) return all;
      }
    },

    async keys(cursor: string | null) {
      const { body, headers } = await get(
        '/keys',
        { include_translations: 1, pagination: 'cursor', limit: KEYS_PER_PAGE, cursor },
        keysBody,
        failure('the keys'),
      );
      return { keys: body.keys, next: headers.get('x-pagination-next-cursor') || null };
    },

    /** One page of glossary terms, or why there is none (Lokalise refuses the glossary on plans without it). */
    async terms(cursor: string | null): Promise<{ terms: z.infer<typeof termsBody>['data']; next: string | null } | { unavailable: string }> {
      try {
        const { body, headers } = await get('/glossary-terms', { limit: TERMS_PER_PAGE, cursor }, termsBody, async (response) =>
          response.status === 403 || response.status === 404 ? new GlossaryUnavailable(await describeFailure(response)) : failure('the glossary')(response),
        );
        const next = headers.get('x-pagination-next-cursor') || null;
        return { terms: body.data, next: body.meta?.hasMore === false ? null : next };
      } catch (error) {
        if (error instanceof GlossaryUnavailable) return { unavailable: error.message };
        throw error;
      }
    },
  };
}

const FORMAT_BY_EXTENSION: [RegExp, FormatId][] = [
  [/\.json$/i, 'json'],
  [/\.xml$/i, 'android_xml'],
  [/\.stringsdict$/i, 'ios_stringsdict'],
  [/\.strings$/i, 'ios_strings'],
  [/\.xcstrings$/i, 'ios_xcstrings'],
  [/\.arb$/i, 'arb'],
  [/\.ya?ml$/i, 'yaml'],
  [/\.po$/i, 'po'],
  [/\.properties$/i, 'properties'],
  [/\.resx$/i, 'resx'],
  [/\.(?:xliff|xlf)$/i, 'xliff12'],
  [/\.csv$/i, 'csv'],
  [/\.xlsx$/i, 'xlsx'],
  [/\.php$/i, 'laravel_php'],
  [/\.md$/i, 'markdown'],
];

/** Formats whose nesting Lokalise writes into key names with '::' (and ':::' for objects with numeric keys), where Parlance writes '.'. */
const NESTING_FORMATS: ReadonlySet<FormatId> = new Set(['json', 'json_nested', 'yaml', 'arb', 'laravel_json']);

/**
 * The file and name a key has in the repository. A Lokalise key has a name and a filename per platform; the first of
 * its own platforms with a filename decides, as an export for that platform would place it. `%LANG_ISO%` in a filename
 * stands for the language of each exported file, so the source file is the one of the base language.
 */
export function placeKey(key: Pick<KeyRow, 'key_name' | 'filenames' | 'platforms'>, baseIso: string): { path: string; format?: FormatId; key: string } {
  const own = (key.platforms ?? []).filter((p): p is Platform => (PLATFORMS as readonly string[]).includes(p));
  const order = [...own, ...PLATFORMS.filter((p) => !own.includes(p))];
  const nameFor = (platform: Platform) =>
    typeof key.key_name === 'string' ? key.key_name : key.key_name[platform] || order.map((p) => (key.key_name as Record<Platform, string | null | undefined>)[p]).find(Boolean) || '';
  const platform = order.find((p) => key.filenames?.[p]);
  if (!platform) return { path: '', key: nameFor(own[0] ?? 'other') };
  const path = key.filenames![platform]!.replaceAll('%LANG_ISO%', baseIso);
  const format = FORMAT_BY_EXTENSION.find(([pattern]) => pattern.test(path))?.[1];
  const name = nameFor(platform);
  return { path, ...(format && { format }), key: format && NESTING_FORMATS.has(format) ? name.split(/:{2,3}/).join('.') : name };
}

/** One page of Lokalise keys as import chunks: the keys with their base-language text, and every non-empty translation. */
function mapKeys(rows: readonly KeyRow[], baseIso: string): ImportChunk[] {
  const keys: ImportedKey[] = [];
  const translations: ImportedTranslation[] = [];
  const warnings: ImportChunk[] = [];
  for (const row of rows) {
    const place = placeKey(row, baseIso);
    // A key names its own file: every key of a refused file is skipped, and the report lists the file once.
    if (place.path !== '' && checkedImportPath(place.path, warnings, `the filename of Lokalise key ${row.key_id}`) === undefined) continue;
    const textOf = (t: z.infer<typeof translationRow>) => {
      const text = t.translation ?? '';
      if (!row.is_plural || text === '') return { text };
      const plurals = pluralForms(text);
      if (!plurals) {
        // A plural key whose text is not Lokalise's JSON of forms (edited by hand or by another tool): kept as plain text.
        warnings.push({ kind: 'warning', message: `Lokalise key ${row.key_id} (${place.key}) is plural, but its ${t.language_iso} text is not a JSON object of plural forms; imported as plain text.`, ref: String(row.key_id) });
        return { text };
      }
      return { text: plurals.other ?? Object.values(plurals)[0] ?? '', plurals };
    };
    const base = row.translations?.find((t) => t.language_iso === baseIso);
    const source = base ? textOf(base) : { text: '' };
    keys.push({
      ref: String(row.key_id),
      ...place,
      source: source.text,
      ...(source.plurals && { plurals: source.plurals }),
      ...(row.description && { notes: row.description }),
      ...(row.context && { context: row.context }),
      ...(row.char_limit && row.char_limit > 0 && { maxLength: row.char_limit }),
      ...(row.tags && row.tags.length > 0 && { tags: row.tags }),
    });
    for (const t of row.translations ?? []) {
      if (t.language_iso === baseIso || !t.translation) continue;
      const { text, plurals } = textOf(t);
      translations.push({
        ref: String(t.translation_id),
        path: place.path,
        key: place.key,
        locale: t.language_iso,
        text,
        ...(plurals && { plurals }),
        // Unverified: the base text changed after this translation was made, so its review no longer holds.
        reviewed: t.is_reviewed && !t.is_unverified,
      });
    }
  }
  return [{ kind: 'keys', keys }, { kind: 'translations', rows: translations }, ...warnings];
}

async function readApi(source: ApiSource, context: ReaderContext): Promise<void> {
  const api = lokaliseApi(source, context);
  const project = await api.project();
  const baseIso = project.base_language_iso;
  const languages = await api.languages();
  const parsed = checkpointSchema.safeParse(context.checkpoint);
  // The glossary first: every translation is then gated against the project's whole glossary.
  let state: Checkpoint = context.checkpoint === undefined || !parsed.success ? { stage: 'glossary', cursor: null } : parsed.data;

  // Written again on a resumed run: cheap, and the writer keeps one copy.
  let pending: ImportChunk[] = [
    { kind: 'locales', source: baseIso, targets: languages.filter((l) => l !== baseIso) },
    {
      kind: 'warning',
      message: `Lokalise's API gives no translation memory, so project ${source.project}'s memory is not part of this import. Download it as TMX from Lokalise's translation memory page and import that file (alone or in the download zip) to bring it across.`,
    },
  ];
  const emit = async (chunks: ImportChunk[], next: Checkpoint) => {
    await context.emit([...pending, ...chunks], next);
    pending = [];
    state = next;
  };

  while (state.stage === 'glossary') {
    context.progress(`Reading the glossary of Lokalise project ${project.name ?? source.project}`);
    const page = await api.terms(state.cursor);
    if ('unavailable' in page) {
      const message = `Lokalise did not give project ${source.project}'s glossary (${page.unavailable}); the glossary is not imported. Lokalise's glossary needs a plan that includes it.`;
      await emit([{ kind: 'warning', message }], { stage: 'keys', cursor: null });
      break;
    }
    const terms: ImportedTerm[] = page.terms.map((t) => ({
      term: t.term,
      translations: Object.fromEntries((t.translations ?? []).filter((tr) => tr.langIso !== baseIso && tr.translation).map((tr) => [tr.langIso, tr.translation!])),
      forbidden: t.forbidden,
      ...(t.caseSensitive !== undefined && { caseSensitive: t.caseSensitive }),
      ...(t.description && { notes: t.description }),
    }));
    await emit([{ kind: 'glossary', terms }], page.next ? { stage: 'glossary', cursor: page.next } : { stage: 'keys', cursor: null });
  }
  let page = 0;
  // Counted in this run: after a resume the bar shows the keys read since, short of the total by those read before.
  let read = 0;
  const total = project.statistics?.keys_total;
  while (state.stage === 'keys') {
    context.progress(`Reading keys of Lokalise project ${project.name ?? source.project} (page ${++page})`, total === undefined ? undefined : Math.min(read, total), total);
    const { keys, next } = await api.keys(state.cursor);
    read += keys.length;
    await emit(mapKeys(keys, baseIso), next ? { stage: 'keys', cursor: next } : { stage: 'done' });
  }
  if (pending.length > 0) await emit([], { stage: 'done' });
}

export const lokaliseReader: PlatformReader = {
  platform: 'lokalise',
  readApi,
  readArchive: readLokaliseArchive,
};
