/** The error a push, a pull or any command detects itself, carrying the exit code it means. */

/** A failure a command detects itself, with the exit code it means (1 usage or config, 2 auth). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3 | 4 | 5 = 1,
  ) {
    super(message);
  }
}
