/** The contract of the four quality gates: pure functions over one translated row. */
import type { PluralForms } from '../formats/codec.js';

export type GateName = 'placeholders' | 'plurals' | 'glossary' | 'length';

export const GATE_NAMES: readonly GateName[] = ['placeholders', 'plurals', 'glossary', 'length'];

/** A glossary term of the project, as the gate reads it. */
export interface GlossaryTerm {
  /** The source-language term, e.g. `Dashboard`. */
  term: string;
  /** Match case exactly (source and target); otherwise matching ignores case. */
  caseSensitive: boolean;
  /**
   * Locked (false): where `term` occurs in the source, the translation must contain `translations[targetLocale]`,
   * or `term` itself when the locale has no entry (a name that stays untranslated).
   * Forbidden (true): neither `term` nor `translations[targetLocale]` may appear in the translation.
   */
  forbidden: boolean;
  /** Per-locale translation (BCP-47 tag → text). */
  translations: Readonly<Record<string, string>>;
}

export interface GateInput {
  sourceLocale: string;
  targetLocale: string;
  /** The source text; for a plural key, its `other` form. */
  source: string;
  /** Source plural forms by CLDR category, for plural keys. */
  sourcePlurals?: PluralForms | undefined;
  /** The translation; for a plural key, its `other` form. */
  target: string;
  /** Translated plural forms, for plural keys. */
  targetPlurals?: PluralForms | undefined;
  /** The length budget in characters (grapheme clusters); no budget when undefined. */
  maxLength?: number | undefined;
  glossary?: readonly GlossaryTerm[] | undefined;
}

export interface GateFailure {
  gate: GateName;
  /**
   * One sentence a reviewer and a language model can both act on, naming the offending token, form, term or
   * count, e.g. `placeholder {count} is missing` or `plural form "few" is missing (pl needs one, few, many, other)`.
   */
  reason: string;
}

/**
 * - `passed`: every gate passed.
 * - `flagged`: only the length gate failed: the row is written and flagged for review.
 * - `refused`: a placeholder, plural or glossary failure: the row earns one corrective retry, then is held.
 */
export type GateOutcome = 'passed' | 'flagged' | 'refused';

export interface GateReport {
  outcome: GateOutcome;
  failures: GateFailure[];
}
