/** The placeholders gate: a translation keeps the source's placeholders, tags, xliff:g content, printf order and the line breaks at its ends. */
import { splitEdgeWhitespace } from '../edge-whitespace.js';
import { PLURAL_CATEGORIES, type PluralCategory, type PluralForms } from '../formats/codec.js';
import { allBlocks, icuTree, type IcuMessage } from './icu-tree.js';
import type { GateFailure, GateInput } from './types.js';

interface Placeholder {
  readonly token: string;
  /** Where it sits in an ICU message, e.g. `the "few" branch of {count}`; '' at the top level. */
  readonly branch: string;
}

interface Tag {
  readonly token: string;
  readonly name: string;
  readonly kind: 'open' | 'close' | 'self';
  /** Identity for comparison: name plus attribute values, attributes sorted. */
  readonly key: string;
}

/** What one message carries that a translation must keep. */
interface Inventory {
  readonly text: string;
  /** Placeholders in order, without `%%` (a literal percent, not an argument). */
  readonly placeholders: readonly Placeholder[];
  /** True when the message has a `%%` or a printf conversion, i.e. it goes through a printf-style formatter. */
  readonly printf: boolean;
  /** Tags of the top level and of each ICU branch, each outside nested blocks: the units tag nesting is checked in. */
  readonly regions: readonly (readonly Tag[])[];
  /** Text the tokenizer left as prose, where a stray `%` would hide. */
  readonly prose: readonly string[];
  readonly tree: IcuMessage;
}

// Conversions that take the next argument: no `n$`, not `%%`, not Java's `%n` (a line break that takes no argument).
const SEQUENTIAL_PRINTF = /^%[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?[diouxXeEfFgGaAcCsSp@]$/;
const PRINTF =
  /^%(?:%|(?:\d+\$)?[-+0#]*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?[diouxXeEfFgGaAcCsSpn@]|\([\w.]+\)[-+0# ]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa])$/;
// A `%` the tokenizer left in prose: with the space flag printf still reads a conversion ("50 % de" is `% d`).
const STRAY_PERCENT = /%(?:[-+ 0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcCsSpn@])?/g;
const ICU_ARGUMENT = /^\{\s*([\p{L}\p{N}_$][\p{L}\p{N}_$.-]*)\s*[,}]/u;
const TAG_PARTS = /^<(\/?)([A-Za-z][\w:.-]*)([\s\S]*?)(\/?)>$/;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const XLIFF_G = /(<xliff:g\b[^>]*>)([\s\S]*?)<\/xliff:g>/g;
const VOID_ELEMENTS: ReadonlySet<string> = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
// Attributes whose values are prose and are translated with the text; only their presence is compared.
const TRANSLATABLE_ATTRIBUTES: ReadonlySet<string> = new Set(['alt', 'title', 'placeholder', 'label', 'aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext']);
// Forms that may leave the count out ("one item", "aucun élément"); every other form must keep all of `other`'s placeholders.
const COUNT_OPTIONAL: ReadonlySet<PluralCategory> = new Set(['zero', 'one', 'two']);

/**
 * The identity two placeholders are compared by. An ICU-style argument counts by name, since its format style may
 * be adapted to the language (`{count, number}` and `{count}` are the same argument); Laravel's `:name`, `:Name` and
 * `:NAME` are one parameter in three casings of its value; other brace-delimited forms compare without inner
 * spacing, which translators and engines often change (`{{ name }}`).
 */
function placeholderKey(token: string): string {
  if (token.startsWith(':')) return token.toLowerCase();
  const match = token.startsWith('{{') ? null : ICU_ARGUMENT.exec(token);
  if (match) return `{${match[1]}}`;
  return /^(?:\{|%\{|\$\{|\$t\()/.test(token) ? token.replace(/\s+/g, '') : token;
}

function parseTag(token: string): Tag | undefined {
  const parts = TAG_PARTS.exec(token);
  if (!parts) return undefined;
  const [, slash, name = '', rest = '', selfClose] = parts;
  if (slash) return { token, name, kind: 'close', key: `</${name}>` };
  const attributes: string[] = [];
  for (const m of rest.matchAll(ATTRIBUTE)) {
    const attribute = m[1] as string;
    const value = m[2] ?? m[3] ?? m[4];
    attributes.push(TRANSLATABLE_ATTRIBUTES.has(attribute.toLowerCase()) || value === undefined ? attribute : `${attribute}="${value}"`);
  }
  attributes.sort();
  const isVoid = VOID_ELEMENTS.has(name.toLowerCase());
  // `<br>`, `<br/>` and `<br />` are the same element; only non-void elements keep the self-closing slash in their key.
  const kind = selfClose || isVoid ? 'self' : 'open';
  const close = selfClose && !isVoid ? '/' : '';
  return { token, name, kind, key: `<${[name, ...attributes].join(' ')}${close}>` };
}

function inventory(text: string): Inventory {
  const placeholders: Placeholder[] = [];
  const regions: Tag[][] = [];
  const prose: string[] = [];
  let printf = false;
  const visit = (message: IcuMessage, branch: string): void => {
    const tags: Tag[] = [];
    for (const segment of message.segments) {
      if (segment.kind === 'text') prose.push(segment.value);
      else if (segment.kind === 'placeholder') {
        if (PRINTF.test(segment.value)) printf = true;
        if (segment.value !== '%%') placeholders.push({ token: segment.value, branch });
      } else if (segment.kind === 'markup') {
        const tag = parseTag(segment.value);
        if (tag) tags.push(tag);
      }
    }
    regions.push(tags);
    for (const block of message.blocks) {
      for (const { selector, message: inner } of block.branches) visit(inner, `the "${selector}" branch of {${block.argument}}`);
    }
  };
  const tree = icuTree(text);
  visit(tree, '');
  return { text, placeholders, printf, regions, prose, tree };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Items of `items` left over after taking away, one for one, those `other` has. */
function unmatched<T>(items: readonly T[], other: readonly T[], key: (item: T) => string): T[] {
  const available = countBy(other, key);
  return items.filter((item) => {
    const n = available.get(key(item)) ?? 0;
    if (n > 0) available.set(key(item), n - 1);
    return n === 0;
  });
}

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

/** Plain strings: the same placeholders the same number of times. */
function multisetReasons(source: Inventory, target: Inventory): string[] {
  const sourceCounts = countBy(source.placeholders, (p) => placeholderKey(p.token));
  const targetCounts = countBy(target.placeholders, (p) => placeholderKey(p.token));
  const reasons: string[] = [];
  const shown = new Map<string, string>();
  for (const { token } of [...source.placeholders, ...target.placeholders]) if (!shown.has(placeholderKey(token))) shown.set(placeholderKey(token), token);
  for (const [key, token] of shown) {
    const inSource = sourceCounts.get(key) ?? 0;
    const inTarget = targetCounts.get(key) ?? 0;
    if (inTarget === 0) reasons.push(`placeholder ${token} is missing`);
    else if (inSource === 0) reasons.push(`placeholder ${token} is not in the source`);
    else if (inSource !== inTarget) reasons.push(`placeholder ${token} appears ${times(inTarget)}, the source has it ${times(inSource)}`);
  }
  return reasons;
}

/**
 * Laravel `apple|apples` choice strings repeat a placeholder once per variant, and languages have different variant
 * counts; a translation may also turn a plain English key into a choice (laravel-lang: "(and :count more errors)").
 */
function isLaravelChoice(inv: Inventory): boolean {
  return inv.text.includes('|') && inv.placeholders.some((p) => p.token.startsWith(':'));
}

/**
 * ICU messages with plural/select and Laravel choice strings: the same set of arguments (branch counts differ between
 * languages, so occurrence counts do too), and no branch using an argument the source does not have.
 */
function setReasons(source: Inventory, target: Inventory): string[] {
  const names = (inv: Inventory): Set<string> =>
    new Set([...inv.placeholders.map((p) => placeholderKey(p.token)), ...allBlocks(inv.tree).map((block) => `{${block.argument}}`)]);
  const sourceNames = names(source);
  const targetNames = names(target);
  const reasons: string[] = [];
  for (const name of sourceNames) if (!targetNames.has(name)) reasons.push(`placeholder ${name} is missing`);
  for (const { token, branch } of target.placeholders) {
    const name = placeholderKey(token);
    if (!sourceNames.has(name)) reasons.push(`placeholder ${name} is not in the source${branch ? ` (in ${branch})` : ''}`);
  }
  for (const block of allBlocks(target.tree)) {
    if (!sourceNames.has(`{${block.argument}}`)) reasons.push(`placeholder {${block.argument}} is not in the source (the translation has a ${block.type} on it)`);
  }
  return reasons;
}

/** Select keys are values the program passes (`female`, `admin`): a translated or dropped key never matches again. */
function selectReasons(source: Inventory, target: Inventory): string[] {
  const selectorsByArgument = (inv: Inventory): Map<string, Set<string>> => {
    const out = new Map<string, Set<string>>();
    for (const block of allBlocks(inv.tree)) {
      if (block.type !== 'select') continue;
      const selectors = out.get(block.argument) ?? new Set<string>();
      for (const branch of block.branches) selectors.add(branch.selector);
      out.set(block.argument, selectors);
    }
    return out;
  };
  const sourceSelects = selectorsByArgument(source);
  const targetSelects = selectorsByArgument(target);
  const reasons: string[] = [];
  const targetArguments = new Set([...target.placeholders.map((p) => placeholderKey(p.token)), ...allBlocks(target.tree).map((b) => `{${b.argument}}`)]);
  for (const [argument, selectors] of sourceSelects) {
    const translated = targetSelects.get(argument);
    if (!translated) {
      // Without the argument at all, "placeholder {x} is missing" already says it; kept as a plain argument, it would print the raw key.
      if (targetArguments.has(`{${argument}}`)) reasons.push(`select on {${argument}} is missing`);
      continue;
    }
    for (const s of selectors) if (!translated.has(s)) reasons.push(`select on {${argument}}: branch "${s}" is missing`);
    for (const s of translated) if (!selectors.has(s)) reasons.push(`select on {${argument}}: branch "${s}" is not in the source`);
  }
  return reasons;
}

/** Non-positional printf conversions take arguments in order, so their sequence must not change. */
function orderReasons(source: Inventory, target: Inventory): string[] {
  const sequence = (inv: Inventory): string[] => inv.placeholders.map((p) => p.token).filter((t) => SEQUENTIAL_PRINTF.test(t));
  const from = sequence(source);
  const to = sequence(target);
  if (from.length !== to.length || unmatched(from, to, (t) => t).length > 0) return [];
  const at = from.findIndex((token, i) => token !== to[i]);
  if (at < 0) return [];
  return [`${from[at]} and ${to[at]} swapped: printf arguments without n$ must keep the source order`];
}

/** Same tags with the same attribute values; as sets in ICU messages, where each branch repeats its tags. */
function tagReasons(source: readonly Tag[], target: readonly Tag[], asSets: boolean): string[] {
  if (source.length === 0 && target.length === 0) return [];
  const dedupe = (tags: readonly Tag[]): Tag[] => (asSets ? [...new Map(tags.map((t) => [t.key, t])).values()] : [...tags]);
  const missing = unmatched(dedupe(source), dedupe(target), (t) => t.key);
  const extra = unmatched(dedupe(target), dedupe(source), (t) => t.key);
  const reasons: string[] = [];
  // A tag whose attributes changed shows up once on each side; name it as one change.
  for (const tag of [...missing]) {
    if (tag.kind === 'close') continue;
    const changed = extra.findIndex((t) => t.name === tag.name && t.kind === tag.kind);
    if (changed < 0) continue;
    reasons.push(`${tag.token} changed to ${(extra[changed] as Tag).token}`);
    missing.splice(missing.indexOf(tag), 1);
    extra.splice(changed, 1);
  }
  // A dropped element loses its opening and its closing tag: report the opening one only.
  const withoutPairedCloses = (tags: Tag[]): Tag[] => {
    const opened = countBy(
      tags.filter((t) => t.kind === 'open'),
      (t) => t.name,
    );
    return tags.filter((t) => {
      if (t.kind !== 'close') return true;
      const n = opened.get(t.name) ?? 0;
      if (n > 0) opened.set(t.name, n - 1);
      return n === 0;
    });
  };
  for (const tag of withoutPairedCloses(missing)) reasons.push(`tag ${tag.token} is missing`);
  for (const tag of withoutPairedCloses(extra)) reasons.push(`tag ${tag.token} is not in the source`);
  return reasons;
}

/** Problems with how the tags of one region nest: unclosed, overlapping or unopened elements. */
function nestingProblems(tags: readonly Tag[]): string[] {
  const open: Tag[] = [];
  const problems: string[] = [];
  for (const tag of tags) {
    if (tag.kind === 'open') open.push(tag);
    if (tag.kind !== 'close' || VOID_ELEMENTS.has(tag.name.toLowerCase())) continue;
    const at = open.map((t) => t.name).lastIndexOf(tag.name);
    if (at < 0) {
      problems.push(`closing tag ${tag.token} has no opening tag`);
      continue;
    }
    const inner = open[open.length - 1] as Tag;
    if (at !== open.length - 1) problems.push(`tags ${(open[at] as Tag).token} and ${inner.token} overlap: ${tag.token} closes before </${inner.name}>`);
    open.splice(at, 1);
  }
  for (const tag of open) problems.push(`tag ${tag.token} is not closed`);
  return problems;
}

/** Nesting is checked only where the source itself nests properly: a source fragment like `</p>` is passed on as it is. */
function nestingReasons(source: Inventory, target: Inventory): string[] {
  if (source.regions.some((tags) => nestingProblems(tags).length > 0)) return [];
  return target.regions.flatMap(nestingProblems);
}

/** Android `<xliff:g>` marks text that must not be translated (a product name, an example value). */
function xliffReasons(source: Inventory, target: Inventory): string[] {
  if (!source.text.includes('<xliff:g')) return [];
  const contents = (text: string): [Tag, string][] =>
    [...text.matchAll(XLIFF_G)].flatMap((m) => {
      const tag = parseTag(m[1] as string);
      return tag ? [[tag, m[2] as string] as [Tag, string]] : [];
    });
  const translated = contents(target.text);
  const reasons: string[] = [];
  for (const [tag, content] of contents(source.text)) {
    const at = translated.findIndex(([t]) => t.key === tag.key);
    if (at < 0) continue; // A missing tag is the tag check's to report.
    const [, now] = translated.splice(at, 1)[0] as [Tag, string];
    if (now !== content) reasons.push(`content of ${tag.token} changed from "${content}" to "${now}"`);
  }
  return reasons;
}

/** In a printf string a bare `%` is read as (the start of) a conversion; the source's own stray ones are its author's choice. */
function percentReasons(source: Inventory, target: Inventory): string[] {
  if (!source.printf || !target.prose.some((text) => text.includes('%'))) return [];
  const strays = (inv: Inventory): string[] => inv.prose.flatMap((text) => [...text.matchAll(STRAY_PERCENT)].map((m) => m[0]));
  const before = strays(source);
  const after = strays(target);
  if (after.length <= before.length) return [];
  return [...new Set(unmatched(after, before, (s) => s))].map((stray) =>
    stray === '%'
      ? `a lone "%" is not valid in a printf string; write "%%" for a literal percent sign`
      : `"${stray}" would be read as a printf conversion; write "%%" for a literal percent sign`,
  );
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** The line breaks in one end's whitespace run: how many, and whether one is the outermost character of the string. */
function lineBreaks(run: string, end: 'leading' | 'trailing'): { count: number; outermost: boolean } {
  const outer = end === 'leading' ? run[0] : run[run.length - 1];
  return { count: run.match(LINE_BREAK)?.length ?? 0, outermost: outer === '\n' || outer === '\r' };
}

/**
 * Line breaks at the two ends are structure in every format: gettext refuses a whole catalog when one msgstr does not
 * begin and end with "\n" where its msgid does, and elsewhere a lost final line break joins two lines of output.
 * Spaces and tabs there are left to a person (machine output gets the source's restored before the gates run).
 */
function edgeReasons(sourceText: string, targetText: string): string[] {
  const source = splitEdgeWhitespace(sourceText);
  const target = splitEdgeWhitespace(targetText);
  // Whitespace-only text has no ends to compare, and an empty translation is the plurals gate's (or nobody's) business.
  if (source.core === '' || target.core === '') return [];
  const reasons: string[] = [];
  for (const end of ['leading', 'trailing'] as const) {
    const from = lineBreaks(source[end], end);
    const to = lineBreaks(target[end], end);
    if (from.count === to.count && from.outermost === to.outermost) continue;
    const verb = end === 'leading' ? 'starts' : 'ends';
    const [was, were] = [JSON.stringify(source[end]), JSON.stringify(target[end])];
    if (to.count === 0) reasons.push(`${end} line ${from.count === 1 ? 'break is' : 'breaks are'} missing: the source ${verb} with ${was}`);
    else if (from.count === 0) reasons.push(`${end} line ${to.count === 1 ? 'break is' : 'breaks are'} not in the source: the translation ${verb} with ${were}`);
    else reasons.push(`${end} line breaks differ: the source ${verb} with ${was}, the translation with ${were}`);
  }
  return reasons;
}

const hasBlocks = (inv: Inventory): boolean => inv.tree.blocks.length > 0;

function markupReasons(source: Inventory, target: Inventory, asSets: boolean): string[] {
  const tags = tagReasons(source.regions.flat(), target.regions.flat(), asSets);
  // With a tag missing or added, its nesting problems are only echoes of that one change.
  const nesting = tags.length === 0 ? nestingReasons(source, target) : [];
  return [...tags, ...nesting, ...xliffReasons(source, target), ...percentReasons(source, target)];
}

/** One source message against its translation. */
function messageReasons(sourceText: string, targetText: string): string[] {
  const source = inventory(sourceText);
  const target = inventory(targetText);
  const icu = hasBlocks(source) || hasBlocks(target);
  const placeholders = icu
    ? [...setReasons(source, target), ...selectReasons(source, target)]
    : isLaravelChoice(source) || isLaravelChoice(target)
      ? setReasons(source, target)
      : [...multisetReasons(source, target), ...orderReasons(source, target)];
  return [...placeholders, ...markupReasons(source, target, icu), ...edgeReasons(sourceText, targetText)];
}

/**
 * A plural key's target forms: each uses only placeholders some source form has; forms other than zero/one/two keep
 * every placeholder of the source `other` form. Tags, printf order and end line breaks compare with the source form
 * of the same category, or `other` where the source lacks it (as `sourceFormsFor` pairs them).
 */
function pluralKeyReasons(sourceText: string, sourcePlurals: PluralForms, targetPlurals: PluralForms): string[] {
  const sourceForms = new Map<PluralCategory, Inventory>();
  for (const category of PLURAL_CATEGORIES) {
    const form = sourcePlurals[category];
    if (form !== undefined) sourceForms.set(category, inventory(form));
  }
  const sourceOther = sourceForms.get('other') ?? inventory(sourceText);
  const allowed = new Set([...sourceForms.values(), sourceOther].flatMap((inv) => inv.placeholders.map((p) => placeholderKey(p.token))));
  const reasons: string[] = [];
  for (const category of PLURAL_CATEGORIES) {
    const form = targetPlurals[category];
    if (form === undefined || form.trim() === '') continue; // A missing form is the plurals gate's to report.
    const target = inventory(form);
    const reference = sourceForms.get(category) ?? sourceOther;
    const own: string[] = [];
    for (const token of new Set(target.placeholders.map((p) => p.token))) {
      if (!allowed.has(placeholderKey(token))) own.push(`placeholder ${token} is not in the source`);
    }
    if (!COUNT_OPTIONAL.has(category)) {
      const present = new Set(target.placeholders.map((p) => placeholderKey(p.token)));
      for (const token of new Set(sourceOther.placeholders.map((p) => p.token))) {
        if (!present.has(placeholderKey(token))) own.push(`placeholder ${token} is missing`);
      }
    }
    own.push(...orderReasons(reference, target), ...markupReasons(reference, target, hasBlocks(reference) || hasBlocks(target)), ...edgeReasons(reference.text, form));
    reasons.push(...own.map((reason) => `form "${category}": ${reason}`));
  }
  return reasons;
}

/** Placeholders, tags and their nesting, xliff:g content, printf order, stray percent signs and end line breaks of one translated row. */
export function checkPlaceholders(input: GateInput): GateFailure[] {
  const reasons =
    input.sourcePlurals && input.targetPlurals
      ? pluralKeyReasons(input.source, input.sourcePlurals, input.targetPlurals)
      : messageReasons(input.source, input.target);
  return [...new Set(reasons)].map((reason) => ({ gate: 'placeholders', reason }));
}
