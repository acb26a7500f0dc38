/**
 * create-pull-request: where the run's result goes on GitHub. On `pull_request` events a comment on that pull request
 * (the Action opens no branch of its own there, and a fork's pull request gets a read-only token); on any other event
 * on a branch (`push`, `schedule`, `workflow_dispatch`) a commit on `parlance/<base>` and its one pull request.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@actions/core';
import { context, getOctokit } from '@actions/github';
import { STATE_PATH } from '../sync/state-file.js';
import { InputError, type ActionInputs } from './inputs.js';
import { translationBranchFor } from '../core/translation-branch.js';
import { commentBody, commitMessage, pullRequestBody, reportMarkdown, type RunInfo } from './pull-request-fns.js';
import { PullRequestError } from './pull-request-error.js';
import { syncPullRequest, upsertComment, type RepoFile } from './pull-request.js';
import { changedFiles, flaggedRows, refusedRows, tallyByLocale, workspacePath, type RunResult } from './report-fns.js';

/** The pull request the run opened, updated or commented on, for the outputs and the summary. */
export interface Published {
  number: string;
  url: string;
  /** What happened, for the summary: `Pull request #3 opened`. */
  line: string;
}

const PULL_REQUEST_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target']);

export async function publishToGitHub(result: RunResult, inputs: ActionInputs): Promise<Published | undefined> {
  const { owner, repo } = repository();
  const octokit = getOctokit(inputs.githubToken);
  const run = runInfo(result, owner, repo);
  const report = reportMarkdown({ tallies: tallyByLocale(result), refused: refusedRows(result), flagged: flaggedRows(result.rows), links: result.links });

  if (PULL_REQUEST_EVENTS.has(context.eventName)) {
    const pr = context.payload.pull_request as { number: number; html_url?: string; head?: { repo?: { full_name?: string } | null } } | undefined;
    if (!pr) throw new PullRequestError(`The '${context.eventName}' event carries no pull request (GITHUB_EVENT_PATH: ${process.env.GITHUB_EVENT_PATH ?? 'not set'}).`, 1);
    const body = commentBody({ run, report, changedFiles: changedFiles(result) });
    try {
      const comment = await upsertComment({ octokit, owner, repo, number: pr.number, body });
      core.info(`Parlance: ${comment.action === 'created' ? 'commented on' : 'updated the comment on'} pull request #${pr.number}: ${comment.url}`);
      return { number: String(pr.number), url: pr.html_url ?? comment.url, line: `Pull request #${pr.number}: ${comment.action === 'created' ? 'commented' : 'comment updated'}` };
    } catch (error) {
      // A pull request from a fork gets a read-only GITHUB_TOKEN whatever the workflow asks: not the author's fault.
      const fromFork = pr.head?.repo?.full_name !== undefined && pr.head.repo.full_name !== `${owner}/${repo}`;
      if (fromFork && error instanceof PullRequestError && error.exitCode === 2) {
        core.warning(`Parlance: could not comment on pull request #${pr.number} from the fork ${pr.head!.repo!.full_name}: GitHub gives a fork's pull request a read-only GITHUB_TOKEN. ${error.message}`);
        return undefined;
      }
      throw error;
    }
  }

  if (!result.pull) {
    core.info(`Parlance: create-pull-request: command '${result.command}' pulls no files, so there is nothing to commit.`);
    return undefined;
  }
  const ref = context.ref ?? '';
  if (!ref.startsWith('refs/heads/')) {
    throw new InputError(
      `Input create-pull-request needs a branch to open the pull request against, and this run (event '${context.eventName}') is for '${ref || '(no GITHUB_REF)'}'. Run it on push to a branch, schedule or workflow_dispatch, or set create-pull-request: false.`,
    );
  }
  const base = ref.slice('refs/heads/'.length);
  const branch = inputs.pullRequestBranch ?? translationBranchFor(base);
  if (branch === base) throw new InputError(`Invalid input pull-request-branch '${branch}': it is the branch this run is on. Expected a branch of its own, such as '${translationBranchFor(base)}'.`);

  const files = repoFiles(result, inputs);
  const statePath = workspacePath(result.configDir, STATE_PATH);
  const synced = await syncPullRequest({
    octokit,
    owner,
    repo,
    base,
    branch,
    files,
    incidental: new Set([statePath]),
    message: commitMessage(run, tallyByLocale(result)),
    body: (note) => pullRequestBody({ run, report, note }),
  });
  if (synced.note && synced.note.heldFiles.length > 0) {
    core.warning(`Parlance: '${branch}' has commits the Action did not make, which changed ${synced.note.heldFiles.join(', ')}: those files were left as committed there, and the translations pulled for them are not in the pull request (see its description).`);
  }
  if (!synced.pr) {
    core.info(`Parlance: the locale files on '${base}' are current: no pull request needed.`);
    return undefined;
  }
  const verb = synced.action === 'created' ? 'opened' : synced.action === 'updated' ? 'updated with a new commit' : 'unchanged (its description refreshed)';
  core.info(`Parlance: pull request #${synced.pr.number} ${verb}: ${synced.pr.url}`);
  return { number: String(synced.pr.number), url: synced.pr.url, line: `Pull request #${synced.pr.number} ${verb}` };
}

function repository(): { owner: string; repo: string } {
  try {
    return context.repo;
  } catch {
    throw new InputError("Input create-pull-request needs the repository: GITHUB_REPOSITORY ('owner/repo') is not set, as it is in every workflow run.");
  }
}

function runInfo(result: RunResult, owner: string, repo: string): RunInfo {
  const runId = Number.isFinite(context.runId) ? String(context.runId) : 'local';
  return {
    command: result.command,
    base: (context.ref ?? '').replace(/^refs\/heads\//, ''),
    sha: context.sha ?? '',
    runId,
    runUrl: runId === 'local' ? undefined : `${context.serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
  };
}

/**
 * Every pulled locale file as it is in the workspace now (the branch gets what the service holds, whether or not this
 * checkout already had it), and the CLI's state file beside them, so the next run knows which values it wrote.
 */
function repoFiles(result: RunResult, inputs: ActionInputs): RepoFile[] {
  const paths = [...new Set((result.pull?.files ?? []).map((file) => workspacePath(result.configDir, file.path))), workspacePath(result.configDir, STATE_PATH)];
  return paths.flatMap((path) => {
    const absolute = join(inputs.workspace, ...path.split('/'));
    return existsSync(absolute) ? [{ path, content: readFileSync(absolute) }] : [];
  });
}
