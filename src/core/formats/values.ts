/** Helpers every codec shares: plain-text values, and cheap format detection for JSON-shaped files. */
import type { FormatId, Value } from './codec.js';

/** The text of a value for a codec that cannot express plurals; the service never sends it plural values. */
export function textValue(value: Value, format: FormatId): string {
  if (typeof value === 'string') return value;
  throw new Error(`format_cannot_express_plural: '${format}' was given plural forms`);
}

/**
 * Flat and nested JSON share the `.json` extension: a nested object in the first bytes decides.
 * Other JSON-based formats (.arb, .xcstrings, Laravel's lang/*.json) are claimed more strongly by their codecs.
 */
export function detectJson(fileName: string, head: string, nested: boolean): number {
  if (!/\.json$/i.test(fileName)) return 0;
  const trimmed = head.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('{')) return 0;
  const hasNested = /:\s*\{/.test(trimmed);
  return nested === hasNested ? 0.6 : 0.3;
}
