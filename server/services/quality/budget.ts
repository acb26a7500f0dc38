/** The length budget a translation is checked against. */
import type { PluralForms } from '../../../src/core/formats/codec.js';
import { displayLength } from '../../../src/core/gates/length.js';

/**
 * The key's own max length wins; otherwise the project's default budget, a percentage of the source's length
 * (its longest form for plural keys), so "Save" gets a small budget and a paragraph a large one; otherwise none.
 */
export function lengthBudget(maxLength: number | null, budgetPercent: number | null, source: string, sourcePlurals: PluralForms | null): number | undefined {
  if (maxLength !== null) return maxLength;
  if (budgetPercent === null) return undefined;
  const longest = Math.max(displayLength(source), ...Object.values(sourcePlurals ?? {}).map(displayLength));
  return Math.max(1, Math.ceil((longest * budgetPercent) / 100));
}
