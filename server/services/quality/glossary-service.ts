/** The project glossary: locked and forbidden terms with per-locale translations, read by the glossary gate. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { ApiError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { emitEvent } from '../../webhooks/outbox.js';
import { checkLocale } from '../../../src/core/locales/locales.js';
import { containsTerm } from '../../../src/core/gates/glossary.js';
import type { GlossaryTerm } from '../../../src/core/gates/types.js';

type Row = {
  id: string;
  term: string;
  case_sensitive: boolean;
  forbidden: boolean;
  notes: string | null;
  translations: Record<string, string>;
  created_at: Date;
  updated_at: Date;
};

export interface TermInput {
  term?: string | undefined;
  translations?: Record<string, string> | undefined;
  case_sensitive?: boolean | undefined;
  forbidden?: boolean | undefined;
  notes?: string | null | undefined;
}

export function publicTerm(row: Row) {
  return {
    id: row.id,
    term: row.term,
    translations: row.translations,
    case_sensitive: row.case_sensitive,
    forbidden: row.forbidden,
    notes: row.notes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function loadGlossary(db: Pick<Db, 'selectFrom'>, projectId: string): Promise<GlossaryTerm[]> {
  const rows = await db.selectFrom('glossary_terms').select(['term', 'case_sensitive', 'forbidden', 'translations']).where('project_id', '=', projectId).execute();
  return rows.map((r) => ({ term: r.term, caseSensitive: r.case_sensitive, forbidden: r.forbidden, translations: r.translations }));
}

/** Canonical locale tags for the translation map; an invalid tag or an empty translation is a 422 naming it. */
function canonicalTranslations(input: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [tag, text] of Object.entries(input)) {
    const check = checkLocale(tag);
    if (!check.ok) throw new ApiError(422, 'locale_invalid', `translations.${tag}: ${check.message}`, { locale: tag });
    if (text.trim() === '') throw new ApiError(422, 'validation_failed', `translations.${tag}: the translation is empty; leave the locale out instead.`);
    out[check.tag] = text.trim();
  }
  return out;
}

async function emitGlossaryUpdated(trx: Db, projectId: string, action: 'created' | 'updated' | 'deleted', row: Row, marked: number) {
  const { id, term, translations, case_sensitive, forbidden, notes } = row;
  await emitEvent(trx, projectId, 'glossary.updated', { action, term: { id, term, translations, case_sensitive, forbidden, notes }, translations_marked_stale: marked });
}

export function createGlossaryService(deps: { db: Db }) {
  const { db } = deps;

  /**
   * Marks the machine translations of every active key whose source contains one of `terms` as stale, so the next
   * push translates them again under the new rule. Human translations are left alone. Returns how many were marked.
   */
  async function markAffected(trx: Db, projectId: string, terms: readonly { term: string; case_sensitive: boolean }[]): Promise<number> {
    const keys = await trx.selectFrom('keys').select(['id', 'source', 'source_plurals']).where('project_id', '=', projectId).where('state', '=', 'active').execute();
    const affected = keys
      .filter((k) => terms.some((t) => [k.source, ...Object.values(k.source_plurals ?? {})].some((text) => containsTerm(text, t.term, t.case_sensitive))))
      .map((k) => k.id);
    let marked = 0;
    for (let i = 0; i < affected.length; i += 1000) {
      const result = await trx
        .updateTable('translations')
        .set({ stale: true })
        .where('key_id', 'in', affected.slice(i, i + 1000))
        .where('state', '!=', 'human')
        .where('stale', '=', false)
        .executeTakeFirst();
      marked += Number(result.numUpdatedRows);
    }
    return marked;
  }

  async function load(projectId: string, id: string, trx: Pick<Db, 'selectFrom'> = db): Promise<Row> {
    const row = await trx.selectFrom('glossary_terms').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('glossary_term_not_found', `No glossary term '${id}' in this project.`);
    return row;
  }

  async function assertUnique(trx: Pick<Db, 'selectFrom'>, projectId: string, term: string, except?: string) {
    let query = trx.selectFrom('glossary_terms').select(['id']).where('project_id', '=', projectId).where(sql`lower(term)`, '=', term.toLowerCase());
    if (except) query = query.where('id', '!=', except);
    const clash = await query.executeTakeFirst();
    if (clash) throw new ApiError(409, 'glossary_term_exists', `The glossary already has the term '${term}' (${clash.id}); edit it with PATCH /v1/glossary/${clash.id}.`, { id: clash.id });
  }

  async function create(projectId: string, input: TermInput & { term: string }) {
    const term = input.term.trim();
    if (term === '') throw new ApiError(422, 'validation_failed', 'term: must not be empty.');
    const translations = canonicalTranslations(input.translations ?? {});
    return db.transaction().execute(async (trx) => {
      await assertUnique(trx, projectId, term);
      const row = await trx
        .insertInto('glossary_terms')
        .values({
          id: newId('gls'),
          project_id: projectId,
          term,
          case_sensitive: input.case_sensitive ?? false,
          forbidden: input.forbidden ?? false,
          notes: input.notes ?? null,
          translations: JSON.stringify(translations),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const marked = await markAffected(trx, projectId, [row]);
      await emitGlossaryUpdated(trx, projectId, 'created', row, marked);
      return { ...publicTerm(row), translations_marked_stale: marked };
    });
  }

  async function list(projectId: string, options: { cursor?: string; limit: number; q?: string }) {
    let query = db.selectFrom('glossary_terms').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(options.limit + 1);
    if (options.cursor) query = query.where('id', '<', options.cursor);
    if (options.q) query = query.where(sql`lower(term)`, 'like', `%${options.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const rows = await query.execute();
    const page = rows.slice(0, options.limit);
    return { items: page.map(publicTerm), next_cursor: rows.length > options.limit ? page[page.length - 1]!.id : null };
  }

  async function get(projectId: string, id: string) {
    return publicTerm(await load(projectId, id));
  }

  async function update(projectId: string, id: string, patch: TermInput) {
    return db.transaction().execute(async (trx) => {
      const before = await load(projectId, id, trx);
      const term = patch.term !== undefined ? patch.term.trim() : before.term;
      if (term === '') throw new ApiError(422, 'validation_failed', 'term: must not be empty.');
      if (term.toLowerCase() !== before.term.toLowerCase()) await assertUnique(trx, projectId, term, id);
      const row = await trx
        .updateTable('glossary_terms')
        .set({
          term,
          ...(patch.translations !== undefined ? { translations: JSON.stringify(canonicalTranslations(patch.translations)) } : {}),
          ...(patch.case_sensitive !== undefined ? { case_sensitive: patch.case_sensitive } : {}),
          ...(patch.forbidden !== undefined ? { forbidden: patch.forbidden } : {}),
          ...(patch.notes !== undefined ? { notes: patch.notes } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // Both the old and the new wording: strings that matched either may now translate differently.
      const marked = await markAffected(trx, projectId, [before, row]);
      await emitGlossaryUpdated(trx, projectId, 'updated', row, marked);
      return { ...publicTerm(row), translations_marked_stale: marked };
    });
  }

  async function remove(projectId: string, id: string) {
    return db.transaction().execute(async (trx) => {
      const before = await load(projectId, id, trx);
      await trx.deleteFrom('glossary_terms').where('id', '=', id).execute();
      const marked = await markAffected(trx, projectId, [before]);
      await emitGlossaryUpdated(trx, projectId, 'deleted', before, marked);
      return { ...publicTerm(before), translations_marked_stale: marked };
    });
  }

  return { create, list, get, update, remove };
}

export type GlossaryService = ReturnType<typeof createGlossaryService>;
