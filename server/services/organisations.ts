/** Organisations and projects: created by operators (admin CLI) and read by every request through the token. */
import type { Db } from '../db/database.js';
import type { Plan } from '../db/schema.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { parseLocale } from '../../src/core/locales/locales.js';
import { addMonths, isConfiguredPlan, limitsOf, periodContaining, periodWords, planNames, remedy } from './plans.js';

export function createOrganisationService(deps: { db: Db }) {
  const { db } = deps;

  /** `conn`: a transaction to create it in (sign-up creates the organisation with its first member). */
  async function createOrganisation(input: { name: string; plan: Plan }, now = new Date(), conn: Db = db) {
    const limits = configuredLimits(input.plan);
    return conn
      .insertInto('organisations')
      .values({
        id: newId('org'),
        name: input.name,
        plan: input.plan,
        words_remaining: periodWords(limits, 0),
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
      const limits = limitsOf(org);
      const { count } = await trx
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('organisation_id', '=', org.id)
        .executeTakeFirstOrThrow();
      if (Number(count) >= limits.maxProjects) {
        const advice = remedy(org, (other) => other.maxProjects > Number(count), 'Upgrade to Starter or above for unlimited projects.');
        throw new ApiError(403, 'plan_project_limit', `The ${org.plan} plan allows ${limits.maxProjects} project(s); '${org.name}' already has ${count}. ${advice}`, { plan: org.plan });
      }
      if (targets.length + 1 > limits.maxLocaleRows) {
        const advice = remedy(org, (other) => other.maxLocaleRows >= targets.length + 1, 'Upgrade to Starter or above for unlimited languages.');
        throw new ApiError(403, 'plan_locale_limit', `The ${org.plan} plan allows ${limits.maxLocaleRows} locale rows including the source; this project would have ${targets.length + 1}. ${advice}`, { plan: org.plan });
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

  /**
   * Moves an organisation to another configured plan (`parlance admin org set-plan`). The allowance period keeps its
   * dates, and the words left in it become the new plan's allowance for that period (its initial words in the first
   * month, its monthly words after): an upgrade takes effect at once, and a downgrade does not keep the old plan's
   * words. Words reserved by batches still running come back as usual when they settle.
   */
  async function setPlan(organisationId: string, plan: Plan, now = new Date()) {
    const limits = configuredLimits(plan);
    return db.transaction().execute(async (trx) => {
      const org = await trx.selectFrom('organisations').selectAll().where('id', '=', organisationId).forUpdate().executeTakeFirst();
      if (!org) throw notFound('organisation_not_found', `No organisation '${organisationId}'.`);
      const period = periodContaining(org.created_at, now);
      const updated = await trx
        .updateTable('organisations')
        .set({ plan, words_remaining: periodWords(limits, period.index), period_start: period.start, period_end: period.end })
        .where('id', '=', organisationId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...updated, previous_plan: org.plan, previous_words_remaining: org.words_remaining };
    });
  }

  return { createOrganisation, setPlan, listOrganisations, createProject, listProjects, getProject };
}

/** A plan named by an operator or a setting: unknown names are refused, never stored. */
function configuredLimits(plan: string) {
  if (!isConfiguredPlan(plan)) throw new ApiError(422, 'plan_unknown', `Unknown plan '${plan}'. Expected one of: ${planNames().join(', ')}.`, { plan, plans: planNames() });
  return limitsOf({ id: '', name: '', plan });
}

export type OrganisationService = ReturnType<typeof createOrganisationService>;
