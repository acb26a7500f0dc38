/** Reports a batch's refused and flagged rows as the "Parlance quality gates" check run, pinned to each key's line. */
import type { GateFailure } from '../../src/core/gates/types.js';
import type { BatchReport } from './pr-body.js';
import type { GitHubClient } from './translation-pr.js';

export const CHECK_RUN_NAME = 'Parlance quality gates';

/** GitHub takes at most 50 annotations per create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** A row the gates did not pass, located at the line of its key in the source file. */
export interface CheckRow {
  key: string;
  locale: string;
  /** Repository-relative path of the file the key is defined in. */
  path: string;
  /** 1-based line of the key in that file. */
  line: number;
  outcome: 'refused' | 'flagged';
  reason: string;
  gate_failures: readonly GateFailure[];
}

export interface CheckRunInput {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  headSha: string;
  batch: Pick<BatchReport, 'id' | 'url'>;
  rows: readonly CheckRow[];
}

export type CheckConclusion = 'failure' | 'neutral' | 'success';

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'failure' | 'warning';
  title: string;
  message: string;
}

/** GitHub's limits on an annotation's title and message. */
const TITLE_LIMIT = 255;
const MESSAGE_LIMIT = 64 * 1024;

/** Refused rows fail the check; flagged rows alone only ask for a look. */
export function conclusionFor(rows: readonly Pick<CheckRow, 'outcome'>[]): CheckConclusion {
  if (rows.some((r) => r.outcome === 'refused')) return 'failure';
  if (rows.some((r) => r.outcome === 'flagged')) return 'neutral';
  return 'success';
}

/** One annotation per row, on the key's line, with every gate failure spelled out. */
export function annotationFor(row: CheckRow): Annotation {
  if (!Number.isInteger(row.line) || row.line < 1) {
    throw new Error(`Row '${row.key}' (${row.locale}) in '${row.path}' has line ${row.line}; expected a 1-based line number.`);
  }
  const failures = row.gate_failures.map((f) => `- ${f.gate}: ${f.reason}`);
  const message = [row.reason, ...failures].join('\n');
  return {
    path: row.path,
    start_line: row.line,
    end_line: row.line,
    annotation_level: row.outcome === 'refused' ? 'failure' : 'warning',
    title: truncate(`${row.outcome === 'refused' ? 'Refused' : 'Flagged'} (${row.locale}): ${row.key}`, TITLE_LIMIT),
    message: truncate(message, MESSAGE_LIMIT),
  };
}

/** The check run's title and Markdown summary: counts overall and per locale, and the batch link. */
export function checkRunOutput(batch: Pick<BatchReport, 'id' | 'url'>, rows: readonly CheckRow[]): { title: string; summary: string } {
  const refused = rows.filter((r) => r.outcome === 'refused').length;
  const flagged = rows.length - refused;
  const title = rows.length === 0 ? 'Every row passed the quality gates' : `${refused} refused, ${flagged} flagged`;
  const byLocale = new Map<string, { refused: number; flagged: number }>();
  for (const r of rows) {
    const tally = byLocale.get(r.locale) ?? { refused: 0, flagged: 0 };
    tally[r.outcome] += 1;
    byLocale.set(r.locale, tally);
  }
  const table = [
    '| Locale | Refused | Flagged |',
    '| --- | ---: | ---: |',
    ...[...byLocale].sort(([a], [b]) => a.localeCompare(b)).map(([locale, t]) => `| \`${locale}\` | ${t.refused} | ${t.flagged} |`),
  ].join('\n');
  const summary = [
    `Parlance batch [\`${batch.id}\`](${batch.url}): ${refused} row${refused === 1 ? '' : 's'} refused, ${flagged} flagged.`,
    ...(rows.length > 0 ? [table] : []),
    'Refused rows failed a placeholder, plural or glossary gate and were not written; flagged rows broke a length budget and were written for review.',
  ].join('\n\n');
  return { title, summary };
}

/** Splits annotations into requests GitHub accepts. */
export function chunkAnnotations(annotations: readonly Annotation[], size = ANNOTATIONS_PER_REQUEST): Annotation[][] {
  const chunks: Annotation[][] = [];
  for (let i = 0; i < annotations.length; i += size) chunks.push(annotations.slice(i, i + size));
  return chunks;
}

/**
 * Creates the check run and sends its annotations 50 at a time. The run stays `in_progress` until the last batch of
 * annotations lands with the conclusion, so no one sees a verdict whose annotations are still missing.
 */
export async function reportCheckRun(input: CheckRunInput): Promise<{ id: number; url: string | null; conclusion: CheckConclusion }> {
  const { octokit, owner, repo, headSha, batch, rows } = input;
  const annotations = rows.map(annotationFor);
  const output = checkRunOutput(batch, rows);
  const conclusion = conclusionFor(rows);
  const chunks = chunkAnnotations(annotations);

  const { data: run } = await octokit.request('POST /repos/{owner}/{repo}/check-runs', {
    owner,
    repo,
    name: CHECK_RUN_NAME,
    head_sha: headSha,
    // The batch id lets a "Re-run" (check_run.rerequested) find the batch again.
    external_id: batch.id,
    details_url: batch.url,
    output,
    ...(chunks.length === 0 ? { status: 'completed' as const, conclusion } : { status: 'in_progress' as const }),
  });
  for (const [index, chunk] of chunks.entries()) {
    const last = index === chunks.length - 1;
    await octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
      owner,
      repo,
      check_run_id: run.id,
      // Each update appends its annotations to those already on the run.
      output: { ...output, annotations: chunk },
      ...(last ? { status: 'completed' as const, conclusion } : {}),
    });
  }
  // The OpenAPI types allow a bigint id; check run ids are far below 2^53.
  return { id: Number(run.id), url: run.html_url, conclusion };
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
