/** `parlance qa`: runs the four quality gates over the stored translations and lists what did not pass. */
import { z } from 'zod';
import type { QaRun } from '../../client/types.js';
import { localeTags, noMorePositionals, parseFlags, type Command } from './command.js';

const Flags = z.object({
  locale: localeTags('--locale'),
  path: z.string().optional(),
  all: z.boolean().default(false),
});

export const qaCommand: Command = {
  name: 'qa',
  summary: 'Run the quality gates over the stored translations',
  help: `Usage: parlance qa [--locale de,fr] [--path <source file>] [--all]

Checks stored translations with the placeholder, plural, glossary and length gates and lists every row that
was flagged or refused. Exit 4 when a row is refused.

  --locale      only these locales (default: every target locale)
  --path        only the keys of this source file
  --all         list the rows that passed too`,
  options: { locale: { type: 'string', multiple: true }, path: { type: 'string' }, all: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    noMorePositionals(positionals, 0, 'parlance qa [--locale de,fr] [--path <file>]');
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const run = await context.client().qaRun({
      ...(flags.locale ? { locales: flags.locale } : {}),
      ...(flags.path ? { path: flags.path } : {}),
      ...(flags.all ? { include_passed: true } : {}),
    });
    out.document(run);
    out.line(qaSummary(run));
    for (const item of run.items) {
      const line = qaItemLine(item);
      if (item.outcome === 'refused') out.problem(line);
      else out.line(line);
    }
    for (const skipped of run.not_checked) out.note(`not checked ${skipped.path ?? ''}${skipped.path ? ' ' : ''}'${skipped.key}' (${skipped.locale}): ${skipped.reason}`);
    return run.refused > 0 ? 4 : 0;
  },
};

export function qaSummary(run: QaRun): string {
  return `QA ${run.id}: ${run.checked} checked, ${run.passed} passed, ${run.flagged} flagged, ${run.refused} refused${run.not_checked.length > 0 ? `, ${run.not_checked.length} not checked` : ''}`;
}

/** `locales/en/app.json 'cart.total' (de) refused: placeholders: …; length: …`. */
export function qaItemLine(item: QaRun['items'][number]): string {
  const reasons = item.failures.map((failure) => `${failure.gate}: ${failure.reason}`).join('; ');
  return `${item.path} '${item.key}' (${item.locale}) ${item.outcome}${reasons ? `: ${reasons}` : ''}`;
}
