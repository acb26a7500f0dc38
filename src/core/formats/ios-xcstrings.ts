// The `ios_xcstrings` codec: Xcode String Catalogs, read from the source language and rendered by writing one language's localizations in place.
import { sourceFormsFor } from '../plurals.js';
import { FileUnparsableError, PLURAL_CATEGORIES, type Codec, type Entry, type FreshEntry, type PluralCategory, type PluralForms, type RenderInput, type Value } from './codec.js';
import { encodeUtf8, scanJsonTape, Utf8Writer, type JsonTape } from './json-scan.js';

/*
 * Keys. A catalog string `K` gives the entry `K`: its stringUnit, or its plural variations as plural forms. Two Xcode
 * features give extra entries, keyed by a path joined with '.':
 *   - device variations: `K.device.<device>` (iphone, ipad, mac, other, …), each a text or plural entry;
 *   - substitutions (`%#@name@` in the text) with plural variations: `K.<name>`, a plural entry, besides `K` itself.
 * Variation kinds other than plural and device are left in the file untouched and give no entries.
 */

/** A value, named by its slot on the file's tape; a member is named by its key's slot, its value being the next one. */
type Slot = number;

interface Unit {
  node: Slot;
  state?: string;
}

type Part = ({ kind: 'text' } & Unit) | { kind: 'plural'; forms: Map<PluralCategory, Unit> };

interface Body {
  /** The text or plural forms of the localization itself, or per device. */
  main?: Part | { kind: 'device'; devices: [string, Part][] };
  substitutions: { name: string; node: Slot; forms: Map<PluralCategory, Unit> }[];
}

interface CatalogString {
  key: Slot;
  /** The key's decoded name. */
  name: string;
  node: Slot;
  comment?: string;
  translatable: boolean;
  localizations?: Slot;
}

interface Catalog {
  tape: JsonTape;
  sourceLanguage: string;
  strings: CatalogString[];
}

/** One entry of a localization, with where it lives so a render can rebuild it. */
interface FoundEntry {
  /** `path` joined with '.'. */
  key: string;
  path: string[];
  value: string | PluralForms;
  /** The string token the entry's position points at. */
  at: Slot;
  /** Per form for plurals, else the unit's state. */
  states: Record<string, string | undefined>;
}

function fail(tape: JsonTape, message: string, slot: Slot): never {
  const line = tape.line(slot);
  const column = tape.column(slot);
  throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
}

function objectAt(tape: JsonTape, node: Slot, what: string): Slot {
  if (tape.kind(node) !== 'object') fail(tape, `Expected an object for ${what}`, node);
  return node;
}

function stringIn(tape: JsonTape, node: Slot, name: string, what: string): Slot {
  const found = tape.member(node, name);
  if (found < 0) fail(tape, `Expected a "${name}" string in ${what}`, node);
  if (tape.kind(found + 1) !== 'string') fail(tape, `Expected a string for "${name}" in ${what}`, found + 1);
  return found + 1;
}

/** A `{ "stringUnit": { "state", "value" } }` holder: the value token and state. */
function readUnit(tape: JsonTape, holder: Slot, what: string): Unit | undefined {
  const unit = tape.member(holder, 'stringUnit');
  if (unit < 0) return undefined;
  const unitWhat = `the stringUnit of ${what}`;
  const body = objectAt(tape, unit + 1, unitWhat);
  const node = stringIn(tape, body, 'value', unitWhat);
  const state = tape.member(body, 'state');
  return state >= 0 && tape.kind(state + 1) === 'string' ? { node, state: tape.string(state + 1) } : { node };
}

function readPlural(tape: JsonTape, node: Slot, what: string): Map<PluralCategory, Unit> {
  const plural = objectAt(tape, node, `the plural variations of ${what}`);
  const forms = new Map<PluralCategory, Unit>();
  for (let key = plural + 1; key < tape.after(plural); key = tape.after(key)) {
    const category = tape.string(key);
    if (!(PLURAL_CATEGORIES as readonly string[]).includes(category)) {
      fail(tape, `Expected a CLDR plural category (zero, one, two, few, many, other) in the plural variations of ${what}, found ${JSON.stringify(category)}`, key);
    }
    const form = readUnit(tape, objectAt(tape, key + 1, `the "${category}" form of ${what}`), `the "${category}" form of ${what}`);
    if (!form) fail(tape, `Expected a "stringUnit" in the "${category}" form of ${what}`, key + 1);
    forms.set(category as PluralCategory, form);
  }
  return forms;
}

/** A text, plural, or (when `devices`) device-varied localization body. */
function readPart(tape: JsonTape, holder: Slot, what: string, devices: boolean): Part | { kind: 'device'; devices: [string, Part][] } | undefined {
  const variations = tape.member(holder, 'variations');
  if (variations >= 0) {
    const kinds = objectAt(tape, variations + 1, `the variations of ${what}`);
    const plural = tape.member(kinds, 'plural');
    if (plural >= 0) return { kind: 'plural', forms: readPlural(tape, plural + 1, what) };
    const device = tape.member(kinds, 'device');
    if (device >= 0 && devices) {
      const list: [string, Part][] = [];
      const byDevice = objectAt(tape, device + 1, `the device variations of ${what}`);
      for (let key = byDevice + 1; key < tape.after(byDevice); key = tape.after(key)) {
        const name = tape.string(key);
        const deviceWhat = `the "${name}" device variation of ${what}`;
        const part = readPart(tape, objectAt(tape, key + 1, deviceWhat), deviceWhat, false);
        if (part && part.kind !== 'device') list.push([name, part]);
      }
      return { kind: 'device', devices: list };
    }
  }
  const unit = readUnit(tape, holder, what);
  return unit && { kind: 'text', ...unit };
}

function readBody(tape: JsonTape, node: Slot, what: string): Body {
  const holder = objectAt(tape, node, what);
  const body: Body = { substitutions: [] };
  const main = readPart(tape, holder, what, true);
  if (main) body.main = main;
  const substitutions = tape.member(holder, 'substitutions');
  if (substitutions >= 0) {
    const byName = objectAt(tape, substitutions + 1, `the substitutions of ${what}`);
    for (let key = byName + 1; key < tape.after(byName); key = tape.after(key)) {
      const name = tape.string(key);
      const subWhat = `the substitution "${name}" of ${what}`;
      const sub = objectAt(tape, key + 1, subWhat);
      const variations = tape.member(sub, 'variations');
      const plural = variations < 0 ? -1 : tape.member(objectAt(tape, variations + 1, `the variations of ${subWhat}`), 'plural');
      if (plural >= 0) body.substitutions.push({ name, node: sub, forms: readPlural(tape, plural + 1, subWhat) });
    }
  }
  return body;
}

function formsOf(tape: JsonTape, forms: Map<PluralCategory, Unit>): { value: PluralForms; at: Slot; states: Record<string, string | undefined> } {
  const value: PluralForms = {};
  const states: Record<string, string | undefined> = {};
  for (const category of PLURAL_CATEGORIES) {
    const form = forms.get(category);
    if (form) [value[category], states[category]] = [tape.string(form.node), form.state];
  }
  const at = (forms.get('other') ?? [...forms.values()][0])!.node;
  return { value, at, states };
}

function partEntry(tape: JsonTape, path: string[], part: Part): FoundEntry {
  const key = path.join('.');
  if (part.kind === 'text') return { key, path, value: tape.string(part.node), at: part.node, states: { '': part.state } };
  return { key, path, ...formsOf(tape, part.forms) };
}

/** The entries a localization body gives for the catalog string `key`. */
function bodyEntries(tape: JsonTape, key: string, body: Body): FoundEntry[] {
  const out: FoundEntry[] = [];
  const main = body.main;
  if (main?.kind === 'device') for (const [device, part] of main.devices) out.push(partEntry(tape, [key, 'device', device], part));
  else if (main) out.push(partEntry(tape, [key], main));
  for (const sub of body.substitutions) out.push({ key: `${key}.${sub.name}`, path: [key, sub.name], ...formsOf(tape, sub.forms) });
  return out;
}

function readCatalog(bytes: Uint8Array): Catalog {
  const tape = scanJsonTape(bytes);
  const root = 0;
  const sourceLanguage = tape.string(stringIn(tape, root, 'sourceLanguage', 'the top-level object'));
  const stringsMember = tape.member(root, 'strings');
  if (stringsMember < 0) fail(tape, 'Expected a "strings" object in the top-level object', root);
  const byKey = objectAt(tape, stringsMember + 1, '"strings"');
  const strings: CatalogString[] = [];
  for (let key = byKey + 1; key < tape.after(byKey); key = tape.after(key)) {
    const name = tape.string(key);
    const node = key + 1;
    if (tape.kind(node) !== 'object') fail(tape, `Expected an object for the string ${JSON.stringify(name)}`, node);
    const shouldTranslate = tape.member(node, 'shouldTranslate');
    const translatable = shouldTranslate < 0 || tape.text.slice(tape.start(shouldTranslate + 1), tape.end(shouldTranslate + 1)) !== 'false';
    const item: CatalogString = { key, name, node, translatable };
    const comment = tape.member(node, 'comment');
    if (comment >= 0 && tape.kind(comment + 1) === 'string' && tape.end(comment + 1) - tape.start(comment + 1) > 2) item.comment = tape.string(comment + 1);
    const localizations = tape.member(node, 'localizations');
    if (localizations >= 0) {
      if (tape.kind(localizations + 1) !== 'object') fail(tape, `Expected an object for the localizations of ${JSON.stringify(name)}`, localizations + 1);
      item.localizations = localizations + 1;
    }
    strings.push(item);
  }
  return { tape, sourceLanguage, strings };
}

const normalLocale = (tag: string): string => tag.toLowerCase().replace(/_/g, '-');

/** The key of the member of `localizations` for a locale (or -1), matching `pt-BR`, `pt_BR` and `pt-br` alike. */
function localizationOf(tape: JsonTape, item: CatalogString, locale: string): Slot {
  const localizations = item.localizations;
  if (localizations === undefined) return -1;
  const normal = normalLocale(locale);
  for (let key = localizations + 1; key < tape.after(localizations); key = tape.after(key)) {
    if (tape.is(key, locale) || (mayBeLocale(tape, key, normal) && normalLocale(tape.string(key)) === normal)) return key;
  }
  return -1;
}

/**
 * False when the key at `slot` cannot name the normalized locale `normal`, told without decoding it: an ASCII key of
 * `normal`'s length with a character that differs in more than case (and `_` for `-`). Other keys may; `normalLocale` decides.
 */
function mayBeLocale(tape: JsonTape, slot: Slot, normal: string): boolean {
  const { text } = tape;
  const start = tape.start(slot) + 1;
  if (tape.end(slot) - 1 - start !== normal.length) return true;
  for (let i = 0; i < normal.length; i++) {
    const c = text.charCodeAt(start + i);
    const n = normal.charCodeAt(i);
    // An escape or a non-ASCII character (lowercasing `K`, the Kelvin sign, gives `k`) is left to `normalLocale`.
    if (c >= 0x80 || c === 0x5c) return true;
    if (c !== n && !(c === 0x5f && n === 0x2d) && !(c >= 0x41 && c <= 0x5a && c + 0x20 === n)) return false;
  }
  return true;
}

/**
 * Every entry of `locale`'s localizations, string by string in file order, with the localization's body when there is
 * one; `fallback` adds the key itself as the text where one has none (the source language). Strings are read as they are
 * asked for, so a caller that goes through them once keeps no more than one string's reading at a time.
 */
function* localeEntries(catalog: Catalog, locale: string, fallback: boolean): Generator<{ item: CatalogString; entries: FoundEntry[]; body?: Body }> {
  const { tape, strings } = catalog;
  // Keys must be unique. A key of one segment is its catalog string's name, which no other string has, so only a key of
  // more segments (a device or substitution) can meet another: those are kept, and the strings' one-segment entries
  // only as the slot each points at (-1: none), so a large catalog's entries are not all held until the end.
  const longer = new Map<string, FoundEntry>();
  const single: number[] = [];
  // Strings by name, once a longer key first comes.
  let byName: Map<string, number> | undefined;
  for (let index = 0; index < strings.length; index++) {
    const item = strings[index]!;
    const { name } = item;
    const localization = localizationOf(tape, item, locale);
    const body = localization < 0 ? undefined : readBody(tape, localization + 1, `the "${tape.string(localization)}" localization of ${tape.quoted(item.key)}`);
    let entries = body ? bodyEntries(tape, name, body) : [];
    // Xcode keeps `""` for empty string literals in code; with no localization there is nothing to translate.
    if (entries.length === 0 && fallback && name !== '') entries = [{ key: name, path: [name], value: name, at: item.key, states: {} }];
    single.push(-1);
    for (const entry of entries) {
      let prior: Pick<FoundEntry, 'path' | 'at'> | undefined = longer.get(entry.key);
      if (entry.path.length === 1) {
        single[index] = entry.at;
      } else {
        byName ??= new Map(strings.map((other, i) => [other.name, i]));
        const other = byName.get(entry.key);
        if (!prior && other !== undefined && (single[other] ?? -1) >= 0) prior = { path: [entry.key], at: single[other]! };
        longer.set(entry.key, entry);
      }
      if (prior) {
        fail(
          tape,
          `The entries ${JSON.stringify(prior.path)} (line ${tape.line(prior.at)}) and ${JSON.stringify(entry.path)} both give the key ${JSON.stringify(entry.key)}; rename one of them`,
          entry.at,
        );
      }
    }
    yield body ? { item, entries, body } : { item, entries };
  }
}

function toEntry(tape: JsonTape, item: CatalogString, found: FoundEntry): Entry {
  const entry: Entry = {
    key: found.key,
    path: found.path,
    source: typeof found.value === 'string' ? found.value : (found.value.other ?? Object.values(found.value)[0] ?? ''),
    line: tape.line(found.at),
    column: tape.column(found.at),
  };
  if (typeof found.value !== 'string') entry.plurals = found.value;
  if (!item.translatable) entry.translatable = false;
  if (item.comment !== undefined) entry.notes = item.comment;
  return entry;
}

function localeToEntries(catalog: Catalog, locale: string, fallback: boolean): Entry[] {
  const out: Entry[] = [];
  for (const { item, entries } of localeEntries(catalog, locale, fallback)) for (const found of entries) out.push(toEntry(catalog.tape, item, found));
  return out;
}

/**
 * Entries of one language in a catalog (the source language's are what `parse` returns, with the key standing in for
 * strings that have no source localization). Other languages list only what they hold.
 */
export function readXcstringsLocale(bytes: Uint8Array, locale: string): Entry[] {
  const catalog = readCatalog(bytes);
  const fallback = normalLocale(locale) === normalLocale(catalog.sourceLanguage);
  return localeToEntries(catalog, locale, fallback);
}

// ——— Writing ———

/** What a part of the file should become: merged into what is there, so unchanged parts keep their bytes. */
type Desired =
  | { kind: 'string'; value: string }
  | { kind: 'raw'; text: string }
  | { kind: 'remove' }
  | {
      kind: 'object';
      members: [string, Desired][];
      /** Members the file has beyond these are removed (plural categories, devices, a localization's own parts). */
      exclusive?: boolean;
      /** For a stringUnit: an existing unit with this value is kept as it is, state included. */
      unitValue?: string;
      /** Write new members in the given order instead of Xcode's sorted order. */
      ordered?: boolean;
    };

interface Style {
  colon: string;
  indent: string;
  eol: string;
}

// Xcode writes catalogs with sorted keys in a collation where punctuation sorts first (`my_case` before `my.case` before `myCase`).
const collator = new Intl.Collator('en', { numeric: true });
const XCODE_STYLE: Style = { colon: ' : ', indent: '  ', eol: '\n' };

function detectStyle(tape: JsonTape): Style {
  const { text } = tape;
  // The root is slot 0, its first member's key slot 1.
  const first = tape.after(0) > 1;
  const colon = first ? text.slice(tape.end(1), tape.start(2)) : XCODE_STYLE.colon;
  const lead = first ? /(?:^|\n)([ \t]*)$/.exec(text.slice(tape.start(0) + 1, tape.start(1))) : null;
  return {
    colon: /^[ \t]*:[ \t]*$/.test(colon) ? colon : XCODE_STYLE.colon,
    indent: lead?.[1] || XCODE_STYLE.indent,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** Xcode's order of two member names; names of lowercase ASCII letters only (units, plural categories, most locales) compare as code units do. */
function compareKeys(a: string, b: string): number {
  if (isLowerAscii(a) && isLowerAscii(b)) return a < b ? -1 : a > b ? 1 : 0;
  return collator.compare(a, b);
}

function isLowerAscii(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

/** Whether members are in Xcode's order already. */
function inOrder(members: readonly (readonly [string, unknown])[]): boolean {
  for (let i = 1; i < members.length; i++) if (compareKeys(members[i - 1]![0], members[i]![0]) > 0) return false;
  return true;
}

/** Writes a new value, its members one level deeper than `indent` (the indentation of the line it starts on). */
function serialize(desired: Desired, indent: string, style: Style): string {
  switch (desired.kind) {
    case 'string':
      return JSON.stringify(desired.value);
    case 'raw':
      return desired.text;
    case 'remove':
      // A parent drops members to remove before writing them; nothing else asks.
      return '';
    case 'object': {
      const { colon, indent: unit, eol } = style;
      let members = desired.members;
      if (members.some(([, d]) => d.kind === 'remove')) members = members.filter(([, d]) => d.kind !== 'remove');
      // Sorting is stable: members already in order (as most desired objects are built) stay as they are.
      if (!desired.ordered && !inOrder(members)) members = members.slice().sort(([a], [b]) => compareKeys(a, b));
      if (members.length === 0) return `{${eol}${eol}${indent}}`;
      const inner = indent + unit;
      let out = '{';
      for (let i = 0; i < members.length; i++) {
        const [key, d] = members[i]!;
        out += `${i === 0 ? eol : `,${eol}`}${inner}${JSON.stringify(key)}${colon}${serialize(d, inner, style)}`;
      }
      return `${out}${eol}${indent}}`;
    }
  }
}

/** Splices desired values into the scanned text, following the file's indentation, separator and line-ending style. */
class Merger {
  private readonly text: string;

  constructor(
    private readonly tape: JsonTape,
    private readonly style: Style,
  ) {
    this.text = tape.text;
  }

  private lineIndent(at: number): string {
    // Walk back to the line start: lastIndexOf('\r') on an LF file would scan to the top every time.
    let lineStart = at;
    const text = this.text;
    while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a && text.charCodeAt(lineStart - 1) !== 0x0d) lineStart--;
    let end = lineStart;
    while (end < at && (text.charCodeAt(end) === 0x20 || text.charCodeAt(end) === 0x09)) end++;
    return text.slice(lineStart, end);
  }

  /** The new text of `node`, or undefined when it already says what is desired. */
  merge(node: Slot, desired: Desired, indent: string): string | undefined {
    const tape = this.tape;
    switch (desired.kind) {
      case 'string':
        return tape.is(node, desired.value) ? undefined : JSON.stringify(desired.value);
      case 'raw':
        return this.text.slice(tape.start(node), tape.end(node)) === desired.text ? undefined : desired.text;
      case 'remove':
        // Handled by the parent object, which leaves the member out.
        return undefined;
      case 'object':
        return tape.kind(node) === 'object' ? this.mergeObject(node, desired) : serialize(desired, indent, this.style);
    }
  }

  private mergeObject(node: Slot, desired: Extract<Desired, { kind: 'object' }>): string | undefined {
    const { tape, text } = this;
    if (desired.unitValue !== undefined) {
      const value = tape.member(node, 'value');
      if (value >= 0 && tape.is(value + 1, desired.unitValue)) return undefined;
    }
    const only = desired.members.length === 1 && !desired.exclusive ? desired.members[0]! : undefined;
    if (only && only[1].kind !== 'remove') return this.mergeMember(node, only[0], only[1]);
    // Members by their key's slot; a member spans from its key's start to its value's end.
    const members = tape.children(node);
    const names = members.map((key) => tape.string(key));
    type Item = { key: string; text: string; index?: number };
    const items: Item[] = [];
    let changed = false;
    for (let index = 0; index < members.length; index++) {
      const key = members[index]!;
      const name = names[index]!;
      const d = wantedIn(desired, name);
      if (d === undefined ? desired.exclusive : d.kind === 'remove') {
        changed = true;
        continue;
      }
      const merged = d && this.merge(key + 1, d, this.lineIndent(tape.start(key)));
      if (merged !== undefined) changed = true;
      items.push({ key: name, text: text.slice(tape.start(key), merged === undefined ? tape.end(key + 1) : tape.start(key + 1)) + (merged ?? ''), index });
    }
    const first = members[0];
    const memberIndent = first !== undefined ? this.lineIndent(tape.start(first)) : this.lineIndent(tape.start(node)) + this.style.indent;
    const colon = first !== undefined ? text.slice(tape.end(first), tape.start(first + 1)) : this.style.colon;
    // Whether the members kept are in Xcode's order, which new ones then join; asked only once there is a new one.
    let sorted: boolean | undefined;
    for (const [key, d] of desired.members) {
      if (names.includes(key) || d.kind === 'remove') continue;
      changed = true;
      const item: Item = { key, text: `${JSON.stringify(key)}${colon}${serialize(d, memberIndent, this.style)}` };
      sorted ??= items.every((other, i) => i === 0 || compareKeys(items[i - 1]!.key, other.key) <= 0);
      const at = sorted ? items.findIndex((other) => compareKeys(other.key, key) > 0) : -1;
      items.splice(at < 0 ? items.length : at, 0, item);
    }
    if (!changed) return undefined;
    const { eol } = this.style;
    if (first === undefined) return `{${eol}${items.map((item) => memberIndent + item.text).join(`,${eol}`)}${eol}${this.lineIndent(tape.start(node))}}`;
    if (items.length === 0) return `{${eol}${eol}${this.lineIndent(tape.start(node))}}`;
    const last = members[members.length - 1]!;
    const second = members[1];
    const separator = second !== undefined ? text.slice(tape.end(first + 1), tape.start(second)) : `,${text.slice(tape.start(node) + 1, tape.start(first))}`;
    let out = text.slice(tape.start(node), tape.start(first));
    for (let k = 0; k < items.length; k++) {
      const item = items[k]!;
      const previous = items[k - 1];
      if (previous) {
        const adjacent = previous.index !== undefined && item.index === previous.index + 1;
        out += adjacent ? text.slice(tape.end(members[previous.index!]! + 1), tape.start(members[item.index!]!)) : separator;
      }
      out += item.text;
    }
    return out + text.slice(tape.end(last + 1), tape.end(node));
  }

  /**
   * `mergeObject` for a desired object that names one member and keeps the others, as every localization written
   * asks (of its catalog string, then of its `localizations`): the member's value merged in place, or the member
   * added where Xcode's order puts it, between the others as they are. Writes what the general case writes.
   */
  private mergeMember(node: Slot, name: string, desired: Desired): string | undefined {
    const { tape, text } = this;
    const found = tape.member(node, name);
    if (found >= 0) {
      const merged = this.merge(found + 1, desired, this.lineIndent(tape.start(found)));
      return merged === undefined ? undefined : text.slice(tape.start(node), tape.start(found + 1)) + merged + text.slice(tape.end(found + 1), tape.end(node));
    }
    const members = tape.children(node);
    const first = members[0];
    const { eol } = this.style;
    if (first === undefined) {
      const indent = this.lineIndent(tape.start(node));
      const inner = indent + this.style.indent;
      return `{${eol}${inner}${JSON.stringify(name)}${this.style.colon}${serialize(desired, inner, this.style)}${eol}${indent}}`;
    }
    const item = `${JSON.stringify(name)}${text.slice(tape.end(first), tape.start(first + 1))}${serialize(desired, this.lineIndent(tape.start(first)), this.style)}`;
    const second = members[1];
    const separator = second !== undefined ? text.slice(tape.end(first + 1), tape.start(second)) : `,${text.slice(tape.start(node) + 1, tape.start(first))}`;
    // Before the first member that sorts after it when the members are in Xcode's order, else last.
    let at = members.length;
    let previous: string | undefined;
    for (let k = 0; k < members.length; k++) {
      const key = tape.string(members[k]!);
      if (previous !== undefined && compareKeys(previous, key) > 0) {
        at = members.length;
        break;
      }
      if (at === members.length && compareKeys(key, name) > 0) at = k;
      previous = key;
    }
    if (at === members.length) {
      const end = tape.end(members[members.length - 1]! + 1);
      return text.slice(tape.start(node), end) + separator + item + text.slice(end, tape.end(node));
    }
    const next = tape.start(members[at]!);
    const before = at === 0 ? text.slice(tape.start(node), next) : text.slice(tape.start(node), tape.end(members[at - 1]! + 1)) + separator;
    return before + item + separator + text.slice(next, tape.end(node));
  }
}

/** What `desired` wants for the member `name` (the last it names, as a Map of its members would hold). */
function wantedIn(desired: Extract<Desired, { kind: 'object' }>, name: string): Desired | undefined {
  const { members } = desired;
  for (let i = members.length - 1; i >= 0; i--) if (members[i]![0] === name) return members[i]![1];
  return undefined;
}

const unit = (value: string, state: string): Desired => ({
  kind: 'object',
  unitValue: value,
  members: [
    ['state', { kind: 'string', value: state }],
    ['value', { kind: 'string', value }],
  ],
});

function pluralVariations(forms: PluralForms, states: Record<string, string | undefined>, fallbackState: string): Desired {
  const members = PLURAL_CATEGORIES.flatMap((category): [string, Desired][] => {
    const form = forms[category];
    return form === undefined ? [] : [[category, { kind: 'object', members: [['stringUnit', unit(form, states[category] ?? fallbackState)]] }]];
  });
  return { kind: 'object', exclusive: true, members: [['plural', { kind: 'object', exclusive: true, members }]] };
}

/** A text or plural value in the shape of a localization (or device variation) body. */
function partFor(value: string | PluralForms, states: Record<string, string | undefined>, fallbackState: string): [string, Desired][] {
  if (typeof value === 'string') return [['stringUnit', unit(value, states[''] ?? fallbackState)]];
  return [['variations', pluralVariations(value, states, fallbackState)]];
}

interface Filled {
  value: string | PluralForms;
  /** States by plural category, or under '' for a text; a missing state means "needs_review". */
  states: Record<string, string | undefined>;
}

const partOf = (filled: Filled): [string, Desired][] => partFor(filled.value, filled.states, 'needs_review');

/**
 * The localization body for one catalog string, in the source's shape, `fills` giving its entries' slots in the order
 * `bodyEntries` lists them (a string with no localization has the one entry its key stands in for).
 */
function desiredBody(tape: JsonTape, body: Body | undefined, fills: readonly Filled[]): Desired {
  const members: [string, Desired][] = [];
  let next = 0;
  const main = body?.main;
  if (main?.kind === 'device') {
    const devices = main.devices.map(([device]): [string, Desired] => [device, { kind: 'object', exclusive: true, members: partOf(fills[next++]!) }]);
    members.push(['variations', { kind: 'object', exclusive: true, members: [['device', { kind: 'object', exclusive: true, members: devices }]] }]);
  } else if (main || !body || body.substitutions.length === 0) {
    members.push(...partOf(fills[next++]!));
  }
  if (body && body.substitutions.length > 0) {
    const subs = body.substitutions.map((sub): [string, Desired] => {
      const s = fills[next++]!;
      const forms = typeof s.value === 'string' ? { other: s.value } : s.value;
      const copied = tape
        .children(sub.node)
        .filter((name) => !tape.is(name, 'variations'))
        .map((name): [string, Desired] => [tape.string(name), { kind: 'raw', text: tape.text.slice(tape.start(name + 1), tape.end(name + 1)) }]);
      return [sub.name, { kind: 'object', exclusive: true, members: [...copied, ['variations', pluralVariations(forms, s.states, 'needs_review')]] }];
    });
    members.push(['substitutions', { kind: 'object', exclusive: true, members: subs }]);
  }
  return { kind: 'object', exclusive: true, members };
}

function sameValue(a: string | PluralForms | undefined, b: Value): boolean {
  if (a === undefined) return false;
  if (typeof b === 'string' || typeof a === 'string') return a === b;
  const x = Object.entries(a);
  const y = b.plurals;
  return x.length === Object.keys(y).length && x.every(([k, v]) => y[k as PluralCategory] === v);
}

const translatedStates = (value: string | PluralForms): Record<string, string> =>
  typeof value === 'string' ? { '': 'translated' } : Object.fromEntries(Object.keys(value).map((c) => [c, 'translated']));

const NO_ENTRIES: ReadonlyMap<string, FoundEntry> = new Map();

/** The entries a language already has for one catalog string, by key; a malformed localization counts as none (it gets replaced). */
function currentEntries(tape: JsonTape, name: string, localization: Slot): ReadonlyMap<string, FoundEntry> {
  if (localization < 0) return NO_ENTRIES;
  try {
    return new Map(bodyEntries(tape, name, readBody(tape, localization + 1, 'the localization')).map((e) => [e.key, e]));
  } catch (error) {
    if (error instanceof FileUnparsableError) return NO_ENTRIES;
    throw error;
  }
}

/**
 * What one source entry's slot gets: its value (state "translated", or the state it had when the value is unchanged),
 * else the language's existing text for that slot, else the source text, to be marked "needs_review".
 */
function fillFor(entry: FoundEntry, value: Value | undefined, had: FoundEntry | undefined, target: string): Filled {
  if (value !== undefined) {
    const next = typeof value === 'string' ? value : value.plurals;
    return { value: next, states: had && sameValue(had.value, value) ? had.states : translatedStates(next) };
  }
  if (had && typeof had.value === typeof entry.value) return { value: had.value, states: had.states };
  return { value: typeof entry.value === 'string' ? entry.value : sourceFormsFor(target, entry.value), states: {} };
}

/**
 * Writes the target language's localization of every catalog string that has a value: each source entry's slot gets
 * its value (state "translated"), else the language's existing text for that slot, else the source text marked
 * "needs_review", because one variation or substitution cannot be left out while its siblings are translated.
 * Strings with no value keep what the file has (missing 'source'), or lose this language's localization (missing 'omit';
 * never the source language's). `shouldTranslate: false` strings get no target localization.
 */
function render(input: RenderInput): Uint8Array {
  const catalog = readCatalog(input.source);
  const { tape, sourceLanguage } = catalog;
  const text = tape.text;
  const target = input.locale ?? sourceLanguage;
  const isSource = normalLocale(target) === normalLocale(sourceLanguage);
  const merger = new Merger(tape, detectStyle(tape));
  // The new text of a catalog string's object, or undefined to keep it.
  const rewrite = (item: CatalogString, entries: FoundEntry[], body: Body | undefined): string | undefined => {
    if (!item.translatable && !isSource) return undefined;
    const existing = localizationOf(tape, item, target);
    const current = isSource ? new Map(entries.map((e) => [e.key, e])) : currentEntries(tape, item.name, existing);
    const values = entries.map((e) => input.values.get(e.key));
    let desired: Desired;
    if (values.every((value) => value === undefined)) {
      if (input.missing !== 'omit' || isSource || existing < 0) return undefined;
      const only = tape.children(item.localizations!).length === 1;
      desired = { kind: 'object', members: [['localizations', only ? { kind: 'remove' } : { kind: 'object', members: [[tape.string(existing), { kind: 'remove' }]] }]] };
    } else {
      if (entries.every((e, i) => values[i] === undefined || sameValue(current.get(e.key)?.value, values[i]!))) return undefined;
      const localization = desiredBody(tape, body, entries.map((e, i) => fillFor(e, values[i], current.get(e.key), target)));
      desired = { kind: 'object', members: [['localizations', { kind: 'object', members: [[existing < 0 ? target : tape.string(existing), localization]] }]] };
    }
    return merger.merge(item.node, desired, '');
  };

  let out: Utf8Writer | undefined;
  let at = 0;
  const strings = localeEntries(catalog, sourceLanguage, true);
  for (const { item, entries, body } of strings) {
    let merged: string | undefined;
    try {
      merged = rewrite(item, entries, body);
    } catch (error) {
      // A malformed string further on is reported first, as when every string is read before any is written.
      for (const _ of strings);
      throw error;
    }
    if (merged === undefined) continue;
    // Room for a target language as long as the source one, beside it.
    out ??= new Utf8Writer(input.source.length * 2, tape.bom);
    out.write(text.slice(at, tape.start(item.node)));
    out.write(merged);
    at = tape.end(item.node);
  }
  if (!out) return input.source.slice();
  out.write(text.slice(at));
  return out.finish();
}

export const iosXcstringsCodec: Codec = {
  id: 'ios_xcstrings',
  extensions: ['.xcstrings'],
  plurals: true,

  detect(fileName: string, head: string): number {
    const catalogLike = /"sourceLanguage"\s*:/.test(head) && /"strings"\s*:/.test(head);
    if (/\.xcstrings$/i.test(fileName)) return head.replace(/^\uFEFF/, '').trimStart().startsWith('{') ? 1 : 0.6;
    return catalogLike ? 0.7 : 0;
  },

  parse(bytes: Uint8Array): Entry[] {
    const catalog = readCatalog(bytes);
    return localeToEntries(catalog, catalog.sourceLanguage, true);
  },

  render,

  renderFresh(entries: readonly FreshEntry[], options?: { locale?: string }): Uint8Array {
    const locale = options?.locale ?? 'en';
    // A repeated key keeps its first position and its last value and notes.
    const byKey = new Map<string, FreshEntry>();
    for (const entry of entries) byKey.set(entry.key, entry);
    const strings = [...byKey.values()].map((entry): [string, Desired] => {
      const value = typeof entry.value === 'string' ? entry.value : entry.value.plurals;
      const members: [string, Desired][] = [];
      if (entry.notes) members.push(['comment', { kind: 'string', value: entry.notes }]);
      members.push(['extractionState', { kind: 'string', value: 'manual' }]);
      members.push(['localizations', { kind: 'object', members: [[locale, { kind: 'object', members: partFor(value, translatedStates(value), 'translated') }]] }]);
      return [entry.key, { kind: 'object', members }];
    });
    const root: Desired = {
      kind: 'object',
      ordered: true,
      members: [
        ['sourceLanguage', { kind: 'string', value: locale }],
        ['strings', { kind: 'object', ordered: true, members: strings }],
        ['version', { kind: 'string', value: '1.0' }],
      ],
    };
    return encodeUtf8(`${serialize(root, '', XCODE_STYLE)}\n`, false);
  },
};
