// Reads and writes a value that is one ICU MessageFormat `{arg, plural, …}` message, for codecs that store plurals as ICU text.
import { PLURAL_CATEGORIES, type PluralCategory, type PluralForms } from './codec.js';

/**
 * One top-level plural argument found in a value. Every text field is raw ICU message text (apostrophe quoting,
 * `#` and nested arguments left exactly as written), so writing it back inside a plural keeps its meaning.
 */
export interface IcuPlural {
  /** The argument name, e.g. `count`. */
  argument: string;
  /** The `offset:N` of the plural, when it has one. */
  offset?: number;
  /** Sub-messages by CLDR category; always has `other` (ICU requires it). */
  forms: PluralForms;
  /** Explicit-value sub-messages keyed as written, e.g. `{ '=0': 'No items' }`, in source order. */
  exact: Record<string, string>;
  /** ICU text before the plural argument (plain text and simple arguments such as `{name}` only). */
  prefix: string;
  /** ICU text after the plural argument. */
  suffix: string;
}

/** Forms (and exact matches) with the prefix and suffix moved inside each sub-message. */
export interface FoldedIcuPlural {
  forms: PluralForms;
  exact: Record<string, string>;
}

const CATEGORY_SET: ReadonlySet<string> = new Set(PLURAL_CATEGORIES);
/** ICU's Pattern_White_Space; other spaces (NBSP…) are ordinary text. */
const isWhite = (c: number): boolean => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0x200e || c === 0x200f || c === 0x2028 || c === 0x2029;
/** What ends a word (an argument name, type or selector) besides white space: { } , ' # : = */
const isWordEnd = (c: number): boolean => c === 0x7b || c === 0x7d || c === 0x2c || c === 0x27 || c === 0x23 || c === 0x3a || c === 0x3d;
const COMPLEX_TYPES: ReadonlySet<string> = new Set(['plural', 'select', 'selectordinal']);

class NotIcu extends Error {}

interface ScannedArgument {
  start: number;
  end: number;
  name: string;
  type: string;
  offset?: number;
  /** Selector → raw sub-message, for plural, selectordinal and select. */
  options: [string, string][];
}

/**
 * A small scanner for ICU MessageFormat (apostrophe mode DOUBLE_OPTIONAL, as ICU4J/ICU4C and Flutter use): `''` is an
 * apostrophe, and `'` starts quoted literal text only before `{`, `}`, `|` or, directly inside a plural, `#`.
 */
class IcuScanner {
  pos = 0;
  constructor(private readonly text: string) {}

  /** Scans message text up to an unmatched `}` (nested) or the end (top level); returns the top-level arguments seen. */
  message(nested: boolean, inPlural: boolean): ScannedArgument[] {
    const args: ScannedArgument[] = [];
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x27) this.apostrophe(inPlural);
      else if (c === 0x7b) args.push(this.argument());
      else if (c === 0x7d) {
        if (nested) return args;
        throw new NotIcu();
      } else this.pos++;
    }
    if (nested) throw new NotIcu();
    return args;
  }

  private apostrophe(inPlural: boolean): void {
    const t = this.text;
    const next = t[this.pos + 1];
    if (next === "'") {
      this.pos += 2;
      return;
    }
    if (next !== '{' && next !== '}' && next !== '|' && !(next === '#' && inPlural)) {
      this.pos++;
      return;
    }
    // Quoted literal: runs to the next single apostrophe; an unterminated one runs to the end, leaving braces unbalanced.
    this.pos += 2;
    for (;;) {
      const close = t.indexOf("'", this.pos);
      if (close < 0) {
        this.pos = t.length;
        return;
      }
      if (t[close + 1] === "'") {
        this.pos = close + 2;
        continue;
      }
      this.pos = close + 1;
      return;
    }
  }

  private white(): void {
    while (this.pos < this.text.length && isWhite(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private word(): string {
    const start = this.pos;
    while (this.pos < this.text.length && !isWhite(this.text.charCodeAt(this.pos)) && !isWordEnd(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  private argument(): ScannedArgument {
    const t = this.text;
    const start = this.pos++;
    this.white();
    const name = this.word();
    if (!name) throw new NotIcu();
    this.white();
    if (t[this.pos] === '}') {
      this.pos++;
      return { start, end: this.pos, name, type: '', options: [] };
    }
    if (t[this.pos] !== ',') throw new NotIcu();
    this.pos++;
    this.white();
    const type = this.word();
    if (!type) throw new NotIcu();
    this.white();
    const arg: ScannedArgument = { start, end: start, name, type, options: [] };
    if (t[this.pos] === '}') {
      if (COMPLEX_TYPES.has(type)) throw new NotIcu();
      this.pos++;
      arg.end = this.pos;
      return arg;
    }
    if (t[this.pos] !== ',') throw new NotIcu();
    this.pos++;
    if (COMPLEX_TYPES.has(type)) this.options(arg);
    else this.styleText();
    arg.end = this.pos;
    return arg;
  }

  /** A simple argument's style (`::currency/EUR`, `#,##0.00`, …): skipped with quoting and brace nesting. */
  private styleText(): void {
    const t = this.text;
    let depth = 0;
    while (this.pos < t.length) {
      const c = t[this.pos]!;
      if (c === "'") {
        const close = t.indexOf("'", this.pos + 1);
        if (close < 0) throw new NotIcu();
        this.pos = close + 1;
      } else if (c === '{') {
        depth++;
        this.pos++;
      } else if (c === '}') {
        this.pos++;
        if (depth-- === 0) return;
      } else this.pos++;
    }
    throw new NotIcu();
  }

  private options(arg: ScannedArgument): void {
    const t = this.text;
    const plural = arg.type !== 'select';
    const seen = new Set<string>();
    this.white();
    if (plural && t.startsWith('offset:', this.pos)) {
      this.pos += 'offset:'.length;
      this.white();
      const match = /^-?\d+/.exec(t.slice(this.pos));
      if (!match) throw new NotIcu();
      arg.offset = Number(match[0]);
      this.pos += match[0].length;
    }
    for (;;) {
      this.white();
      if (t[this.pos] === '}') {
        this.pos++;
        break;
      }
      let selector: string;
      if (plural && t[this.pos] === '=') {
        const match = /^=-?\d+(?:\.\d+)?/.exec(t.slice(this.pos));
        if (!match) throw new NotIcu();
        selector = match[0];
        this.pos += selector.length;
      } else {
        selector = this.word();
        if (!selector) throw new NotIcu();
      }
      if (seen.has(selector)) throw new NotIcu();
      seen.add(selector);
      this.white();
      if (t[this.pos] !== '{') throw new NotIcu();
      const from = ++this.pos;
      this.message(true, plural);
      arg.options.push([selector, t.slice(from, this.pos)]);
      this.pos++;
    }
    if (!seen.has('other')) throw new NotIcu();
  }
}

/**
 * Finds the one `{arg, plural, …}` argument of a value. Surrounding text is allowed and returned raw as prefix and
 * suffix, as long as it holds no other plural, select or selectordinal (those cannot be expressed as one set of forms);
 * a whole-value plural has prefix and suffix ''. Returns undefined for anything else: no plural, two of them, a
 * `selectordinal`, a selector that is not a CLDR category or `=N`, a missing `other`, or text that is not valid ICU.
 */
export function parseIcuPlural(text: string): IcuPlural | undefined {
  // A plural argument has a comma and names its type: most values have neither, and need no scan to say so.
  if (!text.includes(',') || !text.includes('plural')) return undefined;
  let args: ScannedArgument[];
  try {
    args = new IcuScanner(text).message(false, false);
  } catch (error) {
    if (error instanceof NotIcu) return undefined;
    throw error;
  }
  const complex = args.filter((a) => COMPLEX_TYPES.has(a.type));
  const plural = complex[0];
  if (complex.length !== 1 || plural?.type !== 'plural') return undefined;
  const forms: PluralForms = {};
  const exact: Record<string, string> = {};
  for (const [selector, message] of plural.options) {
    if (selector.startsWith('=')) exact[selector] = message;
    else if (CATEGORY_SET.has(selector)) forms[selector as PluralCategory] = message;
    else return undefined;
  }
  const result: IcuPlural = { argument: plural.name, forms, exact, prefix: text.slice(0, plural.start), suffix: text.slice(plural.end) };
  if (plural.offset !== undefined) result.offset = plural.offset;
  return result;
}

/**
 * Moves the prefix and suffix into every sub-message, so `I have {n, plural, one {a dog} other {# dogs}}.` gives the
 * forms `I have a dog.` and `I have # dogs.`, each a whole sentence for translators. Returns undefined where moving them
 * would change the meaning: a `#` in the surrounding text (it would become the number), or an apostrophe at a seam
 * (it could start or end quoting differently).
 */
export function foldIcuPlural(plural: IcuPlural): FoldedIcuPlural | undefined {
  const { prefix, suffix } = plural;
  if (prefix.includes('#') || suffix.includes('#') || prefix.endsWith("'") || suffix.startsWith("'")) return undefined;
  const messages = [...Object.values(plural.forms), ...Object.values(plural.exact)];
  if ((prefix || suffix) && messages.some((m) => m.startsWith("'") || m.endsWith("'"))) return undefined;
  const fold = (message: string): string => `${prefix}${message}${suffix}`;
  const forms: PluralForms = {};
  for (const category of PLURAL_CATEGORIES) {
    const message = plural.forms[category];
    if (message !== undefined) forms[category] = fold(message);
  }
  const exact: Record<string, string> = {};
  for (const [selector, message] of Object.entries(plural.exact)) exact[selector] = fold(message);
  return { forms, exact };
}

/**
 * Writes `{count, plural, offset:1 =0 {…} one {…} other {…}}`: exact matches first, in the given order, then the forms
 * in CLDR order. Sub-messages are ICU text and are written as they are (a translator's `#` or `{name}` keeps working).
 * Exact keys may be given with or without the `=`.
 */
export function writeIcuPlural(argument: string, forms: PluralForms, exact: Readonly<Record<string, string>> = {}, offset?: number): string {
  const parts: string[] = [];
  if (offset !== undefined) parts.push(`offset:${offset}`);
  for (const [selector, message] of Object.entries(exact)) parts.push(`${selector.startsWith('=') ? selector : `=${selector}`} {${message}}`);
  for (const category of PLURAL_CATEGORIES) {
    const message = forms[category];
    if (message !== undefined) parts.push(`${category} {${message}}`);
  }
  return `{${argument}, plural, ${parts.join(' ')}}`;
}
