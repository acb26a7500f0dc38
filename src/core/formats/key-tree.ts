// Dotted keys back into a tree, for fresh files of the formats that nest (json_nested, yaml, laravel_php).

/** A level of the tree: a leaf's value, or the next level, by key segment. */
export type KeyLevel = Map<string, string | KeyLevel>;

// Past this many segments the rest of a key stays dotted, far below any scanner's nesting limit.
const MAX_DEPTH = 64;

/**
 * Places a dotted key in the tree. Where a key is both a leaf and a prefix of another, the longer keys stay dotted at
 * the level of the conflict: parsing joins segments with '.', so they read back under the same keys and nothing is lost.
 */
export function insertKey(level: KeyLevel, segments: readonly string[], value: string, depth = 0): void {
  const [head = '', ...rest] = segments;
  const existing = level.get(head);
  if (rest.length === 0 || depth >= MAX_DEPTH) {
    if (existing instanceof Map && rest.length === 0) {
      // The object already here moves out as dotted leaves, in place; the leaf takes its name.
      const members = [...level];
      level.clear();
      for (const [name, member] of members) {
        if (name !== head) level.set(name, member);
        else for (const [path, leaf] of flattenKeys(existing)) level.set(`${head}.${path}`, leaf);
      }
    }
    level.set(segments.join('.'), value);
  } else if (typeof existing === 'string') {
    level.set(segments.join('.'), value);
  } else {
    const child: KeyLevel = existing ?? new Map();
    level.set(head, child);
    insertKey(child, rest, value, depth + 1);
  }
}

/** The leaves under a level, keyed by their dotted path from it. */
export function flattenKeys(level: KeyLevel): [string, string][] {
  return [...level].flatMap(([name, member]): [string, string][] =>
    typeof member === 'string' ? [[name, member]] : flattenKeys(member).map(([path, leaf]) => [`${name}.${path}`, leaf]),
  );
}
