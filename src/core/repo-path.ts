/** The one rule for a repository path, applied wherever a path enters Parlance: push, parlance.yml templates, pull's file and zip entry names, the GitHub App's commits. */

/** Longest path accepted, in UTF-8 bytes (Git and the file systems Parlance writes to all hold this much). */
export const MAX_REPO_PATH_BYTES = 1024;

/** What is wrong with a path, as a stable word for machines; the message says it for people. */
export type RepoPathProblem = 'empty' | 'too_long' | 'control_character' | 'backslash' | 'absolute' | 'drive_letter' | 'empty_segment' | 'dot_segment';

/** A path that is not a normalised relative POSIX path inside the repository; the message quotes it and names the problem. */
export class RepoPathError extends Error {
  override readonly name = 'RepoPathError';

  constructor(
    readonly value: string,
    readonly problem: RepoPathProblem,
    reason: string,
  ) {
    super(`Invalid path '${printable(value)}': ${reason}; expected a relative path inside the repository such as 'locales/en.json'.`);
  }
}

// C0 controls, DEL and C1 controls: none belongs in a file name, and NUL or a newline breaks whatever reads the path next.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const DRIVE = /^[A-Za-z]:/;
const UTF8 = new TextEncoder();

/** Returns `value` when it is a normalised relative POSIX path inside the repository, else throws RepoPathError naming the problem. */
export function repoPath(value: string): string {
  const problem = repoPathProblem(value);
  if (problem) throw new RepoPathError(value, problem.problem, problem.reason);
  return value;
}

/** Why `value` is not a repository path, or undefined when it is one; for callers that report problems instead of throwing (config issues). */
export function repoPathProblem(value: string): { problem: RepoPathProblem; reason: string } | undefined {
  if (value === '') return { problem: 'empty', reason: 'the path is empty' };
  const bytes = UTF8.encode(value).byteLength;
  if (bytes > MAX_REPO_PATH_BYTES) return { problem: 'too_long', reason: `it is ${bytes} bytes long (UTF-8); at most ${MAX_REPO_PATH_BYTES} are allowed` };
  const control = CONTROL.exec(value);
  if (control) return { problem: 'control_character', reason: `it contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` };
  if (value.includes('\\')) return { problem: 'backslash', reason: "backslashes are not allowed; separate folders with '/'" };
  if (value.startsWith('/')) return { problem: 'absolute', reason: "absolute paths are not allowed; drop the leading '/'" };
  if (DRIVE.test(value)) return { problem: 'drive_letter', reason: 'drive letters are not allowed' };
  const segments = value.split('/');
  if (segments.includes('')) return { problem: 'empty_segment', reason: "empty segments are not allowed (a doubled '/' or a trailing '/')" };
  const dots = segments.find((segment) => segment === '.' || segment === '..');
  if (dots !== undefined) return { problem: 'dot_segment', reason: `'${dots}' segments are not allowed` };
  return undefined;
}

/** The value with control characters escaped, so an error message or a report cannot carry a NUL or a forged line into a log or a terminal. */
export function printable(value: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = value.replace(/[\u0000-\u001f\u007f-\u009f]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}
