export const id = 992;
export const ids = [992];
export const modules = {

/***/ 3992:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  FORMAT_IDS: () => (/* reexport */ codec/* FORMAT_IDS */.J),
  IMPLEMENTED_FORMATS: () => (/* binding */ IMPLEMENTED_FORMATS),
  PLURAL_CATEGORIES: () => (/* reexport */ codec/* PLURAL_CATEGORIES */.M),
  detectFormat: () => (/* binding */ detectFormat),
  getCodec: () => (/* binding */ getCodec),
  isFormatId: () => (/* binding */ isFormatId),
  jsonCodec: () => (/* reexport */ jsonCodec),
  jsonNestedCodec: () => (/* reexport */ jsonNestedCodec)
});

// EXTERNAL MODULE: ./src/core/formats/codec.ts
var codec = __webpack_require__(9070);
;// CONCATENATED MODULE: ./src/core/formats/values.ts
/** The text of a value for a codec that cannot express plurals; the service never sends it plural values. */
function textValue(value, format) {
    if (typeof value === 'string')
        return value;
    throw new Error(`format_cannot_express_plural: '${format}' was given plural forms`);
}
/**
 * Flat and nested JSON share the `.json` extension: a nested object in the first bytes decides.
 * Other JSON-based formats (.arb, .xcstrings, Laravel's lang/*.json) are claimed more strongly by their codecs.
 */
function detectJson(fileName, head, nested) {
    if (!/\.json$/i.test(fileName))
        return 0;
    const trimmed = head.replace(/^\uFEFF/, '').trimStart();
    if (!trimmed.startsWith('{'))
        return 0;
    const hasNested = /:\s*\{/.test(trimmed);
    return nested === hasNested ? 0.6 : 0.3;
}

// EXTERNAL MODULE: ./src/core/formats/file-unparsable-error.ts
var file_unparsable_error = __webpack_require__(7753);
;// CONCATENATED MODULE: ./src/core/formats/utf8.ts
// UTF-8 well-formedness, shared by the scanners that must name the line and column of a bad byte.
/** Byte index of the first ill-formed UTF-8 sequence (per the Unicode well-formedness table), or -1. */
function firstInvalidUtf8(b) {
    let i = 0;
    while (i < b.length) {
        const c = b[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        let need;
        let lo = 0x80;
        let hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf)
            need = 1;
        else if (c === 0xe0)
            [need, lo] = [2, 0xa0];
        else if (c === 0xed)
            [need, hi] = [2, 0x9f];
        else if (c >= 0xe1 && c <= 0xef)
            need = 2;
        else if (c === 0xf0)
            [need, lo] = [3, 0x90];
        else if (c >= 0xf1 && c <= 0xf3)
            need = 3;
        else if (c === 0xf4)
            [need, hi] = [3, 0x8f];
        else
            return i;
        if (i + need >= b.length)
            return i;
        const second = b[i + 1];
        if (second < lo || second > hi)
            return i;
        for (let k = 2; k <= need; k++) {
            const next = b[i + k];
            if (next < 0x80 || next > 0xbf)
                return i;
        }
        i += need + 1;
    }
    return -1;
}

;// CONCATENATED MODULE: ./src/core/formats/key-index.ts
// An index of an object's member keys by hash, for the scanners' duplicate check of objects with many members.
/** FNV-1a over UTF-16 code units: start from `KEY_HASH_SEED`, fold in each unit with `hashUnit`. */
const KEY_HASH_SEED = 0x811c9dc5 | 0;
function hashUnit(hash, unit) {
    return Math.imul(hash ^ unit, 0x01000193);
}
/** The hash of a key. */
function hashKey(name) {
    let hash = KEY_HASH_SEED;
    for (let i = 0; i < name.length; i++)
        hash = hashUnit(hash, name.charCodeAt(i));
    return hash;
}
/**
 * Member ids (the caller's numbering) by their key's hash, in open addressing: where a Map would need each key as a
 * string, the scanner hashes a key in place in the text, and compares keys only when their hashes agree.
 */
class KeyIndex {
    // id + 1 by bucket, 0 for an empty bucket, and the hash stored with it.
    ids = new Int32Array(64);
    hashes = new Int32Array(64);
    count = 0;
    /** The first bucket holding `hash` (its id is `id(bucket)`), or -1; `next` gives the others. */
    find(hash) {
        return this.scan(hash & (this.ids.length - 1), hash);
    }
    next(bucket, hash) {
        return this.scan((bucket + 1) & (this.ids.length - 1), hash);
    }
    id(bucket) {
        return this.ids[bucket] - 1;
    }
    add(hash, id) {
        // At most half full, so a probe soon meets an empty bucket.
        if (++this.count * 2 > this.ids.length)
            this.grow();
        this.place(hash, id + 1);
    }
    scan(from, hash) {
        const { ids, hashes } = this;
        const mask = ids.length - 1;
        for (let b = from;; b = (b + 1) & mask) {
            if (ids[b] === 0)
                return -1;
            if (hashes[b] === hash)
                return b;
        }
    }
    place(hash, stored) {
        const { ids, hashes } = this;
        const mask = ids.length - 1;
        let b = hash & mask;
        while (ids[b] !== 0)
            b = (b + 1) & mask;
        ids[b] = stored;
        hashes[b] = hash;
    }
    grow() {
        const { ids, hashes } = this;
        this.ids = new Int32Array(ids.length * 2);
        this.hashes = new Int32Array(ids.length * 2);
        for (let b = 0; b < ids.length; b++)
            if (ids[b] !== 0)
                this.place(hashes[b], ids[b]);
    }
}

;// CONCATENATED MODULE: ./src/core/formats/json-scan.ts
// Hand-written JSON scanner that keeps every token's span, the writer that splices edits back into the untouched text, the
// dotted-path parse and render that the json and json_nested codecs share (they differ only in detection and fresh files),
// and the tape the arb and ios_xcstrings codecs read large files from.




// Deep enough for any real localization file; guards the recursive scanner and writer against stack overflow.
const MAX_DEPTH = 512;
const UTF8_BOM = [0xef, 0xbb, 0xbf];
/** Decodes a file as strict UTF-8, stripping and remembering a BOM; invalid bytes are reported with their position. */
function decodeUtf8(bytes) {
    const bom = bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
    const body = bom ? bytes.subarray(3) : bytes;
    try {
        return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body), bom };
    }
    catch {
        if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
            throw new file_unparsable_error/* FileUnparsableError */.w('The file is UTF-16 encoded; expected UTF-8 at line 1, column 1', 1, 1);
        }
        const bad = Math.max(0, firstInvalidUtf8(body));
        const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body.subarray(0, bad));
        const { line, column } = new LineCounter(before).at(before.length);
        throw new file_unparsable_error/* FileUnparsableError */.w(`Invalid UTF-8 byte sequence at line ${line}, column ${column}`, line, column);
    }
}
/** Encodes text as UTF-8, restoring the BOM when the source had one. */
function encodeUtf8(text, bom) {
    return new TextEncoder().encode(bom ? `\uFEFF${text}` : text);
}
const ENCODER = new TextEncoder();
// Characters of pieces gathered before they are encoded: a call to encodeInto costs more than encoding a short piece.
const BATCH = 16_384;
/**
 * Writes a UTF-8 file piece by piece, encoding the pieces in batches as they come: a rewrite of a large file then holds
 * bytes, where concatenating the pieces would hold a rope of strings for the collector to trace until the end.
 */
class Utf8Writer {
    bytes;
    size = 0;
    pending = '';
    /** `capacity` is a guess at the size in bytes; the buffer grows past it. */
    constructor(capacity, bom) {
        this.bytes = new Uint8Array(Math.max(capacity, 64));
        if (bom) {
            this.bytes.set(UTF8_BOM);
            this.size = UTF8_BOM.length;
        }
    }
    write(text) {
        this.pending += text;
        if (this.pending.length >= BATCH)
            this.flush();
    }
    /** The bytes written. */
    finish() {
        this.flush();
        return this.bytes.slice(0, this.size);
    }
    flush() {
        const text = this.pending;
        this.pending = '';
        // A UTF-16 code unit takes at most 3 bytes.
        if (this.bytes.length - this.size < text.length * 3) {
            const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.size + text.length * 3));
            grown.set(this.bytes.subarray(0, this.size));
            this.bytes = grown;
        }
        this.size += ENCODER.encodeInto(text, this.bytes.subarray(this.size)).written;
    }
}
/** Turns indices into line/column; queries usually move forward, so it resumes where the last one stopped. */
class LineCounter {
    text;
    index = 0;
    line = 1;
    column = 1;
    constructor(text) {
        this.text = text;
    }
    at(target) {
        if (target < this.index)
            [this.index, this.line, this.column] = [0, 1, 1];
        const t = this.text;
        for (; this.index < target; this.index++) {
            const c = t.charCodeAt(this.index);
            if (c === 0x0a || (c === 0x0d && t.charCodeAt(this.index + 1) !== 0x0a)) {
                this.line++;
                this.column = 1;
            }
            else if (c === 0x0d) {
                // The CR of a CRLF: the LF ends the line.
            }
            else if (c >= 0xdc00 && c <= 0xdfff && isHighSurrogate(t.charCodeAt(this.index - 1))) {
                // Second half of a surrogate pair: the pair is one column.
            }
            else {
                this.column++;
            }
        }
        return { line: this.line, column: this.column };
    }
}
function isHighSurrogate(c) {
    return c >= 0xd800 && c <= 0xdbff;
}
const PLAIN = 0;
const STRINGIFY_ESCAPES = 1;
const OTHER_ESCAPES = 2;
/** The value of the string token `text[start, end)`, which holds `escapes`. */
function decodeToken(text, start, end, escapes) {
    // The token is valid JSON, so JSON.parse decodes its escapes (a lone surrogate from \uD800 stays, as here) into one
    // flat string, where joining the pieces would leave a chain of them for the collector to copy.
    return escapes === PLAIN ? text.slice(start + 1, end - 1) : JSON.parse(text.slice(start, end));
}
/** The kind of escape each letter after a backslash makes (0: not an escape), by code unit; \u is read apart. */
const ESCAPES = new Uint8Array(128);
for (const letter of '"\\bfnrt')
    ESCAPES[letter.charCodeAt(0)] = STRINGIFY_ESCAPES;
ESCAPES['/'.charCodeAt(0)] = OTHER_ESCAPES;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Whether a code unit may continue a word after a literal (`truex` is not `true`): letters, digits, `_` and `$`. */
function isWordUnit(c) {
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24;
}
/** Whether a code unit may be part of a number token; the token is then checked against the JSON grammar. */
function isNumberUnit(c) {
    return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e || c === 0x65 || c === 0x45;
}
// An object with more members than this finds duplicates through a map; smaller ones compare with each member.
const LINEAR_DUPLICATES = 12;
/**
 * The tokens both scanners read, and the position they keep. Positions are counted as the scan goes: a line break
 * occurs only between tokens and a surrogate pair only inside a string, so a token's column is its distance from the
 * line's start less the pairs met on the line before it.
 */
class JsonLexer {
    text;
    pos = 0;
    line = 1;
    lineStart = 0;
    pairs = 0;
    depth = 0;
    constructor(text) {
        this.text = text;
    }
    fail(message, at = this.pos) {
        if (/^\/[/*]/.test(this.text.slice(at, at + 2))) {
            message = `${message} (JSON does not allow comments)`;
        }
        const { line, column } = new LineCounter(this.text).at(at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    }
    column(at) {
        return at - this.lineStart + 1 - this.pairs;
    }
    /** Checks that the file holds one object, then scans it with `object`. */
    document(object) {
        this.skipWhitespace();
        if (this.pos >= this.text.length)
            this.fail("The file is empty; expected a JSON object ('{')");
        if (this.text.charCodeAt(this.pos) !== 0x7b)
            this.fail("Expected a JSON object ('{') as the top-level value");
        const root = object();
        this.skipWhitespace();
        if (this.pos < this.text.length)
            this.fail("Expected the end of the file after the top-level object's closing '}'");
        return root;
    }
    skipWhitespace() {
        const t = this.text;
        let pos = this.pos;
        for (;;) {
            const c = t.charCodeAt(pos);
            if (c === 0x20 || c === 0x09) {
                pos++;
            }
            else if (c === 0x0a || c === 0x0d) {
                pos++;
                // The CR of a CRLF: the LF ends the line.
                if (c === 0x0d && t.charCodeAt(pos) === 0x0a)
                    continue;
                this.line++;
                this.lineStart = pos;
                this.pairs = 0;
            }
            else {
                break;
            }
        }
        this.pos = pos;
    }
    enter() {
        if (++this.depth > MAX_DEPTH)
            this.fail(`Expected at most ${MAX_DEPTH} levels of nesting`);
    }
    leave() {
        this.depth--;
    }
    /** Checks the separator after a member or element: true after the closing bracket, false after a comma. */
    next(close, container) {
        this.skipWhitespace();
        const t = this.text;
        const c = t.charCodeAt(this.pos);
        if (c === close) {
            this.pos++;
            return true;
        }
        if (c !== 0x2c)
            this.fail(container === 'member' ? "Expected ',' or '}' after a member" : "Expected ',' or ']' after an array element");
        const comma = this.pos++;
        this.skipWhitespace();
        if (t.charCodeAt(this.pos) === close)
            this.fail(`Expected another ${container} after ',' (trailing commas are not allowed)`, comma);
        return false;
    }
    /** Checks the start of a member's key (at `pos`), `first` for the object's first member. */
    expectKey(first) {
        if (this.text.charCodeAt(this.pos) !== 0x22)
            this.fail(first ? "Expected a string key or '}'" : "Expected a string key after ','");
    }
    /** Checks and skips the ':' after the key token `text[keyStart, keyEnd)`. */
    colon(keyStart, keyEnd) {
        this.skipWhitespace();
        if (this.text.charCodeAt(this.pos) !== 0x3a) {
            // The token is valid JSON: decoding it for the message costs nothing on the way through.
            this.fail(`Expected ':' after the key ${JSON.stringify(JSON.parse(this.text.slice(keyStart, keyEnd)))}`);
        }
        this.pos++;
        this.skipWhitespace();
    }
    /** Reads the string token at `pos` and returns its decoded value, leaving `pos` just past it. */
    string() {
        const start = this.pos;
        const escapes = this.token();
        return decodeToken(this.text, start, this.pos, escapes);
    }
    /** Checks the string token at `pos`, leaving `pos` just past it, and tells what escapes it holds. */
    token() {
        const t = this.text;
        let i = this.pos + 1;
        let pairs = 0;
        let escapes = PLAIN;
        for (;;) {
            const c = t.charCodeAt(i);
            if (c >= 0x5d) {
                // A high surrogate: valid UTF-8 decodes only to whole pairs, which count as one column.
                if (c >= 0xd800 && c <= 0xdbff)
                    pairs++;
                i++;
            }
            else if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
                i++;
            }
            else if (c === 0x22) {
                break;
            }
            else if (c === 0x5c) {
                const letter = t.charCodeAt(i + 1);
                if (letter === 0x75) {
                    if (!isHex4(t, i + 2))
                        this.fail('Expected 4 hex digits after \\u', i);
                    escapes = OTHER_ESCAPES;
                    i += 6;
                }
                else {
                    const escape = (letter < 128 ? ESCAPES[letter] : 0);
                    if (escape === 0)
                        this.fail(`Expected a valid escape after '\\' (one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`, i);
                    if (escape > escapes)
                        escapes = escape;
                    i += 2;
                }
            }
            else if (i >= t.length) {
                this.fail("Expected '\"' to close the string before the end of the file", i);
            }
            else {
                const message = c === 0x0a || c === 0x0d ? "Expected '\"' to close the string before the end of the line" : 'Expected control characters in a string to be escaped';
                this.fail(message, i);
            }
        }
        this.pairs += pairs;
        this.pos = i + 1;
        return escapes;
    }
    /** Reads a number, `true`, `false` or `null` at `pos`, or fails where no value starts. */
    scalar() {
        const t = this.text;
        const start = this.pos;
        const c = t.charCodeAt(start);
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
            let i = start;
            while (isNumberUnit(t.charCodeAt(i)))
                i++;
            this.pos = i;
            if (!NUMBER.test(t.slice(start, i)))
                this.fail('Expected a valid JSON number', start);
            return 'number';
        }
        const length = t.startsWith('true', start) || t.startsWith('null', start) ? 4 : t.startsWith('false', start) ? 5 : 0;
        if (length > 0 && !isWordUnit(t.charCodeAt(start + length))) {
            this.pos += length;
            return c === 0x6e ? 'null' : 'boolean';
        }
        this.fail(c === 0x27 ? 'Expected a value (strings need double quotes)' : 'Expected a value');
    }
}
/** Builds the whole document as nodes. */
class TreeScanner extends JsonLexer {
    // Members and elements are gathered in a list per depth and copied out at their count: a list grown by push keeps
    // room for 16, which in a catalog of many small objects is most of what the tree holds.
    scratch = [];
    gather() {
        const list = (this.scratch[this.depth] ??= []);
        list.length = 0;
        return list;
    }
    scan() {
        return this.document(() => this.object());
    }
    value() {
        const c = this.text.charCodeAt(this.pos);
        if (c === 0x22)
            return this.stringNode();
        if (c === 0x7b)
            return this.object();
        if (c === 0x5b)
            return this.array();
        const start = this.pos;
        const line = this.line;
        const column = this.column(start);
        const kind = this.scalar();
        return { kind, start, end: this.pos, line, column };
    }
    stringNode() {
        const start = this.pos;
        const column = this.column(start);
        const value = this.string();
        return { kind: 'string', value, start, end: this.pos, line: this.line, column };
    }
    object() {
        const start = this.pos;
        const line = this.line;
        const column = this.column(start);
        this.enter();
        this.pos++;
        const members = this.gather();
        let seen;
        this.skipWhitespace();
        if (this.text.charCodeAt(this.pos) === 0x7d) {
            this.pos++;
        }
        else {
            do {
                this.expectKey(members.length === 0);
                const key = this.stringNode();
                let first;
                if (seen) {
                    first = seen.get(key.value);
                    seen.set(key.value, key);
                }
                else {
                    for (const m of members)
                        if (m.key.value === key.value)
                            first ??= m.key;
                }
                if (first)
                    this.fail(`Duplicate key ${JSON.stringify(key.value)} (first defined at line ${first.line})`, key.start);
                this.colon(key.start, key.end);
                const value = this.value();
                members.push({ key, value, start: key.start, end: value.end });
                if (!seen && members.length > LINEAR_DUPLICATES)
                    seen = new Map(members.map((m) => [m.key.value, m.key]));
            } while (!this.next(0x7d, 'member'));
        }
        this.leave();
        return { kind: 'object', members: members.slice(), start, end: this.pos, line, column };
    }
    array() {
        const start = this.pos;
        const line = this.line;
        const column = this.column(start);
        this.enter();
        this.pos++;
        const elements = this.gather();
        this.skipWhitespace();
        if (this.text.charCodeAt(this.pos) === 0x5d) {
            this.pos++;
        }
        else {
            do
                elements.push(this.value());
            while (!this.next(0x5d, 'element'));
        }
        this.leave();
        return { kind: 'array', elements: elements.slice(), start, end: this.pos, line, column };
    }
}
/**
 * Reads the same grammar as the tree scanner, with the same errors, but lists only the string values: the json codecs
 * need no nodes to parse a file or to splice values into it. It lists entries to parse, or tokens to render.
 */
class KeyedScanner extends JsonLexer {
    tokens;
    entries = [];
    keys = [];
    starts = [];
    ends = [];
    escapes = [];
    nested;
    dotted = false;
    deep = false;
    path = [];
    /** The top-level member whose value is being read, when it is an object or array. */
    container;
    constructor(text, tokens) {
        super(text);
        this.tokens = tokens;
    }
    scan() {
        this.document(() => this.object(''));
    }
    /** Reads the value of the member or element `name`, already on the path; `prefix` is its parent's key and a dot. */
    value(prefix, name) {
        const c = this.text.charCodeAt(this.pos);
        if (c === 0x22) {
            if (this.path.length > 1) {
                this.deep = true;
                this.nested ??= this.container;
            }
            if (this.tokens) {
                // Rendering looks every key up at once: a flat string hashes without first being copied out of a concatenation.
                this.keys.push(prefix === '' ? name : this.path.join('.'));
                this.starts.push(this.pos);
                this.escapes.push(this.token());
                this.ends.push(this.pos);
            }
            else {
                const line = this.line;
                const column = this.column(this.pos);
                this.entries.push({ key: prefix === '' ? name : prefix + name, path: this.path.slice(), source: this.string(), line, column });
            }
        }
        else if (c === 0x7b || c === 0x5b) {
            if (this.path.length === 1)
                this.container = { name, kind: c === 0x7b ? 'object' : 'array', line: this.line, column: this.column(this.pos) };
            const inner = `${prefix}${name}.`;
            if (c === 0x7b)
                this.object(inner);
            else
                this.array(inner);
        }
        else {
            this.scalar();
        }
    }
    object(prefix) {
        this.enter();
        this.pos++;
        // The members' names and lines, by their position in the object.
        const names = [];
        const lines = [];
        let seen;
        this.skipWhitespace();
        if (this.text.charCodeAt(this.pos) === 0x7d) {
            this.pos++;
        }
        else {
            do {
                this.expectKey(names.length === 0);
                const start = this.pos;
                const line = this.line;
                const name = this.string();
                let first;
                if (seen) {
                    first = lookUpName(seen, names, lines, name);
                }
                else {
                    for (let k = 0; k < names.length; k++)
                        if (names[k] === name)
                            first ??= lines[k];
                    if (names.length === LINEAR_DUPLICATES)
                        seen = indexNames([...names, name]);
                }
                names.push(name);
                lines.push(line);
                if (first !== undefined)
                    this.fail(`Duplicate key ${JSON.stringify(name)} (first defined at line ${first})`, start);
                if (!this.dotted && name.includes('.'))
                    this.dotted = true;
                this.colon(start, this.pos);
                this.path.push(name);
                this.value(prefix, name);
                this.path.pop();
            } while (!this.next(0x7d, 'member'));
        }
        this.leave();
    }
    array(prefix) {
        this.enter();
        this.pos++;
        this.skipWhitespace();
        if (this.text.charCodeAt(this.pos) === 0x5d) {
            this.pos++;
        }
        else {
            let index = 0;
            do {
                const name = String(index++);
                this.path.push(name);
                this.value(prefix, name);
                this.path.pop();
            } while (!this.next(0x5d, 'element'));
        }
        this.leave();
    }
}
// The keyed scanner's duplicate check of objects with many members, apart so that the scan of small ones stays compact.
function indexNames(names) {
    const seen = new KeyIndex();
    names.forEach((name, k) => seen.add(hashKey(name), k));
    return seen;
}
/** Adds `name`, the next member's, to `seen`: the line of an earlier member of that name (`names`, `lines`), or undefined. */
function lookUpName(seen, names, lines, name) {
    const hash = hashKey(name);
    let first;
    for (let b = seen.find(hash); b >= 0 && first === undefined; b = seen.next(b, hash))
        if (names[seen.id(b)] === name)
            first = lines[seen.id(b)];
    seen.add(hash, names.length);
    return first;
}
function scanKeyed(bytes, tokens) {
    const { text, bom } = decodeUtf8(bytes);
    const scanner = new KeyedScanner(text, tokens);
    scanner.scan();
    const { nested } = scanner;
    return { scanner, file: { bom, text, ...(nested ? { nested } : {}), ambiguous: scanner.deep && scanner.dotted } };
}
/** Scans a JSON file for its string values as entries; throws FileUnparsableError naming line and column, as `scanJson` does. */
function scanKeyedEntries(bytes) {
    const { scanner, file } = scanKeyed(bytes, false);
    return { ...file, entries: scanner.entries };
}
/** Scans a JSON file for its string values' keys and spans, to splice values in; throws as `scanJson` does. */
function scanKeyedTokens(bytes) {
    const { scanner, file } = scanKeyed(bytes, true);
    const { keys, starts, ends, escapes } = scanner;
    return { ...file, keys, starts, ends, escapes };
}
/** Whether 4 hex digits follow at `at`. */
function isHex4(t, at) {
    for (let k = at; k < at + 4; k++) {
        const c = t.charCodeAt(k);
        if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)))
            return false;
    }
    return true;
}
/** Scans a JSON file whose top level must be an object; throws FileUnparsableError naming line and column. */
function scanJson(bytes) {
    const { text, bom } = decodeUtf8(bytes);
    return { bom, text, root: new TreeScanner(text).scan() };
}
const KINDS = ['string', 'number', 'boolean', 'null', 'object', 'array'];
const STRING_KIND = 0;
const OBJECT_KIND = 4;
const ARRAY_KIND = 5;
// Int32 fields per slot: the kind (escapes of a string above it), start, end, line, column, and `after`.
const FIELDS = 6;
const ESCAPES_SHIFT = 4;
/**
 * A scanned document as one flat array of slots, for codecs that read large files: where `scanJson` makes several
 * objects per value, which a catalog of many small objects spends most of its time allocating and collecting, a tape
 * makes none. There is one slot per value and one per member key, in document order: an object's slot is followed by
 * each member's key slot then its value's slots, an array's by its elements' slots. `after` of a slot is the slot just
 * past its value (for a key, past the member), so `for (let k = o + 1; k < tape.after(o); k = tape.after(k))` visits
 * the members of the object at `o`, and the same loop the elements of an array. The root object is slot 0.
 */
class JsonTape {
    text;
    bom;
    slots;
    constructor(
    /** The file decoded from UTF-8, without the BOM; offsets index it. */
    text, 
    /** Whether the file started with a UTF-8 byte order mark (not part of `text`). */
    bom, slots) {
        this.text = text;
        this.bom = bom;
        this.slots = slots;
    }
    kind(slot) {
        return KINDS[this.slots[slot * FIELDS] & ((1 << ESCAPES_SHIFT) - 1)];
    }
    /** Index of the token's first character (the quote, bracket or first digit). */
    start(slot) {
        return this.slots[slot * FIELDS + 1];
    }
    /** Index just past the token's last character. */
    end(slot) {
        return this.slots[slot * FIELDS + 2];
    }
    line(slot) {
        return this.slots[slot * FIELDS + 3];
    }
    column(slot) {
        return this.slots[slot * FIELDS + 4];
    }
    /** The slot just past the value at `slot` and all it contains; for a key, past its member. */
    after(slot) {
        return this.slots[slot * FIELDS + 5];
    }
    /** The decoded value of the string (or key) at `slot`. */
    string(slot) {
        return decodeToken(this.text, this.start(slot), this.end(slot), (this.slots[slot * FIELDS] >> ESCAPES_SHIFT));
    }
    /** The string (or key) at `slot` as `JSON.stringify` writes its value: the token itself when it has no escapes. */
    quoted(slot) {
        // Valid UTF-8 decodes to no lone surrogate, and a token without escapes has no quote, backslash or control character.
        return this.slots[slot * FIELDS] >> ESCAPES_SHIFT === PLAIN ? this.text.slice(this.start(slot), this.end(slot)) : JSON.stringify(this.string(slot));
    }
    /** Whether the value at `slot` is a string that decodes to `value`; compared in place when it has no escapes. */
    is(slot, value) {
        const head = this.slots[slot * FIELDS];
        if (head === STRING_KIND) {
            const start = this.start(slot);
            return this.end(slot) - start - 2 === value.length && this.text.startsWith(value, start + 1);
        }
        return (head & ((1 << ESCAPES_SHIFT) - 1)) === STRING_KIND && this.string(slot) === value;
    }
    /**
     * `is(slot, value)` for a caller that holds `quoted`, the value's `JSON.stringify`: a token whose only escapes are
     * the ones JSON.stringify writes holds the value exactly when it reads as `quoted`, so it is compared undecoded.
     */
    isQuoted(slot, value, quoted) {
        const head = this.slots[slot * FIELDS];
        if (head === STRING_KIND || head === (STRING_KIND | (STRINGIFY_ESCAPES << ESCAPES_SHIFT))) {
            const start = this.start(slot);
            return this.end(slot) - start === quoted.length && this.text.startsWith(quoted, start);
        }
        return this.is(slot, value);
    }
    /**
     * Whether the decoded string at `slot` may hold `part` (letters, digits or punctuation other than quote and backslash):
     * false is sure, true only where its \u escapes could hide it.
     */
    mayHold(slot, part) {
        const head = this.slots[slot * FIELDS];
        if (head >> ESCAPES_SHIFT === OTHER_ESCAPES)
            return true;
        // The escapes JSON.stringify writes stand for quotes, backslashes and control characters, which `part` may not hold.
        return this.text.slice(this.start(slot) + 1, this.end(slot) - 1).includes(part);
    }
    /** The key slot of the object's member named `name` (its value is at key + 1), or -1. */
    member(object, name) {
        const stop = this.after(object);
        for (let key = object + 1; key < stop; key = this.after(key))
            if (this.is(key, name))
                return key;
        return -1;
    }
    /** The key slots of an object's members, or the slots of an array's elements, in order. */
    children(container) {
        const out = [];
        const stop = this.after(container);
        for (let child = container + 1; child < stop; child = this.after(child))
            out.push(child);
        return out;
    }
}
/** Builds a tape: the tree scanner's grammar and errors, written into slots. */
class TapeScanner extends JsonLexer {
    slots;
    count = 0;
    // Key slots of the objects being read, one list per depth, for the duplicate check of small objects.
    scratch = [];
    constructor(text) {
        super(text);
        // About one slot per 16 characters in indented files; grown by doubling past that.
        this.slots = new Int32Array(Math.max(64, text.length >> 4) * FIELDS);
    }
    scan() {
        this.document(() => this.value());
        return this.slots.subarray(0, this.count * FIELDS);
    }
    /** Appends a slot whose end and `after` are set when known. */
    open(kind, start) {
        const slot = this.count++;
        if (this.count * FIELDS > this.slots.length) {
            const grown = new Int32Array(this.slots.length * 2);
            grown.set(this.slots);
            this.slots = grown;
        }
        const at = slot * FIELDS;
        this.slots[at] = kind;
        this.slots[at + 1] = start;
        this.slots[at + 3] = this.line;
        this.slots[at + 4] = this.column(start);
        return slot;
    }
    close(slot) {
        this.slots[slot * FIELDS + 2] = this.pos;
        this.slots[slot * FIELDS + 5] = this.count;
    }
    value() {
        const c = this.text.charCodeAt(this.pos);
        if (c === 0x22) {
            this.stringSlot();
        }
        else if (c === 0x7b) {
            this.object();
        }
        else if (c === 0x5b) {
            this.array();
        }
        else {
            const slot = this.open(0, this.pos);
            this.slots[slot * FIELDS] = KINDS.indexOf(this.scalar());
            this.close(slot);
        }
    }
    stringSlot() {
        const slot = this.open(STRING_KIND, this.pos);
        this.slots[slot * FIELDS] = STRING_KIND | (this.token() << ESCAPES_SHIFT);
        this.close(slot);
        return slot;
    }
    /** Decodes the key at `slot`, for the duplicate check of large objects and error messages. */
    keyAt(slot) {
        const at = slot * FIELDS;
        return decodeToken(this.text, this.slots[at + 1], this.slots[at + 2], (this.slots[at] >> ESCAPES_SHIFT));
    }
    // The duplicate check of objects with many members, apart so that the scan of small ones stays compact.
    index(keys) {
        const seen = new KeyIndex();
        for (const key of keys)
            seen.add(this.keyHash(key), key);
        return seen;
    }
    /** Adds the key at `slot` to `seen`, returning the slot of an earlier key that decodes alike, or -1. */
    lookUp(seen, slot) {
        const hash = this.keyHash(slot);
        let first = -1;
        for (let b = seen.find(hash); b >= 0 && first < 0; b = seen.next(b, hash))
            if (this.sameKey(seen.id(b), slot))
                first = seen.id(b);
        seen.add(hash, slot);
        return first;
    }
    /** The hash of the key at `slot` as decoded (`KeyIndex`), read in place when it has no escapes. */
    keyHash(slot) {
        if (this.slots[slot * FIELDS] !== STRING_KIND)
            return hashKey(this.keyAt(slot));
        const t = this.text;
        const end = this.slots[slot * FIELDS + 2] - 1;
        let hash = KEY_HASH_SEED;
        for (let i = this.slots[slot * FIELDS + 1] + 1; i < end; i++)
            hash = hashUnit(hash, t.charCodeAt(i));
        return hash;
    }
    /** Whether two key slots decode alike; raw tokens without escapes compare in place. */
    sameKey(a, b) {
        const s = this.slots;
        const aStart = s[a * FIELDS + 1];
        const bStart = s[b * FIELDS + 1];
        const length = s[a * FIELDS + 2] - aStart;
        if (s[a * FIELDS] === STRING_KIND && s[b * FIELDS] === STRING_KIND) {
            if (s[b * FIELDS + 2] - bStart !== length)
                return false;
            const t = this.text;
            for (let k = 1; k < length - 1; k++)
                if (t.charCodeAt(aStart + k) !== t.charCodeAt(bStart + k))
                    return false;
            return true;
        }
        return this.keyAt(a) === this.keyAt(b);
    }
    object() {
        const slot = this.open(OBJECT_KIND, this.pos);
        this.enter();
        this.pos++;
        const keys = (this.scratch[this.depth] ??= []);
        keys.length = 0;
        let seen;
        this.skipWhitespace();
        if (this.text.charCodeAt(this.pos) === 0x7d) {
            this.pos++;
        }
        else {
            do {
                this.expectKey(keys.length === 0 && !seen);
                const key = this.stringSlot();
                let first = -1;
                if (seen) {
                    first = this.lookUp(seen, key);
                }
                else {
                    for (let k = 0; k < keys.length && first < 0; k++)
                        if (this.sameKey(keys[k], key))
                            first = keys[k];
                    keys.push(key);
                    if (keys.length > LINEAR_DUPLICATES) {
                        seen = this.index(keys);
                        keys.length = 0;
                    }
                }
                if (first >= 0) {
                    this.fail(`Duplicate key ${JSON.stringify(this.keyAt(key))} (first defined at line ${this.slots[first * FIELDS + 3]})`, this.slots[key * FIELDS + 1]);
                }
                this.colon(this.slots[key * FIELDS + 1], this.slots[key * FIELDS + 2]);
                this.value();
                // A key's `after` is its member's: past the value.
                this.slots[key * FIELDS + 5] = this.count;
            } while (!this.next(0x7d, 'member'));
        }
        this.leave();
        this.close(slot);
    }
    array() {
        const slot = this.open(ARRAY_KIND, this.pos);
        this.enter();
        this.pos++;
        this.skipWhitespace();
        if (this.text.charCodeAt(this.pos) === 0x5d) {
            this.pos++;
        }
        else {
            do
                this.value();
            while (!this.next(0x5d, 'element'));
        }
        this.leave();
        this.close(slot);
    }
}
/** Scans a JSON file whose top level must be an object onto a tape; throws FileUnparsableError as `scanJson` does. */
function scanJsonTape(bytes) {
    const { text, bom } = decodeUtf8(bytes);
    return new JsonTape(text, bom, new TapeScanner(text).scan());
}
/** Every string value in document order (object keys are not values). */
function collectStrings(root) {
    const out = [];
    const visit = (node, path, inArray, span) => {
        if (node.kind === 'string')
            out.push({ path, inArray, node, span });
        else if (node.kind === 'object')
            for (const m of node.members)
                visit(m.value, [...path, m.key.value], false, m);
        else if (node.kind === 'array')
            node.elements.forEach((e, i) => visit(e, [...path, String(i)], true, e));
    };
    visit(root, [], false, root);
    return out;
}
const OMITTED = Symbol('omitted');
/**
 * Rewrites a scanned document, touching only the string tokens `decide` changes and the members it omits.
 * Omission rules: an object or array all of whose members were omitted is omitted from its parent (the root becomes `{}`);
 * a partly omitted array keeps its omitted elements' source text, because removing them would renumber the rest.
 * `membersOf` may replace or omit whole members of an object (i18next plural families); `decide` is not asked about them.
 * Returns the new text (BOM excluded), or undefined when nothing changed so the caller can hand back the source bytes.
 */
function rewriteJson(doc, decide, membersOf) {
    const text = doc.text;
    let changed = false;
    const render = (node, path, inArray, span) => {
        switch (node.kind) {
            case 'string': {
                const edit = decide({ path, inArray, node, span });
                if (edit.kind === 'keep' || (edit.kind === 'replace' && edit.value === node.value))
                    return text.slice(node.start, node.end);
                changed = true;
                return edit.kind === 'omit' ? OMITTED : JSON.stringify(edit.value);
            }
            case 'number':
            case 'boolean':
            case 'null':
                return text.slice(node.start, node.end);
            case 'object': {
                const edits = membersOf?.(node, path);
                // Members replaced whole carry their own key.
                const whole = new Set();
                const parts = node.members.map((m, i) => {
                    const edit = edits?.get(i);
                    if (!edit)
                        return render(m.value, [...path, m.key.value], false, m);
                    if (edit.kind === 'omit') {
                        changed = true;
                        return OMITTED;
                    }
                    if (edit.text !== text.slice(m.start, m.end))
                        changed = true;
                    whole.add(i);
                    return edit.text;
                });
                return join(node, node.members, parts, (m, i) => (whole.has(i) ? '' : text.slice(m.start, m.value.start)));
            }
            case 'array': {
                const parts = node.elements.map((e, i) => render(e, [...path, String(i)], true, e));
                if (parts.some((p) => p !== OMITTED)) {
                    for (const [i, e] of node.elements.entries())
                        if (parts[i] === OMITTED)
                            parts[i] = text.slice(e.start, e.end);
                }
                return join(node, node.elements, parts, () => '');
            }
        }
    };
    /**
     * Reassembles a container from its rendered children. Each kept child is followed by the separator that originally
     * followed it, and the last kept one by the original closing whitespace, so indentation and line endings survive omission.
     */
    const join = (node, children, parts, prefixOf) => {
        if (children.length === 0)
            return text.slice(node.start, node.end);
        const kept = children.flatMap((child, i) => (parts[i] === OMITTED ? [] : [i]));
        if (kept.length === 0)
            return OMITTED;
        const first = children[0];
        const last = children[children.length - 1];
        let out = text.slice(node.start, first.start);
        kept.forEach((i, k) => {
            const child = children[i];
            out += prefixOf(child, i) + parts[i];
            out += k < kept.length - 1 ? text.slice(child.end, children[i + 1].start) : text.slice(last.end, node.end);
        });
        return out;
    };
    const root = render(doc.root, [], false, doc.root);
    if (!changed)
        return undefined;
    return text.slice(0, doc.root.start) + (root === OMITTED ? '{}' : root) + text.slice(doc.root.end);
}
/** The edit for one string under the render contract, shared by the json codecs. */
function editFor(key, input) {
    const translated = input.values.get(key);
    if (translated === undefined)
        return input.missing === 'omit' ? { kind: 'omit' } : { kind: 'keep' };
    return { kind: 'replace', value: textValue(translated, 'json') };
}
/** Renders a scanned document, handing back a copy of the source bytes when no value changed. */
function renderDocument(doc, input, keyOf) {
    const text = rewriteJson(doc, (value) => editFor(keyOf(value), input));
    return text === undefined ? input.source.slice() : encodeUtf8(text, doc.bom);
}
/** A string value's key: its path segments (member names, array indexes) joined with '.'. */
const keyOf = (value) => value.path.join('.');
/** Refuses two paths that flatten to one key (one would shadow the other). */
function checkKeys(scan) {
    // Keys of top-level strings are their distinct names, and without a '.' in any name joining paths loses nothing.
    if (!scan.ambiguous)
        return;
    const byKey = new Map();
    for (const entry of scan.entries) {
        const prior = byKey.get(entry.key);
        if (prior) {
            const { line, column } = entry;
            throw new file_unparsable_error/* FileUnparsableError */.w(`The paths ${JSON.stringify(prior.path)} (line ${prior.line}) and ${JSON.stringify(entry.path)} ` +
                `both give the key ${JSON.stringify(entry.key)} at line ${line}, column ${column}; rename one of them`, line, column);
        }
        byKey.set(entry.key, entry);
    }
}
/** `checkKeys` for a scan of tokens: a repeated key is refused with the message a scan of entries gives. */
function checkTokenKeys(scan, bytes) {
    if (!scan.ambiguous)
        return;
    const keys = new Set();
    for (const key of scan.keys) {
        if (keys.size === keys.add(key).size)
            checkKeys(scanKeyedEntries(bytes));
    }
}
/** Every string value of a file, nested ones included, as an entry keyed by its dotted path. */
function parseKeyed(bytes) {
    const scan = scanKeyedEntries(bytes);
    checkKeys(scan);
    return scan.entries;
}
/** Splices the values keyed by dotted path into a scanned file, leaving every other byte as it was. */
function renderTokens(scan, input) {
    const { text, keys, starts, ends, escapes } = scan;
    // Without omissions every edit replaces one string token, so the text is the source with those tokens spliced.
    let out;
    let at = 0;
    for (let i = 0; i < keys.length; i++) {
        const translated = input.values.get(keys[i]);
        if (translated === undefined) {
            // Omitting members and emptied containers needs the document's structure.
            if (input.missing === 'omit')
                return renderDocument(scanJson(input.source), input, keyOf);
            continue;
        }
        const value = textValue(translated, 'json');
        const start = starts[i];
        const end = ends[i];
        // The file's text is compared in place, without decoding it: a token whose escapes are the ones JSON.stringify
        // writes holds the value exactly when it reads as the value's JSON.
        let quoted;
        if (escapes[i] === PLAIN) {
            if (value.length === end - start - 2 && text.startsWith(value, start + 1))
                continue;
        }
        else if (escapes[i] === STRINGIFY_ESCAPES) {
            quoted = JSON.stringify(value);
            if (quoted.length === end - start && text.startsWith(quoted, start))
                continue;
        }
        else if (JSON.parse(text.slice(start, end)) === value) {
            continue;
        }
        out ??= new Utf8Writer(input.source.length + (input.source.length >> 1), scan.bom);
        out.write(text.slice(at, start));
        out.write(quoted ?? JSON.stringify(value));
        at = end;
    }
    if (!out)
        return input.source.slice();
    out.write(text.slice(at));
    return out.finish();
}
/** Splices the values keyed by dotted path into the file, leaving every other byte as it was. */
function renderKeyed(input) {
    const scan = scanKeyedTokens(input.source);
    checkTokenKeys(scan, input.source);
    return renderTokens(scan, input);
}
/** Writes an object conventionally (2-space indentation, LF); hand-written because JSON.stringify reorders integer-like keys. */
function writeObject(members, indent = '') {
    if (members.length === 0)
        return '{}';
    const inner = `${indent}  `;
    const lines = members.map(([key, value]) => {
        const rendered = typeof value === 'string' ? JSON.stringify(value) : writeObject(value, inner);
        return `${inner}${JSON.stringify(key)}: ${rendered}`;
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
}

;// CONCATENATED MODULE: ./src/core/plurals.ts
/** CLDR plural categories of a locale, from the ICU data behind Intl.PluralRules. */

const cache = new Map();
/** The cardinal plural categories `locale` uses, in CLDR order (zero, one, two, few, many, other). */
function pluralCategories(locale) {
    let categories = cache.get(locale);
    if (!categories) {
        const used = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
        categories = codec/* PLURAL_CATEGORIES */.M.filter((c) => used.has(c));
        cache.set(locale, categories);
    }
    return categories;
}
const ordinalCache = new Map();
/** The ordinal plural categories `locale` uses (1st, 2nd, 3rd…), in CLDR order: `en` has one, two, few, other. */
function ordinalCategories(locale) {
    let categories = ordinalCache.get(locale);
    if (!categories) {
        const used = new Set(new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions().pluralCategories);
        categories = codec/* PLURAL_CATEGORIES */.M.filter((c) => used.has(c));
        ordinalCache.set(locale, categories);
    }
    return categories;
}
/**
 * The source forms to start each target category from: the same category where the source has it,
 * else `other` (so `ar`'s `few` starts from English `other`, and `ja`'s only form from English `other`).
 */
function sourceFormsFor(targetLocale, source) {
    const forms = {};
    for (const category of pluralCategories(targetLocale))
        forms[category] = source[category] ?? source.other ?? Object.values(source)[0] ?? '';
    return forms;
}
/** Orders forms in CLDR order and drops empty categories. */
function orderedForms(forms) {
    return PLURAL_CATEGORIES.filter((c) => forms[c] !== undefined).map((c) => [c, forms[c]]);
}

;// CONCATENATED MODULE: ./src/core/formats/i18next-plurals.ts
/**
 * i18next plural key families in the json codecs: `items_one`, `items_other` (and ordinals `place_ordinal_one` …) read as
 * one plural entry keyed by the family's base, and written back in the family's place with the target locale's categories.
 */




const SUFFIX = /_(zero|one|two|few|many|other)$/;
const ORDINAL = '_ordinal';
/** A member name's family base and category (`items_one` → `items`, `one`), or undefined without a plural suffix. */
function splitPluralSuffix(name) {
    const match = SUFFIX.exec(name);
    if (!match || match.index === 0)
        return undefined;
    return { base: name.slice(0, match.index), category: match[1] };
}
/** Whether a family base (or a plural entry's key) names i18next ordinals: `place_ordinal` from `place_ordinal_one`. */
function isOrdinalKey(key) {
    return key.length > ORDINAL.length && key.endsWith(ORDINAL);
}
/**
 * The categories a plural is written with for `locale`: the locale's CLDR categories (ordinal ones for an ordinal key),
 * and any of `kept` the value has too, in CLDR order.
 */
function writtenCategories(locale, ordinal, forms, kept) {
    const needed = new Set(ordinal ? ordinalCategories(locale) : pluralCategories(locale));
    return codec/* PLURAL_CATEGORIES */.M.filter((c) => needed.has(c) || (kept.has(c) && forms[c] !== undefined));
}
/** The form written for `category`: the value's own, else its `other` (how the service pairs forms across locales). */
function formFor(forms, category) {
    return forms[category] ?? forms.other ?? Object.values(forms).find((f) => f !== undefined) ?? '';
}
/** A plural value's members as a fresh file writes them: `key_<category>` for `locale`'s categories, in CLDR order. */
function freshPluralMembers(key, forms, locale) {
    return writtenCategories(locale, isOrdinalKey(key), forms, new Set()).map((c) => [`${key}_${c}`, formFor(forms, c)]);
}
/**
 * Folds each i18next plural family of parsed json entries into one plural entry at its first member's place: siblings
 * of one object whose names differ only by a plural suffix. By default a family needs an `_other` member; a family whose
 * key another key already has stays apart (or, with `i18next`, is refused naming both).
 */
function foldPluralFamilies(entries, mode) {
    if (mode === 'none')
        return entries;
    const families = new Map();
    entries.forEach((entry, index) => {
        const name = entry.path[entry.path.length - 1];
        const split = name === undefined ? undefined : splitPluralSuffix(name);
        if (!split)
            return;
        const path = [...entry.path.slice(0, -1), split.base];
        // Siblings share the parent path; '\u0000' cannot be confused with a member name's characters joined by '.'.
        const id = path.join('\u0000');
        let family = families.get(id);
        if (!family)
            families.set(id, (family = { key: path.join('.'), path, members: [] }));
        family.members.push({ index, category: split.category });
    });
    let folded = [...families.values()].filter((f) => mode === 'i18next' || f.members.some((m) => m.category === 'other'));
    if (folded.length === 0)
        return entries;
    // A family's key must be nobody else's: a plain `items` beside `items_one`, or two families reaching one dotted key.
    for (;;) {
        const inFamily = new Set();
        for (const f of folded)
            for (const m of f.members)
                inFamily.add(m.index);
        const plain = new Map();
        entries.forEach((e, i) => {
            if (!inFamily.has(i))
                plain.set(e.key, e);
        });
        const byKey = new Map();
        for (const f of folded)
            byKey.set(f.key, [...(byKey.get(f.key) ?? []), f]);
        const clashing = folded.filter((f) => plain.has(f.key) || byKey.get(f.key).length > 1);
        if (clashing.length === 0)
            break;
        if (mode === 'i18next') {
            const family = clashing[0];
            const first = entries[family.members[0].index];
            const other = plain.get(family.key) ?? entries[byKey.get(family.key).find((f) => f !== family).members[0].index];
            throw new file_unparsable_error/* FileUnparsableError */.w(`The plural family ${JSON.stringify(family.key)} (${family.members.map((m) => JSON.stringify(entries[m.index].key)).join(', ')}, from line ${first.line}) ` +
                `would have the key of ${JSON.stringify(other.key)} at line ${other.line}, column ${other.column}; rename one of them, or set plurals: none on the file rule`, first.line, first.column);
        }
        const dropped = new Set(clashing);
        folded = folded.filter((f) => !dropped.has(f));
        if (folded.length === 0)
            return entries;
    }
    const starts = new Map();
    const members = new Set();
    for (const f of folded) {
        starts.set(f.members[0].index, f);
        for (const m of f.members)
            members.add(m.index);
    }
    const out = [];
    entries.forEach((entry, index) => {
        const family = starts.get(index);
        if (family)
            out.push(familyEntry(family, entries));
        else if (!members.has(index))
            out.push(entry);
    });
    return out;
}
function familyEntry(family, entries) {
    const given = new Map(family.members.map((m) => [m.category, entries[m.index].source]));
    const plurals = {};
    for (const category of codec/* PLURAL_CATEGORIES */.M) {
        const form = given.get(category);
        if (form !== undefined)
            plurals[category] = form;
    }
    const first = entries[family.members[0].index];
    return { key: family.key, path: family.path, source: formFor(plurals, 'other'), plurals, line: first.line, column: first.column };
}
/** Whether any value is plural forms: only then does rendering need the document's structure. */
function hasPluralValue(values) {
    for (const value of values.values())
        if (typeof value !== 'string')
            return true;
    return false;
}
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/**
 * Renders a json file whose values include plural forms: each family (or a plain string) whose key has plural forms is
 * written as `base_<category>` members for the target locale, in place of its source members and where the first of
 * them stood. A family whose written categories are the source's has its strings replaced in place, in the source's
 * order, so a value equal to the source leaves every byte as it was. Other strings are rendered as `renderKeyed` does.
 */
function renderPluralFamilies(input) {
    // Refuses what parsing refuses (two paths giving one key) before anything is written.
    parseKeyed(input.source);
    const doc = scanJson(input.source);
    const { text } = doc;
    const locale = input.locale ?? input.sourceLocale ?? 'en';
    const sourceLocale = locale === (input.sourceLocale ?? 'en');
    const membersOf = (node, path) => {
        const groups = new Map();
        node.members.forEach((m, index) => {
            if (m.value.kind !== 'string')
                return;
            const split = splitPluralSuffix(m.key.value);
            const base = split?.base ?? m.key.value;
            const group = groups.get(base) ?? { base, members: [] };
            group.members.push({ index, category: split?.category });
            groups.set(base, group);
        });
        let edits;
        for (const { base, members } of groups.values()) {
            // A plain string stands for its family only alone: beside `items_one`, `items` is a key of its own.
            if (members.some((m) => m.category === undefined) && members.length > 1)
                continue;
            const value = input.values.get(path.length === 0 ? base : `${path.join('.')}.${base}`);
            if (value === undefined || typeof value === 'string')
                continue;
            const forms = value.plurals;
            // The source locale is written with the forms it has; a target with its own categories, and i18next's `_zero` (a
            // form for 0 in any language) where the source family and the value both have it.
            const categories = sourceLocale
                ? codec/* PLURAL_CATEGORIES */.M.filter((c) => forms[c] !== undefined)
                : writtenCategories(locale, isOrdinalKey(base), forms, new Set(members.some((m) => m.category === 'zero') ? ['zero'] : []));
            edits ??= new Map();
            if (categories.length === 0) {
                // No forms at all (an empty value for the source locale): the family is left out, as an untranslated one is.
                for (const { index } of members)
                    edits.set(index, { kind: 'omit' });
                continue;
            }
            const first = node.members[members[0].index];
            // The same categories as the source's members: each string is replaced where it stands, in the source's order.
            if (members.length === categories.length && members.every((m) => m.category !== undefined && categories.includes(m.category))) {
                for (const { index, category } of members) {
                    const member = node.members[index];
                    const form = formFor(forms, category);
                    const token = member.value.kind === 'string' && member.value.value === form ? text.slice(member.value.start, member.value.end) : JSON.stringify(form);
                    edits.set(index, { kind: 'text', text: text.slice(member.start, member.value.start) + token });
                }
                continue;
            }
            // Written afresh: each member as the first one was laid out (its colon's spacing, the whitespace before it).
            const colon = text.slice(first.key.end, first.value.start);
            let lead = first.start;
            while (lead > 0 && WHITESPACE.has(text.charCodeAt(lead - 1)))
                lead--;
            const separator = `,${text.slice(lead, first.start)}`;
            const written = categories.map((c) => `${JSON.stringify(`${base}_${c}`)}${colon}${JSON.stringify(formFor(forms, c))}`).join(separator);
            edits.set(members[0].index, { kind: 'text', text: written });
            for (const { index } of members.slice(1))
                edits.set(index, { kind: 'omit' });
        }
        return edits;
    };
    const rewritten = rewriteJson(doc, (value) => editFor(keyOf(value), input), membersOf);
    return rewritten === undefined ? input.source.slice() : encodeUtf8(rewritten, doc.bom);
}

;// CONCATENATED MODULE: ./src/core/formats/json.ts
// The `json` codec: any JSON object of strings, nested objects and arrays included, keyed by dotted path and written back
// byte for byte around the changed values. It reads and renders exactly as json_nested does; fresh files are written flat.
// i18next plural families (`items_one`, `items_other`) are one plural entry each (i18next-plurals.ts).



const jsonCodec = {
    id: 'json',
    extensions: ['.json'],
    plurals: true,
    detect: (fileName, head) => detectJson(fileName, head, false),
    parse(bytes, options) {
        return foldPluralFamilies(parseKeyed(bytes), options?.plurals);
    },
    render(input) {
        return hasPluralValue(input.values) ? renderPluralFamilies(input) : renderKeyed(input);
    },
    renderFresh(entries, options) {
        // One top-level member per key, dotted keys as they are: parsing reads them back under the same keys. A plural is
        // written as i18next's `key_<category>` members. A repeated key keeps its first position and its last value, as Map.set does.
        const members = new Map();
        for (const entry of entries) {
            if (typeof entry.value === 'string')
                members.set(entry.key, entry.value);
            else
                for (const [key, form] of freshPluralMembers(entry.key, entry.value.plurals, options?.locale ?? 'en'))
                    members.set(key, form);
        }
        return encodeUtf8(`${writeObject([...members])}\n`, false);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/key-tree.ts
// Dotted keys back into a tree, for fresh files of the formats that nest (json_nested, yaml, laravel_php).
// Past this many segments the rest of a key stays dotted, far below any scanner's nesting limit.
const key_tree_MAX_DEPTH = 64;
/**
 * Places a dotted key in the tree. Where a key is both a leaf and a prefix of another, the longer keys stay dotted at
 * the level of the conflict: parsing joins segments with '.', so they read back under the same keys and nothing is lost.
 */
function insertKey(level, segments, value, depth = 0) {
    const [head = '', ...rest] = segments;
    const existing = level.get(head);
    if (rest.length === 0 || depth >= key_tree_MAX_DEPTH) {
        if (existing instanceof Map && rest.length === 0) {
            // The object already here moves out as dotted leaves, in place; the leaf takes its name.
            const members = [...level];
            level.clear();
            for (const [name, member] of members) {
                if (name !== head)
                    level.set(name, member);
                else
                    for (const [path, leaf] of flattenKeys(existing))
                        level.set(`${head}.${path}`, leaf);
            }
        }
        level.set(segments.join('.'), value);
    }
    else if (typeof existing === 'string') {
        level.set(segments.join('.'), value);
    }
    else {
        const child = existing ?? new Map();
        level.set(head, child);
        insertKey(child, rest, value, depth + 1);
    }
}
/** The leaves under a level, keyed by their dotted path from it. */
function flattenKeys(level) {
    return [...level].flatMap(([name, member]) => typeof member === 'string' ? [[name, member]] : flattenKeys(member).map(([path, leaf]) => [`${name}.${path}`, leaf]));
}

;// CONCATENATED MODULE: ./src/core/formats/json-nested.ts
// The `json_nested` codec: string leaves of nested objects and arrays keyed by their dotted path, written back byte for byte.
// It reads and renders exactly as the `json` codec does; fresh files are written nested, splitting keys at '.'.




function toFresh(level) {
    return [...level].map(([name, member]) => [name, typeof member === 'string' ? member : toFresh(member)]);
}
const jsonNestedCodec = {
    id: 'json_nested',
    extensions: ['.json'],
    plurals: true,
    detect: (fileName, head) => detectJson(fileName, head, true),
    parse(bytes, options) {
        return foldPluralFamilies(parseKeyed(bytes), options?.plurals);
    },
    render(input) {
        return hasPluralValue(input.values) ? renderPluralFamilies(input) : renderKeyed(input);
    },
    renderFresh(entries, options) {
        // A repeated key keeps its first position and its last value, as Map.set does. A plural is written as i18next's
        // `key_<category>` members, beside each other in the key's object.
        const values = new Map();
        for (const entry of entries) {
            if (typeof entry.value === 'string')
                values.set(entry.key, entry.value);
            else
                for (const [key, form] of freshPluralMembers(entry.key, entry.value.plurals, options?.locale ?? 'en'))
                    values.set(key, form);
        }
        const root = new Map();
        for (const [key, value] of values)
            insertKey(root, key.split('.'), value);
        return encodeUtf8(`${writeObject(toFresh(root))}\n`, false);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/xml-scan.ts
// Shared hand-written XML scanner: decodes, checks well-formedness and keeps every node's span so codecs can splice.


const NO_PREFIXES = new Set();
// What elements without attributes, and leaf elements, share instead of an empty array each (a tree is read, never
// changed, by the codecs), so a scan allocates and keeps fewer objects.
const NO_ATTRIBUTES = [];
const NO_CHILDREN = [];
// Deep enough for any real resource file; keeps codecs that walk the tree recursively clear of stack overflow.
const xml_scan_MAX_DEPTH = 512;
const PREDEFINED_ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const PREDEFINED = new Map(Object.entries(PREDEFINED_ENTITIES));
// Characters XML 1.0 cannot carry at all, not even as references. With the `u` flag, the surrogate range only
// matches unpaired halves, which TextDecoder never yields but callers' strings may hold.
// eslint-disable-next-line no-control-regex
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;
// eslint-disable-next-line no-control-regex
const INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
// Any half of a surrogate pair (without the `u` flag, pairs are two matches of it rather than one character).
const SURROGATE = /[\uD800-\uDFFF]/;
// Anything escapeXmlText changes; most values hold none of it.
// eslint-disable-next-line no-control-regex
const TEXT_ESCAPED = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;
// Anything escapeXmlAttribute might change; most values (ids, names, locales) hold none of it.
// eslint-disable-next-line no-control-regex
const ATTRIBUTE_ESCAPED = /[&<"'\n\r\t\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;
const NAME_START = ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040`;
// eslint-disable-next-line no-misleading-character-class -- XML name characters include combining marks by design
const NAME = new RegExp(`[${NAME_START}][${NAME_CHAR}]*`, 'uy');
// Character data up to the next character that needs a closer look.
// eslint-disable-next-line no-control-regex
const PLAIN_TEXT = /[^<&\]\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]+/uy;
const XML_DECLARATION = /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>$/;
const DECLARED_ENCODING = /^(?:\uFEFF)?<\?xml[^>]*?[ \t\r\n]encoding[ \t\r\n]*=[ \t\r\n]*(["'])([^"']*)\1/;
const SUPPORTED_ENCODINGS = new Set(['utf-8', 'utf8', 'utf-16', 'utf-16le', 'utf-16be', 'ucs-2', 'unicode', 'us-ascii', 'ascii']);
// ---------------------------------------------------------------------------------------------------------------
// Bytes
/**
 * Decodes a file, recognising a BOM (UTF-8, UTF-16 LE/BE) or, without one, UTF-16 from the zero byte beside its '<'.
 * Malformed byte sequences and encodings other than UTF-8/UTF-16 are reported with their position.
 */
function decodeXml(bytes) {
    let encoding = 'utf-8';
    let skip = 0;
    const [b0, b1, b2] = [bytes[0], bytes[1], bytes[2]];
    if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf)
        skip = 3;
    else if (b0 === 0xff && b1 === 0xfe)
        [encoding, skip] = ['utf-16le', 2];
    else if (b0 === 0xfe && b1 === 0xff)
        [encoding, skip] = ['utf-16be', 2];
    // No BOM: a '<' with a zero byte beside it can only be UTF-16 (UTF-8 XML never holds a NUL).
    else if (b0 === 0x3c && b1 === 0x00)
        encoding = 'utf-16le';
    else if (b0 === 0x00 && b1 === 0x3c)
        encoding = 'utf-16be';
    const body = bytes.subarray(skip);
    const text = encoding === 'utf-8' ? decodeUtf8Strict(body) : decodeUtf16Strict(body, encoding);
    const declared = DECLARED_ENCODING.exec(text);
    if (declared && !SUPPORTED_ENCODINGS.has(declared[2].toLowerCase())) {
        const { line, column } = lineColumn(text, declared.index + declared[0].length - declared[2].length - 1);
        throw new file_unparsable_error/* FileUnparsableError */.w(`Unsupported encoding '${declared[2]}'; expected UTF-8 or UTF-16 at line ${line}, column ${column}`, line, column);
    }
    return { text, bom: skip > 0, encoding };
}
// One encoder for every render: it holds no state between calls.
const UTF8 = new TextEncoder();
/** Encodes text in the file's original encoding, restoring the BOM when the source had one. */
function encodeXml(text, bom, encoding) {
    const full = bom ? `\uFEFF${text}` : text;
    if (encoding === 'utf-8')
        return UTF8.encode(full);
    const out = new Uint8Array(full.length * 2);
    const view = new DataView(out.buffer);
    for (let i = 0; i < full.length; i++)
        view.setUint16(i * 2, full.charCodeAt(i), encoding === 'utf-16le');
    return out;
}
function decodeUtf8Strict(body) {
    try {
        return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    }
    catch {
        const bad = Math.max(0, firstInvalidUtf8(body));
        const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body.subarray(0, bad));
        const { line, column } = lineColumn(before, before.length);
        throw new file_unparsable_error/* FileUnparsableError */.w(`Invalid UTF-8 byte sequence at line ${line}, column ${column}`, line, column);
    }
}
function decodeUtf16Strict(body, encoding) {
    const units = Math.floor(body.length / 2);
    let text = '';
    const chunk = [];
    for (let i = 0; i < units; i++) {
        chunk.push(encoding === 'utf-16le' ? body[2 * i] | (body[2 * i + 1] << 8) : (body[2 * i] << 8) | body[2 * i + 1]);
        if (chunk.length === 8192) {
            text += String.fromCharCode(...chunk);
            chunk.length = 0;
        }
    }
    text += String.fromCharCode(...chunk);
    const lone = /[\uD800-\uDFFF]/u.exec(text);
    if (lone || body.length % 2 === 1) {
        const at = lone ? lone.index : text.length;
        const { line, column } = lineColumn(text, at);
        const what = lone ? 'Unpaired UTF-16 surrogate' : 'The file ends in the middle of a UTF-16 character';
        throw new file_unparsable_error/* FileUnparsableError */.w(`${what} at line ${line}, column ${column}`, line, column);
    }
    return text;
}
// ---------------------------------------------------------------------------------------------------------------
// Positions
// Codecs ask for many positions in the same text, mostly moving forward: remember its line starts and the last answer.
let cachedText;
let cachedStarts = [];
let lastOffset = -1;
let lastLine = 0;
let lastColumn = 0;
/** 1-based line and column (in code points) of a UTF-16 offset; LF, CRLF and a lone CR each end a line. */
function lineColumn(text, offset) {
    // Equal text in a different string object compares in linear time: adopting the caller's object makes the
    // following calls with it compare by identity.
    const same = text === cachedText;
    cachedText = text;
    if (!same) {
        cachedStarts = [0];
        for (let i = 0; i < text.length; i++) {
            const c = text.charCodeAt(i);
            if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a))
                cachedStarts.push(i + 1);
        }
        lastOffset = -1;
        lastLine = 0;
        lastColumn = 0;
    }
    const target = Math.max(0, Math.min(offset, text.length));
    let lo = 0;
    let hi = cachedStarts.length - 1;
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (cachedStarts[mid] <= target)
            lo = mid;
        else
            hi = mid - 1;
    }
    const lineStart = cachedStarts[lo];
    let from = lineStart;
    let column = 1;
    if (lastLine === lo + 1 && lastOffset <= target && lastOffset >= lineStart) {
        from = lastOffset;
        column = lastColumn;
    }
    for (let i = from; i < target; i++) {
        const c = text.charCodeAt(i);
        // The low half of a surrogate pair and the CR of a CRLF add no column.
        if (c >= 0xdc00 && c <= 0xdfff && i > lineStart && xml_scan_isHighSurrogate(text.charCodeAt(i - 1)))
            continue;
        if (c === 0x0d)
            continue;
        column++;
    }
    lastOffset = target;
    lastLine = lo + 1;
    lastColumn = column;
    return { line: lo + 1, column };
}
function xml_scan_isHighSurrogate(c) {
    return c >= 0xd800 && c <= 0xdbff;
}
// ---------------------------------------------------------------------------------------------------------------
// Scanning
/** Scans a decoded document; anything not well-formed (namespaces included) throws FileUnparsableError. */
function scanXml(text) {
    return new Scanner(text).scan();
}
class Scanner {
    text;
    pos = 0;
    entities = new Map(Object.entries(PREDEFINED_ENTITIES));
    // Namespace prefixes declared on each open element, innermost last.
    prefixes = [];
    attributeScratch = [];
    constructor(text) {
        this.text = text;
    }
    scan() {
        const t = this.text;
        if (t.charCodeAt(0) === 0xfeff)
            this.pos = 1;
        const documentStart = this.pos;
        this.plainColumns = !t.includes('\r');
        const nodes = [];
        const stack = [];
        // Children of the open elements, innermost last, each element's from its mark in `marks`: an element gets its
        // children as one exactly sized array when it closes, rather than an array grown by pushes (most hold one or two).
        const pending = [];
        const marks = [];
        let root;
        let doctypeSeen = false;
        const add = (node) => {
            (stack.length > 0 ? pending : nodes).push(node);
        };
        while (this.pos < t.length) {
            const start = this.pos;
            if (t.charCodeAt(start) !== 0x3c /* < */) {
                const node = this.scanText();
                if (stack.length === 0) {
                    const offset = node.raw.search(/[^ \t\r\n]/);
                    if (offset >= 0) {
                        if (root)
                            this.fail(`Expected nothing but whitespace and comments after the root element </${root.name}>`, start + offset);
                        this.fail("Expected the root element ('<'); text is not allowed before it", start + offset);
                    }
                }
                add(node);
                continue;
            }
            const next = t.charCodeAt(start + 1);
            if (next === 0x2f /* / */) {
                const element = stack.pop();
                this.scanEndTag(element);
                element.closeStart = start;
                element.end = this.pos;
                const mark = marks.pop();
                if (pending.length > mark) {
                    element.children = exactCopy(pending, mark, pending.length);
                    pending.length = mark;
                }
                this.prefixes.pop();
            }
            else if (next !== 0x21 /* ! */ && next !== 0x3f /* ? */) {
                if (stack.length === 0 && root)
                    this.fail(`Expected a single root element; found another element after </${root.name}>`, start);
                if (stack.length >= xml_scan_MAX_DEPTH)
                    this.fail(`Elements are nested more than ${xml_scan_MAX_DEPTH} levels deep`, start);
                const element = this.scanStartTag();
                add(element);
                if (stack.length === 0)
                    root = element;
                if (!element.selfClosing) {
                    stack.push(element);
                    marks.push(pending.length);
                }
                else
                    this.prefixes.pop();
            }
            else if (t.startsWith('<!--', start))
                add(this.scanComment());
            else if (t.startsWith('<![CDATA[', start)) {
                if (stack.length === 0)
                    this.fail('A CDATA section is only allowed inside the root element', start);
                add(this.scanCData());
            }
            else if (t.startsWith('<!DOCTYPE', start)) {
                if (stack.length > 0 || root)
                    this.fail('A DOCTYPE is only allowed before the root element', start);
                if (doctypeSeen)
                    this.fail('Only one DOCTYPE is allowed', start);
                doctypeSeen = true;
                add(this.scanDoctype());
            }
            else if (t.startsWith('<!', start))
                this.fail("Expected a comment ('<!--'), CDATA section or DOCTYPE after '<!'", start);
            else
                add(this.scanProcessingInstruction(start === documentStart));
        }
        const open = stack[stack.length - 1];
        if (open) {
            this.fail(`Expected '</${open.name}>' to close <${open.name}> (opened at line ${open.line}, column ${open.column}) before the end of the file`, t.length);
        }
        if (!root)
            this.fail("Expected a root element; the file has none", t.length);
        return { text: t, nodes, root };
    }
    fail(message, at = this.pos) {
        const { line, column } = lineColumn(this.text, at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    }
    // Nodes are positioned in document order, so one forward-moving counter serves them all; `locate` leaves the
    // answer in `line` and `column` rather than allocating an object per node.
    counted = 0;
    line = 1;
    column = 1;
    // Without CRs and surrogate pairs, as nearly every file is, a column is the distance from the line start, and line
    // ends are found with indexOf rather than by looking at every character. The scan clears this on meeting either.
    plainColumns = false;
    // Where the line holding `counted` starts, and the next LF at or after `counted` (-1 when not looked for yet).
    lineStart = 0;
    nextLineFeed = -1;
    locate(at) {
        const t = this.text;
        if (at < this.counted) {
            ({ line: this.line, column: this.column } = lineColumn(t, at));
            this.counted = at;
            this.lineStart = at - this.column + 1;
            this.nextLineFeed = -1;
            return;
        }
        if (this.plainColumns) {
            let { line, lineStart, nextLineFeed } = this;
            if (nextLineFeed < 0)
                nextLineFeed = t.indexOf('\n', this.counted);
            while (nextLineFeed >= 0 && nextLineFeed < at) {
                line++;
                lineStart = nextLineFeed + 1;
                nextLineFeed = t.indexOf('\n', lineStart);
            }
            this.counted = at;
            this.line = line;
            this.column = at - lineStart + 1;
            this.lineStart = lineStart;
            // No LF left is remembered as one past the end, so the search is not repeated for every node of the last line.
            this.nextLineFeed = nextLineFeed < 0 ? t.length : nextLineFeed;
            return;
        }
        let { line, column } = this;
        let index = this.counted;
        for (; index < at; index++) {
            const c = t.charCodeAt(index);
            if (c > 0x0d && c < 0xdc00) {
                column++;
            }
            else if (c === 0x0a || (c === 0x0d && t.charCodeAt(index + 1) !== 0x0a)) {
                line++;
                column = 1;
            }
            else if (c === 0x0d || (c >= 0xdc00 && c <= 0xdfff && xml_scan_isHighSurrogate(t.charCodeAt(index - 1)))) {
                // The CR of a CRLF and the low half of a surrogate pair add no column.
            }
            else {
                column++;
            }
        }
        this.counted = index;
        this.line = line;
        this.column = column;
    }
    skipWhitespace() {
        const t = this.text;
        const from = this.pos;
        let at = from;
        for (let c = t.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = t.charCodeAt(++at))
            ;
        this.pos = at;
        return at - from;
    }
    // Recently read names, by a hash of their first and last characters and length.
    names = new Array(64).fill(undefined);
    scanName(what) {
        // ASCII names, nearly all of them, are read without the Unicode-aware expression.
        const t = this.text;
        const start = this.pos;
        let c = t.charCodeAt(start);
        if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a) {
            let end = start + 1;
            for (c = t.charCodeAt(end); isAsciiNameChar(c); c = t.charCodeAt(++end))
                ;
            if (!(c >= 0x80)) {
                this.pos = end;
                // A document repeats a handful of names: the same string serves each occurrence, rather than a copy per
                // node that every collection during the scan has to move.
                const slot = (t.charCodeAt(start) * 31 + (end - start) * 7 + t.charCodeAt(end - 1)) & 63;
                const known = this.names[slot];
                if (known !== undefined && known.length === end - start && t.startsWith(known, start))
                    return known;
                const name = t.slice(start, end);
                this.names[slot] = name;
                return name;
            }
        }
        // A name beyond ASCII may hold a surrogate pair: columns are then counted character by character.
        this.plainColumns = false;
        NAME.lastIndex = this.pos;
        const match = NAME.exec(this.text);
        if (!match)
            this.fail(`Expected ${what}`);
        this.pos = NAME.lastIndex;
        return match[0];
    }
    /** Rejects characters XML cannot carry in raw content between `from` and `to`. */
    checkChars(from, to) {
        const slice = this.text.slice(from, to);
        if (this.plainColumns && SURROGATE.test(slice))
            this.plainColumns = false;
        const bad = INVALID_CHAR.exec(slice);
        if (bad)
            this.fail(`Character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML`, from + bad.index);
    }
    // Whitespace runs sliced so far, by length: indentation repeats, and one string per depth serves every node that has
    // it (a document indented with tabs and spaces alike just replaces them more often).
    spaces = [];
    /** The text between `start` and `end`, reusing the string of an earlier whitespace run of that length when it is the same. */
    sliceText(start, end) {
        const t = this.text;
        const length = end - start;
        const known = length <= 64 ? this.spaces[length] : undefined;
        if (known !== undefined && t.startsWith(known, start))
            return known;
        const raw = t.slice(start, end);
        if (length <= 64 && isXmlSpace(raw.charCodeAt(0)) && isXmlSpace(raw.charCodeAt(length - 1)) && /^[ \t\r\n]*$/.test(raw))
            this.spaces[length] = raw;
        return raw;
    }
    scanText() {
        const t = this.text;
        const start = this.pos;
        // Most runs (indentation, plain words) need no decoding: take them whole. Anything unusual (references, CR,
        // surrogates, characters XML forbids) goes the careful way below.
        // The five built-in entities are common enough in values to be taken in this stride too, decoded in one pass.
        let end = start;
        let decoded = '';
        let from = start;
        for (let c = t.charCodeAt(end);; c = t.charCodeAt(++end)) {
            if (c >= 0x20 ? c !== 0x3c && c !== 0x26 && c !== 0x5d && c < 0xd800 : c === 0x0a || c === 0x09)
                continue;
            const length = c === 0x26 ? predefinedReferenceLength(t, end) : 0;
            if (length === 0)
                break;
            decoded += t.slice(from, end) + decodePredefined(t, end);
            end += length - 1;
            from = end + 1;
        }
        if (end > start && (end === t.length || t.charCodeAt(end) === 0x3c)) {
            this.pos = end;
            const references = from > start;
            const raw = references ? t.slice(start, end) : this.sliceText(start, end);
            this.locate(start);
            const value = references ? flat(decoded + t.slice(from, end)) : raw;
            return { kind: 'text', raw, value, start, end, line: this.line, column: this.column };
        }
        let value = '';
        while (this.pos < t.length) {
            PLAIN_TEXT.lastIndex = this.pos;
            if (PLAIN_TEXT.exec(t)) {
                value += t.slice(this.pos, PLAIN_TEXT.lastIndex);
                this.pos = PLAIN_TEXT.lastIndex;
                continue;
            }
            const c = t.charCodeAt(this.pos);
            if (c === 0x3c /* < */)
                break;
            if (c === 0x26 /* & */)
                value += this.scanReference();
            else if (c === 0x5d /* ] */) {
                if (t.startsWith(']]>', this.pos))
                    this.fail("']]>' is not allowed in text; write it as ']]&gt;'");
                value += ']';
                this.pos++;
            }
            else if (c === 0x0d) {
                value += '\n';
                this.pos += t.charCodeAt(this.pos + 1) === 0x0a ? 2 : 1;
            }
            else if (xml_scan_isHighSurrogate(c) && t.charCodeAt(this.pos + 1) >= 0xdc00 && t.charCodeAt(this.pos + 1) <= 0xdfff) {
                value += t.slice(this.pos, this.pos + 2);
                this.pos += 2;
            }
            else {
                this.checkChars(this.pos, this.pos + 1);
                value += t[this.pos];
                this.pos++;
            }
        }
        const raw = t.slice(start, this.pos);
        // PLAIN_TEXT takes surrogate pairs in its stride.
        if (this.plainColumns && SURROGATE.test(raw))
            this.plainColumns = false;
        this.locate(start);
        return { kind: 'text', raw, value, start, end: this.pos, line: this.line, column: this.column };
    }
    /** Decodes `&name;`, `&#N;` or `&#xH;` at the cursor. */
    scanReference() {
        const t = this.text;
        const start = this.pos;
        const semi = t.indexOf(';', start);
        const body = semi < 0 ? '' : t.slice(start + 1, semi);
        let value = PREDEFINED.get(body);
        if (value !== undefined) {
            this.pos = semi + 1;
            return value;
        }
        const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
        if (numeric) {
            const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2], 10);
            if (code <= 0x10ffff) {
                const char = String.fromCodePoint(code);
                if (!INVALID_CHAR.test(char))
                    value = char;
            }
            if (value === undefined)
                this.fail(`Character reference '&${body};' is not a character XML allows`, start);
        }
        else if (/^[^\s&<>"'#;]+$/.test(body)) {
            value = this.entities.get(body);
            if (value === undefined)
                this.fail(`Unknown entity '&${body};'; expected &amp; &lt; &gt; &quot; &apos; or a character reference`, start);
        }
        else {
            this.fail("Expected an entity or character reference after '&' (write a literal '&' as '&amp;')", start);
        }
        this.pos = semi + 1;
        return value;
    }
    scanComment() {
        const t = this.text;
        const start = this.pos;
        const close = t.indexOf('--', start + 4);
        if (close < 0)
            this.fail("Expected '-->' to close the comment", t.length);
        if (t.charCodeAt(close + 2) !== 0x3e)
            this.fail("'--' is not allowed inside a comment", close);
        this.checkChars(start + 4, close);
        this.pos = close + 3;
        this.locate(start);
        return { kind: 'comment', value: normalizeLineEnds(t.slice(start + 4, close)), start, end: this.pos, line: this.line, column: this.column };
    }
    scanCData() {
        const t = this.text;
        const start = this.pos;
        const close = t.indexOf(']]>', start + 9);
        if (close < 0)
            this.fail("Expected ']]>' to close the CDATA section", t.length);
        this.checkChars(start + 9, close);
        this.pos = close + 3;
        this.locate(start);
        return { kind: 'cdata', value: normalizeLineEnds(t.slice(start + 9, close)), start, end: this.pos, line: this.line, column: this.column };
    }
    scanProcessingInstruction(atDocumentStart) {
        const t = this.text;
        const start = this.pos;
        this.pos += 2;
        const target = this.scanName('a processing instruction target after \'<?\'');
        const close = t.indexOf('?>', this.pos);
        if (close < 0)
            this.fail("Expected '?>' to close the processing instruction", t.length);
        if (close > this.pos && !/[ \t\r\n]/.test(t[this.pos]))
            this.fail("Expected whitespace or '?>' after the processing instruction target");
        this.checkChars(this.pos, close);
        this.pos = close + 2;
        const raw = t.slice(start, this.pos);
        if (target === 'xml') {
            if (!atDocumentStart)
                this.fail('The XML declaration (<?xml ...?>) is only allowed at the very start of the file', start);
            if (!XML_DECLARATION.test(raw))
                this.fail('Malformed XML declaration; expected <?xml version="1.0" encoding="..."?>', start);
        }
        else if (target.toLowerCase() === 'xml') {
            this.fail(`The processing instruction target '${target}' is reserved`, start);
        }
        this.locate(start);
        return { kind: 'pi', raw, start, end: this.pos, line: this.line, column: this.column };
    }
    scanDoctype() {
        const t = this.text;
        const start = this.pos;
        this.pos += 9;
        if (this.skipWhitespace() === 0)
            this.fail("Expected whitespace after '<!DOCTYPE'");
        this.scanName('the document type name');
        let subset;
        for (;;) {
            this.skipWhitespace();
            const c = t[this.pos];
            if (c === undefined)
                this.fail("Expected '>' to close the DOCTYPE", t.length);
            if (c === '>')
                break;
            if (c === '"' || c === "'") {
                const close = t.indexOf(c, this.pos + 1);
                if (close < 0)
                    this.fail(`Expected ${c} to close the quoted DOCTYPE identifier`, t.length);
                this.pos = close + 1;
            }
            else if (c === '[') {
                const subsetStart = ++this.pos;
                this.skipInternalSubset();
                subset = [subsetStart, this.pos];
                this.pos++;
            }
            else if (/[A-Z]/.test(c)) {
                this.scanName('SYSTEM or PUBLIC');
            }
            else {
                this.fail("Expected SYSTEM, PUBLIC, a quoted identifier, '[' or '>' in the DOCTYPE");
            }
        }
        this.pos++;
        this.checkChars(start, this.pos);
        if (subset)
            this.declareEntities(t.slice(subset[0], subset[1]));
        this.locate(start);
        return { kind: 'doctype', raw: t.slice(start, this.pos), start, end: this.pos, line: this.line, column: this.column };
    }
    /** Moves to the ']' ending an internal subset, stepping over quoted literals and comments that may contain one. */
    skipInternalSubset() {
        const t = this.text;
        while (this.pos < t.length) {
            const c = t[this.pos];
            if (c === ']')
                return;
            if (c === '"' || c === "'") {
                const close = t.indexOf(c, this.pos + 1);
                if (close < 0)
                    break;
                this.pos = close + 1;
            }
            else if (t.startsWith('<!--', this.pos)) {
                const close = t.indexOf('-->', this.pos + 4);
                if (close < 0)
                    break;
                this.pos = close + 3;
            }
            else
                this.pos++;
        }
        this.fail("Expected ']' to close the DOCTYPE's internal subset", t.length);
    }
    // Internal entities with plain-text replacement are honoured; ones holding markup stay unknown, so they fail loudly.
    declareEntities(subset) {
        const declaration = /<!ENTITY[ \t\r\n]+([^\s%]+)[ \t\r\n]+(["'])([^]*?)\2[ \t\r\n]*>/g;
        for (const [, name, , literal] of subset.matchAll(declaration)) {
            if (this.entities.has(name) || /[<&%]/.test(literal.replace(/&#(?:x[0-9A-Fa-f]+|[0-9]+);/g, '')))
                continue;
            this.entities.set(name, literal.replace(/&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g, (_, hex, dec) => String.fromCodePoint(hex !== undefined ? parseInt(hex, 16) : parseInt(dec, 10))));
        }
    }
    scanStartTag() {
        const t = this.text;
        const start = this.pos;
        this.pos++;
        const name = this.scanName("an element name after '<'");
        // Collected in a reused array and copied out at its exact size.
        // (Counted rather than truncated: emptying an array frees its store, and the next push would allocate one.)
        const scratch = this.attributeScratch;
        let count = 0;
        let selfClosing = false;
        for (;;) {
            const spaced = this.skipWhitespace() > 0;
            const c = t.charCodeAt(this.pos);
            if (c === 0x3e /* > */) {
                this.pos++;
                break;
            }
            if (c === 0x2f /* / */) {
                if (t.charCodeAt(this.pos + 1) !== 0x3e)
                    this.fail("Expected '>' after '/' in the start tag");
                this.pos += 2;
                selfClosing = true;
                break;
            }
            if (this.pos >= t.length)
                this.fail(`Expected '>' to close the start tag <${name}>`, t.length);
            if (!spaced)
                this.fail(`Expected whitespace, '>' or '/>' in the start tag <${name}>`);
            const attribute = this.scanAttribute();
            for (let i = 0; i < count; i++)
                if (scratch[i].name === attribute.name)
                    this.fail(`Attribute '${attribute.name}' appears twice on <${name}>`, attribute.start);
            scratch[count++] = attribute;
        }
        const attributes = count === 0 ? NO_ATTRIBUTES : exactCopy(scratch, 0, count);
        this.checkNamespaces(name, start, attributes);
        this.locate(start);
        const element = {
            kind: 'element',
            name,
            attributes,
            children: NO_CHILDREN,
            start,
            end: this.pos,
            openEnd: this.pos,
            closeStart: this.pos,
            selfClosing,
            line: this.line,
            column: this.column,
        };
        return element;
    }
    scanAttribute() {
        const t = this.text;
        const start = this.pos;
        const name = this.scanName('an attribute name');
        this.skipWhitespace();
        if (t.charCodeAt(this.pos) !== 0x3d /* = */)
            this.fail(`Expected '=' after the attribute name '${name}'`);
        this.pos++;
        this.skipWhitespace();
        const quote = t[this.pos];
        if (quote !== '"' && quote !== "'")
            this.fail(`Expected a quoted value for the attribute '${name}'`);
        const quoteCode = quote.charCodeAt(0);
        const valueStart = ++this.pos;
        let value = '';
        for (;;) {
            // Plain characters are copied as one run rather than one by one.
            const runStart = this.pos;
            let unit = t.charCodeAt(this.pos);
            while (unit > 0x3c ? unit < 0xd800 : unit >= 0x20 && unit !== 0x26 && unit !== 0x3c && unit !== quoteCode)
                unit = t.charCodeAt(++this.pos);
            if (this.pos > runStart)
                value += t.slice(runStart, this.pos);
            const c = t[this.pos];
            if (c === undefined)
                this.fail(`Expected ${quote} to close the value of the attribute '${name}'`, t.length);
            if (c === quote)
                break;
            if (c === '<')
                this.fail(`'<' is not allowed in an attribute value (write it as '&lt;')`);
            if (c === '&') {
                value += this.scanReference();
                continue;
            }
            if (c === '\r') {
                // Literal line ends and tabs read as spaces (XML attribute-value normalisation); references keep them.
                value += ' ';
                this.pos += t[this.pos + 1] === '\n' ? 2 : 1;
                continue;
            }
            const code = c.charCodeAt(0);
            if (xml_scan_isHighSurrogate(code) && t.charCodeAt(this.pos + 1) >= 0xdc00 && t.charCodeAt(this.pos + 1) <= 0xdfff) {
                this.plainColumns = false;
                value += t.slice(this.pos, this.pos + 2);
                this.pos += 2;
                continue;
            }
            this.checkChars(this.pos, this.pos + 1);
            value += c === '\n' || c === '\t' ? ' ' : c;
            this.pos++;
        }
        const valueEnd = this.pos++;
        return { name, value, start, end: this.pos, valueStart, valueEnd, quote };
    }
    /** Namespace well-formedness: a prefixed name needs its prefix declared here or on an ancestor. */
    checkNamespaces(name, start, attributes) {
        // Most elements declare nothing: they share one empty set instead of allocating their own.
        let declared;
        for (const a of attributes)
            if (a.name.startsWith('xmlns:'))
                (declared ??= new Set()).add(a.name.slice(6));
        this.prefixes.push(declared ?? NO_PREFIXES);
        this.checkQualifiedName(name, start + 1, 'Element');
        for (const a of attributes)
            this.checkQualifiedName(a.name, a.start, 'Attribute');
    }
    checkQualifiedName(qualified, at, what) {
        const colon = qualified.indexOf(':');
        if (colon < 0)
            return;
        // One colon, with a name on either side of it.
        if (colon === 0 || colon === qualified.length - 1 || qualified.includes(':', colon + 1))
            this.fail(`${what} '${qualified}' is not a valid qualified name`, at);
        const prefix = qualified.slice(0, colon);
        if (prefix === 'xml' || prefix === 'xmlns')
            return;
        if (!this.prefixes.some((s) => s.has(prefix)))
            this.fail(`Namespace prefix '${prefix}' of ${what.toLowerCase()} '${qualified}' is not declared (expected an xmlns:${prefix} attribute)`, at);
    }
    scanEndTag(open) {
        const t = this.text;
        const start = this.pos;
        this.pos += 2;
        // The expected name, as it nearly always is, is matched in place rather than read into a new string.
        if (open && t.startsWith(open.name, this.pos) && !isAsciiNameChar(t.charCodeAt(this.pos + open.name.length)) && t.charCodeAt(this.pos + open.name.length) < 0x80) {
            this.pos += open.name.length;
            this.skipWhitespace();
            if (t.charCodeAt(this.pos) === 0x3e) {
                this.pos++;
                return;
            }
            this.pos = start + 2;
        }
        const name = this.scanName("an element name after '</'");
        this.skipWhitespace();
        if (t[this.pos] !== '>')
            this.fail(`Expected '>' to close the end tag </${name}>`, this.pos >= t.length ? t.length : this.pos);
        if (!open)
            this.fail(`Unexpected end tag </${name}>: no element is open`, start);
        if (open.name !== name) {
            this.fail(`Expected '</${open.name}>' to close <${open.name}> (opened at line ${open.line}, column ${open.column}); found '</${name}>'`, start);
        }
        this.pos++;
    }
}
/**
 * `items.slice(from, to)`, written as an array literal for the short lengths nearly every element has. The tree lives
 * as long as the codec reading it, and V8 allocates what a literal site keeps producing for long straight into the
 * old generation, where `slice` copies are first moved there, each, by young-generation collections.
 */
function exactCopy(items, from, to) {
    switch (to - from) {
        case 1:
            return [items[from]];
        case 2:
            return [items[from], items[from + 1]];
        case 3:
            return [items[from], items[from + 1], items[from + 2]];
        case 4:
            return [items[from], items[from + 1], items[from + 2], items[from + 3]];
        case 5:
            return [items[from], items[from + 1], items[from + 2], items[from + 3], items[from + 4]];
        default:
            return items.slice(from, to);
    }
}
/**
 * The same string, flattened now: a value built piece by piece is a chain of small objects until first read, and a
 * document's worth of chains would otherwise be copied through every young-generation collection of the scan.
 */
function flat(s) {
    s.charCodeAt(0);
    return s;
}
function isXmlSpace(c) {
    return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}
/** The length of the built-in entity reference at `at` ('&amp;', '&lt;', ...), or 0 when there is none. */
function predefinedReferenceLength(t, at) {
    switch (t.charCodeAt(at + 1)) {
        case 0x61 /* a */:
            return t.startsWith('mp;', at + 2) ? 5 : t.startsWith('pos;', at + 2) ? 6 : 0;
        case 0x6c /* l */:
        case 0x67 /* g */:
            return t.charCodeAt(at + 2) === 0x74 /* t */ && t.charCodeAt(at + 3) === 0x3b /* ; */ ? 4 : 0;
        case 0x71 /* q */:
            return t.startsWith('uot;', at + 2) ? 6 : 0;
        default:
            return 0;
    }
}
/** The character of the predefined entity at `at` (`&amp;`, `&apos;`, `&lt;`, `&gt;` or `&quot;`, already matched). */
function decodePredefined(t, at) {
    switch (t.charCodeAt(at + 1)) {
        case 0x61:
            return t.charCodeAt(at + 2) === 0x6d ? '&' : "'";
        case 0x6c:
            return '<';
        case 0x67:
            return '>';
        default:
            return '"';
    }
}
function isAsciiNameChar(c) {
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e;
}
function normalizeLineEnds(s) {
    return s.includes('\r') ? s.replace(/\r\n?/g, '\n') : s;
}
// ---------------------------------------------------------------------------------------------------------------
// Writing and tree helpers
/**
 * Escapes text content: & < and > (so ']]>' can never appear), and CR as a reference so a parser does not fold it
 * into a line end. Characters XML 1.0 cannot carry at all become U+FFFD rather than an unreadable file.
 */
function escapeXmlText(value) {
    if (!TEXT_ESCAPED.test(value))
        return value;
    // One pass copying the runs between escapes.
    let out = '';
    let from = 0;
    for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        let escaped;
        if (c === 0x26)
            escaped = '&amp;';
        else if (c === 0x3c)
            escaped = '&lt;';
        else if (c === 0x3e)
            escaped = '&gt;';
        else if (c === 0x0d)
            escaped = '&#13;';
        else if (c >= 0xd800 && c <= 0xdfff) {
            const next = value.charCodeAt(i + 1);
            if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
                i++;
                continue;
            }
            escaped = '\uFFFD';
        }
        else if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0xfffe || c === 0xffff)
            escaped = '\uFFFD';
        else
            continue;
        out += value.slice(from, i) + escaped;
        from = i + 1;
    }
    // A render keeps every escaped value until the file is joined: one string each, not a chain of pieces.
    return flat(out + value.slice(from));
}
/** Escapes an attribute value for the given quote: & < the quote, and \n \r \t as references (parsers fold them to spaces). */
function escapeXmlAttribute(value, quote) {
    if (!ATTRIBUTE_ESCAPED.test(value))
        return value;
    return value.replace(INVALID_CHARS, '\uFFFD').replace(/[&<"'\n\r\t]/g, (c) => {
        switch (c) {
            case '&':
                return '&amp;';
            case '<':
                return '&lt;';
            case '\n':
                return '&#10;';
            case '\r':
                return '&#13;';
            case '\t':
                return '&#9;';
            default:
                return c === quote ? (c === '"' ? '&quot;' : '&apos;') : c;
        }
    });
}
/** The decoded text of every text and CDATA descendant, in document order. */
function textContent(el) {
    // Most elements hold a single text node, or nothing.
    const only = el.children.length === 1 ? el.children[0] : undefined;
    if (only && (only.kind === 'text' || only.kind === 'cdata'))
        return only.value;
    if (el.children.length === 0)
        return '';
    let out = '';
    const pending = [...el.children].reverse();
    while (pending.length > 0) {
        const node = pending.pop();
        if (node.kind === 'text' || node.kind === 'cdata')
            out += node.value;
        else if (node.kind === 'element')
            for (let i = node.children.length - 1; i >= 0; i--)
                pending.push(node.children[i]);
    }
    return out;
}
/** Child elements, optionally only those with the given qualified name. */
function childElements(el, name) {
    return el.children.filter((n) => n.kind === 'element' && (name === undefined || n.name === name));
}
function attribute(el, name) {
    for (const a of el.attributes)
        if (a.name === name)
            return a;
    return undefined;
}
/** Applies non-overlapping edits given in any order; an overlap is a programming error. */
function splice(text, edits) {
    // Codecs mostly emit edits in document order already: then there is nothing to copy and sort.
    let ordered = true;
    for (let i = 1; i < edits.length && ordered; i++) {
        const a = edits[i - 1];
        const b = edits[i];
        ordered = a.start < b.start || (a.start === b.start && a.end <= b.end);
    }
    const sorted = ordered ? edits : [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
    // Pieces joined once: concatenating a document's worth of them builds a chain the encoder must then flatten.
    const parts = [];
    let at = 0;
    for (const edit of sorted) {
        if (edit.start < at || edit.end < edit.start || edit.end > text.length) {
            throw new Error(`splice: edit ${edit.start}..${edit.end} overlaps another or lies outside the text`);
        }
        if (edit.start > at)
            parts.push(text.slice(at, edit.start));
        if (edit.text !== '')
            parts.push(edit.text);
        at = edit.end;
    }
    parts.push(text.slice(at));
    return parts.join('');
}
/** The whitespace at the start of the line holding `offset` (empty when something precedes it on the line). */
function lineIndent(text, offset) {
    let i = offset;
    while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t'))
        i--;
    return i === 0 || text[i - 1] === '\n' || text[i - 1] === '\r' ? text.slice(i, offset) : '';
}
/**
 * Where to start removing a node so its line goes with it: back over the indentation and the line end before it.
 * Inline nodes (no line end before them) take the whitespace run before them instead.
 */
function removalStart(text, start) {
    let i = start;
    while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t'))
        i--;
    if (text[i - 1] === '\n') {
        i--;
        if (text[i - 1] === '\r')
            i--;
        return i;
    }
    if (text[i - 1] === '\r')
        return i - 1;
    return i;
}
/** The file's line ending, judged by its first line end ('\n' when it has none). */
function lineEnding(text) {
    const lf = text.indexOf('\n');
    return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n';
}
/** An edit that makes `el` hold `content` instead of its current content, expanding a self-closing tag. */
function contentEdit(text, el, content) {
    if (!el.selfClosing)
        return { start: el.openEnd, end: el.closeStart, text: content };
    const slash = text.lastIndexOf('/', el.end - 1);
    return { start: slash, end: el.end, text: `>${content}</${el.name}>` };
}
/** Canonical CLDR order, so inserted categories land where a person would put them. */
const CATEGORY_RANK = { zero: 0, one: 1, two: 2, few: 3, many: 4, other: 5 };
/** What separates two slots: the whitespace between the first two, else the line break and indentation before the first. */
function slotSeparator(text, slots) {
    const [first, second] = slots;
    if (first && second) {
        const between = text.slice(first.end, second.start);
        if (/^[ \t\r\n]*$/.test(between))
            return between;
    }
    if (!first)
        return '';
    const lead = text.slice(removalStart(text, first.start), first.start);
    return /^[ \t]*$/.test(lead) ? '' : lead;
}
/**
 * Edits that leave exactly `categories` among `slots` (the caller edits the content of slots it keeps): slots of other
 * categories are removed with their line, new ones (built by `make`) are inserted next to their CLDR neighbour using
 * the existing separator. Returns undefined when there is no slot to anchor on; the caller then fills the container.
 */
function pluralSlotEdits(text, slots, categories, make) {
    if (slots.length === 0)
        return categories.length === 0 ? [] : undefined;
    const wanted = new Set(categories);
    const existing = new Set(slots.map((s) => s.category));
    const edits = [];
    for (const slot of slots)
        if (!wanted.has(slot.category))
            edits.push({ start: removalStart(text, slot.start), end: slot.end, text: '' });
    const added = categories.filter((c) => !existing.has(c)).sort((a, b) => (CATEGORY_RANK[a] ?? 9) - (CATEGORY_RANK[b] ?? 9));
    if (added.length === 0)
        return edits;
    const sep = slotSeparator(text, slots);
    const kept = slots.filter((s) => wanted.has(s.category));
    if (kept.length === 0) {
        const last = slots[slots.length - 1];
        edits.push({ start: last.end, end: last.end, text: added.map((c) => sep + make(c)).join('') });
        return edits;
    }
    const after = new Map();
    const before = [];
    for (const category of added) {
        const rank = CATEGORY_RANK[category] ?? 9;
        let anchor;
        for (const slot of kept) {
            const r = CATEGORY_RANK[slot.category] ?? 9;
            if (r < rank && (!anchor || r > (CATEGORY_RANK[anchor.category] ?? 9)))
                anchor = slot;
        }
        if (anchor)
            after.set(anchor, [...(after.get(anchor) ?? []), category]);
        else
            before.push(category);
    }
    for (const [slot, list] of after)
        edits.push({ start: slot.end, end: slot.end, text: list.map((c) => sep + make(c)).join('') });
    if (before.length > 0) {
        const lowest = kept.reduce((a, b) => ((CATEGORY_RANK[b.category] ?? 9) < (CATEGORY_RANK[a.category] ?? 9) ? b : a));
        edits.push({ start: lowest.start, end: lowest.start, text: before.map((c) => make(c) + sep).join('') });
    }
    return edits;
}

;// CONCATENATED MODULE: ./src/core/formats/android-xml.ts
// Android string resources (res/values*/strings.xml): strings, plurals and string arrays with Android's own escaping.




/*
 * Value representation. Android reads a string's text through its own escaping layer on top of XML: unquoted
 * whitespace collapses and is trimmed, "..." keeps whitespace, \' \" \\ \n \t \@ \? \uXXXX are escapes, and an
 * unescaped apostrophe is an error (aapt2 refuses the file, so we do too). A plain string's entry text is what the app
 * gets from getString(). A string holding markup (<b>, <xliff:g>, ...) keeps it: its entry text is the inner XML with
 * the tags exactly as written and the text between them decoded, re-escaped only where it would read as markup
 * (&amp; &lt;).
 */
const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:1.2';
// ---------------------------------------------------------------------------------------------------------------
// Android escaping
/**
 * Decodes content the way aapt2 does, fed piece by piece: text to run through Android's unescaping, and (for markup
 * strings, `xml` set) tags kept verbatim. Decoded text of a markup string is re-escaped for XML, and whitespace
 * collapsing restarts at each tag, as aapt2 does per text run.
 */
class AndroidDecoder {
    fail;
    out = '';
    // Whether the first and the last piece appended are a collapsed space, which the end result drops.
    startSoft = false;
    endSoft = false;
    quote = false;
    lastSpace = false;
    xml = false;
    // One decoder serves every string of a file (`reset` before each), rather than a decoder and a closure per string.
    constructor(fail) {
        this.fail = fail;
    }
    reset(xml) {
        this.out = '';
        this.startSoft = false;
        this.endSoft = false;
        this.quote = false;
        this.lastSpace = false;
        this.xml = xml;
    }
    append(s, soft) {
        if (this.out === '')
            this.startSoft = soft;
        this.out += s;
        this.endSoft = soft;
    }
    /** Markup kept as written. */
    raw(text) {
        this.append(text, false);
        this.lastSpace = false;
    }
    text(v, node) {
        const xml = this.xml;
        for (let i = 0; i < v.length; i++) {
            // Ordinary characters are taken as one run: appending them one by one is what made large files slow. Inside
            // quotes white space is ordinary; outside, so is a single space after something written (an ordinary character,
            // or an escape, a tag) and before an ordinary character or an escape: it collapses to itself, and being neither
            // the first nor the last piece it is never trimmed.
            let runEnd = i;
            while (runEnd < v.length) {
                const c = v.charCodeAt(runEnd);
                if (isPlainAndroidChar(c, xml))
                    runEnd++;
                else if (this.quote ? isAndroidSpace(c) : c === 0x20 && (runEnd > i || (!this.lastSpace && this.out !== '')) && isOrdinaryAfterSpace(v, runEnd + 1, xml))
                    runEnd++;
                else
                    break;
            }
            if (runEnd > i) {
                this.append(runEnd - i === v.length ? v : v.slice(i, runEnd), false);
                this.lastSpace = false;
                i = runEnd - 1;
                continue;
            }
            const c = v[i];
            if (!this.quote && isAndroidSpace(c.charCodeAt(0))) {
                if (!this.lastSpace)
                    this.append(' ', true);
                this.lastSpace = true;
                continue;
            }
            this.lastSpace = false;
            if (c === '\\') {
                const n = v[++i];
                if (n === undefined)
                    break;
                if (n === 't')
                    this.append('\t', false);
                else if (n === 'n')
                    this.append('\n', false);
                else if (n === 'u') {
                    let hex = '';
                    while (hex.length < 4 && i + 1 < v.length) {
                        const h = v[i + 1];
                        if (!/[0-9A-Fa-f]/.test(h))
                            this.fail(node, i + 1, `Expected 4 hex digits after \\u (invalid unicode escape sequence)`);
                        hex += h;
                        i++;
                    }
                    this.append(escapeIf(xml, String.fromCharCode(parseInt(hex || '0', 16))), false);
                }
                else
                    this.append(escapeIf(xml, n), false);
            }
            else if (c === '"') {
                this.quote = !this.quote;
            }
            else if (c === "'" && !this.quote) {
                this.fail(node, i, "Unescaped apostrophe in a string; expected \\' or the whole text in double quotes");
            }
            else {
                this.append(escapeIf(xml, c), false);
            }
        }
    }
    finish() {
        let out = this.out;
        if (this.startSoft)
            out = out.slice(1);
        if (this.endSoft && out.endsWith(' '))
            out = out.slice(0, -1);
        // The pieces appended are kept only until the file is read: one string instead of a chain of them.
        return flat(out);
    }
}
/** Whether what starts at `at` is written as something other than white space: an ordinary character or an escape. */
function isOrdinaryAfterSpace(v, at, xml) {
    if (at >= v.length)
        return false;
    const c = v.charCodeAt(at);
    return isPlainAndroidChar(c, xml) || (c === 0x5c /* \\ */ && at + 1 < v.length);
}
/** Android's white space: space, tab, LF, CR, VT, FF. */
function isAndroidSpace(c) {
    return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
/** Whether a character decodes to itself: not whitespace, not a backslash or a quote, and not markup to escape. */
function isPlainAndroidChar(c, xml) {
    if (c <= 0x20)
        return c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0b && c !== 0x0c;
    if (c === 0x5c /* \\ */ || c === 0x22 /* " */ || c === 0x27 /* ' */)
        return false;
    return !xml || (c !== 0x26 /* & */ && c !== 0x3c /* < */);
}
// Only what would read as markup is escaped, so a markup value's text looks like what the translator typed.
function escapeIf(xml, s) {
    return xml ? s.replace(/[&<]/g, (c) => (c === '&' ? '&amp;' : '&lt;')) : s;
}
// Characters written as \uXXXX: XML cannot carry them (or a parser would fold them into a line end or a space).
// eslint-disable-next-line no-control-regex
const UNICODE_ESCAPED = /[\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDFFF]/u;
// Any character escapeChar changes.
// eslint-disable-next-line no-control-regex
const ANDROID_ESCAPED = /[\\"'\n\t\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF\uD800-\uDFFF]/u;
/** Android-escapes one character of a value; `'` needs no escape inside "...". */
function escapeChar(c, quoted) {
    switch (c) {
        case '\\':
            return '\\\\';
        case '"':
            return '\\"';
        case "'":
            return quoted ? "'" : "\\'";
        case '\n':
            return '\\n';
        case '\t':
            return '\\t';
        default:
            return UNICODE_ESCAPED.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
    }
}
// Any character androidXmlEncode changes: Android's escapes and the markup characters of XML text.
// eslint-disable-next-line no-control-regex
const ANDROID_XML_ESCAPED = /[\\"'\n\t&<>\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF\uD800-\uDFFF]/u;
/**
 * escapeChar over a whole value, copying the runs between escapes rather than each character; with `xml`, also
 * escapes & < and > as XML text does, in the same pass.
 */
function escapeChars(value, quoted, xml = false) {
    let out = '';
    let from = 0;
    for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        let escaped;
        if (xml && (c === 0x26 || c === 0x3c || c === 0x3e))
            escaped = c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : '&gt;';
        else if (c === 0x5c /* \\ */)
            escaped = '\\\\';
        else if (c === 0x22 /* " */)
            escaped = '\\"';
        else if (c === 0x27 /* ' */) {
            if (quoted)
                continue;
            escaped = "\\'";
        }
        else if (c === 0x0a)
            escaped = '\\n';
        else if (c === 0x09)
            escaped = '\\t';
        else if (c >= 0xd800 && c <= 0xdfff) {
            // A surrogate pair is one character and needs no escape; a lone half does.
            const next = value.charCodeAt(i + 1);
            if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
                i++;
                continue;
            }
            escaped = unicodeEscape(c);
        }
        else if (c < 0x20 || c === 0x7f || c === 0xfffe || c === 0xffff)
            escaped = unicodeEscape(c);
        else
            continue;
        out += value.slice(from, i) + escaped;
        from = i + 1;
    }
    return from === 0 ? value : out + value.slice(from);
}
function unicodeEscape(code) {
    return `\\u${code.toString(16).padStart(4, '0')}`;
}
/** Escapes a plain value for Android (before XML escaping); wraps it in quotes when whitespace would otherwise collapse. */
function androidEncode(value, quoted) {
    const wrap = quoted || /^ | $| {2}/.test(value);
    // Most values need no escape at all: copy them whole.
    let out = ANDROID_ESCAPED.test(value) ? escapeChars(value, wrap) : value;
    if (!wrap && (out.startsWith('@') || out.startsWith('?')))
        out = `\\${out}`;
    return wrap ? `"${out}"` : out;
}
/**
 * androidEncode followed by escapeXmlText, in one pass: what Android escapes leaves XML nothing to do but & < and >
 * (line ends, tabs and the characters XML cannot carry all become backslash escapes).
 */
function androidXmlEncode(value, quoted) {
    const wrap = quoted || /^ | $| {2}/.test(value);
    let out = ANDROID_XML_ESCAPED.test(value) ? escapeChars(value, wrap, true) : value;
    if (!wrap && (out.startsWith('@') || out.startsWith('?')))
        out = `\\${out}`;
    // A render keeps every encoded value until the file is joined: one string each, not a chain of pieces.
    return flat(wrap ? `"${out}"` : out);
}
/** Escapes a text run of a markup value: spaces that would collapse or be trimmed become \u0020. */
function androidEncodeRun(value, atStart, atEnd) {
    let out = '';
    const plain = !ANDROID_ESCAPED.test(value) && !value.includes('  ') && !(atStart && value.startsWith(' ')) && !(atEnd && value.endsWith(' '));
    if (plain)
        out = value;
    else {
        const chars = [...value];
        chars.forEach((c, i) => {
            if (c === ' ' && ((i === 0 && atStart) || (i === chars.length - 1 && atEnd) || chars[i - 1] === ' '))
                out += '\\u0020';
            else
                out += escapeChar(c, false);
        });
    }
    if (atStart && (out.startsWith('@') || out.startsWith('?')))
        out = `\\${out}`;
    return out;
}
// ---------------------------------------------------------------------------------------------------------------
// Reading
function parseResources(bytes) {
    const { text, bom, encoding } = decodeXml(bytes);
    const doc = scanXml(text);
    const fail = (message, at) => {
        const { line, column } = lineColumn(text, at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    };
    if (doc.root.name !== 'resources')
        fail(`Expected <resources> as the root element, found <${doc.root.name}>`, doc.root.start + 1);
    const resources = [];
    // One set operation per key: where a repeated key was first claimed is looked up only when it happens.
    const seen = new Set();
    const claim = (key, at) => {
        const size = seen.size;
        seen.add(key);
        if (seen.size === size)
            fail(`Duplicate resource name '${key}' (first defined at line ${lineColumn(text, firstClaim(resources, key)).line})`, at);
    };
    const nameOf = (el) => {
        const name = attribute(el, 'name');
        if (!name || name.value === '')
            fail(`Expected a name attribute on <${el.name}>`, el.start + 1);
        return name.value;
    };
    const decoder = new AndroidDecoder((node, index, message) => fail(message, valueOffset(text, node, index)));
    const rootNamespaces = doc.root.attributes.filter((a) => a.name === 'xmlns' || a.name.startsWith('xmlns:'));
    const children = doc.root.children;
    children.forEach((node, index) => {
        if (node.kind !== 'element')
            return;
        const el = node;
        if (el.name !== 'string' && el.name !== 'plurals' && el.name !== 'string-array')
            return;
        // Device variants (product="tablet") share a name; each is its own string, keyed `name[product]`.
        const product = attribute(el, 'product')?.value;
        const key = product === undefined || product === 'default' ? nameOf(el) : `${nameOf(el)}[${product}]`;
        const translatable = attribute(el, 'translatable')?.value !== 'false';
        const notes = commentBefore(children, index);
        if (el.name === 'string') {
            claim(key, el.start);
            resources.push({ kind: 'string', el, key, translatable, notes, content: android_xml_readContent(text, el, decoder) });
            return;
        }
        const base = { el, key, translatable, ...(notes !== undefined && { notes }) };
        if (el.name === 'plurals') {
            claim(key, el.start);
            const items = [];
            for (const item of childElements(el)) {
                if (item.name !== 'item')
                    fail(`Expected only <item> elements in <plurals name="${key}">, found <${item.name}>`, item.start + 1);
                const quantity = attribute(item, 'quantity');
                if (!quantity)
                    fail(`Expected a quantity attribute (zero, one, two, few, many or other) on <item> in <plurals name="${key}">`, item.start + 1);
                if (!codec/* PLURAL_CATEGORIES */.M.includes(quantity.value)) {
                    fail(`Expected quantity to be one of zero, one, two, few, many, other; found '${quantity.value}'`, quantity.valueStart);
                }
                if (items.some((i) => i.category === quantity.value))
                    fail(`Duplicate quantity '${quantity.value}' in <plurals name="${key}">`, quantity.valueStart);
                items.push({ category: quantity.value, content: android_xml_readContent(text, item, decoder) });
            }
            resources.push({ kind: 'plurals', ...base, items });
        }
        else {
            const items = [];
            // Listed before its items are claimed, so a repeated item key finds where it was first claimed.
            resources.push({ kind: 'array', ...base, items });
            el.children.forEach((child, i) => {
                if (child.kind !== 'element')
                    return;
                if (child.name !== 'item')
                    fail(`Expected only <item> elements in <string-array name="${key}">, found <${child.name}>`, child.start + 1);
                const itemNotes = commentBefore(el.children, i) ?? notes;
                items.push({ content: android_xml_readContent(text, child, decoder), ...(itemNotes !== undefined && { notes: itemNotes }) });
                claim(`${key}.${items.length - 1}`, child.start);
            });
        }
    });
    const declared = new Map(rootNamespaces.map((a) => [a.name, a.value]));
    if (!declared.has('xmlns:xliff'))
        declared.set('xmlns:xliff', XLIFF_NS);
    const namespaces = [...declared].map(([name, value]) => `${name}="${escapeXmlAttribute(value, '"')}"`).join(' ');
    return { text, bom, encoding, doc, resources, namespaces };
}
/** Where `key` was first claimed: a string or plurals element, or an item of a string array (`name.index`). */
function firstClaim(resources, key) {
    for (const r of resources) {
        if (r.kind !== 'array') {
            if (r.key === key)
                return r.el.start;
            continue;
        }
        for (let i = 0; i < r.items.length; i++)
            if (`${r.key}.${i}` === key)
                return r.items[i].content.el.start;
    }
    return 0;
}
/** The last comment before `index` among siblings, with only whitespace between: the element's notes. */
function commentBefore(siblings, index) {
    for (let i = index - 1; i >= 0; i--) {
        const node = siblings[i];
        if (node.kind === 'text' && /^[ \t\r\n]*$/.test(node.raw))
            continue;
        if (node.kind === 'comment')
            return node.value.trim() || undefined;
        return undefined;
    }
    return undefined;
}
function android_xml_readContent(text, el, decoder) {
    const children = el.children;
    let markup = false;
    for (const n of children)
        if (n.kind === 'element')
            markup = true;
    decoder.reset(markup);
    decodeNodes(text, children, markup, decoder);
    const value = decoder.finish();
    // The core: from the first significant character to the last, leaving surrounding whitespace and comments alone.
    let coreStart = -1;
    let coreEnd = -1;
    let insertAt = el.openEnd;
    // The child the core starts at the beginning of, if any.
    let first;
    for (const n of children) {
        if (n.kind === 'comment' || n.kind === 'pi') {
            if (coreStart < 0)
                insertAt = n.end;
            continue;
        }
        if (n.kind === 'text') {
            let from = n.start;
            while (from < n.end && android_xml_isXmlSpace(text.charCodeAt(from)))
                from++;
            if (from === n.end)
                continue;
            if (coreStart < 0) {
                coreStart = from;
                first = from === n.start ? n : undefined;
            }
            let to = n.end;
            while (android_xml_isXmlSpace(text.charCodeAt(to - 1)))
                to--;
            coreEnd = to;
        }
        else {
            if (coreStart < 0) {
                coreStart = n.start;
                first = n;
            }
            coreEnd = n.end;
        }
    }
    // No text yet: a new value is inserted after any comments, leaving the (insignificant) whitespace in place.
    if (coreStart < 0)
        [coreStart, coreEnd] = [insertAt, insertAt];
    const cdata = !markup && first?.kind === 'cdata' && first.end === coreEnd;
    const quoted = !markup && !cdata && isQuoted(text, coreStart, coreEnd);
    return { el, markup, value, coreStart, coreEnd, quoted, cdata };
}
/** Feeds content to the decoder: text (and, in plain strings, CDATA) to unescape, tags (and markup's CDATA) verbatim. */
function decodeNodes(text, nodes, markup, decoder) {
    for (const n of nodes) {
        if (n.kind === 'text')
            decoder.text(n.value, n);
        else if (n.kind === 'cdata') {
            if (markup)
                decoder.raw(text.slice(n.start, n.end));
            else
                decoder.text(n.value, n);
        }
        else if (n.kind === 'element') {
            decoder.raw(text.slice(n.start, n.openEnd));
            decodeNodes(text, n.children, markup, decoder);
            if (!n.selfClosing)
                decoder.raw(text.slice(n.closeStart, n.end));
        }
    }
}
function android_xml_isXmlSpace(c) {
    return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
/** Whether raw content (`text` from `start` to `end`) is one "..." run: it opens with a quote that only closes at its last character. */
function isQuoted(text, start, end) {
    if (end - start < 2 || text.charCodeAt(start) !== 0x22 || text.charCodeAt(end - 1) !== 0x22)
        return false;
    for (let i = start + 1; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c /* \\ */)
            i++;
        else if (c === 0x22)
            return i === end - 1;
    }
    return false;
}
/** The file offset of the `index`-th character of a text or CDATA node's decoded value. */
function valueOffset(text, node, index) {
    let at = node.kind === 'cdata' ? node.start + 9 : node.start;
    for (let k = 0; k < index && at < node.end; k++) {
        if (node.kind === 'text' && text[at] === '&') {
            // A reference is one decoded character, or two UTF-16 units for a code point above U+FFFF.
            const semi = text.indexOf(';', at);
            const numeric = /^&#(x[0-9A-Fa-f]+|[0-9]+);$/.exec(text.slice(at, semi + 1))?.[1];
            const code = numeric === undefined ? 0 : numeric.startsWith('x') ? parseInt(numeric.slice(1), 16) : parseInt(numeric, 10);
            at = semi + 1;
            if (code > 0xffff)
                k++;
        }
        else if (text[at] === '\r' && text[at + 1] === '\n')
            at += 2;
        else
            at++;
    }
    return at;
}
function toEntries(parsed) {
    const { text } = parsed;
    const entries = [];
    for (const r of parsed.resources) {
        if (r.kind === 'string') {
            entries.push(entryOf(r.key, [r.key], r.content.value, undefined, r.translatable, r.notes, lineColumn(text, r.content.coreStart)));
        }
        else if (r.kind === 'plurals') {
            const plurals = {};
            for (const c of codec/* PLURAL_CATEGORIES */.M) {
                const item = r.items.find((i) => i.category === c);
                if (item)
                    plurals[c] = item.content.value;
            }
            const main = r.items.find((i) => i.category === 'other') ?? r.items[r.items.length - 1];
            const position = lineColumn(text, main ? main.content.coreStart : r.el.openEnd);
            entries.push(entryOf(r.key, [r.key], plurals.other ?? main?.content.value ?? '', plurals, r.translatable, r.notes, position));
        }
        else {
            r.items.forEach((item, i) => {
                const key = `${r.key}.${i}`;
                entries.push(entryOf(key, [r.key, String(i)], item.content.value, undefined, r.translatable, item.notes, lineColumn(text, item.content.coreStart)));
            });
        }
    }
    return entries;
}
/** An entry with its optional fields present only when set, in the order entries always list them. */
function entryOf(key, path, source, plurals, translatable, notes, position) {
    const entry = plurals === undefined ? { key, path, source } : { key, path, source, plurals };
    if (!translatable)
        entry.translatable = false;
    if (notes !== undefined)
        entry.notes = notes;
    entry.line = position.line;
    entry.column = position.column;
    return entry;
}
// ---------------------------------------------------------------------------------------------------------------
// Writing
/** The markup for a new value in the style of `like`: inner XML for markup sources, else escaped (quoted, CDATA) text. */
function encodeContent(parsed, like, value) {
    if (like?.markup) {
        const fragment = markupFragment(parsed, value);
        if (fragment !== undefined)
            return fragment;
    }
    const quoted = like?.quoted ?? false;
    if (like?.cdata)
        return `<![CDATA[${androidEncode(value, quoted).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
    return androidXmlEncode(value, quoted);
}
/** A value with at least one well-formed element, re-escaped for Android; undefined when it is plain text. */
function markupFragment(parsed, value) {
    // A CR must survive the XML parser's line-end folding: it reads back as a CR, as the value has it.
    const wrapped = `<x ${parsed.namespaces}>${value.replaceAll('\r', '&#13;')}</x>`;
    let root;
    try {
        root = scanXml(wrapped).root;
    }
    catch {
        return undefined;
    }
    if (!root.children.some((n) => n.kind === 'element'))
        return undefined;
    const runs = [];
    const listRuns = (nodes) => {
        for (const n of nodes) {
            if (n.kind === 'text')
                runs.push(n);
            else if (n.kind === 'element')
                listRuns(n.children);
        }
    };
    listRuns(root.children);
    const first = root.children[0];
    const last = root.children[root.children.length - 1];
    const write = (nodes) => {
        let out = '';
        for (const n of nodes) {
            if (n.kind === 'text')
                out += escapeXmlText(androidEncodeRun(n.value, n === first, n === last));
            else if (n.kind === 'element') {
                out += wrapped.slice(n.start, n.openEnd) + write(n.children) + (n.selfClosing ? '' : wrapped.slice(n.closeStart, n.end));
            }
            else
                out += wrapped.slice(n.start, n.end);
        }
        return out;
    };
    return write(root.children);
}
function valueEdit(parsed, content, value) {
    const encoded = encodeContent(parsed, content, value);
    if (content.el.selfClosing)
        return contentEdit(parsed.text, content.el, encoded);
    return { start: content.coreStart, end: content.coreEnd, text: encoded };
}
function removal(text, el) {
    return { start: removalStart(text, el.start), end: el.end, text: '' };
}
function formsOf(value, locale) {
    if (typeof value !== 'string')
        return value.plurals;
    const forms = {};
    for (const c of pluralCategories(locale))
        forms[c] = value;
    return forms;
}
function textOf(value) {
    return typeof value === 'string' ? value : (value.plurals.other ?? Object.values(value.plurals)[0] ?? '');
}
function pluralEdits(parsed, r, forms) {
    const { text } = parsed;
    const categories = codec/* PLURAL_CATEGORIES */.M.filter((c) => forms[c] !== undefined);
    const edits = [];
    for (const item of r.items) {
        const form = forms[item.category];
        if (form !== undefined && form !== item.content.value)
            edits.push(valueEdit(parsed, item.content, form));
    }
    const template = r.items.find((i) => i.category === 'other') ?? r.items[r.items.length - 1];
    const make = (category) => {
        const form = forms[category] ?? '';
        if (!template)
            return `<item quantity="${category}">${encodeContent(parsed, undefined, form)}</item>`;
        const el = template.content.el;
        const quantity = attribute(el, 'quantity');
        const startTag = text.slice(el.start, quantity.valueStart) + category + text.slice(quantity.valueEnd, el.selfClosing ? el.end - 2 : el.openEnd);
        const endTag = el.selfClosing ? '</item>' : text.slice(el.closeStart, el.end);
        return `${startTag.endsWith('>') ? startTag : `${startTag.trimEnd()}>`}${encodeContent(parsed, template.content, form)}${endTag}`;
    };
    const slots = r.items.map((i) => ({ category: i.category, start: i.content.el.start, end: i.content.el.end }));
    const slotEdits = pluralSlotEdits(text, slots, categories, make);
    if (slotEdits)
        return [...edits, ...slotEdits];
    // No item to copy the layout from: indent one step deeper than the <plurals> element.
    const indent = lineIndent(text, r.el.start);
    const inner = `${indent}${indent || '    '}`;
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const body = categories.map((c) => `${eol}${inner}${make(c)}`).join('') + `${eol}${indent}`;
    return [contentEdit(text, r.el, body)];
}
function render(input) {
    const parsed = parseResources(input.source);
    const { text, resources } = parsed;
    const locale = input.locale ?? input.sourceLocale ?? 'en';
    const omit = input.missing === 'omit';
    const edits = [];
    for (const r of resources) {
        if (!r.translatable)
            continue;
        if (r.kind === 'string') {
            const value = input.values.get(r.key);
            if (value === undefined) {
                if (omit)
                    edits.push(removal(text, r.el));
            }
            else if (textOf(value) !== r.content.value)
                edits.push(valueEdit(parsed, r.content, textOf(value)));
        }
        else if (r.kind === 'plurals') {
            const value = input.values.get(r.key);
            if (value === undefined) {
                if (omit)
                    edits.push(removal(text, r.el));
                continue;
            }
            const forms = formsOf(value, locale);
            const same = r.items.length === Object.keys(forms).length && r.items.every((i) => forms[i.category] === i.content.value);
            if (!same)
                edits.push(...pluralEdits(parsed, r, forms));
        }
        else {
            const values = r.items.map((_, i) => input.values.get(`${r.key}.${i}`));
            // Items cannot be left out one by one (indices would shift): an array goes only when none of it is translated.
            if (omit && r.items.length > 0 && values.every((v) => v === undefined)) {
                edits.push(removal(text, r.el));
                continue;
            }
            r.items.forEach((item, i) => {
                const value = values[i];
                if (value !== undefined && textOf(value) !== item.content.value)
                    edits.push(valueEdit(parsed, item.content, textOf(value)));
            });
        }
    }
    if (edits.length === 0)
        return input.source.slice();
    return encodeXml(splice(text, edits), parsed.bom, parsed.encoding);
}
function renderFresh(entries) {
    let out = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n';
    for (const entry of entries) {
        if (entry.notes !== undefined && entry.notes !== '')
            out += `    <!-- ${commentText(entry.notes)} -->\n`;
        const name = escapeXmlAttribute(entry.key, '"');
        if (typeof entry.value === 'string') {
            out += `    <string name="${name}">${androidXmlEncode(entry.value, false)}</string>\n`;
        }
        else {
            out += `    <plurals name="${name}">\n`;
            for (const c of codec/* PLURAL_CATEGORIES */.M) {
                const form = entry.value.plurals[c];
                if (form !== undefined)
                    out += `        <item quantity="${c}">${androidXmlEncode(form, false)}</item>\n`;
            }
            out += '    </plurals>\n';
        }
    }
    return new TextEncoder().encode(`${out}</resources>\n`);
}
/** Comment text XML allows: no '--' and no trailing '-'. */
function commentText(notes) {
    return notes.replace(/--/g, '- -').replace(/-$/, '- ');
}
const androidXmlCodec = {
    id: 'android_xml',
    extensions: ['.xml'],
    plurals: true,
    detect(fileName, head) {
        const xml = /\.xml$/i.test(fileName);
        const resources = /<resources[\s>/]/.test(head);
        if (xml && resources)
            return /(^|[\\/])values[^\\/]*[\\/][^\\/]+$/.test(fileName) || /<(string|plurals|string-array)[\s>]/.test(head) ? 0.95 : 0.8;
        if (resources && /<(string|plurals|string-array)\s+name=/.test(head))
            return 0.5;
        return 0;
    },
    parse(bytes) {
        return toEntries(parseResources(bytes));
    },
    render,
    renderFresh,
};

;// CONCATENATED MODULE: ./src/core/formats/icu-plural.ts
// Reads and writes a value that is one ICU MessageFormat `{arg, plural, …}` message, for codecs that store plurals as ICU text.

const CATEGORY_SET = new Set(codec/* PLURAL_CATEGORIES */.M);
/** ICU's Pattern_White_Space; other spaces (NBSP…) are ordinary text. */
const isWhite = (c) => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0x200e || c === 0x200f || c === 0x2028 || c === 0x2029;
/** What ends a word (an argument name, type or selector) besides white space: { } , ' # : = */
const isWordEnd = (c) => c === 0x7b || c === 0x7d || c === 0x2c || c === 0x27 || c === 0x23 || c === 0x3a || c === 0x3d;
const COMPLEX_TYPES = new Set(['plural', 'select', 'selectordinal']);
class NotIcu extends Error {
}
/**
 * A small scanner for ICU MessageFormat (apostrophe mode DOUBLE_OPTIONAL, as ICU4J/ICU4C and Flutter use): `''` is an
 * apostrophe, and `'` starts quoted literal text only before `{`, `}`, `|` or, directly inside a plural, `#`.
 */
class IcuScanner {
    text;
    pos = 0;
    constructor(text) {
        this.text = text;
    }
    /** Scans message text up to an unmatched `}` (nested) or the end (top level); returns the top-level arguments seen. */
    message(nested, inPlural) {
        const args = [];
        const t = this.text;
        while (this.pos < t.length) {
            const c = t.charCodeAt(this.pos);
            if (c === 0x27)
                this.apostrophe(inPlural);
            else if (c === 0x7b)
                args.push(this.argument());
            else if (c === 0x7d) {
                if (nested)
                    return args;
                throw new NotIcu();
            }
            else
                this.pos++;
        }
        if (nested)
            throw new NotIcu();
        return args;
    }
    apostrophe(inPlural) {
        const t = this.text;
        const next = t[this.pos + 1];
        if (next === "'") {
            this.pos += 2;
            return;
        }
        if (next !== '{' && next !== '}' && next !== '|' && !(next === '#' && inPlural)) {
            this.pos++;
            return;
        }
        // Quoted literal: runs to the next single apostrophe; an unterminated one runs to the end, leaving braces unbalanced.
        this.pos += 2;
        for (;;) {
            const close = t.indexOf("'", this.pos);
            if (close < 0) {
                this.pos = t.length;
                return;
            }
            if (t[close + 1] === "'") {
                this.pos = close + 2;
                continue;
            }
            this.pos = close + 1;
            return;
        }
    }
    white() {
        while (this.pos < this.text.length && isWhite(this.text.charCodeAt(this.pos)))
            this.pos++;
    }
    word() {
        const start = this.pos;
        while (this.pos < this.text.length && !isWhite(this.text.charCodeAt(this.pos)) && !isWordEnd(this.text.charCodeAt(this.pos)))
            this.pos++;
        return this.text.slice(start, this.pos);
    }
    argument() {
        const t = this.text;
        const start = this.pos++;
        this.white();
        const name = this.word();
        if (!name)
            throw new NotIcu();
        this.white();
        if (t[this.pos] === '}') {
            this.pos++;
            return { start, end: this.pos, name, type: '', options: [] };
        }
        if (t[this.pos] !== ',')
            throw new NotIcu();
        this.pos++;
        this.white();
        const type = this.word();
        if (!type)
            throw new NotIcu();
        this.white();
        const arg = { start, end: start, name, type, options: [] };
        if (t[this.pos] === '}') {
            if (COMPLEX_TYPES.has(type))
                throw new NotIcu();
            this.pos++;
            arg.end = this.pos;
            return arg;
        }
        if (t[this.pos] !== ',')
            throw new NotIcu();
        this.pos++;
        if (COMPLEX_TYPES.has(type))
            this.options(arg);
        else
            this.styleText();
        arg.end = this.pos;
        return arg;
    }
    /** A simple argument's style (`::currency/EUR`, `#,##0.00`, …): skipped with quoting and brace nesting. */
    styleText() {
        const t = this.text;
        let depth = 0;
        while (this.pos < t.length) {
            const c = t[this.pos];
            if (c === "'") {
                const close = t.indexOf("'", this.pos + 1);
                if (close < 0)
                    throw new NotIcu();
                this.pos = close + 1;
            }
            else if (c === '{') {
                depth++;
                this.pos++;
            }
            else if (c === '}') {
                this.pos++;
                if (depth-- === 0)
                    return;
            }
            else
                this.pos++;
        }
        throw new NotIcu();
    }
    options(arg) {
        const t = this.text;
        const plural = arg.type !== 'select';
        const seen = new Set();
        this.white();
        if (plural && t.startsWith('offset:', this.pos)) {
            this.pos += 'offset:'.length;
            this.white();
            const match = /^-?\d+/.exec(t.slice(this.pos));
            if (!match)
                throw new NotIcu();
            arg.offset = Number(match[0]);
            this.pos += match[0].length;
        }
        for (;;) {
            this.white();
            if (t[this.pos] === '}') {
                this.pos++;
                break;
            }
            let selector;
            if (plural && t[this.pos] === '=') {
                const match = /^=-?\d+(?:\.\d+)?/.exec(t.slice(this.pos));
                if (!match)
                    throw new NotIcu();
                selector = match[0];
                this.pos += selector.length;
            }
            else {
                selector = this.word();
                if (!selector)
                    throw new NotIcu();
            }
            if (seen.has(selector))
                throw new NotIcu();
            seen.add(selector);
            this.white();
            if (t[this.pos] !== '{')
                throw new NotIcu();
            const from = ++this.pos;
            this.message(true, plural);
            arg.options.push([selector, t.slice(from, this.pos)]);
            this.pos++;
        }
        if (!seen.has('other'))
            throw new NotIcu();
    }
}
/**
 * Finds the one `{arg, plural, …}` argument of a value. Surrounding text is allowed and returned raw as prefix and
 * suffix, as long as it holds no other plural, select or selectordinal (those cannot be expressed as one set of forms);
 * a whole-value plural has prefix and suffix ''. Returns undefined for anything else: no plural, two of them, a
 * `selectordinal`, a selector that is not a CLDR category or `=N`, a missing `other`, or text that is not valid ICU.
 */
function parseIcuPlural(text) {
    // A plural argument has a comma and names its type: most values have neither, and need no scan to say so.
    if (!text.includes(',') || !text.includes('plural'))
        return undefined;
    let args;
    try {
        args = new IcuScanner(text).message(false, false);
    }
    catch (error) {
        if (error instanceof NotIcu)
            return undefined;
        throw error;
    }
    const complex = args.filter((a) => COMPLEX_TYPES.has(a.type));
    const plural = complex[0];
    if (complex.length !== 1 || plural?.type !== 'plural')
        return undefined;
    const forms = {};
    const exact = {};
    for (const [selector, message] of plural.options) {
        if (selector.startsWith('='))
            exact[selector] = message;
        else if (CATEGORY_SET.has(selector))
            forms[selector] = message;
        else
            return undefined;
    }
    const result = { argument: plural.name, forms, exact, prefix: text.slice(0, plural.start), suffix: text.slice(plural.end) };
    if (plural.offset !== undefined)
        result.offset = plural.offset;
    return result;
}
/**
 * Moves the prefix and suffix into every sub-message, so `I have {n, plural, one {a dog} other {# dogs}}.` gives the
 * forms `I have a dog.` and `I have # dogs.`, each a whole sentence for translators. Returns undefined where moving them
 * would change the meaning: a `#` in the surrounding text (it would become the number), or an apostrophe at a seam
 * (it could start or end quoting differently).
 */
function foldIcuPlural(plural) {
    const { prefix, suffix } = plural;
    if (prefix.includes('#') || suffix.includes('#') || prefix.endsWith("'") || suffix.startsWith("'"))
        return undefined;
    const messages = [...Object.values(plural.forms), ...Object.values(plural.exact)];
    if ((prefix || suffix) && messages.some((m) => m.startsWith("'") || m.endsWith("'")))
        return undefined;
    const fold = (message) => `${prefix}${message}${suffix}`;
    const forms = {};
    for (const category of codec/* PLURAL_CATEGORIES */.M) {
        const message = plural.forms[category];
        if (message !== undefined)
            forms[category] = fold(message);
    }
    const exact = {};
    for (const [selector, message] of Object.entries(plural.exact))
        exact[selector] = fold(message);
    return { forms, exact };
}
/**
 * Writes `{count, plural, offset:1 =0 {…} one {…} other {…}}`: exact matches first, in the given order, then the forms
 * in CLDR order. Sub-messages are ICU text and are written as they are (a translator's `#` or `{name}` keeps working).
 * Exact keys may be given with or without the `=`.
 */
function writeIcuPlural(argument, forms, exact = {}, offset) {
    const parts = [];
    if (offset !== undefined)
        parts.push(`offset:${offset}`);
    for (const [selector, message] of Object.entries(exact))
        parts.push(`${selector.startsWith('=') ? selector : `=${selector}`} {${message}}`);
    for (const category of codec/* PLURAL_CATEGORIES */.M) {
        const message = forms[category];
        if (message !== undefined)
            parts.push(`${category} {${message}}`);
    }
    return `{${argument}, plural, ${parts.join(' ')}}`;
}

;// CONCATENATED MODULE: ./src/core/formats/arb.ts



function fail(tape, message, slot) {
    const line = tape.line(slot);
    const column = tape.column(slot);
    throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
}
/** Reads the value of the message whose key is at `key`. */
function readValue(tape, key) {
    const value = tape.string(key + 1);
    const reading = { value };
    const icu = parseIcuPlural(value);
    const folded = icu && foldIcuPlural(icu);
    if (icu && folded) {
        reading.plural = { argument: icu.argument, forms: folded.forms, exact: folded.exact };
        if (icu.offset !== undefined)
            reading.plural.offset = icu.offset;
    }
    return reading;
}
/** Whether the message whose key is at `key` may be an ICU plural, told in place (`parseIcuPlural` needs both). */
const mayBePlural = (tape, key) => tape.mayHold(key + 1, ',') && tape.mayHold(key + 1, 'plural');
/** Checks the top-level member whose key is at `key`, named `name`: `@@locale` and messages need string values. */
function checkMember(tape, key, name) {
    if (name === '@@locale') {
        if (tape.kind(key + 1) !== 'string')
            fail(tape, 'Expected a string for "@@locale"', key + 1);
    }
    else if (!name.startsWith('@') && tape.kind(key + 1) !== 'string') {
        // gen-l10n refuses non-string messages too; reading past one would leave it silently untranslated.
        fail(tape, `Expected a string for the message ${JSON.stringify(name)}`, key + 1);
    }
}
/** Whether `name` is `@` and then `message`, the name of the message's metadata. */
const describes = (name, message) => name !== undefined && name.length === message.length + 1 && name.charCodeAt(0) === 0x40 && name.endsWith(message);
function readBundle(bytes) {
    const tape = scanJsonTape(bytes);
    const keys = tape.children(0);
    const names = keys.map((key) => tape.string(key));
    // `@key` metadata is found beside its message, where gen-l10n and most editors write it, else by the key it describes
    // (keys are unique, and no message starts with '@', so `@@locale` and its like describe none).
    const metadataOf = new Map();
    names.forEach((name, i) => {
        if (name.startsWith('@') && !name.startsWith('@@') && !(i > 0 && describes(name, names[i - 1])))
            metadataOf.set(name.slice(1), keys[i]);
    });
    const messages = [];
    let locale;
    for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const name = names[i];
        checkMember(tape, key, name);
        if (name === '@@locale')
            locale = key;
        if (name.startsWith('@'))
            continue;
        const { value, plural } = readValue(tape, key);
        const message = { key, name, value };
        if (plural)
            message.plural = plural;
        const metadata = describes(names[i + 1], name) ? keys[i + 1] : metadataOf.size > 0 ? metadataOf.get(name) : undefined;
        if (metadata !== undefined)
            message.metadata = metadata;
        messages.push(message);
    }
    return { tape, messages, ...(locale !== undefined ? { locale } : {}) };
}
function metadataString(tape, metadata, name) {
    if (metadata === undefined || tape.kind(metadata + 1) !== 'object')
        return undefined;
    const found = tape.member(metadata + 1, name);
    if (found < 0 || tape.kind(found + 1) !== 'string')
        return undefined;
    const value = tape.string(found + 1);
    return value !== '' ? value : undefined;
}
/** Flutter names locales with underscores (`app_pt_BR.arb`, `"@@locale": "pt_BR"`); BCP-47 tags use hyphens. */
const arbLocale = (tag) => tag.replace(/-/g, '_');
const sameLocale = (a, b) => arbLocale(a).toLowerCase() === arbLocale(b).toLowerCase();
function samePlural(forms, value) {
    const a = Object.entries(forms);
    return a.length === Object.keys(value).length && a.every(([k, v]) => value[k] === v);
}
/**
 * The JSON text of the new value of the message whose key is at `key`, or undefined when the value says what the file
 * already says. The file's value is compared in place with a text, and read (unless `read` is given) for a plural.
 */
function valueText(tape, key, value, read) {
    if (typeof value === 'string') {
        const quoted = JSON.stringify(value);
        return tape.isQuoted(key + 1, value, quoted) ? undefined : quoted;
    }
    const { value: current, plural } = read ?? readValue(tape, key);
    if (plural && samePlural(plural.forms, value.plurals))
        return undefined;
    // Exact matches (=0) are not CLDR categories, so they stay as the source wrote them for every locale.
    const text = writeIcuPlural(plural?.argument ?? 'count', value.plurals, plural?.exact ?? {}, plural?.offset);
    return text === current ? undefined : JSON.stringify(text);
}
/** Writes the file with new values spliced in, in file order, holding only bytes; `finish` gives undefined when none came. */
class Splicer {
    tape;
    sourceSize;
    out;
    at = 0;
    constructor(tape, sourceSize) {
        this.tape = tape;
        this.sourceSize = sourceSize;
    }
    /** Replaces the value of the member whose key is at `key`. */
    replace(key, text) {
        const { tape, sourceSize } = this;
        const out = (this.out ??= new Utf8Writer(sourceSize + (sourceSize >> 1), tape.bom));
        out.write(tape.text.slice(this.at, tape.start(key + 1)));
        out.write(text);
        this.at = tape.end(key + 1);
    }
    finish() {
        this.out?.write(this.tape.text.slice(this.at));
        return this.out?.finish();
    }
}
/**
 * Rewrites the top-level object when messages are omitted, with their `@key` metadata (which would otherwise describe
 * nothing), besides the changed values. Separators and indentation come from the file, as in json-scan's writer.
 */
function rewriteOmitting(tape, messages, input, edits) {
    const { text } = tape;
    const omitted = new Set();
    for (const message of messages) {
        if (!input.values.has(message.name))
            omitted.add(message.name).add(`@${message.name}`);
    }
    const texts = new Map(edits.map((edit) => [edit.key, edit.text]));
    const members = tape.children(0);
    const kept = members.flatMap((key, i) => (omitted.has(tape.string(key)) ? [] : [i]));
    if (kept.length === 0)
        return `${text.slice(0, tape.start(0))}{}${text.slice(tape.end(0))}`;
    const first = members[0];
    const last = members[members.length - 1];
    let out = text.slice(0, tape.start(first));
    kept.forEach((i, k) => {
        const key = members[i];
        out += text.slice(tape.start(key), tape.start(key + 1)) + (texts.get(key) ?? text.slice(tape.start(key + 1), tape.end(key + 1)));
        out += k < kept.length - 1 ? text.slice(tape.end(key + 1), tape.start(members[i + 1])) : text.slice(tape.end(last + 1));
    });
    return out;
}
/** Renders a file some of whose messages are omitted, with their metadata. */
function renderOmitting(input) {
    const { tape, messages, locale } = readBundle(input.source);
    const edits = [];
    for (const message of messages) {
        const value = input.values.get(message.name);
        const text = value === undefined ? undefined : valueText(tape, message.key, value, message);
        if (text !== undefined)
            edits.push({ key: message.key, text });
    }
    if (locale !== undefined && input.locale && !sameLocale(tape.string(locale + 1), input.locale)) {
        const text = JSON.stringify(arbLocale(input.locale));
        const at = edits.findIndex((edit) => edit.key > locale);
        edits.splice(at < 0 ? edits.length : at, 0, { key: locale, text });
    }
    return encodeUtf8(rewriteOmitting(tape, messages, input, edits), tape.bom);
}
const arbCodec = {
    id: 'arb',
    extensions: ['.arb'],
    plurals: true,
    detect(fileName, head) {
        const body = head.replace(/^\uFEFF/, '').trimStart();
        const byName = /\.arb$/i.test(fileName);
        if (byName)
            return body === '' || body.startsWith('{') ? 1 : 0.5;
        return /\.json$/i.test(fileName) && body.startsWith('{') && /"@@locale"\s*:/.test(body) ? 0.7 : 0;
    },
    parse(bytes) {
        const { tape, messages } = readBundle(bytes);
        return messages.map(({ key, name, value, metadata, plural }) => {
            const entry = { key: name, path: [name], source: plural?.forms.other ?? value, line: tape.line(key + 1), column: tape.column(key + 1) };
            if (plural)
                entry.plurals = plural.forms;
            const notes = metadataString(tape, metadata, 'description');
            if (notes !== undefined)
                entry.notes = notes;
            const context = metadataString(tape, metadata, 'context');
            if (context !== undefined)
                entry.context = context;
            return entry;
        });
    },
    /**
     * Messages are spliced in place. A target keeps each message's `@key` metadata (gen-l10n reads descriptions and
     * placeholders from the template file only, and ignores them elsewhere), and `@@locale` is set to the target locale.
     * Members are checked and written in one pass, each new value encoded as it comes.
     */
    render(input) {
        const tape = scanJsonTape(input.source);
        const out = new Splicer(tape, input.source.length);
        for (let key = 1; key < tape.after(0); key = tape.after(key)) {
            const name = tape.string(key);
            checkMember(tape, key, name);
            if (name === '@@locale') {
                if (input.locale && !sameLocale(tape.string(key + 1), input.locale))
                    out.replace(key, JSON.stringify(arbLocale(input.locale)));
                continue;
            }
            if (name.startsWith('@'))
                continue;
            // A value that may be an ICU plural is read now, as parsing the file reads it; others only compare in place.
            const read = mayBePlural(tape, key) ? readValue(tape, key) : undefined;
            const value = input.values.get(name);
            if (value === undefined) {
                if (input.missing === 'omit')
                    return renderOmitting(input);
                continue;
            }
            const text = valueText(tape, key, value, read);
            if (text !== undefined)
                out.replace(key, text);
        }
        return out.finish() ?? input.source.slice();
    },
    renderFresh(entries, options) {
        // A repeated key keeps its first position and its last value and notes.
        const byKey = new Map();
        for (const entry of entries)
            byKey.set(entry.key, entry);
        const members = [['@@locale', arbLocale(options?.locale ?? 'en')]];
        for (const { key, value, notes } of byKey.values()) {
            members.push([key, typeof value === 'string' ? value : writeIcuPlural('count', value.plurals)]);
            if (notes)
                members.push([`@${key}`, [['description', notes]]]);
        }
        return encodeUtf8(`${writeObject(members)}\n`, false);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/line-index.ts
// Line and column lookups by index into a decoded text, for scanners whose parsers report offsets only.
/** Line starts of a text, for 1-based line and code-point column lookups; CRLF, LF and a lone CR each end a line. */
class LineIndex {
    text;
    starts = [0];
    constructor(text) {
        this.text = text;
        for (let i = 0; i < text.length; i++) {
            const c = text.charCodeAt(i);
            if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a))
                this.starts.push(i + 1);
        }
    }
    /** The last lookup, so that lookups moving forward along one long line count only the characters in between. */
    lastLine = -1;
    lastIndex = 0;
    lastColumn = 1;
    /** 0-based number of the line holding `index`. */
    lineOf(index) {
        let lo = 0;
        let hi = this.starts.length - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (this.starts[mid] <= index)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }
    /** Index of the first character of the line holding `index`. */
    lineStartOf(index) {
        return this.starts[this.lineOf(index)];
    }
    at(index) {
        const line = this.lineOf(index);
        const start = this.starts[line];
        let from = start;
        let column = 1;
        if (line === this.lastLine && this.lastIndex <= index) {
            from = this.lastIndex;
            column = this.lastColumn;
        }
        const text = this.text;
        column = columnOf(text, start, index, from, column);
        this.lastLine = line;
        this.lastIndex = index;
        this.lastColumn = column;
        // A position on the LF of a CRLF is still in the column of the CR.
        if (index > start && text.charCodeAt(index - 1) === 0x0d)
            column--;
        return { line: line + 1, column };
    }
}
/** Index of the start of the line holding `index`. */
function lineStart(text, index) {
    let i = index;
    while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r')
        i--;
    return i;
}
/** Index just past the line break ending the line that holds index-1 (a position already at a line start stays). */
function afterLineEnd(text, index) {
    if (index > 0 && (text[index - 1] === '\n' || (text[index - 1] === '\r' && text[index] !== '\n')))
        return index;
    let i = index;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r')
        i++;
    if (text[i] === '\r' && text[i + 1] === '\n')
        return i + 2;
    return i < text.length ? i + 1 : i;
}
const HIGH_SURROGATE = /[\uD800-\uDBFF]/g;
/**
 * Code-point columns for a scanner that walks a text forward and knows where each line starts: a line with no
 * surrogate pair before the index needs no counting, since its columns are then its code units.
 */
class ColumnCounter {
    text;
    /** The first high surrogate at or after the start of the last line looked at (the text's length when none). */
    nextPair = -1;
    lastStart = -1;
    lastIndex = 0;
    lastColumn = 1;
    constructor(text) {
        this.text = text;
    }
    /** 1-based column of `index` on the line starting at `lineStart`, as `LineIndex.at` counts it within a line. */
    at(lineStart, index) {
        const text = this.text;
        if (this.nextPair < lineStart) {
            HIGH_SURROGATE.lastIndex = lineStart;
            this.nextPair = HIGH_SURROGATE.exec(text)?.index ?? text.length;
        }
        if (this.nextPair >= index)
            return index - lineStart + 1;
        // Lookups moving forward along one line count only the characters in between, as LineIndex does.
        let from = lineStart;
        let column = 1;
        if (this.lastStart === lineStart && this.lastIndex <= index) {
            from = this.lastIndex;
            column = this.lastColumn;
        }
        column = columnOf(text, lineStart, index, from, column);
        this.lastStart = lineStart;
        this.lastIndex = index;
        this.lastColumn = column;
        return column;
    }
}
/**
 * Walks a text line by line, as scanners of line-based formats read it: LF, CRLF and a lone CR each end a line, and a
 * text that ends with a line break ends with an empty line.
 */
class LineReader {
    text;
    /** 1-based number of the current line; 0 before the first. */
    line = 0;
    /** Index of the current line's first character. */
    start = 0;
    /** Index just past the current line's content, where its line break starts. */
    contentEnd = 0;
    /** Index of the next line's first character (the text's length on the last line). */
    next = 0;
    /** The first LF and CR at or after the current line's start (the text's length when there is none). */
    nextLf = -1;
    nextCr = -1;
    constructor(text) {
        this.text = text;
    }
    /** Whether the current line is the last one. */
    get last() {
        return this.contentEnd === this.text.length;
    }
    /** Moves to the next line (the first, on the first call); false when the current line was the last. */
    advance() {
        const t = this.text;
        if (this.line > 0) {
            if (this.last)
                return false;
            this.start = this.next;
        }
        const start = this.start;
        // Each search resumes past the last break found, so reading the whole text scans it once.
        if (this.nextLf < start)
            this.nextLf = indexOrEnd(t, '\n', start);
        if (this.nextCr < start)
            this.nextCr = indexOrEnd(t, '\r', start);
        this.line++;
        if (this.nextCr < this.nextLf) {
            this.contentEnd = this.nextCr;
            this.next = this.nextCr + (t.charCodeAt(this.nextCr + 1) === 0x0a ? 2 : 1);
        }
        else {
            this.contentEnd = this.nextLf;
            this.next = Math.min(this.nextLf + 1, t.length);
        }
        return true;
    }
}
/** Index of the next `char` at or after `from`, or the text's length. */
function indexOrEnd(text, char, from) {
    const at = text.indexOf(char, from);
    return at < 0 ? text.length : at;
}
/**
 * `LineIndex.at` for a scanner whose lookups move forward: it hops from line break to line break instead of indexing
 * every line first, and counts columns only where a line holds a surrogate pair. A lookup behind the last starts over.
 */
class ForwardPositions {
    text;
    line = 1;
    lineStart = 0;
    /** Line breaks before this index have been counted. */
    scanned = 0;
    lines;
    columns;
    constructor(text) {
        this.text = text;
        this.lines = new LineReader(text);
        this.columns = new ColumnCounter(text);
    }
    at(index) {
        if (index < this.scanned)
            [this.line, this.lineStart, this.scanned, this.lines] = [1, 0, 0, new LineReader(this.text)];
        const lines = this.lines;
        while (lines.line === 0 || lines.next <= index) {
            if (!lines.advance())
                break;
            this.line = lines.line;
            this.lineStart = lines.start;
        }
        this.scanned = index;
        const text = this.text;
        let column = this.columns.at(this.lineStart, index);
        // A position on the LF of a CRLF is still in the column of the CR.
        if (index > this.lineStart && text.charCodeAt(index - 1) === 0x0d)
            column--;
        return { line: this.line, column };
    }
}
/**
 * 1-based column of `index` on the line starting at `lineStart`, counting code points (the second half of a
 * surrogate pair within the line is not a column of its own); from `from`, whose column is `column`, where known.
 */
function columnOf(text, lineStart, index, from = lineStart, column = 1) {
    for (let i = from; i < index; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0xdc00 && c <= 0xdfff && i > lineStart) {
            const before = text.charCodeAt(i - 1);
            if (before >= 0xd800 && before <= 0xdbff)
                continue;
        }
        column++;
    }
    return column;
}

;// CONCATENATED MODULE: ./src/core/formats/csv-scan.ts
// Shared RFC 4180 tokenizer that keeps every field's span, and the quoting rules for writing fields back.



// Field flags.
const QUOTED = 1;
/** A quoted field holding '""'. */
const ESCAPED = 2;
/** A quoted field holding a line end. */
const MULTILINE = 4;
/**
 * The records and fields of a scanned text in parallel arrays of offsets, rather than an object each: a render reads a
 * file whole, and objects that live that long are what the garbage collector spends its time on. Values and positions
 * are worked out when asked for.
 */
class CsvGrid {
    text;
    delimiter;
    /** Number of fields. */
    fields = 0;
    /** Number of records. */
    size = 0;
    /** Per field: the raw span (quotes included), and flags (typed arrays, grown as the scan fills them). */
    starts;
    ends;
    flags;
    /** Per record, its first field; one more at the end, so record r holds fields firsts[r] to firsts[r + 1] - 1. */
    firsts;
    /** Per record, just past its line end (its last field's end, for a last record without one). */
    nexts;
    /** Per record, the 1-based line it starts on; a record starts a line, so its first field is in column 1. */
    lines;
    constructor(text, delimiter) {
        this.text = text;
        this.delimiter = delimiter;
        // Guesses from the text's length, generous so that a scan seldom grows them: a field per 16 characters, a record
        // per 32 (growing them is cheap, but a path each scan takes once costs its optimised code).
        const fields = Math.max(64, text.length >> 4);
        const records = Math.max(16, text.length >> 5);
        this.starts = new Int32Array(fields);
        this.ends = new Int32Array(fields);
        this.flags = new Uint8Array(fields);
        this.firsts = new Int32Array(records + 1);
        this.nexts = new Int32Array(records);
        this.lines = new Int32Array(records);
    }
    /** Starts a record on `line`: the fields added next are its own. */
    openRecord(line) {
        if (this.size === this.nexts.length) {
            const size = 2 * this.size;
            this.firsts = grown(this.firsts, size + 1);
            this.nexts = grown(this.nexts, size);
            this.lines = grown(this.lines, size);
        }
        this.lines[this.size] = line;
    }
    addField(start, end, flags) {
        const f = this.fields;
        if (f === this.starts.length) {
            this.starts = grown(this.starts, 2 * f);
            this.ends = grown(this.ends, 2 * f);
            this.flags = grown(this.flags, 2 * f);
        }
        this.starts[f] = start;
        this.ends[f] = end;
        this.flags[f] = flags;
        this.fields = f + 1;
    }
    /** Ends the record opened last; `next` is just past its line end. */
    closeRecord(next) {
        this.nexts[this.size] = next;
        this.size++;
        this.firsts[this.size] = this.fields;
    }
    /** Number of fields of record r: at least one, since an empty line is one empty field. */
    width(r) {
        return this.firsts[r + 1] - this.firsts[r];
    }
    /** Start of record r: its first field's. */
    start(r) {
        return this.starts[this.firsts[r]];
    }
    /** Just past record r's last field, before its line end. */
    end(r) {
        return this.ends[this.firsts[r + 1] - 1];
    }
    /** The decoded value of field f: quotes removed, '""' turned into '"'. */
    value(f) {
        const flags = this.flags[f];
        if ((flags & QUOTED) === 0)
            return this.text.slice(this.starts[f], this.ends[f]);
        const inner = this.text.slice(this.starts[f] + 1, this.ends[f] - 1);
        // One flat string for a field with doubled quotes, rather than a chain of its pieces.
        return (flags & ESCAPED) === 0 ? inner : inner.split('""').join('"');
    }
    /** Whether field f's value is `value`, told without decoding it unless it holds '""'. */
    equals(f, value) {
        const flags = this.flags[f];
        if ((flags & ESCAPED) !== 0)
            return this.value(f) === value;
        const quotes = (flags & QUOTED) === 0 ? 0 : 1;
        const start = this.starts[f] + quotes;
        return this.ends[f] - quotes - start === value.length && this.text.startsWith(value, start);
    }
    /** Whether field f's value includes `search`, which holds no '"': the raw field does exactly when the value does. */
    includes(f, search) {
        return this.text.slice(this.starts[f], this.ends[f]).includes(search);
    }
    quoted(f) {
        return (this.flags[f] & QUOTED) !== 0;
    }
    /** Whether field f's value is empty, told without decoding it. */
    empty(f) {
        return this.ends[f] - this.starts[f] === ((this.flags[f] & QUOTED) === 0 ? 0 : 2);
    }
    /** Whether every field of record r is empty (a blank line, or only delimiters). */
    blank(r) {
        for (let f = this.firsts[r]; f < this.firsts[r + 1]; f++)
            if (!this.empty(f))
                return false;
        return true;
    }
    /** Whether field f is quoted although its value does not need it (see needsQuotes), told without decoding it. */
    quotedWithoutNeed(f) {
        const flags = this.flags[f];
        if (flags !== QUOTED)
            return false;
        // No '""' and no line end inside: only the delimiter would need the quotes.
        const end = this.ends[f] - 1;
        const d = this.text.indexOf(this.delimiter, this.starts[f] + 1);
        return d < 0 || d >= end;
    }
    /** 1-based line of the first character of field f, of record r: the record's, unless a field before it holds line ends. */
    line(r, f) {
        this.seek(r, f);
        return this.seen.line;
    }
    /** 1-based column, in code points, of the first character of field f, of record r. */
    column(r, f) {
        this.seek(r, f);
        return this.seen.column;
    }
    /**
     * The position looked up last, so that lookups moving forward along a record (as readers of a row go) count only
     * the characters in between: a line of many thousand fields would otherwise take as many passes.
     */
    seen = { record: -1, field: -1, line: 0, lineStart: 0, column: 1 };
    seek(r, f) {
        const { text, seen } = this;
        if (seen.record === r && seen.field === f)
            return;
        let g = this.firsts[r];
        let line = this.lines[r];
        let lineStart = this.starts[g];
        let column = 1;
        if (seen.record === r && seen.field > g && seen.field < f) {
            g = seen.field;
            line = seen.line;
            lineStart = seen.lineStart;
            column = seen.column;
        }
        let index = this.starts[g];
        for (; g < f; g++) {
            if ((this.flags[g] & MULTILINE) === 0)
                continue;
            line += lineEnds(text, this.starts[g], this.ends[g]);
            // The next line starts after the last line end inside the field: LF, CRLF or a lone CR.
            let i = this.ends[g] - 1;
            while (text.charCodeAt(i - 1) !== 0x0a && !(text.charCodeAt(i - 1) === 0x0d && text.charCodeAt(i) !== 0x0a))
                i--;
            lineStart = index = i;
            column = 1;
        }
        seen.record = r;
        seen.field = f;
        seen.line = line;
        seen.lineStart = lineStart;
        seen.column = columnOf(text, lineStart, this.starts[f], index, column);
    }
    /** Record r as an object. */
    record(r) {
        const fields = [];
        for (let f = this.firsts[r]; f < this.firsts[r + 1]; f++) {
            fields.push({ value: this.value(f), start: this.starts[f], end: this.ends[f], quoted: this.quoted(f), line: this.line(r, f), column: this.column(r, f) });
        }
        return { fields, column: 1, start: this.start(r), end: this.end(r), next: this.nexts[r], line: this.lines[r] };
    }
}
/** A copy of `array` with room for `length` elements. */
function grown(array, length) {
    const copy = new array.constructor(length);
    copy.set(array);
    return copy;
}
/** Lines ended inside text[start, end): LF, CRLF and a lone CR each end one. */
function lineEnds(text, start, end) {
    let count = 0;
    for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a))
            count++;
    }
    return count;
}
/** Decodes UTF-8 (BOM optional) or UTF-16 with a BOM, as Excel's "Unicode text" export writes, naming bad bytes' position. */
function decodeCsv(bytes) {
    // The XML scanner's decoder is the shared BOM-aware UTF-8/UTF-16 decoder; its declaration check never matches CSV.
    return decodeXml(bytes);
}
function encodeCsv(text, bom, encoding) {
    return encodeXml(text, bom, encoding);
}
/**
 * The delimiter the header line uses most, outside quotes: comma, semicolon or tab (ties in that order).
 * Only the first record is looked at, because values further down may contain any of them.
 */
function detectDelimiter(text) {
    const counts = { ',': 0, ';': 0, '\t': 0 };
    let quoted = false;
    let fieldStart = true;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (quoted) {
            if (c === '"') {
                if (text[i + 1] === '"')
                    i++;
                else
                    quoted = false;
            }
            continue;
        }
        if (c === '\n' || c === '\r')
            break;
        if (c === '"' && fieldStart) {
            quoted = true;
            fieldStart = false;
            continue;
        }
        if (c === ',' || c === ';' || c === '\t') {
            counts[c]++;
            fieldStart = true;
        }
        else {
            fieldStart = false;
        }
    }
    const best = Math.max(counts[','], counts[';'], counts['\t']);
    if (best === 0 || counts[','] === best)
        return ',';
    return counts[';'] === best ? ';' : '\t';
}
const SHOWN = { ',': "','", ';': "';'", '\t': 'a tab' };
/** Splits decoded text into records; a stray character after a closing quote or an unclosed quote is an error. */
function scanGrid(text, delimiter) {
    const grid = new CsvGrid(text, delimiter);
    const fail = (message, at) => {
        const { line, column } = lineColumn(text, at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    };
    // Line breaks sit only at record ends and inside quoted fields, so the scan counts lines itself as it passes them.
    let line = 1;
    let lineStart = 0;
    const d = delimiter.charCodeAt(0);
    let pos = 0;
    const n = text.length;
    let nextLf = -1;
    let nextCr = -1;
    while (pos < n) {
        grid.openRecord(line);
        for (;;) {
            const start = pos;
            const fieldLine = line;
            let flag = 0;
            if (text.charCodeAt(pos) === 0x22) {
                flag = QUOTED;
                let close;
                for (;;) {
                    close = text.indexOf('"', pos + 1);
                    if (close < 0) {
                        const column = columnOf(text, lineStart, start);
                        fail(`Expected '"' to close the field opened at line ${fieldLine}, column ${column} before the end of the file`, n);
                    }
                    if (text.charCodeAt(close + 1) !== 0x22)
                        break;
                    flag = QUOTED | ESCAPED;
                    pos = close + 1;
                }
                pos = close + 1;
                const c = text.charCodeAt(pos);
                if (pos < n && c !== d && c !== 0x0a && c !== 0x0d) {
                    // Writers built on OpenCSV escape quotes with a backslash; RFC 4180 readers (Excel, Python) do not.
                    const hint = text.charAt(pos - 2) === '\\' ? ' (a quote inside a quoted field is written "", not \\")' : '';
                    fail(`Expected ${SHOWN[delimiter]} or the end of the line after the closing '"' of a quoted field${hint}`, pos);
                }
                // LF, CRLF and a lone CR inside the quotes each end a line. Most values hold none: the next line end
                // anywhere (kept from earlier fields, since the scan only moves forward) says so without a pass over the value.
                if (nextLf <= start)
                    nextLf = csv_scan_indexOrEnd(text, '\n', start + 1);
                if (nextCr <= start)
                    nextCr = csv_scan_indexOrEnd(text, '\r', start + 1);
                if (nextLf < close || nextCr < close) {
                    flag |= MULTILINE;
                    for (let i = start + 1; i < close; i++) {
                        const b = text.charCodeAt(i);
                        if (b === 0x0a || (b === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
                            line++;
                            lineStart = i + 1;
                        }
                    }
                }
            }
            else {
                while (pos < n) {
                    const c = text.charCodeAt(pos);
                    if (c === d || c === 0x0a || c === 0x0d)
                        break;
                    pos++;
                }
            }
            grid.addField(start, pos, flag);
            if (text.charCodeAt(pos) === d) {
                pos++;
                continue;
            }
            break;
        }
        const end = pos;
        if (text.charCodeAt(pos) === 0x0d)
            pos++;
        if (text.charCodeAt(pos) === 0x0a && (pos === end || text.charCodeAt(end) === 0x0d))
            pos++;
        if (pos > end) {
            line++;
            lineStart = pos;
        }
        grid.closeRecord(pos);
    }
    return grid;
}
/** The records of decoded text as objects (see scanGrid). */
function scanRecords(text, delimiter) {
    return recordsOf(scanGrid(text, delimiter));
}
function recordsOf(grid) {
    return Array.from({ length: grid.size }, (_, r) => grid.record(r));
}
/** Index of `c` at or after `from`, or the text's length when there is none. */
function csv_scan_indexOrEnd(text, c, from) {
    const i = text.indexOf(c, from);
    return i < 0 ? text.length : i;
}
/** Decodes and tokenizes a file. */
function scanCsv(bytes) {
    const { text, bom, encoding } = decodeCsv(bytes);
    const delimiter = detectDelimiter(text);
    const grid = scanGrid(text, delimiter);
    const newline = grid.size > 0 && grid.nexts[0] > grid.end(0) ? text.slice(grid.end(0), grid.nexts[0]) : '\n';
    let records;
    return {
        text,
        bom,
        encoding,
        delimiter,
        grid,
        get records() {
            return (records ??= recordsOf(grid));
        },
        newline,
    };
}
/** Whether RFC 4180 requires quotes around the value: it holds the delimiter, a quote or a line end, or starts a quoted field. */
function needsQuotes(value, delimiter) {
    return value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r');
}
/** Writes one field, quoted when asked to or when the value needs it. */
function writeField(value, delimiter, quote) {
    if (!quote && !needsQuotes(value, delimiter))
        return value;
    // Most values hold no quote: the test is cheaper than a replace that finds nothing.
    return value.includes('"') ? `"${value.replaceAll('"', '""')}"` : `"${value}"`;
}

;// CONCATENATED MODULE: ./src/core/formats/csv.ts
// The `csv` codec, and the table conventions (key, language, plural-category and note columns) unity_csv and xlsx share.





/** Rows held as objects, as the xlsx codec reads them. */
class RowList {
    rows;
    constructor(rows) {
        this.rows = rows;
    }
    get length() {
        return this.rows.length;
    }
    width(row) {
        return this.rows[row].cells.length;
    }
    has(row, column) {
        return this.rows[row].cells[column] !== undefined;
    }
    filled(row, column) {
        const cell = this.rows[row].cells[column];
        return cell !== undefined && cell.value !== '';
    }
    text(row, column) {
        return this.rows[row].cells[column]?.value ?? '';
    }
    equals(row, column, text) {
        return this.text(row, column) === text;
    }
    includes(row, column, search) {
        return this.text(row, column).includes(search);
    }
    line(row, column) {
        const r = this.rows[row];
        return (r.cells[column] ?? r).line;
    }
    column(row, column) {
        const r = this.rows[row];
        return (r.cells[column] ?? r).column;
    }
}
const tableRows = (rows) => (isRowList(rows) ? new RowList(rows) : rows);
const isRowList = (rows) => Array.isArray(rows);
// In order of preference: with `key` and `id` both present (Unity's Key,Id), `key` names the rows and `id` is carried along.
const KEY_HEADERS = ['key', 'keys', 'key_name', 'key name', 'keyname', 'string_id', 'string id', 'id', 'identifier', 'name'];
const NOTE_HEADERS = new Set([
    'description',
    'comment',
    'comments',
    'note',
    'notes',
    'developer_comments',
    'developer comments',
    'developer comment',
    'translator_comments',
    'translator comments',
    'translator comment',
]);
const CONTEXT_HEADERS = new Set(['context', '?context', 'msgctxt']);
const MAX_LENGTH_HEADERS = new Set(['max_length', 'maxlength', 'max length', 'max_len', 'char_limit', 'character_limit', 'character limit', 'limit']);
const VALUE_HEADERS = new Set(['value', 'text', 'translation', 'string', 'message']);
const csv_CATEGORY_SET = new Set(codec/* PLURAL_CATEGORIES */.M);
const LOCALE_SHAPE = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/;
// Any two or three letters are a well-formed tag ('url', 'tag'); only languages CLDR names count as language columns.
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
/** A normalised tag (lower case, '-' separated), or undefined when the text is not a tag of a known language. */
function localeId(text) {
    const shape = LOCALE_SHAPE.exec(text);
    if (!shape)
        return undefined;
    try {
        const tag = Intl.getCanonicalLocales(text.replaceAll('_', '-'))[0];
        return tag && LANGUAGE_NAMES.of(shape[1].toLowerCase()) !== undefined ? tag.toLowerCase() : undefined;
    }
    catch {
        return undefined;
    }
}
/** The column conventions of plain CSV and spreadsheets (see the table at the top of this file). */
function classifyHeader(header) {
    const h = header.trim().toLowerCase();
    const rank = KEY_HEADERS.indexOf(h);
    if (rank >= 0)
        return { kind: 'key', rank };
    if (NOTE_HEADERS.has(h))
        return { kind: 'notes' };
    if (CONTEXT_HEADERS.has(h))
        return { kind: 'context' };
    if (MAX_LENGTH_HEADERS.has(h))
        return { kind: 'maxLength' };
    if (h === 'translatable')
        return { kind: 'translatable' };
    if (VALUE_HEADERS.has(h))
        return { kind: 'value', locale: '' };
    if (csv_CATEGORY_SET.has(h))
        return { kind: 'value', locale: '', category: h };
    const plural = /^(.+?)[-_](zero|one|two|few|many|other)$/i.exec(header.trim());
    if (plural && localeId(plural[1]))
        return { kind: 'value', locale: plural[1], category: plural[2].toLowerCase() };
    if (localeId(header.trim()))
        return { kind: 'value', locale: header.trim() };
    return { kind: 'ignored' };
}
/** Spells a tag the way an existing header does: with '_' (pt_BR) when it uses one. */
function spellLike(locale, like) {
    return like.includes('_') ? locale.replaceAll('-', '_') : locale.replaceAll('_', '-');
}
const csvDialect = {
    format: 'csv',
    plurals: true,
    classify: classifyHeader,
    header(locale, like, category) {
        // The unnamed language's target is itself, so its added columns are bare categories.
        if (like.id === '' && category)
            return category;
        const tag = spellLike(locale, like.locale);
        return category ? `${tag}${like.separator || '_'}${category}` : tag;
    },
};
function positionError(message, at) {
    return new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${at.line}, column ${at.column}`, at.line, at.column);
}
const normalise = (locale) => localeId(locale) ?? locale.replaceAll('_', '-').toLowerCase();
/** Reads the header row into column roles and language groups, and picks the source group. */
function readLayout(header, dialect, sourceLocale) {
    const roles = header.cells.map((cell) => (cell && cell.value.trim() !== '' ? dialect.classify(cell.value) : { kind: 'ignored' }));
    let key = -1;
    roles.forEach((role, index) => {
        if (role.kind === 'key' && (key < 0 || (role.rank ?? 0) < (roles[key].rank ?? 0)))
            key = index;
    });
    if (key < 0) {
        // Godot and Lingo name the key column anything; Tolgee reads the first column as the key.
        key = 0;
        roles[0] = { kind: 'key' };
    }
    const groups = [];
    const layout = { key, notes: [], groups, width: header.cells.length };
    const seen = new Map();
    const claim = (name, index) => {
        const first = seen.get(name);
        const cell = header.cells[index];
        if (first !== undefined)
            throw positionError(`Duplicate column ${JSON.stringify(cell.value)} (first in column ${first + 1})`, cell);
        seen.set(name, index);
    };
    const groupFor = (locale) => {
        const id = locale === '' ? '' : normalise(locale);
        let group = groups.find((g) => g.id === id);
        if (!group) {
            group = { id, locale, categories: new Map(), separator: '', last: -1 };
            groups.push(group);
        }
        return group;
    };
    roles.forEach((role, index) => {
        switch (role.kind) {
            case 'key':
                // Two columns of one key name are ambiguous; `key` beside `id` is not.
                claim(`key:${role.rank ?? ''}`, index);
                return;
            case 'notes':
                layout.notes.push(index);
                return;
            case 'context':
            case 'maxLength':
            case 'translatable':
                claim(role.kind, index);
                layout[role.kind] = index;
                return;
            case 'ignored':
                return;
            case 'localeNotes': {
                const group = groupFor(role.locale);
                claim(`notes:${group.id}`, index);
                group.notes = index;
                // Unity writes each language's comment column right after its values; added languages go after both.
                group.last = Math.max(group.last, index);
                return;
            }
            case 'value': {
                if (role.category && !dialect.plurals)
                    return;
                const group = groupFor(role.locale);
                claim(`value:${group.id}:${role.category ?? ''}`, index);
                if (role.category) {
                    group.categories.set(role.category, index);
                    const cell = header.cells[index].value.trim();
                    if (role.locale !== '')
                        group.separator = cell.charAt(cell.length - role.category.length - 1);
                }
                else {
                    group.plain = index;
                    group.locale = role.locale;
                }
                group.last = Math.max(group.last, index);
            }
        }
    });
    // A language with only a comment column (Unity "French(fr) Comments" without "French(fr)") holds no values.
    const valued = groups.filter((g) => g.plain !== undefined || g.categories.size > 0);
    const wanted = normalise(sourceLocale);
    const language = (id) => id.split('-')[0];
    const source = valued.find((g) => g.id === wanted) ??
        valued.find((g) => g.id !== '' && language(g.id) === language(wanted)) ??
        valued.find((g) => g.id === '') ??
        valued[0];
    if (!source) {
        const found = header.cells.filter((c) => c && c.value !== '').map((c) => JSON.stringify(c.value));
        throw positionError(`Expected a language column in the header row (e.g. key,en,de); found only ${found.join(', ') || 'empty cells'}`, header);
    }
    return { ...layout, groups: valued, source };
}
const FALSE = /^(?:false|no|n|0)$/i;
const cellText = (rows, row, index) => (index === undefined ? '' : rows.text(row, index));
/** Where a cell is (its row's position when there is no cell), for errors. */
const cellAt = (rows, row, column) => ({
    line: rows.line(row, column),
    column: rows.column(row, column),
});
/** Whether a row is a plural in the group's category columns (see the rule at the top of this file). */
function isCategorisedPlural(rows, row, group) {
    // Most files have no category columns: no iterator needed to say so.
    if (group.categories.size === 0)
        return false;
    let filled = false;
    let beyondOther = false;
    for (const [category, index] of group.categories) {
        if (!rows.filled(row, index))
            continue;
        filled = true;
        if (category !== 'other')
            beyondOther = true;
    }
    return beyondOther || (filled && group.plain !== undefined && !rows.filled(row, group.plain));
}
/** The column holding a non-plural value: the plain column, else `other`. */
function textColumn(group) {
    return group.plain ?? group.categories.get('other') ?? [...group.categories.values()][0];
}
/**
 * A cell that is one ICU plural, with any text around it folded into each form (so translators see whole sentences).
 * Text that cannot be folded without changing its meaning leaves the cell a plain string.
 */
function icuPluralOf(text) {
    const plural = parseIcuPlural(text);
    const folded = plural && foldIcuPlural(plural);
    if (!plural || !folded)
        return undefined;
    return { forms: folded.forms, icu: { argument: plural.argument, ...(plural.offset !== undefined ? { offset: plural.offset } : {}), exact: folded.exact } };
}
/** Lists the data rows' entries; blank rows are skipped; a row without a key, a repeated key or a stray cell is an error. */
function readEntries(layout, rows, dialect) {
    const out = [];
    forEachEntry(layout, tableRows(rows), dialect, (item) => out.push(item));
    return out;
}
/**
 * Reads the data rows' entries as readEntries does, handing each to `visit` as it is read. With `reuse`, every row is
 * read into the same objects, and only as far as planning a render looks (key, text, forms, translatable): for a caller
 * that keeps nothing of them, so that a large file leaves the garbage collector no objects per row.
 */
function forEachEntry(layout, rows, dialect, visit, reuse = false) {
    const keys = new KeyTable(rows, layout.key);
    const shared = reuse ? { row: -1, entry: { key: '', path: [''], source: '', line: 0, column: 0 }, categorised: false } : undefined;
    const { source } = layout;
    const noteColumns = source.notes !== undefined ? [...layout.notes, source.notes] : layout.notes;
    const plainColumn = textColumn(source);
    for (let index = 0; index < rows.length; index++) {
        const width = rows.width(index);
        for (let i = layout.width; i < width; i++) {
            if (rows.filled(index, i)) {
                throw positionError(`Expected at most ${layout.width} cells in a row, as in the header row; this cell has no column`, cellAt(rows, index, i));
            }
        }
        if (isEmptyRow(rows, index))
            continue;
        if (!rows.filled(index, layout.key))
            throw positionError('Expected a key in the key column of a row that has values', cellAt(rows, index, layout.key));
        const key = rows.text(index, layout.key);
        const first = keys.add(key, index);
        if (first >= 0) {
            throw positionError(`Duplicate key ${JSON.stringify(key)} (first defined at line ${rows.line(first, layout.key)})`, cellAt(rows, index, layout.key));
        }
        let item;
        if (shared) {
            item = shared;
            item.row = index;
            item.categorised = false;
            item.icu = undefined;
            const { entry } = item;
            entry.key = key;
            entry.path[0] = key;
            entry.plurals = undefined;
            entry.translatable = undefined;
        }
        else {
            const line = rows.line(index, layout.key);
            item = { row: index, entry: { key, path: [key], source: '', line, column: rows.column(index, layout.key) }, categorised: false };
        }
        const { entry } = item;
        // The column of the cell the entry points at.
        let at = -1;
        if (dialect.plurals && isCategorisedPlural(rows, index, source)) {
            const plurals = {};
            for (const category of codec/* PLURAL_CATEGORIES */.M) {
                const column = source.categories.get(category);
                const text = cellText(rows, index, column);
                if (text === '')
                    continue;
                plurals[category] = text;
                if (at < 0 || category === 'other')
                    at = column;
            }
            entry.plurals = plurals;
            entry.source = plurals.other ?? '';
            item.categorised = true;
        }
        else {
            const column = plainColumn;
            if (rows.has(index, column))
                at = column;
            const icu = dialect.plurals && column === source.plain;
            // Planning reads the cell's text itself where it needs it, so a shared entry gets it only where it may be an ICU
            // plural, whose argument holds a comma and the word plural: decoding every cell of a large file costs dearly.
            const needed = !shared || (icu && rows.includes(index, column, ',') && rows.includes(index, column, 'plural'));
            entry.source = needed ? rows.text(index, column) : '';
            const plural = icu && needed ? icuPluralOf(entry.source) : undefined;
            if (plural) {
                entry.plurals = plural.forms;
                entry.source = plural.forms.other ?? '';
                item.icu = plural.icu;
            }
        }
        // What only the entries of a parse report: where the entry is, and its notes, context and length limit.
        if (!shared) {
            if (at >= 0) {
                entry.line = rows.line(index, at);
                entry.column = rows.column(index, at);
            }
            // Notes joined by hand: most rows have one note column or none, and arrays per row cost a large file dearly.
            let notes;
            for (let k = 0; k < noteColumns.length; k++) {
                const note = cellText(rows, index, noteColumns[k]);
                if (note !== '')
                    notes = notes === undefined ? note : `${notes}\n${note}`;
            }
            if (notes !== undefined)
                entry.notes = notes;
            const context = cellText(rows, index, layout.context);
            if (context !== '')
                entry.context = context;
            if (layout.maxLength !== undefined) {
                const maxLength = cellText(rows, index, layout.maxLength).trim();
                if (/^\d+$/.test(maxLength))
                    entry.maxLength = Number(maxLength);
            }
        }
        if (layout.translatable !== undefined && FALSE.test(cellText(rows, index, layout.translatable).trim()))
            entry.translatable = false;
        visit(item);
    }
}
/**
 * The rows' keys seen so far, to tell a repeated one: an open-addressed table of row indices by a hash of the key, which
 * keeps no string (a Map of a large file's keys costs a lookup and an insert per row, and keeps every key alive for the
 * garbage collector to copy). Keys whose hashes match are told apart by their text, read again from the row.
 */
class KeyTable {
    rows;
    column;
    /** Slot → row index + 1 (0 for an empty slot). */
    slots = new Int32Array(1024);
    /** Slot → the hash of its row's key. */
    hashes = new Int32Array(1024);
    size = 0;
    constructor(rows, column) {
        this.rows = rows;
        this.column = column;
    }
    /** Adds the key of `row`; returns the row that has it already (and adds nothing), else -1. */
    add(key, row) {
        const hash = hashText(key);
        const { slots, hashes } = this;
        const mask = slots.length - 1;
        let slot = hash & mask;
        for (let taken = slots[slot]; taken !== 0; taken = slots[slot]) {
            if (hashes[slot] === hash && this.rows.text(taken - 1, this.column) === key)
                return taken - 1;
            slot = (slot + 1) & mask;
        }
        slots[slot] = row + 1;
        hashes[slot] = hash;
        if (++this.size * 2 > slots.length)
            this.grow();
        return -1;
    }
    /** Doubles the table, placing each row again by its hash. */
    grow() {
        const { slots, hashes } = this;
        this.slots = new Int32Array(slots.length * 2);
        this.hashes = new Int32Array(slots.length * 2);
        const mask = this.slots.length - 1;
        for (let k = 0; k < slots.length; k++) {
            if (slots[k] === 0)
                continue;
            let slot = hashes[k] & mask;
            while (this.slots[slot] !== 0)
                slot = (slot + 1) & mask;
            this.slots[slot] = slots[k];
            this.hashes[slot] = hashes[k];
        }
    }
}
/** Where hashText starts, drawn per process (as V8 seeds its own string hashes), so that which keys collide is not fixed. */
const HASH_SEED = (Math.random() * 0x100000000) | 0;
/** FNV-1a over a text's UTF-16 units, with a final mix so that the low bits (the table's slot) depend on every unit. */
function hashText(text) {
    let hash = 0x811c9dc5 ^ HASH_SEED;
    for (let i = 0; i < text.length; i++)
        hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    hash ^= hash >>> 15;
    hash = Math.imul(hash, 0x2c1b3c6d);
    return hash ^ (hash >>> 12);
}
function isEmptyRow(rows, row) {
    const width = rows.width(row);
    for (let column = 0; column < width; column++)
        if (rows.filled(row, column))
            return false;
    return true;
}
function sameForms(a, b) {
    return codec/* PLURAL_CATEGORIES */.M.every((c) => a[c] === b[c]);
}
/**
 * Decides which cells change for a target locale. The target is the source group itself (rendering the source locale,
 * or a single-language file), the existing group for the locale, or a new group modelled on the source's columns.
 * Missing values: 'source' writes the source text (its forms mapped onto the target's categories) into another
 * language's columns; 'omit' empties them, or removes the row when the target is the source group itself.
 * Untranslatable rows keep their source text whatever the values say.
 */
function planRender(layout, rows, entries, input, dialect) {
    const planner = new RowPlanner(layout, tableRows(rows), input, dialect);
    const edits = new Map();
    for (const item of entries)
        if (planner.plan(item))
            edits.set(item.row, planner.edit());
    return { added: planner.added, rows: edits, changed: planner.changed };
}
/**
 * Plans one row at a time (see planRender), into cells it reuses, so that a codec can write each row out as it is
 * planned and keep nothing of it.
 */
class RowPlanner {
    layout;
    rows;
    input;
    dialect;
    added = [];
    /** Whether a row changes, or a column is added. */
    changed = false;
    /** The row planned last: column (existing index, or `width + k` for the k-th added column) → text ('' empties it). */
    cells;
    /** Whether the row planned last is removed. */
    remove = false;
    /** Whether the row planned last has an edit. */
    touched = false;
    /**
     * The columns of `cells` the row planned last fills (the first `filling` of them), to empty for the next: a wide
     * table's rows fill few. A count rather than `length = 0`, which would drop the array's room every row.
     */
    filled = [];
    filling = 0;
    locale;
    existing;
    /** Columns by slot: '' for the plain column, else the plural category. */
    columns = new Map();
    own;
    plain;
    categories;
    /** The values in the map's order, and the next of them (see `value`). */
    order;
    next;
    constructor(layout, rows, input, dialect) {
        this.layout = layout;
        this.rows = rows;
        this.input = input;
        this.dialect = dialect;
        const sourceLocale = input.sourceLocale ?? 'en';
        const locale = (this.locale = input.locale ?? sourceLocale);
        const { source } = layout;
        const wanted = normalise(locale);
        const { columns } = this;
        const existing = (this.existing =
            wanted === normalise(sourceLocale) || wanted === source.id ? source : (layout.groups.find((g) => g.id === wanted) ?? (source.id === '' ? source : undefined)));
        if (existing?.plain !== undefined)
            columns.set('', existing.plain);
        for (const [category, index] of existing?.categories ?? [])
            columns.set(category, index);
        // New columns are spelt like the target's existing ones, else like the source's, and follow the target's last column.
        const like = existing ? { ...existing, separator: existing.separator || source.separator } : source;
        const tag = existing ? existing.locale : locale;
        const after = existing ? existing.last : source.last;
        const add = (slot) => {
            columns.set(slot, layout.width + this.added.length);
            this.added.push({ header: dialect.header(tag, like, slot || undefined), after });
            this.changed = true;
        };
        if (!existing && source.plain !== undefined)
            add('');
        // The source's own columns for its own locale gain only what a value needs: with none, the bytes come back unchanged.
        const own = (this.own = existing === source && (wanted === normalise(sourceLocale) || wanted === source.id));
        if (source.categories.size > 0) {
            // Per-category layouts get the target's categories, plus any a value carries beyond them.
            const needed = new Set(own ? [] : pluralCategories(locale));
            for (const value of input.values.values())
                if (typeof value !== 'string')
                    for (const c of Object.keys(value.plurals))
                        needed.add(c);
            for (const category of codec/* PLURAL_CATEGORIES */.M)
                if (needed.has(category) && !columns.has(category))
                    add(category);
        }
        // Text needs a home: a language with category columns but neither a plain nor an `other` column gets `other`.
        // (The source's own group keeps its text where it was read from.)
        if (!own && !columns.has('') && !columns.has('other'))
            add('other');
        this.plain = columns.get('');
        this.categories = [...columns].filter((c) => c[0] !== '');
        this.cells = new Array(layout.width + this.added.length).fill(undefined);
        this.order = input.values.entries();
        const first = this.order.next();
        this.next = first.done ? undefined : first.value;
    }
    /** Plans an entry's row into `cells` and `remove`; false when the row stays as it is. */
    plan(item) {
        const { cells, layout, input, existing, columns, filled } = this;
        for (let k = 0; k < this.filling; k++)
            cells[filled[k]] = undefined;
        this.filling = 0;
        this.remove = false;
        this.touched = false;
        const { entry } = item;
        const { source } = layout;
        const fixed = entry.translatable === false;
        const value = fixed ? undefined : this.value(entry.key);
        if (value === undefined) {
            if (existing === source) {
                if (input.missing === 'omit' && !fixed) {
                    this.remove = this.touched = this.changed = true;
                }
            }
            else if (input.missing === 'omit' && !fixed) {
                for (const column of columns.values())
                    this.set(item.row, column, '');
            }
            else if (item.categorised) {
                this.writeForms(item, sourceFormsFor(this.locale, entry.plurals));
            }
            else {
                this.writeText(item.row, this.rows.text(item.row, textColumn(source)));
            }
        }
        else if (typeof value === 'string') {
            // The source's own text, given back unchanged, leaves its row as it is: a row can fill its `other` cell beside
            // the plain cell it is read from, and clearing it would lose that text.
            if (!(this.own && entry.plurals === undefined && this.rows.equals(item.row, textColumn(layout.source), value)))
                this.writeText(item.row, value);
        }
        else {
            if (!this.dialect.plurals)
                throw new Error(`format_cannot_express_plural: '${this.dialect.format}' was given plural forms`);
            this.writeForms(item, value.plurals);
        }
        // Added columns get a cell in every data row, so the table stays rectangular.
        if (this.added.length > 0) {
            this.touched = true;
            for (let k = 0; k < this.added.length; k++)
                if (cells[layout.width + k] === undefined)
                    this.fill(layout.width + k, '');
        }
        return this.touched;
    }
    /**
     * The value for a key. Values most often come in the file's order (they are read from it): the next one in the map's
     * order is tried first, which spares a hash lookup (a large map's costs a few cache misses); else the map is asked.
     */
    value(key) {
        const { next } = this;
        if (next !== undefined && next[0] === key) {
            const value = next[1];
            const after = this.order.next();
            this.next = after.done ? undefined : after.value;
            return value;
        }
        return this.input.values.get(key);
    }
    /** The row planned last as an edit of its own. */
    edit() {
        const cells = [];
        for (let k = 0; k < this.filling; k++)
            cells[this.filled[k]] = this.cells[this.filled[k]];
        return this.remove ? { remove: true, cells } : { cells };
    }
    set(row, column, text) {
        if (column < this.layout.width && this.rows.equals(row, column, text))
            return;
        this.fill(column, text);
        this.touched = this.changed = true;
    }
    fill(column, text) {
        if (this.cells[column] === undefined)
            this.filled[this.filling++] = column;
        this.cells[column] = text;
    }
    writeText(row, text) {
        const into = this.plain ?? this.columns.get('other') ?? textColumn(this.layout.source);
        this.set(row, into, text);
        // By index: an iterator each row would be garbage each row.
        for (let k = 0; k < this.categories.length; k++) {
            const column = this.categories[k][1];
            if (column !== into)
                this.set(row, column, '');
        }
    }
    writeForms(item, forms) {
        const { row, icu, entry } = item;
        const { plain, rows } = this;
        const { source } = this.layout;
        if (this.categories.length > 0) {
            for (const [category, column] of this.categories)
                this.set(row, column, forms[category] ?? '');
            // A plain cell beside the category cells repeats the `other` form where the source row fills it (and is left as
            // it is when the forms are the row's own).
            const unchanged = this.own && entry.plurals !== undefined && sameForms(forms, entry.plurals);
            if (plain !== undefined && !unchanged)
                this.set(row, plain, source.plain === undefined || !rows.filled(row, source.plain) ? '' : (forms.other ?? ''));
            return;
        }
        if (icu && entry.plurals && sameForms(forms, entry.plurals))
            this.set(row, plain, cellText(rows, row, source.plain));
        else
            this.set(row, plain, writeIcuPlural(icu?.argument ?? 'count', forms, icu?.exact, icu?.offset));
    }
}
/** The data records of a scanned file as table rows, read from its grid. */
class CsvRows {
    grid;
    offset;
    length;
    constructor(grid, 
    /** The first data record. */
    offset) {
        this.grid = grid;
        this.offset = offset;
        this.length = grid.size - offset;
    }
    /** The row's field in the column, or -1 when the row is shorter. */
    field(row, column) {
        const { firsts } = this.grid;
        const r = row + this.offset;
        const f = firsts[r] + column;
        return f < firsts[r + 1] ? f : -1;
    }
    width(row) {
        return this.grid.width(row + this.offset);
    }
    has(row, column) {
        return this.field(row, column) >= 0;
    }
    filled(row, column) {
        const f = this.field(row, column);
        return f >= 0 && !this.grid.empty(f);
    }
    text(row, column) {
        const f = this.field(row, column);
        return f < 0 ? '' : this.grid.value(f);
    }
    equals(row, column, text) {
        const f = this.field(row, column);
        return f < 0 ? text === '' : this.grid.equals(f, text);
    }
    includes(row, column, search) {
        const f = this.field(row, column);
        return f >= 0 && this.grid.includes(f, search);
    }
    line(row, column) {
        const r = row + this.offset;
        const f = this.field(row, column);
        return f < 0 ? this.grid.lines[r] : this.grid.line(r, f);
    }
    column(row, column) {
        const f = this.field(row, column);
        return f < 0 ? 1 : this.grid.column(row + this.offset, f);
    }
}
/** Tokenizes a file and finds its header (the first non-blank record). */
function readCsvTable(bytes) {
    const doc = scanCsv(bytes);
    const { grid } = doc;
    let head = 0;
    while (head < grid.size && grid.blank(head))
        head++;
    if (head === grid.size) {
        const lines = doc.text.split(/\r\n|\n|\r/).length;
        throw positionError('The file is empty; expected a header row (e.g. key,en)', { line: lines, column: 1 });
    }
    const cells = [];
    for (let f = grid.firsts[head]; f < grid.firsts[head + 1]; f++)
        cells.push({ value: grid.value(f), line: grid.line(head, f), column: grid.column(head, f) });
    return {
        doc,
        head,
        headerRow: { cells, line: cells[0].line, column: cells[0].column },
        rows: new CsvRows(grid, head + 1),
        get header() {
            return doc.records[head];
        },
        get records() {
            return doc.records.slice(head + 1);
        },
    };
}
/** A file that quotes by style gets quotes like the cell replaced (or the row's source cell); others only where needed. */
const mirrorQuotes = (_text, { replaced, like, styled }) => styled && (replaced ?? like) === true;
/**
 * Writes planned rows into the text: splices changed fields, inserts added columns after the column they follow
 * (padding short rows), and removes rows, keeping every other character, the line ends and the final newline (or its
 * absence). Rows are written as they are planned, so nothing of a row's plan outlives it.
 */
class CsvRewriter {
    table;
    layout;
    added;
    quote;
    output;
    edits;
    /** Output column order: the existing columns with each added one right after the column it follows. */
    order = [];
    likeColumn;
    /** What the quote policy is told about a cell: one object, refilled for each. */
    context;
    /** The last record removed, and the first of the records removed right before it. */
    lastRemoved = -2;
    removedFrom = -1;
    constructor(table, layout, added, quote) {
        this.table = table;
        this.layout = layout;
        this.added = added;
        this.quote = quote;
        const { doc } = table;
        // Most renders add a column of about the size of the file's values, or change values in place.
        this.output = new CsvOutput(doc.bom, doc.encoding, 2 * doc.text.length);
        this.edits = new csv_Splicer(doc.text, this.output);
        const { order } = this;
        for (let c = 0; c < layout.width; c++) {
            order.push(c);
            added.forEach((a, k) => a.after === c && order.push(layout.width + k));
        }
        added.forEach((a, k) => (a.after < 0 || a.after >= layout.width) && order.push(layout.width + k));
        this.likeColumn = textColumn(layout.source);
        this.context = { header: false, styled: quotesByStyle(table.doc.grid) };
        if (added.length > 0)
            this.rewrite(table.head, headerCells(layout, added));
    }
    /** Writes data row `row`'s planned cells (column → text, a hole leaving the cell as it is), or removes it. */
    row(row, cells, remove) {
        const r = row + this.table.head + 1;
        if (remove) {
            if (r !== this.lastRemoved + 1)
                this.removedFrom = r;
            this.lastRemoved = r;
            const { grid } = this.table.doc;
            this.edits.open(grid.start(r), grid.nexts[r]);
        }
        else {
            this.rewrite(r, cells);
        }
        this.edits.flush();
    }
    /** The file with the rows written. */
    result() {
        const { grid } = this.table.doc;
        const last = grid.size - 1;
        let trim = 0;
        if (this.lastRemoved === last && grid.nexts[last] === grid.end(last)) {
            // The file had no final newline: the last record kept drops its line end instead, and with every record after
            // it removed, that line end is what the text ends with.
            const kept = this.removedFrom - 1;
            if (kept >= 0)
                trim = grid.nexts[kept] - grid.end(kept);
        }
        this.edits.finish();
        return this.output.result(trim);
    }
    /** Rewrites record r (a grid index). */
    rewrite(r, cells) {
        const { edits, order, layout, added } = this;
        const { grid, delimiter } = this.table.doc;
        const { firsts, starts, ends } = grid;
        const first = firsts[r];
        const width = firsts[r + 1] - first;
        const header = r === this.table.head;
        const likeField = this.likeColumn < width ? first + this.likeColumn : layout.key < width ? first + layout.key : -1;
        const like = likeField < 0 ? undefined : grid.quoted(likeField);
        // Past the row's last field, one edit appends the cells, written up to `kept`; -1 until it is opened.
        let kept = -1;
        for (let o = 0; o < order.length; o++) {
            const column = order[o];
            const text = cells[column];
            if (column < layout.width && column < width) {
                const f = first + column;
                if (text === undefined)
                    continue;
                edits.open(starts[f], ends[f]);
                this.write(text, header, grid.quoted(f), like);
                continue;
            }
            const addedColumn = column >= layout.width ? added[column - layout.width] : undefined;
            if (addedColumn && addedColumn.after < width - 1) {
                // Between existing fields: insert right after the field it follows.
                const anchor = ends[first + addedColumn.after];
                edits.open(anchor, anchor);
                edits.write(delimiter);
                this.write(text ?? '', header, undefined, like);
                continue;
            }
            // Beyond the row's last field (the columns in order after it are all beyond it too): pad only as far as the
            // last cell that has something to hold.
            if (kept < 0) {
                const end = grid.end(r);
                edits.open(end, end);
                kept = edits.mark;
            }
            edits.write(delimiter);
            if (text === undefined)
                continue;
            this.write(text, header, undefined, like);
            if (text !== '' || addedColumn)
                kept = edits.mark;
        }
        if (kept >= 0)
            edits.truncate(kept);
    }
    /** Writes a field's text into the edit opened last, as writeField spells it. */
    write(text, header, replaced, like) {
        const { edits } = this;
        const d = this.table.doc.delimiter;
        const { context } = this;
        context.header = header;
        context.replaced = replaced;
        context.like = like;
        if (!this.quote(text, context) && !needsQuotes(text, d)) {
            edits.write(text);
            return;
        }
        edits.write('"');
        // Quotes doubled by writing the text up to and including each one, then another: a few pieces, where replaceAll
        // would build a chain of strings that lives as long as the render.
        let from = 0;
        for (let q = text.indexOf('"'); q >= 0; q = text.indexOf('"', from)) {
            edits.write(text.slice(from, q + 1));
            edits.write('"');
            from = q + 1;
        }
        edits.write(from === 0 ? text : text.slice(from));
        edits.write('"');
    }
}
/** Whether the file quotes a field that does not need it (Tolgee quotes every field), rather than only where needed. */
function quotesByStyle(grid) {
    const count = grid.fields;
    for (let f = 0; f < count; f++)
        if (grid.quotedWithoutNeed(f))
            return true;
    return false;
}
/** The header row's cells for the added columns. */
function addedHeaders(layout, plan) {
    return headerCells(layout, plan.added);
}
function headerCells(layout, added) {
    const cells = [];
    added.forEach((a, k) => (cells[layout.width + k] = a.header));
    return cells;
}
/**
 * A text with edits spliced in as they come, in order of position: each replaces a span of the text with the pieces
 * written after it is opened. The pieces are joined a few thousand at a time and handed to the output, so that neither
 * they nor one large array pointing at them live long enough for the garbage collector to copy them.
 */
class csv_Splicer {
    text;
    output;
    /** The text is spliced up to here. */
    at = 0;
    pieces = [];
    constructor(text, output) {
        this.text = text;
        this.output = output;
    }
    /** Opens an edit replacing start..end (at or after the last one's end) with the pieces written until the next. */
    open(start, end) {
        this.pieces.push(this.text.slice(this.at, start));
        this.at = end;
    }
    write(piece) {
        this.pieces.push(piece);
    }
    /** How many pieces are written: a mark to `truncate` to, before the next `flush`. */
    get mark() {
        return this.pieces.length;
    }
    /** Drops the pieces written since `mark`. */
    truncate(mark) {
        if (this.pieces.length > mark)
            this.pieces.length = mark;
    }
    /** Hands the pieces on once there are enough of them (between rows, since `truncate` reaches back only within one). */
    flush() {
        if (this.pieces.length < 4096)
            return;
        this.output.add(this.pieces.join(''));
        this.pieces = [];
    }
    /** Hands on the rest of the text. */
    finish() {
        this.pieces.push(this.text.slice(this.at));
        this.output.add(this.pieces.join(''));
        this.pieces = [];
    }
}
// One encoder for every render: it holds no state between calls.
const csv_UTF8 = new TextEncoder();
/**
 * A rendered file's bytes, given a chunk of text at a time: UTF-8 is encoded as it comes, so that the text never
 * exists whole. (UTF-16, which Excel's "Unicode text" export writes and little else, is encoded at the end.)
 */
class CsvOutput {
    bom;
    encoding;
    size;
    bytes = new Uint8Array(0);
    length = 0;
    texts = [];
    constructor(bom, encoding, 
    /** What the output is expected to take, in bytes: room made at the first chunk (a render may change nothing). */
    size) {
        this.bom = bom;
        this.encoding = encoding;
        this.size = size;
    }
    add(text) {
        if (this.encoding !== 'utf-8') {
            this.texts.push(text);
            return;
        }
        // A UTF-16 unit takes at most three bytes; the first chunk makes room, and writes the BOM.
        if (this.bytes.length === 0 || this.bytes.length - this.length < text.length * 3) {
            const bytes = new Uint8Array(Math.max(2 * this.bytes.length, this.length + text.length * 3 + 3, this.size));
            bytes.set(this.bytes.subarray(0, this.length));
            if (this.bytes.length === 0 && this.bom)
                this.length = csv_UTF8.encodeInto('\uFEFF', bytes).written;
            this.bytes = bytes;
        }
        this.length += csv_UTF8.encodeInto(text, this.bytes.subarray(this.length)).written;
    }
    /** The file, without the text's last `trim` characters (a line end's: one byte each in UTF-8). */
    result(trim) {
        if (this.encoding === 'utf-8')
            return this.bytes.slice(0, this.length - trim);
        const text = this.texts.join('');
        return encodeCsv(text.slice(0, text.length - trim), this.bom, this.encoding);
    }
}
/** Renders a CSV-shaped file through a dialect: the source bytes back when nothing changes. */
function renderCsvTable(input, dialect, quote, table = readCsvTable(input.source)) {
    const layout = readLayout(table.headerRow, dialect, input.sourceLocale ?? 'en');
    // Rows are read, planned and written in one pass, so that no row's objects outlive it (a large file's would keep
    // the garbage collector busy). A planning error waits until the whole file is read: the file's own errors come
    // first, as they would if it were read before planning.
    let planning;
    let failure;
    try {
        const planner = new RowPlanner(layout, table.rows, input, dialect);
        planning = { planner, rewriter: new CsvRewriter(table, layout, planner.added, quote) };
    }
    catch (error) {
        failure = { error };
    }
    forEachEntry(layout, table.rows, dialect, (item) => {
        if (!planning)
            return;
        const { planner, rewriter } = planning;
        try {
            if (planner.plan(item))
                rewriter.row(item.row, planner.cells, planner.remove);
        }
        catch (error) {
            failure = { error };
            planning = undefined;
        }
    }, true);
    if (failure)
        throw failure.error;
    const { planner, rewriter } = planning;
    return planner.changed ? rewriter.result() : input.source.slice();
}
/** Entries of a CSV-shaped file, reading the column of `sourceLocale` (or the first language) as the source. */
function parseCsvTable(source, dialect, sourceLocale = 'en') {
    const table = source instanceof Uint8Array ? readCsvTable(source) : source;
    const layout = readLayout(table.headerRow, dialect, sourceLocale);
    return readEntries(layout, table.rows, dialect).map((e) => e.entry);
}
/** A csv file's entries in the column of `locale`: how the service reads a file's other languages back. */
function parseCsv(bytes, locale = 'en') {
    return parseCsvTable(bytes, csvDialect, locale);
}
/** A cell for a fresh file: plural values as ICU text, as Tolgee writes them. */
function freshCell(value) {
    return typeof value === 'string' ? value : writeIcuPlural('count', value.plurals);
}
/** Keeps the first position and the last value of a repeated key, as Map.set does. */
function dedupe(entries) {
    const byKey = new Map();
    for (const entry of entries)
        byKey.set(entry.key, { ...entry, notes: entry.notes ?? byKey.get(entry.key)?.notes });
    return [...byKey.values()];
}
const csvCodec = {
    id: 'csv',
    extensions: ['.csv', '.tsv'],
    plurals: true,
    detect(fileName, head) {
        if (!/\.(?:csv|tsv)$/i.test(fileName))
            return 0;
        const first = head.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
        // Unity's string table export is claimed by unity_csv.
        if (/^"?Key"?,"?Id"?,/.test(first) || /[^,]\([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*\)"?(?:,|$)/.test(first))
            return 0.3;
        return 0.6;
    },
    parse(bytes) {
        // Parse has no locale: the source is 'en' (the service's default source locale), else the first language column.
        return parseCsv(bytes);
    },
    render(input) {
        return renderCsvTable(input, csvDialect, mirrorQuotes);
    },
    renderFresh(entries, options) {
        const locale = options?.locale ?? 'en';
        const lines = [`key,${writeField(locale, ',', false)}`];
        for (const entry of dedupe(entries))
            lines.push(`${writeField(entry.key, ',', false)},${writeField(freshCell(entry.value), ',', false)}`);
        return encodeCsv(`${lines.join('\n')}\n`, false, 'utf-8');
    },
};

;// CONCATENATED MODULE: ./src/core/formats/ios-strings.ts
// The `ios_strings` codec: Apple `.strings` files (old-style plist `"key" = "value";` pairs) in UTF-8 or UTF-16, spliced in place.




/** Decodes by byte order mark; UTF-16 without one is recognised by its zero bytes, as it cannot be valid text otherwise. */
function decode(bytes) {
    const [b0, b1] = [bytes[0], bytes[1]];
    let encoding;
    let bom = false;
    if (b0 === 0xff && b1 === 0xfe)
        [encoding, bom] = ['utf-16le', true];
    else if (b0 === 0xfe && b1 === 0xff)
        [encoding, bom] = ['utf-16be', true];
    else if (bytes.length >= 2 && bytes.length % 2 === 0 && b0 !== 0 && b1 === 0)
        encoding = 'utf-16le';
    else if (bytes.length >= 2 && bytes.length % 2 === 0 && b0 === 0 && b1 !== 0)
        encoding = 'utf-16be';
    if (!encoding) {
        const { text, bom: utf8Bom } = decodeUtf8(bytes);
        return { text, encoding: 'utf-8', bom: utf8Bom };
    }
    const body = bytes.subarray(bom ? 2 : 0);
    try {
        if (body.length % 2 !== 0)
            throw new Error('odd length');
        return { text: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body), encoding, bom };
    }
    catch {
        const name = encoding === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE';
        throw new file_unparsable_error/* FileUnparsableError */.w(`Invalid ${name} text (an odd number of bytes or an unpaired surrogate) at line 1, column 1`, 1, 1);
    }
}
function encode(text, encoding, bom) {
    if (encoding === 'utf-8')
        return new TextEncoder().encode(bom ? `\uFEFF${text}` : text);
    const units = bom ? `\uFEFF${text}` : text;
    const out = new Uint8Array(units.length * 2);
    const little = encoding === 'utf-16le';
    for (let i = 0; i < units.length; i++) {
        const c = units.charCodeAt(i);
        out[2 * i + (little ? 0 : 1)] = c & 0xff;
        out[2 * i + (little ? 1 : 0)] = c >> 8;
    }
    return out;
}
// The characters CFOldStylePList allows in an unquoted string.
const BARE_RUN = /[A-Za-z0-9_$/:.-]+/y;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const LINE_BREAKS = /[\n\r\u2028\u2029]/g;
/** Whitespace as CFOldStylePList skips it: tab through carriage return, space, and the Unicode line and paragraph separators. */
const isSpace = (c) => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x2028 || c === 0x2029;
const isLineBreak = (c) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
/** The comments of the many statements that have none: one empty list, never written to. */
const NONE = Object.freeze([]);
const SIMPLE_ESCAPES = {
    a: '\u0007',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\n': '\n',
};
/**
 * The grammar Foundation's strings-file parser (CFOldStylePList) accepts: `key = value;` or `key;` statements, keys and
 * values quoted with `"` or `'` or bare words, `/* *\/` and `//` comments anywhere whitespace may be. Stricter where it is
 * lenient only in refusing duplicate keys, which Foundation resolves silently to the last one.
 */
class Parser {
    text;
    pos = 0;
    line = 1;
    lineStart = 0;
    lineAt = 0;
    /** The first line break at or after `lineAt`, once looked for (the text's length when there is none). */
    nextBreak = -1;
    columns;
    constructor(text) {
        this.text = text;
        this.columns = new ColumnCounter(text);
    }
    parse() {
        const statements = [];
        const seen = new Map();
        let comments = this.skip();
        // Foundation also reads a strings file written as one old-style plist dictionary, `{ "key" = "value"; }`.
        const braced = this.text[this.pos] === '{' ? this.pos++ : -1;
        if (braced >= 0)
            comments = this.skip();
        while (this.pos < this.text.length && !(braced >= 0 && this.text[this.pos] === '}')) {
            const key = this.string('Expected a key (a quoted string or a word of letters, digits and _$/:.-)');
            const first = seen.get(key.value);
            if (first)
                this.fail(`Duplicate key ${JSON.stringify(key.value)} (first defined at line ${first.line})`, key.start);
            seen.set(key.value, key);
            const statement = { key, end: 0, above: this.above(comments, key.start) };
            this.skip();
            const c = this.text[this.pos];
            if (c === '=') {
                this.pos++;
                this.skip();
                if (this.text[this.pos] === '(' || this.text[this.pos] === '{' || this.text[this.pos] === '<') {
                    this.fail(`Expected a string value for the key ${JSON.stringify(key.value)} (arrays, dictionaries and data are not strings)`);
                }
                statement.value = this.string(() => `Expected a string value after '=' for the key ${JSON.stringify(key.value)}`);
                this.skip();
                if (this.text[this.pos] !== ';')
                    this.fail(`Expected ';' after the value of the key ${JSON.stringify(key.value)}`);
            }
            else if (c !== ';') {
                this.fail(`Expected '=' or ';' after the key ${JSON.stringify(key.value)}`);
            }
            this.pos++;
            statement.end = this.pos;
            statements.push(statement);
            comments = this.skip();
            if (comments[0] && !this.hasLineBreak(statement.end, comments[0].start))
                statement.trailing = comments.shift();
        }
        if (braced >= 0) {
            if (this.pos >= this.text.length)
                this.fail("Expected '}' to close the dictionary opened here before the end of the file", braced);
            this.pos++;
            this.skip();
            if (this.pos < this.text.length)
                this.fail("Expected the end of the file after the dictionary's closing '}'");
        }
        return statements;
    }
    fail(message, at = this.pos) {
        const { line, column } = this.position(at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    }
    /** Line and code-point column of an index; moves forward from the last answer, or restarts when asked about an earlier one. */
    position(target) {
        if (target < this.lineAt)
            [this.lineAt, this.line, this.lineStart, this.nextBreak] = [0, 1, 0, -1];
        const t = this.text;
        // Hop from line break to line break; the columns of the last line are counted from its start.
        for (;;) {
            if (this.nextBreak < this.lineAt) {
                LINE_BREAKS.lastIndex = this.lineAt;
                this.nextBreak = LINE_BREAKS.exec(t)?.index ?? t.length;
            }
            const at = this.nextBreak;
            if (at >= target)
                break;
            this.lineAt = at + 1;
            // The CR of a CRLF: the LF ends the line.
            if (t.charCodeAt(at) === 0x0d && t.charCodeAt(at + 1) === 0x0a)
                continue;
            this.line++;
            this.lineStart = at + 1;
        }
        this.lineAt = target;
        return { line: this.line, column: this.columns.at(this.lineStart, target) };
    }
    hasLineBreak(from, to) {
        return LINE_BREAK.test(this.text.slice(from, to));
    }
    /** The run of comments ending right above `keyStart`, each separated from the next by at most one line break. */
    above(comments, keyStart) {
        if (comments.length === 0)
            return NONE;
        const run = [];
        let next = keyStart;
        for (let i = comments.length - 1; i >= 0; i--) {
            const comment = comments[i];
            const gap = this.text.slice(comment.end, next);
            if ((gap.match(/\r\n|[\n\r\u2028\u2029]/g) ?? []).length > 1)
                break;
            run.unshift(comment);
            next = comment.start;
        }
        return run;
    }
    /** Skips whitespace and comments, returning the comments passed. */
    skip() {
        const t = this.text;
        let comments = NONE;
        while (this.pos < t.length) {
            const c = t.charCodeAt(this.pos);
            if (isSpace(c)) {
                this.pos++;
            }
            else if (c === 0x2f && t.charCodeAt(this.pos + 1) === 0x2f) {
                const start = this.pos;
                this.pos += 2;
                while (this.pos < t.length && !isLineBreak(t.charCodeAt(this.pos)))
                    this.pos++;
                if (comments === NONE)
                    comments = [];
                comments.push({ start, end: this.pos, text: t.slice(start + 2, this.pos).trim() });
            }
            else if (c === 0x2f && t.charCodeAt(this.pos + 1) === 0x2a) {
                const start = this.pos;
                const close = t.indexOf('*/', this.pos + 2);
                if (close < 0)
                    this.fail("Expected '*/' to close the comment before the end of the file", start);
                this.pos = close + 2;
                if (comments === NONE)
                    comments = [];
                comments.push({ start, end: this.pos, text: t.slice(start + 2, close).trim() });
            }
            else {
                break;
            }
        }
        return comments;
    }
    /** Reads a quoted string or a bare word; `expected` says what was expected where there is neither. */
    string(expected) {
        const t = this.text;
        const start = this.pos;
        const c = t[this.pos];
        if (c === '"' || c === "'")
            return this.quoted(c);
        BARE_RUN.lastIndex = this.pos;
        if (c === undefined || !BARE_RUN.test(t)) {
            const message = typeof expected === 'string' ? expected : expected();
            this.fail(this.pos >= t.length ? `${message} before the end of the file` : message);
        }
        this.pos = BARE_RUN.lastIndex;
        const { line, column } = this.position(start);
        return { start, end: this.pos, value: t.slice(start, this.pos), line, column };
    }
    quoted(quote) {
        const t = this.text;
        const q = quote.charCodeAt(0);
        const start = this.pos++;
        let value = '';
        let chunk = this.pos;
        for (;;) {
            let i = this.pos;
            let c = t.charCodeAt(i);
            while (c !== q && c !== 0x5c && i < t.length)
                c = t.charCodeAt(++i);
            this.pos = i;
            if (i >= t.length)
                this.fail(`Expected ${quote} to close the string that starts here before the end of the file`, start);
            if (c === q)
                break;
            value += t.slice(chunk, i) + this.escape();
            chunk = this.pos;
        }
        value = chunk === start + 1 ? t.slice(chunk, this.pos) : value + t.slice(chunk, this.pos);
        this.pos++;
        const { line, column } = this.position(start);
        return { start, end: this.pos, value, line, column };
    }
    /** Decodes the escape at the backslash as Foundation does; an unknown letter stands for itself (`\'` → `'`). */
    escape() {
        const t = this.text;
        const backslash = this.pos;
        const c = t[this.pos + 1];
        if (c === undefined)
            this.fail('Expected a character after \\ before the end of the file', backslash);
        this.pos += 2;
        if (c === 'U' || c === 'u') {
            const hex = /^[0-9A-Fa-f]{4}/.exec(t.slice(this.pos, this.pos + 4));
            if (!hex)
                this.fail(`Expected 4 hex digits after \\${c}`, backslash);
            this.pos += 4;
            return String.fromCharCode(parseInt(hex[0], 16));
        }
        if (c >= '0' && c <= '7') {
            const octal = /^[0-7]{1,3}/.exec(t.slice(this.pos - 1, this.pos + 2))[0];
            this.pos += octal.length - 1;
            return String.fromCharCode(parseInt(octal, 8) & 0xff);
        }
        if (c === '\r' && t[this.pos] === '\n') {
            this.pos++;
            return '\r\n';
        }
        return SIMPLE_ESCAPES[c] ?? c;
    }
}
/** Decodes and parses a strings file, keeping every token's span in the decoded text (for the codec and its tests). */
function readStringsFile(bytes) {
    const decoded = decode(bytes);
    return { ...decoded, statements: new Parser(decoded.text).parse() };
}
const read = readStringsFile;
// genstrings writes this for every string without a comment; it says nothing to a translator.
const NO_COMMENT = 'No comment provided by engineer.';
function notesOf(statement) {
    const above = statement.above.map((c) => c.text).filter((text) => text && text !== NO_COMMENT);
    if (above.length > 0)
        return above.join('\n').replace(/\r\n?/g, '\n');
    // A comment after the `;` explains that line when there is none above it.
    const trailing = statement.trailing?.text;
    return trailing && trailing !== NO_COMMENT ? trailing : undefined;
}
// eslint-disable-next-line no-control-regex
const UNLIKE_JSON = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\ud800-\udfff]/;
/** Quotes a value the way Xcode writes strings files: `\"`, `\\`, `\n` and `\r` escaped, everything else literal. */
function quoteStringsValue(value) {
    // Without other control characters or surrogates, JSON.stringify escapes exactly these four.
    if (!UNLIKE_JSON.test(value))
        return JSON.stringify(value);
    return `"${value.replace(/[\\"\n\r]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\${c}`))}"`;
}
const lineBreakAt = (text, at) => (text.startsWith('\r\n', at) ? 2 : LINE_BREAK.test(text[at] ?? '') ? 1 : 0);
/** The text to cut when omitting a statement: with its comments, and its whole line(s) when it has them to itself. */
function statementCut(text, statement) {
    const start = statement.above[0]?.start ?? statement.key.start;
    let end = statement.trailing?.end ?? statement.end;
    let lineStart = start;
    while (lineStart > 0 && (text[lineStart - 1] === ' ' || text[lineStart - 1] === '\t'))
        lineStart--;
    while (end < text.length && (text[end] === ' ' || text[end] === '\t'))
        end++;
    const ownsLine = (lineStart === 0 || LINE_BREAK.test(text[lineStart - 1])) && (end === text.length || lineBreakAt(text, end) > 0);
    return ownsLine ? { start: lineStart, end: end + lineBreakAt(text, end), ownsLine } : { start, end, ownsLine };
}
/**
 * Joins cuts separated only by blank lines, then keeps the file's spacing: where a cut leaves a blank line on both
 * sides one goes, and a cut at the end of the file takes the blank line before it.
 */
function joinCuts(text, cuts) {
    const joined = [];
    for (const cut of cuts) {
        const last = joined[joined.length - 1];
        if (last?.ownsLine && cut.ownsLine && /^[ \t\r\n]*$/.test(text.slice(last.end, cut.start)))
            last.end = cut.end;
        else
            joined.push({ ...cut });
    }
    for (const cut of joined) {
        if (!cut.ownsLine)
            continue;
        const before = text.slice(0, cut.start);
        // The blank line is the whitespace and break that end `before`, after the previous line's own break.
        const blankBefore = /(?:\r\n|\n|\r(?!\n))([ \t]*(?:\r\n|[\n\r]))$/.exec(before);
        if (before !== '' && !blankBefore)
            continue;
        let blank = cut.end;
        while (text[blank] === ' ' || text[blank] === '\t')
            blank++;
        if (lineBreakAt(text, blank) > 0)
            cut.end = blank + lineBreakAt(text, blank);
        else if (blankBefore && blank === text.length)
            cut.start -= blankBefore[1].length;
    }
    return joined;
}
const iosStringsCodec = {
    id: 'ios_strings',
    extensions: ['.strings'],
    plurals: false,
    detect(fileName, head) {
        const byName = /\.strings$/i.test(fileName);
        // A UTF-16 head read as bytes shows a zero byte beside each ASCII character.
        const body = head.replace(/^\uFEFF/, '').split('\u0000').join('');
        const looksLike = /^\s*(?:\/\*[^]*?\*\/\s*|\/\/[^\n]*\n\s*)*"(?:[^"\\\n]|\\.)*"\s*=\s*"/.test(body);
        if (byName)
            return looksLike || body.trim() === '' ? 1 : 0.8;
        return looksLike ? 0.4 : 0;
    },
    parse(bytes) {
        const { statements } = read(bytes);
        return statements.map((statement) => {
            const token = statement.value ?? statement.key;
            const entry = {
                key: statement.key.value,
                path: [statement.key.value],
                source: token.value,
                line: token.line,
                column: token.column,
            };
            const notes = notesOf(statement);
            if (notes !== undefined)
                entry.notes = notes;
            return entry;
        });
    },
    render(input) {
        const file = read(input.source);
        const { text } = file;
        const edits = [];
        const cuts = [];
        for (const statement of file.statements) {
            const translated = input.values.get(statement.key.value);
            if (translated === undefined) {
                if (input.missing === 'omit')
                    cuts.push(statementCut(text, statement));
                continue;
            }
            const value = textValue(translated, 'ios_strings');
            const current = statement.value ?? statement.key;
            if (value === current.value)
                continue;
            if (statement.value)
                edits.push({ start: current.start, end: current.end, text: quoteStringsValue(value) });
            else
                edits.push({ start: statement.key.end, end: statement.key.end, text: ` = ${quoteStringsValue(value)}` });
        }
        for (const cut of joinCuts(text, cuts))
            edits.push({ start: cut.start, end: cut.end, text: '' });
        if (edits.length === 0)
            return input.source.slice();
        edits.sort((a, b) => a.start - b.start);
        let out = '';
        let at = 0;
        for (const edit of edits) {
            out += text.slice(at, edit.start) + edit.text;
            at = edit.end;
        }
        return encode(out + text.slice(at), file.encoding, file.bom);
    },
    renderFresh(entries) {
        // A repeated key keeps its first position and its last value and notes, as the service's key map does.
        const byKey = new Map();
        for (const entry of entries)
            byKey.set(entry.key, entry);
        const blocks = [...byKey.values()].map((entry) => {
            const line = `${quoteStringsValue(entry.key)} = ${quoteStringsValue(textValue(entry.value, 'ios_strings'))};\n`;
            // `*/` would end the comment early; a space keeps the note readable.
            return entry.notes ? `/* ${entry.notes.replace(/\*\//g, '* /')} */\n${line}` : line;
        });
        return encode(blocks.join('\n'), 'utf-8', false);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/ios-stringsdict.ts
// Apple .stringsdict plists: plural rules per format variable, read from and spliced back into the plist XML.




const PLURAL_RULE = 'NSStringPluralRuleType';
const PLIST_VALUES = new Set(['string', 'dict', 'array', 'integer', 'real', 'true', 'false', 'date', 'data']);
function hasPair(pairs, name) {
    for (const p of pairs)
        if (p.name === name)
            return true;
    return false;
}
function parsePlist(bytes) {
    const { text, bom, encoding } = decodeXml(bytes);
    const doc = scanXml(text);
    const fail = (message, at) => {
        const { line, column } = lineColumn(text, at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    };
    if (doc.root.name !== 'plist')
        fail(`Expected <plist> as the root element, found <${doc.root.name}>`, doc.root.start + 1);
    const [top, extra] = childElements(doc.root);
    if (!top)
        fail("Expected a <dict> inside <plist>", doc.root.openEnd);
    // Apple's parser refuses a second value ("plist can only include one object"); plistlib would silently keep the last.
    if (extra)
        fail(`Expected a single <dict> inside <plist> (a plist holds one object); found another <${extra.name}>`, extra.start);
    if (top.name !== 'dict')
        fail(`Expected <dict> as the plist's top-level object, found <${top.name}>`, top.start + 1);
    const pairsOf = (dict) => {
        // The children are walked in place rather than filtered into an array first: every string has a dict.
        let count = 0;
        for (const n of dict.children)
            if (n.kind === 'element')
                count++;
        const pairs = [];
        // Small dicts (nearly all) check for a repeated key by looking through their few pairs.
        const names = count > 16 ? new Set() : undefined;
        let key;
        let name = '';
        for (const value of dict.children) {
            if (value.kind !== 'element')
                continue;
            if (key === undefined) {
                if (value.name !== 'key')
                    fail(`Expected <key> in <dict>, found <${value.name}>`, value.start);
                key = value;
                name = textContent(key);
                continue;
            }
            if (value.name === 'key')
                fail(`Expected a value after <key>${name}</key>`, value.start);
            const size = names?.size;
            if (names ? names.add(name).size === size : hasPair(pairs, name))
                fail(`Duplicate key '${name}' in <dict>`, key.start);
            if (!PLIST_VALUES.has(value.name)) {
                fail(`Expected a plist value (<string>, <dict>, ...) after <key>${name}</key>, found <${value.name}>`, value.start);
            }
            pairs.push({ key, name, value });
            key = undefined;
        }
        if (key)
            fail(`Expected a value after <key>${name}</key>`, dict.closeStart);
        return pairs;
    };
    const stringOf = (pair) => (pair?.value.name === 'string' ? textContent(pair.value) : undefined);
    const items = [];
    // One set operation per key: where a repeated key was first claimed is looked up only when it happens.
    const keys = new Set();
    const claim = (key, at) => {
        const size = keys.size;
        if (keys.add(key).size === size)
            fail(`Duplicate key '${key}' (first defined at line ${lineColumn(text, ios_stringsdict_firstClaim(items, key)).line})`, at);
    };
    // Pairs come in document order, so one cursor finds each key's place among the dict's children.
    let index = 0;
    for (const pair of pairsOf(top)) {
        while (top.children[index] !== pair.key)
            index++;
        const notes = ios_stringsdict_commentBefore(top.children, index);
        const extras = notes !== undefined ? { notes } : {};
        if (pair.value.name !== 'dict')
            fail(`Expected a <dict> as the value of the key '${pair.name}' (a .stringsdict maps each key to a dict), found <${pair.value.name}>`, pair.value.start);
        const inner = pairsOf(pair.value);
        const format = inner.find((p) => p.name === 'NSStringLocalizedFormatKey');
        if (!format)
            continue;
        if (format.value.name !== 'string')
            fail('Expected a <string> value for NSStringLocalizedFormatKey', format.value.start);
        if (inner.length === 1) {
            claim(pair.name, pair.key.start);
            items.push({ kind: 'format', top: pair, format, ...extras });
            continue;
        }
        // Each variable's pairs are read once, for the spec type and then for the forms.
        const plural = [];
        const pluralPairs = [];
        for (const p of inner) {
            if (p.value.name !== 'dict')
                continue;
            const pairs = pairsOf(p.value);
            if (stringOf(pairs.find((q) => q.name === 'NSStringFormatSpecTypeKey')) !== PLURAL_RULE)
                continue;
            plural.push(p);
            pluralPairs.push(pairs);
        }
        if (plural.length === 0)
            continue;
        const variables = plural.map((p, i) => {
            const forms = [];
            for (const q of pluralPairs[i]) {
                if (!codec/* PLURAL_CATEGORIES */.M.includes(q.name))
                    continue;
                if (q.value.name !== 'string')
                    fail(`Expected a <string> for the plural form '${q.name}', found <${q.value.name}>`, q.value.start);
                forms.push({ category: q.name, pair: q });
            }
            const entryKey = plural.length === 1 ? pair.name : `${pair.name}.${p.name}`;
            const at = plural.length === 1 ? pair.key.start : p.key.start;
            claim(entryKey, at);
            return { entryKey, at, name: p.name, dict: p.value, forms };
        });
        items.push({ kind: 'plural', top: pair, variables, ...extras });
    }
    return { text, bom, encoding, items };
}
/** Where `key` was first claimed among the items read so far. */
function ios_stringsdict_firstClaim(items, key) {
    for (const item of items) {
        if (item.kind === 'format') {
            if (item.top.name === key)
                return item.top.key.start;
        }
        else
            for (const v of item.variables)
                if (v.entryKey === key)
                    return v.at;
    }
    return 0;
}
function ios_stringsdict_commentBefore(siblings, index) {
    for (let i = index - 1; i >= 0; i--) {
        const node = siblings[i];
        if (node.kind === 'text' && /^[ \t\r\n]*$/.test(node.raw))
            continue;
        if (node.kind === 'comment')
            return node.value.trim() || undefined;
        return undefined;
    }
    return undefined;
}
function ios_stringsdict_toEntries(parsed) {
    const entries = [];
    const at = (el) => lineColumn(parsed.text, el.openEnd);
    for (const item of parsed.items) {
        if (item.kind === 'format') {
            entries.push(ios_stringsdict_entryOf(item.top.name, textContent(item.format.value), undefined, item.notes, at(item.format.value)));
            continue;
        }
        for (const v of item.variables) {
            const plurals = {};
            for (const c of codec/* PLURAL_CATEGORIES */.M) {
                const form = v.forms.find((f) => f.category === c);
                if (form)
                    plurals[c] = textContent(form.pair.value);
            }
            const main = v.forms.find((f) => f.category === 'other') ?? v.forms[v.forms.length - 1];
            const source = plurals.other ?? (main ? textContent(main.pair.value) : '');
            entries.push(ios_stringsdict_entryOf(v.entryKey, source, plurals, item.notes, main ? at(main.pair.value) : lineColumn(parsed.text, v.dict.openEnd)));
        }
    }
    return entries;
}
/** An entry with its optional fields present only when set, in the order entries always list them. */
function ios_stringsdict_entryOf(key, source, plurals, notes, position) {
    const entry = plurals === undefined ? { key, path: [key], source } : { key, path: [key], source, plurals };
    if (notes !== undefined)
        entry.notes = notes;
    entry.line = position.line;
    entry.column = position.column;
    return entry;
}
function escapeString(value, eol) {
    const escaped = escapeXmlText(value);
    return eol === '\n' ? escaped : escaped.replace(/\n/g, eol);
}
function ios_stringsdict_formsOf(value, locale) {
    if (typeof value !== 'string')
        return value.plurals;
    const forms = {};
    for (const c of pluralCategories(locale))
        forms[c] = value;
    return forms;
}
function variableEdits(parsed, v, forms, eol) {
    const { text } = parsed;
    const categories = codec/* PLURAL_CATEGORIES */.M.filter((c) => forms[c] !== undefined);
    const edits = [];
    for (const f of v.forms) {
        const form = forms[f.category];
        if (form !== undefined && form !== textContent(f.pair.value))
            edits.push(contentEdit(text, f.pair.value, escapeString(form, eol)));
    }
    const template = v.forms.find((f) => f.category === 'other') ?? v.forms[v.forms.length - 1];
    const make = (category) => {
        const value = escapeString(forms[category] ?? '', eol);
        if (!template)
            return `<key>${category}</key><string>${value}</string>`;
        const { key, value: string } = template.pair;
        const keyPart = `${text.slice(key.start, key.openEnd)}${category}${text.slice(key.closeStart, key.end)}`;
        const stringPart = string.selfClosing ? `<string>${value}</string>` : `${text.slice(string.start, string.openEnd)}${value}${text.slice(string.closeStart, string.end)}`;
        return keyPart + text.slice(key.end, string.start) + stringPart;
    };
    const slots = v.forms.map((f) => ({ category: f.category, start: f.pair.key.start, end: f.pair.value.end }));
    const slotEdits = pluralSlotEdits(text, slots, categories, make);
    if (slotEdits)
        return [...edits, ...slotEdits];
    // A variable without any form: add them before </dict>, one level deeper than the dict's own keys.
    const last = childElements(v.dict).at(-1);
    const indent = last ? lineIndent(text, last.start) : `${lineIndent(text, v.dict.start)}\t`;
    const insertion = categories.map((c) => `${eol}${indent}${make(c).replace(/(<\/key>)\s*(<string)/, `$1${eol}${indent}$2`)}`).join('');
    const at = last ? last.end : v.dict.openEnd;
    return [{ start: at, end: at, text: insertion }];
}
function ios_stringsdict_render(input) {
    const parsed = parsePlist(input.source);
    const { text } = parsed;
    const eol = lineEnding(text);
    const locale = input.locale ?? input.sourceLocale ?? 'en';
    const edits = [];
    const removeTop = (top) => {
        edits.push({ start: removalStart(text, top.key.start), end: top.value.end, text: '' });
    };
    for (const item of parsed.items) {
        if (item.kind === 'format') {
            const value = input.values.get(item.top.name);
            if (value === undefined) {
                if (input.missing === 'omit')
                    removeTop(item.top);
                continue;
            }
            const next = typeof value === 'string' ? value : (value.plurals.other ?? '');
            if (next !== textContent(item.format.value))
                edits.push(contentEdit(text, item.format.value, escapeString(next, eol)));
            continue;
        }
        const values = item.variables.map((v) => input.values.get(v.entryKey));
        // A variable cannot go on its own (the format key names it): the string goes when none of it is translated.
        if (input.missing === 'omit' && values.every((v) => v === undefined)) {
            removeTop(item.top);
            continue;
        }
        item.variables.forEach((v, i) => {
            const value = values[i];
            if (value === undefined)
                return;
            const forms = ios_stringsdict_formsOf(value, locale);
            const same = v.forms.length === Object.keys(forms).length && v.forms.every((f) => forms[f.category] === textContent(f.pair.value));
            if (!same)
                edits.push(...variableEdits(parsed, v, forms, eol));
        });
    }
    if (edits.length === 0)
        return input.source.slice();
    return encodeXml(splice(text, edits), parsed.bom, parsed.encoding);
}
/** The printf conversion a plural's number is formatted with, guessed from its forms ('d' when none shows one). */
function valueType(forms) {
    for (const form of [forms.other, ...Object.values(forms)]) {
        const match = /%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?((?:ll|l|h|hh|q|z|t|j)?[diouxX])/.exec(form ?? '');
        if (match)
            return match[1];
    }
    return 'd';
}
function ios_stringsdict_renderFresh(entries) {
    let out = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n';
    for (const entry of entries) {
        if (entry.notes !== undefined && entry.notes !== '')
            out += `\t<!-- ${entry.notes.replace(/--/g, '- -').replace(/-$/, '- ')} -->\n`;
        out += `\t<key>${escapeXmlText(entry.key)}</key>\n`;
        if (typeof entry.value === 'string') {
            out += `\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>${escapeXmlText(entry.value)}</string>\n\t</dict>\n`;
            continue;
        }
        const forms = entry.value.plurals;
        out += '\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@value@</string>\n\t\t<key>value</key>\n\t\t<dict>\n';
        out += `\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>${PLURAL_RULE}</string>\n`;
        out += `\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>${valueType(forms)}</string>\n`;
        for (const c of codec/* PLURAL_CATEGORIES */.M) {
            const form = forms[c];
            if (form !== undefined)
                out += `\t\t\t<key>${c}</key>\n\t\t\t<string>${escapeXmlText(form)}</string>\n`;
        }
        out += '\t\t</dict>\n\t</dict>\n';
    }
    return new TextEncoder().encode(`${out}</dict>\n</plist>\n`);
}
const iosStringsdictCodec = {
    id: 'ios_stringsdict',
    extensions: ['.stringsdict'],
    plurals: true,
    detect(fileName, head) {
        const plist = /<plist[\s>]/.test(head) || /<!DOCTYPE plist/.test(head);
        if (/\.stringsdict$/i.test(fileName))
            return plist || head.trim() === '' ? 0.95 : 0.6;
        if (plist && head.includes('NSStringLocalizedFormatKey'))
            return 0.7;
        return 0;
    },
    parse(bytes) {
        return ios_stringsdict_toEntries(parsePlist(bytes));
    },
    render: ios_stringsdict_render,
    renderFresh: ios_stringsdict_renderFresh,
};

;// CONCATENATED MODULE: ./src/core/formats/ios-xcstrings-catalog.ts
// Reading an Xcode String Catalog for the `ios_xcstrings` codec: its strings found on the file's tape, the bodies of their localizations, and the entries those give.



function ios_xcstrings_catalog_fail(tape, message, slot) {
    const line = tape.line(slot);
    const column = tape.column(slot);
    throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
}
function objectAt(tape, node, what) {
    if (tape.kind(node) !== 'object')
        ios_xcstrings_catalog_fail(tape, `Expected an object for ${what}`, node);
    return node;
}
function stringIn(tape, node, name, what) {
    const found = tape.member(node, name);
    if (found < 0)
        ios_xcstrings_catalog_fail(tape, `Expected a "${name}" string in ${what}`, node);
    if (tape.kind(found + 1) !== 'string')
        ios_xcstrings_catalog_fail(tape, `Expected a string for "${name}" in ${what}`, found + 1);
    return found + 1;
}
/** A `{ "stringUnit": { "state", "value" } }` holder: the value token and state. */
function readUnit(tape, holder, what) {
    const unit = tape.member(holder, 'stringUnit');
    if (unit < 0)
        return undefined;
    const unitWhat = `the stringUnit of ${what}`;
    const body = objectAt(tape, unit + 1, unitWhat);
    const node = stringIn(tape, body, 'value', unitWhat);
    const state = tape.member(body, 'state');
    return state >= 0 && tape.kind(state + 1) === 'string' ? { node, state: tape.string(state + 1) } : { node };
}
/**
 * The forms of a plural variation, of which there must be one at least. Xcode compiles a plural variation to a
 * `.stringsdict` plural rule, where Apple documents the `other` form as required: a plural with no form has no text for
 * any count, so it is malformed rather than empty. (One without `other` is still read, its first form standing in, as
 * other tools write such plurals.) The source language's is refused, naming where, as other malformed structure is; a
 * target language's makes its localization malformed, which a render treats as no translation (see `currentEntries`).
 */
function readPlural(tape, node, what) {
    const plural = objectAt(tape, node, `the plural variations of ${what}`);
    if (plural + 1 >= tape.after(plural))
        ios_xcstrings_catalog_fail(tape, `Expected at least one form (zero, one, two, few, many, other) in the plural variations of ${what}`, plural);
    const forms = new Map();
    for (let key = plural + 1; key < tape.after(plural); key = tape.after(key)) {
        const category = tape.string(key);
        if (!codec/* PLURAL_CATEGORIES */.M.includes(category)) {
            ios_xcstrings_catalog_fail(tape, `Expected a CLDR plural category (zero, one, two, few, many, other) in the plural variations of ${what}, found ${JSON.stringify(category)}`, key);
        }
        const form = readUnit(tape, objectAt(tape, key + 1, `the "${category}" form of ${what}`), `the "${category}" form of ${what}`);
        if (!form)
            ios_xcstrings_catalog_fail(tape, `Expected a "stringUnit" in the "${category}" form of ${what}`, key + 1);
        forms.set(category, form);
    }
    return forms;
}
/** A text, plural, or (when `devices`) device-varied localization body. */
function readPart(tape, holder, what, devices) {
    const variations = tape.member(holder, 'variations');
    if (variations >= 0) {
        const kinds = objectAt(tape, variations + 1, `the variations of ${what}`);
        const plural = tape.member(kinds, 'plural');
        if (plural >= 0)
            return { kind: 'plural', forms: readPlural(tape, plural + 1, what) };
        const device = tape.member(kinds, 'device');
        if (device >= 0 && devices) {
            const list = [];
            const byDevice = objectAt(tape, device + 1, `the device variations of ${what}`);
            for (let key = byDevice + 1; key < tape.after(byDevice); key = tape.after(key)) {
                const name = tape.string(key);
                const deviceWhat = `the "${name}" device variation of ${what}`;
                const part = readPart(tape, objectAt(tape, key + 1, deviceWhat), deviceWhat, false);
                if (part && part.kind !== 'device')
                    list.push([name, part]);
            }
            return { kind: 'device', devices: list };
        }
    }
    const unit = readUnit(tape, holder, what);
    return unit && { kind: 'text', ...unit };
}
/** A localization body, read and checked; `what` names it in messages. */
function readBody(tape, node, what) {
    const holder = objectAt(tape, node, what);
    const body = { substitutions: [] };
    const main = readPart(tape, holder, what, true);
    if (main)
        body.main = main;
    const substitutions = tape.member(holder, 'substitutions');
    if (substitutions >= 0) {
        const byName = objectAt(tape, substitutions + 1, `the substitutions of ${what}`);
        for (let key = byName + 1; key < tape.after(byName); key = tape.after(key)) {
            const name = tape.string(key);
            const subWhat = `the substitution "${name}" of ${what}`;
            const sub = objectAt(tape, key + 1, subWhat);
            const variations = tape.member(sub, 'variations');
            const plural = variations < 0 ? -1 : tape.member(objectAt(tape, variations + 1, `the variations of ${subWhat}`), 'plural');
            if (plural >= 0)
                body.substitutions.push({ name, node: sub, forms: readPlural(tape, plural + 1, subWhat) });
        }
    }
    return body;
}
/** The body of the localization whose key is at `localization`, in the catalog string whose key is at `key`. */
function readLocalization(tape, localization, key) {
    return readBody(tape, localization + 1, `the "${tape.string(localization)}" localization of ${tape.quoted(key)}`);
}
function ios_xcstrings_catalog_formsOf(tape, forms) {
    const value = {};
    const states = {};
    for (const category of codec/* PLURAL_CATEGORIES */.M) {
        const form = forms.get(category);
        if (form)
            [value[category], states[category]] = [tape.string(form.node), form.state];
    }
    // `readPlural` gives one form at least.
    const at = (forms.get('other') ?? [...forms.values()][0]).node;
    return { value, at, states };
}
function partEntry(tape, path, part) {
    const key = path.join('.');
    if (part.kind === 'text')
        return { key, path, value: tape.string(part.node), at: part.node, states: { '': part.state } };
    return { key, path, ...ios_xcstrings_catalog_formsOf(tape, part.forms) };
}
/** The entries a localization body gives for the catalog string `key`. */
function bodyEntries(tape, key, body) {
    const out = [];
    const main = body.main;
    if (main?.kind === 'device')
        for (const [device, part] of main.devices)
            out.push(partEntry(tape, [key, 'device', device], part));
    else if (main)
        out.push(partEntry(tape, [key], main));
    for (const sub of body.substitutions)
        out.push({ key: `${key}.${sub.name}`, path: [key, sub.name], ...ios_xcstrings_catalog_formsOf(tape, sub.forms) });
    return out;
}
/** Scans a catalog and finds its strings, refusing one without a source language or strings, or with a string or its localizations not an object. */
function scanCatalog(bytes) {
    const tape = scanJsonTape(bytes);
    const root = 0;
    const sourceLanguage = tape.string(stringIn(tape, root, 'sourceLanguage', 'the top-level object'));
    const stringsMember = tape.member(root, 'strings');
    if (stringsMember < 0)
        ios_xcstrings_catalog_fail(tape, 'Expected a "strings" object in the top-level object', root);
    const byKey = objectAt(tape, stringsMember + 1, '"strings"');
    const stop = tape.after(byKey);
    let count = 0;
    for (let key = byKey + 1; key < stop; key = tape.after(key))
        count++;
    const keys = new Int32Array(count);
    const localizations = new Int32Array(count);
    const comments = new Int32Array(count);
    const translatable = new Uint8Array(count);
    const { text } = tape;
    let index = 0;
    for (let key = byKey + 1; key < stop; key = tape.after(key), index++) {
        const node = key + 1;
        if (tape.kind(node) !== 'object')
            ios_xcstrings_catalog_fail(tape, `Expected an object for the string ${JSON.stringify(tape.string(key))}`, node);
        let shouldTranslate = -1;
        let comment = -1;
        let holder = -1;
        const end = tape.after(node);
        for (let member = node + 1; member < end; member = tape.after(member)) {
            if (tape.is(member, 'localizations'))
                holder = member;
            else if (tape.is(member, 'comment'))
                comment = member;
            else if (tape.is(member, 'shouldTranslate'))
                shouldTranslate = member;
        }
        if (holder >= 0 && tape.kind(holder + 1) !== 'object') {
            ios_xcstrings_catalog_fail(tape, `Expected an object for the localizations of ${JSON.stringify(tape.string(key))}`, holder + 1);
        }
        keys[index] = key;
        localizations[index] = holder < 0 ? -1 : holder + 1;
        comments[index] = comment;
        const flag = shouldTranslate + 1;
        translatable[index] = shouldTranslate < 0 || tape.end(flag) - tape.start(flag) !== 5 || !text.startsWith('false', tape.start(flag)) ? 1 : 0;
    }
    return { tape, sourceLanguage, keys, localizations, comments, translatable };
}
/** The catalog string at `index`, as `readCatalog` lists it (without its comment). */
function catalogString(catalog, index) {
    const key = catalog.keys[index];
    const item = { key, name: catalog.tape.string(key), node: key + 1, translatable: catalog.translatable[index] === 1 };
    const localizations = catalog.localizations[index];
    if (localizations >= 0)
        item.localizations = localizations;
    return item;
}
/** The catalog's strings as objects, comments included, for reading its entries. */
function readCatalog(bytes) {
    const catalog = scanCatalog(bytes);
    const { tape, comments } = catalog;
    const strings = [];
    for (let index = 0; index < comments.length; index++) {
        const item = catalogString(catalog, index);
        const comment = comments[index] + 1;
        if (comment > 0 && tape.kind(comment) === 'string' && tape.end(comment) - tape.start(comment) > 2)
            item.comment = tape.string(comment);
        strings.push(item);
    }
    return { ...catalog, strings };
}
/** A language tag as locales are compared: lowercase, with `-` for `_`. */
const normalLocale = (tag) => tag.toLowerCase().replace(/_/g, '-');
/** The key of the member of `localizations` for a locale (or -1), matching `pt-BR`, `pt_BR` and `pt-br` alike. */
function localizationOf(tape, item, locale) {
    return item.localizations === undefined ? -1 : localizationIn(tape, item.localizations, locale, normalLocale(locale));
}
/** `localizationOf` in a `localizations` object (-1: none), for a locale and its `normalLocale`. */
function localizationIn(tape, localizations, locale, normal) {
    if (localizations < 0)
        return -1;
    for (let key = localizations + 1; key < tape.after(localizations); key = tape.after(key)) {
        if (tape.is(key, locale) || (mayBeLocale(tape, key, normal) && normalLocale(tape.string(key)) === normal))
            return key;
    }
    return -1;
}
/**
 * False when the key at `slot` cannot name the normalized locale `normal`, told without decoding it: an ASCII key of
 * `normal`'s length with a character that differs in more than case (and `_` for `-`). Other keys may; `normalLocale` decides.
 */
function mayBeLocale(tape, slot, normal) {
    const { text } = tape;
    const start = tape.start(slot) + 1;
    if (tape.end(slot) - 1 - start !== normal.length)
        return true;
    for (let i = 0; i < normal.length; i++) {
        const c = text.charCodeAt(start + i);
        const n = normal.charCodeAt(i);
        // An escape or a non-ASCII character (lowercasing `K`, the Kelvin sign, gives `k`) is left to `normalLocale`.
        if (c >= 0x80 || c === 0x5c)
            return true;
        if (c !== n && !(c === 0x5f && n === 0x2d) && !(c >= 0x41 && c <= 0x5a && c + 0x20 === n))
            return false;
    }
    return true;
}
/**
 * The keys of a catalog's entries as they are read, string by string, refusing two that give one key. A key of one
 * segment is its catalog string's name, which no other string has, so only a key of more segments (a device or
 * substitution) can meet another: those are kept, and the strings' one-segment entries only as the slot each points at
 * (-1: none), so a large catalog's entries are not all held until the end.
 */
class EntryKeys {
    catalog;
    longer = new Map();
    single;
    // Strings by name, once a longer key first comes.
    byName;
    constructor(catalog) {
        this.catalog = catalog;
        this.single = new Int32Array(catalog.keys.length).fill(-1);
    }
    /** The one-segment entry of the string `index` named `name`. */
    add(index, name, at) {
        this.single[index] = at;
        if (this.longer.size === 0)
            return;
        const prior = this.longer.get(name);
        if (prior)
            this.refuse(prior, [name], name, at);
    }
    /** The entries of the string `index`. */
    addAll(index, entries) {
        for (const entry of entries) {
            if (entry.path.length === 1) {
                this.add(index, entry.key, entry.at);
                continue;
            }
            let prior = this.longer.get(entry.key);
            const { tape, keys } = this.catalog;
            this.byName ??= new Map(Array.from(keys, (key, i) => [tape.string(key), i]));
            const other = this.byName.get(entry.key);
            if (!prior && other !== undefined && this.single[other] >= 0)
                prior = { path: [entry.key], at: this.single[other] };
            this.longer.set(entry.key, entry);
            if (prior)
                this.refuse(prior, entry.path, entry.key, entry.at);
        }
    }
    refuse(prior, path, key, at) {
        const { tape } = this.catalog;
        ios_xcstrings_catalog_fail(tape, `The entries ${JSON.stringify(prior.path)} (line ${tape.line(prior.at)}) and ${JSON.stringify(path)} both give the key ${JSON.stringify(key)}; rename one of them`, at);
    }
}
/** The entry a string's key gives where its source localization gives none. */
const keyEntry = (item) => ({ key: item.name, path: [item.name], value: item.name, at: item.key, states: {} });
function toEntry(tape, item, found) {
    const entry = {
        key: found.key,
        path: found.path,
        source: typeof found.value === 'string' ? found.value : (found.value.other ?? Object.values(found.value)[0] ?? ''),
        line: tape.line(found.at),
        column: tape.column(found.at),
    };
    if (typeof found.value !== 'string')
        entry.plurals = found.value;
    if (!item.translatable)
        entry.translatable = false;
    if (item.comment !== undefined)
        entry.notes = item.comment;
    return entry;
}
/**
 * Every entry of `locale`'s localizations, string by string in file order; `fallback` adds the key itself as the text
 * where one has none (the source language).
 */
function localeEntries(catalog, locale, fallback) {
    const { tape, strings } = catalog;
    const keys = new EntryKeys(catalog);
    const out = [];
    for (let index = 0; index < strings.length; index++) {
        const item = strings[index];
        const localization = localizationOf(tape, item, locale);
        const body = localization < 0 ? undefined : readLocalization(tape, localization, item.key);
        let entries = body ? bodyEntries(tape, item.name, body) : [];
        // Xcode keeps `""` for empty string literals in code; with no localization there is nothing to translate.
        if (entries.length === 0 && fallback && item.name !== '')
            entries = [keyEntry(item)];
        keys.addAll(index, entries);
        for (const found of entries)
            out.push(toEntry(tape, item, found));
    }
    return out;
}
/** The source language's entries, as `parse` returns them: the key stands in for a string with no source localization. */
function readSourceEntries(bytes) {
    const catalog = readCatalog(bytes);
    return localeEntries(catalog, catalog.sourceLanguage, true);
}
/**
 * Entries of one language in a catalog (the source language's are what `parse` returns, with the key standing in for
 * strings that have no source localization). Other languages list only what they hold.
 */
function readXcstringsLocale(bytes, locale) {
    const catalog = readCatalog(bytes);
    const fallback = normalLocale(locale) === normalLocale(catalog.sourceLanguage);
    return localeEntries(catalog, locale, fallback);
}

;// CONCATENATED MODULE: ./src/core/formats/ios-xcstrings-merge.ts
// The general render of the `ios_xcstrings` codec: what a catalog string should become (`Desired`), merged into the file's text by the Merger or written new by `serialize`, in the file's style and Xcode's key order.




// Xcode writes catalogs with sorted keys in a collation where punctuation sorts first (`my_case` before `my.case` before `myCase`).
const collator = new Intl.Collator('en', { numeric: true });
const XCODE_STYLE = { colon: ' : ', indent: '  ', eol: '\n' };
/** The style of a scanned catalog, Xcode's where the file does not show one. */
function detectStyle(tape) {
    const { text } = tape;
    // The root is slot 0, its first member's key slot 1.
    const first = tape.after(0) > 1;
    const colon = first ? text.slice(tape.end(1), tape.start(2)) : XCODE_STYLE.colon;
    const lead = first ? /(?:^|\n)([ \t]*)$/.exec(text.slice(tape.start(0) + 1, tape.start(1))) : null;
    return {
        colon: /^[ \t]*:[ \t]*$/.test(colon) ? colon : XCODE_STYLE.colon,
        indent: lead?.[1] || XCODE_STYLE.indent,
        eol: text.includes('\r\n') ? '\r\n' : '\n',
    };
}
/** Xcode's order of two member names; names of lowercase ASCII letters only (units, plural categories, most locales) compare as code units do. */
function compareKeys(a, b) {
    if (isLowerAscii(a) && isLowerAscii(b))
        return a < b ? -1 : a > b ? 1 : 0;
    return collator.compare(a, b);
}
/** Whether `name` is of lowercase ASCII letters only. */
function isLowerAscii(name) {
    for (let i = 0; i < name.length; i++) {
        const c = name.charCodeAt(i);
        if (c < 0x61 || c > 0x7a)
            return false;
    }
    return true;
}
/** Whether members are in Xcode's order already. */
function inOrder(members) {
    for (let i = 1; i < members.length; i++)
        if (compareKeys(members[i - 1][0], members[i][0]) > 0)
            return false;
    return true;
}
/** Writes a new value, its members one level deeper than `indent` (the indentation of the line it starts on). */
function serialize(desired, indent, style) {
    switch (desired.kind) {
        case 'string':
            return JSON.stringify(desired.value);
        case 'raw':
            return desired.text;
        case 'remove':
            // A parent drops members to remove before writing them; nothing else asks.
            return '';
        case 'object': {
            const { colon, indent: unit, eol } = style;
            let members = desired.members;
            if (members.some(([, d]) => d.kind === 'remove'))
                members = members.filter(([, d]) => d.kind !== 'remove');
            // Sorting is stable: members already in order (as most desired objects are built) stay as they are.
            if (!desired.ordered && !inOrder(members))
                members = members.slice().sort(([a], [b]) => compareKeys(a, b));
            if (members.length === 0)
                return `{${eol}${eol}${indent}}`;
            const inner = indent + unit;
            let out = '{';
            for (let i = 0; i < members.length; i++) {
                const [key, d] = members[i];
                out += `${i === 0 ? eol : `,${eol}`}${inner}${JSON.stringify(key)}${colon}${serialize(d, inner, style)}`;
            }
            return `${out}${eol}${indent}}`;
        }
    }
}
/** Where the line `at` is on starts. */
function ios_xcstrings_merge_lineStart(text, at) {
    // Walk back: lastIndexOf('\r') on an LF file would scan to the top every time.
    let start = at;
    while (start > 0 && text.charCodeAt(start - 1) !== 0x0a && text.charCodeAt(start - 1) !== 0x0d)
        start--;
    return start;
}
/** Where the spaces and tabs from `start` end, at `at` at the latest. */
function indentEnd(text, start, at) {
    let end = start;
    while (end < at && (text.charCodeAt(end) === 0x20 || text.charCodeAt(end) === 0x09))
        end++;
    return end;
}
/** The spaces and tabs that start the line `at` is on, up to `at`. */
function ios_xcstrings_merge_lineIndent(text, at) {
    const start = ios_xcstrings_merge_lineStart(text, at);
    return text.slice(start, indentEnd(text, start, at));
}
/** Splices desired values into the scanned text, following the file's indentation, separator and line-ending style. */
class Merger {
    tape;
    style;
    text;
    constructor(tape, style) {
        this.tape = tape;
        this.style = style;
        this.text = tape.text;
    }
    lineIndent(at) {
        return ios_xcstrings_merge_lineIndent(this.text, at);
    }
    /** The new text of `node`, or undefined when it already says what is desired. */
    merge(node, desired, indent) {
        const tape = this.tape;
        switch (desired.kind) {
            case 'string':
                return tape.is(node, desired.value) ? undefined : JSON.stringify(desired.value);
            case 'raw':
                return this.text.slice(tape.start(node), tape.end(node)) === desired.text ? undefined : desired.text;
            case 'remove':
                // Handled by the parent object, which leaves the member out.
                return undefined;
            case 'object':
                return tape.kind(node) === 'object' ? this.mergeObject(node, desired) : serialize(desired, indent, this.style);
        }
    }
    mergeObject(node, desired) {
        const { tape, text } = this;
        if (desired.unitValue !== undefined) {
            const value = tape.member(node, 'value');
            if (value >= 0 && tape.is(value + 1, desired.unitValue))
                return undefined;
        }
        const only = desired.members.length === 1 && !desired.exclusive ? desired.members[0] : undefined;
        if (only && only[1].kind !== 'remove')
            return this.mergeMember(node, only[0], only[1]);
        // Members by their key's slot; a member spans from its key's start to its value's end.
        const members = tape.children(node);
        const names = members.map((key) => tape.string(key));
        const items = [];
        let changed = false;
        for (let index = 0; index < members.length; index++) {
            const key = members[index];
            const name = names[index];
            const d = wantedIn(desired, name);
            if (d === undefined ? desired.exclusive : d.kind === 'remove') {
                changed = true;
                continue;
            }
            const merged = d && this.merge(key + 1, d, this.lineIndent(tape.start(key)));
            if (merged !== undefined)
                changed = true;
            items.push({ key: name, text: text.slice(tape.start(key), merged === undefined ? tape.end(key + 1) : tape.start(key + 1)) + (merged ?? ''), index });
        }
        const first = members[0];
        const memberIndent = first !== undefined ? this.lineIndent(tape.start(first)) : this.lineIndent(tape.start(node)) + this.style.indent;
        const colon = first !== undefined ? text.slice(tape.end(first), tape.start(first + 1)) : this.style.colon;
        // Whether the members kept are in Xcode's order, which new ones then join; asked only once there is a new one.
        let sorted;
        for (const [key, d] of desired.members) {
            if (names.includes(key) || d.kind === 'remove')
                continue;
            changed = true;
            const item = { key, text: `${JSON.stringify(key)}${colon}${serialize(d, memberIndent, this.style)}` };
            sorted ??= items.every((other, i) => i === 0 || compareKeys(items[i - 1].key, other.key) <= 0);
            const at = sorted ? items.findIndex((other) => compareKeys(other.key, key) > 0) : -1;
            items.splice(at < 0 ? items.length : at, 0, item);
        }
        if (!changed)
            return undefined;
        const { eol } = this.style;
        if (first === undefined)
            return `{${eol}${items.map((item) => memberIndent + item.text).join(`,${eol}`)}${eol}${this.lineIndent(tape.start(node))}}`;
        if (items.length === 0)
            return `{${eol}${eol}${this.lineIndent(tape.start(node))}}`;
        const last = members[members.length - 1];
        const second = members[1];
        const separator = second !== undefined ? text.slice(tape.end(first + 1), tape.start(second)) : `,${text.slice(tape.start(node) + 1, tape.start(first))}`;
        let out = text.slice(tape.start(node), tape.start(first));
        for (let k = 0; k < items.length; k++) {
            const item = items[k];
            const previous = items[k - 1];
            if (previous) {
                const adjacent = previous.index !== undefined && item.index === previous.index + 1;
                out += adjacent ? text.slice(tape.end(members[previous.index] + 1), tape.start(members[item.index])) : separator;
            }
            out += item.text;
        }
        return out + text.slice(tape.end(last + 1), tape.end(node));
    }
    /**
     * `mergeObject` for a desired object that names one member and keeps the others, as every localization written
     * asks (of its catalog string, then of its `localizations`): the member's value merged in place, or the member
     * added where Xcode's order puts it, between the others as they are. Writes what the general case writes.
     */
    mergeMember(node, name, desired) {
        const { tape, text } = this;
        const found = tape.member(node, name);
        if (found >= 0) {
            const merged = this.merge(found + 1, desired, this.lineIndent(tape.start(found)));
            return merged === undefined ? undefined : text.slice(tape.start(node), tape.start(found + 1)) + merged + text.slice(tape.end(found + 1), tape.end(node));
        }
        const members = tape.children(node);
        const first = members[0];
        const { eol } = this.style;
        if (first === undefined) {
            const indent = this.lineIndent(tape.start(node));
            const inner = indent + this.style.indent;
            return `{${eol}${inner}${JSON.stringify(name)}${this.style.colon}${serialize(desired, inner, this.style)}${eol}${indent}}`;
        }
        const item = `${JSON.stringify(name)}${text.slice(tape.end(first), tape.start(first + 1))}${serialize(desired, this.lineIndent(tape.start(first)), this.style)}`;
        const second = members[1];
        const separator = second !== undefined ? text.slice(tape.end(first + 1), tape.start(second)) : `,${text.slice(tape.start(node) + 1, tape.start(first))}`;
        // Before the first member that sorts after it when the members are in Xcode's order, else last.
        let at = members.length;
        let previous;
        for (let k = 0; k < members.length; k++) {
            const key = tape.string(members[k]);
            if (previous !== undefined && compareKeys(previous, key) > 0) {
                at = members.length;
                break;
            }
            if (at === members.length && compareKeys(key, name) > 0)
                at = k;
            previous = key;
        }
        if (at === members.length) {
            const end = tape.end(members[members.length - 1] + 1);
            return text.slice(tape.start(node), end) + separator + item + text.slice(end, tape.end(node));
        }
        const next = tape.start(members[at]);
        const before = at === 0 ? text.slice(tape.start(node), next) : text.slice(tape.start(node), tape.end(members[at - 1] + 1)) + separator;
        return before + item + separator + text.slice(next, tape.end(node));
    }
}
/** What `desired` wants for the member `name` (the last it names, as a Map of its members would hold). */
function wantedIn(desired, name) {
    const { members } = desired;
    for (let i = members.length - 1; i >= 0; i--)
        if (members[i][0] === name)
            return members[i][1];
    return undefined;
}
const unit = (value, state) => ({
    kind: 'object',
    unitValue: value,
    members: [
        ['state', { kind: 'string', value: state }],
        ['value', { kind: 'string', value }],
    ],
});
function pluralVariations(forms, states, fallbackState) {
    const members = codec/* PLURAL_CATEGORIES */.M.flatMap((category) => {
        const form = forms[category];
        return form === undefined ? [] : [[category, { kind: 'object', members: [['stringUnit', unit(form, states[category] ?? fallbackState)]] }]];
    });
    return { kind: 'object', exclusive: true, members: [['plural', { kind: 'object', exclusive: true, members }]] };
}
/** A text or plural value in the shape of a localization (or device variation) body. */
function partFor(value, states, fallbackState) {
    if (typeof value === 'string')
        return [['stringUnit', unit(value, states[''] ?? fallbackState)]];
    return [['variations', pluralVariations(value, states, fallbackState)]];
}
const partOf = (filled) => partFor(filled.value, filled.states, 'needs_review');
/**
 * The localization body for one catalog string, in the source's shape, `fills` giving its entries' slots in the order
 * `bodyEntries` lists them (a string with no localization has the one entry its key stands in for).
 */
function desiredBody(tape, body, fills) {
    const members = [];
    let next = 0;
    const main = body?.main;
    if (main?.kind === 'device') {
        const devices = main.devices.map(([device]) => [device, { kind: 'object', exclusive: true, members: partOf(fills[next++]) }]);
        members.push(['variations', { kind: 'object', exclusive: true, members: [['device', { kind: 'object', exclusive: true, members: devices }]] }]);
    }
    else if (main || !body || body.substitutions.length === 0) {
        members.push(...partOf(fills[next++]));
    }
    if (body && body.substitutions.length > 0) {
        const subs = body.substitutions.map((sub) => {
            const s = fills[next++];
            const forms = typeof s.value === 'string' ? { other: s.value } : s.value;
            const copied = tape
                .children(sub.node)
                .filter((name) => !tape.is(name, 'variations'))
                .map((name) => [tape.string(name), { kind: 'raw', text: tape.text.slice(tape.start(name + 1), tape.end(name + 1)) }]);
            return [sub.name, { kind: 'object', exclusive: true, members: [...copied, ['variations', pluralVariations(forms, s.states, 'needs_review')]] }];
        });
        members.push(['substitutions', { kind: 'object', exclusive: true, members: subs }]);
    }
    return { kind: 'object', exclusive: true, members };
}
function sameValue(a, b) {
    if (a === undefined)
        return false;
    if (typeof b === 'string' || typeof a === 'string')
        return a === b;
    const x = Object.entries(a);
    const y = b.plurals;
    return x.length === Object.keys(y).length && x.every(([k, v]) => y[k] === v);
}
/** The state "translated" for a text or for each plural form. */
const translatedStates = (value) => typeof value === 'string' ? { '': 'translated' } : Object.fromEntries(Object.keys(value).map((c) => [c, 'translated']));
const NO_ENTRIES = new Map();
/**
 * The entries a language already has for one catalog string, by key; a malformed localization (one with a plural
 * without forms among them, see `readPlural`) counts as none: it gets replaced.
 */
function currentEntries(tape, item, localization) {
    if (localization < 0)
        return NO_ENTRIES;
    try {
        return new Map(bodyEntries(tape, item.name, readLocalization(tape, localization, item.key)).map((e) => [e.key, e]));
    }
    catch (error) {
        if (error instanceof file_unparsable_error/* FileUnparsableError */.w)
            return NO_ENTRIES;
        throw error;
    }
}
/**
 * What one source entry's slot gets: its value (state "translated", or the state it had when the value is unchanged),
 * else the language's existing text for that slot, else the source text, to be marked "needs_review".
 */
function fillFor(entry, value, had, target) {
    if (value !== undefined) {
        const next = typeof value === 'string' ? value : value.plurals;
        return { value: next, states: had && sameValue(had.value, value) ? had.states : translatedStates(next) };
    }
    if (had && typeof had.value === typeof entry.value)
        return { value: had.value, states: had.states };
    return { value: typeof entry.value === 'string' ? entry.value : sourceFormsFor(target, entry.value), states: {} };
}
/**
 * What a catalog string's object should become for the render of `target` (`isSource`: the source language), given the
 * entries of its source localization (`body`, none for a string whose key stands in), or undefined to keep it.
 */
function desiredString(tape, input, target, isSource, item, entries, body) {
    const existing = localizationOf(tape, item, target);
    const current = isSource ? new Map(entries.map((e) => [e.key, e])) : currentEntries(tape, item, existing);
    const values = entries.map((e) => input.values.get(e.key));
    if (values.every((value) => value === undefined)) {
        if (input.missing !== 'omit' || isSource || existing < 0)
            return undefined;
        const only = tape.children(item.localizations).length === 1;
        return { kind: 'object', members: [['localizations', only ? { kind: 'remove' } : { kind: 'object', members: [[tape.string(existing), { kind: 'remove' }]] }]] };
    }
    if (entries.every((e, i) => values[i] === undefined || sameValue(current.get(e.key)?.value, values[i])))
        return undefined;
    const localization = desiredBody(tape, body, entries.map((e, i) => fillFor(e, values[i], current.get(e.key), target)));
    return { kind: 'object', members: [['localizations', { kind: 'object', members: [[existing < 0 ? target : tape.string(existing), localization]] }]] };
}

;// CONCATENATED MODULE: ./src/core/formats/ios-xcstrings-simple-body.ts
// The quick reading the `ios_xcstrings` render gives a localization body of one text or one plural (nearly every string's): its slots, read as `readBody` reads them but without building its entry.

/** How a localization body reads to `readSimple`: one text, one plural, or any other, left to `readBody`. */
const OTHER_BODY = 0;
const TEXT_BODY = 1;
const PLURAL_BODY = 2;
const OTHER_FORM = codec/* PLURAL_CATEGORIES */.M.indexOf('other');
/** The slots of a localization body of one text or one plural, read without building its entry. */
class SimpleBody {
    kind = OTHER_BODY;
    /** How many members the body object has. */
    members = 0;
    /** A text's value token, and the key of its unit's "state" member (-1: none). */
    value = -1;
    stateKey = -1;
    /**
     * A plural's object, how many members its "variations" object has, and its forms' value tokens and "state" keys in
     * PLURAL_CATEGORIES order (-1: none).
     */
    plural = -1;
    variations = 0;
    forms = new Int32Array(codec/* PLURAL_CATEGORIES */.M.length);
    formStates = new Int32Array(codec/* PLURAL_CATEGORIES */.M.length);
    /** The token the entry's position points at, as `bodyEntries` gives it. */
    at = -1;
}
/** A `{ "value", "state" }` unit object into `body.value` and `body.stateKey`; false where `readUnit` would refuse it. */
function readSimpleUnit(tape, node, body) {
    if (tape.kind(node) !== 'object')
        return false;
    let value = -1;
    let state = -1;
    const stop = tape.after(node);
    for (let key = node + 1; key < stop; key = tape.after(key)) {
        if (tape.is(key, 'value'))
            value = key;
        else if (tape.is(key, 'state'))
            state = key;
    }
    if (value < 0 || tape.kind(value + 1) !== 'string')
        return false;
    body.value = value + 1;
    body.stateKey = state;
    return true;
}
/**
 * Reads a localization body that is one text or one plural, without substitutions, as `readBody` reads it, into
 * `body`; anything else, malformed bodies included, is OTHER_BODY, left to `readBody` and its messages.
 */
function readSimple(tape, holder, body) {
    body.kind = OTHER_BODY;
    if (tape.kind(holder) !== 'object')
        return OTHER_BODY;
    let unit = -1;
    let variations = -1;
    let members = 0;
    const stop = tape.after(holder);
    for (let key = holder + 1; key < stop; key = tape.after(key)) {
        members++;
        if (tape.is(key, 'stringUnit'))
            unit = key + 1;
        else if (tape.is(key, 'variations'))
            variations = key + 1;
        else if (tape.is(key, 'substitutions'))
            return OTHER_BODY;
    }
    body.members = members;
    if (variations < 0) {
        if (unit < 0 || !readSimpleUnit(tape, unit, body))
            return OTHER_BODY;
        body.at = body.value;
        return (body.kind = TEXT_BODY);
    }
    if (tape.kind(variations) !== 'object')
        return OTHER_BODY;
    let pluralKey = -1;
    let kinds = 0;
    for (let key = variations + 1; key < tape.after(variations); key = tape.after(key)) {
        kinds++;
        if (tape.is(key, 'plural'))
            pluralKey = key;
    }
    if (pluralKey < 0 || tape.kind(pluralKey + 1) !== 'object')
        return OTHER_BODY;
    const plural = pluralKey + 1;
    body.plural = plural;
    body.variations = kinds;
    const { forms, formStates } = body;
    forms.fill(-1);
    formStates.fill(-1);
    let first = -1;
    const end = tape.after(plural);
    for (let key = plural + 1; key < end; key = tape.after(key)) {
        const category = codec/* PLURAL_CATEGORIES */.M.indexOf(tape.string(key));
        if (category < 0 || tape.kind(key + 1) !== 'object')
            return OTHER_BODY;
        const unitKey = tape.member(key + 1, 'stringUnit');
        if (unitKey < 0 || !readSimpleUnit(tape, unitKey + 1, body))
            return OTHER_BODY;
        forms[category] = body.value;
        formStates[category] = body.stateKey;
        if (first < 0)
            first = body.value;
    }
    // `readBody` refuses a plural without forms.
    if (first < 0)
        return OTHER_BODY;
    body.at = forms[OTHER_FORM] >= 0 ? forms[OTHER_FORM] : first;
    return (body.kind = PLURAL_BODY);
}
/** Whether a simple body holds `value`, as `sameValue` tells of its entry. */
function holds(tape, body, value) {
    if (body.kind === TEXT_BODY)
        return typeof value === 'string' && tape.is(body.value, value);
    if (typeof value === 'string')
        return false;
    const { plurals } = value;
    const count = Object.keys(plurals).length;
    let present = 0;
    for (let category = 0; category < codec/* PLURAL_CATEGORIES */.M.length; category++) {
        const form = body.forms[category];
        if (form < 0)
            continue;
        present++;
        const wanted = plurals[codec/* PLURAL_CATEGORIES */.M[category]];
        if (typeof wanted !== 'string' || !tape.is(form, wanted))
            return false;
    }
    return present === count;
}

;// CONCATENATED MODULE: ./src/core/formats/ios-xcstrings-writer.ts
// The byte writer the ios_xcstrings render splices a catalog with: spans of the source copied as its bytes, new text encoded.
const ios_xcstrings_writer_UTF8_BOM = [0xef, 0xbb, 0xbf];
// Longer pieces of new text are encoded natively; a call to encodeInto costs more than encoding a short piece in a loop.
const LOOP_ENCODE = 256;
const ios_xcstrings_writer_ENCODER = new TextEncoder();
/** The letter JSON.stringify escapes a control character with (`\n`), or 0 where it writes `\u00XX`. */
const SHORT_ESCAPES = new Uint8Array(0x20);
for (const [c, letter] of [[0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0c, 'f'], [0x0d, 'r']])
    SHORT_ESCAPES[c] = letter.charCodeAt(0);
const HEX = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));
/** Writes `uXXXX` (lowercase, as JSON.stringify does) for the code unit `c` after a backslash, returning the end. */
function hexEscape(bytes, p, c) {
    bytes[p] = 0x75;
    bytes[p + 1] = HEX[c >> 12];
    bytes[p + 2] = HEX[(c >> 8) & 0xf];
    bytes[p + 3] = HEX[(c >> 4) & 0xf];
    bytes[p + 4] = HEX[c & 0xf];
    return p + 5;
}
/**
 * Writes a rewrite of a decoded UTF-8 file: where the text is kept, its bytes are copied from the file rather than
 * encoded again (decoding valid UTF-8 and encoding it back gives the same bytes), and new text is encoded as it comes,
 * so the rewrite holds no string of the whole.
 */
class CatalogWriter {
    source;
    text;
    bytes;
    size = 0;
    /** Where the text starts in `source` (past a BOM). */
    offset;
    /** Whether the text is ASCII, so that its indices are byte offsets from `offset`. */
    ascii;
    // For other text, the byte offset of one index, found by counting forward from the last.
    index = 0;
    byte;
    /** `text` is `source` decoded, without the BOM `source` starts with when `bom`; `capacity` is a guess at the size. */
    constructor(source, text, bom, capacity) {
        this.source = source;
        this.text = text;
        this.offset = bom ? ios_xcstrings_writer_UTF8_BOM.length : 0;
        this.ascii = source.length - this.offset === text.length;
        this.byte = this.offset;
        this.bytes = new Uint8Array(Math.max(capacity, 64));
        if (bom) {
            this.bytes.set(ios_xcstrings_writer_UTF8_BOM);
            this.size = ios_xcstrings_writer_UTF8_BOM.length;
        }
    }
    /** Copies `text[from, to)`, the next part of the text kept; each begins at or after where the last ended. */
    keep(from, to) {
        if (to <= from)
            return;
        const start = this.byteAt(from);
        if (start < 0) {
            this.write(this.text.slice(from, to));
            return;
        }
        this.copy(start, this.byteAt(to));
    }
    /** Copies `text[from, to)` again: a separator or colon of the file, written with new text. */
    repeat(from, to) {
        if (to <= from)
            return;
        if (this.ascii)
            this.copy(this.offset + from, this.offset + to);
        else
            this.write(this.text.slice(from, to));
    }
    copy(start, end) {
        const length = end - start;
        this.reserve(length);
        const { bytes, source } = this;
        if (length < 32) {
            for (let i = 0; i < length; i++)
                bytes[this.size + i] = source[start + i];
        }
        else {
            bytes.set(source.subarray(start, end), this.size);
        }
        this.size += length;
    }
    /** Writes bytes encoded before, such as text that recurs. */
    append(piece) {
        const length = piece.length;
        this.reserve(length);
        if (length < 16) {
            const { bytes } = this;
            for (let i = 0; i < length; i++)
                bytes[this.size + i] = piece[i];
        }
        else {
            this.bytes.set(piece, this.size);
        }
        this.size += length;
    }
    /** Writes `JSON.stringify(value)` for a string value, in UTF-8. */
    quoted(value) {
        const n = value.length;
        // An escape takes 6 bytes for one code unit, at most.
        this.reserve(n * 6 + 2);
        const bytes = this.bytes;
        let p = this.size;
        bytes[p++] = 0x22;
        for (let i = 0; i < n; i++) {
            let c = value.charCodeAt(i);
            if (c >= 0x20 && c < 0x80) {
                if (c === 0x22 || c === 0x5c)
                    bytes[p++] = 0x5c;
                bytes[p++] = c;
            }
            else if (c < 0x20) {
                const short = SHORT_ESCAPES[c];
                bytes[p++] = 0x5c;
                if (short !== 0) {
                    bytes[p++] = short;
                }
                else {
                    p = hexEscape(bytes, p, c);
                }
            }
            else if (c < 0x800) {
                bytes[p++] = 0xc0 | (c >> 6);
                bytes[p++] = 0x80 | (c & 0x3f);
            }
            else if (c < 0xd800 || c > 0xdfff) {
                bytes[p++] = 0xe0 | (c >> 12);
                bytes[p++] = 0x80 | ((c >> 6) & 0x3f);
                bytes[p++] = 0x80 | (c & 0x3f);
            }
            else {
                const low = value.charCodeAt(i + 1);
                if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
                    c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
                    i++;
                    bytes[p++] = 0xf0 | (c >> 18);
                    bytes[p++] = 0x80 | ((c >> 12) & 0x3f);
                    bytes[p++] = 0x80 | ((c >> 6) & 0x3f);
                    bytes[p++] = 0x80 | (c & 0x3f);
                }
                else {
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
    write(piece) {
        const n = piece.length;
        this.reserve(n * 3);
        let from = 0;
        if (n < LOOP_ENCODE) {
            // Most pieces are short and ASCII (separators, indentation, keys): copied in a loop, up to a first other unit.
            const bytes = this.bytes;
            let p = this.size;
            for (let c = piece.charCodeAt(from); from < n && c < 0x80; c = piece.charCodeAt(++from))
                bytes[p++] = c;
            this.size = p;
            if (from === n)
                return;
        }
        this.size += ios_xcstrings_writer_ENCODER.encodeInto(from === 0 ? piece : piece.slice(from), this.bytes.subarray(this.size)).written;
    }
    /** The bytes written. */
    finish() {
        return this.bytes.slice(0, this.size);
    }
    /** The offset in `source` of the text's index `at`, or -1 for an index before one already asked for in other text. */
    byteAt(at) {
        if (this.ascii)
            return this.offset + at;
        if (at < this.index)
            return -1;
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
    reserve(length) {
        if (this.bytes.length - this.size >= length)
            return;
        const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.size + length));
        grown.set(this.bytes.subarray(0, this.size));
        this.bytes = grown;
    }
}

;// CONCATENATED MODULE: ./src/core/formats/ios-xcstrings-render.ts
// The `ios_xcstrings` render: one pass over the catalog, splicing one-text and one-plural localizations straight into the output and handing the other strings to the general render (ios-xcstrings-merge.ts).





/** Plural categories in the order Xcode writes them. */
const WRITTEN_CATEGORIES = [...codec/* PLURAL_CATEGORIES */.M].sort(compareKeys);
const ios_xcstrings_render_ENCODER = new TextEncoder();
/** The text `serialize` writes around the values of a new localization body, for one indentation, as UTF-8. */
class BodyTemplate {
    /** A text body up to its value, and after it. */
    textOpen;
    textClose;
    /** A plural body up to its first form, and after its last. */
    pluralOpen;
    pluralClose;
    /** Per category of WRITTEN_CATEGORIES, its form up to its value, as the first form and as a later one. */
    firstForm;
    laterForm;
    /** A form after its value. */
    formClose;
    constructor(indent, style) {
        const { colon, eol } = style;
        const level = (depth) => indent + style.indent.repeat(depth);
        const open = (depth) => `{${eol}${level(depth + 1)}"stringUnit"${colon}{${eol}${level(depth + 2)}"state"${colon}"translated",${eol}${level(depth + 2)}"value"${colon}`;
        const close = (depth) => `${eol}${level(depth + 1)}}${eol}${level(depth)}}`;
        const forms = WRITTEN_CATEGORIES.map((category) => `${eol}${level(3)}"${category}"${colon}${open(3)}`);
        this.textOpen = ios_xcstrings_render_ENCODER.encode(open(0));
        this.textClose = ios_xcstrings_render_ENCODER.encode(close(0));
        this.pluralOpen = ios_xcstrings_render_ENCODER.encode(`{${eol}${level(1)}"variations"${colon}{${eol}${level(2)}"plural"${colon}{`);
        this.pluralClose = ios_xcstrings_render_ENCODER.encode(`${eol}${level(2)}}${eol}${level(1)}}${eol}${level(0)}}`);
        this.firstForm = forms.map((form) => ios_xcstrings_render_ENCODER.encode(form));
        this.laterForm = forms.map((form) => ios_xcstrings_render_ENCODER.encode(`,${form}`));
        this.formClose = ios_xcstrings_render_ENCODER.encode(close(3));
    }
}
/** Whether the key token `text[start, end)` is of lowercase ASCII letters only, quotes aside (so it has no escapes). */
function lowerAsciiToken(text, start, end) {
    for (let i = start + 1; i < end - 1; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x61 || c > 0x7a)
            return false;
    }
    return true;
}
/** `compareKeys` of the keys at two slots, compared in place when both are lowercase ASCII. */
function compareKeySlots(tape, a, b) {
    const { text } = tape;
    const aStart = tape.start(a);
    const aEnd = tape.end(a);
    const bStart = tape.start(b);
    const bEnd = tape.end(b);
    if (!lowerAsciiToken(text, aStart, aEnd) || !lowerAsciiToken(text, bStart, bEnd))
        return compareKeys(tape.string(a), tape.string(b));
    const length = Math.min(aEnd - aStart, bEnd - bStart) - 2;
    for (let i = 1; i <= length; i++) {
        const d = text.charCodeAt(aStart + i) - text.charCodeAt(bStart + i);
        if (d !== 0)
            return d < 0 ? -1 : 1;
    }
    const d = aEnd - aStart - (bEnd - bStart);
    return d < 0 ? -1 : d > 0 ? 1 : 0;
}
/** `compareKeys` of the key at a slot and `name`; `lower` tells whether `name` is lowercase ASCII. */
function compareKeySlot(tape, a, name, lower) {
    const { text } = tape;
    const start = tape.start(a);
    const end = tape.end(a);
    if (!lower || !lowerAsciiToken(text, start, end))
        return compareKeys(tape.string(a), name);
    const length = Math.min(end - start - 2, name.length);
    for (let i = 0; i < length; i++) {
        const d = text.charCodeAt(start + 1 + i) - name.charCodeAt(i);
        if (d !== 0)
            return d < 0 ? -1 : 1;
    }
    const d = end - start - 2 - name.length;
    return d < 0 ? -1 : d > 0 ? 1 : 0;
}
// What a catalog string's source localization is, besides `readSimple`'s kinds: none.
const NO_BODY = -1;
/**
 * One render, string by string in a single pass over the file and its tape: each string's source localization is read
 * (and checked) as `parse` reads it, and its target localization is written straight into the output where it
 * is one text or one plural being added, or having its units' values replaced, as the Merger would write them. Other
 * strings (devices, substitutions, removals, reshaped or malformed localizations) go through `Desired` and the Merger.
 */
class CatalogRender {
    input;
    catalog;
    tape;
    text;
    target;
    targetQuoted;
    targetLower;
    /** The languages as `normalLocale` writes them. */
    normalSource;
    normalTarget;
    isSource;
    keys;
    source = new SimpleBody();
    current = new SimpleBody();
    /** The string being written: its name, its source localization's key and the kind of that (a SimpleBody kind or NO_BODY). */
    name = '';
    localization = -1;
    kind = NO_BODY;
    /** The entries and body of an OTHER_BODY string's source localization, as `parse` reads them. */
    otherEntries = [];
    otherBody;
    out;
    /** The text up to here is written (or replaced). */
    at = 0;
    style;
    merger;
    templates = new Map();
    // The template of the indentation last asked for.
    lastIndent = '';
    lastTemplate;
    constructor(input, catalog) {
        this.input = input;
        this.catalog = catalog;
        this.tape = catalog.tape;
        this.text = catalog.tape.text;
        this.target = input.locale ?? catalog.sourceLanguage;
        this.targetQuoted = JSON.stringify(this.target);
        this.targetLower = isLowerAscii(this.target);
        this.normalSource = normalLocale(catalog.sourceLanguage);
        this.normalTarget = normalLocale(this.target);
        this.isSource = this.normalTarget === this.normalSource;
        this.keys = new EntryKeys(catalog);
    }
    run() {
        const count = this.catalog.keys.length;
        for (let index = 0; index < count; index++) {
            this.read(index);
            try {
                this.write(index);
            }
            catch (error) {
                // A malformed string further on is reported first, as when every string is read before any is written.
                for (let rest = index + 1; rest < count; rest++)
                    this.read(rest);
                throw error;
            }
        }
        const out = this.out;
        if (!out)
            return this.input.source.slice();
        out.keep(this.at, this.text.length);
        return out.finish();
    }
    /** Reads the source localization of the string `index`, refusing what `parse` refuses. */
    read(index) {
        const { tape, catalog } = this;
        const key = catalog.keys[index];
        const name = tape.string(key);
        const localization = localizationIn(tape, catalog.localizations[index], catalog.sourceLanguage, this.normalSource);
        this.name = name;
        this.localization = localization;
        this.kind = localization < 0 ? NO_BODY : readSimple(tape, localization + 1, this.source);
        if (this.kind === OTHER_BODY) {
            const body = readLocalization(tape, localization, key);
            const entries = bodyEntries(tape, name, body);
            // Xcode keeps `""` for empty string literals in code; with no localization there is nothing to translate.
            if (entries.length === 0 && name !== '')
                entries.push(keyEntry(catalogString(catalog, index)));
            this.keys.addAll(index, entries);
            this.otherEntries = entries;
            this.otherBody = body;
        }
        else if (this.kind !== NO_BODY) {
            this.keys.add(index, name, this.source.at);
        }
        else if (name !== '') {
            this.keys.add(index, name, key);
        }
    }
    /** Writes the target localization of the string `index` where it changes. */
    write(index) {
        const { tape, isSource, input, kind, name, catalog } = this;
        if (catalog.translatable[index] === 0 && !isSource)
            return;
        if (kind === OTHER_BODY || (kind === NO_BODY && name === ''))
            return this.merge(index);
        // One entry, keyed by the string's name.
        const localizations = catalog.localizations[index];
        const existing = isSource ? this.localization : localizationIn(tape, localizations, this.target, this.normalTarget);
        // A target localization `readSimple` leaves (malformed ones among them) goes to the Merger, even for a string without
        // a value: `currentEntries` reads it before anything else, and may throw.
        if (!isSource && existing >= 0 && readSimple(tape, existing + 1, this.current) === OTHER_BODY)
            return this.merge(index);
        const value = input.values.get(name);
        if (value === undefined) {
            if (input.missing === 'omit' && !isSource && existing >= 0)
                this.merge(index);
            return;
        }
        if (existing < 0) {
            // In the source language, the key stands in for the text of a string with no localization.
            if (isSource && value === name)
                return;
            const next = typeof value === 'string' ? value : value.plurals;
            if (localizations >= 0)
                this.insert(localizations, this.targetQuoted, this.target, this.targetLower, next, false);
            else
                this.insert(catalog.keys[index] + 1, '"localizations"', 'localizations', true, next, true);
            return;
        }
        const had = isSource ? this.source : this.current;
        if (holds(tape, had, value))
            return;
        // Units holding their state and value are rewritten in place, when the body holds nothing else and keeps its forms.
        if (had.kind === TEXT_BODY && typeof value === 'string' && had.members === 1 && had.stateKey >= 0)
            return this.replace(had.stateKey, had.value, value);
        if (had.kind === PLURAL_BODY && typeof value !== 'string' && had.members === 1 && had.variations === 1 && this.keepsForms(had, value.plurals)) {
            return this.replaceForms(had, value.plurals);
        }
        this.merge(index);
    }
    writer() {
        // Room for a target language as long as the source one, beside it.
        return (this.out ??= new CatalogWriter(this.input.source, this.text, this.tape.bom, this.input.source.length * 2));
    }
    /** The unit (its "state" key and value token) of a text whose value changes: state "translated", and the value. */
    replace(stateKey, node, value) {
        const { tape } = this;
        const out = this.writer();
        const state = stateKey + 1;
        const stateFirst = tape.start(state) < tape.start(node);
        const newState = !tape.is(state, 'translated');
        if (newState && stateFirst)
            this.splice(out, state, '"translated"');
        out.keep(this.at, tape.start(node));
        out.quoted(value);
        this.at = tape.end(node);
        if (newState && !stateFirst)
            this.splice(out, state, '"translated"');
    }
    /** Whether `forms` has the plural's categories, with text for each, and each form it changes has a state to change. */
    keepsForms(had, forms) {
        for (let category = 0; category < codec/* PLURAL_CATEGORIES */.M.length; category++) {
            const form = forms[codec/* PLURAL_CATEGORIES */.M[category]];
            const node = had.forms[category];
            if (node < 0 ? form !== undefined : typeof form !== 'string' || (had.formStates[category] < 0 && !this.tape.is(node, form)))
                return false;
        }
        return true;
    }
    /** The units of a plural's forms that change, as `replace` writes a text's; the others are kept, states included. */
    replaceForms(had, forms) {
        const { tape } = this;
        const { plural } = had;
        for (let key = plural + 1; key < tape.after(plural); key = tape.after(key)) {
            const category = codec/* PLURAL_CATEGORIES */.M.indexOf(tape.string(key));
            const node = had.forms[category];
            const form = forms[codec/* PLURAL_CATEGORIES */.M[category]];
            if (!tape.is(node, form))
                this.replace(had.formStates[category], node, form);
        }
    }
    splice(out, node, replacement) {
        out.keep(this.at, this.tape.start(node));
        out.write(replacement);
        this.at = this.tape.end(node);
    }
    /**
     * `Merger.mergeMember` adding the member `name` (`lower`: of lowercase ASCII) to the object `node`: the new
     * localization body of `value`, or (`wrap`) an object holding it under the target language.
     */
    insert(node, quoted, name, lower, value, wrap) {
        const { tape } = this;
        const out = this.writer();
        const stop = tape.after(node);
        const first = node + 1;
        if (first >= stop) {
            const style = this.fileStyle();
            const indent = ios_xcstrings_merge_lineIndent(this.text, tape.start(node));
            const inner = indent + style.indent;
            out.keep(this.at, tape.start(node));
            out.write(`{${style.eol}${inner}${quoted}${style.colon}`);
            this.value(out, value, inner, wrap);
            out.write(`${style.eol}${indent}}`);
            this.at = tape.end(node);
            return;
        }
        // Before the first member that sorts after it when the members are in Xcode's order, else last.
        let before = -1;
        let prior = -1;
        let last = first;
        for (let key = first; key < stop; key = tape.after(key)) {
            if (key !== first && compareKeySlots(tape, last, key) > 0) {
                before = -1;
                break;
            }
            if (before < 0 && compareKeySlot(tape, key, name, lower) > 0)
                [before, prior] = [key, last];
            last = key;
        }
        if (before < 0)
            for (let key = last; key < stop; key = tape.after(key))
                last = key;
        const second = tape.after(first) < stop ? tape.after(first) : -1;
        if (before < 0) {
            out.keep(this.at, tape.end(last + 1));
            this.separator(out, node, first, second);
            this.member(out, first, quoted, value, wrap);
            this.at = tape.end(last + 1);
        }
        else if (before === first) {
            out.keep(this.at, tape.start(first));
            this.member(out, first, quoted, value, wrap);
            this.separator(out, node, first, second);
            this.at = tape.start(first);
        }
        else {
            out.keep(this.at, tape.end(prior + 1));
            this.separator(out, node, first, second);
            this.member(out, first, quoted, value, wrap);
            this.separator(out, node, first, second);
            this.at = tape.start(before);
        }
    }
    /** The separator `Merger.mergeMember` puts between members: the file's after the first member, or the one before it. */
    separator(out, node, first, second) {
        const { tape } = this;
        if (second >= 0) {
            out.repeat(tape.end(first + 1), tape.start(second));
        }
        else {
            out.write(',');
            out.repeat(tape.start(node) + 1, tape.start(first));
        }
    }
    /** A new member as `Merger.mergeMember` writes it, beside the object's first member and in its style. */
    member(out, first, quoted, value, wrap) {
        const { tape } = this;
        out.write(quoted);
        out.repeat(tape.end(first), tape.start(first + 1));
        if (wrap)
            this.value(out, value, ios_xcstrings_merge_lineIndent(this.text, tape.start(first)), true);
        else
            this.body(out, value, this.templateAt(tape.start(first)));
    }
    /** `serialize` of a new localization body holding `value` (state "translated"), or of an object holding it (`wrap`). */
    value(out, value, indent, wrap) {
        if (!wrap)
            return this.body(out, value, this.template(indent));
        const style = this.fileStyle();
        const inner = indent + style.indent;
        out.write(`{${style.eol}${inner}${this.targetQuoted}${style.colon}`);
        this.body(out, value, this.template(inner));
        out.write(`${style.eol}${indent}}`);
    }
    body(out, value, template) {
        if (typeof value === 'string') {
            out.append(template.textOpen);
            out.quoted(value);
            out.append(template.textClose);
            return;
        }
        out.append(template.pluralOpen);
        let written = false;
        for (let k = 0; k < WRITTEN_CATEGORIES.length; k++) {
            const form = value[WRITTEN_CATEGORIES[k]];
            if (form === undefined)
                continue;
            out.append(written ? template.laterForm[k] : template.firstForm[k]);
            if (typeof form === 'string')
                out.quoted(form);
            else
                out.write(JSON.stringify(form));
            out.append(template.formClose);
            written = true;
        }
        if (!written)
            out.write(this.fileStyle().eol);
        out.append(template.pluralClose);
    }
    /** The template for the indentation of the line `at` is on (up to `at`), as `lineIndent` reads it. */
    templateAt(at) {
        const { text, lastIndent } = this;
        const start = ios_xcstrings_merge_lineStart(text, at);
        const end = indentEnd(text, start, at);
        if (this.lastTemplate && end - start === lastIndent.length && text.startsWith(lastIndent, start))
            return this.lastTemplate;
        return this.template(text.slice(start, end));
    }
    template(indent) {
        let template = this.templates.get(indent);
        if (!template)
            this.templates.set(indent, (template = new BodyTemplate(indent, this.fileStyle())));
        this.lastIndent = indent;
        this.lastTemplate = template;
        return template;
    }
    fileStyle() {
        return (this.style ??= detectStyle(this.tape));
    }
    /** Writes the string `index` through `Desired` and the Merger, with the entries `parse` finds for it. */
    merge(index) {
        const { tape } = this;
        const item = catalogString(this.catalog, index);
        let entries = this.otherEntries;
        let body = this.otherBody;
        if (this.kind === NO_BODY) {
            entries = item.name === '' ? [] : [keyEntry(item)];
            body = undefined;
        }
        else if (this.kind !== OTHER_BODY) {
            body = readLocalization(tape, this.localization, item.key);
            entries = bodyEntries(tape, item.name, body);
        }
        const desired = desiredString(tape, this.input, this.target, this.isSource, item, entries, body);
        if (desired === undefined)
            return;
        this.merger ??= new Merger(tape, this.fileStyle());
        const merged = this.merger.merge(item.node, desired, '');
        if (merged === undefined)
            return;
        const out = this.writer();
        out.keep(this.at, tape.start(item.node));
        out.write(merged);
        this.at = tape.end(item.node);
    }
}
/**
 * Writes the target language's localization of every catalog string that has a value: each source entry's slot gets
 * its value (state "translated"), else the language's existing text for that slot, else the source text marked
 * "needs_review", because one variation or substitution cannot be left out while its siblings are translated.
 * Strings with no value keep what the file has (missing 'source'), or lose this language's localization (missing 'omit';
 * never the source language's). `shouldTranslate: false` strings get no target localization.
 */
function ios_xcstrings_render_render(input) {
    return new CatalogRender(input, scanCatalog(input.source)).run();
}

;// CONCATENATED MODULE: ./src/core/formats/ios-xcstrings.ts
// The `ios_xcstrings` codec: Xcode String Catalogs, read from the source language and rendered by writing one language's localizations in place.






const iosXcstringsCodec = {
    id: 'ios_xcstrings',
    extensions: ['.xcstrings'],
    plurals: true,
    detect(fileName, head) {
        const catalogLike = /"sourceLanguage"\s*:/.test(head) && /"strings"\s*:/.test(head);
        if (/\.xcstrings$/i.test(fileName))
            return head.replace(/^\uFEFF/, '').trimStart().startsWith('{') ? 1 : 0.6;
        return catalogLike ? 0.7 : 0;
    },
    parse(bytes) {
        return readSourceEntries(bytes);
    },
    render: ios_xcstrings_render_render,
    renderFresh(entries, options) {
        const locale = options?.locale ?? 'en';
        // A repeated key keeps its first position and its last value and notes.
        const byKey = new Map();
        for (const entry of entries)
            byKey.set(entry.key, entry);
        const strings = [...byKey.values()].map((entry) => {
            const value = typeof entry.value === 'string' ? entry.value : entry.value.plurals;
            const members = [];
            if (entry.notes)
                members.push(['comment', { kind: 'string', value: entry.notes }]);
            members.push(['extractionState', { kind: 'string', value: 'manual' }]);
            members.push(['localizations', { kind: 'object', members: [[locale, { kind: 'object', members: partFor(value, translatedStates(value), 'translated') }]] }]);
            return [entry.key, { kind: 'object', members }];
        });
        const root = {
            kind: 'object',
            ordered: true,
            members: [
                ['sourceLanguage', { kind: 'string', value: locale }],
                ['strings', { kind: 'object', ordered: true, members: strings }],
                ['version', { kind: 'string', value: '1.0' }],
            ],
        };
        return encodeUtf8(`${serialize(root, '', XCODE_STYLE)}\n`, false);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/laravel-json.ts




/*
 * Laravel looks JSON translations up by the whole source string (`__('Log in')`), so keys are usually sentences and
 * dots in them are not paths. Laravel's own plural syntax (`{0} none|{1} one|[2,*] many`, read by trans_choice) and
 * `:placeholder`s are plain text to this codec: they are translated as written, not split into plural forms.
 */
/** Refuses nested strings with Laravel's wording, before the json codec's checks would point at json_nested. */
function checkFlat(scan) {
    const nested = scan.nested;
    if (!nested)
        return;
    const { name, kind, line, column } = nested;
    throw new file_unparsable_error/* FileUnparsableError */.w(`The key ${JSON.stringify(name)} holds ${kind === 'object' ? 'a nested object' : 'an array'} with strings at line ${line}, column ${column}; ` +
        "Laravel's JSON translation files map each string to its translation, with string values only", line, column);
}
// Laravel reads lang/<locale>.json (resources/lang/ before Laravel 9); a bare <locale>.json could be any JSON file.
const LARAVEL_PATH = /(?:^|[/\\])lang[/\\][^/\\]+\.json$/i;
const laravelJsonCodec = {
    id: 'laravel_json',
    extensions: ['.json'],
    plurals: false,
    detect(fileName, head) {
        if (!/\.json$/i.test(fileName))
            return 0;
        const trimmed = head.replace(/^\uFEFF/, '').trimStart();
        if (trimmed !== '' && !trimmed.startsWith('{'))
            return 0;
        if (LARAVEL_PATH.test(fileName))
            return 0.8;
        // Sentences and :placeholders as keys hint at Laravel, but flat JSON is the likelier reading.
        return /^\{\s*"[^"]*(?:\s|:[a-z])[^"]*"\s*:/i.test(trimmed) ? 0.2 : 0.1;
    },
    parse(bytes) {
        const scan = scanKeyedEntries(bytes);
        checkFlat(scan);
        checkKeys(scan);
        return scan.entries;
    },
    render(input) {
        const scan = scanKeyedTokens(input.source);
        checkFlat(scan);
        for (const value of input.values.values())
            textValue(value, 'laravel_json');
        checkTokenKeys(scan, input.source);
        return renderTokens(scan, input);
    },
    renderFresh(entries) {
        return jsonCodec.renderFresh(entries.map((entry) => ({ ...entry, value: textValue(entry.value, 'laravel_json') })));
    },
};

// EXTERNAL MODULE: ./node_modules/php-parser/src/index.js
var src = __webpack_require__(8341);
;// CONCATENATED MODULE: ./src/core/formats/trim.ts
/*
 * Trimming a set of characters from the ends of a string in one pass. A regex such as /[ \t\r\n]+$/ is quadratic on a
 * long run of those characters that is not at the end (the engine retries the run from each of its positions), which
 * made a 460 KB run of spaces inside an Android <string> take 46 s to parse.
 */
const XML_SPACE = ' \t\r\n';
/** `text` without the characters of `chars` at its end. */
function trimEndOf(text, chars) {
    let end = text.length;
    while (end > 0 && chars.includes(text[end - 1]))
        end--;
    return end === text.length ? text : text.slice(0, end);
}
/** `text` without the characters of `chars` at either end. */
function trimOf(text, chars) {
    let start = 0;
    while (start < text.length && chars.includes(text[start]))
        start++;
    return trimEndOf(text.slice(start), chars);
}
/** `text` without XML white space (space, tab, CR, LF) at its end. */
const trimXmlSpaceEnd = (text) => trimEndOf(text, XML_SPACE);

;// CONCATENATED MODULE: ./src/core/formats/laravel-php.ts
// The `laravel_php` codec: string literals of a Laravel `lang/<locale>/*.php` array, spliced back into the untouched PHP.







const laravel_php_MAX_DEPTH = 512;
function laravel_php_fail(lines, message, index) {
    const { line, column } = lines.at(index);
    throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
}
const engine = new src.Engine({
    parser: { extractDoc: true, php8: true, suppressErrors: false },
    ast: { withPositions: true, withSource: true },
    lexer: { short_tags: false },
});
const lexer = engine.lexer;
Object.defineProperty(lexer, 'yytext', {
    get() {
        if (this.heldText !== undefined)
            return this.heldText;
        return this._input === undefined ? '' : this._input.slice(this.yylloc.first_offset, this.offset);
    },
    set(text) {
        if (this.heldText !== undefined)
            this.heldText = text;
    },
});
const unput = lexer.unput;
lexer.unput = function (size) {
    this.heldText = this._input === undefined ? '' : this._input.slice(this.yylloc.first_offset, this.offset);
    try {
        return unput.call(this, size);
    }
    finally {
        this.heldText = undefined;
    }
};
const laravel_php_SIMPLE_ESCAPES = { n: 10, t: 9, r: 13, v: 11, e: 27, f: 12, '\\': 92, $: 36, '"': 34 };
/** Decodes a string literal's source as PHP does, byte by byte; undefined when the bytes are not UTF-8 text. */
function decodeLiteral(raw) {
    const body = raw.replace(/^[bB]/, '');
    const quote = body[0];
    const inner = body.slice(1, -1);
    if (quote === "'")
        return inner.replace(/\\([\\'])/g, '$1');
    const bytes = [];
    const encoder = new TextEncoder();
    // A loop, not push(...spread): a spread of a long literal's bytes overflows the call stack.
    const push = (s) => {
        for (const byte of encoder.encode(s))
            bytes.push(byte);
    };
    let i = 0;
    while (i < inner.length) {
        const backslash = inner.indexOf('\\', i);
        if (backslash < 0) {
            push(inner.slice(i));
            break;
        }
        push(inner.slice(i, backslash));
        const rest = inner.slice(backslash + 1);
        const simple = laravel_php_SIMPLE_ESCAPES[rest[0] ?? ''];
        let match;
        if (simple !== undefined) {
            bytes.push(simple);
            i = backslash + 2;
        }
        else if ((match = /^[0-7]{1,3}/.exec(rest))) {
            bytes.push(parseInt(match[0], 8) & 0xff);
            i = backslash + 1 + match[0].length;
        }
        else if ((match = /^x([0-9a-fA-F]{1,2})/.exec(rest))) {
            bytes.push(parseInt(match[1], 16));
            i = backslash + 1 + match[0].length;
        }
        else if ((match = /^u\{([0-9a-fA-F]+)\}/.exec(rest))) {
            const code = parseInt(match[1], 16);
            if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
                return undefined;
            push(String.fromCodePoint(code));
            i = backslash + 1 + match[0].length;
        }
        else {
            // PHP keeps an unknown escape as written, backslash included.
            bytes.push(92);
            i = backslash + 1;
        }
    }
    try {
        return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(new Uint8Array(bytes));
    }
    catch {
        return undefined;
    }
}
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
function int64(n) {
    return n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}
/** A key as PHP stores it: an integer (bigint, as PHP's are 64-bit) or a string; undefined when only running PHP could tell. */
function keyValue(node) {
    switch (node.kind) {
        case 'string': {
            const value = decodeLiteral(String(node.raw));
            if (value === undefined)
                return undefined;
            // PHP turns decimal integer strings into integer keys ('5' is 5; '05' and '-0' stay strings).
            return /^(?:0|-?[1-9][0-9]*)$/.test(value) ? (int64(BigInt(value)) ?? value) : value;
        }
        case 'number': {
            const source = String(node.value).replaceAll('_', '');
            if (/^0[xX][0-9a-fA-F]+$|^0[bB][01]+$|^0[oO][0-7]+$/.test(source))
                return int64(BigInt(source.toLowerCase()));
            if (/^0[0-7]+$/.test(source))
                return int64(BigInt(`0o${source.slice(1)}`));
            if (/^[0-9]+$/.test(source))
                return int64(BigInt(source));
            // A float key is truncated to an integer (PHP warns, but does it).
            const n = Number(source);
            return Number.isFinite(n) ? int64(BigInt(Math.trunc(n))) : undefined;
        }
        case 'boolean':
            return node.value ? 1n : 0n;
        case 'nullkeyword':
            return '';
        default:
            return undefined;
    }
}
function laravel_php_commentText(raw) {
    if (raw.startsWith('//') || raw.startsWith('#'))
        return raw.replace(/^(?:\/\/|#) ?/, '').trimEnd();
    const lines = raw
        .replace(/^\/\*\*?/, '')
        .replace(/\*\/$/, '')
        .split(/\r?\n|\r/)
        .map((l, i) => (i === 0 ? l.replace(/^ /, '') : l.replace(/^[ \t]*\*? ?/, '')).trimEnd());
    return trimOf(lines.join('\n'), '\n');
}
/** Index of the first comment starting at or after `index` (comments are sorted and never overlap). */
function firstCommentFrom(comments, index) {
    let lo = 0;
    let hi = comments.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (comments[mid].start < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
/** Own-line comments directly above `start` (no blank line between), and one comment after `end` on the item's line. */
function notesAround(text, lines, comments, start, end) {
    const notes = [];
    let lead = start;
    for (let i = firstCommentFrom(comments, start) - 1; i >= 0; i--) {
        const c = comments[i];
        const ownLine = text.slice(lines.lineStartOf(c.start), c.start).trim() === '';
        if (c.end > lead || !ownLine || !/^[ \t]*(?:\r?\n|\r)[ \t]*$/.test(text.slice(c.end, lead)))
            break;
        notes.unshift(c.text);
        lead = c.start;
    }
    const trailing = comments[firstCommentFrom(comments, end)];
    if (trailing && /^[ \t]*,?[ \t]*$/.test(text.slice(end, trailing.start)))
        notes.push(trailing.text);
    const joined = trimOf(notes.join('\n'), '\n');
    return joined === '' ? { lead } : { lead, notes: joined };
}
function parseProgram(text, lines) {
    try {
        return engine.parseCode(text, 'lang.php');
    }
    catch (error) {
        const e = error;
        if (typeof e.lineNumber !== 'number') {
            if (error instanceof RangeError)
                laravel_php_fail(lines, `Expected at most ${laravel_php_MAX_DEPTH} levels of nesting`, 0);
            // The lexer throws plain Errors that give only an offset (one past the character), e.g. on a NUL byte in code.
            const lexed = /^(?:Bad terminal sequence "([^]*)"|([^]*?)) at line \d+ \(offset (\d+)\)$/.exec(String(e.message));
            if (lexed) {
                const message = lexed[1] !== undefined ? `Unexpected character ${JSON.stringify(lexed[1])}` : lexed[2].replace(/^Parse error:\s+/, '');
                laravel_php_fail(lines, message, Math.min(text.length, Math.max(0, Number(lexed[3]) - 1)));
            }
            if (error instanceof Error)
                laravel_php_fail(lines, `Unexpected input (${error.message})`, 0);
            throw error;
        }
        const message = String(e.message)
            .replace(/^Parse Error : s/, 'S')
            .replace(/ on line \d+$/, '');
        const lineStartIndex = lines.starts[Math.max(0, e.lineNumber - 1)] ?? text.length;
        laravel_php_fail(lines, message, Math.min(text.length, lineStartIndex + (e.columnNumber ?? 0)));
    }
}
function analyse(bytes) {
    const { text, bom } = decodeUtf8(bytes);
    const lines = new LineIndex(text);
    const program = parseProgram(text, lines);
    const statements = program.children ?? [];
    // Text before `<?php` would be printed by `require`; blank lines there are harmless.
    const inline = statements[0]?.kind === 'inline' ? statements[0] : undefined;
    if (inline && text.slice(0, inline.loc.end.offset).trim() !== '')
        laravel_php_fail(lines, "Expected the file to start with '<?php'", 0);
    const ret = statements.find((s) => s.kind === 'return');
    if (!ret)
        laravel_php_fail(lines, 'Expected the file to return an array (return [...];)', text.length);
    if (ret.expr?.kind !== 'array')
        laravel_php_fail(lines, 'Expected the file to return an array literal (return [...];)', (ret.expr ?? ret).loc.start.offset);
    const comments = (program.comments ?? []).map((c) => {
        const raw = String(c.value).replace(/(?:\r?\n|\r)$/, '');
        return { start: c.loc.start.offset, end: c.loc.start.offset + raw.length, text: laravel_php_commentText(raw) };
    });
    const strings = [];
    const byKey = new Map();
    const walkArray = (node, path, depth) => {
        if (depth > laravel_php_MAX_DEPTH)
            laravel_php_fail(lines, `Expected at most ${laravel_php_MAX_DEPTH} levels of nesting`, node.loc.start.offset);
        const entries = node.items ?? [];
        // PHP's keys: an explicit key, or the next integer after the largest so far; unknowable after a computed key.
        let next = 0n;
        let known = true;
        const keys = entries.map((entry) => {
            if (entry.kind !== 'entry' || entry.unpack) {
                known = false;
                return undefined;
            }
            let key;
            if (entry.key)
                key = keyValue(entry.key);
            else
                key = known ? next : undefined;
            if (key === undefined)
                known = false;
            else if (typeof key === 'bigint' && key >= next)
                next = key + 1n;
            return key;
        });
        // A key given again later is dead: PHP keeps the last one.
        const lastIndexOf = new Map();
        const slot = (key) => (typeof key === 'bigint' ? `i${key}` : `s${key}`);
        keys.forEach((key, i) => key !== undefined && lastIndexOf.set(slot(key), i));
        const items = entries.map((entry, i) => {
            const start = entry.loc.start.offset;
            const end = entry.loc.end.offset;
            const key = keys[i];
            const keyless = entry.kind === 'entry' && !entry.key && !entry.unpack;
            const { lead, notes } = notesAround(text, lines, comments, start, end);
            const item = { start, end, lead, intKey: key === undefined || typeof key === 'bigint', keyless };
            const last = key === undefined ? i : lastIndexOf.get(slot(key));
            if (last !== i)
                return { ...item, shadowedBy: last, tree: { kind: 'fixed' } };
            if (key === undefined || entry.byRef)
                return { ...item, tree: { kind: 'fixed' } };
            const value = entry.value;
            const childPath = [...path, String(key)];
            if (value?.kind === 'array')
                return { ...item, tree: walkArray(value, childPath, depth + 1) };
            const decoded = value?.kind === 'string' ? decodeLiteral(String(value.raw)) : undefined;
            if (!value || decoded === undefined || text.slice(value.loc.start.offset, value.loc.end.offset) !== value.raw) {
                return { ...item, tree: { kind: 'fixed' } };
            }
            const fullKey = childPath.join('.');
            const { line, column } = lines.at(value.loc.start.offset);
            const found = { key: fullKey, path: childPath, node: value, value: decoded, line, column };
            if (notes !== undefined)
                found.notes = notes;
            const prior = byKey.get(fullKey);
            if (prior) {
                laravel_php_fail(lines, `The paths ${JSON.stringify(prior.path)} (line ${prior.line}) and ${JSON.stringify(childPath)} both give the key ${JSON.stringify(fullKey)}; rename one of them`, value.loc.start.offset);
            }
            byKey.set(fullKey, found);
            strings.push(found);
            return { ...item, tree: { kind: 'string', string: found } };
        });
        return { kind: 'array', node, items };
    };
    const root = walkArray(ret.expr, [], 0);
    return { text, bom, lines, root, strings };
}
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
// Other control characters are written as \xHH rather than \e \v \f, which older PHP readers (phply) do not know.
const DOUBLE_ESCAPES = {
    '\\': '\\\\',
    '"': '\\"',
    $: '\\$',
    '\n': '\\n',
    '\t': '\\t',
    '\r': '\\r',
};
function doubleQuoted(value) {
    // eslint-disable-next-line no-control-regex
    const body = value.replace(/[\\"$\u0000-\u001f\u007f]/g, (ch) => DOUBLE_ESCAPES[ch] ?? `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
    return `"${body}"`;
}
function singleQuoted(value) {
    return `'${value.replace(/[\\']/g, '\\$&')}'`;
}
/** The literal for a changed value, in the source literal's quotes (and `b` prefix) where they can carry it. */
function writeLiteral(value, raw) {
    const prefix = /^[bB]/.test(raw) ? raw[0] : '';
    const single = raw[prefix.length] === "'";
    return prefix + (single && !CONTROL.test(value) ? singleQuoted(value) : doubleQuoted(value));
}
/** Whether an item sits on lines of its own: only indentation before its notes, only `,` and a comment after it. */
function ownsLines(text, item) {
    if (text.slice(lineStart(text, item.lead), item.lead).trim() !== '')
        return false;
    const rest = text.slice(item.end, afterLineEnd(text, item.end)).replace(/(?:\r?\n|\r)$/, '');
    return /^[ \t]*,?[ \t]*(?:(?:\/\/|#(?!\[)).*|\/\*(?:(?!\*\/).)*\*\/[ \t]*)?$/.test(rest) && !rest.includes('?>');
}
/** Renders a tree to edits, or null when everything in it is omitted (the caller removes it). */
function renderTree(tree, text, input) {
    if (tree.kind === 'fixed')
        return [];
    if (tree.kind === 'string') {
        const s = tree.string;
        const translated = input.values.get(s.key);
        if (translated === undefined)
            return input.missing === 'omit' ? null : [];
        const value = textValue(translated, 'laravel_php');
        if (value === s.value)
            return [];
        return [{ start: s.node.loc.start.offset, end: s.node.loc.end.offset, text: writeLiteral(value, String(s.node.raw)) }];
    }
    const { items } = tree;
    if (items.length === 0)
        return [];
    const results = items.map((item) => renderTree(item.tree, text, input));
    // A shadowed item goes with the item that shadows it, or removing that one would bring it back to life.
    items.forEach((item, i) => {
        if (item.shadowedBy !== undefined && results[item.shadowedBy] === null)
            results[i] = null;
    });
    if (results.every((r) => r === null))
        return null;
    const edits = results.flatMap((r) => r ?? []);
    // Present: kept, or omitted but not removable because a later kept keyless item would be renumbered.
    const present = results.map((r) => r !== null);
    let keylessKeptLater = false;
    for (let i = items.length - 1; i >= 0; i--) {
        if (!present[i] && items[i].intKey && keylessKeptLater)
            present[i] = true;
        if (present[i] && items[i].keyless)
            keylessKeptLater = true;
    }
    if (present.every(Boolean))
        return edits;
    if (items.every((item) => ownsLines(text, item))) {
        items.forEach((item, i) => {
            if (!present[i])
                edits.push({ start: lineStart(text, item.lead), end: afterLineEnd(text, item.end), text: '' });
        });
        return edits;
    }
    // Items sharing lines: each removed item takes the separator after it; trailing ones the separator before them.
    const lastPresent = present.lastIndexOf(true);
    items.forEach((item, i) => {
        if (!present[i] && i < lastPresent)
            edits.push({ start: item.start, end: items[i + 1].start, text: '' });
    });
    if (lastPresent < items.length - 1)
        edits.push({ start: items[lastPresent].end, end: items[items.length - 1].end, text: '' });
    return edits;
}
function applyEdits(text, edits) {
    const sorted = [...edits].sort((a, b) => a.start - b.start);
    let out = '';
    let at = 0;
    for (const edit of sorted) {
        if (edit.start < at)
            throw new Error('laravel_php codec: overlapping edits');
        out += text.slice(at, edit.start) + edit.text;
        at = edit.end;
    }
    return out + text.slice(at);
}
function laravel_php_render(input) {
    const model = analyse(input.source);
    const { text, root } = model;
    let edits = renderTree(root, text, input);
    if (edits === null) {
        edits = [{ start: root.node.loc.start.offset, end: root.node.loc.end.offset, text: root.node.shortForm ? '[]' : 'array()' }];
    }
    if (edits.length === 0)
        return input.source.slice();
    return encodeUtf8(applyEdits(text, edits), model.bom);
}
/** PHP reads integer-like string keys back as integers: a fresh key must read back as the same text. */
function keyLiteral(key) {
    return CONTROL.test(key) ? doubleQuoted(key) : singleQuoted(key);
}
function writeLevel(level, notes, prefix, indent) {
    let out = '';
    for (const [name, member] of level) {
        const path = [...prefix, name];
        const note = typeof member === 'string' ? notes.get(path.join('.')) : undefined;
        // `?>` ends PHP mode even inside a `//` comment.
        if (note !== undefined)
            for (const line of note.split(/\r?\n|\r/))
                out += `${indent}//${line === '' ? '' : ` ${line.replaceAll('?>', '? >')}`}\n`;
        if (typeof member === 'string')
            out += `${indent}${keyLiteral(name)} => ${CONTROL.test(member) ? doubleQuoted(member) : singleQuoted(member)},\n`;
        else
            out += `${indent}${keyLiteral(name)} => [\n${writeLevel(member, notes, path, `${indent}    `)}${indent}],\n`;
    }
    return out;
}
function laravel_php_renderFresh(entries) {
    // A repeated key keeps its first position and its last value, as Map.set does.
    const values = new Map();
    const notes = new Map();
    for (const entry of entries) {
        values.set(entry.key, textValue(entry.value, 'laravel_php'));
        if (entry.notes)
            notes.set(entry.key, entry.notes);
        else
            notes.delete(entry.key);
    }
    const root = new Map();
    for (const [key, value] of values)
        insertKey(root, key.split('.'), value);
    const body = root.size === 0 ? '[]' : `[\n${writeLevel(root, notes, [], '    ')}]`;
    return encodeUtf8(`<?php\n\nreturn ${body};\n`, false);
}
function detect(fileName, head) {
    if (!/\.php$/i.test(fileName))
        return 0;
    const returnsArray = /<\?php[^]*?\breturn\s*(?:\[|array\s*\()/i.test(head);
    if (/(?:^|[/\\])lang[/\\][A-Za-z]{2,3}(?:[-_][A-Za-z0-9]+)*[/\\][^/\\]+\.php$/i.test(fileName))
        return returnsArray ? 0.95 : 0.7;
    return returnsArray ? 0.8 : 0.3;
}
const laravelPhpCodec = {
    id: 'laravel_php',
    extensions: ['.php'],
    plurals: false,
    detect,
    parse(bytes) {
        return analyse(bytes).strings.map((s) => {
            const entry = { key: s.key, path: s.path, source: s.value, line: s.line, column: s.column };
            if (s.notes !== undefined)
                entry.notes = s.notes;
            return entry;
        });
    },
    render: laravel_php_render,
    renderFresh: laravel_php_renderFresh,
};

// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(8815);
;// CONCATENATED MODULE: ./src/core/formats/markdown-blocks.ts
// The block structure of a Markdown document (CommonMark 0.31 with GFM tables, task lists and footnotes), in one pass over its lines.
//
// Like micromark, each line first continues or opens containers (block quotes, list items, footnote definitions), and
// its rest then continues or starts a leaf (paragraph, heading, table, code, HTML block, …). Only what the markdown
// codec translates is kept in detail: code, HTML blocks, link reference definitions and thematic breaks are opaque.
// Every step looks at each character a bounded number of times, so parsing is linear in the document's length.
function parseMarkdownBlocks(text) {
    return new BlockParser(text).parse();
}
/** A label as CommonMark compares them: whitespace runs as one space, trimmed, case-folded. */
function normalizeLabel(label) {
    return label
        .replace(/[\t\n\r ]+/g, ' ')
        .replace(/^ | $/g, '')
        .toLowerCase()
        .toUpperCase();
}
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const HASH = 0x23;
const PLUS = 0x2b;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const COLON = 0x3a;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const CARET = 0x5e;
const UNDERSCORE = 0x5f;
const BACKTICK = 0x60;
const PIPE = 0x7c;
const TILDE = 0x7e;
const STAR = 0x2a;
const LPAREN = 0x28;
const RPAREN = 0x29;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const markdown_blocks_isSpace = (c) => c === SPACE || c === TAB;
const isDigit = (c) => c >= ZERO && c <= NINE;
const isAsciiAlpha = (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAsciiAlphanumeric = (c) => isDigit(c) || isAsciiAlpha(c);
/** ASCII controls, tabs and line endings included, as destinations refuse them. */
const isControl = (c) => c < SPACE || c === 0x7f;
/** Labels of link reference definitions and footnotes hold at most this many characters. */
const LABEL_MAX = 999;
// HTML block start conditions 1 and 6 (CommonMark §4.6), as micromark lists them.
const HTML_RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);
const HTML_BLOCK_NAMES = new Set([
    'address', 'article', 'aside', 'base', 'basefont', 'blockquote', 'body', 'caption', 'center', 'col', 'colgroup', 'dd',
    'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frame', 'frameset',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hr', 'html', 'iframe', 'legend', 'li', 'link', 'main', 'menu',
    'menuitem', 'nav', 'noframes', 'ol', 'optgroup', 'option', 'p', 'param', 'search', 'section', 'summary', 'table', 'tbody',
    'td', 'tfoot', 'th', 'thead', 'title', 'tr', 'track', 'ul',
]);
/** The next match at or after an offset; queries moving forward reuse one search, so searching from every line stays linear. */
class ForwardSearch {
    find;
    from = 0;
    at = -2;
    constructor(find) {
        this.find = find;
    }
    next(from) {
        if (this.at === -2 || from < this.from || (this.at >= 0 && this.at < from)) {
            this.from = from;
            this.at = this.find(from);
        }
        return this.at;
    }
}
class BlockParser {
    text;
    root = [];
    stack = [];
    /** Stack indices of the block quotes, ascending: blank lines end at the first of them. */
    quotes = [];
    leaf;
    definitions = new Set();
    footnotes = new Set();
    searches = new Map();
    /** Where a thematic break of `marker` may start on the current line: from `from` to `to`. */
    breaks = { line: -1, marker: -1, from: 0, to: -1 };
    // The current line and the cursor in it. `col` counts columns with tabs to multiples of four; a tab can be partly
    // consumed (a container's optional space), in which case `i` still points at it.
    lineNumber = -1;
    lineStart = 0;
    lineEnd = 0;
    /** End of the line without its trailing spaces and tabs. */
    lineContentEnd = 0;
    i = 0;
    col = 0;
    constructor(text) {
        this.text = text;
    }
    parse() {
        const text = this.text;
        const frontMatter = this.frontMatter();
        let start = frontMatter ? this.nextLine(frontMatter.closeStart) : 0;
        while (start < text.length) {
            this.lineNumber++;
            let end = start;
            while (end < text.length) {
                const c = text.charCodeAt(end);
                if (c === LF || c === CR)
                    break;
                end++;
            }
            this.lineStart = start;
            this.lineEnd = end;
            let contentEnd = end;
            while (contentEnd > start && markdown_blocks_isSpace(text.charCodeAt(contentEnd - 1)))
                contentEnd--;
            this.lineContentEnd = contentEnd;
            this.line();
            start = this.nextLine(end);
        }
        this.closeLeaf();
        this.closeContainers(0);
        return { frontMatter, blocks: this.root, definitions: this.definitions, footnotes: this.footnotes };
    }
    /** Start of the line after the one holding `offset`. */
    nextLine(offset) {
        const text = this.text;
        let i = offset;
        while (i < text.length && text.charCodeAt(i) !== LF && text.charCodeAt(i) !== CR)
            i++;
        return text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
    }
    /** YAML (`---`) or TOML (`+++`) front matter: the fence alone on the first line, up to the same fence alone on a line. */
    frontMatter() {
        const text = this.text;
        const fence = text.slice(0, 3);
        if (fence !== '---' && fence !== '+++')
            return undefined;
        let i = 3;
        while (markdown_blocks_isSpace(text.charCodeAt(i)))
            i++;
        const c = text.charCodeAt(i);
        if (c !== LF && c !== CR)
            return undefined;
        const contentStart = this.nextLine(i);
        for (let start = contentStart; start < text.length; start = this.nextLine(start)) {
            if (!text.startsWith(fence, start))
                continue;
            let j = start + 3;
            while (markdown_blocks_isSpace(text.charCodeAt(j)))
                j++;
            if (j === text.length || text.charCodeAt(j) === LF || text.charCodeAt(j) === CR) {
                return { kind: fence === '---' ? 'yaml' : 'toml', contentStart, closeStart: start };
            }
        }
        return undefined;
    }
    // ——— Cursor ———
    code(i = this.i) {
        return i < this.lineEnd ? this.text.charCodeAt(i) : -1;
    }
    /** Consumes one column of whitespace: a space, or a column of a tab. */
    advance() {
        if (this.text.charCodeAt(this.i) === TAB) {
            this.col++;
            if (this.col % 4 === 0)
                this.i++;
        }
        else {
            this.col++;
            this.i++;
        }
    }
    /** Consumes up to `max` columns of whitespace; returns how many. */
    skipColumns(max) {
        let n = 0;
        while (n < max && markdown_blocks_isSpace(this.code())) {
            this.advance();
            n++;
        }
        return n;
    }
    skipSpace() {
        while (markdown_blocks_isSpace(this.code())) {
            this.col = this.text.charCodeAt(this.i) === TAB ? this.col + 4 - (this.col % 4) : this.col + 1;
            this.i++;
        }
    }
    /** Columns of whitespace at the cursor. */
    indent() {
        let i = this.i;
        let col = this.col;
        while (markdown_blocks_isSpace(this.code(i))) {
            col = this.text.charCodeAt(i) === TAB ? col + 4 - (col % 4) : col + 1;
            i++;
        }
        return col - this.col;
    }
    restBlank(i = this.i) {
        return i >= this.lineContentEnd;
    }
    save() {
        return [this.i, this.col];
    }
    restore([i, col]) {
        this.i = i;
        this.col = col;
    }
    // ——— Lines ———
    line() {
        this.i = this.lineStart;
        this.col = 0;
        const stack = this.stack;
        let matched = 0;
        let itemReplaced = false;
        while (matched < stack.length) {
            const container = stack[matched];
            if (this.restBlank()) {
                // A blank rest continues list items and footnotes, and ends at the first block quote.
                matched = this.quoteFrom(matched);
                const top = stack[stack.length - 1];
                if (top.kind === 'item' && matched === stack.length)
                    top.furtherBlank ||= top.initialBlank;
                break;
            }
            if (container.kind === 'quote') {
                if (!this.quoteContinues())
                    break;
            }
            else if (container.kind === 'footnote') {
                const saved = this.save();
                if (this.skipColumns(4) !== 4) {
                    this.restore(saved);
                    break;
                }
            }
            else {
                const further = container.furtherBlank;
                container.furtherBlank = false;
                container.initialBlank = false;
                const saved = this.save();
                if (!further && markdown_blocks_isSpace(this.code()) && this.skipColumns(container.size) === container.size) {
                    matched++;
                    continue;
                }
                this.restore(saved);
                if (!this.nextItem(matched))
                    break;
                matched++;
                itemReplaced = true;
                break;
            }
            matched++;
        }
        const leaf = this.leaf;
        const allMatched = matched === stack.length;
        if (allMatched && !itemReplaced && (leaf?.kind === 'fenced' || leaf?.kind === 'html')) {
            this.flow(false, matched);
            return;
        }
        // Only a paragraph can be interrupted; containers opened after the first on a line start fresh.
        let interrupt = allMatched && !itemReplaced && leaf?.kind === 'paragraph';
        let opened = false;
        for (;;) {
            const saved = this.save();
            const startCol = this.col;
            this.skipColumns(3);
            const c = this.code();
            let open;
            if (c === GT)
                open = this.quoteStart();
            else if (c === DASH || c === PLUS || c === STAR || isDigit(c))
                open = this.itemStart(startCol, interrupt, undefined);
            else if (c === LBRACKET)
                open = this.footnoteStart();
            if (!open) {
                this.restore(saved);
                break;
            }
            if (!opened) {
                this.closeLeaf();
                this.closeContainers(matched);
                opened = true;
            }
            const top = stack[stack.length - 1];
            if (top?.kind === 'item' && top.pending)
                top.pending = false;
            open();
            interrupt = false;
        }
        this.flow(!opened && !allMatched, opened ? stack.length : matched);
    }
    /** Stack index of the first block quote at or deeper than `depth`, or the stack's length. */
    quoteFrom(depth) {
        const quotes = this.quotes;
        let lo = 0;
        let hi = quotes.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (quotes[mid] < depth)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < quotes.length ? quotes[lo] : this.stack.length;
    }
    quoteContinues() {
        const saved = this.save();
        this.skipColumns(3);
        if (this.code() !== GT) {
            this.restore(saved);
            return false;
        }
        this.i++;
        this.col++;
        if (markdown_blocks_isSpace(this.code()))
            this.advance();
        return true;
    }
    /** A `>` opening a block quote at the cursor. */
    quoteStart() {
        const marker = this.i;
        this.i++;
        this.col++;
        if (markdown_blocks_isSpace(this.code()))
            this.advance();
        return () => {
            const node = { type: 'quote', marker, children: [] };
            this.children().push(node);
            this.quotes.push(this.stack.length);
            this.stack.push({ kind: 'quote', node });
        };
    }
    /** `[^label]:` opening a footnote definition at the cursor. */
    footnoteStart() {
        const text = this.text;
        const start = this.i;
        if (this.code(start + 1) !== CARET)
            return undefined;
        let i = start + 2;
        let size = 0;
        for (;;) {
            const c = this.code(i);
            if (size > LABEL_MAX || c === -1 || c === LBRACKET || markdown_blocks_isSpace(c) || (c === RBRACKET && size === 0))
                return undefined;
            if (c === RBRACKET)
                break;
            i++;
            size++;
            if (c === BACKSLASH) {
                const next = this.code(i);
                if (next === LBRACKET || next === BACKSLASH || next === RBRACKET) {
                    i++;
                    size++;
                }
            }
        }
        if (this.code(i + 1) !== COLON)
            return undefined;
        const label = normalizeLabel(text.slice(start + 2, i));
        this.col += i + 2 - this.i;
        this.i = i + 2;
        this.skipSpace();
        return () => {
            this.footnotes.add(label);
            const node = { type: 'footnote', label: start, children: [] };
            this.children().push(node);
            this.stack.push({ kind: 'footnote', node });
        };
    }
    /**
     * A list item's marker at the cursor (after up to three columns of indentation that started at `startCol`): a new
     * list, or with `list` the next item of that list.
     */
    itemStart(startCol, interrupt, list) {
        const c = this.code();
        const markerStart = this.i;
        let ordered;
        let marker;
        let markerEnd;
        if (c === DASH || c === PLUS || c === STAR) {
            if (list && (list.ordered || list.marker !== c))
                return undefined;
            if (c !== PLUS && this.thematicBreakAt(this.i))
                return undefined;
            ordered = false;
            marker = c;
            markerEnd = this.i + 1;
        }
        else if (isDigit(c)) {
            if (list && !list.ordered)
                return undefined;
            if (interrupt && c !== ONE)
                return undefined;
            let j = this.i;
            while (isDigit(this.code(j)) && j - this.i < 9)
                j++;
            if (interrupt && j - this.i > 1)
                return undefined;
            const delimiter = this.code(j);
            if (list ? delimiter !== list.marker : delimiter !== DOT && delimiter !== RPAREN)
                return undefined;
            ordered = true;
            marker = delimiter;
            markerEnd = j + 1;
        }
        else {
            return undefined;
        }
        this.col += markerEnd - this.i;
        this.i = markerEnd;
        const markerEndCol = this.col;
        let size;
        let column;
        let initialBlank = false;
        if (this.restBlank()) {
            if (interrupt)
                return undefined;
            initialBlank = true;
            size = markerEndCol - startCol + 1;
        }
        else {
            const saved = this.save();
            const spaces = this.skipColumns(4);
            if (spaces > 0 && !markdown_blocks_isSpace(this.code())) {
                size = markerEndCol - startCol + spaces;
            }
            else {
                this.restore(saved);
                if (!markdown_blocks_isSpace(this.code()))
                    return undefined;
                this.advance();
                size = markerEndCol - startCol + 1;
                // The content (indented code) starts inside a tab; the codec has always put the item's column at its end.
                if (this.i < this.lineEnd && this.text.charCodeAt(this.i) === TAB && this.col % 4 !== 0)
                    column = this.col + 4 - (this.col % 4);
            }
        }
        // An item whose first line holds only trailing whitespace is never a task item (micromark sees a blank line first).
        const taskEligible = !(initialBlank && this.i < this.lineEnd);
        return () => {
            const node = { type: 'item', marker: markerStart, column: column ?? startCol + size, children: [] };
            this.children().push(node);
            this.stack.push({
                kind: 'item',
                node,
                ordered,
                marker,
                size,
                initialBlank,
                furtherBlank: false,
                pending: true,
                taskEligible,
                openLine: this.lineNumber,
            });
        };
    }
    /** The list item at `depth` ends; a marker of the same list on this line opens its next item in its place. */
    nextItem(depth) {
        const item = this.stack[depth];
        const saved = this.save();
        const startCol = this.col;
        this.skipColumns(3);
        const open = this.itemStart(startCol, false, item);
        if (!open) {
            this.restore(saved);
            return false;
        }
        this.closeLeaf();
        this.closeContainers(depth);
        open();
        return true;
    }
    /** The children of the innermost open container. */
    children() {
        const top = this.stack[this.stack.length - 1];
        return top ? top.node.children : this.root;
    }
    closeContainers(depth) {
        while (this.stack.length > depth)
            this.stack.pop();
        while (this.quotes.length && this.quotes[this.quotes.length - 1] >= depth)
            this.quotes.pop();
    }
    // ——— Leaves ———
    /** The rest of the line, after the containers: `lazy` when it did not continue them all (and opened none). */
    flow(lazy, depth) {
        const leaf = this.leaf;
        if (leaf?.kind === 'paragraph') {
            if (this.restBlank()) {
                this.closeLeaf();
                if (lazy)
                    this.closeContainers(depth);
                return;
            }
            if (!lazy && leaf.headable && this.tableDelimiter(leaf))
                return;
            const indent = this.indent();
            const interruption = indent >= 4 ? undefined : this.interruption(lazy);
            if (interruption === undefined) {
                this.skipSpace();
                leaf.node.lines.push(this.i, this.lineEnd);
                leaf.headable = indent < 4;
                return;
            }
            if (interruption === 'setext') {
                this.skipSpace();
                if (this.closeParagraph(leaf, true))
                    return;
            }
            else {
                this.closeLeaf();
            }
            if (lazy)
                this.closeContainers(depth);
            this.startBlock(undefined);
            return;
        }
        if (leaf && lazy) {
            this.closeLeaf();
            this.closeContainers(depth);
            this.startBlock(undefined);
            return;
        }
        switch (leaf?.kind) {
            case 'fenced':
                if (this.closingFence(leaf.marker, leaf.size))
                    this.leaf = undefined;
                return;
            case 'html':
                if (leaf.end === 'blank' ? this.restBlank() : this.htmlEndsAt(leaf.end, this.i))
                    this.leaf = undefined;
                return;
            case 'indented':
                // Blank lines may still be inside the code; the next non-blank line decides.
                if (this.restBlank() || this.indent() >= 4)
                    return;
                this.leaf = undefined;
                this.startBlock(undefined);
                return;
            case 'table':
                if (this.restBlank()) {
                    this.leaf = undefined;
                    return;
                }
                this.leaf = undefined;
                this.startBlock(leaf.node);
                return;
            default:
                if (lazy)
                    this.closeContainers(depth);
                this.startBlock(undefined);
        }
    }
    /** A leaf starting at the cursor; after a table, a line that starts nothing else is the table's next row. */
    startBlock(table) {
        const top = this.stack[this.stack.length - 1];
        const item = top?.kind === 'item' && top.pending ? top : undefined;
        if (this.restBlank()) {
            if (item && item.openLine !== this.lineNumber)
                item.taskEligible = false;
            return;
        }
        if (item)
            item.pending = false;
        const siblings = this.children();
        if (this.indent() >= 4) {
            siblings.push(OPAQUE);
            this.leaf = { kind: 'indented' };
            return;
        }
        this.skipSpace();
        const c = this.code();
        if (c === HASH) {
            const heading = this.atxHeading();
            if (heading) {
                siblings.push(heading);
                return;
            }
        }
        if ((c === STAR || c === DASH || c === UNDERSCORE) && this.thematicBreakAt(this.i)) {
            siblings.push(OPAQUE);
            return;
        }
        if (c === LT) {
            const end = this.htmlStart(false);
            if (end !== undefined) {
                siblings.push(OPAQUE);
                if (!this.htmlEndsOnStartLine(end))
                    this.leaf = { kind: 'html', end };
                return;
            }
        }
        if (c === BACKTICK || c === TILDE) {
            const fence = this.openingFence();
            if (fence) {
                siblings.push(OPAQUE);
                this.leaf = { kind: 'fenced', ...fence };
                return;
            }
        }
        if (table) {
            table.rows.push(this.tableRow(this.i, this.lineContentEnd));
            this.leaf = { kind: 'table', node: table };
            return;
        }
        const node = { type: 'paragraph', lines: [this.i, this.lineEnd], taskCandidate: item?.taskEligible ?? false };
        siblings.push(node);
        this.leaf = { kind: 'paragraph', node, siblings, headable: true };
    }
    closeLeaf() {
        const leaf = this.leaf;
        this.leaf = undefined;
        if (leaf?.kind === 'paragraph')
            this.closeParagraph(leaf, false);
    }
    /**
     * Ends a paragraph: link reference definitions at its start become opaque blocks, and the rest stays a paragraph, or
     * with `setext` becomes a heading. False when only definitions were left to underline.
     */
    closeParagraph(leaf, setext) {
        this.leaf = undefined;
        const { node, siblings } = leaf;
        const lines = node.lines;
        const definitions = this.definitionLines(lines);
        const rest = lines.slice(definitions * 2);
        siblings.pop();
        for (let d = 0; d < definitions; d++)
            siblings.push(OPAQUE);
        if (rest.length === 0)
            return !setext;
        let end = rest[rest.length - 1];
        while (end > rest[rest.length - 2] && markdown_blocks_isSpace(this.text.charCodeAt(end - 1)))
            end--;
        rest[rest.length - 1] = end;
        if (setext)
            siblings.push({ type: 'heading', setext: true, lines: rest });
        else
            siblings.push({ type: 'paragraph', lines: rest, taskCandidate: node.taskCandidate });
        return true;
    }
    /**
     * What would interrupt a paragraph at the cursor: a setext underline (not on a lazy line), or another block. Lists,
     * block quotes and footnote definitions were looked for already; a table's header row is found from its delimiter row.
     */
    interruption(lazy) {
        const saved = this.save();
        this.skipSpace();
        const c = this.code();
        let found;
        if (c === HASH)
            found = this.atxHeading() ? 'block' : undefined;
        else if ((c === EQUALS || c === DASH) && !lazy && this.setextUnderline())
            found = 'setext';
        else if ((c === STAR || c === DASH || c === UNDERSCORE) && this.thematicBreakAt(this.i))
            found = 'block';
        else if (c === LT)
            found = this.htmlStart(true) === undefined ? undefined : 'block';
        else if (c === BACKTICK || c === TILDE)
            found = this.openingFence() ? 'block' : undefined;
        this.restore(saved);
        return found;
    }
    setextUnderline() {
        const marker = this.code();
        let i = this.i;
        while (this.code(i) === marker)
            i++;
        return this.restBlank(i);
    }
    /** Three or more `*`, `-` or `_` from `start` to the line's end, maybe with spaces between. */
    thematicBreakAt(start) {
        const marker = this.code(start);
        // One scan back from the line's end per marker finds where such a tail starts, for every marker on the line.
        if (this.breaks.line !== this.lineNumber || this.breaks.marker !== marker) {
            let i = this.lineEnd;
            let count = 0;
            let third = -1;
            for (; i > this.lineStart; i--) {
                const c = this.text.charCodeAt(i - 1);
                if (c === marker) {
                    if (++count === 3)
                        third = i - 1;
                }
                else if (!markdown_blocks_isSpace(c)) {
                    break;
                }
            }
            this.breaks = { line: this.lineNumber, marker, from: i, to: third };
        }
        return start >= this.breaks.from && start <= this.breaks.to;
    }
    atxHeading() {
        const text = this.text;
        let i = this.i;
        while (this.code(i) === HASH && i - this.i < 7)
            i++;
        const level = i - this.i;
        if (level > 6 || (i < this.lineEnd && !markdown_blocks_isSpace(this.code(i))))
            return undefined;
        while (markdown_blocks_isSpace(this.code(i)))
            i++;
        let end = this.lineContentEnd;
        if (end <= i)
            return { type: 'heading', setext: false, lines: [] };
        // A closing run of `#` after a space (or making up the whole content) is not text.
        let run = end;
        while (run > i && text.charCodeAt(run - 1) === HASH)
            run--;
        if (run < end) {
            if (run === i)
                return { type: 'heading', setext: false, lines: [] };
            if (markdown_blocks_isSpace(text.charCodeAt(run - 1))) {
                end = run;
                while (markdown_blocks_isSpace(text.charCodeAt(end - 1)))
                    end--;
            }
        }
        return { type: 'heading', setext: false, lines: [i, end] };
    }
    openingFence() {
        const marker = this.code();
        let i = this.i;
        while (this.code(i) === marker)
            i++;
        const size = i - this.i;
        if (size < 3)
            return undefined;
        if (marker === BACKTICK) {
            for (; i < this.lineEnd; i++)
                if (this.text.charCodeAt(i) === BACKTICK)
                    return undefined;
        }
        return { marker, size };
    }
    closingFence(marker, size) {
        const saved = this.save();
        this.skipColumns(3);
        let i = this.i;
        this.restore(saved);
        const start = i;
        while (this.code(i) === marker)
            i++;
        return i - start >= size && this.restBlank(i);
    }
    // ——— HTML blocks ———
    /** The end condition of an HTML block starting at the cursor's `<`; kind 7 only when not interrupting a paragraph. */
    htmlStart(interrupting) {
        const text = this.text;
        const lt = this.i;
        let i = lt + 1;
        let c = this.code(i);
        if (c === BANG) {
            c = this.code(++i);
            if (c === DASH)
                return this.code(i + 1) === DASH ? '-->' : undefined;
            if (c === LBRACKET)
                return text.startsWith('CDATA[', i + 1) ? ']]>' : undefined;
            return isAsciiAlpha(c) ? '>' : undefined;
        }
        if (c === QUESTION)
            return '?>';
        const closing = c === SLASH;
        if (closing)
            c = this.code(++i);
        if (!isAsciiAlpha(c))
            return undefined;
        const nameStart = i;
        while (this.code(i) === DASH || isAsciiAlphanumeric(this.code(i)))
            i++;
        c = this.code(i);
        if (c !== -1 && c !== SLASH && c !== GT && !markdown_blocks_isSpace(c))
            return undefined;
        const name = text.slice(nameStart, i).toLowerCase();
        if (c !== SLASH && !closing && HTML_RAW_NAMES.has(name))
            return 'raw';
        if (HTML_BLOCK_NAMES.has(name))
            return c !== SLASH || this.code(i + 1) === GT ? 'blank' : undefined;
        if (interrupting)
            return undefined;
        return this.completeTagRest(i, closing) ? 'blank' : undefined;
    }
    /** The rest of a complete open or closing tag from `start` (after its name), then only whitespace on the line. */
    completeTagRest(start, closing) {
        let i = start;
        const c = () => this.code(i);
        if (closing) {
            while (markdown_blocks_isSpace(c()))
                i++;
            return c() === GT && this.restBlank(i + 1);
        }
        // Attribute names, `=` and values, as micromark's states read them; whitespace between is optional.
        let state = 'name-before';
        for (;;) {
            const k = c();
            if (state === 'name-before') {
                if (k === SLASH) {
                    i++;
                    break;
                }
                if (k === COLON || k === UNDERSCORE || isAsciiAlpha(k)) {
                    i++;
                    while (c() === DASH || c() === DOT || c() === COLON || c() === UNDERSCORE || isAsciiAlphanumeric(c()))
                        i++;
                    state = 'name-after';
                }
                else if (markdown_blocks_isSpace(k)) {
                    i++;
                }
                else {
                    break;
                }
            }
            else if (state === 'name-after') {
                if (k === EQUALS) {
                    i++;
                    state = 'value-before';
                }
                else if (markdown_blocks_isSpace(k)) {
                    i++;
                }
                else {
                    state = 'name-before';
                }
            }
            else {
                if (k === -1 || k === LT || k === EQUALS || k === GT || k === BACKTICK)
                    return false;
                if (markdown_blocks_isSpace(k)) {
                    i++;
                }
                else if (k === QUOTE || k === APOSTROPHE) {
                    i++;
                    while (c() !== k) {
                        if (c() === -1)
                            return false;
                        i++;
                    }
                    i++;
                    const after = c();
                    if (after !== SLASH && after !== GT && !markdown_blocks_isSpace(after))
                        return false;
                    state = 'name-before';
                }
                else {
                    while (!(c() === -1 || markdown_blocks_isSpace(c()) || UNQUOTED_STOP.has(c())))
                        i++;
                    state = 'name-after';
                }
            }
        }
        return c() === GT && this.restBlank(i + 1);
    }
    htmlEndsOnStartLine(end) {
        if (end === 'blank')
            return false;
        const from = end === '-->' ? this.i + 2 : end === '?>' ? this.i + 1 : end === '>' ? this.i + 2 : end === ']]>' ? this.i + 9 : this.i + 1;
        return this.htmlEndsAt(end, from);
    }
    htmlEndsAt(end, from) {
        let search = this.searches.get(end);
        if (!search) {
            const text = this.text;
            const find = end === 'raw'
                ? (at) => {
                    RAW_END.lastIndex = at;
                    return RAW_END.exec(text)?.index ?? -1;
                }
                : (at) => text.indexOf(end, at);
            search = new ForwardSearch(find);
            this.searches.set(end, search);
        }
        // Terminators hold no line ending, so one that starts on this line ends on it.
        const at = search.next(from);
        return at >= 0 && at < this.lineEnd;
    }
    // ——— Tables ———
    /** A delimiter row at the cursor under the paragraph's last line, which then becomes a table's header row. */
    tableDelimiter(leaf) {
        const saved = this.save();
        this.skipColumns(3);
        const columns = markdown_blocks_isSpace(this.code()) ? -1 : this.delimiterRow();
        this.restore(saved);
        if (columns < 0)
            return false;
        const lines = leaf.node.lines;
        const headStart = lines[lines.length - 2];
        let headEnd = lines[lines.length - 1];
        while (headEnd > headStart && markdown_blocks_isSpace(this.text.charCodeAt(headEnd - 1)))
            headEnd--;
        // A header row needs more than a lone pipe, and as many cells as the delimiter row.
        if (headEnd - headStart === 1 && this.text.charCodeAt(headStart) === PIPE)
            return false;
        const head = this.tableRow(headStart, headEnd);
        if (columns !== head.cells.length)
            return false;
        lines.length -= 2;
        if (lines.length > 0)
            this.closeParagraph(leaf, false);
        else
            leaf.siblings.pop();
        const table = { type: 'table', rows: [head] };
        leaf.siblings.push(table);
        this.leaf = { kind: 'table', node: table };
        return true;
    }
    /** The number of columns of a delimiter row at the cursor (`| :-- | --: |`), or -1. */
    delimiterRow() {
        let i = this.i;
        let columns = 0;
        let seen = false;
        const c = () => this.code(i);
        if (c() === PIPE) {
            seen = true;
            i++;
        }
        else if (c() !== DASH && c() !== COLON) {
            return -1;
        }
        for (;;) {
            while (markdown_blocks_isSpace(c()))
                i++;
            if (c() === -1)
                break;
            if (c() === COLON) {
                seen = true;
                i++;
            }
            if (c() !== DASH)
                return -1;
            while (c() === DASH)
                i++;
            if (c() === COLON) {
                seen = true;
                i++;
            }
            columns++;
            while (markdown_blocks_isSpace(c()))
                i++;
            if (c() === -1)
                break;
            if (c() !== PIPE)
                return -1;
            seen = true;
            i++;
        }
        return seen ? columns : -1;
    }
    /** A table row from `start` to `end` (without trailing whitespace): cells split at pipes that are not escaped. */
    tableRow(start, end) {
        const text = this.text;
        const cells = [];
        let cellStart = start;
        let leading = text.charCodeAt(start) === PIPE;
        const push = (from, to) => {
            let s = from;
            let e = to;
            while (s < e && markdown_blocks_isSpace(text.charCodeAt(s)))
                s++;
            while (e > s && markdown_blocks_isSpace(text.charCodeAt(e - 1)))
                e--;
            cells.push(s < e ? [s, e] : undefined);
        };
        let backslashes = 0;
        for (let i = start; i < end; i++) {
            const c = text.charCodeAt(i);
            if (c === PIPE && backslashes % 2 === 0) {
                if (leading)
                    leading = false;
                else
                    push(cellStart, i);
                cellStart = i + 1;
            }
            backslashes = c === BACKSLASH ? backslashes + 1 : 0;
        }
        // Text after the last pipe makes a cell; a trailing pipe does not open an empty one.
        if (cellStart < end || cells.length === 0)
            push(cellStart, end);
        return { start, cells };
    }
    // ——— Link reference definitions ———
    /** How many lines at the start of a paragraph are link reference definitions; registers their labels. */
    definitionLines(lines) {
        const text = this.text;
        if (text.charCodeAt(lines[0]) !== LBRACKET)
            return 0;
        const parts = [];
        const lineStarts = [];
        let length = 0;
        for (let k = 0; k < lines.length; k += 2) {
            lineStarts.push(length);
            const part = text.slice(lines[k], lines[k + 1]);
            parts.push(part);
            length += part.length + 1;
        }
        const source = parts.join('\n');
        let at = 0;
        let count = 0;
        while (at < source.length) {
            const end = definitionAt(source, at, this.definitions);
            if (end < 0)
                break;
            at = end + 1;
            while (count < lineStarts.length && lineStarts[count] < at)
                count++;
        }
        return count;
    }
}
const OPAQUE = Object.freeze({ type: 'opaque' });
const RAW_END = /<\/(?:script|pre|style|textarea)>/gi;
/** Characters that end an unquoted attribute value in a complete tag. */
const UNQUOTED_STOP = new Set([QUOTE, APOSTROPHE, SLASH, LT, EQUALS, GT, BACKTICK]);
/**
 * A link reference definition (`[label]: destination "title"`) at `start` of a paragraph's text (its lines joined with
 * `\n`): the index of the line ending after it (or the text's end), or -1. Registers the label.
 */
function definitionAt(source, start, definitions) {
    const n = source.length;
    const at = (i) => (i < n ? source.charCodeAt(i) : -1);
    if (at(start) !== LBRACKET)
        return -1;
    let i = start + 1;
    let size = 0;
    let seen = false;
    for (;;) {
        const c = at(i);
        if (size > LABEL_MAX || c === -1 || c === LBRACKET || (c === RBRACKET && !seen))
            return -1;
        if (c === RBRACKET)
            break;
        i++;
        if (c === LF)
            continue;
        size++;
        if (!markdown_blocks_isSpace(c))
            seen = true;
        if (c === BACKSLASH) {
            const next = at(i);
            if (next === LBRACKET || next === BACKSLASH || next === RBRACKET) {
                i++;
                size++;
            }
        }
    }
    const labelEnd = i;
    if (at(i + 1) !== COLON)
        return -1;
    i += 2;
    while (markdown_blocks_isSpace(at(i)) || at(i) === LF)
        i++;
    // Destination.
    if (at(i) === LT) {
        i++;
        for (;;) {
            const c = at(i);
            if (c === GT)
                break;
            if (c === -1 || c === LT || c === LF)
                return -1;
            i++;
            if (c === BACKSLASH && (at(i) === LT || at(i) === GT || at(i) === BACKSLASH))
                i++;
        }
        i++;
    }
    else {
        const first = at(i);
        if (first === -1 || first === SPACE || first === RPAREN || isControl(first))
            return -1;
        let balance = 0;
        for (;;) {
            const c = at(i);
            if (balance === 0 && (c === -1 || c === RPAREN || c === SPACE || c === TAB || c === LF))
                break;
            if (c === -1 || c === SPACE || isControl(c))
                return -1;
            if (c === LPAREN)
                balance++;
            else if (c === RPAREN)
                balance--;
            i++;
            if (c === BACKSLASH && (at(i) === LPAREN || at(i) === RPAREN || at(i) === BACKSLASH))
                i++;
        }
    }
    const afterDestination = i;
    let end = titleAt(source, i);
    if (end < 0) {
        end = afterDestination;
        while (markdown_blocks_isSpace(at(end)))
            end++;
        if (at(end) !== -1 && at(end) !== LF)
            return -1;
    }
    definitions.add(normalizeLabel(source.slice(start + 1, labelEnd)));
    return end;
}
/** Whitespace, a title, then only spaces to the line's end: the index of that end, or -1. */
function titleAt(source, start) {
    const n = source.length;
    const at = (i) => (i < n ? source.charCodeAt(i) : -1);
    let i = start;
    while (markdown_blocks_isSpace(at(i)) || at(i) === LF)
        i++;
    if (i === start)
        return -1;
    const open = at(i);
    if (open !== QUOTE && open !== APOSTROPHE && open !== LPAREN)
        return -1;
    const close = open === LPAREN ? RPAREN : open;
    i++;
    for (;;) {
        const c = at(i);
        if (c === close)
            break;
        if (c === -1)
            return -1;
        i++;
        if (c === BACKSLASH && (at(i) === close || at(i) === BACKSLASH))
            i++;
    }
    i++;
    while (markdown_blocks_isSpace(at(i)))
        i++;
    return at(i) === -1 || at(i) === LF ? i : -1;
}

;// CONCATENATED MODULE: ./src/core/formats/html-entities.ts
// HTML named character references (`&name;`), generated from the character-entities package 2.0.2. The HTML standard has frozen this list.
/** The text each named character reference (`&name;`) stands for, by name. */
const HTML_ENTITIES = Object.freeze({
    AElig: '\u00c6', AMP: '&', Aacute: '\u00c1', Abreve: '\u0102', Acirc: '\u00c2', Acy: '\u0410', Afr: '\u{1d504}',
    Agrave: '\u00c0', Alpha: '\u0391', Amacr: '\u0100', And: '\u2a53', Aogon: '\u0104', Aopf: '\u{1d538}',
    ApplyFunction: '\u2061', Aring: '\u00c5', Ascr: '\u{1d49c}', Assign: '\u2254', Atilde: '\u00c3', Auml: '\u00c4',
    Backslash: '\u2216', Barv: '\u2ae7', Barwed: '\u2306', Bcy: '\u0411', Because: '\u2235', Bernoullis: '\u212c',
    Beta: '\u0392', Bfr: '\u{1d505}', Bopf: '\u{1d539}', Breve: '\u02d8', Bscr: '\u212c', Bumpeq: '\u224e',
    CHcy: '\u0427', COPY: '\u00a9', Cacute: '\u0106', Cap: '\u22d2', CapitalDifferentialD: '\u2145', Cayleys: '\u212d',
    Ccaron: '\u010c', Ccedil: '\u00c7', Ccirc: '\u0108', Cconint: '\u2230', Cdot: '\u010a', Cedilla: '\u00b8',
    CenterDot: '\u00b7', Cfr: '\u212d', Chi: '\u03a7', CircleDot: '\u2299', CircleMinus: '\u2296', CirclePlus: '\u2295',
    CircleTimes: '\u2297', ClockwiseContourIntegral: '\u2232', CloseCurlyDoubleQuote: '\u201d',
    CloseCurlyQuote: '\u2019', Colon: '\u2237', Colone: '\u2a74', Congruent: '\u2261', Conint: '\u222f',
    ContourIntegral: '\u222e', Copf: '\u2102', Coproduct: '\u2210', CounterClockwiseContourIntegral: '\u2233',
    Cross: '\u2a2f', Cscr: '\u{1d49e}', Cup: '\u22d3', CupCap: '\u224d', DD: '\u2145', DDotrahd: '\u2911',
    DJcy: '\u0402', DScy: '\u0405', DZcy: '\u040f', Dagger: '\u2021', Darr: '\u21a1', Dashv: '\u2ae4', Dcaron: '\u010e',
    Dcy: '\u0414', Del: '\u2207', Delta: '\u0394', Dfr: '\u{1d507}', DiacriticalAcute: '\u00b4',
    DiacriticalDot: '\u02d9', DiacriticalDoubleAcute: '\u02dd', DiacriticalGrave: '`', DiacriticalTilde: '\u02dc',
    Diamond: '\u22c4', DifferentialD: '\u2146', Dopf: '\u{1d53b}', Dot: '\u00a8', DotDot: '\u20dc', DotEqual: '\u2250',
    DoubleContourIntegral: '\u222f', DoubleDot: '\u00a8', DoubleDownArrow: '\u21d3', DoubleLeftArrow: '\u21d0',
    DoubleLeftRightArrow: '\u21d4', DoubleLeftTee: '\u2ae4', DoubleLongLeftArrow: '\u27f8',
    DoubleLongLeftRightArrow: '\u27fa', DoubleLongRightArrow: '\u27f9', DoubleRightArrow: '\u21d2',
    DoubleRightTee: '\u22a8', DoubleUpArrow: '\u21d1', DoubleUpDownArrow: '\u21d5', DoubleVerticalBar: '\u2225',
    DownArrow: '\u2193', DownArrowBar: '\u2913', DownArrowUpArrow: '\u21f5', DownBreve: '\u0311',
    DownLeftRightVector: '\u2950', DownLeftTeeVector: '\u295e', DownLeftVector: '\u21bd', DownLeftVectorBar: '\u2956',
    DownRightTeeVector: '\u295f', DownRightVector: '\u21c1', DownRightVectorBar: '\u2957', DownTee: '\u22a4',
    DownTeeArrow: '\u21a7', Downarrow: '\u21d3', Dscr: '\u{1d49f}', Dstrok: '\u0110', ENG: '\u014a', ETH: '\u00d0',
    Eacute: '\u00c9', Ecaron: '\u011a', Ecirc: '\u00ca', Ecy: '\u042d', Edot: '\u0116', Efr: '\u{1d508}',
    Egrave: '\u00c8', Element: '\u2208', Emacr: '\u0112', EmptySmallSquare: '\u25fb', EmptyVerySmallSquare: '\u25ab',
    Eogon: '\u0118', Eopf: '\u{1d53c}', Epsilon: '\u0395', Equal: '\u2a75', EqualTilde: '\u2242', Equilibrium: '\u21cc',
    Escr: '\u2130', Esim: '\u2a73', Eta: '\u0397', Euml: '\u00cb', Exists: '\u2203', ExponentialE: '\u2147',
    Fcy: '\u0424', Ffr: '\u{1d509}', FilledSmallSquare: '\u25fc', FilledVerySmallSquare: '\u25aa', Fopf: '\u{1d53d}',
    ForAll: '\u2200', Fouriertrf: '\u2131', Fscr: '\u2131', GJcy: '\u0403', GT: '>', Gamma: '\u0393', Gammad: '\u03dc',
    Gbreve: '\u011e', Gcedil: '\u0122', Gcirc: '\u011c', Gcy: '\u0413', Gdot: '\u0120', Gfr: '\u{1d50a}', Gg: '\u22d9',
    Gopf: '\u{1d53e}', GreaterEqual: '\u2265', GreaterEqualLess: '\u22db', GreaterFullEqual: '\u2267',
    GreaterGreater: '\u2aa2', GreaterLess: '\u2277', GreaterSlantEqual: '\u2a7e', GreaterTilde: '\u2273',
    Gscr: '\u{1d4a2}', Gt: '\u226b', HARDcy: '\u042a', Hacek: '\u02c7', Hat: '^', Hcirc: '\u0124', Hfr: '\u210c',
    HilbertSpace: '\u210b', Hopf: '\u210d', HorizontalLine: '\u2500', Hscr: '\u210b', Hstrok: '\u0126',
    HumpDownHump: '\u224e', HumpEqual: '\u224f', IEcy: '\u0415', IJlig: '\u0132', IOcy: '\u0401', Iacute: '\u00cd',
    Icirc: '\u00ce', Icy: '\u0418', Idot: '\u0130', Ifr: '\u2111', Igrave: '\u00cc', Im: '\u2111', Imacr: '\u012a',
    ImaginaryI: '\u2148', Implies: '\u21d2', Int: '\u222c', Integral: '\u222b', Intersection: '\u22c2',
    InvisibleComma: '\u2063', InvisibleTimes: '\u2062', Iogon: '\u012e', Iopf: '\u{1d540}', Iota: '\u0399',
    Iscr: '\u2110', Itilde: '\u0128', Iukcy: '\u0406', Iuml: '\u00cf', Jcirc: '\u0134', Jcy: '\u0419', Jfr: '\u{1d50d}',
    Jopf: '\u{1d541}', Jscr: '\u{1d4a5}', Jsercy: '\u0408', Jukcy: '\u0404', KHcy: '\u0425', KJcy: '\u040c',
    Kappa: '\u039a', Kcedil: '\u0136', Kcy: '\u041a', Kfr: '\u{1d50e}', Kopf: '\u{1d542}', Kscr: '\u{1d4a6}',
    LJcy: '\u0409', LT: '<', Lacute: '\u0139', Lambda: '\u039b', Lang: '\u27ea', Laplacetrf: '\u2112', Larr: '\u219e',
    Lcaron: '\u013d', Lcedil: '\u013b', Lcy: '\u041b', LeftAngleBracket: '\u27e8', LeftArrow: '\u2190',
    LeftArrowBar: '\u21e4', LeftArrowRightArrow: '\u21c6', LeftCeiling: '\u2308', LeftDoubleBracket: '\u27e6',
    LeftDownTeeVector: '\u2961', LeftDownVector: '\u21c3', LeftDownVectorBar: '\u2959', LeftFloor: '\u230a',
    LeftRightArrow: '\u2194', LeftRightVector: '\u294e', LeftTee: '\u22a3', LeftTeeArrow: '\u21a4',
    LeftTeeVector: '\u295a', LeftTriangle: '\u22b2', LeftTriangleBar: '\u29cf', LeftTriangleEqual: '\u22b4',
    LeftUpDownVector: '\u2951', LeftUpTeeVector: '\u2960', LeftUpVector: '\u21bf', LeftUpVectorBar: '\u2958',
    LeftVector: '\u21bc', LeftVectorBar: '\u2952', Leftarrow: '\u21d0', Leftrightarrow: '\u21d4',
    LessEqualGreater: '\u22da', LessFullEqual: '\u2266', LessGreater: '\u2276', LessLess: '\u2aa1',
    LessSlantEqual: '\u2a7d', LessTilde: '\u2272', Lfr: '\u{1d50f}', Ll: '\u22d8', Lleftarrow: '\u21da',
    Lmidot: '\u013f', LongLeftArrow: '\u27f5', LongLeftRightArrow: '\u27f7', LongRightArrow: '\u27f6',
    Longleftarrow: '\u27f8', Longleftrightarrow: '\u27fa', Longrightarrow: '\u27f9', Lopf: '\u{1d543}',
    LowerLeftArrow: '\u2199', LowerRightArrow: '\u2198', Lscr: '\u2112', Lsh: '\u21b0', Lstrok: '\u0141', Lt: '\u226a',
    Map: '\u2905', Mcy: '\u041c', MediumSpace: '\u205f', Mellintrf: '\u2133', Mfr: '\u{1d510}', MinusPlus: '\u2213',
    Mopf: '\u{1d544}', Mscr: '\u2133', Mu: '\u039c', NJcy: '\u040a', Nacute: '\u0143', Ncaron: '\u0147',
    Ncedil: '\u0145', Ncy: '\u041d', NegativeMediumSpace: '\u200b', NegativeThickSpace: '\u200b',
    NegativeThinSpace: '\u200b', NegativeVeryThinSpace: '\u200b', NestedGreaterGreater: '\u226b',
    NestedLessLess: '\u226a', NewLine: '\u000a', Nfr: '\u{1d511}', NoBreak: '\u2060', NonBreakingSpace: '\u00a0',
    Nopf: '\u2115', Not: '\u2aec', NotCongruent: '\u2262', NotCupCap: '\u226d', NotDoubleVerticalBar: '\u2226',
    NotElement: '\u2209', NotEqual: '\u2260', NotEqualTilde: '\u2242\u0338', NotExists: '\u2204', NotGreater: '\u226f',
    NotGreaterEqual: '\u2271', NotGreaterFullEqual: '\u2267\u0338', NotGreaterGreater: '\u226b\u0338',
    NotGreaterLess: '\u2279', NotGreaterSlantEqual: '\u2a7e\u0338', NotGreaterTilde: '\u2275',
    NotHumpDownHump: '\u224e\u0338', NotHumpEqual: '\u224f\u0338', NotLeftTriangle: '\u22ea',
    NotLeftTriangleBar: '\u29cf\u0338', NotLeftTriangleEqual: '\u22ec', NotLess: '\u226e', NotLessEqual: '\u2270',
    NotLessGreater: '\u2278', NotLessLess: '\u226a\u0338', NotLessSlantEqual: '\u2a7d\u0338', NotLessTilde: '\u2274',
    NotNestedGreaterGreater: '\u2aa2\u0338', NotNestedLessLess: '\u2aa1\u0338', NotPrecedes: '\u2280',
    NotPrecedesEqual: '\u2aaf\u0338', NotPrecedesSlantEqual: '\u22e0', NotReverseElement: '\u220c',
    NotRightTriangle: '\u22eb', NotRightTriangleBar: '\u29d0\u0338', NotRightTriangleEqual: '\u22ed',
    NotSquareSubset: '\u228f\u0338', NotSquareSubsetEqual: '\u22e2', NotSquareSuperset: '\u2290\u0338',
    NotSquareSupersetEqual: '\u22e3', NotSubset: '\u2282\u20d2', NotSubsetEqual: '\u2288', NotSucceeds: '\u2281',
    NotSucceedsEqual: '\u2ab0\u0338', NotSucceedsSlantEqual: '\u22e1', NotSucceedsTilde: '\u227f\u0338',
    NotSuperset: '\u2283\u20d2', NotSupersetEqual: '\u2289', NotTilde: '\u2241', NotTildeEqual: '\u2244',
    NotTildeFullEqual: '\u2247', NotTildeTilde: '\u2249', NotVerticalBar: '\u2224', Nscr: '\u{1d4a9}', Ntilde: '\u00d1',
    Nu: '\u039d', OElig: '\u0152', Oacute: '\u00d3', Ocirc: '\u00d4', Ocy: '\u041e', Odblac: '\u0150', Ofr: '\u{1d512}',
    Ograve: '\u00d2', Omacr: '\u014c', Omega: '\u03a9', Omicron: '\u039f', Oopf: '\u{1d546}',
    OpenCurlyDoubleQuote: '\u201c', OpenCurlyQuote: '\u2018', Or: '\u2a54', Oscr: '\u{1d4aa}', Oslash: '\u00d8',
    Otilde: '\u00d5', Otimes: '\u2a37', Ouml: '\u00d6', OverBar: '\u203e', OverBrace: '\u23de', OverBracket: '\u23b4',
    OverParenthesis: '\u23dc', PartialD: '\u2202', Pcy: '\u041f', Pfr: '\u{1d513}', Phi: '\u03a6', Pi: '\u03a0',
    PlusMinus: '\u00b1', Poincareplane: '\u210c', Popf: '\u2119', Pr: '\u2abb', Precedes: '\u227a',
    PrecedesEqual: '\u2aaf', PrecedesSlantEqual: '\u227c', PrecedesTilde: '\u227e', Prime: '\u2033', Product: '\u220f',
    Proportion: '\u2237', Proportional: '\u221d', Pscr: '\u{1d4ab}', Psi: '\u03a8', QUOT: '"', Qfr: '\u{1d514}',
    Qopf: '\u211a', Qscr: '\u{1d4ac}', RBarr: '\u2910', REG: '\u00ae', Racute: '\u0154', Rang: '\u27eb', Rarr: '\u21a0',
    Rarrtl: '\u2916', Rcaron: '\u0158', Rcedil: '\u0156', Rcy: '\u0420', Re: '\u211c', ReverseElement: '\u220b',
    ReverseEquilibrium: '\u21cb', ReverseUpEquilibrium: '\u296f', Rfr: '\u211c', Rho: '\u03a1',
    RightAngleBracket: '\u27e9', RightArrow: '\u2192', RightArrowBar: '\u21e5', RightArrowLeftArrow: '\u21c4',
    RightCeiling: '\u2309', RightDoubleBracket: '\u27e7', RightDownTeeVector: '\u295d', RightDownVector: '\u21c2',
    RightDownVectorBar: '\u2955', RightFloor: '\u230b', RightTee: '\u22a2', RightTeeArrow: '\u21a6',
    RightTeeVector: '\u295b', RightTriangle: '\u22b3', RightTriangleBar: '\u29d0', RightTriangleEqual: '\u22b5',
    RightUpDownVector: '\u294f', RightUpTeeVector: '\u295c', RightUpVector: '\u21be', RightUpVectorBar: '\u2954',
    RightVector: '\u21c0', RightVectorBar: '\u2953', Rightarrow: '\u21d2', Ropf: '\u211d', RoundImplies: '\u2970',
    Rrightarrow: '\u21db', Rscr: '\u211b', Rsh: '\u21b1', RuleDelayed: '\u29f4', SHCHcy: '\u0429', SHcy: '\u0428',
    SOFTcy: '\u042c', Sacute: '\u015a', Sc: '\u2abc', Scaron: '\u0160', Scedil: '\u015e', Scirc: '\u015c', Scy: '\u0421',
    Sfr: '\u{1d516}', ShortDownArrow: '\u2193', ShortLeftArrow: '\u2190', ShortRightArrow: '\u2192',
    ShortUpArrow: '\u2191', Sigma: '\u03a3', SmallCircle: '\u2218', Sopf: '\u{1d54a}', Sqrt: '\u221a', Square: '\u25a1',
    SquareIntersection: '\u2293', SquareSubset: '\u228f', SquareSubsetEqual: '\u2291', SquareSuperset: '\u2290',
    SquareSupersetEqual: '\u2292', SquareUnion: '\u2294', Sscr: '\u{1d4ae}', Star: '\u22c6', Sub: '\u22d0',
    Subset: '\u22d0', SubsetEqual: '\u2286', Succeeds: '\u227b', SucceedsEqual: '\u2ab0', SucceedsSlantEqual: '\u227d',
    SucceedsTilde: '\u227f', SuchThat: '\u220b', Sum: '\u2211', Sup: '\u22d1', Superset: '\u2283',
    SupersetEqual: '\u2287', Supset: '\u22d1', THORN: '\u00de', TRADE: '\u2122', TSHcy: '\u040b', TScy: '\u0426',
    Tab: '\u0009', Tau: '\u03a4', Tcaron: '\u0164', Tcedil: '\u0162', Tcy: '\u0422', Tfr: '\u{1d517}',
    Therefore: '\u2234', Theta: '\u0398', ThickSpace: '\u205f\u200a', ThinSpace: '\u2009', Tilde: '\u223c',
    TildeEqual: '\u2243', TildeFullEqual: '\u2245', TildeTilde: '\u2248', Topf: '\u{1d54b}', TripleDot: '\u20db',
    Tscr: '\u{1d4af}', Tstrok: '\u0166', Uacute: '\u00da', Uarr: '\u219f', Uarrocir: '\u2949', Ubrcy: '\u040e',
    Ubreve: '\u016c', Ucirc: '\u00db', Ucy: '\u0423', Udblac: '\u0170', Ufr: '\u{1d518}', Ugrave: '\u00d9',
    Umacr: '\u016a', UnderBar: '_', UnderBrace: '\u23df', UnderBracket: '\u23b5', UnderParenthesis: '\u23dd',
    Union: '\u22c3', UnionPlus: '\u228e', Uogon: '\u0172', Uopf: '\u{1d54c}', UpArrow: '\u2191', UpArrowBar: '\u2912',
    UpArrowDownArrow: '\u21c5', UpDownArrow: '\u2195', UpEquilibrium: '\u296e', UpTee: '\u22a5', UpTeeArrow: '\u21a5',
    Uparrow: '\u21d1', Updownarrow: '\u21d5', UpperLeftArrow: '\u2196', UpperRightArrow: '\u2197', Upsi: '\u03d2',
    Upsilon: '\u03a5', Uring: '\u016e', Uscr: '\u{1d4b0}', Utilde: '\u0168', Uuml: '\u00dc', VDash: '\u22ab',
    Vbar: '\u2aeb', Vcy: '\u0412', Vdash: '\u22a9', Vdashl: '\u2ae6', Vee: '\u22c1', Verbar: '\u2016', Vert: '\u2016',
    VerticalBar: '\u2223', VerticalLine: '|', VerticalSeparator: '\u2758', VerticalTilde: '\u2240',
    VeryThinSpace: '\u200a', Vfr: '\u{1d519}', Vopf: '\u{1d54d}', Vscr: '\u{1d4b1}', Vvdash: '\u22aa', Wcirc: '\u0174',
    Wedge: '\u22c0', Wfr: '\u{1d51a}', Wopf: '\u{1d54e}', Wscr: '\u{1d4b2}', Xfr: '\u{1d51b}', Xi: '\u039e',
    Xopf: '\u{1d54f}', Xscr: '\u{1d4b3}', YAcy: '\u042f', YIcy: '\u0407', YUcy: '\u042e', Yacute: '\u00dd',
    Ycirc: '\u0176', Ycy: '\u042b', Yfr: '\u{1d51c}', Yopf: '\u{1d550}', Yscr: '\u{1d4b4}', Yuml: '\u0178',
    ZHcy: '\u0416', Zacute: '\u0179', Zcaron: '\u017d', Zcy: '\u0417', Zdot: '\u017b', ZeroWidthSpace: '\u200b',
    Zeta: '\u0396', Zfr: '\u2128', Zopf: '\u2124', Zscr: '\u{1d4b5}', aacute: '\u00e1', abreve: '\u0103', ac: '\u223e',
    acE: '\u223e\u0333', acd: '\u223f', acirc: '\u00e2', acute: '\u00b4', acy: '\u0430', aelig: '\u00e6', af: '\u2061',
    afr: '\u{1d51e}', agrave: '\u00e0', alefsym: '\u2135', aleph: '\u2135', alpha: '\u03b1', amacr: '\u0101',
    amalg: '\u2a3f', amp: '&', and: '\u2227', andand: '\u2a55', andd: '\u2a5c', andslope: '\u2a58', andv: '\u2a5a',
    ang: '\u2220', ange: '\u29a4', angle: '\u2220', angmsd: '\u2221', angmsdaa: '\u29a8', angmsdab: '\u29a9',
    angmsdac: '\u29aa', angmsdad: '\u29ab', angmsdae: '\u29ac', angmsdaf: '\u29ad', angmsdag: '\u29ae',
    angmsdah: '\u29af', angrt: '\u221f', angrtvb: '\u22be', angrtvbd: '\u299d', angsph: '\u2222', angst: '\u00c5',
    angzarr: '\u237c', aogon: '\u0105', aopf: '\u{1d552}', ap: '\u2248', apE: '\u2a70', apacir: '\u2a6f', ape: '\u224a',
    apid: '\u224b', apos: '\'', approx: '\u2248', approxeq: '\u224a', aring: '\u00e5', ascr: '\u{1d4b6}', ast: '*',
    asymp: '\u2248', asympeq: '\u224d', atilde: '\u00e3', auml: '\u00e4', awconint: '\u2233', awint: '\u2a11',
    bNot: '\u2aed', backcong: '\u224c', backepsilon: '\u03f6', backprime: '\u2035', backsim: '\u223d',
    backsimeq: '\u22cd', barvee: '\u22bd', barwed: '\u2305', barwedge: '\u2305', bbrk: '\u23b5', bbrktbrk: '\u23b6',
    bcong: '\u224c', bcy: '\u0431', bdquo: '\u201e', becaus: '\u2235', because: '\u2235', bemptyv: '\u29b0',
    bepsi: '\u03f6', bernou: '\u212c', beta: '\u03b2', beth: '\u2136', between: '\u226c', bfr: '\u{1d51f}',
    bigcap: '\u22c2', bigcirc: '\u25ef', bigcup: '\u22c3', bigodot: '\u2a00', bigoplus: '\u2a01', bigotimes: '\u2a02',
    bigsqcup: '\u2a06', bigstar: '\u2605', bigtriangledown: '\u25bd', bigtriangleup: '\u25b3', biguplus: '\u2a04',
    bigvee: '\u22c1', bigwedge: '\u22c0', bkarow: '\u290d', blacklozenge: '\u29eb', blacksquare: '\u25aa',
    blacktriangle: '\u25b4', blacktriangledown: '\u25be', blacktriangleleft: '\u25c2', blacktriangleright: '\u25b8',
    blank: '\u2423', blk12: '\u2592', blk14: '\u2591', blk34: '\u2593', block: '\u2588', bne: '=\u20e5',
    bnequiv: '\u2261\u20e5', bnot: '\u2310', bopf: '\u{1d553}', bot: '\u22a5', bottom: '\u22a5', bowtie: '\u22c8',
    boxDL: '\u2557', boxDR: '\u2554', boxDl: '\u2556', boxDr: '\u2553', boxH: '\u2550', boxHD: '\u2566', boxHU: '\u2569',
    boxHd: '\u2564', boxHu: '\u2567', boxUL: '\u255d', boxUR: '\u255a', boxUl: '\u255c', boxUr: '\u2559', boxV: '\u2551',
    boxVH: '\u256c', boxVL: '\u2563', boxVR: '\u2560', boxVh: '\u256b', boxVl: '\u2562', boxVr: '\u255f',
    boxbox: '\u29c9', boxdL: '\u2555', boxdR: '\u2552', boxdl: '\u2510', boxdr: '\u250c', boxh: '\u2500',
    boxhD: '\u2565', boxhU: '\u2568', boxhd: '\u252c', boxhu: '\u2534', boxminus: '\u229f', boxplus: '\u229e',
    boxtimes: '\u22a0', boxuL: '\u255b', boxuR: '\u2558', boxul: '\u2518', boxur: '\u2514', boxv: '\u2502',
    boxvH: '\u256a', boxvL: '\u2561', boxvR: '\u255e', boxvh: '\u253c', boxvl: '\u2524', boxvr: '\u251c',
    bprime: '\u2035', breve: '\u02d8', brvbar: '\u00a6', bscr: '\u{1d4b7}', bsemi: '\u204f', bsim: '\u223d',
    bsime: '\u22cd', bsol: '\\', bsolb: '\u29c5', bsolhsub: '\u27c8', bull: '\u2022', bullet: '\u2022', bump: '\u224e',
    bumpE: '\u2aae', bumpe: '\u224f', bumpeq: '\u224f', cacute: '\u0107', cap: '\u2229', capand: '\u2a44',
    capbrcup: '\u2a49', capcap: '\u2a4b', capcup: '\u2a47', capdot: '\u2a40', caps: '\u2229\ufe00', caret: '\u2041',
    caron: '\u02c7', ccaps: '\u2a4d', ccaron: '\u010d', ccedil: '\u00e7', ccirc: '\u0109', ccups: '\u2a4c',
    ccupssm: '\u2a50', cdot: '\u010b', cedil: '\u00b8', cemptyv: '\u29b2', cent: '\u00a2', centerdot: '\u00b7',
    cfr: '\u{1d520}', chcy: '\u0447', check: '\u2713', checkmark: '\u2713', chi: '\u03c7', cir: '\u25cb', cirE: '\u29c3',
    circ: '\u02c6', circeq: '\u2257', circlearrowleft: '\u21ba', circlearrowright: '\u21bb', circledR: '\u00ae',
    circledS: '\u24c8', circledast: '\u229b', circledcirc: '\u229a', circleddash: '\u229d', cire: '\u2257',
    cirfnint: '\u2a10', cirmid: '\u2aef', cirscir: '\u29c2', clubs: '\u2663', clubsuit: '\u2663', colon: ':',
    colone: '\u2254', coloneq: '\u2254', comma: ',', commat: '@', comp: '\u2201', compfn: '\u2218', complement: '\u2201',
    complexes: '\u2102', cong: '\u2245', congdot: '\u2a6d', conint: '\u222e', copf: '\u{1d554}', coprod: '\u2210',
    copy: '\u00a9', copysr: '\u2117', crarr: '\u21b5', cross: '\u2717', cscr: '\u{1d4b8}', csub: '\u2acf',
    csube: '\u2ad1', csup: '\u2ad0', csupe: '\u2ad2', ctdot: '\u22ef', cudarrl: '\u2938', cudarrr: '\u2935',
    cuepr: '\u22de', cuesc: '\u22df', cularr: '\u21b6', cularrp: '\u293d', cup: '\u222a', cupbrcap: '\u2a48',
    cupcap: '\u2a46', cupcup: '\u2a4a', cupdot: '\u228d', cupor: '\u2a45', cups: '\u222a\ufe00', curarr: '\u21b7',
    curarrm: '\u293c', curlyeqprec: '\u22de', curlyeqsucc: '\u22df', curlyvee: '\u22ce', curlywedge: '\u22cf',
    curren: '\u00a4', curvearrowleft: '\u21b6', curvearrowright: '\u21b7', cuvee: '\u22ce', cuwed: '\u22cf',
    cwconint: '\u2232', cwint: '\u2231', cylcty: '\u232d', dArr: '\u21d3', dHar: '\u2965', dagger: '\u2020',
    daleth: '\u2138', darr: '\u2193', dash: '\u2010', dashv: '\u22a3', dbkarow: '\u290f', dblac: '\u02dd',
    dcaron: '\u010f', dcy: '\u0434', dd: '\u2146', ddagger: '\u2021', ddarr: '\u21ca', ddotseq: '\u2a77', deg: '\u00b0',
    delta: '\u03b4', demptyv: '\u29b1', dfisht: '\u297f', dfr: '\u{1d521}', dharl: '\u21c3', dharr: '\u21c2',
    diam: '\u22c4', diamond: '\u22c4', diamondsuit: '\u2666', diams: '\u2666', die: '\u00a8', digamma: '\u03dd',
    disin: '\u22f2', div: '\u00f7', divide: '\u00f7', divideontimes: '\u22c7', divonx: '\u22c7', djcy: '\u0452',
    dlcorn: '\u231e', dlcrop: '\u230d', dollar: '$', dopf: '\u{1d555}', dot: '\u02d9', doteq: '\u2250',
    doteqdot: '\u2251', dotminus: '\u2238', dotplus: '\u2214', dotsquare: '\u22a1', doublebarwedge: '\u2306',
    downarrow: '\u2193', downdownarrows: '\u21ca', downharpoonleft: '\u21c3', downharpoonright: '\u21c2',
    drbkarow: '\u2910', drcorn: '\u231f', drcrop: '\u230c', dscr: '\u{1d4b9}', dscy: '\u0455', dsol: '\u29f6',
    dstrok: '\u0111', dtdot: '\u22f1', dtri: '\u25bf', dtrif: '\u25be', duarr: '\u21f5', duhar: '\u296f',
    dwangle: '\u29a6', dzcy: '\u045f', dzigrarr: '\u27ff', eDDot: '\u2a77', eDot: '\u2251', eacute: '\u00e9',
    easter: '\u2a6e', ecaron: '\u011b', ecir: '\u2256', ecirc: '\u00ea', ecolon: '\u2255', ecy: '\u044d', edot: '\u0117',
    ee: '\u2147', efDot: '\u2252', efr: '\u{1d522}', eg: '\u2a9a', egrave: '\u00e8', egs: '\u2a96', egsdot: '\u2a98',
    el: '\u2a99', elinters: '\u23e7', ell: '\u2113', els: '\u2a95', elsdot: '\u2a97', emacr: '\u0113', empty: '\u2205',
    emptyset: '\u2205', emptyv: '\u2205', emsp: '\u2003', emsp13: '\u2004', emsp14: '\u2005', eng: '\u014b',
    ensp: '\u2002', eogon: '\u0119', eopf: '\u{1d556}', epar: '\u22d5', eparsl: '\u29e3', eplus: '\u2a71',
    epsi: '\u03b5', epsilon: '\u03b5', epsiv: '\u03f5', eqcirc: '\u2256', eqcolon: '\u2255', eqsim: '\u2242',
    eqslantgtr: '\u2a96', eqslantless: '\u2a95', equals: '=', equest: '\u225f', equiv: '\u2261', equivDD: '\u2a78',
    eqvparsl: '\u29e5', erDot: '\u2253', erarr: '\u2971', escr: '\u212f', esdot: '\u2250', esim: '\u2242', eta: '\u03b7',
    eth: '\u00f0', euml: '\u00eb', euro: '\u20ac', excl: '!', exist: '\u2203', expectation: '\u2130',
    exponentiale: '\u2147', fallingdotseq: '\u2252', fcy: '\u0444', female: '\u2640', ffilig: '\ufb03', fflig: '\ufb00',
    ffllig: '\ufb04', ffr: '\u{1d523}', filig: '\ufb01', fjlig: 'fj', flat: '\u266d', fllig: '\ufb02', fltns: '\u25b1',
    fnof: '\u0192', fopf: '\u{1d557}', forall: '\u2200', fork: '\u22d4', forkv: '\u2ad9', fpartint: '\u2a0d',
    frac12: '\u00bd', frac13: '\u2153', frac14: '\u00bc', frac15: '\u2155', frac16: '\u2159', frac18: '\u215b',
    frac23: '\u2154', frac25: '\u2156', frac34: '\u00be', frac35: '\u2157', frac38: '\u215c', frac45: '\u2158',
    frac56: '\u215a', frac58: '\u215d', frac78: '\u215e', frasl: '\u2044', frown: '\u2322', fscr: '\u{1d4bb}',
    gE: '\u2267', gEl: '\u2a8c', gacute: '\u01f5', gamma: '\u03b3', gammad: '\u03dd', gap: '\u2a86', gbreve: '\u011f',
    gcirc: '\u011d', gcy: '\u0433', gdot: '\u0121', ge: '\u2265', gel: '\u22db', geq: '\u2265', geqq: '\u2267',
    geqslant: '\u2a7e', ges: '\u2a7e', gescc: '\u2aa9', gesdot: '\u2a80', gesdoto: '\u2a82', gesdotol: '\u2a84',
    gesl: '\u22db\ufe00', gesles: '\u2a94', gfr: '\u{1d524}', gg: '\u226b', ggg: '\u22d9', gimel: '\u2137',
    gjcy: '\u0453', gl: '\u2277', glE: '\u2a92', gla: '\u2aa5', glj: '\u2aa4', gnE: '\u2269', gnap: '\u2a8a',
    gnapprox: '\u2a8a', gne: '\u2a88', gneq: '\u2a88', gneqq: '\u2269', gnsim: '\u22e7', gopf: '\u{1d558}', grave: '`',
    gscr: '\u210a', gsim: '\u2273', gsime: '\u2a8e', gsiml: '\u2a90', gt: '>', gtcc: '\u2aa7', gtcir: '\u2a7a',
    gtdot: '\u22d7', gtlPar: '\u2995', gtquest: '\u2a7c', gtrapprox: '\u2a86', gtrarr: '\u2978', gtrdot: '\u22d7',
    gtreqless: '\u22db', gtreqqless: '\u2a8c', gtrless: '\u2277', gtrsim: '\u2273', gvertneqq: '\u2269\ufe00',
    gvnE: '\u2269\ufe00', hArr: '\u21d4', hairsp: '\u200a', half: '\u00bd', hamilt: '\u210b', hardcy: '\u044a',
    harr: '\u2194', harrcir: '\u2948', harrw: '\u21ad', hbar: '\u210f', hcirc: '\u0125', hearts: '\u2665',
    heartsuit: '\u2665', hellip: '\u2026', hercon: '\u22b9', hfr: '\u{1d525}', hksearow: '\u2925', hkswarow: '\u2926',
    hoarr: '\u21ff', homtht: '\u223b', hookleftarrow: '\u21a9', hookrightarrow: '\u21aa', hopf: '\u{1d559}',
    horbar: '\u2015', hscr: '\u{1d4bd}', hslash: '\u210f', hstrok: '\u0127', hybull: '\u2043', hyphen: '\u2010',
    iacute: '\u00ed', ic: '\u2063', icirc: '\u00ee', icy: '\u0438', iecy: '\u0435', iexcl: '\u00a1', iff: '\u21d4',
    ifr: '\u{1d526}', igrave: '\u00ec', ii: '\u2148', iiiint: '\u2a0c', iiint: '\u222d', iinfin: '\u29dc',
    iiota: '\u2129', ijlig: '\u0133', imacr: '\u012b', image: '\u2111', imagline: '\u2110', imagpart: '\u2111',
    imath: '\u0131', imof: '\u22b7', imped: '\u01b5', in: '\u2208', incare: '\u2105', infin: '\u221e',
    infintie: '\u29dd', inodot: '\u0131', int: '\u222b', intcal: '\u22ba', integers: '\u2124', intercal: '\u22ba',
    intlarhk: '\u2a17', intprod: '\u2a3c', iocy: '\u0451', iogon: '\u012f', iopf: '\u{1d55a}', iota: '\u03b9',
    iprod: '\u2a3c', iquest: '\u00bf', iscr: '\u{1d4be}', isin: '\u2208', isinE: '\u22f9', isindot: '\u22f5',
    isins: '\u22f4', isinsv: '\u22f3', isinv: '\u2208', it: '\u2062', itilde: '\u0129', iukcy: '\u0456', iuml: '\u00ef',
    jcirc: '\u0135', jcy: '\u0439', jfr: '\u{1d527}', jmath: '\u0237', jopf: '\u{1d55b}', jscr: '\u{1d4bf}',
    jsercy: '\u0458', jukcy: '\u0454', kappa: '\u03ba', kappav: '\u03f0', kcedil: '\u0137', kcy: '\u043a',
    kfr: '\u{1d528}', kgreen: '\u0138', khcy: '\u0445', kjcy: '\u045c', kopf: '\u{1d55c}', kscr: '\u{1d4c0}',
    lAarr: '\u21da', lArr: '\u21d0', lAtail: '\u291b', lBarr: '\u290e', lE: '\u2266', lEg: '\u2a8b', lHar: '\u2962',
    lacute: '\u013a', laemptyv: '\u29b4', lagran: '\u2112', lambda: '\u03bb', lang: '\u27e8', langd: '\u2991',
    langle: '\u27e8', lap: '\u2a85', laquo: '\u00ab', larr: '\u2190', larrb: '\u21e4', larrbfs: '\u291f',
    larrfs: '\u291d', larrhk: '\u21a9', larrlp: '\u21ab', larrpl: '\u2939', larrsim: '\u2973', larrtl: '\u21a2',
    lat: '\u2aab', latail: '\u2919', late: '\u2aad', lates: '\u2aad\ufe00', lbarr: '\u290c', lbbrk: '\u2772',
    lbrace: '{', lbrack: '[', lbrke: '\u298b', lbrksld: '\u298f', lbrkslu: '\u298d', lcaron: '\u013e', lcedil: '\u013c',
    lceil: '\u2308', lcub: '{', lcy: '\u043b', ldca: '\u2936', ldquo: '\u201c', ldquor: '\u201e', ldrdhar: '\u2967',
    ldrushar: '\u294b', ldsh: '\u21b2', le: '\u2264', leftarrow: '\u2190', leftarrowtail: '\u21a2',
    leftharpoondown: '\u21bd', leftharpoonup: '\u21bc', leftleftarrows: '\u21c7', leftrightarrow: '\u2194',
    leftrightarrows: '\u21c6', leftrightharpoons: '\u21cb', leftrightsquigarrow: '\u21ad', leftthreetimes: '\u22cb',
    leg: '\u22da', leq: '\u2264', leqq: '\u2266', leqslant: '\u2a7d', les: '\u2a7d', lescc: '\u2aa8', lesdot: '\u2a7f',
    lesdoto: '\u2a81', lesdotor: '\u2a83', lesg: '\u22da\ufe00', lesges: '\u2a93', lessapprox: '\u2a85',
    lessdot: '\u22d6', lesseqgtr: '\u22da', lesseqqgtr: '\u2a8b', lessgtr: '\u2276', lesssim: '\u2272', lfisht: '\u297c',
    lfloor: '\u230a', lfr: '\u{1d529}', lg: '\u2276', lgE: '\u2a91', lhard: '\u21bd', lharu: '\u21bc', lharul: '\u296a',
    lhblk: '\u2584', ljcy: '\u0459', ll: '\u226a', llarr: '\u21c7', llcorner: '\u231e', llhard: '\u296b',
    lltri: '\u25fa', lmidot: '\u0140', lmoust: '\u23b0', lmoustache: '\u23b0', lnE: '\u2268', lnap: '\u2a89',
    lnapprox: '\u2a89', lne: '\u2a87', lneq: '\u2a87', lneqq: '\u2268', lnsim: '\u22e6', loang: '\u27ec',
    loarr: '\u21fd', lobrk: '\u27e6', longleftarrow: '\u27f5', longleftrightarrow: '\u27f7', longmapsto: '\u27fc',
    longrightarrow: '\u27f6', looparrowleft: '\u21ab', looparrowright: '\u21ac', lopar: '\u2985', lopf: '\u{1d55d}',
    loplus: '\u2a2d', lotimes: '\u2a34', lowast: '\u2217', lowbar: '_', loz: '\u25ca', lozenge: '\u25ca', lozf: '\u29eb',
    lpar: '(', lparlt: '\u2993', lrarr: '\u21c6', lrcorner: '\u231f', lrhar: '\u21cb', lrhard: '\u296d', lrm: '\u200e',
    lrtri: '\u22bf', lsaquo: '\u2039', lscr: '\u{1d4c1}', lsh: '\u21b0', lsim: '\u2272', lsime: '\u2a8d',
    lsimg: '\u2a8f', lsqb: '[', lsquo: '\u2018', lsquor: '\u201a', lstrok: '\u0142', lt: '<', ltcc: '\u2aa6',
    ltcir: '\u2a79', ltdot: '\u22d6', lthree: '\u22cb', ltimes: '\u22c9', ltlarr: '\u2976', ltquest: '\u2a7b',
    ltrPar: '\u2996', ltri: '\u25c3', ltrie: '\u22b4', ltrif: '\u25c2', lurdshar: '\u294a', luruhar: '\u2966',
    lvertneqq: '\u2268\ufe00', lvnE: '\u2268\ufe00', mDDot: '\u223a', macr: '\u00af', male: '\u2642', malt: '\u2720',
    maltese: '\u2720', map: '\u21a6', mapsto: '\u21a6', mapstodown: '\u21a7', mapstoleft: '\u21a4', mapstoup: '\u21a5',
    marker: '\u25ae', mcomma: '\u2a29', mcy: '\u043c', mdash: '\u2014', measuredangle: '\u2221', mfr: '\u{1d52a}',
    mho: '\u2127', micro: '\u00b5', mid: '\u2223', midast: '*', midcir: '\u2af0', middot: '\u00b7', minus: '\u2212',
    minusb: '\u229f', minusd: '\u2238', minusdu: '\u2a2a', mlcp: '\u2adb', mldr: '\u2026', mnplus: '\u2213',
    models: '\u22a7', mopf: '\u{1d55e}', mp: '\u2213', mscr: '\u{1d4c2}', mstpos: '\u223e', mu: '\u03bc',
    multimap: '\u22b8', mumap: '\u22b8', nGg: '\u22d9\u0338', nGt: '\u226b\u20d2', nGtv: '\u226b\u0338',
    nLeftarrow: '\u21cd', nLeftrightarrow: '\u21ce', nLl: '\u22d8\u0338', nLt: '\u226a\u20d2', nLtv: '\u226a\u0338',
    nRightarrow: '\u21cf', nVDash: '\u22af', nVdash: '\u22ae', nabla: '\u2207', nacute: '\u0144', nang: '\u2220\u20d2',
    nap: '\u2249', napE: '\u2a70\u0338', napid: '\u224b\u0338', napos: '\u0149', napprox: '\u2249', natur: '\u266e',
    natural: '\u266e', naturals: '\u2115', nbsp: '\u00a0', nbump: '\u224e\u0338', nbumpe: '\u224f\u0338', ncap: '\u2a43',
    ncaron: '\u0148', ncedil: '\u0146', ncong: '\u2247', ncongdot: '\u2a6d\u0338', ncup: '\u2a42', ncy: '\u043d',
    ndash: '\u2013', ne: '\u2260', neArr: '\u21d7', nearhk: '\u2924', nearr: '\u2197', nearrow: '\u2197',
    nedot: '\u2250\u0338', nequiv: '\u2262', nesear: '\u2928', nesim: '\u2242\u0338', nexist: '\u2204',
    nexists: '\u2204', nfr: '\u{1d52b}', ngE: '\u2267\u0338', nge: '\u2271', ngeq: '\u2271', ngeqq: '\u2267\u0338',
    ngeqslant: '\u2a7e\u0338', nges: '\u2a7e\u0338', ngsim: '\u2275', ngt: '\u226f', ngtr: '\u226f', nhArr: '\u21ce',
    nharr: '\u21ae', nhpar: '\u2af2', ni: '\u220b', nis: '\u22fc', nisd: '\u22fa', niv: '\u220b', njcy: '\u045a',
    nlArr: '\u21cd', nlE: '\u2266\u0338', nlarr: '\u219a', nldr: '\u2025', nle: '\u2270', nleftarrow: '\u219a',
    nleftrightarrow: '\u21ae', nleq: '\u2270', nleqq: '\u2266\u0338', nleqslant: '\u2a7d\u0338', nles: '\u2a7d\u0338',
    nless: '\u226e', nlsim: '\u2274', nlt: '\u226e', nltri: '\u22ea', nltrie: '\u22ec', nmid: '\u2224',
    nopf: '\u{1d55f}', not: '\u00ac', notin: '\u2209', notinE: '\u22f9\u0338', notindot: '\u22f5\u0338',
    notinva: '\u2209', notinvb: '\u22f7', notinvc: '\u22f6', notni: '\u220c', notniva: '\u220c', notnivb: '\u22fe',
    notnivc: '\u22fd', npar: '\u2226', nparallel: '\u2226', nparsl: '\u2afd\u20e5', npart: '\u2202\u0338',
    npolint: '\u2a14', npr: '\u2280', nprcue: '\u22e0', npre: '\u2aaf\u0338', nprec: '\u2280', npreceq: '\u2aaf\u0338',
    nrArr: '\u21cf', nrarr: '\u219b', nrarrc: '\u2933\u0338', nrarrw: '\u219d\u0338', nrightarrow: '\u219b',
    nrtri: '\u22eb', nrtrie: '\u22ed', nsc: '\u2281', nsccue: '\u22e1', nsce: '\u2ab0\u0338', nscr: '\u{1d4c3}',
    nshortmid: '\u2224', nshortparallel: '\u2226', nsim: '\u2241', nsime: '\u2244', nsimeq: '\u2244', nsmid: '\u2224',
    nspar: '\u2226', nsqsube: '\u22e2', nsqsupe: '\u22e3', nsub: '\u2284', nsubE: '\u2ac5\u0338', nsube: '\u2288',
    nsubset: '\u2282\u20d2', nsubseteq: '\u2288', nsubseteqq: '\u2ac5\u0338', nsucc: '\u2281', nsucceq: '\u2ab0\u0338',
    nsup: '\u2285', nsupE: '\u2ac6\u0338', nsupe: '\u2289', nsupset: '\u2283\u20d2', nsupseteq: '\u2289',
    nsupseteqq: '\u2ac6\u0338', ntgl: '\u2279', ntilde: '\u00f1', ntlg: '\u2278', ntriangleleft: '\u22ea',
    ntrianglelefteq: '\u22ec', ntriangleright: '\u22eb', ntrianglerighteq: '\u22ed', nu: '\u03bd', num: '#',
    numero: '\u2116', numsp: '\u2007', nvDash: '\u22ad', nvHarr: '\u2904', nvap: '\u224d\u20d2', nvdash: '\u22ac',
    nvge: '\u2265\u20d2', nvgt: '>\u20d2', nvinfin: '\u29de', nvlArr: '\u2902', nvle: '\u2264\u20d2', nvlt: '<\u20d2',
    nvltrie: '\u22b4\u20d2', nvrArr: '\u2903', nvrtrie: '\u22b5\u20d2', nvsim: '\u223c\u20d2', nwArr: '\u21d6',
    nwarhk: '\u2923', nwarr: '\u2196', nwarrow: '\u2196', nwnear: '\u2927', oS: '\u24c8', oacute: '\u00f3',
    oast: '\u229b', ocir: '\u229a', ocirc: '\u00f4', ocy: '\u043e', odash: '\u229d', odblac: '\u0151', odiv: '\u2a38',
    odot: '\u2299', odsold: '\u29bc', oelig: '\u0153', ofcir: '\u29bf', ofr: '\u{1d52c}', ogon: '\u02db',
    ograve: '\u00f2', ogt: '\u29c1', ohbar: '\u29b5', ohm: '\u03a9', oint: '\u222e', olarr: '\u21ba', olcir: '\u29be',
    olcross: '\u29bb', oline: '\u203e', olt: '\u29c0', omacr: '\u014d', omega: '\u03c9', omicron: '\u03bf',
    omid: '\u29b6', ominus: '\u2296', oopf: '\u{1d560}', opar: '\u29b7', operp: '\u29b9', oplus: '\u2295', or: '\u2228',
    orarr: '\u21bb', ord: '\u2a5d', order: '\u2134', orderof: '\u2134', ordf: '\u00aa', ordm: '\u00ba', origof: '\u22b6',
    oror: '\u2a56', orslope: '\u2a57', orv: '\u2a5b', oscr: '\u2134', oslash: '\u00f8', osol: '\u2298', otilde: '\u00f5',
    otimes: '\u2297', otimesas: '\u2a36', ouml: '\u00f6', ovbar: '\u233d', par: '\u2225', para: '\u00b6',
    parallel: '\u2225', parsim: '\u2af3', parsl: '\u2afd', part: '\u2202', pcy: '\u043f', percnt: '%', period: '.',
    permil: '\u2030', perp: '\u22a5', pertenk: '\u2031', pfr: '\u{1d52d}', phi: '\u03c6', phiv: '\u03d5',
    phmmat: '\u2133', phone: '\u260e', pi: '\u03c0', pitchfork: '\u22d4', piv: '\u03d6', planck: '\u210f',
    planckh: '\u210e', plankv: '\u210f', plus: '+', plusacir: '\u2a23', plusb: '\u229e', pluscir: '\u2a22',
    plusdo: '\u2214', plusdu: '\u2a25', pluse: '\u2a72', plusmn: '\u00b1', plussim: '\u2a26', plustwo: '\u2a27',
    pm: '\u00b1', pointint: '\u2a15', popf: '\u{1d561}', pound: '\u00a3', pr: '\u227a', prE: '\u2ab3', prap: '\u2ab7',
    prcue: '\u227c', pre: '\u2aaf', prec: '\u227a', precapprox: '\u2ab7', preccurlyeq: '\u227c', preceq: '\u2aaf',
    precnapprox: '\u2ab9', precneqq: '\u2ab5', precnsim: '\u22e8', precsim: '\u227e', prime: '\u2032', primes: '\u2119',
    prnE: '\u2ab5', prnap: '\u2ab9', prnsim: '\u22e8', prod: '\u220f', profalar: '\u232e', profline: '\u2312',
    profsurf: '\u2313', prop: '\u221d', propto: '\u221d', prsim: '\u227e', prurel: '\u22b0', pscr: '\u{1d4c5}',
    psi: '\u03c8', puncsp: '\u2008', qfr: '\u{1d52e}', qint: '\u2a0c', qopf: '\u{1d562}', qprime: '\u2057',
    qscr: '\u{1d4c6}', quaternions: '\u210d', quatint: '\u2a16', quest: '?', questeq: '\u225f', quot: '"',
    rAarr: '\u21db', rArr: '\u21d2', rAtail: '\u291c', rBarr: '\u290f', rHar: '\u2964', race: '\u223d\u0331',
    racute: '\u0155', radic: '\u221a', raemptyv: '\u29b3', rang: '\u27e9', rangd: '\u2992', range: '\u29a5',
    rangle: '\u27e9', raquo: '\u00bb', rarr: '\u2192', rarrap: '\u2975', rarrb: '\u21e5', rarrbfs: '\u2920',
    rarrc: '\u2933', rarrfs: '\u291e', rarrhk: '\u21aa', rarrlp: '\u21ac', rarrpl: '\u2945', rarrsim: '\u2974',
    rarrtl: '\u21a3', rarrw: '\u219d', ratail: '\u291a', ratio: '\u2236', rationals: '\u211a', rbarr: '\u290d',
    rbbrk: '\u2773', rbrace: '}', rbrack: ']', rbrke: '\u298c', rbrksld: '\u298e', rbrkslu: '\u2990', rcaron: '\u0159',
    rcedil: '\u0157', rceil: '\u2309', rcub: '}', rcy: '\u0440', rdca: '\u2937', rdldhar: '\u2969', rdquo: '\u201d',
    rdquor: '\u201d', rdsh: '\u21b3', real: '\u211c', realine: '\u211b', realpart: '\u211c', reals: '\u211d',
    rect: '\u25ad', reg: '\u00ae', rfisht: '\u297d', rfloor: '\u230b', rfr: '\u{1d52f}', rhard: '\u21c1',
    rharu: '\u21c0', rharul: '\u296c', rho: '\u03c1', rhov: '\u03f1', rightarrow: '\u2192', rightarrowtail: '\u21a3',
    rightharpoondown: '\u21c1', rightharpoonup: '\u21c0', rightleftarrows: '\u21c4', rightleftharpoons: '\u21cc',
    rightrightarrows: '\u21c9', rightsquigarrow: '\u219d', rightthreetimes: '\u22cc', ring: '\u02da',
    risingdotseq: '\u2253', rlarr: '\u21c4', rlhar: '\u21cc', rlm: '\u200f', rmoust: '\u23b1', rmoustache: '\u23b1',
    rnmid: '\u2aee', roang: '\u27ed', roarr: '\u21fe', robrk: '\u27e7', ropar: '\u2986', ropf: '\u{1d563}',
    roplus: '\u2a2e', rotimes: '\u2a35', rpar: ')', rpargt: '\u2994', rppolint: '\u2a12', rrarr: '\u21c9',
    rsaquo: '\u203a', rscr: '\u{1d4c7}', rsh: '\u21b1', rsqb: ']', rsquo: '\u2019', rsquor: '\u2019', rthree: '\u22cc',
    rtimes: '\u22ca', rtri: '\u25b9', rtrie: '\u22b5', rtrif: '\u25b8', rtriltri: '\u29ce', ruluhar: '\u2968',
    rx: '\u211e', sacute: '\u015b', sbquo: '\u201a', sc: '\u227b', scE: '\u2ab4', scap: '\u2ab8', scaron: '\u0161',
    sccue: '\u227d', sce: '\u2ab0', scedil: '\u015f', scirc: '\u015d', scnE: '\u2ab6', scnap: '\u2aba', scnsim: '\u22e9',
    scpolint: '\u2a13', scsim: '\u227f', scy: '\u0441', sdot: '\u22c5', sdotb: '\u22a1', sdote: '\u2a66',
    seArr: '\u21d8', searhk: '\u2925', searr: '\u2198', searrow: '\u2198', sect: '\u00a7', semi: ';', seswar: '\u2929',
    setminus: '\u2216', setmn: '\u2216', sext: '\u2736', sfr: '\u{1d530}', sfrown: '\u2322', sharp: '\u266f',
    shchcy: '\u0449', shcy: '\u0448', shortmid: '\u2223', shortparallel: '\u2225', shy: '\u00ad', sigma: '\u03c3',
    sigmaf: '\u03c2', sigmav: '\u03c2', sim: '\u223c', simdot: '\u2a6a', sime: '\u2243', simeq: '\u2243', simg: '\u2a9e',
    simgE: '\u2aa0', siml: '\u2a9d', simlE: '\u2a9f', simne: '\u2246', simplus: '\u2a24', simrarr: '\u2972',
    slarr: '\u2190', smallsetminus: '\u2216', smashp: '\u2a33', smeparsl: '\u29e4', smid: '\u2223', smile: '\u2323',
    smt: '\u2aaa', smte: '\u2aac', smtes: '\u2aac\ufe00', softcy: '\u044c', sol: '/', solb: '\u29c4', solbar: '\u233f',
    sopf: '\u{1d564}', spades: '\u2660', spadesuit: '\u2660', spar: '\u2225', sqcap: '\u2293', sqcaps: '\u2293\ufe00',
    sqcup: '\u2294', sqcups: '\u2294\ufe00', sqsub: '\u228f', sqsube: '\u2291', sqsubset: '\u228f', sqsubseteq: '\u2291',
    sqsup: '\u2290', sqsupe: '\u2292', sqsupset: '\u2290', sqsupseteq: '\u2292', squ: '\u25a1', square: '\u25a1',
    squarf: '\u25aa', squf: '\u25aa', srarr: '\u2192', sscr: '\u{1d4c8}', ssetmn: '\u2216', ssmile: '\u2323',
    sstarf: '\u22c6', star: '\u2606', starf: '\u2605', straightepsilon: '\u03f5', straightphi: '\u03d5', strns: '\u00af',
    sub: '\u2282', subE: '\u2ac5', subdot: '\u2abd', sube: '\u2286', subedot: '\u2ac3', submult: '\u2ac1',
    subnE: '\u2acb', subne: '\u228a', subplus: '\u2abf', subrarr: '\u2979', subset: '\u2282', subseteq: '\u2286',
    subseteqq: '\u2ac5', subsetneq: '\u228a', subsetneqq: '\u2acb', subsim: '\u2ac7', subsub: '\u2ad5', subsup: '\u2ad3',
    succ: '\u227b', succapprox: '\u2ab8', succcurlyeq: '\u227d', succeq: '\u2ab0', succnapprox: '\u2aba',
    succneqq: '\u2ab6', succnsim: '\u22e9', succsim: '\u227f', sum: '\u2211', sung: '\u266a', sup: '\u2283',
    sup1: '\u00b9', sup2: '\u00b2', sup3: '\u00b3', supE: '\u2ac6', supdot: '\u2abe', supdsub: '\u2ad8', supe: '\u2287',
    supedot: '\u2ac4', suphsol: '\u27c9', suphsub: '\u2ad7', suplarr: '\u297b', supmult: '\u2ac2', supnE: '\u2acc',
    supne: '\u228b', supplus: '\u2ac0', supset: '\u2283', supseteq: '\u2287', supseteqq: '\u2ac6', supsetneq: '\u228b',
    supsetneqq: '\u2acc', supsim: '\u2ac8', supsub: '\u2ad4', supsup: '\u2ad6', swArr: '\u21d9', swarhk: '\u2926',
    swarr: '\u2199', swarrow: '\u2199', swnwar: '\u292a', szlig: '\u00df', target: '\u2316', tau: '\u03c4',
    tbrk: '\u23b4', tcaron: '\u0165', tcedil: '\u0163', tcy: '\u0442', tdot: '\u20db', telrec: '\u2315',
    tfr: '\u{1d531}', there4: '\u2234', therefore: '\u2234', theta: '\u03b8', thetasym: '\u03d1', thetav: '\u03d1',
    thickapprox: '\u2248', thicksim: '\u223c', thinsp: '\u2009', thkap: '\u2248', thksim: '\u223c', thorn: '\u00fe',
    tilde: '\u02dc', times: '\u00d7', timesb: '\u22a0', timesbar: '\u2a31', timesd: '\u2a30', tint: '\u222d',
    toea: '\u2928', top: '\u22a4', topbot: '\u2336', topcir: '\u2af1', topf: '\u{1d565}', topfork: '\u2ada',
    tosa: '\u2929', tprime: '\u2034', trade: '\u2122', triangle: '\u25b5', triangledown: '\u25bf',
    triangleleft: '\u25c3', trianglelefteq: '\u22b4', triangleq: '\u225c', triangleright: '\u25b9',
    trianglerighteq: '\u22b5', tridot: '\u25ec', trie: '\u225c', triminus: '\u2a3a', triplus: '\u2a39', trisb: '\u29cd',
    tritime: '\u2a3b', trpezium: '\u23e2', tscr: '\u{1d4c9}', tscy: '\u0446', tshcy: '\u045b', tstrok: '\u0167',
    twixt: '\u226c', twoheadleftarrow: '\u219e', twoheadrightarrow: '\u21a0', uArr: '\u21d1', uHar: '\u2963',
    uacute: '\u00fa', uarr: '\u2191', ubrcy: '\u045e', ubreve: '\u016d', ucirc: '\u00fb', ucy: '\u0443', udarr: '\u21c5',
    udblac: '\u0171', udhar: '\u296e', ufisht: '\u297e', ufr: '\u{1d532}', ugrave: '\u00f9', uharl: '\u21bf',
    uharr: '\u21be', uhblk: '\u2580', ulcorn: '\u231c', ulcorner: '\u231c', ulcrop: '\u230f', ultri: '\u25f8',
    umacr: '\u016b', uml: '\u00a8', uogon: '\u0173', uopf: '\u{1d566}', uparrow: '\u2191', updownarrow: '\u2195',
    upharpoonleft: '\u21bf', upharpoonright: '\u21be', uplus: '\u228e', upsi: '\u03c5', upsih: '\u03d2',
    upsilon: '\u03c5', upuparrows: '\u21c8', urcorn: '\u231d', urcorner: '\u231d', urcrop: '\u230e', uring: '\u016f',
    urtri: '\u25f9', uscr: '\u{1d4ca}', utdot: '\u22f0', utilde: '\u0169', utri: '\u25b5', utrif: '\u25b4',
    uuarr: '\u21c8', uuml: '\u00fc', uwangle: '\u29a7', vArr: '\u21d5', vBar: '\u2ae8', vBarv: '\u2ae9', vDash: '\u22a8',
    vangrt: '\u299c', varepsilon: '\u03f5', varkappa: '\u03f0', varnothing: '\u2205', varphi: '\u03d5', varpi: '\u03d6',
    varpropto: '\u221d', varr: '\u2195', varrho: '\u03f1', varsigma: '\u03c2', varsubsetneq: '\u228a\ufe00',
    varsubsetneqq: '\u2acb\ufe00', varsupsetneq: '\u228b\ufe00', varsupsetneqq: '\u2acc\ufe00', vartheta: '\u03d1',
    vartriangleleft: '\u22b2', vartriangleright: '\u22b3', vcy: '\u0432', vdash: '\u22a2', vee: '\u2228',
    veebar: '\u22bb', veeeq: '\u225a', vellip: '\u22ee', verbar: '|', vert: '|', vfr: '\u{1d533}', vltri: '\u22b2',
    vnsub: '\u2282\u20d2', vnsup: '\u2283\u20d2', vopf: '\u{1d567}', vprop: '\u221d', vrtri: '\u22b3', vscr: '\u{1d4cb}',
    vsubnE: '\u2acb\ufe00', vsubne: '\u228a\ufe00', vsupnE: '\u2acc\ufe00', vsupne: '\u228b\ufe00', vzigzag: '\u299a',
    wcirc: '\u0175', wedbar: '\u2a5f', wedge: '\u2227', wedgeq: '\u2259', weierp: '\u2118', wfr: '\u{1d534}',
    wopf: '\u{1d568}', wp: '\u2118', wr: '\u2240', wreath: '\u2240', wscr: '\u{1d4cc}', xcap: '\u22c2', xcirc: '\u25ef',
    xcup: '\u22c3', xdtri: '\u25bd', xfr: '\u{1d535}', xhArr: '\u27fa', xharr: '\u27f7', xi: '\u03be', xlArr: '\u27f8',
    xlarr: '\u27f5', xmap: '\u27fc', xnis: '\u22fb', xodot: '\u2a00', xopf: '\u{1d569}', xoplus: '\u2a01',
    xotime: '\u2a02', xrArr: '\u27f9', xrarr: '\u27f6', xscr: '\u{1d4cd}', xsqcup: '\u2a06', xuplus: '\u2a04',
    xutri: '\u25b3', xvee: '\u22c1', xwedge: '\u22c0', yacute: '\u00fd', yacy: '\u044f', ycirc: '\u0177', ycy: '\u044b',
    yen: '\u00a5', yfr: '\u{1d536}', yicy: '\u0457', yopf: '\u{1d56a}', yscr: '\u{1d4ce}', yucy: '\u044e',
    yuml: '\u00ff', zacute: '\u017a', zcaron: '\u017e', zcy: '\u0437', zdot: '\u017c', zeetrf: '\u2128', zeta: '\u03b6',
    zfr: '\u{1d537}', zhcy: '\u0436', zigrarr: '\u21dd', zopf: '\u{1d56b}', zscr: '\u{1d4cf}', zwj: '\u200d',
    zwnj: '\u200c',
});

;// CONCATENATED MODULE: ./src/core/formats/markdown-inline.ts
// Inline content of a Markdown block, read as far as the markdown codec needs: what a reader sees of it (for letters and heading slugs), and where its first node starts.
//
// The rules are CommonMark 0.31's with GFM footnote calls and task-list checks, as micromark applies them: code spans,
// autolinks, inline HTML, links and images (inline, full, collapsed and shortcut references), escapes, character
// references, hard breaks and emphasis. Each construct is found with bounded look-ahead (searches for a closing marker
// go through sorted positions found once), so reading is linear in the content's length.


/** Reads the inline content on `lines` of `text`; `task` when a task-list check may open it (a list item's first paragraph). */
function readInline(text, lines, context, task) {
    if (lines.length === 2) {
        // Most blocks are one line of plain text: nothing to parse.
        const src = text.slice(lines[0], lines[1]);
        if (!MARKUP.test(src))
            return { letters: LETTER.test(src), plain: src, start: lines[0], checked: undefined };
    }
    return new InlineReader(text, lines, context).read(task);
}
const markdown_inline_TAB = 0x09;
const markdown_inline_LF = 0x0a;
const markdown_inline_CR = 0x0d;
const markdown_inline_SPACE = 0x20;
const markdown_inline_BANG = 0x21;
const markdown_inline_QUOTE = 0x22;
const markdown_inline_HASH = 0x23;
const AMP = 0x26;
const markdown_inline_APOSTROPHE = 0x27;
const markdown_inline_LPAREN = 0x28;
const markdown_inline_RPAREN = 0x29;
const markdown_inline_STAR = 0x2a;
const markdown_inline_PLUS = 0x2b;
const markdown_inline_DASH = 0x2d;
const markdown_inline_DOT = 0x2e;
const markdown_inline_SLASH = 0x2f;
const markdown_inline_COLON = 0x3a;
const SEMICOLON = 0x3b;
const markdown_inline_LT = 0x3c;
const markdown_inline_EQUALS = 0x3d;
const markdown_inline_GT = 0x3e;
const markdown_inline_QUESTION = 0x3f;
const AT = 0x40;
const markdown_inline_LBRACKET = 0x5b;
const markdown_inline_BACKSLASH = 0x5c;
const markdown_inline_RBRACKET = 0x5d;
const markdown_inline_CARET = 0x5e;
const markdown_inline_UNDERSCORE = 0x5f;
const markdown_inline_BACKTICK = 0x60;
const markdown_inline_TILDE = 0x7e;
const markdown_inline_isSpace = (c) => c === markdown_inline_SPACE || c === markdown_inline_TAB;
const isLineEnding = (c) => c === markdown_inline_LF || c === markdown_inline_CR;
const isWhitespace = (c) => markdown_inline_isSpace(c) || isLineEnding(c);
const markdown_inline_isDigit = (c) => c >= 0x30 && c <= 0x39;
const isHexDigit = (c) => markdown_inline_isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const markdown_inline_isAsciiAlpha = (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const markdown_inline_isAsciiAlphanumeric = (c) => markdown_inline_isDigit(c) || markdown_inline_isAsciiAlpha(c);
const isAsciiPunctuation = (c) => (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
const markdown_inline_isControl = (c) => c < markdown_inline_SPACE || c === 0x7f;
/** Characters an e-mail autolink's local part may hold, as micromark reads them (`!` is not one). */
const isAtext = (c) => (c >= 0x23 && c <= 0x27) || c === markdown_inline_STAR || c === markdown_inline_PLUS || (c >= markdown_inline_DASH && c <= 0x39) || c === markdown_inline_EQUALS || c === markdown_inline_QUESTION || (c >= 0x41 && c <= 0x5a) || (c >= markdown_inline_CARET && c <= markdown_inline_TILDE);
const LETTER = /\p{L}/u;
/** Characters that may start inline syntax (or end a line), outside which content is plain text. */
const MARKUP = /[\\`<&*_[\]!\r\n]/;
const UNICODE_WHITESPACE = /\s/;
const UNICODE_PUNCTUATION = /\p{P}|\p{S}/u;
const markdown_inline_LABEL_MAX = 999;
/** Nesting of parentheses an inline link's bare destination may have. */
const DESTINATION_BALANCE_MAX = 32;
/** Emphasis flanking classes: whitespace (the content's edges included), punctuation, or other. */
var Flank;
(function (Flank) {
    Flank[Flank["Whitespace"] = 0] = "Whitespace";
    Flank[Flank["Punctuation"] = 1] = "Punctuation";
    Flank[Flank["Other"] = 2] = "Other";
})(Flank || (Flank = {}));
function flank(code) {
    if (code === -1 || isWhitespace(code))
        return Flank.Whitespace;
    // micromark classifies UTF-16 code units, so a character outside the BMP counts as neither.
    const char = String.fromCharCode(code);
    if (UNICODE_WHITESPACE.test(char))
        return Flank.Whitespace;
    return UNICODE_PUNCTUATION.test(char) ? Flank.Punctuation : Flank.Other;
}
/** Sorted offsets of characters that no backslash escapes, for finding a closing marker without rescanning. */
class Positions {
    at = [];
    constructor(src, ...chars) {
        let backslashes = 0;
        for (let i = 0; i < src.length; i++) {
            const c = src.charCodeAt(i);
            if (chars.includes(c) && backslashes % 2 === 0)
                this.at.push(i);
            backslashes = c === markdown_inline_BACKSLASH ? backslashes + 1 : 0;
        }
    }
    /** The first offset at or after `from`, or -1. */
    next(from) {
        const at = this.at;
        let lo = 0;
        let hi = at.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (at[mid] < from)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < at.length ? at[lo] : -1;
    }
    /** Whether one lies strictly between `from` and `to`. */
    between(from, to) {
        const next = this.next(from + 1);
        return next >= 0 && next < to;
    }
}
class InlineReader {
    text;
    context;
    /** The content: the lines' text joined by the document's line endings. */
    src;
    /** Where each line starts in `src`, and in the document. */
    srcStarts = [];
    docStarts = [];
    nodes = [];
    brackets = [];
    /** Link brackets below this index in `brackets` cannot open links any more (a link formed after them). */
    linksInactiveBelow = 0;
    /** The last `[`, `![`, link, image or footnote call, for micromark's `![^label]` footnote calls. */
    lastLabel = -1;
    delimiters;
    /** Start of the plain text not yet made a node. */
    run = 0;
    positions;
    searches;
    /** Offsets of `[` and `]` no backslash escapes. */
    bracketPositions;
    backtickRuns;
    constructor(text, lines, context) {
        this.text = text;
        this.context = context;
        const parts = [];
        let length = 0;
        for (let k = 0; k < lines.length; k += 2) {
            const start = lines[k];
            const end = lines[k + 1];
            this.srcStarts.push(length);
            this.docStarts.push(start);
            let part = text.slice(start, end);
            if (k + 2 < lines.length)
                part += text.charCodeAt(end) === markdown_inline_CR && text.charCodeAt(end + 1) === markdown_inline_LF ? '\r\n' : text[end];
            parts.push(part);
            length += part.length;
        }
        this.src = parts.length === 1 ? parts[0] : parts.join('');
    }
    read(task) {
        const src = this.src;
        let from = 0;
        let checked;
        if (task) {
            const end = this.taskCheck();
            if (end > 0) {
                checked = src.charCodeAt(1) === 0x58 || src.charCodeAt(1) === 0x78;
                from = end;
            }
        }
        this.scan(from);
        const summary = { letters: false, plain: '', start: 0, checked };
        this.summarize(this.nodes, summary);
        summary.start = this.firstStart(this.nodes, checked !== undefined);
        return summary;
    }
    // ——— Offsets ———
    code(i) {
        return i < this.src.length ? this.src.charCodeAt(i) : -1;
    }
    docOffset(at) {
        const starts = this.srcStarts;
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (starts[mid] <= at)
                lo = mid;
            else
                hi = mid - 1;
        }
        return this.docStarts[lo] + at - starts[lo];
    }
    unescaped(char) {
        this.positions ??= new Map();
        let positions = this.positions.get(char);
        if (!positions) {
            positions = new Positions(this.src, char);
            this.positions.set(char, positions);
        }
        return positions;
    }
    search(needle, from) {
        this.searches ??= new Map();
        let search = this.searches.get(needle);
        if (!search) {
            const src = this.src;
            search = new ForwardSearch((at) => src.indexOf(needle, at));
            this.searches.set(needle, search);
        }
        return search.next(from);
    }
    /** Length of the line ending at `i`, or 0. */
    lineEnding(i) {
        const c = this.code(i);
        if (c === markdown_inline_CR)
            return this.code(i + 1) === markdown_inline_LF ? 2 : 1;
        return c === markdown_inline_LF ? 1 : 0;
    }
    // ——— Task-list check ———
    /** `[ ]`, `[x]` or `[X]` opening a list item's first paragraph, followed by whitespace and more: the offset after `]`. */
    taskCheck() {
        if (this.code(0) !== markdown_inline_LBRACKET)
            return 0;
        const value = this.code(1);
        let close = 2;
        if (value === markdown_inline_TAB) {
            // The tab must fill one column only: the rest of a wider one would stand before the `]`.
            if (this.columnAt(1) % 4 !== 3)
                return 0;
        }
        else if (isLineEnding(value)) {
            close = 1 + this.lineEnding(1);
        }
        else if (value !== markdown_inline_SPACE && value !== 0x58 && value !== 0x78) {
            return 0;
        }
        if (this.code(close) !== markdown_inline_RBRACKET)
            return 0;
        const after = close + 1;
        if (this.lineEnding(after))
            return after;
        if (!markdown_inline_isSpace(this.code(after)))
            return 0;
        let i = after;
        while (markdown_inline_isSpace(this.code(i)))
            i++;
        return i < this.src.length ? after : 0;
    }
    /** The column (tabs to multiples of four) of an offset on the content's first line. */
    columnAt(at) {
        const doc = this.docOffset(at);
        let lineStart = doc;
        while (lineStart > 0 && !isLineEnding(this.text.charCodeAt(lineStart - 1)))
            lineStart--;
        let column = 0;
        for (let i = lineStart; i < doc; i++)
            column = this.text.charCodeAt(i) === markdown_inline_TAB ? column + 4 - (column % 4) : column + 1;
        return column;
    }
    // ——— Scanning ———
    scan(from) {
        const src = this.src;
        const n = src.length;
        this.run = from;
        let i = from;
        while (i < n) {
            const c = src.charCodeAt(i);
            let next = -1;
            switch (c) {
                case markdown_inline_BACKSLASH:
                    next = this.backslash(i);
                    break;
                case markdown_inline_BACKTICK:
                    next = this.codeSpan(i);
                    break;
                case markdown_inline_LT:
                    next = this.autolink(i);
                    if (next < 0)
                        next = this.inlineHtml(i);
                    break;
                case AMP:
                    next = this.characterReference(i);
                    break;
                case markdown_inline_STAR:
                case markdown_inline_UNDERSCORE:
                    next = this.delimiterRun(i);
                    break;
                case markdown_inline_LBRACKET:
                    next = this.footnoteCall(i);
                    if (next < 0)
                        next = this.openBracket(i, false);
                    break;
                case markdown_inline_BANG:
                    if (this.code(i + 1) === markdown_inline_LBRACKET)
                        next = this.openBracket(i, true);
                    break;
                case markdown_inline_RBRACKET:
                    next = this.closeBracket(i);
                    break;
                case markdown_inline_LF:
                case markdown_inline_CR:
                    next = this.lineBreak(i);
                    break;
            }
            i = next < 0 ? i + 1 : next;
        }
        this.flush(n);
        this.processEmphasis(undefined);
    }
    /** Makes the plain text from the run's start to `end` a node. */
    flush(end) {
        if (end > this.run)
            this.nodes.push({ kind: 'text', start: this.run, value: this.src.slice(this.run, end) });
        this.run = end;
    }
    push(node, end) {
        this.nodes.push(node);
        this.run = end;
        return end;
    }
    backslash(i) {
        const next = this.code(i + 1);
        if (isLineEnding(next)) {
            this.flush(i);
            return this.push({ kind: 'break', start: i }, i + 1 + this.lineEnding(i + 1));
        }
        if (next === -1 || !isAsciiPunctuation(next))
            return -1;
        this.flush(i);
        return this.push({ kind: 'text', start: i, value: String.fromCharCode(next) }, i + 2);
    }
    /** A line ending: trailing spaces before it make a hard break (two or more, no tabs) or are dropped. */
    lineBreak(i) {
        const src = this.src;
        let j = i;
        let tabs = false;
        while (j > this.run && markdown_inline_isSpace(src.charCodeAt(j - 1))) {
            if (src.charCodeAt(j - 1) === markdown_inline_TAB)
                tabs = true;
            j--;
        }
        this.flush(j);
        const after = i + this.lineEnding(i);
        if (i - j >= 2 && !tabs)
            return this.push({ kind: 'break', start: j }, after);
        // A soft line ending is text, and starts the next run.
        this.run = i;
        return after;
    }
    codeSpan(i) {
        const src = this.src;
        let end = i;
        while (this.code(end) === markdown_inline_BACKTICK)
            end++;
        const size = end - i;
        const close = this.backtickRun(size, end);
        if (close < 0)
            return end;
        this.flush(i);
        let content = src.slice(end, close);
        const edge = (c) => c === markdown_inline_SPACE || isLineEnding(c);
        if (content.length > 0 && edge(content.charCodeAt(0)) && edge(content.charCodeAt(content.length - 1)) && /[^ \r\n]/.test(content)) {
            const head = content.startsWith('\r\n') ? 2 : 1;
            const tail = content.endsWith('\r\n') ? 2 : 1;
            content = content.slice(head, content.length - tail);
        }
        return this.push({ kind: 'code', start: i, value: content }, close + size);
    }
    /** Start of the first run of exactly `size` backticks at or after `from`, or -1. */
    backtickRun(size, from) {
        if (!this.backtickRuns) {
            const runs = new Map();
            const src = this.src;
            for (let i = 0; i < src.length;) {
                if (src.charCodeAt(i) !== markdown_inline_BACKTICK) {
                    i++;
                    continue;
                }
                let end = i;
                while (src.charCodeAt(end) === markdown_inline_BACKTICK)
                    end++;
                let entry = runs.get(end - i);
                if (!entry)
                    runs.set(end - i, (entry = { starts: [], next: 0 }));
                entry.starts.push(i);
                i = end;
            }
            this.backtickRuns = runs;
        }
        const entry = this.backtickRuns.get(size);
        if (!entry)
            return -1;
        while (entry.next < entry.starts.length && entry.starts[entry.next] < from)
            entry.next++;
        return entry.next < entry.starts.length ? entry.starts[entry.next] : -1;
    }
    /** `<scheme:…>` or `<local@domain>`. */
    autolink(i) {
        let j = i + 1;
        const first = this.code(j);
        if (first === AT)
            return -1;
        let email = true;
        if (markdown_inline_isAsciiAlpha(first)) {
            j++;
            let scheme = 1;
            while (scheme < 32 && (markdown_inline_isAsciiAlphanumeric(this.code(j)) || this.code(j) === markdown_inline_PLUS || this.code(j) === markdown_inline_DASH || this.code(j) === markdown_inline_DOT)) {
                j++;
                scheme++;
            }
            if (scheme >= 2 && this.code(j) === markdown_inline_COLON) {
                email = false;
                j++;
                for (;;) {
                    const c = this.code(j);
                    if (c === markdown_inline_GT)
                        break;
                    if (c === -1 || c === markdown_inline_SPACE || c === markdown_inline_LT || markdown_inline_isControl(c))
                        return -1;
                    j++;
                }
            }
            else {
                j = i + 1;
            }
        }
        if (email) {
            while (isAtext(this.code(j)))
                j++;
            if (j === i + 1 || this.code(j) !== AT)
                return -1;
            j++;
            for (;;) {
                if (!markdown_inline_isAsciiAlphanumeric(this.code(j)))
                    return -1;
                let size = 0;
                for (;;) {
                    const c = this.code(j);
                    if (c === markdown_inline_DASH || markdown_inline_isAsciiAlphanumeric(c)) {
                        if (size++ >= 63)
                            return -1;
                        j++;
                        continue;
                    }
                    break;
                }
                if (this.code(j - 1) === markdown_inline_DASH)
                    return -1;
                if (this.code(j) === markdown_inline_DOT) {
                    j++;
                    continue;
                }
                if (this.code(j) === markdown_inline_GT)
                    break;
                return -1;
            }
        }
        this.flush(i);
        const value = this.src.slice(i + 1, j);
        return this.push({ kind: 'link', start: i, children: [{ kind: 'text', start: i + 1, value }] }, j + 1);
    }
    /** Inline HTML: a comment, processing instruction, declaration, CDATA section, or open or closing tag. */
    inlineHtml(i) {
        const end = this.htmlEnd(i);
        if (end < 0)
            return -1;
        this.flush(i);
        return this.push({ kind: 'html', start: i, value: this.src.slice(i, end) }, end);
    }
    htmlEnd(i) {
        const c = this.code(i + 1);
        if (c === markdown_inline_BANG) {
            const d = this.code(i + 2);
            if (d === markdown_inline_DASH) {
                if (this.code(i + 3) !== markdown_inline_DASH)
                    return -1;
                const at = this.search('-->', i + 2);
                return at < 0 ? -1 : at + 3;
            }
            if (d === markdown_inline_LBRACKET) {
                if (!this.src.startsWith('CDATA[', i + 3))
                    return -1;
                const at = this.search(']]>', i + 9);
                return at < 0 ? -1 : at + 3;
            }
            if (!markdown_inline_isAsciiAlpha(d))
                return -1;
            const at = this.search('>', i + 3);
            return at < 0 ? -1 : at + 1;
        }
        if (c === markdown_inline_QUESTION) {
            const at = this.search('?>', i + 2);
            return at < 0 ? -1 : at + 2;
        }
        let j = i + 1;
        const closing = c === markdown_inline_SLASH;
        if (closing)
            j++;
        if (!markdown_inline_isAsciiAlpha(this.code(j)))
            return -1;
        while (this.code(j) === markdown_inline_DASH || markdown_inline_isAsciiAlphanumeric(this.code(j)))
            j++;
        if (closing) {
            while (isWhitespace(this.code(j)))
                j++;
            return this.code(j) === markdown_inline_GT ? j + 1 : -1;
        }
        const tagEnd = this.code(j);
        if (tagEnd !== markdown_inline_SLASH && tagEnd !== markdown_inline_GT && !isWhitespace(tagEnd))
            return -1;
        // Attributes, as micromark's states read them.
        let state = 'between';
        for (;;) {
            const k = this.code(j);
            if (state === 'between') {
                if (k === markdown_inline_SLASH)
                    return this.code(j + 1) === markdown_inline_GT ? j + 2 : -1;
                if (k === markdown_inline_COLON || k === markdown_inline_UNDERSCORE || markdown_inline_isAsciiAlpha(k)) {
                    j++;
                    for (;;) {
                        const a = this.code(j);
                        if (a === markdown_inline_DASH || a === markdown_inline_DOT || a === markdown_inline_COLON || a === markdown_inline_UNDERSCORE || markdown_inline_isAsciiAlphanumeric(a))
                            j++;
                        else
                            break;
                    }
                    state = 'name-after';
                }
                else if (isWhitespace(k)) {
                    j++;
                }
                else {
                    return k === markdown_inline_GT ? j + 1 : -1;
                }
            }
            else if (state === 'name-after') {
                if (k === markdown_inline_EQUALS) {
                    j++;
                    state = 'value-before';
                }
                else if (isWhitespace(k)) {
                    j++;
                }
                else {
                    state = 'between';
                }
            }
            else {
                if (k === -1 || k === markdown_inline_LT || k === markdown_inline_EQUALS || k === markdown_inline_GT || k === markdown_inline_BACKTICK)
                    return -1;
                if (isWhitespace(k)) {
                    j++;
                }
                else if (k === markdown_inline_QUOTE || k === markdown_inline_APOSTROPHE) {
                    // Attribute values know no escapes.
                    const close = this.search(String.fromCharCode(k), j + 1);
                    if (close < 0)
                        return -1;
                    j = close + 1;
                    const after = this.code(j);
                    if (after !== markdown_inline_SLASH && after !== markdown_inline_GT && !isWhitespace(after))
                        return -1;
                    state = 'between';
                }
                else {
                    for (;;) {
                        const v = this.code(j);
                        if (v === -1 || v === markdown_inline_QUOTE || v === markdown_inline_APOSTROPHE || v === markdown_inline_LT || v === markdown_inline_EQUALS || v === markdown_inline_BACKTICK)
                            return -1;
                        if (v === markdown_inline_SLASH || v === markdown_inline_GT || isWhitespace(v))
                            break;
                        j++;
                    }
                    state = 'between';
                }
            }
        }
    }
    /** `&name;`, `&#digits;` or `&#xhex;`, decoded into a text node. */
    characterReference(i) {
        let j = i + 1;
        let value;
        if (this.code(j) === markdown_inline_HASH) {
            j++;
            const hex = this.code(j) === 0x58 || this.code(j) === 0x78;
            if (hex)
                j++;
            const digitsStart = j;
            const test = hex ? isHexDigit : markdown_inline_isDigit;
            while (test(this.code(j)) && j - digitsStart < (hex ? 6 : 7))
                j++;
            if (j === digitsStart || this.code(j) !== SEMICOLON)
                return -1;
            value = decodeNumericReference(Number.parseInt(this.src.slice(digitsStart, j), hex ? 16 : 10));
        }
        else {
            while (markdown_inline_isAsciiAlphanumeric(this.code(j)) && j - (i + 1) < 31)
                j++;
            if (j === i + 1 || this.code(j) !== SEMICOLON)
                return -1;
            const name = this.src.slice(i + 1, j);
            if (!Object.hasOwn(HTML_ENTITIES, name))
                return -1;
            value = HTML_ENTITIES[name];
        }
        this.flush(i);
        return this.push({ kind: 'text', start: i, value: value }, j + 1);
    }
    // ——— Emphasis ———
    delimiterRun(i) {
        const char = this.code(i);
        let end = i;
        while (this.code(end) === char)
            end++;
        const previous = i > 0 ? this.code(i - 1) : -1;
        const following = this.code(end);
        const before = flank(previous);
        const after = flank(following);
        // micromark: a neighbouring `~` (GFM strikethrough) also lets a run open or close.
        const open = after === Flank.Other || (after === Flank.Punctuation && before !== Flank.Other) || following === markdown_inline_TILDE;
        const close = before === Flank.Other || (before === Flank.Punctuation && after !== Flank.Other) || previous === markdown_inline_TILDE;
        const length = end - i;
        this.flush(i);
        const delimiter = {
            kind: 'delimiter',
            start: i,
            char,
            length,
            canOpen: char === markdown_inline_STAR ? open : open && (before !== Flank.Other || !close),
            canClose: char === markdown_inline_STAR ? close : close && (after !== Flank.Other || !open),
            remaining: length,
            closing: 0,
            opening: 0,
            previous: this.delimiters,
            next: undefined,
        };
        if (this.delimiters)
            this.delimiters.next = delimiter;
        this.delimiters = delimiter;
        return this.push(delimiter, end);
    }
    /**
     * Matches the delimiters after `bottom` (all, when undefined) into emphasis, as micromark does: each closing run, in
     * order, takes the nearest opening run of its character before it; the rule of three uses the runs' remaining sizes.
     * Runs between a match's ends cannot match any more, and none after `bottom` can once this returns.
     */
    processEmphasis(bottom) {
        if (this.delimiters === bottom)
            return;
        // Where an earlier search for an opener stopped, by closer kind, so no search walks the same runs twice.
        const floors = new Map();
        let closer = bottom ? bottom.next : this.firstDelimiter();
        while (closer) {
            if (!closer.canClose) {
                closer = closer.next;
                continue;
            }
            const key = `${closer.char}:${closer.canOpen}:${closer.remaining % 3}`;
            const floor = floors.has(key) ? floors.get(key) : bottom;
            let opener = closer.previous;
            while (opener && opener !== floor && !this.matches(opener, closer))
                opener = opener.previous;
            if (!opener || opener === floor) {
                floors.set(key, closer.previous);
                const next = closer.next;
                if (!closer.canOpen)
                    this.unlink(closer);
                closer = next;
                continue;
            }
            const use = opener.remaining > 1 && closer.remaining > 1 ? 2 : 1;
            opener.remaining -= use;
            opener.opening += use;
            closer.remaining -= use;
            closer.closing += use;
            // Runs between the two can no longer match.
            opener.next = closer;
            closer.previous = opener;
            if (opener.remaining === 0)
                this.unlink(opener);
            if (closer.remaining === 0) {
                const next = closer.next;
                this.unlink(closer);
                closer = next;
            }
        }
        if (bottom)
            bottom.next = undefined;
        this.delimiters = bottom;
    }
    matches(opener, closer) {
        if (!opener.canOpen || opener.char !== closer.char)
            return false;
        // The rule of three: a run that can both open and close matches only if the sizes do not sum to a multiple of 3.
        return !((opener.canClose || closer.canOpen) && closer.remaining % 3 !== 0 && (opener.remaining + closer.remaining) % 3 === 0);
    }
    firstDelimiter() {
        let first = this.delimiters;
        while (first?.previous)
            first = first.previous;
        return first;
    }
    unlink(delimiter) {
        if (delimiter.previous)
            delimiter.previous.next = delimiter.next;
        if (delimiter.next)
            delimiter.next.previous = delimiter.previous;
        if (this.delimiters === delimiter)
            this.delimiters = delimiter.previous;
    }
    // ——— Links, images and footnote calls ———
    /** `[^label]` naming a defined footnote. */
    footnoteCall(i) {
        if (this.code(i + 1) !== markdown_inline_CARET)
            return -1;
        let j = i + 2;
        let size = 0;
        for (;;) {
            const c = this.code(j);
            if (size > markdown_inline_LABEL_MAX || c === -1 || c === markdown_inline_LBRACKET || isWhitespace(c) || (c === markdown_inline_RBRACKET && size === 0))
                return -1;
            if (c === markdown_inline_RBRACKET)
                break;
            j++;
            size++;
            if (c === markdown_inline_BACKSLASH && (this.code(j) === markdown_inline_LBRACKET || this.code(j) === markdown_inline_BACKSLASH || this.code(j) === markdown_inline_RBRACKET)) {
                j++;
                size++;
            }
        }
        if (!this.footnoteLabel(i + 1, j))
            return -1;
        this.flush(i);
        this.lastLabel = i;
        return this.push({ kind: 'footnote', start: i }, j + 1);
    }
    openBracket(i, image) {
        const end = i + (image ? 2 : 1);
        this.flush(i);
        const bracket = { image, start: end - 1, node: this.nodes.length, delimiters: this.delimiters };
        this.brackets.push(bracket);
        this.lastLabel = bracket;
        this.nodes.push({ kind: 'text', start: i, value: this.src.slice(i, end) });
        this.run = end;
        return end;
    }
    closeBracket(i) {
        const brackets = this.brackets;
        const bracket = brackets[brackets.length - 1];
        if (!bracket)
            return -1;
        if (!bracket.image && brackets.length - 1 < this.linksInactiveBelow) {
            brackets.pop();
            this.linksInactiveBelow = brackets.length;
            return -1;
        }
        const defined = this.defined(bracket.start, i);
        let end = -1;
        let reference = false;
        const after = this.code(i + 1);
        if (after === markdown_inline_LPAREN) {
            end = this.resource(i + 1);
            if (end < 0 && defined)
                [end, reference] = [i + 1, true];
        }
        else if (after === markdown_inline_LBRACKET) {
            const close = this.referenceLabel(i + 1);
            if (close >= 0 && this.defined(i + 1, close))
                [end, reference] = [close + 1, true];
            else if (defined && this.code(i + 2) === markdown_inline_RBRACKET)
                [end, reference] = [i + 3, true];
        }
        else if (defined) {
            [end, reference] = [i + 1, true];
        }
        brackets.pop();
        this.linksInactiveBelow = Math.min(this.linksInactiveBelow, brackets.length);
        if (end < 0) {
            if (bracket.image && this.lastLabel === bracket && this.footnoteLabel(bracket.start + 1, i)) {
                // micromark reads `![^label]` naming a footnote as `!` and a footnote call.
                this.nodes.length = bracket.node + 1;
                this.nodes[bracket.node].value = '!';
                this.nodes.push({ kind: 'footnote', start: bracket.start });
                if (bracket.delimiters)
                    bracket.delimiters.next = undefined;
                this.delimiters = bracket.delimiters;
                this.lastLabel = bracket.start;
                this.run = i + 1;
                return i + 1;
            }
            return -1;
        }
        this.flush(i);
        this.processEmphasis(bracket.delimiters);
        const children = this.nodes.splice(bracket.node + 1);
        this.nodes.pop();
        const kind = bracket.image ? (reference ? 'imageReference' : 'image') : reference ? 'linkReference' : 'link';
        const start = bracket.image ? bracket.start - 1 : bracket.start;
        this.nodes.push({ kind, start, children });
        this.lastLabel = bracket;
        if (!bracket.image)
            this.linksInactiveBelow = brackets.length;
        this.run = end;
        return end;
    }
    /** Whether `^label` from `start` to `end` names a footnote. */
    footnoteLabel(start, end) {
        return this.code(start) === markdown_inline_CARET && this.context.footnotes.has(normalizeLabel(this.src.slice(start + 1, end)));
    }
    /** Whether the label between `[` at `open` and `]` at `close` names a link reference definition. */
    defined(open, close) {
        if (this.context.definitions.size === 0)
            return false;
        // A definition's label holds no unescaped bracket, so a label that does cannot match one.
        this.bracketPositions ??= new Positions(this.src, markdown_inline_LBRACKET, markdown_inline_RBRACKET);
        if (this.bracketPositions.between(open, close))
            return false;
        return this.context.definitions.has(normalizeLabel(this.src.slice(open + 1, close)));
    }
    /** A link label `[…]` at `i`: the offset of its `]`, or -1. */
    referenceLabel(i) {
        let j = i + 1;
        let size = 0;
        let seen = false;
        for (;;) {
            const c = this.code(j);
            if (size > markdown_inline_LABEL_MAX || c === -1 || c === markdown_inline_LBRACKET || (c === markdown_inline_RBRACKET && !seen))
                return -1;
            if (c === markdown_inline_RBRACKET)
                return j;
            j++;
            if (isLineEnding(c))
                continue;
            size++;
            if (!markdown_inline_isSpace(c))
                seen = true;
            if (c === markdown_inline_BACKSLASH && (this.code(j) === markdown_inline_LBRACKET || this.code(j) === markdown_inline_BACKSLASH || this.code(j) === markdown_inline_RBRACKET)) {
                j++;
                size++;
            }
        }
    }
    /** An inline link's `(destination "title")` at `i`: the offset after `)`, or -1. */
    resource(i) {
        let j = this.skipWhitespace(i + 1);
        if (this.code(j) === markdown_inline_RPAREN)
            return j + 1;
        if (this.code(j) === markdown_inline_LT) {
            j++;
            for (;;) {
                const c = this.code(j);
                if (c === markdown_inline_GT)
                    break;
                if (c === -1 || c === markdown_inline_LT || isLineEnding(c))
                    return -1;
                j++;
                if (c === markdown_inline_BACKSLASH && (this.code(j) === markdown_inline_LT || this.code(j) === markdown_inline_GT || this.code(j) === markdown_inline_BACKSLASH))
                    j++;
            }
            j++;
        }
        else {
            const first = this.code(j);
            if (first === -1 || first === markdown_inline_SPACE || first === markdown_inline_RPAREN || markdown_inline_isControl(first))
                return -1;
            let balance = 0;
            for (;;) {
                const c = this.code(j);
                if (balance === 0 && (c === -1 || c === markdown_inline_RPAREN || isWhitespace(c)))
                    break;
                if (c === markdown_inline_LPAREN && balance < DESTINATION_BALANCE_MAX)
                    balance++;
                else if (c === markdown_inline_RPAREN)
                    balance--;
                else if (c === -1 || c === markdown_inline_SPACE || c === markdown_inline_LPAREN || markdown_inline_isControl(c))
                    return -1;
                j++;
                if (c === markdown_inline_BACKSLASH && (this.code(j) === markdown_inline_LPAREN || this.code(j) === markdown_inline_RPAREN || this.code(j) === markdown_inline_BACKSLASH))
                    j++;
            }
        }
        if (isWhitespace(this.code(j))) {
            j = this.skipWhitespace(j);
            const open = this.code(j);
            if (open === markdown_inline_QUOTE || open === markdown_inline_APOSTROPHE || open === markdown_inline_LPAREN) {
                const close = this.unescaped(open === markdown_inline_LPAREN ? markdown_inline_RPAREN : open).next(j + 1);
                if (close < 0)
                    return -1;
                j = this.skipWhitespace(close + 1);
            }
        }
        return this.code(j) === markdown_inline_RPAREN ? j + 1 : -1;
    }
    skipWhitespace(i) {
        let j = i;
        while (isWhitespace(this.code(j)))
            j++;
        return j;
    }
    // ——— Summary ———
    summarize(nodes, out) {
        for (const node of nodes) {
            switch (node.kind) {
                case 'text':
                    out.plain += node.value;
                    if (!out.letters && LETTER.test(node.value))
                        out.letters = true;
                    break;
                case 'delimiter':
                    out.plain += String.fromCharCode(node.char).repeat(node.length - node.closing - node.opening);
                    break;
                case 'code':
                    out.plain += node.value;
                    break;
                case 'break':
                    out.plain += ' ';
                    break;
                case 'link':
                case 'linkReference':
                    this.summarize(node.children, out);
                    break;
                case 'image': {
                    const alt = altText(node.children);
                    out.plain += alt;
                    if (!out.letters && LETTER.test(alt))
                        out.letters = true;
                    break;
                }
                // Inline HTML, footnote calls and image references show no text of their own here (as in mdast's phrasing).
            }
        }
    }
    /**
     * Where the first node starts. After a task-list check mdast drops the first character of the text node that follows
     * (the space); a text node that held only that character is dropped, and the next node comes first.
     */
    firstStart(nodes, checked) {
        if (!checked)
            return this.docOffset(0);
        const pieces = topLevelPieces(nodes);
        const first = pieces[0];
        if (!first)
            return 0;
        if (first.kind !== 'text')
            return this.docOffset(first.start);
        let length = 0;
        let k = 0;
        for (; k < pieces.length && pieces[k].kind === 'text'; k++)
            length += pieces[k].length;
        if (length > 1)
            return this.docOffset(first.start) + 1;
        const next = pieces[k];
        return next ? this.docOffset(next.start) : 0;
    }
}
/** Top-level nodes as text pieces (merged by mdast when adjacent), other nodes, and emphasis marks. */
function topLevelPieces(nodes) {
    const pieces = [];
    for (const node of nodes) {
        if (node.kind === 'text') {
            pieces.push({ kind: 'text', start: node.start, length: node.value.length });
        }
        else if (node.kind === 'delimiter') {
            // Characters taken by emphasis start or end an emphasis node; the rest are text.
            if (node.closing)
                pieces.push({ kind: 'other', start: node.start, length: 0 });
            const text = node.length - node.closing - node.opening;
            if (text)
                pieces.push({ kind: 'text', start: node.start + node.closing, length: text });
            if (node.opening)
                pieces.push({ kind: 'other', start: node.start + node.length - node.opening, length: 0 });
        }
        else {
            pieces.push({ kind: 'other', start: node.start, length: 0 });
        }
    }
    return pieces;
}
/** An image's description as mdast gives it: the text of its content, inline code and HTML included, breaks dropped. */
function altText(nodes) {
    let out = '';
    for (const node of nodes) {
        if (node.kind === 'text' || node.kind === 'code' || node.kind === 'html')
            out += node.value;
        else if (node.kind === 'delimiter')
            out += String.fromCharCode(node.char).repeat(node.length - node.closing - node.opening);
        else if ('children' in node)
            out += altText(node.children);
    }
    return out;
}
/** micromark's decoding of `&#…;`: code points HTML does not allow become U+FFFD. */
function decodeNumericReference(code) {
    if (code < 9 ||
        code === 11 ||
        (code > 13 && code < 32) ||
        (code > 126 && code < 160) ||
        (code > 55_295 && code < 57_344) ||
        (code > 64_975 && code < 65_008) ||
        (code & 65_535) === 65_535 ||
        (code & 65_535) === 65_534 ||
        code > 1_114_111) {
        return '\uFFFD';
    }
    return String.fromCodePoint(code);
}

;// CONCATENATED MODULE: ./src/core/formats/markdown.ts
// The `markdown` codec: a document split into block segments (headings, paragraphs, list items, quotes, table cells, front-matter strings), spliced back in place.







/*
 * Keys. A body segment's key is `<section>.<kind><n>`: the section is the GitHub-style slug of the nearest heading above
 * (`intro` before the first heading; repeated slugs get `-1`, `-2`), and n counts that kind within the section. Kinds:
 * `heading` (the section's own heading), `p` (paragraph), `li` (paragraph in a list item), `quote` (paragraph in a
 * blockquote), `note` (paragraph in a footnote definition), and `table<n>.r<row>c<col>` for cells (row 1 is the header).
 * Editing a block's text changes only its source; inserting or removing a block renumbers only the blocks of its kind
 * after it in the same section; editing a heading re-keys its own section. Front-matter strings are
 * `frontmatter.<yaml path>`. `intro` and `frontmatter` are reserved, so a heading "Intro" is section `intro-1`.
 *
 * Segment text is the block's Markdown source: inline markup, inline code, URLs and HTML stay in it untouched (a later
 * gate checks them). Continuation lines lose their container prefixes (`> `, list indentation) and lines join with
 * `\n`. Blocks with no letters in their text (code-only, numbers, images without alt) are not segments.
 *
 * Writing a changed value keeps the block one block of the same kind: new lines get the block's continuation prefix;
 * blank lines and line-edge spaces, which Markdown would drop or which would split the block, are dropped; a line that
 * would open another block (`# `, `> `, `- `, `1. `, fences, `---`, `===`, HTML block starts, definitions, table
 * delimiter rows) gets a backslash before its marker; in table cells `|` is escaped and line breaks become `<br>`;
 * ATX headings put line breaks as spaces and escape a trailing `#` run. Those escapes are part of the text read back.
 *
 * Reading: markdown-blocks.ts finds the blocks (CommonMark 0.31 and GFM), markdown-inline.ts what a block's text shows
 * (letters, heading slugs); both are linear in the document's length.
 *
 * Missing values: a document has no per-key fallback, and removing a block would change the document's structure
 * (lists renumber, paragraphs merge, table rows lose cells), so `missing: 'omit'` keeps the source text like 'source'.
 */
// CommonMark sets no nesting limit; a line opening more containers than this is not a document worth reading.
const MAX_LINE_MARKERS = 100;
/** Line lookups over the decoded text, with the refusal that names a line and column. */
class Lines extends LineIndex {
    fail(message, offset) {
        const { line, column } = this.at(offset);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    }
}
/** Where the line holding `offset` ends (before its line break). */
function lineEndAt(text, offset) {
    let i = offset;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r')
        i++;
    return i;
}
function lineBreakAfter(text, offset) {
    const end = lineEndAt(text, offset);
    return text.startsWith('\r\n', end) ? '\r\n' : (text[end] ?? '');
}
/** Column with tabs expanded to multiples of four, as CommonMark measures indentation. */
function visualColumn(text, from, to) {
    let column = 0;
    for (let i = from; i < to; i++)
        column = text[i] === '\t' ? column + 4 - (column % 4) : column + 1;
    return column;
}
// ——— Reading ———
function scanMarkdown(bytes) {
    const { text, bom } = decodeUtf8(bytes);
    const lines = new Lines(text);
    const nul = text.indexOf('\u0000');
    if (nul >= 0)
        lines.fail('Expected text, found a NUL character (is this a binary file?)', nul);
    guardNesting(text, lines);
    const blocks = parseMarkdownBlocks(text);
    const eol = lineBreakAfter(text, 0) || '\n';
    const segments = [];
    const front = blocks.frontMatter;
    if (front?.kind === 'yaml') {
        try {
            segments.push(...frontMatterSegments(text, front, lines, eol));
        }
        catch (error) {
            // The yaml parser recurses per nested collection, and implicit keys on one line (`a: b: c: …`) nest too.
            if (error instanceof RangeError)
                lines.fail('Expected less deeply nested YAML in the front matter', front.contentStart);
            throw error;
        }
    }
    else if (front?.kind === 'toml') {
        lines.fail("TOML front matter ('+++') is not supported; expected YAML front matter between '---' lines", 0);
    }
    else if (/^---[ \t]*(?:\r\n|\r|\n)[ \t]*[A-Za-z_][\w .-]*:(?:[ \t]|\r|\n|$)/.test(text)) {
        lines.fail("Expected a closing '---' line for the front matter that opens", 0);
    }
    try {
        segments.push(...bodySegments(text, blocks, lines, eol));
    }
    catch (error) {
        if (error instanceof RangeError)
            throw new file_unparsable_error/* FileUnparsableError */.w('Expected less deeply nested Markdown at line 1, column 1', 1, 1);
        throw error;
    }
    return { text, bom, segments };
}
/** Refuses lines with absurdly many container markers. */
function guardNesting(text, lines) {
    for (const start of lines.starts) {
        let i = start;
        let count = 0;
        for (;;) {
            while (text[i] === ' ' || text[i] === '\t')
                i++;
            const c = text[i];
            let next = -1;
            if (c === '>')
                next = i + 1;
            else if ((c === '-' || c === '+' || c === '*') && (text[i + 1] === ' ' || text[i + 1] === '\t'))
                next = i + 2;
            else {
                const ordered = /^\d{1,9}[.)][ \t]/.exec(text.slice(i, i + 12));
                if (ordered)
                    next = i + ordered[0].length;
            }
            if (next < 0)
                break;
            if (++count > MAX_LINE_MARKERS)
                lines.fail(`Expected at most ${MAX_LINE_MARKERS} nested blockquote or list markers on one line`, i);
            i = next;
        }
    }
}
/** Index of a continuation line's content: past the containers' markers and indentation, and the line's own spaces. */
function contentStart(text, lineStart, lineEnd, containers) {
    let i = lineStart;
    let column = 0;
    const blank = () => text[i] === ' ' || text[i] === '\t';
    const advance = () => {
        column = text[i] === '\t' ? column + 4 - (column % 4) : column + 1;
        i++;
    };
    for (const container of containers) {
        if (container.kind === 'indent') {
            while (i < lineEnd && column < container.column && blank())
                advance();
            if (column < container.column)
                break; // a lazy line: the rest is paragraph text
        }
        else {
            const base = column;
            while (i < lineEnd && blank() && column - base < 4)
                advance();
            if (column - base > 3 || text[i] !== '>')
                break;
            advance();
            if (blank())
                advance();
        }
    }
    while (i < lineEnd && (text[i] === ' ' || text[i] === '\t'))
        i++;
    return i;
}
/** The prefix for a new line in a block whose source has a single line: its containers, with list markers as spaces. */
function canonicalPrefix(containers) {
    let out = '';
    for (const container of containers) {
        out = out.padEnd(container.column, ' ');
        if (container.kind === 'quote')
            out += '> ';
    }
    return out;
}
/** Reads a paragraph-like range line by line, dropping container prefixes from continuation lines. */
function readLines(text, start, end, containers) {
    const parts = [];
    let prefix;
    let eol;
    let at = start;
    for (;;) {
        const lineEnd = Math.min(lineEndAt(text, at), end);
        parts.push(text.slice(at, lineEnd));
        if (lineEnd >= end)
            break;
        const lineBreak = text.startsWith('\r\n', lineEnd) ? '\r\n' : text[lineEnd];
        const next = lineEnd + lineBreak.length;
        at = contentStart(text, next, Math.min(lineEndAt(text, next), end), containers);
        if (prefix === undefined)
            [prefix, eol] = [text.slice(next, at), lineBreak];
    }
    return { source: parts.join('\n'), prefix, eol };
}
/** GitHub-style heading slugs, made unique in order of appearance. */
class Sections {
    used = new Set(['intro', 'frontmatter']);
    current = 'intro';
    counts = new Map();
    /** The suffix to try next for a repeated slug: all below it are taken, so many equal headings stay linear. */
    suffixes = new Map();
    enter(headingText) {
        const base = [...headingText.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')]
            .slice(0, 64)
            .join('') || 'section';
        let slug = base;
        if (this.used.has(slug)) {
            let n = this.suffixes.get(base) ?? 1;
            while (this.used.has(`${base}-${n}`))
                n++;
            slug = `${base}-${n}`;
            this.suffixes.set(base, n + 1);
        }
        this.used.add(slug);
        this.counts.clear();
        this.current = slug;
        return slug;
    }
    next(kind) {
        const n = (this.counts.get(kind) ?? 0) + 1;
        this.counts.set(kind, n);
        return `${kind}${n}`;
    }
}
function bodySegments(text, document, lines, eol) {
    const out = [];
    const sections = new Sections();
    const context = { definitions: document.definitions, footnotes: document.footnotes };
    /** The containers around the block being visited, outermost first. */
    const containers = [];
    const segment = (path, kind, start, end, extra) => ({
        key: path.join('.'),
        path,
        kind,
        start,
        end,
        source: text.slice(start, end),
        ...lines.at(start),
        prefix: '',
        eol,
        taskable: false,
        docStart: start === 0,
        rowStart: false,
        next: text[end] ?? '',
        ...extra,
    });
    /** A heading or paragraph, from where its first inline node starts to its content's end. */
    const lineBlock = (path, kind, start, ranges, taskable) => {
        const end = ranges[ranges.length - 1];
        const read = readLines(text, start, end, containers);
        return segment(path, kind, start, end, {
            source: read.source,
            prefix: read.prefix ?? canonicalPrefix(containers),
            eol: read.eol ?? eol,
            taskable,
        });
    };
    const within = (container, block) => {
        containers.push(container);
        block.children.forEach((child, i) => visit(child, block, i === 0));
        containers.pop();
    };
    const visit = (block, parent, first) => {
        switch (block.type) {
            case 'heading': {
                const inline = block.lines.length > 0 ? readInline(text, block.lines, context, false) : undefined;
                const slug = sections.enter(inline?.plain ?? '');
                if (!inline?.letters)
                    return;
                out.push(lineBlock([slug, 'heading'], block.setext ? 'setext' : 'atx', inline.start, block.lines, false));
                return;
            }
            case 'paragraph': {
                const inline = readInline(text, block.lines, context, block.taskCandidate);
                if (!inline.letters)
                    return;
                const kind = parent?.type === 'item' ? 'li' : parent?.type === 'quote' ? 'quote' : parent?.type === 'footnote' ? 'note' : 'p';
                // A first paragraph that is not a task item would become one if its text started with `[ ] `.
                const taskable = parent?.type === 'item' && first && inline.checked === undefined;
                out.push(lineBlock([sections.current, sections.next(kind)], 'paragraph', inline.start, block.lines, taskable));
                return;
            }
            case 'table': {
                const table = sections.next('table');
                block.rows.forEach((row, r) => {
                    const rowStart = text[row.start] !== '|';
                    row.cells.forEach((cell, c) => {
                        if (!cell || !readInline(text, cell, context, false).letters)
                            return;
                        out.push(segment([sections.current, table, `r${r + 1}c${c + 1}`], 'cell', cell[0], cell[1], { rowStart: rowStart && c === 0 }));
                    });
                });
                return;
            }
            case 'quote':
                within({ kind: 'quote', column: visualColumn(text, lines.lineStartOf(block.marker), block.marker) }, block);
                return;
            case 'item':
                within({ kind: 'indent', column: block.column }, block);
                return;
            case 'footnote':
                within({ kind: 'indent', column: visualColumn(text, lines.lineStartOf(block.label), block.label) + 4 }, block);
                return;
            case 'opaque':
                // Code, HTML, definitions and thematic breaks hold nothing to translate.
                return;
        }
    };
    for (const block of document.blocks)
        visit(block, undefined, false);
    return out;
}
// Front-matter fields that hold machine data rather than prose (compared lowercased, without `-` and `_`).
const MACHINE_KEYS = new Set([
    'layout', 'slug', 'permalink', 'url', 'uri', 'link', 'href', 'src', 'image', 'images', 'img', 'thumbnail', 'cover',
    'banner', 'icon', 'logo', 'avatar', 'date', 'lastmod', 'updated', 'created', 'modified', 'publishdate', 'pubdate',
    'expirydate', 'draft', 'published', 'id', 'uuid', 'lang', 'language', 'locale', 'template', 'type', 'kind', 'weight',
    'order', 'aliases', 'redirectfrom', 'redirectto', 'canonical', 'canonicalurl', 'file', 'filename', 'path', 'email',
    'version', 'theme', 'class', 'classes', 'style', 'color', 'sidebarposition',
]);
/**
 * Whether a front-matter string is prose to translate: not under a machine key, not a URL, path, date or e-mail, and
 * not a plain `yes`/`off`/`n`, which YAML 1.1 readers (Jekyll's) take as booleans.
 */
function isProse(field, value, plain) {
    if (MACHINE_KEYS.has(field.toLowerCase().replace(/[-_]/g, '')))
        return false;
    if (!/\p{L}/u.test(value))
        return false;
    if (plain && /^(?:y|yes|n|no|on|off)$/i.test(value))
        return false;
    if (/^(?:[a-z][a-z0-9+.-]*:\/\/|mailto:|\.{0,2}\/|~\/)/i.test(value) || /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(value))
        return false;
    return !/^\d{4}-\d{2}-\d{2}/.test(value);
}
function frontMatterSegments(text, front, lines, eol) {
    const { contentStart, closeStart } = front;
    const source = contentStart < closeStart ? text.slice(contentStart, closeStart) : '';
    const doc = (0,dist/* parseDocument */.Tp)(source, { prettyErrors: false, uniqueKeys: true });
    const error = doc.errors[0];
    if (error)
        lines.fail(`Expected valid YAML in the front matter (${error.message.replace(/\.$/, '')})`, contentStart + error.pos[0]);
    if (doc.contents === null)
        return [];
    if (!(0,dist/* isMap */.jh)(doc.contents)) {
        lines.fail('Expected the front matter to be a YAML mapping (key: value lines)', contentStart + (doc.contents.range?.[0] ?? 0));
    }
    const out = [];
    const seen = new Map();
    const walk = (value, path, field, inFlow) => {
        if (!value || (0,dist/* isAlias */.Vj)(value))
            return;
        if ((0,dist/* isMap */.jh)(value)) {
            for (const pair of value.items) {
                if ((0,dist/* isScalar */.jn)(pair.key) && pair.key.value !== null && typeof pair.key.value !== 'object') {
                    const name = String(pair.key.value);
                    walk(pair.value, [...path, name], name, value.flow === true);
                }
            }
        }
        else if ((0,dist/* isSeq */.oP)(value)) {
            value.items.forEach((item, i) => walk(item, [...path, String(i)], field, value.flow === true));
        }
        else if ((0,dist/* isScalar */.jn)(value) && typeof value.value === 'string' && (!value.tag || value.tag === 'tag:yaml.org,2002:str')) {
            if (!isProse(field, value.value, value.type === 'PLAIN') || !value.range)
                return;
            const start = contentStart + value.range[0];
            const end = contentStart + value.range[1];
            const key = path.join('.');
            const first = seen.get(key);
            if (first !== undefined) {
                lines.fail(`The front matter paths for line ${first} and this one both give the key ${JSON.stringify(key)}; rename one of them`, start);
            }
            const position = lines.at(start);
            seen.set(key, position.line);
            const raw = text.slice(start, end);
            const lineStart = lines.lineStartOf(start);
            const lineIndent = /^ */.exec(text.slice(lineStart, start))[0];
            const blockIndent = /(?:\r\n|\r|\n)( +)[^ \r\n]/.exec(raw)?.[1];
            out.push({
                key,
                path,
                kind: 'yaml',
                start,
                end,
                source: value.value,
                ...position,
                prefix: '',
                eol,
                taskable: false,
                docStart: false,
                rowStart: false,
                next: text[end] ?? '',
                yaml: {
                    style: value.type,
                    inFlow,
                    indent: blockIndent ?? `${lineIndent}  `,
                    eol,
                    endsWithEol: /[\r\n]$/.test(raw),
                },
            });
        }
    };
    walk(doc.contents, ['frontmatter'], '', false);
    return out;
}
// ——— Writing ———
/** Line-start syntax that opens a block anywhere a block may start. */
const markdown_HTML_BLOCK_NAMES = 'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
    'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|' +
    'menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
// CommonMark HTML block start conditions 1 to 6, which may interrupt a paragraph.
const HTML_INTERRUPTING = new RegExp(`^<(?:(?:script|pre|style|textarea)(?:[ \\t>]|$)|!--|\\?|![A-Za-z]|!\\[CDATA\\[|\\/?(?:${markdown_HTML_BLOCK_NAMES})(?:[ \\t>]|\\/>|$))`, 'i');
// Condition 7: a lone complete tag on its line; it starts a block but cannot interrupt a paragraph.
const HTML_LONE_TAG = /^(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/;
const TABLE_DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/**
 * Backslash-escapes the marker of a line that would open another block. `first` is a block's first line (where any
 * block may start), `continuation` a later line (where only blocks that interrupt a paragraph count), `cell` both.
 */
function escapeLineStart(line, mode, taskable = false, docStart = false) {
    const first = mode !== 'continuation';
    const later = mode !== 'first';
    const escaped = `\\${line}`;
    if (/^#{1,6}(?:[ \t]|$)/.test(line) || line.startsWith('>'))
        return escaped;
    if (/^(?:`{3,}[^`]*$|~{3,})/.test(line))
        return escaped;
    if (/^([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line))
        return escaped;
    if (first && /^[-+*](?:[ \t]|$)/.test(line))
        return escaped;
    if (later && (/^[-+*][ \t]+[^ \t]/.test(line) || /^(?:=+|-+)[ \t]*$/.test(line)))
        return escaped;
    if ((first && /^\d{1,9}[.)](?:[ \t]|$)/.test(line)) || (later && /^1[.)][ \t]+[^ \t]/.test(line))) {
        return line.replace(/^(\d+)/, '$1\\');
    }
    if (HTML_INTERRUPTING.test(line) || (first && HTML_LONE_TAG.test(line)))
        return escaped;
    if (/^\[\^[^\]]+\]:/.test(line) || (first && /^\[(?:\\.|[^\\\]])+\]:/.test(line)))
        return escaped;
    if (later && TABLE_DELIMITER_ROW.test(line))
        return escaped;
    if (first && taskable && /^\[[ xX]\](?:[ \t]|$)/.test(line))
        return escaped;
    if (first && docStart && /^\+{3}[ \t]*$/.test(line))
        return escaped;
    return line;
}
/** NUL would make the file unreadable (CommonMark reads it as U+FFFD anyway); line breaks become `\n`. */
function clean(value) {
    return value.replace(/\0/g, '\uFFFD').replace(/\r\n?/g, '\n');
}
/** A paragraph or setext heading's text; undefined when nothing is left to write (a block cannot be empty). */
function writeLines(value, prefix, eol, taskable, docStart) {
    const lines = clean(value)
        .split('\n')
        .map((line) => line.replace(/^[ \t]+/, ''))
        .filter((line) => line !== '');
    if (lines.length === 0)
        return undefined;
    lines[lines.length - 1] = lines[lines.length - 1].replace(/[ \t]+$/, '');
    return lines.map((line, i) => escapeLineStart(line, i === 0 ? 'first' : 'continuation', taskable, docStart)).join(eol + prefix);
}
function writeAtx(value) {
    const text = clean(value)
        .replace(/[ \t]*\n[ \t]*/g, ' ')
        .replace(/^[ \t]+|[ \t]+$/g, '');
    // A trailing `#` run after a space would be read as the closing sequence.
    return text.replace(/(^|[ \t])(#+)$/, '$1\\$2');
}
function escapePipes(text) {
    let out = '';
    let backslashes = 0;
    for (const c of text) {
        if (c === '|' && backslashes % 2 === 0)
            out += '\\';
        out += c;
        backslashes = c === '\\' ? backslashes + 1 : 0;
    }
    return out;
}
function writeCell(value, rowStart, next) {
    let text = escapePipes(clean(value)
        .replace(/[ \t]*\n[ \t]*/g, '<br>')
        .replace(/^[ \t]+|[ \t]+$/g, ''));
    if (rowStart)
        text = escapeLineStart(text, 'cell');
    // An odd run of backslashes right before the closing pipe would escape it.
    if (next === '|' && /(?:^|[^\\])(?:\\\\)*\\$/.test(text))
        text += ' ';
    return text;
}
// YAML's printable set, plus the characters YAML 1.1 readers take as line breaks.
// eslint-disable-next-line no-control-regex
const YAML_UNPRINTABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function yamlDoubleQuoted(value) {
    let out = '"';
    for (const c of value) {
        if (c === '"' || c === '\\')
            out += `\\${c}`;
        else if (c === '\n')
            out += '\\n';
        else if (c === '\t')
            out += '\\t';
        else if (c === '\r')
            out += '\\r';
        else if (YAML_UNPRINTABLE.test(c))
            out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
        else
            out += c;
    }
    return `${out}"`;
}
/** Whether a value reads back as the same string when written plain, by YAML 1.2 and by 1.1 readers (Jekyll). */
function plainYamlOk(value, inFlow) {
    if (value === '' || /^[ \t]|[ \t]$/.test(value) || /[\n\r\t]/.test(value) || YAML_UNPRINTABLE.test(value))
        return false;
    if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) || /:(?:[ \t]|$)|[ \t]#/.test(value))
        return false;
    if (inFlow && /[,[\]{}]/.test(value))
        return false;
    return ['1.2', '1.1'].every((version) => {
        const doc = (0,dist/* parseDocument */.Tp)(value, { version });
        return doc.errors.length === 0 && doc.toJS() === value;
    });
}
/** A block scalar in the source's style, or undefined when the value needs quoting to survive exactly. */
function yamlBlock(value, info) {
    if (/\r/.test(value) || YAML_UNPRINTABLE.test(value))
        return undefined;
    const core = value.replace(/\n+$/, '');
    const trailing = value.length - core.length;
    // Keep chomping (`|+`) would also swallow blank lines that follow the scalar in the file.
    if (core === '' || trailing > 1)
        return undefined;
    const lines = core.split('\n');
    // A first content line starting with a space would need an indentation indicator.
    if (/^[ \t]/.test(lines.find((line) => line !== '')))
        return undefined;
    const header = (info.style === 'BLOCK_FOLDED' && lines.length === 1 ? '>' : '|') + (trailing === 0 ? '-' : '');
    const body = lines.map((line) => (line === '' ? '' : info.indent + line)).join(info.eol);
    return `${header}${info.eol}${body}${info.endsWithEol ? info.eol : ''}`;
}
function writeYaml(value, info) {
    const quoted = () => yamlDoubleQuoted(value) + (info.endsWithEol ? info.eol : '');
    switch (info.style) {
        case 'BLOCK_LITERAL':
        case 'BLOCK_FOLDED':
            return yamlBlock(value, info) ?? quoted();
        case 'PLAIN':
            return plainYamlOk(value, info.inFlow) ? value : quoted();
        case 'QUOTE_SINGLE':
            return /[\n\r\t]/.test(value) || YAML_UNPRINTABLE.test(value) ? quoted() : `'${value.replace(/'/g, "''")}'`;
        default:
            return quoted();
    }
}
/** The text that replaces a segment's range, or undefined to keep the source. */
function writeSegment(segment, value) {
    switch (segment.kind) {
        case 'atx':
            return writeAtx(value);
        case 'setext':
        case 'paragraph':
            return writeLines(value, segment.prefix, segment.eol, segment.taskable, segment.docStart);
        case 'cell':
            return writeCell(value, segment.rowStart, segment.next);
        case 'yaml':
            return writeYaml(value, segment.yaml);
    }
}
/** Builds the front matter's tree from dotted paths; a path under an earlier leaf stays a dotted key beside it. */
function insertYaml(tree, segments, value) {
    let node = tree;
    for (let i = 0; i < segments.length - 1; i++) {
        const existing = node.get(segments[i]);
        if (typeof existing === 'string') {
            node.set(segments.slice(i).join('.'), value);
            return;
        }
        if (existing === undefined) {
            const child = new Map();
            node.set(segments[i], child);
            node = child;
        }
        else {
            node = existing;
        }
    }
    const last = segments[segments.length - 1];
    // A leaf whose name is already a mapping cannot be written beside it; it is left out.
    if (!(node.get(last) instanceof Map))
        node.set(last, value);
}
function writeYamlTree(tree, indent) {
    const keys = [...tree.keys()];
    const sequence = keys.every((key, i) => key === String(i));
    let out = '';
    for (const [key, value] of tree) {
        const scalar = (text) => (plainYamlOk(text, false) ? text : yamlDoubleQuoted(text));
        const name = sequence ? '-' : `${/^[A-Za-z_][\w-]*$/.test(key) && plainYamlOk(key, false) ? key : yamlDoubleQuoted(key)}:`;
        if (typeof value === 'string')
            out += `${indent}${name} ${scalar(value)}\n`;
        else if (sequence)
            out += `${indent}- ${writeYamlTree(value, `${indent}  `).slice(indent.length + 2)}`;
        else
            out += `${indent}${name}\n${writeYamlTree(value, `${indent}  `)}`;
    }
    return out;
}
const BODY_KEY = /^(.*)\.(heading|(?:p|li|quote|note)\d+)$/;
const CELL_KEY = /^(.*)\.(table\d+)\.r(\d+)c(\d+)$/;
/** Writes body entries as blocks by their key's kind; keys outside the scheme become paragraphs. */
function writeBody(entries, docStart) {
    const blocks = [];
    let headings = 0;
    let notes = 0;
    let section = 'intro';
    const heading = (text) => {
        blocks.push(`${headings++ === 0 ? '#' : '##'} ${text}`.trimEnd());
    };
    for (let i = 0; i < entries.length;) {
        const [key, value] = entries[i];
        const cell = CELL_KEY.exec(key);
        const body = BODY_KEY.exec(key);
        const keySection = cell?.[1] ?? body?.[1];
        if (keySection !== undefined && keySection !== section) {
            section = keySection;
            // Headings without letters give no entry; their text is the slug itself (or nothing), so it can be written back.
            if (body?.[2] !== 'heading') {
                if (/^section(?:-\d+)?$/.test(section))
                    heading('');
                else if (section !== 'intro' && !/\p{L}/u.test(section))
                    heading(section);
            }
        }
        if (cell) {
            const grid = [];
            let columns = 1;
            for (; i < entries.length; i++) {
                const m = CELL_KEY.exec(entries[i][0]);
                if (!m || m[1] !== cell[1] || m[2] !== cell[2])
                    break;
                const [r, c] = [Number(m[3]) - 1, Number(m[4]) - 1];
                if (r > 10_000 || c > 1_000)
                    continue;
                (grid[r] ??= [])[c] = writeCell(entries[i][1], false, '|');
                columns = Math.max(columns, c + 1);
            }
            const row = (cells) => `| ${Array.from({ length: columns }, (_, c) => cells?.[c] ?? '').join(' | ')} |`;
            const rows = Array.from({ length: Math.max(grid.length, 1) }, (_, r) => row(grid[r]));
            rows.splice(1, 0, `|${' --- |'.repeat(columns)}`);
            blocks.push(rows.join('\n'));
            continue;
        }
        const kind = BODY_KEY.exec(key)?.[2]?.replace(/\d+$/, '') ?? 'p';
        if (kind === 'li' || kind === 'quote' || kind === 'note') {
            // Consecutive list items of one section make one list; quotes and notes stay separate blocks.
            const items = [];
            const section = BODY_KEY.exec(key)[1];
            for (; i < entries.length; i++) {
                const m = BODY_KEY.exec(entries[i][0]);
                if (!m || m[1] !== section || m[2].replace(/\d+$/, '') !== kind)
                    break;
                const marker = kind === 'li' ? '- ' : kind === 'quote' ? '> ' : `[^${notes + 1}]: `;
                const text = writeLines(entries[i][1], kind === 'li' ? '  ' : kind === 'quote' ? '> ' : '    ', '\n', kind === 'li', false);
                if (text === undefined)
                    continue;
                if (kind === 'note')
                    notes++;
                items.push(marker + text);
            }
            if (items.length)
                blocks.push(...(kind === 'li' ? [items.join('\n')] : items));
            continue;
        }
        i++;
        if (kind === 'heading')
            heading(writeAtx(value));
        else {
            const text = writeLines(value, '', '\n', false, docStart && blocks.length === 0);
            if (text !== undefined)
                blocks.push(text);
        }
    }
    return blocks;
}
const markdownCodec = {
    id: 'markdown',
    extensions: ['.md', '.markdown', '.mdown', '.mkd', '.mkdn'],
    plurals: false,
    detect(fileName, head) {
        if (/\.(?:md|markdown|mdown|mkdn?)$/i.test(fileName))
            return 0.9;
        // README, CHANGELOG and the like often have no extension; a leading heading is a fair sign.
        const base = fileName.split(/[/\\]/).pop() ?? '';
        if (!base.includes('.') && /^\uFEFF?(?:#{1,6}[ \t]+\S|---\r?\n(?:[^\n]*\n)*?---\r?\n\s*#{1,6}[ \t])/.test(head))
            return 0.3;
        return 0;
    },
    parse(bytes) {
        return scanMarkdown(bytes).segments.map((s) => ({ key: s.key, path: s.path, source: s.source, line: s.line, column: s.column }));
    },
    render(input) {
        const doc = scanMarkdown(input.source);
        let out = '';
        let at = 0;
        let changed = false;
        for (const segment of doc.segments) {
            const value = input.values.get(segment.key);
            // Missing values keep the source under 'omit' too (see the module notes).
            if (value === undefined)
                continue;
            const text = textValue(value, 'markdown');
            if (text === segment.source)
                continue;
            const written = writeSegment(segment, text);
            if (written === undefined)
                continue;
            out += doc.text.slice(at, segment.start) + written;
            at = segment.end;
            changed = true;
        }
        if (!changed)
            return input.source.slice();
        return encodeUtf8(out + doc.text.slice(at), doc.bom);
    },
    renderFresh(entries) {
        // A repeated key keeps its first position and its last value, as Map.set does.
        const values = new Map();
        for (const entry of entries)
            values.set(entry.key, textValue(entry.value, 'markdown'));
        const front = new Map();
        const body = [];
        for (const [key, value] of values) {
            if (key.startsWith('frontmatter.'))
                insertYaml(front, key.split('.').slice(1), value);
            else
                body.push([key, value]);
        }
        const head = front.size ? `---\n${writeYamlTree(front, '')}---\n` : '';
        const blocks = writeBody(body, head === '');
        const text = head + (head && blocks.length ? '\n' : '') + blocks.map((block) => `${block}\n`).join('\n');
        return encodeUtf8(text, false);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/plural-forms.ts

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
        plural: '(n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91 ? 0 : n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92 ? 1 : ' +
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
        plural: '(n == 0 ? 0 : n == 1 ? 1 : n % 100 == 2 || n % 100 == 22 || n % 100 == 42 || n % 100 == 62 || n % 100 == 82 || ' +
            'n % 1000 == 0 && (n % 100000 >= 1000 && n % 100000 <= 20000 || n % 100000 == 40000 || n % 100000 == 60000 || n % 100000 == 80000) || ' +
            'n != 0 && n % 1000000 == 100000 ? 2 : n % 100 == 3 || n % 100 == 23 || n % 100 == 43 || n % 100 == 63 || n % 100 == 83 ? 3 : ' +
            'n != 1 && (n % 100 == 1 || n % 100 == 21 || n % 100 == 41 || n % 100 == 61 || n % 100 == 81) ? 4 : 5)',
    },
    oneTwo: { categories: ['one', 'two', 'other'], plural: '(n == 1 ? 0 : n == 2 ? 1 : 2)' },
    zeroOne: { categories: ['zero', 'one', 'other'], plural: '(n == 0 ? 0 : n == 1 ? 1 : 2)' },
};
/** The languages the service names explicitly, by BCP-47 tag (language, or language-region where a region differs). */
const GETTEXT_PLURAL_TABLE = {
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
const SAMPLES = [
    ...Array.from({ length: 1001 }, (_, n) => n),
    2000, 20000, 21000, 40000, 41000, 100000, 200000, 1000000, 1000001, 1000010, 1100000, 2000000, 10000000,
];
const plural_forms_cache = new Map();
/**
 * The plural layout to write a catalog for `locale` in. Looks the locale up in the table (full tag, then language),
 * checks the shape against the locale's own `Intl.PluralRules` (so region variants with other rules are caught),
 * and otherwise picks the first shape that agrees with them. Locales no shape fits (none among CLDR's) fall back to
 * one slot per category, chosen for n = 0, 1 and 2 and `other` beyond, which keeps every form the service sends.
 */
function gettextPlurals(locale) {
    const cached = plural_forms_cache.get(locale);
    if (cached)
        return cached;
    const categories = pluralCategories(locale);
    const rules = new Intl.PluralRules(locale);
    const fits = (shape) => sameList(shape.categories, categories) && SAMPLES.every((n) => shape.categories[evaluateSafely(shape.plural, n)] === rules.select(n));
    const tags = tagCandidates(locale);
    const named = tags.map((t) => GETTEXT_PLURAL_TABLE[t]).find((name) => name !== undefined);
    const preferred = named === undefined ? undefined : SHAPES[named];
    const shape = preferred && fits(preferred) ? preferred : Object.values(SHAPES).find(fits);
    const result = shape ? layout([...shape.categories], shape.plural) : fallback(categories, rules);
    plural_forms_cache.set(locale, result);
    return result;
}
function layout(categories, plural) {
    return { categories, nplurals: categories.length, plural, header: `nplurals=${categories.length}; plural=${plural};` };
}
function fallback(categories, rules) {
    if (categories.length === 1)
        return layout(categories, '0');
    const other = categories.indexOf('other');
    const branches = [0, 1, 2]
        .map((n) => [n, categories.indexOf(rules.select(n))])
        .filter(([, index]) => index !== other && index >= 0)
        .map(([n, index]) => `n == ${n} ? ${index} : `);
    return layout(categories, `(${branches.join('')}${other})`);
}
function sameList(a, b) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
}
/** The table keys to try for a locale: its canonical full tag, language-region, then the bare language. */
function tagCandidates(locale) {
    let canonical;
    try {
        canonical = Intl.getCanonicalLocales(locale)[0] ?? locale;
    }
    catch {
        canonical = locale;
    }
    const parsed = new Intl.Locale(canonical);
    const out = [canonical];
    if (parsed.region)
        out.push(`${parsed.language}-${parsed.region}`);
    out.push(parsed.language);
    return out;
}
function evaluateSafely(expression, n) {
    return compilePluralExpression(expression)(n);
}
const compiled = new Map();
/**
 * Compiles a gettext plural expression (C syntax: ?: || && == != < > <= >= + - * / % ! and parentheses over n)
 * into a function. Throws an Error naming the position on a syntax error; division by zero yields 0, as it must not throw.
 */
function compilePluralExpression(expression) {
    const known = compiled.get(expression);
    if (known)
        return known;
    const fn = new ExpressionParser(expression).parse();
    compiled.set(expression, fn);
    return fn;
}
const BINARY = [
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
    text;
    pos = 0;
    constructor(text) {
        this.text = text;
    }
    parse() {
        const fn = this.ternary();
        this.space();
        if (this.pos < this.text.length)
            this.fail('Expected an operator or the end of the expression');
        return fn;
    }
    fail(message) {
        throw new Error(`${message} at column ${this.pos + 1} of the plural expression`);
    }
    space() {
        while (/\s/.test(this.text.charAt(this.pos)))
            this.pos++;
    }
    eat(token) {
        this.space();
        if (!this.text.startsWith(token, this.pos))
            return false;
        // `|` and `&` alone, or `=` after `<`/`>`, are not the tokens asked for.
        if ((token === '<' || token === '>' || token === '!') && this.text.charAt(this.pos + 1) === '=')
            return false;
        this.pos += token.length;
        return true;
    }
    ternary() {
        const test = this.binary(0);
        if (!this.eat('?'))
            return test;
        const yes = this.ternary();
        if (!this.eat(':'))
            this.fail("Expected ':' in a conditional expression");
        const no = this.ternary();
        return (n) => (test(n) ? yes(n) : no(n));
    }
    binary(level) {
        const operators = BINARY[level];
        if (!operators)
            return this.unary();
        let left = this.binary(level + 1);
        for (;;) {
            const match = operators.find(([token]) => this.eat(token));
            if (!match)
                return left;
            const right = this.binary(level + 1);
            const [, apply] = match;
            const l = left;
            left = (n) => apply(l(n), right(n));
        }
    }
    unary() {
        if (this.eat('!')) {
            const operand = this.unary();
            return (n) => (operand(n) ? 0 : 1);
        }
        if (this.eat('(')) {
            const inner = this.ternary();
            if (!this.eat(')'))
                this.fail("Expected ')'");
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

;// CONCATENATED MODULE: ./src/core/formats/po-scan.ts
// Hand-written gettext PO tokenizer that keeps every token's span, and the helpers that splice msgstr edits into the untouched text.



/** gettext's key for a message, as in .mo files: the context and the msgid joined by U+0004 (EOT) when a context exists. */
function gettextKey(message) {
    return message.msgctxt ? `${message.msgctxt.value}\u0004${message.msgid.value}` : message.msgid.value;
}
/** Where a message's text is, for annotations: the msgid's first non-empty string (after a conventional `msgid ""`). */
function messagePosition(message) {
    const { strings } = message.msgid;
    let first = strings[0];
    for (const s of strings) {
        if (s.value !== '') {
            first = s;
            break;
        }
    }
    return { line: first.line, column: first.column };
}
/** Notes for translators: the translator (`# `) and extracted (`#. `) comments, one per line. */
function messageNotes(message, skip) {
    if (message.comments.length === 0)
        return undefined;
    const lines = message.comments.filter((c) => (c.kind === 'translator' || c.kind === 'extracted') && !skip?.(c)).map((c) => c.text);
    return lines.length > 0 ? lines.join('\n') : undefined;
}
// ---------------------------------------------------------------------------------------------------------------------
// Decoding
const UTF8_NAMES = /^(?:utf-?8|charset|(?:us-)?ascii|ansi_x3\.4-1968)$/i;
/** The charset the header's Content-Type names and where, read from the raw bytes before the file can be decoded. */
function declaredCharset(bytes) {
    const head = bytes.subarray(0, 65536);
    let latin1 = '';
    for (let i = 0; i < head.length; i += 8192)
        latin1 += String.fromCharCode(...head.subarray(i, i + 8192));
    const match = /^([ \t]*"Content-Type:[^"\r\n]*?charset=)([A-Za-z0-9_.:+-]+)/im.exec(latin1);
    if (!match)
        return undefined;
    const lines = latin1.slice(0, match.index).split(/\r\n|\n|\r/);
    return { name: match[2], line: lines.length, column: lines[lines.length - 1].length + match[1].length + 1 };
}
function decodePo(bytes) {
    const declared = declaredCharset(bytes);
    const charset = declared?.name;
    if (!declared || UTF8_NAMES.test(declared.name))
        return { ...decodeUtf8(bytes), charset, utf8: true };
    let text;
    try {
        text = new TextDecoder(declared.name).decode(bytes);
    }
    catch {
        const { name, line, column } = declared;
        throw new file_unparsable_error/* FileUnparsableError */.w(`The header declares charset=${name}, which is not a known encoding (expected UTF-8) at line ${line}, column ${column}`, line, column);
    }
    return { text, bom: false, charset, utf8: false };
}
// ---------------------------------------------------------------------------------------------------------------------
// Positions
/** Line and column of an index, counted from the top: for error messages only, which need it once. */
function positionOf(text, index) {
    let line = 1;
    let start = 0;
    for (let i = 0; i < index; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
            line++;
            start = i + 1;
        }
    }
    return { line, column: new ColumnCounter(text).at(start, index) };
}
// ---------------------------------------------------------------------------------------------------------------------
// Scanning
const po_scan_SIMPLE_ESCAPES = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    '"': '"',
};
const COMMENT_KINDS = { '.': 'extracted', ':': 'reference', ',': 'flags', '|': 'previous' };
// The comments and flags of every message that has none: one empty list, since nothing writes to a scanned message's lists.
const po_scan_NONE = Object.freeze([]);
// Longest first, so msgid_plural is not read as msgid.
const KEYWORDS = ['msgctxt', 'msgid_plural', 'msgid', 'msgstr'];
/** Decodes the bytes of consecutive numeric escapes (\303\251 is é in a UTF-8 file). */
const ESCAPED_BYTES = new TextDecoder('utf-8', { ignoreBOM: true });
class po_scan_Scanner {
    text;
    messages = [];
    keys = new Map();
    columns;
    pending = po_scan_NONE;
    /** Start of the run of comment lines directly above the current line, if the previous line was a comment. */
    runStart;
    current;
    field;
    header;
    /** The line being read. */
    lines;
    constructor(text) {
        this.text = text;
        this.columns = new ColumnCounter(text);
        this.lines = new LineReader(text);
    }
    get line() {
        return this.lines.line;
    }
    get lineStart() {
        return this.lines.start;
    }
    get contentEnd() {
        return this.lines.contentEnd;
    }
    get nextLine() {
        return this.lines.next;
    }
    fail(message, at) {
        const { line, column } = positionOf(this.text, at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    }
    at(index) {
        return { line: this.line, column: this.columns.at(this.lineStart, index) };
    }
    scan() {
        const t = this.text;
        while (this.lines.advance()) {
            const contentEnd = this.contentEnd;
            let i = this.lineStart;
            while (i < contentEnd && isBlank(t.charCodeAt(i)))
                i++;
            if (i === contentEnd) {
                this.runStart = undefined;
            }
            else {
                const c = t.charCodeAt(i);
                if (c === 0x23) {
                    this.comment(i);
                }
                else if (c === 0x22) {
                    if (!this.field)
                        this.fail('Expected a keyword (msgctxt, msgid, msgid_plural or msgstr) before a string', i);
                    this.strings(this.field, i, false);
                    this.runStart = undefined;
                }
                else {
                    this.keyword(i);
                    this.runStart = undefined;
                }
            }
        }
        this.close(t.length, true);
        return { messages: this.messages, header: this.header, keys: this.keys };
    }
    comment(at) {
        this.close(at, false);
        this.field = undefined;
        const t = this.text;
        const marker = t.charAt(at + 1);
        if (marker === '~') {
            // An obsolete entry: kept as text, never an entry; comments above it are its own.
            this.pending = po_scan_NONE;
            this.runStart = undefined;
            return;
        }
        this.runStart ??= this.lineStart;
        const kind = COMMENT_KINDS[marker] ?? 'translator';
        let from = kind === 'translator' ? at + 1 : at + 2;
        if (t.charCodeAt(from) === 0x20 && from < this.contentEnd)
            from++;
        const text = from < this.contentEnd ? t.slice(from, this.contentEnd) : '';
        if (this.pending === po_scan_NONE)
            this.pending = [];
        this.pending.push({ kind, text, start: this.lineStart, end: this.nextLine, line: this.line, column: this.columns.at(this.lineStart, at) });
    }
    /** Closes the message being read, if any; `final` at the end of the file. */
    close(at, final) {
        const b = this.current;
        if (!b)
            return;
        if (!b.msgid)
            this.fail(`Expected msgid after msgctxt${final ? ' before the end of the file' : ''}`, at);
        if (b.msgstr.length === 0) {
            const after = b.msgidPlural ? 'msgstr[0] after msgid_plural' : 'msgstr after msgid';
            this.fail(`Expected ${after}${final ? ' before the end of the file' : ''}`, at);
        }
        const message = {
            start: b.start,
            end: b.end,
            comments: b.comments,
            flags: flagsOf(b.comments),
            msgctxt: b.msgctxt,
            msgid: b.msgid,
            msgidPlural: b.msgidPlural,
            msgstr: b.msgstr,
            header: !b.msgctxt && b.msgid.value === '',
        };
        const key = gettextKey(message);
        const first = this.keys.get(key);
        if (first) {
            const what = message.header ? 'header entry (msgid "")' : `message ${JSON.stringify(message.msgid.value)}${message.msgctxt ? ` with msgctxt ${JSON.stringify(message.msgctxt.value)}` : ''}`;
            this.fail(`Duplicate ${what} (first defined at line ${first.msgid.line})`, message.msgid.start);
        }
        this.keys.set(key, message);
        if (message.header)
            this.header = message;
        this.messages.push(message);
        this.current = undefined;
        this.field = undefined;
    }
    keyword(at) {
        const t = this.text;
        const keyword = t.startsWith('msg', at) ? KEYWORDS.find((k) => t.startsWith(k, at)) : undefined;
        let after = at + (keyword?.length ?? 0);
        let index;
        if (keyword && t.charCodeAt(after) === 0x5b) {
            // msgstr[N]: digits and a closing bracket, else the bracket is what follows the keyword.
            let digits = after + 1;
            while (po_scan_isDigit(t.charCodeAt(digits)))
                digits++;
            if (digits > after + 1 && t.charCodeAt(digits) === 0x5d) {
                index = Number(t.slice(after + 1, digits));
                after = digits + 1;
            }
        }
        if (!keyword || isWordOrBracket(t.charCodeAt(after))) {
            this.fail('Expected a keyword (msgctxt, msgid, msgid_plural or msgstr), a string or a comment', at);
        }
        const b = this.current;
        // msgctxt always opens a message; msgid does unless it follows that message's msgctxt. Closing checks completeness.
        if (keyword === 'msgctxt' || (keyword === 'msgid' && !(b?.msgctxt && !b.msgid))) {
            this.close(at, false);
            this.current = { start: this.runStart ?? this.lineStart, comments: this.pending, msgstr: po_scan_NONE, end: this.nextLine };
            this.pending = po_scan_NONE;
        }
        const cur = this.current;
        if (!cur)
            this.fail(`Expected msgid before ${t.slice(at, after)}`, at);
        if (keyword !== 'msgstr' && index !== undefined)
            this.fail(`Expected ${keyword} without an index`, at);
        switch (keyword) {
            case 'msgctxt':
                break;
            case 'msgid':
                break;
            case 'msgid_plural':
                if (!cur.msgid || cur.msgidPlural || cur.msgstr.length > 0)
                    this.fail('Expected msgid_plural only once, after msgid', at);
                break;
            case 'msgstr': {
                if (!cur.msgid)
                    this.fail('Expected msgid before msgstr', at);
                if (cur.msgidPlural) {
                    if (index === undefined)
                        this.fail(`Expected msgstr[${cur.msgstr.length}] after msgid_plural (a plural message has indexed msgstr)`, at);
                    if (index !== cur.msgstr.length)
                        this.fail(`Expected msgstr[${cur.msgstr.length}]; plural forms must be numbered from 0 without gaps`, at);
                }
                else {
                    if (index !== undefined)
                        this.fail('Expected msgstr without an index (msgstr[N] needs msgid_plural)', at);
                    if (cur.msgstr.length > 0)
                        this.fail('Expected one msgstr per msgid', at);
                }
                break;
            }
        }
        const field = {
            keyword,
            index,
            lineStart: this.lineStart,
            start: at,
            end: at,
            strings: po_scan_NONE,
            value: '',
            line: this.line,
            column: this.columns.at(this.lineStart, at),
        };
        this.strings(field, after, true);
        if (keyword === 'msgctxt')
            cur.msgctxt = field;
        else if (keyword === 'msgid')
            cur.msgid = field;
        else if (keyword === 'msgid_plural')
            cur.msgidPlural = field;
        // Lists start at their exact length: an empty one that is pushed to takes room for 17.
        else if (cur.msgstr === po_scan_NONE)
            cur.msgstr = [field];
        else
            cur.msgstr.push(field);
        this.field = field;
    }
    /** Reads the strings from `at` to the end of the line into `field`; the keyword's own line must hold at least one. */
    strings(field, at, first) {
        const t = this.text;
        const contentEnd = this.contentEnd;
        let i = at;
        for (;;) {
            while (i < contentEnd && isBlank(t.charCodeAt(i)))
                i++;
            if (i >= contentEnd)
                break;
            if (t.charCodeAt(i) !== 0x22) {
                const what = field.index === undefined ? field.keyword : `${field.keyword}[${field.index}]`;
                this.fail(first && field.strings.length === 0 ? `Expected a string after ${what}` : 'Expected a string or the end of the line', i);
            }
            const s = this.string(i);
            if (field.strings === po_scan_NONE)
                field.strings = [s];
            else
                field.strings.push(s);
            field.value = field.strings.length === 1 ? s.value : field.value + s.value;
            field.end = s.end;
            i = s.end;
        }
        if (field.strings.length === 0) {
            const what = field.index === undefined ? field.keyword : `${field.keyword}[${field.index}]`;
            this.fail(`Expected a string after ${what}`, i);
        }
        if (this.current)
            this.current.end = this.nextLine;
    }
    string(start) {
        const t = this.text;
        const contentEnd = this.contentEnd;
        // First the string's extent, checking its escapes in order; a line's end closes no string.
        let i = start + 1;
        let escapes = false;
        // Whether its escapes are all ones JSON shares (and no raw control character JSON would refuse), so JSON.parse decodes it.
        let json = true;
        for (;;) {
            while (i < contentEnd) {
                const c = t.charCodeAt(i);
                if (c === 0x22 || c === 0x5c)
                    break;
                if (c < 0x20)
                    json = false;
                i++;
            }
            if (i >= contentEnd)
                this.fail(`Expected '"' to close the string before the end of the ${contentEnd === t.length ? 'file' : 'line'}`, i);
            if (t.charCodeAt(i) === 0x22)
                break;
            escapes = true;
            const e = t.charCodeAt(i + 1);
            if (JSON_ESCAPES.has(e)) {
                i += 2;
            }
            else if (e === 0x61 || e === 0x76) {
                json = false;
                i += 2;
            }
            else if (isOctal(e)) {
                json = false;
                const backslash = i;
                i += 2;
                while (i < backslash + 4 && isOctal(t.charCodeAt(i)))
                    i++;
            }
            else if (e === 0x78 && hexValue(t.charCodeAt(i + 2)) >= 0) {
                json = false;
                i += 3;
                if (hexValue(t.charCodeAt(i)) >= 0)
                    i++;
            }
            else {
                this.fail(`Expected a valid escape after '\\' (one of \\n \\t \\r \\a \\b \\f \\v \\\\ \\", octal \\ooo or hex \\xhh)`, i);
            }
        }
        const end = i + 1;
        let value;
        if (!escapes)
            value = t.slice(start + 1, i);
        // One flat string, where joining the pieces would leave a chain of them for the collector to copy.
        else if (json)
            value = JSON.parse(t.slice(start, end));
        else
            value = decodeEscapes(t, start + 1, i);
        return { start, end, value, line: this.line, column: this.columns.at(this.lineStart, start) };
    }
}
/** The escapes PO and JSON write alike: \\ \" \n \t \r \b \f. */
const JSON_ESCAPES = new Set([...'\\"ntrbf'].map((c) => c.charCodeAt(0)));
/** Decodes a string's text between its quotes, whose escapes are valid. */
function decodeEscapes(t, from, to) {
    let value = '';
    let chunk = from;
    let bytes;
    let i = from;
    while (i < to) {
        if (t.charCodeAt(i) !== 0x5c) {
            i++;
            continue;
        }
        if (i > chunk) {
            if (bytes)
                value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
            bytes = undefined;
            value += t.slice(chunk, i);
        }
        const simple = po_scan_SIMPLE_ESCAPES[t.charAt(i + 1)];
        if (simple !== undefined) {
            if (bytes)
                value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
            bytes = undefined;
            value += simple;
            i += 2;
        }
        else {
            // Numeric escapes are bytes in the file's encoding, so consecutive ones are decoded together (\303\251 is é).
            let code = 0;
            let end;
            if (t.charCodeAt(i + 1) === 0x78) {
                end = i + 2;
                while (end < i + 4 && hexValue(t.charCodeAt(end)) >= 0)
                    code = code * 16 + hexValue(t.charCodeAt(end++));
            }
            else {
                end = i + 1;
                while (end < i + 4 && isOctal(t.charCodeAt(end)))
                    code = code * 8 + t.charCodeAt(end++) - 0x30;
            }
            (bytes ??= []).push(code & 0xff);
            i = end;
        }
        chunk = i;
    }
    if (i > chunk) {
        if (bytes)
            value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
        bytes = undefined;
        value += t.slice(chunk, i);
    }
    if (bytes)
        value += ESCAPED_BYTES.decode(new Uint8Array(bytes));
    return value;
}
/** The `#,` flags of a message's comments, e.g. `fuzzy`, `c-format`. */
function flagsOf(comments) {
    let flags = po_scan_NONE;
    for (const c of comments) {
        if (c.kind !== 'flags')
            continue;
        for (const f of c.text.split(',')) {
            const flag = f.trim();
            if (flag)
                (flags === po_scan_NONE ? (flags = []) : flags).push(flag);
        }
    }
    return flags;
}
function po_scan_isDigit(c) {
    return c >= 0x30 && c <= 0x39;
}
function isOctal(c) {
    return c >= 0x30 && c <= 0x37;
}
function hexValue(c) {
    return c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
}
/** What may not directly follow a keyword: a word character or '['. */
function isWordOrBracket(c) {
    return po_scan_isDigit(c) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x5b;
}
function isBlank(c) {
    return c === 0x20 || c === 0x09 || c === 0x0c || c === 0x0b;
}
/** Reads a PO file, keeping every message's span; throws FileUnparsableError naming line and column on malformed input. */
function scanPo(bytes) {
    const { text, bom, charset, utf8 } = decodePo(bytes);
    const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
    const { messages, header, keys } = new po_scan_Scanner(text).scan();
    return { bom, text, charset, utf8, eol, messages, header, keys };
}
// ---------------------------------------------------------------------------------------------------------------------
// Writing
const WRITE_ESCAPES = {
    '\\': '\\\\',
    '"': '\\"',
    '\n': '\\n',
    '\t': '\\t',
    '\r': '\\r',
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\v': '\\v',
};
/**
 * What PO and JSON escape differently: control characters without a name in JSON (PO writes \\a, \\v and octal where
 * JSON writes \\u00XX), and surrogates (JSON escapes a lone one, PO keeps it). Text without them escapes alike.
 */
// eslint-disable-next-line no-control-regex
const po_scan_UNLIKE_JSON = /[\u0000-\u0007\u000b\u000e-\u001f\ud800-\udfff]/;
/** Escapes text for a PO string: the named C escapes, and octal for other control characters (three digits, so a digit after one is safe). */
function escapePo(value) {
    if (!po_scan_UNLIKE_JSON.test(value))
        return JSON.stringify(value).slice(1, -1);
    // eslint-disable-next-line no-control-regex
    return value.replace(/[\\"\u0000-\u001f]/g, (c) => WRITE_ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}
/** A PO string: the text escaped, in quotes. */
function quotePo(value) {
    return po_scan_UNLIKE_JSON.test(value) ? `"${escapePo(value)}"` : JSON.stringify(value);
}
/** gettext's line width: a wrapped line, quotes included, stays within 79 columns. */
const WIDTH = 79;
/**
 * Formats one field as lines. Unwrapped: `keyword "value"` on one line. Wrapped, as msgmerge does: one line when it fits
 * and holds no inner newline, else `keyword ""` followed by one string per line of text, broken after spaces to fit.
 */
function formatField(keyword, value, wrap) {
    const single = `${keyword} ${quotePo(value)}`;
    if (!wrap)
        return [single];
    // One piece of text (no newline but a final one), and a width no more than its length.
    const newline = value.indexOf('\n');
    if ((newline < 0 || newline === value.length - 1) && (single.length <= WIDTH || width(single) <= WIDTH))
        return [single];
    const pieces = value.split(/(?<=\n)/).filter((p) => p !== '');
    const lines = [`${keyword} ""`];
    for (const piece of pieces)
        for (const chunk of breakLine(escapePo(piece), WIDTH - 2))
            lines.push(`"${chunk}"`);
    return lines;
}
function width(s) {
    let n = 0;
    for (const _ of s)
        n++;
    return n;
}
/** Breaks escaped text after spaces into chunks of at most `max` columns; a word longer than that stays whole. */
function breakLine(escaped, max) {
    const words = escaped.match(/[^ ]* +|[^ ]+/g) ?? [''];
    const chunks = [];
    let current = '';
    for (const word of words) {
        if (current !== '' && width(current) + width(word) > max) {
            chunks.push(current);
            current = '';
        }
        current += word;
    }
    chunks.push(current);
    return chunks;
}
/** Whether the message was written wrapped (some field spans several strings), so a rewritten msgstr follows suit. */
function isWrapped(message) {
    if (message.msgid.strings.length > 1 || (message.msgctxt?.strings.length ?? 0) > 1 || (message.msgidPlural?.strings.length ?? 0) > 1)
        return true;
    return message.msgstr.some((f) => f.strings.length > 1);
}
/** Applies non-overlapping splices (in any order) to the text. */
function applySplices(text, splices) {
    const sorted = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
    let out = '';
    let at = 0;
    for (const s of sorted) {
        out += text.slice(at, s.start) + s.text;
        at = s.end;
    }
    return out + text.slice(at);
}
/**
 * Rewrites a message's msgstr (one form) or msgstr[0..n-1] (several) with the given forms, wrapped like the message
 * was, and drops its `fuzzy` flag: the value is a finished translation, and gettext skips fuzzy ones.
 */
function writeMessage(doc, message, forms, plural) {
    const first = message.msgstr[0];
    const last = message.msgstr[message.msgstr.length - 1];
    const indent = doc.text.slice(first.lineStart, first.start);
    const wrap = isWrapped(message);
    const lines = plural
        ? forms.flatMap((form, i) => formatField(`msgstr[${i}]`, form, wrap))
        : formatField('msgstr', forms[0] ?? '', wrap);
    const text = lines.length === 1 ? indent + lines[0] : lines.map((l) => indent + l).join(doc.eol);
    const splices = [{ start: first.lineStart, end: last.end, text }];
    const unfuzzy = dropFlag(doc, message, 'fuzzy');
    if (unfuzzy)
        splices.push(unfuzzy);
    return splices;
}
/** Removes one flag from a message's `#,` lines, dropping a line left empty; undefined when the flag is absent. */
function dropFlag(doc, message, flag) {
    if (flag !== '' && !message.flags.includes(flag))
        return undefined;
    const line = message.comments.find((c) => c.kind === 'flags' && c.text.split(',').some((f) => f.trim() === flag));
    if (!line)
        return undefined;
    const rest = line.text.split(',').map((f) => f.trim()).filter((f) => f !== '' && f !== flag);
    if (rest.length === 0)
        return { start: line.start, end: line.end, text: '' };
    const raw = doc.text.slice(line.start, line.end);
    const terminator = /\r\n|\n|\r$/.exec(raw)?.[0] ?? '';
    const marker = /^[ \t]*#,/.exec(raw)?.[0] ?? '#,';
    return { start: line.start, end: line.end, text: `${marker} ${rest.join(', ')}${terminator}` };
}
/**
 * Removes messages with their comments. Each run of removed messages with nothing but blank lines between them goes
 * with the blank lines after it; a run at the end of the file takes the blank lines before it instead, so the file
 * does not end in a blank line it did not have.
 */
function omitMessages(doc, messages) {
    const t = doc.text;
    const blankLine = /[ \t\f\v]*(?:\r\n|\n|\r)/y;
    const skipBlank = (from) => {
        let at = from;
        for (;;) {
            blankLine.lastIndex = at;
            if (!blankLine.test(t))
                return at;
            at = blankLine.lastIndex;
        }
    };
    const runs = [];
    for (const m of [...messages].sort((x, y) => x.start - y.start)) {
        const last = runs[runs.length - 1];
        if (last && skipBlank(last.end) >= m.start)
            last.end = m.end;
        else
            runs.push({ start: m.start, end: m.end });
    }
    return runs.map(({ start, end }) => {
        const after = skipBlank(end);
        if (!/^[ \t\f\v]*$/.test(t.slice(after)))
            return { start, end: after, text: '' };
        let from = start;
        for (;;) {
            // A blank line directly before, preceded by the previous line's own terminator (which stays).
            const m = /(?:\r\n|\n|\r)([ \t\f\v]*(?:\r\n|\n|\r))$/.exec(t.slice(0, from));
            if (!m)
                break;
            from -= m[1].length;
        }
        return { start: from, end, text: '' };
    });
}
function parseHeader(value) {
    const lines = value.split('\n');
    if (lines[lines.length - 1] === '')
        lines.pop();
    return lines.map((line) => {
        const colon = line.indexOf(':');
        return colon < 0 ? ['', line] : [line.slice(0, colon), line.slice(colon + 1).trimStart()];
    });
}
function headerField(fields, name) {
    return fields.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}
/** Sets a field in place, or adds it after the first of `after` that exists (else at the end). */
function setHeaderField(fields, name, value, after = []) {
    const existing = fields.find(([n]) => n.toLowerCase() === name.toLowerCase());
    if (existing) {
        existing[1] = value;
        return;
    }
    const anchor = after.map((a) => fields.findIndex(([n]) => n.toLowerCase() === a.toLowerCase())).find((i) => i >= 0);
    fields.splice(anchor === undefined ? fields.length : anchor + 1, 0, [name, value]);
}
function serializeHeader(fields) {
    return fields.map(([name, value]) => `${name === '' ? value : `${name}: ${value}`}\n`).join('');
}
/** Points the Content-Type at UTF-8 (the only encoding Parlance writes), adding the field when it is missing. */
function useUtf8(fields) {
    const contentType = headerField(fields, 'Content-Type');
    const next = contentType === undefined ? 'text/plain; charset=UTF-8' : /charset=/i.test(contentType)
        ? contentType.replace(/charset=[^\s;]*/i, 'charset=UTF-8')
        : `${contentType}; charset=UTF-8`;
    setHeaderField(fields, 'Content-Type', next, ['MIME-Version', 'Language', 'Language-Team']);
}
/**
 * Rewrites the header's msgstr to `value`, one string per header line as gettext writes it; lines whose text is
 * unchanged keep their original spelling. Undefined when the value is unchanged.
 */
function writeHeader(doc, header, value) {
    const field = header.msgstr[0];
    if (field.value === value)
        return undefined;
    const raw = new Map();
    for (const s of field.strings)
        if (!raw.has(s.value))
            raw.set(s.value, doc.text.slice(s.start, s.end));
    const indent = doc.text.slice(field.lineStart, field.start);
    const lines = value.split(/(?<=\n)/).filter((l) => l !== '');
    const body = lines.map((l) => raw.get(l) ?? `"${escapePo(l)}"`);
    return { start: field.lineStart, end: field.end, text: [`${indent}msgstr ""`, ...body].join(doc.eol) };
}
/** A header entry for a file that has none, written before everything else. */
function newHeader(doc, value) {
    const lines = ['msgid ""', 'msgstr ""', ...value.split(/(?<=\n)/).filter((l) => l !== '').map((l) => `"${escapePo(l)}"`)];
    return { start: 0, end: 0, text: `${lines.join(doc.eol)}${doc.eol}${doc.text === '' ? '' : doc.eol}` };
}
/** Encodes rendered text: UTF-8, with the source's BOM. */
function encodePo(doc, text) {
    return encodeUtf8(text, doc.bom);
}

;// CONCATENATED MODULE: ./src/core/formats/po.ts



/*
 * Key scheme: gettext's own. A message's key is its msgid, or msgctxt + U+0004 + msgid when it has a msgctxt (even an
 * empty one, which gettext distinguishes from none) — the same string gettext looks translations up by in .mo files.
 *
 * Source text: the msgid (the source-language text gettext keys on); a plural message's forms are msgid as `one` and
 * msgid_plural as `other`, as for the English-like sources gettext assumes. The msgstr of the pushed file is the slot
 * translations go into: a value equal to the source text leaves the message exactly as it was (an empty msgstr
 * already means "use the msgid"), which is what keeps the round trip byte-identical.
 */
const PLURAL_FIELDS_AFTER = ['Content-Transfer-Encoding', 'Content-Type', 'MIME-Version'];
const LANGUAGE_AFTER = ['Language-Team', 'Last-Translator', 'PO-Revision-Date', 'POT-Creation-Date', 'Project-Id-Version'];
/** The forms to write for one message, or undefined to keep it as it is (the value is the source text). */
function formsFor(message, value, layout) {
    if (!message.msgidPlural) {
        const text = typeof value === 'string' ? value : (value.plurals.other ?? Object.values(value.plurals)[0] ?? '');
        return text === message.msgid.value ? undefined : [text];
    }
    if (typeof value === 'string')
        return layout.categories.map(() => value);
    const source = { one: message.msgid.value, other: message.msgidPlural.value };
    if (samePlurals(value.plurals, source))
        return undefined;
    return layout.categories.map((c) => value.plurals[c] ?? value.plurals.other ?? Object.values(value.plurals)[0] ?? '');
}
function samePlurals(a, b) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
/**
 * A kept plural message whose slot count does not match the target's Plural-Forms would be refused by msgfmt, so its
 * slots are re-laid out: left empty (untranslated) when they all were, else filled from the source text by category.
 */
function resizedForms(message, layout) {
    if (!message.msgidPlural || message.msgstr.length === layout.nplurals)
        return undefined;
    if (message.msgstr.every((f) => f.value === ''))
        return layout.categories.map(() => '');
    return layout.categories.map((c) => (c === 'one' ? message.msgid.value : message.msgidPlural.value));
}
/** Renders a target catalog from a scanned source: the shared body of the `po` and `unreal_po` codecs. */
function renderCatalog(doc, input, rules) {
    const target = input.locale ?? input.sourceLocale ?? 'en';
    const layout = gettextPlurals(target);
    const retarget = input.locale !== undefined;
    const splices = [];
    const omitted = [];
    for (const message of doc.messages) {
        if (message.header)
            continue;
        const value = input.values.get(rules.keyOf(message));
        if (value === undefined && input.missing === 'omit') {
            omitted.push(message);
            continue;
        }
        const forms = (value === undefined ? undefined : formsFor(message, value, layout)) ?? (retarget ? resizedForms(message, layout) : undefined);
        if (forms)
            splices.push(...writeMessage(doc, message, forms, message.msgidPlural !== undefined));
    }
    splices.push(...omitMessages(doc, omitted));
    splices.push(...headerSplices(doc, layout, retarget ? target : undefined, splices.length > 0, rules));
    if (splices.length === 0)
        return input.source.slice();
    return encodePo(doc, applySplices(doc.text, splices));
}
/**
 * Header edits: for a target locale, Language, Plural-Forms and a UTF-8 charset, and no `fuzzy` (msginit's treatment of
 * a template header); for any other change to a file read in a legacy charset, the charset, since output is UTF-8.
 */
function headerSplices(doc, layout, locale, changed, rules) {
    const header = doc.header;
    const notUtf8 = doc.charset === undefined || !/^utf-?8$/i.test(doc.charset);
    if (locale === undefined) {
        // Changed text is written as UTF-8, so a declared legacy charset (or the template's CHARSET) must say so.
        if (!changed || !header || doc.charset === undefined || !notUtf8)
            return [];
        const fields = parseHeader(header.msgstr[0].value);
        useUtf8(fields);
        const rewritten = writeHeader(doc, header, serializeHeader(fields));
        return rewritten ? [rewritten] : [];
    }
    if (!header) {
        return [newHeader(doc, serializeHeader(freshFields(rules.language(locale, undefined), layout)))];
    }
    const fields = parseHeader(header.msgstr[0].value);
    const previous = headerField(fields, 'Language');
    setHeaderField(fields, 'Language', rules.language(locale, previous), LANGUAGE_AFTER);
    setHeaderField(fields, 'Plural-Forms', layout.header, PLURAL_FIELDS_AFTER);
    if (notUtf8)
        useUtf8(fields);
    const splices = [];
    const rewritten = writeHeader(doc, header, serializeHeader(fields));
    if (rewritten)
        splices.push(rewritten);
    const unfuzzy = dropFlag(doc, header, 'fuzzy');
    if (unfuzzy)
        splices.push(unfuzzy);
    splices.push(...(rules.headerExtras?.(doc, header, locale, previous) ?? []));
    return splices;
}
/** gettext spells locales ll_CC; a file already using hyphens keeps them. */
function gettextLanguage(locale, current) {
    return current?.includes('-') ? locale : locale.replace(/-/g, '_');
}
const poRules = { keyOf: gettextKey, language: gettextLanguage };
/** The header fields of a new catalog, as msginit writes them for a locale. */
function freshFields(language, layout) {
    return [
        ['Language', language],
        ['MIME-Version', '1.0'],
        ['Content-Type', 'text/plain; charset=UTF-8'],
        ['Content-Transfer-Encoding', '8bit'],
        ['Plural-Forms', layout.header],
    ];
}
/** A fresh catalog's header entry as lines; `extra` fields go first. */
function freshHeader(language, layout, extra = []) {
    const value = serializeHeader([...extra, ...freshFields(language, layout)]);
    return ['msgid ""', 'msgstr ""', ...value.split(/(?<=\n)/).map((l) => `"${escapePo(l)}"`)];
}
/** Detects gettext catalogs: the extension, or a file that opens with comments and a msgid. */
function looksLikePo(fileName, head) {
    return /\.pot?$/i.test(fileName) || /^\uFEFF?(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*msg(?:ctxt|id)[ \t]+"/.test(head);
}
/** Whether the first bytes look like Unreal Engine's PO export (msgctxt "Namespace,Key" and `#. Key:` comments). */
function looksLikeUnreal(head) {
    return /^#\. Key:\t/m.test(head) || /Epic Games/.test(head.slice(0, 300)) || /^#\. SourceLocation:\t/m.test(head);
}
const poCodec = {
    id: 'po',
    extensions: ['.po', '.pot'],
    plurals: true,
    detect(fileName, head) {
        if (!looksLikePo(fileName, head))
            return 0;
        const named = /\.pot?$/i.test(fileName);
        if (looksLikeUnreal(head))
            return named ? 0.5 : 0.2;
        return named ? 0.9 : 0.4;
    },
    parse(bytes) {
        const entries = [];
        for (const m of scanPo(bytes).messages) {
            if (m.header)
                continue;
            const key = gettextKey(m);
            const { line, column } = messagePosition(m);
            const entry = { key, path: [key], source: m.msgidPlural?.value ?? m.msgid.value, line, column };
            if (m.msgidPlural)
                entry.plurals = { one: m.msgid.value, other: m.msgidPlural.value };
            const notes = messageNotes(m);
            if (notes !== undefined)
                entry.notes = notes;
            if (m.msgctxt)
                entry.context = m.msgctxt.value;
            entries.push(entry);
        }
        return entries;
    },
    render(input) {
        return renderCatalog(scanPo(input.source), input, poRules);
    },
    /**
     * Writes msgid (and msgctxt, split from the key at U+0004) from the key and msgstr from the value; a plural value
     * gets msgid_plural = msgid and one msgstr[i] per category of the locale. A key of '' cannot be a message (msgid ""
     * is the header), so it is left out.
     */
    renderFresh(entries, options) {
        const locale = options?.locale ?? 'en';
        const layout = gettextPlurals(locale);
        const merged = new Map();
        // A repeated key keeps its first position and its last value, as Map.set does.
        for (const entry of entries)
            if (entry.key !== '')
                merged.set(entry.key, entry);
        const blocks = [freshHeader(gettextLanguage(locale, undefined), layout)];
        for (const entry of merged.values()) {
            const lines = [];
            if (entry.notes)
                for (const note of entry.notes.split(/\r\n|\n|\r/))
                    lines.push(note === '' ? '#.' : `#. ${note}`);
            const split = entry.key.indexOf('\u0004');
            const msgid = split < 0 ? entry.key : entry.key.slice(split + 1);
            if (split >= 0)
                lines.push(...formatField('msgctxt', entry.key.slice(0, split), true));
            lines.push(...formatField('msgid', msgid, true));
            if (typeof entry.value === 'string') {
                lines.push(...formatField('msgstr', entry.value, true));
            }
            else {
                const forms = entry.value.plurals;
                lines.push(...formatField('msgid_plural', msgid, true));
                layout.categories.forEach((c, i) => lines.push(...formatField(`msgstr[${i}]`, forms[c] ?? forms.other ?? '', true)));
            }
            blocks.push(lines);
        }
        return encodeUtf8(`${blocks.map((b) => b.join('\n')).join('\n\n')}\n`, false);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/properties.ts



function properties_decode(bytes) {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
        throw new file_unparsable_error/* FileUnparsableError */.w('The file is UTF-16 encoded; expected UTF-8 or ISO-8859-1 at line 1, column 1', 1, 1);
    }
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const body = bom ? bytes.subarray(3) : bytes;
    try {
        const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
        // eslint-disable-next-line no-control-regex
        return { text, bom, style: /[^\u0000-\u007f]/.test(text) ? 'utf8' : 'ascii' };
    }
    catch {
        let text = '';
        for (let i = 0; i < body.length; i += 8192)
            text += String.fromCharCode(...body.subarray(i, i + 8192));
        return { text, bom, style: 'latin1' };
    }
}
function properties_encode(doc, text) {
    if (doc.style !== 'latin1')
        return new TextEncoder().encode(doc.bom ? `\uFEFF${text}` : text);
    const out = new Uint8Array(text.length + (doc.bom ? 3 : 0));
    let at = 0;
    if (doc.bom) {
        out.set([0xef, 0xbb, 0xbf]);
        at = 3;
    }
    // Written values escape everything outside ASCII, and kept text came from single bytes, so every unit fits a byte.
    for (let i = 0; i < text.length; i++)
        out[at++] = text.charCodeAt(i) & 0xff;
    return out;
}
/** Java's whitespace between tokens. */
const properties_isSpace = (c) => c === 0x20 || c === 0x09 || c === 0x0c;
class properties_Scanner {
    text;
    lines;
    columns;
    constructor(text) {
        this.text = text;
        this.lines = new LineReader(text);
        this.columns = new ColumnCounter(text);
    }
    fail(message, at) {
        const { line, column } = new LineIndex(this.text).at(at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    }
    scan() {
        const t = this.text;
        const lines = this.lines;
        const pairs = [];
        let comments;
        while (lines.advance()) {
            const lineStart = lines.start;
            let end = lines.contentEnd;
            let i = lineStart;
            while (i < end && properties_isSpace(t.charCodeAt(i)))
                i++;
            if (i === end) {
                comments = undefined;
                continue;
            }
            const c = t.charCodeAt(i);
            if (c === 0x23 || c === 0x21) {
                // A comment is one natural line: a trailing backslash does not continue it.
                const from = t.charCodeAt(i + 1) === 0x20 && i + 1 < end ? i + 2 : i + 1;
                (comments ??= []).push(t.slice(from, end));
                continue;
            }
            // The logical line: this natural line and those its odd number of trailing backslashes continue it onto.
            const first = { from: i, to: end, line: lines.line, lineStart };
            let pieces;
            for (let piece = first;;) {
                let backslashes = 0;
                while (end - backslashes - 1 >= i && t.charCodeAt(end - backslashes - 1) === 0x5c)
                    backslashes++;
                const continued = backslashes % 2 === 1;
                if (continued)
                    piece.to = end - 1;
                if (!continued || !lines.advance())
                    break;
                end = lines.contentEnd;
                i = lines.start;
                while (i < end && properties_isSpace(t.charCodeAt(i)))
                    i++;
                piece = { from: i, to: end, line: lines.line, lineStart: lines.start };
                (pieces ??= [first]).push(piece);
            }
            const logical = pieces ? new LogicalLine(pieces.map((p) => t.slice(p.from, p.to)).join(''), pieces) : new LogicalLine(t, [first]);
            pairs.push(this.pair(logical, lineStart, end, lines.next, comments));
            comments = undefined;
        }
        return pairs;
    }
    /** Splits a logical line into key and value exactly as Properties.load does. */
    pair(logical, start, lastContentEnd, end, comments) {
        const { chars, from, to } = logical;
        let keyEnd = from;
        let valueStart = to;
        let separator = false;
        let escaped = false;
        while (keyEnd < to) {
            const c = chars.charCodeAt(keyEnd);
            if ((c === 0x3d || c === 0x3a) && !escaped) {
                valueStart = keyEnd + 1;
                separator = true;
                break;
            }
            if (properties_isSpace(c) && !escaped) {
                valueStart = keyEnd + 1;
                break;
            }
            escaped = c === 0x5c ? !escaped : false;
            keyEnd++;
        }
        while (valueStart < to) {
            const c = chars.charCodeAt(valueStart);
            if (!properties_isSpace(c)) {
                if (!separator && (c === 0x3d || c === 0x3a))
                    separator = true;
                else
                    break;
            }
            valueStart++;
        }
        const key = this.unescape(logical, from, keyEnd);
        const value = this.unescape(logical, valueStart, to);
        const valueAt = valueStart < to ? logical.offset(valueStart) : lastContentEnd;
        const piece = valueStart < to ? logical.pieceOf(valueStart) : logical.pieces[logical.pieces.length - 1];
        const pair = {
            key,
            value,
            start,
            end,
            valueStart: valueAt,
            writeStart: valueStart > from ? logical.offset(valueStart - 1) + 1 : valueAt,
            valueEnd: lastContentEnd,
            separator,
            bare: keyEnd === to,
            line: piece.line,
            column: this.columns.at(piece.lineStart, valueAt),
        };
        if (comments)
            pair.notes = comments.join('\n');
        return pair;
    }
    /** Java's loadConvert: \t \n \r \f and \uXXXX, any other escaped character stands for itself. */
    unescape(logical, from, to) {
        const chars = logical.chars;
        let out = '';
        let chunk = from;
        for (let k = from; k < to; k++) {
            if (chars.charCodeAt(k) !== 0x5c)
                continue;
            out += chars.slice(chunk, k);
            k++;
            chunk = k;
            if (k >= to)
                break;
            const e = chars.charCodeAt(k);
            if (e === 0x75) {
                // The four digits may run past `to`, never past the logical line.
                const code = k + 5 <= logical.to ? hex4(chars, k + 1) : -1;
                if (code < 0)
                    this.fail('Expected 4 hex digits after \\u (malformed \\uXXXX escape)', logical.offset(k - 1));
                out += String.fromCharCode(code);
                k += 4;
                chunk = k + 1;
            }
            else {
                out += e === 0x74 ? '\t' : e === 0x6e ? '\n' : e === 0x72 ? '\r' : e === 0x66 ? '\f' : chars.charAt(k);
                chunk = k + 1;
            }
        }
        if (chunk === from)
            return chars.slice(from, to);
        return chunk < to ? out + chars.slice(chunk, to) : out;
    }
}
/**
 * A logical line's characters: a range of the text itself when it is one natural line, else its natural lines' text
 * joined, with the pieces to map an index back into the file.
 */
class LogicalLine {
    chars;
    pieces;
    from;
    to;
    constructor(chars, pieces) {
        this.chars = chars;
        this.pieces = pieces;
        this.from = pieces.length === 1 ? pieces[0].from : 0;
        this.to = pieces.length === 1 ? pieces[0].to : chars.length;
    }
    /** The piece holding the character at `index` (`from` ≤ index < `to`). */
    pieceOf(index) {
        if (this.pieces.length === 1)
            return this.pieces[0];
        let at = index;
        for (const piece of this.pieces) {
            if (at < piece.to - piece.from)
                return piece;
            at -= piece.to - piece.from;
        }
        return this.pieces[this.pieces.length - 1];
    }
    /** Where the character at `index` is in the file. */
    offset(index) {
        if (this.pieces.length === 1)
            return index;
        let at = index;
        for (const piece of this.pieces) {
            if (at < piece.to - piece.from)
                return piece.from + at;
            at -= piece.to - piece.from;
        }
        const last = this.pieces[this.pieces.length - 1];
        return last.to + at;
    }
}
/** The value of the 4 hex digits at `at`, or -1. */
function hex4(t, at) {
    let code = 0;
    for (let k = at; k < at + 4; k++) {
        const c = t.charCodeAt(k);
        const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
        if (digit < 0)
            return -1;
        code = code * 16 + digit;
    }
    return code;
}
/** Reads a file as Properties.load does, keeping every pair's span (offsets index the decoded text, BOM excluded). */
function scanProperties(bytes) {
    const decoded = properties_decode(bytes);
    const pairs = new properties_Scanner(decoded.text).scan();
    const byKey = new Map();
    for (const pair of pairs)
        byKey.set(pair.key, pair);
    return { ...decoded, pairs, byKey };
}
const NAMED = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\f': '\\f' };
// What escapeText changes in a value, besides every non-ASCII character in an ASCII file.
// eslint-disable-next-line no-control-regex
const properties_ESCAPED = /[\\\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex
const ESCAPED_IN_ASCII = /[\\\u0000-\u001f\u007f-\uffff]/;
const hexUnit = (unit) => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;
/**
 * Escapes text for a key or value. Control and invisible line-breaking characters and lone surrogates always become
 * \uXXXX (other readers split lines on U+2028 or drop them); other non-ASCII only when `ascii`.
 */
function escapeText(text, ascii, extra) {
    if (!extra && !(ascii ? ESCAPED_IN_ASCII : properties_ESCAPED).test(text))
        return text;
    let out = '';
    for (let i = 0; i < text.length; i++) {
        const c = text.charAt(i);
        const unit = text.charCodeAt(i);
        const named = NAMED[c];
        if (named !== undefined) {
            out += named;
        }
        else if (extra?.test(c)) {
            out += `\\${c}`;
        }
        else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && /[\udc00-\udfff]/.test(text.charAt(i + 1))) {
            out += ascii ? hexUnit(unit) + hexUnit(text.charCodeAt(i + 1)) : c + text.charAt(i + 1);
            i++;
        }
        else if (unit < 0x20 || unit === 0x7f || unit === 0x85 || unit === 0x2028 || unit === 0x2029 || unit === 0xfeff || (unit >= 0xd800 && unit <= 0xdfff)) {
            out += hexUnit(unit);
        }
        else if (unit > 0x7e && ascii) {
            out += hexUnit(unit);
        }
        else {
            out += c;
        }
    }
    return out;
}
/** A value as written after a key: a leading space escaped (Java skips it otherwise), and a leading = or : when no separator precedes. */
function escapeValue(value, ascii, separator) {
    const escaped = escapeText(value, ascii, undefined);
    if (escaped.startsWith(' '))
        return `\\${escaped}`;
    if (!separator && /^[=:]/.test(escaped))
        return `\\${escaped}`;
    return escaped;
}
function escapeKey(key) {
    return escapeText(key, true, /[ =:#!]/);
}
const propertiesCodec = {
    id: 'properties',
    extensions: ['.properties'],
    plurals: false,
    // Properties files have no signature worth reading: `key=value` lines look like many formats, so the name decides.
    detect(fileName) {
        return /\.properties$/i.test(fileName) ? 0.9 : 0;
    },
    parse(bytes) {
        const doc = scanProperties(bytes);
        return [...doc.byKey.values()]
            .sort((a, b) => a.start - b.start)
            .map((pair) => {
            const entry = { key: pair.key, path: [pair.key], source: pair.value, line: pair.line, column: pair.column };
            if (pair.notes !== undefined)
                entry.notes = pair.notes;
            return entry;
        });
    },
    /**
     * Writes each changed value into the key's effective (last) pair on one line; an earlier repeat of the key is dead
     * text to Java and stays as it is. missing 'omit' removes every pair of the key, with its lines.
     */
    render(input) {
        const doc = scanProperties(input.source);
        const ascii = doc.style !== 'utf8';
        const t = doc.text;
        let out = '';
        let at = 0;
        let changed = false;
        for (const pair of doc.pairs) {
            const value = input.values.get(pair.key);
            if (value === undefined) {
                if (input.missing !== 'omit')
                    continue;
                // The last line may lack a terminator: take the one before it instead, so the file keeps its ending.
                const start = pair.end === t.length && !/[\r\n]$/.test(t.slice(pair.start, pair.end)) ? trimTerminator(t, pair.start) : pair.start;
                if (start < at)
                    continue;
                out += t.slice(at, start);
                at = pair.end;
                changed = true;
                continue;
            }
            const text = textValue(value, 'properties');
            if (doc.byKey.get(pair.key) !== pair || text === pair.value)
                continue;
            out += t.slice(at, pair.writeStart) + (pair.bare ? '=' : '') + escapeValue(text, ascii, pair.separator || pair.bare);
            at = pair.valueEnd;
            changed = true;
        }
        if (!changed)
            return input.source.slice();
        return properties_encode(doc, out + t.slice(at));
    },
    /**
     * Writes `key=value` lines with keys and values in ASCII with \uXXXX escapes (readable by every Java loader) and
     * notes as `#` comments above, verbatim: comments are never unescaped, and loaders skip their bytes.
     */
    renderFresh(entries) {
        const merged = new Map();
        // A repeated key keeps its first position and its last value, as Map.set does.
        for (const entry of entries)
            merged.set(entry.key, entry);
        const lines = [];
        for (const entry of merged.values()) {
            const value = textValue(entry.value, 'properties');
            if (entry.notes !== undefined)
                for (const note of entry.notes.split(/\r\n|\n|\r/))
                    lines.push(note === '' ? '#' : `# ${note}`);
            lines.push(`${escapeKey(entry.key)}=${escapeValue(value, true, true)}`);
        }
        return new TextEncoder().encode(lines.map((l) => `${l}\n`).join(''));
    },
};
/** The index of the line terminator just before `start`, or `start` itself at the beginning of the file. */
function trimTerminator(text, start) {
    if (text.charAt(start - 1) === '\n')
        return text.charAt(start - 2) === '\r' ? start - 2 : start - 1;
    if (text.charAt(start - 1) === '\r')
        return start - 1;
    return start;
}

;// CONCATENATED MODULE: ./src/core/formats/resx.ts



function parseResx(bytes) {
    const { text, bom, encoding } = decodeXml(bytes);
    const doc = scanXml(text);
    const fail = (message, at) => {
        const { line, column } = lineColumn(text, at);
        throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
    };
    if (doc.root.name !== 'root')
        fail(`Expected <root> as the root element of a .resx file, found <${doc.root.name}>`, doc.root.start + 1);
    const data = [];
    // One set operation per key: where a repeated name was first defined is looked up only when it happens.
    const seen = new Set();
    for (const el of childElements(doc.root, 'data')) {
        const name = attribute(el, 'name');
        if (!name)
            fail('Expected a name attribute on <data>', el.start + 1);
        if (attribute(el, 'type') || attribute(el, 'mimetype'))
            continue;
        const size = seen.size;
        if (seen.add(name.value).size === size) {
            const first = data.find((d) => d.key === name.value).el.start;
            fail(`Duplicate <data name="${name.value}"> (first defined at line ${lineColumn(text, first).line})`, el.start);
        }
        const values = childElements(el, 'value');
        if (values.length > 1)
            fail(`Expected one <value> in <data name="${name.value}">, found another`, values[1].start);
        data.push({ el, key: name.value, value: values[0], comment: childElements(el, 'comment')[0] });
    }
    return { text, bom, encoding, data };
}
function resx_toEntries(parsed) {
    return parsed.data.map((d) => {
        const notes = d.comment ? textContent(d.comment).trim() : '';
        const entry = { key: d.key, path: [d.key], source: d.value ? textContent(d.value) : '' };
        if (notes !== '')
            entry.notes = notes;
        const { line, column } = lineColumn(parsed.text, d.value ? d.value.openEnd : d.el.openEnd);
        entry.line = line;
        entry.column = column;
        return entry;
    });
}
function resx_escapeValue(value, eol) {
    const escaped = escapeXmlText(value);
    return eol === '\n' ? escaped : escaped.replace(/\n/g, eol);
}
function resx_render(input) {
    const parsed = parseResx(input.source);
    const { text } = parsed;
    const eol = lineEnding(text);
    const edits = [];
    for (const d of parsed.data) {
        const value = input.values.get(d.key);
        if (value === undefined) {
            if (input.missing === 'omit')
                edits.push({ start: removalStart(text, d.el.start), end: d.el.end, text: '' });
            continue;
        }
        const next = textValue(value, 'resx');
        if (d.value) {
            if (next !== textContent(d.value))
                edits.push(contentEdit(text, d.value, resx_escapeValue(next, eol)));
        }
        else if (next !== '') {
            // <data> without <value>: add one, on its own line like its siblings would be.
            const indent = lineIndent(text, d.el.start);
            const child = `${eol}${indent}${indent || '  '}<value>${resx_escapeValue(next, eol)}</value>`;
            edits.push(d.el.selfClosing ? contentEdit(text, d.el, `${child}${eol}${indent}`) : { start: d.el.openEnd, end: d.el.openEnd, text: child });
        }
    }
    if (edits.length === 0)
        return input.source.slice();
    return encodeXml(splice(text, edits), parsed.bom, parsed.encoding);
}
const RESX_HEADER = `<?xml version="1.0" encoding="utf-8"?>
<root>
  <xsd:schema id="root" xmlns="" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">
    <xsd:import namespace="http://www.w3.org/XML/1998/namespace" />
    <xsd:element name="root" msdata:IsDataSet="true">
      <xsd:complexType>
        <xsd:choice maxOccurs="unbounded">
          <xsd:element name="metadata">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" />
              </xsd:sequence>
              <xsd:attribute name="name" use="required" type="xsd:string" />
              <xsd:attribute name="type" type="xsd:string" />
              <xsd:attribute name="mimetype" type="xsd:string" />
              <xsd:attribute ref="xml:space" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="assembly">
            <xsd:complexType>
              <xsd:attribute name="alias" type="xsd:string" />
              <xsd:attribute name="name" type="xsd:string" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="data">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />
                <xsd:element name="comment" type="xsd:string" minOccurs="0" msdata:Ordinal="2" />
              </xsd:sequence>
              <xsd:attribute name="name" type="xsd:string" use="required" msdata:Ordinal="1" />
              <xsd:attribute name="type" type="xsd:string" msdata:Ordinal="3" />
              <xsd:attribute name="mimetype" type="xsd:string" msdata:Ordinal="4" />
              <xsd:attribute ref="xml:space" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="resheader">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />
              </xsd:sequence>
              <xsd:attribute name="name" type="xsd:string" use="required" />
            </xsd:complexType>
          </xsd:element>
        </xsd:choice>
      </xsd:complexType>
    </xsd:element>
  </xsd:schema>
  <resheader name="resmimetype">
    <value>text/microsoft-resx</value>
  </resheader>
  <resheader name="version">
    <value>2.0</value>
  </resheader>
  <resheader name="reader">
    <value>System.Resources.ResXResourceReader, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>
  </resheader>
  <resheader name="writer">
    <value>System.Resources.ResXResourceWriter, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>
  </resheader>
`;
/** A file as Visual Studio writes it (schema header, resheaders), with LF line ends. */
function resx_renderFresh(entries) {
    let out = RESX_HEADER;
    for (const entry of entries) {
        out += `  <data name="${escapeXmlAttribute(entry.key, '"')}" xml:space="preserve">\n`;
        out += `    <value>${escapeXmlText(textValue(entry.value, 'resx'))}</value>\n`;
        if (entry.notes !== undefined && entry.notes !== '')
            out += `    <comment>${escapeXmlText(entry.notes)}</comment>\n`;
        out += '  </data>\n';
    }
    return new TextEncoder().encode(`${out}</root>\n`);
}
const resxCodec = {
    id: 'resx',
    extensions: ['.resx'],
    plurals: false,
    detect(fileName, head) {
        const looksResx = /<root[\s>]/.test(head) && /microsoft-resx|<resheader|<data\s/.test(head);
        if (/\.resx$/i.test(fileName))
            return looksResx || head.trim() === '' ? 0.95 : 0.7;
        return looksResx ? 0.6 : 0;
    },
    parse(bytes) {
        return resx_toEntries(parseResx(bytes));
    },
    render: resx_render,
    renderFresh: resx_renderFresh,
};

;// CONCATENATED MODULE: ./src/core/formats/unity-csv.ts
// The `unity_csv` codec: the Unity Localization package's string table CSV (Key, Id, Shared Comments, Name(code) columns).




/*
 * Unity's CSV extension names a language's column after its Locale, `LocaleIdentifier.ToString()`: the .NET English
 * name and the code, e.g. `English(en)`, `Chinese (Simplified)(zh-Hans)`, and its comment column `<that> Comments`.
 * Values are Smart Strings or plain text and stay text: Unity has no plural columns (`{0:plural:…}` is a Smart String).
 * Columns: Key → Entry.key; Shared Comments and the source language's Comments → Entry.notes; Id and every other
 * column are carried through untouched. Rendering fills the target's `Name(code)` column, or adds one (named with
 * Intl.DisplayNames) after the source language and its comment column. Values are quoted as Unity writes them (always);
 * an omitted value leaves the cell bare and empty, as Unity exports a missing entry.
 */
const LANGUAGE_COLUMN = /^(.*)\(([^()]+)\)$/;
const COMMENTS_COLUMN = /^(.*\([^()]+\)) Comments$/;
// .NET's CultureInfo.EnglishName spells regional variants "English (United Kingdom)": the standard display style.
const NAMES = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });
/** The header Unity exports for a locale, e.g. `German(de)`. */
function unityColumnName(locale) {
    let name;
    try {
        name = NAMES.of(locale);
    }
    catch {
        name = undefined;
    }
    return `${name ?? locale}(${locale})`;
}
function classify(header) {
    if (header === 'Key')
        return { kind: 'key' };
    if (header === 'Shared Comments')
        return { kind: 'notes' };
    const comments = COMMENTS_COLUMN.exec(header);
    if (comments)
        return { kind: 'localeNotes', locale: LANGUAGE_COLUMN.exec(comments[1])[2] };
    const language = LANGUAGE_COLUMN.exec(header);
    if (language)
        return { kind: 'value', locale: language[2] };
    return { kind: 'ignored' };
}
const unityDialect = {
    format: 'unity_csv',
    plurals: false,
    classify,
    header: (locale) => unityColumnName(locale),
};
// Unity quotes every value it writes, even an empty one, and leaves the cell of a missing entry bare; headers are bare.
const unityQuotes = (text, { replaced, header }) => !header && (text !== '' || replaced === true);
/** Unity reads rows by the Key column (or Id, which cannot be translated): a file without one is not a string table. */
function readStringTable(bytes) {
    const table = readCsvTable(bytes);
    const { headerRow } = table;
    if (headerRow.cells.some((c) => c?.value === 'Key'))
        return table;
    const { line, column } = headerRow;
    throw new file_unparsable_error/* FileUnparsableError */.w(`Expected a 'Key' column in the header row of a Unity string table (Key,Id,Shared Comments,English(en),…) at line ${line}, column ${column}`, line, column);
}
/** A string table's entries in the column of `locale` (default English, else the first language). */
function parseUnityCsv(bytes, locale = 'en') {
    return parseCsvTable(readStringTable(bytes), unityDialect, locale);
}
const unityCsvCodec = {
    id: 'unity_csv',
    extensions: ['.csv'],
    plurals: false,
    detect(fileName, head) {
        if (!/\.csv$/i.test(fileName))
            return 0;
        const first = head.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
        if (/^"?Key"?,"?Id"?,"?Shared Comments"?(?:,|$)/.test(first))
            return 0.95;
        if (/^"?Key"?,/.test(first) && /[^,]\([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*\)"?(?:,|$)/.test(first))
            return 0.9;
        return 0.1;
    },
    parse(bytes) {
        return parseUnityCsv(bytes);
    },
    render(input) {
        const table = readStringTable(input.source);
        for (const value of input.values.values())
            textValue(value, 'unity_csv');
        return renderCsvTable(input, unityDialect, unityQuotes, table);
    },
    renderFresh(entries, options) {
        const locale = options?.locale ?? 'en';
        // Unity assigns an Id to a row whose Id is blank; it writes LF line ends and no final newline.
        const lines = [`Key,Id,Shared Comments,${writeField(unityColumnName(locale), ',', false)}`];
        for (const entry of dedupe(entries)) {
            const cells = [entry.key, '', entry.notes ?? '', textValue(entry.value, 'unity_csv')];
            lines.push(cells.map((cell, i) => (i === 1 ? cell : writeField(cell, ',', true))).join(','));
        }
        return encodeCsv(lines.join('\n'), false, 'utf-8');
    },
};

;// CONCATENATED MODULE: ./src/core/formats/unreal-po.ts






/*
 * The engine writes one message per text: `#. Key:\t<key>` and `#. SourceLocation:\t<asset>` comments, a reference,
 * msgctxt "<namespace>,<key>" (commas inside either part escaped with a backslash), msgid = the native-culture text and
 * msgstr = this culture's translation. The msgctxt identifies the text, so it is the entry key; msgid is the source.
 */
/** Scans an Unreal export, refusing what the engine would not import: a message without msgctxt, plural messages, repeated keys. */
function scanUnreal(bytes) {
    const doc = scanPo(bytes);
    const seen = new Map();
    for (const message of doc.messages) {
        if (message.header)
            continue;
        const { msgid, msgctxt, msgidPlural } = message;
        if (!msgctxt) {
            throw new file_unparsable_error/* FileUnparsableError */.w(`Expected msgctxt "Namespace,Key" before msgid at line ${msgid.line}, column ${msgid.column}; Unreal PO files identify every text by its msgctxt`, msgid.line, msgid.column);
        }
        if (msgidPlural) {
            throw new file_unparsable_error/* FileUnparsableError */.w(`Expected msgstr instead of msgid_plural at line ${msgidPlural.line}, column ${msgidPlural.column}; Unreal PO files have no plural messages`, msgidPlural.line, msgidPlural.column);
        }
        const first = seen.get(msgctxt.value);
        if (first) {
            throw new file_unparsable_error/* FileUnparsableError */.w(`Duplicate key ${JSON.stringify(msgctxt.value)} (first defined at line ${first.msgctxt.line}) at line ${msgctxt.line}, column ${msgctxt.column}`, msgctxt.line, msgctxt.column);
        }
        seen.set(msgctxt.value, message);
    }
    return doc;
}
const isKeyComment = (c) => c.kind === 'extracted' && c.text.startsWith('Key:\t');
/** The engine's first header line names the culture in English ("# Game English translation."); it follows the target. */
function headerExtras(doc, header, locale, previous) {
    const names = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });
    const nameOf = (tag) => {
        try {
            return tag ? names.of(tag) : undefined;
        }
        catch {
            return undefined;
        }
    };
    const before = nameOf(previous);
    const after = nameOf(locale);
    const first = header.comments[0];
    if (!before || !after || before === after || !first || first.kind !== 'translator')
        return [];
    const suffix = ` ${before} translation.`;
    if (!first.text.endsWith(suffix))
        return [];
    const raw = doc.text.slice(first.start, first.end);
    const at = raw.lastIndexOf(suffix);
    return [{ start: first.start + at, end: first.start + at + suffix.length, text: ` ${after} translation.` }];
}
const unrealRules = {
    keyOf: (message) => message.msgctxt.value,
    // The engine writes BCP-47 culture names (zh-CN), not gettext's ll_CC.
    language: (locale) => locale,
    headerExtras,
};
/** The key part of "Namespace,Key": after the first comma not escaped with a backslash. */
function keyPart(key) {
    const match = /^(?:[^,\\]|\\.)*,/.exec(key);
    return match ? key.slice(match[0].length) : key;
}
const unrealPoCodec = {
    id: 'unreal_po',
    extensions: ['.po'],
    plurals: false,
    detect(fileName, head) {
        if (!looksLikePo(fileName, head))
            return 0;
        const named = /\.po$/i.test(fileName);
        if (looksLikeUnreal(head))
            return named ? 0.95 : 0.5;
        return 0;
    },
    parse(bytes) {
        const entries = [];
        for (const m of scanUnreal(bytes).messages) {
            if (m.header)
                continue;
            const key = m.msgctxt.value;
            const { line, column } = messagePosition(m);
            const entry = { key, path: [key], source: m.msgid.value, line, column };
            // The Key comment repeats the key; SourceLocation and other metadata help translators.
            const notes = messageNotes(m, isKeyComment);
            if (notes !== undefined)
                entry.notes = notes;
            entries.push(entry);
        }
        return entries;
    },
    render(input) {
        for (const value of input.values.values())
            textValue(value, 'unreal_po');
        return renderCatalog(scanUnreal(input.source), input, unrealRules);
    },
    /** Writes the engine's layout: BOM, header, and per text the Key comment, msgctxt, msgid = msgstr = the value. */
    renderFresh(entries, options) {
        const locale = options?.locale ?? 'en';
        const merged = new Map();
        for (const entry of entries)
            merged.set(entry.key, entry);
        const blocks = [freshHeader(locale, gettextPlurals(locale), [['Project-Id-Version', '']])];
        for (const entry of merged.values()) {
            const value = textValue(entry.value, 'unreal_po');
            const lines = [`#. Key:\t${keyPart(entry.key).replace(/[\r\n]+/g, ' ')}`];
            if (entry.notes)
                for (const note of entry.notes.split(/\r\n|\n|\r/))
                    lines.push(note === '' ? '#.' : `#. ${note}`);
            lines.push(`msgctxt "${escapePo(entry.key)}"`, ...formatField('msgid', value, false), ...formatField('msgstr', value, false));
            blocks.push(lines);
        }
        return encodeUtf8(`${blocks.map((b) => b.join('\n')).join('\n\n')}\n`, true);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/xlsx-text.ts
// The xlsx codec's cell text: XML references and OOXML's `_xHHHH_` escapes decoded, as the fast scanner and the grid read them.

/** OOXML writes characters XML cannot carry as `_xHHHH_` (and a literal `_xHHHH_` with its '_' as `_x005F_`). */
function unescapeOoxml(text) {
    return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))) : text;
}
/** `t` from `start` to `end` with its references decoded, as one flat string. */
function decodedText(t, start, end) {
    let amp = ampersand(t, start, end);
    if (amp < 0)
        return t.slice(start, end);
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
function ampersand(t, from, end) {
    for (let i = from; i < end; i++)
        if (t.charCodeAt(i) === 0x26)
            return i;
    return -1;
}
/**
 * The length of a built-in entity or character reference at `at` (the `&`), or 0 for anything else: other entities
 * and references to characters XML forbids are left to the shared scanner.
 */
function referenceLength(t, at) {
    const c = t.charCodeAt(at + 1);
    if (c !== 0x23 /* # */) {
        if (c === 0x61 /* a */)
            return t.startsWith('mp;', at + 2) ? 5 : t.startsWith('pos;', at + 2) ? 6 : 0;
        if (c === 0x6c /* l */ || c === 0x67 /* g */)
            return t.charCodeAt(at + 2) === 0x74 && t.charCodeAt(at + 3) === 0x3b ? 4 : 0;
        if (c === 0x71 /* q */)
            return t.startsWith('uot;', at + 2) ? 6 : 0;
        return 0;
    }
    const hex = t.charCodeAt(at + 2) === 0x78; /* x */
    const digitsStart = at + (hex ? 3 : 2);
    let end = digitsStart;
    let code = 0;
    for (;;) {
        const d = t.charCodeAt(end);
        let value;
        if (d >= 0x30 && d <= 0x39)
            value = d - 0x30;
        else if (hex && ((d >= 0x41 && d <= 0x46) || (d >= 0x61 && d <= 0x66)))
            value = (d | 0x20) - 0x57;
        else
            break;
        code = code * (hex ? 16 : 10) + value;
        if (code > 0x10ffff)
            return 0;
        end++;
    }
    if (end === digitsStart || t.charCodeAt(end) !== 0x3b /* ; */)
        return 0;
    const allowed = code === 0x09 || code === 0x0a || code === 0x0d || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
    return allowed ? end + 1 - at : 0;
}
function decodeReference(t, at, length) {
    if (t.charCodeAt(at + 1) !== 0x23 /* # */)
        return decodePredefined(t, at);
    const hex = t.charCodeAt(at + 2) === 0x78;
    return String.fromCodePoint(parseInt(t.slice(at + (hex ? 3 : 2), at + length - 1), hex ? 16 : 10));
}

;// CONCATENATED MODULE: ./src/core/formats/xlsx-grid.ts

/*
 * A workbook of 50,000 rows holds 100,000 cells and more; an object per cell and per row (and an array per row) costs
 * more to collect than to read, so the grid keeps positions in typed arrays, and each cell's text in one array of
 * strings. Rows are the sheet's <row> elements in document order, cells each row's <c> elements in column order.
 * The fast scanner leaves a cell's text where it stands in the part (see addTextCell) and the grid decodes it when it
 * is asked for: a render reads few of a large sheet's cells (a parse, most of them once), and decoding each as the
 * sheet is read would cost it dearly.
 */
/** How a cell's text is read: given, or from its range of the part's text (see addTextCell). */
const GIVEN_TEXT = 0;
/** '' (a cell without a value). */
const EMPTY_TEXT = 1;
/** The range's text, references decoded. */
const xlsx_grid_PLAIN_TEXT = 2;
/** The range's text, references and then OOXML escapes decoded (inline and formula strings). */
const OOXML_TEXT = 3;
/** A boolean's: TRUE for 1, FALSE for 0, else the range's text, references decoded. */
const BOOLEAN_TEXT = 4;
/** The shared string whose index the range's start holds. */
const SHARED_TEXT = 5;
/** Named references' names, which a search must not be part of to be looked for in a cell's raw text. */
const REFERENCE_NAMES = ['amp', 'apos', 'lt', 'gt', 'quot'];
/** How a search may be looked for in a cell's raw text (see rawSearch). */
const DECODED = 0;
const UNLESS_ESCAPED = 1;
const RAW = 2;
/**
 * How `search` may be looked for in a cell's raw text rather than its decoded text. UNLESS_ESCAPED: where the raw text
 * holds no character reference or OOXML escape, it is found in the raw text just where it is found in the text; that
 * is, it holds no character a named reference (&amp; &lt; &gt; &quot; &apos;) decodes to or starts or ends with, and is
 * no part of a reference's name, so no occurrence in either text reaches into a reference. RAW: besides, found in the
 * raw text it is in the text, whatever the raw text holds: it holds neither '#' nor '_' and a character no character
 * reference or OOXML escape is spelt with (beyond '&', '#', ';', '_', 'x' and hex digits), so no occurrence in the raw
 * text reaches into one. DECODED: neither.
 */
function rawSearch(search) {
    if (search === '' || /[&;'<>"]/.test(search) || REFERENCE_NAMES.some((name) => name.includes(search)))
        return DECODED;
    return !/[#_]/.test(search) && /[^xX0-9A-Fa-f]/.test(search) ? RAW : UNLESS_ESCAPED;
}
/** The `t` attribute values a sheet uses, by code; a cell of any other type keeps its own spelling. */
const CELL_TYPES = ['n', 's', 'inlineStr', 'str', 'b', 'e', 'd'];
const OTHER_TYPE = 255;
/** The codes of the types a cell's text depends on. */
const NUMBER_TYPE = 0;
const SHARED_TYPE = 1;
const INLINE_TYPE = 2;
const STRING_TYPE = 3;
const BOOLEAN_TYPE = 4;
function xlsx_grid_grown(array, size) {
    const out = new Int32Array(Math.max(2 * array.length, size));
    out.set(array);
    return out;
}
class SheetGrid {
    /** How many rows and cells. */
    rows = 0;
    cells = 0;
    /** By row: its number in the sheet, the range of its element, where its end tag starts (`end` when self-closing). */
    rowLine;
    rowStart;
    rowEnd;
    rowCloseStart;
    /** By row: the value of its `spans`, where `recorded` (else not read); -1 when it has none. */
    rowSpansStart;
    rowSpansEnd;
    /** By row: its first cell; one more than the rows, ending at `cells`. */
    rowFirst;
    /** By cell: its 0-based column, the range of its element, its type's code and whether it counts in the shared table. */
    cellColumn;
    cellStart;
    cellEnd;
    cellType;
    cellCounted;
    /** By cell: how its text is read (GIVEN_TEXT and the others), and the range it is read from. */
    cellText;
    textStart;
    textEnd;
    /** By cell: the value of its `s`, where `recorded` (else not read); -1 when it has none. */
    cellStyleStart;
    cellStyleEnd;
    /**
     * Whether the scanner recorded where each row's `spans` and each cell's `s` are (see rowAttribute and cellAttribute):
     * a render looks them up in most rows.
     */
    recorded = false;
    /** By cell: its text, where it is given (GIVEN_TEXT). */
    values = [];
    /** The part's text and shared strings the cells' ranges are read from. */
    source = '';
    shared = [];
    /** The searches `includes` was asked for (a few, over and over), and how each may be looked for (see rawSearch). */
    searches = [];
    searchWays = [];
    otherTypes = new Map();
    /** The elements, when the shared scanner read the sheet (else undefined). */
    rowElements;
    cellElements;
    /** A grid with room for `rows` rows and `cells` cells to begin with (it grows as it needs). */
    constructor(rows = 256, cells = 512) {
        this.rowLine = new Int32Array(rows);
        this.rowStart = new Int32Array(rows);
        this.rowEnd = new Int32Array(rows);
        this.rowCloseStart = new Int32Array(rows);
        this.rowSpansStart = new Int32Array(rows);
        this.rowSpansEnd = new Int32Array(rows);
        this.rowFirst = new Int32Array(rows + 1);
        this.cellColumn = new Int32Array(cells);
        this.cellStart = new Int32Array(cells);
        this.cellEnd = new Int32Array(cells);
        this.cellType = new Uint8Array(cells);
        this.cellCounted = new Uint8Array(cells);
        this.cellText = new Uint8Array(cells);
        this.textStart = new Int32Array(cells);
        this.textEnd = new Int32Array(cells);
        this.cellStyleStart = new Int32Array(cells);
        this.cellStyleEnd = new Int32Array(cells);
    }
    /** Starts a row, which takes the cells added until the next. */
    addRow(line, start, end, closeStart, el) {
        const r = this.rows;
        if (r === this.rowLine.length) {
            this.rowLine = xlsx_grid_grown(this.rowLine, r + 1);
            this.rowStart = xlsx_grid_grown(this.rowStart, r + 1);
            this.rowEnd = xlsx_grid_grown(this.rowEnd, r + 1);
            this.rowCloseStart = xlsx_grid_grown(this.rowCloseStart, r + 1);
            this.rowSpansStart = xlsx_grid_grown(this.rowSpansStart, r + 1);
            this.rowSpansEnd = xlsx_grid_grown(this.rowSpansEnd, r + 1);
            this.rowFirst = xlsx_grid_grown(this.rowFirst, this.rowLine.length + 1);
        }
        this.rowLine[r] = line;
        this.rowStart[r] = start;
        this.rowEnd[r] = end;
        this.rowCloseStart[r] = closeStart;
        this.rowSpansStart[r] = -1;
        this.rowFirst[r] = this.cells;
        this.rowFirst[r + 1] = this.cells;
        if (el)
            (this.rowElements ??= [])[r] = el;
        this.rows = r + 1;
    }
    /** Ends the last row at its end tag. */
    closeRow(closeStart, end) {
        this.rowCloseStart[this.rows - 1] = closeStart;
        this.rowEnd[this.rows - 1] = end;
    }
    /** Adds a cell to the last row, after its others (in column order). */
    addCell(column, start, end, type, value, counted, el) {
        const code = CELL_TYPES.indexOf(type);
        if (code < 0)
            this.otherTypes.set(this.cells, type);
        this.addTypedCell(column, start, end, code < 0 ? OTHER_TYPE : code, value, counted);
        if (el)
            (this.cellElements ??= [])[this.cells - 1] = el;
    }
    /** Adds a cell of a type given by its code (see typeCode). */
    addTypedCell(column, start, end, code, value, counted) {
        this.addTextCell(column, start, end, code, GIVEN_TEXT, 0, 0, counted);
        this.values[this.cells - 1] = value;
    }
    /** Notes that the scanner records each row's `spans` and each cell's `s` (see rowAttribute and cellAttribute). */
    recordAttributes() {
        this.recorded = true;
    }
    /** Records the value of the last row's `spans`, from `from` to `to` in the part's text. */
    rowAttribute(from, to) {
        this.rowSpansStart[this.rows - 1] = from;
        this.rowSpansEnd[this.rows - 1] = to;
    }
    /** Records the value of the last cell's `s`, from `from` to `to` in the part's text. */
    cellAttribute(from, to) {
        this.cellStyleStart[this.cells - 1] = from;
        this.cellStyleEnd[this.cells - 1] = to;
    }
    /** Where the value of the row's `spans` starts (-1 when it has none) and ends, where `recorded`. */
    spansStart(row) {
        return this.rowSpansStart[row];
    }
    spansEnd(row) {
        return this.rowSpansEnd[row];
    }
    /** Where the value of the cell's `s` starts (-1 when it has none) and ends, where `recorded`. */
    styleStart(cell) {
        return this.cellStyleStart[cell];
    }
    styleEnd(cell) {
        return this.cellStyleEnd[cell];
    }
    /** The part's text and shared strings that cells added by addTextCell read their text from. */
    readFrom(source, shared) {
        this.source = source;
        this.shared = shared;
    }
    /**
     * Adds a cell whose text is read as `how` says (PLAIN_TEXT and the others) from `from` to `to` in the part's text
     * each time it is asked for; for SHARED_TEXT, `from` is the string's index. References in the range are ones the
     * fast scanner takes.
     */
    addTextCell(column, start, end, code, how, from, to, counted) {
        const c = this.cells;
        if (c >= this.cellColumn.length)
            this.growCells(c + 1);
        this.cellColumn[c] = column;
        this.cellStart[c] = start;
        this.cellEnd[c] = end;
        this.cellType[c] = code;
        this.cellCounted[c] = counted ? 1 : 0;
        this.cellText[c] = how;
        this.textStart[c] = from;
        this.textEnd[c] = to;
        this.cellStyleStart[c] = -1;
        this.cells = c + 1;
        this.rowFirst[this.rows] = this.cells;
    }
    growCells(size) {
        this.cellColumn = xlsx_grid_grown(this.cellColumn, size);
        const length = this.cellColumn.length;
        this.cellStart = xlsx_grid_grown(this.cellStart, length);
        this.cellEnd = xlsx_grid_grown(this.cellEnd, length);
        this.textStart = xlsx_grid_grown(this.textStart, length);
        this.textEnd = xlsx_grid_grown(this.textEnd, length);
        this.cellStyleStart = xlsx_grid_grown(this.cellStyleStart, length);
        this.cellStyleEnd = xlsx_grid_grown(this.cellStyleEnd, length);
        const bytes = (array) => {
            const out = new Uint8Array(length);
            out.set(array);
            return out;
        };
        this.cellType = bytes(this.cellType);
        this.cellCounted = bytes(this.cellCounted);
        this.cellText = bytes(this.cellText);
    }
    /** The row's number in the sheet. */
    line(row) {
        return this.rowLine[row];
    }
    start(row) {
        return this.rowStart[row];
    }
    end(row) {
        return this.rowEnd[row];
    }
    /** At the row's '</row>', or its end when it is self-closing. */
    closeStart(row) {
        return this.rowCloseStart[row];
    }
    rowElement(row) {
        return this.rowElements?.[row];
    }
    /** The row's cells are `first(row)` up to `first(row + 1)`. */
    first(row) {
        return this.rowFirst[row];
    }
    /** The row's cell in the column, or -1. */
    find(row, column) {
        const first = this.rowFirst[row];
        const last = this.rowFirst[row + 1];
        // Most rows leave no column out.
        const at = first + column;
        if (at < last && this.cellColumn[at] === column)
            return at;
        for (let c = first; c < last; c++) {
            const col = this.cellColumn[c];
            if (col === column)
                return c;
            if (col > column)
                break;
        }
        return -1;
    }
    /** One past the row's last cell's column. */
    width(row) {
        const last = this.rowFirst[row + 1];
        return last > this.rowFirst[row] ? this.cellColumn[last - 1] + 1 : 0;
    }
    column(cell) {
        return this.cellColumn[cell];
    }
    cellStartOf(cell) {
        return this.cellStart[cell];
    }
    cellEndOf(cell) {
        return this.cellEnd[cell];
    }
    /** The cell's `t` attribute, 'n' when absent. */
    type(cell) {
        const code = this.cellType[cell];
        return code === OTHER_TYPE ? this.otherTypes.get(cell) : CELL_TYPES[code];
    }
    isInline(cell) {
        return this.cellType[cell] === INLINE_TYPE;
    }
    /** Whether the cell is one of the shared string table's `count`: a shared string cell with a <v>. */
    counted(cell) {
        return this.cellCounted[cell] === 1;
    }
    /** The cell's text, decoded. */
    value(cell) {
        // Read each time it is asked for (a render or parse asks for most cells' text once, if at all).
        return this.cellText[cell] === GIVEN_TEXT ? this.values[cell] : this.read(cell);
    }
    read(cell) {
        const how = this.cellText[cell];
        const from = this.textStart[cell];
        if (how === SHARED_TEXT)
            return this.shared[from];
        if (how === EMPTY_TEXT)
            return '';
        const raw = decodedText(this.source, from, this.textEnd[cell]);
        if (how === OOXML_TEXT)
            return unescapeOoxml(raw);
        if (how === BOOLEAN_TEXT)
            return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
        return raw;
    }
    /** Whether the cell's text is not '', told without decoding it. */
    filled(cell) {
        const how = this.cellText[cell];
        if (how === GIVEN_TEXT)
            return this.values[cell] !== '';
        if (how === SHARED_TEXT)
            return this.shared[this.textStart[cell]] !== '';
        // A reference or an OOXML escape decodes to a character: text that is not empty does not decode to ''.
        return how !== EMPTY_TEXT && this.textEnd[cell] > this.textStart[cell];
    }
    rawSearch(search) {
        const { searches } = this;
        for (let k = 0; k < searches.length; k++)
            if (searches[k] === search)
                return this.searchWays[k];
        const way = rawSearch(search);
        if (searches.length < 8) {
            searches.push(search);
            this.searchWays.push(way);
        }
        return way;
    }
    /** Whether the cell's text includes `search`, told from its raw text where that gives the same answer. */
    includes(cell, search) {
        const how = this.cellText[cell];
        const way = how === xlsx_grid_PLAIN_TEXT || how === OOXML_TEXT ? this.rawSearch(search) : DECODED;
        if (way !== DECODED) {
            const raw = this.source.slice(this.textStart[cell], this.textEnd[cell]);
            const found = raw.includes(search);
            if (found && way === RAW)
                return true;
            if (!raw.includes('&#') && (how === xlsx_grid_PLAIN_TEXT || !raw.includes('_x')))
                return found;
        }
        return this.value(cell).includes(search);
    }
    cellElement(cell) {
        return this.cellElements?.[cell];
    }
    /** The row as an object with a cell object each, for the header row. */
    tableRow(row) {
        const cells = [];
        const line = this.rowLine[row];
        for (let c = this.rowFirst[row]; c < this.rowFirst[row + 1]; c++)
            cells[this.cellColumn[c]] = { value: this.value(c), line, column: this.cellColumn[c] + 1 };
        return { cells, line, column: 1 };
    }
    /** Whether a cell of the row holds text. */
    filledRow(row) {
        for (let c = this.rowFirst[row]; c < this.rowFirst[row + 1]; c++)
            if (this.filled(c))
                return true;
        return false;
    }
}
/** The rows of a grid from `offset` on, as the table codecs read them. */
class SheetRows {
    grid;
    offset;
    length;
    constructor(grid, offset) {
        this.grid = grid;
        this.offset = offset;
        this.length = grid.rows - offset;
    }
    width(row) {
        return this.grid.width(row + this.offset);
    }
    has(row, column) {
        return this.grid.find(row + this.offset, column) >= 0;
    }
    filled(row, column) {
        const cell = this.grid.find(row + this.offset, column);
        return cell >= 0 && this.grid.filled(cell);
    }
    text(row, column) {
        const cell = this.grid.find(row + this.offset, column);
        return cell < 0 ? '' : this.grid.value(cell);
    }
    equals(row, column, text) {
        return this.text(row, column) === text;
    }
    includes(row, column, search) {
        const cell = this.grid.find(row + this.offset, column);
        return cell < 0 ? ''.includes(search) : this.grid.includes(cell, search);
    }
    line(row) {
        return this.grid.line(row + this.offset);
    }
    column(row, column) {
        return this.grid.find(row + this.offset, column) < 0 ? 1 : column + 1;
    }
}

;// CONCATENATED MODULE: ./src/core/formats/xlsx-scan.ts
// The xlsx codec's fast path through a workbook's two large parts: the worksheet's <sheetData> and the shared string table.



/*
 * A workbook of 50,000 rows holds ten megabytes of sheet XML; the shared XML scanner builds a node for every row, cell,
 * value and text run of it, and collecting them costs more than reading. This scanner walks the content of <sheetData>
 * (or <sst>) once and keeps only the rows and cells. It takes a narrow form of XML: elements, attributes, text with
 * the five built-in entities and character references. Anything else returns undefined, and the codec scans the part
 * with the shared scanner instead: comments, CDATA, processing instructions, other entities, CRs, characters XML
 * forbids, names beyond ASCII, namespace declarations, attribute values holding a reference, a tab or a line end
 * (so a value's raw text is what a parser reads), anything not well-formed, and any sheet the codec would reject (rows
 * or cells out of order, a bad shared string index). Whatever it accepts, the shared scanner reads the same way, and
 * every error is still reported by the shared scanner, with its position.
 */
/** A cell's text from its type and content, or undefined for a shared string index outside the table. */
function xlsx_scan_cellText(type, value, inline, shared) {
    if (type === 'inlineStr')
        return inline === undefined ? '' : unescapeOoxml(inline);
    const raw = value ?? '';
    if (type === 's' && value !== undefined) {
        const index = raw.trim();
        return /^\d+$/.test(index) ? shared[Number(index)] : undefined;
    }
    if (type === 'b')
        return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    return type === 'str' ? unescapeOoxml(raw) : raw;
}
/** 0-based column of a reference's letters. */
function columnIndex(letters) {
    let n = 0;
    for (const c of letters)
        n = n * 26 + (c.charCodeAt(0) - 64);
    return n - 1;
}
/**
 * The attributes of a start tag at `start` that the fast scanner took, values as they stand: the scanner takes no
 * value a parser would read differently (references, tabs and line ends).
 */
function tagAttributes(text, start) {
    const out = [];
    for (let at = skipTagName(text, start); (at = nextAttribute(text, at)) >= 0;)
        out.push(foundAttribute(text, at));
    return out;
}
/** The attribute named `name` of a start tag the fast scanner took (see tagAttributes). */
function tagAttribute(text, start, name) {
    for (let at = skipTagName(text, start); (at = nextAttribute(text, at)) >= 0;) {
        if (found.nameEnd - found.nameStart === name.length && text.startsWith(name, found.nameStart))
            return foundAttribute(text, at);
    }
    return undefined;
}
/** Offsets of the attribute nextAttribute stepped over last. */
const found = { nameStart: 0, nameEnd: 0, valueStart: 0, valueEnd: 0 };
function skipTagName(text, start) {
    let at = start + 1;
    for (let c = text.charCodeAt(at); !isTagSpace(c) && c !== 0x3e && c !== 0x2f; c = text.charCodeAt(++at))
        ;
    return at;
}
/** Steps over the attribute at or after `at` in a well-formed start tag, returning where it ends, or -1 at the tag's end. */
function nextAttribute(text, at) {
    while (isTagSpace(text.charCodeAt(at)))
        at++;
    const c = text.charCodeAt(at);
    if (c === 0x3e || c === 0x2f || at >= text.length)
        return -1;
    found.nameStart = at;
    while (!isTagSpace(text.charCodeAt(at)) && text.charCodeAt(at) !== 0x3d)
        at++;
    found.nameEnd = at;
    while (text.charCodeAt(at) !== 0x22 && text.charCodeAt(at) !== 0x27)
        at++;
    found.valueStart = at + 1;
    found.valueEnd = text.indexOf(text[at], at + 1);
    return found.valueEnd + 1;
}
function foundAttribute(text, end) {
    const { nameStart, nameEnd, valueStart, valueEnd } = found;
    const quote = text[valueEnd] === '"' ? '"' : "'";
    return { name: text.slice(nameStart, nameEnd), value: text.slice(valueStart, valueEnd), start: nameStart, end, valueStart, valueEnd, quote };
}
function isTagSpace(c) {
    return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}
// ---------------------------------------------------------------------------------------------------------------
// Tokens
const FAIL = 0;
const END = 1;
const OPEN = 2;
const CLOSE = 3;
const TEXT = 4;
// Characters the scanner leaves to the shared one: those XML forbids, and CR (which a parser turns into a line feed).
// Decoded text never holds an unpaired surrogate (decodeXml rejects them), so they need no check here.
// eslint-disable-next-line no-control-regex
const UNUSUAL = /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/g;
const MAX_ATTRIBUTES = 32;
// Far below the shared scanner's limit, counting the part's own elements around the content.
const xlsx_scan_MAX_DEPTH = 64;
const KNOWN_TYPES = ['s', 'n', 'inlineStr', 'str', 'b', 'e', 'd'];
/** Start tags, end tags and text runs of a content range, with positions; no node objects. */
class ContentScanner {
    text;
    limit;
    prefixes;
    pos;
    /** The current start tag. */
    tagStart = 0;
    nameStart = 0;
    nameEnd = 0;
    /** Just past the prefix's colon, or the name's start. */
    localStart = 0;
    /** The first colon of the name scanned last, or -1. */
    colon = -1;
    selfClosing = false;
    attributes = 0;
    attributeNameStart = new Int32Array(MAX_ATTRIBUTES);
    attributeNameEnd = new Int32Array(MAX_ATTRIBUTES);
    valueStart = new Int32Array(MAX_ATTRIBUTES);
    valueEnd = new Int32Array(MAX_ATTRIBUTES);
    /** The current text run. */
    textStart = 0;
    textEnd = 0;
    references = false;
    /** Open elements' names, as start and end offsets. */
    open = new Int32Array(2 * xlsx_scan_MAX_DEPTH);
    depth = 0;
    /** The next '&' at or after the cursor (or -1 before the first search). */
    nextAmp = -1;
    constructor(text, from, limit, 
    /** Namespace prefixes declared on the elements around the content. */
    prefixes) {
        this.text = text;
        this.limit = limit;
        this.prefixes = prefixes;
        this.pos = from;
    }
    /** Whether the range holds nothing the scanner leaves to the shared one before reading a single tag. */
    plain() {
        const t = this.text;
        UNUSUAL.lastIndex = this.pos;
        const unusual = UNUSUAL.exec(t);
        if (unusual && unusual.index < this.limit)
            return false;
        const cdataEnd = t.indexOf(']]>', this.pos);
        return cdataEnd < 0 || cdataEnd >= this.limit;
    }
    next() {
        const t = this.text;
        const pos = this.pos;
        if (pos >= this.limit)
            return this.depth === 0 && pos === this.limit ? END : FAIL;
        if (t.charCodeAt(pos) !== 0x3c /* < */)
            return this.scanText(pos);
        const c = t.charCodeAt(pos + 1);
        if (c === 0x2f /* / */)
            return this.scanEndTag(pos);
        if (c === 0x21 /* ! */ || c === 0x3f /* ? */)
            return FAIL;
        return this.scanStartTag(pos);
    }
    scanText(pos) {
        let lt = this.text.indexOf('<', pos);
        if (lt < 0 || lt > this.limit)
            lt = this.limit;
        if (!this.takeText(pos, lt))
            return FAIL;
        this.pos = lt;
        return TEXT;
    }
    /** Makes the text from `start` to `end` the current text run, or returns false for a reference it leaves alone. */
    takeText(start, end) {
        let amp = this.nextAmp;
        if (amp < start && amp !== -2)
            amp = this.findAmp(start);
        this.references = false;
        while (amp >= 0 && amp < end) {
            const length = referenceLength(this.text, amp);
            if (length === 0)
                return false;
            this.references = true;
            amp = this.findAmp(amp + length);
        }
        this.textStart = start;
        this.textEnd = end;
        return true;
    }
    /** The next '&' from `from`, remembered; -2 when there is none left. */
    findAmp(from) {
        const at = this.text.indexOf('&', from);
        this.nextAmp = at < 0 ? -2 : at;
        return this.nextAmp;
    }
    /** The current text run, references decoded. */
    textValue() {
        return this.references ? decodedText(this.text, this.textStart, this.textEnd) : this.text.slice(this.textStart, this.textEnd);
    }
    scanEndTag(pos) {
        const t = this.text;
        if (this.depth === 0)
            return FAIL;
        const start = this.open[2 * this.depth - 2];
        const length = this.open[2 * this.depth - 1] - start;
        let at = pos + 2;
        for (let i = 0; i < length; i++)
            if (t.charCodeAt(at + i) !== t.charCodeAt(start + i))
                return FAIL;
        at += length;
        at = skipSpace(t, at);
        if (t.charCodeAt(at) !== 0x3e /* > */ || at >= this.limit)
            return FAIL;
        this.pos = at + 1;
        this.depth--;
        return CLOSE;
    }
    scanStartTag(pos) {
        const t = this.text;
        this.tagStart = pos;
        const nameStart = pos + 1;
        const nameEnd = this.scanName(nameStart);
        if (nameEnd < 0)
            return FAIL;
        this.nameStart = nameStart;
        this.nameEnd = nameEnd;
        this.localStart = this.colon < 0 ? nameStart : this.colon + 1;
        let at = nameEnd;
        let count = 0;
        let selfClosing = false;
        for (;;) {
            const before = at;
            at = skipSpace(t, at);
            const c = t.charCodeAt(at);
            if (c === 0x3e /* > */) {
                at++;
                break;
            }
            if (c === 0x2f /* / */) {
                if (t.charCodeAt(at + 1) !== 0x3e)
                    return FAIL;
                at += 2;
                selfClosing = true;
                break;
            }
            if (at === before || count === MAX_ATTRIBUTES)
                return FAIL;
            const attributeStart = at;
            const attributeEnd = this.scanName(at);
            if (attributeEnd < 0)
                return FAIL;
            // A namespace declaration would change what the names below it may use: left to the shared scanner.
            if (t.startsWith('xmlns:', attributeStart))
                return FAIL;
            at = skipSpace(t, attributeEnd);
            if (t.charCodeAt(at) !== 0x3d /* = */)
                return FAIL;
            at = skipSpace(t, at + 1);
            const quote = t.charCodeAt(at);
            if (quote !== 0x22 && quote !== 0x27)
                return FAIL;
            const valueStart = at + 1;
            const valueEnd = t.indexOf(quote === 0x22 ? '"' : "'", valueStart);
            if (valueEnd < 0 || valueEnd >= this.limit)
                return FAIL;
            for (let i = valueStart; i < valueEnd; i++) {
                const v = t.charCodeAt(i);
                // '<' is not allowed; a reference or a literal tab or line end would make the read value differ from the raw.
                if (v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a)
                    return FAIL;
            }
            for (let k = 0; k < count; k++) {
                if (sameRange(t, this.attributeNameStart[k], this.attributeNameEnd[k], attributeStart, attributeEnd))
                    return FAIL;
            }
            this.attributeNameStart[count] = attributeStart;
            this.attributeNameEnd[count] = attributeEnd;
            this.valueStart[count] = valueStart;
            this.valueEnd[count] = valueEnd;
            count++;
            at = valueEnd + 1;
        }
        if (at > this.limit)
            return FAIL;
        this.attributes = count;
        this.selfClosing = selfClosing;
        this.pos = at;
        if (!selfClosing) {
            if (this.depth === xlsx_scan_MAX_DEPTH)
                return FAIL;
            this.open[2 * this.depth] = nameStart;
            this.open[2 * this.depth + 1] = nameEnd;
            this.depth++;
        }
        return OPEN;
    }
    /**
     * The end of an ASCII name at `at`, or -1 where there is none, it goes on beyond ASCII, or it is not a qualified
     * name whose prefix is declared around the content (or is xml or xmlns).
     */
    scanName(at) {
        const t = this.text;
        const first = t.charCodeAt(at);
        if (!((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a) || first === 0x5f || first === 0x3a))
            return -1;
        let end = at + 1;
        let colon = first === 0x3a ? at : -1;
        let colons = colon < 0 ? 0 : 1;
        let c = t.charCodeAt(end);
        while ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e) {
            if (c === 0x3a && colons++ === 0)
                colon = end;
            c = t.charCodeAt(++end);
        }
        this.colon = colon;
        if (c >= 0x80)
            return -1;
        return colons === 0 || (colons === 1 && colon > at && colon < end - 1 && this.declared(at, colon)) ? end : -1;
    }
    /** Whether the prefix from `start` to `colon` is declared around the content (or is xml or xmlns). */
    declared(start, colon) {
        const t = this.text;
        const length = colon - start;
        if ((length === 3 && t.startsWith('xml', start)) || (length === 5 && t.startsWith('xmlns', start)))
            return true;
        for (const prefix of this.prefixes)
            if (prefix.length === length && t.startsWith(prefix, start))
                return true;
        return false;
    }
    /** Whether the current tag's local name is `name`. */
    isNamed(name) {
        return this.nameEnd - this.localStart === name.length && this.text.startsWith(name, this.localStart);
    }
    /** Index of the current tag's attribute named exactly `name`, or -1. */
    attribute(name) {
        for (let k = 0; k < this.attributes; k++) {
            const start = this.attributeNameStart[k];
            if (this.attributeNameEnd[k] - start === name.length && this.text.startsWith(name, start))
                return k;
        }
        return -1;
    }
    attributeValue(k) {
        return this.text.slice(this.valueStart[k], this.valueEnd[k]);
    }
}
function skipSpace(t, at) {
    let c = t.charCodeAt(at);
    while (c === 0x20 || c === 0x0a || c === 0x09)
        c = t.charCodeAt(++at);
    return at;
}
function sameRange(t, aStart, aEnd, bStart, bEnd) {
    if (aEnd - aStart !== bEnd - bStart)
        return false;
    for (let i = 0; i < aEnd - aStart; i++)
        if (t.charCodeAt(aStart + i) !== t.charCodeAt(bStart + i))
            return false;
    return true;
}
// ---------------------------------------------------------------------------------------------------------------
// Parts
/**
 * The rows of a <sheetData> whose content is `text` from `from` to `to`, or undefined to leave the sheet to the shared
 * scanner. `prefixes` are the namespace prefixes declared on <sheetData> and its ancestors.
 */
function scanSheetData(text, from, to, prefix, prefixes, shared) {
    const s = new ContentScanner(text, from, to, prefixes);
    if (!s.plain())
        return undefined;
    return new SheetReader(text, from, to, prefix, prefixes, shared).read() ?? scanSheetTokens(s, shared);
}
/** The rows of <sheetData> from its tokens (see scanSheetData). */
function scanSheetTokens(s, shared) {
    const { text } = s;
    const grid = new SheetGrid();
    let rowOpen = false;
    let line = 0;
    let previousRow = 0;
    let previousColumn = -1;
    // The open cell.
    let cellOpen = false;
    let cellStart = 0;
    let column = 0;
    let type = 'n';
    let value;
    let inline;
    // Text collected for the cell's first <v> (at depth 3 and below) or its first <is>'s <t> and <r><t> runs.
    let collecting = 0;
    let collectDepth = -1;
    let inIs = false;
    let inRun = false;
    const addCell = (end) => {
        const cellValue = xlsx_scan_cellText(type, value, inline, shared);
        if (cellValue === undefined)
            return false;
        grid.addCell(column, cellStart, end, type, cellValue, type === 's' && value !== undefined);
        cellOpen = false;
        return true;
    };
    for (;;) {
        const token = s.next();
        if (token === TEXT) {
            if (collectDepth >= 0) {
                if (collecting === 1)
                    value = value === undefined ? s.textValue() : value + s.textValue();
                else
                    inline = inline === undefined ? s.textValue() : inline + s.textValue();
            }
            continue;
        }
        if (token === OPEN) {
            // The element's depth within the content: rows at 0, cells at 1, a cell's children at 2.
            const depth = s.selfClosing ? s.depth : s.depth - 1;
            if (depth === 0) {
                if (!s.isNamed('row'))
                    continue;
                const r = s.attribute('r');
                const number = r < 0 ? previousRow + 1 : rowNumber(s, r);
                if (!Number.isInteger(number) || number <= previousRow)
                    return undefined;
                previousRow = number;
                previousColumn = -1;
                line = number;
                grid.addRow(number, s.tagStart, s.pos, s.pos);
                rowOpen = !s.selfClosing;
            }
            else if (depth === 1) {
                if (!rowOpen || !s.isNamed('c'))
                    continue;
                const r = s.attribute('r');
                if (r >= 0) {
                    column = cellColumn(s, r, line);
                    if (column < 0)
                        return undefined;
                }
                else
                    column = previousColumn + 1;
                if (column <= previousColumn)
                    return undefined;
                previousColumn = column;
                const t = s.attribute('t');
                type = t < 0 ? 'n' : knownType(s, t);
                value = undefined;
                inline = undefined;
                cellStart = s.tagStart;
                cellOpen = true;
                inIs = false;
                if (s.selfClosing && !addCell(s.pos))
                    return undefined;
            }
            else if (cellOpen && collectDepth < 0) {
                if (depth === 2) {
                    if (value === undefined && s.isNamed('v')) {
                        value = '';
                        collecting = 1;
                        collectDepth = depth;
                    }
                    else if (inline === undefined && !inIs && s.isNamed('is')) {
                        inline = '';
                        inIs = !s.selfClosing;
                    }
                }
                else if (inIs && depth === 3) {
                    if (s.isNamed('t')) {
                        collecting = 2;
                        collectDepth = depth;
                    }
                    else
                        inRun = s.isNamed('r') && !s.selfClosing;
                }
                else if (inRun && depth === 4 && s.isNamed('t')) {
                    collecting = 2;
                    collectDepth = depth;
                }
                if (s.selfClosing && collectDepth === depth)
                    collectDepth = -1;
            }
            continue;
        }
        if (token === CLOSE) {
            // The closed element's depth.
            const depth = s.depth;
            if (depth === collectDepth)
                collectDepth = -1;
            else if (depth === 3)
                inRun = false;
            else if (depth === 2)
                inIs = false;
            else if (depth === 1 && cellOpen) {
                if (!addCell(s.pos))
                    return undefined;
            }
            else if (depth === 0 && rowOpen) {
                grid.closeRow(text.lastIndexOf('</', s.pos - 1), s.pos);
                rowOpen = false;
            }
            continue;
        }
        return token === END ? grid : undefined;
    }
}
/** The row number an `r` attribute gives, as Number() reads it. */
function rowNumber(s, k) {
    const t = s.text;
    const start = s.valueStart[k];
    const end = s.valueEnd[k];
    let n = 0;
    for (let i = start; i < end; i++) {
        const c = t.charCodeAt(i);
        if (c < 0x30 || c > 0x39 || end - start > 15)
            return Number(t.slice(start, end));
        n = n * 10 + (c - 0x30);
    }
    return end > start ? n : Number.NaN;
}
/** The 0-based column of a cell reference in row `row` (like B3), or -1 when it is not one. */
function cellColumn(s, k, row) {
    const t = s.text;
    const start = s.valueStart[k];
    const end = s.valueEnd[k];
    let at = start;
    let column = 0;
    for (let c = t.charCodeAt(at); c >= 0x41 && c <= 0x5a && at - start < 3; c = t.charCodeAt(++at))
        column = column * 26 + (c - 64);
    if (at === start || at === end)
        return -1;
    const first = t.charCodeAt(at);
    if (first < 0x31 || first > 0x39)
        return -1;
    let n = 0;
    for (let i = at; i < end; i++) {
        const c = t.charCodeAt(i);
        if (c < 0x30 || c > 0x39)
            return -1;
        n = n * 10 + (c - 0x30);
    }
    if (end - at > 15)
        n = Number(t.slice(at, end));
    return n === row ? column - 1 : -1;
}
function knownType(s, k) {
    const start = s.valueStart[k];
    const length = s.valueEnd[k] - start;
    for (const type of KNOWN_TYPES)
        if (type.length === length && s.text.startsWith(type, start))
            return type;
    return s.attributeValue(k);
}
/**
 * The items of an <sst> whose content is `text` from `from` to `to`, as text and whether each is plain (one <t>), or
 * undefined to leave the table to the shared scanner.
 */
function scanSharedStrings(text, from, to, prefixes) {
    const s = new ContentScanner(text, from, to, prefixes);
    if (!s.plain())
        return undefined;
    const shared = [];
    const plain = [];
    let open = false;
    let item = '';
    let onlyText = true;
    let inRun = false;
    let collectDepth = -1;
    for (;;) {
        const token = s.next();
        if (token === TEXT) {
            if (collectDepth >= 0)
                item += s.textValue();
            continue;
        }
        if (token === OPEN) {
            const depth = s.selfClosing ? s.depth : s.depth - 1;
            if (depth === 0) {
                if (!s.isNamed('si'))
                    continue;
                if (s.selfClosing) {
                    shared.push('');
                    plain.push(true);
                    continue;
                }
                open = true;
                item = '';
                onlyText = true;
            }
            else if (open && collectDepth < 0) {
                if (depth === 1) {
                    if (s.isNamed('t'))
                        collectDepth = s.selfClosing ? -1 : depth;
                    else {
                        onlyText = false;
                        inRun = s.isNamed('r') && !s.selfClosing;
                    }
                }
                else if (inRun && depth === 2 && s.isNamed('t') && !s.selfClosing)
                    collectDepth = depth;
            }
            continue;
        }
        if (token === CLOSE) {
            const depth = s.depth;
            if (depth === collectDepth)
                collectDepth = -1;
            else if (depth === 1)
                inRun = false;
            else if (depth === 0 && open) {
                item.charCodeAt(0);
                shared.push(unescapeOoxml(item));
                plain.push(onlyText);
                open = false;
            }
            continue;
        }
        return token === END ? { shared, plain } : undefined;
    }
}
// ---------------------------------------------------------------------------------------------------------------
// Sheets as spreadsheet applications write them
/**
 * Reads a <sheetData> in the form spreadsheet applications write, character by character, without tokens: rows of
 * cells, each empty or holding a <v> or an inline string of one <t>, with nothing but whitespace between elements.
 * Its elements take the prefix <sheetData> has. Anything else (and anything the token scanner would not take) makes
 * it give up, and the token scanner reads the sheet instead: what the reader takes, the token scanner reads the same.
 * The range holds no character the scanner leaves to the shared one (ContentScanner.plain has said so).
 */
class SheetReader {
    text;
    from;
    limit;
    prefixes;
    shared;
    grid;
    /** Where the value (or the inline text) of the cell read last starts and ends, whether it has one, and its tag's end. */
    valueStart = 0;
    valueEnd = 0;
    /** The shared string index of the cell read last (see textOf). */
    sharedIndex = 0;
    /** The next '&' at or after a text read (or -1 before the first search; past the range when there is none). */
    nextAmp = -1;
    /** The start tag read last: its end, whether it closes itself, and its `r` and `t` attributes' values (-1 when absent). */
    tagEnd = 0;
    selfClosing = false;
    rStart = -1;
    rEnd = -1;
    tStart = -1;
    tEnd = -1;
    /** The value of a cell's `s` (its style) and of a row's `spans`, recorded for a render (-1 when absent). */
    sStart = -1;
    sEnd = -1;
    names = new Int32Array(2 * READER_ATTRIBUTES);
    rowTag;
    rowClose;
    cellTag;
    cellClose;
    valueOpen;
    valueClose;
    inlineOpen;
    inlineClose;
    textTag;
    textClose;
    prefixLength;
    constructor(text, from, limit, prefix, prefixes, shared) {
        this.text = text;
        this.from = from;
        this.limit = limit;
        this.prefixes = prefixes;
        this.shared = shared;
        // Room for as many rows and cells as a sheet of short texts holds in as many characters, so that the grid seldom
        // grows (each time it does, its columns are copied and the old ones left to collect).
        this.grid = new SheetGrid(Math.max(256, Math.ceil((limit - from) / 200)), Math.max(512, Math.ceil((limit - from) / 80)));
        this.prefixLength = prefix.length;
        this.rowTag = `<${prefix}row`;
        this.rowClose = `</${prefix}row>`;
        this.cellTag = `<${prefix}c`;
        this.cellClose = `</${prefix}c>`;
        this.valueOpen = `<${prefix}v>`;
        this.valueClose = `</${prefix}v>`;
        this.inlineOpen = `<${prefix}is>`;
        this.inlineClose = `</${prefix}is>`;
        this.textTag = `<${prefix}t`;
        this.textClose = `</${prefix}t>`;
    }
    read() {
        const { text: t, limit, grid } = this;
        grid.readFrom(t, this.shared);
        grid.recordAttributes();
        let at = skipSpace(t, this.from);
        let previousRow = 0;
        // The elements' prefix is the one <sheetData> has, declared around it.
        if (this.rowTag.length > 4 && !this.prefixes.includes(this.rowTag.slice(1, -4)))
            return undefined;
        while (at < limit) {
            const start = at;
            if (!startsTag(t, at, this.rowTag))
                return undefined;
            const tag = this.quickTag(at + this.rowTag.length, ROW_TAG);
            if (tag === -1 || (tag === xlsx_scan_OTHER_FORM && this.startTag(at + this.rowTag.length, ROW_TAG) < 0))
                return undefined;
            at = this.tagEnd;
            let line = previousRow + 1;
            if (this.rStart >= 0) {
                line = digits(t, this.rStart, this.rEnd);
                if (line <= previousRow)
                    return undefined;
            }
            previousRow = line;
            grid.addRow(line, start, at, at);
            if (this.sStart >= 0)
                grid.rowAttribute(this.sStart, this.sEnd);
            if (!this.selfClosing) {
                at = this.readCells(skipSpace(t, at), line);
                if (at < 0 || !hasAt(t, at, this.rowClose))
                    return undefined;
                grid.closeRow(at, at + this.rowClose.length);
                at += this.rowClose.length;
            }
            at = skipSpace(t, at);
        }
        return at === limit ? grid : undefined;
    }
    /** Reads the cells of a row from `at`, returning where they end (at the row's end tag), or -1 to give up. */
    readCells(at, line) {
        const { text: t, grid } = this;
        let previousColumn = -1;
        while (startsTag(t, at, this.cellTag)) {
            const start = at;
            const tag = this.quickTag(at + this.cellTag.length, CELL_TAG);
            if (tag === -1 || (tag === xlsx_scan_OTHER_FORM && this.startTag(at + this.cellTag.length, CELL_TAG) < 0))
                return -1;
            at = this.tagEnd;
            let column = previousColumn + 1;
            if (this.rStart >= 0) {
                column = cellReference(t, this.rStart, this.rEnd, line);
                if (column <= previousColumn)
                    return -1;
            }
            previousColumn = column;
            const type = this.tStart < 0 ? NUMBER_TYPE : typeAt(t, this.tStart, this.tEnd);
            if (type < 0)
                return -1;
            // The `s` read before the cell's content (whose <t> is a start tag read too).
            const sStart = this.sStart;
            // What the cell holds: 0 nothing, 1 a <v>, 2 an inline string's <t>.
            let holds = 0;
            if (!this.selfClosing) {
                // The content's first element, told by the character after its prefix: v or is.
                const first = t.charCodeAt(at + this.prefixLength + 1);
                if (first === 0x76 /* v */ && hasAt(t, at, this.valueOpen)) {
                    at = this.readText(at + this.valueOpen.length, this.valueClose);
                    holds = 1;
                }
                else if (first === 0x69 /* i */ && hasAt(t, at, this.inlineOpen)) {
                    at += this.inlineOpen.length;
                    if (!startsTag(t, at, this.textTag) || this.startTag(at + this.textTag.length, OTHER_TAG) < 0 || this.selfClosing)
                        return -1;
                    at = this.readText(this.tagEnd, this.textClose);
                    if (at < 0 || !hasAt(t, at, this.inlineClose))
                        return -1;
                    at += this.inlineClose.length;
                    holds = 2;
                }
                if (at < 0 || !hasAt(t, at, this.cellClose))
                    return -1;
                at += this.cellClose.length;
            }
            const how = this.textOf(type, holds);
            if (how < 0)
                return -1;
            if (how === SHARED_TEXT)
                grid.addTextCell(column, start, at, type, how, this.sharedIndex, 0, holds === 1);
            else
                grid.addTextCell(column, start, at, type, how, this.valueStart, this.valueEnd, false);
            if (sStart >= 0)
                grid.cellAttribute(sStart, this.sEnd);
            at = skipSpace(t, at);
        }
        return at;
    }
    /**
     * How the grid reads the text of a cell of the type holding what `holds` says, as cellText reads it (a shared
     * string's index in `sharedIndex`); -1 to give up.
     */
    textOf(type, holds) {
        if (type === INLINE_TYPE)
            return holds === 2 ? OOXML_TEXT : EMPTY_TEXT;
        if (holds !== 1)
            return EMPTY_TEXT;
        if (type === SHARED_TYPE) {
            const index = digits(this.text, this.valueStart, this.valueEnd);
            if (index < 0 || index >= this.shared.length)
                return -1;
            this.sharedIndex = index;
            return SHARED_TEXT;
        }
        if (type === BOOLEAN_TYPE)
            return BOOLEAN_TEXT;
        return type === STRING_TYPE ? OOXML_TEXT : xlsx_grid_PLAIN_TEXT;
    }
    /** Reads text from `at` up to the end tag `close`, returning where the end tag ends, or -1 to give up. */
    readText(at, close) {
        const t = this.text;
        const lt = t.indexOf('<', at);
        if (lt < 0 || lt >= this.limit || !hasAt(t, lt, close))
            return -1;
        let amp = this.nextAmp;
        if (amp < at)
            amp = this.nextAmp = this.findAmp(at);
        // The text's references are stepped over in place (a search per reference costs more than reading the text); the
        // next text searches again from its start.
        while (amp < lt) {
            if (t.charCodeAt(amp) === 0x26 /* & */) {
                const length = referenceLength(t, amp);
                if (length === 0)
                    return -1;
                amp += length;
            }
            else
                amp++;
        }
        this.valueStart = at;
        this.valueEnd = lt;
        return lt + close.length;
    }
    findAmp(from) {
        const at = this.text.indexOf('&', from);
        return at < 0 ? this.text.length : at;
    }
    /**
     * Reads the attributes of a row's or cell's start tag from just past its name as startTag does, where they take the
     * form writers give them: each ` name="value"`, the names r and a row's spans or a cell's s and t, none twice, and
     * the tag's end right after. Returns 0, -1 to give up, or OTHER_FORM for a tag of another form (startTag reads it).
     */
    quickTag(at, tag) {
        const t = this.text;
        const { limit } = this;
        this.rStart = this.tStart = this.sStart = -1;
        for (;;) {
            const c = t.charCodeAt(at);
            if (c === 0x3e /* > */ || c === 0x2f /* / */) {
                if (c === 0x2f && t.charCodeAt(at + 1) !== 0x3e)
                    return xlsx_scan_OTHER_FORM;
                this.selfClosing = c === 0x2f;
                this.tagEnd = at + (c === 0x2f ? 2 : 1);
                return this.tagEnd > limit ? -1 : 0;
            }
            if (c !== 0x20)
                return xlsx_scan_OTHER_FORM;
            if (tag === ROW_TAG && this.sStart < 0 && hasAt(t, at + 1, 'spans="')) {
                // A row's spans (Excel writes them on every row).
                let valueEnd = at + 8;
                for (let v = t.charCodeAt(valueEnd); v !== 0x22; v = t.charCodeAt(++valueEnd)) {
                    if (valueEnd >= limit || v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a)
                        return xlsx_scan_OTHER_FORM;
                }
                this.sStart = at + 8;
                this.sEnd = valueEnd;
                at = valueEnd + 1;
                continue;
            }
            if (t.charCodeAt(at + 2) !== 0x3d /* = */ || t.charCodeAt(at + 3) !== 0x22 /* " */)
                return xlsx_scan_OTHER_FORM;
            const name = t.charCodeAt(at + 1);
            const valueStart = at + 4;
            let valueEnd = valueStart;
            if (name === 0x72 /* r */ && this.rStart < 0) {
                while (valueEnd < limit && t.charCodeAt(valueEnd) !== 0x22)
                    valueEnd++;
                this.rStart = valueStart;
                this.rEnd = valueEnd;
            }
            else if (name === 0x74 /* t */ && tag === CELL_TAG && this.tStart < 0) {
                while (valueEnd < limit && t.charCodeAt(valueEnd) !== 0x22)
                    valueEnd++;
                this.tStart = valueStart;
                this.tEnd = valueEnd;
            }
            else if (name === 0x73 /* s */ && tag === CELL_TAG && this.sStart < 0) {
                for (let v = t.charCodeAt(valueEnd); v !== 0x22; v = t.charCodeAt(++valueEnd)) {
                    if (valueEnd >= limit || v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a)
                        return xlsx_scan_OTHER_FORM;
                }
                this.sStart = valueStart;
                this.sEnd = valueEnd;
            }
            else
                return xlsx_scan_OTHER_FORM;
            // The name must end at the '=' (a one-letter name), and the value before the content's end.
            if (valueEnd >= limit)
                return xlsx_scan_OTHER_FORM;
            at = valueEnd + 1;
        }
    }
    /**
     * Reads the attributes of a start tag from just past its name, noting `r` and `t`; returns 0 (and sets tagEnd and
     * selfClosing), or -1 to give up: on anything the token scanner would not take, a namespace declaration, or more
     * than a few attributes. The values a row's or cell's reader reads (and takes only in their narrow form: digits,
     * letters) are not checked here.
     */
    startTag(at, tag) {
        const t = this.text;
        this.rStart = this.tStart = this.sStart = -1;
        let count = 0;
        for (;;) {
            const before = at;
            at = skipSpace(t, at);
            const c = t.charCodeAt(at);
            if (c === 0x3e /* > */ || c === 0x2f /* / */) {
                if (c === 0x2f && t.charCodeAt(at + 1) !== 0x3e)
                    return -1;
                this.selfClosing = c === 0x2f;
                this.tagEnd = at + (c === 0x2f ? 2 : 1);
                return this.tagEnd > this.limit ? -1 : 0;
            }
            if (at === before || count === READER_ATTRIBUTES)
                return -1;
            const nameStart = at;
            let colon = -1;
            for (let n = t.charCodeAt(at); isNameChar(n); n = t.charCodeAt(++at)) {
                if (n === 0x3a /* : */) {
                    if (colon >= 0)
                        return -1;
                    colon = at;
                }
            }
            const nameEnd = at;
            const first = t.charCodeAt(nameStart);
            if (nameEnd === nameStart || (first >= 0x30 && first <= 0x39) || first === 0x2d || first === 0x2e)
                return -1;
            if (colon >= 0 && !this.declared(nameStart, colon, nameEnd))
                return -1;
            for (let k = 0; k < count; k++)
                if (sameRange(t, this.names[2 * k], this.names[2 * k + 1], nameStart, nameEnd))
                    return -1;
            this.names[2 * count] = nameStart;
            this.names[2 * count + 1] = nameEnd;
            count++;
            at = skipSpace(t, at);
            if (t.charCodeAt(at) !== 0x3d /* = */)
                return -1;
            at = skipSpace(t, at + 1);
            const quote = t.charCodeAt(at);
            if (quote !== 0x22 && quote !== 0x27)
                return -1;
            const valueStart = at + 1;
            // Values are short: read up to the quote rather than searched.
            let valueEnd = valueStart;
            while (valueEnd < this.limit && t.charCodeAt(valueEnd) !== quote)
                valueEnd++;
            if (valueEnd >= this.limit)
                return -1;
            const name = nameEnd - nameStart === 1 ? t.charCodeAt(nameStart) : 0;
            if (name === 0x72 /* r */ && tag !== OTHER_TAG) {
                this.rStart = valueStart;
                this.rEnd = valueEnd;
            }
            else if (name === 0x74 /* t */ && tag === CELL_TAG) {
                this.tStart = valueStart;
                this.tEnd = valueEnd;
            }
            else {
                for (let i = valueStart; i < valueEnd; i++) {
                    const v = t.charCodeAt(i);
                    if (v === 0x3c || v === 0x26 || v === 0x09 || v === 0x0a)
                        return -1;
                }
                if (tag === CELL_TAG ? name === 0x73 /* s */ : tag === ROW_TAG && nameEnd - nameStart === 5 && hasAt(t, nameStart, 'spans')) {
                    this.sStart = valueStart;
                    this.sEnd = valueEnd;
                }
            }
            at = valueEnd + 1;
        }
    }
    /** Whether an attribute's prefix (from `start` to `colon`) is declared around the content, or is xml; not xmlns. */
    declared(start, colon, end) {
        const t = this.text;
        const length = colon - start;
        if (colon === start || colon === end - 1)
            return false;
        if (length === 3 && t.startsWith('xml', start))
            return true;
        for (const prefix of this.prefixes)
            if (prefix.length === length && t.startsWith(prefix, start))
                return true;
        return false;
    }
}
const READER_ATTRIBUTES = 8;
/** What quickTag returns for a start tag it leaves to startTag. */
const xlsx_scan_OTHER_FORM = -2;
/** Which start tag the reader reads: a row's `r` and a cell's `r` and `t` are read (and so checked) by the reader. */
const ROW_TAG = 0;
const CELL_TAG = 1;
const OTHER_TAG = 2;
/** Whether the text at `at` is the start tag name `tag` (with its '<'), followed by what may end a name. */
function startsTag(t, at, tag) {
    if (!hasAt(t, at, tag))
        return false;
    const c = t.charCodeAt(at + tag.length);
    return c === 0x20 || c === 0x3e || c === 0x2f || c === 0x0a || c === 0x09;
}
function isNameChar(c) {
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2d || c === 0x2e;
}
/** The number an attribute value of one to nine digits spells, or -1. */
function digits(t, start, end) {
    if (end <= start || end - start > 9)
        return -1;
    let n = 0;
    for (let i = start; i < end; i++) {
        const c = t.charCodeAt(i);
        if (c < 0x30 || c > 0x39)
            return -1;
        n = n * 10 + (c - 0x30);
    }
    return n;
}
/** The 0-based column of a cell reference in row `row` (like B3), or -1 when it is not one. */
function cellReference(t, start, end, row) {
    let at = start;
    let column = 0;
    for (let c = t.charCodeAt(at); c >= 0x41 && c <= 0x5a && at - start < 3; c = t.charCodeAt(++at))
        column = column * 26 + (c - 64);
    if (at === start || t.charCodeAt(at) === 0x30)
        return -1;
    return digits(t, at, end) === row ? column - 1 : -1;
}
/**
 * Whether the text at `at` is `piece`, compared character by character: the pieces are a few characters long, and a
 * call to startsWith costs more than the comparison.
 */
function hasAt(t, at, piece) {
    for (let i = 0; i < piece.length; i++)
        if (t.charCodeAt(at + i) !== piece.charCodeAt(i))
            return false;
    return true;
}
/** The code of the cell type spelt from `start` to `end` (see CELL_TYPES), or -1 for another. */
function typeAt(t, start, end) {
    const length = end - start;
    if (length === 1) {
        const c = t.charCodeAt(start);
        return c === 0x6e /* n */ ? NUMBER_TYPE : c === 0x73 /* s */ ? SHARED_TYPE : c === 0x62 /* b */ ? BOOLEAN_TYPE : CELL_TYPES.indexOf(t[start]);
    }
    if (length === 9 && t.charCodeAt(start) === 0x69 /* i */ && hasAt(t, start, 'inlineStr'))
        return INLINE_TYPE;
    return length === 3 && hasAt(t, start, 'str') ? STRING_TYPE : CELL_TYPES.indexOf(t.slice(start, end));
}

;// CONCATENATED MODULE: ./src/core/formats/xlsx-write.ts
// The xlsx codec's writer of a rewritten part: the source's bytes between edits, and each edit's text, into one buffer.

// Control characters XML 1.0 cannot carry even as references; Excel writes them as `_xHHHH_`.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex
const HAS_XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
function escapeOoxml(text) {
    // Most values hold neither a literal `_x` nor a character XML cannot carry.
    if (!text.includes('_x') && !HAS_XML_FORBIDDEN.test(text))
        return text;
    return text
        .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
        .replace(XML_FORBIDDEN, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}
const xlsx_write_SPACE = /\s/;
/** Whether a character is whitespace as /\s/ reads it. */
function xlsx_write_isSpace(c) {
    if (c < 0x80)
        return c === 0x20 || (c >= 0x09 && c <= 0x0d);
    return xlsx_write_SPACE.test(String.fromCharCode(c));
}
/** Whether a `t` element needs `xml:space`, to keep edge whitespace and line ends from being trimmed by spreadsheet apps. */
function preservesSpace(value) {
    // Only the edge characters are tested: a pattern anchored at the end would try every position of the value.
    return (value !== '' && (xlsx_write_isSpace(value.charCodeAt(0)) || xlsx_write_isSpace(value.charCodeAt(value.length - 1)))) || value.includes('\n');
}
// One encoder for every render: it holds no state between calls.
const xlsx_write_UTF8 = new TextEncoder();
const UTF8_TEXT = new TextDecoder('utf-8', { ignoreBOM: true });
/** ASCII text as bytes, for the pieces a render writes over and over. */
const ascii = (text) => xlsx_write_UTF8.encode(text);
/**
 * What writeText makes of each byte of UTF-8 text: most are written as they are; '&', '<', '>' and CR are escaped; a
 * line feed is noted; a control character XML cannot carry, a '_' before an 'x' (which may read as an OOXML escape)
 * and EF BF BE or EF BF BF (U+FFFE and U+FFFF) send the text the way through strings.
 */
const xlsx_write_PLAIN = 0;
const xlsx_write_ESCAPED = 1;
const LINE_END = 2;
const FORBIDDEN = 3;
const xlsx_write_UNDERSCORE = 4;
const EF = 5;
const TEXT_BYTES = new Uint8Array(256);
for (let b = 0; b < 0x20; b++)
    TEXT_BYTES[b] = b === 0x09 ? xlsx_write_PLAIN : FORBIDDEN;
for (const b of [0x26, 0x3c, 0x3e, 0x0d])
    TEXT_BYTES[b] = xlsx_write_ESCAPED;
TEXT_BYTES[0x0a] = LINE_END;
TEXT_BYTES[0x5f] = xlsx_write_UNDERSCORE;
TEXT_BYTES[0xef] = EF;
/** Room writeText encodes text into before copying it escaped: for text of up to a third as many UTF-16 units. */
const SCRATCH = new Uint8Array(12288);
/** What writeText returns for text that holds a line feed. */
const LINE_FEED = 1;
const xlsx_write_AMP = ascii('&amp;');
const xlsx_write_LT = ascii('&lt;');
const xlsx_write_GT = ascii('&gt;');
const xlsx_write_CR = ascii('&#13;');
/** Room for `size` bytes, not zeroed: only what is written is ever read, and a render's buffer is several megabytes. */
function uninitialized(size) {
    const buffer = Buffer.allocUnsafe(size);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, size);
}
/** Writes `piece` into `out` at `at`, returning where it ends. */
function put(out, at, piece) {
    for (let k = 0; k < piece.length; k++)
        out[at + k] = piece[k];
    return at + piece.length;
}
/**
 * A part's new bytes, written in document order: the source between edits, and each edit's text, encoded as UTF-8 as
 * they come into one buffer (a render of a large sheet writes a few pieces per row, and strings joined first would be
 * copied twice and collected). The source between edits is copied from its bytes where they are its text one byte a
 * character (ASCII, as most sheets are), else encoded again. A part in UTF-16 is encoded again at the end.
 */
class PartWriter {
    part;
    /** The bytes written, and room for more. */
    bytes;
    size = 0;
    /** The source's text is written up to here. */
    at = 0;
    /** The source's bytes past the BOM where each is a character of its text (an ASCII part in UTF-8), else undefined. */
    raw;
    /** Whether anything was replaced or inserted. */
    edited = false;
    constructor(part) {
        this.part = part;
        const { text, bom, encoding, bytes } = part;
        const skip = bom ? 3 : 0;
        // A plain view (a Buffer's subarray costs several times a Uint8Array's, and the source is copied in many pieces).
        this.raw = encoding === 'utf-8' && bytes.length - skip === text.length ? new Uint8Array(bytes.buffer, bytes.byteOffset + skip, text.length) : undefined;
        // Room for the source, and half as much again for what a render adds (a column of values, most often); it grows
        // when that is not enough.
        this.bytes = uninitialized(text.length + (text.length >> 1) + 1024);
        if (bom && encoding === 'utf-8')
            this.size = xlsx_write_UTF8.encodeInto('\uFEFF', this.bytes).written;
    }
    /** Copies the source up to `start` and leaves it out up to `end`; what is written next takes its place. */
    replace(start, end) {
        const { text } = this.part;
        if (start < this.at || end < start || end > text.length)
            throw new Error(`xlsx: edit ${start}..${end} overlaps another or lies outside the text`);
        if (start > this.at)
            this.copy(start);
        this.at = end;
        this.edited = true;
    }
    /** Copies the source from where it is written up to `to`. */
    copy(to) {
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
    write(piece) {
        // Three bytes a UTF-16 unit at most (a surrogate pair takes four for two). Lone surrogates are written as U+FFFD,
        // as TextEncoder writes them.
        this.room(3 * piece.length);
        this.size += xlsx_write_UTF8.encodeInto(piece, this.bytes.subarray(this.size)).written;
    }
    /** Writes ASCII text (a column's name), a byte a character. */
    writeAscii(piece) {
        this.room(piece.length);
        const out = this.bytes;
        let at = this.size;
        for (let i = 0; i < piece.length; i++)
            out[at++] = piece.charCodeAt(i);
        this.size = at;
    }
    /** Writes bytes (a piece written over and over, encoded once). */
    writeBytes(piece) {
        this.room(piece.length);
        this.size = put(this.bytes, this.size, piece);
    }
    /** Writes a non-negative integer's digits. */
    writeNumber(n) {
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
        for (let m = n; m >= 10; m = Math.floor(m / 10))
            digits++;
        this.room(digits);
        const out = this.bytes;
        let at = this.size + digits;
        this.size = at;
        for (let m = n; at > this.size - digits; m = Math.floor(m / 10))
            out[--at] = 0x30 + (m % 10);
    }
    /** Writes a `t` element: `open` (`spacedOpen` where the text needs `xml:space`: see preservesSpace), text, `close`. */
    writeTextElement(open, spacedOpen, value, close) {
        // The plain open tag goes first; the text's bytes move up for the spaced one where it needs it (told from the line
        // feed the text's scan notes, and its first and last characters), as few do.
        const start = this.size;
        this.writeBytes(open);
        const from = this.size;
        const scanned = this.writeText(value);
        const n = value.length;
        const spaced = scanned < 0 ? preservesSpace(value) : scanned === LINE_FEED || (n > 0 && (xlsx_write_isSpace(value.charCodeAt(0)) || xlsx_write_isSpace(value.charCodeAt(n - 1))));
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
    writeText(value) {
        // Encoded into scratch room (a view of the buffer for each text would be garbage for each), then copied escaped.
        if (3 * value.length > SCRATCH.length)
            return this.writeLongText(value);
        const length = xlsx_write_UTF8.encodeInto(value, SCRATCH).written;
        this.room(5 * length);
        const out = this.bytes;
        const from = this.size;
        let to = from;
        let lineFeed = 0;
        for (let i = 0; i < length; i++) {
            const b = SCRATCH[i];
            const kind = TEXT_BYTES[b];
            if (kind === xlsx_write_PLAIN)
                out[to++] = b;
            else if (kind === xlsx_write_ESCAPED)
                to = put(out, to, b === 0x26 ? xlsx_write_AMP : b === 0x3c ? xlsx_write_LT : b === 0x3e ? xlsx_write_GT : xlsx_write_CR);
            else if (kind === LINE_END) {
                out[to++] = b;
                lineFeed = LINE_FEED;
            }
            else if (kind === FORBIDDEN || (kind === xlsx_write_UNDERSCORE ? SCRATCH[i + 1] === 0x78 && i + 1 < length : i + 2 < length && SCRATCH[i + 1] === 0xbf && SCRATCH[i + 2] >= 0xbe)) {
                this.size = from;
                this.write(escapeXmlText(escapeOoxml(value)));
                return -1;
            }
            else
                out[to++] = b;
        }
        // Unpaired surrogates are written as U+FFFD, as escapeXmlText writes them.
        this.size = to;
        return lineFeed;
    }
    /** writeText for text too long for the scratch room: encoded in place, then escaped there. */
    writeLongText(value) {
        const from = this.size;
        this.write(value);
        const { bytes } = this;
        const end = this.size;
        let escapes = 0;
        let first = end;
        let lineFeed = 0;
        for (let i = from; i < end; i++) {
            const kind = TEXT_BYTES[bytes[i]];
            if (kind === xlsx_write_PLAIN)
                continue;
            if (kind === xlsx_write_ESCAPED) {
                if (escapes++ === 0)
                    first = i;
            }
            else if (kind === LINE_END) {
                lineFeed = LINE_FEED;
            }
            else if (kind === FORBIDDEN || (kind === xlsx_write_UNDERSCORE ? i + 1 < end && bytes[i + 1] === 0x78 : i + 2 < end && bytes[i + 1] === 0xbf && bytes[i + 2] >= 0xbe)) {
                this.size = from;
                this.write(escapeXmlText(escapeOoxml(value)));
                return -1;
            }
        }
        if (escapes === 0)
            return lineFeed;
        // Each escape takes at most four bytes more: the bytes from the first move up, and are copied back down escaped.
        const shift = 4 * escapes;
        this.room(shift);
        const out = this.bytes;
        out.copyWithin(first + shift, first, end);
        let to = first;
        for (let i = first + shift; i < end + shift; i++) {
            const b = out[i];
            if (b === 0x26)
                to = put(out, to, xlsx_write_AMP);
            else if (b === 0x3c)
                to = put(out, to, xlsx_write_LT);
            else if (b === 0x3e)
                to = put(out, to, xlsx_write_GT);
            else if (b === 0x0d)
                to = put(out, to, xlsx_write_CR);
            else
                out[to++] = b;
        }
        this.size = to;
        return lineFeed;
    }
    /** Makes room for `more` bytes past the end. */
    room(more) {
        if (this.bytes.length - this.size >= more)
            return;
        const grown = uninitialized(Math.max(2 * this.bytes.length, this.size + more));
        grown.set(this.bytes.subarray(0, this.size));
        this.bytes = grown;
    }
    /** The whole part, the rest of the source included, encoded as the source part was. */
    encode() {
        const { text, bom, encoding } = this.part;
        if (this.at < text.length)
            this.copy(text.length);
        this.at = text.length;
        const bytes = this.bytes.subarray(0, this.size);
        return encoding === 'utf-8' ? bytes : encodeXml(UTF8_TEXT.decode(bytes), bom, encoding);
    }
}

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
// EXTERNAL MODULE: ./src/core/archive-limits.ts
var archive_limits = __webpack_require__(6430);
// EXTERNAL MODULE: ./src/core/read-zip.ts + 2 modules
var read_zip = __webpack_require__(8848);
;// CONCATENATED MODULE: ./src/core/formats/xlsx-zip.ts
// The xlsx codec's ZIP container: reads a workbook's XML parts, rebuilds an archive with some entries replaced, writes a new one.




const failWorkbook = (message) => {
    throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line 1, column 1`, 1, 1);
};
// Only the XML parts are read; images and other media stay compressed.
const XML_PART = /\.(?:xml|rels)$/i;
/**
 * The archive's XML parts by name, inflated within the budget (a fresh one for the limits, the defaults when none is
 * given); media entries are counted toward the entry limit but not inflated.
 */
function unzip(input, budget) {
    if (input[0] !== 0x50 || input[1] !== 0x4b)
        failWorkbook('Expected an .xlsx workbook (a ZIP archive starting with "PK")');
    try {
        return (0,read_zip/* readZip */.u)(input, { budget, filter: (name) => XML_PART.test(name) });
    }
    catch (error) {
        if (error instanceof archive_limits/* ArchiveLimitError */.w)
            throw error;
        return failWorkbook(`Expected an .xlsx workbook, but the ZIP archive is damaged (${error.message})`);
    }
}
function readCentralDirectory(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let eocd = -1;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
        if (view.getUint32(i, true) === 0x06054b50) {
            eocd = i;
            break;
        }
    }
    if (eocd < 0)
        failWorkbook('Expected an .xlsx workbook, but the ZIP archive has no central directory');
    const count = view.getUint16(eocd + 10, true);
    const offset = view.getUint32(eocd + 16, true);
    if (count === 0xffff || offset === 0xffffffff)
        failWorkbook('ZIP64 workbooks (over 4 GB or 65535 parts) are not supported');
    const records = [];
    let at = offset;
    const names = new TextDecoder();
    for (let i = 0; i < count; i++) {
        if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50)
            failWorkbook('Expected an .xlsx workbook, but its ZIP central directory is damaged');
        const length = 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
        records.push({
            name: names.decode(bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))),
            localOffset: view.getUint32(at + 42, true),
            raw: bytes.subarray(at, at + length),
        });
        at += length;
    }
    return { records, offset, end: bytes.subarray(eocd) };
}
const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++)
        c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
});
/** zlib's own CRC-32 where Node has it (20.15 and later), else the table below. */
const nativeCrc32 = external_node_zlib_.crc32;
function crc32(data) {
    if (nativeCrc32)
        return nativeCrc32(data);
    let c = -1;
    for (let i = 0; i < data.length; i++)
        c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
    return (c ^ -1) >>> 0;
}
function concat(parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
        out.set(part, at);
        at += part.length;
    }
    return out;
}
/**
 * zlib's fastest level for parts a render rewrites: a 17 MB sheet deflates in about 15 ms rather than 90 at level 6,
 * for 5% more bytes (sheet XML repeats itself enough for the fast matcher). Fresh workbooks keep level 6.
 */
const REWRITE_LEVEL = 1;
const FRESH_LEVEL = 6;
/** A local header (from a template's, or fresh) for a deflated entry; returns the header and the data. */
function localEntry(name, data, level, template) {
    // Node's zlib, native code: three to four times faster than deflating in JavaScript on a large sheet.
    const body = external_node_zlib_.deflateRawSync(data, { level });
    const header = new Uint8Array(30 + name.length);
    const view = new DataView(header.buffer);
    if (template)
        header.set(template.subarray(0, 30));
    else {
        view.setUint32(0, 0x04034b50, true);
        view.setUint16(12, 0x21, true); // 1980-01-01, so fresh files are reproducible
    }
    const crc = crc32(data);
    view.setUint16(4, Math.max(20, view.getUint16(4, true)), true);
    // Sizes are known up front, so no data descriptor follows (bit 3 off); UTF-8 names keep bit 11.
    view.setUint16(6, view.getUint16(6, true) & ~0x0008, true);
    view.setUint16(8, 8, true);
    view.setUint32(14, crc, true);
    view.setUint32(18, body.length, true);
    view.setUint32(22, data.length, true);
    view.setUint16(26, name.length, true);
    view.setUint16(28, 0, true);
    header.set(name, 30);
    return { header, body, crc };
}
/**
 * A plain Uint8Array of its own: a subclass such as Node's Buffer may be a view into a shared pool, and its `slice`
 * returns a view, which would put the DataViews below at the wrong offsets.
 */
function ownBytes(bytes) {
    return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes);
}
/** Rebuilds the archive with some entries replaced; every other entry's bytes (headers, data, descriptors) are copied. */
function rezip(input, replacements) {
    const bytes = ownBytes(input);
    const dir = readCentralDirectory(bytes);
    const byOffset = [...dir.records].sort((a, b) => a.localOffset - b.localOffset);
    const parts = [bytes.subarray(0, byOffset[0]?.localOffset ?? dir.offset)];
    let size = parts[0].length;
    const moved = new Map();
    byOffset.forEach((record, i) => {
        const end = byOffset[i + 1]?.localOffset ?? dir.offset;
        const data = replacements.get(record.name);
        if (!data) {
            moved.set(record, { offset: size });
            parts.push(bytes.subarray(record.localOffset, end));
            size += end - record.localOffset;
            return;
        }
        const nameLength = new DataView(bytes.buffer, bytes.byteOffset + record.localOffset).getUint16(26, true);
        const name = bytes.subarray(record.localOffset + 30, record.localOffset + 30 + nameLength);
        const { header, body, crc } = localEntry(name, data, REWRITE_LEVEL, bytes.subarray(record.localOffset));
        moved.set(record, { offset: size, crc, compressed: body.length, length: data.length });
        parts.push(header, body);
        size += header.length + body.length;
    });
    const directoryStart = size;
    for (const record of dir.records) {
        const raw = record.raw.slice();
        const view = new DataView(raw.buffer);
        const m = moved.get(record);
        view.setUint32(42, m.offset, true);
        if (m.crc !== undefined) {
            view.setUint16(8, view.getUint16(8, true) & ~0x0008, true);
            view.setUint16(10, 8, true);
            view.setUint32(16, m.crc, true);
            view.setUint32(20, m.compressed, true);
            view.setUint32(24, m.length, true);
        }
        parts.push(raw);
        size += raw.length;
    }
    const end = dir.end.slice();
    const endView = new DataView(end.buffer);
    endView.setUint32(12, size - directoryStart, true);
    endView.setUint32(16, directoryStart, true);
    parts.push(end);
    return concat(parts);
}
/** A new archive of the given files, deflated, in order. */
function zip(files) {
    const parts = [];
    const central = [];
    let size = 0;
    for (const [path, text] of files) {
        const name = new TextEncoder().encode(path);
        const data = new TextEncoder().encode(text);
        const { header, body, crc } = localEntry(name, data, FRESH_LEVEL);
        const record = new Uint8Array(46 + name.length);
        const view = new DataView(record.buffer);
        view.setUint32(0, 0x02014b50, true);
        view.setUint16(4, 20, true);
        view.setUint16(6, 20, true);
        view.setUint16(10, 8, true);
        view.setUint16(14, 0x21, true);
        view.setUint32(16, crc, true);
        view.setUint32(20, body.length, true);
        view.setUint32(24, data.length, true);
        view.setUint16(28, name.length, true);
        view.setUint32(42, size, true);
        record.set(name, 46);
        central.push(record);
        parts.push(header, body);
        size += header.length + body.length;
    }
    const directory = concat(central);
    const end = new Uint8Array(22);
    const view = new DataView(end.buffer);
    view.setUint32(0, 0x06054b50, true);
    view.setUint16(8, files.length, true);
    view.setUint16(10, files.length, true);
    view.setUint32(12, directory.length, true);
    view.setUint32(16, size, true);
    return concat([...parts, directory, end]);
}

;// CONCATENATED MODULE: ./src/core/formats/xlsx.ts







/*
 * Columns follow the csv codec's conventions (key, language, plural-category and note columns), read from the first
 * worksheet's first non-empty row. Entry.line and Entry.column are the sheet's row and column numbers (B3 → 3, 2).
 * Rendering splices the worksheet XML: a changed cell is rewritten in place (keeping its style), a cell that empties
 * is removed (or kept bare where it has a style), and an added language's columns go after the last column, since
 * inserting columns would move every reference in the workbook. New text goes to the shared string table when the
 * workbook has one (existing strings are never edited: other cells may share them), else inline. Only the worksheet
 * and sharedStrings entries are recompressed; every other zip entry is copied byte for byte. Omitting a row of the
 * workbook's own language removes its <row> (a blank row remains, so no reference moves). Text is XML-escaped, with a CR
 * as `&#13;` and characters XML cannot carry as OOXML's `_xHHHH_` (a literal `_xHHHH_` gets its '_' escaped).
 * The content of <sheetData> and <sst> (nearly all of a large workbook) is read by xlsx-scan's fast scanner, the rest
 * of those parts by the shared XML scanner; a part the fast scanner does not take is read by the shared one whole.
 */
const xlsxDialect = {
    format: 'xlsx',
    plurals: true,
    classify: classifyHeader,
    header(locale, like, category) {
        if (like.id === '' && category)
            return category;
        const tag = spellLike(locale, like.locale);
        return category ? `${tag}${like.separator || '_'}${category}` : tag;
    },
};
function inPart(path, read) {
    try {
        return read();
    }
    catch (error) {
        if (error instanceof file_unparsable_error/* FileUnparsableError */.w)
            throw new file_unparsable_error/* FileUnparsableError */.w(`In ${path}: ${error.message}`, error.line, error.column);
        throw error;
    }
}
function decodePart(files, path) {
    const bytes = files[path];
    if (!bytes)
        return failWorkbook(`Expected the workbook part ${path}, which the package's relationships name, but it is missing`);
    return { path, ...inPart(path, () => decodeXml(bytes)), bytes };
}
function scanPart(part) {
    return { ...part, doc: inPart(part.path, () => scanXml(part.text)) };
}
function xlsx_readPart(files, path) {
    return scanPart(decodePart(files, path));
}
const localName = (name) => name.slice(name.indexOf(':') + 1);
const children = (el, name) => el.children.filter((n) => n.kind === 'element' && localName(n.name) === name);
const child = (el, name) => children(el, name)[0];
function partError(part, message, at) {
    return new file_unparsable_error/* FileUnparsableError */.w(`In ${part.path}: ${message} at line ${at.line}, column ${at.column}`, at.line, at.column);
}
function expectRoot(part, name) {
    const { root } = part.doc;
    if (localName(root.name) !== name)
        throw partError(part, `Expected a <${name}> root element, found <${root.name}>`, root);
    return root;
}
function relationships(files, source) {
    const slash = source.lastIndexOf('/');
    const path = `${source.slice(0, slash + 1)}_rels/${source.slice(slash + 1)}.rels`;
    const out = new Map();
    if (!files[path])
        return out;
    const part = xlsx_readPart(files, path);
    for (const rel of children(expectRoot(part, 'Relationships'), 'Relationship')) {
        const id = attribute(rel, 'Id')?.value;
        const target = attribute(rel, 'Target')?.value;
        if (id && target && attribute(rel, 'TargetMode')?.value !== 'External') {
            out.set(id, { type: attribute(rel, 'Type')?.value ?? '', target: resolve(source, target) });
        }
    }
    return out;
}
/** A relationship target as a zip path: absolute ('/xl/…', as openpyxl writes) or relative to the source part's folder. */
function resolve(source, target) {
    const segments = target.startsWith('/') ? [] : source.split('/').slice(0, -1);
    for (const segment of target.split('/')) {
        if (segment === '..')
            segments.pop();
        else if (segment !== '.' && segment !== '')
            segments.push(segment);
    }
    return segments.join('/');
}
/** The text of a string item or inline string, before unescapeOoxml: its `t`, or its rich-text runs' `t`s; phonetic runs are not text. */
function runText(el) {
    let out = '';
    for (const node of el.children) {
        if (node.kind !== 'element')
            continue;
        const name = localName(node.name);
        if (name === 't')
            out += textContent(node);
        else if (name === 'r')
            for (const t of children(node, 't'))
                out += textContent(t);
    }
    return out;
}
const COLUMN_REF = /^([A-Z]{1,3})([1-9][0-9]*)$/;
// Names of the first columns, which a render asks for once per row.
const COLUMN_NAMES = [];
function columnName(index) {
    if (index < 64)
        return (COLUMN_NAMES[index] ??= spellColumn(index));
    return spellColumn(index);
}
function spellColumn(index) {
    let name = '';
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
        name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    return name;
}
function prefixOf(el) {
    const colon = el.name.indexOf(':');
    return colon < 0 ? '' : el.name.slice(0, colon + 1);
}
/** The namespace prefixes an element declares. */
function declaredPrefixes(el) {
    return el.attributes.filter((a) => a.name.startsWith('xmlns:')).map((a) => a.name.slice(6));
}
function maskContent(text, tag) {
    const open = tag.exec(text);
    if (!open)
        return undefined;
    const name = open[0].slice(1, -1);
    const from = text.indexOf('>', open.index) + 1;
    if (from === 0 || text.charCodeAt(from - 2) === 0x2f /* / */)
        return undefined;
    // Its end tag is the last one of the name (the scan checks it closes this element).
    const to = text.lastIndexOf(`</${name}`);
    if (to < from)
        return undefined;
    try {
        return { doc: scanXml(text.slice(0, from) + text.slice(to)), start: open.index, from, to };
    }
    catch {
        return undefined;
    }
}
/** Whether the masked element is `el`, as the shared scanner read it with its content left out. */
function isMasked(el, masked) {
    return el !== undefined && el.start === masked.start && el.openEnd === masked.from && el.closeStart === masked.from;
}
/** An attribute of the masked document, at its place in the part's text. */
function unmask(a, masked) {
    const by = a.start >= masked.from ? masked.to - masked.from : 0;
    return by === 0 ? a : { ...a, start: a.start + by, end: a.end + by, valueStart: a.valueStart + by, valueEnd: a.valueEnd + by };
}
const SHEET_DATA_TAG = /<(?:[A-Za-z_][A-Za-z0-9_.-]*:)?sheetData[ \t\r\n/>]/;
const SST_TAG = /<(?:[A-Za-z_][A-Za-z0-9_.-]*:)?sst[ \t\r\n/>]/;
function readSheet(files, path, shared) {
    const part = decodePart(files, path);
    return readSheetQuickly(part, shared) ?? readSheetFully(part, shared);
}
function readSheetQuickly(part, shared) {
    const masked = maskContent(part.text, SHEET_DATA_TAG);
    if (!masked)
        return undefined;
    const root = masked.doc.root;
    const data = localName(root.name) === 'worksheet' ? child(root, 'sheetData') : undefined;
    if (!isMasked(data, masked))
        return undefined;
    const grid = scanSheetData(part.text, masked.from, masked.to, prefixOf(data), [...declaredPrefixes(root), ...declaredPrefixes(data)], shared);
    if (!grid)
        return undefined;
    const dimension = child(root, 'dimension');
    const ref = dimension && attribute(dimension, 'ref');
    return { part, grid, ns: prefixOf(data), dimension: ref && unmask(ref, masked) };
}
/** The sheet read by the shared scanner, which reports anything malformed with its position. */
function readSheetFully(part, shared) {
    const sheet = scanPart(part);
    const worksheet = expectRoot(sheet, 'worksheet');
    const grid = new SheetGrid();
    const data = child(worksheet, 'sheetData');
    let previousRow = 0;
    for (const rowEl of data ? children(data, 'row') : []) {
        const r = attribute(rowEl, 'r')?.value;
        const number = r === undefined ? previousRow + 1 : Number(r);
        if (!Number.isInteger(number) || number <= previousRow)
            throw partError(sheet, `Expected rows in ascending order with numeric r attributes, found r=${JSON.stringify(r)}`, rowEl);
        previousRow = number;
        grid.addRow(number, rowEl.start, rowEl.end, rowEl.closeStart, rowEl);
        let previousColumn = -1;
        for (const cellEl of children(rowEl, 'c')) {
            const ref = attribute(cellEl, 'r')?.value;
            const match = ref === undefined ? undefined : COLUMN_REF.exec(ref);
            if (ref !== undefined && (!match || Number(match[2]) !== number)) {
                throw partError(sheet, `Expected a cell reference in row ${number} (like A${number}), found ${JSON.stringify(ref)}`, cellEl);
            }
            const column = match ? columnIndex(match[1]) : previousColumn + 1;
            if (column <= previousColumn)
                throw partError(sheet, `Expected cells in column order, found ${JSON.stringify(ref)} after column ${columnName(previousColumn)}`, cellEl);
            previousColumn = column;
            readCell(sheet, grid, cellEl, column, shared);
        }
    }
    const dimension = child(worksheet, 'dimension');
    return { part, grid, ns: prefixOf(data ?? worksheet), dimension: dimension && attribute(dimension, 'ref') };
}
function readCell(sheet, grid, el, column, shared) {
    const type = attribute(el, 't')?.value ?? 'n';
    const is = type === 'inlineStr' ? child(el, 'is') : undefined;
    const v = child(el, 'v');
    const raw = v ? textContent(v) : undefined;
    const text = xlsx_scan_cellText(type, raw, is && runText(is), shared);
    if (text === undefined)
        throw partError(sheet, `Expected a shared string index below ${shared.length}, found ${JSON.stringify(raw)}`, v);
    grid.addCell(column, el.start, el.end, type, text, type === 's' && v !== undefined, el);
}
function readSharedStrings(files, path) {
    const part = decodePart(files, path);
    return readSharedStringsQuickly(part) ?? readSharedStringsFully(part);
}
function readSharedStringsQuickly(part) {
    const masked = maskContent(part.text, SST_TAG);
    if (!masked)
        return undefined;
    const root = masked.doc.root;
    if (localName(root.name) !== 'sst' || !isMasked(root, masked))
        return undefined;
    const items = scanSharedStrings(part.text, masked.from, masked.to, declaredPrefixes(root));
    if (!items)
        return undefined;
    const by = masked.to - masked.from;
    return { part, root: { ...root, closeStart: root.closeStart + by, end: root.end + by }, ...items };
}
function readSharedStringsFully(part) {
    const strings = scanPart(part);
    const root = expectRoot(strings, 'sst');
    const items = children(root, 'si');
    return {
        part,
        root,
        shared: items.map((si) => unescapeOoxml(runText(si))),
        plain: items.map((si) => si.children.every((n) => n.kind !== 'element' || localName(n.name) === 't')),
    };
}
const WORKSHEET_TYPE = /\/worksheet$/;
const SHARED_STRINGS_TYPE = /\/sharedStrings$/;
const OFFICE_DOCUMENT_TYPE = /\/officeDocument$/;
function readWorkbook(input, archive) {
    const files = unzip(input, archive);
    const workbookPath = [...relationships(files, '').values()].find((r) => OFFICE_DOCUMENT_TYPE.test(r.type))?.target ?? 'xl/workbook.xml';
    const workbook = xlsx_readPart(files, workbookPath);
    const rels = relationships(files, workbookPath);
    const first = child(expectRoot(workbook, 'workbook'), 'sheets');
    const sheetEl = first && child(first, 'sheet');
    if (!sheetEl)
        throw partError(workbook, 'Expected a <sheets> element listing at least one <sheet>', first ?? workbook.doc.root);
    const id = sheetEl.attributes.find((a) => localName(a.name) === 'id' && a.name.includes(':'))?.value ?? '';
    const sheetRel = rels.get(id);
    if (!sheetRel || !WORKSHEET_TYPE.test(sheetRel.type)) {
        throw partError(workbook, `Expected the first sheet to be a worksheet (its relationship ${JSON.stringify(id)} is not one)`, sheetEl);
    }
    const stringsPath = [...rels.values()].find((r) => SHARED_STRINGS_TYPE.test(r.type))?.target;
    const strings = stringsPath && files[stringsPath] ? readSharedStrings(files, stringsPath) : undefined;
    const shared = strings?.shared ?? [];
    const sheet = readSheet(files, sheetRel.target, shared);
    return { sheet, strings, shared, plain: strings?.plain ?? [] };
}
function toTable(book) {
    const { grid } = book.sheet;
    let head = 0;
    while (head < grid.rows && !grid.filledRow(head))
        head++;
    if (head === grid.rows)
        return failWorkbook('The first worksheet is empty; expected a header row (e.g. key, en)');
    return { head, header: grid.tableRow(head), data: new SheetRows(grid, head + 1) };
}
// ---------------------------------------------------------------------------------------------------------------
// Rendering
/** A cell's attributes: its element's, or read again from the tag the fast scanner took. */
function cellAttributes(text, grid, cell) {
    const el = grid.cellElement(cell);
    return el ? el.attributes : tagAttributes(text, grid.cellStartOf(cell));
}
function cellAttribute(text, grid, cell, name) {
    const el = grid.cellElement(cell);
    return el ? attribute(el, name) : tagAttribute(text, grid.cellStartOf(cell), name);
}
function rowAttribute(text, grid, row, name) {
    const el = grid.rowElement(row);
    return el ? attribute(el, name) : tagAttribute(text, grid.start(row), name);
}
/** A `t` element. */
function textElement(ns, value) {
    const space = preservesSpace(value) ? ' xml:space="preserve"' : '';
    return `<${ns}t${space}>${escapeXmlText(escapeOoxml(value))}</${ns}t>`;
}
const SPANS = /^(\d+):(\d+)$/;
/**
 * Writes planned rows into the worksheet (and new text into the shared strings), row by row as they are planned, so
 * that nothing of a row's plan outlives it: changed cells are spliced in place, new cells go in column order, a removed
 * row leaves its place blank. The header row's added columns and the <dimension> are written first (or, in an odd
 * file with <dimension> after <sheetData>, last), as the sheet's edits go in document order.
 */
class SheetRewriter {
    book;
    layout;
    columns;
    head;
    grid;
    text;
    out;
    /** Plain shared strings by text (the first of a repeated one), made when a cell first takes one. */
    known;
    /** Strings added to the table. */
    added = [];
    /** How many more cells use the table than before. */
    countDelta = 0;
    likeColumn;
    dimension;
    started = false;
    /** The spans read last, as SPANS reads it (see spansOf). */
    lastSpans;
    lastRange = null;
    /** The style read last, and the style written last, with its bytes (see styleOf and escapedStyle). */
    lastStyle;
    lastEscaped;
    lastEscapedBytes = new Uint8Array(0);
    // New elements take the prefix the sheet's own elements use (some writers bind the main namespace to `x:`).
    /** `<c `, before a replaced cell's own attributes, and `<c r="`, before a new cell's reference. */
    cellOpen;
    refOpen;
    /** What follows a cell's attributes: after a replaced cell's, and after a new cell's (which end in an open quote). */
    bare;
    quoted;
    inlineClose;
    sharedClose;
    constructor(book, layout, columns, head) {
        this.book = book;
        this.layout = layout;
        this.columns = columns;
        this.head = head;
        const { sheet } = book;
        const { ns } = sheet;
        this.grid = sheet.grid;
        this.text = sheet.part.text;
        this.out = new PartWriter(sheet.part);
        this.likeColumn = textColumn(layout.source);
        this.cellOpen = ascii(`<${ns}c `);
        this.refOpen = ascii(`<${ns}c r="`);
        this.bare = cellPieces(ns, '');
        this.quoted = cellPieces(ns, '"');
        this.inlineClose = ascii(`</${ns}t></${ns}is></${ns}c>`);
        this.sharedClose = ascii(`</${ns}v></${ns}c>`);
        const ref = sheet.dimension;
        const bounds = ref && /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(ref.value);
        this.dimension = columns.length > 0 && ref && bounds ? { ref, bounds } : undefined;
    }
    /** Writes what goes before the rows: the <dimension> before them, and the header row's added columns. */
    start() {
        if (this.started)
            return;
        this.started = true;
        const { dimension } = this;
        if (dimension && dimension.ref.valueStart < this.grid.start(this.head))
            this.widen();
        if (this.columns.length > 0)
            this.rewrite(this.head, addedHeaders(this.layout, { added: this.columns, rows: new Map(), changed: true }));
    }
    /** Writes data row `index`'s planned cells (column → text, a hole leaving the cell as it is), or removes it. */
    row(index, cells, remove) {
        this.start();
        const row = this.head + 1 + index;
        if (remove) {
            const { grid } = this;
            for (let c = grid.first(row); c < grid.first(row + 1); c++)
                if (grid.counted(c))
                    this.countDelta--;
            this.out.replace(grid.start(row), grid.end(row));
        }
        else {
            this.rewrite(row, cells);
        }
    }
    /** The changed parts, encoded. */
    finish() {
        this.start();
        const { dimension, book, out } = this;
        if (dimension && dimension.ref.valueStart >= this.grid.start(this.head))
            this.widen();
        const { strings } = book;
        const parts = new Map();
        if (out.edited)
            parts.set(book.sheet.part.path, out.encode());
        if (strings && (this.added.length > 0 || this.countDelta !== 0))
            parts.set(strings.part.path, appendSharedStrings(strings, this.added, this.countDelta));
        return parts;
    }
    widen() {
        const { ref, bounds } = this.dimension;
        const last = Math.max(columnIndex(bounds[3] ?? bounds[1]), this.layout.width + this.columns.length - 1);
        this.out.replace(ref.valueStart, ref.valueEnd);
        this.out.write(`${bounds[1]}${bounds[2]}:${columnName(last)}${bounds[4] ?? bounds[2]}`);
    }
    sharedIndex(value) {
        const { book } = this;
        let known = this.known;
        if (!known) {
            // From the last item back, so that a repeated string is left at its first item, one Map operation an item.
            known = this.known = new Map();
            for (let i = book.shared.length - 1; i >= 0; i--)
                if (book.plain[i])
                    known.set(book.shared[i], i);
        }
        let index = known.get(value);
        if (index === undefined) {
            index = book.shared.length + this.added.length;
            this.added.push(value);
            known.set(value, index);
        }
        return index;
    }
    /** A row's spans from `start` to `end` in the sheet's text: the one before where it is the same (as most are). */
    spansOf(start, end) {
        const last = this.lastSpans;
        return last !== undefined && last.length === end - start && this.text.startsWith(last, start) ? last : this.text.slice(start, end);
    }
    /** The style from `start` to `end` in the sheet's text: the one before where it is the same (most rows share one). */
    styleOf(start, end) {
        const last = this.lastStyle;
        if (last !== undefined && last.length === end - start && this.text.startsWith(last, start))
            return last;
        return (this.lastStyle = this.text.slice(start, end));
    }
    /** A style as a new cell's `s` (in double quotes), encoded: the one before's bytes where it is the same. */
    escapedStyle(style) {
        if (style !== this.lastEscaped) {
            this.lastEscaped = style;
            this.lastEscapedBytes = xlsx_UTF8.encode(escapeXmlAttribute(style, '"'));
        }
        return this.lastEscapedBytes;
    }
    /** Writes a cell of the grid's row `row`; `replaced` is the grid's cell it replaces, -1 for a new one. */
    writeCell(row, column, value, replaced) {
        const { grid, text, out } = this;
        let attributes;
        let style;
        let styled;
        if (replaced >= 0) {
            const kept = cellAttributes(text, grid, replaced)
                .filter((a) => a.name !== 't')
                .map((a) => text.slice(a.start, a.end));
            attributes = kept.join(' ');
            styled = kept.some((a) => a.startsWith('s='));
        }
        else {
            const like = grid.find(row, this.likeColumn);
            if (like < 0)
                style = undefined;
            else if (!grid.recorded)
                style = cellAttribute(text, grid, like, 's')?.value;
            else if (grid.styleStart(like) >= 0)
                style = this.styleOf(grid.styleStart(like), grid.styleEnd(like));
            styled = style !== undefined;
        }
        if (value === '' && !styled)
            return;
        let pieces;
        if (attributes !== undefined) {
            out.writeBytes(this.cellOpen);
            out.write(attributes);
            pieces = this.bare;
        }
        else {
            out.writeBytes(this.refOpen);
            out.writeAscii(columnName(column));
            out.writeNumber(grid.line(row));
            if (style !== undefined) {
                out.writeBytes(STYLE_OPEN);
                out.writeBytes(this.escapedStyle(style));
            }
            pieces = this.quoted;
        }
        if (value === '') {
            out.writeBytes(pieces.empty);
            return;
        }
        if (this.book.strings && !(replaced >= 0 && grid.isInline(replaced))) {
            this.countDelta++;
            out.writeBytes(pieces.shared);
            out.writeNumber(this.sharedIndex(value));
            out.writeBytes(this.sharedClose);
            return;
        }
        out.writeTextElement(pieces.inline, pieces.spacedInline, value, this.inlineClose);
    }
    rewrite(row, cells) {
        const { grid, text, out } = this;
        // A `spans` to widen sits in the row's start tag, before its cells: it is written first.
        let widest = -1;
        for (let column = 0; column < cells.length; column++) {
            const value = cells[column];
            if (value !== undefined && value !== '' && grid.find(row, column) < 0)
                widest = column;
        }
        if (widest >= 0) {
            let spans;
            if (!grid.recorded)
                spans = rowAttribute(text, grid, row, 'spans');
            else if (grid.spansStart(row) >= 0)
                spans = { value: this.spansOf(grid.spansStart(row), grid.spansEnd(row)), valueStart: grid.spansStart(row), valueEnd: grid.spansEnd(row) };
            const range = spans && (spans.value === this.lastSpans ? this.lastRange : SPANS.exec(spans.value));
            if (spans) {
                this.lastSpans = spans.value;
                this.lastRange = range ?? null;
            }
            if (spans && range && widest + 1 > Number(range[2])) {
                out.replace(spans.valueStart, spans.valueEnd);
                out.write(`${range[1]}:${widest + 1}`);
            }
        }
        // Cells are in column order in the sheet, so the edits come in document order.
        for (let column = 0; column < cells.length; column++) {
            const value = cells[column];
            if (value === undefined)
                continue;
            const existing = grid.find(row, column);
            if (existing >= 0) {
                if (grid.value(existing) === value)
                    continue;
                if (grid.counted(existing))
                    this.countDelta--;
                out.replace(grid.cellStartOf(existing), grid.cellEndOf(existing));
                this.writeCell(row, column, value, existing);
                continue;
            }
            if (value === '')
                continue;
            let next = -1;
            for (let c = grid.first(row); c < grid.first(row + 1) && next < 0; c++)
                if (grid.column(c) > column)
                    next = c;
            if (next < 0 && grid.closeStart(row) === grid.end(row))
                throw new Error('xlsx: a row without cells cannot hold an entry');
            const at = next >= 0 ? grid.cellStartOf(next) : grid.closeStart(row);
            out.replace(at, at);
            this.writeCell(row, column, value, -1);
        }
    }
}
const STYLE_OPEN = ascii('" s="');
const xlsx_UTF8 = new TextEncoder();
function cellPieces(ns, quote) {
    return {
        empty: ascii(`${quote}/>`),
        shared: ascii(`${quote} t="s"><${ns}v>`),
        inline: ascii(`${quote} t="inlineStr"><${ns}is><${ns}t>`),
        spacedInline: ascii(`${quote} t="inlineStr"><${ns}is><${ns}t xml:space="preserve">`),
    };
}
/** Appends string items and keeps the table's `count` (cells using it) and `uniqueCount` (items) attributes true. */
function appendSharedStrings(strings, added, countDelta) {
    const { root: sst, part } = strings;
    const ns = prefixOf(sst);
    const edits = [];
    const bump = (name, by) => {
        const attr = attribute(sst, name);
        if (attr && by !== 0 && /^\d+$/.test(attr.value))
            edits.push({ start: attr.valueStart, end: attr.valueEnd, text: String(Math.max(0, Number(attr.value) + by)) });
    };
    bump('count', countDelta);
    bump('uniqueCount', added.length);
    edits.sort((a, b) => a.start - b.start);
    const selfClosing = sst.selfClosing;
    // A self-closing <sst/> is written up to its '/>', which becomes '>' items '</sst>'.
    const itemsAt = selfClosing ? /\s*\/>$/.exec(part.text.slice(sst.start, sst.end)).index + sst.start : sst.closeStart;
    const out = new PartWriter(part);
    for (const edit of edits) {
        out.replace(edit.start, edit.end);
        out.write(edit.text);
    }
    out.replace(itemsAt, selfClosing ? sst.end : itemsAt);
    if (selfClosing)
        out.write('>');
    const textOpen = ascii(`<${ns}si><${ns}t>`);
    const spacedTextOpen = ascii(`<${ns}si><${ns}t xml:space="preserve">`);
    const textClose = ascii(`</${ns}t></${ns}si>`);
    for (const value of added)
        out.writeTextElement(textOpen, spacedTextOpen, value, textClose);
    if (selfClosing)
        out.write(`</${sst.name}>`);
    return out.encode();
}
function renderWorkbook(input) {
    const book = readWorkbook(input.source, input.archive);
    const table = toTable(book);
    const layout = readLayout(table.header, xlsxDialect, input.sourceLocale ?? 'en');
    // Rows are read, planned and written in one pass, so that no row's objects outlive it (a large sheet's would keep the
    // garbage collector busy). Errors come in the order they would if the sheet were read, then planned, then written:
    // the sheet's own first, then planning's, then writing's (once one comes, rows are still planned but not written).
    let planner;
    let planning;
    try {
        planner = new RowPlanner(layout, table.data, input, xlsxDialect);
    }
    catch (error) {
        planning = { error };
    }
    let writer;
    let writing;
    try {
        writer = planner && new SheetRewriter(book, layout, planner.added, table.head);
    }
    catch (error) {
        writing = { error };
    }
    forEachEntry(layout, table.data, xlsxDialect, (item) => {
        if (!planner)
            return;
        let edited;
        try {
            edited = planner.plan(item);
        }
        catch (error) {
            planning = { error };
            planner = undefined;
            return;
        }
        if (!edited || !writer)
            return;
        try {
            writer.row(item.row, planner.cells, planner.remove);
        }
        catch (error) {
            writing = { error };
            writer = undefined;
        }
    }, true);
    if (planning)
        throw planning.error;
    if (!planner.changed)
        return input.source.slice();
    if (writing)
        throw writing.error;
    const parts = writer.finish();
    if (parts.size === 0)
        return input.source.slice();
    return rezip(input.source, parts);
}
// ---------------------------------------------------------------------------------------------------------------
// Fresh workbooks
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
function freshWorkbook(rows) {
    const cell = (value, column, row) => value === '' ? '' : `<c r="${columnName(column)}${row}" t="inlineStr"><is>${textElement('', value)}</is></c>`;
    const sheetRows = rows.map((cells, i) => `<row r="${i + 1}">${cells.map((v, c) => cell(v, c, i + 1)).join('')}</row>`).join('');
    const width = Math.max(1, ...rows.map((r) => r.length));
    return zip([
        [
            '[Content_Types].xml',
            `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
                '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
                '<Default Extension="xml" ContentType="application/xml"/>' +
                '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
                '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
                '</Types>',
        ],
        [
            '_rels/.rels',
            `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
                `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
        ],
        [
            'xl/workbook.xml',
            `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Translations" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        ],
        [
            'xl/_rels/workbook.xml.rels',
            `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
                `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
        ],
        [
            'xl/worksheets/sheet1.xml',
            `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><dimension ref="A1:${columnName(width - 1)}${Math.max(1, rows.length)}"/>` +
                `<sheetData>${sheetRows}</sheetData></worksheet>`,
        ],
    ]);
}
/** A workbook's entries in the column of `locale` (default 'en', else the first language). */
function parseXlsx(bytes, locale = 'en', archive) {
    const table = toTable(readWorkbook(bytes, archive));
    const layout = readLayout(table.header, xlsxDialect, locale);
    return readEntries(layout, table.data, xlsxDialect).map((e) => e.entry);
}
const xlsxCodec = {
    id: 'xlsx',
    extensions: ['.xlsx'],
    plurals: true,
    detect(fileName, head) {
        const zipped = head.startsWith('PK\u0003\u0004');
        if (/\.xlsx$/i.test(fileName))
            return zipped || head === '' ? 1 : 0.5;
        return zipped && head.includes('xl/') ? 0.6 : 0;
    },
    parse(bytes, options) {
        return parseXlsx(bytes, 'en', options?.archive);
    },
    render: renderWorkbook,
    renderFresh(entries, options) {
        const rows = [['key', options?.locale ?? 'en'], ...dedupe(entries).map((e) => [e.key, freshCell(e.value)])];
        return freshWorkbook(rows);
    },
};

;// CONCATENATED MODULE: ./src/core/formats/xliff-common.ts



/** An element's inner XML exactly as written (asked for only when needed, rather than kept for every unit). */
function innerXml(el, text) {
    return el.selfClosing ? '' : text.slice(el.openEnd, el.closeStart);
}
// Characters XML 1.0 cannot carry; XLIFF 2 writes them as <cp hex="…"/>. With `u`, only unpaired surrogates match.
// eslint-disable-next-line no-control-regex
const xliff_common_INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
// eslint-disable-next-line no-control-regex
const xliff_common_INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/u;
/** The element name without its namespace prefix: XLIFF files are matched by local name. */
function xliff_common_localName(name) {
    return name.slice(name.indexOf(':') + 1);
}
function xliff_common_children(el, local) {
    const out = [];
    for (const n of el.children)
        if (n.kind === 'element' && isNamed(n.name, local))
            out.push(n);
    return out;
}
/** The first child element with the given local name, without collecting the others. */
function firstChild(el, local) {
    for (const n of el.children)
        if (n.kind === 'element' && isNamed(n.name, local))
            return n;
    return undefined;
}
/** Whether a qualified name has the given local name, without slicing it. */
function isNamed(name, local) {
    const colon = name.indexOf(':');
    return colon < 0 ? name === local : name.length - colon - 1 === local.length && name.endsWith(local);
}
/** The first two <source> and <target> children of `el` (a second of either is an error for the caller to name); `other` sees the rest. */
function sourcesAndTargets(el, other) {
    let source;
    let secondSource;
    let target;
    let secondTarget;
    for (const child of el.children) {
        if (child.kind !== 'element')
            continue;
        const name = xliff_common_localName(child.name);
        if (name === 'source') {
            if (!source)
                source = child;
            else
                secondSource ??= child;
        }
        else if (name === 'target') {
            if (!target)
                target = child;
            else
                secondTarget ??= child;
        }
        else
            other?.(child, name);
    }
    return { source, secondSource, target, secondTarget };
}
function attr(el, name) {
    for (const a of el.attributes)
        if (a.name === name)
            return a.value;
    return undefined;
}
/** Reads an element's content; `codePoints` (XLIFF 2) reads <cp hex/> as the character it stands for. */
function xliff_common_readContent(el, text, codePoints) {
    let value = '';
    let markup = false;
    for (const node of el.children) {
        if (node.kind === 'text' || node.kind === 'cdata')
            value += node.value;
        else if (codePoints && node.kind === 'element' && xliff_common_localName(node.name) === 'cp' && node.children.length === 0) {
            const code = codePointOf(attr(node, 'hex'));
            if (code === undefined)
                markup = true;
            else
                value += String.fromCodePoint(code);
        }
        else
            markup = true;
    }
    const only = el.children[0];
    const cdata = el.children.length === 1 && only?.kind === 'cdata';
    return { value: markup ? innerXml(el, text) : value, markup, cdata };
}
function codePointOf(hex) {
    if (hex === undefined || !/^[0-9A-Fa-f]{1,6}$/.test(hex))
        return undefined;
    const code = parseInt(hex, 16);
    return code <= 0x10ffff ? code : undefined;
}
/**
 * Writes a value as element content in the style of `like`. A markup-mode value is written as XML when it is a
 * well-formed fragment (after escaping stray '&' and '<', which translators and engines often leave bare);
 * anything else is escaped as text, so the file always stays well-formed and reads back as the value.
 */
function writeContent(value, like, codePoints) {
    if (like.markup) {
        if (isFragment(value))
            return value;
        const repaired = value
            .replace(/&(?!(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9A-Fa-f]+);)/g, '&amp;')
            .replace(/<(?![A-Za-z_:/!?])/g, '&lt;')
            .replace(xliff_common_INVALID_CHARS, (c) => (codePoints ? codePointElement(c) : '\uFFFD'));
        if (isFragment(repaired))
            return repaired;
    }
    // A CR cannot live in CDATA (parsers fold it into a line end), nor can characters XML forbids.
    if (like.cdata && !value.includes('\r') && !xliff_common_INVALID_CHAR.test(value)) {
        return `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
    }
    return codePoints ? escapeWithCodePoints(value) : escapeXmlText(value);
}
/** Escapes text for XLIFF 2, where a character XML cannot carry is written as <cp hex="…"/> instead of being lost. */
function escapeWithCodePoints(value) {
    // Nearly every value holds no such character: one test instead of an iterator over matches.
    if (!xliff_common_INVALID_CHAR.test(value))
        return escapeXmlText(value);
    let out = '';
    let at = 0;
    for (const match of value.matchAll(xliff_common_INVALID_CHARS)) {
        out += escapeXmlText(value.slice(at, match.index));
        out += codePointElement(match[0]);
        at = match.index + match[0].length;
    }
    return out + escapeXmlText(value.slice(at));
}
function codePointElement(char) {
    return `<cp hex="${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}"/>`;
}
/**
 * Scans a decoded document. The scanner caches line starts for the last text it saw and recognises that text by
 * comparing contents, so a fresh decode of the same file would be compared in full at every node; starting from an
 * unrelated text makes that check cheap again.
 */
function scanDocument(text) {
    lineColumn('', 0);
    return scanXml(text);
}
/** Whether a string is well-formed XML content (text, elements, references, CDATA, comments). */
function isFragment(value) {
    try {
        scanXml(`<x>${value}</x>`);
        return true;
    }
    catch {
        return false;
    }
}
/**
 * Replaces an element's content and applies attribute edits to its start tag. A self-closing element is opened up,
 * which rewrites the whole element, so its attribute edits are folded into that one edit.
 */
function replaceContent(el, text, inner, attributeEdits = []) {
    if (!el.selfClosing)
        return [...attributeEdits, { start: el.openEnd, end: el.closeStart, text: inner }];
    const openEnd = el.end - 2;
    const shifted = attributeEdits.map((e) => ({ ...e, start: e.start - el.start, end: e.end - el.start }));
    const open = trimXmlSpaceEnd(splice(text.slice(el.start, openEnd), shifted));
    return [{ start: el.start, end: el.end, text: `${open}>${inner}</${el.name}>` }];
}
/**
 * Removes an element. When it sits alone on its lines, the line break before it and its indentation go too,
 * so the lines around it close up as if it had never been there.
 */
function xliff_common_removal(text, el) {
    let start = el.start;
    let end = el.end;
    // Walk back to the line start: lastIndexOf('\r') on an LF file would scan to the top every time.
    let lineStart = start;
    while (lineStart > 0 && text[lineStart - 1] !== '\n' && text[lineStart - 1] !== '\r')
        lineStart--;
    const trailing = /^[ \t]*(?=\r|\n|$)/.exec(text.slice(end));
    if (/^[ \t]*$/.test(text.slice(lineStart, start)) && trailing) {
        end += trailing[0].length;
        if (lineStart > 0) {
            start = lineStart - 1;
            if (text[start] === '\n' && text[start - 1] === '\r')
                start--;
        }
        else {
            const lineEnd = /^(?:\r\n|\n|\r)?/.exec(text.slice(end));
            end += lineEnd[0].length;
            start = lineStart;
        }
    }
    return { start, end, text: '' };
}
/**
 * Inserts markup right after `anchor`, laid out like `anchor` itself: on a new line with the same indentation
 * (and the same line break) when `anchor` starts its own line, else after the same whitespace.
 */
function insertAfter(text, anchor, markup) {
    let wsStart = anchor.start;
    for (let c = text.charCodeAt(wsStart - 1); c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a; c = text.charCodeAt(--wsStart - 1))
        ;
    // The run holds only whitespace, so what follows its last line break is the indentation: take the break with it.
    let lead = wsStart;
    for (let i = anchor.start - 1; i >= wsStart; i--) {
        const c = text.charCodeAt(i);
        if (c === 0x0a || c === 0x0d) {
            lead = c === 0x0a && i > wsStart && text.charCodeAt(i - 1) === 0x0d ? i - 1 : i;
            break;
        }
    }
    // Flattened now: the pieces would otherwise be kept, each, until the whole file is joined.
    return { start: anchor.end, end: anchor.end, text: flat(text.slice(lead, anchor.start) + markup) };
}
/**
 * Sets an attribute: rewrites the value of an existing one (keeping its quote), or inserts it after the first of
 * `after` that is present (else after the last attribute). Returns undefined when it already has the value.
 */
function setAttribute(el, name, value, after = []) {
    const { attributes } = el;
    for (const a of attributes) {
        if (a.name !== name)
            continue;
        if (a.value === value)
            return undefined;
        return { start: a.valueStart, end: a.valueEnd, text: escapeXmlAttribute(value, a.quote) };
    }
    // Looked up without intermediate arrays: a render sets the state of every unit.
    let anchor;
    for (let i = 0; i < after.length && !anchor; i++)
        for (const a of attributes)
            if (a.name === after[i])
                anchor = a;
    anchor ??= attributes[attributes.length - 1];
    const at = anchor ? anchor.end : el.start + 1 + el.name.length;
    return { start: at, end: at, text: attributeText(name, value, anchor?.quote ?? '"') };
}
// The last attribute written: a render writes the same one (state="translated") on unit after unit, and one string
// then serves them all instead of a copy each kept until the file is joined.
let lastAttribute = { name: '', value: '', quote: '"', text: '' };
function attributeText(name, value, quote) {
    const last = lastAttribute;
    if (last.name === name && last.value === value && last.quote === quote)
        return last.text;
    const text = ` ${name}=${quote}${escapeXmlAttribute(value, quote)}${quote}`;
    lastAttribute = { name, value, quote, text };
    return text;
}
/** The start tag of a new element named like `sibling` (same prefix), with attributes written in order. */
function startTag(sibling, local, attributes) {
    const colon = sibling.name.indexOf(':');
    const name = colon < 0 ? local : `${sibling.name.slice(0, colon)}:${local}`;
    let attrs = '';
    for (const [n, v] of attributes)
        attrs += ` ${n}="${escapeXmlAttribute(v, '"')}"`;
    return { open: `<${name}${attrs}>`, close: `</${name}>` };
}
function xliff_common_sameLocale(a, b) {
    return a.replaceAll('_', '-').toLowerCase() === b.replaceAll('_', '-').toLowerCase();
}
/**
 * The locale a render writes targets for, or undefined when it renders the source language itself (no locale,
 * or the source locale): then changed values replace the <source> text, and targets are left as they are.
 */
function targetLocaleOf(input, fileSourceLanguages) {
    const locale = input.locale;
    if (locale === undefined)
        return undefined;
    const sources = [input.sourceLocale, ...fileSourceLanguages].filter((s) => s !== undefined);
    if (sources.length === 0)
        sources.push('en');
    return sources.some((s) => xliff_common_sameLocale(s, locale)) ? undefined : locale;
}
/** An entry with its optional fields present only when set, in the order entries always list them. */
function xliff_common_entryOf(key, source, unit, context, position) {
    const entry = { key, path: [key], source };
    if (!unit.translatable)
        entry.translatable = false;
    if (unit.notes !== undefined)
        entry.notes = unit.notes;
    if (context !== undefined)
        entry.context = context;
    if (unit.maxLength !== undefined)
        entry.maxLength = unit.maxLength;
    entry.line = position.line;
    entry.column = position.column;
    return entry;
}
/** Throws the error for a structural problem at an offset, in the scanner's message style. */
function xliff_common_fail(text, at, message) {
    const { line, column } = lineColumn(text, at);
    throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
}
/** Whether a value has whitespace an XML consumer would collapse unless xml:space="preserve" is in effect. */
function needsPreserve(value) {
    return /^\s|\s$|\s\s|[\t\n\r]/.test(value);
}
/** Detects an XLIFF file of the given major version from its name and first bytes. */
function detectXliff(fileName, head, major) {
    const named = /\.(xlf|xliff|xlif)$/i.test(fileName);
    // The lookahead keeps Android's <xliff:g> placeholders from passing for an XLIFF root.
    const root = /<(?:[\w.-]+:)?xliff(?=[\s/>])[^>]*>/.exec(head.slice(0, 4096))?.[0];
    if (root === undefined)
        return named && !/<[\w.-]/.test(head.replace(/<\?[^]*?\?>|<!--[^]*?-->/g, '')) ? 0.3 : named ? 0.1 : 0;
    const version = /\bversion\s*=\s*["'](\d)/.exec(root)?.[1] ?? (/document:2\.\d/.test(root) ? '2' : /document:1\.\d/.test(root) ? '1' : undefined);
    if (version === undefined)
        return named ? 0.5 : 0.3;
    if (Number(version) !== major)
        return 0.05;
    return named ? 1 : 0.9;
}

;// CONCATENATED MODULE: ./src/core/formats/xliff12.ts
// The `xliff12` codec: XLIFF 1.2 trans-units keyed by resname or id, with targets spliced in beside their sources.



/** Reads the document's structure; anything a 1.2 reader could not make sense of is refused with its position. */
function scan(bytes) {
    const { text, bom, encoding } = decodeXml(bytes);
    const { root } = scanDocument(text);
    if (xliff_common_localName(root.name) !== 'xliff')
        xliff_common_fail(text, root.start, `Expected an <xliff> root element; found <${root.name}>`);
    const version = root.attributes.find((a) => a.name === 'version');
    if (version && !/^1\.\d+$/.test(version.value)) {
        const hint = version.value.startsWith('2') ? ' (use the xliff2 format for XLIFF 2)' : '';
        xliff_common_fail(text, version.start, `Expected XLIFF version 1.2; found version "${version.value}"${hint}`);
    }
    if (!version && /document:2\./.test(attr(root, 'xmlns') ?? '')) {
        xliff_common_fail(text, root.start, 'Expected an XLIFF 1.2 document; this one is XLIFF 2 (use the xliff2 format)');
    }
    const files = [];
    const units = [];
    for (const el of xliff_common_children(root, 'file')) {
        const body = firstChild(el, 'body');
        const file = { el, original: attr(el, 'original') ?? '', body, units: [] };
        files.push(file);
        if (body)
            collect(text, body, true, file.units);
        units.push(...file.units);
    }
    assignKeys(text, files);
    return { text, bom, encoding, files, units };
}
/** Collects trans-units in document order; `translate="no"` on a group applies to everything inside it. */
function collect(text, container, translatable, out) {
    for (const el of container.children) {
        if (el.kind !== 'element')
            continue;
        const name = xliff_common_localName(el.name);
        if (name === 'group')
            collect(text, el, inherit(el, translatable), out);
        else if (name === 'trans-unit')
            out.push(xliff12_readUnit(text, el, inherit(el, translatable)));
    }
}
function inherit(el, translatable) {
    const translate = attr(el, 'translate');
    return translate === undefined ? translatable : translate !== 'no';
}
function xliff12_readUnit(text, el, translatable) {
    const id = attr(el, 'id');
    if (id === undefined)
        xliff_common_fail(text, el.start, 'Expected an id attribute on <trans-unit>');
    // One pass over the children: the first two sources and targets (a second is an error), and the notes.
    const notes = [];
    const { source, secondSource, target, secondTarget } = sourcesAndTargets(el, (child, name) => {
        if (name !== 'note')
            return;
        const note = textContent(child);
        if (note.trim() !== '')
            notes.push(note);
    });
    if (!source)
        xliff_common_fail(text, el.start, `Expected a <source> in <trans-unit id="${id}">`);
    if (secondSource)
        xliff_common_fail(text, secondSource.start, `Expected one <source> in <trans-unit id="${id}">; found another`);
    if (secondTarget)
        xliff_common_fail(text, secondTarget.start, `Expected at most one <target> in <trans-unit id="${id}">; found another`);
    const maxWidth = attr(el, 'maxwidth');
    const resname = attr(el, 'resname');
    return {
        el,
        id,
        resname: resname === '' ? undefined : resname,
        key: '',
        source,
        content: xliff_common_readContent(source, text, false),
        target,
        translatable,
        notes: notes.length > 0 ? notes.join('\n') : undefined,
        // XLIFF measures maxwidth in pixels unless size-unit says otherwise; only characters make a max length.
        maxLength: attr(el, 'size-unit') === 'char' && maxWidth !== undefined && /^\d+$/.test(maxWidth) ? Number(maxWidth) : undefined,
    };
}
/**
 * Keys are resname, else id. A key that occurs in several <file>s is prefixed with each file's `original`
 * (`original#key`), so merged exports stay addressable; a key still repeated is refused rather than shadowed.
 */
function assignKeys(text, files) {
    // The first file each base key is found in, and the keys found in more than one.
    const firstFile = new Map();
    const shared = new Set();
    // With a single <file> (the usual case) no key can be shared.
    if (files.length > 1)
        for (const file of files) {
            for (const unit of file.units) {
                const base = unit.resname ?? unit.id;
                const first = firstFile.get(base);
                if (first === undefined)
                    firstFile.set(base, file);
                else if (first !== file)
                    shared.add(base);
            }
        }
    // One set operation per key: which unit a repeated key was first given to is looked up only when it happens.
    const seen = new Set();
    for (const file of files) {
        for (const unit of file.units) {
            const base = unit.resname ?? unit.id;
            unit.key = shared.size > 0 && shared.has(base) ? `${file.original}#${base}` : base;
            const size = seen.size;
            if (seen.add(unit.key).size === size) {
                const what = unit.resname !== undefined ? 'resname' : 'id';
                const { line } = lineColumn(text, firstWithKey(files, unit.key).el.start);
                xliff_common_fail(text, unit.el.start, `Duplicate trans-unit ${what} ${JSON.stringify(unit.key)} (first defined at line ${line})`);
            }
        }
    }
}
/** The first unit, in document order, given `key`: units are keyed in that order, so it comes before any repeat. */
function firstWithKey(files, key) {
    for (const file of files)
        for (const unit of file.units)
            if (unit.key === key)
                return unit;
    throw new Error(`firstWithKey: no unit has the key ${JSON.stringify(key)}`);
}
/** Adds the edits writing the target of one unit for a target locale: the value, or the source text standing in for it. */
function targetEdits(text, unit, value, locale, edits) {
    const current = unit.target ? xliff_common_readContent(unit.target, text, false) : undefined;
    const state = value === undefined ? 'needs-translation' : 'translated';
    let inner;
    if (value === undefined) {
        inner = innerXml(unit.source, text);
        if (unit.target && innerXml(unit.target, text) === inner)
            return;
    }
    else {
        if (current?.value === value)
            return;
        inner = writeContent(value, { markup: unit.content.markup, cdata: (current ?? unit.content).cdata }, false);
    }
    if (unit.target) {
        // A target that names its language names the one it is now in.
        const language = attr(unit.target, 'xml:lang') === undefined ? undefined : setAttribute(unit.target, 'xml:lang', locale);
        const attributes = [setAttribute(unit.target, 'state', state), language].filter((e) => e !== undefined);
        for (const edit of replaceContent(unit.target, text, inner, attributes))
            edits.push(edit);
        return;
    }
    const space = attr(unit.source, 'xml:space');
    const tag = startTag(unit.source, 'target', [['state', state], ...(space !== undefined ? [['xml:space', space]] : [])]);
    // The schema orders <source>, <seg-source>, <target>.
    const anchor = firstChild(unit.el, 'seg-source') ?? unit.source;
    edits.push(insertAfter(text, anchor, tag.open + inner + tag.close));
}
/** Removes omitted units, and groups left with nothing in them (a 1.2 group must hold at least one unit). */
function removals(text, files, removed) {
    const visit = (container) => {
        const edits = [];
        let items = 0;
        let gone = 0;
        for (const el of container.children) {
            if (el.kind !== 'element')
                continue;
            const name = xliff_common_localName(el.name);
            if (name === 'trans-unit' || name === 'bin-unit') {
                items++;
                if (removed.has(el)) {
                    gone++;
                    edits.push(xliff_common_removal(text, el));
                }
            }
            else if (name === 'group') {
                items++;
                const inner = visit(el);
                if (inner.empty) {
                    gone++;
                    edits.push(xliff_common_removal(text, el));
                }
                else
                    edits.push(...inner.edits);
            }
        }
        return { edits, empty: items > 0 && gone === items };
    };
    return files.flatMap((file) => (file.body ? visit(file.body).edits : []));
}
function xliff12_toEntry(text, unit) {
    const at = unit.source.selfClosing ? unit.source.start : unit.source.openEnd;
    return xliff_common_entryOf(unit.key, unit.content.value, unit, unit.resname !== undefined ? unit.id : undefined, lineColumn(text, at));
}
/** The targets a file carries, by entry key (text decoded; markup-mode targets as raw inner XML). */
function xliff12Targets(bytes) {
    const { text, units } = scan(bytes);
    return new Map(units.flatMap((u) => (u.target ? [[u.key, readContent(u.target, text, false).value]] : [])));
}
const xliff12Codec = {
    id: 'xliff12',
    extensions: ['.xlf', '.xliff'],
    plurals: false,
    detect: (fileName, head) => detectXliff(fileName, head, 1),
    parse(bytes) {
        const { text, units } = scan(bytes);
        return units.map((unit) => xliff12_toEntry(text, unit));
    },
    render(input) {
        const { text, bom, encoding, files, units } = scan(input.source);
        const locale = targetLocaleOf(input, files.map((f) => attr(f.el, 'source-language')));
        const edits = [];
        // The <file> tags come before their units: edits made in document order need no sorting by splice.
        if (locale !== undefined) {
            for (const file of files) {
                const edit = setAttribute(file.el, 'target-language', locale, ['source-language']);
                if (edit)
                    edits.push(edit);
            }
        }
        const removed = new Set();
        for (const unit of units) {
            // Strings marked translate="no" stay exactly as the source has them.
            if (!unit.translatable)
                continue;
            const given = input.values.get(unit.key);
            const value = given === undefined ? undefined : textValue(given, 'xliff12');
            if (value === undefined && input.missing === 'omit')
                removed.add(unit.el);
            else if (locale !== undefined)
                targetEdits(text, unit, value, locale, edits);
            else if (value !== undefined && value !== unit.content.value) {
                edits.push(...replaceContent(unit.source, text, writeContent(value, unit.content, false)));
            }
        }
        edits.push(...removals(text, files, removed));
        if (edits.length === 0)
            return input.source.slice();
        return encodeXml(splice(text, edits), bom, encoding);
    },
    renderFresh(entries, options) {
        // A repeated key keeps its first position and its last value, as Map.set does.
        const byKey = new Map();
        for (const entry of entries)
            byKey.set(entry.key, entry);
        const units = [...byKey.values()].map((entry) => {
            const value = textValue(entry.value, 'xliff12');
            const space = needsPreserve(value) ? ' xml:space="preserve"' : '';
            const note = entry.notes ? `\n        <note>${escapeXmlText(entry.notes)}</note>` : '';
            return (`      <trans-unit id="${escapeXmlAttribute(entry.key, '"')}"${space}>\n` +
                `        <source>${escapeXmlText(value)}</source>${note}\n` +
                '      </trans-unit>\n');
        });
        const locale = escapeXmlAttribute(options?.locale ?? 'en', '"');
        const text = '<?xml version="1.0" encoding="UTF-8"?>\n' +
            '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n' +
            `  <file original="messages" source-language="${locale}" datatype="plaintext">\n` +
            '    <body>\n' +
            units.join('') +
            '    </body>\n' +
            '  </file>\n' +
            '</xliff>\n';
        return encodeXml(text, false, 'utf-8');
    },
};

;// CONCATENATED MODULE: ./src/core/formats/xliff2.ts
// The `xliff2` codec: XLIFF 2 units keyed by name or id, one entry per segment, targets spliced in beside sources.



const SIZE_RESTRICTION_NS = 'urn:oasis:names:tc:xliff:sizerestriction:2.0';
function extendScope(scope, el) {
    // Most elements declare nothing and share their parent's scope.
    let next;
    for (const a of el.attributes)
        if (a.name.startsWith('xmlns:'))
            (next ??= new Map(scope)).set(a.name.slice(6), a.value);
    return next ?? scope;
}
function moduleAttr(el, scope, namespace, local) {
    for (const a of el.attributes) {
        const colon = a.name.indexOf(':');
        if (colon > 0 && a.name.slice(colon + 1) === local && scope.get(a.name.slice(0, colon)) === namespace)
            return a.value;
    }
    return undefined;
}
/** Reads the document's structure; anything an XLIFF 2 reader could not make sense of is refused with its position. */
function xliff2_scan(bytes) {
    const { text, bom, encoding } = decodeXml(bytes);
    const { root } = scanDocument(text);
    if (xliff_common_localName(root.name) !== 'xliff')
        xliff_common_fail(text, root.start, `Expected an <xliff> root element; found <${root.name}>`);
    const version = root.attributes.find((a) => a.name === 'version');
    if (!version)
        xliff_common_fail(text, root.start, 'Expected a version attribute on <xliff> (version="2.0")');
    if (!/^2\.\d+$/.test(version.value)) {
        const hint = version.value.startsWith('1') ? ' (use the xliff12 format for XLIFF 1.2)' : '';
        xliff_common_fail(text, version.start, `Expected XLIFF version 2.0; found version "${version.value}"${hint}`);
    }
    const rootScope = extendScope(new Map(), root);
    const files = [];
    for (const el of xliff_common_children(root, 'file')) {
        const file = { el, id: attr(el, 'id') ?? '', units: [] };
        files.push(file);
        xliff2_collect(text, el, extendScope(rootScope, el), xliff2_inherit(el, true), file.units);
    }
    xliff2_assignKeys(text, files);
    return { text, bom, encoding, root, files, units: files.flatMap((f) => f.units) };
}
/** Collects units in document order; `translate="no"` on a file or group applies to everything inside it. */
function xliff2_collect(text, container, scope, translatable, out) {
    for (const el of container.children) {
        if (el.kind !== 'element')
            continue;
        const name = xliff_common_localName(el.name);
        if (name === 'group')
            xliff2_collect(text, el, extendScope(scope, el), xliff2_inherit(el, translatable), out);
        else if (name === 'unit')
            out.push(xliff2_readUnit(text, el, extendScope(scope, el), xliff2_inherit(el, translatable)));
    }
}
function xliff2_inherit(el, translatable) {
    const translate = attr(el, 'translate');
    return translate === undefined ? translatable : translate !== 'no';
}
function xliff2_readUnit(text, el, scope, translatable) {
    const id = attr(el, 'id');
    if (id === undefined)
        xliff_common_fail(text, el.start, 'Expected an id attribute on <unit>');
    const segmentEls = xliff_common_children(el, 'segment');
    if (segmentEls.length === 0)
        xliff_common_fail(text, el.start, `Expected a <segment> in <unit id="${id}">`);
    const segments = segmentEls.map((seg) => {
        // One pass over the children: the first two sources and targets (a second is an error).
        const { source, secondSource, target, secondTarget } = sourcesAndTargets(seg);
        if (!source)
            xliff_common_fail(text, seg.start, `Expected a <source> in the <segment> of <unit id="${id}">`);
        if (secondSource)
            xliff_common_fail(text, secondSource.start, `Expected one <source> per <segment> in <unit id="${id}">; found another`);
        if (secondTarget)
            xliff_common_fail(text, secondTarget.start, `Expected at most one <target> per <segment> in <unit id="${id}">; found another`);
        return { el: seg, key: '', source, content: xliff_common_readContent(source, text, true), target };
    });
    // Notes are read without the intermediate arrays: most units have none.
    const notes = [];
    for (const group of el.children) {
        if (group.kind !== 'element' || xliff_common_localName(group.name) !== 'notes')
            continue;
        for (const note of group.children) {
            if (note.kind !== 'element' || xliff_common_localName(note.name) !== 'note')
                continue;
            const value = textContent(note);
            if (value.trim() !== '')
                notes.push(value);
        }
    }
    // The Size and Length Restriction module's default profile counts code points, which is what a max length is.
    const size = moduleAttr(el, scope, SIZE_RESTRICTION_NS, 'sizeRestriction');
    return {
        el,
        id,
        name: attr(el, 'name'),
        segments,
        translatable,
        notes: notes.length > 0 ? notes.join('\n') : undefined,
        maxLength: size !== undefined && /^\d+$/.test(size) ? Number(size) : undefined,
    };
}
/**
 * Keys are the unit's name, else its id; a unit with several segments gives `key.1`, `key.2`… A key found in
 * several <file>s is prefixed with each file's id (`fileId#key`); a key still repeated is refused.
 */
function xliff2_assignKeys(text, files) {
    // The first file each base key is found in, and the keys found in more than one.
    const firstFile = new Map();
    const shared = new Set();
    // With a single <file> (the usual case) no key can be shared.
    if (files.length > 1)
        for (const file of files) {
            for (const unit of file.units) {
                const base = unit.name ?? unit.id;
                const first = firstFile.get(base);
                if (first === undefined)
                    firstFile.set(base, file);
                else if (first !== file)
                    shared.add(base);
            }
        }
    // One set operation per key: which unit a repeated key was first given to is looked up only when it happens.
    const seen = new Set();
    for (const file of files) {
        for (const unit of file.units) {
            const base = unit.name ?? unit.id;
            const key = shared.size > 0 && shared.has(base) ? `${file.id}#${base}` : base;
            const { segments } = unit;
            for (let i = 0; i < segments.length; i++) {
                const segment = segments[i];
                segment.key = segments.length === 1 ? key : `${key}.${i + 1}`;
                const size = seen.size;
                if (seen.add(segment.key).size === size) {
                    const { line } = lineColumn(text, unitWithKey(files, segment.key).el.start);
                    xliff_common_fail(text, unit.el.start, `Duplicate unit key ${JSON.stringify(segment.key)} (first defined at line ${line})`);
                }
            }
        }
    }
}
/** The first unit, in document order, with a segment given `key`: segments are keyed in that order, so it comes before any repeat. */
function unitWithKey(files, key) {
    for (const file of files)
        for (const unit of file.units)
            for (const segment of unit.segments)
                if (segment.key === key)
                    return unit;
    throw new Error(`unitWithKey: no segment has the key ${JSON.stringify(key)}`);
}
/** Adds the edits writing one segment's target for a target locale: the value, or the source text standing in for it. */
function xliff2_targetEdits(text, segment, value, locale, edits) {
    const current = segment.target ? xliff_common_readContent(segment.target, text, true) : undefined;
    let inner;
    if (value === undefined) {
        inner = innerXml(segment.source, text);
        if (segment.target && innerXml(segment.target, text) === inner)
            return;
    }
    else {
        if (current?.value === value)
            return;
        inner = writeContent(value, { markup: segment.content.markup, cdata: (current ?? segment.content).cdata }, true);
    }
    // The state lives on the segment; its default, "initial", already describes a source stand-in. Its tag comes
    // first in the document, so its edit goes first and splice finds the edits in order.
    const hasState = attr(segment.el, 'state') !== undefined;
    const state = value === undefined ? (hasState ? 'initial' : undefined) : 'translated';
    const stateEdit = state === undefined ? undefined : setAttribute(segment.el, 'state', state, ['id']);
    if (stateEdit)
        edits.push(stateEdit);
    if (segment.target) {
        // A target that names its language names the one it is now in.
        const language = attr(segment.target, 'xml:lang') === undefined ? undefined : setAttribute(segment.target, 'xml:lang', locale);
        for (const edit of replaceContent(segment.target, text, inner, language ? [language] : []))
            edits.push(edit);
    }
    else {
        const space = attr(segment.source, 'xml:space');
        const tag = startTag(segment.source, 'target', space !== undefined ? [['xml:space', space]] : []);
        edits.push(insertAfter(text, segment.source, tag.open + inner + tag.close));
    }
}
/**
 * Plans which units to remove for missing 'omit'. A unit goes only when none of its segments has a value (a
 * segment cannot go alone); groups left empty go too. A <file> must hold a unit, so an emptied file goes only
 * while another file remains; otherwise its first unit stays, with its source text.
 */
function planRemovals(scanned, omitted) {
    const { text, files } = scanned;
    const visit = (container) => {
        const edits = [];
        let items = 0;
        let gone = 0;
        for (const el of container.children) {
            if (el.kind !== 'element')
                continue;
            const name = xliff_common_localName(el.name);
            if (name === 'unit') {
                items++;
                if (omitted.has(el)) {
                    gone++;
                    edits.push(xliff_common_removal(text, el));
                }
            }
            else if (name === 'group') {
                items++;
                const inner = visit(el);
                if (inner.empty) {
                    gone++;
                    edits.push(xliff_common_removal(text, el));
                }
                else
                    edits.push(...inner.edits);
            }
        }
        return { edits, empty: items > 0 && gone === items };
    };
    let results = files.map((file) => visit(file.el));
    if (files.length > 0 && results.every((r) => r.empty)) {
        const keep = files[0].units.find((u) => omitted.has(u.el));
        if (keep)
            omitted.delete(keep.el);
        results = files.map((file) => visit(file.el));
    }
    return results.flatMap((r, i) => (r.empty ? [xliff_common_removal(text, files[i].el)] : r.edits));
}
function xliff2_toEntries(text, unit) {
    const context = unit.name !== undefined ? unit.id : undefined;
    return unit.segments.map((segment) => xliff_common_entryOf(segment.key, segment.content.value, unit, context, lineColumn(text, segment.source.selfClosing ? segment.source.start : segment.source.openEnd)));
}
/** The targets a file carries, by entry key (text decoded; markup-mode targets as raw inner XML). */
function xliff2Targets(bytes) {
    const { text, units } = xliff2_scan(bytes);
    return new Map(units.flatMap((u) => u.segments.flatMap((s) => (s.target ? [[s.key, readContent(s.target, text, true).value]] : []))));
}
const xliff2Codec = {
    id: 'xliff2',
    extensions: ['.xlf', '.xliff'],
    plurals: false,
    detect: (fileName, head) => detectXliff(fileName, head, 2),
    parse(bytes) {
        const { text, units } = xliff2_scan(bytes);
        return units.flatMap((unit) => xliff2_toEntries(text, unit));
    },
    render(input) {
        const scanned = xliff2_scan(input.source);
        const { text, bom, encoding, root, units } = scanned;
        const locale = targetLocaleOf(input, [attr(root, 'srcLang')]);
        const valueOf = (segment) => {
            const given = input.values.get(segment.key);
            return given === undefined ? undefined : textValue(given, 'xliff2');
        };
        const omitted = new Set();
        if (input.missing === 'omit') {
            for (const unit of units) {
                if (unit.translatable && unit.segments.every((s) => valueOf(s) === undefined))
                    omitted.add(unit.el);
            }
        }
        // The root tag comes first in the document: edits made in document order need no sorting by splice.
        const rootEdit = locale === undefined ? undefined : setAttribute(root, 'trgLang', locale, ['srcLang']);
        const edits = planRemovals(scanned, omitted);
        if (rootEdit)
            edits.unshift(rootEdit);
        for (const unit of units) {
            // Strings marked translate="no" stay exactly as the source has them.
            if (!unit.translatable || omitted.has(unit.el))
                continue;
            for (const segment of unit.segments) {
                const value = valueOf(segment);
                if (locale !== undefined)
                    xliff2_targetEdits(text, segment, value, locale, edits);
                else if (value !== undefined && value !== segment.content.value) {
                    edits.push(...replaceContent(segment.source, text, writeContent(value, segment.content, true)));
                }
            }
        }
        if (edits.length === 0)
            return input.source.slice();
        return encodeXml(splice(text, edits), bom, encoding);
    },
    renderFresh(entries, options) {
        // A repeated key keeps its first position and its last value, as Map.set does.
        const byKey = new Map();
        for (const entry of entries)
            byKey.set(entry.key, entry);
        // A unit id must be an NMTOKEN; other keys travel in `name`, with a generated id that no key-id can take.
        const isId = (key) => /^[A-Za-z0-9._:-]+$/.test(key);
        const taken = new Set([...byKey.keys()].filter(isId));
        let counter = 0;
        const nextId = () => {
            while (taken.has(`u${++counter}`))
                ;
            return `u${counter}`;
        };
        const units = [...byKey.values()].map((entry) => {
            const value = textValue(entry.value, 'xliff2');
            const naming = isId(entry.key) ? `id="${entry.key}"` : `id="${nextId()}" name="${escapeXmlAttribute(entry.key, '"')}"`;
            const space = needsPreserve(value) ? ' xml:space="preserve"' : '';
            const notes = entry.notes
                ? `      <notes>\n        <note>${writeContent(entry.notes, { markup: false, cdata: false }, true)}</note>\n      </notes>\n`
                : '';
            return (`    <unit ${naming}${space}>\n${notes}` +
                '      <segment>\n' +
                `        <source>${writeContent(value, { markup: false, cdata: false }, true)}</source>\n` +
                '      </segment>\n' +
                '    </unit>\n');
        });
        const locale = escapeXmlAttribute(options?.locale ?? 'en', '"');
        const text = '<?xml version="1.0" encoding="UTF-8"?>\n' +
            `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="${locale}">\n` +
            '  <file id="f1">\n' +
            units.join('') +
            '  </file>\n' +
            '</xliff>\n';
        return encodeXml(text, false, 'utf-8');
    },
};

;// CONCATENATED MODULE: ./src/core/formats/yaml-scan.ts
// A linear scanner for the YAML that localization files are made of, giving the `yaml` library's ranges, or undefined.
const MAX_SCAN_DEPTH = 64;
/** The value of a pair until its own is read. */
const EMPTY = { kind: 'scalar', type: 'PLAIN', value: null, range: [0, 0, 0], line: 0, lineStart: 0 };
const MAX_KEY_LENGTH = 1000;
// Characters the scanner leaves to the library: controls, NEL and other breaks, BOMs, non-characters, lone surrogates,
// and a CR that is not part of CRLF. Each part is searched for alone: one pattern with all of them reads slower.
// eslint-disable-next-line no-control-regex
const UNUSUAL_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const LONE_CR = /\r(?!\n)/;
const yaml_scan_SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function hasUnusual(text) {
    if (UNUSUAL_CHAR.test(text))
        return true;
    if (text.includes('\r') && LONE_CR.test(text))
        return true;
    return yaml_scan_SURROGATE.test(text) && LONE_SURROGATE.test(text);
}
/** Whether a plain key the scanner reads may start with this character: a letter, `_` or `$`. */
function isKeyStart(c) {
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x24;
}
// Keys that YAML 1.2 or 1.1 readers take for null or a boolean: the library settles those.
const NON_STRING_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|[yY](?:es)?|[nN]o?|[oO](?:n|ff)|YES|NO|ON|OFF|Yes|No|On|Off)$/;
const yaml_scan_SPACE = 0x20;
const yaml_scan_TAB = 0x09;
const yaml_scan_CR = 0x0d;
const yaml_scan_HASH = 0x23;
const yaml_scan_COLON = 0x3a;
const yaml_scan_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
const yaml_scan_BACKSLASH = 0x5c;
/** Whether a character may stand in a plain key the scanner reads: letters, digits and `_-./$`. */
function isKeyChar(c) {
    return ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2f || c === 0x24);
}
// A plain value may not start with an indicator (nor with `-`, `?` or `:`, which only sometimes are one).
const PLAIN_VALUE_START_REFUSED = new Set([...'-?:,[]{}#&*!|>\'"%@`~'].map((c) => c.charCodeAt(0)));
const yaml_scan_SIMPLE_ESCAPES = {
    '0': '\0',
    a: '\x07',
    b: '\b',
    t: '\t',
    '\t': '\t',
    n: '\n',
    v: '\v',
    f: '\f',
    r: '\r',
    e: '\x1b',
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    N: '\u0085',
    _: '\u00a0',
    L: '\u2028',
    P: '\u2029',
};
/** A quoted scalar on one line: its value and the index past its closing quote, or undefined. */
function quoted(text, start, lineEnd) {
    const quote = text.charCodeAt(start);
    // Most quoted scalars hold no escape: one search finds their end. A search past the line means no one-line scalar.
    const close = text.indexOf(quote === yaml_scan_QUOTE ? "'" : '"', start + 1);
    if (close < 0 || close >= lineEnd)
        return undefined;
    const content = text.slice(start + 1, close);
    if (quote === yaml_scan_QUOTE ? text.charCodeAt(close + 1) !== yaml_scan_QUOTE : !content.includes('\\'))
        return { value: content, end: close + 1 };
    let value = '';
    let from = start + 1;
    for (let i = start + 1; i < lineEnd; i++) {
        const c = text.charCodeAt(i);
        if (quote === yaml_scan_QUOTE) {
            if (c !== yaml_scan_QUOTE)
                continue;
            if (text.charCodeAt(i + 1) === yaml_scan_QUOTE) {
                value += text.slice(from, i + 1);
                from = ++i + 1;
                continue;
            }
            return { value: value + text.slice(from, i), end: i + 1 };
        }
        if (c === DOUBLE_QUOTE)
            return { value: value + text.slice(from, i), end: i + 1 };
        if (c !== yaml_scan_BACKSLASH)
            continue;
        value += text.slice(from, i);
        const escape = text[i + 1];
        if (escape === undefined || i + 1 >= lineEnd)
            return undefined;
        const simple = yaml_scan_SIMPLE_ESCAPES[escape];
        if (simple !== undefined) {
            value += simple;
            from = i += 2;
            i--;
            continue;
        }
        const digits = escape === 'x' ? 2 : escape === 'u' ? 4 : 0;
        const hex = text.slice(i + 2, i + 2 + digits);
        if (digits === 0 || !new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex))
            return undefined;
        const code = parseInt(hex, 16);
        if (code >= 0xd800 && code <= 0xdfff)
            return undefined;
        value += String.fromCharCode(code);
        from = i += 2 + digits;
        i--;
    }
    return undefined;
}
/** Index of the first character at or after `from` that is not a space. */
function skipSpaces(text, from, end) {
    let i = from;
    while (i < end && text.charCodeAt(i) === yaml_scan_SPACE)
        i++;
    return i;
}
/** Whether the rest of a line after a value is empty or spaces and a comment (tabs are left to the library). */
function restIsComment(text, from, lineEnd) {
    const i = skipSpaces(text, from, lineEnd);
    return i === lineEnd || (text.charCodeAt(i) === yaml_scan_HASH && i > from);
}
/**
 * A plain one-line value starting at `start`: its end (before trailing spaces and any comment), or undefined when it
 * holds what could make it something else (`: `, a trailing `:`, tabs) or a comment not set off by a space.
 */
function plainEnd(text, start, lineEnd) {
    let end = start;
    for (let i = start; i < lineEnd; i++) {
        const c = text.charCodeAt(i);
        if (c === yaml_scan_SPACE)
            continue;
        if (c === yaml_scan_TAB)
            return undefined;
        if (c === yaml_scan_HASH && text.charCodeAt(i - 1) === yaml_scan_SPACE)
            break;
        if (c === yaml_scan_COLON) {
            const next = i + 1 < lineEnd ? text.charCodeAt(i + 1) : yaml_scan_SPACE;
            if (next === yaml_scan_SPACE || next === yaml_scan_TAB)
                return undefined;
        }
        end = i + 1;
    }
    return end;
}
/** Reads the text as the common subset, or returns undefined for the library to read it. */
function scanYaml(text) {
    if (hasUnusual(text))
        return undefined;
    const length = text.length;
    const stack = [];
    /** The pair whose value is still open: a key with nothing after its `:`, waiting for a deeper line or its end. */
    let open;
    /** The last scalar value, while following lines may still extend its nodeEnd. */
    let last;
    let trailing;
    let started = false;
    let root;
    let dottedKeys = false;
    let line = 0;
    let commentLine = false;
    /** Closes maps deeper than `indent`; `end` is where a comment run kept by a closed map ends. */
    const close = (indent, end) => {
        while (stack.length > 0 && stack[stack.length - 1].indent > indent) {
            const frame = stack.pop();
            const map = frame.map;
            const lastPair = map.items[map.items.length - 1];
            map.range[1] = lastPair.value.range[2];
            map.range[2] = map.range[1];
            if (trailing && trailing.commentIndent >= frame.indent && frame.indent > 0) {
                map.range[2] = end;
                trailing = undefined;
            }
        }
        return stack.length === 0 || stack[stack.length - 1].indent === indent;
    };
    /** Settles the open pair as an empty value; false when the library's reading of it is in doubt. */
    const settleOpen = () => {
        if (!open)
            return true;
        if (open.comment)
            return false;
        const at = open.position;
        open.pair.value = { kind: 'scalar', type: 'PLAIN', value: null, range: [at, at, at], line: 0, lineStart: 0 };
        open = undefined;
        return true;
    };
    let lineStart = 0;
    while (lineStart < length) {
        line++;
        let lineEnd = text.indexOf('\n', lineStart);
        let next;
        if (lineEnd < 0)
            next = lineEnd = length;
        else
            next = lineEnd + 1;
        if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === yaml_scan_CR)
            lineEnd--;
        const first = skipSpaces(text, lineStart, lineEnd);
        const indent = first - lineStart;
        const c = first < lineEnd ? text.charCodeAt(first) : -1;
        if (c === yaml_scan_TAB)
            return undefined;
        if (c === -1 || c === yaml_scan_HASH) {
            // A blank or comment line: it extends the last scalar, or joins the comments after the last value.
            if (c === yaml_scan_HASH) {
                if (open)
                    open.comment = true;
                else if (last?.absorbing && indent > last.indent)
                    last.scalar.range[2] = next;
                else if (last) {
                    last.absorbing = false;
                    trailing ??= { commentIndent: -1 };
                    trailing.commentIndent = Math.max(trailing.commentIndent, indent);
                }
            }
            commentLine = c === yaml_scan_HASH;
            lineStart = next;
            continue;
        }
        const afterComment = commentLine;
        commentLine = false;
        if (!started) {
            started = true;
            if (text.startsWith('---', first) && indent === 0 && first + 3 === lineEnd) {
                lineStart = next;
                continue;
            }
        }
        // A content line: `key:` with an optional value, in an open map or opening a deeper one.
        if (open) {
            if (indent > open.frame.indent) {
                if (stack.length >= MAX_SCAN_DEPTH)
                    return undefined;
                const map = { kind: 'map', range: [first, first, first], items: [] };
                open.pair.value = map;
                stack.push({ map, indent, keys: new Set() });
                open = undefined;
            }
            else if (!settleOpen())
                return undefined;
        }
        else if (stack.length === 0) {
            if (root || indent !== 0)
                return undefined;
            root = { kind: 'map', range: [first, first, first], items: [] };
            stack.push({ map: root, indent: 0, keys: new Set() });
        }
        if (indent > stack[stack.length - 1].indent)
            return undefined;
        last = undefined;
        if (!close(indent, first))
            return undefined;
        trailing = undefined;
        const frame = stack[stack.length - 1];
        // The key.
        let keyValue;
        let keyType;
        let keyEnd;
        if (c === yaml_scan_QUOTE || c === DOUBLE_QUOTE) {
            const read = quoted(text, first, lineEnd);
            if (!read)
                return undefined;
            keyEnd = read.end;
            keyValue = read.value;
            keyType = c === yaml_scan_QUOTE ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE';
        }
        else {
            if (!isKeyStart(c))
                return undefined;
            keyEnd = first + 1;
            while (keyEnd < lineEnd && isKeyChar(text.charCodeAt(keyEnd)))
                keyEnd++;
            keyValue = text.slice(first, keyEnd);
            keyType = 'PLAIN';
            if (keyEnd - first <= 5 && NON_STRING_KEY.test(keyValue))
                return undefined;
        }
        if (keyEnd - first > MAX_KEY_LENGTH || text.charCodeAt(keyEnd) !== yaml_scan_COLON || keyEnd >= lineEnd)
            return undefined;
        const afterColon = keyEnd + 1;
        if (afterColon < lineEnd && text.charCodeAt(afterColon) !== yaml_scan_SPACE)
            return undefined;
        if (frame.keys.has(keyValue))
            return undefined;
        frame.keys.add(keyValue);
        if (keyValue.includes('.'))
            dottedKeys = true;
        const pair = { key: keyValue, keyType, keyStart: first, keyEnd, lineStart, afterComment, value: EMPTY };
        frame.map.items.push(pair);
        // The value.
        const valueStart = skipSpaces(text, afterColon, lineEnd);
        const v = valueStart < lineEnd ? text.charCodeAt(valueStart) : -1;
        if (v === -1 || v === yaml_scan_HASH) {
            // An empty value sits past the spaces after `:`, where the library places it.
            open = { pair, frame, position: valueStart, comment: v === yaml_scan_HASH };
            lineStart = next;
            continue;
        }
        if (v === yaml_scan_TAB)
            return undefined;
        let scalar;
        if (v === yaml_scan_QUOTE || v === DOUBLE_QUOTE) {
            const read = quoted(text, valueStart, lineEnd);
            if (!read || !restIsComment(text, read.end, lineEnd))
                return undefined;
            scalar = { kind: 'scalar', type: v === yaml_scan_QUOTE ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE', value: read.value, range: [valueStart, read.end, next], line, lineStart };
        }
        else {
            if (PLAIN_VALUE_START_REFUSED.has(v))
                return undefined;
            const end = plainEnd(text, valueStart, lineEnd);
            if (end === undefined)
                return undefined;
            scalar = { kind: 'scalar', type: 'PLAIN', value: text.slice(valueStart, end), range: [valueStart, end, next], line, lineStart };
        }
        pair.value = scalar;
        last = { scalar, indent: frame.indent, absorbing: true };
        lineStart = next;
    }
    if (!root || !settleOpen())
        return undefined;
    close(-1, length);
    return { root, dottedKeys };
}

;// CONCATENATED MODULE: ./src/core/formats/yaml.ts
// The `yaml` codec: string scalars of nested maps and sequences, spliced back into the untouched text in their own quoting style.








const FIXED = { kind: 'fixed' };
const yaml_MAX_DEPTH = 512;
function yaml_fail(lines, message, index) {
    const { line, column } = lines.at(index);
    throw new file_unparsable_error/* FileUnparsableError */.w(`${message} at line ${line}, column ${column}`, line, column);
}
// YAML allows UTF-16 with a byte order mark (PyYAML and Psych read it), so it is kept rather than refused.
function yaml_decode(bytes) {
    const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
    if (!encoding)
        return { ...decodeUtf8(bytes), encoding: 'utf-8' };
    if (bytes.length % 2 !== 0)
        throw new file_unparsable_error/* FileUnparsableError */.w('The UTF-16 file has an odd number of bytes at line 1, column 1', 1, 1);
    return { text: new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes.subarray(2)), encoding, bom: true };
}
function yaml_encode(text, encoding, bom) {
    if (encoding === 'utf-8')
        return encodeUtf8(text, bom);
    const out = new Uint8Array(2 + text.length * 2);
    const view = new DataView(out.buffer);
    view.setUint16(0, 0xfeff, encoding === 'utf-16le');
    for (let i = 0; i < text.length; i++)
        view.setUint16(2 + i * 2, text.charCodeAt(i), encoding === 'utf-16le');
    return out;
}
// Plain scalars that some common YAML reader resolves to something other than a string: YAML 1.2 core and YAML 1.1
// (Ruby's Psych, PyYAML) nulls, booleans (Psych ignores case), integers (incl. base 60), floats, timestamps, the
// merge/value keys, and the `:symbol`s Rails reads as Ruby symbols (date orders and the like, not text to translate).
const NON_STRING_PLAIN = new RegExp('^(?:' +
    [
        '~|null|Null|NULL',
        '[yY][eE][sS]|[nN][oO]|[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|[oO][nN]|[oO][fF][fF]',
        '[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+]?[0-9]+)?)',
        '[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)',
        '\\d{4}-\\d\\d?-\\d\\d?(?:(?:[Tt]|[ \\t]+)\\d\\d?:\\d\\d:\\d\\d(?:\\.\\d*)?(?:[ \\t]*(?:Z|[-+]\\d\\d?(?::\\d\\d)?))?)?',
        '<<|=',
        ':[A-Za-z_][A-Za-z0-9_]*[?!]?',
    ].join('|') +
    ')$');
// Characters YAML cannot hold unescaped (outside c-printable), plus line separators that YAML 1.1 readers treat as line
// breaks, the BOM, and lone surrogates: only double quotes can carry them.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const yaml_SURROGATE = /[\ud800-\udfff]/;
/** NEEDS_ESCAPE.test(value), read faster: lone surrogates are looked for only where there is a surrogate at all. */
function needsEscape(value) {
    return NEEDS_ESCAPE_CHAR.test(value) || (yaml_SURROGATE.test(value) && NEEDS_ESCAPE.test(value));
}
/** Whether a value can be written as a one-line plain scalar that every reader takes back as this very string. */
function canBePlain(value, flow) {
    if (value === '' || needsEscape(value) || /[\n\r\t]/.test(value))
        return false;
    if (/^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) || /\s$/.test(value))
        return false;
    if (/: |:$| #/.test(value))
        return false;
    // PyYAML also refuses '?' inside a plain scalar in flow context, though YAML 1.2 allows it.
    if (flow && /[,[\]{}:?]/.test(value))
        return false;
    // YAML 1.1's y/n booleans: Psych and PyYAML read them as text, but other 1.1 readers (go-yaml v2) do not.
    return !NON_STRING_PLAIN.test(value) && !/^[yYnN]$/.test(value);
}
function canBeSingleQuoted(value) {
    return !needsEscape(value) && !/[\n\r]/.test(value);
}
const yaml_SHORT_ESCAPES = {
    '\0': '\\0',
    '\x07': '\\a',
    '\b': '\\b',
    '\t': '\\t',
    '\n': '\\n',
    '\v': '\\v',
    '\f': '\\f',
    '\r': '\\r',
    '\x1b': '\\e',
    '"': '\\"',
    '\\': '\\\\',
};
/** A one-line double-quoted scalar; YAML can express any string this way. */
function yaml_doubleQuoted(value) {
    let out = '"';
    for (const ch of value) {
        const short = yaml_SHORT_ESCAPES[ch];
        if (short)
            out += short;
        else if (NEEDS_ESCAPE.test(ch)) {
            const code = ch.charCodeAt(0);
            out += code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
        }
        else
            out += ch;
    }
    return `${out}"`;
}
function yaml_singleQuoted(value) {
    return `'${value.replaceAll("'", "''")}'`;
}
/** Plain where that reads back the same, else quoted: single quotes unless an apostrophe or an escape calls for double. */
function plainOrQuoted(value, flow) {
    if (canBePlain(value, flow))
        return value;
    return canBeSingleQuoted(value) && !value.includes("'") ? yaml_singleQuoted(value) : yaml_doubleQuoted(value);
}
/** The first significant token of a CST collection item: its properties, indicator or key. */
function itemLead(item) {
    if (!item)
        return undefined;
    const skip = new Set(['space', 'newline', 'comment', 'comma']);
    const first = item.start.find((t) => !skip.has(t.type));
    if (first)
        return first.offset;
    if (item.key)
        return item.key.offset;
    const sep = item.sep?.find((t) => !skip.has(t.type));
    return sep?.offset ?? item.value?.offset;
}
/**
 * Start of the run of comment-only lines directly above the line holding `index`, and their text (the notes).
 * The run stops at a blank line, a `---` marker or any content, so file headers separated by a blank line stay apart,
 * and at `floor`, the end of the previous item: a block scalar's `#` lines are its text, not comments.
 */
function commentsAbove(text, index, floor) {
    let start = lineStart(text, index);
    const notes = [];
    while (start > floor) {
        const prevStart = lineStart(text, start - 1);
        if (prevStart < floor || !startsWithHash(text, prevStart))
            break;
        const line = text.slice(prevStart, start).replace(/\r?\n$|\r$/, '');
        const match = /^[ \t]*#(.*)$/.exec(line);
        if (!match)
            break;
        notes.unshift(yaml_commentText(match[1]));
        start = prevStart;
    }
    return { start, notes };
}
/** Whether the line at `index` is `#` after spaces and tabs: a cheap test before reading it as a comment. */
function startsWithHash(text, index) {
    let i = index;
    let c = text.charCodeAt(i);
    while (c === 0x20 || c === 0x09)
        c = text.charCodeAt(++i);
    return c === 0x23;
}
function yaml_commentText(afterHash) {
    return afterHash.replace(/^ /, '').trimEnd();
}
function yaml_notesOf(text, above, scalar) {
    const block = scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED';
    if (above.length === 0 && (block || !startsWithHash(text, scalar.range[1])))
        return undefined;
    const notes = [...above];
    if (!block) {
        const rest = text.slice(scalar.range[1], afterLineEnd(text, scalar.range[1]));
        const trailing = /^[ \t]*#(.*?)\r?\n?$/.exec(rest);
        if (trailing)
            notes.push(trailing[1].trim());
    }
    const joined = trimOf(notes.join('\n'), '\n');
    return joined === '' ? undefined : joined;
}
// Rails roots are language codes; a known-language check keeps ordinary single keys (`app:`, `errors:`) as keys.
const LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
function isLocaleKey(key) {
    if (!/^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})*$/.test(key))
        return false;
    try {
        return LANGUAGES.of(key.replaceAll('_', '-')) !== undefined;
    }
    catch {
        return false;
    }
}
/** The path segment a map key gives, or undefined for keys that cannot be one (null, aliases, collections, merges). */
function keySegment(key) {
    if (!(0,dist/* isScalar */.jn)(key) || key.value === null || key.value === undefined)
        return undefined;
    if (typeof key.value === 'string')
        return key.type === 'PLAIN' && key.value === '<<' ? undefined : key.value;
    // Non-string plain keys (`404:`, `true:`) keep their spelling, as a translation key would.
    return key.source ?? String(key.value);
}
// The lexer's tokens that stand for no source text: document start, flow end, scalar.
const CONTROL_TOKENS = new Set(['\u0002', '\u0018', '\u001f']);
/**
 * Refuses flow collections (`{`, `[`) nested deeper than MAX_DEPTH before the parser builds them: half a million
 * nested `{` took the parser 1.7 s to build and then refuse. Only a text with enough brackets is lexed for this, and the
 * lexer stops at the first collection too deep.
 */
function guardFlowDepth(text, lines) {
    let brackets = 0;
    for (let i = 0; i < text.length && brackets <= yaml_MAX_DEPTH; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x7b || c === 0x5b)
            brackets++;
    }
    if (brackets <= yaml_MAX_DEPTH)
        return;
    let depth = 0;
    let offset = 0;
    for (const token of new dist/* Lexer */.JG().lex(text)) {
        if (token === '{' || token === '[') {
            if (++depth > yaml_MAX_DEPTH)
                yaml_fail(lines, `Expected at most ${yaml_MAX_DEPTH} levels of nesting`, offset);
        }
        else if (token === '}' || token === ']')
            depth--;
        if (!CONTROL_TOKENS.has(token))
            offset += token.length;
    }
}
function pathOf(s) {
    const path = s.parentPath.slice();
    path.push(s.segment);
    return path;
}
/** A file's text and what is known of it before its structure is read. */
function emptyModel(bytes) {
    const { text, encoding, bom } = yaml_decode(bytes);
    const eol = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
    return { text, encoding, bom, eol, strings: [] };
}
/** Reads a file: the fast scan when the file is in the common subset it knows, else the `yaml` library. */
function yaml_analyse(bytes) {
    const model = emptyModel(bytes);
    const scanned = scanYaml(model.text);
    return (scanned && modelFromScan(model, scanned)) ?? modelFromLibrary(emptyModel(bytes));
}
function analyseWithLibrary(bytes) {
    return modelFromLibrary(emptyModel(bytes));
}
/**
 * The model of a file the fast scan read, built as the library's is; undefined when two paths give one key, an error
 * left to the library path to report in its words.
 */
function modelFromScan(model, { root, dottedKeys }) {
    const { text } = model;
    const columns = new ColumnCounter(text);
    const only = root.items.length === 1 ? root.items[0] : undefined;
    const railsPair = only && only.value.kind === 'map' && isLocaleKey(only.key) ? only : undefined;
    if (railsPair) {
        const { key, keyType, keyStart, keyEnd } = railsPair;
        model.rails = { key: { type: keyType, range: [keyStart, keyEnd, keyEnd], value: key }, underscore: key.includes('_') };
    }
    const keys = new Set();
    const noNotes = [];
    // `prefix` is `path` joined with '.', built along with it.
    const map = (node, path, prefix, floor) => {
        let itemFloor = floor;
        const items = [];
        for (const pair of node.items) {
            const { value } = pair;
            const lead = pair.keyStart;
            const end = value.range[1];
            // A line with no comment above holds no notes: commentsAbove would stop at once.
            const { start: noteStart, notes } = pair.afterComment ? commentsAbove(text, lead, itemFloor) : { start: pair.lineStart, notes: noNotes };
            itemFloor = end;
            const segment = pair.key;
            const key = pair === railsPair ? prefix : path.length === 0 ? segment : `${prefix}.${segment}`;
            let tree;
            if (value.kind === 'map') {
                const childPath = pair === railsPair ? path : [...path, segment];
                const child = map(value, childPath, key, lead);
                if (!child)
                    return undefined;
                tree = child;
            }
            else if (value.value === null || (value.type === 'PLAIN' && NON_STRING_PLAIN.test(value.value)))
                tree = FIXED;
            else {
                // Keys without dots join distinct paths to distinct keys: only dotted ones can collide.
                if (dottedKeys) {
                    if (keys.has(key))
                        return undefined;
                    keys.add(key);
                }
                const column = columns.at(value.lineStart, value.range[0]);
                const found = { kind: 'string', key, parentPath: path, segment, scalar: value, value: value.value, flow: false, line: value.line, column };
                const notesText = yaml_notesOf(text, notes, value);
                if (notesText !== undefined)
                    found.notes = notesText;
                model.strings.push(found);
                tree = found;
            }
            items.push({ tree, lead, noteStart, end });
        }
        return { kind: 'collection', node, seq: false, flow: false, items };
    };
    const tree = map(root, [], '', 0);
    if (!tree)
        return undefined;
    model.root = tree;
    return model;
}
function modelFromLibrary(model) {
    const { text } = model;
    const lines = new LineIndex(text);
    guardFlowDepth(text, lines);
    let doc;
    // The parser makes an Error object for every problem it meets, and capturing each one's stack trace made a line of
    // 400,000 stray quotes take seconds; only the first problem's position is reported, so no stack is captured.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
        doc = (0,dist/* parseDocument */.Tp)(text, { keepSourceTokens: true, prettyErrors: false, uniqueKeys: true });
    }
    catch (error) {
        if (error instanceof RangeError)
            yaml_fail(lines, `Expected at most ${yaml_MAX_DEPTH} levels of nesting`, 0);
        throw error;
    }
    finally {
        Error.stackTraceLimit = stackTraceLimit;
    }
    const error = doc.errors[0];
    if (error) {
        const message = error.code === 'MULTIPLE_DOCS'
            ? "Expected a single YAML document, found another '---'"
            : error.code === 'DUPLICATE_KEY'
                ? 'Duplicate key (map keys must be unique)'
                : error.message.replace(/\s+at line \d+, column \d+[^]*$/, '');
        yaml_fail(lines, message, error.pos[0]);
    }
    const root = doc.contents;
    if (root === null || ((0,dist/* isScalar */.jn)(root) && root.value === null && !root.tag && !root.anchor))
        return model;
    if (!(0,dist/* isMap */.jh)(root) && !(0,dist/* isSeq */.oP)(root))
        yaml_fail(lines, 'Expected a map of keys to strings (or a sequence) at the top level', root.range[0]);
    const only = (0,dist/* isMap */.jh)(root) && root.items.length === 1 ? root.items[0] : undefined;
    const onlyKey = only && (0,dist/* isScalar */.jn)(only.key) && typeof only.key.value === 'string' ? only.key : undefined;
    const railsPair = onlyKey && isLocaleKey(onlyKey.value) && (0,dist/* isMap */.jh)(only.value) && !only.value.tag ? only : undefined;
    if (railsPair)
        model.rails = { key: onlyKey, underscore: onlyKey.value.includes('_') };
    const byKey = new Map();
    const walk = (node, path, flow, above, floor, depth) => {
        if (node === null || node === undefined)
            return { kind: 'fixed' };
        if ((0,dist/* isAlias */.Vj)(node)) {
            if (!node.resolve(doc))
                yaml_fail(lines, `Expected an anchor named '${node.source}' before the alias *${node.source}`, node.range[0]);
            return { kind: 'fixed' };
        }
        if ((0,dist/* isScalar */.jn)(node)) {
            const scalar = node;
            if (scalar.anchor || scalar.tag || typeof scalar.value !== 'string')
                return { kind: 'fixed' };
            if (scalar.type === 'PLAIN' && NON_STRING_PLAIN.test(scalar.value))
                return { kind: 'fixed' };
            const key = path.join('.');
            const { line, column } = lines.at(scalar.range[0]);
            const found = {
                kind: 'string',
                key,
                parentPath: path.slice(0, -1),
                segment: path[path.length - 1],
                scalar,
                value: scalar.value,
                flow,
                line,
                column,
            };
            const notes = yaml_notesOf(text, above, scalar);
            if (notes !== undefined)
                found.notes = notes;
            const prior = byKey.get(key);
            if (prior) {
                yaml_fail(lines, `The paths ${JSON.stringify(pathOf(prior))} (line ${prior.line}) and ${JSON.stringify(path)} both give the key ${JSON.stringify(key)}; rename one of them`, scalar.range[0]);
            }
            byKey.set(key, found);
            model.strings.push(found);
            return found;
        }
        if (!(0,dist/* isMap */.jh)(node) && !(0,dist/* isSeq */.oP)(node))
            return { kind: 'fixed' };
        const collection = node;
        if (collection.tag)
            return { kind: 'fixed' };
        if (depth > yaml_MAX_DEPTH)
            yaml_fail(lines, `Expected at most ${yaml_MAX_DEPTH} levels of nesting`, collection.range[0]);
        const inFlow = flow || Boolean(collection.flow);
        const cst = collection.srcToken;
        let itemFloor = floor;
        const items = collection.items.map((item, index) => {
            const cstItem = cst?.items[index];
            let lead;
            let end;
            let child;
            if ((0,dist/* isPair */.tO)(item)) {
                const value = item.value;
                const key = item.key;
                lead = itemLead(item.srcToken ?? cstItem) ?? key?.range?.[0] ?? value?.range?.[0] ?? collection.range[0];
                end = value?.range?.[1] ?? key?.range?.[1] ?? lead;
                const segment = keySegment(item.key);
                const childPath = item === railsPair ? path : [...path, segment];
                child = () => (segment === undefined ? { kind: 'fixed' } : walk(item.value, childPath, inFlow, notes, lead, depth + 1));
            }
            else {
                const range = item?.range;
                lead = itemLead(cstItem) ?? range?.[0] ?? collection.range[0];
                end = range?.[1] ?? lead;
                child = () => walk(item, [...path, String(index)], inFlow, notes, lead, depth + 1);
            }
            const { start: noteStart, notes } = commentsAbove(text, lead, itemFloor);
            itemFloor = end;
            return { tree: child(), lead, noteStart, end };
        });
        return { kind: 'collection', node: collection, seq: (0,dist/* isSeq */.oP)(collection), flow: Boolean(collection.flow), items };
    };
    const tree = walk(root, [], false, [], 0, 0);
    if (tree.kind === 'collection')
        model.root = tree;
    return model;
}
/** The block scalar header's style and the rest of its line (a comment); the body starts on the next line. */
function blockHeader(text, start) {
    const bodyStart = afterLineEnd(text, start + 1);
    const header = text.slice(start, bodyStart).replace(/\r?\n$|\r$/, '');
    const match = /^([|>])([1-9][-+]?|[-+][1-9]?|)(.*)$/.exec(header);
    if (!match)
        return undefined;
    return { style: match[1], rest: match[3], bodyStart };
}
/**
 * Rewrites a block scalar in its own style and indentation, or returns undefined when the value cannot be written so
 * (leading whitespace or breaks, characters that need escapes, or kept trailing breaks that would swallow blank lines).
 * The scalar's range ends after its last content line (and, for `+`, after its kept blank lines), so blank lines that
 * merely separate it from the next item stay outside the edit.
 */
function blockScalar(value, s, model) {
    const { text } = model;
    const [start, end] = s.scalar.range;
    const header = blockHeader(text, start);
    if (!header || value === '' || NEEDS_ESCAPE.test(value) || /[\r\u0085]/.test(value) || /^[ \t\n]/.test(value))
        return undefined;
    const indents = text
        .slice(header.bodyStart, end)
        .split(/\r?\n|\r/)
        .filter((l) => l.trim() !== '')
        .map((l) => /^ */.exec(l)[0].length);
    if (indents.length === 0)
        return undefined;
    // The smallest indentation is the content's own (an indentation indicator is no longer needed: line one is not indented).
    const indent = ' '.repeat(Math.min(...indents));
    const eol = /\r\n|\n|\r/.exec(text.slice(start, end))?.[0] ?? model.eol;
    const content = trimEndOf(value, '\n');
    const breaks = value.length - content.length;
    const chomp = breaks === 0 ? '-' : breaks === 1 ? '' : '+';
    // Folding turns a single break between lines into a space, so each run of n breaks is written as n blank lines.
    const lines = header.style === '>' ? content.replace(/\n+/g, (m) => `${m}\n`).split('\n') : content.split('\n');
    // Folding treats lines that start with whitespace differently; such values are not written folded.
    if (header.style === '>' && lines.some((l) => /^[ \t]/.test(l)))
        return undefined;
    if (chomp === '+' && /^[ \t]*(?:\r?\n|\r|$)/.test(text.slice(end)))
        return undefined;
    let out = `${header.style}${chomp}${header.rest}${eol}`;
    out += lines.map((l) => (l === '' ? '' : indent + l)).join(eol);
    const atEofWithoutBreak = end === text.length && !/[\r\n]$/.test(text);
    if (!(atEofWithoutBreak && chomp === '-'))
        out += eol;
    out += eol.repeat(Math.max(0, breaks - 1));
    return { start, end, text: out };
}
function scalarEdit(value, s, model) {
    const [start, end] = s.scalar.range;
    switch (s.scalar.type) {
        case 'PLAIN':
            return { start, end, text: plainOrQuoted(value, s.flow) };
        case 'QUOTE_SINGLE':
            return { start, end, text: canBeSingleQuoted(value) ? yaml_singleQuoted(value) : yaml_doubleQuoted(value) };
        case 'BLOCK_LITERAL':
        case 'BLOCK_FOLDED': {
            const block = blockScalar(value, s, model);
            if (block)
                return block;
            // The block ends with a line break that keeps the next item on its own line; the quoted value keeps it too.
            const lastBreak = /(?:\r?\n|\r)$/.exec(model.text.slice(start, end))?.[0] ?? '';
            return { start, end, text: yaml_doubleQuoted(value) + lastBreak };
        }
        default:
            return { start, end, text: yaml_doubleQuoted(value) };
    }
}
/**
 * Adds a tree's edits to `edits`, or returns false when everything in it is omitted (the caller removes it; nothing was
 * added then). One list for the whole file: a list per scalar made rendering large files slow.
 */
function yaml_renderTree(tree, model, input, edits) {
    if (tree.kind === 'fixed')
        return true;
    if (tree.kind === 'string') {
        const s = tree;
        const translated = input.values.get(s.key);
        if (translated === undefined)
            return input.missing !== 'omit';
        const value = textValue(translated, 'yaml');
        if (value !== s.value)
            edits.push(scalarEdit(value, s, model));
        return true;
    }
    const { items } = tree;
    if (items.length === 0)
        return true;
    const kept = items.map((item) => yaml_renderTree(item.tree, model, input, edits));
    // An anchored collection stays (its aliases would dangle without it), holding its source text when all else goes.
    if (!kept.includes(true))
        return Boolean(tree.node.anchor);
    if (tree.seq || !kept.includes(false))
        return true;
    const { text } = model;
    if (tree.flow) {
        const lastKept = kept.lastIndexOf(true);
        items.forEach((item, i) => {
            if (kept[i])
                return;
            if (i < lastKept)
                edits.push({ start: item.lead, end: items[i + 1].lead, text: '' });
        });
        const last = items[items.length - 1];
        if (lastKept < items.length - 1)
            edits.push({ start: items[lastKept].end, end: last.end, text: '' });
        return true;
    }
    items.forEach((item, i) => {
        if (kept[i])
            return;
        const ownLine = text.slice(lineStart(text, item.lead), item.lead).trim() === '';
        // The first item of a compact map shares its line with a `- ` indicator: removing it would take the indicator along.
        if (!ownLine)
            return;
        edits.push(lineDeletion(text, item.noteStart, item.end));
    });
    return true;
}
/** Deletes whole lines from `start` through the line holding end-1. */
function lineDeletion(text, start, end) {
    return { start, end: afterLineEnd(text, end), text: '' };
}
function yaml_applyEdits(text, edits) {
    // Edits mostly come in order already; a stable sort would leave them as they are.
    const sorted = edits.every((e, i) => i === 0 || edits[i - 1].start <= e.start) ? edits : [...edits].sort((a, b) => a.start - b.start);
    let out = '';
    let at = 0;
    for (const edit of sorted) {
        if (edit.start < at)
            throw new Error('yaml codec: overlapping edits');
        out += text.slice(at, edit.start) + edit.text;
        at = edit.end;
    }
    out += text.slice(at);
    // Deleting the last lines leaves the break before them last: a file that had no final newline keeps having none.
    const deletedEnd = edits.some((e) => e.end === text.length && e.text === '');
    return deletedEnd && text !== '' && !/[\r\n]$/.test(text) ? out.replace(/(?:\r\n|\n|\r)$/, '') : out;
}
/** Spells the target locale for the Rails root in the source's separator and quoting style. */
function rootKeyText(locale, model) {
    const rails = model.rails;
    const name = rails.underscore ? locale.replaceAll('-', '_') : locale;
    if (rails.key.type === 'QUOTE_SINGLE' && canBeSingleQuoted(name))
        return yaml_singleQuoted(name);
    if (rails.key.type === 'QUOTE_DOUBLE')
        return yaml_doubleQuoted(name);
    return plainOrQuoted(name, false);
}
function yaml_render(input, read) {
    const model = read(input.source);
    const { text, root } = model;
    if (!root)
        return input.source.slice();
    const rename = model.rails && input.locale !== undefined && input.locale !== model.rails.key.value;
    const edits = [];
    if (!yaml_renderTree(root, model, input, edits)) {
        // Everything was omitted: the root becomes an empty collection (under the locale key for Rails files).
        const last = root.items[root.items.length - 1];
        const end = root.flow ? root.node.range[1] : afterLineEnd(text, last.end);
        // The first item's notes go with it, as with any removed item; a Rails root's own comments stay.
        const start = root.flow || model.rails ? root.node.range[0] : root.items[0].noteStart;
        const lineBreak = /(?:\r?\n|\r)$/.exec(text.slice(root.node.range[0], end))?.[0] ?? '';
        const empty = root.seq ? '[]' : '{}';
        const rails = model.rails;
        const key = rails && (rename ? rootKeyText(input.locale, model) : text.slice(rails.key.range[0], rails.key.range[1]));
        edits.push({ start, end, text: (key ? `${key}: ${empty}` : empty) + (root.flow ? '' : lineBreak) });
    }
    else if (rename) {
        const [start, end] = model.rails.key.range;
        edits.push({ start, end, text: rootKeyText(input.locale, model) });
    }
    if (edits.length === 0)
        return input.source.slice();
    return yaml_encode(yaml_applyEdits(text, edits), model.encoding, model.bom);
}
/** A map key: plain where safe, else double-quoted; overlong keys use the explicit `? ` form implicit keys cannot exceed. */
function writeKey(key) {
    const text = plainOrQuoted(key, false);
    return { text, explicit: text.length > 1000 };
}
function yaml_writeLevel(level, notes, prefix, indent) {
    let out = '';
    for (const [name, member] of level) {
        const path = [...prefix, name];
        const note = typeof member === 'string' ? notes.get(path.join('.')) : undefined;
        if (note !== undefined)
            for (const line of note.split(/\r?\n|\r/))
                out += `${indent}#${line === '' ? '' : ` ${line}`}\n`;
        const key = writeKey(name);
        const head = key.explicit ? `${indent}? ${key.text}\n${indent}:` : `${indent}${key.text}:`;
        if (typeof member === 'string')
            out += `${head} ${plainOrQuoted(member, false)}\n`;
        else
            out += `${head}\n${yaml_writeLevel(member, notes, path, `${indent}  `)}`;
    }
    return out;
}
function yaml_renderFresh(entries, options) {
    // A repeated key keeps its first position and its last value, as Map.set does.
    const values = new Map();
    const notes = new Map();
    for (const entry of entries) {
        values.set(entry.key, textValue(entry.value, 'yaml'));
        if (entry.notes)
            notes.set(entry.key, entry.notes);
        else
            notes.delete(entry.key);
    }
    const root = new Map();
    for (const [key, value] of values)
        insertKey(root, key.split('.'), value);
    if (root.size === 0)
        return encodeUtf8('{}\n', false);
    // A lone top-level map named like a locale would read back as a Rails root; an explicit root keeps its keys intact.
    const [only] = root.size === 1 ? [...root] : [];
    if (only && only[1] instanceof Map && isLocaleKey(only[0])) {
        const locale = options?.locale ?? 'en';
        const wrapped = yaml_writeLevel(root, notes, [], '  ');
        return encodeUtf8(`${writeKey(locale).text}:\n${wrapped}`, false);
    }
    return encodeUtf8(yaml_writeLevel(root, notes, [], ''), false);
}
function yaml_detect(fileName, head) {
    if (/\.ya?ml$/i.test(fileName))
        return 0.9;
    const body = head.replace(/^\uFEFF/, '');
    if (/^(?:%YAML|---)/.test(body))
        return 0.3;
    return 0;
}
function codecReadingWith(read) {
    return {
        id: 'yaml',
        extensions: ['.yml', '.yaml'],
        plurals: false,
        detect: yaml_detect,
        parse(bytes) {
            return read(bytes).strings.map((s) => {
                const entry = { key: s.key, path: pathOf(s), source: s.value, line: s.line, column: s.column };
                if (s.notes !== undefined)
                    entry.notes = s.notes;
                return entry;
            });
        },
        render: (input) => yaml_render(input, read),
        renderFresh: yaml_renderFresh,
    };
}
const yamlCodec = codecReadingWith(yaml_analyse);
/** The codec reading every file with the `yaml` library, which the fast scan must agree with (for tests). */
const yamlLibraryCodec = codecReadingWith(analyseWithLibrary);

;// CONCATENATED MODULE: ./src/core/formats/index.ts
// Registry of the file-format codecs, looked up by format id or detected from a file's name and first bytes.
























const CODECS = new Map([jsonCodec, jsonNestedCodec, laravelPhpCodec, laravelJsonCodec, androidXmlCodec, iosStringsCodec, iosStringsdictCodec, iosXcstringsCodec, arbCodec, xliff12Codec, xliff2Codec, poCodec, yamlCodec, csvCodec, xlsxCodec, propertiesCodec, resxCodec, markdownCodec, unityCsvCodec, unrealPoCodec].map((codec) => [codec.id, codec]));
/** Implemented format ids, in FORMAT_IDS order. */
const IMPLEMENTED_FORMATS = codec/* FORMAT_IDS */.J.filter((id) => CODECS.has(id));
function getCodec(id) {
    return CODECS.get(id);
}
const FORMAT_ID_SET = new Set(codec/* FORMAT_IDS */.J);
function isFormatId(s) {
    return FORMAT_ID_SET.has(s);
}
const HEAD_BYTES = 4096;
/** The first bytes of a file as text, honouring a UTF-16 byte-order mark, for the codecs' cheap detection. */
function headOf(bytes) {
    const head = bytes.subarray(0, HEAD_BYTES);
    const encoding = head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : 'utf-8';
    return new TextDecoder(encoding).decode(head);
}
/** The format a file most likely is, by its name and content; undefined when no codec recognises it. */
function detectFormat(fileName, bytes) {
    const head = headOf(bytes);
    let best;
    for (const codec of CODECS.values()) {
        const score = codec.detect(fileName, head);
        if (score > 0 && (!best || score > best.score))
            best = { id: codec.id, score };
    }
    return best?.id;
}


/***/ })

};

//# sourceMappingURL=992.index.js.map