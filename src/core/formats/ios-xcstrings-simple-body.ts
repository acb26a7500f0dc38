// The quick reading the `ios_xcstrings` render gives a localization body of one text or one plural (nearly every string's): its slots, read as `readBody` reads them but without building its entry.
import { PLURAL_CATEGORIES, type Value } from './codec.js';
import type { JsonTape } from './json-scan.js';
import type { Slot } from './ios-xcstrings-catalog.js';

/** How a localization body reads to `readSimple`: one text, one plural, or any other, left to `readBody`. */
export const OTHER_BODY = 0;
export const TEXT_BODY = 1;
export const PLURAL_BODY = 2;

const OTHER_FORM = PLURAL_CATEGORIES.indexOf('other');

/** The slots of a localization body of one text or one plural, read without building its entry. */
export class SimpleBody {
  kind = OTHER_BODY;
  /** How many members the body object has. */
  members = 0;
  /** A text's value token, and the key of its unit's "state" member (-1: none). */
  value = -1;
  stateKey = -1;
  /**
   * A plural's object, how many members its "variations" object has, and its forms' value tokens and "state" keys in
   * PLURAL_CATEGORIES order (-1: none).
   */
  plural = -1;
  variations = 0;
  readonly forms = new Int32Array(PLURAL_CATEGORIES.length);
  readonly formStates = new Int32Array(PLURAL_CATEGORIES.length);
  /** The token the entry's position points at, as `bodyEntries` gives it. */
  at = -1;
}

/** A `{ "value", "state" }` unit object into `body.value` and `body.stateKey`; false where `readUnit` would refuse it. */
function readSimpleUnit(tape: JsonTape, node: Slot, body: SimpleBody): boolean {
  if (tape.kind(node) !== 'object') return false;
  let value = -1;
  let state = -1;
  const stop = tape.after(node);
  for (let key = node + 1; key < stop; key = tape.after(key)) {
    if (tape.is(key, 'value')) value = key;
    else if (tape.is(key, 'state')) state = key;
  }
  if (value < 0 || tape.kind(value + 1) !== 'string') return false;
  body.value = value + 1;
  body.stateKey = state;
  return true;
}

/**
 * Reads a localization body that is one text or one plural, without substitutions, as `readBody` reads it, into
 * `body`; anything else, malformed bodies included, is OTHER_BODY, left to `readBody` and its messages.
 */
export function readSimple(tape: JsonTape, holder: Slot, body: SimpleBody): number {
  body.kind = OTHER_BODY;
  if (tape.kind(holder) !== 'object') return OTHER_BODY;
  let unit = -1;
  let variations = -1;
  let members = 0;
  const stop = tape.after(holder);
  for (let key = holder + 1; key < stop; key = tape.after(key)) {
    members++;
    if (tape.is(key, 'stringUnit')) unit = key + 1;
    else if (tape.is(key, 'variations')) variations = key + 1;
    else if (tape.is(key, 'substitutions')) return OTHER_BODY;
  }
  body.members = members;
  if (variations < 0) {
    if (unit < 0 || !readSimpleUnit(tape, unit, body)) return OTHER_BODY;
    body.at = body.value;
    return (body.kind = TEXT_BODY);
  }
  if (tape.kind(variations) !== 'object') return OTHER_BODY;
  let pluralKey = -1;
  let kinds = 0;
  for (let key = variations + 1; key < tape.after(variations); key = tape.after(key)) {
    kinds++;
    if (tape.is(key, 'plural')) pluralKey = key;
  }
  if (pluralKey < 0 || tape.kind(pluralKey + 1) !== 'object') return OTHER_BODY;
  const plural = pluralKey + 1;
  body.plural = plural;
  body.variations = kinds;
  const { forms, formStates } = body;
  forms.fill(-1);
  formStates.fill(-1);
  let first = -1;
  const end = tape.after(plural);
  for (let key = plural + 1; key < end; key = tape.after(key)) {
    const category = (PLURAL_CATEGORIES as readonly string[]).indexOf(tape.string(key));
    if (category < 0 || tape.kind(key + 1) !== 'object') return OTHER_BODY;
    const unitKey = tape.member(key + 1, 'stringUnit');
    if (unitKey < 0 || !readSimpleUnit(tape, unitKey + 1, body)) return OTHER_BODY;
    forms[category] = body.value;
    formStates[category] = body.stateKey;
    if (first < 0) first = body.value;
  }
  // `readBody` refuses a plural without forms.
  if (first < 0) return OTHER_BODY;
  body.at = forms[OTHER_FORM]! >= 0 ? forms[OTHER_FORM]! : first;
  return (body.kind = PLURAL_BODY);
}

/** Whether a simple body holds `value`, as `sameValue` tells of its entry. */
export function holds(tape: JsonTape, body: SimpleBody, value: Value): boolean {
  if (body.kind === TEXT_BODY) return typeof value === 'string' && tape.is(body.value, value);
  if (typeof value === 'string') return false;
  const { plurals } = value;
  const count = Object.keys(plurals).length;
  let present = 0;
  for (let category = 0; category < PLURAL_CATEGORIES.length; category++) {
    const form = body.forms[category]!;
    if (form < 0) continue;
    present++;
    const wanted = plurals[PLURAL_CATEGORIES[category]!];
    if (typeof wanted !== 'string' || !tape.is(form, wanted)) return false;
  }
  return present === count;
}
