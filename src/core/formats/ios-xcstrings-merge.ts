// The general render of the `ios_xcstrings` codec: what a catalog string should become (`Desired`), merged into the file's text by the Merger or written new by `serialize`, in the file's style and Xcode's key order.
import { sourceFormsFor } from '../plurals.js';
import { PLURAL_CATEGORIES, type PluralCategory, type PluralForms, type RenderInput, type Value } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import type { JsonTape } from './json-scan.js';
import { bodyEntries, localizationOf, readLocalization, type Body, type CatalogString, type FoundEntry, type Slot } from './ios-xcstrings-catalog.js';

/** What a part of the file should become: merged into what is there, so unchanged parts keep their bytes. */
export type Desired =
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

/** How a catalog is laid out: what follows a key, one level of indentation, and the line ending. */
export interface Style {
  colon: string;
  indent: string;
  eol: string;
}

// Xcode writes catalogs with sorted keys in a collation where punctuation sorts first (`my_case` before `my.case` before `myCase`).
const collator = new Intl.Collator('en', { numeric: true });
export const XCODE_STYLE: Style = { colon: ' : ', indent: '  ', eol: '\n' };

/** The style of a scanned catalog, Xcode's where the file does not show one. */
export function detectStyle(tape: JsonTape): Style {
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
export function compareKeys(a: string, b: string): number {
  if (isLowerAscii(a) && isLowerAscii(b)) return a < b ? -1 : a > b ? 1 : 0;
  return collator.compare(a, b);
}

/** Whether `name` is of lowercase ASCII letters only. */
export function isLowerAscii(name: string): boolean {
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
export function serialize(desired: Desired, indent: string, style: Style): string {
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

/** Where the line `at` is on starts. */
export function lineStart(text: string, at: number): number {
  // Walk back: lastIndexOf('\r') on an LF file would scan to the top every time.
  let start = at;
  while (start > 0 && text.charCodeAt(start - 1) !== 0x0a && text.charCodeAt(start - 1) !== 0x0d) start--;
  return start;
}

/** Where the spaces and tabs from `start` end, at `at` at the latest. */
export function indentEnd(text: string, start: number, at: number): number {
  let end = start;
  while (end < at && (text.charCodeAt(end) === 0x20 || text.charCodeAt(end) === 0x09)) end++;
  return end;
}

/** The spaces and tabs that start the line `at` is on, up to `at`. */
export function lineIndent(text: string, at: number): string {
  const start = lineStart(text, at);
  return text.slice(start, indentEnd(text, start, at));
}

/** Splices desired values into the scanned text, following the file's indentation, separator and line-ending style. */
export class Merger {
  private readonly text: string;

  constructor(
    private readonly tape: JsonTape,
    private readonly style: Style,
  ) {
    this.text = tape.text;
  }

  private lineIndent(at: number): string {
    return lineIndent(this.text, at);
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
export function partFor(value: string | PluralForms, states: Record<string, string | undefined>, fallbackState: string): [string, Desired][] {
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

/** The state "translated" for a text or for each plural form. */
export const translatedStates = (value: string | PluralForms): Record<string, string> =>
  typeof value === 'string' ? { '': 'translated' } : Object.fromEntries(Object.keys(value).map((c) => [c, 'translated']));

const NO_ENTRIES: ReadonlyMap<string, FoundEntry> = new Map();

/**
 * The entries a language already has for one catalog string, by key; a malformed localization (one with a plural
 * without forms among them, see `readPlural`) counts as none: it gets replaced.
 */
function currentEntries(tape: JsonTape, item: CatalogString, localization: Slot): ReadonlyMap<string, FoundEntry> {
  if (localization < 0) return NO_ENTRIES;
  try {
    return new Map(bodyEntries(tape, item.name, readLocalization(tape, localization, item.key)).map((e) => [e.key, e]));
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
 * What a catalog string's object should become for the render of `target` (`isSource`: the source language), given the
 * entries of its source localization (`body`, none for a string whose key stands in), or undefined to keep it.
 */
export function desiredString(tape: JsonTape, input: RenderInput, target: string, isSource: boolean, item: CatalogString, entries: FoundEntry[], body: Body | undefined): Desired | undefined {
  const existing = localizationOf(tape, item, target);
  const current = isSource ? new Map(entries.map((e) => [e.key, e])) : currentEntries(tape, item, existing);
  const values = entries.map((e) => input.values.get(e.key));
  if (values.every((value) => value === undefined)) {
    if (input.missing !== 'omit' || isSource || existing < 0) return undefined;
    const only = tape.children(item.localizations!).length === 1;
    return { kind: 'object', members: [['localizations', only ? { kind: 'remove' } : { kind: 'object', members: [[tape.string(existing), { kind: 'remove' }]] }]] };
  }
  if (entries.every((e, i) => values[i] === undefined || sameValue(current.get(e.key)?.value, values[i]!))) return undefined;
  const localization = desiredBody(tape, body, entries.map((e, i) => fillFor(e, values[i], current.get(e.key), target)));
  return { kind: 'object', members: [['localizations', { kind: 'object', members: [[existing < 0 ? target : tape.string(existing), localization]] }]] };
}
