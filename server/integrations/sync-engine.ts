/**
 * The connector framework's job: a sync reads the remote system through its connector, imports what people changed
 * there as human translations, pushes the source strings (one push per unit, so delta, allowance, gates, memory and
 * events are the push's own), waits for the batches, then writes back every translation the remote system does not
 * hold yet, never one whose remote value someone changed since Parlance last read or wrote it.
 *
 * Syncs are rows claimed with a lease (lease-poller.ts): `read` (list, import edits, push) then `write` (re-list,
 * import edits made meanwhile, write back). A sync whose remote system is down or busy is retried with backoff; one
 * whose credentials or settings are refused fails at once, with the connector's message on the connection.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { IntegrationSyncCounts, IntegrationSyncLogLine } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { SecretDecryptionError } from '../github-app/crypto.js';
import { createLeasePoller } from '../jobs/lease-poller.js';
import type { Logger } from '../logger.js';
import type { PullService } from '../services/pull-service.js';
import { keyPatterns, type SourceEntry } from '../services/push-fns.js';
import type { PushService } from '../services/push-service.js';
import type { TranslationsService } from '../services/quality/translations-service.js';
import type { FormatId, PluralForms } from '../../src/core/formats/codec.js';
import { FileUnparsableError } from '../../src/core/formats/file-unparsable-error.js';
import { getCodec } from '../../src/core/formats/index.js';
import { orderedForms } from '../../src/core/plurals.js';
import { createConnectorHttp } from './connector-http.js';
import { outboundCause, PUBLIC_ONLY_REASON, RedirectRefusedError, UnsafeAddressError, type Outbound } from '../net/outbound.js';
import type { ConnectorContext, FileWrite, JsonValue, Listing, ReportRow, StringWrite, WriteBack } from './connector.js';
import { ConnectorError } from './connector-error.js';
import type { ConnectionsService, OpenedConnection } from './connections-service.js';

export interface SyncEngineSettings {
  /** Waits before the 2nd, 3rd… attempt of a sync that failed for a reason that may pass. */
  retryDelaysMs: readonly number[];
  pollMs: number;
  /** Retries of one request to the remote system (network errors, 5xx) within an attempt. */
  httpRetries: number;
  httpTimeoutMs: number;
  /** Every request to the remote system goes through it (OUTBOUND_ALLOW_PRIVATE_ADDRESSES decides which addresses it reaches). */
  outbound: Outbound;
}

export interface SyncEngineDeps extends SyncEngineSettings {
  db: Db;
  log: Logger;
  workerId: string;
  connections: ConnectionsService;
  push: PushService;
  pull: PullService;
  translations: TranslationsService;
  publicUrl: () => string;
  fetch?: typeof fetch;
}

const LEASE_SECONDS = 120;
const SYNCS_IN_FLIGHT = 4;
const LOG_LINES = 300;
const FINAL_BATCH = ['completed', 'failed', 'cancelled'];
/** Refused and flagged rows given to a connector for its report; a batch with more names the rest by count. */
const REPORT_ROWS = 500;

/** A value as it stands in one remote place: text, or plural forms. */
interface RemoteValue {
  path: string;
  key: string;
  locale: string;
  text: string;
  plurals?: PluralForms | undefined;
}

/** A listed unit as Parlance stores it. */
interface PlannedUnit {
  path: string;
  kind: 'strings' | 'file';
  format: FormatId | null;
  content?: Uint8Array;
  entries: SourceEntry[];
  /** The target locales the remote place holds. */
  locales: string[];
  remote: RemoteValue[];
  refs: Map<string, JsonValue | undefined>;
  /** File units: each locale's translation file, as listed. */
  targets: { locale: string; path: string; content: Uint8Array | null }[];
  /** File units: how json files read i18next plural suffixes (the rule's `plurals`). */
  plurals?: 'i18next' | 'none';
}

/** The connection was removed or disabled while its sync ran: the sync ends as cancelled, nothing more is pushed or written. */
class SyncStopped extends Error {}

const placeKey = (path: string, key: string, locale: string) => `${path}\u0000${key}\u0000${locale}`;

/** The hash a remote value is remembered by; plural forms in CLDR order, so the same forms always hash alike. */
export function valueHash(text: string, plurals?: PluralForms | null): string {
  return createHash('sha256')
    .update(JSON.stringify(plurals ? orderedForms(plurals) : [text]))
    .digest('hex')
    .slice(0, 32);
}

/** The path a connection's string unit is pushed under. */
export const unitPath = (connectionId: string, path: string) => `integrations/${connectionId}/${path}`;

/** Turns a connector's listing into what is pushed and what the remote holds; a file that does not parse fails the sync naming it. */
export function planListing(connectionId: string, listing: Listing, targetLocales: readonly string[], note: (message: string) => void): PlannedUnit[] {
  const units: PlannedUnit[] = [];
  const seenPaths = new Set<string>();
  for (const unit of listing.units) {
    if (unit.kind === 'strings') {
      const path = unitPath(connectionId, unit.path);
      if (seenPaths.has(path)) throw new ConnectorError('config', `The listing names the place '${unit.path}' twice.`);
      seenPaths.add(path);
      const locales = (unit.locales ?? [...targetLocales]).filter((l) => targetLocales.includes(l));
      const entries: SourceEntry[] = [];
      const remote: RemoteValue[] = [];
      const refs = new Map<string, JsonValue | undefined>();
      for (const s of unit.strings) {
        if (s.key === '' || refs.has(s.key)) {
          note(`skipped a string of '${unit.path}' with ${s.key === '' ? 'an empty key' : `the repeated key '${s.key}'`}`);
          continue;
        }
        refs.set(s.key, s.ref);
        entries.push({ key: s.key, source: s.source, plurals: s.plurals, notes: s.notes, context: s.context, maxLength: s.maxLength });
        for (const [locale, text] of Object.entries(s.translations ?? {})) {
          if (text === undefined || text === '' || !locales.includes(locale)) continue;
          remote.push({ path, key: s.key, locale, text });
        }
      }
      units.push({ path, kind: 'strings', format: null, entries, locales, remote, refs, targets: [] });
      continue;
    }
    const codec = getCodec(unit.format);
    if (!codec) throw new ConnectorError('config', `${unit.path}: format '${unit.format}' is not supported.`);
    const parse = (bytes: Uint8Array, path: string) => {
      try {
        return codec.parse(bytes, unit.plurals ? { plurals: unit.plurals } : {});
      } catch (error) {
        if (error instanceof FileUnparsableError) throw new ConnectorError('config', `${path}:${error.line}:${error.column}: ${error.message}`);
        throw error;
      }
    };
    const parsed = parse(unit.content, unit.path);
    // The rule's `careful` patterns, as the App sends them with its push (push.ts matches them the same way).
    const careful = keyPatterns(unit.careful);
    const remote: RemoteValue[] = [];
    const targets = unit.targets.filter((t) => targetLocales.includes(t.locale));
    const readValues = (bytes: Uint8Array, path: string) => {
      try {
        return parse(bytes, path);
      } catch (error) {
        note(`${(error as Error).message}; its values are not read, and Parlance's file replaces it`);
        return [];
      }
    };
    for (const target of targets) {
      // People's edits on the base come first: a value edited on the branch too is listed after, and so prevails.
      if (target.base?.content) {
        const before = new Map((target.base.before ? readValues(target.base.before, target.path) : []).map((e) => [e.key, valueHash(e.source, e.plurals)]));
        for (const e of readValues(target.base.content, target.path)) {
          if (before.get(e.key) !== valueHash(e.source, e.plurals)) remote.push({ path: unit.path, key: e.key, locale: target.locale, text: e.source, plurals: e.plurals });
        }
      }
      if (target.content === null) continue;
      for (const e of readValues(target.content, target.path)) remote.push({ path: unit.path, key: e.key, locale: target.locale, text: e.source, plurals: e.plurals });
    }
    units.push({
      path: unit.path,
      kind: 'file',
      format: unit.format,
      content: unit.content,
      entries: parsed.map((e) => ({ ...(careful?.(e.key) ? { pass: 'careful' as const } : {}), key: e.key, source: e.source, plurals: e.plurals, translatable: e.translatable, notes: e.notes, context: e.context, maxLength: e.maxLength, line: e.line })),
      locales: targets.map((t) => t.locale),
      remote,
      refs: new Map(),
      targets,
      ...(unit.plurals ? { plurals: unit.plurals } : {}),
    });
  }
  return units;
}

export function createSyncEngine(deps: SyncEngineDeps) {
  const { db, log, workerId } = deps;

  async function storedValues(connectionId: string): Promise<Map<string, string>> {
    const rows = await db.selectFrom('integration_values').select(['path', 'key', 'locale', 'value_hash']).where('connection_id', '=', connectionId).execute();
    return new Map(rows.map((r) => [placeKey(r.path, r.key, r.locale), r.value_hash]));
  }

  async function remember(connectionId: string, values: readonly { path: string; key: string; locale: string; hash: string }[]): Promise<void> {
    for (let i = 0; i < values.length; i += 500) {
      const chunk = values.slice(i, i + 500).map((v) => ({ connection_id: connectionId, path: v.path, key: v.key, locale: v.locale, value_hash: v.hash }));
      await db
        .insertInto('integration_values')
        .values(chunk)
        .onConflict((oc) => oc.columns(['connection_id', 'path', 'key', 'locale']).doUpdateSet({ value_hash: (eb) => eb.ref('excluded.value_hash') }))
        .execute();
    }
  }

  /**
   * The hashes of the translations the project holds for the listed places, by place: as a string place holds them
   * (the text alone) and as a file does (with plural forms).
   */
  async function heldTranslations(projectId: string, units: readonly PlannedUnit[]): Promise<Map<string, Set<string>>> {
    const paths = [...new Set(units.filter((u) => u.remote.length > 0).map((u) => u.path))];
    const held = new Map<string, Set<string>>();
    for (let i = 0; i < paths.length; i += 200) {
      const rows = await db
        .selectFrom('keys as k')
        .innerJoin('translations as t', 't.key_id', 'k.id')
        .select(['k.path', 'k.key', 't.locale', 't.text', 't.plurals'])
        .where('k.project_id', '=', projectId)
        .where('k.path', 'in', paths.slice(i, i + 200))
        .execute();
      for (const row of rows) {
        if (row.text === null && row.plurals === null) continue;
        held.set(placeKey(row.path, row.key, row.locale), new Set([valueHash(row.text ?? '', row.plurals), valueHash(row.text ?? '')]));
      }
    }
    return held;
  }

  /**
   * Imports remote values that differ from what Parlance last read or wrote there as human translations. A value seen
   * for the first time that merely repeats the source is not a translation. One the gates refuse stays unrecorded, so
   * it is never overwritten and is tried again at the next sync.
   */
  async function importEdits(opened: OpenedConnection, units: readonly PlannedUnit[], counts: IntegrationSyncCounts, note: (m: string) => void): Promise<void> {
    const stored = await storedValues(opened.row.id);
    const sources = new Map(units.flatMap((u) => u.entries.map((e) => [`${u.path}\u0000${e.key}`, e] as const)));
    const imported: { path: string; key: string; locale: string; hash: string }[] = [];
    const ours: { path: string; key: string; locale: string; hash: string }[] = [];
    // Read only when some remote value differs from its record: a sync that finds nothing new does not query them.
    let held: Map<string, Set<string>> | undefined;
    for (const unit of units) {
      for (const value of unit.remote) {
        const hash = valueHash(value.text, value.plurals);
        const place = placeKey(value.path, value.key, value.locale);
        const known = stored.get(place);
        if (known === hash) continue;
        // The translation Parlance holds there: its own write that was not recorded (a write that failed part way, or
        // whose record was lost), not a person's edit. Recorded now, imported never.
        held ??= await heldTranslations(opened.row.project_id, units);
        if (held.get(place)?.has(hash)) {
          ours.push({ path: value.path, key: value.key, locale: value.locale, hash });
          continue;
        }
        const entry = sources.get(`${value.path}\u0000${value.key}`);
        if (known === undefined && !value.plurals && value.text === entry?.source) continue;
        if (unit.kind === 'strings' && entry?.plurals) {
          // A remote place holds one text for a plural key: a person's change to it cannot become the key's forms, so
          // it is left as it is (and not overwritten) rather than imported.
          note(`kept ${value.key} (${value.locale}) as it is in the remote system: a plural key's single remote text is not imported`);
          continue;
        }
        try {
          await deps.translations.put(opened.row.project_id, { key: value.key, locale: value.locale, path: value.path, ...(value.plurals ? { plurals: value.plurals } : { text: value.text }), drift: true });
          imported.push({ path: value.path, key: value.key, locale: value.locale, hash });
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          counts.refused_edits = (counts.refused_edits ?? 0) + 1;
          note(`kept ${value.key} (${value.locale}) as it is in the remote system, not imported: ${error.message}`);
        }
      }
    }
    await remember(opened.row.id, [...ours, ...imported]);
    counts.human_edits = (counts.human_edits ?? 0) + imported.length;
    if (imported.length > 0) note(`imported ${imported.length} remote edit(s) as human translations`);
  }

  /**
   * A listing without a single string, from a connection whose places hold keys, is far more often a remote glitch or
   * a wrong setting than content deleted: pushing it would remove every key. It fails the sync instead, naming why.
   */
  async function refuseEmptyListing(opened: OpenedConnection, strings: number): Promise<void> {
    if (strings > 0) return;
    const prefix = unitPath(opened.row.id, '').replace(/[\\%_]/g, '\\$&');
    const held = await db.selectFrom('keys').select('id').where('project_id', '=', opened.row.project_id).where('path', 'like', `${prefix}%`).where('state', '=', 'active').limit(1).executeTakeFirst();
    if (held) {
      throw new ConnectorError('config', `${opened.connector.name} listed no strings at all, while this connection's places hold keys; nothing was pushed, so no key was removed. Check the connection's settings; to remove its keys, disconnect.`);
    }
  }

  /** The read phase: pushes each unit and returns the batches that have rows to translate. */
  async function pushUnits(opened: OpenedConnection, units: readonly PlannedUnit[], counts: IntegrationSyncCounts, note: (m: string) => void): Promise<string[]> {
    const projectId = opened.row.project_id;
    const batches: string[] = [];
    const listed = new Set(units.map((u) => u.path));
    // String places the remote system no longer has: their keys are removed, as a file push removes missing keys.
    const prefix = unitPath(opened.row.id, '');
    const gone = (await db.selectFrom('keys').select('path').distinct().where('project_id', '=', projectId).where('path', 'like', `${prefix.replace(/[\\%_]/g, '\\$&')}%`).where('state', '=', 'active').execute()).map((r) => r.path).filter((p) => !listed.has(p));
    const pushes: { path: string; format: FormatId | null; content?: Uint8Array; entries: SourceEntry[]; locales: string[] }[] = [
      ...units.map((u) => ({ path: u.path, format: u.format, ...(u.content ? { content: u.content } : {}), entries: u.entries, locales: u.locales })),
      ...gone.map((path) => ({ path, format: null, entries: [], locales: [] })),
    ];
    for (const unit of pushes) {
      if (unit.locales.length === 0 && unit.entries.length > 0) {
        note(`${unit.path}: none of the project's target locales is in the remote system; nothing to translate`);
      }
      const batch = await deps.push.push({
        projectId,
        path: unit.path,
        format: unit.format,
        ...(unit.content ? { content: unit.content } : {}),
        entries: unit.entries,
        removeMissing: true,
        ...(unit.locales.length > 0 ? { locales: unit.locales } : { locales: [] }),
      });
      counts.added = (counts.added ?? 0) + batch.keys.added;
      counts.changed = (counts.changed ?? 0) + batch.keys.changed;
      counts.unchanged = (counts.unchanged ?? 0) + batch.keys.unchanged;
      counts.removed = (counts.removed ?? 0) + batch.keys.removed;
      if (batch.rows.total > 0) batches.push(batch.id);
      note(`pushed ${unit.path}: ${batch.keys.added} added, ${batch.keys.changed} changed, ${batch.keys.removed} removed; batch ${batch.id} with ${batch.rows.total} row(s)`);
    }
    return batches;
  }

  /**
   * What each batch came to, and the rows they refused or flagged, for connectors that report problems (code hosts
   * annotate source lines). Each batch keeps its own counts and its link, as the GitHub App names its batch.
   */
  async function batchReport(batchIds: readonly string[]): Promise<{ batches: WriteBack['batches']; problems: ReportRow[] }> {
    if (batchIds.length === 0) return { batches: [], problems: [] };
    const rows = await db
      .selectFrom('batch_rows as r')
      .innerJoin('keys as k', 'k.id', 'r.key_id')
      .select(['r.batch_id', 'k.path', 'k.key', 'k.line', 'r.locale', 'r.outcome', 'r.gate_outcome', 'r.reason', 'r.failures'])
      .where('r.batch_id', 'in', [...batchIds])
      .execute();
    const isRefused = (r: (typeof rows)[number]) => r.outcome === 'refused' || r.gate_outcome === 'refused';
    const isFlagged = (r: (typeof rows)[number]) => r.outcome !== 'refused' && r.gate_outcome === 'flagged';
    const refused = rows.filter(isRefused);
    const flagged = rows.filter(isFlagged);
    const reasonOf = (r: (typeof rows)[number]) => r.reason ?? (Array.isArray(r.failures) ? r.failures.map((f: { reason: string }) => f.reason).join('; ') : '') ?? '';
    const problems: ReportRow[] = [...refused.map((r) => ({ r, outcome: 'refused' as const })), ...flagged.map((r) => ({ r, outcome: 'flagged' as const }))]
      .slice(0, REPORT_ROWS)
      .map(({ r, outcome }) => ({ path: r.path, key: r.key, locale: r.locale, line: r.line, outcome, reason: reasonOf(r) || outcome }));
    const service = deps.publicUrl().replace(/\/+$/, '');
    // In the order the batches completed, as the GitHub App commits each batch when it completes (then the push order).
    const made = await db.selectFrom('batches').select(['id', 'path', 'finished_at']).where('id', 'in', [...batchIds]).execute();
    const byId = new Map(made.map((b) => [b.id, b]));
    const finished = (id: string) => {
      const at = byId.get(id)?.finished_at;
      return at ? new Date(at).getTime() : Number.POSITIVE_INFINITY;
    };
    const ordered = [...batchIds].map((id, index) => ({ id, index })).sort((a, b) => finished(a.id) - finished(b.id) || a.index - b.index);
    const batches = ordered.map(({ id }) => {
      const own = rows.filter((r) => r.batch_id === id);
      const pushed = byId.get(id)?.path;
      return {
        id,
        // The batch's address in the API, as the GitHub App links its batch.
        url: `${service}/v1/batches/${encodeURIComponent(id)}`,
        paths: [...new Set([...own.map((r) => r.path), ...(pushed ? [pushed] : [])])].sort(),
        translated: own.filter((r) => r.outcome === 'translated' || r.outcome === 'memory').length,
        refused: own.filter(isRefused).length,
        flagged: own.filter(isFlagged).length,
      };
    });
    return { batches, problems };
  }

  /** The write phase: what Parlance holds that the remote system does not, except where someone changed the remote value. */
  async function writeBack(opened: OpenedConnection, ctx: ConnectorContext<unknown, unknown>, units: readonly PlannedUnit[], batchIds: readonly string[], counts: IntegrationSyncCounts, note: (m: string) => void): Promise<void> {
    const connector = opened.connector;
    const projectId = opened.row.project_id;
    const stored = await storedValues(opened.row.id);
    const remoteNow = new Map(units.flatMap((u) => u.remote.map((v) => [placeKey(v.path, v.key, v.locale), valueHash(v.text, v.plurals)] as const)));
    // A remote value that only repeats the source (systems that copy it into every language) is no one's translation.
    const sourceHashes = new Map(units.flatMap((u) => u.entries.map((e) => [`${u.path}\u0000${e.key}`, valueHash(e.source)] as const)));
    const strings: StringWrite[] = [];
    const files: FileWrite[] = [];
    const settled: { path: string; key: string; locale: string; hash: string }[] = [];
    const stringUnits = units.filter((u) => u.kind === 'strings' && u.locales.length > 0);
    if (stringUnits.length > 0) {
      const rows = await db
        .selectFrom('keys as k')
        .innerJoin('translations as t', 't.key_id', 'k.id')
        .select(['k.path', 'k.key', 'k.source', 't.locale', 't.text', 't.plurals'])
        .where('k.project_id', '=', projectId)
        .where('k.state', '=', 'active')
        .where('k.path', 'in', stringUnits.map((u) => u.path))
        .whereRef('t.source_hash', '=', 'k.source_hash')
        .execute();
      const byPath = new Map(stringUnits.map((u) => [u.path, u]));
      const listed = new Map(stringUnits.flatMap((u) => u.entries.map((e) => [`${u.path}\u0000${e.key}`, e] as const)));
      let stale = 0;
      for (const row of rows) {
        const unit = byPath.get(row.path)!;
        if (!unit.locales.includes(row.locale) || !unit.refs.has(row.key)) continue;
        // The source changed remotely while the batch ran: this translation is of the old text; the next sync has it.
        if (listed.get(`${row.path}\u0000${row.key}`)?.source !== row.source) {
          stale++;
          continue;
        }
        const place = placeKey(row.path, row.key, row.locale);
        // A string place holds text (a plural key's `other` form): it is remembered as such, so the next listing matches.
        const hash = valueHash(row.text);
        const there = remoteNow.get(place);
        if (there === hash) {
          if (stored.get(place) !== hash) settled.push({ path: row.path, key: row.key, locale: row.locale, hash });
          continue;
        }
        const known = stored.get(place);
        if (there !== undefined && known !== there && !(known === undefined && there === sourceHashes.get(`${row.path}\u0000${row.key}`))) {
          counts.kept_remote = (counts.kept_remote ?? 0) + 1;
          continue;
        }
        const ref = unit.refs.get(row.key);
        strings.push({ path: row.path.slice(unitPath(opened.row.id, '').length), key: row.key, locale: row.locale, text: row.text, ...(row.plurals ? { plurals: row.plurals } : {}), ...(ref !== undefined ? { ref } : {}) });
        settled.push({ path: row.path, key: row.key, locale: row.locale, hash });
      }
      if (stale > 0) note(`${stale} translation(s) not written: their source changed in the remote system since the batch; the next sync translates them`);
    }
    const sourceLocale = ctx.sourceLocale;
    for (const unit of units.filter((u) => u.kind === 'file')) {
      const codec = getCodec(unit.format!)!;
      for (const target of unit.targets) {
        const pulled = await deps.pull.pull({ projectId, sourceLocale, path: unit.path, locale: target.locale, missing: 'omit' });
        for (const e of codec.parse(pulled.body, unit.plurals ? { plurals: unit.plurals } : {})) settled.push({ path: unit.path, key: e.key, locale: target.locale, hash: valueHash(e.source, e.plurals) });
        if (target.content !== null && Buffer.from(target.content).equals(Buffer.from(pulled.body))) continue;
        files.push({ source: unit.path, locale: target.locale, path: target.path, content: pulled.body });
      }
    }
    const report = await batchReport(batchIds);
    if (strings.length === 0 && files.length === 0 && report.problems.length === 0 && units.every((u) => u.kind === 'strings')) {
      note('nothing to write back: the remote system holds every translation');
    } else {
      const result = await connector.write!(ctx, { strings, files, batches: report.batches, problems: report.problems });
      counts.written = (counts.written ?? 0) + result.written;
      note(`wrote back ${result.written} ${files.length > 0 ? 'file(s)' : 'translation(s)'}${result.note ? `: ${result.note}` : ''}${result.url ? ` (${result.url})` : ''}`);
      if (result.skipped && result.skipped.length > 0) {
        const unwritten = new Set(result.skipped.map((s) => placeKey(unitPath(opened.row.id, s.path), s.key, s.locale)));
        await remember(opened.row.id, settled.filter((v) => !unwritten.has(placeKey(v.path, v.key, v.locale))));
        return;
      }
    }
    await remember(opened.row.id, settled);
  }

  /**
   * fetch through the outbound client: a connection's base URL is the project's to choose, and must not reach the
   * service's own network (cloud metadata, the database), so every connection's own lookup is checked. Redirects are
   * followed only within the same origin (the connector's credentials travel in headers a redirect would carry elsewhere).
   */
  function guardedFetch(): typeof fetch {
    const base = deps.fetch ?? deps.outbound.fetch({ crossOrigin: 'refuse' });
    return async (input, init) => {
      try {
        return await base(input, init);
      } catch (error) {
        const cause = outboundCause(error);
        if (cause instanceof UnsafeAddressError) {
          throw new ConnectorError('config', `The connection's URL reaches ${cause.address === cause.hostname ? cause.address : `${cause.address} (from ${cause.hostname})`}, in the ${cause.range} range; ${PUBLIC_ONLY_REASON}.`);
        }
        if (cause instanceof RedirectRefusedError) throw new ConnectorError('config', cause.message);
        throw error;
      }
    };
  }

  function contextFor(opened: OpenedConnection, project: { sourceLocale: string; targets: string[] }, signal: AbortSignal): ConnectorContext<unknown, unknown> {
    return {
      settings: opened.settings,
      secrets: opened.secrets,
      http: createConnectorHttp({ signal, maxRetries: deps.httpRetries, timeoutMs: deps.httpTimeoutMs, fetch: guardedFetch() }),
      sourceLocale: project.sourceLocale,
      targetLocales: project.targets,
      signal,
      connectionId: opened.row.id,
    };
  }

  async function batchesFinal(batchIds: readonly string[]): Promise<boolean> {
    if (batchIds.length === 0) return true;
    const open = await db.selectFrom('batches').select('id').where('id', 'in', [...batchIds]).where('status', 'not in', FINAL_BATCH as never[]).limit(1).executeTakeFirst();
    return open === undefined;
  }

  /** One attempt of one claimed sync. */
  async function attempt(syncId: string): Promise<void> {
    const sync = await db.selectFrom('integration_syncs').selectAll().where('id', '=', syncId).executeTakeFirst();
    if (!sync) return;
    const lines: IntegrationSyncLogLine[] = [...sync.log];
    const note = (message: string) => {
      lines.push({ at: new Date().toISOString(), message });
      if (lines.length > LOG_LINES) lines.splice(LOG_LINES / 2, lines.length - LOG_LINES + 1, { at: new Date().toISOString(), message: '…' });
    };
    const counts: IntegrationSyncCounts = { ...sync.counts };
    const controller = new AbortController();
    const renew = setInterval(() => {
      void db
        .updateTable('integration_syncs')
        .set({ lease_expires_at: sql`now() + (${LEASE_SECONDS}::int * interval '1 second')` })
        .where('id', '=', syncId)
        .where('lease_owner', '=', workerId)
        .where('status', '=', 'running')
        .executeTakeFirst()
        .then((result) => {
          // The lease went to another worker (this one stalled past it) or the connection was removed: stop here.
          if (result.numUpdatedRows === 0n) controller.abort(new ConnectorError('unavailable', 'this worker lost the sync (its lease lapsed, or the connection was removed)'));
        })
        .catch((error: unknown) => log.warn('integration sync lease renewal failed', { sync: syncId, error }));
    }, (LEASE_SECONDS * 1000) / 4);
    /** Whether the connection still exists, enabled: checked before anything is pushed or written. */
    const stillConnected = async () => {
      const row = await db.selectFrom('integration_connections').select('enabled').where('id', '=', sync.connection_id).executeTakeFirst();
      if (!row?.enabled) throw new SyncStopped(row ? 'the connection was disabled during the sync' : 'the connection was removed during the sync');
      controller.signal.throwIfAborted();
    };
    let opened: OpenedConnection | undefined;
    try {
      opened = await deps.connections.open(sync.connection_id);
      if (!opened || !opened.row.enabled) {
        await finish(syncId, sync.connection_id, 'cancelled', counts, lines, opened ? 'the connection is disabled' : 'the connection was removed');
        return;
      }
      const project = await db.selectFrom('projects').select(['source_locale']).where('id', '=', opened.row.project_id).executeTakeFirstOrThrow();
      const targets = (await db.selectFrom('project_languages').select('tag').where('project_id', '=', opened.row.project_id).orderBy('tag').execute()).map((l) => l.tag);
      const ctx = contextFor(opened, { sourceLocale: project.source_locale, targets }, controller.signal);
      ctx.state = (opened.row.connector_state ?? null) as JsonValue | null;
      /** Stores what a pushed listing kept, and gives it to the next listing of this attempt too. */
      const keepState = async (listing: Listing) => {
        if (listing.state === undefined) return;
        ctx.state = listing.state;
        await db.updateTable('integration_connections').set({ connector_state: JSON.stringify(listing.state) }).where('id', '=', opened!.row.id).execute();
      };
      if (opened.connector.upload) {
        ctx.upload = await deps.connections.uploaded(opened.row.id);
        if (ctx.upload) note(`the uploaded file '${ctx.upload.name}' (${ctx.upload.content.byteLength} bytes, sha256 ${ctx.upload.sha256.slice(0, 12)}…, uploaded ${ctx.upload.uploadedAt.toISOString()})`);
      }
      const connector = opened.connector;
      let batchIds: string[] = sync.batch_ids;
      let units: PlannedUnit[] | undefined;
      if (sync.phase === 'read') {
        note(`attempt ${sync.attempts}: reading ${connector.name}`);
        const listing = await connector.list(ctx);
        if (listing.note) note(listing.note);
        units = planListing(opened.row.id, listing, targets, note);
        counts.units = units.length;
        counts.strings = units.reduce((n, u) => n + u.entries.length, 0);
        await refuseEmptyListing(opened, counts.strings);
        await stillConnected();
        // Pushed first, so every key exists when the remote system's own translations are imported onto it.
        batchIds = await pushUnits(opened, units, counts, note);
        await importEdits(opened, units, counts, note);
        await keepState(listing);
        if (!connector.write) {
          await finish(syncId, opened.row.id, 'succeeded', counts, lines, undefined, batchIds);
          return;
        }
        await db
          .updateTable('integration_syncs')
          .set({ phase: 'write', batch_id: batchIds[0] ?? null, batch_ids: JSON.stringify(batchIds), counts: JSON.stringify(counts), log: JSON.stringify(lines) })
          .where('id', '=', syncId)
          .where('lease_owner', '=', workerId)
          .execute();
        if (!(await batchesFinal(batchIds))) {
          note(`waiting for ${batchIds.length} batch(es) to finish`);
          await db
            .updateTable('integration_syncs')
            .set({ status: 'waiting_batch', log: JSON.stringify(lines), lease_owner: null, lease_expires_at: null })
            .where('id', '=', syncId)
            .where('lease_owner', '=', workerId)
            .execute();
          return;
        }
      }
      // The write phase reads the remote system again when a batch ran meanwhile: an edit made while it ran is kept.
      if (units === undefined || batchIds.length > 0) {
        const listing = await connector.list(ctx);
        units = planListing(opened.row.id, listing, targets, () => undefined);
        await importEdits(opened, units, counts, note);
        await keepState(listing);
      }
      await stillConnected();
      await writeBack(opened, ctx, units, batchIds, counts, note);
      await finish(syncId, opened.row.id, 'succeeded', counts, lines, undefined, batchIds);
    } catch (error) {
      if (error instanceof SyncStopped) await finish(syncId, sync.connection_id, 'cancelled', counts, lines, error.message);
      else await failed(syncId, sync.connection_id, sync.attempts, controller.signal.aborted ? controller.signal.reason : error, counts, lines, note);
    } finally {
      clearInterval(renew);
      controller.abort();
    }
  }

  async function finish(syncId: string, connectionId: string, status: 'succeeded' | 'cancelled' | 'failed', counts: IntegrationSyncCounts, lines: IntegrationSyncLogLine[], reason?: string, batchIds?: string[]): Promise<void> {
    if (reason) lines.push({ at: new Date().toISOString(), message: `${status}: ${reason}` });
    else lines.push({ at: new Date().toISOString(), message: status });
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('integration_syncs')
        .set({
          status,
          counts: JSON.stringify(counts),
          log: JSON.stringify(lines),
          error: status === 'succeeded' ? null : (reason ?? null),
          finished_at: sql`now()`,
          lease_owner: null,
          lease_expires_at: null,
          ...(batchIds ? { batch_id: batchIds[0] ?? null, batch_ids: JSON.stringify(batchIds) } : {}),
        })
        .where('id', '=', syncId)
        .where('lease_owner', '=', workerId)
        .executeTakeFirst();
      // Another worker took the sync over (this one stalled past its lease): what it records stands.
      if (updated.numUpdatedRows === 0n) return;
      if (status !== 'cancelled') {
        await trx
          .updateTable('integration_connections')
          .set({ status: status === 'succeeded' ? 'ok' : 'error', last_error: status === 'succeeded' ? null : (reason ?? null) })
          .where('id', '=', connectionId)
          .execute();
      }
    });
    log.info('integration sync finished', { sync: syncId, connection: connectionId, status, counts });
  }

  async function failed(syncId: string, connectionId: string, attempts: number, error: unknown, counts: IntegrationSyncCounts, lines: IntegrationSyncLogLine[], note: (m: string) => void): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    // Refused credentials or settings, a request our own services refuse, credentials sealed with another key: retrying cannot help.
    const final = (error instanceof ConnectorError && error.kind !== 'unavailable') || (error instanceof ApiError && error.status < 500) || error instanceof SecretDecryptionError;
    const delay = final ? undefined : deps.retryDelaysMs[attempts - 1];
    if (delay === undefined) {
      if (!final) log.error('integration sync failed', { sync: syncId, error });
      await finish(syncId, connectionId, 'failed', counts, lines, message);
      return;
    }
    const at = new Date(Date.now() + delay);
    note(`failed: ${message}; retrying at ${at.toISOString()}`);
    const updated = await db
      .updateTable('integration_syncs')
      .set({ status: 'queued', error: message, counts: JSON.stringify(counts), log: JSON.stringify(lines), next_attempt_at: at, lease_owner: null, lease_expires_at: null })
      .where('id', '=', syncId)
      .where('lease_owner', '=', workerId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return;
    await db
      .updateTable('integration_connections')
      .set({ status: 'retrying', last_error: `${message} (attempt ${attempts}; retrying at ${at.toISOString()})` })
      .where('id', '=', connectionId)
      .execute();
    log.warn('integration sync failed, will retry', { sync: syncId, attempt: attempts, error: message });
  }

  /** A sync that may be claimed now (`s` is the sync's alias). */
  const DUE = sql.raw(`((s.status = 'queued' and s.next_attempt_at <= now())
      or (s.status = 'running' and s.lease_expires_at < now())
      or (s.status = 'waiting_batch' and not exists (
            select 1 from jsonb_array_elements_text(s.batch_ids) as b(id) join batches on batches.id = b.id
            where batches.status not in ('completed', 'failed', 'cancelled'))))`);

  /**
   * Claims due syncs: queued ones whose time has come, running ones whose worker went away, and waiting ones whose
   * batches have all finished; at most one per connection, and none of a connection that has a sync running (or, for
   * a new read, one waiting for its batch). The due test is repeated on the row being updated, so a row another
   * worker claimed meanwhile is skipped; the unique index on running syncs is the last word (a conflicting claim
   * fails and is tried again at the next poll).
   */
  async function claim(limit: number): Promise<string[]> {
    await deps.connections.enqueueScheduled().catch((error: unknown) => log.warn('scheduled integration syncs not queued', { error }));
    const rows = await sql<{ id: string; connection_id: string }>`
      update integration_syncs as s set status = 'running', attempts = s.attempts + case when s.status = 'waiting_batch' then 0 else 1 end,
        lease_owner = ${workerId}, lease_expires_at = now() + (${LEASE_SECONDS}::int * interval '1 second'), started_at = coalesce(s.started_at, now())
      where ${DUE} and s.id in (
        select id from (
          select s.id, row_number() over (partition by s.connection_id order by (s.status = 'running') desc, (s.status = 'waiting_batch') desc, s.next_attempt_at, s.id) as rank
          from integration_syncs s
          where ${DUE}
            and not exists (select 1 from integration_syncs o where o.connection_id = s.connection_id and o.id <> s.id and o.status = 'running' and o.lease_expires_at >= now())
            and (s.status <> 'queued' or not exists (select 1 from integration_syncs o where o.connection_id = s.connection_id and o.id <> s.id and o.status = 'waiting_batch'))
        ) as candidates
        where rank = 1
        order by id
        limit ${limit}
      )
      returning s.id, s.connection_id`.execute(db);
    if (rows.rows.length > 0) {
      await db
        .updateTable('integration_connections')
        .set({ status: 'syncing' })
        .where('id', 'in', rows.rows.map((r) => r.connection_id))
        .execute();
    }
    return rows.rows.map((r) => r.id);
  }

  const poller = createLeasePoller({ name: 'integration sync', log, concurrency: SYNCS_IN_FLIGHT, pollMs: deps.pollMs, claim, run: attempt });

  return {
    ...poller,
    /** The only process on an embedded database: every sync left running is from a previous run. */
    async releaseAll() {
      await db.updateTable('integration_syncs').set({ status: 'queued', lease_owner: null, lease_expires_at: null }).where('status', '=', 'running').execute();
    },
  };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;
