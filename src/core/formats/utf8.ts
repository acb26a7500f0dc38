// UTF-8 well-formedness, shared by the scanners that must name the line and column of a bad byte.

/** Byte index of the first ill-formed UTF-8 sequence (per the Unicode well-formedness table), or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c === 0xe0) [need, lo] = [2, 0xa0];
    else if (c === 0xed) [need, hi] = [2, 0x9f];
    else if (c >= 0xe1 && c <= 0xef) need = 2;
    else if (c === 0xf0) [need, lo] = [3, 0x90];
    else if (c >= 0xf1 && c <= 0xf3) need = 3;
    else if (c === 0xf4) [need, hi] = [3, 0x8f];
    else return i;
    if (i + need >= b.length) return i;
    const second = b[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const next = b[i + k]!;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}
