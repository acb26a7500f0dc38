// The xlsx codec's cell text: XML references and OOXML's `_xHHHH_` escapes decoded, as the fast scanner and the grid read them.
import { decodePredefined } from './xml-scan.js';

/** OOXML writes characters XML cannot carry as `_xHHHH_` (and a literal `_xHHHH_` with its '_' as `_x005F_`). */
export function unescapeOoxml(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

/** `t` from `start` to `end` with its references decoded, as one flat string. */
export function decodedText(t: string, start: number, end: number): string {
  let amp = ampersand(t, start, end);
  if (amp < 0) return t.slice(start, end);
  let out = '';
  let from = start;
  for (; amp >= 0; amp = ampersand(t, from, end)) {
    const length = referenceLength(t, amp);
    out += t.slice(from, amp) + decodeReference(t, amp, length);
    from = amp + length;
  }
  out += t.slice(from, end);
  // Flattened now, rather than kept as a chain of pieces until first read.
  out.charCodeAt(0);
  return out;
}

/**
 * The first '&' of `t` from `from` to `end`, or -1. Searched within the range only: a search of the whole text finds
 * nothing in a sheet without references but after reading all of it, for every cell.
 */
function ampersand(t: string, from: number, end: number): number {
  for (let i = from; i < end; i++) if (t.charCodeAt(i) === 0x26) return i;
  return -1;
}

/**
 * The length of a built-in entity or character reference at `at` (the `&`), or 0 for anything else: other entities
 * and references to characters XML forbids are left to the shared scanner.
 */
export function referenceLength(t: string, at: number): number {
  const c = t.charCodeAt(at + 1);
  if (c !== 0x23 /* # */) {
    if (c === 0x61 /* a */) return t.startsWith('mp;', at + 2) ? 5 : t.startsWith('pos;', at + 2) ? 6 : 0;
    if (c === 0x6c /* l */ || c === 0x67 /* g */) return t.charCodeAt(at + 2) === 0x74 && t.charCodeAt(at + 3) === 0x3b ? 4 : 0;
    if (c === 0x71 /* q */) return t.startsWith('uot;', at + 2) ? 6 : 0;
    return 0;
  }
  const hex = t.charCodeAt(at + 2) === 0x78; /* x */
  const digitsStart = at + (hex ? 3 : 2);
  let end = digitsStart;
  let code = 0;
  for (;;) {
    const d = t.charCodeAt(end);
    let value: number;
    if (d >= 0x30 && d <= 0x39) value = d - 0x30;
    else if (hex && ((d >= 0x41 && d <= 0x46) || (d >= 0x61 && d <= 0x66))) value = (d | 0x20) - 0x57;
    else break;
    code = code * (hex ? 16 : 10) + value;
    if (code > 0x10ffff) return 0;
    end++;
  }
  if (end === digitsStart || t.charCodeAt(end) !== 0x3b /* ; */) return 0;
  const allowed = code === 0x09 || code === 0x0a || code === 0x0d || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
  return allowed ? end + 1 - at : 0;
}

function decodeReference(t: string, at: number, length: number): string {
  if (t.charCodeAt(at + 1) !== 0x23 /* # */) return decodePredefined(t, at);
  const hex = t.charCodeAt(at + 2) === 0x78;
  return String.fromCodePoint(parseInt(t.slice(at + (hex ? 3 : 2), at + length - 1), hex ? 16 : 10));
}
