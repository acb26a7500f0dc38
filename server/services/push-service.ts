/** The push: store the source, compute the delta, reserve words and queue a batch for the rows that need work. */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { PassName } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import type { JobQueue } from '../jobs/queue.js';
import { countWords } from '../../src/core/words.js';
import type { FormatId } from '../../src/core/formats/codec.js';
import { reserveWords } from './allowance.js';
import { publicBatch, type PublicBatch } from './batches/batch-service.js';
import { chunk, computeDelta, type Delta, type SourceEntry } from './push-fns.js';
import { EVENT_LIST_LIMIT, emitEvent } from '../webhooks/outbox.js';
import { emitBatchFinished } from '../webhooks/batch-events.js';
import { exactMatches, sourceSha, usableMatch } from './quality/memory.js';

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
}

const INSERT_CHUNK = 1000;

export function createPushService(deps: { db: Db; queue: JobQueue }) {
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

      const stored = await trx
        .selectFrom('keys')
        .select(['id', 'key', 'source_hash', 'state', 'position', 'line', 'pass'])
        .where('project_id', '=', project.id)
        .where('path', '=', input.path)
        .execute();
      // A file says nothing about passes: a key flagged careful (by the API or an earlier push) stays careful.
      const storedPass = new Map(stored.map((k) => [k.key, k.pass]));
      const entries = input.entries.map((e) => (e.pass === undefined && storedPass.get(e.key) === 'careful' ? { ...e, pass: 'careful' as const } : e));
      const delta = computeDelta(stored, entries, input.content !== undefined);

      const added = delta.added.map((a) => ({ ...a, id: newId('key') }));
      for (const part of chunk(added, INSERT_CHUNK)) {
        await trx
          .insertInto('keys')
          .values(part.map((a) => ({ id: a.id, project_id: project.id, path: input.path, ...keyColumns(a.entry, a.hash, a.position) })))
          .execute();
      }
      for (const c of delta.changed) {
        await trx.updateTable('keys').set({ ...keyColumns(c.entry, c.hash, c.position), updated_at: sql`now()` }).where('id', '=', c.id).execute();
      }
      for (const u of delta.unchanged.filter((u) => u.moved)) {
        await trx.updateTable('keys').set({ position: u.position, line: u.entry.line ?? null, state: 'active', removed_at: null }).where('id', '=', u.id).execute();
      }
      for (const part of chunk(delta.removed, INSERT_CHUNK)) {
        await trx.updateTable('keys').set({ state: 'removed', removed_at: sql`now()` }).where('id', 'in', part.map((r) => r.id)).execute();
      }
      if (input.content !== undefined && input.format) {
        const content = input.content;
        await trx
          .insertInto('source_files')
          .values({ project_id: project.id, path: input.path, format: input.format, content, content_sha256: sha256(content) })
          .onConflict((oc) => oc.columns(['project_id', 'path']).doUpdateSet({ format: input.format!, content, content_sha256: sha256(content), updated_at: sql`now()` }))
          .execute();
      }

      // A (key, locale) needs work unless a current translation of this source exists (not marked stale by a glossary
      // edit), a candidate for it is held for review, or a queued row already carries it.
      const pushedKeys = [...added, ...delta.changed, ...delta.unchanged].map((k) => ({ id: k.id, hash: k.hash, entry: k.entry }));
      const rows = await rowsNeedingWork(trx, project, locales, pushedKeys, [input.path]);
      const wordsReserved = rows.reduce((sum, r) => sum + r.words, 0);
      await reserveWords(trx, project.organisation_id, wordsReserved);

      const empty = rows.length === 0;
      const batch = await trx
        .insertInto('batches')
        .values({
          id: batchId,
          project_id: project.id,
          status: empty ? 'completed' : 'queued',
          path: input.path,
          format: input.format,
          keys_added: delta.added.length,
          keys_changed: delta.changed.length,
          keys_unchanged: delta.unchanged.length,
          keys_removed: delta.removed.length,
          words_reserved: wordsReserved,
          enqueued_at: empty ? null : sql`now()`,
          finished_at: empty ? sql`now()` : null,
          started_at: empty ? sql`now()` : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      for (const part of chunk(rows, INSERT_CHUNK)) {
        await trx.insertInto('batch_rows').values(part.map((r) => ({ ...r, batch_id: batchId }))).execute();
      }
      await emitKeyEvents(trx, project.id, input.path, batchId, delta);
      if (empty) await emitBatchFinished(trx, batchId);
      return { batch, rowCount: rows.length };
    });

    if (rowCount > 0) {
      // The batch is committed; if this wake-up is lost (queue down), the sweeper finds the batch later.
      await queue.enqueueBatch(batchId).catch(() => undefined);
    }
    // Described as committed, without reading back: a busy worker must not hold up the push's response.
    return publicBatch(batch, { queued: rowCount, done: 0, failed: 0, cancelled: 0, wordsSpent: 0, outcomes: {} });
  }

  /** POST /v1/translate-missing: one batch for every active key, in `paths` (default all), lacking a current translation in `locales` (default all). */
  async function translateMissing(input: { projectId: string; locales?: string[]; paths?: string[] }): Promise<PublicBatch> {
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
      const paths = [...new Set(keys.map((k) => k.path))];
      const work = keys.map((k) => ({
        id: k.id,
        hash: k.source_hash,
        entry: { key: k.key, source: k.source, pass: k.pass, ...(k.source_plurals ? { plurals: k.source_plurals } : {}), ...(k.context !== null ? { context: k.context } : {}) },
      }));
      const rows = await rowsNeedingWork(trx, project, locales, work, paths);
      const wordsReserved = rows.reduce((sum, r) => sum + r.words, 0);
      await reserveWords(trx, project.organisation_id, wordsReserved);
      const empty = rows.length === 0;
      const batch = await trx
        .insertInto('batches')
        .values({
          id: batchId,
          project_id: project.id,
          status: empty ? 'completed' : 'queued',
          // A batch names its file when it has one; across files it has none.
          path: input.paths?.length === 1 ? input.paths[0]! : null,
          format: null,
          keys_added: 0,
          keys_changed: 0,
          keys_unchanged: keys.length,
          keys_removed: 0,
          words_reserved: wordsReserved,
          enqueued_at: empty ? null : sql`now()`,
          finished_at: empty ? sql`now()` : null,
          started_at: empty ? sql`now()` : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      for (const part of chunk(rows, INSERT_CHUNK)) {
        await trx.insertInto('batch_rows').values(part.map((r) => ({ ...r, batch_id: batchId }))).execute();
      }
      if (empty) await emitBatchFinished(trx, batchId);
      return { batch, rowCount: rows.length };
    });
    if (rowCount > 0) await queue.enqueueBatch(batchId).catch(() => undefined);
    return publicBatch(batch, { queued: rowCount, done: 0, failed: 0, cancelled: 0, wordsSpent: 0, outcomes: {} });
  }

  return { push, translateMissing };
}

type Trx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];
type WorkKey = { id: string; hash: string; entry: SourceEntry };
type WorkRow = { key_id: string; locale: string; source_hash: string; pass: PassName; words: number };

/** The (key, locale) rows among `keys` (all in `paths`) that need a translation, each with the words it will be charged. */
async function rowsNeedingWork(trx: Trx, project: { id: string; organisation_id: string; source_locale: string }, locales: string[], keys: WorkKey[], paths: string[]): Promise<WorkRow[]> {
  if (keys.length === 0 || locales.length === 0) return [];
  const done = new Set<string>();
  const translations = await trx
    .selectFrom('translations as t')
    .innerJoin('keys as k', 'k.id', 't.key_id')
    .select(['t.key_id', 't.locale', 't.source_hash', 't.stale', 't.text'])
    .where('k.project_id', '=', project.id)
    .where('k.path', 'in', paths)
    .execute();
  const currentText = new Map<string, string>();
  for (const t of translations) {
    currentText.set(`${t.key_id}\u0000${t.locale}`, t.text);
    if (!t.stale) done.add(`${t.key_id}\u0000${t.locale}\u0000${t.source_hash}`);
  }
  const held = await trx
    .selectFrom('held_translations as h')
    .innerJoin('keys as k', 'k.id', 'h.key_id')
    .select(['h.key_id', 'h.locale', 'h.source_hash'])
    .where('k.project_id', '=', project.id)
    .where('k.path', 'in', paths)
    .where('h.state', '=', 'held')
    .execute();
  for (const h of held) done.add(`${h.key_id}\u0000${h.locale}\u0000${h.source_hash}`);
  const open = await trx
    .selectFrom('batch_rows as r')
    .innerJoin('keys as k', 'k.id', 'r.key_id')
    .select(['r.key_id', 'r.locale', 'r.source_hash'])
    .where('k.project_id', '=', project.id)
    .where('k.path', 'in', paths)
    .where('r.status', '=', 'queued')
    .execute();
  for (const r of open) done.add(`${r.key_id}\u0000${r.locale}\u0000${r.source_hash}`);

  const rows: WorkRow[] = [];
  const pending = keys.filter((k) => k.entry.translatable !== false);
  const shaOf = (k: (typeof pending)[number]) => sourceSha(k.entry.source, k.entry.plurals ?? null, k.entry.context ?? null);
  // Rows the translation memory already answers are not charged: the worker reuses the match without a provider.
  const memory = new Map<string, Awaited<ReturnType<typeof exactMatches>>>();
  for (const locale of locales) {
    const work = pending.filter((k) => !done.has(`${k.id}\u0000${locale}\u0000${k.hash}`));
    if (work.length > 0) memory.set(locale, await exactMatches(trx, project.organisation_id, project.source_locale, locale, work.map(shaOf)));
  }
  for (const k of pending) {
    const pass = k.entry.pass ?? 'fast';
    for (const locale of locales) {
      if (done.has(`${k.id}\u0000${locale}\u0000${k.hash}`)) continue;
      const match = memory.get(locale)?.get(shaOf(k));
      const words = usableMatch(match, pass, currentText.get(`${k.id}\u0000${locale}`)) ? 0 : entryWords(k.entry);
      rows.push({ key_id: k.id, locale, source_hash: k.hash, pass, words });
    }
  }
  return rows;
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

function keyColumns(entry: SourceEntry, hash: string, position: number) {
  return {
    key: entry.key,
    source: entry.source,
    source_plurals: entry.plurals ? JSON.stringify(entry.plurals) : null,
    translatable: entry.translatable !== false,
    notes: entry.notes ?? null,
    context: entry.context ?? null,
    max_length: entry.maxLength ?? null,
    pass: entry.pass ?? ('fast' as const),
    source_hash: hash,
    position,
    line: entry.line ?? null,
    state: 'active' as const,
    removed_at: null,
  };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export type PushService = ReturnType<typeof createPushService>;
