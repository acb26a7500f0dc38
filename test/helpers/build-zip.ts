/**
 * Builds ZIP archives byte by byte for the archive-limit tests: entries of any content, stored or deflated, with any
 * declared size (a header that lies), and zip bombs (hundreds of MB of zeros in a few hundred KB, built without ever
 * holding the zeros).
 */
import * as zlib from 'node:zlib';

export interface ZipEntrySpec {
  name: string;
  /** The entry's content, deflated (or stored) here. */
  content?: Uint8Array | string;
  /** Or a raw deflate stream already made, such as deflatedZeros(); `size` is what it inflates to. */
  deflated?: { data: Uint8Array; size: number };
  store?: boolean;
  /** The uncompressed size the headers declare, when it should not be the real one. */
  declaredSize?: number;
}

const MIB = 1024 * 1024;
/** One MiB of zeros deflated, ending byte-aligned without a final block: copies of it make one stream of zeros. */
let zeroMib: Uint8Array | undefined;

/** A raw deflate stream that inflates to `bytes` zeros (a whole number of MiB), about 1/1000 of that in size. */
export function deflatedZeros(bytes: number): { data: Uint8Array; size: number } {
  if (bytes % MIB !== 0) throw new Error(`deflatedZeros takes whole MiB, not ${bytes} bytes`);
  zeroMib ??= zlib.deflateRawSync(Buffer.alloc(MIB), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const last = zlib.deflateRawSync(Buffer.alloc(0));
  const out = new Uint8Array((bytes / MIB) * zeroMib.length + last.length);
  for (let i = 0; i < bytes / MIB; i++) out.set(zeroMib, i * zeroMib.length);
  out.set(last, out.length - last.length);
  return { data: out, size: bytes };
}

/** A ZIP archive of the entries, in order: local headers and data, then the central directory. */
export function buildZip(entries: readonly ZipEntrySpec[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const content = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : entry.content;
    const data = entry.deflated?.data ?? (entry.store ? content! : zlib.deflateRawSync(content ?? new Uint8Array(0)));
    const size = entry.declaredSize ?? entry.deflated?.size ?? content?.length ?? 0;
    const crc = content ? zlib.crc32(content) : 0;
    const method = entry.store ? 0 : 8;
    const local = Buffer.alloc(30 + name.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    name.copy(local, 30);
    const record = Buffer.alloc(46 + name.length);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0x0800, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(data.length, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    name.copy(record, 46);
    parts.push(local, data);
    central.push(record);
    offset += local.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
