/**
 * The Action's orchestration: parse the inputs, run the push and pull routines the CLI runs (src/sync) with the same
 * client and parlance.yml code, then annotate, set the outputs, open or update the pull request (create-pull-request),
 * write the job summary, and fail the step where the CLI would exit non-zero.
 */
import { relative, sep } from 'node:path';
import * as core from '@actions/core';
import type { SummaryTableRow } from '@actions/core/lib/summary.js';
import type { TranslationRow } from '../client/types.js';
import { createContext, type CommandContext } from '../sync/command-context.js';
import type { CommandIo } from '../sync/output.js';
import { pullExitCode, pullTranslations } from '../sync/pull-translations.js';
import { pushExitCode, pushSources } from '../sync/push-sources.js';
import { about } from '../sync/subject-error.js';
import { worstExit } from '../sync/worst-exit.js';
import { createActionOutput } from './action-output.js';
import { describeFailure, exitNote } from './failure.js';
import { InputError, parseInputs, type ActionInputs } from './inputs.js';
import { publishToGitHub, type Published } from './publish.js';
import {
  actionOutputs,
  changedFiles,
  flaggedRows,
  hasEnded,
  leftOutAnnotations,
  pushedBatches,
  refusedRows,
  reviewLinks,
  rowAnnotations,
  SUMMARY_HEADER,
  summaryRows,
  tallyByLocale,
  verdict,
  wordsCharged,
  type RunResult,
  type RunRow,
} from './report-fns.js';

/** The whole step; never throws: every failure ends in `core.setFailed` with the CLI's exit-code meaning. */
export async function run(): Promise<void> {
  // Masked before anything can print it, even when another input turns out to be invalid.
  const token = core.getInput('token');
  if (token) core.setSecret(token);
  let inputs: ActionInputs | undefined;
  try {
    inputs = parseInputs((name) => core.getInput(name), process.env, process.cwd());
    const { result, exitCode } = await runCommand(inputs);
    await report(result, exitCode, inputs);
  } catch (error) {
    fail(error, inputs);
  }
}

async function runCommand(inputs: ActionInputs): Promise<{ result: RunResult; exitCode: 0 | 3 | 4 }> {
  const io: CommandIo = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: inputs.workingDirectory, isTTY: false };
  const context = createContext(io, createActionOutput(inputs.token), { token: inputs.token, service: inputs.serviceUrl, config: inputs.config });
  const loaded = context.config();
  const configDir = toPosix(relative(inputs.workspace, loaded.root));
  requireService(inputs, loaded.config.service, io.env.PARLANCE_URL, toPosix(relative(inputs.workspace, loaded.path)));

  const wait = inputs.command === 'sync' || inputs.wait;
  const push = inputs.command === 'pull' ? undefined : await core.group('parlance push', () => pushSources(context, { force: false, dryRun: false, wait }));
  const rows = await settledRows(context, push);
  const pull = inputs.command === 'push' ? undefined : await core.group('parlance pull', () => pullTranslations(context, { dryRun: false }));
  const held = pull ? await heldRows(context, pull) : undefined;

  const exitCode = worstExit(push ? pushExitCode(push) : 0, pull ? pullExitCode(pull) : 0);
  const result: RunResult = { command: inputs.command, push, pull, rows, held, configDir, links: undefined };
  if (refusedRows(result).length > 0 || flaggedRows(rows).length > 0) {
    const project = await about('reading the project', () => context.client().project());
    result.links = reviewLinks(context.service(), project.id);
  }
  return { result, exitCode };
}

/**
 * The service is named by the input, parlance.yml's `service` or PARLANCE_URL: a workflow whose variable is unset
 * (`service-url: ${{ vars.PARLANCE_URL }}` gives '') must not quietly talk to a local default that is not there.
 */
function requireService(inputs: ActionInputs, configured: string | undefined, fromEnv: string | undefined, configPath: string): void {
  if (inputs.serviceUrl !== undefined || configured || fromEnv) return;
  throw new InputError(
    `Input service-url is empty or missing, ${configPath} sets no 'service', and PARLANCE_URL is not set: the Action does not know which Parlance service to use. Give it, e.g. 'service-url: https://parlance.example.com' (when the input reads a variable or secret, such as \${{ vars.PARLANCE_URL }}, check that it is set for this repository).`,
  );
}

/** Every row of each batch that ended: the push report only carries the refused ones, the summary needs all. */
async function settledRows(context: CommandContext, push: RunResult['push']): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for (const batch of pushedBatches(push)) {
    if (!hasEnded(batch)) continue;
    const batchRows = await about(`batch ${batch.id}`, () => context.client().batchRows(batch.id));
    rows.push(...batchRows.map((row) => ({ ...row, batchId: batch.id })));
  }
  return rows;
}

/** At most this many held rows are read from the queue per source file; the summary shows fewer. */
const HELD_LIMIT = 1000;

/**
 * The review queue's held rows for the pulled source files and locales: they are left out of the files whether this
 * run refused them or an earlier one did, and an up-to-date pull (304) lists no left-out key. Undefined when the queue
 * cannot be read (an older service, a token without `read`): the pulled files' left-out keys stand in.
 */
async function heldRows(context: CommandContext, pull: NonNullable<RunResult['pull']>): Promise<TranslationRow[] | undefined> {
  const sources = new Set(pull.files.map((file) => file.source));
  const locales = new Set(pull.files.map((file) => file.locale));
  if (sources.size === 0) return [];
  try {
    // Per source file, so held rows of other files in the project never crowd these out of the limit.
    const rows: TranslationRow[] = [];
    for (const path of sources) rows.push(...(await context.client().translations({ state: 'held', path, limit: HELD_LIMIT })));
    return rows.filter((row) => locales.has(row.locale));
  } catch (error) {
    core.info(`Parlance: could not read the review queue (${error instanceof Error ? error.message : String(error)}); counting the keys the pulled files left out instead.`);
    return undefined;
  }
}

async function report(result: RunResult, exitCode: 0 | 3 | 4, inputs: ActionInputs): Promise<void> {
  const annotations = [...rowAnnotations(result.rows, result.configDir, inputs.failOnRefused), ...leftOutAnnotations(result.pull, result.rows, result.configDir, inputs.failOnRefused)];
  for (const annotation of annotations) {
    const properties = { file: annotation.file, ...(annotation.line !== undefined ? { startLine: annotation.line } : {}) };
    if (annotation.level === 'error') core.error(annotation.message, properties);
    else core.warning(annotation.message, properties);
  }
  for (const [name, value] of Object.entries(actionOutputs(result))) core.setOutput(name, value);

  // The pull request carries what passed even when a row was refused: that is when a person needs to look.
  let published: Published | undefined;
  let publishError: unknown;
  if (inputs.createPullRequest) {
    try {
      published = await core.group('pull request', () => publishToGitHub(result, inputs));
    } catch (error) {
      publishError = error;
    }
  }
  core.setOutput('pull-request-number', published?.number ?? '');
  core.setOutput('pull-request-url', published?.url ?? '');
  await writeSummary(result, published);

  const outcome = verdict(result, exitCode, inputs.failOnRefused);
  if (outcome?.failed) core.setFailed(outcome.message);
  else if (outcome) core.info(outcome.message);
  if (publishError !== undefined) fail(publishError, inputs);
}

async function writeSummary(result: RunResult, published: Published | undefined): Promise<void> {
  const summary = core.summary.addHeading(`Parlance ${result.command}`, 2);
  const tallies = tallyByLocale(result);
  if (tallies.length > 0) {
    const header: SummaryTableRow = SUMMARY_HEADER.map((data) => ({ data, header: true }));
    summary.addTable([header, ...summaryRows(tallies)]);
  } else {
    summary.addRaw('<p>No rows were translated and no locale file was written.</p>', true);
  }
  addRowTables(summary, result);
  if (published) summary.addRaw(`<p>${escapeHtml(published.line)}: <a href="${escapeHtml(published.url)}">${escapeHtml(published.url)}</a></p>`, true);

  const words = wordsCharged(result.push);
  if (result.push) summary.addRaw(`<p>Words charged: <strong>${words.spent}</strong></p>`, true);
  const running = pushedBatches(result.push).filter((batch) => !hasEnded(batch));
  if (running.length > 0) {
    summary.addRaw(`<p>Not waited for (${words.reserved} words reserved): ${running.map((batch) => `<code>${batch.id}</code> ${batch.status}`).join(', ')}</p>`, true);
  }

  const changed = changedFiles(result);
  if (changed.length > 0) {
    summary.addHeading('Changed files', 3);
    summary.addList(changed.map((path) => `<code>${escapeHtml(path)}</code>`));
  }
  try {
    await summary.write();
  } catch (error) {
    // Outside a workflow there is no GITHUB_STEP_SUMMARY; the run itself still counts.
    core.warning(`Parlance: could not write the job summary: ${(error as Error).message}`);
  }
}

/** An error that stopped the run: annotated at its place in parlance.yml when it has one, and the step failed. */
function fail(error: unknown, inputs: ActionInputs | undefined): void {
  const failure = describeFailure(error);
  const config = failure.config;
  if (config && config.line > 0) {
    const file = inputs ? toPosix(relative(inputs.workspace, config.file)) : config.file;
    core.error(config.message, { file, startLine: config.line, startColumn: config.column });
  }
  core.setFailed(`${inputs ? `Parlance ${inputs.command}` : 'Parlance'}: ${failure.message} ${exitNote(failure.exitCode)}`);
}

const SHOWN_ROWS = 50;

/** The refused rows (held for review) and the flagged rows, each with its key, file, reason and a link to review it. */
function addRowTables(summary: typeof core.summary, result: RunResult): void {
  const refused = refusedRows(result);
  const flagged = flaggedRows(result.rows);
  const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  const th = (...names: string[]): SummaryTableRow => names.map((data) => ({ data, header: true }));
  if (refused.length > 0) {
    summary.addHeading(`Refused rows: held for review, not in the files (${refused.length})`, 3);
    summary.addTable([
      th('Locale', 'Key', 'Source file', 'Reason', 'Refused'),
      ...refused.slice(0, SHOWN_ROWS).map((row) => [row.locale, `<code>${escapeHtml(row.key)}</code>`, `<code>${escapeHtml(row.path)}</code>`, escapeHtml(row.reason), row.batchId ? `this run (batch <code>${escapeHtml(row.batchId)}</code>)` : 'earlier']),
    ]);
    if (refused.length > SHOWN_ROWS) summary.addRaw(`<p>…and ${refused.length - SHOWN_ROWS} more.</p>`, true);
    if (result.links) {
      const links = result.links;
      const locales = [...new Set(refused.map((row) => row.locale))].map((locale) => link(links.keys(locale, 'held'), locale));
      summary.addRaw(`<p>Review them in Parlance: ${link(links.review, 'the review queue')} (${locales.join(', ')})</p>`, true);
    }
  }
  if (flagged.length > 0) {
    summary.addHeading(`Flagged rows: written, flagged for review (${flagged.length})`, 3);
    summary.addTable([
      th('Locale', 'Key', 'Source file', 'Reason'),
      ...flagged.slice(0, SHOWN_ROWS).map((row) => [row.locale, `<code>${escapeHtml(row.key)}</code>`, `<code>${escapeHtml(row.path)}</code>`, escapeHtml(row.reason)]),
    ]);
    if (flagged.length > SHOWN_ROWS) summary.addRaw(`<p>…and ${flagged.length - SHOWN_ROWS} more.</p>`, true);
    if (result.links) {
      const links = result.links;
      const locales = [...new Set(flagged.map((row) => row.locale))].map((locale) => link(links.keys(locale, 'flagged'), locale));
      summary.addRaw(`<p>Review them in Parlance: ${locales.join(', ')}</p>`, true);
    }
  }
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);
}
