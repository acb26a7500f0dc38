// Apple .stringsdict plists: plural rules per format variable, read from and spliced back into the plist XML.
import { PLURAL_CATEGORIES, type Codec, type Entry, type FreshEntry, type PluralForms, type RenderInput, type Value } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { pluralCategories } from '../plurals.js';
import {
  childElements,
  contentEdit,
  decodeXml,
  encodeXml,
  escapeXmlText,
  lineColumn,
  lineEnding,
  lineIndent,
  pluralSlotEdits,
  removalStart,
  scanXml,
  splice,
  textContent,
  type XmlEdit,
  type XmlElement,
  type XmlNode,
} from './xml-scan.js';

/*
 * A top-level key whose dict has NSStringLocalizedFormatKey is one string; each of its variables with
 * NSStringFormatSpecTypeKey = NSStringPluralRuleType holds plural forms under zero/one/two/few/many/other.
 * One variable: the entry is keyed by the top-level key. Several: one entry per variable, `<top>.<variable>`.
 * The format key itself (usually just `%#@var@`) is kept as written. Note that Apple applies `zero` to the number 0
 * in every language; we read it as the CLDR category of that name, so targets without CLDR `zero` drop it.
 * A dict holding nothing but NSStringLocalizedFormatKey is a plain string: the format string is its text (this is
 * also how a plain value is written to a new file). Other rule types (variable width, device specific) are kept as
 * they are and are no entries. Every top-level value must be a dict, as Apple and translate-toolkit require.
 */

interface Pair {
  key: XmlElement;
  name: string;
  value: XmlElement;
}

interface Variable {
  entryKey: string;
  /** Where the entry key is claimed: the top-level key, or the variable's own when the string has several. */
  at: number;
  name: string;
  dict: XmlElement;
  forms: { category: string; pair: Pair }[];
}

type Item =
  | { kind: 'plural'; top: Pair; variables: Variable[]; notes?: string }
  | { kind: 'format'; top: Pair; format: Pair; notes?: string };

interface Parsed {
  text: string;
  bom: boolean;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  items: Item[];
}

const PLURAL_RULE = 'NSStringPluralRuleType';
const PLIST_VALUES: ReadonlySet<string> = new Set(['string', 'dict', 'array', 'integer', 'real', 'true', 'false', 'date', 'data']);

function hasPair(pairs: readonly Pair[], name: string): boolean {
  for (const p of pairs) if (p.name === name) return true;
  return false;
}

function parsePlist(bytes: Uint8Array): Parsed {
  const { text, bom, encoding } = decodeXml(bytes);
  const doc = scanXml(text);
  const fail: (message: string, at: number) => never = (message, at) => {
    const { line, column } = lineColumn(text, at);
    throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
  };
  if (doc.root.name !== 'plist') fail(`Expected <plist> as the root element, found <${doc.root.name}>`, doc.root.start + 1);
  const [top, extra] = childElements(doc.root);
  if (!top) fail("Expected a <dict> inside <plist>", doc.root.openEnd);
  // Apple's parser refuses a second value ("plist can only include one object"); plistlib would silently keep the last.
  if (extra) fail(`Expected a single <dict> inside <plist> (a plist holds one object); found another <${extra.name}>`, extra.start);
  if (top.name !== 'dict') fail(`Expected <dict> as the plist's top-level object, found <${top.name}>`, top.start + 1);

  const pairsOf = (dict: XmlElement): Pair[] => {
    // The children are walked in place rather than filtered into an array first: every string has a dict.
    let count = 0;
    for (const n of dict.children) if (n.kind === 'element') count++;
    const pairs: Pair[] = [];
    // Small dicts (nearly all) check for a repeated key by looking through their few pairs.
    const names = count > 16 ? new Set<string>() : undefined;
    let key: XmlElement | undefined;
    let name = '';
    for (const value of dict.children) {
      if (value.kind !== 'element') continue;
      if (key === undefined) {
        if (value.name !== 'key') fail(`Expected <key> in <dict>, found <${value.name}>`, value.start);
        key = value;
        name = textContent(key);
        continue;
      }
      if (value.name === 'key') fail(`Expected a value after <key>${name}</key>`, value.start);
      const size = names?.size;
      if (names ? names.add(name).size === size : hasPair(pairs, name)) fail(`Duplicate key '${name}' in <dict>`, key.start);
      if (!PLIST_VALUES.has(value.name)) {
        fail(`Expected a plist value (<string>, <dict>, ...) after <key>${name}</key>, found <${value.name}>`, value.start);
      }
      pairs.push({ key, name, value });
      key = undefined;
    }
    if (key) fail(`Expected a value after <key>${name}</key>`, dict.closeStart);
    return pairs;
  };
  const stringOf = (pair: Pair | undefined): string | undefined => (pair?.value.name === 'string' ? textContent(pair.value) : undefined);

  const items: Item[] = [];
  // One set operation per key: where a repeated key was first claimed is looked up only when it happens.
  const keys = new Set<string>();
  const claim = (key: string, at: number): void => {
    const size = keys.size;
    if (keys.add(key).size === size) fail(`Duplicate key '${key}' (first defined at line ${lineColumn(text, firstClaim(items, key)).line})`, at);
  };
  // Pairs come in document order, so one cursor finds each key's place among the dict's children.
  let index = 0;
  for (const pair of pairsOf(top)) {
    while (top.children[index] !== pair.key) index++;
    const notes = commentBefore(top.children, index);
    const extras = notes !== undefined ? { notes } : {};
    if (pair.value.name !== 'dict') fail(`Expected a <dict> as the value of the key '${pair.name}' (a .stringsdict maps each key to a dict), found <${pair.value.name}>`, pair.value.start);
    const inner = pairsOf(pair.value);
    const format = inner.find((p) => p.name === 'NSStringLocalizedFormatKey');
    if (!format) continue;
    if (format.value.name !== 'string') fail('Expected a <string> value for NSStringLocalizedFormatKey', format.value.start);
    if (inner.length === 1) {
      claim(pair.name, pair.key.start);
      items.push({ kind: 'format', top: pair, format, ...extras });
      continue;
    }
    // Each variable's pairs are read once, for the spec type and then for the forms.
    const plural: Pair[] = [];
    const pluralPairs: Pair[][] = [];
    for (const p of inner) {
      if (p.value.name !== 'dict') continue;
      const pairs = pairsOf(p.value);
      if (stringOf(pairs.find((q) => q.name === 'NSStringFormatSpecTypeKey')) !== PLURAL_RULE) continue;
      plural.push(p);
      pluralPairs.push(pairs);
    }
    if (plural.length === 0) continue;
    const variables = plural.map((p, i): Variable => {
      const forms: { category: string; pair: Pair }[] = [];
      for (const q of pluralPairs[i]!) {
        if (!(PLURAL_CATEGORIES as readonly string[]).includes(q.name)) continue;
        if (q.value.name !== 'string') fail(`Expected a <string> for the plural form '${q.name}', found <${q.value.name}>`, q.value.start);
        forms.push({ category: q.name, pair: q });
      }
      const entryKey = plural.length === 1 ? pair.name : `${pair.name}.${p.name}`;
      const at = plural.length === 1 ? pair.key.start : p.key.start;
      claim(entryKey, at);
      return { entryKey, at, name: p.name, dict: p.value, forms };
    });
    items.push({ kind: 'plural', top: pair, variables, ...extras });
  }
  return { text, bom, encoding, items };
}

/** Where `key` was first claimed among the items read so far. */
function firstClaim(items: readonly Item[], key: string): number {
  for (const item of items) {
    if (item.kind === 'format') {
      if (item.top.name === key) return item.top.key.start;
    } else for (const v of item.variables) if (v.entryKey === key) return v.at;
  }
  return 0;
}

function commentBefore(siblings: readonly XmlNode[], index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const node = siblings[i]!;
    if (node.kind === 'text' && /^[ \t\r\n]*$/.test(node.raw)) continue;
    if (node.kind === 'comment') return node.value.trim() || undefined;
    return undefined;
  }
  return undefined;
}

function toEntries(parsed: Parsed): Entry[] {
  const entries: Entry[] = [];
  const at = (el: XmlElement): { line: number; column: number } => lineColumn(parsed.text, el.openEnd);
  for (const item of parsed.items) {
    if (item.kind === 'format') {
      entries.push(entryOf(item.top.name, textContent(item.format.value), undefined, item.notes, at(item.format.value)));
      continue;
    }
    for (const v of item.variables) {
      const plurals: PluralForms = {};
      for (const c of PLURAL_CATEGORIES) {
        const form = v.forms.find((f) => f.category === c);
        if (form) plurals[c] = textContent(form.pair.value);
      }
      const main = v.forms.find((f) => f.category === 'other') ?? v.forms[v.forms.length - 1];
      const source = plurals.other ?? (main ? textContent(main.pair.value) : '');
      entries.push(entryOf(v.entryKey, source, plurals, item.notes, main ? at(main.pair.value) : lineColumn(parsed.text, v.dict.openEnd)));
    }
  }
  return entries;
}

/** An entry with its optional fields present only when set, in the order entries always list them. */
function entryOf(key: string, source: string, plurals: PluralForms | undefined, notes: string | undefined, position: { line: number; column: number }): Entry {
  const entry: Partial<Entry> = plurals === undefined ? { key, path: [key], source } : { key, path: [key], source, plurals };
  if (notes !== undefined) entry.notes = notes;
  entry.line = position.line;
  entry.column = position.column;
  return entry as Entry;
}

function escapeString(value: string, eol: string): string {
  const escaped = escapeXmlText(value);
  return eol === '\n' ? escaped : escaped.replace(/\n/g, eol);
}

function formsOf(value: Value, locale: string): PluralForms {
  if (typeof value !== 'string') return value.plurals;
  const forms: PluralForms = {};
  for (const c of pluralCategories(locale)) forms[c] = value;
  return forms;
}

function variableEdits(parsed: Parsed, v: Variable, forms: PluralForms, eol: string): XmlEdit[] {
  const { text } = parsed;
  const categories = PLURAL_CATEGORIES.filter((c) => forms[c] !== undefined);
  const edits: XmlEdit[] = [];
  for (const f of v.forms) {
    const form = forms[f.category as keyof PluralForms];
    if (form !== undefined && form !== textContent(f.pair.value)) edits.push(contentEdit(text, f.pair.value, escapeString(form, eol)));
  }
  const template = v.forms.find((f) => f.category === 'other') ?? v.forms[v.forms.length - 1];
  const make = (category: string): string => {
    const value = escapeString(forms[category as keyof PluralForms] ?? '', eol);
    if (!template) return `<key>${category}</key><string>${value}</string>`;
    const { key, value: string } = template.pair;
    const keyPart = `${text.slice(key.start, key.openEnd)}${category}${text.slice(key.closeStart, key.end)}`;
    const stringPart = string.selfClosing ? `<string>${value}</string>` : `${text.slice(string.start, string.openEnd)}${value}${text.slice(string.closeStart, string.end)}`;
    return keyPart + text.slice(key.end, string.start) + stringPart;
  };
  const slots = v.forms.map((f) => ({ category: f.category, start: f.pair.key.start, end: f.pair.value.end }));
  const slotEdits = pluralSlotEdits(text, slots, categories, make);
  if (slotEdits) return [...edits, ...slotEdits];
  // A variable without any form: add them before </dict>, one level deeper than the dict's own keys.
  const last = childElements(v.dict).at(-1);
  const indent = last ? lineIndent(text, last.start) : `${lineIndent(text, v.dict.start)}\t`;
  const insertion = categories.map((c) => `${eol}${indent}${make(c).replace(/(<\/key>)\s*(<string)/, `$1${eol}${indent}$2`)}`).join('');
  const at = last ? last.end : v.dict.openEnd;
  return [{ start: at, end: at, text: insertion }];
}

function render(input: RenderInput): Uint8Array {
  const parsed = parsePlist(input.source);
  const { text } = parsed;
  const eol = lineEnding(text);
  const locale = input.locale ?? input.sourceLocale ?? 'en';
  const edits: XmlEdit[] = [];
  const removeTop = (top: Pair): void => {
    edits.push({ start: removalStart(text, top.key.start), end: top.value.end, text: '' });
  };
  for (const item of parsed.items) {
    if (item.kind === 'format') {
      const value = input.values.get(item.top.name);
      if (value === undefined) {
        if (input.missing === 'omit') removeTop(item.top);
        continue;
      }
      const next = typeof value === 'string' ? value : (value.plurals.other ?? '');
      if (next !== textContent(item.format.value)) edits.push(contentEdit(text, item.format.value, escapeString(next, eol)));
      continue;
    }
    const values = item.variables.map((v) => input.values.get(v.entryKey));
    // A variable cannot go on its own (the format key names it): the string goes when none of it is translated.
    if (input.missing === 'omit' && values.every((v) => v === undefined)) {
      removeTop(item.top);
      continue;
    }
    item.variables.forEach((v, i) => {
      const value = values[i];
      if (value === undefined) return;
      const forms = formsOf(value, locale);
      const same = v.forms.length === Object.keys(forms).length && v.forms.every((f) => forms[f.category as keyof PluralForms] === textContent(f.pair.value));
      if (!same) edits.push(...variableEdits(parsed, v, forms, eol));
    });
  }
  if (edits.length === 0) return input.source.slice();
  return encodeXml(splice(text, edits), parsed.bom, parsed.encoding);
}

/** The printf conversion a plural's number is formatted with, guessed from its forms ('d' when none shows one). */
function valueType(forms: PluralForms): string {
  for (const form of [forms.other, ...Object.values(forms)]) {
    const match = /%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?((?:ll|l|h|hh|q|z|t|j)?[diouxX])/.exec(form ?? '');
    if (match) return match[1]!;
  }
  return 'd';
}

function renderFresh(entries: readonly FreshEntry[]): Uint8Array {
  let out =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n';
  for (const entry of entries) {
    if (entry.notes !== undefined && entry.notes !== '') out += `\t<!-- ${entry.notes.replace(/--/g, '- -').replace(/-$/, '- ')} -->\n`;
    out += `\t<key>${escapeXmlText(entry.key)}</key>\n`;
    if (typeof entry.value === 'string') {
      out += `\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>${escapeXmlText(entry.value)}</string>\n\t</dict>\n`;
      continue;
    }
    const forms = entry.value.plurals;
    out += '\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@value@</string>\n\t\t<key>value</key>\n\t\t<dict>\n';
    out += `\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>${PLURAL_RULE}</string>\n`;
    out += `\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>${valueType(forms)}</string>\n`;
    for (const c of PLURAL_CATEGORIES) {
      const form = forms[c];
      if (form !== undefined) out += `\t\t\t<key>${c}</key>\n\t\t\t<string>${escapeXmlText(form)}</string>\n`;
    }
    out += '\t\t</dict>\n\t</dict>\n';
  }
  return new TextEncoder().encode(`${out}</dict>\n</plist>\n`);
}

export const iosStringsdictCodec: Codec = {
  id: 'ios_stringsdict',
  extensions: ['.stringsdict'],
  plurals: true,
  detect(fileName, head) {
    const plist = /<plist[\s>]/.test(head) || /<!DOCTYPE plist/.test(head);
    if (/\.stringsdict$/i.test(fileName)) return plist || head.trim() === '' ? 0.95 : 0.6;
    if (plist && head.includes('NSStringLocalizedFormatKey')) return 0.7;
    return 0;
  },
  parse(bytes) {
    return toEntries(parsePlist(bytes));
  },
  render,
  renderFresh,
};
