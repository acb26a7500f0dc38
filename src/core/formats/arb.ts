// The `arb` codec: Flutter Application Resource Bundles, messages with `@key` metadata, ICU plurals as plural forms.
import { FileUnparsableError, type Codec, type Entry, type FreshEntry, type PluralForms, type RenderInput, type Value } from './codec.js';
import { foldIcuPlural, parseIcuPlural, writeIcuPlural } from './icu-plural.js';
import { encodeUtf8, scanJson, writeObject, type FreshObject, type JsonDocument, type JsonMember, type JsonStringNode } from './json-scan.js';

/** A message: a top-level member whose key does not start with '@'. */
interface Message {
  member: JsonMember & { value: JsonStringNode };
  /** The `@key` metadata member, when there is one. */
  metadata?: JsonMember;
  /** Set when the whole value is one ICU plural (surrounding text folded into the forms). */
  plural?: { argument: string; offset?: number; forms: PluralForms; exact: Record<string, string> };
}

interface Bundle {
  doc: JsonDocument;
  messages: Message[];
  /** The `@@locale` member, when the file has one. */
  locale?: JsonMember & { value: JsonStringNode };
}

function fail(message: string, node: { line: number; column: number }): never {
  throw new FileUnparsableError(`${message} at line ${node.line}, column ${node.column}`, node.line, node.column);
}

function readBundle(bytes: Uint8Array): Bundle {
  const doc = scanJson(bytes);
  // `@key` metadata by the key it describes (keys are unique, so no message starts with '@').
  const metadataOf = new Map<string, JsonMember>();
  for (const member of doc.root.members) if (member.key.value.startsWith('@')) metadataOf.set(member.key.value.slice(1), member);
  const messages: Message[] = [];
  let locale: Bundle['locale'];
  for (const member of doc.root.members) {
    const key = member.key.value;
    if (key === '@@locale') {
      if (member.value.kind !== 'string') fail('Expected a string for "@@locale"', member.value);
      locale = member as JsonMember & { value: JsonStringNode };
    }
    if (key.startsWith('@')) continue;
    // gen-l10n refuses non-string messages too; reading past one would leave it silently untranslated.
    if (member.value.kind !== 'string') fail(`Expected a string for the message ${JSON.stringify(key)}`, member.value);
    const message: Message = { member: member as Message['member'] };
    const metadata = metadataOf.get(key);
    if (metadata) message.metadata = metadata;
    const icu = parseIcuPlural(member.value.value);
    const folded = icu && foldIcuPlural(icu);
    if (icu && folded) {
      message.plural = { argument: icu.argument, forms: folded.forms, exact: folded.exact };
      if (icu.offset !== undefined) message.plural.offset = icu.offset;
    }
    messages.push(message);
  }
  return { doc, messages, ...(locale ? { locale } : {}) };
}

function metadataString(metadata: JsonMember | undefined, name: string): string | undefined {
  if (metadata?.value.kind !== 'object') return undefined;
  const found = metadata.value.members.find((m) => m.key.value === name)?.value;
  return found?.kind === 'string' && found.value !== '' ? found.value : undefined;
}

/** Flutter names locales with underscores (`app_pt_BR.arb`, `"@@locale": "pt_BR"`); BCP-47 tags use hyphens. */
const arbLocale = (tag: string): string => tag.replace(/-/g, '_');
const sameLocale = (a: string, b: string): boolean => arbLocale(a).toLowerCase() === arbLocale(b).toLowerCase();

function samePlural(forms: PluralForms, value: PluralForms): boolean {
  const a = Object.entries(forms);
  return a.length === Object.keys(value).length && a.every(([k, v]) => value[k as keyof PluralForms] === v);
}

/** The JSON text of a message's new value, or undefined when the value says what the file already says. */
function valueText(message: Message, value: Value): string | undefined {
  const current = message.member.value.value;
  if (typeof value === 'string') return value === current ? undefined : JSON.stringify(value);
  const plural = message.plural;
  if (plural && samePlural(plural.forms, value.plurals)) return undefined;
  // Exact matches (=0) are not CLDR categories, so they stay as the source wrote them for every locale.
  const text = writeIcuPlural(plural?.argument ?? 'count', value.plurals, plural?.exact ?? {}, plural?.offset);
  return text === current ? undefined : JSON.stringify(text);
}

/** Replaces the values of the given members (in file order), or undefined when there are none. */
function splice(text: string, edits: readonly { member: JsonMember; text: string }[]): string | undefined {
  if (edits.length === 0) return undefined;
  let out = '';
  let at = 0;
  for (const { member, text: value } of edits) {
    out += text.slice(at, member.value.start) + value;
    at = member.value.end;
  }
  return out + text.slice(at);
}

/**
 * Rewrites the top-level object when messages are omitted, with their `@key` metadata (which would otherwise describe
 * nothing), besides the changed values. Separators and indentation come from the file, as in json-scan's writer.
 */
function rewriteOmitting(doc: JsonDocument, messages: readonly Message[], input: RenderInput, edits: readonly { member: JsonMember; text: string }[]): string {
  const { root, text } = doc;
  const omitted = new Set<string>();
  for (const message of messages) {
    if (!input.values.has(message.member.key.value)) omitted.add(message.member.key.value).add(`@${message.member.key.value}`);
  }
  const texts = new Map(edits.map((edit) => [edit.member, edit.text]));
  const kept = root.members.flatMap((m, i) => (omitted.has(m.key.value) ? [] : [i]));
  if (kept.length === 0) return `${text.slice(0, root.start)}{}${text.slice(root.end)}`;
  const first = root.members[0]!;
  const last = root.members[root.members.length - 1]!;
  let out = text.slice(0, first.start);
  kept.forEach((i, k) => {
    const member = root.members[i]!;
    out += text.slice(member.start, member.value.start) + (texts.get(member) ?? text.slice(member.value.start, member.value.end));
    out += k < kept.length - 1 ? text.slice(member.end, root.members[i + 1]!.start) : text.slice(last.end);
  });
  return out;
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
    return readBundle(bytes).messages.map(({ member, metadata, plural }) => {
      const node = member.value;
      const entry: Entry = { key: member.key.value, path: [member.key.value], source: plural?.forms.other ?? node.value, line: node.line, column: node.column };
      if (plural) entry.plurals = plural.forms;
      const notes = metadataString(metadata, 'description');
      if (notes !== undefined) entry.notes = notes;
      const context = metadataString(metadata, 'context');
      if (context !== undefined) entry.context = context;
      return entry;
    });
  },

  /**
   * Messages are spliced in place. A target keeps each message's `@key` metadata (gen-l10n reads descriptions and
   * placeholders from the template file only, and ignores them elsewhere), and `@@locale` is set to the target locale.
   */
  render(input: RenderInput): Uint8Array {
    const { doc, messages, locale } = readBundle(input.source);
    const edits: { member: JsonMember; text: string }[] = [];
    let omits = false;
    for (const message of messages) {
      const value = input.values.get(message.member.key.value);
      if (value === undefined) {
        omits ||= input.missing === 'omit';
        continue;
      }
      const text = valueText(message, value);
      if (text !== undefined) edits.push({ member: message.member, text });
    }
    if (locale && input.locale && !sameLocale(locale.value.value, input.locale)) {
      const text = JSON.stringify(arbLocale(input.locale));
      const at = edits.findIndex((edit) => edit.member.start > locale.start);
      edits.splice(at < 0 ? edits.length : at, 0, { member: locale, text });
    }
    const out = omits ? rewriteOmitting(doc, messages, input, edits) : splice(doc.text, edits);
    return out === undefined ? input.source.slice() : encodeUtf8(out, doc.bom);
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
