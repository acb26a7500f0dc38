/** The pure helpers of releases and the CDN: bundle entries, content hashes, manifests, encoding negotiation, entity tags. */
import { describe, expect, it } from 'vitest';
import { bundleEntries, contentHash, entityTag, matchesIfNoneMatch, namePath, negotiateEncoding, renderManifest, type BundleKey } from '../../server/delivery/release-fns.js';

const key = (k: Partial<BundleKey> & { key: string }): BundleKey => ({ path: 'a.json', source: k.key, source_plurals: null, translatable: true, text: null, plurals: null, ...k });

describe('bundleEntries', () => {
  it('takes translations, leaves untranslated keys out, keeps strings not to be translated, and counts keys', () => {
    const keys = [
      key({ key: 'title', source: 'Hello', text: 'Hallo' }),
      key({ key: 'missing', source: 'Missing' }),
      key({ key: 'brand', source: 'Parlance', translatable: false }),
    ];
    const { entries, keys: count } = bundleEntries(keys, 'de', 'en');
    expect(entries).toEqual([
      { key: 'title', value: 'Hallo' },
      { key: 'brand', value: 'Parlance' },
    ]);
    expect(count).toBe(2);
  });

  it('writes plural keys as i18next does, in CLDR order, with the target locale’s categories for kept strings', () => {
    const keys = [
      key({ key: 'files', source: '{n} files', source_plurals: { other: '{n} files', one: '{n} file' }, plurals: { one: '{n} Datei', other: '{n} Dateien' } }),
      key({ key: 'items', source: '{n} items', source_plurals: { one: '{n} item', other: '{n} items' }, translatable: false }),
    ];
    expect(bundleEntries(keys, 'de', 'en').entries).toEqual([
      { key: 'files_one', value: '{n} Datei' },
      { key: 'files_other', value: '{n} Dateien' },
      { key: 'items_one', value: '{n} item' },
      { key: 'items_other', value: '{n} items' },
    ]);
    const pl = bundleEntries([keys[1]!], 'pl', 'en').entries.map((e) => e.key);
    expect(pl).toEqual(['items_one', 'items_few', 'items_many', 'items_other']);
    expect(bundleEntries(keys, 'en', 'en').entries.map((e) => e.key)).toEqual(['files_one', 'files_other', 'items_one', 'items_other']);
  });

  it('takes a key pushed in several files from the first, and counts the others', () => {
    const keys = [key({ key: 'ok', path: 'a.json', text: 'A' }), key({ key: 'ok', path: 'b.json', text: 'B' })];
    expect(bundleEntries(keys, 'de', 'en')).toEqual({ entries: [{ key: 'ok', value: 'A' }], keys: 1, duplicates: 1 });
  });
});

describe('contentHash', () => {
  it('depends on every name and body, the shape and the files setting, not on the order', () => {
    const a = [
      { name: 'de.json', sha256: '1' },
      { name: 'fr.json', sha256: '2' },
    ];
    const base = contentHash('flat', false, a);
    expect(contentHash('flat', false, [...a].reverse())).toBe(base);
    expect(contentHash('nested', false, a)).not.toBe(base);
    expect(contentHash('flat', true, a)).not.toBe(base);
    expect(contentHash('flat', false, [a[0]!, { name: 'fr.json', sha256: '3' }])).not.toBe(base);
    expect(contentHash('flat', false, [a[0]!])).not.toBe(base);
  });
});

describe('renderManifest', () => {
  it('lists bundles by locale and files in order, with relative URLs', () => {
    const body = renderManifest({
      number: 7,
      createdAt: new Date('2026-11-25T10:00:00Z'),
      contentHash: 'h',
      shape: 'flat',
      sourceLocale: 'en',
      objects: [
        { name: 'de.json', kind: 'bundle', locale: 'de', sourcePath: null, format: 'json', keys: 3, sha256: 's1', bytes: 10, url: '../7/de.json' },
        { name: 'files/locales/de.json', kind: 'file', locale: 'de', sourcePath: 'locales/en.json', format: 'json', keys: 2, sha256: 's2', bytes: 5, url: '../7/files/locales/de.json' },
      ],
    });
    expect(JSON.parse(new TextDecoder().decode(body))).toEqual({
      release: 7,
      created_at: '2026-11-25T10:00:00.000Z',
      content_hash: 'h',
      shape: 'flat',
      source_locale: 'en',
      locales: { de: { url: '../7/de.json', keys: 3, bytes: 10, sha256: 's1' } },
      files: [{ url: '../7/files/locales/de.json', path: 'locales/de.json', source_path: 'locales/en.json', locale: 'de', format: 'json', keys: 2, bytes: 5, sha256: 's2' }],
    });
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['identity', 'identity'],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['gzip;q=abc', 'identity'],
  ] as const)('%s → %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});

describe('entity tags', () => {
  const sha = 'ab'.repeat(32);
  it('differ per coding', () => {
    expect(new Set([entityTag(sha, 'identity'), entityTag(sha, 'gzip'), entityTag(sha, 'br')]).size).toBe(3);
    expect(entityTag(sha, 'identity')).toBe(`"${sha}"`);
  });
  it('match If-None-Match weakly, for any coding of the body, in a list, or *', () => {
    expect(matchesIfNoneMatch(`"${sha}"`, sha)).toBe(true);
    expect(matchesIfNoneMatch(`W/"${sha}-br"`, sha)).toBe(true);
    expect(matchesIfNoneMatch(`"x", "${sha}-gzip"`, sha)).toBe(true);
    expect(matchesIfNoneMatch('*', sha)).toBe(true);
    expect(matchesIfNoneMatch(`"${sha.slice(1)}"`, sha)).toBe(false);
    expect(matchesIfNoneMatch(undefined, sha)).toBe(false);
    expect(matchesIfNoneMatch(sha, sha)).toBe(false);
  });
});

describe('namePath', () => {
  it('percent-encodes each segment and keeps the slashes', () => {
    expect(namePath('files/my app/de.json')).toBe('files/my%20app/de.json');
    expect(namePath('de.json')).toBe('de.json');
    expect(namePath('files/ü/#.json')).toBe('files/%C3%BC/%23.json');
  });
});
