// Every codec reads and renders a Node Buffer that is a view into a larger pool (as pg returns bytea) like a plain array.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTED_FORMATS, getCodec, type Value } from '../../src/core/formats/index.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/formats');

describe.each(IMPLEMENTED_FORMATS)('%s', (format) => {
  it('gives the same entries and output for a pooled Buffer view as for a plain Uint8Array', () => {
    const codec = getCodec(format)!;
    for (const name of readdirSync(join(FIXTURES, format)).filter((n) => codec.extensions.some((ext) => n.toLowerCase().endsWith(ext)))) {
      const raw = readFileSync(join(FIXTURES, format, name));
      const plain = new Uint8Array(raw);
      const pooled = Buffer.concat([Buffer.alloc(37, 0x41), raw, Buffer.alloc(11, 0x42)]).subarray(37, 37 + raw.length);
      const entries = codec.parse(plain);
      expect(codec.parse(pooled), name).toEqual(entries);
      const values = new Map<string, Value>(
        entries.map((e) => [e.key, e.plurals ? { plurals: Object.fromEntries(Object.entries(e.plurals).map(([c, f]) => [c, `${f}!`])) } : `${e.source}!`]),
      );
      const input = { values, missing: 'source' as const, locale: 'de', sourceLocale: 'en' };
      expect(Buffer.from(codec.render({ ...input, source: pooled })).equals(Buffer.from(codec.render({ ...input, source: plain }))), name).toBe(true);
    }
  });
});
