/** TMX translation-memory exchange: reads TMX 1.1–1.4b files into translation units, and writes units as TMX 1.4b. */
import { FileUnparsableError } from './formats/file-unparsable-error.js';
import { decodeXml, escapeXmlAttribute, escapeXmlText, lineColumn, scanXml, textContent, type XmlElement } from './formats/xml-scan.js';

/** One language's text of a translation unit. */
export interface TmxVariant {
  /** BCP-47 tag, canonicalised ('EN-US' → 'en-US') when well-formed, otherwise as the file wrote it. */
  locale: string;
  /** The segment as native text: inline codes turned back into the text they stand for. */
  text: string;
}

export interface TmxUnit {
  /** The `tuid` attribute, when the file gives one. */
  id?: string;
  /** One per `<tuv>`, in file order. */
  variants: TmxVariant[];
  /** Non-blank `<note>`s of the unit and then of its variants, in file order. */
  notes: string[];
  /** 1-based line of the `<tu>` start tag. */
  line: number;
}

export interface TmxDocument {
  /** The header's `srclang`; undefined when it is `*all*` or missing and no fallback was given. */
  sourceLocale: string | undefined;
  units: TmxUnit[];
}

export interface TmxParseOptions {
  /** Source locale to assume when the header does not fix one (`srclang="*all*"` or none). */
  sourceLocale?: string;
}

/** One source text and its translations, as the translation memory exports it. */
export interface TmxExportUnit {
  id?: string;
  source: string;
  targets: readonly TmxVariant[];
  note?: string;
  created?: Date;
}

export interface TmxExportInput {
  sourceLocale: string;
  units: readonly TmxExportUnit[];
  /** Written as the header's creationtool and creationtoolversion. */
  tool?: { name: string; version: string };
}

// src/core cannot know which release it runs in; the host passes `tool` with its version when it has one.
const DEFAULT_TOOL = { name: 'Parlance', version: 'unknown' };

/** `srclang` value meaning any variant of a unit may be its source. */
const ANY_SOURCE = '*all*';

// Inline elements whose content is the native code they replace (TMX 1.4b §3.5); `<sub>` inside them is text again.
const NATIVE_CODE_ELEMENTS: ReadonlySet<string> = new Set(['bpt', 'ept', 'it', 'ph', 'ut']);
const INLINE_ELEMENTS = '<bpt>, <ept>, <it>, <ph>, <hi> or <ut>';

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** Parses a TMX file; malformed XML or a structure no TMX reader could use throws FileUnparsableError with its position. */
export function parseTmx(bytes: Uint8Array, options: TmxParseOptions = {}): TmxDocument {
  const { text } = decodeXml(bytes);
  // lineColumn recognises its cached text by comparing contents; starting from an unrelated text keeps that check cheap.
  lineColumn('', 0);
  const { root } = scanXml(text);
  if (root.name !== 'tmx') fail(text, root.start, `Expected a <tmx> root element; found <${root.name}>`);
  checkVersion(text, root);
  const sections = elementChildren(text, root, ['header', 'body']);
  const header = single(text, root, sections, 'header');
  const body = single(text, root, sections, 'body');
  const srclang = attributeValue(header, 'srclang')?.trim();
  const declared = srclang === undefined || srclang === '' || srclang === ANY_SOURCE ? undefined : canonicalLocale(srclang);
  return {
    sourceLocale: declared ?? options.sourceLocale,
    units: elementChildren(text, body, ['tu']).map((tu) => readUnit(text, tu)),
  };
}

function checkVersion(text: string, root: XmlElement): void {
  const version = root.attributes.find((a) => a.name === 'version');
  // Writers disagree on '1.4' and '1.4b'; every 1.x reads the same for what a translation memory keeps.
  if (version && !/^1(?:\.\d+)?[a-z]?$/.test(version.value.trim())) {
    fail(text, version.start, `Expected TMX version 1.1 to 1.4b; found version "${version.value}"`);
  }
}

/** The one child of a kind, which TMX requires exactly once. */
function single(text: string, parent: XmlElement, children: readonly XmlElement[], name: string, label = `<${parent.name}>`): XmlElement {
  const matching = children.filter((c) => c.name === name);
  const [first, second] = matching;
  if (!first) fail(text, parent.start, `Expected a <${name}> in ${label}`);
  if (second) fail(text, second.start, `Expected one <${name}> in ${label}; found another`);
  return first;
}

/** Child elements, refusing any the TMX content model does not allow there. Stray text between them carries nothing. */
function elementChildren(text: string, parent: XmlElement, allowed: readonly string[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of parent.children) {
    if (node.kind !== 'element') continue;
    if (!allowed.includes(node.name)) {
      fail(text, node.start, `Unexpected <${node.name}> in <${parent.name}>; expected ${allowed.map((a) => `<${a}>`).join(', ')}`);
    }
    out.push(node);
  }
  return out;
}

function readUnit(text: string, tu: XmlElement): TmxUnit {
  const id = attributeValue(tu, 'tuid');
  const notes: string[] = [];
  const variants: TmxVariant[] = [];
  for (const el of elementChildren(text, tu, ['note', 'prop', 'tuv'])) {
    if (el.name === 'note') addNote(notes, el);
    else if (el.name === 'tuv') variants.push(readVariant(text, el, notes));
  }
  if (variants.length === 0) fail(text, tu.start, `Expected at least one <tuv> in ${describeUnit(tu)}`);
  return id === undefined ? { variants, notes, line: tu.line } : { id, variants, notes, line: tu.line };
}

function readVariant(text: string, tuv: XmlElement, notes: string[]): TmxVariant {
  // TMX 1.4 names the language with xml:lang; TMX 1.1 (still written by OmegaT's project files) with lang.
  const lang = (attributeValue(tuv, 'xml:lang') ?? attributeValue(tuv, 'lang'))?.trim();
  if (lang === undefined || lang === '') fail(text, tuv.start, 'Expected an xml:lang attribute (or TMX 1.1 lang) on <tuv>');
  const children = elementChildren(text, tuv, ['note', 'prop', 'seg']);
  for (const el of children) if (el.name === 'note') addNote(notes, el);
  const seg = single(text, tuv, children, 'seg', `<tuv xml:lang="${lang}">`);
  return { locale: canonicalLocale(lang), text: nativeText(text, seg) };
}

function addNote(notes: string[], note: XmlElement): void {
  const value = textContent(note);
  if (value.trim() !== '') notes.push(value);
}

/** Segment (or `<hi>`, `<sub>`) content as native text: inline codes give back the code they carry, `<hi>` its text. */
function nativeText(text: string, el: XmlElement): string {
  let out = '';
  for (const node of el.children) {
    if (node.kind === 'text' || node.kind === 'cdata') out += node.value;
    else if (node.kind === 'element') {
      if (NATIVE_CODE_ELEMENTS.has(node.name)) out += nativeCode(text, node);
      else if (node.name === 'hi') out += nativeText(text, node);
      else fail(text, node.start, `Unexpected <${node.name}> in <${el.name}>; expected text or the TMX inline elements ${INLINE_ELEMENTS}`);
    }
  }
  return out;
}

/** The native code an inline element carries; an empty element (as Trados Studio writes them) carries none. */
function nativeCode(text: string, el: XmlElement): string {
  let out = '';
  for (const node of el.children) {
    if (node.kind === 'text' || node.kind === 'cdata') out += node.value;
    else if (node.kind === 'element') {
      if (node.name === 'sub') out += nativeText(text, node);
      else fail(text, node.start, `Unexpected <${node.name}> in <${el.name}>; expected its native code as text, or <sub>`);
    }
  }
  return out;
}

function describeUnit(tu: XmlElement): string {
  const id = attributeValue(tu, 'tuid');
  return id === undefined ? '<tu>' : `<tu tuid="${id}">`;
}

function attributeValue(el: XmlElement, name: string): string | undefined {
  return el.attributes.find((a) => a.name === name)?.value;
}

/** Canonical BCP-47 casing, so 'EN-US' in one tool's file and 'en-US' in another's name the same locale. */
function canonicalLocale(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    // Not well-formed ('en_US', 'English'): kept as written so the importer can name it when it validates locales.
    return tag;
  }
}

function fail(text: string, at: number, message: string): never {
  const { line, column } = lineColumn(text, at);
  throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/**
 * Renders a TMX 1.4b document (UTF-8, no BOM). Texts are written as plain text: placeholders and markup stay literal
 * (escaped) rather than becoming inline elements, so any TMX reader gets the exact string back.
 */
export function renderTmx(input: TmxExportInput): string {
  const tool = input.tool ?? DEFAULT_TOOL;
  const header =
    `<header creationtool="${escapeAttribute(tool.name)}" creationtoolversion="${escapeAttribute(tool.version)}"` +
    ` segtype="sentence" o-tmf="parlance" adminlang="en" srclang="${escapeAttribute(input.sourceLocale)}" datatype="plaintext"/>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  ${header}`,
    '  <body>',
    ...input.units.flatMap((unit) => unitLines(input.sourceLocale, unit)),
    '  </body>',
    '</tmx>',
    '',
  ].join('\n');
}

function unitLines(sourceLocale: string, unit: TmxExportUnit): string[] {
  let attributes = unit.id === undefined ? '' : ` tuid="${escapeAttribute(unit.id)}"`;
  if (unit.created) attributes += ` creationdate="${tmxDate(unit.created, unit.id)}"`;
  const variants = [{ locale: sourceLocale, text: unit.source }, ...unit.targets];
  return [
    `    <tu${attributes}>`,
    // A blank note would be dropped on reading; leaving it out keeps export and import symmetrical.
    ...(unit.note !== undefined && unit.note.trim() !== '' ? [`      <note>${escapeText(unit.note)}</note>`] : []),
    ...variants.map((v) => `      <tuv xml:lang="${escapeAttribute(v.locale)}"><seg>${escapeText(v.text)}</seg></tuv>`),
    '    </tu>',
  ];
}

/** TMX's date form, `YYYYMMDDThhmmssZ` in UTC. */
function tmxDate(date: Date, unitId: string | undefined): string {
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 0 || year > 9999) {
    const unit = unitId === undefined ? 'a unit without id' : `unit '${unitId}'`;
    throw new RangeError(`Invalid creation date for ${unit}: expected a date in the years 0000 to 9999, got ${String(date)}`);
  }
  // toISOString gives 'YYYY-MM-DDThh:mm:ss.sssZ' for these years; TMX drops the separators and the milliseconds.
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** Text content with `& < > "` escaped; CR as a reference, and characters XML cannot carry as U+FFFD (escapeXmlText). */
function escapeText(value: string): string {
  return escapeXmlText(value).replaceAll('"', '&quot;');
}

function escapeAttribute(value: string): string {
  return escapeXmlAttribute(value, '"').replaceAll('>', '&gt;');
}
