/** "Re-run" on the Parlance check run: the quality gates again over the batch's stored translations, reported as a new check run. */
import type { ParlanceClient } from '../../../src/client/client.js';
import type { BatchRow, QaRun } from '../../../src/client/types.js';
import { reportCheckRun, type CheckRow } from '../check-run.js';
import type { GitHubClient } from '../translation-pr.js';

/** POST /v1/qa/run takes at most this many rows. */
const QA_ROWS_PER_RUN = 10_000;

const rowId = (r: { key: string; path: string | null; locale: string }) => `${r.path ?? ''}\u0000${r.key}\u0000${r.locale}`;

/**
 * The check rows after a QA run: refused and flagged items at their key's line. A row the batch refused that still
 * has no stored translation stays refused: re-running the gates cannot pass a translation that does not exist.
 */
export function rerunCheckRows(batchRows: readonly BatchRow[], runs: readonly Pick<QaRun, 'items' | 'not_checked'>[]): CheckRow[] {
  const byId = new Map(batchRows.map((r) => [rowId(r), r]));
  const rows: CheckRow[] = [];
  for (const item of runs.flatMap((r) => r.items)) {
    if (item.outcome === 'passed') continue;
    const line = byId.get(rowId(item))?.line ?? null;
    const reason = item.failures.map((f) => `${f.gate}: ${f.reason}`).join('; ');
    rows.push({ key: item.key, locale: item.locale, path: item.path, line: line ?? 1, outcome: item.outcome, reason: line === null ? `${reason} (the key's line is unknown)` : reason, gate_failures: item.failures });
  }
  for (const missing of runs.flatMap((r) => r.not_checked)) {
    const row = byId.get(rowId(missing));
    if (!row || !(row.outcome === 'refused' || row.gate_outcome === 'refused')) continue;
    rows.push({ key: row.key, locale: row.locale, path: row.path, line: row.line ?? 1, outcome: 'refused', reason: `Still no translation: ${missing.reason}`, gate_failures: row.gate_failures });
  }
  return rows;
}

export interface CheckRerunInput {
  octokit: GitHubClient;
  client: ParlanceClient;
  owner: string;
  repo: string;
  headSha: string;
  batchId: string;
  serviceUrl: string;
}

export async function handleCheckRerun(input: CheckRerunInput): Promise<{ id: number; conclusion: string }> {
  const { client, batchId } = input;
  const batchRows = await client.batchRows(batchId);
  const targets = batchRows.map((r) => ({ key: r.key, locale: r.locale, path: r.path }));
  const runs: QaRun[] = [];
  for (let i = 0; i < targets.length; i += QA_ROWS_PER_RUN) runs.push(await client.qaRun({ rows: targets.slice(i, i + QA_ROWS_PER_RUN) }));
  const url = `${input.serviceUrl.replace(/\/+$/, '')}/v1/batches/${encodeURIComponent(batchId)}`;
  // GitHub's guidance for a re-requested check is a new run on the same commit; the old one keeps its history.
  const run = await reportCheckRun({ octokit: input.octokit, owner: input.owner, repo: input.repo, headSha: input.headSha, batch: { id: batchId, url }, rows: rerunCheckRows(batchRows, runs) });
  return { id: run.id, conclusion: run.conclusion };
}
