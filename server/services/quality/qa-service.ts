/**
 * POST /v1/qa/run: the four gates over stored translations (a whole locale, some keys) or over proposed texts,
 * e.g. after human edits or a glossary change. Read-only: it reports, and records the run.
 */
import type { Db } from '../../db/database.js';
import { ApiError } from '../../errors.js';
import { newId } from '../../ids.js';
import { emitEvent } from '../../webhooks/outbox.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import type { GateFailure, GateOutcome } from '../../../src/core/gates/types.js';
import { loadGlossary } from './glossary-service.js';
import { lengthBudget } from './budget.js';
import { gateRow } from './translate-rows.js';

export interface QaRowInput {
  key: string;
  locale: string;
  path?: string | undefined;
  /** A proposed translation to check instead of the stored one. */
  text?: string | undefined;
  plurals?: PluralForms | undefined;
}

export interface QaInput {
  /** Check the stored translations of these locales (default: every target locale), unless `rows` is given. */
  locales?: string[] | undefined;
  keys?: string[] | undefined;
  path?: string | undefined;
  rows?: QaRowInput[] | undefined;
  include_passed?: boolean | undefined;
}

export interface QaItem {
  key: string;
  path: string;
  locale: string;
  checked: 'stored' | 'given';
  outcome: GateOutcome;
  failures: GateFailure[];
}

/** Rows a single run may check; a project larger than this runs per locale or per path. */
export const QA_MAX_ROWS = 100_000;

export function createQaService(deps: { db: Db }) {
  const { db } = deps;

  async function run(projectId: string, input: QaInput) {
    const project = await db.selectFrom('projects').select(['source_locale', 'length_budget_percent']).where('id', '=', projectId).executeTakeFirstOrThrow();
    const targets = (await db.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).execute()).map((l) => l.tag);
    const unknown = [...(input.locales ?? []), ...(input.rows ?? []).map((r) => r.locale)].filter((l) => !targets.includes(l));
    if (unknown.length > 0) {
      throw new ApiError(422, 'locale_not_in_project', `Locale(s) ${[...new Set(unknown)].map((l) => `'${l}'`).join(', ')} are not target languages of this project (${targets.join(', ') || 'none'}).`, { locales: [...new Set(unknown)] });
    }
    const glossary = await loadGlossary(db, projectId);

    let keysQuery = db
      .selectFrom('keys')
      .select(['id', 'key', 'path', 'source', 'source_plurals', 'max_length'])
      .where('project_id', '=', projectId)
      .where('state', '=', 'active');
    const wantedKeys = input.rows ? [...new Set(input.rows.map((r) => r.key))] : input.keys;
    if (wantedKeys) keysQuery = keysQuery.where('key', 'in', wantedKeys.length ? wantedKeys : ['\u0000']);
    if (input.path !== undefined) keysQuery = keysQuery.where('path', '=', input.path);
    const keys = await keysQuery.execute();

    type Candidate = { k: (typeof keys)[number]; locale: string; text: string; plurals: PluralForms | null; checked: 'stored' | 'given' };
    const candidates: Candidate[] = [];
    const missing: { key: string; path: string | null; locale: string; reason: string }[] = [];

    if (input.rows) {
      for (const r of input.rows) {
        const matching = keys.filter((k) => k.key === r.key && (r.path === undefined || k.path === r.path));
        if (matching.length !== 1) {
          missing.push({ key: r.key, path: r.path ?? null, locale: r.locale, reason: matching.length === 0 ? 'no active key with this name' : `key exists in ${matching.length} files; give "path"` });
          continue;
        }
        const k = matching[0]!;
        if (r.text !== undefined || r.plurals !== undefined) {
          const plurals = r.plurals ?? null;
          candidates.push({ k, locale: r.locale, text: plurals ? (plurals.other ?? '') : r.text!, plurals, checked: 'given' });
          continue;
        }
        const stored = await db.selectFrom('translations').select(['text', 'plurals']).where('key_id', '=', k.id).where('locale', '=', r.locale).executeTakeFirst();
        if (!stored) missing.push({ key: k.key, path: k.path, locale: r.locale, reason: 'no translation stored' });
        else candidates.push({ k, locale: r.locale, text: stored.text, plurals: stored.plurals, checked: 'stored' });
      }
    } else {
      const locales = input.locales ?? targets;
      const byId = new Map(keys.map((k) => [k.id, k]));
      for (let i = 0; i < keys.length; i += 1000) {
        const ids = keys.slice(i, i + 1000).map((k) => k.id);
        if (ids.length === 0 || locales.length === 0) continue;
        const stored = await db.selectFrom('translations').select(['key_id', 'locale', 'text', 'plurals']).where('key_id', 'in', ids).where('locale', 'in', locales).execute();
        for (const s of stored) candidates.push({ k: byId.get(s.key_id)!, locale: s.locale, text: s.text, plurals: s.plurals, checked: 'stored' });
      }
    }
    if (candidates.length > QA_MAX_ROWS) {
      throw new ApiError(422, 'qa_too_large', `This run would check ${candidates.length} rows; one run checks at most ${QA_MAX_ROWS}. Narrow it with "locales", "path" or "keys".`);
    }

    const counts = { passed: 0, flagged: 0, refused: 0 };
    const items: QaItem[] = [];
    for (const c of candidates) {
      const report = gateRow(
        { id: c.k.id, key: c.k.key, source: c.k.source, sourcePlurals: c.k.source_plurals, notes: null, context: null, maxLength: lengthBudget(c.k.max_length, project.length_budget_percent, c.k.source, c.k.source_plurals) },
        { text: c.text, plurals: c.plurals },
        project.source_locale,
        c.locale,
        glossary,
      );
      counts[report.outcome] += 1;
      if (report.outcome !== 'passed' || input.include_passed) items.push({ key: c.k.key, path: c.k.path, locale: c.locale, checked: c.checked, outcome: report.outcome, failures: report.failures });
    }
    const id = newId('qa');
    const scope = input.rows ? { rows: input.rows.length } : { locales: input.locales ?? targets, ...(input.keys ? { keys: input.keys.length } : {}), ...(input.path !== undefined ? { path: input.path } : {}) };
    const record = await db.transaction().execute(async (trx) => {
      const run = await trx
        .insertInto('qa_runs')
        .values({ id, project_id: projectId, scope: JSON.stringify(scope), checked: candidates.length, ...counts })
        .returning(['created_at'])
        .executeTakeFirstOrThrow();
      await emitEvent(trx, projectId, 'qa.completed', { qa_run_id: id, checked: candidates.length, ...counts, scope });
      return run;
    });
    return { id, checked: candidates.length, ...counts, not_checked: missing, items, created_at: record.created_at.toISOString() };
  }

  return { run };
}

export type QaService = ReturnType<typeof createQaService>;
