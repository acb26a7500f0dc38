/** Organisations and projects: created by operators (admin CLI) and read by every request through the token. */
import type { Db } from '../db/database.js';
import type { Plan } from '../db/schema.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { parseLocale } from '../../src/core/locales/locales.js';
import { PLANS, addMonths } from './plans.js';

export function createOrganisationService(deps: { db: Db }) {
  const { db } = deps;

  /** `conn`: a transaction to create it in (sign-up creates the organisation with its first member). */
  async function createOrganisation(input: { name: string; plan: Plan }, now = new Date(), conn: Db = db) {
    const limits = PLANS[input.plan];
    return conn
      .insertInto('organisations')
      .values({
        id: newId('org'),
        name: input.name,
        plan: input.plan,
        words_remaining: limits.initialWords,
        period_start: now,
        period_end: addMonths(now, 1),
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async function listOrganisations() {
    return db.selectFrom('organisations').selectAll().orderBy('id').execute();
  }

  async function createProject(input: { organisationId: string; name: string; sourceLocale: string; targetLocales: string[] }) {
    const source = parseLocale(input.sourceLocale);
    const targets = [...new Set(input.targetLocales.map(parseLocale))].filter((tag) => tag !== source);
    return db.transaction().execute(async (trx) => {
      const org = await trx.selectFrom('organisations').selectAll().where('id', '=', input.organisationId).forUpdate().executeTakeFirst();
      if (!org) throw notFound('organisation_not_found', `No organisation '${input.organisationId}'.`);
      const limits = PLANS[org.plan];
      const { count } = await trx
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('organisation_id', '=', org.id)
        .executeTakeFirstOrThrow();
      if (Number(count) >= limits.maxProjects) {
        throw new ApiError(403, 'plan_project_limit', `The ${org.plan} plan allows ${limits.maxProjects} project(s); '${org.name}' already has ${count}.`);
      }
      if (targets.length + 1 > limits.maxLocaleRows) {
        throw new ApiError(403, 'plan_locale_limit', `The ${org.plan} plan allows ${limits.maxLocaleRows} locale rows including the source; this project would have ${targets.length + 1}.`);
      }
      const project = await trx
        .insertInto('projects')
        .values({ id: newId('prj'), organisation_id: org.id, name: input.name, source_locale: source })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (targets.length > 0) {
        await trx
          .insertInto('project_languages')
          .values(targets.map((tag) => ({ project_id: project.id, tag })))
          .execute();
      }
      return { ...project, target_locales: targets };
    });
  }

  async function listProjects(organisationId?: string) {
    let query = db.selectFrom('projects').selectAll().orderBy('id');
    if (organisationId) query = query.where('organisation_id', '=', organisationId);
    return query.execute();
  }

  async function getProject(projectId: string) {
    const project = await db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
    if (!project) throw notFound('project_not_found', `No project '${projectId}'.`);
    return project;
  }

  return { createOrganisation, listOrganisations, createProject, listProjects, getProject };
}

export type OrganisationService = ReturnType<typeof createOrganisationService>;
