/** A `parlance.yml` the App cannot use, reported where the person who pushed it looks: a failing check run on the commit. */
import type { GitHubClient } from './translation-pr.js';

export const CONFIG_CHECK_RUN_NAME = 'Parlance configuration';

/** GitHub's limits on an annotation's message and a run's summary. */
const MESSAGE_LIMIT = 64 * 1024;
const SUMMARY_LIMIT = 65_535;

export interface ConfigCheckInput {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  headSha: string;
  problem: { path: string; line: number; column: number; message: string };
}

/** The failing run, with the error as an annotation at its line of the config file. */
export async function reportConfigError(input: ConfigCheckInput): Promise<{ id: number }> {
  const { octokit, owner, repo, headSha, problem } = input;
  const summary = [
    `Parlance could not use \`${problem.path}\` at this commit, so the push was not sent for translation:`,
    '```\n' + problem.message.replace(/```/g, "'''") + '\n```',
    `Fix \`${problem.path}\` and push again; that push sends every source file that changed since, including this commit's.`,
  ].join('\n\n');
  const { data } = await octokit.request('POST /repos/{owner}/{repo}/check-runs', {
    owner,
    repo,
    name: CONFIG_CHECK_RUN_NAME,
    head_sha: headSha,
    status: 'completed',
    conclusion: 'failure',
    output: {
      title: `${problem.path}:${problem.line}: cannot be used`,
      summary: truncate(summary, SUMMARY_LIMIT),
      annotations: [
        {
          path: problem.path,
          start_line: problem.line,
          end_line: problem.line,
          start_column: problem.column,
          end_column: problem.column,
          annotation_level: 'failure',
          title: `${problem.path} cannot be used`,
          message: truncate(problem.message, MESSAGE_LIMIT),
        },
      ],
    },
  });
  return { id: Number(data.id) };
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
