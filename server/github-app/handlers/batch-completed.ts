/** `batch.completed` for a linked repository: pull every target file, sync the one translation pull request, and report the check runs. */
import type { ParlanceClient } from '../../../src/client/client.js';
import type { BatchRow } from '../../../src/client/types.js';
import type { ParlanceConfig } from '../../../src/project-config/parse-config.js';
import { matchSourcePaths } from '../../../src/project-config/match-source-paths.js';
import { targetPaths } from '../../../src/project-config/target-paths.js';
import { reportBatchOnCommit, type CheckRow } from '../check-run.js';
import type { GithubLink } from '../links.js';
import type { BatchReport, LocaleTally } from '../pr-body.js';
import { readTree, syncTranslationPullRequest, type GitHubClient, type SyncResult, type TargetFile, type TreeListing } from '../translation-pr.js';
import type { AppMemory } from './app-memory.js';
import { readBranchHead, readParlanceConfig, splitRepository } from './repository.js';

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

/**
 * One writer per repository branch in this process: jobs for the same repository and base run one after another, so
 * the second batch of a push reads (and builds on) the first batch's commit instead of racing it for the ref. Several
 * App processes are not coordinated here; there the compare-and-swap on the ref in syncTranslationPullRequest keeps
 * every commit safe, at the cost of a rebuilt attempt when two of them meet.
 */
const branchWriters = new Map<string, Promise<void>>();

/**
 * How long a job waits for the one before it. A job hung on a request that never answers must not stop the branch
 * for good; past this the next job goes ahead, and the compare-and-swap keeps the two from overwriting each other.
 */
export const BRANCH_LOCK_WAIT_MS = 5 * 60_000;

/** The lock key of a link's branch; GitHub's repository names are case-insensitive. */
export function branchLockKey(repository: string, base: string): string {
  return `${repository.toLowerCase()}:${base}`;
}

/** Runs `work` after every earlier job with the same key has settled (succeeded or failed), or after `waitLimitMs`. */
export function withBranchLock<T>(key: string, work: () => Promise<T>, waitLimitMs = BRANCH_LOCK_WAIT_MS): Promise<T> {
  const previous = branchWriters.get(key);
  let turn: Promise<void> = Promise.resolve();
  if (previous) {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitLimitMs);
      timer.unref();
    });
    turn = Promise.race([previous, waited]).finally(() => clearTimeout(timer));
  }
  const run = turn.then(work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  branchWriters.set(key, tail);
  // The last job of a chain removes it, so the map holds only branches with work in flight.
  void tail.then(() => {
    if (branchWriters.get(key) === tail) branchWriters.delete(key);
  });
  return run;
}

/** Pulls each source file the service knows, in every locale, at the path its rule's template gives. */
async function pullTargetFiles(client: ParlanceClient, config: ParlanceConfig, baseTree: TreeListing, locales: readonly string[]): Promise<TargetFile[]> {
  const wanted = config.locales ?? locales;
  const known = new Set((await client.files()).map((f) => f.path));
  const paths = [...baseTree.entries].filter(([, entry]) => entry.type === 'blob').map(([path]) => path);
  // A source file the service has never received has nothing to pull; the next push of it starts its translation.
  const sources = matchSourcePaths(config, paths).filter((s) => known.has(s.path));
  const files: TargetFile[] = [];
  for (const target of targetPaths(config, sources, wanted)) {
    if (target.path === target.source.path) continue;
    const pulled = await client.pull({ path: target.source.path, locale: target.locale, ...(target.source.rule.format ? { format: target.source.rule.format } : {}) });
    files.push({ path: target.path, content: pulled.body });
  }
  return files;
}

/** Syncs the batch under the branch's lock: the base head, its tree and `parlance.yml` are read once and passed down. */
export function handleBatchCompleted(input: BatchCompletedInput): Promise<{ sync: SyncResult; checkRuns: number[] }> {
  return withBranchLock(branchLockKey(input.link.repository, input.link.base_branch), () => syncBatch(input));
}

async function syncBatch(input: BatchCompletedInput): Promise<{ sync: SyncResult; checkRuns: number[] }> {
  const { octokit, client, link, batchId, memory } = input;
  const { owner, repo } = splitRepository(link.repository);
  const serviceUrl = input.serviceUrl.replace(/\/+$/, '');
  const baseSha = await readBranchHead(octokit, owner, repo, link.base_branch);
  const baseTree = await readTree(octokit, owner, repo, baseSha);
  // A truncated listing would silently drop the translations of the sources it leaves out.
  if (baseTree.truncated) throw new Error(`The tree of ${owner}/${repo}@${baseSha} is too large for one listing (GitHub truncated it); the App cannot find every source file.`);
  const config = await readParlanceConfig(octokit, owner, repo, link.config_path, baseSha);
  const project = await client.project();
  const files = await pullTargetFiles(client, config, baseTree, project.target_locales);
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
      baseSha,
      baseTree,
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
  if (sync.pr && sync.head !== null) heads.add(sync.head);
  heads.add(memory.triggerOf(batchId) ?? baseSha);
  const checkRuns: number[] = [];
  for (const headSha of heads) {
    // One run per commit, summarising every batch of it; this batch is added to the run the commit already has.
    const run = await reportBatchOnCommit({ octokit, owner, repo, headSha, batch, rows: checkRows });
    checkRuns.push(run.id);
  }
  return { sync, checkRuns };
}
