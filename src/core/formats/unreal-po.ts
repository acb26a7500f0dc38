// The `unreal_po` codec: Unreal Engine's PO export, keyed by msgctxt "Namespace,Key", read and written with the gettext tokenizer.
import type { Codec, Entry, FreshEntry, FreshOptions, RenderInput } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { encodeUtf8 } from './json-scan.js';
import { gettextPlurals } from './plural-forms.js';
import { freshHeader, looksLikePo, looksLikeUnreal, renderCatalog, type CatalogRules } from './po.js';
import { escapePo, formatField, messageNotes, messagePosition, scanPo, type PoComment, type PoDocument, type PoMessage, type Splice } from './po-scan.js';
import { textValue } from './values.js';

/*
 * The engine writes one message per text: `#. Key:\t<key>` and `#. SourceLocation:\t<asset>` comments, a reference,
 * msgctxt "<namespace>,<key>" (commas inside either part escaped with a backslash), msgid = the native-culture text and
 * msgstr = this culture's translation. The msgctxt identifies the text, so it is the entry key; msgid is the source.
 */

/** Scans an Unreal export, refusing what the engine would not import: a message without msgctxt, plural messages, repeated keys. */
function scanUnreal(bytes: Uint8Array): PoDocument {
  const doc = scanPo(bytes);
  const seen = new Map<string, PoMessage>();
  for (const message of doc.messages) {
    if (message.header) continue;
    const { msgid, msgctxt, msgidPlural } = message;
    if (!msgctxt) {
      throw new FileUnparsableError(
        `Expected msgctxt "Namespace,Key" before msgid at line ${msgid.line}, column ${msgid.column}; Unreal PO files identify every text by its msgctxt`,
        msgid.line,
        msgid.column,
      );
    }
    if (msgidPlural) {
      throw new FileUnparsableError(
        `Expected msgstr instead of msgid_plural at line ${msgidPlural.line}, column ${msgidPlural.column}; Unreal PO files have no plural messages`,
        msgidPlural.line,
        msgidPlural.column,
      );
    }
    const first = seen.get(msgctxt.value);
    if (first) {
      throw new FileUnparsableError(
        `Duplicate key ${JSON.stringify(msgctxt.value)} (first defined at line ${first.msgctxt!.line}) at line ${msgctxt.line}, column ${msgctxt.column}`,
        msgctxt.line,
        msgctxt.column,
      );
    }
    seen.set(msgctxt.value, message);
  }
  return doc;
}

const isKeyComment = (c: PoComment): boolean => c.kind === 'extracted' && c.text.startsWith('Key:\t');

/** The engine's first header line names the culture in English ("# Game English translation."); it follows the target. */
function headerExtras(doc: PoDocument, header: PoMessage, locale: string, previous: string | undefined): Splice[] {
  const names = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });
  const nameOf = (tag: string | undefined): string | undefined => {
    try {
      return tag ? names.of(tag) : undefined;
    } catch {
      return undefined;
    }
  };
  const before = nameOf(previous);
  const after = nameOf(locale);
  const first = header.comments[0];
  if (!before || !after || before === after || !first || first.kind !== 'translator') return [];
  const suffix = ` ${before} translation.`;
  if (!first.text.endsWith(suffix)) return [];
  const raw = doc.text.slice(first.start, first.end);
  const at = raw.lastIndexOf(suffix);
  return [{ start: first.start + at, end: first.start + at + suffix.length, text: ` ${after} translation.` }];
}

const unrealRules: CatalogRules = {
  keyOf: (message) => message.msgctxt!.value,
  // The engine writes BCP-47 culture names (zh-CN), not gettext's ll_CC.
  language: (locale) => locale,
  headerExtras,
};

/** The key part of "Namespace,Key": after the first comma not escaped with a backslash. */
function keyPart(key: string): string {
  const match = /^(?:[^,\\]|\\.)*,/.exec(key);
  return match ? key.slice(match[0].length) : key;
}

export const unrealPoCodec: Codec = {
  id: 'unreal_po',
  extensions: ['.po'],
  plurals: false,

  detect(fileName: string, head: string): number {
    if (!looksLikePo(fileName, head)) return 0;
    const named = /\.po$/i.test(fileName);
    if (looksLikeUnreal(head)) return named ? 0.95 : 0.5;
    return 0;
  },

  parse(bytes: Uint8Array): Entry[] {
    const entries: Entry[] = [];
    for (const m of scanUnreal(bytes).messages) {
      if (m.header) continue;
      const key = m.msgctxt!.value;
      const { line, column } = messagePosition(m);
      const entry: Entry = { key, path: [key], source: m.msgid.value, line, column };
      // The Key comment repeats the key; SourceLocation and other metadata help translators.
      const notes = messageNotes(m, isKeyComment);
      if (notes !== undefined) entry.notes = notes;
      entries.push(entry);
    }
    return entries;
  },

  render(input: RenderInput): Uint8Array {
    for (const value of input.values.values()) textValue(value, 'unreal_po');
    return renderCatalog(scanUnreal(input.source), input, unrealRules);
  },

  /** Writes the engine's layout: BOM, header, and per text the Key comment, msgctxt, msgid = msgstr = the value. */
  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    const locale = options?.locale ?? 'en';
    const merged = new Map<string, FreshEntry>();
    for (const entry of entries) merged.set(entry.key, entry);
    const blocks = [freshHeader(locale, gettextPlurals(locale), [['Project-Id-Version', '']])];
    for (const entry of merged.values()) {
      const value = textValue(entry.value, 'unreal_po');
      const lines = [`#. Key:\t${keyPart(entry.key).replace(/[\r\n]+/g, ' ')}`];
      if (entry.notes) for (const note of entry.notes.split(/\r\n|\n|\r/)) lines.push(note === '' ? '#.' : `#. ${note}`);
      lines.push(`msgctxt "${escapePo(entry.key)}"`, ...formatField('msgid', value, false), ...formatField('msgstr', value, false));
      blocks.push(lines);
    }
    return encodeUtf8(`${blocks.map((b) => b.join('\n')).join('\n\n')}\n`, true);
  },
};
