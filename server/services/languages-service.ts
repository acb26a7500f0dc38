/** A project's target languages: BCP-47 validated, limited by plan; a language added is translated at once (translateNewLanguage). */
import type { Db } from '../db/database.js';
import { ApiError, notFound } from '../errors.js';
import { checkLocale, localeDisplayName } from '../../src/core/locales/locales.js';
import { limitsOf, remedy } from './plans.js';
import { emitEvent } from '../webhooks/outbox.js';
import type { PublicBatch } from './batches/batch-service.js';
import type { PushService } from './push-service.js';

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
        .select(['projects.source_locale', 'organisations.id as organisation_id', 'organisations.name as organisation_name', 'organisations.plan'])
        .where('projects.id', '=', projectId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (check.tag === project.source_locale) {
        throw new ApiError(409, 'language_exists', `'${check.tag}' is the project's source locale.`);
      }
      const existing = await trx.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).execute();
      if (existing.some((l) => l.tag === check.tag)) throw new ApiError(409, 'language_exists', `'${check.tag}' is already a language of this project.`);
      const org = { id: project.organisation_id, name: project.organisation_name, plan: project.plan };
      const limit = limitsOf(org).maxLocaleRows;
      if (existing.length + 2 > limit) {
        const advice = remedy(org, (other) => other.maxLocaleRows > limit, 'Upgrade to Starter or above for unlimited languages.');
        throw new ApiError(403, 'plan_locale_limit', `The ${project.plan} plan allows ${limit} locale rows including the source (${limit - 1} target languages); this project already has ${existing.length + 1}. ${advice}`, {
          limit,
          plan: project.plan,
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

/** What POST /v1/languages adds to the language: the batch translating the project's existing keys into it. */
export interface NewLanguageBatch {
  batch: PublicBatch | null;
  /** Why no batch was queued although the project has keys (the word allowance, say); the language stays added. */
  batch_problem: { code: string; detail: string } | null;
}

/**
 * Queues the translation of every existing key into a language just added, as POST /v1/translate-missing would for
 * it: one batch, or none when the project has no keys yet. A batch the service refuses (402: the allowance) leaves
 * the language added and says why, so that `parlance translate-missing` can be run once words are available.
 */
export async function translateNewLanguage(deps: { db: Db; push: Pick<PushService, 'translateMissing'> }, projectId: string, tag: string): Promise<NewLanguageBatch> {
  const any = await deps.db.selectFrom('keys').select('id').where('project_id', '=', projectId).where('state', '=', 'active').where('translatable', '=', true).limit(1).executeTakeFirst();
  if (!any) return { batch: null, batch_problem: null };
  try {
    return { batch: await deps.push.translateMissing({ projectId, locales: [tag] }), batch_problem: null };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { batch: null, batch_problem: { code: error.code, detail: error.message } };
    throw error;
  }
}

function isKnown(tag: string): boolean {
  const check = checkLocale(tag);
  return check.ok && check.known;
}

export type LanguagesService = ReturnType<typeof createLanguagesService>;
