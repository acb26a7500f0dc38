/** Splits a UI string into translatable text and protected placeholders, ICU syntax and markup, and masks the protected parts for machine translation. */

/**
 * - `text`: translatable literal text (including the text inside ICU plural/select branches).
 * - `placeholder`: a variable the program substitutes ({name}, %1$s, :name, {count, number}, ...).
 * - `markup`: HTML/XML tags, comments and character entities.
 * - `icu`: ICU plural/select structure: the argument head with selectors and braces, and `#` in plural branches.
 */
export type SegmentKind = 'text' | 'placeholder' | 'markup' | 'icu';

export interface Segment {
  readonly kind: SegmentKind;
  readonly value: string;
}

// Sticky patterns: each is tried at one position only, so the scanner never skips over text.
const TRIPLE_BRACE = /\{\{\{[^{}\n]+\}\}\}/y;
const DOUBLE_BRACE = /\{\{[^{}\n]+\}\}/y;
const SIMPLE_NAMED = /\{\s*[\p{L}_$][\p{L}\p{N}_$.-]*(?:![rsa])?(?::[^{}]*)?\s*\}/uy;
const SIMPLE_INDEXED = /\{\s*\d+(?:\s*,\s*-?\d+)?(?:![rsa])?(?::[^{}]*)?\s*\}/y;
const EMPTY_FORMAT = /\{(?::[^{}]*)?\}/y;
const ICU_COMPLEX_HEAD = /\{\s*([\p{L}\p{N}_$][\p{L}\p{N}_$.-]*)\s*,\s*(plural|selectordinal|select)\s*,\s*/uy;
const ICU_OFFSET = /offset\s*:\s*\d+\s*/y;
const ICU_SELECTOR = /(?:=\s*-?\d+(?:\.\d+)?|[\p{L}_][\p{L}\p{N}_-]*)\s*\{/uy;
const ICU_SIMPLE_HEAD = /\{\s*[\p{L}\p{N}_$][\p{L}\p{N}_$.-]*\s*,\s*[A-Za-z]+\s*([,}])/uy;
const WHITESPACE = /\s*/y;
const BRACE_PLACEHOLDERS = [TRIPLE_BRACE, DOUBLE_BRACE, SIMPLE_NAMED, SIMPLE_INDEXED, EMPTY_FORMAT];

const PERCENT_PATTERNS = [
  /%%/y,
  // Ruby/Rails %{name} and %<name>d.
  /%\{[^{}\s]+\}/y,
  /%<[A-Za-z_]\w*>[-+0#]*\d*(?:\.\d+)?[diouxXeEfFgGaAcsp]/y,
  // Python %(name)s.
  /%\([\w.]+\)[-+0# ]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]/y,
  // iOS .stringsdict variable reference %#@items@.
  /%#@[A-Za-z_]\w*@/y,
  // printf / NSString / Android / Java, optionally positional (%1$s). The space flag is left out on purpose: "50% off" is prose.
  /%(?:\d+\$)?[-+0#]*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?[diouxXeEfFgGaAcCsSpn@]/y,
  // Qt %1.
  /%\d+/y,
];
const DOLLAR_PATTERNS = [
  /\$\{[^{}\n]+\}/y, // JS template / Java / Kotlin ${name}
  /\$t\([^()\n]*\)/y, // i18next nesting $t(key)
  /\$[A-Za-z_]\w*\$/y, // Chrome extension messages $USER$
];
// Laravel :name. ASCII letter after the colon so "Note: x", "http://" and "12:30" stay prose.
const LARAVEL = /:[A-Za-z][A-Za-z0-9_]*/y;
const LARAVEL_PREV = /[\s\p{P}\p{S}]/u;
const TAG = /<\/?[A-Za-z][\w:.-]*(?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/y;
const COMMENT = /<!--[\s\S]*?-->/y;
const ENTITY = /&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#[xX][0-9A-Fa-f]{1,6});/y;

// `test` on a sticky pattern leaves lastIndex at the match's end, and allocates no match array.
function matchAt(re: RegExp, src: string, pos: number): number | null {
  re.lastIndex = pos;
  return re.test(src) ? re.lastIndex : null;
}

function push(out: Segment[], kind: SegmentKind, value: string): void {
  if (value === '') return;
  const last = out[out.length - 1];
  // Adjacent literal characters form one text segment; protected segments stay individual so they can be reordered.
  if (kind === 'text' && last?.kind === 'text') {
    out[out.length - 1] = { kind: 'text', value: last.value + value };
  } else {
    out.push({ kind, value });
  }
}

/** `push` for a segment already built. */
function append(out: Segment[], segment: Segment): void {
  if (segment.kind === 'text') push(out, 'text', segment.value);
  else out.push(segment);
}

/** Real messages nest two or three levels; the cap keeps hostile input from exhausting the stack. */
const MAX_ICU_DEPTH = 16;

interface Scanner {
  readonly src: string;
  /** Positions (×2, +1 inside plural) already known not to start a well-formed ICU block: avoids rescanning them. */
  failed?: Set<number>;
  depth: number;
  /** For each `{`, the index of its `}` by plain brace counting, or -1; computed on the first ICU candidate. */
  closeOf?: Int32Array;
}

// One table serves every tokenize call of ordinary length (tokenizing runs no callbacks, so calls never overlap): a
// typed array of a few hundred bytes lives outside the heap, and allocating one per message cost more than the scan.
const SHARED_CLOSES = new Int32Array(2048);

function closeOf(sc: Scanner): Int32Array {
  if (sc.closeOf) return sc.closeOf;
  const { src } = sc;
  const close = src.length <= SHARED_CLOSES.length ? SHARED_CLOSES.fill(-1, 0, src.length) : new Int32Array(src.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const code = src.charCodeAt(i);
    if (code === 0x7b) open.push(i);
    else if (code === 0x7d && open.length) close[open.pop() as number] = i;
  }
  sc.closeOf = close;
  return close;
}

/** A protected token starting at `pos` (not ICU plural/select), or null. */
function protectedAt(sc: Scanner, pos: number, inPlural: boolean): { kind: SegmentKind; end: number } | null {
  const { src } = sc;
  const ch = src[pos];
  let end: number | null = null;
  switch (ch) {
    case '{': {
      // `{{` and `{{{` forms need a second brace; the others cannot start with one.
      for (let i = src.charCodeAt(pos + 1) === 0x7b ? 0 : 2; i < BRACE_PLACEHOLDERS.length; i++) {
        end = matchAt(BRACE_PLACEHOLDERS[i] as RegExp, src, pos);
        if (end !== null) return { kind: 'placeholder', end };
      }
      ICU_SIMPLE_HEAD.lastIndex = pos;
      const m = ICU_SIMPLE_HEAD.exec(src);
      if (m) {
        if (m[1] === '}') return { kind: 'placeholder', end: pos + m[0].length };
        const close = closeOf(sc)[pos] as number;
        if (close !== -1) return { kind: 'placeholder', end: close + 1 };
      }
      return null;
    }
    case '%': {
      // The first five forms each need their own second character (`%%`, `%{`, `%<`, `%(`, `%#`); others start at printf.
      const next = src.charCodeAt(pos + 1);
      const from = next === 0x25 || next === 0x7b || next === 0x3c || next === 0x28 || next === 0x23 ? 0 : 5;
      for (let i = from; i < PERCENT_PATTERNS.length; i++) {
        end = matchAt(PERCENT_PATTERNS[i] as RegExp, src, pos);
        if (end !== null) return { kind: 'placeholder', end };
      }
      return null;
    }
    case '$':
      for (const re of DOLLAR_PATTERNS) {
        end = matchAt(re, src, pos);
        if (end !== null) return { kind: 'placeholder', end };
      }
      return null;
    case ':': {
      const prev = pos === 0 ? undefined : src[pos - 1];
      if (prev !== undefined && (prev === ':' || !LARAVEL_PREV.test(prev))) return null;
      end = matchAt(LARAVEL, src, pos);
      return end === null ? null : { kind: 'placeholder', end };
    }
    case '<':
      end = (src.charCodeAt(pos + 1) === 0x21 ? matchAt(COMMENT, src, pos) : null) ?? matchAt(TAG, src, pos);
      return end === null ? null : { kind: 'markup', end };
    case '&':
      end = matchAt(ENTITY, src, pos);
      return end === null ? null : { kind: 'markup', end };
    case '#':
      return inPlural ? { kind: 'icu', end: pos + 1 } : null;
    default:
      return null;
  }
}

/**
 * Parses `{arg, plural|select|selectordinal, sel {...} ...}` at `pos`. Returns null when the text is not
 * well-formed ICU, so a stray `{` falls back to literal text instead of swallowing the rest of the string.
 */
function icuComplexAt(sc: Scanner, pos: number, inPlural: boolean): { segments: Segment[]; end: number } | null {
  // Most braces are plain placeholders: the head, which cannot reach past the next brace, rules them out in one short
  // match, so only heads are worth remembering as failed. Before the head's first comma come only spaces and name
  // characters: anything else first (the `}` of `{name}`) rules it out without the pattern.
  if (!commaMayFollow(sc.src, pos + 1)) return null;
  ICU_COMPLEX_HEAD.lastIndex = pos;
  const head = ICU_COMPLEX_HEAD.exec(sc.src);
  if (!head) return null;
  const key = pos * 2 + (inPlural ? 1 : 0);
  if (sc.depth >= MAX_ICU_DEPTH || sc.failed?.has(key)) return null;
  sc.depth++;
  const parsed = parseIcuComplex(sc, pos, inPlural, head);
  sc.depth--;
  if (!parsed) (sc.failed ??= new Set()).add(key);
  return parsed;
}

const isAsciiLetter = (code: number): boolean => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
const isAsciiDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isAsciiSpace = (code: number): boolean => code === 0x20 || (code >= 0x09 && code <= 0x0d);

/** False when the text from `p` reaches an ASCII character that can be neither space nor name before a comma. */
function commaMayFollow(src: string, p: number): boolean {
  for (let q = p; q < src.length; q++) {
    const code = src.charCodeAt(q);
    if (code === 0x2c) return true;
    if (code >= 0x80 || isAsciiLetter(code) || isAsciiDigit(code) || isAsciiSpace(code) || code === 0x5f || code === 0x24 || code === 0x2e || code === 0x2d) continue;
    return false;
  }
  return false;
}

/** `matchAt(ICU_SELECTOR, …)`, read by hand while the selector and the space after it are ASCII. */
function selectorAt(src: string, p: number): number | null {
  let code = src.charCodeAt(p);
  if (!isAsciiLetter(code) && code !== 0x5f) return code >= 0x80 || code === 0x3d ? matchAt(ICU_SELECTOR, src, p) : null;
  let q = p;
  do code = src.charCodeAt(++q);
  while (isAsciiLetter(code) || isAsciiDigit(code) || code === 0x5f || code === 0x2d);
  while (isAsciiSpace(code)) code = src.charCodeAt(++q);
  if (code === 0x7b) return q + 1;
  // A letter or a space beyond ASCII may still continue the selector: the pattern decides.
  return code >= 0x80 ? matchAt(ICU_SELECTOR, src, p) : null;
}

function parseIcuComplex(sc: Scanner, pos: number, inPlural: boolean, head: RegExpExecArray): { segments: Segment[]; end: number } | null {
  const { src } = sc;
  // Well-formed ICU has balanced braces, so each block must end at its plain-count partner. Checking that first
  // bounds every branch scan, which keeps malformed or hostile input linear instead of rescanning to the end.
  const closes = closeOf(sc);
  const blockEnd = closes[pos] as number;
  if (blockEnd < 0) return null;
  const type = head[2];
  // `#` stays the plural number inside a select nested in a plural, as messageformat implementations treat it.
  const branchPlural = type === 'select' ? inPlural : true;
  const segments: Segment[] = [];
  let p = pos + head[0].length;
  // The structure between two branches' text is one stretch of the source: from the head (or a branch's `}`) to the next `{`.
  let structure = pos;
  if (type !== 'select') p = matchAt(ICU_OFFSET, src, p) ?? p;
  let branches = 0;
  for (;;) {
    // ASCII whitespace by hand; the pattern only for what follows it beyond ASCII (a no-break space, U+2028…).
    let code = src.charCodeAt(p);
    while (isAsciiSpace(code)) code = src.charCodeAt(++p);
    if (code >= 0x80) p = matchAt(WHITESPACE, src, p) ?? p;
    if (src.charCodeAt(p) === 0x7d) {
      if (branches === 0 || p !== blockEnd) return null;
      segments.push({ kind: 'icu', value: src.slice(structure, p + 1) });
      return { segments, end: p + 1 };
    }
    const sel = selectorAt(src, p);
    if (sel === null) return null;
    const branchEnd = closes[sel - 1] as number;
    if (branchEnd < 0 || branchEnd > blockEnd) return null;
    segments.push({ kind: 'icu', value: src.slice(structure, sel) });
    // The branch's segments follow the structure directly: an icu segment never merges with text.
    const close = scan(sc, sel, segments, true, branchPlural, branchEnd);
    if (close !== branchEnd) return null;
    structure = close;
    p = close + 1;
    branches++;
  }
}

// The characters a protected token or an ICU block can start with (`}` ends a nested branch): every other character is
// literal text, which the scanner passes over without a look-up.
const NEXT_SPECIAL = /[{}%$:<&#]/g;
const SPECIAL = new Uint8Array(128);
for (const ch of '{}%$:<&#') SPECIAL[ch.charCodeAt(0)] = 1;

/**
 * Scans from `pos` up to `limit`; when `nested`, stops at the first unmatched `}` and returns its index. A run of
 * literal text is cut out in one slice when the next token starts, not built up one character at a time.
 */
function scan(sc: Scanner, pos: number, out: Segment[], nested: boolean, inPlural: boolean, limit = sc.src.length): number {
  const { src } = sc;
  let p = pos;
  let text = pos;
  while (p < limit) {
    let code = src.charCodeAt(p);
    // Tokens often follow one another (`{# files}`): look at the character in hand before searching on.
    if (code >= 0x80 || SPECIAL[code] === 0) {
      NEXT_SPECIAL.lastIndex = p + 1;
      if (!NEXT_SPECIAL.test(src) || NEXT_SPECIAL.lastIndex > limit) {
        p = limit;
        break;
      }
      p = NEXT_SPECIAL.lastIndex - 1;
      code = src.charCodeAt(p);
    }
    if (code === 0x7d) {
      if (nested) break;
      p++;
      continue;
    }
    if (code === 0x7b) {
      const icu = icuComplexAt(sc, p, inPlural);
      if (icu) {
        push(out, 'text', src.slice(text, p));
        for (const s of icu.segments) append(out, s);
        p = text = icu.end;
        continue;
      }
    }
    const tok = protectedAt(sc, p, inPlural);
    if (tok) {
      push(out, 'text', src.slice(text, p));
      push(out, tok.kind, src.slice(p, tok.end));
      p = text = tok.end;
      continue;
    }
    p++;
  }
  push(out, 'text', src.slice(text, Math.min(p, limit)));
  return p;
}

export interface TokenizeOptions {
  /** The text is one branch of an ICU plural (a plural form taken out of its message): `#` is the number, not text. */
  pluralBranch?: boolean;
}

/** Splits `text` into segments whose values concatenate back to `text` exactly. */
export function tokenize(text: string, options: TokenizeOptions = {}): Segment[] {
  const out: Segment[] = [];
  scan({ src: text, depth: 0 }, 0, out, false, options.pluralBranch === true);
  return out;
}

/**
 * The placeholder tokens of `text` in order, without markup or ICU plural/select structure. ICU structure is left
 * out because a correct translation may have different plural branches (and so a different number of `#`).
 */
export function placeholdersOf(text: string): string[] {
  return tokenize(text)
    .filter((s) => s.kind === 'placeholder')
    .map((s) => s.value);
}

/** Replaces every protected segment with `<ph id="N"/>`; `tokens[N]` is the original text. */
export function mask(text: string, options: TokenizeOptions = {}): { masked: string; tokens: string[] } {
  const tokens: string[] = [];
  let masked = '';
  for (const s of tokenize(text, options)) {
    if (s.kind === 'text') {
      masked += s.value;
    } else {
      masked += `<ph id="${tokens.length}"/>`;
      tokens.push(s.value);
    }
  }
  return { masked, tokens };
}

// Lenient about quoting, spacing and a stray closing tag, since machine translators reformat tokens slightly.
const PH_TOKEN = /<ph\s+id\s*=\s*["']?(\d+)["']?\s*\/?>(?:<\/ph>)?/g;

/** True for a token that opens or closes a block (e.g. `{n, plural, one {` or `} other {`) rather than a whole `{name}`. */
function isBlockBoundary(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === '{') depth++;
    else if (ch === '}' && --depth < 0) return true;
  }
  return depth !== 0;
}

/** Restores the tokens of `mask` into a (translated) masked string; fails unless every id appears exactly once. */
export function unmask(masked: string, tokens: readonly string[]): { ok: true; text: string } | { ok: false; reason: string } {
  const seen = new Map<number, number>();
  const order: number[] = [];
  const unknown: number[] = [];
  for (const m of masked.matchAll(PH_TOKEN)) {
    const id = Number(m[1]);
    if (id >= tokens.length) {
      unknown.push(id);
      continue;
    }
    seen.set(id, (seen.get(id) ?? 0) + 1);
    order.push(id);
  }
  const missing: number[] = [];
  const duplicated: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const n = seen.get(i) ?? 0;
    if (n === 0) missing.push(i);
    else if (n > 1) duplicated.push(i);
  }
  const problems: string[] = [];
  if (missing.length) problems.push(`missing placeholder ids ${missing.join(', ')}`);
  if (unknown.length) problems.push(`unknown placeholder ids ${[...new Set(unknown)].join(', ')}`);
  if (duplicated.length) problems.push(`duplicated placeholder ids ${duplicated.join(', ')}`);
  if (problems.length) return { ok: false, reason: problems.join('; ') };

  // Tokens that open or close an ICU block only make sense in their original order; moving them breaks the message.
  const structural = order.filter((id) => isBlockBoundary(tokens[id] as string));
  for (let i = 1; i < structural.length; i++) {
    if ((structural[i] as number) < (structural[i - 1] as number)) {
      return { ok: false, reason: `ICU structure reordered (placeholder id ${structural[i]} moved before ${structural[i - 1]})` };
    }
  }
  const text = masked.replace(PH_TOKEN, (_m, id: string) => tokens[Number(id)] as string);
  return { ok: true, text };
}

/**
 * Puts the tokens of `mask` back wherever the translation kept them, without judging: a dropped token stays dropped, a
 * repeated one is repeated and an unknown id stays as written, so the quality gates see (and name) what really changed.
 */
export function restore(masked: string, tokens: readonly string[]): string {
  return masked.replace(PH_TOKEN, (whole: string, id: string) => tokens[Number(id)] ?? whole);
}
