/** Codec benchmark: parse and render throughput of a 50,000-entry file in every registered format. Prints figures. */
import { performance } from 'node:perf_hooks';
import { IMPLEMENTED_FORMATS, getCodec, type FreshEntry, type Value } from '../src/core/formats/index.js';

const ENTRIES = Number(process.env.BENCH_FORMAT_ENTRIES ?? 50_000);
const ONLY = process.env.BENCH_FORMATS?.split(',');

function entries(count: number, plurals: boolean): FreshEntry[] {
  const out: FreshEntry[] = [];
  for (let i = 0; i < count; i++) {
    const value: Value =
      plurals && i % 10 === 0
        ? { plurals: { one: `{count} message in folder ${i}`, other: `{count} messages in folder ${i}` } }
        : `Item ${i}: "{name}" has %d new messages & <b>notes</b>`;
    out.push({ key: `section${Math.floor(i / 100)}.item${i}`, value, notes: i % 7 === 0 ? `Shown on screen ${i}` : undefined });
  }
  return out;
}

function best(runs: number, fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

console.log(`\nformats: ${ENTRIES.toLocaleString('en')} entries per file (best of 3)`);
console.log(`  ${'format'.padEnd(16)}${'size'.padStart(10)}${'parse MB/s'.padStart(12)}${'entries/s'.padStart(12)}${'render MB/s'.padStart(13)}${'entries/s'.padStart(12)}`);
for (const id of IMPLEMENTED_FORMATS) {
  if (ONLY && !ONLY.includes(id)) continue;
  const codec = getCodec(id)!;
  try {
    const source = codec.renderFresh(entries(ENTRIES, codec.plurals), { locale: 'en' });
    const parsed = codec.parse(source);
    const values = new Map<string, Value>(
      parsed.map((e) => [e.key, e.plurals ? { plurals: Object.fromEntries(Object.entries(e.plurals).map(([c, f]) => [c, `${f} (de)`])) } : `${e.source} (de)`]),
    );
    const parseMs = best(3, () => codec.parse(source));
    const renderMs = best(3, () => codec.render({ source, values, missing: 'source', locale: 'de', sourceLocale: 'en' }));
    const mb = source.byteLength / 1024 / 1024;
    const fmt = (n: number) => n.toFixed(1);
    console.log(
      `  ${id.padEnd(16)}${`${mb.toFixed(1)} MB`.padStart(10)}${fmt(mb / (parseMs / 1000)).padStart(12)}${Math.round(parsed.length / (parseMs / 1000)).toString().padStart(12)}${fmt(mb / (renderMs / 1000)).padStart(13)}${Math.round(parsed.length / (renderMs / 1000)).toString().padStart(12)}`,
    );
  } catch (error) {
    console.log(`  ${id.padEnd(16)} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
