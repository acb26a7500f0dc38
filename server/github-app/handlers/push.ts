/** A push to a linked base branch or its translation branch `parlance/<base>`: source files go to the service (from the base; all that differ when `parlance.yml` changed), the values a person changed in managed translation files come back as human translations, and an unusable `parlance.yml` fails a check run. */
import { createHash } from 'node:crypto';
import type { ParlanceClient } from '../../../src/client/client.js';
import { ApiError } from '../../../src/client/client.js';
import { detectFormat, getCodec, isFormatId, type Codec } from '../../../src/core/formats/index.js';
import { RepoPathError, repoPathProblem } from '../../../src/core/repo-path.js';
import { ConfigFileError } from '../../../src/project-config/config-file-error.js';
import { matchSourcePaths, type SourceMatch } from '../../../src/project-config/match-source-paths.js';
import { parseConfig, type ParlanceConfig } from '../../../src/project-config/parse-config.js';
import { targetPaths, type TargetMatch } from '../../../src/project-config/target-paths.js';
import { reportConfigError } from '../config-check.js';
import type { GithubLink } from '../links.js';
import type { DriftImport } from '../pr-body.js';
import { BATCH_TRAILER, branchFor, type GitHubClient } from '../translation-pr.js';
import type { AppMemory } from './app-memory.js';
import { branchLockKey, withBranchLock } from './batch-completed.js';
import { handEdits, newestParlanceCommit, valueOf } from './hand-edits.js';
import { listFilePaths, readBranchHead, readRepositoryFile, splitRepository } from './repository.js';

export { handEdits } from './hand-edits.js';

/** The parts of a push payload the App reads. */
export interface PushFacts {
  ref: string;
  /** The branch head before the push; all zeros when the push created the branch. */
  before: string;
  after: string;
  deleted: boolean;
  sender: { login: string; type: string } | null;
  commits: readonly { id?: string; message: string; added?: readonly string[]; modified?: readonly string[] }[];
}

const ZERO_SHA = /^0+$/;

/**
 * What a pushed branch is to a link: its base branch (sources and hand edits), its translation branch
 * `parlance/<base>` (a person's edits of the App's files), or neither (null).
 */
export function pushedBranchRole(link: Pick<GithubLink, 'base_branch'>, branch: string): 'base' | 'translation' | null {
  if (branch === link.base_branch) return 'base';
  if (branch === branchFor(link.base_branch)) return 'translation';
  return null;
}

/** `Parlance-Batch: <id>` as a trailer line, as commitMessage writes it. */
const TRAILER_LINE = new RegExp(`^${BATCH_TRAILER}: \\S+$`, 'm');

/**
 * Why the App must not act on this push, or null. Its own pushes (the App's bot account, or commits all carrying the
 * batch trailer) would otherwise feed its translations back to the service as sources or drift.
 */
export function ownPushReason(push: Pick<PushFacts, 'sender' | 'commits'>, appLogin: string | undefined): string | null {
  if (push.sender?.type === 'Bot' && appLogin !== undefined && push.sender.login === appLogin) return `pushed by the App itself (${push.sender.login})`;
  if (push.commits.length > 0 && push.commits.every((c) => TRAILER_LINE.test(c.message))) return `every commit carries the ${BATCH_TRAILER} trailer`;
  return null;
}

/** Paths added or modified by the push's commits, each once. */
export function changedPaths(push: Pick<PushFacts, 'commits'>): Set<string> {
  return new Set(push.commits.flatMap((c) => [...(c.added ?? []), ...(c.modified ?? [])]));
}

function codecFor(target: TargetMatch, content: Uint8Array): Codec {
  const declared = target.source.rule.format;
  const id = declared ?? detectFormat(target.path, content);
  const codec = id && isFormatId(id) ? getCodec(id) : undefined;
  if (!codec) throw new Error(`Cannot tell the format of '${target.path}'${declared ? ` (format '${declared}' has no codec)` : ''}; set 'format' on its rule in parlance.yml.`);
  return codec;
}

export interface PushInput {
  octokit: GitHubClient;
  client: ParlanceClient;
  link: GithubLink;
  push: PushFacts;
  memory: AppMemory;
  log: { info(message: string, fields?: Record<string, unknown>): void; warn(message: string, fields?: Record<string, unknown>): void };
}

/**
 * The versions of the pushed files that hand edits are measured against: the branch before the push (for a branch
 * the push created: nothing on the base branch, the base head on the translation branch), and the App's newest
 * commit the push brought in, if any (a merged translation pull request).
 */
async function baselineCommits(input: PushInput, owner: string, repo: string, role: 'base' | 'translation'): Promise<(string | null)[]> {
  const { octokit, link, push } = input;
  const before = ZERO_SHA.test(push.before) ? (role === 'translation' ? await readBranchHead(octokit, owner, repo, link.base_branch) : null) : push.before;
  const parlance = newestParlanceCommit(push.commits);
  return parlance !== undefined && parlance !== before ? [before, parlance] : [before];
}

/**
 * Imports one translation file's hand edits as human translations: only the values the person changed in this push
 * (see baselineCommits), never what merely differs from the service's current state. A value the gates refuse is
 * logged and skipped.
 */
async function importDrift(input: PushInput, owner: string, repo: string, target: TargetMatch, baselines: readonly (string | null)[]): Promise<DriftImport[]> {
  const { octokit, client, push, log } = input;
  const content = await readRepositoryFile(octokit, owner, repo, target.path, push.after);
  if (content === null) return [];
  const codec = codecFor(target, content);
  const earlier: (Uint8Array | null)[] = [];
  for (const commit of baselines) earlier.push(commit === null ? null : await readRepositoryFile(octokit, owner, repo, target.path, commit));
  const imported: DriftImport[] = [];
  const plurals = target.source.rule.plurals;
  for (const entry of handEdits(codec, content, earlier, plurals ? { plurals } : {})) {
    try {
      await client.putTranslation({ key: entry.key, locale: target.locale, path: target.source.path, ...valueOf(entry), drift: true });
      imported.push({ key: entry.key, locale: target.locale, path: target.path });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 422)) throw error;
      log.warn('hand edit not imported: the service refused it', { key: entry.key, locale: target.locale, path: target.path, status: error.status, detail: error.detail });
    }
  }
  return imported;
}

/** Why the link's `parlance.yml` at a commit cannot be used, at a line of it: the error the check run reports. */
export interface ConfigProblem {
  path: string;
  line: number;
  column: number;
  message: string;
}

/** The link's config at the pushed commit, or the problem with it (missing, unparsable, or against the path rule). */
async function readPushedConfig(input: PushInput, owner: string, repo: string): Promise<{ config: ParlanceConfig } | { problem: ConfigProblem }> {
  const { octokit, link, push } = input;
  const bytes = await readRepositoryFile(octokit, owner, repo, link.config_path, push.after);
  if (bytes === null) {
    return { problem: { path: link.config_path, line: 1, column: 1, message: `No '${link.config_path}' in ${owner}/${repo}@${push.after}; the link's config path must name the repository's parlance.yml.` } };
  }
  try {
    return { config: parseConfig(new TextDecoder().decode(bytes), link.config_path) };
  } catch (error) {
    if (error instanceof ConfigFileError) return { problem: { path: link.config_path, line: Math.max(1, error.line), column: Math.max(1, error.column), message: error.message } };
    throw error;
  }
}

/** The source files and their targets; a template that expands to a path against the rule is the config's problem. */
function expandConfig(input: PushInput, config: ParlanceConfig, paths: readonly string[], locales: readonly string[]): { sources: SourceMatch[]; targets: TargetMatch[] } | { problem: ConfigProblem } {
  const { link, log } = input;
  const sources = matchSourcePaths(config, paths).filter((source) => {
    // Git allows names Parlance does not (a backslash, a control character); such a file is neither read nor pushed.
    const problem = repoPathProblem(source.path);
    if (problem) log.warn('source file skipped: its path fails the repository path rule', { repository: link.repository, path: source.path, problem: problem.reason });
    return problem === undefined;
  });
  try {
    return { sources, targets: targetPaths(config, sources, locales) };
  } catch (error) {
    if (error instanceof RepoPathError) return { problem: { path: link.config_path, line: 1, column: 1, message: `${link.config_path}: a translation template gives a path against the repository path rule: ${error.message}` } };
    throw error;
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * A push to the base branch or to the translation branch `parlance/<base>` (a person's: the App's own are ignored
 * before this). Hand edits of managed translation files, on either branch, are the values the person changed in this
 * push, imported as human translations; the App's next commit on the translation branch then keeps them, as the
 * service renders them from now on.
 *
 * On the base branch, drift first, then sources: the imported human translations are then in place before the new
 * batch runs. A push that changes `parlance.yml` sends every matched source file whose content differs from what the
 * service holds, not only the files it changed: it may follow pushes the App could not act on (a broken config), or
 * match files no rule matched before. A config that cannot be used fails the "Parlance configuration" check run on the pushed commit and ends the
 * push there, answered: a retry would meet the same file.
 */
export async function handlePush(input: PushInput): Promise<PushResult> {
  const branch = input.push.ref.startsWith('refs/heads/') ? input.push.ref.slice('refs/heads/'.length) : input.push.ref;
  const role = pushedBranchRole(input.link, branch);
  if (role === null || changedPaths(input.push).size === 0) return { pushed: [], drift: [] };
  if (role === 'base') return handleLinkedPush(input, branch, role);
  // Under the branch's writer lock: a batch job queued after this push pulls the imported values, and so keeps them
  // in its commit instead of writing the machine values back over the person's edit.
  return withBranchLock(branchLockKey(input.link.repository, input.link.base_branch), () => handleLinkedPush(input, branch, role));
}

type PushResult = { pushed: string[]; drift: DriftImport[]; configProblem?: ConfigProblem };

async function handleLinkedPush(input: PushInput, branch: string, role: 'base' | 'translation'): Promise<PushResult> {
  const { octokit, client, link, push, memory, log } = input;
  const { owner, repo } = splitRepository(link.repository);
  const changed = changedPaths(push);
  const read = await readPushedConfig(input, owner, repo);
  const reportProblem = async (problem: ConfigProblem) => {
    await reportConfigError({ octokit, owner, repo, headSha: push.after, problem });
    log.warn('push not acted on: parlance.yml cannot be used; reported as a failing check run', { repository: link.repository, commit: push.after, error: problem.message });
    return { pushed: [], drift: [], configProblem: problem };
  };
  if ('problem' in read) return reportProblem(read.problem);
  const { config } = read;
  const locales = config.locales ?? (await client.project()).target_locales;
  const expanded = expandConfig(input, config, await listFilePaths(octokit, owner, repo, push.after), locales);
  if ('problem' in expanded) return reportProblem(expanded.problem);
  const { sources, targets } = expanded;
  // On the translation branch only the translation files are the person's to change: no source goes to the service.
  const catchUp = role === 'base' && changed.has(link.config_path);

  const drift: DriftImport[] = [];
  const editedTargets = targets.filter((t) => t.path !== t.source.path && changed.has(t.path));
  const serviceFiles = editedTargets.length > 0 || catchUp ? await client.files() : [];
  if (editedTargets.length > 0) {
    const known = new Set(serviceFiles.map((f) => f.path));
    const baselines = await baselineCommits(input, owner, repo, role);
    for (const target of editedTargets) {
      if (!known.has(target.source.path)) continue;
      drift.push(...(await importDrift(input, owner, repo, target, baselines)));
    }
    if (drift.length > 0) memory.addDrift(link.id, drift);
    log.info('hand edits imported as human translations', { repository: link.repository, branch, commit: push.after, imported: drift.length });
  }
  if (role === 'translation') return { pushed: [], drift };

  const pushed: string[] = [];
  const held = new Map(serviceFiles.map((f) => [f.path, f.sha256]));
  for (const source of sources.filter((s) => catchUp || changed.has(s.path))) {
    const content = await readRepositoryFile(octokit, owner, repo, source.path, push.after);
    if (content === null) continue;
    if (catchUp && !changed.has(source.path) && held.get(source.path) === sha256(content)) continue;
    const batch = await client.pushFile({
      path: source.path,
      content,
      ...(source.rule.format ? { format: source.rule.format } : {}),
      ...(config.locales ? { locales: config.locales } : {}),
      ...(source.rule.careful ? { careful: source.rule.careful } : {}),
      ...(source.rule.plurals ? { plurals: source.rule.plurals } : {}),
      // A redelivered push event replays the same batch instead of queuing another.
      idempotencyKey: `github:${link.id}:${push.after}:${source.path}`,
    });
    memory.rememberTrigger(batch.id, push.after);
    pushed.push(source.path);
    log.info('source file pushed to Parlance', { repository: link.repository, path: source.path, batch: batch.id, commit: push.after });
  }
  return { pushed, drift };
}
