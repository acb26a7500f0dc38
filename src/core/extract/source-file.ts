/**
 * The project's source-language file as the extractor compares against it: its keys and values through the project's
 * codecs, and (for `parlance extract --write`) the file with keys added. Adding never changes or removes a key the file
 * holds: a person's text outranks the code's default.
 */
import { detectFormat, getCodec, isFormatId, type Codec, type Entry, type FormatId, type FreshEntry } from '../formats/index.js';

export interface SourceFile {
  format: FormatId;
  entries: Entry[];
  /** Key → its source text (a plural's `other` form). */
  values: Map<string, string>;
}

/** The codec for a source file: its declared format, else the one its name and content look like. */
export function sourceCodec(path: string, bytes: Uint8Array, format: string | undefined): Codec {
  const id = format ?? detectFormat(path.slice(path.lastIndexOf('/') + 1), bytes);
  if (id === undefined) throw new Error(`Cannot tell the format of the source file ${path}: name it (format in parlance.yml's rule).`);
  if (!isFormatId(id)) throw new Error(`Unknown format '${id}' for the source file ${path}.`);
  const codec = getCodec(id);
  if (!codec) throw new Error(`Format '${id}' of the source file ${path} has no codec.`);
  return codec;
}

/** Parses the source file; a FileUnparsableError (line and column) for a malformed one. */
export function readSourceFile(path: string, bytes: Uint8Array, options: { format?: string | undefined; plurals?: 'i18next' | 'none' | undefined } = {}): SourceFile {
  const codec = sourceCodec(path, bytes, options.format);
  const entries = codec.parse(bytes, options.plurals ? { plurals: options.plurals } : {});
  return { format: codec.id, entries, values: new Map(entries.map((e) => [e.key, e.source])) };
}

/**
 * The file with `added` appended after its own keys, rendered afresh by its codec (codecs splice values into existing
 * keys but cannot insert new ones). A format whose fresh rendering would lose something the file holds (notes,
 * context, a length limit, a changed value) is refused rather than written: the check parses the result back.
 */
export function withAddedKeys(path: string, bytes: Uint8Array, added: readonly { key: string; text: string }[], options: { format?: string | undefined; plurals?: 'i18next' | 'none' | undefined; locale?: string } = {}): Uint8Array {
  const codec = sourceCodec(path, bytes, options.format);
  const parseOptions = options.plurals ? { plurals: options.plurals } : {};
  const before = codec.parse(bytes, parseOptions);
  const fresh: FreshEntry[] = [
    ...before.map((e) => ({ key: e.key, value: e.plurals ? { plurals: e.plurals } : e.source, ...(e.notes !== undefined ? { notes: e.notes } : {}) })),
    ...added.map((a) => ({ key: a.key, value: a.text })),
  ];
  const rendered = codec.renderFresh(fresh, options.locale ? { locale: options.locale } : {});
  const after = new Map(codec.parse(rendered, parseOptions).map((e) => [e.key, e]));
  for (const entry of before) {
    const kept = after.get(entry.key);
    const same = kept && kept.source === entry.source && kept.path.join('\0') === entry.path.join('\0') && JSON.stringify(kept.plurals) === JSON.stringify(entry.plurals) && kept.notes === entry.notes && kept.context === entry.context && kept.maxLength === entry.maxLength;
    if (!same) throw new Error(`Not written: rewriting ${path} as ${codec.id} would change its key '${entry.key}' (its notes, context or layout do not survive a fresh rendering); add the keys by hand.`);
  }
  for (const { key, text } of added) {
    if (after.get(key)?.source !== text) throw new Error(`Not written: ${codec.id} cannot hold the key '${key}' as given in ${path}; add it by hand.`);
  }
  return rendered;
}
