/** Pure helpers of the push: source hashes and the delta between what is stored and what was pushed. */
import { hash } from 'node:crypto';
import type { PassName } from '../db/schema.js';
import type { PluralForms } from '../../src/core/formats/codec.js';
import { orderedForms } from '../../src/core/plurals.js';

export interface SourceEntry {
  key: string;
  source: string;
  /** Plural forms by CLDR category, for plural keys; `source` is then the `other` form. */
  plurals?: PluralForms | undefined;
  /** False for strings the file marks as not to be translated: kept, never queued. */
  translatable?: boolean | undefined;
  notes?: string | undefined;
  context?: string | undefined;
  maxLength?: number | undefined;
  pass?: PassName | undefined;
  line?: number | undefined;
}

/** What makes a translation stale: the text and everything a translator reads beside it. */
export function sourceHash(entry: SourceEntry): string {
  // crypto.hash: one call, no Hash object per key (about twice as fast for 10,000 short sources).
  const text = JSON.stringify([
    entry.source,
    entry.notes ?? null,
    entry.context ?? null,
    entry.maxLength ?? null,
    entry.pass ?? 'fast',
    // Appended only when present, so the hashes of plain keys do not depend on this field existing.
    ...(entry.plurals ? [orderedForms(entry.plurals)] : []),
    ...(entry.translatable === false ? ['untranslatable'] : []),
  ]);
  return hash('sha256', text, 'hex').slice(0, 32);
}

export interface StoredKey {
  id: string;
  key: string;
  source_hash: string;
  state: 'active' | 'removed';
  position: number;
  line: number | null;
}

export interface Delta {
  added: { entry: SourceEntry; hash: string; position: number }[];
  changed: { entry: SourceEntry; hash: string; position: number; id: string }[];
  unchanged: { entry: SourceEntry; hash: string; position: number; id: string; moved: boolean }[];
  removed: StoredKey[];
}

/**
 * Classifies pushed entries against the stored keys of the same path. With `removeMissing` (a whole file was
 * pushed) stored keys absent from the push are removed; a keys-only push adds and updates without removing.
 */
export function computeDelta(stored: readonly StoredKey[], entries: readonly SourceEntry[], removeMissing: boolean): Delta {
  const byKey = new Map(stored.map((s) => [s.key, s]));
  const seen = new Set<string>();
  const delta: Delta = { added: [], changed: [], unchanged: [], removed: [] };
  let nextPosition = removeMissing ? 0 : stored.reduce((max, s) => Math.max(max, s.position + 1), 0);
  for (const entry of entries) {
    seen.add(entry.key);
    const hash = sourceHash(entry);
    const existing = byKey.get(entry.key);
    const position = removeMissing || !existing ? nextPosition++ : existing.position;
    if (!existing) delta.added.push({ entry, hash, position });
    else if (existing.source_hash !== hash) delta.changed.push({ entry, hash, position, id: existing.id });
    else {
      const moved = existing.position !== position || existing.state !== 'active' || (entry.line ?? null) !== existing.line;
      delta.unchanged.push({ entry, hash, position, id: existing.id, moved });
    }
  }
  if (removeMissing) for (const s of stored) if (s.state === 'active' && !seen.has(s.key)) delta.removed.push(s);
  return delta;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `a.*,b` → a predicate over key names; `*` matches any run of characters. */
export function keyPatterns(input: string | string[] | undefined): ((key: string) => boolean) | undefined {
  const list = (Array.isArray(input) ? input : input === undefined ? [] : [input]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) return undefined;
  const res = list.map((p) => new RegExp(`^${p.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's'));
  return (key) => res.some((re) => re.test(key));
}
