/**
 * Codec benchmark: parse and render throughput of a 50,000-entry file in every registered format, each beside the
 * machine's floor for the same bytes (a generic reader and writer, measured in the same run). Prints figures.
 */
import { best } from './measure.js';
import { IMPLEMENTED_FORMATS, getCodec, type FormatId, type FreshEntry, type Value } from '../src/core/formats/index.js';

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

/** The generic work a codec cannot beat on the same bytes: reading them into a structure, and writing them back out. */
interface Floor {
  name: string;
  parse(bytes: Uint8Array): unknown;
  render(bytes: Uint8Array): unknown;
}

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

const JSON_FLOOR: Floor = {
  name: 'JSON.parse (+ stringify)',
  parse: (bytes) => JSON.parse(decode(bytes)),
  render: (bytes) => encode(JSON.stringify(JSON.parse(decode(bytes)))),
};

const LINES_FLOOR: Floor = {
  name: "decode + split('\\n') (+ join)",
  parse: (bytes) => decode(bytes).split('\n'),
  render: (bytes) => encode(decode(bytes).split('\n').join('\n')),
};

interface GettextParser {
  po: { parse(input: Uint8Array | string): unknown; compile(table: unknown): Uint8Array };
}

/** gettext-parser, the common JavaScript PO reader, when it is installed (it is not a dependency); else the line floor. */
async function poFloor(): Promise<Floor> {
  const name = 'gettext-parser';
  try {
    const { po } = ((await import(name)) as { default: GettextParser }).default;
    return { name: 'gettext-parser po.parse (+ compile)', parse: (bytes) => po.parse(bytes), render: (bytes) => po.compile(po.parse(bytes)) };
  } catch {
    return LINES_FLOOR;
  }
}

const PO_FLOOR = await poFloor();
const FLOORS: Partial<Record<FormatId, Floor>> = {
  json: JSON_FLOOR,
  json_nested: JSON_FLOOR,
  laravel_json: JSON_FLOOR,
  arb: JSON_FLOOR,
  ios_xcstrings: JSON_FLOOR,
  po: PO_FLOOR,
  unreal_po: PO_FLOOR,
};

const fmt = (n: number): string => n.toFixed(1);
/** How many times the floor's speed the codec's is short of: 1.0× is at the floor. */
const ratio = (codecMs: number, floorMs: number): string => `${(codecMs / floorMs).toFixed(1)}×`;

console.log(`\nformats: ${ENTRIES.toLocaleString('en')} entries per file (best of 3); MB/s of the source file; ratio = codec time ÷ floor time`);
console.log(
  `  ${'format'.padEnd(16)}${'size'.padStart(8)}${'parse'.padStart(9)}${'floor'.padStart(8)}${'ratio'.padStart(7)}${'entries/s'.padStart(11)}` +
    `${'render'.padStart(9)}${'floor'.padStart(8)}${'ratio'.padStart(7)}${'entries/s'.padStart(11)}  floor`,
);
for (const id of IMPLEMENTED_FORMATS) {
  if (ONLY && !ONLY.includes(id)) continue;
  const codec = getCodec(id)!;
  try {
    const source = codec.renderFresh(entries(ENTRIES, codec.plurals), { locale: 'en' });
    const parsed = codec.parse(source);
    const values = new Map<string, Value>(
      parsed.map((e) => [e.key, e.plurals ? { plurals: Object.fromEntries(Object.entries(e.plurals).map(([c, f]) => [c, `${f} (de)`])) } : `${e.source} (de)`]),
    );
    const floor = FLOORS[id] ?? LINES_FLOOR;
    const parseMs = best(3, () => codec.parse(source));
    const floorParseMs = best(3, () => floor.parse(source));
    const renderMs = best(3, () => codec.render({ source, values, missing: 'source', locale: 'de', sourceLocale: 'en' }));
    const floorRenderMs = best(3, () => floor.render(source));
    const mb = source.byteLength / 1024 / 1024;
    const speed = (ms: number): string => fmt(mb / (ms / 1000));
    const perSecond = (ms: number): string => Math.round(parsed.length / (ms / 1000)).toString();
    console.log(
      `  ${id.padEnd(16)}${`${mb.toFixed(1)} MB`.padStart(8)}` +
        `${speed(parseMs).padStart(9)}${speed(floorParseMs).padStart(8)}${ratio(parseMs, floorParseMs).padStart(7)}${perSecond(parseMs).padStart(11)}` +
        `${speed(renderMs).padStart(9)}${speed(floorRenderMs).padStart(8)}${ratio(renderMs, floorRenderMs).padStart(7)}${perSecond(renderMs).padStart(11)}` +
        `  ${floor.name}`,
    );
  } catch (error) {
    console.log(`  ${id.padEnd(16)} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
