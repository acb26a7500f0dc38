/** The pure helpers of storage targets: object keys from templates, prefixes, template checks, credential hints. */
import { describe, expect, it } from 'vitest';
import { credentialsHint, jitter, normalisePrefix, objectKey, templateProblem } from '../../server/delivery/storage/storage-fns.js';

describe('objectKey', () => {
  const at = { sha256: '3f9a1c0b7e2d'.padEnd(64, '0'), release: 7 };
  const layout = { prefix: 'i18n/web/', pathTemplate: '{locale}.json', filesTemplate: null };
  it('puts bundles at the path template, files at their release path, the manifest at the top', () => {
    expect(objectKey(layout, { kind: 'bundle', name: 'pt-BR.json', locale: 'pt-BR', sourcePath: null, ...at })).toBe('i18n/web/pt-BR.json');
    expect(objectKey(layout, { kind: 'file', name: 'files/locales/pt-BR.json', locale: 'pt-BR', sourcePath: 'locales/en.json', ...at })).toBe('i18n/web/files/locales/pt-BR.json');
    expect(objectKey(layout, { kind: 'manifest', name: 'manifest.json', locale: null, sourcePath: null, ...at })).toBe('i18n/web/manifest.json');
  });
  it('fills the templates with the CLI’s variables', () => {
    const custom = { prefix: '', pathTemplate: '{locale_underscore}/strings.json', filesTemplate: '{dir}/values-{android_locale}/{name}.{ext}' };
    expect(objectKey(custom, { kind: 'bundle', name: 'pt-BR.json', locale: 'pt-BR', sourcePath: null, ...at })).toBe('pt_BR/strings.json');
    expect(objectKey(custom, { kind: 'file', name: 'files/res/values-pt-rBR/strings.xml', locale: 'pt-BR', sourcePath: 'res/values/strings.xml', ...at })).toBe('res/values/values-pt-rBR/strings.xml');
  });
  it('fills the storage-only {hash} (12 hex digits of the content) and {release}; the manifest keeps its name', () => {
    const versioned = { prefix: 'web/', pathTemplate: '{locale}.{hash}.json', filesTemplate: 'r{release}/{dir}/{locale}/{name}.{ext}' };
    expect(objectKey(versioned, { kind: 'bundle', name: 'de.json', locale: 'de', sourcePath: null, ...at })).toBe('web/de.3f9a1c0b7e2d.json');
    expect(objectKey(versioned, { kind: 'bundle', name: 'de.json', locale: 'de', sourcePath: null, ...at, sha256: 'ab'.repeat(32) })).toBe('web/de.abababababab.json');
    expect(objectKey(versioned, { kind: 'file', name: 'files/locales/de.json', locale: 'de', sourcePath: 'locales/en.json', ...at })).toBe('web/r7/locales/de/en.json');
    expect(objectKey(versioned, { kind: 'manifest', name: 'manifest.json', locale: null, sourcePath: null, ...at })).toBe('web/manifest.json');
  });
});

describe('normalisePrefix', () => {
  it.each([
    ['', ''],
    ['/', ''],
    ['i18n', 'i18n/'],
    ['/i18n/web/', 'i18n/web/'],
    [' web ', 'web/'],
  ])('%j → %j', (input, prefix) => {
    expect(normalisePrefix(input)).toEqual({ ok: true, prefix });
  });
  it('refuses a prefix that climbs or has empty segments', () => {
    expect(normalisePrefix('../other')).toMatchObject({ ok: false });
    expect(normalisePrefix('a//b')).toMatchObject({ ok: false });
    const climbing = normalisePrefix('a/../../b');
    expect(climbing.ok).toBe(false);
    if (!climbing.ok) expect(climbing.reason).toContain("prefix 'a/../../b'");
  });
});

describe('templateProblem', () => {
  it('accepts templates with a locale variable', () => {
    expect(templateProblem('path_template', '{locale}.json')).toBeUndefined();
    expect(templateProblem('files_template', '{dir}/{two_letters}/{name}.{ext}')).toBeUndefined();
    expect(templateProblem('path_template', '{locale}.{hash}.json')).toBeUndefined();
    expect(templateProblem('files_template', '{release}/{dir}/{locale}/{name}.{ext}')).toBeUndefined();
  });
  it('names the field and the template when there is no locale variable, an unknown one, or a climb', () => {
    expect(templateProblem('path_template', 'strings.json')).toMatch(/^path_template 'strings\.json' has no locale variable/);
    expect(templateProblem('path_template', '{lang}.json')).toMatch(/unknown variable \{lang\}; known: .*\{hash\}, \{release\}/);
    expect(templateProblem('path_template', '{hash}.json')).toMatch(/has no locale variable/);
    expect(templateProblem('files_template', '../{locale}.json')).toMatch(/^files_template '\.\.\/\{locale\}\.json' cannot be used/);
  });
});

describe('credentialsHint', () => {
  it('shows enough to tell credentials apart and nothing secret', () => {
    expect(credentialsHint({ accessKeyId: 'AKIAIOSFODNN7EXAMPLE' })).toBe('access key …MPLE');
    expect(credentialsHint({ connectionString: 'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net' })).toBe("connection string of account 'acme'");
    const sas = credentialsHint({ sasUrl: 'https://acme.blob.core.windows.net/i18n?sv=2024-01-01&se=2027-01-01T00%3A00%3A00Z&sp=racw&sig=c2VjcmV0' });
    expect(sas).toBe('SAS for acme.blob.core.windows.net, expires 2027-01-01T00:00:00Z');
    expect(sas).not.toContain('c2VjcmV0');
  });
});

describe('jitter', () => {
  it('stays within ±10 %', () => {
    expect(jitter(1000, 0)).toBe(900);
    expect(jitter(1000, 1)).toBe(1100);
    expect(jitter(1000, 0.5)).toBe(1000);
  });
});
