/** Pure helpers of releases and their delivery: bundle bodies, content hashes, manifests, content types, HTTP negotiation. */
import { createHash } from 'node:crypto';
import type { FormatId, FreshEntry, PluralForms } from '../../src/core/formats/codec.js';
import { orderedForms, sourceFormsFor } from '../../src/core/plurals.js';

export const sha256Hex = (body: Uint8Array | string): string => createHash('sha256').update(body).digest('hex');

/** One key of a project as a bundle reads it: its source, and its translation in the bundle's locale if any. */
export interface BundleKey {
  path: string;
  key: string;
  source: string;
  source_plurals: PluralForms | null;
  translatable: boolean;
  text: string | null;
  plurals: PluralForms | null;
}

/**
 * The entries of one locale's JSON bundle, in file order: the translation where there is one (held candidates never
 * are), the source where the locale is the source locale or the key is not to be translated, nothing otherwise (an
 * app falls back to the strings it ships). Plural keys are written as i18next writes them (`key_one`, `key_other`),
 * so `i18next-http-backend` loads a bundle as it is. A key pushed in several source files is taken from the first
 * file in path order; `duplicates` counts the others.
 */
export function bundleEntries(keys: readonly BundleKey[], locale: string, sourceLocale: string): { entries: FreshEntry[]; keys: number; duplicates: number } {
  const entries: FreshEntry[] = [];
  const seen = new Set<string>();
  let count = 0;
  let duplicates = 0;
  for (const k of keys) {
    if (seen.has(k.key)) {
      duplicates++;
      continue;
    }
    seen.add(k.key);
    let value: string | PluralForms | null;
    if (locale === sourceLocale || !k.translatable) value = k.source_plurals ? (locale === sourceLocale ? k.source_plurals : sourceFormsFor(locale, k.source_plurals)) : k.source;
    else value = k.plurals ?? k.text;
    if (value === null) continue;
    count++;
    if (typeof value === 'string') entries.push({ key: k.key, value });
    else for (const [category, form] of orderedForms(value)) entries.push({ key: `${k.key}_${category}`, value: form });
  }
  return { entries, keys: count, duplicates };
}

/** What a release is made of before it is stored: its objects but the manifest, which is written around them. */
export interface ReleaseObject {
  name: string;
  kind: 'bundle' | 'file';
  locale: string;
  sourcePath: string | null;
  format: FormatId;
  keys: number;
  contentType: string;
  body: Uint8Array;
  sha256: string;
}

/** The release's identity: its shape and every object's name and content. Equal hashes, equal releases. */
export function contentHash(shape: string, files: boolean, objects: readonly Pick<ReleaseObject, 'name' | 'sha256'>[]): string {
  const lines = objects.map((o) => `${o.name}\u0000${o.sha256}`).sort();
  return sha256Hex(`parlance-release-v1\u0000${shape}\u0000${files}\n${lines.join('\n')}`);
}

export interface ManifestInput {
  number: number;
  createdAt: Date;
  contentHash: string;
  shape: string;
  sourceLocale: string;
  objects: readonly (Pick<ReleaseObject, 'name' | 'kind' | 'locale' | 'sourcePath' | 'format' | 'keys' | 'sha256'> & { bytes: number; url: string })[];
}

/**
 * The manifest a client reads first: the release, and each locale's bundle and file with its key count, size and
 * SHA-256. `url` is relative to the manifest's own address: on the CDN `../7/de.json`, so the manifest of `latest`
 * names the files of the release it describes and never a newer one published meanwhile.
 */
export function renderManifest(input: ManifestInput): Uint8Array {
  const locales: Record<string, { url: string; keys: number; bytes: number; sha256: string }> = {};
  const files: { url: string; path: string; source_path: string | null; locale: string; format: string; keys: number; bytes: number; sha256: string }[] = [];
  for (const o of input.objects) {
    if (o.kind === 'bundle') locales[o.locale] = { url: o.url, keys: o.keys, bytes: o.bytes, sha256: o.sha256 };
    else files.push({ url: o.url, path: o.name.replace(/^files\//, ''), source_path: o.sourcePath, locale: o.locale, format: o.format, keys: o.keys, bytes: o.bytes, sha256: o.sha256 });
  }
  const manifest = {
    release: input.number,
    created_at: input.createdAt.toISOString(),
    content_hash: input.contentHash,
    shape: input.shape,
    source_locale: input.sourceLocale,
    locales,
    files,
  };
  return new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
}

const CONTENT_TYPES: Record<FormatId, string> = {
  json: 'application/json; charset=utf-8',
  json_nested: 'application/json; charset=utf-8',
  laravel_json: 'application/json; charset=utf-8',
  arb: 'application/json; charset=utf-8',
  ios_xcstrings: 'application/json; charset=utf-8',
  laravel_php: 'text/x-php; charset=utf-8',
  android_xml: 'application/xml; charset=utf-8',
  ios_stringsdict: 'application/xml; charset=utf-8',
  resx: 'application/xml; charset=utf-8',
  xliff12: 'application/xliff+xml; charset=utf-8',
  xliff2: 'application/xliff+xml; charset=utf-8',
  ios_strings: 'text/plain; charset=utf-8',
  properties: 'text/plain; charset=utf-8',
  po: 'text/x-gettext-translation; charset=utf-8',
  unreal_po: 'text/x-gettext-translation; charset=utf-8',
  yaml: 'application/yaml; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  unity_csv: 'text/csv; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The Content-Type a file of this format is served and stored with. */
export const contentTypeOf = (format: FormatId): string => CONTENT_TYPES[format];

export type Coding = 'br' | 'gzip' | 'identity';

/**
 * The content coding to answer `Accept-Encoding` with: Brotli where accepted, then gzip, else the bytes as they are.
 * A coding with `q=0` is refused, and `*` stands for any coding not named.
 */
export function negotiateEncoding(header: string | undefined): Coding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (coding: string) => q.get(coding) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gzip = Math.max(weight('gzip'), q.get('x-gzip') ?? 0);
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

/** The strong entity tag of one coding of a body: the codings differ in their bytes, so each has its own tag. */
export function entityTag(sha256: string, coding: Coding): string {
  return coding === 'identity' ? `"${sha256}"` : `"${sha256}-${coding}"`;
}

/**
 * Whether `If-None-Match` names the body: any coding's tag of it, weak or strong (RFC 9110 compares weakly here), or `*`.
 */
export function matchesIfNoneMatch(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    const opaque = tag.replace(/^W\//, '');
    if (opaque === `"${sha256}"` || opaque === `"${sha256}-gzip"` || opaque === `"${sha256}-br"`) return true;
  }
  return false;
}

/** A release object's name as a URL path: each segment percent-encoded ('files/my app/de.json' → 'files/my%20app/de.json'). */
export const namePath = (name: string): string => name.split('/').map(encodeURIComponent).join('/');

/** Cache-Control of the CDN: a numbered release never changes; `latest` moves, so caches keep it briefly and refresh it in the background. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const LATEST_CACHE = 'public, max-age=60, stale-while-revalidate=600';

/** A bundle id: `bnd_` and 32 characters of base32 from 20 random bytes (160 bits), safe in a URL path. */
export function isBundleIdShape(value: string): boolean {
  return /^bnd_[0-9a-z]{32}$/.test(value);
}
