// The byte writer the ios_xcstrings render splices a catalog with: spans of the source copied as its bytes, new text encoded.

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

// Longer pieces of new text are encoded natively; a call to encodeInto costs more than encoding a short piece in a loop.
const LOOP_ENCODE = 256;

const ENCODER = new TextEncoder();

/** The letter JSON.stringify escapes a control character with (`\n`), or 0 where it writes `\u00XX`. */
const SHORT_ESCAPES = new Uint8Array(0x20);
for (const [c, letter] of [[0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0c, 'f'], [0x0d, 'r']] as const) SHORT_ESCAPES[c] = letter.charCodeAt(0);

const HEX = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));

/** Writes `uXXXX` (lowercase, as JSON.stringify does) for the code unit `c` after a backslash, returning the end. */
function hexEscape(bytes: Uint8Array, p: number, c: number): number {
  bytes[p] = 0x75;
  bytes[p + 1] = HEX[c >> 12]!;
  bytes[p + 2] = HEX[(c >> 8) & 0xf]!;
  bytes[p + 3] = HEX[(c >> 4) & 0xf]!;
  bytes[p + 4] = HEX[c & 0xf]!;
  return p + 5;
}

/**
 * Writes a rewrite of a decoded UTF-8 file: where the text is kept, its bytes are copied from the file rather than
 * encoded again (decoding valid UTF-8 and encoding it back gives the same bytes), and new text is encoded as it comes,
 * so the rewrite holds no string of the whole.
 */
export class CatalogWriter {
  private bytes: Uint8Array;
  private size = 0;
  /** Where the text starts in `source` (past a BOM). */
  private readonly offset: number;
  /** Whether the text is ASCII, so that its indices are byte offsets from `offset`. */
  private readonly ascii: boolean;
  // For other text, the byte offset of one index, found by counting forward from the last.
  private index = 0;
  private byte: number;

  /** `text` is `source` decoded, without the BOM `source` starts with when `bom`; `capacity` is a guess at the size. */
  constructor(
    private readonly source: Uint8Array,
    private readonly text: string,
    bom: boolean,
    capacity: number,
  ) {
    this.offset = bom ? UTF8_BOM.length : 0;
    this.ascii = source.length - this.offset === text.length;
    this.byte = this.offset;
    this.bytes = new Uint8Array(Math.max(capacity, 64));
    if (bom) {
      this.bytes.set(UTF8_BOM);
      this.size = UTF8_BOM.length;
    }
  }

  /** Copies `text[from, to)`, the next part of the text kept; each begins at or after where the last ended. */
  keep(from: number, to: number): void {
    if (to <= from) return;
    const start = this.byteAt(from);
    if (start < 0) {
      this.write(this.text.slice(from, to));
      return;
    }
    this.copy(start, this.byteAt(to));
  }

  /** Copies `text[from, to)` again: a separator or colon of the file, written with new text. */
  repeat(from: number, to: number): void {
    if (to <= from) return;
    if (this.ascii) this.copy(this.offset + from, this.offset + to);
    else this.write(this.text.slice(from, to));
  }

  private copy(start: number, end: number): void {
    const length = end - start;
    this.reserve(length);
    const { bytes, source } = this;
    if (length < 32) {
      for (let i = 0; i < length; i++) bytes[this.size + i] = source[start + i]!;
    } else {
      bytes.set(source.subarray(start, end), this.size);
    }
    this.size += length;
  }

  /** Writes bytes encoded before, such as text that recurs. */
  append(piece: Uint8Array): void {
    const length = piece.length;
    this.reserve(length);
    if (length < 16) {
      const { bytes } = this;
      for (let i = 0; i < length; i++) bytes[this.size + i] = piece[i]!;
    } else {
      this.bytes.set(piece, this.size);
    }
    this.size += length;
  }

  /** Writes `JSON.stringify(value)` for a string value, in UTF-8. */
  quoted(value: string): void {
    const n = value.length;
    // An escape takes 6 bytes for one code unit, at most.
    this.reserve(n * 6 + 2);
    const bytes = this.bytes;
    let p = this.size;
    bytes[p++] = 0x22;
    for (let i = 0; i < n; i++) {
      let c = value.charCodeAt(i);
      if (c >= 0x20 && c < 0x80) {
        if (c === 0x22 || c === 0x5c) bytes[p++] = 0x5c;
        bytes[p++] = c;
      } else if (c < 0x20) {
        const short = SHORT_ESCAPES[c]!;
        bytes[p++] = 0x5c;
        if (short !== 0) {
          bytes[p++] = short;
        } else {
          p = hexEscape(bytes, p, c);
        }
      } else if (c < 0x800) {
        bytes[p++] = 0xc0 | (c >> 6);
        bytes[p++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        bytes[p++] = 0xe0 | (c >> 12);
        bytes[p++] = 0x80 | ((c >> 6) & 0x3f);
        bytes[p++] = 0x80 | (c & 0x3f);
      } else {
        const low = value.charCodeAt(i + 1);
        if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          i++;
          bytes[p++] = 0xf0 | (c >> 18);
          bytes[p++] = 0x80 | ((c >> 12) & 0x3f);
          bytes[p++] = 0x80 | ((c >> 6) & 0x3f);
          bytes[p++] = 0x80 | (c & 0x3f);
        } else {
          // JSON.stringify writes a lone surrogate as an escape.
          bytes[p++] = 0x5c;
          p = hexEscape(bytes, p, c);
        }
      }
    }
    bytes[p++] = 0x22;
    this.size = p;
  }

  /** Writes `piece` as UTF-8 (a lone surrogate as U+FFFD, as TextEncoder does). */
  write(piece: string): void {
    const n = piece.length;
    this.reserve(n * 3);
    let from = 0;
    if (n < LOOP_ENCODE) {
      // Most pieces are short and ASCII (separators, indentation, keys): copied in a loop, up to a first other unit.
      const bytes = this.bytes;
      let p = this.size;
      for (let c = piece.charCodeAt(from); from < n && c < 0x80; c = piece.charCodeAt(++from)) bytes[p++] = c;
      this.size = p;
      if (from === n) return;
    }
    this.size += ENCODER.encodeInto(from === 0 ? piece : piece.slice(from), this.bytes.subarray(this.size)).written;
  }

  /** The bytes written. */
  finish(): Uint8Array {
    return this.bytes.slice(0, this.size);
  }

  /** The offset in `source` of the text's index `at`, or -1 for an index before one already asked for in other text. */
  private byteAt(at: number): number {
    if (this.ascii) return this.offset + at;
    if (at < this.index) return -1;
    const text = this.text;
    let byte = this.byte;
    for (let i = this.index; i < at; i++) {
      const c = text.charCodeAt(i);
      // A surrogate is half of a pair (valid UTF-8 decodes to no other), and a pair takes 4 bytes.
      byte += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
    }
    this.index = at;
    this.byte = byte;
    return byte;
  }

  private reserve(length: number): void {
    if (this.bytes.length - this.size >= length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.size + length));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }
}
