/**
 * The codec fuzzer: mutants of the shared corpus and the format fixtures, fed to every codec. Each must parse and render
 * back byte for byte, or be refused with a FileUnparsableError naming a line; anything else is a failure, saved to disk.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileUnparsableError } from '../../src/core/formats/file-unparsable-error.js';
import { IMPLEMENTED_FORMATS, getCodec, type Codec, type FormatId, type Value } from '../../src/core/formats/index.js';
import { createRng, mutantSeed, mutate } from './mutate.js';

const REPO = new URL('../../', import.meta.url);
const SEED_DIRS = [new URL('../shared/corpus/', REPO), new URL('test/fixtures/formats/', REPO)];
/** A parse slower than this is a failure: the service parses on the request path. */
const PARSE_BUDGET_MS = 1000;
/** Failures saved per format: the first few are enough to reproduce, and a broken codec would otherwise fill the disk. */
const SAVED_PER_FORMAT = 5;

export interface CodecFuzzOptions {
  seed: number;
  mutantsPerFormat: number;
  formats?: readonly FormatId[];
  /** Only these mutant indices (to reproduce a reported failure); each failing one is saved. */
  indices?: readonly number[];
  /** Where failing mutants are written, one `<format>-<seed>-<index>` pair (the bytes and a .txt description) each. */
  artifactsDir: string;
  log: (line: string) => void;
}

export interface CodecFuzzCounts {
  format: FormatId;
  seeds: number;
  mutants: number;
  parsed: number;
  refused: number;
  failures: number;
  slowestMs: number;
}

/** The corpus and fixture files of a format whose names carry one of the codec's extensions. */
function seedFiles(codec: Codec): { name: string; bytes: Uint8Array }[] {
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const dir of SEED_DIRS) {
    const folder = new URL(`${codec.id}/`, dir);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).sort()) {
      if (!codec.extensions.some((ext) => name.endsWith(ext))) continue;
      files.push({ name: `${dir === SEED_DIRS[0] ? 'corpus' : 'fixtures'}/${codec.id}/${name}`, bytes: new Uint8Array(readFileSync(new URL(name, folder))) });
    }
  }
  return files;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/** What is wrong with how `codec` treats `bytes`, or undefined; `refused` tells which way it went. */
function check(codec: Codec, bytes: Uint8Array): { problem?: string; refused: boolean; ms: number } {
  const start = performance.now();
  let entries;
  try {
    entries = codec.parse(bytes);
  } catch (error) {
    const ms = performance.now() - start;
    if (!(error instanceof FileUnparsableError)) return { problem: `parse threw ${describe(error)}`, refused: true, ms };
    if (!Number.isInteger(error.line) || error.line < 1) return { problem: `refused without naming a line (line ${error.line}): ${error.message}`, refused: true, ms };
    if (!error.message) return { problem: 'refused with an empty message', refused: true, ms };
    if (ms > PARSE_BUDGET_MS) return { problem: `refusal took ${Math.round(ms)} ms (budget ${PARSE_BUDGET_MS} ms)`, refused: true, ms };
    return { refused: true, ms };
  }
  const ms = performance.now() - start;
  if (ms > PARSE_BUDGET_MS) return { problem: `parse took ${Math.round(ms)} ms (budget ${PARSE_BUDGET_MS} ms)`, refused: false, ms };
  const same = new Map<string, Value>(entries.map((e) => [e.key, e.plurals ? { plurals: e.plurals } : e.source]));
  for (const [label, values] of [
    ['no translations', new Map<string, Value>()],
    ['every value its source text', same],
  ] as const) {
    try {
      const out = codec.render({ source: bytes, values, missing: 'source' });
      if (!sameBytes(out, bytes)) return { problem: `render with ${label} is not byte-identical (${out.length} bytes out, ${bytes.length} in; first difference at byte ${firstDifference(out, bytes)})`, refused: false, ms };
    } catch (error) {
      return { problem: `parsed, but render with ${label} threw ${describe(error)}`, refused: false, ms };
    }
  }
  return { refused: false, ms };
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 300)}${error.stack ? `\n    ${error.stack.split('\n').slice(1, 4).map((l) => l.trim()).join('\n    ')}` : ''}`;
  return String(error);
}

export function fuzzCodecs(options: CodecFuzzOptions): CodecFuzzCounts[] {
  const results: CodecFuzzCounts[] = [];
  for (const format of options.formats ?? IMPLEMENTED_FORMATS) {
    const codec = getCodec(format)!;
    const seeds = seedFiles(codec);
    const counts: CodecFuzzCounts = { format, seeds: seeds.length, mutants: 0, parsed: 0, refused: 0, failures: 0, slowestMs: 0 };
    results.push(counts);
    if (seeds.length === 0) {
      options.log(`  ${format}: no corpus or fixture files, skipped`);
      continue;
    }
    const indices = options.indices ?? Array.from({ length: options.mutantsPerFormat }, (_, i) => i);
    for (const index of indices) {
      const rng = createRng(mutantSeed(options.seed, format, index));
      const seed = rng.pick(seeds);
      const mutant = mutate(seed.bytes, rng);
      const outcome = check(codec, mutant.bytes);
      counts.mutants += 1;
      counts.slowestMs = Math.max(counts.slowestMs, outcome.ms);
      if (outcome.refused) counts.refused += 1;
      else counts.parsed += 1;
      if (outcome.problem) {
        counts.failures += 1;
        const description = `format ${format}, FUZZ_SEED=${options.seed} index ${index}: ${seed.name} with ${mutant.what.join('; ')}\n  ${outcome.problem}`;
        options.log(`  FAIL ${description}`);
        if (counts.failures <= SAVED_PER_FORMAT || options.indices) {
          mkdirSync(options.artifactsDir, { recursive: true });
          const base = join(options.artifactsDir, `${format}-${options.seed}-${index}`);
          writeFileSync(`${base}${codec.extensions[0]}`, mutant.bytes);
          writeFileSync(`${base}.txt`, `${description}\n`);
        }
      }
    }
  }
  return results;
}
