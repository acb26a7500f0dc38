/** Counts the translatable words of a string by the one rule used for quotas, estimates and reports. */
import { tokenize } from './placeholders.js';

export const WORD_COUNT_RULE =
  'Placeholders, ICU syntax and HTML/XML markup are removed first (each acts as a word break), while the text inside every ICU plural or select branch is counted. ' +
  'Then every Han ideograph, Hiragana, Katakana (including halfwidth forms and the long-vowel mark) and Hangul syllable counts as one word, as translation vendors count CJK text by character. ' +
  'The remaining text counts one word per whitespace-separated run that contains at least one letter or digit in any script, so punctuation on its own is not a word. An empty string has 0 words.';

// Hangul: precomposed syllables only; loose jamo are not syllables. Katakana script leaves out the long-vowel marks (ー, ｰ), which are Common script but spelled inside Katakana words.
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC\uFF70\uAC00-\uD7A3]/gu;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Words in `text` per WORD_COUNT_RULE. */
export function countWords(text: string): number {
  if (text === '') return 0;
  let literal = '';
  for (const s of tokenize(text)) literal += s.kind === 'text' ? s.value : ' ';
  let cjk = 0;
  const rest = literal.replace(CJK_CHAR, () => {
    cjk++;
    return ' ';
  });
  let words = 0;
  for (const run of rest.split(/\s+/u)) {
    if (HAS_LETTER_OR_DIGIT.test(run)) words++;
  }
  return cjk + words;
}
