/** TMX import into and export from the organisation's translation memory. */
import type { Db } from '../../db/database.js';
import { ApiError } from '../../errors.js';
import { FileUnparsableError } from '../../../src/core/formats/file-unparsable-error.js';
import { checkLocale } from '../../../src/core/locales/locales.js';
import { parseTmx, renderTmx } from '../../../src/core/tmx.js';
import { rememberTranslations, type MemoryWrite } from './memory.js';

/** Entries written per import; a larger memory is imported in parts. */
export const TMX_MAX_ENTRIES = 500_000;

function canonical(tag: string): string | undefined {
  const check = checkLocale(tag);
  return check.ok ? check.tag : undefined;
}

/** A TMX language matches a project locale when equal, or when one is the bare language of the other (en vs en-US). */
function sameLanguage(a: string, b: string): boolean {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la === lb || la.split('-')[0] === lb || lb.split('-')[0] === la;
}

export function createMemoryService(deps: { db: Db }) {
  const { db } = deps;

  async function project(projectId: string) {
    const p = await db.selectFrom('projects').select(['organisation_id', 'source_locale']).where('id', '=', projectId).executeTakeFirstOrThrow();
    const targets = (await db.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).execute()).map((l) => l.tag);
    return { ...p, targets };
  }

  async function importTmx(projectId: string, bytes: Uint8Array, fileName: string) {
    const p = await project(projectId);
    let doc;
    try {
      doc = parseTmx(bytes, { sourceLocale: p.source_locale });
    } catch (error) {
      if (error instanceof FileUnparsableError) {
        throw new ApiError(422, 'file_unparsable', `${fileName}: ${error.message}`, { line: error.line, column: error.column });
      }
      throw error;
    }
    const writes: MemoryWrite[] = [];
    const skipped: { line: number; reason: string }[] = [];
    for (const unit of doc.units) {
      const source = unit.variants.find((v) => sameLanguage(v.locale, p.source_locale));
      if (!source) {
        skipped.push({ line: unit.line, reason: `no variant in the project's source locale ${p.source_locale} (has ${unit.variants.map((v) => v.locale).join(', ') || 'none'})` });
        continue;
      }
      for (const v of unit.variants) {
        if (v === source || v.text === '') continue;
        // Target languages map onto the project's tag (de → de-DE when the project has de-DE) so matches are found.
        const locale = p.targets.find((t) => t.toLowerCase() === v.locale.toLowerCase()) ?? p.targets.find((t) => sameLanguage(t, v.locale)) ?? canonical(v.locale);
        if (!locale) {
          skipped.push({ line: unit.line, reason: `'${v.locale}' is not a valid locale tag` });
          continue;
        }
        writes.push({ organisationId: p.organisation_id, sourceLocale: p.source_locale, locale, source: source.text, sourcePlurals: null, text: v.text, plurals: null, origin: 'tmx' });
      }
    }
    if (writes.length > TMX_MAX_ENTRIES) throw new ApiError(422, 'tmx_too_large', `${fileName} holds ${writes.length} translation pairs; one import takes at most ${TMX_MAX_ENTRIES}. Split the file.`);
    await db.transaction().execute((trx) => rememberTranslations(trx, writes));
    const locales = [...new Set(writes.map((w) => w.locale))].sort();
    return { units: doc.units.length, imported: writes.length, locales, skipped: skipped.slice(0, 100), skipped_count: skipped.length };
  }

  /** The memory for the project's source locale as TMX 1.4b; plural entries are left out (TMX has no plural forms). */
  async function exportTmx(projectId: string, locales: string[] | undefined): Promise<string> {
    const p = await project(projectId);
    let query = db
      .selectFrom('memory_entries')
      .select(['source_sha', 'source', 'locale', 'text', 'updated_at'])
      .where('organisation_id', '=', p.organisation_id)
      .where('source_locale', '=', p.source_locale)
      .where('source_plurals', 'is', null)
      .orderBy('source_sha')
      .orderBy('locale');
    if (locales && locales.length > 0) query = query.where('locale', 'in', locales);
    const rows = await query.execute();
    const units = new Map<string, { source: string; targets: { locale: string; text: string }[]; created: Date }>();
    for (const r of rows) {
      const unit = units.get(r.source_sha) ?? { source: r.source, targets: [], created: r.updated_at };
      unit.targets.push({ locale: r.locale, text: r.text });
      if (r.updated_at > unit.created) unit.created = r.updated_at;
      units.set(r.source_sha, unit);
    }
    return renderTmx({ sourceLocale: p.source_locale, units: [...units.values()] });
  }

  return { importTmx, exportTmx };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
