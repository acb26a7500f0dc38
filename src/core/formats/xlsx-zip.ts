// The xlsx codec's ZIP container: reads a workbook's XML parts, rebuilds an archive with some entries replaced, writes a new one.
import * as zlib from 'node:zlib';
import { ArchiveLimitError, type ArchiveBudget, type ArchiveLimits } from '../archive-limits.js';
import { readZip } from '../read-zip.js';
import { FileUnparsableError } from './file-unparsable-error.js';

/** An archive's entries by name. */
export type Unzipped = Record<string, Uint8Array>;

export const failWorkbook = (message: string): never => {
  throw new FileUnparsableError(`${message} at line 1, column 1`, 1, 1);
};

// Only the XML parts are read; images and other media stay compressed.
const XML_PART = /\.(?:xml|rels)$/i;

/**
 * The archive's XML parts by name, inflated within the budget (a fresh one for the limits, the defaults when none is
 * given); media entries are counted toward the entry limit but not inflated.
 */
export function unzip(input: Uint8Array, budget?: Readonly<ArchiveLimits> | ArchiveBudget): Unzipped {
  if (input[0] !== 0x50 || input[1] !== 0x4b) failWorkbook('Expected an .xlsx workbook (a ZIP archive starting with "PK")');
  try {
    return readZip(input, { budget, filter: (name) => XML_PART.test(name) });
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw error;
    return failWorkbook(`Expected an .xlsx workbook, but the ZIP archive is damaged (${(error as Error).message})`);
  }
}

interface CentralRecord {
  name: string;
  localOffset: number;
  /** The raw central directory record. */
  raw: Uint8Array;
}

interface CentralDirectory {
  records: CentralRecord[];
  offset: number;
  /** The raw end-of-central-directory record, comment included. */
  end: Uint8Array;
}

function readCentralDirectory(bytes: Uint8Array): CentralDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) failWorkbook('Expected an .xlsx workbook, but the ZIP archive has no central directory');
  const count = view.getUint16(eocd + 10, true);
  const offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff) failWorkbook('ZIP64 workbooks (over 4 GB or 65535 parts) are not supported');
  const records: CentralRecord[] = [];
  let at = offset;
  const names = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) failWorkbook('Expected an .xlsx workbook, but its ZIP central directory is damaged');
    const length = 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    records.push({
      name: names.decode(bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))),
      localOffset: view.getUint32(at + 42, true),
      raw: bytes.subarray(at, at + length),
    });
    at += length;
  }
  return { records, offset, end: bytes.subarray(eocd) };
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** zlib's own CRC-32 where Node has it (20.15 and later), else the table below. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

function crc32(data: Uint8Array): number {
  if (nativeCrc32) return nativeCrc32(data);
  let c = -1;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * zlib's fastest level for parts a render rewrites: a 17 MB sheet deflates in about 15 ms rather than 90 at level 6,
 * for 5% more bytes (sheet XML repeats itself enough for the fast matcher). Fresh workbooks keep level 6.
 */
const REWRITE_LEVEL = 1;
const FRESH_LEVEL = 6;

/** A local header (from a template's, or fresh) for a deflated entry; returns the header and the data. */
function localEntry(name: Uint8Array, data: Uint8Array, level: number, template?: Uint8Array): { header: Uint8Array; body: Uint8Array; crc: number } {
  // Node's zlib, native code: three to four times faster than deflating in JavaScript on a large sheet.
  const body: Uint8Array = zlib.deflateRawSync(data, { level });
  const header = new Uint8Array(30 + name.length);
  const view = new DataView(header.buffer);
  if (template) header.set(template.subarray(0, 30));
  else {
    view.setUint32(0, 0x04034b50, true);
    view.setUint16(12, 0x21, true); // 1980-01-01, so fresh files are reproducible
  }
  const crc = crc32(data);
  view.setUint16(4, Math.max(20, view.getUint16(4, true)), true);
  // Sizes are known up front, so no data descriptor follows (bit 3 off); UTF-8 names keep bit 11.
  view.setUint16(6, view.getUint16(6, true) & ~0x0008, true);
  view.setUint16(8, 8, true);
  view.setUint32(14, crc, true);
  view.setUint32(18, body.length, true);
  view.setUint32(22, data.length, true);
  view.setUint16(26, name.length, true);
  view.setUint16(28, 0, true);
  header.set(name, 30);
  return { header, body, crc };
}

/**
 * A plain Uint8Array of its own: a subclass such as Node's Buffer may be a view into a shared pool, and its `slice`
 * returns a view, which would put the DataViews below at the wrong offsets.
 */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes);
}

/** Rebuilds the archive with some entries replaced; every other entry's bytes (headers, data, descriptors) are copied. */
export function rezip(input: Uint8Array, replacements: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const bytes = ownBytes(input);
  const dir = readCentralDirectory(bytes);
  const byOffset = [...dir.records].sort((a, b) => a.localOffset - b.localOffset);
  const parts: Uint8Array[] = [bytes.subarray(0, byOffset[0]?.localOffset ?? dir.offset)];
  let size = parts[0]!.length;
  const moved = new Map<CentralRecord, { offset: number; crc?: number; compressed?: number; length?: number }>();
  byOffset.forEach((record, i) => {
    const end = byOffset[i + 1]?.localOffset ?? dir.offset;
    const data = replacements.get(record.name);
    if (!data) {
      moved.set(record, { offset: size });
      parts.push(bytes.subarray(record.localOffset, end));
      size += end - record.localOffset;
      return;
    }
    const nameLength = new DataView(bytes.buffer, bytes.byteOffset + record.localOffset).getUint16(26, true);
    const name = bytes.subarray(record.localOffset + 30, record.localOffset + 30 + nameLength);
    const { header, body, crc } = localEntry(name, data, REWRITE_LEVEL, bytes.subarray(record.localOffset));
    moved.set(record, { offset: size, crc, compressed: body.length, length: data.length });
    parts.push(header, body);
    size += header.length + body.length;
  });
  const directoryStart = size;
  for (const record of dir.records) {
    const raw = record.raw.slice();
    const view = new DataView(raw.buffer);
    const m = moved.get(record)!;
    view.setUint32(42, m.offset, true);
    if (m.crc !== undefined) {
      view.setUint16(8, view.getUint16(8, true) & ~0x0008, true);
      view.setUint16(10, 8, true);
      view.setUint32(16, m.crc, true);
      view.setUint32(20, m.compressed!, true);
      view.setUint32(24, m.length!, true);
    }
    parts.push(raw);
    size += raw.length;
  }
  const end = dir.end.slice();
  const endView = new DataView(end.buffer);
  endView.setUint32(12, size - directoryStart, true);
  endView.setUint32(16, directoryStart, true);
  parts.push(end);
  return concat(parts);
}

/** A new archive of the given files, deflated, in order. */
export function zip(files: readonly [string, string][]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let size = 0;
  for (const [path, text] of files) {
    const name = new TextEncoder().encode(path);
    const data = new TextEncoder().encode(text);
    const { header, body, crc } = localEntry(name, data, FRESH_LEVEL);
    const record = new Uint8Array(46 + name.length);
    const view = new DataView(record.buffer);
    view.setUint32(0, 0x02014b50, true);
    view.setUint16(4, 20, true);
    view.setUint16(6, 20, true);
    view.setUint16(10, 8, true);
    view.setUint16(14, 0x21, true);
    view.setUint32(16, crc, true);
    view.setUint32(20, body.length, true);
    view.setUint32(24, data.length, true);
    view.setUint16(28, name.length, true);
    view.setUint32(42, size, true);
    record.set(name, 46);
    central.push(record);
    parts.push(header, body);
    size += header.length + body.length;
  }
  const directory = concat(central);
  const end = new Uint8Array(22);
  const view = new DataView(end.buffer);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, files.length, true);
  view.setUint16(10, files.length, true);
  view.setUint32(12, directory.length, true);
  view.setUint32(16, size, true);
  return concat([...parts, directory, end]);
}
