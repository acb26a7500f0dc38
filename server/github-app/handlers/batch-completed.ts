/** `batch.completed` for a linked repository: pull every target file, sync the one translation pull request, and report the check runs. */
import type { ParlanceClient } from '../../../src/client/client.js';
import type { BatchRow } from '../../../src/client/types.js';
import { matchSourcePaths } from '../../../src/project-config/match-source-paths.js';
import { targetPaths } from '../../../src/project-config/target-paths.js';
import { reportCheckRun, type CheckRow } from '../check-run.js';
import type { GithubLink } from '../links.js';
import type { BatchReport, LocaleTally } from '../pr-body.js';
import { branchFor, syncTranslationPullRequest, type GitHubClient, type SyncResult, type TargetFile } from '../translation-pr.js';
import type { AppMemory } from './app-memory.js';
import { listFilePaths, readBranchHead, readParlanceConfig, splitRepository } from './repository.js';

/** Outcomes of rows whose translation was written: by a provider, or from the translation memory. */
const WRITTEN_OUTCOMES: ReadonlySet<string> = new Set(['translated', 'memory']);

/** Counts per locale for the PR body, from the batch's rows. */
export function localeTallies(rows: readonly BatchRow[]): LocaleTally[] {
  const byLocale = new Map<string, LocaleTally>();
  for (const row of rows) {
    const tally = byLocale.get(row.locale) ?? { locale: row.locale, translated: 0, refused: 0, flagged: 0, words: 0 };
    if (WRITTEN_OUTCOMES.has(row.outcome)) tally.translated += 1;
    if (isRefused(row)) tally.refused += 1;
    else if (row.gate_outcome === 'flagged') tally.flagged += 1;
    tally.words += row.words;
    byLocale.set(row.locale, tally);
  }
  return [...byLocale.values()];
}

function isRefused(row: Pick<BatchRow, 'outcome' | 'gate_outcome'>): boolean {
  return row.outcome === 'refused' || row.gate_outcome === 'refused';
}

/**
 * The batch's refused and flagged rows as check rows. A row without a source line (keys pushed without a file) is
 * pinned to line 1 of its file and says so, rather than being left out of the check.
 */
export function checkRowsOf(rows: readonly BatchRow[]): CheckRow[] {
  return rows
    .filter((row) => isRefused(row) || row.gate_outcome === 'flagged')
    .map((row) => {
      const reason = row.reason ?? row.gate_failures.map((f) => f.reason).join('; ');
      return {
        key: row.key,
        locale: row.locale,
        path: row.path,
        line: row.line ?? 1,
        outcome: isRefused(row) ? ('refused' as const) : ('flagged' as const),
        reason: row.line === null ? `${reason} (the key's line in the source file is unknown)` : reason,
        gate_failures: row.gate_failures,
      };
    });
}

export interface BatchCompletedInput {
  octokit: GitHubClient;
  client: ParlanceClient;
  link: GithubLink;
  batchId: string;
  /** The service's public base URL, for links to the batch and the project. */
  serviceUrl: string;
  memory: AppMemory;
}

/** Pulls each source file the service knows, in every locale, at the path its rule's template gives. */
async function pullTargetFiles(input: BatchCompletedInput, owner: string, repo: string, baseSha: string, locales: readonly string[]): Promise<TargetFile[]> {
  const { octokit, client, link } = input;
  const config = await readParlanceConfig(octokit, owner, repo, link.config_path, baseSha);
  const wanted = config.locales ?? locales;
  const known = new Set((await client.files()).map((f) => f.path));
  // A source file the service has never received has nothing to pull; the next push of it starts its translation.
  const sources = matchSourcePaths(config, await listFilePaths(octokit, owner, repo, baseSha)).filter((s) => known.has(s.path));
  const files: TargetFile[] = [];
  for (const target of targetPaths(config, sources, wanted)) {
    if (target.path === target.source.path) continue;
    const pulled = await client.pull({ path: target.source.path, locale: target.locale, ...(target.source.rule.format ? { format: target.source.rule.format } : {}) });
    files.push({ path: target.path, content: pulled.body });
  }
  return files;
}

export async function handleBatchCompleted(input: BatchCompletedInput): Promise<{ sync: SyncResult; checkRuns: number[] }> {
  const { octokit, client, link, batchId, memory } = input;
  const { owner, repo } = splitRepository(link.repository);
  const serviceUrl = input.serviceUrl.replace(/\/+$/, '');
  const baseSha = await readBranchHead(octokit, owner, repo, link.base_branch);
  const project = await client.project();
  const files = await pullTargetFiles(input, owner, repo, baseSha, project.target_locales);
  const rows = await client.batchRows(batchId);
  const batch: BatchReport = { id: batchId, url: `${serviceUrl}/v1/batches/${encodeURIComponent(batchId)}`, locales: localeTallies(rows) };

  const drift = memory.takeDrift(link.id);
  let sync: SyncResult;
  try {
    sync = await syncTranslationPullRequest({
      octokit,
      owner,
      repo,
      base: link.base_branch,
      files,
      batch,
      project: { name: project.name, url: `${serviceUrl}/v1/project` },
      ...(drift.length > 0 ? { drift } : {}),
    });
  } catch (error) {
    memory.addDrift(link.id, drift);
    throw error;
  }
  // Drift shown in no pull request (nothing changed and none open) waits for the next one.
  if (sync.pr === null) memory.addDrift(link.id, drift);

  const checkRows = checkRowsOf(rows);
  const heads = new Set<string>();
  // The batch's own commit, or the branch head when the batch changed nothing the PR does not already show.
  if (sync.pr) heads.add(sync.commit ?? (await readBranchHead(octokit, owner, repo, branchFor(link.base_branch))));
  heads.add(memory.triggerOf(batchId) ?? baseSha);
  const checkRuns: number[] = [];
  for (const headSha of heads) {
    const run = await reportCheckRun({ octokit, owner, repo, headSha, batch, rows: checkRows });
    checkRuns.push(run.id);
  }
  return { sync, checkRuns };
}
