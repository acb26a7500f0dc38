// The `xliff12` codec: XLIFF 1.2 trans-units keyed by resname or id, with targets spliced in beside their sources.
import { textValue } from './values.js';
import type { Codec, Entry, FreshEntry, FreshOptions, RenderInput } from './codec.js';
import { decodeXml, encodeXml, escapeXmlAttribute, escapeXmlText, lineColumn, splice, textContent, type XmlElement, type XmlEncoding } from './xml-scan.js';
import {
  attr,
  children,
  detectXliff,
  entryOf,
  fail,
  firstChild,
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

interface Unit {
  el: XmlElement;
  id: string;
  resname: string | undefined;
  key: string;
  source: XmlElement;
  content: Content;
  target: XmlElement | undefined;
  translatable: boolean;
  notes: string | undefined;
  maxLength: number | undefined;
}

interface XliffFile {
  el: XmlElement;
  original: string;
  body: XmlElement | undefined;
  units: Unit[];
}

interface Scanned {
  text: string;
  bom: boolean;
  encoding: XmlEncoding;
  files: XliffFile[];
  units: Unit[];
}

/** Reads the document's structure; anything a 1.2 reader could not make sense of is refused with its position. */
function scan(bytes: Uint8Array): Scanned {
  const { text, bom, encoding } = decodeXml(bytes);
  const { root } = scanDocument(text);
  if (localName(root.name) !== 'xliff') fail(text, root.start, `Expected an <xliff> root element; found <${root.name}>`);
  const version = root.attributes.find((a) => a.name === 'version');
  if (version && !/^1\.\d+$/.test(version.value)) {
    const hint = version.value.startsWith('2') ? ' (use the xliff2 format for XLIFF 2)' : '';
    fail(text, version.start, `Expected XLIFF version 1.2; found version "${version.value}"${hint}`);
  }
  if (!version && /document:2\./.test(attr(root, 'xmlns') ?? '')) {
    fail(text, root.start, 'Expected an XLIFF 1.2 document; this one is XLIFF 2 (use the xliff2 format)');
  }

  const files: XliffFile[] = [];
  const units: Unit[] = [];
  for (const el of children(root, 'file')) {
    const body = firstChild(el, 'body');
    const file: XliffFile = { el, original: attr(el, 'original') ?? '', body, units: [] };
    files.push(file);
    if (body) collect(text, body, true, file.units);
    units.push(...file.units);
  }
  assignKeys(text, files);
  return { text, bom, encoding, files, units };
}

/** Collects trans-units in document order; `translate="no"` on a group applies to everything inside it. */
function collect(text: string, container: XmlElement, translatable: boolean, out: Unit[]): void {
  for (const el of container.children) {
    if (el.kind !== 'element') continue;
    const name = localName(el.name);
    if (name === 'group') collect(text, el, inherit(el, translatable), out);
    else if (name === 'trans-unit') out.push(readUnit(text, el, inherit(el, translatable)));
  }
}

function inherit(el: XmlElement, translatable: boolean): boolean {
  const translate = attr(el, 'translate');
  return translate === undefined ? translatable : translate !== 'no';
}

function readUnit(text: string, el: XmlElement, translatable: boolean): Unit {
  const id = attr(el, 'id');
  if (id === undefined) fail(text, el.start, 'Expected an id attribute on <trans-unit>');
  // One pass over the children: the first two sources and targets (a second is an error), and the notes.
  const notes: string[] = [];
  const { source, secondSource, target, secondTarget } = sourcesAndTargets(el, (child, name) => {
    if (name !== 'note') return;
    const note = textContent(child);
    if (note.trim() !== '') notes.push(note);
  });
  if (!source) fail(text, el.start, `Expected a <source> in <trans-unit id="${id}">`);
  if (secondSource) fail(text, secondSource.start, `Expected one <source> in <trans-unit id="${id}">; found another`);
  if (secondTarget) fail(text, secondTarget.start, `Expected at most one <target> in <trans-unit id="${id}">; found another`);
  const maxWidth = attr(el, 'maxwidth');
  const resname = attr(el, 'resname');
  return {
    el,
    id,
    resname: resname === '' ? undefined : resname,
    key: '',
    source,
    content: readContent(source, text, false),
    target,
    translatable,
    notes: notes.length > 0 ? notes.join('\n') : undefined,
    // XLIFF measures maxwidth in pixels unless size-unit says otherwise; only characters make a max length.
    maxLength: attr(el, 'size-unit') === 'char' && maxWidth !== undefined && /^\d+$/.test(maxWidth) ? Number(maxWidth) : undefined,
  };
}

/**
 * Keys are resname, else id. A key that occurs in several <file>s is prefixed with each file's `original`
 * (`original#key`), so merged exports stay addressable; a key still repeated is refused rather than shadowed.
 */
function assignKeys(text: string, files: readonly XliffFile[]): void {
  // The first file each base key is found in, and the keys found in more than one.
  const firstFile = new Map<string, XliffFile>();
  const shared = new Set<string>();
  // With a single <file> (the usual case) no key can be shared.
  if (files.length > 1) for (const file of files) {
    for (const unit of file.units) {
      const base = unit.resname ?? unit.id;
      const first = firstFile.get(base);
      if (first === undefined) firstFile.set(base, file);
      else if (first !== file) shared.add(base);
    }
  }
  // One set operation per key: which unit a repeated key was first given to is looked up only when it happens.
  const seen = new Set<string>();
  for (const file of files) {
    for (const unit of file.units) {
      const base = unit.resname ?? unit.id;
      unit.key = shared.size > 0 && shared.has(base) ? `${file.original}#${base}` : base;
      const size = seen.size;
      if (seen.add(unit.key).size === size) {
        const what = unit.resname !== undefined ? 'resname' : 'id';
        const { line } = lineColumn(text, firstWithKey(files, unit.key).el.start);
        fail(text, unit.el.start, `Duplicate trans-unit ${what} ${JSON.stringify(unit.key)} (first defined at line ${line})`);
      }
    }
  }
}

/** The first unit, in document order, given `key`: units are keyed in that order, so it comes before any repeat. */
function firstWithKey(files: readonly XliffFile[], key: string): Unit {
  for (const file of files) for (const unit of file.units) if (unit.key === key) return unit;
  throw new Error(`firstWithKey: no unit has the key ${JSON.stringify(key)}`);
}

/** Adds the edits writing the target of one unit for a target locale: the value, or the source text standing in for it. */
function targetEdits(text: string, unit: Unit, value: string | undefined, locale: string, edits: Edit[]): void {
  const current = unit.target ? readContent(unit.target, text, false) : undefined;
  const state = value === undefined ? 'needs-translation' : 'translated';
  let inner: string;
  if (value === undefined) {
    inner = innerXml(unit.source, text);
    if (unit.target && innerXml(unit.target, text) === inner) return;
  } else {
    if (current?.value === value) return;
    inner = writeContent(value, { markup: unit.content.markup, cdata: (current ?? unit.content).cdata }, false);
  }
  if (unit.target) {
    // A target that names its language names the one it is now in.
    const language = attr(unit.target, 'xml:lang') === undefined ? undefined : setAttribute(unit.target, 'xml:lang', locale);
    const attributes = [setAttribute(unit.target, 'state', state), language].filter((e): e is Edit => e !== undefined);
    for (const edit of replaceContent(unit.target, text, inner, attributes)) edits.push(edit);
    return;
  }
  const space = attr(unit.source, 'xml:space');
  const tag = startTag(unit.source, 'target', [['state', state], ...(space !== undefined ? [['xml:space', space] as const] : [])]);
  // The schema orders <source>, <seg-source>, <target>.
  const anchor = firstChild(unit.el, 'seg-source') ?? unit.source;
  edits.push(insertAfter(text, anchor, tag.open + inner + tag.close));
}

/** Removes omitted units, and groups left with nothing in them (a 1.2 group must hold at least one unit). */
function removals(text: string, files: readonly XliffFile[], removed: ReadonlySet<XmlElement>): Edit[] {
  const visit = (container: XmlElement): { edits: Edit[]; empty: boolean } => {
    const edits: Edit[] = [];
    let items = 0;
    let gone = 0;
    for (const el of container.children) {
      if (el.kind !== 'element') continue;
      const name = localName(el.name);
      if (name === 'trans-unit' || name === 'bin-unit') {
        items++;
        if (removed.has(el)) {
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
  return files.flatMap((file) => (file.body ? visit(file.body).edits : []));
}

function toEntry(text: string, unit: Unit): Entry {
  const at = unit.source.selfClosing ? unit.source.start : unit.source.openEnd;
  return entryOf(unit.key, unit.content.value, unit, unit.resname !== undefined ? unit.id : undefined, lineColumn(text, at));
}

/** The targets a file carries, by entry key (text decoded; markup-mode targets as raw inner XML). */
export function xliff12Targets(bytes: Uint8Array): Map<string, string> {
  const { text, units } = scan(bytes);
  return new Map(units.flatMap((u) => (u.target ? [[u.key, readContent(u.target, text, false).value] as const] : [])));
}

export const xliff12Codec: Codec = {
  id: 'xliff12',
  extensions: ['.xlf', '.xliff'],
  plurals: false,
  detect: (fileName, head) => detectXliff(fileName, head, 1),

  parse(bytes: Uint8Array): Entry[] {
    const { text, units } = scan(bytes);
    return units.map((unit) => toEntry(text, unit));
  },

  render(input: RenderInput): Uint8Array {
    const { text, bom, encoding, files, units } = scan(input.source);
    const locale = targetLocaleOf(
      input,
      files.map((f) => attr(f.el, 'source-language')),
    );
    const edits: Edit[] = [];
    // The <file> tags come before their units: edits made in document order need no sorting by splice.
    if (locale !== undefined) {
      for (const file of files) {
        const edit = setAttribute(file.el, 'target-language', locale, ['source-language']);
        if (edit) edits.push(edit);
      }
    }
    const removed = new Set<XmlElement>();
    for (const unit of units) {
      // Strings marked translate="no" stay exactly as the source has them.
      if (!unit.translatable) continue;
      const given = input.values.get(unit.key);
      const value = given === undefined ? undefined : textValue(given, 'xliff12');
      if (value === undefined && input.missing === 'omit') removed.add(unit.el);
      else if (locale !== undefined) targetEdits(text, unit, value, locale, edits);
      else if (value !== undefined && value !== unit.content.value) {
        edits.push(...replaceContent(unit.source, text, writeContent(value, unit.content, false)));
      }
    }
    edits.push(...removals(text, files, removed));
    if (edits.length === 0) return input.source.slice();
    return encodeXml(splice(text, edits), bom, encoding);
  },

  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    // A repeated key keeps its first position and its last value, as Map.set does.
    const byKey = new Map<string, FreshEntry>();
    for (const entry of entries) byKey.set(entry.key, entry);
    const units = [...byKey.values()].map((entry) => {
      const value = textValue(entry.value, 'xliff12');
      const space = needsPreserve(value) ? ' xml:space="preserve"' : '';
      const note = entry.notes ? `\n        <note>${escapeXmlText(entry.notes)}</note>` : '';
      return (
        `      <trans-unit id="${escapeXmlAttribute(entry.key, '"')}"${space}>\n` +
        `        <source>${escapeXmlText(value)}</source>${note}\n` +
        '      </trans-unit>\n'
      );
    });
    const locale = escapeXmlAttribute(options?.locale ?? 'en', '"');
    const text =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n' +
      `  <file original="messages" source-language="${locale}" datatype="plaintext">\n` +
      '    <body>\n' +
      units.join('') +
      '    </body>\n' +
      '  </file>\n' +
      '</xliff>\n';
    return encodeXml(text, false, 'utf-8');
  },
};
