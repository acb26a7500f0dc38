// The block structure of a Markdown document (CommonMark 0.31 with GFM tables, task lists and footnotes), in one pass over its lines.
//
// Like micromark, each line first continues or opens containers (block quotes, list items, footnote definitions), and
// its rest then continues or starts a leaf (paragraph, heading, table, code, HTML block, …). Only what the markdown
// codec translates is kept in detail: code, HTML blocks, link reference definitions and thematic breaks are opaque.
// Every step looks at each character a bounded number of times, so parsing is linear in the document's length.

/** Document offsets of inline content, as `[start, end]` pairs, one per line; the document's line endings lie between. */
export type LineRanges = number[];

export interface Paragraph {
  type: 'paragraph';
  lines: LineRanges;
  /** The first content of a list item, where a GFM task-list check (`[ ]`, `[x]`) may open the text. */
  taskCandidate: boolean;
}

export interface Heading {
  type: 'heading';
  setext: boolean;
  /** Empty for a heading without text (`#`). */
  lines: LineRanges;
}

export interface TableRow {
  /** Offset of the row's first character. */
  start: number;
  /** Each cell's content as `[start, end]`, or undefined for an empty cell. */
  cells: ([number, number] | undefined)[];
}

export interface Table {
  type: 'table';
  /** The header row, then the body rows (the delimiter row is not one). */
  rows: TableRow[];
}

export interface BlockQuote {
  type: 'quote';
  /** Offset of the first line's `>`. */
  marker: number;
  children: Block[];
}

export interface ListItem {
  type: 'item';
  /** Offset of the item's marker. */
  marker: number;
  /** The column (tabs to multiples of four) where the item's content starts. */
  column: number;
  children: Block[];
}

export interface FootnoteDefinition {
  type: 'footnote';
  /** Offset of the `[` of `[^label]:`. */
  label: number;
  children: Block[];
}

/** Code, an HTML block, a link reference definition or a thematic break: nothing to translate. */
export interface Opaque {
  type: 'opaque';
}

export type Block = Paragraph | Heading | Table | BlockQuote | ListItem | FootnoteDefinition | Opaque;

export interface FrontMatter {
  kind: 'yaml' | 'toml';
  /** Start of the line after the opening fence. */
  contentStart: number;
  /** Start of the closing fence's line. */
  closeStart: number;
}

export interface MarkdownBlocks {
  frontMatter: FrontMatter | undefined;
  blocks: Block[];
  /** Normalized labels of the link reference definitions. */
  definitions: Set<string>;
  /** Normalized labels of the footnote definitions. */
  footnotes: Set<string>;
}

export function parseMarkdownBlocks(text: string): MarkdownBlocks {
  return new BlockParser(text).parse();
}

/** A label as CommonMark compares them: whitespace runs as one space, trimmed, case-folded. */
export function normalizeLabel(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase();
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const HASH = 0x23;
const PLUS = 0x2b;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const COLON = 0x3a;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const CARET = 0x5e;
const UNDERSCORE = 0x5f;
const BACKTICK = 0x60;
const PIPE = 0x7c;
const TILDE = 0x7e;
const STAR = 0x2a;
const LPAREN = 0x28;
const RPAREN = 0x29;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

const isSpace = (c: number): boolean => c === SPACE || c === TAB;
const isDigit = (c: number): boolean => c >= ZERO && c <= NINE;
const isAsciiAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAsciiAlphanumeric = (c: number): boolean => isDigit(c) || isAsciiAlpha(c);
/** ASCII controls, tabs and line endings included, as destinations refuse them. */
const isControl = (c: number): boolean => c < SPACE || c === 0x7f;

/** Labels of link reference definitions and footnotes hold at most this many characters. */
const LABEL_MAX = 999;

// HTML block start conditions 1 and 6 (CommonMark §4.6), as micromark lists them.
const HTML_RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);
const HTML_BLOCK_NAMES = new Set([
  'address', 'article', 'aside', 'base', 'basefont', 'blockquote', 'body', 'caption', 'center', 'col', 'colgroup', 'dd',
  'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frame', 'frameset',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hr', 'html', 'iframe', 'legend', 'li', 'link', 'main', 'menu',
  'menuitem', 'nav', 'noframes', 'ol', 'optgroup', 'option', 'p', 'param', 'search', 'section', 'summary', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'title', 'tr', 'track', 'ul',
]);

/** Where an HTML block ends: at a blank line, or with the line holding a terminator. */
type HtmlEnd = 'blank' | 'raw' | '-->' | '?>' | '>' | ']]>';

interface QuoteContainer {
  kind: 'quote';
  node: BlockQuote;
}

interface ItemContainer {
  kind: 'item';
  node: ListItem;
  ordered: boolean;
  /** `-`, `+` or `*` for a bullet list, `.` or `)` for an ordered one: later items of the list use the same. */
  marker: number;
  /** Columns a continuation line must be indented by. */
  size: number;
  /** The item's first line has nothing after the marker. */
  initialBlank: boolean;
  /** A blank line followed the empty first line: the next non-blank line ends the item. */
  furtherBlank: boolean;
  /** No block has started in the item yet. */
  pending: boolean;
  /** Whether a paragraph starting now would be the item's first content, where a task-list check may stand. */
  taskEligible: boolean;
  /** Index of the line the item opened on. */
  openLine: number;
}

interface FootnoteContainer {
  kind: 'footnote';
  node: FootnoteDefinition;
}

type Container = QuoteContainer | ItemContainer | FootnoteContainer;

interface ParagraphLeaf {
  kind: 'paragraph';
  node: Paragraph;
  siblings: Block[];
  /** Whether the last line could be a table's header row (indented less than four columns). */
  headable: boolean;
}

type Leaf =
  | ParagraphLeaf
  | { kind: 'fenced'; marker: number; size: number }
  | { kind: 'indented' }
  | { kind: 'html'; end: HtmlEnd }
  | { kind: 'table'; node: Table };

/** The next match at or after an offset; queries moving forward reuse one search, so searching from every line stays linear. */
export class ForwardSearch {
  private from = 0;
  private at = -2;

  constructor(private readonly find: (from: number) => number) {}

  next(from: number): number {
    if (this.at === -2 || from < this.from || (this.at >= 0 && this.at < from)) {
      this.from = from;
      this.at = this.find(from);
    }
    return this.at;
  }
}

class BlockParser {
  private readonly root: Block[] = [];
  private readonly stack: Container[] = [];
  /** Stack indices of the block quotes, ascending: blank lines end at the first of them. */
  private readonly quotes: number[] = [];
  private leaf: Leaf | undefined;
  private readonly definitions = new Set<string>();
  private readonly footnotes = new Set<string>();
  private readonly searches = new Map<HtmlEnd, ForwardSearch>();
  /** Where a thematic break of `marker` may start on the current line: from `from` to `to`. */
  private breaks = { line: -1, marker: -1, from: 0, to: -1 };

  // The current line and the cursor in it. `col` counts columns with tabs to multiples of four; a tab can be partly
  // consumed (a container's optional space), in which case `i` still points at it.
  private lineNumber = -1;
  private lineStart = 0;
  private lineEnd = 0;
  /** End of the line without its trailing spaces and tabs. */
  private lineContentEnd = 0;
  private i = 0;
  private col = 0;

  constructor(private readonly text: string) {}

  parse(): MarkdownBlocks {
    const text = this.text;
    const frontMatter = this.frontMatter();
    let start = frontMatter ? this.nextLine(frontMatter.closeStart) : 0;
    while (start < text.length) {
      this.lineNumber++;
      let end = start;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (c === LF || c === CR) break;
        end++;
      }
      this.lineStart = start;
      this.lineEnd = end;
      let contentEnd = end;
      while (contentEnd > start && isSpace(text.charCodeAt(contentEnd - 1))) contentEnd--;
      this.lineContentEnd = contentEnd;
      this.line();
      start = this.nextLine(end);
    }
    this.closeLeaf();
    this.closeContainers(0);
    return { frontMatter, blocks: this.root, definitions: this.definitions, footnotes: this.footnotes };
  }

  /** Start of the line after the one holding `offset`. */
  private nextLine(offset: number): number {
    const text = this.text;
    let i = offset;
    while (i < text.length && text.charCodeAt(i) !== LF && text.charCodeAt(i) !== CR) i++;
    return text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
  }

  /** YAML (`---`) or TOML (`+++`) front matter: the fence alone on the first line, up to the same fence alone on a line. */
  private frontMatter(): FrontMatter | undefined {
    const text = this.text;
    const fence = text.slice(0, 3);
    if (fence !== '---' && fence !== '+++') return undefined;
    let i = 3;
    while (isSpace(text.charCodeAt(i))) i++;
    const c = text.charCodeAt(i);
    if (c !== LF && c !== CR) return undefined;
    const contentStart = this.nextLine(i);
    for (let start = contentStart; start < text.length; start = this.nextLine(start)) {
      if (!text.startsWith(fence, start)) continue;
      let j = start + 3;
      while (isSpace(text.charCodeAt(j))) j++;
      if (j === text.length || text.charCodeAt(j) === LF || text.charCodeAt(j) === CR) {
        return { kind: fence === '---' ? 'yaml' : 'toml', contentStart, closeStart: start };
      }
    }
    return undefined;
  }

  // ——— Cursor ———

  private code(i = this.i): number {
    return i < this.lineEnd ? this.text.charCodeAt(i) : -1;
  }

  /** Consumes one column of whitespace: a space, or a column of a tab. */
  private advance(): void {
    if (this.text.charCodeAt(this.i) === TAB) {
      this.col++;
      if (this.col % 4 === 0) this.i++;
    } else {
      this.col++;
      this.i++;
    }
  }

  /** Consumes up to `max` columns of whitespace; returns how many. */
  private skipColumns(max: number): number {
    let n = 0;
    while (n < max && isSpace(this.code())) {
      this.advance();
      n++;
    }
    return n;
  }

  private skipSpace(): void {
    while (isSpace(this.code())) {
      this.col = this.text.charCodeAt(this.i) === TAB ? this.col + 4 - (this.col % 4) : this.col + 1;
      this.i++;
    }
  }

  /** Columns of whitespace at the cursor. */
  private indent(): number {
    let i = this.i;
    let col = this.col;
    while (isSpace(this.code(i))) {
      col = this.text.charCodeAt(i) === TAB ? col + 4 - (col % 4) : col + 1;
      i++;
    }
    return col - this.col;
  }

  private restBlank(i = this.i): boolean {
    return i >= this.lineContentEnd;
  }

  private save(): [number, number] {
    return [this.i, this.col];
  }

  private restore([i, col]: [number, number]): void {
    this.i = i;
    this.col = col;
  }

  // ——— Lines ———

  private line(): void {
    this.i = this.lineStart;
    this.col = 0;
    const stack = this.stack;
    let matched = 0;
    let itemReplaced = false;
    while (matched < stack.length) {
      const container = stack[matched]!;
      if (this.restBlank()) {
        // A blank rest continues list items and footnotes, and ends at the first block quote.
        matched = this.quoteFrom(matched);
        const top = stack[stack.length - 1]!;
        if (top.kind === 'item' && matched === stack.length) top.furtherBlank ||= top.initialBlank;
        break;
      }
      if (container.kind === 'quote') {
        if (!this.quoteContinues()) break;
      } else if (container.kind === 'footnote') {
        const saved = this.save();
        if (this.skipColumns(4) !== 4) {
          this.restore(saved);
          break;
        }
      } else {
        const further = container.furtherBlank;
        container.furtherBlank = false;
        container.initialBlank = false;
        const saved = this.save();
        if (!further && isSpace(this.code()) && this.skipColumns(container.size) === container.size) {
          matched++;
          continue;
        }
        this.restore(saved);
        if (!this.nextItem(matched)) break;
        matched++;
        itemReplaced = true;
        break;
      }
      matched++;
    }

    const leaf = this.leaf;
    const allMatched = matched === stack.length;
    if (allMatched && !itemReplaced && (leaf?.kind === 'fenced' || leaf?.kind === 'html')) {
      this.flow(false, matched);
      return;
    }
    // Only a paragraph can be interrupted; containers opened after the first on a line start fresh.
    let interrupt = allMatched && !itemReplaced && leaf?.kind === 'paragraph';
    let opened = false;
    for (;;) {
      const saved = this.save();
      const startCol = this.col;
      this.skipColumns(3);
      const c = this.code();
      let open: (() => void) | undefined;
      if (c === GT) open = this.quoteStart();
      else if (c === DASH || c === PLUS || c === STAR || isDigit(c)) open = this.itemStart(startCol, interrupt, undefined);
      else if (c === LBRACKET) open = this.footnoteStart();
      if (!open) {
        this.restore(saved);
        break;
      }
      if (!opened) {
        this.closeLeaf();
        this.closeContainers(matched);
        opened = true;
      }
      const top = stack[stack.length - 1];
      if (top?.kind === 'item' && top.pending) top.pending = false;
      open();
      interrupt = false;
    }
    this.flow(!opened && !allMatched, opened ? stack.length : matched);
  }

  /** Stack index of the first block quote at or deeper than `depth`, or the stack's length. */
  private quoteFrom(depth: number): number {
    const quotes = this.quotes;
    let lo = 0;
    let hi = quotes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (quotes[mid]! < depth) lo = mid + 1;
      else hi = mid;
    }
    return lo < quotes.length ? quotes[lo]! : this.stack.length;
  }

  private quoteContinues(): boolean {
    const saved = this.save();
    this.skipColumns(3);
    if (this.code() !== GT) {
      this.restore(saved);
      return false;
    }
    this.i++;
    this.col++;
    if (isSpace(this.code())) this.advance();
    return true;
  }

  /** A `>` opening a block quote at the cursor. */
  private quoteStart(): (() => void) | undefined {
    const marker = this.i;
    this.i++;
    this.col++;
    if (isSpace(this.code())) this.advance();
    return () => {
      const node: BlockQuote = { type: 'quote', marker, children: [] };
      this.children().push(node);
      this.quotes.push(this.stack.length);
      this.stack.push({ kind: 'quote', node });
    };
  }

  /** `[^label]:` opening a footnote definition at the cursor. */
  private footnoteStart(): (() => void) | undefined {
    const text = this.text;
    const start = this.i;
    if (this.code(start + 1) !== CARET) return undefined;
    let i = start + 2;
    let size = 0;
    for (;;) {
      const c = this.code(i);
      if (size > LABEL_MAX || c === -1 || c === LBRACKET || isSpace(c) || (c === RBRACKET && size === 0)) return undefined;
      if (c === RBRACKET) break;
      i++;
      size++;
      if (c === BACKSLASH) {
        const next = this.code(i);
        if (next === LBRACKET || next === BACKSLASH || next === RBRACKET) {
          i++;
          size++;
        }
      }
    }
    if (this.code(i + 1) !== COLON) return undefined;
    const label = normalizeLabel(text.slice(start + 2, i));
    this.col += i + 2 - this.i;
    this.i = i + 2;
    this.skipSpace();
    return () => {
      this.footnotes.add(label);
      const node: FootnoteDefinition = { type: 'footnote', label: start, children: [] };
      this.children().push(node);
      this.stack.push({ kind: 'footnote', node });
    };
  }

  /**
   * A list item's marker at the cursor (after up to three columns of indentation that started at `startCol`): a new
   * list, or with `list` the next item of that list.
   */
  private itemStart(startCol: number, interrupt: boolean, list: ItemContainer | undefined): (() => void) | undefined {
    const c = this.code();
    const markerStart = this.i;
    let ordered: boolean;
    let marker: number;
    let markerEnd: number;
    if (c === DASH || c === PLUS || c === STAR) {
      if (list && (list.ordered || list.marker !== c)) return undefined;
      if (c !== PLUS && this.thematicBreakAt(this.i)) return undefined;
      ordered = false;
      marker = c;
      markerEnd = this.i + 1;
    } else if (isDigit(c)) {
      if (list && !list.ordered) return undefined;
      if (interrupt && c !== ONE) return undefined;
      let j = this.i;
      while (isDigit(this.code(j)) && j - this.i < 9) j++;
      if (interrupt && j - this.i > 1) return undefined;
      const delimiter = this.code(j);
      if (list ? delimiter !== list.marker : delimiter !== DOT && delimiter !== RPAREN) return undefined;
      ordered = true;
      marker = delimiter;
      markerEnd = j + 1;
    } else {
      return undefined;
    }
    this.col += markerEnd - this.i;
    this.i = markerEnd;
    const markerEndCol = this.col;
    let size: number;
    let column: number | undefined;
    let initialBlank = false;
    if (this.restBlank()) {
      if (interrupt) return undefined;
      initialBlank = true;
      size = markerEndCol - startCol + 1;
    } else {
      const saved = this.save();
      const spaces = this.skipColumns(4);
      if (spaces > 0 && !isSpace(this.code())) {
        size = markerEndCol - startCol + spaces;
      } else {
        this.restore(saved);
        if (!isSpace(this.code())) return undefined;
        this.advance();
        size = markerEndCol - startCol + 1;
        // The content (indented code) starts inside a tab; the codec has always put the item's column at its end.
        if (this.i < this.lineEnd && this.text.charCodeAt(this.i) === TAB && this.col % 4 !== 0) column = this.col + 4 - (this.col % 4);
      }
    }
    // An item whose first line holds only trailing whitespace is never a task item (micromark sees a blank line first).
    const taskEligible = !(initialBlank && this.i < this.lineEnd);
    return () => {
      const node: ListItem = { type: 'item', marker: markerStart, column: column ?? startCol + size, children: [] };
      this.children().push(node);
      this.stack.push({
        kind: 'item',
        node,
        ordered,
        marker,
        size,
        initialBlank,
        furtherBlank: false,
        pending: true,
        taskEligible,
        openLine: this.lineNumber,
      });
    };
  }

  /** The list item at `depth` ends; a marker of the same list on this line opens its next item in its place. */
  private nextItem(depth: number): boolean {
    const item = this.stack[depth] as ItemContainer;
    const saved = this.save();
    const startCol = this.col;
    this.skipColumns(3);
    const open = this.itemStart(startCol, false, item);
    if (!open) {
      this.restore(saved);
      return false;
    }
    this.closeLeaf();
    this.closeContainers(depth);
    open();
    return true;
  }

  /** The children of the innermost open container. */
  private children(): Block[] {
    const top = this.stack[this.stack.length - 1];
    return top ? top.node.children : this.root;
  }

  private closeContainers(depth: number): void {
    while (this.stack.length > depth) this.stack.pop();
    while (this.quotes.length && this.quotes[this.quotes.length - 1]! >= depth) this.quotes.pop();
  }

  // ——— Leaves ———

  /** The rest of the line, after the containers: `lazy` when it did not continue them all (and opened none). */
  private flow(lazy: boolean, depth: number): void {
    const leaf = this.leaf;
    if (leaf?.kind === 'paragraph') {
      if (this.restBlank()) {
        this.closeLeaf();
        if (lazy) this.closeContainers(depth);
        return;
      }
      if (!lazy && leaf.headable && this.tableDelimiter(leaf)) return;
      const indent = this.indent();
      const interruption = indent >= 4 ? undefined : this.interruption(lazy);
      if (interruption === undefined) {
        this.skipSpace();
        leaf.node.lines.push(this.i, this.lineEnd);
        leaf.headable = indent < 4;
        return;
      }
      if (interruption === 'setext') {
        this.skipSpace();
        if (this.closeParagraph(leaf, true)) return;
      } else {
        this.closeLeaf();
      }
      if (lazy) this.closeContainers(depth);
      this.startBlock(undefined);
      return;
    }
    if (leaf && lazy) {
      this.closeLeaf();
      this.closeContainers(depth);
      this.startBlock(undefined);
      return;
    }
    switch (leaf?.kind) {
      case 'fenced':
        if (this.closingFence(leaf.marker, leaf.size)) this.leaf = undefined;
        return;
      case 'html':
        if (leaf.end === 'blank' ? this.restBlank() : this.htmlEndsAt(leaf.end, this.i)) this.leaf = undefined;
        return;
      case 'indented':
        // Blank lines may still be inside the code; the next non-blank line decides.
        if (this.restBlank() || this.indent() >= 4) return;
        this.leaf = undefined;
        this.startBlock(undefined);
        return;
      case 'table':
        if (this.restBlank()) {
          this.leaf = undefined;
          return;
        }
        this.leaf = undefined;
        this.startBlock(leaf.node);
        return;
      default:
        if (lazy) this.closeContainers(depth);
        this.startBlock(undefined);
    }
  }

  /** A leaf starting at the cursor; after a table, a line that starts nothing else is the table's next row. */
  private startBlock(table: Table | undefined): void {
    const top = this.stack[this.stack.length - 1];
    const item = top?.kind === 'item' && top.pending ? top : undefined;
    if (this.restBlank()) {
      if (item && item.openLine !== this.lineNumber) item.taskEligible = false;
      return;
    }
    if (item) item.pending = false;
    const siblings = this.children();
    if (this.indent() >= 4) {
      siblings.push(OPAQUE);
      this.leaf = { kind: 'indented' };
      return;
    }
    this.skipSpace();
    const c = this.code();
    if (c === HASH) {
      const heading = this.atxHeading();
      if (heading) {
        siblings.push(heading);
        return;
      }
    }
    if ((c === STAR || c === DASH || c === UNDERSCORE) && this.thematicBreakAt(this.i)) {
      siblings.push(OPAQUE);
      return;
    }
    if (c === LT) {
      const end = this.htmlStart(false);
      if (end !== undefined) {
        siblings.push(OPAQUE);
        if (!this.htmlEndsOnStartLine(end)) this.leaf = { kind: 'html', end };
        return;
      }
    }
    if (c === BACKTICK || c === TILDE) {
      const fence = this.openingFence();
      if (fence) {
        siblings.push(OPAQUE);
        this.leaf = { kind: 'fenced', ...fence };
        return;
      }
    }
    if (table) {
      table.rows.push(this.tableRow(this.i, this.lineContentEnd));
      this.leaf = { kind: 'table', node: table };
      return;
    }
    const node: Paragraph = { type: 'paragraph', lines: [this.i, this.lineEnd], taskCandidate: item?.taskEligible ?? false };
    siblings.push(node);
    this.leaf = { kind: 'paragraph', node, siblings, headable: true };
  }

  private closeLeaf(): void {
    const leaf = this.leaf;
    this.leaf = undefined;
    if (leaf?.kind === 'paragraph') this.closeParagraph(leaf, false);
  }

  /**
   * Ends a paragraph: link reference definitions at its start become opaque blocks, and the rest stays a paragraph, or
   * with `setext` becomes a heading. False when only definitions were left to underline.
   */
  private closeParagraph(leaf: ParagraphLeaf, setext: boolean): boolean {
    this.leaf = undefined;
    const { node, siblings } = leaf;
    const lines = node.lines;
    const definitions = this.definitionLines(lines);
    const rest = lines.slice(definitions * 2);
    siblings.pop();
    for (let d = 0; d < definitions; d++) siblings.push(OPAQUE);
    if (rest.length === 0) return !setext;
    let end = rest[rest.length - 1]!;
    while (end > rest[rest.length - 2]! && isSpace(this.text.charCodeAt(end - 1))) end--;
    rest[rest.length - 1] = end;
    if (setext) siblings.push({ type: 'heading', setext: true, lines: rest });
    else siblings.push({ type: 'paragraph', lines: rest, taskCandidate: node.taskCandidate });
    return true;
  }

  /**
   * What would interrupt a paragraph at the cursor: a setext underline (not on a lazy line), or another block. Lists,
   * block quotes and footnote definitions were looked for already; a table's header row is found from its delimiter row.
   */
  private interruption(lazy: boolean): 'setext' | 'block' | undefined {
    const saved = this.save();
    this.skipSpace();
    const c = this.code();
    let found: 'setext' | 'block' | undefined;
    if (c === HASH) found = this.atxHeading() ? 'block' : undefined;
    else if ((c === EQUALS || c === DASH) && !lazy && this.setextUnderline()) found = 'setext';
    else if ((c === STAR || c === DASH || c === UNDERSCORE) && this.thematicBreakAt(this.i)) found = 'block';
    else if (c === LT) found = this.htmlStart(true) === undefined ? undefined : 'block';
    else if (c === BACKTICK || c === TILDE) found = this.openingFence() ? 'block' : undefined;
    this.restore(saved);
    return found;
  }

  private setextUnderline(): boolean {
    const marker = this.code();
    let i = this.i;
    while (this.code(i) === marker) i++;
    return this.restBlank(i);
  }

  /** Three or more `*`, `-` or `_` from `start` to the line's end, maybe with spaces between. */
  private thematicBreakAt(start: number): boolean {
    const marker = this.code(start);
    // One scan back from the line's end per marker finds where such a tail starts, for every marker on the line.
    if (this.breaks.line !== this.lineNumber || this.breaks.marker !== marker) {
      let i = this.lineEnd;
      let count = 0;
      let third = -1;
      for (; i > this.lineStart; i--) {
        const c = this.text.charCodeAt(i - 1);
        if (c === marker) {
          if (++count === 3) third = i - 1;
        } else if (!isSpace(c)) {
          break;
        }
      }
      this.breaks = { line: this.lineNumber, marker, from: i, to: third };
    }
    return start >= this.breaks.from && start <= this.breaks.to;
  }

  private atxHeading(): Heading | undefined {
    const text = this.text;
    let i = this.i;
    while (this.code(i) === HASH && i - this.i < 7) i++;
    const level = i - this.i;
    if (level > 6 || (i < this.lineEnd && !isSpace(this.code(i)))) return undefined;
    while (isSpace(this.code(i))) i++;
    let end = this.lineContentEnd;
    if (end <= i) return { type: 'heading', setext: false, lines: [] };
    // A closing run of `#` after a space (or making up the whole content) is not text.
    let run = end;
    while (run > i && text.charCodeAt(run - 1) === HASH) run--;
    if (run < end) {
      if (run === i) return { type: 'heading', setext: false, lines: [] };
      if (isSpace(text.charCodeAt(run - 1))) {
        end = run;
        while (isSpace(text.charCodeAt(end - 1))) end--;
      }
    }
    return { type: 'heading', setext: false, lines: [i, end] };
  }

  private openingFence(): { marker: number; size: number } | undefined {
    const marker = this.code();
    let i = this.i;
    while (this.code(i) === marker) i++;
    const size = i - this.i;
    if (size < 3) return undefined;
    if (marker === BACKTICK) {
      for (; i < this.lineEnd; i++) if (this.text.charCodeAt(i) === BACKTICK) return undefined;
    }
    return { marker, size };
  }

  private closingFence(marker: number, size: number): boolean {
    const saved = this.save();
    this.skipColumns(3);
    let i = this.i;
    this.restore(saved);
    const start = i;
    while (this.code(i) === marker) i++;
    return i - start >= size && this.restBlank(i);
  }

  // ——— HTML blocks ———

  /** The end condition of an HTML block starting at the cursor's `<`; kind 7 only when not interrupting a paragraph. */
  private htmlStart(interrupting: boolean): HtmlEnd | undefined {
    const text = this.text;
    const lt = this.i;
    let i = lt + 1;
    let c = this.code(i);
    if (c === BANG) {
      c = this.code(++i);
      if (c === DASH) return this.code(i + 1) === DASH ? '-->' : undefined;
      if (c === LBRACKET) return text.startsWith('CDATA[', i + 1) ? ']]>' : undefined;
      return isAsciiAlpha(c) ? '>' : undefined;
    }
    if (c === QUESTION) return '?>';
    const closing = c === SLASH;
    if (closing) c = this.code(++i);
    if (!isAsciiAlpha(c)) return undefined;
    const nameStart = i;
    while (this.code(i) === DASH || isAsciiAlphanumeric(this.code(i))) i++;
    c = this.code(i);
    if (c !== -1 && c !== SLASH && c !== GT && !isSpace(c)) return undefined;
    const name = text.slice(nameStart, i).toLowerCase();
    if (c !== SLASH && !closing && HTML_RAW_NAMES.has(name)) return 'raw';
    if (HTML_BLOCK_NAMES.has(name)) return c !== SLASH || this.code(i + 1) === GT ? 'blank' : undefined;
    if (interrupting) return undefined;
    return this.completeTagRest(i, closing) ? 'blank' : undefined;
  }

  /** The rest of a complete open or closing tag from `start` (after its name), then only whitespace on the line. */
  private completeTagRest(start: number, closing: boolean): boolean {
    let i = start;
    const c = (): number => this.code(i);
    if (closing) {
      while (isSpace(c())) i++;
      return c() === GT && this.restBlank(i + 1);
    }
    // Attribute names, `=` and values, as micromark's states read them; whitespace between is optional.
    let state: 'name-before' | 'name-after' | 'value-before' = 'name-before';
    for (;;) {
      const k = c();
      if (state === 'name-before') {
        if (k === SLASH) {
          i++;
          break;
        }
        if (k === COLON || k === UNDERSCORE || isAsciiAlpha(k)) {
          i++;
          while (c() === DASH || c() === DOT || c() === COLON || c() === UNDERSCORE || isAsciiAlphanumeric(c())) i++;
          state = 'name-after';
        } else if (isSpace(k)) {
          i++;
        } else {
          break;
        }
      } else if (state === 'name-after') {
        if (k === EQUALS) {
          i++;
          state = 'value-before';
        } else if (isSpace(k)) {
          i++;
        } else {
          state = 'name-before';
        }
      } else {
        if (k === -1 || k === LT || k === EQUALS || k === GT || k === BACKTICK) return false;
        if (isSpace(k)) {
          i++;
        } else if (k === QUOTE || k === APOSTROPHE) {
          i++;
          while (c() !== k) {
            if (c() === -1) return false;
            i++;
          }
          i++;
          const after = c();
          if (after !== SLASH && after !== GT && !isSpace(after)) return false;
          state = 'name-before';
        } else {
          while (!(c() === -1 || isSpace(c()) || UNQUOTED_STOP.has(c()))) i++;
          state = 'name-after';
        }
      }
    }
    return c() === GT && this.restBlank(i + 1);
  }

  private htmlEndsOnStartLine(end: HtmlEnd): boolean {
    if (end === 'blank') return false;
    const from = end === '-->' ? this.i + 2 : end === '?>' ? this.i + 1 : end === '>' ? this.i + 2 : end === ']]>' ? this.i + 9 : this.i + 1;
    return this.htmlEndsAt(end, from);
  }

  private htmlEndsAt(end: Exclude<HtmlEnd, 'blank'>, from: number): boolean {
    let search = this.searches.get(end);
    if (!search) {
      const text = this.text;
      const find =
        end === 'raw'
          ? (at: number): number => {
              RAW_END.lastIndex = at;
              return RAW_END.exec(text)?.index ?? -1;
            }
          : (at: number): number => text.indexOf(end, at);
      search = new ForwardSearch(find);
      this.searches.set(end, search);
    }
    // Terminators hold no line ending, so one that starts on this line ends on it.
    const at = search.next(from);
    return at >= 0 && at < this.lineEnd;
  }

  // ——— Tables ———

  /** A delimiter row at the cursor under the paragraph's last line, which then becomes a table's header row. */
  private tableDelimiter(leaf: ParagraphLeaf): boolean {
    const saved = this.save();
    this.skipColumns(3);
    const columns = isSpace(this.code()) ? -1 : this.delimiterRow();
    this.restore(saved);
    if (columns < 0) return false;
    const lines = leaf.node.lines;
    const headStart = lines[lines.length - 2]!;
    let headEnd = lines[lines.length - 1]!;
    while (headEnd > headStart && isSpace(this.text.charCodeAt(headEnd - 1))) headEnd--;
    // A header row needs more than a lone pipe, and as many cells as the delimiter row.
    if (headEnd - headStart === 1 && this.text.charCodeAt(headStart) === PIPE) return false;
    const head = this.tableRow(headStart, headEnd);
    if (columns !== head.cells.length) return false;
    lines.length -= 2;
    if (lines.length > 0) this.closeParagraph(leaf, false);
    else leaf.siblings.pop();
    const table: Table = { type: 'table', rows: [head] };
    leaf.siblings.push(table);
    this.leaf = { kind: 'table', node: table };
    return true;
  }

  /** The number of columns of a delimiter row at the cursor (`| :-- | --: |`), or -1. */
  private delimiterRow(): number {
    let i = this.i;
    let columns = 0;
    let seen = false;
    const c = (): number => this.code(i);
    if (c() === PIPE) {
      seen = true;
      i++;
    } else if (c() !== DASH && c() !== COLON) {
      return -1;
    }
    for (;;) {
      while (isSpace(c())) i++;
      if (c() === -1) break;
      if (c() === COLON) {
        seen = true;
        i++;
      }
      if (c() !== DASH) return -1;
      while (c() === DASH) i++;
      if (c() === COLON) {
        seen = true;
        i++;
      }
      columns++;
      while (isSpace(c())) i++;
      if (c() === -1) break;
      if (c() !== PIPE) return -1;
      seen = true;
      i++;
    }
    return seen ? columns : -1;
  }

  /** A table row from `start` to `end` (without trailing whitespace): cells split at pipes that are not escaped. */
  private tableRow(start: number, end: number): TableRow {
    const text = this.text;
    const cells: ([number, number] | undefined)[] = [];
    let cellStart = start;
    let leading = text.charCodeAt(start) === PIPE;
    const push = (from: number, to: number): void => {
      let s = from;
      let e = to;
      while (s < e && isSpace(text.charCodeAt(s))) s++;
      while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
      cells.push(s < e ? [s, e] : undefined);
    };
    let backslashes = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === PIPE && backslashes % 2 === 0) {
        if (leading) leading = false;
        else push(cellStart, i);
        cellStart = i + 1;
      }
      backslashes = c === BACKSLASH ? backslashes + 1 : 0;
    }
    // Text after the last pipe makes a cell; a trailing pipe does not open an empty one.
    if (cellStart < end || cells.length === 0) push(cellStart, end);
    return { start, cells };
  }

  // ——— Link reference definitions ———

  /** How many lines at the start of a paragraph are link reference definitions; registers their labels. */
  private definitionLines(lines: LineRanges): number {
    const text = this.text;
    if (text.charCodeAt(lines[0]!) !== LBRACKET) return 0;
    const parts: string[] = [];
    const lineStarts: number[] = [];
    let length = 0;
    for (let k = 0; k < lines.length; k += 2) {
      lineStarts.push(length);
      const part = text.slice(lines[k], lines[k + 1]);
      parts.push(part);
      length += part.length + 1;
    }
    const source = parts.join('\n');
    let at = 0;
    let count = 0;
    while (at < source.length) {
      const end = definitionAt(source, at, this.definitions);
      if (end < 0) break;
      at = end + 1;
      while (count < lineStarts.length && lineStarts[count]! < at) count++;
    }
    return count;
  }
}

const OPAQUE: Opaque = Object.freeze({ type: 'opaque' });
const RAW_END = /<\/(?:script|pre|style|textarea)>/gi;
/** Characters that end an unquoted attribute value in a complete tag. */
const UNQUOTED_STOP = new Set([QUOTE, APOSTROPHE, SLASH, LT, EQUALS, GT, BACKTICK]);

/**
 * A link reference definition (`[label]: destination "title"`) at `start` of a paragraph's text (its lines joined with
 * `\n`): the index of the line ending after it (or the text's end), or -1. Registers the label.
 */
function definitionAt(source: string, start: number, definitions: Set<string>): number {
  const n = source.length;
  const at = (i: number): number => (i < n ? source.charCodeAt(i) : -1);
  if (at(start) !== LBRACKET) return -1;
  let i = start + 1;
  let size = 0;
  let seen = false;
  for (;;) {
    const c = at(i);
    if (size > LABEL_MAX || c === -1 || c === LBRACKET || (c === RBRACKET && !seen)) return -1;
    if (c === RBRACKET) break;
    i++;
    if (c === LF) continue;
    size++;
    if (!isSpace(c)) seen = true;
    if (c === BACKSLASH) {
      const next = at(i);
      if (next === LBRACKET || next === BACKSLASH || next === RBRACKET) {
        i++;
        size++;
      }
    }
  }
  const labelEnd = i;
  if (at(i + 1) !== COLON) return -1;
  i += 2;
  while (isSpace(at(i)) || at(i) === LF) i++;
  // Destination.
  if (at(i) === LT) {
    i++;
    for (;;) {
      const c = at(i);
      if (c === GT) break;
      if (c === -1 || c === LT || c === LF) return -1;
      i++;
      if (c === BACKSLASH && (at(i) === LT || at(i) === GT || at(i) === BACKSLASH)) i++;
    }
    i++;
  } else {
    const first = at(i);
    if (first === -1 || first === SPACE || first === RPAREN || isControl(first)) return -1;
    let balance = 0;
    for (;;) {
      const c = at(i);
      if (balance === 0 && (c === -1 || c === RPAREN || c === SPACE || c === TAB || c === LF)) break;
      if (c === -1 || c === SPACE || isControl(c)) return -1;
      if (c === LPAREN) balance++;
      else if (c === RPAREN) balance--;
      i++;
      if (c === BACKSLASH && (at(i) === LPAREN || at(i) === RPAREN || at(i) === BACKSLASH)) i++;
    }
  }
  const afterDestination = i;
  let end = titleAt(source, i);
  if (end < 0) {
    end = afterDestination;
    while (isSpace(at(end))) end++;
    if (at(end) !== -1 && at(end) !== LF) return -1;
  }
  definitions.add(normalizeLabel(source.slice(start + 1, labelEnd)));
  return end;
}

/** Whitespace, a title, then only spaces to the line's end: the index of that end, or -1. */
function titleAt(source: string, start: number): number {
  const n = source.length;
  const at = (i: number): number => (i < n ? source.charCodeAt(i) : -1);
  let i = start;
  while (isSpace(at(i)) || at(i) === LF) i++;
  if (i === start) return -1;
  const open = at(i);
  if (open !== QUOTE && open !== APOSTROPHE && open !== LPAREN) return -1;
  const close = open === LPAREN ? RPAREN : open;
  i++;
  for (;;) {
    const c = at(i);
    if (c === close) break;
    if (c === -1) return -1;
    i++;
    if (c === BACKSLASH && (at(i) === close || at(i) === BACKSLASH)) i++;
  }
  i++;
  while (isSpace(at(i))) i++;
  return at(i) === -1 || at(i) === LF ? i : -1;
}
