// gettext Plural-Forms per locale: which msgstr[i] holds which CLDR category, and the header formula that picks it.
import type { PluralCategory } from './codec.js';
import { pluralCategories } from '../plurals.js';

/** How a gettext catalog for one locale lays out its plural forms. */
export interface GettextPlurals {
  /** CLDR categories by msgstr index: msgstr[i] holds `categories[i]`. Always the locale's full CLDR set, in CLDR order. */
  categories: PluralCategory[];
  nplurals: number;
  /** The C expression mapping n to an index. */
  plural: string;
  /** The header field's value, e.g. `nplurals=2; plural=(n != 1);`. */
  header: string;
}

/**
 * Rule shapes, each an expression returning the index of `Intl.PluralRules#select(n)` in the CLDR-ordered category list.
 * Every CLDR category gets a slot, including ones only fractions reach (pl `other`, cs `many`): the service sends a
 * complete CLDR set and must get every form back, and gettext simply never selects those slots for an integer n.
 */
const SHAPES = {
  other: { categories: ['other'], plural: '0' },
  one: { categories: ['one', 'other'], plural: '(n != 1)' },
  oneZeroOne: { categories: ['one', 'other'], plural: '(n > 1)' },
  oneMod10: { categories: ['one', 'other'], plural: '(n % 10 != 1 || n % 100 == 11)' },
  oneMany: { categories: ['one', 'many', 'other'], plural: '(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2)' },
  oneZeroOneMany: { categories: ['one', 'many', 'other'], plural: '(n == 0 || n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2)' },
  eastSlavic: {
    categories: ['one', 'few', 'many', 'other'],
    plural: '(n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2)',
  },
  polish: {
    categories: ['one', 'few', 'many', 'other'],
    plural: '(n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2)',
  },
  westSlavic: { categories: ['one', 'few', 'many', 'other'], plural: '(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 3)' },
  southSlavic: {
    categories: ['one', 'few', 'other'],
    plural: '(n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2)',
  },
  slovenian: { categories: ['one', 'two', 'few', 'other'], plural: '(n % 100 == 1 ? 0 : n % 100 == 2 ? 1 : n % 100 == 3 || n % 100 == 4 ? 2 : 3)' },
  romanian: { categories: ['one', 'few', 'other'], plural: '(n == 1 ? 0 : n == 0 || n % 100 >= 1 && n % 100 <= 19 ? 1 : 2)' },
  lithuanian: {
    categories: ['one', 'few', 'many', 'other'],
    plural: '(n % 10 == 1 && (n % 100 < 11 || n % 100 > 19) ? 0 : n % 10 >= 2 && (n % 100 < 11 || n % 100 > 19) ? 1 : 3)',
  },
  latvian: { categories: ['zero', 'one', 'other'], plural: '(n % 10 == 0 || n % 100 >= 11 && n % 100 <= 19 ? 0 : n % 10 == 1 && n % 100 != 11 ? 1 : 2)' },
  arabic: {
    categories: ['zero', 'one', 'two', 'few', 'many', 'other'],
    plural: '(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5)',
  },
  hebrew: { categories: ['one', 'two', 'other'], plural: '(n == 1 ? 0 : n == 2 ? 1 : 2)' },
  irish: { categories: ['one', 'two', 'few', 'many', 'other'], plural: '(n == 1 ? 0 : n == 2 ? 1 : n >= 3 && n <= 6 ? 2 : n >= 7 && n <= 10 ? 3 : 4)' },
  welsh: { categories: ['zero', 'one', 'two', 'few', 'many', 'other'], plural: '(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n == 3 ? 3 : n == 6 ? 4 : 5)' },
  maltese: {
    categories: ['one', 'two', 'few', 'many', 'other'],
    plural: '(n == 1 ? 0 : n == 2 ? 1 : n == 0 || n % 100 >= 3 && n % 100 <= 10 ? 2 : n % 100 >= 11 && n % 100 <= 19 ? 3 : 4)',
  },
  scottishGaelic: {
    categories: ['one', 'two', 'few', 'other'],
    plural: '(n == 1 || n == 11 ? 0 : n == 2 || n == 12 ? 1 : n >= 3 && n <= 10 || n >= 13 && n <= 19 ? 2 : 3)',
  },
  breton: {
    categories: ['one', 'two', 'few', 'many', 'other'],
    plural:
      '(n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91 ? 0 : n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92 ? 1 : ' +
      '(n % 10 == 3 || n % 10 == 4 || n % 10 == 9) && (n % 100 < 10 || n % 100 > 19) && (n % 100 < 70 || n % 100 > 79) && (n % 100 < 90 || n % 100 > 99) ? 2 : ' +
      'n != 0 && n % 1000000 == 0 ? 3 : 4)',
  },
  filipino: { categories: ['one', 'other'], plural: '(n % 10 == 4 || n % 10 == 6 || n % 10 == 9)' },
  centralAtlasTamazight: { categories: ['one', 'other'], plural: '(n == 0 || n == 1 || n >= 11 && n <= 99 ? 0 : 1)' },
  tachelhit: { categories: ['one', 'few', 'other'], plural: '(n == 0 || n == 1 ? 0 : n >= 2 && n <= 10 ? 1 : 2)' },
  samogitian: {
    categories: ['one', 'two', 'few', 'many', 'other'],
    plural: '(n % 10 == 1 && n % 100 != 11 ? 0 : n == 2 ? 1 : n % 10 >= 2 && (n % 100 < 11 || n % 100 > 19) ? 2 : 4)',
  },
  manx: {
    categories: ['one', 'two', 'few', 'many', 'other'],
    plural: '(n % 10 == 1 ? 0 : n % 10 == 2 ? 1 : n % 100 == 0 || n % 100 == 20 || n % 100 == 40 || n % 100 == 60 || n % 100 == 80 ? 2 : 4)',
  },
  cornish: {
    categories: ['zero', 'one', 'two', 'few', 'many', 'other'],
    plural:
      '(n == 0 ? 0 : n == 1 ? 1 : n % 100 == 2 || n % 100 == 22 || n % 100 == 42 || n % 100 == 62 || n % 100 == 82 || ' +
      'n % 1000 == 0 && (n % 100000 >= 1000 && n % 100000 <= 20000 || n % 100000 == 40000 || n % 100000 == 60000 || n % 100000 == 80000) || ' +
      'n != 0 && n % 1000000 == 100000 ? 2 : n % 100 == 3 || n % 100 == 23 || n % 100 == 43 || n % 100 == 63 || n % 100 == 83 ? 3 : ' +
      'n != 1 && (n % 100 == 1 || n % 100 == 21 || n % 100 == 41 || n % 100 == 61 || n % 100 == 81) ? 4 : 5)',
  },
  oneTwo: { categories: ['one', 'two', 'other'], plural: '(n == 1 ? 0 : n == 2 ? 1 : 2)' },
  zeroOne: { categories: ['zero', 'one', 'other'], plural: '(n == 0 ? 0 : n == 1 ? 1 : 2)' },
} as const satisfies Record<string, { categories: readonly PluralCategory[]; plural: string }>;

type Shape = (typeof SHAPES)[keyof typeof SHAPES];

/** The languages the service names explicitly, by BCP-47 tag (language, or language-region where a region differs). */
export const GETTEXT_PLURAL_TABLE: Readonly<Record<string, keyof typeof SHAPES>> = {
  en: 'one', de: 'one', nl: 'one', sv: 'one', da: 'one', nb: 'one', fi: 'one', el: 'one', hu: 'one', tr: 'one',
  fr: 'oneZeroOneMany', pt: 'oneZeroOneMany',
  es: 'oneMany', it: 'oneMany', ca: 'oneMany', 'pt-PT': 'oneMany',
  ru: 'eastSlavic', uk: 'eastSlavic', be: 'eastSlavic',
  pl: 'polish',
  cs: 'westSlavic', sk: 'westSlavic',
  hr: 'southSlavic', sr: 'southSlavic', bs: 'southSlavic',
  sl: 'slovenian',
  ro: 'romanian',
  lt: 'lithuanian',
  lv: 'latvian',
  ar: 'arabic',
  he: 'hebrew',
  ja: 'other', zh: 'other', ko: 'other', vi: 'other', th: 'other', id: 'other', ms: 'other',
  ga: 'irish',
  cy: 'welsh',
  is: 'oneMod10', mk: 'oneMod10',
  mt: 'maltese',
  gd: 'scottishGaelic',
  br: 'breton',
  fil: 'filipino', tl: 'filipino',
  kw: 'cornish',
};

/** Integers that tell the shapes apart: every residue mod 100 twice over, plus the millions that CLDR's `many` rules name. */
const SAMPLES: readonly number[] = [
  ...Array.from({ length: 1001 }, (_, n) => n),
  2000, 20000, 21000, 40000, 41000, 100000, 200000, 1000000, 1000001, 1000010, 1100000, 2000000, 10000000,
];

const cache = new Map<string, GettextPlurals>();

/**
 * The plural layout to write a catalog for `locale` in. Looks the locale up in the table (full tag, then language),
 * checks the shape against the locale's own `Intl.PluralRules` (so region variants with other rules are caught),
 * and otherwise picks the first shape that agrees with them. Locales no shape fits (none among CLDR's) fall back to
 * one slot per category, chosen for n = 0, 1 and 2 and `other` beyond, which keeps every form the service sends.
 */
export function gettextPlurals(locale: string): GettextPlurals {
  const cached = cache.get(locale);
  if (cached) return cached;
  const categories = pluralCategories(locale);
  const rules = new Intl.PluralRules(locale);
  const fits = (shape: Shape): boolean =>
    sameList(shape.categories, categories) && SAMPLES.every((n) => shape.categories[evaluateSafely(shape.plural, n)] === rules.select(n));
  const tags = tagCandidates(locale);
  const named = tags.map((t) => GETTEXT_PLURAL_TABLE[t]).find((name) => name !== undefined);
  const preferred = named === undefined ? undefined : SHAPES[named];
  const shape = preferred && fits(preferred) ? preferred : Object.values(SHAPES).find(fits);
  const result = shape ? layout([...shape.categories], shape.plural) : fallback(categories, rules);
  cache.set(locale, result);
  return result;
}

function layout(categories: PluralCategory[], plural: string): GettextPlurals {
  return { categories, nplurals: categories.length, plural, header: `nplurals=${categories.length}; plural=${plural};` };
}

function fallback(categories: PluralCategory[], rules: Intl.PluralRules): GettextPlurals {
  if (categories.length === 1) return layout(categories, '0');
  const other = categories.indexOf('other');
  const branches = [0, 1, 2]
    .map((n) => [n, categories.indexOf(rules.select(n) as PluralCategory)] as const)
    .filter(([, index]) => index !== other && index >= 0)
    .map(([n, index]) => `n == ${n} ? ${index} : `);
  return layout(categories, `(${branches.join('')}${other})`);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The table keys to try for a locale: its canonical full tag, language-region, then the bare language. */
function tagCandidates(locale: string): string[] {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(locale)[0] ?? locale;
  } catch {
    canonical = locale;
  }
  const parsed = new Intl.Locale(canonical);
  const out = [canonical];
  if (parsed.region) out.push(`${parsed.language}-${parsed.region}`);
  out.push(parsed.language);
  return out;
}

function evaluateSafely(expression: string, n: number): number {
  return compilePluralExpression(expression)(n);
}

const compiled = new Map<string, (n: number) => number>();

/**
 * Compiles a gettext plural expression (C syntax: ?: || && == != < > <= >= + - * / % ! and parentheses over n)
 * into a function. Throws an Error naming the position on a syntax error; division by zero yields 0, as it must not throw.
 */
export function compilePluralExpression(expression: string): (n: number) => number {
  const known = compiled.get(expression);
  if (known) return known;
  const fn = new ExpressionParser(expression).parse();
  compiled.set(expression, fn);
  return fn;
}

type Fn = (n: number) => number;

const BINARY: readonly (readonly [string, (a: number, b: number) => number][])[] = [
  [['||', (a, b) => (a || b ? 1 : 0)]],
  [['&&', (a, b) => (a && b ? 1 : 0)]],
  [
    ['==', (a, b) => (a === b ? 1 : 0)],
    ['!=', (a, b) => (a !== b ? 1 : 0)],
  ],
  [
    ['<=', (a, b) => (a <= b ? 1 : 0)],
    ['>=', (a, b) => (a >= b ? 1 : 0)],
    ['<', (a, b) => (a < b ? 1 : 0)],
    ['>', (a, b) => (a > b ? 1 : 0)],
  ],
  [
    ['+', (a, b) => a + b],
    ['-', (a, b) => a - b],
  ],
  [
    ['*', (a, b) => a * b],
    ['/', (a, b) => (b === 0 ? 0 : Math.trunc(a / b))],
    ['%', (a, b) => (b === 0 ? 0 : a % b)],
  ],
];

class ExpressionParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): Fn {
    const fn = this.ternary();
    this.space();
    if (this.pos < this.text.length) this.fail('Expected an operator or the end of the expression');
    return fn;
  }

  private fail(message: string): never {
    throw new Error(`${message} at column ${this.pos + 1} of the plural expression`);
  }

  private space(): void {
    while (/\s/.test(this.text.charAt(this.pos))) this.pos++;
  }

  private eat(token: string): boolean {
    this.space();
    if (!this.text.startsWith(token, this.pos)) return false;
    // `|` and `&` alone, or `=` after `<`/`>`, are not the tokens asked for.
    if ((token === '<' || token === '>' || token === '!') && this.text.charAt(this.pos + 1) === '=') return false;
    this.pos += token.length;
    return true;
  }

  private ternary(): Fn {
    const test = this.binary(0);
    if (!this.eat('?')) return test;
    const yes = this.ternary();
    if (!this.eat(':')) this.fail("Expected ':' in a conditional expression");
    const no = this.ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }

  private binary(level: number): Fn {
    const operators = BINARY[level];
    if (!operators) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const match = operators.find(([token]) => this.eat(token));
      if (!match) return left;
      const right = this.binary(level + 1);
      const [, apply] = match;
      const l = left;
      left = (n) => apply(l(n), right(n));
    }
  }

  private unary(): Fn {
    if (this.eat('!')) {
      const operand = this.unary();
      return (n) => (operand(n) ? 0 : 1);
    }
    if (this.eat('(')) {
      const inner = this.ternary();
      if (!this.eat(')')) this.fail("Expected ')'");
      return inner;
    }
    this.space();
    const rest = this.text.slice(this.pos);
    const number = /^\d+/.exec(rest);
    if (number) {
      this.pos += number[0].length;
      const value = Number(number[0]);
      return () => value;
    }
    if (/^n(?![\w])/.test(rest)) {
      this.pos++;
      return (n) => n;
    }
    this.fail("Expected 'n', a number, '!' or '('");
  }
}
