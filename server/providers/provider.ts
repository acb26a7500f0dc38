/** The interface every machine-translation provider implements, with the two passes of the spec. */

export type Pass = 'fast' | 'careful';

export interface ProviderRow {
  /** Caller's identifier for the row, echoed back in the result. */
  id: string;
  /** Source text with placeholders and markup still in place; the provider masks them itself. */
  text: string;
  key: string;
  notes?: string;
  maxLength?: number;
}

export interface TranslateRequest {
  sourceLocale: string;
  targetLocale: string;
  pass: Pass;
  rows: readonly ProviderRow[];
  signal?: AbortSignal;
}

export type RowResult = { id: string; ok: true; text: string } | { id: string; ok: false; reason: string };

export interface TranslationProvider {
  /** Name shown in batch rows and logs, e.g. 'pseudo' or 'openai:gpt-4o-mini'. */
  readonly name: string;
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
