/** The length gate: what a translation displays, in user-perceived characters, fits the row's budget. */
import { PLURAL_CATEGORIES } from '../formats/codec.js';
import type { Segment } from '../placeholders.js';
import { icuTree, type IcuMessage } from './icu-tree.js';
import type { GateFailure, GateInput } from './types.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/**
 * Characters that can join a grapheme cluster with a neighbour (UAX #29): CR (of CR LF), marks and other extenders,
 * ZWJ, prepended concatenation marks, Thai/Lao sara am, Hangul jamo, and everything outside the BMP (emoji, regional
 * indicators). Text without any of them is one cluster per UTF-16 unit, and counting it needs no segmenter.
 */
const CLUSTER_JOINER = /[\r\p{M}\p{Grapheme_Extend}\u200d\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u0e33\u0eb3\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]|[^\0-\uffff]/u;

// Below U+0300 only CR joins (checked over the whole range): text without it and without anything higher needs no look
// at the longer pattern.
// eslint-disable-next-line no-control-regex -- a range of code points that happens to start at NUL
const MAY_JOIN = /[^\0-\x0c\x0e-\u02ff]/;

const hasJoiner = (text: string): boolean => MAY_JOIN.test(text) && CLUSTER_JOINER.test(text);

function graphemeCount(text: string): number {
  if (!hasJoiner(text)) return text.length;
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/**
 * Tags and comments display nothing; an entity displays one character; a placeholder counts as written, its value being
 * unknown. `simple`: the whole message has no cluster joiner, so no segment needs counting by clusters.
 */
function segmentLength(segment: Segment, simple: boolean): number {
  if (segment.kind === 'markup') return segment.value.startsWith('&') ? 1 : 0;
  if (segment.kind === 'icu') return 1; // `#`, the number
  return simple ? segment.value.length : graphemeCount(segment.value);
}

/** An ICU plural or select displays one branch: the longest one is what has to fit. */
function messageLength(message: IcuMessage, simple: boolean): number {
  let n = 0;
  for (const segment of message.segments) n += segmentLength(segment, simple);
  for (const block of message.blocks) {
    let longest = 0;
    for (const branch of block.branches) longest = Math.max(longest, messageLength(branch.message, simple));
    n += longest;
  }
  return n;
}

/**
 * User-perceived characters (grapheme clusters) `text` displays: markup tags count zero, entities one, placeholders
 * as written, and an ICU plural/select its longest branch.
 */
export function displayLength(text: string): number {
  return messageLength(icuTree(text), !hasJoiner(text));
}

const overBy = (length: number, budget: number): string => `${length} characters, over the budget of ${budget} by ${length - budget}`;

/** The translation (each plural form) against `maxLength`; no budget, no failure. */
export function checkLength(input: GateInput): GateFailure[] {
  const budget = input.maxLength;
  if (budget === undefined) return [];
  if (!input.targetPlurals) {
    const length = displayLength(input.target);
    return length > budget ? [{ gate: 'length', reason: overBy(length, budget) }] : [];
  }
  const failures: GateFailure[] = [];
  for (const category of PLURAL_CATEGORIES) {
    const form = input.targetPlurals[category];
    if (form === undefined) continue;
    const length = displayLength(form);
    if (length > budget) failures.push({ gate: 'length', reason: `form "${category}": ${overBy(length, budget)}` });
  }
  return failures;
}
