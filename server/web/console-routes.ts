/** The web console: index.html at `/` and its two assets under `/console/`, read once at start and sent with a strict Content-Security-Policy. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Hono, type Context } from 'hono';
import { assetPath } from '../asset-path.js';

/**
 * Scripts and styles come only from this origin (no inline code: the build writes none), the console talks only to
 * this origin's /v1, and no other site may frame it. Preact sets inline styles through the CSSOM, which style-src allows.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** index.html names each asset with `?v=<hash>`, so a request carrying the current hash may be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  /** The first 12 hex digits of the SHA-256 of the bytes: the `v` of the asset URL and the ETag. */
  version: string;
}

function readAsset(dir: URL, name: string, type: string): Asset | undefined {
  try {
    const body = new Uint8Array(readFileSync(new URL(name, dir)));
    return { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 12) };
  } catch {
    return undefined;
  }
}

function send(c: Context, asset: Asset, cacheControl: string): Response {
  const etag = `"${asset.version}"`;
  const headers = { ...SECURITY_HEADERS, 'Cache-Control': cacheControl, ETag: etag };
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
  return c.body(asset.body, 200, { ...headers, 'Content-Type': asset.type });
}

/** `publicDir`: where the built files are (default server/web/public, committed, so neither `npm start` nor `npm run build` builds the console). */
export function consoleRoutes(options: { publicDir?: URL } = {}) {
  const dir = options.publicDir ?? pathToFileURL(`${assetPath('server/web/public')}/`);
  const index = readAsset(dir, 'index.html', 'text/html; charset=utf-8');
  const script = readAsset(dir, 'console.js', 'text/javascript; charset=utf-8');
  const styles = readAsset(dir, 'console.css', 'text/css; charset=utf-8');
  const app = new Hono();

  app.get('/', (c) => {
    if (!index || !script || !styles) {
      return c.text('The web console is not built: run `npm run build:console`. The API reference is at /v1/reference.', 503, { ...SECURITY_HEADERS, 'Cache-Control': 'no-store' });
    }
    return send(c, index, 'no-cache');
  });
  for (const [path, asset] of [
    ['/console/console.js', script],
    ['/console/console.css', styles],
  ] as const) {
    if (!asset) continue;
    app.get(path, (c) => send(c, asset, c.req.query('v') === asset.version ? IMMUTABLE : 'no-cache'));
  }
  return app;
}
