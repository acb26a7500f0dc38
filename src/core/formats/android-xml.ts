// Android string resources (res/values*/strings.xml): strings, plurals and string arrays with Android's own escaping.
import { PLURAL_CATEGORIES, type Codec, type Entry, type FreshEntry, type PluralForms, type RenderInput, type Value } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { pluralCategories } from '../plurals.js';
import {
  attribute,
  childElements,
  contentEdit,
  decodeXml,
  encodeXml,
  escapeXmlAttribute,
  escapeXmlText,
  flat,
  lineColumn,
  lineIndent,
  pluralSlotEdits,
  removalStart,
  scanXml,
  splice,
  type XmlCData,
  type XmlDocument,
  type XmlEdit,
  type XmlElement,
  type XmlNode,
  type XmlText,
} from './xml-scan.js';

/*
 * Value representation. Android reads a string's text through its own escaping layer on top of XML: unquoted
 * whitespace collapses and is trimmed, "..." keeps whitespace, \' \" \\ \n \t \@ \? \uXXXX are escapes, and an
 * unescaped apostrophe is an error (aapt2 refuses the file, so we do too). A plain string's entry text is what the app
 * gets from getString(). A string holding markup (<b>, <xliff:g>, ...) keeps it: its entry text is the inner XML with
 * the tags exactly as written and the text between them decoded, re-escaped only where it would read as markup
 * (&amp; &lt;).
 */

const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:1.2';

type Content = {
  el: XmlElement;
  /** Whether the content holds child elements: the entry text is then inner XML. */
  markup: boolean;
  value: string;
  /** The span replaced by a new value: the content without the insignificant whitespace and comments around it. */
  coreStart: number;
  coreEnd: number;
  /** Plain content written as "..." in the source: targets are written that way too. */
  quoted: boolean;
  /** Plain content that is a single CDATA section: targets are written as one too. */
  cdata: boolean;
};

type Resource =
  | { kind: 'string'; el: XmlElement; key: string; content: Content; translatable: boolean; notes?: string }
  | { kind: 'plurals'; el: XmlElement; key: string; items: { category: string; content: Content }[]; translatable: boolean; notes?: string }
  | { kind: 'array'; el: XmlElement; key: string; items: { content: Content; notes?: string }[]; translatable: boolean; notes?: string };

interface Parsed {
  text: string;
  bom: boolean;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  doc: XmlDocument;
  resources: Resource[];
  /** xmlns declarations in scope for string content, so a translated fragment with <xliff:g> can be checked. */
  namespaces: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Android escaping

/**
 * Decodes content the way aapt2 does, fed piece by piece: text to run through Android's unescaping, and (for markup
 * strings, `xml` set) tags kept verbatim. Decoded text of a markup string is re-escaped for XML, and whitespace
 * collapsing restarts at each tag, as aapt2 does per text run.
 */
class AndroidDecoder {
  private out = '';
  // Whether the first and the last piece appended are a collapsed space, which the end result drops.
  private startSoft = false;
  private endSoft = false;
  private quote = false;
  private lastSpace = false;
  private xml = false;

  // One decoder serves every string of a file (`reset` before each), rather than a decoder and a closure per string.
  constructor(private readonly fail: (node: XmlText | XmlCData, index: number, message: string) => never) {}

  reset(xml: boolean): void {
    this.out = '';
    this.startSoft = false;
    this.endSoft = false;
    this.quote = false;
    this.lastSpace = false;
    this.xml = xml;
  }

  private append(s: string, soft: boolean): void {
    if (this.out === '') this.startSoft = soft;
    this.out += s;
    this.endSoft = soft;
  }

  /** Markup kept as written. */
  raw(text: string): void {
    this.append(text, false);
    this.lastSpace = false;
  }

  text(v: string, node: XmlText | XmlCData): void {
    const xml = this.xml;
    for (let i = 0; i < v.length; i++) {
      // Ordinary characters are taken as one run: appending them one by one is what made large files slow. Inside
      // quotes white space is ordinary; outside, so is a single space after something written (an ordinary character,
      // or an escape, a tag) and before an ordinary character or an escape: it collapses to itself, and being neither
      // the first nor the last piece it is never trimmed.
      let runEnd = i;
      while (runEnd < v.length) {
        const c = v.charCodeAt(runEnd);
        if (isPlainAndroidChar(c, xml)) runEnd++;
        else if (this.quote ? isAndroidSpace(c) : c === 0x20 && (runEnd > i || (!this.lastSpace && this.out !== '')) && isOrdinaryAfterSpace(v, runEnd + 1, xml)) runEnd++;
        else break;
      }
      if (runEnd > i) {
        this.append(runEnd - i === v.length ? v : v.slice(i, runEnd), false);
        this.lastSpace = false;
        i = runEnd - 1;
        continue;
      }
      const c = v[i]!;
      if (!this.quote && isAndroidSpace(c.charCodeAt(0))) {
        if (!this.lastSpace) this.append(' ', true);
        this.lastSpace = true;
        continue;
      }
      this.lastSpace = false;
      if (c === '\\') {
        const n = v[++i];
        if (n === undefined) break;
        if (n === 't') this.append('\t', false);
        else if (n === 'n') this.append('\n', false);
        else if (n === 'u') {
          let hex = '';
          while (hex.length < 4 && i + 1 < v.length) {
            const h = v[i + 1]!;
            if (!/[0-9A-Fa-f]/.test(h)) this.fail(node, i + 1, `Expected 4 hex digits after \\u (invalid unicode escape sequence)`);
            hex += h;
            i++;
          }
          this.append(escapeIf(xml, String.fromCharCode(parseInt(hex || '0', 16))), false);
        } else this.append(escapeIf(xml, n), false);
      } else if (c === '"') {
        this.quote = !this.quote;
      } else if (c === "'" && !this.quote) {
        this.fail(node, i, "Unescaped apostrophe in a string; expected \\' or the whole text in double quotes");
      } else {
        this.append(escapeIf(xml, c), false);
      }
    }
  }

  finish(): string {
    let out = this.out;
    if (this.startSoft) out = out.slice(1);
    if (this.endSoft && out.endsWith(' ')) out = out.slice(0, -1);
    // The pieces appended are kept only until the file is read: one string instead of a chain of them.
    return flat(out);
  }
}

/** Whether what starts at `at` is written as something other than white space: an ordinary character or an escape. */
function isOrdinaryAfterSpace(v: string, at: number, xml: boolean): boolean {
  if (at >= v.length) return false;
  const c = v.charCodeAt(at);
  return isPlainAndroidChar(c, xml) || (c === 0x5c /* \\ */ && at + 1 < v.length);
}

/** Android's white space: space, tab, LF, CR, VT, FF. */
function isAndroidSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Whether a character decodes to itself: not whitespace, not a backslash or a quote, and not markup to escape. */
function isPlainAndroidChar(c: number, xml: boolean): boolean {
  if (c <= 0x20) return c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0b && c !== 0x0c;
  if (c === 0x5c /* \\ */ || c === 0x22 /* " */ || c === 0x27 /* ' */) return false;
  return !xml || (c !== 0x26 /* & */ && c !== 0x3c /* < */);
}

// Only what would read as markup is escaped, so a markup value's text looks like what the translator typed.
function escapeIf(xml: boolean, s: string): string {
  return xml ? s.replace(/[&<]/g, (c) => (c === '&' ? '&amp;' : '&lt;')) : s;
}

// Characters written as \uXXXX: XML cannot carry them (or a parser would fold them into a line end or a space).
// eslint-disable-next-line no-control-regex
const UNICODE_ESCAPED = /[\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDFFF]/u;

// Any character escapeChar changes.
// eslint-disable-next-line no-control-regex
const ANDROID_ESCAPED = /[\\"'\n\t\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF\uD800-\uDFFF]/u;

/** Android-escapes one character of a value; `'` needs no escape inside "...". */
function escapeChar(c: string, quoted: boolean): string {
  switch (c) {
    case '\\':
      return '\\\\';
    case '"':
      return '\\"';
    case "'":
      return quoted ? "'" : "\\'";
    case '\n':
      return '\\n';
    case '\t':
      return '\\t';
    default:
      return UNICODE_ESCAPED.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
  }
}

// Any character androidXmlEncode changes: Android's escapes and the markup characters of XML text.
// eslint-disable-next-line no-control-regex
const ANDROID_XML_ESCAPED = /[\\"'\n\t&<>\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF\uD800-\uDFFF]/u;

/**
 * escapeChar over a whole value, copying the runs between escapes rather than each character; with `xml`, also
 * escapes & < and > as XML text does, in the same pass.
 */
function escapeChars(value: string, quoted: boolean, xml = false): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let escaped: string;
    if (xml && (c === 0x26 || c === 0x3c || c === 0x3e)) escaped = c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : '&gt;';
    else if (c === 0x5c /* \\ */) escaped = '\\\\';
    else if (c === 0x22 /* " */) escaped = '\\"';
    else if (c === 0x27 /* ' */) {
      if (quoted) continue;
      escaped = "\\'";
    } else if (c === 0x0a) escaped = '\\n';
    else if (c === 0x09) escaped = '\\t';
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair is one character and needs no escape; a lone half does.
      const next = value.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      escaped = unicodeEscape(c);
    } else if (c < 0x20 || c === 0x7f || c === 0xfffe || c === 0xffff) escaped = unicodeEscape(c);
    else continue;
    out += value.slice(from, i) + escaped;
    from = i + 1;
  }
  return from === 0 ? value : out + value.slice(from);
}

function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Escapes a plain value for Android (before XML escaping); wraps it in quotes when whitespace would otherwise collapse. */
function androidEncode(value: string, quoted: boolean): string {
  const wrap = quoted || /^ | $| {2}/.test(value);
  // Most values need no escape at all: copy them whole.
  let out = ANDROID_ESCAPED.test(value) ? escapeChars(value, wrap) : value;
  if (!wrap && (out.startsWith('@') || out.startsWith('?'))) out = `\\${out}`;
  return wrap ? `"${out}"` : out;
}

/**
 * androidEncode followed by escapeXmlText, in one pass: what Android escapes leaves XML nothing to do but & < and >
 * (line ends, tabs and the characters XML cannot carry all become backslash escapes).
 */
function androidXmlEncode(value: string, quoted: boolean): string {
  const wrap = quoted || /^ | $| {2}/.test(value);
  let out = ANDROID_XML_ESCAPED.test(value) ? escapeChars(value, wrap, true) : value;
  if (!wrap && (out.startsWith('@') || out.startsWith('?'))) out = `\\${out}`;
  // A render keeps every encoded value until the file is joined: one string each, not a chain of pieces.
  return flat(wrap ? `"${out}"` : out);
}

/** Escapes a text run of a markup value: spaces that would collapse or be trimmed become \u0020. */
function androidEncodeRun(value: string, atStart: boolean, atEnd: boolean): string {
  let out = '';
  const plain = !ANDROID_ESCAPED.test(value) && !value.includes('  ') && !(atStart && value.startsWith(' ')) && !(atEnd && value.endsWith(' '));
  if (plain) out = value;
  else {
    const chars = [...value];
    chars.forEach((c, i) => {
      if (c === ' ' && ((i === 0 && atStart) || (i === chars.length - 1 && atEnd) || chars[i - 1] === ' ')) out += '\\u0020';
      else out += escapeChar(c, false);
    });
  }
  if (atStart && (out.startsWith('@') || out.startsWith('?'))) out = `\\${out}`;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

function parseResources(bytes: Uint8Array): Parsed {
  const { text, bom, encoding } = decodeXml(bytes);
  const doc = scanXml(text);
  const fail: (message: string, at: number) => never = (message, at) => {
    const { line, column } = lineColumn(text, at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  };
  if (doc.root.name !== 'resources') fail(`Expected <resources> as the root element, found <${doc.root.name}>`, doc.root.start + 1);
  const resources: Resource[] = [];
  // One set operation per key: where a repeated key was first claimed is looked up only when it happens.
  const seen = new Set<string>();
  const claim = (key: string, at: number): void => {
    const size = seen.size;
    seen.add(key);
    if (seen.size === size) fail(`Duplicate resource name '${key}' (first defined at line ${lineColumn(text, firstClaim(resources, key)).line})`, at);
  };
  const nameOf = (el: XmlElement): string => {
    const name = attribute(el, 'name');
    if (!name || name.value === '') fail(`Expected a name attribute on <${el.name}>`, el.start + 1);
    return name.value;
  };
  const decoder = new AndroidDecoder((node, index, message) => fail(message, valueOffset(text, node, index)));
  const rootNamespaces = doc.root.attributes.filter((a) => a.name === 'xmlns' || a.name.startsWith('xmlns:'));
  const children = doc.root.children;
  children.forEach((node, index) => {
    if (node.kind !== 'element') return;
    const el = node;
    if (el.name !== 'string' && el.name !== 'plurals' && el.name !== 'string-array') return;
    // Device variants (product="tablet") share a name; each is its own string, keyed `name[product]`.
    const product = attribute(el, 'product')?.value;
    const key = product === undefined || product === 'default' ? nameOf(el) : `${nameOf(el)}[${product}]`;
    const translatable = attribute(el, 'translatable')?.value !== 'false';
    const notes = commentBefore(children, index);
    if (el.name === 'string') {
      claim(key, el.start);
      resources.push({ kind: 'string', el, key, translatable, notes, content: readContent(text, el, decoder) });
      return;
    }
    const base = { el, key, translatable, ...(notes !== undefined && { notes }) };
    if (el.name === 'plurals') {
      claim(key, el.start);
      const items: { category: string; content: Content }[] = [];
      for (const item of childElements(el)) {
        if (item.name !== 'item') fail(`Expected only <item> elements in <plurals name="${key}">, found <${item.name}>`, item.start + 1);
        const quantity = attribute(item, 'quantity');
        if (!quantity) fail(`Expected a quantity attribute (zero, one, two, few, many or other) on <item> in <plurals name="${key}">`, item.start + 1);
        if (!(PLURAL_CATEGORIES as readonly string[]).includes(quantity.value)) {
          fail(`Expected quantity to be one of zero, one, two, few, many, other; found '${quantity.value}'`, quantity.valueStart);
        }
        if (items.some((i) => i.category === quantity.value)) fail(`Duplicate quantity '${quantity.value}' in <plurals name="${key}">`, quantity.valueStart);
        items.push({ category: quantity.value, content: readContent(text, item, decoder) });
      }
      resources.push({ kind: 'plurals', ...base, items });
    } else {
      const items: { content: Content; notes?: string }[] = [];
      // Listed before its items are claimed, so a repeated item key finds where it was first claimed.
      resources.push({ kind: 'array', ...base, items });
      el.children.forEach((child, i) => {
        if (child.kind !== 'element') return;
        if (child.name !== 'item') fail(`Expected only <item> elements in <string-array name="${key}">, found <${child.name}>`, child.start + 1);
        const itemNotes = commentBefore(el.children, i) ?? notes;
        items.push({ content: readContent(text, child, decoder), ...(itemNotes !== undefined && { notes: itemNotes }) });
        claim(`${key}.${items.length - 1}`, child.start);
      });
    }
  });
  const declared = new Map(rootNamespaces.map((a) => [a.name, a.value]));
  if (!declared.has('xmlns:xliff')) declared.set('xmlns:xliff', XLIFF_NS);
  const namespaces = [...declared].map(([name, value]) => `${name}="${escapeXmlAttribute(value, '"')}"`).join(' ');
  return { text, bom, encoding, doc, resources, namespaces };
}

/** Where `key` was first claimed: a string or plurals element, or an item of a string array (`name.index`). */
function firstClaim(resources: readonly Resource[], key: string): number {
  for (const r of resources) {
    if (r.kind !== 'array') {
      if (r.key === key) return r.el.start;
      continue;
    }
    for (let i = 0; i < r.items.length; i++) if (`${r.key}.${i}` === key) return r.items[i]!.content.el.start;
  }
  return 0;
}

/** The last comment before `index` among siblings, with only whitespace between: the element's notes. */
function commentBefore(siblings: readonly XmlNode[], index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const node = siblings[i]!;
    if (node.kind === 'text' && /^[ \t\r\n]*$/.test(node.raw)) continue;
    if (node.kind === 'comment') return node.value.trim() || undefined;
    return undefined;
  }
  return undefined;
}

function readContent(text: string, el: XmlElement, decoder: AndroidDecoder): Content {
  const children = el.children;
  let markup = false;
  for (const n of children) if (n.kind === 'element') markup = true;
  decoder.reset(markup);
  decodeNodes(text, children, markup, decoder);
  const value = decoder.finish();
  // The core: from the first significant character to the last, leaving surrounding whitespace and comments alone.
  let coreStart = -1;
  let coreEnd = -1;
  let insertAt = el.openEnd;
  // The child the core starts at the beginning of, if any.
  let first: XmlNode | undefined;
  for (const n of children) {
    if (n.kind === 'comment' || n.kind === 'pi') {
      if (coreStart < 0) insertAt = n.end;
      continue;
    }
    if (n.kind === 'text') {
      let from = n.start;
      while (from < n.end && isXmlSpace(text.charCodeAt(from))) from++;
      if (from === n.end) continue;
      if (coreStart < 0) {
        coreStart = from;
        first = from === n.start ? n : undefined;
      }
      let to = n.end;
      while (isXmlSpace(text.charCodeAt(to - 1))) to--;
      coreEnd = to;
    } else {
      if (coreStart < 0) {
        coreStart = n.start;
        first = n;
      }
      coreEnd = n.end;
    }
  }
  // No text yet: a new value is inserted after any comments, leaving the (insignificant) whitespace in place.
  if (coreStart < 0) [coreStart, coreEnd] = [insertAt, insertAt];
  const cdata = !markup && first?.kind === 'cdata' && first.end === coreEnd;
  const quoted = !markup && !cdata && isQuoted(text, coreStart, coreEnd);
  return { el, markup, value, coreStart, coreEnd, quoted, cdata };
}

/** Feeds content to the decoder: text (and, in plain strings, CDATA) to unescape, tags (and markup's CDATA) verbatim. */
function decodeNodes(text: string, nodes: readonly XmlNode[], markup: boolean, decoder: AndroidDecoder): void {
  for (const n of nodes) {
    if (n.kind === 'text') decoder.text(n.value, n);
    else if (n.kind === 'cdata') {
      if (markup) decoder.raw(text.slice(n.start, n.end));
      else decoder.text(n.value, n);
    } else if (n.kind === 'element') {
      decoder.raw(text.slice(n.start, n.openEnd));
      decodeNodes(text, n.children, markup, decoder);
      if (!n.selfClosing) decoder.raw(text.slice(n.closeStart, n.end));
    }
  }
}

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Whether raw content (`text` from `start` to `end`) is one "..." run: it opens with a quote that only closes at its last character. */
function isQuoted(text: string, start: number, end: number): boolean {
  if (end - start < 2 || text.charCodeAt(start) !== 0x22 || text.charCodeAt(end - 1) !== 0x22) return false;
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \\ */) i++;
    else if (c === 0x22) return i === end - 1;
  }
  return false;
}

/** The file offset of the `index`-th character of a text or CDATA node's decoded value. */
function valueOffset(text: string, node: XmlText | XmlCData, index: number): number {
  let at = node.kind === 'cdata' ? node.start + 9 : node.start;
  for (let k = 0; k < index && at < node.end; k++) {
    if (node.kind === 'text' && text[at] === '&') {
      // A reference is one decoded character, or two UTF-16 units for a code point above U+FFFF.
      const semi = text.indexOf(';', at);
      const numeric = /^&#(x[0-9A-Fa-f]+|[0-9]+);$/.exec(text.slice(at, semi + 1))?.[1];
      const code = numeric === undefined ? 0 : numeric.startsWith('x') ? parseInt(numeric.slice(1), 16) : parseInt(numeric, 10);
      at = semi + 1;
      if (code > 0xffff) k++;
    } else if (text[at] === '\r' && text[at + 1] === '\n') at += 2;
    else at++;
  }
  return at;
}

function toEntries(parsed: Parsed): Entry[] {
  const { text } = parsed;
  const entries: Entry[] = [];
  for (const r of parsed.resources) {
    if (r.kind === 'string') {
      entries.push(entryOf(r.key, [r.key], r.content.value, undefined, r.translatable, r.notes, lineColumn(text, r.content.coreStart)));
    } else if (r.kind === 'plurals') {
      const plurals: PluralForms = {};
      for (const c of PLURAL_CATEGORIES) {
        const item = r.items.find((i) => i.category === c);
        if (item) plurals[c] = item.content.value;
      }
      const main = r.items.find((i) => i.category === 'other') ?? r.items[r.items.length - 1];
      const position = lineColumn(text, main ? main.content.coreStart : r.el.openEnd);
      entries.push(entryOf(r.key, [r.key], plurals.other ?? main?.content.value ?? '', plurals, r.translatable, r.notes, position));
    } else {
      r.items.forEach((item, i) => {
        const key = `${r.key}.${i}`;
        entries.push(entryOf(key, [r.key, String(i)], item.content.value, undefined, r.translatable, item.notes, lineColumn(text, item.content.coreStart)));
      });
    }
  }
  return entries;
}

/** An entry with its optional fields present only when set, in the order entries always list them. */
function entryOf(
  key: string,
  path: string[],
  source: string,
  plurals: PluralForms | undefined,
  translatable: boolean,
  notes: string | undefined,
  position: { line: number; column: number },
): Entry {
  const entry: Partial<Entry> = plurals === undefined ? { key, path, source } : { key, path, source, plurals };
  if (!translatable) entry.translatable = false;
  if (notes !== undefined) entry.notes = notes;
  entry.line = position.line;
  entry.column = position.column;
  return entry as Entry;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** The markup for a new value in the style of `like`: inner XML for markup sources, else escaped (quoted, CDATA) text. */
function encodeContent(parsed: Parsed, like: Content | undefined, value: string): string {
  if (like?.markup) {
    const fragment = markupFragment(parsed, value);
    if (fragment !== undefined) return fragment;
  }
  const quoted = like?.quoted ?? false;
  if (like?.cdata) return `<![CDATA[${androidEncode(value, quoted).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
  return androidXmlEncode(value, quoted);
}

/** A value with at least one well-formed element, re-escaped for Android; undefined when it is plain text. */
function markupFragment(parsed: Parsed, value: string): string | undefined {
  // A CR must survive the XML parser's line-end folding: it reads back as a CR, as the value has it.
  const wrapped = `<x ${parsed.namespaces}>${value.replaceAll('\r', '&#13;')}</x>`;
  let root: XmlElement;
  try {
    root = scanXml(wrapped).root;
  } catch {
    return undefined;
  }
  if (!root.children.some((n) => n.kind === 'element')) return undefined;
  const runs: XmlText[] = [];
  const listRuns = (nodes: readonly XmlNode[]): void => {
    for (const n of nodes) {
      if (n.kind === 'text') runs.push(n);
      else if (n.kind === 'element') listRuns(n.children);
    }
  };
  listRuns(root.children);
  const first = root.children[0];
  const last = root.children[root.children.length - 1];
  const write = (nodes: readonly XmlNode[]): string => {
    let out = '';
    for (const n of nodes) {
      if (n.kind === 'text') out += escapeXmlText(androidEncodeRun(n.value, n === first, n === last));
      else if (n.kind === 'element') {
        out += wrapped.slice(n.start, n.openEnd) + write(n.children) + (n.selfClosing ? '' : wrapped.slice(n.closeStart, n.end));
      } else out += wrapped.slice(n.start, n.end);
    }
    return out;
  };
  return write(root.children);
}

function valueEdit(parsed: Parsed, content: Content, value: string): XmlEdit {
  const encoded = encodeContent(parsed, content, value);
  if (content.el.selfClosing) return contentEdit(parsed.text, content.el, encoded);
  return { start: content.coreStart, end: content.coreEnd, text: encoded };
}

function removal(text: string, el: XmlElement): XmlEdit {
  return { start: removalStart(text, el.start), end: el.end, text: '' };
}

function formsOf(value: Value, locale: string): PluralForms {
  if (typeof value !== 'string') return value.plurals;
  const forms: PluralForms = {};
  for (const c of pluralCategories(locale)) forms[c] = value;
  return forms;
}

function textOf(value: Value): string {
  return typeof value === 'string' ? value : (value.plurals.other ?? Object.values(value.plurals)[0] ?? '');
}

function pluralEdits(parsed: Parsed, r: Extract<Resource, { kind: 'plurals' }>, forms: PluralForms): XmlEdit[] {
  const { text } = parsed;
  const categories = PLURAL_CATEGORIES.filter((c) => forms[c] !== undefined);
  const edits: XmlEdit[] = [];
  for (const item of r.items) {
    const form = forms[item.category as keyof PluralForms];
    if (form !== undefined && form !== item.content.value) edits.push(valueEdit(parsed, item.content, form));
  }
  const template = r.items.find((i) => i.category === 'other') ?? r.items[r.items.length - 1];
  const make = (category: string): string => {
    const form = forms[category as keyof PluralForms] ?? '';
    if (!template) return `<item quantity="${category}">${encodeContent(parsed, undefined, form)}</item>`;
    const el = template.content.el;
    const quantity = attribute(el, 'quantity')!;
    const startTag = text.slice(el.start, quantity.valueStart) + category + text.slice(quantity.valueEnd, el.selfClosing ? el.end - 2 : el.openEnd);
    const endTag = el.selfClosing ? '</item>' : text.slice(el.closeStart, el.end);
    return `${startTag.endsWith('>') ? startTag : `${startTag.trimEnd()}>`}${encodeContent(parsed, template.content, form)}${endTag}`;
  };
  const slots = r.items.map((i) => ({ category: i.category, start: i.content.el.start, end: i.content.el.end }));
  const slotEdits = pluralSlotEdits(text, slots, categories, make);
  if (slotEdits) return [...edits, ...slotEdits];
  // No item to copy the layout from: indent one step deeper than the <plurals> element.
  const indent = lineIndent(text, r.el.start);
  const inner = `${indent}${indent || '    '}`;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = categories.map((c) => `${eol}${inner}${make(c)}`).join('') + `${eol}${indent}`;
  return [contentEdit(text, r.el, body)];
}

function render(input: RenderInput): Uint8Array {
  const parsed = parseResources(input.source);
  const { text, resources } = parsed;
  const locale = input.locale ?? input.sourceLocale ?? 'en';
  const omit = input.missing === 'omit';
  const edits: XmlEdit[] = [];
  for (const r of resources) {
    if (!r.translatable) continue;
    if (r.kind === 'string') {
      const value = input.values.get(r.key);
      if (value === undefined) {
        if (omit) edits.push(removal(text, r.el));
      } else if (textOf(value) !== r.content.value) edits.push(valueEdit(parsed, r.content, textOf(value)));
    } else if (r.kind === 'plurals') {
      const value = input.values.get(r.key);
      if (value === undefined) {
        if (omit) edits.push(removal(text, r.el));
        continue;
      }
      const forms = formsOf(value, locale);
      const same = r.items.length === Object.keys(forms).length && r.items.every((i) => forms[i.category as keyof PluralForms] === i.content.value);
      if (!same) edits.push(...pluralEdits(parsed, r, forms));
    } else {
      const values = r.items.map((_, i) => input.values.get(`${r.key}.${i}`));
      // Items cannot be left out one by one (indices would shift): an array goes only when none of it is translated.
      if (omit && r.items.length > 0 && values.every((v) => v === undefined)) {
        edits.push(removal(text, r.el));
        continue;
      }
      r.items.forEach((item, i) => {
        const value = values[i];
        if (value !== undefined && textOf(value) !== item.content.value) edits.push(valueEdit(parsed, item.content, textOf(value)));
      });
    }
  }
  if (edits.length === 0) return input.source.slice();
  return encodeXml(splice(text, edits), parsed.bom, parsed.encoding);
}

function renderFresh(entries: readonly FreshEntry[]): Uint8Array {
  let out = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n';
  for (const entry of entries) {
    if (entry.notes !== undefined && entry.notes !== '') out += `    <!-- ${commentText(entry.notes)} -->\n`;
    const name = escapeXmlAttribute(entry.key, '"');
    if (typeof entry.value === 'string') {
      out += `    <string name="${name}">${androidXmlEncode(entry.value, false)}</string>\n`;
    } else {
      out += `    <plurals name="${name}">\n`;
      for (const c of PLURAL_CATEGORIES) {
        const form = entry.value.plurals[c];
        if (form !== undefined) out += `        <item quantity="${c}">${androidXmlEncode(form, false)}</item>\n`;
      }
      out += '    </plurals>\n';
    }
  }
  return new TextEncoder().encode(`${out}</resources>\n`);
}

/** Comment text XML allows: no '--' and no trailing '-'. */
function commentText(notes: string): string {
  return notes.replace(/--/g, '- -').replace(/-$/, '- ');
}

export const androidXmlCodec: Codec = {
  id: 'android_xml',
  extensions: ['.xml'],
  plurals: true,
  detect(fileName, head) {
    const xml = /\.xml$/i.test(fileName);
    const resources = /<resources[\s>/]/.test(head);
    if (xml && resources) return /(^|[\\/])values[^\\/]*[\\/][^\\/]+$/.test(fileName) || /<(string|plurals|string-array)[\s>]/.test(head) ? 0.95 : 0.8;
    if (resources && /<(string|plurals|string-array)\s+name=/.test(head)) return 0.5;
    return 0;
  },
  parse(bytes) {
    return toEntries(parseResources(bytes));
  },
  render,
  renderFresh,
};
