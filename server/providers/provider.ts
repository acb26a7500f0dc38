/** The interface every machine-translation provider implements, with the two passes of the spec. */

export type Pass = 'fast' | 'careful';

/** A glossary term that occurs in the row's source, as the careful pass and corrective retries show it to the provider. */
export interface GlossaryHint {
  /** The source-language term as it occurs in the source. */
  term: string;
  /** The required translation in the target locale; absent for a locked term that stays untranslated (a brand name, say). */
  translation?: string;
  /** True when the term (and `translation`, if any) must not appear in the translation. */
  forbidden: boolean;
}

/** A translation-memory match for the row's source, best first. */
export interface MemoryHint {
  source: string;
  translation: string;
  /** Similarity of `source` to the row's source, 0..1 (1 = identical). */
  score: number;
}

export interface ProviderRow {
  /** Caller's identifier for the row, echoed back in the result. */
  id: string;
  /**
   * Source text with every placeholder, markup tag and ICU syntax element replaced by a `<ph id="N"/>` token
   * (see `mask` in src/core/placeholders.ts). Each token must come back exactly once and unchanged; the caller
   * restores them. Providers never mask or unmask themselves.
   */
  text: string;
  key: string;
  notes?: string;
  /** Disambiguating context from the file (gettext msgctxt, XLIFF context...). */
  context?: string;
  /** Length budget of the translation in characters (grapheme clusters), tokens counted as the text they stand for. */
  maxLength?: number;
  /** Careful pass only: keys and (masked) source texts next to this key in its file. */
  neighbours?: readonly { key: string; text: string }[];
  /** Careful pass and corrective retries: glossary terms that occur in the source. */
  glossary?: readonly GlossaryHint[];
  /** Careful pass only: fuzzy translation-memory matches. */
  memory?: readonly MemoryHint[];
  /** Set on the one corrective retry: the rejected (masked) translation and why the quality gates refused it. */
  correction?: { previous: string; reasons: readonly string[] };
}

/** A project's style guide (GET/PATCH /v1/project/translation), sent with every request of its batches. */
export interface StyleGuide {
  /** What the product is and does, in a sentence or two. */
  product?: string;
  audience?: string;
  /** The voice: 'friendly and brief', 'formal', ... */
  tone?: string;
  /** Per target locale (BCP 47 tag): address the reader formally or informally (German Sie or du, French vous or tu). */
  formality?: Readonly<Record<string, 'formal' | 'informal'>>;
  /** Words and names to keep untranslated, as written. */
  keep?: readonly string[];
}

/** The style guide's formality for a target locale, or for its language (`de` serves `de-AT`); undefined when it sets none. */
export function formalityFor(style: StyleGuide | undefined, locale: string): 'formal' | 'informal' | undefined {
  return style?.formality?.[locale] ?? style?.formality?.[locale.split('-')[0]!];
}

export interface TranslateRequest {
  sourceLocale: string;
  targetLocale: string;
  pass: Pass;
  rows: readonly ProviderRow[];
  signal?: AbortSignal;
  /** The project's style guide, if it has one: an LLM reads all of it; DeepL uses the target locale's formality. */
  style?: StyleGuide;
}

export type RowResult = { id: string; ok: true; text: string } | { id: string; ok: false; reason: string };

export interface TranslationProvider {
  /** Name shown in batch rows and logs, e.g. 'pseudo', 'openai:gpt-4o-mini', 'deepl'. */
  readonly name: string;
  /**
   * True for a provider that reads instructions (an LLM, or pseudo): it can run the careful pass, use the context
   * fields and act on a correction. Machine-translation engines (DeepL, LibreTranslate) only use `text` (and, where
   * the API has one, a context parameter) and cannot be the careful pass's provider.
   */
  readonly instructable: boolean;
  /** Translates every row; a row the provider could not translate comes back with ok: false and a reason. Throws only when the whole call failed. */
  translate(request: TranslateRequest): Promise<RowResult[]>;
}

/** The provider could not be reached or kept failing after its retries; the rows stay failed and can be retried. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
