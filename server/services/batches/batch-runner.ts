/** Runs one batch to the end: claims it with a database lease, translates queued rows chunk by chunk through the quality gates, settles words. */
import { sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { selectJsonRows, unnestRows } from '../../db/bulk.js';
import type { Db } from '../../db/database.js';
import type { MemoryOrigin, PassName, RowGateOutcome, StoredFailure } from '../../db/schema.js';
import type { TranslationProvider } from '../../providers/provider.js';
import { refundWords } from '../allowance.js';
import { batchTally } from './batch-tally.js';
import type { Logger } from '../../logger.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import type { GlossaryTerm } from '../../../src/core/gates/types.js';
import { exactMatchesAcross, fuzzyMatches, matchKey, memoryMatch, rememberTranslations, sourceSha, styledSha, styleKey, usableMatch, type ExactMatch, type MemoryWrite } from '../quality/memory.js';
import { gateRow, translateGroup, type PipelineRow } from '../quality/translate-rows.js';
import type { RowShape } from '../quality/row-shape.js';
import { loadGlossary } from '../quality/glossary-service.js';
import { readTranslationSetup, styleGuideOf, type OwnKeys, type TranslationSettings } from '../translation-settings.js';
import { lengthBudget } from '../quality/budget.js';
import { holdCandidates, writeTranslations } from '../quality/translation-writes.js';
import { emitBatchFinished } from '../../webhooks/batch-events.js';

export interface Providers {
  fast: TranslationProvider;
  careful: TranslationProvider;
}

/** A project's choice for one pass (GET/PATCH /v1/project/translation); null fields keep the operator's default. */
export type ProviderChoice = TranslationSettings['fast'];

export interface BatchRunnerDeps {
  db: Db;
  providers: Providers;
  /** The provider for a project's choice and own keys; without it, or for a choice of nulls and no key, `providers`. */
  providerFor?: (pass: PassName, choice: ProviderChoice, ownKeys?: OwnKeys) => TranslationProvider;
  /** PARLANCE_SECRET_KEY, which opens a project's own provider keys. */
  secretKey?: Uint8Array;
  log: Logger;
  workerId: string;
  chunkRows: number;
  leaseSeconds: number;
  /** Told when this worker has settled a batch (completed or failed), after the commit: wakes waiting requests. */
  onSettled?: (batchId: string) => void;
}

interface ClaimedRow {
  id: string;
  key_id: string;
  locale: string;
  pass: PassName;
  source_hash: string;
  key: string;
  path: string;
  position: number;
  source: string;
  notes: string | null;
  context: string | null;
  max_length: number | null;
  source_plurals: PluralForms | null;
  /** The key's translation in the row's locale now, if any: a memory match equal to it is not reused. */
  current_text: string | null;
  /** The source's memory sha (`sourceSha`), worked out once when the chunk is claimed. */
  sha?: string;
  /** Where a machine translation of it under the project's style guide is remembered (`styledSha`); `sha` when none applies. */
  styled?: string;
}

interface ProjectInfo {
  id: string;
  organisation_id: string;
  source_locale: string;
  length_budget_percent: number | null;
}

/** What happened to one claimed row; `origin` is the provider's name, or 'memory' for a translation-memory reuse. */
type ChunkOutcome =
  | {
      row: ClaimedRow;
      kind: 'written';
      value: { text: string; plurals: PluralForms | null };
      gateOutcome: Exclude<RowGateOutcome, 'refused'>;
      failures: StoredFailure[];
      retries: number;
      origin: string;
      fromMemory: boolean;
    }
  | { row: ClaimedRow; kind: 'refused'; value: { text: string; plurals: PluralForms | null }; failures: StoredFailure[]; retries: number; origin: string }
  | { row: ClaimedRow; kind: 'failed'; reason: string; retries: number };

/** Accepted machine translations join the memory; flagged ones wait for a reviewer's approval. */
function memoryWrites(project: ProjectInfo, outcomes: readonly ChunkOutcome[]): MemoryWrite[] {
  return outcomes
    .filter((o): o is Extract<ChunkOutcome, { kind: 'written' }> => o.kind === 'written' && !o.fromMemory && o.gateOutcome !== 'flagged')
    .map((o) => ({
      organisationId: project.organisation_id,
      sourceLocale: project.source_locale,
      locale: o.row.locale,
      source: o.row.source,
      sourcePlurals: o.row.source_plurals,
      context: o.row.context,
      text: o.value.text,
      plurals: o.value.plurals,
      origin: o.row.pass as MemoryOrigin,
      sha: o.row.styled!,
    }));
}

/**
 * What a chunk's commit adds to the memory, by `matchKey`, as `exactMatchesAcross` would find it afterwards. The
 * commit may still set a row aside (its source or a human translation changed meanwhile); such a translation of the
 * same source text is offered anyway, as it would have been had that row committed.
 */
function memoryOf(project: ProjectInfo, outcomes: readonly ChunkOutcome[]): Map<string, ExactMatch> {
  const result = new Map<string, ExactMatch>();
  for (const w of memoryWrites(project, outcomes)) {
    result.set(matchKey(w.locale, w.sha!), { text: w.text, plurals: w.plurals, origin: w.origin });
  }
  return result;
}

/** The chunk being translated beside another: the sources it holds (by `matchKey`), and what its translation adds to the memory. */
interface Beside {
  keys: ReadonlySet<string>;
  memory: Promise<ReadonlyMap<string, ExactMatch>>;
}

/** The columns a chunk's commit writes on a batch row (see `commitChunk`). */
interface BatchRowValues {
  status: 'done' | 'failed';
  outcome: string;
  reason?: string | null;
  provider?: string;
  gate_outcome?: string;
  failures?: string | null;
  retries: number;
  repaired_drift?: boolean;
}

/**
 * A run that settled at least this many rows refreshes the planner's statistics of the tables it filled before the
 * batch completes (see `run`).
 */
const STATISTICS_ROWS = 1000;

/** Chunks aim at about this long: long enough to fill the provider's requests in flight, short enough that a crash loses little. */
const CHUNK_TARGET_MS = 4000;
/** Chunks grow to at most this many times BATCH_CHUNK_ROWS. */
const CHUNK_GROWTH = 8;

/**
 * How many rows the next chunk claims: BATCH_CHUNK_ROWS at first, then scaled by how far the last chunk was from
 * CHUNK_TARGET_MS (at most doubled or halved at a time), between the setting and 8 times it. Every chunk costs a fixed
 * number of statements, and a chunk's rows are all the provider gets at once, its last requests running with the
 * places around them empty: fast work (memory matches, machine translation, the pseudo provider) and a hosted model
 * that answers many requests in parallel both get larger chunks (a 500 ms model with 16 requests in flight translates
 * about 1,300 rows a second), while a slow provider keeps chunks at the setting, and a crash still loses at most a few
 * seconds of work.
 */
function chunkSizer(base: number) {
  let size = base;
  return {
    next: () => size,
    took(ms: number) {
      const scale = Math.min(2, Math.max(0.5, CHUNK_TARGET_MS / Math.max(1, ms)));
      size = Math.min(base * CHUNK_GROWTH, Math.max(base, Math.round(size * scale)));
    },
  };
}

const json = (value: unknown): string | null => (value === null || (Array.isArray(value) && value.length === 0) ? null : JSON.stringify(value));

export function createBatchRunner(deps: BatchRunnerDeps) {
  const { db, providers, log, workerId } = deps;
  const leaseInterval = sql<Date>`now() + (${deps.leaseSeconds}::int * interval '1 second')`;

  /** Takes or renews the batch's lease; only one worker at a time processes a batch. */
  async function takeLease(batchId: string) {
    return db
      .updateTable('batches')
      .set({ lease_owner: workerId, lease_expires_at: leaseInterval })
      .where('id', '=', batchId)
      .where('status', 'in', ['queued', 'running'])
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', workerId), eb('lease_expires_at', '<', sql<Date>`now()`)]))
      .returning(['id', 'status', 'project_id'])
      .executeTakeFirst();
  }

  async function releaseLease(batchId: string) {
    await db
      .updateTable('batches')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', '=', batchId)
      .where('lease_owner', '=', workerId)
      .execute();
  }

  /**
   * The next `limit` queued rows of the batch in row order, after row `after` when given (the rows of a chunk still
   * being committed are queued until it commits), read as one JSON text (bulk.ts); the bigint id as text. The rows are
   * taken first, in a subquery of their own (a limit is never flattened into a join), and only they are joined to
   * their keys and translations: the batch's rows are read in index order and no further than the limit, whatever
   * the planner believes of the tables. Joined in one query, the first claim of a 200,000-key batch was planned for
   * the few queued rows the statistics of the push's tables knew of, and joined all 600,000 before sorting them (3.2 s).
   */
  async function claimChunk(batchId: string, limit: number, after: string | undefined): Promise<ClaimedRow[]> {
    return selectJsonRows(
      db,
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('batch_rows')
            .select(['id', 'key_id', 'locale', 'pass', 'source_hash'])
            .where('batch_id', '=', batchId)
            .where('status', '=', 'queued')
            .$if(after !== undefined, (q) => q.where('id', '>', sql<string>`${after}::bigint`))
            .orderBy('id')
            .limit(limit)
            .as('r'),
        )
        .innerJoin('keys as k', 'k.id', 'r.key_id')
        .leftJoin('translations as t', (join) => join.onRef('t.key_id', '=', 'r.key_id').onRef('t.locale', '=', 'r.locale'))
        .select([sql<string>`r.id::text`.as('id'), 'r.id as row_order', 'r.key_id', 'r.locale', 'r.pass', 'r.source_hash', 'k.key', 'k.path', 'k.position', 'k.source', 'k.notes', 'k.context', 'k.max_length', 'k.source_plurals', 't.text as current_text']),
      'row_order',
    );
  }

  /** Up to two keys either side of each careful row, in file order: the context a human translator would see. */
  async function neighboursOf(project: ProjectInfo, rows: readonly ClaimedRow[]): Promise<Map<string, { key: string; text: string }[]>> {
    const result = new Map<string, { key: string; text: string }[]>();
    const careful = rows.filter((r) => r.pass === 'careful');
    if (careful.length === 0) return result;
    const around = await db
      .selectFrom('keys')
      .select(['path', 'key', 'source', 'position'])
      .where('project_id', '=', project.id)
      .where('state', '=', 'active')
      .where((eb) => eb.or(careful.map((r) => eb.and([eb('path', '=', r.path), eb('position', '>=', r.position - 2), eb('position', '<=', r.position + 2)]))))
      .execute();
    for (const r of careful) {
      result.set(
        String(r.id),
        around
          .filter((k) => k.path === r.path && k.key !== r.key && Math.abs(k.position - r.position) <= 2)
          .sort((a, b) => a.position - b.position)
          .map((k) => ({ key: k.key, text: k.source })),
      );
    }
    return result;
  }

  /**
   * `committing`: what the chunk before this one, whose commit is still under way, adds to the memory (see
   * `memoryOf`), so a source it translated is reused here exactly as it would be once committed.
   */
  /** The provider of a pass for the project's settings and own keys: its own choice, else the operator's. */
  function providerOf(pass: PassName, settings: TranslationSettings, ownKeys: OwnKeys): TranslationProvider {
    const choice = settings[pass];
    if (deps.providerFor && (choice.provider !== null || choice.model !== null || Object.keys(ownKeys).length > 0)) return deps.providerFor(pass, choice, ownKeys);
    return pass === 'careful' ? providers.careful : providers.fast;
  }

  async function translateChunk(
    rows: ClaimedRow[],
    project: ProjectInfo,
    glossary: readonly GlossaryTerm[],
    settings: TranslationSettings,
    ownKeys: OwnKeys | { problem: string },
    committing: ReadonlyMap<string, ExactMatch>,
    signal: AbortSignal,
    beside?: Beside,
  ): Promise<ChunkOutcome[]> {
    const style = styleGuideOf(settings);
    /** Rows by locale and pass: each group goes to its provider in one call. */
    const groupsOf = (list: readonly ClaimedRow[]) => {
      const groups = new Map<string, ClaimedRow[]>();
      for (const row of list) {
        const group = `${row.locale}\u0000${row.pass}`;
        const rowsOfGroup = groups.get(group);
        if (rowsOfGroup) rowsOfGroup.push(row);
        else groups.set(group, [row]);
      }
      return [...groups.values()];
    };
    const pipelineRow = (row: ClaimedRow): PipelineRow => ({
      id: String(row.id),
      key: row.key,
      source: row.source,
      sourcePlurals: row.source_plurals,
      notes: row.notes,
      context: row.context,
      maxLength: lengthBudget(row.max_length, project.length_budget_percent, row.source, row.source_plurals),
    });
    const outcomes: ChunkOutcome[] = [];
    const shapes = new Map<string, RowShape>();
    const neighbours = await neighboursOf(project, rows);
    // Translation memory first, for the whole chunk in one query: an exact, accepted match that still passes today's
    // gates costs nothing. A person's translation is found by the source; a machine one by the source and the style.
    const matches = await exactMatchesAcross(
      db,
      project.organisation_id,
      project.source_locale,
      rows.flatMap((r) => [{ locale: r.locale, sha: r.sha! }, ...(r.styled === r.sha ? [] : [{ locale: r.locale, sha: r.styled! }])]),
    );
    for (const [key, match] of committing) matches.set(key, match);
    const matchOf = (row: ClaimedRow) => memoryMatch(matches, row.locale, row.sha!, row.styled!);
    // The locale and pass groups go to their providers at once: a provider keeps its own limit of requests in flight.
    const translateOne = async (group: ClaimedRow[]): Promise<void> => {
      const { locale, pass } = group[0]!;
      const toTranslate: ClaimedRow[] = [];
      for (const row of group) {
        const match = matchOf(row);
        if (usableMatch(match, pass, row.current_text ?? undefined)) {
          const value = { text: match.text, plurals: match.plurals };
          const report = gateRow(pipelineRow(row), value, project.source_locale, locale, glossary);
          if (report.outcome !== 'refused') {
            const failures = report.failures.map((f) => ({ gate: f.gate, reason: f.reason, attempt: 1 }));
            outcomes.push({ row, kind: 'written', value, gateOutcome: report.outcome, failures, retries: 0, origin: 'memory', fromMemory: true });
            continue;
          }
        }
        toTranslate.push(row);
      }
      if (toTranslate.length === 0) return;

      if ('problem' in ownKeys) {
        // The project's own keys do not open: its rows fail, saying why, rather than spend the operator's credentials.
        for (const row of toTranslate) outcomes.push({ row, kind: 'failed', reason: ownKeys.problem, retries: 0 });
        return;
      }
      const provider = providerOf(pass, settings, ownKeys);
      const byId = new Map(toTranslate.map((r) => [String(r.id), r]));
      const memory = new Map<string, Awaited<ReturnType<typeof fuzzyMatches>>>();
      if (pass === 'careful' && provider.instructable) {
        for (const row of toTranslate) {
          if (!row.source_plurals) memory.set(String(row.id), await fuzzyMatches(db, project.organisation_id, project.source_locale, locale, row.source));
        }
      }
      const decisions = await translateGroup({
        sourceLocale: project.source_locale,
        targetLocale: locale,
        pass,
        provider,
        glossary,
        rows: toTranslate.map(pipelineRow),
        neighbours: (r) => neighbours.get(r.id) ?? [],
        memory: (r) => memory.get(r.id) ?? [],
        signal,
        shapes,
        ...(style ? { style } : {}),
      });
      for (const d of decisions) {
        const row = byId.get(d.row.id)!;
        if (d.kind === 'failed') {
          log.warn('row failed', { batch_row: row.id, locale, reason: d.reason });
          outcomes.push({ row, kind: 'failed', reason: d.reason, retries: d.retries });
        } else if (d.kind === 'refused') {
          outcomes.push({ row, kind: 'refused', value: d.value, failures: d.failures, retries: d.retries, origin: provider.name });
        } else {
          outcomes.push({ row, kind: 'written', value: d.value, gateOutcome: d.gateOutcome, failures: d.failures, retries: d.retries, origin: provider.name, fromMemory: false });
        }
      }
    };
    // A source the chunk beside this one is translating waits for its answer, which the memory then gives: each
    // source goes to the provider once per locale, whichever chunks its keys fall in.
    const waits = (row: ClaimedRow) => beside !== undefined && matchOf(row) === undefined && beside.keys.has(matchKey(row.locale, row.styled!));
    const now = rows.filter((row) => !waits(row));
    const later = rows.filter(waits);
    // Every group settles before a failure is passed on, so no request outlives the chunk it belongs to.
    const throwFailure = (settled: PromiseSettledResult<void>[]) => {
      const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failure) throw failure.reason;
    };
    throwFailure(await Promise.allSettled(groupsOf(now).map(translateOne)));
    if (later.length > 0 && beside) {
      for (const [key, match] of await beside.memory) if (!matches.has(key)) matches.set(key, match);
      throwFailure(await Promise.allSettled(groupsOf(later).map(translateOne)));
    }
    return outcomes;
  }

  /** Writes a chunk's results in one transaction; rows no longer queued (cancelled meanwhile) are left alone. */
  async function commitChunk(batchId: string, project: ProjectInfo, outcomes: ChunkOutcome[]): Promise<'continue' | 'stopped'> {
    return db.transaction().execute(async (trx) => {
      // Not waiting for the commit's write-ahead log to reach the disk: a crash can lose only the last chunks' commits,
      // whose rows are then still queued and translated again (a chunk charges nothing and sends no event).
      await sql`set local synchronous_commit = off`.execute(trx);
      const batch = await trx.selectFrom('batches').select(['status']).where('id', '=', batchId).forUpdate().executeTakeFirst();
      if (!batch || batch.status !== 'running') return 'stopped';

      const keyIds = [...new Set(outcomes.map((o) => o.row.key_id))];
      // Arrays, not IN lists: one parameter instead of one per key.
      const current = await trx.selectFrom('keys').select(['id', 'source_hash']).where(sql<boolean>`id = any(${keyIds}::text[])`).execute();
      const currentHash = new Map(current.map((k) => [k.id, k.source_hash]));
      // Each key's translations by a search of the primary key: `offset 0` keeps the lateral subquery from being
      // flattened into a join. As `key_id = any(...)`, a 200,000-key batch's later chunks were planned as a scan of
      // the whole table, its statistics taken while it was nearly empty (125 ms a chunk, and growing).
      const existing = (
        await sql<{ key_id: string; locale: string; source_hash: string; state: string; stale: boolean }>`
          select t.key_id, t.locale, t.source_hash, t.state, t.stale from unnest(${keyIds}::text[]) as x(key_id)
          cross join lateral (select key_id, locale, source_hash, state, stale from translations where key_id = x.key_id offset 0) as t`.execute(trx)
      ).rows;
      const humanDone = new Set(existing.filter((t) => t.state === 'human').map((h) => `${h.key_id}\u0000${h.locale}\u0000${h.source_hash}`));
      // A translation of an older source (or one a glossary change marked stale) that this row replaces: drift repaired.
      const drifted = new Set(existing.filter((t) => t.stale || t.source_hash !== currentHash.get(t.key_id)).map((t) => `${t.key_id}\u0000${t.locale}`));

      // Each row's new batch_rows values; rows with identical values (the common case: passed) share one statement.
      const rowValues = new Map<ChunkOutcome, BatchRowValues>();
      const kind = new Map<ChunkOutcome, 'failed' | 'skipped' | 'held' | 'written'>();
      for (const o of outcomes) {
        if (o.kind === 'failed') {
          rowValues.set(o, { status: 'failed', outcome: 'failed', reason: o.reason, retries: o.retries });
          kind.set(o, 'failed');
        } else if (currentHash.get(o.row.key_id) !== o.row.source_hash) {
          rowValues.set(o, { status: 'done', outcome: 'superseded', reason: 'the source changed while this row was translated; a newer batch carries it', provider: o.origin, retries: o.retries });
          kind.set(o, 'skipped');
        } else if (humanDone.has(`${o.row.key_id}\u0000${o.row.locale}\u0000${o.row.source_hash}`)) {
          rowValues.set(o, { status: 'done', outcome: 'kept_human', reason: 'a person translated this string meanwhile; machine passes never overwrite a human translation of the same source', provider: o.origin, retries: o.retries });
          kind.set(o, 'skipped');
        } else if (o.kind === 'refused') {
          const last = Math.max(...o.failures.map((f) => f.attempt ?? 1));
          const reason = `refused by the quality gates${o.retries ? ' after one corrective retry' : ''}: ${o.failures.filter((f) => (f.attempt ?? 1) === last).map((f) => f.reason).join('; ')}`;
          rowValues.set(o, { status: 'done', outcome: 'refused', reason, provider: o.origin, gate_outcome: 'refused', failures: json(o.failures), retries: o.retries });
          kind.set(o, 'held');
        } else {
          const reason = o.gateOutcome === 'flagged' ? `written and flagged for review: ${o.failures.filter((f) => f.gate === 'length').map((f) => f.reason).join('; ')}` : null;
          rowValues.set(o, {
            status: 'done',
            outcome: o.fromMemory ? 'memory' : 'translated',
            reason,
            provider: o.origin,
            gate_outcome: o.gateOutcome,
            failures: json(o.failures),
            retries: o.retries,
            repaired_drift: drifted.has(`${o.row.key_id}\u0000${o.row.locale}`),
          });
          kind.set(o, 'written');
        }
      }
      // The ids also as an array, and the status test written as an expression the partial index of queued rows does
      // not answer: the rows are then found by the primary key however stale the table's statistics are (otherwise
      // the planner, believing the table small, scanned the index of every queued row of every batch, 600,000 of
      // them in a 200,000-key batch, for each chunk).
      // Conditional on the row still being queued: a cancel or a second worker never makes a row count twice. A queued
      // row has no provider, gate outcome, failures or repair yet (a retry re-queues only failed rows, which never get
      // them), so an outcome without them writes their empty values.
      const updates = outcomes.map((o) => ({ id: o.row.id, ...(rowValues.get(o) as BatchRowValues) }));
      const updated = await sql<{ id: string }>`
        update batch_rows r set status = x.status, outcome = x.outcome, reason = x.reason, provider = x.provider, gate_outcome = x.gate_outcome,
          failures = x.failures, retries = x.retries, repaired_drift = x.repaired_drift, attempts = r.attempts + 1, updated_at = now()
        from ${unnestRows(updates, {
          id: ['bigint', (u) => u.id],
          status: ['text', (u) => u.status],
          outcome: ['text', (u) => u.outcome],
          reason: ['text', (u) => u.reason ?? null],
          provider: ['text', (u) => u.provider ?? null],
          gate_outcome: ['text', (u) => u.gate_outcome ?? null],
          failures: ['jsonb', (u) => u.failures ?? null],
          retries: ['int', (u) => u.retries],
          repaired_drift: ['bool', (u) => u.repaired_drift ?? false],
        })} as x
        where r.id = x.id and r.id = any(${updates.map((u) => u.id)}::bigint[]) and (r.status || '') = 'queued'
        returning r.id`.execute(trx);
      const won = new Set(updated.rows.map((u) => String(u.id)));
      const plurals = (o: { value: { plurals: PluralForms | null } }) => (o.value.plurals ? JSON.stringify(o.value.plurals) : null);
      const held = outcomes.filter((o): o is Extract<ChunkOutcome, { kind: 'refused' }> => kind.get(o) === 'held' && won.has(String(o.row.id)));
      await holdCandidates(
        trx,
        held.map((o) => ({ key_id: o.row.key_id, locale: o.row.locale, text: o.value.text, plurals: plurals(o), source_hash: o.row.source_hash, failures: JSON.stringify(o.failures), origin: o.origin, batch_id: batchId, state: 'held' as const })),
      );
      const written = outcomes.filter((o): o is Extract<ChunkOutcome, { kind: 'written' }> => kind.get(o) === 'written' && won.has(String(o.row.id)));
      if (written.length > 0) {
        await writeTranslations(
          trx,
          written.map((o) => ({
            key_id: o.row.key_id,
            locale: o.row.locale,
            text: o.value.text,
            plurals: plurals(o),
            source_hash: o.row.source_hash,
            origin: o.origin,
            batch_id: batchId,
            state: o.gateOutcome === 'flagged' ? ('flagged' as const) : ('accepted' as const),
            failures: json(o.failures.filter((f) => (f.attempt ?? 1) === (o.retries ? 2 : 1))),
          })),
        );
        // A newly written translation supersedes any candidate that was held for the same key and locale.
        await sql`delete from held_translations h using ${unnestRows(written, { key_id: ['text', (o) => o.row.key_id], locale: ['text', (o) => o.row.locale] })} as x
          where h.key_id = x.key_id and h.locale = x.locale`.execute(trx);
      }

      const remembered = memoryWrites(project, written);
      if (remembered.length > 0) await rememberTranslations(trx, remembered);
      return 'continue';
    });
  }

  /** Settles the batch: unspent words go back to the allowance, exactly once, guarded by the status change. */
  async function finalize(batchId: string) {
    const finished = await db.transaction().execute(async (trx) => {
      const batch = await trx
        .selectFrom('batches')
        .innerJoin('projects', 'projects.id', 'batches.project_id')
        .select(['batches.status', 'batches.words_reserved', 'batches.words_refunded', 'projects.organisation_id'])
        .where('batches.id', '=', batchId)
        .forUpdate()
        .executeTakeFirst();
      if (!batch || (batch.status !== 'running' && batch.status !== 'queued')) return false;
      const tally = await batchTally(trx, batchId);
      if (tally.queued > 0) return false;
      const refund = batch.words_reserved - tally.wordsSpent - batch.words_refunded;
      await refundWords(trx, batch.organisation_id, refund);
      await trx
        .updateTable('batches')
        .set({
          status: tally.failed > 0 ? 'failed' : 'completed',
          error: tally.failed > 0 ? `${tally.failed} row(s) failed; POST /v1/batches/${batchId}/retry queues them again` : null,
          words_refunded: batch.words_refunded + Math.max(0, refund),
          finished_at: sql`now()`,
          lease_owner: null,
          lease_expires_at: null,
        })
        .where('id', '=', batchId)
        .execute();
      await emitBatchFinished(trx, batchId, tally);
      log.info('batch finished', { batch: batchId, failed: tally.failed, words_spent: tally.wordsSpent });
      return true;
    });
    if (finished) deps.onSettled?.(batchId);
  }

  /** The job handler: idempotent, safe to run twice or after a crash. */
  async function run(batchId: string, signal: AbortSignal): Promise<void> {
    const lease = await takeLease(batchId);
    if (!lease) return;
    try {
      const project: ProjectInfo = await db
        .selectFrom('projects')
        .select(['id', 'organisation_id', 'source_locale', 'length_budget_percent'])
        .where('id', '=', lease.project_id)
        .executeTakeFirstOrThrow();
      if (lease.status === 'queued') {
        await db.updateTable('batches').set({ status: 'running', started_at: sql`coalesce(started_at, now())` }).where('id', '=', batchId).where('status', '=', 'queued').execute();
      }
      const chunkSize = chunkSizer(deps.chunkRows);
      // Pipelined: while one chunk commits, the next is claimed and translated, so the database's work and this
      // process's (gates, providers) overlap. `after` skips the committing chunk's rows, still queued until it commits.
      let committing: { commit: Promise<'continue' | 'stopped'>; memory: Map<string, ExactMatch>; started: number; committedAt: Promise<number> } | undefined;
      let after: string | undefined;
      let settledRows = 0;
      /** Waits for the chunk being committed; false when the batch stopped (cancelled, or the lease lost). */
      const settle = async (): Promise<boolean> => {
        if (!committing) return true;
        const { commit, started, committedAt } = committing;
        committing = undefined;
        if ((await commit) === 'stopped') return false;
        // The chunk's own time, claim to commit: not the next chunk's translation, which ran meanwhile.
        chunkSize.took((await committedAt) - started);
        return (await takeLease(batchId)) !== undefined;
      };
      /** A chunk claimed and being translated. */
      interface Translating {
        rows: ClaimedRow[];
        /** When it got the provider to itself: claimed, or when the chunk ahead of it was translated. */
        started: number;
        outcomes: Promise<ChunkOutcome[]>;
      }
      /** Claims the next chunk after the cursor and starts translating it; undefined when no row is left after it. */
      const claimAndTranslate = async (from: string | undefined, beside?: Translating): Promise<Translating | undefined> => {
        const started = performance.now();
        const rows = await claimChunk(batchId, chunkSize.next(), from);
        if (rows.length === 0) return undefined;
        after = rows[rows.length - 1]!.id;
        settledRows += rows.length;
        // Read per chunk, so a glossary edit during a long batch applies from the next chunk on.
        const glossary = await loadGlossary(db, project.id);
        // So are the project's translation settings: a new model or style guide applies from the next chunk on.
        // With the project's own keys, or why they do not open (the rows that need a provider then fail, saying so).
        const { settings, ownKeys } = await readTranslationSetup(db, project.id, deps.secretKey);
        const style = styleGuideOf(settings);
        const keys = new Map<string, string>();
        for (const r of rows) {
          const key = keys.get(r.locale) ?? styleKey(style, r.locale);
          keys.set(r.locale, key);
          r.sha = sourceSha(r.source, r.source_plurals, r.context);
          r.styled = styledSha(r.sha, key);
        }
        // A slow provider may take longer than the lease over one chunk: the lease is renewed while it works.
        const heartbeat = setInterval(() => void takeLease(batchId).catch((error: unknown) => log.warn('lease renewal failed', { batch: batchId, error })), (deps.leaseSeconds * 1000) / 3);
        const besideInfo: Beside | undefined = beside && {
          keys: new Set(beside.rows.map((r) => matchKey(r.locale, r.styled!))),
          memory: beside.outcomes.then(
            (done) => memoryOf(project, done),
            () => new Map<string, ExactMatch>(),
          ),
        };
        const outcomes = translateChunk(rows, project, glossary, settings, ownKeys, committing?.memory ?? new Map(), signal, besideInfo).finally(() => clearInterval(heartbeat));
        // Observed from now on: a chunk translated ahead may fail while the one before it is still awaited.
        outcomes.catch(() => undefined);
        return { rows, started, outcomes };
      };
      /**
       * The chunk translated beside the current one. Its requests queue behind the current chunk's at the provider, so
       * the provider's places stay full while the current chunk's last requests are out (one chunk at a time left
       * them nearly empty at every chunk's end: 1.3 times the floor against a provider allowing 8 in flight, 1.22
       * with this). Its rows whose source the current chunk is translating wait for that answer (translateChunk's
       * `beside`), so a source still goes to the provider once per locale.
       */
      let ahead: Translating | undefined;
      try {
        while (!signal.aborted) {
          let current = ahead ?? (await claimAndTranslate(after));
          ahead = undefined;
          if (!current) {
            // The first big push and batch of a project leave the planner's statistics of its keys and translations
            // far behind (PostgreSQL's autovacuum looks once a minute; PGlite has none), and the pull that follows at
            // once then reads them by plans made for a table of a few rows: a 10,000-key pull took 120 ms instead of
            // 80 on PGlite (bench/run.ts). ANALYZE reads a bounded sample (about 65 ms on PostgreSQL here, 80 on
            // PGlite, whatever the size). It starts as soon as nothing is left to claim, beside the last commit (on
            // PostgreSQL a connection each; PGlite runs them one after the other): a sample without the last chunk's
            // rows estimates the tables as well, and the batch ends about 50 ms sooner.
            const statistics = settledRows >= STATISTICS_ROWS ? sql`analyze keys, translations`.execute(db) : undefined;
            statistics?.catch(() => undefined);
            if (!(await settle())) return;
            // From the start again, once nothing is in flight: a row left queued behind the cursor is not forgotten.
            current = after === undefined ? undefined : await claimAndTranslate(undefined);
            await statistics;
            if (!current) {
              await finalize(batchId);
              return;
            }
          }
          if (!signal.aborted) ahead = await claimAndTranslate(after, current);
          const outcomes = await current.outcomes;
          if (ahead) ahead.started = performance.now();
          if (!(await settle()) || signal.aborted) return;
          const commit = commitChunk(batchId, project, outcomes);
          // Observed from now on (a rejection is not left unhandled while the next chunk translates), awaited by `settle`.
          commit.catch(() => undefined);
          committing = { commit, memory: memoryOf(project, outcomes), started: current.started, committedAt: commit.then(() => performance.now(), () => performance.now()) };
          // The embedded database runs on this thread: let pending HTTP I/O through between chunks.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        // The run fails with its own error; the chunk translated ahead and a commit still in flight end first, whatever their outcome.
        await ahead?.outcomes.catch(() => undefined);
        ahead = undefined;
        await committing?.commit.catch(() => undefined);
        committing = undefined;
        throw error;
      } finally {
        // Stopped (aborted, cancelled): no request of the chunk ahead outlives the run, and its rows stay queued.
        await ahead?.outcomes.catch(() => undefined);
        // A commit in flight ends before the lease is released, and its failure is the run's.
        if (committing) await committing.commit;
      }
    } finally {
      await releaseLease(batchId);
    }
  }

  return { run };
}
