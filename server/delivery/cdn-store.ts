/**
 * What the CDN route reads, cached in this process: a bundle id's project and latest release for a second or two
 * (another process may publish or rotate), and release objects for as long as memory allows (they never change).
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface CdnObject {
  sha256: string;
  contentType: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

export interface CdnStoreOptions {
  /** How long a bundle id's project and latest release number are trusted before they are read again. */
  ttlMs: number;
  /** Bytes of object bodies (all three codings) kept in memory; the least recently served go first. */
  maxBytes: number;
}

interface Timed<T> {
  value: T;
  until: number;
}

export function createCdnStore(deps: { db: Db }, options: CdnStoreOptions) {
  const { db } = deps;
  const bundles = new Map<string, Timed<{ projectId: string; latest: number | null } | null>>();
  const releases = new Map<string, string | null>();
  const objects = new Map<string, CdnObject>();
  let bytes = 0;

  async function bundle(bundleId: string): Promise<{ projectId: string; latest: number | null } | null> {
    const now = Date.now();
    const cached = bundles.get(bundleId);
    if (cached && cached.until > now) return cached.value;
    const row = await db
      .selectFrom('projects')
      .select(['id', sql<number | null>`(select max(number) from releases r where r.project_id = projects.id)`.as('latest')])
      .where('bundle_id', '=', bundleId)
      .executeTakeFirst();
    const value = row ? { projectId: row.id, latest: row.latest === null ? null : Number(row.latest) } : null;
    // Unknown ids are remembered too, so a flood of made-up ids costs one query per id and second.
    if (bundles.size > 10_000) bundles.clear();
    bundles.set(bundleId, { value, until: now + options.ttlMs });
    return value;
  }

  async function releaseId(projectId: string, number: number): Promise<string | null> {
    const key = `${projectId}\u0000${number}`;
    if (releases.has(key)) return releases.get(key)!;
    const row = await db.selectFrom('releases').select('id').where('project_id', '=', projectId).where('number', '=', number).executeTakeFirst();
    // A number not published yet may be soon: only found releases are kept.
    if (row) {
      if (releases.size > 100_000) releases.clear();
      releases.set(key, row.id);
    }
    return row?.id ?? null;
  }

  function remember(key: string, value: CdnObject): void {
    const size = value.identity.byteLength + value.gzip.byteLength + value.br.byteLength;
    if (size > options.maxBytes / 4) return;
    objects.set(key, value);
    bytes += size;
    for (const [oldest, object] of objects) {
      if (bytes <= options.maxBytes) break;
      objects.delete(oldest);
      bytes -= object.identity.byteLength + object.gzip.byteLength + object.br.byteLength;
    }
  }

  async function object(releaseId: string, name: string): Promise<CdnObject | null> {
    const key = `${releaseId}\u0000${name}`;
    const cached = objects.get(key);
    if (cached !== undefined) {
      // Served again: to the back of the line.
      objects.delete(key);
      objects.set(key, cached);
      return cached;
    }
    // Bodies travel as base64 text: PGlite decodes bytea byte by byte in JavaScript.
    const row = await db
      .selectFrom('release_objects as o')
      .innerJoin('release_blobs as b', 'b.sha256', 'o.sha256')
      .select([
        'o.sha256',
        'o.content_type',
        sql<string>`encode(b.content, 'base64')`.as('content'),
        sql<string>`encode(b.gzip, 'base64')`.as('gzip'),
        sql<string>`encode(b.br, 'base64')`.as('br'),
      ])
      .where('o.release_id', '=', releaseId)
      .where('o.name', '=', name)
      .executeTakeFirst();
    const value = row
      ? { sha256: row.sha256, contentType: row.content_type, identity: Buffer.from(row.content, 'base64'), gzip: Buffer.from(row.gzip, 'base64'), br: Buffer.from(row.br, 'base64') }
      : null;
    // A name not in the release never will be (releases do not change), but made-up names are not worth memory.
    if (value) remember(key, value);
    return value;
  }

  return {
    /**
     * The object `name` of release `release` (a number, or 'latest') under `bundleId`, with the release's number;
     * null for anything unknown.
     */
    async find(bundleId: string, release: string, name: string): Promise<{ number: number; object: CdnObject } | null> {
      const found = await bundle(bundleId);
      if (!found) return null;
      const number = release === 'latest' ? found.latest : Number(release);
      if (number === null || !Number.isSafeInteger(number) || number < 1) return null;
      const id = await releaseId(found.projectId, number);
      if (!id) return null;
      const value = await object(id, name);
      return value ? { number, object: value } : null;
    },
    /** Forgets what this process knows of a bundle id (published to, or rotated away). */
    forgetBundle(bundleId: string): void {
      bundles.delete(bundleId);
    },
    /** Forgets every bundle id of a project: its latest release changed. */
    forgetProject(projectId: string): void {
      for (const [id, entry] of bundles) if (entry.value?.projectId === projectId) bundles.delete(id);
    },
  };
}

export type CdnStore = ReturnType<typeof createCdnStore>;
