/** Pushing a repository's source files: those parlance.yml matches, skipping what the service already holds byte for byte. */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Batch, BatchRow } from '../client/types.js';
import { matchSources, type SourceFileMatch } from '../project-config/match-sources.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { count } from './output.js';
import { failureLines, refusedRowLine, settleBatch } from './settle-batch.js';
import { about } from './subject-error.js';

export interface PushOptions {
  force: boolean;
  dryRun: boolean;
  wait: boolean;
}

export type PushReason = 'new' | 'changed' | 'unchanged' | 'forced';

export interface PushedFile {
  path: string;
  action: 'pushed' | 'would_push' | 'skipped';
  reason: PushReason;
  /** The batch the push queued; after --wait, its final state. */
  batch?: Batch;
  /** After --wait: the rows the quality gates refused (held for review). */
  refused?: BatchRow[];
}

export interface PushReport {
  dry_run: boolean;
  files: PushedFile[];
}

/** Pushes what changed; with `wait`, follows each batch to its end and collects its refused rows. */
export async function pushSources(context: CommandContext, options: PushOptions): Promise<PushReport> {
  const { out } = context;
  const matches = sourceFiles(context);
  const { config } = context.config();
  const client = context.client();
  const held = new Map((await about('listing the files the service holds', () => client.files())).map((file) => [file.path, file.sha256]));

  const files: PushedFile[] = [];
  for (const match of matches) {
    const content = readSource(match);
    const reason = pushReason(held.get(match.path), sha256(content), options.force);
    if (reason === 'unchanged') {
      files.push({ path: match.path, action: 'skipped', reason });
      out.line(`unchanged  ${match.path}`);
      continue;
    }
    if (options.dryRun) {
      files.push({ path: match.path, action: 'would_push', reason });
      out.line(`would push ${match.path} (${reason})`);
      continue;
    }
    const batch = await about(match.path, () =>
      client.pushFile({
        path: match.path,
        content,
        ...(match.rule.format ? { format: match.rule.format } : {}),
        ...(config.locales ? { locales: config.locales } : {}),
        ...(match.rule.careful ? { careful: match.rule.careful } : {}),
        ...(match.rule.plurals ? { plurals: match.rule.plurals } : {}),
        // One key per file and run: the client's own retries of this push are then never queued twice.
        idempotencyKey: randomUUID(),
      }),
    );
    files.push({ path: match.path, action: 'pushed', reason, batch });
    out.line(`pushed     ${match.path} → batch ${batch.id} (${batch.status}, ${count(batch.rows.total, 'row')}, ${count(batch.words.reserved, 'word')})`);
  }

  if (options.wait) {
    for (const file of files) {
      if (file.action !== 'pushed' || !file.batch) continue;
      const settled = await settleBatch(context, file.batch.id, file.path);
      file.batch = settled.batch;
      file.refused = settled.refused;
    }
    await reportSettled(context, files);
  }
  if (files.every((file) => file.action === 'skipped')) out.line('Nothing to push: every source file is unchanged.');
  return { dry_run: options.dryRun, files };
}

/** The matched source files; a rule that matches nothing is worth a warning, no file at all is an error. */
function sourceFiles(context: CommandContext): SourceFileMatch[] {
  const { config, root, path } = context.config();
  const matches = matchSources(config, root);
  config.files.forEach((rule, index) => {
    if (!matches.some((match) => match.rule === rule)) context.out.problem(`${path}: files[${index}].source '${rule.source}' matches no file under ${root}`);
  });
  if (matches.length === 0) throw new CommandError(`No source file matches the files[].source globs of ${path}.`);
  return matches;
}

function readSource(match: SourceFileMatch): Uint8Array {
  try {
    return readFileSync(match.absolute);
  } catch (error) {
    throw new CommandError(`${match.path}: cannot read the source file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

export function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Why a file is pushed, or `unchanged` when it is not. */
export function pushReason(heldSha: string | undefined, localSha: string, force: boolean): PushReason {
  if (heldSha === undefined) return 'new';
  if (heldSha.toLowerCase() !== localSha) return 'changed';
  return force ? 'forced' : 'unchanged';
}

async function reportSettled(context: CommandContext, files: PushedFile[]): Promise<void> {
  for (const file of files) {
    if (!file.batch) continue;
    const outcomes = Object.entries(file.batch.rows.outcomes).map(([outcome, n]) => `${n} ${outcome}`);
    context.out.line(`${file.batch.status.padEnd(10)} ${file.path} (batch ${file.batch.id}${outcomes.length > 0 ? `: ${outcomes.join(', ')}` : ''})`);
    // Why the rows failed, grouped by reason, each line ending with the `parlance retry` that queues them again.
    for (const line of await failureLines(context, file.batch)) context.out.problem(line);
    for (const row of file.refused ?? []) context.out.problem(refusedRowLine(row));
  }
}

/** 3 when a batch failed, 4 when a row was refused, else 0. */
export function pushExitCode(report: PushReport): 0 | 3 | 4 {
  if (report.files.some((file) => file.batch?.status === 'failed')) return 3;
  if (report.files.some((file) => (file.refused?.length ?? 0) > 0)) return 4;
  return 0;
}
