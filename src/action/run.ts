/**
 * The Action's orchestration: parse the inputs, run the push and pull routines the CLI runs (src/sync) with the same
 * client and parlance.yml code, then annotate, set the outputs, write the job summary, and fail the step where the CLI would
 * exit non-zero. It only writes files; committing them is another step's job.
 */
import { relative, sep } from 'node:path';
import * as core from '@actions/core';
import type { SummaryTableRow } from '@actions/core/lib/summary.js';
import type { BatchRow } from '../client/types.js';
import { createContext, type CommandContext } from '../sync/command-context.js';
import type { CommandIo } from '../sync/output.js';
import { pullExitCode, pullTranslations } from '../sync/pull-translations.js';
import { pushExitCode, pushSources } from '../sync/push-sources.js';
import { about } from '../sync/subject-error.js';
import { worstExit } from '../sync/worst-exit.js';
import { createActionOutput } from './action-output.js';
import { describeFailure, exitNote } from './failure.js';
import { parseInputs, type ActionInputs } from './inputs.js';
import {
  actionOutputs,
  changedFiles,
  hasEnded,
  leftOutAnnotations,
  pushedBatches,
  rowAnnotations,
  SUMMARY_HEADER,
  summaryRows,
  tallyByLocale,
  verdict,
  wordsCharged,
  type RunResult,
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
  const configDir = toPosix(relative(inputs.workspace, context.config().root));

  const wait = inputs.command === 'sync' || inputs.wait;
  const push = inputs.command === 'pull' ? undefined : await core.group('parlance push', () => pushSources(context, { force: false, dryRun: false, wait }));
  const rows = await settledRows(context, push);
  const pull = inputs.command === 'push' ? undefined : await core.group('parlance pull', () => pullTranslations(context, { dryRun: false }));

  const exitCode = worstExit(push ? pushExitCode(push) : 0, pull ? pullExitCode(pull) : 0);
  return { result: { command: inputs.command, push, pull, rows, configDir }, exitCode };
}

/** Every row of each batch that ended: the push report only carries the refused ones, the summary needs all. */
async function settledRows(context: CommandContext, push: RunResult['push']): Promise<BatchRow[]> {
  const rows: BatchRow[] = [];
  for (const batch of pushedBatches(push)) {
    if (!hasEnded(batch)) continue;
    rows.push(...(await about(`batch ${batch.id}`, () => context.client().batchRows(batch.id))));
  }
  return rows;
}

async function report(result: RunResult, exitCode: 0 | 3 | 4, inputs: ActionInputs): Promise<void> {
  for (const annotation of [...rowAnnotations(result.rows, result.configDir), ...leftOutAnnotations(result.pull, result.rows, result.configDir)]) {
    const properties = { file: annotation.file, ...(annotation.line !== undefined ? { startLine: annotation.line } : {}) };
    if (annotation.level === 'error') core.error(annotation.message, properties);
    else core.warning(annotation.message, properties);
  }
  for (const [name, value] of Object.entries(actionOutputs(result))) core.setOutput(name, value);
  await writeSummary(result);

  const outcome = verdict(result, exitCode, inputs.failOnRefused);
  if (outcome?.failed) core.setFailed(outcome.message);
  else if (outcome) core.info(outcome.message);
}

async function writeSummary(result: RunResult): Promise<void> {
  const summary = core.summary.addHeading(`Parlance ${result.command}`, 2);
  const tallies = tallyByLocale(result);
  if (tallies.length > 0) {
    const header: SummaryTableRow = SUMMARY_HEADER.map((data) => ({ data, header: true }));
    summary.addTable([header, ...summaryRows(tallies)]);
  } else {
    summary.addRaw('<p>No rows were translated and no locale file was written.</p>', true);
  }

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

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);
}
