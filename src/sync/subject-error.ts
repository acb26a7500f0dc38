/** An error that names what was being worked on when it happened, and the wrapper that makes one. */

/** An error while working on one thing (a file, a locale, a batch): the message starts with that thing. */
export class SubjectError extends Error {
  constructor(
    readonly subject: string,
    override readonly cause: unknown,
  ) {
    super(`${subject}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Runs `work` and names `subject` in any error it throws. */
export async function about<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new SubjectError(subject, error);
  }
}
