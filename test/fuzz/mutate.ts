/** Deterministic mutation of source files for the codec fuzzer: a seeded generator and the byte- and line-level mutators. */

/** A small, fast, seedable generator (mulberry32): the same seed gives the same mutants on every machine. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]! };
}

/** A 32-bit seed for one mutant, from the run's seed, the format and the mutant's index: any mutant can be replayed alone. */
export function mutantSeed(seed: number, format: string, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const ch of `${format}#${index}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

const enc = new TextEncoder();

/** Byte sequences that are not valid UTF-8: a stray continuation, a lone lead byte, an overlong slash, a UTF-16 surrogate, 0xFF. */
const INVALID_UTF8: readonly number[][] = [[0x80], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]];

const INSERTS: readonly string[] = ['"', "'", '\\', '\\"', '\\u', '\\u12', '<', '>', '</', '<!--', ']]>', '<![CDATA[', '&', '&amp', '&#xD800;', '\0', '{', '}', '[', ']', ',', ':', '=', '#', '%', '%s', '{0}', '{{', '\r', '\n', '\t', '\uFEFF', 'msgid "', '---\n', '*', '&x', '<?php'];

type Mutator = (bytes: Uint8Array, rng: Rng) => { bytes: Uint8Array; what: string };

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const insertAt = (bytes: Uint8Array, at: number, piece: Uint8Array) => concat(bytes.subarray(0, at), piece, bytes.subarray(at));

/** Byte offsets where lines start (after each LF), always including 0 and the end. */
function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  if (starts[starts.length - 1] !== bytes.length) starts.push(bytes.length);
  return starts;
}

/** A random whole line: [start, end) including its line feed. */
function randomLine(bytes: Uint8Array, rng: Rng): [number, number, number] {
  const starts = lineStarts(bytes);
  if (starts.length < 2) return [0, 0, 0];
  const index = rng.int(starts.length - 1);
  return [starts[index]!, starts[index + 1]!, index + 1];
}

const MUTATORS: readonly Mutator[] = [
  (bytes, rng) => {
    if (bytes.length === 0) return { bytes, what: 'flip (empty)' };
    const out = bytes.slice();
    const at = rng.int(out.length);
    const bit = 1 << rng.int(8);
    out[at] = out[at]! ^ bit;
    return { bytes: out, what: `flip bit ${bit} at byte ${at}` };
  },
  (bytes, rng) => {
    if (bytes.length === 0) return { bytes, what: 'set (empty)' };
    const out = bytes.slice();
    const at = rng.int(out.length);
    out[at] = rng.int(256);
    return { bytes: out, what: `set byte ${at} to ${out[at]}` };
  },
  (bytes, rng) => {
    const at = rng.int(bytes.length + 1);
    return { bytes: bytes.slice(0, at), what: `truncate at byte ${at}` };
  },
  (bytes, rng) => {
    const [start, end, line] = randomLine(bytes, rng);
    return { bytes: insertAt(bytes, end, bytes.slice(start, end)), what: `duplicate line ${line}` };
  },
  (bytes, rng) => {
    const [start, end, line] = randomLine(bytes, rng);
    return { bytes: concat(bytes.subarray(0, start), bytes.subarray(end)), what: `delete line ${line}` };
  },
  (bytes, rng) => {
    const piece = rng.pick(INSERTS);
    const at = rng.int(bytes.length + 1);
    return { bytes: insertAt(bytes, at, enc.encode(piece)), what: `insert ${JSON.stringify(piece)} at byte ${at}` };
  },
  (bytes, rng) => {
    const piece = rng.pick(INVALID_UTF8);
    const at = rng.int(bytes.length + 1);
    return { bytes: insertAt(bytes, at, Uint8Array.from(piece)), what: `insert invalid UTF-8 ${piece.map((b) => b.toString(16)).join(' ')} at byte ${at}` };
  },
  (bytes, rng) => {
    const at = rng.int(bytes.length + 1);
    return { bytes: insertAt(bytes, at, Uint8Array.of(0)), what: `insert NUL at byte ${at}` };
  },
  (bytes, rng) => {
    // A huge line: either one character repeated, or a stretch of the file itself repeated, within a line.
    const size = 50_000 + rng.int(450_000);
    const at = rng.int(bytes.length + 1);
    const seedChar = rng.pick(['a', 'é', ' ', '"', '\\', '<', '{', '🚀']);
    const piece = enc.encode(seedChar.repeat(Math.ceil(size / enc.encode(seedChar).length)));
    return { bytes: insertAt(bytes, at, piece), what: `insert a ${piece.length}-byte run of ${JSON.stringify(seedChar)} at byte ${at}` };
  },
  (bytes, rng) => {
    const [start, end, line] = randomLine(bytes, rng);
    const body = bytes.slice(start, Math.max(start, end - 1));
    if (body.length === 0) return { bytes, what: `stretch line ${line} (empty)` };
    const times = Math.ceil(100_000 / body.length);
    const run = new Uint8Array(body.length * times);
    for (let i = 0; i < times; i++) run.set(body, i * body.length);
    return { bytes: insertAt(bytes, start + body.length, run), what: `stretch line ${line} to ${run.length} more bytes` };
  },
  (bytes, rng) => {
    if (bytes.length < 2) return { bytes, what: 'swap (short)' };
    const a = rng.int(bytes.length);
    const len = 1 + rng.int(Math.min(64, bytes.length - a));
    const b = rng.int(bytes.length + 1);
    return { bytes: insertAt(concat(bytes.subarray(0, a), bytes.subarray(a + len)), Math.min(b, bytes.length - len), bytes.slice(a, a + len)), what: `move ${len} bytes from ${a} to ${b}` };
  },
];

/** The two huge-line mutators (indexes 8 and 9): one mutant in twenty gets one, so a full run stays in minutes. */
const HUGE = [8, 9];
const SMALL = MUTATORS.map((_, i) => i).filter((i) => !HUGE.includes(i));

/** One mutant of `bytes`: one to three mutations, a huge line at most once (a mutant stays under a few MB). */
export function mutate(bytes: Uint8Array, rng: Rng): { bytes: Uint8Array; what: string[] } {
  const count = 1 + rng.int(3);
  const what: string[] = [];
  let out = bytes;
  for (let i = 0; i < count; i++) {
    const index = i === 0 && rng.next() < 0.05 ? rng.pick(HUGE) : rng.pick(SMALL);
    const step = MUTATORS[index]!(out, rng);
    out = step.bytes;
    what.push(step.what);
  }
  return { bytes: out, what };
}
