/** Reads an uploaded export's zip within the import's archive limits, and hands out the budget its nested archives are read with. */
import { ArchiveBudget, ArchiveLimitError, type ArchiveLimits } from '../../src/core/archive-limits.js';
import { readZip, type ZipEntries } from '../../src/core/read-zip.js';
import { ImportSourceError } from './import-model.js';

export interface ExportZip {
  entries: ZipEntries;
  /** What is left of the limits: a file in the zip that is an archive itself (an .xlsx) is parsed with it. */
  budget: ArchiveBudget;
}

/**
 * The zip's entries, read within `limits` (the import's, ReaderContext.archiveLimits, or a budget made of them); an
 * ImportSourceError naming the file, the entry and the limit past them, or `damaged(reason)` for a zip that cannot be read.
 */
export function readExportZip(bytes: Uint8Array, fileName: string, limits: Readonly<ArchiveLimits> | ArchiveBudget, damaged: (reason: string) => string): ExportZip {
  const budget = ArchiveBudget.of(limits);
  try {
    return { entries: readZip(bytes, { budget }), budget };
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw archiveTooLarge(fileName, error);
    throw new ImportSourceError(damaged((error as Error).message));
  }
}

/** An archive past the import's limits, as the import's error says it: where (the upload, or a file in it), the entry, the limit. */
export function archiveTooLarge(where: string, error: ArchiveLimitError): ImportSourceError {
  return new ImportSourceError(`${where}: ${error.message}.`);
}
