import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/core/formats/line-index.js';

/** The position as the definition gives it: a line ends after LF, CRLF or a lone CR; columns count code points, and a
 * position on the LF of a CRLF is in the column of its CR. */
function expected(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < index; i++) {
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) [line, start] = [line + 1, i + 1];
  }
  return { line, column: [...text.slice(start, index).replace(/\r$/, '')].length + 1 };
}

describe('LineIndex', () => {
  const text = 'a😀b\r\nsecond 😀😀 line\rthird\n\nlast 😀';

  it('gives 1-based lines and code-point columns for every index, in any order of lookups', () => {
    const index = new LineIndex(text);
    const order = [...Array(text.length + 1).keys()];
    for (const sequence of [order, [...order].reverse(), order.filter((i) => i % 2 === 0).concat(order.filter((i) => i % 2 === 1))]) {
      for (const i of sequence) expect([i, index.at(i)]).toEqual([i, expected(text, i)]);
    }
  });

  it('counts a surrogate pair split by an earlier lookup once', () => {
    const index = new LineIndex(text);
    const inside = text.indexOf('😀') + 1;
    expect(index.at(inside)).toEqual({ line: 1, column: 3 });
    expect(index.at(inside + 1)).toEqual({ line: 1, column: 3 });
    expect(index.at(inside + 2)).toEqual({ line: 1, column: 4 });
  });

  it('finds line starts', () => {
    const index = new LineIndex(text);
    expect(index.lineStartOf(text.indexOf('line'))).toBe(text.indexOf('second'));
    expect(index.lineOf(text.length)).toBe(4);
  });
});
