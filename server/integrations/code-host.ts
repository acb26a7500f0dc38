/**
 * Code hosts (GitLab, Bitbucket Cloud, Azure DevOps Repos, Gitea/Forgejo) as connectors, with the GitHub App's
 * behaviour: `parlance.yml` on the base branch names the source files and where their translations go; people's edits
 * of translation files on the branch or on the base are imported as human translations; a write-back is one commit
 * per batch on the branch `parlance/<base>` (created from the base the first time, then on top of its head; rebuilt on
 * the base when the base moved and only Parlance committed there, never forced over people's commits), one merge/pull
 * request from that branch kept up to date, and a commit status listing the refused rows with their source lines. A
 * vendor module implements only `GitHost`.
 */
import { z } from '@hono/zod-openapi';
import { detectFormat, isFormatId } from '../../src/core/formats/index.js';
import { repoPathProblem } from '../../src/core/repo-path.js';
import { BATCH_TRAILER, hasTrailer, trailerValues, translationBranchFor } from '../../src/core/translation-branch.js';
import { configPathProblem } from '../../src/project-config/config-path-problem.js';
import { matchSourcePaths } from '../../src/project-config/match-source-paths.js';
import { parseConfig, type ParlanceConfig } from '../../src/project-config/parse-config.js';
import { targetPaths } from '../../src/project-config/target-paths.js';
import { branchProblem } from './branch-problem.js';
import type { BatchSummary, Connector, ConnectorContext, FileUnit, FileWrite, ReportRow, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from './connector.js';
import { ConnectorError } from './connector-error.js';

/** What the framework needs from a code host's API; each method throws ConnectorError on a failed answer. */
export interface GitHost {
  /** How messages name the repository: 'acme/web on GitLab'. */
  label: string;
  /** The commit a branch points at, or null when the branch does not exist. */
  branchHead(branch: string): Promise<string | null>;
  /** Every file path in a commit's tree. */
  listFiles(commit: string): Promise<string[]>;
  /** A file's bytes at a commit, or null when there is none. */
  readFile(commit: string, path: string): Promise<Uint8Array | null>;
  /**
   * One commit of `files` on `branch` with `parent` as its parent: when `create`, the branch is created at the new
   * commit; otherwise the branch must still point at `parent` (the host's own check where it has one), and a moved
   * head is an error, never overwritten. `exists` says whether the file is already at `parent`. Returns the commit id.
   * `replaces` (hosts with `branchCommits` only): the branch exists at that commit, holding only Parlance's commits,
   * and is moved to the new commit on `parent` (the base's head) instead: the one rewrite Parlance makes, as the
   * GitHub App rebuilds its branch; a head other than `replaces` is an error, never overwritten. A host that refuses
   * the rewrite for want of a permission throws RebuildRefusedError, and nothing is written.
   */
  commit(input: { branch: string; parent: string; create: boolean; replaces?: string; files: { path: string; content: Uint8Array; exists: boolean }[]; message: string }): Promise<string>;
  /** The open merge/pull request from `source` into `target`, if any. */
  findRequest(source: string, target: string): Promise<{ id: string; url: string } | null>;
  openRequest(input: { source: string; target: string; title: string; body: string }): Promise<{ id: string; url: string }>;
  updateRequest(id: string, input: { title: string; body: string }): Promise<void>;
  /** The commit's status (and, where the host has them, annotations of the refused rows on their source lines). */
  reportStatus(input: { commit: string; state: 'success' | 'failure'; summary: string; problems: ReportRow[]; url: string | undefined }): Promise<void>;
  /** The newest commit both `a` and `b` have in their history (git's merge base). */
  mergeBase(a: string, b: string): Promise<string>;
  /**
   * Hosts that can rebuild the branch: the commits reachable from `head` and not from `base`, each marked Parlance's
   * when it carries the batch trailer and the token's own account committed it; `complete` is false when the host
   * listed only some of them (the rest then count as people's).
   */
  branchCommits?(base: string, head: string): Promise<{ commits: BranchCommit[]; complete: boolean }>;
  /**
   * Hosts with merge/pull request notes: the note holding `marker` (an HTML comment, invisible when rendered) is
   * edited to `body`, or posted when there is none; so a retried write, or the next sync, never posts it twice.
   */
  upsertNote?(requestId: string, marker: string, body: string): Promise<void>;
  /** The host shows refused rows on their source lines itself (in reportStatus): no refused-rows note is posted. */
  annotatesRows?: boolean;
}

/** A commit on Parlance's branch that the base does not have. */
export interface BranchCommit {
  id: string;
  /** Who to name in the note: the author's account, else the name in the commit. */
  author: string;
  ours: boolean;
  /** The batches its `Parlance-Batch` trailers name: a batch already committed is not committed again. */
  batches: string[];
}

/** The host refused to move the branch to a commit that does not descend from its head, for want of a permission. */
export class RebuildRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RebuildRefusedError';
  }
}

/** The settings every code host shares; a vendor adds its repository address. */
export const codeHostSettings = {
  base_branch: z
    .string()
    .default('main')
    .superRefine((value, ctx) => {
      const problem = branchProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .openapi({ description: 'The branch Parlance reads sources from and opens its merge request against. Default `main`.' }),
  config_path: z
    .string()
    .default('parlance.yml')
    .superRefine((value, ctx) => {
      const problem = configPathProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .openapi({ description: 'Where `parlance.yml` is in the repository. Default `parlance.yml`.' }),
};

export interface CodeHostSettings {
  base_branch: string;
  config_path: string;
}

/** The branch Parlance owns for a base branch (the GitHub App's name). */
export const branchFor = translationBranchFor;

export { BATCH_TRAILER };

/** The batch ids of a commit message's `Parlance-Batch` trailers (lines of its last paragraph). */
export const batchTrailers = (message: string): string[] => trailerValues(message, BATCH_TRAILER);

/** Whether a commit message ends with Parlance's batch trailer. */
export const hasBatchTrailer = (message: string): boolean => hasTrailer(message, BATCH_TRAILER);

export interface CodeHostSpec<Settings extends CodeHostSettings, Secrets> {
  id: string;
  name: string;
  summary: string;
  settings: z.ZodType<Settings>;
  secrets: z.ZodType<Secrets>;
  webhooks?: string;
  open(ctx: ConnectorContext<Settings, Secrets>): GitHost;
  verifyWebhook?(request: WebhookRequest, webhookSecret: string, settings: Settings): WebhookVerdict;
}

async function readConfig(host: GitHost, commit: string, path: string): Promise<ParlanceConfig> {
  const bytes = await host.readFile(commit, path);
  if (bytes === null) throw new ConnectorError('config', `No '${path}' in ${host.label} at ${commit.slice(0, 12)}; the connection's config_path must name the repository's parlance.yml.`);
  try {
    return parseConfig(new TextDecoder().decode(bytes), path);
  } catch (error) {
    throw new ConnectorError('config', `${path} in ${host.label}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The translation files Parlance's branch holds that differ from the base's and that `skip` does not name: what a
 * rebuild must carry onto the base so that replacing the branch loses nothing Parlance committed earlier.
 */
async function carriedFiles(host: GitHost, ctx: ConnectorContext<CodeHostSettings, unknown>, input: { baseHead: string; branchHead: string; skip: ReadonlySet<string> }) {
  const config = await readConfig(host, input.baseHead, ctx.settings.config_path);
  const sources = matchSourcePaths(config, await host.listFiles(input.baseHead)).filter((source) => repoPathProblem(source.path) === undefined);
  const locales = (config.locales ?? ctx.targetLocales).filter((locale) => ctx.targetLocales.includes(locale));
  const sourcePaths = new Set(sources.map((source) => source.path));
  const carried: { path: string; content: Uint8Array; exists: boolean }[] = [];
  for (const path of new Set(targetPaths(config, sources, locales).map((target) => target.path))) {
    if (input.skip.has(path) || sourcePaths.has(path)) continue;
    const ours = await host.readFile(input.branchHead, path);
    if (ours === null) continue;
    const onBase = await host.readFile(input.baseHead, path);
    if (!sameBytes(ours, onBase)) carried.push({ path, content: ours, exists: onBase !== null });
  }
  return carried;
}

export function pullRequestTitle(base: string): string {
  return `Parlance: translations for ${base}`;
}

/** Hidden markers that let a later write find its own note again (GitLab and Gitea render HTML comments as nothing). */
export const refusedMarker = (batches: readonly BatchSummary[]) => `<!-- parlance:refused ${batches.map((b) => b.id).join(',') || 'none'} -->`;
export const HUMAN_COMMITS_MARKER = '<!-- parlance:human-commits -->';
export const REBUILD_REFUSED_MARKER = '<!-- parlance:rebuild-refused -->';

/**
 * The note listing refused rows with their source lines, as the GitHub App's check-run annotations would: a merge/pull
 * request note on hosts that cannot annotate source lines from outside CI.
 */
export function refusedNote(summary: string, rows: ReportRow[]): string {
  const lines = [`**Parlance**: ${summary}.`, ''];
  for (const row of rows.slice(0, 50)) lines.push(`- \`${row.key}\` (${row.path}${row.line ? `:${row.line}` : ''}, ${row.locale}): ${row.reason}`);
  if (rows.length > 50) lines.push(`- … and ${rows.length - 50} more; see the batch.`);
  return lines.join('\n');
}

/** One line per batch: its link, the source files it translated and its own counts. */
export function batchLine(b: BatchSummary, link: (b: BatchSummary) => string = (x) => (x.url ? `[${x.id}](${x.url})` : x.id)): string {
  return `${link(b)}${b.paths.length ? ` (${b.paths.join(', ')})` : ''}: ${b.translated} translated, ${b.refused} refused, ${b.flagged} flagged`;
}

/**
 * One batch's commit message, as the GitHub App writes it: the batch with its counts and link, then its
 * `Parlance-Batch` trailer, by which a later write recognises Parlance's commits and the batches already committed.
 * Files no batch claims (a file re-rendered after an imported edit) go in a commit whose trailer is `none`.
 */
export function commitMessage(batch: BatchSummary | null, files: number, carried = 0): string {
  const subject = batch ? `Parlance: translations of batch ${batch.id}` : 'Parlance: translations';
  const body = [batch ? batchLine(batch, (x) => (x.url ? `${x.id} <${x.url}>` : x.id)) : `${files} file(s) updated; no batch ran.`];
  if (carried > 0) body.push(`Also carries ${carried} translation file(s) from Parlance's earlier commits, as the branch is rebuilt on the moved base.`);
  return [subject, body.join('\n'), `${BATCH_TRAILER}: ${batch?.id ?? 'none'}`].join('\n\n');
}

/** The merge request's description: what the latest sync's batches did, and where to see them. */
export function pullRequestBody(writeBack: WriteBack, files: number): string {
  const lines = ['Translations from Parlance, kept up to date by one commit per batch on this branch.', ''];
  if (writeBack.batches.length === 1) lines.push(`Latest batch: ${batchLine(writeBack.batches[0]!)}.`);
  else if (writeBack.batches.length > 1) lines.push('Latest batches:', ...writeBack.batches.map((b) => `- ${batchLine(b)}`));
  else lines.push('Latest sync: no translation was needed.');
  lines.push('', `${files} translation file(s) on this branch.`);
  if (writeBack.problems.length > 0) {
    lines.push('', '| Key | Locale | Outcome | Reason |', '|---|---|---|---|');
    for (const row of writeBack.problems.slice(0, 50)) lines.push(`| \`${row.key}\` (${row.path}${row.line ? `:${row.line}` : ''}) | ${row.locale} | ${row.outcome} | ${row.reason.replace(/\|/g, '\\|')} |`);
    if (writeBack.problems.length > 50) lines.push('', `… and ${writeBack.problems.length - 50} more; see the batch.`);
  }
  lines.push(
    '',
    'Edit a translation on this branch, or on the base branch, and Parlance imports your edit as a human translation, which machine passes never overwrite; an edit the quality gates refuse is replaced by the next commit and named in the sync log.',
    'When the base branch moves and only Parlance has committed here, the branch is rebuilt on the new base; commits pushed by people are kept and never force-pushed over.',
  );
  return lines.join('\n');
}

/** The note that explains why the branch was not rebuilt on the moved base, naming the commits that prevented it. */
export function humanCommitsNote(input: { branch: string; base: string; commits: readonly BranchCommit[]; unlisted: boolean }): string {
  const named = input.commits.filter((c) => !c.ours).map((c) => `\`${c.id.slice(0, 7)}\` by ${c.author}`);
  if (input.unlisted) named.push('commits the host did not list');
  return [
    HUMAN_COMMITS_MARKER,
    `The branch \`${input.branch}\` has commits that Parlance did not make: ${named.join(', ')}.`,
    `\`${input.base}\` has moved since, but the branch was not rebuilt on it, because that would force-push over these commits; Parlance adds its commits on top of them. If this merge request conflicts with \`${input.base}\`, merge \`${input.base}\` into it by hand, or delete the branch so Parlance recreates it on the next sync.`,
  ].join('\n\n');
}

/** The note that explains why the branch was extended instead of rebuilt: the host refused the rewrite. */
export function rebuildRefusedNote(input: { branch: string; base: string; reason: string }): string {
  return [
    REBUILD_REFUSED_MARKER,
    `\`${input.base}\` has moved and only Parlance has committed on \`${input.branch}\`, so Parlance tried to rebuild the branch on it; the host refused: ${input.reason}`,
    `Parlance adds its commits on top of the branch instead. To have it rebuilt, give the token's account the permission to force-push on \`${input.branch}\` (that branch only); otherwise merge \`${input.base}\` into this pull request by hand if it conflicts.`,
  ].join('\n\n');
}

/**
 * The sync's files grouped into one commit per batch, in the order the batches completed (the order of
 * `writeBack.batches`): each batch has the translation files of its source files; files no batch claims come last.
 */
export function commitGroups(writeBack: WriteBack): { batch: BatchSummary | null; files: FileWrite[] }[] {
  const claimed = new Set<FileWrite>();
  const groups: { batch: BatchSummary | null; files: FileWrite[] }[] = writeBack.batches.map((batch) => {
    const files = writeBack.files.filter((f) => !claimed.has(f) && batch.paths.includes(f.source));
    for (const file of files) claimed.add(file);
    return { batch, files };
  });
  const rest = writeBack.files.filter((f) => !claimed.has(f));
  if (rest.length > 0) groups.push({ batch: null, files: rest });
  return groups;
}

/** Whether two files hold the same bytes (null: no file). */
const sameBytes = (a: Uint8Array | null, b: Uint8Array | null) => (a === null || b === null ? a === b : Buffer.from(a).equals(Buffer.from(b)));

export function createCodeHostConnector<Settings extends CodeHostSettings, Secrets>(spec: CodeHostSpec<Settings, Secrets>): Connector<Settings, Secrets> {
  return {
    id: spec.id,
    name: spec.name,
    category: 'code_host',
    direction: 'two_way',
    summary: spec.summary,
    settings: spec.settings,
    secrets: spec.secrets,
    ...(spec.webhooks ? { webhooks: spec.webhooks } : {}),
    ...(spec.verifyWebhook ? { verifyWebhook: spec.verifyWebhook } : {}),

    async list(ctx) {
      const host = spec.open(ctx);
      const base = ctx.settings.base_branch;
      const baseHead = await host.branchHead(base);
      if (baseHead === null) throw new ConnectorError('config', `Branch '${base}' does not exist in ${host.label}.`);
      const config = await readConfig(host, baseHead, ctx.settings.config_path);
      const sources = matchSourcePaths(config, await host.listFiles(baseHead)).filter((source) => repoPathProblem(source.path) === undefined);
      // Translations as they are now: on Parlance's branch when it exists (it holds people's commits there too), and
      // what people changed on the base since the branch left it (after a merge, the base is where people edit).
      const headNow = await host.branchHead(branchFor(base));
      const forkPoint = headNow !== null && headNow !== baseHead ? await host.mergeBase(baseHead, headNow) : null;
      // A branch merged into the base (and not written since) holds nothing the base lacks: the base is read instead.
      const branchHead = forkPoint === headNow ? null : headNow;
      const locales = (config.locales ?? ctx.targetLocales).filter((locale) => ctx.targetLocales.includes(locale));
      const units: FileUnit[] = [];
      for (const source of sources) {
        const content = await host.readFile(baseHead, source.path);
        if (content === null) continue;
        const format = source.rule.format && isFormatId(source.rule.format) ? source.rule.format : detectFormat(source.path, content);
        if (!format) throw new ConnectorError('config', `${source.path} in ${host.label}: the format cannot be told from the name or content; name it with 'format:' in ${ctx.settings.config_path}.`);
        const targets: FileUnit['targets'] = [];
        for (const target of targetPaths(config, [source], locales)) {
          if (target.path === source.path) continue;
          const now = await host.readFile(branchHead ?? baseHead, target.path);
          let baseEdits: { content: Uint8Array | null; before: Uint8Array | null } | undefined;
          if (branchHead !== null && forkPoint !== null && forkPoint !== baseHead) {
            const onBase = await host.readFile(baseHead, target.path);
            const before = await host.readFile(forkPoint, target.path);
            if (!sameBytes(onBase, before)) baseEdits = { content: onBase, before };
          }
          targets.push({ locale: target.locale, path: target.path, content: now, ...(baseEdits ? { base: baseEdits } : {}) });
        }
        units.push({ kind: 'file', path: source.path, format, content, targets, ...(source.rule.careful?.length ? { careful: source.rule.careful } : {}), ...(source.rule.plurals ? { plurals: source.rule.plurals } : {}) });
      }
      const read = `read ${units.length} source file(s) at ${base}@${baseHead.slice(0, 12)}`;
      if (branchHead === null) return { units, note: headNow ? `${read}; ${branchFor(base)} is merged into ${base}, whose translations were read` : read };
      return { units, note: `${read}, translations at ${branchFor(base)}@${branchHead.slice(0, 12)}${forkPoint && forkPoint !== baseHead ? ` and edits on ${base} since ${forkPoint.slice(0, 12)}` : ''}` };
    },

    async write(ctx, writeBack): Promise<WriteResult> {
      const host = spec.open(ctx);
      const base = ctx.settings.base_branch;
      const branch = branchFor(base);
      const baseHead = await host.branchHead(base);
      if (baseHead === null) throw new ConnectorError('config', `Branch '${base}' does not exist in ${host.label}.`);
      const branchHead = await host.branchHead(branch);
      // As the GitHub App: a base that moved while only Parlance committed on the branch gets the branch rebuilt on it,
      // so the merge request never conflicts; people's commits forbid that, and are named once in a note instead.
      let rebuild = false;
      let humans: { commits: BranchCommit[]; unlisted: boolean } | null = null;
      let onBranch: BranchCommit[] = [];
      if (branchHead !== null && branchHead !== baseHead && host.branchCommits) {
        const listed = await host.branchCommits(baseHead, branchHead);
        onBranch = listed.commits;
        if ((await host.mergeBase(baseHead, branchHead)) !== baseHead) {
          if (listed.complete && listed.commits.every((c) => c.ours)) rebuild = true;
          else humans = { commits: listed.commits, unlisted: !listed.complete };
        }
      }
      // A batch whose commit is already on the branch (its trailer, on a commit the rebuild keeps) is not committed
      // again: a retried write that stopped after some of its batches' commits goes on with the rest.
      const committed = new Set(rebuild ? [] : onBranch.flatMap((c) => c.batches));
      const commits = commitGroups(writeBack);
      const changesAt = async (parent: string, files: readonly FileWrite[]) => {
        const changed: { path: string; content: Uint8Array; exists: boolean }[] = [];
        for (const file of files) {
          const now = await host.readFile(parent, file.path);
          if (now !== null && sameBytes(now, file.content)) continue;
          changed.push({ path: file.path, content: file.content, exists: now !== null });
        }
        return changed;
      };
      let tip = rebuild ? baseHead : (branchHead ?? baseHead);
      let replaces = rebuild ? branchHead! : undefined;
      let refusal: string | null = null;
      let written = 0;
      const made: string[] = [];
      const skipped: string[] = [];
      for (const group of commits) {
        if (group.batch && committed.has(group.batch.id)) {
          skipped.push(group.batch.id);
          continue;
        }
        let changed = await changesAt(tip, group.files);
        if (changed.length === 0) continue;
        // The rebuild's first commit also carries what Parlance committed before on the branch and this write does not
        // hold again (translations of other source files), so that replacing the branch loses none of them.
        const carried = replaces ? await carriedFiles(host, ctx, { baseHead, branchHead: replaces, skip: new Set(writeBack.files.map((f) => f.path)) }) : [];
        try {
          tip = await host.commit({ branch, parent: tip, create: branchHead === null && made.length === 0, ...(replaces ? { replaces } : {}), files: [...changed, ...carried], message: commitMessage(group.batch, changed.length + carried.length, carried.length) });
          written += changed.length;
        } catch (error) {
          if (!(error instanceof RebuildRefusedError) || !replaces) throw error;
          // The host does not let the token rewrite the branch: it is extended as before, and the note says why.
          refusal = error.reason;
          replaces = undefined;
          tip = branchHead!;
          changed = await changesAt(tip, group.files);
          if (changed.length === 0) continue;
          tip = await host.commit({ branch, parent: tip, create: false, files: changed, message: commitMessage(group.batch, changed.length) });
          written += changed.length;
        }
        replaces = undefined;
        made.push(tip);
      }
      const rebuilt = rebuild && refusal === null && made.length > 0;
      // A rebuild with nothing to commit leaves Parlance's stale commits alone, and opens nothing for them.
      const shows = made.length > 0 || (branchHead !== null && !(rebuild && refusal === null));
      let request = await host.findRequest(branch, base);
      const body = pullRequestBody(writeBack, writeBack.files.length);
      if (request === null && shows) {
        request = await host.openRequest({ source: branch, target: base, title: pullRequestTitle(base), body });
      } else if (request !== null) {
        await host.updateRequest(request.id, { title: pullRequestTitle(base), body });
      }
      const refused = writeBack.problems.filter((p) => p.outcome === 'refused');
      if (tip !== baseHead || writeBack.problems.length > 0) {
        await host.reportStatus({
          commit: tip,
          state: refused.length > 0 ? 'failure' : 'success',
          summary: refused.length > 0 ? `${refused.length} translation(s) refused by the quality gates` : `Translations up to date${writeBack.problems.length ? `; ${writeBack.problems.length} flagged` : ''}`,
          problems: writeBack.problems,
          url: request?.url ?? writeBack.batches[0]?.url,
        });
      }
      if (request !== null && host.upsertNote) {
        if (refused.length > 0 && !host.annotatesRows) {
          // One note per batch set: a retried write (or the same batches written again) edits it instead of posting another.
          const marker = refusedMarker(writeBack.batches);
          await host.upsertNote(request.id, marker, `${marker}\n${refusedNote(`${refused.length} translation(s) refused by the quality gates`, refused)}`);
        }
        if (humans !== null && made.length > 0) await host.upsertNote(request.id, HUMAN_COMMITS_MARKER, humanCommitsNote({ branch, base, ...humans }));
        if (refusal !== null && made.length > 0) await host.upsertNote(request.id, REBUILD_REFUSED_MARKER, rebuildRefusedNote({ branch, base, reason: refusal }));
      }
      const parts = [made.length === 0 ? `${branch} already up to date` : `${made.length} commit(s) on ${branch} (${made.map((c) => c.slice(0, 12)).join(', ')})${rebuilt ? `, rebuilt on ${base}@${baseHead.slice(0, 12)}` : ''}`];
      if (skipped.length > 0) parts.push(`batch ${skipped.join(', ')} already committed there`);
      if (refusal !== null) parts.push(`not rebuilt on the moved ${base}, extended instead: ${refusal}`);
      return { written, ...(request ? { url: request.url } : {}), note: parts.join('; ') };
    },
  };
}
