/**
 * The translation pull request's title and Markdown body: counts per locale over every batch since the branch was last
 * rebuilt, links to those batches, and the hand edits imported. The totals live in the body itself (a hidden block the
 * next update reads back and adds to), so they survive a restart of the App and need no store of their own.
 */
import { z } from 'zod';

/** What one locale of a batch came to. */
export interface LocaleTally {
  locale: string;
  translated: number;
  refused: number;
  flagged: number;
  words: number;
}

/** A completed batch as the GitHub App reports it. */
export interface BatchReport {
  id: string;
  /** Where a reviewer can see the batch (absolute URL). */
  url: string;
  locales: LocaleTally[];
}

/** The Parlance project the repository is linked to. */
export interface ProjectRef {
  name: string;
  /** The service's URL for the project (absolute). */
  url: string;
}

/** A translation edited by hand on the base branch and imported as a human translation. */
export interface DriftImport {
  key: string;
  locale: string;
  path: string;
}

/** GitHub refuses bodies over 65,536 characters; a long drift list is cut well before that. */
export const DRIFT_LIST_LIMIT = 100;

/** The pull request's title; stable across batches so reviewers recognise the one Parlance PR per base. */
export function pullRequestTitle(base: string): string {
  return `Parlance: update translations for ${base}`;
}

const Tally = z.object({ locale: z.string(), translated: z.number().int().min(0), refused: z.number().int().min(0), flagged: z.number().int().min(0), words: z.number().int().min(0) });
const Drift = z.object({ key: z.string(), locale: z.string(), path: z.string() });

/** What the pull request reports since its branch was last rebuilt, kept in the body for the next update. */
const PullRequestState = z.object({
  v: z.literal(1),
  /** The batches counted, oldest first (at most BATCH_LIST_LIMIT; `earlier` counts those dropped from the list). */
  batches: z.array(z.object({ id: z.string(), url: z.string() })),
  earlier: z.number().int().min(0),
  locales: z.array(Tally),
  /** Hand edits imported, each once (at most DRIFT_STATE_LIMIT; `drift_unlisted` counts the rest). */
  drift: z.array(Drift),
  drift_unlisted: z.number().int().min(0),
});
export type PullRequestState = z.infer<typeof PullRequestState>;

const STATE_MARKER = 'parlance-pr-state';
const STATE_PATTERN = new RegExp(`<!-- ${STATE_MARKER} (.*?) -->`, 's');
/** Batches linked from the body; a long-lived pull request counts older ones without listing them. */
export const BATCH_LIST_LIMIT = 50;
/** Hand edits remembered in the body's state. */
export const DRIFT_STATE_LIMIT = 500;

/** The state a body carries, or null for one without it (written before, or edited beyond recognition). */
export function readPullRequestState(body: string | null | undefined): PullRequestState | null {
  const match = body ? STATE_PATTERN.exec(body) : null;
  if (!match) return null;
  try {
    const parsed = PullRequestState.safeParse(JSON.parse(match[1]!));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const driftId = (d: DriftImport) => `${d.path}\u0000${d.key}\u0000${d.locale}`;

/**
 * Adds a batch (and the hand edits shown with it) to the pull request's state. A batch already counted (a redelivery)
 * adds nothing; a hand edit already listed is not listed twice.
 */
export function addToPullRequestState(previous: PullRequestState | null, batch: BatchReport, drift: readonly DriftImport[] = []): PullRequestState {
  const state: PullRequestState = previous
    ? structuredClone(previous)
    : { v: 1, batches: [], earlier: 0, locales: [], drift: [], drift_unlisted: 0 };
  if (!state.batches.some((b) => b.id === batch.id)) {
    state.batches.push({ id: batch.id, url: batch.url });
    for (const t of batch.locales) {
      const sum = state.locales.find((s) => s.locale === t.locale);
      if (sum) {
        sum.translated += t.translated;
        sum.refused += t.refused;
        sum.flagged += t.flagged;
        sum.words += t.words;
      } else state.locales.push({ ...t });
    }
    const dropped = Math.max(0, state.batches.length - BATCH_LIST_LIMIT);
    state.batches = state.batches.slice(dropped);
    state.earlier += dropped;
  }
  const listed = new Set(state.drift.map(driftId));
  for (const d of drift) {
    if (listed.has(driftId(d))) continue;
    listed.add(driftId(d));
    if (state.drift.length < DRIFT_STATE_LIMIT) state.drift.push({ key: d.key, locale: d.locale, path: d.path });
    else state.drift_unlisted += 1;
  }
  return state;
}

/**
 * The pull request's body after a batch. `previousBody` is the body the open pull request has now: its counts are
 * added to; leave it out (or null) when the branch was rebuilt, and the counts start again from this batch.
 */
export function pullRequestBody(input: { batch: BatchReport; project: ProjectRef; base: string; drift?: readonly DriftImport[]; previousBody?: string | null }): string {
  const { batch, project, base } = input;
  const state = addToPullRequestState(readPullRequestState(input.previousBody), batch, input.drift ?? []);
  const links = state.batches.map((b) => batchLink(b)).join(', ');
  const from =
    state.batches.length + state.earlier === 1
      ? `from Parlance batch ${links}`
      : `from ${state.batches.length + state.earlier} Parlance batches since the branch was last rebuilt: ${state.earlier > 0 ? `${state.earlier} earlier, ` : ''}${links}`;
  const sections = [
    `Translations for **${escapeMarkdown(project.name)}** ${from}.`,
    localeTable(state.locales),
    'Refused rows keep their last accepted translation (or stay untranslated) and are pinned to their line by the ' +
      '"Parlance quality gates" check run; flagged rows are written and marked for review.',
  ];
  if (state.drift.length > 0) sections.push(driftSection(state.drift, base, state.drift_unlisted));
  sections.push(
    '---\n' +
      `Managed by [Parlance](${project.url}) for project ${escapeMarkdown(project.name)}. Each batch replaces this branch's ` +
      `Parlance commits with one commit on the current \`${escapeCode(base)}\`; commits pushed by people are kept and never force-pushed over.`,
  );
  // '--' inside the JSON would end the HTML comment; JSON can spell it with escapes.
  sections.push(`<!-- ${STATE_MARKER} ${JSON.stringify(state).replace(/--/g, '\\u002d\\u002d')} -->`);
  return sections.join('\n\n');
}

/** One row per locale and a total; numbers right-aligned so columns compare at a glance. */
export function localeTable(locales: readonly LocaleTally[]): string {
  const rows = [...locales].sort((a, b) => a.locale.localeCompare(b.locale));
  const total = rows.reduce(
    (sum, r) => ({ translated: sum.translated + r.translated, refused: sum.refused + r.refused, flagged: sum.flagged + r.flagged, words: sum.words + r.words }),
    { translated: 0, refused: 0, flagged: 0, words: 0 },
  );
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['Locale', 'Translated', 'Refused', 'Flagged', 'Words']),
    '| --- | ---: | ---: | ---: | ---: |',
    // GFM splits cells on a pipe even inside a code span, so the locale's pipes are escaped for the table.
    ...rows.map((r) => line([`\`${escapeCode(r.locale).replace(/\|/g, '\\|')}\``, r.translated, r.refused, r.flagged, r.words])),
    ...(rows.length > 1 ? [line(['**Total**', total.translated, total.refused, total.flagged, total.words])] : []),
  ].join('\n');
}

/** The drift imports, capped at DRIFT_LIST_LIMIT with a count of the rest. */
export function driftSection(drift: readonly DriftImport[], base: string, unlisted = 0): string {
  const shown = drift.slice(0, DRIFT_LIST_LIMIT);
  const items = shown.map((d) => `- \`${escapeCode(d.key)}\` (${escapeCode(d.locale)}) in \`${escapeCode(d.path)}\``);
  const more = drift.length - shown.length + unlisted;
  if (more > 0) items.push(`- …and ${more} more`);
  return [
    '### Hand edits imported',
    `These translations were edited by hand on \`${escapeCode(base)}\`; Parlance imported them as human translations, so later batches will not overwrite them.`,
    '',
    ...items,
  ].join('\n');
}

function batchLink(batch: Pick<BatchReport, 'id' | 'url'>): string {
  return `[\`${escapeCode(batch.id)}\`](${batch.url})`;
}

/** Inside a code span only a backtick ends it early (and a line break would end the list item). */
function escapeCode(text: string): string {
  return text.replace(/`/g, "'").replace(/\r?\n/g, ' ');
}

/** Plain text from the project (its name) must not turn into links, emphasis or table cells. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}
