/**
 * A repository's code as an import-only source of strings: the translation keys its code uses (i18next, vue-i18n,
 * react-intl / FormatJS, Angular `$localize`; src/core/extract), read over GitHub's or GitLab's REST API, with the
 * default text the code gives each key, else the value the project's source-language file holds. One unit per
 * repository; each key's first use is its context, a description its notes. The keys the code uses that the source file
 * lacks, those it holds that no code uses, and what could not be read (dynamic keys, files too large or unparsable) are
 * the listing's note. Nothing is written back: translations reach the repository through the project's code-host
 * connector or `parlance pull`.
 *
 * The files are read through the API, not as an archive: GitHub's zipball redirects to another origin, which the
 * connector HTTP refuses. GitHub: GET /repos/{owner}/{repo} (the default branch), GET …/git/trees/{ref}?recursive=1
 * (paths, blob ids and sizes, one request), GET …/git/blobs/{sha} (immutable, so the files read are one snapshot).
 * GitLab: GET /projects/:id (the default branch), …/repository/branches/:branch (the commit the ref is now, so every
 * file is read at it), …/repository/tree?recursive=true (paginated, X-Next-Page), …/repository/files/:path/raw?ref=.
 *
 * A sync downloads only the files whose blob changed: the listing's state (`Listing.state`, back as `ctx.state`) keeps,
 * per code file path, the blob id it was read at and what the extractor found in it (its uses and warnings, as compact
 * tuples), and the same for parlance.yml (its text) and the source file (its values). Blob ids name the content, so a
 * file whose id is unchanged holds what it held and its findings are reused; a file no longer listed is forgotten. A
 * state of another shape or version is ignored, and a cache over MAX_CACHE_BYTES is not kept (the next sync reads
 * everything). The listing is the same with or without the cache but for the note's count of files downloaded.
 * API references: docs.github.com/rest/git/trees, /rest/git/blobs, /rest/repos/repos, /webhooks/webhook-events-and-payloads#push;
 * docs.gitlab.com/api/repositories/, /api/repository_files/, /api/branches/, /api/projects/, and push events.
 */
import packageJson from '../../../package.json' with { type: 'json' };
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { DEFAULT_EXCLUDE, DEFAULT_EXTRACT_LIMITS, DEFAULT_INCLUDE, isCodeFile } from '../../../src/core/extract/extract-limits.js';
import { extractKeys, ExtractLimitError } from '../../../src/core/extract/extract-keys.js';
import { boundedList, collectKeys, compareWithSource, keyInSource } from '../../../src/core/extract/key-report.js';
import { readSourceFile } from '../../../src/core/extract/source-file.js';
import { compileGlob } from '../../../src/project-config/compile-glob.js';
import { matchSourcePaths } from '../../../src/project-config/match-source-paths.js';
import { parseConfig } from '../../../src/project-config/parse-config.js';
import type { KeyUse } from '../../../src/core/extract/key-use.js';
import type { Connector, ConnectorContext, JsonValue, Listing, RemoteString, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { AnswerTooLargeError, failure, readBody, readJson } from '../connector-http.js';
import { sameSecret } from '../same-secret.js';

/** The most code files one sync reads: each is one request. More is a config error asking for narrower globs. */
export const MAX_CODE_FILES = 2000;
/** A code file larger than this is skipped with a note (bundled or generated code holds no hand-written keys). */
export const MAX_CODE_FILE_BYTES = 512 * 1024;
/** All code files of one sync together. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** The source-language file and parlance.yml. */
export const MAX_SOURCE_FILE_BYTES = 8 * 1024 * 1024;
/** GitLab tree pages of 100; far beyond any repository's tree, a bound against a proxy that never ends the list. */
const MAX_TREE_PAGES = 2000;
/** How many keys (and problems) the listing's note names before it only counts the rest. */
const NOTE_KEYS = 10;
/** The most JSON the cache kept between syncs may take (it is stored on the connection); over it, none is kept. */
export const MAX_CACHE_BYTES = 8 * 1024 * 1024;
/**
 * The cache's shape and the release that wrote it: a cache of another release is ignored (its extractor may have read
 * the files otherwise), so an upgrade reads every file once and no one has to remember to bump a number. The leading
 * number is the shape of the cache itself.
 */
const CACHE_VERSION = `1:${packageJson.version}`;
const EXTRACT_LIMITS = { ...DEFAULT_EXTRACT_LIMITS, maxFiles: MAX_CODE_FILES, maxFileBytes: MAX_CODE_FILE_BYTES, maxTotalBytes: MAX_TOTAL_BYTES };

const glob = z.string().min(1).superRefine((value, ctx) => {
  try {
    compileGlob(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `Invalid glob '${value}': ${(error as Error).message}.` });
  }
});

const settings = z
  .object({
    host: z.enum(['github', 'gitlab']).openapi({ description: 'Where the repository is: `github` (GitHub.com or GitHub Enterprise Server) or `gitlab` (gitlab.com or self-managed).' }),
    api_url: z
      .string()
      .url()
      .optional()
      .openapi({ description: 'The API root. Default `https://api.github.com` for github, `https://gitlab.com/api/v4` for gitlab; GitHub Enterprise Server: `https://<host>/api/v3`.' }),
    repository: z
      .string()
      .min(1)
      .regex(/^(\d+|[^/\s]+(\/[^/\s]+)+)$/, { message: "Expected 'owner/name' (GitLab: the project's full path such as 'group/sub/name', or its numeric id)." })
      .openapi({ description: "`owner/name` on GitHub; on GitLab the project's full path (`group/name`, subgroups included) or numeric id." }),
    ref: z.string().min(1).optional().openapi({ description: "The branch, tag or commit to read. Default: the repository's default branch." }),
    include: z
      .array(glob)
      .min(1)
      .default([...DEFAULT_INCLUDE])
      .openapi({ description: 'Globs of the code files to read (`*`, `**`, `?`, `{a,b}`), relative to the repository root. Default `src/**/*.{js,jsx,ts,tsx,vue}`.' }),
    exclude: z
      .array(glob)
      .default([...DEFAULT_EXCLUDE])
      .openapi({ description: 'Globs of files not to read though `include` matches them. Default: tests (`**/*.{test,spec}.*`, `**/__tests__/**`) and `**/*.d.ts`.' }),
    source_file: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: "The source-language file to compare the keys with (`locales/en.json`). Default: the first source file of parlance.yml's first rule, when the repository has a parlance.yml; else none (no comparison)." }),
    format: z.string().min(1).optional().openapi({ description: "The source file's format (`json`, `json_nested`, `yaml`, …). Default: parlance.yml's rule's, else detected from its name and content." }),
  })
  .strict();

const secrets = z
  .object({
    token: z
      .string()
      .min(1)
      .openapi({ description: 'GitHub: a fine-grained token with read access to Contents (or a classic token with `repo` for a private repository), sent as a Bearer token. GitLab: an access token with `read_api`, sent as PRIVATE-TOKEN.' }),
  })
  .strict();

export type SourceCodeSettings = z.infer<typeof settings>;
export type SourceCodeSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<SourceCodeSettings, SourceCodeSecrets>;

/** A key's use in a cached file: [line, convention, key, default text, notes]; the file is the entry's path. */
const cachedUse = z.tuple([z.number().int(), z.enum(['i18next', 'vue-i18n', 'react-intl', 'angular']), z.string(), z.string().nullable(), z.string().nullable()]);
/** [line or null, message]. */
const cachedWarning = z.tuple([z.number().int().nullable(), z.string()]);
/** A code file at blob `sha`: its size and findings (`parsed`: Babel read it), or too large to read (GitLab's tree states no sizes). */
const cachedCode = z.union([
  z.object({ sha: z.string(), bytes: z.number().int().nonnegative(), parsed: z.boolean(), uses: z.array(cachedUse), warnings: z.array(cachedWarning) }).strict(),
  z.object({ sha: z.string(), tooLarge: z.literal(true) }).strict(),
]);
const fileCache = z
  .object({
    version: z.literal(CACHE_VERSION),
    code: z.record(z.string(), cachedCode),
    config: z.object({ path: z.string(), sha: z.string(), text: z.string() }).strict().optional(),
    /** The source file's values as read with `format` and `plurals` (null: detected, not set). */
    source: z
      .object({ path: z.string(), sha: z.string(), format: z.string().nullable(), plurals: z.enum(['i18next', 'none']).nullable(), values: z.array(z.tuple([z.string(), z.string()])) })
      .strict()
      .optional(),
  })
  .strict();
type CachedCode = z.infer<typeof cachedCode>;
type FileCache = z.infer<typeof fileCache>;

/** A file of the tree: its path, its size when the listing gives one, and how the host reads it. */
interface TreeFile {
  path: string;
  size: number | undefined;
  id: string;
}

/** One repository at one commit (GitLab) or tree (GitHub), read through its host's API. */
interface Repository {
  label: string;
  /** The commit or tree read, for the note. */
  at: string;
  files: TreeFile[];
  read(file: TreeFile, limit: number): Promise<Uint8Array>;
}

/**
 * The JSON of a 2xx answer, read no further than `limit` bytes (over it: AnswerTooLargeError, which skips a code file
 * and fails the sync for anything else).
 */
async function boundedJson<T>(ctx: Ctx, url: string, headers: Record<string, string>, limit: number, what: string): Promise<T> {
  const response = await ctx.http.request(url, { headers });
  if (!response.ok) throw await failure(response, what, { vendor: ctx.settings.host === 'github' ? 'GitHub' : 'GitLab' });
  // Every caller reads a field of the answer: an empty body is the vendor's failure, not an empty result.
  return readJson<T>(response, what, { maxBytes: limit, required: true });
}

function openGithub(ctx: Ctx): () => Promise<Repository> {
  const root = (ctx.settings.api_url ?? 'https://api.github.com').replace(/\/+$/, '');
  const repo = `${root}/repos/${ctx.settings.repository.split('/').map(encodeURIComponent).join('/')}`;
  const label = `${ctx.settings.repository} on GitHub`;
  const headers = { Authorization: `Bearer ${ctx.secrets.token}`, Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28' };
  return async () => {
    const ref = ctx.settings.ref ?? (await boundedJson<{ default_branch: string }>(ctx, repo, headers, 1024 * 1024, `Reading ${label} (setting repository)`)).default_branch;
    const what = `Listing the files of ${label} at '${ref}' (setting ref)`;
    // A tree of 100,000 entries is GitHub's own cap (then `truncated`); its JSON stays well under 64 MiB.
    const tree = await boundedJson<{ sha: string; truncated: boolean; tree: { path: string; type: string; sha: string; size?: number }[] }>(ctx, `${repo}/git/trees/${encodeURIComponent(ref)}?recursive=1`, headers, 64 * 1024 * 1024, what);
    if (tree.truncated) throw new ConnectorError('config', `${what}: the repository's tree holds more than GitHub lists in one answer (100,000 entries or 7 MB), so this connector cannot read it. Use GitLab, or run \`parlance extract\` in CI.`);
    return {
      label,
      at: `tree ${tree.sha.slice(0, 12)} of '${ref}'`,
      files: tree.tree.filter((e) => e.type === 'blob').map((e) => ({ path: e.path, size: e.size, id: e.sha })),
      async read(file, limit) {
        const blob = await boundedJson<{ content: string; encoding: string }>(ctx, `${repo}/git/blobs/${file.id}`, headers, Math.ceil(limit * 1.4) + 4096, `Reading '${file.path}' of ${label}`);
        return new Uint8Array(Buffer.from(blob.content, blob.encoding === 'base64' ? 'base64' : 'utf8'));
      },
    };
  };
}

function openGitlab(ctx: Ctx): () => Promise<Repository> {
  const root = (ctx.settings.api_url ?? 'https://gitlab.com/api/v4').replace(/\/+$/, '');
  const project = `${root}/projects/${encodeURIComponent(ctx.settings.repository)}`;
  const label = `${ctx.settings.repository} on GitLab`;
  const headers = { 'PRIVATE-TOKEN': ctx.secrets.token, Accept: 'application/json' };
  return async () => {
    const ref = ctx.settings.ref ?? (await boundedJson<{ default_branch: string }>(ctx, project, headers, 1024 * 1024, `Reading ${label} (setting repository)`)).default_branch;
    // A branch is pinned to its commit now, so every file comes from one snapshot; a tag or a commit id is one already.
    const branch = await ctx.http.request(`${project}/repository/branches/${encodeURIComponent(ref)}`, { headers });
    let commit = ref;
    if (branch.ok) commit = ((await branch.json()) as { commit: { id: string } }).commit.id;
    else if (!(branch.status === 404 && (await branch.text()).includes('Branch Not Found'))) throw await failure(branch, `Reading branch '${ref}' of ${label} (setting ref)`, { vendor: 'GitLab' });
    const files: TreeFile[] = [];
    let page: string | null = '1';
    let pages = 0;
    while (page) {
      if (++pages > MAX_TREE_PAGES) throw new ConnectorError('config', `Listing the files of ${label}: more than ${MAX_TREE_PAGES} pages of 100 entries; Parlance cannot list this repository whole.`);
      const url = `${project}/repository/tree?recursive=true&ref=${encodeURIComponent(commit)}&per_page=100&page=${page}`;
      const response = await ctx.http.request(url, { headers });
      if (!response.ok) throw await failure(response, `Listing the files of ${label} at '${ref}' (setting ref), page ${page}`, { vendor: 'GitLab' });
      const entries = (await readJson<{ path: string; type: string; id: string }[]>(response, `Listing the files of ${label}`, { maxBytes: 4 * 1024 * 1024 })) ?? [];
      for (const entry of entries) if (entry.type === 'blob') files.push({ path: entry.path, size: undefined, id: entry.id });
      page = response.headers.get('x-next-page') || null;
    }
    return {
      label,
      at: `commit ${commit.slice(0, 12)} of '${ref}'`,
      files,
      async read(file, limit) {
        const what = `Reading '${file.path}' of ${label}`;
        const response = await ctx.http.request(`${project}/repository/files/${encodeURIComponent(file.path)}/raw?ref=${encodeURIComponent(commit)}`, { headers });
        if (!response.ok) throw await failure(response, what, { vendor: 'GitLab' });
        return readBody(response, what, { maxBytes: limit });
      },
    };
  };
}

/** A code file read and parsed now: what the extractor found in it, or too large to read. */
async function readCodeFile(repository: Repository, file: TreeFile): Promise<CachedCode> {
  let bytes: Uint8Array;
  try {
    bytes = await repository.read(file, MAX_CODE_FILE_BYTES);
  } catch (error) {
    if (error instanceof AnswerTooLargeError) return { sha: file.id, tooLarge: true };
    throw error;
  }
  let extraction;
  try {
    extraction = await extractKeys([{ path: file.path, text: Buffer.from(bytes).toString('utf8') }], EXTRACT_LIMITS);
  } catch (error) {
    if (error instanceof ExtractLimitError) throw new ConnectorError('config', `${repository.label}: ${error.message}`);
    throw error;
  }
  return {
    sha: file.id,
    bytes: bytes.byteLength,
    parsed: extraction.files === 1,
    uses: extraction.uses.map((u) => [u.line, u.convention, u.key, u.defaultText ?? null, u.notes ?? null]),
    warnings: extraction.warnings.map((w) => [w.line, w.message]),
  };
}

/** The uses a cached code file holds, as the extractor gave them. */
function usesOf(path: string, entry: Extract<CachedCode, { uses: unknown }>): KeyUse[] {
  return entry.uses.map(([line, convention, key, defaultText, notes]) => ({ key, ...(defaultText !== null ? { defaultText } : {}), ...(notes !== null ? { notes } : {}), file: path, line, convention }));
}

/** The files one listing reads, each downloaded only when its blob is not the one the last listing kept; and what to keep for the next. */
function openCache(state: JsonValue | null | undefined, repository: Repository) {
  const parsed = state === null || state === undefined ? undefined : fileCache.safeParse(state);
  const kept = parsed?.success ? parsed.data : undefined;
  const keptCode = new Map(Object.entries(kept?.code ?? {}));
  const next: FileCache = { version: CACHE_VERSION, code: {} };
  let downloaded = 0;
  let reused = 0;
  return {
    async code(file: TreeFile): Promise<CachedCode> {
      const held = keptCode.get(file.path);
      let entry: CachedCode;
      if (held?.sha === file.id) {
        reused++;
        entry = held;
      } else {
        downloaded++;
        entry = await readCodeFile(repository, file);
      }
      next.code[file.path] = entry;
      return entry;
    },
    async configText(file: TreeFile): Promise<string> {
      let text: string;
      if (kept?.config && kept.config.path === file.path && kept.config.sha === file.id) {
        reused++;
        text = kept.config.text;
      } else {
        downloaded++;
        text = Buffer.from(await repository.read(file, MAX_SOURCE_FILE_BYTES)).toString('utf8');
      }
      next.config = { path: file.path, sha: file.id, text };
      return text;
    },
    /** The source file's values, parsed with `format` and `plurals` (the cache holds them per both). */
    async sourceValues(file: TreeFile, format: string | undefined, plurals: 'i18next' | 'none' | undefined, parse: (bytes: Uint8Array) => Map<string, string>): Promise<Map<string, string>> {
      const held = kept?.source;
      let values: Map<string, string>;
      if (held && held.path === file.path && held.sha === file.id && held.format === (format ?? null) && held.plurals === (plurals ?? null)) {
        reused++;
        values = new Map(held.values);
      } else {
        downloaded++;
        values = parse(await repository.read(file, MAX_SOURCE_FILE_BYTES));
      }
      next.source = { path: file.path, sha: file.id, format: format ?? null, plurals: plurals ?? null, values: [...values] };
      return values;
    },
    /** The note's account of the cache, and the state to keep: none (null) when its JSON would be over MAX_CACHE_BYTES. */
    finish(): { note: string; state: JsonValue } {
      const parts = [`Files downloaded: ${downloaded}; from the cache (blob unchanged since the last sync): ${reused}`];
      if (parsed && !parsed.success) {
        const issue = parsed.error.issues[0];
        parts.push(`the cache the last sync kept is not one this version reads (${issue ? `${issue.path.join('.') || 'state'}: ${issue.message}` : 'unreadable'}), so it was ignored`);
      }
      const size = Buffer.byteLength(JSON.stringify(next));
      if (size > MAX_CACHE_BYTES) {
        parts.push(`no cache kept: it would take ${size} bytes, over the ${MAX_CACHE_BYTES} a connection keeps, so the next sync downloads every file`);
        return { note: parts.join('; '), state: null };
      }
      return { note: parts.join('; '), state: next as JsonValue };
    },
  };
}
type Cache = ReturnType<typeof openCache>;

/** The source-language file: the setting, else parlance.yml's first rule's first source file; with its format and plurals mode. */
async function findSourceFile(ctx: Ctx, repository: Repository, cache: Cache): Promise<{ file: TreeFile; format?: string; plurals?: 'i18next' | 'none' } | undefined> {
  const byPath = new Map(repository.files.map((f) => [f.path, f]));
  if (ctx.settings.source_file !== undefined) {
    const file = byPath.get(ctx.settings.source_file);
    if (!file) throw new ConnectorError('config', `${repository.label} has no file '${ctx.settings.source_file}' at ${repository.at} (setting source_file).`);
    return { file, ...(ctx.settings.format ? { format: ctx.settings.format } : {}) };
  }
  const configFile = byPath.get('parlance.yml') ?? byPath.get('.github/parlance.yml');
  if (!configFile) return undefined;
  const text = await cache.configText(configFile);
  let rule;
  let path;
  try {
    const config = parseConfig(text, configFile.path, configFile.path);
    rule = config.files[0];
    path = rule ? matchSourcePaths({ ...config, files: [rule] }, [...byPath.keys()])[0]?.path : undefined;
  } catch (error) {
    throw new ConnectorError('config', `${repository.label}: ${(error as Error).message} (set source_file to compare with another file).`);
  }
  if (!rule || path === undefined) return undefined;
  const format = ctx.settings.format ?? rule.format;
  return { file: byPath.get(path)!, ...(format ? { format } : {}), ...(rule.plurals ? { plurals: rule.plurals } : {}) };
}

async function list(ctx: Ctx): Promise<Listing> {
  const repository = await (ctx.settings.host === 'github' ? openGithub(ctx) : openGitlab(ctx))();
  const include = ctx.settings.include.map((g) => compileGlob(g));
  const exclude = ctx.settings.exclude.map((g) => compileGlob(g));
  const code = repository.files.filter((f) => isCodeFile(f.path) && include.some((g) => g.test(f.path)) && !exclude.some((g) => g.test(f.path)));
  if (code.length > MAX_CODE_FILES) {
    throw new ConnectorError('config', `${repository.label}: ${code.length} code files match include and not exclude, more than the ${MAX_CODE_FILES} one sync reads; narrow the globs (settings include, exclude).`);
  }
  const cache = openCache(ctx.state, repository);
  const problems: string[] = [];
  const findings: { path: string; entry: Extract<CachedCode, { uses: unknown }> }[] = [];
  let total = 0;
  for (const file of code) {
    // GitHub's tree gives sizes: a large file is skipped unread; GitLab's does not: the read stops at the limit.
    if (file.size !== undefined && file.size > MAX_CODE_FILE_BYTES) {
      problems.push(`${file.path}: skipped, ${file.size} bytes (over ${MAX_CODE_FILE_BYTES})`);
      continue;
    }
    const entry = await cache.code(file);
    if ('tooLarge' in entry) {
      problems.push(`${file.path}: skipped, over ${MAX_CODE_FILE_BYTES} bytes`);
      continue;
    }
    total += entry.bytes;
    if (total > MAX_TOTAL_BYTES) throw new ConnectorError('config', `${repository.label}: the code files hold more than ${MAX_TOTAL_BYTES} bytes together; narrow the globs (settings include, exclude).`);
    findings.push({ path: file.path, entry });
  }
  // Each file was parsed alone (or came from the cache): in path order, its uses and warnings are in the order the
  // extractor gives them for all files at once (by file, then line).
  findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const extraction = {
    uses: findings.flatMap((f) => usesOf(f.path, f.entry)),
    warnings: findings.flatMap((f) => f.entry.warnings.map(([line, message]) => ({ file: f.path, line, message }))),
    files: findings.filter((f) => f.entry.parsed).length,
  };
  const { keys, warnings } = collectKeys(extraction.uses);
  problems.push(...[...extraction.warnings, ...warnings].map((w) => `${w.file}${w.line === null ? '' : `:${w.line}`}: ${w.message}`));

  const found = await findSourceFile(ctx, repository, cache);
  let values: Map<string, string> | undefined;
  if (found) {
    values = await cache.sourceValues(found.file, found.format, found.plurals, (bytes) => {
      try {
        return readSourceFile(found.file.path, bytes, { format: found.format, plurals: found.plurals }).values;
      } catch (error) {
        throw new ConnectorError('config', `${repository.label}: the source file ${found.file.path} cannot be read: ${(error as Error).message}`);
      }
    });
  }
  const sourcePath = found?.file.path;

  // The code's default text first: it is what the developer wrote where the key is used. A key with neither a default
  // nor a value in the source file is left out: its name ('checkout.title') is no text to translate.
  const strings: RemoteString[] = [];
  const textless: string[] = [];
  for (const key of keys) {
    const held = values?.get(keyInSource(key.key, sourcePath));
    const text = key.defaultText ?? held;
    if (text === undefined || text.trim() === '') {
      textless.push(key.key);
      continue;
    }
    const differs = key.defaultText !== undefined && held !== undefined && held !== key.defaultText ? `The source file ${sourcePath} holds "${held}".` : undefined;
    const notes = [key.notes, differs].filter((n) => n !== undefined).join(' ');
    strings.push({ key: key.key, source: text, context: key.context, ...(notes ? { notes } : {}) });
  }

  const parts = [`Source code of ${repository.label}, ${repository.at}, import only: ${keys.length} keys in ${extraction.files} of ${code.length} code files`];
  if (values) {
    const { missing, unused } = compareWithSource(keys, [...values.keys()], sourcePath);
    parts.push(missing.length > 0 ? `${missing.length} used but missing from ${sourcePath}: ${boundedList(missing.map((k) => k.key), NOTE_KEYS)}` : `none missing from ${sourcePath}`);
    parts.push(unused.length > 0 ? `${unused.length} in ${sourcePath} that no code uses: ${boundedList(unused, NOTE_KEYS)}` : 'none unused');
  } else {
    parts.push('no source file to compare with (setting source_file, or a parlance.yml)');
  }
  if (textless.length > 0) parts.push(`${textless.length} without any text (no default in the code, none in the source file), not imported: ${boundedList(textless, NOTE_KEYS)}`);
  if (problems.length > 0) parts.push(`${problems.length} not read: ${problems.slice(0, NOTE_KEYS).join('; ')}${problems.length > NOTE_KEYS ? `; and ${problems.length - NOTE_KEYS} more` : ''}`);
  const kept = cache.finish();
  parts.push(kept.note);
  return { units: [{ kind: 'strings', path: ctx.settings.repository, strings }], note: `${parts.join('. ')}.`, state: kept.state };
}

/** The ref a push must be to for a sync: the `ref` setting's branch, else the repository's default branch (from the payload). */
function pushedToRef(payload: { ref?: unknown; repository?: { default_branch?: unknown } }, ref: string | undefined): boolean {
  const branch = ref ?? (typeof payload.repository?.default_branch === 'string' ? payload.repository.default_branch : undefined);
  return branch !== undefined && payload.ref === `refs/heads/${branch}`;
}

/**
 * GitHub signs push events with X-Hub-Signature-256 (HMAC-SHA256 of the body with the webhook's secret); GitLab sends
 * the webhook's secret token as is in X-Gitlab-Token. Either is compared in constant time with the connection's webhook
 * secret; a push to another branch is acknowledged without a sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, current: SourceCodeSettings): WebhookVerdict {
  if (current.host === 'github') {
    const signature = request.headers.get('x-hub-signature-256');
    if (!signature) return { verified: false, sync: false, reason: "no X-Hub-Signature-256 header; set the GitHub webhook's secret to the connection's webhook_secret" };
    const expected = `sha256=${createHmac('sha256', webhookSecret).update(request.body).digest('hex')}`;
    if (!sameSecret(signature, expected)) return { verified: false, sync: false, reason: "X-Hub-Signature-256 does not match the body signed with the connection's webhook secret" };
    const event = request.headers.get('x-github-event');
    if (event === 'ping') return { verified: true, sync: false, reason: 'ping event' };
    if (event !== 'push') return { verified: true, sync: false, reason: `event '${event}' is not a push` };
  } else {
    const token = request.headers.get('x-gitlab-token');
    if (token === null) return { verified: false, sync: false, reason: "no X-Gitlab-Token header; set the secret token of the GitLab webhook to the connection's webhook_secret" };
    if (!sameSecret(token, webhookSecret)) return { verified: false, sync: false, reason: "X-Gitlab-Token does not match the connection's webhook secret" };
    const event = request.headers.get('x-gitlab-event');
    if (event !== 'Push Hook') return { verified: true, sync: false, reason: `event '${event}' is not a push` };
  }
  let payload: { ref?: unknown; repository?: { default_branch?: unknown }; project?: { default_branch?: unknown } };
  try {
    payload = JSON.parse(Buffer.from(request.body).toString('utf8')) as typeof payload;
  } catch {
    return { verified: true, sync: false, reason: 'the body is not JSON' };
  }
  // GitLab names the default branch under `project`, GitHub under `repository`.
  const repository = current.host === 'gitlab' ? { default_branch: payload.project?.default_branch } : payload.repository;
  if (!pushedToRef({ ref: payload.ref, ...(repository ? { repository } : {}) }, current.ref)) return { verified: true, sync: false, reason: `push to '${String(payload.ref)}', not the branch the connection reads` };
  return { verified: true, sync: true };
}

export const sourceCode: Connector<SourceCodeSettings, SourceCodeSecrets> = {
  id: 'source_code',
  name: 'Source code',
  category: 'code_host',
  direction: 'import_only',
  summary:
    "A repository's code on GitHub or GitLab: the translation keys it uses (i18next, vue-i18n, react-intl, Angular $localize) are imported with the code's default text as the source and their first use as context; keys missing from or unused in the source-language file are reported; import only, nothing is written to the repository.",
  settings,
  secrets,
  webhooks: "GitHub's X-Hub-Signature-256 (HMAC-SHA256 of the body) or GitLab's X-Gitlab-Token, with the connection's webhook secret; push events to the branch read",
  list,
  verifyWebhook,
};
