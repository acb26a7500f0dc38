/** Pseudo-localisation provider: accented, expanded, bracketed text that exposes hard-coded strings and layout overflow without a real translator. */
import { splitEdgeWhitespace } from '../../src/core/edge-whitespace.js';
import { tokenize, type Segment } from '../../src/core/placeholders.js';
import type { GlossaryHint, Pass, TranslationProvider } from './provider.js';

// One code unit per letter, so accenting never changes lengths and the expansion stays exactly the padding.
const ACCENTS: Readonly<Record<string, string>> = {
  a: 'å', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'î', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'û', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Å', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Î', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** Target growth of the literal text, brackets included: real translations from English commonly run ~30% longer. */
const EXPANSION = 0.3;
const PAD = '·';
const BRACKETS: Record<Pass, readonly [string, string]> = { fast: ['[', ']'], careful: ['⟦', '⟧'] };

function accent(s: string): string {
  let out = '';
  for (const ch of s) out += ACCENTS[ch] ?? ch;
  return out;
}

/**
 * Splits segments into runs separated by ICU structure, so each plural/select branch gets its own padding:
 * only one branch is ever displayed, and each must show the expansion.
 */
function runsOf(segments: readonly Segment[]): Segment[][] {
  const runs: Segment[][] = [[]];
  for (const s of segments) {
    if (s.kind === 'icu') runs.push([s], []);
    else (runs[runs.length - 1] as Segment[]).push(s);
  }
  return runs;
}

function literalLength(run: readonly Segment[]): number {
  let n = 0;
  for (const s of run) if (s.kind === 'text') n += s.value.length;
  return n;
}

/** Splits `total` over `weights` proportionally (largest remainder), at least 1 for each positive weight. */
function distribute(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w * total) / sum);
  const shares = exact.map((x) => Math.floor(x));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    shares[i] = (shares[i] as number) + 1;
    left--;
  }
  return shares.map((s, i) => ((weights[i] as number) > 0 ? Math.max(1, s) : 0));
}

/** Deterministic pseudo-translation: literal text accented and padded, placeholders/ICU/markup untouched, bracketed by pass. */
export function pseudoLocalize(text: string, pass: Pass): string {
  // Line breaks and spaces at the ends are layout, so the brackets go inside them: "Line\n" becomes "[Ļîñé··]\n".
  const { leading, core, trailing } = splitEdgeWhitespace(text);
  // An empty source must stay empty: apps often treat '' as "not set".
  if (core === '') return text;
  return `${leading}${bracketed(core, pass)}${trailing}`;
}

function bracketed(text: string, pass: Pass): string {
  const runs = runsOf(tokenize(text));
  const lengths = runs.map(literalLength);
  const literal = lengths.reduce((a, b) => a + b, 0);
  const [open, close] = BRACKETS[pass];
  const padTotal = literal === 0 ? 0 : Math.max(1, Math.round(literal * EXPANSION) - open.length - close.length);
  const pads = distribute(padTotal, lengths);

  let out = open;
  runs.forEach((run, r) => {
    const pad = PAD.repeat(pads[r] as number);
    run.forEach((s, i) => {
      if (s.kind !== 'text') {
        out += s.value;
        if (i === run.length - 1) out += pad;
        return;
      }
      const value = accent(s.value);
      if (i < run.length - 1) {
        out += value;
        return;
      }
      // Padding goes before trailing whitespace, so a line break closing an ICU branch stays at its end.
      const body = value.trimEnd();
      out += body + pad + value.slice(body.length);
    });
  });
  return out + close;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Applies locked glossary terms the way an obedient translator would: each occurrence becomes the term's translation
 * (or stays as written when it has none), untouched by the pseudo-localisation, so glossary checks hold for pseudo
 * output too. Forbidden terms need nothing: accented text never contains them.
 */
export function withGlossary(text: string, glossary: readonly GlossaryHint[], localize: (text: string) => string): string {
  const locked = glossary.filter((g) => !g.forbidden).sort((a, b) => b.term.length - a.term.length);
  if (locked.length === 0) return localize(text);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${locked.map((g) => escapeRegExp(g.term).replace(/\s+/g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const kept: string[] = [];
  // Each occurrence is parked as a tag, which pseudo-localisation leaves alone, then put back translated.
  const parked = text.replace(pattern, (match) => {
    const hint = locked.find((g) => g.term.toLowerCase() === match.replace(/\s+/g, ' ').toLowerCase());
    kept.push(hint?.translation ?? match);
    return `<glossary-term n="${kept.length - 1}"/>`;
  });
  return localize(parked).replace(/<glossary-term n="(\d+)"\/>/g, (_m, n: string) => kept[Number(n)] ?? '');
}

/** Provider that pseudo-localises every row; useful for UI testing and for running the pipeline without an API. */
export function createPseudoProvider(): TranslationProvider {
  return {
    name: 'pseudo',
    // Pseudo "follows" every instruction trivially, so it can stand in for an LLM on the careful pass in tests and demos.
    instructable: true,
    async translate(request) {
      request.signal?.throwIfAborted();
      return request.rows.map((row) => ({ id: row.id, ok: true as const, text: withGlossary(row.text, row.glossary ?? [], (t) => pseudoLocalize(t, request.pass)) }));
    },
  };
}
