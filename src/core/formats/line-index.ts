// Line and column lookups by index into a decoded text, for scanners whose parsers report offsets only.

/** Line starts of a text, for 1-based line and code-point column lookups; CRLF, LF and a lone CR each end a line. */
export class LineIndex {
  readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) this.starts.push(i + 1);
    }
  }

  at(index: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    const before = this.text.slice(this.starts[lo], index).replace(/\r$/, '');
    return { line: lo + 1, column: [...before].length + 1 };
  }
}

/** Index of the start of the line holding `index`. */
export function lineStart(text: string, index: number): number {
  let i = index;
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** Index just past the line break ending the line that holds index-1 (a position already at a line start stays). */
export function afterLineEnd(text: string, index: number): number {
  if (index > 0 && (text[index - 1] === '\n' || (text[index - 1] === '\r' && text[index] !== '\n'))) return index;
  let i = index;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  if (text[i] === '\r' && text[i + 1] === '\n') return i + 2;
  return i < text.length ? i + 1 : i;
}
