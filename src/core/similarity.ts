/** Fuzzy translation-memory matching: CAT-tool-style match scores from word-level edit distance, and the words to pre-select candidates by. */
import { tokenize } from './placeholders.js';

export interface MemoryCandidate {
  source: string;
  translation: string;
}

export type MemoryMatch<C extends MemoryCandidate = MemoryCandidate> = C & { score: number };

export interface MatchOptions {
  /** Lowest score returned, 0..1. Default 0.7, where CAT tools usually stop offering fuzzy matches. */
  min?: number;
  /** Most matches returned. Default 3. */
  limit?: number;
}

// Only identical text scores 1: a difference in case or spacing alone still wants a look before the translation is
// reused, so such a match sits just below, as CAT tools show it at 99%.
const NEAR_EXACT = 0.99;

// Han, Kana and the long-vowel marks are written without spaces: each character is a token of its own, as words.ts counts them.
const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30FC\\uFF70';
const WORD_CHAR = `(?:(?![${UNSPACED}])[\\p{L}\\p{M}\\p{N}])`;
// A word (with inner apostrophes: "don't" is one word), one unspaced character, or one punctuation or symbol character.
const TEXT_TOKEN = new RegExp(`[${UNSPACED}]|${WORD_CHAR}+(?:['’]${WORD_CHAR}+)*|\\S`, 'gu');
// Runs of letters for SQL pre-selection; digits split them, so each run is a substring of the lower-cased text.
const SEARCH_WORD = new RegExp(`(?:(?![${UNSPACED}])[\\p{L}\\p{M}])+`, 'gu');
const LETTER = /\p{L}/gu;
const MIN_SEARCH_LETTERS = 3;

/**
 * Similarity of two source texts, 0..1: one minus the token edit distance over the longer token count. Tokens are
 * words and punctuation marks compared case-insensitively, and placeholders, markup and ICU syntax as whole tokens,
 * so "Delete this file?" and "Delete this folder?" score 0.75.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  return scoreTokens(matchTokens(a), matchTokens(b));
}

/**
 * The best translation-memory matches for `source`, highest score first (ties keep the candidates' order), at least
 * `min` and at most `limit` of them. A candidate repeating an earlier one's source and translation is left out.
 */
export function bestMatches<C extends MemoryCandidate>(source: string, candidates: readonly C[], options: MatchOptions = {}): MemoryMatch<C>[] {
  const { min = 0.7, limit = 3 } = options;
  if (!(min >= 0 && min <= 1)) throw new RangeError(`Invalid minimum match score ${min}: expected a number from 0 to 1`);
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`Invalid match limit ${limit}: expected a whole number of at least 0`);
  const tokens = matchTokens(source);
  const seen = new Set<string>();
  const matches: MemoryMatch<C>[] = [];
  for (const candidate of candidates) {
    const pair = `${candidate.source}\u0000${candidate.translation}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    const score = candidate.source === source ? 1 : scoreAtLeast(tokens, matchTokens(candidate.source), min);
    if (score !== undefined && score >= min) matches.push({ ...candidate, score });
  }
  return matches.sort((x, y) => y.score - x.score).slice(0, limit);
}

/**
 * Distinct lower-case words of at least three letters in `text`, longest first (ties in order of appearance), for
 * pre-selecting candidates with substring searches. Placeholders and markup are left out; Han and Kana text, which
 * has no word breaks, gives none.
 */
export function searchWords(text: string): string[] {
  const words = new Set<string>();
  for (const segment of tokenize(text)) {
    if (segment.kind !== 'text') continue;
    for (const [word] of segment.value.toLowerCase().matchAll(SEARCH_WORD)) {
      if ((word.match(LETTER)?.length ?? 0) >= MIN_SEARCH_LETTERS) words.add(word);
    }
  }
  return [...words].sort((x, y) => codePoints(y) - codePoints(x));
}

/** The tokens edit distance runs over: text lower-cased and split into words and marks; protected segments whole. */
function matchTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const segment of tokenize(text)) {
    if (segment.kind === 'text') {
      for (const [token] of segment.value.normalize('NFC').toLowerCase().matchAll(TEXT_TOKEN)) tokens.push(token);
    } else {
      // The kind prefix keeps a placeholder such as `#` from equalling the same character written as text.
      tokens.push(`${segment.kind}\u0000${segment.value}`);
    }
  }
  return tokens;
}

function scoreTokens(a: readonly string[], b: readonly string[]): number {
  const longest = Math.max(a.length, b.length);
  // Texts that differ only in whitespace have no tokens to tell them apart.
  if (longest === 0) return NEAR_EXACT;
  return Math.min(NEAR_EXACT, 1 - editDistance(a, b) / longest);
}

/** The score of two token lists, or undefined when their lengths alone rule out reaching `min`. */
function scoreAtLeast(a: readonly string[], b: readonly string[], min: number): number | undefined {
  const longest = Math.max(a.length, b.length);
  // At least the length difference must be inserted, so the score can be no higher than shorter / longer.
  if (longest > 0 && Math.min(a.length, b.length) / longest < min) return undefined;
  return scoreTokens(a, b);
}

/** Levenshtein distance over tokens (insert, delete and substitute each cost 1), in two rows of the shorter length. */
function editDistance(a: readonly string[], b: readonly string[]): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let previous = Int32Array.from({ length: short.length + 1 }, (_, j) => j);
  let current = new Int32Array(short.length + 1);
  for (let i = 1; i <= long.length; i++) {
    current[0] = i;
    const token = long[i - 1];
    for (let j = 1; j <= short.length; j++) {
      const substitute = previous[j - 1]! + (token === short[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitute);
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length]!;
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
