/** Identifiers: a type prefix plus a time-ordered, random tail, so ids sort by creation (lists page by id). */
import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

let lastTime = 0;
let lastTail: Uint8Array<ArrayBufferLike> = new Uint8Array(10);

function encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

/** A ULID-like id: 48-bit millisecond time then 80 random bits, monotonic within one process. */
export function newId(prefix: string, now = Date.now()): string {
  let tail: Uint8Array<ArrayBufferLike>;
  if (now <= lastTime) {
    // Same millisecond: increment the previous tail so ids stay strictly ordered.
    now = lastTime;
    tail = Uint8Array.from(lastTail);
    for (let i = tail.length - 1; i >= 0; i--) {
      tail[i] = (tail[i]! + 1) & 0xff;
      if (tail[i] !== 0) break;
    }
  } else {
    tail = randomBytes(10);
  }
  lastTime = now;
  lastTail = tail;
  const time = new Uint8Array(6);
  let t = now;
  for (let i = 5; i >= 0; i--) {
    time[i] = t % 256;
    t = Math.floor(t / 256);
  }
  return `${prefix}_${encode(time)}${encode(tail)}`;
}

/** A wholly random id (no time part, nothing to guess from): `prefix_` and 32 base32 characters of 160 random bits. */
export function newSecretId(prefix: string): string {
  return `${prefix}_${encode(randomBytes(20))}`;
}
