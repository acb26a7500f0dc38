// The `json` codec: a flat object of string values, read and written back byte for byte around the changed values.
import { detectJson, textValue } from './values.js';
import { FileUnparsableError, type Codec, type Entry, type FreshEntry, type RenderInput } from './codec.js';
import { collectStrings, encodeUtf8, renderDocument, scanJson, writeObject, type JsonDocument, type JsonValueNode } from './json-scan.js';

/** Scans a flat file, refusing nested strings (they would be silently left untranslated) with a pointer to json_nested. */
function scanFlat(bytes: Uint8Array): JsonDocument {
  const doc = scanJson(bytes);
  for (const member of doc.root.members) {
    const { value } = member;
    if ((value.kind === 'object' || value.kind === 'array') && holdsString(value)) {
      const what = value.kind === 'object' ? 'a nested object' : 'an array';
      const { line, column } = value;
      throw new FileUnparsableError(
        `The key ${JSON.stringify(member.key.value)} holds ${what} with strings at line ${line}, column ${column}; ` +
          'flat JSON expects string values at the top level (use the json_nested format for nested files)',
        line,
        column,
      );
    }
  }
  return doc;
}

// Numbers, booleans, null and string-free containers carry nothing to translate, so they may stay in a flat file untouched.
function holdsString(node: JsonValueNode): boolean {
  if (node.kind === 'string') return true;
  if (node.kind === 'object') return node.members.some((m) => holdsString(m.value));
  if (node.kind === 'array') return node.elements.some(holdsString);
  return false;
}

export const jsonCodec: Codec = {
  id: 'json',
  extensions: ['.json'],
  plurals: false,
  detect: (fileName, head) => detectJson(fileName, head, false),

  parse(bytes: Uint8Array): Entry[] {
    const doc = scanFlat(bytes);
    return collectStrings(doc.root).map(({ path, node }) => ({
      key: path[0]!,
      path: [path[0]!],
      source: node.value,
      line: node.line,
      column: node.column,
    }));
  },

  render(input: RenderInput): Uint8Array {
    return renderDocument(scanFlat(input.source), input, (value) => value.path[0]!);
  },

  renderFresh(entries: readonly FreshEntry[]): Uint8Array {
    // A repeated key keeps its first position and its last value, as Map.set does.
    const members = new Map<string, string>();
    for (const entry of entries) members.set(entry.key, textValue(entry.value, 'json'));
    return encodeUtf8(`${writeObject([...members])}\n`, false);
  },
};
