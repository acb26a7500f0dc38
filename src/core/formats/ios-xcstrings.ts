// The `ios_xcstrings` codec: Xcode String Catalogs, read from the source language and rendered by writing one language's localizations in place.
import { sourceFormsFor } from '../plurals.js';
import { FileUnparsableError, PLURAL_CATEGORIES, type Codec, type Entry, type FreshEntry, type PluralCategory, type PluralForms, type RenderInput, type Value } from './codec.js';
import { encodeUtf8, scanJson, type JsonMember, type JsonObjectNode, type JsonStringNode, type JsonValueNode } from './json-scan.js';

/*
 * Keys. A catalog string `K` gives the entry `K`: its stringUnit, or its plural variations as plural forms. Two Xcode
 * features give extra entries, keyed by a path joined with '.':
 *   - device variations: `K.device.<device>` (iphone, ipad, mac, other, …), each a text or plural entry;
 *   - substitutions (`%#@name@` in the text) with plural variations: `K.<name>`, a plural entry, besides `K` itself.
 * Variation kinds other than plural and device are left in the file untouched and give no entries.
 */

type Part =
  | { kind: 'text'; node: JsonStringNode; state?: string }
  | { kind: 'plural'; forms: Map<PluralCategory, { node: JsonStringNode; state?: string }> };

interface Body {
  /** The text or plural forms of the localization itself, or per device. */
  main?: Part | { kind: 'device'; devices: [string, Part][] };
  substitutions: { name: string; node: JsonObjectNode; forms: Map<PluralCategory, { node: JsonStringNode; state?: string }> }[];
}

interface CatalogString {
  key: JsonStringNode;
  node: JsonObjectNode;
  comment?: string;
  translatable: boolean;
  localizations?: JsonObjectNode;
}

interface Catalog {
  text: string;
  bom: boolean;
  root: JsonObjectNode;
  sourceLanguage: string;
  strings: CatalogString[];
}

/** One entry of a localization, with where it lives so a render can rebuild it. */
interface FoundEntry {
  path: string[];
  value: string | PluralForms;
  /** The string token the entry's position points at. */
  at: JsonStringNode;
  /** Per form for plurals, else the unit's state. */
  states: Record<string, string | undefined>;
}

function fail(message: string, node: { line: number; column: number }): never {
  throw new FileUnparsableError(`${message} at line ${node.line}, column ${node.column}`, node.line, node.column);
}

function member(node: JsonObjectNode, name: string): JsonMember | undefined {
  return node.members.find((m) => m.key.value === name);
}

function objectAt(node: JsonValueNode, what: string): JsonObjectNode {
  if (node.kind !== 'object') fail(`Expected an object for ${what}`, node);
  return node;
}

function stringIn(node: JsonObjectNode, name: string, what: string): JsonStringNode {
  const found = member(node, name);
  if (!found) fail(`Expected a "${name}" string in ${what}`, node);
  if (found.value.kind !== 'string') fail(`Expected a string for "${name}" in ${what}`, found.value);
  return found.value;
}

/** A `{ "stringUnit": { "state", "value" } }` holder: the value token and state. */
function readUnit(holder: JsonObjectNode, what: string): { node: JsonStringNode; state?: string } | undefined {
  const unit = member(holder, 'stringUnit');
  if (!unit) return undefined;
  const body = objectAt(unit.value, `the stringUnit of ${what}`);
  const node = stringIn(body, 'value', `the stringUnit of ${what}`);
  const state = member(body, 'state')?.value;
  return state?.kind === 'string' ? { node, state: state.value } : { node };
}

function readPlural(node: JsonValueNode, what: string): Map<PluralCategory, { node: JsonStringNode; state?: string }> {
  const plural = objectAt(node, `the plural variations of ${what}`);
  const forms = new Map<PluralCategory, { node: JsonStringNode; state?: string }>();
  for (const m of plural.members) {
    const category = m.key.value;
    if (!(PLURAL_CATEGORIES as readonly string[]).includes(category)) {
      fail(`Expected a CLDR plural category (zero, one, two, few, many, other) in the plural variations of ${what}, found ${JSON.stringify(category)}`, m.key);
    }
    const form = readUnit(objectAt(m.value, `the "${category}" form of ${what}`), `the "${category}" form of ${what}`);
    if (!form) fail(`Expected a "stringUnit" in the "${category}" form of ${what}`, m.value);
    forms.set(category as PluralCategory, form);
  }
  return forms;
}

/** A text, plural, or (when `devices`) device-varied localization body. */
function readPart(holder: JsonObjectNode, what: string, devices: boolean): Part | { kind: 'device'; devices: [string, Part][] } | undefined {
  const variations = member(holder, 'variations');
  if (variations) {
    const kinds = objectAt(variations.value, `the variations of ${what}`);
    const plural = member(kinds, 'plural');
    if (plural) return { kind: 'plural', forms: readPlural(plural.value, what) };
    const device = member(kinds, 'device');
    if (device && devices) {
      const list: [string, Part][] = [];
      for (const m of objectAt(device.value, `the device variations of ${what}`).members) {
        const deviceWhat = `the "${m.key.value}" device variation of ${what}`;
        const part = readPart(objectAt(m.value, deviceWhat), deviceWhat, false);
        if (part && part.kind !== 'device') list.push([m.key.value, part]);
      }
      return { kind: 'device', devices: list };
    }
  }
  const unit = readUnit(holder, what);
  return unit && { kind: 'text', ...unit };
}

function readBody(node: JsonValueNode, what: string): Body {
  const holder = objectAt(node, what);
  const body: Body = { substitutions: [] };
  const main = readPart(holder, what, true);
  if (main) body.main = main;
  const substitutions = member(holder, 'substitutions');
  if (substitutions) {
    for (const m of objectAt(substitutions.value, `the substitutions of ${what}`).members) {
      const subWhat = `the substitution "${m.key.value}" of ${what}`;
      const sub = objectAt(m.value, subWhat);
      const variations = member(sub, 'variations');
      const plural = variations && member(objectAt(variations.value, `the variations of ${subWhat}`), 'plural');
      if (plural) body.substitutions.push({ name: m.key.value, node: sub, forms: readPlural(plural.value, subWhat) });
    }
  }
  return body;
}

function formsOf(forms: Map<PluralCategory, { node: JsonStringNode; state?: string }>): { value: PluralForms; at: JsonStringNode; states: Record<string, string | undefined> } {
  const value: PluralForms = {};
  const states: Record<string, string | undefined> = {};
  for (const category of PLURAL_CATEGORIES) {
    const form = forms.get(category);
    if (form) [value[category], states[category]] = [form.node.value, form.state];
  }
  const at = (forms.get('other') ?? [...forms.values()][0])!.node;
  return { value, at, states };
}

function partEntry(path: string[], part: Part): FoundEntry {
  if (part.kind === 'text') return { path, value: part.node.value, at: part.node, states: { '': part.state } };
  return { path, ...formsOf(part.forms) };
}

/** The entries a localization body gives for the catalog string `key`. */
function bodyEntries(key: string, body: Body): FoundEntry[] {
  const out: FoundEntry[] = [];
  const main = body.main;
  if (main?.kind === 'device') for (const [device, part] of main.devices) out.push(partEntry([key, 'device', device], part));
  else if (main) out.push(partEntry([key], main));
  for (const sub of body.substitutions) out.push({ path: [key, sub.name], ...formsOf(sub.forms) });
  return out;
}

function readCatalog(bytes: Uint8Array): Catalog {
  const { text, bom, root } = scanJson(bytes);
  const sourceLanguage = stringIn(root, 'sourceLanguage', 'the top-level object').value;
  const stringsMember = member(root, 'strings');
  if (!stringsMember) fail('Expected a "strings" object in the top-level object', root);
  const strings = objectAt(stringsMember.value, '"strings"').members.map((m): CatalogString => {
    const node = objectAt(m.value, `the string ${JSON.stringify(m.key.value)}`);
    const shouldTranslate = member(node, 'shouldTranslate')?.value;
    const item: CatalogString = { key: m.key, node, translatable: !shouldTranslate || text.slice(shouldTranslate.start, shouldTranslate.end) !== 'false' };
    const comment = member(node, 'comment')?.value;
    if (comment?.kind === 'string' && comment.value) item.comment = comment.value;
    const localizations = member(node, 'localizations');
    if (localizations) item.localizations = objectAt(localizations.value, `the localizations of ${JSON.stringify(m.key.value)}`);
    return item;
  });
  return { text, bom, root, sourceLanguage, strings };
}

const normalLocale = (tag: string): string => tag.toLowerCase().replace(/_/g, '-');

/** The member of `localizations` for a locale, matching `pt-BR`, `pt_BR` and `pt-br` alike. */
function localizationOf(item: CatalogString, locale: string): JsonMember | undefined {
  return item.localizations?.members.find((m) => normalLocale(m.key.value) === normalLocale(locale));
}

/** Every entry of `locale`'s localizations, in file order; `fallback` adds the key itself as the text where one has none (the source language). */
function localeEntries(catalog: Catalog, locale: string, fallback: boolean): { item: CatalogString; entries: FoundEntry[] }[] {
  const seen = new Map<string, FoundEntry>();
  return catalog.strings.map((item) => {
    const name = item.key.value;
    const localization = localizationOf(item, locale);
    let entries = localization ? bodyEntries(name, readBody(localization.value, `the "${localization.key.value}" localization of ${JSON.stringify(name)}`)) : [];
    // Xcode keeps `""` for empty string literals in code; with no localization there is nothing to translate.
    if (entries.length === 0 && fallback && name !== '') entries = [{ path: [name], value: name, at: item.key, states: {} }];
    for (const entry of entries) {
      const key = entry.path.join('.');
      const prior = seen.get(key);
      if (prior) {
        fail(`The entries ${JSON.stringify(prior.path)} (line ${prior.at.line}) and ${JSON.stringify(entry.path)} both give the key ${JSON.stringify(key)}; rename one of them`, entry.at);
      }
      seen.set(key, entry);
    }
    return { item, entries };
  });
}

function toEntry(item: CatalogString, found: FoundEntry): Entry {
  const entry: Entry = {
    key: found.path.join('.'),
    path: found.path,
    source: typeof found.value === 'string' ? found.value : (found.value.other ?? Object.values(found.value)[0] ?? ''),
    line: found.at.line,
    column: found.at.column,
  };
  if (typeof found.value !== 'string') entry.plurals = found.value;
  if (!item.translatable) entry.translatable = false;
  if (item.comment !== undefined) entry.notes = item.comment;
  return entry;
}

/**
 * Entries of one language in a catalog (the source language's are what `parse` returns, with the key standing in for
 * strings that have no source localization). Other languages list only what they hold.
 */
export function readXcstringsLocale(bytes: Uint8Array, locale: string): Entry[] {
  const catalog = readCatalog(bytes);
  const fallback = normalLocale(locale) === normalLocale(catalog.sourceLanguage);
  return localeEntries(catalog, locale, fallback).flatMap(({ item, entries }) => entries.map((found) => toEntry(item, found)));
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

function detectStyle(text: string, root: JsonObjectNode): Style {
  const first = root.members[0];
  const colon = first ? text.slice(first.key.end, first.value.start) : XCODE_STYLE.colon;
  const lead = first ? /(?:^|\n)([ \t]*)$/.exec(text.slice(root.start + 1, first.start)) : null;
  return {
    colon: /^[ \t]*:[ \t]*$/.test(colon) ? colon : XCODE_STYLE.colon,
    indent: lead?.[1] || XCODE_STYLE.indent,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** Splices desired values into the scanned text, following the file's indentation, separator and line-ending style. */
class Merger {
  constructor(
    private readonly text: string,
    private readonly style: Style,
  ) {}

  private lineIndent(at: number): string {
    // Walk back to the line start: lastIndexOf('\r') on an LF file would scan to the top every time.
    let lineStart = at;
    while (lineStart > 0 && this.text[lineStart - 1] !== '\n' && this.text[lineStart - 1] !== '\r') lineStart--;
    return /^[ \t]*/.exec(this.text.slice(lineStart, at))![0];
  }

  /** Writes a new value, its members one level deeper than `indent` (the indentation of the line it starts on). */
  serialize(desired: Desired, indent: string): string {
    switch (desired.kind) {
      case 'string':
        return JSON.stringify(desired.value);
      case 'raw':
        return desired.text;
      case 'remove':
        // A parent drops members to remove before writing them; nothing else asks.
        return '';
      case 'object': {
        const { colon, indent: unit, eol } = this.style;
        const members = desired.members.filter(([, d]) => d.kind !== 'remove');
        if (!desired.ordered) members.sort(([a], [b]) => collator.compare(a, b));
        if (members.length === 0) return `{${eol}${eol}${indent}}`;
        const inner = indent + unit;
        return `{${eol}${members.map(([k, d]) => `${inner}${JSON.stringify(k)}${colon}${this.serialize(d, inner)}`).join(`,${eol}`)}${eol}${indent}}`;
      }
    }
  }

  /** The new text of `node`, or undefined when it already says what is desired. */
  merge(node: JsonValueNode, desired: Desired, indent: string): string | undefined {
    switch (desired.kind) {
      case 'string':
        return node.kind === 'string' && node.value === desired.value ? undefined : JSON.stringify(desired.value);
      case 'raw':
        return this.text.slice(node.start, node.end) === desired.text ? undefined : desired.text;
      case 'remove':
        // Handled by the parent object, which leaves the member out.
        return undefined;
      case 'object':
        return node.kind === 'object' ? this.mergeObject(node, desired) : this.serialize(desired, indent);
    }
  }

  private mergeObject(node: JsonObjectNode, desired: Extract<Desired, { kind: 'object' }>): string | undefined {
    const text = this.text;
    if (desired.unitValue !== undefined) {
      const value = member(node, 'value')?.value;
      if (value?.kind === 'string' && value.value === desired.unitValue) return undefined;
    }
    const wanted = new Map(desired.members);
    type Item = { key: string; text: string; index?: number };
    const items: Item[] = [];
    let changed = false;
    node.members.forEach((m, index) => {
      const d = wanted.get(m.key.value);
      if (d === undefined ? desired.exclusive : d.kind === 'remove') {
        changed = true;
        return;
      }
      const merged = d && this.merge(m.value, d, this.lineIndent(m.start));
      if (merged !== undefined) changed = true;
      items.push({ key: m.key.value, text: text.slice(m.start, m.value.start) + (merged ?? text.slice(m.value.start, m.value.end)), index });
    });
    const first = node.members[0];
    const memberIndent = first ? this.lineIndent(first.start) : this.lineIndent(node.start) + this.style.indent;
    const colon = first ? text.slice(first.key.end, first.value.start) : this.style.colon;
    const sorted = items.every((item, i) => i === 0 || collator.compare(items[i - 1]!.key, item.key) <= 0);
    const present = new Set(node.members.map((m) => m.key.value));
    for (const [key, d] of desired.members) {
      if (present.has(key) || d.kind === 'remove') continue;
      changed = true;
      const item: Item = { key, text: `${JSON.stringify(key)}${colon}${this.serialize(d, memberIndent)}` };
      const at = sorted ? items.findIndex((other) => collator.compare(other.key, key) > 0) : -1;
      items.splice(at < 0 ? items.length : at, 0, item);
    }
    if (!changed) return undefined;
    const { eol } = this.style;
    if (!first) return `{${eol}${items.map((item) => memberIndent + item.text).join(`,${eol}`)}${eol}${this.lineIndent(node.start)}}`;
    if (items.length === 0) return `{${eol}${eol}${this.lineIndent(node.start)}}`;
    const last = node.members[node.members.length - 1]!;
    const second = node.members[1];
    const separator = second ? text.slice(first.end, second.start) : `,${text.slice(node.start + 1, first.start)}`;
    let out = text.slice(node.start, first.start);
    items.forEach((item, k) => {
      const previous = items[k - 1];
      if (previous) {
        const adjacent = previous.index !== undefined && item.index === previous.index + 1;
        out += adjacent ? text.slice(node.members[previous.index!]!.end, node.members[item.index!]!.start) : separator;
      }
      out += item.text;
    });
    return out + text.slice(last.end, node.end);
  }
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

interface Slot {
  value: string | PluralForms;
  /** States by plural category, or under '' for a text; a missing state means "needs_review". */
  states: Record<string, string | undefined>;
}

/** The localization body for one catalog string, in the source's shape, each entry's slot filled by `slot`. */
function desiredBody(catalog: Catalog, body: Body | undefined, key: string, slot: (path: string[], source: string | PluralForms) => Slot): Desired {
  const members: [string, Desired][] = [];
  const fill = (path: string[], source: string | PluralForms): [string, Desired][] => {
    const s = slot(path, source);
    return partFor(s.value, s.states, 'needs_review');
  };
  const main = body?.main;
  if (!main) {
    if (!body || body.substitutions.length === 0) members.push(...fill([key], key));
  } else if (main.kind === 'device') {
    const devices = main.devices.map(([device, part]): [string, Desired] => {
      const path = [key, 'device', device];
      return [device, { kind: 'object', exclusive: true, members: fill(path, partEntry(path, part).value) }];
    });
    members.push(['variations', { kind: 'object', exclusive: true, members: [['device', { kind: 'object', exclusive: true, members: devices }]] }]);
  } else {
    members.push(...fill([key], partEntry([key], main).value));
  }
  if (body && body.substitutions.length > 0) {
    const subs = body.substitutions.map((sub): [string, Desired] => {
      const s = slot([key, sub.name], formsOf(sub.forms).value);
      const forms = typeof s.value === 'string' ? { other: s.value } : s.value;
      const copied = sub.node.members
        .filter((m) => m.key.value !== 'variations')
        .map((m): [string, Desired] => [m.key.value, { kind: 'raw', text: catalog.text.slice(m.value.start, m.value.end) }]);
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

/** The entries a language already has for one catalog string, by key; a malformed localization counts as none (it gets replaced). */
function currentEntries(name: string, localization: JsonMember | undefined): Map<string, FoundEntry> {
  if (!localization) return new Map();
  try {
    return new Map(bodyEntries(name, readBody(localization.value, 'the localization')).map((e) => [e.path.join('.'), e]));
  } catch (error) {
    if (error instanceof FileUnparsableError) return new Map();
    throw error;
  }
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
  const { text, sourceLanguage } = catalog;
  const target = input.locale ?? sourceLanguage;
  const isSource = normalLocale(target) === normalLocale(sourceLanguage);
  const merger = new Merger(text, detectStyle(text, catalog.root));
  const edits: { start: number; end: number; text: string }[] = [];

  for (const { item, entries } of localeEntries(catalog, sourceLanguage, true)) {
    if (!item.translatable && !isSource) continue;
    const name = item.key.value;
    const existing = localizationOf(item, target);
    const current = isSource ? new Map(entries.map((e) => [e.path.join('.'), e])) : currentEntries(name, existing);
    const given = entries.flatMap((e) => {
      const value = input.values.get(e.path.join('.'));
      return value === undefined ? [] : [[e.path.join('.'), value] as const];
    });
    let desired: Desired;
    if (given.length === 0) {
      if (input.missing !== 'omit' || isSource || !existing) continue;
      const only = item.localizations!.members.length === 1;
      desired = { kind: 'object', members: [['localizations', only ? { kind: 'remove' } : { kind: 'object', members: [[existing.key.value, { kind: 'remove' }]] }]] };
    } else {
      if (given.every(([key, value]) => sameValue(current.get(key)?.value, value))) continue;
      const slot = (path: string[], source: string | PluralForms): Slot => {
        const key = path.join('.');
        const value = input.values.get(key);
        const had = current.get(key);
        if (value !== undefined) {
          const next = typeof value === 'string' ? value : value.plurals;
          // An unchanged value keeps its state; a changed one is now translated.
          return { value: next, states: had && sameValue(had.value, value) ? had.states : translatedStates(next) };
        }
        if (had && typeof had.value === typeof source) return { value: had.value, states: had.states };
        return { value: typeof source === 'string' ? source : sourceFormsFor(target, source), states: {} };
      };
      const sourceLocalization = localizationOf(item, sourceLanguage);
      const body = sourceLocalization && readBody(sourceLocalization.value, 'the source localization');
      const localization = desiredBody(catalog, body, name, slot);
      desired = { kind: 'object', members: [['localizations', { kind: 'object', members: [[existing?.key.value ?? target, localization]] }]] };
    }
    const merged = merger.merge(item.node, desired, '');
    if (merged !== undefined) edits.push({ start: item.node.start, end: item.node.end, text: merged });
  }
  if (edits.length === 0) return input.source.slice();
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return encodeUtf8(out + text.slice(at), catalog.bom);
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
    return localeEntries(catalog, catalog.sourceLanguage, true).flatMap(({ item, entries }) => entries.map((found) => toEntry(item, found)));
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
    return encodeUtf8(`${new Merger('', XCODE_STYLE).serialize(root, '')}\n`, false);
  },
};
