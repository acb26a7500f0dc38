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

/** The translatable text of a message, NFC, with each placeholder, tag and piece of ICU syntax replaced by one non-letter. */
function searchableText(text: string): string {
  let out = '';
  for (const segment of segmentsOf(text)) {
    if (segment.kind === 'text') out += segment.value;
    else out += (segment.kind === 'markup' ? decodeEntity(segment.value) : undefined) ?? PROTECTED;
  }
  return out.normalize('NFC');
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

/** A glossary term compiled for one target locale. */
interface Rule {
  readonly term: GlossaryTerm;
  readonly pattern: RegExp;
  /** The term's translation for the locale and its pattern, when it has one. */
  readonly translation: { text: string; pattern: RegExp } | undefined;
}

// A batch passes one glossary array for all its rows: compile it once per target locale. Glossaries are read-only
// values (GateInput says so); an edited glossary is a new array, loaded afresh.
const rulesByGlossary = new WeakMap<readonly GlossaryTerm[], Map<string, Rule[]>>();

function rulesFor(terms: readonly GlossaryTerm[], locale: string): Rule[] {
  let byLocale = rulesByGlossary.get(terms);
  if (!byLocale) {
    byLocale = new Map();
    rulesByGlossary.set(terms, byLocale);
  }
  let rules = byLocale.get(locale);
  if (!rules) {
    rules = terms
      .filter((term) => term.term.trim() !== '')
      .map((term) => {
        const text = termTranslation(term, locale);
        return { term, pattern: patternFor(term.term, term.caseSensitive), translation: text === undefined ? undefined : { text, pattern: patternFor(text, term.caseSensitive) } };
      });
    byLocale.set(locale, rules);
  }
  return rules;
}

/** True when `neighbour` continues the word that ends (or starts) with `edge`, so a match there is not a whole word. */
function continuesWord(edge: string, neighbour: string | undefined): boolean {
  if (neighbour === undefined || !WORD_CHAR.test(neighbour)) return false;
  if (UNSPACED.test(edge) || UNSPACED.test(neighbour)) return false;
  // Korean attaches particles without a space, also to Latin names ("Parlance를"); a change to or from Hangul is a boundary.
  return HANGUL.test(edge) === HANGUL.test(neighbour);
}

const codePointBefore = (text: string, index: number): string | undefined => {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return String.fromCodePoint(text.codePointAt(start) as number);
};
const codePointAt = (text: string, index: number): string | undefined => (index < text.length ? String.fromCodePoint(text.codePointAt(index) as number) : undefined);

/** Whether searchable text contains a match of `pattern` (a compiled term) as a whole word, or as a substring in unspaced scripts. */
function hasTerm(searchable: string, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(searchable); m; m = pattern.exec(searchable)) {
    const start = m.index;
    const end = start + m[0].length;
    const first = codePointAt(searchable, start) as string;
    const last = codePointBefore(searchable, end) as string;
    if (!continuesWord(first, codePointBefore(searchable, start)) && !continuesWord(last, codePointAt(searchable, end))) return true;
    // Try again one character on: "Dashboard" may still occur whole after a rejected "Dashboards".
    pattern.lastIndex = start + first.length;
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

/** Reasons for one source text and its translation. */
function pairReasons(source: string, target: string, rules: readonly Rule[], locale: string): string[] {
  const from = searchableText(source);
  const to = searchableText(target);
  const reasons: string[] = [];
  for (const { term, pattern, translation } of rules) {
    if (term.forbidden) {
      if (hasTerm(to, pattern)) reasons.push(`forbidden term "${term.term}" appears`);
      if (translation && translation.text !== term.term && hasTerm(to, translation.pattern)) reasons.push(`forbidden term "${translation.text}" appears`);
    } else if (hasTerm(from, pattern) && !hasTerm(to, translation?.pattern ?? pattern)) {
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
  const rules = rulesFor(terms, input.targetLocale);
  const reasons = formPairs(input).flatMap(([label, source, target]) => pairReasons(source, target, rules, input.targetLocale).map((r) => label + r));
  return [...new Set(reasons)].map((reason) => ({ gate: 'glossary', reason }));
}
