/** The pull: render a locale's translations into the shape of the pushed source file, or a zip of every locale. */
import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import { sql } from 'kysely';
import { selectJsonRows } from '../db/bulk.js';
import type { Db } from '../db/database.js';
import { ApiError, notFound } from '../errors.js';
import type { ArchiveLimits } from '../../src/core/archive-limits.js';
import { getCodec, isFormatId } from '../../src/core/formats/index.js';
import type { Codec, FormatId, FreshEntry, PluralForms, Value } from '../../src/core/formats/codec.js';
import { sourceFormsFor } from '../../src/core/plurals.js';
import { repoPath } from '../../src/core/repo-path.js';
import { targetPath } from './pull-fns.js';

export interface PullInput {
  projectId: string;
  sourceLocale: string;
  path?: string;
  format?: string;
  locale?: string;
  missing: 'omit' | 'source';
}

export interface PulledFile {
  path: string;
  format: FormatId;
  locale: string | null;
  contentType: string;
  body: Uint8Array;
  /** Keys left out because the format cannot express them (plural keys in a format without plurals). */
  /**
   * Keys whose current translation is not in the file: the format cannot express their plural, or the gates
   * refused their translation and it is held for review (the file then has the last accepted translation, if any).
   */
  refused: { key: string; locale: string; reason: 'format_cannot_express_plural' | 'held_for_review' }[];
}

/** `archiveLimits`: MAX_INFLATED_BYTES and MAX_ARCHIVE_ENTRIES, for rendering from a pushed .xlsx. */
export function createPullService(deps: { db: Db; archiveLimits: Readonly<ArchiveLimits> }) {
  const { db } = deps;

  /**
   * The project's pushed paths, in order, one index search per path (a skip scan of the keys' (project, path, key)
   * index) rather than reading every key of the project.
   */
  async function pushedPaths(projectId: string): Promise<string[]> {
    const result = await sql<{ path: string }>`
      with recursive paths (path) as (
        select min(path) from keys where project_id = ${projectId} and state = 'active'
        union all
        select (select min(k.path) from keys k where k.project_id = ${projectId} and k.state = 'active' and k.path > paths.path) from paths where paths.path is not null
      )
      select path from paths where path is not null`.execute(db);
    return result.rows.map((r) => r.path);
  }

  async function resolvePath(projectId: string, path: string | undefined): Promise<string> {
    if (path !== undefined) {
      const pushed = await db.selectFrom('keys').select('path').where('project_id', '=', projectId).where('path', '=', path).where('state', '=', 'active').limit(1).executeTakeFirst();
      if (pushed) return path;
    }
    const paths = await pushedPaths(projectId);
    if (path !== undefined) {
      if (!paths.includes(path)) {
        throw notFound('path_not_found', `Nothing was pushed at path '${path}'. Pushed paths: ${paths.map((p) => `'${p}'`).join(', ') || '(none)'}.`);
      }
      return path;
    }
    if (paths.length === 0) throw notFound('nothing_pushed', 'This project has no source strings yet. Push a file or keys first (POST /v1/push).');
    if (paths.length > 1) {
      throw new ApiError(422, 'path_required', `This project has ${paths.length} source files; choose one with ?path=, or pull them all with ?archive=true. Pushed paths: ${paths.map((p) => `'${p}'`).join(', ')}.`, { paths });
    }
    return paths[0]!;
  }

  function resolveCodec(format: string): Codec {
    if (!isFormatId(format)) throw new ApiError(422, 'format_unknown', `Unknown format '${format}'. Expected one of the 20 format identifiers, e.g. 'json' or 'json_nested'.`);
    const codec = getCodec(format);
    if (!codec) throw new ApiError(422, 'format_not_supported', `Format '${format}' is not supported by this server yet.`);
    return codec;
  }

  async function pull(input: PullInput): Promise<PulledFile> {
    const path = await resolvePath(input.projectId, input.path);
    // A path stored before the path rule existed is refused (422 path_invalid), never served for a client to write.
    if (path !== '') repoPath(path);
    const file = await readSourceFile(db, input.projectId, path);
    // A file an import recorded has its format and no skeleton (zero bytes): it is rendered fresh in that format.
    const skeleton = file !== undefined && file.content.length > 0 ? file : undefined;
    const codec = resolveCodec(input.format ?? file?.format ?? 'json');
    const targets = (await db.selectFrom('project_languages').select('tag').where('project_id', '=', input.projectId).orderBy('tag').execute()).map((l) => l.tag);
    // A pull of one target locale reads its translations with the keys, in one query.
    const joined = input.locale !== undefined && input.locale !== input.sourceLocale ? input.locale : undefined;
    // Rendered into the pushed file, a key's source is read only where it stands in for a translation (a string not
    // to be translated) and its notes not at all: a third less to read and decode for a typical file.
    const template = skeleton !== undefined && skeleton.format === codec.id;
    const keys = await selectJsonRows(
      db,
      db
        .selectFrom('keys as k')
        .select([
          'k.key',
          'k.source_plurals',
          'k.translatable',
          'k.position',
          (template ? sql<string>`case when k.translatable then '' else k.source end` : sql<string>`k.source`).as('source'),
          (template ? sql<string | null>`null::text` : sql<string | null>`k.notes`).as('notes'),
        ])
        .where('k.project_id', '=', input.projectId)
        .where('k.path', '=', path)
        .where('k.state', '=', 'active')
        .$if(joined !== undefined, (q) =>
          q
            .leftJoin('translations as t', (join) => join.onRef('t.key_id', '=', 'k.id').on('t.locale', '=', joined!))
            // A candidate held for review of the key's current source: reported with the file, in the same scan.
            .leftJoin('held_translations as h', (join) => join.onRef('h.key_id', '=', 'k.id').on('h.locale', '=', joined!).on('h.state', '=', 'held').onRef('h.source_hash', '=', 'k.source_hash'))
            .select(['t.text as t_text', 't.plurals as t_plurals', sql<boolean>`h.key_id is not null`.as('held')]),
        ),
      'position',
    );

    const refused: PulledFile['refused'] = [];
    const render = async (locale: string): Promise<Uint8Array> => {
      // The pushed file is the source locale's file, exactly.
      if (locale === input.sourceLocale && template) return skeleton.content;
      const values = new Map<string, Value>();
      if (locale === input.sourceLocale) {
        for (const k of keys) values.set(k.key, k.source_plurals ? { plurals: k.source_plurals } : k.source);
      } else {
        if (locale === joined) {
          for (const k of keys) if (k.t_text != null) values.set(k.key, k.t_plurals ? { plurals: k.t_plurals } : k.t_text);
        } else {
          const rows = await selectJsonRows(
            db,
            db
              .selectFrom('translations as t')
              .innerJoin('keys as k', 'k.id', 't.key_id')
              .select(['k.key', 't.text', 't.plurals'])
              .where('k.project_id', '=', input.projectId)
              .where('k.path', '=', path)
              .where('k.state', '=', 'active')
              .where('t.locale', '=', locale),
          );
          for (const row of rows) values.set(row.key, row.plurals ? { plurals: row.plurals } : row.text);
        }
        const held =
          locale === joined
            ? keys.filter((k) => k.held)
            : await db
                .selectFrom('held_translations as h')
                .innerJoin('keys as k', 'k.id', 'h.key_id')
                .select(['k.key'])
                .where('k.project_id', '=', input.projectId)
                .where('k.path', '=', path)
                .where('k.state', '=', 'active')
                .where('h.locale', '=', locale)
                .where('h.state', '=', 'held')
                .whereRef('h.source_hash', '=', 'k.source_hash')
                .execute();
        for (const h of held) refused.push({ key: h.key, locale, reason: 'held_for_review' });
        // Strings the file marks as not to be translated appear in every locale as they are.
        for (const k of keys) if (!k.translatable && !values.has(k.key)) values.set(k.key, sourceValue(k.source, k.source_plurals, locale));
        if (input.missing === 'source') {
          // The source stands in for a missing translation, in the target locale's plural categories.
          for (const k of keys) {
            if (!values.has(k.key) && k.source_plurals) values.set(k.key, { plurals: sourceFormsFor(locale, k.source_plurals) });
          }
        }
      }
      if (!codec.plurals) {
        for (const k of keys) {
          if (!k.source_plurals) continue;
          values.delete(k.key);
          refused.push({ key: k.key, locale, reason: 'format_cannot_express_plural' });
        }
      }
      if (template) {
        return codec.render({ source: skeleton.content, values, missing: input.missing, locale, sourceLocale: input.sourceLocale, archive: deps.archiveLimits });
      }
      const fresh: FreshEntry[] = [];
      for (const k of keys) {
        if (!codec.plurals && k.source_plurals) continue;
        const value = values.get(k.key) ?? (input.missing === 'source' ? sourceValue(k.source, k.source_plurals, locale) : undefined);
        if (value !== undefined) fresh.push({ key: k.key, value, ...(k.notes ? { notes: k.notes } : {}) });
      }
      return codec.renderFresh(fresh, { locale });
    };

    const extension = codec.extensions[0] ?? '';
    if (input.locale !== undefined) {
      if (input.locale !== input.sourceLocale && !targets.includes(input.locale)) {
        throw notFound('locale_not_in_project', `Locale '${input.locale}' is not a language of this project. Its languages: ${[input.sourceLocale, ...targets].join(', ')}.`);
      }
      const filePath = repoPath(input.locale === input.sourceLocale && path !== '' ? path : targetPath(path, input.sourceLocale, input.locale, extension));
      const body = await render(input.locale);
      return { path: filePath, format: codec.id, locale: input.locale, contentType: contentTypeOf(codec), body, refused };
    }
    const entries: Record<string, Uint8Array> = {};
    // Every entry name is a path inside the archive's folder, so no extractor can be led outside it (zip-slip).
    for (const locale of targets) entries[repoPath(targetPath(path, input.sourceLocale, locale, extension))] = await render(locale);
    return { path: 'translations.zip', format: codec.id, locale: null, contentType: 'application/zip', body: zipSync(entries, { level: 6 }), refused };
  }

  /**
   * Every target file of every pushed source file for `locales` (default: every target locale), with the manifest the
   * archive carries: per file its source path, locale, format, and the keys left out, missing or flagged. Per source
   * file, four queries whatever the number of locales: the stored file, its keys, their translations, their held rows.
   */
  async function pullArchive(input: ArchiveInput): Promise<PulledArchive> {
    const targets = (await db.selectFrom('project_languages').select('tag').where('project_id', '=', input.projectId).orderBy('tag').execute()).map((l) => l.tag);
    const locales = input.locales ?? targets;
    for (const locale of locales) {
      if (locale !== input.sourceLocale && !targets.includes(locale)) {
        throw notFound('locale_not_in_project', `Locale '${locale}' is not a language of this project. Its languages: ${[input.sourceLocale, ...targets].join(', ')}.`);
      }
    }
    const paths = await pushedPaths(input.projectId);
    if (paths.length === 0) throw notFound('nothing_pushed', 'This project has no source strings yet. Push a file or keys first (POST /v1/push).');
    // A path stored before the path rule existed is refused (422 path_invalid), never served for a client to write.
    for (const path of paths) if (path !== '') repoPath(path);

    const files: ArchiveManifestFile[] = [];
    const entries: Record<string, Uint8Array> = {};
    for (const path of paths) {
      const file = await readSourceFile(db, input.projectId, path);
      const skeleton = file !== undefined && file.content.length > 0 ? file : undefined;
      const codec = resolveCodec(file?.format ?? 'json');
      const template = skeleton !== undefined && skeleton.format === codec.id;
      const keys = await selectJsonRows(
        db,
        db
          .selectFrom('keys as k')
          .select(['k.key', 'k.source_plurals', 'k.translatable', 'k.position', 'k.source', 'k.notes'])
          .where('k.project_id', '=', input.projectId)
          .where('k.path', '=', path)
          .where('k.state', '=', 'active'),
        'position',
      );
      const wanted = locales.filter((l) => l !== input.sourceLocale);
      const translations =
        wanted.length === 0
          ? []
          : await selectJsonRows(
              db,
              db
                .selectFrom('translations as t')
                .innerJoin('keys as k', 'k.id', 't.key_id')
                .select(['k.key', 't.locale', 't.text', 't.plurals', 't.state'])
                .where('k.project_id', '=', input.projectId)
                .where('k.path', '=', path)
                .where('k.state', '=', 'active')
                .where('t.locale', 'in', wanted),
            );
      const held =
        wanted.length === 0
          ? []
          : await db
              .selectFrom('held_translations as h')
              .innerJoin('keys as k', 'k.id', 'h.key_id')
              .select(['k.key', 'h.locale'])
              .where('k.project_id', '=', input.projectId)
              .where('k.path', '=', path)
              .where('k.state', '=', 'active')
              .where('h.locale', 'in', wanted)
              .where('h.state', '=', 'held')
              .whereRef('h.source_hash', '=', 'k.source_hash')
              .execute();
      const extension = codec.extensions[0] ?? '';
      for (const locale of locales) {
        const values = new Map<string, Value>();
        const flagged: string[] = [];
        const refused: ArchiveManifestFile['refused'] = [];
        if (locale === input.sourceLocale) {
          for (const k of keys) values.set(k.key, k.source_plurals ? { plurals: k.source_plurals } : k.source);
        } else {
          for (const t of translations) {
            if (t.locale !== locale) continue;
            values.set(t.key, t.plurals ? { plurals: t.plurals } : t.text);
            if (t.state === 'flagged') flagged.push(t.key);
          }
          for (const h of held) if (h.locale === locale) refused.push({ key: h.key, reason: 'held_for_review' });
        }
        const missing = keys.filter((k) => k.translatable && !values.has(k.key)).map((k) => k.key);
        const body =
          locale === input.sourceLocale && template
            ? skeleton.content
            : renderLocale({ codec, skeleton: template ? skeleton.content : undefined, keys, values, refused, locale, sourceLocale: input.sourceLocale, missing: input.missing, archive: deps.archiveLimits });
        const entry = `${locale}/${path === '' ? `(keys)${extension}` : path}`;
        entries[entry] = body;
        files.push({ entry, path, locale, format: codec.id, bytes: body.byteLength, keys: keys.length, missing, flagged, refused });
      }
    }
    const manifest: ArchiveManifest = { version: 1, source_locale: input.sourceLocale, locales, missing: input.missing, files };
    const manifestBytes = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
    // The tag is over what the archive says, not over its bytes: the same files give the same tag whatever zip writes.
    const hash = createHash('sha256').update(manifestBytes);
    for (const file of files) hash.update(file.entry).update('\0').update(entries[file.entry]!);
    const etag = `"${hash.digest('base64url').slice(0, 43)}"`;
    return {
      etag,
      manifest,
      zip: () => zipSync({ [ARCHIVE_MANIFEST]: manifestBytes, ...entries }, { level: 6, mtime: ZIP_MTIME }),
    };
  }

  /** How many source files the project holds (the paths of its active keys). */
  async function pushedPathCount(projectId: string): Promise<number> {
    return (await pushedPaths(projectId)).length;
  }

  return { pull, pullArchive, pushedPathCount };
}

/** The archive's own entry: what each other entry is (see ArchiveManifest). */
export const ARCHIVE_MANIFEST = 'manifest.json';
/** A fixed entry time, so the same files make the same archive bytes. */
const ZIP_MTIME = new Date('2000-01-01T00:00:00Z');

export interface ArchiveInput {
  projectId: string;
  sourceLocale: string;
  /** Default: every target locale of the project. */
  locales?: string[];
  missing: 'omit' | 'source';
}

export interface ArchiveManifestFile {
  /** The entry's name in the archive: `<locale>/<source path>`. */
  entry: string;
  /** The source file's path as it was pushed. */
  path: string;
  locale: string;
  format: FormatId;
  bytes: number;
  /** Active keys of the source file. */
  keys: number;
  /** Translatable keys with no translation in this locale. */
  missing: string[];
  /** Keys whose translation the gates flagged (in the file, worth a look). */
  flagged: string[];
  /** Keys whose current translation is not in the file, and why (as the single file's x-parlance-refused-* headers). */
  refused: { key: string; reason: 'format_cannot_express_plural' | 'held_for_review' }[];
}

export interface ArchiveManifest {
  version: 1;
  source_locale: string;
  locales: string[];
  missing: 'omit' | 'source';
  files: ArchiveManifestFile[];
}

export interface PulledArchive {
  /** A strong validator over the manifest and every entry's bytes. */
  etag: string;
  manifest: ArchiveManifest;
  /** The zip, made only when it is sent (not for a 304). */
  zip(): Uint8Array;
}

interface RenderKey {
  key: string;
  source: string;
  source_plurals: PluralForms | null;
  translatable: boolean;
  notes: string | null;
}

/** One target locale's file from its values: spliced into the pushed file when there is one, else rendered fresh. */
function renderLocale(input: {
  codec: Codec;
  skeleton: Uint8Array | undefined;
  keys: readonly RenderKey[];
  values: Map<string, Value>;
  refused: { key: string; reason: string }[];
  locale: string;
  sourceLocale: string;
  missing: 'omit' | 'source';
  archive: Readonly<ArchiveLimits>;
}): Uint8Array {
  const { codec, keys, values, locale } = input;
  if (locale !== input.sourceLocale) {
    for (const k of keys) if (!k.translatable && !values.has(k.key)) values.set(k.key, sourceValue(k.source, k.source_plurals, locale));
    if (input.missing === 'source') {
      for (const k of keys) if (!values.has(k.key) && k.source_plurals) values.set(k.key, { plurals: sourceFormsFor(locale, k.source_plurals) });
    }
  }
  if (!codec.plurals) {
    for (const k of keys) {
      if (!k.source_plurals) continue;
      values.delete(k.key);
      input.refused.push({ key: k.key, reason: 'format_cannot_express_plural' });
    }
  }
  if (input.skeleton) return codec.render({ source: input.skeleton, values, missing: input.missing, locale, sourceLocale: input.sourceLocale, archive: input.archive });
  const fresh: FreshEntry[] = [];
  for (const k of keys) {
    if (!codec.plurals && k.source_plurals) continue;
    const value = values.get(k.key) ?? (input.missing === 'source' ? sourceValue(k.source, k.source_plurals, locale) : undefined);
    if (value !== undefined) fresh.push({ key: k.key, value, ...(k.notes ? { notes: k.notes } : {}) });
  }
  return codec.renderFresh(fresh, { locale });
}

function sourceValue(source: string, plurals: PluralForms | null, locale: string): Value {
  return plurals ? { plurals: sourceFormsFor(locale, plurals) } : source;
}

function contentTypeOf(codec: Codec): string {
  return codec.id.startsWith('json') || codec.id === 'arb' || codec.id === 'laravel_json' || codec.id === 'ios_xcstrings'
    ? 'application/json; charset=utf-8'
    : 'application/octet-stream';
}

export type PullService = ReturnType<typeof createPullService>;

/**
 * A pushed source file's format and bytes, or undefined. The bytes travel as base64 text: PGlite decodes a bytea value
 * byte by byte in JavaScript (300 ms for 1 MB), base64 in native code (bench/run.ts). Codecs get a plain Uint8Array of
 * their own, never a view into a pool.
 */
async function readSourceFile(db: Db, projectId: string, path: string): Promise<{ format: string; content: Uint8Array } | undefined> {
  const stored = await db
    .selectFrom('source_files')
    .select(['format', sql<string>`encode(content, 'base64')`.as('content')])
    .where('project_id', '=', projectId)
    .where('path', '=', path)
    .executeTakeFirst();
  return stored && { format: stored.format, content: new Uint8Array(Buffer.from(stored.content, 'base64')) };
}
