/** One exit code for a run that pushed and pulled. */

/** A failed batch (3) outranks a refusal (4): the refusal may only be a symptom of the failure. */
export function worstExit(...codes: (0 | 3 | 4)[]): 0 | 3 | 4 {
  if (codes.includes(3)) return 3;
  return codes.includes(4) ? 4 : 0;
}
