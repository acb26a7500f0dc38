/**
 * The translation step of a batch for one (locale, pass) group: mask, ask the provider, restore, run the four gates,
 * give hard failures their one corrective retry, and decide each row: written (passed, corrected or flagged),
 * refused (held for review) or failed (the provider could not answer; the batch can be retried).
 */
import type { PluralForms } from '../../../src/core/formats/codec.js';
import { runGates, termTranslation, termsInSource } from '../../../src/core/gates/index.js';
import type { GateFailure, GateReport, GlossaryTerm } from '../../../src/core/gates/types.js';
import type { StoredFailure } from '../../db/schema.js';
import { ProviderError, type GlossaryHint, type MemoryHint, type Pass, type ProviderRow, type RowResult, type StyleGuide, type TranslationProvider } from '../../providers/provider.js';
import { assemble, shapeOf, type Assembled, type RowShape } from './row-shape.js';

export interface PipelineRow {
  id: string;
  key: string;
  source: string;
  sourcePlurals: PluralForms | null;
  notes: string | null;
  context: string | null;
  /** The effective length budget: the key's max length, else the project's default budget, else none. */
  maxLength: number | undefined;
}

export interface PipelineGroup {
  sourceLocale: string;
  targetLocale: string;
  pass: Pass;
  provider: TranslationProvider;
  glossary: readonly GlossaryTerm[];
  rows: readonly PipelineRow[];
  /** Careful pass: neighbouring keys of a row (source text, unmasked). */
  neighbours?: (row: PipelineRow) => readonly { key: string; text: string }[];
  /** Careful pass: fuzzy translation-memory matches of a row. */
  memory?: (row: PipelineRow) => readonly MemoryHint[];
  signal?: AbortSignal;
  /** The project's style guide, sent with every request. */
  style?: StyleGuide;
  /**
   * The shapes of plain strings by source, shared by the groups of one chunk: a plain string's shape does not depend
   * on the target locale, so a source queued in three locales is masked once.
   */
  shapes?: Map<string, RowShape>;
}

export type RowDecision =
  | { kind: 'written'; row: PipelineRow; value: Assembled; gateOutcome: 'passed' | 'corrected' | 'flagged'; failures: StoredFailure[]; retries: number }
  | { kind: 'refused'; row: PipelineRow; value: Assembled; failures: StoredFailure[]; retries: number }
  | { kind: 'failed'; row: PipelineRow; reason: string; retries: number };


/** The gates for an assembled translation of `row`. */
export function gateRow(row: PipelineRow, value: Assembled, sourceLocale: string, targetLocale: string, glossary: readonly GlossaryTerm[]): GateReport {
  return runGates({
    sourceLocale,
    targetLocale,
    source: row.source,
    sourcePlurals: row.sourcePlurals ?? undefined,
    target: value.text,
    targetPlurals: value.plurals ?? undefined,
    maxLength: row.maxLength,
    glossary,
  });
}

function stored(failures: readonly GateFailure[], attempt: number): StoredFailure[] {
  return failures.map((f) => ({ gate: f.gate, reason: f.reason, attempt }));
}

function glossaryHints(source: string, glossary: readonly GlossaryTerm[], locale: string): GlossaryHint[] {
  return termsInSource(source, glossary).map((t) => {
    const translation = termTranslation(t, locale);
    return { term: t.term, forbidden: t.forbidden, ...(translation !== undefined ? { translation } : {}) };
  });
}

interface Attempt {
  row: PipelineRow;
  shape: RowShape;
  /** Masked answers by part name. */
  answers: Map<string, string>;
  value?: Assembled;
  report?: GateReport;
  failedReason?: string;
}

export async function translateGroup(group: PipelineGroup): Promise<RowDecision[]> {
  const { provider, targetLocale, sourceLocale } = group;
  const shapes = group.shapes;
  const shape = (row: PipelineRow): RowShape => {
    if (row.sourcePlurals || !shapes) return shapeOf(row.source, row.sourcePlurals, targetLocale);
    const known = shapes.get(row.source);
    if (known) return known;
    const made = shapeOf(row.source, null, targetLocale);
    if (made.kind === 'plain') shapes.set(row.source, made);
    return made;
  };
  const attempts: Attempt[] = group.rows.map((row) => ({ row, shape: shape(row), answers: new Map() }));

  const requestRows = (subset: readonly Attempt[], correction: boolean): ProviderRow[] =>
    subset.flatMap((a) => {
      const { row } = a;
      const hints = provider.instructable ? glossaryHints(row.source, group.glossary, targetLocale) : [];
      const careful = group.pass === 'careful' && provider.instructable;
      const neighbours = careful ? group.neighbours?.(row) : undefined;
      const memory = careful ? group.memory?.(row) : undefined;
      const reasons = correction ? (a.report?.failures ?? []).map((f) => f.reason) : [];
      return a.shape.parts
        .filter((p) => p.wordy)
        .map(
          (p): ProviderRow => ({
            id: `${row.id}\u0000${p.name}`,
            text: p.masked,
            key: row.key,
            ...(row.notes ? { notes: row.notes } : {}),
            ...(row.context ? { context: row.context } : {}),
            ...(row.maxLength !== undefined ? { maxLength: row.maxLength } : {}),
            ...(hints.length > 0 ? { glossary: hints } : {}),
            ...(neighbours && neighbours.length > 0 ? { neighbours: neighbours.map((n) => ({ key: n.key, text: n.text })) } : {}),
            ...(memory && memory.length > 0 ? { memory } : {}),
            ...(correction ? { correction: { previous: a.answers.get(p.name) ?? '', reasons } } : {}),
          }),
        );
    });

  /** One provider call for `subset`; fills answers, or marks every row of the subset failed when the whole call failed. */
  const call = async (subset: Attempt[], correction: boolean): Promise<void> => {
    // Parts without letters (only placeholders, digits, punctuation) are their own translation.
    for (const a of subset) for (const p of a.shape.parts) if (!p.wordy) a.answers.set(p.name, p.masked);
    const rows = requestRows(subset, correction);
    if (rows.length === 0) return;
    let results: RowResult[];
    try {
      results = await provider.translate({ sourceLocale, targetLocale, pass: group.pass, rows, ...(group.signal ? { signal: group.signal } : {}), ...(group.style ? { style: group.style } : {}) });
    } catch (error) {
      if (group.signal?.aborted) throw error;
      const reason = `provider_error: ${error instanceof ProviderError ? error.message : String(error)}`;
      for (const a of subset) a.failedReason = reason;
      return;
    }
    const byAttempt = new Map(subset.map((a) => [a.row.id, a]));
    for (const result of results) {
      const [rowId, partName] = result.id.split('\u0000') as [string, string];
      const a = byAttempt.get(rowId);
      if (!a) continue;
      if (result.ok) a.answers.set(partName, result.text);
      else a.failedReason ??= `provider_error: ${result.reason}`;
    }
    for (const a of subset) {
      if (a.failedReason) continue;
      if (a.shape.parts.some((p) => !a.answers.has(p.name))) a.failedReason = 'provider_error: no answer for this row';
    }
  };

  const judge = (a: Attempt): void => {
    if (a.failedReason) return;
    a.value = assemble(a.shape, a.answers);
    a.report = gateRow(a.row, a.value, sourceLocale, targetLocale, group.glossary);
  };

  await call(attempts, false);
  attempts.forEach(judge);
  const firstReports = new Map(attempts.map((a) => [a.row.id, a.report]));

  // One corrective retry for hard failures, with the reasons given back to the provider.
  const retry = attempts.filter((a) => a.report?.outcome === 'refused');
  if (retry.length > 0) {
    await call(retry, true);
    retry.forEach(judge);
  }
  const retried = new Set(retry.map((a) => a.row.id));

  return attempts.map((a): RowDecision => {
    const retries = retried.has(a.row.id) ? 1 : 0;
    if (a.failedReason || !a.value || !a.report) return { kind: 'failed', row: a.row, reason: a.failedReason ?? 'provider_error: no answer for this row', retries };
    const first = firstReports.get(a.row.id);
    const failures = retries && first ? [...stored(first.failures, 1), ...stored(a.report.failures, 2)] : stored(a.report.failures, 1);
    if (a.report.outcome === 'refused') return { kind: 'refused', row: a.row, value: a.value, failures, retries };
    const gateOutcome = a.report.outcome === 'flagged' ? 'flagged' : retries ? 'corrected' : 'passed';
    return { kind: 'written', row: a.row, value: a.value, gateOutcome, failures, retries };
  });
}
