/** Shared assertions of the format tests. */
import { expect } from 'vitest';
import { FileUnparsableError } from '../../src/core/formats/file-unparsable-error.js';

/** Runs `run`, expecting it to throw a FileUnparsableError, and returns it for assertions on its line and column. */
export function parseError(run: () => unknown): FileUnparsableError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FileUnparsableError);
    return error as FileUnparsableError;
  }
  throw new Error('expected a FileUnparsableError');
}
