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

  /** The last lookup, so that lookups moving forward along one long line count only the characters in between. */
  private lastLine = -1;
  private lastIndex = 0;
  private lastColumn = 1;

  /** 0-based number of the line holding `index`. */
  lineOf(index: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Index of the first character of the line holding `index`. */
  lineStartOf(index: number): number {
    return this.starts[this.lineOf(index)]!;
  }

  at(index: number): { line: number; column: number } {
    const line = this.lineOf(index);
    const start = this.starts[line]!;
    let from = start;
    let column = 1;
    if (line === this.lastLine && this.lastIndex <= index) {
      from = this.lastIndex;
      column = this.lastColumn;
    }
    // Columns count code points: the second half of a surrogate pair within the line is not a column of its own.
    const text = this.text;
    for (let i = from; i < index; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff && i > start) {
        const before = text.charCodeAt(i - 1);
        if (before >= 0xd800 && before <= 0xdbff) continue;
      }
      column++;
    }
    this.lastLine = line;
    this.lastIndex = index;
    this.lastColumn = column;
    // A position on the LF of a CRLF is still in the column of the CR.
    if (index > start && text.charCodeAt(index - 1) === 0x0d) column--;
    return { line: line + 1, column };
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
