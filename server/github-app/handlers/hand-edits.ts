/**
 * Which values of a managed translation file a person changed in one push: the file after the push against the file
 * before it (the push's `before`), and against the App's own latest commit that the push brought in (a merged or
 * rebased translation pull request), so neither the values that merely lag on the base branch nor the App's own
 * values arriving by a merge are taken for hand edits.
 */
import type { Codec, Entry, ParseOptions } from '../../../src/core/formats/index.js';
import { BATCH_TRAILER } from '../translation-pr.js';

/** The value an entry holds in its file: its plural forms, or its text. */
export function valueOf(entry: Entry): { text: string } | { plurals: Record<string, string> } {
  return entry.plurals ? { plurals: entry.plurals as Record<string, string> } : { text: entry.source };
}

function sameValue(a: Entry, b: Entry | undefined): boolean {
  return b !== undefined && JSON.stringify(valueOf(a)) === JSON.stringify(valueOf(b));
}

/**
 * Entries of `edited` whose value differs from the value each baseline holds for the key: the hand edits. A baseline
 * is a version of the same file (null: the file did not exist there, so every value differs from it); a value equal
 * to any baseline's is not an edit.
 */
export function handEdits(codec: Codec, edited: Uint8Array, baselines: Uint8Array | null | readonly (Uint8Array | null)[], options: ParseOptions = {}): Entry[] {
  const list = baselines === null || baselines instanceof Uint8Array ? [baselines] : baselines;
  const known = list.map((bytes) => (bytes === null ? new Map<string, Entry>() : new Map(codec.parse(bytes, options).map((e) => [e.key, e]))));
  return codec.parse(edited, options).filter((e) => e.translatable !== false && known.every((k) => !sameValue(e, k.get(e.key))));
}

/** A commit as the push payload lists it. */
export interface PushedCommit {
  id?: string;
  message: string;
}

const TRAILER_LINE = new RegExp(`^\\s*(?:[*-]\\s+)?${BATCH_TRAILER}: \\S+\\s*$`, 'm');

/**
 * The newest commit of the push that carries the batch trailer: the App's commit a merge of the translation pull
 * request brings in (or, for a squash or rebase merge, the commit that carries the App's message). Its files hold the
 * App's latest values, which must not come back as human translations. Undefined when no commit of the push has it.
 */
export function newestParlanceCommit(commits: readonly PushedCommit[]): string | undefined {
  for (let i = commits.length - 1; i >= 0; i -= 1) {
    const commit = commits[i]!;
    if (commit.id && TRAILER_LINE.test(commit.message)) return commit.id;
  }
  return undefined;
}
