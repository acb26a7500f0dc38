/**
 * The "Parlance quality gates" check run: one run per commit that summarises every batch of that commit, its verdict the
 * worst over them, each refused or flagged key annotated once at its line with the locales it failed in.
 */
import { z } from 'zod';
import type { GateFailure } from '../../src/core/gates/types.js';
import type { BatchReport } from './pr-body.js';
import type { GitHubClient } from './translation-pr.js';

export const CHECK_RUN_NAME = 'Parlance quality gates';

/** GitHub takes at most 50 annotations per create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** Problems remembered in a run's summary, for the conclusion and the re-run's "fixed" count; beyond this only counts are kept. */
export const STATE_PROBLEM_LIMIT = 250;
/** Batches listed in a run's summary (a commit with more is unusual: one batch per source file). */
export const STATE_BATCH_LIMIT = 100;

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

/** GitHub's limits on an annotation's title and message, and on a run's summary. */
const TITLE_LIMIT = 255;
const MESSAGE_LIMIT = 64 * 1024;
const SUMMARY_LIMIT = 65_535;

/** Refused rows fail the check; flagged rows alone only ask for a look. */
export function conclusionFor(rows: readonly Pick<CheckRow, 'outcome'>[]): CheckConclusion {
  if (rows.some((r) => r.outcome === 'refused')) return 'failure';
  if (rows.some((r) => r.outcome === 'flagged')) return 'neutral';
  return 'success';
}

const SEVERITY: Record<CheckConclusion, number> = { success: 0, neutral: 1, failure: 2 };

/** The worst of several verdicts: one failing batch fails the commit, whatever the others say. */
export function worstConclusion(conclusions: readonly CheckConclusion[]): CheckConclusion {
  return conclusions.reduce<CheckConclusion>((worst, c) => (SEVERITY[c] > SEVERITY[worst] ? c : worst), 'success');
}

const groupId = (r: Pick<CheckRow, 'path' | 'key' | 'outcome'>) => `${r.path}\u0000${r.key}\u0000${r.outcome}`;

/**
 * One annotation per key and outcome, on the key's line, naming its locales once: `Refused (de, fr): cart.items`. The
 * reason is written once when every locale failed the same way, else once per group of locales that share it.
 */
export function annotationsFor(rows: readonly CheckRow[]): Annotation[] {
  const groups = new Map<string, CheckRow[]>();
  for (const row of rows) {
    if (!Number.isInteger(row.line) || row.line < 1) {
      throw new Error(`Row '${row.key}' (${row.locale}) in '${row.path}' has line ${row.line}; expected a 1-based line number.`);
    }
    const list = groups.get(groupId(row)) ?? [];
    list.push(row);
    groups.set(groupId(row), list);
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    const locales = [...new Set(group.map((r) => r.locale))].sort();
    const byText = new Map<string, string[]>();
    for (const r of group) {
      const text = [r.reason, ...r.gate_failures.map((f) => `- ${f.gate}: ${f.reason}`)].join('\n');
      byText.set(text, [...(byText.get(text) ?? []), r.locale]);
    }
    const message = byText.size === 1 ? [...byText.keys()][0]! : [...byText].map(([text, ls]) => `${[...new Set(ls)].sort().join(', ')}: ${text}`).join('\n\n');
    return {
      path: first.path,
      start_line: first.line,
      end_line: first.line,
      annotation_level: first.outcome === 'refused' ? ('failure' as const) : ('warning' as const),
      title: truncate(`${first.outcome === 'refused' ? 'Refused' : 'Flagged'} (${locales.join(', ')}): ${first.key}`, TITLE_LIMIT),
      message: truncate(message, MESSAGE_LIMIT),
    };
  });
}

/** One annotation for one row (a key failing in one locale). */
export function annotationFor(row: CheckRow): Annotation {
  return annotationsFor([row])[0]!;
}

/** Splits annotations into requests GitHub accepts. */
export function chunkAnnotations(annotations: readonly Annotation[], size = ANNOTATIONS_PER_REQUEST): Annotation[][] {
  const chunks: Annotation[][] = [];
  for (let i = 0; i < annotations.length; i += size) chunks.push(annotations.slice(i, i + size));
  return chunks;
}

// ---------------------------------------------------------------------------------------------------------------------
// The run's state: kept in its summary as an HTML comment (invisible on GitHub) so the next batch of the same commit,
// or a re-run, can read back what the run already reports and add to it.

const STATE_MARKER = 'parlance-check-state';
const STATE_PATTERN = new RegExp(`<!-- ${STATE_MARKER} (.*?) -->`, 's');

const Problem = z.object({ key: z.string(), path: z.string(), locale: z.string(), outcome: z.enum(['refused', 'flagged']) });
export type CheckProblem = z.infer<typeof Problem>;

const BatchEntry = z.object({ id: z.string(), url: z.string(), refused: z.number().int().min(0), flagged: z.number().int().min(0) });
export type CheckBatchEntry = z.infer<typeof BatchEntry>;

const CheckState = z.object({
  v: z.literal(1),
  batches: z.array(BatchEntry),
  /** The refused and flagged rows the run reports now (after a re-run: what the re-run found). */
  problems: z.array(Problem),
  /** Problems left out of `problems` (over STATE_PROBLEM_LIMIT), by outcome; they still count for the conclusion. */
  unlisted: z.object({ refused: z.number().int().min(0), flagged: z.number().int().min(0) }),
  /** What the last re-run changed, shown in the summary. */
  recheck: z.object({ fixed: z.number().int().min(0), remaining: z.number().int().min(0), new: z.number().int().min(0), notes: z.array(z.string()) }).optional(),
});
export type CheckState = z.infer<typeof CheckState>;

/** The state a run's summary carries, or null for a summary without one (a run from before, or someone else's). */
export function readCheckState(summary: string | null | undefined): CheckState | null {
  const match = summary ? STATE_PATTERN.exec(summary) : null;
  if (!match) return null;
  try {
    const parsed = CheckState.safeParse(JSON.parse(match[1]!));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const problemId = (p: Pick<CheckProblem, 'key' | 'path' | 'locale'>) => `${p.path}\u0000${p.key}\u0000${p.locale}`;

function toProblems(rows: readonly CheckRow[]): CheckProblem[] {
  return rows.map((r) => ({ key: r.key, path: r.path, locale: r.locale, outcome: r.outcome }));
}

/** Bounds the problem list, refusals kept first (a re-run counts them as fixed or remaining); what is left out is counted. */
function bounded(problems: readonly CheckProblem[], unlisted: CheckState['unlisted']): Pick<CheckState, 'problems' | 'unlisted'> {
  const ordered = [...problems.filter((p) => p.outcome === 'refused'), ...problems.filter((p) => p.outcome !== 'refused')];
  const kept = ordered.slice(0, STATE_PROBLEM_LIMIT);
  const rest = ordered.slice(STATE_PROBLEM_LIMIT);
  return {
    problems: kept,
    unlisted: { refused: unlisted.refused + rest.filter((p) => p.outcome === 'refused').length, flagged: unlisted.flagged + rest.filter((p) => p.outcome === 'flagged').length },
  };
}

/**
 * Adds a batch's rows to a commit's state. The same batch again (a redelivery) replaces its entry instead of counting
 * twice; a key and locale reported again takes the newer outcome.
 */
export function addBatch(state: CheckState | null, batch: Pick<BatchReport, 'id' | 'url'>, rows: readonly CheckRow[]): CheckState {
  const entry: CheckBatchEntry = { id: batch.id, url: batch.url, refused: rows.filter((r) => r.outcome === 'refused').length, flagged: rows.filter((r) => r.outcome === 'flagged').length };
  const batches = [...(state?.batches ?? []).filter((b) => b.id !== batch.id), entry];
  const fresh = toProblems(rows);
  const freshIds = new Set(fresh.map(problemId));
  const problems = [...(state?.problems ?? []).filter((p) => !freshIds.has(problemId(p))), ...fresh];
  return { v: 1, batches: batches.slice(-STATE_BATCH_LIMIT), ...bounded(problems, state?.unlisted ?? { refused: 0, flagged: 0 }), ...(state?.recheck ? { recheck: state.recheck } : {}) };
}

/** A re-run's state: the same batches, the problems found now, and what changed since the state it replaces. */
export function recheckState(previous: CheckState, rows: readonly CheckRow[], notes: readonly string[] = []): CheckState {
  const now = toProblems(rows);
  const before = new Set(previous.problems.filter((p) => p.outcome === 'refused').map(problemId));
  const refusedNow = new Set(now.filter((p) => p.outcome === 'refused').map(problemId));
  const fixed = [...before].filter((id) => !refusedNow.has(id)).length;
  const remaining = [...before].filter((id) => refusedNow.has(id)).length;
  const added = [...refusedNow].filter((id) => !before.has(id)).length;
  return { v: 1, batches: previous.batches, ...bounded(now, { refused: 0, flagged: 0 }), recheck: { fixed, remaining, new: added, notes: [...notes] } };
}

/** The verdict of a state: from every problem it holds, listed or only counted. */
export function stateConclusion(state: CheckState): CheckConclusion {
  return worstConclusion([
    conclusionFor(state.problems),
    state.unlisted.refused > 0 ? 'failure' : state.unlisted.flagged > 0 ? 'neutral' : 'success',
  ]);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The run's title and Markdown summary: the counts now, one line per batch of the commit, and the state to read back. */
export function checkRunOutput(state: CheckState): { title: string; summary: string } {
  const refused = state.problems.filter((p) => p.outcome === 'refused').length + state.unlisted.refused;
  const flagged = state.problems.filter((p) => p.outcome === 'flagged').length + state.unlisted.flagged;
  const title = refused + flagged === 0 ? 'Every row passed the quality gates' : `${refused} refused, ${flagged} flagged`;
  const byLocale = new Map<string, { refused: number; flagged: number }>();
  for (const p of state.problems) {
    const tally = byLocale.get(p.locale) ?? { refused: 0, flagged: 0 };
    tally[p.outcome] += 1;
    byLocale.set(p.locale, tally);
  }
  const localeTable = [
    '| Locale | Refused | Flagged |',
    '| --- | ---: | ---: |',
    ...[...byLocale].sort(([a], [b]) => a.localeCompare(b)).map(([locale, t]) => `| \`${code(locale)}\` | ${t.refused} | ${t.flagged} |`),
  ].join('\n');
  const batchTable = [
    '| Batch | Refused | Flagged |',
    '| --- | ---: | ---: |',
    ...state.batches.map((b) => `| [\`${code(b.id)}\`](${b.url}) | ${b.refused} | ${b.flagged} |`),
  ].join('\n');
  const recheck = state.recheck;
  const sections = [
    `Parlance checked ${plural(state.batches.length, 'batch', 'batches')} for this commit: ${plural(refused, 'row')} refused, ${flagged} flagged.`,
    ...(recheck
      ? [
          `Re-run against the current source and the stored translations: ${plural(recheck.fixed, 'refusal')} fixed, ${recheck.remaining} remaining` +
            `${recheck.new > 0 ? `, ${recheck.new} new` : ''}.` +
            (recheck.notes.length > 0 ? `\n\n${recheck.notes.map((n) => `- ${n}`).join('\n')}` : ''),
        ]
      : []),
    ...(byLocale.size > 0 ? [localeTable] : []),
    ...(state.unlisted.refused + state.unlisted.flagged > 0 ? [`${state.unlisted.refused + state.unlisted.flagged} more rows are counted but not listed.`] : []),
    `As each batch reported it:\n\n${batchTable}`,
    'Refused rows failed a placeholder, plural or glossary gate and were not written; flagged rows broke a length budget and were written for review.',
  ];
  // '--' would end the HTML comment early; JSON can spell it with escapes.
  const marker = `<!-- ${STATE_MARKER} ${JSON.stringify(state).replace(/--/g, '\\u002d\\u002d')} -->`;
  let summary = `${sections.join('\n\n')}\n\n${marker}`;
  if (summary.length > SUMMARY_LIMIT) summary = `${truncate(sections.slice(0, 1).join('\n\n'), SUMMARY_LIMIT - marker.length - 2)}\n\n${marker}`;
  return { title, summary };
}

// ---------------------------------------------------------------------------------------------------------------------

interface ExistingRun {
  id: number;
  url: string | null;
  state: CheckState;
}

/** The newest "Parlance quality gates" run on a commit that carries a state, or null. */
export async function findCommitCheckRun(octokit: GitHubClient, owner: string, repo: string, headSha: string): Promise<ExistingRun | null> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { owner, repo, ref: headSha, check_name: CHECK_RUN_NAME, filter: 'latest', per_page: 100 });
  const runs = [...data.check_runs].filter((r) => r.name === CHECK_RUN_NAME).sort((a, b) => Number(b.id) - Number(a.id));
  for (const run of runs) {
    const state = readCheckState(run.output?.summary);
    if (state) return { id: Number(run.id), url: run.html_url, state };
  }
  return null;
}

/**
 * Writes a run: created when `existingId` is null, else updated. Annotations go 50 at a time; a new run stays
 * `in_progress` until the last of them lands with the conclusion, so no one sees a verdict whose annotations are still
 * missing. An existing run keeps its verdict until then (GitHub does not reopen a completed run), and the new verdict
 * comes with the last request.
 */
async function writeRun(input: {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  headSha: string;
  existingId: number | null;
  externalId: string;
  detailsUrl: string;
  state: CheckState;
  annotations: readonly Annotation[];
}): Promise<{ id: number; url: string | null; conclusion: CheckConclusion }> {
  const { octokit, owner, repo } = input;
  const output = checkRunOutput(input.state);
  const conclusion = stateConclusion(input.state);
  const chunks = chunkAnnotations(input.annotations);
  const first = chunks.length === 0 ? { status: 'completed' as const, conclusion } : { status: 'in_progress' as const };
  let id: number;
  let url: string | null;
  if (input.existingId === null) {
    const { data: run } = await octokit.request('POST /repos/{owner}/{repo}/check-runs', {
      owner,
      repo,
      name: CHECK_RUN_NAME,
      head_sha: input.headSha,
      // A batch of this commit, so a "Re-run" (check_run.rerequested) can find the link the run belongs to.
      external_id: input.externalId,
      details_url: input.detailsUrl,
      output,
      ...first,
    });
    // The OpenAPI types allow a bigint id; check run ids are far below 2^53.
    id = Number(run.id);
    url = run.html_url;
  } else {
    id = input.existingId;
    url = null;
    if (chunks.length === 0) {
      await octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { owner, repo, check_run_id: id, output, ...first });
    }
  }
  for (const [index, chunk] of chunks.entries()) {
    const last = index === chunks.length - 1;
    await octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
      owner,
      repo,
      check_run_id: id,
      // Each update appends its annotations to those already on the run.
      output: { ...output, annotations: chunk },
      ...(last ? { status: 'completed' as const, conclusion } : {}),
    });
  }
  return { id, url, conclusion };
}

/**
 * Reports a finished batch on a commit: the commit's run is found by name and updated with this batch added (its
 * conclusion the worst over every batch), or created for the commit's first batch. A redelivered batch already on the
 * run updates the summary but does not annotate its rows twice.
 */
export async function reportBatchOnCommit(input: CheckRunInput): Promise<{ id: number; url: string | null; conclusion: CheckConclusion; created: boolean }> {
  const { octokit, owner, repo, headSha, batch, rows } = input;
  const existing = await findCommitCheckRun(octokit, owner, repo, headSha);
  const seen = existing?.state.batches.some((b) => b.id === batch.id) ?? false;
  const state = addBatch(existing?.state ?? null, batch, rows);
  const run = await writeRun({
    octokit, owner, repo, headSha,
    existingId: existing?.id ?? null,
    externalId: existing?.state.batches[0]?.id ?? batch.id,
    detailsUrl: batch.url,
    state,
    annotations: seen ? [] : annotationsFor(rows),
  });
  return { ...run, url: run.url ?? existing?.url ?? null, created: existing === null };
}

/**
 * Creates a new run for a commit, as GitHub asks of a re-requested check: `state` replaces what the commit's runs said
 * (the old run keeps its history), with every problem annotated afresh.
 */
export async function reportCheckRun(
  input: Omit<CheckRunInput, 'rows'> & { rows: readonly CheckRow[]; state?: CheckState },
): Promise<{ id: number; url: string | null; conclusion: CheckConclusion }> {
  const { octokit, owner, repo, headSha, batch, rows } = input;
  const state = input.state ?? addBatch(null, batch, rows);
  return writeRun({ octokit, owner, repo, headSha, existingId: null, externalId: state.batches[0]?.id ?? batch.id, detailsUrl: batch.url, state, annotations: annotationsFor(rows) });
}

function code(text: string): string {
  return text.replace(/`/g, "'").replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
