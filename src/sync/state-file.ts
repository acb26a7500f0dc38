/**
 * `.parlance/state.json`, next to parlance.yml: what the CLI last wrote into each target file (the file's SHA-256 and
 * one hash per key's value) and the ETag of the last pull. A value that differs from what the CLI wrote is a hand
 * edit, which `pull` never overwrites and `sync` uploads first. The file holds hashes only, no text: it is safe to
 * commit (then every clone knows which values are hand edits) or to ignore (then a clone's first pull treats every
 * value in its target files as one the service may not have, and uploads or keeps it).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Value } from '../core/formats/codec.js';
import { writeAtomic } from './safe-write.js';

export const STATE_PATH = '.parlance/state.json';

/** What the CLI last wrote into one target file. */
export interface TargetState {
  /** The SHA-256 of the file's bytes as written. */
  sha256: string;
  /** Per key, the hash of the value written (valueHash); a key the file keeps by hand has none. */
  values: Record<string, string>;
}

export interface PullState {
  /** The archive's ETag at the last pull that wrote (or found up to date) every file. */
  etag: string;
  /** What that pull asked for: an ETag only stands for the same request. */
  locales: string[];
  missing: 'omit' | 'source';
}

export interface StateFile {
  version: 1;
  pull?: PullState;
  /** By target path, relative to parlance.yml's folder. */
  targets: Record<string, TargetState>;
}

/** The state next to the config (an empty one when there is none, or it cannot be read: then every value counts as unknown, which is the safe side). */
export function loadState(root: string, onProblem: (message: string) => void): StateFile {
  const path = join(root, ...STATE_PATH.split('/'));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onProblem(`${STATE_PATH}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); every target value counts as a hand edit`);
    return { version: 1, targets: {} };
  }
  try {
    const parsed = JSON.parse(text) as Partial<StateFile>;
    if (parsed.version !== 1 || typeof parsed.targets !== 'object' || parsed.targets === null) throw new Error('not a version 1 state file');
    for (const [target, state] of Object.entries(parsed.targets)) {
      if (typeof state?.sha256 !== 'string' || typeof state.values !== 'object' || state.values === null) throw new Error(`targets['${target}'] has no sha256 and values`);
    }
    return { version: 1, targets: parsed.targets, ...(isPullState(parsed.pull) ? { pull: parsed.pull } : {}) };
  } catch (error) {
    onProblem(`${STATE_PATH}: ignored (${(error as Error).message}); every target value counts as a hand edit`);
    return { version: 1, targets: {} };
  }
}

function isPullState(value: unknown): value is PullState {
  const pull = value as PullState | undefined;
  return typeof pull?.etag === 'string' && Array.isArray(pull.locales) && (pull.missing === 'omit' || pull.missing === 'source');
}

/** Writes the state atomically; keys sorted, so a committed state file changes only where a file did. */
export function saveState(root: string, state: StateFile): void {
  const targets = Object.fromEntries(
    Object.keys(state.targets)
      .sort()
      .map((target) => {
        const { sha256, values } = state.targets[target]!;
        return [target, { sha256, values: Object.fromEntries(Object.keys(values).sort().map((key) => [key, values[key]!])) }];
      }),
  );
  const text = `${JSON.stringify({ version: 1, ...(state.pull ? { pull: state.pull } : {}), targets }, null, 2)}\n`;
  writeAtomic(join(root, ...STATE_PATH.split('/')), STATE_PATH, new TextEncoder().encode(text));
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A short hash of a value (plural forms in category order), enough to tell a hand edit from what was written. */
export function valueHash(value: Value): string {
  return createHash('sha256').update(canonicalValue(value)).digest('base64url').slice(0, 22);
}

/** Text, or plural forms with their categories sorted: two values are the same when this is. */
export function canonicalValue(value: Value): string {
  if (typeof value === 'string') return `s:${value}`;
  return `p:${JSON.stringify(Object.entries(value.plurals).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`;
}

export function sameValue(a: Value | undefined, b: Value | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalValue(a) === canonicalValue(b);
}
