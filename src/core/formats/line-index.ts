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
    const text = this.text;
    column = columnOf(text, start, index, from, column);
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

const HIGH_SURROGATE = /[\uD800-\uDBFF]/g;

/**
 * Code-point columns for a scanner that walks a text forward and knows where each line starts: a line with no
 * surrogate pair before the index needs no counting, since its columns are then its code units.
 */
export class ColumnCounter {
  /** The first high surrogate at or after the start of the last line looked at (the text's length when none). */
  private nextPair = -1;
  private lastStart = -1;
  private lastIndex = 0;
  private lastColumn = 1;

  constructor(private readonly text: string) {}

  /** 1-based column of `index` on the line starting at `lineStart`, as `LineIndex.at` counts it within a line. */
  at(lineStart: number, index: number): number {
    const text = this.text;
    if (this.nextPair < lineStart) {
      HIGH_SURROGATE.lastIndex = lineStart;
      this.nextPair = HIGH_SURROGATE.exec(text)?.index ?? text.length;
    }
    if (this.nextPair >= index) return index - lineStart + 1;
    // Lookups moving forward along one line count only the characters in between, as LineIndex does.
    let from = lineStart;
    let column = 1;
    if (this.lastStart === lineStart && this.lastIndex <= index) {
      from = this.lastIndex;
      column = this.lastColumn;
    }
    column = columnOf(text, lineStart, index, from, column);
    this.lastStart = lineStart;
    this.lastIndex = index;
    this.lastColumn = column;
    return column;
  }
}

/**
 * Walks a text line by line, as scanners of line-based formats read it: LF, CRLF and a lone CR each end a line, and a
 * text that ends with a line break ends with an empty line.
 */
export class LineReader {
  /** 1-based number of the current line; 0 before the first. */
  line = 0;
  /** Index of the current line's first character. */
  start = 0;
  /** Index just past the current line's content, where its line break starts. */
  contentEnd = 0;
  /** Index of the next line's first character (the text's length on the last line). */
  next = 0;
  /** The first LF and CR at or after the current line's start (the text's length when there is none). */
  private nextLf = -1;
  private nextCr = -1;

  constructor(private readonly text: string) {}

  /** Whether the current line is the last one. */
  get last(): boolean {
    return this.contentEnd === this.text.length;
  }

  /** Moves to the next line (the first, on the first call); false when the current line was the last. */
  advance(): boolean {
    const t = this.text;
    if (this.line > 0) {
      if (this.last) return false;
      this.start = this.next;
    }
    const start = this.start;
    // Each search resumes past the last break found, so reading the whole text scans it once.
    if (this.nextLf < start) this.nextLf = indexOrEnd(t, '\n', start);
    if (this.nextCr < start) this.nextCr = indexOrEnd(t, '\r', start);
    this.line++;
    if (this.nextCr < this.nextLf) {
      this.contentEnd = this.nextCr;
      this.next = this.nextCr + (t.charCodeAt(this.nextCr + 1) === 0x0a ? 2 : 1);
    } else {
      this.contentEnd = this.nextLf;
      this.next = Math.min(this.nextLf + 1, t.length);
    }
    return true;
  }
}

/** Index of the next `char` at or after `from`, or the text's length. */
function indexOrEnd(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

/**
 * `LineIndex.at` for a scanner whose lookups move forward: it hops from line break to line break instead of indexing
 * every line first, and counts columns only where a line holds a surrogate pair. A lookup behind the last starts over.
 */
export class ForwardPositions {
  private line = 1;
  private lineStart = 0;
  /** Line breaks before this index have been counted. */
  private scanned = 0;
  private lines: LineReader;
  private readonly columns: ColumnCounter;

  constructor(private readonly text: string) {
    this.lines = new LineReader(text);
    this.columns = new ColumnCounter(text);
  }

  at(index: number): { line: number; column: number } {
    if (index < this.scanned) [this.line, this.lineStart, this.scanned, this.lines] = [1, 0, 0, new LineReader(this.text)];
    const lines = this.lines;
    while (lines.line === 0 || lines.next <= index) {
      if (!lines.advance()) break;
      this.line = lines.line;
      this.lineStart = lines.start;
    }
    this.scanned = index;
    const text = this.text;
    let column = this.columns.at(this.lineStart, index);
    // A position on the LF of a CRLF is still in the column of the CR.
    if (index > this.lineStart && text.charCodeAt(index - 1) === 0x0d) column--;
    return { line: this.line, column };
  }
}

/**
 * 1-based column of `index` on the line starting at `lineStart`, counting code points (the second half of a
 * surrogate pair within the line is not a column of its own); from `from`, whose column is `column`, where known.
 */
export function columnOf(text: string, lineStart: number, index: number, from = lineStart, column = 1): number {
  for (let i = from; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > lineStart) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) continue;
    }
    column++;
  }
  return column;
}
