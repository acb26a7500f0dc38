/**
 * Writing translations back into a help center (Freshdesk Solutions, Zendesk Guide, Intercom Articles): the write-back's
 * strings grouped by item and locale, a value a person changed since the listing kept, and the outcome's notes.
 */
import type { z } from '@hono/zod-openapi';
import type { StringWrite } from './connector.js';
import type { ConnectorError } from './connector-error.js';

/** What a listed string's ref holds for each target locale: the vendor's locale code and the value the listing saw. */
export interface SeenRef {
  field: string;
  remote: Record<string, { code: string; seen: string }>;
}

/** One write with its parsed ref. */
export interface PlacedWrite<R> {
  write: StringWrite;
  ref: R;
}

/** The writes to one item in one vendor locale, written together. */
export interface WriteGroup<R> {
  /** The first write's ref: the item's identity (every write of the group has the same). */
  ref: R;
  code: string;
  writes: PlacedWrite<R>[];
}

/** What a write-back did; each connector adds the lists of its own refusals. */
export interface Outcome {
  written: number;
  /** Fields a person changed since the listing, left as they are. */
  kept: string[];
  /** Items deleted since the listing. */
  gone: string[];
}

/**
 * The write-back's strings grouped by `item(ref)` and the ref's vendor locale code; a string whose ref does not parse
 * or has no code for its locale is named in `unplaced` (`path/key (locale)`).
 */
export function groupWrites<R extends SeenRef>(strings: StringWrite[], schema: z.ZodType<R>, item: (ref: R) => string): { groups: WriteGroup<R>[]; unplaced: string[] } {
  const groups = new Map<string, WriteGroup<R>>();
  const unplaced: string[] = [];
  for (const write of strings) {
    const parsed = schema.safeParse(write.ref);
    const remote = parsed.success ? parsed.data.remote[write.locale] : undefined;
    if (!parsed.success || !remote) {
      unplaced.push(`${write.path}/${write.key} (${write.locale})`);
      continue;
    }
    const at = `${item(parsed.data)}/${remote.code}`;
    const group = groups.get(at) ?? { ref: parsed.data, code: remote.code, writes: [] };
    group.writes.push({ write, ref: parsed.data });
    groups.set(at, group);
  }
  return { groups: [...groups.values()], unplaced };
}

/**
 * The fields to write, from each field's value now: a field already holding the translation is left out, and one that
 * no longer holds what the listing saw (a person changed it) is named in `outcome.kept` as `kept(field)`.
 */
export function fieldsToWrite<R extends SeenRef>(writes: PlacedWrite<R>[], now: (field: R['field']) => string, kept: (field: R['field']) => string, outcome: Outcome): Partial<Record<R['field'], string>> {
  const fields: Partial<Record<R['field'], string>> = {};
  for (const { write, ref } of writes) {
    const field: R['field'] = ref.field;
    const current = now(field);
    if (current === write.text) continue;
    if (current !== ref.remote[write.locale]!.seen) {
      outcome.kept.push(kept(field));
      continue;
    }
    fields[field] = write.text;
  }
  return fields;
}

/** Counts a write's answer: 404 is `gone` (the item was deleted since the listing), any other failure throws `fail`'s error. */
export async function settleWrite(response: Response, changed: number, gone: string, outcome: Outcome, fail: (response: Response) => Promise<ConnectorError>): Promise<void> {
  if (response.status === 404) {
    await response.body?.cancel();
    outcome.gone.push(gone);
    return;
  }
  if (!response.ok) throw await fail(response);
  await response.body?.cancel();
  outcome.written += changed;
}

/** The first ten items, and how many more. */
export const listed = (items: string[]): string => `${items.slice(0, 10).join(', ')}${items.length > 10 ? ` and ${items.length - 10} more` : ''}`;

/** The notes on what was kept and what was gone, naming the vendor; empty when neither. */
export function outcomeNotes(vendor: string, outcome: Outcome): string[] {
  return [
    outcome.kept.length > 0 ? `Not overwritten, changed in ${vendor} since the listing: ${listed(outcome.kept)}.` : '',
    outcome.gone.length > 0 ? `Deleted in ${vendor} since the listing, not written: ${[...new Set(outcome.gone)].join(', ')}.` : '',
  ].filter(Boolean);
}
