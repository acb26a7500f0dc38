// The `xliff2` codec: XLIFF 2 units keyed by name or id, one entry per segment, targets spliced in beside sources.
import { textValue } from './values.js';
import type { Codec, Entry, FreshEntry, FreshOptions, RenderInput } from './codec.js';
import { decodeXml, encodeXml, escapeXmlAttribute, lineColumn, splice, textContent, type XmlElement, type XmlEncoding } from './xml-scan.js';
import {
  attr,
  children,
  detectXliff,
  entryOf,
  fail,
  innerXml,
  insertAfter,
  localName,
  needsPreserve,
  readContent,
  removal,
  replaceContent,
  scanDocument,
  setAttribute,
  startTag,
  targetLocaleOf,
  writeContent,
  type Content,
  type Edit,
  sourcesAndTargets,
} from './xliff-common.js';

const SIZE_RESTRICTION_NS = 'urn:oasis:names:tc:xliff:sizerestriction:2.0';

interface Segment {
  el: XmlElement;
  key: string;
  source: XmlElement;
  content: Content;
  target: XmlElement | undefined;
}

interface Unit {
  el: XmlElement;
  id: string;
  name: string | undefined;
  segments: Segment[];
  translatable: boolean;
  notes: string | undefined;
  maxLength: number | undefined;
}

interface XliffFile {
  el: XmlElement;
  id: string;
  units: Unit[];
}

interface Scanned {
  text: string;
  bom: boolean;
  encoding: XmlEncoding;
  root: XmlElement;
  files: XliffFile[];
  units: Unit[];
}

/** Namespace prefixes in scope, innermost declarations last, for the few attributes of XLIFF modules we read. */
type Scope = ReadonlyMap<string, string>;

function extendScope(scope: Scope, el: XmlElement): Scope {
  // Most elements declare nothing and share their parent's scope.
  let next: Map<string, string> | undefined;
  for (const a of el.attributes) if (a.name.startsWith('xmlns:')) (next ??= new Map(scope)).set(a.name.slice(6), a.value);
  return next ?? scope;
}

function moduleAttr(el: XmlElement, scope: Scope, namespace: string, local: string): string | undefined {
  for (const a of el.attributes) {
    const colon = a.name.indexOf(':');
    if (colon > 0 && a.name.slice(colon + 1) === local && scope.get(a.name.slice(0, colon)) === namespace) return a.value;
  }
  return undefined;
}

/** Reads the document's structure; anything an XLIFF 2 reader could not make sense of is refused with its position. */
function scan(bytes: Uint8Array): Scanned {
  const { text, bom, encoding } = decodeXml(bytes);
  const { root } = scanDocument(text);
  if (localName(root.name) !== 'xliff') fail(text, root.start, `Expected an <xliff> root element; found <${root.name}>`);
  const version = root.attributes.find((a) => a.name === 'version');
  if (!version) fail(text, root.start, 'Expected a version attribute on <xliff> (version="2.0")');
  if (!/^2\.\d+$/.test(version.value)) {
    const hint = version.value.startsWith('1') ? ' (use the xliff12 format for XLIFF 1.2)' : '';
    fail(text, version.start, `Expected XLIFF version 2.0; found version "${version.value}"${hint}`);
  }
  const rootScope = extendScope(new Map(), root);
  const files: XliffFile[] = [];
  for (const el of children(root, 'file')) {
    const file: XliffFile = { el, id: attr(el, 'id') ?? '', units: [] };
    files.push(file);
    collect(text, el, extendScope(rootScope, el), inherit(el, true), file.units);
  }
  assignKeys(text, files);
  return { text, bom, encoding, root, files, units: files.flatMap((f) => f.units) };
}

/** Collects units in document order; `translate="no"` on a file or group applies to everything inside it. */
function collect(text: string, container: XmlElement, scope: Scope, translatable: boolean, out: Unit[]): void {
  for (const el of container.children) {
    if (el.kind !== 'element') continue;
    const name = localName(el.name);
    if (name === 'group') collect(text, el, extendScope(scope, el), inherit(el, translatable), out);
    else if (name === 'unit') out.push(readUnit(text, el, extendScope(scope, el), inherit(el, translatable)));
  }
}

function inherit(el: XmlElement, translatable: boolean): boolean {
  const translate = attr(el, 'translate');
  return translate === undefined ? translatable : translate !== 'no';
}

function readUnit(text: string, el: XmlElement, scope: Scope, translatable: boolean): Unit {
  const id = attr(el, 'id');
  if (id === undefined) fail(text, el.start, 'Expected an id attribute on <unit>');
  const segmentEls = children(el, 'segment');
  if (segmentEls.length === 0) fail(text, el.start, `Expected a <segment> in <unit id="${id}">`);
  const segments = segmentEls.map((seg): Segment => {
    // One pass over the children: the first two sources and targets (a second is an error).
    const { source, secondSource, target, secondTarget } = sourcesAndTargets(seg);
    if (!source) fail(text, seg.start, `Expected a <source> in the <segment> of <unit id="${id}">`);
    if (secondSource) fail(text, secondSource.start, `Expected one <source> per <segment> in <unit id="${id}">; found another`);
    if (secondTarget) fail(text, secondTarget.start, `Expected at most one <target> per <segment> in <unit id="${id}">; found another`);
    return { el: seg, key: '', source, content: readContent(source, text, true), target };
  });
  // Notes are read without the intermediate arrays: most units have none.
  const notes: string[] = [];
  for (const group of el.children) {
    if (group.kind !== 'element' || localName(group.name) !== 'notes') continue;
    for (const note of group.children) {
      if (note.kind !== 'element' || localName(note.name) !== 'note') continue;
      const value = textContent(note);
      if (value.trim() !== '') notes.push(value);
    }
  }
  // The Size and Length Restriction module's default profile counts code points, which is what a max length is.
  const size = moduleAttr(el, scope, SIZE_RESTRICTION_NS, 'sizeRestriction');
  return {
    el,
    id,
    name: attr(el, 'name'),
    segments,
    translatable,
    notes: notes.length > 0 ? notes.join('\n') : undefined,
    maxLength: size !== undefined && /^\d+$/.test(size) ? Number(size) : undefined,
  };
}

/**
 * Keys are the unit's name, else its id; a unit with several segments gives `key.1`, `key.2`… A key found in
 * several <file>s is prefixed with each file's id (`fileId#key`); a key still repeated is refused.
 */
function assignKeys(text: string, files: readonly XliffFile[]): void {
  // The first file each base key is found in, and the keys found in more than one.
  const firstFile = new Map<string, XliffFile>();
  const shared = new Set<string>();
  // With a single <file> (the usual case) no key can be shared.
  if (files.length > 1) for (const file of files) {
    for (const unit of file.units) {
      const base = unit.name ?? unit.id;
      const first = firstFile.get(base);
      if (first === undefined) firstFile.set(base, file);
      else if (first !== file) shared.add(base);
    }
  }
  // One set operation per key: which unit a repeated key was first given to is looked up only when it happens.
  const seen = new Set<string>();
  for (const file of files) {
    for (const unit of file.units) {
      const base = unit.name ?? unit.id;
      const key = shared.size > 0 && shared.has(base) ? `${file.id}#${base}` : base;
      const { segments } = unit;
      for (let i = 0; i < segments.length; i++) {
        const segment = segments[i]!;
        segment.key = segments.length === 1 ? key : `${key}.${i + 1}`;
        const size = seen.size;
        if (seen.add(segment.key).size === size) {
          const { line } = lineColumn(text, unitWithKey(files, segment.key).el.start);
          fail(text, unit.el.start, `Duplicate unit key ${JSON.stringify(segment.key)} (first defined at line ${line})`);
        }
      }
    }
  }
}

/** The first unit, in document order, with a segment given `key`: segments are keyed in that order, so it comes before any repeat. */
function unitWithKey(files: readonly XliffFile[], key: string): Unit {
  for (const file of files) for (const unit of file.units) for (const segment of unit.segments) if (segment.key === key) return unit;
  throw new Error(`unitWithKey: no segment has the key ${JSON.stringify(key)}`);
}

/** Adds the edits writing one segment's target for a target locale: the value, or the source text standing in for it. */
function targetEdits(text: string, segment: Segment, value: string | undefined, locale: string, edits: Edit[]): void {
  const current = segment.target ? readContent(segment.target, text, true) : undefined;
  let inner: string;
  if (value === undefined) {
    inner = innerXml(segment.source, text);
    if (segment.target && innerXml(segment.target, text) === inner) return;
  } else {
    if (current?.value === value) return;
    inner = writeContent(value, { markup: segment.content.markup, cdata: (current ?? segment.content).cdata }, true);
  }
  // The state lives on the segment; its default, "initial", already describes a source stand-in. Its tag comes
  // first in the document, so its edit goes first and splice finds the edits in order.
  const hasState = attr(segment.el, 'state') !== undefined;
  const state = value === undefined ? (hasState ? 'initial' : undefined) : 'translated';
  const stateEdit = state === undefined ? undefined : setAttribute(segment.el, 'state', state, ['id']);
  if (stateEdit) edits.push(stateEdit);
  if (segment.target) {
    // A target that names its language names the one it is now in.
    const language = attr(segment.target, 'xml:lang') === undefined ? undefined : setAttribute(segment.target, 'xml:lang', locale);
    for (const edit of replaceContent(segment.target, text, inner, language ? [language] : [])) edits.push(edit);
  } else {
    const space = attr(segment.source, 'xml:space');
    const tag = startTag(segment.source, 'target', space !== undefined ? [['xml:space', space]] : []);
    edits.push(insertAfter(text, segment.source, tag.open + inner + tag.close));
  }
}

/**
 * Plans which units to remove for missing 'omit'. A unit goes only when none of its segments has a value (a
 * segment cannot go alone); groups left empty go too. A <file> must hold a unit, so an emptied file goes only
 * while another file remains; otherwise its first unit stays, with its source text.
 */
function planRemovals(scanned: Scanned, omitted: Set<XmlElement>): Edit[] {
  const { text, files } = scanned;
  const visit = (container: XmlElement): { edits: Edit[]; empty: boolean } => {
    const edits: Edit[] = [];
    let items = 0;
    let gone = 0;
    for (const el of container.children) {
      if (el.kind !== 'element') continue;
      const name = localName(el.name);
      if (name === 'unit') {
        items++;
        if (omitted.has(el)) {
          gone++;
          edits.push(removal(text, el));
        }
      } else if (name === 'group') {
        items++;
        const inner = visit(el);
        if (inner.empty) {
          gone++;
          edits.push(removal(text, el));
        } else edits.push(...inner.edits);
      }
    }
    return { edits, empty: items > 0 && gone === items };
  };
  let results = files.map((file) => visit(file.el));
  if (files.length > 0 && results.every((r) => r.empty)) {
    const keep = files[0]!.units.find((u) => omitted.has(u.el));
    if (keep) omitted.delete(keep.el);
    results = files.map((file) => visit(file.el));
  }
  return results.flatMap((r, i) => (r.empty ? [removal(text, files[i]!.el)] : r.edits));
}

function toEntries(text: string, unit: Unit): Entry[] {
  const context = unit.name !== undefined ? unit.id : undefined;
  return unit.segments.map((segment) =>
    entryOf(segment.key, segment.content.value, unit, context, lineColumn(text, segment.source.selfClosing ? segment.source.start : segment.source.openEnd)),
  );
}

/** The targets a file carries, by entry key (text decoded; markup-mode targets as raw inner XML). */
export function xliff2Targets(bytes: Uint8Array): Map<string, string> {
  const { text, units } = scan(bytes);
  return new Map(
    units.flatMap((u) => u.segments.flatMap((s) => (s.target ? [[s.key, readContent(s.target, text, true).value] as const] : []))),
  );
}

export const xliff2Codec: Codec = {
  id: 'xliff2',
  extensions: ['.xlf', '.xliff'],
  plurals: false,
  detect: (fileName, head) => detectXliff(fileName, head, 2),

  parse(bytes: Uint8Array): Entry[] {
    const { text, units } = scan(bytes);
    return units.flatMap((unit) => toEntries(text, unit));
  },

  render(input: RenderInput): Uint8Array {
    const scanned = scan(input.source);
    const { text, bom, encoding, root, units } = scanned;
    const locale = targetLocaleOf(input, [attr(root, 'srcLang')]);
    const valueOf = (segment: Segment): string | undefined => {
      const given = input.values.get(segment.key);
      return given === undefined ? undefined : textValue(given, 'xliff2');
    };
    const omitted = new Set<XmlElement>();
    if (input.missing === 'omit') {
      for (const unit of units) {
        if (unit.translatable && unit.segments.every((s) => valueOf(s) === undefined)) omitted.add(unit.el);
      }
    }
    // The root tag comes first in the document: edits made in document order need no sorting by splice.
    const rootEdit = locale === undefined ? undefined : setAttribute(root, 'trgLang', locale, ['srcLang']);
    const edits = planRemovals(scanned, omitted);
    if (rootEdit) edits.unshift(rootEdit);
    for (const unit of units) {
      // Strings marked translate="no" stay exactly as the source has them.
      if (!unit.translatable || omitted.has(unit.el)) continue;
      for (const segment of unit.segments) {
        const value = valueOf(segment);
        if (locale !== undefined) targetEdits(text, segment, value, locale, edits);
        else if (value !== undefined && value !== segment.content.value) {
          edits.push(...replaceContent(segment.source, text, writeContent(value, segment.content, true)));
        }
      }
    }
    if (edits.length === 0) return input.source.slice();
    return encodeXml(splice(text, edits), bom, encoding);
  },

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    // A repeated key keeps its first position and its last value, as Map.set does.
    const byKey = new Map<string, FreshEntry>();
    for (const entry of entries) byKey.set(entry.key, entry);
    // A unit id must be an NMTOKEN; other keys travel in `name`, with a generated id that no key-id can take.
    const isId = (key: string): boolean => /^[A-Za-z0-9._:-]+$/.test(key);
    const taken = new Set([...byKey.keys()].filter(isId));
    let counter = 0;
    const nextId = (): string => {
      while (taken.has(`u${++counter}`));
      return `u${counter}`;
    };
    const units = [...byKey.values()].map((entry) => {
      const value = textValue(entry.value, 'xliff2');
      const naming = isId(entry.key) ? `id="${entry.key}"` : `id="${nextId()}" name="${escapeXmlAttribute(entry.key, '"')}"`;
      const space = needsPreserve(value) ? ' xml:space="preserve"' : '';
      const notes = entry.notes
        ? `      <notes>\n        <note>${writeContent(entry.notes, { markup: false, cdata: false }, true)}</note>\n      </notes>\n`
        : '';
      return (
        `    <unit ${naming}${space}>\n${notes}` +
        '      <segment>\n' +
        `        <source>${writeContent(value, { markup: false, cdata: false }, true)}</source>\n` +
        '      </segment>\n' +
        '    </unit>\n'
      );
    });
    const locale = escapeXmlAttribute(options?.locale ?? 'en', '"');
    const text =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${locale}">\n` +
      '  <file id="f1">\n' +
      units.join('') +
      '  </file>\n' +
      '</xliff>\n';
    return encodeXml(text, false, 'utf-8');
  },
};
