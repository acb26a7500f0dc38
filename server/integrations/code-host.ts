/**
 * Code hosts (GitLab, Bitbucket Cloud, Azure DevOps Repos, Gitea/Forgejo) as connectors, with the GitHub App's
 * behaviour: `parlance.yml` on the base branch names the source files and where their translations go; people's edits
 * of translation files on the branch or on the base are imported as human translations; a write-back is one commit on
 * the branch `parlance/<base>` (created from the base the first time, then on top of its head; rebuilt on the base
 * when the base moved and only Parlance committed there, never forced over people's commits), one merge/pull request
 * from that branch kept up to date, and a commit status listing the refused rows with their source lines. A vendor
 * module implements only `GitHost`.
 */
import { z } from '@hono/zod-openapi';
import { parseConfig, type ParlanceConfig } from '../../src/cli/config.js';
import { detectFormat, isFormatId } from '../../src/core/formats/index.js';
import { repoPathProblem } from '../../src/core/repo-path.js';
import { matchSourcePaths, targetPaths } from '../github-app/handlers/repository.js';
import { branchProblem, configPathProblem } from '../routes/v1/integrations.js';
import { ConnectorError, type BatchSummary, type Connector, type ConnectorContext, type FileUnit, type ReportRow, type WebhookRequest, type WebhookVerdict, type WriteBack, type WriteResult } from './connector.js';

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
   * GitHub App rebuilds its branch; a head other than `replaces` is an error, never overwritten.
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
}

/** A commit on Parlance's branch that the base does not have. */
export interface BranchCommit {
  id: string;
  /** Who to name in the note: the author's account, else the name in the commit. */
  author: string;
  ours: boolean;
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
export const branchFor = (base: string) => `parlance/${base}`;

/** The marker that makes a commit Parlance's, as the GitHub App writes it. */
export const BATCH_TRAILER = 'Parlance-Batch';

/** Whether a commit message ends with Parlance's batch trailer (one of the lines of its last paragraph). */
export function hasBatchTrailer(message: string): boolean {
  const paragraphs = message.trim().split(/\r?\n\s*\r?\n/);
  return (paragraphs.at(-1) ?? '').split(/\r?\n/).some((line) => new RegExp(`^${BATCH_TRAILER}: \\S+$`).test(line.trim()));
}

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

export function pullRequestTitle(base: string): string {
  return `Parlance: translations for ${base}`;
}

/** Hidden markers that let a later write find its own note again (GitLab and Gitea render HTML comments as nothing). */
export const refusedMarker = (batches: readonly BatchSummary[]) => `<!-- parlance:refused ${batches.map((b) => b.id).join(',') || 'none'} -->`;
export const HUMAN_COMMITS_MARKER = '<!-- parlance:human-commits -->';

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
 * The commit message: each batch with its counts, then one trailer per batch (the App's `Parlance-Batch` trailer, by
 * which a later write recognises Parlance's commits). A sync's batches share one commit: one write-back per sync.
 */
export function commitMessage(batches: readonly BatchSummary[], files: number): string {
  const subject = batches.length === 0 ? 'Parlance: translations' : `Parlance: translations of batch ${batches.map((b) => b.id).join(', ')}`;
  const body = batches.length === 0 ? [`${files} file(s) updated; no batch ran.`] : batches.map((b) => batchLine(b, (x) => (x.url ? `${x.id} <${x.url}>` : x.id)));
  const trailers = batches.length === 0 ? [`${BATCH_TRAILER}: none`] : batches.map((b) => `${BATCH_TRAILER}: ${b.id}`);
  return [subject, body.join('\n'), trailers.join('\n')].join('\n\n');
}

/** The merge request's description: what the latest sync's batches did, and where to see them. */
export function pullRequestBody(writeBack: WriteBack, files: number): string {
  const lines = ['Translations from Parlance, kept up to date by one commit per sync on this branch.', ''];
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
        for (const target of targetPaths([source], locales)) {
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
        units.push({ kind: 'file', path: source.path, format, content, targets, ...(source.rule.careful?.length ? { careful: source.rule.careful } : {}) });
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
      if (branchHead !== null && branchHead !== baseHead && host.branchCommits && (await host.mergeBase(baseHead, branchHead)) !== baseHead) {
        const listed = await host.branchCommits(baseHead, branchHead);
        if (listed.complete && listed.commits.every((c) => c.ours)) rebuild = true;
        else humans = { commits: listed.commits, unlisted: !listed.complete };
      }
      const parent = rebuild ? baseHead : (branchHead ?? baseHead);
      const changed: { path: string; content: Uint8Array; exists: boolean }[] = [];
      for (const file of writeBack.files) {
        const now = await host.readFile(parent, file.path);
        if (now !== null && Buffer.from(now).equals(Buffer.from(file.content))) continue;
        changed.push({ path: file.path, content: file.content, exists: now !== null });
      }
      let commit = branchHead ?? baseHead;
      if (changed.length > 0) {
        commit = await host.commit({ branch, parent, create: branchHead === null, ...(rebuild ? { replaces: branchHead! } : {}), files: changed, message: commitMessage(writeBack.batches, changed.length) });
      }
      // A rebuild with nothing to commit leaves Parlance's stale commits alone, and opens nothing for them.
      const shows = changed.length > 0 || (branchHead !== null && !rebuild);
      let request = await host.findRequest(branch, base);
      const body = pullRequestBody(writeBack, writeBack.files.length);
      if (request === null && shows) {
        request = await host.openRequest({ source: branch, target: base, title: pullRequestTitle(base), body });
      } else if (request !== null) {
        await host.updateRequest(request.id, { title: pullRequestTitle(base), body });
      }
      const refused = writeBack.problems.filter((p) => p.outcome === 'refused');
      if (commit !== baseHead || writeBack.problems.length > 0) {
        await host.reportStatus({
          commit,
          state: refused.length > 0 ? 'failure' : 'success',
          summary: refused.length > 0 ? `${refused.length} translation(s) refused by the quality gates` : `Translations up to date${writeBack.problems.length ? `; ${writeBack.problems.length} flagged` : ''}`,
          problems: writeBack.problems,
          url: request?.url ?? writeBack.batches[0]?.url,
        });
      }
      if (request !== null && host.upsertNote) {
        if (refused.length > 0) {
          // One note per batch set: a retried write (or the same batches written again) edits it instead of posting another.
          const marker = refusedMarker(writeBack.batches);
          await host.upsertNote(request.id, marker, `${marker}\n${refusedNote(`${refused.length} translation(s) refused by the quality gates`, refused)}`);
        }
        if (humans !== null && changed.length > 0) await host.upsertNote(request.id, HUMAN_COMMITS_MARKER, humanCommitsNote({ branch, base, ...humans }));
      }
      const what = changed.length === 0 ? `${branch} already up to date` : `commit ${commit.slice(0, 12)} on ${branch}${rebuild ? `, rebuilt on ${base}@${baseHead.slice(0, 12)}` : ''}`;
      return { written: changed.length, ...(request ? { url: request.url } : {}), note: what };
    },
  };
}
