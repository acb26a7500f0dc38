/**
 * "Re-run" on the Parlance check run: every batch the commit's run reports, checked again against the service's current
 * source and the translations it holds now, reported as a new run that says what changed since the last one.
 */
import type { ParlanceClient } from '../../../src/client/client.js';
import type { BatchRow, QaRun, TranslationRow } from '../../../src/client/types.js';
import { addBatch, findCommitCheckRun, recheckState, reportCheckRun, type CheckRow } from '../check-run.js';
import { createHash } from 'node:crypto';
import type { GitHubClient } from '../translation-pr.js';
import { checkRowsOf } from './batch-completed.js';
import { readRepositoryFile } from './repository.js';

/** POST /v1/qa/run takes at most this many rows. */
const QA_ROWS_PER_RUN = 10_000;
/** Batches one re-run reads back; a commit's run lists at most this many. */
const BATCHES_PER_RERUN = 100;
/** Source files compared with the commit's own; a re-run over more skips the comparison for the rest. */
const SOURCES_COMPARED = 20;

const rowId = (r: { key: string; path: string | null; locale: string }) => `${r.path ?? ''}\u0000${r.key}\u0000${r.locale}`;

/**
 * The check rows after a QA run. A row the batch refused that still has no stored translation stays refused: re-running
 * the gates cannot pass a translation that does not exist. A row whose latest translation for the current source is
 * held (refused) stays refused even when an older stored translation passes: that older text was written for another
 * source, and passing it would turn the check green with nothing fixed.
 */
export function rerunCheckRows(
  batchRows: readonly BatchRow[],
  runs: readonly Pick<QaRun, 'items' | 'not_checked'>[],
  held: readonly Pick<TranslationRow, 'key' | 'path' | 'locale' | 'failures'>[] = [],
): CheckRow[] {
  const byId = new Map(batchRows.map((r) => [rowId(r), r]));
  const rows = new Map<string, CheckRow>();
  for (const item of runs.flatMap((r) => r.items)) {
    if (item.outcome === 'passed') continue;
    const line = byId.get(rowId(item))?.line ?? null;
    // The failures follow as a list under the reason (annotationsFor), so the reason only says what the re-run found.
    const reason = item.outcome === 'refused' ? 'Refused by the gates on re-run' : 'Flagged by the gates on re-run';
    rows.set(rowId(item), { key: item.key, locale: item.locale, path: item.path, line: line ?? 1, outcome: item.outcome, reason: line === null ? `${reason} (the key's line is unknown)` : reason, gate_failures: item.failures });
  }
  for (const missing of runs.flatMap((r) => r.not_checked)) {
    const row = byId.get(rowId(missing));
    if (!row || !(row.outcome === 'refused' || row.gate_outcome === 'refused')) continue;
    rows.set(rowId(row), { key: row.key, locale: row.locale, path: row.path, line: row.line ?? 1, outcome: 'refused', reason: `Still no translation: ${missing.reason}`, gate_failures: row.gate_failures });
  }
  for (const h of held) {
    const row = byId.get(rowId(h));
    if (!row || rows.get(rowId(h))?.outcome === 'refused') continue;
    rows.set(rowId(h), { key: row.key, locale: row.locale, path: row.path, line: row.line ?? 1, outcome: 'refused', reason: 'The translation of the current source is still refused', gate_failures: h.failures });
  }
  return [...rows.values()];
}

export interface CheckRerunInput {
  octokit: GitHubClient;
  client: ParlanceClient;
  owner: string;
  repo: string;
  headSha: string;
  /** The batch the re-requested run names (its external id); the commit's run may list more. */
  batchId: string;
  serviceUrl: string;
}

/**
 * The gates run against the source the service holds now; where that is not this commit's file (a later push changed
 * it, or this commit's change never reached the service), the summary says so rather than passing it off as this commit's.
 */
async function sourceNotes(input: CheckRerunInput, paths: readonly string[]): Promise<string[]> {
  const { octokit, client, owner, repo, headSha } = input;
  const held = new Map((await client.files()).map((f) => [f.path, f.sha256]));
  const notes: string[] = [];
  for (const path of paths.slice(0, SOURCES_COMPARED)) {
    const content = await readRepositoryFile(octokit, owner, repo, path, headSha);
    const at = headSha.slice(0, 7);
    if (content === null) notes.push(`\`${path}\` is not in this commit (${at}); its rows were checked against the source Parlance holds.`);
    else if (held.get(path) !== createHash('sha256').update(content).digest('hex')) {
      notes.push(`\`${path}\` at this commit (${at}) differs from the source Parlance holds now; the rows were checked against Parlance's, the source of the latest push.`);
    }
  }
  return notes;
}

export async function handleCheckRerun(input: CheckRerunInput): Promise<{ id: number; conclusion: string; fixed: number; remaining: number }> {
  const { octokit, client, owner, repo, headSha } = input;
  const serviceUrl = input.serviceUrl.replace(/\/+$/, '');
  const batchUrl = (id: string) => `${serviceUrl}/v1/batches/${encodeURIComponent(id)}`;
  const existing = await findCommitCheckRun(octokit, owner, repo, headSha);
  const batchIds = existing ? existing.state.batches.map((b) => b.id).slice(-BATCHES_PER_RERUN) : [input.batchId];

  // Every row of every batch of the commit, the later batch's row winning for a key and locale reported twice.
  const tracked = new Map<string, BatchRow>();
  let previous = existing?.state ?? null;
  for (const id of batchIds) {
    const rows = await client.batchRows(id);
    for (const row of rows) tracked.set(rowId(row), row);
    // A run from before the state was kept: what its batch reported is the baseline for "fixed".
    if (!existing) previous = addBatch(previous, { id, url: batchUrl(id) }, checkRowsOf(rows));
  }
  const batchRows = [...tracked.values()];
  const targets = batchRows.map((r) => ({ key: r.key, locale: r.locale, path: r.path }));
  const runs: QaRun[] = [];
  for (let i = 0; i < targets.length; i += QA_ROWS_PER_RUN) runs.push(await client.qaRun({ rows: targets.slice(i, i + QA_ROWS_PER_RUN) }));

  // The service lists held rows only while their source is unchanged: the refusals of the current source.
  const held: TranslationRow[] = [];
  for (const path of new Set(batchRows.map((r) => r.path))) held.push(...(await client.translations({ state: 'held', path })));

  const removed = runs.flatMap((r) => r.not_checked).filter((m) => m.reason === 'no active key with this name');
  const notes = removed.length > 0 ? [`${removed.length} row${removed.length === 1 ? '' : 's'} of keys no longer in the source were dropped.`] : [];
  notes.push(...(await sourceNotes(input, [...new Set(batchRows.map((r) => r.path))])));
  const rows = rerunCheckRows(batchRows, runs, held);
  const state = recheckState(previous ?? addBatch(null, { id: input.batchId, url: batchUrl(input.batchId) }, []), rows, notes);
  // GitHub's guidance for a re-requested check is a new run on the same commit; the old one keeps its history.
  const run = await reportCheckRun({ octokit, owner, repo, headSha, batch: { id: input.batchId, url: batchUrl(input.batchId) }, rows, state });
  return { id: run.id, conclusion: run.conclusion, fixed: state.recheck?.fixed ?? 0, remaining: state.recheck?.remaining ?? 0 };
}
