/**
 * A person's translations, as PUT /v1/translations/:key/:locale and POST /v1/translations/upload write them: gated like
 * a machine's, stored as `human` (no machine pass overwrites them while their source is unchanged), remembered, announced.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { unnestRows } from '../../db/bulk.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import type { GateFailure, GlossaryTerm } from '../../../src/core/gates/types.js';
import { EVENT_LIST_LIMIT, emitEvent } from '../../webhooks/outbox.js';
import { lengthBudget } from './budget.js';
import { rememberTranslations } from './memory.js';
import { gateRow } from './translate-rows.js';
import { writeTranslations } from './translation-writes.js';

/** The key a human translation is for, as the `keys` table holds it. */
export interface HumanKey {
  id: string;
  key: string;
  path: string;
  source: string;
  source_plurals: PluralForms | null;
  source_hash: string;
  max_length: number | null;
  context: string | null;
}

/** The project facts the gates and the memory need. */
export interface HumanProject {
  organisation_id: string;
  source_locale: string;
  length_budget_percent: number | null;
}

export interface HumanValue {
  text: string;
  plurals: PluralForms | null;
}

/** The four gates on a person's value: `refused` when a placeholder, plural or glossary gate fails, `flagged` for a length overrun. */
export function gateHuman(k: HumanKey, value: HumanValue, project: HumanProject, locale: string, glossary: readonly GlossaryTerm[]) {
  const report = gateRow(
    { id: k.id, key: k.key, source: k.source, sourcePlurals: k.source_plurals, notes: null, context: null, maxLength: lengthBudget(k.max_length, project.length_budget_percent, k.source, k.source_plurals) },
    value,
    project.source_locale,
    locale,
    glossary,
  );
  return { outcome: report.outcome, failures: report.failures.map((f: GateFailure) => ({ gate: f.gate, reason: f.reason })) };
}

export interface HumanWrite {
  key: HumanKey;
  locale: string;
  value: HumanValue;
  /** What the gates said; kept on the row for a reviewer. */
  failures: { gate: string; reason: string }[];
}

/**
 * Writes `writes` as human translations in `trx`: replaces the key's translation and any held candidate, adds those no
 * refusing gate failed (a length overrun is a person's call) to the memory, and sends one `translation.updated`.
 */
export async function writeHumanTranslations(trx: Db, projectId: string, project: HumanProject, writes: readonly HumanWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const now = new Date();
  await writeTranslations(
    trx,
    writes.map((w) => ({
      key_id: w.key.id,
      locale: w.locale,
      text: w.value.text,
      plurals: w.value.plurals ? JSON.stringify(w.value.plurals) : null,
      source_hash: w.key.source_hash,
      origin: 'human',
      batch_id: null,
      state: 'human' as const,
      failures: w.failures.length ? JSON.stringify(w.failures) : null,
      reviewed_at: now,
    })),
  );
  await sql`delete from held_translations h using ${unnestRows(writes, { key_id: ['text', (w) => w.key.id], locale: ['text', (w) => w.locale] })} as x
    where h.key_id = x.key_id and h.locale = x.locale`.execute(trx);
  const remembered = writes.filter((w) => w.failures.every((f) => f.gate === 'length'));
  if (remembered.length > 0) {
    await rememberTranslations(
      trx,
      remembered.map((w) => ({
        organisationId: project.organisation_id,
        sourceLocale: project.source_locale,
        locale: w.locale,
        source: w.key.source,
        sourcePlurals: w.key.source_plurals,
        context: w.key.context,
        text: w.value.text,
        plurals: w.value.plurals,
        origin: 'human' as const,
      })),
    );
  }
  await emitEvent(trx, projectId, 'translation.updated', {
    origin: 'human',
    batch_id: null,
    count: writes.length,
    locales: [...new Set(writes.map((w) => w.locale))],
    translations: writes.slice(0, EVENT_LIST_LIMIT).map((w) => ({ key: w.key.key, path: w.key.path, locale: w.locale, state: 'human' as const })),
    truncated: writes.length > EVENT_LIST_LIMIT,
  });
}
