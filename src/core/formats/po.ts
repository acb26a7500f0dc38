// The `po` codec: gettext catalogs keyed by msgid (and msgctxt), translations spliced into msgstr, plural slots laid out per Plural-Forms.
import type { Codec, Entry, FreshEntry, FreshOptions, PluralForms, RenderInput, Value } from './codec.js';
import { encodeUtf8 } from './json-scan.js';
import { gettextPlurals, type GettextPlurals } from './plural-forms.js';
import {
  applySplices,
  dropFlag,
  encodePo,
  escapePo,
  formatField,
  gettextKey,
  headerField,
  messageNotes,
  messagePosition,
  newHeader,
  omitMessages,
  parseHeader,
  scanPo,
  serializeHeader,
  setHeaderField,
  useUtf8,
  writeHeader,
  writeMessage,
  type HeaderFields,
  type PoDocument,
  type PoMessage,
  type Splice,
} from './po-scan.js';

/*
 * Key scheme: gettext's own. A message's key is its msgid, or msgctxt + U+0004 + msgid when it has a msgctxt (even an
 * empty one, which gettext distinguishes from none) — the same string gettext looks translations up by in .mo files.
 *
 * Source text: the msgid (the source-language text gettext keys on); a plural message's forms are msgid as `one` and
 * msgid_plural as `other`, as for the English-like sources gettext assumes. The msgstr of the pushed file is the slot
 * translations go into: a value equal to the source text leaves the message exactly as it was (an empty msgstr
 * already means "use the msgid"), which is what keeps the round trip byte-identical.
 */

const PLURAL_FIELDS_AFTER = ['Content-Transfer-Encoding', 'Content-Type', 'MIME-Version'] as const;
const LANGUAGE_AFTER = ['Language-Team', 'Last-Translator', 'PO-Revision-Date', 'POT-Creation-Date', 'Project-Id-Version'] as const;

/** What a catalog codec decides per message; `po` and `unreal_po` differ only in keys and header details. */
export interface CatalogRules {
  /** The entry key of a message. */
  keyOf(message: PoMessage): string;
  /** The value of the Language header for a locale, given the current value (to follow its spelling). */
  language(locale: string, current: string | undefined): string;
  /** Extra header edits (e.g. a comment naming the language), given the header and the new and old Language values. */
  headerExtras?(doc: PoDocument, header: PoMessage, locale: string, previous: string | undefined): Splice[];
}

/** The forms to write for one message, or undefined to keep it as it is (the value is the source text). */
function formsFor(message: PoMessage, value: Value, layout: GettextPlurals): string[] | undefined {
  if (!message.msgidPlural) {
    const text = typeof value === 'string' ? value : (value.plurals.other ?? Object.values(value.plurals)[0] ?? '');
    return text === message.msgid.value ? undefined : [text];
  }
  if (typeof value === 'string') return layout.categories.map(() => value);
  const source: PluralForms = { one: message.msgid.value, other: message.msgidPlural.value };
  if (samePlurals(value.plurals, source)) return undefined;
  return layout.categories.map((c) => value.plurals[c] ?? value.plurals.other ?? Object.values(value.plurals)[0] ?? '');
}

function samePlurals(a: PluralForms, b: PluralForms): boolean {
  const keys = Object.keys(a) as (keyof PluralForms)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * A kept plural message whose slot count does not match the target's Plural-Forms would be refused by msgfmt, so its
 * slots are re-laid out: left empty (untranslated) when they all were, else filled from the source text by category.
 */
function resizedForms(message: PoMessage, layout: GettextPlurals): string[] | undefined {
  if (!message.msgidPlural || message.msgstr.length === layout.nplurals) return undefined;
  if (message.msgstr.every((f) => f.value === '')) return layout.categories.map(() => '');
  return layout.categories.map((c) => (c === 'one' ? message.msgid.value : message.msgidPlural!.value));
}

/** Renders a target catalog from a scanned source: the shared body of the `po` and `unreal_po` codecs. */
export function renderCatalog(doc: PoDocument, input: RenderInput, rules: CatalogRules): Uint8Array {
  const target = input.locale ?? input.sourceLocale ?? 'en';
  const layout = gettextPlurals(target);
  const retarget = input.locale !== undefined;
  const splices: Splice[] = [];
  const omitted: PoMessage[] = [];
  for (const message of doc.messages) {
    if (message.header) continue;
    const value = input.values.get(rules.keyOf(message));
    if (value === undefined && input.missing === 'omit') {
      omitted.push(message);
      continue;
    }
    const forms = (value === undefined ? undefined : formsFor(message, value, layout)) ?? (retarget ? resizedForms(message, layout) : undefined);
    if (forms) splices.push(...writeMessage(doc, message, forms, message.msgidPlural !== undefined));
  }
  splices.push(...omitMessages(doc, omitted));
  splices.push(...headerSplices(doc, layout, retarget ? target : undefined, splices.length > 0, rules));
  if (splices.length === 0) return input.source.slice();
  return encodePo(doc, applySplices(doc.text, splices));
}

/**
 * Header edits: for a target locale, Language, Plural-Forms and a UTF-8 charset, and no `fuzzy` (msginit's treatment of
 * a template header); for any other change to a file read in a legacy charset, the charset, since output is UTF-8.
 */
function headerSplices(doc: PoDocument, layout: GettextPlurals, locale: string | undefined, changed: boolean, rules: CatalogRules): Splice[] {
  const header = doc.header;
  const notUtf8 = doc.charset === undefined || !/^utf-?8$/i.test(doc.charset);
  if (locale === undefined) {
    // Changed text is written as UTF-8, so a declared legacy charset (or the template's CHARSET) must say so.
    if (!changed || !header || doc.charset === undefined || !notUtf8) return [];
    const fields = parseHeader(header.msgstr[0]!.value);
    useUtf8(fields);
    const rewritten = writeHeader(doc, header, serializeHeader(fields));
    return rewritten ? [rewritten] : [];
  }
  if (!header) {
    return [newHeader(doc, serializeHeader(freshFields(rules.language(locale, undefined), layout)))];
  }
  const fields = parseHeader(header.msgstr[0]!.value);
  const previous = headerField(fields, 'Language');
  setHeaderField(fields, 'Language', rules.language(locale, previous), LANGUAGE_AFTER);
  setHeaderField(fields, 'Plural-Forms', layout.header, PLURAL_FIELDS_AFTER);
  if (notUtf8) useUtf8(fields);
  const splices: Splice[] = [];
  const rewritten = writeHeader(doc, header, serializeHeader(fields));
  if (rewritten) splices.push(rewritten);
  const unfuzzy = dropFlag(doc, header, 'fuzzy');
  if (unfuzzy) splices.push(unfuzzy);
  splices.push(...(rules.headerExtras?.(doc, header, locale, previous) ?? []));
  return splices;
}

/** gettext spells locales ll_CC; a file already using hyphens keeps them. */
function gettextLanguage(locale: string, current: string | undefined): string {
  return current?.includes('-') ? locale : locale.replace(/-/g, '_');
}

const poRules: CatalogRules = { keyOf: gettextKey, language: gettextLanguage };

/** The header fields of a new catalog, as msginit writes them for a locale. */
function freshFields(language: string, layout: GettextPlurals): HeaderFields {
  return [
    ['Language', language],
    ['MIME-Version', '1.0'],
    ['Content-Type', 'text/plain; charset=UTF-8'],
    ['Content-Transfer-Encoding', '8bit'],
    ['Plural-Forms', layout.header],
  ];
}

/** A fresh catalog's header entry as lines; `extra` fields go first. */
export function freshHeader(language: string, layout: GettextPlurals, extra: HeaderFields = []): string[] {
  const value = serializeHeader([...extra, ...freshFields(language, layout)]);
  return ['msgid ""', 'msgstr ""', ...value.split(/(?<=\n)/).map((l) => `"${escapePo(l)}"`)];
}

/** Detects gettext catalogs: the extension, or a file that opens with comments and a msgid. */
export function looksLikePo(fileName: string, head: string): boolean {
  return /\.pot?$/i.test(fileName) || /^\uFEFF?(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*msg(?:ctxt|id)[ \t]+"/.test(head);
}

/** Whether the first bytes look like Unreal Engine's PO export (msgctxt "Namespace,Key" and `#. Key:` comments). */
export function looksLikeUnreal(head: string): boolean {
  return /^#\. Key:\t/m.test(head) || /Epic Games/.test(head.slice(0, 300)) || /^#\. SourceLocation:\t/m.test(head);
}

export const poCodec: Codec = {
  id: 'po',
  extensions: ['.po', '.pot'],
  plurals: true,

  detect(fileName: string, head: string): number {
    if (!looksLikePo(fileName, head)) return 0;
    const named = /\.pot?$/i.test(fileName);
    if (looksLikeUnreal(head)) return named ? 0.5 : 0.2;
    return named ? 0.9 : 0.4;
  },

  parse(bytes: Uint8Array): Entry[] {
    const entries: Entry[] = [];
    for (const m of scanPo(bytes).messages) {
      if (m.header) continue;
      const key = gettextKey(m);
      const { line, column } = messagePosition(m);
      const entry: Entry = { key, path: [key], source: m.msgidPlural?.value ?? m.msgid.value, line, column };
      if (m.msgidPlural) entry.plurals = { one: m.msgid.value, other: m.msgidPlural.value };
      const notes = messageNotes(m);
      if (notes !== undefined) entry.notes = notes;
      if (m.msgctxt) entry.context = m.msgctxt.value;
      entries.push(entry);
    }
    return entries;
  },

  render(input: RenderInput): Uint8Array {
    return renderCatalog(scanPo(input.source), input, poRules);
  },

  /**
   * Writes msgid (and msgctxt, split from the key at U+0004) from the key and msgstr from the value; a plural value
   * gets msgid_plural = msgid and one msgstr[i] per category of the locale. A key of '' cannot be a message (msgid ""
   * is the header), so it is left out.
   */
  renderFresh(entries: readonly FreshEntry[], options?: FreshOptions): Uint8Array {
    const locale = options?.locale ?? 'en';
    const layout = gettextPlurals(locale);
    const merged = new Map<string, FreshEntry>();
    // A repeated key keeps its first position and its last value, as Map.set does.
    for (const entry of entries) if (entry.key !== '') merged.set(entry.key, entry);
    const blocks = [freshHeader(gettextLanguage(locale, undefined), layout)];
    for (const entry of merged.values()) {
      const lines: string[] = [];
      if (entry.notes) for (const note of entry.notes.split(/\r\n|\n|\r/)) lines.push(note === '' ? '#.' : `#. ${note}`);
      const split = entry.key.indexOf('\u0004');
      const msgid = split < 0 ? entry.key : entry.key.slice(split + 1);
      if (split >= 0) lines.push(...formatField('msgctxt', entry.key.slice(0, split), true));
      lines.push(...formatField('msgid', msgid, true));
      if (typeof entry.value === 'string') {
        lines.push(...formatField('msgstr', entry.value, true));
      } else {
        const forms = entry.value.plurals;
        lines.push(...formatField('msgid_plural', msgid, true));
        layout.categories.forEach((c, i) => lines.push(...formatField(`msgstr[${i}]`, forms[c] ?? forms.other ?? '', true)));
      }
      blocks.push(lines);
    }
    return encodeUtf8(`${blocks.map((b) => b.join('\n')).join('\n\n')}\n`, false);
  },
};
