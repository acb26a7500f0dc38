/** What GitHub refused while the Action opened or updated its pull request, named after the permission or setting that would let it. */
export class PullRequestError extends Error {
  override readonly name = 'PullRequestError';
  constructor(
    message: string,
    /** The CLI's exit-code meaning: 2 for a token or permission GitHub refused (401/403), 3 for GitHub's own failure, else 1. */
    readonly exitCode: number,
  ) {
    super(message);
  }
}
