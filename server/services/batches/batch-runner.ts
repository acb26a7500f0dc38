/** Runs one batch to the end: claims it with a database lease, translates queued rows chunk by chunk, settles words. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PassName } from '../../db/schema.js';
import { ProviderError, type RowResult, type TranslationProvider } from '../../providers/provider.js';
import { refundWords } from '../allowance.js';
import type { Logger } from '../../logger.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import { sourceFormsFor } from '../../../src/core/plurals.js';

export interface BatchRunnerDeps {
  db: Db;
  provider: TranslationProvider;
  log: Logger;
  workerId: string;
  chunkRows: number;
  leaseSeconds: number;
}

interface ClaimedRow {
  id: string;
  key_id: string;
  locale: string;
  pass: PassName;
  source_hash: string;
  key: string;
  source: string;
  notes: string | null;
  max_length: number | null;
  source_plurals: PluralForms | null;
}

/** A row's result: plain text, or plural forms with exactly the target locale's categories. */
type RowOutcome = { ok: true; text: string; plurals: PluralForms | null } | { ok: false; reason: string };
type ChunkOutcome = { row: ClaimedRow; result: RowOutcome };

/** A plural row goes to the provider as one text per target category, each starting from the matching source form. */
function providerTexts(row: ClaimedRow): { id: string; text: string }[] {
  if (!row.source_plurals) return [{ id: String(row.id), text: row.source }];
  return Object.entries(sourceFormsFor(row.locale, row.source_plurals)).map(([category, text]) => ({ id: `${row.id}:${category}`, text }));
}

function combine(row: ClaimedRow, byId: ReadonlyMap<string, RowResult>): RowOutcome {
  const parts = providerTexts(row).map((part) => ({ part, result: byId.get(part.id) }));
  const failed = parts.find((p) => !p.result || !p.result.ok);
  if (failed) return { ok: false, reason: failed.result && !failed.result.ok ? failed.result.reason : 'provider_error: no result for this row' };
  if (!row.source_plurals) return { ok: true, text: (parts[0]!.result as { text: string }).text, plurals: null };
  const plurals: PluralForms = {};
  for (const { part, result } of parts) plurals[part.id.slice(part.id.lastIndexOf(':') + 1) as keyof PluralForms] = (result as { text: string }).text;
  return { ok: true, text: plurals.other ?? Object.values(plurals)[0] ?? '', plurals };
}

export function createBatchRunner(deps: BatchRunnerDeps) {
  const { db, provider, log, workerId } = deps;
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

  async function claimChunk(batchId: string): Promise<ClaimedRow[]> {
    return db
      .selectFrom('batch_rows as r')
      .innerJoin('keys as k', 'k.id', 'r.key_id')
      .select(['r.id', 'r.key_id', 'r.locale', 'r.pass', 'r.source_hash', 'k.key', 'k.source', 'k.notes', 'k.max_length', 'k.source_plurals'])
      .where('r.batch_id', '=', batchId)
      .where('r.status', '=', 'queued')
      .orderBy('r.id')
      .limit(deps.chunkRows)
      .execute();
  }

  async function translateChunk(rows: ClaimedRow[], sourceLocale: string, signal: AbortSignal): Promise<ChunkOutcome[]> {
    const groups = new Map<string, ClaimedRow[]>();
    for (const row of rows) {
      const group = `${row.locale}\u0000${row.pass}`;
      groups.set(group, [...(groups.get(group) ?? []), row]);
    }
    const outcomes: ChunkOutcome[] = [];
    for (const group of groups.values()) {
      const first = group[0]!;
      let results: RowResult[];
      try {
        results = await provider.translate({
          sourceLocale,
          targetLocale: first.locale,
          pass: first.pass,
          signal,
          rows: group.flatMap((row) =>
            providerTexts(row).map((part) => ({
              id: part.id,
              text: part.text,
              key: row.key,
              ...(row.notes ? { notes: row.notes } : {}),
              ...(row.max_length !== null ? { maxLength: row.max_length } : {}),
            })),
          ),
        });
      } catch (error) {
        if (signal.aborted) throw error;
        const reason = error instanceof ProviderError ? `provider_error: ${error.message}` : `provider_error: ${String(error)}`;
        log.warn('provider call failed', { locale: first.locale, rows: group.length, reason });
        results = group.flatMap((row) => providerTexts(row).map((part) => ({ id: part.id, ok: false as const, reason })));
      }
      const byId = new Map(results.map((result) => [result.id, result]));
      for (const row of group) outcomes.push({ row, result: combine(row, byId) });
    }
    return outcomes;
  }

  /** Writes a chunk's results in one transaction; rows no longer queued (cancelled meanwhile) are left alone. */
  async function commitChunk(batchId: string, outcomes: ChunkOutcome[]): Promise<'continue' | 'stopped'> {
    return db.transaction().execute(async (trx) => {
      const batch = await trx.selectFrom('batches').select(['status']).where('id', '=', batchId).forUpdate().executeTakeFirst();
      if (!batch || batch.status !== 'running') return 'stopped';

      const keyIds = [...new Set(outcomes.map((o) => o.row.key_id))];
      const current = await trx.selectFrom('keys').select(['id', 'source_hash']).where('id', 'in', keyIds).execute();
      const currentHash = new Map(current.map((k) => [k.id, k.source_hash]));

      const translated = outcomes.filter((o) => o.result.ok && currentHash.get(o.row.key_id) === o.row.source_hash);
      const superseded = outcomes.filter((o) => o.result.ok && currentHash.get(o.row.key_id) !== o.row.source_hash);
      const failed = outcomes.filter((o) => !o.result.ok);

      if (translated.length > 0) {
        const updated = await trx
          .updateTable('batch_rows')
          .set({ status: 'done', outcome: 'translated', reason: null, provider: provider.name, attempts: sql`attempts + 1`, updated_at: sql`now()` })
          .where('id', 'in', translated.map((o) => o.row.id))
          .where('status', '=', 'queued')
          .returning('id')
          .execute();
        const won = new Set(updated.map((u) => String(u.id)));
        const writes = translated.filter((o) => won.has(String(o.row.id)));
        if (writes.length > 0) {
          await trx
            .insertInto('translations')
            .values(
              writes.map((o) => ({
                key_id: o.row.key_id,
                locale: o.row.locale,
                text: (o.result as { text: string }).text,
                plurals: (o.result as { plurals: PluralForms | null }).plurals ? JSON.stringify((o.result as { plurals: PluralForms }).plurals) : null,
                source_hash: o.row.source_hash,
                origin: provider.name,
                batch_id: batchId,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['key_id', 'locale']).doUpdateSet((eb) => ({
                text: eb.ref('excluded.text'),
                plurals: eb.ref('excluded.plurals'),
                source_hash: eb.ref('excluded.source_hash'),
                origin: eb.ref('excluded.origin'),
                batch_id: eb.ref('excluded.batch_id'),
                updated_at: sql`now()`,
              })),
            )
            .execute();
        }
      }
      if (superseded.length > 0) {
        await trx
          .updateTable('batch_rows')
          .set({ status: 'done', outcome: 'superseded', reason: 'the source changed while this row was translated; a newer batch carries it', attempts: sql`attempts + 1`, updated_at: sql`now()` })
          .where('id', 'in', superseded.map((o) => o.row.id))
          .where('status', '=', 'queued')
          .execute();
      }
      for (const o of failed) {
        await trx
          .updateTable('batch_rows')
          .set({ status: 'failed', outcome: 'failed', reason: (o.result as { reason: string }).reason, attempts: sql`attempts + 1`, updated_at: sql`now()` })
          .where('id', '=', o.row.id)
          .where('status', '=', 'queued')
          .execute();
      }
      return 'continue';
    });
  }

  /** Settles the batch: unspent words go back to the allowance, exactly once, guarded by the status change. */
  async function finalize(batchId: string) {
    await db.transaction().execute(async (trx) => {
      const batch = await trx
        .selectFrom('batches')
        .innerJoin('projects', 'projects.id', 'batches.project_id')
        .select(['batches.status', 'batches.words_reserved', 'batches.words_refunded', 'projects.organisation_id'])
        .where('batches.id', '=', batchId)
        .forUpdate()
        .executeTakeFirst();
      if (!batch || (batch.status !== 'running' && batch.status !== 'queued')) return;
      const tally = await batchTally(trx, batchId);
      if (tally.queued > 0) return;
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
      log.info('batch finished', { batch: batchId, failed: tally.failed, words_spent: tally.wordsSpent });
    });
  }

  /** The job handler: idempotent, safe to run twice or after a crash. */
  async function run(batchId: string, signal: AbortSignal): Promise<void> {
    const lease = await takeLease(batchId);
    if (!lease) return;
    try {
      const project = await db
        .selectFrom('projects')
        .select(['source_locale'])
        .where('id', '=', lease.project_id)
        .executeTakeFirstOrThrow();
      if (lease.status === 'queued') {
        await db.updateTable('batches').set({ status: 'running', started_at: sql`coalesce(started_at, now())` }).where('id', '=', batchId).where('status', '=', 'queued').execute();
      }
      while (!signal.aborted) {
        const rows = await claimChunk(batchId);
        if (rows.length === 0) {
          await finalize(batchId);
          return;
        }
        const outcomes = await translateChunk(rows, project.source_locale, signal);
        if (signal.aborted) return;
        if ((await commitChunk(batchId, outcomes)) === 'stopped') return;
        if (!(await takeLease(batchId))) return;
        // The embedded database runs on this thread: let pending HTTP I/O through between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await releaseLease(batchId);
    }
  }

  return { run };
}

export interface BatchTally {
  queued: number;
  done: number;
  failed: number;
  cancelled: number;
  wordsSpent: number;
  outcomes: Record<string, number>;
}

/** Counts a batch's rows by status and outcome; derived on read rather than kept in counters that could drift. */
export async function batchTally(db: Pick<Db, 'selectFrom'>, batchId: string): Promise<BatchTally> {
  const groups = await db
    .selectFrom('batch_rows')
    .select((eb) => ['status', 'outcome', eb.fn.countAll<string>().as('rows'), eb.fn.sum<string>('words').as('words')])
    .where('batch_id', '=', batchId)
    .groupBy(['status', 'outcome'])
    .execute();
  const tally: BatchTally = { queued: 0, done: 0, failed: 0, cancelled: 0, wordsSpent: 0, outcomes: {} };
  for (const group of groups) {
    const rows = Number(group.rows);
    tally[group.status] += rows;
    if (group.outcome) tally.outcomes[group.outcome] = (tally.outcomes[group.outcome] ?? 0) + rows;
    if (group.outcome === 'translated') tally.wordsSpent += Number(group.words ?? 0);
  }
  return tally;
}
