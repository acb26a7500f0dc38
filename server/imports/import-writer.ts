/**
 * Writes what an importer read into a project, idempotently: keys by (path, key), one translation per key and locale
 * (gated; reviewed ones as human translations, the others as accepted machine translations or held, by option),
 * memory and glossary by their own keys, locales mapped to BCP-47. Charges nothing. Tallies the report.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { unnestRows } from '../db/bulk.js';
import { newId } from '../ids.js';
import { sourceHash } from '../services/push-fns.js';
import { lengthBudget } from '../services/quality/budget.js';
import { loadGlossary } from '../services/quality/glossary-service.js';
import { rememberTranslations } from '../services/quality/memory.js';
import { gateRow } from '../services/quality/translate-rows.js';
import { holdCandidates, writeTranslations } from '../services/quality/translation-writes.js';
import { checkLocale, localeDisplayName } from '../../src/core/locales/locales.js';
import { limitsOf } from '../services/plans.js';
import { emitEvent } from '../webhooks/outbox.js';
import type { PluralForms } from '../../src/core/formats/codec.js';
import { ImportSourceError, pathRefusal, type ImportChunk, type ImportedKey, type ImportedTerm, type ImportedTranslation, type PathRefusal, type PlatformId } from './import-model.js';

export interface ImportOptions {
  /** `keep_human`: a translation a person wrote or approved in Parlance stays; `overwrite`: the platform's wins. */
  conflict: 'keep_human' | 'overwrite';
  /** What becomes of translations not reviewed on the platform: accepted machine translations, or held for review. */
  unreviewed: 'accept' | 'hold';
  dryRun: boolean;
}

/** What an import brought into one locale. */
export interface LocaleTally {
  /** The project's active keys with a translation in this locale once the import completed (a dry run: `translations` + `kept`). */
  keys: number;
  /** Translations imported in this run: human + machine + held + flagged. */
  translations: number;
  /** Reviewed on the platform: imported as human translations, protected from machine passes (also when a gate failed). */
  human: number;
  machine: number;
  held: number;
  /** Not reviewed on the platform, and a gate failed: imported flagged for review. */
  flagged: number;
  /** A person's translation in Parlance that the import left as it was. */
  kept: number;
  memory: number;
  /** Glossary terms imported with a translation into this locale. */
  glossary: number;
}

export interface ImportReport {
  keys: { added: number; updated: number; unchanged: number };
  locales: Record<string, LocaleTally>;
  /** Platform tags that were not BCP-47 as they were, and what they became (`pt_BR` → `pt-BR`). */
  locale_mappings: Record<string, string>;
  languages_added: string[];
  /**
   * Platform locales left out (the plan had no room for them, or the project lacks them): kept in the saved report, so
   * a resumed import leaves out the same ones.
   */
  locales_refused: string[];
  memory_units: number;
  glossary_terms: { added: number; updated: number };
  /** Translations a gate failed: imported and flagged for review, never dropped. */
  gate_failures: { key: string; path: string; locale: string; gate: string; reason: string; state: 'human' | 'flagged' | 'held' }[];
  gate_failures_count: number;
  warnings: { message: string; ref?: string }[];
  warnings_count: number;
  /** Files left out because their path breaks the repository path rule (`../x.json`, `/x.json`, a backslash, a NUL), once per path. */
  refused_paths: { path: string; problem: string; message: string }[];
  refused_paths_count: number;
}

export const emptyReport = (): ImportReport => ({
  keys: { added: 0, updated: 0, unchanged: 0 },
  locales: {},
  locale_mappings: {},
  languages_added: [],
  locales_refused: [],
  memory_units: 0,
  glossary_terms: { added: 0, updated: 0 },
  gate_failures: [],
  gate_failures_count: 0,
  warnings: [],
  warnings_count: 0,
  refused_paths: [],
  refused_paths_count: 0,
});

/** Formats whose files carry no notes, context or length limit for a key (their codecs read none). */
const BARE_FORMATS: ReadonlySet<string> = new Set(['json', 'json_nested', 'laravel_json']);

/** SHA-256 of no bytes: the content hash of a source file an import recorded without a skeleton. */
const EMPTY_SHA256 = createHash('sha256').digest('hex');

/** Lists in the report keep their first entries; the counts keep counting. */
const REPORT_LIST_LIMIT = 200;

/** A platform's locale tag as BCP-47: `pt_BR`, `pt-br` and `pt-BR` are all `pt-BR`. */
export function mapLocale(tag: string): string | undefined {
  const check = checkLocale(tag.trim().replaceAll('_', '-'));
  return check.ok ? check.tag : undefined;
}

type Executor = Db;

interface KeyRow {
  id: string;
  key: string;
  path: string;
  source: string;
  source_plurals: PluralForms | null;
  notes: string | null;
  context: string | null;
  max_length: number | null;
  source_hash: string;
  position: number;
}

export function createImportWriter(deps: { projectId: string; platform: PlatformId; options: ImportOptions; report: ImportReport }) {
  const { projectId, options, report } = deps;
  const locales = new Map<string, string>();
  /** Keys read in this run, for translations whose key a dry run did not write. */
  const seen = new Map<string, KeyRow>();

  const warn = (message: string, ref?: string) => {
    report.warnings_count++;
    if (report.warnings.length < REPORT_LIST_LIMIT) report.warnings.push(ref ? { message, ref } : { message });
  };
  /** Lists a refused file once: a resumed run reads the archive again, and the report saved with each emit remembers. */
  const refusePath = (refusal: PathRefusal) => {
    if (report.refused_paths.some((r) => r.path === refusal.path)) return;
    report.refused_paths_count++;
    if (report.refused_paths.length < REPORT_LIST_LIMIT) report.refused_paths.push({ path: refusal.path, problem: refusal.problem, message: refusal.message });
  };
  /** The last line of defence behind the readers' checks: a key or translation whose file path breaks the rule is never stored. */
  const refusedPath = (path: string): boolean => {
    const refusal = path === '' ? undefined : pathRefusal(path, 'a file path the import read');
    if (refusal) refusePath(refusal);
    return refusal !== undefined;
  };
  const tally = (locale: string): LocaleTally => {
    // A report saved by an earlier version lacks the newer counts.
    const t = (report.locales[locale] ??= { keys: 0, translations: 0, human: 0, machine: 0, held: 0, flagged: 0, kept: 0, memory: 0, glossary: 0 });
    t.translations ??= 0;
    t.glossary ??= 0;
    return t;
  };

  /** The project's tag for a platform tag, or undefined with a warning. */
  function locale(tag: string, ref?: string): string | undefined {
    const known = locales.get(tag);
    if (known) return known;
    const mapped = mapLocale(tag);
    if (!mapped) {
      warn(`'${tag}' is not a locale tag Parlance can map to BCP-47; its translations are left out`, ref);
      return undefined;
    }
    if (mapped !== tag) report.locale_mappings[tag] = mapped;
    locales.set(tag, mapped);
    return mapped;
  }

  async function project(trx: Executor) {
    return trx.selectFrom('projects').select(['id', 'organisation_id', 'source_locale', 'length_budget_percent']).where('id', '=', projectId).executeTakeFirstOrThrow();
  }

  /** Leaves a locale's translations out, saying why once per import (the report, saved with each emit, remembers). */
  function refuse(tag: string, why: string) {
    if (report.locales_refused.includes(tag)) return;
    report.locales_refused.push(tag);
    warn(why);
  }

  async function writeLocales(trx: Executor, source: string, targets: readonly string[]) {
    const p = await project(trx);
    const mappedSource = locale(source);
    if (mappedSource && mappedSource.split('-')[0] !== p.source_locale.split('-')[0]) {
      throw new ImportSourceError(`The ${deps.platform} project's source language is '${source}', and this Parlance project's is '${p.source_locale}'. Import into a project with the same source language.`);
    }
    const org = await trx.selectFrom('organisations').select(['id', 'name', 'plan']).where('id', '=', p.organisation_id).executeTakeFirstOrThrow();
    const plan = org.plan;
    const limit = limitsOf(org).maxLocaleRows;
    const existing = new Set((await trx.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).execute()).map((l) => l.tag));
    for (const tag of targets) {
      const mapped = locale(tag);
      if (!mapped || mapped === p.source_locale || existing.has(mapped) || report.locales_refused.includes(mapped)) continue;
      // The plan's locale rows count the source: an import adds languages as POST /v1/languages would, no further.
      if (existing.size + 2 > limit) {
        refuse(mapped, `'${mapped}' is not added: the ${plan} plan allows ${limit} locale rows including the source, and this project has ${existing.size + 1}; its translations are left out`);
        continue;
      }
      existing.add(mapped);
      if (!report.languages_added.includes(mapped)) report.languages_added.push(mapped);
      if (options.dryRun) continue;
      await trx.insertInto('project_languages').values({ project_id: projectId, tag: mapped }).onConflict((oc) => oc.doNothing()).execute();
      await emitEvent(trx, projectId, 'language.added', { tag: mapped, name: localeDisplayName(mapped) ?? null });
    }
  }

  /**
   * Records the key's source file (path and format) as a push does, so a pull without `format` answers in the file's
   * own format and `GET /v1/files` lists it. An import has no skeleton of the file: it stores none (zero bytes, their
   * SHA-256), so a pull renders the file fresh and a later `parlance push` of the file sends it (its hash differs),
   * matching the imported keys. A file already pushed keeps its skeleton and format.
   */
  async function recordSourceFile(trx: Executor, path: string, keys: readonly ImportedKey[]) {
    const format = keys.find((k) => k.format !== undefined)?.format;
    if (path === '' || !format) return;
    await trx
      .insertInto('source_files')
      .values({ project_id: projectId, path, format, content: sql<Uint8Array>`decode('', 'hex')`, content_sha256: EMPTY_SHA256 })
      .onConflict((oc) => oc.columns(['project_id', 'path']).doNothing())
      .execute();
  }

  async function writeKeys(trx: Executor, keys: readonly ImportedKey[]) {
    const byPath = new Map<string, ImportedKey[]>();
    for (const k of keys) {
      const list = byPath.get(k.path) ?? [];
      list.push(k);
      byPath.set(k.path, list);
    }
    for (const [path, list] of byPath) {
      if (refusedPath(path)) continue;
      const stored = new Map(
        (
          await trx
            .selectFrom('keys')
            .select(['id', 'key', 'path', 'source', 'source_plurals', 'notes', 'context', 'max_length', 'source_hash', 'position'])
            .where('project_id', '=', projectId)
            .where('path', '=', path)
            .where(sql<boolean>`key = any(${list.map((k) => k.key)}::text[])`)
            .execute()
        ).map((k) => [k.key, k as KeyRow]),
      );
      const last = await trx.selectFrom('keys').select(sql<number>`coalesce(max(position), -1)`.as('n')).where('project_id', '=', projectId).where('path', '=', path).executeTakeFirstOrThrow();
      let position = Number(last.n);
      const added: (KeyRow & { tags: string | null })[] = [];
      const changed: (KeyRow & { tags: string | null })[] = [];
      for (const k of list) {
        // Hashed as a push of the key's file would hash it: a format without notes, context or limits (flat JSON)
        // pushes the key without them, and the key must then count as unchanged, its platform notes kept.
        const bare = k.format !== undefined && BARE_FORMATS.has(k.format);
        const hash = sourceHash({ key: k.key, source: k.source, plurals: k.plurals, ...(bare ? {} : { notes: k.notes, context: k.context, maxLength: k.maxLength }) });
        const row = {
          id: stored.get(k.key)?.id ?? newId('key'),
          key: k.key,
          path,
          source: k.source,
          source_plurals: k.plurals ?? null,
          notes: k.notes ?? null,
          context: k.context ?? null,
          max_length: k.maxLength ?? null,
          source_hash: hash,
          position: stored.get(k.key)?.position ?? ++position,
          tags: k.tags && k.tags.length > 0 ? JSON.stringify(k.tags) : null,
        };
        seen.set(`${path}\u0000${k.key}`, row);
        const before = stored.get(k.key);
        if (!before) {
          added.push(row);
          report.keys.added++;
        } else if (before.source_hash !== hash) {
          changed.push(row);
          report.keys.updated++;
        } else report.keys.unchanged++;
      }
      if (options.dryRun) continue;
      await recordSourceFile(trx, path, list);
      const columns = {
        id: ['text', (r: (typeof added)[number]) => r.id],
        source: ['text', (r: (typeof added)[number]) => r.source],
        source_plurals: ['jsonb', (r: (typeof added)[number]) => (r.source_plurals ? JSON.stringify(r.source_plurals) : null)],
        notes: ['text', (r: (typeof added)[number]) => r.notes],
        context: ['text', (r: (typeof added)[number]) => r.context],
        max_length: ['int', (r: (typeof added)[number]) => r.max_length],
        source_hash: ['text', (r: (typeof added)[number]) => r.source_hash],
        tags: ['jsonb', (r: (typeof added)[number]) => r.tags],
      } as const;
      if (added.length > 0) {
        await trx
          .insertInto('keys')
          .columns(['id', 'project_id', 'path', 'key', 'position', 'source', 'source_plurals', 'notes', 'context', 'max_length', 'source_hash', 'tags', 'pass', 'state'])
          .expression(
            unnestRows(added, {
              id: columns.id,
              project_id: ['text', () => projectId],
              path: ['text', () => path],
              key: ['text', (r) => r.key],
              position: ['int', (r) => r.position],
              source: columns.source,
              source_plurals: columns.source_plurals,
              notes: columns.notes,
              context: columns.context,
              max_length: columns.max_length,
              source_hash: columns.source_hash,
              tags: columns.tags,
              pass: ['text', () => 'fast'],
              state: ['text', () => 'active'],
            }),
          )
          .execute();
      }
      if (changed.length > 0) {
        await sql`update keys set source = x.source, source_plurals = x.source_plurals, notes = x.notes, context = x.context, max_length = x.max_length,
          source_hash = x.source_hash, tags = x.tags, state = 'active', removed_at = null, updated_at = now()
          from ${unnestRows(changed, columns)} as x where keys.id = x.id`.execute(trx);
      }
    }
  }

  async function writeTranslationRows(trx: Executor, read: readonly ImportedTranslation[]) {
    const rows = read.filter((r) => !refusedPath(r.path));
    const p = await project(trx);
    // Only into the project's languages (a dry run's would-be ones too), whatever chunks a resumed run saw before.
    const targets = new Set((await trx.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).execute()).map((l) => l.tag));
    if (options.dryRun) for (const tag of report.languages_added) targets.add(tag);
    const glossary = await loadGlossary(trx, projectId);
    // Keys written by an earlier run of this import (before a restart) are looked up by (path, key), as pairs.
    const wanted = new Map<string, { path: string; key: string }>();
    for (const r of rows) if (!seen.has(`${r.path}\u0000${r.key}`)) wanted.set(`${r.path}\u0000${r.key}`, { path: r.path, key: r.key });
    if (wanted.size > 0) {
      const found = await sql<KeyRow>`
        select k.id, k.key, k.path, k.source, k.source_plurals, k.notes, k.context, k.max_length, k.source_hash, k.position
        from ${unnestRows([...wanted.values()], { path: ['text', (w) => w.path], key: ['text', (w) => w.key] }, 'w')} as w
        join keys k on k.project_id = ${projectId} and k.path = w.path and k.key = w.key`.execute(trx);
      for (const k of found.rows) seen.set(`${k.path}\u0000${k.key}`, k);
    }
    const keyIds = [...new Set(rows.map((r) => seen.get(`${r.path}\u0000${r.key}`)?.id).filter((id): id is string => id !== undefined))];
    const current = new Map(
      keyIds.length === 0
        ? []
        : (await trx.selectFrom('translations').select(['key_id', 'locale', 'state', 'source_hash']).where(sql<boolean>`key_id = any(${keyIds}::text[])`).execute()).map((t) => [`${t.key_id}\u0000${t.locale}`, t]),
    );
    const written: Parameters<typeof writeTranslations>[1][number][] = [];
    const held: Parameters<typeof holdCandidates>[1][number][] = [];
    const remembered: Parameters<typeof rememberTranslations>[1][number][] = [];
    for (const r of rows) {
      const k = seen.get(`${r.path}\u0000${r.key}`);
      const tag = locale(r.locale, r.ref);
      if (!tag) continue;
      if (!k) {
        warn(`translation into ${tag} of '${r.key}'${r.path ? ` in ${r.path}` : ''}, a key the import did not read, is left out`, r.ref);
        continue;
      }
      if (tag === p.source_locale) continue;
      if (!targets.has(tag)) {
        refuse(tag, `'${tag}' is not a language of this project; its translations are left out`);
        continue;
      }
      const t = tally(tag);
      const existing = current.get(`${k.id}\u0000${tag}`);
      if (existing && options.conflict === 'keep_human' && (existing.state === 'human' || existing.state === 'approved')) {
        t.kept++;
        continue;
      }
      const value = { text: r.plurals ? (r.plurals.other ?? r.text) : r.text, plurals: r.plurals ?? null };
      const report_ = gateRow(
        { id: k.id, key: k.key, source: k.source, sourcePlurals: k.source_plurals, notes: k.notes, context: k.context, maxLength: lengthBudget(k.max_length, p.length_budget_percent, k.source, k.source_plurals) },
        value,
        p.source_locale,
        tag,
        glossary,
      );
      const failures = report_.failures.map((f) => ({ gate: f.gate, reason: f.reason }));
      const plurals = value.plurals ? JSON.stringify(value.plurals) : null;
      const origin = `import:${deps.platform}`;
      const holding = !r.reviewed && options.unreviewed === 'hold';
      // A gate failure is imported all the same, never dropped. A reviewed translation stays a human one, protected from
      // machine passes as a person's edit that overruns a length limit is, its failures kept on the row for a
      // reviewer; an unreviewed one is flagged for review.
      const state = holding ? 'held' : r.reviewed ? 'human' : failures.length > 0 ? 'flagged' : 'accepted';
      for (const f of failures) {
        report.gate_failures_count++;
        if (report.gate_failures.length < REPORT_LIST_LIMIT) report.gate_failures.push({ key: k.key, path: k.path, locale: tag, gate: f.gate, reason: f.reason, state: state === 'accepted' ? 'flagged' : state });
      }
      t.translations++;
      if (state === 'held') {
        held.push({ key_id: k.id, locale: tag, text: value.text, plurals, source_hash: k.source_hash, failures: JSON.stringify(failures), origin, batch_id: null, state: 'held' });
        t.held++;
        continue;
      }
      written.push({ key_id: k.id, locale: tag, text: value.text, plurals, source_hash: k.source_hash, origin, batch_id: null, state, failures: failures.length > 0 ? JSON.stringify(failures) : null });
      if (state === 'flagged') t.flagged++;
      else if (state === 'human') t.human++;
      else t.machine++;
      // Only what passed every gate joins the memory, to be offered again.
      if (failures.length === 0) {
        remembered.push({ organisationId: p.organisation_id, sourceLocale: p.source_locale, locale: tag, source: k.source, sourcePlurals: k.source_plurals, context: k.context, text: value.text, plurals: value.plurals, origin: r.reviewed ? 'human' : 'tmx' });
      }
    }
    if (options.dryRun) return;
    await writeTranslations(trx, written);
    await holdCandidates(trx, held);
    if (written.length > 0) {
      await sql`delete from held_translations h using ${unnestRows(written, { key_id: ['text', (w) => w.key_id], locale: ['text', (w) => w.locale] })} as x
        where h.key_id = x.key_id and h.locale = x.locale`.execute(trx);
    }
    if (remembered.length > 0) await rememberTranslations(trx, remembered);
  }

  async function writeMemory(trx: Executor, units: Extract<ImportChunk, { kind: 'memory' }>['units']) {
    const p = await project(trx);
    const writes = [];
    for (const u of units) {
      const tag = locale(u.locale);
      const source = locale(u.sourceLocale);
      if (!tag || !source) continue;
      if (source.split('-')[0] !== p.source_locale.split('-')[0]) {
        warn(`a memory unit from ${u.sourceLocale} is left out: this project's source language is ${p.source_locale}`);
        continue;
      }
      writes.push({ organisationId: p.organisation_id, sourceLocale: p.source_locale, locale: tag, source: u.source, sourcePlurals: null, text: u.text, plurals: null, origin: 'tmx' as const });
      tally(tag).memory++;
      report.memory_units++;
    }
    if (!options.dryRun && writes.length > 0) await rememberTranslations(trx, writes);
  }

  async function writeGlossary(trx: Executor, terms: readonly ImportedTerm[]) {
    for (const term of terms) {
      const translations: Record<string, string> = {};
      for (const [tag, text] of Object.entries(term.translations)) {
        const mapped = locale(tag);
        if (mapped && text.trim() !== '') translations[mapped] = text.trim();
      }
      for (const tag of Object.keys(translations)) tally(tag).glossary++;
      const existing = await trx.selectFrom('glossary_terms').select(['id', 'translations']).where('project_id', '=', projectId).where(sql<boolean>`lower(term) = lower(${term.term})`).executeTakeFirst();
      if (existing) report.glossary_terms.updated++;
      else report.glossary_terms.added++;
      if (options.dryRun) continue;
      if (existing) {
        await trx
          .updateTable('glossary_terms')
          .set({ translations: JSON.stringify({ ...existing.translations, ...translations }), forbidden: term.forbidden, ...(term.caseSensitive !== undefined ? { case_sensitive: term.caseSensitive } : {}), ...(term.notes ? { notes: term.notes } : {}), updated_at: sql`now()` })
          .where('id', '=', existing.id)
          .execute();
      } else {
        await trx
          .insertInto('glossary_terms')
          .values({ id: newId('gls'), project_id: projectId, term: term.term.trim(), translations: JSON.stringify(translations), forbidden: term.forbidden, case_sensitive: term.caseSensitive ?? false, notes: term.notes ?? null })
          .execute();
      }
    }
  }

  return {
    /** Writes one emit's chunks in `trx`, in an order that lets translations find keys written by the same emit. */
    async write(trx: Executor, chunks: readonly ImportChunk[]): Promise<void> {
      const order: ImportChunk['kind'][] = ['locales', 'glossary', 'keys', 'translations', 'memory', 'warning', 'refused_path'];
      for (const kind of order) {
        for (const chunk of chunks) {
          if (chunk.kind !== kind) continue;
          if (chunk.kind === 'locales') await writeLocales(trx, chunk.source, chunk.targets);
          else if (chunk.kind === 'keys') await writeKeys(trx, chunk.keys);
          else if (chunk.kind === 'translations') await writeTranslationRows(trx, chunk.rows);
          else if (chunk.kind === 'memory') await writeMemory(trx, chunk.units);
          else if (chunk.kind === 'glossary') await writeGlossary(trx, chunk.terms);
          else if (chunk.kind === 'refused_path') refusePath(chunk);
          else warn(chunk.message, chunk.ref);
        }
      }
      if (options.dryRun) for (const t of Object.values(report.locales)) t.keys = t.translations + t.kept;
    },
    /** Counts, once the reader is done, each locale's keys with a translation: what the project now holds. */
    async finish(executor: Executor): Promise<void> {
      const tags = Object.keys(report.locales);
      if (options.dryRun || tags.length === 0) return;
      const counts = await executor
        .selectFrom('translations as t')
        .innerJoin('keys as k', 'k.id', 't.key_id')
        .select(['t.locale', (eb) => eb.fn.countAll<string>().as('n')])
        .where('k.project_id', '=', projectId)
        .where('k.state', '=', 'active')
        .where('t.locale', 'in', tags)
        .groupBy('t.locale')
        .execute();
      const byLocale = new Map(counts.map((c) => [c.locale, Number(c.n)]));
      for (const tag of tags) tally(tag).keys = byLocale.get(tag) ?? 0;
    },
  };
}
