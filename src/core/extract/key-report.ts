/**
 * From uses to keys, and keys against the source-language file: each key once, with its default text, its notes and
 * where it is used (`src/App.tsx:12 and 2 more`); the keys the code uses that the source file lacks, and the keys the
 * source file holds that no code uses.
 *
 * An i18next namespace prefix (`common:title`) is kept in the key as written: it is what a reader greps the code for,
 * and which namespace file it belongs to is the project's layout, not the code's. Against a source file whose base
 * name is that namespace (`locales/en/common.json`) the key is looked up without it, as i18next would.
 */
import type { ExtractWarning, KeyUse } from './key-use.js';

export interface FoundKey {
  key: string;
  /** The first use's default text that has one. */
  defaultText?: string;
  /** Every distinct note of its uses, joined. */
  notes?: string;
  /** `src/App.tsx:12`, or `src/App.tsx:12 and 2 more`. */
  context: string;
  uses: { file: string; line: number }[];
}

/** One entry per key in first-use order; a key given two different default texts is reported (the first is kept). */
export function collectKeys(uses: readonly KeyUse[]): { keys: FoundKey[]; warnings: ExtractWarning[] } {
  const byKey = new Map<string, { key: string; defaultText?: string; notes: string[]; uses: { file: string; line: number }[] }>();
  const warnings: ExtractWarning[] = [];
  for (const use of uses) {
    let entry = byKey.get(use.key);
    if (!entry) byKey.set(use.key, (entry = { key: use.key, notes: [], uses: [] }));
    entry.uses.push({ file: use.file, line: use.line });
    if (use.notes && !entry.notes.includes(use.notes)) entry.notes.push(use.notes);
    if (use.defaultText === undefined) continue;
    if (entry.defaultText === undefined) entry.defaultText = use.defaultText;
    else if (entry.defaultText !== use.defaultText) {
      const first = entry.uses.find((u) => u !== entry!.uses.at(-1))!;
      warnings.push({ file: use.file, line: use.line, message: `key '${use.key}' has the default text "${use.defaultText}" here and "${entry.defaultText}" at ${first.file}:${first.line}; the first is used.` });
    }
  }
  const keys = [...byKey.values()].map((entry) => ({
    key: entry.key,
    ...(entry.defaultText !== undefined ? { defaultText: entry.defaultText } : {}),
    ...(entry.notes.length > 0 ? { notes: entry.notes.join(' ') } : {}),
    context: useContext(entry.uses),
    uses: entry.uses,
  }));
  return { keys, warnings };
}

export function useContext(uses: readonly { file: string; line: number }[]): string {
  const first = `${uses[0]!.file}:${uses[0]!.line}`;
  return uses.length > 1 ? `${first} and ${uses.length - 1} more` : first;
}

/** The key as the source file at `sourcePath` stores it: without a namespace prefix that names the file itself. */
export function keyInSource(key: string, sourcePath: string | undefined): string {
  const colon = key.indexOf(':');
  if (colon <= 0 || sourcePath === undefined) return key;
  const base = sourcePath.slice(sourcePath.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return key.slice(0, colon) === base ? key.slice(colon + 1) : key;
}

export interface KeyComparison {
  /** Keys the code uses that the source file lacks. */
  missing: FoundKey[];
  /** Keys the source file holds that no code uses, in the file's order. */
  unused: string[];
}

export function compareWithSource(keys: readonly FoundKey[], sourceKeys: readonly string[], sourcePath: string | undefined): KeyComparison {
  const held = new Set(sourceKeys);
  const used = new Set(keys.map((k) => keyInSource(k.key, sourcePath)));
  return { missing: keys.filter((k) => !held.has(keyInSource(k.key, sourcePath))), unused: sourceKeys.filter((k) => !used.has(k)) };
}

/** The first `limit` items quoted, and how many more: a bounded list for a log line. */
export function boundedList(items: readonly string[], limit: number): string {
  const shown = items.slice(0, limit).map((item) => `'${item}'`).join(', ');
  return items.length > limit ? `${shown} and ${items.length - limit} more` : shown;
}
