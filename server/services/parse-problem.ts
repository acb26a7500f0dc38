/** A codec's refusal of an uploaded file as the API answers it: 413 past the archive limits, 422 naming line and column. */
import { ArchiveLimitError } from '../../src/core/archive-limits.js';
import { FileUnparsableError } from '../../src/core/formats/file-unparsable-error.js';
import { ApiError } from '../errors.js';

/** The ApiError for a parse failure of the file at `path`; any other error as it was. */
export function parseProblem(path: string, error: unknown): unknown {
  if (error instanceof ArchiveLimitError) {
    return new ApiError(413, 'archive_too_large', `${path}: ${error.message}.`, { path, entry: error.entry ?? null, limit: error.limit, setting: error.setting });
  }
  if (error instanceof FileUnparsableError) {
    return new ApiError(422, 'file_unparsable', `${path}:${error.line}:${error.column}: ${error.message}`, { path, line: error.line, column: error.column });
  }
  return error;
}
