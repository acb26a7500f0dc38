/** The error every codec throws for input it cannot read as its format. */

/** Malformed input: carries the position so the API can name it. */
export class FileUnparsableError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'FileUnparsableError';
  }
}
