/**
 * Pure pieces of the Action's pull request: which commits on the branch are the Action's own, where the next commit
 * goes, and the Markdown of the commit message, the pull request body and the pull_request-event comment.
 */
import { isOwnCommit, type BranchCommit } from '../core/translation-branch.js';
import type { FlaggedRow, LocaleTally, RefusedRow, ReviewLinks } from './report-fns.js';

/**
 * The trailer that marks a commit as this Action's, so a later run may replace it. It differs from the GitHub App's
 * `Parlance-Batch`: each treats the other's commits as a person's and builds on them, never over them.
 */
export const ACTION_TRAILER = 'Parlance-Action-Run';

/** Marks the pull request body and the comment the Action writes, so a later run finds and updates its own. */
export const BODY_MARKER = '<!-- parlance-action -->';

/** The Action's own commit: its trailer, committed by a bot (GITHUB_TOKEN's github-actions[bot]). */
export function isActionCommit(commit: Pick<BranchCommit, 'message' | 'committerType'>): boolean {
  return isOwnCommit(commit, ACTION_TRAILER);
}

/** Where the report came from, for the commit message and the body. */
export interface RunInfo {
  command: string;
  base: string;
  /** The commit the workflow checked out. */
  sha: string;
  /** `https://github.com/o/r/actions/runs/1`, or undefined outside a workflow run. */
  runUrl: string | undefined;
  runId: string;
}

export function commitMessage(run: RunInfo, tallies: readonly LocaleTally[]): string {
  const lines = tallies.filter((t) => t.filesWritten > 0 || t.translated > 0 || t.refused > 0).map((t) => `${t.locale}: ${t.translated} translated, ${t.refused} refused, ${t.flagged} flagged`);
  return [`Update translations from Parlance`, `Pulled for ${run.base} at ${run.sha.slice(0, 7)} by the Parlance Action (parlance ${run.command}).`, lines.join('\n'), `${ACTION_TRAILER}: ${run.runId}`]
    .filter((part) => part !== '')
    .join('\n\n');
}

export const PULL_REQUEST_TITLE = (base: string) => `Update translations from Parlance (${base})`;

/** What the body says about the branch when people committed to it. */
export interface BranchNote {
  branch: string;
  peopleCommits: readonly BranchCommit[];
  unseenCommits: number;
  /** Files the Action left as people committed them on the branch, with the Action's own version not written. */
  heldFiles: readonly string[];
}

const SHOWN_ROWS = 50;
/** GitHub refuses a body over 65,536 characters; the lists stop well before. */
const MAX_BODY = 60_000;

/** The report in Markdown: per-locale counts, the refused rows with keys and reasons, the flagged rows, links to review. */
export function reportMarkdown(input: { tallies: readonly LocaleTally[]; refused: readonly RefusedRow[]; flagged: readonly FlaggedRow[]; links: ReviewLinks | undefined }): string {
  const { tallies, refused, flagged, links } = input;
  const parts: string[] = [];
  if (tallies.length > 0) {
    const rows = tallies.map((t) => `| ${t.locale} | ${t.translated} | ${t.refused} | ${t.flagged} | ${t.filesWritten} |`);
    parts.push(['| Locale | Translated | Refused | Flagged | Files written |', '|---|---:|---:|---:|---:|', ...rows].join('\n'));
  }
  if (refused.length > 0) {
    const lines = refused.slice(0, SHOWN_ROWS).map((row) => `| ${row.locale} | \`${cell(row.key)}\` | \`${cell(row.path)}\` | ${cell(row.reason)} | ${row.batchId ? `this run (batch \`${row.batchId}\`)` : 'earlier'} |`);
    parts.push(
      [
        `### Refused rows: held for review, not in the files (${refused.length})`,
        '',
        '| Locale | Key | Source file | Reason | Refused |',
        '|---|---|---|---|---|',
        ...lines,
        ...(refused.length > SHOWN_ROWS ? ['', `…and ${refused.length - SHOWN_ROWS} more.`] : []),
        ...(links ? ['', `Review them in Parlance: ${links.review} (${localeLinks(refused, links, 'held')}).`] : []),
      ].join('\n'),
    );
  }
  if (flagged.length > 0) {
    const lines = flagged.slice(0, SHOWN_ROWS).map((row) => `| ${row.locale} | \`${cell(row.key)}\` | \`${cell(row.path)}\` | ${cell(row.reason)} |`);
    parts.push(
      [
        `### Flagged rows: written, flagged for review (${flagged.length})`,
        '',
        '| Locale | Key | Source file | Reason |',
        '|---|---|---|---|',
        ...lines,
        ...(flagged.length > SHOWN_ROWS ? ['', `…and ${flagged.length - SHOWN_ROWS} more.`] : []),
        ...(links ? ['', `Review them in Parlance: ${localeLinks(flagged, links, 'flagged')}.`] : []),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

function localeLinks(rows: readonly { locale: string }[], links: ReviewLinks, state: 'held' | 'flagged'): string {
  return [...new Set(rows.map((row) => row.locale))].map((locale) => `[${locale}](${links.keys(locale, state)})`).join(', ');
}

/** A table cell: no pipe or line break may end it early. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/`/g, "'").replace(/\r?\n/g, ' ');
}

export function pullRequestBody(input: { run: RunInfo; report: string; note: BranchNote | undefined }): string {
  const { run, report, note } = input;
  const from = run.runUrl ? `[workflow run ${run.runId}](${run.runUrl})` : `workflow run ${run.runId}`;
  const parts = [
    BODY_MARKER,
    `Translations pulled from Parlance for \`${run.base}\` at ${run.sha.slice(0, 7)} by ${from}. Each run of the Action updates this pull request; rows refused by the quality gates are held for review in Parlance and left out of the files.`,
    report,
    ...(note ? [branchNoteMarkdown(note)] : []),
  ];
  return truncate(parts.filter((part) => part !== '').join('\n\n'));
}

export function branchNoteMarkdown(note: BranchNote): string {
  const named = note.peopleCommits.map((c) => `\`${c.sha.slice(0, 7)}\` by ${c.author}`);
  if (note.unseenCommits > 0) named.push(`${note.unseenCommits} more ${note.unseenCommits === 1 ? 'commit' : 'commits'} the compare API did not list`);
  return [
    '### Commits the Action did not make',
    '',
    `\`${note.branch}\` has commits the Action did not make: ${named.join(', ')}. The Action adds its commits on top of them and never force-pushes over them.`,
    ...(note.heldFiles.length > 0
      ? [
          '',
          `These files were changed by those commits, so the Action left them as they are on the branch and did not write the translations it pulled into them: ${note.heldFiles.map((path) => `\`${path}\``).join(', ')}. Merge this pull request, or upload the edit with \`parlance push --translations\` and delete the branch, so the next run can update them.`,
        ]
      : []),
  ].join('\n');
}

/** The comment on a pull request (pull_request events): the report, and that nothing was committed. */
export function commentBody(input: { run: RunInfo; report: string; changedFiles: readonly string[] }): string {
  const { run, report, changedFiles } = input;
  const from = run.runUrl ? `[workflow run ${run.runId}](${run.runUrl})` : `workflow run ${run.runId}`;
  const files =
    changedFiles.length > 0
      ? `The pull wrote ${changedFiles.length} locale ${changedFiles.length === 1 ? 'file' : 'files'} in the workflow's checkout (${changedFiles.map((p) => `\`${p}\``).join(', ')}); on a pull request the Action commits nothing and opens no branch of its own.`
      : "The pull changed no locale file; on a pull request the Action commits nothing and opens no branch of its own.";
  return truncate([BODY_MARKER, `**Parlance ${run.command}** for this pull request at ${run.sha.slice(0, 7)} (${from}).`, report, files].filter((part) => part !== '').join('\n\n'));
}

function truncate(body: string): string {
  return body.length <= MAX_BODY ? body : `${body.slice(0, MAX_BODY)}\n\n…(cut: the body is limited to ${MAX_BODY} characters)`;
}
