/** The push: store the source, compute the delta, reserve words and queue a batch for the rows that need work. */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Insertable } from 'kysely';
import type { BatchesTable } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { selectJsonRows, unnestRows, type Column } from '../db/bulk.js';
import type { JobQueue } from '../jobs/queue.js';
import { countWords } from '../../src/core/words.js';
import type { FormatId } from '../../src/core/formats/codec.js';
import { reserveWords } from './allowance.js';
import { publicBatch, type PublicBatch } from './batches/batch-service.js';
import { computeDelta, type Delta, type SourceEntry } from './push-fns.js';
import { EVENT_LIST_LIMIT, emitEvent } from '../webhooks/outbox.js';
import { emitBatchFinished } from '../webhooks/batch-events.js';
import { PERSON_ORIGINS, reusableOrigins, sourceSha, styledShaSql, styleKey } from './quality/memory.js';
import { readTranslationSettings, styleGuideOf } from './translation-settings.js';

export interface PushInput {
  projectId: string;
  /** Repository path of the source file; '' for keys pushed without a file. */
  path: string;
  format: FormatId | null;
  /** The file as pushed, kept as the skeleton pulls are rendered from. */
  content?: Uint8Array;
  entries: SourceEntry[];
  /** Target locales, canonical; undefined means all of the project's. */
  locales?: string[];
  /** Whether stored keys of the path absent from `entries` are removed; default: when a whole file (`content`) is pushed. */
  removeMissing?: boolean;
}

/**
 * `onCompleted`: told of a batch that completed as it was made (it queued no rows: nothing new to translate, or only
 * removals), which no worker ever runs and so never settles; batches with rows are settled by the batch runner.
 */
export function createPushService(deps: { db: Db; queue: JobQueue; onCompleted?: (batchId: string) => void }) {
  const { db, queue } = deps;

  async function push(input: PushInput): Promise<PublicBatch> {
    const batchId = newId('bat');
    const { batch, rowCount } = await db.transaction().execute(async (trx) => {
      // One push per project at a time: the delta must see the previous push's keys and queued rows.
      const project = await trx.selectFrom('projects').selectAll().where('id', '=', input.projectId).forUpdate().executeTakeFirstOrThrow();
      const projectLocales = (await trx.selectFrom('project_languages').select('tag').where('project_id', '=', project.id).orderBy('tag').execute()).map((l) => l.tag);
      const locales = input.locales ?? projectLocales;
      const unknown = locales.filter((tag) => !projectLocales.includes(tag));
      if (unknown.length > 0) {
        throw new ApiError(422, 'locale_not_in_project', `Locale(s) ${unknown.map((t) => `'${t}'`).join(', ')} are not target languages of this project. Add them with POST /v1/languages first; the project has: ${projectLocales.join(', ') || '(none)'}.`, { locales: unknown });
      }

      const stored = await selectJsonRows(
        trx,
        trx.selectFrom('keys').select(['id', 'key', 'source_hash', 'state', 'position', 'line', 'pass']).where('project_id', '=', project.id).where('path', '=', input.path),
      );
      // A file says nothing about passes: a key flagged careful (by the API or an earlier push) stays careful.
      const storedPass = new Map(stored.map((k) => [k.key, k.pass]));
      const entries = input.entries.map((e) => (e.pass === undefined && storedPass.get(e.key) === 'careful' ? { ...e, pass: 'careful' as const } : e));
      const delta = computeDelta(stored, entries, input.removeMissing ?? input.content !== undefined);

      const added = delta.added.map((a) => ({ ...a, id: newId('key') }));
      if (added.length > 0) {
        await trx
          .insertInto('keys')
          .columns(['id', 'project_id', 'path', ...KEY_COLUMN_NAMES])
          .expression(unnestRows(added, { id: ['text', (a) => a.id], project_id: ['text', () => project.id], path: ['text', () => input.path], ...KEY_COLUMNS }))
          .execute();
      }
      if (delta.changed.length > 0) {
        await sql`update keys set ${sql.join(KEY_COLUMN_NAMES.map((c) => sql.raw(`${c} = x.${c}`)))}, removed_at = null, updated_at = now() from ${unnestRows(delta.changed, { id: ['text', (c) => c.id], ...KEY_COLUMNS })} as x where keys.id = x.id`.execute(trx);
      }
      const moved = delta.unchanged.filter((u) => u.moved);
      if (moved.length > 0) {
        const columns = { id: ['text', (u) => u.id], position: ['int', (u) => u.position], line: ['int', (u) => u.entry.line ?? null] } satisfies Record<string, Column<(typeof moved)[number]>>;
        await sql`update keys set position = x.position, line = x.line, state = 'active', removed_at = null from ${unnestRows(moved, columns)} as x where keys.id = x.id`.execute(trx);
      }
      if (delta.removed.length > 0) {
        await sql`update keys set state = 'removed', removed_at = now() where id = any(${delta.removed.map((r) => r.id)}::text[])`.execute(trx);
      }
      if (input.content !== undefined && input.format) {
        // The skeleton is written only when it changed; base64 text crosses the wire about ten times faster than a
        // bytea parameter on the embedded database.
        const contentSha = sha256(input.content);
        const storedFile = await trx.selectFrom('source_files').select(['format', 'content_sha256']).where('project_id', '=', project.id).where('path', '=', input.path).executeTakeFirst();
        if (storedFile?.content_sha256 !== contentSha || storedFile.format !== input.format) {
          const content = sql<Uint8Array>`decode(${Buffer.from(input.content).toString('base64')}, 'base64')`;
          await trx
            .insertInto('source_files')
            .values({ project_id: project.id, path: input.path, format: input.format, content, content_sha256: contentSha })
            .onConflict((oc) => oc.columns(['project_id', 'path']).doUpdateSet({ format: input.format!, content, content_sha256: contentSha, updated_at: sql`now()` }))
            .execute();
        }
      }

      // A (key, locale) needs work unless a current translation of this source exists (not marked stale by a glossary
      // edit), a candidate for it is held for review, or a queued row already carries it.
      const pushedKeys = [...added, ...delta.changed, ...delta.unchanged].map((k) => ({ id: k.id, hash: k.hash, entry: k.entry }));
      const { batch, rowCount } = await queueBatch(trx, project, locales, pushedKeys, new Set(delta.unchanged.map((u) => u.id)), {
        id: batchId,
        path: input.path,
        format: input.format,
        keys_added: delta.added.length,
        keys_changed: delta.changed.length,
        keys_unchanged: delta.unchanged.length,
        keys_removed: delta.removed.length,
      });
      await emitKeyEvents(trx, project.id, input.path, batchId, delta);
      if (rowCount === 0) await emitBatchFinished(trx, batchId);
      return { batch, rowCount };
    });

    if (rowCount > 0) {
      // The batch is committed; if this wake-up is lost (queue down), the sweeper finds the batch later.
      await queue.enqueueBatch(batchId).catch(() => undefined);
    } else deps.onCompleted?.(batchId);
    // Described as committed, without reading back: a busy worker must not hold up the push's response.
    return publicBatch(batch, { queued: rowCount, done: 0, failed: 0, cancelled: 0, wordsSpent: 0, outcomes: {} });
  }

  /** POST /v1/translate-missing: one batch for every active key, in `paths` (default all), lacking a current translation in `locales` (default all). */
  /**
   * `retranslateMachine`: also queue keys whose current translation a machine made and no one reviewed (accepted or
   * flagged), to use a new model or style guide. A person's translations and approved ones are never queued.
   */
  async function translateMissing(input: { projectId: string; locales?: string[]; paths?: string[]; retranslateMachine?: boolean }): Promise<PublicBatch> {
    const batchId = newId('bat');
    const { batch, rowCount } = await db.transaction().execute(async (trx) => {
      // Locked like a push, so the two never queue the same row twice.
      const project = await trx.selectFrom('projects').selectAll().where('id', '=', input.projectId).forUpdate().executeTakeFirstOrThrow();
      const projectLocales = (await trx.selectFrom('project_languages').select('tag').where('project_id', '=', project.id).orderBy('tag').execute()).map((l) => l.tag);
      const locales = input.locales ?? projectLocales;
      const unknown = locales.filter((tag) => !projectLocales.includes(tag));
      if (unknown.length > 0) {
        throw new ApiError(422, 'locale_not_in_project', `Locale(s) ${unknown.map((t) => `'${t}'`).join(', ')} are not target languages of this project; the project has: ${projectLocales.join(', ') || '(none)'}.`, { locales: unknown });
      }
      let query = trx
        .selectFrom('keys')
        .select(['id', 'path', 'key', 'source', 'source_plurals', 'context', 'pass', 'source_hash'])
        .where('project_id', '=', project.id)
        .where('state', '=', 'active')
        .where('translatable', '=', true);
      // The route requires at least one path when `paths` is given (an empty `in ()` is not SQL).
      if (input.paths) query = query.where('path', 'in', input.paths);
      const keys = await query.execute();
      const work = keys.map((k) => ({
        id: k.id,
        hash: k.source_hash,
        entry: { key: k.key, source: k.source, pass: k.pass, ...(k.source_plurals ? { plurals: k.source_plurals } : {}), ...(k.context !== null ? { context: k.context } : {}) },
      }));
      // Most keys of a project have their translations: checked before their words and memory shas are worked out.
      const { batch, rowCount } = await queueBatch(
        trx,
        project,
        locales,
        work,
        new Set(work.map((k) => k.id)),
        {
          id: batchId,
          // A batch names its file when it has one; across files it has none.
          path: input.paths?.length === 1 ? input.paths[0]! : null,
          format: null,
          keys_added: 0,
          keys_changed: 0,
          keys_unchanged: keys.length,
          keys_removed: 0,
        },
        input.retranslateMachine === true,
      );
      if (rowCount === 0) await emitBatchFinished(trx, batchId);
      return { batch, rowCount };
    });
    if (rowCount > 0) await queue.enqueueBatch(batchId).catch(() => undefined);
    else deps.onCompleted?.(batchId);
    return publicBatch(batch, { queued: rowCount, done: 0, failed: 0, cancelled: 0, wordsSpent: 0, outcomes: {} });
  }

  return { push, translateMissing };
}

type Trx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];
type WorkKey = { id: string; hash: string; entry: SourceEntry };
type BatchFacts = Pick<Insertable<BatchesTable>, 'id' | 'path' | 'format' | 'keys_added' | 'keys_changed' | 'keys_unchanged' | 'keys_removed'>;

// Memory origins a row of each pass may reuse, as SQL arrays (see `reusableOrigins`).
const REUSABLE_FAST = reusableOrigins('fast');
const REUSABLE_CAREFUL = reusableOrigins('careful');

/**
 * Creates the batch and its rows: one (key, locale) row for every key in `keys` and locale in `locales` that needs a
 * translation, unless a current translation of this source exists (not marked stale by a glossary edit), a candidate
 * for it is held for review, or a queued row already carries it. Rows the translation memory answers are not charged
 * (the worker reuses the match without a provider); the rest reserve their words. The database picks the rows in one
 * statement, so a push reads back none of the project's translations.
 */
async function queueBatch(
  trx: Trx,
  project: { id: string; organisation_id: string; source_locale: string },
  locales: readonly string[],
  keys: readonly WorkKey[],
  settled: ReadonlySet<string>,
  facts: BatchFacts,
  retranslateMachine = false,
) {
  await trx.insertInto('batches').values({ ...facts, project_id: project.id, status: 'queued', words_reserved: 0 }).execute();
  const translatable = keys.filter((k) => k.entry.translatable !== false);
  const settledKeys = translatable.filter((k) => settled.has(k.id));
  // Most pushes of a file change nothing: when these are all of its keys and each has a current translation in every
  // locale, two counts say so without sending the keys to the database.
  const needsWork = retranslateMachine ? NEEDS_WORK_OR_MACHINE : NEEDS_WORK;
  const unchangedFile = !retranslateMachine && facts.path != null && settledKeys.length === translatable.length && (await allTranslated(trx, project.id, facts.path, locales, settledKeys.length));
  const needed = unchangedFile ? new Set<string>() : await settledNeedingWork(trx, locales, settledKeys, needsWork);
  const pending = translatable.filter((k) => !settled.has(k.id) || needed.has(k.id)).map((k, ord) => ({ ...k, ord }));
  let rows = 0;
  let words = 0;
  if (pending.length > 0 && locales.length > 0) {
    // The memory match the worker will reuse (see `memoryMatch`): a person's by the source, a machine one by the
    // source and the project's style guide for the locale.
    const style = styleGuideOf(await readTranslationSettings(trx, project.id));
    const styles = locales.map((l) => styleKey(style, l));
    const work = unnestRows(
      pending,
      {
        ord: ['int', (k) => k.ord],
        key_id: ['text', (k) => k.id],
        hash: ['text', (k) => k.hash],
        pass: ['text', (k) => k.entry.pass ?? 'fast'],
        words: ['int', (k) => entryWords(k.entry)],
        sha: ['text', (k) => sourceSha(k.entry.source, k.entry.plurals ?? null, k.entry.context ?? null)],
      },
      'w',
    );
    const totals = await sql<{ rows: number; words: number }>`
      with queued as (
        insert into batch_rows (batch_id, key_id, locale, source_hash, pass, words)
        select ${facts.id}, w.key_id, l.locale, w.hash, w.pass,
          case when coalesce(mp.text, ms.text) is not null and coalesce(mp.text, ms.text) is distinct from t.text
            and coalesce(mp.origin, ms.origin) = any(case when w.pass = 'careful' then ${REUSABLE_CAREFUL}::text[] else ${REUSABLE_FAST}::text[] end)
          then 0 else w.words end
        from ${work} as w
        cross join unnest(${locales}::text[], ${styles}::text[]) with ordinality as l(locale, style, ord)
        left join translations t on t.key_id = w.key_id and t.locale = l.locale
        left join memory_entries mp on mp.organisation_id = ${project.organisation_id} and mp.source_locale = ${project.source_locale} and mp.locale = l.locale and mp.source_sha = w.sha
          and (l.style = '' or mp.origin = any(${PERSON_ORIGINS}::text[]))
        left join memory_entries ms on l.style <> '' and mp.origin is null and ms.organisation_id = ${project.organisation_id} and ms.source_locale = ${project.source_locale} and ms.locale = l.locale
          and ms.source_sha = ${styledShaSql(sql`w.sha`, sql`l.style`)}
        where ${needsWork}
        order by w.ord, l.ord
        returning words
      )
      select count(*)::int as rows, coalesce(sum(words), 0)::int as words from queued`.execute(trx);
    ({ rows, words } = totals.rows[0] ?? { rows: 0, words: 0 });
  }
  await reserveWords(trx, project.organisation_id, words);
  const batch = await trx
    .updateTable('batches')
    .set(
      rows === 0
        ? { status: 'completed', words_reserved: 0, finished_at: sql`now()`, started_at: sql`now()` }
        : { words_reserved: words, enqueued_at: sql`now()` },
    )
    .where('id', '=', facts.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { batch, rowCount: rows };
}

/** Neither a candidate held for review nor a queued row already carries the pair of key `w` and locale `l`. */
const NOT_COVERED = sql`not exists (select 1 from held_translations h where h.key_id = w.key_id and h.locale = l.locale and h.state = 'held' and h.source_hash = w.hash)
  and not exists (select 1 from batch_rows r where r.key_id = w.key_id and r.locale = l.locale and r.status = 'queued' and r.source_hash = w.hash)`;

/**
 * Whether the pair of key `w` and locale `l`, with its translation `t` (left-joined), needs a row: no current
 * translation of this source (or one a glossary edit marked stale), no candidate held for review, no row queued.
 */
const NEEDS_WORK = sql`(t.key_id is null or t.stale or t.source_hash <> w.hash) and ${NOT_COVERED}`;

/** `NEEDS_WORK`, or a current translation a machine made that no one reviewed (translate-missing's `retranslate_machine`). */
const NEEDS_WORK_OR_MACHINE = sql`(t.key_id is null or t.stale or t.source_hash <> w.hash or t.state in ('accepted', 'flagged')) and ${NOT_COVERED}`;

/**
 * Whether the file at `path` has exactly `expected` active keys to translate, each with a current translation (of its
 * source, not stale) in every one of `locales`: then no key of it needs work.
 */
async function allTranslated(trx: Trx, projectId: string, path: string, locales: readonly string[], expected: number): Promise<boolean> {
  if (expected === 0 || locales.length === 0) return false;
  const counts = await sql<{ keys: number; current: number }>`
    select
      (select count(*)::int from keys where project_id = ${projectId} and path = ${path} and state = 'active' and translatable) as keys,
      (select count(*)::int from keys k join translations t on t.key_id = k.id
        where k.project_id = ${projectId} and k.path = ${path} and k.state = 'active' and k.translatable
          and t.locale = any(${locales}::text[]) and not t.stale and t.source_hash = k.source_hash) as current`.execute(trx);
  const { keys, current } = counts.rows[0]!;
  return keys === expected && current === expected * locales.length;
}

/**
 * Which of `keys`, expected to have their translations (an unchanged re-push), still need work in some locale. Only
 * these get their words counted and memory shas computed, which for 10,000 unchanged keys is most of a re-push.
 */
async function settledNeedingWork(trx: Trx, locales: readonly string[], keys: readonly WorkKey[], needsWork: typeof NEEDS_WORK): Promise<Set<string>> {
  if (keys.length === 0 || locales.length === 0) return new Set();
  const work = unnestRows(keys, { key_id: ['text', (k) => k.id], hash: ['text', (k) => k.hash] }, 'w');
  const needing = await sql<{ key_id: string }>`
    select distinct w.key_id from ${work} as w
    cross join unnest(${locales}::text[]) as l(locale)
    left join translations t on t.key_id = w.key_id and t.locale = l.locale
    where ${needsWork}`.execute(trx);
  return new Set(needing.rows.map((r) => r.key_id));
}

/** One event per kind for the whole push, summarising its keys (a push that creates 500 keys sends one key.created). */
async function emitKeyEvents(trx: Pick<Db, 'selectFrom' | 'insertInto'>, projectId: string, path: string, batchId: string, delta: Delta): Promise<void> {
  const kinds = [
    ['key.created', delta.added.map((a) => ({ key: a.entry.key, source: a.entry.source }))],
    ['key.updated', delta.changed.map((c) => ({ key: c.entry.key, source: c.entry.source }))],
    ['key.deleted', delta.removed.map((r) => ({ key: r.key, source: null }))],
  ] as const;
  for (const [type, keys] of kinds) {
    if (keys.length === 0) continue;
    await emitEvent(trx, projectId, type, { path, batch_id: batchId, count: keys.length, keys: keys.slice(0, EVENT_LIST_LIMIT), truncated: keys.length > EVENT_LIST_LIMIT });
  }
}

/** A plural key costs the words of each distinct source form, since each is translated. */
function entryWords(entry: SourceEntry): number {
  if (!entry.plurals) return countWords(entry.source);
  return [...new Set(Object.values(entry.plurals))].reduce((sum, form) => sum + countWords(form), 0);
}

type DeltaKey = { entry: SourceEntry; hash: string; position: number };

/** The columns a push writes for a key, read from its entry, for `unnestRows`. */
const KEY_COLUMNS = {
  key: ['text', (k) => k.entry.key],
  source: ['text', (k) => k.entry.source],
  source_plurals: ['jsonb', (k) => (k.entry.plurals ? JSON.stringify(k.entry.plurals) : null)],
  translatable: ['bool', (k) => k.entry.translatable !== false],
  notes: ['text', (k) => k.entry.notes ?? null],
  context: ['text', (k) => k.entry.context ?? null],
  max_length: ['int', (k) => k.entry.maxLength ?? null],
  pass: ['text', (k) => k.entry.pass ?? 'fast'],
  source_hash: ['text', (k) => k.hash],
  position: ['int', (k) => k.position],
  line: ['int', (k) => k.entry.line ?? null],
  state: ['text', () => 'active'],
} satisfies Record<string, Column<DeltaKey>>;
const KEY_COLUMN_NAMES = Object.keys(KEY_COLUMNS) as (keyof typeof KEY_COLUMNS)[];

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export type PushService = ReturnType<typeof createPushService>;
