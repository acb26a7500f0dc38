/** The glossary gate: locked terms appear as the glossary translates them, forbidden terms do not; and the term matching behind it. */
import { PLURAL_CATEGORIES, type PluralForms } from '../formats/codec.js';
import { segmentsOf } from './icu-tree.js';
import type { GateFailure, GateInput, GlossaryTerm } from './types.js';

// Scripts written without spaces between words: there a term inside a longer run of letters is still the term.
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const HANGUL = /\p{scx=Hangul}/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
// Stands in for a placeholder or tag: not a letter, so it bounds words without joining the text around it.
const PROTECTED = '\uFFFC';
const ENTITY = /^&(?:#(\d+)|#[xX]([0-9A-Fa-f]+)|(amp|lt|gt|quot|apos|nbsp));$/;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const MAX_CACHED_PATTERNS = 4096;
const patterns = new Map<string, RegExp>();

/** A character entity as the text it displays, so "Terms &amp; Conditions" matches the term "Terms & Conditions". */
function decodeEntity(entity: string): string | undefined {
  const m = ENTITY.exec(entity);
  if (!m) return undefined;
  if (m[3]) return NAMED_ENTITIES[m[3]];
  const code = m[1] ? Number(m[1]) : parseInt(m[2] as string, 16);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

// Text below U+0300 (where the combining marks begin) is already NFC: normalizing it is a no-op, and the commonest one.
const MAY_DENORMALIZE = /[^\0-\u02ff]/;
// What can make searchable text hold a probe its message does not: an entity, or normalizing (see `search`).
const MAY_DIFFER = /[^\0-%'-\u02ff]/;

/** The translatable text of a message, NFC, with each placeholder, tag and piece of ICU syntax replaced by one non-letter. */
function searchableText(text: string): string {
  const segments = segmentsOf(text);
  if (segments.length === 1 && segments[0]?.kind === 'text') return MAY_DENORMALIZE.test(text) ? text.normalize('NFC') : text;
  let out = '';
  // PROTECTED neither composes nor reorders: only the text and decoded entities can need normalizing.
  let normalize = MAY_DENORMALIZE.test(text);
  for (const segment of segments) {
    if (segment.kind === 'text') out += segment.value;
    else {
      const decoded = segment.kind === 'markup' ? decodeEntity(segment.value) : undefined;
      if (decoded !== undefined) normalize = true;
      out += decoded ?? PROTECTED;
    }
  }
  return normalize ? out.normalize('NFC') : out;
}

function compile(term: string, caseSensitive: boolean): RegExp {
  const words = term.normalize('NFC').trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(words.join('\\s+'), caseSensitive ? 'gu' : 'giu');
}

/** Compiled patterns by text; the cache is cleared when full, which keeps a long-running server's memory bounded. */
function patternFor(term: string, caseSensitive: boolean): RegExp {
  const key = `${caseSensitive ? 's' : 'i'}${term}`;
  let pattern = patterns.get(key);
  if (!pattern) {
    pattern = compile(term, caseSensitive);
    if (patterns.size >= MAX_CACHED_PATTERNS) patterns.clear();
    patterns.set(key, pattern);
  }
  return pattern;
}

/** A term or translation to look for: its compiled pattern, and the probe that must be present for it to match. */
interface Needle {
  readonly pattern: RegExp;
  /** Index of its probe in the glossary's `probes`, or -1 when it has none and the pattern always runs. */
  readonly probe: number;
}

/** A glossary term compiled for one target locale. */
interface Rule extends Needle {
  readonly term: GlossaryTerm;
  /** The term's translation for the locale and its pattern, when it has one. */
  readonly translation: (Needle & { readonly text: string }) | undefined;
}

/**
 * A stretch of a needle's text, MIN_PROBE ASCII characters or more, that every match contains: text without it cannot
 * match, so the needle's pattern need not run. Case-insensitive probes are lower case, and are looked for in `foldAscii`
 * text.
 */
interface Probe {
  readonly text: string;
  readonly caseSensitive: boolean;
}

// Shorter probes would occur in most texts; a needle without one this long runs its pattern on every row.
const MIN_PROBE = 4;
// The scan looks at every `step`th position only (see `compileGlossary`); the cap keeps the index small.
const MAX_STEP = 4;

/**
 * Characters as the index files them, five bits each: a letter by itself, any digit as one class, the rest of ASCII in
 * four classes, anything beyond ASCII (which no probe holds) as 31.
 */
const CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 0x61 && code <= 0x7a) return code - 0x60;
  if (code >= 0x41 && code <= 0x5a) return code - 0x40;
  if (code >= 0x30 && code <= 0x39) return 27;
  return 28 + (code % 3);
});
const classOf = (code: number): number => (code < 0x80 ? (CLASS[code] as number) : 31);
const tripleOf = (text: string, i: number): number => (classOf(text.charCodeAt(i)) << 10) | (classOf(text.charCodeAt(i + 1)) << 5) | classOf(text.charCodeAt(i + 2));

/**
 * The probes one side of a pair is searched for: a few are each looked for with `includes`; more, by one scan that
 * looks at every `step`th position only and compares in full just the probes filed under the classes of the three
 * characters there (`tripleOf`). In `byTriple`, 1 + the index in `entries` of a list of `probe * MAX_STEP + offset`, for
 * probes with such characters at `offset`; 0 for none.
 */
interface ProbeIndex {
  readonly members: readonly number[];
  /** 1 at the probes that are members. */
  readonly isMember: Uint8Array;
  readonly scan: { readonly byTriple: Uint16Array; readonly entries: readonly (readonly number[])[]; readonly step: number } | undefined;
}

// Up to this many probes, one `includes` each costs less than a scan.
const FEW_PROBES = 8;

/**
 * A glossary compiled for one target locale. Matching every term's pattern against every row costs one regex run per
 * term and row; instead a source is searched for the probes of locked terms and a translation for those of forbidden
 * ones, and only the needles whose probe is there (or that have none) run their patterns.
 */
interface CompiledGlossary {
  readonly rules: readonly Rule[];
  /** Indexes of the rules that can fail whatever probes the texts hold: a needle of theirs has no probe. */
  readonly always: readonly number[];
  /** By probe: the locked rules whose term has it (they can fail only where the source holds it). */
  readonly lockedBy: readonly (readonly number[])[];
  /** By probe: the forbidden rules whose term or translation has it (they can fail only where the translation holds it). */
  readonly forbiddenBy: readonly (readonly number[])[];
  readonly probes: readonly Probe[];
  /** The probes of locked terms, searched for in sources. */
  readonly sourceIndex: ProbeIndex;
  /** The probes of forbidden terms and their translations, searched for in translations. */
  readonly targetIndex: ProbeIndex;
}

// A batch passes one glossary array for all its rows: compile it once per target locale. Glossaries are read-only
// values (GateInput says so); an edited glossary is a new array, loaded afresh.
const compiledByGlossary = new WeakMap<readonly GlossaryTerm[], Map<string, CompiledGlossary>>();

/**
 * The longest run of ASCII characters in one word of `text`. Under the `iu` flags an ASCII character matches only
 * itself in either case, and `k` and `s` also the Kelvin sign and the long s (checked over all of Unicode), which
 * `foldAscii` turns into `k` and `s`: so a pattern's match always holds its probe, folded or not.
 */
function probeText(text: string): string {
  let best = '';
  for (const word of text.normalize('NFC').trim().split(/\s+/)) {
    for (const run of word.split(/[^\0-\x7f]+/)) if (run.length > best.length) best = run;
  }
  return best;
}

function indexProbes(members: readonly number[], probes: readonly Probe[]): ProbeIndex {
  const isMember = new Uint8Array(probes.length);
  for (const index of members) isMember[index] = 1;
  if (members.length <= FEW_PROBES) return { members, isMember, scan: undefined };
  // A probe of length L at j holds a triple of its own at each of the L - 2 positions j … j + L - 3: looking at every
  // (L - 2)th position meets each occurrence at least once, at an offset below the step.
  const step = Math.min(MAX_STEP, ...members.map((index) => (probes[index] as Probe).text.length - 2));
  const byTriple = new Uint16Array(1 << 15);
  const entries: number[][] = [];
  for (const index of members) {
    const lower = (probes[index] as Probe).text.toLowerCase();
    for (let offset = 0; offset < step; offset++) {
      const triple = tripleOf(lower, offset);
      if (byTriple[triple] === 0) byTriple[triple] = entries.push([]);
      entries[(byTriple[triple] as number) - 1]?.push(index * MAX_STEP + offset);
    }
  }
  return { members, isMember, scan: { byTriple, entries, step } };
}

function compileGlossary(terms: readonly GlossaryTerm[], locale: string): CompiledGlossary {
  const probes: Probe[] = [];
  const ids = new Map<string, number>();
  const needle = (text: string, caseSensitive: boolean): Needle => {
    const pattern = patternFor(text, caseSensitive);
    const raw = probeText(text);
    if (raw.length < MIN_PROBE) return { pattern, probe: -1 };
    const probe = caseSensitive ? raw : raw.toLowerCase();
    const id = `${caseSensitive ? 's' : 'i'}${probe}`;
    let index = ids.get(id);
    if (index === undefined) {
      index = probes.length;
      ids.set(id, index);
      probes.push({ text: probe, caseSensitive });
    }
    return { pattern, probe: index };
  };
  const rules = terms
    .filter((term) => term.term.trim() !== '')
    .map((term): Rule => {
      const text = termTranslation(term, locale);
      return { term, ...needle(term.term, term.caseSensitive), translation: text === undefined ? undefined : { text, ...needle(text, term.caseSensitive) } };
    });
  const always: number[] = [];
  const lockedBy: number[][] = probes.map(() => []);
  const forbiddenBy: number[][] = probes.map(() => []);
  rules.forEach((rule, index) => {
    // The needles `pairReasons` looks for in the source (a locked term) or in the translation (a forbidden one).
    const needles = rule.term.forbidden ? [rule, ...(rule.translation && rule.translation.text !== rule.term.term ? [rule.translation] : [])] : [rule];
    if (needles.some((n) => n.probe < 0)) always.push(index);
    else for (const { probe } of needles) (rule.term.forbidden ? forbiddenBy : lockedBy)[probe]?.push(index);
  });
  const filed = (by: readonly (readonly number[])[]): number[] => by.flatMap((rulesOf, probe) => (rulesOf.length > 0 ? [probe] : []));
  return { rules, always, lockedBy, forbiddenBy, probes, sourceIndex: indexProbes(filed(lockedBy), probes), targetIndex: indexProbes(filed(forbiddenBy), probes) };
}

// The rows of a batch share one glossary and locale: the last one asked for is kept at hand.
let lastCompiled: { terms: readonly GlossaryTerm[]; locale: string; compiled: CompiledGlossary } | undefined;

function compiledFor(terms: readonly GlossaryTerm[], locale: string): CompiledGlossary {
  if (lastCompiled?.terms === terms && lastCompiled.locale === locale) return lastCompiled.compiled;
  let byLocale = compiledByGlossary.get(terms);
  if (!byLocale) {
    byLocale = new Map();
    compiledByGlossary.set(terms, byLocale);
  }
  let compiled = byLocale.get(locale);
  if (!compiled) {
    compiled = compileGlossary(terms, locale);
    byLocale.set(locale, compiled);
  }
  lastCompiled = { terms, locale, compiled };
  return compiled;
}

/** `text` with ASCII letters, the Kelvin sign and the long s lower-cased to ASCII, at the same indexes as in `text`. */
function foldAscii(text: string): string {
  let folded = text.toLowerCase();
  // Only U+0130 (İ) lower-cases to two characters; then fold by hand so indexes stay those of `text`.
  if (folded.length !== text.length) folded = text.replace(/[A-Z\u212a]/g, (c) => (c === '\u212a' ? 'k' : c.toLowerCase()));
  return folded.includes('\u017f') ? folded.replaceAll('\u017f', 's') : folded;
}

/** A message searched for the probes of one index, and its searchable text once a pattern needs it. */
interface Searched {
  readonly text: string;
  searchable: string | undefined;
  /** What probes are looked for in: the searchable text, or the message where that holds no other probe (see `search`). */
  readonly haystack: string;
  readonly folded: string;
  readonly index: ProbeIndex;
  /** The members of `index` the haystack holds. */
  readonly found: readonly number[];
}

const probeIn = (haystack: string, folded: string, probe: Probe): boolean => (probe.caseSensitive ? haystack : folded).includes(probe.text);

function search(text: string, glossary: CompiledGlossary, index: ProbeIndex): Searched {
  // Text below U+0300 without an entity is already NFC, and its searchable text only puts PROTECTED (not ASCII) in place
  // of placeholders and markup: every probe of the searchable text is in the message itself, which is searched
  // instead, and the searchable text waits until some pattern has to run.
  const searchable = MAY_DIFFER.test(text) ? searchableText(text) : undefined;
  const haystack = searchable ?? text;
  const folded = foldAscii(haystack);
  const found: number[] = [];
  const { probes } = glossary;
  if (!index.scan) {
    for (const member of index.members) if (probeIn(haystack, folded, probes[member] as Probe)) found.push(member);
    return { text, searchable, haystack, folded, index, found };
  }
  const { byTriple, entries, step } = index.scan;
  for (let i = 0; i + 2 < folded.length; i += step) {
    const list = byTriple[tripleOf(folded, i)] as number;
    if (list === 0) continue;
    for (const entry of entries[list - 1] as readonly number[]) {
      const member = Math.floor(entry / MAX_STEP);
      const start = i - (entry % MAX_STEP);
      const probe = probes[member] as Probe;
      if (start >= 0 && (probe.caseSensitive ? haystack : folded).startsWith(probe.text, start) && !found.includes(member)) found.push(member);
    }
  }
  return { text, searchable, haystack, folded, index, found };
}

/** Whether `needle` occurs in searched text: its pattern runs only where its probe is present. */
function holds(searched: Searched, needle: Needle, glossary: CompiledGlossary): boolean {
  const { probe } = needle;
  if (probe >= 0) {
    const present = searched.index.isMember[probe] === 1 ? searched.found.includes(probe) : probeIn(searched.haystack, searched.folded, glossary.probes[probe] as Probe);
    if (!present) return false;
  }
  searched.searchable ??= searchableText(searched.text);
  return hasTerm(searched.searchable, needle.pattern);
}

/** True when `neighbour` continues the word that ends (or starts) with `edge`, so a match there is not a whole word. */
function continuesWord(edge: string, neighbour: string | undefined): boolean {
  if (neighbour === undefined || !WORD_CHAR.test(neighbour)) return false;
  if (UNSPACED.test(edge) || UNSPACED.test(neighbour)) return false;
  // Korean attaches particles without a space, also to Latin names ("Parlance를"); a change to or from Hangul is a boundary.
  return HANGUL.test(edge) === HANGUL.test(neighbour);
}

/** `continuesWord` on code points; ASCII on both sides needs no pattern (no ASCII character is unspaced or Hangul). */
function continuesWordAt(edge: number, neighbour: number | undefined): boolean {
  if (neighbour === undefined) return false;
  if (edge < 0x80 && neighbour < 0x80) return (neighbour >= 0x30 && neighbour <= 0x39) || (neighbour >= 0x41 && neighbour <= 0x5a) || (neighbour >= 0x61 && neighbour <= 0x7a);
  return continuesWord(String.fromCodePoint(edge), String.fromCodePoint(neighbour));
}

const codePointBefore = (text: string, index: number): number | undefined => {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return text.codePointAt(start) as number;
};
const codePointAt = (text: string, index: number): number | undefined => (index < text.length ? (text.codePointAt(index) as number) : undefined);

/** Whether searchable text contains a match of `pattern` (a compiled term) as a whole word, or as a substring in unspaced scripts. */
function hasTerm(searchable: string, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(searchable); m; m = pattern.exec(searchable)) {
    const start = m.index;
    const end = start + m[0].length;
    const first = codePointAt(searchable, start) as number;
    const last = codePointBefore(searchable, end) as number;
    if (!continuesWordAt(first, codePointBefore(searchable, start)) && !continuesWordAt(last, codePointAt(searchable, end))) return true;
    // Try again one character on: "Dashboard" may still occur whole after a rejected "Dashboards".
    pattern.lastIndex = start + (first > 0xffff ? 2 : 1);
  }
  return false;
}

/**
 * Whether `text` contains `term` as a whole word, case-insensitively unless `caseSensitive`, with placeholders and
 * markup excluded (a term inside `<a href="/dashboard">` is not an occurrence). Multi-word terms match across any one
 * run of whitespace; in Han, kana, Thai, Lao, Khmer and Myanmar text a substring match counts.
 */
export function containsTerm(text: string, term: string, caseSensitive: boolean): boolean {
  return term.trim() !== '' && hasTerm(searchableText(text), patternFor(term, caseSensitive));
}

/** The locked and forbidden terms that occur in `source`: what the provider is told, and what a glossary edit affects. */
export function termsInSource(source: string, terms: readonly GlossaryTerm[]): GlossaryTerm[] {
  const searchable = searchableText(source);
  return terms.filter((t) => t.term.trim() !== '' && hasTerm(searchable, patternFor(t.term, t.caseSensitive)));
}

/**
 * The term's translation for `locale`: the exact tag, else the nearest parent tag (`de-CH` uses `de`), since a
 * glossary entry for a language holds for its regional variants. Tags compare case-insensitively.
 */
export function termTranslation(term: GlossaryTerm, locale: string): string | undefined {
  const byTag = new Map(Object.entries(term.translations).map(([tag, text]) => [tag.toLowerCase(), text]));
  const parts = locale.toLowerCase().split('-');
  for (let n = parts.length; n > 0; n--) {
    const text = byTag.get(parts.slice(0, n).join('-'));
    if (text !== undefined && text.trim() !== '') return text;
  }
  return undefined;
}

/** Adds `value` to the ascending `list` unless it is there. */
function insertSorted(list: number[], value: number): void {
  let at = list.length;
  while (at > 0 && (list[at - 1] as number) > value) at--;
  if (list[at - 1] !== value) list.splice(at, 0, value);
}

/** Reasons for one source text and its translation. */
function pairReasons(from: Searched, to: Searched, glossary: CompiledGlossary, locale: string): string[] {
  // Only the rules a probe of these texts points to (or that have a needle without one) can fail; the rest stay unread.
  if (glossary.always.length === 0 && from.found.length === 0 && to.found.length === 0) return [];
  // In glossary order, once each: the order reasons are reported in.
  const candidates = [...glossary.always];
  for (const probe of from.found) for (const rule of glossary.lockedBy[probe] as readonly number[]) insertSorted(candidates, rule);
  for (const probe of to.found) for (const rule of glossary.forbiddenBy[probe] as readonly number[]) insertSorted(candidates, rule);
  const reasons: string[] = [];
  for (const index of candidates) {
    const rule = glossary.rules[index] as Rule;
    const { term, translation } = rule;
    if (term.forbidden) {
      if (holds(to, rule, glossary)) reasons.push(`forbidden term "${term.term}" appears`);
      if (translation && translation.text !== term.term && holds(to, translation, glossary)) reasons.push(`forbidden term "${translation.text}" appears`);
    } else if (holds(from, rule, glossary) && !holds(to, translation ?? rule, glossary)) {
      reasons.push(
        translation
          ? `locked term "${term.term}" must be translated as "${translation.text}"`
          : `locked term "${term.term}" must stay "${term.term}" (it has no ${locale} translation)`,
      );
    }
  }
  return reasons;
}

/** The source text each target form answers: the same category, else `other` (as `sourceFormsFor` pairs them). */
function formPairs(input: GateInput): [label: string, source: string, target: string][] {
  if (!input.targetPlurals) return [['', input.source, input.target]];
  const sources: PluralForms = input.sourcePlurals ?? {};
  return PLURAL_CATEGORIES.flatMap((category) => {
    const target = input.targetPlurals?.[category];
    if (target === undefined || target.trim() === '') return [];
    return [[`form "${category}": `, sources[category] ?? sources.other ?? input.source, target] as [string, string, string]];
  });
}

/**
 * Locked and forbidden glossary terms in one translated row; each plural form is checked against its source form.
 * Matching is exact and word-bounded: an inflected form ("Übersichten", Korean "대시보드를") is not an occurrence. That
 * is deliberate: the gate does not guess at morphology, and a translation that must inflect a locked term goes to a
 * reviewer through the corrective retry and hold rather than passing on a guess.
 */
export function checkGlossary(input: GateInput): GateFailure[] {
  const terms = input.glossary ?? [];
  if (terms.length === 0) return [];
  const glossary = compiledFor(terms, input.targetLocale);
  if (!input.targetPlurals) {
    const reasons = pairReasons(search(input.source, glossary, glossary.sourceIndex), search(input.target, glossary, glossary.targetIndex), glossary, input.targetLocale);
    return reasons.length === 0 ? [] : [...new Set(reasons)].map((reason) => ({ gate: 'glossary', reason }));
  }
  const reasons: string[] = [];
  // Plural forms mostly answer the same source form: search it once.
  let last: Searched | undefined;
  let lastSource: string | undefined;
  for (const [label, source, target] of formPairs(input)) {
    if (source !== lastSource) {
      last = search(source, glossary, glossary.sourceIndex);
      lastSource = source;
    }
    for (const reason of pairReasons(last as Searched, search(target, glossary, glossary.targetIndex), glossary, input.targetLocale)) reasons.push(label + reason);
  }
  if (reasons.length === 0) return [];
  return [...new Set(reasons)].map((reason) => ({ gate: 'glossary', reason }));
}
