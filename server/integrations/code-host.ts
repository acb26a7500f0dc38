/**
 * Code hosts (GitLab, Bitbucket Cloud, Azure DevOps Repos, Gitea/Forgejo) as connectors, with the GitHub App's
 * behaviour: `parlance.yml` on the base branch names the source files and where their translations go; a write-back
 * is one commit on the branch `parlance/<base>` (created from the base the first time, then always on top of its head,
 * never forced, so commits people pushed there stay), one merge/pull request from that branch kept up to date, and a
 * commit status listing the refused rows with their source lines. A vendor module implements only `GitHost`.
 */
import { z } from '@hono/zod-openapi';
import { parseConfig, type ParlanceConfig } from '../../src/cli/config.js';
import { detectFormat, isFormatId } from '../../src/core/formats/index.js';
import { repoPathProblem } from '../../src/core/repo-path.js';
import { matchSourcePaths, targetPaths } from '../github-app/handlers/repository.js';
import { branchProblem, configPathProblem } from '../routes/v1/integrations.js';
import { ConnectorError, type Connector, type ConnectorContext, type FileUnit, type ReportRow, type WebhookRequest, type WebhookVerdict, type WriteBack, type WriteResult } from './connector.js';

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
   */
  commit(input: { branch: string; parent: string; create: boolean; files: { path: string; content: Uint8Array; exists: boolean }[]; message: string }): Promise<string>;
  /** The open merge/pull request from `source` into `target`, if any. */
  findRequest(source: string, target: string): Promise<{ id: string; url: string } | null>;
  openRequest(input: { source: string; target: string; title: string; body: string }): Promise<{ id: string; url: string }>;
  updateRequest(id: string, input: { title: string; body: string }): Promise<void>;
  /** The commit's status (and, where the host has them, annotations of the refused rows on their source lines). */
  reportStatus(input: { commit: string; state: 'success' | 'failure'; summary: string; problems: ReportRow[]; url: string | undefined }): Promise<void>;
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

/** The merge request's description: what the latest batch did, and where to see the rest. */
export function pullRequestBody(writeBack: WriteBack, files: number): string {
  const lines = ['Translations from Parlance, kept up to date by one commit per batch on this branch.', ''];
  if (writeBack.batch) {
    const b = writeBack.batch;
    lines.push(`Latest batch: ${b.url ? `[${b.id}](${b.url})` : b.id}: ${b.translated} translated, ${b.flagged} flagged, ${b.refused} refused.`);
  } else {
    lines.push('Latest sync: no translation was needed.');
  }
  lines.push(`${files} translation file(s) on this branch.`);
  if (writeBack.problems.length > 0) {
    lines.push('', '| Key | Locale | Outcome | Reason |', '|---|---|---|---|');
    for (const row of writeBack.problems.slice(0, 50)) lines.push(`| \`${row.key}\` (${row.path}${row.line ? `:${row.line}` : ''}) | ${row.locale} | ${row.outcome} | ${row.reason.replace(/\|/g, '\\|')} |`);
    if (writeBack.problems.length > 50) lines.push('', `… and ${writeBack.problems.length - 50} more; see the batch.`);
  }
  lines.push('', 'Edit a translation on this branch and Parlance imports your edit as a human translation, which machine passes never overwrite; an edit the quality gates refuse is replaced by the next commit and named in the sync log.');
  return lines.join('\n');
}

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
      // Translations as they are now: on Parlance's branch when it exists (it holds people's commits there too).
      const branchHead = await host.branchHead(branchFor(base));
      const locales = (config.locales ?? ctx.targetLocales).filter((locale) => ctx.targetLocales.includes(locale));
      const units: FileUnit[] = [];
      for (const source of sources) {
        const content = await host.readFile(baseHead, source.path);
        if (content === null) continue;
        const format = source.rule.format && isFormatId(source.rule.format) ? source.rule.format : detectFormat(source.path, content);
        if (!format) throw new ConnectorError('config', `${source.path} in ${host.label}: the format cannot be told from the name or content; name it with 'format:' in ${ctx.settings.config_path}.`);
        const targets = [];
        for (const target of targetPaths([source], locales)) {
          if (target.path === source.path) continue;
          targets.push({ locale: target.locale, path: target.path, content: await host.readFile(branchHead ?? baseHead, target.path) });
        }
        units.push({ kind: 'file', path: source.path, format, content, targets });
      }
      return { units, note: `read ${units.length} source file(s) at ${base}@${baseHead.slice(0, 12)}${branchHead ? `, translations at ${branchFor(base)}@${branchHead.slice(0, 12)}` : ''}` };
    },

    async write(ctx, writeBack): Promise<WriteResult> {
      const host = spec.open(ctx);
      const base = ctx.settings.base_branch;
      const branch = branchFor(base);
      const baseHead = await host.branchHead(base);
      if (baseHead === null) throw new ConnectorError('config', `Branch '${base}' does not exist in ${host.label}.`);
      const branchHead = await host.branchHead(branch);
      const parent = branchHead ?? baseHead;
      const changed: { path: string; content: Uint8Array; exists: boolean }[] = [];
      for (const file of writeBack.files) {
        const now = await host.readFile(parent, file.path);
        if (now !== null && Buffer.from(now).equals(Buffer.from(file.content))) continue;
        changed.push({ path: file.path, content: file.content, exists: now !== null });
      }
      let commit = parent;
      if (changed.length > 0) {
        const subject = writeBack.batch ? `Parlance: translations of batch ${writeBack.batch.id}` : 'Parlance: translations';
        const message = `${subject}\n\n${changed.length} file(s) updated.\n\n${BATCH_TRAILER}: ${writeBack.batch?.id ?? 'none'}`;
        commit = await host.commit({ branch, parent, create: branchHead === null, files: changed, message });
      }
      let request = await host.findRequest(branch, base);
      const body = pullRequestBody(writeBack, writeBack.files.length);
      if (request === null && (changed.length > 0 || branchHead !== null)) {
        request = await host.openRequest({ source: branch, target: base, title: pullRequestTitle(base), body });
      } else if (request !== null) {
        await host.updateRequest(request.id, { title: pullRequestTitle(base), body });
      }
      if (commit !== baseHead || writeBack.problems.length > 0) {
        const refused = writeBack.problems.filter((p) => p.outcome === 'refused').length;
        await host.reportStatus({
          commit,
          state: refused > 0 ? 'failure' : 'success',
          summary: refused > 0 ? `${refused} translation(s) refused by the quality gates` : `Translations up to date${writeBack.problems.length ? `; ${writeBack.problems.length} flagged` : ''}`,
          problems: writeBack.problems,
          url: request?.url ?? writeBack.batch?.url,
        });
      }
      return { written: changed.length, ...(request ? { url: request.url } : {}), note: changed.length > 0 ? `commit ${commit.slice(0, 12)} on ${branch}` : `${branch} already up to date` };
    },
  };
}
