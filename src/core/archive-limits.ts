/** How much an archive read from user input may hold: its entry count and what its entries inflate to, nested archives included. */
import { FileUnparsableError } from './formats/file-unparsable-error.js';

export interface ArchiveLimits {
  /** The most bytes an archive's entries may inflate to together, archives read from inside it included. */
  maxInflatedBytes: number;
  /** The most entries an archive may have, archives read from inside it included. */
  maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({ maxInflatedBytes: 100 * 1024 * 1024, maxEntries: 10_000 });

const count = (n: number): string => n.toLocaleString('en-US');

/** An archive that holds more than its limits allow; a file that cannot be read as it is, so a FileUnparsableError. */
export class ArchiveLimitError extends FileUnparsableError {
  constructor(
    message: string,
    /** The entry being inflated when the limit was passed; undefined for the entry count. */
    readonly entry: string | undefined,
    readonly limit: number,
    readonly setting: 'MAX_INFLATED_BYTES' | 'MAX_ARCHIVE_ENTRIES',
  ) {
    super(message, 1, 1);
    this.name = 'ArchiveLimitError';
  }
}

/**
 * What an archive may still inflate and how many entries it may still have. One budget is shared by an archive and
 * every archive read from inside it (an .xlsx in an import's zip), so nesting does not multiply the limits; it is
 * spent for good, so an archive read twice counts twice.
 */
export class ArchiveBudget {
  #bytesLeft: number;
  #entriesSeen = 0;

  constructor(readonly limits: Readonly<ArchiveLimits> = DEFAULT_ARCHIVE_LIMITS) {
    this.#bytesLeft = limits.maxInflatedBytes;
  }

  /** The budget itself, or a fresh one for the limits (the defaults when none are given). */
  static of(limitsOrBudget?: Readonly<ArchiveLimits> | ArchiveBudget): ArchiveBudget {
    return limitsOrBudget instanceof ArchiveBudget ? limitsOrBudget : new ArchiveBudget(limitsOrBudget);
  }

  get bytesLeft(): number {
    return this.#bytesLeft;
  }

  /** Counts an archive's entries, read or not, before any is inflated. */
  countEntries(entries: number): void {
    const before = this.#entriesSeen;
    this.#entriesSeen += entries;
    if (this.#entriesSeen <= this.limits.maxEntries) return;
    const max = count(this.limits.maxEntries);
    const message =
      before === 0
        ? `The archive has ${count(entries)} entries; at most ${max} are read (MAX_ARCHIVE_ENTRIES)`
        : `The archive has ${count(entries)} entries, ${count(this.#entriesSeen)} with those of the archive it was found in; at most ${max} are read (MAX_ARCHIVE_ENTRIES)`;
    throw new ArchiveLimitError(message, undefined, this.limits.maxEntries, 'MAX_ARCHIVE_ENTRIES');
  }

  /** Spends what entries inflated to; the reader checks each against bytesLeft as it inflates. */
  spend(bytes: number, entry: string): void {
    if (bytes > this.#bytesLeft) throw this.exceeded(entry);
    this.#bytesLeft -= bytes;
  }

  /** The error for `entry` inflating past what is left; nothing more can be inflated afterwards. */
  exceeded(entry: string): ArchiveLimitError {
    this.#bytesLeft = 0;
    const max = this.limits.maxInflatedBytes;
    return new ArchiveLimitError(
      `Archive entry '${entry}' inflates past the limit of ${count(max)} bytes (MAX_INFLATED_BYTES); the archive's entries together may inflate to at most that`,
      entry,
      max,
      'MAX_INFLATED_BYTES',
    );
  }
}
