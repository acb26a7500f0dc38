/** Releases: publishing immutable, numbered snapshots of a project's translations, listing them, and the bundle id. */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { sql } from 'kysely';
import { selectJsonRows } from '../db/bulk.js';
import type { Db } from '../db/database.js';
import type { BundleShape, ReleaseObjectKind, ReleasesTable } from '../db/schema.js';
import { ApiError, notFound } from '../errors.js';
import { newId, newSecretId } from '../ids.js';
import type { Logger } from '../logger.js';
import type { PullService } from '../services/pull-service.js';
import { getCodec } from '../../src/core/formats/index.js';
import { bundleEntries, contentHash, contentTypeOf, namePath, renderManifest, sha256Hex, type BundleKey, type ReleaseObject } from './release-fns.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Quality 9 of 11: within a few per cent of the best for JSON, and fast enough to publish a 10,000-key bundle at once. */
const BROTLI_OPTIONS = { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };

export interface PublishInput {
  locales?: readonly string[];
  trigger: 'api' | 'batch';
  batchId?: string;
}

interface StoredObject {
  name: string;
  kind: ReleaseObjectKind;
  locale: string | null;
  source_path: string | null;
  format: string | null;
  keys: number;
  sha256: string;
  bytes: number;
}

export function publicRelease(release: ReleaseRow, objects: readonly StoredObject[], bundleId: string) {
  const path = (name: string) => `/cdn/${bundleId}/${release.number}/${namePath(name)}`;
  const manifest = objects.find((o) => o.kind === 'manifest');
  return {
    id: release.id,
    number: release.number,
    content_hash: release.content_hash,
    shape: release.shape,
    includes_files: release.files,
    trigger: release.trigger,
    batch_id: release.batch_id,
    created_at: release.created_at.toISOString(),
    locales: objects
      .filter((o) => o.kind === 'bundle')
      .sort((a, b) => release.locales.indexOf(a.locale!) - release.locales.indexOf(b.locale!))
      .map((o) => ({ locale: o.locale!, keys: o.keys, bytes: o.bytes, sha256: o.sha256, path: path(o.name) })),
    files: objects
      .filter((o) => o.kind === 'file')
      .map((o) => ({ path: o.name.replace(/^files\//, ''), source_path: o.source_path, locale: o.locale!, format: o.format!, keys: o.keys, bytes: o.bytes, sha256: o.sha256, url: path(o.name) })),
    manifest: manifest ? { path: path(manifest.name), bytes: manifest.bytes, sha256: manifest.sha256 } : null,
  };
}

type ReleaseRow = { id: string; number: number; content_hash: string; locales: string[]; shape: BundleShape; files: boolean; trigger: ReleasesTable['trigger']; batch_id: string | null; created_at: Date };
export type PublicRelease = ReturnType<typeof publicRelease>;

export interface PublishedRelease {
  id: string;
  projectId: string;
  number: number;
}

export function createReleasesService(deps: { db: Db; pull: PullService; log: Logger }) {
  const { db } = deps;
  /** Told after a release is committed: the CDN forgets `latest`, storage targets queue a sync. */
  const listeners: ((release: PublishedRelease) => void | Promise<void>)[] = [];
  /** Told after a bundle id is replaced: the CDN forgets the old one at once. */
  const rotationListeners: ((oldBundleId: string) => void)[] = [];

  async function project(projectId: string) {
    return db
      .selectFrom('projects')
      .select(['id', 'source_locale', 'bundle_id', 'bundle_shape', 'bundle_files', 'release_on_batch'])
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow();
  }

  /** The project's bundle id, minted on first use. */
  async function bundleId(projectId: string): Promise<string> {
    const current = (await project(projectId)).bundle_id;
    if (current) return current;
    await db.updateTable('projects').set({ bundle_id: newSecretId('bnd') }).where('id', '=', projectId).where('bundle_id', 'is', null).execute();
    return (await project(projectId)).bundle_id!;
  }

  async function languages(projectId: string, sourceLocale: string, chosen: readonly string[] | undefined): Promise<string[]> {
    const targets = (await db.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).orderBy('tag').execute()).map((l) => l.tag);
    const all = [sourceLocale, ...targets];
    if (chosen === undefined || chosen.length === 0) return all;
    const unknown = chosen.filter((l) => !all.includes(l));
    if (unknown.length > 0) {
      throw new ApiError(422, 'locale_not_in_project', `${unknown.map((l) => `'${l}'`).join(', ')} ${unknown.length > 1 ? 'are not languages' : 'is not a language'} of this project. Its languages: ${all.join(', ')}.`, { locales: all });
    }
    return all.filter((l) => chosen.includes(l));
  }

  /** Each locale's JSON bundle and, when the project asks for them, each source file's translations in its own format. */
  async function snapshot(p: Awaited<ReturnType<typeof project>>, locales: readonly string[]): Promise<ReleaseObject[]> {
    const codec = getCodec(p.bundle_shape === 'nested' ? 'json_nested' : 'json')!;
    const objects: ReleaseObject[] = [];
    for (const locale of locales) {
      const joined = locale !== p.source_locale;
      const keys = await selectJsonRows<BundleKey & { position: number }>(
        db,
        db
          .selectFrom('keys as k')
          .$if(joined, (q) => q.leftJoin('translations as t', (join) => join.onRef('t.key_id', '=', 'k.id').on('t.locale', '=', locale)))
          .select([
            'k.path',
            'k.key',
            'k.source',
            'k.source_plurals',
            'k.translatable',
            'k.position',
            (joined ? sql<string | null>`t.text` : sql<string | null>`null::text`).as('text'),
            (joined ? sql<string | null>`t.plurals` : sql<string | null>`null::jsonb`).as('plurals'),
          ])
          .where('k.project_id', '=', p.id)
          .where('k.state', '=', 'active')
          .orderBy('k.path')
          .orderBy('k.position'),
      );
      // json_agg keeps no order of its own: the rows are sorted here, by file and place in the file.
      keys.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.position - b.position));
      const bundle = bundleEntries(keys, locale, p.source_locale);
      const body = codec.renderFresh(bundle.entries, { locale });
      objects.push({ name: `${locale}.json`, kind: 'bundle', locale, sourcePath: null, format: codec.id, keys: bundle.keys, contentType: contentTypeOf(codec.id), body, sha256: sha256Hex(body) });
    }
    if (p.bundle_files) {
      // Keys with a value in each file and locale: every key in the source locale; a target's translations, and the
      // strings the file keeps as they are in every locale.
      const perPath = await sql<{ path: string; total: number; fixed: number }>`
        select path, count(*)::int as total, (count(*) filter (where not translatable))::int as fixed from keys
        where project_id = ${p.id} and state = 'active' and path <> '' group by path order by path`.execute(db);
      const perLocale = await sql<{ path: string; locale: string; n: number }>`
        select k.path, t.locale, count(*)::int as n from keys k join translations t on t.key_id = k.id
        where k.project_id = ${p.id} and k.state = 'active' and k.translatable and k.path <> '' group by k.path, t.locale`.execute(db);
      const translated = new Map(perLocale.rows.map((r) => [`${r.path}\u0000${r.locale}`, r.n]));
      for (const { path, total, fixed } of perPath.rows) {
        for (const locale of locales) {
          const file = await deps.pull.pull({ projectId: p.id, sourceLocale: p.source_locale, path, locale, missing: 'omit' });
          const keys = locale === p.source_locale ? total : (translated.get(`${path}\u0000${locale}`) ?? 0) + fixed;
          objects.push({ name: `files/${file.path}`, kind: 'file', locale, sourcePath: path, format: file.format, keys, contentType: contentTypeOf(file.format), body: file.body, sha256: sha256Hex(file.body) });
        }
      }
    }
    return objects;
  }

  /** Stores bodies not stored yet, with their compressed forms. */
  async function storeBlobs(executor: Pick<Db, 'selectFrom' | 'insertInto'>, bodies: readonly { sha256: string; body: Uint8Array }[]): Promise<void> {
    const unique = new Map(bodies.map((b) => [b.sha256, b.body]));
    if (unique.size === 0) return;
    const have = new Set(
      (await executor.selectFrom('release_blobs').select('sha256').where(sql<boolean>`sha256 = any(${[...unique.keys()]}::text[])`).execute()).map((b) => b.sha256),
    );
    for (const [sha256, body] of unique) {
      if (have.has(sha256)) continue;
      const [gz, br] = await Promise.all([gzipAsync(body, { level: 9 }), brotli(body, BROTLI_OPTIONS)]);
      await executor
        .insertInto('release_blobs')
        .values({
          sha256,
          content: sql`decode(${Buffer.from(body).toString('base64')}, 'base64')` as never,
          gzip: sql`decode(${gz.toString('base64')}, 'base64')` as never,
          br: sql`decode(${br.toString('base64')}, 'base64')` as never,
          bytes: body.byteLength,
        })
        .onConflict((oc) => oc.column('sha256').doNothing())
        .execute();
    }
  }

  async function objectsOf(releaseIds: readonly string[]): Promise<Map<string, StoredObject[]>> {
    const result = new Map<string, StoredObject[]>();
    if (releaseIds.length === 0) return result;
    const rows = await db
      .selectFrom('release_objects')
      .select(['release_id', 'name', 'kind', 'locale', 'source_path', 'format', 'keys', 'sha256', 'bytes'])
      .where(sql<boolean>`release_id = any(${[...releaseIds]}::text[])`)
      .orderBy('release_id')
      .orderBy('kind')
      .orderBy('name')
      .execute();
    for (const row of rows) {
      const list = result.get(row.release_id) ?? [];
      list.push(row);
      result.set(row.release_id, list);
    }
    return result;
  }

  /**
   * Publishes the project's accepted translations as the next release, or returns the latest release when nothing
   * changed since it (`created` false). Numbering is serialised by the project's row lock.
   */
  async function publish(projectId: string, input: PublishInput): Promise<{ release: PublicRelease; created: boolean }> {
    const p = await project(projectId);
    const locales = await languages(projectId, p.source_locale, input.locales);
    const any = await db.selectFrom('keys').select('id').where('project_id', '=', projectId).where('state', '=', 'active').limit(1).executeTakeFirst();
    if (!any) throw new ApiError(409, 'nothing_to_release', 'This project has no source strings yet, so there is nothing to release. Push a file or keys first (POST /v1/push).');
    const objects = await snapshot(p, locales);
    const hash = contentHash(p.bundle_shape, p.bundle_files, objects);
    await storeBlobs(db, objects);
    const bundle = p.bundle_id ?? (await bundleId(projectId));

    const outcome = await db.transaction().execute(async (trx) => {
      await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
      const latest = await trx.selectFrom('releases').selectAll().where('project_id', '=', projectId).orderBy('number', 'desc').limit(1).executeTakeFirst();
      if (latest && latest.content_hash === hash) return { release: latest, created: false };
      const number = (latest?.number ?? 0) + 1;
      const createdAt = new Date();
      const id = newId('rel');
      const stored = objects.map((o) => ({ ...o, bytes: o.body.byteLength, url: `../${number}/${namePath(o.name)}` }));
      const manifest = renderManifest({ number, createdAt, contentHash: hash, shape: p.bundle_shape, sourceLocale: p.source_locale, objects: stored });
      const manifestSha = sha256Hex(manifest);
      // The manifest is small: stored in the transaction that numbers it.
      await storeBlobs(trx, [{ sha256: manifestSha, body: manifest }]);
      const release = await trx
        .insertInto('releases')
        .values({ id, project_id: projectId, number, content_hash: hash, locales: JSON.stringify(locales), shape: p.bundle_shape, files: p.bundle_files, trigger: input.trigger, batch_id: input.batchId ?? null, created_at: createdAt })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('release_objects')
        .values([
          ...stored.map((o) => ({ release_id: id, name: o.name, kind: o.kind, locale: o.locale, source_path: o.sourcePath, format: o.format, keys: o.keys, content_type: o.contentType, sha256: o.sha256, bytes: o.bytes })),
          { release_id: id, name: 'manifest.json', kind: 'manifest' as const, locale: null, source_path: null, format: null, keys: stored.filter((o) => o.kind === 'bundle').reduce((n, o) => n + o.keys, 0), content_type: 'application/json; charset=utf-8', sha256: manifestSha, bytes: manifest.byteLength },
        ])
        .execute();
      return { release, created: true };
    });
    const stored = (await objectsOf([outcome.release.id])).get(outcome.release.id) ?? [];
    if (outcome.created) {
      deps.log.info('release published', { project: projectId, release: outcome.release.number, objects: stored.length });
      for (const listener of listeners) {
        try {
          await listener({ id: outcome.release.id, projectId, number: outcome.release.number });
        } catch (error) {
          deps.log.warn('release listener failed', { release: outcome.release.id, error });
        }
      }
    }
    return { release: publicRelease(outcome.release, stored, bundle), created: outcome.created };
  }

  async function list(projectId: string, options: { cursor?: number; limit: number }) {
    const bundle = await bundleId(projectId);
    let query = db.selectFrom('releases').selectAll().where('project_id', '=', projectId).orderBy('number', 'desc').limit(options.limit + 1);
    if (options.cursor !== undefined) query = query.where('number', '<', options.cursor);
    const rows = await query.execute();
    const page = rows.slice(0, options.limit);
    const objects = await objectsOf(page.map((r) => r.id));
    return {
      bundle_id: bundle,
      items: page.map((r) => publicRelease(r, objects.get(r.id) ?? [], bundle)),
      next_cursor: rows.length > options.limit ? String(page[page.length - 1]!.number) : null,
    };
  }

  /** One release by id (`rel_…`), number, or `latest`. */
  async function get(projectId: string, ref: string): Promise<PublicRelease> {
    let query = db.selectFrom('releases').selectAll().where('project_id', '=', projectId);
    if (ref === 'latest') query = query.orderBy('number', 'desc').limit(1);
    else if (/^[1-9][0-9]{0,8}$/.test(ref)) query = query.where('number', '=', Number(ref));
    else query = query.where('id', '=', ref);
    const release = await query.executeTakeFirst();
    if (!release) throw notFound('release_not_found', ref === 'latest' ? 'This project has no release yet. Publish one with POST /v1/releases.' : `No release '${ref}' in this project.`);
    const objects = (await objectsOf([release.id])).get(release.id) ?? [];
    return publicRelease(release, objects, await bundleId(projectId));
  }

  /** Replaces the bundle id: every CDN address with the old one answers 404 from now on. */
  async function rotateBundleId(projectId: string): Promise<{ bundle_id: string }> {
    const old = await bundleId(projectId);
    const fresh = newSecretId('bnd');
    await db.updateTable('projects').set({ bundle_id: fresh }).where('id', '=', projectId).execute();
    for (const listener of rotationListeners) listener(old);
    deps.log.info('bundle id rotated', { project: projectId });
    return { bundle_id: fresh };
  }

  /** After a batch completed: publishes when the project asks for a release after every batch. Never throws. */
  async function publishAfterBatch(batchId: string): Promise<void> {
    try {
      const batch = await db
        .selectFrom('batches')
        .innerJoin('projects', 'projects.id', 'batches.project_id')
        .select(['batches.status', 'batches.project_id', 'projects.release_on_batch'])
        .where('batches.id', '=', batchId)
        .executeTakeFirst();
      if (!batch || batch.status !== 'completed' || !batch.release_on_batch) return;
      const { release, created } = await publish(batch.project_id, { trigger: 'batch', batchId });
      if (created) deps.log.info('release published after batch', { batch: batchId, release: release.number });
    } catch (error) {
      deps.log.warn('release after batch failed', { batch: batchId, error });
    }
  }

  return {
    publish,
    list,
    get,
    bundleId,
    rotateBundleId,
    publishAfterBatch,
    onPublished: (listener: (release: PublishedRelease) => void | Promise<void>) => void listeners.push(listener),
    onRotated: (listener: (oldBundleId: string) => void) => void rotationListeners.push(listener),
  };
}

export type ReleasesService = ReturnType<typeof createReleasesService>;
