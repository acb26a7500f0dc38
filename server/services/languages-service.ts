/** A project's target languages: BCP-47 validated, limited by plan; a language added is included from the next push. */
import type { Db } from '../db/database.js';
import { ApiError, notFound } from '../errors.js';
import { checkLocale, localeDisplayName } from '../../src/core/locales/locales.js';
import { PLANS } from './plans.js';
import { emitEvent } from '../webhooks/outbox.js';

export function publicLanguage(tag: string, role: 'source' | 'target', known: boolean, createdAt: Date | null) {
  return { tag, name: localeDisplayName(tag) ?? null, role, known, added_at: createdAt?.toISOString() ?? null };
}

export function createLanguagesService(deps: { db: Db }) {
  const { db } = deps;

  async function list(projectId: string) {
    const project = await db.selectFrom('projects').select(['source_locale', 'created_at']).where('id', '=', projectId).executeTakeFirstOrThrow();
    const targets = await db.selectFrom('project_languages').selectAll().where('project_id', '=', projectId).orderBy('tag').execute();
    return [
      publicLanguage(project.source_locale, 'source', isKnown(project.source_locale), project.created_at),
      ...targets.map((t) => publicLanguage(t.tag, 'target', isKnown(t.tag), t.created_at)),
    ];
  }

  async function add(projectId: string, input: string) {
    const check = checkLocale(input);
    if (!check.ok) throw new ApiError(422, 'locale_invalid', check.message, { locale: input });
    return db.transaction().execute(async (trx) => {
      const project = await trx
        .selectFrom('projects')
        .innerJoin('organisations', 'organisations.id', 'projects.organisation_id')
        .select(['projects.source_locale', 'organisations.plan'])
        .where('projects.id', '=', projectId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (check.tag === project.source_locale) {
        throw new ApiError(409, 'language_exists', `'${check.tag}' is the project's source locale.`);
      }
      const existing = await trx.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).execute();
      if (existing.some((l) => l.tag === check.tag)) throw new ApiError(409, 'language_exists', `'${check.tag}' is already a language of this project.`);
      const limit = PLANS[project.plan].maxLocaleRows;
      if (existing.length + 2 > limit) {
        throw new ApiError(403, 'plan_locale_limit', `The ${project.plan} plan allows ${limit} locale rows including the source (${limit - 1} target languages); this project already has ${existing.length + 1}.`, {
          limit,
        });
      }
      const row = await trx.insertInto('project_languages').values({ project_id: projectId, tag: check.tag }).returningAll().executeTakeFirstOrThrow();
      await emitEvent(trx, projectId, 'language.added', { tag: row.tag, name: localeDisplayName(row.tag) ?? null });
      return publicLanguage(row.tag, 'target', check.known, row.created_at);
    });
  }

  async function remove(projectId: string, input: string) {
    const check = checkLocale(input);
    if (!check.ok) throw new ApiError(422, 'locale_invalid', check.message, { locale: input });
    const removed = await db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('project_languages').where('project_id', '=', projectId).where('tag', '=', check.tag).returningAll().executeTakeFirst();
      if (!row) throw notFound('language_not_found', `'${check.tag}' is not a target language of this project.`);
      await emitEvent(trx, projectId, 'language.removed', { tag: row.tag, name: localeDisplayName(row.tag) ?? null });
      return row;
    });
    return publicLanguage(removed.tag, 'target', isKnown(removed.tag), removed.created_at);
  }

  return { list, add, remove };
}

function isKnown(tag: string): boolean {
  const check = checkLocale(tag);
  return check.ok && check.known;
}

export type LanguagesService = ReturnType<typeof createLanguagesService>;
