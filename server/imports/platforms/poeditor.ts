/** Reads a POEditor project into Parlance: terms, translations and proofread state through API v2, or the per-language JSON files of POEditor's export. */
import { z } from 'zod';
import { PLURAL_CATEGORIES, type PluralForms } from '../../../src/core/formats/codec.js';
import {
  checkedImportPath,
  ImportSourceError,
  type ApiSource,
  type ImportChunk,
  type ImportedKey,
  type ImportedTranslation,
  type PlatformReader,
  type ReaderContext,
} from '../import-model.js';
import { readExportZip } from '../read-export-zip.js';

const DEFAULT_BASE_URL = 'https://api.poeditor.com/v2';
const TOKEN_HELP = "POEditor lists API tokens under Account Settings > API Access (Organization Settings > API Access for an organization's projects)";
const ROWS_PER_CHUNK = 500;

// ─── Terms, as both the API and the JSON export give them ────────────────────────────────────────────────────────────

/** A POEditor term with its text in one language: a string, plural forms by CLDR category, or nothing yet. */
interface PoeditorTerm {
  term: string;
  context: string;
  comment: string;
  tags: string[];
  content: string | Record<string, string | null> | undefined;
  proofread: boolean;
}

/** Names the term in warnings as POEditor shows it: its text, and its context where it has one (POEditor terms have no ids). */
const termRef = (t: PoeditorTerm) => (t.context ? `${t.term} [context ${t.context}]` : t.term);

/**
 * The plural forms of a content object, or undefined when no form has text (an untranslated plural term). A term is
 * taken as plural by its content's shape: POEditor's `plural` attribute is only the plural's name.
 */
function pluralForms(content: PoeditorTerm['content']): PluralForms | undefined {
  if (content === undefined || typeof content === 'string') return undefined;
  const forms: PluralForms = {};
  for (const category of PLURAL_CATEGORIES) {
    const text = content[category];
    if (text) forms[category] = text;
  }
  return Object.keys(forms).length > 0 ? forms : undefined;
}

/** The text a plural stands for where one string is wanted: `other`, else its last form. */
const pluralText = (forms: PluralForms) => forms.other ?? Object.values(forms).at(-1) ?? '';

/**
 * Parlance identifies a key by its name in the file, POEditor a term by its text and context: two terms that differ
 * only by context would be one key. The first keeps the name; the others are left out, with a warning when asked.
 */
function distinctTerms(terms: readonly PoeditorTerm[], where: string, warnings?: ImportChunk[]): PoeditorTerm[] {
  const seen = new Map<string, PoeditorTerm>();
  for (const t of terms) {
    const kept = seen.get(t.term);
    if (!kept) seen.set(t.term, t);
    else warnings?.push({ kind: 'warning', ref: termRef(t), message: `${where}: term "${t.term}" exists with context "${kept.context}" and with context "${t.context}"; Parlance keys are named by the term alone, so only the first was imported.` });
  }
  return [...seen.values()];
}

function inChunks<T>(rows: T[], chunk: (rows: T[]) => ImportChunk): ImportChunk[] {
  const chunks: ImportChunk[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_CHUNK) chunks.push(chunk(rows.slice(i, i + ROWS_PER_CHUNK)));
  return chunks;
}

/**
 * Keys from the terms with their reference-language text. POEditor knows no source files (a term's `reference` is a
 * free-form attribute, not a documented file path), so every key lives at path ''.
 */
function keysFrom(terms: readonly PoeditorTerm[], where: string): ImportChunk[] {
  const warnings: ImportChunk[] = [];
  const keys: ImportedKey[] = distinctTerms(terms, where, warnings).map((t) => {
    const plurals = pluralForms(t.content);
    let source = plurals ? pluralText(plurals) : typeof t.content === 'string' ? t.content : '';
    if (!source) {
      // In projects whose terms are the texts themselves (no string ids), the term is what POEditor shows translators.
      source = t.term;
      warnings.push({ kind: 'warning', ref: termRef(t), message: `${where}: term "${t.term}" has no text in the reference language; the term itself was taken as its source text.` });
    }
    return {
      ref: termRef(t),
      path: '',
      key: t.term,
      source,
      ...(plurals ? { plurals } : {}),
      ...(t.comment ? { notes: t.comment } : {}),
      ...(t.context ? { context: t.context } : {}),
      ...(t.tags.length > 0 ? { tags: t.tags } : {}),
    };
  });
  return [...inChunks(keys, (rows) => ({ kind: 'keys', keys: rows })), ...warnings];
}

/** Translations in `locale` (POEditor's own code, such as `pt-br`); a term without text there is skipped. */
function translationsFrom(terms: readonly PoeditorTerm[], locale: string): ImportChunk[] {
  const rows: ImportedTranslation[] = [];
  for (const t of distinctTerms(terms, '')) {
    const plurals = pluralForms(t.content);
    const text = plurals ? pluralText(plurals) : typeof t.content === 'string' ? t.content : '';
    if (!text) continue;
    rows.push({ ref: `${termRef(t)} in ${locale}`, path: '', key: t.term, locale, text, ...(plurals ? { plurals } : {}), reviewed: t.proofread });
  }
  return inChunks(rows, (batch) => ({ kind: 'translations', rows: batch }));
}

/** The reader's checkpoint: the languages whose chunks are written, in order. */
const checkpointSchema = z.object({ languages: z.array(z.string()) });

function languagesDone(checkpoint: unknown): string[] {
  const parsed = checkpointSchema.safeParse(checkpoint);
  return parsed.success ? [...parsed.data.languages] : [];
}

/**
 * Emits the source language's keys, then one language's translations per emit, skipping the languages a previous run
 * finished: a crash costs at most one language read again.
 */
async function emitLanguages(
  context: ReaderContext,
  languages: { source: string; targets: string[]; leading?: ImportChunk[] },
  read: (locale: string, index: number) => Promise<ImportChunk[]>,
): Promise<void> {
  const order = [languages.source, ...languages.targets];
  const done = languagesDone(context.checkpoint);
  let first = true;
  for (const [index, locale] of order.entries()) {
    if (done.includes(locale)) continue;
    const chunks: ImportChunk[] = first ? [{ kind: 'locales', source: languages.source, targets: languages.targets }, ...(languages.leading ?? [])] : [];
    chunks.push(...(await read(locale, index)));
    done.push(locale);
    await context.emit(chunks, { languages: [...done] });
    first = false;
  }
}

// ─── API v2 ──────────────────────────────────────────────────────────────────────────────────────────────────────────

const envelopeSchema = z.object({
  response: z.object({ status: z.string(), code: z.coerce.string(), message: z.string().default('') }),
  result: z.unknown().optional(),
});
const projectSchema = z.object({
  project: z.object({ id: z.coerce.string(), name: z.string().default(''), reference_language: z.string().nullish() }),
});
const languagesSchema = z.object({ languages: z.array(z.object({ name: z.string().default(''), code: z.string() })).default([]) });
const contentSchema = z.union([z.string(), z.record(z.string(), z.string().nullable())]).nullish();
const apiTermsSchema = z.object({
  terms: z
    .array(
      z.object({
        term: z.string(),
        context: z.string().nullish(),
        comment: z.string().nullish(),
        tags: z.array(z.string()).nullish(),
        translation: z.object({ content: contentSchema, proofread: z.coerce.number().optional() }).nullish(),
      }),
    )
    .default([]),
});

interface Api {
  baseUrl: string;
  token: string;
  project: string;
  context: ReaderContext;
}

/** One API v2 call: a form POST answered with POEditor's `{ response, result }` envelope, at HTTP 200 even when it failed. */
async function call<T>(api: Api, method: string, fields: Record<string, string>, schema: z.ZodType<T>): Promise<T> {
  const response = await api.context.http.request(`${api.baseUrl}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_token: api.token, id: api.project, ...fields }).toString(),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw new Error(`POEditor answered ${method} for project ${api.project} with HTTP ${response.status} and no API response: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const { status, code, message } = envelope.data.response;
  if (status !== 'success') throw apiFailure(api, method, code, message);
  const result = schema.safeParse(envelope.data.result);
  if (!result.success) throw new Error(`POEditor's answer to ${method} for project ${api.project} is not in the shape its API documents: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** POEditor's own error codes (poeditor.com/docs/error_codes): those the person can fix become ImportSourceErrors. */
function apiFailure(api: Api, method: string, code: string, message: string): Error {
  const said = `code ${code}: ${message}`;
  switch (code) {
    case '401':
    case '4011':
      return new ImportSourceError(
        `POEditor refused the API token ending in "${api.token.slice(-4)}" (${said}). ${TOKEN_HELP}; paste the token of an account that owns or administers project ${api.project}.`,
      );
    case '403':
      return new ImportSourceError(
        `POEditor project ${api.project} cannot be opened with this API token (${said}). The project id is the number in the project's address (poeditor.com/projects/view?id=…), and the token must belong to an account that owns or administers the project.`,
      );
    case '4031':
      return new ImportSourceError(`POEditor gives the account of this API token no API access (${said}): its plan must include the API, or use the token of the project's owner.`);
    case '4034':
      return new ImportSourceError(`POEditor project ${api.project} is archived (${said}): restore it in POEditor, then start the import again.`);
    default:
      return new Error(`POEditor could not answer ${method} for project ${api.project} (${said}).`);
  }
}

async function readApi(source: ApiSource, context: ReaderContext): Promise<void> {
  const project = source.project.trim();
  if (!/^\d+$/.test(project)) {
    throw new ImportSourceError(`POEditor project ids are numbers, as in poeditor.com/projects/view?id=12345; got '${source.project}'.`);
  }
  const api: Api = { baseUrl: (source.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''), token: source.token.trim(), project, context };
  const where = `POEditor project ${project}`;

  const { project: details } = await call(api, 'projects/view', {}, projectSchema);
  const reference = details.reference_language?.trim();
  // Without a Default Reference Language nothing says which language holds the source texts of key-named terms.
  if (!reference) {
    throw new ImportSourceError(
      `${where} ("${details.name}") has no Default Reference Language, so its source language is unknown: set one in the project's Settings > Project Details, then start the import again.`,
    );
  }
  const codes = (await call(api, 'languages/list', {}, languagesSchema)).languages.map((l) => l.code);
  if (!codes.includes(reference)) {
    throw new ImportSourceError(`${where} names '${reference}' as its reference language but does not contain it (its languages: ${codes.join(', ')}).`);
  }
  const targets = codes.filter((c) => c !== reference);

  await emitLanguages(context, { source: reference, targets }, async (locale, index) => {
    context.progress(`reading POEditor terms in '${locale}' (language ${index + 1} of ${codes.length})`, index, codes.length);
    // terms/list gives every term with its translation in one language, proofread state included; there are no pages.
    // projects/export would give the same texts without the proofread state, behind a second download.
    const { terms } = await call(api, 'terms/list', { language: locale }, apiTermsSchema);
    const read = terms.map((t): PoeditorTerm => ({
      term: t.term,
      context: t.context ?? '',
      comment: t.comment ?? '',
      tags: t.tags ?? [],
      content: t.translation?.content ?? undefined,
      proofread: t.translation?.proofread === 1,
    }));
    return locale === reference ? keysFrom(read, where) : translationsFrom(read, locale);
  });
}

// ─── Export archive ──────────────────────────────────────────────────────────────────────────────────────────────────

/** One entry of POEditor's "JSON" export (poeditor.com/localization/files/json), the format that carries the most. */
const exportTermsSchema = z.array(
  z.object({
    term: z.string(),
    definition: contentSchema,
    context: z.string().nullish(),
    comment: z.string().nullish(),
  }),
);

/** POEditor language codes (`de`, `pt-br`, `zh-Hans`), which name the files of the archive. */
const LANGUAGE_CODE = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;

interface ExportFile {
  name: string;
  locale: string;
  terms: PoeditorTerm[];
}

function exportFile(name: string, bytes: Uint8Array): ExportFile {
  const base = name.split('/').at(-1)!.replace(/\.json$/i, '');
  if (!LANGUAGE_CODE.test(base)) {
    throw new ImportSourceError(
      `POEditor's export files do not name their language, so the archive must: '${name}' should be named after its POEditor language code, as in de.json or pt-br.json.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new ImportSourceError(`'${name}' in the POEditor archive is not JSON: ${(error as Error).message}`);
  }
  const parsed = exportTermsSchema.safeParse(json);
  if (!parsed.success) {
    throw new ImportSourceError(
      `'${name}' is not in POEditor's JSON export format (a list of terms with "term" and "definition"); export each language from POEditor with the format "JSON", not "Key-Value JSON" or another: ${z.prettifyError(parsed.error)}`,
    );
  }
  return {
    name,
    locale: base,
    terms: parsed.data.map((t) => ({
      term: t.term,
      context: t.context ?? '',
      comment: t.comment ?? '',
      tags: [],
      content: t.definition ?? undefined,
      proofread: false,
    })),
  };
}

/**
 * Reads the JSON files POEditor exports, one per language, zipped together or one alone. Tags and proofread state are
 * not in that format; POEditor exports no translation memory or glossary.
 */
async function readArchive(bytes: Uint8Array, fileName: string, context: ReaderContext): Promise<void> {
  const skipped: string[] = [];
  const refused: ImportChunk[] = [];
  const files: ExportFile[] = [];
  if (/\.json$/i.test(fileName)) files.push(exportFile(fileName, bytes));
  else {
    // Only JSON is parsed: no archive in it is opened.
    const { entries } = readExportZip(bytes, fileName, context.archiveLimits, (reason) => `'${fileName}' is neither a zip of POEditor's JSON exports nor one of them: ${reason}`);
    for (const [name, data] of Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))) {
      if (name.endsWith('/') || name.startsWith('__MACOSX/') || checkedImportPath(name, refused, `an entry of ${fileName}`) === undefined) continue;
      if (/\.json$/i.test(name)) files.push(exportFile(name, data));
      else skipped.push(name);
    }
  }
  if (files.length === 0) {
    throw new ImportSourceError(`'${fileName}' holds no POEditor JSON export: export each language from POEditor with the format "JSON" and zip the files, named after their language codes (en.json, de.json, …).`);
  }
  const byLocale = new Map<string, ExportFile>();
  for (const file of files) {
    if (byLocale.has(file.locale)) throw new ImportSourceError(`The POEditor archive '${fileName}' holds two files for '${file.locale}': ${byLocale.get(file.locale)!.name} and ${file.name}.`);
    byLocale.set(file.locale, file);
  }

  // The export does not say which language is the reference one: English if present, else the most translated.
  const translatedCount = (f: ExportFile) => f.terms.filter((t) => pluralForms(t.content) || (typeof t.content === 'string' && t.content)).length;
  const source = byLocale.get('en') ?? [...byLocale.values()].sort((a, b) => translatedCount(b) - translatedCount(a))[0]!;
  const targets = [...byLocale.keys()].filter((l) => l !== source.locale);
  const where = `POEditor archive ${fileName}`;
  const notes: ImportChunk[] = [
    { kind: 'warning', message: `${where}: POEditor's export does not name the reference language; '${source.locale}' (${source.name}) was taken as the source language.` },
    { kind: 'warning', message: `${where}: POEditor's JSON export carries no proofread state or tags, so every translation was imported as unreviewed and keys without tags.` },
    ...skipped.map((name): ImportChunk => ({ kind: 'warning', message: `${where}: '${name}' is not a POEditor JSON export and was skipped.` })),
    ...refused,
  ];

  await emitLanguages(context, { source: source.locale, targets, leading: notes }, async (locale, index) => {
    context.progress(`reading ${byLocale.get(locale)!.name} (file ${index + 1} of ${byLocale.size})`, index, byLocale.size);
    const { terms } = byLocale.get(locale)!;
    return locale === source.locale ? keysFrom(terms, where) : translationsFrom(terms, locale);
  });
}

export const poeditorReader: PlatformReader = { platform: 'poeditor', readApi, readArchive };
