// The xlsx codec's writer of a rewritten part: the source's bytes between edits, and each edit's text, into one buffer.
import { encodeXml, escapeXmlText, type XmlEncoding } from './xml-scan.js';

/** A part's text, decoded, with the bytes it was decoded from. */
export interface Part {
  path: string;
  text: string;
  bom: boolean;
  encoding: XmlEncoding;
  /** The part's bytes (its BOM included). */
  bytes: Uint8Array;
}

// Control characters XML 1.0 cannot carry even as references; Excel writes them as `_xHHHH_`.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex
const HAS_XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export function escapeOoxml(text: string): string {
  // Most values hold neither a literal `_x` nor a character XML cannot carry.
  if (!text.includes('_x') && !HAS_XML_FORBIDDEN.test(text)) return text;
  return text
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(XML_FORBIDDEN, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}

const SPACE = /\s/;

/** Whether a character is whitespace as /\s/ reads it. */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return SPACE.test(String.fromCharCode(c));
}

/** Whether a `t` element needs `xml:space`, to keep edge whitespace and line ends from being trimmed by spreadsheet apps. */
export function preservesSpace(value: string): boolean {
  // Only the edge characters are tested: a pattern anchored at the end would try every position of the value.
  return (value !== '' && (isSpace(value.charCodeAt(0)) || isSpace(value.charCodeAt(value.length - 1)))) || value.includes('\n');
}

// One encoder for every render: it holds no state between calls.
const UTF8 = new TextEncoder();
const UTF8_TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

/** ASCII text as bytes, for the pieces a render writes over and over. */
export const ascii = (text: string): Uint8Array => UTF8.encode(text);

/**
 * What writeText makes of each byte of UTF-8 text: most are written as they are; '&', '<', '>' and CR are escaped; a
 * line feed is noted; a control character XML cannot carry, a '_' before an 'x' (which may read as an OOXML escape)
 * and EF BF BE or EF BF BF (U+FFFE and U+FFFF) send the text the way through strings.
 */
const PLAIN = 0;
const ESCAPED = 1;
const LINE_END = 2;
const FORBIDDEN = 3;
const UNDERSCORE = 4;
const EF = 5;
const TEXT_BYTES = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) TEXT_BYTES[b] = b === 0x09 ? PLAIN : FORBIDDEN;
for (const b of [0x26, 0x3c, 0x3e, 0x0d]) TEXT_BYTES[b] = ESCAPED;
TEXT_BYTES[0x0a] = LINE_END;
TEXT_BYTES[0x5f] = UNDERSCORE;
TEXT_BYTES[0xef] = EF;

/** Room writeText encodes text into before copying it escaped: for text of up to a third as many UTF-16 units. */
const SCRATCH = new Uint8Array(12288);

/** What writeText returns for text that holds a line feed. */
const LINE_FEED = 1;

const AMP = ascii('&amp;');
const LT = ascii('&lt;');
const GT = ascii('&gt;');
const CR = ascii('&#13;');

/** Room for `size` bytes, not zeroed: only what is written is ever read, and a render's buffer is several megabytes. */
function uninitialized(size: number): Uint8Array {
  const buffer = Buffer.allocUnsafe(size);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, size);
}

/** Writes `piece` into `out` at `at`, returning where it ends. */
function put(out: Uint8Array, at: number, piece: Uint8Array): number {
  for (let k = 0; k < piece.length; k++) out[at + k] = piece[k]!;
  return at + piece.length;
}

/**
 * A part's new bytes, written in document order: the source between edits, and each edit's text, encoded as UTF-8 as
 * they come into one buffer (a render of a large sheet writes a few pieces per row, and strings joined first would be
 * copied twice and collected). The source between edits is copied from its bytes where they are its text one byte a
 * character (ASCII, as most sheets are), else encoded again. A part in UTF-16 is encoded again at the end.
 */
export class PartWriter {
  /** The bytes written, and room for more. */
  private bytes: Uint8Array;
  private size = 0;
  /** The source's text is written up to here. */
  private at = 0;
  /** The source's bytes past the BOM where each is a character of its text (an ASCII part in UTF-8), else undefined. */
  private readonly raw: Uint8Array | undefined;
  /** Whether anything was replaced or inserted. */
  edited = false;

  constructor(private readonly part: Part) {
    const { text, bom, encoding, bytes } = part;
    const skip = bom ? 3 : 0;
    // A plain view (a Buffer's subarray costs several times a Uint8Array's, and the source is copied in many pieces).
    this.raw = encoding === 'utf-8' && bytes.length - skip === text.length ? new Uint8Array(bytes.buffer, bytes.byteOffset + skip, text.length) : undefined;
    // Room for the source, and half as much again for what a render adds (a column of values, most often); it grows
    // when that is not enough.
    this.bytes = uninitialized(text.length + (text.length >> 1) + 1024);
    if (bom && encoding === 'utf-8') this.size = UTF8.encodeInto('\uFEFF', this.bytes).written;
  }

  /** Copies the source up to `start` and leaves it out up to `end`; what is written next takes its place. */
  replace(start: number, end: number): void {
    const { text } = this.part;
    if (start < this.at || end < start || end > text.length) throw new Error(`xlsx: edit ${start}..${end} overlaps another or lies outside the text`);
    if (start > this.at) this.copy(start);
    this.at = end;
    this.edited = true;
  }

  /** Copies the source from where it is written up to `to`. */
  private copy(to: number): void {
    const { raw } = this;
    if (!raw) {
      this.write(this.part.text.slice(this.at, to));
      return;
    }
    const length = to - this.at;
    this.room(length);
    this.bytes.set(raw.subarray(this.at, to), this.size);
    this.size += length;
  }

  write(piece: string): void {
    // Three bytes a UTF-16 unit at most (a surrogate pair takes four for two). Lone surrogates are written as U+FFFD,
    // as TextEncoder writes them.
    this.room(3 * piece.length);
    this.size += UTF8.encodeInto(piece, this.bytes.subarray(this.size)).written;
  }

  /** Writes ASCII text (a column's name), a byte a character. */
  writeAscii(piece: string): void {
    this.room(piece.length);
    const out = this.bytes;
    let at = this.size;
    for (let i = 0; i < piece.length; i++) out[at++] = piece.charCodeAt(i);
    this.size = at;
  }

  /** Writes bytes (a piece written over and over, encoded once). */
  writeBytes(piece: Uint8Array): void {
    this.room(piece.length);
    this.size = put(this.bytes, this.size, piece);
  }

  /** Writes a non-negative integer's digits. */
  writeNumber(n: number): void {
    if (n < 10) {
      this.room(1);
      this.bytes[this.size++] = 0x30 + n;
      return;
    }
    if (!Number.isSafeInteger(n) || n < 0) {
      this.write(String(n));
      return;
    }
    let digits = 1;
    for (let m = n; m >= 10; m = Math.floor(m / 10)) digits++;
    this.room(digits);
    const out = this.bytes;
    let at = this.size + digits;
    this.size = at;
    for (let m = n; at > this.size - digits; m = Math.floor(m / 10)) out[--at] = 0x30 + (m % 10);
  }

  /** Writes a `t` element: `open` (`spacedOpen` where the text needs `xml:space`: see preservesSpace), text, `close`. */
  writeTextElement(open: Uint8Array, spacedOpen: Uint8Array, value: string, close: Uint8Array): void {
    // The plain open tag goes first; the text's bytes move up for the spaced one where it needs it (told from the line
    // feed the text's scan notes, and its first and last characters), as few do.
    const start = this.size;
    this.writeBytes(open);
    const from = this.size;
    const scanned = this.writeText(value);
    const n = value.length;
    const spaced = scanned < 0 ? preservesSpace(value) : scanned === LINE_FEED || (n > 0 && (isSpace(value.charCodeAt(0)) || isSpace(value.charCodeAt(n - 1))));
    if (spaced) {
      const by = spacedOpen.length - open.length;
      this.room(by);
      this.bytes.copyWithin(from + by, from, this.size);
      put(this.bytes, start, spacedOpen);
      this.size += by;
    }
    this.writeBytes(close);
  }

  /**
   * Writes text as an element's content: OOXML's escapes (escapeOoxml), then XML's (escapeXmlText). Most text needs
   * neither but for '&', '<', '>' and CR, which are escaped as its UTF-8 is copied in; the rest takes the way through
   * strings, and -1 is returned. Else LINE_FEED where the text holds a line feed, and 0.
   */
  writeText(value: string): number {
    // Encoded into scratch room (a view of the buffer for each text would be garbage for each), then copied escaped.
    if (3 * value.length > SCRATCH.length) return this.writeLongText(value);
    const length = UTF8.encodeInto(value, SCRATCH).written;
    this.room(5 * length);
    const out = this.bytes;
    const from = this.size;
    let to = from;
    let lineFeed = 0;
    for (let i = 0; i < length; i++) {
      const b = SCRATCH[i]!;
      const kind = TEXT_BYTES[b]!;
      if (kind === PLAIN) out[to++] = b;
      else if (kind === ESCAPED) to = put(out, to, b === 0x26 ? AMP : b === 0x3c ? LT : b === 0x3e ? GT : CR);
      else if (kind === LINE_END) {
        out[to++] = b;
        lineFeed = LINE_FEED;
      } else if (kind === FORBIDDEN || (kind === UNDERSCORE ? SCRATCH[i + 1] === 0x78 && i + 1 < length : i + 2 < length && SCRATCH[i + 1] === 0xbf && SCRATCH[i + 2]! >= 0xbe)) {
        this.size = from;
        this.write(escapeXmlText(escapeOoxml(value)));
        return -1;
      } else out[to++] = b;
    }
    // Unpaired surrogates are written as U+FFFD, as escapeXmlText writes them.
    this.size = to;
    return lineFeed;
  }

  /** writeText for text too long for the scratch room: encoded in place, then escaped there. */
  private writeLongText(value: string): number {
    const from = this.size;
    this.write(value);
    const { bytes } = this;
    const end = this.size;
    let escapes = 0;
    let first = end;
    let lineFeed = 0;
    for (let i = from; i < end; i++) {
      const kind = TEXT_BYTES[bytes[i]!]!;
      if (kind === PLAIN) continue;
      if (kind === ESCAPED) {
        if (escapes++ === 0) first = i;
      } else if (kind === LINE_END) {
        lineFeed = LINE_FEED;
      } else if (kind === FORBIDDEN || (kind === UNDERSCORE ? i + 1 < end && bytes[i + 1] === 0x78 : i + 2 < end && bytes[i + 1] === 0xbf && bytes[i + 2]! >= 0xbe)) {
        this.size = from;
        this.write(escapeXmlText(escapeOoxml(value)));
        return -1;
      }
    }
    if (escapes === 0) return lineFeed;
    // Each escape takes at most four bytes more: the bytes from the first move up, and are copied back down escaped.
    const shift = 4 * escapes;
    this.room(shift);
    const out = this.bytes;
    out.copyWithin(first + shift, first, end);
    let to = first;
    for (let i = first + shift; i < end + shift; i++) {
      const b = out[i]!;
      if (b === 0x26) to = put(out, to, AMP);
      else if (b === 0x3c) to = put(out, to, LT);
      else if (b === 0x3e) to = put(out, to, GT);
      else if (b === 0x0d) to = put(out, to, CR);
      else out[to++] = b;
    }
    this.size = to;
    return lineFeed;
  }

  /** Makes room for `more` bytes past the end. */
  private room(more: number): void {
    if (this.bytes.length - this.size >= more) return;
    const grown = uninitialized(Math.max(2 * this.bytes.length, this.size + more));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }

  /** The whole part, the rest of the source included, encoded as the source part was. */
  encode(): Uint8Array {
    const { text, bom, encoding } = this.part;
    if (this.at < text.length) this.copy(text.length);
    this.at = text.length;
    const bytes = this.bytes.subarray(0, this.size);
    return encoding === 'utf-8' ? bytes : encodeXml(UTF8_TEXT.decode(bytes), bom, encoding);
  }
}
