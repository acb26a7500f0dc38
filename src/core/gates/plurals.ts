/** The plurals gate: a translation has exactly the plural forms its locale's CLDR rules select, as keys or in valid ICU. */
import { PLURAL_CATEGORIES, type PluralCategory, type PluralForms } from '../formats/codec.js';
import { ordinalCategories, pluralCategories } from '../plurals.js';
import { allBlocks, icuTree, type IcuBlock } from './icu-tree.js';
import type { GateFailure, GateInput } from './types.js';

const CATEGORY_SET: ReadonlySet<string> = new Set(PLURAL_CATEGORIES);
const EXACT_SELECTOR = /^=-?\d+(?:\.\d+)?$/;
// `'{` and `'}` start quoted literal text in ICU (a doubled `''` is an apostrophe): French "l'{app}" prints "l{app}".
const QUOTING_APOSTROPHE = /(?<!')'[{}]/g;

// Numbers tried to learn which values a category selects: integers through 200, large round numbers (French and
// Spanish "many"), and one-decimal fractions (categories that also take 1.5 can never be covered by exact matches).
const PROBES: readonly number[] = [
  ...Array.from({ length: 201 }, (_, i) => i),
  ...[1_000, 10_000, 100_000, 1_000_000, 2_000_000, 10_000_000],
  ...Array.from({ length: 30 }, (_, i) => (i + 1) / 10).filter((n) => !Number.isInteger(n)),
];
const soleValueCache = new Map<string, number | null>();

/**
 * The one number `category` selects in `locale`, or null when it selects several: English and Polish "one" is
 * exactly 1 and Arabic "zero" exactly 0, so an explicit `=1` or `=0` branch already covers them (Angular writes
 * `=0 {…} =1 {…} other {…}`), while Russian "one" (1, 21, 31…) needs its own branch.
 */
function soleValue(locale: string, ordinal: boolean, category: PluralCategory): number | null {
  const key = `${ordinal ? 'o' : 'c'}:${locale}:${category}`;
  let value = soleValueCache.get(key);
  if (value === undefined) {
    const rules = new Intl.PluralRules(locale, { type: ordinal ? 'ordinal' : 'cardinal' });
    const hits = PROBES.filter((n) => rules.select(n) === category);
    value = hits.length === 1 && Number.isInteger(hits[0]) ? (hits[0] as number) : null;
    soleValueCache.set(key, value);
  }
  return value;
}

const listed = (categories: readonly string[]): string => categories.join(', ');
const has = (locale: string, categories: readonly string[]): string =>
  categories.length === 1 ? `${locale} has only ${categories[0]}` : `${locale} has ${listed(categories)}`;

/**
 * Compares the categories a translation gives with those `locale` needs. `kind` names the forms ("plural",
 * "ordinal"); `block` is the ICU plural they belong to, absent for a plural key.
 */
function categoryReasons(given: readonly string[], needed: readonly PluralCategory[], locale: string, kind: string, block?: IcuBlock): string[] {
  const from = block ? ` from the ${block.type} on {${block.argument}}` : '';
  const within = block ? ` in the ${block.type} on {${block.argument}}` : '';
  const reasons: string[] = [];
  const present = new Set(given.map((selector) => (selector.startsWith('=') ? selector.replace(/^=(-?\d+(?:\.\d+)?)$/, (_m, n: string) => `=${Number(n)}`) : selector)));
  for (const category of needed) {
    if (present.has(category)) continue;
    const sole = block ? soleValue(locale, block.type === 'selectordinal', category) : null;
    if (sole !== null && present.has(`=${sole}`)) continue;
    reasons.push(`${kind} form "${category}" is missing${from} (${locale} needs ${listed(needed)})`);
  }
  for (const selector of given) {
    if (EXACT_SELECTOR.test(selector) || (needed as readonly string[]).includes(selector)) continue;
    reasons.push(
      CATEGORY_SET.has(selector)
        ? `${kind} form "${selector}"${within} is not used by ${locale} (${has(locale, needed)})`
        : `selector "${selector}"${within} is not a ${kind} category (${locale} uses ${listed(needed)}, or =N for an exact number)`,
    );
  }
  return reasons;
}

// Plural keys and ICU blocks of a batch give the same few sets of forms in the same locale over and over: each set is
// judged once. Cleared when full, which keeps a long-running server's memory bounded.
const MAX_JUDGED = 1024;
const judged = new Map<string, readonly string[]>();

/** A plural key: the non-empty forms are exactly the target locale's cardinal categories. */
function pluralKeyReasons(targetPlurals: PluralForms, locale: string): readonly string[] {
  const given = PLURAL_CATEGORIES.filter((c) => (targetPlurals[c] ?? '').trim() !== '');
  const key = `${locale}\u0000${given.join(' ')}`;
  let reasons = judged.get(key);
  if (!reasons) {
    reasons = categoryReasons(given, pluralCategories(locale), locale, 'plural');
    if (judged.size >= MAX_JUDGED) judged.clear();
    judged.set(key, reasons);
  }
  return reasons;
}

const isPlural = (block: IcuBlock): boolean => block.type !== 'select';

/** One ICU plural or selectordinal of the translation against the locale's categories (every locale has `other`, which ICU requires). */
function blockReasons(block: IcuBlock, locale: string): readonly string[] {
  const selectors = block.branches.map((b) => b.selector);
  // What is judged is only the locale, the block's type and argument and its selectors: the same few recur row after row.
  const key = `${locale}\u0000${block.type}\u0000${block.argument}\u0000${selectors.join(' ')}`;
  let reasons = judged.get(key);
  if (!reasons) {
    const ordinal = block.type === 'selectordinal';
    const needed = ordinal ? ordinalCategories(locale) : pluralCategories(locale);
    reasons = categoryReasons(selectors, needed, locale, ordinal ? 'ordinal' : 'plural', block);
    if (judged.size >= MAX_JUDGED) judged.clear();
    judged.set(key, reasons);
  }
  return reasons;
}

/** Brace balance by plain counting: the first stray `}` or the number left open. */
function braceProblem(text: string): string | undefined {
  let depth = 0;
  let opened = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x7b) {
      depth++;
      opened++;
    } else if (code === 0x7d && --depth < 0) return `"}" at offset ${i} closes nothing`;
  }
  return depth > 0 ? `${depth} of its ${opened} "{" ${depth === 1 ? 'is' : 'are'} never closed` : undefined;
}

const quotingApostrophes = (text: string): number => (text.includes("'") ? [...text.matchAll(QUOTING_APOSTROPHE)].length : 0);

/** Apostrophes that start ICU quoting in the translation beyond those the source has, with a little context each. */
function quotingReasons(source: string, target: string): string[] {
  if (quotingApostrophes(target) <= quotingApostrophes(source)) return [];
  return [...target.matchAll(QUOTING_APOSTROPHE)].map((m) => {
    const start = Math.max(0, target.lastIndexOf(' ', m.index) + 1);
    const close = target.indexOf('}', m.index + 1);
    const snippet = target.slice(start, close < 0 ? m.index + 2 : Math.min(close + 1, m.index + 40));
    return `an apostrophe before "${(m[0] as string)[1]}" in "${snippet}" starts ICU quoting, so the text after it prints literally; write ’ or ''`;
  });
}

/** A plain string: ICU plurals in the source stay valid plurals on the same arguments with the target locale's forms. */
function messageReasons(source: string, target: string, locale: string): string[] {
  const sourceTree = icuTree(source);
  const targetTree = icuTree(target);
  // Neither has a plural or select: nothing to compare, and nothing to check against the locale.
  if (sourceTree.blocks.length === 0 && targetTree.blocks.length === 0) return [];
  const sourcePlurals = allBlocks(sourceTree).filter(isPlural);
  const targetPlurals = allBlocks(targetTree).filter(isPlural);
  const reasons: string[] = [];
  if (sourcePlurals.length > 0) {
    const braces = braceProblem(target);
    // Broken braces misplace or hide every block: the invalid ICU is then the one thing to fix.
    if (braces !== undefined && braceProblem(source) === undefined) return [`the translation is not valid ICU: ${braces}`];
    for (const { type, argument } of sourcePlurals) {
      if (targetPlurals.some((b) => b.type === type && b.argument === argument)) continue;
      reasons.push(targetPlurals.length === 0 ? `the ${type} on {${argument}} was turned into plain text` : `the ${type} on {${argument}} is missing`);
    }
    reasons.push(...quotingReasons(source, target));
  }
  for (const block of targetPlurals) reasons.push(...blockReasons(block, locale));
  return reasons;
}

/** Plural forms of one translated row against the CLDR categories of its target locale. */
export function checkPlurals(input: GateInput): GateFailure[] {
  const reasons = input.sourcePlurals || input.targetPlurals
    ? pluralKeyReasons(input.targetPlurals ?? { other: input.target }, input.targetLocale)
    : messageReasons(input.source, input.target, input.targetLocale);
  if (reasons.length === 0) return [];
  return [...new Set(reasons)].map((reason) => ({ gate: 'plurals', reason }));
}
