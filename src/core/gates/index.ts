/** The four quality gates over one translated row, and the outcome their failures add up to. */
import { checkGlossary } from './glossary.js';
import { checkLength } from './length.js';
import { checkPlaceholders } from './placeholders.js';
import { checkPlurals } from './plurals.js';
import type { GateInput, GateReport } from './types.js';

export * from './types.js';
export { checkGlossary, containsTerm, termsInSource, termTranslation } from './glossary.js';
export { checkLength, displayLength } from './length.js';
export { checkPlaceholders } from './placeholders.js';
export { checkPlurals } from './plurals.js';

/** Runs all four gates: any placeholder, plural or glossary failure refuses the row; length failures alone flag it. */
export function runGates(input: GateInput): GateReport {
  const failures = checkPlaceholders(input);
  for (const more of [checkPlurals(input), checkGlossary(input), checkLength(input)]) for (const failure of more) failures.push(failure);
  const outcome = failures.length === 0 ? 'passed' : failures.every((f) => f.gate === 'length') ? 'flagged' : 'refused';
  return { outcome, failures };
}
