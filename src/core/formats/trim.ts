/*
 * Trimming a set of characters from the ends of a string in one pass. A regex such as /[ \t\r\n]+$/ is quadratic on a
 * long run of those characters that is not at the end (the engine retries the run from each of its positions), which
 * made a 460 KB run of spaces inside an Android <string> take 46 s to parse.
 */

const XML_SPACE = ' \t\r\n';

/** `text` without the characters of `chars` at its end. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the characters of `chars` at either end. */
export function trimOf(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start]!)) start++;
  return trimEndOf(text.slice(start), chars);
}

/** `text` without XML white space (space, tab, CR, LF) at its end. */
export const trimXmlSpaceEnd = (text: string): string => trimEndOf(text, XML_SPACE);
