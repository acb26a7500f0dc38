/** The placeholders gate: a translation keeps the source's placeholders, tags, xliff:g content, printf order and the line breaks at its ends. */
import { splitEdgeWhitespace } from '../edge-whitespace.js';
import { PLURAL_CATEGORIES, type PluralCategory, type PluralForms } from '../formats/codec.js';
import { allBlocks, icuTree, type IcuBlock, type IcuMessage } from './icu-tree.js';
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
  /** `placeholderKey` of each placeholder, in the same order. */
  readonly keys: readonly string[];
  /** The placeholders that are sequential printf conversions, in order (what `orderReasons` compares). */
  readonly sequence: readonly string[];
  /** True when the message has a `%%` or a printf conversion, i.e. it goes through a printf-style formatter. */
  readonly printf: boolean;
  /**
   * Tags of the top level and of each ICU branch, each outside nested blocks: the units tag nesting is checked in.
   * Those without tags are left out.
   */
  readonly regions: readonly (readonly Tag[])[];
  readonly tree: IcuMessage;
  /** Every block of the tree, nested ones included, depth first (`allBlocks`). */
  readonly blocks: readonly IcuBlock[];
  /** `argumentNames`, once asked for. */
  readonly names?: ReadonlySet<string>;
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
function keyOf(token: string): string {
  if (token.startsWith(':')) return token.toLowerCase();
  const match = token.startsWith('{{') ? null : ICU_ARGUMENT.exec(token);
  if (match) return `{${match[1]}}`;
  return /^(?:\{|%\{|\$\{|\$t\()/.test(token) ? token.replace(/\s+/g, '') : token;
}

/** What the gate reads from one placeholder token. */
interface TokenFacts {
  readonly key: string;
  /** A printf conversion or `%%`: the message goes through a printf-style formatter. */
  readonly printf: boolean;
  /** A conversion that takes the next argument, so its position among the others matters. */
  readonly sequential: boolean;
  /** The token as a placeholder of the top level, shared by every message that has it there. */
  readonly topLevel: Placeholder;
}

// The same few tokens (`%d`, `{count}`, `<b>`) recur on nearly every row of a batch: each is read once. The caches
// are cleared when full, which keeps a long-running server's memory bounded.
const MAX_CACHED_TOKENS = 4096;
const tokenFacts = new Map<string, TokenFacts>();
const tagCache = new Map<string, Tag | null>();

function factsOf(token: string): TokenFacts {
  let facts = tokenFacts.get(token);
  if (!facts) {
    facts = { key: keyOf(token), printf: PRINTF.test(token), sequential: SEQUENTIAL_PRINTF.test(token), topLevel: { token, branch: '' } };
    if (tokenFacts.size >= MAX_CACHED_TOKENS) tokenFacts.clear();
    tokenFacts.set(token, facts);
  }
  return facts;
}

const placeholderKey = (token: string): string => factsOf(token).key;

/** `parseTag`, remembered: tags are immutable, so one parse serves every row that has the tag. */
function tagOf(token: string): Tag | undefined {
  let tag = tagCache.get(token);
  if (tag === undefined) {
    tag = parseTag(token) ?? null;
    if (tagCache.size >= MAX_CACHED_TOKENS) tagCache.clear();
    tagCache.set(token, tag);
  }
  return tag ?? undefined;
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

/** An inventory being filled: most messages have few placeholders and no tags, so each list is made on its first item. */
interface MutableInventory {
  text: string;
  placeholders: Placeholder[] | undefined;
  keys: string[] | undefined;
  sequence: string[] | undefined;
  printf: boolean;
  regions: Tag[][] | undefined;
  tree: IcuMessage;
  blocks: readonly IcuBlock[];
  names?: Set<string>;
}

function visit(inv: MutableInventory, message: IcuMessage, branch: string): void {
  let regionTags: Tag[] | undefined;
  for (const segment of message.segments) {
    if (segment.kind === 'placeholder') {
      const facts = factsOf(segment.value);
      if (facts.printf) inv.printf = true;
      if (segment.value === '%%') continue;
      (inv.placeholders ??= []).push(branch === '' ? facts.topLevel : { token: segment.value, branch });
      (inv.keys ??= []).push(facts.key);
      if (facts.sequential) (inv.sequence ??= []).push(segment.value);
    } else if (segment.kind === 'markup') {
      const tag = tagOf(segment.value);
      if (tag) (regionTags ??= []).push(tag);
    }
  }
  if (regionTags) (inv.regions ??= []).push(regionTags);
  for (const block of message.blocks) {
    for (const { selector, message: inner } of block.branches) visit(inv, inner, `the "${selector}" branch of {${block.argument}}`);
  }
}

const NONE: readonly never[] = [];

function inventory(text: string): Inventory {
  const tree = icuTree(text);
  const blocks = tree.blocks.length === 0 ? NONE : allBlocks(tree);
  const inv: MutableInventory = { text, placeholders: undefined, keys: undefined, sequence: undefined, printf: false, regions: undefined, tree, blocks };
  visit(inv, tree, '');
  return { text, placeholders: inv.placeholders ?? NONE, keys: inv.keys ?? NONE, sequence: inv.sequence ?? NONE, printf: inv.printf, regions: inv.regions ?? NONE, tree, blocks, names: undefined };
}

/** Text the tokenizer left as prose, where a stray `%` would hide, in the order the inventory reads the tree. */
function proseOf(message: IcuMessage, out: string[] = []): string[] {
  for (const segment of message.segments) if (segment.kind === 'text') out.push(segment.value);
  for (const block of message.blocks) for (const branch of block.branches) proseOf(branch.message, out);
  return out;
}

/** Whether two lists hold the same strings in the same order. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
  // The common case, the same placeholders in the same order, has nothing to report.
  if (sameList(source.keys, target.keys)) return [];
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
  const sourceNames = argumentNames(source);
  const targetNames = argumentNames(target);
  const reasons: string[] = [];
  for (const name of sourceNames) if (!targetNames.has(name)) reasons.push(`placeholder ${name} is missing`);
  for (const { token, branch } of target.placeholders) {
    const name = placeholderKey(token);
    if (!sourceNames.has(name)) reasons.push(`placeholder ${name} is not in the source${branch ? ` (in ${branch})` : ''}`);
  }
  for (const block of target.blocks) {
    if (!sourceNames.has(`{${block.argument}}`)) reasons.push(`placeholder {${block.argument}} is not in the source (the translation has a ${block.type} on it)`);
  }
  return reasons;
}

/** The arguments of a message, as placeholder keys: its placeholders' and those its blocks select on. Computed once. */
function argumentNames(inv: Inventory): ReadonlySet<string> {
  if (inv.names) return inv.names;
  const names = new Set(inv.keys);
  for (const block of inv.blocks) names.add(`{${block.argument}}`);
  (inv as MutableInventory).names = names;
  return names;
}

function selectorsByArgument(inv: Inventory): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const block of inv.blocks) {
    if (block.type !== 'select') continue;
    const selectors = out.get(block.argument) ?? new Set<string>();
    for (const branch of block.branches) selectors.add(branch.selector);
    out.set(block.argument, selectors);
  }
  return out;
}

/** Select keys are values the program passes (`female`, `admin`): a translated or dropped key never matches again. */
function selectReasons(source: Inventory, target: Inventory): string[] {
  if (!source.blocks.some((block) => block.type === 'select')) return [];
  const sourceSelects = selectorsByArgument(source);
  const targetSelects = selectorsByArgument(target);
  const reasons: string[] = [];
  const targetArguments = argumentNames(target);
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
  const from = source.sequence;
  const to = target.sequence;
  if (sameList(from, to)) return [];
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
    let at = open.length - 1;
    while (at >= 0 && (open[at] as Tag).name !== tag.name) at--;
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
  const reasons: string[] = [];
  for (const tags of target.regions) if (tags.length > 0) reasons.push(...nestingProblems(tags));
  return reasons;
}

/** Android `<xliff:g>` marks text that must not be translated (a product name, an example value). */
function xliffReasons(source: Inventory, target: Inventory): string[] {
  if (!source.text.includes('<xliff:g')) return [];
  const contents = (text: string): [Tag, string][] =>
    [...text.matchAll(XLIFF_G)].flatMap((m) => {
      const tag = tagOf(m[1] as string);
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

const straysOf = (inv: Inventory): string[] => proseOf(inv.tree).flatMap((text) => [...text.matchAll(STRAY_PERCENT)].map((m) => m[0]));

/** In a printf string a bare `%` is read as (the start of) a conversion; the source's own stray ones are its author's choice. */
function percentReasons(source: Inventory, target: Inventory): string[] {
  // Prose is part of the text: without a `%` in the text there is none in the prose.
  if (!source.printf || !target.text.includes('%') || !proseOf(target.tree).some((text) => text.includes('%'))) return [];
  const before = straysOf(source);
  const after = straysOf(target);
  if (after.length <= before.length) return [];
  return [...new Set(unmatched(after, before, (s) => s))].map((stray) =>
    stray === '%'
      ? `a lone "%" is not valid in a printf string; write "%%" for a literal percent sign`
      : `"${stray}" would be read as a printf conversion; write "%%" for a literal percent sign`,
  );
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** Whether the character at `index` is whitespace as `splitEdgeWhitespace` counts it (ASCII only); false past either end. */
function edgeIsSpace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

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
  // Without whitespace at any of the four ends there are no line breaks there to compare.
  if (!edgeIsSpace(sourceText, 0) && !edgeIsSpace(sourceText, sourceText.length - 1) && !edgeIsSpace(targetText, 0) && !edgeIsSpace(targetText, targetText.length - 1)) return [];
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
  const reasons: string[] = [];
  const sourceTags = source.regions.length <= 1 ? (source.regions[0] ?? NONE) : source.regions.flat();
  const targetTags = target.regions.length <= 1 ? (target.regions[0] ?? NONE) : target.regions.flat();
  if (sourceTags.length > 0 || targetTags.length > 0) {
    const tags = sameTags(sourceTags, targetTags) ? [] : tagReasons(sourceTags, targetTags, asSets);
    reasons.push(...tags);
    // With a tag missing or added, its nesting problems are only echoes of that one change.
    if (tags.length === 0) reasons.push(...nestingReasons(source, target));
  }
  if (source.text.includes('<xliff:g')) reasons.push(...xliffReasons(source, target));
  if (source.printf) reasons.push(...percentReasons(source, target));
  return reasons;
}

/** The same tags in the same order, which `tagReasons` would find nothing wrong with, as lists or as sets. */
function sameTags(a: readonly Tag[], b: readonly Tag[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if ((a[i] as Tag).key !== (b[i] as Tag).key) return false;
  return true;
}

/** One source message against its translation. */
function messageReasons(sourceText: string, targetText: string): string[] {
  const source = inventory(sourceText);
  const target = inventory(targetText);
  const icu = hasBlocks(source) || hasBlocks(target);
  const reasons = icu
    ? [...setReasons(source, target), ...selectReasons(source, target)]
    : isLaravelChoice(source) || isLaravelChoice(target)
      ? setReasons(source, target)
      : [...multisetReasons(source, target), ...orderReasons(source, target)];
  reasons.push(...markupReasons(source, target, icu), ...edgeReasons(sourceText, targetText));
  return reasons;
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
  const allowed = new Set(sourceOther.keys);
  for (const inv of sourceForms.values()) for (const key of inv.keys) allowed.add(key);
  const reasons: string[] = [];
  for (const category of PLURAL_CATEGORIES) {
    const form = targetPlurals[category];
    if (form === undefined || form.trim() === '') continue; // A missing form is the plurals gate's to report.
    const target = inventory(form);
    const reference = sourceForms.get(category) ?? sourceOther;
    const own: string[] = [];
    if (!target.keys.every((key) => allowed.has(key))) {
      for (const token of new Set(target.placeholders.map((p) => p.token))) {
        if (!allowed.has(placeholderKey(token))) own.push(`placeholder ${token} is not in the source`);
      }
    }
    if (!COUNT_OPTIONAL.has(category)) {
      const present = new Set(target.placeholders.map((p) => placeholderKey(p.token)));
      for (const token of new Set(sourceOther.placeholders.map((p) => p.token))) {
        if (!present.has(placeholderKey(token))) own.push(`placeholder ${token} is missing`);
      }
    }
    own.push(...orderReasons(reference, target), ...markupReasons(reference, target, hasBlocks(reference) || hasBlocks(target)), ...edgeReasons(reference.text, form));
    for (const reason of own) reasons.push(`form "${category}": ${reason}`);
  }
  return reasons;
}

/** Placeholders, tags and their nesting, xliff:g content, printf order, stray percent signs and end line breaks of one translated row. */
export function checkPlaceholders(input: GateInput): GateFailure[] {
  const reasons =
    input.sourcePlurals && input.targetPlurals
      ? pluralKeyReasons(input.source, input.sourcePlurals, input.targetPlurals)
      : messageReasons(input.source, input.target);
  if (reasons.length === 0) return [];
  return [...new Set(reasons)].map((reason) => ({ gate: 'placeholders', reason }));
}
