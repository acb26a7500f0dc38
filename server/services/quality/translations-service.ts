/**
 * Review of translation rows: list them by state, edit one by hand (re-gated, then protected from machine passes
 * until its source changes), approve or reject a flagged translation or a held candidate.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { StoredFailure, TranslationState } from '../../db/schema.js';
import { ApiError, notFound } from '../../errors.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import { pluralCategories } from '../../../src/core/plurals.js';
import { loadGlossary } from './glossary-service.js';
import { rememberTranslations } from './memory.js';
import { gateHuman, writeHumanTranslations, type HumanKey } from './human-translations.js';
import { holdCandidates, writeTranslations } from './translation-writes.js';
import { emitEvent } from '../../webhooks/outbox.js';

export type ReviewState = TranslationState | 'held' | 'rejected';
export const REVIEW_STATES: readonly ReviewState[] = ['held', 'rejected', 'flagged', 'accepted', 'approved', 'human'];

export interface TranslationItem {
  key: string;
  path: string;
  locale: string;
  state: ReviewState;
  source: string;
  source_plurals: PluralForms | null;
  text: string;
  plurals: PluralForms | null;
  origin: string;
  failures: StoredFailure[];
  stale: boolean;
  batch_id: string | null;
  reviewed_at: string | null;
  updated_at: string;
}

interface KeyRow extends HumanKey {
  pass: 'fast' | 'careful';
}

const HELD_STATES: ReadonlySet<ReviewState> = new Set(['held', 'rejected']);

/** Cursor of a (key id, locale) position; opaque to clients. */
function encodeCursor(keyId: string, locale: string): string {
  return Buffer.from(JSON.stringify([keyId, locale])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === 'string')) return parsed as [string, string];
  } catch {
    // Falls through to the error below.
  }
  throw new ApiError(422, 'validation_failed', `cursor: '${cursor}' is not a cursor this endpoint returned.`);
}

export function createTranslationsService(deps: { db: Db }) {
  const { db } = deps;

  async function project(projectId: string) {
    return db.selectFrom('projects').select(['id', 'organisation_id', 'source_locale', 'length_budget_percent']).where('id', '=', projectId).executeTakeFirstOrThrow();
  }

  async function assertTarget(projectId: string, locale: string) {
    const found = await db.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).where('tag', '=', locale).executeTakeFirst();
    if (!found) throw notFound('locale_not_in_project', `Locale '${locale}' is not a target language of this project.`);
  }

  /** The active key `key`, in `path` when given; several files with the same key need `path`. */
  async function findKey(projectId: string, key: string, path: string | undefined): Promise<KeyRow> {
    let query = db
      .selectFrom('keys')
      .select(['id', 'key', 'path', 'source', 'source_plurals', 'source_hash', 'max_length', 'context', 'pass'])
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .where('state', '=', 'active');
    if (path !== undefined) query = query.where('path', '=', path);
    const found = await query.execute();
    if (found.length === 0) throw notFound('key_not_found', `No active key '${key}'${path !== undefined ? ` in '${path}'` : ''} in this project.`);
    if (found.length > 1) {
      throw new ApiError(422, 'path_required', `Key '${key}' exists in ${found.length} files; choose one with ?path=: ${found.map((k) => `'${k.path}'`).join(', ')}.`, { paths: found.map((k) => k.path) });
    }
    return found[0]!;
  }

  async function list(projectId: string, options: { state?: ReviewState; locale?: string; path?: string; key?: string; cursor?: string; limit: number }): Promise<{ items: TranslationItem[]; next_cursor: string | null }> {
    const after = options.cursor ? decodeCursor(options.cursor) : undefined;
    const fromHeld = options.state !== undefined && HELD_STATES.has(options.state);
    const table = fromHeld ? 'held_translations' : 'translations';
    let query = db
      .selectFrom(`${table} as t` as 'translations as t')
      .innerJoin('keys as k', 'k.id', 't.key_id')
      .select(['k.id as key_id', 'k.key', 'k.path', 'k.source', 'k.source_plurals', 't.locale', 't.text', 't.plurals', 't.origin', 't.failures', 't.batch_id', 't.updated_at', 't.state'])
      .where('k.project_id', '=', projectId)
      .where('k.state', '=', 'active')
      .orderBy('k.id')
      .orderBy('t.locale')
      .limit(options.limit + 1);
    if (fromHeld) query = query.whereRef('t.source_hash', '=', 'k.source_hash');
    if (options.state) query = query.where('t.state', '=', options.state as TranslationState);
    if (options.locale) query = query.where('t.locale', '=', options.locale);
    if (options.path !== undefined) query = query.where('k.path', '=', options.path);
    if (options.key !== undefined) query = query.where('k.key', '=', options.key);
    if (after) query = query.where((eb) => eb.or([eb('k.id', '>', after[0]), eb.and([eb('k.id', '=', after[0]), eb('t.locale', '>', after[1])])]));
    const rows = await (fromHeld
      ? query.select([sql<boolean>`false`.as('stale'), sql<Date | null>`null`.as('reviewed_at')])
      : query.select(['t.stale', 't.reviewed_at'])
    ).execute();
    const page = rows.slice(0, options.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        key: r.key,
        path: r.path,
        locale: r.locale,
        state: r.state as ReviewState,
        source: r.source,
        source_plurals: r.source_plurals,
        text: r.text,
        plurals: r.plurals,
        origin: r.origin,
        failures: r.failures ?? [],
        stale: r.stale,
        batch_id: r.batch_id,
        reviewed_at: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null,
        updated_at: new Date(r.updated_at).toISOString(),
      })),
      next_cursor: rows.length > options.limit && last ? encodeCursor(last.key_id, last.locale) : null,
    };
  }

  async function one(projectId: string, keyId: string, locale: string, state?: ReviewState): Promise<TranslationItem> {
    const k = await db.selectFrom('keys').select(['key', 'path']).where('id', '=', keyId).executeTakeFirstOrThrow();
    const page = await list(projectId, { key: k.key, path: k.path, locale, limit: 1, ...(state ? { state } : {}) });
    return page.items[0]!;
  }

  /** A person's translation: gated like a machine's, refused with the failures if it would break the app. */
  /** `drift`: the text is a hand edit of a managed translation file, imported (the GitHub App does this); it also sends source_drift.repaired. */
  async function put(projectId: string, input: { key: string; locale: string; path?: string; text?: string; plurals?: PluralForms; drift?: boolean }) {
    await assertTarget(projectId, input.locale);
    const k = await findKey(projectId, input.key, input.path);
    const p = await project(projectId);
    if (k.source_plurals && !input.plurals) {
      throw new ApiError(422, 'plurals_required', `Key '${k.key}' is a plural key; send "plurals" with the forms ${pluralCategories(input.locale).join(', ')} for ${input.locale}.`);
    }
    if (!k.source_plurals && input.plurals) throw new ApiError(422, 'text_required', `Key '${k.key}' is not a plural key; send "text", not "plurals".`);
    if (!k.source_plurals && input.text === undefined) throw new ApiError(422, 'text_required', 'Send "text" with the translation.');
    const plurals = input.plurals ?? null;
    const text = plurals ? (plurals.other ?? Object.values(plurals)[0] ?? '') : input.text!;
    const glossary = await loadGlossary(db, projectId);
    const report = gateHuman(k, { text, plurals }, p, input.locale, glossary);
    if (report.outcome === 'refused') {
      throw new ApiError(422, 'gate_refused', `The translation fails the quality gates and was not saved: ${report.failures.filter((f) => f.gate !== 'length').map((f) => f.reason).join('; ')}.`, {
        failures: report.failures,
      });
    }
    const failures = report.failures;
    await db.transaction().execute(async (trx) => {
      await writeHumanTranslations(trx, projectId, p, [{ key: k, locale: input.locale, value: { text, plurals }, failures }]);
      if (input.drift) {
        await emitEvent(trx, projectId, 'source_drift.repaired', {
          origin: 'import',
          batch_id: null,
          count: 1,
          locales: [input.locale],
          keys: [{ key: k.key, path: k.path, locale: input.locale }],
          truncated: false,
        });
      }
    });
    return { translation: await one(projectId, k.id, input.locale), gate_outcome: report.outcome, gate_failures: failures };
  }

  /**
   * Approve: a held candidate is written (the reviewer overrules the gates), a flagged or machine translation is
   * marked approved; both join the translation memory. Reject: the candidate or translation is taken out of
   * returned files and kept as `rejected`; the next push translates the key again.
   */
  async function review(projectId: string, input: { key: string; locale: string; path?: string; decision: 'approve' | 'reject' }) {
    await assertTarget(projectId, input.locale);
    const k = await findKey(projectId, input.key, input.path);
    const p = await project(projectId);
    const state = await db.transaction().execute(async (trx): Promise<ReviewState> => {
      const held = await trx
        .selectFrom('held_translations')
        .selectAll()
        .where('key_id', '=', k.id)
        .where('locale', '=', input.locale)
        .where('state', '=', 'held')
        .where('source_hash', '=', k.source_hash)
        .forUpdate()
        .executeTakeFirst();
      const current = await trx.selectFrom('translations').selectAll().where('key_id', '=', k.id).where('locale', '=', input.locale).forUpdate().executeTakeFirst();
      const candidate = held ?? current;
      if (!candidate) throw notFound('translation_not_found', `Key '${k.key}' has no translation or held candidate in ${input.locale} to review.`);
      const plurals = candidate.plurals ? JSON.stringify(candidate.plurals) : null;

      if (input.decision === 'reject') {
        await holdCandidates(trx, [
          { key_id: k.id, locale: input.locale, text: candidate.text, plurals, source_hash: candidate.source_hash, failures: JSON.stringify(candidate.failures ?? []), origin: candidate.origin, batch_id: candidate.batch_id, state: 'rejected' },
        ]);
        // A rejected written translation leaves the files; a rejected candidate never was in them.
        if (!held) await trx.deleteFrom('translations').where('key_id', '=', k.id).where('locale', '=', input.locale).execute();
        await emitEvent(trx, projectId, 'translation.reviewed', { key: k.key, path: k.path, locale: input.locale, decision: 'reject', state: 'rejected', text: candidate.text, plurals: candidate.plurals });
        return 'rejected';
      }
      if (held) {
        await writeTranslations(trx, [
          { key_id: k.id, locale: input.locale, text: held.text, plurals, source_hash: held.source_hash, origin: held.origin, batch_id: held.batch_id, state: 'approved', failures: JSON.stringify(held.failures), reviewed_at: new Date() },
        ]);
        await trx.deleteFrom('held_translations').where('key_id', '=', k.id).where('locale', '=', input.locale).execute();
      } else if (current && current.state !== 'human') {
        await trx.updateTable('translations').set({ state: 'approved', reviewed_at: sql`now()`, updated_at: sql`now()` }).where('key_id', '=', k.id).where('locale', '=', input.locale).execute();
      } else if (current) {
        await trx.updateTable('translations').set({ reviewed_at: sql`now()` }).where('key_id', '=', k.id).where('locale', '=', input.locale).execute();
      }
      if (candidate.source_hash === k.source_hash) {
        await rememberTranslations(trx, [
          { organisationId: p.organisation_id, sourceLocale: p.source_locale, locale: input.locale, source: k.source, sourcePlurals: k.source_plurals, context: k.context, text: candidate.text, plurals: candidate.plurals, origin: 'human' },
        ]);
      }
      const state = current?.state === 'human' && !held ? 'human' : 'approved';
      await emitEvent(trx, projectId, 'translation.reviewed', { key: k.key, path: k.path, locale: input.locale, decision: 'approve', state, text: candidate.text, plurals: candidate.plurals });
      if (held) {
        // The approved candidate is now in the files.
        await emitEvent(trx, projectId, 'translation.updated', {
          origin: 'review',
          batch_id: held.batch_id,
          count: 1,
          locales: [input.locale],
          translations: [{ key: k.key, path: k.path, locale: input.locale, state: 'approved' }],
          truncated: false,
        });
      }
      return state;
    });
    return { decision: input.decision, translation: await one(projectId, k.id, input.locale, state) };
  }

  return { list, put, review };
}

export type TranslationsService = ReturnType<typeof createTranslationsService>;
