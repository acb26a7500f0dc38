/**
 * How one translation row is sent to a provider and put back together: a plain string is one part; a plural key is
 * one part per CLDR category of the target locale; a string holding one ICU plural is unfolded into whole-sentence
 * branches, translated per target category and written back as ICU. Every part is masked, so providers only ever see
 * `<ph id="N"/>` where a placeholder, tag or ICU syntax was; every answer gets its source part's edge whitespace back.
 */
import { keepEdgeWhitespace, splitEdgeWhitespace } from '../../../src/core/edge-whitespace.js';
import type { PluralCategory, PluralForms } from '../../../src/core/formats/codec.js';
import { foldIcuPlural, parseIcuPlural, writeIcuPlural } from '../../../src/core/formats/icu-plural.js';
import { mask, restore } from '../../../src/core/placeholders.js';
import { sourceFormsFor } from '../../../src/core/plurals.js';

export interface Part {
  /** '' for a plain string, the CLDR category for a form, `=N` for an exact ICU selector. */
  name: string;
  /** Unmasked source text of the part. */
  source: string;
  masked: string;
  tokens: string[];
  /** Whether the masked text has a letter outside its placeholders; a part without (digits, punctuation) is its own translation. */
  wordy: boolean;
}

export type RowShape =
  | { kind: 'plain'; parts: Part[] }
  | { kind: 'plurals'; parts: Part[] }
  /** `leading` and `trailing`: the whole source's edge whitespace, which every unfolded branch starts and ends with. */
  | { kind: 'icu'; parts: Part[]; argument: string; offset: number | undefined; leading: string; trailing: string };

/** The assembled translation: plain text, or plural forms (then `text` is the `other` form). */
export interface Assembled {
  text: string;
  plurals: PluralForms | null;
}

const LETTER = /\p{L}/u;
const PH = /<ph\s[^>]*>/g;

function part(name: string, source: string, pluralBranch: boolean): Part {
  const { masked, tokens } = mask(source, { pluralBranch });
  return { name, source, masked, tokens, wordy: LETTER.test(masked.replace(PH, '')) };
}

export function shapeOf(source: string, sourcePlurals: PluralForms | null, targetLocale: string): RowShape {
  if (sourcePlurals) {
    const forms = sourceFormsFor(targetLocale, sourcePlurals);
    return { kind: 'plurals', parts: Object.entries(forms).map(([category, text]) => part(category, text, true)) };
  }
  const icu = parseIcuPlural(source);
  const folded = icu && foldIcuPlural(icu);
  if (icu && folded) {
    const forms = sourceFormsFor(targetLocale, folded.forms);
    const { leading, trailing } = splitEdgeWhitespace(source);
    return {
      kind: 'icu',
      argument: icu.argument,
      offset: icu.offset,
      leading,
      trailing,
      parts: [
        ...Object.entries(folded.exact).map(([selector, text]) => part(selector, text, true)),
        ...Object.entries(forms).map(([category, text]) => part(category, text, true)),
      ],
    };
  }
  return { kind: 'plain', parts: [part('', source, false)] };
}

/**
 * Puts translated parts (masked, as the provider answered, keyed by part name) back into one value. Each part keeps
 * the edge whitespace of the source part it was translated from (a plural form: the source's form of that category,
 * else `other`), whatever the provider did with it. An ICU row's branches all begin and end with the whole source's
 * edge whitespace (folded in from its prefix and suffix); it goes back outside the plural, where the source had it.
 */
export function assemble(shape: RowShape, answers: ReadonlyMap<string, string>): Assembled {
  const restored = (p: Part): string => keepEdgeWhitespace(p.source, restore(answers.get(p.name) ?? '', p.tokens));
  if (shape.kind === 'plain') return { text: restored(shape.parts[0]!), plurals: null };
  const inner = shape.kind === 'icu' ? (text: string) => withoutEdges(text, shape.leading, shape.trailing) : (text: string) => text;
  const forms: PluralForms = {};
  const exact: Record<string, string> = {};
  for (const p of shape.parts) {
    if (p.name.startsWith('=')) exact[p.name] = inner(restored(p));
    else forms[p.name as PluralCategory] = inner(restored(p));
  }
  if (shape.kind === 'plurals') return { text: forms.other ?? Object.values(forms)[0] ?? '', plurals: forms };
  return { text: `${shape.leading}${writeIcuPlural(shape.argument, forms, exact, shape.offset)}${shape.trailing}`, plurals: null };
}

/** `text` without `leading` at its start and `trailing` at its end, each where present. */
function withoutEdges(text: string, leading: string, trailing: string): string {
  const start = text.startsWith(leading) ? leading.length : 0;
  const end = text.endsWith(trailing) && text.length - trailing.length >= start ? text.length - trailing.length : text.length;
  return text.slice(start, end);
}
