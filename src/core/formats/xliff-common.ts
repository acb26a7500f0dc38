// What both XLIFF codecs share: reading and writing <source>/<target> content, locale modes and splice edits.
import type { Entry, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { escapeXmlAttribute, escapeXmlText, flat, lineColumn, scanXml, splice, type XmlAttribute, type XmlDocument, type XmlElement } from './xml-scan.js';
import { trimXmlSpaceEnd } from './trim.js';

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The content of a <source> or <target> as an entry value. */
export interface Content {
  /**
   * Text mode: the decoded text. Markup mode (the element holds inline elements, comments or processing
   * instructions): the raw inner XML exactly as written, so codes like <x/>, <g> or <ph/> travel with the value.
   */
  value: string;
  markup: boolean;
  /** The whole content is one CDATA section, so a changed value is written as CDATA too. */
  cdata: boolean;
}

/** An element's inner XML exactly as written (asked for only when needed, rather than kept for every unit). */
export function innerXml(el: XmlElement, text: string): string {
  return el.selfClosing ? '' : text.slice(el.openEnd, el.closeStart);
}

// Characters XML 1.0 cannot carry; XLIFF 2 writes them as <cp hex="…"/>. With `u`, only unpaired surrogates match.
// eslint-disable-next-line no-control-regex
const INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
// eslint-disable-next-line no-control-regex
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;

/** The element name without its namespace prefix: XLIFF files are matched by local name. */
export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

export function children(el: XmlElement, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const n of el.children) if (n.kind === 'element' && isNamed(n.name, local)) out.push(n);
  return out;
}

/** The first child element with the given local name, without collecting the others. */
export function firstChild(el: XmlElement, local: string): XmlElement | undefined {
  for (const n of el.children) if (n.kind === 'element' && isNamed(n.name, local)) return n;
  return undefined;
}

/** Whether a qualified name has the given local name, without slicing it. */
function isNamed(name: string, local: string): boolean {
  const colon = name.indexOf(':');
  return colon < 0 ? name === local : name.length - colon - 1 === local.length && name.endsWith(local);
}

/** The first two <source> and <target> children of `el` (a second of either is an error for the caller to name); `other` sees the rest. */
export function sourcesAndTargets(el: XmlElement, other?: (child: XmlElement, name: string) => void) {
  let source: XmlElement | undefined;
  let secondSource: XmlElement | undefined;
  let target: XmlElement | undefined;
  let secondTarget: XmlElement | undefined;
  for (const child of el.children) {
    if (child.kind !== 'element') continue;
    const name = localName(child.name);
    if (name === 'source') {
      if (!source) source = child;
      else secondSource ??= child;
    } else if (name === 'target') {
      if (!target) target = child;
      else secondTarget ??= child;
    } else other?.(child, name);
  }
  return { source, secondSource, target, secondTarget };
}

export function attr(el: XmlElement, name: string): string | undefined {
  for (const a of el.attributes) if (a.name === name) return a.value;
  return undefined;
}

/** Reads an element's content; `codePoints` (XLIFF 2) reads <cp hex/> as the character it stands for. */
export function readContent(el: XmlElement, text: string, codePoints: boolean): Content {
  let value = '';
  let markup = false;
  for (const node of el.children) {
    if (node.kind === 'text' || node.kind === 'cdata') value += node.value;
    else if (codePoints && node.kind === 'element' && localName(node.name) === 'cp' && node.children.length === 0) {
      const code = codePointOf(attr(node, 'hex'));
      if (code === undefined) markup = true;
      else value += String.fromCodePoint(code);
    } else markup = true;
  }
  const only = el.children[0];
  const cdata = el.children.length === 1 && only?.kind === 'cdata';
  return { value: markup ? innerXml(el, text) : value, markup, cdata };
}

function codePointOf(hex: string | undefined): number | undefined {
  if (hex === undefined || !/^[0-9A-Fa-f]{1,6}$/.test(hex)) return undefined;
  const code = parseInt(hex, 16);
  return code <= 0x10ffff ? code : undefined;
}

/**
 * Writes a value as element content in the style of `like`. A markup-mode value is written as XML when it is a
 * well-formed fragment (after escaping stray '&' and '<', which translators and engines often leave bare);
 * anything else is escaped as text, so the file always stays well-formed and reads back as the value.
 */
export function writeContent(value: string, like: { markup: boolean; cdata: boolean }, codePoints: boolean): string {
  if (like.markup) {
    if (isFragment(value)) return value;
    const repaired = value
      .replace(/&(?!(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9A-Fa-f]+);)/g, '&amp;')
      .replace(/<(?![A-Za-z_:/!?])/g, '&lt;')
      .replace(INVALID_CHARS, (c) => (codePoints ? codePointElement(c) : '\uFFFD'));
    if (isFragment(repaired)) return repaired;
  }
  // A CR cannot live in CDATA (parsers fold it into a line end), nor can characters XML forbids.
  if (like.cdata && !value.includes('\r') && !INVALID_CHAR.test(value)) {
    return `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
  }
  return codePoints ? escapeWithCodePoints(value) : escapeXmlText(value);
}

/** Escapes text for XLIFF 2, where a character XML cannot carry is written as <cp hex="…"/> instead of being lost. */
function escapeWithCodePoints(value: string): string {
  // Nearly every value holds no such character: one test instead of an iterator over matches.
  if (!INVALID_CHAR.test(value)) return escapeXmlText(value);
  let out = '';
  let at = 0;
  for (const match of value.matchAll(INVALID_CHARS)) {
    out += escapeXmlText(value.slice(at, match.index));
    out += codePointElement(match[0]);
    at = match.index + match[0].length;
  }
  return out + escapeXmlText(value.slice(at));
}

function codePointElement(char: string): string {
  return `<cp hex="${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}"/>`;
}

/**
 * Scans a decoded document. The scanner caches line starts for the last text it saw and recognises that text by
 * comparing contents, so a fresh decode of the same file would be compared in full at every node; starting from an
 * unrelated text makes that check cheap again.
 */
export function scanDocument(text: string): XmlDocument {
  lineColumn('', 0);
  return scanXml(text);
}

/** Whether a string is well-formed XML content (text, elements, references, CDATA, comments). */
export function isFragment(value: string): boolean {
  try {
    scanXml(`<x>${value}</x>`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Replaces an element's content and applies attribute edits to its start tag. A self-closing element is opened up,
 * which rewrites the whole element, so its attribute edits are folded into that one edit.
 */
export function replaceContent(el: XmlElement, text: string, inner: string, attributeEdits: readonly Edit[] = []): Edit[] {
  if (!el.selfClosing) return [...attributeEdits, { start: el.openEnd, end: el.closeStart, text: inner }];
  const openEnd = el.end - 2;
  const shifted = attributeEdits.map((e) => ({ ...e, start: e.start - el.start, end: e.end - el.start }));
  const open = trimXmlSpaceEnd(splice(text.slice(el.start, openEnd), shifted));
  return [{ start: el.start, end: el.end, text: `${open}>${inner}</${el.name}>` }];
}

/**
 * Removes an element. When it sits alone on its lines, the line break before it and its indentation go too,
 * so the lines around it close up as if it had never been there.
 */
export function removal(text: string, el: XmlElement): Edit {
  let start = el.start;
  let end = el.end;
  // Walk back to the line start: lastIndexOf('\r') on an LF file would scan to the top every time.
  let lineStart = start;
  while (lineStart > 0 && text[lineStart - 1] !== '\n' && text[lineStart - 1] !== '\r') lineStart--;
  const trailing = /^[ \t]*(?=\r|\n|$)/.exec(text.slice(end));
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && trailing) {
    end += trailing[0].length;
    if (lineStart > 0) {
      start = lineStart - 1;
      if (text[start] === '\n' && text[start - 1] === '\r') start--;
    } else {
      const lineEnd = /^(?:\r\n|\n|\r)?/.exec(text.slice(end))!;
      end += lineEnd[0].length;
      start = lineStart;
    }
  }
  return { start, end, text: '' };
}

/**
 * Inserts markup right after `anchor`, laid out like `anchor` itself: on a new line with the same indentation
 * (and the same line break) when `anchor` starts its own line, else after the same whitespace.
 */
export function insertAfter(text: string, anchor: XmlElement, markup: string): Edit {
  let wsStart = anchor.start;
  for (let c = text.charCodeAt(wsStart - 1); c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a; c = text.charCodeAt(--wsStart - 1));
  // The run holds only whitespace, so what follows its last line break is the indentation: take the break with it.
  let lead = wsStart;
  for (let i = anchor.start - 1; i >= wsStart; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) {
      lead = c === 0x0a && i > wsStart && text.charCodeAt(i - 1) === 0x0d ? i - 1 : i;
      break;
    }
  }
  // Flattened now: the pieces would otherwise be kept, each, until the whole file is joined.
  return { start: anchor.end, end: anchor.end, text: flat(text.slice(lead, anchor.start) + markup) };
}

/**
 * Sets an attribute: rewrites the value of an existing one (keeping its quote), or inserts it after the first of
 * `after` that is present (else after the last attribute). Returns undefined when it already has the value.
 */
export function setAttribute(el: XmlElement, name: string, value: string, after: readonly string[] = []): Edit | undefined {
  const { attributes } = el;
  for (const a of attributes) {
    if (a.name !== name) continue;
    if (a.value === value) return undefined;
    return { start: a.valueStart, end: a.valueEnd, text: escapeXmlAttribute(value, a.quote) };
  }
  // Looked up without intermediate arrays: a render sets the state of every unit.
  let anchor: XmlAttribute | undefined;
  for (let i = 0; i < after.length && !anchor; i++) for (const a of attributes) if (a.name === after[i]) anchor = a;
  anchor ??= attributes[attributes.length - 1];
  const at = anchor ? anchor.end : el.start + 1 + el.name.length;
  return { start: at, end: at, text: attributeText(name, value, anchor?.quote ?? '"') };
}

// The last attribute written: a render writes the same one (state="translated") on unit after unit, and one string
// then serves them all instead of a copy each kept until the file is joined.
let lastAttribute = { name: '', value: '', quote: '"', text: '' };

function attributeText(name: string, value: string, quote: '"' | "'"): string {
  const last = lastAttribute;
  if (last.name === name && last.value === value && last.quote === quote) return last.text;
  const text = ` ${name}=${quote}${escapeXmlAttribute(value, quote)}${quote}`;
  lastAttribute = { name, value, quote, text };
  return text;
}

/** The start tag of a new element named like `sibling` (same prefix), with attributes written in order. */
export function startTag(sibling: XmlElement, local: string, attributes: readonly (readonly [string, string])[]): { open: string; close: string } {
  const colon = sibling.name.indexOf(':');
  const name = colon < 0 ? local : `${sibling.name.slice(0, colon)}:${local}`;
  let attrs = '';
  for (const [n, v] of attributes) attrs += ` ${n}="${escapeXmlAttribute(v, '"')}"`;
  return { open: `<${name}${attrs}>`, close: `</${name}>` };
}

function sameLocale(a: string, b: string): boolean {
  return a.replaceAll('_', '-').toLowerCase() === b.replaceAll('_', '-').toLowerCase();
}

/**
 * The locale a render writes targets for, or undefined when it renders the source language itself (no locale,
 * or the source locale): then changed values replace the <source> text, and targets are left as they are.
 */
export function targetLocaleOf(input: RenderInput, fileSourceLanguages: readonly (string | undefined)[]): string | undefined {
  const locale = input.locale;
  if (locale === undefined) return undefined;
  const sources = [input.sourceLocale, ...fileSourceLanguages].filter((s): s is string => s !== undefined);
  if (sources.length === 0) sources.push('en');
  return sources.some((s) => sameLocale(s, locale)) ? undefined : locale;
}

/** An entry with its optional fields present only when set, in the order entries always list them. */
export function entryOf(
  key: string,
  source: string,
  unit: { translatable: boolean; notes: string | undefined; maxLength: number | undefined },
  context: string | undefined,
  position: { line: number; column: number },
): Entry {
  const entry: Partial<Entry> = { key, path: [key], source };
  if (!unit.translatable) entry.translatable = false;
  if (unit.notes !== undefined) entry.notes = unit.notes;
  if (context !== undefined) entry.context = context;
  if (unit.maxLength !== undefined) entry.maxLength = unit.maxLength;
  entry.line = position.line;
  entry.column = position.column;
  return entry as Entry;
}

/** Throws the error for a structural problem at an offset, in the scanner's message style. */
export function fail(text: string, at: number, message: string): never {
  const { line, column } = lineColumn(text, at);
  throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
}

/** Whether a value has whitespace an XML consumer would collapse unless xml:space="preserve" is in effect. */
export function needsPreserve(value: string): boolean {
  return /^\s|\s$|\s\s|[\t\n\r]/.test(value);
}

/** Detects an XLIFF file of the given major version from its name and first bytes. */
export function detectXliff(fileName: string, head: string, major: 1 | 2): number {
  const named = /\.(xlf|xliff|xlif)$/i.test(fileName);
  // The lookahead keeps Android's <xliff:g> placeholders from passing for an XLIFF root.
  const root = /<(?:[\w.-]+:)?xliff(?=[\s/>])[^>]*>/.exec(head.slice(0, 4096))?.[0];
  if (root === undefined) return named && !/<[\w.-]/.test(head.replace(/<\?[^]*?\?>|<!--[^]*?-->/g, '')) ? 0.3 : named ? 0.1 : 0;
  const version = /\bversion\s*=\s*["'](\d)/.exec(root)?.[1] ?? (/document:2\.\d/.test(root) ? '2' : /document:1\.\d/.test(root) ? '1' : undefined);
  if (version === undefined) return named ? 0.5 : 0.3;
  if (Number(version) !== major) return 0.05;
  return named ? 1 : 0.9;
}

