/** A project's parlance.yml that cannot be used: where it is wrong, at its line and column. */
export interface ConfigIssue {
  line: number;
  column: number;
  /** Where in the config the problem is, e.g. `files[0].translation`. */
  at: string;
  message: string;
}

/** A parlance.yml that cannot be used; `line` and `column` (1-based) point at the first problem, `issues` lists them all. */
export class ConfigFileError extends Error {
  override readonly name: string = 'ConfigFileError';

  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    message: string,
    readonly issues: readonly ConfigIssue[] = [],
  ) {
    super(message);
  }
}

/** No parlance.yml where one was looked for; line and column are 0 because there is no text to point into. */
export class ConfigNotFoundError extends ConfigFileError {
  override readonly name = 'ConfigNotFoundError';

  constructor(file: string, message: string) {
    super(file, 0, 0, message);
  }
}
