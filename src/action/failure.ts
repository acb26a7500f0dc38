/**
 * The Action's edge for errors: what stopped a run becomes one message carrying the exit code `parlance` would
 * have used. The CLI has its own edge (src/cli/main.ts); both take the status mapping from the client's exitCodeFor.
 * Importing the CLI's would bundle every CLI command, and its hints name CLI flags.
 */
import { ApiError, EXIT, exitCodeFor } from '../client/client.js';
import { ConfigFileError } from '../project-config/config-file-error.js';
import { CommandError } from '../sync/command-error.js';
import { SubjectError } from '../sync/subject-error.js';
import { InputError } from './inputs.js';
import { PullRequestError } from './pull-request-error.js';

export interface Failure {
  message: string;
  exitCode: number;
  /** The parlance.yml problem, for an annotation at its line and column. */
  config?: ConfigFileError;
}

/** What to do next, for the answers a workflow author can fix. */
const API_HINTS: Readonly<Record<string, string>> = {
  token_missing: '(check the token input and the secret it reads)',
  token_malformed: '(check the token input and the secret it reads)',
  token_invalid: '(check the token input, and service-url)',
  token_expired: '(mint a new token and update the secret)',
  token_revoked: '(mint a new token and update the secret)',
  ability_missing: '(the Action needs a token with the push, pull and read abilities)',
  path_not_found: "(push the file first: command 'push' or 'sync')",
  nothing_pushed: "(push a source file first: command 'push' or 'sync')",
};

/** Maps what the run threw to its message and exit code. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof SubjectError) {
    const inner = describeFailure(error.cause);
    return { ...inner, message: `${error.subject}: ${inner.message}` };
  }
  if (error instanceof InputError) return { message: error.message, exitCode: EXIT.usage };
  if (error instanceof PullRequestError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof CommandError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof ConfigFileError) return { message: error.message, exitCode: EXIT.usage, config: error };
  if (error instanceof ApiError) {
    const hint = API_HINTS[error.code] ?? (error.status === 401 ? API_HINTS.token_invalid : undefined);
    return { message: `${error.request}: ${error.status} ${error.code}: ${error.detail}${hint ? ` ${hint}` : ''}`, exitCode: exitCodeFor(error) };
  }
  // NetworkError and a batch wait that timed out are 3; anything else is 1.
  return { message: error instanceof Error ? error.message : String(error), exitCode: exitCodeFor(error) };
}

/** What the exit codes mean (see `parlance --help`), for the message that carries one. */
export const EXIT_MEANINGS: Readonly<Record<number, string>> = {
  [EXIT.usage]: 'usage, configuration or validation',
  [EXIT.auth]: 'authentication or a missing ability',
  [EXIT.service]: 'service or network',
  [EXIT.refused]: 'refused by the quality gates',
  [EXIT.allowance]: 'word allowance exhausted',
};

/** `(exit code 2: authentication or a missing ability)`. */
export function exitNote(code: number): string {
  return `(exit code ${code}: ${EXIT_MEANINGS[code] ?? 'unexpected'})`;
}
