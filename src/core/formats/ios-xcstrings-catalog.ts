// Reading an Xcode String Catalog for the `ios_xcstrings` codec: its strings found on the file's tape, the bodies of their localizations, and the entries those give.
import { PLURAL_CATEGORIES, type Entry, type PluralCategory, type PluralForms } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { scanJsonTape, type JsonTape } from './json-scan.js';

/*
 * Keys. A catalog string `K` gives the entry `K`: its stringUnit, or its plural variations as plural forms. Two Xcode
 * features give extra entries, keyed by a path joined with '.':
 *   - device variations: `K.device.<device>` (iphone, ipad, mac, other, …), each a text or plural entry;
 *   - substitutions (`%#@name@` in the text) with plural variations: `K.<name>`, a plural entry, besides `K` itself.
 * Variation kinds other than plural and device are left in the file untouched and give no entries.
 */

/** A value, named by its slot on the file's tape; a member is named by its key's slot, its value being the next one. */
export type Slot = number;

interface Unit {
  node: Slot;
  state?: string;
}

type Part = ({ kind: 'text' } & Unit) | { kind: 'plural'; forms: Map<PluralCategory, Unit> };

export interface Body {
  /** The text or plural forms of the localization itself, or per device. */
  main?: Part | { kind: 'device'; devices: [string, Part][] };
  substitutions: { name: string; node: Slot; forms: Map<PluralCategory, Unit> }[];
}

export interface CatalogString {
  key: Slot;
  /** The key's decoded name. */
  name: string;
  node: Slot;
  comment?: string;
  translatable: boolean;
  localizations?: Slot;
}

/** A catalog's strings by their position, and as objects. */
interface Catalog extends CatalogSlots {
  strings: CatalogString[];
}

/** One entry of a localization, with where it lives so a render can rebuild it. */
export interface FoundEntry {
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

/**
 * The forms of a plural variation, of which there must be one at least. Xcode compiles a plural variation to a
 * `.stringsdict` plural rule, where Apple documents the `other` form as required: a plural with no form has no text for
 * any count, so it is malformed rather than empty. (One without `other` is still read, its first form standing in, as
 * other tools write such plurals.) The source language's is refused, naming where, as other malformed structure is; a
 * target language's makes its localization malformed, which a render treats as no translation (see `currentEntries`).
 */
function readPlural(tape: JsonTape, node: Slot, what: string): Map<PluralCategory, Unit> {
  const plural = objectAt(tape, node, `the plural variations of ${what}`);
  if (plural + 1 >= tape.after(plural)) fail(tape, `Expected at least one form (zero, one, two, few, many, other) in the plural variations of ${what}`, plural);
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

/** A localization body, read and checked; `what` names it in messages. */
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

/** The body of the localization whose key is at `localization`, in the catalog string whose key is at `key`. */
export function readLocalization(tape: JsonTape, localization: Slot, key: Slot): Body {
  return readBody(tape, localization + 1, `the "${tape.string(localization)}" localization of ${tape.quoted(key)}`);
}

function formsOf(tape: JsonTape, forms: Map<PluralCategory, Unit>): { value: PluralForms; at: Slot; states: Record<string, string | undefined> } {
  const value: PluralForms = {};
  const states: Record<string, string | undefined> = {};
  for (const category of PLURAL_CATEGORIES) {
    const form = forms.get(category);
    if (form) [value[category], states[category]] = [tape.string(form.node), form.state];
  }
  // `readPlural` gives one form at least.
  const at = (forms.get('other') ?? [...forms.values()][0])!.node;
  return { value, at, states };
}

function partEntry(tape: JsonTape, path: string[], part: Part): FoundEntry {
  const key = path.join('.');
  if (part.kind === 'text') return { key, path, value: tape.string(part.node), at: part.node, states: { '': part.state } };
  return { key, path, ...formsOf(tape, part.forms) };
}

/** The entries a localization body gives for the catalog string `key`. */
export function bodyEntries(tape: JsonTape, key: string, body: Body): FoundEntry[] {
  const out: FoundEntry[] = [];
  const main = body.main;
  if (main?.kind === 'device') for (const [device, part] of main.devices) out.push(partEntry(tape, [key, 'device', device], part));
  else if (main) out.push(partEntry(tape, [key], main));
  for (const sub of body.substitutions) out.push({ key: `${key}.${sub.name}`, path: [key, sub.name], ...formsOf(tape, sub.forms) });
  return out;
}

/** A catalog's strings by their position in the file, read and checked once, without an object each. */
export interface CatalogSlots {
  tape: JsonTape;
  sourceLanguage: string;
  /** Each string's key; its object is the next slot. */
  keys: Int32Array;
  /** Each string's "localizations" object, or -1. */
  localizations: Int32Array;
  /** Each string's "comment" key, or -1. */
  comments: Int32Array;
  /** 0 for a string with `"shouldTranslate" : false`, else 1. */
  translatable: Uint8Array;
}

/** Scans a catalog and finds its strings, refusing one without a source language or strings, or with a string or its localizations not an object. */
export function scanCatalog(bytes: Uint8Array): CatalogSlots {
  const tape = scanJsonTape(bytes);
  const root = 0;
  const sourceLanguage = tape.string(stringIn(tape, root, 'sourceLanguage', 'the top-level object'));
  const stringsMember = tape.member(root, 'strings');
  if (stringsMember < 0) fail(tape, 'Expected a "strings" object in the top-level object', root);
  const byKey = objectAt(tape, stringsMember + 1, '"strings"');
  const stop = tape.after(byKey);
  let count = 0;
  for (let key = byKey + 1; key < stop; key = tape.after(key)) count++;
  const keys = new Int32Array(count);
  const localizations = new Int32Array(count);
  const comments = new Int32Array(count);
  const translatable = new Uint8Array(count);
  const { text } = tape;
  let index = 0;
  for (let key = byKey + 1; key < stop; key = tape.after(key), index++) {
    const node = key + 1;
    if (tape.kind(node) !== 'object') fail(tape, `Expected an object for the string ${JSON.stringify(tape.string(key))}`, node);
    let shouldTranslate = -1;
    let comment = -1;
    let holder = -1;
    const end = tape.after(node);
    for (let member = node + 1; member < end; member = tape.after(member)) {
      if (tape.is(member, 'localizations')) holder = member;
      else if (tape.is(member, 'comment')) comment = member;
      else if (tape.is(member, 'shouldTranslate')) shouldTranslate = member;
    }
    if (holder >= 0 && tape.kind(holder + 1) !== 'object') {
      fail(tape, `Expected an object for the localizations of ${JSON.stringify(tape.string(key))}`, holder + 1);
    }
    keys[index] = key;
    localizations[index] = holder < 0 ? -1 : holder + 1;
    comments[index] = comment;
    const flag = shouldTranslate + 1;
    translatable[index] = shouldTranslate < 0 || tape.end(flag) - tape.start(flag) !== 5 || !text.startsWith('false', tape.start(flag)) ? 1 : 0;
  }
  return { tape, sourceLanguage, keys, localizations, comments, translatable };
}

/** The catalog string at `index`, as `readCatalog` lists it (without its comment). */
export function catalogString(catalog: CatalogSlots, index: number): CatalogString {
  const key = catalog.keys[index]!;
  const item: CatalogString = { key, name: catalog.tape.string(key), node: key + 1, translatable: catalog.translatable[index] === 1 };
  const localizations = catalog.localizations[index]!;
  if (localizations >= 0) item.localizations = localizations;
  return item;
}

/** The catalog's strings as objects, comments included, for reading its entries. */
function readCatalog(bytes: Uint8Array): Catalog {
  const catalog = scanCatalog(bytes);
  const { tape, comments } = catalog;
  const strings: CatalogString[] = [];
  for (let index = 0; index < comments.length; index++) {
    const item = catalogString(catalog, index);
    const comment = comments[index]! + 1;
    if (comment > 0 && tape.kind(comment) === 'string' && tape.end(comment) - tape.start(comment) > 2) item.comment = tape.string(comment);
    strings.push(item);
  }
  return { ...catalog, strings };
}

/** A language tag as locales are compared: lowercase, with `-` for `_`. */
export const normalLocale = (tag: string): string => tag.toLowerCase().replace(/_/g, '-');

/** The key of the member of `localizations` for a locale (or -1), matching `pt-BR`, `pt_BR` and `pt-br` alike. */
export function localizationOf(tape: JsonTape, item: CatalogString, locale: string): Slot {
  return item.localizations === undefined ? -1 : localizationIn(tape, item.localizations, locale, normalLocale(locale));
}

/** `localizationOf` in a `localizations` object (-1: none), for a locale and its `normalLocale`. */
export function localizationIn(tape: JsonTape, localizations: Slot, locale: string, normal: string): Slot {
  if (localizations < 0) return -1;
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
 * The keys of a catalog's entries as they are read, string by string, refusing two that give one key. A key of one
 * segment is its catalog string's name, which no other string has, so only a key of more segments (a device or
 * substitution) can meet another: those are kept, and the strings' one-segment entries only as the slot each points at
 * (-1: none), so a large catalog's entries are not all held until the end.
 */
export class EntryKeys {
  private readonly longer = new Map<string, Pick<FoundEntry, 'path' | 'at'>>();
  private readonly single: Int32Array;
  // Strings by name, once a longer key first comes.
  private byName: Map<string, number> | undefined;

  constructor(private readonly catalog: CatalogSlots) {
    this.single = new Int32Array(catalog.keys.length).fill(-1);
  }

  /** The one-segment entry of the string `index` named `name`. */
  add(index: number, name: string, at: Slot): void {
    this.single[index] = at;
    if (this.longer.size === 0) return;
    const prior = this.longer.get(name);
    if (prior) this.refuse(prior, [name], name, at);
  }

  /** The entries of the string `index`. */
  addAll(index: number, entries: readonly FoundEntry[]): void {
    for (const entry of entries) {
      if (entry.path.length === 1) {
        this.add(index, entry.key, entry.at);
        continue;
      }
      let prior = this.longer.get(entry.key);
      const { tape, keys } = this.catalog;
      this.byName ??= new Map(Array.from(keys, (key, i) => [tape.string(key), i]));
      const other = this.byName.get(entry.key);
      if (!prior && other !== undefined && this.single[other]! >= 0) prior = { path: [entry.key], at: this.single[other]! };
      this.longer.set(entry.key, entry);
      if (prior) this.refuse(prior, entry.path, entry.key, entry.at);
    }
  }

  private refuse(prior: Pick<FoundEntry, 'path' | 'at'>, path: string[], key: string, at: Slot): never {
    const { tape } = this.catalog;
    fail(
      tape,
      `The entries ${JSON.stringify(prior.path)} (line ${tape.line(prior.at)}) and ${JSON.stringify(path)} both give the key ${JSON.stringify(key)}; rename one of them`,
      at,
    );
  }
}

/** The entry a string's key gives where its source localization gives none. */
export const keyEntry = (item: CatalogString): FoundEntry => ({ key: item.name, path: [item.name], value: item.name, at: item.key, states: {} });

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

/**
 * Every entry of `locale`'s localizations, string by string in file order; `fallback` adds the key itself as the text
 * where one has none (the source language).
 */
function localeEntries(catalog: Catalog, locale: string, fallback: boolean): Entry[] {
  const { tape, strings } = catalog;
  const keys = new EntryKeys(catalog);
  const out: Entry[] = [];
  for (let index = 0; index < strings.length; index++) {
    const item = strings[index]!;
    const localization = localizationOf(tape, item, locale);
    const body = localization < 0 ? undefined : readLocalization(tape, localization, item.key);
    let entries = body ? bodyEntries(tape, item.name, body) : [];
    // Xcode keeps `""` for empty string literals in code; with no localization there is nothing to translate.
    if (entries.length === 0 && fallback && item.name !== '') entries = [keyEntry(item)];
    keys.addAll(index, entries);
    for (const found of entries) out.push(toEntry(tape, item, found));
  }
  return out;
}

/** The source language's entries, as `parse` returns them: the key stands in for a string with no source localization. */
export function readSourceEntries(bytes: Uint8Array): Entry[] {
  const catalog = readCatalog(bytes);
  return localeEntries(catalog, catalog.sourceLanguage, true);
}

/**
 * Entries of one language in a catalog (the source language's are what `parse` returns, with the key standing in for
 * strings that have no source localization). Other languages list only what they hold.
 */
export function readXcstringsLocale(bytes: Uint8Array, locale: string): Entry[] {
  const catalog = readCatalog(bytes);
  const fallback = normalLocale(locale) === normalLocale(catalog.sourceLanguage);
  return localeEntries(catalog, locale, fallback);
}
