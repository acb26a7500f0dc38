/** A push to a linked base branch: changed source files go to the service, hand edits of managed translation files come back as human translations. */
import type { ParlanceClient } from '../../../src/client/client.js';
import { ApiError } from '../../../src/client/client.js';
import { detectFormat, getCodec, isFormatId, type Codec, type Entry, type ParseOptions } from '../../../src/core/formats/index.js';
import { repoPathProblem } from '../../../src/core/repo-path.js';
import { matchSourcePaths } from '../../../src/project-config/match-source-paths.js';
import { targetPaths, type TargetMatch } from '../../../src/project-config/target-paths.js';
import type { GithubLink } from '../links.js';
import type { DriftImport } from '../pr-body.js';
import { BATCH_TRAILER, type GitHubClient } from '../translation-pr.js';
import type { AppMemory } from './app-memory.js';
import { listFilePaths, readParlanceConfig, readRepositoryFile, splitRepository } from './repository.js';

/** The parts of a push payload the App reads. */
export interface PushFacts {
  ref: string;
  after: string;
  deleted: boolean;
  sender: { login: string; type: string } | null;
  commits: readonly { message: string; added?: readonly string[]; modified?: readonly string[] }[];
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

/** The value an entry holds in its file: its plural forms, or its text. */
function valueOf(entry: Entry): { text: string } | { plurals: Record<string, string> } {
  return entry.plurals ? { plurals: entry.plurals as Record<string, string> } : { text: entry.source };
}

function sameValue(a: Entry, b: Entry | undefined): boolean {
  return b !== undefined && JSON.stringify(valueOf(a)) === JSON.stringify(valueOf(b));
}

/** Entries of a translation file whose value differs from what the service renders for it: the hand edits. */
export function handEdits(codec: Codec, edited: Uint8Array, rendered: Uint8Array, options: ParseOptions = {}): Entry[] {
  const known = new Map(codec.parse(rendered, options).map((e) => [e.key, e]));
  return codec.parse(edited, options).filter((e) => e.translatable !== false && !sameValue(e, known.get(e.key)));
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

/** Imports one translation file's hand edits as human translations; a value the gates refuse is logged and skipped. */
async function importDrift(input: PushInput, owner: string, repo: string, target: TargetMatch): Promise<DriftImport[]> {
  const { octokit, client, push, log } = input;
  const content = await readRepositoryFile(octokit, owner, repo, target.path, push.after);
  if (content === null) return [];
  const codec = codecFor(target, content);
  const rendered = await client.pull({ path: target.source.path, locale: target.locale, format: codec.id, missing: 'omit' });
  const imported: DriftImport[] = [];
  const plurals = target.source.rule.plurals;
  for (const entry of handEdits(codec, content, rendered.body, plurals ? { plurals } : {})) {
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

/** Drift first, then sources: the imported human translations are then in place before the new batch runs. */
export async function handlePush(input: PushInput): Promise<{ pushed: string[]; drift: DriftImport[] }> {
  const { octokit, client, link, push, memory, log } = input;
  const { owner, repo } = splitRepository(link.repository);
  const changed = changedPaths(push);
  if (changed.size === 0) return { pushed: [], drift: [] };
  const config = await readParlanceConfig(octokit, owner, repo, link.config_path, push.after);
  const sources = matchSourcePaths(config, await listFilePaths(octokit, owner, repo, push.after)).filter((source) => {
    // Git allows names Parlance does not (a backslash, a control character); such a file is neither read nor pushed.
    const problem = repoPathProblem(source.path);
    if (problem) log.warn('source file skipped: its path fails the repository path rule', { repository: link.repository, path: source.path, problem: problem.reason });
    return problem === undefined;
  });
  const locales = config.locales ?? (await client.project()).target_locales;

  const drift: DriftImport[] = [];
  const editedTargets = targetPaths(config, sources, locales).filter((t) => t.path !== t.source.path && changed.has(t.path));
  if (editedTargets.length > 0) {
    const known = new Set((await client.files()).map((f) => f.path));
    for (const target of editedTargets) {
      if (!known.has(target.source.path)) continue;
      drift.push(...(await importDrift(input, owner, repo, target)));
    }
    if (drift.length > 0) memory.addDrift(link.id, drift);
  }

  const pushed: string[] = [];
  for (const source of sources.filter((s) => changed.has(s.path))) {
    const content = await readRepositoryFile(octokit, owner, repo, source.path, push.after);
    if (content === null) continue;
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
