/** The two writes of a translation row: a written translation, and a candidate held back from files (held or rejected). */
import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import { unnestRows } from '../../db/bulk.js';
import type { HeldTranslationsTable, TranslationsTable } from '../../db/schema.js';

type Executor = Pick<Db, 'insertInto'>;

export type TranslationWrite = Omit<Insertable<TranslationsTable>, 'stale' | 'updated_at'>;
export type HeldWrite = Omit<Insertable<HeldTranslationsTable>, 'created_at' | 'updated_at'>;

const timestamp = (value: Date | string | null | undefined): string | null => (value == null ? null : new Date(value).toISOString());

/** The columns a translation and a held candidate share, for `unnestRows`. */
const candidateColumns = <R extends TranslationWrite | HeldWrite>() =>
  ({
    key_id: ['text', (r: R) => r.key_id],
    locale: ['text', (r: R) => r.locale],
    text: ['text', (r: R) => r.text],
    plurals: ['jsonb', (r: R) => r.plurals ?? null],
    source_hash: ['text', (r: R) => r.source_hash],
  }) as const;

/** Writes translations, replacing what a key had in the locale; the result is current again (not stale). */
export async function writeTranslations(db: Executor, rows: readonly TranslationWrite[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('translations')
    .columns(['key_id', 'locale', 'text', 'plurals', 'source_hash', 'origin', 'batch_id', 'state', 'failures', 'reviewed_at'])
    .expression(
      unnestRows(rows, {
        ...candidateColumns<TranslationWrite>(),
        origin: ['text', (r) => r.origin],
        batch_id: ['text', (r) => r.batch_id ?? null],
        state: ['text', (r) => r.state ?? 'accepted'],
        failures: ['jsonb', (r) => r.failures ?? null],
        reviewed_at: ['timestamptz', (r) => timestamp(r.reviewed_at)],
      }),
    )
    .onConflict((oc) =>
      oc.columns(['key_id', 'locale']).doUpdateSet((eb) => ({
        text: eb.ref('excluded.text'),
        plurals: eb.ref('excluded.plurals'),
        source_hash: eb.ref('excluded.source_hash'),
        origin: eb.ref('excluded.origin'),
        batch_id: eb.ref('excluded.batch_id'),
        state: eb.ref('excluded.state'),
        failures: eb.ref('excluded.failures'),
        reviewed_at: eb.ref('excluded.reviewed_at'),
        stale: false,
        updated_at: sql`now()`,
      })),
    )
    .execute();
}

/** Keeps candidates out of files, replacing an earlier candidate of the same key and locale. */
export async function holdCandidates(db: Executor, rows: readonly HeldWrite[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('held_translations')
    .columns(['key_id', 'locale', 'text', 'plurals', 'source_hash', 'failures', 'origin', 'batch_id', 'state'])
    .expression(
      unnestRows(rows, {
        ...candidateColumns<HeldWrite>(),
        failures: ['jsonb', (r) => r.failures],
        origin: ['text', (r) => r.origin],
        batch_id: ['text', (r) => r.batch_id ?? null],
        state: ['text', (r) => r.state],
      }),
    )
    .onConflict((oc) =>
      oc.columns(['key_id', 'locale']).doUpdateSet((eb) => ({
        text: eb.ref('excluded.text'),
        plurals: eb.ref('excluded.plurals'),
        source_hash: eb.ref('excluded.source_hash'),
        failures: eb.ref('excluded.failures'),
        origin: eb.ref('excluded.origin'),
        batch_id: eb.ref('excluded.batch_id'),
        state: eb.ref('excluded.state'),
        updated_at: sql`now()`,
      })),
    )
    .execute();
}
