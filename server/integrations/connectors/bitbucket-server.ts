/**
 * Bitbucket Data Center / Server (REST API 1.0) as a code host, with an HTTP access token sent as Bearer. Its REST API
 * has no multi-file commit: a batch's translation files are committed one file per commit with the file edit endpoint
 * (`PUT …/browse/{path}`), each checked against the commit Parlance read (`sourceCommitId`) and after a re-read of the
 * branch head, so a person's push in between stops the write instead of being overwritten. Refused and flagged rows
 * are a Code Insights report with one annotation per row on its source line, plus a build status; pushes to the base
 * branch (`repo:refs_changed`) and merges into it (`pr:merged`) are announced by a webhook signed with
 * `X-Hub-Signature: sha256=<HMAC-SHA256 of the body>`.
 *
 * API reference: Atlassian's OpenAPI document of Bitbucket Data Center (as vendored in coderabbitai/bitbucket,
 * src/server/openapi/swagger.v3.json) and developer.atlassian.com/server/bitbucket/rest: Find branches, Create branch,
 * Get files in directory, Get raw content of a file at revision, Edit file, Get the common ancestor between two
 * commits, Get/Create/Update pull request, Create a Code Insights report, Add/Delete Code Insights annotations, Create
 * build status for commit; webhooks: confluence.atlassian.com/bitbucketserver/event-payload (X-Event-Key,
 * X-Hub-Signature, repo:refs_changed, pr:merged).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { branchFor, codeHostSettings, createCodeHostConnector, type CodeHostSettings, type GitHost } from '../code-host.js';
import type { ConnectorContext, ReportRow, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readBody, readJson, vendorMessage } from '../connector-http.js';
import { sameSecret } from '../same-secret.js';

const settingsSchema = z
  .object({
    base_url: z
      .string()
      .url()
      .openapi({ description: "The instance's address, with its context path if it has one, such as `https://bitbucket.example.com` or `https://example.com/bitbucket` (the REST paths are added to it)." }),
    project_key: z.string().min(1).openapi({ description: "The project's key, as in `/projects/{KEY}/repos/{slug}` (for a personal repository: `~` and the user's slug, such as `~maria`)." }),
    repo_slug: z.string().min(1).openapi({ description: "The repository's slug, as in `/projects/{KEY}/repos/{slug}`." }),
    ...codeHostSettings,
  })
  .strict();

const secretsSchema = z
  .object({
    token: z
      .string()
      .min(1)
      .openapi({ description: "An HTTP access token with repository write permission, sent as `Authorization: Bearer …`: a personal token of Parlance's (bot) account, or a project or repository token where the instance lets those commit." }),
  })
  .strict();

export type BitbucketServerSettings = z.infer<typeof settingsSchema> & CodeHostSettings;
export type BitbucketServerSecrets = z.infer<typeof secretsSchema>;
type Context = ConnectorContext<BitbucketServerSettings, BitbucketServerSecrets>;

/** Page sizes and the most pages any listing follows (1000 × 500: half a million files or refs). */
const PAGE_LIMIT = 1000;
const MAX_PAGES = 500;
/** A translation or source file larger than this is refused rather than read into memory. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Code Insights keeps at most 1000 annotations on a report by default and refuses a request going over it. */
const ANNOTATIONS_PER_REPORT = 1000;
const ANNOTATIONS_PER_REQUEST = 100;
/** The Code Insights report key and the build status key, namespaced as Atlassian recommends; each sync replaces the last. */
const REPORT_KEY = 'parlance.translations';
/** Build status fields are limited to 255 characters, the url to 450. */
const STATUS_FIELD_MAX = 255;
const STATUS_URL_MAX = 450;

interface Page<T> {
  values: T[];
  isLastPage: boolean;
  nextPageStart?: number;
}
interface Branch {
  id: string;
  displayId: string;
  latestCommit: string;
}
interface Commit {
  id: string;
  parents?: { id: string }[];
}
interface PullRequest {
  id: number;
  version: number;
  title: string;
  description?: string;
  toRef: { id: string };
  reviewers?: { user: { name: string } }[];
  links?: { self?: { href: string }[] };
}

/** Each segment percent-encoded, the slashes kept: the `{path}` routes take the path as it is in the tree. */
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
const refOf = (branch: string) => `refs/heads/${branch}`;

/** Bitbucket Server's error envelope `{ errors: [{ context, message, exceptionName }] }`, every message joined. */
function serverMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { message?: string }[] };
    const messages = (body.errors ?? []).map((e) => e.message).filter((m): m is string => typeof m === 'string' && m !== '');
    if (messages.length > 0) return messages.join(' ').slice(0, 300);
  } catch {
    // Not JSON: the usual reading.
  }
  return vendorMessage(text);
}

function openBitbucketServer(ctx: Context): GitHost {
  const s = ctx.settings;
  const root = s.base_url.replace(/\/+$/, '');
  const repoPath = `projects/${encodeURIComponent(s.project_key)}/repos/${encodeURIComponent(s.repo_slug)}`;
  const api = `${root}/rest/api/1.0/${repoPath}`;
  const label = `${s.project_key}/${s.repo_slug} on ${new URL(root).host}`;
  const headers = { authorization: `Bearer ${ctx.secrets.token}`, accept: 'application/json' };
  const jsonHeaders = { ...headers, 'content-type': 'application/json' };
  const wording = { vendor: 'Bitbucket', read: serverMessage, credentials: "the connection's token (an HTTP access token with repository write permission)", settings: "the connection's base_url, project_key and repo_slug" };
  const fail = (response: Response, what: string) => failure(response, what, wording);

  /** `notFound`: the error a 404 means for this request (else the wording of `failure`). */
  async function json<T>(url: string, what: string, init: { method?: string; body?: unknown; notFound?: () => ConnectorError } = {}): Promise<T> {
    const response = await ctx.http.request(url, {
      headers: init.body === undefined ? headers : jsonHeaders,
      ...(init.method ? { method: init.method } : {}),
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    if (response.status === 404 && init.notFound) {
      await response.body?.cancel();
      throw init.notFound();
    }
    if (!response.ok) throw await fail(response, what);
    return readJson<T>(response, what);
  }

  /** Every value of a paged listing (`start`, `isLastPage`, `nextPageStart`), stopping with an error after MAX_PAGES. */
  async function* pages<T>(url: string, what: string, notFound?: () => ConnectorError): AsyncGenerator<T[]> {
    let start = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const sep = url.includes('?') ? '&' : '?';
      const body = await json<Page<T>>(`${url}${sep}limit=${PAGE_LIMIT}&start=${start}`, what, notFound ? { notFound } : {});
      yield body.values;
      if (body.isLastPage || body.nextPageStart === undefined) return;
      start = body.nextPageStart;
    }
    throw new ConnectorError('config', `${what}: more than ${MAX_PAGES} pages of ${PAGE_LIMIT}; Parlance stops there. Point the connection at a smaller repository.`);
  }

  async function branchHead(branch: string): Promise<string | null> {
    const what = `Reading branch '${branch}' of ${label}`;
    const url = `${api}/branches?filterText=${encodeURIComponent(branch)}&boostMatches=true`;
    const noRepository = () => new ConnectorError('config', `${what}: there is no repository '${s.repo_slug}' in project '${s.project_key}' at ${root} that the token can see (HTTP 404); check the connection's project_key and repo_slug settings.`);
    // filterText matches substrings too ('main' finds 'maintenance'): the branch is the one whose ref is exactly its own.
    for await (const values of pages<Branch>(url, what, noRepository)) {
      const found = values.find((b) => b.id === refOf(branch));
      if (found) return found.latestCommit;
    }
    return null;
  }

  async function listFiles(commit: string): Promise<string[]> {
    const files: string[] = [];
    for await (const values of pages<string>(`${api}/files?at=${encodeURIComponent(commit)}`, `Listing the files of ${label} at ${commit.slice(0, 12)}`)) files.push(...values);
    return files;
  }

  async function readFile(commit: string, path: string): Promise<Uint8Array | null> {
    const what = `Reading '${path}' of ${label} at ${commit.slice(0, 12)}`;
    const response = await ctx.http.request(`${api}/raw/${encodePath(path)}?at=${encodeURIComponent(commit)}`, { headers: { ...headers, accept: '*/*' } });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw await fail(response, what);
    return readBody(response, what, { maxBytes: MAX_FILE_BYTES, tooLarge: `Parlance does not translate files that large: split it, or leave it out of ${s.config_path}` });
  }

  const moved = (branch: string, expected: string, head: string | null) =>
    new ConnectorError(
      'unavailable',
      `Branch '${branch}' of ${label} moved from ${expected.slice(0, 12)} to ${head ? head.slice(0, 12) : '(deleted)'} while Parlance prepared its commit (someone pushed to it); nothing of theirs was overwritten, and the sync is retried on top of the new head.`,
    );

  async function createBranch(branch: string, startPoint: string): Promise<void> {
    const what = `Creating branch '${branch}' of ${label} at ${startPoint.slice(0, 12)}`;
    const response = await ctx.http.request(`${api}/branches`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ name: branch, startPoint }) });
    if (response.status === 400 || response.status === 409) {
      const body = await response.text();
      const said = serverMessage(body);
      // A branch created meanwhile (by a retried write, or a person), or a start point pushed away since it was read:
      // the next attempt reads the branches again.
      if (response.status === 409 || /DuplicateRefException|NoSuchCommitException/.test(body) || /already exists/i.test(said)) {
        throw new ConnectorError('unavailable', `${what}: Bitbucket refused it (HTTP ${response.status}: ${said}); the sync is retried and goes on from the branch as it is.`);
      }
      // An invalid name (InvalidRefNameException: too long, a character the instance refuses): the same name is refused again.
      throw new ConnectorError('config', `${what}: Bitbucket refused the branch name (HTTP 400: ${said}). Parlance names its branch after the \`base_branch\` setting ('${s.base_branch}' → '${branch}'): point \`base_branch\` at a branch whose name Bitbucket accepts with the 'parlance/' prefix (at most 100 characters as refs/heads/…), then sync again.`);
    }
    if (!response.ok) throw await fail(response, what);
    await response.body?.cancel();
  }

  /** One file per commit: the REST API 1.0 commits a single file per edit request. */
  async function commit(input: Parameters<GitHost['commit']>[0]): Promise<string> {
    if (input.create) await createBranch(input.branch, input.parent);
    else {
      const head = await branchHead(input.branch);
      if (head !== input.parent) throw moved(input.branch, input.parent, head);
    }
    let tip = input.parent;
    for (const [index, file] of input.files.entries()) {
      if (index > 0) {
        const head = await branchHead(input.branch);
        if (head !== tip) throw moved(input.branch, tip, head);
      }
      const fields: Record<string, string> = { message: fileMessage(input.message, file.path, index, input.files.length), branch: input.branch };
      // The file's compare-and-swap: Bitbucket refuses (409) an edit of a file changed since this commit, and a
      // "new" file (no sourceCommitId) that exists meanwhile.
      if (file.exists) fields.sourceCommitId = tip;
      const { body, contentType } = multipart(fields, file.content, file.path.split('/').pop()!);
      const what = `Committing '${file.path}' on '${input.branch}' of ${label}`;
      const response = await ctx.http.request(`${api}/browse/${encodePath(file.path)}`, { method: 'PUT', headers: { ...headers, 'content-type': contentType }, body });
      if (response.status === 409) {
        throw new ConnectorError('unavailable', `${what}: Bitbucket refused it because the file or the branch changed since Parlance read it at ${tip.slice(0, 12)} (HTTP 409: ${serverMessage(await response.text())}); nothing of theirs was overwritten, and the sync is retried on top of it.`);
      }
      if (response.status === 403) {
        throw new ConnectorError('auth', `${what}: Bitbucket refused the token (HTTP 403: ${serverMessage(await response.text())}). A project or repository access token without a user of its own cannot edit files on some instances: use a personal HTTP access token of Parlance's (bot) account with write permission, then PATCH the connection.`);
      }
      if (!response.ok) throw await fail(response, what);
      const made = await readJson<Commit>(response, what);
      // Bitbucket commits on the branch's head, which a push may have moved since the check above: the file itself was
      // unchanged (else 409), but the person's commit holds other files this write could overwrite next. Stop here; the
      // retried sync lists their changes first.
      if (made.parents?.[0]?.id !== tip) throw moved(input.branch, tip, made.parents?.[0]?.id ?? null);
      tip = made.id;
    }
    return tip;
  }

  async function mergeBase(a: string, b: string): Promise<string> {
    const what = `Finding the merge base of ${a.slice(0, 12)} and ${b.slice(0, 12)} in ${label}`;
    const found = await json<Commit | undefined>(`${api}/commits/${encodeURIComponent(a)}/merge-base?otherCommitId=${encodeURIComponent(b)}`, what);
    if (!found) throw new ConnectorError('config', `${what}: the two commits share no history (HTTP 204). Delete the branch '${branchFor(s.base_branch)}' so Parlance recreates it from '${s.base_branch}'.`);
    return found.id;
  }

  const pullUrl = (pr: PullRequest) => pr.links?.self?.[0]?.href ?? `${root}/${repoPath}/pull-requests/${pr.id}`;

  async function findRequest(source: string, target: string): Promise<{ id: string; url: string } | null> {
    const url = `${api}/pull-requests?state=OPEN&direction=OUTGOING&at=${encodeURIComponent(refOf(source))}`;
    for await (const values of pages<PullRequest>(url, `Looking for the pull request from '${source}' into '${target}' of ${label}`)) {
      const found = values.find((pr) => pr.toRef.id === refOf(target));
      if (found) return { id: String(found.id), url: pullUrl(found) };
    }
    return null;
  }

  async function openRequest(input: { source: string; target: string; title: string; body: string }): Promise<{ id: string; url: string }> {
    const repository = { slug: s.repo_slug, project: { key: s.project_key } };
    const created = await json<PullRequest>(`${api}/pull-requests`, `Opening the pull request from '${input.source}' into '${input.target}' of ${label}`, {
      method: 'POST',
      body: { title: input.title, description: input.body, fromRef: { id: refOf(input.source), repository }, toRef: { id: refOf(input.target), repository } },
    });
    return { id: String(created.id), url: pullUrl(created) };
  }

  /** Bitbucket updates a pull request only at its current `version` (409 otherwise): it is read first. */
  async function updateRequest(id: string, input: { title: string; body: string }): Promise<void> {
    const url = `${api}/pull-requests/${encodeURIComponent(id)}`;
    const what = `Updating pull request #${id} of ${label}`;
    const current = await json<PullRequest>(url, what);
    if (current.title === input.title && (current.description ?? '') === input.body) return;
    // The reviewers go back as they are: an update without them may clear the list people set (unconfirmed: guarded).
    await json(url, what, { method: 'PUT', body: { version: current.version, title: input.title, description: input.body, reviewers: (current.reviewers ?? []).map((r) => ({ user: { name: r.user.name } })) } });
  }

  async function reportStatus(input: Parameters<GitHost['reportStatus']>[0]): Promise<void> {
    const report = `${root}/rest/insights/1.0/${repoPath}/commits/${encodeURIComponent(input.commit)}/reports/${REPORT_KEY}`;
    const at = `commit ${input.commit.slice(0, 12)} of ${label}`;
    const refused = input.problems.filter((p) => p.outcome === 'refused').length;
    await json(report, `Reporting on ${at}`, {
      method: 'PUT',
      body: {
        title: 'Parlance',
        details: input.summary.slice(0, 2000),
        result: input.state === 'success' ? 'PASS' : 'FAIL',
        reporter: 'Parlance',
        ...(input.url ? { link: input.url } : {}),
        data: [
          { title: 'Refused', type: 'NUMBER', value: refused },
          { title: 'Flagged', type: 'NUMBER', value: input.problems.length - refused },
        ],
      },
    });
    // Bitbucket does not de-duplicate annotations: the report's are deleted before they are posted again.
    await json(`${report}/annotations`, `Clearing the annotations of ${at}`, { method: 'DELETE' });
    const annotations = input.problems.slice(0, ANNOTATIONS_PER_REPORT).map(annotation);
    for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
      await json(`${report}/annotations`, `Annotating ${at}`, { method: 'POST', body: { annotations: annotations.slice(i, i + ANNOTATIONS_PER_REQUEST) } });
    }
    // A build status needs a link (`url` is mandatory); without one the report stands alone.
    if (input.url && input.url.length <= STATUS_URL_MAX) {
      await json(`${root}/rest/build-status/1.0/commits/${encodeURIComponent(input.commit)}`, `Setting the build status of ${at}`, {
        method: 'POST',
        body: { state: input.state === 'success' ? 'SUCCESSFUL' : 'FAILED', key: REPORT_KEY, name: 'Parlance', url: input.url, description: input.summary.slice(0, STATUS_FIELD_MAX) },
      });
    }
  }

  return { label, branchHead, listFiles, readFile, commit, findRequest, openRequest, updateRequest, reportStatus, mergeBase, annotatesRows: true };
}

/**
 * The Edit file request's multipart body, written out rather than by FormData, which would turn the message's line
 * feeds into CRLF (the HTML form encoding) and so put carriage returns into the commit message and its trailer.
 */
function multipart(fields: Record<string, string>, content: Uint8Array, filename: string): { body: Uint8Array; contentType: string } {
  const boundary = `parlance-${randomBytes(12).toString('hex')}`;
  const quote = (value: string) => value.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="${quote(filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: new Uint8Array(Buffer.concat(parts)), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A batch's message on each of its one-file commits: the file named in the subject, the trailer kept last. */
function fileMessage(message: string, path: string, index: number, count: number): string {
  if (count === 1) return message;
  const [subject, ...rest] = message.split('\n');
  return [`${subject} (${index + 1}/${count}: ${path})`, ...rest].join('\n');
}

/** One annotation per problem row; the external id names the row, so a later report's annotation is the same row's. */
function annotation(row: ReportRow) {
  const externalId = createHash('sha256').update(`${row.path}\0${row.key}\0${row.locale}`).digest('hex').slice(0, 32);
  return {
    externalId: `parlance-${externalId}`,
    path: row.path,
    ...(row.line !== null ? { line: row.line } : {}),
    message: `${row.locale} '${row.key}' ${row.outcome}: ${row.reason}`.slice(0, 2000),
    severity: row.outcome === 'refused' ? 'HIGH' : 'MEDIUM',
    type: 'BUG',
  };
}

const repository = z.object({ slug: z.string(), project: z.object({ key: z.string() }) });
const refsChanged = z.object({
  repository,
  changes: z.array(z.object({ refId: z.string(), type: z.string() })),
});
const prMerged = z.object({
  pullRequest: z.object({ toRef: z.object({ id: z.string(), repository }) }),
});

export function verifyBitbucketServerWebhook(request: WebhookRequest, webhookSecret: string, settings: BitbucketServerSettings): WebhookVerdict {
  const signature = request.headers.get('x-hub-signature');
  if (!signature) return { verified: false, sync: false, reason: "No X-Hub-Signature header: set the Bitbucket webhook's Secret to the connection's webhook_secret." };
  const expected = `sha256=${createHmac('sha256', webhookSecret).update(request.body).digest('hex')}`;
  if (!sameSecret(signature.toLowerCase(), expected)) return { verified: false, sync: false, reason: "X-Hub-Signature does not match the body signed with the connection's webhook secret." };
  const event = request.headers.get('x-event-key') ?? '(none)';
  if (event !== 'repo:refs_changed' && event !== 'pr:merged') return { verified: true, sync: false, reason: `Event '${event}' is neither repo:refs_changed nor pr:merged; nothing to sync.` };
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(request.body));
  } catch {
    return { verified: true, sync: false, reason: `The ${event} body is not JSON.` };
  }
  const base = refOf(settings.base_branch);
  const ours = (repo: z.infer<typeof repository>) => repo.slug.toLowerCase() === settings.repo_slug.toLowerCase() && repo.project.key.toLowerCase() === settings.project_key.toLowerCase();
  const wanted = `${settings.project_key}/${settings.repo_slug}`;
  if (event === 'pr:merged') {
    const parsed = prMerged.safeParse(body);
    if (!parsed.success) return { verified: true, sync: false, reason: `The pr:merged body is not a pull request event: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}.` };
    const to = parsed.data.pullRequest.toRef;
    if (!ours(to.repository)) return { verified: true, sync: false, reason: `The merge is into ${to.repository.project.key}/${to.repository.slug}, not ${wanted}.` };
    return to.id === base ? { verified: true, sync: true } : { verified: true, sync: false, reason: `The merge is into ${to.id}, not branch '${settings.base_branch}'.` };
  }
  const parsed = refsChanged.safeParse(body);
  if (!parsed.success) return { verified: true, sync: false, reason: `The repo:refs_changed body is not a push event: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}.` };
  if (!ours(parsed.data.repository)) return { verified: true, sync: false, reason: `The push is to ${parsed.data.repository.project.key}/${parsed.data.repository.slug}, not ${wanted}.` };
  const touched = parsed.data.changes.some((change) => change.refId === base && change.type !== 'DELETE');
  return touched ? { verified: true, sync: true } : { verified: true, sync: false, reason: `The push does not change branch '${settings.base_branch}'.` };
}

export const bitbucketServer = createCodeHostConnector<BitbucketServerSettings, BitbucketServerSecrets>({
  id: 'bitbucket_server',
  name: 'Bitbucket Data Center',
  summary:
    'A Bitbucket Data Center / Server repository with parlance.yml: pushes to the base branch are translated, the translation files are committed on parlance/<base> (one file per commit) with one pull request, refused rows are Code Insights annotations on their source lines.',
  settings: settingsSchema,
  secrets: secretsSchema,
  webhooks: "Bitbucket's X-Hub-Signature (sha256=HMAC-SHA256 of the body with the webhook's secret), events repo:refs_changed and pr:merged",
  open: openBitbucketServer,
  verifyWebhook: verifyBitbucketServerWebhook,
});
