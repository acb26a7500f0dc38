// The `ios_xcstrings` render: one pass over the catalog, splicing one-text and one-plural localizations straight into the output and handing the other strings to the general render (ios-xcstrings-merge.ts).
import { PLURAL_CATEGORIES, type PluralForms, type RenderInput } from './codec.js';
import type { JsonTape } from './json-scan.js';
import { bodyEntries, catalogString, EntryKeys, keyEntry, localizationIn, normalLocale, readLocalization, scanCatalog, type Body, type CatalogSlots, type FoundEntry, type Slot } from './ios-xcstrings-catalog.js';
import { compareKeys, desiredString, detectStyle, indentEnd, isLowerAscii, lineIndent, lineStart, Merger, type Style } from './ios-xcstrings-merge.js';
import { holds, OTHER_BODY, PLURAL_BODY, readSimple, SimpleBody, TEXT_BODY } from './ios-xcstrings-simple-body.js';
import { CatalogWriter } from './ios-xcstrings-writer.js';

/** Plural categories in the order Xcode writes them. */
const WRITTEN_CATEGORIES = [...PLURAL_CATEGORIES].sort(compareKeys);

const ENCODER = new TextEncoder();

/** The text `serialize` writes around the values of a new localization body, for one indentation, as UTF-8. */
class BodyTemplate {
  /** A text body up to its value, and after it. */
  readonly textOpen: Uint8Array;
  readonly textClose: Uint8Array;
  /** A plural body up to its first form, and after its last. */
  readonly pluralOpen: Uint8Array;
  readonly pluralClose: Uint8Array;
  /** Per category of WRITTEN_CATEGORIES, its form up to its value, as the first form and as a later one. */
  readonly firstForm: Uint8Array[];
  readonly laterForm: Uint8Array[];
  /** A form after its value. */
  readonly formClose: Uint8Array;

  constructor(indent: string, style: Style) {
    const { colon, eol } = style;
    const level = (depth: number): string => indent + style.indent.repeat(depth);
    const open = (depth: number): string =>
      `{${eol}${level(depth + 1)}"stringUnit"${colon}{${eol}${level(depth + 2)}"state"${colon}"translated",${eol}${level(depth + 2)}"value"${colon}`;
    const close = (depth: number): string => `${eol}${level(depth + 1)}}${eol}${level(depth)}}`;
    const forms = WRITTEN_CATEGORIES.map((category) => `${eol}${level(3)}"${category}"${colon}${open(3)}`);
    this.textOpen = ENCODER.encode(open(0));
    this.textClose = ENCODER.encode(close(0));
    this.pluralOpen = ENCODER.encode(`{${eol}${level(1)}"variations"${colon}{${eol}${level(2)}"plural"${colon}{`);
    this.pluralClose = ENCODER.encode(`${eol}${level(2)}}${eol}${level(1)}}${eol}${level(0)}}`);
    this.firstForm = forms.map((form) => ENCODER.encode(form));
    this.laterForm = forms.map((form) => ENCODER.encode(`,${form}`));
    this.formClose = ENCODER.encode(close(3));
  }
}

/** Whether the key token `text[start, end)` is of lowercase ASCII letters only, quotes aside (so it has no escapes). */
function lowerAsciiToken(text: string, start: number, end: number): boolean {
  for (let i = start + 1; i < end - 1; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

/** `compareKeys` of the keys at two slots, compared in place when both are lowercase ASCII. */
function compareKeySlots(tape: JsonTape, a: Slot, b: Slot): number {
  const { text } = tape;
  const aStart = tape.start(a);
  const aEnd = tape.end(a);
  const bStart = tape.start(b);
  const bEnd = tape.end(b);
  if (!lowerAsciiToken(text, aStart, aEnd) || !lowerAsciiToken(text, bStart, bEnd)) return compareKeys(tape.string(a), tape.string(b));
  const length = Math.min(aEnd - aStart, bEnd - bStart) - 2;
  for (let i = 1; i <= length; i++) {
    const d = text.charCodeAt(aStart + i) - text.charCodeAt(bStart + i);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  const d = aEnd - aStart - (bEnd - bStart);
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

/** `compareKeys` of the key at a slot and `name`; `lower` tells whether `name` is lowercase ASCII. */
function compareKeySlot(tape: JsonTape, a: Slot, name: string, lower: boolean): number {
  const { text } = tape;
  const start = tape.start(a);
  const end = tape.end(a);
  if (!lower || !lowerAsciiToken(text, start, end)) return compareKeys(tape.string(a), name);
  const length = Math.min(end - start - 2, name.length);
  for (let i = 0; i < length; i++) {
    const d = text.charCodeAt(start + 1 + i) - name.charCodeAt(i);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  const d = end - start - 2 - name.length;
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

// What a catalog string's source localization is, besides `readSimple`'s kinds: none.
const NO_BODY = -1;

/**
 * One render, string by string in a single pass over the file and its tape: each string's source localization is read
 * (and checked) as `parse` reads it, and its target localization is written straight into the output where it
 * is one text or one plural being added, or having its units' values replaced, as the Merger would write them. Other
 * strings (devices, substitutions, removals, reshaped or malformed localizations) go through `Desired` and the Merger.
 */
class CatalogRender {
  private readonly tape: JsonTape;
  private readonly text: string;
  private readonly target: string;
  private readonly targetQuoted: string;
  private readonly targetLower: boolean;
  /** The languages as `normalLocale` writes them. */
  private readonly normalSource: string;
  private readonly normalTarget: string;
  private readonly isSource: boolean;
  private readonly keys: EntryKeys;
  private readonly source = new SimpleBody();
  private readonly current = new SimpleBody();
  /** The string being written: its name, its source localization's key and the kind of that (a SimpleBody kind or NO_BODY). */
  private name = '';
  private localization = -1;
  private kind = NO_BODY;
  /** The entries and body of an OTHER_BODY string's source localization, as `parse` reads them. */
  private otherEntries: FoundEntry[] = [];
  private otherBody: Body | undefined;
  private out: CatalogWriter | undefined;
  /** The text up to here is written (or replaced). */
  private at = 0;
  private style: Style | undefined;
  private merger: Merger | undefined;
  private readonly templates = new Map<string, BodyTemplate>();
  // The template of the indentation last asked for.
  private lastIndent = '';
  private lastTemplate: BodyTemplate | undefined;

  constructor(
    private readonly input: RenderInput,
    private readonly catalog: CatalogSlots,
  ) {
    this.tape = catalog.tape;
    this.text = catalog.tape.text;
    this.target = input.locale ?? catalog.sourceLanguage;
    this.targetQuoted = JSON.stringify(this.target);
    this.targetLower = isLowerAscii(this.target);
    this.normalSource = normalLocale(catalog.sourceLanguage);
    this.normalTarget = normalLocale(this.target);
    this.isSource = this.normalTarget === this.normalSource;
    this.keys = new EntryKeys(catalog);
  }

  run(): Uint8Array {
    const count = this.catalog.keys.length;
    for (let index = 0; index < count; index++) {
      this.read(index);
      try {
        this.write(index);
      } catch (error) {
        // A malformed string further on is reported first, as when every string is read before any is written.
        for (let rest = index + 1; rest < count; rest++) this.read(rest);
        throw error;
      }
    }
    const out = this.out;
    if (!out) return this.input.source.slice();
    out.keep(this.at, this.text.length);
    return out.finish();
  }

  /** Reads the source localization of the string `index`, refusing what `parse` refuses. */
  private read(index: number): void {
    const { tape, catalog } = this;
    const key = catalog.keys[index]!;
    const name = tape.string(key);
    const localization = localizationIn(tape, catalog.localizations[index]!, catalog.sourceLanguage, this.normalSource);
    this.name = name;
    this.localization = localization;
    this.kind = localization < 0 ? NO_BODY : readSimple(tape, localization + 1, this.source);
    if (this.kind === OTHER_BODY) {
      const body = readLocalization(tape, localization, key);
      const entries = bodyEntries(tape, name, body);
      // Xcode keeps `""` for empty string literals in code; with no localization there is nothing to translate.
      if (entries.length === 0 && name !== '') entries.push(keyEntry(catalogString(catalog, index)));
      this.keys.addAll(index, entries);
      this.otherEntries = entries;
      this.otherBody = body;
    } else if (this.kind !== NO_BODY) {
      this.keys.add(index, name, this.source.at);
    } else if (name !== '') {
      this.keys.add(index, name, key);
    }
  }

  /** Writes the target localization of the string `index` where it changes. */
  private write(index: number): void {
    const { tape, isSource, input, kind, name, catalog } = this;
    if (catalog.translatable[index] === 0 && !isSource) return;
    if (kind === OTHER_BODY || (kind === NO_BODY && name === '')) return this.merge(index);
    // One entry, keyed by the string's name.
    const localizations = catalog.localizations[index]!;
    const existing = isSource ? this.localization : localizationIn(tape, localizations, this.target, this.normalTarget);
    // A target localization `readSimple` leaves (malformed ones among them) goes to the Merger, even for a string without
    // a value: `currentEntries` reads it before anything else, and may throw.
    if (!isSource && existing >= 0 && readSimple(tape, existing + 1, this.current) === OTHER_BODY) return this.merge(index);
    const value = input.values.get(name);
    if (value === undefined) {
      if (input.missing === 'omit' && !isSource && existing >= 0) this.merge(index);
      return;
    }
    if (existing < 0) {
      // In the source language, the key stands in for the text of a string with no localization.
      if (isSource && value === name) return;
      const next = typeof value === 'string' ? value : value.plurals;
      if (localizations >= 0) this.insert(localizations, this.targetQuoted, this.target, this.targetLower, next, false);
      else this.insert(catalog.keys[index]! + 1, '"localizations"', 'localizations', true, next, true);
      return;
    }
    const had = isSource ? this.source : this.current;
    if (holds(tape, had, value)) return;
    // Units holding their state and value are rewritten in place, when the body holds nothing else and keeps its forms.
    if (had.kind === TEXT_BODY && typeof value === 'string' && had.members === 1 && had.stateKey >= 0) return this.replace(had.stateKey, had.value, value);
    if (had.kind === PLURAL_BODY && typeof value !== 'string' && had.members === 1 && had.variations === 1 && this.keepsForms(had, value.plurals)) {
      return this.replaceForms(had, value.plurals);
    }
    this.merge(index);
  }

  private writer(): CatalogWriter {
    // Room for a target language as long as the source one, beside it.
    return (this.out ??= new CatalogWriter(this.input.source, this.text, this.tape.bom, this.input.source.length * 2));
  }

  /** The unit (its "state" key and value token) of a text whose value changes: state "translated", and the value. */
  private replace(stateKey: Slot, node: Slot, value: string): void {
    const { tape } = this;
    const out = this.writer();
    const state = stateKey + 1;
    const stateFirst = tape.start(state) < tape.start(node);
    const newState = !tape.is(state, 'translated');
    if (newState && stateFirst) this.splice(out, state, '"translated"');
    out.keep(this.at, tape.start(node));
    out.quoted(value);
    this.at = tape.end(node);
    if (newState && !stateFirst) this.splice(out, state, '"translated"');
  }

  /** Whether `forms` has the plural's categories, with text for each, and each form it changes has a state to change. */
  private keepsForms(had: SimpleBody, forms: PluralForms): boolean {
    for (let category = 0; category < PLURAL_CATEGORIES.length; category++) {
      const form = forms[PLURAL_CATEGORIES[category]!];
      const node = had.forms[category]!;
      if (node < 0 ? form !== undefined : typeof form !== 'string' || (had.formStates[category]! < 0 && !this.tape.is(node, form))) return false;
    }
    return true;
  }

  /** The units of a plural's forms that change, as `replace` writes a text's; the others are kept, states included. */
  private replaceForms(had: SimpleBody, forms: PluralForms): void {
    const { tape } = this;
    const { plural } = had;
    for (let key = plural + 1; key < tape.after(plural); key = tape.after(key)) {
      const category = (PLURAL_CATEGORIES as readonly string[]).indexOf(tape.string(key));
      const node = had.forms[category]!;
      const form = forms[PLURAL_CATEGORIES[category]!]!;
      if (!tape.is(node, form)) this.replace(had.formStates[category]!, node, form);
    }
  }

  private splice(out: CatalogWriter, node: Slot, replacement: string): void {
    out.keep(this.at, this.tape.start(node));
    out.write(replacement);
    this.at = this.tape.end(node);
  }

  /**
   * `Merger.mergeMember` adding the member `name` (`lower`: of lowercase ASCII) to the object `node`: the new
   * localization body of `value`, or (`wrap`) an object holding it under the target language.
   */
  private insert(node: Slot, quoted: string, name: string, lower: boolean, value: string | PluralForms, wrap: boolean): void {
    const { tape } = this;
    const out = this.writer();
    const stop = tape.after(node);
    const first = node + 1;
    if (first >= stop) {
      const style = this.fileStyle();
      const indent = lineIndent(this.text, tape.start(node));
      const inner = indent + style.indent;
      out.keep(this.at, tape.start(node));
      out.write(`{${style.eol}${inner}${quoted}${style.colon}`);
      this.value(out, value, inner, wrap);
      out.write(`${style.eol}${indent}}`);
      this.at = tape.end(node);
      return;
    }
    // Before the first member that sorts after it when the members are in Xcode's order, else last.
    let before = -1;
    let prior = -1;
    let last = first;
    for (let key = first; key < stop; key = tape.after(key)) {
      if (key !== first && compareKeySlots(tape, last, key) > 0) {
        before = -1;
        break;
      }
      if (before < 0 && compareKeySlot(tape, key, name, lower) > 0) [before, prior] = [key, last];
      last = key;
    }
    if (before < 0) for (let key = last; key < stop; key = tape.after(key)) last = key;
    const second = tape.after(first) < stop ? tape.after(first) : -1;
    if (before < 0) {
      out.keep(this.at, tape.end(last + 1));
      this.separator(out, node, first, second);
      this.member(out, first, quoted, value, wrap);
      this.at = tape.end(last + 1);
    } else if (before === first) {
      out.keep(this.at, tape.start(first));
      this.member(out, first, quoted, value, wrap);
      this.separator(out, node, first, second);
      this.at = tape.start(first);
    } else {
      out.keep(this.at, tape.end(prior + 1));
      this.separator(out, node, first, second);
      this.member(out, first, quoted, value, wrap);
      this.separator(out, node, first, second);
      this.at = tape.start(before);
    }
  }

  /** The separator `Merger.mergeMember` puts between members: the file's after the first member, or the one before it. */
  private separator(out: CatalogWriter, node: Slot, first: Slot, second: Slot): void {
    const { tape } = this;
    if (second >= 0) {
      out.repeat(tape.end(first + 1), tape.start(second));
    } else {
      out.write(',');
      out.repeat(tape.start(node) + 1, tape.start(first));
    }
  }

  /** A new member as `Merger.mergeMember` writes it, beside the object's first member and in its style. */
  private member(out: CatalogWriter, first: Slot, quoted: string, value: string | PluralForms, wrap: boolean): void {
    const { tape } = this;
    out.write(quoted);
    out.repeat(tape.end(first), tape.start(first + 1));
    if (wrap) this.value(out, value, lineIndent(this.text, tape.start(first)), true);
    else this.body(out, value, this.templateAt(tape.start(first)));
  }

  /** `serialize` of a new localization body holding `value` (state "translated"), or of an object holding it (`wrap`). */
  private value(out: CatalogWriter, value: string | PluralForms, indent: string, wrap: boolean): void {
    if (!wrap) return this.body(out, value, this.template(indent));
    const style = this.fileStyle();
    const inner = indent + style.indent;
    out.write(`{${style.eol}${inner}${this.targetQuoted}${style.colon}`);
    this.body(out, value, this.template(inner));
    out.write(`${style.eol}${indent}}`);
  }

  private body(out: CatalogWriter, value: string | PluralForms, template: BodyTemplate): void {
    if (typeof value === 'string') {
      out.append(template.textOpen);
      out.quoted(value);
      out.append(template.textClose);
      return;
    }
    out.append(template.pluralOpen);
    let written = false;
    for (let k = 0; k < WRITTEN_CATEGORIES.length; k++) {
      const form = value[WRITTEN_CATEGORIES[k]!];
      if (form === undefined) continue;
      out.append(written ? template.laterForm[k]! : template.firstForm[k]!);
      if (typeof form === 'string') out.quoted(form);
      else out.write(JSON.stringify(form));
      out.append(template.formClose);
      written = true;
    }
    if (!written) out.write(this.fileStyle().eol);
    out.append(template.pluralClose);
  }

  /** The template for the indentation of the line `at` is on (up to `at`), as `lineIndent` reads it. */
  private templateAt(at: number): BodyTemplate {
    const { text, lastIndent } = this;
    const start = lineStart(text, at);
    const end = indentEnd(text, start, at);
    if (this.lastTemplate && end - start === lastIndent.length && text.startsWith(lastIndent, start)) return this.lastTemplate;
    return this.template(text.slice(start, end));
  }

  private template(indent: string): BodyTemplate {
    let template = this.templates.get(indent);
    if (!template) this.templates.set(indent, (template = new BodyTemplate(indent, this.fileStyle())));
    this.lastIndent = indent;
    this.lastTemplate = template;
    return template;
  }

  private fileStyle(): Style {
    return (this.style ??= detectStyle(this.tape));
  }

  /** Writes the string `index` through `Desired` and the Merger, with the entries `parse` finds for it. */
  private merge(index: number): void {
    const { tape } = this;
    const item = catalogString(this.catalog, index);
    let entries = this.otherEntries;
    let body = this.otherBody;
    if (this.kind === NO_BODY) {
      entries = item.name === '' ? [] : [keyEntry(item)];
      body = undefined;
    } else if (this.kind !== OTHER_BODY) {
      body = readLocalization(tape, this.localization, item.key);
      entries = bodyEntries(tape, item.name, body);
    }
    const desired = desiredString(tape, this.input, this.target, this.isSource, item, entries, body);
    if (desired === undefined) return;
    this.merger ??= new Merger(tape, this.fileStyle());
    const merged = this.merger.merge(item.node, desired, '');
    if (merged === undefined) return;
    const out = this.writer();
    out.keep(this.at, tape.start(item.node));
    out.write(merged);
    this.at = tape.end(item.node);
  }
}

/**
 * Writes the target language's localization of every catalog string that has a value: each source entry's slot gets
 * its value (state "translated"), else the language's existing text for that slot, else the source text marked
 * "needs_review", because one variation or substitution cannot be left out while its siblings are translated.
 * Strings with no value keep what the file has (missing 'source'), or lose this language's localization (missing 'omit';
 * never the source language's). `shouldTranslate: false` strings get no target localization.
 */
export function render(input: RenderInput): Uint8Array {
  return new CatalogRender(input, scanCatalog(input.source)).run();
}
