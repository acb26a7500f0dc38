/**
 * The public CDN route: `/cdn/{bundle_id}/{release}/{name}`, read-only and unauthenticated. Numbered releases never
 * change and are cached for a year; `latest` moves and is cached briefly. Strong entity tags per content coding,
 * Brotli and gzip negotiated, CORS open to every origin. Anything unknown is the same 404, so an address says
 * nothing about whether a project exists.
 */
import { Hono, type Context } from 'hono';
import type { CdnStore } from './cdn-store.js';
import { IMMUTABLE_CACHE, LATEST_CACHE, entityTag, isBundleIdShape, matchesIfNoneMatch, negotiateEncoding } from './release-fns.js';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  // A client that caches by entity tag reads it from the response and sends it back.
  'Access-Control-Expose-Headers': 'ETag, Content-Length, X-Parlance-Release',
} as const;

const NOT_FOUND_BODY = JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'No such file.' });

function notFound(c: Context): Response {
  return c.body(NOT_FOUND_BODY, 404, { ...CORS, 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' });
}

/** A release segment: `latest` or a release number without leading zeros. */
const RELEASE = /^(latest|[1-9][0-9]{0,8})$/;
/** An object name is looked up as it is, never used as a file path; still, no dot or empty segments, no controls. */
function validName(name: string): boolean {
  if (name.length === 0 || name.length > 1024 || name.includes('\\')) return false;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) < 0x20 || name.charCodeAt(i) === 0x7f) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function decodedName(path: string, prefix: string): string {
  if (!path.startsWith(prefix)) return '';
  try {
    return decodeURIComponent(path.slice(prefix.length));
  } catch {
    return '';
  }
}

export function cdnRoutes(deps: { store: CdnStore }) {
  const app = new Hono();

  app.options('/:bundle/:release/*', (c) =>
    c.body(null, 204, {
      ...CORS,
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
      'Access-Control-Allow-Headers': 'If-None-Match, If-Modified-Since, Cache-Control',
      'Access-Control-Max-Age': '86400',
    }),
  );

  app.on(['GET', 'HEAD'], '/:bundle/:release/*', async (c) => {
    const bundle = c.req.param('bundle');
    const release = c.req.param('release');
    const prefix = `/cdn/${bundle}/${release}/`;
    const name = decodedName(c.req.path, prefix);
    if (!isBundleIdShape(bundle) || !RELEASE.test(release) || !validName(name)) return notFound(c);
    const found = await deps.store.find(bundle, release, name);
    if (!found) return notFound(c);
    const { object, number } = found;
    const coding = negotiateEncoding(c.req.header('accept-encoding'));
    const headers: Record<string, string> = {
      ...CORS,
      'Cache-Control': release === 'latest' ? LATEST_CACHE : IMMUTABLE_CACHE,
      ETag: entityTag(object.sha256, coding),
      Vary: 'Accept-Encoding',
      'X-Parlance-Release': String(number),
    };
    if (matchesIfNoneMatch(c.req.header('if-none-match'), object.sha256)) return c.body(null, 304, headers);
    const body = coding === 'br' ? object.br : coding === 'gzip' ? object.gzip : object.identity;
    headers['Content-Type'] = object.contentType;
    headers['Content-Length'] = String(body.byteLength);
    if (coding !== 'identity') headers['Content-Encoding'] = coding;
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, headers);
  });

  app.all('*', (c) => notFound(c));
  return app;
}
