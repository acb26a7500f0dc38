/** The two writes of a translation row: a written translation, and a candidate held back from files (held or rejected). */
import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { HeldTranslationsTable, TranslationsTable } from '../../db/schema.js';

type Executor = Pick<Db, 'insertInto'>;

export type TranslationWrite = Omit<Insertable<TranslationsTable>, 'stale' | 'updated_at'>;
export type HeldWrite = Omit<Insertable<HeldTranslationsTable>, 'created_at' | 'updated_at'>;

/** Writes translations, replacing what a key had in the locale; the result is current again (not stale). */
export async function writeTranslations(db: Executor, rows: readonly TranslationWrite[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('translations')
    .values(rows.map((r) => ({ reviewed_at: null, ...r })))
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
    .values([...rows])
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
