/**
 * Runs a platform reader outside the service, as the import job does (chunks written, then the checkpoint), to test a
 * reader against its platform's mock: what it read, merged as the writer merges it (the last write of a key wins), a
 * crash after some checkpoints and the resumption from the last one, and a comparison with the import fixture.
 */
import { expect } from 'vitest';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../../src/core/archive-limits.js';
import type { ImportChunk, ImportedKey, ImportedTerm, ImportedTranslation, ImportedMemoryUnit, ReaderContext } from '../../server/imports/import-model.js';
import { createPlatformHttp } from '../../server/imports/platform-http.js';
import type { ImportFixture } from './import-fixture.js';

export interface ReaderRun {
  chunks: ImportChunk[];
  /** The checkpoint of the last emit. */
  checkpoint: unknown;
  emits: number;
  /** Set when the run stopped at `crashAfterEmits`. */
  crashed: boolean;
  waits: string[];
}

class SimulatedCrash extends Error {}

/**
 * Runs `read` with a context whose emits are recorded. `crashAfterEmits`: the run stops (as a killed process would)
 * right after that many checkpoints are saved. `checkpoint`: where a resumed run starts.
 */
export async function runReader(
  read: (context: ReaderContext) => Promise<void>,
  options: { headers?: Record<string, string>; crashAfterEmits?: number; checkpoint?: unknown; fastWaits?: boolean; archiveLimits?: ArchiveLimits } = {},
): Promise<ReaderRun> {
  const run: ReaderRun = { chunks: [], checkpoint: options.checkpoint, emits: 0, crashed: false, waits: [] };
  const controller = new AbortController();
  const context: ReaderContext = {
    signal: controller.signal,
    http: createPlatformHttp({
      signal: controller.signal,
      headers: options.headers ?? {},
      onWait: (reason, ms) => run.waits.push(`${reason}: ${ms} ms`),
      // Rate-limit waits are recorded, not slept through in full: the tests check that they happen and last as asked.
      ...(options.fastWaits === false ? {} : { sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20))) }),
    }),
    checkpoint: options.checkpoint,
    archiveLimits: options.archiveLimits ?? DEFAULT_ARCHIVE_LIMITS,
    async emit(chunks, checkpoint) {
      run.chunks.push(...chunks);
      run.checkpoint = checkpoint;
      run.emits++;
      if (options.crashAfterEmits !== undefined && run.emits >= options.crashAfterEmits) throw new SimulatedCrash('simulated crash');
    },
    progress() {},
  };
  try {
    await read(context);
  } catch (error) {
    if (!(error instanceof SimulatedCrash)) throw error;
    run.crashed = true;
  }
  return run;
}

export interface Collected {
  locales: { source: string; targets: string[] } | undefined;
  keys: Map<string, ImportedKey>;
  translations: Map<string, ImportedTranslation>;
  memory: ImportedMemoryUnit[];
  glossary: Map<string, ImportedTerm>;
  warnings: string[];
  /** Keys and translations read more than once (expected after a resumption; never within one clean run). */
  repeats: number;
}

export const keyId = (path: string, key: string) => `${path}\u0000${key}`;

/** Merges chunks as the writer does: one key per path and name, one translation per key and locale, the last wins. */
export function collect(chunks: readonly ImportChunk[]): Collected {
  const out: Collected = { locales: undefined, keys: new Map(), translations: new Map(), memory: [], glossary: new Map(), warnings: [], repeats: 0 };
  for (const chunk of chunks) {
    if (chunk.kind === 'locales') out.locales = { source: chunk.source, targets: chunk.targets };
    else if (chunk.kind === 'keys') {
      for (const k of chunk.keys) {
        if (out.keys.has(keyId(k.path, k.key))) out.repeats++;
        out.keys.set(keyId(k.path, k.key), k);
      }
    } else if (chunk.kind === 'translations') {
      for (const t of chunk.rows) {
        const id = `${keyId(t.path, t.key)}\u0000${t.locale}`;
        if (out.translations.has(id)) out.repeats++;
        out.translations.set(id, t);
      }
    } else if (chunk.kind === 'memory') out.memory.push(...chunk.units);
    else if (chunk.kind === 'glossary') for (const term of chunk.terms) out.glossary.set(term.term.toLowerCase(), term);
    else out.warnings.push(chunk.message);
  }
  return out;
}

/**
 * Checks what was read against the fixture. `locale(tag)` maps the platform's tags to the fixture's (`pt_BR` →
 * `pt-BR`); `fields` lists what the platform carries beyond key, source, plurals and translations.
 */
export function expectFixture(
  collected: Collected,
  fixture: ImportFixture,
  options: { locale?: (tag: string) => string; fields?: { notes?: boolean; context?: boolean; maxLength?: boolean; tags?: boolean; paths?: boolean; reviewed?: boolean; memory?: boolean; glossary?: boolean } } = {},
) {
  const locale = options.locale ?? ((tag: string) => tag);
  const f = { notes: true, context: true, maxLength: true, tags: true, paths: true, reviewed: true, memory: true, glossary: true, ...options.fields };
  expect(collected.locales && locale(collected.locales.source)).toBe(fixture.sourceLocale);
  expect(collected.locales?.targets.map(locale).sort()).toEqual([...fixture.targetLocales].sort());
  expect(collected.keys.size).toBe(fixture.keys.length);
  const byKey = new Map([...collected.keys.values()].map((k) => [f.paths ? keyId(k.path, k.key) : k.key, k]));
  for (const k of fixture.keys) {
    const got = byKey.get(f.paths ? keyId(k.path, k.key) : k.key);
    expect(got, `key ${k.path} ${k.key}`).toBeDefined();
    expect(got!.source).toBe(k.source);
    expect(got!.plurals).toEqual(k.plurals);
    if (f.paths) expect(got!.format).toBe(k.format);
    if (f.notes) expect(got!.notes, `notes of ${k.key}`).toBe(k.notes);
    if (f.context) expect(got!.context, `context of ${k.key}`).toBe(k.context);
    if (f.maxLength) expect(got!.maxLength, `max length of ${k.key}`).toBe(k.maxLength);
    if (f.tags) expect([...(got!.tags ?? [])].sort(), `tags of ${k.key}`).toEqual([...k.tags].sort());
  }
  const translations = new Map([...collected.translations.values()].map((t) => [`${f.paths ? keyId(t.path, t.key) : t.key}\u0000${locale(t.locale)}`, t]));
  expect(translations.size).toBe(fixture.translations.length);
  for (const t of fixture.translations) {
    const k = fixture.keys[t.keyId - 1]!;
    const got = translations.get(`${f.paths ? keyId(k.path, k.key) : k.key}\u0000${t.locale}`);
    expect(got, `translation of ${k.key} in ${t.locale}`).toBeDefined();
    if (t.plurals) expect(got!.plurals, `plurals of ${k.key} in ${t.locale}`).toEqual(t.plurals);
    else expect(got!.text, `text of ${k.key} in ${t.locale}`).toBe(t.text);
    if (f.reviewed) expect(got!.reviewed, `review state of ${k.key} in ${t.locale}`).toBe(t.reviewed);
  }
  if (f.memory) {
    const memory = new Set(collected.memory.map((m) => `${m.source}\u0000${locale(m.locale)}\u0000${m.text}`));
    for (const m of fixture.memory) expect(memory.has(`${m.source}\u0000${m.locale}\u0000${m.text}`), `memory ${m.source} → ${m.locale}`).toBe(true);
  }
  if (f.glossary) {
    expect(collected.glossary.size).toBe(fixture.glossary.length);
    for (const g of fixture.glossary) {
      const got = collected.glossary.get(g.term.toLowerCase());
      expect(got, `term ${g.term}`).toBeDefined();
      expect(got!.forbidden).toBe(g.forbidden);
      expect(Object.fromEntries(Object.entries(got!.translations).map(([tag, text]) => [locale(tag), text]))).toEqual(g.translations);
    }
  }
}
