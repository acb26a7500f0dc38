/** The translation pull request's title and Markdown body: counts per locale, links to the batch, and the drift imports. */

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

/** The pull request's body for a batch, with the drift section only when something was imported. */
export function pullRequestBody(input: { batch: BatchReport; project: ProjectRef; base: string; drift?: readonly DriftImport[] }): string {
  const { batch, project, base } = input;
  const sections = [
    `Translations for **${escapeMarkdown(project.name)}** from Parlance batch ${batchLink(batch)}.`,
    localeTable(batch.locales),
    'Refused rows keep their last accepted translation (or stay untranslated) and are pinned to their line by the ' +
      '"Parlance quality gates" check run; flagged rows are written and marked for review.',
  ];
  if (input.drift && input.drift.length > 0) sections.push(driftSection(input.drift, base));
  sections.push(
    '---\n' +
      `Managed by [Parlance](${project.url}) for project ${escapeMarkdown(project.name)}. Each batch replaces this branch's ` +
      `Parlance commits with one commit on the current \`${escapeCode(base)}\`; commits pushed by people are kept and never force-pushed over.`,
  );
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
export function driftSection(drift: readonly DriftImport[], base: string): string {
  const shown = drift.slice(0, DRIFT_LIST_LIMIT);
  const items = shown.map((d) => `- \`${escapeCode(d.key)}\` (${escapeCode(d.locale)}) in \`${escapeCode(d.path)}\``);
  if (drift.length > shown.length) items.push(`- …and ${drift.length - shown.length} more`);
  return [
    '### Hand edits imported',
    `These translations were edited by hand on \`${escapeCode(base)}\`; Parlance imported them as human translations, so later batches will not overwrite them.`,
    '',
    ...items,
  ].join('\n');
}

function batchLink(batch: BatchReport): string {
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
