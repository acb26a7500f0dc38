// Inline content of a Markdown block, read as far as the markdown codec needs: what a reader sees of it (for letters and heading slugs), and where its first node starts.
//
// The rules are CommonMark 0.31's with GFM footnote calls and task-list checks, as micromark applies them: code spans,
// autolinks, inline HTML, links and images (inline, full, collapsed and shortcut references), escapes, character
// references, hard breaks and emphasis. Each construct is found with bounded look-ahead (searches for a closing marker
// go through sorted positions found once), so reading is linear in the content's length.
import { HTML_ENTITIES } from './html-entities.js';
import { ForwardSearch, normalizeLabel, type LineRanges } from './markdown-blocks.js';

export interface InlineContext {
  /** Normalized labels of the document's link reference definitions. */
  definitions: ReadonlySet<string>;
  /** Normalized labels of the document's footnote definitions. */
  footnotes: ReadonlySet<string>;
}

export interface InlineSummary {
  /** Whether text a reader sees holds a letter: text, link text and image descriptions; not code, HTML or URLs. */
  letters: boolean;
  /** The content's text as mdast's phrasing nodes give it: text, inline code, image descriptions, breaks as spaces. */
  plain: string;
  /** Offset where the first inline node starts: the content's start, or after a task-list check. */
  start: number;
  /** Set when a task-list check (`[ ]`, `[x]`) opens the content. */
  checked: boolean | undefined;
}

/** Reads the inline content on `lines` of `text`; `task` when a task-list check may open it (a list item's first paragraph). */
export function readInline(text: string, lines: LineRanges, context: InlineContext, task: boolean): InlineSummary {
  if (lines.length === 2) {
    // Most blocks are one line of plain text: nothing to parse.
    const src = text.slice(lines[0], lines[1]);
    if (!MARKUP.test(src)) return { letters: LETTER.test(src), plain: src, start: lines[0]!, checked: undefined };
  }
  return new InlineReader(text, lines, context).read(task);
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const QUOTE = 0x22;
const HASH = 0x23;
const AMP = 0x26;
const APOSTROPHE = 0x27;
const LPAREN = 0x28;
const RPAREN = 0x29;
const STAR = 0x2a;
const PLUS = 0x2b;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const AT = 0x40;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const CARET = 0x5e;
const UNDERSCORE = 0x5f;
const BACKTICK = 0x60;
const TILDE = 0x7e;

const isSpace = (c: number): boolean => c === SPACE || c === TAB;
const isLineEnding = (c: number): boolean => c === LF || c === CR;
const isWhitespace = (c: number): boolean => isSpace(c) || isLineEnding(c);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isAsciiAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAsciiAlphanumeric = (c: number): boolean => isDigit(c) || isAsciiAlpha(c);
const isAsciiPunctuation = (c: number): boolean =>
  (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
const isControl = (c: number): boolean => c < SPACE || c === 0x7f;
/** Characters an e-mail autolink's local part may hold, as micromark reads them (`!` is not one). */
const isAtext = (c: number): boolean =>
  (c >= 0x23 && c <= 0x27) || c === STAR || c === PLUS || (c >= DASH && c <= 0x39) || c === EQUALS || c === QUESTION || (c >= 0x41 && c <= 0x5a) || (c >= CARET && c <= TILDE);

const LETTER = /\p{L}/u;
/** Characters that may start inline syntax (or end a line), outside which content is plain text. */
const MARKUP = /[\\`<&*_[\]!\r\n]/;
const UNICODE_WHITESPACE = /\s/;
const UNICODE_PUNCTUATION = /\p{P}|\p{S}/u;
const LABEL_MAX = 999;
/** Nesting of parentheses an inline link's bare destination may have. */
const DESTINATION_BALANCE_MAX = 32;

/** Emphasis flanking classes: whitespace (the content's edges included), punctuation, or other. */
const enum Flank {
  Whitespace,
  Punctuation,
  Other,
}

function flank(code: number): Flank {
  if (code === -1 || isWhitespace(code)) return Flank.Whitespace;
  // micromark classifies UTF-16 code units, so a character outside the BMP counts as neither.
  const char = String.fromCharCode(code);
  if (UNICODE_WHITESPACE.test(char)) return Flank.Whitespace;
  return UNICODE_PUNCTUATION.test(char) ? Flank.Punctuation : Flank.Other;
}

/** A run of `*` or `_`; matching emphasis takes characters from its start (closing) and its end (opening). */
interface Delimiter {
  kind: 'delimiter';
  start: number;
  char: number;
  length: number;
  canOpen: boolean;
  canClose: boolean;
  /** Characters left for matching. */
  remaining: number;
  /** Characters taken at the start by a closing match, and at the end by an opening one. */
  closing: number;
  opening: number;
  previous: Delimiter | undefined;
  next: Delimiter | undefined;
}

interface TextNode {
  kind: 'text';
  start: number;
  value: string;
}

interface LiteralNode {
  kind: 'code' | 'html';
  start: number;
  value: string;
}

interface MarkNode {
  kind: 'break' | 'footnote';
  start: number;
}

interface ParentNode {
  kind: 'link' | 'image' | 'linkReference' | 'imageReference';
  start: number;
  children: InlineNode[];
}

type InlineNode = TextNode | LiteralNode | MarkNode | ParentNode | Delimiter;

/** A `[` or `![` that may open a link or image. */
interface Bracket {
  image: boolean;
  /** Offset of `[`. */
  start: number;
  /** Index of its text node among the nodes. */
  node: number;
  /** The last delimiter before it: those after it belong inside. */
  delimiters: Delimiter | undefined;
}

/** Sorted offsets of characters that no backslash escapes, for finding a closing marker without rescanning. */
class Positions {
  private readonly at: number[] = [];

  constructor(src: string, ...chars: number[]) {
    let backslashes = 0;
    for (let i = 0; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (chars.includes(c) && backslashes % 2 === 0) this.at.push(i);
      backslashes = c === BACKSLASH ? backslashes + 1 : 0;
    }
  }

  /** The first offset at or after `from`, or -1. */
  next(from: number): number {
    const at = this.at;
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < at.length ? at[lo]! : -1;
  }

  /** Whether one lies strictly between `from` and `to`. */
  between(from: number, to: number): boolean {
    const next = this.next(from + 1);
    return next >= 0 && next < to;
  }
}

class InlineReader {
  /** The content: the lines' text joined by the document's line endings. */
  private readonly src: string;
  /** Where each line starts in `src`, and in the document. */
  private readonly srcStarts: number[] = [];
  private readonly docStarts: number[] = [];

  private nodes: InlineNode[] = [];
  private readonly brackets: Bracket[] = [];
  /** Link brackets below this index in `brackets` cannot open links any more (a link formed after them). */
  private linksInactiveBelow = 0;
  /** The last `[`, `![`, link, image or footnote call, for micromark's `![^label]` footnote calls. */
  private lastLabel: number | Bracket = -1;
  private delimiters: Delimiter | undefined;
  /** Start of the plain text not yet made a node. */
  private run = 0;

  private positions: Map<number, Positions> | undefined;
  private searches: Map<string, ForwardSearch> | undefined;
  /** Offsets of `[` and `]` no backslash escapes. */
  private bracketPositions: Positions | undefined;
  private backtickRuns: Map<number, { starts: number[]; next: number }> | undefined;

  constructor(
    private readonly text: string,
    lines: LineRanges,
    private readonly context: InlineContext,
  ) {
    const parts: string[] = [];
    let length = 0;
    for (let k = 0; k < lines.length; k += 2) {
      const start = lines[k]!;
      const end = lines[k + 1]!;
      this.srcStarts.push(length);
      this.docStarts.push(start);
      let part = text.slice(start, end);
      if (k + 2 < lines.length) part += text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? '\r\n' : text[end];
      parts.push(part);
      length += part.length;
    }
    this.src = parts.length === 1 ? parts[0]! : parts.join('');
  }

  read(task: boolean): InlineSummary {
    const src = this.src;
    let from = 0;
    let checked: boolean | undefined;
    if (task) {
      const end = this.taskCheck();
      if (end > 0) {
        checked = src.charCodeAt(1) === 0x58 || src.charCodeAt(1) === 0x78;
        from = end;
      }
    }
    this.scan(from);
    const summary: InlineSummary = { letters: false, plain: '', start: 0, checked };
    this.summarize(this.nodes, summary);
    summary.start = this.firstStart(this.nodes, checked !== undefined);
    return summary;
  }

  // ——— Offsets ———

  private code(i: number): number {
    return i < this.src.length ? this.src.charCodeAt(i) : -1;
  }

  private docOffset(at: number): number {
    const starts = this.srcStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return this.docStarts[lo]! + at - starts[lo]!;
  }

  private unescaped(char: number): Positions {
    this.positions ??= new Map();
    let positions = this.positions.get(char);
    if (!positions) {
      positions = new Positions(this.src, char);
      this.positions.set(char, positions);
    }
    return positions;
  }

  private search(needle: string, from: number): number {
    this.searches ??= new Map();
    let search = this.searches.get(needle);
    if (!search) {
      const src = this.src;
      search = new ForwardSearch((at) => src.indexOf(needle, at));
      this.searches.set(needle, search);
    }
    return search.next(from);
  }

  /** Length of the line ending at `i`, or 0. */
  private lineEnding(i: number): number {
    const c = this.code(i);
    if (c === CR) return this.code(i + 1) === LF ? 2 : 1;
    return c === LF ? 1 : 0;
  }

  // ——— Task-list check ———

  /** `[ ]`, `[x]` or `[X]` opening a list item's first paragraph, followed by whitespace and more: the offset after `]`. */
  private taskCheck(): number {
    if (this.code(0) !== LBRACKET) return 0;
    const value = this.code(1);
    let close = 2;
    if (value === TAB) {
      // The tab must fill one column only: the rest of a wider one would stand before the `]`.
      if (this.columnAt(1) % 4 !== 3) return 0;
    } else if (isLineEnding(value)) {
      close = 1 + this.lineEnding(1);
    } else if (value !== SPACE && value !== 0x58 && value !== 0x78) {
      return 0;
    }
    if (this.code(close) !== RBRACKET) return 0;
    const after = close + 1;
    if (this.lineEnding(after)) return after;
    if (!isSpace(this.code(after))) return 0;
    let i = after;
    while (isSpace(this.code(i))) i++;
    return i < this.src.length ? after : 0;
  }

  /** The column (tabs to multiples of four) of an offset on the content's first line. */
  private columnAt(at: number): number {
    const doc = this.docOffset(at);
    let lineStart = doc;
    while (lineStart > 0 && !isLineEnding(this.text.charCodeAt(lineStart - 1))) lineStart--;
    let column = 0;
    for (let i = lineStart; i < doc; i++) column = this.text.charCodeAt(i) === TAB ? column + 4 - (column % 4) : column + 1;
    return column;
  }

  // ——— Scanning ———

  private scan(from: number): void {
    const src = this.src;
    const n = src.length;
    this.run = from;
    let i = from;
    while (i < n) {
      const c = src.charCodeAt(i);
      let next = -1;
      switch (c) {
        case BACKSLASH:
          next = this.backslash(i);
          break;
        case BACKTICK:
          next = this.codeSpan(i);
          break;
        case LT:
          next = this.autolink(i);
          if (next < 0) next = this.inlineHtml(i);
          break;
        case AMP:
          next = this.characterReference(i);
          break;
        case STAR:
        case UNDERSCORE:
          next = this.delimiterRun(i);
          break;
        case LBRACKET:
          next = this.footnoteCall(i);
          if (next < 0) next = this.openBracket(i, false);
          break;
        case BANG:
          if (this.code(i + 1) === LBRACKET) next = this.openBracket(i, true);
          break;
        case RBRACKET:
          next = this.closeBracket(i);
          break;
        case LF:
        case CR:
          next = this.lineBreak(i);
          break;
      }
      i = next < 0 ? i + 1 : next;
    }
    this.flush(n);
    this.processEmphasis(undefined);
  }

  /** Makes the plain text from the run's start to `end` a node. */
  private flush(end: number): void {
    if (end > this.run) this.nodes.push({ kind: 'text', start: this.run, value: this.src.slice(this.run, end) });
    this.run = end;
  }

  private push(node: InlineNode, end: number): number {
    this.nodes.push(node);
    this.run = end;
    return end;
  }

  private backslash(i: number): number {
    const next = this.code(i + 1);
    if (isLineEnding(next)) {
      this.flush(i);
      return this.push({ kind: 'break', start: i }, i + 1 + this.lineEnding(i + 1));
    }
    if (next === -1 || !isAsciiPunctuation(next)) return -1;
    this.flush(i);
    return this.push({ kind: 'text', start: i, value: String.fromCharCode(next) }, i + 2);
  }

  /** A line ending: trailing spaces before it make a hard break (two or more, no tabs) or are dropped. */
  private lineBreak(i: number): number {
    const src = this.src;
    let j = i;
    let tabs = false;
    while (j > this.run && isSpace(src.charCodeAt(j - 1))) {
      if (src.charCodeAt(j - 1) === TAB) tabs = true;
      j--;
    }
    this.flush(j);
    const after = i + this.lineEnding(i);
    if (i - j >= 2 && !tabs) return this.push({ kind: 'break', start: j }, after);
    // A soft line ending is text, and starts the next run.
    this.run = i;
    return after;
  }

  private codeSpan(i: number): number {
    const src = this.src;
    let end = i;
    while (this.code(end) === BACKTICK) end++;
    const size = end - i;
    const close = this.backtickRun(size, end);
    if (close < 0) return end;
    this.flush(i);
    let content = src.slice(end, close);
    const edge = (c: number): boolean => c === SPACE || isLineEnding(c);
    if (content.length > 0 && edge(content.charCodeAt(0)) && edge(content.charCodeAt(content.length - 1)) && /[^ \r\n]/.test(content)) {
      const head = content.startsWith('\r\n') ? 2 : 1;
      const tail = content.endsWith('\r\n') ? 2 : 1;
      content = content.slice(head, content.length - tail);
    }
    return this.push({ kind: 'code', start: i, value: content }, close + size);
  }

  /** Start of the first run of exactly `size` backticks at or after `from`, or -1. */
  private backtickRun(size: number, from: number): number {
    if (!this.backtickRuns) {
      const runs = new Map<number, { starts: number[]; next: number }>();
      const src = this.src;
      for (let i = 0; i < src.length; ) {
        if (src.charCodeAt(i) !== BACKTICK) {
          i++;
          continue;
        }
        let end = i;
        while (src.charCodeAt(end) === BACKTICK) end++;
        let entry = runs.get(end - i);
        if (!entry) runs.set(end - i, (entry = { starts: [], next: 0 }));
        entry.starts.push(i);
        i = end;
      }
      this.backtickRuns = runs;
    }
    const entry = this.backtickRuns.get(size);
    if (!entry) return -1;
    while (entry.next < entry.starts.length && entry.starts[entry.next]! < from) entry.next++;
    return entry.next < entry.starts.length ? entry.starts[entry.next]! : -1;
  }

  /** `<scheme:…>` or `<local@domain>`. */
  private autolink(i: number): number {
    let j = i + 1;
    const first = this.code(j);
    if (first === AT) return -1;
    let email = true;
    if (isAsciiAlpha(first)) {
      j++;
      let scheme = 1;
      while (scheme < 32 && (isAsciiAlphanumeric(this.code(j)) || this.code(j) === PLUS || this.code(j) === DASH || this.code(j) === DOT)) {
        j++;
        scheme++;
      }
      if (scheme >= 2 && this.code(j) === COLON) {
        email = false;
        j++;
        for (;;) {
          const c = this.code(j);
          if (c === GT) break;
          if (c === -1 || c === SPACE || c === LT || isControl(c)) return -1;
          j++;
        }
      } else {
        j = i + 1;
      }
    }
    if (email) {
      while (isAtext(this.code(j))) j++;
      if (j === i + 1 || this.code(j) !== AT) return -1;
      j++;
      for (;;) {
        if (!isAsciiAlphanumeric(this.code(j))) return -1;
        let size = 0;
        for (;;) {
          const c = this.code(j);
          if (c === DASH || isAsciiAlphanumeric(c)) {
            if (size++ >= 63) return -1;
            j++;
            continue;
          }
          break;
        }
        if (this.code(j - 1) === DASH) return -1;
        if (this.code(j) === DOT) {
          j++;
          continue;
        }
        if (this.code(j) === GT) break;
        return -1;
      }
    }
    this.flush(i);
    const value = this.src.slice(i + 1, j);
    return this.push({ kind: 'link', start: i, children: [{ kind: 'text', start: i + 1, value }] }, j + 1);
  }

  /** Inline HTML: a comment, processing instruction, declaration, CDATA section, or open or closing tag. */
  private inlineHtml(i: number): number {
    const end = this.htmlEnd(i);
    if (end < 0) return -1;
    this.flush(i);
    return this.push({ kind: 'html', start: i, value: this.src.slice(i, end) }, end);
  }

  private htmlEnd(i: number): number {
    const c = this.code(i + 1);
    if (c === BANG) {
      const d = this.code(i + 2);
      if (d === DASH) {
        if (this.code(i + 3) !== DASH) return -1;
        const at = this.search('-->', i + 2);
        return at < 0 ? -1 : at + 3;
      }
      if (d === LBRACKET) {
        if (!this.src.startsWith('CDATA[', i + 3)) return -1;
        const at = this.search(']]>', i + 9);
        return at < 0 ? -1 : at + 3;
      }
      if (!isAsciiAlpha(d)) return -1;
      const at = this.search('>', i + 3);
      return at < 0 ? -1 : at + 1;
    }
    if (c === QUESTION) {
      const at = this.search('?>', i + 2);
      return at < 0 ? -1 : at + 2;
    }
    let j = i + 1;
    const closing = c === SLASH;
    if (closing) j++;
    if (!isAsciiAlpha(this.code(j))) return -1;
    while (this.code(j) === DASH || isAsciiAlphanumeric(this.code(j))) j++;
    if (closing) {
      while (isWhitespace(this.code(j))) j++;
      return this.code(j) === GT ? j + 1 : -1;
    }
    const tagEnd = this.code(j);
    if (tagEnd !== SLASH && tagEnd !== GT && !isWhitespace(tagEnd)) return -1;
    // Attributes, as micromark's states read them.
    let state: 'between' | 'name-after' | 'value-before' = 'between';
    for (;;) {
      const k = this.code(j);
      if (state === 'between') {
        if (k === SLASH) return this.code(j + 1) === GT ? j + 2 : -1;
        if (k === COLON || k === UNDERSCORE || isAsciiAlpha(k)) {
          j++;
          for (;;) {
            const a = this.code(j);
            if (a === DASH || a === DOT || a === COLON || a === UNDERSCORE || isAsciiAlphanumeric(a)) j++;
            else break;
          }
          state = 'name-after';
        } else if (isWhitespace(k)) {
          j++;
        } else {
          return k === GT ? j + 1 : -1;
        }
      } else if (state === 'name-after') {
        if (k === EQUALS) {
          j++;
          state = 'value-before';
        } else if (isWhitespace(k)) {
          j++;
        } else {
          state = 'between';
        }
      } else {
        if (k === -1 || k === LT || k === EQUALS || k === GT || k === BACKTICK) return -1;
        if (isWhitespace(k)) {
          j++;
        } else if (k === QUOTE || k === APOSTROPHE) {
          // Attribute values know no escapes.
          const close = this.search(String.fromCharCode(k), j + 1);
          if (close < 0) return -1;
          j = close + 1;
          const after = this.code(j);
          if (after !== SLASH && after !== GT && !isWhitespace(after)) return -1;
          state = 'between';
        } else {
          for (;;) {
            const v = this.code(j);
            if (v === -1 || v === QUOTE || v === APOSTROPHE || v === LT || v === EQUALS || v === BACKTICK) return -1;
            if (v === SLASH || v === GT || isWhitespace(v)) break;
            j++;
          }
          state = 'between';
        }
      }
    }
  }

  /** `&name;`, `&#digits;` or `&#xhex;`, decoded into a text node. */
  private characterReference(i: number): number {
    let j = i + 1;
    let value: string | undefined;
    if (this.code(j) === HASH) {
      j++;
      const hex = this.code(j) === 0x58 || this.code(j) === 0x78;
      if (hex) j++;
      const digitsStart = j;
      const test = hex ? isHexDigit : isDigit;
      while (test(this.code(j)) && j - digitsStart < (hex ? 6 : 7)) j++;
      if (j === digitsStart || this.code(j) !== SEMICOLON) return -1;
      value = decodeNumericReference(Number.parseInt(this.src.slice(digitsStart, j), hex ? 16 : 10));
    } else {
      while (isAsciiAlphanumeric(this.code(j)) && j - (i + 1) < 31) j++;
      if (j === i + 1 || this.code(j) !== SEMICOLON) return -1;
      const name = this.src.slice(i + 1, j);
      if (!Object.hasOwn(HTML_ENTITIES, name)) return -1;
      value = HTML_ENTITIES[name];
    }
    this.flush(i);
    return this.push({ kind: 'text', start: i, value: value! }, j + 1);
  }

  // ——— Emphasis ———

  private delimiterRun(i: number): number {
    const char = this.code(i);
    let end = i;
    while (this.code(end) === char) end++;
    const previous = i > 0 ? this.code(i - 1) : -1;
    const following = this.code(end);
    const before = flank(previous);
    const after = flank(following);
    // micromark: a neighbouring `~` (GFM strikethrough) also lets a run open or close.
    const open = after === Flank.Other || (after === Flank.Punctuation && before !== Flank.Other) || following === TILDE;
    const close = before === Flank.Other || (before === Flank.Punctuation && after !== Flank.Other) || previous === TILDE;
    const length = end - i;
    this.flush(i);
    const delimiter: Delimiter = {
      kind: 'delimiter',
      start: i,
      char,
      length,
      canOpen: char === STAR ? open : open && (before !== Flank.Other || !close),
      canClose: char === STAR ? close : close && (after !== Flank.Other || !open),
      remaining: length,
      closing: 0,
      opening: 0,
      previous: this.delimiters,
      next: undefined,
    };
    if (this.delimiters) this.delimiters.next = delimiter;
    this.delimiters = delimiter;
    return this.push(delimiter, end);
  }

  /**
   * Matches the delimiters after `bottom` (all, when undefined) into emphasis, as micromark does: each closing run, in
   * order, takes the nearest opening run of its character before it; the rule of three uses the runs' remaining sizes.
   * Runs between a match's ends cannot match any more, and none after `bottom` can once this returns.
   */
  private processEmphasis(bottom: Delimiter | undefined): void {
    if (this.delimiters === bottom) return;
    // Where an earlier search for an opener stopped, by closer kind, so no search walks the same runs twice.
    const floors = new Map<string, Delimiter | undefined>();
    let closer = bottom ? bottom.next : this.firstDelimiter();
    while (closer) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = `${closer.char}:${closer.canOpen}:${closer.remaining % 3}`;
      const floor = floors.has(key) ? floors.get(key) : bottom;
      let opener = closer.previous;
      while (opener && opener !== floor && !this.matches(opener, closer)) opener = opener.previous;
      if (!opener || opener === floor) {
        floors.set(key, closer.previous);
        const next: Delimiter | undefined = closer.next;
        if (!closer.canOpen) this.unlink(closer);
        closer = next;
        continue;
      }
      const use = opener.remaining > 1 && closer.remaining > 1 ? 2 : 1;
      opener.remaining -= use;
      opener.opening += use;
      closer.remaining -= use;
      closer.closing += use;
      // Runs between the two can no longer match.
      opener.next = closer;
      closer.previous = opener;
      if (opener.remaining === 0) this.unlink(opener);
      if (closer.remaining === 0) {
        const next: Delimiter | undefined = closer.next;
        this.unlink(closer);
        closer = next;
      }
    }
    if (bottom) bottom.next = undefined;
    this.delimiters = bottom;
  }

  private matches(opener: Delimiter, closer: Delimiter): boolean {
    if (!opener.canOpen || opener.char !== closer.char) return false;
    // The rule of three: a run that can both open and close matches only if the sizes do not sum to a multiple of 3.
    return !((opener.canClose || closer.canOpen) && closer.remaining % 3 !== 0 && (opener.remaining + closer.remaining) % 3 === 0);
  }

  private firstDelimiter(): Delimiter | undefined {
    let first = this.delimiters;
    while (first?.previous) first = first.previous;
    return first;
  }

  private unlink(delimiter: Delimiter): void {
    if (delimiter.previous) delimiter.previous.next = delimiter.next;
    if (delimiter.next) delimiter.next.previous = delimiter.previous;
    if (this.delimiters === delimiter) this.delimiters = delimiter.previous;
  }

  // ——— Links, images and footnote calls ———

  /** `[^label]` naming a defined footnote. */
  private footnoteCall(i: number): number {
    if (this.code(i + 1) !== CARET) return -1;
    let j = i + 2;
    let size = 0;
    for (;;) {
      const c = this.code(j);
      if (size > LABEL_MAX || c === -1 || c === LBRACKET || isWhitespace(c) || (c === RBRACKET && size === 0)) return -1;
      if (c === RBRACKET) break;
      j++;
      size++;
      if (c === BACKSLASH && (this.code(j) === LBRACKET || this.code(j) === BACKSLASH || this.code(j) === RBRACKET)) {
        j++;
        size++;
      }
    }
    if (!this.footnoteLabel(i + 1, j)) return -1;
    this.flush(i);
    this.lastLabel = i;
    return this.push({ kind: 'footnote', start: i }, j + 1);
  }

  private openBracket(i: number, image: boolean): number {
    const end = i + (image ? 2 : 1);
    this.flush(i);
    const bracket: Bracket = { image, start: end - 1, node: this.nodes.length, delimiters: this.delimiters };
    this.brackets.push(bracket);
    this.lastLabel = bracket;
    this.nodes.push({ kind: 'text', start: i, value: this.src.slice(i, end) });
    this.run = end;
    return end;
  }

  private closeBracket(i: number): number {
    const brackets = this.brackets;
    const bracket = brackets[brackets.length - 1];
    if (!bracket) return -1;
    if (!bracket.image && brackets.length - 1 < this.linksInactiveBelow) {
      brackets.pop();
      this.linksInactiveBelow = brackets.length;
      return -1;
    }
    const defined = this.defined(bracket.start, i);
    let end = -1;
    let reference = false;
    const after = this.code(i + 1);
    if (after === LPAREN) {
      end = this.resource(i + 1);
      if (end < 0 && defined) [end, reference] = [i + 1, true];
    } else if (after === LBRACKET) {
      const close = this.referenceLabel(i + 1);
      if (close >= 0 && this.defined(i + 1, close)) [end, reference] = [close + 1, true];
      else if (defined && this.code(i + 2) === RBRACKET) [end, reference] = [i + 3, true];
    } else if (defined) {
      [end, reference] = [i + 1, true];
    }
    brackets.pop();
    this.linksInactiveBelow = Math.min(this.linksInactiveBelow, brackets.length);
    if (end < 0) {
      if (bracket.image && this.lastLabel === bracket && this.footnoteLabel(bracket.start + 1, i)) {
        // micromark reads `![^label]` naming a footnote as `!` and a footnote call.
        this.nodes.length = bracket.node + 1;
        (this.nodes[bracket.node] as TextNode).value = '!';
        this.nodes.push({ kind: 'footnote', start: bracket.start });
        if (bracket.delimiters) bracket.delimiters.next = undefined;
        this.delimiters = bracket.delimiters;
        this.lastLabel = bracket.start;
        this.run = i + 1;
        return i + 1;
      }
      return -1;
    }
    this.flush(i);
    this.processEmphasis(bracket.delimiters);
    const children = this.nodes.splice(bracket.node + 1);
    this.nodes.pop();
    const kind = bracket.image ? (reference ? 'imageReference' : 'image') : reference ? 'linkReference' : 'link';
    const start = bracket.image ? bracket.start - 1 : bracket.start;
    this.nodes.push({ kind, start, children });
    this.lastLabel = bracket;
    if (!bracket.image) this.linksInactiveBelow = brackets.length;
    this.run = end;
    return end;
  }

  /** Whether `^label` from `start` to `end` names a footnote. */
  private footnoteLabel(start: number, end: number): boolean {
    return this.code(start) === CARET && this.context.footnotes.has(normalizeLabel(this.src.slice(start + 1, end)));
  }

  /** Whether the label between `[` at `open` and `]` at `close` names a link reference definition. */
  private defined(open: number, close: number): boolean {
    if (this.context.definitions.size === 0) return false;
    // A definition's label holds no unescaped bracket, so a label that does cannot match one.
    this.bracketPositions ??= new Positions(this.src, LBRACKET, RBRACKET);
    if (this.bracketPositions.between(open, close)) return false;
    return this.context.definitions.has(normalizeLabel(this.src.slice(open + 1, close)));
  }

  /** A link label `[…]` at `i`: the offset of its `]`, or -1. */
  private referenceLabel(i: number): number {
    let j = i + 1;
    let size = 0;
    let seen = false;
    for (;;) {
      const c = this.code(j);
      if (size > LABEL_MAX || c === -1 || c === LBRACKET || (c === RBRACKET && !seen)) return -1;
      if (c === RBRACKET) return j;
      j++;
      if (isLineEnding(c)) continue;
      size++;
      if (!isSpace(c)) seen = true;
      if (c === BACKSLASH && (this.code(j) === LBRACKET || this.code(j) === BACKSLASH || this.code(j) === RBRACKET)) {
        j++;
        size++;
      }
    }
  }

  /** An inline link's `(destination "title")` at `i`: the offset after `)`, or -1. */
  private resource(i: number): number {
    let j = this.skipWhitespace(i + 1);
    if (this.code(j) === RPAREN) return j + 1;
    if (this.code(j) === LT) {
      j++;
      for (;;) {
        const c = this.code(j);
        if (c === GT) break;
        if (c === -1 || c === LT || isLineEnding(c)) return -1;
        j++;
        if (c === BACKSLASH && (this.code(j) === LT || this.code(j) === GT || this.code(j) === BACKSLASH)) j++;
      }
      j++;
    } else {
      const first = this.code(j);
      if (first === -1 || first === SPACE || first === RPAREN || isControl(first)) return -1;
      let balance = 0;
      for (;;) {
        const c = this.code(j);
        if (balance === 0 && (c === -1 || c === RPAREN || isWhitespace(c))) break;
        if (c === LPAREN && balance < DESTINATION_BALANCE_MAX) balance++;
        else if (c === RPAREN) balance--;
        else if (c === -1 || c === SPACE || c === LPAREN || isControl(c)) return -1;
        j++;
        if (c === BACKSLASH && (this.code(j) === LPAREN || this.code(j) === RPAREN || this.code(j) === BACKSLASH)) j++;
      }
    }
    if (isWhitespace(this.code(j))) {
      j = this.skipWhitespace(j);
      const open = this.code(j);
      if (open === QUOTE || open === APOSTROPHE || open === LPAREN) {
        const close = this.unescaped(open === LPAREN ? RPAREN : open).next(j + 1);
        if (close < 0) return -1;
        j = this.skipWhitespace(close + 1);
      }
    }
    return this.code(j) === RPAREN ? j + 1 : -1;
  }

  private skipWhitespace(i: number): number {
    let j = i;
    while (isWhitespace(this.code(j))) j++;
    return j;
  }

  // ——— Summary ———

  private summarize(nodes: readonly InlineNode[], out: InlineSummary): void {
    for (const node of nodes) {
      switch (node.kind) {
        case 'text':
          out.plain += node.value;
          if (!out.letters && LETTER.test(node.value)) out.letters = true;
          break;
        case 'delimiter':
          out.plain += String.fromCharCode(node.char).repeat(node.length - node.closing - node.opening);
          break;
        case 'code':
          out.plain += node.value;
          break;
        case 'break':
          out.plain += ' ';
          break;
        case 'link':
        case 'linkReference':
          this.summarize(node.children, out);
          break;
        case 'image': {
          const alt = altText(node.children);
          out.plain += alt;
          if (!out.letters && LETTER.test(alt)) out.letters = true;
          break;
        }
        // Inline HTML, footnote calls and image references show no text of their own here (as in mdast's phrasing).
      }
    }
  }

  /**
   * Where the first node starts. After a task-list check mdast drops the first character of the text node that follows
   * (the space); a text node that held only that character is dropped, and the next node comes first.
   */
  private firstStart(nodes: readonly InlineNode[], checked: boolean): number {
    if (!checked) return this.docOffset(0);
    const pieces = topLevelPieces(nodes);
    const first = pieces[0];
    if (!first) return 0;
    if (first.kind !== 'text') return this.docOffset(first.start);
    let length = 0;
    let k = 0;
    for (; k < pieces.length && pieces[k]!.kind === 'text'; k++) length += pieces[k]!.length;
    if (length > 1) return this.docOffset(first.start) + 1;
    const next = pieces[k];
    return next ? this.docOffset(next.start) : 0;
  }
}

/** Top-level nodes as text pieces (merged by mdast when adjacent), other nodes, and emphasis marks. */
function topLevelPieces(nodes: readonly InlineNode[]): { kind: 'text' | 'other'; start: number; length: number }[] {
  const pieces: { kind: 'text' | 'other'; start: number; length: number }[] = [];
  for (const node of nodes) {
    if (node.kind === 'text') {
      pieces.push({ kind: 'text', start: node.start, length: node.value.length });
    } else if (node.kind === 'delimiter') {
      // Characters taken by emphasis start or end an emphasis node; the rest are text.
      if (node.closing) pieces.push({ kind: 'other', start: node.start, length: 0 });
      const text = node.length - node.closing - node.opening;
      if (text) pieces.push({ kind: 'text', start: node.start + node.closing, length: text });
      if (node.opening) pieces.push({ kind: 'other', start: node.start + node.length - node.opening, length: 0 });
    } else {
      pieces.push({ kind: 'other', start: node.start, length: 0 });
    }
  }
  return pieces;
}

/** An image's description as mdast gives it: the text of its content, inline code and HTML included, breaks dropped. */
function altText(nodes: readonly InlineNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text' || node.kind === 'code' || node.kind === 'html') out += node.value;
    else if (node.kind === 'delimiter') out += String.fromCharCode(node.char).repeat(node.length - node.closing - node.opening);
    else if ('children' in node) out += altText(node.children);
  }
  return out;
}

/** micromark's decoding of `&#…;`: code points HTML does not allow become U+FFFD. */
function decodeNumericReference(code: number): string {
  if (
    code < 9 ||
    code === 11 ||
    (code > 13 && code < 32) ||
    (code > 126 && code < 160) ||
    (code > 55_295 && code < 57_344) ||
    (code > 64_975 && code < 65_008) ||
    (code & 65_535) === 65_535 ||
    (code & 65_535) === 65_534 ||
    code > 1_114_111
  ) {
    return '\uFFFD';
  }
  return String.fromCodePoint(code);
}
