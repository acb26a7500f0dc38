// The `arb` codec: Flutter Application Resource Bundles, messages with `@key` metadata, ICU plurals as plural forms.
import type { Codec, Entry, FreshEntry, PluralForms, RenderInput, Value } from './codec.js';
import { FileUnparsableError } from './file-unparsable-error.js';
import { foldIcuPlural, parseIcuPlural, writeIcuPlural } from './icu-plural.js';
import { encodeUtf8, scanJsonTape, Utf8Writer, writeObject, type FreshObject, type JsonTape } from './json-scan.js';

/** A message's value, decoded. */
interface Reading {
  value: string;
  /** Set when the whole value is one ICU plural (surrounding text folded into the forms). */
  plural?: { argument: string; offset?: number; forms: PluralForms; exact: Record<string, string> };
}

/** A message: a top-level member whose key does not start with '@'. Members are named by their key's slot on the tape, the value being the next slot. */
interface Message extends Reading {
  key: number;
  name: string;
  /** The `@key` metadata member, when there is one. */
  metadata?: number;
}

interface Bundle {
  tape: JsonTape;
  messages: Message[];
  /** The `@@locale` member, when the file has one (its value is a string). */
  locale?: number;
}

function fail(tape: JsonTape, message: string, slot: number): never {
  const line = tape.line(slot);
  const column = tape.column(slot);
  throw new FileUnparsableError(`${message} at line ${line}, column ${column}`, line, column);
}

/** Reads the value of the message whose key is at `key`. */
function readValue(tape: JsonTape, key: number): Reading {
  const value = tape.string(key + 1);
  const reading: Reading = { value };
  const icu = parseIcuPlural(value);
  const folded = icu && foldIcuPlural(icu);
  if (icu && folded) {
    reading.plural = { argument: icu.argument, forms: folded.forms, exact: folded.exact };
    if (icu.offset !== undefined) reading.plural.offset = icu.offset;
  }
  return reading;
}

/** Whether the message whose key is at `key` may be an ICU plural, told in place (`parseIcuPlural` needs both). */
const mayBePlural = (tape: JsonTape, key: number): boolean => tape.mayHold(key + 1, ',') && tape.mayHold(key + 1, 'plural');

/** Checks the top-level member whose key is at `key`, named `name`: `@@locale` and messages need string values. */
function checkMember(tape: JsonTape, key: number, name: string): void {
  if (name === '@@locale') {
    if (tape.kind(key + 1) !== 'string') fail(tape, 'Expected a string for "@@locale"', key + 1);
  } else if (!name.startsWith('@') && tape.kind(key + 1) !== 'string') {
    // gen-l10n refuses non-string messages too; reading past one would leave it silently untranslated.
    fail(tape, `Expected a string for the message ${JSON.stringify(name)}`, key + 1);
  }
}

/** Whether `name` is `@` and then `message`, the name of the message's metadata. */
const describes = (name: string | undefined, message: string): boolean =>
  name !== undefined && name.length === message.length + 1 && name.charCodeAt(0) === 0x40 && name.endsWith(message);

function readBundle(bytes: Uint8Array): Bundle {
  const tape = scanJsonTape(bytes);
  const keys = tape.children(0);
  const names = keys.map((key) => tape.string(key));
  // `@key` metadata is found beside its message, where gen-l10n and most editors write it, else by the key it describes
  // (keys are unique, and no message starts with '@', so `@@locale` and its like describe none).
  const metadataOf = new Map<string, number>();
  names.forEach((name, i) => {
    if (name.startsWith('@') && !name.startsWith('@@') && !(i > 0 && describes(name, names[i - 1]!))) metadataOf.set(name.slice(1), keys[i]!);
  });
  const messages: Message[] = [];
  let locale: number | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const name = names[i]!;
    checkMember(tape, key, name);
    if (name === '@@locale') locale = key;
    if (name.startsWith('@')) continue;
    const { value, plural } = readValue(tape, key);
    const message: Message = { key, name, value };
    if (plural) message.plural = plural;
    const metadata = describes(names[i + 1], name) ? keys[i + 1] : metadataOf.size > 0 ? metadataOf.get(name) : undefined;
    if (metadata !== undefined) message.metadata = metadata;
    messages.push(message);
  }
  return { tape, messages, ...(locale !== undefined ? { locale } : {}) };
}

function metadataString(tape: JsonTape, metadata: number | undefined, name: string): string | undefined {
  if (metadata === undefined || tape.kind(metadata + 1) !== 'object') return undefined;
  const found = tape.member(metadata + 1, name);
  if (found < 0 || tape.kind(found + 1) !== 'string') return undefined;
  const value = tape.string(found + 1);
  return value !== '' ? value : undefined;
}

/** Flutter names locales with underscores (`app_pt_BR.arb`, `"@@locale": "pt_BR"`); BCP-47 tags use hyphens. */
const arbLocale = (tag: string): string => tag.replace(/-/g, '_');
const sameLocale = (a: string, b: string): boolean => arbLocale(a).toLowerCase() === arbLocale(b).toLowerCase();

function samePlural(forms: PluralForms, value: PluralForms): boolean {
  const a = Object.entries(forms);
  return a.length === Object.keys(value).length && a.every(([k, v]) => value[k as keyof PluralForms] === v);
}

/**
 * The JSON text of the new value of the message whose key is at `key`, or undefined when the value says what the file
 * already says. The file's value is compared in place with a text, and read (unless `read` is given) for a plural.
 */
function valueText(tape: JsonTape, key: number, value: Value, read?: Reading): string | undefined {
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    return tape.isQuoted(key + 1, value, quoted) ? undefined : quoted;
  }
  const { value: current, plural } = read ?? readValue(tape, key);
  if (plural && samePlural(plural.forms, value.plurals)) return undefined;
  // Exact matches (=0) are not CLDR categories, so they stay as the source wrote them for every locale.
  const text = writeIcuPlural(plural?.argument ?? 'count', value.plurals, plural?.exact ?? {}, plural?.offset);
  return text === current ? undefined : JSON.stringify(text);
}

/** A new value for the member whose key is at `key`. */
interface Edit {
  key: number;
  text: string;
}

/** Writes the file with new values spliced in, in file order, holding only bytes; `finish` gives undefined when none came. */
class Splicer {
  private out: Utf8Writer | undefined;
  private at = 0;

  constructor(
    private readonly tape: JsonTape,
    private readonly sourceSize: number,
  ) {}

  /** Replaces the value of the member whose key is at `key`. */
  replace(key: number, text: string): void {
    const { tape, sourceSize } = this;
    const out = (this.out ??= new Utf8Writer(sourceSize + (sourceSize >> 1), tape.bom));
    out.write(tape.text.slice(this.at, tape.start(key + 1)));
    out.write(text);
    this.at = tape.end(key + 1);
  }

  finish(): Uint8Array | undefined {
    this.out?.write(this.tape.text.slice(this.at));
    return this.out?.finish();
  }
}

/**
 * Rewrites the top-level object when messages are omitted, with their `@key` metadata (which would otherwise describe
 * nothing), besides the changed values. Separators and indentation come from the file, as in json-scan's writer.
 */
function rewriteOmitting(tape: JsonTape, messages: readonly Message[], input: RenderInput, edits: readonly Edit[]): string {
  const { text } = tape;
  const omitted = new Set<string>();
  for (const message of messages) {
    if (!input.values.has(message.name)) omitted.add(message.name).add(`@${message.name}`);
  }
  const texts = new Map(edits.map((edit) => [edit.key, edit.text]));
  const members = tape.children(0);
  const kept = members.flatMap((key, i) => (omitted.has(tape.string(key)) ? [] : [i]));
  if (kept.length === 0) return `${text.slice(0, tape.start(0))}{}${text.slice(tape.end(0))}`;
  const first = members[0]!;
  const last = members[members.length - 1]!;
  let out = text.slice(0, tape.start(first));
  kept.forEach((i, k) => {
    const key = members[i]!;
    out += text.slice(tape.start(key), tape.start(key + 1)) + (texts.get(key) ?? text.slice(tape.start(key + 1), tape.end(key + 1)));
    out += k < kept.length - 1 ? text.slice(tape.end(key + 1), tape.start(members[i + 1]!)) : text.slice(tape.end(last + 1));
  });
  return out;
}

/** Renders a file some of whose messages are omitted, with their metadata. */
function renderOmitting(input: RenderInput): Uint8Array {
  const { tape, messages, locale } = readBundle(input.source);
  const edits: Edit[] = [];
  for (const message of messages) {
    const value = input.values.get(message.name);
    const text = value === undefined ? undefined : valueText(tape, message.key, value, message);
    if (text !== undefined) edits.push({ key: message.key, text });
  }
  if (locale !== undefined && input.locale && !sameLocale(tape.string(locale + 1), input.locale)) {
    const text = JSON.stringify(arbLocale(input.locale));
    const at = edits.findIndex((edit) => edit.key > locale);
    edits.splice(at < 0 ? edits.length : at, 0, { key: locale, text });
  }
  return encodeUtf8(rewriteOmitting(tape, messages, input, edits), tape.bom);
}

export const arbCodec: Codec = {
  id: 'arb',
  extensions: ['.arb'],
  plurals: true,

  detect(fileName: string, head: string): number {
    const body = head.replace(/^\uFEFF/, '').trimStart();
    const byName = /\.arb$/i.test(fileName);
    if (byName) return body === '' || body.startsWith('{') ? 1 : 0.5;
    return /\.json$/i.test(fileName) && body.startsWith('{') && /"@@locale"\s*:/.test(body) ? 0.7 : 0;
  },

  parse(bytes: Uint8Array): Entry[] {
    const { tape, messages } = readBundle(bytes);
    return messages.map(({ key, name, value, metadata, plural }) => {
      const entry: Entry = { key: name, path: [name], source: plural?.forms.other ?? value, line: tape.line(key + 1), column: tape.column(key + 1) };
      if (plural) entry.plurals = plural.forms;
      const notes = metadataString(tape, metadata, 'description');
      if (notes !== undefined) entry.notes = notes;
      const context = metadataString(tape, metadata, 'context');
      if (context !== undefined) entry.context = context;
      return entry;
    });
  },

  /**
   * Messages are spliced in place. A target keeps each message's `@key` metadata (gen-l10n reads descriptions and
   * placeholders from the template file only, and ignores them elsewhere), and `@@locale` is set to the target locale.
   * Members are checked and written in one pass, each new value encoded as it comes.
   */
  render(input: RenderInput): Uint8Array {
    const tape = scanJsonTape(input.source);
    const out = new Splicer(tape, input.source.length);
    for (let key = 1; key < tape.after(0); key = tape.after(key)) {
      const name = tape.string(key);
      checkMember(tape, key, name);
      if (name === '@@locale') {
        if (input.locale && !sameLocale(tape.string(key + 1), input.locale)) out.replace(key, JSON.stringify(arbLocale(input.locale)));
        continue;
      }
      if (name.startsWith('@')) continue;
      // A value that may be an ICU plural is read now, as parsing the file reads it; others only compare in place.
      const read = mayBePlural(tape, key) ? readValue(tape, key) : undefined;
      const value = input.values.get(name);
      if (value === undefined) {
        if (input.missing === 'omit') return renderOmitting(input);
        continue;
      }
      const text = valueText(tape, key, value, read);
      if (text !== undefined) out.replace(key, text);
    }
    return out.finish() ?? input.source.slice();
  },

  renderFresh(entries: readonly FreshEntry[], options?: { locale?: string }): Uint8Array {
    // A repeated key keeps its first position and its last value and notes.
    const byKey = new Map<string, FreshEntry>();
    for (const entry of entries) byKey.set(entry.key, entry);
    const members: [string, string | FreshObject][] = [['@@locale', arbLocale(options?.locale ?? 'en')]];
    for (const { key, value, notes } of byKey.values()) {
      members.push([key, typeof value === 'string' ? value : writeIcuPlural('count', value.plurals)]);
      if (notes) members.push([`@${key}`, [['description', notes]]]);
    }
    return encodeUtf8(`${writeObject(members)}\n`, false);
  },
};
