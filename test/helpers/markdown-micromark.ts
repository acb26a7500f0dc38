// The markdown codec as it was when micromark parsed for it (mdast-util-from-markdown with GFM and front matter): the
// oracle that test/unit/formats-markdown-oracle.test.ts compares the codec's own parser with. Not used by src/.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import type { Heading, ListItem, Nodes, Paragraph, PhrasingContent, Root, RootContent, TableCell, Yaml } from 'mdast';
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Node as YamlNode, type Scalar } from 'yaml';
import { textValue } from '../../src/core/formats/values.js';
import type { Codec, Entry, RenderInput } from '../../src/core/formats/codec.js';
import { FileUnparsableError } from '../../src/core/formats/file-unparsable-error.js';
import { decodeUtf8, encodeUtf8 } from '../../src/core/formats/json-scan.js';
import { LineIndex } from '../../src/core/formats/line-index.js';

/*
 * Keys. A body segment's key is `<section>.<kind><n>`: the section is the GitHub-style slug of the nearest heading above
 * (`intro` before the first heading; repeated slugs get `-1`, `-2`), and n counts that kind within the section. Kinds:
 * `heading` (the section's own heading), `p` (paragraph), `li` (paragraph in a list item), `quote` (paragraph in a
 * blockquote), `note` (paragraph in a footnote definition), and `table<n>.r<row>c<col>` for cells (row 1 is the header).
 * Editing a block's text changes only its source; inserting or removing a block renumbers only the blocks of its kind
 * after it in the same section; editing a heading re-keys its own section. Front-matter strings are
 * `frontmatter.<yaml path>`. `intro` and `frontmatter` are reserved, so a heading "Intro" is section `intro-1`.
 *
 * Segment text is the block's Markdown source: inline markup, inline code, URLs and HTML stay in it untouched (a later
 * gate checks them). Continuation lines lose their container prefixes (`> `, list indentation) and lines join with
 * `\n`. Blocks with no letters in their text (code-only, numbers, images without alt) are not segments.
 *
 * Writing a changed value keeps the block one block of the same kind: new lines get the block's continuation prefix;
 * blank lines and line-edge spaces, which Markdown would drop or which would split the block, are dropped; a line that
 * would open another block (`# `, `> `, `- `, `1. `, fences, `---`, `===`, HTML block starts, definitions, table
 * delimiter rows) gets a backslash before its marker; in table cells `|` is escaped and line breaks become `<br>`;
 * ATX headings put line breaks as spaces and escape a trailing `#` run. Those escapes are part of the text read back.
 *
 * Missing values: a document has no per-key fallback, and removing a block would change the document's structure
 * (lists renumber, paragraphs merge, table rows lose cells), so `missing: 'omit'` keeps the source text like 'source'.
 */

const PARSE_OPTIONS = {
  extensions: [frontmatter(['yaml', 'toml']), gfm()],
  mdastExtensions: [frontmatterFromMarkdown(['yaml', 'toml']), gfmFromMarkdown()],
};

// CommonMark sets no nesting limit, but micromark slows down quadratically with markers on one line (`> > > …`).
const MAX_LINE_MARKERS = 100;

type Kind = 'atx' | 'setext' | 'paragraph' | 'cell' | 'yaml';

interface YamlInfo {
  style: Scalar.Type | undefined;
  inFlow: boolean;
  /** Indentation of a block scalar's content lines. */
  indent: string;
  eol: string;
  /** Whether the scalar's range ends with a line break (block scalars include theirs). */
  endsWithEol: boolean;
}

interface Segment {
  key: string;
  path: string[];
  kind: Kind;
  /** Range in the decoded text that a changed value replaces. */
  start: number;
  end: number;
  source: string;
  line: number;
  column: number;
  /** Written before each new line of a multi-line block. */
  prefix: string;
  eol: string;
  /** The first line would make a list item a task item (`[ ] `). */
  taskable: boolean;
  /** The block starts the file, where `+++` would open front matter. */
  docStart: boolean;
  /** A cell that starts its row's line (no leading pipe), so its text must not open a block. */
  rowStart: boolean;
  /** The character after the range (a cell's closing pipe). */
  next: string;
  yaml?: YamlInfo;
}

interface MarkdownDocument {
  text: string;
  bom: boolean;
  segments: Segment[];
}

/** Line lookups over the decoded text, with the refusal that names a line and column. */
class Lines extends LineIndex {
  fail(message: string, offset: number): never {
    const { line, column } = this.at(offset);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  }
}

const offsetOf = (point: { offset?: number | undefined } | undefined): number => point?.offset ?? 0;
const startOf = (node: Nodes): number => offsetOf(node.position?.start);
const endOf = (node: Nodes): number => offsetOf(node.position?.end);

/** Where the line holding `offset` ends (before its line break). */
function lineEndAt(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** Start of the line after the one holding `offset`. */
function nextLineStart(text: string, offset: number): number {
  const end = lineEndAt(text, offset);
  return end + (text.startsWith('\r\n', end) ? 2 : end < text.length ? 1 : 0);
}

function lineBreakAfter(text: string, offset: number): string {
  const end = lineEndAt(text, offset);
  return text.startsWith('\r\n', end) ? '\r\n' : (text[end] ?? '');
}

/** Column with tabs expanded to multiples of four, as CommonMark measures indentation. */
function visualColumn(text: string, from: number, to: number): number {
  let column = 0;
  for (let i = from; i < to; i++) column = text[i] === '\t' ? column + 4 - (column % 4) : column + 1;
  return column;
}

// ——— Reading ———

function scanMarkdown(bytes: Uint8Array): MarkdownDocument {
  const { text, bom } = decodeUtf8(bytes);
  const lines = new Lines(text);
  const nul = text.indexOf('\u0000');
  if (nul >= 0) lines.fail('Expected text, found a NUL character (is this a binary file?)', nul);
  guardNesting(text, lines);
  let tree: Root;
  try {
    tree = fromMarkdown(text, PARSE_OPTIONS);
  } catch (error) {
    if (error instanceof RangeError) throw new FileUnparsableError('Expected less deeply nested Markdown at line 1, column 1', 1, 1);
    throw error;
  }
  const eol = lineBreakAfter(text, 0) || '\n';
  const segments: Segment[] = [];
  const first = tree.children[0];
  if (first?.type === 'yaml') segments.push(...frontMatterSegments(text, first, lines, eol));
  else if ((first?.type as string) === 'toml') lines.fail("TOML front matter ('+++') is not supported; expected YAML front matter between '---' lines", 0);
  else if (/^---[ \t]*(?:\r\n|\r|\n)[ \t]*[A-Za-z_][\w .-]*:(?:[ \t]|\r|\n|$)/.test(text)) {
    lines.fail("Expected a closing '---' line for the front matter that opens", 0);
  }
  try {
    segments.push(...bodySegments(text, tree, lines, eol));
  } catch (error) {
    if (error instanceof RangeError) throw new FileUnparsableError('Expected less deeply nested Markdown at line 1, column 1', 1, 1);
    throw error;
  }
  return { text, bom, segments };
}

/** Refuses lines with absurdly many container markers before micromark spends minutes on them. */
function guardNesting(text: string, lines: Lines): void {
  for (const start of lines.starts) {
    let i = start;
    let count = 0;
    for (;;) {
      while (text[i] === ' ' || text[i] === '\t') i++;
      const c = text[i];
      let next = -1;
      if (c === '>') next = i + 1;
      else if ((c === '-' || c === '+' || c === '*') && (text[i + 1] === ' ' || text[i + 1] === '\t')) next = i + 2;
      else {
        const ordered = /^\d{1,9}[.)][ \t]/.exec(text.slice(i, i + 12));
        if (ordered) next = i + ordered[0].length;
      }
      if (next < 0) break;
      if (++count > MAX_LINE_MARKERS) lines.fail(`Expected at most ${MAX_LINE_MARKERS} nested blockquote or list markers on one line`, i);
      i = next;
    }
  }
}

/** A container a paragraph's continuation lines must step through: a `>` marker, or indentation to a column. */
type Container = { kind: 'quote'; column: number } | { kind: 'indent'; column: number };

/** The column where a list item's content starts, which its continuation lines are indented to. */
function listItemColumn(text: string, lines: Lines, item: ListItem): number {
  const start = startOf(item);
  const lineStart = lines.lineStartOf(start);
  const marker = /^(?:[-+*]|\d{1,9}[.)])/.exec(text.slice(start, start + 10));
  const markerEnd = visualColumn(text, lineStart, start + (marker?.[0].length ?? 1));
  const first = item.children[0];
  if (first && lines.lineOf(startOf(first)) === lines.lineOf(start)) {
    const column = visualColumn(text, lineStart, startOf(first));
    // Five or more spaces after the marker make indented code, and the content column is one past the marker.
    return column - markerEnd > 4 ? markerEnd + 1 : column;
  }
  return markerEnd + 1;
}

/** Index of a continuation line's content: past the containers' markers and indentation, and the line's own spaces. */
function contentStart(text: string, lineStart: number, lineEnd: number, containers: readonly Container[]): number {
  let i = lineStart;
  let column = 0;
  const blank = (): boolean => text[i] === ' ' || text[i] === '\t';
  const advance = (): void => {
    column = text[i] === '\t' ? column + 4 - (column % 4) : column + 1;
    i++;
  };
  for (const container of containers) {
    if (container.kind === 'indent') {
      while (i < lineEnd && column < container.column && blank()) advance();
      if (column < container.column) break; // a lazy line: the rest is paragraph text
    } else {
      const base = column;
      while (i < lineEnd && blank() && column - base < 4) advance();
      if (column - base > 3 || text[i] !== '>') break;
      advance();
      if (blank()) advance();
    }
  }
  while (i < lineEnd && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

/** The prefix for a new line in a block whose source has a single line: its containers, with list markers as spaces. */
function canonicalPrefix(containers: readonly Container[]): string {
  let out = '';
  for (const container of containers) {
    out = out.padEnd(container.column, ' ');
    if (container.kind === 'quote') out += '> ';
  }
  return out;
}

interface LineRange {
  /** The segment text: line contents joined with `\n`. */
  source: string;
  /** The raw prefix of the first continuation line, when there is one. */
  prefix: string | undefined;
  eol: string | undefined;
}

/** Reads a paragraph-like range line by line, dropping container prefixes from continuation lines. */
function readLines(text: string, start: number, end: number, containers: readonly Container[]): LineRange {
  const parts: string[] = [];
  let prefix: string | undefined;
  let eol: string | undefined;
  let at = start;
  for (;;) {
    const lineEnd = Math.min(lineEndAt(text, at), end);
    parts.push(text.slice(at, lineEnd));
    if (lineEnd >= end) break;
    const lineBreak = text.startsWith('\r\n', lineEnd) ? '\r\n' : text[lineEnd]!;
    const next = lineEnd + lineBreak.length;
    at = contentStart(text, next, Math.min(lineEndAt(text, next), end), containers);
    if (prefix === undefined) [prefix, eol] = [text.slice(next, at), lineBreak];
  }
  return { source: parts.join('\n'), prefix, eol };
}

function plainText(nodes: readonly PhrasingContent[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text' || node.type === 'inlineCode') out += node.value;
    else if (node.type === 'image') out += node.alt ?? '';
    else if (node.type === 'break') out += ' ';
    else if ('children' in node) out += plainText(node.children);
  }
  return out;
}

// Inline code, HTML and URLs carry nothing to translate; text, link text and image descriptions do.
function hasLetters(nodes: readonly PhrasingContent[]): boolean {
  return nodes.some((node) => {
    if (node.type === 'text') return /\p{L}/u.test(node.value);
    if (node.type === 'image') return /\p{L}/u.test(node.alt ?? '');
    return 'children' in node && hasLetters(node.children);
  });
}

/** GitHub-style heading slugs, made unique in order of appearance. */
class Sections {
  private readonly used = new Set(['intro', 'frontmatter']);
  current = 'intro';
  private readonly counts = new Map<string, number>();

  enter(headingText: string): string {
    const base =
      [...headingText.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')]
        .slice(0, 64)
        .join('') || 'section';
    let slug = base;
    for (let n = 1; this.used.has(slug); n++) slug = `${base}-${n}`;
    this.used.add(slug);
    this.counts.clear();
    this.current = slug;
    return slug;
  }

  next(kind: string): string {
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    return `${kind}${n}`;
  }
}

function bodySegments(text: string, tree: Root, lines: Lines, eol: string): Segment[] {
  const out: Segment[] = [];
  const sections = new Sections();

  const segment = (path: string[], kind: Kind, start: number, end: number, extra: Partial<Segment>): Segment => ({
    key: path.join('.'),
    path,
    kind,
    start,
    end,
    source: text.slice(start, end),
    ...lines.at(start),
    prefix: '',
    eol,
    taskable: false,
    docStart: start === 0,
    rowStart: false,
    next: text[end] ?? '',
    ...extra,
  });

  const lineBlock = (path: string[], kind: Kind, node: Heading | Paragraph, containers: readonly Container[], taskable: boolean): Segment => {
    const start = startOf(node.children[0]!);
    const end = endOf(node.children[node.children.length - 1]!);
    const read = readLines(text, start, end, containers);
    return segment(path, kind, start, end, {
      source: read.source,
      prefix: read.prefix ?? canonicalPrefix(containers),
      eol: read.eol ?? eol,
      taskable,
    });
  };

  const visit = (node: RootContent, containers: Container[], parent: Nodes): void => {
    switch (node.type) {
      case 'heading': {
        const slug = sections.enter(plainText(node.children));
        if (!hasLetters(node.children)) return;
        const setext = lines.lineOf(startOf(node)) !== lines.lineOf(endOf(node));
        out.push(lineBlock([slug, 'heading'], setext ? 'setext' : 'atx', node, containers, false));
        return;
      }
      case 'paragraph': {
        if (!hasLetters(node.children)) return;
        const kind = innermostKind(parent);
        const taskable = parent.type === 'listItem' && parent.children[0] === node && typeof parent.checked !== 'boolean';
        out.push(lineBlock([sections.current, sections.next(kind)], 'paragraph', node, containers, taskable));
        return;
      }
      case 'table': {
        const table = sections.next('table');
        node.children.forEach((row, r) => {
          const rowStart = text[startOf(row)] !== '|';
          row.children.forEach((cell: TableCell, c) => {
            if (!hasLetters(cell.children)) return;
            const start = startOf(cell.children[0]!);
            const end = endOf(cell.children[cell.children.length - 1]!);
            out.push(segment([sections.current, table, `r${r + 1}c${c + 1}`], 'cell', start, end, { rowStart: rowStart && c === 0 }));
          });
        });
        return;
      }
      case 'blockquote': {
        const lineStart = lines.lineStartOf(startOf(node));
        const inner: Container[] = [...containers, { kind: 'quote', column: visualColumn(text, lineStart, startOf(node)) }];
        for (const child of node.children) visit(child, inner, node);
        return;
      }
      case 'list':
        for (const child of node.children) visit(child, containers, node);
        return;
      case 'listItem': {
        const inner: Container[] = [...containers, { kind: 'indent', column: listItemColumn(text, lines, node) }];
        for (const child of node.children) visit(child, inner, node);
        return;
      }
      case 'footnoteDefinition': {
        const lineStart = lines.lineStartOf(startOf(node));
        const inner: Container[] = [...containers, { kind: 'indent', column: visualColumn(text, lineStart, startOf(node)) + 4 }];
        for (const child of node.children) visit(child, inner, node);
        return;
      }
      default:
        // Code, HTML, definitions, thematic breaks and front matter hold nothing to translate here.
        return;
    }
  };

  for (const child of tree.children) visit(child, [], tree);
  return out;
}

function innermostKind(parent: Nodes): string {
  if (parent.type === 'listItem') return 'li';
  if (parent.type === 'blockquote') return 'quote';
  if (parent.type === 'footnoteDefinition') return 'note';
  return 'p';
}

// Front-matter fields that hold machine data rather than prose (compared lowercased, without `-` and `_`).
const MACHINE_KEYS = new Set(
  [
    'layout', 'slug', 'permalink', 'url', 'uri', 'link', 'href', 'src', 'image', 'images', 'img', 'thumbnail', 'cover',
    'banner', 'icon', 'logo', 'avatar', 'date', 'lastmod', 'updated', 'created', 'modified', 'publishdate', 'pubdate',
    'expirydate', 'draft', 'published', 'id', 'uuid', 'lang', 'language', 'locale', 'template', 'type', 'kind', 'weight',
    'order', 'aliases', 'redirectfrom', 'redirectto', 'canonical', 'canonicalurl', 'file', 'filename', 'path', 'email',
    'version', 'theme', 'class', 'classes', 'style', 'color', 'sidebarposition',
  ],
);

/**
 * Whether a front-matter string is prose to translate: not under a machine key, not a URL, path, date or e-mail, and
 * not a plain `yes`/`off`/`n`, which YAML 1.1 readers (Jekyll's) take as booleans.
 */
function isProse(field: string, value: string, plain: boolean): boolean {
  if (MACHINE_KEYS.has(field.toLowerCase().replace(/[-_]/g, ''))) return false;
  if (!/\p{L}/u.test(value)) return false;
  if (plain && /^(?:y|yes|n|no|on|off)$/i.test(value)) return false;
  if (/^(?:[a-z][a-z0-9+.-]*:\/\/|mailto:|\.{0,2}\/|~\/)/i.test(value) || /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(value)) return false;
  return !/^\d{4}-\d{2}-\d{2}/.test(value);
}

function frontMatterSegments(text: string, node: Yaml, lines: Lines, eol: string): Segment[] {
  const contentStart = nextLineStart(text, startOf(node));
  const closeStart = lines.lineStartOf(endOf(node));
  const source = contentStart < closeStart ? text.slice(contentStart, closeStart) : '';
  const doc = parseDocument(source, { prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) lines.fail(`Expected valid YAML in the front matter (${error.message.replace(/\.$/, '')})`, contentStart + error.pos[0]);
  if (doc.contents === null) return [];
  if (!isMap(doc.contents)) {
    lines.fail('Expected the front matter to be a YAML mapping (key: value lines)', contentStart + (doc.contents.range?.[0] ?? 0));
  }

  const out: Segment[] = [];
  const seen = new Map<string, number>();
  const walk = (value: YamlNode | null | undefined, path: string[], field: string, inFlow: boolean): void => {
    if (!value || isAlias(value)) return;
    if (isMap(value)) {
      for (const pair of value.items) {
        if (isScalar(pair.key) && pair.key.value !== null && typeof pair.key.value !== 'object') {
          const name = String(pair.key.value);
          walk(pair.value as YamlNode | null, [...path, name], name, value.flow === true);
        }
      }
    } else if (isSeq(value)) {
      value.items.forEach((item, i) => walk(item as YamlNode | null, [...path, String(i)], field, value.flow === true));
    } else if (isScalar(value) && typeof value.value === 'string' && (!value.tag || value.tag === 'tag:yaml.org,2002:str')) {
      if (!isProse(field, value.value, value.type === 'PLAIN') || !value.range) return;
      const start = contentStart + value.range[0];
      const end = contentStart + value.range[1];
      const key = path.join('.');
      const first = seen.get(key);
      if (first !== undefined) {
        lines.fail(`The front matter paths for line ${first} and this one both give the key ${JSON.stringify(key)}; rename one of them`, start);
      }
      const position = lines.at(start);
      seen.set(key, position.line);
      const raw = text.slice(start, end);
      const lineStart = lines.lineStartOf(start);
      const lineIndent = /^ */.exec(text.slice(lineStart, start))![0];
      const blockIndent = /(?:\r\n|\r|\n)( +)[^ \r\n]/.exec(raw)?.[1];
      out.push({
        key,
        path,
        kind: 'yaml',
        start,
        end,
        source: value.value,
        ...position,
        prefix: '',
        eol,
        taskable: false,
        docStart: false,
        rowStart: false,
        next: text[end] ?? '',
        yaml: {
          style: value.type,
          inFlow,
          indent: blockIndent ?? `${lineIndent}  `,
          eol,
          endsWithEol: /[\r\n]$/.test(raw),
        },
      });
    }
  };
  walk(doc.contents, ['frontmatter'], '', false);
  return out;
}

// ——— Writing ———

/** Line-start syntax that opens a block anywhere a block may start. */
const HTML_BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|' +
  'menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
// CommonMark HTML block start conditions 1 to 6, which may interrupt a paragraph.
const HTML_INTERRUPTING = new RegExp(
  `^<(?:(?:script|pre|style|textarea)(?:[ \\t>]|$)|!--|\\?|![A-Za-z]|!\\[CDATA\\[|\\/?(?:${HTML_BLOCK_NAMES})(?:[ \\t>]|\\/>|$))`,
  'i',
);
// Condition 7: a lone complete tag on its line; it starts a block but cannot interrupt a paragraph.
const HTML_LONE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/;
const TABLE_DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

type LineMode = 'first' | 'continuation' | 'cell';

/**
 * Backslash-escapes the marker of a line that would open another block. `first` is a block's first line (where any
 * block may start), `continuation` a later line (where only blocks that interrupt a paragraph count), `cell` both.
 */
function escapeLineStart(line: string, mode: LineMode, taskable = false, docStart = false): string {
  const first = mode !== 'continuation';
  const later = mode !== 'first';
  const escaped = `\\${line}`;
  if (/^#{1,6}(?:[ \t]|$)/.test(line) || line.startsWith('>')) return escaped;
  if (/^(?:`{3,}[^`]*$|~{3,})/.test(line)) return escaped;
  if (/^([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line)) return escaped;
  if (first && /^[-+*](?:[ \t]|$)/.test(line)) return escaped;
  if (later && (/^[-+*][ \t]+[^ \t]/.test(line) || /^(?:=+|-+)[ \t]*$/.test(line))) return escaped;
  if ((first && /^\d{1,9}[.)](?:[ \t]|$)/.test(line)) || (later && /^1[.)][ \t]+[^ \t]/.test(line))) {
    return line.replace(/^(\d+)/, '$1\\');
  }
  if (HTML_INTERRUPTING.test(line) || (first && HTML_LONE_TAG.test(line))) return escaped;
  if (/^\[\^[^\]]+\]:/.test(line) || (first && /^\[(?:\\.|[^\\\]])+\]:/.test(line))) return escaped;
  if (later && TABLE_DELIMITER_ROW.test(line)) return escaped;
  if (first && taskable && /^\[[ xX]\](?:[ \t]|$)/.test(line)) return escaped;
  if (first && docStart && /^\+{3}[ \t]*$/.test(line)) return escaped;
  return line;
}

/** NUL would make the file unreadable (CommonMark reads it as U+FFFD anyway); line breaks become `\n`. */
function clean(value: string): string {
  return value.replace(/\0/g, '\uFFFD').replace(/\r\n?/g, '\n');
}

/** A paragraph or setext heading's text; undefined when nothing is left to write (a block cannot be empty). */
function writeLines(value: string, prefix: string, eol: string, taskable: boolean, docStart: boolean): string | undefined {
  const lines = clean(value)
    .split('\n')
    .map((line) => line.replace(/^[ \t]+/, ''))
    .filter((line) => line !== '');
  if (lines.length === 0) return undefined;
  lines[lines.length - 1] = lines[lines.length - 1]!.replace(/[ \t]+$/, '');
  return lines.map((line, i) => escapeLineStart(line, i === 0 ? 'first' : 'continuation', taskable, docStart)).join(eol + prefix);
}

function writeAtx(value: string): string {
  const text = clean(value)
    .replace(/[ \t]*\n[ \t]*/g, ' ')
    .replace(/^[ \t]+|[ \t]+$/g, '');
  // A trailing `#` run after a space would be read as the closing sequence.
  return text.replace(/(^|[ \t])(#+)$/, '$1\\$2');
}

function escapePipes(text: string): string {
  let out = '';
  let backslashes = 0;
  for (const c of text) {
    if (c === '|' && backslashes % 2 === 0) out += '\\';
    out += c;
    backslashes = c === '\\' ? backslashes + 1 : 0;
  }
  return out;
}

function writeCell(value: string, rowStart: boolean, next: string): string {
  let text = escapePipes(
    clean(value)
      .replace(/[ \t]*\n[ \t]*/g, '<br>')
      .replace(/^[ \t]+|[ \t]+$/g, ''),
  );
  if (rowStart) text = escapeLineStart(text, 'cell');
  // An odd run of backslashes right before the closing pipe would escape it.
  if (next === '|' && /(?:^|[^\\])(?:\\\\)*\\$/.test(text)) text += ' ';
  return text;
}

// YAML's printable set, plus the characters YAML 1.1 readers take as line breaks.
// eslint-disable-next-line no-control-regex
const YAML_UNPRINTABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function yamlDoubleQuoted(value: string): string {
  let out = '"';
  for (const c of value) {
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (YAML_UNPRINTABLE.test(c)) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** Whether a value reads back as the same string when written plain, by YAML 1.2 and by 1.1 readers (Jekyll). */
function plainYamlOk(value: string, inFlow: boolean): boolean {
  if (value === '' || /^[ \t]|[ \t]$/.test(value) || /[\n\r\t]/.test(value) || YAML_UNPRINTABLE.test(value)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) || /:(?:[ \t]|$)|[ \t]#/.test(value)) return false;
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  return (['1.2', '1.1'] as const).every((version) => {
    const doc = parseDocument(value, { version });
    return doc.errors.length === 0 && doc.toJS() === value;
  });
}

/** A block scalar in the source's style, or undefined when the value needs quoting to survive exactly. */
function yamlBlock(value: string, info: YamlInfo): string | undefined {
  if (/\r/.test(value) || YAML_UNPRINTABLE.test(value)) return undefined;
  const core = value.replace(/\n+$/, '');
  const trailing = value.length - core.length;
  // Keep chomping (`|+`) would also swallow blank lines that follow the scalar in the file.
  if (core === '' || trailing > 1) return undefined;
  const lines = core.split('\n');
  // A first content line starting with a space would need an indentation indicator.
  if (/^[ \t]/.test(lines.find((line) => line !== '')!)) return undefined;
  const header = (info.style === 'BLOCK_FOLDED' && lines.length === 1 ? '>' : '|') + (trailing === 0 ? '-' : '');
  const body = lines.map((line) => (line === '' ? '' : info.indent + line)).join(info.eol);
  return `${header}${info.eol}${body}${info.endsWithEol ? info.eol : ''}`;
}

function writeYaml(value: string, info: YamlInfo): string {
  const quoted = (): string => yamlDoubleQuoted(value) + (info.endsWithEol ? info.eol : '');
  switch (info.style) {
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED':
      return yamlBlock(value, info) ?? quoted();
    case 'PLAIN':
      return plainYamlOk(value, info.inFlow) ? value : quoted();
    case 'QUOTE_SINGLE':
      return /[\n\r\t]/.test(value) || YAML_UNPRINTABLE.test(value) ? quoted() : `'${value.replace(/'/g, "''")}'`;
    default:
      return quoted();
  }
}

/** The text that replaces a segment's range, or undefined to keep the source. */
function writeSegment(segment: Segment, value: string): string | undefined {
  switch (segment.kind) {
    case 'atx':
      return writeAtx(value);
    case 'setext':
    case 'paragraph':
      return writeLines(value, segment.prefix, segment.eol, segment.taskable, segment.docStart);
    case 'cell':
      return writeCell(value, segment.rowStart, segment.next);
    case 'yaml':
      return writeYaml(value, segment.yaml!);
  }
}

/** Parse and render as the markdown codec did them with micromark. */
export const micromarkMarkdown: Pick<Codec, 'parse' | 'render'> = {
  parse(bytes: Uint8Array): Entry[] {
    return scanMarkdown(bytes).segments.map((s) => ({ key: s.key, path: s.path, source: s.source, line: s.line, column: s.column }));
  },

  render(input: RenderInput): Uint8Array {
    const doc = scanMarkdown(input.source);
    let out = '';
    let at = 0;
    let changed = false;
    for (const segment of doc.segments) {
      const value = input.values.get(segment.key);
      // Missing values keep the source under 'omit' too (see the module notes).
      if (value === undefined) continue;
      const text = textValue(value, 'markdown');
      if (text === segment.source) continue;
      const written = writeSegment(segment, text);
      if (written === undefined) continue;
      out += doc.text.slice(at, segment.start) + written;
      at = segment.end;
      changed = true;
    }
    if (!changed) return input.source.slice();
    return encodeUtf8(out + doc.text.slice(at), doc.bom);
  },
};
