/**
 * POST /v1/translations/upload: an existing target file of one pushed source file, read with the source file's codec;
 * each value the service does not hold, or holds differently, is written as a person's translation, all or nothing.
 */
import { parseProblem } from './parse-problem.js';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import type { ArchiveLimits } from '../../src/core/archive-limits.js';
import { FORMAT_IDS, type Entry, type FormatId, type PluralForms } from '../../src/core/formats/codec.js';
import { getCodec, isFormatId } from '../../src/core/formats/index.js';
import { readPoTranslations } from '../../src/core/formats/po-translations.js';
import { loadGlossary } from './quality/glossary-service.js';
import { gateHuman, writeHumanTranslations, type HumanKey, type HumanValue, type HumanWrite } from './quality/human-translations.js';

/**
 * Formats whose target file holds the translations where the source file holds the source text, so the source file's
 * codec reads a target file's values, and gettext catalogs (their msgstr). The others keep the source text beside the
 * translation (XLIFF's `<source>`, a CSV's source column, an xcstrings catalog) or key their strings by position (markdown).
 */
export const UPLOADABLE_FORMATS: readonly FormatId[] = ['json', 'json_nested', 'laravel_json', 'laravel_php', 'android_xml', 'ios_strings', 'ios_stringsdict', 'arb', 'yaml', 'properties', 'resx', 'po'];

export interface UploadInput {
  projectId: string;
  /** The source file's repository path, as pushed. */
  path: string;
  /** Canonical BCP-47. */
  locale: string;
  content: Uint8Array;
  /** Default: the pushed source file's format. */
  format?: string;
  dryRun: boolean;
  /** How json files read i18next plural suffixes, as the source was pushed. */
  plurals?: 'i18next' | 'none';
}

export interface UploadReport {
  path: string;
  locale: string;
  dry_run: boolean;
  /** Keys whose value was new or different, written as human translations (gates passed, or only the length gate failed). */
  uploaded: string[];
  /** Values equal to what the service holds. */
  unchanged: number;
  /** Values a placeholder, plural or glossary gate failed, or of the wrong shape; see the route's description for what became of them. */
  refused: { key: string; reason: string }[];
  /** Keys in the file that the source file does not have (or no longer has). */
  unknown_keys: string[];
}

interface StoredKey extends HumanKey {
  translatable: boolean;
}

export function createTranslationUploadService(deps: { db: Db; archiveLimits: Readonly<ArchiveLimits> }) {
  const { db } = deps;

  async function upload(input: UploadInput): Promise<UploadReport> {
    // Read and written in one transaction: a push that changes the keys meanwhile waits, and a failure writes nothing.
    return db.transaction().execute(async (trx) => {
      // Locked like a push and translate-missing, so no batch is queued from keys this upload is reading.
      const project = await trx.selectFrom('projects').select(['id', 'organisation_id', 'source_locale', 'length_budget_percent']).where('id', '=', input.projectId).forUpdate().executeTakeFirstOrThrow();
      const targets = (await trx.selectFrom('project_languages').select('tag').where('project_id', '=', project.id).orderBy('tag').execute()).map((l) => l.tag);
      if (!targets.includes(input.locale)) {
        const why = input.locale === project.source_locale ? `'${input.locale}' is the project's source locale` : `'${input.locale}' is not a target language of this project`;
        throw new ApiError(422, 'locale_not_in_project', `${why}; upload translations into one of: ${targets.join(', ') || '(none: add one with POST /v1/languages)'}.`, { locale: input.locale });
      }
      const file = await trx.selectFrom('source_files').select(['format']).where('project_id', '=', project.id).where('path', '=', input.path).executeTakeFirst();
      const keys = (await trx
        .selectFrom('keys')
        .select(['id', 'key', 'path', 'source', 'source_plurals', 'source_hash', 'max_length', 'context', 'translatable'])
        .where('project_id', '=', project.id)
        .where('path', '=', input.path)
        .where('state', '=', 'active')
        .execute()) as StoredKey[];
      if (!file && keys.length === 0) {
        throw new ApiError(404, 'path_not_found', `No source file '${input.path}' was pushed to this project; push it first (parlance push), then upload its translations.`, { path: input.path });
      }
      const format = input.format ?? file?.format;
      if (!format) throw new ApiError(422, 'format_required', `'${input.path}' holds keys pushed without a file; send 'format' (one of: ${UPLOADABLE_FORMATS.join(', ')}).`, { path: input.path });
      if (!isFormatId(format)) throw new ApiError(422, 'format_unknown', `Unknown format '${format}'. Expected one of: ${FORMAT_IDS.join(', ')}.`, { format });
      if (!UPLOADABLE_FORMATS.includes(format)) {
        throw new ApiError(
          422,
          'format_not_uploadable',
          `Translations in '${format}' files cannot be uploaded yet: a ${format} file keeps the source text beside the translation or keys its strings by position. Uploadable formats: ${UPLOADABLE_FORMATS.join(', ')}.`,
          { path: input.path, format },
        );
      }
      const entries = parseTarget(format, input.path, input.locale, input.content, deps.archiveLimits, input.plurals);

      const byKey = new Map(keys.map((k) => [k.key, k]));
      const held = await currentValues(trx, keys.map((k) => k.id), input.locale);
      const glossary = await loadGlossary(trx, project.id);
      const report: UploadReport = { path: input.path, locale: input.locale, dry_run: input.dryRun, uploaded: [], unchanged: 0, refused: [], unknown_keys: [] };
      const writes: HumanWrite[] = [];
      for (const entry of entries) {
        const k = byKey.get(entry.key);
        if (!k) {
          report.unknown_keys.push(entry.key);
          continue;
        }
        // A string the source file marks as not to be translated has no translation to keep.
        if (!k.translatable) continue;
        const value = valueOf(entry);
        // An empty value is no translation: most runtimes then fall back to the source, and so does the service.
        if (value.text === '' && (!value.plurals || Object.values(value.plurals).every((f) => f === ''))) continue;
        if (Boolean(k.source_plurals) !== Boolean(value.plurals)) {
          report.refused.push({
            key: k.key,
            reason: k.source_plurals ? `the source is a plural and the file has one text; plural forms are needed (not stored)` : `the source is one text and the file has plural forms (not stored)`,
          });
          continue;
        }
        const current = held.get(k.id);
        if (current && sameValue(current, value)) {
          report.unchanged++;
          continue;
        }
        const gates = gateHuman(k, value, project, input.locale, glossary);
        writes.push({ key: k, locale: input.locale, value, failures: gates.failures });
        if (gates.outcome === 'refused') {
          report.refused.push({ key: k.key, reason: gates.failures.filter((f) => f.gate !== 'length').map((f) => f.reason).join('; ') });
        } else report.uploaded.push(k.key);
      }
      if (!input.dryRun) await writeHumanTranslations(trx, project.id, project, writes);
      return report;
    });
  }

  return { upload };
}

export type TranslationUploadService = ReturnType<typeof createTranslationUploadService>;

/** The file's values by key: a gettext catalog's msgstr, else what the source file's codec reads where the source text would be. */
function parseTarget(format: FormatId, path: string, locale: string, content: Uint8Array, archive: Readonly<ArchiveLimits>, plurals: 'i18next' | 'none' | undefined): Entry[] {
  const codec = getCodec(format);
  if (!codec) throw new ApiError(422, 'format_not_supported', `Format '${format}' is not supported by this server yet.`);
  try {
    return format === 'po' ? readPoTranslations(content, locale) : codec.parse(content, { archive, ...(plurals ? { plurals } : {}) });
  } catch (error) {
    throw parseProblem(path, error);
  }
}

function valueOf(entry: Entry): HumanValue {
  if (!entry.plurals) return { text: entry.source, plurals: null };
  const plurals = Object.fromEntries(Object.entries(entry.plurals).filter(([, form]) => form !== undefined)) as PluralForms;
  return { text: plurals.other ?? entry.source, plurals };
}

/** The written translation of each key in `locale`, whatever its state or source: a value equal to it is unchanged. */
async function currentValues(trx: Db, keyIds: readonly string[], locale: string): Promise<Map<string, HumanValue>> {
  if (keyIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('translations')
    .select(['key_id', 'text', 'plurals'])
    .where('locale', '=', locale)
    .where(sql<boolean>`key_id = any(${keyIds}::text[])`)
    .execute();
  return new Map(rows.map((r) => [r.key_id, { text: r.text, plurals: r.plurals }]));
}

function sameValue(a: HumanValue, b: HumanValue): boolean {
  if (!a.plurals || !b.plurals) return !a.plurals && !b.plurals && a.text === b.text;
  const ka = Object.keys(a.plurals).filter((c) => a.plurals![c as keyof PluralForms] !== undefined);
  const kb = Object.keys(b.plurals).filter((c) => b.plurals![c as keyof PluralForms] !== undefined);
  return ka.length === kb.length && ka.every((c) => a.plurals![c as keyof PluralForms] === b.plurals![c as keyof PluralForms]);
}
