/**
 * What every importer reads another platform's project into: keys, translations with their review state, locales,
 * translation memory and glossary, in one shape whatever the platform, and the contract of a platform's reader.
 */
import type { ArchiveLimits } from '../../src/core/archive-limits.js';
import type { Entry, FormatId, PluralForms } from '../../src/core/formats/codec.js';
import { printable, repoPathProblem, type RepoPathProblem } from '../../src/core/repo-path.js';

export const PLATFORMS = ['crowdin', 'lokalise', 'phrase', 'transifex', 'tolgee', 'poeditor'] as const;
export type PlatformId = (typeof PLATFORMS)[number];

/** One source string as the platform holds it. */
export interface ImportedKey {
  /** The platform's own id of the string, named in warnings ("Crowdin string 1234"). */
  ref: string;
  /** The source file's path in the repository where the platform knows it; '' when it does not. */
  path: string;
  /** The source file's format where the platform knows it (one of the 20 format ids). */
  format?: FormatId;
  /** The key as a push of that file would name it (nested JSON keys joined with '.', Android resource names, …). */
  key: string;
  /** The source text; for a plural key its `other` form. */
  source: string;
  /** Source plural forms by CLDR category, for plural keys. */
  plurals?: PluralForms;
  notes?: string;
  context?: string;
  maxLength?: number;
  tags?: string[];
}

/** One translation of one key, in the platform's locale tag (mapped to BCP-47 by the writer). */
export interface ImportedTranslation {
  /** The platform's id of the translation (or of its string and language), named in warnings. */
  ref: string;
  /** The key it translates: `path` and `key` as in ImportedKey. */
  path: string;
  key: string;
  locale: string;
  text: string;
  /** Plural forms by CLDR category, for plural keys. */
  plurals?: PluralForms;
  /** Reviewed, approved, verified or proofread on the platform: imported as a human translation. */
  reviewed: boolean;
}

export interface ImportedMemoryUnit {
  sourceLocale: string;
  locale: string;
  source: string;
  text: string;
}

export interface ImportedTerm {
  term: string;
  /** Translations by the platform's locale tag. */
  translations: Record<string, string>;
  forbidden: boolean;
  caseSensitive?: boolean;
  notes?: string;
}

/**
 * What a reader hands the writer, any number of times (the writer is idempotent). A reader emits the glossary before
 * any translation (in an earlier emit, or the same one: the writer writes a glossary chunk first), since each
 * translation is gated against the glossary as it stands when the translation is written; the rest in any order.
 */
export type ImportChunk =
  | { kind: 'locales'; source: string; targets: string[] }
  | { kind: 'keys'; keys: ImportedKey[] }
  | { kind: 'translations'; rows: ImportedTranslation[] }
  | { kind: 'memory'; units: ImportedMemoryUnit[] }
  | { kind: 'glossary'; terms: ImportedTerm[] }
  | { kind: 'warning'; message: string; ref?: string }
  | PathRefusal;

/** A file left out because its path breaks the repository path rule; the report lists it, once per path. */
export interface PathRefusal {
  kind: 'refused_path';
  /** The path or archive entry name as the platform gave it, control characters escaped. */
  path: string;
  problem: RepoPathProblem;
  message: string;
}

/**
 * Why a file of another platform is not imported, as a chunk for the report, or undefined when `path` is a repository
 * path. `where` names what the path came from: 'an entry of crowdin-export.zip', 'the path of Crowdin file 12'.
 */
export function pathRefusal(path: string, where: string): PathRefusal | undefined {
  const problem = repoPathProblem(path);
  if (!problem) return undefined;
  return { kind: 'refused_path', path: printable(path), problem: problem.problem, message: `Skipped '${printable(path)}' (${where}): ${problem.reason}.` };
}

/**
 * A file path a reader takes from another platform (an archive entry's name, an API's file name), checked against the
 * repository path rule as it is read: the path, or undefined with the refusal added to `refused`, which the reader
 * emits so the report names the skipped file. A reader checks an archive entry's own name and any path it derives from
 * one (`de/../../x.json` with its locale folder stripped is `../../x.json`); the writer refuses what still slips by.
 */
export function checkedImportPath(path: string, refused: ImportChunk[], where: string): string | undefined {
  const refusal = pathRefusal(path, where);
  if (refusal) refused.push(refusal);
  return refusal ? undefined : path;
}

/** The platform's HTTP API, as the reader sees it: JSON in, JSON out, with the platform's rate limits honoured. */
export interface PlatformHttp {
  /**
   * Sends a request and returns the response once it is not a 429 (waited out per `Retry-After`, or the platform's
   * own reset header, up to the import's limit) nor a network error or 5xx (retried with backoff). Any other status
   * is returned as it is: the reader turns the platform's error body into a message.
   */
  request(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array | FormData }): Promise<Response>;
}

export interface ReaderContext {
  signal: AbortSignal;
  http: PlatformHttp;
  /** What the last `emit` saved (the reader's own shape), or undefined on a first run. */
  checkpoint: unknown;
  /**
   * Writes `chunks`, then saves `checkpoint` with them in one transaction: after a crash, the import starts again from
   * the last checkpoint and the reader continues from there (what it emits again is written again, without
   * duplicates).
   */
  emit(chunks: readonly ImportChunk[], checkpoint: unknown): Promise<void>;
  /** Tells the person what is happening ("reading strings of file 3 of 7"). */
  progress(message: string, done?: number, total?: number): void;
  /** MAX_INFLATED_BYTES and MAX_ARCHIVE_ENTRIES: what an uploaded export may hold, archives inside it included. */
  archiveLimits: Readonly<ArchiveLimits>;
}

/** Thrown by a reader for a problem the person must fix (wrong token, unknown project); not retried. */
export class ImportSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportSourceError';
  }
}

export interface ApiSource {
  /** The platform's API token (or key), used for this import and not kept afterwards. */
  token: string;
  /** The platform's project id (Crowdin project id, Lokalise project id, Transifex `o:org:p:project`, …). */
  project: string;
  /** Another API address: a self-hosted Tolgee, an enterprise Crowdin domain, or a test's mock. */
  baseUrl?: string;
}

export interface PlatformReader {
  platform: PlatformId;
  /** Reads the project through the platform's REST API. */
  readApi(source: ApiSource, context: ReaderContext): Promise<void>;
  /** Reads the platform's own export archive (zip, or a single file such as TMX or XLIFF). */
  readArchive(bytes: Uint8Array, fileName: string, context: ReaderContext): Promise<void>;
}

/** A parsed entry of a source file in an export as an ImportedKey: what a push of that file would store. */
export function keyFromEntry(entry: Entry, path: string, format: FormatId, ref = `${path}: ${entry.key}`): ImportedKey {
  return {
    ref,
    path,
    format,
    key: entry.key,
    source: entry.source,
    ...(entry.plurals ? { plurals: entry.plurals } : {}),
    ...(entry.notes ? { notes: entry.notes } : {}),
    ...(entry.context ? { context: entry.context } : {}),
    ...(entry.maxLength !== undefined ? { maxLength: entry.maxLength } : {}),
  };
}
