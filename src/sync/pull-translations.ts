/**
 * Pulling a repository's translations: every target file in one request (GET /v1/pull's archive, conditional on the
 * last pull's ETag), merged key by key with what the files hold, written where parlance.yml's translation template
 * puts them. A value the CLI did not write (state-file.ts) is a hand edit: never overwritten without --overwrite, and
 * uploaded first where the run may (sync; a repository's first pull). A file is never written with fewer values than it had.
 */
import { existsSync, readFileSync } from 'node:fs';
import { ApiError, ArchiveUnsupportedError, type ParlanceClient } from '../client/client.js';
import type { ArchiveFile } from '../client/types.js';
import type { Codec, Value } from '../core/formats/index.js';
import type { PluralsMode } from '../project-config/config-types.js';
import { matchSources, type SourceFileMatch } from '../project-config/match-sources.js';
import { targetPathFor } from '../project-config/target-paths.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { count } from './output.js';
import { insideRoot, writeAtomic } from './safe-write.js';
import { loadState, saveState, sameValue, sha256, STATE_PATH, valueHash, type StateFile, type TargetState } from './state-file.js';
import { about } from './subject-error.js';
import { shortList, uploadTargetFiles, type UploadReport } from './upload-translations.js';

export { insideRoot } from './safe-write.js';

export interface PullOptions {
  locales?: string[] | undefined;
  dryRun: boolean;
  /** Keys with no translation anywhere: left out (default) or filled with the source text. */
  missing?: 'omit' | 'source' | undefined;
  /** Write nothing; the report says which files would change and which keys are untranslated (`pull --check`). */
  check?: boolean | undefined;
  /** Write nothing; print the key-level diff per locale (`parlance diff`). */
  diff?: boolean | undefined;
  /** The service's values replace hand edits. */
  overwrite?: boolean | undefined;
  /** `sync`: hand edits and values the service does not have are uploaded as human translations before anything is written. */
  uploadEdits?: boolean | undefined;
}

export interface KeyDiff {
  added: string[];
  changed: string[];
  removed: string[];
}

export interface PulledTarget {
  /** The source file, relative to the config's directory. */
  source: string;
  locale: string;
  /** Where the translation goes, relative to the config's directory. */
  path: string;
  action: 'written' | 'would_write' | 'unchanged';
  bytes: number;
  /** Keys the service left out of the file, and why (held for review, a plural the format cannot express). */
  refused: { count: number; keys: string[]; reasons: string[] };
  /** Translatable keys the service has no translation for in this locale. */
  missing: string[];
  /** Keys whose translation the gates flagged. */
  flagged: string[];
  /** Keys the service has no value for whose value in the file is kept. */
  kept: string[];
  /** Hand edits: values the CLI did not write that differ from the service's (kept unless --overwrite). */
  edits: string[];
  /** Keys of the file as it is against the file as it would be written. */
  diff: KeyDiff;
}

export interface PullReport {
  dry_run: boolean;
  check: boolean;
  /** The service answered 304 to the last pull's ETag: nothing was transferred, every file is up to date. */
  not_modified: boolean;
  /** What was uploaded first (sync, or a repository's first pull). */
  uploaded?: UploadReport;
  files: PulledTarget[];
}

/** One target file to pull. */
interface Planned {
  match: SourceFileMatch;
  locale: string;
  path: string;
  absolute: string;
}

/** What the service gave for one target file. */
interface Pulled {
  body: Uint8Array;
  format: string;
  refused: { key: string; reason: string }[];
  missing: string[];
  flagged: string[];
}

interface Fetched {
  notModified: boolean;
  etag: string | null;
  sourceLocale: string | undefined;
  /** By `${source}\0${locale}`; a source file the service does not hold has none. */
  files: Map<string, Pulled>;
}

interface Evaluated {
  planned: Planned;
  pulled: Pulled;
  body: Uint8Array;
  changed: boolean;
  /** Hashes of the values the CLI writes (hand values left out), for the state file. */
  written: Record<string, string>;
  kept: string[];
  /** Values the CLI did not write that the service does not have. */
  unsynced: string[];
  edits: string[];
  diff: KeyDiff;
  /** Changes the diff prints: key, then the value in the file and the value written. */
  details: { key: string; before: Value | undefined; after: Value | undefined }[];
}

/** Formats whose target files parse into their values (the others are compared and written whole). */
const MERGEABLE: ReadonlySet<string> = new Set(['json', 'json_nested', 'yaml', 'properties', 'arb', 'android_xml', 'ios_strings', 'ios_stringsdict', 'laravel_json', 'laravel_php', 'resx']);

const key = (source: string, locale: string) => `${source}\0${locale}`;

/** Pulls every source file × target locale and writes what changed (nothing with `dryRun`, `check` or `diff`). */
export async function pullTranslations(context: CommandContext, options: PullOptions): Promise<PullReport> {
  const { out } = context;
  const { config, root, path: configPath } = context.config();
  const client = context.client();
  const matches = matchSources(config, root);
  if (matches.length === 0) throw new CommandError(`No source file matches the files[].source globs of ${configPath}.`);
  const locales = options.locales ?? config.locales ?? (await about('reading the project', () => client.project())).target_locales;
  const sources = new Set(matches.map((match) => match.path));
  const writes = !options.dryRun && !options.check && !options.diff;
  const missing = options.missing ?? 'omit';

  const planned: Planned[] = [];
  for (const match of matches) {
    for (const locale of locales) {
      const target = await about(`${match.path} (${locale})`, async () => targetPathFor(config, match.rule, match.path, locale));
      // A template can map a locale onto a source file (the source locale itself): never overwrite a source.
      if (sources.has(target)) {
        out.note(`skipped    ${target}: it is a source file (${locale} is the source locale?)`);
        continue;
      }
      planned.push({ match, locale, path: target, absolute: insideRoot(root, target, match.rule.translation) });
    }
  }

  const state = loadState(root, (message) => out.problem(message));
  // The last pull's ETag stands only for the same request and files the CLI wrote as they are now.
  const conditional =
    !options.check && !options.diff && !options.overwrite && state.pull !== undefined && state.pull.missing === missing && sameList(state.pull.locales, locales) && planned.every((p) => unchangedSinceWritten(p, state));
  let fetched = await fetchAll(client, planned, { locales, missing, ifNoneMatch: conditional ? state.pull!.etag : undefined, tolerateNothingPushed: !writes });
  if (fetched.notModified) {
    out.line(`${count(planned.length, 'file')} already up to date (the service's translations have not changed since the last pull).`);
    return { dry_run: options.dryRun, check: options.check ?? false, not_modified: true, files: planned.map((p) => upToDate(p)) };
  }

  const sourceLocale = config.source_locale ?? fetched.sourceLocale ?? 'en';
  // The codecs load here, not with the CLI: the other commands start without them.
  const formats = await import('../core/formats/index.js');
  let evaluated = evaluateAll(context, planned, fetched, state, { missing, overwrite: options.overwrite ?? false, sourceLocale, formats });

  // Values the service does not have go up first: always in sync, in a repository's first pull for the files the CLI never wrote.
  let uploaded: UploadReport | undefined;
  if (writes && !options.overwrite) {
    const toUpload = evaluated.filter((e) => (e.edits.length > 0 || e.unsynced.length > 0) && (options.uploadEdits || state.targets[e.planned.path] === undefined));
    if (toUpload.length > 0) {
      out.note(
        options.uploadEdits
          ? `uploading the values of ${count(toUpload.length, 'target file')} that the service does not have, as human translations, before pulling`
          : `first pull: ${count(toUpload.length, 'target file')} hold values the service does not have; uploading them as human translations before writing`,
      );
      uploaded = await uploadFirst(context, toUpload);
      fetched = await fetchAll(client, planned, { locales, missing, ifNoneMatch: undefined, tolerateNothingPushed: false });
      evaluated = evaluateAll(context, planned, fetched, state, { missing, overwrite: false, sourceLocale, formats });
    }
  }

  const edited = evaluated.filter((e) => e.edits.length > 0);
  if (writes && !options.uploadEdits && !options.overwrite && edited.length > 0) {
    for (const e of edited) out.problem(`${e.planned.path}: ${count(e.edits.length, 'hand edit')} the service's translation would overwrite: ${shortList(e.edits)}`);
    throw new CommandError(
      `Nothing written: ${count(edited.length, 'target file')} ${edited.length === 1 ? 'holds' : 'hold'} hand edits (${edited.map((e) => e.planned.path).join(', ')}). Keep them with 'parlance push --translations' (they become human translations), or replace them with 'parlance pull --overwrite'.`,
    );
  }

  const files: PulledTarget[] = [];
  for (const e of evaluated) {
    const action = !e.changed ? 'unchanged' : writes ? 'written' : 'would_write';
    if (action === 'written') writeAtomic(e.planned.absolute, e.planned.path, e.body);
    const refusedKeys = [...new Set(e.pulled.refused.map((r) => r.key))];
    files.push({
      source: e.planned.match.path,
      locale: e.planned.locale,
      path: e.planned.path,
      action,
      bytes: e.body.byteLength,
      refused: { count: refusedKeys.length, keys: refusedKeys, reasons: [...new Set(e.pulled.refused.map((r) => r.reason))] },
      missing: e.pulled.missing,
      flagged: e.pulled.flagged,
      kept: e.kept,
      edits: e.edits,
      diff: e.diff,
    });
    if (options.diff) continue;
    if (action !== 'unchanged' && !options.check) out.line(`${action === 'written' ? 'wrote      ' : 'would write'} ${e.planned.path} (${e.planned.locale}, ${count(e.body.byteLength, 'byte')})`);
    if (e.edits.length > 0) out.problem(`${e.planned.path}: ${count(e.edits.length, 'hand edit')} kept (the service holds another value): ${shortList(e.edits)}`);
    else if (e.unsynced.length > 0 && !options.check) out.note(`${e.planned.path}: kept ${count(e.unsynced.length, 'value')} the service does not have (upload with 'parlance push --translations'): ${shortList(e.unsynced)}`);
    if (refusedKeys.length > 0 && !options.check) out.problem(refusedKeysLine(e.planned.path, files[files.length - 1]!.refused));
  }

  if (options.diff) printDiff(context, evaluated);
  else if (options.check) printCheck(context, files);
  else printSummary(context, files);

  if (writes) {
    for (const e of evaluated) state.targets[e.planned.path] = { sha256: sha256(e.body), values: e.written };
    // The ETag is kept only when every file now holds exactly what the service sent: then an unchanged answer means nothing to do.
    const exact = evaluated.length === planned.length && evaluated.every((e) => e.kept.length === 0 && e.edits.length === 0 && e.unsynced.length === 0);
    if (fetched.etag && exact) state.pull = { etag: fetched.etag, locales, missing };
    else delete state.pull;
    saveState(root, state);
  }
  return { dry_run: options.dryRun, check: options.check ?? false, not_modified: false, ...(uploaded ? { uploaded } : {}), files };
}

/** Whether the file is what the CLI last wrote into it, byte for byte. */
function unchangedSinceWritten(planned: Planned, state: StateFile): boolean {
  const written = state.targets[planned.path];
  if (!written || !existsSync(planned.absolute)) return false;
  return sha256(readFileSync(planned.absolute)) === written.sha256;
}

function upToDate(planned: Planned): PulledTarget {
  const bytes = existsSync(planned.absolute) ? readFileSync(planned.absolute).byteLength : 0;
  return {
    source: planned.match.path,
    locale: planned.locale,
    path: planned.path,
    action: 'unchanged',
    bytes,
    refused: { count: 0, keys: [], reasons: [] },
    missing: [],
    flagged: [],
    kept: [],
    edits: [],
    diff: { added: [], changed: [], removed: [] },
  };
}

/** Every target file in one request; file by file from a service that has no archive. */
async function fetchAll(
  client: ParlanceClient,
  planned: readonly Planned[],
  input: { locales: string[]; missing: 'omit' | 'source'; ifNoneMatch: string | undefined; tolerateNothingPushed: boolean },
): Promise<Fetched> {
  const files = new Map<string, Pulled>();
  try {
    const archive = await about('pulling the translations', () =>
      client.pullArchive({ locales: input.locales, missing: input.missing, ...(input.ifNoneMatch ? { ifNoneMatch: input.ifNoneMatch } : {}) }),
    );
    if (archive.status === 'not_modified') return { notModified: true, etag: archive.etag, sourceLocale: undefined, files };
    for (const file of archive.files) files.set(key(file.path, file.locale), fromArchive(file));
    return { notModified: false, etag: archive.etag, sourceLocale: archive.source_locale || undefined, files };
  } catch (error) {
    const cause = error instanceof Error && 'cause' in error ? (error as { cause: unknown }).cause : error;
    if (cause instanceof ApiError && cause.code === 'nothing_pushed' && input.tolerateNothingPushed) return { notModified: false, etag: null, sourceLocale: undefined, files };
    if (!(cause instanceof ArchiveUnsupportedError)) throw error;
  }
  // A service without the archive: one request per file, as before.
  for (const p of planned) {
    const pulled = await about(`${p.match.path} (${p.locale})`, () => pullOrSkip(client, { path: p.match.path, locale: p.locale, missing: input.missing }, input.tolerateNothingPushed));
    if (pulled) files.set(key(p.match.path, p.locale), pulled);
  }
  return { notModified: false, etag: null, sourceLocale: undefined, files };
}

function fromArchive(file: ArchiveFile): Pulled {
  return { body: file.body, format: file.format, refused: file.refused, missing: file.missing, flagged: file.flagged };
}

/** The pulled file; undefined for a source file the service does not hold yet, when the run may go on without it. */
async function pullOrSkip(client: ParlanceClient, input: { path: string; locale: string; missing: 'omit' | 'source' }, tolerate: boolean): Promise<Pulled | undefined> {
  try {
    const file = await client.pull({ path: input.path, locale: input.locale, missing: input.missing });
    const reason = file.refused.reasons.join(', ') || 'left_out';
    return { body: file.body, format: file.format, refused: file.refused.keys.map((k) => ({ key: k, reason })), missing: [], flagged: [] };
  } catch (error) {
    if (tolerate && error instanceof ApiError && (error.code === 'path_not_found' || error.code === 'nothing_pushed')) return undefined;
    throw error;
  }
}

function evaluateAll(
  context: CommandContext,
  planned: readonly Planned[],
  fetched: Fetched,
  state: StateFile,
  options: EvaluateOptions,
): Evaluated[] {
  const evaluated: Evaluated[] = [];
  for (const p of planned) {
    const pulled = fetched.files.get(key(p.match.path, p.locale));
    if (!pulled) {
      context.out.note(`not pushed ${p.match.path}: the service does not hold it yet, so ${p.path} is written after the push`);
      continue;
    }
    evaluated.push(evaluate(p, pulled, state.targets[p.path], options));
  }
  return evaluated;
}

/** The file to write for one target: the service's values, the file's where the service has none, hand edits kept. */
interface EvaluateOptions {
  missing: 'omit' | 'source';
  overwrite: boolean;
  sourceLocale: string;
  formats: typeof import('../core/formats/index.js');
}

function evaluate(planned: Planned, pulled: Pulled, written: TargetState | undefined, options: EvaluateOptions): Evaluated {
  const { getCodec, isFormatId } = options.formats;
  const local = existsSync(planned.absolute) ? readFileSync(planned.absolute) : undefined;
  const codec = isFormatId(pulled.format) && MERGEABLE.has(pulled.format) ? getCodec(pulled.format) : undefined;
  const none: KeyDiff = { added: [], changed: [], removed: [] };
  const wholeFile = (): Evaluated => {
    const changed = local === undefined || Buffer.compare(local, pulled.body) !== 0;
    // A file the CLI did not write as it is now holds something only its owner knows: a hand edit of the whole file.
    const handEdited = local !== undefined && changed && written?.sha256 !== sha256(local);
    return {
      planned,
      pulled,
      body: handEdited && !options.overwrite ? local : pulled.body,
      changed: changed && (!handEdited || options.overwrite),
      written: {},
      kept: [],
      unsynced: [],
      edits: handEdited ? ['(the whole file)'] : [],
      diff: changed ? { ...none, changed: ['(the whole file)'] } : none,
      details: [],
    };
  };
  if (!codec) return wholeFile();

  let localValues: Map<string, Value>;
  let pulledValues: Map<string, Value>;
  try {
    pulledValues = valuesOf(codec, pulled.body, planned.match.rule.plurals);
    localValues = local === undefined ? new Map() : valuesOf(codec, local, planned.match.rule.plurals);
  } catch {
    return wholeFile();
  }
  // With --missing source the service fills in the source text: that is no translation, and never replaces a file's value.
  for (const k of pulled.missing) if (options.missing === 'source') pulledValues.delete(k);

  const kept: string[] = [];
  const unsynced: string[] = [];
  const edits: string[] = [];
  for (const [k, value] of localValues) {
    const theirs = pulledValues.get(k);
    if (sameValue(value, theirs)) continue;
    const cliWrote = written?.values[k] === valueHash(value);
    if (theirs === undefined) {
      kept.push(k);
      if (!cliWrote) unsynced.push(k);
    } else if (!cliWrote) {
      edits.push(k);
    }
  }
  const merged = new Map(pulledValues);
  for (const k of kept) merged.set(k, localValues.get(k)!);
  if (!options.overwrite) for (const k of edits) merged.set(k, localValues.get(k)!);
  const renderLocally = kept.length > 0 || (!options.overwrite && edits.length > 0);
  let body = pulled.body;
  if (renderLocally) {
    const source = readFileSync(planned.match.absolute);
    body = codec.render({ source, values: merged, missing: options.missing, locale: planned.locale, sourceLocale: options.sourceLocale });
  }
  const after = valuesOf(codec, body, planned.match.rule.plurals);
  const hand = new Set([...unsynced, ...(options.overwrite ? [] : edits)]);
  const writtenHashes: Record<string, string> = {};
  // The source text --fallback source writes is the CLI's too: a translation that arrives later replaces it.
  for (const [k, value] of after) if (!hand.has(k)) writtenHashes[k] = valueHash(value);

  const diff: KeyDiff = { added: [], changed: [], removed: [] };
  const details: Evaluated['details'] = [];
  for (const [k, value] of after) {
    const before = localValues.get(k);
    if (before === undefined) diff.added.push(k);
    else if (!sameValue(before, value)) diff.changed.push(k);
    else continue;
    details.push({ key: k, before, after: value });
  }
  for (const [k, before] of localValues) {
    if (after.has(k)) continue;
    diff.removed.push(k);
    details.push({ key: k, before, after: undefined });
  }
  const changed = local === undefined || Buffer.compare(local, body) !== 0;
  return { planned, pulled, body, changed, written: writtenHashes, kept, unsynced, edits, diff, details };
}

function valuesOf(codec: Codec, bytes: Uint8Array, plurals: PluralsMode | undefined): Map<string, Value> {
  const values = new Map<string, Value>();
  for (const entry of codec.parse(bytes, plurals ? { plurals } : {})) values.set(entry.key, entry.plurals ? { plurals: entry.plurals } : entry.source);
  return values;
}

/** Uploads the files, and stops (naming them) when the service cannot take uploads: nothing is overwritten. */
async function uploadFirst(context: CommandContext, files: readonly Evaluated[]): Promise<UploadReport> {
  const targets = files.map((e) => ({ source: e.planned.match.path, locale: e.planned.locale, path: e.planned.path, absolute: e.planned.absolute, format: e.pulled.format }));
  try {
    return await uploadTargetFiles(context, targets, false);
  } catch (error) {
    const names = files.map((e) => `${e.planned.path} (${shortList([...e.edits, ...e.unsynced])})`).join('; ');
    throw new CommandError(
      `Nothing written: these target files hold values the service does not have, and uploading them failed (${error instanceof Error ? error.message : String(error)}): ${names}. Run 'parlance push --translations' once it can, or 'parlance pull --overwrite' to replace them.`,
      error instanceof ApiError && error.status >= 500 ? 3 : 1,
    );
  }
}

/** Per locale: files written, and the keys missing (kept from the files), held and flagged. */
function printSummary(context: CommandContext, files: readonly PulledTarget[]): void {
  const unchanged = files.filter((file) => file.action === 'unchanged').length;
  if (unchanged > 0) context.out.line(`${count(unchanged, 'file')} already up to date.`);
  for (const [locale, group] of byLocale(files)) {
    const sum = (pick: (file: PulledTarget) => number) => group.reduce((total, file) => total + pick(file), 0);
    const missing = sum((f) => f.missing.length);
    const kept = sum((f) => f.missing.filter((k) => f.kept.includes(k)).length);
    const held = sum((f) => f.refused.reasons.includes('held_for_review') ? f.refused.count : 0);
    context.out.line(`${locale}: ${count(missing, 'key')} missing${kept > 0 ? ` (${kept} kept from the files)` : ''}, ${held} held for review, ${sum((f) => f.flagged.length)} flagged`);
  }
  if (files.some((file) => file.action === 'written')) context.out.note(`remembered what was written in ${STATE_PATH} (safe to commit or to ignore)`);
}

/** `pull --check`: each file that would change and each untranslated key. */
function printCheck(context: CommandContext, files: readonly PulledTarget[]): void {
  for (const file of files) {
    if (file.action !== 'unchanged') {
      const parts = [file.diff.added.length > 0 ? `added: ${shortList(file.diff.added)}` : '', file.diff.changed.length > 0 ? `changed: ${shortList(file.diff.changed)}` : '', file.diff.removed.length > 0 ? `removed: ${shortList(file.diff.removed)}` : ''].filter(Boolean);
      context.out.problem(`out of date ${file.path} (${file.locale})${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`);
    }
    const untranslated = [...new Set([...file.missing.filter((k) => !file.kept.includes(k)), ...file.refused.keys])];
    if (untranslated.length > 0) context.out.problem(`untranslated ${file.path} (${file.locale}): ${shortList(untranslated)}`);
    if (file.edits.length > 0) context.out.problem(`hand edits  ${file.path} (${file.locale}), not uploaded: ${shortList(file.edits)}`);
  }
  if (checkFailed({ files })) context.out.problem("The translation files are not current: run 'parlance pull' (or 'parlance sync') and commit them.");
  else context.out.line(`${count(files.length, 'file')} checked: every file is current and every key translated.`);
}

/** What `pull --check` fails on: a file that would change, a key with no translation, a hand edit the service does not hold. */
export function checkFailed(report: { files: readonly PulledTarget[] }): boolean {
  return report.files.some((file) => file.action !== 'unchanged' || file.edits.length > 0 || file.refused.count > 0 || file.missing.some((k) => !file.kept.includes(k)));
}

const SHOWN_VALUE = 60;

function show(value: Value | undefined): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : Object.entries(value.plurals).map(([category, form]) => `${category}: ${form}`).join(' | ');
  const flat = JSON.stringify(text);
  return flat.length > SHOWN_VALUE ? `${flat.slice(0, SHOWN_VALUE - 1)}…"` : flat;
}

/** `parlance diff`: per locale and file, `+ key "value"`, `~ key "old" → "new"`, `- key "old"`. */
function printDiff(context: CommandContext, evaluated: readonly Evaluated[]): void {
  const { out } = context;
  let changes = 0;
  const locales = [...new Set(evaluated.map((e) => e.planned.locale))];
  for (const locale of locales) {
    const group = evaluated.filter((e) => e.planned.locale === locale && (e.changed || e.edits.length > 0));
    if (group.length === 0) continue;
    out.line(`${locale}:`);
    for (const e of group) {
      out.line(`  ${e.planned.path}: ${e.diff.added.length} added, ${e.diff.changed.length} changed, ${e.diff.removed.length} removed`);
      for (const d of e.details) {
        changes += 1;
        if (d.before === undefined) out.line(`    + ${d.key} ${show(d.after)}`);
        else if (d.after === undefined) out.line(`    - ${d.key} ${show(d.before)}`);
        else out.line(`    ~ ${d.key} ${show(d.before)} → ${show(d.after)}`);
      }
      for (const k of e.edits) out.line(`    ! ${k}: hand edit, kept (the service holds another value; 'parlance push --translations' uploads it)`);
    }
  }
  if (changes === 0 && evaluated.every((e) => e.edits.length === 0)) out.line('No differences: every target file holds what the service has.');
}

function byLocale(files: readonly PulledTarget[]): Map<string, PulledTarget[]> {
  const groups = new Map<string, PulledTarget[]>();
  for (const file of files) groups.set(file.locale, [...(groups.get(file.locale) ?? []), file]);
  return groups;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

const SHOWN_KEYS = 10;

/** `locales/de/app.json: 2 keys left out (held_for_review): a, b`. */
export function refusedKeysLine(target: string, refused: PulledTarget['refused']): string {
  const shown = refused.keys.slice(0, SHOWN_KEYS).join(', ');
  const more = refused.keys.length > SHOWN_KEYS ? ` and ${refused.keys.length - SHOWN_KEYS} more` : '';
  const reasons = [...new Set(refused.reasons)].join(', ');
  return `${target}: ${count(refused.count, 'key')} left out${reasons ? ` (${reasons})` : ''}: ${shown}${more}`;
}

/** 4 when any pulled file left keys out, else 0. */
export function pullExitCode(report: PullReport): 0 | 4 {
  return report.files.some((file) => file.refused.count > 0) ? 4 : 0;
}
