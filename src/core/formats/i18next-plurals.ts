/**
 * i18next plural key families in the json codecs: `items_one`, `items_other` (and ordinals `place_ordinal_one` …) read as
 * one plural entry keyed by the family's base, and written back in the family's place with the target locale's categories.
 */
import { PLURAL_CATEGORIES, type Entry, type ParseOptions, type PluralCategory, type PluralForms, type RenderInput, type Value } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { editFor, encodeUtf8, keyOf, parseKeyed, rewriteJson, scanJson, type JsonObjectNode, type MemberEdit } from './json-scan.js';
import { ordinalCategories, pluralCategories } from '../plurals.js';

export type I18nextPluralsMode = NonNullable<ParseOptions['plurals']>;

const SUFFIX = /_(zero|one|two|few|many|other)$/;
const ORDINAL = '_ordinal';

/** A member name's family base and category (`items_one` → `items`, `one`), or undefined without a plural suffix. */
export function splitPluralSuffix(name: string): { base: string; category: PluralCategory } | undefined {
  const match = SUFFIX.exec(name);
  if (!match || match.index === 0) return undefined;
  return { base: name.slice(0, match.index), category: match[1] as PluralCategory };
}

/** Whether a family base (or a plural entry's key) names i18next ordinals: `place_ordinal` from `place_ordinal_one`. */
export function isOrdinalKey(key: string): boolean {
  return key.length > ORDINAL.length && key.endsWith(ORDINAL);
}

/**
 * The categories a plural is written with for `locale`: the locale's CLDR categories (ordinal ones for an ordinal key),
 * and any of `kept` the value has too, in CLDR order.
 */
export function writtenCategories(locale: string, ordinal: boolean, forms: PluralForms, kept: ReadonlySet<PluralCategory>): PluralCategory[] {
  const needed = new Set(ordinal ? ordinalCategories(locale) : pluralCategories(locale));
  return PLURAL_CATEGORIES.filter((c) => needed.has(c) || (kept.has(c) && forms[c] !== undefined));
}

/** The form written for `category`: the value's own, else its `other` (how the service pairs forms across locales). */
function formFor(forms: PluralForms, category: PluralCategory): string {
  return forms[category] ?? forms.other ?? Object.values(forms).find((f) => f !== undefined) ?? '';
}

/** A plural value's members as a fresh file writes them: `key_<category>` for `locale`'s categories, in CLDR order. */
export function freshPluralMembers(key: string, forms: PluralForms, locale: string): [string, string][] {
  return writtenCategories(locale, isOrdinalKey(key), forms, new Set()).map((c) => [`${key}_${c}`, formFor(forms, c)]);
}

interface Family {
  key: string;
  path: string[];
  /** Indexes into the entries, in document order, with each member's category. */
  members: { index: number; category: PluralCategory }[];
}

/**
 * Folds each i18next plural family of parsed json entries into one plural entry at its first member's place: siblings
 * of one object whose names differ only by a plural suffix. By default a family needs an `_other` member; a family whose
 * key another key already has stays apart (or, with `i18next`, is refused naming both).
 */
export function foldPluralFamilies(entries: Entry[], mode: I18nextPluralsMode | undefined): Entry[] {
  if (mode === 'none') return entries;
  const families = new Map<string, Family>();
  entries.forEach((entry, index) => {
    const name = entry.path[entry.path.length - 1];
    const split = name === undefined ? undefined : splitPluralSuffix(name);
    if (!split) return;
    const path = [...entry.path.slice(0, -1), split.base];
    // Siblings share the parent path; '\u0000' cannot be confused with a member name's characters joined by '.'.
    const id = path.join('\u0000');
    let family = families.get(id);
    if (!family) families.set(id, (family = { key: path.join('.'), path, members: [] }));
    family.members.push({ index, category: split.category });
  });
  let folded = [...families.values()].filter((f) => mode === 'i18next' || f.members.some((m) => m.category === 'other'));
  if (folded.length === 0) return entries;

  // A family's key must be nobody else's: a plain `items` beside `items_one`, or two families reaching one dotted key.
  for (;;) {
    const inFamily = new Set<number>();
    for (const f of folded) for (const m of f.members) inFamily.add(m.index);
    const plain = new Map<string, Entry>();
    entries.forEach((e, i) => {
      if (!inFamily.has(i)) plain.set(e.key, e);
    });
    const byKey = new Map<string, Family[]>();
    for (const f of folded) byKey.set(f.key, [...(byKey.get(f.key) ?? []), f]);
    const clashing = folded.filter((f) => plain.has(f.key) || byKey.get(f.key)!.length > 1);
    if (clashing.length === 0) break;
    if (mode === 'i18next') {
      const family = clashing[0]!;
      const first = entries[family.members[0]!.index]!;
      const other = plain.get(family.key) ?? entries[byKey.get(family.key)!.find((f) => f !== family)!.members[0]!.index]!;
      throw new FileUnparsableError(
        `The plural family ${JSON.stringify(family.key)} (${family.members.map((m) => JSON.stringify(entries[m.index]!.key)).join(', ')}, from line ${first.line}) ` +
          `would have the key of ${JSON.stringify(other.key)} at line ${other.line}, column ${other.column}; rename one of them, or set plurals: none on the file rule`,
        first.line,
        first.column,
      );
    }
    const dropped = new Set(clashing);
    folded = folded.filter((f) => !dropped.has(f));
    if (folded.length === 0) return entries;
  }

  const starts = new Map<number, Family>();
  const members = new Set<number>();
  for (const f of folded) {
    starts.set(f.members[0]!.index, f);
    for (const m of f.members) members.add(m.index);
  }
  const out: Entry[] = [];
  entries.forEach((entry, index) => {
    const family = starts.get(index);
    if (family) out.push(familyEntry(family, entries));
    else if (!members.has(index)) out.push(entry);
  });
  return out;
}

function familyEntry(family: Family, entries: readonly Entry[]): Entry {
  const given = new Map(family.members.map((m) => [m.category, entries[m.index]!.source]));
  const plurals: PluralForms = {};
  for (const category of PLURAL_CATEGORIES) {
    const form = given.get(category);
    if (form !== undefined) plurals[category] = form;
  }
  const first = entries[family.members[0]!.index]!;
  return { key: family.key, path: family.path, source: formFor(plurals, 'other'), plurals, line: first.line, column: first.column };
}

/** Whether any value is plural forms: only then does rendering need the document's structure. */
export function hasPluralValue(values: ReadonlyMap<string, Value>): boolean {
  for (const value of values.values()) if (typeof value !== 'string') return true;
  return false;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Renders a json file whose values include plural forms: each family (or a plain string) whose key has plural forms is
 * written as `base_<category>` members for the target locale, in place of its source members and where the first of
 * them stood. A family whose written categories are the source's has its strings replaced in place, in the source's
 * order, so a value equal to the source leaves every byte as it was. Other strings are rendered as `renderKeyed` does.
 */
export function renderPluralFamilies(input: RenderInput): Uint8Array {
  // Refuses what parsing refuses (two paths giving one key) before anything is written.
  parseKeyed(input.source);
  const doc = scanJson(input.source);
  const { text } = doc;
  const locale = input.locale ?? input.sourceLocale ?? 'en';
  const sourceLocale = locale === (input.sourceLocale ?? 'en');

  const membersOf = (node: JsonObjectNode, path: readonly string[]): ReadonlyMap<number, MemberEdit> | undefined => {
    const groups = new Map<string, { base: string; members: { index: number; category: PluralCategory | undefined }[] }>();
    node.members.forEach((m, index) => {
      if (m.value.kind !== 'string') return;
      const split = splitPluralSuffix(m.key.value);
      const base = split?.base ?? m.key.value;
      const group = groups.get(base) ?? { base, members: [] };
      group.members.push({ index, category: split?.category });
      groups.set(base, group);
    });
    let edits: Map<number, MemberEdit> | undefined;
    for (const { base, members } of groups.values()) {
      // A plain string stands for its family only alone: beside `items_one`, `items` is a key of its own.
      if (members.some((m) => m.category === undefined) && members.length > 1) continue;
      const value = input.values.get(path.length === 0 ? base : `${path.join('.')}.${base}`);
      if (value === undefined || typeof value === 'string') continue;
      const forms = value.plurals;
      // The source locale is written with the forms it has; a target with its own categories, and i18next's `_zero` (a
      // form for 0 in any language) where the source family and the value both have it.
      const categories = sourceLocale
        ? PLURAL_CATEGORIES.filter((c) => forms[c] !== undefined)
        : writtenCategories(locale, isOrdinalKey(base), forms, new Set(members.some((m) => m.category === 'zero') ? ['zero'] : []));
      edits ??= new Map();
      if (categories.length === 0) {
        // No forms at all (an empty value for the source locale): the family is left out, as an untranslated one is.
        for (const { index } of members) edits.set(index, { kind: 'omit' });
        continue;
      }
      const first = node.members[members[0]!.index]!;
      // The same categories as the source's members: each string is replaced where it stands, in the source's order.
      if (members.length === categories.length && members.every((m) => m.category !== undefined && categories.includes(m.category))) {
        for (const { index, category } of members) {
          const member = node.members[index]!;
          const form = formFor(forms, category!);
          const token = member.value.kind === 'string' && member.value.value === form ? text.slice(member.value.start, member.value.end) : JSON.stringify(form);
          edits.set(index, { kind: 'text', text: text.slice(member.start, member.value.start) + token });
        }
        continue;
      }
      // Written afresh: each member as the first one was laid out (its colon's spacing, the whitespace before it).
      const colon = text.slice(first.key.end, first.value.start);
      let lead = first.start;
      while (lead > 0 && WHITESPACE.has(text.charCodeAt(lead - 1))) lead--;
      const separator = `,${text.slice(lead, first.start)}`;
      const written = categories.map((c) => `${JSON.stringify(`${base}_${c}`)}${colon}${JSON.stringify(formFor(forms, c))}`).join(separator);
      edits.set(members[0]!.index, { kind: 'text', text: written });
      for (const { index } of members.slice(1)) edits.set(index, { kind: 'omit' });
    }
    return edits;
  };

  const rewritten = rewriteJson(doc, (value) => editFor(keyOf(value), input), membersOf);
  return rewritten === undefined ? input.source.slice() : encodeUtf8(rewritten, doc.bom);
}
