/** Pure helpers of storage targets: where each object of a release goes, and checks of a target's prefix and templates. */
import { LOCALE_VARIABLES, TEMPLATE_VARIABLES, templatePathProblem, translationPath, unknownVariables, variablesIn } from '../../../src/core/path-templates.js';
import { repoPathProblem } from '../../../src/core/repo-path.js';

/** The name a JSON bundle's template is filled for: `{name}` is `bundle`, `{ext}` is `json`, `{dir}` is `.`. */
const BUNDLE_SOURCE = 'bundle.json';

export interface TargetLayout {
  prefix: string;
  pathTemplate: string;
  filesTemplate: string | null;
}

export interface LayoutObject {
  kind: 'bundle' | 'file' | 'manifest';
  /** The object's name in the release: 'de.json', 'files/locales/de.json', 'manifest.json'. */
  name: string;
  locale: string | null;
  sourcePath: string | null;
  /** The hex SHA-256 of the object's content. */
  sha256: string;
  /** The number of the release being synced. */
  release: number;
}

/**
 * Variables only storage templates know, filled per object rather than per source file and locale: `{hash}` (the first
 * 12 hex digits of the object's SHA-256, so an unchanged locale keeps its key and a changed one gets a new object) and
 * `{release}` (the release number). With either, a sync writes new objects beside the old ones and the manifest,
 * written last, is what switches a client from one release to the next; with neither, objects are overwritten in place.
 * They stay out of src/core/path-templates.ts, which the CLI and the Action share and where neither means anything.
 */
export const STORAGE_VARIABLES: readonly { name: string; example: string; meaning: string }[] = [
  { name: 'hash', example: '3f9a1c0b7e2d', meaning: "the first 12 hex digits of the object's SHA-256" },
  { name: 'release', example: '42', meaning: 'the release number' },
];

const STORAGE_VARIABLE = /\{(hash|release)\}/g;

/** `template` with the storage-only variables filled; the rest is left for translationPath. */
function fillStorageVariables(template: string, values: { hash: string; release: string }): string {
  return template.replace(STORAGE_VARIABLE, (_, name: 'hash' | 'release') => values[name]);
}

/**
 * The key of one release object in a target: the prefix, then the bundle's path template filled for its locale,
 * a file's template filled for its source file and locale (or its path in the release, `files/…`, without one), and
 * `manifest.json` for the manifest.
 */
export function objectKey(layout: TargetLayout, object: LayoutObject): string {
  if (object.kind === 'manifest') return `${layout.prefix}manifest.json`;
  const fill = (template: string) => fillStorageVariables(template, { hash: object.sha256.slice(0, 12), release: String(object.release) });
  if (object.kind === 'bundle') return layout.prefix + translationPath(fill(layout.pathTemplate), BUNDLE_SOURCE, object.locale!);
  if (layout.filesTemplate !== null && object.sourcePath !== null) return layout.prefix + translationPath(fill(layout.filesTemplate), object.sourcePath, object.locale!);
  return layout.prefix + object.name;
}

/** A prefix as stored: '' or folders ending in '/', without a leading '/'; undefined with the reason when it cannot be one. */
export function normalisePrefix(input: string): { ok: true; prefix: string } | { ok: false; reason: string } {
  const trimmed = input.trim().replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return { ok: true, prefix: '' };
  const problem = repoPathProblem(trimmed);
  if (problem) return { ok: false, reason: `prefix '${input}' cannot be used: ${problem.reason}` };
  return { ok: true, prefix: `${trimmed}/` };
}

/**
 * Why a template cannot name the objects of every locale, or undefined: unknown variables, no locale variable (every
 * locale would overwrite the same object), or a path that climbs out of the prefix.
 */
export function templateProblem(field: string, template: string): string | undefined {
  // Filled with sample values first: the shared checks below know only the CLI's variables.
  const filled = fillStorageVariables(template, { hash: '0123456789ab', release: '1' });
  const unknown = unknownVariables(filled);
  if (unknown.length > 0) {
    const known = [...TEMPLATE_VARIABLES, ...STORAGE_VARIABLES].map((v) => `{${v.name}}`).join(', ');
    return `${field} '${template}' uses unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known: ${known}`;
  }
  if (!variablesIn(filled).some((v) => LOCALE_VARIABLES.has(v))) {
    return `${field} '${template}' has no locale variable, so every locale would be written to the same object; use {locale}, {locale_underscore}, {android_locale}, {apple_locale} or {two_letters}`;
  }
  const problem = templatePathProblem(filled);
  if (problem) return `${field} '${template}' cannot be used: ${problem.reason}`;
  try {
    translationPath(filled, 'locales/en.json', 'pt-BR');
  } catch (error) {
    return `${field} '${template}' cannot be used: ${(error as Error).message}`;
  }
  return undefined;
}

/** What a person sees of stored credentials: enough to tell two apart, nothing that helps to use them. */
export function credentialsHint(credentials: { accessKeyId: string } | { connectionString: string } | { sasUrl: string }): string {
  if ('accessKeyId' in credentials) return `access key …${credentials.accessKeyId.slice(-4)}`;
  if ('connectionString' in credentials) {
    const account = /(?:^|;)\s*AccountName=([^;]+)/i.exec(credentials.connectionString)?.[1];
    return account ? `connection string of account '${account}'` : 'connection string';
  }
  try {
    const url = new URL(credentials.sasUrl);
    const expiry = url.searchParams.get('se');
    return `SAS for ${url.host}${expiry ? `, expires ${expiry}` : ''}`;
  } catch {
    return 'SAS';
  }
}

/** ±10 % so targets that failed together are not retried together. */
export function jitter(ms: number, random = Math.random()): number {
  return Math.round(ms * (0.9 + random * 0.2));
}
