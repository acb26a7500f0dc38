/**
 * The bounded ZIP reader: zip bombs, too many entries, sizes that lie and archives inside archives are refused at the
 * limits, naming the entry and the limit; ordinary archives read as fflate's unzipSync read them.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ArchiveBudget, ArchiveLimitError, DEFAULT_ARCHIVE_LIMITS } from '../../src/core/archive-limits.js';
import { FileUnparsableError } from '../../src/core/formats/file-unparsable-error.js';
import { xlsxCodec } from '../../src/core/formats/xlsx.js';
import { readZip } from '../../src/core/read-zip.js';
import { buildZip, deflatedZeros } from '../helpers/build-zip.js';

const MIB = 1024 * 1024;

function refusal(read: () => unknown): ArchiveLimitError {
  try {
    read();
  } catch (error) {
    if (error instanceof ArchiveLimitError) return error;
    throw error;
  }
  throw new Error('expected an ArchiveLimitError');
}

/** What an archive reads to, entries or error, comparable between readers. */
function outcome(read: () => Record<string, Uint8Array>): string {
  try {
    return JSON.stringify(Object.entries(read()).map(([name, bytes]) => [name, Buffer.from(bytes).toString('base64')]));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

describe('readZip on ordinary archives', () => {
  const files = {
    'en.json': strToU8('{"hello":"Hello"}'),
    'de/strings.xml': strToU8('<resources><string name="hello">Hallo</string></resources>'.repeat(200)),
    'empty.txt': new Uint8Array(0),
    'dir/': new Uint8Array(0),
    'ünïcode/名前.json': strToU8('{"a":"b"}'),
    'stored.bin': Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251),
  };

  it('reads every entry as fflate does: deflated, stored, empty, directories, UTF-8 names', () => {
    for (const archive of [zipSync(files), zipSync(files, { level: 0 }), buildZip(Object.entries(files).map(([name, content]) => ({ name, content, store: name === 'stored.bin' })))]) {
      expect(outcome(() => readZip(archive))).toBe(outcome(() => unzipSync(archive)));
    }
  });

  it('inflates only the entries the filter takes', () => {
    const read = readZip(zipSync(files), { filter: (name) => name.endsWith('.json') });
    expect(Object.keys(read).sort()).toEqual(['en.json', 'ünïcode/名前.json']);
    expect(new TextDecoder().decode(read['en.json'])).toBe('{"hello":"Hello"}');
  });

  it('reads damaged archives, and refuses them, in fflate’s words', () => {
    const archive = zipSync(files);
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let i = 0; i < 400; i++) {
      const mutant = archive.slice();
      for (let k = 0; k <= next(3); k++) mutant[next(mutant.length)] = next(256);
      const bytes = i % 4 === 0 ? mutant.subarray(0, next(mutant.length)) : mutant;
      expect(outcome(() => readZip(bytes)), `mutant ${i}`).toBe(outcome(() => unzipSync(bytes)));
    }
    expect(() => readZip(strToU8('not a zip at all'))).toThrow('invalid zip data');
  });

  it('cuts an entry longer than its declared size there, as fflate does, when it stays within the limits', () => {
    const archive = buildZip([{ name: 'short.txt', content: 'x'.repeat(5000), declaredSize: 10 }]);
    expect(outcome(() => readZip(archive))).toBe(outcome(() => unzipSync(archive)));
    expect(readZip(archive)['short.txt']).toHaveLength(10);
  });

  it('reads an entry whose declared size is larger than it is: a size is never taken for the decision', () => {
    const archive = buildZip([{ name: 'a.txt', content: 'hello', declaredSize: 0xffff_fff0 }]);
    expect(new TextDecoder().decode(readZip(archive)['a.txt'])).toBe('hello');
  });
});

describe('readZip at the limits', () => {
  it('refuses a zip bomb when it reaches the limit, naming the entry and the limit', () => {
    const bomb = buildZip([{ name: 'xl/sharedStrings.xml', deflated: deflatedZeros(200 * MIB) }]);
    expect(bomb.length).toBeLessThan(250_000);
    const error = refusal(() => readZip(bomb));
    expect(error.message).toBe(
      "Archive entry 'xl/sharedStrings.xml' inflates past the limit of 104,857,600 bytes (MAX_INFLATED_BYTES); the archive's entries together may inflate to at most that",
    );
    expect(error).toBeInstanceOf(FileUnparsableError);
    expect({ entry: error.entry, limit: error.limit, setting: error.setting }).toEqual({ entry: 'xl/sharedStrings.xml', limit: DEFAULT_ARCHIVE_LIMITS.maxInflatedBytes, setting: 'MAX_INFLATED_BYTES' });
    // That it stops at the limit rather than after the whole entry is measured where it shows, in memory:
    // test/integration/archive-limits-memory.test.ts (no timed assertions in tests).
  });

  it('stops an entry whose declared size lies (10 bytes, inflating to 200 MiB) at the limit', () => {
    const liar = buildZip([{ name: 'liar.xml', deflated: deflatedZeros(200 * MIB), declaredSize: 10 }]);
    expect(refusal(() => readZip(liar)).entry).toBe('liar.xml');
    const small = { maxInflatedBytes: 4 * MIB, maxEntries: 10 };
    expect(refusal(() => readZip(buildZip([{ name: 'liar.xml', deflated: deflatedZeros(5 * MIB), declaredSize: MIB }]), { budget: small })).entry).toBe('liar.xml');
  });

  it('bounds a stream zlib refuses and fflate reads (a stored block with a bad length check before a bomb) the same way', () => {
    const lenient = (zeros: ReturnType<typeof deflatedZeros>) => ({ data: new Uint8Array([0x00, 0x01, 0x00, 0x00, 0x00, 0x41, ...zeros.data]), size: zeros.size + 1 });
    const small = buildZip([{ name: 'odd.txt', deflated: lenient(deflatedZeros(MIB)) }]);
    expect(readZip(small)['odd.txt']).toHaveLength(MIB + 1);
    expect(outcome(() => readZip(small))).toBe(outcome(() => unzipSync(small)));
    const bomb = buildZip([{ name: 'odd.xml', deflated: lenient(deflatedZeros(64 * MIB)) }]);
    expect(refusal(() => readZip(bomb, { budget: { maxInflatedBytes: 8 * MIB, maxEntries: 10 } })).entry).toBe('odd.xml');
  });

  it('counts what every entry inflates to against one limit', () => {
    const archive = buildZip(['a.xml', 'b.xml', 'c.xml'].map((name) => ({ name, deflated: deflatedZeros(3 * MIB) })));
    expect(Object.keys(readZip(archive, { budget: { maxInflatedBytes: 9 * MIB, maxEntries: 10 } }))).toEqual(['a.xml', 'b.xml', 'c.xml']);
    const error = refusal(() => readZip(archive, { budget: { maxInflatedBytes: 8 * MIB, maxEntries: 10 } }));
    expect(error.message).toBe("Archive entry 'c.xml' inflates past the limit of 8,388,608 bytes (MAX_INFLATED_BYTES); the archive's entries together may inflate to at most that");
    // Stored entries count as well.
    expect(refusal(() => readZip(buildZip([{ name: 's.bin', content: new Uint8Array(2000), store: true }]), { budget: { maxInflatedBytes: 1999, maxEntries: 10 } })).entry).toBe('s.bin');
  });

  it('refuses an archive with too many entries before inflating any, filtered out or not', () => {
    const many = buildZip(Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.txt`, content: '' })));
    const error = refusal(() => readZip(many, { filter: () => false }));
    expect(error.message).toBe('The archive has 10,001 entries; at most 10,000 are read (MAX_ARCHIVE_ENTRIES)');
    expect({ entry: error.entry, limit: error.limit, setting: error.setting }).toEqual({ entry: undefined, limit: 10_000, setting: 'MAX_ARCHIVE_ENTRIES' });
    expect(Object.keys(readZip(many, { budget: { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 10_001 } }))).toHaveLength(10_001);
  });

  it('shares one budget with the archives read from inside an archive: a nested bomb, and limits that add up', () => {
    // An .xlsx in an export, its shared strings a bomb.
    const workbook = (sharedStrings: ReturnType<typeof deflatedZeros>) =>
      buildZip([...Object.entries(unzipSync(xlsxCodec.renderFresh([{ key: 'hello', value: 'Hello' }]))).map(([name, content]) => ({ name, content })), { name: 'xl/sharedStrings.xml', deflated: sharedStrings }]);
    const outer = buildZip([
      { name: 'padding.txt', deflated: deflatedZeros(6 * MIB) },
      { name: 'strings.xlsx', content: workbook(deflatedZeros(200 * MIB)) },
    ]);
    const budget = new ArchiveBudget();
    const entries = readZip(outer, { budget });
    const nested = refusal(() => xlsxCodec.parse(entries['strings.xlsx']!, { archive: budget }));
    expect(nested.message).toMatch(/^Archive entry 'xl\/sharedStrings\.xml' inflates past the limit of 104,857,600 bytes/);

    // 6 MiB outside and 6 MiB inside, each under 10 MiB, are 12 together.
    const limits = { maxInflatedBytes: 10 * MIB, maxEntries: 100 };
    const shared = new ArchiveBudget(limits);
    const inner = readZip(buildZip([{ name: 'padding.txt', deflated: deflatedZeros(6 * MIB) }, { name: 'strings.xlsx', content: workbook(deflatedZeros(6 * MIB)) }]), { budget: shared });
    expect(xlsxCodec.parse(inner['strings.xlsx']!, { archive: limits }).map((e) => e.key)).toEqual(['hello']);
    expect(refusal(() => xlsxCodec.parse(inner['strings.xlsx']!, { archive: shared })).entry).toBe('xl/sharedStrings.xml');

    // Entries add up too.
    const parts = Object.keys(unzipSync(workbook(deflatedZeros(MIB)))).length;
    const counted = new ArchiveBudget({ maxInflatedBytes: 10 * MIB, maxEntries: parts + 1 });
    const few = readZip(buildZip([{ name: 'a.txt', content: 'a' }, { name: 'strings.xlsx', content: workbook(deflatedZeros(MIB)) }]), { budget: counted });
    expect(refusal(() => xlsxCodec.parse(few['strings.xlsx']!, { archive: counted })).message).toBe(
      `The archive has ${parts} entries, ${parts + 2} with those of the archive it was found in; at most ${parts + 1} are read (MAX_ARCHIVE_ENTRIES)`,
    );
  });
});

describe('the xlsx codec within the limits', () => {
  const fresh = () => Object.entries(unzipSync(xlsxCodec.renderFresh([{ key: 'hello', value: 'Hello' }]))).map(([name, content]) => ({ name, content }));

  it('refuses a workbook whose shared strings are a bomb, naming the part and the limit', () => {
    const bomb = buildZip([...fresh(), { name: 'xl/sharedStrings.xml', deflated: deflatedZeros(300 * MIB) }]);
    const error = refusal(() => xlsxCodec.parse(bomb));
    expect(error.message).toBe("Archive entry 'xl/sharedStrings.xml' inflates past the limit of 104,857,600 bytes (MAX_INFLATED_BYTES); the archive's entries together may inflate to at most that");
    expect(refusal(() => xlsxCodec.render({ source: bomb, values: new Map(), missing: 'source' })).entry).toBe('xl/sharedStrings.xml');
    expect(refusal(() => xlsxCodec.parse(bomb, { archive: { maxInflatedBytes: MIB, maxEntries: 100 } })).limit).toBe(MIB);
  });

  it('does not inflate media, but counts it toward the entry limit', () => {
    const media = buildZip([...fresh(), { name: 'xl/media/image1.png', deflated: deflatedZeros(300 * MIB) }]);
    expect(xlsxCodec.parse(media).map((e) => [e.key, e.source])).toEqual([['hello', 'Hello']]);
    const many = buildZip([...fresh(), ...Array.from({ length: 200 }, (_, i) => ({ name: `xl/media/image${i}.png`, content: 'png' }))]);
    expect(refusal(() => xlsxCodec.parse(many, { archive: { maxInflatedBytes: MIB, maxEntries: 200 } })).message).toBe(
      `The archive has ${fresh().length + 200} entries; at most 200 are read (MAX_ARCHIVE_ENTRIES)`,
    );
  });
});
