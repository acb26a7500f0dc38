/** Reads a ZIP archive from user input within an ArchiveBudget: inflating stops at the budget, whatever sizes the archive declares. */
import { constants as bufferConstants } from 'node:buffer';
import * as zlib from 'node:zlib';
import { Inflate, inflateSync } from 'fflate';
import { ArchiveBudget, ArchiveLimitError, type ArchiveLimits } from './archive-limits.js';

/** An archive's entries by name (a directory's name ends in '/'). */
export type ZipEntries = Record<string, Uint8Array>;

export interface ReadZipOptions {
  /** The limits, or the budget of the archive this one was found in (spent together). Default: DEFAULT_ARCHIVE_LIMITS. */
  budget?: Readonly<ArchiveLimits> | ArchiveBudget;
  /** Which entries to inflate; the others are skipped, and still count toward the entry limit. Default: all. */
  filter?: (name: string) => boolean;
}

/*
 * The archive is read as fflate's unzipSync reads it, which is what every reader used before: the same end record
 * (searched back over at most a maximal comment), the same ZIP64 records, the same entries in central-directory order
 * (a later one wins a repeated name), names in UTF-8 when flagged and Latin-1 otherwise, and the same output: a
 * deflated entry longer than its declared size is cut to that size, as fflate inflates into a buffer of that size.
 * Only the inflating differs: Node's zlib (native, several times faster) with `maxOutputLength`, so an entry stops at
 * what the budget has left (ERR_BUFFER_TOO_LARGE, one chunk past it at most) and a declared size is only a hint for
 * the output buffer. A stream zlib refuses goes to fflate's inflater, pushed in small pieces and counted, so that what
 * fflate accepts, and how it words what it refuses, stay as they were.
 */

/** Out-of-range bytes read as 0, as in fflate: a damaged directory is read the way fflate reads it. */
const u8 = (d: Uint8Array, at: number): number => d[at]! | 0;
const u16 = (d: Uint8Array, at: number): number => u8(d, at) | (u8(d, at + 1) << 8);
const u32 = (d: Uint8Array, at: number): number => (u16(d, at) | (u16(d, at + 2) << 16)) >>> 0;
const u64 = (d: Uint8Array, at: number): number => u32(d, at) + u32(d, at + 4) * 0x1_0000_0000;

const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
/** fflate's message for an archive it cannot find its way into. */
const INVALID = 'invalid zip data';

const UTF8 = new TextDecoder();

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 16384) out += String.fromCharCode(...bytes.subarray(i, i + 16384));
  return out;
}

interface DirectoryRecord {
  name: string;
  method: number;
  compressed: number;
  size: number;
  /** Where the entry's data starts, past its local header. */
  start: number;
}

/**
 * The archive's entries, read within the budget (shared with any archive read from inside it). Throws
 * ArchiveLimitError past the budget, and fflate's errors ('invalid zip data', 'unexpected EOF', …) for a damaged one.
 */
export function readZip(bytes: Uint8Array, options: ReadZipOptions = {}): ZipEntries {
  const budget = ArchiveBudget.of(options.budget);
  const files: ZipEntries = Object.create(null) as ZipEntries;
  const length = bytes.length;
  let end = length - 22;
  for (; u32(bytes, end) !== END; end--) {
    if (end <= 0 || length - end > 65558) throw new Error(INVALID);
  }
  let count = u16(bytes, end + 8);
  if (!count) return files;
  let at = u32(bytes, end + 16);
  let zip64 = u32(bytes, end - 20) === ZIP64_LOCATOR;
  if (zip64) {
    const record = u32(bytes, end - 12);
    zip64 = u32(bytes, record) === ZIP64_END;
    if (zip64) {
      count = u32(bytes, record + 32);
      at = u32(bytes, record + 48);
    }
  }
  budget.countEntries(count);
  for (let i = 0; i < count; i++) {
    const record = directoryRecord(bytes, at, zip64);
    at = record.next;
    if (options.filter && !options.filter(record.entry.name)) continue;
    files[record.entry.name] = readEntry(bytes, record.entry, budget);
  }
  return files;
}

function directoryRecord(bytes: Uint8Array, at: number, zip64: boolean): { entry: DirectoryRecord; next: number } {
  const nameLength = u16(bytes, at + 28);
  const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
  const name = u16(bytes, at + 8) & 0x0800 ? UTF8.decode(nameBytes) : latin1(nameBytes);
  const extra = at + 46 + nameLength;
  const extraEnd = extra + u16(bytes, at + 30);
  let compressed = u32(bytes, at + 20);
  let size = u32(bytes, at + 24);
  let local = u32(bytes, at + 42);
  if (zip64 && compressed === 0xffffffff) {
    // The ZIP64 extended information field (id 1). fflate scans on past the archive's end for one (and never stops).
    let field = extra;
    while (u16(bytes, field) !== 1) {
      field += 4 + u16(bytes, field + 2);
      if (field >= bytes.length) throw new Error(INVALID);
    }
    size = u64(bytes, field + 4);
    compressed = u64(bytes, field + 12);
    local = u64(bytes, field + 20);
  }
  const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
  return { entry: { name, method: u16(bytes, at + 10), compressed, size, start }, next: extraEnd + u16(bytes, at + 32) };
}

/** zlib's smallest output chunk, and the one for an entry whose declared size cannot be used as a hint. */
const MIN_CHUNK = 64;
const CHUNK = 64 * 1024;
/** Deflate's greatest ratio (258 bytes from a 2-bit code, and some): a declared size past it is not a size. */
const MAX_RATIO = 1032;

function readEntry(bytes: Uint8Array, entry: DirectoryRecord, budget: ArchiveBudget): Uint8Array {
  const data = bytes.subarray(entry.start, entry.start + entry.compressed);
  let out: Uint8Array;
  if (entry.method === 0) out = data.length <= budget.bytesLeft ? new Uint8Array(data) : refuse(budget, entry);
  else if (entry.method === 8) out = inflateEntry(data, entry, budget);
  else throw new Error(`unknown compression type ${entry.method}`);
  budget.spend(out.length, entry.name);
  return out;
}

function inflateEntry(data: Uint8Array, entry: DirectoryRecord, budget: ArchiveBudget): Uint8Array {
  const left = budget.bytesLeft;
  // fflate gives an empty stream as its output buffer: the declared size in zeros.
  if (data.length === 0) return entry.size <= left ? new Uint8Array(entry.size) : refuse(budget, entry);
  // A believable declared size is tried first with room for exactly that, so the output is one buffer, not chunks to
  // join; an entry that inflates past it is then inflated again up to what the budget has left.
  if (entry.size <= left && entry.size <= MAX_RATIO * data.length) {
    const exact = inflate(data, Math.max(entry.size, 1), Math.max(entry.size + 1, MIN_CHUNK));
    if (exact !== TOO_LARGE) return exact ?? inflateWithFflate(data, entry, budget);
  }
  // Past its declared size, an entry is inflated into at most PROBE bytes; a larger one is counted first, keeping
  // nothing, so a bomb is refused without ever holding what the budget has left (up to MAX_INFLATED_BYTES).
  let out = left === 0 ? TOO_LARGE : inflate(data, Math.min(left, PROBE), CHUNK);
  if (out === TOO_LARGE && left > PROBE) {
    const size = inflatedSize(data, left);
    if (size === undefined) return inflateWithFflate(data, entry, budget);
    out = size > left ? TOO_LARGE : inflate(data, Math.max(size, 1), Math.max(size + 1, MIN_CHUNK));
  }
  if (out === TOO_LARGE) return refuse(budget, entry);
  if (!out) return inflateWithFflate(data, entry, budget);
  return out.length <= entry.size ? out : pastDeclaredSize(data, entry);
}

/** What an entry may inflate to before its size is counted rather than held. */
const PROBE = 8 * 1024 * 1024;

/**
 * The inflated size of a deflate stream, counted in small pieces by fflate's streaming inflater and thrown away; past
 * `limit` counting stops and the answer is `limit + 1`. Undefined when fflate finds the stream damaged.
 */
function inflatedSize(data: Uint8Array, limit: number): number | undefined {
  let total = 0;
  const over = Symbol('over');
  try {
    const counter = new Inflate((chunk) => {
      total += chunk.length;
      if (total > limit) throw over;
    });
    for (let at = 0; at < data.length; at += FFLATE_STEP) counter.push(data.subarray(at, at + FFLATE_STEP), at + FFLATE_STEP >= data.length);
  } catch (error) {
    if (error === over) return limit + 1;
    return undefined;
  }
  return total;
}

/**
 * An entry that inflates past its declared size (and within the budget, so that size is less than what is left), as
 * fflate gives it: inflated into a buffer of that size, which cuts it short or fails on a stored block past its end.
 */
function pastDeclaredSize(data: Uint8Array, entry: DirectoryRecord): Uint8Array {
  return inflateSync(data, { out: new Uint8Array(entry.size) });
}

const TOO_LARGE = Symbol('too large');

/** The inflated bytes; TOO_LARGE past maxOutputLength; undefined when zlib finds the stream damaged. */
function inflate(data: Uint8Array, maxOutputLength: number, chunkSize: number): Uint8Array | typeof TOO_LARGE | undefined {
  try {
    const out = zlib.inflateRawSync(data, { maxOutputLength: Math.min(maxOutputLength, bufferConstants.MAX_LENGTH), chunkSize });
    // A plain Uint8Array (a Buffer's `slice` is a view, and readers expect a copy from it), not holding on to more
    // memory than it uses: a short entry in a large output chunk would keep the whole chunk.
    return ownBytes(out);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return TOO_LARGE;
    return undefined;
  }
}

function refuse(budget: ArchiveBudget, entry: DirectoryRecord): never {
  throw budget.exceeded(entry.name);
}

/** fflate's inflater is pushed this many compressed bytes at a time: its output per push stays under a few MB. */
const FFLATE_STEP = 4096;

/**
 * A stream zlib refused, as fflate inflates it (or refuses it, in its words). fflate's inflater counts it first, in
 * small pieces, so that it stops at what the budget has left; fflate inflates it for real only then, into a buffer of
 * the declared size as unzipSync does (or one byte past what is left, when that is less: filling it means the limit).
 */
function inflateWithFflate(data: Uint8Array, entry: DirectoryRecord, budget: ArchiveBudget): Uint8Array {
  const left = budget.bytesLeft;
  let total = 0;
  try {
    const counter = new Inflate((chunk) => {
      total += chunk.length;
      if (total > left) refuse(budget, entry);
    });
    for (let at = 0; at < data.length; at += FFLATE_STEP) counter.push(data.subarray(at, at + FFLATE_STEP), at + FFLATE_STEP >= data.length);
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw error;
    // fflate refuses the stream: inflateSync below says so in unzipSync's words, never having got further than this.
  }
  const room = Math.min(entry.size, left + 1);
  let out: Uint8Array;
  try {
    out = inflateSync(data, { out: new Uint8Array(room) });
  } catch (error) {
    // A stored block past the end of the buffer: past what is left, when the buffer is smaller than declared.
    if (room < entry.size && error instanceof RangeError) refuse(budget, entry);
    throw error;
  }
  if (out.length > left) refuse(budget, entry);
  return ownBytes(out);
}

/** The bytes in a buffer of their own size, copied when theirs is larger by more than a page. */
function ownBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer.byteLength > bytes.length + 4096) return new Uint8Array(bytes);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}
